"""`sssp` from Python against scipy.sparse.csgraph and NetworkX, on one machine, one graph file and
the same sources for every system; every sssp answer is compared with scipy's (the verifier
inside the benchmark: a mismatch stops the run).

    python bench.py [--device auto] [--sources 64] [--repeat 5] [--scipy-many K] [--nx]
                    [--json OUT] GRAPH.bin ...

GRAPH.bin is sssp's binary CSR (`sssp convert NY.gr.gz NY.bin`, `sssp gen kron:20 -o k20.bin`),
read into a scipy CSR matrix of float64 weights: what a scipy user starts from. Times are
wall-clock seconds, the median of --repeat runs (one run for calls over 2 s):
- conversion: `sssp.Graph.from_scipy(A)` (the copy into the library, the weight analysis, the
  upload), and for NetworkX `nx.from_scipy_sparse_array`, reported apart;
- one source: `dijkstra(A, indices=s)` for scipy, `g.distances(s)` on the built graph for sssp;
- 64 sources: one call with 64 indices (scipy: the first K of them when --scipy-many K is less,
  scaled to 64 and marked so);
- sssp.dijkstra one-off: the drop-in call, conversion included.
"""

import argparse
import json
import statistics
import sys
import time

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import dijkstra as sp_dijkstra

import sssp


def read_bin(path):
    """sssp's binary CSR (crates/sssp-host/src/io/binary.rs) as a scipy CSR matrix."""
    raw = np.memmap(path, dtype=np.uint8, mode="r")
    if bytes(raw[:8]) != b"SSSPCSR\0":
        sys.exit(f"{path}: not an sssp .bin file")
    flags = int(raw[12:16].view(np.uint32)[0])
    n, m = (int(x) for x in raw[16:32].view(np.uint64))
    t = 48 + 8 * n
    w = t + ((4 * m + 7) // 8) * 8
    offsets = raw[40 : 40 + 8 * (n + 1)].view(np.uint64).astype(np.int64)
    targets = raw[t : t + 4 * m].view(np.uint32).astype(np.int32 if n < 2**31 else np.int64)
    wdt = np.float32 if flags & 2 else (np.int32 if flags & 1 else np.uint32)
    weights = raw[w : w + 4 * m].view(wdt).astype(np.float64)
    return sp.csr_matrix((weights, targets, offsets), shape=(n, n))


def timed(fn, repeat):
    """(median seconds, last result): one run only when the first takes over 2 s."""
    times, out = [], None
    for i in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
        if i == 0 and times[0] > 2.0:
            break
    return statistics.median(times), out


def check(name, got, want):
    if not (got.shape == want.shape and np.array_equal(got, want)):
        bad = np.flatnonzero(~((got == want) | (np.isinf(got) & np.isinf(want))).ravel())
        sys.exit(f"MISMATCH {name}: {bad.size} distances differ from scipy (first at flat index {bad[:5]})")


def bench(path, args):
    t = time.perf_counter()
    A = read_bin(path)
    load = time.perf_counter() - t
    n = A.shape[0]
    rng = np.random.default_rng(1)
    has_arcs = np.flatnonzero(np.diff(A.indptr) > 0)
    srcs = rng.choice(has_arcs, size=args.sources, replace=args.sources > has_arcs.size)
    s0 = int(srcs[0])
    row = {"graph": path, "n": n, "arcs": int(A.nnz), "load_s": load}

    conv, g = timed(lambda: sssp.Graph.from_scipy(A, device=args.device), 1)
    row.update(device=g.device, device_name=g.device_name, weight_kind=g.weight_kind, sssp_convert_s=conv)
    g.distances(s0)  # warm: first launch, lazily opened engines
    row["sssp_1_s"], d1 = timed(lambda: g.distances(s0), args.repeat)
    row["sssp_64_s"], d64 = timed(lambda: g.distances(srcs), max(1, args.repeat // 2))
    row["sssp_oneoff_s"], _ = timed(lambda: sssp.dijkstra(A, indices=s0, device=args.device), 1)

    row["scipy_1_s"], w1 = timed(lambda: sp_dijkstra(A, indices=s0), args.repeat)
    check("one source", d1, w1)
    k = min(args.sources, args.scipy_many)
    t_k, wk = timed(lambda: sp_dijkstra(A, indices=srcs[:k]), 1)
    check(f"{k} sources", d64[:k], wk)
    row["scipy_64_s"] = t_k * args.sources / k
    row["scipy_64_measured_sources"] = k

    if args.nx:
        import networkx as nx

        row["nx_convert_s"], G = timed(lambda: nx.from_scipy_sparse_array(A, create_using=nx.DiGraph), 1)
        row["nx_1_s"], wn = timed(lambda: nx.single_source_dijkstra_path_length(G, s0), 1)
        row["nx_backend_first_s"], gn = timed(lambda: nx.single_source_dijkstra_path_length(G, s0, backend="sssp"), 1)
        row["nx_backend_1_s"], gn = timed(lambda: nx.single_source_dijkstra_path_length(G, s0, backend="sssp"), args.repeat)
        if gn != wn:
            sys.exit("MISMATCH: the NetworkX backend's answer differs from NetworkX's")
    return row


def ms(x):
    return "-" if x is None else f"{x * 1e3:.1f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("graphs", nargs="+")
    ap.add_argument("--device", default="auto")
    ap.add_argument("--sources", type=int, default=64)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--scipy-many", type=int, default=64, help="scipy's many-source run measures this many sources")
    ap.add_argument("--nx", action="store_true", help="also NetworkX, and its sssp backend")
    ap.add_argument("--json")
    args = ap.parse_args()
    rows = [bench(p, args) for p in args.graphs]
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    print(f"device: {rows[0]['device_name']}; times in ms (median of {args.repeat}); every answer equal to scipy's")
    print("| graph | n | arcs | sssp convert | sssp 1 src | scipy 1 src | sssp 64 src | scipy 64 src | sssp.dijkstra one-off | nx 1 src | nx backend 1 src (first call) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        star = "" if r["scipy_64_measured_sources"] == args.sources else f" ({r['scipy_64_measured_sources']} measured)"
        nx_cols = (
            f"{ms(r['nx_1_s'])} | {ms(r['nx_backend_1_s'])} ({ms(r['nx_backend_first_s'])})"
            if "nx_1_s" in r
            else "- | -"
        )
        print(
            f"| {r['graph'].split('/')[-1]} | {r['n']} | {r['arcs']} | {ms(r['sssp_convert_s'])} | {ms(r['sssp_1_s'])} | "
            f"{ms(r['scipy_1_s'])} | {ms(r['sssp_64_s'])} | {ms(r['scipy_64_s'])}{star} | {ms(r['sssp_oneoff_s'])} | {nx_cols} |"
        )


if __name__ == "__main__":
    main()
