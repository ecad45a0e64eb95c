//! PHAST's downward sweep over a contraction hierarchy (Delling, Goldberg, Nowatzyk and
//! Werneck, IPDPS 2011; the hierarchy and its layout are built by the library's `hierarchy`
//! module). After the upward search has seeded the distances of the vertices it reached, every
//! other vertex, level by level from the top, takes the minimum over its downward in-arcs:
//! their tails are in higher levels, already final, so a level is one parallel pass with no
//! atomics (each vertex is written by its own thread only) and no frontier.
//!
//! - [`seed`]: write the upward search's distances (one per item).
//! - [`core_table`]: with a core distance table, give every core vertex the least of its entries'
//!   distances plus their table rows (one min-plus product, before the levels).
//! - [`level`]: one level's pass, grid-stride over its positions in the sweep order.
//!
//! On the GPU the small top levels run in one block with a barrier between them (a launch
//! costs more than their work), the rest one launch each; the CPU backend runs the same bodies
//! level by level.

use crate::relax::{candidate, load_packed, raise, relax};
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
    /// Seeds: `(distance << 32) | vertex`, `seed_count` of them; then the core entries,
    /// `(distance << 32) | table row`, `entry_count` of them.
    pub seeds: *const u64,
    /// The run's counters (`arcs`, `overflow`).
    pub counters: *mut Counters,
    /// The core's vertices in table order, `core_count` of them.
    pub core: *const u32,
    /// The core's distance table: row `i`, column `j` at `i * core_count + j`.
    pub table: *const u32,
    /// Seeds to write ([`seed`]).
    pub seed_count: u32,
    /// First level of the launch.
    pub first: u32,
    /// One past its last level.
    pub last: u32,
    /// Core vertices (0: no table).
    pub core_count: u32,
    /// Core entries after the seeds (at most `core_count`: a vertex is reached once).
    pub entry_count: u32,
    /// Padding.
    pub _pad: u32,
}

// The layout the PTX entry points expect (the host fills this block field by field), and the
// thread-safety and launch-argument marks that every parameter block carries (see `types`).
const _: () = assert!(core::mem::size_of::<SweepArgs>() == 40 + 7 * 8 + 6 * 4);
#[cfg(all(feature = "cuda", not(target_arch = "nvptx64")))]
// SAFETY: `#[repr(C)]`, `Copy`, only integers and addresses, the layout checked above.
unsafe impl cudarc::driver::DeviceRepr for SweepArgs {}

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

/// Entries one work item of [`core_table`] folds before its atomic min.
pub const CORE_CHUNK: u32 = 32;

/// Threads of the one block that runs the seeds and the small top levels (`sssp_sweep_block`).
pub const SWEEP_BLOCK_THREADS: u32 = 1024;

/// Work items of [`core_table`]: one per core vertex and chunk of [`CORE_CHUNK`] entries (at most
/// 8,192 x 256 with the host's table limit, so 32 bits hold it).
#[inline(always)]
pub fn core_items(a: &SweepArgs) -> u32 {
    a.core_count * a.entry_count.div_ceil(CORE_CHUNK)
}

/// This thread's share of the core: item `p` folds entries `chunk * CORE_CHUNK..` for core
/// vertex `p % core_count` (so a warp reads one table row's neighbouring columns) and lowers
/// it with one atomic min. Returns the table entries read. A sum that does not fit below
/// `INF` raises the overflow flag; an `INF` entry (unreachable) is skipped.
#[inline(always)]
pub unsafe fn core_table(a: &SweepArgs, tid: u32, nthreads: u32) -> u64 {
    let metric = Metric::from_code(a.down.metric);
    let entries = a.seeds.add(a.seed_count as usize);
    let (items, cn) = (core_items(a), a.core_count);
    let mut read = 0u64;
    let mut p = tid;
    while p < items {
        let (c, chunk) = (p % cn, p / cn);
        let (s, e) = (chunk * CORE_CHUNK, a.entry_count.min((chunk + 1) * CORE_CHUNK));
        let mut best = INF;
        for i in s..e {
            let item = *entries.add(i as usize);
            let t = *a.table.add((item as u32) as usize * cn as usize + c as usize);
            if t == INF {
                continue;
            }
            match candidate(metric, (item >> 32) as u32, t) {
                Some(x) if x < best => best = x,
                Some(_) => {}
                None => raise(core::ptr::addr_of_mut!((*a.counters).overflow)),
            }
        }
        read += (e - s) as u64;
        if best != INF {
            relax(a.dist, *a.core.add(c as usize), best, 0);
        }
        p += nthreads;
    }
    read
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
                    head_mask: u32::MAX,
                    _pad: 0,
                },
                order: order.as_ptr(),
                level_starts: level_starts.as_ptr(),
                dist: dist.as_mut_ptr(),
                seeds: seeds.as_ptr(),
                counters: &mut counters,
                core: core::ptr::null(),
                table: core::ptr::null(),
                seed_count: 1,
                first: 0,
                last: 3,
                core_count: 0,
                entry_count: 0,
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

    /// A core of 40 vertices (ids 100..140 of 140) with a table, 37 entries (two chunks):
    /// every core vertex gets the least entry distance plus table entry, over INF entries
    /// (skipped) and a sum that does not fit (flagged), with any thread count.
    #[test]
    fn core_table_takes_the_least_entry() {
        const C: usize = 40;
        let core: Vec<u32> = (0..C as u32).map(|i| 100 + i).collect();
        let mut table = vec![0u32; C * C];
        for i in 0..C {
            for j in 0..C {
                table[i * C + j] = match (i * 7 + j * 3) % 10 {
                    0 => INF,
                    k => (i.abs_diff(j) * 5 + k) as u32,
                };
            }
            table[i * C + i] = 0;
        }
        table[39 * C + 2] = INF - 5; // entry 39 sits at 10: the sum does not fit
        let entries: Vec<u64> = (3..C as u32).map(|r| seed_item(r, 10 + (r * 13) % 50)).collect();
        let mut want = vec![INF; C];
        for &e in &entries {
            let (r, d) = (e as u32 as usize, (e >> 32) as u32);
            for j in 0..C {
                let t = table[r * C + j];
                if t != INF && (d as u64 + t as u64) < INF as u64 {
                    want[j] = want[j].min(d + t);
                }
            }
        }
        for threads in [1u32, 5, 64] {
            let mut dist = [pack(INF, NO_ITER); 140];
            let mut counters = Counters::default();
            let no: [u64; 1] = [0];
            let a = SweepArgs {
                down: Csr {
                    offsets: no.as_ptr(),
                    targets: core::ptr::null(),
                    weights: core::ptr::null(),
                    n: 0,
                    lane_bits: 0,
                    metric: Metric::Integer.code(),
                    head_mask: u32::MAX,
                    _pad: 0,
                },
                order: core::ptr::null(),
                level_starts: core::ptr::null(),
                dist: dist.as_mut_ptr(),
                seeds: entries.as_ptr(),
                counters: &mut counters,
                core: core.as_ptr(),
                table: table.as_ptr(),
                seed_count: 0,
                first: 0,
                last: 0,
                core_count: C as u32,
                entry_count: entries.len() as u32,
                _pad: 0,
            };
            assert_eq!(core_items(&a), C as u32 * 2);
            let mut read = 0;
            for t in 0..threads {
                read += unsafe { core_table(&a, t, threads) };
            }
            let got: Vec<u32> = dist[100..].iter().map(|&p| dist_of(p)).collect();
            assert_eq!(got, want, "threads {threads}");
            assert!(dist[..100].iter().all(|&p| dist_of(p) == INF));
            assert_eq!(read, (C * entries.len()) as u64);
            assert_eq!(counters.overflow, 1);
        }
    }
}
