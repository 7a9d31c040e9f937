#!/bin/sh
# Run a crashing MPI job under a watchdog: pass if mpiexec ends non-zero
# before the watchdog fires (124/137 mean a hang) and says something;
# print its status, time and message.
#   crash_watchdog.sh SECONDS COMMAND [ARG]...
set -u
limit=$1; shift
tmp=$(mktemp) || exit 99
trap 'rm -f "$tmp"' EXIT
start=$(date +%s)
timeout -k 5 "$limit" "$@" >"$tmp" 2>&1
st=$?
took=$(( $(date +%s) - start ))
echo "--- output (exit $st after ${took}s):"
grep -v '^\s*$' "$tmp" | head -25
if [ $st -eq 124 ] || [ $st -eq 137 ]; then
    echo "FAIL: the job hung (watchdog fired after ${limit}s)"
    exit 1
fi
if [ $st -eq 0 ]; then
    echo "FAIL: the job exited 0 although a child died"
    exit 1
fi
echo "PASS: exit $st within ${took}s"
