// Microbenchmark 2: a one-vertex frontier-loop iteration on the persistent grid, barrier
// variants x chain variants.
#include <cstdio>
#include <cstdint>
#include <vector>
#include <cstdlib>
#define N (1 << 20)
#define QCAP 4096

__device__ __forceinline__ unsigned ld_relaxed_sys(const unsigned* p) { unsigned v; asm volatile("ld.relaxed.sys.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory"); return v; }
__device__ __forceinline__ unsigned ld_volatile(const unsigned* p) { return *(volatile const unsigned*)p; }

// B0: threadfence barrier. B1: ours (acq_rel atom, red.release bump, relaxed poll, ld.acquire).
// B2: B1 with the whole warp 0 polling (converged), lane 0 arriving.
// B3: B1 without the final acquire (unsafe; measurement only).
template <int B>
__device__ __forceinline__ void grid_bar(unsigned* count, unsigned* gen, unsigned nb, unsigned& epoch) {
    if (B == 4) {
        __syncthreads();
        epoch += nb;
        if (threadIdx.x == 0) {
            asm volatile("red.release.gpu.global.add.u32 [%0], 1;" :: "l"(count) : "memory");
            while ((int)(ld_volatile(count) - epoch) < 0) {}
            unsigned g; asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(g) : "l"(count) : "memory");
        }
        __syncthreads();
        return;
    }
    __syncthreads();
    if (B == 2) {
        if (threadIdx.x < 32) {
            unsigned g0 = ld_volatile(gen);
            unsigned arrived = 0;
            if (threadIdx.x == 0) asm volatile("atom.acq_rel.gpu.global.add.u32 %0, [%1], 1;" : "=r"(arrived) : "l"(count) : "memory");
            arrived = __shfl_sync(0xffffffffu, arrived, 0);
            if (arrived == nb - 1) {
                if (threadIdx.x == 0) { *(volatile unsigned*)count = 0; asm volatile("red.release.gpu.global.add.u32 [%0], 1;" :: "l"(gen) : "memory"); }
            } else {
                while (ld_volatile(gen) == g0) {}
                unsigned g; asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(g) : "l"(gen) : "memory");
            }
            __syncwarp();
        }
    } else if (threadIdx.x == 0) {
        unsigned g0 = ld_volatile(gen);
        if (B == 0) {
            __threadfence();
            unsigned a = atomicAdd(count, 1u);
            if (a == nb - 1) { *(volatile unsigned*)count = 0; __threadfence(); atomicAdd(gen, 1u); }
            else { while (ld_volatile(gen) == g0) {} }
            __threadfence();
        } else {
            unsigned arrived;
            asm volatile("atom.acq_rel.gpu.global.add.u32 %0, [%1], 1;" : "=r"(arrived) : "l"(count) : "memory");
            if (arrived == nb - 1) { *(volatile unsigned*)count = 0; asm volatile("red.release.gpu.global.add.u32 [%0], 1;" :: "l"(gen) : "memory"); }
            else {
                while (ld_volatile(gen) == g0) {}
                if (B == 1) { unsigned g; asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(g) : "l"(gen) : "memory"); }
            }
        }
    }
    __syncthreads();
}

struct G { const uint32_t* off; const uint32_t* heads; const uint32_t* wts; unsigned long long* dist; unsigned* cells; uint32_t* q; unsigned* bar; unsigned long long* counters; };

// C0: item, off, arc, 32-bit-indexed 64-bit atomicMin, per-thread push (only the worker).
// C1: every thread loads the length; the worker: item, (off[v], off[v+1], dist[v]), (head, weight),
//     64-bit atomicMin, warp-aggregated push, counter atomics.
template <int B, int C>
__global__ void loop(int iters, int width, G g) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int w = width;
    unsigned epoch = 0;
    for (int it = 0; it < iters; ++it) {
        int cur = it & 1;
        unsigned* lc = &g.cells[(it + 1) % 3];
        uint32_t* qin = g.q + cur * QCAP; uint32_t* qout = g.q + (1 - cur) * QCAP;
        if (t == 0) g.cells[(it + 2) % 3] = 0;
        if (C == 0) {
            if (t < w) {
                uint32_t v = qin[t]; uint32_t o = g.off[v]; uint32_t h = g.heads[o];
                atomicMin(&g.dist[h], ((unsigned long long)(0xffffffffu - it) << 32) | t);
                unsigned idx = atomicAdd(lc, 1u); qout[idx % QCAP] = h;
            }
        } else if (C == 3) {
            if ((t & ~31) < w) {
                bool live = t < w;
                uint32_t h = 0; bool keep = false;
                if (live) {
                    uint32_t v = qin[t]; if (v >= N) v = 0;
                    uint32_t s = g.off[v], e = g.off[v + 1];
                    unsigned long long dv = *(volatile unsigned long long*)&g.dist[v];
                    if (e > s) {
                        h = g.heads[s]; uint32_t wt = g.wts[s];
                        unsigned long long cand = (((unsigned long long)(uint32_t)(dv >> 32) + wt) << 32) | it;
                        cand = ((unsigned long long)(0xffffffffu - it) << 32) | t;
                        unsigned long long old = atomicMin(&g.dist[h], cand);
                        keep = cand < old;
                    }
                }
                unsigned m = __ballot_sync(0xffffffffu, keep);
                if (m) {
                    int lane = threadIdx.x & 31, leader = __ffs(m) - 1;
                    int shard = (t >> 5) & 7;
                    unsigned base = 0;
                    if (lane == leader) base = atomicAdd(&g.cells[8 + 8 * ((it + 1) % 3) + shard * 0 + shard], (unsigned)__popc(m));
                    base = __shfl_sync(0xffffffffu, base, leader);
                    if (keep) qout[(shard * 512 + base + __popc(m & ((1u << lane) - 1))) % QCAP] = h;
                }
                if ((threadIdx.x & 31) == 0) atomicAdd(g.counters, 1ull);
            }
        } else if (C == 2) {
            if ((t & ~31) < w) {
                bool live = t < w;
                uint32_t h = 0; unsigned long long cand = 0; bool has = false;
                if (live) {
                    uint32_t v = qin[t]; if (v >= N) v = 0;
                    uint32_t s = g.off[v], e = g.off[v + 1];
                    unsigned long long dv = *(volatile unsigned long long*)&g.dist[v];
                    if (e > s) {
                        h = g.heads[s]; uint32_t wt = g.wts[s];
                        cand = (((unsigned long long)(uint32_t)(dv >> 32) + wt) << 32) | it;
                        cand = ((unsigned long long)(0xffffffffu - it) << 32) | t;
                        has = true;
                    }
                }
                unsigned m = __ballot_sync(0xffffffffu, has);
                int lane = threadIdx.x & 31, leader = m ? __ffs(m) - 1 : 0;
                unsigned base = 0;
                if (m && lane == leader) base = atomicAdd(lc, (unsigned)__popc(m));
                unsigned long long old = has ? atomicMin(&g.dist[h], cand) : 0;
                base = __shfl_sync(0xffffffffu, base, leader);
                if (has) qout[(base + __popc(m & ((1u << lane) - 1))) % QCAP] = cand < old ? h : 0xffffffffu;
                if ((threadIdx.x & 31) == 0) atomicAdd(g.counters, 1ull);
            }
        } else {
            if ((t & ~31) < w) {
                bool live = t < w;
                uint32_t h = 0; bool keep = false;
                if (live) {
                    uint32_t v = qin[t];
                    uint32_t s = g.off[v], e = g.off[v + 1];
                    unsigned long long dv = *(volatile unsigned long long*)&g.dist[v];
                    if (e > s) {
                        h = g.heads[s]; uint32_t wt = g.wts[s];
                        unsigned long long cand = (((unsigned long long)(uint32_t)(dv >> 32) + wt) << 32) | it;
                        cand = ((unsigned long long)(0xffffffffu - it) << 32) | t;
                        unsigned long long old = atomicMin(&g.dist[h], cand);
                        keep = cand < old;
                    }
                }
                unsigned m = __ballot_sync(0xffffffffu, keep);
                if (m) {
                    int lane = threadIdx.x & 31, leader = __ffs(m) - 1;
                    unsigned base = 0;
                    if (lane == leader) base = atomicAdd(lc, (unsigned)__popc(m));
                    base = __shfl_sync(0xffffffffu, base, leader);
                    if (keep) qout[(base + __popc(m & ((1u << lane) - 1))) % QCAP] = h;
                }
                if ((threadIdx.x & 31) == 0) atomicAdd(g.counters, 1ull);
            }
        }
        grid_bar<B>(&g.bar[0], &g.bar[32], gridDim.x, epoch);
        unsigned len = C == 0 ? ld_volatile(lc) : ld_relaxed_sys(lc);
        w = len < width ? len : width;
        if (w == 0) w = width;
    }
}

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); exit(1);} } while (0)

template <int B, int C>
void run(const char* name, int nb, int w, G g, std::vector<uint32_t>& hq, int iters) {
    CK(cudaMemcpy(g.q, hq.data(), 2 * QCAP * 4, cudaMemcpyHostToDevice));
    CK(cudaMemset(g.cells, 0, 1024)); CK(cudaMemset(g.bar, 0, 256));
    cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
    float ms;
    CK(cudaEventRecord(a));
    loop<B, C><<<nb, 256>>>(iters, w, g);
    CK(cudaEventRecord(b)); CK(cudaEventSynchronize(b)); cudaEventElapsedTime(&ms, a, b);
    printf("%-28s blocks %3d width %4d: %.3f us/iter\n", name, nb, w, ms * 1000 / iters);
}

int main() {
    std::vector<uint32_t> h_off(N + 1), h_arcs(N);
    srand(1);
    for (int i = 0; i <= N; ++i) h_off[i] = i < N ? ((uint64_t)rand() * 7919u) % (N - 4) : N;
    for (int i = 0; i < N; ++i) h_arcs[i] = ((uint64_t)rand() * 104729u) % N;
    // off[v+1] > off[v] mostly not; make ranges: off sorted per vertex = v.
    for (int i = 0; i <= N; ++i) h_off[i] = i;
    std::vector<uint32_t> perm(N); for (int i = 0; i < N; ++i) perm[i] = ((uint64_t)i * 2654435761u) % N;
    G g;
    uint32_t *off, *heads, *wts, *q; unsigned long long *dist, *counters; unsigned *cells, *bar;
    CK(cudaMalloc(&off, (N + 1) * 4)); CK(cudaMalloc(&heads, N * 4)); CK(cudaMalloc(&wts, N * 4)); CK(cudaMalloc(&dist, N * 8));
    CK(cudaMalloc(&q, 2 * QCAP * 4)); CK(cudaMalloc(&cells, 1024)); CK(cudaMalloc(&bar, 256)); CK(cudaMalloc(&counters, 64));
    CK(cudaMemcpy(off, h_off.data(), (N + 1) * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(heads, h_arcs.data(), N * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(wts, h_arcs.data(), N * 4, cudaMemcpyHostToDevice));
    CK(cudaMemset(dist, 0xff, N * 8));
    g.off = off; g.heads = heads; g.wts = wts; g.dist = dist; g.cells = cells; g.q = q; g.bar = bar; g.counters = counters;
    std::vector<uint32_t> hq(2 * QCAP);
    for (int i = 0; i < QCAP; ++i) hq[i] = perm[i];
    const int iters = 20000;
    for (int rep = 0; rep < 2; ++rep) for (int nb : {132}) for (int w : {1, 256, 1024, 2048, 4096}) {
        run<4, 1>("counter barrier, chain1", nb, w, g, hq, iters);
        run<4, 3>("counter barrier, 8 push cells", nb, w, g, hq, iters);
    }
    CK(cudaGetLastError());
    return 0;
}
