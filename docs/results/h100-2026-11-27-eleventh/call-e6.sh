for b in s11 b8; do xz -dc .gpuexp/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
mkdir -p /tmp/o
prof() { local tag=$1; shift
  timeout 200 $NCU --kernel-name regex:'^sssp_pile_loop_partition$' --launch-count 1 --set full --import-source no -f -o /tmp/o/$tag "$@" > /tmp/o/$tag.run.log 2>&1; echo "$tag rc=$?"; tail -1 /tmp/o/$tag.run.log
  $NCU --import /tmp/o/$tag.ncu-rep --page source --csv --print-source sass > /tmp/o/$tag-sass.csv 2>/dev/null
  $NCU --import /tmp/o/$tag.ncu-rep --page details --csv > /tmp/o/$tag-details.csv 2>&1
  rm -f /tmp/o/$tag.ncu-rep
}
for b in s11 b8; do prof $b-g2 /tmp/$b run gen:grid2d:300x300 --device gpu --algo workfront --balance partition -s 0; done
tar cJf $OUT/e6.tar.xz -C /tmp/o .
ls -la $OUT
