# (H200: no kind named; binaries as in call-c1.sh)
mkdir -p .gpu && tar xJf .gpupack/gpu.tar.xz -C .gpu
cp .gpu/sssp /tmp/h0
for b in n0 n1; do xz -dc .gpuexp/c1/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
. docs/results/h100-2026-11-28-thirteenth/row.sh   # as run: row() defined inline
for k in 17 18; do for b in h0 n0; do echo "trace $b kron $k"; /tmp/$b run gen:kron:$k --device gpu --algo workfront --balance partition -s 0 --trace - 2>/dev/null | head -16; done; done
for rep in 1 2; do for b in h0 n0 n1; do row $b /tmp/$b gen:kron:22 --device gpu --algos auto --trials 5; done; done
for rep in 1 2; do for k in 17 18; do for b in h0 n0; do row $b /tmp/$b gen:kron:$k --device gpu --algos auto --trials 5; done; done; done
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
prof() { local tag=$1; shift
  timeout 120 $NCU --kernel-name regex:'^sssp_pile_loop_partition$' --launch-count 1 --set full --import-source no -f -o $OUT/$tag "$@" > $OUT/$tag.run.log 2>&1; echo "$tag rc=$?"; tail -2 $OUT/$tag.run.log
  $NCU --import $OUT/$tag.ncu-rep --page source --csv --print-source sass > $OUT/$tag-sass.csv 2>$OUT/$tag-sass.err; echo "sass rc=$? $(wc -l < $OUT/$tag-sass.csv)"
  $NCU --import $OUT/$tag.ncu-rep --page details --csv > $OUT/$tag-details.csv 2>&1; echo "details $(wc -l < $OUT/$tag-details.csv)"
  xz -T4 $OUT/$tag-sass.csv; rm -f $OUT/$tag.ncu-rep
}
prof k18n0 /tmp/n0 run gen:kron:18 --device gpu --algo auto -s 0
