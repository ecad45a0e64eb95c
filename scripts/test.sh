#!/usr/bin/env bash
# The project's test command (README, .ci/run). Needs no GPU. On a fresh Debian machine it
# installs what it needs itself: the NVPTX-capable rustc for the PTX freshness check (apt, via
# `cargo xtask ptx --check`) and NVIDIA's ptxas from PyPI to assemble the committed PTX.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== PTX and SASS are fresh (rebuilt from crates/sssp-kernels and compared with the committed files)"
cargo xtask ptx --check

echo "== ptxas assembles the committed PTX modules for Volta (sm_70) and Hopper (sm_90)"
ptxas=${PTXAS:-}
if [ -z "$ptxas" ]; then
  venv=target/ptxas
  if [ ! -x "$venv/nvidia/cuda_nvcc/bin/ptxas" ]; then
    python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore --target "$venv" 'nvidia-cuda-nvcc-cu12==12.9.86'
  fi
  ptxas=$venv/nvidia/cuda_nvcc/bin/ptxas
fi
for arch in sm_70 sm_90; do
  for ptx in crates/sssp-host/ptx/sssp_kernels.ptx crates/sssp-host/ptx/sssp_kernels_twins.ptx; do
    "$ptxas" -arch="$arch" "$ptx" -o /dev/null
  done
done
echo "ptxas: ok"

echo "== unit, integration and property tests (CPU backend)"
cargo test --workspace --no-fail-fast 2>&1

echo "== library docs build without warnings (broken or private links, missing docs)"
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps -p sssp
