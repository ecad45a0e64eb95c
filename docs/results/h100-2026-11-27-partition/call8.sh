#!/usr/bin/env bash
# Call 8: cells against the final build (the length load back inside the partition branch).
cd "$(dirname "$0")/.."
mkdir -p .gpu && tar xJf .gpupack/gpu.tar.xz -C .gpu && xz -dc .gpuexp/cells.xz > .gpu/cells && chmod +x .gpu/cells
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
row() { python3 -c 'import json,sys
for l in sys.stdin:
  r=json.loads(l); print(r.get("algo"), r.get("balance"), "d", r.get("delta"), "ms", round(r["median_ms"],4), round(r["min_ms"],4), "work", round(r["work"],3), "iters", r.get("iterations"))'; }
for r in 1 2; do
for g in .gpu/USA-road-d.NY.gr.gz gen:road:1000000 gen:kron:16 gen:kron:18 gen:kron:22; do
  for b in cells sssp; do
    printf "%s %s %s auto: " $r $g $b; .gpu/$b bench $g --device gpu --algos auto --trials 5 --json 2>/dev/null | row
  done
done
done
for b in cells sssp; do
printf "k16 %s nf-pa: " $b; .gpu/$b bench gen:kron:16 --device gpu --algos near-far --deltas 16,128 --balance partition --dedupe stamp --trials 5 --json 2>/dev/null | row | tr '\n' ' '; echo
printf "path %s pa: " $b; .gpu/$b bench gen:path:4000 --device gpu --algos workfront,near-far --balance partition --dedupe stamp -s 0 --json 2>/dev/null | row | tr '\n' ' '; echo
printf "path %s vw: " $b; .gpu/$b bench gen:path:4000 --device gpu --algos workfront --balance vwarp --dedupe stamp -s 0 --json 2>/dev/null | row | tr '\n' ' '; echo
done
echo "== suites"
export SSSP_TEST_DEVICE=gpu
for s in strategies classes queries; do timeout 100 .gpu/$s --test-threads 4 2>&1 | grep -E "test result|FAIL|panicked" | head -5 | sed "s/^/$s: /"; done
