#!/bin/sh
# sgl-probe --quick writes its machine file where --output=FILE says, and
# the machine file reader takes what it wrote (sgl-predict loads it). On
# stderr it counts its steps: "step k of N", k = 1..N in order, with an
# ETA from the second on.
#   probe_output.sh SGL_PROBE SGL_PREDICT
set -u
# Absolute paths: the probe runs in a folder of its own, where a stray
# default machine.sgl would show.
abs() { echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; }
probe=$(abs "$1") predict=$(abs "$2")
dir=$(mktemp -d) || exit 99
trap 'rm -rf "$dir"' EXIT
fail() {
    echo "FAIL: $*" >&2
    echo "--- stderr of sgl-probe:" >&2
    cat "$dir/err" >&2
    exit 1
}
# The time limit scales as meson's timeouts do (tests/run:
# SGL_TEST_TIMEOUT_MULTIPLIER; 0 or less: none, as meson reads it).
limit=$(awk -v m="${SGL_TEST_TIMEOUT_MULTIPLIER:-1}" \
    'BEGIN { print (m > 0 ? int(100 * m) : 86400) }')
(cd "$dir" && timeout -k 5 "$limit" "$probe" --quick --output="$dir/out.sgl" \
    >"$dir/out" 2>"$dir/err") || fail "sgl-probe exited with status $?"
[ -s "$dir/out.sgl" ] || fail "no machine file at --output=$dir/out.sgl"
[ ! -e "$dir/machine.sgl" ] || fail "it wrote the default machine.sgl too"
grep -qF "wrote $dir/out.sgl" "$dir/out" || fail "stdout does not say where it wrote"
grep '^sgl-probe: step ' "$dir/err" >"$dir/steps"
n=$(wc -l <"$dir/steps")
[ "$n" -ge 2 ] || fail "$n progress lines"
k=0
while IFS= read -r line; do
    k=$((k + 1))
    case $line in
    "sgl-probe: step $k of $n: "*) ;;
    *) fail "progress line $k of $n reads: $line" ;;
    esac
    [ "$k" -eq 1 ] || case $line in
        *"; ETA "[0-9]*" s") ;;
        *) fail "no ETA in: $line" ;;
        esac
done <"$dir/steps"
# The fan-out term is written, not left to the default: its l is fitted
# less the headers' price (a threads level has none).
grep -Eq '^level 0 header [0-9.e+-]+$' "$dir/out.sgl" ||
    fail "no 'level 0 header' record: $(grep '^level 0' "$dir/out.sgl")"
# A thread level carries its view path's price (sgl_recv_view(),
# sgl_gather_into()), which the root array's reduce and scan use.
if grep -q '^level 0 link threads' "$dir/out.sgl"; then
    grep -Eq '^level 0 view g_down [0-9.e+-]+ g_up [0-9.e+-]+( |$)' \
        "$dir/out.sgl" ||
        fail "no 'level 0 view' record: $(grep '^level 0' "$dir/out.sgl")"
    grep -q 'view path (sgl_gather_into)' "$dir/out" ||
        fail "the view path's fits are not printed"
fi
"$predict" --algo=reduce --centralised --n=1e6 --machine="$dir/out.sgl" \
    >"$dir/predict" 2>&1 ||
    fail "sgl-predict cannot price a root array: $(cat "$dir/predict")"
"$predict" --algo=psrs --n=1e6 --machine="$dir/out.sgl" >"$dir/predict" 2>&1 ||
    fail "sgl-predict cannot read the probe's file: $(cat "$dir/predict")"
echo "ok: sgl-probe --output=FILE wrote FILE in $n counted steps; sgl-predict reads it"
