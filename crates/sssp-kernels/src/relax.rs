//! The per-arc and per-vertex pieces every strategy shares: read a distance, relax an arc,
//! push a vertex, count work. Plain functions; the GPU gets warp-aggregated variants of the
//! atomics where that is only an optimisation (the result is the same).

use core::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};

use crate::types::*;

/// The distance of `v`, as last published. Races with concurrent relaxations are benign: a stale
/// (larger) value only makes this relaxation weaker; the vertex that lowered it is re-queued.
#[inline(always)]
pub unsafe fn load_packed(dist: *mut u64, v: u32) -> u64 {
    // On the GPU a volatile load (`ld.volatile`) is enough and avoids the `.sys`-scoped fence
    // that an atomic load becomes; on the host, use a real atomic load.
    #[cfg(target_arch = "nvptx64")]
    {
        core::ptr::read_volatile(dist.add(v as usize))
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        AtomicU64::from_ptr(dist.add(v as usize)).load(Relaxed)
    }
}

/// Read a length cell written by an earlier launch.
#[inline(always)]
pub unsafe fn load_len(cell: *mut u32) -> u32 {
    AtomicU32::from_ptr(cell).load(Relaxed)
}

/// The candidate distance through an arc, or `None` when it would not fit below [`INF`]
/// (integers), or is not finite (reals: `f32` bit patterns, rounded to nearest; see [`Metric`]).
#[inline(always)]
pub fn candidate(metric: Metric, du: u32, w: u32) -> Option<u32> {
    match metric {
        Metric::Integer => {
            let c = du as u64 + w as u64;
            if c >= INF as u64 {
                None
            } else {
                Some(c as u32)
            }
        }
        Metric::Signed => {
            let c = Metric::decode_signed(du) as i64 + w as i32 as i64;
            // i32::MAX is INF's: the finite range stops one below it.
            if c < i32::MIN as i64 || c >= i32::MAX as i64 {
                None
            } else {
                Some(Metric::encode_signed(c as i32))
            }
        }
        Metric::Real => {
            let c = f32::from_bits(du) + f32::from_bits(w);
            // `du` is finite (INF is never expanded), so only a sum past f32::MAX fails here.
            if c.is_finite() {
                Some(c.to_bits())
            } else {
                None
            }
        }
    }
}

/// Where a relaxation through an arc leads, with the distance cutoff ([`NO_CUTOFF`]: none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Through {
    /// A candidate distance within the cutoff.
    Candidate(u32),
    /// Beyond the cutoff: dropped silently, not an overflow (nothing that far was asked for).
    Beyond,
    /// The sum does not fit: a [`Counters::overflow`].
    Overflow,
}

/// The candidate through an arc, checked against the cutoff.
#[inline(always)]
pub fn through(metric: Metric, du: u32, w: u32, cutoff: u32) -> Through {
    match candidate(metric, du, w) {
        Some(c) if cutoff == NO_CUTOFF || c <= cutoff => Through::Candidate(c),
        Some(_) => Through::Beyond,
        // Any cutoff lies below INF, so an overflowing sum is beyond it.
        None if cutoff != NO_CUTOFF => Through::Beyond,
        None => Through::Overflow,
    }
}

/// [`through`] as a relaxation takes it: the candidate within the cutoff, or `None` (beyond
/// it, or a sum that does not fit, which raises the run's [`Counters::overflow`] flag).
#[inline(always)]
pub unsafe fn candidate_within(metric: Metric, du: u32, w: u32, cutoff: u32, counters: *mut Counters) -> Option<u32> {
    match through(metric, du, w, cutoff) {
        Through::Candidate(c) => Some(c),
        Through::Beyond => None,
        Through::Overflow => {
            raise(core::ptr::addr_of_mut!((*counters).overflow));
            None
        }
    }
}

/// What one relaxation did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Relaxation {
    /// The candidate lowered the distance.
    pub improved: bool,
    /// ... and it was the first to do so in this iteration (the H-BF enqueue condition).
    pub first: bool,
    /// The distance it replaced (when `improved`).
    pub prev: u32,
}

/// Lower `v`'s distance to `cand` if smaller, stamping `iter` (one 64-bit atomic min).
#[inline(always)]
pub unsafe fn relax(dist: *mut u64, v: u32, cand: u32, iter: u32) -> Relaxation {
    relax_seen(dist, v, cand, iter, dist_of(load_packed(dist, v)))
}

/// [`relax`] after a read `seen` of `v`'s distance that the caller made, at any earlier
/// moment: distances only fall, so a candidate that does not beat a read of the distance
/// cannot beat the value the atomic would see. Most relaxations fail this test (all but the
/// first arcs into a hub), and a load costs far less than a contended 64-bit atomic. An older
/// read is larger or equal, so it only lets more candidates through to the atomic, which
/// decides.
#[inline(always)]
pub unsafe fn relax_seen(dist: *mut u64, v: u32, cand: u32, iter: u32, seen: u32) -> Relaxation {
    if cand >= seen {
        return Relaxation { improved: false, first: false, prev: seen };
    }
    relax_direct(dist, v, cand, iter)
}

/// `v`'s distance for [`relax_seen`]'s test only: on the GPU a plain load, which the SM's L1
/// may serve with a value older than the last atomic's (never below it: distances only fall),
/// where [`load_packed`] always goes to L2. The partitioned and tiled advances serve
/// scale-free graphs, whose arcs lead mostly into a few hubs: their lines then stay in each
/// SM's L1 instead of every test queueing at the same L2 slices. An aligned 64-bit load is
/// single-copy atomic, so the word read is one that was stored. Never for a distance that is
/// expanded (a stale tail distance would relax its arcs too weakly, and nothing would redo it).
#[inline(always)]
pub unsafe fn load_dist_for_test(dist: *mut u64, v: u32) -> u32 {
    #[cfg(target_arch = "nvptx64")]
    {
        let w: u64;
        core::arch::asm!(
            "ld.global.u64 {w}, [{p}];",
            w = out(reg64) w,
            p = in(reg64) dist.add(v as usize),
            options(readonly, nostack, preserves_flags)
        );
        dist_of(w)
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        dist_of(load_packed(dist, v))
    }
}

/// [`relax`] without the read before the atomic: where heads are rarely contended (the thread
/// and virtual-warp advances, which serve road graphs and meshes: a few arcs into each vertex),
/// the read only adds a dependent round trip to every improving relaxation, and on a road graph
/// the chain of those per hop is the solve's time (docs/gpu.md). Measured on the H100, the
/// plain loop's one-vertex iteration went from 5.27 to 5.10 us, NY from 8.03 to 7.55 ms and
/// `gen:road:1000000` from 11.46 to 10.7-10.8 (H100, 2026-11-27).
#[inline(always)]
pub unsafe fn relax_direct(dist: *mut u64, v: u32, cand: u32, iter: u32) -> Relaxation {
    let old = AtomicU64::from_ptr(dist.add(v as usize)).fetch_min(pack(cand, iter), Relaxed);
    Relaxation::replacing(old, cand, iter)
}

impl Relaxation {
    /// What an atomic min of `pack(cand, iter)` did, from the word `old` it replaced.
    #[inline(always)]
    pub fn replacing(old: u64, cand: u32, iter: u32) -> Relaxation {
        let improved = cand < dist_of(old);
        Relaxation { improved, first: improved && iter_of(old) != iter, prev: dist_of(old) }
    }
}

/// [`relax`] for an arc that is its head's only in-arc ([`ARC_SINGLE`]): within one launch no
/// other thread writes `v` (its one in-arc's tail is expanded once), so a load, a compare and a
/// plain store do what the atomic min does. Concurrent readers see the old or the new word,
/// both valid (a 64-bit aligned store is single-copy atomic).
#[inline(always)]
pub unsafe fn relax_single(dist: *mut u64, v: u32, cand: u32, iter: u32) -> Relaxation {
    let old = load_packed(dist, v);
    if cand >= dist_of(old) {
        return Relaxation { improved: false, first: false, prev: dist_of(old) };
    }
    #[cfg(target_arch = "nvptx64")]
    core::ptr::write_volatile(dist.add(v as usize), pack(cand, iter));
    #[cfg(not(target_arch = "nvptx64"))]
    AtomicU64::from_ptr(dist.add(v as usize)).store(pack(cand, iter), Relaxed);
    Relaxation { improved: true, first: iter_of(old) != iter, prev: dist_of(old) }
}

/// Set a flag cell to 1. Reading first keeps the hot cache line shared instead of written by
/// every improving thread.
#[inline(always)]
pub unsafe fn raise(flag: *mut u32) {
    let f = AtomicU32::from_ptr(flag);
    if f.load(Relaxed) == 0 {
        f.store(1, Relaxed);
    }
}

/// Append `v` to `q` when `keep` holds. Every thread of a warp that reaches this call must make
/// it (with `keep` false if it has nothing to push): on the GPU the pushes of a warp share one
/// atomic (warp-aggregated), which matters when a large frontier funnels into one counter.
#[inline(always)]
pub unsafe fn push(q: Queue, v: u32, keep: bool) {
    #[cfg(target_arch = "nvptx64")]
    {
        crate::warp::warp_push(q, v, keep)
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        if keep {
            let slot = AtomicU32::from_ptr(q.len).fetch_add(1, Relaxed);
            *q.items.add(slot as usize) = v;
        }
    }
}

/// Append `v` to `q`, which has room for `room` items, from one thread (destinations that
/// differ per lane: bucket slots). Past the room the item is counted but not written, so a
/// length above the room marks the queue *overflowed*: its items are incomplete, and its reader
/// must find them another way (`crate::split`'s module doc says how the slots do).
#[inline(always)]
pub unsafe fn push_within(q: Queue, v: u32, room: u32) {
    let slot = AtomicU32::from_ptr(q.len).fetch_add(1, Relaxed);
    if slot < room {
        *q.items.add(slot as usize) = v;
    }
}

/// Count one advance over `len` input vertices (called by one thread per launch).
#[inline(always)]
pub unsafe fn count_advance(counters: *mut Counters, len: u64) {
    count_advances(counters, len, 1)
}

/// Count `busy` advances over `vertices` input vertices in all (the block loop counts a
/// launch's at once); nothing when there were no vertices.
#[inline(always)]
pub unsafe fn count_advances(counters: *mut Counters, vertices: u64, busy: u64) {
    if vertices > 0 {
        AtomicU64::from_ptr(core::ptr::addr_of_mut!((*counters).vertices)).fetch_add(vertices, Relaxed);
        AtomicU64::from_ptr(core::ptr::addr_of_mut!((*counters).busy)).fetch_add(busy, Relaxed);
    }
}

/// Add a thread's count of relaxed arcs to the run's counter.
#[inline(always)]
pub unsafe fn add_arcs(counters: *mut Counters, arcs: u64) {
    #[cfg(target_arch = "nvptx64")]
    {
        crate::warp::warp_add_u64(core::ptr::addr_of_mut!((*counters).arcs), arcs)
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        if arcs != 0 {
            AtomicU64::from_ptr(core::ptr::addr_of_mut!((*counters).arcs)).fetch_add(arcs, Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn candidate_never_wraps() {
        let i = Metric::Integer;
        assert_eq!(candidate(i, 5, 7), Some(12));
        assert_eq!(candidate(i, INF - 2, 1), Some(INF - 1));
        assert_eq!(candidate(i, INF - 2, 2), None);
        assert_eq!(candidate(i, u32::MAX - 1, u32::MAX), None);
        assert_eq!(through(i, 5, 7, 11), Through::Beyond);
        assert_eq!(through(i, 5, 7, 12), Through::Candidate(12));
        assert_eq!(through(i, INF - 2, 2, 12), Through::Beyond);
        assert_eq!(through(i, INF - 2, 2, NO_CUTOFF), Through::Overflow);
    }

    #[test]
    fn signed_candidates_keep_order_and_overflow_both_ways() {
        let (s, e) = (Metric::Signed, Metric::encode_signed);
        assert_eq!(candidate(s, e(5), -7i32 as u32), Some(e(-2)));
        assert_eq!(candidate(s, Metric::zero(s), 3), Some(e(3)));
        assert!(e(-2) < e(0) && e(0) < e(3) && e(i32::MAX - 1) < INF && e(i32::MIN) == 0);
        assert_eq!(Metric::decode_signed(e(-123)), -123);
        assert_eq!(candidate(s, e(i32::MIN + 2), -3i32 as u32), None); // below the range
        assert_eq!(candidate(s, e(i32::MIN + 2), -2i32 as u32), Some(e(i32::MIN)));
        assert_eq!(candidate(s, e(i32::MAX - 2), 1), Some(e(i32::MAX - 1)));
        assert_eq!(candidate(s, e(i32::MAX - 2), 2), None); // would be INF's
        assert_eq!(Metric::from_code(Metric::Signed.code()), Metric::Signed);
    }

    #[test]
    fn real_candidates_round_to_nearest_and_order_like_their_bits() {
        let (r, f) = (Metric::Real, |x: f32| x.to_bits());
        assert_eq!(candidate(r, f(0.1), f(0.2)), Some(f(0.1 + 0.2)));
        assert_eq!(candidate(r, f(1.0e8), f(1.0)), Some(f(1.0e8))); // absorbed by rounding
        assert_eq!(candidate(r, f(f32::MAX), f(f32::MAX)), None);
        assert_eq!(through(r, f(1.5), f(1.0), f(2.5)), Through::Candidate(f(2.5)));
        assert_eq!(through(r, f(1.5), f(1.25), f(2.5)), Through::Beyond);
        assert!(f(2.5) < f(2.75) && f(2.75) < INF && f(0.0) == 0);
    }

    #[test]
    fn relax_reports_first_improver_of_an_iteration() {
        // With and without the read before the atomic: the same reports, the same word.
        type Relax = unsafe fn(*mut u64, u32, u32, u32) -> Relaxation;
        for f in [relax as Relax, relax_direct as Relax] {
            let mut d = [pack(INF, NO_ITER)];
            let p = d.as_mut_ptr();
            unsafe {
                assert_eq!(f(p, 0, 10, 1), Relaxation { improved: true, first: true, prev: INF });
                assert_eq!(f(p, 0, 8, 1), Relaxation { improved: true, first: false, prev: 10 });
                assert_eq!(f(p, 0, 9, 1), Relaxation { improved: false, first: false, prev: 8 });
                assert_eq!(f(p, 0, 8, 2), Relaxation { improved: false, first: false, prev: 8 });
                assert_eq!(f(p, 0, 7, 2), Relaxation { improved: true, first: true, prev: 8 });
            }
            assert_eq!(d[0], pack(7, 2));
        }
    }
}
