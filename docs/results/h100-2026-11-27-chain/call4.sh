#!/usr/bin/env bash
# Session 7, call 4: e1 (b6dcfaf) against pair (the partitioned advance relaxing a lane's
# ranks two at a time, each round trip for both).
cd "$(dirname "$0")/.."
mkdir -p .gpu && tar xJf .gpupack/gpu.tar.xz -C .gpu
xz -dc .gpuexp/e1.xz > .gpu/e1 && chmod +x .gpu/e1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
row() { python3 -c 'import json,sys
for l in sys.stdin:
  r=json.loads(l); print(r.get("algo"), r.get("balance"), "d", r.get("delta"), "ms", round(r["median_ms"],4), round(r["min_ms"],4), "work", round(r["work"],3), "iters", r.get("iterations"))'; }
for r in 1 2; do
for g in gen:kron:16 gen:kron:17 gen:kron:18 gen:kron:20 gen:kron:22 .gpu/USA-road-d.NY.gr.gz gen:road:1000000; do
  for b in e1 sssp; do
    printf "%s %s %s auto: " $r $g $b; .gpu/$b bench $g --device gpu --algos auto --trials 5 --json 2>/dev/null | row
  done
done
done
for b in e1 sssp; do
printf "k16 %s pa: " $b; .gpu/$b bench gen:kron:16 --device gpu --algos near-far,bucketing --deltas 16,32 --balance partition --dedupe stamp --trials 5 --json 2>/dev/null | row | tr '\n' ' '; echo
printf "k22 %s pa: " $b; .gpu/$b bench gen:kron:22 --device gpu --algos near-far --balance partition --dedupe stamp --trials 5 --json 2>/dev/null | row | tr '\n' ' '; echo
printf "path %s pa: " $b; .gpu/$b bench gen:path:4000 --device gpu --algos workfront,near-far --balance partition --dedupe stamp -s 0 --json 2>/dev/null | row | tr '\n' ' '; echo
done
echo "== suites (pair build)"
export SSSP_TEST_DEVICE=gpu
for s in strategies classes queries real negative many certify; do timeout 150 .gpu/$s --test-threads 4 2>&1 | grep -E "test result|FAIL|panicked" | head -5 | sed "s/^/$s: /"; done
SSSP_NARROW_PARTITION_ARCS=0 timeout 150 .gpu/strategies --test-threads 4 2>&1 | grep -E "test result|FAIL|panicked" | head -5 | sed "s/^/strategies-wide: /"
