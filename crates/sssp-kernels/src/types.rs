//! Plain `#[repr(C)]` types and constants shared by the kernels and the host.
//!
//! Parameter blocks are passed to kernels *by value* (a PTX `.param` struct). They hold raw
//! addresses: device addresses on the GPU, host addresses on the CPU backend. Sizes are checked
//! at compile time at the bottom of this file so a layout change on one side cannot go unnoticed.

/// Distance of an unreached vertex. Real distances are `< INF`; a relaxation whose candidate
/// would reach `INF` is dropped and flagged (see [`Counters::overflow`]).
pub const INF: u32 = u32::MAX;

/// Iteration stamp that no real iteration uses (initial stamp of every vertex but the source).
pub const NO_ITER: u32 = u32::MAX;

/// Threads per block for every kernel. 256 = 8 warps: enough warps per block to hide latency,
/// small enough that 8 blocks fit per SM on Volta and later.
pub const BLOCK: u32 = 256;

/// Widest virtual warp (H-BF's dynamic virtual warps go from 1 to 32 lanes).
pub const MAX_VWARP: u32 = 32;

/// Ranks (arcs) one warp takes at a time in load-balanced partitioning, where nothing else is
/// asked for: large enough that the two bracketing binary searches per chunk are amortised,
/// small enough to spread work evenly. An iteration's advance takes 64 or 128 when its arcs
/// are few per warp (`advance::chunk_for`: a lane's trips of a chunk run one after another).
pub const LB_CHUNK: u32 = 32 * 8;

/// A distance and the iteration that last lowered it, packed into one `u64` so that one 64-bit
/// `atomicMin` both relaxes and stamps (H-BF §5.1): the distance sits in the high half, so the
/// minimum is decided by the distance, and among equal distances by the earlier iteration.
#[inline(always)]
pub const fn pack(dist: u32, iter: u32) -> u64 {
    ((dist as u64) << 32) | iter as u64
}

/// The distance half of a packed word.
#[inline(always)]
pub const fn dist_of(p: u64) -> u32 {
    (p >> 32) as u32
}

/// The iteration half of a packed word.
#[inline(always)]
pub const fn iter_of(p: u64) -> u32 {
    p as u32
}

/// How the arcs of a frontier are spread over threads (Davidson et al. §IV-B, H-BF §5.2).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Balance {
    /// One vertex per thread: cheap, but a hub serialises its whole thread.
    Thread = 0,
    /// One vertex per virtual warp of 1..32 lanes, the width chosen on the device from the
    /// frontier size each iteration (H-BF's dynamic virtual warps).
    VirtualWarp = 1,
    /// Equal arcs per warp: a scan of frontier degrees, then each arc finds its vertex by
    /// binary search (Davidson's load-balanced partitioning, a merge-path search).
    Partition = 2,
    /// Davidson's cooperative blocks (§IV-B): a block takes [`BLOCK`] frontier vertices, scans
    /// their degrees in shared memory, and its threads strip the concatenated arcs off in
    /// order, finding each arc's vertex by binary search in the block's prefix.
    Cta = 3,
    /// Merrill's CTA+Warp+Scan (Davidson §IV-B): per block of [`BLOCK`] frontier vertices,
    /// those of degree `>= BLOCK` are walked by the whole block one at a time, those of degree
    /// `>= 32` by one warp each, and the rest by the cooperative-blocks scan.
    CtaWarpScan = 4,
}

impl Balance {
    /// Whether this mode works on block-sized tiles of the frontier ([`Balance::Cta`],
    /// [`Balance::CtaWarpScan`]): the GPU runs them with shared memory and block barriers
    /// (`grid::advance_tiles`), the CPU engine tile by tile with the same phase functions
    /// (`advance::tile_load`, `tile_place`, `tile_expand`).
    #[inline(always)]
    pub const fn is_tiled(code: u32) -> bool {
        code == Balance::Cta as u32 || code == Balance::CtaWarpScan as u32
    }

    /// Whether frontier vertices of large degree leave this mode for the grid-wide hub pass
    /// (every mode but [`Balance::Partition`], which spreads any degree evenly already).
    #[inline(always)]
    pub const fn has_hub_path(self) -> bool {
        !matches!(self, Balance::Partition)
    }
}

/// Default hub threshold ([`AdvanceArgs::hub_degree`]): frontier vertices with at least this
/// many out-arcs are expanded by the grid-wide hub pass instead of their thread, virtual warp or
/// block. H-BF (§5.3) hands vertices above T_DP = 4096 to dynamic parallelism; measured on the
/// H100 on kron 22 (H100, 2026-11-23), 64 is best for the thread
/// and virtual-warp modes (10.9 ms; 14.3 at 256, 50 at 4096, 436 without the hub path) and
/// within 10% of the best for the tiled modes.
pub const HUB_DEGREE: u32 = 64;

/// Edge classes (H-BF §4.1, Algorithm 4), kept in the two high bits of each arc's head in the
/// graph's own targets once the host has classified it (`crate::classify`), so that reading the
/// class costs no load and no copy of the targets: the classified advance reads the class with
/// the head ([`Csr::head_class`]), every other reader masks it off ([`Csr::target`]). That caps
/// classified graphs at [`MAX_CLASSIFIED`] vertices; larger graphs run unclassified (the host
/// decides), and their heads use all 32 bits.
pub const CLASS_SHIFT: u32 = 30;
/// The head bits of a classified target word.
pub const HEAD_MASK: u32 = (1 << CLASS_SHIFT) - 1;
/// Most graph vertices a classified graph may have (heads must fit in [`HEAD_MASK`]).
pub const MAX_CLASSIFIED: u64 = 1 << CLASS_SHIFT;
/// An ordinary arc: the 64-bit atomic min.
pub const ARC_PLAIN: u32 = 0;
/// The head's only in-arc: no other thread can write the head in the same launch (an input
/// frontier holds a vertex once), so a load, a compare and a plain store replace the atomic.
pub const ARC_SINGLE: u32 = 1;
/// The head has no out-arcs (a sink): it would be pushed only to be expanded for nothing, and
/// the relaxations into it could lower it many times; the arc is skipped by the advance and
/// relaxed once, from final distances, by the deferred pass (`classify::relax_sinks`).
pub const ARC_SINK: u32 = 2;
/// A self-loop of non-negative weight: it can never improve anything; skipped.
pub const ARC_SKIP: u32 = 3;
/// The stamp the deferred sink pass writes: later than every iteration of the run, so the tree
/// rule (`tree::is_tree_arc`) takes a sink's tight in-arc from any reached tail.
pub const LATE_ITER: u32 = NO_ITER - 1;

/// How a vertex improved twice in one iteration is kept from entering the next frontier twice.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dedupe {
    /// H-BF: the 64-bit (distance, iteration) atomic min tells the first improver of this
    /// iteration; only it enqueues. No extra pass.
    Stamp = 0,
    /// Davidson: every improvement enqueues; a lookup-table pass (`table[v] = slot`, then keep
    /// the slot that won) and a compaction remove the duplicates.
    Lookup = 1,
}

/// A CSR graph view.
///
/// With `lane_bits > 0` the frontier operators run `2^lane_bits` independent solves at once over
/// one copy of the graph (batched sources): the run's vertex id `x` stands for graph vertex
/// `x >> lane_bits` in lane `x & (lanes - 1)`, so an arc `u -> v` of the graph is the arc
/// `x -> (v << lane_bits) | lane` of each lane. Ids of one vertex sit side by side, so the
/// lanes' distances of a vertex share a cache line and its arcs are read once per cache
/// residency, not once per lane. The distance array, queues and buckets simply have `n` ids;
/// nothing else in the frontier loop knows about lanes. Only the frontier operators (init,
/// advance, the pile loop, the scans, extract) take lanes; the others need `lane_bits == 0`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct Csr {
    /// `(n >> lane_bits) + 1` arc offsets (one per graph vertex, plus the end).
    pub offsets: *const u64,
    /// `m` arc heads; read them with [`Csr::target`] (a classified graph keeps its edge
    /// classes in their high bits).
    pub targets: *const u32,
    /// `m` arc weights as `metric` encodes them: `u32`s, `f32` bit patterns, or `i32`s.
    pub weights: *const u32,
    /// Number of vertex ids: the graph's vertices times the lanes.
    pub n: u32,
    /// Log2 of the lanes (0: one solve).
    pub lane_bits: u16,
    /// How weights and distances are encoded: [`Metric::code`] (see `relax::candidate`).
    pub metric: u16,
    /// What [`Csr::target`] keeps of a target word: [`HEAD_MASK`] for a graph that may be
    /// classified (at most [`MAX_CLASSIFIED`] vertices: its ids leave the two high bits to the
    /// classes), all ones for a larger one ([`Csr::head_mask`] says which). A parameter, not a
    /// test of `n` in the kernels: the mask is then an operand from the constant bank, where a
    /// mask computed from `n` took a register (the persistent loop went from 128 to 132-136
    /// registers on sm_90, past the two blocks per SM it runs with).
    pub head_mask: u32,
    pub _pad: u32,
}

impl Csr {
    /// The graph vertex (CSR row) of run vertex `x`.
    #[inline(always)]
    pub fn row(&self, x: u32) -> usize {
        (x >> self.lane_bits) as usize
    }

    /// The arc range `[start, end)` of run vertex `x`.
    #[inline(always)]
    pub unsafe fn arcs(&self, x: u32) -> (u64, u64) {
        let r = self.row(x);
        (*self.offsets.add(r), *self.offsets.add(r + 1))
    }

    /// The graph vertex arc `e` points to: its target word without the class tags (which a
    /// graph of at most [`MAX_CLASSIFIED`] vertices may carry in the bits its ids leave free; a
    /// larger graph is never classified, and its ids use every bit: see `head_mask`).
    #[inline(always)]
    pub unsafe fn target(&self, e: u64) -> u32 {
        *self.targets.add(e as usize) & self.head_mask
    }

    /// The [`Csr::head_mask`] of a graph of `vertices` vertices (one lane's).
    pub const fn head_mask(vertices: u64) -> u32 {
        if vertices <= MAX_CLASSIFIED {
            HEAD_MASK
        } else {
            u32::MAX
        }
    }

    /// The head of arc `e` out of run vertex `x`, in `x`'s lane.
    #[inline(always)]
    pub unsafe fn head(&self, x: u32, e: u64) -> u32 {
        self.head_in(x, *self.targets.add(e as usize))
    }

    /// [`Csr::head`] from the arc's target word `word`, already read.
    #[inline(always)]
    pub fn head_in(&self, x: u32, word: u32) -> u32 {
        ((word & self.head_mask) << self.lane_bits) | (x & ((1 << self.lane_bits) - 1))
    }

    /// The head and class of arc `e` out of run vertex `x` of a classified graph (see
    /// [`crate::classify`]): the head's graph id is the low [`CLASS_SHIFT`] bits.
    #[inline(always)]
    pub unsafe fn head_class(&self, x: u32, e: u64) -> (u32, u32) {
        self.head_class_in(x, *self.targets.add(e as usize))
    }

    /// [`Csr::head_class`] from the arc's target word `t`, already read.
    #[inline(always)]
    pub fn head_class_in(&self, x: u32, t: u32) -> (u32, u32) {
        (((t & HEAD_MASK) << self.lane_bits) | (x & ((1 << self.lane_bits) - 1)), t >> CLASS_SHIFT)
    }

    /// How distances add up on this graph.
    #[inline(always)]
    pub fn metric(&self) -> Metric {
        Metric::from_code(self.metric)
    }
}

/// How weights and distances are encoded in their `u32` cells, and so how they add up.
///
/// Real (`f32`) weights are stored as bit patterns. Non-negative IEEE-754 numbers order exactly
/// like their bit patterns read as unsigned integers, and [`INF`] (`u32::MAX`, a NaN pattern)
/// stays above every finite one, so every comparison, the packed 64-bit atomic min, the bucket
/// order and every queue rule work unchanged; only the addition differs. Exactness: with round
/// to nearest, `x -> fl(x + w)` is monotone and never below `x` for `w >= 0`, so every
/// label-correcting strategy and Dijkstra reach the same fixpoint, the least left-to-right
/// rounded sum over all paths, bit for bit (docs/gpu.md, "Real weights").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Metric {
    /// `u32` weights, sums checked against [`INF`].
    Integer,
    /// `f32` weights (finite, `>= +0`), sums rounded to nearest; an infinite sum overflows.
    Real,
    /// `i32` weights, some negative (H-BF's setting: Workfront and Bellman-Ford only). A
    /// distance `d` in `i32::MIN..i32::MAX` is kept as `d ^ 0x8000_0000` read as `u32`
    /// ([`Metric::encode_signed`]), which orders like `d`: one unsigned atomic min still
    /// relaxes, and [`INF`] stands for `i32::MAX`. A sum outside that range overflows (in
    /// either direction).
    Signed,
}

impl Metric {
    /// The [`Csr::metric`] code.
    pub const fn code(self) -> u16 {
        match self {
            Metric::Integer => 0,
            Metric::Real => 1,
            Metric::Signed => 2,
        }
    }

    /// The metric of a [`Csr::metric`] code (unknown codes read as integers).
    #[inline(always)]
    pub const fn from_code(c: u16) -> Metric {
        match c {
            1 => Metric::Real,
            2 => Metric::Signed,
            _ => Metric::Integer,
        }
    }

    /// The cell of distance 0 (a source's).
    #[inline(always)]
    pub const fn zero(self) -> u32 {
        match self {
            Metric::Signed => Self::encode_signed(0),
            _ => 0,
        }
    }

    /// A signed distance as its order-preserving `u32` cell.
    #[inline(always)]
    pub const fn encode_signed(d: i32) -> u32 {
        (d as u32) ^ 0x8000_0000
    }

    /// The signed distance of a cell written by [`Metric::encode_signed`].
    #[inline(always)]
    pub const fn decode_signed(c: u32) -> i32 {
        (c ^ 0x8000_0000) as i32
    }
}

/// A vertex queue whose length lives in device memory, so kernels can be queued without the
/// host knowing how long the frontier is.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct Queue {
    /// Items; null means "every vertex `0..csr.n`" (topology-driven sweeps).
    pub items: *mut u32,
    /// Length cell (one `u32`); ignored when `items` is null.
    pub len: *mut u32,
}

/// Run-wide counters, accumulated on the device.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    /// Arcs relaxed (read, candidate computed) so far.
    pub arcs: u64,
    /// Frontier entries expanded so far (a vertex counts once per time it is expanded).
    pub vertices: u64,
    /// Advances that had a non-empty input (iterations that did work).
    pub busy: u64,
    /// Nonzero once a relaxation of a topology-driven sweep (an advance without an output
    /// queue) lowered a distance since the host last cleared it. Frontier advances leave it
    /// alone: their queues say the same (`advance::relax_arc`).
    pub improved: u32,
    /// Nonzero if some candidate distance reached `INF` and was dropped.
    pub overflow: u32,
}

/// Parameters of the advance (relax) operator.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct AdvanceArgs {
    pub csr: Csr,
    /// Packed `(distance, iteration)` per vertex, see [`pack`].
    pub dist: *mut u64,
    /// Vertices whose out-arcs are relaxed.
    pub input: Queue,
    /// Where improved vertices are pushed; `items` null = do not push (topology-driven).
    pub output: Queue,
    /// A length cell that this launch zeroes (the output cell of the *next* iteration), so an
    /// iteration needs one launch and no memset; null = none.
    pub zero_len: *mut u32,
    /// For [`Balance::Partition`]: exclusive prefix sums of the input's degrees, `len + 1`
    /// entries. Null with a null `input.items` means "use the CSR offsets".
    pub scan: *const u64,
    /// The output's degree prefix, built by the pushes themselves (`advance::emit_prefixed`):
    /// with it, the next iteration's partitioned advance needs no scan of its input. Room for
    /// `n + 1` entries; null: the pushes write none. Only the partition loop's advance writes
    /// it (`grid::pile_loop` with `SMALL`, and the CPU engine): [`PileArgs::push_prefix`] says
    /// when.
    pub push_prefix: *mut u64,
    pub counters: *mut Counters,
    /// The current iteration, stamped into improved vertices (starts at 1; the source has 0).
    pub iter: u32,
    /// A [`Balance`] value.
    pub balance: u32,
    /// A [`Dedupe`] value.
    pub dedupe: u32,
    /// Distance cutoff: candidates above it are dropped, so nothing beyond it is ever reached,
    /// pushed or expanded ([`NO_CUTOFF`]: none).
    pub cutoff: u32,
    /// Where improved vertices go by distance (Near-Far and Bucketing); `nbuckets == 0` means
    /// no split: every improvement is "near" (Workfront Sweep).
    pub buckets: Buckets,
    /// The hub queue: input vertices with at least `hub_degree` out-arcs are pushed here
    /// instead of being expanded, and a second, partitioned pass (`advance::hub_pass`) expands
    /// them with the whole grid. `items` null: no hub path (partition balance, a graph without
    /// such vertices, or `hub_degree == 0`). Room for `n` items (an input holds a vertex once).
    pub hub: Queue,
    /// The other hub length cell, zeroed by this launch for the next iteration (null: none).
    pub hub_zero: *mut u32,
    /// The hub threshold (see [`HUB_DEGREE`]).
    pub hub_degree: u32,
    /// 1 in the hub pass itself: its input was already counted by the pass that diverted it.
    pub hub_pass: u32,
}

/// Most buckets in a window (Bucketing's `A`). The far-pile multisplit has `A + 2` bins (the
/// window's buckets, the far pile, dropped entries), and `A + 2 <= 32` lets one warp lane own
/// one bin's count.
pub const MAX_BUCKETS: u32 = 30;

/// Bins of the multisplit operator.
pub const MAX_BINS: u32 = 32;

/// The bucket structure of Near-Far (Davidson et al. §IV-D) and Bucketing (§IV-E), as the
/// advance sees it for one iteration.
///
/// Distances are grouped in buckets of width `delta`: bucket `k` holds `[k*delta, (k+1)*delta)`.
/// The *window* is buckets `window .. window + nbuckets`; `current` (inside the window) is the
/// one being processed. An improved vertex goes, by its new distance, to
/// - the next near queue (the advance's `output`) if its bucket is `<= current`;
/// - the queue of its slot `bucket - window` if the bucket is later in the window;
/// - the far pile beyond the window.
///
/// Near-Far is the case `nbuckets == 1` (the window is the current bucket: near set and far
/// pile). See `split.rs` for the push rules that keep every queue free of duplicates.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct Buckets {
    /// `nbuckets` slot queues of `room` items each, back to back.
    pub slot_items: *mut u32,
    /// `nbuckets` length cells, one per slot queue; a length above `room` marks the slot
    /// overflowed (see `split.rs`).
    pub slot_lens: *mut u32,
    /// The far pile (room for the vertex count: it never holds a vertex twice).
    pub far: Queue,
    /// Room of each slot queue: the slots share one pool of about `n` entries (`n / nbuckets`
    /// each), so Near-Far's one slot never overflows and Bucketing's may.
    pub room: u32,
    /// Bucket width, >= 1.
    pub delta: u32,
    /// First bucket of the window.
    pub window: u32,
    /// The bucket being processed (`window <= current < window + nbuckets`).
    pub current: u32,
    /// Buckets in the window, `0..=MAX_BUCKETS`; 0 = no split.
    pub nbuckets: u32,
    /// 1: this iteration runs as a Workfront Sweep iteration (the hybrid's wide mode, see
    /// `split::pushes`): every improved vertex also goes to the next near queue.
    pub wide: u16,
    /// 1: distances and `delta` are `f32` bit patterns ([`Metric::Real`]); buckets are then
    /// `floor(d / delta)` in real arithmetic (`split::bucket_of`).
    pub real: u16,
}

impl Buckets {
    /// The queue of slot `j` (`< nbuckets`).
    #[inline(always)]
    pub unsafe fn slot(&self, j: u32) -> Queue {
        Queue { items: self.slot_items.add(j as usize * self.room as usize), len: self.slot_lens.add(j as usize) }
    }
}

/// No bucketing: the advance pushes every improvement to its output (Workfront Sweep).
pub const NO_BUCKETS: Buckets = Buckets {
    slot_items: core::ptr::null_mut(),
    slot_lens: core::ptr::null_mut(),
    far: Queue { items: core::ptr::null_mut(), len: core::ptr::null_mut() },
    room: 0,
    delta: 1,
    window: 0,
    current: 0,
    nbuckets: 0,
    wide: 0,
    real: 0,
};

/// Control state of a bucketed solve, kept in device memory (`NUM_CELLS` cells hold it at
/// [`CELL_STATE`]) so a persistent launch can stop after any iteration and a later launch (or
/// the host, to trace) can resume from it. All zeroes is the start state.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PileState {
    /// Near ring position: the current near queue is `k % 2`, its length cell `k % 3`.
    pub k: u32,
    /// Nonzero: this iteration's input is the slot queue of `current` (the first iteration of a
    /// bucket) rather than the near queue.
    pub from_slot: u32,
    /// First bucket of the window.
    pub window: u32,
    /// The bucket being processed.
    pub current: u32,
    /// Which of the two far buffers is the current far pile.
    pub far: u32,
    /// Iterations run so far (the next one is stamped `iters + 1`).
    pub iters: u32,
    /// Nonzero once every queue is empty: the distances are final.
    pub done: u32,
    /// Far-pile splits so far.
    pub splits: u32,
    /// Lookup dedupe: which scratch cell the next advance pushes into (0 or 1).
    pub scratch: u32,
    /// The input's length plus one when the control step has just read it (the near queue
    /// `after_iteration` found non-empty), so the advance need not read its cell again: one
    /// dependent round trip less per iteration. 0: not known (a slot's input, a gathered or
    /// split one, the first iteration of a launch).
    pub known_len: u32,
    pub _pad: [u32; 2],
}

impl PileState {
    /// The input length the control step read for this iteration, if it did.
    #[inline(always)]
    pub fn input_len(&self) -> Option<u32> {
        if self.from_slot == 0 && self.known_len != 0 {
            Some(self.known_len - 1)
        } else {
            None
        }
    }
}

/// Parameters of the device-side loop of the bucketed strategies (and of Workfront when
/// `adv.buckets.nbuckets` is 0): the advance template plus every buffer the iteration's phases
/// use. On the GPU it is one persistent launch with grid barriers between phases; the CPU engine
/// runs the same phases in order.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct PileArgs {
    /// Template: queues, `iter`, `window` and `current` are filled from the state per iteration.
    pub adv: AdvanceArgs,
    /// The two near queues.
    pub near: [*mut u32; 2],
    /// The two far buffers (the current pile and the target of the next split).
    pub far: [*mut u32; 2],
    /// Lookup dedupe: the scratch queue and the per-vertex table.
    pub scratch: *mut u32,
    pub table: *mut u32,
    /// `NUM_CELLS` cells: lengths, barrier, and the [`PileState`].
    pub cells: *mut u32,
    /// One `u64` per block (block sums of scans, block minima).
    pub block_vals: *mut u64,
    /// `MAX_BINS` counts per block (the multisplit's histograms).
    pub hist: *mut u32,
    /// Stop after this many iterations (the state says where to resume).
    pub max_iters: u32,
    /// The Workfront <-> Near-Far hybrid: an iteration whose input holds at least this many
    /// vertices runs in wide mode ([`Buckets::wide`]); 0 = never.
    pub wide_at: u32,
    /// Stop as soon as this vertex's distance is final (bucketed runs; [`NO_TARGET`]: none).
    pub target: u32,
    pub _pad: u32,
    /// The second degree prefix (`n + 1` entries), beside `adv.scan`: the near queue `j`'s
    /// prefix is `adv.scan` for `j = 0` and this for `j = 1`, and each iteration's pushes
    /// build the next queue's (`split::pile_step`). Null: every partitioned iteration scans
    /// its input's degrees into `adv.scan`. The host sets it only where every push into the
    /// near queue can carry its degree: partition balance, stamp dedupe (each vertex enters
    /// the near queue once an iteration, so a queue's degrees sum to at most `m`), fewer than
    /// 2^32 arcs (the sum is counted in 32 bits), one solve at a time, no hub path.
    pub push_prefix: *mut u64,
}

impl PileArgs {
    /// Whether this run is the common one the lean loop serves (`grid::pile_loop_lean`, entry
    /// `sssp_pile_loop_lean`): virtual-warp balance, stamp dedupe, no cutoff, no hub path, no
    /// hybrid switch, no target, one solve at a time (no lanes), integer weights. That is
    /// `auto`'s pick on road graphs and meshes; every run that is not goes to the plain loop.
    /// Exactly the runs [`PileArgs::leaned`] leaves as they are, byte for byte: the options are
    /// listed once, there.
    pub fn is_lean(&self) -> bool {
        self.leaned().bytes() == self.bytes()
    }

    /// The block's bytes (for [`PileArgs::is_lean`]).
    fn bytes(&self) -> &[u8] {
        // SAFETY: `PileArgs` is `repr(C)` integers and raw pointers with explicit padding fields
        // (its size is pinned below), so every byte of it is initialised.
        unsafe { core::slice::from_raw_parts((self as *const PileArgs).cast::<u8>(), core::mem::size_of::<PileArgs>()) }
    }

    /// These arguments with every option of the common run written as a constant: virtual-warp
    /// balance, stamp dedupe, no cutoff, no hub path, single solves, integer weights, no hybrid,
    /// no target. In the lean loop the compiler drops every branch those constants decide
    /// (partition balance, lookup dedupe, hubs, cutoff, target, the hybrid, lanes, real
    /// weights); for a lean run ([`PileArgs::is_lean`]) they are the run's own values.
    #[inline(always)]
    pub fn leaned(&self) -> PileArgs {
        let null = core::ptr::null_mut();
        PileArgs {
            adv: AdvanceArgs {
                balance: Balance::VirtualWarp as u32,
                dedupe: Dedupe::Stamp as u32,
                cutoff: NO_CUTOFF,
                hub: Queue { items: null, len: null },
                hub_zero: null,
                hub_pass: 0,
                csr: Csr { lane_bits: 0, metric: Metric::Integer.code(), ..self.adv.csr },
                push_prefix: core::ptr::null_mut(),
                ..self.adv
            },
            wide_at: 0,
            target: NO_TARGET,
            push_prefix: core::ptr::null_mut(),
            ..*self
        }
    }
}

/// No distance cutoff ([`AdvanceArgs::cutoff`]): every candidate below `INF` is kept.
pub const NO_CUTOFF: u32 = u32::MAX;

/// No target vertex ([`PileArgs::target`]).
pub const NO_TARGET: u32 = u32::MAX;

/// Parameters of the stand-alone multisplit kernel (the operator the far-pile split uses, with
/// explicit keys; for tests and for callers with their own keys).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct MultisplitArgs {
    pub items: *const u32,
    /// Bin of each item, `< nbins` (or `>= nbins`: dropped).
    pub keys: *const u32,
    pub len: u32,
    pub nbins: u32,
    /// Bin `b` goes to `out + b * stride`, its count to `out_lens[b]`.
    pub out: *mut u32,
    pub out_lens: *mut u32,
    pub stride: u32,
    pub _pad: u32,
    pub cells: *mut u32,
    pub hist: *mut u32,
}

/// Threads of the block loop's one block (`block_loop`; the entry point's launch bounds say the
/// same).
pub const BLOCK_LOOP_THREADS: u32 = 1024;

/// Near-queue entries the block loop keeps in shared memory, per queue, each with its arc range
/// (16 bytes; two queues: 32 KiB); the rest of a longer queue stays in device memory.
pub const BLOCK_QUEUE_CAP: u32 = 1024;

/// Index of the grid barrier's arrival counter in the cell array.
pub const CELL_BARRIER_COUNT: usize = 5;
/// Index of the grid barrier's exit count in the cell array (blocks that have left the launch).
pub const CELL_BARRIER_LEFT: usize = 6;
/// Index of the grid barrier's two counting counters, one `u64` each (cells 56-59; even, so
/// 8-byte aligned): `GridBarrier::wait_counting`, at the end of a frontier loop's advance.
pub const CELL_BARRIER_TALLY: usize = 56;
/// Index of the two far-pile length cells.
pub const CELL_FAR: usize = 8;
/// Index of the `MAX_BUCKETS` slot length cells.
pub const CELL_SLOTS: usize = 10;
/// Index of the near queues' length cells: three pairs of `u32`, 8-byte aligned (see
/// [`near_cell`]), in the cells' third 128-byte line, apart from the grid barrier's cells (5,
/// 6) and tallies (56-59). Until 2026-11-28 the near lengths were cells 0-2, in the barrier's
/// line; moved here (for the pairs), the lean loop ran NY in 4.21-4.22 ms against 4.41 and
/// `gen:road:1000000` in 5.95 against 6.45 on the H100 (2026-11-28): every push's atomic on a
/// length cell no longer queues at the line the
/// barrier polls. Cells 0-2 are unused since.
pub const CELL_NEAR: usize = 64;
/// Index of the [`PileState`] (12 cells).
pub const CELL_STATE: usize = 40;
/// Index of the two hub-queue length cells: iteration `i` pushes into `CELL_HUB + i % 2` and
/// zeroes the other one for iteration `i + 1` (the same no-memset ring as the frontiers).
pub const CELL_HUB: usize = 52;

/// The hub queue of iteration `iter` and the length cell it zeroes for the next one (the
/// ring at [`CELL_HUB`]); no queue and no cell when `items` is null (no hub path).
#[inline(always)]
pub fn hub_ring(items: *mut u32, cells: *mut u32, iter: u32) -> (Queue, *mut u32) {
    if items.is_null() {
        return (Queue { items, len: core::ptr::null_mut() }, core::ptr::null_mut());
    }
    let at = |k: u32| cells.wrapping_add(CELL_HUB + (k % 2) as usize);
    (Queue { items, len: at(iter) }, at(iter + 1))
}
/// Number of `u32` cells an engine allocates (8-byte aligned: the near pairs and the barrier
/// tallies are read as `u64`).
pub const NUM_CELLS: usize = 70;

/// The length cell of near ring position `k` (the frontiers' and the persistent loops' ring:
/// an iteration reads `k % 3`, pushes into `k + 1`, zeroes `k + 2`). Each is the low half of
/// a `u64` pair whose high half counts the arcs of the queue's vertices when the pushes build
/// its degree prefix ([`PileArgs::push_prefix`]): one 64-bit atomic add per warp then hands
/// out both a run of slots and the prefix at its first slot.
#[inline(always)]
pub const fn near_cell(k: u32) -> usize {
    CELL_NEAR + 2 * (k % 3) as usize
}

/// Parameters of the init kernel: set every distance to unreached and the frontier to `[source]`
/// (`source >= n`: no source and an empty frontier, for [`SeedArgs`] to fill).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct InitArgs {
    pub dist: *mut u64,
    pub frontier: Queue,
    pub counters: *mut Counters,
    pub n: u32,
    pub source: u32,
    /// The source's distance cell: [`Metric::zero`].
    pub zero: u32,
    pub _pad: u32,
}

/// Parameters of the seed kernel, run after an init without a source: `count` distinct
/// vertices at distance 0 (stamp 0), and the frontier set to them. Several sources of one
/// solve (nearest-source distances), or one source per lane of a batch ([`Csr::lane_bits`]).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct SeedArgs {
    pub dist: *mut u64,
    pub frontier: Queue,
    /// `count` distinct vertex ids `< n`.
    pub sources: *const u32,
    pub count: u32,
    /// The sources' distance cell: [`Metric::zero`].
    pub zero: u32,
}

/// Parameters of the extract kernel: the distance halves of the packed words, for download.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct ExtractArgs {
    pub dist: *const u64,
    /// `n` distances out (`INF` for unreached).
    pub out: *mut u32,
    pub n: u32,
    pub _pad: u32,
}

/// Parameters of the tree-arc pass (`tree::tree_arcs`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct TreeArgs {
    pub csr: Csr,
    /// `n` packed (distance, iteration) words of a finished frontier run.
    pub dist: *mut u64,
    /// `n` entries, zeroed before the pass: parent + 1, or 0 for none.
    pub parent1: *mut u32,
}

/// Parameters of the lookup-table dedupe passes and of compaction.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct DedupeArgs {
    /// The queue with duplicates.
    pub input: Queue,
    /// Per-vertex table of winning slots (`n` entries; never needs clearing: a stale entry can
    /// only equal a slot `i` of this queue if this queue wrote it, see `dedupe.rs`).
    pub table: *mut u32,
    /// Compacted output.
    pub output: Queue,
}

/// What a device-wide scan sums, per input slot `i`.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScanOf {
    /// The out-degree of `input[i]` (for [`Balance::Partition`]).
    Degree = 0,
    /// 1 if slot `i` won the lookup table for its vertex, else 0 (compaction of [`Dedupe::Lookup`]).
    Winner = 1,
}

/// Parameters of the three-phase (reduce, scan block sums, scan-and-write) device-wide scan.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct ScanArgs {
    pub input: Queue,
    pub offsets: *const u64,
    pub table: *const u32,
    /// One `u64` per block of the grid: block sums, then their exclusive prefix.
    pub block_sums: *mut u64,
    /// For `Degree`: `len + 1` exclusive prefix sums (the last is the total).
    pub prefix: *mut u64,
    /// For `Winner`: the compacted queue.
    pub output: Queue,
    /// A [`ScanOf`] value.
    pub of: u32,
    /// [`Csr::lane_bits`] of the run whose frontier is scanned.
    pub lane_bits: u32,
}

// The host fills these blocks and the GPU reads them byte for byte: pin their sizes.
const _: () = assert!(core::mem::size_of::<Csr>() == 40);
const _: () = assert!(core::mem::size_of::<Queue>() == 16);
const _: () = assert!(core::mem::size_of::<Counters>() == 32);
const _: () = assert!(core::mem::size_of::<TreeArgs>() == 40 + 8 + 8);
const _: () = assert!(core::mem::size_of::<Buckets>() == 8 + 8 + 16 + 24);
const _: () = assert!(core::mem::size_of::<AdvanceArgs>() == 40 + 8 + 16 + 16 + 8 + 8 + 8 + 8 + 16 + 56 + 16 + 8 + 8);
const _: () = assert!(core::mem::size_of::<PileState>() == 48);
const _: () = assert!(CELL_SLOTS + MAX_BUCKETS as usize <= CELL_STATE);
const _: () = assert!(CELL_STATE + 12 <= CELL_HUB && CELL_HUB + 2 <= NUM_CELLS);
const _: () = assert!(CELL_HUB + 2 <= CELL_BARRIER_TALLY && CELL_BARRIER_TALLY % 2 == 0);
const _: () = assert!(CELL_BARRIER_TALLY + 4 <= CELL_NEAR && CELL_NEAR % 2 == 0 && CELL_NEAR + 6 <= NUM_CELLS);
const _: () = assert!(MAX_BUCKETS + 2 <= MAX_BINS);
const _: () = assert!(core::mem::size_of::<PileArgs>() == 216 + 16 + 16 + 16 + 8 + 8 + 8 + 8 + 8 + 8);
const _: () = assert!(core::mem::size_of::<MultisplitArgs>() == 48 + 16);
const _: () = assert!(core::mem::size_of::<DedupeArgs>() == 40);
const _: () = assert!(core::mem::size_of::<InitArgs>() == 8 + 16 + 8 + 8 + 8);
const _: () = assert!(core::mem::size_of::<ExtractArgs>() == 24);
const _: () = assert!(core::mem::size_of::<ScanArgs>() == 16 + 8 + 8 + 8 + 8 + 16 + 8);
const _: () = assert!(core::mem::size_of::<SeedArgs>() == 8 + 16 + 8 + 8);

// Parameter blocks carry raw addresses; the host hands them to worker threads (CPU backend)
// or copies them into a launch (GPU). The pointed-to memory is managed by the engine.
unsafe impl Send for AdvanceArgs {}
unsafe impl Sync for AdvanceArgs {}
unsafe impl Send for DedupeArgs {}
unsafe impl Sync for DedupeArgs {}
unsafe impl Send for ScanArgs {}
unsafe impl Send for InitArgs {}
unsafe impl Sync for InitArgs {}
unsafe impl Send for SeedArgs {}
unsafe impl Sync for SeedArgs {}
unsafe impl Send for ExtractArgs {}
unsafe impl Sync for ExtractArgs {}
unsafe impl Sync for ScanArgs {}
unsafe impl Send for TreeArgs {}
unsafe impl Sync for TreeArgs {}
unsafe impl Send for PileArgs {}
unsafe impl Sync for PileArgs {}
unsafe impl Send for MultisplitArgs {}
unsafe impl Sync for MultisplitArgs {}

#[cfg(all(feature = "cuda", not(target_arch = "nvptx64")))]
mod cuda_glue {
    // SAFETY: all three are `#[repr(C)]`, `Copy`, hold only integers and addresses, and have the
    // layout the PTX entry points expect (checked above).
    unsafe impl cudarc::driver::DeviceRepr for super::AdvanceArgs {}
    unsafe impl cudarc::driver::DeviceRepr for super::DedupeArgs {}
    unsafe impl cudarc::driver::DeviceRepr for super::ScanArgs {}
    unsafe impl cudarc::driver::DeviceRepr for super::InitArgs {}
    unsafe impl cudarc::driver::DeviceRepr for super::SeedArgs {}
    unsafe impl cudarc::driver::DeviceRepr for super::ExtractArgs {}
    unsafe impl cudarc::driver::DeviceRepr for super::PileArgs {}
    unsafe impl cudarc::driver::DeviceRepr for super::MultisplitArgs {}
    unsafe impl cudarc::driver::DeviceRepr for super::TreeArgs {}
    unsafe impl cudarc::driver::DeviceRepr for super::SettleArgs {}
}

/// Which vertices a step of the settle loop (parallel Dijkstra, `settle.rs`) may settle.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// Crauser et al.'s OUT criterion: `d(v) <= min over candidates u of d(u) + min_out(u)`.
    Out = 0,
    /// Crauser et al.'s IN criterion: `d(v) - min_in(v) <= min over candidates of d`.
    In = 1,
    /// Either of the two.
    Both = 2,
    /// Crauser's economic variant: `d(v) <= min over candidates of d + the least arc weight`.
    Economic = 3,
    /// Martín et al.: `d(v) == min over candidates of d`.
    Martin = 4,
}

/// Parameters of the settle loop (parallel Dijkstra after Crauser et al. and Martín et al.,
/// `settle.rs`): one step relaxes the arcs of the vertices settled in the previous step, then
/// settles every candidate (reached, unsettled) vertex that the rule proves final.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct SettleArgs {
    pub csr: Csr,
    /// The reverse graph (`targets` are the arcs' tails), for the pull variant; null otherwise.
    pub rev: Csr,
    /// Packed `(distance, stamp)` per vertex; a settled vertex carries [`SETTLED`] in its stamp.
    pub dist: *mut u64,
    /// Least weight out of each vertex (`INF`: none), `n` entries.
    pub min_out: *mut u32,
    /// Least weight into each vertex (`INF`: none), `n` entries.
    pub min_in: *mut u32,
    /// The vertices settled by the last step (`n` items); its length cell is
    /// `cells[SETTLE_CELL_FRONTIER]`.
    pub frontier: *mut u32,
    /// The two candidate lists (`n` items each), lengths at `cells[SETTLE_CELL_CAND + j]`.
    pub cand: [*mut u32; 2],
    /// `NUM_CELLS` cells: candidate and frontier lengths, the grid barrier, the done flag.
    pub cells: *mut u32,
    /// GPU only: two `u64` per block (the grid-wide pair minimum; the degree scan's block sums).
    pub mins: *mut u64,
    pub counters: *mut Counters,
    /// Partition balance: the exclusive scan of the frontier's degrees (`n + 1` entries).
    pub prefix: *mut u64,
    /// A [`Balance`] value for the push relaxation: `Partition` spreads the frontier's arcs
    /// evenly over warps (scale-free graphs); the others use dynamic virtual warps.
    pub balance: u32,
    pub _pad: u32,
    /// A [`Rule`] value.
    pub rule: u32,
    /// Nonzero: each unsettled vertex pulls from its in-neighbours in the frontier (Martín's
    /// predecessor variant) instead of the frontier pushing along its out-arcs.
    pub pull: u32,
    pub source: u32,
    /// The least arc weight of the graph (the economic variant's `Delta_base`).
    pub min_weight: u32,
}

/// Stamp bit of a settled vertex (the rest of the stamp is the step that settled it). Relax
/// stamps are step numbers below it, and `NO_ITER` marks an unreached vertex (distance `INF`).
pub const SETTLED: u32 = 1 << 31;
/// Cells of the two candidate-list lengths.
pub const SETTLE_CELL_CAND: usize = 0;
/// Cell of the frontier length.
pub const SETTLE_CELL_FRONTIER: usize = 2;
/// Cell set to 1 when the settle loop finished (every reached vertex settled).
pub const SETTLE_CELL_DONE: usize = 3;

const _: () = assert!(SETTLE_CELL_DONE < CELL_BARRIER_COUNT);
const _: () = assert!(core::mem::size_of::<SettleArgs>() == 40 + 40 + 8 * 4 + 16 + 8 * 4 + 8 + 16);
unsafe impl Send for SettleArgs {}
unsafe impl Sync for SettleArgs {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_orders_by_distance_then_iteration() {
        assert!(pack(3, 9) < pack(4, 0));
        assert!(pack(3, 1) < pack(3, 2));
        assert_eq!(dist_of(pack(7, 5)), 7);
        assert_eq!(iter_of(pack(7, 5)), 5);
        assert_eq!(dist_of(pack(INF, NO_ITER)), INF);
    }

    const PILE_BYTES: usize = core::mem::size_of::<PileArgs>();

    /// Parameter blocks of pseudo-random bytes (any bit pattern is a valid `PileArgs`: integers
    /// and raw pointers), made lean: the common run's options set by hand.
    fn lean_blocks() -> impl Iterator<Item = PileArgs> {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        (0..200).map(move |_| {
            let mut b = [0u8; PILE_BYTES];
            for byte in b.iter_mut() {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                *byte = x as u8;
            }
            // SAFETY: as above.
            let mut p: PileArgs = unsafe { core::mem::transmute(b) };
            p.adv.balance = Balance::VirtualWarp as u32;
            p.adv.dedupe = Dedupe::Stamp as u32;
            p.adv.cutoff = NO_CUTOFF;
            p.adv.hub = Queue { items: core::ptr::null_mut(), len: core::ptr::null_mut() };
            p.adv.hub_zero = core::ptr::null_mut();
            p.adv.hub_pass = 0;
            p.adv.csr.lane_bits = 0;
            p.adv.csr.metric = Metric::Integer.code();
            p.adv.push_prefix = core::ptr::null_mut();
            p.wide_at = 0;
            p.target = NO_TARGET;
            p.push_prefix = core::ptr::null_mut();
            p
        })
    }

    #[test]
    fn the_lean_loop_pins_only_the_common_runs_options() {
        for p in lean_blocks() {
            assert!(p.is_lean());
            // Every byte the lean loop sees is the run's own: it changes nothing of a lean run.
            assert_eq!(p.leaned().bytes(), p.bytes());
            // Each option away from the lean value sends the run to the plain loop.
            let away: [fn(&mut PileArgs); 13] = [
                |p| p.adv.balance = Balance::Partition as u32,
                |p| p.adv.dedupe = Dedupe::Lookup as u32,
                |p| p.adv.cutoff = 1000,
                |p| p.adv.hub.items = 8 as *mut u32,
                |p| p.adv.hub.len = 8 as *mut u32,
                |p| p.adv.hub_zero = 8 as *mut u32,
                |p| p.adv.hub_pass = 1,
                |p| p.adv.csr.lane_bits = 2,
                |p| p.adv.csr.metric = Metric::Real.code(),
                |p| p.wide_at = 64,
                |p| p.target = 3,
                |p| p.push_prefix = 8 as *mut u64,
                |p| p.adv.push_prefix = 8 as *mut u64,
            ];
            for f in away {
                let mut q = p;
                f(&mut q);
                assert!(!q.is_lean());
            }
        }
    }
}
