cd .gpuexp
xz -dc stamp.xz > /tmp/sssp && chmod +x /tmp/sssp
xz -dc stamp.ptx.xz > /tmp/stamp.ptx
S=/tmp/sssp
export SSSP_PTX=/tmp/stamp.ptx SSSP_STAMPS=1
for B in 1 2; do
echo "== blocks per SM $B"
SSSP_LOOP_BLOCKS_PER_SM=$B $S run gen:path:4000 --device gpu --algo workfront --balance vwarp --dedupe stamp -s 0 2>&1 | grep -E "STAMPS|iterations" | tail -2
SSSP_LOOP_BLOCKS_PER_SM=$B $S run gen:path:4000 --device gpu --algo bucketing --balance vwarp --dedupe stamp -s 0 2>&1 | grep -E "STAMPS|iterations" | tail -2
SSSP_LOOP_BLOCKS_PER_SM=$B $S run USA-road-d.NY.gr.gz --device gpu --algo auto -s 0 2>&1 | grep -E "STAMPS|iterations" | tail -2
SSSP_LOOP_BLOCKS_PER_SM=$B $S run gen:road:1000000 --device gpu --algo auto -s 0 2>&1 | grep -E "STAMPS|iterations" | tail -2
done
nvidia-smi --query-gpu=clocks.sm --format=csv
