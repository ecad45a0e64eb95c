"""What the "sssp" NetworkX backend implements: read by NetworkX when it is imported (the
``networkx.backend_info`` entry point), so this module imports nothing heavy."""

_PATHS = (
    "Paths: one shortest path per node, as NetworkX; where several are equally short, the "
    "one returned may differ from NetworkX's choice."
)
_NEG = (
    "Negative weights: not run by sssp (NetworkX's Dijkstra gives heap-order dependent "
    "answers or ValueError there); NetworkX runs the call when it falls back."
)
_BF = "Negative weights are handled; a reachable negative cycle raises NetworkXUnbounded."
_CUTOFF = "Lengths and paths within ``cutoff``, inclusive, as NetworkX."
_ALLPAIRS = (
    "A generator, as NetworkX's; the sources are solved in chunks "
    "(``nx.config.backends.sssp.chunk_size``, default 64) and yielded one by one."
)

_DOCS = {
    # Dijkstra family
    "dijkstra_path": f"{_PATHS} {_NEG}",
    "dijkstra_path_length": _NEG,
    "bidirectional_dijkstra": f"{_PATHS} {_NEG}",
    "single_source_dijkstra": f"{_CUTOFF} {_PATHS} {_NEG}",
    "single_source_dijkstra_path": f"{_CUTOFF} {_PATHS} {_NEG}",
    "single_source_dijkstra_path_length": f"{_CUTOFF} {_NEG}",
    "multi_source_dijkstra": f"One run from all sources. {_CUTOFF} {_PATHS} {_NEG}",
    "multi_source_dijkstra_path": f"One run from all sources. {_CUTOFF} {_PATHS} {_NEG}",
    "multi_source_dijkstra_path_length": f"One run from all sources. {_CUTOFF} {_NEG}",
    "all_pairs_dijkstra": f"{_ALLPAIRS} {_PATHS} {_NEG}",
    "all_pairs_dijkstra_path": f"{_ALLPAIRS} {_PATHS} {_NEG}",
    "all_pairs_dijkstra_path_length": f"{_ALLPAIRS} {_NEG}",
    # Bellman-Ford family
    "bellman_ford_path": f"{_BF} {_PATHS}",
    "bellman_ford_path_length": _BF,
    "single_source_bellman_ford": f"{_BF} {_PATHS}",
    "single_source_bellman_ford_path": f"{_BF} {_PATHS}",
    "single_source_bellman_ford_path_length": _BF,
    "all_pairs_bellman_ford_path": f"{_ALLPAIRS} {_BF} {_PATHS}",
    "all_pairs_bellman_ford_path_length": f"{_ALLPAIRS} {_BF}",
    "negative_edge_cycle": "One run from every node at once; True when it meets a negative cycle.",
    # generic
    "shortest_path": (
        "Every branch (unweighted, dijkstra, bellman-ford; with or without source and "
        f"target). {_PATHS} Dijkstra with negative weights: see dijkstra_path."
    ),
    "shortest_path_length": (
        "Every branch (unweighted, dijkstra, bellman-ford; with or without source and "
        "target). Dijkstra with negative weights: see dijkstra_path_length."
    ),
    "has_path": "One breadth-first-equivalent run (unit weights) from the source.",
    # every shortest path
    "dijkstra_predecessor_and_distance": (
        f"Every tight predecessor (``d(u) + w(u, v) == d(v)`` in float64, as NetworkX compares). "
        f"Each list in increasing distance of the predecessors, as NetworkX; equally distant "
        f"predecessors may come in another order. {_CUTOFF} {_NEG}"
    ),
    "all_shortest_paths": (
        "The same paths as NetworkX, from the same predecessor lists (see "
        "dijkstra_predecessor_and_distance); equally long paths may come in another order. "
        "``method='bellman-ford'`` is run by NetworkX."
    ),
    "all_pairs_all_shortest_paths": (
        "For each node in the graph's order, every shortest path to every node it reaches, "
        "from the predecessor lists of dijkstra_predecessor_and_distance (one solve per node): "
        "the nodes in NetworkX's order, the same paths to each target (equally long paths may "
        "come in another order, as in all_shortest_paths). ``method='bellman-ford'`` is run by "
        "NetworkX."
    ),
    "shortest_simple_paths": (
        "A generator, shortest first, from Yen's algorithm in the engine, run for 8, 32, 128, ... "
        "paths as the generator is consumed. Equally long paths come with fewer edges first, "
        "then in lexicographic order of the nodes' positions in ``list(G)`` (NetworkX's order "
        f"among them is its heap's). Real weights: lengths are compared as the engine sums "
        f"them in float64. {_NEG}"
    ),
    # distance measures
    "diameter": (
        "From the engine's exact diameter. Not run by sssp: ``e=`` given, the null graph, "
        "``usebounds=True`` on an undirected graph with real (non-integer) weights (NetworkX's "
        "bounds are then computed with float rounding), negative weights."
    ),
    "radius": "As diameter.",
}


def get_info():
    """The backend_info dict NetworkX reads through the ``networkx.backend_info`` entry point."""
    return {
        "backend_name": "sssp",
        "project": "sssp",
        "package": "sssp",
        "short_summary": "Exact shortest paths on GPUs (CUDA) and CPUs, in Rust.",
        "description": (
            "Shortest-path lengths, paths, and diameter/radius computed by the sssp engine "
            "(GPU when usable, else CPU) with results equal to NetworkX's."
        ),
        "functions": {name: {"additional_docs": doc} for name, doc in _DOCS.items()},
        # nx.config.backends.sssp: the device for converted graphs ("auto", "gpu", "cpu")
        # and how many sources an all-pairs generator solves at once.
        "default_config": {"device": "auto", "chunk_size": 64},
    }


FUNCTIONS = tuple(_DOCS)
