#!/usr/bin/env bash
# The traversal modes and the hub path (H100, 2026-11-23) on a CUDA machine, with binaries from `scripts/gpu-suite.sh build`. Every trial is
# verified. Usage: scripts/gpu-hubs-bench.sh OUTDIR [BASE]
#   BASE: an `sssp` binary of an earlier commit, run on the same graphs for the default modes
#         (the no-regression rows), e.g. .gpu/sssp-base.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: $0 OUTDIR [BASE]}
base=${2:-}
mkdir -p "$out"
modes=thread,vwarp,partition,cta,cta-warp-scan
run() { # name binary args...
  local name=$1 bin=$2; shift 2
  echo "== $name: $bin bench $*"
  timeout 240 "$bin" bench "$@" --device gpu 2>&1 | tee "$out/$name.log" | grep -v '^\[' ; echo "exit ${PIPESTATUS[0]}"
}
# Every mode x hub threshold on a scale-free graph (0 = no hub path: the old behaviour).
run kron22 .gpu/sssp gen:kron:22 --algos workfront --balance $modes --dedupe stamp \
  --hub-degrees 0,64,128,256,1024,4096 --trials 3
run kron22-nf .gpu/sssp gen:kron:22 --algos near-far,bucketing --balance $modes --dedupe stamp --trials 3
# kron 24: every mode at the default threshold.
run kron24 .gpu/sssp gen:kron:24 --algos workfront --balance $modes --dedupe stamp --trials 3
# Road graph and mesh: no vertex reaches the threshold, so no hub path; the modes compared.
run ny .gpu/sssp .gpu/USA-road-d.NY.gr.gz --algos workfront,near-far,bucketing,auto --balance $modes \
  --dedupe stamp --trials 5
run grid3d .gpu/sssp gen:grid3d:128x128x128 --algos workfront,near-far --balance $modes --dedupe stamp --trials 3
if [ -n "$base" ]; then
  run ny-base "$base" .gpu/USA-road-d.NY.gr.gz --algos workfront,near-far,bucketing,auto --balance vwarp,partition \
    --dedupe stamp --trials 5
  run kron22-base "$base" gen:kron:22 --algos workfront,near-far,auto --balance vwarp,partition --dedupe stamp --trials 3
fi
