mkdir -p .gpu && tar xJf .gpupack/gpu.tar.xz -C .gpu
cp .gpu/sssp /tmp/h0
for b in n0 n1; do xz -dc .gpuexp/c1/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
. docs/results/h100-2026-11-28-thirteenth/row.sh   # as run: row() defined inline
nvidia-smi --query-gpu=name --format=csv,noheader
for rep in 1 2; do for k in 16 17 18; do for b in h0 n0 n1; do
 row $b /tmp/$b gen:kron:$k --device gpu --algos auto --trials 5
done; done; done
for g in .gpuexp/USA-road-d.NY.gr.gz gen:road:1000000 gen:kron:20 gen:kron:22; do for b in h0 n1; do row $b /tmp/$b $g --device gpu --algos auto --trials 5; done; done
