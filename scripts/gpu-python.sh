#!/usr/bin/env bash
# On the GPU machine (no Rust there): the Python package from its wheel. pytest on the GPU
# (SSSP_TEST_DEVICE=gpu), the contract on NY, NetworkX's own tests under the backend, and the
# benchmark against scipy and NetworkX (crates/sssp-py/bench/bench.py) on NY, kron 20, kron 22,
# and k shortest paths (crates/sssp-py/bench/yen.py) on NY (K = 100) and road 1M (K = 20).
#
# Here, first:  VIRTUAL_ENV=... maturin build --release -m crates/sssp-py/Cargo.toml -o .whl
#               plus scipy, networkx, pytest (and its needs) as wheels in .whl (device README),
#               target/release/sssp and the NY file in .gpubin/ (or SSSP=, NY=);
# there:        scripts/gpu-python.sh OUT   (carry .whl and .gpubin)
set -uo pipefail
out=${1:?usage: scripts/gpu-python.sh OUT}
mkdir -p "$out"
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site PYTHONUNBUFFERED=1
# The sssp binary and the NY file: .gpubin/ here, or SSSP and NY (e.g. those of scripts/gpu-suite.sh's .gpu/).
bin=${SSSP:-.gpubin/sssp}
ny=${NY:-.gpubin/USA-road-d.NY.gr.gz}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/device.txt"
"$bin" convert "$ny" /tmp/NY.bin
"$bin" gen kron:20 -o /tmp/kron20.bin
"$bin" gen kron:22 -o /tmp/kron22.bin
"$bin" gen road:1000000 -o /tmp/road1m.bin

echo "== pytest on the GPU"
SSSP_TEST_DEVICE=gpu python3 -m pytest -q -p no:cacheprovider crates/sssp-py/tests 2>&1 | tee "$out/pytest-gpu.log"
echo "== the contract"
python3 crates/sssp-py/tests/contract.py "$ny" 2>&1 | tee "$out/contract.log"
echo "== NetworkX's tests under the backend"
python3 crates/sssp-py/tests/nx_suite.py 2>&1 | tail -n 30 | tee "$out/nx-suite.log"
echo "== benchmark"
b=crates/sssp-py/bench/bench.py
python3 $b --device gpu --nx --json "$out/ny-gpu.json" /tmp/NY.bin | tee "$out/bench.md"
python3 $b --device gpu --scipy-many 8 --json "$out/kron20-gpu.json" /tmp/kron20.bin | tee -a "$out/bench.md"
python3 $b --device gpu --scipy-many 2 --repeat 3 --json "$out/kron22-gpu.json" /tmp/kron22.bin | tee -a "$out/bench.md"
python3 $b --device cpu --scipy-many 8 --json "$out/cpu.json" /tmp/NY.bin /tmp/kron20.bin | tee -a "$out/bench.md"
echo "== k shortest paths: sssp.yen (cpu, gpu), sssp paths, scipy's yen and NetworkX, 10 min limit each"
python3 crates/sssp-py/bench/yen.py --sssp "$bin" --limit 600 --json "$out/yen.json" \
    /tmp/NY.bin:100 /tmp/road1m.bin:20 | tee "$out/yen.md"
