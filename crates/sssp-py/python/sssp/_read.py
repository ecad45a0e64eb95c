"""Graph files: ``read`` (an ``sssp.Graph``) and ``read_csr`` (a scipy CSR matrix), through the
library's own loaders: every format and compression the command line reads."""

from __future__ import annotations

import os

import numpy as np

from . import _native
from ._graph import Graph


def _arrays(path, format):
    """(n, indptr int64, indices int32|int64, data float64) of the graph file at ``path``."""
    loaded = _native.read(os.fspath(path), format)
    n, m = loaded.num_vertices, loaded.num_arcs
    wide = n > np.iinfo(np.int32).max
    indptr = np.empty(n + 1, dtype=np.int64)
    indices = np.empty(m, dtype=np.int64 if wide else np.int32)
    data = np.empty(m, dtype=np.float64)
    loaded.fill(indptr.ctypes.data, indices.ctypes.data, wide, data.ctypes.data)
    return n, indptr, indices, data


def read(path, format=None, directed=True, device="auto"):
    """The graph in the file at ``path`` as an ``sssp.Graph``: DIMACS ``.gr``, Matrix Market
    ``.mtx``, edge lists (``.el``, ``.wel``, ``.txt``, ``.snap``), METIS, GAP's ``.sg`` /
    ``.wsg`` and sssp's ``.bin``, compressed (gzip, xz, zstd, bzip2) or not; ``"-"`` is
    standard input, and fifos are read as streams. ``format`` names the format when the file
    name does not tell it ("gr", "mtx", "el", "wel", "snap", "metis", "bin", "sg", "wsg").
    Parallel arcs are kept; a shortest path uses the lightest, as the command line does.

    A missing file raises FileNotFoundError, other I/O errors OSError, a malformed file
    ValueError naming the line."""
    n, indptr, indices, data = _arrays(path, format)
    return Graph(n, indptr, indices, data, directed=directed, device=device)


def read_csr(path, format=None):
    """The graph in the file at ``path`` (as ``read``) as a float64 ``scipy.sparse.csr_matrix``
    with one entry per vertex pair: parallel arcs reduced to the lightest, the arc a shortest
    path takes. (``csr_matrix((w, (r, c)))`` would *sum* them, and scipy then answers for
    another graph: on NY's 3,746 parallel arcs that changes 231,206 distances.)"""
    import scipy.sparse as sp

    n, indptr, indices, data = _arrays(path, format)
    rows = np.repeat(np.arange(n, dtype=indices.dtype), np.diff(indptr))
    # by row, column, then weight: the first of each (row, column) run is the lightest
    order = np.lexsort((data, indices, rows))
    rows, indices, data = rows[order], indices[order], data[order]
    first = np.ones(rows.size, dtype=bool)
    first[1:] = (rows[1:] != rows[:-1]) | (indices[1:] != indices[:-1])
    counts = np.bincount(rows[first], minlength=n)
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(counts, out=indptr[1:])
    return sp.csr_matrix((data[first], indices[first], indptr), shape=(n, n))
