# (H100) new = the build committed; d3: a pipeline three deep in the partition loop (a trip's
# atomic made one step before its result is read and its pushes made; not kept). ncu of the
# partition loop (the build committed) on kron 18.
nvidia-smi --query-gpu=name --format=csv,noheader
mkdir -p .gpu && tar xJf .gpupack/gpu.tar.xz -C .gpu
cp .gpu/sssp /tmp/new
for b in d3; do xz -dc .gpuexp/c8/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
. docs/results/h100-2026-11-28-thirteenth/row.sh   # as run: row() defined inline
for rep in 1 2 3; do for k in 16 17 18; do for b in new d3; do
 row $b /tmp/$b gen:kron:$k --device gpu --algos auto --trials 5
done; done; done
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
prof() { local tag=$1; shift
  timeout 100 $NCU --kernel-name regex:'^sssp_pile_loop_partition$' --launch-count 1 --set full --import-source no -f -o $OUT/$tag "$@" > $OUT/$tag.run.log 2>&1; echo "$tag rc=$?"
  $NCU --import $OUT/$tag.ncu-rep --page source --csv --print-source sass > $OUT/$tag-sass.csv 2>$OUT/$tag-sass.err; echo "sass rc=$? $(wc -l < $OUT/$tag-sass.csv)"
  $NCU --import $OUT/$tag.ncu-rep --page details --csv > $OUT/$tag-details.csv 2>&1
  xz -T4 $OUT/$tag-sass.csv; rm -f $OUT/$tag.ncu-rep
}
prof k18new /tmp/new run gen:kron:18 --device gpu --algo auto -s 0
