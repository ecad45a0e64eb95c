#!/usr/bin/env bash
# Query benchmarks (and kron 24 for the settling algorithms) on the GPU
# machine, after `scripts/gpu-suite.sh build` (carry .gpu/). Every trial is verified by `bench`
# (bounded certificate for target rows, tree checker for --tree rows).
#   scripts/gpu-queries-bench.sh > log
set -euo pipefail
cd "$(dirname "$0")/.."
S=.gpu/sssp
NY=.gpu/USA-road-d.NY.gr.gz
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true

echo "== NY: target queries at 1%, 10%, 50%, 100% of the source's eccentricity, and the full solve"
$S bench $NY --device gpu --trials 5 --algos near-far,bucketing --balance vwarp --dedupe stamp
$S bench $NY --device gpu --trials 5 --algos near-far,bucketing --balance vwarp --dedupe stamp --target-at 0.01,0.1,0.5,1
$S bench $NY --device gpu --trials 5 --algos dijkstra --target-at 0.01,0.1,0.5,1

echo "== NY: cutoff queries (source 0): time and arcs relaxed against the cutoff"
for c in 30000 100000 300000 1000000 3000000; do
  $S run $NY --device gpu --algo near-far --balance vwarp -s 0 --cutoff $c 2>&1 | tail -n 1
done
$S run $NY --device gpu --algo near-far --balance vwarp -s 0 2>&1 | tail -n 1

echo "== trees on the engine: extra time over the distances"
$S bench $NY --device gpu --trials 5 --algos near-far --balance vwarp --dedupe stamp --tree
$S bench gen:road:4000000 --device gpu --trials 5 --algos near-far --balance vwarp --dedupe stamp --tree
$S bench gen:kron:24 --device gpu --trials 3 --algos workfront,near-far,crauser --balance partition --dedupe stamp --tree

echo "== kron 24: settling algorithms, partition balance"
$S bench gen:kron:24 --device gpu --trials 3 --algos crauser,crauser-economic,martin --balance partition --criteria out,in,both

echo "== batched sources (run --batch K): sources per second, K per pass against one at a time"
$S bench $NY --device gpu --trials 64 --algos near-far,bucketing --balance vwarp --dedupe stamp --batches 1,8,32,64
$S bench gen:road:4000000 --device gpu --trials 64 --algos near-far --balance vwarp --dedupe stamp --batches 1,8,32
$S bench gen:kron:22 --device gpu --trials 64 --algos workfront,near-far --balance partition --dedupe stamp --batches 1,8,32
