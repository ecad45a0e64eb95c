"""The NetworkX backend's every-shortest-path functions against NetworkX itself:
shortest_simple_paths, all_shortest_paths, dijkstra_predecessor_and_distance."""

import itertools
import random

import pytest

nx = pytest.importorskip("networkx")

import sssp.nx  # noqa: E402,F401


pytestmark = pytest.mark.usefixtures("quiet_nx_cache")

B = {"backend": "sssp"}
NX = {"backend": "networkx"}


def _random_graph(seed, directed, *, n=12, m=30, weights=(0, 1, 2, 3), multi=False, loops=False):
    rng = random.Random(seed)
    cls = {
        (False, False): nx.Graph,
        (True, False): nx.DiGraph,
        (False, True): nx.MultiGraph,
        (True, True): nx.MultiDiGraph,
    }[(directed, multi)]
    G = cls()
    G.add_nodes_from(range(n))
    for _ in range(m):
        u, v = rng.randrange(n), rng.randrange(n)
        if u == v and not loops:
            continue
        G.add_edge(u, v, weight=rng.choice(weights))
    return G


def _length(G, path, weight):
    if weight is None:
        return len(path) - 1
    return sum(G[u][v][weight] for u, v in zip(path, path[1:]))


CASES = [
    (seed, directed, weights)
    for seed in range(6)
    for directed in (False, True)
    for weights in ((1,), (0, 1, 2), (1, 2, 3), (0.5, 0.25, 1.5))
]


@pytest.mark.parametrize("seed,directed,weights", CASES)
def test_shortest_simple_paths(seed, directed, weights):
    G = _random_graph(seed, directed, n=9, m=20, weights=weights)
    for weight in (None, "weight"):
        for s, t in [(0, 8), (1, 7), (3, 3)]:
            try:
                want = list(itertools.islice(nx.shortest_simple_paths(G, s, t, weight=weight, **NX), 60))
            except nx.NetworkXNoPath:
                with pytest.raises(nx.NetworkXNoPath, match=f"No path between {s} and {t}."):
                    list(nx.shortest_simple_paths(G, s, t, weight=weight, **B))
                continue
            got = list(
                itertools.islice(nx.shortest_simple_paths(G, s, t, weight=weight, **B), 60)
            )
            assert [_length(G, p, weight) for p in got] == [_length(G, p, weight) for p in want]
            for p in got:
                assert p[0] == s and p[-1] == t and len(set(p)) == len(p)
                assert all(G.has_edge(u, v) for u, v in zip(p, p[1:]))
            assert len(set(map(tuple, got))) == len(got)
            # the paths of every length but the last one reached are the same sets
            if got:
                last = _length(G, got[-1], weight)
                sets = [
                    {tuple(p) for p in ps if _length(G, p, weight) != last} for ps in (got, want)
                ]
                assert sets[0] == sets[1]


def test_shortest_simple_paths_all_and_tie_rule():
    G = nx.grid_2d_graph(3, 3)
    want = list(nx.shortest_simple_paths(G, (0, 0), (2, 2), **NX))
    got = list(nx.shortest_simple_paths(G, (0, 0), (2, 2), **B))
    assert sorted(map(tuple, got)) == sorted(map(tuple, want))
    # equal lengths: fewer edges, then lexicographic in the nodes' positions in list(G)
    pos = {v: i for i, v in enumerate(G)}
    keys = [(len(p), [pos[v] for v in p]) for p in got]
    assert keys == sorted(keys)


def test_shortest_simple_paths_errors():
    G = nx.path_graph(4)
    G.add_node(9)
    with pytest.raises(nx.NodeNotFound, match="source node 7 not in graph"):
        list(nx.shortest_simple_paths(G, 7, 1, **B))
    with pytest.raises(nx.NodeNotFound, match="target node 7 not in graph"):
        list(nx.shortest_simple_paths(G, 1, 7, **B))
    with pytest.raises(nx.NetworkXNoPath, match="No path between 0 and 9."):
        list(nx.shortest_simple_paths(G, 0, 9, **B))
    with pytest.raises(nx.NetworkXNotImplemented):
        list(nx.shortest_simple_paths(nx.MultiGraph(G), 0, 3, **B))
    assert list(nx.shortest_simple_paths(G, 2, 2, **B)) == [[2]]
    # lazy, as NetworkX's generator: nothing raised until it is consumed
    nx.shortest_simple_paths(G, 7, 1, **B)


def _check_preds(G, pred, want_pred):
    assert pred.keys() == want_pred.keys()
    for v, ps in pred.items():
        assert sorted(ps, key=repr) == sorted(want_pred[v], key=repr)


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("multi", [False, True])
@pytest.mark.parametrize("weights", [(0, 1, 2, 3), (0.0, 0.5, 1.0, 2.5)])
def test_dijkstra_predecessor_and_distance(seed, directed, multi, weights):
    G = _random_graph(seed, directed, weights=weights, multi=multi, loops=True)
    for cutoff in (None, 3, 2.5, -1):
        want_pred, want_dist = nx.dijkstra_predecessor_and_distance(G, 0, cutoff=cutoff, **NX)
        pred, dist = nx.dijkstra_predecessor_and_distance(G, 0, cutoff=cutoff, **B)
        assert dist == want_dist
        assert [type(x) for x in dist.values()] == [type(want_dist[v]) for v in dist]
        _check_preds(G, pred, want_pred)
        for v, ps in pred.items():  # by increasing distance, as NetworkX
            assert [dist[u] for u in ps] == sorted(dist[u] for u in ps)


def test_predecessor_lists_exact():
    G = nx.path_graph(4)
    assert nx.dijkstra_predecessor_and_distance(G, 0, **B) == (
        {0: [], 1: [0], 2: [1], 3: [2]},
        {0: 0, 1: 1, 2: 2, 3: 3},
    )
    G = nx.DiGraph([(0, 1, {"weight": 1}), (1, 3, {"weight": 2}), (0, 2, {"weight": 2}), (2, 3, {"weight": 1})])
    G.add_edge(3, 3, weight=0)
    assert nx.dijkstra_predecessor_and_distance(G, 0, **B) == nx.dijkstra_predecessor_and_distance(G, 0, **NX)
    with pytest.raises(nx.NodeNotFound, match="Node 9 is not found in the graph"):
        nx.dijkstra_predecessor_and_distance(G, 9, **B)


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("directed", [False, True])
def test_all_shortest_paths(seed, directed):
    G = _random_graph(seed, directed, weights=(0, 1, 2), loops=True)
    for weight in (None, "weight"):
        for t in range(1, 12):
            try:
                want = sorted(nx.all_shortest_paths(G, 0, t, weight=weight, **NX))
            except nx.NetworkXNoPath:
                with pytest.raises(nx.NetworkXNoPath, match=f"Target {t} cannot be reached"):
                    list(nx.all_shortest_paths(G, 0, t, weight=weight, **B))
                continue
            got = list(nx.all_shortest_paths(G, 0, t, weight=weight, **B))
            assert sorted(got) == want and len(got) == len(want)


def test_all_shortest_paths_errors_and_fallback():
    G = nx.cycle_graph(4)
    with pytest.raises(ValueError, match="method not supported: SPAM"):
        nx.all_shortest_paths(G, 0, 2, weight="weight", method="SPAM", **B)
    with pytest.raises(nx.NodeNotFound, match="Source 9 not in G"):
        nx.all_shortest_paths(G, 9, 2, **B)
    with pytest.raises(nx.NodeNotFound, match="Node 9 is not found in the graph"):
        nx.all_shortest_paths(G, 9, 2, weight="weight", **B)
    assert sorted(nx.all_shortest_paths(G, 0, 2, **B)) == [[0, 1, 2], [0, 3, 2]]


def test_fallback_to_networkx():
    """Negative weights and weight functions: refused at the call, NetworkX runs them."""
    H = nx.DiGraph([(0, 1, {"weight": -1}), (1, 2, {"weight": 1}), (0, 2, {"weight": 0})])
    for f, args in [
        (nx.shortest_simple_paths, (H, 0, 2)),
        (nx.all_shortest_paths, (H, 0, 2)),
        (nx.dijkstra_predecessor_and_distance, (H, 0)),
    ]:
        with pytest.raises(NotImplementedError):
            f(*args, weight="weight", **B)
    w = lambda u, v, d: 1  # noqa: E731
    with nx.config(backend_priority=["sssp"]):
        assert sorted(nx.all_shortest_paths(H, 0, 2, weight="weight")) == [[0, 1, 2], [0, 2]]
        assert list(nx.shortest_simple_paths(H, 0, 2, weight=w)) == [[0, 2], [0, 1, 2]]


needs_all_pairs = pytest.mark.skipif(
    not hasattr(nx, "all_pairs_all_shortest_paths"), reason="NetworkX without all_pairs_all_shortest_paths"
)


@needs_all_pairs
@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("weights", [(1,), (0, 1, 2), (0.5, 0.25, 1.5)])
def test_all_pairs_all_shortest_paths(seed, directed, weights):
    """Ties (small weights, zero weights, self loops): the same sources in the same order, the
    same targets, the same paths to each (as sorted lists: equal paths' order is free)."""
    G = _random_graph(seed, directed, weights=weights, loops=True)
    for weight in (None, "weight"):
        want = list(nx.all_pairs_all_shortest_paths(G, weight=weight, **NX))
        got = list(nx.all_pairs_all_shortest_paths(G, weight=weight, **B))
        assert [n for n, _ in got] == [n for n, _ in want] == list(G)
        for (_, g), (_, w) in zip(got, want):
            assert {t: sorted(p) for t, p in g.items()} == {t: sorted(p) for t, p in w.items()}
            assert sum(len(p) for p in g.values()) == sum(len(p) for p in w.values())


@needs_all_pairs
def test_all_pairs_all_shortest_paths_errors_and_fallback():
    G = nx.cycle_graph(4)
    with pytest.raises(ValueError, match="method not supported: SPAM"):
        list(nx.all_pairs_all_shortest_paths(G, weight="weight", method="SPAM", **B))
    H = nx.DiGraph([(0, 1, {"weight": -1}), (1, 2, {"weight": 1}), (0, 2, {"weight": 0})])
    with pytest.raises(NotImplementedError):
        nx.all_pairs_all_shortest_paths(H, weight="weight", **B)
    want = dict(nx.all_pairs_all_shortest_paths(H, weight="weight", **NX))
    with nx.config(backend_priority=["sssp"]):
        got = dict(nx.all_pairs_all_shortest_paths(H, weight="weight"))
    assert sorted(got[0][2]) == sorted(want[0][2]) == [[0, 1, 2], [0, 2]]
