//! The CPU device: host memory, and the kernels' bodies run over rayon (`(tid, nthreads)` for
//! every thread of a grid, the same grid-stride contract as on the GPU).

use super::{check_range, Buffer, Device, Facts, Launch, Mem, Meter, Module, Scale, Shape};
use crate::error::{Error, Result};
use sssp_kernels::MAX_VWARP;

/// Threads of one CPU launch over plenty of work. A multiple of the widest virtual warp; large
/// enough that rayon can balance uneven per-thread work, and that the dynamic virtual-warp rule
/// sees the same kind of ratio (threads / items) as on a GPU.
pub const CPU_THREADS: u32 = 256 * MAX_VWARP;

/// Grids up to this many threads run on the calling thread: a rayon fork-join costs more than
/// the few hundred items of a small launch (road graphs have hundreds of iterations with a few
/// hundred vertices).
pub const SERIAL_THREADS: u32 = 1024;

/// Threads of a CPU launch over `items` items: a few per item, whole virtual warps, at most
/// [`CPU_THREADS`].
pub fn grid_for(items: impl Into<u64>) -> u32 {
    (items.into().min(CPU_THREADS as u64) as u32)
        .saturating_mul(4)
        .next_multiple_of(MAX_VWARP)
        .clamp(MAX_VWARP, CPU_THREADS)
}

/// Run `body(tid, nthreads)` for every thread of a CPU grid of `nthreads` threads: inline on
/// the calling thread up to [`SERIAL_THREADS`], else over rayon. The bodies are correct for any
/// grid size (grid-stride loops), so callers size the grid to the work ([`grid_for`]).
pub fn run_threads(nthreads: u32, body: impl Fn(u32, u32) + Sync + Send) {
    use rayon::prelude::*;
    if nthreads <= SERIAL_THREADS {
        (0..nthreads).for_each(|t| body(t, nthreads));
    } else {
        (0..nthreads).into_par_iter().for_each(|t| body(t, nthreads));
    }
}

/// The CPU backend's device.
pub struct CpuDevice {
    facts: Facts,
    /// What its buffers hold, the engine's own vectors included (`CpuEngine` counts them here).
    meter: Meter,
}

impl CpuDevice {
    /// The CPU, with rayon's pool.
    pub fn new() -> Self {
        let threads = rayon::current_num_threads();
        CpuDevice {
            facts: Facts {
                name: format!("CPU (rayon, {threads} threads)"),
                gpu: false,
                threads: CPU_THREADS,
                units: rayon::current_num_threads() as u32,
            },
            meter: Meter::default(),
        }
    }
}

impl Default for CpuDevice {
    fn default() -> Self {
        Self::new()
    }
}

impl Device for CpuDevice {
    fn facts(&self) -> &Facts {
        &self.facts
    }

    fn alloc(&self, bytes: u64, scale: Scale) -> Result<Buffer> {
        let words = usize::try_from(bytes.div_ceil(8).max(1)).map_err(|_| Error::OutOfHostMemory { needed: bytes })?;
        let mut v = crate::mem::try_vec(words, 0u64)?;
        let addr = v.as_mut_ptr() as u64;
        let charge = self.meter.charge(8 * words as u64, scale);
        Ok(Buffer::new(addr, bytes, Mem::Host { _words: v }, charge))
    }

    fn upload(&self, dst: &Buffer, offset: u64, src: &[u8]) -> Result<()> {
        check_range(dst, offset, src.len())?;
        // SAFETY: in range (checked); no launch runs while the host copies (CPU launches return
        // when done), so nothing else touches the bytes.
        unsafe { std::ptr::copy_nonoverlapping(src.as_ptr(), dst.ptr::<u8>().add(offset as usize), src.len()) };
        Ok(())
    }

    fn download(&self, src: &Buffer, offset: u64, dst: &mut [u8]) -> Result<()> {
        check_range(src, offset, dst.len())?;
        // SAFETY: as in `upload`.
        unsafe { std::ptr::copy_nonoverlapping(src.ptr::<u8>().add(offset as usize), dst.as_mut_ptr(), dst.len()) };
        Ok(())
    }

    fn zero(&self, b: &Buffer) -> Result<()> {
        // SAFETY: the whole buffer, between launches (see `upload`).
        unsafe { std::ptr::write_bytes(b.ptr::<u8>(), 0, b.bytes() as usize) };
        Ok(())
    }

    unsafe fn launch(&self, k: &dyn Launch, items: u64) -> Result<()> {
        if k.shape() != Shape::Grid {
            return Err(Error::InvalidArgument(format!(
                "{}: a {:?} kernel has no host body; its feature sequences it on the CPU itself",
                k.entry(),
                k.shape()
            )));
        }
        k.run_host(grid_for(items))
    }

    fn synchronize(&self) -> Result<()> {
        Ok(())
    }

    fn load(&self, _: Module) -> Result<()> {
        Ok(())
    }

    fn meter(&self) -> &Meter {
        &self.meter
    }
}
