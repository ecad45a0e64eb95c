//! One rank's local step of distributed delta-stepping (the `sssp` library's
//! `distributed`) on its device: the rank's slice of the graph, its distances and its queues stay
//! resident, and only the candidates for other ranks' vertices leave it.
//!
//! **The slice.** Local ids `0..owned` are the rank's vertices (global `first + v`), with their
//! out-arcs; ids `owned..csr.n` are *ghosts*, one per remote head the slice's arcs reach
//! (global id `ghost_ids[v - owned]`), with no arcs. A ghost's distance cell holds the
//! smallest candidate this rank has produced for that vertex: the host rank's "ghost distance"
//! filter (a candidate that does not lower it cannot lower the owner's either), kept by the
//! same atomic minimum that relaxes every other head.
//!
//! **A round** `r` of bucket `cur` (the host drives: `sssp::distributed`'s round protocol):
//! - [`relax`] expands the vertices queued for round `r` (`near[r % 2]`) with their current
//!   distances in three tiers by out-degree: the hubs (at least `hub_arcs` out-arcs, queued
//!   from the back of the near queue) one after the other by the whole grid, the wide vertices
//!   (at least `wide_arcs`, their own queue) by teams of `wide_team` lanes side by side,
//!   the others by teams of `team` lanes. A head whose distance falls is *routed* ([`route`]): an owned head whose new
//!   distance lies in `cur` is queued for round `r + 1` (`near[(r + 1) % 2]`, at most once per
//!   round: its `stamp` cell), one in a later bucket goes to the far pile (at most once while
//!   it waits there: its `far_flag`), a ghost is queued in `ghosts` (once per round).
//! - [`pack`] writes each queued ghost as an outgoing item, `(global id << 32) | distance`,
//!   into its owner's range of the outbox: a rank's ghosts are numbered in global id order
//!   and owners hold contiguous id ranges, so the ghosts of rank `d` are the ghost indices
//!   `ranges[d]..ranges[d + 1]`, and that range of the outbox is room enough for a round's
//!   items to `d` (each ghost is queued once a round). A count per destination, in the
//!   length cells after [`RANK_LENS`], says how much of each range the round filled: the
//!   host reads those `P` counts and the items go to their owners from device memory.
//! - [`apply`] lowers the owned vertices that other ranks' items name, routing as above
//!   (an item for a vertex this rank does not own is counted in [`C_FOREIGN`], not applied).
//! - [`far_min`] finds the lowest bucket above `cur` in the far pile, for the all-reduce that
//!   picks the next bucket when no rank has work left in `cur`.
//! - [`split`], at the first round of a new bucket, moves the far pile's vertices of that
//!   bucket into the round's near queue and keeps those of later buckets (in the other pile).
//!
//! **Why nothing is lost.** Candidates never fall below `cur * delta` (weights are `>= 0`), so
//! every lowering routes its vertex to `cur`'s next round, to the far pile, or (a ghost) to the
//! outbox. A far entry whose vertex was lowered into `cur` after it was piled is also in a near
//! queue; when `split` meets it later its bucket is below the new `cur`, and it is dropped: it
//! was expanded at that distance. A vertex lowered twice into the far pile is piled once, and
//! `split` and `far_min` read its distance as it is then. So when every rank's next near queue
//! and far pile are empty, every lowered vertex has been expanded at its final distance, the
//! condition the host's round protocol ends on.

use core::sync::atomic::{AtomicU32, Ordering::Relaxed};

use crate::relax::{load_len, load_packed, push, raise, relax as lower, through, Through};
use crate::types::*;

/// Length cells ([`RankArgs::lens`]): the two near queues (round parity)...
pub const L_NEAR: usize = 0;
/// ... the two far piles ([`RankArgs::far_side`])...
pub const L_FAR: usize = 2;
/// ... the ghosts queued in a round (round parity: [`pack`] empties the next round's)...
pub const L_GHOSTS: usize = 4;
/// ... the overflow flag (a candidate that did not fit the 32-bit cells)...
pub const L_OVERFLOW: usize = 6;
/// ... the hubs of the two near queues (round parity), queued from the back...
pub const L_HUBS: usize = 7;
/// ... and the two wide queues (round parity).
pub const L_WIDE: usize = 9;
/// Length cells before the per-destination counts: those follow, `2 * ranks` of them
/// (round parity, then destination rank), so the host reads a round's lengths and counts at
/// once ([`rank_lens`] cells in all).
pub const RANK_LENS: usize = 11;

/// Length cells of a rank among `ranks`: the fixed ones and two rows of per-destination
/// counts.
pub const fn rank_lens(ranks: u32) -> usize {
    RANK_LENS + 2 * ranks as usize
}

/// The first per-destination count of round parity `side`.
#[inline(always)]
pub const fn counts_at(side: usize, ranks: u32) -> usize {
    RANK_LENS + side * ranks as usize
}

/// Out-arcs from which a queued vertex is a hub ([`RankArgs::hub_arcs`]'s usual value): its
/// expansion is shared by the whole grid, not one team (a Kronecker hub's 10^5-10^6 arcs would
/// otherwise serialise on one team's lanes for the whole round). The hubs go one after the
/// other, each a pass of the whole grid that a few-thousand-arc vertex leaves mostly idle: at
/// 4,096 (with no wide tier) kron 26's two ranks relaxed for 279-354 ms a solve, at 65,536 for
/// 159-199 ms, at 1,024 for 785-974 (four H100s, `docs/distributed.md`).
pub const RANK_HUB_ARCS: u32 = 65536;

/// Out-arcs from which a queued vertex below [`RankArgs::hub_arcs`] is *wide*
/// ([`RankArgs::wide_arcs`]'s usual value): expanded by a team of [`RankArgs::wide_team`]
/// lanes (on the GPU [`RANK_WIDE_TEAM`]), the wide vertices side by side, so a vertex of up to
/// `hub_arcs` arcs takes at most `hub_arcs / wide_team` steps per lane instead of
/// `hub_arcs / 32` on a warp.
pub const RANK_WIDE_ARCS: u32 = 1024;

/// Lanes of a wide vertex's team on the GPU (consecutive threads: four blocks of 256; the
/// kernels share no memory within a block, so a team need not be one).
pub const RANK_WIDE_TEAM: u32 = 1024;

/// Count cells ([`RankArgs::cells`]): arcs relaxed...
pub const C_ARCS: usize = 0;
/// ... vertices expanded...
pub const C_EXPANDED: usize = 1;
/// ... the lowest bucket above `cur` in the far pile ([`far_min`]; reset to `u64::MAX`)...
pub const C_FAR_MIN: usize = 2;
/// ... and received items naming a vertex this rank does not own ([`apply`] skips them; the
/// host makes any a typed error: the transport delivered to the wrong rank).
pub const C_FOREIGN: usize = 3;
/// Count cells in all.
pub const RANK_CELLS: usize = 4;

/// Parameters of a rank's kernels (one block for all five; each reads what it needs).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct RankArgs {
    /// The slice: `csr.n` local ids (owned, then ghosts), arcs out of the owned ones only.
    pub csr: Csr,
    /// `csr.n` packed distance words (the iteration half unused: 0).
    pub dist: *mut u64,
    /// `csr.n` cells: the round a vertex was last queued for (near queues, ghosts); zeroed.
    pub stamp: *mut u32,
    /// `owned` cells: 1 while the vertex waits in a far pile; zeroed.
    pub far_flag: *mut u32,
    /// Two near queues of `owned` entries: round `r` expands `near[r % 2]`.
    pub near: [*mut u32; 2],
    /// Two far piles of `owned` entries: the current one is `far[far_side]`.
    pub far: [*mut u32; 2],
    /// Two wide queues (round parity) of `owned` entries.
    pub wide: [*mut u32; 2],
    /// `csr.n - owned` entries: the ghosts lowered this round.
    pub ghosts: *mut u32,
    /// `csr.n - owned` global ids, one per ghost.
    pub ghost_ids: *const u32,
    /// [`apply`]: `count` items `(global id << 32) | distance`, every id owned.
    pub inbox: *const u64,
    /// [`pack`]: `csr.n - owned` items, rank `d`'s in `ranges[d]..ranges[d + 1]`.
    pub outbox: *mut u64,
    /// `ranks + 1` ghost indices: the ghosts of rank `d` are `ranges[d]..ranges[d + 1]`
    /// (module doc); `ranges[ranks]` is the ghost count.
    pub ranges: *const u32,
    /// [`rank_lens`]`(ranks)` length cells.
    pub lens: *mut u32,
    /// [`RANK_CELLS`] count cells.
    pub cells: *mut u64,
    /// The global id of local vertex 0.
    pub first: u32,
    /// Owned vertices.
    pub owned: u32,
    /// Bucket width (> 0), in the metric's encoding.
    pub delta: u32,
    /// Candidates above it are dropped ([`NO_CUTOFF`]: none).
    pub cutoff: u32,
    /// The current bucket.
    pub cur: u32,
    /// The current round (from 1).
    pub round: u32,
    /// The current far pile, 0 or 1.
    pub far_side: u32,
    /// [`apply`]: inbox items.
    pub count: u32,
    /// Lanes per expanded vertex: 32 (a warp) on the GPU, 1 on the CPU.
    pub team: u32,
    /// Out-arcs from which a queued vertex is a hub ([`RANK_HUB_ARCS`]; tests set it low).
    pub hub_arcs: u32,
    /// [`reset`]: the source's local id (`u32::MAX` where another rank owns it)...
    pub source: u32,
    /// ... and its distance cell (the metric's zero).
    pub zero: u32,
    /// Ranks in the group (`ranges` has one more entry).
    pub ranks: u32,
    /// Out-arcs from which a queued vertex below `hub_arcs` is wide ([`RANK_WIDE_ARCS`]; tests
    /// set it low)...
    pub wide_arcs: u32,
    /// ... and the lanes of its team: [`RANK_WIDE_TEAM`] on the GPU, 1 on the CPU.
    pub wide_team: u32,
    /// Keeps the block a whole number of 8-byte words.
    pub _pad: u32,
}

// The layout the PTX entry points expect, and the marks every parameter block carries.
const _: () = assert!(core::mem::size_of::<RankArgs>() == 40 + 8 * 16 + 4 * 16);
#[cfg(all(feature = "cuda", not(target_arch = "nvptx64")))]
// SAFETY: `#[repr(C)]`, `Copy`, only integers and addresses, the layout checked above.
unsafe impl cudarc::driver::DeviceRepr for RankArgs {}

unsafe impl Send for RankArgs {}
unsafe impl Sync for RankArgs {}

/// The bucket of a finite distance cell: `d / delta` in the metric's arithmetic (real
/// distances divide as `f32`s, which rounds monotonically, so buckets order like distances),
/// clamped below `u32::MAX` (the host's "no bucket").
#[inline(always)]
pub fn bucket(metric: Metric, d: u32, delta: u32) -> u32 {
    let b = match metric {
        Metric::Real => (f32::from_bits(d) / f32::from_bits(delta)) as u32,
        _ => d / delta,
    };
    b.min(u32::MAX - 1)
}

/// Entry `side` (0 or 1) of a pair of the parameter block's queues, by a branch: indexing a
/// parameter array with a value (`a.near[side]`) made ptxas copy the whole 184-byte block to
/// local memory in every thread.
#[inline(always)]
fn pick(pair: [*mut u32; 2], side: usize) -> *mut u32 {
    if side == 0 {
        pair[0]
    } else {
        pair[1]
    }
}

/// Near queue `side`.
#[inline(always)]
fn near(a: &RankArgs, side: usize) -> *mut u32 {
    pick(a.near, side)
}

/// Far pile `side`.
#[inline(always)]
fn far(a: &RankArgs, side: usize) -> *mut u32 {
    pick(a.far, side)
}

/// Wide queue `side`.
#[inline(always)]
fn wide(a: &RankArgs, side: usize) -> *mut u32 {
    pick(a.wide, side)
}

/// The queue behind length cell `len`.
#[inline(always)]
unsafe fn queue(a: &RankArgs, items: *mut u32, len: usize) -> Queue {
    Queue { items, len: a.lens.add(len) }
}

/// Whether this call is the first to mark `v` with `stamp` (one queueing per round). A plain
/// read first: a vertex lowered again in the same round (a ghost many arcs reach, a hub's
/// neighbour) is already marked, and the read spares the atomic; the swap still decides.
#[inline(always)]
unsafe fn first_mark(stamps: *mut u32, v: u32, stamp: u32) -> bool {
    let cell = AtomicU32::from_ptr(stamps.add(v as usize));
    cell.load(Relaxed) != stamp && cell.swap(stamp, Relaxed) != stamp
}

/// Owned vertex `v` into near queue `side`: hubs from the back (their own length cell), wide
/// vertices into wide queue `side`, the others from the front. A vertex is queued once per
/// round, so the `owned` entries hold hubs and others, and the wide queue every vertex of its
/// degree.
#[inline(always)]
unsafe fn queue_near(a: &RankArgs, v: u32, side: usize) {
    let degree = *a.csr.offsets.add(v as usize + 1) - *a.csr.offsets.add(v as usize);
    if degree >= a.hub_arcs as u64 {
        let slot = AtomicU32::from_ptr(a.lens.add(L_HUBS + side)).fetch_add(1, Relaxed);
        *near(a, side).add((a.owned - 1 - slot) as usize) = v;
    } else if degree >= a.wide_arcs as u64 {
        push(queue(a, wide(a, side), L_WIDE + side), v, true);
    } else {
        push(queue(a, near(a, side), L_NEAR + side), v, true);
    }
}

/// Relax arcs `[from, end)` of a vertex at distance `du`, by steps of `step`; returns how
/// many.
#[inline(always)]
unsafe fn relax_arcs(a: &RankArgs, du: u32, from: u64, end: u64, step: u64) -> u64 {
    let metric = a.csr.metric();
    let mut e = from;
    let mut count = 0;
    while e < end {
        match through(metric, du, *a.csr.weights.add(e as usize), a.cutoff) {
            Through::Candidate(c) => {
                let v = a.csr.target(e);
                if lower(a.dist, v, c, 0).improved {
                    route(a, v, c);
                }
            }
            Through::Beyond => {}
            Through::Overflow => raise(a.lens.add(L_OVERFLOW)),
        }
        count += 1;
        e += step;
    }
    count
}

/// Before a solve, on the slice a rank keeps between solves: every distance `INF`, no stamp
/// or far flag, every length and count cell 0; the source (if this rank owns it) at `zero`,
/// stamped for round 1 and queued in its near queue. One launch, so a solve starts without
/// uploading a distance array.
#[inline(always)]
pub unsafe fn reset(a: &RankArgs, tid: u32, nthreads: u32) {
    let mut v = tid;
    while v < a.csr.n {
        let here = v == a.source;
        *a.dist.add(v as usize) = crate::types::pack(if here { a.zero } else { INF }, 0);
        *a.stamp.add(v as usize) = here as u32;
        if v < a.owned {
            *a.far_flag.add(v as usize) = 0;
        }
        v += nthreads;
    }
    if tid == 0 {
        for l in 0..rank_lens(a.ranks) {
            *a.lens.add(l) = 0;
        }
        for c in 0..RANK_CELLS {
            *a.cells.add(c) = 0;
        }
        if a.source < a.owned {
            *near(a, 1) = a.source;
            *a.lens.add(L_NEAR + 1) = 1;
        }
    }
}

/// Queue local vertex `v`, whose distance just fell to `c` in this round (module doc). The
/// queues' pushes are warp-aggregated on the GPU over the lanes that reach them together
/// (`relax::push`: one atomic on the queue's length per such group, not one per lane): a round
/// of kron 27 on four ranks queues millions of ghosts on one length cell.
///
/// Unlike the engines' call sites, which every lane of a warp reaches, lanes reach these
/// pushes as their own relaxations lower vertices; `warp::warp_push` votes among the lanes
/// active at the call (`activemask`), so a partial group aggregates correctly, only less.
#[inline(always)]
pub unsafe fn route(a: &RankArgs, v: u32, c: u32) {
    let next = a.round + 1;
    if v >= a.owned {
        if first_mark(a.stamp, v, next) {
            push(queue(a, a.ghosts, L_GHOSTS + (a.round % 2) as usize), v, true);
        }
    } else if bucket(a.csr.metric(), c, a.delta) == a.cur {
        if first_mark(a.stamp, v, next) {
            queue_near(a, v, (next % 2) as usize);
        }
    } else if AtomicU32::from_ptr(a.far_flag.add(v as usize)).swap(1, Relaxed) == 0 {
        let side = a.far_side as usize;
        push(queue(a, far(a, side), L_FAR + side), v, true);
    }
}

/// Expand the vertices queued for this round: the hubs one after the other, each one's arcs
/// strided over the whole grid; then the wide vertices, teams of `wide_team` lanes; then the
/// others, teams of `team` lanes. Returns this thread's arcs relaxed and vertices expanded.
#[inline(always)]
pub unsafe fn relax(a: &RankArgs, tid: u32, nthreads: u32) -> (u64, u64) {
    let side = (a.round % 2) as usize;
    let from = near(a, side);
    let (len, hubs) = (load_len(a.lens.add(L_NEAR + side)), load_len(a.lens.add(L_HUBS + side)));
    let (mut arcs, mut expanded) = (0u64, 0u64);
    for h in 0..hubs {
        let (a_, e) = expand(a, *from.add((a.owned - 1 - h) as usize), tid, nthreads);
        (arcs, expanded) = (arcs + a_, expanded + e);
    }
    let (a_, e) = by_teams(a, wide(a, side), load_len(a.lens.add(L_WIDE + side)), a.wide_team, tid, nthreads);
    (arcs, expanded) = (arcs + a_, expanded + e);
    let (a_, e) = by_teams(a, from, len, a.team, tid, nthreads);
    (arcs + a_, expanded + e)
}

/// The `len` vertices of `queue`, teams of `team` lanes (at least 1) each taking one vertex at
/// a time: this thread's arcs relaxed and vertices expanded.
#[inline(always)]
unsafe fn by_teams(a: &RankArgs, queue: *const u32, len: u32, team: u32, tid: u32, nthreads: u32) -> (u64, u64) {
    let team = team.max(1);
    let (mut i, lane, teams) = (tid / team, tid % team, (nthreads / team).max(1));
    let (mut arcs, mut expanded) = (0u64, 0u64);
    while i < len {
        let (a_, e) = expand(a, *queue.add(i as usize), lane, team);
        (arcs, expanded) = (arcs + a_, expanded + e);
        i += teams;
    }
    (arcs, expanded)
}

/// Lane `lane` of `lanes` expanding vertex `u` at its current distance: its arcs relaxed,
/// and 1 expanded for lane 0.
#[inline(always)]
unsafe fn expand(a: &RankArgs, u: u32, lane: u32, lanes: u32) -> (u64, u64) {
    let du = dist_of(load_packed(a.dist, u));
    let (start, end) = (*a.csr.offsets.add(u as usize), *a.csr.offsets.add(u as usize + 1));
    (relax_arcs(a, du, start + lane as u64, end, lanes as u64), (lane == 0) as u64)
}

/// Each ghost queued this round as an outgoing item (its smallest candidate so far), in its
/// owner's range of the outbox (module doc), counted in the round's per-destination cells.
/// The launch also empties the cells the next round fills: its ghosts' and per-destination
/// counts (the other parity) and the near queue this round expanded (the next round pushes
/// into it), so a round needs no upload.
#[inline(always)]
pub unsafe fn pack(a: &RankArgs, tid: u32, nthreads: u32) {
    let side = (a.round % 2) as usize;
    let len = load_len(a.lens.add(L_GHOSTS + side));
    if tid == 0 {
        *a.lens.add(L_GHOSTS + 1 - side) = 0;
        *a.lens.add(L_NEAR + side) = 0;
        *a.lens.add(L_HUBS + side) = 0;
        *a.lens.add(L_WIDE + side) = 0;
    }
    let mut d = tid;
    while d < a.ranks {
        *a.lens.add(counts_at(1 - side, a.ranks) + d as usize) = 0;
        d += nthreads;
    }
    let counts = a.lens.add(counts_at(side, a.ranks));
    let mut i = tid;
    while i < len {
        let g = *a.ghosts.add(i as usize) - a.owned;
        let id = *a.ghost_ids.add(g as usize);
        let to = owner_of(a.ranges, a.ranks, g);
        let slot = AtomicU32::from_ptr(counts.add(to as usize)).fetch_add(1, Relaxed);
        let at = *a.ranges.add(to as usize) + slot;
        *a.outbox.add(at as usize) = (id as u64) << 32 | dist_of(load_packed(a.dist, g + a.owned)) as u64;
        i += nthreads;
    }
}

/// The rank whose range of ghost indices holds ghost `g`: the last `d < ranks` with
/// `ranges[d] <= g` (empty ranges are skipped, since `ranges[d + 1] <= g` would make `d + 1`
/// later). A binary search over the `ranks + 1` entries, which stay in cache.
#[inline(always)]
pub unsafe fn owner_of(ranges: *const u32, ranks: u32, g: u32) -> u32 {
    crate::advance::segment_of(ranges, 0, ranks, g)
}

/// Lower the owned vertices that the inbox's items name, routing each one lowered.
#[inline(always)]
pub unsafe fn apply(a: &RankArgs, tid: u32, nthreads: u32) {
    let mut i = tid;
    while i < a.count {
        let item = *a.inbox.add(i as usize);
        let (v, c) = (((item >> 32) as u32).wrapping_sub(a.first), item as u32);
        // An item for another rank's vertex is skipped and counted (the host's typed error).
        if v >= a.owned {
            core::sync::atomic::AtomicU64::from_ptr(a.cells.add(C_FOREIGN)).fetch_add(1, Relaxed);
        } else if lower(a.dist, v, c, 0).improved {
            route(a, v, c);
        }
        i += nthreads;
    }
}

/// This thread's lowest bucket above `cur` among the current far pile's vertices
/// (`u64::MAX`: none); lower ones are stale (module doc).
#[inline(always)]
pub unsafe fn far_min(a: &RankArgs, tid: u32, nthreads: u32) -> u64 {
    let side = a.far_side as usize;
    let (pile, len) = (far(a, side), load_len(a.lens.add(L_FAR + side)));
    let metric = a.csr.metric();
    let mut best = u64::MAX;
    let mut i = tid;
    while i < len {
        let b = bucket(metric, dist_of(load_packed(a.dist, *pile.add(i as usize))), a.delta);
        if b > a.cur {
            best = best.min(b as u64);
        }
        i += nthreads;
    }
    best
}

/// The first round of bucket `cur`: the current far pile's vertices of `cur` into this round's
/// near queue (stamped with the round), those of later buckets into the other pile (still
/// flagged), the stale ones dropped (flag cleared). The host then flips `far_side`.
#[inline(always)]
pub unsafe fn split(a: &RankArgs, tid: u32, nthreads: u32) {
    let side = a.far_side as usize;
    let (pile, len) = (far(a, side), load_len(a.lens.add(L_FAR + side)));
    let (keep, into) = (queue(a, far(a, 1 - side), L_FAR + 1 - side), (a.round % 2) as usize);
    let metric = a.csr.metric();
    let mut i = tid;
    while i < len {
        let v = *pile.add(i as usize);
        let b = bucket(metric, dist_of(load_packed(a.dist, v)), a.delta);
        if b > a.cur {
            push(keep, v, true);
        } else {
            AtomicU32::from_ptr(a.far_flag.add(v as usize)).store(0, Relaxed);
            if b == a.cur && first_mark(a.stamp, v, a.round) {
                queue_near(a, v, into);
            }
        }
        i += nthreads;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ghost_belongs_to_the_range_that_holds_it_and_empty_ranges_hold_none() {
        // Ranks 0 and 2 own no ghosts of this slice; rank 1 ghosts 0..3, rank 3 ghosts 3..5.
        let ranges = [0u32, 0, 3, 3, 5];
        let owners: Vec<u32> = (0..5).map(|g| unsafe { owner_of(ranges.as_ptr(), 4, g) }).collect();
        assert_eq!(owners, [1, 1, 1, 3, 3]);
        assert_eq!(unsafe { owner_of([0u32, 7].as_ptr(), 1, 6) }, 0, "one rank owns every ghost");
        // 40 ghosts over 1..6 ranks, the first ranks' ranges ending at every cut: each ghost's
        // owner's range holds it.
        for ranks in 1..6u32 {
            for cut in 0..=40u32 {
                let mut ranges: Vec<u32> = (0..=ranks).map(|d| d * cut / ranks).collect();
                ranges[ranks as usize] = 40;
                for g in 0..40 {
                    let d = unsafe { owner_of(ranges.as_ptr(), ranks, g) } as usize;
                    assert!(ranges[d] <= g && g < ranges[d + 1], "ghost {g} given to {d} of {ranges:?}");
                }
            }
        }
    }

    #[test]
    fn buckets_order_like_distances_and_stop_below_none() {
        assert_eq!(bucket(Metric::Integer, 0, 10), 0);
        assert_eq!(bucket(Metric::Integer, 19, 10), 1);
        assert_eq!(bucket(Metric::Integer, INF - 1, 1), u32::MAX - 1);
        let f = |x: f32| x.to_bits();
        assert_eq!(bucket(Metric::Real, f(2.5), f(1.0)), 2);
        assert_eq!(bucket(Metric::Real, f(0.0), f(0.5)), 0);
        assert_eq!(bucket(Metric::Real, f(3.0e38), f(1.0e-30)), u32::MAX - 1, "saturates");
        let mut last = 0;
        for d in [0.0f32, 0.1, 0.2, 0.3, 0.7, 1.0, 5.5] {
            let b = bucket(Metric::Real, f(d), f(0.25));
            assert!(b >= last);
            last = b;
        }
    }
}
