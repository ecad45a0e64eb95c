cd .gpuexp
xz -dc stamp.xz > /tmp/sssp && chmod +x /tmp/sssp
xz -dc stamp.ptx.xz > /tmp/stamp.ptx
S=/tmp/sssp
export SSSP_PTX=/tmp/stamp.ptx SSSP_STAMPS=1
$S run gen:path:4000 --device gpu --algo workfront --balance vwarp --dedupe stamp -s 0 2>&1 | grep -E "STAMPS|iterations" | tail -3
$S run gen:path:4000 --device gpu --algo workfront --balance thread --dedupe stamp -s 0 2>&1 | grep -E "STAMPS|iterations" | tail -3
$S run USA-road-d.NY.gr.gz --device gpu --algo auto -s 0 2>&1 | grep -E "STAMPS|iterations" | tail -3
