#!/usr/bin/env bash
# Call 4: the warp-wide partition walk (new) against the build before it (cells), one call.
cd "$(dirname "$0")/.."
mkdir -p .gpu && tar xJf .gpupack/gpu.tar.xz -C .gpu && xz -dc .gpuexp/cells.xz > .gpu/cells && chmod +x .gpu/cells
row() { python3 -c 'import json,sys
for l in sys.stdin:
  r=json.loads(l); print(r.get("algo"), r.get("balance"), "d", r.get("delta"), "ms", round(r["median_ms"],4), round(r["min_ms"],4), "work", round(r["work"],3), "iters", r.get("iterations"))'; }
echo "== certified runs, partition paths (new)"
for g in gen:kron:14 gen:road:20000 gen:grid2d:100x100 gen:star:5000 gen:zero:3000; do
  for a in workfront near-far bucketing; do
    for extra in "--balance partition" "--balance vwarp" "--balance partition --host-loop"; do
      .gpu/sssp run $g --device gpu --algo $a $extra --verify --reference -n 3 >/dev/null 2>&1 && echo "ok $g $a $extra" || echo "FAIL $g $a $extra"
    done
  done
done
for r in 1 2; do
for g in gen:kron:16 gen:kron:17 gen:kron:18 gen:kron:20 gen:kron:22 .gpu/USA-road-d.NY.gr.gz gen:road:1000000; do
  for b in .gpu/cells .gpu/sssp; do
    printf "%s %s %s auto: " $r $g $b; $b bench $g --device gpu --algos auto --trials 5 --json 2>/dev/null | row
    case $g in *kron*)
    printf "%s %s %s wf-pa-narrow-dev: " $r $g $b; SSSP_PARTITION_NARROW=1 SSSP_PARTITION_LOOP=device $b bench $g --device gpu --algos workfront --balance partition --dedupe stamp --trials 5 --json 2>/dev/null | row
    printf "%s %s %s nf-pa-wide d16,32: " $r $g $b; $b bench $g --device gpu --algos near-far --balance partition --dedupe stamp --deltas 16,32 --trials 5 --json 2>/dev/null | row
    printf "%s %s %s nf-vw d16,32: " $r $g $b; $b bench $g --device gpu --algos near-far --balance vwarp --dedupe stamp --deltas 16,32 --trials 5 --json 2>/dev/null | row
    esac
  done
done
done
for b in .gpu/cells .gpu/sssp; do
printf "path %s wf pa narrow: " $b; SSSP_PARTITION_NARROW=1 SSSP_PARTITION_LOOP=device $b bench gen:path:4000 --device gpu --algos workfront --balance partition --dedupe stamp -s 0 --json 2>/dev/null | row
done
echo "== suites"
export SSSP_TEST_DEVICE=gpu
for s in strategies classes queries; do timeout 200 .gpu/$s --test-threads 4 2>&1 | grep -E "test result|FAIL|panicked" | head -5 | sed "s/^/$s: /"; done
