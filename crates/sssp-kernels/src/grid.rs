//! GPU-only operators that need the whole grid to cooperate: the device-wide scan (three
//! launches, or two phases and a grid barrier inside a persistent kernel), the multisplit, and
//! the persistent loop of the frontier strategies that composes them with the advance.
//!
//! The CPU engine implements the same contracts with host code (a rayon pool has no shared
//! memory or block barriers to model the block-cooperative parts); the GPU suite checks each
//! against the reference results.
//!
//! Block `b` of a grid of `G` blocks owns the slots `[b*C, (b+1)*C)` of an input of length `L`,
//! `C = L/G` rounded up to a multiple of [`BLOCK`]; every phase uses the same ranges, which is
//! what makes the block-level results (sums, histograms) line up between phases.

use core::sync::atomic::{AtomicU32, Ordering::Relaxed};

use crate::advance;
use crate::dedupe;
use crate::frontier;
use crate::relax::{load_len, push};
use crate::split::*;
use crate::types::*;
use crate::warp::*;

// The tiled advance's shared array (declared in `warp`) holds exactly one `advance::Tile`.
const _: () = assert!(advance::TILE_BYTES == TILE_SMEM_BYTES);

/// The slots of this block.
#[inline(always)]
pub unsafe fn block_range(len: u32) -> (u32, u32) {
    let (b, g, _) = block_pos();
    let per = len.div_ceil(g).div_ceil(BLOCK) * BLOCK;
    let lo = (b * per).min(len);
    (lo, (lo + per).min(len))
}

// ---------------------------------------------------------------------------------------------
// The three-launch device-wide scan (host-driven loops): reduce per block, scan the block sums
// in one block, scan-and-write per block.

/// The scanned value of slot `i`.
#[inline(always)]
unsafe fn scan_value(a: &ScanArgs, i: u32) -> u64 {
    if a.of == ScanOf::Degree as u32 {
        degree(a.offsets, a.lane_bits, *a.input.items.add(i as usize))
    } else {
        dedupe::is_winner(a.input.items, a.table, i) as u64
    }
}

#[inline(always)]
unsafe fn degree(offsets: *const u64, lane_bits: u32, v: u32) -> u64 {
    let r = (v >> lane_bits) as usize;
    *offsets.add(r + 1) - *offsets.add(r)
}

/// Sum of `value(i)` over this block's slots (all threads get it).
#[inline(always)]
unsafe fn block_sum(len: u32, value: impl Fn(u32) -> u64) -> u64 {
    let (lo, hi) = block_range(len);
    let t = block_pos().2;
    let mut sum = 0u64;
    let mut i = lo + t;
    while i < hi {
        sum += value(i);
        i += BLOCK;
    }
    block_fold(sum, |a, b| a + b)
}

/// Exclusive scan of this block's slots starting at `carry`: `write(i, prefix, value)` for each.
#[inline(always)]
unsafe fn block_scan_write(len: u32, mut carry: u64, value: impl Fn(u32) -> u64, write: impl Fn(u32, u64, u64)) {
    let smem = scan_smem();
    let (lo, hi) = block_range(len);
    let t = block_pos().2;
    let mut base = lo;
    while base < hi {
        let i = base + t;
        // hi > base here, so hi - 1 is a valid slot; branch-free so no lane diverges before the
        // block scan's shuffles and barriers.
        let x = select(i < hi, value(i.min(hi - 1)), 0);
        let (excl, total) = block_scan(x, smem);
        if i < hi {
            write(i, carry + excl, x);
        }
        carry += total;
        base += BLOCK;
    }
}

pub unsafe fn scan_reduce(a: &ScanArgs) {
    let s = block_sum(load_len(a.input.len), |i| scan_value(a, i));
    if block_pos().2 == 0 {
        *a.block_sums.add(block_pos().0 as usize) = s;
    }
}

pub unsafe fn scan_block_sums(a: &ScanArgs, nblocks: u32) {
    let smem = scan_smem();
    let t = block_pos().2;
    let mut carry = 0u64;
    let mut base = 0;
    while base < nblocks {
        let i = base + t;
        let x = select(i < nblocks, *a.block_sums.add(i.min(nblocks - 1) as usize), 0);
        let (excl, total) = block_scan(x, smem);
        if i < nblocks {
            *a.block_sums.add(i as usize) = carry + excl;
        }
        carry += total;
        base += BLOCK;
    }
    if t == 0 {
        let len = load_len(a.input.len);
        if a.of == ScanOf::Degree as u32 {
            *a.prefix.add(len as usize) = carry;
        } else {
            *a.output.len = carry as u32;
        }
    }
}

pub unsafe fn scan_write(a: &ScanArgs) {
    let len = load_len(a.input.len);
    let carry = *a.block_sums.add(block_pos().0 as usize);
    block_scan_write(
        len,
        carry,
        |i| scan_value(a, i),
        |i, at, x| {
            if a.of == ScanOf::Degree as u32 {
                *a.prefix.add(i as usize) = at;
            } else if x != 0 {
                *a.output.items.add(at as usize) = *a.input.items.add(i as usize);
            }
        },
    );
}

// ---------------------------------------------------------------------------------------------
// Inside a persistent kernel: the same scan in two phases around one grid barrier. Every block
// sums the block totals below its own instead of a single-block phase (264 values: cheaper than
// a second barrier).

/// Exclusive scan of `value(i)` over `0..len`: `write(i, prefix, value)` for each slot, and
/// `finish(total)` once. Ends with a grid barrier, so every write is visible on return.
#[inline(always)]
pub unsafe fn grid_scan(
    len: u32,
    block_vals: *mut u64,
    bar: &GridBarrier,
    value: impl Fn(u32) -> u64 + Copy,
    write: impl Fn(u32, u64, u64),
    finish: impl Fn(u64),
) {
    let (b, g, t) = block_pos();
    let s = block_sum(len, value);
    if t == 0 {
        *block_vals.add(b as usize) = s;
    }
    bar.wait();
    let (below, total) = sums_below(block_vals, b, g);
    block_scan_write(len, below, value, write);
    if b == 0 && t == 0 {
        finish(total);
    }
    bar.wait();
}

/// (sum of `vals[..b]`, sum of `vals[..g]`), cooperatively by the block.
#[inline(always)]
unsafe fn sums_below(vals: *const u64, b: u32, g: u32) -> (u64, u64) {
    let t = block_pos().2;
    let (mut below, mut all) = (0u64, 0u64);
    let mut i = t;
    while i < g {
        let v = core::ptr::read_volatile(vals.add(i as usize));
        all += v;
        if i < b {
            below += v;
        }
        i += BLOCK;
    }
    (block_fold(below, |x, y| x + y), block_fold(all, |x, y| x + y))
}

// ---------------------------------------------------------------------------------------------
// Multisplit: a stable partition of `len` items into `nbins <= MAX_BINS` bins in one pass over
// the keys plus one scatter (Davidson et al. had to sort for lack of it, §VI). Phase 1: each
// block counts its slots per bin (shared-memory atomics) into `hist[bin * G + block]`. Grid
// barrier. Phase 2: each block's base in bin `j` is the sum of `hist[j * G + b']` over the blocks
// `b' < b`; tiles of BLOCK items are ranked per warp with one ballot per bin, per-warp counts are
// scanned in shared memory, and each item lands at base + warp offset + rank among its warp's
// equal keys: stable, and no item moves twice.

/// Stable multisplit of slots `0..len`: `key(i) < nbins` is the bin of slot `i` (larger: the item
/// is dropped), `item(i)` what is written. Bin `j`'s items go to `dest(j).items[0..]` and its
/// count to `*dest(j).len`; a bin but the last is written up to `room` items (the rest counted,
/// not written: `frontier::Executor::distribute`). Needs the grid co-resident (two grid
/// barriers; ends with one).
#[inline(always)]
pub unsafe fn multisplit(
    len: u32,
    nbins: u32,
    room: u32,
    hist: *mut u32,
    bar: &GridBarrier,
    key: impl Fn(u32) -> u32 + Copy,
    item: impl Fn(u32) -> u32,
    dest: impl Fn(u32) -> Queue,
) {
    let (b, g, t) = block_pos();
    let smem = multisplit_smem();
    let base = smem.add((WARPS * MAX_BINS) as usize);
    let (lo, hi) = block_range(len);
    // Phase 1: this block's histogram.
    if t < MAX_BINS {
        *base.add(t as usize) = 0;
    }
    block_barrier();
    let mut i = lo + t;
    while i < hi {
        let k = key(i);
        if k < nbins {
            AtomicU32::from_ptr(base.add(k as usize)).fetch_add(1, Relaxed);
        }
        i += BLOCK;
    }
    block_barrier();
    if t < nbins {
        *hist.add((t * g + b) as usize) = *base.add(t as usize);
    }
    bar.wait();
    // Phase 2: this block's base per bin (warp w sums bins w, w + WARPS, ...; lanes stride over
    // blocks), then the stable scatter, tile by tile.
    let (warp, lane) = (t / 32, t % 32);
    let mut j = warp;
    while j < nbins {
        let mut s = 0u64;
        let mut bb = lane;
        while bb < b {
            s += core::ptr::read_volatile(hist.add((j * g + bb) as usize)) as u64;
            bb += 32;
        }
        let s = warp_fold(s, |x, y| x + y);
        if lane == 0 {
            *base.add(j as usize) = s as u32;
        }
        j += WARPS;
    }
    block_barrier();
    let mut tile = lo;
    while tile < hi {
        let i = tile + t;
        let k = if i < hi { key(i) } else { nbins };
        // One ballot per bin: lane j keeps the count of bin j in this warp; each lane keeps the
        // mask of lanes that share its key (its rank is the number of them below it).
        let mut mine = 0u32;
        let mut j = 0;
        while j < nbins {
            let m = ballot(FULL_WARP, k == j);
            if lane == j {
                *smem.add((warp * MAX_BINS + j) as usize) = m.count_ones();
            }
            if k == j {
                mine = m;
            }
            j += 1;
        }
        block_barrier();
        // Thread j turns bin j's per-warp counts into offsets and advances the block's base.
        if t < nbins {
            let mut run = *base.add(t as usize);
            for w in 0..WARPS {
                let c = smem.add((w * MAX_BINS + t) as usize);
                let n = *c;
                *c = run;
                run += n;
            }
            *base.add(t as usize) = run;
        }
        block_barrier();
        if k < nbins {
            let rank = (mine & ((1u32 << lane) - 1)).count_ones();
            let at = *smem.add((warp * MAX_BINS + k) as usize) + rank;
            if at < room || k + 1 == nbins {
                *dest(k).items.add(at as usize) = item(i);
            }
        }
        block_barrier();
        tile += BLOCK;
    }
    // The last block's bases, after its own items, are the bins' totals.
    if b == g - 1 && t < nbins {
        *dest(t).len = *base.add(t as usize);
    }
    bar.wait();
}

// ---------------------------------------------------------------------------------------------
// The advance in every balance mode. The tiled modes (cooperative blocks, CTA+Warp+Scan) need
// the block: a shared tile and barriers between the phases that `advance.rs` defines.

/// The tiled advance (Davidson §IV-B): block `b` takes tiles `b, b + G, ...` of [`BLOCK`] input
/// slots; each tile is loaded, placed by one block scan, and expanded (see `advance::Tile`).
/// Inlined into its own entry points only (`sssp_advance_tiles`, `sssp_pile_loop_hubs`): in the
/// plain loops, even as a call never taken, it cost registers and a stack copy of the
/// parameters per iteration, and made NY 1.6x slower (docs/gpu.md, "Traversal modes and hubs").
#[inline(always)]
pub unsafe fn advance_tiles<const C: bool>(a: &AdvanceArgs) {
    let (tid, _) = global_tid();
    let (b, g, t) = block_pos();
    let len = advance::prologue(a, tid);
    let tile = tile_smem() as *mut advance::Tile;
    let mut arcs = 0u64;
    let mut k = b;
    // Every thread of a block runs the same tiles (k is uniform), so the barriers and the
    // block scan are reached by all of them.
    while k < len.div_ceil(BLOCK) {
        let x = advance::tile_load(a, tile, k * BLOCK, len, t);
        let (excl, total) = block_scan(x, scan_smem());
        advance::tile_place(tile, t, x, excl, total);
        block_barrier();
        arcs += advance::tile_expand::<C>(a, tile, t);
        // The next tile overwrites the shared tile.
        block_barrier();
        k += g;
    }
    crate::relax::add_arcs(a.counters, arcs);
}

/// One advance in any balance mode (the tiled ones need the block, the others are plain
/// per-thread bodies); `TILES = false` compiles the plain modes only. `known`: the input's
/// length when the caller knows it (`advance::prologue_of`; the tiled modes read it themselves).
/// Returns the arcs this thread relaxed and has not counted yet (the tiled modes count theirs).
#[inline(always)]
pub unsafe fn advance_any<const TILES: bool, const C: bool, const FILTER: bool>(
    a: &AdvanceArgs,
    known: Option<u32>,
    tid: u32,
    nthreads: u32,
) -> u64 {
    if TILES && Balance::is_tiled(a.balance) {
        advance_tiles::<C>(a);
        0
    } else {
        advance::advance_of::<C, true, FILTER>(a, known, tid, nthreads)
    }
}

/// The exclusive scan of the degrees of `items[..len]` into `prefix` (`len + 1` entries, the
/// total last): the partitioned advance's input, in the loop and in its hub phase.
#[inline(always)]
unsafe fn scan_degrees(
    csr: &Csr,
    items: *const u32,
    len: u32,
    prefix: *mut u64,
    block_vals: *mut u64,
    bar: &GridBarrier,
) {
    grid_scan(
        len,
        block_vals,
        bar,
        |i| degree(csr.offsets, csr.lane_bits as u32, *items.add(i as usize)),
        |i, at, _| *prefix.add(i as usize) = at,
        |total| *prefix.add(len as usize) = total,
    );
}

/// The hub pass after an advance inside the persistent loop (see `advance::hub_pass`): when
/// the advance diverted vertices to the hub queue, scan their degrees into `prefix` and expand
/// them with partition balance over the whole grid. The hub queue's length is stable here
/// (the advance ended at a barrier; only advances push to it), so every thread takes the same
/// branch. Ends with a grid barrier when it ran.
#[inline(always)]
unsafe fn hub_phase<const C: bool>(a: &AdvanceArgs, prefix: *mut u64, block_vals: *mut u64, bar: &GridBarrier) {
    if a.hub.items.is_null() {
        return;
    }
    let len = load_len(a.hub.len);
    if len == 0 {
        return;
    }
    let (tid, nthreads) = global_tid();
    scan_degrees(&a.csr, a.hub.items, len, prefix, block_vals, bar);
    advance::advance::<C>(&advance::hub_pass(a, prefix), tid, nthreads);
    bar.wait();
}

// ---------------------------------------------------------------------------------------------
// The persistent loop of the frontier strategies (Workfront, Near-Far, Bucketing): iterations
// back to back, each: [degree scan] advance, [lookup dedupe], then the shared control step, and
// a far-pile split when a window runs out. State lives in device memory between launches.

/// Min over this grid of `value(i)` for `i < len` (u64::MAX if none); all threads get it.
#[inline(always)]
unsafe fn grid_min(len: u32, block_vals: *mut u64, bar: &GridBarrier, value: impl Fn(u32) -> u64) -> u64 {
    let (b, g, t) = block_pos();
    let (lo, hi) = block_range(len);
    let mut m = u64::MAX;
    let mut i = lo + t;
    while i < hi {
        m = m.min(value(i));
        i += BLOCK;
    }
    let m = block_fold(m, u64::min);
    if t == 0 {
        *block_vals.add(b as usize) = m;
    }
    bar.wait();
    let mut m = u64::MAX;
    let mut i = t;
    while i < g {
        m = m.min(core::ptr::read_volatile(block_vals.add(i as usize)));
        i += BLOCK;
    }
    block_fold(m, u64::min)
}

/// The persistent loop: [`frontier::run`] on the grid. Every thread keeps the same copy of the state (it changes only
/// through `after_iteration` / `after_split`, which read lengths stable until the next grid
/// barrier); thread 0 stores it when the launch stops. Inlined into each loop entry point (a
/// call would put the loop's state on a stack frame). `HUBS = true` adds the hub phase and the
/// tiled advance (`sssp_pile_loop_hubs`); the plain loops compile without them. `SMALL = true`
/// (`sssp_pile_loop_partition`) partitions frontiers of at most [`advance::SMALL_PARTITION`]
/// vertices in each warp, without the degree scan: a one-vertex iteration of partition balance
/// then took 7.5 us on the H100 against 14 with the scan (a virtual-warp one: 5.2). Only the
/// partition loop has that path: compiled into the plain loop, it made the other modes'
/// iterations 1.7 us slower (NY 10%). `C = true` relaxes through the classified targets (the
/// `_classified` entry points, `advance::relax_arc`). `FILTER = true` (the dense loops) makes the
/// thread and virtual-warp advances read a head's distance before its atomic min, as the
/// partitioned one always does: the wide loop runs those balances on dense graphs, where most
/// candidates fail the read (docs/gpu.md, "Dense graphs under thread and virtual-warp balance").
#[inline(always)]
pub unsafe fn pile_loop<const HUBS: bool, const C: bool, const SMALL: bool, const FILTER: bool>(p: &PileArgs) {
    let (tid, nthreads) = global_tid();
    let bar = GridBarrier::in_cells(p.cells);
    let state = p.cells.add(CELL_STATE) as *mut PileState;
    let mut st = core::ptr::read_volatile(state);
    let mut grid = Grid::<HUBS, C, SMALL, FILTER> {
        bar: &bar,
        tid,
        nthreads,
        block_vals: p.block_vals,
        hist: p.hist,
        arcs: 0,
        next_near_len: None,
    };
    // The blocks' push tallies start at zero before the first advance pushes.
    crate::warp::tally_init();
    block_barrier();
    frontier::run(p, &mut st, &mut grid);
    // Every thread leaves the loop together (the control is the same in all), so whole warps
    // fold their counts here.
    crate::relax::add_arcs(p.adv.counters, grid.arcs);
    if tid == 0 {
        core::ptr::write_volatile(state, st);
    }
}

/// The plain loop for the common run ([`PileArgs::is_lean`]: virtual warps, stamp dedupe, no
/// cutoff, hubs, target, hybrid or lanes, integer weights), the options it pins compiled in as
/// constants ([`PileArgs::leaned`]). The plain loop decides them at run time on every
/// iteration, and carries the code of all of them: 4,195 lines of PTX and 205 registers
/// against 1,729 and 110 here. On the H100 that took a one-vertex iteration from 3.18-3.21 to
/// 2.93-2.97 us and NY from 4.75-4.83 to 4.29-4.43 ms (H100, 2026-11-27). The
/// profile before it: every warp ran a control step of 204 instructions each iteration, with
/// branch and instruction-fetch stalls, in a loop of 7,664 SASS instructions.
#[inline(always)]
pub unsafe fn pile_loop_lean(p: &PileArgs) {
    pile_loop::<false, false, false, false>(&p.leaned())
}

/// The persistent grid as the frontier loop's executor: every phase grid-stride over all
/// resident threads, a grid barrier after each. `HUBS`, `C` and `SMALL` as [`pile_loop`]'s.
struct Grid<'b, const HUBS: bool, const C: bool, const SMALL: bool, const FILTER: bool> {
    bar: &'b GridBarrier,
    tid: u32,
    nthreads: u32,
    /// One `u64` per block (reductions, scans) and `MAX_BINS` counts per block (multisplit).
    block_vals: *mut u64,
    hist: *mut u32,
    /// Arcs this thread relaxed in the launch's advances, added to the run's counter when it
    /// ends ([`advance::advance_of`] says why).
    arcs: u64,
    /// The next near queue's length, when the last advance's barrier counted it.
    next_near_len: Option<u32>,
}

impl<const HUBS: bool, const C: bool, const SMALL: bool, const FILTER: bool> frontier::Executor
    for Grid<'_, HUBS, C, SMALL, FILTER>
{
    #[inline(always)]
    unsafe fn advance(&mut self, _: &PileArgs, st: &PileState, a: &AdvanceArgs) {
        let partition = a.balance == Balance::Partition as u32;
        // The input's length: what the control step read, when it read it (a round trip less
        // per iteration), else its cell. The cell is read only where it is needed: hoisted above
        // the test, its load (a system-scope relaxed load) cost every virtual-warp iteration of
        // the plain loop 1.7 us on the H100 (NY 8.8 ms against 8.1).
        let known = st.input_len();
        let len = || known.unwrap_or_else(|| load_len(a.input.len));
        // Only the partition loop's pushes build degree prefixes (`frontier::pushes_build_prefix`
        // says what that asks of the loop): the input has one if the last advance of this
        // launch pushed it (`known`), not when it is a bucket's slot or was gathered.
        let prefixed = SMALL && frontier::pushes_build_prefix(a);
        if prefixed && self.tid == 0 {
            *a.zero_len.add(1) = 0;
        }
        if SMALL && partition && len() <= advance::SMALL_PARTITION {
            self.arcs += advance::advance_small_partition::<C>(a, known, self.tid, self.nthreads);
        } else {
            if partition && !(prefixed && known.is_some()) {
                // The advance's degree prefix, `len + 1` entries.
                scan_degrees(&a.csr, a.input.items, len(), a.scan as *mut u64, self.block_vals, self.bar);
            }
            // The partition loop runs partition balance only: without the other modes' code
            // its registers spill less (with the virtual-warp advance's window bounds compiled
            // in, 84 bytes instead of 56).
            self.arcs += if SMALL {
                advance::advance_of::<C, false, false>(a, known, self.tid, self.nthreads)
            } else {
                advance_any::<HUBS, C, FILTER>(a, known, self.tid, self.nthreads)
            };
        }
        // With stamp dedupe and no hub phase, every push into the output (the next near queue,
        // empty before the advance) was an emit's and tallied, so the barrier counts them and
        // the control step need not read the queue's length: a round trip less per iteration.
        if !HUBS && a.dedupe == Dedupe::Stamp as u32 {
            self.next_near_len = Some(self.bar.wait_counting());
        } else {
            self.next_near_len = None;
            self.bar.wait();
        }
        if HUBS {
            // In the modes with a hub path the degree prefix is free (only partition uses it).
            hub_phase::<C>(a, a.scan as *mut u64, self.block_vals, self.bar);
        }
    }

    #[inline(always)]
    fn next_near_len(&self) -> Option<u32> {
        self.next_near_len
    }

    #[inline(always)]
    unsafe fn compact(&mut self, input: Queue, table: *mut u32, out: Queue) {
        let d = DedupeArgs { input, table, output: out };
        dedupe::mark(&d, self.tid, self.nthreads);
        self.bar.wait();
        // Stable compaction of the winners.
        let pushed = input.items;
        grid_scan(
            load_len(input.len),
            self.block_vals,
            self.bar,
            |i| dedupe::is_winner(pushed, table, i) as u64,
            |i, at, x| {
                if x != 0 {
                    *out.items.add(at as usize) = *pushed.add(i as usize);
                }
            },
            |total| *out.len = total as u32,
        );
    }

    #[inline(always)]
    unsafe fn least(&mut self, len: u32, value: impl Fn(u32) -> u64 + Sync) -> u64 {
        grid_min(len, self.block_vals, self.bar, value)
    }

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
        multisplit(len, nbins, room, self.hist, self.bar, key, item, dest)
    }

    /// A grid barrier (see the trait), a grid-stride over the vertices with warp-aggregated
    /// pushes (the bound rounded up to the warp, so every lane of a warp makes the same trips),
    /// and a grid barrier.
    #[inline(always)]
    unsafe fn gather(&mut self, p: &PileArgs, _: &PileState, keep: impl Fn(u32) -> bool + Sync, out: Queue) {
        self.bar.wait();
        let n = p.adv.csr.n as u64;
        let mut v = self.tid as u64;
        while v < n.next_multiple_of(32) {
            push(out, v as u32, v < n && keep(v as u32));
            v += self.nthreads as u64;
        }
        self.bar.wait();
    }
}

/// The stand-alone multisplit (explicit keys). Launched with a co-resident grid.
pub unsafe fn multisplit_kernel(a: &MultisplitArgs) {
    let bar = GridBarrier::in_cells(a.cells);
    multisplit(
        a.len,
        a.nbins,
        u32::MAX,
        a.hist,
        &bar,
        |i| *a.keys.add(i as usize),
        |i| *a.items.add(i as usize),
        |j| Queue { items: a.out.add(j as usize * a.stride as usize), len: a.out_lens.add(j as usize) },
    );
}
