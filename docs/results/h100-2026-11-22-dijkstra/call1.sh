#!/usr/bin/env bash
# Issue #8 GPU call 1: the strategies suite filtered to the settling algorithms, memcheck, NY.
D=.gpu-dijkstra
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
export SSSP_TEST_ALGOS=crauser,crauser-economic,martin
SECONDS=0
SSSP_TEST_DEVICE=gpu timeout 90 $D/strategies --test-threads 1 > $OUT/strategies.log 2>&1; echo "strategies rc $? (${SECONDS}s)"; grep -E "test result|FAILED|panicked" $OUT/strategies.log | head -20
SSSP_TEST_DEVICE=gpu timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 $D/strategies --test-threads 1 kron zero_weights disconnected > $OUT/memcheck.log 2>&1; echo "memcheck rc $? (${SECONDS}s)"; tail -n 4 $OUT/memcheck.log
B="--device gpu --dedupe stamp --balance vwarp"
timeout 80 $D/sssp bench $D/USA-road-d.NY.gr.gz $B --trials 5 --algos crauser,crauser-economic,martin,workfront,near-far,bucketing --criteria out,in,both > $OUT/ny.log 2>&1; echo "ny rc $? (${SECONDS}s)"; cat $OUT/ny.log
timeout 60 $D/sssp bench $D/USA-road-d.NY.gr.gz $B --trials 3 --algos crauser,crauser-economic,martin --criteria both --variants predecessor > $OUT/ny-pred.log 2>&1; echo "ny-pred rc $? (${SECONDS}s)"; cat $OUT/ny-pred.log
timeout 40 $D/sssp bench gen:kron:18 $B --trials 5 --algos crauser,martin,workfront,near-far --balance partition --criteria out,in,both > $OUT/kron18.log 2>&1; echo "kron18 rc $? (${SECONDS}s)"; cat $OUT/kron18.log
