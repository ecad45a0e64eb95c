#!/usr/bin/env bash
# The block loop against the grid loop (docs/gpu.md, "The block loop"), on the
# GPU machine after `scripts/gpu-suite.sh build`:
#   scripts/gpu-block-bench.sh OUT [BASE]
# OUT: the log. BASE: an `sssp` binary of an earlier commit, for the grid loop's no-regression
# rows (same graphs, same call).
set -u
out=${1:?usage: $0 OUT [BASE]}
base=${2:-}
S=.gpu/sssp
B="--device gpu --dedupe stamp --balance vwarp"
NY=.gpu/USA-road-d.NY.gr.gz
run() { echo "\$ $*"; "$@"; }
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  run $S bench gen:path:20000 $B --trials 3 --algos workfront,near-far --loops grid,block
  run $S bench $NY $B --trials 5 --algos near-far,bucketing --deltas 15000,30000,60000,150000 --loops grid,block
  run $S bench $NY --device gpu --trials 5 --algos auto
  run $S bench gen:road:4000000 $B --trials 3 --algos bucketing --deltas 13544,50000 --loops grid,block
  run $S bench gen:grid2d:1000x1000 $B --trials 3 --algos near-far,bucketing --loops grid,block
  run $S bench gen:grid3d:128x128x128 $B --trials 3 --algos near-far --loops grid,block
  run $S bench gen:kron:16 $B --trials 3 --algos workfront,near-far --loops grid,block
  if [ -n "$base" ]; then
    for s in "$base" $S; do
      run "$s" bench $NY $B --trials 5 --algos bucketing --deltas 15000,150000
      run "$s" bench gen:kron:20 --device gpu --dedupe stamp --balance partition --trials 3 --algos workfront,near-far
    done
  fi
} 2>&1 | tee "$out"
