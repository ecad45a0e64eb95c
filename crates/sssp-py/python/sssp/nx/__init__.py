"""The "sssp" NetworkX backend.

NetworkX finds it through the entry points ``networkx.backends: sssp = sssp.nx:backend_interface``
and ``networkx.backend_info: sssp = sssp.nx:get_info``::

    import networkx as nx
    nx.single_source_dijkstra_path_length(G, 0, backend="sssp")
    # or for every call it implements: NETWORKX_BACKEND_PRIORITY=sssp (environment), or
    nx.config.backend_priority.algos = ["sssp"]

``get_info`` is read while NetworkX is being imported, so the implementation (which imports
networkx and numpy) is loaded only when ``backend_interface`` is first asked for.
"""

from ._info import FUNCTIONS, get_info

__all__ = ["FUNCTIONS", "SsspGraph", "backend_interface", "get_info"]

_LAZY = {"backend_interface", "BackendInterface", "SsspGraph", "convert_from_nx", "convert_to_nx"}


def __getattr__(name):
    if name in _LAZY:
        from . import _backend

        return getattr(_backend, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | _LAZY)
