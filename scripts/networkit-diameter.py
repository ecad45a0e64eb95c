#!/usr/bin/env python3
"""NetworKit's exact diameter on an edge list written by `sssp convert` / `sssp gen` (lines
`u v w`, arcs both ways for undirected graphs), to compare with `sssp diameter`.

usage: networkit-diameter.py FILE.el (weighted|unit) THREADS

Builds an undirected NetworKit graph from the arcs with u < v (each edge once; self loops
dropped), takes its largest connected component (as `sssp diameter` does by default; not
timed), and times `Diameter(G, DiameterAlgo.EXACT)`. Prints one line of JSON.
"""
import json
import sys
import time

import networkit as nk
import numpy as np
import pandas as pd

path, kind, threads = sys.argv[1], sys.argv[2], int(sys.argv[3])
nk.setNumberOfThreads(threads)
t = time.time()
df = pd.read_csv(path, sep=" ", comment="#", header=None, names=["u", "v", "w"], dtype=np.int64)
n = int(max(df.u.max(), df.v.max())) + 1
df = df[df.u < df.v]
weighted = kind == "weighted"
w = df.w.to_numpy(dtype=np.float64) if weighted else np.ones(len(df))
G = nk.GraphFromCoo((w, (df.u.to_numpy(), df.v.to_numpy())), n=n, directed=False, weighted=weighted)
G = nk.components.ConnectedComponents.extractLargestConnectedComponent(G, True)
load = time.time() - t
t = time.time()
d = nk.distance.Diameter(G, nk.distance.DiameterAlgo.EXACT)
d.run()
secs = time.time() - t
print(json.dumps({"file": path, "kind": kind, "threads": threads, "n": G.numberOfNodes(),
                  "m": G.numberOfEdges(), "diameter": d.getDiameter()[0], "seconds": secs,
                  "load_seconds": load}), flush=True)
