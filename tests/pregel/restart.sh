#!/usr/bin/env bash
# Kill a rank mid-run, restart from the last checkpoint on 2, 3 or 1
# ranks: the ranks must be bitwise those of an uninterrupted run. And
# sgl_pagerank() must give bitwise the same ranks on any tree and cut:
# uninterrupted on 1 to 4 ranks, with threads, on a balanced cut, and
# resumed on another number of ranks from a checkpoint of either cut.
#   restart.sh PREGEL_RESTART MPIEXEC MPIEXEC-ARGS...
set -euo pipefail
bin=$1 mpiexec=$2
shift 2
mpiargs=("$@")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# on SHAPE with NP ranks: MODE, checkpoints in folder NAME, ranks in NAME.bin
on() {
    local shape=$1 np=$2 mode=$3 name=$4
    mkdir -p "$tmp/$name"
    SGL_SHAPE=$shape "$mpiexec" "${mpiargs[@]}" -n "$np" "$bin" "$mode" "$tmp/$name" "$tmp/$name.bin"
}
# NAME.bin bitwise REF.bin, or a failure saying WHAT and how far off
# (the checks go on, so that one run shows every one that fails)
failed=0
same() {
    local ref=$1 name=$2 what=$3
    if cmp -s "$tmp/$ref.bin" "$tmp/$name.bin"; then
        echo "ok - $what: bitwise the uninterrupted run's ranks"
        return
    fi
    echo "not ok - $what: the ranks differ from the uninterrupted run's:"
    "$bin" compare "$tmp/$ref.bin" "$tmp/$name.bin" 0 || true
    failed=1
}
# kill a rank at superstep 17 of a run on NP ranks, checkpoints in NAME
crash() {
    local np=$1 name=$2
    mkdir "$tmp/$name"
    if SGL_SHAPE=rank:$np "$mpiexec" "${mpiargs[@]}" -n "$np" "$bin" crash "$tmp/$name" "$tmp/$name.bin" 2> "$tmp/$name.err"; then
        echo "not ok: the run on $np ranks with a rank killed at superstep 17 succeeded"; exit 1
    fi
    [ ! -e "$tmp/$name.bin" ] || { echo "not ok: the killed run wrote ranks"; exit 1; }
    grep -qx 'step 15' "$tmp/$name/manifest" ||
        { echo "not ok: the last complete checkpoint is not superstep 15:"; cat "$tmp/$name/manifest"; exit 1; }
    echo "ok - a rank of $np killed at superstep 17; the last complete checkpoint is superstep 15"
}
# resume the checkpoint in folder FROM on NP ranks (a copy: a resumed run
# writes checkpoints of its own), ranks in NAME.bin
resume() {
    local from=$1 np=$2 mode=$3 name=$4
    cp -r "$tmp/$from" "$tmp/$name"
    SGL_SHAPE=rank:$np "$mpiexec" "${mpiargs[@]}" -n "$np" "$bin" "$mode" "$tmp/$name" "$tmp/$name.bin"
}

# a program of the test's own, killed and resumed
on rank:2 2 full whole
crash 2 ckpt2
crash 3 ckpt3
for np in 2 3 1; do
    resume ckpt2 "$np" resume from2on$np
    same whole from2on$np "a 2-rank checkpoint resumed on $np ranks"
done
for np in 2 1; do
    resume ckpt3 "$np" resume from3on$np
    same whole from3on$np "a 3-rank checkpoint resumed on $np ranks"
done

# sgl_pagerank(): any tree, any cut, resumed on any number of ranks
on rank:2 2 pagerank pr2
for np in 1 3 4; do
    on rank:$np "$np" pagerank pr$np
    same pr2 pr$np "PageRank on $np ranks against 2"
done
on "rank:2 core:2" 2 pagerank pr2x2
same pr2 pr2x2 "PageRank on 2 ranks of 2 threads against 2 ranks"
for np in 2 3; do
    on rank:$np "$np" pagerank-balanced prbal$np
    same pr2 prbal$np "PageRank on a balanced cut of $np ranks"
done
on rank:2 2 pagerank-stop prstop2
on rank:3 3 pagerank-balanced-stop prstopbal3
# (a tolerance that stopped PageRank before superstep 16 would leave
# little to resume)
for name in prstop2 prstopbal3; do
    grep -qx 'step 15' "$tmp/$name/manifest" ||
        { echo "not ok: PageRank's last checkpoint is not superstep 15:"; cat "$tmp/$name/manifest"; exit 1; }
done
for np in 3 1; do
    resume prstop2 "$np" pagerank-resume prfrom2on$np
    same pr2 prfrom2on$np "PageRank from a 2-rank checkpoint resumed on $np ranks"
done
resume prstopbal3 2 pagerank-resume prfrombal3on2
same pr2 prfrombal3on2 "PageRank from a 3-rank balanced cut's checkpoint resumed on 2 ranks"
exit $failed
