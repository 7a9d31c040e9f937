#!/usr/bin/env bash
# sgl-probe --drift and bench_main --repredict as bench/run uses them, on
# a fixed base (drift-base-core2.sgl, a real --quick probe of core:2):
# the re-measure runs to the end and writes a machine file that loads,
# carries its provenance and keeps the base's shape; its drift CSV has a
# row per parameter, whose "before" values are the base's; the
# re-prediction has a row per point with the base's own closed form.
# Timings are not checked. Bad input is refused with a message: a missing
# or malformed base, a base of another shape or not from sgl-probe,
# --drift-csv without --drift, unequal --params / --params-after.
#   drift_probe.sh SGL_PROBE BENCH_MAIN SRCDIR
set -euo pipefail
probe=$1 bin=$2 src=$3
base=$src/tests/bench/drift-base-core2.sgl
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "not ok: $*" >&2; exit 1; }
export OMPI_MCA_ess_singleton_isolated=1 OMPI_MCA_pml=ob1
refused() { # refused STATUS TEXT -- COMMAND...
    local want=$1 text=$2 st=0
    shift 3
    "$@" > "$tmp/out" 2> "$tmp/err" || st=$?
    [ "$st" = "$want" ] || fail "$*: exit $st, expected $want ($(cat "$tmp/err"))"
    grep -qF -- "$text" "$tmp/err" || fail "$*: stderr does not say '$text': $(cat "$tmp/err")"
}

# The time limit scales as meson's timeouts do (tests/run:
# SGL_TEST_TIMEOUT_MULTIPLIER; 0 or less: none, as meson reads it).
limit=$(awk -v m="${SGL_TEST_TIMEOUT_MULTIPLIER:-1}" \
    'BEGIN { print (m > 0 ? int(120 * m) : 86400) }')
SGL_SHAPE=core:2 OMP_NUM_THREADS=2 timeout -k 5 "$limit" "$probe" --drift "$base" \
    -o "$tmp/after.sgl" --drift-csv "$tmp/drift.csv" --label 'a,b' \
    > "$tmp/probe.out" 2> "$tmp/probe.err" || fail "sgl-probe --drift: $(tail -3 "$tmp/probe.err")"
grep -q '^drift against ' "$tmp/probe.out" || fail "no drift table on stdout"
grep -q '^largest change: ' "$tmp/probe.out" || fail "no largest change on stdout"
grep -qx 'shape core:2' "$tmp/after.sgl" || fail "the re-measure changed the shape"
grep -q '^provenance method "sgl-probe --drift --quick: ' "$tmp/after.sgl" ||
    fail "the re-measure's method is not --drift --quick (the base's --quick)"
grep -q "^provenance drift_base_date \"2026-12-04T12:44:55Z\"" "$tmp/after.sgl" ||
    fail "no drift_base_date"
"$bin" --predict "$tmp/after.sgl" --sizes 1e6 > /dev/null || fail "the re-measured file does not load"
# A re-measure of the re-measure (bench/run prices a configuration by
# the latest one): its --quick comes through, and with --intervals the
# two ends' files hold every re-measured c around the median.
SGL_SHAPE=core:2 OMP_NUM_THREADS=2 timeout -k 5 "$limit" "$probe" --drift "$tmp/after.sgl" \
    --intervals -o "$tmp/after2.sgl" > /dev/null 2>&1 || fail "sgl-probe --drift of a drift file"
grep -q '^provenance method "sgl-probe --drift --quick: ' "$tmp/after2.sgl" ||
    fail "a drift file's --quick is lost"
for e in lo hi; do
    [ -f "$tmp/after2.$e.sgl" ] || fail "--drift --intervals wrote no after2.$e.sgl"
    grep -qx 'shape core:2' "$tmp/after2.$e.sgl" || fail "after2.$e.sgl changed the shape"
    "$bin" --predict "$tmp/after2.$e.sgl" --sizes 1e6 > /dev/null ||
        fail "after2.$e.sgl does not load"
done
# kernel NAME C n N busy B: per (kernel, n, busy) lo <= median <= hi.
awk '{ sub(/#.*/, "") } $1 == "kernel" && NF == 7 { k = $2 " " $5 " " $7; v[FILENAME, k] = $3; keys[k] }
     END { for (k in keys) { n++
               if (!(v[ARGV[1], k] <= v[ARGV[2], k] && v[ARGV[2], k] <= v[ARGV[3], k])) exit 1 }
           if (n < 6) exit 1 }' \
    "$tmp/after2.lo.sgl" "$tmp/after2.sgl" "$tmp/after2.hi.sgl" ||
    fail "a re-measured c lies outside its interval's ends (or too few points)"

if command -v /usr/bin/python3 > /dev/null; then
    /usr/bin/python3 - "$tmp/drift.csv" "$base" "$tmp/probe.out" << 'EOF' || fail "drift.csv"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
want = {"l", "g_down", "g_up", "small_g_down", "small_g_up", "view_g_down",
        "view_g_up", "exchange_l", "exchange_g", "c"}
got = {r["parameter"] for r in rows}
assert got == want, got
assert all(r["label"] == "a,b" for r in rows), "label"
# The base's own values as "before": kernel sum at n 1e6, busy 1.
base = {}
for line in open(sys.argv[2]):
    t = line.split("#")[0].split()
    if t[:2] == ["kernel", "sum"] and len(t) == 7:
        base[(int(t[4]), int(t[6]))] = float(t[2])
n = 0
for r in rows:
    if r["parameter"] == "c" and r["kernel"] == "sum" and r["n_elements"]:
        b = base[(int(r["n_elements"]), int(r["busy"]))]
        assert abs(float(r["before"]) - b) <= 1e-8 * b, (r, b)
        a = float(r["after"])
        assert a > 0 and abs(float(r["rel_change"]) - (a - b) / b) < 1e-6
        n += 1
assert n == 6, n  # 3 sizes x busy 1, 2
# stdout's largest change is the row of largest |rel_change|, with its sign.
top = max((r for r in rows if r["rel_change"]),
          key=lambda r: abs(float(r["rel_change"])))
line = [l for l in open(sys.argv[3]) if l.startswith("largest change: ")][0]
said = float(line.rsplit(",", 1)[1].strip().rstrip("%"))
assert abs(said - 100 * float(top["rel_change"])) < 0.051, (line, top)
EOF
fi

"$bin" --repredict core:2 --config 1x2 --sizes 1e3,1e4,1e5,1e6 \
    --params "$base" --params-after "$tmp/after.sgl" --csv "$tmp/rp.csv" ||
    fail "bench_main --repredict"
[ "$(head -1 "$tmp/rp.csv")" = "config,algo,n_elements,closed_form_s,closed_form_after_s" ] ||
    fail "repredict header: $(head -1 "$tmp/rp.csv")"
rows=$(($(wc -l < "$tmp/rp.csv") - 1))
[ "$rows" = 12 ] || fail "repredict.csv has $rows rows, expected 12"
awk -F, 'NR > 1 && !($4 > 0 && $5 > 0) { exit 1 }' "$tmp/rp.csv" ||
    fail "a re-prediction is not a positive time"
# The same parameters on both sides: no drift at all.
"$bin" --repredict core:2 --sizes 1e6 --params "$base" --params-after "$base" \
    --csv "$tmp/same.csv" || fail "bench_main --repredict on the base twice"
awk -F, 'NR > 1 && $4 != $5 { exit 1 }' "$tmp/same.csv" ||
    fail "the same parameters predict differently"

# Bad input.
export SGL_SHAPE=core:2 OMP_NUM_THREADS=2
refused 1 "--drift:" -- "$probe" --drift "$tmp/nonexistent.sgl" -o "$tmp/x.sgl"
printf 'sgl-machine 2\nshape core:2\nlevel zero\n' > "$tmp/bad.sgl"
refused 1 "bad.sgl:3" -- "$probe" --drift "$tmp/bad.sgl" -o "$tmp/x.sgl"
refused 1 "was not written by sgl-probe" -- "$probe" --drift \
    "$src/tests/bench/scan-auto-core2.sgl" -o "$tmp/x.sgl"
SGL_SHAPE=core:1 refused 1 "is a probe of shape 'core:2', this run's tree is 'core:1'" -- \
    "$probe" --drift "$base" -o "$tmp/x.sgl"
refused 2 "--drift-csv needs --drift" -- "$probe" --drift-csv "$tmp/d.csv"
refused 2 "needs a FILE argument" -- "$probe" --drift
refused 2 "as many --params-after as --params" -- "$bin" --repredict core:2 \
    --params "$base" --csv "$tmp/x.csv"
refused 2 "--params-after needs --repredict" -- "$bin" --params "$base" \
    --params-after "$base"
[ ! -e "$tmp/x.sgl" ] || fail "a refused --drift wrote its output"
echo "ok: sgl-probe --drift, bench_main --repredict and their refusals"
