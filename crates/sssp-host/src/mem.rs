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
//! of a build with what this process can have (physical memory plus swap, a cgroup limit,
//! `ulimit -v`) *before* any work, so an absurd size fails at once with the same typed error.

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

/// [`try_vec`] of `len` atomic cells holding `value`.
pub fn try_atomic_vec(len: usize, value: u32) -> Result<Vec<std::sync::atomic::AtomicU32>> {
    let v = std::mem::ManuallyDrop::new(try_vec(len, value)?);
    let (ptr, len, cap) = (v.as_ptr() as *mut std::sync::atomic::AtomicU32, v.len(), v.capacity());
    // SAFETY: `AtomicU32` has the size, alignment and bit validity of `u32` (its documented
    // guarantee); the buffer was allocated by a `Vec<u32>` of this length and capacity, which
    // gives up its ownership here (ManuallyDrop).
    Ok(unsafe { Vec::from_raw_parts(ptr, len, cap) })
}

/// [`try_atomic_vec`] of zeros from zeroed memory (`calloc`): a large buffer's pages come
/// from the system already zero and are touched only where written, so a scratch buffer sized
/// for the worst case costs nothing for the part a run never reaches.
pub fn try_zeroed_atomic_vec(len: usize) -> Result<Vec<std::sync::atomic::AtomicU32>> {
    use std::sync::atomic::AtomicU32;
    let layout = std::alloc::Layout::array::<AtomicU32>(len)
        .map_err(|_| Error::OutOfHostMemory { needed: bytes_of::<AtomicU32>(len) })?;
    if layout.size() == 0 {
        return Ok(Vec::new());
    }
    // SAFETY: the layout is non-zero-sized; a null return is handled below.
    let ptr = unsafe { std::alloc::alloc_zeroed(layout) } as *mut AtomicU32;
    if ptr.is_null() {
        return Err(Error::OutOfHostMemory { needed: layout.size() as u64 });
    }
    // SAFETY: allocated by the global allocator with the layout of `len` cells (so a `Vec` of
    // capacity `len` frees it correctly); all-zero bytes are a valid `AtomicU32` (zero).
    Ok(unsafe { Vec::from_raw_parts(ptr, len, len) })
}

/// The values of atomic cells made by [`try_atomic_vec`], without copying them.
pub fn into_plain(v: Vec<std::sync::atomic::AtomicU32>) -> Vec<u32> {
    let v = std::mem::ManuallyDrop::new(v);
    // SAFETY: as in `try_atomic_vec`, the other way; owning the vector, no thread holds a
    // reference to its cells any more.
    unsafe { Vec::from_raw_parts(v.as_ptr() as *mut u32, v.len(), v.capacity()) }
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

/// [`try_to_vec`] by all of rayon's threads: a rank's slice of a large graph is gigabytes,
/// which one thread copies (and faults in) at a fraction of the machine's memory bandwidth.
pub fn try_par_to_vec<T: Copy + Send + Sync>(src: &[T]) -> Result<Vec<T>> {
    use rayon::prelude::*;
    let mut v = Vec::new();
    reserve(&mut v, src.len())?;
    v.par_extend(src.par_iter().copied());
    Ok(v)
}

/// Bytes of `len` elements of `T`, saturating (the number is for a message).
pub fn bytes_of<T>(len: usize) -> u64 {
    (len as u64).saturating_mul(std::mem::size_of::<T>() as u64)
}

/// `Ok` if `needed` bytes could possibly be had by this process, else
/// [`Error::OutOfHostMemory`]. The bound is the smallest of: physical memory plus swap
/// (`/proc/meminfo`), the cgroup's memory limit (v2 `memory.max`, v1 `memory.limit_in_bytes`)
/// and the address space left under `RLIMIT_AS` (`ulimit -v`, from `/proc/self/limits` less the
/// `VmSize` already in use). Each is honoured because each, when exceeded, ends the same way: an
/// abort on a failed allocation, or the OOM killer. Where none is known (not Linux, no `/proc`)
/// only the address space bounds it.
pub fn check_fits(needed: u64) -> Result<()> {
    if needed > memory_limit() {
        return Err(Error::OutOfHostMemory { needed });
    }
    Ok(())
}

/// The most bytes this process can hope to allocate (see [`check_fits`]).
fn memory_limit() -> u64 {
    let read = |p: &str| std::fs::read_to_string(p).ok();
    let status = read("/proc/self/status");
    let address_space = read("/proc/self/limits")
        .and_then(|l| address_space_limit(&l))
        .map(|limit| limit.saturating_sub(status.as_deref().and_then(|s| kib_field(s, "VmSize:")).unwrap_or(0)));
    [host_memory(), cgroup_limit(), address_space].into_iter().flatten().fold(usize::MAX as u64, u64::min)
}

/// Physical memory plus swap in bytes, if the system says.
fn host_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    Some(kib_field(&info, "MemTotal:")? + kib_field(&info, "SwapTotal:").unwrap_or(0))
}

/// A `Name:   123 kB` field of `/proc/meminfo` or `/proc/self/status`, in bytes.
fn kib_field(text: &str, name: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with(name))?;
    let kib: u64 = line[name.len()..].trim().trim_end_matches("kB").trim().parse().ok()?;
    Some(kib.saturating_mul(1024))
}

/// The soft `Max address space` of `/proc/self/limits` in bytes; `None` when unlimited.
fn address_space_limit(limits: &str) -> Option<u64> {
    let line = limits.lines().find(|l| l.starts_with("Max address space"))?;
    line["Max address space".len()..].split_whitespace().next()?.parse().ok()
}

/// The memory limit of this process's cgroup, if it has one: v2 `memory.max` (a number or
/// `max`), else v1 `memory.limit_in_bytes` (unlimited reads as a huge number, harmless here).
fn cgroup_limit() -> Option<u64> {
    let groups = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let number = |p: String| std::fs::read_to_string(p).ok()?.trim().parse::<u64>().ok();
    // v2: the `0::/path` line; the group's directory is /sys/fs/cgroup/path. Inside a container
    // the path is often `/`, which names the container's own group.
    let v2 = groups.lines().find_map(|l| l.strip_prefix("0::"));
    let v1 = groups.lines().find_map(|l| l.split_once(":memory:").map(|(_, p)| p));
    let v2_limit = v2.and_then(|p| number(format!("/sys/fs/cgroup{}/memory.max", p.trim_end_matches('/'))));
    let v1_limit = v1.and_then(|p| {
        number(format!("/sys/fs/cgroup/memory{}/memory.limit_in_bytes", p.trim_end_matches('/')))
            .or_else(|| number("/sys/fs/cgroup/memory/memory.limit_in_bytes".into()))
    });
    v2_limit.or(v1_limit)
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
        assert!(memory_limit() > 1 << 20);
    }

    #[test]
    fn limits_files_are_read() {
        let limits = "Limit                     Soft Limit           Hard Limit           Units     \n\
                      Max stack size            8388608              unlimited            bytes     \n\
                      Max address space         16384000000          unlimited            bytes     \n";
        assert_eq!(address_space_limit(limits), Some(16_384_000_000));
        assert_eq!(address_space_limit(&limits.replace("16384000000", "unlimited")), None);
        assert_eq!(kib_field("VmPeak:\t 100 kB\nVmSize:\t    3892 kB\n", "VmSize:"), Some(3892 * 1024));
    }
}
