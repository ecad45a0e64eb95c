//! Resident pieces: many hops per global round, for road networks and meshes.
//!
//! Every frontier strategy advances one hop of the shortest-path tree per grid barrier, so a
//! road query costs its tree's depth (NY: about 1,200 hops) times the chain of one iteration
//! (docs/gpu.md, "Control"). Here the vertices are cut into *pieces* of at most `1 << piece_bits`
//! consecutive ids (road files are local in their input order: 91-93% of NY's arcs stay inside
//! pieces of 2-4k vertices), and a block takes a piece whole: its distances go into shared
//! memory and the block relaxes them to a local fixpoint there, many hops at shared-memory
//! latency with block barriers only, in the manner of subgraph-centric processing (Tian et al.,
//! "From think like a vertex to think like a graph", VLDB 2013) and of SEP-Graph's hybrid of
//! synchronous rounds and asynchronous work inside them (Wang et al., PPoPP 2019). Arcs that
//! leave the piece lower the head's distance in device memory and leave a candidate in the head
//! piece's inbox; one grid barrier ends the round. The number of rounds becomes the number of
//! piece crossings along the tree, not its depth.
//!
//! **Work stays bounded like delta-stepping** (Meyer and Sanders): only vertices below a global
//! threshold `T` are expanded. A round at `T` visits every piece with a pending vertex below
//! `T`; when a round sent nothing below `T` across pieces, every distance below `T` is final
//! and `T` moves to the bucket of the least pending distance anywhere.
//!
//! **State**, per vertex: the distance (device memory, packed as everywhere) and `done`, the
//! distance its arcs were last relaxed from (stored inverted, `!d`, so that zeroed memory means
//! "never"); a vertex is *pending* while its distance is below its `done`. Per piece: `own`, the
//! least pending distance its owner left (inverted), and a two-slot `inbox`, the least candidate
//! sent into it in a round (inverted; round `r` writes slot `(r + 1) & 1` and the owner reads and
//! clears slot `r & 1`, so a slot is never written and read in the same round; the barrier-free
//! kernel uses the first slot as a flag: "something was lowered here"). Control cells:
//! per round, whether anything was sent below `T` and the least pending distance (a ring of
//! three, the slot two rounds ahead cleared by block 0: every block has read a slot before the
//! barrier after next).
//!
//! **Why it is exact**: a piece's local fixpoint leaves no vertex of it pending below `T`; a
//! lowering from outside is an atomic min in device memory plus an inbox candidate, so the
//! owner visits the piece in the next round (below `T`) or knows the candidate when `T` moves;
//! a round that sent nothing below `T` after every visited piece reached its fixpoint leaves
//! nothing pending below `T` anywhere, which is delta-stepping's bucket invariant. Distances
//! only fall, a visit writes its piece's distances back with atomic mins, and every decision
//! after a barrier reads cells nobody writes until every block has read them, so all blocks
//! take the same branch.
//!
//! The bodies ([`take`], [`load`], [`pass`], [`store`], [`next_threshold`]) are plain
//! functions of a piece, a thread index and the thread count; the GPU runs them in one block
//! per piece with shared memory (`gpu::run`, rounds with a grid barrier), the CPU backend in one
//! thread per piece over host vectors (`sssp::strategy::resident`). When every piece has a
//! block of its own, the GPU runs `gpu::run_async` instead: each block keeps its piece in
//! shared memory for the whole run and works whenever it holds a unit of work, with no grid
//! barrier (its protocol is in the doc of `send_async` and `advance`).

use core::sync::atomic::{AtomicU32, Ordering::Relaxed};

use crate::relax::{self, candidate_within, load_packed};
use crate::types::*;

/// The largest piece: `1 << MAX_PIECE_BITS` vertices, whose distances and `done` marks fill
/// 32 KB of a block's shared memory (under the 48 KB a kernel may declare statically).
pub const MAX_PIECE_BITS: u32 = 12;

/// Threads of a block of the resident kernel: four vertices of a full piece each.
pub const RESIDENT_THREADS: u32 = 1024;

/// Control cells (`u32`, after the grid barrier's, which sit at the indices `types` gives):
/// "sent below the threshold" for the round ring.
pub const R_SENT: usize = 16;
/// The least pending distance seen in a round (inverted), ring of three.
pub const R_PMIN: usize = 19;
/// Rounds run, written by block 0 at the end.
pub const R_ROUNDS: usize = 22;
/// Piece visits, summed over blocks.
pub const R_VISITS: usize = 23;
/// Local passes, summed over visits.
pub const R_PASSES: usize = 24;
/// Set when the round limit stopped the run (a bug, reported as an error by the host).
pub const R_LIMIT: usize = 25;
/// The asynchronous kernel's cells: units of work outstanding (set by the host to the number
/// of seeded pieces), the threshold's epoch, the threshold, and "finished".
pub const A_WORK: usize = 26;
pub const A_EPOCH: usize = 27;
pub const A_THR: usize = 28;
pub const A_DONE: usize = 29;
/// Threshold advances of the asynchronous kernel (its "rounds").
pub const A_ADVANCES: usize = 30;
/// Control cells in all.
pub const R_CELLS: usize = 64;
const _: () =
    assert!(R_SENT > CELL_BARRIER_LEFT && A_ADVANCES < CELL_BARRIER_TALLY && CELL_BARRIER_TALLY + 4 <= R_CELLS);

/// The parameter block of the resident kernel.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct ResidentArgs {
    /// The graph (one lane).
    pub csr: Csr,
    /// Packed `(distance, stamp)` per vertex, initialised (sources at 0).
    pub dist: *mut u64,
    /// Per vertex, `!d` for the distance `d` its arcs were last relaxed from (0: never).
    pub done: *mut u32,
    /// Per piece: the least pending distance its owner knows, inverted (0: none). Then two
    /// inbox slots of `pieces` cells each, inverted.
    pub pieces_state: *mut u32,
    /// [`R_CELLS`] control cells, zeroed before a run.
    pub cells: *mut u32,
    pub counters: *mut Counters,
    /// Bucket width (an `f32` bit pattern for real weights).
    pub delta: u32,
    /// Largest candidate kept ([`NO_CUTOFF`]: none).
    pub cutoff: u32,
    /// A vertex whose final distance ends the run ([`NO_TARGET`]: none).
    pub target: u32,
    /// Log2 of the piece size.
    pub piece_bits: u32,
    /// Number of pieces.
    pub pieces: u32,
    /// The piece holding the one source at the first round (`u32::MAX`: the host wrote `own`).
    pub seed_piece: u32,
    /// Rounds after which the run stops with [`R_LIMIT`] set.
    pub max_rounds: u32,
    pub _pad: u32,
}

const _: () = assert!(core::mem::size_of::<ResidentArgs>() == 40 + 5 * 8 + 8 * 4);
#[cfg(all(feature = "cuda", not(target_arch = "nvptx64")))]
// SAFETY: `#[repr(C)]`, `Copy`, only integers and addresses, the layout checked above.
unsafe impl cudarc::driver::DeviceRepr for ResidentArgs {}
// SAFETY: raw device addresses, dereferenced only by kernels (the crate's contract).
unsafe impl Send for ResidentArgs {}
// SAFETY: as above.
unsafe impl Sync for ResidentArgs {}

/// A piece's working copy: its vertices' distances and `done` marks (not inverted), `len`
/// entries each. Shared memory on the GPU, a host vector on the CPU.
#[derive(Clone, Copy)]
pub struct Local {
    pub dist: *mut u32,
    pub done: *mut u32,
}

/// What a visit's pass did, for the caller's loop and counters.
#[derive(Clone, Copy, Default)]
pub struct Pass {
    /// A vertex of the piece was lowered below the threshold: another pass is needed.
    pub again: bool,
    /// Arcs relaxed.
    pub arcs: u64,
}

impl ResidentArgs {
    /// The first vertex of piece `q` and its number of vertices.
    #[inline(always)]
    pub fn span(&self, q: u32) -> (u32, u32) {
        let base = q << self.piece_bits;
        (base, (self.csr.n - base).min(1 << self.piece_bits))
    }

    #[inline(always)]
    unsafe fn cell(&self, i: usize) -> &AtomicU32 {
        AtomicU32::from_ptr(self.cells.add(i))
    }

    #[inline(always)]
    unsafe fn inbox(&self, slot: u32, q: u32) -> &AtomicU32 {
        AtomicU32::from_ptr(self.pieces_state.add(((1 + slot) * self.pieces + q) as usize))
    }
}

/// Before round `r` (block 0, one thread): clear the ring slots round `r + 1` writes.
#[inline(always)]
pub unsafe fn clear_ahead(a: &ResidentArgs, r: u32) {
    let s = ((r + 1) % 3) as usize;
    a.cell(R_SENT + s).store(0, Relaxed);
    a.cell(R_PMIN + s).store(0, Relaxed);
}

/// Round `r`'s look at piece `q` (its owner, one thread): the least pending distance the owner
/// knows, with the candidates sent in the round before (that inbox slot cleared for round
/// `r + 1`'s writers), kept in `own`. Below the threshold, the piece is visited.
#[inline(always)]
pub unsafe fn take(a: &ResidentArgs, q: u32, r: u32) -> u32 {
    let own = AtomicU32::from_ptr(a.pieces_state.add(q as usize));
    let mut m = !own.load(Relaxed);
    let sent = !a.inbox(r & 1, q).swap(0, Relaxed);
    if r == 0 && q == a.seed_piece {
        m = 0;
    }
    if sent < m {
        m = sent;
    }
    own.store(!m, Relaxed);
    m
}

/// A visit's first step: thread `t` of `nt` copies its share of piece `q`'s distances and
/// `done` marks into `l`.
#[inline(always)]
pub unsafe fn load(a: &ResidentArgs, q: u32, l: Local, t: u32, nt: u32) {
    let (base, len) = a.span(q);
    let mut i = t;
    while i < len {
        *l.dist.add(i as usize) = dist_of(load_packed(a.dist, base + i));
        *l.done.add(i as usize) = !*a.done.add((base + i) as usize);
        i += nt;
    }
}

/// One pass of a visit at threshold `thr` in round `r`: thread `t` of `nt` expands each of its
/// vertices of the piece that is pending below `thr`. An arc inside the piece lowers the head
/// in `l` (an atomic min; other threads of the visit read and lower it too); an arc out of it
/// lowers the head in device memory and sends the candidate to the head's piece.
#[inline(always)]
pub unsafe fn pass(
    a: &ResidentArgs,
    q: u32,
    l: Local,
    thr: u32,
    t: u32,
    nt: u32,
    mut send: impl FnMut(u32, u32),
) -> Pass {
    let (base, len) = a.span(q);
    let metric = a.csr.metric();
    let mut out = Pass::default();
    let mut i = t;
    while i < len {
        let d = load_local(l.dist, i);
        if d < *l.done.add(i as usize) && d < thr {
            *l.done.add(i as usize) = d;
            let (start, end) = a.csr.arcs(base + i);
            out.arcs += end - start;
            for e in start..end {
                let h = a.csr.target(e);
                let w = *a.csr.weights.add(e as usize);
                let Some(c) = candidate_within(metric, d, w, a.cutoff, a.counters) else { continue };
                let j = h.wrapping_sub(base);
                if j < len {
                    let old = AtomicU32::from_ptr(l.dist.add(j as usize)).fetch_min(c, Relaxed);
                    out.again |= c < old && c < thr;
                } else {
                    send(h, c);
                }
            }
        }
        i += nt;
    }
    out
}

/// An arc out of the piece in round `r`: lower `h` in device memory and, if that improved it,
/// leave the candidate in its piece's inbox for round `r + 1` and in the round's cells.
#[inline(always)]
pub unsafe fn send_round(a: &ResidentArgs, h: u32, c: u32, thr: u32, r: u32) {
    if !relax::relax_direct(a.dist, h, c, r).improved {
        return;
    }
    a.inbox((r + 1) & 1, h >> a.piece_bits).fetch_max(!c, Relaxed);
    let s = (r % 3) as usize;
    a.cell(R_PMIN + s).fetch_max(!c, Relaxed);
    if c < thr && a.cell(R_SENT + s).load(Relaxed) == 0 {
        a.cell(R_SENT + s).store(1, Relaxed);
    }
}

/// A visit's last step: thread `t` of `nt` writes its share of the piece back (distances by
/// atomic min: other pieces may have lowered them meanwhile, and that lowering is in the
/// inbox; the `done` marks too when `marks`, for a piece that leaves shared memory) and returns
/// the least distance still pending among them ([`INF`]: none).
#[inline(always)]
pub unsafe fn store(a: &ResidentArgs, q: u32, l: Local, r: u32, t: u32, nt: u32, marks: bool) -> u32 {
    let (base, len) = a.span(q);
    let mut pending = INF;
    let mut i = t;
    while i < len {
        let (d, done) = (*l.dist.add(i as usize), *l.done.add(i as usize));
        if d < dist_of(load_packed(a.dist, base + i)) {
            relax::relax_direct(a.dist, base + i, d, r);
        }
        if marks {
            *a.done.add((base + i) as usize) = !done;
        }
        if d < done && d < pending {
            pending = d;
        }
        i += nt;
    }
    pending
}

/// After a visit: its owner keeps the piece's least pending distance `pending` in `own`.
#[inline(always)]
pub unsafe fn keep(a: &ResidentArgs, q: u32, pending: u32) {
    *a.pieces_state.add(q as usize) = !pending;
}

/// A block's (or the CPU's) least pending distance over the pieces it owns, into round `r`'s
/// cell.
#[inline(always)]
pub unsafe fn report(a: &ResidentArgs, r: u32, pending: u32) {
    if pending != INF {
        a.cell(R_PMIN + (r % 3) as usize).fetch_max(!pending, Relaxed);
    }
}

/// What round `r` decided (read after its barrier): `Some(thr)` to run the next round at `thr`,
/// `None` when the run is over (nothing pending, or nothing pending within the cutoff, or the
/// target final).
#[inline(always)]
pub unsafe fn next_threshold(a: &ResidentArgs, r: u32, thr: u32) -> Option<u32> {
    let s = (r % 3) as usize;
    if a.cell(R_SENT + s).load(Relaxed) != 0 {
        return Some(thr);
    }
    // Every distance below `thr` is final. No block writes a distance below `thr` any more,
    // so every block reads the target's the same way.
    if a.target != NO_TARGET && dist_of(load_packed(a.dist, a.target)) < thr {
        return None;
    }
    let pmin = !a.cell(R_PMIN + s).load(Relaxed);
    if pmin == INF || (a.cutoff != NO_CUTOFF && pmin > a.cutoff) {
        return None;
    }
    Some(threshold_above(a.csr.metric(), pmin, a.delta))
}

/// The end of the bucket of width `delta` that holds `d` (for real weights, `d + delta` in
/// `f32`: the buckets of real distances are not aligned, which changes nothing but the work).
#[inline(always)]
pub fn threshold_above(metric: Metric, d: u32, delta: u32) -> u32 {
    match metric {
        Metric::Real => {
            let t = f32::from_bits(d) + f32::from_bits(delta.max(1));
            if t.is_finite() && t.to_bits() > d {
                t.to_bits()
            } else {
                INF
            }
        }
        _ => {
            let delta = delta.max(1) as u64;
            ((d as u64 / delta + 1) * delta).min(INF as u64) as u32
        }
    }
}

/// The asynchronous kernel's first step of an activation: thread `t` of `nt` lowers its share
/// of the piece's working copy to the distances in device memory (lowered there by other
/// pieces' sends).
#[inline(always)]
pub unsafe fn pull(a: &ResidentArgs, q: u32, l: Local, t: u32, nt: u32) {
    let (base, len) = a.span(q);
    let mut i = t;
    while i < len {
        let g = dist_of(load_packed(a.dist, base + i));
        if g < *l.dist.add(i as usize) {
            *l.dist.add(i as usize) = g;
        }
        i += nt;
    }
}

/// A vertex's distance in a piece's working copy, read while other threads lower it.
#[inline(always)]
unsafe fn load_local(p: *mut u32, i: u32) -> u32 {
    AtomicU32::from_ptr(p.add(i as usize)).load(Relaxed)
}

/// The GPU executor: one block of [`RESIDENT_THREADS`] per SM, each owning the pieces
/// `q = block, block + grid, ...`, its working copy in shared memory.
#[cfg(all(target_arch = "nvptx64", not(feature = "twins")))]
pub mod gpu {
    use super::*;
    use crate::warp::{block_barrier, block_fold_in, block_pos, warp_add_u64, GridBarrier};
    use core::arch::asm;

    // Distances, then `done` marks, of one full piece (32 KB); then two words to hand values to
    // the block, the three words of `Any`'s ring, and a `u64` per warp for the block's fold.
    core::arch::global_asm!(".shared .align 16 .b8 sssp_resident_smem[33056];");
    const _: () = assert!(8 << MAX_PIECE_BITS == 32768 && 32768 + 32 + 8 * WARPS_HERE as usize == 33056);
    const WARPS_HERE: u32 = RESIDENT_THREADS / 32;
    const HANDED: usize = 2 << MAX_PIECE_BITS;
    const ANY: usize = HANDED + 2;
    const FOLD_BYTES: usize = 4 * HANDED + 32;

    unsafe fn smem() -> *mut u32 {
        let p: u64;
        asm!("cvta.shared.u64 {p}, sssp_resident_smem;", p = out(reg64) p);
        p as *mut u32
    }

    /// "Did any thread of the block say yes?" with one block barrier: pass `k` raises word
    /// `k % 3` of a ring, everybody reads it after the barrier, and thread 0 clears the word of
    /// pass `k + 2` (last read before this barrier, next raised after the next one).
    struct Any {
        ring: *mut u32,
        k: u32,
    }

    impl Any {
        unsafe fn new(ring: *mut u32) -> Any {
            if block_pos().2 == 0 {
                for i in 0..3 {
                    *ring.add(i) = 0;
                }
            }
            Any { ring, k: 0 }
        }

        unsafe fn any(&mut self, yes: bool) -> bool {
            let w = self.ring.add((self.k % 3) as usize);
            if yes {
                core::ptr::write_volatile(w, 1);
            }
            block_barrier();
            let got = core::ptr::read_volatile(w) != 0;
            if block_pos().2 == 0 {
                core::ptr::write_volatile(self.ring.add(((self.k + 2) % 3) as usize), 0);
            }
            self.k = self.k.wrapping_add(1);
            got
        }
    }

    /// A block's view of its shared memory: the piece's working copy, the words handed from
    /// thread 0 to the block, the fold's slots and the `Any` ring.
    struct Block {
        local: Local,
        handed: *mut u32,
        fold: *mut u64,
        any: Any,
    }

    impl Block {
        unsafe fn new() -> Block {
            let s = smem();
            Block {
                local: Local { dist: s, done: s.add(1 << MAX_PIECE_BITS) },
                handed: s.add(HANDED),
                fold: (s as *mut u8).add(FOLD_BYTES) as *mut u64,
                any: Any::new(s.add(ANY)),
            }
        }

        /// Passes over piece `q` at threshold `thr` until one lowers nothing below it (every
        /// thread of the block); arcs out of the piece go to `send`. The arcs relaxed by this
        /// thread and the passes.
        unsafe fn fixpoint(
            &mut self,
            a: &ResidentArgs,
            q: u32,
            thr: u32,
            send: impl Fn(u32, u32) + Copy,
        ) -> (u64, u32) {
            let t = block_pos().2;
            let (mut arcs, mut passes) = (0, 0);
            loop {
                let p = pass(a, q, self.local, thr, t, RESIDENT_THREADS, send);
                arcs += p.arcs;
                passes += 1;
                if !self.any.any(p.again) {
                    return (arcs, passes);
                }
            }
        }

        /// The least of every thread's `x` (every thread of the block).
        unsafe fn least(&self, x: u32) -> u32 {
            block_fold_in(x as u64, |x, y| x.min(y), self.fold, WARPS_HERE) as u32
        }
    }

    /// The kernel (see the module doc).
    pub unsafe fn run(a: &ResidentArgs) {
        let (b, grid, t) = block_pos();
        let bar = GridBarrier::in_cells(a.cells);
        let mut k = Block::new();
        let (l, handed, nt) = (k.local, k.handed, RESIDENT_THREADS);
        let mut thr = threshold_above(a.csr.metric(), 0, a.delta);
        let (mut r, mut arcs, mut visits, mut passes) = (0u32, 0u64, 0u32, 0u32);
        loop {
            if b == 0 && t == 0 {
                clear_ahead(a, r);
            }
            let mut pending = INF;
            let mut q = b;
            while q < a.pieces {
                if t == 0 {
                    *handed = take(a, q, r);
                }
                block_barrier();
                let mut m = *handed;
                if m < thr {
                    load(a, q, l, t, nt);
                    block_barrier();
                    let (e, p) = k.fixpoint(a, q, thr, |h, c| send_round(a, h, c, thr, r));
                    (arcs, passes) = (arcs + e, passes + p);
                    m = k.least(store(a, q, l, r, t, nt, true));
                    visits += 1;
                    if t == 0 {
                        keep(a, q, m);
                    }
                }
                pending = pending.min(m);
                block_barrier();
                q += grid;
            }
            if t == 0 {
                report(a, r, pending);
            }
            bar.wait();
            let next = next_threshold(a, r, thr);
            r += 1;
            match next {
                Some(x) if r < a.max_rounds => thr = x,
                Some(_) => {
                    if t == 0 {
                        a.cell(R_LIMIT).store(1, Relaxed);
                    }
                    break;
                }
                None => break,
            }
        }
        warp_add_u64(core::ptr::addr_of_mut!((*a.counters).arcs), arcs);
        if t == 0 {
            a.cell(R_VISITS).fetch_add(visits, Relaxed);
            a.cell(R_PASSES).fetch_add(passes, Relaxed);
            if b == 0 {
                a.cell(R_ROUNDS).store(r, Relaxed);
            }
        }
    }

    /// `cells[i]`'s address.
    unsafe fn cell_ptr(a: &ResidentArgs, i: usize) -> *mut u32 {
        a.cells.add(i)
    }

    unsafe fn load_acquire(p: *mut u32) -> u32 {
        let v: u32;
        asm!("ld.acquire.gpu.u32 {v}, [{p}];", v = out(reg32) v, p = in(reg64) p);
        v
    }

    unsafe fn store_release(p: *mut u32, v: u32) {
        asm!("st.release.gpu.u32 [{p}], {v};", p = in(reg64) p, v = in(reg32) v);
    }

    unsafe fn exchange_release(p: *mut u32, v: u32) -> u32 {
        let o: u32;
        asm!("atom.release.gpu.exch.b32 {o}, [{p}], {v};", o = out(reg32) o, p = in(reg64) p, v = in(reg32) v);
        o
    }

    unsafe fn exchange_acquire(p: *mut u32, v: u32) -> u32 {
        let o: u32;
        asm!("atom.acquire.gpu.exch.b32 {o}, [{p}], {v};", o = out(reg32) o, p = in(reg64) p, v = in(reg32) v);
        o
    }

    unsafe fn add_acq_rel(p: *mut u32, v: u32) -> u32 {
        let o: u32;
        asm!("atom.acq_rel.gpu.add.u32 {o}, [{p}], {v};", o = out(reg32) o, p = in(reg64) p, v = in(reg32) v);
        o
    }

    /// An arc out of the piece, asynchronously: lower `h` in device memory and, if that
    /// improved it, raise its piece's inbox flag. A raised flag is a unit of work, counted
    /// before the flag is set (release), so that the count never reads 0 while a lowering is
    /// unseen; a flag that was up already gives the unit back (the sender holds one of its own
    /// meanwhile, so the count cannot pass through 0 here).
    unsafe fn send_async(a: &ResidentArgs, h: u32, c: u32) {
        if !relax::relax_direct(a.dist, h, c, 0).improved {
            return;
        }
        let work = cell_ptr(a, A_WORK);
        AtomicU32::from_ptr(work).fetch_add(1, Relaxed);
        let inbox = a.pieces_state.add((a.pieces + (h >> a.piece_bits)) as usize);
        if exchange_release(inbox, 1) != 0 {
            AtomicU32::from_ptr(work).fetch_sub(1, Relaxed);
        }
    }

    /// The last unit of work was given back: nothing is pending below the threshold anywhere
    /// (every holder gave its unit back after its sends had counted theirs). Thread 0 of the
    /// block that gave it moves the threshold to the bucket of the least pending distance and
    /// hands a unit to every piece pending below it, or ends the run.
    unsafe fn advance(a: &ResidentArgs, thr: u32) {
        let own = |p: u32| !core::ptr::read_volatile(a.pieces_state.add(p as usize));
        let mut m = INF;
        for p in 0..a.pieces {
            m = m.min(own(p));
        }
        let target_final = a.target != NO_TARGET && dist_of(load_packed(a.dist, a.target)) < thr;
        if target_final || m == INF || (a.cutoff != NO_CUTOFF && m > a.cutoff) {
            store_release(cell_ptr(a, A_DONE), 1);
            return;
        }
        let next = threshold_above(a.csr.metric(), m, a.delta);
        let units = (0..a.pieces).filter(|&p| own(p) < next).count() as u32;
        core::ptr::write_volatile(cell_ptr(a, A_WORK), units);
        core::ptr::write_volatile(cell_ptr(a, A_THR), next);
        a.cell(A_ADVANCES).fetch_add(1, Relaxed);
        let epoch = core::ptr::read_volatile(cell_ptr(a, A_EPOCH));
        store_release(cell_ptr(a, A_EPOCH), epoch.wrapping_add(1));
    }

    /// Thread 0 of piece `q`'s block, idle: wait for a unit of work (its inbox flag, or a new
    /// threshold below which it has a pending vertex) or the end. Returns the threshold to work
    /// at, or `None` when the run is over.
    unsafe fn wait(a: &ResidentArgs, q: u32, epoch: &mut u32, thr: u32) -> Option<u32> {
        let inbox = a.pieces_state.add((a.pieces + q) as usize);
        let mut cur = thr;
        loop {
            if core::ptr::read_volatile(cell_ptr(a, A_DONE)) != 0 {
                return None;
            }
            let e = load_acquire(cell_ptr(a, A_EPOCH));
            if e != *epoch {
                *epoch = e;
                cur = core::ptr::read_volatile(cell_ptr(a, A_THR));
                if !core::ptr::read_volatile(a.pieces_state.add(q as usize)) < cur {
                    return Some(cur);
                }
                // Nothing below the new threshold here: keep waiting at it.
                continue;
            }
            if core::ptr::read_volatile(inbox) != 0 && exchange_acquire(inbox, 0) != 0 {
                return Some(cur);
            }
        }
    }

    /// The asynchronous kernel, for a graph of at most one piece per block: each block keeps
    /// its piece in shared memory for the whole run and works whenever it holds a unit of work,
    /// without grid barriers; the threshold moves when the count of units reaches 0 (see
    /// `send_async`, `advance`).
    pub unsafe fn run_async(a: &ResidentArgs) {
        let (q, _, t) = block_pos();
        if q >= a.pieces {
            return;
        }
        let mut k = Block::new();
        let (l, handed, nt) = (k.local, k.handed, RESIDENT_THREADS);
        let mut thr = threshold_above(a.csr.metric(), 0, a.delta);
        let mut epoch = 0u32;
        // The host counted a unit for every seeded piece.
        let mut holding = q == a.seed_piece || !*a.pieces_state.add(q as usize) < thr;
        load(a, q, l, t, nt);
        let (mut arcs, mut visits, mut passes) = (0u64, 0u32, 0u32);
        loop {
            if holding {
                block_barrier();
                pull(a, q, l, t, nt);
                block_barrier();
                let (e, p) = k.fixpoint(a, q, thr, |h, c| send_async(a, h, c));
                (arcs, passes) = (arcs + e, passes + p);
                let m = k.least(store(a, q, l, 0, t, nt, false));
                visits += 1;
                if t == 0 {
                    *a.pieces_state.add(q as usize) = !m;
                    if add_acq_rel(cell_ptr(a, A_WORK), u32::MAX) == 1 {
                        advance(a, thr);
                    }
                }
            }
            // Two words: a threshold may be INF (the last bucket of real distances).
            if t == 0 {
                let next = wait(a, q, &mut epoch, thr);
                *handed = next.is_some() as u32;
                *handed.add(1) = next.unwrap_or(thr);
            }
            block_barrier();
            let (go, next) = (*handed != 0, *handed.add(1));
            block_barrier();
            if !go {
                break;
            }
            thr = next;
            holding = true;
        }
        warp_add_u64(core::ptr::addr_of_mut!((*a.counters).arcs), arcs);
        if t == 0 {
            a.cell(R_VISITS).fetch_add(visits, Relaxed);
            a.cell(R_PASSES).fetch_add(passes, Relaxed);
            if q == 0 {
                a.cell(R_ROUNDS).store(core::ptr::read_volatile(cell_ptr(a, A_ADVANCES)) + 1, Relaxed);
            }
        }
    }
}
