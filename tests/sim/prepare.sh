# Sourced by the sim tests with the build folder as its one argument:
# without smpirun a SKIP (exit 77); otherwise the simulation build
# (SGL_SIM_BUILD, default BUILD/smpi-build) made or brought up to date,
# a TAP failure if it does not build; then $root (the source tree) and
# $tmp (a folder removed on exit) for the test.
if ! command -v smpirun > /dev/null; then
    echo "1..0 # SKIP smpirun not found: install libsimgrid-dev (SimGrid SMPI)"
    exit 77
fi
export SGL_SIM_BUILD=${SGL_SIM_BUILD:-$1/smpi-build}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
. "$root/sim/env.sh"
if ! out=$(sgl_sim_build 2>&1); then
    echo "1..1"
    echo "not ok 1 - the simulation build (-Dmpi=smpi) builds"
    echo "$out" | tail -20 | sed 's/^/# /'
    exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
