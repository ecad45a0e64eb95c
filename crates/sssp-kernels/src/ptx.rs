//! Kernel entry points, and nothing else: each reads its position from the hardware and calls
//! an operator body. Bodies shared with the CPU backend are in [`crate::advance`],
//! [`crate::dedupe`] and [`crate::split`]; GPU-only bodies that need the whole grid to cooperate
//! are in [`crate::grid`], built on the primitives of [`crate::warp`].

use core::arch::nvptx::trap;

use crate::types::*;
use crate::warp::global_tid;
use crate::{advance, dedupe, grid, grid_settle, settle, tree};

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    // SAFETY: trap aborts the kernel; the host sees a launch failure.
    unsafe { trap() }
}

#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn sssp_init(a: InitArgs) {
    let (t, n) = global_tid();
    advance::init(&a, t, n)
}

#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn sssp_advance(a: AdvanceArgs) {
    let (t, n) = global_tid();
    advance::advance(&a, t, n)
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
    grid::pile_loop(&a)
}

/// The same loop for throughput-bound runs: built with launch bounds for 4 blocks of 256 per SM
/// (`cargo xtask ptx` adds them; ptxas caps registers to fit), so big frontiers get more threads
/// in flight at the price of a costlier grid barrier.
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn sssp_pile_loop_wide(a: PileArgs) {
    grid::pile_loop(&a)
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
    grid_settle::settle_loop(&a)
}
