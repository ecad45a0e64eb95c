#!/usr/bin/env bash
# Session 7, call 6: e1 (b6dcfaf), bar (call 5's barrier: acq_rel arrival, release bump,
# acquire polling) and bar2 (the same, polling with volatile loads and one acquire load after).
cd "$(dirname "$0")/.."
mkdir -p .gpu && tar xJf .gpupack/gpu.tar.xz -C .gpu && for b in e1 bar bar2; do xz -dc .gpuexp/$b.xz > .gpu/$b && chmod +x .gpu/$b; done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
row() { python3 -c 'import json,sys
for l in sys.stdin:
  r=json.loads(l); print(r.get("algo"), r.get("balance"), "d", r.get("delta"), "ms", round(r["median_ms"],4), round(r["min_ms"],4), "work", round(r["work"],3), "iters", r.get("iterations"))'; }
for r in 1 2 3; do
for g in gen:kron:16 gen:kron:17 gen:kron:18 .gpu/USA-road-d.NY.gr.gz gen:road:1000000; do
  for b in e1 bar bar2; do
    printf "%s %s %s auto: " $r $g $b; .gpu/$b bench $g --device gpu --algos auto --trials 5 --json 2>/dev/null | row
  done
done
done
for b in e1 bar bar2; do
printf "path %s pa: " $b; .gpu/$b bench gen:path:4000 --device gpu --algos workfront,near-far --balance partition --dedupe stamp -s 0 --json 2>/dev/null | row | tr '\n' ' '; echo
printf "path %s vw: " $b; .gpu/$b bench gen:path:4000 --device gpu --algos workfront,bucketing --balance vwarp --dedupe stamp -s 0 --json 2>/dev/null | row | tr '\n' ' '; echo
done
