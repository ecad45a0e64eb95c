#!/usr/bin/env bash
# The GPU suite, in two halves, because the GPU machine has no Rust toolchain:
#   scripts/gpu-suite.sh build   # here: build release test binaries + `sssp` into .gpu/
#   scripts/gpu-suite.sh run     # there (a CUDA machine): run them against the GPU
#   scripts/gpu-suite.sh exclude # only list .gpu/ in git's exclude file (what build does first)
# .gpu/ and .gpupack/ are listed in .git/info/exclude by `build`; carry .gpupack (packed .gpu/)
# to the GPU machine, where `run` unpacks it.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-}
# The integration suites that run on the GPU.
SUITE="strategies block_loop phast classes queries many real negative diameter certify large memory distributed order"

# Keep .gpu/ out of `git status`. The exclude file's folder may not exist (a fresh clone made
# without templates), and in a worktree `.git` is a file: ask git where the file lives.
exclude_gpu() {
  local exclude
  exclude=$(git rev-parse --git-path info/exclude)
  mkdir -p "$(dirname "$exclude")"
  grep -qxF '/.gpu/' "$exclude" 2>/dev/null || echo '/.gpu/' >> "$exclude"
}

case "$mode" in
exclude)
  exclude_gpu
  ;;
build)
  exclude_gpu
  rm -rf .gpu && mkdir -p .gpu
  cargo build --release -q -p sssp-cli
  cp target/release/sssp .gpu/
  # Test executables of the integration suite (built with the release profile).
  cargo test --release -q -p sssp-tests --no-run --message-format=json 2>/dev/null \
    | python3 -c '
import json, sys, shutil
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["target"]["kind"] == ["test"]:
        shutil.copy(m["executable"], ".gpu/" + m["target"]["name"])
'
  ny=../shared/data/road/USA-road-d.NY.gr.gz
  [ -f "$ny" ] && cp "$ny" .gpu/
  # What the GPU machine needs, stripped and packed: every test binary embeds the SASS (about
  # 4.6 MB), and the device tool carries at most 64 MiB. Carry .gpupack; `run` unpacks it.
  mkdir -p .gpupack
  exclude=$(git rev-parse --git-path info/exclude)
  grep -qxF '/.gpupack/' "$exclude" 2>/dev/null || echo '/.gpupack/' >> "$exclude"
  (cd .gpu && strip sssp $SUITE 2>/dev/null; tar cf - sssp $SUITE $(ls USA-road-d.NY.gr.gz 2>/dev/null)) | xz -T2 -6 > .gpupack/gpu.tar.xz
  ls -la .gpu .gpupack
  ;;
run)
  if [ ! -x .gpu/sssp ] && [ -f .gpupack/gpu.tar.xz ]; then mkdir -p .gpu && tar xJf .gpupack/gpu.tar.xz -C .gpu; fi
  export SSSP_TEST_DEVICE=gpu
  # The distributed suite's device steps on GPU 0 (simulated ranks, a stream each).
  export SSSP_TEST_RANKS=gpu
  fail=0
  # SUITE_LOG=FILE keeps every line (the device tool returns only the output's tail);
  # SUITE_LIMIT=S stops a test binary that runs past S seconds (a hang fails the suite instead
  # of the whole call); SANITIZE=0 skips the compute-sanitizer part, SANITIZE=only runs it alone.
  log=${SUITE_LOG:-/dev/null}
  limit=${SUITE_LIMIT:-400}
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true
  if [ "${SANITIZE:-1}" != only ]; then
    for t in $SUITE; do
      echo "== $t (GPU)" | tee -a "$log"
      args=(--test-threads 1)
      [ "$t" = large ] && args+=(--ignored)
      if ! timeout "$limit" ".gpu/$t" "${args[@]}" 2>&1 | tee -a "$log" | tail -n 40; then fail=1; fi
    done
  fi
  if [ "${SANITIZE:-1}" = 0 ]; then exit $fail; fi
  echo "== compute-sanitizer memcheck + racecheck on small cases" | tee -a "$log"
  for tool in memcheck racecheck; do
    if ! timeout "$limit" compute-sanitizer --tool "$tool" --error-exitcode 9 .gpu/strategies --test-threads 1 kron star_with_hub zero_weights grid2d road multisplit hub_path overflowed 2>&1 | tee -a "$log" | tail -n 6; then fail=1; fi
  done
  # PHAST's sweep: the one-block top levels (barriers) and the per-level grid launches.
  for tool in memcheck racecheck; do
    if ! timeout "$limit" compute-sanitizer --tool "$tool" --error-exitcode 9 .gpu/phast --test-threads 1 roads directed overflow core 2>&1 | tee -a "$log" | tail -n 6; then fail=1; fi
  done
  # The classified kernels (H-BF's edge classes: plain stores into in-degree-1 heads, the
  # deferred sink pass) and the classification passes themselves.
  for tool in memcheck racecheck; do
    if ! timeout "$limit" compute-sanitizer --tool "$tool" --error-exitcode 9 .gpu/classes --test-threads 1 figure_2 sinks in_degree batched 2>&1 | tee -a "$log" | tail -n 6; then fail=1; fi
  done
  # The block loop (one block, near queues mirrored in shared memory, block barriers) and the
  # device layer's kernel types (the diameter's bounds and BFS levels).
  for tool in memcheck racecheck; do
    if ! timeout "$limit" compute-sanitizer --tool "$tool" --error-exitcode 9 .gpu/block_loop --test-threads 1 2>&1 | tee -a "$log" | tail -n 6; then fail=1; fi
  done
  if ! timeout "$limit" compute-sanitizer --tool memcheck --error-exitcode 9 .gpu/diameter --test-threads 1 device_and_host 2>&1 | tee -a "$log" | tail -n 6; then fail=1; fi
  # The certificate's kernels (the tight-arc traversal's claims and queues, the counts).
  for tool in memcheck racecheck; do
    if ! timeout "$limit" compute-sanitizer --tool "$tool" --error-exitcode 9 .gpu/certify --test-threads 1 2>&1 | tee -a "$log" | tail -n 6; then fail=1; fi
  done
  # A distributed rank's device step (simulated ranks on GPU 0: the round's relaxation, the
  # ghosts' items, the inbox, the far pile's minimum and split).
  # memcheck only: racecheck checks shared memory, which the rank kernels do not use (their
  # threads meet in global atomics), and it ran past 150 s on one path graph's 700 rounds
  # (docs/results/h100x4-2026-11-27). Their races show as differences between the repeated
  # runs of the suite instead.
  if ! timeout "$limit" compute-sanitizer --tool memcheck --error-exitcode 9 .gpu/distributed --test-threads 1 kron road zero_weights real_weights 2>&1 | tee -a "$log" | tail -n 6; then fail=1; fi
  # The f32 paths of the kernels (real weights).
  if ! timeout "$limit" compute-sanitizer --tool memcheck --error-exitcode 9 .gpu/real --test-threads 1 kron road rounded_path sums_past 2>&1 | tee -a "$log" | tail -n 6; then fail=1; fi
  exit $fail
  ;;
*)
  echo "usage: $0 build|run|exclude" >&2; exit 2 ;;
esac
