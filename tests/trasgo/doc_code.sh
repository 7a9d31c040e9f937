#!/bin/sh
# The code block that follows "<!-- file: PATH -->" in DOC must be the file
# PATH (relative to the source root) byte for byte, so that the guide shows
# the program the tests run and the two cannot drift apart.
# Usage: doc_code.sh SOURCE_ROOT DOC PATH
set -eu
root=$1 doc=$2 path=$3
out=$(mktemp)
trap 'rm -f "$out"' EXIT
awk -v mark="<!-- file: $path -->" '
    $0 == mark { found = 1; next }
    found == 1 && /^```/ { found = 2; next }
    found == 2 && /^```/ { exit }
    found == 2 { print }
' "$root/$doc" > "$out"
if [ ! -s "$out" ]; then
    echo "$doc: no code block after <!-- file: $path -->" >&2
    exit 1
fi
if ! diff -u "$root/$path" "$out"; then
    echo "$doc: its code block differs from $path (diff above)" >&2
    exit 1
fi
echo "$doc shows $path as it is"
