#!/usr/bin/env bash
# Issue #30 item 6, the GAP table: `sssp` on the GPU and GAP's delta-stepping on the host's 16
# threads, on the very same file. On the GPU machine after `scripts/gpu-suite.sh build` (the
# binary in .gpu/sssp), with GAP's `sssp` binary carried in .gapbin/ (GAP is not part of this
# repository: build it from sbeamer/gapbs, `g++ -std=c++11 -O3 -fopenmp -static src/sssp.cc`).
#
#   GRAPHS="kron:26 urand:26" scripts/gpu-gap.sh OUT
#
# For each graph: `sssp convert` generates it and writes GAP's weighted serialized graph (.wsg;
# the convert's time is the generation's plus the write), GAP runs 5 trials at each delta in
# $DELTAS (default 2, what GAP's own benchmark/bench.mk runs kron and urand with; 16 threads;
# its per-bucket lines go to a file), then `sssp bench` runs 5 certified trials on the same file with --json
# (its rows carry device_bytes where the build reports them). The file is removed after.
# kron:S is Graph500 Kronecker with 16 x 2^S undirected edges; urand:S is GAP's urand: 2^S
# vertices, 16 x 2^S edges made undirected (our uniform generator, symmetrized), as GAP builds it.
set -u
out=${1:?usage: $0 OUT}
mkdir -p "$out"
if [ ! -x .gpu/sssp ] && [ -f .gpupack/gpu.tar.xz ]; then mkdir -p .gpu && tar xJf .gpupack/gpu.tar.xz -C .gpu; fi
SSSP=${SSSP:-.gpu/sssp}
GAP=${GAP:-.gapbin/sssp}
dir=${GAPDIR:-/tmp/gapfiles}
mkdir -p "$dir"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/device.txt"
nproc | sed 's/^/host threads: /' | tee -a "$out/device.txt"
for g in ${GRAPHS:-kron:26 urand:26}; do
  kind=${g%%:*} scale=${g##*:}
  case $kind in
    kron) spec=gen:kron:$scale; sym= ;;
    urand) spec=gen:uniform:$((1 << scale)):16; sym=--symmetrize ;;
    *) echo "unknown graph $g (kron:S or urand:S)"; exit 2 ;;
  esac
  f=$dir/$kind$scale.wsg
  log=$out/$kind$scale.txt
  {
    echo "== $g: $spec $sym"
    /usr/bin/time -f "convert: %e s wall, %M KB peak host memory" "$SSSP" convert "$spec" "$f" $sym 2>&1 | tail -5
    ls -l "$f"
    for d in ${DELTAS:-2}; do
      echo "-- GAP, 16 threads, delta $d"
      OMP_NUM_THREADS=16 timeout 300 "$GAP" -f "$f" -n 5 -d "$d" > "$dir/gap.out" 2>&1
      grep -E "Read Time|Graph has|Trial Time|Average Time" "$dir/gap.out"
    done
    echo "-- sssp bench on the GPU (5 trials, each certified)"
    timeout 400 "$SSSP" bench "$f" --device gpu --trials 5 --json 2>&1 | tail -30
  } 2>&1 | tee "$log"
  rm -f "$f"
done
