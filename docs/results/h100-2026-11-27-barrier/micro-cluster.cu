// Microbenchmark: per-iteration cost of a frontier loop step in one thread-block cluster
// (cluster barrier, length cells and near queue in rank 0's shared memory through DSMEM)
// against the same step with a grid barrier and cells in global memory.
#include <cooperative_groups.h>
#include <cstdio>
#include <cstdint>
#include <vector>
#include <cstdlib>
namespace cg = cooperative_groups;

#define N (1 << 20)
#define QCAP 4096

__device__ __forceinline__ void step(int g, int width, const uint32_t* item_src, const uint32_t* off,
                                     const uint32_t* arcs, unsigned long long* dist, unsigned it,
                                     unsigned* len_cell, uint32_t* qnext) {
    if (g < width) {
        uint32_t v = item_src[g];
        uint32_t o = off[v];
        uint32_t h = arcs[o];
        unsigned long long d = ((unsigned long long)(0xffffffffu - it) << 32) | g;
        atomicMin(&dist[h], d);
        unsigned m = __activemask();
        int lane = threadIdx.x & 31, leader = __ffs(m) - 1;
        unsigned base = 0;
        if (lane == leader) base = atomicAdd(len_cell, (unsigned)__popc(m));
        base = __shfl_sync(m, base, leader);
        unsigned idx = base + __popc(m & ((1u << lane) - 1));
        qnext[idx % QCAP] = h;
    }
}

// Cluster loop: every cell in rank 0's shared memory.
__global__ void cluster_loop(int iters, int width, const uint32_t* off, const uint32_t* arcs,
                             unsigned long long* dist, unsigned* out) {
    __shared__ unsigned cells[4];
    __shared__ uint32_t q[2][QCAP];
    cg::cluster_group cl = cg::this_cluster();
    unsigned rank = cl.block_rank();
    int g = rank * blockDim.x + threadIdx.x;
    if (threadIdx.x < 4) cells[threadIdx.x] = 0;
    for (int i = threadIdx.x; i < QCAP; i += blockDim.x) { q[0][i] = (i * 2654435761u) % N; q[1][i] = 0; }
    cl.sync();
    unsigned* rcells = cl.map_shared_rank(cells, 0);
    uint32_t* rq = cl.map_shared_rank(&q[0][0], 0);
    int w = width;
    for (int it = 0; it < iters; ++it) {
        int cur = it & 1;
        unsigned* lc = &rcells[(it + 1) % 3];
        step(g, w, rq + cur * QCAP, off, arcs, dist, it, lc, rq + (1 - cur) * QCAP);
        if (rank == 0 && threadIdx.x == 0) cells[(it + 2) % 3] = 0;
        cl.sync();
        unsigned len = *(volatile unsigned*)lc;
        w = len < width ? len : width;
    }
    cl.sync();  // rank 0's shared memory must outlive every remote read
    if (g == 0) out[0] = w;
}

// Same step, cells and queues in global memory, cluster barrier.
__global__ void cluster_loop_global(int iters, int width, const uint32_t* off, const uint32_t* arcs,
                                    unsigned long long* dist, unsigned* cells, uint32_t* q, unsigned* out) {
    cg::cluster_group cl = cg::this_cluster();
    unsigned rank = cl.block_rank();
    int g = rank * blockDim.x + threadIdx.x;
    int w = width;
    for (int it = 0; it < iters; ++it) {
        int cur = it & 1;
        unsigned* lc = &cells[(it + 1) % 3];
        step(g, w, q + cur * QCAP, off, arcs, dist, it, lc, q + (1 - cur) * QCAP);
        if (rank == 0 && threadIdx.x == 0) cells[(it + 2) % 3] = 0;
        cl.sync();
        unsigned len = *(volatile unsigned*)lc;
        w = len < width ? len : width;
    }
    if (g == 0) out[0] = w;
}

// Grid barrier (arrival counter + generation), cells and queues in global memory.
__device__ void grid_bar(unsigned* count, volatile unsigned* gen, unsigned nb) {
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned g0 = *gen;
        __threadfence();
        unsigned a = atomicAdd(count, 1u);
        if (a == nb - 1) { *count = 0; __threadfence(); atomicAdd((unsigned*)gen, 1u); }
        else { while (*gen == g0) {} }
        __threadfence();
    }
    __syncthreads();
}
__global__ void grid_loop(int iters, int width, const uint32_t* off, const uint32_t* arcs,
                          unsigned long long* dist, unsigned* cells, uint32_t* q, unsigned* bar, unsigned* out) {
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int w = width;
    for (int it = 0; it < iters; ++it) {
        int cur = it & 1;
        unsigned* lc = &cells[(it + 1) % 3];
        step(g, w, q + cur * QCAP, off, arcs, dist, it, lc, q + (1 - cur) * QCAP);
        if (g == 0) cells[(it + 2) % 3] = 0;
        grid_bar(&bar[0], &bar[32], gridDim.x);
        unsigned len = *(volatile unsigned*)lc;
        w = len < width ? len : width;
    }
    if (g == 0) out[0] = w;
}

// Barrier only.
__global__ void cluster_bar_only(int iters, unsigned* out) {
    cg::cluster_group cl = cg::this_cluster();
    for (int it = 0; it < iters; ++it) cl.sync();
    if (threadIdx.x == 0 && blockIdx.x == 0) out[0] = iters;
}

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); exit(1);} } while (0)

int main() {
    std::vector<uint32_t> h_off(N), h_arcs(N);
    srand(1);
    for (int i = 0; i < N; ++i) { h_off[i] = ((uint64_t)rand() * 7919u) % N; h_arcs[i] = ((uint64_t)rand() * 104729u) % N; }
    uint32_t *off, *arcs, *q; unsigned long long* dist; unsigned *out, *cells, *bar;
    CK(cudaMalloc(&off, N * 4)); CK(cudaMalloc(&arcs, N * 4)); CK(cudaMalloc(&dist, N * 8));
    CK(cudaMalloc(&q, 2 * QCAP * 4)); CK(cudaMalloc(&out, 64)); CK(cudaMalloc(&cells, 64)); CK(cudaMalloc(&bar, 256));
    CK(cudaMemcpy(off, h_off.data(), N * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(arcs, h_arcs.data(), N * 4, cudaMemcpyHostToDevice));
    std::vector<uint32_t> hq(2 * QCAP);
    for (int i = 0; i < QCAP; ++i) hq[i] = (i * 2654435761u) % N;
    CK(cudaFuncSetAttribute(cluster_loop, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    CK(cudaFuncSetAttribute(cluster_loop_global, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    CK(cudaFuncSetAttribute(cluster_bar_only, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
    const int iters = 20000;
    int widths[] = {1, 32, 256, 1024, 2048, 4096};
    for (int threads : {1024}) for (int C : {1, 4, 8, 16}) {
        cudaLaunchConfig_t cfg = {};
        cfg.gridDim = dim3(C); cfg.blockDim = dim3(threads); cfg.dynamicSmemBytes = 0;
        cudaLaunchAttribute at[1]; at[0].id = cudaLaunchAttributeClusterDimension;
        at[0].val.clusterDim.x = C; at[0].val.clusterDim.y = 1; at[0].val.clusterDim.z = 1;
        cfg.attrs = at; cfg.numAttrs = 1;
        int ncl = 0;
        cudaOccupancyMaxActiveClusters(&ncl, (void*)cluster_loop, &cfg);
        float ms;
        CK(cudaEventRecord(a));
        CK(cudaLaunchKernelEx(&cfg, cluster_bar_only, iters, out));
        CK(cudaEventRecord(b)); CK(cudaEventSynchronize(b)); cudaEventElapsedTime(&ms, a, b);
        printf("threads %4d C %2d (active clusters %d) barrier only: %.3f us/iter\n", threads, C, ncl, ms * 1000 / iters);
        for (int w : widths) {
            if (w > C * threads) continue;
            CK(cudaMemcpy(q, hq.data(), 2 * QCAP * 4, cudaMemcpyHostToDevice));
            CK(cudaMemset(cells, 0, 64));
            CK(cudaEventRecord(a));
            CK(cudaLaunchKernelEx(&cfg, cluster_loop, iters, w, (const uint32_t*)off, (const uint32_t*)arcs, dist, out));
            CK(cudaEventRecord(b)); CK(cudaEventSynchronize(b)); cudaEventElapsedTime(&ms, a, b);
            float ms2;
            CK(cudaEventRecord(a));
            CK(cudaLaunchKernelEx(&cfg, cluster_loop_global, iters, w, (const uint32_t*)off, (const uint32_t*)arcs, dist, cells, q, out));
            CK(cudaEventRecord(b)); CK(cudaEventSynchronize(b)); cudaEventElapsedTime(&ms2, a, b);
            printf("threads %4d C %2d width %5d: smem cells %.3f us/iter, global cells %.3f us/iter\n", threads, C, w, ms * 1000 / iters, ms2 * 1000 / iters);
        }
    }
    for (int nb : {132, 66}) for (int w : widths) {
        CK(cudaMemcpy(q, hq.data(), 2 * QCAP * 4, cudaMemcpyHostToDevice));
        CK(cudaMemset(cells, 0, 64)); CK(cudaMemset(bar, 0, 256));
        float ms;
        CK(cudaEventRecord(a));
        grid_loop<<<nb, 256>>>(iters, w, off, arcs, dist, cells, q, bar, out);
        CK(cudaEventRecord(b)); CK(cudaEventSynchronize(b)); cudaEventElapsedTime(&ms, a, b);
        printf("grid %d x 256 width %5d: %.3f us/iter\n", nb, w, ms * 1000 / iters);
    }
    CK(cudaGetLastError());
    return 0;
}
