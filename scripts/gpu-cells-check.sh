#!/usr/bin/env bash
# Usage: CELLS_BIN=path/to/the-build-under-test/sssp scripts/gpu-cells-check.sh (with .gpupack, .gpuold carried)
# The cells at page offset 0x200 (the build under test, `cells`) against the old binary and
# the build before this change (.gpu/sssp), then certified runs of every frontier path.
cd "$(dirname "$0")/.."
mkdir -p .gpu/old && { [ -x .gpu/sssp ] || tar xJf .gpupack/gpu.tar.xz -C .gpu; }
[ -x .gpu/old/sssp ] || xz -dc .gpuold/sssp.xz > .gpu/old/sssp
cp "${CELLS_BIN:?the build of this branch}" .gpu/cells; chmod +x .gpu/cells .gpu/old/sssp
for g in gen:kron:12; do
  for a in workfront near-far bucketing topo-bf crauser async; do
    for extra in "" "--check-every 1" "--block-loop" "--trace /dev/null"; do
      .gpu/cells run $g --device gpu --algo $a $extra --verify -n 2 2>&1 | grep -E "verified|rror" | head -1 | sed "s|^|$a $extra: |" | cut -c1-120
    done
  done
done
for r in 1 2; do
  for g in .gpu/USA-road-d.NY.gr.gz gen:road:1000000 gen:kron:18 $([ $r = 1 ] && echo gen:kron:22); do
    for b in .gpu/old/sssp .gpu/sssp .gpu/cells; do
      printf "%s %s %s " "$r" "$g" "$b"
      $b bench $g --device gpu --algos auto --trials 5 --json 2>/dev/null | python3 -c 'import json,sys; r=json.loads(sys.stdin.readline()); print(r["median_ms"], r["min_ms"], r["device_bytes"])'
    done
  done
done
