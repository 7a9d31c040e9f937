#!/usr/bin/env bash
# A fault in the middle of a superstep, across hosts (run inside sgl-hosts):
#   fault.sh kill-host|cut-link HOST LIMIT COMMAND [ARG]...
# starts COMMAND (an mpirun job whose superstep does not end by itself),
# waits until HOST runs its part, then kills every process of HOST or
# cuts its link. Passes if the job then ends non-zero within LIMIT seconds
# and its output names the lost host; prints the time it took.
set -u
mode=$1 host=$2 limit=$3; shift 3
dir=${SGL_HOSTS_DIR:?fault.sh runs inside sgl-hosts}
out=$(mktemp) || exit 99
trap 'rm -f "$out"' EXIT
"$@" >"$out" 2>&1 &
job=$!
# The job has reached the superstep once the host runs a rank (a process
# other than Open MPI's daemon), plus a moment to enter the pardo.
for _ in $(seq 1 100); do
    pids=$("$dir/host-pids" "$host")
    [ -n "$pids" ] && ps -o comm= -p $pids | grep -qv '^orted$' && break
    sleep 0.1
done
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
echo "--- output (exit $st):"; grep -v '^\s*$' "$out" | head -20
printf 'job ended %d.%01d s after %s h%s, exit %d\n' $((took / 1000)) $((took % 1000 / 100)) "$mode" "$host" "$st"
[ "$st" -ne 0 ] || { echo "FAIL: the job exited 0 after losing h$host"; exit 1; }
grep -q "h$host" "$out" || { echo "FAIL: the output does not name h$host"; exit 1; }
echo "PASS"
