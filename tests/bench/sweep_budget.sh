#!/usr/bin/env bash
# bench_main --budget: the repetitions run in rounds over all points,
# past its budget fewer, never under 3, and says so per point; measurements.csv holds exactly
# each point's repetitions (the peers' only the first 3); a bad budget is refused with exit status 2.
# (One PSRS point of 5e6 elements, whose peers include a one-thread
# std::sort of 0.3 s or more, makes three rounds outlast 1 s on any box,
# so the floor of 3 is reached; reductions and scans alone to 3e6 took under 1 s for three
# rounds on a fast Xeon, and the test then saw 5.)
#   sweep_budget.sh BENCH_MAIN SRCDIR
set -euo pipefail
bin=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "not ok: $*" >&2; exit 1; }
SGL_SHAPE=core:2 OMP_NUM_THREADS=2 timeout -k 5 120 "$bin" --config b \
    --sizes 1e5,1e6,3e6 --algo-sizes psrs:5e6 --reps 9 --budget 1 \
    --params "$src/machine/machines/paper-16x8.sgl" --csv "$tmp/points.csv" \
    --measurements "$tmp/meas.csv" > /dev/null 2> "$tmp/err" ||
    { cat "$tmp/err" >&2; fail "bench_main --budget 1"; }
# Under a budget the repetitions run in rounds over all points: every
# point the same count, 3 (the floor) when the budget is spent, each
# round said.
awk -F, 'NR > 1 { n++; r = $9; total += r
    if (r != 3) { print "not ok: " $7 " n=" $8 " ran " r " repetitions"; bad = 1 } }
    END { if (n != 7) { print "not ok: " n " points, " total " repetitions in all"; bad = 1 }
          exit bad }' "$tmp/points.csv" || fail "repetitions per point"
for r in 1 2 3; do
    grep -q "round $r: every point once" "$tmp/err" || fail "no round $r on stderr"
done
grep -q "round 3: every point once.*the last" "$tmp/err" || fail "round 3 not the last"
# A budget that holds them all: every point its --reps, in as many rounds.
SGL_SHAPE=core:2 OMP_NUM_THREADS=2 timeout -k 5 120 "$bin" --config b \
    --sizes 1e3,1e4 --algos reduce,scan,psrs --reps 5 --budget 1000 \
    --params "$src/machine/machines/paper-16x8.sgl" --csv "$tmp/points5.csv" \
    > /dev/null 2> "$tmp/err5" || { cat "$tmp/err5" >&2; fail "bench_main --budget 1000"; }
awk -F, 'NR > 1 { n++; if ($9 != 5) { print "not ok: " $7 " n=" $8 " ran " $9; bad = 1 } }
    END { if (n != 6) { print "not ok: " n " points"; bad = 1 }; exit bad }' \
    "$tmp/points5.csv" || fail "all repetitions within a large budget"
grep -q "round 5: every point once.*the last" "$tmp/err5" || fail "5 rounds"
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
