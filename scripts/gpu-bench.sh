#!/usr/bin/env bash
# `sssp bench` over every strategy and balance on a few graphs, on a CUDA machine, with binaries from
# `scripts/gpu-suite.sh build`. Usage: scripts/gpu-bench.sh [OUTDIR] [GRAPH...]
# Each GRAPH is a file or gen:SPEC; default: NY, kron 22 and 24, grid3d 256^3, road 4M. Every trial is verified.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:-bench-out}; shift || true
mkdir -p "$out"
graphs=("$@")
if [ ${#graphs[@]} -eq 0 ]; then
  graphs=(.gpu/USA-road-d.NY.gr.gz gen:kron:22 gen:kron:24 gen:grid3d:256x256x256 gen:road:4000000)
fi
for g in "${graphs[@]}"; do
  name=$(basename "$g" | tr ':/' '__')
  echo "== $g"
  timeout 280 .gpu/sssp bench "$g" --device gpu --trials "${TRIALS:-5}" --algos "${ALGOS:-workfront,topo-bf}" \
    --json > "$out/$name.jsonl" 2> "$out/$name.err"
  echo "exit $?"; tail -n 3 "$out/$name.err"; cat "$out/$name.err" >> "$out/stderr.log"; rm -f "$out/$name.err"
  python3 - "$out/$name.jsonl" <<'PY'
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    print(f"{r['algo']:<10} {r['balance']:<9} {r['dedupe']:<6} {r['median_ms']:>10.3f} ms {r['gteps']:>7.3f} GTEPS work {r['work']:>6.2f} iters {r['iterations']:>6.0f}")
PY
done
