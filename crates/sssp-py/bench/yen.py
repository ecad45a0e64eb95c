"""k shortest simple paths on a DIMACS road graph: sssp.yen against scipy.sparse.csgraph.yen
(scipy >= 1.14), same graph, source, sink and K; the lengths must agree.

    python crates/sssp-py/bench/yen.py ../shared/data/road/USA-road-d.NY.gr.gz 0 90643 100
"""

import gzip
import sys
import time

import numpy as np
import scipy.sparse as sp

import sssp


def read_gr(path):
    with gzip.open(path, "rt") if path.endswith(".gz") else open(path) as f:
        rows = [line.split() for line in f if line.startswith("a ")]
    n = max(max(int(r[1]), int(r[2])) for r in rows)
    a = np.array([[int(r[1]) - 1, int(r[2]) - 1, int(r[3])] for r in rows], dtype=np.int64)
    A = sp.csr_array((a[:, 2].astype(float), (a[:, 0], a[:, 1])), shape=(n, n))
    A.sum_duplicates()
    A.indices, A.indptr = A.indices.astype(np.int32), A.indptr.astype(np.int32)  # scipy's yen needs int32
    return A


def main():
    path, s, t, k = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    A = read_gr(path)
    t0 = time.perf_counter()
    ours = sssp.yen(A, s, t, k, device="cpu")
    t1 = time.perf_counter()
    print(f"sssp.yen (cpu): {t1 - t0:.2f} s, {len(ours)} paths, {ours[0]:.0f} .. {ours[-1]:.0f}")
    try:
        from scipy.sparse.csgraph import yen
    except ImportError:
        print("scipy has no yen (needs >= 1.14)")
        return
    t0 = time.perf_counter()
    theirs = yen(A, s, t, k)
    t1 = time.perf_counter()
    print(f"scipy.sparse.csgraph.yen: {t1 - t0:.2f} s, {len(theirs)} paths; lengths equal: {ours.tolist() == theirs.tolist()}")


if __name__ == "__main__":
    main()
