#!/usr/bin/env bash
# Is bench_psrs's in-process IPS4o at its best? Its time against IPS4o as
# a program of its own built with its authors' flags (ips4o_alone), on the
# same keys (distribution, size, seed) and thread count, the two programs
# alternating (which goes first swaps every round), each round's figure the
# median of the program's repetitions; the verdict compares the medians of
# the rounds. Issue 47 asked for them within 10%.
#
#   bench/ips4o_check.sh BUILD [N] [ROUNDS] [THREADS] [DIST]
#
# Defaults: N=1e7, ROUNDS=5, THREADS=nproc, DIST=uniform. Prints one line
# per round and the verdict; exit 0 within 10%, 1 outside, 2 on bad use or
# a failed run. Timing, so never a test: bench/run runs it.
set -euo pipefail
build=${1:?usage: ips4o_check.sh BUILD [N] [ROUNDS] [THREADS] [DIST]}
n=${2:-1e7} rounds=${3:-5} threads=${4:-$(nproc)} dist=${5:-uniform}
case "$rounds$threads" in *[!0-9]*) echo "ips4o_check: ROUNDS and THREADS are counts" >&2; exit 2 ;; esac
[ "$rounds" -ge 1 ] && [ "$threads" -ge 1 ] || { echo "ips4o_check: ROUNDS and THREADS must be >= 1" >&2; exit 2; }
psrs=$build/bench/bench_psrs alone=$build/bench/ips4o_alone
[ -x "$psrs" ] && [ -x "$alone" ] || { echo "ips4o_check: no $psrs or $alone (build with -Dbench)" >&2; exit 2; }
# The same waits in both: bench_psrs would pick PASSIVE itself.
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-PASSIVE}
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT

median() { sort -g | awk '{v[NR] = $1} END {print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
in_process() { # the median of bench_psrs's ips4o rows
    OMP_NUM_THREADS=$threads "$psrs" --dist "$dist" --n "$n" --reps 5 --contestants ips4o \
        --shape "core:$threads" --csv "$tmp/p.csv" > "$tmp/p.txt" 2> "$tmp/p.err" ||
        { cat "$tmp/p.err" >&2; exit 2; }
    awk -F, '$3 == "ips4o" {print $6}' "$tmp/p.csv" | median
}
standalone() {
    OMP_NUM_THREADS=$threads "$alone" --dist "$dist" --n "$n" --threads "$threads" \
        --reps 5 | awk '{print $5}'
}
: > "$tmp/in" && : > "$tmp/alone"
echo "# IPS4o in bench_psrs against ips4o_alone: $dist, n=$n, $threads threads, $rounds rounds, OMP_WAIT_POLICY=$OMP_WAIT_POLICY; load: $(uptime | sed 's/.*load/load/')"
for r in $(seq 1 "$rounds"); do
    if [ $((r % 2)) = 1 ]; then a=$(in_process); b=$(standalone)
    else b=$(standalone); a=$(in_process); fi
    echo "$a" >> "$tmp/in" && echo "$b" >> "$tmp/alone"
    echo "round $r: in-process $a s, standalone $b s"
done
awk -v a="$(median < "$tmp/in")" -v b="$(median < "$tmp/alone")" 'BEGIN {
    r = a / b
    printf "in-process %.4f s, standalone %.4f s: in-process / standalone %.3f: %s\n",
        a, b, r, (r <= 1.1 && r >= 1 / 1.1) ? "within 10%" : "NOT within 10%"
    exit !(r <= 1.1 && r >= 1 / 1.1)
}'
