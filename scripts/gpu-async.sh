#!/usr/bin/env bash
# Asynchronous delta-stepping on the GPU machine, after `scripts/gpu-suite.sh build` (the new
# binary and test suites in .gpupack), with a baseline binary (5f829c1, built the same way) in
# .gpuold/sssp-old:   scripts/gpu-async.sh OUT [suite|bench|all]
#   suite: the async configurations of the strategy, query and real-weight suites on the GPU,
#          three times over (a race shows up as a difference between runs, or a failure).
#   bench: async (several worker counts) against the best configurations of
#          the old binary and of the new one, in one run, every trial verified by the certificate.
set -u
out=${1:?usage: $0 OUT [suite|bench|all]}
what=${2:-all}
mkdir -p "$out"
if [ ! -x .gpu/sssp ] && [ -f .gpupack/gpu.tar.xz ]; then mkdir -p .gpu && tar xJf .gpupack/gpu.tar.xz -C .gpu; fi
NY=.gpu/USA-road-d.NY.gr.gz
OLD=.gpuold/sssp-old
NEW=.gpu/sssp
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/device.txt"
fail=0
if [ "$what" != bench ]; then
  for round in 1 2 3; do
    for t in strategies queries real; do
      echo "== $t round $round (GPU, async)" >> "$out/suite.log"
      if ! SSSP_TEST_DEVICE=gpu SSSP_TEST_ALGOS=async timeout 200 ".gpu/$t" --test-threads 1 >> "$out/suite.log" 2>&1; then
        echo "FAIL: $t round $round" | tee -a "$out/suite.log"
        fail=1
      fi
    done
  done
  grep -E "^test result|FAIL" "$out/suite.log" | sort | uniq -c
  # The sanitizers on the small families (racecheck looks at shared memory, which the worker
  # does not use; memcheck at every global access of the rings, flags and counters).
  for tool in memcheck racecheck; do
    if ! SSSP_TEST_DEVICE=gpu SSSP_TEST_ALGOS=async timeout 250 compute-sanitizer --tool "$tool" --error-exitcode 9 \
        .gpu/strategies --test-threads 1 kron star_with_hub zero_weights grid2d road complete long_path >> "$out/sanitize.log" 2>&1; then
      echo "FAIL: $tool" | tee -a "$out/sanitize.log"
      fail=1
    fi
  done
  grep -E "ERROR SUMMARY|test result" "$out/sanitize.log"
fi
b() { # LABEL BIN ARGS...: one bench, its table to OUT/LABEL.txt
  local label=$1 bin=$2; shift 2
  { echo "== $label: $bin $*"; timeout 200 "$bin" "$@" --device gpu 2>&1 | grep -vE "^(graph|sources)"; } >> "$out/$label.txt"
}
if [ "$what" != suite ]; then
  for g in $NY gen:road:1000000 gen:kron:16 gen:kron:17 gen:kron:18; do
    name=$(basename "$g" | tr ':/' '__')
    b "$name" $NEW bench "$g" --trials 5 --algos async --workers "${WORKERS:-132,264,528,1056}"
    b "$name" $OLD bench "$g" --trials 5 --algos auto,near-far,bucketing --balance vwarp,partition --dedupe stamp --loops grid,block
    b "$name" $NEW bench "$g" --trials 5 --algos auto,bucketing --balance vwarp --dedupe stamp --loops grid,block
  done
fi
exit $fail
