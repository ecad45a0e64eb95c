#!/usr/bin/env bash
# Session 7, call 1: the suite (with the NARROW=0 pass) on main 9764486, then E1: relax
# without the pre-read (nopre) against main on roads and kron 16.
cd "$(dirname "$0")/.."
mkdir -p .gpu && tar xJf .gpupack/gpu.tar.xz -C .gpu && xz -dc .gpuexp/nopre.xz > .gpu/nopre && chmod +x .gpu/nopre
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
row() { python3 -c 'import json,sys
for l in sys.stdin:
  r=json.loads(l); print(r.get("algo"), r.get("balance"), "d", r.get("delta"), "ms", round(r["median_ms"],4), round(r["min_ms"],4), "work", round(r["work"],3), "iters", r.get("iterations"))'; }
for r in 1 2; do
for g in .gpu/USA-road-d.NY.gr.gz gen:road:1000000 gen:kron:16; do
  for b in nopre sssp; do
    printf "%s %s %s auto: " $r $g $b; .gpu/$b bench $g --device gpu --algos auto --trials 5 --json 2>/dev/null | row
  done
done
done
for b in nopre sssp; do
printf "path %s vw: " $b; .gpu/$b bench gen:path:4000 --device gpu --algos workfront --balance vwarp --dedupe stamp -s 0 --json 2>/dev/null | row | tr '\n' ' '; echo
done
echo "== suite"
SUITE_LIMIT=200 SANITIZE=0 SUITE_LOG=$OUT/suite.log scripts/gpu-suite.sh run 2>&1 | grep -E "^==|test result|FAIL|panicked|TIMEOUT" 
