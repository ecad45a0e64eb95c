"""sssp.Graph: one upload, many queries; checked against scipy and brute force."""

import os

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as csg

import sssp

DEVICE = os.environ.get("SSSP_TEST_DEVICE", "auto")


def edges(seed, n, m, real=False):
    rng = np.random.default_rng(seed)
    t, h = rng.integers(0, n, m), rng.integers(0, n, m)
    w = rng.random(m) * 5 if real else rng.integers(1, 20, m).astype(float)
    return t, h, w


def min_matrix(n, t, h, w):
    """The scipy matrix of the lightest edge per pair (scipy's constructor would sum them)."""
    key = t * n + h
    order = np.lexsort((w, key))
    first = np.r_[True, key[order][1:] != key[order][:-1]]
    return sp.csr_matrix((w[order][first], (t[order][first], h[order][first])), shape=(n, n))


@pytest.mark.parametrize("real", [False, True])
@pytest.mark.parametrize("directed", [True, False])
def test_queries_on_one_upload(real, directed):
    n = 120
    t, h, w = edges(5, n, 500, real)
    g = sssp.Graph.from_edges(n, t, h, w, directed=directed, device=DEVICE)
    A = min_matrix(n, t, h, w)
    want = csg.dijkstra(A, directed=directed)
    assert np.array_equal(g.distances(np.arange(n)), want)
    for s in (0, 7, n - 1):  # repeated single queries on the same upload
        assert np.array_equal(g.distances(s), want[s])
    d, pred = g.shortest_paths([3, 4], limit=10.0)
    assert np.array_equal(d, np.where(want[[3, 4]] <= 10.0, want[[3, 4]], np.inf))
    near, _, src = g.nearest([0, 50, 99])
    assert np.array_equal(near, want[[0, 50, 99]].min(axis=0))
    for v in np.flatnonzero(np.isfinite(near)):
        assert want[src[v], v] == near[v]
    got = g.path(0, 60)
    if np.isfinite(want[0, 60]):
        length, path = got
        assert length == want[0, 60] and path[0] == 0 and path[-1] == 60
        if directed:
            assert sum(A[a, b] for a, b in zip(path, path[1:])) == length
    else:
        assert got is None


def test_diameter_and_radius_exact():
    rng = np.random.default_rng(9)
    n = 90
    # A connected undirected graph: a random spanning path plus extra edges.
    perm = rng.permutation(n)
    t = np.r_[perm[:-1], rng.integers(0, n, 150)]
    h = np.r_[perm[1:], rng.integers(0, n, 150)]
    for w in (rng.integers(1, 9, t.size).astype(float), rng.random(t.size) + 0.5, None):
        g = sssp.Graph.from_edges(n, t, h, w, directed=False, device=DEVICE)
        ecc = g.distances(np.arange(n)).max(axis=1)
        assert g.diameter() == ecc.max()
        assert g.radius() == ecc.min()
    # Directed and not strongly connected: infinite, as NetworkX's definition has it.
    g = sssp.Graph.from_edges(3, [0, 1], [1, 2], [1.0, 1.0], device=DEVICE)
    assert g.diameter() == np.inf


def test_many_sources_match_single_ones():
    n = 300
    t, h, w = edges(21, n, 1500)
    g = sssp.Graph.from_edges(n, t, h, w, device=DEVICE)
    many = g.distances(np.arange(0, n, 3))  # more than one chunk of 64 sources
    for row, s in enumerate(range(0, n, 3)):
        assert np.array_equal(many[row], g.distances(s))


def test_repr_and_properties():
    g = sssp.Graph.from_edges(3, [0, 1], [1, 2], [1, -1], device=DEVICE)
    assert g.num_vertices == 3 and g.num_arcs == 2 and g.has_negative_weights
    assert g.weight_kind == "i32"
    assert "3 vertices" in repr(g)
    assert g.device in ("gpu", "cpu")
    assert sssp.Graph.from_edges(2, [0], [1], [0.5], device=DEVICE).weight_kind == "f32+f64"
    assert sssp.Graph.from_edges(2, [0], [1], [-0.5], device=DEVICE).weight_kind == "f64"
    # Integers past u32 run in f32, repaired: exact in float64 all the same.
    big = sssp.Graph.from_edges(3, [0, 1], [1, 2], [2.0**40, 3.0], device=DEVICE)
    assert big.weight_kind == "f32+f64" and big.distances(0).tolist() == [0.0, 2.0**40, 2.0**40 + 3]
    assert sssp.Graph.from_edges(2, [0], [1], [1e300], device=DEVICE).weight_kind == "f64"
    with pytest.raises(sssp.NegativeCycleError):
        sssp.Graph.from_edges(2, [0, 1], [1, 0], [1, -2], device=DEVICE).distances(0)
    with pytest.raises(ValueError):
        sssp.Graph.from_edges(2, [0, 1], [1, 0], [1, -2], device=DEVICE).diameter()


def test_queries_release_the_interpreter_for_other_threads():
    # Each thread builds and queries its own graph (a Graph belongs to the thread that made it);
    # the queries release the interpreter, and every answer is still scipy's.
    import threading

    results, errors = {}, []

    def work(seed):
        try:
            t, h, w = edges(seed, 400, 3000, real=bool(seed % 2))
            g = sssp.Graph.from_edges(400, t, h, w, device=DEVICE)
            results[seed] = (g.distances(np.arange(50)), (t, h, w))
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(s,)) for s in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors, errors
    for seed, (got, (t, h, w)) in results.items():
        A = min_matrix(400, t, h, w)
        assert np.array_equal(got, csg.dijkstra(A, indices=np.arange(50))), seed
