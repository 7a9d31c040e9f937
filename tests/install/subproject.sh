#!/usr/bin/env bash
# SGL as a meson subproject, as a user's project takes it: dependency('sgl')
# must give the public headers and libsgl, and none of SGL's examples,
# benchmarks or tests may join the user's build.
#   subproject.sh SOURCE_ROOT VERSION
set -euo pipefail
src=$1 version=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir "$dir/subprojects"
ln -s "$src" "$dir/subprojects/sgl"
cat > "$dir/meson.build" <<'MESON'
project('consumer', 'c')
executable('hello', 'hello.c', dependencies: dependency('sgl'))
MESON
cat > "$dir/hello.c" <<'C'
#include <stdio.h>
#include <sgl/sgl.h>
int main(void) { printf("sgl %s\n", sgl_version()); return 0; }
C
cd "$dir"
meson setup b > setup.log 2>&1 || { echo "not ok - meson setup of a consumer failed:"; cat setup.log; exit 1; }
meson compile -C b > compile.log 2>&1 || { echo "not ok - the consumer does not build:"; cat compile.log; exit 1; }
echo "ok - dependency('sgl') builds a consumer"
out=$(./b/hello)
[ "$out" = "sgl $version" ] || { echo "not ok - the consumer printed '$out', not 'sgl $version'"; exit 1; }
echo "ok - it runs and links this SGL ($out)"
if grep -Eq 'bench_main|test_runtime|sgl-example' b/build.ninja; then
    echo "not ok - SGL's benchmarks, tests or examples joined the consumer's build"
    exit 1
fi
echo "ok - no benchmark, test or example of SGL in the consumer's build"
echo "1..3"
