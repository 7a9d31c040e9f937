#!/bin/sh
# Inputs and outputs that are not regular files: each reader of machine
# files and hwloc XML (sgl-machine --xml, SGL_XML in discovery and in
# sgl_init, sgl-predict --machine) and sgl-probe's -o must refuse a FIFO,
# a directory and a device at once, naming the kind, with status 1. A FIFO
# without a writer used to block open() until killed: every case runs
# under timeout, so that a regression fails (124) instead of hanging.
#   special_files.sh SGL_MACHINE SGL_PREDICT SGL_PROBE SGL_PROGRAM
set -u
machine=$1 predict=$2 probe=$3 program=$4
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
mkfifo "$tmp/fifo" || { echo "1..0 # SKIP mkfifo failed"; exit 0; }
n=0 failed=0
# check WANT_TEXT CMD...: status 1 within 20 s, WANT_TEXT on stderr.
check() {
    want=$1; shift
    n=$((n + 1))
    timeout -k 5 20 "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    st=$?
    msg=$(tr '\n' ' ' <"$tmp/err" | cut -c1-300)
    if [ $st -eq 1 ] && grep -qF -- "$want" "$tmp/err"; then
        echo "ok $n - $*: $msg"
    else
        failed=$((failed + 1))
        echo "not ok $n - $*: exit $st (want 1, '$want'): $msg"
    fi
}
for f in "$tmp/fifo":'a FIFO' "$tmp":'a directory' /dev/zero:'a character device'; do
    path=${f%%:*} kind="it is ${f#*:}, not a regular file"
    check "hwloc XML file '$path': $kind" "$machine" --xml "$path"
    check "hwloc XML file '$path': $kind" env SGL_XML="$path" "$machine"
    check "machine file '$path': $kind" \
        "$predict" --algo psrs --n 100 --machine "$path"
    check "hwloc XML file '$path': $kind" \
        env SGL_SHAPE= SGL_XML="$path" "$program"
    [ "$path" = /dev/zero ] && path=/dev/null kind="it is a character device"
    check "cannot write the machine file $path: $kind" \
        env SGL_SHAPE=core:1 "$probe" --quick -o "$path"
done
# A file past the XML cap is refused by size, the cap in the message.
head -c 67108865 /dev/zero | tr '\0' ' ' > "$tmp/big.xml"
check "longer than 67108864 bytes" "$machine" --xml "$tmp/big.xml"
echo "1..$n"
[ $failed -eq 0 ]
