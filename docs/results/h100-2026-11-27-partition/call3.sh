#!/usr/bin/env bash
# Call 3: ncu on the narrow loop with partition balance, kron 16 bucketing d=16, and the path.
cd "$(dirname "$0")/.."
[ -x .gpu/sssp ] || { mkdir -p .gpu && tar xJf .gpupack/gpu.tar.xz -C .gpu; }
B=.gpu/sssp
export SSSP_PARTITION_NARROW=1
prof() { name=$1; shift
  timeout 200 ncu --clock-control none -k regex:pile_loop -c 1 --set full --import-source no -f -o $OUT/$name "$@" > $OUT/$name.ncu.log 2>&1; tail -3 $OUT/$name.ncu.log
  ncu -i $OUT/$name.ncu-rep --page details --csv > $OUT/$name.details.csv 2>&1
  ncu -i $OUT/$name.ncu-rep --page source --csv --print-source sass > $OUT/$name.sass.csv 2>&1
  ls -la $OUT/$name.*; rm -f $OUT/$name.ncu-rep
}
prof k16b16 $B run gen:kron:16 --device gpu --algo bucketing --balance partition --dedupe stamp --delta 16 -s 5661
prof path $B run gen:path:4000 --device gpu --algo bucketing --balance partition --dedupe stamp --delta 16 -s 0
prof k16b16vw $B run gen:kron:16 --device gpu --algo bucketing --balance vwarp --dedupe stamp --delta 16 -s 5661
