#!/usr/bin/env bash
# H-BF's edge classes and negative weights (H100, 2026-11-23 and
# "Negative weights") on a CUDA machine, with binaries from `scripts/gpu-suite.sh build`. Every
# trial is verified. Usage: scripts/gpu-classes-bench.sh OUTDIR [BASE]
#   BASE: an `sssp` binary of an earlier commit, run on the same graphs for the default modes
#         (the no-regression rows), e.g. .gpu/sssp-base.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: $0 OUTDIR [BASE]}
base=${2:-}
mkdir -p "$out"
run() { # name binary args...
  local name=$1 bin=$2; shift 2
  echo "== $name: $bin bench $*"
  timeout 150 "$bin" bench "$@" --device gpu 2>&1 | tee "$out/$name.log" | grep -v '^\[' ; echo "exit ${PIPESTATUS[0]}"
}
# The classes on and off, in one run per graph (rows `MODE-nc`: off). Families as the paper's
# §6: scale-free (in-degree-1 heads), road and mesh (few classes: the cost of reading them),
# a directed random graph (sinks: out-degree Poisson(3), about 5% of vertices), and one with a
# self-loop on every vertex (like H-BF's msdoor and circuit).
run kron22 .gpu/sssp gen:kron:22 --algos workfront,near-far --balance vwarp,partition --dedupe stamp \
  --classify on,off --trials 3
run ny .gpu/sssp .gpu/USA-road-d.NY.gr.gz --algos workfront,near-far,bucketing,auto --balance vwarp \
  --dedupe stamp --classify on,off --trials 5
run road4m .gpu/sssp gen:road:4000000 --algos workfront,near-far --balance vwarp --dedupe stamp \
  --classify on,off --trials 3
run grid3d .gpu/sssp gen:grid3d:128x128x128 --algos workfront,near-far --balance vwarp --dedupe stamp \
  --classify on,off --trials 3
run uniform .gpu/sssp gen:uniform:4000000:3 --algos workfront,near-far --balance vwarp,partition \
  --dedupe stamp --classify on,off --trials 3
run selfloops .gpu/sssp gen:selfloops:2000000 --algos workfront,near-far --balance vwarp,partition \
  --dedupe stamp --classify on,off --trials 3
# Negative weights (potential-shifted: negative arcs, no negative cycle): the engines against
# serial Bellman-Ford, GTEPS = arcs / median time.
for g in gen:grid3d:64x64x64 gen:road:1000000 gen:kron:18; do
  run "neg-$(echo "$g" | tr ':' '_')" .gpu/sssp "$g" --weights shifted:1-100:400 \
    --algos workfront,topo-bf,bellman-ford --balance vwarp,partition --dedupe stamp --trials 3
done
if [ -n "$base" ]; then
  run ny-base "$base" .gpu/USA-road-d.NY.gr.gz --algos workfront,near-far,bucketing,auto --balance vwarp \
    --dedupe stamp --trials 5
  run kron22-base "$base" gen:kron:22 --algos workfront,near-far --balance vwarp,partition --dedupe stamp --trials 3
fi
