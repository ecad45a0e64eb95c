#!/usr/bin/env bash
# Session 7, call 2: main (9764486) against new (relax_direct in the vwarp advance + the
# block-local partition of frontiers up to 1024) and v512 (the same, up to 512).
cd "$(dirname "$0")/.."
mkdir -p .gpu && tar xJf .gpupack/gpu.tar.xz -C .gpu
xz -dc .gpuold/main9764486.xz > .gpu/main && xz -dc .gpuexp/v512.xz > .gpu/v512 && chmod +x .gpu/main .gpu/v512
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
row() { python3 -c 'import json,sys
for l in sys.stdin:
  r=json.loads(l); print(r.get("algo"), r.get("balance"), "d", r.get("delta"), "ms", round(r["median_ms"],4), round(r["min_ms"],4), "work", round(r["work"],3), "iters", r.get("iterations"))'; }
for r in 1 2; do
for g in gen:kron:16 gen:kron:17 gen:kron:18; do
  for b in main sssp v512; do
    printf "%s %s %s auto: " $r $g $b; .gpu/$b bench $g --device gpu --algos auto --trials 5 --json 2>/dev/null | row
  done
done
for g in .gpu/USA-road-d.NY.gr.gz gen:road:1000000; do
  for b in main sssp; do
    printf "%s %s %s auto: " $r $g $b; .gpu/$b bench $g --device gpu --algos auto --trials 5 --json 2>/dev/null | row
  done
done
done
for b in main sssp v512; do
printf "k16 %s nf-pa: " $b; .gpu/$b bench gen:kron:16 --device gpu --algos near-far,bucketing --deltas 16,32 --balance partition --dedupe stamp --trials 5 --json 2>/dev/null | row | tr '\n' ' '; echo
printf "k18 %s nf-pa: " $b; .gpu/$b bench gen:kron:18 --device gpu --algos near-far,bucketing --deltas 16,32 --balance partition --dedupe stamp --trials 5 --json 2>/dev/null | row | tr '\n' ' '; echo
done
for b in main sssp; do
printf "path %s pa: " $b; .gpu/$b bench gen:path:4000 --device gpu --algos workfront,near-far --balance partition --dedupe stamp -s 0 --json 2>/dev/null | row | tr '\n' ' '; echo
printf "path %s vw: " $b; .gpu/$b bench gen:path:4000 --device gpu --algos workfront --balance vwarp --dedupe stamp -s 0 --json 2>/dev/null | row | tr '\n' ' '; echo
done
for g in gen:kron:20 gen:kron:22 gen:road:4000000 gen:grid3d:256x256x256; do
  for b in main sssp; do
    printf "%s %s auto: " $g $b; .gpu/$b bench $g --device gpu --algos auto --trials 5 --json 2>/dev/null | row
  done
done
