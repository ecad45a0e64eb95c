#!/usr/bin/env bash
# The diameter's preparation and whole-process time, new `.gpu/sssp` against `.gpu/sssp-base`
# (the previous commit), alternating, three rounds; and NetworKit on NY (wheels in .whl/).
# On a CUDA machine after `scripts/gpu-suite.sh build`. Usage: scripts/gpu-diameter-prep.sh OUTDIR
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: $0 OUTDIR}
mkdir -p "$out"
ny=.gpu/USA-road-d.NY.gr.gz
for round in 1 2 3; do
  for g in "$ny --weights unit" "$ny" "gen:kron:20 --weights unit" "gen:road:4000000 --weights unit"; do
    for b in sssp sssp-base; do
      s=$(date +%s.%N)
      # shellcheck disable=SC2086
      r=$(.gpu/$b diameter $g --device gpu --json 2> /dev/null)
      e=$(date +%s.%N)
      echo "$r" | python3 -c '
import json, sys
r = json.loads(sys.stdin.read())
print("%-9s %-45s D %s I %s bound %.3f prep %.3f process %.3f" % (sys.argv[1], sys.argv[2], r["diameter"], r["eccentricities"], r["compute"], r["prepare"], float(sys.argv[4]) - float(sys.argv[3])))' "$b" "$g" "$s" "$e"
    done
  done
done
if [ -d .whl ] && python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl; then
  export PYTHONPATH=/tmp/site
  .gpu/sssp convert "$ny" "$out/ny.el" 2> /dev/null
  for round in 1 2 3; do echo "networkit NY unit: $(python3 scripts/networkit-diameter.py "$out/ny.el" unit 16)"; done
  rm -f "$out/ny.el"
  .gpu/sssp gen kron:20 -o "$out/kron.el" 2> /dev/null
  echo "networkit kron 20 unit: $(python3 scripts/networkit-diameter.py "$out/kron.el" unit 16)"
  rm -f "$out/kron.el"
fi
