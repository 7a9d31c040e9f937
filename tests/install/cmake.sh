#!/usr/bin/env bash
# A CMake project takes an installed SGL the way the README says:
# find_package(sgl) finds the package config and its version file, the
# imported target sgl::sgl builds a program with the public headers, MPI
# and OpenMP, and the program runs against the installed libsgl. Version
# requests SGL does not meet are refused.
#   cmake.sh BUILD_DIR VERSION
set -euo pipefail
build=$1 version=$2
if ! command -v cmake > /dev/null; then
    echo "1..0 # SKIP cmake is not installed (.ci/setup installs it)"
    exit 77
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
meson install -C "$build" --no-rebuild --quiet --destdir "$dir/stage" > /dev/null
config=$(find "$dir/stage" -name sglConfig.cmake | head -n 1)
[ -n "$config" ] || { echo "not ok - no sglConfig.cmake installed"; exit 1; }
[ -f "$(dirname "$config")/sglConfigVersion.cmake" ] ||
    { echo "not ok - no sglConfigVersion.cmake beside $config"; exit 1; }
echo "ok - sglConfig.cmake and its version file installed in ${config#"$dir/stage"}"
# The staged prefix, as a user passes theirs: the package finds its
# files relative to itself. (meson runs on python3, so python3 is here.)
prefix=$dir/stage$(meson introspect "$build" --buildoptions | python3 -c '
import json, sys
print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "prefix"))')

mkdir "$dir/src"
cat > "$dir/src/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.19)
project(consumer C)
# Versions this SGL must refuse: a later major, a later minor, a range
# above it.
foreach(v 1.0 9.9.9 "$version.1...<100")
  find_package(sgl \${v} QUIET)
  if(sgl_FOUND)
    message(FATAL_ERROR "find_package(sgl \${v}) accepted SGL \${sgl_VERSION}")
  endif()
endforeach()
find_package(sgl $version EXACT REQUIRED)
find_package(sgl 0...<100 REQUIRED)
find_package(sgl REQUIRED)
message(STATUS "found sgl \${sgl_VERSION}")
add_executable(hello hello.c)
target_link_libraries(hello PRIVATE sgl::sgl)
CMAKE
cat > "$dir/src/hello.c" <<'C'
#include <stdio.h>
#include <sgl/sgl.h>
int main(void) { printf("sgl %s\n", sgl_version()); return 0; }
C
cmake -S "$dir/src" -B "$dir/b" -DCMAKE_PREFIX_PATH="$prefix" > "$dir/configure.log" 2>&1 ||
    { echo "not ok - cmake cannot configure a find_package(sgl) consumer:"; cat "$dir/configure.log"; exit 1; }
grep -q "found sgl $version" "$dir/configure.log" ||
    { echo "not ok - find_package(sgl) did not say version $version:"; cat "$dir/configure.log"; exit 1; }
echo "ok - find_package(sgl) finds SGL $version, refuses 1.0, 9.9.9 and $version.1...<100"
cmake --build "$dir/b" > "$dir/build.log" 2>&1 ||
    { echo "not ok - the consumer does not build against sgl::sgl:"; cat "$dir/build.log"; exit 1; }
echo "ok - a program links sgl::sgl"
# CMake gives the program the staged library's folder as its run path.
out=$(OMPI_MCA_ess_singleton_isolated=1 "$dir/b/hello")
[ "$out" = "sgl $version" ] || { echo "not ok - the consumer printed '$out', not 'sgl $version'"; exit 1; }
lib=$(ldd "$dir/b/hello" | awk '/libsgl/ {print $3}')
case $lib in
"$dir/stage"/*) ;;
*) echo "not ok - the consumer runs with libsgl from '$lib', not the staged one"; exit 1 ;;
esac
echo "ok - it runs with the installed libsgl ($out)"
echo "1..4"
