#!/bin/bash
# Per-solve JSON of every process, tagged, in one file ($OUT/all.txt).
set -u
cd "$(dirname "$0")"
T=/tmp/phast-ch; mkdir -p $T
[ -f $T/ny.ch ] || cp /tmp/tmp.*/ny.ch $T/ 2>/dev/null || ./sssp-fixed run ny.gr.gz --algo phast --hierarchy $T/ny.ch -s 0 2>/dev/null >/dev/null
[ -f $T/r15.ch ] || cp /tmp/tmp.*/r15.ch $T/ 2>/dev/null || ./sssp-fixed run gen:road:1500000 --algo phast --hierarchy $T/r15.ch -s 0 2>/dev/null >/dev/null
for round in 1 2 3 4 5; do
  for b in before attach fixed; do
    for g in ny r15; do
      G=ny.gr.gz; [ $g = r15 ] && G=gen:road:1500000
      ./sssp-$b run $G --algo phast --hierarchy $T/$g.ch -s 0,1000,2000,3000,4000,5000,6000,7000 --json 2>/tmp/err | sed "s/^/$b $g $round /" >> $OUT/all.txt
      grep device: /tmp/err | sed "s/^/$b $g $round /" >> $OUT/all.txt
    done
  done
done
# Without --hierarchy: the first solve builds and attaches (NY).
./sssp-fixed run ny.gr.gz --algo phast -s 0,1 >> $OUT/all.txt 2>&1
wc -l $OUT/all.txt
