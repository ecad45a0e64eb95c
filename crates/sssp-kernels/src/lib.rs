#![cfg_attr(target_arch = "nvptx64", no_std)]
#![cfg_attr(target_arch = "nvptx64", allow(internal_features))]
// One safety contract for the whole crate, in the crate doc's `# Safety` section.
#![allow(clippy::missing_safety_doc)]
#![cfg_attr(target_arch = "nvptx64", feature(abi_ptx, stdarch_nvptx, asm_experimental_arch, link_llvm_intrinsics))]
//! SSSP kernels, written once and compiled twice.
//!
//! - For the GPU, `cargo xtask ptx` compiles this crate with rustc's NVPTX backend; the entry
//!   points in `ptx` (compiled only for `nvptx64`) are thin wrappers that read the thread
//!   position from the hardware and call the plain functions of this crate.
//! - For the CPU backend, the host links this crate as an ordinary library and calls the very
//!   same per-thread functions ([`advance`], [`bfs`], [`bounds`], [`classify`], [`dedupe`], [`split`], [`settle`]) across a rayon pool, so CI exercises
//!   the real kernel logic without a GPU.
//!
//! Every kernel body is written as a function of `(tid, nthreads)`: the global thread index and
//! the number of threads in the grid, with grid-stride loops. Nothing in a body depends on which
//! threads run concurrently, except where noted (block scans in `ptx` use shared memory and
//! barriers; the CPU backend has its own scan with the same contract).
//!
//! Shared, `#[repr(C)]` parameter blocks and constants are in [`types`].
//!
//! # Safety
//! Every `unsafe fn` here has the same contract, so it is stated once instead of on each: the
//! addresses in the parameter blocks point to live buffers of the sizes [`types`] documents for
//! each field (e.g. `dist` has `n` entries, an output queue has room for every push its dedupe
//! mode can make), every vertex id stored in them is `< n`, and locations that several threads
//! touch are only accessed through the atomics in [`relax`] and [`dedupe`]. The one typed
//! wrapper per kernel in the `sssp` library (and the CPU engine) upholds it and says so at each
//! call.

pub mod advance;
pub mod bfs;
pub mod bounds;
pub mod certify;
pub mod classify;
pub mod dedupe;
pub mod entry;
pub mod frontier;
pub mod ranks;
pub mod relax;
pub mod resident;
pub mod settle;
pub mod split;
pub mod sweep;
pub mod tree;
pub mod types;
pub mod worklist;

// GPU only: entry points (`ptx`) over grid-cooperative operators (`grid`) over warp, block and
// grid primitives (`warp`). The dependency order is one way: ptx -> grid, block_loop -> warp.
// Its shared array is module-level assembly: kept out of the twins' module, which never uses it.
#[cfg(all(target_arch = "nvptx64", not(feature = "twins")))]
pub mod block_loop;
#[cfg(target_arch = "nvptx64")]
pub mod grid;
#[cfg(target_arch = "nvptx64")]
pub mod grid_settle;
#[cfg(target_arch = "nvptx64")]
pub mod ptx;
#[cfg(target_arch = "nvptx64")]
pub mod warp;

pub use types::*;
