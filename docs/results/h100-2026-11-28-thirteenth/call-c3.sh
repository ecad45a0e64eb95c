# (H200) h0: 395d363; n0: runs, no pipeline; n2: runs, one deep (the tail's test after the
# next trip's reads); n3: the chunk walk, one deep. Built with .gpuexp/variant.sh (DEPTH, RUNS).
mkdir -p .gpu && tar xJf .gpupack/gpu.tar.xz -C .gpu
cp .gpu/sssp /tmp/h0
for b in n0 n2 n3; do xz -dc .gpuexp/c3/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
. docs/results/h100-2026-11-28-thirteenth/row.sh   # as run: row() defined inline
nvidia-smi --query-gpu=name --format=csv,noheader
for rep in 1 2 3; do for k in 16 17 18; do for b in h0 n0 n2 n3; do
 row $b /tmp/$b gen:kron:$k --device gpu --algos auto --trials 5
done; done; done
for rep in 1 2; do for b in h0 n2 n3; do row $b /tmp/$b gen:kron:22 --device gpu --algos auto --trials 5; done; done
for b in h0 n2; do row $b /tmp/$b gen:kron:20 --device gpu --algos auto --trials 5; done
