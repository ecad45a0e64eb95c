//! The CUDA backend: the committed PTX, loaded through `cudarc`'s dynamically loaded driver API.
//!
//! Launch geometry: every kernel but the scan runs a fixed grid of `SMs x blocks-per-SM` blocks
//! of [`BLOCK`] threads with grid-stride loops, and reads its frontier length from device memory.
//! So the host never needs a length to queue a launch, and a strategy can queue many iterations
//! back to back and read a length only when it decides whether to stop.
//!
//! Safety discipline: [`Kernels`] holds the only launch calls, one typed method each, with the
//! conditions the caller must uphold; strategy code never names a kernel.

use std::sync::Arc;

use cudarc::driver::{
    sys::CUdevice_attribute, CudaContext, CudaFunction, CudaModule, CudaSlice, CudaStream, DevicePtr, DriverError,
    LaunchConfig, PinnedHostSlice, PushKernelArg,
};
use cudarc::nvrtc::Ptx;
use sssp_kernels::advance::{ExtractArgs, InitArgs};
use sssp_kernels::{
    AdvanceArgs, Balance, Counters, Csr, DedupeArgs, LoopArgs, Queue, ScanArgs, ScanOf, BLOCK, CELL_LOOP_DONE,
};

use super::{graph_bytes, working_bytes, Advance, Buffer, Engine, Frontiers, Input, QueueRef, CELLS};
use crate::error::{Error, Result};
use crate::graph::Graph;

/// The kernels, as built by `cargo xtask ptx` and committed.
pub const PTX: &str = include_str!("../../ptx/sssp_kernels.ptx");

/// Blocks of the device-wide scan (and entries of its block-sums array). Scans are
/// memory-bound; two blocks per SM of a 132-SM H100 saturate it, and the single-block phase
/// over the block sums stays one short loop.
const SCAN_BLOCKS: u32 = 264;

impl From<DriverError> for Error {
    fn from(e: DriverError) -> Self {
        Error::Cuda(e.to_string())
    }
}

/// Resident blocks per SM for the persistent loop kernel. Every block arrives at the grid
/// barrier on one counter, so fewer blocks make a cheaper barrier; two per SM of 256 threads
/// still cover the frontiers of road graphs and meshes, and grid-stride loops cover the rest.
const LOOP_BLOCKS_PER_SM: u32 = 2;

/// One typed wrapper per kernel.
struct Kernels {
    _module: Arc<CudaModule>,
    init: CudaFunction,
    extract: CudaFunction,
    advance: CudaFunction,
    advance_loop: CudaFunction,
    dedupe_mark: CudaFunction,
    scan_reduce: CudaFunction,
    scan_block_sums: CudaFunction,
    scan_write: CudaFunction,
    /// Blocks of the grid-stride kernels.
    grid: u32,
    /// Blocks of the persistent loop kernel: exactly as many as can be resident at once (its
    /// grid barrier would deadlock on a block that never gets an SM).
    loop_grid: u32,
    /// `SSSP_DEBUG_SYNC=1`: synchronise after every launch and name it on stderr, so a fault
    /// or a hang is pinned to one kernel. Off by default (it serialises the host and device).
    debug_sync: bool,
}

impl Kernels {
    fn load(ctx: &Arc<CudaContext>) -> Result<Self> {
        // `SSSP_PTX=FILE` loads another build of the same kernels (e.g. `cargo xtask ptx --arch
        // sm_90 --out FILE`) to compare targets without rebuilding the host.
        let text = match std::env::var_os("SSSP_PTX") {
            Some(p) => std::fs::read_to_string(&p).map_err(|e| Error::io(p, e))?,
            None => PTX.to_string(),
        };
        let module = ctx.load_module(Ptx::from_src(text))?;
        let f = |name: &str| module.load_function(name);
        let advance = f("sssp_advance")?;
        let sms = ctx.attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)? as u32;
        // Fill the machine once: as many resident blocks of the advance kernel as fit, capped
        // so that a grid-stride pass over a tiny frontier does not launch idle blocks by the
        // thousand.
        let per_sm = advance.occupancy_max_active_blocks_per_multiprocessor(BLOCK, 0, None)?.clamp(1, 8);
        let advance_loop = f("sssp_advance_loop")?;
        let loop_per_sm = advance_loop.occupancy_max_active_blocks_per_multiprocessor(BLOCK, 0, None)?;
        if loop_per_sm == 0 {
            return Err(Error::Cuda("the loop kernel cannot be resident on this device".into()));
        }
        Ok(Kernels {
            init: f("sssp_init")?,
            extract: f("sssp_extract")?,
            dedupe_mark: f("sssp_dedupe_mark")?,
            scan_reduce: f("sssp_scan_reduce")?,
            scan_block_sums: f("sssp_scan_block_sums")?,
            scan_write: f("sssp_scan_write")?,
            advance,
            grid: sms * per_sm,
            loop_grid: sms * loop_per_sm.min(LOOP_BLOCKS_PER_SM),
            advance_loop,
            debug_sync: std::env::var_os("SSSP_DEBUG_SYNC").is_some(),
            _module: module,
        })
    }

    fn done(&self, s: &CudaStream, name: &str) -> Result<()> {
        if self.debug_sync {
            eprintln!("[sssp debug] launched {name}");
            s.synchronize()?;
            eprintln!("[sssp debug] finished {name}");
        }
        Ok(())
    }

    fn cfg(blocks: u32) -> LaunchConfig {
        LaunchConfig { grid_dim: (blocks, 1, 1), block_dim: (BLOCK, 1, 1), shared_mem_bytes: 0 }
    }

    /// # Safety
    /// `a.dist` has `a.n` entries; `a.frontier` (if non-null) and `a.counters` are valid.
    unsafe fn init(&self, s: &CudaStream, a: InitArgs) -> Result<()> {
        s.launch_builder(&self.init).arg(&a).launch(Self::cfg(self.grid))?;
        self.done(s, "init")
    }

    /// # Safety
    /// `a.dist` and `a.out` have `a.n` entries.
    unsafe fn extract(&self, s: &CudaStream, a: ExtractArgs) -> Result<()> {
        s.launch_builder(&self.extract).arg(&a).launch(Self::cfg(self.grid))?;
        self.done(s, "extract")
    }

    /// # Safety
    /// Every address in `a` is a live device buffer sized as `AdvanceArgs` documents: output
    /// capacity covers the pushes the dedupe mode can make, `scan` has `len + 1` entries.
    unsafe fn advance(&self, s: &CudaStream, a: AdvanceArgs) -> Result<()> {
        s.launch_builder(&self.advance).arg(&a).launch(Self::cfg(self.grid))?;
        self.done(s, "advance")
    }

    /// # Safety
    /// As [`Kernels::advance`] for the template, plus: `a.queues` both hold `n` items and
    /// `a.cells` has `NUM_CELLS` cells with the barrier cells at rest (count 0).
    unsafe fn advance_loop(&self, s: &CudaStream, a: LoopArgs) -> Result<()> {
        s.launch_builder(&self.advance_loop).arg(&a).launch(Self::cfg(self.loop_grid))?;
        self.done(s, "advance_loop")
    }

    /// # Safety
    /// `a.table` has an entry for every vertex in `a.input`.
    unsafe fn dedupe_mark(&self, s: &CudaStream, a: DedupeArgs) -> Result<()> {
        s.launch_builder(&self.dedupe_mark).arg(&a).launch(Self::cfg(self.grid))?;
        self.done(s, "dedupe_mark")
    }

    /// The three-phase device-wide scan.
    ///
    /// # Safety
    /// `a.block_sums` has [`SCAN_BLOCKS`] entries; `a.prefix` (Degree) has `len + 1` entries or
    /// `a.output` (Winner) has room for `len` items.
    unsafe fn scan(&self, s: &CudaStream, a: ScanArgs) -> Result<()> {
        s.launch_builder(&self.scan_reduce).arg(&a).launch(Self::cfg(SCAN_BLOCKS))?;
        self.done(s, "scan_reduce")?;
        s.launch_builder(&self.scan_block_sums).arg(&a).arg(&SCAN_BLOCKS).launch(Self::cfg(1))?;
        self.done(s, "scan_block_sums")?;
        s.launch_builder(&self.scan_write).arg(&a).launch(Self::cfg(SCAN_BLOCKS))?;
        self.done(s, "scan_write")
    }
}

/// A graph resident on CUDA device 0.
pub struct CudaEngine {
    name: String,
    stream: Arc<CudaStream>,
    k: Kernels,
    n: u32,
    offsets: CudaSlice<u64>,
    targets: CudaSlice<u32>,
    weights: CudaSlice<u32>,
    dist: CudaSlice<u64>,
    queues: [CudaSlice<u32>; 2],
    scratch: CudaSlice<u32>,
    table: CudaSlice<u32>,
    prefix: CudaSlice<u64>,
    block_sums: CudaSlice<u64>,
    cells: CudaSlice<u32>,
    /// A `Counters` as four u64 words.
    counters: CudaSlice<u64>,
    fr: Frontiers,
    pending_scratch: bool,
    /// Page-locked host buffer for downloads, allocated on first use and kept.
    pinned: Option<PinnedHostSlice<u32>>,
    /// Bytes the graph and working buffers take on the device.
    pub device_bytes: u64,
}

/// Turn "no driver / no device" into `Error::NoGpu` so `--device auto` can fall back.
fn open_context() -> Result<Arc<CudaContext>> {
    // cudarc panics when it has to load a missing libcuda; ask first, without loading it for use.
    // SAFETY: only probes whether the library can be opened.
    if !unsafe { cudarc::driver::sys::is_culib_present() } {
        return Err(Error::NoGpu("the CUDA driver library (libcuda.so) is not installed".into()));
    }
    CudaContext::new(0).map_err(|e| Error::NoGpu(format!("no usable CUDA device 0: {e}")))
}

impl CudaEngine {
    /// Upload `g` to device 0. Needs non-negative weights; checks the fit first. The memory the
    /// engine may use is the device's free memory, or less if `SSSP_GPU_MEMORY_LIMIT` (bytes)
    /// says so (for sharing a GPU with other work).
    pub fn new(g: &Graph) -> Result<Self> {
        let limit = match std::env::var("SSSP_GPU_MEMORY_LIMIT") {
            Ok(v) => Some(v.parse().map_err(|_| {
                Error::InvalidArgument(format!("SSSP_GPU_MEMORY_LIMIT={v}: expected a number of bytes"))
            })?),
            Err(_) => None,
        };
        Self::with_memory_limit(g, limit)
    }

    /// [`CudaEngine::new`] with an explicit cap on the bytes it may use.
    pub fn with_memory_limit(g: &Graph, limit: Option<u64>) -> Result<Self> {
        let weights = g.unsigned_weights("GPU strategies")?;
        let ctx = open_context()?;
        // One stream, and ordering between launches is the stream's: per-buffer event tracking
        // would record events on every launch for nothing.
        // SAFETY: this engine uses a single stream for every operation.
        unsafe { ctx.disable_event_tracking() };
        let name = format!("{} (CUDA)", ctx.name()?);
        let (n, m) = (g.num_vertices() as u64, g.num_arcs() as u64);
        let needed = graph_bytes(n, m) + working_bytes(n, m, SCAN_BLOCKS as u64);
        let (free, _total) = ctx.mem_get_info()?;
        let available = limit.map_or(free as u64, |l| l.min(free as u64));
        // Keep a margin for the context, module and allocator granularity.
        let margin = 256 << 20;
        if needed + margin > available {
            return Err(Error::OutOfDeviceMemory { device: name, needed: needed + margin, available });
        }
        let k = Kernels::load(&ctx)?;
        let stream = ctx.default_stream();
        let nz = (n as usize).max(1);
        let engine = CudaEngine {
            offsets: stream.clone_htod(g.offsets())?,
            targets: stream.clone_htod(g.targets())?,
            weights: stream.clone_htod(weights)?,
            dist: stream.alloc_zeros(nz)?,
            queues: [stream.alloc_zeros(nz)?, stream.alloc_zeros(nz)?],
            scratch: stream.alloc_zeros((m as usize).max(1))?,
            table: stream.alloc_zeros(nz)?,
            prefix: stream.alloc_zeros(n as usize + 1)?,
            block_sums: stream.alloc_zeros(SCAN_BLOCKS as usize)?,
            cells: stream.alloc_zeros(CELLS)?,
            counters: stream.alloc_zeros(4)?,
            n: n as u32,
            name,
            k,
            stream,
            fr: Frontiers::default(),
            pending_scratch: false,
            pinned: None,
            device_bytes: needed,
        };
        engine.stream.synchronize()?;
        Ok(engine)
    }

    fn addr<T>(&self, s: &CudaSlice<T>) -> u64 {
        // Event tracking is off, so the returned guard records nothing.
        s.device_ptr(&self.stream).0
    }

    fn cell(&self, i: usize) -> *mut u32 {
        (self.addr(&self.cells) + 4 * i as u64) as *mut u32
    }

    fn queue(&self, q: usize, cell: usize) -> Queue {
        Queue { items: self.addr(&self.queues[q]) as *mut u32, len: self.cell(cell) }
    }

    /// Device addresses of a queue reference (null for none).
    fn resolve(&self, q: Option<QueueRef>) -> Queue {
        match q {
            None => Queue { items: std::ptr::null_mut(), len: std::ptr::null_mut() },
            Some(QueueRef { buf: Buffer::Frontier(i), cell }) => self.queue(i, cell),
            Some(QueueRef { buf: Buffer::Scratch, cell }) => {
                Queue { items: self.addr(&self.scratch) as *mut u32, len: self.cell(cell) }
            }
        }
    }

    fn current(&self) -> Queue {
        self.queue(self.fr.current_queue(), self.fr.current_cell())
    }

    fn csr(&self) -> Csr {
        Csr {
            offsets: self.addr(&self.offsets) as *const u64,
            targets: self.addr(&self.targets) as *const u32,
            weights: self.addr(&self.weights) as *const u32,
            n: self.n,
            _pad: 0,
        }
    }

    fn counters_ptr(&self) -> *mut Counters {
        self.addr(&self.counters) as *mut Counters
    }

    /// An advance over `input` into `output` for `step`; everything else is this engine's.
    fn advance_args(
        &self,
        step: &Advance,
        input: Queue,
        output: Queue,
        zero_len: *mut u32,
        scan: *const u64,
    ) -> AdvanceArgs {
        AdvanceArgs {
            csr: self.csr(),
            dist: self.addr(&self.dist) as *mut u64,
            input,
            output,
            zero_len,
            scan,
            counters: self.counters_ptr(),
            iter: step.iter,
            balance: step.balance as u32,
            dedupe: step.dedupe as u32,
            _pad: 0,
        }
    }

    fn scan_args(&self, input: Queue, of: ScanOf, output: Queue) -> ScanArgs {
        ScanArgs {
            input,
            offsets: self.addr(&self.offsets) as *const u64,
            table: self.addr(&self.table) as *const u32,
            block_sums: self.addr(&self.block_sums) as *mut u64,
            prefix: self.addr(&self.prefix) as *mut u64,
            output,
            of: of as u32,
            _pad: 0,
        }
    }
}

impl Engine for CudaEngine {
    fn device(&self) -> String {
        self.name.clone()
    }

    fn num_vertices(&self) -> u32 {
        self.n
    }

    fn init(&mut self, source: u32) -> Result<()> {
        self.stream.memset_zeros(&mut self.cells)?;
        self.fr = Frontiers::default();
        self.pending_scratch = false;
        let a = InitArgs {
            dist: self.addr(&self.dist) as *mut u64,
            frontier: self.current(),
            counters: self.counters_ptr(),
            n: self.n,
            source,
        };
        // SAFETY: dist has n entries, the queue n >= 1, counters 4 words.
        unsafe { self.k.init(&self.stream, a) }
    }

    fn advance(&mut self, step: Advance) -> Result<()> {
        let all = step.input == Input::AllVertices;
        if !all && step.balance == Balance::Partition {
            let sa = self.scan_args(
                self.current(),
                ScanOf::Degree,
                Queue { items: std::ptr::null_mut(), len: std::ptr::null_mut() },
            );
            // SAFETY: prefix has n + 1 >= len + 1 entries; block_sums SCAN_BLOCKS.
            unsafe { self.k.scan(&self.stream, sa)? };
        }
        let roles = self.fr.roles(&step);
        let (input, output) = (self.resolve(roles.input), self.resolve(roles.output));
        let zero_len = roles.zero.map_or(std::ptr::null_mut(), |c| self.cell(c));
        self.pending_scratch = roles.output.is_some_and(|q| q.buf == Buffer::Scratch);
        let scan = if all { std::ptr::null() } else { self.addr(&self.prefix) as *const u64 };
        let a = self.advance_args(&step, input, output, zero_len, scan);
        // SAFETY: as in the CPU engine: queues n, scratch m, prefix n + 1, cells CELLS.
        unsafe { self.k.advance(&self.stream, a) }
    }

    fn dedupe(&mut self) -> Result<()> {
        let pushed = Queue { items: self.addr(&self.scratch) as *mut u32, len: self.cell(self.fr.scratch_cell()) };
        let next = self.queue(self.fr.next_queue(), self.fr.next_cell());
        let d = DedupeArgs { input: pushed, table: self.addr(&self.table) as *mut u32, output: next };
        // SAFETY: table has n entries; every pushed vertex is < n; the next queue holds n items
        // and the winners are distinct vertices.
        unsafe {
            self.k.dedupe_mark(&self.stream, d)?;
            self.k.scan(&self.stream, self.scan_args(pushed, ScanOf::Winner, next))
        }
    }

    fn swap(&mut self) {
        self.fr.swap(std::mem::take(&mut self.pending_scratch));
    }

    fn advance_loop(&mut self, step: Advance, max_iters: u32) -> Result<u32> {
        debug_assert!(super::loop_supported(&step));
        // The template's queues and cells are replaced per iteration by the kernel (`loop_step`).
        let next = self.queue(self.fr.next_queue(), self.fr.next_cell());
        let adv = self.advance_args(&step, self.current(), next, std::ptr::null_mut(), std::ptr::null());
        let a = LoopArgs {
            adv,
            queues: [self.addr(&self.queues[0]) as *mut u32, self.addr(&self.queues[1]) as *mut u32],
            cells: self.cell(0),
            k0: self.fr.position(),
            max_iters,
        };
        // SAFETY: queues hold n items each (stamps push a vertex at most once per iteration),
        // cells has NUM_CELLS entries and init zeroed the barrier; loop_grid blocks are resident.
        unsafe { self.k.advance_loop(&self.stream, a)? };
        let done = self.stream.clone_dtoh(&self.cells.slice(CELL_LOOP_DONE..CELL_LOOP_DONE + 1))?[0];
        self.fr.advance_by(done);
        Ok(done)
    }

    fn frontier_len(&mut self) -> Result<u32> {
        let i = self.fr.current_cell();
        let v = self.stream.clone_dtoh(&self.cells.slice(i..i + 1))?;
        Ok(v[0])
    }

    fn counters(&mut self) -> Result<Counters> {
        let w = self.stream.clone_dtoh(&self.counters)?;
        Ok(Counters { arcs: w[0], vertices: w[1], busy: w[2], improved: w[3] as u32, overflow: (w[3] >> 32) as u32 })
    }

    fn clear_flags(&mut self) -> Result<()> {
        self.stream.memset_zeros(&mut self.counters.slice_mut(3..4))?;
        Ok(())
    }

    fn distances(&mut self) -> Result<Vec<u32>> {
        // Unpack on the device into the lookup table (free once a run is over), then one copy
        // of 4n bytes into page-locked memory: pageable copies of the packed 8n bytes ran at
        // under 1 GB/s on the lent H100 machine.
        let n = self.n as usize;
        let a = ExtractArgs {
            dist: self.addr(&self.dist) as *const u64,
            out: self.addr(&self.table) as *mut u32,
            n: self.n,
            _pad: 0,
        };
        // SAFETY: dist and table both have max(n, 1) entries.
        unsafe { self.k.extract(&self.stream, a)? };
        if self.pinned.is_none() {
            // Plain page-locked memory (flags 0): cudarc's default is write-combined, which is
            // slow for the CPU to read back.
            // SAFETY: the slice is only read after the copy below has completed.
            let buf = unsafe { self.stream.context().alloc_pinned_with_flags::<u32>(self.table.len(), 0)? };
            self.pinned = Some(buf);
        }
        let pinned = self.pinned.as_mut().expect("allocated above");
        self.stream.memcpy_dtoh(&self.table, pinned)?;
        self.stream.synchronize()?;
        Ok(pinned.as_slice()?[..n].to_vec())
    }

    fn synchronize(&mut self) -> Result<()> {
        self.stream.synchronize()?;
        Ok(())
    }
}
