# (H100) where kron 16-18's time goes per iteration: `it` = exp/iter-times (main's kernels plus
# a %globaltimer / %clock64 stamp by thread 0 after each advance's barrier; SSSP_ITER_TIMES=1
# prints each launch's per-iteration times, us/cycles). Then the partition grid's size.
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
mkdir -p .gpu && tar xJf .gpupack/gpu.tar.xz -C .gpu
cp .gpu/sssp /tmp/new
for b in it; do xz -dc .gpuexp/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
. docs/results/h100-2026-11-28-fourteenth/row.sh
for k in 16 17 18; do echo "== kron $k"; SSSP_ITER_TIMES=1 /tmp/it bench gen:kron:$k --device gpu --algos auto --trials 5 2>&1 | grep -E "iter-times|auto" ; done
for k in 16 18; do for s in 1 2 3; do SSSP_LOOP_BLOCKS_PER_SM=1 row bps1 /tmp/new gen:kron:$k --device gpu --algos auto --trials 5; row bps2 /tmp/new gen:kron:$k --device gpu --algos auto --trials 5; done; done
