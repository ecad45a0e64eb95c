"""The "sssp" NetworkX backend against NetworkX itself, on random graphs: directed and
undirected, multigraphs, int / float / mixed / partly missing weights, string labels,
unreachable parts, cutoffs, negative weights, and every error NetworkX raises."""

import inspect
import itertools
import random

import pytest

nx = pytest.importorskip("networkx")
np = pytest.importorskip("numpy")

import sssp.nx as sssp_nx  # noqa: E402

if "sssp" not in nx.utils.backends.backends:  # pragma: no cover - not installed
    pytest.skip("the sssp backend is not registered with NetworkX", allow_module_level=True)

B = {"backend": "sssp"}
NX = {"backend": "networkx"}

CLASSES = [nx.Graph, nx.DiGraph, nx.MultiGraph, nx.MultiDiGraph]
WEIGHTS = ["int", "float", "mixed", "partial", "none"]


pytestmark = pytest.mark.usefixtures("quiet_nx_cache")


def _weight(rng, mode):
    if mode == "int":
        return rng.randint(0, 9)
    if mode == "float":
        return round(rng.uniform(0.0, 5.0), 1)  # ties and float rounding both show up
    if mode == "mixed":
        return rng.randint(1, 9) if rng.random() < 0.5 else rng.uniform(0.1, 9.0)
    if mode == "partial":
        return None if rng.random() < 0.4 else round(rng.uniform(0.1, 5.0), 2)
    return None


def make_graph(cls, n, avg_degree, mode, seed, labels="int", extra_component=True):
    """A random graph; its node order is shuffled so that ids differ from labels, and an extra
    component (and an isolated node) is unreachable from most sources."""
    rng = random.Random(seed)
    if labels == "str":
        names = [f"v{i}" for i in range(n)]
    elif labels == "tuple":
        names = [(i % 5, i // 5) for i in range(n)]
    else:
        names = list(range(n))
    G = cls()
    order = names[:]
    rng.shuffle(order)
    G.add_nodes_from(order)
    m = int(n * avg_degree)
    for _ in range(m):
        u, v = rng.choice(names), rng.choice(names)
        if u == v and rng.random() < 0.7:
            continue
        w = _weight(rng, mode)
        if w is None:
            G.add_edge(u, v)
        else:
            G.add_edge(u, v, weight=w)
    if extra_component:
        k = max(3, n // 8)
        extra = [f"x{i}" for i in range(k)]
        for a, b in zip(extra, extra[1:]):
            w = _weight(rng, mode)
            G.add_edge(a, b, **({} if w is None else {"weight": w}))
        G.add_node("isolated")
    return G


def graphs(modes=WEIGHTS, classes=CLASSES, seeds=(0, 1)):
    return list(_graphs(modes, classes, seeds))


def _graphs(modes, classes, seeds):
    for cls, mode, seed in itertools.product(classes, modes, seeds):
        labels = ["int", "str", "tuple"][seed % 3]
        yield pytest.param(cls, mode, seed, labels, id=f"{cls.__name__}-{mode}-{seed}-{labels}")


def edge_weight(G, u, v, weight="weight"):
    if weight is None:
        return 1
    if G.is_multigraph():
        return min(d.get(weight, 1) for d in G[u][v].values())
    return G[u][v].get(weight, 1)


def check_path(G, path, source, target, length, weight="weight", from_target=False):
    """A path of G from source to target whose length (summed from the source, or from the
    target for lengths NetworkX computes on the reversed graph) is ``length``, bit for bit."""
    assert path[0] == source and path[-1] == target
    arcs = list(zip(path, path[1:]))
    for u, v in arcs:
        assert G.has_edge(u, v), (u, v)
    total = 0
    for u, v in reversed(arcs) if from_target else arcs:
        total = total + edge_weight(G, u, v, weight)
    assert total == length


def check_lengths(got, expected, mode, sources=()):
    assert isinstance(got, dict)
    assert all(type(v) in (int, float) for v in got.values())  # no numpy scalars
    assert got == expected
    assert set(got) == set(expected)
    if mode in ("int", "none", "float"):  # NetworkX's int/float types, exactly
        for k, v in expected.items():
            assert type(got[k]) is type(v), (k, got[k], v)
    keys = list(got)
    sources = list(dict.fromkeys(sources))
    assert keys[: len(sources)] == sources
    vals = [got[k] for k in keys[len(sources) :]]
    assert vals == sorted(vals)  # ordered by distance, as NetworkX's Dijkstra


def same_type(got, expected, mode):
    """NetworkX's int/float types, exactly, where the weights are all ints or all floats (with
    mixed weights NetworkX's type depends on the path it took)."""
    return mode not in ("int", "none", "float") or type(got) is type(expected)


def outcome(func, *args, **kwargs):
    try:
        return ("ok", func(*args, **kwargs))
    except Exception as e:  # noqa: BLE001
        return ("raise", e)


def assert_same_error(func, *args, **kwargs):
    exp = outcome(func, *args, **NX, **kwargs)
    got = outcome(func, *args, **B, **kwargs)
    assert exp[0] == "raise", exp
    assert got[0] == "raise", got
    assert type(got[1]) is type(exp[1]), (got[1], exp[1])
    assert str(got[1]) == str(exp[1])


def sample_sources(G, k=4, seed=0):
    rng = random.Random(seed)
    nodes = list(G)
    return rng.sample(nodes, min(k, len(nodes)))


# --------------------------------------------------------------------------------------------
# registration


def test_entry_points_and_info():
    info = sssp_nx.get_info()
    assert info["backend_name"] == "sssp"
    assert info["package"] == "sssp"
    assert set(info["functions"]) == set(sssp_nx.FUNCTIONS)
    bi = sssp_nx.backend_interface
    for name in info["functions"]:
        assert hasattr(bi, name), name
        nx_func = getattr(nx, name)
        assert "sssp" in nx_func.backends, name
        # the implementation takes NetworkX's parameters, in NetworkX's order
        nx_params = list(inspect.signature(nx_func.orig_func).parameters)
        ours = list(inspect.signature(getattr(bi, name)).parameters)
        assert ours == nx_params, name
    assert nx.config.backends.sssp.chunk_size == 64


# --------------------------------------------------------------------------------------------
# Dijkstra


@pytest.mark.parametrize("cls,mode,seed,labels", graphs())
def test_single_source_dijkstra(cls, mode, seed, labels):
    G = make_graph(cls, 30, 2.0, mode, seed, labels)
    for s in sample_sources(G, seed=seed):
        exp = nx.single_source_dijkstra_path_length(G, s, **NX)
        got = nx.single_source_dijkstra_path_length(G, s, **B)
        check_lengths(got, exp, mode, [s])
        dist, paths = nx.single_source_dijkstra(G, s, **B)
        check_lengths(dist, exp, mode, [s])
        assert list(paths) == list(dist)
        for t, p in paths.items():
            check_path(G, p, s, t, exp[t])
        paths2 = nx.single_source_dijkstra_path(G, s, **B)
        assert set(paths2) == set(exp)
        for t, p in paths2.items():
            check_path(G, p, s, t, exp[t])


@pytest.mark.parametrize("cls,mode,seed,labels", graphs(seeds=(0,)))
def test_cutoff(cls, mode, seed, labels):
    G = make_graph(cls, 30, 2.0, mode, seed, labels)
    s = sample_sources(G, 1, seed)[0]
    full = nx.single_source_dijkstra_path_length(G, s, **NX)
    finite = sorted(set(full.values()))
    cutoffs = [None, -1, 0, 0.5, float("nan"), float("inf")] + finite[:: max(1, len(finite) // 5)]
    for cutoff in cutoffs:
        exp = nx.single_source_dijkstra_path_length(G, s, cutoff=cutoff, **NX)
        got = nx.single_source_dijkstra_path_length(G, s, cutoff=cutoff, **B)
        check_lengths(got, exp, mode, [s])
        dist, paths = nx.single_source_dijkstra(G, s, cutoff=cutoff, **B)
        check_lengths(dist, exp, mode, [s])
        for t, p in paths.items():
            check_path(G, p, s, t, exp[t])
        for t in list(full)[-3:]:
            e = outcome(nx.single_source_dijkstra, G, s, t, cutoff=cutoff, **NX)
            g = outcome(nx.single_source_dijkstra, G, s, t, cutoff=cutoff, **B)
            assert e[0] == g[0]
            if e[0] == "ok":
                assert g[1][0] == e[1][0] and same_type(g[1][0], e[1][0], mode)
                check_path(G, g[1][1], s, t, e[1][0])
            else:
                assert type(g[1]) is type(e[1]) and str(g[1]) == str(e[1])


@pytest.mark.parametrize("cls,mode,seed,labels", graphs())
def test_multi_source(cls, mode, seed, labels):
    G = make_graph(cls, 30, 1.5, mode, seed, labels)
    sources = sample_sources(G, 3, seed)
    for srcs in ([sources[0]], sources, set(sources), sources + sources[:1]):
        exp = nx.multi_source_dijkstra_path_length(G, srcs, **NX)
        got = nx.multi_source_dijkstra_path_length(G, srcs, **B)
        check_lengths(got, exp, mode, list(srcs))
        dist, paths = nx.multi_source_dijkstra(G, srcs, **B)
        check_lengths(dist, exp, mode, list(srcs))
        for t, p in paths.items():
            assert p[0] in srcs
            check_path(G, p, p[0], t, exp[t])
        assert nx.multi_source_dijkstra_path(G, srcs, **B).keys() == exp.keys()
        for t in list(G)[:6]:
            e = outcome(nx.multi_source_dijkstra, G, srcs, t, **NX)
            g = outcome(nx.multi_source_dijkstra, G, srcs, t, **B)
            assert e[0] == g[0]
            if e[0] == "ok":
                assert g[1][0] == e[1][0]
                check_path(G, g[1][1], g[1][1][0], t, e[1][0])
            else:
                assert type(g[1]) is type(e[1]) and str(g[1]) == str(e[1])


@pytest.mark.parametrize("cls,mode,seed,labels", graphs())
def test_source_target(cls, mode, seed, labels):
    G = make_graph(cls, 25, 1.5, mode, seed, labels)
    nodes = list(G)
    rng = random.Random(seed)
    pairs = [(rng.choice(nodes), rng.choice(nodes)) for _ in range(12)]
    pairs += [(nodes[0], nodes[0]), (nodes[0], "isolated"), ("isolated", nodes[0])]
    for s, t in pairs:
        e = outcome(nx.dijkstra_path_length, G, s, t, **NX)
        g = outcome(nx.dijkstra_path_length, G, s, t, **B)
        assert e[0] == g[0]
        if e[0] == "ok":
            assert g[1] == e[1] and same_type(g[1], e[1], mode)
            check_path(G, nx.dijkstra_path(G, s, t, **B), s, t, e[1])
            length, path = nx.bidirectional_dijkstra(G, s, t, **B)
            assert length == e[1]
            check_path(G, path, s, t, e[1])
            for method in ("dijkstra", "bellman-ford"):
                assert nx.shortest_path_length(G, s, t, weight="weight", method=method, **B) == e[1]
                p = nx.shortest_path(G, s, t, weight="weight", method=method, **B)
                check_path(G, p, s, t, e[1])
            assert nx.bellman_ford_path_length(G, s, t, **B) == e[1]
            check_path(G, nx.bellman_ford_path(G, s, t, **B), s, t, e[1])
        else:
            assert type(g[1]) is type(e[1]) and str(g[1]) == str(e[1])
            for f in (nx.dijkstra_path, nx.bidirectional_dijkstra, nx.bellman_ford_path_length):
                assert_same_error(f, G, s, t)


@pytest.mark.parametrize("cls,mode,seed,labels", graphs(seeds=(0,)))
def test_all_pairs_dijkstra(cls, mode, seed, labels):
    G = make_graph(cls, 40, 1.5, mode, seed, labels)
    nx.config.backends.sssp.chunk_size = 7  # several chunks, the last one short
    try:
        gen = nx.all_pairs_dijkstra_path_length(G, **B)
        assert inspect.isgenerator(gen)
        got = list(gen)
        exp = list(nx.all_pairs_dijkstra_path_length(G, **NX))
        assert [k for k, _ in got] == [k for k, _ in exp] == list(G)
        for (s, g), (_, e) in zip(got, exp):
            check_lengths(g, e, mode, [s])
        cut = nx.all_pairs_dijkstra_path_length(G, cutoff=3, **B)
        assert dict(cut) == dict(nx.all_pairs_dijkstra_path_length(G, cutoff=3, **NX))
        for s, (dist, paths) in nx.all_pairs_dijkstra(G, **B):
            check_lengths(dist, dict(exp)[s], mode, [s])
            for t, p in paths.items():
                check_path(G, p, s, t, dist[t])
        for s, paths in nx.all_pairs_dijkstra_path(G, **B):
            assert paths.keys() == dict(exp)[s].keys()
    finally:
        nx.config.backends.sssp.chunk_size = 64


def test_all_pairs_is_lazy(monkeypatch):
    """all_pairs_dijkstra_path_length streams: sources are solved a chunk at a time, when the
    generator reaches them."""
    import sssp

    solved = []
    orig = sssp.Graph.distances

    def counting(self, sources, limit=np.inf):
        solved.append(len(sources))
        return orig(self, sources, limit)

    monkeypatch.setattr(sssp.Graph, "distances", counting)
    nx.config.backends.sssp.chunk_size = 16
    try:
        G = nx.path_graph(100)
        gen = nx.all_pairs_dijkstra_path_length(G, **B)
        assert solved == []
        assert next(gen) == (0, {i: i for i in range(100)})
        assert solved == [16]
        rest = dict(itertools.islice(gen, 20))
        assert solved == [16, 16]
        assert rest == {i: nx.single_source_shortest_path_length(G, i, **NX) for i in range(1, 21)}
        assert len(list(gen)) == 79
        assert solved == [16] * 6 + [4]
    finally:
        nx.config.backends.sssp.chunk_size = 64


# --------------------------------------------------------------------------------------------
# generic shortest_path / shortest_path_length


@pytest.mark.parametrize("cls,mode,seed,labels", graphs(modes=["int", "float", "none"], seeds=(0,)))
@pytest.mark.parametrize("weight", [None, "weight"])
@pytest.mark.parametrize("method", ["dijkstra", "bellman-ford"])
def test_generic_branches(cls, mode, seed, labels, weight, method):
    G = make_graph(cls, 20, 1.5, mode, seed, labels)
    kw = {"weight": weight, "method": method}
    s, t = sample_sources(G, 2, seed)
    mode_ = "none" if weight is None else mode
    # source only
    check_lengths(nx.shortest_path_length(G, s, **kw, **B), nx.shortest_path_length(G, s, **kw, **NX), mode_, [s])
    exp = nx.shortest_path_length(G, s, **kw, **NX)
    for v, p in nx.shortest_path(G, s, **kw, **B).items():
        check_path(G, p, s, v, exp[v], weight)
    # target only: from every node that reaches it
    exp = nx.shortest_path_length(G, target=t, **kw, **NX)
    got = nx.shortest_path_length(G, target=t, **kw, **B)
    check_lengths(got, exp, mode_, [t])
    paths = nx.shortest_path(G, target=t, **kw, **B)
    assert paths.keys() == exp.keys()
    for v, p in paths.items():
        check_path(G, p, v, t, exp[v], weight, from_target=True)
    # both
    for a, b in [(s, t), (t, s), (s, s), (s, "isolated")]:
        e = outcome(nx.shortest_path_length, G, a, b, **kw, **NX)
        g = outcome(nx.shortest_path_length, G, a, b, **kw, **B)
        assert e[0] == g[0]
        if e[0] == "ok":
            assert g[1] == e[1] and same_type(g[1], e[1], mode_)
            check_path(G, nx.shortest_path(G, a, b, **kw, **B), a, b, e[1], weight)
        else:
            assert type(g[1]) is type(e[1]) and str(g[1]) == str(e[1])
            assert_same_error(nx.shortest_path, G, a, b, **kw)
    # all pairs: generators
    gen = nx.shortest_path_length(G, **kw, **B)
    assert inspect.isgenerator(gen)
    got = dict(gen)
    exp = dict(nx.shortest_path_length(G, **kw, **NX))
    assert got == exp
    for a, paths in nx.shortest_path(G, **kw, **B):
        assert paths.keys() == exp[a].keys()
        for b, p in paths.items():
            check_path(G, p, a, b, exp[a][b], weight)
    # errors
    for args in [("nope",), (None, "nope"), ("nope", s), (s, "nope")]:
        assert_same_error(nx.shortest_path_length, G, *args, **kw)
        assert_same_error(nx.shortest_path, G, *args, **kw)
    assert_same_error(nx.shortest_path, G, s, method="SPAM")
    assert_same_error(nx.shortest_path_length, G, s, method="SPAM")


def test_has_path():
    G = make_graph(nx.DiGraph, 30, 1.0, "int", 3)
    for s, t in itertools.islice(itertools.product(G, G), 0, None, 7):
        assert nx.has_path(G, s, t, **B) == nx.has_path(G, s, t, **NX)
    assert_same_error(nx.has_path, G, "nope", 0)
    assert_same_error(nx.has_path, G, 0, "nope")


# --------------------------------------------------------------------------------------------
# errors of the Dijkstra functions


@pytest.mark.parametrize("cls", CLASSES)
def test_dijkstra_errors(cls):
    G = make_graph(cls, 10, 1.5, "int", 0)
    for f in (
        nx.dijkstra_path,
        nx.dijkstra_path_length,
        nx.single_source_dijkstra_path,
        nx.single_source_dijkstra_path_length,
        nx.single_source_dijkstra,
        nx.bidirectional_dijkstra,
    ):
        assert_same_error(f, G, "nope", 0)
        assert_same_error(f, G, "nope", "nope")
    for f in (nx.dijkstra_path, nx.dijkstra_path_length, nx.bidirectional_dijkstra):
        assert_same_error(f, G, 0, "nope")
        assert_same_error(f, G, 0, "isolated")
    for f in (nx.multi_source_dijkstra_path, nx.multi_source_dijkstra_path_length, nx.multi_source_dijkstra):
        assert_same_error(f, G, [])
        assert_same_error(f, G, set())
        assert_same_error(f, G, [0, "nope"])
    assert_same_error(nx.multi_source_dijkstra, G, [0, 1], "isolated")
    assert nx.multi_source_dijkstra(G, [0, 1], 1, **B) == (0, [1])
    assert nx.single_source_dijkstra(G, 0, 0, **B) == (0, [0])
    assert nx.dijkstra_path_length(G, 0, 0, **B) == 0
    assert nx.bidirectional_dijkstra(G, 0, 0, **B) == (0, [0])


@pytest.mark.parametrize("cls", CLASSES)
def test_dijkstra_negative_weights_fall_back(cls):
    G = make_graph(cls, 10, 2.0, "int", 1)
    u, v = next(iter(G.edges()))
    G.add_edge(u, v, weight=-1)
    with pytest.raises(NotImplementedError):
        nx.single_source_dijkstra_path_length(G, u, **B)
    with pytest.raises(NotImplementedError):
        nx.all_pairs_dijkstra_path_length(G, **B)  # raised at the call, not when iterated
    with pytest.raises(NotImplementedError):
        nx.diameter(G, weight="weight", **B)
    # through the priority list, NetworkX runs the call itself
    with nx.config(backend_priority=["sssp"]):
        for f in (nx.single_source_dijkstra_path_length, nx.single_source_dijkstra):
            assert outcome(f, G, u)[0] == outcome(f, G, u, **NX)[0]
            if outcome(f, G, u, **NX)[0] == "ok":
                assert f(G, u) == f(G, u, **NX)


def test_weight_function_not_run():
    G = nx.path_graph(5)
    w = lambda u, v, d: 2  # noqa: E731
    assert sssp_nx.backend_interface.can_run("single_source_dijkstra", (G, 0), {"weight": w}) is not True
    with pytest.raises(NotImplementedError):
        nx.single_source_dijkstra_path_length(G, 0, weight=w, **B)
    with nx.config(backend_priority=["sssp"]):
        assert nx.single_source_dijkstra_path_length(G, 0, weight=w) == {i: 2 * i for i in range(5)}


@pytest.mark.parametrize(
    "bad",
    [float("nan"), float("inf"), "3", None, np.float32(1.5), 2**60],
    ids=["nan", "inf", "str", "None", "float32", "bigint"],
)
def test_unsupported_weights(bad):
    G = nx.path_graph(4)
    G.add_edge(1, 2, weight=bad)
    with pytest.raises(NotImplementedError):
        nx.single_source_dijkstra_path_length(G, 0, **B)
    with pytest.raises(NotImplementedError):
        nx.single_source_bellman_ford_path_length(G, 0, **B)
    # weight=None needs no weights at all
    assert nx.shortest_path_length(G, 0, **B) == {0: 0, 1: 1, 2: 2, 3: 3}


def test_numpy_weights():
    G = nx.path_graph(4)
    G.add_edge(0, 1, weight=np.int64(3))
    G.add_edge(1, 2, weight=np.float64(0.25))
    exp = nx.single_source_dijkstra_path_length(G, 0, **NX)
    got = nx.single_source_dijkstra_path_length(G, 0, **B)
    assert got == exp
    assert all(type(x) in (int, float) for x in got.values())  # no numpy scalars


# --------------------------------------------------------------------------------------------
# Bellman-Ford


def negative_dag_like(cls, n, seed):
    """Directed graph with negative weights and no negative cycle (weights shifted by node
    potentials)."""
    rng = random.Random(seed)
    G = cls()
    G.add_nodes_from(range(n))
    pot = [rng.randint(0, 20) for _ in range(n)]
    for _ in range(3 * n):
        u, v = rng.randrange(n), rng.randrange(n)
        if u != v:
            G.add_edge(u, v, weight=rng.randint(0, 10) + pot[u] - pot[v])
    G.add_node("isolated")
    return G


@pytest.mark.parametrize("cls", [nx.DiGraph, nx.MultiDiGraph])
@pytest.mark.parametrize("seed", range(4))
def test_bellman_ford_negative(cls, seed):
    G = negative_dag_like(cls, 25, seed)
    assert any(d["weight"] < 0 for *_, d in G.edges(data=True))
    for s in list(G)[:5]:
        exp = nx.single_source_bellman_ford_path_length(G, s, **NX)
        got = nx.single_source_bellman_ford_path_length(G, s, **B)
        assert got == exp
        assert all(type(got[k]) is type(exp[k]) for k in exp)
        dist, paths = nx.single_source_bellman_ford(G, s, **B)
        assert dist == exp
        for t, p in paths.items():
            check_path(G, p, s, t, exp[t])
        for t in list(G)[-4:]:
            e = outcome(nx.bellman_ford_path_length, G, s, t, **NX)
            g = outcome(nx.bellman_ford_path_length, G, s, t, **B)
            assert e[0] == g[0]
            if e[0] == "ok":
                assert g[1] == e[1]
                check_path(G, nx.bellman_ford_path(G, s, t, **B), s, t, e[1])
            else:
                assert type(g[1]) is type(e[1]) and str(g[1]) == str(e[1])
                assert_same_error(nx.single_source_bellman_ford, G, s, t)
        assert nx.shortest_path_length(G, s, weight="weight", method="bellman-ford", **B) == exp
    assert dict(nx.all_pairs_bellman_ford_path_length(G, **B)) == dict(
        nx.all_pairs_bellman_ford_path_length(G, **NX)
    )
    assert nx.negative_edge_cycle(G, **B) is False


@pytest.mark.parametrize("cls", CLASSES)
def test_negative_cycles(cls):
    G = cls()
    nx.add_cycle(G, range(5), weight=1)
    G.add_edge(1, 2, weight=-7)  # directed: a negative cycle; undirected: -7 both ways
    G.add_edge(10, 11, weight=1)
    for f in (
        nx.single_source_bellman_ford_path_length,
        nx.single_source_bellman_ford_path,
        nx.single_source_bellman_ford,
    ):
        assert_same_error(f, G, 0)
        assert f(G, 10, **B) == f(G, 10, **NX)  # the cycle is not reachable from 10
    assert_same_error(nx.bellman_ford_path_length, G, 0, 3)
    assert_same_error(nx.bellman_ford_path, G, 0, 3)
    assert nx.bellman_ford_path_length(G, 0, 0, **B) == 0
    assert nx.negative_edge_cycle(G, **B) is True
    assert nx.negative_edge_cycle(G, **NX) is True
    # all pairs: each source raises when its turn comes, as NetworkX's generator
    H = G.copy()
    H.remove_node(10)
    H.remove_node(11)
    order = [10, 11] + list(H)  # sources not reaching the cycle come first
    G2 = cls()
    G2.add_nodes_from(order)
    G2.add_edges_from(G.edges(data=True))
    assert consume(nx.all_pairs_bellman_ford_path_length(G2, **B)) == consume(
        nx.all_pairs_bellman_ford_path_length(G2, **NX)
    )
    assert consume(nx.all_pairs_bellman_ford_path(G2, **B))[1] == [10, 11]


def consume(gen):
    """(type of the exception that stopped it or None, the keys yielded before)."""
    keys = []
    try:
        for k, _ in gen:
            keys.append(k)
    except Exception as e:  # noqa: BLE001
        return (type(e), keys)
    return (None, keys)


def test_negative_self_loop():
    for cls in (nx.DiGraph, nx.MultiDiGraph):
        G = cls([(1, 1, {"weight": -1})])
        assert_same_error(nx.single_source_bellman_ford_path_length, G, 1)
        assert nx.negative_edge_cycle(G, **B) is True


def test_negative_edge_cycle_matches():
    for seed in range(6):
        G = nx.gnp_random_graph(15, 0.2, seed=seed, directed=True)
        rng = random.Random(seed)
        for u, v in G.edges():
            G[u][v]["weight"] = rng.uniform(-1, 9)
        assert nx.negative_edge_cycle(G, **B) == nx.negative_edge_cycle(G, **NX)
    assert nx.negative_edge_cycle(nx.DiGraph(), **B) is False


# --------------------------------------------------------------------------------------------
# diameter and radius


@pytest.mark.parametrize("cls", CLASSES)
@pytest.mark.parametrize("mode", ["int", "float", "none"])
@pytest.mark.parametrize("seed", range(3))
def test_diameter_radius(cls, mode, seed):
    rng = random.Random(seed)
    n = 25
    G = cls(nx.compose(nx.random_labeled_tree(n, seed=rng), nx.gnp_random_graph(n, 0.1, seed=seed)))
    if G.is_directed():
        G.add_edges_from([(v, u) for u, v in list(G.edges())])  # strongly connected
    for u, v, *k in list(G.edges(keys=True) if G.is_multigraph() else G.edges()):
        w = _weight(rng, mode)
        if w is not None:
            (G.edges[u, v, k[0]] if k else G.edges[u, v])["weight"] = w
    for weight in (None, "weight"):
        for usebounds in (False, True):
            for f in (nx.diameter, nx.radius):
                if usebounds and mode == "float" and weight and not G.is_directed():
                    # NetworkX's bounds carry float rounding (its radius may even loop forever
                    # on real weights): sssp leaves these calls to NetworkX
                    with pytest.raises(NotImplementedError):
                        f(G, weight=weight, usebounds=usebounds, **B)
                    continue
                e = f(G, weight=weight, usebounds=usebounds, **NX)
                g = f(G, weight=weight, usebounds=usebounds, **B)
                assert g == e and type(g) is type(e), (f, weight, usebounds, g, e)


@pytest.mark.parametrize("cls", CLASSES)
def test_diameter_errors(cls):
    G = cls([(1, 2), (3, 4)])
    for f in (nx.diameter, nx.radius):
        assert_same_error(f, G)
        assert_same_error(f, G, usebounds=True)
    G = nx.DiGraph([(1, 2), (1, 3)])
    assert_same_error(nx.diameter, G)
    assert nx.diameter(nx.path_graph(1), **B) == 0
    assert nx.radius(nx.path_graph(1), **B) == 0
    with nx.config(backend_priority=["sssp"]):  # not run by sssp: NetworkX's own error
        with pytest.raises(ValueError):
            nx.diameter(nx.Graph())
        assert nx.diameter(nx.path_graph(4), e={0: 3, 1: 2}) == 3


# --------------------------------------------------------------------------------------------
# conversion and caching


def test_conversion_cache():
    G = make_graph(nx.DiGraph, 50, 2.0, "float", 0)
    calls = []
    orig = sssp_nx._backend.convert_from_nx

    def counting(*args, **kwargs):
        calls.append(kwargs.get("edge_attrs"))
        return orig(*args, **kwargs)

    bi = sssp_nx.backend_interface
    bi.convert_from_nx = counting
    try:
        s = next(iter(G))
        a = nx.single_source_dijkstra_path_length(G, s, **B)
        b = nx.single_source_dijkstra_path_length(G, s, **B)
        nx.single_source_dijkstra(G, s, **B)
        assert a == b
        assert len(calls) == 1  # converted once, then taken from G.__networkx_cache__
        cached = G.__networkx_cache__["backends"]["sssp"]
        (sg,) = cached.values()
        assert isinstance(sg, sssp_nx.SsspGraph)
        assert len(sg._solvers) == 1  # one engine graph, reused
        nx.single_source_dijkstra_path_length(G, s, weight="other", **B)
        assert len(calls) == 2  # another weight attribute: another conversion
        # unweighted calls use any cached conversion (unit weights)
        assert nx.shortest_path_length(G, s, **B) == nx.shortest_path_length(G, s, **NX)
        assert len(calls) == 2
        # mutating through the graph API clears NetworkX's cache
        G.add_edge(s, "new", weight=0.5)
        assert nx.single_source_dijkstra_path_length(G, s, **B) == nx.single_source_dijkstra_path_length(
            G, s, **NX
        )
        assert len(calls) == 3
        # without caching: a conversion each call
        with nx.config(cache_converted_graphs=False):
            nx.single_source_dijkstra_path_length(G, s, **B)
            nx.single_source_dijkstra_path_length(G, s, **B)
        assert len(calls) == 5
    finally:
        del bi.convert_from_nx  # back to the class attribute


def test_convert_roundtrip():
    G = make_graph(nx.MultiDiGraph, 20, 2.0, "int", 0, labels="str")
    sg = sssp_nx.backend_interface.convert_from_nx(G, edge_attrs={"weight": 1})
    assert len(sg) == len(G) and sg.size() == G.size()
    H = sssp_nx.backend_interface.convert_to_nx(sg)
    assert type(H) is nx.MultiDiGraph
    assert list(H) == list(G)
    assert sorted((u, v, d.get("weight", 1)) for u, v, d in G.edges(data=True)) == sorted(
        H.edges(data="weight")
    )
    # a converted graph may be passed directly
    s = next(iter(G))
    assert nx.single_source_dijkstra_path_length(sg, s) == nx.single_source_dijkstra_path_length(G, s, **NX)


def test_backend_priority_dispatch():
    G = make_graph(nx.Graph, 20, 2.0, "int", 0)
    s = next(iter(G))
    assert "backends" not in G.__networkx_cache__
    with nx.config(backend_priority=["sssp"]):
        got = nx.single_source_dijkstra_path_length(G, s)
    assert "sssp" in G.__networkx_cache__["backends"]  # it ran on sssp
    assert got == nx.single_source_dijkstra_path_length(G, s, **NX)


def test_larger_graph():
    G = nx.gnm_random_graph(3000, 12000, seed=1, directed=True)
    rng = random.Random(1)
    for u, v in G.edges():
        G[u][v]["weight"] = rng.random()
    for s in (0, 17, 2999):
        check_lengths(
            nx.single_source_dijkstra_path_length(G, s, **B),
            nx.single_source_dijkstra_path_length(G, s, **NX),
            "float",
            [s],
        )


@pytest.mark.parametrize("cls", CLASSES)
def test_overflow_to_inf(cls):
    # 1e308 + 1e308 is inf in NetworkX's float64 sums: the node is still reached, at inf, as
    # has_path says; the nodes past it too, and a node with a finite path keeps its length.
    G = cls()
    G.add_edge(0, 1, weight=1e308)
    G.add_edge(1, 2, weight=1e308)
    G.add_edge(2, 3, weight=1.0)
    G.add_edge(0, 4, weight=1.5)
    G.add_edge(4, 6, weight=1e308)
    G.add_edge(6, 2, weight=1e308)
    G.add_node(5)
    for s in (0, 1):
        assert nx.single_source_dijkstra_path_length(G, s, **B) == nx.single_source_dijkstra_path_length(G, s, **NX)
        assert dict(nx.shortest_path_length(G, s, weight="weight", **B)) == dict(
            nx.shortest_path_length(G, s, weight="weight", **NX)
        )
        lengths, paths = nx.single_source_dijkstra(G, s, **B)
        want, _ = nx.single_source_dijkstra(G, s, **NX)
        assert lengths == want
        for t, p in paths.items():  # a path of the length given, to every node reached
            assert p[0] == s and p[-1] == t
            assert nx.path_weight(G, p, "weight") == lengths[t]
    assert nx.has_path(G, 0, 3, **B)
    assert nx.dijkstra_path_length(G, 0, 3, **B) == nx.dijkstra_path_length(G, 0, 3, **NX) == float("inf")
    assert nx.shortest_path_length(G, 0, 3, weight="weight", **B) == float("inf")
    assert nx.bidirectional_dijkstra(G, 0, 3, **B)[0] == float("inf")
    assert nx.multi_source_dijkstra_path_length(G, {0, 1}, **B) == nx.multi_source_dijkstra_path_length(G, {0, 1}, **NX)
    got = dict(nx.all_pairs_dijkstra_path_length(G, **B))
    assert got == dict(nx.all_pairs_dijkstra_path_length(G, **NX))
    with pytest.raises(nx.NetworkXNoPath):
        nx.dijkstra_path_length(G, 0, 5, **B)
    # NetworkX's Bellman-Ford compares `d + w < inf`: it leaves such nodes unreached
    bf = nx.single_source_bellman_ford_path_length(G, 0, **NX)
    assert 3 not in bf and nx.single_source_bellman_ford_path_length(G, 0, **B) == bf
