"""k shortest simple paths: sssp.yen (device cpu and gpu), the CLI's `sssp paths`,
scipy.sparse.csgraph.yen (scipy >= 1.14) and NetworkX's shortest_simple_paths, on the same
graph, source, target and K; every answer's lengths are compared with sssp.yen's on the CPU.

    python crates/sssp-py/bench/yen.py [--sssp BIN] [--limit 300] [--devices cpu,gpu]
                                       [--json OUT] CASE ...

CASE is GRAPH:K or GRAPH:K:SOURCE:TARGET; GRAPH is sssp's binary CSR (`sssp convert NY.gr.gz
NY.bin`, `sssp gen road:1000000 -o road.bin`) or a DIMACS .gr(.gz) file. Without SOURCE and
TARGET: vertex 0 and the vertex farthest from it. Of parallel arcs the lightest is kept (what
the CLI and Yen use), so every system sees the same simple graph. Times are wall-clock seconds
of one run:
- sssp.yen: the drop-in call on the scipy matrix, conversion included;
- `sssp paths`: the whole command (reading the file included), and the search time it prints;
- scipy and NetworkX run in a child process stopped after --limit seconds ("> limit"); the
  NetworkX graph's construction is timed apart and not counted in the limit.
"""

import argparse
import gzip
import itertools
import json
import multiprocessing as mp
import os
import re
import subprocess
import sys
import tempfile
import time

import numpy as np
import scipy.sparse as sp

import sssp

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import read_bin  # noqa: E402  (the sibling benchmark's reader of .bin files)


def read_gr(path):
    """A DIMACS .gr(.gz) file as (tails, heads, weights), 0-based."""
    with gzip.open(path, "rt") if path.endswith(".gz") else open(path) as f:
        rows = [line.split()[1:4] for line in f if line.startswith("a ")]
    a = np.array(rows, dtype=np.int64)
    n = int(a[:, :2].max())
    return n, a[:, 0] - 1, a[:, 1] - 1, a[:, 2].astype(np.float64)


def load(path):
    """The graph as a float64 CSR matrix with int32 indices (scipy's yen needs them), the lightest
    of parallel arcs kept."""
    if path.endswith(".bin"):
        A = read_bin(path).tocoo()
        n, u, v, w = A.shape[0], A.row.astype(np.int64), A.col.astype(np.int64), A.data.astype(np.float64)
    else:
        n, u, v, w = read_gr(path)
    order = np.lexsort((w, v, u))
    u, v, w = u[order], v[order], w[order]
    first = np.ones(len(u), dtype=bool)
    first[1:] = (u[1:] != u[:-1]) | (v[1:] != v[:-1])
    A = sp.csr_array((w[first], (u[first], v[first])), shape=(n, n))
    A.indices, A.indptr = A.indices.astype(np.int32), A.indptr.astype(np.int32)
    return A


def in_child(fn, limit, *args):
    """fn(*args) in a forked child: ("ok", result, seconds), ("limit", None, limit) when it runs
    past `limit` (then stopped), or ("error", message, seconds). fn may first put
    ("setup", seconds) on the queue it gets: that time is reported and not limited."""
    ctx = mp.get_context("fork")
    q = ctx.Queue()
    p = ctx.Process(target=_child, args=(q, fn, args), daemon=True)
    p.start()
    setup = None
    try:
        msg = q.get(timeout=3600)  # the setup (NetworkX's graph) is not limited, but bounded
    except Exception:
        msg = ("error", "no answer from the child process", 0.0)
    if msg[0] == "setup":
        setup = msg[1]
        try:
            msg = q.get(timeout=limit)
        except Exception:  # queue.Empty: past the limit
            msg = ("limit", None, limit)
    p.terminate()
    p.join()
    return msg + (setup,)


def _child(q, fn, args):
    try:
        t0 = time.perf_counter()
        got = fn(q, *args)
        q.put(("ok", got, time.perf_counter() - t0))
    except Exception as e:  # reported, not raised: the parent goes on with the next system
        q.put(("error", f"{type(e).__name__}: {e}", 0.0))


def run_scipy(q, A, s, t, k):
    from scipy.sparse.csgraph import yen

    q.put(("setup", 0.0))
    return yen(A, s, t, k).tolist()


def run_networkx(q, A, s, t, k):
    import networkx as nx

    t0 = time.perf_counter()
    G = nx.from_scipy_sparse_array(A, create_using=nx.DiGraph)
    q.put(("setup", time.perf_counter() - t0))
    paths = itertools.islice(nx.shortest_simple_paths(G, s, t, weight="weight"), k)
    return [float(nx.path_weight(G, p, "weight")) for p in paths]


def run_cli(binary, path, s, t, k):
    """`sssp paths` on the file: (wall seconds, its printed search seconds, lengths)."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "paths.txt")
        cmd = [binary, "paths", path, "--source", str(s), "--target", str(t), "-k", str(k), "--device", "cpu", "-o", out]
        t0 = time.perf_counter()
        r = subprocess.run(cmd, capture_output=True, text=True)
        wall = time.perf_counter() - t0
        if r.returncode != 0:
            raise RuntimeError(r.stderr.strip()[-300:])
        m = re.search(r"path\(s\) from .* \(([0-9.]+) s\)", r.stderr)
        with open(out) as f:
            lengths = [float(line.split(":")[0]) for line in f]
    return wall, float(m.group(1)) if m else None, lengths


def case(spec, args):
    parts = spec.split(":")
    path, k = parts[0], int(parts[1])
    A = load(path)
    if len(parts) >= 4:
        s, t = int(parts[2]), int(parts[3])
    else:
        s = 0
        d = sssp.dijkstra(A, indices=0, device="cpu")
        t = int(np.argmax(np.where(np.isfinite(d), d, -1)))
    rows = []
    name = f"{os.path.basename(path)}, K = {k}, {s} -> {t} ({A.shape[0]:,} vertices, {A.nnz:,} arcs)"
    print(f"\n## {name}\n\n| system | seconds | paths | lengths equal |\n|---|---:|---:|---|", flush=True)
    want = None

    def row(system, secs, got, note=""):
        same = "" if got is None or want is None else str(got == want)
        n = "" if got is None else len(got)
        rows.append({"system": system, "seconds": secs, "paths": n, "equal": same, "note": note})
        print(f"| {system} | {secs} | {n} | {same}{note} |", flush=True)

    for dev in args.devices.split(","):
        try:
            t0 = time.perf_counter()
            got = sssp.yen(A, s, t, k, device=dev).tolist()
            secs = time.perf_counter() - t0
        except Exception as e:  # a device this machine lacks
            row(f"sssp.yen (device {dev})", "-", None, f" {type(e).__name__}: {e}")
            continue
        if want is None:
            want = got
        row(f"sssp.yen (device {dev})", f"{secs:.3f}", got)
    if args.sssp:
        try:
            wall, search, got = run_cli(args.sssp, path, s, t, k)
            row("`sssp paths` (CLI, whole command)", f"{wall:.3f}", got, f"; search {search:.3f} s")
        except Exception as e:
            row("`sssp paths` (CLI)", "-", None, f" {e}")
    for system, fn in [("scipy.sparse.csgraph.yen", run_scipy), ("networkx.shortest_simple_paths", run_networkx)]:
        status, got, secs, setup = in_child(fn, args.limit, A, s, t, k)
        note = "" if setup in (None, 0.0) else f"; graph built in {setup:.1f} s (not counted)"
        if status == "ok":
            row(system, f"{secs - (setup or 0):.3f}", got, note)
        elif status == "limit":
            row(system, f"> {args.limit:g}", None, f" stopped at the limit{note}")
        else:
            row(system, "-", None, f" {got}")
    return {"case": name, "rows": rows}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("cases", nargs="+", metavar="CASE")
    ap.add_argument("--sssp", help="the sssp binary for the CLI row (none: no CLI row)")
    ap.add_argument("--limit", type=float, default=300.0, help="seconds for scipy and NetworkX each")
    ap.add_argument("--devices", default="cpu,gpu")
    ap.add_argument("--json")
    args = ap.parse_args()
    out = [case(c, args) for c in args.cases]
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
