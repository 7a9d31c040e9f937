#!/usr/bin/env bash
# The tools' man pages render without troff warnings and keep up with
# the tools: every long option a tool's --help lists is in its page.
#   man.sh MAN_DIR TOOL...      (MAN_DIR: the built pages, TOOL.1)
set -euo pipefail
mandir=$1
shift
n=0 failed=0
result() { # result OK TEXT
    n=$((n + 1))
    if [ "$1" = 1 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed + 1)); fi
}
for tool in "$@"; do
    name=$(basename "$tool")
    page=$mandir/$name.1
    if [ ! -s "$page" ]; then
        result 0 "$name: no man page $page"
        continue
    fi
    if command -v groff > /dev/null; then
        warnings=$(groff -man -ww -z -Tutf8 "$page" 2>&1)
        result "$([ -z "$warnings" ] && echo 1 || echo 0)" \
            "$name.1 renders without warnings${warnings:+: $warnings}"
    else
        n=$((n + 1))
        echo "ok $n - $name.1 renders # SKIP groff is not installed (.ci/setup installs groff-base)"
    fi
    missing=
    for opt in $("$tool" --help | grep -o -- '--[a-z][a-z-]*' | sort -u); do
        grep -qF -- "$(echo "$opt" | sed 's/-/\\-/g')" "$page" || missing="$missing $opt"
    done
    result "$([ -z "$missing" ] && echo 1 || echo 0)" \
        "$name.1 documents every option of $name --help${missing:+; missing:$missing}"
done
echo "1..$n"
[ $failed -eq 0 ]
