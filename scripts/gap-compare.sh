#!/usr/bin/env bash
# The CPU backend against GAP's delta-stepping: GAP's `sssp` (../shared/peers/gapbs,
# built outside the repository) and `sssp bench --device cpu` on the very same .wsg files, the
# same sources, at each thread count of THREADS; one Markdown table on standard output.
#
#   scripts/gap-compare.sh                      # build both here, THREADS="2 $(nproc)"
#   SSSP=/path/sssp GAP_DIR=/path/gap THREADS="2 16" scripts/gap-compare.sh   # no Rust, no build
#
# What is timed, like for like: GAP's "Trial Time" is its DeltaStep call (distance array and
# frontier allocated inside, graph loading excluded); `sssp bench` reports a solve's compute time
# (`median_ms`: its buffers allocated inside, loading, verification and the certificate
# excluded). Both medians over every trial: each of TRIALS sources (the seeded picks of `sssp
# bench`, non-isolated vertices, passed to GAP with `-r`) run REPS times.
# GAP's delta: a sweep of GAP_DELTAS (default: powers of two around GAP's own choices, by the
# graph's largest weight) on the first source, then the best one on every source ("GAP delta").
# sssp: `--algos ${ALGOS:-auto}` at RAYON_NUM_THREADS=T, the library's thread pool (auto's
# choice is printed in the "sssp config" column).
#
# Settings (environment): SSSP (the sssp binary; default: `cargo build --release` here), GAP_DIR
# (a folder holding GAP's `sssp` binary; default ${XDG_CACHE_HOME:-/tmp}/sssp-gapbs, built there
# with make from GAP_SRC, default ../shared/peers/gapbs, when missing), GRAPHS (space-separated
# graph names or `gen:` specs), DATA (../shared/data), WORK (where the .wsg files go; default
# ${TMPDIR:-/tmp}/sssp-gap-files, kept between runs), THREADS, TRIALS (5), REPS (3), ALGOS.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
DATA=${DATA:-$here/../shared/data}
GAP_SRC=${GAP_SRC:-$here/../shared/peers/gapbs}
GAP_DIR=${GAP_DIR:-${XDG_CACHE_HOME:-/tmp}/sssp-gapbs}
WORK=${WORK:-${TMPDIR:-/tmp}/sssp-gap-files}
THREADS=${THREADS:-2 $(nproc)}
TRIALS=${TRIALS:-5}
REPS=${REPS:-3}
ALGOS=${ALGOS:-auto}
GRAPHS=${GRAPHS:-$DATA/road/USA-road-d.NY.gr.gz gen:road:1000000 gen:uniform:4194304:8 gen:kron:20 $DATA/ca-CondMat.txt.gz $DATA/web-NotreDame.txt.gz}

if [ -z "${SSSP:-}" ]; then
  (cd "$here" && cargo build --release -q -p sssp-cli) >&2
  SSSP=$here/target/release/sssp
fi
if [ ! -x "$GAP_DIR/sssp" ]; then
  # A copy of GAP's sources outside the repository, built there (never committed).
  mkdir -p "$GAP_DIR"
  cp -r "$GAP_SRC/src" "$GAP_SRC/Makefile" "$GAP_DIR/"
  make -s -C "$GAP_DIR" sssp >&2
fi
mkdir -p "$WORK"

# The .wsg file for graph $1 (converted once; unweighted inputs take GAP's 1-255 weights).
wsg() {
  local name
  name=$(basename "$1" | tr ':/' '__')
  name=$(sed -E "s/\.(gz|xz)$//; s/\.(gr|mtx|txt|el|wel|bin|sg|wsg)$//" <<<"$name").wsg
  [ -s "$WORK/$name" ] || "$SSSP" convert "$1" "$WORK/$name" --weights given >&2
  echo "$WORK/$name"
}

# The median of the numbers on standard input.
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

# GAP's trial times (ms) for file $1, delta $2, threads $3, sources $4...: REPS trials each.
gap_ms() {
  local f=$1 d=$2 t=$3 s
  shift 3
  for s in "$@"; do
    OMP_NUM_THREADS=$t "$GAP_DIR/sssp" -f "$f" -r "$s" -n "$REPS" -d "$d" |
      awk '/^Trial Time:/ {printf "%.4f\n", $3 * 1000}'
  done
}

# A field of a one-line JSON object: json FIELD < LINE.
json() { grep -o "\"$1\":\(\"[^\"]*\"\|[^,}]*\)" | head -1 | cut -d: -f2- | tr -d '"'; }

echo "| graph | threads | GAP ms | GAP delta | sssp ms | sssp config | sssp / GAP |"
echo "|---|---:|---:|---:|---:|---|---:|"
for g in $GRAPHS; do
  f=$(wsg "$g")
  label=$(basename "$(wsg "$g")" .wsg)
  # The sources: sssp's seeded picks among non-isolated vertices.
  read -r -a sources < <("$SSSP" bench "$f" --device cpu --algos dijkstra -n "$TRIALS" 2>&1 |
    sed -n 's/^sources: \[\(.*\)\].*/\1/p' | tr -d ',')
  maxw=$("$SSSP" info "$f" 2>/dev/null | awk '/^weights/ {print $NF}')
  if [ -n "${GAP_DELTAS:-}" ]; then deltas=$GAP_DELTAS
  elif [ "${maxw:-0}" -le 1024 ]; then deltas="1 2 4 8 16 32 64"
  else deltas="1024 2048 4096 8192 16384 32768 65536"; fi
  repeated=()
  for s in "${sources[@]}"; do for _ in $(seq "$REPS"); do repeated+=(-s "$s"); done; done
  for t in $THREADS; do
    best_d= best_ms=
    for d in $deltas; do
      ms=$(gap_ms "$f" "$d" "$t" "${sources[0]}" | median)
      if [ -z "$best_ms" ] || awk "BEGIN {exit !($ms < $best_ms)}"; then best_d=$d best_ms=$ms; fi
    done
    gap=$(gap_ms "$f" "$best_d" "$t" "${sources[@]}" | median)
    line=$(RAYON_NUM_THREADS=$t "$SSSP" bench "$f" --device cpu --algos "$ALGOS" --json "${repeated[@]}" 2>/dev/null |
      grep '^{' | head -1)
    ours=$(json median_ms <<<"$line")
    config=$(json chosen <<<"$line" | sed 's/^auto: //; s/ (.*//')
    [ -n "$config" ] || config="$(json algo <<<"$line"), delta $(json delta <<<"$line")"
    ratio=$(awk "BEGIN {printf \"%.2f\", $ours / $gap}")
    printf "| %s | %s | %.2f | %s | %.2f | %s | %s |\n" "$label" "$t" "$gap" "$best_d" "$ours" "$config" "$ratio"
  done
done
