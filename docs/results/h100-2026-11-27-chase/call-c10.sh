mkdir -p .gpu && tar xJf .gpupack/gpu.tar.xz -C .gpu
export SSSP_TEST_DEVICE=gpu
L=$OUT/san.log
san() { local tool=$1 bin=$2; shift 2; echo "-- $tool $bin $*" | tee -a $L; timeout ${LIM:-150} compute-sanitizer --tool $tool --error-exitcode 9 .gpu/$bin --test-threads 1 "$@" >> $L 2>&1; echo "rc=$?" | tee -a $L; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|test result" $L | tail -2; }
san memcheck strategies kron star_with_hub zero_weights multisplit hub_path overflowed
san memcheck strategies grid2d
san memcheck block_loop
LIM=120 san racecheck strategies zero_weights hub_path
echo "== strategies repeat" | tee -a $L
.gpu/strategies --test-threads 1 2>&1 | grep "test result" | tee -a $L
SSSP_NARROW_PARTITION_ARCS=0 .gpu/strategies --test-threads 1 2>&1 | grep "test result" | tee -a $L
