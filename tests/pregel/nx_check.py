"""PageRank against NetworkX, the NetworkX side: reads the edge list the
SGL program read and the ranks it wrote, computes nx.pagerank on the same
simple directed graph (vertices 0..n-1, duplicate edges once) and fails
if a rank differs by more than 1e-10.
    nx_check.py EDGES RANKS"""
import sys

import networkx as nx


def main(edges_path, ranks_path):
    edges = []
    with open(edges_path) as f:
        for line in f:
            s = line.strip()
            if s and s[0] not in "#%":
                u, v = s.split()
                edges.append((int(u), int(v)))
    with open(ranks_path) as f:
        ranks = [float(x) for x in f]
    g = nx.DiGraph()
    g.add_nodes_from(range(len(ranks)))
    g.add_edges_from(edges)
    want = nx.pagerank(g, alpha=0.85, tol=1e-13, max_iter=1000)
    worst = max(abs(ranks[v] - want[v]) for v in range(len(ranks)))
    print(f"{len(ranks)} vertices, {g.number_of_edges()} edges: largest "
          f"difference from networkx {nx.__version__} is {worst:.3g}")
    return 0 if worst <= 1e-10 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
