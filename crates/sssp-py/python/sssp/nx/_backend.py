"""The "sssp" NetworkX backend: conversion and the dispatchable functions.

Conventions (each one checked against NetworkX 3.6's own code):

* Checks, their order, exception types and messages follow the NetworkX function.
* Distances equal NetworkX's: the engine computes float64 ``d[u] + w`` exactly as NetworkX's
  Python does. Integer weights give ``int`` results (as NetworkX's sums of ints); the
  distance of a source is the ``int`` 0 as in NetworkX.
* Dicts of lengths and paths: sources first, then nodes by increasing distance (NetworkX's
  Dijkstra order; nodes at equal distance may come in another order).
* Sums past the largest float64 are inf, as NetworkX's Dijkstra computes them: a node whose
  every path overflows is reached, at length inf (scipy and the engine leave it unreached;
  ``_mark_overflowed`` tells the two apart). NetworkX's Bellman-Ford does leave it unreached.
* Paths: one shortest path per node; where several are equally short it may differ from
  NetworkX's choice.
* Anything that cannot be answered exactly raises ``NotImplementedError`` (NetworkX then runs
  its own code when it falls back or tries the next backend): weight functions (``can_run``
  says no), weights that are not ints or float64 (or ints too large for exact float64 sums),
  NaN/inf weights, and negative weights for the Dijkstra functions.
"""

from __future__ import annotations

import inspect
import itertools
import math
import re

import networkx as nx
import numpy as np

import sssp

from ._info import FUNCTIONS

__all__ = ["BackendInterface", "SsspGraph", "backend_interface", "convert_from_nx", "convert_to_nx"]

_NO_PRED = -9999
# Integer weights whose absolute values sum to at most this give exact float64 path sums.
_EXACT_INT_SUM = 2**52
_NEGATIVE_MSG = (
    "sssp does not run NetworkX's Dijkstra functions on negative weights (NetworkX's answer "
    "then depends on its heap order); use the Bellman-Ford functions"
)
_NX_VERSION = tuple(int(re.match(r"\d*", x).group() or 0) for x in nx.__version__.split(".")[:2])


def _device():
    return _config("device", "auto")


def _config(key, default):
    try:
        return nx.config.backends.sssp[key]
    except (AttributeError, KeyError, TypeError):
        return default


class _Weights:
    """One edge attribute's weights: float64 values (exact), "int" when every weight is an
    integer (results are then ints), whether any is negative, and why sssp cannot run them
    (None when it can)."""

    __slots__ = ("values", "kind", "negative", "problem", "overflow")

    def __init__(self, values, kind, negative, problem, overflow=False):
        self.values = values
        self.kind = kind
        self.negative = negative
        self.problem = problem
        # Whether a path's float64 sum may pass the largest float64 (and be inf in NetworkX's
        # Dijkstra, which still reaches the node): the weights' absolute sum, with room for
        # rounding, is not finite.
        self.overflow = overflow


_UNIT = _Weights(None, "int", False, None)

# The engine's marker, in a distance array, of a node NetworkX's Dijkstra reaches at a length
# that overflowed to inf (the engine, as scipy, leaves such nodes unreached): -inf, which no
# shortest distance can be otherwise. `_length` reads it back as inf.
_OVERFLOWED = -np.inf


def _analyse_weights(ws):
    """_Weights of a list of NetworkX edge-attribute values."""
    if not ws:
        return _Weights(np.empty(0), "int", False, None)
    types = set(map(type, ws))
    bad = [t for t in types if not issubclass(t, (int, float, np.integer)) or issubclass(t, np.bool_)]
    if bad:
        return _Weights(None, "float", False, f"edge weights of type {bad[0].__name__!r}")
    has_float = any(issubclass(t, float) for t in types)
    if has_float:
        ints = [w for w in ws if not isinstance(w, float)]
    else:
        ints = ws
    if ints:
        try:
            a = np.abs(np.array(ints, dtype=np.int64))
        except OverflowError:
            a = None
        if a is None or a.max() > _EXACT_INT_SUM or float(a.sum(dtype=np.float64)) > _EXACT_INT_SUM:
            return _Weights(None, "float", False, "integer weights too large for exact float64 sums")
    try:
        values = np.array(ws, dtype=np.float64)
    except (OverflowError, TypeError, ValueError) as e:  # pragma: no cover - guarded above
        return _Weights(None, "float", False, f"edge weights not convertible to float64: {e}")
    if not np.isfinite(values).all():
        return _Weights(None, "float", False, "NaN or infinite edge weights")
    with np.errstate(over="ignore"):  # an inf sum is the answer sought, not a problem
        overflow = has_float and not np.isfinite(np.abs(values).sum() * 4)
    return _Weights(values, "float" if has_float else "int", bool((values < 0).any()), None, overflow)


class SsspGraph:
    """A NetworkX graph converted for the sssp backend: its nodes (ids 0..n-1 in the order of
    ``list(G)``), its edges (one per undirected edge, one per parallel edge of a multigraph)
    and the weights of the converted edge attributes. The engine's graphs (``sssp.Graph``) are
    built on first use, one per weight attribute (and one reversed, for directed targets)."""

    __networkx_backend__ = "sssp"

    def __init__(self, nodes, directed, multigraph, tails, heads, weights, graph=None):
        self._nodes = nodes
        self._index = {v: i for i, v in enumerate(nodes)}
        self._directed = bool(directed)
        self._multigraph = bool(multigraph)
        self._tails = tails
        self._heads = heads
        self._weights = weights  # {attr: _Weights}
        self.graph = {} if graph is None else graph
        self._solvers = {}
        self._extremes = {}

    # the bits of NetworkX's graph API the functions use
    def __len__(self):
        return len(self._nodes)

    def __iter__(self):
        return iter(self._nodes)

    def __contains__(self, n):
        try:
            return n in self._index
        except TypeError:
            return False

    def number_of_nodes(self):
        return len(self._nodes)

    order = number_of_nodes

    def size(self):
        return int(self._tails.shape[0])

    def number_of_edges(self):
        return self.size()

    def is_directed(self):
        return self._directed

    def is_multigraph(self):
        return self._multigraph

    def __repr__(self):
        kind = ("Multi" if self._multigraph else "") + ("DiGraph" if self._directed else "Graph")
        return (
            f"<sssp backend graph: {kind} with {len(self)} nodes, {self.size()} edges, "
            f"weights {sorted(map(repr, self._weights))}>"
        )

    def weights(self, weight):
        """The _Weights of edge attribute ``weight`` (None: every weight 1)."""
        if weight is None:
            return _UNIT
        try:
            return self._weights[weight]
        except KeyError:
            raise NotImplementedError(
                f"edge attribute {weight!r} was not converted to this sssp graph"
            ) from None

    def solver(self, weight, reverse=False):
        """The sssp.Graph of this graph with weights ``weight`` (reversed if asked)."""
        reverse = bool(reverse) and self._directed
        key = (weight, reverse)
        g = self._solvers.get(key)
        if g is None:
            w = self.weights(weight)
            tails, heads = (self._heads, self._tails) if reverse else (self._tails, self._heads)
            g = sssp.Graph.from_edges(
                len(self._nodes), tails, heads, w.values, directed=self._directed, device=_device()
            )
            self._solvers[key] = g
        return g

    def extremes(self, weight):
        """(diameter, radius) with weights ``weight``: floats, inf when not strongly connected."""
        got = self._extremes.get(weight)
        if got is None:
            got = tuple(float(x) for x in self.solver(weight).extremes())
            self._extremes[weight] = got
        return got


def convert_from_nx(
    G,
    edge_attrs=None,
    node_attrs=None,
    preserve_edge_attrs=False,
    preserve_node_attrs=False,
    preserve_graph_attrs=False,
    name=None,
    graph_name=None,
):
    """NetworkX graph -> SsspGraph. ``edge_attrs``: {attribute: default} to convert (the
    dispatcher passes ``{weight: 1}``, or None for unweighted calls). Node attributes are not
    needed by any function here and are not converted."""
    if isinstance(G, SsspGraph):
        return G
    nodes = list(G)
    index = {v: i for i, v in enumerate(nodes)}
    # {weight: 1} from the dispatcher; None for unweighted calls (and for weight functions,
    # which can_run refuses before any conversion)
    attrs = dict(edge_attrs) if edge_attrs else {}
    weights = {}
    if len(attrs) == 1:
        ((attr, default),) = attrs.items()
        edges = list(G.edges(data=attr, default=default))
        us = [e[0] for e in edges]
        vs = [e[1] for e in edges]
        weights[attr] = _analyse_weights([e[2] for e in edges])
    else:
        if attrs:
            edges = list(G.edges(data=True))
            for attr, default in attrs.items():
                weights[attr] = _analyse_weights([e[2].get(attr, default) for e in edges])
        else:
            edges = list(G.edges())
        us = [e[0] for e in edges]
        vs = [e[1] for e in edges]
    get = index.__getitem__
    tails = np.fromiter(map(get, us), dtype=np.int64, count=len(us))
    heads = np.fromiter(map(get, vs), dtype=np.int64, count=len(vs))
    graph = dict(G.graph) if preserve_graph_attrs else None
    return SsspGraph(nodes, G.is_directed(), G.is_multigraph(), tails, heads, weights, graph)


def convert_to_nx(obj, *, name=None):
    """Results are already NetworkX's types; an SsspGraph becomes a NetworkX graph again
    (its nodes, edges and converted weight attributes)."""
    if not isinstance(obj, SsspGraph):
        return obj
    cls = {
        (False, False): nx.Graph,
        (True, False): nx.DiGraph,
        (False, True): nx.MultiGraph,
        (True, True): nx.MultiDiGraph,
    }[(obj._directed, obj._multigraph)]
    G = cls()
    G.graph.update(obj.graph)
    G.add_nodes_from(obj._nodes)
    nodes = obj._nodes
    cols = {}
    for attr, w in obj._weights.items():
        if w.values is not None:
            cols[attr] = w.values.astype(np.int64).tolist() if w.kind == "int" else w.values.tolist()
    for k, (u, v) in enumerate(zip(obj._tails.tolist(), obj._heads.tolist())):
        G.add_edge(nodes[u], nodes[v], **{a: c[k] for a, c in cols.items()})
    return G


# --------------------------------------------------------------------------------------------
# helpers


def _dijkstra_weights(G, weight):
    w = G.weights(weight)
    if w.problem:
        raise NotImplementedError(f"sssp cannot run {w.problem} exactly")
    if w.negative:
        raise NotImplementedError(_NEGATIVE_MSG)
    return w


def _any_weights(G, weight):
    w = G.weights(weight)
    if w.problem:
        raise NotImplementedError(f"sssp cannot run {w.problem} exactly")
    return w


def _limit(cutoff):
    """The engine's inclusive limit for NetworkX's ``cutoff`` (keep ``d <= cutoff``); None when
    only the sources are within it (a negative cutoff)."""
    if cutoff is None:
        return np.inf
    if isinstance(cutoff, (bool, np.bool_)):
        cutoff = int(cutoff)
    if isinstance(cutoff, (int, np.integer)):
        if abs(int(cutoff)) > 2**53:
            raise NotImplementedError("an integer cutoff beyond 2**53")
        c = float(cutoff)
    elif isinstance(cutoff, float):  # float and np.float64
        c = float(cutoff)
    else:
        raise NotImplementedError(f"cutoff of type {type(cutoff).__name__!r}")
    if math.isnan(c):  # NetworkX: `d > nan` is never true, so nothing is cut
        return np.inf
    if c < 0:
        return None
    return c


def _source_ids(G, sources):
    """Ids of ``sources`` in iteration order, duplicates dropped."""
    return list(dict.fromkeys(G._index[s] for s in sources))


def _solve(G, weight, source_ids, limit, *, preds, reverse=False, overflow=False):
    """(dist, pred) float64 / int32 arrays over the nodes from all ``source_ids`` at once (pred
    None without ``preds``); a negative cycle raises NetworkXUnbounded. ``overflow`` (Dijkstra
    on weights whose sums may overflow): nodes reached only at a length past the largest
    float64 hold ``_OVERFLOWED``, as NetworkX's Dijkstra reaches them at inf."""
    dist, pred = _solve_engine(G, weight, source_ids, limit, preds=preds, reverse=reverse)
    if overflow and limit == np.inf:
        _mark_overflowed(G, source_ids, reverse, dist, pred)
    return dist, pred


def _mark_overflowed(G, source_ids, reverse, dist, pred):
    """Marks the nodes the unweighted graph reaches and the weighted solve does not: every
    path to them sums to inf (the float64 solve's distance bounds each path's sum), so
    NetworkX's Dijkstra reaches them at inf. Their predecessors are the unweighted search's,
    which lead back to the weighted tree or to a source: a path of length inf."""
    unit = G.solver(None, reverse)
    if len(source_ids) == 1:
        d, p = unit.shortest_paths(source_ids[0])
    else:
        d, p, _ = unit.nearest(source_ids)
    late = np.isinf(dist) & np.isfinite(d)
    dist[late] = _OVERFLOWED
    if pred is not None:
        pred[late] = p[late]


def _solve_engine(G, weight, source_ids, limit, *, preds, reverse=False):
    n = len(G)
    if limit is None:
        dist = np.full(n, np.inf)
        dist[source_ids] = 0.0
        return dist, (np.full(n, _NO_PRED, dtype=np.int32) if preds else None)
    g = G.solver(weight, reverse)
    try:
        if len(source_ids) == 1:
            if preds:
                return g.shortest_paths(source_ids[0], limit)
            return g.distances(source_ids[0], limit), None
        dist, pred, _ = g.nearest(source_ids, limit)
        return dist, pred
    except sssp.NegativeCycleError:
        raise nx.NetworkXUnbounded("Negative cycle detected.") from None


def _value(w, x):
    if x == _OVERFLOWED:
        return math.inf
    return int(x) if w.kind == "int" else float(x)


def _lengths(G, w, dist, source_ids):
    """(dict node -> length, ids of the other reached nodes in the dict's order)."""
    nodes = G._nodes
    reached = dist != np.inf
    reached[source_ids] = False
    ids = np.flatnonzero(reached)
    vals = dist[ids]
    vals = np.where(vals == _OVERFLOWED, np.inf, vals)  # reached at inf: last, as inf
    order = np.argsort(vals, kind="stable")
    ids, vals = ids[order], vals[order]
    vals = vals.astype(np.int64).tolist() if w.kind == "int" else vals.tolist()
    ids = ids.tolist()
    out = dict.fromkeys([nodes[s] for s in source_ids], 0)
    out.update(zip(map(nodes.__getitem__, ids), vals))
    return out, ids


def _paths(G, pred, source_ids, ids, reverse_paths=False):
    """dict node -> path (list of nodes) for the sources and ``ids``, in that order."""
    nodes = G._nodes
    pred = pred.tolist()
    built = {s: [nodes[s]] for s in source_ids}
    n = len(nodes)
    for i in ids:
        if i in built:
            continue
        chain = []
        j = i
        while j not in built:
            chain.append(j)
            j = pred[j]
            if j == _NO_PRED or len(chain) > n:
                raise RuntimeError("sssp returned an inconsistent predecessor tree")
        p = built[j]
        for k in reversed(chain):
            p = p + [nodes[k]]
            built[k] = p
    if reverse_paths:
        return {nodes[i]: built[i][::-1] for i in itertools.chain(source_ids, ids)}
    return {nodes[i]: built[i] for i in itertools.chain(source_ids, ids)}


def _walk(G, pred, t):
    nodes = G._nodes
    path = [t]
    p = int(pred[t])
    while p != _NO_PRED:
        path.append(p)
        if len(path) > len(nodes):
            raise RuntimeError("sssp returned an inconsistent predecessor tree")
        p = int(pred[p])
    path.reverse()
    return [nodes[i] for i in path]


def _chunks(G):
    n = len(G)
    size = max(1, int(_config("chunk_size", 64)))
    for lo in range(0, n, size):
        yield list(range(lo, min(n, lo + size)))


# --------------------------------------------------------------------------------------------
# Dijkstra


def multi_source_dijkstra_path_length(G, sources, cutoff=None, weight="weight"):
    if not sources:
        raise ValueError("sources must not be empty")
    for s in sources:
        if s not in G:
            raise nx.NodeNotFound(f"Node {s} not found in graph")
    w = _dijkstra_weights(G, weight)
    src = _source_ids(G, sources)
    if not src:  # an iterator, exhausted by the checks (as in NetworkX)
        return {}
    dist, _ = _solve(G, weight, src, _limit(cutoff), preds=False, overflow=w.overflow)
    return _lengths(G, w, dist, src)[0]


def multi_source_dijkstra(G, sources, target=None, cutoff=None, weight="weight"):
    if not sources:
        raise ValueError("sources must not be empty")
    for s in sources:
        if s not in G:
            raise nx.NodeNotFound(f"Node {s} not found in graph")
    if target in sources:
        return (0, [target])
    w = _dijkstra_weights(G, weight)
    src = _source_ids(G, sources)
    limit = _limit(cutoff)
    if target is None:
        if not src:
            return ({}, {})
        dist, pred = _solve(G, weight, src, limit, preds=True, overflow=w.overflow)
        lengths, ids = _lengths(G, w, dist, src)
        return (lengths, _paths(G, pred, src, ids))
    t = G._index.get(target)
    if t is None or not src:
        raise nx.NetworkXNoPath(f"No path to {target}.")
    dist, pred = _solve(G, weight, src, limit, preds=True, overflow=w.overflow)
    if dist[t] == np.inf:
        raise nx.NetworkXNoPath(f"No path to {target}.")
    return (_value(w, dist[t]), _walk(G, pred, t))


def multi_source_dijkstra_path(G, sources, cutoff=None, weight="weight"):
    length, path = multi_source_dijkstra(G, sources, cutoff=cutoff, weight=weight)
    return path


def single_source_dijkstra(G, source, target=None, cutoff=None, weight="weight"):
    return multi_source_dijkstra(G, {source}, cutoff=cutoff, target=target, weight=weight)


def single_source_dijkstra_path(G, source, cutoff=None, weight="weight"):
    return multi_source_dijkstra_path(G, {source}, cutoff=cutoff, weight=weight)


def single_source_dijkstra_path_length(G, source, cutoff=None, weight="weight"):
    return multi_source_dijkstra_path_length(G, {source}, cutoff=cutoff, weight=weight)


def dijkstra_path(G, source, target, weight="weight"):
    (length, path) = single_source_dijkstra(G, source, target=target, weight=weight)
    return path


def dijkstra_path_length(G, source, target, weight="weight"):
    if source not in G:
        raise nx.NodeNotFound(f"Node {source} not found in graph")
    if source == target:
        return 0
    w = _dijkstra_weights(G, weight)
    t = G._index.get(target)
    if t is None:
        raise nx.NetworkXNoPath(f"Node {target} not reachable from {source}")
    dist, _ = _solve(G, weight, [G._index[source]], np.inf, preds=False, overflow=w.overflow)
    if dist[t] == np.inf:
        raise nx.NetworkXNoPath(f"Node {target} not reachable from {source}")
    return _value(w, dist[t])


def bidirectional_dijkstra(G, source, target, weight="weight"):
    if source not in G:
        raise nx.NodeNotFound(f"Source {source} is not in G")
    if target not in G:
        raise nx.NodeNotFound(f"Target {target} is not in G")
    if source == target:
        return (0, [source])
    w = _dijkstra_weights(G, weight)
    t = G._index[target]
    dist, pred = _solve(G, weight, [G._index[source]], np.inf, preds=True, overflow=w.overflow)
    if dist[t] == np.inf:
        raise nx.NetworkXNoPath(f"No path between {source} and {target}.")
    return (_value(w, dist[t]), _walk(G, pred, t))


def _all_pairs(G, w, weight, limit, *, lengths, paths, reverse=False):
    """Yield (node, lengths dict and/or paths dict) for each node, solving chunks of sources."""
    nodes = G._nodes
    for chunk in _chunks(G):
        if w.overflow and limit == np.inf:
            # the overflow marks come from _solve, one source at a time
            for s in chunk:
                dist, pred = _solve(G, weight, [s], limit, preds=paths, reverse=reverse, overflow=True)
                d, ids = _lengths(G, w, dist, [s])
                p = _paths(G, pred, [s], ids) if paths else None
                yield (nodes[s], (d, p) if lengths and paths else (p if paths else d))
            continue
        if limit is None:
            dist = np.full((len(chunk), len(G)), np.inf)
            dist[np.arange(len(chunk)), chunk] = 0.0
            pred = np.full(dist.shape, _NO_PRED, dtype=np.int32)
        elif paths:
            dist, pred = G.solver(weight, reverse).shortest_paths(chunk, limit)
        else:
            dist, pred = G.solver(weight, reverse).distances(chunk, limit), None
        for row, s in enumerate(chunk):
            d, ids = _lengths(G, w, dist[row], [s])
            if paths:
                p = _paths(G, pred[row], [s], ids)
                yield (nodes[s], (d, p) if lengths else p)
            else:
                yield (nodes[s], d)


def all_pairs_dijkstra_path_length(G, cutoff=None, weight="weight"):
    w = _dijkstra_weights(G, weight)
    return _all_pairs(G, w, weight, _limit(cutoff), lengths=True, paths=False)


def all_pairs_dijkstra_path(G, cutoff=None, weight="weight"):
    w = _dijkstra_weights(G, weight)
    return _all_pairs(G, w, weight, _limit(cutoff), lengths=False, paths=True)


def all_pairs_dijkstra(G, cutoff=None, weight="weight"):
    w = _dijkstra_weights(G, weight)
    return _all_pairs(G, w, weight, _limit(cutoff), lengths=True, paths=True)


# --------------------------------------------------------------------------------------------
# Bellman-Ford


def _bf_solve(G, weight, source, *, preds, reverse=False):
    if source not in G:
        raise nx.NodeNotFound(f"Source {source} not in G")
    w = _any_weights(G, weight)
    dist, pred = _solve(G, weight, [G._index[source]], np.inf, preds=preds, reverse=reverse)
    return w, dist, pred


def bellman_ford_path_length(G, source, target, weight="weight"):
    if source == target:
        if source not in G:
            raise nx.NodeNotFound(f"Node {source} not found in graph")
        return 0
    w, dist, _ = _bf_solve(G, weight, source, preds=False)
    t = G._index.get(target)
    if t is None or dist[t] == np.inf:
        raise nx.NetworkXNoPath(f"node {target} not reachable from {source}")
    return _value(w, dist[t])


def single_source_bellman_ford_path_length(G, source, weight="weight"):
    w, dist, _ = _bf_solve(G, weight, source, preds=False)
    return _lengths(G, w, dist, [G._index[source]])[0]


def single_source_bellman_ford(G, source, target=None, weight="weight"):
    if source == target:
        if source not in G:
            raise nx.NodeNotFound(f"Node {source} is not found in the graph")
        return (0, [source])
    w, dist, pred = _bf_solve(G, weight, source, preds=True)
    s = G._index[source]
    if target is None:
        lengths, ids = _lengths(G, w, dist, [s])
        return (lengths, _paths(G, pred, [s], ids))
    t = G._index.get(target)
    if t is None or dist[t] == np.inf:
        raise nx.NetworkXNoPath(f"Target {target} cannot be reached from given sources")
    return (_value(w, dist[t]), _walk(G, pred, t))


def single_source_bellman_ford_path(G, source, weight="weight"):
    (length, path) = single_source_bellman_ford(G, source, weight=weight)
    return path


def bellman_ford_path(G, source, target, weight="weight"):
    length, path = single_source_bellman_ford(G, source, target=target, weight=weight)
    return path


def _all_pairs_bf(G, w, weight, *, paths):
    """As NetworkX's generators: a source reaching a negative cycle raises NetworkXUnbounded
    when its turn comes, after the sources before it were yielded."""
    for chunk in _chunks(G):
        try:
            if paths:
                dist, pred = G.solver(weight).shortest_paths(chunk)
            else:
                dist, pred = G.solver(weight).distances(chunk), None
        except sssp.NegativeCycleError:
            dist = None
        if dist is None:  # some source of this chunk reaches a negative cycle: one by one
            for s in chunk:
                d, p = _solve(G, weight, [s], np.inf, preds=paths)
                lengths, ids = _lengths(G, w, d, [s])
                yield (G._nodes[s], _paths(G, p, [s], ids) if paths else lengths)
            continue
        for row, s in enumerate(chunk):
            lengths, ids = _lengths(G, w, dist[row], [s])
            yield (G._nodes[s], _paths(G, pred[row], [s], ids) if paths else lengths)


def all_pairs_bellman_ford_path_length(G, weight="weight"):
    w = _any_weights(G, weight)
    return _all_pairs_bf(G, w, weight, paths=False)


def all_pairs_bellman_ford_path(G, weight="weight"):
    w = _any_weights(G, weight)
    return _all_pairs_bf(G, w, weight, paths=True)


def negative_edge_cycle(G, weight="weight", heuristic=True):
    if G.size() == 0:
        return False
    w = _any_weights(G, weight)
    if not w.negative:
        return False
    try:
        G.solver(weight).nearest(list(range(len(G))))
    except sssp.NegativeCycleError:
        return True
    return False


# --------------------------------------------------------------------------------------------
# generic: shortest_path, shortest_path_length, has_path


def _unweighted_lengths(G, source, *, reverse=False):
    if source not in G:
        raise nx.NodeNotFound(f"Source {source} is not in G")
    s = G._index[source]
    dist, _ = _solve(G, None, [s], np.inf, preds=False, reverse=reverse)
    return _lengths(G, _UNIT, dist, [s])[0]


def _unweighted_paths(G, source, *, reverse=False):
    if source not in G:
        raise nx.NodeNotFound(f"Source {source} not in G")
    s = G._index[source]
    dist, pred = _solve(G, None, [s], np.inf, preds=True, reverse=reverse)
    _, ids = _lengths(G, _UNIT, dist, [s])
    return _paths(G, pred, [s], ids)


def _unweighted_st_path(G, source, target):
    """NetworkX's bidirectional_shortest_path."""
    if source not in G:
        raise nx.NodeNotFound(f"Source {source} is not in G")
    if target not in G:
        raise nx.NodeNotFound(f"Target {target} is not in G")
    if source == target:
        return [source]
    t = G._index[target]
    dist, pred = _solve(G, None, [G._index[source]], np.inf, preds=True)
    if dist[t] == np.inf:
        raise nx.NetworkXNoPath(f"No path between {source} and {target}.")
    return _walk(G, pred, t)


def _dijkstra_lengths(G, source, weight, *, reverse=False):
    """single_source_dijkstra_path_length, on the reversed graph if asked."""
    if source not in G:
        raise nx.NodeNotFound(f"Node {source} not found in graph")
    w = _dijkstra_weights(G, weight)
    s = G._index[source]
    dist, _ = _solve(G, weight, [s], np.inf, preds=False, reverse=reverse, overflow=w.overflow)
    return _lengths(G, w, dist, [s])[0]


def _dijkstra_paths(G, source, weight, *, reverse=False):
    if source not in G:
        raise nx.NodeNotFound(f"Node {source} not found in graph")
    w = _dijkstra_weights(G, weight)
    s = G._index[source]
    dist, pred = _solve(G, weight, [s], np.inf, preds=True, reverse=reverse, overflow=w.overflow)
    _, ids = _lengths(G, w, dist, [s])
    return _paths(G, pred, [s], ids, reverse_paths=reverse)


def _bf_lengths(G, source, weight, *, reverse=False):
    w, dist, _ = _bf_solve(G, weight, source, preds=False, reverse=reverse)
    return _lengths(G, w, dist, [G._index[source]])[0]


def _bf_paths(G, source, weight, *, reverse=False):
    w, dist, pred = _bf_solve(G, weight, source, preds=True, reverse=reverse)
    s = G._index[source]
    _, ids = _lengths(G, w, dist, [s])
    return _paths(G, pred, [s], ids, reverse_paths=reverse)


def shortest_path(G, source=None, target=None, weight=None, method="dijkstra"):
    if method not in ("dijkstra", "bellman-ford"):
        raise ValueError(f"method not supported: {method}")
    method = "unweighted" if weight is None else method
    if source is None:
        if target is None:
            if method == "unweighted":
                return _all_pairs(G, _UNIT, None, np.inf, lengths=False, paths=True)
            if method == "dijkstra":
                return all_pairs_dijkstra_path(G, weight=weight)
            return all_pairs_bellman_ford_path(G, weight=weight)
        # paths from every node that reaches the target: from the target on the reversed graph
        if target not in G:  # NetworkX's messages differ by method
            found = "Node {} not found in graph" if method == "dijkstra" else "Source {} not in G"
            raise nx.NodeNotFound(found.format(target))
        if method == "unweighted":
            weight, w = None, _UNIT
        else:
            w = _dijkstra_weights(G, weight) if method == "dijkstra" else _any_weights(G, weight)
        t = G._index[target]
        dist, pred = _solve(G, weight, [t], np.inf, preds=True, reverse=G.is_directed(), overflow=w.overflow and method == "dijkstra")
        _, ids = _lengths(G, w, dist, [t])
        return _paths(G, pred, [t], ids, reverse_paths=True)
    if target is None:
        if method == "unweighted":
            return _unweighted_paths(G, source)
        if method == "dijkstra":
            return _dijkstra_paths(G, source, weight)
        return _bf_paths(G, source, weight)
    if method == "unweighted":
        return _unweighted_st_path(G, source, target)
    if method == "dijkstra":
        return bidirectional_dijkstra(G, source, target, weight)[1]
    return bellman_ford_path(G, source, target, weight)


def shortest_path_length(G, source=None, target=None, weight=None, method="dijkstra"):
    if method not in ("dijkstra", "bellman-ford"):
        raise ValueError(f"method not supported: {method}")
    method = "unweighted" if weight is None else method
    if source is None:
        if target is None:
            if method == "unweighted":
                return _all_pairs(G, _UNIT, None, np.inf, lengths=True, paths=False)
            if method == "dijkstra":
                return all_pairs_dijkstra_path_length(G, weight=weight)
            return all_pairs_bellman_ford_path_length(G, weight=weight)
        reverse = G.is_directed()
        if method == "unweighted":
            return _unweighted_lengths(G, target, reverse=reverse)
        if method == "dijkstra":
            return _dijkstra_lengths(G, target, weight, reverse=reverse)
        return _bf_lengths(G, target, weight, reverse=reverse)
    if target is None:
        if method == "unweighted":
            return _unweighted_lengths(G, source)
        if method == "dijkstra":
            return _dijkstra_lengths(G, source, weight)
        return _bf_lengths(G, source, weight)
    if method == "unweighted":
        return len(_unweighted_st_path(G, source, target)) - 1
    if method == "dijkstra":
        return dijkstra_path_length(G, source, target, weight)
    return bellman_ford_path_length(G, source, target, weight)


def has_path(G, source, target):
    try:
        _unweighted_st_path(G, source, target)
    except nx.NetworkXNoPath:
        return False
    return True


# --------------------------------------------------------------------------------------------
# every shortest path: the shortest-path DAG, and k shortest simple paths


def _tight_preds(G, w, weight, dist):
    """{node id: [predecessor ids]} over the reached nodes: every ``u`` with
    ``d(u) + w(u, v) == d(v)`` (float64, the sum NetworkX's Dijkstra compares), each once (a
    multigraph's parallel edges count as one, as NetworkX's minimum weight does), ordered by
    increasing ``d(u)``, then by position in the graph."""
    tails, heads = G._tails, G._heads
    ws = np.ones(tails.shape[0]) if w.values is None else w.values
    if not G._directed:
        tails, heads = np.concatenate([tails, heads]), np.concatenate([heads, tails])
        ws = np.concatenate([ws, ws])
    du = dist[tails]
    tight = np.isfinite(du) & (du + ws == dist[heads])
    us, vs = tails[tight], heads[tight]
    order = np.lexsort((us, dist[us], vs))  # by head, then d(tail), then tail id
    us, vs = us[order].tolist(), vs[order].tolist()
    preds = {}
    for u, v in zip(us, vs):
        got = preds.setdefault(v, [])
        if not got or got[-1] != u:
            got.append(u)
    return preds


def _predecessors(G, source, weight, cutoff, w):
    """(pred, dist) dicts of NetworkX's dijkstra_predecessor_and_distance (``w`` the weights)."""
    s = G._index[source]
    limit = _limit(cutoff)
    nodes = G._nodes
    if limit is None:
        return {source: []}, {source: 0}
    if w.overflow:
        # NetworkX lists as predecessors of a node reached at inf every neighbour that found it
        # before it left the heap: an order this backend does not reproduce.
        raise NotImplementedError("predecessor lists on weights whose sums may overflow float64")
    dist, _ = _solve(G, weight, [s], limit, preds=False)
    lengths, ids = _lengths(G, w, dist, [s])
    preds = _tight_preds(G, w, weight, dist)
    pred = {nodes[i]: [nodes[u] for u in preds.get(i, ())] for i in itertools.chain([s], ids)}
    return pred, lengths


def dijkstra_predecessor_and_distance(G, source, cutoff=None, weight="weight"):
    if source not in G:
        raise nx.NodeNotFound(f"Node {source} is not found in the graph")
    w = _dijkstra_weights(G, weight)
    return _predecessors(G, source, weight, cutoff, w)


def _dag_paths(source, target, pred):
    """Every path from ``source`` to ``target`` through ``pred`` (node -> predecessors),
    depth first, each built from the target back (NetworkX's _build_paths_from_predecessors
    order)."""
    if target not in pred:
        raise nx.NetworkXNoPath(f"Target {target} cannot be reached from given sources")
    stack = [(target, 0)]
    on_path = {target}
    while stack:
        node, i = stack[-1]
        if node == source:  # at every visit, as NetworkX (a zero-weight loop at the source)
            yield [n for n, _ in reversed(stack)]
        ps = pred[node]
        if i < len(ps):
            stack[-1] = (node, i + 1)
            if ps[i] not in on_path:
                stack.append((ps[i], 0))
                on_path.add(ps[i])
        else:
            stack.pop()
            on_path.discard(node)


def all_shortest_paths(G, source, target, weight=None, method="dijkstra"):
    method = "unweighted" if weight is None else method
    if method == "unweighted":
        if source not in G:
            raise nx.NodeNotFound(f"Source {source} not in G")
        pred, _ = _predecessors(G, source, None, None, _UNIT)
    elif method == "dijkstra":
        pred, _ = dijkstra_predecessor_and_distance(G, source, weight=weight)
    elif method == "bellman-ford":
        raise NotImplementedError("all_shortest_paths with method='bellman-ford'")
    else:
        raise ValueError(f"method not supported: {method}")
    return _dag_paths(source, target, pred)


def all_pairs_all_shortest_paths(G, weight=None, method="dijkstra"):
    # The weights are checked here, at the call, so that refused ones go back to NetworkX;
    # the rest runs as the generator is consumed (NetworkX's own is a generator too).
    unweighted = weight is None or method == "unweighted"
    w = _UNIT if unweighted else _dijkstra_weights(G, weight) if method == "dijkstra" else None
    return _all_pairs_dags(G, None if unweighted else weight, w, method)


def _all_pairs_dags(G, weight, w, method):
    """(node, {target: every shortest path}) for each node of ``G`` in its order, one solve per
    node: NetworkX's single_source_all_shortest_paths over its predecessor lists."""
    if w is None:
        raise ValueError(f"method not supported: {method}")
    for n in G:
        pred, _ = _predecessors(G, n, weight, None, w)
        yield n, {t: list(_dag_paths(n, t, pred)) for t in pred}


# Yen's k for the first batch of shortest_simple_paths, then times 4 per batch.
_YEN_FIRST = 8


def shortest_simple_paths(G, source, target, weight=None):
    if G.is_multigraph():
        raise nx.NetworkXNotImplemented("not implemented for multigraph type")
    if weight is not None:
        _dijkstra_weights(G, weight)  # refused ones go back to NetworkX before the generator
    return _simple_paths(G, source, target, weight)


def _simple_paths(G, source, target, weight):
    if source not in G:
        raise nx.NodeNotFound(f"source node {source} not in graph")
    if target not in G:
        raise nx.NodeNotFound(f"target node {target} not in graph")
    s, t = G._index[source], G._index[target]
    native = G.solver(weight)._native
    nodes = G._nodes
    done = 0
    k = _YEN_FIRST
    while True:
        _, paths = native.yen(s, t, k)
        if not paths:
            raise nx.NetworkXNoPath(f"No path between {source} and {target}.")
        for p in paths[done:]:
            yield [nodes[i] for i in p]
        done = len(paths)
        if done < k:
            return
        k *= 4


# --------------------------------------------------------------------------------------------
# distance measures


def _extreme(G, e, usebounds, weight, which):
    if e is not None:  # can_run sends these to NetworkX; kept for direct calls
        values = e.values()
        return max(values) if which == 0 else min(values)
    if len(G) == 0:
        raise NotImplementedError("the null graph (NetworkX raises its own ValueError)")
    w = _dijkstra_weights(G, weight)
    bounds = usebounds is True and not G.is_directed()
    if bounds and w.kind != "int":
        raise NotImplementedError(
            "usebounds=True with real weights: NetworkX's bounds carry float rounding"
        )
    got = G.extremes(weight)
    if math.isinf(got[0]):
        if bounds:
            msg = "Cannot compute metric because graph is not connected."
        elif G.is_directed():
            msg = "Found infinite path length because the digraph is not strongly connected"
        else:
            msg = "Found infinite path length because the graph is not connected"
        raise nx.NetworkXError(msg)
    x = got[which]
    if x == 0:
        return 0  # NetworkX: the eccentricity of a lone node is the int 0
    return int(x) if w.kind == "int" else float(x)


def diameter(G, e=None, usebounds=False, weight=None):
    return _extreme(G, e, usebounds, weight, 0)


def radius(G, e=None, usebounds=False, weight=None):
    return _extreme(G, e, usebounds, weight, 1)


# --------------------------------------------------------------------------------------------
# the backend interface object NetworkX loads


class BackendInterface:
    """What NetworkX's dispatcher looks up: ``convert_from_nx``, ``convert_to_nx``,
    ``can_run`` and one attribute per implemented function."""

    convert_from_nx = staticmethod(convert_from_nx)
    convert_to_nx = staticmethod(convert_to_nx)

    @staticmethod
    def can_run(name, args, kwargs):
        """False (or a reason string) for calls sssp cannot answer exactly before converting;
        the rest (weights seen only after conversion) raise NotImplementedError in the call."""
        func = _FUNCS.get(name)
        if func is None:
            return False
        try:
            bound = _SIGNATURES[name].bind(*args, **kwargs)
        except TypeError:
            return True  # let the call raise NetworkX's TypeError
        arguments = bound.arguments
        params = _SIGNATURES[name].parameters
        weight = arguments.get("weight", params["weight"].default if "weight" in params else None)
        if callable(weight):
            return "weight functions are run by NetworkX"
        if name in ("diameter", "radius"):
            if arguments.get("e") is not None:
                return "eccentricities given: nothing for sssp to compute"
            G = arguments.get("G")
            try:
                if len(G) == 0:
                    return "the null graph"
            except TypeError:
                return False
        if name == "all_pairs_all_shortest_paths" and arguments.get("method") == "bellman-ford":
            if weight is not None:
                return "method='bellman-ford' is run by NetworkX"
        if (
            name in ("shortest_path", "shortest_path_length")
            and _NX_VERSION < (3, 5)
            and arguments.get("source") is None
            and arguments.get("target") is None
        ):
            return "all-pairs shortest_path returns a dict before NetworkX 3.5"
        return True


_FUNCS = {name: globals()[name] for name in FUNCTIONS}
_SIGNATURES = {name: inspect.signature(f) for name, f in _FUNCS.items()}
for _name, _func in _FUNCS.items():
    setattr(BackendInterface, _name, staticmethod(_func))
del _name, _func

backend_interface = BackendInterface()
