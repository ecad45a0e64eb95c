//! The device layer: memory, launches, synchronisation and the device's facts, and nothing
//! named after a feature (in the spirit of cudarc's safe layer; Gunrock keeps the same split
//! between its context and its problems).
//!
//! Two devices implement [`Device`]: [`cuda::CudaDevice`] (device 0 through `cudarc`) and
//! [`cpu::CpuDevice`] (host memory, the kernels' bodies over rayon). A feature that needs buffers
//! of its own (the diameter's bounds, a BFS's level counts) is a *problem object* in its own
//! module: it allocates them here ([`Device::alloc`], fit-checked against the device's memory),
//! fills them, and launches kernels through [`Device::launch`] (typed: `run`) with a parameter block that holds their
//! addresses ([`Buffer::ptr`]). The kernels are types (`sssp_kernels::entry`): the GPU launches
//! a type's PTX entry, the CPU runs its body ([`Body`]) across its threads, so adding a kernel
//! adds a type and an entry point, never a method here.
//!
//! Buffers hold device addresses on the GPU and host addresses on the CPU; either way the
//! kernels dereference them, the host only through [`Device::upload`] and [`Device::download`].
//! Operations are ordered as issued (one stream on the GPU; the CPU runs them as they come).
//!
//! Every device keeps a [`Meter`]: the bytes its buffers hold, counted when a buffer is made and
//! when it is dropped, now and at the peak. [`Device::alloc`] counts its buffers itself; an
//! engine that allocates its own buffers another way (the CUDA engine through `cudarc`, the CPU
//! engine as vectors) counts each on the same meter (`Meter::charge`), so the figure covers
//! everything resident for a run on either backend. What is host memory on the GPU's side
//! (page-locked staging, downloaded results) is not device memory and is not counted.

pub mod cpu;
pub mod cuda;
pub(crate) mod staging;

use std::ffi::c_void;
use std::sync::{Arc, Mutex};

use rayon::prelude::*;
pub use sssp_kernels::entry::{Body, Kernel, Module, Shape};

use crate::error::Result;

/// What a device is.
#[derive(Clone, Debug)]
pub struct Facts {
    /// How it describes itself, e.g. `NVIDIA H100 80GB HBM3 (CUDA, SASS sm_90)` or `CPU (rayon,
    /// 2 threads)`.
    pub name: String,
    /// A GPU (`true`) or the CPU backend.
    pub gpu: bool,
    /// Threads a grid-stride launch over plenty of work gets.
    pub threads: u32,
    /// Units that each run one block of a resident kernel at a time: the GPU's
    /// multiprocessors, the CPU's pool threads.
    pub units: u32,
}

/// What a buffer's size grows with, for the split of a [`Footprint`]: the arcs of a graph
/// (heads, weights, per-arc scratch), or anything else (the vertices, or a fixed size).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scale {
    /// An array of one or a few entries per arc.
    Arcs,
    /// Per vertex, or fixed (cells, counters, per-block partials).
    Vertices,
}

/// Bytes held in a device's buffers, and how many of them are in buffers sized by arcs
/// ([`Scale::Arcs`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Footprint {
    /// Every buffer's bytes.
    pub bytes: u64,
    /// Of those, the bytes of buffers sized by arcs.
    pub arc_bytes: u64,
}

#[derive(Default)]
struct Levels {
    now: Footprint,
    peak: Footprint,
}

/// The bytes a device's buffers hold: now, and the most held at once since the meter was made or
/// last [reset](Meter::reset_peak). The peak records the split of the moment it was reached
/// (its `arc_bytes` are those held then). Counting takes a lock per buffer made or dropped,
/// which happens between launches, never in a loop over vertices.
#[derive(Clone, Default)]
pub struct Meter(Arc<Mutex<Levels>>);

impl Meter {
    fn levels(&self) -> std::sync::MutexGuard<'_, Levels> {
        // A poisoned lock only means a thread panicked while counting: the numbers are whole.
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Bytes held now.
    pub fn now(&self) -> Footprint {
        self.levels().now
    }

    /// The most bytes held at once since the last [`Meter::reset_peak`].
    pub fn peak(&self) -> Footprint {
        self.levels().peak
    }

    /// Start a new peak from what is held now (a run measures its own peak from its start).
    pub fn reset_peak(&self) {
        let mut l = self.levels();
        l.peak = l.now;
    }

    /// Count a buffer of `bytes` bytes, until the returned charge is dropped (with the buffer).
    pub(crate) fn charge(&self, bytes: u64, scale: Scale) -> Charge {
        let arcs = if scale == Scale::Arcs { bytes } else { 0 };
        let mut l = self.levels();
        l.now.bytes += bytes;
        l.now.arc_bytes += arcs;
        if l.now.bytes > l.peak.bytes {
            l.peak = l.now;
        }
        Charge { meter: self.clone(), bytes, arcs }
    }
}

/// A buffer's bytes on its device's [`Meter`], taken off when dropped.
pub(crate) struct Charge {
    meter: Meter,
    bytes: u64,
    arcs: u64,
}

impl Drop for Charge {
    fn drop(&mut self) {
        let mut l = self.meter.levels();
        l.now.bytes -= self.bytes;
        l.now.arc_bytes -= self.arcs;
    }
}

/// A buffer an engine allocated itself, with its charge on the device's meter: dropped together.
pub(crate) struct Counted<T> {
    buf: T,
    _charge: Charge,
}

impl<T> Counted<T> {
    /// `buf`, counted as `bytes` bytes of `scale` on `meter`.
    pub(crate) fn new(buf: T, bytes: u64, scale: Scale, meter: &Meter) -> Self {
        Counted { buf, _charge: meter.charge(bytes, scale) }
    }
}

impl<T> std::ops::Deref for Counted<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.buf
    }
}

impl<T> std::ops::DerefMut for Counted<T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.buf
    }
}

/// Device memory: an allocation of [`Device::alloc`], zeroed when made, freed when dropped.
pub struct Buffer {
    addr: u64,
    bytes: u64,
    // Held for its drop only (the kernels reach the memory through `addr`).
    _mem: Mem,
    // Its bytes on the device's meter.
    _charge: Charge,
}

/// What backs a [`Buffer`].
pub(crate) enum Mem {
    /// Host memory of the CPU device, in 8-byte words (every element type's alignment).
    Host { _words: Vec<u64> },
    /// Memory another owner holds and frees (a view: see [`Buffer::borrowed`]).
    Borrowed,
    /// Device memory on the GPU.
    Cuda {
        _slice: cudarc::driver::CudaSlice<u8>,
        /// Gives the bytes back to the device's budget when the buffer goes.
        _refund: cuda::Refund,
    },
}

impl Buffer {
    pub(crate) fn new(addr: u64, bytes: u64, mem: Mem, charge: Charge) -> Self {
        Buffer { addr, bytes, _mem: mem, _charge: charge }
    }

    /// A view of `bytes` bytes at device address `addr` that another owner allocated and
    /// frees (an engine's idle buffers, [`crate::engine::Resident::spare`]): counted once, on
    /// the owner's meter, so this view charges nothing; dropping it frees nothing.
    ///
    /// # Safety
    /// The memory must stay allocated, on the device whose calls the view is passed to, and
    /// unused by its owner while the view is used.
    pub(crate) unsafe fn borrowed(addr: u64, bytes: u64, meter: &Meter) -> Self {
        Buffer { addr, bytes, _mem: Mem::Borrowed, _charge: meter.charge(0, Scale::Vertices) }
    }

    /// Its address on the device, typed for a parameter block.
    pub fn ptr<T>(&self) -> *mut T {
        self.addr as *mut T
    }

    /// Its size in bytes.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }
}

/// A kernel ready to launch: its parameters and, for the CPU, its body. Made by [`Call`] from a
/// kernel type and a parameter block; a device reads what it needs of it.
pub trait Launch: Sync {
    /// The PTX entry ([`Kernel::ENTRY`]).
    fn entry(&self) -> &'static str;
    /// Its module ([`Kernel::MODULE`]).
    fn module(&self) -> Module;
    /// Its launch shape ([`Kernel::SHAPE`]).
    fn shape(&self) -> Shape;
    /// Threads per block ([`Kernel::THREADS`]).
    fn threads(&self) -> u32;
    /// Its index in `sssp_kernels::entry::ALL`, a constant of its kernel type (computed at
    /// compile time): what a device keeps its kernels' functions by, so that a launch finds
    /// its own without hashing its name or taking a lock.
    fn slot(&self) -> usize;
    /// The addresses of the entry's parameters, in order (what `cuLaunchKernel` takes).
    fn params(&self) -> Vec<*mut c_void>;
    /// Run every thread of a grid of `nthreads` on the host and apply the folded result, or an
    /// error for a kernel without a host body ([`GpuOnly`]).
    fn run_host(&self, nthreads: u32) -> Result<()>;
}

/// The index of the kernel type whose entry is `entry` in `sssp_kernels::entry::ALL`
/// ([`Launch::slot`]). Evaluated at compile time for each kernel type: a type missing from the
/// list does not compile.
const fn slot_of(entry: &str) -> usize {
    const fn same(a: &str, b: &str) -> bool {
        let (a, b) = (a.as_bytes(), b.as_bytes());
        if a.len() != b.len() {
            return false;
        }
        let mut i = 0;
        while i < a.len() {
            if a[i] != b[i] {
                return false;
            }
            i += 1;
        }
        true
    }
    let all = sssp_kernels::entry::ALL;
    let mut i = 0;
    while i < all.len() {
        if same(all[i].0, entry) {
            return i;
        }
        i += 1;
    }
    panic!("a kernel type missing from sssp_kernels::entry::ALL")
}

/// A launch of kernel `K` with parameter block `args`.
pub struct Call<K: Kernel> {
    args: K::Args,
}

impl<K: Kernel> Call<K> {
    /// `K` with `args`.
    pub fn new(args: K::Args) -> Self {
        Call { args }
    }
}

/// The [`Launch`] methods that a launch's kernel type `K` answers, for a struct holding its
/// parameter block in `args`.
macro_rules! launch_from_type {
    () => {
        fn entry(&self) -> &'static str {
            K::ENTRY
        }
        fn module(&self) -> Module {
            K::MODULE
        }
        fn shape(&self) -> Shape {
            K::SHAPE
        }
        fn threads(&self) -> u32 {
            K::THREADS
        }
        fn slot(&self) -> usize {
            const { slot_of(K::ENTRY) }
        }
        fn params(&self) -> Vec<*mut c_void> {
            vec![&self.args as *const K::Args as *mut c_void]
        }
    };
}

impl<K: Body> Launch for Call<K> {
    launch_from_type!();
    fn run_host(&self, nthreads: u32) -> Result<()> {
        let a = &self.args;
        // SAFETY: the caller of `launch` upholds the kernels' contract for `args` (the one
        // `unsafe` step is where the parameter block was filled; see `launch`).
        let one = |t| unsafe { K::body(a, t, nthreads) };
        let total = if nthreads <= cpu::SERIAL_THREADS {
            (0..nthreads).map(one).fold(K::ZERO, K::fold)
        } else {
            (0..nthreads).into_par_iter().map(one).reduce(|| K::ZERO, K::fold)
        };
        // SAFETY: as above; the result cells are the block's.
        unsafe { K::apply(a, total) };
        Ok(())
    }
}

/// A launch of a kernel that only the GPU runs (block barriers, shared memory: no host body).
/// A feature that uses one sequences the same work on the CPU itself.
pub struct GpuOnly<K: Kernel> {
    args: K::Args,
}

impl<K: Kernel> GpuOnly<K> {
    /// `K` with `args`.
    pub fn new(args: K::Args) -> Self {
        GpuOnly { args }
    }
}

impl<K: Kernel> Launch for GpuOnly<K> {
    launch_from_type!();
    fn run_host(&self, _: u32) -> Result<()> {
        Err(crate::Error::InvalidArgument(format!("{}: a GPU-only kernel has no host body", K::ENTRY)))
    }
}

/// The device layer. Every method takes `&self`: a device orders its own operations, and the
/// problem objects of several features may hold it at once.
pub trait Device: Send + Sync {
    /// What it is.
    fn facts(&self) -> &Facts;
    /// A zeroed buffer of `bytes` bytes (at least one word), counted on the [`Meter`] as
    /// `scale`, or [`Error::OutOfDeviceMemory`](crate::Error::OutOfDeviceMemory) (GPU) or
    /// [`Error::OutOfHostMemory`](crate::Error::OutOfHostMemory) (CPU) before anything is taken
    /// when it does not fit what the device has left.
    fn alloc(&self, bytes: u64, scale: Scale) -> Result<Buffer>;
    /// Copy `src` into `dst` at byte `offset` (in range: checked).
    fn upload(&self, dst: &Buffer, offset: u64, src: &[u8]) -> Result<()>;
    /// Copy `dst.len()` bytes from `src` at byte `offset` (in range: checked), after the
    /// launches issued before it.
    fn download(&self, src: &Buffer, offset: u64, dst: &mut [u8]) -> Result<()>;
    /// Zero a whole buffer.
    fn zero(&self, b: &Buffer) -> Result<()>;
    /// Launch `k` over `items` items of work (grid-stride kernels: the grid is sized from
    /// them; at most [`Facts::threads`]).
    ///
    /// # Safety
    /// The parameter block behind `k` upholds the kernels' contract (`sssp_kernels`' `# Safety`):
    /// every address points into a live buffer of this device of the size the block's type
    /// documents, and every id in them is in range.
    unsafe fn launch(&self, k: &dyn Launch, items: u64) -> Result<()>;
    /// Wait until everything issued so far has finished.
    fn synchronize(&self) -> Result<()>;
    /// Make a module's kernels ready now: the GPU loads it (once; a driver that JIT-compiles
    /// its PTX takes seconds, so a caller that times its work loads first). A launch from a
    /// module not yet loaded loads it itself. Nothing to do on the CPU.
    fn load(&self, module: Module) -> Result<()>;
    /// The bytes its buffers hold, now and at the peak (see [`Meter`]).
    fn meter(&self) -> &Meter;
}

impl std::fmt::Display for dyn Device + '_ {
    /// The device's name ([`Facts::name`]).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.facts().name)
    }
}

/// Element types that buffers hold: plain old data, any bit pattern valid.
///
/// # Safety
/// The type has no padding, no invalid bit patterns and no pointers the host dereferences.
pub unsafe trait Plain: Copy + Send + Sync + 'static {}
// SAFETY: integers.
unsafe impl Plain for u32 {}
// SAFETY: integers.
unsafe impl Plain for u64 {}

fn as_bytes<T: Plain>(x: &[T]) -> &[u8] {
    // SAFETY: `T: Plain` has no padding; the view covers `x` exactly.
    unsafe { std::slice::from_raw_parts(x.as_ptr() as *const u8, std::mem::size_of_val(x)) }
}

impl dyn Device + '_ {
    /// A zeroed buffer of `len` elements of `T` (per vertex, or fixed: [`Scale::Vertices`]).
    pub fn alloc_of<T: Plain>(&self, len: usize) -> Result<Buffer> {
        self.alloc(crate::mem::bytes_of::<T>(len.max(1)), Scale::Vertices)
    }

    /// A zeroed buffer of `len` elements of `T`, one or a few per arc ([`Scale::Arcs`]).
    pub fn alloc_arcs_of<T: Plain>(&self, len: usize) -> Result<Buffer> {
        self.alloc(crate::mem::bytes_of::<T>(len.max(1)), Scale::Arcs)
    }

    /// Copy `src` into `dst` from element `at` on.
    pub fn upload_of<T: Plain>(&self, dst: &Buffer, at: usize, src: &[T]) -> Result<()> {
        self.upload(dst, crate::mem::bytes_of::<T>(at), as_bytes(src))
    }

    /// `len` elements of `T` from `src`, from element `at` on.
    pub fn download_of<T: Plain + Default>(&self, src: &Buffer, at: usize, len: usize) -> Result<Vec<T>> {
        let mut out = crate::mem::try_vec(len, T::default())?;
        // SAFETY: `T: Plain`: any bytes written are a valid `T`; the view covers `out` exactly.
        let bytes =
            unsafe { std::slice::from_raw_parts_mut(out.as_mut_ptr() as *mut u8, std::mem::size_of_val(&out[..])) };
        self.download(src, crate::mem::bytes_of::<T>(at), bytes)?;
        Ok(out)
    }

    /// Launch kernel `K` with `args` over `items` items (see [`Device::launch`]).
    ///
    /// # Safety
    /// As [`Device::launch`].
    pub unsafe fn run<K: Body>(&self, args: K::Args, items: u64) -> Result<()> {
        // SAFETY: the caller's.
        unsafe { self.launch(&Call::<K>::new(args), items) }
    }
}

/// The range check of [`Device::upload`] and [`Device::download`].
pub(crate) fn check_range(b: &Buffer, offset: u64, len: usize) -> Result<()> {
    match offset.checked_add(len as u64) {
        Some(end) if end <= b.bytes => Ok(()),
        _ => Err(crate::Error::InvalidArgument(format!(
            "a copy of {len} bytes at offset {offset} of a {}-byte device buffer",
            b.bytes
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every `.entry` of a PTX module's text.
    fn entries(ptx: &str) -> Vec<&str> {
        ptx.lines()
            .filter_map(|l| {
                l.trim_start().strip_prefix(".visible .entry ").or_else(|| l.trim_start().strip_prefix(".entry "))
            })
            .map(|l| l.split(['(', ' ']).next().unwrap_or(""))
            .collect()
    }

    #[test]
    fn every_kernel_type_names_an_entry_of_its_module_and_every_entry_has_a_type() {
        use sssp_kernels::entry::ALL;
        for (module, ptx) in [(Module::Main, cuda::PTX), (Module::Twins, cuda::PTX_TWINS)] {
            let mut have = entries(ptx);
            let mut want: Vec<&str> = ALL.iter().filter(|(_, m)| *m == module).map(|(e, _)| *e).collect();
            assert!(!have.is_empty(), "{module:?}: no entries read from the PTX");
            have.sort_unstable();
            want.sort_unstable();
            assert_eq!(have, want, "{module:?}: the PTX's entries and the kernel types differ");
        }
    }

    #[test]
    fn each_kernel_type_has_its_own_slot() {
        use sssp_kernels::entry::{Sweep, SweepBlock, SweepCore, ALL};
        for (i, (entry, _)) in ALL.iter().enumerate() {
            assert_eq!(slot_of(entry), i, "{entry}: entries are distinct, each at its own slot");
        }
        // SAFETY: integers and addresses, all zero (null) valid; never launched.
        let a = || unsafe { std::mem::zeroed::<sssp_kernels::sweep::SweepArgs>() };
        let launches: [&dyn Launch; 3] =
            [&Call::<Sweep>::new(a()), &Call::<SweepCore>::new(a()), &GpuOnly::<SweepBlock>::new(a())];
        for k in launches {
            assert_eq!(ALL[k.slot()].0, k.entry());
        }
    }

    #[test]
    fn cpu_buffers_round_trip_and_check_their_ranges() {
        let dev = cpu::CpuDevice::new();
        let dev: &dyn Device = &dev;
        let b = dev.alloc_of::<u32>(5).unwrap();
        assert_eq!(dev.download_of::<u32>(&b, 0, 5).unwrap(), vec![0; 5], "zeroed when made");
        dev.upload_of(&b, 1, &[7u32, 8, 9]).unwrap();
        assert_eq!(dev.download_of::<u32>(&b, 0, 5).unwrap(), vec![0, 7, 8, 9, 0]);
        assert!(dev.upload_of(&b, 4, &[1u32, 2]).is_err(), "past the end");
        assert!(dev.download_of::<u32>(&b, 6, 1).is_err(), "past the end");
        dev.zero(&b).unwrap();
        assert_eq!(dev.download_of::<u32>(&b, 0, 5).unwrap(), vec![0; 5]);
    }
}
