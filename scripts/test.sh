#!/usr/bin/env bash
# The project's test command (README, .ci/run). Needs no GPU. On a fresh Debian machine it
# installs what it needs itself: the NVPTX-capable rustc for the PTX freshness check (apt, via
# `cargo xtask ptx --check`) and NVIDIA's ptxas from PyPI to assemble the committed PTX.
set -euo pipefail
cd "$(dirname "$0")/.."

# Each step says what it checks; the time of the one before it is printed with it (and the
# total at the end), so a slow step shows in CI's log.
step_started=$SECONDS
step() {
  [ -n "${step_name:-}" ] && echo "   ($step_name: $((SECONDS - step_started)) s)"
  step_name=${1%% (*}
  step_started=$SECONDS
  echo "== $1"
}

step "PTX and SASS are fresh (rebuilt from crates/sssp-kernels and compared with the committed files)"
cargo xtask ptx --check

# sm_80, sm_90 and sm_100 were assembled by the check above (the fatbins, CUDA 13's ptxas);
# Volta is the PTX's own target, which CUDA 13 no longer assembles: CUDA 12.9's ptxas does.
step "ptxas assembles the committed PTX modules for Volta (sm_70)"
ptxas=${PTXAS:-}
if [ -z "$ptxas" ]; then
  venv=target/ptxas
  if [ ! -x "$venv/nvidia/cuda_nvcc/bin/ptxas" ]; then
    python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore --target "$venv" 'nvidia-cuda-nvcc-cu12==12.9.86'
  fi
  ptxas=$venv/nvidia/cuda_nvcc/bin/ptxas
fi
for arch in sm_70; do
  for ptx in crates/sssp-host/ptx/sssp_kernels.ptx crates/sssp-host/ptx/sssp_kernels_twins.ptx; do
    "$ptxas" -arch="$arch" "$ptx" -o /dev/null
  done
done
echo "ptxas: ok"

step "unit, integration and property tests (CPU backend)"
# The Python extension (crates/sssp-py) is tested from Python below, not by cargo: its tests
# are pytest's.
cargo test --workspace --exclude sssp-py --no-fail-fast 2>&1

step "the stated MSRV (rust-version, 1.88) builds the library, the kernels, the CLI and the API contract"
# rustup fetches the minimal 1.88 toolchain once; its own target dir keeps it from rebuilding
# the main one.
msrv=$(sed -n 's/^rust-version = "\(.*\)"/\1/p' Cargo.toml)
rustup toolchain install "$msrv" --profile minimal --no-self-update >/dev/null 2>&1 || rustup toolchain install "$msrv" --profile minimal
CARGO_TARGET_DIR=target/msrv cargo "+$msrv" check -q -p sssp -p sssp-kernels -p sssp-cli -p sssp-api-contract
echo "msrv $msrv: ok"

step "library docs build without warnings (broken or private links, missing docs)"
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps -p sssp

step "Python package (crates/sssp-py): a manylinux2014 wheel, auditwheel, pytest, the contract, NetworkX's own tests"
# What a user installs: the wheel an index would hold, built once by maturin with zig as the
# linker against glibc 2.17 (manylinux2014: installable on any Linux since 2014), its tag and
# external libraries checked by auditwheel; then a new venv with that wheel and the test
# extras, and the tests against scipy and NetworkX on the CPU backend. The build tools live
# in their own venv, made once (as the ptxas one above).
tools=target/pytools
if [ ! -x "$tools/bin/maturin" ] || [ ! -x "$tools/bin/auditwheel" ] || [ ! -x "$tools/bin/python-zig" ]; then
  rm -rf "$tools"
  python3 -m venv "$tools"
  "$tools/bin/python" -m pip install -q --disable-pip-version-check 'maturin>=1.9,<2' ziglang auditwheel
fi
wheels=target/wheels-manylinux2014
rm -rf "$wheels"
PATH="$PWD/$tools/bin:$PATH" maturin build -q --release --zig --compatibility manylinux2014 \
  -m crates/sssp-py/Cargo.toml -o "$wheels"
wheel=$(ls "$wheels"/sssp-*.whl)
"$tools/bin/auditwheel" show "$wheel" | tee "$wheels/auditwheel.txt"
tr -s ' \n' ' ' < "$wheels/auditwheel.txt" | grep -q 'consistent with the following platform tag: "manylinux_2_17_x86_64"'
venv=target/pyvenv
rm -rf "$venv"
python3 -m venv "$venv"
"$venv/bin/python" -m pip install -q --disable-pip-version-check "$wheel[test]"
"$venv/bin/python" -m pytest -q -p no:cacheprovider crates/sssp-py/tests
# On one thread the drop-ins take another path (the float64 host Dijkstra): scipy's answers too.
RAYON_NUM_THREADS=1 "$venv/bin/python" -m pytest -q -p no:cacheprovider crates/sssp-py/tests/test_csgraph.py
"$venv/bin/python" crates/sssp-py/tests/contract.py ../shared/data/road/USA-road-d.NY.gr.gz
"$venv/bin/python" crates/sssp-py/tests/nx_suite.py
step "done in $SECONDS s"
