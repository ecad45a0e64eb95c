mkdir -p .gpu && tar xJf .gpupack/gpu.tar.xz -C .gpu
export SSSP_TEST_DEVICE=gpu
L=$OUT/san.log
san() { local tool=$1 bin=$2; shift 2; echo "-- $tool $bin $*" | tee -a $L; timeout ${LIM:-150} compute-sanitizer --tool $tool --error-exitcode 9 .gpu/$bin --test-threads 1 "$@" >> $L 2>&1; echo "rc=$?" | tee -a $L; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|test result" $L | tail -2; }
san memcheck block_loop
LIM=170 san racecheck block_loop
san memcheck strategies crauser grid2d
echo "== repeats" | tee -a $L
for i in 1 2 3; do .gpu/block_loop --test-threads 1 2>&1 | grep "test result" | tee -a $L; done
.gpu/strategies --test-threads 1 2>&1 | grep "test result" | tee -a $L
