#!/usr/bin/env bash
# Call 6: old (68bbe69) / cells (a9e1fd1, this session's start) / walk2 (c0cc4ab) / new (+ small frontiers without the scan);
# then the GPU suites and the sanitizers on the frontier loops.
cd "$(dirname "$0")/.."
mkdir -p .gpu && tar xJf .gpupack/gpu.tar.xz -C .gpu && for b in cells walk2; do xz -dc .gpuexp/$b.xz > .gpu/$b; chmod +x .gpu/$b; done
xz -dc .gpuold/sssp.xz > .gpu/old; chmod +x .gpu/old
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
row() { python3 -c 'import json,sys
for l in sys.stdin:
  r=json.loads(l); print(r.get("algo"), r.get("balance"), "d", r.get("delta"), "ms", round(r["median_ms"],4), round(r["min_ms"],4), "work", round(r["work"],3), "iters", r.get("iterations"))'; }
for r in 1 2; do
for g in gen:kron:16 gen:kron:17 gen:kron:18 gen:kron:20 gen:kron:22 .gpu/USA-road-d.NY.gr.gz gen:road:1000000; do
  for b in old cells $([ $r = 1 ] && echo walk2) sssp; do
    printf "%s %s %s auto: " $r $g $b; .gpu/$b bench $g --device gpu --algos auto --trials 5 --json 2>/dev/null | row
  done
  case $g in *kron:1[678]) for b in cells sssp; do
    printf "%s %s %s nf-pa: " $r $g $b; .gpu/$b bench $g --device gpu --algos near-far,bucketing --balance partition --dedupe stamp --trials 5 --json 2>/dev/null | row | tr '\n' ' '; echo
    printf "%s %s %s nf-pa-d16: " $r $g $b; .gpu/$b bench $g --device gpu --algos near-far --deltas 16 --balance partition --dedupe stamp --trials 5 --json 2>/dev/null | row | tr '\n' ' '; echo
  done;; esac
done
done
for b in cells walk2 sssp; do
printf "path %s pa: " $b; .gpu/$b bench gen:path:4000 --device gpu --algos workfront,near-far --balance partition --dedupe stamp -s 0 --json 2>/dev/null | row | tr '\n' ' '; echo
printf "path %s vw: " $b; .gpu/$b bench gen:path:4000 --device gpu --algos workfront --balance vwarp --dedupe stamp -s 0 --json 2>/dev/null | row | tr '\n' ' '; echo
done
echo "== suites"
export SSSP_TEST_DEVICE=gpu SSSP_TEST_RANKS=gpu
for s in strategies block_loop classes queries memory certify many real negative phast order diameter; do timeout 150 .gpu/$s --test-threads 4 2>&1 | grep -E "test result|FAIL|panicked" | head -5 | sed "s/^/$s: /"; done
echo "== sanitizers"
for tool in memcheck racecheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 .gpu/strategies --test-threads 1 kron star_with_hub zero_weights hub_path overflowed 2>&1 | tail -n 3 | sed "s/^/$tool: /"; echo "$tool rc ${PIPESTATUS[0]}"
done
