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
SUITE="strategies block_loop phast classes queries many real negative diameter certify large memory distributed order kpaths"

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
  # 4.6 MB), and what goes to the GPU machine should stay small. Carry .gpupack; `run` unpacks it.
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
  # SUITE_LOG=FILE keeps every line (a remote run often returns only the output's tail);
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
    # The test graphs are small, so partition balance runs in the partition loop: the wide loop
    # and the host-driven Workfront (graphs past NARROW_PARTITION_ARCS) get a pass of their own.
    echo "== strategies, partition on the wide loop and the host-driven Workfront (GPU)" | tee -a "$log"
    if ! SSSP_NARROW_PARTITION_ARCS=0 timeout "$limit" .gpu/strategies --test-threads 1 2>&1 | tee -a "$log" | tail -n 40; then fail=1; fi
  fi
  if [ "${SANITIZE:-1}" = 0 ]; then exit $fail; fi
  echo "== compute-sanitizer memcheck + racecheck on small cases" | tee -a "$log"
  # One sanitizer run: TOOL BINARY [FILTER...], stopped after SAN_LIMIT seconds (default 150) so
  # that one slow filter cannot use up the run (under memcheck the strategies' `road` family
  # did not finish in 250 s: docs/results/h100-2026-11-27-memory/suite.log). A run that is
  # stopped counts as a failure and says so. The whole part can run on its own:
  # SANITIZE=only.
  san() {
    local tool=$1 bin=$2 rc
    shift 2
    echo "-- $tool $bin $*" | tee -a "$log"
    if timeout "${SAN_LIMIT:-150}" compute-sanitizer --tool "$tool" --error-exitcode 9 ".gpu/$bin" --test-threads 1 "$@" 2>&1 | tee -a "$log" | tail -n 6; then
      rc=0
    else
      rc=${PIPESTATUS[0]}
    fi
    [ "$rc" = 124 ] && echo "TIMEOUT: $tool $bin $* (past ${SAN_LIMIT:-150} s)" | tee -a "$log"
    [ "$rc" = 0 ] || fail=1
  }
  for tool in memcheck racecheck; do
    # The frontier loops, hubs and tiles, the multisplit, and the bucket slots' overflow path.
    san "$tool" strategies kron star_with_hub zero_weights multisplit hub_path overflowed
    san "$tool" strategies grid2d
    san "$tool" strategies road
    # PHAST's sweep: the one-block top levels (barriers) and the per-level grid launches.
    san "$tool" phast roads directed overflow core
    # The classified kernels (H-BF's edge classes: plain stores into in-degree-1 heads, the
    # deferred sink pass) and the classification passes themselves.
    san "$tool" classes figure_2 sinks in_degree batched
    # The block loop (one block, near queues mirrored in shared memory, block barriers).
    san "$tool" block_loop
    # The certificate's kernels (the tight-arc traversal's claims and queues, the counts).
    san "$tool" certify
  done
  # The device layer's kernel types (the diameter's bounds and BFS levels).
  san memcheck diameter device_and_host
  # A distributed rank's device step (simulated ranks on GPU 0: the round's relaxation, the
  # ghosts' items, the inbox, the far pile's minimum and split).
  # memcheck only: racecheck checks shared memory, which the rank kernels do not use (their
  # threads meet in global atomics), and it ran past 150 s on one path graph's 700 rounds
  # (four H100s, 2026-11-27). Their races show as differences between the repeated
  # runs of the suite instead.
  san memcheck distributed kron road zero_weights real_weights
  # The f32 paths of the kernels (real weights).
  san memcheck real kron road rounded_path sums_past
  exit $fail
  ;;
*)
  echo "usage: $0 build|run|exclude" >&2; exit 2 ;;
esac
