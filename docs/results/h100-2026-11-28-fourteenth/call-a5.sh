# (H100) the partition loop's runs walk in 32 bits (next/ranks32): o5f = 5f829c1, new = main
# (4e254f2), r32 = 32-bit ranks (launch bound 2 blocks/SM: 128 registers, 56 B spills), r32b3 =
# the same at 3 blocks/SM (80 registers, 304 B spills; run with SSSP_LOOP_BLOCKS_PER_SM=3).
nvidia-smi --query-gpu=name --format=csv,noheader
mkdir -p .gpu && tar xJf .gpupack/gpu.tar.xz -C .gpu
cp .gpu/sssp /tmp/new
for b in o5f r32 r32b3; do xz -dc .gpuexp/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
. docs/results/h100-2026-11-28-fourteenth/row.sh
for rep in 1 2 3; do for k in 16 17 18; do
 row o5f /tmp/o5f gen:kron:$k --device gpu --algos auto --trials 5
 row new /tmp/new gen:kron:$k --device gpu --algos auto --trials 5
 row r32 /tmp/r32 gen:kron:$k --device gpu --algos auto --trials 5
 SSSP_LOOP_BLOCKS_PER_SM=3 row r32b3 /tmp/r32b3 gen:kron:$k --device gpu --algos auto --trials 5
done; done
