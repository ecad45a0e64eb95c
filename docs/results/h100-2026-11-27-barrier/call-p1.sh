set -x
cd .gpuexp
xz -dc cur.xz > /tmp/sssp && chmod +x /tmp/sssp
S=/tmp/sssp
NCU="ncu --clock-control none --set full -k regex:sssp_pile_loop --launch-count 1 -f"
$NCU -o $OUT/path $S run gen:path:4000 --device gpu --algo workfront --balance vwarp --dedupe stamp -s 0 2>&1 | tail -5
$NCU -o $OUT/ny $S run USA-road-d.NY.gr.gz --device gpu --algo auto -s 0 2>&1 | tail -5
for r in path ny; do
  ncu -i $OUT/$r.ncu-rep --page source --csv --print-source sass > $OUT/${r}_sass.csv 2> $OUT/${r}_err.txt; echo rc $?
  head -c 600 $OUT/${r}_sass.csv; head -5 $OUT/${r}_err.txt
  ncu -i $OUT/$r.ncu-rep --page details --csv > $OUT/${r}_details.csv 2>&1
done
ls -la $OUT
