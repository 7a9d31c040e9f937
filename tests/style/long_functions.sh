#!/bin/sh
# Lists every function longer than a limit (80 lines, from the line of its
# signature to its closing brace) in the C files under the given folders.
# A function is a top-level body: a '{' at column 0 opens it, a '}' at
# column 0 closes it, and its signature starts at the first line after the
# previous top-level item (a blank line, a comment or a ';' ends one).
#
#   long_functions.sh [--max N] [--allow FILE:FUNC]... SRCDIR FOLDER...
#
# Exits 1, naming them, when any function is over the limit and is not
# allowed; prints nothing and exits 0 otherwise. --list prints every
# function's length (longest first) and never fails.
max=80
allow=
list=0
while [ $# -gt 0 ]; do
  case $1 in
    --max) max=$2; shift 2 ;;
    --allow) allow="$allow $2"; shift 2 ;;
    --list) list=1; shift ;;
    *) break ;;
  esac
done
if [ $# -lt 2 ]; then
  echo "usage: $0 [--max N] [--allow FILE:FUNC]... [--list] SRCDIR FOLDER..." >&2
  exit 2
fi
src=$1; shift
cd "$src" || exit 2
files=$(for d in "$@"; do find "$d" -name '*.c'; done | sort)
[ -n "$files" ] || { echo "$0: no C files under $*" >&2; exit 2; }
# shellcheck disable=SC2086
awk -v max="$max" -v allow="$allow" -v list="$list" '
  FNR == 1 { start = 0; depth = 0 }
  # A new top-level item starts on the first line that is not blank, not a
  # comment line and not a preprocessor line after a previous item ended.
  depth == 0 && start == 0 && $0 !~ /^[ \t]*$/ && $0 !~ /^[ \t]*(\/\*|\*|\/\/|#)/ &&
    $0 !~ /^}/ { start = FNR; sig = $0 }
  depth == 0 && /^\{/ { depth = 1; next }
  depth == 0 && start && /^[^ \t].*\)[ \t]*\{[ \t]*$/ && $0 !~ /=/ { depth = 1; next }
  depth == 1 && /^\}/ {
    name = sig; sub(/\(.*/, "", name); sub(/.*[ *]/, "", name)
    n = FNR - start + 1
    printf "%d %s:%s\n", n, FILENAME, name >> "/dev/stderr"
    depth = 0; start = 0; next
  }
  depth == 0 && /;[ \t]*$/ { start = 0 }
  depth == 0 && /^[ \t]*$/ { start = 0 }
' $files 2>&1 >/dev/null | sort -rn > "${TMPDIR:-/tmp}/long_functions.$$"
status=0
if [ "$list" = 1 ]; then
  cat "${TMPDIR:-/tmp}/long_functions.$$"
else
  while read -r n where; do
    case " $allow " in
      *" $where "*)
        if [ "$n" -gt "$max" ]; then
          echo "known exception: $where: $n lines (over $max)"
        else
          echo "note: $where is $n lines now: drop its --allow"
        fi ;;
      *) if [ "$n" -gt "$max" ]; then
           echo "$where: $n lines (over $max)"; status=1
         fi ;;
    esac
  done < "${TMPDIR:-/tmp}/long_functions.$$"
fi
rm -f "${TMPDIR:-/tmp}/long_functions.$$"
exit $status
