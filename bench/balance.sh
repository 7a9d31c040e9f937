#!/usr/bin/env bash
# Balance by measured speed on real heterogeneity: 2 ranks, one under a
# CPU quota (the cgroup cpu controller, v1 or v2). The per-worker c come
# from `sgl-probe --per-worker` run under the same quota, and
# bench_balance times the reduction and PSRS at full speed, under the
# quota split evenly, and under the quota split by speed, against the
# ideal (total work / total speed). Needs root; exits 77 (skipped) where
# no cpu controller can be written.
#   bench/balance.sh [--quick] [--reps K] [--quota PERCENT] [--out DIR]
# The probe's machine file and output go to DIR; by default a new folder
# under results/ (ignored by git), not the current folder.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${SGL_BUILD:-$root/build}
quick=() reps=7 quota=50 out=$root/results/balance-$(date +%Y%m%d-%H%M%S)
while [ $# -gt 0 ]; do
    case $1 in
    --quick) quick=(--quick) ;;
    --reps) reps=$2; shift ;;
    --reps=*) reps=${1#*=} ;;
    --quota) quota=$2; shift ;;
    --quota=*) quota=${1#*=} ;;
    --out) out=$2; shift ;;
    --out=*) out=${1#*=} ;;
    *) echo "balance.sh: unknown argument '$1'" >&2; exit 2 ;;
    esac
    shift
done
case $quota in
''|*[!0-9]*) echo "balance.sh: --quota takes a percentage, 1 to 99" >&2; exit 2 ;;
esac
if [ "$quota" -lt 1 ] || [ "$quota" -gt 99 ]; then
    echo "balance.sh: --quota takes a percentage, 1 to 99" >&2; exit 2
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_MCA_mpi_yield_when_idle=1 OMP_WAIT_POLICY=PASSIVE

# The shortest period the kernel takes (quota >= 1 ms): a task of a few
# ms already runs at the quota's pace, not in one unthrottled burst.
period=$((100000 / quota)) cg=
no_controller() {
    [ -z "$cg" ] || rmdir "$cg" 2>/dev/null || true
    echo "balance.sh: no writable cgroup cpu controller here (needs root" \
         "and cgroup v1's cpu or v2 with cpu${1:+; $1}): skipped" >&2
    exit 77
}
# Anything short of a working quota (a read-only or undelegated
# hierarchy, a container's limits) is no controller, not a failure.
if [ -w /sys/fs/cgroup/cpu ] && [ -f /sys/fs/cgroup/cpu/cpu.cfs_quota_us ]; then
    cg=/sys/fs/cgroup/cpu/sgl-balance.$$
    mkdir "$cg" 2>/dev/null || { cg=; no_controller "cannot create a cgroup"; }
    { echo $period > "$cg/cpu.cfs_period_us" &&
      echo 1000 > "$cg/cpu.cfs_quota_us"; } 2>/dev/null ||
        no_controller "cannot set a quota"
elif [ -f /sys/fs/cgroup/cgroup.controllers ] &&
     grep -qw cpu /sys/fs/cgroup/cgroup.controllers &&
     [ -w /sys/fs/cgroup ]; then
    echo +cpu > /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null || true
    cg=/sys/fs/cgroup/sgl-balance.$$
    mkdir "$cg" 2>/dev/null || { cg=; no_controller "cannot create a cgroup"; }
    echo "1000 $period" > "$cg/cpu.max" 2>/dev/null ||
        no_controller "cannot set a quota"
else
    no_controller
fi
trap 'rmdir "$cg" 2>/dev/null || true' EXIT
mkdir -p "$out"
machine=$out/balance-probe.sgl
echo "balance.sh: the probe's files in $out" >&2
echo "balance.sh: rank 1 of 2 at ${quota}% of a CPU (cgroup $cg)" >&2
# The probe's rank 1 joins the cgroup before it starts (its pid is the
# shell's, which execs the probe).
mpiexec -n 2 --bind-to core -x SGL_SHAPE=rank:2 sh -c \
    'if [ "$OMPI_COMM_WORLD_RANK" = 1 ]; then echo $$ > "$1/cgroup.procs"; fi
     shift; exec "$@"' sh "$cg" \
    "$build/tools/sgl-probe" "${quick[@]}" --per-worker -o "$machine" \
    > "$out/balance-probe.txt"
grep -A3 '^per-worker' "$out/balance-probe.txt"
mpiexec -n 2 --bind-to core -x SGL_SHAPE=rank:2 \
    "$build/bench/bench_balance" --cgroup "$cg" --machine "$machine" \
    --slow-rank 1 --reps "$reps" "${quick[@]}"
