#!/bin/sh
# Run a command and check its exit status and output; the harness of the
# sgl-machine golden, bad-input and mpirun tests.
#   check_tool.sh [--exit N] [--stdout FILE] [--stdout-has TEXT]
#                 [--stdout-once TEXT] [--stderr-has TEXT] [--json PYTHON]
#                 -- COMMAND [ARG]...
# --stdout compares all of stdout with FILE; --stdout-once wants TEXT on
# exactly one line (only rank 0 prints); --json checks stdout parses.
set -u
want_exit=0 expect= has= once= errhas= python=
while [ $# -gt 0 ]; do
    case $1 in
    --exit) want_exit=$2; shift 2 ;;
    --stdout) expect=$2; shift 2 ;;
    --stdout-has) has=$2; shift 2 ;;
    --stdout-once) once=$2; shift 2 ;;
    --stderr-has) errhas=$2; shift 2 ;;
    --json) python=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "check_tool.sh: unknown option $1" >&2; exit 99 ;;
    esac
done
dir=$(mktemp -d) || exit 99
trap 'rm -rf "$dir"' EXIT
"$@" >"$dir/out" 2>"$dir/err"
status=$?
# A command that skips (77, as meson reads it) skips the test, unless 77
# is the status the test wants: a skip is not a pass, nor a failure.
if [ "$status" -eq 77 ] && [ "$want_exit" -ne 77 ]; then
    cat "$dir/err" >&2
    echo "SKIP: the command skipped (exit 77)" >&2
    exit 77
fi
fail=0
complain() {
    echo "FAIL: $*" >&2
    fail=1
}
[ "$status" -eq "$want_exit" ] ||
    complain "exit status $status, expected $want_exit"
if [ -n "$expect" ] && ! diff -u "$expect" "$dir/out" >&2; then
    complain "stdout differs from $expect"
fi
if [ -n "$has" ] && ! grep -qF -- "$has" "$dir/out"; then
    complain "stdout lacks '$has'"
fi
if [ -n "$once" ]; then
    n=$(grep -cF -- "$once" "$dir/out")
    [ "$n" -eq 1 ] || complain "stdout has '$once' $n times, expected once"
fi
if [ -n "$errhas" ] && ! grep -qF -- "$errhas" "$dir/err"; then
    complain "stderr lacks '$errhas'"
fi
if [ -n "$python" ] && ! "$python" -m json.tool "$dir/out" >/dev/null; then
    complain "stdout is not valid JSON"
fi
if [ "$fail" -ne 0 ]; then
    echo "--- command: $*" >&2
    echo "--- stdout:" >&2
    cat "$dir/out" >&2
    echo "--- stderr:" >&2
    cat "$dir/err" >&2
fi
exit "$fail"
