//! Kernel entry points, and nothing else: each reads its position from the hardware and calls
//! an operator body. Bodies shared with the CPU backend are in [`crate::advance`],
//! [`crate::dedupe`] and [`crate::split`]; GPU-only bodies that need the whole grid to cooperate
//! are in [`crate::grid`], built on the primitives of [`crate::warp`].

// The two modules (see `twins` below) use different subsets of these.
#![cfg_attr(feature = "twins", allow(unused_imports))]

use core::arch::nvptx::trap;

use crate::types::*;
use crate::warp::global_tid;
use core::sync::atomic::{AtomicU64, Ordering::Relaxed};

use crate::bfs::{self, BfsArgs, BFS_ARCS, BFS_FOUND};
#[cfg(not(feature = "twins"))]
use crate::block_loop;
use crate::bounds::{self, BoundsArgs, B_DHI, B_DLO, B_ECC, B_LOWER, B_OVER, B_RHI, B_RLO, B_UPPER};
use crate::certify::{self, CertArgs, CERT_ARCS, CERT_SOURCES, CERT_UNREACHED};
use crate::classify::{self, ClassifyArgs, SinkArgs};
use crate::ranks::{self, RankArgs, C_ARCS, C_EXPANDED, C_FAR_MIN};
use crate::resident::ResidentArgs;
use crate::sweep::{self, SweepArgs};
use crate::warp::{block_barrier, lane_id, warp_add_u64, warp_fold};
use crate::worklist::{self, AsyncArgs};
use crate::{advance, dedupe, grid, grid_settle, settle, tree};

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    // SAFETY: trap aborts the kernel; the host sees a launch failure.
    unsafe { trap() }
}

/// Every entry point but the classified twins: the module the engine loads when it opens.
#[cfg(not(feature = "twins"))]
mod main_module {
    use super::*;

    #[unsafe(no_mangle)]
    pub unsafe extern "ptx-kernel" fn sssp_init(a: InitArgs) {
        let (t, n) = global_tid();
        advance::init(&a, t, n)
    }

    /// Several sources at 0 after an init without one (`advance::seed`).
    #[unsafe(no_mangle)]
    pub unsafe extern "ptx-kernel" fn sssp_seed(a: SeedArgs) {
        let (t, n) = global_tid();
        advance::seed(&a, t, n)
    }

    #[unsafe(no_mangle)]
    pub unsafe extern "ptx-kernel" fn sssp_advance(a: AdvanceArgs) {
        let (t, n) = global_tid();
        advance::advance::<false>(&a, t, n)
    }

    /// The advance in the tiled modes (cooperative blocks, CTA+Warp+Scan): shared tiles and block
    /// barriers (`grid::advance_tiles`). An entry of its own, so `sssp_advance` stays as lean as it
    /// was.
    #[unsafe(no_mangle)]
    pub unsafe extern "ptx-kernel" fn sssp_advance_tiles(a: AdvanceArgs) {
        grid::advance_tiles::<false>(&a)
    }

    /// Edge classification, once per graph (`classify`): phase 0 in-degrees, 1 the classified
    /// targets and the count of arcs into sinks, 2 the list of those arcs.
    #[unsafe(no_mangle)]
    pub unsafe extern "ptx-kernel" fn sssp_classify(a: ClassifyArgs, phase: u32) {
        let (t, n) = global_tid();
        match phase {
            0 => classify::count_in(&a, t, n),
            1 => {
                let (sinks, skips) = classify::tag(&a, t, n);
                warp_add_u64(a.count, sinks);
                warp_add_u64(a.count.add(1), skips);
            }
            _ => classify::list_sinks(&a, t, n),
        }
    }

    /// The deferred relaxation of the arcs into sinks after a classified run (`classify`).
    #[unsafe(no_mangle)]
    pub unsafe extern "ptx-kernel" fn sssp_relax_sinks(a: SinkArgs) {
        let (t, n) = global_tid();
        classify::relax_sinks(&a, t, n)
    }

    /// One tree arc per reached vertex of a finished frontier run (`tree::tree_arcs`).
    #[unsafe(no_mangle)]
    pub unsafe extern "ptx-kernel" fn sssp_tree_arcs(a: TreeArgs) {
        let (t, n) = global_tid();
        tree::tree_arcs(&a, t, n)
    }

    #[unsafe(no_mangle)]
    pub unsafe extern "ptx-kernel" fn sssp_extract(a: ExtractArgs) {
        let (t, n) = global_tid();
        advance::extract(&a, t, n)
    }

    /// The frontier strategies' iterations back to back in one launch (Workfront, Near-Far,
    /// Bucketing; every balance and dedupe mode), grid barriers between phases. Needs every block
    /// resident at once: the host sizes the grid from this kernel's occupancy. Stops when the state
    /// says done or after `max_iters` iterations, leaving the state to resume from.
    #[unsafe(no_mangle)]
    pub unsafe extern "ptx-kernel" fn sssp_pile_loop(a: PileArgs) {
        grid::pile_loop::<false, false, false, false>(&a)
    }

    /// The plain loop for the common run (`PileArgs::is_lean`), its options compiled in as
    /// constants (`grid::pile_loop_lean`). Same grid rules as `sssp_pile_loop`.
    #[unsafe(no_mangle)]
    pub unsafe extern "ptx-kernel" fn sssp_pile_loop_lean(a: PileArgs) {
        grid::pile_loop_lean(&a)
    }

    /// The loop for runs with a hub path (thread and virtual-warp balance on graphs with vertices
    /// of at least the hub degree) and for the tiled modes: the plain loop plus the hub phase and
    /// the tiled advance. Same grid rules as `sssp_pile_loop` (resident blocks, from occupancy).
    #[unsafe(no_mangle)]
    pub unsafe extern "ptx-kernel" fn sssp_pile_loop_hubs(a: PileArgs) {
        grid::pile_loop::<true, false, false, false>(&a)
    }

    /// The same loop for throughput-bound runs: built with launch bounds for 4 blocks of 256 per SM
    /// (`cargo xtask ptx` adds them; ptxas caps registers to fit), so big frontiers get more threads
    /// in flight at the price of a costlier grid barrier. Partition balance on the biggest graphs.
    #[unsafe(no_mangle)]
    pub unsafe extern "ptx-kernel" fn sssp_pile_loop_wide(a: PileArgs) {
        grid::pile_loop::<false, false, false, false>(&a)
    }

    /// The wide loop for thread and virtual-warp balance on dense graphs: its advance reads a
    /// head's distance before the atomic min (`FILTER`). An entry of its own, because compiled
    /// into the wide loop the filter made partition balance there 1.5% slower (kron 26 on the
    /// H200: 114.8 ms against 113.1), though that path never takes it.
    #[unsafe(no_mangle)]
    pub unsafe extern "ptx-kernel" fn sssp_pile_loop_dense(a: PileArgs) {
        grid::pile_loop::<false, false, false, true>(&a)
    }

    /// The loop of partition balance in the plain loop's geometry (graphs up to
    /// `sssp::engine::NARROW_PARTITION_ARCS` arcs): the plain loop plus the warp-local advance
    /// of frontiers of at most `advance::SMALL_PARTITION` vertices, which skips the degree scan.
    #[unsafe(no_mangle)]
    pub unsafe extern "ptx-kernel" fn sssp_pile_loop_partition(a: PileArgs) {
        grid::pile_loop::<false, false, true, false>(&a)
    }

    /// The same loop run by one block of `block_loop::BLOCK_LOOP_THREADS` threads with its near
    /// queues in shared memory: the latency mode for small frontiers (launch bounds from `cargo
    /// xtask ptx`). Launched as exactly one block.
    #[unsafe(no_mangle)]
    pub unsafe extern "ptx-kernel" fn sssp_pile_block(a: PileArgs) {
        block_loop::pile_block(&a)
    }

    /// Resident pieces (`resident`): one block of `RESIDENT_THREADS` per SM, every block
    /// resident (grid barriers between rounds).
    #[unsafe(no_mangle)]
    pub unsafe extern "ptx-kernel" fn sssp_resident(a: ResidentArgs) {
        crate::resident::gpu::run(&a)
    }

    /// Resident pieces without grid barriers: one piece per block, every block resident.
    #[unsafe(no_mangle)]
    pub unsafe extern "ptx-kernel" fn sssp_resident_async(a: ResidentArgs) {
        crate::resident::gpu::run_async(&a)
    }

    /// The stand-alone multisplit (co-resident grid, like the loop).
    #[unsafe(no_mangle)]
    pub unsafe extern "ptx-kernel" fn sssp_multisplit(a: MultisplitArgs) {
        grid::multisplit_kernel(&a)
    }

    #[unsafe(no_mangle)]
    pub unsafe extern "ptx-kernel" fn sssp_dedupe_mark(a: DedupeArgs) {
        let (t, n) = global_tid();
        dedupe::mark(&a, t, n)
    }

    #[unsafe(no_mangle)]
    pub unsafe extern "ptx-kernel" fn sssp_scan_reduce(a: ScanArgs) {
        grid::scan_reduce(&a)
    }

    #[unsafe(no_mangle)]
    pub unsafe extern "ptx-kernel" fn sssp_scan_block_sums(a: ScanArgs, nblocks: u32) {
        grid::scan_block_sums(&a, nblocks)
    }

    #[unsafe(no_mangle)]
    pub unsafe extern "ptx-kernel" fn sssp_scan_write(a: ScanArgs) {
        grid::scan_write(&a)
    }

    /// Parallel Dijkstra's precomputation (once per graph): phase 0 the least out-weights (and
    /// `min_in` reset), phase 1 the least in-weights.
    #[unsafe(no_mangle)]
    pub unsafe extern "ptx-kernel" fn sssp_settle_prepare(a: SettleArgs, phase: u32) {
        let (t, n) = global_tid();
        if phase == 0 {
            settle::prepare_out(&a, t, n)
        } else {
            settle::prepare_in(&a, t, n)
        }
    }

    /// Parallel Dijkstra (Crauser / Martín, `settle.rs`): the whole solve in one launch, grid
    /// barriers between phases. Needs every block resident at once (sized from occupancy).
    #[unsafe(no_mangle)]
    pub unsafe extern "ptx-kernel" fn sssp_settle_loop(a: SettleArgs) {
        grid_settle::settle_loop::<false>(&a)
    }

    /// Fold a per-thread partial over the warp and apply it to a result cell with one atomic per
    /// warp (every lane calls it: the bounding passes have no early exits).
    #[inline(always)]
    unsafe fn fold_into(cell: *mut u64, x: u64, max: bool) {
        let v = if max { warp_fold(x, u64::max) } else { warp_fold(x, u64::min) };
        if lane_id() == 0 {
            let c = AtomicU64::from_ptr(cell);
            if max {
                c.fetch_max(v, Relaxed);
            } else {
                c.fetch_min(v, Relaxed);
            }
        }
    }

    /// Eccentricity bounding pass 1 (the paper's ECCENTRICITY as a max reduction): see
    /// [`bounds`].
    /// Reset and seed the asynchronous worklist.
    #[unsafe(no_mangle)]
    pub unsafe extern "ptx-kernel" fn sssp_async_seed(a: AsyncArgs) {
        let (t, n) = global_tid();
        worklist::seed(&a, t, n)
    }

    /// Asynchronous delta-stepping: every warp a worker (`worklist::worker`); lane 0 adds the
    /// warp's expanded items to the counters.
    #[unsafe(no_mangle)]
    pub unsafe extern "ptx-kernel" fn sssp_async(a: AsyncArgs) {
        let items = worklist::worker(&a, &worklist::Warp);
        if lane_id() == 0 && items != 0 {
            AtomicU64::from_ptr(core::ptr::addr_of_mut!((*a.counters).vertices)).fetch_add(items, Relaxed);
        }
    }

    #[unsafe(no_mangle)]
    pub unsafe extern "ptx-kernel" fn sssp_bounds_ecc(a: BoundsArgs) {
        let (t, n) = global_tid();
        fold_into(a.out.add(B_ECC), bounds::ecc_partial(&a, t, n), true)
    }

    /// Pass 2: UPDATE BOUNDS KERNEL (Algorithm 2) and the global bounds.
    #[unsafe(no_mangle)]
    pub unsafe extern "ptx-kernel" fn sssp_bounds_update(a: BoundsArgs) {
        let (t, n) = global_tid();
        let p = bounds::update_partial(&a, t, n);
        fold_into(a.out.add(B_DLO), p[0], true);
        fold_into(a.out.add(B_DHI), p[1], true);
        fold_into(a.out.add(B_RLO), p[2], false);
        fold_into(a.out.add(B_RHI), p[3], false);
    }

    /// Pass 3: UPDATE CANDIDATES KERNEL (Algorithm 2) and the alternating selection's two picks.
    #[unsafe(no_mangle)]
    pub unsafe extern "ptx-kernel" fn sssp_bounds_pick(a: BoundsArgs) {
        let (t, n) = global_tid();
        let (up, low, over) = bounds::pick_partial(&a, t, n);
        fold_into(a.out.add(B_UPPER), up, true);
        fold_into(a.out.add(B_LOWER), low, false);
        warp_add_u64(a.out.add(B_OVER), over);
    }

    /// The certificate's condition 2 over every arc: see [`certify`].
    #[unsafe(no_mangle)]
    pub unsafe extern "ptx-kernel" fn sssp_cert_arcs(a: CertArgs) {
        let (t, n) = global_tid();
        warp_add_u64(a.cells.add(CERT_ARCS), certify::arcs(&a, t, n))
    }

    /// The certificate's sources: checked, and queued as level 0.
    #[unsafe(no_mangle)]
    pub unsafe extern "ptx-kernel" fn sssp_cert_seed(a: CertArgs) {
        let (t, n) = global_tid();
        warp_add_u64(a.cells.add(CERT_SOURCES), certify::seed(&a, t, n))
    }

    /// One level of the certificate's traversal over tight arcs.
    #[unsafe(no_mangle)]
    pub unsafe extern "ptx-kernel" fn sssp_cert_expand(a: CertArgs) {
        let (t, n) = global_tid();
        certify::expand(&a, t, n)
    }

    /// The certificate's last count: finite distances the traversal did not reach.
    #[unsafe(no_mangle)]
    pub unsafe extern "ptx-kernel" fn sssp_cert_reached(a: CertArgs) {
        let (t, n) = global_tid();
        warp_add_u64(a.cells.add(CERT_UNREACHED), certify::reached(&a, t, n))
    }

    /// A distributed rank's slice made ready for a solve.
    #[unsafe(no_mangle)]
    pub unsafe extern "ptx-kernel" fn sssp_rank_reset(a: RankArgs) {
        let (t, n) = global_tid();
        ranks::reset(&a, t, n)
    }

    /// A distributed rank's round: see [`ranks`].
    #[unsafe(no_mangle)]
    pub unsafe extern "ptx-kernel" fn sssp_rank_relax(a: RankArgs) {
        let (t, n) = global_tid();
        let (arcs, expanded) = ranks::relax(&a, t, n);
        warp_add_u64(a.cells.add(C_ARCS), arcs);
        warp_add_u64(a.cells.add(C_EXPANDED), expanded);
    }

    /// A rank's lowered ghosts as outgoing items.
    #[unsafe(no_mangle)]
    pub unsafe extern "ptx-kernel" fn sssp_rank_pack(a: RankArgs) {
        let (t, n) = global_tid();
        ranks::pack(&a, t, n)
    }

    /// Other ranks' items applied to a rank's vertices.
    #[unsafe(no_mangle)]
    pub unsafe extern "ptx-kernel" fn sssp_rank_apply(a: RankArgs) {
        let (t, n) = global_tid();
        ranks::apply(&a, t, n)
    }

    /// The lowest bucket waiting in a rank's far pile.
    #[unsafe(no_mangle)]
    pub unsafe extern "ptx-kernel" fn sssp_rank_far_min(a: RankArgs) {
        let (t, n) = global_tid();
        fold_into(a.cells.add(C_FAR_MIN), ranks::far_min(&a, t, n), false)
    }

    /// A new bucket's vertices out of a rank's far pile.
    #[unsafe(no_mangle)]
    pub unsafe extern "ptx-kernel" fn sssp_rank_split(a: RankArgs) {
        let (t, n) = global_tid();
        ranks::split(&a, t, n)
    }

    /// One BFS level, thread-centric (the paper's Algorithm 3): see [`bfs`].
    #[unsafe(no_mangle)]
    pub unsafe extern "ptx-kernel" fn sssp_bfs_thread(a: BfsArgs) {
        let (t, n) = global_tid();
        bfs_counts(&a, bfs::level_thread(&a, t, n))
    }

    /// One BFS level, warp-centric (the paper's Algorithm 4): see [`bfs`].
    #[unsafe(no_mangle)]
    pub unsafe extern "ptx-kernel" fn sssp_bfs_warp(a: BfsArgs) {
        let (t, n) = global_tid();
        bfs_counts(&a, bfs::level_warp(&a, t, n))
    }

    /// One BFS level, bottom-up (Beamer et al.; the direction-optimising mode): see [`bfs`].
    #[unsafe(no_mangle)]
    pub unsafe extern "ptx-kernel" fn sssp_bfs_bottom_up(a: BfsArgs) {
        let (t, n) = global_tid();
        bfs_counts(&a, bfs::level_bottom_up(&a, t, n))
    }

    /// A BFS level's per-thread counts (labelled, their arcs) into its two cells, one atomic
    /// per warp each.
    #[inline(always)]
    unsafe fn bfs_counts(a: &BfsArgs, (found, arcs): (u64, u64)) {
        warp_add_u64(a.cells.add(BFS_FOUND), found);
        warp_add_u64(a.cells.add(BFS_ARCS), arcs);
    }

    /// PHAST's sweep in one block (`sweep`): the seeds, then levels `first..last` with a block
    /// barrier before each (a level reads the one above it). The small top levels, where a
    /// launch per level would cost more than the work.
    #[unsafe(no_mangle)]
    pub unsafe extern "ptx-kernel" fn sssp_sweep_block(a: SweepArgs) {
        let (t, n) = global_tid();
        sweep::seed(&a, t, n);
        let mut arcs = 0;
        for k in a.first..a.last {
            block_barrier();
            arcs += sweep::level(&a, k, t, n);
        }
        warp_add_u64(core::ptr::addr_of_mut!((*a.counters).arcs), arcs);
    }

    /// The core's distances from the entries and the table (`sweep::core_table`), over the grid,
    /// before the levels.
    #[unsafe(no_mangle)]
    pub unsafe extern "ptx-kernel" fn sssp_sweep_core(a: SweepArgs) {
        let (t, n) = global_tid();
        let read = sweep::core_table(&a, t, n);
        warp_add_u64(core::ptr::addr_of_mut!((*a.counters).arcs), read);
    }

    /// One level (`first`) of PHAST's sweep over the grid.
    #[unsafe(no_mangle)]
    pub unsafe extern "ptx-kernel" fn sssp_sweep(a: SweepArgs) {
        let (t, n) = global_tid();
        let arcs = sweep::level(&a, a.first, t, n);
        warp_add_u64(core::ptr::addr_of_mut!((*a.counters).arcs), arcs);
    }
}

/// The classified twins (H-BF's edge classes, `classify`): the same bodies relaxing through the
/// classified targets (`advance::relax_arc` with `C = true`). Entry points of their own, so the
/// unclassified kernels compile exactly as before, and built into a second module (`cargo
/// xtask ptx` with the `twins` feature) that the engine loads only when a run classifies: in
/// the first module they doubled its size and the driver's first JIT of it (docs/gpu.md).
#[cfg(feature = "twins")]
mod twins {
    use super::*;

    #[unsafe(no_mangle)]
    pub unsafe extern "ptx-kernel" fn sssp_advance_classified(a: AdvanceArgs) {
        let (t, n) = global_tid();
        advance::advance::<true>(&a, t, n)
    }

    #[unsafe(no_mangle)]
    pub unsafe extern "ptx-kernel" fn sssp_advance_tiles_classified(a: AdvanceArgs) {
        grid::advance_tiles::<true>(&a)
    }

    #[unsafe(no_mangle)]
    pub unsafe extern "ptx-kernel" fn sssp_pile_loop_classified(a: PileArgs) {
        grid::pile_loop::<false, true, false, false>(&a)
    }

    #[unsafe(no_mangle)]
    pub unsafe extern "ptx-kernel" fn sssp_pile_loop_hubs_classified(a: PileArgs) {
        grid::pile_loop::<true, true, false, false>(&a)
    }

    #[unsafe(no_mangle)]
    pub unsafe extern "ptx-kernel" fn sssp_pile_loop_wide_classified(a: PileArgs) {
        grid::pile_loop::<false, true, false, false>(&a)
    }

    #[unsafe(no_mangle)]
    pub unsafe extern "ptx-kernel" fn sssp_pile_loop_dense_classified(a: PileArgs) {
        grid::pile_loop::<false, true, false, true>(&a)
    }

    #[unsafe(no_mangle)]
    pub unsafe extern "ptx-kernel" fn sssp_pile_loop_partition_classified(a: PileArgs) {
        grid::pile_loop::<false, true, true, false>(&a)
    }

    /// The same relaxing through the edge classes (`classify`; push steps only).
    #[unsafe(no_mangle)]
    pub unsafe extern "ptx-kernel" fn sssp_settle_loop_classified(a: SettleArgs) {
        grid_settle::settle_loop::<true>(&a)
    }
}
