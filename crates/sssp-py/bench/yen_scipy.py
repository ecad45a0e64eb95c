#!/usr/bin/env python3
# scipy.sparse.csgraph.yen against `sssp paths` on the same graph (parallel arcs reduced to the
# lightest, as sssp reads them), with a time limit per case; needs only numpy and scipy, so it
# runs where the sssp package is not installed.
#
#   yen_scipy.py LIMIT_S GRAPH.gr SOURCE TARGET K SSSP_PATHS_OUTPUT [GRAPH.gr ...]
import gzip, sys, time, multiprocessing as mp
import numpy as np, scipy, scipy.sparse as sp
from scipy.sparse.csgraph import yen

def read_gr(path):
    op = gzip.open if path.endswith(".gz") else open
    with op(path, "rt") as f:
        rows = [l.split()[1:4] for l in f if l.startswith("a ")]
    a = np.array(rows, dtype=np.int64)
    u, v, w = a[:, 0] - 1, a[:, 1] - 1, a[:, 2]
    n = int(max(u.max(), v.max()) + 1)
    order = np.lexsort((w, v, u))
    u, v, w = u[order], v[order], w[order]
    keep = np.ones(len(u), bool)
    keep[1:] = (u[1:] != u[:-1]) | (v[1:] != v[:-1])
    return sp.csr_matrix((w[keep].astype(np.float64), (u[keep], v[keep])), shape=(n, n))

def run(q, g, s, t, k):
    t0 = time.perf_counter()
    d = yen(g, s, t, k)
    q.put((time.perf_counter() - t0, [float(x) for x in d]))

def main():
    limit = float(sys.argv[1])
    for path, s, t, k, ours in zip(*[iter(sys.argv[2:])] * 5):
        g = read_gr(path)
        mine = [float(l.split(":")[0]) for l in open(ours)]
        q = mp.Queue()
        p = mp.Process(target=run, args=(q, g, int(s), int(t), int(k)))
        p.start(); p.join(limit)
        if p.is_alive():
            p.terminate()
            print(f"{path} K={k}: scipy {scipy.__version__} yen > {limit:.0f} s (stopped)")
        else:
            secs, d = q.get()
            same = d == mine
            print(f"{path} K={k}: scipy {scipy.__version__} yen {secs:.2f} s, lengths equal to sssp's: {same}")
        sys.stdout.flush()

main()
