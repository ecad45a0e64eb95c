mkdir -p .gpu && tar xJf .gpupack/gpu.tar.xz -C .gpu
export SSSP_TEST_DEVICE=gpu
L=$OUT/san.log
san() { local tool=$1 bin=$2; shift 2; echo "-- $tool $bin $*" | tee -a $L; timeout ${LIM:-120} compute-sanitizer --tool $tool --error-exitcode 9 .gpu/$bin --test-threads 1 "$@" >> $L 2>&1; echo "rc=$?" | tee -a $L; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|test result" $L | tail -2; }
san memcheck strategies kron star_with_hub hub_path
LIM=100 san racecheck strategies kron star_with_hub
san memcheck strategies grid2d
SANITIZE=0 SUITE_LOG=$OUT/suite.log SUITE_LIMIT=200 bash scripts/gpu-suite.sh run > /dev/null 2>&1 && echo SUITE PASSED || echo SUITE FAILED
grep "test result" $OUT/suite.log | sort | uniq -c
echo "== repeats" | tee -a $L
for i in 1 2 3; do .gpu/strategies --test-threads 1 kron star grid 2>&1 | grep "test result" | tee -a $L; done
