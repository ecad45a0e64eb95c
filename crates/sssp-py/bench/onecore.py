"""The scipy drop-ins against scipy.sparse.csgraph on one graph, call by call, for every
argument combination, on however many cores the process is given (docs/performance.md runs
it on one: `taskset -c 0` with RAYON_NUM_THREADS=1):

    python onecore.py [--repeat 11] GRAPH

GRAPH is any file `sssp.read` takes, read into a float64 scipy CSR matrix with the parallel
arcs reduced to the lightest (`sssp.read_csr`), what both libraries then get. Each row is the
median wall time of --repeat calls; every answer is compared with scipy's (a mismatch stops
the run); the two libraries' calls alternate. "real weights" multiplies every weight by 1.1 (not integral: sssp's f32 engine
with its float64 repair); "tiny" is one call on a 3-vertex graph, in microseconds.
"""

import argparse
import statistics
import sys
import time

import numpy as np
import scipy.sparse as sp
import scipy.sparse.csgraph as csg

import sssp


def timed_pair(f, g, repeat):
    """(median seconds of f, of g, last results): the calls alternate, so that a busy spell
    of the machine slows both alike."""
    tf, tg, a, b = [], [], None, None
    for _ in range(repeat):
        t = time.perf_counter()
        a = f()
        tf.append(time.perf_counter() - t)
        t = time.perf_counter()
        b = g()
        tg.append(time.perf_counter() - t)
    return statistics.median(tf), statistics.median(tg), a, b


def same(got, want):
    got = got if isinstance(got, tuple) else (got,)
    want = want if isinstance(want, tuple) else (want,)
    # distances to the bit; predecessors may differ among equally short paths, so only the
    # distances (and for min_only the distances alone) are compared
    return got[0].shape == want[0].shape and np.array_equal(got[0], want[0])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("graph")
    ap.add_argument("--repeat", type=int, default=11)
    args = ap.parse_args()
    A = sssp.read_csr(args.graph)
    R = A.copy()
    R.data = R.data * 1.1
    rng = np.random.default_rng(1)
    three = rng.choice(A.shape[0], 3, replace=False)
    s = int(three[0])
    tiny = sp.csr_matrix(np.array([[0, 1.0, 0], [0, 0, 2.0], [3.0, 0, 0]]))
    cases = [
        ("1 source", A, dict(indices=s)),
        ("3 sources, predecessors", A, dict(indices=three, return_predecessors=True)),
        ("undirected", A, dict(indices=s, directed=False)),
        ("min_only (3 sources)", A, dict(indices=three, min_only=True)),
        ("real weights", R, dict(indices=s)),
        ("tiny (3 vertices), us", tiny, dict(indices=0)),
    ]
    print(f"{args.graph}: {A.shape[0]} vertices, {A.nnz} arcs; median of {args.repeat}; ms")
    print("| call | scipy | sssp |")
    print("|---|---:|---:|")
    for name, M, kw in cases:
        rep = args.repeat * (200 if "tiny" in name else 1)
        sssp.dijkstra(M, device="cpu", **kw)  # warm: the first call opens the engine
        t_sp, t_ss, want, got = timed_pair(lambda: csg.dijkstra(M, **kw), lambda: sssp.dijkstra(M, device="cpu", **kw), rep)
        if not same(got, want):
            sys.exit(f"MISMATCH: {name}")
        scale = 1e6 if "tiny" in name else 1e3
        print(f"| {name} | {t_sp * scale:.0f} | {t_ss * scale:.0f} |")


if __name__ == "__main__":
    main()
