#!/usr/bin/env bash
# The held-out fit's arithmetic (bench/heldout.awk) on synthetic points
# whose answers are known: levels.csv rows built from the closed form's
# terms at a probe's l, g, c, with "measured" times from other, known
# l, g, c. The fit must find their ratios and predict every left-out
# point exactly; no point's fit may hold its own size; a point whose
# measurement is spoiled must still be predicted as before (its own
# measurement is not in its fit) while the others' fits see it; bad
# input is refused with exit status 2.
#   heldout_check.sh SRCDIR
set -euo pipefail
src=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "not ok: $*" >&2; exit 1; }
# held LEVELS OUT [awk -v options]: heldout.awk's table, OUT its rows.
held() {
    local in=$1 o=$2
    shift 2
    awk -v "out=$o" "$@" -f "$src/bench/csv.awk" -f "$src/bench/stats.awk" -f "$src/bench/heldout.awk" "$in"
}
# The arithmetic alone: plain least squares, no prior towards the probe.
exact=(-v ridge=1e-12 -v irls=0)

# Probe: l 5 us, g 1 ns/B, c 0.2 ns/element; truth: 1.4x, 1.5x, 1.25x
# those. Two levels: the masters' syncs (2 supersteps) and scatter of
# 800 sqrt(n) bytes (so that it does not grow as the work does), the
# workers' work; a second cell has no scatter at all (its g cannot be
# seen: the ridge keeps it at 1).
# make SPOIL: SPOIL is the size whose measurement is multiplied by 10.
make() {
    awk -v spoil="${1:-0}" 'BEGIN {
        print "config,algo,n_elements,level,closed_form_work_s,closed_form_scatter_s," \
              "closed_form_gather_s,closed_form_syncs_s,closed_form_exchange_s,closed_form_s,measured_s"
        lp = 5e-6; gp = 1e-9; cp = 2e-10; fl = 1.4; fg = 1.5; fc = 1.25
        split("1e3 3e3 1e4 3e4 1e5 3e5 1e6 3e6 1e7", ns, " ")
        for (cell = 1; cell <= 2; cell++)
            for (i = 1; i <= 9; i++) {
                n = ns[i] + 0
                L = 2 * 2 * lp; G = cell == 1 ? 800 * sqrt(n) * gp : 0; W = n * cp
                cf = L + G + W; t = fl * L + fg * G + fc * W
                if (n == spoil && cell == 1) t *= 10
                cfg = cell == 1 ? "1x2" : "2x1"
                printf "%s,reduce,%d,0,0,%.17g,0,%.17g,0,%.17g,%.17g\n", cfg, n, G, L, cf, t
                printf "%s,reduce,%d,1,%.17g,0,0,0,0,%.17g,%.17g\n", cfg, n, W, cf, t
            }
    }'
}
make > "$tmp/levels.csv"
held "$tmp/levels.csv" "$tmp/heldout.csv" "${exact[@]}" > "$tmp/summary.txt" || fail "heldout.awk failed"
cat "$tmp/summary.txt"
rows=$(($(wc -l < "$tmp/heldout.csv") - 1))
[ "$rows" = 18 ] || fail "heldout.csv has $rows rows, expected 18"
# Every point predicted exactly, by the known factors (the 2x1 cell's g
# unseen: 1), from the 8 other sizes, never its own.
awk -F, 'NR > 1 {
    e = $8 < 0 ? -$8 : $8
    if ($8 == "" || e > 1e-5) { print "not ok: " $1 " n=" $3 " held-out error " $8; bad = 1 }
    gl = $1 == "1x2" ? 1.5 : 1
    if (($9 - 1.4)^2 > 1e-9 || ($10 - gl)^2 > 1e-9 || ($11 - 1.25)^2 > 1e-9) {
        print "not ok: " $1 " n=" $3 " factors " $9 " " $10 " " $11; bad = 1 }
    if ($12 != 8) { print "not ok: " $1 " n=" $3 " fit on " $12 " points, expected 8"; bad = 1 }
    k = split($13, s, ";")
    for (i = 1; i <= k; i++) if (s[i] + 0 == $3 + 0) {
        print "not ok: " $1 " n=" $3 " is in its own fit (" $13 ")"; bad = 1 }
} END { exit bad }' "$tmp/heldout.csv" || fail "exact recovery"
grep -q 'held-out within 10.0%: 2 of 2' "$tmp/summary.txt" || fail "summary count"

# The point at 1e5 measured 10x too slow: its own prediction is unmoved
# (its measurement is not in its fit), and the other points' fits move.
make 1e5 > "$tmp/spoiled.csv"
held "$tmp/spoiled.csv" "$tmp/spoiled-out.csv" "${exact[@]}" > /dev/null || fail "heldout.awk failed (spoiled)"
awk -F, 'FNR == 1 { f++; next } $1 == "1x2" {
    if (f == 1) h[$3] = $7
    else if ($3 + 0 == 1e5) {
        if (($7 - h[$3])^2 > (1e-9 * h[$3])^2) { print "not ok: the spoiled point moved its own prediction: " h[$3] " -> " $7; bad = 1 }
    } else if (($7 - h[$3])^2 > (1e-3 * h[$3])^2) moved++
} END { if (!moved) { print "not ok: no other point saw the spoiled one"; bad = 1 } exit bad }' \
    "$tmp/heldout.csv" "$tmp/spoiled-out.csv" || fail "leave-one-out"

# The defaults (a prior of 1e-3 towards the probe, least absolute
# error): the same factors within 0.1%, and the spoiled point moves the
# others' predictions by under 1% (one slow point out of nine is not
# followed), its own not at all.
held "$tmp/levels.csv" "$tmp/robust.csv" > /dev/null || fail "heldout.awk failed (defaults)"
held "$tmp/spoiled.csv" "$tmp/robust-spoiled.csv" > /dev/null || fail "heldout.awk failed (defaults, spoiled)"
awk -F, 'NR > 1 && (($8 > 1e-3 || $8 < -1e-3) || ($11 - 1.25)^2 > 1e-6) {
    print "not ok: defaults: " $1 " n=" $3 " error " $8 " c factor " $11; bad = 1 } END { exit bad }' \
    "$tmp/robust.csv" || fail "defaults recovery"
awk -F, 'FNR == 1 { f++; next } $1 == "1x2" {
    if (f == 1) h[$3] = $7
    else if (($7 - h[$3])^2 > (0.01 * h[$3])^2) { print "not ok: defaults: the spoiled point moved n=" $3 ": " h[$3] " -> " $7; bad = 1 }
} END { exit bad }' "$tmp/robust.csv" "$tmp/robust-spoiled.csv" || fail "robust to one slow point"

# Too few sizes: no held-out prediction, said so.
head -7 "$tmp/levels.csv" > "$tmp/few.csv"
held "$tmp/few.csv" "" | grep -q 'too few sizes to fit' || fail "too few sizes"
# Bad input: exit 2 with a message.
printf 'config,algo\n1x1,reduce\n' > "$tmp/bad.csv"
st=0; held "$tmp/bad.csv" "" 2> "$tmp/err" > /dev/null || st=$?
[ $st = 2 ] && grep -q "no column" "$tmp/err" || fail "a missing column: exit $st"
sed '3s/,0,0,/,x,0,/' "$tmp/levels.csv" > "$tmp/bad2.csv"
st=0; held "$tmp/bad2.csv" "" 2> "$tmp/err" > /dev/null || st=$?
[ $st = 2 ] && grep -q "is not a number" "$tmp/err" || fail "a bad number: exit $st"
st=0; held /dev/null "" 2> "$tmp/err" > /dev/null || st=$?
[ $st = 2 ] || fail "empty input: exit $st"
# The table over runs (bench/runs.awk): both runs, each cell's medians
# and spreads, each run's count and elapsed.txt.
mkdir -p "$tmp/r1" "$tmp/r2"
cp "$tmp/heldout.csv" "$tmp/r1/heldout.csv"
cp "$tmp/spoiled-out.csv" "$tmp/r2/heldout.csv"
printf 'elapsed_s 300\nbudget_s 480\n' > "$tmp/r1/elapsed.txt"
awk -f "$src/bench/csv.awk" -f "$src/bench/stats.awk" -f "$src/bench/runs.awk" "$tmp/r1/heldout.csv" \
    "$tmp/r2/heldout.csv" > "$tmp/runs.md" || fail "runs.awk failed"
cat "$tmp/runs.md"
grep -q '^| 1x2 | reduce | 3, 4 | 29.8% / 0.0% |' "$tmp/runs.md" || fail "runs.awk cell row"
grep -q 'run 1 .*held-out in 2 of 2; elapsed_s 300, budget_s 480' "$tmp/runs.md" || fail "runs.awk run line"
st=0; awk -f "$src/bench/csv.awk" -f "$src/bench/stats.awk" -f "$src/bench/runs.awk" "$tmp/levels.csv" > /dev/null 2>&1 || st=$?
[ $st = 2 ] || fail "runs.awk on a levels.csv: exit $st"
echo "ok: held-out fit"
