#!/usr/bin/env bash
# bench_main --budget: past its budget the sweep runs fewer repetitions,
# never under 3, and says so per point; measurements.csv holds exactly
# each point's repetitions (the peers' only the first 3); a bad budget is refused with exit status 2.
# (After the first point, 1e5 of the 8.2e6 weighed elements, the pace
# projects 81 times its time for the rest: past a budget of 1 s on any
# box where that point takes over 12 ms, as its state sensor alone does.)
#   sweep_budget.sh BENCH_MAIN SRCDIR
set -euo pipefail
bin=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "not ok: $*" >&2; exit 1; }
SGL_SHAPE=core:2 OMP_NUM_THREADS=2 timeout -k 5 120 "$bin" --config b \
    --sizes 1e5,1e6,3e6 --algos reduce,scan --reps 9 --budget 1 \
    --params "$src/machine/machines/paper-16x8.sgl" --csv "$tmp/points.csv" \
    --measurements "$tmp/meas.csv" > /dev/null 2> "$tmp/err" ||
    { cat "$tmp/err" >&2; fail "bench_main --budget 1"; }
# The first point runs all 9 (no pace yet); the others 3..9, fewer in all.
awk -F, 'NR > 1 { n++; r = $9; total += r
    if (r < 3 || r > 9) { print "not ok: " $7 " n=" $8 " ran " r " repetitions"; bad = 1 } }
    END { if (n != 6 || total >= 6 * 9) { print "not ok: " n " points, " total " repetitions in all"; bad = 1 }
          exit bad }' "$tmp/points.csv" || fail "repetitions per point"
# measurements.csv: SGL's rows per point = that point's reps.
awk -F, 'FNR == 1 { f++; next } f == 1 { want[$7 " " $8] = $9 }
    f == 2 && $7 == "sgl" { got[$5 " " $6]++ }
    END { for (k in want) if (got[k] != want[k]) { print "not ok: " k ": " got[k] " rows, " want[k] " reps"; bad = 1 }
          exit bad }' "$tmp/points.csv" "$tmp/meas.csv" || fail "measurements rows"
# Under a budget the peers run in the first 3 repetitions only: each
# peer's rows per point = min(reps, 3), numbered 1..3.
awk -F, 'FNR == 1 { f++; next } f == 1 { want[$7 " " $8] = $9 < 3 ? $9 : 3 }
    f == 2 && $7 != "sgl" && $7 != "replay" && $7 != "closed_form" {
        got[$5 " " $6 " " $7]++; peer[$5 " " $6 " " $7] = $5 " " $6
        if ($8 > 3) { print "not ok: " $5 " n=" $6 " peer " $7 " in repetition " $8; bad = 1 } }
    END { for (k in got) if (got[k] != want[peer[k]]) { print "not ok: " k ": " got[k] " peer rows, want " want[peer[k]]; bad = 1 }
          if (length(got) == 0) { print "not ok: no peer rows"; bad = 1 }
          exit bad }' "$tmp/points.csv" "$tmp/meas.csv" || fail "peer rows under a budget"
st=0; "$bin" --budget 0 > /dev/null 2> "$tmp/err" || st=$?
[ $st = 2 ] && grep -q -- "--budget needs seconds" "$tmp/err" || fail "--budget 0: exit $st"
echo "ok: sweep budget"
