"""sssp: exact single-source shortest paths on GPUs (CUDA) and CPUs.

- scipy.sparse.csgraph's calls as drop-ins: ``dijkstra``, ``bellman_ford``, ``johnson``,
  ``floyd_warshall``, ``shortest_path``, ``yen`` (same signatures and answers, plus ``device=``).
- ``Graph``: a graph uploaded once for many queries (``distances``, ``shortest_paths``,
  ``nearest``, ``path``, ``diameter``, ``radius``).
- ``read(path)`` / ``read_csr(path)``: a graph file (every format the command line reads) as
  a ``Graph`` or as a scipy CSR matrix with parallel arcs reduced to the lightest.
- A NetworkX backend named "sssp" (``sssp.nx``): ``nx.shortest_path(G, s, t, weight="weight",
  backend="sssp")``.
"""

# The names load on first use (PEP 562): NetworkX imports `sssp.nx` for its backend table
# whenever it is imported itself, and that must not cost the native module and scipy's import.
_LAZY = {
    "Graph": "._graph",
    "NegativeCycleError": "._graph",
    "bellman_ford": "._csgraph",
    "dijkstra": "._csgraph",
    "floyd_warshall": "._csgraph",
    "johnson": "._csgraph",
    "read": "._read",
    "read_csr": "._read",
    "shortest_path": "._csgraph",
    "yen": "._csgraph",
}

__all__ = sorted(_LAZY)


def __getattr__(name):
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(_LAZY[name], __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'sssp' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_LAZY))


try:
    from importlib.metadata import version as _version

    __version__ = _version("sssp")
except Exception:  # pragma: no cover - not installed as a distribution
    __version__ = "0.1.0"
