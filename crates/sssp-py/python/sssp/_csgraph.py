"""scipy.sparse.csgraph's shortest-path calls, as drop-ins: the same signatures, shapes, dtypes,
infinities, -9999 predecessors and exceptions, plus ``device=``.

Where the answers can differ from scipy's, ours are the exact ones: scipy's ``dijkstra`` on
negative weights warns (the same UserWarning here) and may return wrong distances; here it
runs a Bellman-Ford-class algorithm and returns the right ones (or raises NegativeCycleError
for a negative cycle reachable from a source). With ties, predecessors may name a different
(equally short) path than scipy's.
"""

from __future__ import annotations

import math
import operator
import warnings

import numpy as np

from ._graph import NO_PRED, Graph

_NEGATIVE_WARNING = (
    "Graph has negative weights: dijkstra will give inaccurate results if the graph contains "
    "negative cycles. Consider johnson or bellman_ford."
)


def _indices(indices, n):
    """scipy's handling of ``indices``: (flat int array, the result's leading shape; ``()`` for
    a scalar). Negative indices count from the end; anything outside 0..n-1 is a ValueError."""
    if indices is None:
        return np.arange(n), (n,)
    idx = np.array(indices, dtype=np.int64, copy=True)
    shape = idx.shape
    idx = idx.ravel()
    idx[idx < 0] += n
    if idx.size and (idx.min() < 0 or idx.max() >= n):
        raise ValueError("indices out of range 0...N")
    return idx, shape


def _nan_limit(n, idx, shape, return_predecessors, min_only):
    """scipy's answer for ``limit=nan``: no distance compares ``<= nan``, so only the sources
    are reached (at 0), and no vertex has a predecessor."""
    if min_only:
        dist = np.full(n, np.inf)
        dist[idx] = 0.0
        src = np.full(n, NO_PRED, dtype=np.int32)
        src[idx] = idx
        pred = np.full(n, NO_PRED, dtype=np.int32)
        return (dist, pred, src) if return_predecessors else dist
    dist = np.full((idx.size, n), np.inf)
    dist[np.arange(idx.size), idx] = 0.0
    dist = dist.reshape(shape + (n,))
    if not return_predecessors:
        return dist
    return dist, np.full(dist.shape, NO_PRED, dtype=np.int32)


def _solve(csgraph, directed, indices, return_predecessors, unweighted, limit, min_only, device, negative_ok, any_cycle=False):
    limit = float(limit)
    if limit < 0:
        raise ValueError("limit must be >= 0")
    g = Graph.from_scipy(csgraph, directed=directed, unweighted=unweighted, device=device, _one_query=True)
    n = g.num_vertices
    if g.has_negative_weights and not negative_ok:
        warnings.warn(_NEGATIVE_WARNING, UserWarning, stacklevel=3)
    # The indices first, as scipy checks them: a bad index is a ValueError even where the
    # graph also has a negative cycle.
    idx, shape = _indices(indices, n)
    if any_cycle and g.has_negative_weights and n:
        # Johnson's reweighting runs Bellman-Ford from a virtual source joined to every vertex:
        # one run from all vertices at once, which raises for a negative cycle anywhere.
        g.nearest(np.arange(n))
    if math.isnan(limit):
        return _nan_limit(n, idx, shape, return_predecessors, min_only)
    if min_only:
        if idx.size == 0:
            dist = np.full(n, np.inf)
            pred = np.full(n, -9999, dtype=np.int32)
            src = np.full(n, -9999, dtype=np.int32)
        elif not return_predecessors:
            return g._nearest_distances(idx, limit)
        else:
            dist, pred, src = g.nearest(idx, limit)
        return (dist, pred, src) if return_predecessors else dist
    got = g.shortest_paths(idx, limit, predecessors=return_predecessors)
    dist, pred = got if return_predecessors else (got, None)
    dist = dist.reshape(shape + (n,))
    if pred is None:
        return dist
    return dist, pred.reshape(shape + (n,))


def dijkstra(
    csgraph,
    directed=True,
    indices=None,
    return_predecessors=False,
    unweighted=False,
    limit=np.inf,
    min_only=False,
    device="auto",
):
    """scipy.sparse.csgraph.dijkstra on the GPU (or the CPU): shortest distances from
    ``indices`` (all vertices when None) over ``csgraph`` (a scipy sparse matrix or array, or a
    dense array), float64 with ``inf`` where not reached or beyond ``limit``; with
    ``return_predecessors`` also int32 predecessors (-9999: none); with ``min_only`` one run
    from all ``indices`` at once, the distance to the nearest (and with predecessors, which
    source it is). ``device``: "auto" (the GPU when usable), "cpu" or "gpu".

    >>> import numpy as np, scipy.sparse as sp, sssp
    >>> A = sp.csr_matrix(np.array([[0, 2, 0], [0, 0, 3], [0, 0, 0]], dtype=float))
    >>> sssp.dijkstra(A, indices=0).tolist()
    [0.0, 2.0, 5.0]
    """
    return _solve(csgraph, directed, indices, return_predecessors, unweighted, limit, min_only, device, False)


def bellman_ford(csgraph, directed=True, indices=None, return_predecessors=False, unweighted=False, device="auto"):
    """scipy.sparse.csgraph.bellman_ford: as ``dijkstra``, negative weights welcome; a negative
    cycle reachable from a source raises NegativeCycleError (a subclass of scipy's)."""
    return _solve(csgraph, directed, indices, return_predecessors, unweighted, np.inf, False, device, True)


def johnson(csgraph, directed=True, indices=None, return_predecessors=False, unweighted=False, device="auto"):
    """scipy.sparse.csgraph.johnson: the answers of ``bellman_ford``; as scipy's, it raises
    NegativeCycleError for a negative cycle anywhere in the graph (Johnson's reweighting needs
    none), where ``bellman_ford`` raises only for one a source reaches."""
    return _solve(csgraph, directed, indices, return_predecessors, unweighted, np.inf, False, device, True, any_cycle=True)


def floyd_warshall(csgraph, directed=True, return_predecessors=False, unweighted=False, overwrite=False, device="auto"):
    """scipy.sparse.csgraph.floyd_warshall: all pairs, shape (N, N), by one solve per source
    (``overwrite`` is accepted and ignored: the input is never written). With integer weights
    the answer is scipy's to the bit; with real ones each distance is the float64 sum along
    the path from its source, as scipy's Dijkstra computes it, where scipy's Floyd-Warshall
    adds sub-paths in another order and may differ from both in the last bits."""
    return bellman_ford(csgraph, directed, None, return_predecessors, unweighted, device)


_METHODS = ("auto", "FW", "D", "BF", "J")


def shortest_path(
    csgraph,
    method="auto",
    directed=True,
    return_predecessors=False,
    unweighted=False,
    overwrite=False,
    indices=None,
    device="auto",
):
    """scipy.sparse.csgraph.shortest_path: ``method`` as scipy's ("auto", "FW", "D", "BF",
    "J"); every method gives the exact answer here, "D" warning on negative weights as
    scipy's Dijkstra does."""
    if method not in _METHODS:
        raise ValueError(f"unrecognized method '{method}'")
    if method == "FW":
        if indices is not None:
            raise ValueError("Cannot specify indices with method == 'FW'.")
        return floyd_warshall(csgraph, directed, return_predecessors, unweighted, overwrite, device)
    if method == "D":
        return dijkstra(csgraph, directed, indices, return_predecessors, unweighted, device=device)
    if method == "BF":
        return bellman_ford(csgraph, directed, indices, return_predecessors, unweighted, device)
    # "auto" picks Johnson on negative weights in scipy, "J" is Johnson.
    return johnson(csgraph, directed, indices, return_predecessors, unweighted, device)


def yen(
    csgraph,
    source,
    sink,
    K,
    *,
    directed=True,
    return_predecessors=False,
    unweighted=False,
    device="auto",
):
    """scipy.sparse.csgraph.yen: the ``K`` shortest simple paths from ``source`` to ``sink``
    (Yen's algorithm), their lengths as a float64 array, shortest first, with
    ``return_predecessors`` a ``(len, N)`` int32 array whose row ``i`` holds each vertex's
    predecessor on path ``i`` (-9999 off it). Fewer than ``K`` when fewer simple paths exist (none
    when ``sink`` is not reached); ``source == sink`` gives one path of length 0.

    Equal lengths come with fewer arcs first, then in lexicographic order of the vertex
    sequence (scipy's order among ties is its heap's). The searches run on the host, whatever
    the device: integer weights exactly (each spur search guided by every vertex's best
    remainder to ``sink``), other weights in float64. Negative weights raise ValueError naming the
    arc (scipy answers them through Bellman-Ford).

    >>> import numpy as np, scipy.sparse as sp, sssp
    >>> A = sp.csr_array(np.array([[0, 1, 2], [0, 0, 1], [0, 0, 0]], dtype=float))
    >>> sssp.yen(A, 0, 2, 3).tolist()
    [2.0, 2.0]
    """
    g = Graph.from_scipy(csgraph, directed=directed, unweighted=unweighted, device=device)
    n = g.num_vertices
    if not (0 <= source < n and 0 <= sink < n):
        raise ValueError(
            "For csgraph with shape (N, N), must have 0 <= source < N and 0 <= sink < N. "
            f"Got N={n}, source={source}, sink={sink}."
        )
    K = operator.index(K)
    if K < 0:
        raise ValueError("negative dimensions are not allowed")
    if K == 0:
        lengths, paths = [], []
    else:
        lengths, paths = g._native.yen(int(source), int(sink), K)
    dist = np.array(lengths, dtype=np.float64)
    if not return_predecessors:
        return dist
    pred = np.full((len(paths), n), NO_PRED, dtype=np.int32)
    for i, p in enumerate(paths):
        pred[i, p[1:]] = p[:-1]
    return dist, pred
