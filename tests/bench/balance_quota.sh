#!/usr/bin/env bash
# bench/balance.sh end to end at small sizes, on real heterogeneity (one
# rank under a 50% CPU quota): the probe writes every worker's own c of
# sum and sort, and bench_balance's splits (full speed, even, weighted
# by those c, by measured rates, light) give the same sums and sorted
# vectors, and an ideal that is a number. No timing is checked. Skipped
# (77) where no cgroup cpu controller can be written.
#   balance_quota.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1 src=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
st=0
SGL_BUILD=$build "$src/bench/balance.sh" --quick --reps 1 --out "$out" \
    > "$out/table.txt" || st=$?
cat "$out/table.txt"
[ $st -eq 0 ] || exit $st
for k in sum sort; do
    for w in 0 1; do
        grep -Eq "^kernel $k [0-9.e+-]+ worker $w\$" "$out/balance-probe.sgl" ||
            { echo "FAIL: the probe wrote no c of $k for worker $w"; exit 1; }
    done
done
grep -q "every sum agrees, every sort is sorted" "$out/table.txt" ||
    { echo "FAIL: bench_balance's results disagree"; exit 1; }
# The ideal comes from every worker's share and delivery time in the splits
# by speed: a share or a task missing from the trace shows as nan or inf.
[ "$(grep -c '^ideal part [0-9.]* ms' "$out/table.txt")" = 2 ] ||
    { echo "FAIL: no ideal part time for both algorithms"; exit 1; }
# (Lines naming a path are left out: a temporary name may hold "nan".)
if grep -v '/' "$out/table.txt" | grep -Ewiq 'nan|inf'; then
    echo "FAIL: a time, ideal or ratio is not a number"; exit 1
fi
echo "ok: per-worker c written; even and weighted runs agree; ideal computed"
