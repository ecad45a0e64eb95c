# (H100) where the partition loop's bound should lie now: main (f6310b6; graphs above 2^23 arcs
# run Workfront in the host loop) against the same binary with SSSP_NARROW_PARTITION_ARCS
# raised past kron 22 (every graph below runs the partition loop), kron 18-22, two rounds.
nvidia-smi --query-gpu=name --format=csv,noheader
mkdir -p .gpu && tar xJf .gpupack/gpu.tar.xz -C .gpu
cp .gpu/sssp /tmp/new
. docs/results/h100-2026-11-28-ranks32/row.sh
for rep in 1 2; do for k in 18 19 20 21 22; do
 row host /tmp/new gen:kron:$k --device gpu --algos auto --trials 5
 SSSP_NARROW_PARTITION_ARCS=2000000000 row part /tmp/new gen:kron:$k --device gpu --algos auto --trials 5
done; done
