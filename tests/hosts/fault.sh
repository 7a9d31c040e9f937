#!/usr/bin/env bash
# A fault in the middle of a superstep, across hosts (run inside sgl-hosts):
#   fault.sh kill-host|cut-link HOST LIMIT COMMAND [ARG]...
# starts COMMAND (an mpirun job whose superstep does not end by itself
# and that prints "waits forever" once it is in it: watchdog_hang), then
# kills every process of HOST or cuts its link. Passes if the job then ends non-zero within LIMIT seconds
# and its output names the lost host; prints the time it took.
set -u
mode=$1 host=$2 limit=$3; shift 3
case $mode in kill-host | cut-link) ;; *) echo "fault.sh: unknown fault '$mode'" >&2; exit 99 ;; esac
dir=${SGL_HOSTS_DIR:?fault.sh runs inside sgl-hosts}
out=$(mktemp) || exit 99
trap 'rm -f "$out"' EXIT
"$@" >"$out" 2>&1 &
job=$!
# Fault only once the job is in its superstep (the program says so):
# earlier, a cut link would hit MPI's start-up, which waits for TCP
# retransmissions (minutes), not for the keepalive.
for _ in $(seq 1 600); do
    grep -q 'waits forever' "$out" && break
    kill -0 "$job" 2>/dev/null || break
    sleep 0.1
done
grep -q 'waits forever' "$out" ||
    { echo "FAIL: the job never reached its superstep:"; head -20 "$out"; kill -9 "$job"; exit 1; }
sleep 0.5
ms() { echo $(( $(date +%s%N) / 1000000 )); }
t0=$(ms)
"$dir/$mode" "$host"
st=
while kill -0 "$job" 2>/dev/null; do
    if [ $(( $(ms) - t0 )) -gt $(( limit * 1000 )) ]; then
        kill -9 "$job" 2>/dev/null
        wait "$job" 2>/dev/null
        echo "--- output:"; grep -v '^\s*$' "$out" | head -20
        echo "FAIL: the job still ran ${limit} s after $mode h$host"
        exit 1
    fi
    sleep 0.05
done
wait "$job"; st=$?
took=$(( $(ms) - t0 ))
# The cut-off host cannot hear that the job ended; once its cable is
# back it must clean up (sgl-hosts fails the test if anything is left).
[ "$mode" != cut-link ] || "$dir/mend-link" "$host"
echo "--- output (exit $st):"; grep -v '^\s*$' "$out" | head -20
printf 'job ended %d.%01d s after %s h%s, exit %d\n' $((took / 1000)) $((took % 1000 / 100)) "$mode" "$host" "$st"
[ "$st" -ne 0 ] || { echo "FAIL: the job exited 0 after losing h$host"; exit 1; }
grep -q "h$host" "$out" || { echo "FAIL: the output does not name h$host"; exit 1; }
echo "PASS"
