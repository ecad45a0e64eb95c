#!/usr/bin/env bash
# The architecture issue's (#25) same-call comparison, on the GPU machine after
# `scripts/gpu-suite.sh build` (the new binary in .gpu/sssp) with the old binary in
# .gpuold/sssp-old:   scripts/gpu-arch-ab.sh OUT
# Old and new alternate, two rounds, on the graphs: every strategy and balance mode of
# the frontier loop, the host-driven Workfront (partition balance: the advance operator), the
# topology-driven sweep, the settle loop, the diameter (bounds and BFS levels through the device
# layer) and the tree pass. Every bench trial is verified (certificate).
set -u
out=${1:?usage: $0 OUT}
NY=.gpu/USA-road-d.NY.gr.gz
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  for round in 1 2; do
    for bin in .gpuold/sssp-old .gpu/sssp; do
      echo "== round $round: $bin"
      for g in $NY gen:road:4000000 gen:grid3d:128x128x128 gen:kron:16 gen:kron:22; do
        echo "-- $g"
        timeout 200 $bin bench $g --device gpu --trials 5 --algos workfront,near-far,bucketing \
          --balance thread,vwarp,partition,cta,cta-warp-scan --dedupe stamp 2>&1 | grep -vE "^(graph|device|sources):" | tail -n 16
      done
      timeout 60 $bin bench $NY --device gpu --trials 5 --algos crauser,topo-bf --balance vwarp --dedupe stamp,lookup 2>&1 | tail -n 5
      for g in gen:kron:20 $NY; do
        echo "-- diameter $g"
        timeout 60 $bin diameter $g --weights unit --device gpu 2>&1 | tail -n 3
        timeout 60 $bin diameter $g --weights unit --bfs warp --device gpu 2>&1 | tail -n 2
      done
      echo "-- tree"
      /usr/bin/time -f "tree: %e s" timeout 60 $bin run gen:kron:20 --device gpu --source 3 --algo workfront -o /tmp/tree.txt --output-kind tree 2>&1 | tail -n 2
      md5sum /tmp/tree.txt
    done
  done
} 2>&1 | tee "$out"
