#!/bin/sh
# Bad input to the tools: every case must exit with a usage (2) or input
# (1) status and say why on stderr, within the watchdog's time; a crash
# (status >= 128), a hang (124) or silence fails. Prints one TAP line per
# case with the tool's message, so the log lists every input and answer.
#   bad_tools.sh FILES_DIR SGL_MACHINE SGL_PROBE [SGL_PREDICT]
set -u
files=$1 machine=$2 probe=$3 predict=${4:-}
n=0 failed=0
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
# case WANT_STATUS TOOL ARG...  (WANT_STATUS: 1, 2 or "12" for either)
# Set before a case: limit (seconds, default 60), expect (a string the
# message must contain) and reject (one it must not). Every message must be free of raw control
# characters (the tools quote input escaped).
limit=60 expect= reject=
ctl=$(printf '[\001-\010\013-\037\177]')
case_() {
    want=$1; shift
    n=$((n + 1))
    timeout -k 5 "$limit" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    st=$?
    msg=$(tr '\n' ' ' <"$tmp/err" | tr -d '\001-\010\013-\037\177' | cut -c1-300)
    what="$(basename "$1")$(shift; for a in "$@"; do printf ' [%s]' "$a"; done | tr '\001-\037\177' '?')"
    case $want in *$st*) ok=1 ;; *) ok=0 ;; esac
    [ "$st" -eq 0 ] && ok=0
    [ -s "$tmp/err" ] || ok=0
    if LC_ALL=C grep -q "$ctl" "$tmp/err"; then
        ok=0 msg="raw control characters in: $msg"
    fi
    if [ -n "$expect" ] && ! grep -qF -- "$expect" "$tmp/err"; then
        ok=0 msg="lacks '$expect': $msg"
    fi
    if [ -n "$reject" ] && grep -qF -- "$reject" "$tmp/err"; then
        ok=0 msg="has '$reject': $msg"
    fi
    limit=60 expect= reject=
    if [ $ok -eq 1 ]; then
        echo "ok $n - $what: exit $st: $msg"
    else
        failed=$((failed + 1))
        echo "not ok $n - $what: exit $st (want $want): $msg"
    fi
}
# sgl-machine (tests/machine covers the common shape errors; these are the
# odd ones).
case_ 1 "$machine" --shape "rank:2 core:[3,5"
expect='bad shape "rank:2\x01"'
case_ 1 "$machine" --shape "$(printf 'rank:2\001')"
expect='\x1b[31m'
case_ 1 "$machine" --shape "$(printf 'rank:\033[31m2')"
expect="cannot open hwloc XML file '/nonexistent/\\x07.xml'"
case_ 1 "$machine" --xml "$(printf '/nonexistent/\007.xml')"
case_ 1 "$machine" --shape "rank:18446744073709551617"
case_ 1 "$machine" --xml /
case_ 1 "$machine" --xml "$files/binary.sgl"
case_ 2 "$machine" --max-lines abc
case_ 2 "$machine" --max-lines 99999999999999999999
case_ 2 "$machine" --xml
case_ 1 env SGL_XML=/nonexistent.xml "$machine"
# The tools' own echoes of an argument are escaped too.
expect="--max-lines wants a number from 0 to 1000000, not '1\\x1b[2J'"
case_ 2 "$machine" --max-lines "$(printf '1\033[2J')"
expect="unexpected argument 'x\\x07'"
case_ 2 "$machine" "$(printf 'x\007')"
# sgl-probe: option errors come before any measurement.
case_ 2 "$probe" --bogus
expect='option -o needs a FILE argument'
case_ 2 "$probe" -o
expect='option -o needs a FILE argument'
case_ 2 "$probe" -o ""
# An unwritable machine file fails at once, not after the measurements
# (no level is measured: no progress line on stderr).
limit=15 reject='runtime supersteps'
expect='cannot write the machine file /nonexistent/dir/x.sgl: No such file'
case_ 1 "$probe" -o /nonexistent/dir/x.sgl
limit=15 reject='runtime supersteps'
expect='it is a directory, not a regular file (nothing measured)'
case_ 1 "$probe" -o "$tmp"
case_ 2 "$probe" extra-argument
expect="unknown option '--x?[2J'"
case_ 2 "$probe" "$(printf -- '--x\033[2J')"
limit=15 reject='runtime supersteps'
expect='cannot write the machine file /nonexistent/?]0;x?.sgl'
case_ 1 "$probe" -o "$(printf '/nonexistent/\033]0;x\007.sgl')"
if [ -n "$predict" ]; then
    good=$files/../../../machine/machines/paper-16x8.sgl
    case_ 2 "$predict"
    case_ 2 "$predict" --bogus
    case_ 2 "$predict" --algo reduce --n 100
    case_ 12 "$predict" --algo nosuch --n 100 --machine "$good"
    case_ 12 "$predict" --algo reduce --n -5 --machine "$good"
    case_ 12 "$predict" --algo reduce --n abc --machine "$good"
    case_ 12 "$predict" --algo reduce --n 1e400 --machine "$good"
    case_ 12 "$predict" --algo reduce --n nan --machine "$good"
    case_ 12 "$predict" --algo reduce --n 100 --elem-bytes 0 --machine "$good"
    case_ 12 "$predict" --algo reduce --n 100 --op nosuch --machine "$good"
    expect="--op: 'su\\x1bm' is neither sum nor product"
    case_ 12 "$predict" --algo reduce --n 100 --op "$(printf 'su\033m')" \
        --machine "$good"
    expect="--n: '1\\x07' is not a number"
    case_ 12 "$predict" --algo reduce --n "$(printf '1\007')" --machine "$good"
    case_ 1 "$predict" --algo reduce --n 100 --machine /nonexistent.sgl
    case_ 1 "$predict" --algo reduce --n 100 --machine /
    for f in bad-shape truncated binary nan; do
        case_ 1 "$predict" --algo psrs --n 100 --machine "$files/$f.sgl"
    done
    # Overflowing predictions are refused, never printed as inf or nan
    # (which would also be invalid JSON).
    expect='the prediction overflows'
    case_ 1 "$predict" --algo psrs --n 1.7e308 --json --machine "$good"
    expect='the prediction overflows'
    case_ 1 "$predict" --algo reduce --n 1e6 --machine "$files/huge-l.sgl"
    expect='the prediction overflows'
    case_ 1 "$predict" --algo scan --n 1e6 --json --machine "$files/huge-l.sgl"
    # Machine files that are not regular files are refused at once (a
    # FIFO with no writer would block, /dev/zero never ends); a regular
    # file is read with bounds on a line and on the whole.
    mkfifo "$tmp/fifo"
    for f in /dev/zero:'a character device' "$tmp/fifo":'a FIFO' "$tmp":'a directory'; do
        limit=10 expect="it is ${f#*:}, not a regular file"
        case_ 1 "$predict" --algo psrs --n 100 --machine "${f%%:*}"
    done
    { echo 'sgl-machine 1'; head -c 4194400 /dev/zero | tr '\0' 'x'; echo; } > "$tmp/long.sgl"
    limit=10 expect='long.sgl:2: line longer than 4194304 bytes'
    case_ 1 "$predict" --algo psrs --n 100 --machine "$tmp/long.sgl"
    { echo 'sgl-machine 1'; yes '# a comment line of a file that is far too long' | head -c 68000000; } > "$tmp/big.sgl"
    limit=10 expect='goes past 67108864 bytes'
    case_ 1 "$predict" --algo psrs --n 100 --machine "$tmp/big.sgl"
    rm -f "$tmp/big.sgl" "$tmp/long.sgl"
    # A NUL byte is binary data at its line and column, not truncation.
    expect='nul.sgl:2: binary data (byte 0x00 at column 13)'
    case_ 1 "$predict" --algo psrs --n 100 --machine "$files/nul.sgl"
    expect="cannot open machine file '/nonexistent/\\x1b]0;x\\x07.sgl'"
    case_ 1 "$predict" --algo psrs --n 100 --machine \
        "$(printf '/nonexistent/\033]0;x\007.sgl')"
fi
echo "1..$n"
echo "# $((n - failed)) passed, $failed failed"
[ $failed -eq 0 ]
