#!/usr/bin/env python3
"""The per-level attribution (bench_main --levels, bench/levels.awk) on a
small real run.

  levels_check.py BENCH_MAIN MPIEXEC SRCDIR

bench_main on 2 ranks of a 3-level tree (rank:2 pack:2 core:2, MPI then
two thread levels, the parameters of machine/machines/paper-16x8.sgl):
levels.csv has a row per point and level of the tree; per point the
closed form's level terms add up to its closed form and the measured ones
to the median repetition's time (points.csv's median_s, closed_form_s,
closed_form_rel_err); per row the term differences add up to the level's.
levels.awk prints a line per level and the term off most; a level that is
not in the trace is reported and left out; bad input (not a levels.csv,
an empty file, a field that is not a number, --levels without --params)
is refused with exit status 2."""
import csv
import os
import subprocess
import sys
import tempfile

bench_main, mpiexec, src = sys.argv[1:4]
tmp = tempfile.mkdtemp()
failures = []
AWK = ["awk", "-f", os.path.join(src, "bench/csv.awk"),
       "-f", os.path.join(src, "bench/levels.awk")]


def fail(msg):
    failures.append(msg)
    print("not ok:", msg, file=sys.stderr)


def run(cmd, env_extra=None, **kw):
    env = dict(os.environ, **(env_extra or {}))
    return subprocess.run(cmd, env=env, capture_output=True, text=True,
                          timeout=150, **kw)


def read(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    return rows[0], [dict(zip(rows[0], r)) for r in rows[1:]]


def near(a, b, rel=2e-6, tiny=1e-9):
    """Equal up to the files' 9 significant digits, summed over levels."""
    return abs(a - b) <= max(rel * max(abs(a), abs(b)), tiny)


REPS = 3  # odd: the median repetition is the median
SIZES = ["1e4", "1e5"]
points = os.path.join(tmp, "points.csv")
levels = os.path.join(tmp, "levels.csv")
params = os.path.join(src, "machine/machines/paper-16x8.sgl")
r = run([mpiexec, "--oversubscribe", "--bind-to", "none", "--mca",
         "mpi_yield_when_idle", "1", "-n", "2", bench_main, "--config", "lv3",
         "--sizes", ",".join(SIZES), "--reps", str(REPS), "--params", params,
         "--csv", points, "--levels", levels],
        {"SGL_SHAPE": "rank:2 pack:2 core:2", "OMP_NUM_THREADS": "4"})
if r.returncode:
    print(r.stderr, file=sys.stderr)
    sys.exit(f"bench_main: exit {r.returncode}")

_, pts = read(points)
header, rows = read(levels)
by_point = {}
for row in rows:
    by_point.setdefault((row["algo"], row["n_elements"]), []).append(row)
want_points = {(a, str(int(float(n)))) for a in ("reduce", "scan", "psrs")
               for n in SIZES}
if set(by_point) != want_points:
    fail(f"levels.csv points {sorted(by_point)}, want {sorted(want_points)}")
links = ["mpi/rank", "threads/package", "threads/core", "worker/"]
for p in pts:
    key = (p["algo"], p["n_elements"])
    lv = sorted(by_point.get(key, []), key=lambda x: int(x["level"]))
    got = [x["link"] + "/" + x["children"] for x in lv]
    if got != links:
        fail(f"{key}: levels {got}, want {links}")
        continue
    closed, meas = float(p["closed_form_s"]), float(p["median_s"])
    c_sum = sum(float(x["closed_form_level_s"]) for x in lv)
    m_sum = sum(float(x["measured_level_s"]) for x in lv)
    if not all(x["in_trace"] == "1" for x in lv):
        fail(f"{key}: a level of a real run is not in the trace")
    if not near(float(lv[0]["closed_form_s"]), closed):
        fail(f"{key}: closed_form_s {lv[0]['closed_form_s']}, points {closed}")
    if not near(float(lv[0]["measured_s"]), meas):
        fail(f"{key}: measured_s {lv[0]['measured_s']}, median_s {meas}")
    if not near(c_sum, closed):
        fail(f"{key}: closed-form levels add up to {c_sum}, not {closed}")
    if not near(m_sum, meas):
        fail(f"{key}: measured levels add up to {m_sum}, not {meas}")
    d_sum = sum(float(x["level_diff_rel"]) for x in lv)
    if not near(d_sum, float(p["closed_form_rel_err"]), 1e-5, 1e-6):
        fail(f"{key}: level diffs add up to {d_sum}, the point's error is "
             f"{p['closed_form_rel_err']}")
    for x in lv:
        parts = sum(float(x[t]) for t in
                    ("work_diff_rel", "comm_diff_rel", "exchange_diff_rel"))
        if not near(parts, float(x["level_diff_rel"]), 1e-5, 1e-6):
            fail(f"{key} level {x['level']}: terms {parts}, level "
                 f"{x['level_diff_rel']}")
        if x["level"] != "3" and float(x["measured_supersteps"]) < 1:
            fail(f"{key} level {x['level']}: no superstep measured")

# The summary: a line per level of each algorithm, the term off most.
r = run(AWK + ["-v", "min_s=0", levels])
if r.returncode:
    fail(f"levels.awk: exit {r.returncode}: {r.stderr}")
lines = [ln.strip() for ln in r.stdout.splitlines()]
for want in ("1 threads/package", "2 threads/core", "3 worker", "off most: level"):
    if sum(ln.startswith(want) for ln in lines) != 3:
        fail(f"levels.awk: '{want}' not once per algorithm:\n{r.stdout}")

# A level not in the trace: reported on stderr, out of the medians, and
# the table says so.
missing = os.path.join(tmp, "missing.csv")
with open(missing, "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(header)
    for row in rows:
        if row["algo"] == "scan" and row["level"] == "1":
            row = dict(row, in_trace="0")
            for k in header:
                if k.startswith("measured_") and k != "measured_s" or \
                        k.endswith("_diff_rel"):
                    row[k] = "" if k != "measured_supersteps" else "0"
        w.writerow([row[k] for k in header])
r = run(AWK + ["-v", "min_s=0", missing])
if r.returncode:
    fail(f"levels.awk on a missing level: exit {r.returncode}: {r.stderr}")
if r.stderr.count("level 1 (threads) is not in the trace") != len(SIZES):
    fail(f"levels.awk: missing level not reported:\n{r.stderr}")
if not any(ln.startswith("1 threads/package") and
           ln.endswith("not in the trace") for ln in
           (x.strip() for x in r.stdout.splitlines())):
    fail(f"levels.awk: the table does not say level 1 is missing:\n{r.stdout}")

# Bad input: exit 2 with a message.
empty = os.path.join(tmp, "empty.csv")
open(empty, "w").close()
notnum = os.path.join(tmp, "notnum.csv")
with open(notnum, "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(header)
    w.writerow([rows[0][k] if k != "measured_s" else "fast" for k in header])
for path, msg in ((points, "no column level"), (empty, "empty"),
                  (notnum, "measured_s 'fast' is not a number")):
    r = run(AWK + [path])
    if r.returncode != 2 or msg not in r.stderr:
        fail(f"levels.awk on {os.path.basename(path)}: exit {r.returncode}, "
             f"stderr {r.stderr!r}, want 2 and '{msg}'")
r = run([bench_main, "--levels", levels], {"SGL_SHAPE": "core:2"})
if r.returncode != 2 or "--levels needs --params" not in r.stderr:
    fail(f"bench_main --levels without --params: exit {r.returncode}, "
         f"{r.stderr!r}")

if failures:
    sys.exit(f"{len(failures)} failure(s)")
print(f"ok: {len(rows)} level rows of {len(pts)} points add up; missing "
      "level reported; bad input refused")
