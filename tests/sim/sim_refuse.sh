#!/usr/bin/env bash
# Under smpirun a tree with a thread level is refused with a message that
# names the shape to use, and the program exits with an error: no crash
# (a worker thread reading SMPI's clock crashed in smpi_clock_gettime).
# Usage: sim_refuse.sh BUILD. TAP; exit 77 (SKIP) without smpirun.
set -uo pipefail
. "$(dirname "$0")/prepare.sh" "$1"
sgl_sim_hostfile "$tmp/hosts" 0 1
err=$(SGL_SHAPE="rank:2 core:2" sgl_sim_run paper-16 "$tmp/hosts" 2 \
      "$SGL_SIM_BUILD/examples/sgl-example-reduction" 1000 2>&1 > /dev/null)
rc=$?
echo "1..1"
if [ $rc -ne 0 ] && [ $rc -lt 128 ] &&
   grep -q "has a thread level, which the simulation build" <<< "$err" &&
   ! grep -qi "segmentation\|signal" <<< "$err"; then
    echo "ok 1 - a thread level under smpirun: refused with a message (exit $rc)"
else
    echo "not ok 1 - a thread level under smpirun (exit $rc)"
    tail -20 <<< "$err" | sed 's/^/# /'
    exit 1
fi
