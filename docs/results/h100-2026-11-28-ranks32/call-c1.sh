# (H100) next/ranks32 (32-bit ranks, three blocks an SM in the partition loop): the GPU suite, the strategy tests twice more,
# memcheck, racecheck.
nvidia-smi --query-gpu=name --format=csv,noheader
mkdir -p .gpu && tar xJf .gpupack/gpu.tar.xz -C .gpu
SECONDS=0
SANITIZE=0 SUITE_LOG=$OUT/suite.log SUITE_LIMIT=150 bash scripts/gpu-suite.sh run > /dev/null 2>&1 && echo SUITE PASSED || echo SUITE FAILED
grep -c "test result: ok" $OUT/suite.log; grep -E "FAILED|panicked|failed" $OUT/suite.log | head -5; echo "suite ${SECONDS}s"
export SSSP_TEST_DEVICE=gpu
for i in 1 2; do .gpu/strategies --test-threads 1 2>&1 | grep "test result"; done; echo "repeats ${SECONDS}s"
L=$OUT/san.log
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 .gpu/strategies --test-threads 1 kron star_with_hub hub_path sinks_in_the_frontier >> $L 2>&1; echo "memcheck rc=$?"; grep -E "ERROR SUMMARY|test result" $L | tail -2
timeout 120 compute-sanitizer --tool racecheck --error-exitcode 9 .gpu/strategies --test-threads 1 kron >> $OUT/race.log 2>&1; echo "racecheck rc=$?"; grep -E "RACECHECK SUMMARY|ERROR SUMMARY|test result|hazard" $OUT/race.log | tail -3
echo "total ${SECONDS}s"
