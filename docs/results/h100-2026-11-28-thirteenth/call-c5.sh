# (H200) n5 as in c4; n6: the partition loop two deep with the runs, the other loops one deep
# with the chunk walk (a step before the build committed, which runs those zero deep).
mkdir -p .gpu && tar xJf .gpupack/gpu.tar.xz -C .gpu
cp .gpu/sssp /tmp/h0
for b in n5 n6; do xz -dc .gpuexp/c5/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
. docs/results/h100-2026-11-28-thirteenth/row.sh   # as run: row() defined inline
nvidia-smi --query-gpu=name --format=csv,noheader
for rep in 1 2; do for k in 16 17 18; do for b in h0 n6; do
 row $b /tmp/$b gen:kron:$k --device gpu --algos auto --trials 5
done; done; done
for rep in 1 2; do for b in h0 n5 n6; do row $b /tmp/$b gen:kron:22 --device gpu --algos auto --trials 5; done; done
for b in h0 n6; do row $b /tmp/$b gen:kron:20 --device gpu --algos auto --trials 5; done
for b in h0 n6; do row $b-wide /tmp/$b gen:kron:20 --device gpu --algos workfront --balance partition --loops grid --trials 5; done
for g in gen:kron:24 gen:road:4000000 gen:grid3d:256x256x256; do for b in h0 n6; do row $b /tmp/$b $g --device gpu --algos auto --trials 5; done; done
for g in .gpuexp/USA-road-d.NY.gr.gz gen:road:1000000; do for b in h0 n6; do row $b /tmp/$b $g --device gpu --algos auto --trials 5; done; done
