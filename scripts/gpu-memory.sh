#!/usr/bin/env bash
# The default path (`--algos auto`) of two binaries in one call, on a CUDA machine: each graph's
# bench row with its speed and its device memory against the budget (8 bytes per arc,
# 40 per vertex), every trial certified on the device.
#   scripts/gpu-memory.sh OUT [GRAPH...]
# Binaries from `scripts/gpu-suite.sh build` (.gpu/sssp, the new one) and $OLD (default
# .gpu/old/sssp); ROUNDS (default 2) alternates old and new per graph, TRIALS (default 5)
# sources per row. Writes OUT/NAME.{old,new}.R.jsonl and prints OUT/table.md.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: scripts/gpu-memory.sh OUT [GRAPH...]}
shift
mkdir -p "$out"
graphs=("$@")
if [ ${#graphs[@]} -eq 0 ]; then
  graphs=(.gpu/USA-road-d.NY.gr.gz gen:road:1000000 gen:road:4000000 gen:grid3d:256x256x256
    gen:uniform:16777216:16 gen:kron:16 gen:kron:18 gen:kron:22 gen:kron:24)
fi
old=${OLD:-.gpu/old/sssp}
for g in "${graphs[@]}"; do
  name=$(basename "$g" | tr ':/' '__')
  for r in $(seq 1 "${ROUNDS:-2}"); do
    for which in old new; do
      bin=.gpu/sssp
      [ "$which" = old ] && bin=$old
      echo "== $g $which round $r"
      timeout 300 "$bin" bench "$g" --device gpu --algos auto --trials "${TRIALS:-5}" --json \
        > "$out/$name.$which.$r.jsonl" 2>> "$out/stderr.log" || echo "exit $?"
    done
  done
done
python3 - "$out" <<'PY' | tee "$out/table.md"
import glob, json, os, statistics, sys
out = sys.argv[1]
rows = {}
for path in sorted(glob.glob(os.path.join(out, "*.jsonl"))):
    name, which, _, _ = os.path.basename(path).rsplit(".", 3)
    for line in open(path):
        r = json.loads(line)
        rows.setdefault(name, {}).setdefault(which, []).append(r)
print("| graph | pick (new) | old ms | new ms | new/old | old bytes | new bytes | new: (bytes - 8m)/n | within 8m + 40n + 1 MiB of fixed cells |")
print("|---|---|---:|---:|---:|---:|---:|---:|---|")
for name, by in rows.items():
    if "new" not in by:
        continue
    new = by["new"]
    n, m = new[0]["vertices"], new[0]["arcs"]
    med = lambda rs: statistics.median(r["median_ms"] for r in rs)
    peak = lambda rs: max(r["device_bytes"] or 0 for r in rs)
    o = by.get("old", [])
    om = med(o) if o else float("nan")
    ob = peak(o) if o else 0
    nb = peak(new)
    per_v = (nb - 8 * m) / n
    pick = (new[0].get("chosen") or "").split(",")[0].replace("auto: ", "")
    ok = "yes" if nb <= 8 * m + 40 * n + (1 << 20) else f"no (+{nb - 8 * m - 40 * n} B)"
    print(f"| {name} | {pick} | {om:.3f} | {med(new):.3f} | {med(new) / om:.3f} | {ob:,} | {nb:,} | {per_v:.2f} | {ok} |")
PY
