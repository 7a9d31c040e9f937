#!/usr/bin/env bash
# Every example in examples/ is a whole program an installed user copies
# as it is: each is copied alone into an empty folder (no header of the
# source tree beside it) and built against a staged install with only
# `pkg-config --cflags --libs sgl` and the rpath, as the README builds a
# program; then it runs once, briefly, on a small tree and must succeed
# (each example checks its own result against a sequential loop).
# Usage: examples.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1 src=$2
. "$(dirname "$0")/stage.sh"
stage_install "$build"
export PKG_CONFIG_PATH=$dest/pc PKG_CONFIG_LIBDIR=$dest/pc
flags=$(pkg-config --cflags --libs sgl)
libdir=$(pkg-config --variable=libdir sgl)
# Small arguments: the run shows the program works, not how fast.
args_of() {
    case $1 in
        rotate) echo 25 11 ;; heat) echo 2 16 3 ;; cannon) echo 12 3 ;;
        reduction | scan | psrs) echo 1000 ;; *) ;;
    esac
}
n=0
for f in "$src"/examples/*.c; do
    grep -q '^int main(' "$f" || continue
    name=$(basename "$f" .c)
    dir=$dest/ex-$name
    mkdir "$dir"
    cp "$f" "$dir/"
    n=$((n + 1))
    if ! out=$(cd "$dir" && mpicc -std=gnu17 -Wall -Wextra -Werror "$name.c" \
                   $flags -Wl,-rpath,"$libdir" -o "$name" 2>&1); then
        echo "not ok $n - $name.c alone with pkg-config: $out"
        continue
    fi
    # shellcheck disable=SC2046 # the arguments are words
    if out=$(cd "$dir" && SGL_SHAPE=core:3 OMPI_MCA_ess_singleton_isolated=1 \
                 timeout 60 "./$name" $(args_of "$name") 2>&1); then
        echo "ok $n - $name.c builds alone against the install and runs: $(echo "$out" | tail -n 1)"
    else
        echo "not ok $n - $name.c built alone but its run failed: $out"
    fi
done
[ "$n" -gt 0 ] || { echo "not ok 1 - no example with a main in $src/examples"; n=1; }
echo "1..$n"
