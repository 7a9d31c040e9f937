#!/usr/bin/env python3
"""Checks a Perfetto / Chrome trace-event timeline from sgl_trace_write():
every event has ph, pid, tid and ts; every process and thread track that
holds a slice is named; slices on one track nest (Perfetto drops those that
overlap otherwise); each superstep has one task slice per child, inside it,
ending as the child's reply came in where the master saw it come in.

    check_timeline.py [--workers W] FILE [-- CMD ...]

With CMD, runs it first (it must write FILE and exit 0). With --workers,
also expects a track "worker i" with a task for each of the W workers.
"""
import json
import subprocess
import sys

EPS_US = 0.002  # timestamps are printed to the nanosecond


def fail(msg):
    print("not ok: " + msg, file=sys.stderr)
    sys.exit(1)


def main(argv):
    workers = None
    if len(argv) >= 2 and argv[0] == "--workers":
        workers = int(argv[1])
        argv = argv[2:]
    if not argv:
        fail(__doc__)
    path, cmd = argv[0], argv[2:] if argv[1:2] == ["--"] else []
    if cmd:
        rc = subprocess.call(cmd)
        if rc != 0:
            fail("%s exited with %d" % (" ".join(cmd), rc))
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    events = doc.get("traceEvents")
    if not isinstance(events, list) or not events:
        fail("no traceEvents list")
    if doc.get("displayTimeUnit") not in ("ns", "ms"):
        fail("bad displayTimeUnit")

    procs, threads, tracks = {}, {}, {}
    steps, tasks = {}, []
    for i, e in enumerate(events):
        for k in ("name", "ph", "pid", "tid", "ts"):
            if k not in e:
                fail("event %d has no %s: %r" % (i, k, e))
        if e["ph"] == "M":
            if e["name"] == "process_name":
                procs[e["pid"]] = e["args"]["name"]
            elif e["name"] == "thread_name":
                threads[(e["pid"], e["tid"])] = e["args"]["name"]
            continue
        if e["ph"] != "X" or not isinstance(e.get("dur"), (int, float)):
            fail("event %d is neither metadata nor a complete slice" % i)
        if e["dur"] < 0:
            fail("event %d lasts %g us" % (i, e["dur"]))
        tracks.setdefault((e["pid"], e["tid"]), []).append(e)
        a = e["args"]
        key = (a["level"], a["master"], a["seq"])
        if e["cat"] == "superstep":
            if key in steps:
                fail("two supersteps %r" % (key,))
            steps[key] = e
        elif e["cat"] == "task":
            tasks.append(e)
        else:
            fail("event %d has category %r" % (i, e.get("cat")))

    for pid, tid in tracks:
        if pid not in procs:
            fail("process %d has slices but no name" % pid)
        if (pid, tid) not in threads:
            fail("track %d/%d has slices but no name" % (pid, tid))
    if not steps:
        fail("no superstep")
    if not any(v.endswith(" L#0 level 0 master") for v in threads.values()):
        fail("no track for the root master: %r" % sorted(threads.values()))

    per_step = {}
    for t in tasks:
        a = t["args"]
        s = steps.get((a["level"], a["master"], a["seq"]))
        if s is None:
            fail("task %r has no superstep" % a)
        if (t["ts"] < s["ts"] - EPS_US or
                t["ts"] + t["dur"] > s["ts"] + s["dur"] + EPS_US):
            fail("task %r [%g, +%g] outside its superstep [%g, +%g]" %
                 (a, t["ts"], t["dur"], s["ts"], s["dur"]))
        # A task is drawn ending as its reply came in (or after its time,
        # if another process's clock timed it longer); one whose reply was
        # in before the master began to wait, from the superstep's start.
        w = s["args"]["wait_start_s"]
        known = not (w > 0 and a["done_s"] == w)
        end = s["ts"] + 1e6 * (max(a["done_s"], a["time_s"]) if known
                               else a["time_s"])
        if abs(t["ts"] + t["dur"] - end) > EPS_US:
            fail("task %r ends at %g, its reply came in at %g" %
                 (a, t["ts"] + t["dur"], end))
        per_step.setdefault(id(s), set()).add(a["child"])
    for s in steps.values():
        got = per_step.get(id(s), set())
        if got != set(range(s["args"]["children"])):
            fail("superstep %r has tasks of children %r" % (s["args"], got))

    for (pid, tid), evs in tracks.items():
        evs.sort(key=lambda e: (e["ts"], -e["dur"]))
        open_ends = []
        for e in evs:
            while open_ends and e["ts"] >= open_ends[-1] - EPS_US:
                open_ends.pop()
            end = e["ts"] + e["dur"]
            if open_ends and end > open_ends[-1] + EPS_US:
                fail("slices overlap without nesting on %s: %r" %
                     (threads[(pid, tid)], e))
            open_ends.append(end)

    if workers is not None:
        for w in range(workers):
            name = "worker %d" % w
            keys = [k for k, v in threads.items() if v == name]
            if len(keys) != 1:
                fail("%d tracks named %r" % (len(keys), name))
            if not any(e["cat"] == "task" for e in tracks.get(keys[0], [])):
                fail("%s ran no task" % name)
    print("ok: %d supersteps, %d tasks on %d tracks of %d processes" %
          (len(steps), len(tasks), len(tracks), len(procs)))


if __name__ == "__main__":
    main(sys.argv[1:])
