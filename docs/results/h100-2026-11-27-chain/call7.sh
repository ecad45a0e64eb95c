#!/usr/bin/env bash
# Session 7, call 7: the final build (main at the barrier commit) through the whole GPU suite,
# memcheck on the strategies' kron and hub cases, and the benchmark table against 9764486.
cd "$(dirname "$0")/.."
mkdir -p .gpu && tar xJf .gpupack/gpu.tar.xz -C .gpu && xz -dc .gpuold/main9764486.xz > .gpu/main && chmod +x .gpu/main
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
row() { python3 -c 'import json,sys
for l in sys.stdin:
  r=json.loads(l); print(r.get("algo"), r.get("balance"), "d", r.get("delta"), "ms", round(r["median_ms"],4), round(r["min_ms"],4), "work", round(r["work"],3), "iters", r.get("iterations"))'; }
for r in 1 2; do
for g in .gpu/USA-road-d.NY.gr.gz gen:road:1000000 gen:kron:16 gen:kron:17 gen:kron:18; do
  for b in main sssp; do
    printf "%s %s %s auto: " $r $g $b; .gpu/$b bench $g --device gpu --algos auto --trials 5 --json 2>/dev/null | row
  done
done
done
for g in gen:kron:20 gen:kron:22 gen:kron:24 gen:road:4000000 gen:grid3d:256x256x256; do
  for b in main sssp; do
    printf "%s %s auto: " $g $b; .gpu/$b bench $g --device gpu --algos auto --trials 5 --json 2>/dev/null | row
  done
done
for b in main sssp; do
printf "path %s pa: " $b; .gpu/$b bench gen:path:4000 --device gpu --algos workfront,near-far --balance partition --dedupe stamp -s 0 --json 2>/dev/null | row | tr '\n' ' '; echo
printf "path %s vw: " $b; .gpu/$b bench gen:path:4000 --device gpu --algos workfront,bucketing --balance vwarp --dedupe stamp -s 0 --json 2>/dev/null | row | tr '\n' ' '; echo
done
echo "== suite"
SUITE_LIMIT=200 SANITIZE=0 SUITE_LOG=$OUT/suite.log scripts/gpu-suite.sh run 2>&1 | grep -E "^==|test result|FAIL|panicked|TIMEOUT"
echo "== memcheck"
SSSP_TEST_DEVICE=gpu timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 .gpu/strategies --test-threads 1 kron star_with_hub hub_path 2>&1 | tail -n 4
