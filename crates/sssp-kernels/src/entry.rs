//! Kernels as types: one type per PTX entry point of [`ptx`](crate#gpu-only), naming its
//! parameter block, its entry (the one place the host spells the name), the launch shape it
//! needs and the module that holds it; kernels whose body also runs on the CPU carry that body
//! ([`Body`]).
//!
//! Adding a kernel adds a type here and an entry point in `ptx`, never a method on the host's
//! device or engine: the host launches any kernel through one generic path
//! (`sssp::device::launch`), which gives the GPU the entry and the CPU backend the body.
//! A host test (`sssp::device`) checks that every type here names an `.entry` of the committed
//! PTX module it says, and that every entry there has a type.
//!
//! This module sits above the operators (it names their bodies) and below nothing: `ptx`'s
//! entries and the host both read it.

use crate::bfs::{self, BfsArgs, BFS_ARCS, BFS_FOUND};
use crate::bounds::{self, BoundsArgs, B_DHI, B_DLO, B_ECC, B_LOWER, B_OVER, B_RHI, B_RLO, B_UPPER};
use crate::certify::{self, CertArgs, CERT_ARCS, CERT_SOURCES, CERT_UNREACHED};
use crate::classify::{self, ClassifyArgs, SinkArgs};
use crate::ranks::{self, RankArgs, C_ARCS, C_EXPANDED, C_FAR_MIN};
use crate::resident::{ResidentArgs, RESIDENT_THREADS};
use crate::sweep::{self, SweepArgs, SWEEP_BLOCK_THREADS};
use crate::tree;
use crate::types::*;
use crate::worklist::{self, AsyncArgs};
use core::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// How a kernel's threads must be launched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Grid-stride over any number of threads: the grid is sized to the work.
    Grid,
    /// Whole blocks of [`BLOCK`] threads cooperating through shared memory and block barriers,
    /// any number of them.
    Blocks,
    /// Exactly one block (block barriers over all of the kernel's work).
    OneBlock,
    /// Every block resident at once (grid barriers): the grid is sized from occupancy.
    Resident,
}

/// Which PTX module holds an entry: the main one, loaded when an engine opens, or the
/// classified twins, loaded by the first run that classifies (docs/gpu.md says why).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Module {
    /// `sssp_kernels.ptx`.
    Main,
    /// `sssp_kernels_twins.ptx` (the `twins` feature).
    Twins,
}

/// A kernel: its parameter block, its PTX entry, its launch shape and module.
pub trait Kernel {
    /// The `#[repr(C)]` parameter block, the entry's first parameter, passed by value.
    type Args: Copy + Send + Sync;
    /// The entry's name in the PTX.
    const ENTRY: &'static str;
    /// How it must be launched.
    const SHAPE: Shape;
    /// Where it lives.
    const MODULE: Module = Module::Main;
    /// Threads per block.
    const THREADS: u32 = BLOCK;
}

/// A grid-stride kernel whose per-thread body the CPU backend runs too: `body(args, tid,
/// nthreads)` returns a partial result; the partials of all threads are folded with [`fold`]
/// from [`ZERO`] and applied to the result cells by [`apply`]. On the GPU the entry folds them
/// per warp (shuffles) and applies each warp's fold with an atomic; the CPU folds them across
/// its pool and applies once. Both give the same cells: the folds are associative and
/// commutative, and the cells start from [`Body::ZERO`]'s identity (the caller resets them).
///
/// [`fold`]: Body::fold
/// [`ZERO`]: Body::ZERO
/// [`apply`]: Body::apply
pub trait Body: Kernel {
    /// A thread's partial result.
    type Part: Copy + Send;
    /// The identity of [`Body::fold`].
    const ZERO: Self::Part;
    /// One thread's work (the crate's `# Safety` contract).
    unsafe fn body(a: &Self::Args, tid: u32, nthreads: u32) -> Self::Part;
    /// Two partials as one.
    fn fold(x: Self::Part, y: Self::Part) -> Self::Part;
    /// Apply a fold of partials to the result cells (atomically: other folds may be applied
    /// concurrently, on the GPU one per warp).
    unsafe fn apply(a: &Self::Args, total: Self::Part);
}

/// An atomic max or min of `x` into the 64-bit cell at `cell`.
#[inline(always)]
pub unsafe fn cell_fold(cell: *mut u64, x: u64, max: bool) {
    let c = AtomicU64::from_ptr(cell);
    if max {
        c.fetch_max(x, Relaxed);
    } else {
        c.fetch_min(x, Relaxed);
    }
}

/// An atomic add of `x` into the 64-bit cell at `cell`.
#[inline(always)]
pub unsafe fn cell_add(cell: *mut u64, x: u64) {
    if x != 0 {
        AtomicU64::from_ptr(cell).fetch_add(x, Relaxed);
    }
}

/// Declares kernel types: `Name(Args) = "entry", Shape[, Module] [[threads per block]];`.
macro_rules! kernels {
    ($($(#[$doc:meta])* $name:ident($args:ty) = $entry:literal, $shape:ident $(, $module:ident)? $([$threads:expr])?;)*) => {
        $(
            $(#[$doc])*
            #[derive(Clone, Copy, Debug)]
            pub struct $name;
            impl Kernel for $name {
                type Args = $args;
                const ENTRY: &'static str = $entry;
                const SHAPE: Shape = Shape::$shape;
                $(const MODULE: Module = Module::$module;)?
                $(const THREADS: u32 = $threads;)?
            }
        )*
        /// Every kernel type's `(entry, module)`, for the host's check against the PTX.
        pub const ALL: &[(&str, Module)] = &[$(($entry, <$name as Kernel>::MODULE)),*];
    };
}

/// A parameter block and a phase number: the entries that run one of several passes
/// (`sssp_classify`, `sssp_settle_prepare`) or take a count (`sssp_scan_block_sums`) take it as
/// a second parameter.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct Phased<A> {
    /// The parameter block.
    pub args: A,
    /// The second parameter.
    pub phase: u32,
}

kernels! {
    /// Distances to INF, the source's to 0, the first frontier (`advance::init`).
    Init(InitArgs) = "sssp_init", Grid;
    /// Several sources at 0 after an init without one (`advance::seed`).
    Seed(SeedArgs) = "sssp_seed", Grid;
    /// One advance (relax) in the thread, virtual-warp and partition modes.
    Advance(AdvanceArgs) = "sssp_advance", Grid;
    /// One advance in the tiled modes (cooperative blocks, CTA+Warp+Scan).
    AdvanceTiles(AdvanceArgs) = "sssp_advance_tiles", Blocks;
    /// Edge classification passes 0-2 (`classify`).
    Classify(Phased<ClassifyArgs>) = "sssp_classify", Grid;
    /// The deferred relaxation of the arcs into sinks.
    RelaxSinks(SinkArgs) = "sssp_relax_sinks", Grid;
    /// One tree arc per reached vertex (`tree::tree_arcs`).
    TreeArcs(TreeArgs) = "sssp_tree_arcs", Grid;
    /// One lane's distances out of the packed array (`advance::extract`).
    Extract(ExtractArgs) = "sssp_extract", Grid;
    /// The frontier loop in one launch (Workfront, Near-Far, Bucketing).
    PileLoop(PileArgs) = "sssp_pile_loop", Resident;
    /// The same for the common run, its options compiled in (`PileArgs::is_lean`).
    PileLoopLean(PileArgs) = "sssp_pile_loop_lean", Resident;
    /// The frontier loop with the hub phase and the tiled advance.
    PileLoopHubs(PileArgs) = "sssp_pile_loop_hubs", Resident;
    /// The frontier loop built for 4 blocks of 256 per SM (throughput-bound runs).
    PileLoopWide(PileArgs) = "sssp_pile_loop_wide", Resident;
    /// The wide loop for thread and virtual-warp balance on dense graphs (its advance reads
    /// before the atomic).
    PileLoopDense(PileArgs) = "sssp_pile_loop_dense", Resident;
    /// The frontier loop of partition balance in the plain loop's geometry (small frontiers
    /// without the degree scan).
    PileLoopPartition(PileArgs) = "sssp_pile_loop_partition", Resident;
    /// The frontier loop in one block of `BLOCK_LOOP_THREADS` threads.
    PileBlock(PileArgs) = "sssp_pile_block", OneBlock [BLOCK_LOOP_THREADS];
    /// Resident pieces: rounds of local fixpoints in shared memory (`resident`), one block of
    /// `RESIDENT_THREADS` per SM.
    ResidentLoop(ResidentArgs) = "sssp_resident", Resident [RESIDENT_THREADS];
    /// Resident pieces without grid barriers, one piece per block (`resident::gpu::run_async`).
    ResidentAsync(ResidentArgs) = "sssp_resident_async", Resident [RESIDENT_THREADS];
    /// The stand-alone multisplit.
    Multisplit(MultisplitArgs) = "sssp_multisplit", Resident;
    /// Lookup dedupe's mark pass.
    DedupeMark(DedupeArgs) = "sssp_dedupe_mark", Grid;
    /// The device-wide scan, phase 1: per-block sums.
    ScanReduce(ScanArgs) = "sssp_scan_reduce", Blocks;
    /// Phase 2: the block sums scanned by one block (the second parameter: how many).
    ScanBlockSums(Phased<ScanArgs>) = "sssp_scan_block_sums", OneBlock;
    /// Phase 3: each block's items written with its offset.
    ScanWrite(ScanArgs) = "sssp_scan_write", Blocks;
    /// Parallel Dijkstra's precomputation, phase 0 or 1.
    SettlePrepare(Phased<SettleArgs>) = "sssp_settle_prepare", Grid;
    /// Parallel Dijkstra in one launch.
    SettleLoop(SettleArgs) = "sssp_settle_loop", Resident;
    /// Eccentricity bounding pass 1: the eccentricity.
    BoundsEcc(BoundsArgs) = "sssp_bounds_ecc", Grid;
    /// Pass 2: every member's bounds and the global bounds.
    BoundsUpdate(BoundsArgs) = "sssp_bounds_update", Grid;
    /// Pass 3: the candidates' picks and the open count.
    BoundsPick(BoundsArgs) = "sssp_bounds_pick", Grid;
    /// One BFS level, thread-centric.
    BfsThread(BfsArgs) = "sssp_bfs_thread", Grid;
    /// One BFS level, warp-centric.
    BfsWarp(BfsArgs) = "sssp_bfs_warp", Grid;
    /// One BFS level, bottom-up.
    BfsBottomUp(BfsArgs) = "sssp_bfs_bottom_up", Grid;
    /// The certificate's condition 2 over every arc (`certify::arcs`).
    CertArcs(CertArgs) = "sssp_cert_arcs", Grid;
    /// Its sources checked and queued as level 0 (`certify::seed`).
    CertSeed(CertArgs) = "sssp_cert_seed", Grid;
    /// One level of its traversal over tight arcs (`certify::expand`).
    CertExpand(CertArgs) = "sssp_cert_expand", Grid;
    /// Its reached vertices that the traversal did not reach (`certify::reached`).
    CertReached(CertArgs) = "sssp_cert_reached", Grid;
    /// PHAST's seeds and top levels in one block.
    SweepBlock(SweepArgs) = "sssp_sweep_block", OneBlock [SWEEP_BLOCK_THREADS];
    /// PHAST's core distances from the table.
    SweepCore(SweepArgs) = "sssp_sweep_core", Grid;
    /// One level of PHAST's sweep.
    Sweep(SweepArgs) = "sssp_sweep", Grid;
    /// [`Advance`] through the classified targets.
    AdvanceClassified(AdvanceArgs) = "sssp_advance_classified", Grid, Twins;
    /// [`AdvanceTiles`] through the classified targets.
    AdvanceTilesClassified(AdvanceArgs) = "sssp_advance_tiles_classified", Blocks, Twins;
    /// [`PileLoop`] through the classified targets.
    PileLoopClassified(PileArgs) = "sssp_pile_loop_classified", Resident, Twins;
    /// [`PileLoopHubs`] through the classified targets.
    PileLoopHubsClassified(PileArgs) = "sssp_pile_loop_hubs_classified", Resident, Twins;
    /// [`PileLoopWide`] through the classified targets.
    PileLoopWideClassified(PileArgs) = "sssp_pile_loop_wide_classified", Resident, Twins;
    /// [`PileLoopDense`] through the classified targets.
    PileLoopDenseClassified(PileArgs) = "sssp_pile_loop_dense_classified", Resident, Twins;
    /// [`PileLoopPartition`] through the classified targets.
    PileLoopPartitionClassified(PileArgs) = "sssp_pile_loop_partition_classified", Resident, Twins;
    /// [`SettleLoop`] through the classified targets.
    SettleLoopClassified(SettleArgs) = "sssp_settle_loop_classified", Resident, Twins;
    /// The asynchronous worklist reset and seeded (`worklist::seed`).
    AsyncSeed(AsyncArgs) = "sssp_async_seed", Grid;
    /// Asynchronous delta-stepping: teams of the grid (warps; CPU threads) take work from the
    /// worklist until none is left (`worklist::worker`). Needs no co-residency. Blocks of one
    /// warp, so that the workers spread over every SM (256-thread blocks put 264 workers on 33).
    AsyncRun(AsyncArgs) = "sssp_async", Grid [32];
    /// A distributed rank's slice made ready for a solve (`ranks::reset`).
    RankReset(RankArgs) = "sssp_rank_reset", Grid;
    /// A distributed rank's round: its queued vertices expanded (`ranks::relax`).
    RankRelax(RankArgs) = "sssp_rank_relax", Grid;
    /// Its ghosts lowered this round as outgoing items (`ranks::pack`).
    RankPack(RankArgs) = "sssp_rank_pack", Grid;
    /// Other ranks' items applied (`ranks::apply`).
    RankApply(RankArgs) = "sssp_rank_apply", Grid;
    /// The lowest bucket waiting in its far pile (`ranks::far_min`).
    RankFarMin(RankArgs) = "sssp_rank_far_min", Grid;
    /// A new bucket's vertices out of the far pile (`ranks::split`).
    RankSplit(RankArgs) = "sssp_rank_split", Grid;
}

/// A rank's round: arcs relaxed and vertices expanded, added into their cells.
impl Body for RankRelax {
    type Part = (u64, u64);
    const ZERO: (u64, u64) = (0, 0);
    unsafe fn body(a: &RankArgs, tid: u32, nthreads: u32) -> (u64, u64) {
        ranks::relax(a, tid, nthreads)
    }
    fn fold(x: (u64, u64), y: (u64, u64)) -> (u64, u64) {
        (x.0 + y.0, x.1 + y.1)
    }
    unsafe fn apply(a: &RankArgs, (arcs, expanded): (u64, u64)) {
        cell_add(a.cells.add(C_ARCS), arcs);
        cell_add(a.cells.add(C_EXPANDED), expanded);
    }
}

/// The far pile's lowest bucket, folded into its cell by an atomic min.
impl Body for RankFarMin {
    type Part = u64;
    const ZERO: u64 = u64::MAX;
    unsafe fn body(a: &RankArgs, tid: u32, nthreads: u32) -> u64 {
        ranks::far_min(a, tid, nthreads)
    }
    fn fold(x: u64, y: u64) -> u64 {
        x.min(y)
    }
    unsafe fn apply(a: &RankArgs, least: u64) {
        cell_fold(a.cells.add(C_FAR_MIN), least, false)
    }
}

/// A rank's passes without a result.
macro_rules! rank_body {
    ($($k:ident => $f:path;)*) => {$(
        impl Body for $k {
            type Part = ();
            const ZERO: () = ();
            unsafe fn body(a: &RankArgs, tid: u32, nthreads: u32) {
                $f(a, tid, nthreads)
            }
            fn fold(_: (), _: ()) {}
            unsafe fn apply(_: &RankArgs, _: ()) {}
        }
    )*};
}

rank_body! {
    RankReset => ranks::reset;
    RankPack => ranks::pack;
    RankApply => ranks::apply;
    RankSplit => ranks::split;
}

impl Body for AsyncSeed {
    type Part = ();
    const ZERO: () = ();
    unsafe fn body(a: &AsyncArgs, tid: u32, nthreads: u32) {
        worklist::seed(a, tid, nthreads)
    }
    fn fold(_: (), _: ()) {}
    unsafe fn apply(_: &AsyncArgs, _: ()) {}
}

/// Each CPU thread is one worker (a team of one); the partials are the items expanded, added to
/// the run's `vertices` counter.
impl Body for AsyncRun {
    type Part = u64;
    const ZERO: u64 = 0;
    unsafe fn body(a: &AsyncArgs, _: u32, _: u32) -> u64 {
        worklist::worker(a, &worklist::Solo)
    }
    fn fold(x: u64, y: u64) -> u64 {
        x + y
    }
    unsafe fn apply(a: &AsyncArgs, items: u64) {
        cell_add(core::ptr::addr_of_mut!((*a.counters).vertices), items)
    }
}

impl Body for BoundsEcc {
    type Part = u64;
    const ZERO: u64 = 0;
    unsafe fn body(a: &BoundsArgs, tid: u32, nthreads: u32) -> u64 {
        bounds::ecc_partial(a, tid, nthreads)
    }
    fn fold(x: u64, y: u64) -> u64 {
        x.max(y)
    }
    unsafe fn apply(a: &BoundsArgs, total: u64) {
        cell_fold(a.out.add(B_ECC), total, true)
    }
}

impl Body for BoundsUpdate {
    /// `[D_L, D_U, R_L, R_U]` (`bounds::update_partial`).
    type Part = [u64; 4];
    const ZERO: [u64; 4] = [0, 0, u64::MAX, u64::MAX];
    unsafe fn body(a: &BoundsArgs, tid: u32, nthreads: u32) -> [u64; 4] {
        bounds::update_partial(a, tid, nthreads)
    }
    fn fold(x: [u64; 4], y: [u64; 4]) -> [u64; 4] {
        [x[0].max(y[0]), x[1].max(y[1]), x[2].min(y[2]), x[3].min(y[3])]
    }
    unsafe fn apply(a: &BoundsArgs, p: [u64; 4]) {
        cell_fold(a.out.add(B_DLO), p[0], true);
        cell_fold(a.out.add(B_DHI), p[1], true);
        cell_fold(a.out.add(B_RLO), p[2], false);
        cell_fold(a.out.add(B_RHI), p[3], false);
    }
}

impl Body for BoundsPick {
    /// The upper pick's key, the lower pick's key, the open count (`bounds::pick_partial`).
    type Part = (u64, u64, u64);
    const ZERO: (u64, u64, u64) = (0, u64::MAX, 0);
    unsafe fn body(a: &BoundsArgs, tid: u32, nthreads: u32) -> (u64, u64, u64) {
        bounds::pick_partial(a, tid, nthreads)
    }
    fn fold(x: (u64, u64, u64), y: (u64, u64, u64)) -> (u64, u64, u64) {
        (x.0.max(y.0), x.1.min(y.1), x.2 + y.2)
    }
    unsafe fn apply(a: &BoundsArgs, (up, low, over): (u64, u64, u64)) {
        cell_fold(a.out.add(B_UPPER), up, true);
        cell_fold(a.out.add(B_LOWER), low, false);
        cell_add(a.out.add(B_OVER), over);
    }
}

/// The BFS levels' partials: vertices labelled and arcs scanned, added into the two cells.
macro_rules! bfs_body {
    ($($k:ident => $f:path;)*) => {$(
        impl Body for $k {
            type Part = (u64, u64);
            const ZERO: (u64, u64) = (0, 0);
            unsafe fn body(a: &BfsArgs, tid: u32, nthreads: u32) -> (u64, u64) {
                $f(a, tid, nthreads)
            }
            fn fold(x: (u64, u64), y: (u64, u64)) -> (u64, u64) {
                (x.0 + y.0, x.1 + y.1)
            }
            unsafe fn apply(a: &BfsArgs, (found, arcs): (u64, u64)) {
                cell_add(a.cells.add(BFS_FOUND), found);
                cell_add(a.cells.add(BFS_ARCS), arcs);
            }
        }
    )*};
}

bfs_body! {
    BfsThread => bfs::level_thread;
    BfsWarp => bfs::level_warp;
    BfsBottomUp => bfs::level_bottom_up;
}

/// The certificate's counting passes: violations, added into each one's count cell.
macro_rules! cert_body {
    ($($k:ident => $f:path, $cell:expr;)*) => {$(
        impl Body for $k {
            type Part = u64;
            const ZERO: u64 = 0;
            unsafe fn body(a: &CertArgs, tid: u32, nthreads: u32) -> u64 {
                $f(a, tid, nthreads)
            }
            fn fold(x: u64, y: u64) -> u64 {
                x + y
            }
            unsafe fn apply(a: &CertArgs, bad: u64) {
                cell_add(a.cells.add($cell), bad)
            }
        }
    )*};
}

cert_body! {
    CertArcs => certify::arcs, CERT_ARCS;
    CertSeed => certify::seed, CERT_SOURCES;
    CertReached => certify::reached, CERT_UNREACHED;
}

impl Body for CertExpand {
    type Part = ();
    const ZERO: () = ();
    unsafe fn body(a: &CertArgs, tid: u32, nthreads: u32) {
        certify::expand(a, tid, nthreads)
    }
    fn fold(_: (), _: ()) {}
    unsafe fn apply(_: &CertArgs, _: ()) {}
}

impl Body for RelaxSinks {
    type Part = ();
    const ZERO: () = ();
    unsafe fn body(a: &SinkArgs, tid: u32, nthreads: u32) {
        classify::relax_sinks(a, tid, nthreads)
    }
    fn fold(_: (), _: ()) {}
    unsafe fn apply(_: &SinkArgs, _: ()) {}
}

impl Body for TreeArcs {
    type Part = ();
    const ZERO: () = ();
    unsafe fn body(a: &TreeArgs, tid: u32, nthreads: u32) {
        tree::tree_arcs(a, tid, nthreads)
    }
    fn fold(_: (), _: ()) {}
    unsafe fn apply(_: &TreeArgs, _: ()) {}
}

/// PHAST's partials: arcs relaxed, added into the run's counters.
macro_rules! sweep_body {
    ($($k:ident => |$a:ident, $t:ident, $n:ident| $e:expr;)*) => {$(
        impl Body for $k {
            type Part = u64;
            const ZERO: u64 = 0;
            unsafe fn body($a: &SweepArgs, $t: u32, $n: u32) -> u64 {
                $e
            }
            fn fold(x: u64, y: u64) -> u64 {
                x + y
            }
            unsafe fn apply(a: &SweepArgs, arcs: u64) {
                cell_add(core::ptr::addr_of_mut!((*a.counters).arcs), arcs)
            }
        }
    )*};
}

sweep_body! {
    SweepCore => |a, t, n| sweep::core_table(a, t, n);
    Sweep => |a, t, n| sweep::level(a, a.first, t, n);
}
