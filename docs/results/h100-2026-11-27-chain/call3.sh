#!/usr/bin/env bash
# Session 7, call 3: main (9764486), e1 (b6dcfaf: relax_direct in the vwarp advance) and
# carry (e1 + the near queues' carried arc ranges, prototype: allocated on every GPU engine).
cd "$(dirname "$0")/.."
mkdir -p .gpu && tar xJf .gpupack/gpu.tar.xz -C .gpu
xz -dc .gpuold/main9764486.xz > .gpu/main && xz -dc .gpuexp/e1.xz > .gpu/e1 && chmod +x .gpu/main .gpu/e1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
row() { python3 -c 'import json,sys
for l in sys.stdin:
  r=json.loads(l); print(r.get("algo"), r.get("balance"), "d", r.get("delta"), "ms", round(r["median_ms"],4), round(r["min_ms"],4), "work", round(r["work"],3), "iters", r.get("iterations"))'; }
for r in 1 2; do
for g in .gpu/USA-road-d.NY.gr.gz gen:road:1000000; do
  for b in main e1 sssp; do
    printf "%s %s %s auto: " $r $g $b; .gpu/$b bench $g --device gpu --algos auto --trials 5 --json 2>/dev/null | row
  done
done
done
for g in gen:road:4000000 gen:grid3d:256x256x256 gen:kron:16; do
  for b in main e1 sssp; do
    printf "%s %s auto: " $g $b; .gpu/$b bench $g --device gpu --algos auto --trials 5 --json 2>/dev/null | row
  done
done
for b in main e1 sssp; do
printf "path %s vw: " $b; .gpu/$b bench gen:path:4000 --device gpu --algos workfront,bucketing --balance vwarp --dedupe stamp -s 0 --json 2>/dev/null | row | tr '\n' ' '; echo
done
echo "== suites (carry build)"
export SSSP_TEST_DEVICE=gpu
for s in strategies strategies classes queries block_loop real negative many certify; do timeout 150 .gpu/$s --test-threads 4 2>&1 | grep -E "test result|FAIL|panicked" | head -5 | sed "s/^/$s: /"; done
