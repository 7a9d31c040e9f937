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
# The arithmetic alone: plain least squares, no prior towards the probe
# (the earlier fit, -v method=lsq); the default Theil-Sen fit is checked
# after it.
exact=(-v method=lsq -v ridge=1e-12 -v irls=0)

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

# The default fit (Theil-Sen: the median of the exact fits of every set
# of 3 other sizes, 2 where g is unseen): the same factors, and the
# spoiled point moves no other prediction (it is in fewer than half of
# the sets), its own not at all.
held "$tmp/levels.csv" "$tmp/robust.csv" > /dev/null || fail "heldout.awk failed (defaults)"
held "$tmp/spoiled.csv" "$tmp/robust-spoiled.csv" > /dev/null || fail "heldout.awk failed (defaults, spoiled)"
awk -F, 'NR > 1 && (($8 > 1e-6 || $8 < -1e-6) || ($9 - 1.4)^2 > 1e-10 || ($11 - 1.25)^2 > 1e-10) {
    print "not ok: defaults: " $1 " n=" $3 " error " $8 " factors " $9 " " $11; bad = 1 }
    NR > 1 && $14 != ($1 == "1x2" ? "l g c" : "l c") { print "not ok: defaults: " $1 " terms " $14; bad = 1 }
    NR > 1 && $15 != ($1 == "1x2" ? 56 : 28) { print "not ok: defaults: " $1 " sets " $15; bad = 1 }
    END { exit bad }' "$tmp/robust.csv" || fail "defaults recovery"
awk -F, 'FNR == 1 { f++; next } $1 == "1x2" {
    if (f == 1) h[$3] = $7
    else if (($7 - h[$3])^2 > (1e-6 * h[$3])^2) { print "not ok: defaults: the spoiled point moved n=" $3 ": " h[$3] " -> " $7; bad = 1 }
} END { exit bad }' "$tmp/robust.csv" "$tmp/robust-spoiled.csv" || fail "robust to one slow point"

# Theil-Sen on hand-made cells whose answers are known:
# - 1x1: work alone, c 2e-10 s per element, the truth 1.3x; three of the
#   nine sizes (3e3, 1e5, 3e6: a slow minute) measured 2x. The fit is the
#   median of 8 ratios of which at most 3 are spoiled: exactly 1.3, and
#   every clean point predicted exactly; least squares (lsq) is not.
# - 2x1: syncs 20 us, scatter of 8 bytes per element at 1 ns per byte
#   and work at 0.2 ns per element, truth 1.5x the syncs and 1.2x both
#   per-element terms: the scatter and the work grow alike, no set of 3
#   is well-posed, so the scatter takes the work's factor (terms "l g=c")
#   and every point is predicted exactly.
awk 'BEGIN {
    print "config,algo,n_elements,level,closed_form_work_s,closed_form_scatter_s," \
          "closed_form_gather_s,closed_form_syncs_s,closed_form_exchange_s,closed_form_s,measured_s"
    split("1e3 3e3 1e4 3e4 1e5 3e5 1e6 3e6 1e7", ns, " ")
    for (i = 1; i <= 9; i++) {
        n = ns[i] + 0; W = n * 2e-10; t = 1.3 * W
        if (n == 3e3 || n == 1e5 || n == 3e6) t *= 2
        printf "1x1,scan,%d,0,%.17g,0,0,0,0,%.17g,%.17g\n", n, W, W, t
        L = 2e-5; G = 8 * n * 1e-9; W = n * 2e-10; t = 1.5 * L + 1.2 * (G + W)
        printf "2x1,scan,%d,0,0,%.17g,0,%.17g,0,%.17g,%.17g\n", n, G, L, L + G + W, t
        printf "2x1,scan,%d,1,%.17g,0,0,0,0,%.17g,%.17g\n", n, W, L + G + W, t
    }
}' > "$tmp/ts.csv"
held "$tmp/ts.csv" "$tmp/ts-out.csv" > "$tmp/ts.txt" || fail "heldout.awk failed (Theil-Sen cells)"
cat "$tmp/ts.txt"
awk -F, 'NR > 1 && $1 == "1x1" {
        e = $8 < 0 ? -$8 : $8
        slow = $3 + 0 == 3e3 || $3 + 0 == 1e5 || $3 + 0 == 3e6
        if (($11 - 1.3)^2 > 1e-12) { print "not ok: 1x1 n=" $3 " c factor " $11; bad = 1 }
        if (!slow && e > 1e-9) { print "not ok: 1x1 n=" $3 " clean point missed by " $8; bad = 1 }
        if ($14 != "c") { print "not ok: 1x1 terms " $14; bad = 1 } }
    NR > 1 && $1 == "2x1" {
        e = $8 < 0 ? -$8 : $8
        if (e > 1e-9 || $14 != "l g=c" || ($9 - 1.5)^2 > 1e-12 || ($10 - 1.2)^2 > 1e-12 || ($11 - 1.2)^2 > 1e-12) {
            print "not ok: 2x1 n=" $3 " error " $8 " terms " $14 " factors " $9 " " $10 " " $11; bad = 1 } }
    END { exit bad }' "$tmp/ts-out.csv" || fail "Theil-Sen cells"
# -v near=2: each fit on the 2 other sizes nearest in log n (for 1e4:
# 3e4 and 3e3; for 1e3, the smallest: 3e3 and 1e4); for 1e7, 3e6 (slow:
# 2.6) and 1e6 (1.3), whose median is their mean, 1.95.
held "$tmp/ts.csv" "$tmp/ts-near.csv" -v near=2 > /dev/null || fail "heldout.awk failed (near=2)"
awk -F, 'NR > 1 && $1 == "1x1" { f[$3 + 0] = $13; p[$3 + 0] = $12; c[$3 + 0] = $11 }
    END { if (p[1e4] != 2 || f[1e4] != "30000;3000") { print "not ok: near=2 at 1e4: " p[1e4] " sizes " f[1e4]; bad = 1 }
          if (f[1000] != "3000;10000") { print "not ok: near=2 at 1e3: " f[1000]; bad = 1 }
          if ((c[1e7] - 1.95)^2 > 1e-12) { print "not ok: near=2 at 1e7 (3e6 slow, 1e6 not): c factor " c[1e7]; bad = 1 }
          exit bad }' "$tmp/ts-near.csv" || fail "near sizes"
# The same 1x1 cell by least squares: the slow points move its factor.
held "$tmp/ts.csv" "$tmp/ts-lsq.csv" "${exact[@]}" > /dev/null || fail "heldout.awk failed (lsq)"
awk -F, 'NR > 1 && $1 == "1x1" && ($11 - 1.3)^2 > 1e-4 { moved++ } END { exit !moved }' \
    "$tmp/ts-lsq.csv" || fail "least squares on the 1x1 cell: expected the slow points to move it"
st=0; held "$tmp/ts.csv" "" -v method=mean > /dev/null 2> "$tmp/err" || st=$?
[ $st = 2 ] && grep -q "method" "$tmp/err" || fail "a bad method: exit $st"

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
printf '10 build\n60 probes\n' > "$tmp/r1/phases.txt"
awk -f "$src/bench/csv.awk" -f "$src/bench/stats.awk" -f "$src/bench/runs.awk" "$tmp/r1/heldout.csv" \
    "$tmp/r2/heldout.csv" > "$tmp/runs.md" || fail "runs.awk failed"
cat "$tmp/runs.md"
grep -q '^| 1x2 | reduce | 3, 4 | 29.8% / 0.0% |' "$tmp/runs.md" || fail "runs.awk cell row"
grep -q 'run 1 .*held-out in 2 of 2; elapsed_s 300, budget_s 480; phases (s): 10 build; 60 probes$' "$tmp/runs.md" || fail "runs.awk run line"
grep -q '^| 2x1 | reduce .*| terms \[l g c\], factors l / g / c 1.40 / 1.00 / 1.25, on the other 8 sizes' "$tmp/runs.md" ||
    fail "runs.awk: what the fit used"
st=0; awk -f "$src/bench/csv.awk" -f "$src/bench/stats.awk" -f "$src/bench/runs.awk" "$tmp/levels.csv" > /dev/null 2>&1 || st=$?
[ $st = 2 ] || fail "runs.awk on a levels.csv: exit $st"
echo "ok: held-out fit"
