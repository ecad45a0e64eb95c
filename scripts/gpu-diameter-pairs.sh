#!/usr/bin/env bash
# Pair certification (the eccentricities it saves on kron graphs) and the overlapped
# preparation, on a CUDA machine with binaries from `scripts/gpu-suite.sh build`; optional
# `.gpu/sssp-base` (the previous commit's `sssp`) runs beside for the preparation, and
# NetworKit (wheels in .whl/) for the comparison with NetworKit's exact diameter.
# Usage: scripts/gpu-diameter-pairs.sh OUTDIR
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: $0 OUTDIR}
mkdir -p "$out"
show() { # file label
  python3 -c '
import json, sys
r = json.load(open(sys.argv[1])); p = r.get("prepare_parts")
parts = " (symmetry %.3f, components %.3f, engine %.3f)" % (p["symmetry"], p["components"], p["engine"]) if p else ""
print(sys.argv[2], "D", r["diameter"], "I", r["eccentricities"], "bound_s %.3f" % r["compute"], "prep_s %.3f%s" % (r["prepare"], parts))' "$1" "$2"
}
run() { # name args...
  local name=$1; shift
  echo "== $name: diameter $*"
  for mode in pairs paper base; do
    case $mode in
      pairs) cmd=(.gpu/sssp diameter "$@" --device gpu --json) ;;
      paper) cmd=(.gpu/sssp diameter "$@" --device gpu --json --paper-end) ;;
      base) [ -x .gpu/sssp-base ] || continue; cmd=(.gpu/sssp-base diameter "$@" --device gpu --json) ;;
    esac
    if timeout 200 "${cmd[@]}" > "$out/$name-$mode.json" 2> "$out/$name-$mode.err"; then
      show "$out/$name-$mode.json" "  $mode"
    else
      echo "  $mode: exit $?"; tail -n 3 "$out/$name-$mode.err"
    fi
  done
}
run kron19 gen:kron:19 --weights unit
run kron18s3 gen:kron:18 --gen-seed 3 --weights unit
run kron18s5 gen:kron:18 --gen-seed 5 --weights unit
run kron15s2 gen:kron:15 --gen-seed 2 --weights unit
run kron20 gen:kron:20 --weights unit
run kron20w gen:kron:20
run kron21 gen:kron:21 --weights unit
run ny-unit .gpu/USA-road-d.NY.gr.gz --weights unit
run ny .gpu/USA-road-d.NY.gr.gz
run road4m-unit gen:road:4000000 --weights unit
run grid2000-unit gen:grid2d:2000x2000 --weights unit
# NetworKit's exact diameter on the same graphs (16 threads), if its wheels came along.
if [ -d .whl ] && python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl; then
  export PYTHONPATH=/tmp/site
  for spec in kron:19 kron:20; do
    .gpu/sssp gen "$spec" -o "$out/g.el" 2> /dev/null
    echo "== networkit $spec unit: $(timeout 200 python3 scripts/networkit-diameter.py "$out/g.el" unit 16)"
  done
  .gpu/sssp convert .gpu/USA-road-d.NY.gr.gz "$out/g.el" 2> /dev/null
  echo "== networkit NY unit: $(timeout 200 python3 scripts/networkit-diameter.py "$out/g.el" unit 16)"
  rm -f "$out/g.el"
fi
