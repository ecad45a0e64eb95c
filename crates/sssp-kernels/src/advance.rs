//! The advance operator: relax every out-arc of every vertex in the input frontier, pushing the
//! heads that improved onto the output frontier. One body, three ways of mapping arcs to threads
//! ([`Balance`]), chosen per launch:
//!
//! - `Thread`: vertex `i` of the frontier goes to thread `i mod T` (Davidson's baseline).
//! - `VirtualWarp`: a vertex goes to a virtual warp of `W` lanes that stride over its arcs;
//!   `W` is picked *on the device* from the frontier length (H-BF §5.2's dynamic virtual warps),
//!   so the host can queue the launch without reading the length back.
//! - `Partition`: arcs are numbered `0..E` across the frontier by an exclusive scan of degrees;
//!   warps take chunks of 64 to 256 consecutive arc ranks ([`chunk_for`]) and each lane finds
//!   the vertex of its rank by binary search inside the chunk's bracket (Davidson §IV-B's
//!   load-balanced partitioning; the bracket is a merge-path diagonal search). Every warp does
//!   equal work, whatever the degree distribution.
//!
//! - `Cta` and `CtaWarpScan` (Davidson §IV-B's cooperative blocks and Merrill's CTA+Warp+Scan)
//!   work on tiles of [`BLOCK`] input vertices held in a [`Tile`] (shared memory on the GPU):
//!   [`tile_load`] per thread, a block-wide scan, [`tile_place`] per thread, [`tile_expand`]
//!   per thread. The GPU runs the phases with block barriers between them
//!   (`grid::advance_tiles`), the CPU engine one tile at a time with a host scan.
//!
//! **Hubs.** In every mode but `Partition`, an input vertex with at least `hub_degree` out-arcs
//! is not expanded by its thread, virtual warp or block (which would serialise it: one thread
//! walking a 100,000-arc hub stalls the whole iteration); it is pushed onto the hub queue, and
//! a second pass over that queue with partition balance ([`hub_pass`]) spreads its arcs evenly
//! over the grid, the role dynamic parallelism plays in H-BF (§5.3).
//!
//! Invariant kept by every mode: when a launch returns, every arc out of every input vertex has
//! been relaxed with that vertex's distance at some moment during the launch, and every vertex
//! whose distance dropped is in the output (once per iteration with `Dedupe::Stamp`, once per
//! improvement with `Dedupe::Lookup`).

use crate::relax::*;
use crate::split::{is_stale, is_stale_within, pushes, pushes_within, Bounds};
use crate::types::*;

/// Reset a run: distances to `(INF, NO_ITER)`, the source to `(0, 0)`, the frontier to
/// `[source]` (when it has items) and the counters to zero.
#[inline(always)]
pub unsafe fn init(a: &InitArgs, tid: u32, nthreads: u32) {
    let mut v = tid;
    while v < a.n {
        let p = if v == a.source { pack(a.zero, 0) } else { pack(INF, NO_ITER) };
        *a.dist.add(v as usize) = p;
        v += nthreads;
    }
    if tid == 0 {
        if !a.frontier.items.is_null() {
            if a.source < a.n {
                *a.frontier.items = a.source;
                *a.frontier.len = 1;
            } else {
                *a.frontier.len = 0;
            }
        }
        *a.counters = Counters::default();
    }
}

/// After an [`init`] without a source: put every seed at distance 0 and on the frontier.
#[inline(always)]
pub unsafe fn seed(a: &SeedArgs, tid: u32, nthreads: u32) {
    let mut i = tid;
    while i < a.count {
        let v = *a.sources.add(i as usize);
        *a.dist.add(v as usize) = pack(a.zero, 0);
        *a.frontier.items.add(i as usize) = v;
        i += nthreads;
    }
    if tid == 0 {
        *a.frontier.len = a.count;
    }
}

/// Copy out the distances (half the bytes of the packed words: what the host downloads).
#[inline(always)]
pub unsafe fn extract(a: &ExtractArgs, tid: u32, nthreads: u32) {
    let mut v = tid;
    while v < a.n {
        *a.out.add(v as usize) = dist_of(*a.dist.add(v as usize));
        v += nthreads;
    }
}

/// The number of vertices in the input frontier.
#[inline(always)]
pub unsafe fn input_len(a: &AdvanceArgs) -> u32 {
    if a.input.items.is_null() {
        a.csr.n
    } else {
        load_len(a.input.len)
    }
}

/// The vertex in slot `i` of the input frontier.
#[inline(always)]
unsafe fn input_item(a: &AdvanceArgs, i: u32) -> u32 {
    if a.input.items.is_null() {
        i
    } else {
        *a.input.items.add(i as usize)
    }
}

/// H-BF's dynamic virtual-warp width: the largest power of two `W <= 32` such that the
/// frontier still gives every virtual warp a vertex (`len * W <= nthreads`). Small frontiers
/// get wide warps (their hubs are spread over lanes); large ones get one thread per vertex.
///
/// Halving from [`MAX_VWARP`] until the frontier fits, not `nthreads / len`: the width starts
/// every iteration's chain on the GPU (the lanes' slots, then their items, depend on it), and a
/// `div.u32` is a long dependent sequence there.
#[inline(always)]
pub fn vwarp_width(len: u32, nthreads: u32) -> u32 {
    if len == 0 {
        return 1;
    }
    let mut w = MAX_VWARP;
    while w > 1 && len as u64 * w as u64 > nthreads as u64 {
        w >>= 1;
    }
    w
}

/// A thread's place among the virtual warps of a power-of-two `width` ([`vwarp_width`]): its
/// lane, its first slot (its virtual warp's index), the number of virtual warps, and the trips
/// over a vertex's arcs, all by shifts and masks. A `div.u32` is a long dependent sequence on
/// the GPU, and these start every iteration's chain (docs/gpu.md, "No divisions on the chain").
/// Shared by the advance, the block loop and the settle loop's frontier relaxation; each walks
/// its slots `first, first + groups, ...` while [`any_lane`] of the physical warp has one left.
#[derive(Clone, Copy)]
pub(crate) struct Vwarps {
    shift: u32,
    pub lane: u32,
    pub first: u32,
    pub groups: u32,
}

impl Vwarps {
    /// Thread `tid` of `nthreads` in virtual warps of `width` lanes (a power of two).
    #[inline(always)]
    pub fn of(width: u32, tid: u32, nthreads: u32) -> Vwarps {
        let shift = width.trailing_zeros();
        Vwarps { shift, lane: tid & (width - 1), first: tid >> shift, groups: nthreads >> shift }
    }

    /// Trips of a virtual warp over `deg` arcs: `deg / width` rounded up.
    #[inline(always)]
    pub fn trips(self, deg: u64) -> u64 {
        (deg + ((1u64 << self.shift) - 1)) >> self.shift
    }
}

/// Whether `p` holds on some lane of the calling physical warp: every lane of the warp must
/// call it. On the CPU, whose "warps" are not lock-stepped, the lane's own `p`.
#[inline(always)]
pub(crate) fn any_lane(p: bool) -> bool {
    #[cfg(target_arch = "nvptx64")]
    {
        unsafe { crate::warp::ballot(crate::warp::active_mask(), p) != 0 }
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        p
    }
}

/// What relaxing one arc asks the calling lane to push (all lanes of a warp then call
/// [`emit`] together, so the near and far pushes can be warp-aggregated).
#[derive(Clone, Copy)]
struct Emit {
    v: u32,
    near: bool,
    far: bool,
}

const NOTHING: Emit = Emit { v: 0, near: false, far: false };

/// Relax one arc `e` out of vertex `u` at distance `du`. Pushes to a
/// bucket slot happen here (a per-lane destination); near and far pushes are returned for
/// [`emit`]. `C`: `a.csr.targets` is the classified copy (H-BF's edge classes, see
/// [`crate::classify`]): self-loops and arcs into sinks are not relaxed (nor counted), an arc
/// into an in-degree-1 head stores without an atomic. Counting the arc in `arcs` is the
/// caller's when `C = false` (before the call: the plain kernels compile exactly as they did
/// before classes existed) and this function's when `C = true` (only arcs really relaxed).
/// `FILTER`: read the head's distance before the atomic min ([`relax_seen`] after
/// [`load_dist_for_test`], a read L1 may serve) or not ([`relax_direct`]; see
/// [`VWARP_FILTERS`]).
#[inline(always)]
unsafe fn relax_arc<const C: bool, const FILTER: bool>(
    a: &AdvanceArgs,
    k: Option<&Bounds>,
    u: u32,
    du: u32,
    e: u64,
    arcs: &mut u64,
) -> Emit {
    let word = *a.csr.targets.add(e as usize);
    relax_read::<C, FILTER>(a, k, u, du, word, *a.csr.weights.add(e as usize), arcs)
}

/// [`relax_arc`] for an arc whose target word `word` and weight `w` the caller has read.
#[inline(always)]
unsafe fn relax_read<const C: bool, const FILTER: bool>(
    a: &AdvanceArgs,
    k: Option<&Bounds>,
    u: u32,
    du: u32,
    word: u32,
    w: u32,
    arcs: &mut u64,
) -> Emit {
    commit(a, k, probe::<C, FILTER>(a, u, du, word, w, arcs))
}

/// A relaxation up to its head's test: the head `v`, the candidate `c`, and what [`commit`]
/// tests the candidate against: `seen`, the head's distance as [`load_dist_for_test`] read it,
/// `INF` where no read is made (every candidate goes to the atomic min), or 0 where there is
/// nothing to relax (no candidate passes); `single`: the head has one in-arc
/// ([`relax_single`], no atomic). One test for every case keeps [`commit`] one branch.
#[derive(Clone, Copy)]
struct Probe {
    v: u32,
    c: u32,
    seen: u32,
    single: bool,
}

const NO_PROBE: Probe = Probe { v: 0, c: 0, seen: 0, single: false };

/// The first half of [`relax_read`]: the head, the candidate, and (`FILTER`) the read of the
/// head's distance for the test, which [`commit`] makes. Apart so that a walk can issue a
/// later arc's read before it commits an earlier one ([`PartitionStep`]).
#[inline(always)]
unsafe fn probe<const C: bool, const FILTER: bool>(
    a: &AdvanceArgs,
    u: u32,
    du: u32,
    word: u32,
    w: u32,
    arcs: &mut u64,
) -> Probe {
    let (v, class) = if C { a.csr.head_class_in(u, word) } else { (a.csr.head_in(u, word), ARC_PLAIN) };
    if C {
        if class >= ARC_SINK {
            return NO_PROBE;
        }
        *arcs += 1;
    }
    let Some(c) = candidate_within(a.csr.metric(), du, w, a.cutoff, a.counters) else {
        return NO_PROBE;
    };
    let single = C && class == ARC_SINGLE;
    let seen = if FILTER && !single { load_dist_for_test(a.dist, v) } else { INF };
    Probe { v, c, seen, single }
}

/// The second half of [`relax_read`]: the test and the atomic min, then the pushes.
#[inline(always)]
unsafe fn commit(a: &AdvanceArgs, k: Option<&Bounds>, p: Probe) -> Emit {
    let (v, c) = (p.v, p.c);
    let r = if p.single { relax_single(a.dist, v, c, a.iter) } else { relax_seen(a.dist, v, c, a.iter, p.seen) };
    if !r.improved {
        return NOTHING;
    }
    // Only a topology-driven sweep (no output queue) reads the flag; a frontier run learns the
    // same from its queues. Raised there too, its read (made before the write to keep the hot
    // line shared) stood between every improving relaxation and its push: a round trip to L2.
    // Without it the one-vertex iteration of the plain loop took 3.38 us instead of 3.56 on
    // the H100 (2026-11-27).
    if a.output.items.is_null() {
        raise(core::ptr::addr_of_mut!((*a.counters).improved));
    }
    let lookup = a.dedupe == Dedupe::Lookup as u32;
    let p = match k {
        Some(k) => pushes_within(&a.buckets, k, &r, c, lookup),
        None => pushes(&a.buckets, &r, c, lookup),
    };
    if let Some(s) = p.slot {
        push_within(a.buckets.slot(s), v, a.buckets.room);
    }
    Emit { v, near: p.near && !a.output.items.is_null(), far: p.far }
}

/// The near and far pushes of one relaxation. Every lane of a warp that reaches an `emit`
/// must make it (see [`push`]); whether buckets are on is the same for the whole grid.
#[inline(always)]
unsafe fn emit(a: &AdvanceArgs, x: Emit) {
    // On the GPU the output's pushes are also tallied in the block, for the loop's counting
    // barrier (`GridBarrier::wait_counting`).
    #[cfg(target_arch = "nvptx64")]
    crate::warp::warp_push_tallied(a.output, x.v, x.near);
    #[cfg(not(target_arch = "nvptx64"))]
    push(a.output, x.v, x.near);
    if a.buckets.nbuckets != 0 {
        push(a.buckets.far, x.v, x.far);
    }
}

/// The out-degree of `v` (a near push's, when the pushes build the queue's prefix).
#[inline(always)]
unsafe fn degree_of(a: &AdvanceArgs, v: u32) -> u32 {
    let (start, end) = a.csr.arcs(v);
    (end - start) as u32
}

/// [`emit`] for the partitioned advance when its pushes build the near queue's degree prefix
/// (`a.push_prefix` not null, see `PileArgs::push_prefix`), so that the next iteration's
/// advance reads the prefix instead of scanning its input's degrees (two grid barriers fewer
/// on the GPU). The GPU stages the near pushes of a warp and writes them out together
/// (`warp::PushStage`); the CPU pushes one at a time, each with its degree. The far push is
/// [`emit`]'s.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
unsafe fn emit_prefixed(a: &AdvanceArgs, x: Emit, stage: &mut crate::warp::PushStage) {
    stage.push(a.output, a.push_prefix, x.v, x.near, |v| degree_of(a, v));
    if a.buckets.nbuckets != 0 {
        push(a.buckets.far, x.v, x.far);
    }
}

/// [`emit_prefixed`] on the CPU.
#[cfg(not(target_arch = "nvptx64"))]
#[inline(always)]
unsafe fn emit_prefixed(a: &AdvanceArgs, x: Emit) {
    if x.near {
        let deg = degree_of(a, x.v);
        // One atomic add per push, in the order the GPU's warps take theirs. The end of the
        // run is also the next push's start: both write the same value, so the stores are
        // atomic (racing plain stores would be a data race even when the values agree).
        use core::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};
        let old = AtomicU64::from_ptr(a.output.len as *mut u64).fetch_add(1 | (deg as u64) << 32, Relaxed);
        let slot = old as u32 as usize;
        AtomicU32::from_ptr(a.output.items.add(slot)).store(x.v, Relaxed);
        AtomicU64::from_ptr(a.push_prefix.add(slot)).store(old >> 32, Relaxed);
        AtomicU64::from_ptr(a.push_prefix.add(slot + 1)).store((old >> 32) + deg as u64, Relaxed);
    }
    if a.buckets.nbuckets != 0 {
        push(a.buckets.far, x.v, x.far);
    }
}

/// Whether the thread and virtual-warp advances read a head's distance before its atomic min.
/// Not on the GPU: those modes serve road graphs and meshes, whose heads are rarely contended,
/// so the read only lengthens each improving relaxation by a round trip ([`relax_direct`]).
/// The partitioned and tiled advances keep it: they serve scale-free graphs, where most arcs
/// lead into a few hubs and a failed read spares a contended atomic. On the CPU a 64-bit atomic
/// min is a compare-and-swap loop, so every mode reads first.
const VWARP_FILTERS: bool = cfg!(not(target_arch = "nvptx64"));

/// Relax arc `e` of `u` (at distance `du`) when `live`, count it in `arcs`, and make the pushes
/// it asks for. Every lane of a warp calls it on each trip, live or not (see [`emit`]).
/// `FILTER` as [`relax_arc`]'s.
#[inline(always)]
unsafe fn relax_step<const C: bool, const FILTER: bool>(
    a: &AdvanceArgs,
    k: Option<&Bounds>,
    live: bool,
    u: u32,
    du: u32,
    e: u64,
    arcs: &mut u64,
) {
    let x = if live {
        if !C {
            *arcs += 1;
        }
        relax_arc::<C, FILTER>(a, k, u, du, e, arcs)
    } else {
        NOTHING
    };
    emit(a, x);
}

/// The distance an input vertex is expanded with: `INF` (skip) when unreached, or when it is a
/// stale bucket entry (see [`is_stale`]; by the window's bounds `k` when given).
#[inline(always)]
unsafe fn live_dist(a: &AdvanceArgs, k: Option<&Bounds>, u: u32) -> u32 {
    expand_dist(a, k, dist_of(load_packed(a.dist, u)))
}

/// [`live_dist`] of a distance `d` the caller has read.
#[inline(always)]
unsafe fn expand_dist(a: &AdvanceArgs, k: Option<&Bounds>, d: u32) -> u32 {
    let stale = match k {
        Some(k) => is_stale_within(&a.buckets, k, d),
        None => is_stale(&a.buckets, d),
    };
    if stale {
        INF
    } else {
        d
    }
}

/// The arc range of vertex `u` and the distance to expand it with (`INF`: skip it), as
/// [`live_dist`] says.
#[inline(always)]
pub(crate) unsafe fn vertex(a: &AdvanceArgs, k: Option<&Bounds>, u: u32) -> (u64, u64, u32) {
    let (start, end) = a.csr.arcs(u);
    (start, end, live_dist(a, k, u))
}

/// What thread 0 of every advance launch does first (zero the cells of the next iteration,
/// count the input); returns the input length.
#[inline(always)]
pub unsafe fn prologue(a: &AdvanceArgs, tid: u32) -> u32 {
    prologue_of(a, None, tid)
}

/// [`prologue`] for an input whose length the caller may know already (`known`: the loop's
/// control step read it, `frontier::PileState::input_len`), which spares a dependent read.
#[inline(always)]
pub unsafe fn prologue_of(a: &AdvanceArgs, known: Option<u32>, tid: u32) -> u32 {
    if tid == 0 && !a.zero_len.is_null() {
        *a.zero_len = 0;
    }
    if tid == 0 && !a.hub_zero.is_null() {
        *a.hub_zero = 0;
    }
    let len = match known {
        Some(len) => len,
        None => input_len(a),
    };
    if tid == 0 && a.hub_pass == 0 {
        count_advance(a.counters, len as u64);
    }
    len
}

/// Whether a live vertex with arcs `[start, end)` goes to the hub queue (see the module doc).
#[inline(always)]
fn is_hub(a: &AdvanceArgs, start: u64, end: u64) -> bool {
    !a.hub.items.is_null() && end - start >= a.hub_degree as u64
}

/// The hub pass of an advance whose hub queue is non-empty: the same iteration (stamp, output,
/// buckets) over the hub queue with partition balance; `prefix` must hold the exclusive scan
/// of the hub queue's degrees (`len + 1` entries). Its input was counted by the first pass.
#[inline(always)]
pub fn hub_pass(a: &AdvanceArgs, prefix: *const u64) -> AdvanceArgs {
    AdvanceArgs {
        input: a.hub,
        balance: Balance::Partition as u32,
        scan: prefix,
        zero_len: core::ptr::null_mut(),
        hub: Queue { items: core::ptr::null_mut(), len: core::ptr::null_mut() },
        hub_zero: core::ptr::null_mut(),
        hub_pass: 1,
        ..*a
    }
}

/// The advance kernel body for the thread, virtual-warp and partition modes (see the module
/// doc; the tiled modes run through [`tile_load`], [`tile_place`] and [`tile_expand`]).
#[inline(always)]
pub unsafe fn advance<const C: bool>(a: &AdvanceArgs, tid: u32, nthreads: u32) {
    add_arcs(a.counters, advance_of::<C, true, false>(a, None, tid, nthreads));
}

/// [`advance`] with the input's length when the caller knows it ([`prologue_of`]), returning
/// the arcs this thread relaxed instead of adding them to the run's counter: the caller adds
/// them, every thread of a warp together ([`add_arcs`] folds over the warp). The persistent
/// loop adds its threads' counts once, when the launch ends: folded in every iteration, the
/// count's ten dependent shuffles and its atomic stood between each warp's last push and the
/// grid barrier. `VWARP = false` compiles the partitioned advance only (whatever `a.balance`
/// says): the partition loop's. `FILTER` as [`advance_vwarp`]'s.
#[inline(always)]
pub unsafe fn advance_of<const C: bool, const VWARP: bool, const FILTER: bool>(
    a: &AdvanceArgs,
    known: Option<u32>,
    tid: u32,
    nthreads: u32,
) -> u64 {
    let len = prologue_of(a, known, tid);
    let partition = !VWARP || a.balance == Balance::Partition as u32;
    let width = if a.balance == Balance::VirtualWarp as u32 { vwarp_width(len, nthreads) } else { 1 };
    // Whole warps with nothing to do leave at once. A grid is sized for the largest frontier,
    // but road graphs run hundreds of iterations over a few hundred vertices: without this,
    // every idle warp still walks the loop prologues and the warp reductions below.
    let needed = if partition {
        let total = partition_total(a, len);
        // The GPU's walk gives each warp one run of ranks, the CPU's chunks in turn.
        let per_warp = if cfg!(target_arch = "nvptx64") && !VWARP {
            share_for(total, nthreads)
        } else {
            chunk_for(total, nthreads)
        };
        total.div_ceil(per_warp) * 32
    } else {
        len as u64 * width as u64
    };
    if (tid & !31) as u64 >= needed {
        return 0;
    }
    if partition {
        // The partition loop's advance (and the CPU's, which runs every loop) builds the
        // output's degree prefix when the host asked for it; the other GPU loops never do, and
        // scan their inputs (`grid::Grid::advance`).
        let prefixed = (!VWARP || cfg!(not(target_arch = "nvptx64"))) && !a.push_prefix.is_null();
        advance_partition::<C>(a, len, tid, nthreads, prefixed, !VWARP)
    } else {
        advance_vwarp::<C, FILTER>(a, len, width, tid, nthreads)
    }
}

/// The prefix array of the partition mode: the scan of the frontier's degrees, or the CSR
/// offsets themselves for a topology-driven sweep over every vertex.
#[inline(always)]
unsafe fn partition_prefix(a: &AdvanceArgs) -> *const u64 {
    if a.scan.is_null() {
        a.csr.offsets
    } else {
        a.scan
    }
}

/// Arcs out of the whole input frontier (partition mode).
#[inline(always)]
unsafe fn partition_total(a: &AdvanceArgs, len: u32) -> u64 {
    *partition_prefix(a).add(len as usize)
}

/// Thread-mapped (`width == 1`) and virtual-warp advance. Returns arcs relaxed by this thread.
///
/// The loops run the same number of trips on every lane of a physical warp (bounds are rounded
/// up to the warp), so the warp-aggregated [`push`] is always reached by the whole warp.
/// `FILTER`: read each head's distance before the atomic min on the GPU too (the wide loop, for
/// dense graphs); the CPU always reads first ([`VWARP_FILTERS`]).
#[inline(always)]
unsafe fn advance_vwarp<const C: bool, const FILTER: bool>(
    a: &AdvanceArgs,
    len: u32,
    width: u32,
    tid: u32,
    nthreads: u32,
) -> u64 {
    let map = Vwarps::of(width, tid, nthreads);
    let mut arcs = 0u64;
    let mut i = map.first;
    // The window's bounds, once per advance: the stale and class tests compare with them
    // instead of dividing by delta (`split::Bounds`).
    let k = Bounds::of(&a.buckets);
    // A physical warp takes slot trips while one of its virtual warps has a slot left, so all
    // its lanes take the same number of trips.
    while any_lane(i < len) {
        let u = if i < len { input_item(a, i) } else { 0 };
        let (start, end, du) = if i < len { vertex(a, Some(&k), u) } else { (0, 0, INF) };
        let hub = du != INF && is_hub(a, start, end);
        // One lane of the virtual warp pushes the hub (the queue has room for each input vertex
        // once); every lane of the physical warp reaches the push (equal slot trips, see above).
        push(a.hub, u, hub && map.lane == 0);
        let live = du != INF && !hub;
        let trips = if live { map.trips(end - start) } else { 0 };
        // Every lane of a physical warp makes the same trips. A virtual warp as wide as the
        // physical one has them already (one vertex, one `live`): the fold's ten dependent
        // shuffles are only needed for narrower ones.
        let trips = if width >= 32 { trips } else { warp_max_u64(trips) };
        let mut e = start + map.lane as u64;
        for _ in 0..trips {
            let live = live && e < end;
            if FILTER || VWARP_FILTERS {
                relax_step::<C, true>(a, Some(&k), live, u, du, e, &mut arcs);
            } else {
                relax_step::<C, false>(a, Some(&k), live, u, du, e, &mut arcs);
            }
            e += width as u64;
        }
        i += map.groups;
    }
    arcs
}

/// Frontiers up to this many vertices are partitioned by every warp on its own, without a
/// degree prefix ([`advance_small_partition`]): the partition loop (`grid::pile_loop` with
/// `SMALL`) then skips the device-wide scan and its two grid barriers.
pub const SMALL_PARTITION: u32 = 32;

/// The partitioned advance of a frontier of at most [`SMALL_PARTITION`] vertices (GPU only), the
/// whole kernel body: what [`advance_of`] does, without a prefix (see [`advance_partition_small`]).
/// Returns the arcs this thread relaxed, as [`advance_of`] does.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub unsafe fn advance_small_partition<const C: bool>(
    a: &AdvanceArgs,
    known: Option<u32>,
    tid: u32,
    nthreads: u32,
) -> u64 {
    let len = prologue_of(a, known, tid);
    advance_partition_small::<C>(a, len, tid, nthreads)
}

/// The partitioned advance of a frontier of at most 32 vertices (GPU only, see
/// [`SMALL_PARTITION`]): lane `j` of every warp reads vertex `j` and its arc range, a warp scan
/// of the degrees is the prefix, and the warps walk their runs of ranks as
/// [`partition_walk_runs`] does, the slots already in their lanes. No prefix array, no grid
/// barrier: a one-vertex iteration of the partition loop took 7.5 us on the H100 against 14
/// with the scan (a virtual-warp iteration: 5.2).
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
unsafe fn advance_partition_small<const C: bool>(a: &AdvanceArgs, len: u32, tid: u32, nthreads: u32) -> u64 {
    let lane = tid % 32;
    let mine = lane < len;
    let u = if mine { input_item(a, lane) } else { 0 };
    let (start, end) = if mine { a.csr.arcs(u) } else { (0, 0) };
    let deg = end - start;
    let incl = crate::warp::warp_scan_u64(deg);
    let total = crate::warp::broadcast_u64(incl, 31);
    // Lanes past the frontier hold a prefix no rank reaches.
    let p = if mine { incl - deg } else { u64::MAX };
    let d = Slot { u, start };
    let mut ps = PartitionStep::<C, 2>::new(a, !a.push_prefix.is_null());
    // One run of ranks a warp, as in `partition_walk_runs`.
    let share = share_for(total, nthreads);
    let lo = (tid / 32) as u64 * share;
    if lo < total {
        walk_lanes(lo, share, (lo + share).min(total), p, d, lane, &mut |at| ps.step(arc_of(at)));
    }
    ps.drain()
}

/// What the partitioned advance does with the ranks a walk hands out (or `None`), one trip of
/// the warp's lanes at a time, as a pipeline `DEPTH` trips deep: a trip's reads (its arc, its
/// tail's distance) are issued one step, and with `DEPTH = 2` its head's test read the next
/// step ([`probe`]), before the atomic min and the pushes of the trips ahead of it
/// ([`commit`]). A lane's walk was one chain of dependent round trips per trip: the reads,
/// then the head's read, then the atomic. In a pipeline two deep the chain of a trip is its
/// atomic alone, the reads of the two trips behind it in flight meanwhile.
/// [`PartitionStep::drain`] commits the trips still in it.
///
/// Measured (H100, 2026-11-28): in ncu's
/// profile of the partition loop on kron 18, 16% of warp samples waited for a trip's reads and
/// 12% for its head's test read. The partition loop runs it two deep: with the runs of
/// [`partition_walk_runs`], kron 17 and 18 took 17-28% less time on the H100, kron 16 up to 15%
/// (one round of three 4% more). The other loops that
/// take partition balance (the wide loop, the hubs loop, the host loop's advance) run it zero
/// deep, as before: one and two deep were not faster on kron 22 (6.3-7.4 ms against 6.4-6.5 on
/// an H200, within the spread of its work), and their registers (64 in the wide loop) spill
/// more.
///
/// The tail's distance is read per rank, not with the slot: a vertex lowered while the walk
/// runs then expands with its lower distance (read with the slot, kron 16-18 relaxed 15-25%
/// more arcs on the H100 and ran slower). Read a trip early it is still one of this
/// iteration's values (a `load_packed`, from L2), never older than the advance's start: a
/// vertex lowered during the iteration is in the output queue and expands again next time.
#[cfg(target_arch = "nvptx64")]
struct PartitionStep<'a, const C: bool, const DEPTH: u32> {
    a: &'a AdvanceArgs,
    arcs: u64,
    prefixed: bool,
    stage: crate::warp::PushStage,
    /// The reads of the last trip, not yet probed.
    fetched: Fetched,
    /// The trip before it, probed, not yet committed.
    probed: Probe,
}

/// A rank's reads: its tail `u` at distance `du` (as read: `INF` for nothing to relax, and
/// not yet tested for staleness), its arc's target word and weight.
#[cfg(target_arch = "nvptx64")]
#[derive(Clone, Copy)]
struct Fetched {
    u: u32,
    du: u32,
    word: u32,
    w: u32,
}

#[cfg(target_arch = "nvptx64")]
const NO_RANK: Fetched = Fetched { u: 0, du: INF, word: 0, w: 0 };

#[cfg(target_arch = "nvptx64")]
impl<'a, const C: bool, const DEPTH: u32> PartitionStep<'a, C, DEPTH> {
    #[inline(always)]
    unsafe fn new(a: &'a AdvanceArgs, prefixed: bool) -> Self {
        PartitionStep {
            a,
            arcs: 0,
            prefixed,
            stage: crate::warp::PushStage::of_warp(),
            fetched: NO_RANK,
            probed: NO_PROBE,
        }
    }

    /// Issue the reads of this trip's rank (its tail vertex and its arc), probe the last
    /// trip's, commit the one before.
    #[inline(always)]
    unsafe fn step(&mut self, at: Option<(u32, u64)>) {
        let next = match at {
            Some((u, e)) => {
                // The arc is read with the tail's distance, not after its test: the loads are
                // in flight together (the arc is only unused when the tail is stale or
                // unreached, which is rare). `asm` loads: LLVM neither sinks them into the
                // branch that uses them nor merges them.
                let e = e as usize;
                let word = crate::warp::load_arc_word(self.a.csr.targets.add(e));
                let w = crate::warp::load_arc_word(self.a.csr.weights.add(e));
                // Not tested here: a branch on the load would wait for it.
                Fetched { u, du: dist_of(load_packed(self.a.dist, u)), word, w }
            }
            None => NO_RANK,
        };
        // Each stage of the pipeline holds its trip for a step where `DEPTH` reaches it.
        let f = if DEPTH >= 1 { core::mem::replace(&mut self.fetched, next) } else { next };
        let q = self.probe(f);
        let p = if DEPTH >= 2 { core::mem::replace(&mut self.probed, q) } else { q };
        self.commit(p)
    }

    /// Commit the trips still in the pipeline and write out the staged pushes: the walk's end,
    /// before the advance's barrier. Returns the arcs this thread relaxed.
    #[inline(always)]
    unsafe fn drain(mut self) -> u64 {
        for _ in 0..DEPTH {
            self.step(None);
        }
        if self.prefixed {
            let a = self.a;
            self.stage.flush(a.output, a.push_prefix, |v| degree_of(a, v));
        }
        self.arcs
    }

    #[inline(always)]
    unsafe fn probe(&mut self, f: Fetched) -> Probe {
        let du = expand_dist(self.a, None, f.du);
        if du == INF {
            return NO_PROBE;
        }
        if !C {
            self.arcs += 1;
        }
        probe::<C, true>(self.a, f.u, du, f.word, f.w, &mut self.arcs)
    }

    #[inline(always)]
    unsafe fn commit(&mut self, p: Probe) {
        let a = self.a;
        let x = commit(a, None, p);
        if self.prefixed {
            emit_prefixed(a, x, &mut self.stage);
        } else {
            emit(a, x);
        }
    }
}

/// Ranks a warp takes at a time in the partitioned advance of `total` arcs over `nthreads`
/// threads: 64 when every warp then has one chunk at most, 128 up to 2,048 arcs a warp, else
/// [`LB_CHUNK`] (256, also what the walks that are not an iteration's advance take:
/// certificates, trees, settling). A lane walks its ranks of a chunk one after another
/// (`chunk / 32` trips, each a chain of dependent loads and atomics), so where the warps have a
/// chunk or a few each, the chunk's trips are the iteration's time; where they have many, each
/// chunk's two bracket searches are paid per arc. On the H100 a `gen:grid2d:1000x1000`
/// partition iteration (a few thousand arcs) took 27.2 us in chunks of 256, 19.3 in 128, 17.3
/// in 64 and 17.6 in 32; `gen:kron:16` 0.377-0.390 ms in 256 and 0.321-0.341 in 128, while 64
/// and 32 made the big iterations of kron 18-22 slower: kron 22 8.14 ms in 256, 7.88 in 128,
/// 9.40 in 64, and kron 24 took 36.4 ms in 128 against 33.0 in 256 (H100,
/// 2026-11-27).
#[inline(always)]
pub fn chunk_for(total: u64, nthreads: u32) -> u64 {
    // `total / warps <= 64` and `<= 2048`, by multiplications: a 64-bit division is a
    // subroutine of some 70 instructions on the GPU, and every thread calls this twice an
    // advance.
    let warps = (nthreads / 32).max(1) as u64;
    if total < 65 * warps {
        64
    } else if total < 2049 * warps {
        128
    } else {
        LB_CHUNK as u64
    }
}

/// Load-balanced partitioning advance. Returns arcs relaxed by this thread.
///
/// On the GPU the walk is [`partition_walk_runs`] in the partition loop (`narrow`: its
/// graphs have at most `NARROW_PARTITION_ARCS` arcs) and [`partition_walk_slots`] elsewhere;
/// both read a window of slots once, a slot a lane, and hand them to the lanes of their ranks
/// by shuffles, which takes most of the dependent loads off each rank's path (see there). The
/// CPU walks rank by rank.
#[inline(always)]
unsafe fn advance_partition<const C: bool>(
    a: &AdvanceArgs,
    len: u32,
    tid: u32,
    nthreads: u32,
    prefixed: bool,
    narrow: bool,
) -> u64 {
    let prefix = partition_prefix(a);
    #[cfg(target_arch = "nvptx64")]
    {
        let load = |s: u32| {
            let u = input_item(a, s);
            Slot { u, start: a.csr.arcs(u).0 }
        };
        // The trips still in the pipeline, and what the walk left staged, go out before the
        // advance's barrier (`drain`).
        if narrow {
            let mut ps = PartitionStep::<C, 2>::new(a, prefixed);
            partition_walk_runs(prefix, len, tid, nthreads, load, |at| ps.step(at));
            ps.drain()
        } else {
            let mut ps = PartitionStep::<C, 0>::new(a, prefixed);
            partition_walk_slots(prefix, len, tid, nthreads, load, |at| ps.step(arc_of(at)));
            ps.drain()
        }
    }
    #[cfg(not(target_arch = "nvptx64"))]
    let _ = narrow;
    #[cfg(not(target_arch = "nvptx64"))]
    let mut arcs = 0u64;
    #[cfg(not(target_arch = "nvptx64"))]
    partition_walk_in(prefix, len, tid, nthreads, chunk_for(*prefix.add(len as usize), nthreads), |at| {
        let x = match at {
            Some((s, r)) => {
                let u = input_item(a, s);
                let du = live_dist(a, None, u);
                if du != INF {
                    if !C {
                        arcs += 1;
                    }
                    let e = a.csr.arcs(u).0 + (r - *prefix.add(s as usize));
                    relax_arc::<C, true>(a, None, u, du, e, &mut arcs)
                } else {
                    NOTHING
                }
            }
            None => NOTHING,
        };
        if prefixed {
            emit_prefixed(a, x);
        } else {
            emit(a, x);
        }
    });
    #[cfg(not(target_arch = "nvptx64"))]
    arcs
}

/// What the partitioned advance reads once per input slot: its vertex and its first arc.
#[derive(Clone, Copy)]
#[cfg_attr(not(target_arch = "nvptx64"), allow(dead_code))]
struct Slot {
    u: u32,
    start: u64,
}

/// A walk's `(slot, offset)` as [`PartitionStep::step`] takes it: the tail and its arc.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
fn arc_of(at: Option<(Slot, u64)>) -> Option<(u32, u64)> {
    at.map(|(slot, offset)| (slot.u, slot.start + offset))
}

// ---------------------------------------------------------------------------------------------
// Tiled modes: cooperative blocks and CTA+Warp+Scan (Davidson et al. §IV-B). A tile is BLOCK
// consecutive input slots; its phases are plain functions of the thread's index `t` in the
// block, so the CPU engine runs them too (one tile at a time, a host scan in between).

/// One block's tile: what its threads loaded, and where each slot's arcs are walked.
#[repr(C)]
pub struct Tile {
    pub vertex: [u32; BLOCK as usize],
    /// Expansion distance of each slot's vertex.
    pub dist: [u32; BLOCK as usize],
    pub start: [u64; BLOCK as usize],
    pub end: [u64; BLOCK as usize],
    /// Exclusive prefix of the scan tier's degrees (other slots count 0), then the total.
    pub prefix: [u64; BLOCK as usize + 1],
    /// Slots of the CTA tier (walked by the whole block), then of the warp tier, compacted.
    pub cta: [u16; BLOCK as usize],
    pub warp: [u16; BLOCK as usize],
    /// Number of CTA-tier and warp-tier slots.
    pub counts: [u32; 2],
}

/// Bytes of a [`Tile`] (the GPU declares its shared copy with this size).
pub const TILE_BYTES: usize = 4 * 256 * 2 + 8 * 256 * 2 + 8 * 257 + 2 * 256 * 2 + 8;
const _: () = assert!(core::mem::size_of::<Tile>() == TILE_BYTES && BLOCK == 256);

/// A [`Tile`] with nothing in it (the CPU engine's starting point; the GPU's shared copy
/// needs none: [`tile_load`] and [`tile_place`] write every field that is later read).
pub const EMPTY_TILE: Tile = Tile {
    vertex: [0; BLOCK as usize],
    dist: [0; BLOCK as usize],
    start: [0; BLOCK as usize],
    end: [0; BLOCK as usize],
    prefix: [0; BLOCK as usize + 1],
    cta: [0; BLOCK as usize],
    warp: [0; BLOCK as usize],
    counts: [0; 2],
};

/// The scan value of a tile slot packs three counts, so one block scan places every slot:
/// the scan tier's degree in the low [`TILE_DEG_BITS`] bits (a tile's sum stays below 2^40
/// arcs), one CTA-tier slot at bit 40, one warp-tier slot at bit 52.
const TILE_DEG_BITS: u32 = 40;
const TILE_CTA_SHIFT: u32 = 40;
const TILE_WARP_SHIFT: u32 = 52;
const TILE_DEG_MASK: u64 = (1 << TILE_DEG_BITS) - 1;

/// Phase 1, thread `t` of the tile starting at input slot `base`: load the slot's vertex, send
/// a hub to the hub queue, pick its tier, and return its scan value. Every thread of the
/// block calls it (the hub push is warp-aggregated on the GPU).
#[inline(always)]
pub unsafe fn tile_load(a: &AdvanceArgs, tile: *mut Tile, base: u32, len: u32, t: u32) -> u64 {
    let i = base + t;
    let (u, (start, end, du)) = if i < len {
        let u = input_item(a, i);
        (u, vertex(a, None, u))
    } else {
        (0, (0, 0, INF))
    };
    let hub = du != INF && is_hub(a, start, end);
    push(a.hub, u, hub);
    let deg = end - start;
    let live = du != INF && !hub && deg > 0;
    let ts = t as usize;
    (*tile).vertex[ts] = u;
    (*tile).dist[ts] = du;
    (*tile).start[ts] = start;
    (*tile).end[ts] = end;
    let merrill = a.balance == Balance::CtaWarpScan as u32;
    if !live {
        0
    } else if merrill && deg >= BLOCK as u64 {
        1 << TILE_CTA_SHIFT
    } else if merrill && deg >= 32 {
        1 << TILE_WARP_SHIFT
    } else {
        deg
    }
}

/// Phase 2, thread `t`: place its slot from the block scan of the phase-1 values (`x` its
/// own, `excl` the sum below it, `total` the block's).
#[inline(always)]
pub unsafe fn tile_place(tile: *mut Tile, t: u32, x: u64, excl: u64, total: u64) {
    let ts = t as usize;
    (*tile).prefix[ts] = excl & TILE_DEG_MASK;
    if (x >> TILE_CTA_SHIFT) & 0xfff != 0 {
        (*tile).cta[((excl >> TILE_CTA_SHIFT) & 0xfff) as usize] = t as u16;
    }
    if x >> TILE_WARP_SHIFT != 0 {
        (*tile).warp[(excl >> TILE_WARP_SHIFT) as usize] = t as u16;
    }
    if t == 0 {
        (*tile).prefix[BLOCK as usize] = total & TILE_DEG_MASK;
        (*tile).counts = [((total >> TILE_CTA_SHIFT) & 0xfff) as u32, (total >> TILE_WARP_SHIFT) as u32];
    }
}

/// Walk slot `s`'s arcs with `width` lanes, this thread being `lane` (every lane of the group
/// takes the same number of trips). Returns the arcs this thread relaxed.
#[inline(always)]
unsafe fn tile_stride<const C: bool>(a: &AdvanceArgs, tile: *const Tile, s: usize, lane: u32, width: u32) -> u64 {
    let (u, du, start, end) = ((*tile).vertex[s], (*tile).dist[s], (*tile).start[s], (*tile).end[s]);
    let mut arcs = 0;
    let mut e = start + lane as u64;
    for _ in 0..(end - start).div_ceil(width as u64) {
        relax_step::<C, true>(a, None, e < end, u, du, e, &mut arcs);
        e += width as u64;
    }
    arcs
}

/// Phase 3, thread `t` of a placed tile: the CTA tier (the whole block walks each such slot
/// in turn), the warp tier (warp `w` walks slots `w, w + WARPS, ...` of the compacted list),
/// then the scan tier (ranks `t, t + BLOCK, ...` of the tile's concatenated short lists, each
/// finding its slot by binary search in the tile's prefix). Every thread of the block takes
/// the same number of trips in the CTA and scan tiers, every lane of a warp in the warp tier,
/// so the warp-aggregated pushes are always reached by whole warps. Returns arcs relaxed.
#[inline(always)]
pub unsafe fn tile_expand<const C: bool>(a: &AdvanceArgs, tile: *const Tile, t: u32) -> u64 {
    let mut arcs = 0;
    let [ncta, nwarp] = (*tile).counts;
    for k in 0..ncta as usize {
        arcs += tile_stride::<C>(a, tile, (*tile).cta[k] as usize, t, BLOCK);
    }
    let warps = BLOCK / 32;
    let mut k = t / 32;
    while k < nwarp {
        arcs += tile_stride::<C>(a, tile, (*tile).warp[k as usize] as usize, t % 32, 32);
        k += warps;
    }
    let prefix = core::ptr::addr_of!((*tile).prefix) as *const u64;
    let total = *prefix.add(BLOCK as usize);
    let mut r = t as u64;
    while r < total.div_ceil(BLOCK as u64) * BLOCK as u64 {
        let x = if r < total {
            let s = segment_of(prefix, 0, BLOCK, r) as usize;
            if !C {
                arcs += 1;
            }
            relax_arc::<C, true>(
                a,
                None,
                (*tile).vertex[s],
                (*tile).dist[s],
                (*tile).start[s] + r - *prefix.add(s),
                &mut arcs,
            )
        } else {
            NOTHING
        };
        emit(a, x);
        r += BLOCK as u64;
    }
    arcs
}

/// Davidson §IV-B's load-balanced partitioning as a walk: ranks `0..prefix[len]` (the arcs of
/// `len` slots whose degree prefix sums are `prefix`) are cut into chunks of [`LB_CHUNK`], one
/// warp per chunk; each lane finds the slot of its rank by binary search inside the chunk's
/// bracket (a merge-path diagonal search). `step(Some((slot, rank)))` for every rank, and
/// `step(None)` for the lanes past the end of the last chunk, so that every lane of a warp makes
/// the same number of calls (a step may use warp-collective operations).
#[inline(always)]
pub unsafe fn partition_walk(
    prefix: *const u64,
    len: u32,
    tid: u32,
    nthreads: u32,
    step: impl FnMut(Option<(u32, u64)>),
) {
    partition_walk_in(prefix, len, tid, nthreads, LB_CHUNK as u64, step)
}

/// [`partition_walk`] in chunks of `chunk` ranks (a multiple of 32).
#[inline(always)]
pub unsafe fn partition_walk_in(
    prefix: *const u64,
    len: u32,
    tid: u32,
    nthreads: u32,
    chunk: u64,
    mut step: impl FnMut(Option<(u32, u64)>),
) {
    let total = *prefix.add(len as usize);
    let lane = (tid % 32) as u64;
    let nwarps = (nthreads / 32) as u64;
    let nchunks = total.div_ceil(chunk);
    let mut c = (tid / 32) as u64;
    while c < nchunks {
        let lo = c * chunk;
        let hi = (lo + chunk).min(total);
        // The chunk's bracket of slots: every rank in [lo, hi) maps into [s_lo, s_hi].
        let s_lo = segment_of(prefix, 0, len, lo);
        let s_hi = segment_of(prefix, s_lo, len, hi - 1);
        let mut r = lo + lane;
        while r < lo + chunk {
            step(if r < hi { Some((segment_of(prefix, s_lo, s_hi + 1, r), r)) } else { None });
            r += 32;
        }
        c += nwarps;
    }
}

/// [`partition_walk`] for a warp that hands out its chunk's slots (GPU only): the same chunks,
/// ranks and order, but `step(Some((slot, offset)))` gets `load(s)` of the rank's slot `s` and
/// the rank's offset `r - prefix[s]` in it. The rank-by-rank walk makes every rank's path a
/// chain of dependent loads: two bracket searches of `log2(len)` steps per chunk, then per
/// rank a search inside the bracket, the slot's item, its distance and its arc range before
/// the arc itself. Here the bracket searches are warp-wide (32 probes a round, so a frontier
/// of 40,000 takes 4 rounds instead of 16); when the bracket holds at most 32 slots (any chunk
/// but one crossing runs of zero-degree slots), lane `j` loads slot `s_lo + j`'s prefix and
/// `load` once, and each rank finds its slot by a search over the lanes' prefixes with
/// shuffles, no memory. Wider brackets walk rank by rank, as the CPU does.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
unsafe fn partition_walk_slots(
    prefix: *const u64,
    len: u32,
    tid: u32,
    nthreads: u32,
    load: impl Fn(u32) -> Slot,
    mut step: impl FnMut(Option<(Slot, u64)>),
) {
    let total = *prefix.add(len as usize);
    let lane = tid % 32;
    let nwarps = (nthreads / 32) as u64;
    let chunk = chunk_for(total, nthreads);
    let nchunks = total.div_ceil(chunk);
    let mut c = (tid / 32) as u64;
    while c < nchunks {
        let lo = c * chunk;
        let hi = (lo + chunk).min(total);
        let s_lo = warp_segment_of(prefix, 0, len, lo);
        // Lane j reads slot s_lo + j's prefix and data at once (the slot `len`: its prefix, the
        // total, which no rank reaches). The bracket's last slot is the last lane whose prefix
        // is at most `hi - 1` (they are a run of lanes from lane 0: prefixes ascend), unless all
        // 32 are: only then is it searched for. A second warp search for every chunk was two
        // or three dependent loads before its slots could be read.
        let ours = s_lo + lane <= len;
        let q = if ours { *prefix.add((s_lo + lane) as usize) } else { u64::MAX };
        let d = if s_lo + lane < len { load(s_lo + lane) } else { Slot { u: 0, start: 0 } };
        let within = crate::warp::ballot(crate::warp::FULL_WARP, q < hi);
        let s_hi = if within == u32::MAX {
            warp_segment_of(prefix, s_lo, len, hi - 1)
        } else {
            s_lo + 31 - within.leading_zeros()
        };
        let width = s_hi - s_lo + 1;
        if width <= 32 {
            // Lane j holds slot s_lo + j (lanes past the bracket hold a prefix no rank reaches).
            let p = if lane < width { q } else { u64::MAX };
            walk_lanes(lo, chunk, hi, p, d, lane, &mut step);
        } else {
            let mut r = lo + lane as u64;
            while r < lo + chunk {
                step(if r < hi {
                    let s = segment_of(prefix, s_lo, s_hi + 1, r);
                    Some((load(s), r - *prefix.add(s as usize)))
                } else {
                    None
                });
                r += 32;
            }
        }
        c += nwarps;
    }
}

/// The partition loop's walk (GPU only): warp `w` takes the ranks `w * share ..` of
/// [`share_for`], one contiguous run, and `step(Some((u, e)))` gets each rank's tail `u` (of
/// `load(s)`, its slot `s`) and its arc `e` (`step(None)` for the lanes past the run's end, so
/// that every lane of a warp makes the same calls).
///
/// Ranks, prefixes and arc ids are 32-bit here ([`RANKS32_MAX`] bounds the loop's graphs): a
/// lane's window slot is three words (prefix, vertex, arc base) instead of five, and its search
/// shuffles one word a halving. With it the loop's registers fit three blocks an SM with fewer
/// spills (304 bytes at 80 registers against the 64-bit walk's 316), and the third block took
/// kron 18 from 0.44-0.47 ms to 0.37-0.39 on the H100 (2026-11-28); the 32-bit walk at two
/// blocks alone was within the noise.
///
/// A warp searches for its first slot once (warp-wide, 32 probes a round: a frontier of
/// 100,000 takes 4 dependent rounds). Then lane `j` holds slot `s + j`'s prefix and `load`, a
/// window of 32 slots, and each rank finds its slot by a search over the lanes' prefixes with
/// shuffles, no memory. When a trip's ranks pass the window, the window moves to the slot of
/// the trip's first rank, which a ballot over the lanes' prefixes names: no search. Only where
/// 32 slots hold fewer ranks than a trip (runs of zero-degree slots) does a trip search rank by
/// rank.
///
/// [`partition_walk_slots`] (the chunks in turn) begins every chunk with its own warp search
/// and its slots' loads: a chain of five or six dependent loads before each chunk's first arc,
/// where a chunk is two to eight trips of its lanes. In the partition loop, with the trips
/// pipelined one deep, the runs took 13-17% less time than the chunks on kron 16 and about 5%
/// less on kron 17 and 18 (H200). The other loops keep the chunks: on kron 22 (the host loop)
/// the runs were not faster. A likely reason, not measured: there a warp's run is long, and
/// the chunks walk the frontier front to back, all warps together, so that the vertices pushed
/// first expand first.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
unsafe fn partition_walk_runs(
    prefix: *const u64,
    len: u32,
    tid: u32,
    nthreads: u32,
    load: impl Fn(u32) -> Slot,
    mut step: impl FnMut(Option<(u32, u64)>),
) {
    use crate::warp::{ballot, broadcast, FULL_WARP};
    // Ranks, prefixes and arcs in 32 bits (`RANKS32_MAX`): a prefix entry's low word.
    let at = |i: u32| *(prefix as *const u32).add(2 * i as usize);
    let total = at(len);
    let lane = tid % 32;
    let share = share_for(total as u64, nthreads) as u32;
    let lo = (tid / 32) as u64 * share as u64;
    if lo >= total as u64 {
        return;
    }
    let lo = lo as u32;
    let end = lo + share.min(total - lo);
    // The window: lane j holds slot s + j's prefix `q` (u32::MAX past the frontier's last
    // slot, above every rank), its vertex `u` and its arc base `base` (its first arc less its
    // prefix, wrapping: a rank's arc is `base + rank`); `next` is slot s + 32's prefix, the
    // first rank past the window.
    // Slot `s`'s vertex and arc base.
    let slot = |s: u32| {
        let d = load(s);
        (d.u, (d.start as u32).wrapping_sub(at(s)))
    };
    let window = |s: u32| {
        let ours = s + lane < len;
        let q = if ours { at(s + lane) } else { u32::MAX };
        let (u, base) = if ours { slot(s + lane) } else { (0, 0) };
        let beyond = if lane == 31 && s + 32 < len { at(s + 32) } else { u32::MAX };
        (q, u, base, broadcast(beyond, 31))
    };
    let mut s = warp_segment_by(0, len, lo, at);
    let (mut q, mut u, mut base, mut next) = window(s);
    let mut r0 = lo;
    while r0 < end {
        let last = (r0 + 31).min(end - 1);
        let r = r0 + lane;
        if last >= next {
            // The trip passes the window. Its first rank's slot is the last lane whose prefix
            // is at most r0 (lane 0's is, by the invariant prefix[s] <= r0).
            let k = 31 - ballot(FULL_WARP, q <= r0).leading_zeros();
            if k > 0 {
                s += k;
                (q, u, base, next) = window(s);
                continue;
            }
            // Slot s holds r0, and the 32 slots from it hold fewer ranks than the trip: this
            // trip searches rank by rank.
            step(if r < end {
                let (v, b) = slot(segment_by(s, len, r, at));
                Some((v, b.wrapping_add(r) as u64))
            } else {
                None
            });
        } else {
            // Every lane searches (its shuffles name the whole warp), then the lanes past the
            // run's end drop the answer.
            let (v, b) = lane_slot32(q, u, base, r);
            step(if r < end { Some((v, b.wrapping_add(r) as u64)) } else { None });
        }
        r0 += 32;
    }
}

/// Bound on the ranks of an iteration of the partition loop (its input's degrees summed, every
/// lane's) and on its arc ids: [`partition_walk_runs`] holds both in 32 bits, with room for a
/// trip past the last rank. The engine runs graphs whose arcs times lanes reach it in another
/// loop.
pub const RANKS32_MAX: u64 = 1 << 31;

/// Ranks each warp takes in the partitioned advance of `total` arcs over `nthreads` threads on
/// the GPU ([`partition_walk_runs`]): an equal share, whole trips of 32, one trip at least.
#[inline(always)]
pub fn share_for(total: u64, nthreads: u32) -> u64 {
    let warps = (nthreads / 32).max(1) as u64;
    total.div_ceil(warps).next_multiple_of(32).max(32)
}

/// The last lane of the warp whose `p` is at most `r` (the `p` ascending over the lanes, lane
/// 0's at most `r`), by five halvings with every lane shuffling (`shfl(x, lane)`) at its own
/// midpoint, no memory. Every lane of the warp must call it (its shuffles name the whole warp).
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
fn last_lane_at_most<T: Copy + PartialOrd>(p: T, r: T, shfl: impl Fn(T, u32) -> T) -> u32 {
    let (mut l, mut h) = (0u32, 32u32);
    for _ in 0..5 {
        let mid = (l + h) / 2;
        if shfl(p, mid) <= r {
            l = mid;
        } else {
            h = mid;
        }
    }
    l
}

/// The slot of rank `r` in a warp's window of 32 slots, lane `j` holding slot `j`'s prefix `p`
/// (ascending; `u64::MAX` in lanes past the window) and data `d`: [`last_lane_at_most`].
/// Returns the slot's data and prefix. Lane 0's `p` must be at most `r`.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
unsafe fn lane_slot(p: u64, d: Slot, r: u64) -> (Slot, u64) {
    use crate::warp::{broadcast, broadcast_u64};
    let l = last_lane_at_most(p, r, |x, m| unsafe { broadcast_u64(x, m) });
    (Slot { u: broadcast(d.u, l), start: broadcast_u64(d.start, l) }, broadcast_u64(p, l))
}

/// [`lane_slot`] in 32 bits, for [`partition_walk_runs`]: lane `j` holds slot `j`'s prefix `q`,
/// vertex `u` and arc base `base`; returns rank `r`'s vertex and arc base. Seven one-word
/// shuffles where the 64-bit search takes thirteen.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
unsafe fn lane_slot32(q: u32, u: u32, base: u32, r: u32) -> (u32, u32) {
    use crate::warp::broadcast;
    let l = last_lane_at_most(q, r, |x, m| unsafe { broadcast(x, m) });
    (broadcast(u, l), broadcast(base, l))
}

/// The ranks `lo..lo + chunk` of one chunk (those from `hi` on past the end: `step(None)`)
/// over at most 32 slots held in the warp's lanes, lane `j` holding slot `j`'s prefix `p`
/// (`p` of lane 0 at most `lo`, `u64::MAX` past the last slot) and data `d`: each rank's slot
/// by [`lane_slot`].
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
unsafe fn walk_lanes(
    lo: u64,
    chunk: u64,
    hi: u64,
    p: u64,
    d: Slot,
    lane: u32,
    step: &mut impl FnMut(Option<(Slot, u64)>),
) {
    let mut r = lo + lane as u64;
    while r < lo + chunk {
        let (slot, base) = lane_slot(p, d, r);
        step(if r < hi { Some((slot, r - base)) } else { None });
        r += 32;
    }
}

/// [`segment_of`] by a whole warp for one `rank` (the same in every lane, as are `lo` and
/// `hi`): each round the 32 lanes probe 32 evenly spaced slots at once and a ballot keeps the
/// span between the last probe at or below `rank` and the next, so a span shrinks 32-fold a
/// round (one dependent load) instead of 2-fold. Every lane returns the answer.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
unsafe fn warp_segment_of(prefix: *const u64, lo: u32, hi: u32, rank: u64) -> u32 {
    warp_segment_by(lo, hi, rank, |i| *prefix.add(i as usize))
}

/// [`warp_segment_of`] over the ascending values `at(i)`.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
unsafe fn warp_segment_by<T: Copy + PartialOrd>(lo: u32, hi: u32, rank: T, at: impl Fn(u32) -> T) -> u32 {
    use crate::warp::{ballot, lane_id, FULL_WARP};
    let lane = lane_id();
    let (mut lo, mut hi) = (lo, hi);
    // Invariant (as segment_of's): prefix[lo] <= rank, and the answer is < hi.
    while hi - lo > 1 {
        let stride = (hi - lo).div_ceil(32);
        let off = lane * stride;
        let ok = off < hi - lo && at(lo + off) <= rank;
        // The probes at or below `rank` are a prefix of the lanes (prefix ascends), lane 0's
        // among them (prefix[lo] <= rank).
        let last = 31 - ballot(FULL_WARP, ok).leading_zeros();
        lo += last * stride;
        hi = hi.min(lo + stride);
    }
    lo
}

/// The slot `s` in `lo..hi` with `prefix[s] <= rank < prefix[s + 1]`: the last slot whose
/// prefix does not exceed `rank` (slots of degree 0 are skipped by taking the last). Any
/// ascending array: the partition balance's degree prefixes, a rank's ghost ranges by owner
/// (`ranks::owner_of`).
#[inline(always)]
pub unsafe fn segment_of<T: Copy + PartialOrd>(prefix: *const T, lo: u32, hi: u32, rank: T) -> u32 {
    segment_by(lo, hi, rank, |i| *prefix.add(i as usize))
}

/// [`segment_of`] over the ascending values `at(i)`.
#[inline(always)]
pub unsafe fn segment_by<T: Copy + PartialOrd>(lo: u32, hi: u32, rank: T, at: impl Fn(u32) -> T) -> u32 {
    let (mut lo, mut hi) = (lo, hi);
    // Invariant: at(lo) <= rank, and the answer is < hi.
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if at(mid) <= rank {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

/// The maximum of `x` over the physical warp (identity on the CPU, where "warps" are not
/// lock-stepped and each thread may take its own trip count).
#[inline(always)]
pub(crate) fn warp_max_u64(x: u64) -> u64 {
    #[cfg(target_arch = "nvptx64")]
    {
        unsafe { crate::warp::warp_max_u64(x) }
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        x
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_grow_with_the_arcs_per_warp() {
        // 264 blocks of 256 threads: 2,112 warps (the partition loop's grid on an H100).
        let n = 264 * 256;
        let warps = n as u64 / 32;
        assert_eq!(chunk_for(0, n), 64);
        assert_eq!(chunk_for(warps * 64, n), 64);
        assert_eq!(chunk_for(warps * 64 + warps, n), 128);
        assert_eq!(chunk_for(warps * 2048, n), 128);
        assert_eq!(chunk_for(warps * 2049, n), LB_CHUNK as u64);
        assert_eq!(chunk_for(u64::MAX, n), LB_CHUNK as u64);
        assert_eq!(chunk_for(warps * 65 - 1, n), 64);
        assert_eq!(chunk_for(warps * 2049 - 1, n), 128);
        // The tiers are those of the arcs per warp, rounded down, for any grid.
        for threads in [8, 32, 96, 1024, n, 132 * 4 * 256] {
            let w = (threads / 32).max(1) as u64;
            for total in
                (0..w * 3000).step_by((w as usize * 7).max(1)).chain([w * 65 - 1, w * 65, w * 2049 - 1, w * 2049])
            {
                let per = total / w;
                let want = if per <= 64 {
                    64
                } else if per <= 2048 {
                    128
                } else {
                    LB_CHUNK as u64
                };
                assert_eq!(chunk_for(total, threads), want, "total {total}, {threads} threads");
            }
        }
        // A grid of less than a warp (the CPU's smallest) counts as one warp.
        assert_eq!(chunk_for(100, 8), 128);
        let mut last = 0;
        for total in (0..10_000_000u64).step_by(9_973) {
            let c = chunk_for(total, n);
            assert!(c % 32 == 0 && c <= LB_CHUNK as u64 && c >= last, "total {total}: chunk {c}");
            last = c;
        }
    }

    #[test]
    fn shares_cover_every_rank_in_whole_trips() {
        // The partition loop's grid on an H100 (2,112 warps), a CPU-sized one, one warp.
        for threads in [264 * 256, 64, 32, 8] {
            let warps = (threads / 32).max(1) as u64;
            for total in [0u64, 1, 31, 32, 33, 2_111, 67_584, 67_585, 1 << 23, (1 << 32) + 7] {
                let share = share_for(total, threads);
                assert!(share % 32 == 0 && share >= 32, "total {total}: share {share}");
                // The warps' runs reach past the last rank, and no warp but the last could go
                // without: a share 32 smaller would leave ranks out (unless it is one trip).
                assert!(share * warps >= total, "total {total}: {share} x {warps}");
                assert!(share == 32 || (share - 32) * warps < total, "total {total}: share {share} is too wide");
            }
        }
    }

    #[test]
    fn vwarp_width_is_a_power_of_two_in_range() {
        assert_eq!(vwarp_width(0, 1024), 1);
        assert_eq!(vwarp_width(1, 1024), 32);
        assert_eq!(vwarp_width(100, 1024), 8);
        assert_eq!(vwarp_width(1024, 1024), 1);
        assert_eq!(vwarp_width(5000, 1024), 1);
    }

    #[test]
    fn vwarp_width_is_the_largest_power_of_two_that_fits() {
        let by_division =
            |len: u32, n: u32| if len == 0 { 1 } else { 1 << (31 - (n / len).clamp(1, MAX_VWARP).leading_zeros()) };
        for n in [1, 31, 32, 33, 256, 1000, 1024, 33_792, 135_168, u32::MAX] {
            for len in (0..2_100).chain([33_791, 33_792, 33_793, 1 << 20, u32::MAX - 1, u32::MAX]) {
                assert_eq!(vwarp_width(len, n), by_division(len, n), "len {len}, nthreads {n}");
            }
        }
    }

    #[test]
    fn vwarps_match_the_divisions() {
        for width in [1u32, 2, 4, 8, 16, 32] {
            for nthreads in [32u32, 1024, 33_792, 135_168] {
                for tid in (0..nthreads).step_by(7).chain([nthreads - 1]) {
                    let m = Vwarps::of(width, tid, nthreads);
                    assert_eq!((m.lane, m.first, m.groups), (tid % width, tid / width, nthreads / width));
                }
            }
            for deg in (0..300u64).chain([u32::MAX as u64, 1 << 40, u64::MAX - 64]) {
                assert_eq!(
                    Vwarps::of(width, 0, 1024).trips(deg),
                    deg.div_ceil(width as u64),
                    "width {width}, deg {deg}"
                );
            }
        }
    }

    #[test]
    fn segment_of_skips_empty_slots() {
        // degrees 2, 0, 0, 3, 1
        let prefix = [0u64, 2, 2, 2, 5, 6];
        let find = |r| unsafe { segment_of(prefix.as_ptr(), 0, 5, r) };
        assert_eq!((0..6).map(find).collect::<Vec<_>>(), vec![0, 0, 3, 3, 3, 4]);
    }
}
