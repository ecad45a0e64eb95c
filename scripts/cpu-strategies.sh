#!/usr/bin/env bash
# The CPU backend's table (docs/performance.md): every engine strategy (vwarp, stamp), async, delta-stepping, the default
# and serial Dijkstra in the same run, per graph, at THREADS threads (default: the machine's):
#   scripts/cpu-strategies.sh OUT [SSSP]      (SSSP: the binary, default target/release/sssp)
set -u
out=${1:?usage: $0 OUT [SSSP]}
bin=${2:-target/release/sssp}
ny=${NY:-../shared/data/road/USA-road-d.NY.gr.gz}
mkdir -p "$out"
threads=${THREADS:-$(nproc)}
for g in "$ny" gen:road:1000000 gen:uniform:1000000:8 gen:kron:20; do
  echo "== $g, $threads threads" >> "$out/cpu-strategies.txt"
  RAYON_NUM_THREADS=$threads timeout 400 "$bin" bench "$g" --device cpu -n 3 \
    --algos auto,delta-stepping,dijkstra,workfront,near-far,bucketing,async --balance vwarp --dedupe stamp \
    2>&1 | grep -E "^(auto|delta|dijk|workfront|near|bucket|async)" >> "$out/cpu-strategies.txt"
done
