"""sssp.yen against scipy.sparse.csgraph.yen (scipy >= 1.14) and a brute-force enumeration of
simple paths: lengths to the bit on integer weights, every path simple and of its length, and
scipy's results and errors for the edge cases."""

import itertools

import numpy as np
import pytest
import scipy.sparse as sp

import sssp

try:
    from scipy.sparse.csgraph import yen as scipy_yen
except ImportError:  # scipy < 1.14
    scipy_yen = None

needs_scipy_yen = pytest.mark.skipif(scipy_yen is None, reason="scipy.sparse.csgraph.yen needs scipy >= 1.14")


def random_graph(rng, n, m, lo=0, hi=4, real=False):
    """A random multigraph with zero weights, self loops and parallel arcs (summed by scipy's
    COO -> CSR conversion only where asked: here kept as separate entries)."""
    u = rng.integers(0, n, m)
    v = rng.integers(0, n, m)
    w = rng.integers(lo, hi, m).astype(float)
    if real:
        w = w * 0.25 + rng.integers(0, 2, m) * 0.125
    return sp.csr_array((w, (u, v)), shape=(n, n))


def brute_force(A, s, t):
    """Every simple s-t path's length (float64 sums from s, lightest of parallel arcs)."""
    A = A.tocoo()
    best = {}
    for a, b, w in zip(A.row.tolist(), A.col.tolist(), A.data.tolist()):
        best[a, b] = min(w, best.get((a, b), np.inf))
    out = []

    def dfs(path, length):
        u = path[-1]
        if u == t:
            out.append((length, len(path), tuple(path)))
            return
        for (a, b), w in best.items():
            if a == u and b not in path:
                dfs(path + [b], length + w)

    dfs([s], 0.0)
    return sorted(out)


def walk(pred_row, s, t):
    path = [t]
    while path[-1] != s:
        path.append(int(pred_row[path[-1]]))
        assert len(path) <= len(pred_row)
    return path[::-1]


@pytest.mark.parametrize("seed", range(40))
def test_brute_force_order_and_paths(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 7))
    A = random_graph(rng, n, int(rng.integers(0, 18)), real=seed % 2 == 1)
    s, t = (int(x) for x in rng.integers(0, n, 2))
    want = brute_force(A, s, t)
    k = int(rng.integers(1, 10))
    dist, pred = sssp.yen(A, s, t, k, return_predecessors=True, device="cpu")
    assert dist.dtype == np.float64 and pred.dtype == np.int32 and pred.shape == (len(dist), n)
    assert dist.tolist() == [x[0] for x in want[:k]]
    got = [tuple(walk(row, s, t)) for row in pred]
    assert got == [x[2] for x in want[:k]]
    assert sssp.yen(A, s, t, 10**9, device="cpu").tolist() == [x[0] for x in want]


@needs_scipy_yen
@pytest.mark.parametrize("seed", range(30))
@pytest.mark.parametrize("directed", [True, False])
def test_lengths_equal_scipy(seed, directed):
    rng = np.random.default_rng(100 + seed)
    n = int(rng.integers(2, 30))
    A = random_graph(rng, n, int(rng.integers(0, 4 * n)), lo=0, hi=6)
    A.sum_duplicates()  # scipy's yen reads one entry per (row, column)
    A.indices, A.indptr = A.indices.astype(np.int32), A.indptr.astype(np.int32)  # its yen's dtype
    s, t = (int(x) for x in rng.integers(0, n, 2))
    k = int(rng.integers(1, 25))
    want = scipy_yen(A, s, t, k, directed=directed)
    got, pred = sssp.yen(A, s, t, k, directed=directed, return_predecessors=True, device="cpu")
    assert got.tolist() == want.tolist()
    for length, row in zip(got, pred):
        p = walk(row, s, t)
        assert len(set(p)) == len(p)
        if directed:
            assert sum(A[a, b] for a, b in itertools.pairwise(p)) == length


@needs_scipy_yen
def test_edge_cases_as_scipy():
    A = sp.csr_array(np.array([[0, 1, 2], [0, 0, 1], [0, 0, 0]], dtype=float))
    for args in [(0, 2, 3), (0, 0, 3), (2, 0, 3), (0, 2, 0)]:
        want = scipy_yen(A, *args, return_predecessors=True)
        got = sssp.yen(A, *args, return_predecessors=True, device="cpu")
        assert got[0].tolist() == want[0].tolist()
        assert got[1].shape == want[1].shape and got[1].dtype == want[1].dtype
        assert got[1].tolist() == want[1].tolist()
    for bad in [(0, 5, 2), (-1, 2, 2), (0, 2, -1)]:
        with pytest.raises(ValueError):
            scipy_yen(A, *bad)
        with pytest.raises(ValueError):
            sssp.yen(A, *bad, device="cpu")
    with pytest.raises(TypeError):
        sssp.yen(A, 0, 2, 2.5, device="cpu")


def test_negative_weights_name_the_arc():
    A = sp.csr_array(np.array([[0, 2, 0], [0, 0, -1], [0, 0, 0]], dtype=float))
    with pytest.raises(ValueError, match="1 -> 2"):
        sssp.yen(A, 0, 2, 2, device="cpu")
