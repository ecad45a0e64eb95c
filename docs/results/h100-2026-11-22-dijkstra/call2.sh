#!/usr/bin/env bash
# Issue #8 GPU call 2: road 4M, grid3d 256^3, kron 22 (settling algorithms beside the frontier strategies).
D=.gpu-dijkstra
S=$D/sssp
B="--device gpu --dedupe stamp"
SECONDS=0
timeout 40 $S convert gen:road:4000000 /tmp/road4m.bin > $OUT/conv-road.log 2>&1; echo "conv road rc $? (${SECONDS}s)"
timeout 70 $S bench /tmp/road4m.bin $B --balance vwarp --trials 5 --algos workfront,near-far,bucketing,crauser --criteria out,in,both > $OUT/road4m.log 2>&1; echo "road4m rc $? (${SECONDS}s)"; cat $OUT/road4m.log
timeout 60 $S convert gen:grid3d:256x256x256 /tmp/grid3d.bin > $OUT/conv-grid.log 2>&1; echo "conv grid rc $? (${SECONDS}s)"
timeout 80 $S bench /tmp/grid3d.bin $B --balance vwarp --trials 5 --algos workfront,near-far,bucketing,crauser,crauser-economic,martin --criteria out,in,both > $OUT/grid3d.log 2>&1; echo "grid3d rc $? (${SECONDS}s)"; cat $OUT/grid3d.log
rm -f /tmp/grid3d.bin
timeout 70 $S bench gen:kron:22 $B --balance partition --trials 5 --algos workfront,near-far,bucketing,crauser,crauser-economic,martin --criteria out,in,both > $OUT/kron22.log 2>&1; echo "kron22 rc $? (${SECONDS}s)"; cat $OUT/kron22.log
