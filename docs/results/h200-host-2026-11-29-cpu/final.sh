#!/bin/bash
# final.sh: GAP at its best delta (from the sweep), old and new auto, interleaved, 3 sources x REPS.
set -u
B=$(cd "$(dirname "$0")" && pwd); W=/tmp/w; mkdir -p $W
NEW=$B/sssp-new; OLD=$B/sssp-main; GAP=$B/gap-sssp; REPS=${REPS:-2}
path() { case $1 in NY) echo $B/USA-road-d.NY.gr.gz;; condmat) echo $B/ca-CondMat.txt.gz;; notredame) echo $B/web-NotreDame.txt.gz;; *) echo gen:$1;; esac; }
median() { sort -g | awk '{v[NR]=$1} END {print (NR%2)?v[(NR+1)/2]:(v[NR/2]+v[NR/2+1])/2}'; }
for spec in "$@"; do
  IFS=/ read -r t g gd <<<"$spec"
  f=$W/$g.wsg
  [ -s $f ] || $NEW convert $(path $g) $f --weights given >/dev/null 2>&1
  [ -s $W/$g.src ] || $NEW bench $f --device cpu --algos delta-stepping -n 3 2>&1 | sed -n 's/^sources: \[\(.*\)\].*/\1/p' | tr -d ',' > $W/$g.src
  read -r -a src < $W/$g.src; cpus=0-$((t-1))
  rep=(); for s in "${src[@]}"; do for _ in $(seq $REPS); do rep+=(-s $s); done; done
  gap=$(for s in "${src[@]}"; do OMP_NUM_THREADS=$t taskset -c $cpus $GAP -f $f -r $s -n $REPS -d $gd | awk '/^Trial Time:/ {printf "%.4f\n", $3*1000}'; done | median)
  ms=()
  for bin in $OLD $NEW; do
    line=$(RAYON_NUM_THREADS=$t taskset -c $cpus $bin bench $f --device cpu --algos auto --json "${rep[@]}" 2>/dev/null | grep '^{' | head -1)
    ms+=($(grep -o '"median_ms":[0-9.]*' <<<"$line" | cut -d: -f2))
    why=$(grep -o '"chosen":"[^"]*"' <<<"$line" | sed 's/"chosen":"auto: //; s/ (.*//')
  done
  printf "| %s | %s | %.2f | %s | %.2f | %.2f | %s | %.2f |\n" "$g" "$t" "$gap" "$gd" "${ms[0]}" "${ms[1]}" "$why" "$(awk "BEGIN {print ${ms[1]} / $gap}")"
done
