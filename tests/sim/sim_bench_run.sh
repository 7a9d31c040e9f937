#!/usr/bin/env bash
# bench/run --simulate-only --quick on a 10 s budget prints the
# simulated sweep's table, and no point is dropped silently: every
# algorithm of the plan has its row on the 16-host platform, and every
# row has a simulated time or a note that says why not.
# Usage: sim_bench_run.sh BUILD. TAP; exit 77 (SKIP) without smpirun.
set -uo pipefail
. "$(dirname "$0")/prepare.sh" "$1"
echo "1..3"
fails=0
"$root/bench/run" --simulate-only --quick --simulate-budget 10 --out "$tmp" \
    > "$tmp/stdout" 2> "$tmp/stderr"
rc=$?
if [ $rc = 0 ] && grep -q '^platform  *shape  *P algo  *n  *simulated  *predicted  *error' "$tmp/stdout" &&
   grep -q '^paper-16 .* reduce .* ms .* ms ' "$tmp/stdout"; then
    echo "ok 1 - bench/run --simulate-only --quick prints the table with the 16-host reduce"
else
    echo "not ok 1 - bench/run --simulate-only --quick (exit $rc)"
    tail -20 "$tmp/stdout" "$tmp/stderr" | sed 's/^/# /'
    fails=1
fi
missing=""
for a in reduce scan scan-rts psrs psrs-routed psrs-levels heat; do
    grep -q "^paper-16,rank:16,16,$a," "$tmp/sim/sweep.csv" 2>/dev/null || missing+=" $a"
done
if [ -z "$missing" ]; then
    echo "ok 2 - every algorithm has its row on paper-16 (sim/sweep.csv)"
else
    echo "not ok 2 - no row on paper-16 for:$missing"
    fails=1
fi
# A row without a simulated time (column 6) needs a note (column 12);
# every row has the header's 12 columns (a run stopped part-way once
# split its rows in two).
silent=$(awk -F, 'NF != 12 || (NR > 1 && $6 == "" && ($12 == "" || $12 == "\"\""))' \
         "$tmp/sim/sweep.csv" 2>/dev/null)
if [ -s "$tmp/sim/sweep.csv" ] && [ -z "$silent" ]; then
    echo "ok 3 - every row has 12 columns, and every row without a simulated time says why"
else
    echo "not ok 3 - rows without a time or a reason:"
    echo "$silent" | sed 's/^/# /'
    fails=1
fi
exit $fails
