#!/usr/bin/env bash
# SGL_SIM_WORK (sgl/sim_work.c) in the simulation build: a 16-host
# reduction of 1.6e6 elements (1e5 per worker) at 1 ns per declared
# element takes 100 us more simulated time than without (the workers'
# 1e5 ns; the root's fold of 16 partials adds 16 ns), deterministically;
# a value that is not a time is refused with a message, not run.
# Usage: sim_work.sh BUILD. TAP; exit 77 (SKIP) without smpirun.
set -uo pipefail
. "$(dirname "$0")/prepare.sh" "$1"
sgl_sim_hostfile "$tmp/hosts" 0 15
sim_time() { # sim_time SGL_SIM_WORK -> the simulated seconds of the reduction
    SGL_SIM_WORK=$1 SGL_SHAPE=rank:16 sgl_sim_run paper-16 "$tmp/hosts" 16 \
        "$SGL_SIM_BUILD/sim/sgl-sim-sweep" --algo reduce --n 1.6e6 --reps 1 \
        2> "$tmp/err" | awk '$1 == "sweep" { print $8 }'
}
echo "1..2"
t0=$(sim_time "") t1=$(sim_time 1ns)
if [ -n "$t0" ] && [ -n "$t1" ] &&
   awk -v a="$t0" -v b="$t1" 'BEGIN { d = b - a - 1e-4; exit !(d > -1e-6 && d < 1e-6) }'; then
    echo "ok 1 - 1 ns per element: $t0 s without, $t1 s with (1e5 elements per worker)"
else
    echo "not ok 1 - 1 ns per element: '$t0' s without, '$t1' s with, not 1e-4 s more"
    tail -5 "$tmp/err" | sed 's/^/# /'
    exit 1
fi
err=$(SGL_SIM_WORK=fast SGL_SHAPE=rank:16 sgl_sim_run paper-16 "$tmp/hosts" 16 \
      "$SGL_SIM_BUILD/sim/sgl-sim-sweep" --algo reduce --n 1000 2>&1 > /dev/null)
rc=$?
if [ $rc != 0 ] && [ $rc -lt 128 ] && grep -q "SGL_SIM_WORK='fast' is not seconds" <<< "$err"; then
    echo "ok 2 - SGL_SIM_WORK=fast: refused with a message (exit $rc)"
else
    echo "not ok 2 - SGL_SIM_WORK=fast (exit $rc)"
    tail -5 <<< "$err" | sed 's/^/# /'
    exit 1
fi
