xz -dc .gpuexp/b8.xz > /tmp/new && chmod +x /tmp/new
xz -dc .gpuexp/s11.xz > /tmp/s11 && chmod +x /tmp/s11
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
prof() { local tag=$1; local skip=$2; shift 2
  timeout 150 $NCU --kernel-name regex:'^sssp_advance$' --launch-skip $skip --launch-count 1 --set full --import-source no -f -o $OUT/$tag "$@" > $OUT/$tag.run.log 2>&1; echo "$tag rc=$?"; tail -1 $OUT/$tag.run.log
  $NCU --import $OUT/$tag.ncu-rep --page source --csv --print-source sass > $OUT/$tag-sass.csv 2>$OUT/$tag-sass.err
  $NCU --import $OUT/$tag.ncu-rep --page details --csv > $OUT/$tag-details.csv 2>&1
  $NCU --import $OUT/$tag.ncu-rep --page raw --csv > $OUT/$tag-raw.csv 2>&1
  xz -T4 $OUT/$tag-sass.csv $OUT/$tag-raw.csv; rm -f $OUT/$tag.ncu-rep
}
for b in s11 new; do
  prof $b-it4 3 /tmp/$b run gen:kron:16 --device gpu --algo workfront --balance partition --host-loop -s 0
  prof $b-k18it5 4 /tmp/$b run gen:kron:18 --device gpu --algo workfront --balance partition --host-loop -s 0
done
ls -la $OUT
