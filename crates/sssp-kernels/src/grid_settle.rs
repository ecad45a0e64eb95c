//! GPU-only: the settle loop of parallel Dijkstra (`settle.rs`) as one persistent launch, and
//! the grid-wide pair minimum it needs. Steps run back to back with grid barriers between the
//! phases (relax | minimum | settle), as `grid::pile_loop` does for the frontier strategies;
//! the host reads once, at the end. Ortega-Arranz et al. launch three kernels per step
//! (`crauser-gpu-dijkstra.txt`, Alg. 1); road graphs take tens of thousands of steps, so
//! launches (and the host's `Delta` read-back) would dominate.

use crate::settle::*;
use crate::types::*;
use crate::warp::*;

/// The minimum over `0..len` of two keys at once (`value(i)` gives both; `u64::MAX` if none):
/// each block folds its slots with warp shuffles and a block fold, writes its pair to
/// `vals[2b], vals[2b + 1]`, and after one grid barrier every block folds all pairs, so every
/// thread gets the result. `vals` has two entries per block and must not be written again
/// before a later grid barrier (the next call's writes would race with this call's reads).
#[inline(always)]
pub unsafe fn grid_min_pair(
    len: u32,
    vals: *mut u64,
    bar: &GridBarrier,
    value: impl Fn(u32) -> (u64, u64),
) -> (u64, u64) {
    let (b, g, t) = block_pos();
    let (mut x, mut y) = (u64::MAX, u64::MAX);
    // Slot i goes to thread i mod (grid threads): cheap, and the fold does not care.
    let (tid, nthreads) = global_tid();
    let mut i = tid;
    while i < len {
        let (p, q) = value(i);
        x = x.min(p);
        y = y.min(q);
        i += nthreads;
    }
    let x = block_fold(x, u64::min);
    let y = block_fold(y, u64::min);
    if t == 0 {
        *vals.add(2 * b as usize) = x;
        *vals.add(2 * b as usize + 1) = y;
    }
    bar.wait();
    let (mut x, mut y) = (u64::MAX, u64::MAX);
    let mut i = t;
    while i < g {
        x = x.min(core::ptr::read_volatile(vals.add(2 * i as usize)));
        y = y.min(core::ptr::read_volatile(vals.add(2 * i as usize + 1)));
        i += BLOCK;
    }
    (block_fold(x, u64::min), block_fold(y, u64::min))
}

/// The whole solve (after the init kernel and the precomputation): [`run`] on the persistent
/// grid. `C = true` relaxes through the classified targets.
#[inline(always)]
pub unsafe fn settle_loop<const C: bool>(a: &SettleArgs) {
    let (tid, nthreads) = global_tid();
    let bar = GridBarrier::in_cells(a.cells);
    run(a, &mut Grid::<C> { bar: &bar, tid, nthreads, mins: a.mins });
}

/// The persistent grid as the settle loop's executor.
struct Grid<'b, const C: bool> {
    bar: &'b GridBarrier,
    tid: u32,
    nthreads: u32,
    /// Two `u64`s per block for the pair minimum (`SettleArgs::mins`).
    mins: *mut u64,
}

impl<const C: bool> SettleExecutor for Grid<'_, C> {
    #[inline(always)]
    fn leader(&self) -> bool {
        self.tid == 0
    }

    #[inline(always)]
    unsafe fn sync(&mut self) {
        self.bar.wait();
    }

    #[inline(always)]
    unsafe fn relax(&mut self, a: &SettleArgs, step: u32) {
        let (tid, nthreads) = (self.tid, self.nthreads);
        if a.pull != 0 {
            pull(a, step, tid, nthreads);
        } else if a.balance == Balance::Partition as u32 {
            // The frontier's degree prefix (ends with a grid barrier). `mins` is free here: its
            // last reader, the previous step's minimum, is a barrier behind.
            let f = frontier_queue(a);
            let len = core::ptr::read_volatile(f.len);
            let (items, offsets, prefix) = (f.items, a.csr.offsets, a.prefix);
            crate::grid::grid_scan(
                len,
                a.mins,
                self.bar,
                |i| {
                    let u = *items.add(i as usize) as usize;
                    *offsets.add(u + 1) - *offsets.add(u)
                },
                |i, at, _| *prefix.add(i as usize) = at,
                |total| *prefix.add(len as usize) = total,
            );
            relax_frontier_partition::<C>(a, step, tid, nthreads);
        } else {
            relax_frontier::<C>(a, step, tid, nthreads);
        }
        self.bar.wait();
    }

    #[inline(always)]
    unsafe fn least_pair(&mut self, len: u32, value: impl Fn(u32) -> (u64, u64) + Sync) -> (u64, u64) {
        grid_min_pair(len, self.mins, self.bar, value)
    }

    #[inline(always)]
    unsafe fn settle(&mut self, a: &SettleArgs, step: u32, m: u64, delta: u64) {
        settle_pass(a, step, m, delta, self.tid, self.nthreads);
        self.bar.wait();
    }
}
