# (H200) n2 as in c3; n4: n2 after relax_read was split into probe and commit (one deep);
# n5: two deep (the head's test read one trip ahead of its atomic), runs.
mkdir -p .gpu && tar xJf .gpupack/gpu.tar.xz -C .gpu
cp .gpu/sssp /tmp/h0
for b in n2 n4 n5; do xz -dc .gpuexp/c4/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
. docs/results/h100-2026-11-28-thirteenth/row.sh   # as run: row() defined inline
nvidia-smi --query-gpu=name --format=csv,noheader
for rep in 1 2 3; do for k in 16 17 18; do for b in h0 n2 n4 n5; do
 row $b /tmp/$b gen:kron:$k --device gpu --algos auto --trials 5
done; done; done
for rep in 1 2; do for b in h0 n2 n5; do row $b /tmp/$b gen:kron:22 --device gpu --algos auto --trials 5; done; done
for g in .gpuexp/USA-road-d.NY.gr.gz gen:road:1000000; do for rep in 1 2; do for b in h0 n2 n5; do row $b /tmp/$b $g --device gpu --algos auto --trials 5; done; done; done
