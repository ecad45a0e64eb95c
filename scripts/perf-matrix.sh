#!/usr/bin/env bash
# The performance matrix: an old and a new `sssp` binary over a fixed set of graphs, alternating
# in one process list, so that a change is measured on every family before it lands
# (docs/architecture.md, "How to change it"; the current table is in docs/performance.md).
#
#   OLD=BIN NEW=BIN [DEVICE=gpu|cpu] [QUICK=1] [ROUNDS=k] scripts/perf-matrix.sh OUT
#
# Writes OUT/matrix.md (one row per graph: auto's pick, old ms, new ms, new/old, a verdict, the
# best configuration of a small fixed sweep and auto/best) and OUT/raw.jsonl (every JSON line of
# every bench process). The table is printed last as well.
#
# Rows (GPU form): NY, gen:road 1M/4M/24M, grid2d 2000^2, grid3d 256^3, gen:uniform 2^22 x 8,
# 2^24 x 16, 2^26 x 16, kron 16/18/20/22/24/26, and the other real graphs of ../shared/data
# (luxembourg's roads, web-NotreDame, ca-CondMat; unweighted ones take `--weights given`,
# random 1-255). QUICK=1 runs the same families at sizes that finish in a few minutes on 2 cores
# (meant with DEVICE=cpu).
#
# More settings: TRIALS (sources per bench process, default 5), SWEEP_TRIALS (3), ROWS (a
# regular expression: only the rows whose name matches), DATA (the real graphs' folder, default
# ../shared/data), CACHE (where generated graphs are kept as .bin files between processes and
# runs; default $TMPDIR/sssp-matrix-graphs: the GPU form's take about 30 GB of disk).
#
# How long: the GPU form with ROUNDS=3 took 6.6 minutes on one H200, about 50 s of it generating
# the graphs into CACHE (docs/performance.md); QUICK=1 DEVICE=cpu 2.6 minutes on 2 cores.
set -euo pipefail
if [ $# -ne 1 ]; then
  echo "usage: OLD=BIN NEW=BIN [DEVICE=gpu|cpu] [QUICK=1] [ROUNDS=k] $0 OUT" >&2
  exit 2
fi
exec python3 "$(dirname "$0")/perf_matrix.py" "$1"
