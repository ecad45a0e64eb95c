//! The CUDA device: device 0 through `cudarc`'s dynamically loaded driver API, the committed
//! kernels (fatbins with SASS, or their PTX for the driver's JIT), one stream.

use std::sync::{Arc, Mutex, OnceLock};

use cudarc::driver::{
    result, sys::CUdevice_attribute, CudaContext, CudaFunction, CudaModule, CudaStream, DevicePtr, PinnedHostSlice,
};
use cudarc::nvrtc::Ptx;
use sssp_kernels::entry::ALL;
use sssp_kernels::BLOCK;

use super::{check_range, Buffer, Device, Facts, Launch, Mem, Meter, Module, Scale, Shape};
use crate::error::{Error, Result};

/// The kernels, as built by `cargo xtask ptx` and committed.
pub const PTX: &str = include_str!("../../ptx/sssp_kernels.ptx");

/// The second module: the classified twins (H-BF's edge classes), loaded only by an engine
/// whose runs classify, so that the first module's one-time driver JIT (uncached: 3.3 s on a
/// fresh H200) does not pay for them (6.0 s with them in it; docs/gpu.md).
pub const PTX_TWINS: &str = include_str!("../../ptx/sssp_kernels_twins.ptx");

/// Both modules as fatbins (`cargo xtask ptx`, `xtask/src/sass.rs`): SASS for the
/// architectures in [`SASS_ARCHS`] plus the PTX, from which the driver picks what the device
/// runs. On those GPUs a first process starts without the driver's JIT of the PTX (5.3-5.8 s
/// uncached on a fresh H100 machine, 0.1-0.25 s with the SASS; docs/gpu.md); any other
/// JIT-compiles the PTX inside, as before.
pub(crate) const FATBIN: &[u8] = include_bytes!("../../ptx/sssp_kernels.fatbin");

/// The twins' fatbin (see [`FATBIN`]).
pub(crate) const FATBIN_TWINS: &[u8] = include_bytes!("../../ptx/sssp_kernels_twins.fatbin");

/// The architectures with SASS in the fatbins, as (major, minor) compute capabilities (the same
/// list as `ARCHS` in `xtask/src/sass.rs`): for the device's description only, since the driver
/// makes the choice (SASS of the same major and a minor at most the device's).
const SASS_ARCHS: &[(i32, i32)] = &[(8, 0), (9, 0), (10, 0)];

/// Load one module on `ctx`: its fatbin, or with `SSSP_JIT=1` its PTX text; and the PTX text
/// too when the driver refuses the fatbin (a driver older than the CUDA 13 tools that made
/// it). Returns the module and what ran, for the device's description.
pub(crate) fn load_module(ctx: &Arc<CudaContext>, fatbin: &[u8], ptx: &str) -> Result<(Arc<CudaModule>, String)> {
    let major = ctx.attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)?;
    let minor = ctx.attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)?;
    let jit = format!("PTX JIT for sm_{major}{minor}");
    if std::env::var_os("SSSP_JIT").is_some() {
        return Ok((ctx.load_module(Ptx::from_src(ptx))?, jit));
    }
    let what = match SASS_ARCHS.iter().filter(|&&(ma, mi)| ma == major && mi <= minor).max() {
        Some((ma, mi)) => format!("SASS sm_{ma}{mi}"),
        None => jit.clone(),
    };
    match ctx.load_module(Ptx::from_binary(fatbin.to_vec())) {
        Ok(m) => Ok((m, what)),
        Err(_) => Ok((ctx.load_module(Ptx::from_src(ptx))?, format!("{jit} (the driver refused the fatbin)"))),
    }
}

/// Turn "no driver / no device" into `Error::NoGpu` so `--device auto` can fall back.
pub(crate) fn open_context() -> Result<Arc<CudaContext>> {
    // cudarc panics when it has to load a missing libcuda; ask first, without loading it for use.
    // Asked once per process (a library search costs about a millisecond, and a driver does not
    // appear while a process runs): a caller that opens many small graphs with `Auto` (the
    // Python package, a NetworkX backend) pays it once.
    static PRESENT: OnceLock<bool> = OnceLock::new();
    // SAFETY: only probes whether the library can be opened.
    if !*PRESENT.get_or_init(|| unsafe { cudarc::driver::sys::is_culib_present() }) {
        return Err(Error::NoGpu("the CUDA driver library (libcuda.so) is not installed".into()));
    }
    CudaContext::new(0).map_err(|e| Error::NoGpu(format!("no usable CUDA device 0: {e}")))
}

/// A buffer's bytes, given back to its device's budget when the buffer is dropped.
pub(crate) struct Refund {
    budget: Arc<Mutex<u64>>,
    bytes: u64,
}

impl Drop for Refund {
    fn drop(&mut self) {
        *self.budget.lock().unwrap_or_else(|p| p.into_inner()) += self.bytes;
    }
}

/// Device 0's stream, kernels and memory budget.
pub struct CudaDevice {
    facts: Facts,
    stream: Arc<CudaStream>,
    /// The main module (loaded by the engine's opening, shared by the process).
    main: Arc<CudaModule>,
    /// The twins' module, loaded by the first launch of one of its kernels.
    twins: OnceLock<Arc<CudaModule>>,
    /// Every kernel type's function, by its slot ([`Launch::slot`]). A module's are looked up
    /// when it is loaded (the main module's when the device is made, the twins' with their
    /// module), so a launch reads its own with one atomic load: no lock, no hashing of its
    /// name, no reference count to bump (PHAST launches a kernel per level, up to
    /// a few hundred per solve, and its NY solves went from 1.660 to 1.856 ms on the H100 when
    /// launches went through this layer).
    functions: Box<[OnceLock<CudaFunction>]>,
    /// Blocks of a grid-stride launch over plenty of work.
    grid: u32,
    /// Streaming multiprocessors: a resident kernel's grid is this times the blocks of it
    /// that fit on one.
    sms: u32,
    /// Bytes the device may still hand out (the engine's fit check set the start); buffers
    /// give theirs back when they go ([`Refund`]).
    spare: Arc<Mutex<u64>>,
    /// Page-locked bounce buffer for downloads (pageable copies ran under 1 GB/s on the
    /// H100), grown to the largest download, kept.
    pinned: Mutex<Option<PinnedHostSlice<u8>>>,
    /// `SSSP_DEBUG_SYNC=1`: synchronise after every launch and name it on stderr.
    debug_sync: bool,
    /// What its buffers hold, the engine's own included (`CudaEngine` counts them here).
    meter: Meter,
}

// SAFETY: the pinned buffer is only touched under its lock; the stream orders every operation.
unsafe impl Send for CudaDevice {}
// SAFETY: as above.
unsafe impl Sync for CudaDevice {}

impl CudaDevice {
    /// A device on `stream` with the loaded `main` module (its functions looked up now),
    /// `grid` blocks for grid-stride launches and `spare` bytes to hand out, counting its buffers
    /// on `meter` (where its engine has counted its own).
    pub(crate) fn new(
        name: String,
        stream: Arc<CudaStream>,
        main: Arc<CudaModule>,
        grid: u32,
        spare: u64,
        meter: Meter,
    ) -> Result<Self> {
        let sms = stream.context().attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)? as u32;
        let dev = CudaDevice {
            facts: Facts { name, gpu: true, threads: grid * BLOCK, units: sms },
            stream,
            main: main.clone(),
            twins: OnceLock::new(),
            functions: ALL.iter().map(|_| OnceLock::new()).collect(),
            grid,
            sms,
            spare: Arc::new(Mutex::new(spare)),
            pinned: Mutex::new(None),
            debug_sync: std::env::var_os("SSSP_DEBUG_SYNC").is_some(),
            meter,
        };
        dev.resolve(Module::Main, &main)?;
        Ok(dev)
    }

    /// A device of its own on `stream`'s GPU, for a feature that runs there without an engine
    /// (a distributed rank on GPU `r`: `sssp::distributed`): the main module loaded on that
    /// context, grid-stride launches of 8 blocks per SM (every thread the SM holds, at 256
    /// per block), and everything the GPU has free to hand out but a margin.
    pub(crate) fn on_stream(stream: Arc<CudaStream>) -> Result<Self> {
        let ctx = stream.context().clone();
        ctx.bind_to_thread()?;
        let (main, code) = load_module(&ctx, FATBIN, PTX)?;
        let sms = ctx.attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)? as u32;
        let (free, _) = ctx.mem_get_info()?;
        const MARGIN: u64 = 256 << 20;
        let name = format!("{} (GPU {}, CUDA, {code})", ctx.name()?, ctx.ordinal());
        Self::new(name, stream, main, sms * 8, (free as u64).saturating_sub(MARGIN), Meter::default())
    }

    /// Take `bytes` from the budget, or [`Error::OutOfDeviceMemory`] with nothing taken.
    pub(crate) fn reserve(&self, bytes: u64) -> Result<()> {
        let mut spare = self.spare.lock().unwrap_or_else(|p| p.into_inner());
        if bytes > *spare {
            return Err(Error::OutOfDeviceMemory { device: self.facts.name.clone(), needed: bytes, available: *spare });
        }
        *spare -= bytes;
        Ok(())
    }

    /// Give `bytes` back to the budget (a buffer replaced or dropped by its owner).
    pub(crate) fn release(&self, bytes: u64) {
        *self.spare.lock().unwrap_or_else(|p| p.into_inner()) += bytes;
    }

    /// Bytes the budget has left.
    pub(crate) fn spare(&self) -> u64 {
        *self.spare.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A module, loaded on first use (the main one comes loaded).
    pub(crate) fn module(&self, module: Module) -> Result<Arc<CudaModule>> {
        Ok(match module {
            Module::Main => self.main.clone(),
            Module::Twins => match self.twins.get() {
                Some(m) => m.clone(),
                None => {
                    let (m, _) = load_module(self.stream.context(), FATBIN_TWINS, PTX_TWINS)?;
                    self.twins.get_or_init(|| m).clone()
                }
            },
        })
    }

    /// Look up the functions of `module`'s kernel types (`m`, that module loaded) into the
    /// table, those not there yet.
    fn resolve(&self, module: Module, m: &Arc<CudaModule>) -> Result<()> {
        for (slot, (entry, _)) in ALL.iter().enumerate().filter(|(_, (_, of))| *of == module) {
            if self.functions[slot].get().is_none() {
                // Another thread may have set it since: the same function either way.
                let _ = self.functions[slot].set(m.load_function(entry)?);
            }
        }
        Ok(())
    }

    /// The function of `k`'s kernel type: from the table, or, before its module's first use
    /// (the twins'), after loading the module.
    #[inline]
    fn function(&self, k: &dyn Launch) -> Result<&CudaFunction> {
        let slot = &self.functions[k.slot()];
        if let Some(f) = slot.get() {
            return Ok(f);
        }
        let m = self.module(k.module())?;
        self.resolve(k.module(), &m)?;
        slot.get().ok_or_else(|| Error::Cuda(format!("{}: not found in its module", k.entry())))
    }
}

impl Device for CudaDevice {
    fn facts(&self) -> &Facts {
        &self.facts
    }

    fn alloc(&self, bytes: u64, scale: Scale) -> Result<Buffer> {
        let bytes = bytes.max(8);
        self.reserve(bytes)?;
        let mem = match self.stream.alloc_zeros::<u8>(bytes as usize) {
            Ok(m) => m,
            Err(e) => {
                self.release(bytes);
                return Err(e.into());
            }
        };
        let addr = mem.device_ptr(&self.stream).0;
        let refund = Refund { budget: self.spare.clone(), bytes };
        let charge = self.meter.charge(bytes, scale);
        Ok(Buffer::new(addr, bytes, Mem::Cuda { _slice: mem, _refund: refund }, charge))
    }

    fn upload(&self, dst: &Buffer, offset: u64, src: &[u8]) -> Result<()> {
        check_range(dst, offset, src.len())?;
        if src.is_empty() {
            return Ok(());
        }
        // The raw driver calls below act on the calling thread's current context: a device
        // may be used from another thread than the one that made it (a simulated rank's).
        self.stream.context().bind_to_thread()?;
        // SAFETY: the range lies inside `dst` (checked). From pageable memory the driver has
        // copied `src` out (to its staging) when the call returns, so `src` may be dropped then;
        // the transfer itself is ordered on the stream like every other operation.
        unsafe { result::memcpy_htod_async(dst.addr + offset, src, self.stream.cu_stream())? };
        Ok(())
    }

    fn download(&self, src: &Buffer, offset: u64, dst: &mut [u8]) -> Result<()> {
        check_range(src, offset, dst.len())?;
        if dst.is_empty() {
            return Ok(());
        }
        self.stream.context().bind_to_thread()?;
        let mut slot = self.pinned.lock().unwrap_or_else(|p| p.into_inner());
        if slot.as_ref().is_none_or(|p| p.len() < dst.len()) {
            *slot = None;
            // Plain page-locked memory (flags 0): write-combined memory is slow for the CPU to
            // read back.
            // SAFETY: the buffer is only read after the copy into it has completed.
            *slot =
                Some(unsafe { self.stream.context().alloc_pinned_with_flags::<u8>(dst.len().next_power_of_two(), 0)? });
        }
        let pinned = slot.as_mut().expect("allocated above");
        let host = pinned.as_mut_slice()?;
        // SAFETY: the range lies inside `src` (checked) and the pinned buffer holds `dst.len()`.
        unsafe { result::memcpy_dtoh_async(&mut host[..dst.len()], src.addr + offset, self.stream.cu_stream())? };
        self.stream.synchronize()?;
        super::staging::parallel_copy(&host[..dst.len()], dst);
        Ok(())
    }

    fn zero(&self, b: &Buffer) -> Result<()> {
        self.stream.context().bind_to_thread()?;
        // SAFETY: the whole buffer.
        unsafe { result::memset_d8_async(b.addr, 0, b.bytes as usize, self.stream.cu_stream())? };
        Ok(())
    }

    unsafe fn launch(&self, k: &dyn Launch, items: u64) -> Result<()> {
        let f = self.function(k)?;
        let blocks = match k.shape() {
            Shape::Grid => (items.div_ceil(k.threads() as u64).min(self.grid as u64) as u32).max(1),
            Shape::OneBlock => 1,
            // Every block resident at once (grid barriers): as many as fit, from the
            // function's own occupancy (its registers and shared memory).
            Shape::Resident => {
                self.sms * f.occupancy_max_active_blocks_per_multiprocessor(k.threads(), 0, None)?.max(1)
            }
            other => {
                return Err(Error::InvalidArgument(format!(
                    "{}: {other:?} kernels are launched by their feature, not through the generic path",
                    k.entry()
                )))
            }
        };
        let mut params = k.params();
        self.stream.context().bind_to_thread()?;
        // SAFETY: the caller's (the parameter block upholds the kernel's contract); `params`
        // points at it and lives until the launch has been queued.
        unsafe {
            result::launch_kernel(
                f.cu_function(),
                (blocks, 1, 1),
                // The type's block size: `sssp_sweep_block` is built for 1,024 threads
                // (`.maxntid 1024`) and runs PHAST's top levels of up to 1,024 vertices a
                // thread each.
                (k.threads(), 1, 1),
                0,
                self.stream.cu_stream(),
                &mut params,
            )?
        };
        if self.debug_sync {
            eprintln!("[sssp debug] launched {}", k.entry());
            self.stream.synchronize()?;
            eprintln!("[sssp debug] finished {}", k.entry());
        }
        Ok(())
    }

    fn synchronize(&self) -> Result<()> {
        Ok(self.stream.synchronize()?)
    }

    fn load(&self, module: Module) -> Result<()> {
        let m = self.module(module)?;
        self.resolve(module, &m)
    }

    fn meter(&self) -> &Meter {
        &self.meter
    }
}

#[cfg(test)]
mod tests {
    use super::{FATBIN, FATBIN_TWINS, SASS_ARCHS};

    /// The entries of a fatbin as (kind, sm): kind 1 is PTX, 2 is an ELF (SASS) image.
    /// Container: magic `0xBA55ED50`, `u16` version, `u16` header size, `u64` size of the
    /// entries; each entry: `u16` kind, `u16` version, `u32` header size, `u64` payload size,
    /// ..., `u32` sm at byte 28.
    fn entries(fatbin: &[u8]) -> Vec<(u16, u32)> {
        let u16_at = |o: usize| u16::from_le_bytes(fatbin[o..o + 2].try_into().unwrap());
        let u32_at = |o: usize| u32::from_le_bytes(fatbin[o..o + 4].try_into().unwrap());
        let u64_at = |o: usize| u64::from_le_bytes(fatbin[o..o + 8].try_into().unwrap());
        assert_eq!(u32_at(0), 0xBA55_ED50, "not a fatbin");
        let (header, size) = (u16_at(6) as usize, u64_at(8) as usize);
        assert_eq!(header + size, fatbin.len(), "the container's size");
        let (mut at, mut out) = (header, vec![]);
        while at < fatbin.len() {
            out.push((u16_at(at), u32_at(at + 28)));
            at += u32_at(at + 4) as usize + u64_at(at + 8) as usize;
        }
        assert_eq!(at, fatbin.len(), "entries end where the container does");
        out
    }

    /// Both committed fatbins carry SASS for every architecture the engine
    /// names (sm_80, sm_90, sm_100), so a first run there needs no JIT, and the PTX for the
    /// driver to JIT on any other GPU. (`cargo xtask ptx --check` checks they are up to date.)
    #[test]
    fn fatbins_carry_sass_for_each_named_arch_and_the_ptx() {
        for fatbin in [FATBIN, FATBIN_TWINS] {
            let e = entries(fatbin);
            for &(major, minor) in SASS_ARCHS {
                let sm = (major * 10 + minor) as u32;
                assert!(e.contains(&(2, sm)), "no SASS for sm_{sm}: {e:?}");
            }
            assert!(e.iter().any(|&(kind, _)| kind == 1), "no PTX: {e:?}");
        }
    }
}
