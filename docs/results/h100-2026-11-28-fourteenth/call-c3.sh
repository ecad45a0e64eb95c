# (H100) after the target-overflow fix (6dc1615): the query, API and many-source suites on the GPU.
nvidia-smi --query-gpu=name --format=csv,noheader
mkdir -p .gpu && tar xJf .gpupack/gpu.tar.xz -C .gpu
export SSSP_TEST_DEVICE=gpu SSSP_TEST_RANKS=gpu
SECONDS=0
for t in queries many; do echo "== $t"; timeout 150 .gpu/$t --test-threads 1 2>&1 | grep -E "test result|FAILED|panicked"; done
ls .gpu
echo "${SECONDS}s"
