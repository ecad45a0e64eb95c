#!/usr/bin/env bash
# Call 5: cells (before) / walk1 (slot distance read once) / new (warp walk + narrow partition rule).
cd "$(dirname "$0")/.."
mkdir -p .gpu && tar xJf .gpupack/gpu.tar.xz -C .gpu && for b in cells walk1; do xz -dc .gpuexp/$b.xz > .gpu/$b; chmod +x .gpu/$b; done
row() { python3 -c 'import json,sys
for l in sys.stdin:
  r=json.loads(l); print(r.get("algo"), r.get("balance"), "d", r.get("delta"), "ms", round(r["median_ms"],4), round(r["min_ms"],4), "work", round(r["work"],3), "iters", r.get("iterations"), "loop", r.get("loop"))'; }
for r in 1 2; do
for g in gen:kron:16 gen:kron:17 gen:kron:18 gen:kron:20 gen:kron:22 .gpu/USA-road-d.NY.gr.gz gen:road:1000000; do
  for b in cells $([ $r = 1 ] && echo walk1) sssp; do
    printf "%s %s %s auto: " $r $g $b; .gpu/$b bench $g --device gpu --algos auto --trials 5 --json 2>/dev/null | row
  done
  case $g in *kron:1[678]) for b in cells sssp; do
    printf "%s %s %s nf-pa: " $r $g $b; .gpu/$b bench $g --device gpu --algos near-far,bucketing --balance partition --dedupe stamp --trials 5 --json 2>/dev/null | row | tr '\n' ' '; echo
  done;; esac
done
done
for g in gen:kron:24 gen:road:4000000 gen:grid3d:256x256x256; do
  for b in cells sssp cells sssp; do printf "big %s %s auto: " $g $b; .gpu/$b bench $g --device gpu --algos auto --trials 5 --json 2>/dev/null | row; done
done
for b in cells sssp; do
printf "path %s wf pa: " $b; .gpu/$b bench gen:path:4000 --device gpu --algos workfront,near-far --balance partition --dedupe stamp -s 0 --json 2>/dev/null | row | tr '\n' ' '; echo
done
echo "== suites"
export SSSP_TEST_DEVICE=gpu
for s in strategies block_loop classes queries memory certify many; do timeout 200 .gpu/$s --test-threads 4 2>&1 | grep -E "test result|FAIL|panicked" | head -5 | sed "s/^/$s: /"; done
