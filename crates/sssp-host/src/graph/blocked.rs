//! The generators' CSR build: counting passes over the edge list in key order, no atomics, no
//! sort, and for most arcs no random read of the edge list.
//!
//! It replaces [`super::csr_order`] followed by a pass for the weights and one that overwrote
//! each key with its target. On kron:22 with one thread (the 2-core machine) those took 15.7 s:
//! counting degrees with atomics 1.4 s, scattering each key through an atomic cursor per vertex
//! 5.8 s (a lock-prefixed read-modify-write at a random place and a random write per arc; the
//! lock prefix keeps the core from overlapping those misses), the weights 1.6 s and the targets
//! 2.9 s (a random read of the edge list per arc). The order built is the same: every vertex's
//! arcs by key, i.e. forward arcs in input order, then reverse arcs in input order.
//!
//! 1. *Count.* Vertex ids are cut into blocks of `2^shift` consecutive ids (at most
//!    [`MAX_BLOCKS`]), the arcs in key order into chunks. Each chunk counts its arcs per block;
//!    a prefix sum over (block, chunk) gives each chunk a cursor into each block.
//! 2. *Rounds.* A round is a pass of every chunk over its arcs, in key order, that writes those
//!    whose tail is in the round's blocks: `(tail, key)` at the chunk's cursor, into the
//!    targets and weights arrays, so within a block the keys are ascending; and the arc's head
//!    into the targets of the rounds still to come, which are free until then. For the heads
//!    to fit there, a round takes the blocks that hold about half of the arcs left ([`rounds`]);
//!    once a sixteenth or less is left, one last round writes no heads and its blocks read them
//!    back from the edge list. The cost of a round over the arcs it skips (1.5 ns an arc on
//!    kron:22) is what decides that sixteenth: a read back is a cache and TLB miss, about 25 ns.
//! 3. *Blocks.* After its round each block, independently, counts its arcs per vertex (its
//!    offsets), moves its `(key, head)` pairs by vertex into a scratch buffer (stably, so each
//!    vertex's keys stay ascending), and writes the heads as targets and `weight(key)` as
//!    weights in place.
//!
//! The order is the unique stable one, so the result does not depend on the number of threads,
//! chunks, blocks or rounds (the tests build under many plans and compare with `csr_order`).
//!
//! *Keys past 32 bits.* A `(tail, key)` pair lives in a target cell and a weight cell, 32 bits
//! each. A tail is only needed relative to its block (`shift` bits: at most 22, since there are
//! at most [`MAX_BLOCKS`] blocks of 2^32 ids), so the key's bits above its low
//! [`Plan::key_bits`] ride in the target cell above the relative tail: a build of up to
//! 2^(key_bits + 32 - shift) arcs, 2^42 for the largest graphs (kron 28 has 2^33 arcs, kron 29
//! 2^34). A block's scratch holds whole (`u64`) keys; the in-place path groups a vertex's arcs
//! by their high bits before sorting each group's low bits.
//!
//! Memory: the pairs of a round live in the output arrays, so the peak is the CSR, the edge
//! list it is built from, the cursor table (8 bytes per block and chunk) and per thread one
//! block's scratch (8 bytes per arc and 4 per vertex of the block). A block with more arcs than
//! the scratch cap (a hub's, e.g. `star:N`'s) is instead permuted in place (cycle leader, then
//! each segment sorted by key) with its heads read back, which needs no scratch, so all
//! scratch together stays below half a byte per arc.

use std::ops::Range;

use rayon::prelude::*;

use super::sort_segments;
use crate::error::{Error, Result};
use crate::mem;

/// The CSR arrays of a build.
pub(crate) struct Csr {
    /// `n + 1` offsets.
    pub(crate) offsets: Vec<u64>,
    /// The head of each arc.
    pub(crate) targets: Vec<u32>,
    /// The weight of each arc.
    pub(crate) weights: Vec<u32>,
}

/// Most vertex blocks: a round writes up to three streams per block (tails, keys, heads), and
/// of 256, 512, 1024 and 4096 blocks 1024 built kron:22 fastest (one thread; 4096 was 12%
/// slower, 256 8%).
const MAX_BLOCKS: u32 = 1024;

/// Fewest ids per block (log2): on smaller graphs more blocks only make more, smaller tasks.
const MIN_SHIFT: u32 = 10;

/// Fewest arcs per chunk: a chunk's block counts are a row of the cursor table.
const MIN_CHUNK_ARCS: u64 = 1 << 16;

/// Arcs a round's pass filters at a time (see [`scatter`]); their indices are `u16`.
const PIECE: usize = 4096;

/// See [`Plan::last_round`].
const LAST_ROUND: u64 = 16;

/// Most arcs a build takes: far above what fits a host (8 bytes an arc), and within what the
/// pairs' cells hold (module doc: 2^(32 + 32 - shift) with `shift <= 22`).
pub(crate) const MAX_BUILD_ARCS: u64 = 1 << 40;

/// How a build cuts its work; any plan gives the same graph.
#[derive(Clone, Copy, Debug)]
struct Plan {
    /// log2 of the ids per block.
    shift: u32,
    /// Arcs per chunk of step 1.
    chunk: u64,
    /// Largest block finished through a scratch buffer; larger ones are permuted in place.
    scratch_cap: usize,
    /// Once at most `1 / last_round` of the arcs are left, one round without heads ends the
    /// build ([`rounds`]).
    last_round: u64,
    /// Low bits of a key kept in its weight cell (32; tests set fewer so that small graphs
    /// carry high bits in the target cells, as graphs of more than 2^32 arcs do).
    key_bits: u32,
}

impl Plan {
    fn new(n: u32, arcs: u64) -> Plan {
        let id_bits = u32::BITS - n.saturating_sub(1).leading_zeros();
        let shift = id_bits.saturating_sub(MAX_BLOCKS.trailing_zeros()).max(MIN_SHIFT);
        // A few chunks per thread balance the passes; more would only grow the cursor table.
        let threads = rayon::current_num_threads().max(1) as u64;
        let chunk = arcs.div_ceil(4 * threads).max(MIN_CHUNK_ARCS);
        // At most a sixteenth of the arcs in the scratch buffers of all threads together (8
        // bytes each: half a byte per arc).
        let scratch_cap = usize::try_from(arcs / (16 * threads)).unwrap_or(usize::MAX).max(1 << 16);
        Plan { shift, chunk, scratch_cap, last_round: LAST_ROUND, key_bits: 32 }
    }

    /// A target cell's relative tail and a key's high bits, with the weight cell's low bits.
    #[inline(always)]
    fn pack(&self, tail: u32, key: u64) -> (u32, u32) {
        let high = (key >> self.key_bits) as u32;
        ((tail & self.id_mask()) | high << self.shift, (key & self.low_mask()) as u32)
    }

    /// The vertex (relative to its block) and the key of a `(target cell, weight cell)` pair.
    #[inline(always)]
    fn unpack(&self, cell: u32, low: u32) -> (u32, u64) {
        (cell & self.id_mask(), (low as u64) | ((cell >> self.shift) as u64) << self.key_bits)
    }

    /// The high bits of a target cell's key.
    #[inline(always)]
    fn high(&self, cell: u32) -> u32 {
        cell >> self.shift
    }

    #[inline(always)]
    fn id_mask(&self) -> u32 {
        ((1u64 << self.shift) - 1) as u32
    }

    #[inline(always)]
    fn low_mask(&self) -> u64 {
        (1u64 << self.key_bits) - 1
    }

    /// Whether keys below `arcs` fit the cells: their high bits in the `32 - shift` above a
    /// relative tail.
    fn holds(&self, arcs: u64) -> bool {
        self.shift < 32 && self.key_bits <= 32 && (arcs.saturating_sub(1) >> self.key_bits) >> (32 - self.shift) == 0
    }
}

/// The arcs of an edge list: key `a < m` is edge `a` (`src -> dst`), and with `doubled` key
/// `m + a` is its reverse.
#[derive(Clone, Copy)]
struct ArcList<'a> {
    src: &'a [u32],
    dst: &'a [u32],
    arcs: u64,
}

impl ArcList<'_> {
    /// `f(first key, tails, heads)` for the arcs with keys in `keys`, in key order, in pieces
    /// of at most [`PIECE`] consecutive keys (slices of the edge list).
    #[inline]
    fn for_each_piece(&self, keys: Range<u64>, mut f: impl FnMut(u64, &[u32], &[u32])) {
        let m = self.src.len() as u64;
        let forward = keys.start.min(m) as usize..keys.end.min(m) as usize;
        for (i, (t, h)) in
            self.src[forward.clone()].chunks(PIECE).zip(self.dst[forward.clone()].chunks(PIECE)).enumerate()
        {
            f((forward.start + i * PIECE) as u64, t, h);
        }
        let reverse = (keys.start.max(m) - m) as usize..(keys.end.max(m) - m) as usize;
        for (i, (t, h)) in
            self.dst[reverse.clone()].chunks(PIECE).zip(self.src[reverse.clone()].chunks(PIECE)).enumerate()
        {
            f((m as usize + reverse.start + i * PIECE) as u64, t, h);
        }
    }

    /// Head of arc `a`. Written as selects, not a branch: the forward and reverse arcs of a
    /// vertex alternate unpredictably, and a mispredicted branch would end the overlap of the
    /// cache misses that these random reads are.
    #[inline]
    fn head(&self, a: u64) -> u32 {
        let forward = (a as usize) < self.src.len();
        let edge = if forward { a as usize } else { a as usize - self.src.len() };
        let ends = if forward { self.dst } else { self.src };
        ends[edge]
    }

    /// The input edge of arc `a`.
    #[inline]
    fn edge(&self, a: u64) -> usize {
        (a as usize).checked_sub(self.src.len()).unwrap_or(a as usize)
    }
}

/// The CSR of `n` vertices and the edges `src[i] -> dst[i]` (with `doubled`, each edge's
/// reverse too, keyed after all forward arcs), every vertex's arcs in key order, arc weights
/// `weight(input edge)`. Exactly the order of [`super::csr_order`]. Ids must be `< n` (an id
/// out of range panics, it cannot corrupt memory) and there may be at most [`MAX_BUILD_ARCS`]
/// arcs (more is [`Error::InvalidArgument`]). O(n + m) work, parallel; memory as the module
/// docs say, every input-sized allocation fallible.
pub(crate) fn csr_blocked(
    n: u32,
    src: &[u32],
    dst: &[u32],
    doubled: bool,
    weight: impl Fn(usize) -> u32 + Sync,
) -> Result<Csr> {
    let arcs = src.len() as u64 * if doubled { 2 } else { 1 };
    build(n, ArcList { src, dst, arcs }, &weight, Plan::new(n, arcs))
}

fn build(n: u32, list: ArcList, weight: &(impl Fn(usize) -> u32 + Sync), plan: Plan) -> Result<Csr> {
    let arcs = list.arcs;
    if arcs > MAX_BUILD_ARCS || !plan.holds(arcs) {
        return Err(Error::InvalidArgument(format!(
            "{arcs} arcs: the generators' CSR build takes at most {} for {n} vertices",
            MAX_BUILD_ARCS.min(1 << (plan.key_bits + 32 - plan.shift.min(31)))
        )));
    }
    let shift = plan.shift;
    let blocks = ((n as u64).div_ceil(1 << shift) as usize).max(1);
    let chunks: Vec<Range<u64>> =
        (0..arcs.div_ceil(plan.chunk)).map(|c| c * plan.chunk..((c + 1) * plan.chunk).min(arcs)).collect();
    // What this build allocates (the edge list exists already): targets and weights, offsets,
    // the cursor table and block starts, and per thread a block's scratch (keys and heads) and
    // counts.
    let threads = rayon::current_num_threads() as u64;
    let scratch = (plan.scratch_cap as u64).min(arcs).saturating_mul(12).saturating_add(4 << shift);
    mem::check_fits(
        arcs.saturating_mul(8)
            .saturating_add(mem::bytes_of::<u64>(n as usize + 1 + blocks.saturating_mul(chunks.len() + 1)))
            .saturating_add(scratch.saturating_mul(threads)),
    )?;

    // Count: per chunk, the arcs per block; then (block-major) each chunk's first slot in each
    // block.
    let mut cursors = mem::try_vec(blocks * chunks.len(), 0u64)?;
    cursors.par_chunks_mut(blocks).zip(&chunks).for_each(|(count, keys)| {
        list.for_each_piece(keys.clone(), |_, tails, _| {
            for &t in tails {
                count[(t >> shift) as usize] += 1;
            }
        });
    });
    let mut block_start = mem::try_vec(blocks + 1, 0u64)?;
    let mut next = 0u64;
    for (b, start) in block_start[..blocks].iter_mut().enumerate() {
        *start = next;
        for c in 0..chunks.len() {
            next += std::mem::replace(&mut cursors[c * blocks + b], next);
        }
    }
    block_start[blocks] = next;

    let mut targets = mem::try_vec(arcs as usize, 0u32)?;
    let mut weights = mem::try_vec(arcs as usize, 0u32)?;
    let mut offsets = mem::try_vec(n as usize + 1, 0u64)?;
    offsets[n as usize] = arcs;
    for round in rounds(&block_start, plan.last_round) {
        let (lo, hi) = (block_start[round.blocks.start] as usize, block_start[round.blocks.end] as usize);
        // The heads of a round with heads go right after its slots (`rounds` leaves room).
        let with_heads = round.heads && hi + (hi - lo) <= arcs as usize;
        let heads = with_heads.then_some((lo, hi));
        scatter(list, &chunks, &plan, &mut cursors, round.blocks.clone(), &mut targets, &mut weights, heads);
        let (tails, rest) = targets[lo..].split_at_mut(hi - lo);
        let heads = with_heads.then(|| &rest[..hi - lo]);
        let vertices = (round.blocks.start << shift)..((round.blocks.end << shift).min(n as usize));
        let mut parts: Vec<Block> = Vec::new();
        mem::reserve(&mut parts, round.blocks.len())?;
        let (mut tails, mut keys, mut heads, mut offsets) =
            (tails, &mut weights[lo..hi], heads, &mut offsets[vertices]);
        for b in round.blocks.clone() {
            let len = (block_start[b + 1] - block_start[b]) as usize;
            let first = b << shift;
            let ids = (first + (1 << shift)).min(n as usize) - first;
            let (t, tr) = std::mem::take(&mut tails).split_at_mut(len);
            let (k, kr) = std::mem::take(&mut keys).split_at_mut(len);
            let (o, or) = std::mem::take(&mut offsets).split_at_mut(ids);
            let (h, hr) = match heads {
                Some(h) => {
                    let (h, hr) = h.split_at(len);
                    (Some(h), Some(hr))
                }
                None => (None, None),
            };
            (tails, keys, heads, offsets) = (tr, kr, hr, or);
            parts.push(Block { base: block_start[b], tails: t, keys: k, heads: h, offsets: o });
        }
        parts
            .into_par_iter()
            .with_max_len(1)
            .try_for_each_init(Scratch::default, |s, block| block.finish(list, weight, &plan, s))?;
    }
    Ok(Csr { offsets, targets, weights })
}

/// A pass over the edge list for the blocks `blocks.start..blocks.end` of a round.
struct Round {
    blocks: Range<usize>,
    /// Whether the pass also writes each arc's head, into the targets of later rounds (which
    /// are free until then), instead of the blocks reading them back from the edge list.
    heads: bool,
}

/// The rounds of a build: each takes the blocks that fit in half of the arcs left, so that
/// their heads fit in the targets of the arcs after them (and a block that alone holds more
/// than half goes without heads); once at most `1 / last` of the arcs are left, one round
/// without heads finishes them. About `log2(last) + 1` passes over the edge list.
fn rounds(block_start: &[u64], last: u64) -> Vec<Round> {
    let (blocks, arcs) = (block_start.len() - 1, block_start[block_start.len() - 1]);
    let mut out = Vec::new();
    let mut b = 0;
    while b < blocks {
        let left = arcs - block_start[b];
        if left <= arcs / last.max(1) {
            out.push(Round { blocks: b..blocks, heads: false });
            break;
        }
        // The first block that starts past half of what is left ends the round.
        let end = block_start.partition_point(|&s| s <= block_start[b] + left / 2) - 1;
        let end = end.min(blocks);
        if end <= b {
            out.push(Round { blocks: b..b + 1, heads: false });
            b += 1;
        } else {
            out.push(Round { blocks: b..end, heads: true });
            b = end;
        }
    }
    out
}

/// One round's pass: every chunk, in key order, writes `(tail, key)` of its arcs whose tail is
/// in `round`'s blocks at its cursors into `targets` and `weights` ([`Plan::pack`]), and with `heads =
/// Some((first, base))` the arc's head into `targets[base + slot - first]` (`first` is the
/// round's first slot). Each piece of a chunk is first filtered without a branch (whether an
/// arc is in the round is a coin toss in the first rounds): 4% faster than a branch per arc
/// on kron:22 (one thread). The three scattered stores per arc of the round are most of a
/// pass's time (about 3 ns each there, however many blocks: 64 to 1024 made no difference).
#[allow(clippy::too_many_arguments)]
fn scatter(
    list: ArcList,
    chunks: &[Range<u64>],
    plan: &Plan,
    cursors: &mut [u64],
    round: Range<usize>,
    targets: &mut [u32],
    weights: &mut [u32],
    heads: Option<(usize, usize)>,
) {
    let Some(blocks) = cursors.len().checked_div(chunks.len()) else { return };
    let shift = plan.shift;
    let (lo, width) = (round.start, round.len());
    assert_eq!(targets.len(), weights.len());
    let (t_out, k_out) = (Out(targets.as_mut_ptr()), Out(weights.as_mut_ptr()));
    cursors.par_chunks_mut(blocks).zip(chunks).for_each(|(cursor, range)| {
        let mut picked = [0u16; PIECE];
        list.for_each_piece(range.clone(), |first_key, tails, ends| {
            // The arcs of the round, found without a branch, then written without one.
            let mut n = 0;
            for (i, &t) in tails.iter().enumerate() {
                picked[n] = i as u16;
                n += (((t >> shift) as usize).wrapping_sub(lo) < width) as usize;
            }
            for &i in &picked[..n] {
                let t = tails[i as usize];
                let (cell, low) = plan.pack(t, first_key + i as u64);
                let slot = &mut cursor[(t >> shift) as usize];
                let at = *slot as usize;
                *slot += 1;
                // SAFETY: `at` is this chunk's own slot: the cursors of the round's blocks walk
                // the ranges the prefix sum gave them, which hold exactly the arcs counted there
                // (the same reads of the same edges) and tile the round's slots `first..first +
                // len`, all below `targets.len()`; the head's cell `base + at - first` is in
                // `base..base + len`, which the caller keeps within `targets` and apart from the
                // round's slots.
                unsafe {
                    t_out.write(at, cell);
                    k_out.write(at, low);
                    if let Some((first, base)) = heads {
                        t_out.write(base + at - first, ends[i as usize]);
                    }
                }
            }
        });
    });
}

/// A pointer that chunks write through at slots no other chunk writes.
#[derive(Clone, Copy)]
struct Out(*mut u32);

impl Out {
    /// # Safety
    /// `i` is in bounds of the buffer, and no other thread reads or writes index `i`.
    #[inline(always)]
    unsafe fn write(self, i: usize, x: u32) {
        self.0.add(i).write(x)
    }
}

// SAFETY: the writers of `scatter` use disjoint slots of a buffer that outlives them.
unsafe impl Send for Out {}
unsafe impl Sync for Out {}

/// A thread's reusable buffers for finishing blocks.
#[derive(Default)]
struct Scratch {
    /// Per vertex of the block: its arc count, then its next slot.
    next: Vec<u32>,
    /// The block's keys in CSR order.
    keys: Vec<u64>,
    /// The block's heads in CSR order (rounds with heads).
    heads: Vec<u32>,
}

/// One vertex block after its round's pass.
struct Block<'a> {
    /// The CSR slot of its first arc.
    base: u64,
    /// Per arc (in key order): tail relative to the block and the key's high bits
    /// ([`Plan::pack`]), to become the head.
    tails: &'a mut [u32],
    /// Per arc: the key's low bits, to become the weight.
    keys: &'a mut [u32],
    /// Per arc: head, when the round wrote them.
    heads: Option<&'a [u32]>,
    /// Its vertices' offsets.
    offsets: &'a mut [u64],
}

impl Block<'_> {
    fn finish(
        self,
        list: ArcList,
        weight: &(impl Fn(usize) -> u32 + Sync),
        plan: &Plan,
        s: &mut Scratch,
    ) -> Result<()> {
        // Below 2^32 arcs u32 counts and slots fit (the cap is far lower outside tests).
        if self.tails.len() > plan.scratch_cap.min(u32::MAX as usize) {
            return self.finish_in_place(list, weight, plan);
        }
        let (len, mask) = (self.tails.len(), plan.id_mask());
        s.next.clear();
        mem::reserve(&mut s.next, self.offsets.len())?;
        s.next.resize(self.offsets.len(), 0);
        for &t in self.tails.iter() {
            s.next[(t & mask) as usize] += 1;
        }
        let mut at = 0u32;
        for (next, offset) in s.next.iter_mut().zip(self.offsets.iter_mut()) {
            *offset = self.base + at as u64;
            at += std::mem::replace(next, at);
        }
        s.keys.clear();
        mem::reserve(&mut s.keys, len)?;
        s.keys.resize(len, 0);
        match self.heads {
            Some(heads) => {
                s.heads.clear();
                mem::reserve(&mut s.heads, len)?;
                s.heads.resize(len, 0);
                for ((&t, &low), &h) in self.tails.iter().zip(self.keys.iter()).zip(heads) {
                    let (v, a) = plan.unpack(t, low);
                    let next = &mut s.next[v as usize];
                    s.keys[*next as usize] = a;
                    s.heads[*next as usize] = h;
                    *next += 1;
                }
                self.tails.copy_from_slice(&s.heads);
            }
            None => {
                for (&t, &low) in self.tails.iter().zip(self.keys.iter()) {
                    let (v, a) = plan.unpack(t, low);
                    let next = &mut s.next[v as usize];
                    s.keys[*next as usize] = a;
                    *next += 1;
                }
                // Heads in a loop of nothing but loads and stores: each is a random read of the
                // edge list, and only a short loop body lets the core overlap those misses (with
                // the weight's hash in the same loop, finishing the blocks of kron:21 took 3.4 s
                // instead of 1.9 on one thread, when every head was read back).
                for (t, &a) in self.tails.iter_mut().zip(&s.keys) {
                    *t = list.head(a);
                }
            }
        }
        for (w, &a) in self.keys.iter_mut().zip(&s.keys) {
            *w = weight(list.edge(a));
        }
        Ok(())
    }

    /// A block too large for a scratch buffer: move every `(tail, key)` into its vertex's
    /// segment by swaps (each swap settles one arc), sort each segment by key (in parallel
    /// for a hub's; by whole keys where some have high bits: [`sort_by_whole_keys`]), then
    /// turn keys into heads (read back from the edge list) and weights in place, in parallel.
    fn finish_in_place(self, list: ArcList, weight: &(impl Fn(usize) -> u32 + Sync), plan: &Plan) -> Result<()> {
        let (ids, mask) = (self.offsets.len(), plan.id_mask());
        let mut start = mem::try_vec(ids + 1, 0u64)?;
        for &t in self.tails.iter() {
            start[(t & mask) as usize + 1] += 1;
        }
        for v in 0..ids {
            start[v + 1] += start[v];
            self.offsets[v] = self.base + start[v];
        }
        let mut next = mem::try_to_vec(&start[..ids])?;
        for v in 0..ids {
            while next[v] < start[v + 1] {
                let i = next[v] as usize;
                let u = (self.tails[i] & mask) as usize;
                if u == v {
                    next[v] += 1;
                } else {
                    // Segments before `v` are complete, so `u > v` and `next[u]` is in bounds.
                    let j = next[u] as usize;
                    next[u] += 1;
                    self.tails.swap(i, j);
                    self.keys.swap(i, j);
                }
            }
        }
        if self.tails.par_iter().any(|&t| plan.high(t) != 0) {
            sort_by_whole_keys(&start, self.tails, self.keys, plan)?;
        } else {
            sort_segments(&start, self.keys, 0, ids);
        }
        self.tails.par_iter_mut().zip(self.keys.par_iter_mut()).with_min_len(1 << 12).for_each(|(t, w)| {
            let a = plan.unpack(*t, *w).1;
            *t = list.head(a);
            *w = weight(list.edge(a));
        });
        Ok(())
    }
}

/// Segments up to this long are sorted by insertion ([`sort_by_whole_keys`]).
const SHORT_SEGMENT: usize = 32;

/// Sort each vertex's segment `start[v]..start[v + 1]` of `(tails, keys)` pairs by whole key,
/// some keys having high bits (in the target cells, [`Plan::pack`]): a short segment by
/// insertion, a longer one grouped by high bits (counting, then cycle-leader swaps, as the
/// vertices were) and each group's low bits sorted. No scratch beyond one count per value of
/// the high bits, which the in-place path is for.
fn sort_by_whole_keys(start: &[u64], tails: &mut [u32], keys: &mut [u32], plan: &Plan) -> Result<()> {
    let top = tails.par_iter().map(|&t| plan.high(t)).max().unwrap_or(0) as usize;
    let mut group = mem::try_vec(top + 2, 0usize)?;
    let mut next = mem::try_vec(top + 1, 0usize)?;
    for v in 0..start.len() - 1 {
        let (lo, hi) = (start[v] as usize, start[v + 1] as usize);
        let (t, k) = (&mut tails[lo..hi], &mut keys[lo..hi]);
        let whole = |i: usize, t: &[u32], k: &[u32]| plan.unpack(t[i], k[i]).1;
        if t.len() <= SHORT_SEGMENT {
            for i in 1..t.len() {
                let mut j = i;
                while j > 0 && whole(j - 1, t, k) > whole(j, t, k) {
                    t.swap(j - 1, j);
                    k.swap(j - 1, j);
                    j -= 1;
                }
            }
            continue;
        }
        group.fill(0);
        for &c in t.iter() {
            group[plan.high(c) as usize + 1] += 1;
        }
        for g in 0..=top {
            group[g + 1] += group[g];
        }
        next.copy_from_slice(&group[..=top]);
        for g in 0..=top {
            while next[g] < group[g + 1] {
                let i = next[g];
                let h = plan.high(t[i]) as usize;
                if h == g {
                    next[g] += 1;
                } else {
                    // Groups before `g` are complete, so `h > g`.
                    let j = next[h];
                    next[h] += 1;
                    t.swap(i, j);
                    k.swap(i, j);
                }
            }
        }
        for g in 0..=top {
            let part = &mut k[group[g]..group[g + 1]];
            if part.len() as u64 > super::SORT_GRAIN {
                part.par_sort_unstable();
            } else {
                part.sort_unstable();
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{arc_edge, arc_ends, csr_order};
    use crate::rng::Rng;

    /// What the generators built before: `csr_order`, then weights and heads per key.
    fn reference(n: u32, src: &[u32], dst: &[u32], doubled: bool, weight: impl Fn(usize) -> u32) -> Csr {
        let (offsets, keys) = csr_order::<u64>(n, src, dst, doubled).unwrap();
        let m = src.len() as u64;
        Csr {
            offsets,
            targets: keys.iter().map(|&k| arc_ends(k, src, dst).1).collect(),
            weights: keys.iter().map(|&k| weight(arc_edge(k, m))).collect(),
        }
    }

    /// Random edge lists (uniform, or most arcs on a few hubs; `n` not a power of two; some
    /// with no edges) built under many plans, each block finished by scratch or in place: every
    /// plan gives `csr_order`'s graph.
    #[test]
    fn every_plan_gives_the_csr_order() {
        let mut r = Rng::new(30);
        let mut checked = 0;
        for case in 0..40u64 {
            let n = 1 + r.below(3000) as u32;
            let m = if case % 10 == 0 { 0 } else { r.below(20_000) as usize };
            let hubs = case % 3 == 0;
            let id = |r: &mut Rng| {
                if hubs && r.below(4) != 0 {
                    r.below(3.min(n as u64)) as u32
                } else {
                    r.below(n as u64) as u32
                }
            };
            let (src, dst): (Vec<u32>, Vec<u32>) = (0..m).map(|_| (id(&mut r), id(&mut r))).unzip();
            let weight = |e: usize| (e as u32).wrapping_mul(2654435761);
            for doubled in [false, true] {
                let want = reference(n, &src, &dst, doubled, weight);
                let arcs = m as u64 * if doubled { 2 } else { 1 };
                let list = ArcList { src: &src, dst: &dst, arcs };
                let auto = Plan::new(n, arcs);
                // The last four keep only a few low bits of each key in the weight cell, so the
                // rest rides in the target cells as on graphs of more than 2^32 arcs: through
                // the scratch path and the in-place one (hubs, short and long segments).
                let plan = |shift, chunk, scratch_cap, last_round, key_bits| Plan {
                    shift,
                    chunk,
                    scratch_cap,
                    last_round,
                    key_bits,
                };
                let plans = [
                    auto,
                    plan(0, 1000, usize::MAX, 1, 32),
                    plan(3, 777, 0, 4, 32),
                    plan(5, 5000, 300, u64::MAX, 32),
                    plan(2, 64, 1 << 20, 64, 32),
                    plan(31, 1 << 40, 1 << 20, 2, 32),
                    plan(31, 1, 0, 3, 32),
                    plan(0, 1000, usize::MAX, 1, 1),
                    plan(3, 777, 0, 4, 4),
                    plan(5, 5000, 300, u64::MAX, 3),
                    plan(2, 64, 1 << 20, 64, 6),
                ];
                for plan in plans {
                    let got = build(n, list, &weight, plan).unwrap();
                    assert_eq!(got.offsets, want.offsets, "case {case} doubled {doubled} {plan:?}");
                    assert_eq!(got.targets, want.targets, "case {case} doubled {doubled} {plan:?}");
                    assert_eq!(got.weights, want.weights, "case {case} doubled {doubled} {plan:?}");
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, 40 * 2 * 11);
    }

    #[test]
    fn plans_stay_within_bounds() {
        for n in [1, 2, 1000, 1 << 20, (1 << 27) + 5, u32::MAX] {
            let p = Plan::new(n, 32 * n as u64);
            assert!(p.shift < 32 && (n as u64).div_ceil(1 << p.shift) <= MAX_BLOCKS as u64, "{n}: {p:?}");
            assert!(p.chunk >= MIN_CHUNK_ARCS && p.scratch_cap >= 1 << 16);
        }
        // kron 28 and 29 (2^33 and 2^34 arcs) fit the cells with room to spare.
        for (n, arcs) in [(1u32 << 28, 1u64 << 33), (1 << 29, 1 << 34), (u32::MAX, MAX_BUILD_ARCS)] {
            assert!(Plan::new(n, arcs).holds(arcs), "{n} vertices, {arcs} arcs");
        }
        let too_many = ArcList { src: &[], dst: &[], arcs: MAX_BUILD_ARCS + 1 };
        assert!(matches!(build(1, too_many, &|_| 0, Plan::new(1, 0)), Err(Error::InvalidArgument(_))));
        // Keys whose high bits would not fit above the relative tails are refused, not wrapped.
        let ten = ArcList { src: &[], dst: &[], arcs: 10 };
        let narrow = Plan { shift: 31, chunk: 1, scratch_cap: 0, last_round: 1, key_bits: 1 };
        assert!(matches!(build(1, ten, &|_| 0, narrow), Err(Error::InvalidArgument(_))));
    }
}
