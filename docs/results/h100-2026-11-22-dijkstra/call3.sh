#!/usr/bin/env bash
# Issue #8 GPU call 3: suite with partition balance, memcheck, kron 22 partition, Martín on road 4M (one source).
D=.gpu-dijkstra
S=$D/sssp
B="--device gpu --dedupe stamp"
SECONDS=0
export SSSP_TEST_ALGOS=crauser,crauser-economic,martin
SSSP_TEST_DEVICE=gpu timeout 60 $D/strategies --test-threads 1 > $OUT/strategies.log 2>&1; echo "strategies rc $? (${SECONDS}s)"; grep -E "test result|FAILED|panicked" $OUT/strategies.log | head -20
SSSP_TEST_DEVICE=gpu timeout 50 compute-sanitizer --tool memcheck --error-exitcode 9 $D/strategies --test-threads 1 kron star_with_hub zero_weights > $OUT/memcheck.log 2>&1; echo "memcheck rc $? (${SECONDS}s)"; tail -n 4 $OUT/memcheck.log
unset SSSP_TEST_ALGOS
timeout 75 $S bench gen:kron:22 $B --balance partition --trials 5 --algos workfront,crauser,crauser-economic,martin --criteria out,in,both > $OUT/kron22-partition.log 2>&1; echo "kron22 rc $? (${SECONDS}s)"; cat $OUT/kron22-partition.log
timeout 25 $S bench $D/USA-road-d.NY.gr.gz $B --balance partition --trials 5 --algos crauser,martin --criteria out,both > $OUT/ny-partition.log 2>&1; echo "ny partition rc $? (${SECONDS}s)"; cat $OUT/ny-partition.log
timeout 5 $S convert gen:road:4000000 /tmp/road4m.bin > /dev/null 2>&1
left=$((285 - SECONDS))
timeout $left $S run /tmp/road4m.bin --algo martin --device gpu -s 345547 > $OUT/road4m-martin.log 2>&1; echo "road4m martin rc $? (${SECONDS}s)"; cat $OUT/road4m-martin.log
