//! Davidson et al.'s lookup-table duplicate removal (§IV-C, "Workfront Sweep"): every slot `i`
//! of a queue with duplicates writes `table[q[i]] = i`; after that pass, exactly one slot per
//! distinct vertex reads its own index back, and compaction keeps those slots.
//!
//! The table is never cleared: every vertex present in the queue has its entry overwritten by
//! the mark pass, so a stale entry from an earlier iteration can never be read.

use core::sync::atomic::{AtomicU32, Ordering::Relaxed};

use crate::relax::load_len;
use crate::types::*;

/// Pass 1: each slot claims its vertex's table entry (last writer wins; any winner will do).
#[inline(always)]
pub unsafe fn mark(a: &DedupeArgs, tid: u32, nthreads: u32) {
    let len = load_len(a.input.len);
    let mut i = tid;
    while i < len {
        let v = *a.input.items.add(i as usize);
        AtomicU32::from_ptr(a.table.add(v as usize)).store(i, Relaxed);
        i += nthreads;
    }
}

/// After [`mark`]: does slot `i` hold the surviving copy of its vertex?
#[inline(always)]
pub unsafe fn is_winner(items: *const u32, table: *const u32, i: u32) -> bool {
    let v = *items.add(i as usize);
    AtomicU32::from_ptr(table.add(v as usize) as *mut u32).load(Relaxed) == i
}
