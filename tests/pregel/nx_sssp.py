"""SSSP against NetworkX, the NetworkX side: reads the weighted edge list
the SGL program read (of duplicate edges the lightest, as SGL keeps it)
and the distances it wrote (the source first), runs Dijkstra and fails
unless every distance is bitwise equal (inf where NetworkX reaches no
path).
    nx_sssp.py EDGES DISTANCES"""
import math
import sys

import networkx as nx


def main(edges_path, dist_path):
    g = nx.DiGraph()
    with open(edges_path) as f:
        for line in f:
            s = line.strip()
            if s and s[0] not in "#%":
                u, v, w = s.split()
                u, v, w = int(u), int(v), float(w)
                if not g.has_edge(u, v) or w < g[u][v]["weight"]:
                    g.add_edge(u, v, weight=w)
    with open(dist_path) as f:
        source = int(f.readline())
        dist = [float(x) for x in f]
    g.add_nodes_from(range(len(dist)))
    want = nx.single_source_dijkstra_path_length(g, source)
    bad = [v for v in range(len(dist))
           if dist[v] != want.get(v, math.inf)]
    print(f"{len(dist)} vertices, {g.number_of_edges()} edges, source "
          f"{source}, {len(want)} reached: {len(bad)} distances differ from "
          f"networkx {nx.__version__}'s Dijkstra")
    for v in bad[:5]:
        print(f"  vertex {v}: {dist[v]!r}, networkx {want.get(v, math.inf)!r}")
    return 1 if bad or len(want) < 2 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
