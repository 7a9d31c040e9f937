#!/usr/bin/env bash
# Kill a rank mid-run, restart from the last checkpoint: on as many ranks
# the ranks must be bitwise those of an uninterrupted run; on another
# number of ranks, within 1e-15 (sums are combined per worker, so they
# round differently after the checkpoint).
#   restart.sh PREGEL_RESTART MPIEXEC MPIEXEC-ARGS...
set -euo pipefail
bin=$1 mpiexec=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/whole" "$tmp/ckpt"
SGL_SHAPE=rank:2 "$mpiexec" "$@" -n 2 "$bin" full "$tmp/whole" "$tmp/whole.bin"
if SGL_SHAPE=rank:2 "$mpiexec" "$@" -n 2 "$bin" crash "$tmp/ckpt" "$tmp/crash.bin" 2> "$tmp/crash.err"; then
    echo "not ok: the run with a rank killed at superstep 17 succeeded"; exit 1
fi
[ ! -e "$tmp/crash.bin" ] || { echo "not ok: the killed run wrote ranks"; exit 1; }
grep -qx 'step 15' "$tmp/ckpt/manifest" ||
    { echo "not ok: the last complete checkpoint is not superstep 15:"; cat "$tmp/ckpt/manifest"; exit 1; }
echo "ok - a rank killed at superstep 17; the last complete checkpoint is superstep 15"
cp -r "$tmp/ckpt" "$tmp/ckpt3"
SGL_SHAPE=rank:2 "$mpiexec" "$@" -n 2 "$bin" resume "$tmp/ckpt" "$tmp/resumed.bin"
cmp "$tmp/whole.bin" "$tmp/resumed.bin" ||
    { echo "not ok: resumed on 2 ranks, the ranks differ from the whole run's"; exit 1; }
echo "ok - resumed on 2 ranks: bitwise the uninterrupted run's ranks"
SGL_SHAPE=rank:3 "$mpiexec" "$@" -n 3 "$bin" resume "$tmp/ckpt3" "$tmp/resumed3.bin"
"$bin" compare "$tmp/whole.bin" "$tmp/resumed3.bin" 1e-15 ||
    { echo "not ok: resumed on 3 ranks, too far from the whole run"; exit 1; }
echo "ok - resumed on 3 ranks: within 1e-15 of the uninterrupted run"
