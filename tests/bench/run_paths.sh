#!/usr/bin/env bash
# Every file of the repository that the main job and the CI scripts name
# (bench/run, tests/run, .ci/run, .ci/setup, sim/sweep, sim/probe) exists:
# a file removed or renamed elsewhere otherwise fails only at the end of a
# long bench/run (bench/loc once read a deleted examples file).
#   run_paths.sh SRCDIR
set -euo pipefail
cd "$1"
missing=0 n=0
for script in bench/run tests/run .ci/run .ci/setup sim/sweep sim/probe; do
    [ -f "$script" ] || continue
    for p in $(grep -o -E '(examples|bench|tools|sim|tests|docs|machine|algorithms|sgl|man)/[A-Za-z0-9_./-]+\.(c|h|cc|sh|awk|gp|py|md|xml|sgl|supp)\b' "$script" | sort -u); do
        n=$((n + 1))
        if [ ! -e "$p" ]; then
            echo "not ok: $script names $p, which does not exist"
            missing=1
        fi
    done
done
[ "$n" -gt 0 ] || { echo "not ok: no path found in the scripts"; exit 1; }
[ $missing = 0 ] && echo "ok: $n paths named by the scripts exist"
exit $missing
