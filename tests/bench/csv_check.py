#!/usr/bin/env python3
"""The benchmarks' CSV files as a user reads them, with python's csv module.

  csv_check.py BENCH_MAIN BENCH_PSRS SRCDIR

bench_main on a shape with commas ("package:2 core:[1,2]") and a label with
a comma and quotes: both come back intact from points.csv and
measurements.csv; every file is RFC 4180 with LF line ends and as many
fields per row as its header; measurements.csv holds every repetition of
every implementation (reps x (SGL + 2 peers) per point, the replay per
repetition, the closed form once) and its statistics are points.csv's;
a file with other columns is refused; report.awk reads the quoted fields;
plot.gp draws both panels from the CSV; bench_psrs writes one row per
repetition and implementation."""
import csv
import io
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

bench_main, bench_psrs, src = sys.argv[1:4]
tmp = tempfile.mkdtemp()
failures = []


def fail(msg):
    failures.append(msg)
    print("not ok:", msg, file=sys.stderr)


def run(cmd, env_extra, **kw):
    env = dict(os.environ, **env_extra)
    return subprocess.run(cmd, env=env, capture_output=True, text=True,
                          timeout=120, **kw)


def read(path):
    """Rows of an RFC 4180 file with LF line ends; checks the shape."""
    with open(path, "rb") as f:
        raw = f.read()
    if b"\r" in raw:
        fail(f"{path}: CR in the file (records end in LF)")
    rows = list(csv.reader(io.StringIO(raw.decode(), newline="")))
    header = rows[0]
    for i, r in enumerate(rows[1:], 2):
        if len(r) != len(header):
            fail(f"{path}: record {i} has {len(r)} fields, header {len(header)}")
    return [dict(zip(header, r)) for r in rows[1:]], header


def close(a, b):
    return abs(a - b) <= 1e-6 * max(abs(a), abs(b), 1e-300)


REPS = 3
SHAPE = "package:2 core:[1,2]"
LABEL = 'odd, "label"'
points = os.path.join(tmp, "points.csv")
meas = os.path.join(tmp, "measurements.csv")
params = ["--params", os.path.join(src, "machine/machines/paper-16x8.sgl")]
common = ["--sizes", "1e3,2e3", "--reps", str(REPS), "--csv", points,
          "--measurements", meas] + params
# 1. the shape with commas, a label with a comma and quotes (no
#    prediction: that tree has no shape string, so no replay either);
# 2. core:2 with a prediction tree: closed form and replay rows.
# (The core:2 run with a prediction interval: the same file as both ends.)
paper = os.path.join(src, "machine/machines/paper-16x8.sgl")
for shape, label, threads in ((SHAPE, LABEL, "3"), ("core:2", "1x2", "2")):
    ends = ["--params-lo", paper, "--params-hi", paper] if label == "1x2" else []
    r = run([bench_main, "--config", label] + common + ends,
            {"SGL_SHAPE": shape, "OMP_NUM_THREADS": threads})
    if r.returncode:
        fail(f"bench_main on {shape}: exit {r.returncode}\n{r.stderr}")
        sys.exit(1)

pts, pheader = read(points)
ms, mheader = read(meas)
with open(points) as f:
    text = f.read()
if '"package:2 core:[1,2]"' not in text:
    fail("points.csv: the shape is not quoted as it is")
if '"odd, ""label"""' not in text:
    fail("points.csv: the label's quotes are not doubled")
for col in ("n_elements", "median_s", "closed_form_s", "replay_s",
            "omp_reduction_median_s", "std_sort_median_s"):
    if col not in pheader:
        fail(f"points.csv: no column {col}")
odd = [p for p in pts if p["config"] == LABEL]
if len(odd) != 6 or any(p["shape"] != SHAPE for p in odd):
    fail(f"points.csv: {len(odd)} rows of {LABEL!r} with the shape "
         f"{set(p['shape'] for p in odd)}, expected 6 with {SHAPE!r}")
if len(pts) != 12:
    fail(f"points.csv: {len(pts)} rows, expected 12")
# The interval's columns follow the peers', so no column moved; with the
# same file as both ends they are the closed form, without them empty.
# The machine's state follows them: sensed on the flat 1x2 (c(sum) of
# the paper's file as the price), off on the two-level tree.
if pheader[-4:] != ["closed_form_lo_s", "closed_form_hi_s", "state_c_s",
                    "state_drift_rel"]:
    fail(f"points.csv: the interval and state columns are not last: "
         f"{pheader[-5:]}")
for p in pts:
    if p["config"] == "1x2":
        c, d = float(p["state_c_s"]), float(p["state_drift_rel"])
        if not (0 < c < 1e-6 and d > -1):
            fail(f"points.csv 1x2 {p['algo']}: state {c!r}, drift {d!r}")
    elif p["state_c_s"] or p["state_drift_rel"]:
        fail(f"points.csv {p['config']}: a state on a two-level tree")
for p in pts:
    want = (p["closed_form_s"],) * 2 if p["config"] == "1x2" else ("", "")
    if (p["closed_form_lo_s"], p["closed_form_hi_s"]) != want:
        fail(f"points.csv {p['config']} {p['algo']}: interval "
             f"{p['closed_form_lo_s']!r}..{p['closed_form_hi_s']!r}, "
             f"expected {want}")
if any(m["shape"] != SHAPE for m in ms if m["config"] == LABEL):
    fail("measurements.csv: the shape does not round-trip")

peers = {"reduce": ("omp_reduction", "read_bound"),
         "scan": ("two_pass_scan", "omp_scan"),
         "psrs": ("std_sort", "gnu_parallel_sort")}
for p in pts:
    key = (p["config"], p["algo"], p["n_elements"])
    mine = [m for m in ms if (m["config"], m["algo"], m["n_elements"]) == key]
    by = {}
    for m in mine:
        by.setdefault(m["implementation"], []).append(m)
    for impl in ("sgl",) + peers[p["algo"]]:
        reps = sorted(int(m["rep"]) for m in by.get(impl, []))
        if reps != list(range(1, REPS + 1)):
            fail(f"{key} {impl}: repetitions {reps}, expected 1..{REPS}")
    sgl = [float(m["time_s"]) for m in by.get("sgl", [])]
    if sgl and not (close(statistics.median(sgl), float(p["median_s"])) and
                    close(min(sgl), float(p["min_s"])) and
                    close(max(sgl), float(p["max_s"]))):
        fail(f"{key}: median/min/max of the sgl rows are not points.csv's")
    for k, impl in enumerate(peers[p["algo"]]):
        t = [float(m["time_s"]) for m in by.get(impl, [])]
        col = impl + "_median_s"
        if t and not close(statistics.median(t), float(p[col])):
            fail(f"{key}: median of {impl} is not points.csv's {col}")
    for a, (q, r) in peers.items():
        for impl in (q, r):
            if (a == p["algo"]) != (p[impl + "_median_s"] != ""):
                fail(f"{key}: {impl}_median_s filled in the wrong rows")
    replay = [float(m["time_s"]) for m in by.get("replay", [])]
    closed = by.get("closed_form", [])
    if p["config"] == "1x2":
        if len(replay) != REPS or len(closed) != 1 or closed[0]["rep"] != "":
            fail(f"{key}: {len(replay)} replay rows, {len(closed)} closed "
                 f"form rows, expected {REPS} and 1 (rep empty)")
        elif not (close(statistics.median(replay), float(p["replay_s"])) and
                  close(float(closed[0]["time_s"]),
                        float(p["closed_form_s"]))):
            fail(f"{key}: replay or closed form rows are not points.csv's")
    expect = REPS * 3 + len(replay) + len(closed)
    if len(mine) != expect:
        fail(f"{key}: {len(mine)} measurement rows, expected {expect}")

# Appending under another header is refused, not mixed in.
bad = os.path.join(tmp, "old.csv")
with open(bad, "w") as f:
    f.write("config,shape,n\n1x1,core:1,1000\n")
r = run([bench_main, "--config", "x", "--sizes", "1e3", "--reps", "1",
         "--algos", "reduce", "--csv", bad],
        {"SGL_SHAPE": "core:1", "OMP_NUM_THREADS": "1"})
if r.returncode == 0 or "other columns" not in r.stderr:
    fail(f"a points file with other columns was not refused: exit "
         f"{r.returncode}, {r.stderr!r}")

# report.awk takes the quoted fields (Debian's awk is mawk).
csv_awk = ["-f", os.path.join(src, "bench/csv.awk")]
r = run(["awk", *csv_awk, "-f", os.path.join(src, "bench/report.awk"), points],
        {})
if r.returncode or LABEL not in r.stdout or "omp_reduction" not in r.stdout:
    fail(f"report.awk: exit {r.returncode}, label or peer missing\n"
         f"{r.stdout}{r.stderr}")
r = run(["awk", "-v", "list=configs", *csv_awk, "-f",
         os.path.join(src, "bench/report.awk"), points], {})
if r.stdout.strip() != f"{LABEL} 1x2":
    fail(f"report.awk -v list=configs: {r.stdout!r}")

# plot.gp: both panels, from the CSV.
if run(["gnuplot", "--version"], {}).returncode == 0:
    for term, band in (("png", 0), ("svg", 0), ("svg", 1)):
        out = os.path.join(tmp, "reduce%s.%s" % ("-band" if band else "", term))
        r = run(["gnuplot", "-e",
                 f"csv='{points}'; algo='reduce'; configs='1x2'; "
                 f"term='{term}'; outfile='{out}'; host='test'; band={band}",
                 os.path.join(src, "bench/plot.gp")], {})
        if r.returncode or not os.path.isfile(out) or \
                os.path.getsize(out) < 2000:
            fail(f"plot.gp {term}: exit {r.returncode}, {r.stderr}")
            continue
        with open(out, "rb") as f:
            data = f.read()
        if term == "png" and not data.startswith(b"\x89PNG"):
            fail("plot.gp: reduce.png is not a PNG")
        if term == "svg" and (b"predicted / measured" not in data or
                              b"within 10%" not in data):
            fail("plot.gp: no predicted/measured panel in reduce.svg")
        if band and b"95% interval" not in data:
            fail("plot.gp band=1: no prediction interval in the legend")
    # No point of the algorithm (or no prediction): a frame that says so,
    # not a gnuplot error and an empty file.
    out = os.path.join(tmp, "none.png")
    r = run(["gnuplot", "-e",
             f"csv='{points}'; algo='nosuch'; configs='1x2'; "
             f"term='png'; outfile='{out}'", os.path.join(src, "bench/plot.gp")],
            {})
    if r.returncode or not os.path.isfile(out) or os.path.getsize(out) < 2000:
        fail(f"plot.gp without points: exit {r.returncode}, {r.stderr}")
else:
    print("gnuplot not installed: plot not checked", file=sys.stderr)

# bench_psrs: one row per repetition and implementation.
psrs = os.path.join(tmp, "psrs.csv")
r = run([bench_psrs, "--n", "2e4", "--reps", "5", "--shape", "core:2",
         "--csv", psrs], {"OMP_NUM_THREADS": "2"})
if r.returncode:
    fail(f"bench_psrs: exit {r.returncode}\n{r.stderr}")
else:
    rows, _ = read(psrs)
    impls = sorted({x["implementation"] for x in rows})
    if impls != ["ips4o_parallel", "local_sort", "local_sort_premapped",
                 "psrs_direct", "psrs_one_worker", "psrs_routed"] or \
            len(rows) != 30:
        fail(f"psrs.csv: {len(rows)} rows of {impls}, expected 30 of 6")

# bench_psrs --dist: one row per distribution, size, contestant and
# repetition.
dists = os.path.join(tmp, "dists.csv")
r = run([bench_psrs, "--dist", "all", "--sizes", "1e3,2e3", "--reps", "5",
         "--shape", "core:2", "--csv", dists], {"OMP_NUM_THREADS": "2"})
if r.returncode:
    fail(f"bench_psrs --dist: exit {r.returncode}\n{r.stderr}")
else:
    rows, _ = read(dists)
    impls = sorted({x["implementation"] for x in rows})
    cells = {(x["distribution"], x["n_elements"]) for x in rows}
    if impls != ["block_indirect", "ips4o", "psrs", "spreadsort"] or \
            len(cells) != 22 or len(rows) != 22 * 4 * 5 or \
            any(float(x["time_s"]) < 0 for x in rows):
        fail(f"dists.csv: {len(rows)} rows of {impls} over {len(cells)} "
             "cells, expected 440 of 4 over 22")

if failures:
    print(f"{len(failures)} failure(s); files in {tmp}", file=sys.stderr)
    sys.exit(1)
shutil.rmtree(tmp)
print("ok: CSV files round-trip, every measurement is there, plots drawn")
