#!/bin/sh
# The watchdog ends a stuck superstep: run watchdog_hang (a task that
# never returns) with SGL_WATCHDOG set; pass if the job ends by itself
# (not by this script's outer timeout) with the watchdog's message, which
# must name the master and the child that has not returned.
#   watchdog.sh OUTER_SECONDS COMMAND [ARG]...
set -u
limit=$1; shift
tmp=$(mktemp) || exit 99
trap 'rm -f "$tmp"' EXIT
start=$(date +%s)
timeout -k 5 "$limit" "$@" >"$tmp" 2>&1
st=$?
took=$(( $(date +%s) - start ))
echo "--- output (exit $st after ${took}s):"
grep -v '^\s*$' "$tmp" | head -20
if [ $st -eq 124 ] && ! grep -q 'sgl: watchdog:' "$tmp"; then
    echo "FAIL: the job hung until the outer timeout (${limit}s)"
    exit 1
fi
if ! grep -q 'sgl: watchdog: the superstep of .* (rank [0-9]*) has run .*children not returned: [0-9]' "$tmp"; then
    echo "FAIL: no watchdog message naming the master and a child"
    exit 1
fi
[ $st -ne 0 ] || { echo "FAIL: exit 0"; exit 1; }
echo "PASS: ended by the watchdog, exit $st within ${took}s"
