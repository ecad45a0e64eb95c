//! The block loop: the frontier strategies' persistent loop run by one block of
//! [`BLOCK_LOOP_THREADS`] threads, with the near queues and every length cell in shared memory.
//! A latency mode for graphs whose frontiers stay tiny.
//!
//! # Why
//! On road graphs the persistent grid loop (`grid::pile_loop`) runs ~1,100-1,700 iterations of a
//! few hundred vertices each (NY), at 5-6 us per iteration. That cost is a chain of dependent
//! round trips to memory, not work: read the queue length and the item, the offsets and the
//! distance, the arc, the atomic min, the push's atomic, then the grid barrier (a fence, an
//! arrival atomic, a spin on the generation). An iteration cannot start before the previous
//! one's pushes are visible, and a hop of the shortest-path tree costs at least one iteration
//! (NY's trees are 784-1,199 arcs deep), so per-iteration latency is the bound.
//!
//! Here the queue items, the lengths and the barrier stay on one SM: an item is read from shared
//! memory with its arc range (loaded by the relaxation that pushed it, while its atomic was in
//! flight), a push is a shared-memory atomic, and the barrier is `bar.sync`. What is left per
//! iteration is the distance and the arc, then the atomic min. Measured (docs/gpu.md, "The
//! block loop"): 2.6 us per iteration of one vertex against the grid loop's 5.2; but one SM's
//! memory pipeline makes wide iterations slower than the grid's, so it pays only where
//! frontiers stay at a few hundred vertices or fewer.
//!
//! # Contract
//! The same as the grid loop's (`PileArgs`, the state in `cells`): the block resumes from the
//! state and the queues in device memory, runs up to `max_iters` iterations, and leaves state,
//! lengths and queues in device memory as the grid loop would, so a trace (one iteration per
//! launch) works and the two loops could take turns. Inside the launch the length cells are
//! mirrored in shared memory (only this block pushes), and a near queue is a *split queue*:
//! entries below [`BLOCK_QUEUE_CAP`] live in shared memory, the rest at the same index of the
//! device queue (which has room for `n`), so no frontier is too big; at exit the shared part is
//! copied down.
//!
//! The iteration is the grid loop's: the same [`pile_step`], push rules
//! ([`crate::split::pushes`]) and control ([`after_iteration`], [`after_split`]), so the
//! distances, iteration and split counts are those of the grid loop. What it does not do:
//! lookup dedupe (stamp only), the hub path (a hub is walked by its virtual warp), edge classes
//! (plain targets), the Workfront <-> Near-Far hybrid; the host refuses those with a typed
//! error. The far-pile split is a block-wide min and scatter (not the stable multisplit: the
//! order of a slot queue does not change any distance).

use core::arch::asm;
use core::sync::atomic::{AtomicU64, Ordering::Relaxed};

use crate::advance::{any_lane, vertex, vwarp_width, Vwarps};
use crate::frontier;
use crate::relax::{add_arcs, candidate_within, count_advances, load_len, load_packed, push, push_within, Relaxation};
use crate::split::*;
use crate::types::*;
use crate::warp::*;

const CAP: usize = BLOCK_QUEUE_CAP as usize;
const WARPS_HERE: u32 = BLOCK_LOOP_THREADS / 32;

/// Shared memory, per near queue (two): the vertices, their arc ranges' starts and their
/// degrees, [`BLOCK_QUEUE_CAP`] each; then a mirror of the `NUM_CELLS` length cells, and one
/// `u64` per warp for block reductions.
const SMEM_STARTS: usize = 0; // u64 units
const SMEM_VERTS: usize = 2 * 2 * CAP; // u32 units from here on
const SMEM_DEGS: usize = SMEM_VERTS + 2 * CAP;
const SMEM_CELLS: usize = SMEM_DEGS + 2 * CAP;
const SMEM_VALS: usize = SMEM_CELLS + NUM_CELLS;
const SMEM_BYTES: usize = SMEM_VALS * 4 + WARPS_HERE as usize * 8;
const _: () = assert!(SMEM_BYTES == 33304 && SMEM_VALS % 2 == 0 && SMEM_STARTS == 0);

core::arch::global_asm!(".shared .align 8 .b8 sssp_block_loop_smem[33304];");

#[inline(always)]
unsafe fn smem() -> *mut u32 {
    let p: u64;
    asm!("cvta.shared.u64 {p}, sssp_block_loop_smem;", p = out(reg64) p);
    p as *mut u32
}

/// A near queue of the launch (`side` = `k mod 2`): entry `i < CAP` is in shared memory with
/// its arc range, so expanding it needs no offsets load; entries past the cap are vertex ids at
/// the same index of the device queue `device`.
#[derive(Clone, Copy)]
struct SplitQueue {
    side: usize,
    device: *mut u32,
}

impl SplitQueue {
    #[inline(always)]
    unsafe fn put(self, i: u32, v: u32, start: u64, end: u64) {
        let i = i as usize;
        if i < CAP {
            let at = self.side * CAP + i;
            *smem().add(SMEM_VERTS + at) = v;
            // Below 2^32: the host refuses the block loop on graphs with that many arcs.
            *smem().add(SMEM_DEGS + at) = (end - start) as u32;
            *(smem() as *mut u64).add(SMEM_STARTS + at) = start;
        } else {
            *self.device.add(i) = v;
        }
    }

    /// The vertex id of entry `i` (for the copy down at exit).
    #[inline(always)]
    unsafe fn vertex_at(self, i: u32) -> u32 {
        *smem().add(SMEM_VERTS + self.side * CAP + i as usize)
    }
}

/// Input entry `i`: (vertex, arc start, arc end, distance to expand with; `INF`: skip).
/// A shared entry carries its range, so its distance and arcs load together; a device one
/// (past the cap, or a slot queue) loads the vertex, then its offsets and distance.
#[inline(always)]
unsafe fn input_entry(a: &AdvanceArgs, shared: Option<usize>, i: u32) -> (u32, u64, u64, u32) {
    match shared {
        Some(side) if (i as usize) < CAP => {
            let at = side * CAP + i as usize;
            let u = *smem().add(SMEM_VERTS + at);
            let start = *(smem() as *mut u64).add(SMEM_STARTS + at);
            let deg = *smem().add(SMEM_DEGS + at);
            let d = dist_of(load_packed(a.dist, u));
            (u, start, start + deg as u64, if is_stale(&a.buckets, d) { INF } else { d })
        }
        _ => {
            let u = *a.input.items.add(i as usize);
            let (start, end, du) = vertex(a, None, u);
            (u, start, end, du)
        }
    }
}

/// What relaxing one arc asks to push: `near` with the head's arc range (loaded while the
/// atomic is in flight, so the next iteration expands it without an offsets load), `far`.
#[derive(Clone, Copy)]
struct Carry {
    v: u32,
    start: u64,
    end: u64,
    near: bool,
    far: bool,
}

const NONE: Carry = Carry { v: 0, start: 0, end: 0, near: false, far: false };

/// Relax arc `e` of `u` at distance `du` (the advance's `relax_arc` for the plain targets,
/// without its read before the atomic: on the latency-bound path an improving relaxation is
/// one round trip shorter, and the head's offsets load overlaps the atomic). Slot pushes happen
/// here; near and far pushes are returned for the warp-aggregated pushes.
#[inline(always)]
unsafe fn relax_carry(a: &AdvanceArgs, u: u32, du: u32, e: u64) -> Carry {
    let v = a.csr.head(u, e);
    let w = *a.csr.weights.add(e as usize);
    let Some(c) = candidate_within(a.csr.metric(), du, w, a.cutoff, a.counters) else {
        return NONE;
    };
    let old = AtomicU64::from_ptr(a.dist.add(v as usize)).fetch_min(pack(c, a.iter), Relaxed);
    let (start, end) = a.csr.arcs(v);
    let r = Relaxation::replacing(old, c, a.iter);
    if !r.improved {
        return NONE;
    }
    let p = pushes(&a.buckets, &r, c, false);
    if let Some(s) = p.slot {
        push_within(a.buckets.slot(s), v, a.buckets.room);
    }
    Carry { v, start, end, near: p.near, far: p.far }
}

/// The block loop (see the module doc). Launched as one block of [`BLOCK_LOOP_THREADS`].
#[inline(always)]
pub unsafe fn pile_block(g: &PileArgs) {
    let t = block_pos().2;
    let state = g.cells.add(CELL_STATE) as *mut PileState;
    let mut st = core::ptr::read_volatile(state);
    // Every length cell lives in shared memory for the launch: near, slot and far pushes are
    // shared-memory atomics (their items still go to device memory, with stores nobody waits
    // for), and the control reads the lengths without a round trip. Only this block pushes while
    // it runs, so the mirror is the truth until it is copied back at exit.
    let cells = smem().add(SMEM_CELLS);
    if (t as usize) < NUM_CELLS {
        *cells.add(t as usize) = load_len(g.cells.add(t as usize));
    }
    let mut p = *g;
    p.cells = cells;
    p.adv.buckets.slot_lens = cells.add(CELL_SLOTS);
    let p = &p;
    let nb = p.adv.buckets.nbuckets;
    block_barrier();
    // Where the current near queue is: device memory on entry (the grid loop's or the init's),
    // a split queue once this launch has produced one.
    let mut x = Block { t, first: st.iters, arcs: 0, vertices: 0, busy: 0 };
    frontier::run(p, &mut st, &mut x);
    let shared_cur = x.shared_cur(&st);
    let Block { arcs, vertices, busy, .. } = x;
    add_arcs(p.adv.counters, arcs);
    if t == 0 {
        count_advances(p.adv.counters, vertices, busy);
    }
    // Leave the queues as the grid loop expects them: the current near queue whole in device
    // memory, and the lengths back in their cells (the state is thread 0's, below).
    if st.done == 0 && shared_cur {
        let k = st.k;
        let len = *cells.add(near_cell(k));
        let q = SplitQueue { side: (k % 2) as usize, device: if k.is_multiple_of(2) { p.near[0] } else { p.near[1] } };
        let mut i = t;
        while i < len.min(BLOCK_QUEUE_CAP) {
            *q.device.add(i as usize) = q.vertex_at(i);
            i += BLOCK_LOOP_THREADS;
        }
    }
    let i = t as usize;
    if i < NUM_CELLS && !(CELL_STATE..CELL_STATE + 12).contains(&i) {
        *g.cells.add(i) = *cells.add(i);
    }
    if t == 0 {
        core::ptr::write_volatile(state, st);
    }
}

/// The one block as the frontier loop's executor: block barriers between phases, the near
/// queues split between shared memory (the first `BLOCK_QUEUE_CAP` items, with their arc
/// ranges) and device memory, every length cell a shared-memory mirror (see [`pile_block`]).
struct Block {
    /// This thread.
    t: u32,
    /// The state's iteration count at launch (see [`Block::shared_cur`]).
    first: u32,
    /// Arcs relaxed, input vertices, and iterations with work, for the counters at exit.
    arcs: u64,
    vertices: u64,
    busy: u64,
}

impl Block {
    /// Whether the current near queue is one this launch split (its head in shared memory);
    /// the queue the launch starts from is in device memory. The near queue is current
    /// (`from_slot == 0`) after the launch's first iteration only if that iteration's step said
    /// [`Next::Iterate`] from the near queue (a split and a slot set `from_slot`), and then this
    /// launch's advance wrote it: so "an iteration has run", read off the state's count. Kept
    /// as a flag it would be one more value live through the loop, which has no register to
    /// spare (64 a thread at 1024 threads; ptxas spills).
    #[inline(always)]
    fn shared_cur(&self, st: &PileState) -> bool {
        st.from_slot == 0 && st.iters != self.first
    }
}

impl frontier::Executor for Block {
    const COMPACTS: bool = false;

    #[inline(always)]
    unsafe fn advance(&mut self, _: &PileArgs, st: &PileState, a: &AdvanceArgs) {
        let t = self.t;
        let nb = a.buckets.nbuckets;
        let shared = if self.shared_cur(st) { Some((st.k % 2) as usize) } else { None };
        let len = load_len(a.input.len);
        let next = SplitQueue { side: ((st.k + 1) % 2) as usize, device: a.output.items };
        if t == 0 {
            // Nobody reads or writes this cell in this iteration: it is the next one's output.
            *a.zero_len = 0;
        }
        self.vertices += len as u64;
        self.busy += (len > 0) as u64;
        let width = vwarp_width(len, BLOCK_LOOP_THREADS);
        let map = Vwarps::of(width, t, BLOCK_LOOP_THREADS);
        let mut i = map.first;
        // Equal trips on every lane of a warp, for the warp-aggregated pushes.
        while any_lane(i < len) {
            let (u, start, end, du) = if i < len { input_entry(a, shared, i) } else { (0, 0, 0, INF) };
            let live = du != INF;
            let trips = crate::advance::warp_max_u64(if live { map.trips(end - start) } else { 0 });
            let mut e = start + map.lane as u64;
            for _ in 0..trips {
                let x = if live && e < end {
                    self.arcs += 1;
                    relax_carry(a, u, du, e)
                } else {
                    NONE
                };
                warp_push_at(a.output.len, x.v, x.near, |at, v| next.put(at, v, x.start, x.end));
                if nb != 0 {
                    push(a.buckets.far, x.v, x.far);
                }
                e += width as u64;
            }
            i += map.groups;
        }
        // Every push of the iteration (the lengths in shared memory, the items in either) is
        // visible to the whole block after this barrier.
        block_barrier();
    }

    #[inline(always)]
    unsafe fn compact(&mut self, _: Queue, _: *mut u32, _: Queue) {
        // The block loop runs stamp dedupe only (the host checks: `block_loop_fits`).
        core::arch::nvptx::trap()
    }

    #[inline(always)]
    unsafe fn least(&mut self, len: u32, value: impl Fn(u32) -> u64 + Sync) -> u64 {
        let mut m = u64::MAX;
        let mut i = self.t;
        while i < len {
            m = m.min(value(i));
            i += BLOCK_LOOP_THREADS;
        }
        block_fold_in(m, u64::min, smem().add(SMEM_VALS) as *mut u64, WARPS_HERE)
    }

    /// A scatter with one atomic per push; the last bin (the far pile, the big one) through
    /// the warp-aggregated push.
    #[inline(always)]
    unsafe fn distribute(
        &mut self,
        len: u32,
        nbins: u32,
        room: u32,
        key: impl Fn(u32) -> u32 + Sync + Copy,
        item: impl Fn(u32) -> u32 + Sync,
        dest: impl Fn(u32) -> Queue + Sync,
    ) {
        let t = self.t;
        if t < nbins {
            *dest(t).len = 0;
        }
        block_barrier();
        let last = nbins - 1;
        let mut i = t;
        // Rounded up to the block so every lane of a warp reaches the warp-aggregated push.
        while i < len.div_ceil(BLOCK_LOOP_THREADS) * BLOCK_LOOP_THREADS {
            let (v, bin) = if i < len { (item(i), key(i)) } else { (0, nbins) };
            if bin < last {
                push_within(dest(bin), v, room);
            }
            push(dest(last), v, bin == last);
            i += BLOCK_LOOP_THREADS;
        }
        block_barrier();
    }

    /// Between block barriers (see the trait). Each vertex found goes to the device queue at
    /// its index and, below the cap, to the shared head with its arc range too: the next
    /// iteration reads the shared head when this launch has run an iteration
    /// ([`Block::shared_cur`]) and the device queue when the gather opens the launch, and both
    /// hold it either way.
    #[inline(always)]
    unsafe fn gather(&mut self, p: &PileArgs, st: &PileState, keep: impl Fn(u32) -> bool + Sync, out: Queue) {
        block_barrier();
        let n = p.adv.csr.n as u64;
        let q = SplitQueue { side: (st.k % 2) as usize, device: out.items };
        let mut v = self.t as u64;
        // Rounded up to the block so every lane of a warp reaches the warp-aggregated push.
        while v < n.next_multiple_of(BLOCK_LOOP_THREADS as u64) {
            warp_push_at(out.len, v as u32, v < n && keep(v as u32), |at, v| {
                *out.items.add(at as usize) = v;
                if at < BLOCK_QUEUE_CAP {
                    let (start, end) = p.adv.csr.arcs(v);
                    q.put(at, v, start, end);
                }
            });
            v += BLOCK_LOOP_THREADS as u64;
        }
        block_barrier();
    }
}
