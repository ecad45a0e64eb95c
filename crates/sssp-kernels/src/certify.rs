//! The shortest-path certificate on the device (the `sssp` library's `certify`):
//! the conditions of the host's `verify` module checked on the distances an engine's run left
//! resident, so that a result is certified where it was computed and never downloaded for it.
//!
//! - [`arcs`]: condition 2, every arc `u -> v` with `d(u)` finite has `d(u) + w >= d(v)` in the
//!   metric's own arithmetic (exact integer sums, `f32` sums rounded to nearest as the engines
//!   and the serial reference add). One thread per arc, load-balanced as the tree pass is
//!   (`advance::partition_walk`), so the hubs of a Kronecker graph spread over the grid.
//! - [`seed`], [`expand`]: condition 3, a level-synchronous traversal from the sources over
//!   *tight* arcs (`d(u) + w == d(v)`). A per-vertex "some tight in-arc" test is not enough:
//!   planted too-small distances on a zero-weight cycle make the cycle's arcs tight among
//!   themselves with no tight path in from the source. A vertex is claimed once (compare and
//!   swap of its level), and claimed vertices are queued, so a level costs its frontier's arcs,
//!   not a scan of every vertex: road graphs have thousands of levels. Vertices of many arcs
//!   (hubs, [`CERT_HUB_ARCS`]) go to a second queue whose arcs the whole grid shares.
//! - [`reached`]: the end of condition 3, every vertex with a finite distance was reached.
//!
//! Condition 1 (every source at 0) is counted by [`seed`]. Each body returns its count of
//! violations, which the host reads from one cell. The counts are those of the host's
//! certificate for the same vector (one per violating arc, per source, per unreached vertex),
//! so the host, when the count is not zero, rebuilds the report with its own certificate and
//! shows the same lines.
//!
//! A bounded query (a cutoff, or a target's distance: `bound`) is certified on its clipped
//! answer without clipping the resident words: a distance above `bound` reads as unreached
//! ([`effective`]), and the arc condition is asked only of candidates within the bound, as
//! the host's `check_within` does. Lanes: vertex `v` of lane `lane` is id
//! `(v << lane_bits) | lane` of the distance array, so one row of a batched run is certified
//! while the others stay resident.

use core::sync::atomic::{AtomicU32, Ordering::Relaxed};

use crate::advance::partition_walk;
use crate::relax::{candidate, load_packed};
use crate::types::*;

/// A vertex the traversal has not reached (levels are stored plus one, so that a zeroed
/// buffer is all unreached).
pub const UNSEEN: u32 = 0;

/// Out-arcs from which a vertex's expansion is shared by the whole grid instead of one warp
/// (on the GPU a warp's 32 lanes would walk a Kronecker hub's million arcs alone).
pub const CERT_HUB_ARCS: u64 = 4096;

/// Length cells per queue: the ordinary vertices, the hubs.
pub const CERT_LENS: usize = 2;

/// Count cell: arcs that break condition 2 ([`arcs`]).
pub const CERT_ARCS: usize = 0;
/// Count cell: sources not at 0 ([`seed`]).
pub const CERT_SOURCES: usize = 1;
/// Count cell: finite distances that no tight path reaches ([`reached`]).
pub const CERT_UNREACHED: usize = 2;
/// Count cells in all.
pub const CERT_CELLS: usize = 3;

/// Parameters of the certificate's kernels.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct CertArgs {
    /// The resident graph (`n` counts every lane's ids).
    pub csr: Csr,
    /// The resident packed distances, `csr.n` words.
    pub dist: *mut u64,
    /// One level per graph vertex (`csr.n >> lane_bits`): [`UNSEEN`] or its depth plus one;
    /// zeroed before [`seed`].
    pub level: *mut u32,
    /// Two queues of graph vertices, `csr.n >> lane_bits` entries each: level `d` is in queue
    /// `d % 2`, ordinary vertices from the front, hubs from the back.
    pub queue: [*mut u32; 2],
    /// Three sets of [`CERT_LENS`] length cells, zeroed before [`seed`]: level `d`'s lengths
    /// are set `d % 3` (so that [`expand`] zeroes the set the next level pushes into without
    /// a copy from the host: it was the previous level's).
    pub lens: *mut u32,
    /// The count cells: [`CERT_ARCS`], [`CERT_SOURCES`], [`CERT_UNREACHED`], zeroed before.
    pub cells: *mut u64,
    /// [`seed`]: the sources, `count` graph vertex ids (repeats allowed).
    pub roots: *const u32,
    /// [`seed`]: how many sources.
    pub count: u32,
    /// The depth [`expand`] takes its queue from.
    pub depth: u32,
    /// Distances above this cell count as unreached; [`NO_CUTOFF`]: no bound.
    pub bound: u32,
    /// The lane certified.
    pub lane: u32,
    /// Lanes of [`expand`]'s vertex teams: 32 (a warp) on the GPU, 1 on the CPU.
    pub team: u32,
    /// Nonzero: the distances are the answer as given, so [`reached`] also counts each one
    /// above `bound` (the host's `check_within` does); zero: they are a run's unclipped words,
    /// whose answer is their clipped copy.
    pub strict: u32,
}

// The layout the PTX entry points expect, and the marks every parameter block carries.
const _: () = assert!(core::mem::size_of::<CertArgs>() == 40 + 8 * 7 + 4 * 6);
#[cfg(all(feature = "cuda", not(target_arch = "nvptx64")))]
// SAFETY: `#[repr(C)]`, `Copy`, only integers and addresses, the layout checked above.
unsafe impl cudarc::driver::DeviceRepr for CertArgs {}

unsafe impl Send for CertArgs {}
unsafe impl Sync for CertArgs {}

/// A distance cell as the bounded query answers it: above `bound`, unreached.
#[inline(always)]
pub fn effective(d: u32, bound: u32) -> u32 {
    // INF is above every bound, NO_CUTOFF (= INF) above every finite cell.
    if d > bound {
        INF
    } else {
        d
    }
}

/// Whether arc `u -> v` of weight `w` breaks condition 2, its tail at the finite cell `du`
/// and its head at `dv` (either maybe [`INF`]), counting candidates up to `bound` only. The
/// host's `verify` in cells: integer and signed sums exact (a sum past the cells' range is
/// still a path, so it leaves no head unreached), real sums rounded, and one past `f32::MAX`
/// no path at all (the engines drop it and fail the run if it hid the only way).
#[inline(always)]
pub fn violates(metric: Metric, du: u32, w: u32, dv: u32, bound: u32) -> bool {
    if du == INF {
        return false;
    }
    match metric {
        Metric::Integer => {
            let c = du as u64 + w as u64;
            let limit = if bound == NO_CUTOFF { u64::MAX } else { bound as u64 };
            c <= limit && (dv == INF || c < dv as u64)
        }
        Metric::Signed => {
            let c = Metric::decode_signed(du) as i64 + w as i32 as i64;
            let limit = if bound == NO_CUTOFF { i64::MAX } else { Metric::decode_signed(bound) as i64 };
            c <= limit && (dv == INF || c < Metric::decode_signed(dv) as i64)
        }
        Metric::Real => match candidate(Metric::Real, du, w) {
            // Non-negative f32s order like their bit patterns.
            Some(c) => c <= bound && (dv == INF || c < dv),
            None => false,
        },
    }
}

/// Whether `u -> v` is tight: both ends finite and `du + w == dv` in the metric's arithmetic
/// (a finite candidate is never [`INF`], so an unreached head is never tight).
#[inline(always)]
pub fn tight(metric: Metric, du: u32, w: u32, dv: u32) -> bool {
    du != INF && candidate(metric, du, w) == Some(dv)
}

/// The id of graph vertex `v` of the certified lane in the distance array.
#[inline(always)]
fn id(a: &CertArgs, v: u32) -> u32 {
    (v << a.csr.lane_bits) | a.lane
}

/// The bounded distance of graph vertex `v`.
#[inline(always)]
unsafe fn dist(a: &CertArgs, v: u32) -> u32 {
    effective(dist_of(load_packed(a.dist, id(a, v))), a.bound)
}

/// The level of graph vertex `v`, as last published (other threads claim concurrently).
#[inline(always)]
unsafe fn level_of(a: &CertArgs, v: u32) -> u32 {
    // As `relax::load_packed`: a volatile load on the GPU, a real atomic one on the host.
    #[cfg(target_arch = "nvptx64")]
    {
        core::ptr::read_volatile(a.level.add(v as usize))
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        AtomicU32::from_ptr(a.level.add(v as usize)).load(Relaxed)
    }
}

/// Graph vertices (one lane's).
#[inline(always)]
fn vertices(a: &CertArgs) -> u32 {
    a.csr.n >> a.csr.lane_bits
}

/// Condition 2 over every arc; returns this thread's violations.
#[inline(always)]
pub unsafe fn arcs(a: &CertArgs, tid: u32, nthreads: u32) -> u64 {
    let (csr, metric) = (&a.csr, a.csr.metric());
    let mut bad = 0;
    partition_walk(csr.offsets, vertices(a), tid, nthreads, |at| {
        let Some((u, e)) = at else { return };
        let du = dist(a, u);
        if du == INF {
            return;
        }
        let v = csr.target(e);
        if violates(metric, du, *csr.weights.add(e as usize), dist(a, v), a.bound) {
            bad += 1;
        }
    });
    bad
}

/// Claim graph vertex `v` at `depth` and queue it in set `at`'s queue `q` if it was unseen.
#[inline(always)]
unsafe fn claim(a: &CertArgs, v: u32, depth: u32, q: *mut u32, at: usize) {
    if AtomicU32::from_ptr(a.level.add(v as usize)).compare_exchange(UNSEEN, depth + 1, Relaxed, Relaxed).is_err() {
        return;
    }
    let deg = *a.csr.offsets.add(v as usize + 1) - *a.csr.offsets.add(v as usize);
    let lens = a.lens.add(at * CERT_LENS);
    if deg >= CERT_HUB_ARCS {
        let slot = AtomicU32::from_ptr(lens.add(1)).fetch_add(1, Relaxed);
        *q.add((vertices(a) - 1 - slot) as usize) = v;
    } else {
        let slot = AtomicU32::from_ptr(lens).fetch_add(1, Relaxed);
        *q.add(slot as usize) = v;
    }
}

/// Condition 1, and level 0 of the traversal: every source claimed and queued (queue 0, length
/// set 0). Returns this thread's sources whose distance is not 0.
#[inline(always)]
pub unsafe fn seed(a: &CertArgs, tid: u32, nthreads: u32) -> u64 {
    let zero = a.csr.metric().zero();
    let mut bad = 0;
    let mut i = tid;
    while i < a.count {
        let s = *a.roots.add(i as usize);
        if dist(a, s) != zero {
            bad += 1;
        }
        claim(a, s, 0, a.queue[0], 0);
        i += nthreads;
    }
    bad
}

/// Claim the unseen heads of `u`'s tight arcs in `[from, end)` by steps of `step`.
#[inline(always)]
unsafe fn expand_arcs(a: &CertArgs, u: u32, from: u64, step: u64, out: *mut u32, at: usize) {
    let (csr, metric) = (&a.csr, a.csr.metric());
    let du = dist(a, u);
    let end = *csr.offsets.add(u as usize + 1);
    let mut e = *csr.offsets.add(u as usize) + from;
    while e < end {
        let v = csr.target(e);
        if level_of(a, v) == UNSEEN && tight(metric, du, *csr.weights.add(e as usize), dist(a, v)) {
            claim(a, v, a.depth + 1, out, at);
        }
        e += step;
    }
}

/// One level of the tight-arc traversal: the vertices of level `depth` (queue `depth % 2`,
/// lengths set `depth % 3`) claim the unseen heads of their tight arcs for level `depth + 1`.
/// Hubs are expanded by the whole grid, one after the other; ordinary vertices by teams of
/// `team` lanes that stride their arcs. Thread 0 zeroes length set `(depth + 2) % 3`, which
/// the previous level read and the next one fills.
#[inline(always)]
pub unsafe fn expand(a: &CertArgs, tid: u32, nthreads: u32) {
    let d = a.depth as usize;
    // Selected by a branch: indexing the parameter block's array with a value made ptxas copy
    // the whole 120-byte block to local memory in every thread (as `ranks::pick` notes).
    let (from, out) = if d.is_multiple_of(2) { (a.queue[0], a.queue[1]) } else { (a.queue[1], a.queue[0]) };
    let lens = a.lens.add((d % 3) * CERT_LENS);
    let (len, hubs) = (*lens, *lens.add(1));
    if tid == 0 {
        let stale = a.lens.add(((d + 2) % 3) * CERT_LENS);
        *stale = 0;
        *stale.add(1) = 0;
    }
    let next = (d + 1) % 3;
    let n = vertices(a);
    for h in 0..hubs {
        let u = *from.add((n - 1 - h) as usize);
        expand_arcs(a, u, tid as u64, nthreads as u64, out, next);
    }
    let team = a.team.max(1);
    let (mut i, lane, teams) = (tid / team, tid % team, (nthreads / team).max(1));
    while i < len {
        expand_arcs(a, *from.add(i as usize), lane as u64, team as u64, out, next);
        i += teams;
    }
}

/// The end of condition 3: this thread's vertices with a finite distance that the traversal
/// did not reach (and, `strict`, those above the bound).
#[inline(always)]
pub unsafe fn reached(a: &CertArgs, tid: u32, nthreads: u32) -> u64 {
    let mut bad = 0;
    let mut v = tid;
    let n = vertices(a);
    while v < n {
        if level_of(a, v) == UNSEEN && dist(a, v) != INF {
            bad += 1;
        }
        if a.strict != 0 && a.bound != NO_CUTOFF {
            let raw = dist_of(load_packed(a.dist, id(a, v)));
            if raw != INF && raw > a.bound {
                bad += 1;
            }
        }
        v += nthreads;
    }
    bad
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arcs_violate_and_tie_in_each_metric() {
        let i = Metric::Integer;
        assert!(!violates(i, 5, 3, 8, NO_CUTOFF) && violates(i, 5, 3, 9, NO_CUTOFF));
        assert!(violates(i, 5, 3, INF, NO_CUTOFF), "a reached tail leaves no head unreached");
        assert!(!violates(i, INF, 3, 0, NO_CUTOFF), "an unreached tail asks nothing");
        // A sum past the cells' range is still a path: its head must not be unreached.
        assert!(violates(i, INF - 1, 5, INF, NO_CUTOFF) && !violates(i, INF - 1, 5, 7, NO_CUTOFF));
        // Within a bound only.
        assert!(!violates(i, 5, 3, INF, 7) && violates(i, 5, 2, INF, 7));
        assert!(tight(i, 5, 3, 8) && !tight(i, 5, 3, 9) && !tight(i, INF, 0, INF));
        // Signed: decoded sums, a negative arc included.
        let (s, e) = (Metric::Signed, Metric::encode_signed);
        assert!(violates(s, e(5), -3i32 as u32, e(3), NO_CUTOFF) && !violates(s, e(5), -3i32 as u32, e(2), NO_CUTOFF));
        assert!(tight(s, e(-5), 3, e(-2)));
        assert!(violates(s, e(i32::MIN + 1), -5i32 as u32, e(i32::MIN), NO_CUTOFF), "below the range");
        // Reals: rounded sums, one ulp apart.
        let (r, f) = (Metric::Real, |x: f32| x.to_bits());
        assert!(tight(r, f(0.1), f(0.2), f(0.1 + 0.2)));
        assert!(violates(r, f(0.1), f(0.2), f(0.1 + 0.2) + 1, NO_CUTOFF));
        assert!(
            !violates(r, f(0.1), f(0.2), f(0.1 + 0.2) - 1, NO_CUTOFF) && !tight(r, f(0.1), f(0.2), f(0.1 + 0.2) - 1)
        );
        // A real sum past f32::MAX is no path.
        assert!(!violates(r, f(f32::MAX), f(f32::MAX), INF, NO_CUTOFF));
        assert_eq!(effective(9, 8), INF);
        assert_eq!(effective(8, 8), 8);
        assert_eq!(effective(8, NO_CUTOFF), 8);
    }
}
