#!/usr/bin/env bash
# The same example programs under smpirun (the simulation build, on a
# simulated platform) and under mpirun (this build): their outputs must
# be identical. Both trees have the same number of workers, so every
# example prints the same line; the examples print only exact results
# (products of +-1 and 2, integer sums, sorted keys, bitwise checks).
#
# Usage: sim_examples.sh BUILD MPIEXEC PLATFORM HOSTS MPI_RANKS MPI_SHAPE EXAMPLE:ARGS...
#   BUILD      this build (its examples run under mpirun; the simulation
#              build goes into BUILD/smpi-build unless SGL_SIM_BUILD says)
#   PLATFORM   sim/platforms/PLATFORM.xml, HOSTS simulated hosts, one rank
#              each, the tree discovered (no SGL_SHAPE: one worker a rank)
#   MPI_RANKS, MPI_SHAPE   the mpirun side: that many ranks, that shape
#              (HOSTS workers)
# TAP on stdout, one test per example. Exit 77 (SKIP) without smpirun.
set -uo pipefail
build=$1 mpiexec=$2 platform=$3 hosts=$4 ranks=$5 shape=$6
shift 6
. "$(dirname "$0")/prepare.sh" "$build"
sgl_sim_hostfile "$tmp/hosts" 0 $((hosts - 1))
echo "1..$#"
i=0 fails=0
for spec in "$@"; do
    i=$((i + 1))
    ex=${spec%%:*} args=${spec#*:}
    [ "$args" = "$spec" ] && args=
    # shellcheck disable=SC2086
    sim=$(sgl_sim_run "$platform" "$tmp/hosts" "$hosts" \
          "$SGL_SIM_BUILD/examples/$ex" $args 2> "$tmp/err")
    src=$?
    # shellcheck disable=SC2086
    mpi=$(SGL_SHAPE=$shape "$mpiexec" --oversubscribe --bind-to none \
          -n "$ranks" "$build/examples/$ex" $args 2>> "$tmp/err")
    mrc=$?
    if [ $src -eq 0 ] && [ $mrc -eq 0 ] && [ -n "$sim" ] && [ "$sim" = "$mpi" ]; then
        echo "ok $i - $ex $args: smpirun on $hosts simulated hosts = mpirun -n $ranks ($shape)"
    else
        fails=$((fails + 1))
        echo "not ok $i - $ex $args (smpirun exit $src, mpirun exit $mrc)"
        { echo "smpirun:"; echo "$sim"; echo "mpirun:"; echo "$mpi";
          tail -20 "$tmp/err"; } | sed 's/^/# /'
    fi
done
[ $fails -eq 0 ]
