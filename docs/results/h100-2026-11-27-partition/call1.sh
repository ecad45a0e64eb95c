#!/usr/bin/env bash
# Call 1 (2026-11-27, sixth session): the cells-page-offset check and the partition-loop knobs.
cd "$(dirname "$0")/.."
mkdir -p .gpu/old && tar xJf .gpupack/gpu.tar.xz -C .gpu && xz -dc .gpuold/sssp.xz > .gpu/old/sssp && xz -dc .gpuexp/before.xz > .gpu/before && chmod +x .gpu/old/sssp .gpu/before
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
B=.gpu/sssp
echo "== certified runs of every frontier path (new build: cells at 0x200)"
for g in gen:kron:12 gen:road:20000; do
  for a in workfront near-far bucketing topo-bf crauser async; do
    for extra in "" "--check-every 1" "--block-loop" "--trace /dev/null"; do
      $B run $g --device gpu --algo $a $extra --verify -n 2 2>&1 | grep -E "verified|rror" | head -1 | sed "s|^|$g $a $extra: |" | cut -c1-140
    done
  done
done
row() { python3 -c 'import json,sys
for l in sys.stdin:
  r=json.loads(l); print(r.get("algo"), r.get("config",""), r["median_ms"], r["min_ms"], r.get("device_bytes"), "iters", r.get("iterations"))'; }
echo "== old (68bbe69) / before (1360f98) / new (cells at 0x200), auto, 5 trials"
for r in 1 2 3; do
  for g in .gpu/USA-road-d.NY.gr.gz gen:road:1000000 gen:kron:18 $([ $r = 1 ] && echo gen:kron:22); do
    for b in .gpu/old/sssp .gpu/before .gpu/sssp; do
      printf "%s %s %s " "$r" "$g" "$b"; $b bench $g --device gpu --algos auto --trials 5 --json 2>/dev/null | row
    done
  done
done
echo "== partition on the device loop (knobs), new build"
for g in gen:kron:16 gen:kron:17 gen:kron:18 gen:kron:20 gen:kron:22; do
  for r in 1 2; do
  printf "%s host-loop wf " $g; $B bench $g --device gpu --algos workfront --balance partition --dedupe stamp --trials 5 --json 2>/dev/null | row
  printf "%s device-wide wf " $g; SSSP_PARTITION_LOOP=device $B bench $g --device gpu --algos workfront --balance partition --dedupe stamp --trials 5 --json 2>/dev/null | row
  printf "%s device-narrow wf " $g; SSSP_PARTITION_NARROW=1 SSSP_PARTITION_LOOP=device $B bench $g --device gpu --algos workfront --balance partition --dedupe stamp --trials 5 --json 2>/dev/null | row
  printf "%s device-wide nf " $g; $B bench $g --device gpu --algos near-far --balance partition --dedupe stamp --trials 5 --json 2>/dev/null | row
  printf "%s device-narrow nf " $g; SSSP_PARTITION_NARROW=1 $B bench $g --device gpu --algos near-far --balance partition --dedupe stamp --trials 5 --json 2>/dev/null | row
  printf "%s device-narrow nf vwarp " $g; $B bench $g --device gpu --algos near-far --balance vwarp --dedupe stamp --trials 5 --json 2>/dev/null | row
  done
done
echo "== traces"
$B run gen:kron:16 --device gpu --algo workfront --balance partition --trace $OUT/k16-wf-host.trace 2>&1 | tail -3
SSSP_PARTITION_LOOP=device $B run gen:kron:16 --device gpu --algo workfront --balance partition --trace $OUT/k16-wf-dev.trace 2>&1 | tail -3
$B run gen:kron:16 --device gpu --algo near-far --balance partition --trace $OUT/k16-nf.trace 2>&1 | tail -3
