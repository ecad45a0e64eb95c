"""sssp: exact single-source shortest paths on GPUs (CUDA) and CPUs.

- scipy.sparse.csgraph's calls as drop-ins: ``dijkstra``, ``bellman_ford``, ``johnson``,
  ``floyd_warshall``, ``shortest_path`` (same signatures and answers, plus ``device=``).
- ``Graph``: a graph uploaded once for many queries (``distances``, ``shortest_paths``,
  ``nearest``, ``path``, ``diameter``, ``radius``).
- A NetworkX backend named "sssp" (``sssp.nx``): ``nx.shortest_path(G, s, t, weight="weight",
  backend="sssp")``.
"""

from ._csgraph import bellman_ford, dijkstra, floyd_warshall, johnson, shortest_path
from ._graph import Graph, NegativeCycleError

__all__ = [
    "Graph",
    "NegativeCycleError",
    "bellman_ford",
    "dijkstra",
    "floyd_warshall",
    "johnson",
    "shortest_path",
]

try:
    from importlib.metadata import version as _version

    __version__ = _version("sssp")
except Exception:  # pragma: no cover - not installed as a distribution
    __version__ = "0.1.0"
