//! Edge classification (H-BF, Busato and Bombieri, §4.1 and Algorithm 4): once per graph, each
//! arc gets a class from its head's degrees, stored in the two high bits of the arc's own target
//! word ([`CLASS_SHIFT`]; the heads of a classified graph leave them free), which the classified
//! advance reads with the head (`advance::relax_arc` with `C = true`) and every other reader
//! masks off (`Csr::target`). No copy of the targets: 4 bytes per arc of device memory saved.
//! The classes and what they save:
//!
//! - [`ARC_SKIP`]: a self-loop of non-negative weight, which can never improve anything, is not
//!   relaxed. (A negative self-loop is a negative cycle: it stays a plain arc.)
//! - [`ARC_SINK`]: the head has no out-arcs. It is never pushed (expanding it would relax
//!   nothing), and the arc is not relaxed during the run at all: [`relax_sinks`] relaxes every
//!   arc into a sink once at the end, from final distances, where the run would have lowered a
//!   sink once per improvement of its tails.
//! - [`ARC_SINGLE`]: the head's only in-arc; the relaxation is a load, a compare and a plain
//!   store instead of an atomic min (`relax::relax_single`).
//!
//! H-BF also writes the source's out-arcs directly; that class is left out here: it saves at
//! most the source's degree in atomics once per run, and would make the classes depend on the
//! source, so that they could not be computed once per graph.
//!
//! The passes: [`count_in`] (in-degrees, saturating at 2: only 0, 1 and "more" matter), then
//! [`tag`] (the classified targets, and the number of arcs into sinks), then, once the host has
//! allocated room for them, [`list_sinks`] (each such arc's tail and index).

use core::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};

use crate::advance::partition_walk;
use crate::relax::{add_arcs, candidate_within, load_packed};
use crate::types::*;

/// What the classification passes read and write.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct ClassifyArgs {
    /// The graph, plain targets, one lane (`lane_bits == 0`), fewer than [`MAX_CLASSIFIED`]
    /// vertices.
    pub csr: Csr,
    /// The graph's own targets (`csr.targets`), which [`tag`] tags in place.
    pub tagged: *mut u32,
    /// `n` in-degree counts, zeroed before [`count_in`].
    pub indeg: *mut u32,
    /// Room for every arc into a sink (the count [`tag`] left in `count`): tails and arc indices
    /// ([`list_sinks`]; null before).
    pub sink_tail: *mut u32,
    pub sink_arc: *mut u64,
    /// Two cells: [`tag`] adds the number of arcs into sinks to the first and of skipped
    /// self-loops to the second (both zeroed before); [`list_sinks`] uses the first as its push
    /// cursor (zeroed before).
    pub count: *mut u64,
}

// The layout the PTX entry points expect (the host fills this block field by field), and the
// thread-safety and launch-argument marks that every parameter block carries (see `types`).
const _: () = assert!(core::mem::size_of::<ClassifyArgs>() == 40 + 5 * 8);
// Raw addresses into engine-managed buffers, handed to worker threads by the CPU backend.
unsafe impl Send for ClassifyArgs {}
unsafe impl Sync for ClassifyArgs {}
#[cfg(all(feature = "cuda", not(target_arch = "nvptx64")))]
// SAFETY: `#[repr(C)]`, `Copy`, only integers and addresses, the layout checked above.
unsafe impl cudarc::driver::DeviceRepr for ClassifyArgs {}

/// The class of arc `u -> v` of weight `w` (as `metric` encodes it), from the head's in-degree
/// (saturated) and out-degree.
#[inline(always)]
pub fn arc_class(metric: Metric, u: u32, v: u32, w: u32, indeg: u32, outdeg: u64) -> u32 {
    if is_skip(metric, u, v, w) {
        ARC_SKIP
    } else if outdeg == 0 {
        ARC_SINK
    } else if indeg == 1 {
        ARC_SINGLE
    } else {
        ARC_PLAIN
    }
}

/// Whether `u -> v` of weight `w` is a self-loop that can never improve anything.
#[inline(always)]
fn is_skip(metric: Metric, u: u32, v: u32, w: u32) -> bool {
    u == v && (metric != Metric::Signed || (w as i32) >= 0)
}

/// Pass 1: count in-degrees up to 2 (a count already at 2 is not written again, so hubs cost no
/// contended atomics and the count cannot wrap). Skipped self-loops do not count: they never
/// write their head, so a vertex with one other in-arc keeps the cheap store (the paper's
/// Figure 2 counts its vertex 2, which has a self-loop, as in-degree 1).
#[inline(always)]
pub unsafe fn count_in(a: &ClassifyArgs, tid: u32, nthreads: u32) {
    partition_walk(a.csr.offsets, a.csr.n, tid, nthreads, |at| {
        let Some((u, e)) = at else { return };
        let v = a.csr.target(e);
        if is_skip(a.csr.metric(), u, v, *a.csr.weights.add(e as usize)) {
            return;
        }
        let cell = AtomicU32::from_ptr(a.indeg.add(v as usize));
        if cell.load(Relaxed) < 2 {
            cell.fetch_add(1, Relaxed);
        }
    });
}

/// The class of arc `e` out of `u`.
#[inline(always)]
unsafe fn class_at(a: &ClassifyArgs, u: u32, e: u64) -> (u32, u32) {
    let v = a.csr.target(e);
    let (start, end) = a.csr.arcs(v);
    let indeg = AtomicU32::from_ptr(a.indeg.add(v as usize)).load(Relaxed);
    (v, arc_class(a.csr.metric(), u, v, *a.csr.weights.add(e as usize), indeg, end - start))
}

/// Pass 2 (after [`count_in`]): tag each arc's class into its target word, in place (each arc
/// is read and written by one thread, and its class depends only on its head's degrees, never
/// on another arc's word); returns this thread's counts of arcs into sinks and of skipped
/// self-loops (the caller adds them to `count[0]`, `count[1]`).
#[inline(always)]
pub unsafe fn tag(a: &ClassifyArgs, tid: u32, nthreads: u32) -> (u64, u64) {
    let (mut sinks, mut skips) = (0u64, 0u64);
    partition_walk(a.csr.offsets, a.csr.n, tid, nthreads, |at| {
        let Some((u, e)) = at else { return };
        let (v, class) = class_at(a, u, e);
        *a.tagged.add(e as usize) = v | (class << CLASS_SHIFT);
        sinks += (class == ARC_SINK) as u64;
        skips += (class == ARC_SKIP) as u64;
    });
    (sinks, skips)
}

/// Pass 3 (after [`tag`], with room for `count` entries): list each arc into a sink, its tail
/// and index, in any order.
#[inline(always)]
pub unsafe fn list_sinks(a: &ClassifyArgs, tid: u32, nthreads: u32) {
    partition_walk(a.csr.offsets, a.csr.n, tid, nthreads, |at| {
        let Some((u, e)) = at else { return };
        if *a.tagged.add(e as usize) >> CLASS_SHIFT == ARC_SINK {
            let k = AtomicU64::from_ptr(a.count).fetch_add(1, Relaxed) as usize;
            *a.sink_tail.add(k) = u;
            *a.sink_arc.add(k) = e;
        }
    });
}

/// The deferred pass of a classified run.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct SinkArgs {
    /// The run's graph view (lanes included; targets plain or classified).
    pub csr: Csr,
    pub dist: *mut u64,
    /// The arcs into sinks ([`list_sinks`]), `count` of them.
    pub sink_tail: *const u32,
    pub sink_arc: *const u64,
    pub count: u64,
    pub counters: *mut Counters,
    /// The run's cutoff ([`NO_CUTOFF`]: none).
    pub cutoff: u32,
    pub _pad: u32,
}

// The layout the PTX entry points expect (the host fills this block field by field), and the
// thread-safety and launch-argument marks that every parameter block carries (see `types`).
const _: () = assert!(core::mem::size_of::<SinkArgs>() == 40 + 4 * 8 + 8 + 8);
// Raw addresses into engine-managed buffers, handed to worker threads by the CPU backend.
unsafe impl Send for SinkArgs {}
unsafe impl Sync for SinkArgs {}
#[cfg(all(feature = "cuda", not(target_arch = "nvptx64")))]
// SAFETY: `#[repr(C)]`, `Copy`, only integers and addresses, the layout checked above.
unsafe impl cudarc::driver::DeviceRepr for SinkArgs {}

/// After a classified run has converged: relax every arc into a sink once in every lane, from
/// the tails' final distances, stamping [`LATE_ITER`]. Counts the arcs relaxed (in
/// [`Counters::arcs`]); a sum that does
/// not fit raises the overflow flag as in the advance. Every sink's in-arcs are relaxed here
/// and nowhere else, so its distance is the minimum over them: exactly what the unclassified
/// run computes.
#[inline(always)]
pub unsafe fn relax_sinks(a: &SinkArgs, tid: u32, nthreads: u32) {
    let lb = a.csr.lane_bits as u32;
    let total = a.count << lb;
    let mut arcs = 0;
    let mut k = tid as u64;
    while k < total {
        let (i, lane) = ((k >> lb) as usize, (k as u32) & ((1 << lb) - 1));
        let u = (*a.sink_tail.add(i) << lb) | lane;
        let du = dist_of(load_packed(a.dist, u));
        if du != INF {
            arcs += 1;
            let e = *a.sink_arc.add(i);
            let v = a.csr.head_class(lane, e).0;
            let w = *a.csr.weights.add(e as usize);
            if let Some(c) = candidate_within(a.csr.metric(), du, w, a.cutoff, a.counters) {
                AtomicU64::from_ptr(a.dist.add(v as usize)).fetch_min(pack(c, LATE_ITER), Relaxed);
            }
        }
        k += nthreads as u64;
    }
    add_arcs(a.counters, arcs);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_follow_the_head_and_the_weight() {
        let (i, s) = (Metric::Integer, Metric::Signed);
        assert_eq!(arc_class(i, 3, 3, 5, 1, 2), ARC_SKIP);
        assert_eq!(arc_class(i, 3, 3, 0, 2, 0), ARC_SKIP);
        // A negative self-loop is a negative cycle: relaxed like any arc.
        assert_eq!(arc_class(s, 3, 3, -1i32 as u32, 2, 2), ARC_PLAIN);
        assert_eq!(arc_class(s, 3, 3, 4, 2, 2), ARC_SKIP);
        // Sinks before in-degree 1: a one-in-arc sink is still deferred.
        assert_eq!(arc_class(i, 1, 2, 5, 1, 0), ARC_SINK);
        assert_eq!(arc_class(i, 1, 2, 5, 1, 3), ARC_SINGLE);
        assert_eq!(arc_class(i, 1, 2, 5, 2, 3), ARC_PLAIN);
    }

    #[test]
    fn classified_heads_keep_their_lane() {
        let t = [7 | (ARC_SINGLE << CLASS_SHIFT), HEAD_MASK | (ARC_SINK << CLASS_SHIFT)];
        let off = [0u64, 2];
        let csr = Csr {
            offsets: off.as_ptr(),
            targets: t.as_ptr(),
            weights: core::ptr::null(),
            n: 4,
            lane_bits: 2,
            metric: Metric::Integer.code(),
            head_mask: HEAD_MASK,
            _pad: 0,
        };
        unsafe {
            assert_eq!(csr.head_class(2, 0), ((7 << 2) | 2, ARC_SINGLE));
            assert_eq!(csr.head_class(1, 1), ((HEAD_MASK << 2) | 1, ARC_SINK));
            // The plain readers mask the tags off: the same heads.
            assert_eq!(csr.head(2, 0), (7 << 2) | 2);
            assert_eq!(csr.head(1, 1), (HEAD_MASK << 2) | 1);
            assert_eq!(csr.target(1), HEAD_MASK);
            // A graph too large to classify keeps every bit of its ids.
            let big = Csr { n: (1 << 30) + 1, lane_bits: 0, head_mask: Csr::head_mask((1 << 30) + 1), ..csr };
            assert_eq!(big.target(0), t[0]);
            assert_eq!(big.head(0, 0), t[0]);
            let most = Csr { n: 1 << 30, lane_bits: 0, head_mask: Csr::head_mask(1 << 30), ..csr };
            assert_eq!(most.target(0), 7, "2^30 vertices: ids fit in 30 bits");
        }
    }
}
