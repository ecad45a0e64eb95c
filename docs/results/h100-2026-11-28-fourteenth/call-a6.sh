# (H100) the partition loop's classified twin at three blocks an SM: new = main (b56996a: the
# twin at two), t3 = the twin's launch bound 3 (80 registers, 304 B spills, three blocks an SM).
nvidia-smi --query-gpu=name --format=csv,noheader
mkdir -p .gpu && tar xJf .gpupack/gpu.tar.xz -C .gpu
cp .gpu/sssp /tmp/new
for b in t3; do xz -dc .gpuexp/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
. docs/results/h100-2026-11-28-fourteenth/row.sh
for rep in 1 2 3; do for k in 16 17 18; do for b in new t3; do
 row $b /tmp/$b gen:kron:$k --device gpu --algos workfront --balance partition --classify on --dedupe stamp --trials 5
done; done; done
