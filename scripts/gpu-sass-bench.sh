#!/usr/bin/env bash
# The committed SASS against the driver's JIT of the PTX, on the GPU
# machine after `scripts/gpu-suite.sh build`:
#   scripts/gpu-sass-bench.sh OUT [first|speed|all]   (default all)
# 1. A first process on a fresh machine: every run gets an empty CUDA_CACHE_PATH (the driver's
#    JIT cache), so each is what a fresh machine's first process pays; `cached` reruns on the
#    cache the JIT run left. The twins module (edge classes) loads on a classified run.
# 2. Kernel speed: the same binary with the SASS (default) and with SSSP_JIT=1, alternating.
set -u
out=${1:?usage: $0 OUT [first|speed|all]}
part=${2:-all}
S=.gpu/sssp
NY=.gpu/USA-road-d.NY.gr.gz
run() { echo "\$ $*"; "$@"; }
first() { # MODE ARGS...: wall time and the device line of one process
  local mode=$1; shift
  local t0 t1
  t0=$(date +%s.%N)
  "$@" 2>&1 | grep -E "^device:|edge classes" | head -3
  t1=$(date +%s.%N)
  echo "  [$mode] wall $(echo "$t1 - $t0" | bc) s"
}
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  [ "$part" = speed ] || for round in 1 2 3; do
    echo "== round $round: first processes (empty JIT cache each)"
    c=$(mktemp -d); first sass env CUDA_CACHE_PATH=$c $S run $NY --source 0 --device gpu
    c=$(mktemp -d); first jit env CUDA_CACHE_PATH=$c SSSP_JIT=1 $S run $NY --source 0 --device gpu
    first jit-cached env CUDA_CACHE_PATH=$c SSSP_JIT=1 $S run $NY --source 0 --device gpu
    c=$(mktemp -d); first sass+twins env CUDA_CACHE_PATH=$c $S run gen:kron:12 --algo workfront --classify on --source 0 --device gpu
    c=$(mktemp -d); first jit+twins env CUDA_CACHE_PATH=$c SSSP_JIT=1 $S run gen:kron:12 --algo workfront --classify on --source 0 --device gpu
  done
  [ "$part" = first ] || echo "== kernel speed: SASS (default) vs SSSP_JIT=1, same binary, alternating"
  [ "$part" = first ] || for round in 1 2; do
    for mode in sass jit; do
      if [ $mode = jit ]; then export SSSP_JIT=1; else unset SSSP_JIT; fi
      echo "-- $mode (round $round)"
      run $S bench $NY --device gpu --trials 5 --algos auto,bucketing --balance vwarp --dedupe stamp
      run $S bench gen:kron:20 --device gpu --trials 5 --algos workfront,near-far --balance partition,vwarp --dedupe stamp
      run $S bench gen:road:1000000 --device gpu --trials 3 --algos auto,bucketing --balance vwarp --dedupe stamp --loops grid,block
      run $S bench gen:grid3d:128x128x128 --device gpu --trials 3 --algos near-far --balance vwarp --dedupe stamp
      run $S bench gen:kron:22 --device gpu --trials 3 --algos auto
    done
  done
  unset SSSP_JIT
} 2>&1 | tee "$out"
