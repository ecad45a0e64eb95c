"""`sssp.Graph`: a graph on its device, built once, for any number of queries."""

from __future__ import annotations

import numpy as np

from . import _native

NO_PRED = _native.NO_PRED  # scipy's predecessor of a source or an unreached vertex: -9999

try:  # scipy's own class, so that `except scipy.sparse.csgraph.NegativeCycleError` catches ours
    from scipy.sparse.csgraph import NegativeCycleError as _ScipyNegativeCycle
except ImportError:  # pragma: no cover - scipy is a dependency
    _ScipyNegativeCycle = Exception


class NegativeCycleError(_ScipyNegativeCycle):
    """A negative cycle reachable from a source. ``cycle`` lists its vertices in arc order,
    starting at the smallest id. A subclass of scipy's ``NegativeCycleError``."""

    def __init__(self, message, cycle=()):
        super().__init__(message)
        self.cycle = list(cycle)


def _native_call(fn, *args):
    """Call the native module, raising our NegativeCycleError for its negative cycles."""
    try:
        return fn(*args)
    except _native.NegativeCycle as e:
        message, cycle = e.args
        raise NegativeCycleError(message, cycle) from None


def _csr_parts(A, unweighted):
    """(n, indptr int64, indices int32|int64, data float64 or None) of scipy's csgraph input:
    a scipy sparse matrix or array (explicit zeros are edges of weight 0; with ``unweighted``
    every stored entry is an edge of weight 1, as in scipy), or a dense array (0, inf and NaN
    are no edge, as are masked entries of a masked array)."""
    import scipy.sparse as sp

    if sp.issparse(A):
        if A.ndim != 2 or A.shape[0] != A.shape[1]:
            raise ValueError("graph should be a square array")
        # scipy's own conversion (csgraph's validate_graph), so that duplicate entries mean
        # what they mean to scipy: COO (and DOK, LIL, ...) sums them on the way to CSR in its
        # own dtype, and a change of dtype to float64 sums them again (`astype` dedupes), so
        # only a float64 CSR or CSC input keeps its duplicates, as parallel arcs of which the
        # lightest wins. A float64 CSR input is read without a copy.
        csr = A.tocsr()
        if not unweighted:
            csr = csr.astype(np.float64, copy=False)
        n = csr.shape[0]
        indptr = np.ascontiguousarray(csr.indptr, dtype=np.int64)
        indices = csr.indices
        if indices.dtype not in (np.int32, np.int64):
            indices = indices.astype(np.int64)
        indices = np.ascontiguousarray(indices)
        data = None if unweighted else np.ascontiguousarray(csr.data, dtype=np.float64)
        if data is not None and data.shape != indices.shape:
            raise ValueError("the sparse graph's data and indices differ in length")
        return n, indptr, indices, data
    mask = None
    if np.ma.isMaskedArray(A):
        mask = np.ma.getmaskarray(A)
        A = np.ma.getdata(A)
    dense = np.asarray(A, dtype=np.float64)
    if dense.ndim != 2 or dense.shape[0] != dense.shape[1]:
        raise ValueError("graph should be a square array")
    # scipy: in a masked array the unmasked entries are the edges (zeros too); otherwise 0, inf
    # and NaN are no edge.
    edge = np.isfinite(dense) & (~mask if mask is not None else (dense != 0))
    rows, cols = np.nonzero(edge)  # row-major: already in CSR order
    n = dense.shape[0]
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(rows, minlength=n), out=indptr[1:])
    data = None if unweighted else np.ascontiguousarray(dense[rows, cols])
    return n, indptr, np.ascontiguousarray(cols, dtype=np.int64), data


class Graph:
    """A graph uploaded once to its device (the GPU when usable, else the CPU), for any number
    of queries: ``distances``, ``shortest_paths``, ``nearest``, ``path``, ``diameter``.

    Distances are float64 and exact: each equals what scipy's float64 Dijkstra (or
    Bellman-Ford) computes, whatever the weights (integers run on the integer engines; other
    weights on the f32 engine, repaired on the host to the float64 answer).

    >>> import sssp
    >>> g = sssp.Graph.from_edges(4, [0, 1, 0, 2], [1, 2, 2, 3], [2.5, 1.0, 4.0, 0.5])
    >>> g.distances(0).tolist()
    [0.0, 2.5, 3.5, 4.0]
    >>> g.path(0, 3)
    (4.0, [0, 1, 2, 3])
    """

    def __init__(self, n, indptr, indices, data, directed=True, device="auto", *, _one_query=False):
        """From CSR arrays (``data`` None: every weight 1); see ``from_scipy``, ``from_edges``.
        ``_one_query`` (the scipy drop-ins): the graph answers one query, which on one CPU
        thread the float64 host Dijkstra runs without building the engine's graph."""
        indptr = np.ascontiguousarray(indptr, dtype=np.int64)
        if indptr.shape != (n + 1,):
            raise ValueError(f"indptr has {indptr.shape[0]} entries; {n} vertices need {n + 1}")
        indices = np.ascontiguousarray(indices)
        if indices.dtype not in (np.int32, np.int64):
            indices = indices.astype(np.int64)
        if data is not None:
            data = np.ascontiguousarray(data, dtype=np.float64)
            if data.shape != indices.shape:
                raise ValueError(f"{data.shape[0]} weights for {indices.shape[0]} arcs")
        self._native = _native.Native(
            int(n),
            indptr.ctypes.data,
            indices.ctypes.data,
            int(indices.shape[0]),
            indices.dtype == np.int64,
            0 if data is None else data.ctypes.data,
            bool(directed),
            str(device),
            _one_query,
        )
        self.directed = bool(directed)
        self._extremes = None

    @classmethod
    def from_scipy(cls, A, directed=True, unweighted=False, device="auto", *, _one_query=False):
        """From scipy's csgraph input: a sparse matrix or array (explicit zeros are edges of
        weight 0; CSR is read without a copy), or a dense array (0, inf and NaN are no edge).
        ``directed=False`` makes each edge usable both ways; ``unweighted=True`` gives every
        edge weight 1."""
        n, indptr, indices, data = _csr_parts(A, unweighted)
        return cls(n, indptr, indices, data, directed=directed, device=device, _one_query=_one_query)

    @classmethod
    def from_edges(cls, n, tails, heads, weights=None, directed=True, device="auto"):
        """From edge arrays: ``tails[i] -> heads[i]`` with ``weights[i]`` (None: every weight 1).
        NaN and infinite weights drop their edge; parallel edges are kept (the lightest wins)."""
        tails = np.asarray(tails, dtype=np.int64).ravel()
        heads = np.asarray(heads, dtype=np.int64).ravel()
        if tails.shape != heads.shape:
            raise ValueError(f"{tails.shape[0]} tails for {heads.shape[0]} heads")
        for name, ends in (("tail", tails), ("head", heads)):
            if ends.size and (ends.min() < 0 or ends.max() >= n):
                raise ValueError(f"a {name} is not a vertex of a graph with {n} vertices")
        order = np.argsort(tails, kind="stable")
        indptr = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(np.bincount(tails, minlength=n), out=indptr[1:])
        data = None
        if weights is not None:
            weights = np.asarray(weights, dtype=np.float64).ravel()
            if weights.shape != tails.shape:
                raise ValueError(f"{weights.shape[0]} weights for {tails.shape[0]} edges")
            data = weights[order]
        return cls(n, indptr, heads[order], data, directed=directed, device=device)

    @property
    def num_vertices(self):
        return self._native.num_vertices

    @property
    def num_arcs(self):
        """Arcs held (an undirected edge is two)."""
        return self._native.num_arcs

    @property
    def device(self):
        """``"gpu"`` or ``"cpu"``: where the queries run."""
        return self._native.device

    @property
    def device_name(self):
        """The device's name; on the CPU after ``device="auto"``, why the GPU is not used."""
        return self._native.device_name

    @property
    def weight_kind(self):
        """How the weights run: "u32" (integers), "i32" (integers, some negative), "f32+f64"
        (real: the f32 engine, repaired in float64) or "f64" (host only)."""
        return self._native.kind

    @property
    def has_negative_weights(self):
        return self._native.has_negative_weights

    def __repr__(self):
        return (
            f"sssp.Graph({self.num_vertices} vertices, {self.num_arcs} arcs, "
            f"{'directed' if self.directed else 'undirected'}, weights {self.weight_kind}, on {self.device})"
        )

    def _sources(self, sources):
        """(int32 sources, whether one source was given as a scalar)."""
        scalar = np.ndim(sources) == 0
        s = np.atleast_1d(np.asarray(sources)).ravel()
        if s.size and not np.issubdtype(s.dtype, np.integer):
            if not np.all(np.mod(s, 1) == 0):
                raise ValueError("sources must be integers")
        s = s.astype(np.int64)
        n = self.num_vertices
        if s.size and (s.min() < 0 or s.max() >= n):
            raise ValueError(f"indices out of range 0...N (N = {n})")
        return np.ascontiguousarray(s, dtype=np.int32), scalar

    @staticmethod
    def _limit(limit):
        limit = float(limit)
        if not limit >= 0:
            raise ValueError("limit must be >= 0")
        return limit

    def shortest_paths(self, sources, limit=np.inf, predecessors=True):
        """Distances (float64, ``inf`` where not reached or farther than ``limit``; a distance
        equal to ``limit`` is kept, as in scipy and NetworkX's ``cutoff``) from each source,
        and with ``predecessors`` each vertex's predecessor on a shortest path (int32, -9999
        for the sources and unreached vertices): shape ``(n,)`` for one source given as an int,
        ``(k, n)`` for a sequence of k. Raises NegativeCycleError for a negative cycle reachable
        from a source."""
        s, scalar = self._sources(sources)
        n = self.num_vertices
        dist = np.empty((s.size, n), dtype=np.float64)
        pred = np.empty((s.size, n), dtype=np.int32) if predecessors else None
        _native_call(
            self._native.solve,
            s.ctypes.data,
            s.size,
            self._limit(limit),
            dist.ctypes.data,
            0 if pred is None else pred.ctypes.data,
        )
        if scalar:
            dist = dist[0]
            pred = None if pred is None else pred[0]
        return (dist, pred) if predecessors else dist

    def distances(self, sources, limit=np.inf):
        """Distances only: ``shortest_paths(sources, limit, predecessors=False)``."""
        return self.shortest_paths(sources, limit, predecessors=False)

    def nearest(self, sources, limit=np.inf):
        """One run from all ``sources`` at once: ``(dist, pred, src)``, each of shape ``(n,)``:
        the distance from the nearest source, the predecessor (-9999 at sources and unreached
        vertices) and which source is nearest (-9999 where none is reached)."""
        s, _ = self._sources(sources)
        if s.size == 0:
            raise ValueError("nearest needs at least one source")
        n = self.num_vertices
        dist = np.empty(n, dtype=np.float64)
        pred = np.empty(n, dtype=np.int32)
        src = np.empty(n, dtype=np.int32)
        _native_call(
            self._native.nearest, s.ctypes.data, s.size, self._limit(limit), dist.ctypes.data, pred.ctypes.data, src.ctypes.data
        )
        return dist, pred, src

    def _nearest_distances(self, sources, limit=np.inf):
        """``nearest``'s distances alone: no predecessors or nearest sources are built (scipy's
        ``min_only`` without ``return_predecessors``)."""
        s, _ = self._sources(sources)
        if s.size == 0:
            raise ValueError("nearest needs at least one source")
        dist = np.empty(self.num_vertices, dtype=np.float64)
        _native_call(self._native.nearest, s.ctypes.data, s.size, self._limit(limit), dist.ctypes.data, 0, 0)
        return dist

    def prepare_hierarchy(self, path=None):
        """Give the graph a contraction hierarchy (non-negative integer weights only): read
        from the file ``path`` when it exists (else built and written there), or built in
        memory. ``path`` and ``distance_matrix`` then run on it. Returns whether it was read."""
        return self._native.prepare_hierarchy(None if path is None else str(path))

    @property
    def has_hierarchy(self):
        """Whether ``prepare_hierarchy`` gave the graph a contraction hierarchy."""
        return self._native.has_hierarchy

    def distance_matrix(self, sources, targets):
        """Distances from each of ``sources`` (rows) to each of ``targets`` (columns) as a
        float64 array of shape ``(len(sources), len(targets))``, ``inf`` where there is no
        path; repeated ids are kept. With a hierarchy: the many-to-many buckets on the CPU,
        RPHAST on a GPU; without, one solve per source."""
        s, _ = self._sources(sources)
        t, _ = self._sources(targets)
        out = np.empty((s.size, t.size), dtype=np.float64)
        if self.weight_kind == "u32":
            self._native.table(s.ctypes.data, s.size, t.ctypes.data, t.size, out.ctypes.data)
        else:
            for lo in range(0, s.size, 64):
                out[lo : lo + 64] = self.distances(s[lo : lo + 64])[:, t]
        return out

    def path(self, source, target):
        """``(length, [source, ..., target])`` of a shortest path, or None when ``target`` is
        not reached. On the hierarchy's bidirectional search when the graph holds one
        (``prepare_hierarchy``)."""
        t = int(target)
        if not 0 <= t < self.num_vertices:
            raise ValueError(f"target {t} is not a vertex (N = {self.num_vertices})")
        if self.has_hierarchy:
            s = int(source)
            if not 0 <= s < self.num_vertices:
                raise ValueError(f"source {s} is not a vertex (N = {self.num_vertices})")
            return self._native.route(s, t)
        dist, pred = self.shortest_paths(int(source))
        if not np.isfinite(dist[t]):
            return None
        path = [t]
        while pred[path[-1]] != NO_PRED:
            path.append(int(pred[path[-1]]))
        path.reverse()
        return float(dist[t]), path

    def eccentricities(self, chunk=64):
        """Each vertex's eccentricity (the largest distance from it; inf when it does not reach
        every vertex), by one solve per vertex, ``chunk`` at a time."""
        n = self.num_vertices
        ecc = np.empty(n, dtype=np.float64)
        for lo in range(0, n, chunk):
            ecc[lo : lo + chunk] = self.distances(np.arange(lo, min(n, lo + chunk))).max(axis=1)
        return ecc

    def extremes(self):
        """``(diameter, radius)``, computed once per graph and kept: exact, by eccentricity
        bounding on integer weights, by every eccentricity on real ones; ``inf`` when some
        vertex does not reach another (the diameter) or none reaches every other (the radius)."""
        if self._extremes is None:
            if self.num_vertices == 0:
                raise ValueError("the graph has no vertices: its diameter is undefined")
            if self.has_negative_weights:
                raise ValueError("diameter and radius take non-negative weights")
            got = self._native.extremes()
            if got is None:  # real weights: f32 rounding breaks the bounds' triangle inequality
                ecc = self.eccentricities()
                got = (float(ecc.max()), float(ecc.min()))
            self._extremes = got
        return self._extremes

    def diameter(self):
        """The largest distance between two vertices (see ``extremes``)."""
        return self.extremes()[0]

    def radius(self):
        """The smallest eccentricity (see ``extremes``)."""
        return self.extremes()[1]
