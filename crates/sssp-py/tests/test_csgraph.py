"""sssp's scipy drop-ins against scipy.sparse.csgraph itself: the same answers (to the bit), shapes,
dtypes and exceptions, on many graph families, adversarial ones included.

SSSP_TEST_DEVICE picks the device ("auto" by default; the GPU machine runs "gpu").
"""

import os
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as csg

import sssp

DEVICE = os.environ.get("SSSP_TEST_DEVICE", "auto")


def coo(n, rows, cols, w):
    return sp.csr_matrix((np.asarray(w, dtype=np.float64), (np.asarray(rows), np.asarray(cols))), shape=(n, n))


def random_graph(rng, n, m, weights):
    r, c = rng.integers(0, n, m), rng.integers(0, n, m)
    if weights == "int":
        w = rng.integers(0, 30, m).astype(float)
    elif weights == "real":
        w = rng.random(m) * 10
    elif weights == "near-ties":
        # Weights f32 cannot tell apart, float64 can: the f32 engine's tree is arbitrary among
        # them, and the float64 repair has to find the right one.
        w = 1.0 + rng.integers(0, 5, m) * 1e-9
    elif weights == "zero":
        w = rng.integers(0, 2, m).astype(float)
    elif weights == "signed":
        w = rng.integers(-3, 30, m).astype(float)
    elif weights == "signed-real":
        w = rng.random(m) * 10 - 1.0
    elif weights == "huge":
        # Sums past the engines' 32-bit range; integers past it.
        w = rng.integers(2**31, 2**32 - 1, m).astype(float) * (1 + (rng.random(m) < 0.1))
    else:
        raise AssertionError(weights)
    return coo(n, r, c, w)


def grid(side, rng):
    n = side * side
    rows, cols = [], []
    for i in range(side):
        for j in range(side):
            v = i * side + j
            if j + 1 < side:
                rows += [v, v + 1]
                cols += [v + 1, v]
            if i + 1 < side:
                rows += [v, v + side]
                cols += [v + side, v]
    return coo(n, rows, cols, rng.integers(1, 100, len(rows)))


def star(n):
    """A hub with arcs to every vertex and a ring back: one hub, long chains."""
    rows = [0] * (n - 1) + list(range(1, n - 1))
    cols = list(range(1, n)) + list(range(2, n))
    w = list(range(n - 1, 0, -1)) + [1] * (n - 2)
    return coo(n, rows, cols, w)


def families():
    rng = np.random.default_rng(7)
    out = []
    for weights in ("int", "real", "near-ties", "zero", "huge"):
        for n, m in ((1, 0), (2, 1), (17, 40), (60, 300), (200, 600)):
            out.append((f"random-{weights}-{n}-{m}", random_graph(rng, n, m, weights)))
    out.append(("grid-12", grid(12, rng)))
    out.append(("star-300", star(300)))
    out.append(("empty-5", sp.csr_matrix((5, 5))))
    disconnected = sp.block_diag([random_graph(rng, 30, 90, "int"), random_graph(rng, 30, 90, "real")]).tocsr()
    out.append(("disconnected", disconnected))
    loops = coo(4, [0, 0, 1, 1, 2], [0, 1, 1, 2, 3], [5, 1, 0, 2, 2])  # self-loops
    out.append(("self-loops", loops))
    return out


FAMILIES = families()


def same(a, b):
    return a.shape == b.shape and a.dtype == b.dtype and np.array_equal(a, b)


def check_predecessors(A, dist, pred, sources, directed=True):
    """Each predecessor is tight: d[p] + w(p, v) == d[v] over some arc p -> v."""
    A = A.tocsr()
    for row, s in enumerate(sources):
        for v in np.flatnonzero(np.isfinite(dist[row])):
            p = pred[row, v]
            if v == s:
                assert p == -9999
                continue
            cand = [A[p, v]] + ([] if directed else [A[v, p]])
            assert any(dist[row, p] + w == dist[row, v] for w in cand), (s, v, p)


@pytest.mark.parametrize("name,A", FAMILIES, ids=[f[0] for f in FAMILIES])
@pytest.mark.parametrize("directed", [True, False])
def test_dijkstra_all_pairs_equals_scipy(name, A, directed):
    want = csg.dijkstra(A, directed=directed)
    got = sssp.dijkstra(A, directed=directed, device=DEVICE)
    assert same(got, want), np.nanmax(np.abs(np.where(np.isfinite(want), got - want, 0)))


@pytest.mark.parametrize("name,A", FAMILIES[::3], ids=[f[0] for f in FAMILIES[::3]])
def test_limit_indices_predecessors(name, A):
    n = A.shape[0]
    idx = [0, n - 1, n // 2]
    for limit in (0.0, 1.0, 25.5, 1e10, np.inf):
        want = csg.dijkstra(A, indices=idx, limit=limit)
        got, pred = sssp.dijkstra(A, indices=idx, limit=limit, return_predecessors=True, device=DEVICE)
        assert same(got, want)
        assert pred.dtype == np.int32 and pred.shape == got.shape
        assert np.all((pred == -9999) == (~np.isfinite(got) | (np.arange(n)[None, :] == np.array(idx)[:, None])))
        check_predecessors(A, got, pred, idx)


@pytest.mark.parametrize("name,A", FAMILIES[::2], ids=[f[0] for f in FAMILIES[::2]])
def test_min_only_equals_scipy(name, A):
    n = A.shape[0]
    idx = sorted({0, n // 3, n - 1})
    want_d, want_p, want_s = csg.dijkstra(A, indices=idx, min_only=True, return_predecessors=True)
    d, p, s = sssp.dijkstra(A, indices=idx, min_only=True, return_predecessors=True, device=DEVICE)
    assert same(d, want_d)
    assert p.dtype == want_p.dtype and s.dtype == want_s.dtype
    reached = np.isfinite(d)
    assert np.array_equal(s == -9999, ~reached)
    for v in np.flatnonzero(reached):
        # The named source is a nearest one.
        assert csg.dijkstra(A, indices=int(s[v]))[v] == d[v]
    assert same(sssp.dijkstra(A, indices=idx, min_only=True, limit=3.0, device=DEVICE),
                csg.dijkstra(A, indices=idx, min_only=True, limit=3.0))


@pytest.mark.parametrize("seed", range(12))
def test_bellman_ford_signed_equals_scipy(seed):
    rng = np.random.default_rng(100 + seed)
    n = int(rng.integers(2, 80))
    # A DAG with negative arcs (no cycles), plus a few positive back arcs.
    r = rng.integers(0, n - 1, 4 * n)
    c = np.minimum(n - 1, r + rng.integers(1, 6, 4 * n))
    w = rng.integers(-5, 20, 4 * n).astype(float) if seed % 2 else rng.random(4 * n) * 12 - 3
    back_r = rng.integers(1, n, n // 4)
    back_c = rng.integers(0, 1, n // 4)
    A = coo(n, np.r_[r, back_r], np.r_[c, back_c], np.r_[w, np.full(n // 4, 1000.0)])
    try:
        want = csg.bellman_ford(A, indices=[0, n // 2])
    except csg.NegativeCycleError:
        with pytest.raises(csg.NegativeCycleError):
            sssp.bellman_ford(A, indices=[0, n // 2], device=DEVICE)
        return
    got, pred = sssp.bellman_ford(A, indices=[0, n // 2], return_predecessors=True, device=DEVICE)
    assert same(got, want)
    assert same(sssp.johnson(A, indices=[0, n // 2], device=DEVICE), want)
    assert same(sssp.shortest_path(A, indices=[0, n // 2], device=DEVICE), want)
    check_predecessors(A, got, pred, [0, n // 2])


def test_negative_cycle_is_scipys_exception():
    A = coo(3, [0, 1, 2], [1, 2, 1], [1.0, -3.0, 1.0])
    with pytest.raises(csg.NegativeCycleError) as info:
        sssp.bellman_ford(A, indices=0, device=DEVICE)
    assert isinstance(info.value, sssp.NegativeCycleError)
    assert sorted(info.value.cycle) == [1, 2]
    # Undirected, one negative edge is a negative cycle (scipy agrees).
    B = coo(2, [0], [1], [-1.0])
    with pytest.raises(csg.NegativeCycleError):
        csg.bellman_ford(B, directed=False)
    with pytest.raises(sssp.NegativeCycleError):
        sssp.bellman_ford(B, directed=False, device=DEVICE)


def test_johnson_raises_for_any_cycle_bellman_ford_for_reached_ones():
    # 0 -> 1; a negative cycle 2 <-> 3 that vertex 0 does not reach.
    for w in ([1.0, 1.0, -3.0], [1.5, 1.0, -3.25]):
        A = coo(4, [0, 2, 3], [1, 3, 2], w)
        assert same(sssp.bellman_ford(A, indices=0, device=DEVICE), csg.bellman_ford(A, indices=0))
        with pytest.raises(csg.NegativeCycleError):
            csg.johnson(A, indices=0)
        with pytest.raises(csg.NegativeCycleError):
            sssp.johnson(A, indices=0, device=DEVICE)
        with pytest.raises(csg.NegativeCycleError):
            sssp.shortest_path(A, indices=0, device=DEVICE)


def test_dijkstra_negative_weights_warns_like_scipy_and_is_exact():
    A = coo(3, [0, 1, 0], [1, 2, 2], [4.0, -2.0, 3.0])
    with pytest.warns(UserWarning, match="negative weights"):
        got = sssp.dijkstra(A, indices=0, device=DEVICE)
    assert got.tolist() == [0.0, 4.0, 2.0]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sssp.bellman_ford(A, indices=0, device=DEVICE)  # no warning there


def test_shapes_and_indices_like_scipy():
    A = FAMILIES[8][1]
    n = A.shape[0]
    for idx in (None, 0, -1, [1], [[0, 1], [2, 3]], np.array([3, 3]), np.int64(2)):
        want = csg.dijkstra(A, indices=idx)
        got = sssp.dijkstra(A, indices=idx, device=DEVICE)
        assert same(got, want), idx
        wd, wp = csg.dijkstra(A, indices=idx, return_predecessors=True)
        gd, gp = sssp.dijkstra(A, indices=idx, return_predecessors=True, device=DEVICE)
        assert gd.shape == wd.shape and gp.shape == wp.shape and gp.dtype == wp.dtype
    assert sssp.dijkstra(A, indices=[], device=DEVICE).shape == csg.dijkstra(A, indices=[]).shape == (0, n)


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo", "lil", "array", "dense", "list", "masked"])
def test_input_formats(fmt):
    rng = np.random.default_rng(3)
    A = random_graph(rng, 25, 80, "int")
    A.data[:5] = 0.0  # explicit zeros: edges of weight 0 in sparse input
    conv = {
        "csr": lambda: A,
        "csc": A.tocsc,
        "coo": A.tocoo,
        "lil": A.tolil,
        "array": lambda: sp.csr_array(A),
        "dense": A.toarray,
        "list": lambda: A.toarray().tolist(),
        "masked": lambda: np.ma.array(A.toarray(), mask=np.isin(A.toarray(), [3.0, 7.0])),
    }[fmt]
    G = conv()
    for kw in ({}, {"directed": False}, {"unweighted": True}):
        assert same(sssp.dijkstra(G, device=DEVICE, **kw), csg.dijkstra(G, **kw)), kw


def test_dense_non_edges_and_nan():
    M = np.array([[0, 1, np.inf], [np.nan, 0, 2], [5, 0, 0]], dtype=float)
    assert same(sssp.dijkstra(M, device=DEVICE), csg.dijkstra(M))
    S = coo(3, [0, 1, 0], [1, 2, 2], [np.nan, 1.0, np.inf])
    assert same(sssp.dijkstra(S, device=DEVICE), csg.dijkstra(S))
    assert same(sssp.dijkstra(S, unweighted=True, device=DEVICE), csg.dijkstra(S, unweighted=True))


def test_f64_repair_finds_what_f32_cannot_see():
    # 0.1 + 0.2 > 0.3 in float64; in f32 the two paths to 2 tie.
    A = coo(3, [0, 1, 0], [1, 2, 2], [0.1, 0.2, 0.3])
    assert same(sssp.dijkstra(A, device=DEVICE), csg.dijkstra(A))
    d, p = sssp.dijkstra(A, indices=0, return_predecessors=True, device=DEVICE)
    assert p[2] == 0
    g = sssp.Graph.from_scipy(A, device=DEVICE)
    assert g.weight_kind == "f32+f64"


def test_bad_input_raises_scipys_exceptions():
    A = coo(3, [0], [1], [1.0])
    with pytest.raises(ValueError, match="square"):
        sssp.dijkstra(np.zeros((2, 3)), device=DEVICE)
    with pytest.raises(ValueError, match="square"):
        sssp.dijkstra(sp.csr_matrix((2, 3)), device=DEVICE)
    with pytest.raises(ValueError, match="square"):
        sssp.dijkstra(np.zeros(4), device=DEVICE)
    with pytest.raises(ValueError, match="out of range"):
        sssp.dijkstra(A, indices=3, device=DEVICE)
    with pytest.raises(ValueError, match="out of range"):
        sssp.dijkstra(A, indices=[0, -4], device=DEVICE)
    with pytest.raises(ValueError, match="limit"):
        sssp.dijkstra(A, limit=-1, device=DEVICE)
    with pytest.raises(ValueError, match="limit"):
        sssp.dijkstra(A, limit=-np.inf, device=DEVICE)
    with pytest.raises(ValueError, match="method"):
        sssp.shortest_path(A, method="XY", device=DEVICE)
    with pytest.raises(ValueError, match="FW"):
        sssp.shortest_path(A, method="FW", indices=0, device=DEVICE)
    with pytest.raises(ValueError, match="device"):
        sssp.dijkstra(A, device="tpu")
    with pytest.raises(ValueError):
        sssp.Graph(3, np.array([0, 2, 1, 1]), np.array([1, 2]), None)  # indptr decreases
    with pytest.raises(ValueError):
        sssp.Graph(3, np.array([0, 1, 1, 1]), np.array([7]), None)  # head out of range
    with pytest.raises(ValueError):
        sssp.Graph.from_edges(3, [0, 5], [1, 1])


@pytest.mark.skipif(DEVICE != "auto", reason="the no-GPU error is for machines without one")
def test_gpu_without_one_is_a_clear_error():
    try:
        g = sssp.Graph.from_edges(2, [0], [1], device="auto")
    except Exception as e:  # pragma: no cover
        pytest.fail(f"auto must fall back to the CPU: {e}")
    if g.device == "gpu":
        pytest.skip("this machine has a GPU")
    with pytest.raises(RuntimeError, match="GPU|CUDA|cuda"):
        sssp.Graph.from_edges(2, [0], [1], device="gpu")


def test_floyd_warshall_and_methods_agree():
    rng = np.random.default_rng(11)
    A = random_graph(rng, 40, 160, "real")
    want = csg.shortest_path(A)
    for method in ("auto", "FW", "D", "BF", "J"):
        assert same(sssp.shortest_path(A, method=method, device=DEVICE), want), method
    # scipy's Floyd-Warshall adds sub-paths in another order than its Dijkstra: the last bits
    # may differ on real weights (ours are Dijkstra's); on integers they are equal.
    assert np.allclose(sssp.floyd_warshall(A, device=DEVICE), csg.floyd_warshall(A), rtol=1e-12)
    B = random_graph(rng, 40, 160, "int")
    assert same(sssp.floyd_warshall(B, device=DEVICE), csg.floyd_warshall(B))
    assert same(sssp.floyd_warshall(B, directed=False, device=DEVICE), csg.floyd_warshall(B, directed=False))


def _with_duplicates(fmt, dtype):
    """A graph whose entries repeat (0->1 three times, 2->3 twice) in the storage ``fmt``:
    "csr" and "csc" built from raw arrays (scipy keeps their duplicates until something sums
    them), the other formats converted from COO."""
    rows = np.array([0, 0, 0, 1, 2, 2, 0, 3])
    cols = np.array([1, 1, 1, 2, 3, 3, 2, 0])
    w = np.array([5, 7, 2, 1, 3, 4, 30, 6]).astype(dtype)
    if fmt in ("csr", "csc"):
        major, minor = (rows, cols) if fmt == "csr" else (cols, rows)
        order = np.argsort(major, kind="stable")
        indptr = np.concatenate([[0], np.cumsum(np.bincount(major, minlength=4))])
        cls = sp.csr_matrix if fmt == "csr" else sp.csc_matrix
        return cls((w[order], minor[order], indptr), shape=(4, 4))
    return sp.coo_matrix((w, (rows, cols)), shape=(4, 4)).asformat(fmt)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32, np.int64, np.uint8, np.bool_])
@pytest.mark.parametrize("fmt", ["csr", "csc", "coo", "lil", "dok", "bsr"])
def test_duplicate_entries_as_scipy(fmt, dtype):
    # scipy sums duplicates wherever its conversion to float64 CSR does (every dtype but
    # float64, and every format but CSR and CSC); a float64 CSR keeps them as parallel arcs.
    A = _with_duplicates(fmt, dtype)
    for directed in (True, False):
        for unweighted in (False, True):
            want = csg.dijkstra(A, directed=directed, unweighted=unweighted)
            got = sssp.dijkstra(A, directed=directed, unweighted=unweighted, device=DEVICE)
            assert same(got, want), (fmt, np.dtype(dtype).name, directed, unweighted)
    want = csg.shortest_path(A, method="BF")
    assert same(sssp.shortest_path(A, method="BF", device=DEVICE), want)


def test_nan_limit_as_scipy():
    # No distance compares `<= nan`: scipy reaches the sources only.
    rng = np.random.default_rng(3)
    A = random_graph(rng, 30, 120, "int")
    idx = [0, 4, 4, 17]
    for nan in (np.nan, float("nan")):
        want = csg.dijkstra(A, indices=idx, limit=nan, return_predecessors=True)
        got = sssp.dijkstra(A, indices=idx, limit=nan, return_predecessors=True, device=DEVICE)
        assert same(got[0], want[0]) and np.array_equal(got[1], want[1])
        want = csg.dijkstra(A, indices=idx, limit=nan, min_only=True, return_predecessors=True)
        got = sssp.dijkstra(A, indices=idx, limit=nan, min_only=True, return_predecessors=True, device=DEVICE)
        assert all(same(g, w) for g, w in zip(got, want))
        assert same(sssp.dijkstra(A, indices=3, limit=nan, device=DEVICE), csg.dijkstra(A, indices=3, limit=nan))
