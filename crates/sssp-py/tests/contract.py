"""The Python contract: scipy's csgraph calls and NetworkX's backend API."""
import sys
import numpy as np, scipy.sparse as sp, networkx as nx
from scipy.sparse.csgraph import dijkstra as sp_dijkstra
import sssp

def read_gr(path):
    import gzip
    rows, cols, w = [], [], []
    n = 0
    for l in gzip.open(path, "rt"):
        if l[0] == "p": n = int(l.split()[2])
        elif l[0] == "a":
            _, u, v, x = l.split(); rows.append(int(u) - 1); cols.append(int(v) - 1); w.append(int(x))
    A = sp.coo_matrix((np.array(w, dtype=np.float64), (rows, cols)), shape=(n, n)).tocsr()
    A.sum_duplicates()
    return A

A = read_gr(sys.argv[1])
want = sp_dijkstra(A, indices=0)
got = sssp.dijkstra(A, indices=0)
assert got.shape == want.shape and np.array_equal(got, want), "dijkstra(indices=0) differs from scipy"
d, pred = sssp.dijkstra(A, indices=[0, 5], return_predecessors=True, limit=200000)
wl = sp_dijkstra(A, indices=[0, 5], limit=200000)
assert d.shape == (2, A.shape[0]) and np.array_equal(d, wl), "limit/indices differ from scipy"
for r, s in enumerate([0, 5]):
    for v in np.flatnonzero(np.isfinite(d[r]))[:5000]:
        p = pred[r, v]
        if v == s: assert p == -9999
        else: assert d[r, p] + A[p, v] == d[r, v], f"predecessor of {v} is not tight"
G = nx.DiGraph()
G.add_weighted_edges_from([(0, 1, 2.5), (1, 2, 1.0), (0, 2, 4.0), (2, 3, 0.5), (5, 0, 1.0)])
assert nx.single_source_dijkstra_path_length(G, 0, backend="sssp") == nx.single_source_dijkstra_path_length(G, 0)
assert nx.shortest_path(G, 0, 3, weight="weight", backend="sssp") == [0, 1, 2, 3]
print("python contract: ok")
