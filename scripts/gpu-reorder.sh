#!/usr/bin/env bash
# Does a vertex order change the GPU's solve? On
# the GPU machine, with `sssp` and the `reorder_exp` example built here and carried in .gpuone/
# (`cargo build --release -p sssp-cli -p sssp --example reorder_exp`, both copied there, NY's
# .gr.gz beside them):
#
#   GRAPHS=".gpuone/USA-road-d.NY.gr.gz gen:kron:24" scripts/gpu-reorder.sh OUT
#
# For each graph, reorder_exp writes three relabellings (own ids, descending degree, BFS order)
# as .bin files with the same five seeded sources mapped into each; then `sssp bench` runs
# ALGOS (default auto) on each file with those sources, every trial certified. Files in
# /dev/shm (memory, not disk speed), removed after each graph.
set -u
out=${1:?usage: $0 OUT}
mkdir -p "$out"
dir=/dev/shm/reorder
for g in ${GRAPHS:-.gpuone/USA-road-d.NY.gr.gz gen:road:1000000 gen:kron:18 gen:kron:24}; do
  name=$(basename "$g" | tr ':/' '__')
  rm -rf "$dir" && mkdir -p "$dir"
  .gpuone/reorder_exp "${g#gen:}" 0 --write "$dir" 2>&1 | tee -a "$out/make.txt"
  for o in orig degree bfs; do
    [ -f "$dir/$o.bin" ] || continue
    echo "== $g $o" >>"$out/bench.txt"
    timeout 200 .gpuone/sssp bench "$dir/$o.bin" --device gpu --sources-file "$dir/$o.src" \
      --algos "${ALGOS:-auto}" --json >>"$out/bench.txt" 2>>"$out/stderr.txt" || echo "rc=$?" >>"$out/bench.txt"
  done
done
rm -rf "$dir"
