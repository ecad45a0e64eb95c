//! Level-synchronous BFS for unit-weight eccentricities, the paper's kernels
//! (`gpu-exact-diameter-bounding` §IV-C-D, Algorithms 3-4): every level scans the whole
//! distance array (the paper's frontier `F`) for vertices at the current level and labels their
//! unvisited neighbours with the next one. No queue: the bounding passes need every distance in
//! place anyway, and a scan of `n` words is coalesced.
//!
//! - [`level_thread`] (the paper's Standard, thread-centric): one vertex per thread; a hub
//!   serialises its thread.
//! - [`level_warp`] (the paper's Warp, warp-centric): one vertex per warp of 32 lanes that stride
//!   its adjacency; 32 times the scanning work, but long lists spread over a warp.
//! - Hybrid: the host picks one of the two per level ([`use_warp`]) from the number of active
//!   vertices and their adjacency length, which the previous level counted.
//! - [`level_bottom_up`] (Beamer et al.'s bottom-up step, for the direction-optimising mode):
//!   every *unvisited* vertex looks for a neighbour at the current level and stops at the first.
//!   Undirected graphs only (a neighbour stands for an in-neighbour), which is where the
//!   diameter runs these kernels. It pays on the middle levels of low-diameter graphs, where
//!   the frontier's arcs outnumber the unvisited vertices' ([`use_bottom_up`]).
//!
//! Distances live in the engine's packed words (`dist_of` is the level), so the bounding passes
//! and the path reconstruction read them as after any other run. A vertex is labelled by a 64-bit
//! atomic min, and only the thread that took it from `INF` counts it (so the counts are exact
//! and a level that labels nothing ends the BFS).

use core::sync::atomic::{AtomicU64, Ordering::Relaxed};

use crate::relax::load_packed;
use crate::types::*;

/// BFS cell: vertices labelled by the last level.
pub const BFS_FOUND: usize = 0;
/// BFS cell: the sum of their out-degrees.
pub const BFS_ARCS: usize = 1;

/// Lanes of the warp-centric kernel's warps.
pub const BFS_WARP: u32 = 32;

/// Hybrid rule: warp-centric when the active vertices' mean adjacency is at least this long
/// (below it most lanes of a warp would idle) ...
pub const HYBRID_MEAN_DEGREE: u64 = 16;
/// ... and they are at least this fraction (1 / x) of all vertices (a warp scans 32 times as
/// many words per vertex: with few active vertices the scan dominates, and one thread per
/// vertex scans cheaper).
pub const HYBRID_ACTIVE_FRACTION: u64 = 64;

/// Parameters of one BFS level.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct BfsArgs {
    /// The graph (weights unused).
    pub csr: Csr,
    /// `n` packed distances: the level in the distance half, `INF` unvisited.
    pub dist: *mut u64,
    /// Two cells: [`BFS_FOUND`] and [`BFS_ARCS`], zeroed before the level.
    pub cells: *mut u64,
    /// The level being expanded (its vertices' neighbours get `level + 1`).
    pub level: u32,
    /// Padding.
    pub _pad: u32,
}

// The layout the PTX entry points expect (the host fills this block field by field), and the
// thread-safety and launch-argument marks that every parameter block carries (see `types`).
const _: () = assert!(core::mem::size_of::<BfsArgs>() == 40 + 8 + 8 + 8);
#[cfg(all(feature = "cuda", not(target_arch = "nvptx64")))]
// SAFETY: `#[repr(C)]`, `Copy`, only integers and addresses, the layout checked above.
unsafe impl cudarc::driver::DeviceRepr for BfsArgs {}

unsafe impl Send for BfsArgs {}
unsafe impl Sync for BfsArgs {}

/// Label `w` with `next` if unvisited; returns its out-degree when this call labelled it (else
/// `None`).
#[inline(always)]
unsafe fn visit(a: &BfsArgs, w: u32, next: u32) -> Option<u64> {
    if dist_of(load_packed(a.dist, w)) != INF {
        return None;
    }
    let prev = AtomicU64::from_ptr(a.dist.add(w as usize)).fetch_min(pack(next, next), Relaxed);
    if dist_of(prev) != INF {
        return None;
    }
    Some(*a.csr.offsets.add(w as usize + 1) - *a.csr.offsets.add(w as usize))
}

/// Thread-centric level (Algorithm 3). Returns this thread's (labelled, their arcs).
#[inline(always)]
pub unsafe fn level_thread(a: &BfsArgs, tid: u32, nthreads: u32) -> (u64, u64) {
    let (mut found, mut arcs) = (0u64, 0u64);
    let next = a.level + 1;
    let mut v = tid;
    while v < a.csr.n {
        if dist_of(load_packed(a.dist, v)) == a.level {
            let (s, e) = (*a.csr.offsets.add(v as usize), *a.csr.offsets.add(v as usize + 1));
            for j in s..e {
                if let Some(d) = visit(a, a.csr.target(j), next) {
                    found += 1;
                    arcs += d;
                }
            }
        }
        v += nthreads;
    }
    (found, arcs)
}

/// Warp-centric level (Algorithm 4): warp `tid / 32` takes vertices `warp, warp + warps, ...`
/// and its lanes stride each active vertex's adjacency. Returns this lane's counts.
#[inline(always)]
pub unsafe fn level_warp(a: &BfsArgs, tid: u32, nthreads: u32) -> (u64, u64) {
    let (mut found, mut arcs) = (0u64, 0u64);
    let next = a.level + 1;
    let (warp, lane, warps) = (tid / BFS_WARP, tid % BFS_WARP, (nthreads / BFS_WARP).max(1));
    let mut v = warp;
    while v < a.csr.n {
        // Every lane reads the same word: one broadcast load per warp.
        if dist_of(load_packed(a.dist, v)) == a.level {
            let (s, e) = (*a.csr.offsets.add(v as usize), *a.csr.offsets.add(v as usize + 1));
            let mut j = s + lane as u64;
            while j < e {
                if let Some(d) = visit(a, a.csr.target(j), next) {
                    found += 1;
                    arcs += d;
                }
                j += BFS_WARP as u64;
            }
        }
        v += warps;
    }
    (found, arcs)
}

/// Bottom-up level: each thread takes unvisited vertices `tid, tid + nthreads, ...` and labels
/// one with `level + 1` as soon as one of its neighbours is at `level`. Only that thread writes
/// the vertex, and other threads compare against `level` only, so a relaxed store suffices (no
/// atomic min).
/// Returns this thread's (labelled, their arcs), as the top-down kernels do.
#[inline(always)]
pub unsafe fn level_bottom_up(a: &BfsArgs, tid: u32, nthreads: u32) -> (u64, u64) {
    let (mut found, mut arcs) = (0u64, 0u64);
    let next = a.level + 1;
    let mut v = tid;
    while v < a.csr.n {
        if dist_of(load_packed(a.dist, v)) == INF {
            let (s, e) = (*a.csr.offsets.add(v as usize), *a.csr.offsets.add(v as usize + 1));
            let mut j = s;
            while j < e {
                if dist_of(load_packed(a.dist, a.csr.target(j))) == a.level {
                    AtomicU64::from_ptr(a.dist.add(v as usize)).store(pack(next, next), Relaxed);
                    found += 1;
                    arcs += e - s;
                    break;
                }
                j += 1;
            }
        }
        v += nthreads;
    }
    (found, arcs)
}

/// Direction-optimising rule (Beamer, Asanović, Patterson, SC'12, with their `alpha = 14`,
/// `beta = 24`): go bottom-up when the frontier's arcs exceed the unvisited vertices' arcs
/// (`unvisited_arcs`) divided by [`BOTTOM_UP_ALPHA`]; once bottom-up, stay while the frontier
/// (`active` vertices) holds at least `n /` [`TOP_DOWN_BETA`].
#[inline(always)]
pub fn use_bottom_up(bottom_up: bool, active: u64, arcs: u64, unvisited_arcs: u64, n: u64) -> bool {
    if bottom_up {
        active * TOP_DOWN_BETA >= n
    } else {
        arcs * BOTTOM_UP_ALPHA > unvisited_arcs
    }
}

/// See [`use_bottom_up`].
pub const BOTTOM_UP_ALPHA: u64 = 14;
/// See [`use_bottom_up`].
pub const TOP_DOWN_BETA: u64 = 24;

/// Which kernel runs a level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LevelKernel {
    /// [`level_thread`].
    Thread,
    /// [`level_warp`].
    Warp,
    /// [`level_bottom_up`].
    BottomUp,
}

/// The hybrid's choice for a level with `active` vertices of `arcs` out-arcs in all, on `n`
/// vertices: warp-centric when the lists are long and the active set is not tiny.
#[inline(always)]
pub fn use_warp(active: u64, arcs: u64, n: u64) -> bool {
    active > 0 && arcs >= HYBRID_MEAN_DEGREE * active && active * HYBRID_ACTIVE_FRACTION >= n
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A path 0-1-2 plus a hub 3 joined to everything, both ways; BFS from 0 with each kernel
    /// and a few thread counts gives the same levels and counts.
    #[test]
    fn both_kernels_label_levels_once() {
        // Arcs: 0:[1,3] 1:[0,2,3] 2:[1,3] 3:[0,1,2] 4:[] (isolated).
        let offsets = [0u64, 2, 5, 7, 10, 10];
        let targets = [1u32, 3, 0, 2, 3, 1, 3, 0, 1, 2];
        let weights = [1u32; 10];
        for kind in [LevelKernel::Thread, LevelKernel::Warp, LevelKernel::BottomUp] {
            let warp = kind == LevelKernel::Warp;
            for threads in [1u32, 7, 32, 64, 256] {
                // The warp-centric kernel runs whole warps.
                if warp && threads % BFS_WARP != 0 {
                    continue;
                }
                let mut dist =
                    [pack(0, 0), pack(INF, NO_ITER), pack(INF, NO_ITER), pack(INF, NO_ITER), pack(INF, NO_ITER)];
                let mut cells = [0u64; 2];
                let csr = Csr {
                    offsets: offsets.as_ptr(),
                    targets: targets.as_ptr(),
                    weights: weights.as_ptr(),
                    n: 5,
                    lane_bits: 0,
                    metric: 0,
                    head_mask: HEAD_MASK,
                    _pad: 0,
                };
                let mut level = 0;
                let mut seen = vec![];
                loop {
                    let a = BfsArgs { csr, dist: dist.as_mut_ptr(), cells: cells.as_mut_ptr(), level, _pad: 0 };
                    let (mut f, mut s) = (0, 0);
                    for t in 0..threads {
                        let (x, y) = unsafe {
                            match kind {
                                LevelKernel::Warp => level_warp(&a, t, threads),
                                LevelKernel::Thread => level_thread(&a, t, threads),
                                LevelKernel::BottomUp => level_bottom_up(&a, t, threads),
                            }
                        };
                        f += x;
                        s += y;
                    }
                    if f == 0 {
                        break;
                    }
                    seen.push((f, s));
                    level += 1;
                }
                let levels: Vec<u32> = dist.iter().map(|&p| dist_of(p)).collect();
                assert_eq!(levels, vec![0, 1, 2, 1, INF], "{kind:?} threads {threads}");
                assert_eq!(seen, vec![(2, 6), (1, 2)], "{kind:?} threads {threads}");
            }
        }
        assert!(use_warp(100, 3200, 1000) && !use_warp(100, 320, 1000) && !use_warp(1, 3200, 1000));
        // Top-down until the frontier's arcs pass 1/14 of the unvisited ones; bottom-up while
        // the frontier holds 1/24 of the vertices.
        assert!(!use_bottom_up(false, 10, 100, 1400, 1000) && use_bottom_up(false, 10, 101, 1400, 1000));
        assert!(use_bottom_up(true, 42, 0, 0, 1000) && !use_bottom_up(true, 41, 0, 0, 1000));
    }
}
