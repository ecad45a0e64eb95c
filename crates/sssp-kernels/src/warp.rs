//! GPU-only warp, block and grid primitives: the layer every GPU operator body is built on.
//! Nothing here knows about graphs.
//!
//! Warp primitives are LLVM's NVVM intrinsics, not inline `asm!`: LLVM knows these are
//! `convergent` and will never duplicate them into divergent branches or sink them under a
//! condition. Inline asm carries no such attribute; with it, LLVM tail-duplicated a block scan's
//! shuffles and barriers into both arms of an `if`, and the scan deadlocked on the H100.

use core::arch::asm;
use core::arch::nvptx::*;
use core::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};

use crate::types::*;

#[allow(improper_ctypes)]
unsafe extern "C" {
    #[link_name = "llvm.nvvm.activemask"]
    fn nvvm_activemask() -> u32;
    #[link_name = "llvm.nvvm.vote.ballot.sync"]
    fn nvvm_ballot(mask: u32, pred: bool) -> u32;
    #[link_name = "llvm.nvvm.shfl.sync.idx.i32"]
    fn nvvm_shfl_idx(mask: u32, x: u32, lane: u32, clamp: u32) -> u32;
    #[link_name = "llvm.nvvm.shfl.sync.up.i32"]
    fn nvvm_shfl_up(mask: u32, x: u32, delta: u32, clamp: u32) -> u32;
    #[link_name = "llvm.nvvm.shfl.sync.bfly.i32"]
    fn nvvm_shfl_bfly(mask: u32, x: u32, lanemask: u32, clamp: u32) -> u32;
    #[link_name = "llvm.nvvm.read.ptx.sreg.laneid"]
    fn nvvm_laneid() -> u32;
    #[link_name = "llvm.nvvm.barrier.sync"]
    fn nvvm_barrier_sync(id: u32);
    #[link_name = "llvm.nvvm.bar.warp.sync"]
    fn nvvm_warp_sync(mask: u32);
}

/// All 32 lanes.
pub const FULL_WARP: u32 = u32::MAX;

/// Warps per block.
pub const WARPS: u32 = BLOCK / 32;

/// Clamp operand of `shfl.sync` for a full 32-lane segment (idx and bfly modes).
const SHFL_CLAMP: u32 = 31;

/// (global thread index, threads in the grid).
#[inline(always)]
pub unsafe fn global_tid() -> (u32, u32) {
    let tid = _block_idx_x() as u32 * _block_dim_x() as u32 + _thread_idx_x() as u32;
    (tid, _grid_dim_x() as u32 * _block_dim_x() as u32)
}

/// (block index, blocks in the grid, thread index in the block).
#[inline(always)]
pub unsafe fn block_pos() -> (u32, u32, u32) {
    (_block_idx_x() as u32, _grid_dim_x() as u32, _thread_idx_x() as u32)
}

/// Block barrier, the *non-aligned* `barrier.sync 0`. `bar.sync` (what `_syncthreads` emits)
/// is `.aligned`: every lane of a warp must reach the same instruction, so a barrier that LLVM
/// duplicated into two arms of a branch deadlocks. The non-aligned form counts arrivals per
/// barrier id, wherever they come from.
#[inline(always)]
pub unsafe fn block_barrier() {
    nvvm_barrier_sync(0)
}

#[inline(always)]
pub unsafe fn active_mask() -> u32 {
    nvvm_activemask()
}

#[inline(always)]
pub unsafe fn ballot(mask: u32, pred: bool) -> u32 {
    nvvm_ballot(mask, pred)
}

#[inline(always)]
pub unsafe fn lane_id() -> u32 {
    nvvm_laneid()
}

#[inline(always)]
unsafe fn shfl_idx(mask: u32, x: u32, src: u32) -> u32 {
    nvvm_shfl_idx(mask, x, src, SHFL_CLAMP)
}

/// Lane `src`'s `x`, in every lane of a full warp.
#[inline(always)]
pub unsafe fn broadcast(x: u32, src: u32) -> u32 {
    shfl_idx(FULL_WARP, x, src)
}

/// [`broadcast`] of a 64-bit value.
#[inline(always)]
pub unsafe fn broadcast_u64(x: u64, src: u32) -> u64 {
    let lo = shfl_idx(FULL_WARP, x as u32, src);
    let hi = shfl_idx(FULL_WARP, (x >> 32) as u32, src);
    ((hi as u64) << 32) | lo as u64
}

/// A word of the graph's arcs (a target or a weight), read where the caller writes it: an
/// `asm` load is neither sunk into the branch that uses it nor merged with a later one, so it
/// is in flight together with the loads after it. Through the read-only data path
/// (`ld.global.nc`): the arrays do not change while a kernel runs (the edge classes are tagged
/// by a launch of their own).
#[inline(always)]
pub unsafe fn load_arc_word(p: *const u32) -> u32 {
    let w: u32;
    asm!("ld.global.nc.u32 {w}, [{p}];", w = out(reg32) w, p = in(reg64) p, options(readonly, nostack, preserves_flags));
    w
}

/// Reconverge a full warp, ordering its lanes' memory operations (`bar.warp.sync`).
#[inline(always)]
pub unsafe fn warp_sync() {
    nvvm_warp_sync(FULL_WARP)
}

/// Sleep about `ns` nanoseconds (`nanosleep`, sm_70+): a polling warp yields its issue slots
/// and its memory traffic to the warps that have work.
#[inline(always)]
pub unsafe fn nanosleep(ns: u32) {
    asm!("nanosleep.u32 {t};", t = in(reg32) ns);
}

#[inline(always)]
unsafe fn shfl_xor(mask: u32, x: u32, d: u32) -> u32 {
    nvvm_shfl_bfly(mask, x, d, SHFL_CLAMP)
}

/// Full-warp shuffle up (lanes below `d` get their own value back).
#[inline(always)]
unsafe fn shfl_up(x: u32, d: u32) -> u32 {
    nvvm_shfl_up(u32::MAX, x, d, 0)
}

#[inline(always)]
unsafe fn shfl_xor_u64(mask: u32, x: u64, d: u32) -> u64 {
    let lo = shfl_xor(mask, x as u32, d);
    let hi = shfl_xor(mask, (x >> 32) as u32, d);
    ((hi as u64) << 32) | lo as u64
}

/// Warp-aggregated push: one atomic per warp instead of one per pushing thread. Not written
/// as [`warp_push_at`] with a store closure: that changed the code of every advance and loop
/// kernel (registers, branch layout), which were measured and verified as they are.
#[inline(always)]
pub unsafe fn warp_push(q: Queue, v: u32, keep: bool) {
    warp_push_counting::<false>(q, v, keep)
}

/// [`warp_push`] that also adds the warp's pushes to its block's tally ([`tally_smem`]): the
/// advance's pushes into its output queue, which [`GridBarrier::wait_counting`] sums over the
/// grid. The shared add is issued beside the queue's atomic, not after it. (A slot per warp,
/// added to by lane 0 without an atomic, spilled registers in every loop and was slower on
/// roads and paths: H100, 2026-11-27.)
#[inline(always)]
pub unsafe fn warp_push_tallied(q: Queue, v: u32, keep: bool) {
    warp_push_counting::<true>(q, v, keep)
}

/// [`warp_push`], and with `TALLY` [`warp_push_tallied`].
#[inline(always)]
unsafe fn warp_push_counting<const TALLY: bool>(q: Queue, v: u32, keep: bool) {
    let mask = active_mask();
    let votes = ballot(mask, keep);
    if votes == 0 {
        return;
    }
    let lane = lane_id();
    let leader = votes.trailing_zeros();
    let mut base = 0;
    if lane == leader {
        base = AtomicU32::from_ptr(q.len).fetch_add(votes.count_ones(), Relaxed);
        if TALLY {
            asm!("red.shared.add.u32 [sssp_tally_smem], {n};", n = in(reg32) votes.count_ones());
        }
    }
    let base = shfl_idx(mask, base, leader);
    if keep {
        let below = votes & ((1u32 << lane) - 1);
        *q.items.add((base + below.count_ones()) as usize) = v;
    }
}

/// Entries of a warp's push stage ([`PushStage`]): two per lane.
pub const PUSH_STAGE: u32 = 64;

/// A warp's pushes into a near queue whose pushes build its degree prefix
/// (`PileArgs::push_prefix`), staged in shared memory and written out together: the partition
/// loop's advance. Pushed one trip at a time, every improving trip waited for a round trip to
/// read its vertices' degrees and another for the queue's atomic, and the warps of a big
/// iteration queued on that one counter, an atomic per trip with a push. A stage takes a trip's
/// pushes into shared memory; once it holds more than `PUSH_STAGE - 32` (and when the warp's
/// walk ends) [`PushStage::flush`] reads their degrees together, scans them, and takes the
/// slots and the prefix with one 64-bit atomic add: `q.len` is the low half of a `u64` pair
/// whose high half counts the arcs of the queue's vertices so far (`types::near_cell`), so the
/// slots and arc ranges of all flushes come in the same order and the prefix is the exclusive
/// scan of the queue's degrees. Each entry's lane writes its slot's prefix, and lane 0 the one
/// after the run (which the next flush writes as its start, with the same value; the queue's
/// last flush writes `prefix[len]`, the total). The degrees of one queue sum below 2^32 (the
/// host's condition). Every method is called by all 32 lanes together.
pub struct PushStage {
    at: *mut u32,
    n: u32,
}

impl PushStage {
    /// The calling warp's (empty) stage.
    #[inline(always)]
    pub unsafe fn of_warp() -> PushStage {
        let p: u64;
        // Pure: where no push is staged (a kernel without the prefixed path), the address and
        // with it the shared array are dropped.
        asm!("cvta.shared.u64 {p}, sssp_push_smem;", p = out(reg64) p, options(pure, nomem, nostack, preserves_flags));
        PushStage { at: (p as *mut u32).add((_thread_idx_x() as u32 / 32 * PUSH_STAGE) as usize), n: 0 }
    }

    /// Stage `v` where `keep`; flush to `q` when the stage could not take another trip.
    /// `degree(v)`: `v`'s out-degree.
    #[inline(always)]
    pub unsafe fn push(&mut self, q: Queue, prefix: *mut u64, v: u32, keep: bool, degree: impl Fn(u32) -> u32) {
        let votes = ballot(FULL_WARP, keep);
        if votes == 0 {
            return;
        }
        if keep {
            let below = (votes & ((1u32 << lane_id()) - 1)).count_ones();
            *self.at.add((self.n + below) as usize) = v;
        }
        self.n += votes.count_ones();
        if self.n > PUSH_STAGE - 32 {
            self.flush(q, prefix, degree);
        }
    }

    /// Write the staged vertices out (see the type's doc); nothing when the stage is empty.
    #[inline(always)]
    pub unsafe fn flush(&mut self, q: Queue, prefix: *mut u64, degree: impl Fn(u32) -> u32) {
        let n = self.n;
        if n == 0 {
            return;
        }
        // The lanes' stores into the stage, visible to every lane.
        warp_sync();
        let lane = lane_id();
        // Lane `j` takes entries `j`, `32 + j`, ...: every degree is read before any is used.
        const K: usize = (PUSH_STAGE / 32) as usize;
        let mut v = [0u32; K];
        let mut d = [0u32; K];
        for i in 0..K {
            let e = lane + 32 * i as u32;
            if e < n {
                v[i] = *self.at.add(e as usize);
                d[i] = degree(v[i]);
            }
        }
        // Exclusive prefix of each entry's degree over the stage, in entry order.
        let mut excl = [0u32; K];
        let mut sum = 0u32;
        for i in 0..K {
            let incl = warp_scan_u32(d[i]);
            excl[i] = sum + incl - d[i];
            sum += broadcast(incl, 31);
        }
        let mut old = 0u64;
        if lane == 0 {
            old = AtomicU64::from_ptr(q.len as *mut u64).fetch_add(n as u64 | (sum as u64) << 32, Relaxed);
            asm!("red.shared.add.u32 [sssp_tally_smem], {n};", n = in(reg32) n);
        }
        let old = broadcast_u64(old, 0);
        let (slot, arcs) = (old as u32 as usize, old >> 32);
        for i in 0..K {
            let e = lane as usize + 32 * i;
            if (e as u32) < n {
                *q.items.add(slot + e) = v[i];
                *prefix.add(slot + e) = arcs + excl[i] as u64;
            }
        }
        if lane == 0 {
            *prefix.add(slot + n as usize) = arcs + sum as u64;
        }
        // Every lane has read its entries before the next trip overwrites them.
        warp_sync();
        self.n = 0;
    }
}

/// [`warp_push`] onto the queue whose length is `len`, each pushing lane calling `store(slot,
/// v)` with its own slot: the block loop's queues keep their first slots in shared memory and
/// the rest in device memory (`block_loop`).
#[inline(always)]
pub unsafe fn warp_push_at(len: *mut u32, v: u32, keep: bool, store: impl Fn(u32, u32)) {
    let mask = active_mask();
    let votes = ballot(mask, keep);
    if votes == 0 {
        return;
    }
    let lane = lane_id();
    let leader = votes.trailing_zeros();
    let mut base = 0;
    if lane == leader {
        base = AtomicU32::from_ptr(len).fetch_add(votes.count_ones(), Relaxed);
    }
    let base = shfl_idx(mask, base, leader);
    if keep {
        let below = votes & ((1u32 << lane) - 1);
        store(base + below.count_ones(), v);
    }
}

/// `f` folded over the 32 lanes of the warp; every lane gets the result. All 32 lanes must call
/// it (the call sites are reached by whole warps: early exits are per warp, trip counts are
/// equal across a warp, grids are multiples of 32). A butterfly over a partial `activemask`
/// would not be a reduction: lanes whose partners are absent would miss values.
#[inline(always)]
pub unsafe fn warp_fold(x: u64, f: impl Fn(u64, u64) -> u64) -> u64 {
    nvvm_warp_sync(FULL_WARP);
    let mut v = x;
    let mut d = 16;
    while d > 0 {
        v = f(v, shfl_xor_u64(FULL_WARP, v, d));
        d >>= 1;
    }
    v
}

/// Warp-aggregated 64-bit add (one atomic per warp). Whole warps only, see [`warp_fold`].
#[inline(always)]
pub unsafe fn warp_add_u64(cell: *mut u64, x: u64) {
    let s = warp_fold(x, |a, b| a + b);
    if lane_id() == 0 && s != 0 {
        AtomicU64::from_ptr(cell).fetch_add(s, Relaxed);
    }
}

/// Maximum over the warp. Whole warps only, see [`warp_fold`].
#[inline(always)]
pub unsafe fn warp_max_u64(x: u64) -> u64 {
    warp_fold(x, u64::max)
}

/// `if c { x } else { y }` without a branch (values feeding a block scan are selected, not
/// branched on, so no lane diverges before its shuffles and barriers).
#[inline(always)]
pub fn select(c: bool, x: u64, y: u64) -> u64 {
    let m = (c as u64).wrapping_neg();
    (x & m) | (y & !m)
}

// Shared arrays are declared once, at module scope: a `.shared` declaration inside a function's
// inline asm is repeated wherever LLVM inlines the function, and ptxas rejects the duplicates.
// Each block of every kernel gets its own copy; a kernel that never names one does not pay for it.
core::arch::global_asm!(
    ".shared .align 8 .b8 sssp_scan_smem[72];",
    ".shared .align 4 .b8 sssp_ms_smem[1152];",
    ".shared .align 8 .b8 sssp_tile_smem[9232];",
    ".shared .align 4 .b8 sssp_tally_smem[20];",
    ".shared .align 4 .b8 sssp_push_smem[2048];"
);

// `sssp_push_smem`: a `PushStage` per warp of a block.
const _: () = assert!(WARPS * PUSH_STAGE * 4 == 2048);

/// Bytes of `sssp_tile_smem` above: one `advance::Tile` (`grid` checks the two agree).
pub const TILE_SMEM_BYTES: usize = 9232;

/// Shared memory of [`GridBarrier::wait_counting`], five `u32`: the block's pushes into the
/// advance's output since the last count, the count handed to the block's threads, the counts
/// made so far, and thread 0's running total on each of the two counters.
#[inline(always)]
pub unsafe fn tally_smem() -> *mut u32 {
    let p: u64;
    asm!("cvta.shared.u64 {p}, sssp_tally_smem;", p = out(reg64) p);
    p as *mut u32
}

/// Slots of [`tally_smem`].
const TALLY_PUSHES: usize = 0;
const TALLY_COUNT: usize = 1;
const TALLY_MADE: usize = 2;
const TALLY_TOTALS: usize = 3;

/// Zero [`tally_smem`] (thread 0 of each block, before a launch's first push; a block barrier
/// must follow before any push).
#[inline(always)]
pub unsafe fn tally_init() {
    if _thread_idx_x() == 0 {
        let t = tally_smem();
        for i in 0..TALLY_TOTALS + 2 {
            *t.add(i) = 0;
        }
    }
}

/// Shared memory for one block scan or fold: a value per warp, then the block total.
#[inline(always)]
pub unsafe fn scan_smem() -> *mut u64 {
    let p: u64;
    asm!("cvta.shared.u64 {p}, sssp_scan_smem;", p = out(reg64) p);
    p as *mut u64
}

/// Shared memory of the multisplit: per-warp counts (`WARPS x MAX_BINS` u32), then the block's
/// running base per bin (`MAX_BINS` u32).
#[inline(always)]
pub unsafe fn multisplit_smem() -> *mut u32 {
    let p: u64;
    asm!("cvta.shared.u64 {p}, sssp_ms_smem;", p = out(reg64) p);
    p as *mut u32
}

/// Shared memory of the tiled advance modes: [`TILE_SMEM_BYTES`] for one `advance::Tile`
/// (typed by its user, `grid`, so that this bottom layer names no operator).
#[inline(always)]
pub unsafe fn tile_smem() -> *mut u8 {
    let p: u64;
    asm!("cvta.shared.u64 {p}, sssp_tile_smem;", p = out(reg64) p);
    p as *mut u8
}

/// Inclusive scan of one value per lane across the warp. All 32 lanes must call it.
#[inline(always)]
pub unsafe fn warp_scan_u64(x: u64) -> u64 {
    let lane = lane_id();
    let mut incl = x;
    let mut d = 1;
    while d < 32 {
        let lo = shfl_up(incl as u32, d);
        let hi = shfl_up((incl >> 32) as u32, d);
        if lane >= d {
            incl += ((hi as u64) << 32) | lo as u64;
        }
        d <<= 1;
    }
    incl
}

/// [`warp_scan_u64`] of 32-bit values whose sum fits (five shuffles instead of ten).
#[inline(always)]
pub unsafe fn warp_scan_u32(x: u32) -> u32 {
    let lane = lane_id();
    let mut incl = x;
    let mut d = 1;
    while d < 32 {
        let y = shfl_up(incl, d);
        if lane >= d {
            incl += y;
        }
        d <<= 1;
    }
    incl
}

/// Exclusive scan of one value per thread across the block; returns (exclusive prefix, total).
/// All threads of the block must call it.
#[inline(always)]
pub unsafe fn block_scan(x: u64, smem: *mut u64) -> (u64, u64) {
    let lane = lane_id();
    let warp = _thread_idx_x() as u32 / 32;
    let nwarps = _block_dim_x() as u32 / 32;
    let incl = warp_scan_u64(x);
    if lane == 31 {
        *smem.add(warp as usize) = incl;
    }
    block_barrier();
    if _thread_idx_x() == 0 {
        let mut run = 0u64;
        for w in 0..nwarps as usize {
            let t = *smem.add(w);
            *smem.add(w) = run;
            run += t;
        }
        *smem.add(8) = run;
    }
    block_barrier();
    let r = (incl - x + *smem.add(warp as usize), *smem.add(8));
    block_barrier();
    r
}

/// `f` folded over every thread of the block; all get the result. All threads must call it.
#[inline(always)]
pub unsafe fn block_fold(x: u64, f: impl Fn(u64, u64) -> u64 + Copy) -> u64 {
    block_fold_in(x, f, scan_smem(), WARPS)
}

/// [`block_fold`] for a block of `warps` warps, through `warps` values of shared memory at
/// `smem` (the block loop's blocks are 4x the others').
#[inline(always)]
pub unsafe fn block_fold_in(x: u64, f: impl Fn(u64, u64) -> u64 + Copy, smem: *mut u64, warps: u32) -> u64 {
    let w = warp_fold(x, f);
    let warp = _thread_idx_x() as usize / 32;
    if lane_id() == 0 {
        *smem.add(warp) = w;
    }
    block_barrier();
    let mut r = *smem;
    for i in 1..warps as usize {
        r = f(r, *smem.add(i));
    }
    block_barrier();
    r
}

/// GPU-scope acquire-release fence. Rust's `fence(SeqCst)` becomes `fence.sc.sys`, which
/// also orders against the host and other devices and cost several microseconds per grid
/// barrier on the H100 (when [`GridBarrier`] still used fences); the device is enough.
#[inline(always)]
pub unsafe fn fence_gpu() {
    asm!("fence.acq_rel.gpu;");
}

/// A barrier across the whole grid on one counter that only grows within a launch: a block
/// arrives with a release add of 1, and waits until the counter has reached the grid's size
/// times the number of barriers its threads have passed (`target`, kept in a register by every
/// thread). Only thread 0 of each block takes part (after a block barrier, which orders its
/// block's writes before its own operations), so there is no warp-level synchronisation here.
/// Needs every block of the grid resident at once (the host sizes such grids by occupancy).
///
/// Why it is right: each block arrives once per barrier and cannot arrive at the next before
/// passing this one, so the counter reaches `target` only when every block has arrived at the
/// barrier `target` counts. Counts are compared by their wrapping difference, so the `u32`
/// may wrap: a block never runs more than one barrier ahead of the slowest, far inside `2^31`.
/// Every add on the counter is a read-modify-write, so each arrival heads a release sequence
/// that every later value belongs to: the acquire load that ends a block's wait synchronises
/// with every arrival it counted, and after the barrier every block sees every block's writes.
/// Polling is relaxed, then one acquire load (polling with acquire loads was 3-6% slower on kron
/// 16-17: our reading, not measured, is that each acquire invalidates the SM's L1).
///
/// At rest (every launch's start) the counter and the exit count are 0: the last block to
/// leave the launch puts both back ([`Drop`]). It is the last to leave, so every block's
/// thread 0 has finished its last wait (its exit add is an acquire-release add, after it in
/// program order), and nobody reads the counter any more.
///
/// Measured on the H100 (2026-11-27) against
/// the generation barrier it replaced (the last arrival, learning it was last from an
/// acquire-release add's result, reset the counter and bumped a generation word the others
/// polled): the last arrival no longer waits for its add's round trip before anybody can go on.
/// In a CUDA model of a one-vertex iteration on 132 blocks, 1.92-2.18 -> 1.59-1.81 us; with the
/// plain loop's one block per SM, NY 6.40 -> 5.69 ms and a real one-vertex iteration 3.92 us.
pub struct GridBarrier {
    count: *mut u32,
    left: *mut u32,
    target: core::cell::Cell<u32>,
    /// Two `u64` counters of [`GridBarrier::wait_counting`].
    tally: *mut u64,
}

impl GridBarrier {
    /// The barrier whose cells are at [`CELL_BARRIER_COUNT`] and [`CELL_BARRIER_LEFT`], at
    /// rest.
    #[inline(always)]
    pub unsafe fn in_cells(cells: *mut u32) -> Self {
        GridBarrier {
            count: cells.add(CELL_BARRIER_COUNT),
            left: cells.add(CELL_BARRIER_LEFT),
            target: core::cell::Cell::new(0),
            tally: cells.add(CELL_BARRIER_TALLY) as *mut u64,
        }
    }

    /// [`GridBarrier::wait`] at the end of an advance whose every push into its output queue
    /// was tallied in its block ([`warp_push_tallied`]), returning the number of those pushes
    /// over the grid: the output queue's length when it started empty, without the round trip
    /// to read its cell after the barrier.
    ///
    /// Thread 0 of each block adds `1 + (block's pushes << 32)` to a `u64` counter with a
    /// release add and polls it until its low half holds every block's arrival. The counts
    /// alternate between two counters: a block may run one barrier ahead of the slowest (to the
    /// next count), never two, so while a block polls a counter nobody can arrive on it again,
    /// and once its low half is full its value is exact: `arrivals + (pushes << 32)`, with the
    /// arrivals known (the grid's size times the counts made on that counter). Subtracting them
    /// leaves the pushes, carries from the low half included. The count of this barrier is the
    /// difference from the previous total on the same counter. Same release and acquire argument
    /// as [`GridBarrier`]'s; the last block out zeroes both counters with the others.
    #[inline(always)]
    pub unsafe fn wait_counting(&self) -> u32 {
        block_barrier();
        let t = tally_smem();
        if _thread_idx_x() == 0 {
            let made = *t.add(TALLY_MADE);
            *t.add(TALLY_MADE) = made.wrapping_add(1);
            let which = (made & 1) as usize;
            let arrivals = _grid_dim_x() as u64 * ((made >> 1) as u64 + 1);
            let counter = self.tally.add(which);
            let add = 1u64 | ((*t.add(TALLY_PUSHES) as u64) << 32);
            *t.add(TALLY_PUSHES) = 0;
            asm!("red.release.gpu.add.u64 [{p}], {a};", p = in(reg64) counter, a = in(reg64) add);
            let mut v = core::ptr::read_volatile(counter);
            while v as u32 != arrivals as u32 {
                v = core::ptr::read_volatile(counter);
            }
            let _c: u64;
            asm!("ld.acquire.gpu.u64 {c}, [{p}];", c = out(reg64) _c, p = in(reg64) counter);
            let total = (v.wrapping_sub(arrivals) >> 32) as u32;
            *t.add(TALLY_COUNT) = total.wrapping_sub(*t.add(TALLY_TOTALS + which));
            *t.add(TALLY_TOTALS + which) = total;
        }
        block_barrier();
        *t.add(TALLY_COUNT)
    }

    /// Wait until every block of the grid has arrived (the type's doc). Not
    /// [`GridBarrier::wait_counting`] with no pushes, though it could be: that one needs the
    /// block's tally in shared memory (set up by the loop that counts, `tally_init`), a `u64`
    /// counter and its bookkeeping on every arrival. The scans, multisplit and settle phases
    /// that use this one count nothing, and some run in kernels without a tally.
    #[inline(always)]
    pub unsafe fn wait(&self) {
        block_barrier();
        let target = self.target.get().wrapping_add(_grid_dim_x() as u32);
        self.target.set(target);
        if _thread_idx_x() == 0 {
            asm!("red.release.gpu.add.u32 [{p}], 1;", p = in(reg64) self.count);
            while (core::ptr::read_volatile(self.count).wrapping_sub(target) as i32) < 0 {}
            // It reads the counter again: an acquire of every arrival counted.
            let _c: u32;
            asm!("ld.acquire.gpu.u32 {c}, [{p}];", c = out(reg32) _c, p = in(reg64) self.count);
        }
        block_barrier();
    }
}

impl Drop for GridBarrier {
    /// Leave the launch: the last block out puts the cells back at rest (see the type's doc).
    #[inline(always)]
    fn drop(&mut self) {
        // SAFETY: the cells are the engine's (`in_cells`); thread 0 of every block leaves once.
        unsafe {
            if _thread_idx_x() == 0 {
                let left: u32;
                asm!("atom.acq_rel.gpu.add.u32 {o}, [{p}], 1;", o = out(reg32) left, p = in(reg64) self.left);
                if left == _grid_dim_x() as u32 - 1 {
                    core::ptr::write_volatile(self.count, 0);
                    core::ptr::write_volatile(self.tally, 0);
                    core::ptr::write_volatile(self.tally.add(1), 0);
                    core::ptr::write_volatile(self.left, 0);
                }
            }
        }
    }
}
