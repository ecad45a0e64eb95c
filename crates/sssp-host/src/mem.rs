//! Fallible host allocations for sizes that come from the input.
//!
//! A vertex count implied by a header or by the largest id can ask for far more memory than the
//! machine has. `Vec::with_capacity` / `vec![..]` abort the process when such an allocation
//! fails ("memory allocation of N bytes failed", SIGABRT), which is no way to report bad input.
//! Every allocation whose size the input decides goes through [`try_vec`] (or [`reserve`]),
//! which returns [`Error::OutOfHostMemory`] with the bytes asked for instead.
//!
//! On Linux an allocation can also succeed (memory is overcommitted) and the process be killed
//! later when the pages are touched. [`check_fits`] therefore compares the whole estimated need
//! of a build with the machine's physical memory plus swap *before* any work, so an absurd size
//! fails at once with the same typed error.

use crate::error::{Error, Result};

/// A vector of `len` copies of `value`, or [`Error::OutOfHostMemory`] if it cannot be allocated.
/// Filled in parallel, so the first touch of a large buffer's pages is spread over the threads.
pub fn try_vec<T: Clone + Send>(len: usize, value: T) -> Result<Vec<T>> {
    use rayon::prelude::*;
    let mut v = Vec::new();
    reserve(&mut v, len)?;
    v.par_extend(rayon::iter::repeat_n(value, len));
    Ok(v)
}

/// Reserve room for exactly `additional` more elements, or [`Error::OutOfHostMemory`].
pub fn reserve<T>(v: &mut Vec<T>, additional: usize) -> Result<()> {
    v.try_reserve_exact(additional).map_err(|_| Error::OutOfHostMemory { needed: bytes_of::<T>(additional) })
}

/// A copy of `src`, or [`Error::OutOfHostMemory`] (the fallible `to_vec`).
pub fn try_to_vec<T: Clone>(src: &[T]) -> Result<Vec<T>> {
    let mut v = Vec::new();
    reserve(&mut v, src.len())?;
    v.extend_from_slice(src);
    Ok(v)
}

/// Bytes of `len` elements of `T`, saturating (the number is for a message).
pub fn bytes_of<T>(len: usize) -> u64 {
    (len as u64).saturating_mul(std::mem::size_of::<T>() as u64)
}

/// `Ok` if `needed` bytes could possibly be had on this machine (physical memory plus swap, as
/// `/proc/meminfo` reports them), else [`Error::OutOfHostMemory`]. Where the total is unknown
/// (not Linux, no `/proc`) only the address space bounds it.
pub fn check_fits(needed: u64) -> Result<()> {
    let limit = host_memory().unwrap_or(usize::MAX as u64);
    if needed > limit {
        return Err(Error::OutOfHostMemory { needed });
    }
    Ok(())
}

/// Physical memory plus swap in bytes, if the system says.
fn host_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let field = |name: &str| -> Option<u64> {
        let line = info.lines().find(|l| l.starts_with(name))?;
        let kib: u64 = line[name.len()..].trim().trim_end_matches("kB").trim().parse().ok()?;
        Some(kib * 1024)
    };
    Some(field("MemTotal:")? + field("SwapTotal:").unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn impossible_allocations_are_typed_errors() {
        // Would abort the process through `vec![0u64; n]`.
        match try_vec(usize::MAX / 4, 0u64) {
            Err(Error::OutOfHostMemory { needed }) => assert_eq!(needed, u64::MAX),
            other => panic!("expected OutOfHostMemory, got {:?}", other.map(|v| v.len())),
        }
        assert_eq!(try_vec(3, 7u32).unwrap(), vec![7, 7, 7]);
    }

    #[test]
    fn check_fits_refuses_more_than_the_machine() {
        assert!(check_fits(1 << 20).is_ok());
        assert!(matches!(check_fits(u64::MAX), Err(Error::OutOfHostMemory { needed: u64::MAX })));
        assert!(host_memory().is_none_or(|b| b > 0));
    }
}
