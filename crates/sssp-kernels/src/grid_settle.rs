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

/// The whole solve (after the init kernel and the precomputation): steps until no candidate is
/// left. Every thread keeps the step number; lengths are read after the barrier that ends the
/// phase writing them, so every thread sees the same and takes the same branches.
#[inline(always)]
pub unsafe fn settle_loop<const C: bool>(a: &SettleArgs) {
    let (tid, nthreads) = global_tid();
    let bar = GridBarrier::in_cells(a.cells);
    if tid == 0 {
        start(a);
    }
    bar.wait();
    let n = a.csr.n;
    let mut step = 1u32;
    // Each step settles at least the least candidate, so n steps settle everything: past that
    // the loop is broken; stop without the done flag (the host reports it).
    while step <= n {
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
                &bar,
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
        bar.wait();
        let from = cand_queue(a, cand_of(step));
        let len = core::ptr::read_volatile(from.len);
        if len == 0 {
            if tid == 0 {
                *a.cells.add(SETTLE_CELL_DONE) = 1;
            }
            break;
        }
        if tid == 0 {
            // Read by no one until the settle pass, after the barrier inside the minimum.
            *frontier_queue(a).len = 0;
            *cand_queue(a, cand_of(step) ^ 1).len = 0;
        }
        let (m, delta) = grid_min_pair(len, a.mins, &bar, |i| keys(a, *from.items.add(i as usize)));
        settle_pass(a, step, m, delta, tid, nthreads);
        bar.wait();
        step += 1;
    }
}
