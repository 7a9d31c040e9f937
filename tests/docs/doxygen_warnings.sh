#!/usr/bin/env bash
# The API reference builds with no Doxygen warning: every public
# declaration documented, every parameter of a documented function named,
# no broken command. Runs the project's Doxyfile into a scratch folder.
#   doxygen_warnings.sh DOXYGEN DOXYFILE
set -euo pipefail
doxygen=$1 doxyfile=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Later assignments win in a Doxyfile: send the output and the log here.
{ cat "$doxyfile"; echo "OUTPUT_DIRECTORY = $tmp"; echo "WARN_LOGFILE = $tmp/warnings.log"; } > "$tmp/Doxyfile"
"$doxygen" "$tmp/Doxyfile" > "$tmp/out.log" 2>&1 || { cat "$tmp/out.log" >&2; echo "FAIL: doxygen exited $?" >&2; exit 1; }
[ -f "$tmp/html/index.html" ] || { echo "FAIL: no html/index.html written" >&2; exit 1; }
n=$(grep -c 'warning:' "$tmp/warnings.log" || true)
if [ "$n" -ne 0 ]; then
    sed "s|$(dirname "$(dirname "$doxyfile")")/||" "$tmp/warnings.log" >&2
    echo "FAIL: $n Doxygen warnings in the public headers" >&2
    exit 1
fi
echo "ok: the API reference has no warning ($(ls "$tmp/html" | wc -l) files)"
