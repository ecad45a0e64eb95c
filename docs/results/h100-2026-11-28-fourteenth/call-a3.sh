# (H100) the partition loop's occupancy: new = main (launch bound 2 blocks/SM: 128 registers,
# 84 B spills), b3 = bound 3 (80 registers, 316 B spills), b4 = bound 4 (64, 530 B), each run
# with SSSP_LOOP_BLOCKS_PER_SM at its bound; `wide` = main on the wide loop.
nvidia-smi --query-gpu=name --format=csv,noheader
mkdir -p .gpu && tar xJf .gpupack/gpu.tar.xz -C .gpu
cp .gpu/sssp /tmp/new
for b in b3 b4; do xz -dc .gpuexp/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
. docs/results/h100-2026-11-28-fourteenth/row.sh
for rep in 1 2; do for k in 16 17 18; do
 row new /tmp/new gen:kron:$k --device gpu --algos auto --trials 5
 SSSP_LOOP_BLOCKS_PER_SM=3 row b3 /tmp/b3 gen:kron:$k --device gpu --algos auto --trials 5
 SSSP_LOOP_BLOCKS_PER_SM=4 row b4 /tmp/b4 gen:kron:$k --device gpu --algos auto --trials 5
 SSSP_NARROW_PARTITION_ARCS=0 row wide /tmp/new gen:kron:$k --device gpu --algos auto --trials 5
done; done
