#!/usr/bin/env bash
# Heat 2D in the simulated sweep (sgl-sim-sweep --algo heat) on the
# 16-host platform: the run's checksum equals the sequential loop's (the
# program exits 1 otherwise), and the line has a simulated time and a
# price per step; a grid too small is refused with a message, not run.
# Usage: sim_sweep_heat.sh BUILD. TAP; exit 77 (SKIP) without smpirun.
set -uo pipefail
. "$(dirname "$0")/prepare.sh" "$1"
sgl_sim_hostfile "$tmp/hosts" 0 15
sed 's/^kernel \([A-Za-z0-9_]*\) [^ #]*/kernel \1 0/' \
    "$root/sim/machines/paper-16.sgl" > "$tmp/m.sgl"
echo "1..2"
line=$(SGL_SHAPE=rank:16 sgl_sim_run paper-16 "$tmp/hosts" 16 \
       "$SGL_SIM_BUILD/sim/sgl-sim-sweep" --algo heat --n 64 --reps 2 \
       --machine "$tmp/m.sgl" 2> "$tmp/err")
rc=$?
# "sweep heat n 64 P 16 sim S min MIN max MAX pred PRED": S = MIN = MAX > 0
# (deterministic), PRED > 0.
if [ $rc = 0 ] && awk '$1 == "sweep" && $2 == "heat" && $4 == 64 && $6 == 16 &&
        $8 > 0 && $8 == $10 && $8 == $12 && $14 > 0 && $14 != "nan" { ok = 1 }
        END { exit !ok }' <<< "$line"; then
    echo "ok 1 - heat 64^2 on 16 simulated hosts: the sequential loop's checksum, $line"
else
    echo "not ok 1 - heat 64^2 on 16 simulated hosts (exit $rc): $line"
    tail -20 "$tmp/err" | sed 's/^/# /'
    exit 1
fi
sgl_sim_hostfile "$tmp/hosts1" 0 0
err=$(SGL_SHAPE=rank:1 sgl_sim_run paper-16 "$tmp/hosts1" 1 \
      "$SGL_SIM_BUILD/sim/sgl-sim-sweep" --algo heat --n 2 2>&1 > /dev/null)
rc=$?
if [ $rc = 2 ] && grep -q "heat needs --n 3 at least" <<< "$err"; then
    echo "ok 2 - heat with a 2 x 2 grid: refused with a message (exit 2)"
else
    echo "not ok 2 - heat with a 2 x 2 grid (exit $rc)"
    tail -5 <<< "$err" | sed 's/^/# /'
    exit 1
fi
