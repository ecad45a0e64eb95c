# (H100) the default path: o5f = 5f829c1 (an older baseline), m4e = main before this change
# (4e254f2), new = 32-bit ranks and three blocks an SM in the partition loop, in one call.
nvidia-smi --query-gpu=name --format=csv,noheader
mkdir -p .gpu && tar xJf .gpupack/gpu.tar.xz -C .gpu
cp .gpu/sssp /tmp/new
for b in m4e o5f; do xz -dc .gpuexp/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
. docs/results/h100-2026-11-28-ranks32/row.sh
SECONDS=0
for rep in 1 2 3; do for k in 16 17 18; do for b in o5f m4e new; do
 row $b /tmp/$b gen:kron:$k --device gpu --algos auto --trials 5
done; done; done
for b in m4e new; do row $b-c /tmp/$b gen:kron:18 --device gpu --algos workfront --balance partition --classify on --trials 5; done
echo "kron ${SECONDS}s"
for g in .gpuexp/USA-road-d.NY.gr.gz gen:road:1000000; do for b in o5f m4e new; do row $b /tmp/$b $g --device gpu --algos auto --trials 5; done; done
for rep in 1 2; do for b in o5f m4e new; do row $b /tmp/$b gen:kron:22 --device gpu --algos auto --trials 5; done; done
for g in gen:kron:24 gen:road:4000000 gen:grid3d:256x256x256; do for b in o5f m4e new; do row $b /tmp/$b $g --device gpu --algos auto --trials 5; done; done
echo "total ${SECONDS}s"
