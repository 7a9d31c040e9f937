#!/usr/bin/env bash
# What `lstopo --of synthetic` prints must mean to SGL what it means to
# hwloc: for this machine and for synthetic machines hwloc builds, the
# shape's worker count is hwloc's PU count.
#   lstopo_synthetic.sh SGL_MACHINE
set -euo pipefail
sgl_machine=$1
command -v lstopo-no-graphics >/dev/null || { echo "lstopo-no-graphics not found (Debian package hwloc)" >&2; exit 1; }
fail=0
check() { # $1: lstopo's input (empty: this machine)
    local synth pus got
    if [ -n "$1" ]; then
        synth=$(lstopo-no-graphics --input "$1" --of synthetic 2>/dev/null)
        pus=$(hwloc-calc --input "$1" --number-of pu all 2>/dev/null)
    else
        synth=$(lstopo-no-graphics --no-io --of synthetic)
        pus=$(hwloc-calc --number-of pu all)
    fi
    got=$("$sgl_machine" --shape "$synth" | sed -n 's/.*; \([0-9]*\) workers\{0,1\}, .*/\1/p')
    if [ "$got" = "$pus" ]; then
        echo "ok: '$synth': $got workers"
    else
        echo "FAIL: '$synth': sgl-machine gives '${got}' workers, hwloc $pus PUs" >&2
        fail=1
    fi
}
check ""
check "Package:2 Core:4 PU:2"
check "Package:2 Group:2 [NUMANode] L3Cache:1 L2Cache:3 L1dCache:1 L1iCache:1 Core:1 PU:2"
check "Package:2 Die:2 [NUMANode] Core:3 PU:1"
exit $fail
