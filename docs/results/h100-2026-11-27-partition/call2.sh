#!/usr/bin/env bash
# Call 2: per-iteration cost of the partition loops, and small deltas on the kron graphs.
cd "$(dirname "$0")/.."
[ -x .gpu/sssp ] || { mkdir -p .gpu && tar xJf .gpupack/gpu.tar.xz -C .gpu; }
B=.gpu/sssp
row() { python3 -c 'import json,sys
for l in sys.stdin:
  r=json.loads(l); print(r.get("algo"), r.get("balance"), "d", r.get("delta"), "ms", round(r["median_ms"],4), round(r["min_ms"],4), "work", round(r["work"],3), "iters", r.get("iterations"))'; }
echo "== one vertex per iteration: gen:path:4000"
for r in 1 2; do
printf "host wf pa: "; $B bench gen:path:4000 --device gpu --algos workfront --balance partition --dedupe stamp -s 0 --json 2>/dev/null | row
printf "narrow wf pa: "; SSSP_PARTITION_NARROW=1 SSSP_PARTITION_LOOP=device $B bench gen:path:4000 --device gpu --algos workfront --balance partition --dedupe stamp -s 0 --json 2>/dev/null | row
printf "wide wf pa: "; SSSP_PARTITION_LOOP=device $B bench gen:path:4000 --device gpu --algos workfront --balance partition --dedupe stamp -s 0 --json 2>/dev/null | row
printf "narrow wf vw: "; $B bench gen:path:4000 --device gpu --algos workfront --balance vwarp --dedupe stamp -s 0 --json 2>/dev/null | row
printf "narrow nf pa: "; SSSP_PARTITION_NARROW=1 $B bench gen:path:4000 --device gpu --algos near-far --balance partition --dedupe stamp -s 0 --json 2>/dev/null | row
printf "wide nf pa: "; $B bench gen:path:4000 --device gpu --algos near-far --balance partition --dedupe stamp -s 0 --json 2>/dev/null | row
done
echo "== small deltas"
for g in gen:kron:16 gen:kron:17 gen:kron:18 gen:kron:20 gen:kron:22; do
  for a in near-far bucketing; do
    echo "-- $g $a narrow"; SSSP_PARTITION_NARROW=1 $B bench $g --device gpu --algos $a --balance partition --dedupe stamp --deltas 4,8,16,32,128 --trials 5 --json 2>/dev/null | row
    echo "-- $g $a wide"; $B bench $g --device gpu --algos $a --balance partition --dedupe stamp --deltas 8,16,32 --trials 5 --json 2>/dev/null | row
  done
  echo "-- $g near-far vwarp"; $B bench $g --device gpu --algos near-far --balance vwarp --dedupe stamp --deltas 8,16,32 --trials 5 --json 2>/dev/null | row
  printf "%s auto: " $g; $B bench $g --device gpu --algos auto --trials 5 --json 2>/dev/null | row
done
