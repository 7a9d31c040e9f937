#!/usr/bin/env bash
# PageRank against NetworkX: the SGL driver writes a graph and its ranks,
# nx_check.py compares them with nx.pagerank. Without NetworkX (and the
# SciPy its pagerank needs) the test is skipped (77), saying why.
#   nx_check.sh PREGEL_NX SRCDIR GRAPH [MPIEXEC ARGS... --]
set -euo pipefail
driver=$1 src=$2 graph=$3
shift 3
py=""
for p in /usr/bin/python3 python3; do
    if command -v "$p" > /dev/null && "$p" -c 'import networkx, scipy' 2> /dev/null; then
        py=$p
        break
    fi
done
[ -n "$py" ] || { echo "SKIP: python3 with networkx and scipy not found (apt-get install python3-networkx python3-scipy)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$@" "$driver" "$graph" "$tmp/edges.txt" "$tmp/ranks.txt"
case $graph in
sssp:*) "$py" "$src/tests/pregel/nx_sssp.py" "$tmp/edges.txt" "$tmp/ranks.txt" ;;
*) "$py" "$src/tests/pregel/nx_check.py" "$tmp/edges.txt" "$tmp/ranks.txt" ;;
esac
