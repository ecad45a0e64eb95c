#!/usr/bin/env bash
# Road routing on the contraction hierarchy (README "Routing", docs/performance.md "Routing"),
# on the GPU machine, with the prebuilt `sssp` (no Rust needed; python3 for the id files):
#   scripts/gpu-routing-bench.sh OUT [quick]
# Uses .gpu/sssp (scripts/gpu-suite.sh build) or $SSSP, NY at .gpu/USA-road-d.NY.gr.gz or $NY.
# Writes OUT/ (hierarchy files, id files, the log) and prints the target rows at the end:
# point to point (median per random pair on one core), tables (1,000 x 1,000 on NY,
# 10,000 x 10,000 on gen:road:4000000 by RPHAST on the GPU), each against one SSSP per source.
# `quick` leaves gen:road:4000000 out (its hierarchy takes about a minute on 16 cores).
set -u
out=${1:?usage: $0 OUT [quick]}
S=${SSSP:-.gpu/sssp}
NY=${NY:-.gpu/USA-road-d.NY.gr.gz}
R4=gen:road:4000000
mkdir -p "$out"
log=$out/routing.log
run() { echo "\$ $*" >&2; "$@"; }
ids() { # ids FILE COUNT N SEED [pairs]
  python3 -c "import random,sys; r=random.Random(int(sys.argv[4])); n=int(sys.argv[3]); k=int(sys.argv[2]); pairs=len(sys.argv)>5
open(sys.argv[1],'w').write(''.join((f'{r.randrange(n)} {r.randrange(n)}' if pairs else str(r.randrange(n)))+'\n' for _ in range(k)))" "$@"
}
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  echo "cores: $(nproc)"
  ids "$out/ny-pairs.txt" 10000 264346 1 pairs
  ids "$out/ny-src.txt" 1000 264346 2
  ids "$out/ny-dst.txt" 1000 264346 3
  ids "$out/ny-src100.txt" 100 264346 2
  # The hierarchy, built once (its time printed), then read by every command below.
  run $S path "$NY" --hierarchy "$out/ny.ch" --source 0 --target 1000 >/dev/null
  RAYON_NUM_THREADS=1 run $S path "$NY" --hierarchy "$out/ny.ch" --pairs-file "$out/ny-pairs.txt" --no-path >/dev/null
  RAYON_NUM_THREADS=1 run $S path "$NY" --hierarchy "$out/ny.ch" --pairs-file "$out/ny-pairs.txt" >/dev/null
  run $S path "$NY" --hierarchy "$out/ny.ch" --pairs-file "$out/ny-pairs.txt" >/dev/null
  run $S table "$NY" --sources-file "$out/ny-src.txt" --targets-file "$out/ny-dst.txt" --hierarchy "$out/ny.ch" --method buckets -o "$out/ny-buckets.csv"
  run $S table "$NY" --sources-file "$out/ny-src.txt" --targets-file "$out/ny-dst.txt" --hierarchy "$out/ny.ch" --method rphast --device gpu -o "$out/ny-rphast.csv"
  cmp -s "$out/ny-buckets.csv" "$out/ny-rphast.csv" && echo "check: NY rphast table == buckets table" || echo "check: NY TABLES DIFFER"
  # One SSSP per source: the best single-source strategies, and batched lanes over 100 sources.
  run $S bench "$NY" --device gpu --trials 5 --algos auto,phast --hierarchy "$out/ny.ch"
  run $S table "$NY" --sources-file "$out/ny-src100.txt" --targets-file "$out/ny-dst.txt" --method sssp --device gpu --batch 32 -o - >/dev/null
  if [ "${2:-}" != quick ]; then
    ids "$out/r4-pairs.txt" 10000 4000000 4 pairs
    ids "$out/r4-src.txt" 10000 4000000 5
    ids "$out/r4-dst.txt" 10000 4000000 6
    ids "$out/r4-src100.txt" 100 4000000 5
    run $S path $R4 --hierarchy "$out/road4m.ch" --source 0 --target 1000 >/dev/null
    RAYON_NUM_THREADS=1 run $S path $R4 --hierarchy "$out/road4m.ch" --pairs-file "$out/r4-pairs.txt" --no-path >/dev/null
    RAYON_NUM_THREADS=1 run $S path $R4 --hierarchy "$out/road4m.ch" --pairs-file "$out/r4-pairs.txt" >/dev/null
    run $S table $R4 --sources-file "$out/r4-src.txt" --targets-file "$out/r4-dst.txt" --hierarchy "$out/road4m.ch" --method rphast --device gpu -o - >/dev/null
    for k in 8 16 64; do
      run $S table $R4 --sources-file "$out/r4-src100.txt" --targets-file "$out/r4-dst.txt" --hierarchy "$out/road4m.ch" --method rphast --device gpu --batch $k -o - >/dev/null
    done
    run $S table $R4 --sources-file "$out/r4-src100.txt" --targets-file "$out/r4-dst.txt" --hierarchy "$out/road4m.ch" --method buckets -o - >/dev/null
    run $S bench $R4 --device gpu --trials 3 --algos auto,phast --hierarchy "$out/road4m.ch"
    run $S table $R4 --sources-file "$out/r4-src100.txt" --targets-file "$out/r4-dst.txt" --method sssp --device gpu --batch 32 -o - >/dev/null
  fi
} 2>&1 | tee "$log"

# The target rows, read back from the log.
python3 - "$log" <<'EOF'
import re, sys
text = open(sys.argv[1]).read()
blocks = re.split(r'^\$ ', text, flags=re.M)
print("\n| what | measured | target |\n|---|---:|---:|")
def row(what, got, target):
    print(f"| {what} | {got} | {target} |")
for b in blocks:
    cmd = b.splitlines()[0] if b else ""
    graph = "NY" if "NY" in cmd or ".gr.gz" in cmd else ("road 4M" if "road:4000000" in cmd else "?")
    m = re.search(r"route: (\d+) pairs in ([\d.]+) s on the (.*?); per pair median ([\d.]+) us, mean ([\d.]+) us \((.*?)\)", b)
    if m:
        target = {"NY": "<= 30 us", "road 4M": "<= 100 us"}.get(graph, "")
        row(f"{graph} point to point, {m.group(6)}, {m.group(3)}", f"median {m.group(4)} us (mean {m.group(5)})", target)
    m = re.search(r"table: (\d+) x (\d+) .* by (\w+) on (.*) in ([\d.]+) s", b)
    if m:
        rows, cols, how, secs = int(m.group(1)), int(m.group(2)), m.group(3), float(m.group(5))
        target = ""
        if graph == "NY" and rows == 1000 and how != "sssp": target = "<= 50 ms"
        if graph == "road 4M" and rows == 10000 and how == "rphast": target = "<= 5 s"
        extra = f", per source {secs / rows * 1e3:.2f} ms" if how == "sssp" else ""
        row(f"{graph} table {rows} x {cols} by {how}{extra}", f"{secs * 1e3:.1f} ms", target)
    for m in re.finditer(r"^(auto|phast)\b.*?([\d.]+) ms", b, flags=re.M):
        row(f"{graph} one SSSP by {m.group(1)} (bench median)", f"{m.group(2)} ms", "x sources = baseline")
print("\nThe >= 10x rule: a table's time against its rows times the best one-SSSP time (or the batched 'sssp' per source).")
EOF
