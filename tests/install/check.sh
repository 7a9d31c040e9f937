#!/usr/bin/env bash
# An installed SGL is usable the way the README says: its programs start
# with no environment, pkg-config finds it without any other .pc file,
# every public header compiles alone (as C and as C++), the documentation
# is there, and an example builds with mpicc against it, shared and
# static, and runs.
# Usage: check.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1 src=$2
. "$(dirname "$0")/stage.sh"
stage_install "$build"
# Every installed program starts from the staged prefix with no
# environment at all: those linked to libsgl.so find it through their
# $ORIGIN-relative RUNPATH, and find this copy (not one installed in the
# real prefix).
for exe in "$dest"/*/bin/sgl-* "$dest"/*/*/bin/sgl-*; do
    [ -f "$exe" ] || continue
    name=$(basename "$exe")
    out=$(cd / && env -i PATH=/usr/bin:/bin "$exe" --version 2>&1) ||
        { echo "not ok - installed $name --version in a clean environment: $out"; exit 1; }
    [ "$out" = "$name $(sed -n 's/^Version: //p' "$pc")" ] ||
        { echo "not ok - installed $name --version printed '$out'"; exit 1; }
    lib=$(env -i PATH=/usr/bin:/bin ldd "$exe" | awk '$1 ~ /^libsgl/ {print $3}')
    case $lib in "" | "$dest"/*) ;;
        *) echo "not ok - installed $name loads $lib, not the staged libsgl"; exit 1 ;; esac
    echo "ok - installed $name starts with no environment: $out${lib:+ (libsgl from the prefix)}"
done
# sgl.pc needs no other .pc file: no MPI's (their names differ: ompi-c,
# mpich), and not hwloc's, whose static chain names -ludev.
PKG_CONFIG_LIBDIR=$dest/pc PKG_CONFIG_PATH= pkg-config --cflags --libs --static sgl > /dev/null ||
    { echo "not ok - sgl.pc needs another .pc file:"; grep '^Requires' "$dest/pc/sgl.pc"; exit 1; }
echo "ok - sgl.pc requires no other package's .pc file"
export PKG_CONFIG_PATH=$dest/pc
cflags=$(pkg-config --cflags sgl) libs=$(pkg-config --libs sgl)
libdir=$(pkg-config --variable=libdir sgl)
# The public headers are installed as they are, and only they.
incdir=$(pkg-config --variable=includedir sgl)/sgl
diff -r "$src/include/sgl" "$incdir" >/dev/null ||
    { echo "not ok - installed headers differ from include/sgl:"; diff -r "$src/include/sgl" "$incdir"; exit 1; }
echo "ok - installed headers are include/sgl/ as it is"
for h in "$incdir"/*.h; do
    name=sgl/$(basename "$h")
    printf '#include <%s>\nint main(void) { return 0; }\n' "$name" > "$dest/h.c"
    mpicc -std=c17 -Wall -Wextra -Werror $cflags -c "$dest/h.c" -o "$dest/h.o"
    # Open MPI's deprecated C++ bindings warn on their own; users skip them.
    mpicxx -x c++ -Wall -Wextra -Werror -DOMPI_SKIP_MPICXX $cflags -c "$dest/h.c" -o "$dest/h.o"
    echo "ok - $name compiles alone as C and C++"
done
# The shared library exports the public API only: every exported symbol
# is declared in an installed header (internals would collide with a
# program's own names).
so=$(ls "$libdir"/libsgl.so.* | head -n 1)
syms=$(nm -D --defined-only "$so" | awk '{print $3}')
bad=$(for s in $syms; do grep -qw "$s" "$incdir"/*.h || echo "$s"; done)
[ -z "$bad" ] || { echo "not ok - libsgl exports symbols no public header declares:" $bad; exit 1; }
echo "ok - libsgl exports $(echo "$syms" | wc -l) symbols, all declared in include/sgl/"
# And the reverse: every function a header marks SGL_API is exported (the
# library is compiled with hidden visibility, so an unmarked declaration
# would be missing at link time).
decl=$(awk '/^SGL_API / { d = $0; while (d !~ /\(/ && (getline l) > 0) d = d " " l
                           sub(/\(.*/, "", d); n = split(d, w, /[ *]+/); print w[n] }' \
       "$incdir"/*.h | sort -u)
missing=$(comm -23 <(echo "$decl") <(echo "$syms" | sort -u))
[ -z "$missing" ] || { echo "not ok - declared SGL_API but not exported:" "$missing"; exit 1; }
unmarked=$(grep -hE '^[a-z][a-z_0-9 *]*\bsgl_[a-z0-9_]+\(' "$incdir"/*.h | grep -v '^static' || true)
[ -z "$unmarked" ] || { echo "not ok - public declarations without SGL_API:"; echo "$unmarked"; exit 1; }
echo "ok - the $(echo "$decl" | wc -l) functions the headers mark SGL_API are all exported"
# The static library cannot hide its internals, so they carry the sgl__
# prefix: a program's own algo_fill or wire_plan must link beside it.
a=$libdir/libsgl.a
[ -f "$a" ] || { echo "not ok - no libsgl.a installed in $libdir"; exit 1; }
sbad=$(nm --defined-only "$a" | awk 'NF == 3 && $2 ~ /^[TDBRCGS]$/ && $3 !~ /^sgl_/ {print $3}' | sort -u)
[ -z "$sbad" ] || { echo "not ok - libsgl.a defines global symbols without the sgl_ prefix:" $sbad; exit 1; }
sint=$(nm --defined-only "$a" | awk 'NF == 3 && $2 ~ /^[TDBRCGS]$/ && $3 ~ /^sgl_/ {print $3}' | sort -u)
sbad=$(for s in $sint; do case $s in sgl__*) ;; *) grep -qw "$s" "$incdir"/*.h || echo "$s" ;; esac; done)
[ -z "$sbad" ] || { echo "not ok - libsgl.a has sgl_ symbols no public header declares (internals are sgl__):" $sbad; exit 1; }
echo "ok - libsgl.a: $(echo "$sint" | grep -c '^sgl__') internal symbols, all sgl__; the rest declared in include/sgl/"
# The documentation the tools point to: the machine file format and a
# man page per tool.
datadir=$(pkg-config --variable=prefix sgl)/share
for f in doc/sgl/MACHINE_FILE.md man/man1/sgl-machine.1 man/man1/sgl-predict.1 man/man1/sgl-probe.1; do
    [ -s "$datadir/$f" ] || { echo "not ok - $f is not installed in $datadir"; exit 1; }
done
echo "ok - MACHINE_FILE.md and the tools' man pages are installed"
# As the README builds it: the rpath finds the library, no LD_LIBRARY_PATH.
mpicc "$src/examples/reduction.c" $cflags $libs -fopenmp -Wl,-rpath,"$libdir" -o "$dest/reduction"
out=$(OMPI_MCA_ess_singleton_isolated=1 "$dest/reduction" 1000)
[ "$out" = "product of 1000 factors = 2 on $(echo "$out" | sed 's/.* on \([0-9]*\) workers/\1/') workers" ] ||
    { echo "not ok - installed example printed '$out'"; exit 1; }
echo "ok - example built with pkg-config against the installed library: $out"
# Linked against libsgl.a with what `pkg-config --static` gives: a libdir
# that holds only the static library, as a static-only install has it.
mkdir "$dest/static"
cp "$libdir/libsgl.a" "$dest/static/"
sed "s|^libdir=.*|libdir=$dest/static|" "$dest/pc/sgl.pc" > "$dest/static/sgl.pc"
slibs=$(PKG_CONFIG_LIBDIR=$dest/static PKG_CONFIG_PATH= pkg-config --static --cflags --libs sgl)
mpicc "$src/examples/reduction.c" $slibs -o "$dest/reduction-static" ||
    { echo "not ok - static link with: $slibs"; exit 1; }
! ldd "$dest/reduction-static" | grep -q libsgl ||
    { echo "not ok - the static link loads libsgl.so"; exit 1; }
out=$(OMPI_MCA_ess_singleton_isolated=1 "$dest/reduction-static" 1000)
case $out in "product of 1000 factors = 2 on "*) ;;
    *) echo "not ok - statically linked example printed '$out'"; exit 1 ;; esac
echo "ok - example linked against libsgl.a with pkg-config --static ($slibs): $out"
