//! Asynchronous delta-stepping: one persistent launch, a device-wide worklist ordered by
//! distance only approximately, no barrier anywhere (the design follows the idea of
//! Wang, Fussell and Lin, "A fast work-efficient SSSP algorithm for GPUs", PPoPP'21 (ADDS):
//! several delta-wide buckets open at once, workers that take work without waiting for each
//! other; the code and the protocol below are our own).
//!
//! # The worklist
//! - A ring of [`AQ_BUCKETS`] buckets. Bucket `b` holds the vertices pushed with a distance in
//!   `[b delta, (b + 1) delta)`; a push lands in logical bucket `clamp(d / delta, cur, cur +
//!   AQ_BUCKETS - 1)`, `cur` being the lowest bucket workers still look at, and logical bucket
//!   `l` lives in ring slot `l mod AQ_BUCKETS`. Order is a hint: any order gives the exact
//!   answer (label-correcting to the fixpoint through the same 64-bit atomic min as every
//!   strategy); the buckets only save re-expansions, as in delta-stepping.
//! - Each bucket is an array of `2^cap_bits >= n` cells with a head and a tail counter (both
//!   only grow, wrapping): a push takes index `tail++` and writes `vertex + 1` into its cell
//!   once the cell is empty (0); a pop claims `[head, head + k)` with one compare-and-swap while
//!   `head < tail`, then takes each cell (waiting for it to be written) and empties it, every
//!   claimed cell before it expands any of them.
//! - A vertex is in the worklist at most once: its `queued` flag goes 0 -> 1 with the push
//!   and back to 0 when its item is taken. So at most `n` items exist at any time and a ring of
//!   `n` cells never overflows: a push that finds its cell still full waits for the team that
//!   has claimed it and not yet taken it, which is between its claim and its takes, waiting on
//!   nothing (a team takes all it claimed before it pushes anything).
//! - A vertex whose out-degree passes [`AQ_SPLIT`] (a hub of a scale-free graph) is not
//!   expanded by one warp: its arcs are cut into chunks of [`AQ_CHUNK`] arcs pushed on a chunk
//!   ring, which every worker drains before the buckets, so a hub's arcs spread over the grid.
//!   When the chunk ring lacks room the warp expands the hub itself.
//!
//! # Exactness
//! An item taken for `u` clears `u`'s flag, then (after a fence) reads `u`'s distance and
//! relaxes every out-arc with it. A relaxation that lowers `v` then sets `v`'s flag (after a
//! fence) and pushes `v` if the flag was clear. Either the flag was clear (a new item, whose
//! expansion reads the new distance), or an item of `v` is not yet taken: its taker's flag
//! exchange comes later in the flag's order, so (release fence before the producer's exchange,
//! acquire fence after the taker's) it reads the lowered distance. Every lowering is therefore
//! expanded by some later expansion, and the run stops at the fixpoint: the exact distances.
//!
//! A distance word's iteration half marks an expansion ([`EXPANDED`]): a taker claims the
//! expansion of distance `d` by swapping `(d, 0)` for `(d, EXPANDED)`; a second item of the
//! same vertex that finds `(d, EXPANDED)` is stale (ADDS drops stale items at pop too) and is
//! dropped. A relaxation writes `(d', 0)` with `d' < d`, so a lowered vertex is expandable again.
//!
//! # Termination
//! `pending` counts items pushed and not yet finished: a push adds one *before* its item
//! becomes visible (the tail moves after the add); a worker subtracts the items it took *after*
//! everything their expansion pushed has been added. So `pending` is 0 only when no item exists
//! and none is being expanded, and then nothing can ever push again: a worker that finds no
//! work and reads `pending == 0` stops, and so does every other. No worker ever waits on one
//! that has not started (waits are for a claimed cell's writer or a claimed cell's reader, both
//! running), so the launch needs no co-residency and the CPU may run its workers in any order
//! and number, even one after another.

use core::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};

use crate::relax::{add_arcs, candidate_within, load_packed, relax};
use crate::types::*;

/// Ring buckets of the worklist (a power of two): how many delta-wide distance ranges are open
/// at once.
pub const AQ_BUCKETS: u32 = 32;

/// Out-degree past which an item's arcs are cut into chunks for the whole grid.
pub const AQ_SPLIT: u64 = 1024;

/// Arcs per chunk of a split hub.
pub const AQ_CHUNK: u64 = 256;

/// Most warps' worth of items one grab takes from a long bucket.
pub const AQ_GRAB: u32 = 8;

/// The iteration stamp of a distance whose expansion has been claimed.
pub const EXPANDED: u32 = 1;

/// `u32` cells per counter line (128 bytes: a line of its own for each hot counter).
pub const AQ_LINE: usize = 32;

/// A bucket's line: the head (claimed items) at cell 0, the busy count (items taken and not yet
/// finished) at cell 1, one 64-bit word claimed with one compare-and-swap; the tail at this
/// cell.
pub const AQ_TAIL: usize = 2;

/// Counter cells of the worklist: one line per bucket (head, tail), then `pending`, `cur` and
/// the chunk ring's head and tail on lines of their own.
pub const fn aq_ctl_cells(nbuckets: u32) -> usize {
    (nbuckets as usize + 3) * AQ_LINE
}

/// Parameters of the asynchronous run ([`worker`], [`seed`]).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct AsyncArgs {
    pub csr: Csr,
    /// Packed `(distance, stamp)` per vertex ([`EXPANDED`] marks a claimed expansion).
    pub dist: *mut u64,
    pub counters: *mut Counters,
    /// One flag per vertex: 1 while an item of it is in the worklist.
    pub queued: *mut u32,
    /// `nbuckets << cap_bits` cells: `vertex + 1`, 0 = empty.
    pub slots: *mut u32,
    /// `1 << chunk_bits` cells: `(vertex + 1) << 32 | chunk`, 0 = empty.
    pub chunks: *mut u64,
    /// [`aq_ctl_cells`]`(nbuckets)` counter cells.
    pub ctl: *mut u32,
    /// Bucket width (an `f32` bit pattern for real weights).
    pub delta: u32,
    /// Ring buckets, a power of two.
    pub nbuckets: u32,
    pub cap_bits: u32,
    pub chunk_bits: u32,
    /// Largest candidate kept ([`NO_CUTOFF`]: none).
    pub cutoff: u32,
    /// A vertex whose distance bounds the useful candidates (`u32::MAX`: none).
    pub target: u32,
    pub source: u32,
    /// Nonzero: real (`f32`) distances.
    pub real: u32,
}

// The layout the PTX entry points expect, and the marks every parameter block carries (see
// `types`): the graph, six addresses, eight words.
const _: () = assert!(core::mem::size_of::<AsyncArgs>() == 40 + 6 * 8 + 8 * 4);
#[cfg(all(feature = "cuda", not(target_arch = "nvptx64")))]
// SAFETY: `#[repr(C)]`, `Copy`, only integers and addresses, the layout checked above.
unsafe impl cudarc::driver::DeviceRepr for AsyncArgs {}
// SAFETY: raw device addresses, dereferenced only by kernels (the crate's contract).
unsafe impl Send for AsyncArgs {}
// SAFETY: as above.
unsafe impl Sync for AsyncArgs {}

/// A group of threads that takes work together: a warp on the GPU (32 lanes, shuffles and
/// ballots), one thread on the CPU. Every method is called by all lanes at once.
pub trait Team {
    /// This thread's lane.
    fn lane(&self) -> u32;
    /// Lanes.
    fn width(&self) -> u32;
    /// Bit `i` set where lane `i`'s `p` holds.
    unsafe fn ballot(&self, p: bool) -> u32;
    /// Lane `src`'s `x`.
    unsafe fn bcast(&self, x: u64, src: u32) -> u64;
    /// The sum of every lane's `x`, in every lane.
    unsafe fn sum(&self, x: u64) -> u64;
    /// Order the lanes' memory operations (a warp sync).
    unsafe fn sync(&self);
    /// Wait a little before looking for work again (`round`: how many times in a row).
    unsafe fn idle(&self, round: u32);
    /// Wait for a cell another team is about to write or empty ([`Team::idle`]; the GPU gives
    /// up after seconds).
    unsafe fn stuck(&self, round: u32) {
        self.idle(round)
    }
}

/// The CPU's team: one thread.
pub struct Solo;

impl Team for Solo {
    fn lane(&self) -> u32 {
        0
    }
    fn width(&self) -> u32 {
        1
    }
    unsafe fn ballot(&self, p: bool) -> u32 {
        p as u32
    }
    unsafe fn bcast(&self, x: u64, _: u32) -> u64 {
        x
    }
    unsafe fn sum(&self, x: u64) -> u64 {
        x
    }
    unsafe fn sync(&self) {}
    unsafe fn idle(&self, round: u32) {
        #[cfg(not(target_arch = "nvptx64"))]
        if round > 16 {
            // Other workers may share this core (tests run many at once): let them run.
            std::thread::yield_now();
            return;
        }
        let _ = round;
        core::hint::spin_loop();
    }
}

/// The GPU's team: a full warp.
#[cfg(target_arch = "nvptx64")]
pub struct Warp;

#[cfg(target_arch = "nvptx64")]
impl Team for Warp {
    fn lane(&self) -> u32 {
        // SAFETY: reads a special register.
        unsafe { crate::warp::lane_id() }
    }
    fn width(&self) -> u32 {
        32
    }
    unsafe fn ballot(&self, p: bool) -> u32 {
        crate::warp::ballot(crate::warp::FULL_WARP, p)
    }
    unsafe fn bcast(&self, x: u64, src: u32) -> u64 {
        crate::warp::broadcast_u64(x, src)
    }
    unsafe fn sum(&self, x: u64) -> u64 {
        crate::warp::warp_fold(x, |p, q| p + q)
    }
    unsafe fn sync(&self) {
        crate::warp::warp_sync()
    }
    unsafe fn idle(&self, round: u32) {
        crate::warp::nanosleep(64u32 << round.min(7))
    }
    unsafe fn stuck(&self, round: u32) {
        // About 4 s of waiting for a cell that a running team writes within microseconds: a
        // broken protocol, not a slow run. Abort the launch (the host gets a launch failure)
        // instead of holding the GPU forever.
        if round > 1 << 22 {
            core::arch::nvptx::trap();
        }
        self.idle(round)
    }
}

/// Acquire-release fence over the device (the GPU) or the process (the CPU).
#[inline(always)]
unsafe fn fence() {
    #[cfg(target_arch = "nvptx64")]
    crate::warp::fence_gpu();
    #[cfg(not(target_arch = "nvptx64"))]
    core::sync::atomic::fence(core::sync::atomic::Ordering::SeqCst);
}

/// A counter cell as last published.
#[inline(always)]
unsafe fn ld(c: *mut u32) -> u32 {
    #[cfg(target_arch = "nvptx64")]
    {
        core::ptr::read_volatile(c)
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        AtomicU32::from_ptr(c).load(Relaxed)
    }
}

#[inline(always)]
unsafe fn cas(c: *mut u32, old: u32, new: u32) -> bool {
    AtomicU32::from_ptr(c).compare_exchange(old, new, Relaxed, Relaxed).is_ok()
}

#[inline(always)]
unsafe fn add(c: *mut u32, x: u32) -> u32 {
    AtomicU32::from_ptr(c).fetch_add(x, Relaxed)
}

impl AsyncArgs {
    #[inline(always)]
    unsafe fn head(&self, b: u32) -> *mut u32 {
        self.ctl.add(b as usize * AQ_LINE)
    }
    /// Items pushed and not finished, as a 64-bit cell (a line of its own: 8-byte aligned).
    #[inline(always)]
    unsafe fn pending(&self) -> *mut u64 {
        self.ctl.add(self.nbuckets as usize * AQ_LINE) as *mut u64
    }
    #[inline(always)]
    unsafe fn cur(&self) -> *mut u32 {
        self.ctl.add((self.nbuckets as usize + 1) * AQ_LINE)
    }
    #[inline(always)]
    unsafe fn chunk_head(&self) -> *mut u32 {
        self.ctl.add((self.nbuckets as usize + 2) * AQ_LINE)
    }
    #[inline(always)]
    unsafe fn slot(&self, b: u32, i: u32) -> *mut u32 {
        let mask = (1u32 << self.cap_bits) - 1;
        self.slots.add(((b as usize) << self.cap_bits) | (i & mask) as usize)
    }
    #[inline(always)]
    unsafe fn chunk(&self, i: u32) -> *mut u64 {
        self.chunks.add((i & ((1u32 << self.chunk_bits) - 1)) as usize)
    }

    /// The logical bucket of distance `d`.
    #[inline(always)]
    fn bucket_of(&self, d: u32) -> u32 {
        if self.real != 0 {
            ((f32::from_bits(d) / f32::from_bits(self.delta)) as u32).min(u32::MAX - AQ_BUCKETS)
        } else {
            (d / self.delta).min(u32::MAX - AQ_BUCKETS)
        }
    }

    /// The largest useful candidate now: the cutoff, or the target's distance if lower (a
    /// candidate above it cannot lead to the target; one equal to it is kept, so every vertex
    /// as near as the target is exact).
    #[inline(always)]
    unsafe fn bound(&self) -> u32 {
        if self.target == u32::MAX {
            return self.cutoff;
        }
        let t = dist_of(load_packed(self.dist, self.target));
        if t == INF {
            self.cutoff
        } else {
            t.min(self.cutoff)
        }
    }
}

/// Reset the worklist and put `source` in it (after the distances' init): a grid-stride pass
/// over the counter cells; thread 0 writes the source's item and flag.
pub unsafe fn seed(a: &AsyncArgs, tid: u32, nthreads: u32) {
    let cells = aq_ctl_cells(a.nbuckets) as u32;
    let mut i = tid;
    while i < cells {
        // Bucket 0's tail and `pending` hold the source's item; every other cell starts at 0.
        let one = i == AQ_TAIL as u32 || i == a.nbuckets * AQ_LINE as u32;
        *a.ctl.add(i as usize) = one as u32;
        i += nthreads;
    }
    if tid == 0 {
        *a.queued.add(a.source as usize) = 1;
        *a.slot(0, 0) = a.source + 1;
    }
}

/// What a team took: nothing, a hub chunk (its index on the chunk ring) or `k` items of
/// logical bucket `l` from index `start` (`l` travels apart: [`Take::bucket`]).
const NONE: u64 = u64::MAX;
const CHUNK: u64 = 1 << 62;

/// A take: the grab word and the logical bucket it came from.
struct Take {
    grab: u64,
    bucket: u32,
}

/// Claim work (the team's leader): a chunk of a split hub if any, else up to a warp's worth of
/// items of the lowest non-empty bucket from `cur` on.
///
/// `cur` moves past a bucket only when it is empty *and* none of the items taken from it is
/// still being expanded (its `busy` count is 0), because those expansions push into it. A rule
/// on emptiness alone let `cur` run ahead whenever the low buckets' items were all in flight:
/// one vertex pushed beyond the window (into its last bucket) then moved the whole window
/// there, every later push was clamped into that one bucket, and NY's work went from 1.4 to
/// 10 expansions per vertex.
unsafe fn take(a: &AsyncArgs, width: u32) -> Take {
    let ch = a.chunk_head();
    loop {
        let (h, t) = ld_pair(ch);
        if t == h {
            break;
        }
        if cas(ch, h, h.wrapping_add(1)) {
            return Take { grab: CHUNK | h as u64, bucket: 0 };
        }
    }
    let cur = ld(a.cur());
    // Buckets below `done` were found empty and idle, from `cur` on without a gap.
    let (mut done, mut gap) = (cur, false);
    let mut got = Take { grab: NONE, bucket: 0 };
    'scan: for i in 0..a.nbuckets {
        let l = cur.wrapping_add(i);
        let line = a.head(l & (a.nbuckets - 1));
        loop {
            // Head and busy count in one read, then the tail (which never falls behind a
            // claimed head).
            let hb = ld64(line as *mut u64);
            let (h, busy) = (hb as u32, (hb >> 32) as u32);
            let avail = ld(line.add(AQ_TAIL)).wrapping_sub(h);
            if avail == 0 || avail > 1 << 31 {
                if busy == 0 && !gap {
                    done = l.wrapping_add(1);
                } else {
                    gap = true;
                }
                break;
            }
            gap = true;
            // A warp's worth, or a 64th of a long bucket (up to 8 warps' worth, expanded a warp
            // at a time): fewer compare-and-swaps on the bucket's head when every worker takes
            // from it.
            let k = avail.min((avail >> 6).clamp(width, AQ_GRAB * width));
            let next = ((busy.wrapping_add(k) as u64) << 32) | h.wrapping_add(k) as u64;
            if AtomicU64::from_ptr(line as *mut u64).compare_exchange(hb, next, Relaxed, Relaxed).is_ok() {
                got = Take { grab: ((k as u64) << 32) | h as u64, bucket: l };
                break 'scan;
            }
        }
    }
    if done != cur {
        cas(a.cur(), cur, done);
    }
    got
}

/// A counter cell and the next one, in one 64-bit read (single-copy atomic: both as of one
/// moment).
#[inline(always)]
unsafe fn ld_pair(c: *mut u32) -> (u32, u32) {
    #[cfg(target_arch = "nvptx64")]
    let w = core::ptr::read_volatile(c as *mut u64);
    #[cfg(not(target_arch = "nvptx64"))]
    let w = AtomicU64::from_ptr(c as *mut u64).load(Relaxed);
    // Little-endian: the first cell is the low half.
    (w as u32, (w >> 32) as u32)
}

/// Take the item at index `i` of bucket slot `b` (claimed by this thread): wait for its
/// writer, empty the cell.
unsafe fn take_item<T: Team>(a: &AsyncArgs, t: &T, b: u32, i: u32) -> u32 {
    let c = a.slot(b, i);
    let mut round = 0;
    loop {
        if ld(c) != 0 {
            let x = AtomicU32::from_ptr(c).swap(0, Relaxed);
            if x != 0 {
                return x - 1;
            }
        }
        round += 1;
        t.stuck(round);
    }
}

/// Push `v` into logical bucket `l` from every lane where `fresh` holds (its flag just set,
/// `pending` already counting it). Lanes pushing to the same bucket share one atomic on its
/// tail: the tails of the few open buckets are the worklist's hottest cells (kron 18: millions
/// of pushes into two or three of them).
unsafe fn push_team<T: Team>(a: &AsyncArgs, t: &T, fresh: bool, v: u32, l: u32) {
    let lane = t.lane();
    let mut todo = t.ballot(fresh);
    while todo != 0 {
        let src = todo.trailing_zeros();
        let lb = t.bcast(l as u64, src) as u32;
        let group = todo & t.ballot(l == lb);
        let b = lb & (a.nbuckets - 1);
        let first = if lane == src { add(a.head(b).add(AQ_TAIL), group.count_ones()) } else { 0 };
        let first = t.bcast(first as u64, src) as u32;
        if group & (1 << lane) != 0 {
            let i = first.wrapping_add((group & ((1u32 << lane) - 1)).count_ones());
            let c = a.slot(b, i);
            let mut round = 0;
            // The cell is empty unless the team that claimed the item `2^cap_bits` pushes ago
            // has not yet taken it (see the module doc): wait for it.
            while !cas(c, 0, v + 1) {
                round += 1;
                t.stuck(round);
            }
        }
        todo &= !group;
    }
}

/// The logical bucket a push of distance `d` goes to: its own, within the open window.
#[inline(always)]
unsafe fn window(a: &AsyncArgs, d: u32) -> u32 {
    let cur = ld(a.cur());
    a.bucket_of(d).clamp(cur, cur.saturating_add(a.nbuckets - 1))
}

/// Relax arc `e` from a vertex at distance `du` (lanes with `active`), and push what improved
/// (counted in `pending` beforehand by the caller). Every lane of the team calls it; returns
/// (arcs relaxed, items pushed) by this lane.
#[inline(always)]
unsafe fn offer<T: Team>(a: &AsyncArgs, t: &T, active: bool, du: u32, e: u64, bound: u32) -> (u64, u32) {
    let mut lowered = false;
    let (mut v, mut cand) = (0, 0);
    if active {
        v = a.csr.target(e);
        let w = *a.csr.weights.add(e as usize);
        if let Some(c) = candidate_within(Metric::from_code(a.csr.metric), du, w, bound, a.counters) {
            lowered = relax(a.dist, v, c, 0).improved;
            cand = c;
        }
    }
    let mut pushed = 0;
    if t.ballot(lowered) != 0 {
        // Release: whoever takes `v`'s current item reads the lowered distance; and `pending`
        // (raised before the expansion) counts the push before the push is visible.
        fence();
        let fresh = lowered && AtomicU32::from_ptr(a.queued.add(v as usize)).swap(1, Relaxed) == 0;
        push_team(a, t, fresh, v, if fresh { window(a, cand) } else { 0 });
        pushed = fresh as u32;
    }
    (active as u64, pushed)
}

/// Relax arcs `[s, e)` of a vertex at distance `du` with the whole team, `width` at a time.
unsafe fn expand_together<T: Team>(a: &AsyncArgs, t: &T, du: u32, s: u64, e: u64, bound: u32) -> (u64, u32) {
    let (mut arcs, mut made) = (0, 0);
    let mut base = s;
    while base < e {
        let arc = base + t.lane() as u64;
        let (x, y) = offer(a, t, arc < e, du, arc, bound);
        arcs += x;
        made += y;
        base += t.width() as u64;
    }
    (arcs, made)
}

/// Cut hub `u`'s arcs `[s, e)` into chunks on the chunk ring (the leader reserves, every lane
/// writes; `pending` already counts them), or return 0 when the ring lacks room; else the
/// chunks made.
unsafe fn split<T: Team>(a: &AsyncArgs, t: &T, u: u32, s: u64, e: u64) -> u32 {
    let k = (e - s).div_ceil(AQ_CHUNK) as u32;
    let cap = 1u32 << a.chunk_bits;
    if k > cap {
        return 0;
    }
    let mut at = u32::MAX;
    if t.lane() == 0 {
        let ch = a.chunk_head();
        loop {
            let (h, tail) = ld_pair(ch);
            if tail.wrapping_sub(h) > cap - k {
                break;
            }
            if cas(ch.add(1), tail, tail.wrapping_add(k)) {
                at = tail;
                break;
            }
        }
    }
    let at = t.bcast(at as u64, 0) as u32;
    if at == u32::MAX {
        return 0;
    }
    let item = (u as u64 + 1) << 32;
    let mut j = t.lane();
    while j < k {
        let c = AtomicU64::from_ptr(a.chunk(at.wrapping_add(j)));
        let mut round = 0;
        while c.compare_exchange(0, item | j as u64, Relaxed, Relaxed).is_err() {
            round += 1;
            t.stuck(round);
        }
        j += t.width();
    }
    k
}

/// Claim the expansion of `u` at distance word `w` (read after its item was taken): `Some(d)`,
/// or `None` when that distance has been expanded already (a stale item), when it is beyond
/// `bound`, or when `u` was lowered meanwhile (its new item expands it).
unsafe fn claim(a: &AsyncArgs, u: u32, mut w: u64, bound: u32) -> Option<u32> {
    let cell = AtomicU64::from_ptr(a.dist.add(u as usize));
    loop {
        let d = dist_of(w);
        if iter_of(w) == EXPANDED || d == INF || (bound != NO_CUTOFF && d > bound) {
            return None;
        }
        match cell.compare_exchange(w, pack(d, EXPANDED), Relaxed, Relaxed) {
            Ok(_) => return Some(d),
            // Lowered since the read (a push of it follows or has happened): its new item
            // expands it.
            Err(now) if dist_of(now) < d => return None,
            Err(now) => w = now,
        }
    }
}

/// Take the `k` items a team claimed from logical bucket `l` at index `start` (at most
/// [`AQ_GRAB`] per lane: lane `i` holds items `start + i + j width`), clearing their flags,
/// all before expanding any: a push may have to wait for a claimed item to be taken, and must
/// never wait for its own team (the module doc's argument).
#[inline(always)]
unsafe fn take_items<T: Team>(a: &AsyncArgs, t: &T, l: u32, k: u32, start: u32) -> [u32; AQ_GRAB as usize] {
    let mut us = [u32::MAX; AQ_GRAB as usize];
    for (j, u) in us.iter_mut().enumerate() {
        let i = t.lane() + j as u32 * t.width();
        if i < k {
            *u = take_item(a, t, l & (a.nbuckets - 1), start.wrapping_add(i));
            AtomicU32::from_ptr(a.queued.add(*u as usize)).swap(0, Relaxed);
        }
    }
    // Acquire: the distances read next are at least as low as any that found a flag set.
    fence();
    us
}

/// Expand items taken from logical bucket `l`, one per lane (`u == u32::MAX`: none).
/// An item whose distance now lies in a later bucket of the window (it was pushed beyond the
/// window, into its last bucket) goes back to its own bucket instead: the lazy form of the
/// far pile's split. Hubs are split (or expanded by the team), vertices of more arcs than
/// lanes are expanded by the team one at a time, the rest by their own lane in lock-step
/// rounds. Returns (arcs relaxed, items made) by this lane, and raises `pending` by an upper
/// bound of what the items make first (the caller settles it).
unsafe fn expand_items<T: Team>(a: &AsyncArgs, t: &T, l: u32, u: u32) -> (u64, u32, u64) {
    let lane = t.lane();
    let mine = u != u32::MAX;
    let bound = a.bound();
    let w = if mine { load_packed(a.dist, u) } else { pack(INF, 0) };
    let far = mine && iter_of(w) != EXPANDED && dist_of(w) != INF && a.bucket_of(dist_of(w)) > l;
    let later = if far { window(a, dist_of(w)) } else { l };
    let back = far && later > l;
    let du = if mine && !back { claim(a, u, w, bound) } else { None };
    let (mut s, mut e) = match du {
        Some(_) => a.csr.arcs(u),
        None => (0, 0),
    };
    let du = du.unwrap_or(INF);
    // Every push these items can make, counted before any is visible (the termination rule):
    // at most one per arc (a split makes fewer chunks than arcs), one per item sent back.
    let bound_made = t.sum(e - s + back as u64);
    if lane == 0 && bound_made != 0 {
        AtomicU64::from_ptr(a.pending()).fetch_add(bound_made, Relaxed);
    }
    t.sync();
    let (mut arcs, mut made) = (0u64, 0u32);
    if t.ballot(back) != 0 {
        fence();
        let fresh = back && AtomicU32::from_ptr(a.queued.add(u as usize)).swap(1, Relaxed) == 0;
        push_team(a, t, fresh, u, later);
        made += fresh as u32;
    }
    // Hubs first, then vertices wider than the team, each with every lane.
    let width = t.width() as u64;
    let mut wide = t.ballot(e - s > AQ_SPLIT || (width > 1 && e - s > width));
    while wide != 0 {
        let src = wide.trailing_zeros();
        wide &= wide - 1;
        let (wu, wd) = (t.bcast(u as u64, src) as u32, t.bcast(du as u64, src) as u32);
        let (ws, we) = (t.bcast(s, src), t.bcast(e, src));
        let chunks = if we - ws > AQ_SPLIT { split(a, t, wu, ws, we) } else { 0 };
        if chunks == 0 {
            let (x, y) = expand_together(a, t, wd, ws, we, bound);
            arcs += x;
            made += y;
        } else if lane == 0 {
            made += chunks;
        }
        if lane == src {
            (s, e) = (0, 0);
        }
    }
    // The rest, one arc per lane per round.
    while t.ballot(s < e) != 0 {
        let (x, y) = offer(a, t, s < e, du, s, bound);
        arcs += x;
        made += y;
        s += (s < e) as u64;
    }
    (arcs, made, bound_made)
}

/// Expand chunk `i` of the chunk ring with the whole team; (arcs, items made, `pending`
/// raised) as [`expand_items`].
unsafe fn expand_chunk<T: Team>(a: &AsyncArgs, t: &T, i: u32) -> (u64, u32, u64) {
    let mut item = 0;
    if t.lane() == 0 {
        let c = AtomicU64::from_ptr(a.chunk(i));
        let mut round = 0;
        loop {
            if c.load(Relaxed) != 0 {
                item = c.swap(0, Relaxed);
                if item != 0 {
                    break;
                }
            }
            round += 1;
            t.stuck(round);
        }
    }
    let item = t.bcast(item, 0);
    fence();
    let u = (item >> 32) as u32 - 1;
    let j = item as u32 as u64;
    let du = dist_of(load_packed(a.dist, u));
    let bound = a.bound();
    if du == INF || (bound != NO_CUTOFF && du > bound) {
        return (0, 0, 0);
    }
    let (s, e) = a.csr.arcs(u);
    let cs = s + j * AQ_CHUNK;
    let ce = e.min(cs + AQ_CHUNK);
    if t.lane() == 0 {
        AtomicU64::from_ptr(a.pending()).fetch_add(ce - cs, Relaxed);
    }
    t.sync();
    let (arcs, made) = expand_together(a, t, du, cs, ce, bound);
    (arcs, made, ce - cs)
}

/// One team's work until the worklist is empty and no work is in flight; returns the items it
/// expanded (chunks count one each).
pub unsafe fn worker<T: Team>(a: &AsyncArgs, t: &T) -> u64 {
    let mut items = 0u64;
    let mut arcs = 0u64;
    let mut round = 0;
    // A team that starts after the end (the CPU runs its grid's teams as its pool gets to them)
    // leaves after one read instead of a scan of every bucket.
    if t.bcast(if t.lane() == 0 { ld64(a.pending()) } else { 0 }, 0) == 0 {
        return 0;
    }
    loop {
        let lead = t.lane() == 0;
        let got = if lead { take(a, t.width()) } else { Take { grab: 0, bucket: 0 } };
        let grab = t.bcast(got.grab, 0);
        if grab == NONE {
            let left = t.bcast(if lead { ld64(a.pending()) } else { 0 }, 0);
            if left == 0 {
                break;
            }
            round += 1;
            t.idle(round);
            continue;
        }
        round = 0;
        let (done, (x, made, raised)) = if grab & CHUNK != 0 {
            (1, expand_chunk(a, t, grab as u32))
        } else {
            let (k, start) = ((grab >> 32) as u32, grab as u32);
            let l = t.bcast(got.bucket as u64, 0) as u32;
            let us = take_items(a, t, l, k, start);
            let mut sum = (0, 0, 0);
            for (j, &u) in us.iter().enumerate() {
                if j as u32 * t.width() >= k {
                    break;
                }
                let (x, y, z) = expand_items(a, t, l, u);
                sum = (sum.0 + x, sum.1 + y, sum.2 + z);
            }
            (k, sum)
        };
        arcs += x;
        items += done as u64;
        // Everything these items pushed is visible: give back what was counted and not made,
        // and the items themselves.
        let made = t.sum(made as u64);
        t.sync();
        fence();
        if lead {
            AtomicU64::from_ptr(a.pending()).fetch_sub(raised + done as u64 - made, Relaxed);
            if grab & CHUNK == 0 {
                let busy = a.head(got.bucket & (a.nbuckets - 1)).add(1);
                AtomicU32::from_ptr(busy).fetch_sub(done, Relaxed);
            }
        }
    }
    add_arcs(a.counters, arcs);
    items
}

/// A 64-bit counter as last published.
#[inline(always)]
unsafe fn ld64(c: *mut u64) -> u64 {
    #[cfg(target_arch = "nvptx64")]
    {
        core::ptr::read_volatile(c)
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        AtomicU64::from_ptr(c).load(Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Run one worker (a team of one, as the CPU does) over the CSR of `arcs` on `n` vertices
    /// from vertex 0 with rings of exactly `2^cap_bits` cells; the distances.
    fn solo(n: u32, arcs: &[(u32, u32, u32)], cap_bits: u32, chunk_bits: u32) -> Vec<u32> {
        let mut offsets = vec![0u64; n as usize + 1];
        for &(x, _, _) in arcs {
            offsets[x as usize + 1] += 1;
        }
        for v in 0..n as usize {
            offsets[v + 1] += offsets[v];
        }
        let mut sorted = arcs.to_vec();
        sorted.sort_by_key(|a| a.0);
        let targets: Vec<u32> = sorted.iter().map(|a| a.1).collect();
        let weights: Vec<u32> = sorted.iter().map(|a| a.2).collect();
        let nb = AQ_BUCKETS;
        let mut dist: Vec<u64> = (0..n).map(|v| if v == 0 { pack(0, 0) } else { pack(INF, NO_ITER) }).collect();
        let mut counters = Counters::default();
        let mut queued = vec![0u32; n as usize];
        let mut slots = vec![0u32; (nb as usize) << cap_bits];
        let mut chunks = vec![0u64; 1 << chunk_bits];
        let mut ctl = vec![0u32; aq_ctl_cells(nb)];
        let csr = Csr {
            offsets: offsets.as_ptr(),
            targets: targets.as_ptr(),
            weights: weights.as_ptr(),
            n,
            lane_bits: 0,
            metric: Metric::Integer.code(),
            head_mask: HEAD_MASK,
            _pad: 0,
        };
        let a = AsyncArgs {
            csr,
            dist: dist.as_mut_ptr(),
            counters: &mut counters,
            queued: queued.as_mut_ptr(),
            slots: slots.as_mut_ptr(),
            chunks: chunks.as_mut_ptr(),
            ctl: ctl.as_mut_ptr(),
            delta: 7,
            nbuckets: nb,
            cap_bits,
            chunk_bits,
            cutoff: NO_CUTOFF,
            target: u32::MAX,
            source: 0,
            real: 0,
        };
        unsafe {
            seed(&a, 0, 1);
            assert!(worker(&a, &Solo) >= 1);
            assert_eq!(worker(&a, &Solo), 0, "a second worker finds nothing left");
        }
        assert!(queued.iter().all(|&q| q == 0) && slots.iter().all(|&s| s == 0) && chunks.iter().all(|&c| c == 0));
        assert_eq!(ctl[nb as usize * AQ_LINE..][..2], [0, 0], "nothing pending");
        dist.iter().map(|&w| dist_of(w)).collect()
    }

    /// A path 0 -> 1 -> ... -> n-1 of unit weights plus a hub 0 -> every vertex of weight n:
    /// both shapes of the worker (one vertex at a time and split hubs) on one graph.
    #[test]
    fn one_worker_reaches_the_fixpoint() {
        let n = 3000u32;
        let mut arcs: Vec<(u32, u32, u32)> = (0..n - 1).map(|v| (v, v + 1, 1)).collect();
        arcs.extend((2..n).map(|x| (0, x, n)));
        let d = solo(n, &arcs, 12, 4);
        assert!(d.iter().enumerate().all(|(v, &d)| d == v as u32));
    }

    /// A complete graph on a power-of-two vertex count, so the rings hold exactly `n` cells and
    /// wrap many times over, with weights that make most arcs improve once, and grabs of
    /// several items.
    #[test]
    fn full_rings_wrap_without_a_team_waiting_on_itself() {
        let n = 64u32;
        let mut arcs = vec![];
        for x in 0..n {
            for y in 0..n {
                if x != y {
                    arcs.push((x, y, 1000 - 15 * x.min(y) + (x * 7 + y * 3) % 11));
                }
            }
        }
        let d = solo(n, &arcs, 6, 4);
        // Dijkstra, O(n^2).
        let mut best = vec![u32::MAX; n as usize];
        let mut done = vec![false; n as usize];
        best[0] = 0;
        for _ in 0..n {
            let x = (0..n as usize).filter(|&v| !done[v]).min_by_key(|&v| best[v]).unwrap();
            done[x] = true;
            for &(p, q, w) in arcs.iter().filter(|a| a.0 as usize == x) {
                best[q as usize] = best[q as usize].min(best[p as usize] + w);
            }
        }
        assert_eq!(d, best);
    }
}
