# (H100) the partition loop's bound, continued: main (host loop above 2^23 arcs) against the
# same binary with SSSP_NARROW_PARTITION_ARCS raised (the partition loop below 2^31 arcs) on
# kron 23-25, and Near-Far with partition balance on kron 22 (the wide loop against the
# partition loop).
nvidia-smi --query-gpu=name --format=csv,noheader
mkdir -p .gpu && tar xJf .gpupack/gpu.tar.xz -C .gpu
cp .gpu/sssp /tmp/new
. docs/results/h100-2026-11-28-ranks32/row.sh
SECONDS=0
row wide-nf /tmp/new gen:kron:22 --device gpu --algos near-far --balance partition --dedupe stamp --trials 5
SSSP_NARROW_PARTITION_ARCS=2000000000 row part-nf /tmp/new gen:kron:22 --device gpu --algos near-far --balance partition --dedupe stamp --trials 5
for k in 23 24; do
 row host /tmp/new gen:kron:$k --device gpu --algos auto --trials 5
 SSSP_NARROW_PARTITION_ARCS=2000000000 row part /tmp/new gen:kron:$k --device gpu --algos auto --trials 5
done
echo "${SECONDS}s"
ROW_LIMIT=150 row host /tmp/new gen:kron:25 --device gpu --algos auto --trials 5
ROW_LIMIT=150 SSSP_NARROW_PARTITION_ARCS=2000000000 row part /tmp/new gen:kron:25 --device gpu --algos auto --trials 5
echo "${SECONDS}s"
