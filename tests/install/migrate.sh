#!/usr/bin/env bash
# A program written against 0.3 builds against these headers after the
# migration that NEWS.md gives (its first sh block under "Migrating"), so
# that NEWS and the API cannot drift apart.
#   migrate.sh SRCDIR          (MPICC from the environment, default mpicc)
set -euo pipefail
src=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$src"/tests/install/api-0.3/*.c "$tmp"/
awk '/^### Migrating/{m=1} m && /^```sh$/{b=1; next} b && /^```$/{exit} b' \
    "$src/NEWS.md" > "$tmp/migrate.sh"
[ -s "$tmp/migrate.sh" ] || { echo "FAIL: no migration block in NEWS.md" >&2; exit 1; }
# Before: at least one 0.3 program does not build against 0.4's headers.
before=0
for f in "$tmp"/*.c; do
    ${MPICC:-mpicc} -std=gnu17 -Werror -fopenmp -I"$src/include" -c "$f" -o /dev/null \
        2>/dev/null || before=$((before + 1))
done
[ "$before" -gt 0 ] || { echo "FAIL: every 0.3 program built unmigrated: the test shows nothing" >&2; exit 1; }
(cd "$tmp" && bash ./migrate.sh)
for f in "$tmp"/*.c; do
    ${MPICC:-mpicc} -std=gnu17 -Wall -Werror -fopenmp -I"$src/include" \
        -c "$f" -o /dev/null || { echo "FAIL: $(basename "$f") after the migration" >&2; exit 1; }
done
echo "ok: $(ls "$tmp"/*.c | wc -l) programs of 0.3 build after NEWS.md's migration ($before did not before it)"
