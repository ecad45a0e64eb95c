#!/usr/bin/env bash
# Batched eccentricities (H100, 2026-11-24): `sssp
# diameter --batch K` against one at a time, on a CUDA machine with binaries from
# `scripts/gpu-suite.sh build`. Usage: scripts/gpu-diameter-batch.sh OUTDIR
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: $0 OUTDIR}
mkdir -p "$out"
run() { # name batches args...
  local name=$1 batches=$2; shift 2
  for k in $batches; do
    echo "== $name batch $k: diameter $*"
    timeout 120 .gpu/sssp diameter "$@" --device gpu --batch "$k" --json > "$out/$name.json" 2> /dev/null
    echo "exit $?"
    python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print("D", r["diameter"], "I", r["eccentricities"], "runs", r["traversals"], "bound_s", round(r["compute"],3), "prep_s", round(r["prepare"],3))' "$out/$name.json"
  done
}
# Small graphs, where one SSSP leaves most of the GPU idle.
run kron14 "1 4 16" gen:kron:14 --weights unit --radius --periphery
run road100k "1 4 16" gen:road:100000 --weights unit
run grid300 "1 4 16" gen:grid2d:300x300
# The graphs.
run ny-unit "1 4 16" .gpu/USA-road-d.NY.gr.gz --weights unit
run ny "1 4 16" .gpu/USA-road-d.NY.gr.gz
run kron20-periphery "1 8 32" gen:kron:20 --weights unit --periphery
run road4m-unit "1 8" gen:road:4000000 --weights unit
run grid2000 "1 8" gen:grid2d:2000x2000
