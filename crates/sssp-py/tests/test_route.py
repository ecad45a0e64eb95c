"""Routing on the contraction hierarchy from Python: paths and distance matrices against
scipy's Dijkstra."""

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse.csgraph import dijkstra

import sssp


def grid_graph(seed):
    """A 12x9 grid, weights 0-5 (zeros included), one way only on some arcs, a parallel arc and
    an isolated vertex."""
    rng = np.random.default_rng(seed)
    w, h = 12, 9
    tails, heads = [], []
    for y in range(h):
        for x in range(w):
            v = y * w + x
            if x + 1 < w:
                tails += [v, v + 1]
                heads += [v + 1, v]
            if y + 1 < h:
                tails.append(v)
                heads.append(v + w)
                if rng.random() < 0.7:
                    tails.append(v + w)
                    heads.append(v)
    tails.append(0)
    heads.append(1)
    weights = rng.integers(0, 6, size=len(tails)).astype(float)
    n = w * h + 1
    return n, np.array(tails), np.array(heads), weights


def reference(n, tails, heads, weights):
    # scipy sums duplicates in COO: take the lightest of parallel arcs ourselves; an explicit
    # zero is an edge in a CSR built this way.
    best = {}
    for u, v, x in zip(tails, heads, weights):
        best[(u, v)] = min(best.get((u, v), np.inf), x)
    u, v = zip(*best)
    m = sp.csr_matrix((list(best.values()), (u, v)), shape=(n, n))
    return dijkstra(m)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_path_and_matrix_on_the_hierarchy(seed, tmp_path):
    n, tails, heads, weights = grid_graph(seed)
    g = sssp.Graph.from_edges(n, tails, heads, weights, device="cpu")
    want = reference(n, tails, heads, weights)
    assert not g.has_hierarchy
    plain = g.distance_matrix([0, 5, 5, n - 1], [3, 0, n - 1])
    np.testing.assert_array_equal(plain, want[[0, 5, 5, n - 1]][:, [3, 0, n - 1]])
    assert g.prepare_hierarchy(tmp_path / "g.ch") is False  # built and written
    assert g.has_hierarchy
    g2 = sssp.Graph.from_edges(n, tails, heads, weights, device="cpu")
    assert g2.prepare_hierarchy(tmp_path / "g.ch") is True  # read back
    for s in range(0, n, 7):
        for t in range(0, n, 5):
            got = g2.path(s, t)
            if np.isinf(want[s, t]):
                assert got is None
                continue
            d, p = got
            assert d == want[s, t] and p[0] == s and p[-1] == t
            length = sum(min(x for u, v, x in zip(tails, heads, weights) if u == a and v == b) for a, b in zip(p, p[1:]))
            assert length == d
    src, dst = np.arange(0, n, 3), np.arange(1, n, 4)
    np.testing.assert_array_equal(g2.distance_matrix(src, dst), want[src][:, dst])


def test_bad_input():
    n, tails, heads, weights = grid_graph(1)
    g = sssp.Graph.from_edges(n, tails, heads, weights, device="cpu")
    with pytest.raises(ValueError):
        g.distance_matrix([0, n], [1])
    other = sssp.Graph.from_edges(3, [0, 1], [1, 2], [1.5, 2.0], device="cpu")
    with pytest.raises(ValueError):
        other.prepare_hierarchy()
    np.testing.assert_array_equal(other.distance_matrix([0, 2], [2, 0]), [[3.5, 0.0], [0.0, np.inf]])
