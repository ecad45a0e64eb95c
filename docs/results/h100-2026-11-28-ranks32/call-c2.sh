# (H100) the partition loop up to 2^31 arcs (NARROW_PARTITION_ARCS raised): the large suite
# (kron 20, uniform 2M x 8, roads and grids through every configuration against Dijkstra:
# partition balance now runs them in the partition loop) twice, the memory suite, and the
# default path on kron 19-25 with the build committed.
nvidia-smi --query-gpu=name --format=csv,noheader
mkdir -p .gpu && tar xJf .gpupack/gpu.tar.xz -C .gpu
export SSSP_TEST_DEVICE=gpu
SECONDS=0
for i in 1 2; do timeout 150 .gpu/large --ignored --test-threads 1 2>&1 | grep -E "test result|FAILED|panicked"; done
timeout 100 .gpu/memory --test-threads 1 2>&1 | grep -E "test result|FAILED|panicked"
echo "tests ${SECONDS}s"
. docs/results/h100-2026-11-28-ranks32/row.sh
for k in 19 20 21 22 23 24; do ROW_LIMIT=120 row now .gpu/sssp gen:kron:$k --device gpu --algos auto --trials 5; done
ROW_LIMIT=150 row now .gpu/sssp gen:kron:25 --device gpu --algos auto --trials 5
echo "total ${SECONDS}s"
