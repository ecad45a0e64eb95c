#!/usr/bin/env bash
# Two binaries compared in one run, on the GPU machine after
# `scripts/gpu-suite.sh build` (the new binary in .gpu/sssp), with the old binary (the commit
# before the change, built the same way) in .gpuold/sssp-old:   scripts/gpu-arch-ab.sh OUT
# Every strategy and balance mode of the frontier loop on NY, road, grid and kron graphs, old and new
# alternating twice (stamp dedupe; every trial verified by the certificate), then once each:
# lookup dedupe (the loop's compaction), the block loop, the settle loop (crauser, martin),
# PHAST's sweep, and the diameter (bounds and BFS levels through the device layer).
set -u
out=${1:?usage: $0 OUT}
mkdir -p "$out"
if [ ! -x .gpu/sssp ] && [ -f .gpupack/gpu.tar.xz ]; then mkdir -p .gpu && tar xJf .gpupack/gpu.tar.xz -C .gpu; fi
NY=.gpu/USA-road-d.NY.gr.gz
OLD=.gpuold/sssp-old
NEW=.gpu/sssp
b() { # LABEL BIN ARGS...: one bench, its table to OUT/LABEL.txt and stdout
  local label=$1 bin=$2; shift 2
  { echo "== $label: $bin $*"; timeout 150 "$bin" "$@" --device gpu 2>&1 | grep -vE "^(graph|sources|phast: contraction)"; } | tee -a "$out/$label.txt"
}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/device.txt"
# GRAPHS: the modes section's graphs; SECTIONS: which sections run (a re-check of a few rows
# runs fewer, with more ROUNDS); scripts/ab-table.py makes the table from OUT/*.txt.
has() { case " ${SECTIONS:-modes lookup block settle phast diameter} " in *" $1 "*) return 0 ;; esac; return 1; }
has modes && for g in ${GRAPHS:-$NY gen:road:4000000 gen:grid3d:128x128x128 gen:kron:16 gen:kron:22}; do
  name=$(basename "$g" | tr ':/' '__')
  for round in $(seq 1 "${ROUNDS:-2}"); do
    for bin in $OLD $NEW; do
      b "modes-$name" $bin bench "$g" --trials 5 --algos workfront,near-far,bucketing \
        --balance thread,vwarp,partition,cta,cta-warp-scan --dedupe stamp
    done
  done
done
for round in $(seq 1 "${ROUNDS:-2}"); do for bin in $OLD $NEW; do
  has block && for g in ${BLOCK_GRAPHS:-$NY gen:road:4000000}; do
    b "block-$(basename "$g" | tr ':/' '__')" $bin bench "$g" --trials 5 --algos near-far,bucketing --balance vwarp --dedupe stamp --loops grid,block
  done
done; done
for bin in $OLD $NEW; do
  has lookup && for g in $NY gen:kron:22; do
    b "lookup-$(basename "$g" | tr ':/' '__')" $bin bench "$g" --trials 5 --algos workfront,near-far,bucketing --balance vwarp,partition --dedupe lookup
  done
  has settle && b settle $bin bench $NY --trials 5 --algos crauser,martin --balance vwarp
  has phast && b phast $bin bench $NY --trials 5 --algos phast
  if has diameter; then
    b diameter $bin diameter gen:kron:20 --weights unit
    b diameter $bin diameter gen:kron:20 --weights unit --bfs warp
    b diameter $bin diameter $NY --weights unit
  fi
done
