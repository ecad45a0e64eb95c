#!/bin/bash
# Cold path of PHAST on the GPU: three binaries (main, +attach, +block dim fix), first vs later solves.
set -u
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
T=$(mktemp -d)
./sssp-fixed run ny.gr.gz --algo phast --hierarchy $T/ny.ch -s 0 2>&1 | tail -3
./sssp-fixed run gen:road:1500000 --algo phast --hierarchy $T/r15.ch -s 0 2>&1 | tail -3
for round in 1 2 3; do
  for b in before attach fixed; do
    for g in ny r15; do
      G=ny.gr.gz; [ $g = r15 ] && G=gen:road:1500000
      ./sssp-$b run $G --algo phast --hierarchy $T/$g.ch -s 0,1000,2000,3000,4000,5000,6000,7000 --json 2>$OUT/err-$b-$g-$round.txt >$OUT/json-$b-$g-$round.txt
      echo "$b $g $round rc=$? $(grep device: $OUT/err-$b-$g-$round.txt)"
    done
  done
done
for b in before attach fixed; do
  ./sssp-$b bench ny.gr.gz --algos phast --hierarchy $T/ny.ch -n 30 > $OUT/bench-$b-ny.txt 2>&1
  ./sssp-$b bench gen:road:1500000 --algos phast --hierarchy $T/r15.ch -n 30 > $OUT/bench-$b-r15.txt 2>&1
  tail -1 $OUT/bench-$b-ny.txt; tail -1 $OUT/bench-$b-r15.txt
done
