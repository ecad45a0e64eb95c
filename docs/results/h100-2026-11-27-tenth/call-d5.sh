mkdir -p .gpu && tar xJf .gpupack/gpu.tar.xz -C .gpu
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
echo "ncu: $NCU"; $NCU --version | tail -1
prof() { local tag=$1; shift
  timeout 200 $NCU --kernel-name regex:'^sssp_pile_loop$' --launch-count 1 --set full -f -o $OUT/$tag "$@" > $OUT/$tag.run.log 2>&1; echo "$tag rc=$?"; tail -3 $OUT/$tag.run.log
  $NCU --import $OUT/$tag.ncu-rep --page source --csv --print-source sass > $OUT/$tag-sass.csv 2>$OUT/$tag-sass.err; echo "sass rc=$? $(wc -l < $OUT/$tag-sass.csv)"; head -c 300 $OUT/$tag-sass.err
  $NCU --import $OUT/$tag.ncu-rep --page details --csv > $OUT/$tag-details.csv 2>&1; echo "details $(wc -l < $OUT/$tag-details.csv)"
  xz -T4 $OUT/$tag-sass.csv
}
prof path .gpu/sssp run gen:path:4000 --device gpu --algo bucketing --balance vwarp --dedupe stamp -s 0
prof ny .gpu/sssp run .gpu/USA-road-d.NY.gr.gz --device gpu --algo auto -s 22835
ls -la $OUT
