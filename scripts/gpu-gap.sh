#!/usr/bin/env bash
# The GAP table (docs/performance.md): `sssp` on the GPU and GAP's delta-stepping on the host's 16
# threads, on the very same file. On the GPU machine after `scripts/gpu-suite.sh build` (the
# binary in .gpu/sssp), with GAP's `sssp` binary carried in .gapbin/ (GAP is not part of this
# repository: build it from sbeamer/gapbs, `g++ -std=c++11 -O3 -fopenmp -static src/sssp.cc`).
#
#   GRAPHS="kron:26 urand:26" scripts/gpu-gap.sh OUT
#
# For each graph, one .wsg file (GAP's weighted serialized graph) that both run on: kron:S is
# generated and written by `sssp convert gen:kron:S` (Graph500 Kronecker, 16 x 2^S undirected
# edges; the convert's time is the generation's plus the write), urand:S by GAP's own converter
# (`converter -u S -k 16 -wb`, its uniform random graph, undirected, weights 1-255: our uniform
# generator is directed). GAP runs 5 trials at each delta in
# $DELTAS (default 2, what GAP's own benchmark/bench.mk runs kron and urand with; 16 threads;
# its per-bucket lines go to a file), then `sssp bench` runs 5 certified trials on the same file with --json
# (rows for auto and the frontier strategies with partition and vwarp balance, each with its
# device_bytes and certificate time). The file is removed after.
set -u
out=${1:?usage: $0 OUT}
mkdir -p "$out"
if [ ! -x .gpu/sssp ] && [ -f .gpupack/gpu.tar.xz ]; then mkdir -p .gpu && tar xJf .gpupack/gpu.tar.xz -C .gpu; fi
SSSP=${SSSP:-.gpu/sssp}
GAP=${GAP:-.gapbin/sssp}
GAPCONV=${GAPCONV:-.gapbin/converter}
dir=${GAPDIR:-/tmp/gapfiles}
mkdir -p "$dir"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/device.txt"
nproc | sed 's/^/host threads: /' | tee -a "$out/device.txt"
for g in ${GRAPHS:-kron:26 urand:26}; do
  kind=${g%%:*} scale=${g##*:}
  case $kind in
    kron) make=("$SSSP" convert "gen:kron:$scale") ;;
    urand) make=("$GAPCONV" -u "$scale" -k 16 -wb) ;;
    *) echo "unknown graph $g (kron:S or urand:S)"; exit 2 ;;
  esac
  f=$dir/$kind$scale.wsg
  log=$out/$kind$scale.txt
  {
    echo "== $g: ${make[*]} $f"
    /usr/bin/time -f "convert: %e s wall, %M KB peak host memory" "${make[@]}" "$f" 2>&1 | tail -5
    ls -l "$f"
    for d in ${DELTAS:-2}; do
      echo "-- GAP, 16 threads, delta $d"
      OMP_NUM_THREADS=16 timeout 300 "$GAP" -f "$f" -n 5 -d "$d" > "$dir/gap.out" 2>&1
      grep -E "Read Time|Graph has|Trial Time|Average Time" "$dir/gap.out"
    done
    echo "-- sssp bench on the GPU (5 trials, each certified)"
    timeout 400 "$SSSP" bench "$f" --device gpu --trials 5 --json --algos "${ALGOS:-auto,workfront,near-far}" \
      --balance "${BALANCES:-partition,vwarp}" --dedupe stamp 2>&1 | tail -30
  } 2>&1 | tee "$log"
  rm -f "$f"
done
