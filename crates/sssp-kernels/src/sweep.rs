//! PHAST's downward sweep over a contraction hierarchy (Delling, Goldberg, Nowatzyk and
//! Werneck, IPDPS 2011; the hierarchy and its layout are built by the library's `hierarchy`
//! module). After the upward search has seeded the distances of the vertices it reached, every
//! other vertex, level by level from the top, takes the minimum over its downward in-arcs:
//! their tails are in higher levels, already final, so a level is one parallel pass with no
//! atomics (each vertex is written by its own thread only) and no frontier.
//!
//! - [`seed`]: write the upward search's distances (one per item).
//! - [`level`]: one level's pass, grid-stride over its positions in the sweep order.
//!
//! On the GPU the small top levels run in one block with a barrier between them (a launch
//! costs more than their work), the rest one launch each; the CPU backend runs the same bodies
//! level by level.

use crate::relax::{candidate, load_packed, raise};
use crate::types::*;

/// Parameters of the sweep.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct SweepArgs {
    /// Downward in-arcs by sweep position: `offsets[i]..offsets[i + 1]` are position `i`'s,
    /// `targets` their tails (vertex ids), `weights` theirs (`INF`: never relaxed through); `n`
    /// is the number of positions.
    pub down: Csr,
    /// The vertex at each sweep position.
    pub order: *const u32,
    /// Level `k` is positions `level_starts[k]..level_starts[k + 1]`.
    pub level_starts: *const u32,
    /// Packed distances of the graph's vertices.
    pub dist: *mut u64,
    /// Seeds: `(distance << 32) | vertex`, `seed_count` of them.
    pub seeds: *const u64,
    /// The run's counters (`arcs`, `overflow`).
    pub counters: *mut Counters,
    /// Seeds to write ([`seed`]).
    pub seed_count: u32,
    /// First level of the launch.
    pub first: u32,
    /// One past its last level.
    pub last: u32,
    /// Padding.
    pub _pad: u32,
}

unsafe impl Send for SweepArgs {}
unsafe impl Sync for SweepArgs {}

/// A seed item: `vertex` at `distance`.
#[inline(always)]
pub const fn seed_item(vertex: u32, distance: u32) -> u64 {
    ((distance as u64) << 32) | vertex as u64
}

/// Write this thread's share of the seeds.
#[inline(always)]
pub unsafe fn seed(a: &SweepArgs, tid: u32, nthreads: u32) {
    let mut i = tid;
    while i < a.seed_count {
        let s = *a.seeds.add(i as usize);
        *a.dist.add((s as u32) as usize) = pack((s >> 32) as u32, 0);
        i += nthreads;
    }
}

/// The positions of level `k`.
#[inline(always)]
pub unsafe fn level_range(a: &SweepArgs, k: u32) -> (u32, u32) {
    (*a.level_starts.add(k as usize), *a.level_starts.add(k as usize + 1))
}

/// This thread's share of level `k`: each vertex takes the least of its seed and its downward
/// in-arcs' candidates. Returns the arcs it relaxed. A candidate that does not fit below `INF`
/// raises the overflow flag (the host then names a vertex whose distance does not fit, or
/// accepts the result when none does, as after any run).
#[inline(always)]
pub unsafe fn level(a: &SweepArgs, k: u32, tid: u32, nthreads: u32) -> u64 {
    let (start, end) = level_range(a, k);
    let metric = Metric::from_code(a.down.metric);
    let mut arcs = 0u64;
    let mut i = start + tid;
    while i < end {
        let v = *a.order.add(i as usize);
        let (s, e) = (*a.down.offsets.add(i as usize), *a.down.offsets.add(i as usize + 1));
        let old = dist_of(load_packed(a.dist, v));
        let mut best = old;
        for j in s..e {
            let du = dist_of(load_packed(a.dist, *a.down.targets.add(j as usize)));
            if du == INF {
                continue;
            }
            match candidate(metric, du, *a.down.weights.add(j as usize)) {
                Some(c) if c < best => best = c,
                Some(_) => {}
                None => raise(core::ptr::addr_of_mut!((*a.counters).overflow)),
            }
        }
        arcs += e - s;
        if best != old {
            *a.dist.add(v as usize) = pack(best, 0);
        }
        i += nthreads;
    }
    arcs
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hand-built hierarchy of 4 vertices: 3 on top, then 2, then {0, 1}. Down arcs: 3->2
    /// (5), 3->0 (20), 2->0 (4), 2->1 (INF: never relaxed). Seeds: 3 at 0. The sweep gives
    /// 2 = 5, 0 = 9, 1 unreached, with any thread count.
    #[test]
    fn levels_take_the_least_down_arc() {
        let order = [3u32, 2, 0, 1];
        let level_starts = [0u32, 1, 2, 4];
        let offsets = [0u64, 0, 1, 3, 4];
        let tails = [3u32, 3, 2, 2];
        let weights = [5u32, 20, 4, INF];
        for threads in [1u32, 2, 7] {
            let mut dist = [pack(INF, NO_ITER); 4];
            let seeds = [seed_item(3, 0)];
            let mut counters = Counters::default();
            let a = SweepArgs {
                down: Csr {
                    offsets: offsets.as_ptr(),
                    targets: tails.as_ptr(),
                    weights: weights.as_ptr(),
                    n: 4,
                    lane_bits: 0,
                    metric: Metric::Integer.code(),
                },
                order: order.as_ptr(),
                level_starts: level_starts.as_ptr(),
                dist: dist.as_mut_ptr(),
                seeds: seeds.as_ptr(),
                counters: &mut counters,
                seed_count: 1,
                first: 0,
                last: 3,
                _pad: 0,
            };
            let mut arcs = 0;
            unsafe {
                for t in 0..threads {
                    seed(&a, t, threads);
                }
                for k in a.first..a.last {
                    for t in 0..threads {
                        arcs += level(&a, k, t, threads);
                    }
                }
            }
            let d: Vec<u32> = dist.iter().map(|&p| dist_of(p)).collect();
            assert_eq!(d, vec![9, INF, 5, 0], "threads {threads}");
            assert_eq!(arcs, 4);
            // The INF-weight arc's sum does not fit: flagged, for the host to check whether
            // it hid a reachable vertex (here 1 has no other in-arc in the hierarchy).
            assert_eq!(counters.overflow, 1);
        }
    }
}
