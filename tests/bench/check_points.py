#!/usr/bin/env python3
"""Checks a configuration's JSON from bench_main --json against schema
"sgl-bench-points" version 1 (docs/bench.md): the provenance
fields, the run's shape, and in every point the raw samples of SGL and of
both peers, whose medians, minimum and maximum are the summary fields.

    check_points.py FILE WORKERS POINTS
"""
import json
import statistics
import sys

PEERS = {"reduce": ("omp_reduction", "read_bound"),
         "scan": ("two_pass_scan", "omp_scan"),
         "psrs": ("std_sort", "gnu_parallel_sort")}


def main(path, workers, npoints):
    with open(path, encoding="utf-8") as f:
        d = json.load(f)

    def check(cond, what):
        if not cond:
            sys.exit("not ok: %s: %s" % (path, what))

    check(d.get("schema") == {"name": "sgl-bench-points", "version": 1},
          "schema %r" % d.get("schema"))
    for k in ("sgl_version", "host", "date", "config", "shape"):
        check(isinstance(d.get(k), str) and d[k], "no %s" % k)
    check(len(d["date"]) == 20 and d["date"][10] == "T" and
          d["date"].endswith("Z"), "date %r is not ISO 8601 UTC" % d["date"])
    check(isinstance(d.get("argv"), list) and "--json" in d["argv"],
          "argv %r" % d.get("argv"))
    check(d["workers"] == workers and
          d["ranks"] * d["threads_per_rank"] == workers,
          "workers %r, ranks %r x threads %r" %
          (d["workers"], d["ranks"], d["threads_per_rank"]))
    check(len(d["points"]) == npoints,
          "%d points, expected %d" % (len(d["points"]), npoints))
    for p in d["points"]:
        where = "%s n=%d: " % (p["algo"], p["n_elements"])
        samples = {"SGL": p["rep_s"]}
        for k in PEERS[p["algo"]]:
            samples[k] = p[k + "_rep_s"]
        for name, r in samples.items():
            check(len(r) == d["reps"] and all(x > 0 for x in r),
                  where + "%s samples %r" % (name, r))
        r = p["rep_s"]
        check(p["median_s"] == statistics.median(r), where + "median_s")
        check(p["min_s"] == min(r) and p["max_s"] == max(r),
              where + "min_s, max_s")
        for k in PEERS[p["algo"]]:
            check(p[k + "_median_s"] == statistics.median(p[k + "_rep_s"]),
                  where + k + "_median_s")
        check(len(p["replay_rep_s"]) == d["reps"], where + "replay_rep_s")
    print("ok: %s: %d points" % (path, len(d["points"])))


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
