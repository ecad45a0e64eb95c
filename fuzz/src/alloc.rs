//! A counting global allocator: current and peak heap bytes of the process, so that an input
//! which *asks* for gigabytes is flagged even on a machine where the request would succeed.
//!
//! Requests that would take the heap past [`HARD_CAP`] are refused (null), as a full machine
//! would: the reader then either reports `OutOfHostMemory` (it used a fallible allocation) or
//! aborts (it did not), and the refusal is remembered so the input counts as a memory finding
//! either way. The cap also keeps the fuzzer itself from exhausting the machine.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};

/// What the goal allows an input that describes a small graph: 1 GB.
pub const HARD_CAP: usize = 1 << 30;

pub struct Counting;

static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
static REFUSED: AtomicBool = AtomicBool::new(false);

impl Counting {
    /// Take a request of `size` bytes into the count, or refuse it (false) past the cap.
    fn admit(size: usize) -> bool {
        let now = CURRENT.fetch_add(size, Relaxed) + size;
        if now > HARD_CAP {
            CURRENT.fetch_sub(size, Relaxed);
            REFUSED.store(true, Relaxed);
            return false;
        }
        PEAK.fetch_max(now, Relaxed);
        true
    }
}

// SAFETY: every call is forwarded to `System` unchanged; the counters are only bookkeeping.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        if !Self::admit(l.size()) {
            return std::ptr::null_mut();
        }
        let p = System.alloc(l);
        if p.is_null() {
            CURRENT.fetch_sub(l.size(), Relaxed);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, l: Layout) -> *mut u8 {
        if !Self::admit(l.size()) {
            return std::ptr::null_mut();
        }
        let p = System.alloc_zeroed(l);
        if p.is_null() {
            CURRENT.fetch_sub(l.size(), Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        System.dealloc(p, l);
        CURRENT.fetch_sub(l.size(), Relaxed);
    }

    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        if new > l.size() && !Self::admit(new - l.size()) {
            return std::ptr::null_mut();
        }
        let q = System.realloc(p, l, new);
        if q.is_null() {
            if new > l.size() {
                CURRENT.fetch_sub(new - l.size(), Relaxed);
            }
        } else if new < l.size() {
            CURRENT.fetch_sub(l.size() - new, Relaxed);
        }
        q
    }
}

/// Start a measurement: the peak restarts from what is allocated now.
pub fn reset() {
    PEAK.store(CURRENT.load(Relaxed), Relaxed);
    REFUSED.store(false, Relaxed);
}

/// Bytes above the level at [`reset`] at the highest point since, and whether a request was
/// refused for passing [`HARD_CAP`].
pub fn peak_since(base: usize) -> (usize, bool) {
    (PEAK.load(Relaxed).saturating_sub(base), REFUSED.load(Relaxed))
}

/// Heap bytes allocated now.
pub fn current() -> usize {
    CURRENT.load(Relaxed)
}
