#!/usr/bin/env bash
# PHAST against the frontier strategies (docs/performance.md, "PHAST"), on the GPU
# machine after `scripts/gpu-suite.sh build`:
#   scripts/gpu-phast-bench.sh OUT [quick]
# Every `bench` row is the median of its trials, each verified; the hierarchy's build time is
# printed once per graph (`phast: contraction hierarchy built in ...`), outside the times.
set -u
out=${1:?usage: $0 OUT [quick]}
S=.gpu/sssp
B="--device gpu --dedupe stamp --balance vwarp"
NY=.gpu/USA-road-d.NY.gr.gz
run() { echo "\$ $*"; "$@"; }
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  nproc
  run $S bench $NY --device gpu --trials 5 --algos auto,phast
  run $S bench $NY $B --trials 5 --algos bucketing --deltas 15000,150000
  run $S bench $NY --device cpu --trials 5 --algos phast,dijkstra
  if [ "${2:-}" != quick ]; then
    run $S bench gen:road:4000000 --device gpu --trials 3 --algos auto,phast
  fi
  run $S bench gen:grid2d:1000x1000 --device gpu --trials 3 --algos auto,phast
  run $S bench gen:kron:16 --device gpu --trials 3 --algos auto,phast
} 2>&1 | tee "$out"
