# Sourced by the install tests: stage_install BUILD_DIR installs the build
# into a fresh staging directory $dest (removed at exit) and points an
# sgl.pc at it in $dest/pc, so pkg-config gives the staged prefix's flags
# as it would an installed one's (a sysroot would also move the system
# MPI paths sgl.pc names). Sets dest and pc (the installed sgl.pc).
stage_install() {
    dest=$(mktemp -d)
    trap 'rm -rf "$dest"' EXIT
    meson install -C "$1" --no-rebuild --quiet --destdir "$dest" >/dev/null
    pc=$(find "$dest" -name sgl.pc | head -n 1)
    [ -n "$pc" ] || { echo "not ok - no sgl.pc installed"; exit 1; }
    mkdir "$dest/pc"
    sed "s|^prefix=|prefix=$dest|" "$pc" > "$dest/pc/sgl.pc"
}
