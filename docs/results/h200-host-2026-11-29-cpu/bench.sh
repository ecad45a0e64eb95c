#!/bin/bash
# usage: bench.sh "THREADS..." "GRAPHS..." (the binaries sssp-new, sssp-main, gap-sssp and the
# three data files beside it); one line per measurement on standard output
set -u
B=$(cd "$(dirname "$0")" && pwd)
W=/tmp/w; mkdir -p $W
NEW=$B/sssp-new; OLD=$B/sssp-main; GAP=$B/gap-sssp
REPS=${REPS:-3}
path() { case $1 in NY) echo $B/USA-road-d.NY.gr.gz;; condmat) echo $B/ca-CondMat.txt.gz;; notredame) echo $B/web-NotreDame.txt.gz;; *) echo gen:$1;; esac; }
for g in $2; do
  f=$W/$g.wsg
  [ -s $f ] || $NEW convert $(path $g) $f --weights given >/dev/null 2>&1
  [ -s $W/$g.src ] || $NEW bench $f --device cpu --algos delta-stepping -n 3 2>&1 | sed -n 's/^sources: \[\(.*\)\].*/\1/p' | tr -d ',' > $W/$g.src
done
median() { sort -g | awk '{v[NR]=$1} END {print (NR%2)?v[(NR+1)/2]:(v[NR/2]+v[NR/2+1])/2}'; }
for t in $1; do
  cpus=0-$((t-1))
  for g in $2; do
    f=$W/$g.wsg; read -r -a src < $W/$g.src
    maxw=$($NEW info $f 2>/dev/null | awk '/^weights/ {print $NF}')
    if [ "$maxw" -le 1024 ]; then gd="1 2 4 8 16 32 64 128"; od="1,2,4,8,16,32,64,128"; else gd="2048 4096 8192 16384 32768 65536"; od="0.125x,0.25x,0.5x,1x,2x,4x,8x"; fi
    rep=(); for s in "${src[@]}"; do for _ in $(seq $REPS); do rep+=(-s $s); done; done
    for d in $gd; do
      ms=$(for s in "${src[@]}"; do OMP_NUM_THREADS=$t taskset -c $cpus $GAP -f $f -r $s -n $REPS -d $d | awk '/^Trial Time:/ {printf "%.4f\n", $3*1000}'; done | median)
      echo "$g t=$t gap d=$d $ms"
    done
    for w in $( [ $t = 2 ] && echo "1 2" || echo "$t" ); do
      RAYON_NUM_THREADS=$w taskset -c $cpus $NEW bench $f --device cpu --algos delta-stepping --deltas $od --json "${rep[@]}" 2>/dev/null | grep '^{' |
        sed -E 's/.*"delta":([0-9]+).*"iterations":([0-9.]+).*"median_ms":([0-9.]+),"min_ms":([0-9.]+).*"work":([0-9.]+).*/\1 \3 \4 \2 \5/' | while read d med mn it wk; do echo "$g t=$t new w=$w d=$d $med min=$mn buckets=$it work=$wk"; done
    done
    for bin in OLD NEW; do
      line=$(RAYON_NUM_THREADS=$t taskset -c $cpus ${!bin} bench $f --device cpu --algos auto --json "${rep[@]}" 2>/dev/null | grep '^{' | head -1)
      echo "$g t=$t $bin-auto $(grep -o '"median_ms":[0-9.]*' <<<"$line" | cut -d: -f2) $(grep -o '"chosen":"[^"]*"' <<<"$line")"
    done
  done
done
