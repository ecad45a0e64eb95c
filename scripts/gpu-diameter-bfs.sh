#!/usr/bin/env bash
# `sssp diameter --bfs MODE` on unit-weight graphs (queue, the paper's level
# kernels, and direction-optimising), on a CUDA machine after `scripts/gpu-suite.sh build`.
# Three rounds, modes alternating. Usage: scripts/gpu-diameter-bfs.sh OUTDIR
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: $0 OUTDIR}
mkdir -p "$out"
for round in 1 2 3; do
  for g in gen:kron:20 gen:kron:19 gen:kron:21 .gpu/USA-road-d.NY.gr.gz gen:road:4000000 gen:grid2d:2000x2000; do
    for mode in queue direction hybrid; do
      [ "$round" != 1 ] && [ "$mode" = hybrid ] && continue
      timeout 120 .gpu/sssp diameter "$g" --weights unit --device gpu --bfs "$mode" --json 2> /dev/null | python3 -c '
import json, sys
r = json.loads(sys.stdin.read())
print("%-28s %-9s D %s I %s bound %.3f prep %.3f" % (sys.argv[1], sys.argv[2], r["diameter"], r["eccentricities"], r["compute"], r["prepare"]))' "$g" "$mode"
    done
  done
done
