#!/usr/bin/env bash
# Session 7, call 9: bar2 (= 6aa726b's kernels) against knownlen (the advance takes the input
# length the control step read, instead of reading its cell again).
cd "$(dirname "$0")/.."
mkdir -p .gpu && tar xJf .gpupack/gpu.tar.xz -C .gpu && xz -dc .gpuexp/bar2.xz > .gpu/bar2 && chmod +x .gpu/bar2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
row() { python3 -c 'import json,sys
for l in sys.stdin:
  r=json.loads(l); print(r.get("algo"), r.get("balance"), "d", r.get("delta"), "ms", round(r["median_ms"],4), round(r["min_ms"],4), "work", round(r["work"],3), "iters", r.get("iterations"))'; }
for r in 1 2 3; do
for g in .gpu/USA-road-d.NY.gr.gz gen:road:1000000 gen:kron:16 gen:kron:17 gen:kron:18; do
  for b in bar2 sssp; do
    printf "%s %s %s auto: " $r $g $b; .gpu/$b bench $g --device gpu --algos auto --trials 5 --json 2>/dev/null | row
  done
done
done
for g in gen:road:4000000 gen:grid3d:256x256x256; do
  for b in bar2 sssp; do
    printf "%s %s auto: " $g $b; .gpu/$b bench $g --device gpu --algos auto --trials 5 --json 2>/dev/null | row
  done
done
for b in bar2 sssp; do
printf "path %s pa: " $b; .gpu/$b bench gen:path:4000 --device gpu --algos workfront,near-far --balance partition --dedupe stamp -s 0 --json 2>/dev/null | row | tr '\n' ' '; echo
printf "path %s vw: " $b; .gpu/$b bench gen:path:4000 --device gpu --algos workfront,bucketing --balance vwarp --dedupe stamp -s 0 --json 2>/dev/null | row | tr '\n' ' '; echo
done
echo "== suites (knownlen build)"
export SSSP_TEST_DEVICE=gpu
for s in strategies block_loop classes queries many certify real negative; do timeout 150 .gpu/$s --test-threads 4 2>&1 | grep -E "test result|FAIL|panicked" | head -5 | sed "s/^/$s: /"; done
SSSP_NARROW_PARTITION_ARCS=0 timeout 150 .gpu/strategies --test-threads 4 2>&1 | grep -E "test result|FAIL|panicked" | head -5 | sed "s/^/strategies-wide: /"
