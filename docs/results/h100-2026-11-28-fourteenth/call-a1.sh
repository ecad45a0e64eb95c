# (H100) o5f = 5f829c1 (the old binary), new = 4e254f2 (main), l32 = next/lane-slot-32
# (7f4e566: 32-bit slot search), in one call; then configurations of main on kron 18.
nvidia-smi --query-gpu=name --format=csv,noheader
mkdir -p .gpu && tar xJf .gpupack/gpu.tar.xz -C .gpu
cp .gpu/sssp /tmp/new
for b in o5f l32; do xz -dc .gpuexp/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
. docs/results/h100-2026-11-28-fourteenth/row.sh
echo "== sinks_in_the_frontier on the GPU, twice"
for i in 1 2; do SSSP_TEST_DEVICE=gpu timeout 120 .gpu/strategies sinks_in_the_frontier --test-threads 1 2>&1 | tail -3; done
for rep in 1 2 3; do for k in 16 17 18; do for b in o5f new l32; do
 row $b /tmp/$b gen:kron:$k --device gpu --algos auto --trials 5
done; done; done
for k in 17 18; do for o in degree bfs; do row new-$o /tmp/new gen:kron:$k --device gpu --algos auto --trials 5 --order $o; done; done
row new-nf /tmp/new gen:kron:18 --device gpu --algos near-far --balance partition --deltas 64,128,256,512,1024 --trials 5
row new-async /tmp/new gen:kron:18 --device gpu --algos async --trials 5
