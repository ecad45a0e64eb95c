#!/usr/bin/env bash
# Distributed SSSP on several GPUs, in two halves like gpu-suite.sh, because the GPU
# machine has no Rust toolchain:
#   scripts/gpu-multi.sh build      # here: the `nccl` builds into .gpumulti/ (packed, to carry)
#   scripts/gpu-multi.sh run OUT    # there (a machine with 2 or more GPUs): suite and benchmark
# `run` writes everything under OUT, most important first, so that a
# call cut by its time limit still returns what finished:
#   OUT/setup.txt   the GPUs, their links, the NCCL library found
#   OUT/one.txt     examples/nccl_one_rank on 1 and on every GPU
#   OUT/suite.txt   tests/distributed on NCCL ranks (SSSP_TEST_RANKS=nccl:G: every P up to G)
#   OUT/bench.txt   `sssp run G --devices P --device gpu --rank-step S -n 3 --verify --json` for
#                   P = 1..G and each S of STEPS (one set-up per row, three seeded sources), and
#                   the one-GPU engine on the same file
# GRAPHS (default "kron:20 road:1000000 kron:22") picks the benchmark graphs, converted once
# to .bin files so that every row loads the same graph; STEPS (default "device") the local
# steps (device, host: the host step relaxes on one host thread per rank, seconds on kron 22);
# PS (default 1..GPUs) the rank counts; ROW_LIMIT (default 60) the seconds one row may take;
# ONLY=bench skips setup, one-rank example and suite (a second command on a warm machine).
# The .bin files go to /dev/shm where it exists (kron 27's is 35 GB: memory, not disk speed).
# PAIRS="kron:25@1 kron:26@2 kron:27@4" (with ONLY=bench) runs just those graph@ranks rows
# (weak scaling: the graph doubling with the ranks), each with SOURCES (default 2) sources;
# rows after a failed conversion are skipped. SSSP_BIN (default .gpumulti/sssp) runs the
# benchmark rows with another binary (an old build, for a before/after in one call); the
# conversions always use .gpumulti/sssp. EXTRA adds flags to the PAIRS rows (--hub-degree N). Each conversion writes FILE.tmp and renames it,
# so a file present is a whole one (never wait for a conversion with `pgrep -f`: the
# command's own shell line matches).
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-}
case "$mode" in
build)
  exclude=$(git rev-parse --git-path info/exclude)
  mkdir -p "$(dirname "$exclude")"
  for d in /.gpumulti/ /.gpumultipack/; do grep -qxF "$d" "$exclude" 2>/dev/null || echo "$d" >>"$exclude"; done
  rm -rf .gpumulti .gpumultipack && mkdir -p .gpumulti .gpumultipack
  cargo build --release -q -p sssp-cli --features nccl
  cp target/release/sssp .gpumulti/
  cargo build --release -q -p sssp --features nccl --example nccl_one_rank
  cp target/release/examples/nccl_one_rank .gpumulti/
  cargo test --release -q -p sssp-tests --features sssp/nccl --test distributed --no-run --message-format=json 2>/dev/null |
    python3 -c '
import json, sys, shutil
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["target"]["name"] == "distributed":
        shutil.copy(m["executable"], ".gpumulti/distributed")
'
  (cd .gpumulti && strip sssp nccl_one_rank distributed && tar cf - sssp nccl_one_rank distributed) | xz -T2 -6 >.gpumultipack/multi.tar.xz
  ls -la .gpumulti .gpumultipack
  ;;
run)
  out=${2:?usage: scripts/gpu-multi.sh run OUT}
  mkdir -p "$out"
  if [ ! -x .gpumulti/sssp ]; then mkdir -p .gpumulti && tar xJf .gpumultipack/multi.tar.xz -C .gpumulti; fi
  bin=${SSSP_BIN:-.gpumulti/sssp}
  # NVLink multicast stays off (on shared multi-GPU hosts it is not available to every job).
  export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
  gpus=$(nvidia-smi -L | wc -l)
  bindir=/tmp
  [ -d /dev/shm ] && bindir=/dev/shm
  {
    nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv,noheader
    nvidia-smi topo -m || true
    nproc
  } >"$out/setup.txt" 2>&1
  # cudarc looks for libnccl.so (and .so.13, .12, ...), not the .so.2 that NCCL's packages
  # install: link the first libnccl.so.2 found as libnccl.so (docs/distributed.md).
  lib=""
  for c in /usr/lib/x86_64-linux-gnu/libnccl.so.2 /usr/local/cuda/lib64/libnccl.so.2 \
    /opt/torch/.venv/lib/python3*/site-packages/nvidia/nccl/lib/libnccl.so.2; do
    if [ -f "$c" ]; then lib=$c && break; fi
  done
  [ -n "$lib" ] || lib=$(timeout 30 find / -xdev -name 'libnccl.so.2' 2>/dev/null | head -n 1 || true)
  mkdir -p /tmp/ncclib && ln -sf "$lib" /tmp/ncclib/libnccl.so
  export LD_LIBRARY_PATH=/tmp/ncclib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  echo "gpus $gpus; libnccl: $lib" | tee -a "$out/setup.txt"
  if [ "${ONLY:-}" != bench ]; then
  {
    timeout 40 .gpumulti/nccl_one_rank kron:16 1 || echo "one rank: rc=$?"
    timeout 40 .gpumulti/nccl_one_rank kron:18 "$gpus" || echo "$gpus ranks: rc=$?"
  } >"$out/one.txt" 2>&1
  cat "$out/one.txt"
  # The whole distributed suite on NCCL ranks (one group per P, kept for the binary's life).
  SSSP_TEST_RANKS=nccl:$gpus timeout "${SUITE_LIMIT:-240}" \
    .gpumulti/distributed --test-threads 1 >"$out/suite.txt" 2>&1 || echo "suite rc=$?" >>"$out/suite.txt"
  tail -n 4 "$out/suite.txt"
  fi
  # A graph's .bin, made once: written under a temporary name and renamed when whole.
  bin_of() {
    local f=$bindir/${1//:/_}.bin
    if [ ! -f "$f" ]; then
      timeout 300 .gpumulti/sssp convert "gen:$1" "$f.tmp" --to bin >/dev/null 2>&1 && mv "$f.tmp" "$f" || return 1
    fi
    echo "$f"
  }
  if [ -n "${PAIRS:-}" ]; then
    for pair in $PAIRS; do
      spec=${pair%@*} p=${pair#*@}
      echo "== $spec: $p NCCL ranks, ${STEPS:-device} step" >>"$out/bench.txt"
      f=$(bin_of "$spec") || { echo "$spec: convert failed" >>"$out/bench.txt"; continue; }
      timeout "${ROW_LIMIT:-120}" "$bin" run "$f" --devices "$p" --device gpu --rank-step "${STEPS:-device}" \
        -n "${SOURCES:-2}" --verify --json ${EXTRA:-} >>"$out/bench.txt" 2>&1 || echo "rc=$?" >>"$out/bench.txt"
    done
    exit 0
  fi
  for spec in ${GRAPHS:-kron:20 road:1000000 kron:22}; do
    f=$(bin_of "$spec") || { echo "$spec: convert failed" >>"$out/bench.txt"; continue; }
    echo "== $spec: the one-GPU engine (auto)" >>"$out/bench.txt"
    timeout "${ROW_LIMIT:-60}" "$bin" run "$f" --device gpu -n 3 --json >>"$out/bench.txt" 2>&1 || echo "rc=$?" >>"$out/bench.txt"
    for step in ${STEPS:-device}; do
      for p in ${PS:-$(seq 1 "$gpus")}; do
        echo "== $spec: $p NCCL ranks, $step step" >>"$out/bench.txt"
        timeout "${ROW_LIMIT:-60}" "$bin" run "$f" --devices "$p" --device gpu --rank-step "$step" -n 3 --verify --json >>"$out/bench.txt" 2>&1 || echo "rc=$?" >>"$out/bench.txt"
      done
    done
  done
  grep -c '"verified"' "$out/bench.txt" || true
  ;;
*)
  echo "usage: scripts/gpu-multi.sh build | run OUT" >&2
  exit 2
  ;;
esac
