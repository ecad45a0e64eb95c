//! GPU-only code: kernel entry points (thin wrappers over the crate's plain functions), warp
//! intrinsics through inline PTX, and the block-cooperative device-wide scan.
//!
//! The scan is the one kernel family whose CPU path is different code: its block phase needs
//! shared memory and barriers, which a rayon pool does not model. The CPU backend implements the
//! same contract (`ScanArgs`: exclusive degree prefix, or stable compaction of lookup winners)
//! with a parallel prefix sum; the GPU suite checks both against each other's results.

use core::arch::asm;
use core::arch::nvptx::*;
use core::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};

use crate::advance;
use crate::dedupe;
use crate::relax::load_len;
use crate::types::*;

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    // SAFETY: trap aborts the kernel; the host sees a launch failure.
    unsafe { trap() }
}

#[inline(always)]
unsafe fn global_tid() -> (u32, u32) {
    let tid = _block_idx_x() as u32 * _block_dim_x() as u32 + _thread_idx_x() as u32;
    (tid, _grid_dim_x() as u32 * _block_dim_x() as u32)
}

// ---------------------------------------------------------------------------------------------
// Entry points. Each is one line: position, then the shared body.

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

#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn sssp_extract(a: ExtractArgs) {
    let (t, n) = global_tid();
    advance::extract(&a, t, n)
}

/// Workfront iterations back to back in one launch, a grid barrier between them (the host
/// launches once instead of once per iteration). Needs every block resident at once: the host
/// sizes the grid from this kernel's occupancy. Stops when the frontier is empty or after
/// `max_iters` iterations, and stores how many it ran.
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn sssp_advance_loop(a: LoopArgs) {
    let (t, n) = global_tid();
    let mut k = a.k0;
    let mut iter = a.adv.iter;
    let mut done = 0;
    while done < a.max_iters {
        let step = loop_step(&a, k, iter);
        // Every thread reads the same length: it was completed before the last grid barrier.
        if load_len(step.input.len) == 0 {
            break;
        }
        advance::advance(&step, t, n);
        grid_barrier(a.cells.add(CELL_BARRIER_COUNT), a.cells.add(CELL_BARRIER_GEN));
        k = (k + 1) % 6;
        iter += 1;
        done += 1;
    }
    if t == 0 {
        *a.cells.add(CELL_LOOP_DONE) = done;
    }
}

/// GPU-scope acquire-release fence. Rust's `fence(SeqCst)` becomes `fence.sc.sys`, which
/// also orders against the host and other devices and cost several microseconds per grid
/// barrier on the H100; the barrier only needs the device.
#[inline(always)]
unsafe fn fence_gpu() {
    asm!("fence.acq_rel.gpu;");
}

/// A barrier across the whole grid: blocks arrive on a counter; the last one resets it and
/// bumps the generation the others spin on. The fences around the arrival publish each
/// block's writes (pushes, distances) to every other block before it goes on. Only thread 0 of
/// each block takes part (after a block barrier), so there is no warp-level synchronisation here.
#[inline(always)]
unsafe fn grid_barrier(count: *mut u32, generation: *mut u32) {
    block_barrier();
    if _thread_idx_x() == 0 {
        fence_gpu();
        let gen = core::ptr::read_volatile(generation);
        let arrived = AtomicU32::from_ptr(count).fetch_add(1, Relaxed);
        if arrived == _grid_dim_x() as u32 - 1 {
            core::ptr::write_volatile(count, 0);
            fence_gpu();
            AtomicU32::from_ptr(generation).fetch_add(1, Relaxed);
        } else {
            while core::ptr::read_volatile(generation) == gen {}
        }
        fence_gpu();
    }
    block_barrier();
}

#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn sssp_dedupe_mark(a: DedupeArgs) {
    let (t, n) = global_tid();
    dedupe::mark(&a, t, n)
}

#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn sssp_scan_reduce(a: ScanArgs) {
    scan_reduce(&a)
}

#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn sssp_scan_block_sums(a: ScanArgs, nblocks: u32) {
    scan_block_sums(&a, nblocks)
}

#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn sssp_scan_write(a: ScanArgs) {
    scan_write(&a)
}

// ---------------------------------------------------------------------------------------------
// Warp intrinsics.

// Warp primitives are LLVM's NVVM intrinsics, not inline `asm!`: LLVM knows these are
// `convergent` and will never duplicate them into divergent branches or sink them under a
// condition. Inline asm carries no such attribute; with it, LLVM tail-duplicated a block scan's
// shuffles and barriers into both arms of an `if`, and the scan deadlocked on the H100.
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
const FULL_WARP: u32 = u32::MAX;

/// Block barrier, the *non-aligned* `barrier.sync 0`. `bar.sync` (what `_syncthreads` emits)
/// is `.aligned`: every lane of a warp must reach the same instruction, so a barrier that LLVM
/// duplicated into two arms of a branch deadlocks. The non-aligned form counts arrivals per
/// barrier id, wherever they come from.
#[inline(always)]
unsafe fn block_barrier() {
    nvvm_barrier_sync(0)
}

/// Clamp operand of `shfl.sync` for a full 32-lane segment (idx and bfly modes).
const SHFL_CLAMP: u32 = 31;

#[inline(always)]
unsafe fn active_mask() -> u32 {
    nvvm_activemask()
}

#[inline(always)]
unsafe fn ballot(mask: u32, pred: bool) -> u32 {
    nvvm_ballot(mask, pred)
}

#[inline(always)]
unsafe fn lane_id() -> u32 {
    nvvm_laneid()
}

#[inline(always)]
unsafe fn shfl_idx(mask: u32, x: u32, src: u32) -> u32 {
    nvvm_shfl_idx(mask, x, src, SHFL_CLAMP)
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

/// Warp-aggregated push: one atomic per warp instead of one per pushing thread.
#[inline(always)]
pub unsafe fn warp_push(q: Queue, v: u32, keep: bool) {
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
    }
    let base = shfl_idx(mask, base, leader);
    if keep {
        let below = votes & ((1u32 << lane) - 1);
        *q.items.add((base + below.count_ones()) as usize) = v;
    }
}

/// `f` folded over the 32 lanes of the warp; every lane gets the result. All 32 lanes must call
/// it (the call sites are reached by whole warps: early exits are per warp, trip counts are
/// equal across a warp, grids are multiples of 32). A butterfly over a partial `activemask`
/// would not be a reduction: lanes whose partners are absent would miss values.
#[inline(always)]
unsafe fn warp_fold(x: u64, f: impl Fn(u64, u64) -> u64) -> u64 {
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

// ---------------------------------------------------------------------------------------------
// Device-wide scan: reduce per block, scan the block sums in one block, scan-and-write per block.
// Block `b` of `G` owns slots [b*C, (b+1)*C), C = len/G rounded up to a multiple of BLOCK.

/// `if c { x } else { y }` without a branch.
#[inline(always)]
fn select(c: bool, x: u64, y: u64) -> u64 {
    let m = (c as u64).wrapping_neg();
    (x & m) | (y & !m)
}

/// Shared memory for one block scan: a total per warp, then the block total.
#[inline(always)]
unsafe fn scan_smem() -> *mut u64 {
    let p: u64;
    asm!(".shared .align 8 .b8 sssp_scan_smem[72];", "cvta.shared.u64 {p}, sssp_scan_smem;", p = out(reg64) p);
    p as *mut u64
}

/// Exclusive scan of one value per thread across the block; returns (exclusive prefix, total).
/// All threads of the block must call it.
#[inline(always)]
unsafe fn block_scan(x: u64, smem: *mut u64) -> (u64, u64) {
    let lane = lane_id();
    let warp = _thread_idx_x() as u32 / 32;
    let nwarps = _block_dim_x() as u32 / 32;
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

/// The scanned value of slot `i`.
#[inline(always)]
unsafe fn scan_value(a: &ScanArgs, i: u32) -> u64 {
    if a.of == ScanOf::Degree as u32 {
        let v = *a.input.items.add(i as usize) as usize;
        *a.offsets.add(v + 1) - *a.offsets.add(v)
    } else {
        dedupe::is_winner(a.input.items, a.table, i) as u64
    }
}

#[inline(always)]
unsafe fn block_range(len: u32) -> (u32, u32) {
    let g = _grid_dim_x() as u32;
    let per = len.div_ceil(g).div_ceil(BLOCK) * BLOCK;
    let b = _block_idx_x() as u32;
    let lo = (b * per).min(len);
    (lo, (lo + per).min(len))
}

unsafe fn scan_reduce(a: &ScanArgs) {
    let len = load_len(a.input.len);
    let (lo, hi) = block_range(len);
    let t = _thread_idx_x() as u32;
    let mut sum = 0u64;
    let mut i = lo + t;
    while i < hi {
        sum += scan_value(a, i);
        i += BLOCK;
    }
    let (_, total) = block_scan(sum, scan_smem());
    if t == 0 {
        *a.block_sums.add(_block_idx_x() as usize) = total;
    }
}

unsafe fn scan_block_sums(a: &ScanArgs, nblocks: u32) {
    let smem = scan_smem();
    let t = _thread_idx_x() as u32;
    let mut carry = 0u64;
    let mut base = 0;
    while base < nblocks {
        let i = base + t;
        // Branch-free: every lane loads (a clamped slot) and masks, so no lane diverges
        // before the block scan's shuffles and barriers.
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

unsafe fn scan_write(a: &ScanArgs) {
    let smem = scan_smem();
    let len = load_len(a.input.len);
    let (lo, hi) = block_range(len);
    let t = _thread_idx_x() as u32;
    let mut carry = *a.block_sums.add(_block_idx_x() as usize);
    let mut base = lo;
    while base < hi {
        let i = base + t;
        // hi > base here, so hi - 1 is a valid slot (see scan_block_sums on branch-free loads).
        let x = select(i < hi, scan_value(a, i.min(hi - 1)), 0);
        let (excl, total) = block_scan(x, smem);
        if i < hi {
            let at = carry + excl;
            if a.of == ScanOf::Degree as u32 {
                *a.prefix.add(i as usize) = at;
            } else if x != 0 {
                *a.output.items.add(at as usize) = *a.input.items.add(i as usize);
            }
        }
        carry += total;
        base += BLOCK;
    }
}
