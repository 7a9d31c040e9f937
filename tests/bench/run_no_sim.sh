#!/usr/bin/env bash
# bench/run builds only what it runs: with an up-to-date build-bench its
# set-up compiles that build and nothing else (.ci/setup once also built
# the SimGrid tree, 99 targets, in every bench/run). meson, dpkg-query,
# smpirun and bench_main are stubs here; meson's calls are logged.
#   run_no_sim.sh SRCDIR
set -euo pipefail
src=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin" "$tmp/build/bench"
cat > "$tmp/bin/meson" <<STUB
#!/bin/sh
echo "meson \$*" >> "$tmp/meson.log"
[ "\$1" = configure ] && echo "  buildtype   release   [plain]"
exit 0
STUB
printf '#!/bin/sh\necho "install ok installed"\n' > "$tmp/bin/dpkg-query"
printf '#!/bin/sh\nexit 0\n' > "$tmp/bin/smpirun"
printf '#!/bin/sh\nexit 0\n' > "$tmp/build/bench/bench_main"
chmod +x "$tmp/bin/"* "$tmp/build/bench/bench_main"
touch "$tmp/build/build.ninja"
PATH=$tmp/bin:$PATH SGL_BENCH_BUILD=$tmp/build \
    "$src/bench/run" --predict "$src/machine/machines/paper-16x8.sgl" \
    > /dev/null 2> "$tmp/err" || { cat "$tmp/err" >&2; echo "not ok: bench/run --predict"; exit 1; }
grep -q "^meson compile -C $tmp/build\$" "$tmp/meson.log" ||
    { cat "$tmp/meson.log" >&2; echo "not ok: build-bench not brought up to date"; exit 1; }
if grep -v -e "^meson compile -C $tmp/build\$" -e "^meson configure $tmp/build\$" \
        "$tmp/meson.log"; then
    echo "not ok: bench/run's set-up ran more meson than the one compile (above)"
    exit 1
fi
echo "ok: an up-to-date build-bench is one no-op compile, no simulation build"
