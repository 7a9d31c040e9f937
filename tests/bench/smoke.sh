#!/usr/bin/env bash
# Smoke test of the main job's pieces, in the spirit of
# `bench/run --quick` but tiny: bench_main on 1 x 2 threads and on 2 ranks
# with parameters from a machine file, the summary (report.awk), the plots
# (gnuplot, if installed) and --predict. Asserts that every piece
# completes and writes its files, and (with python3) that each
# configuration's JSON follows its schema and its timeline loads.
#   smoke.sh BENCH_MAIN MPIEXEC SRCDIR
set -euo pipefail
bin=$1 mpiexec=$2 src=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
params=(--params "$src/machine/machines/paper-16x8.sgl")
fail() { echo "not ok: $*" >&2; exit 1; }

SGL_SHAPE=core:2 OMP_NUM_THREADS=2 timeout -k 5 60 "$bin" --config 1x2 \
    --sizes 1e3,1e4 --reps 5 "${params[@]}" --csv "$tmp/points.csv" \
    --measurements "$tmp/measurements.csv" --json "$tmp/1x2.json" \
    --timeline "$tmp/timeline-1x2.json" > "$tmp/table.txt" ||
    fail "bench_main 1x2"
SGL_SHAPE=rank:2 OMP_NUM_THREADS=1 timeout -k 5 60 "$mpiexec" -n 2 \
    --oversubscribe --bind-to none --mca mpi_yield_when_idle 1 "$bin" \
    --config 2x1 --sizes 1e3,1e4 --reps 5 "${params[@]}" --no-header \
    --csv "$tmp/points.csv" --measurements "$tmp/measurements.csv" \
    --json "$tmp/2x1.json" --timeline "$tmp/timeline-2x1.json" \
    >> "$tmp/table.txt" || fail "bench_main 2x1"
# Lines are records here: no field of these runs holds a line break
# (tests/bench/csv_check.py reads the files as CSV).
rows=$(($(wc -l < "$tmp/points.csv") - 1))
[ "$rows" = 12 ] || fail "points.csv has $rows rows, expected 12"
# Rank 0 alone writes, once per run: one header, and at least SGL's and
# the two peers' 5 repetitions per point.
headers=$(grep -c '^config,' "$tmp/measurements.csv")
[ "$headers" = 1 ] || fail "measurements.csv has $headers header lines"
rows=$(($(wc -l < "$tmp/measurements.csv") - 1))
[ "$rows" -ge $((12 * 3 * 5)) ] || fail "measurements.csv has $rows rows, expected >= 180"
for c in 1x2 2x1; do
    grep -q '"points"' "$tmp/$c.json" || fail "$c.json has no points"
    [ -s "$tmp/timeline-$c.json" ] || fail "no timeline-$c.json"
    if command -v python3 > /dev/null; then
        python3 "$src/tests/bench/check_points.py" "$tmp/$c.json" 2 6 ||
            fail "$c.json"
        python3 "$src/tests/runtime/check_timeline.py" --workers 2 \
            "$tmp/timeline-$c.json" || fail "timeline-$c.json"
    fi
done
# A timeline that cannot be written fails the run, naming the file.
if SGL_SHAPE=core:2 OMP_NUM_THREADS=2 timeout -k 5 60 "$bin" --sizes 1e3 \
    --algos reduce --timeline /nonexistent/timeline.json > /dev/null \
    2> "$tmp/err.txt"; then
    fail "an unwritable timeline did not fail"
fi
grep -q 'timeline /nonexistent/timeline.json' "$tmp/err.txt" ||
    fail "no message for an unwritable timeline: $(cat "$tmp/err.txt")"
grep -q 'psrs' "$tmp/table.txt" || fail "no psrs row in the table"
awk -f "$src/bench/csv.awk" -f "$src/bench/report.awk" "$tmp/points.csv" \
    > "$tmp/summary.txt" ||
    fail "report.awk"
grep -q 'speed-up and efficiency' "$tmp/summary.txt" || fail "no speed-up table"
if command -v gnuplot > /dev/null; then
    for t in png svg; do
        gnuplot -e "csv='$tmp/points.csv'; algo='reduce'; configs='1x2 2x1'; term='$t'; outfile='$tmp/reduce.$t'" \
            "$src/bench/plot.gp" || fail "gnuplot $t"
        [ -s "$tmp/reduce.$t" ] || fail "empty reduce.$t"
    done
fi
"$bin" --predict "$src/machine/machines/cluster-1024x16.sgl" --sizes 1e6,1e9 \
    > "$tmp/predict.txt" || fail "--predict"
grep -q 'predicted speed-up' "$tmp/predict.txt" || fail "--predict: no scale-out table"
echo "ok: bench_main (JSON, timelines), report, plots and --predict wrote their files"
