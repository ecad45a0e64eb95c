# (H100) expansion claims (next/expanded): cl = claims on, cl0 = the same binary with
# SSSP_CLAIMS=0, new = main.
nvidia-smi --query-gpu=name --format=csv,noheader
mkdir -p .gpu && tar xJf .gpupack/gpu.tar.xz -C .gpu
cp .gpu/sssp /tmp/new
for b in cl; do xz -dc .gpuexp/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
. docs/results/h100-2026-11-28-fourteenth/row.sh
for rep in 1 2; do for k in 16 17 18; do
 row new /tmp/new gen:kron:$k --device gpu --algos auto --trials 5
 row cl /tmp/cl gen:kron:$k --device gpu --algos auto --trials 5
 SSSP_CLAIMS=0 row cl0 /tmp/cl gen:kron:$k --device gpu --algos auto --trials 5
done; done
