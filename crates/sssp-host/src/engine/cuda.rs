//! The CUDA backend: the committed PTX, loaded through `cudarc`'s dynamically loaded driver API.
//!
//! Launch geometry: every kernel but the scan runs a fixed grid of `SMs x blocks-per-SM` blocks
//! of [`BLOCK`] threads with grid-stride loops, and reads its frontier length from device memory.
//! So the host never needs a length to queue a launch, and a strategy can queue many iterations
//! back to back and read a length only when it decides whether to stop.
//!
//! Safety discipline: `Kernels` holds the only launch calls, one typed method each, with the
//! conditions the caller must uphold; strategy code never names a kernel.

use std::sync::{Arc, Mutex};

use crate::device::staging::Staging;
use cudarc::driver::{
    sys::CUdevice_attribute, CudaContext, CudaFunction, CudaModule, CudaSlice, CudaStream, DevicePtr, DriverError,
    LaunchConfig, PinnedHostSlice, PushKernelArg,
};
use cudarc::nvrtc::Ptx;
use sssp_kernels::classify::{ClassifyArgs, SinkArgs};
use sssp_kernels::entry::{self as k, Kernel};
use sssp_kernels::{
    AdvanceArgs, Balance, Counters, Csr, DedupeArgs, ExtractArgs, InitArgs, MultisplitArgs, PileArgs, Queue, ScanArgs,
    ScanOf, SeedArgs, SettleArgs, BLOCK, MAX_BINS, SETTLE_CELL_DONE,
};

use super::settle::{self as st, SettleLayout, SettleSpec};

use super::{
    bucket_bytes, graph_bytes, working_bytes, Advance, Engine, Frontiers, Input, Layout, LoopSpec, LoopStatus,
    Resident, CELLS, NO_QUEUE,
};
use crate::device::{cuda::CudaDevice, Counted, Device, Meter, Module, Scale};
use crate::error::{Error, Result};
use crate::graph::Graph;

use crate::device::cuda::{load_module, open_context, FATBIN, PTX};

/// Blocks of the device-wide scan (and entries of its block-sums array). Scans are
/// memory-bound; two blocks per SM of a 132-SM H100 saturate it, and the single-block phase
/// over the block sums stays one short loop.
const SCAN_BLOCKS: u32 = 264;

impl From<DriverError> for Error {
    fn from(e: DriverError) -> Self {
        Error::Cuda(e.to_string())
    }
}

/// Keep this much device memory free beyond what the engine computes it needs (context, module,
/// allocator granularity).
const MARGIN: u64 = 256 << 20;

/// Resident blocks per SM for the persistent loops of partition balance, the hub phase and
/// settling. Every block arrives at the grid barrier on one counter, so fewer blocks make a
/// cheaper barrier; these loops' partitioned advances want the second block's warps (on
/// `gen:kron:16` one block per SM took 0.50-0.52 ms against 0.42 with two; docs/gpu.md, "Loop
/// geometry").
const LOOP_BLOCKS_PER_SM: u32 = 2;

/// Resident blocks per SM for the partition loop (`sssp_pile_loop_partition`, launch-bounded
/// to fit them: 80 registers). Its trips are chains of loads and shuffles with little else to
/// issue, and with two blocks an SM's schedulers had 4 warps each, 0.46 of them eligible a
/// cycle (ncu, kron 18). With the walk's ranks in 32 bits (its registers then spill 304 bytes
/// at this bound, 56 at two blocks' 128), three blocks took kron 18 from 0.43-0.46 ms to
/// 0.35-0.38 and kron 17 from 0.30-0.34 to 0.26-0.29 on the H100, kron 16 the same
/// (H100, 2026-11-28). The classified twin keeps the
/// bound of two, so it runs two: at three, kron 16-18 were mixed (one kron 18 round faster by
/// 14%, one slower by 15%).
const PARTITION_BLOCKS_PER_SM: u32 = 3;

/// Resident blocks per SM for the plain loop (thread and virtual-warp balance: roads and
/// meshes). One block of 256 threads per SM: 132 arrivals per barrier on the H100 instead of
/// 264, and its frontiers (a few thousand vertices at most on NY) still fill the grid. Measured
/// against two per SM in one call (H100, 2026-11-27): NY 6.90 -> 6.35 ms,
/// `gen:road:1000000` 9.89 -> 8.93, `gen:road:4000000` 21.99 -> 19.50, grid3d 256^3 24.24 ->
/// 23.66, grid2d 1000^2 13.93 -> 13.00.
const PLAIN_LOOP_BLOCKS_PER_SM: u32 = 1;

/// Resident blocks per SM of the wide loop kernel (its launch bounds guarantee they fit).
const WIDE_BLOCKS_PER_SM: u32 = 4;

/// Resident blocks per SM of the wide loop under thread or virtual-warp balance on dense graphs
/// (`Geometry::Dense`). Three took `gen:uniform:16777216:16` in 30.6 ms on the H200 against 36.3
/// at four and 32.8 at two, `gen:uniform:4194304:8` 3.86 against 3.94 and 4.03
/// (docs/performance.md).
const DENSE_BLOCKS_PER_SM: u32 = 3;

/// `SSSP_LOOP_GRID=B`: at most `B` blocks for every grid loop (measuring barrier cost against
/// parallelism; docs/gpu.md, "The block loop"). The classified twins' grids follow.
fn loop_grid_cap(grid: u32) -> u32 {
    std::env::var("SSSP_LOOP_GRID").ok().and_then(|v| v.parse::<u32>().ok()).map_or(grid, |b| b.clamp(1, grid))
}

/// `default` ([`LOOP_BLOCKS_PER_SM`] or [`PLAIN_LOOP_BLOCKS_PER_SM`]), or
/// `SSSP_LOOP_BLOCKS_PER_SM` for every loop (for measuring the trade-off between barrier cost
/// and memory parallelism on a device; still capped by occupancy).
fn loop_blocks_per_sm(default: u32) -> u32 {
    std::env::var("SSSP_LOOP_BLOCKS_PER_SM").ok().and_then(|v| v.parse().ok()).filter(|&b| b > 0).unwrap_or(default)
}

/// One typed wrapper per kernel.
#[derive(Clone)]
struct Kernels {
    module: Arc<CudaModule>,
    /// What the first module was loaded from (SASS of an architecture, or PTX for the JIT).
    code: String,
    init: CudaFunction,
    seed: CudaFunction,
    extract: CudaFunction,
    advance: CudaFunction,
    pile_loop: CudaFunction,
    /// The plain loop for the common run, its options compiled in (`sssp_pile_loop_lean`,
    /// `PileArgs::is_lean`), on a grid of its own occupancy at the plain loop's blocks per SM;
    /// `SSSP_LEAN_LOOP=0` leaves every run to the plain loop (to compare the two).
    pile_loop_lean: Option<(CudaFunction, u32)>,
    pile_loop_wide: CudaFunction,
    /// The wide loop with the filtering advance, for dense graphs (`sssp_pile_loop_dense`).
    pile_loop_dense: CudaFunction,
    /// The loop of partition balance on graphs up to `NARROW_PARTITION_ARCS` arcs
    /// (`sssp_pile_loop_partition`).
    pile_loop_partition: CudaFunction,
    /// Blocks of the partition loop: `PARTITION_BLOCKS_PER_SM` per SM, resident at once.
    partition_grid: u32,
    /// The block loop (`sssp_kernels::block_loop`): one block, near queues in shared memory.
    pile_block: CudaFunction,
    /// The loop with the hub phase and the tiled advance (`sssp_pile_loop_hubs`).
    pile_loop_hubs: CudaFunction,
    /// The tiled modes' advance (`sssp_advance_tiles`).
    advance_tiles: CudaFunction,
    /// Blocks of the hubs loop, resident at once like `loop_grid`.
    hubs_grid: u32,
    /// The classification passes and the deferred pass (H-BF's edge classes).
    classify: CudaFunction,
    relax_sinks: CudaFunction,
    /// The classified twins of the advance and loop kernels, from their own module, loaded by
    /// the first run that classifies ([`Kernels::load_twins`]).
    twins: Option<Twins>,
    /// Multiprocessors of the device (for the twins' grids).
    sms: u32,
    multisplit: CudaFunction,
    dedupe_mark: CudaFunction,
    scan_reduce: CudaFunction,
    scan_block_sums: CudaFunction,
    scan_write: CudaFunction,
    settle_prepare: CudaFunction,
    settle_loop: CudaFunction,
    /// Blocks of the settle loop (resident at once, like the pile loop's).
    settle_grid: u32,
    /// Blocks of the grid-stride kernels.
    grid: u32,
    /// Blocks of the persistent loop kernel: exactly as many as can be resident at once (its
    /// grid barrier would deadlock on a block that never gets an SM).
    loop_grid: u32,
    /// Blocks of the wide persistent loop (throughput-bound runs), likewise resident at once.
    wide_grid: u32,
    /// Blocks of the wide loop when it runs thread or virtual-warp balance (`Geometry::Dense`).
    dense_grid: u32,
    /// `SSSP_DEBUG_SYNC=1`: synchronise after every launch and name it on stderr, so a fault
    /// or a hang is pinned to one kernel. Off by default (it serialises the host and device).
    debug_sync: bool,
}

/// The `_classified` entry points (`sssp_kernels::classify`), from the second PTX module
/// (`device::cuda::PTX_TWINS`), and the grids of their loops: each at most its plain loop's (the buffers
/// per block are sized for those) and what the twin keeps resident.
#[derive(Clone)]
struct Twins {
    _module: Arc<CudaModule>,
    advance: CudaFunction,
    advance_tiles: CudaFunction,
    pile_loop: CudaFunction,
    pile_loop_wide: CudaFunction,
    pile_loop_dense: CudaFunction,
    pile_loop_partition: CudaFunction,
    pile_loop_hubs: CudaFunction,
    settle_loop: CudaFunction,
    loop_grid: u32,
    wide_grid: u32,
    dense_grid: u32,
    partition_grid: u32,
    hubs_grid: u32,
    settle_grid: u32,
}

/// Which persistent grid loop runs a frontier solve (hub and tiled runs aside): the plain loop,
/// the wide one (4 blocks per SM) for partition balance on graphs past
/// `NARROW_PARTITION_ARCS` (2^31 arcs), the partition loop for partition balance on the others,
/// and the dense one (the wide loop whose advance reads before the atomic) at
/// `DENSE_BLOCKS_PER_SM` for the other balances on dense graphs (`Layout::dense`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Geometry {
    Plain,
    Wide,
    Partition,
    Dense,
}

/// Blocks per SM that both of two grid-barrier kernels keep resident (the loop and the
/// stand-alone multisplit run on one grid size).
fn resident_both(a: &CudaFunction, b: &CudaFunction) -> Result<u32> {
    Ok(a.occupancy_max_active_blocks_per_multiprocessor(BLOCK, 0, None)?
        .min(b.occupancy_max_active_blocks_per_multiprocessor(BLOCK, 0, None)?))
}

impl Kernels {
    /// The main module (the device launches kernel types from it).
    fn module(&self) -> Arc<CudaModule> {
        self.module.clone()
    }

    fn load(ctx: &Arc<CudaContext>) -> Result<Self> {
        // `SSSP_PTX=FILE` loads another build of the same kernels (e.g. `cargo xtask ptx --arch
        // sm_90 --out FILE`) to compare targets without rebuilding the host. Read once per
        // process: every engine shares the kernels (`LOADED`).
        let (module, code) = match std::env::var_os("SSSP_PTX") {
            Some(p) => {
                let text = std::fs::read_to_string(&p).map_err(|e| Error::io(&p, e))?;
                (ctx.load_module(Ptx::from_src(text))?, "PTX from SSSP_PTX".into())
            }
            None => load_module(ctx, FATBIN, PTX)?,
        };
        let f = |name: &str| module.load_function(name);
        let advance = f(k::Advance::ENTRY)?;
        let sms = ctx.attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)? as u32;
        // Fill the machine once: as many resident blocks of the advance kernel as fit, capped
        // so that a grid-stride pass over a tiny frontier does not launch idle blocks by the
        // thousand.
        let per_sm = advance.occupancy_max_active_blocks_per_multiprocessor(BLOCK, 0, None)?.clamp(1, 8);
        let pile_loop = f(k::PileLoop::ENTRY)?;
        let multisplit = f(k::Multisplit::ENTRY)?;
        // Both grid-barrier kernels run on the same grid: as many blocks as both can keep
        // resident at once (a block that never gets an SM would deadlock the barrier).
        let loop_per_sm = resident_both(&pile_loop, &multisplit)?;
        if loop_per_sm == 0 {
            return Err(Error::Cuda("the loop kernel cannot be resident on this device".into()));
        }
        let lean = f(k::PileLoopLean::ENTRY)?;
        let lean_per_sm = resident_both(&lean, &multisplit)?;
        if lean_per_sm == 0 {
            return Err(Error::Cuda("the lean loop kernel cannot be resident on this device".into()));
        }
        let lean_grid = loop_grid_cap(sms * lean_per_sm.min(loop_blocks_per_sm(PLAIN_LOOP_BLOCKS_PER_SM)));
        let pile_loop_lean = (std::env::var_os("SSSP_LEAN_LOOP").is_none_or(|v| v != "0")).then_some((lean, lean_grid));
        let pile_loop_wide = f(k::PileLoopWide::ENTRY)?;
        let wide_per_sm = pile_loop_wide.occupancy_max_active_blocks_per_multiprocessor(BLOCK, 0, None)?;
        if wide_per_sm == 0 {
            return Err(Error::Cuda("the wide loop kernel cannot be resident on this device".into()));
        }
        let pile_loop_dense = f(k::PileLoopDense::ENTRY)?;
        let dense_per_sm = pile_loop_dense.occupancy_max_active_blocks_per_multiprocessor(BLOCK, 0, None)?;
        if dense_per_sm == 0 {
            return Err(Error::Cuda("the dense loop kernel cannot be resident on this device".into()));
        }
        // Bounded to `PARTITION_BLOCKS_PER_SM` blocks of 256 threads, it runs that many per SM
        // (fewer only if a device kept fewer of it resident).
        let pile_loop_partition = f(k::PileLoopPartition::ENTRY)?;
        let partition_per_sm = resident_both(&pile_loop_partition, &multisplit)?;
        if partition_per_sm == 0 {
            return Err(Error::Cuda("the partition loop kernel cannot be resident on this device".into()));
        }
        let pile_loop_hubs = f(k::PileLoopHubs::ENTRY)?;
        let hubs_per_sm = pile_loop_hubs.occupancy_max_active_blocks_per_multiprocessor(BLOCK, 0, None)?;
        if hubs_per_sm == 0 {
            return Err(Error::Cuda("the hubs loop kernel cannot be resident on this device".into()));
        }
        let settle_loop = f(k::SettleLoop::ENTRY)?;
        let settle_per_sm = settle_loop.occupancy_max_active_blocks_per_multiprocessor(BLOCK, 0, None)?;
        if settle_per_sm == 0 {
            return Err(Error::Cuda("the settle loop kernel cannot be resident on this device".into()));
        }
        Ok(Kernels {
            settle_prepare: f(k::SettlePrepare::ENTRY)?,
            // The same trade-off as the pile loop: every block arrives at each grid barrier.
            settle_grid: sms * settle_per_sm.min(loop_blocks_per_sm(LOOP_BLOCKS_PER_SM)),
            settle_loop,
            init: f(k::Init::ENTRY)?,
            seed: f(k::Seed::ENTRY)?,
            extract: f(k::Extract::ENTRY)?,
            dedupe_mark: f(k::DedupeMark::ENTRY)?,
            scan_reduce: f(k::ScanReduce::ENTRY)?,
            scan_block_sums: f(k::ScanBlockSums::ENTRY)?,
            scan_write: f(k::ScanWrite::ENTRY)?,
            advance,
            grid: sms * per_sm,
            loop_grid: loop_grid_cap(sms * loop_per_sm.min(loop_blocks_per_sm(PLAIN_LOOP_BLOCKS_PER_SM))),
            // Never more than can be resident (the grid barrier); block_vals and hist are sized
            // for the larger of the two loop grids.
            wide_grid: loop_grid_cap(sms * wide_per_sm.min(WIDE_BLOCKS_PER_SM)),
            dense_grid: loop_grid_cap(sms * dense_per_sm.min(loop_blocks_per_sm(DENSE_BLOCKS_PER_SM))),
            partition_grid: loop_grid_cap(sms * partition_per_sm.min(loop_blocks_per_sm(PARTITION_BLOCKS_PER_SM))),
            pile_loop,
            pile_loop_lean,
            pile_loop_wide,
            pile_loop_dense,
            pile_loop_partition,
            pile_block: f(k::PileBlock::ENTRY)?,
            // Its launch bounds make 2 per SM fit.
            hubs_grid: loop_grid_cap(sms * hubs_per_sm.min(loop_blocks_per_sm(LOOP_BLOCKS_PER_SM))),
            pile_loop_hubs,
            classify: f(k::Classify::ENTRY)?,
            relax_sinks: f(k::RelaxSinks::ENTRY)?,
            twins: None,
            sms,
            advance_tiles: f(k::AdvanceTiles::ENTRY)?,
            multisplit,
            debug_sync: std::env::var_os("SSSP_DEBUG_SYNC").is_some(),
            module,
            code,
        })
    }

    /// Load the classified twins' module (once), for the first run that classifies. Each loop
    /// twin runs on its plain loop's grid, or fewer blocks if fewer of it stay resident.
    fn load_twins(&mut self, dev: &CudaDevice) -> Result<()> {
        if self.twins.is_some() {
            return Ok(());
        }
        let module = dev.module(Module::Twins)?;
        let f = |name: &str| module.load_function(name);
        let (pile_loop, pile_loop_wide, pile_loop_partition, pile_loop_hubs, settle_loop) = (
            f(k::PileLoopClassified::ENTRY)?,
            f(k::PileLoopWideClassified::ENTRY)?,
            f(k::PileLoopPartitionClassified::ENTRY)?,
            f(k::PileLoopHubsClassified::ENTRY)?,
            f(k::SettleLoopClassified::ENTRY)?,
        );
        let pile_loop_dense = f(k::PileLoopDenseClassified::ENTRY)?;
        let grid = |k: &CudaFunction, plain: u32| -> Result<u32> {
            let per_sm = k.occupancy_max_active_blocks_per_multiprocessor(BLOCK, 0, None)?;
            if per_sm == 0 {
                return Err(Error::Cuda("a classified loop kernel cannot be resident on this device".into()));
            }
            Ok(plain.min(self.sms * per_sm))
        };
        self.twins = Some(Twins {
            loop_grid: grid(&pile_loop, self.loop_grid)?,
            wide_grid: grid(&pile_loop_wide, self.wide_grid)?,
            dense_grid: grid(&pile_loop_dense, self.dense_grid)?,
            partition_grid: grid(&pile_loop_partition, self.partition_grid)?,
            hubs_grid: grid(&pile_loop_hubs, self.hubs_grid)?,
            settle_grid: grid(&settle_loop, self.settle_grid)?,
            advance: f(k::AdvanceClassified::ENTRY)?,
            advance_tiles: f(k::AdvanceTilesClassified::ENTRY)?,
            pile_loop,
            pile_loop_wide,
            pile_loop_dense,
            pile_loop_partition,
            pile_loop_hubs,
            settle_loop,
            _module: module,
        });
        Ok(())
    }

    /// The twins, loaded by `CudaEngine::prepare_classes` before any classified launch.
    fn twins(&self) -> Result<&Twins> {
        self.twins.as_ref().ok_or_else(|| Error::Cuda("a classified launch before the twins were loaded".into()))
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
    /// `a.sources` holds `a.count` distinct ids below the distance array's length, and the
    /// frontier has room for them.
    unsafe fn seed(&self, s: &CudaStream, a: SeedArgs) -> Result<()> {
        s.launch_builder(&self.seed).arg(&a).launch(Self::cfg(self.grid))?;
        self.done(s, "seed")
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
    /// `classified`: the run relaxes through the edge classes tagged into `a.csr.targets` (the
    /// `_classified` twins run).
    unsafe fn advance(&self, s: &CudaStream, a: AdvanceArgs, classified: bool) -> Result<()> {
        let f = match (Balance::is_tiled(a.balance), classified) {
            (true, false) => &self.advance_tiles,
            (false, false) => &self.advance,
            (true, true) => &self.twins()?.advance_tiles,
            (false, true) => &self.twins()?.advance,
        };
        s.launch_builder(f).arg(&a).launch(Self::cfg(self.grid))?;
        self.done(s, "advance")
    }

    /// # Safety
    /// As [`Kernels::advance`] for the template, plus: both near queues, both far buffers and
    /// every slot queue hold `n` items, the scratch queue `m`, `a.cells` has `NUM_CELLS` cells
    /// with the barrier at rest (count 0) and a state the control functions produced (init's
    /// zeroes included), `a.block_vals` and `a.hist` have `loop_grid` and `MAX_BINS * loop_grid`
    /// entries.
    unsafe fn pile_loop(&self, s: &CudaStream, a: PileArgs, geometry: Geometry, classified: bool) -> Result<()> {
        // Runs with a hub path or a tiled mode take the loop that has them; the others the
        // plain loops, which compile without (docs/gpu.md, "Traversal modes and hubs").
        let hubs = !a.adv.hub.items.is_null() || Balance::is_tiled(a.adv.balance);
        let (f, grid) = match (classified, hubs, geometry) {
            (false, true, _) => (&self.pile_loop_hubs, self.hubs_grid),
            (false, false, Geometry::Wide) => (&self.pile_loop_wide, self.wide_grid),
            (false, false, Geometry::Dense) => (&self.pile_loop_dense, self.dense_grid),
            (false, false, Geometry::Partition) => (&self.pile_loop_partition, self.partition_grid),
            // The common run takes the loop built for it (`PileArgs::is_lean`).
            (false, false, Geometry::Plain) => match &self.pile_loop_lean {
                Some((lean, grid)) if a.is_lean() => (lean, *grid),
                _ => (&self.pile_loop, self.loop_grid),
            },
            (true, true, _) => (&self.twins()?.pile_loop_hubs, self.twins()?.hubs_grid),
            (true, false, Geometry::Wide) => (&self.twins()?.pile_loop_wide, self.twins()?.wide_grid),
            (true, false, Geometry::Dense) => (&self.twins()?.pile_loop_dense, self.twins()?.dense_grid),
            (true, false, Geometry::Partition) => (&self.twins()?.pile_loop_partition, self.twins()?.partition_grid),
            (true, false, Geometry::Plain) => (&self.twins()?.pile_loop, self.twins()?.loop_grid),
        };
        s.launch_builder(f).arg(&a).launch(Self::cfg(grid))?;
        self.done(s, "pile_loop")
    }

    /// The block loop: one block of `BLOCK_LOOP_THREADS`.
    ///
    /// # Safety
    /// As [`Kernels::pile_loop`] (the block loop reads the same state and queues; it needs no
    /// barrier cells, block values or histograms).
    unsafe fn pile_block(&self, s: &CudaStream, a: PileArgs) -> Result<()> {
        let cfg = LaunchConfig {
            grid_dim: (1, 1, 1),
            block_dim: (sssp_kernels::BLOCK_LOOP_THREADS, 1, 1),
            shared_mem_bytes: 0,
        };
        s.launch_builder(&self.pile_block).arg(&a).launch(cfg)?;
        self.done(s, "pile_block")
    }

    /// The classification passes: phase 0 (in-degrees), 1 (classified targets, count of arcs
    /// into sinks) or 2 (their list).
    ///
    /// # Safety
    /// As `ClassifyArgs` documents: `indeg` n entries (zeroed before phase 0), `tagged` m,
    /// `count` two cells (zeroed before phases 1 and 2), the lists room for the count.
    unsafe fn classify(&self, s: &CudaStream, a: ClassifyArgs, phase: u32) -> Result<()> {
        s.launch_builder(&self.classify).arg(&a).arg(&phase).launch(Self::cfg(self.grid))?;
        self.done(s, "classify")
    }

    /// # Safety
    /// `a`'s lists hold `a.count` arcs of the resident graph; `a.dist` is the run's.
    unsafe fn relax_sinks(&self, s: &CudaStream, a: SinkArgs) -> Result<()> {
        s.launch_builder(&self.relax_sinks).arg(&a).launch(Self::cfg(self.grid))?;
        self.done(s, "relax_sinks")
    }

    /// # Safety
    /// `a.csr` is the resident graph; `a.min_out` and `a.min_in` have `n` entries.
    unsafe fn settle_prepare(&self, s: &CudaStream, a: SettleArgs) -> Result<()> {
        for phase in 0u32..2 {
            s.launch_builder(&self.settle_prepare).arg(&a).arg(&phase).launch(Self::cfg(self.grid))?;
            self.done(s, "settle_prepare")?;
        }
        Ok(())
    }

    /// # Safety
    /// Every buffer of `a` is sized as `SettleArgs` documents (`mins`: two per `settle_grid`
    /// block, the reverse graph present when `a.pull` is set), the distances were reset by
    /// the init kernel, and the cells' barrier is at rest (count 0).
    /// `classified`: the run relaxes through the edge classes tagged into `a.csr.targets`.
    unsafe fn settle_loop(&self, s: &CudaStream, a: SettleArgs, classified: bool) -> Result<()> {
        let (f, grid) = if classified {
            (&self.twins()?.settle_loop, self.twins()?.settle_grid)
        } else {
            (&self.settle_loop, self.settle_grid)
        };
        s.launch_builder(f).arg(&a).launch(Self::cfg(grid))?;
        self.done(s, "settle_loop")
    }

    /// # Safety
    /// `items`, `keys` have `len` entries, `out` `nbins * stride` with `stride >= len`,
    /// `out_lens` `nbins`; `cells` and `hist` as for [`Kernels::pile_loop`].
    unsafe fn multisplit(&self, s: &CudaStream, a: MultisplitArgs) -> Result<()> {
        s.launch_builder(&self.multisplit).arg(&a).launch(Self::cfg(self.loop_grid))?;
        self.done(s, "multisplit")
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

/// A device buffer the engine allocated itself, counted on its device's meter.
type Slice<T> = Counted<CudaSlice<T>>;

/// `s`, counted on `meter` as `scale`.
fn counted<T>(s: CudaSlice<T>, scale: Scale, meter: &Meter) -> Slice<T> {
    let bytes = crate::mem::bytes_of::<T>(s.len());
    Counted::new(s, bytes, scale, meter)
}

/// A graph resident on CUDA device 0.
pub struct CudaEngine {
    name: String,
    stream: Arc<CudaStream>,
    k: Kernels,
    n: u32,
    _kernel_only: KernelOnly,
    table: Slice<u32>,
    block_sums: Slice<u64>,
    /// Slot queues and far buffers, allocated on the first bucketed run.
    buckets: Option<(Slice<u32>, [Slice<u32>; 2])>,
    /// The device: its stream, kernels by type, and the memory the engine may still take
    /// (after the graph and working buffers).
    dev: CudaDevice,
    /// The length cells, `CELLS` words from `cells_at` (see [`CELLS_PAGE_OFFSET`]).
    cells: Slice<u32>,
    cells_at: usize,
    /// A `Counters` as four u64 words.
    counters: Slice<u64>,
    fr: Frontiers,
    pending_scratch: bool,
    /// Page-locked host buffer for downloads, allocated on first use and kept.
    pinned: Option<PinnedHostSlice<u32>>,
    /// Page-locked staging for uploads (the graph, the multisplit operator's inputs), kept.
    staging: Staging,
    /// Time the graph's copy to the device took (staging included, context set-up not).
    upload: std::time::Duration,
    /// The settle loop's buffers, allocated (and prepared) on its first run.
    settle: Option<CudaSettle>,
    /// Device addresses of the buffers above (they never move).
    lay: Layout,
    /// Problem objects of other features, kept for the engine's life.
    extras: super::Extras,
    /// The edge classes (the list of arcs into sinks: tails, arcs; the classes themselves are
    /// tagged into the targets), computed on the first
    /// classified run; `Some` once tried (`None` inside when the graph is not classified).
    classes: Option<Option<ClassBufs>>,
    /// The cutoff of a classified run whose deferred arcs are still to be relaxed.
    deferred: Option<u32>,
}

/// The edge classes' buffers: sink tails, sink arc indices (the classes are tagged into the
/// targets; only kernels read them, through the layout).
type ClassBufs = (Slice<u32>, Slice<u64>);

/// The settle loop's device buffers (see `engine::settle`).
struct CudaSettle {
    lay: SettleLayout,
    /// min_out, min_in, frontier, two candidate lists: only kernels touch them.
    _bufs: [Slice<u32>; 5],
    cells: Slice<u32>,
    _mins: Slice<u64>,
    /// The reverse graph (offsets, tails, weights), uploaded on the first pull run.
    rev: Option<(Slice<u64>, Slice<u32>, Slice<u32>)>,
}

/// Device buffers only kernels touch (through the engine's [`Layout`]); owned here so they live
/// as long as the engine.
struct KernelOnly {
    _offsets: Slice<u64>,
    _targets: Slice<u32>,
    _weights: Slice<u32>,
    _dist: Slice<u64>,
    _queues: [Slice<u32>; 2],
    /// The lookup scratch queue, the hub queue and the degree prefix, each allocated by the
    /// first run that needs it (`super::RunBuffers`).
    _prefix: Option<Slice<u64>>,
    _push_prefix: Option<Slice<u64>>,
    _scratch: Option<Slice<u32>>,
    _hub: Option<Slice<u32>>,
    _block_vals: Slice<u64>,
    _hist: Slice<u32>,
}

/// Where the loops' length cells sit: at byte 0x200 of a 4 KiB page, never at its start; their
/// allocation has a page more than they need (4 KiB, once per engine). Measured on the H100
/// (2026-11-27, `docs/results/h100-2026-11-27-memory/README.md`): with the cells at each of 14
/// places, the seven 4 KiB-aligned ones ran NY in 8.6-8.8 ms and the seven others (page offsets
/// 0x200, 0x400, 0x600) in 7.8-8.2, on every round. The allocator hands a small buffer out
/// 4 KiB-aligned whenever the one before it ends on a page boundary, so which a graph got
/// depended on the sizes of the buffers allocated before (the 2 MB degree prefix moved NY's
/// from one to the other). The cells take every iteration's barrier, length reads and pushes;
/// why an aligned line serves them slower (the L2's address hash, which the first lines of
/// many allocations share) is not measured.
const CELLS_PAGE_OFFSET: u64 = 0x200;

/// The index of the first cell in an allocation at `addr` of `CELLS + 1024` words
/// ([`CELLS_PAGE_OFFSET`]).
fn cells_at(addr: u64) -> usize {
    ((CELLS_PAGE_OFFSET + 0x1000 - addr % 0x1000) % 0x1000 / 4) as usize
}

/// The process's CUDA context and kernels module, made by the first engine (or [`warm_up`]) and
/// shared by every later one: the driver keeps one primary context per device anyway, and
/// loading the module costs tens of milliseconds even from the driver's JIT cache (seconds
/// without it). Kept until the process ends. Failures are not kept: the next engine tries again.
static LOADED: Mutex<Option<(Arc<CudaContext>, Kernels)>> = Mutex::new(None);

/// The shared context and kernels, made on first use (see [`LOADED`]).
fn loaded() -> Result<(Arc<CudaContext>, Kernels)> {
    // A poisoned lock only means a thread panicked while loading: the slot is still valid.
    let mut slot = LOADED.lock().unwrap_or_else(|p| p.into_inner());
    if let Some((ctx, k)) = slot.as_ref() {
        return Ok((ctx.clone(), k.clone()));
    }
    let ctx = open_context()?;
    // One stream per engine, and ordering between launches is the stream's: per-buffer event
    // tracking would record events on every launch for nothing.
    // SAFETY: every engine uses a single stream for every operation.
    unsafe { ctx.disable_event_tracking() };
    let k = Kernels::load(&ctx)?;
    *slot = Some((ctx.clone(), k.clone()));
    Ok((ctx, k))
}

/// `Ok` when a GPU is usable: the shared context and kernels are (or can now be) made. Waits
/// for a [`warm_up`] under way rather than starting a second one.
pub(crate) fn usable() -> Result<()> {
    loaded().map(|_| ())
}

/// Make the CUDA context and load the kernels on a background thread, so that a caller with
/// other work first (reading or generating a graph) has them ready when its engine opens:
/// 0.2-0.3 s of a first engine's opening on the H100 machine. Does nothing without a usable
/// GPU (the engine then reports why); never blocks.
pub fn warm_up() {
    std::thread::spawn(|| {
        let _ = loaded();
    });
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
        Self::with_lanes(g, limit, 1)
    }

    /// [`CudaEngine::new`] with an explicit cap on the bytes it may use.
    pub fn with_memory_limit(g: &Graph, limit: Option<u64>) -> Result<Self> {
        Self::with_lanes(g, limit, 1)
    }

    /// [`CudaEngine::with_memory_limit`] for `lanes` solves side by side (see
    /// `lanes`): the graph once, the run's buffers `lanes` times (fit-checked).
    pub fn with_lanes(g: &Graph, limit: Option<u64>, lanes: u32) -> Result<Self> {
        let lane_bits = super::lane_bits(g, lanes)?;
        let weights = g.engine_weights();
        let (ctx, k) = loaded()?;
        let name = format!("{} (CUDA, {})", ctx.name()?, k.code);
        // The graph's sizes, and those of the runs (every lane has its own ids and arcs).
        let (gn, gm) = (g.num_vertices() as u64, g.num_arcs() as u64);
        let n = gn << lane_bits;
        let needed = graph_bytes(gn, gm) + working_bytes(n, SCAN_BLOCKS as u64);
        let (free, _total) = ctx.mem_get_info()?;
        let available = limit.map_or(free as u64, |l| l.min(free as u64));
        if needed + MARGIN > available {
            return Err(Error::OutOfDeviceMemory { device: name, needed: needed + MARGIN, available });
        }
        let spare = available - needed - MARGIN;
        let stream = ctx.default_stream();
        let nz = (n as usize).max(1);
        // Every buffer the engine makes is counted on its device's meter, the graph's included.
        let meter = Meter::default();
        let (a, v) = (Scale::Arcs, Scale::Vertices);
        let zeros = |len: usize, scale| -> Result<Slice<u32>> { Ok(counted(stream.alloc_zeros(len)?, scale, &meter)) };
        let zeros64 = |len: usize| -> Result<Slice<u64>> { Ok(counted(stream.alloc_zeros(len)?, v, &meter)) };
        let copy_started = std::time::Instant::now();
        let mut staging = Staging::new(&ctx)?;
        let (offsets, targets, weights) = (
            counted(staging.upload(&stream, g.offsets())?, v, &meter),
            counted(staging.upload(&stream, g.targets())?, a, &meter),
            counted(staging.upload(&stream, weights)?, a, &meter),
        );
        stream.synchronize()?;
        let upload = copy_started.elapsed();
        let (dist, queues) = (zeros64(nz)?, [zeros(nz, v)?, zeros(nz, v)?]);
        let table = zeros(nz, v)?;
        let (cells, counters) = (zeros(CELLS + 1024, v)?, zeros64(4)?);
        let cells_at = cells_at(device_addr(&cells, &stream));
        let lean_grid = k.pile_loop_lean.as_ref().map_or(0, |l| l.1);
        let most = k.loop_grid.max(k.wide_grid).max(k.dense_grid).max(k.partition_grid).max(k.hubs_grid).max(lean_grid)
            as usize;
        let block_vals = zeros64(most)?;
        let hist = zeros(MAX_BINS as usize * most, v)?;
        let block_sums = zeros64(SCAN_BLOCKS as usize)?;
        let kernel_only = KernelOnly {
            _offsets: offsets,
            _targets: targets,
            _weights: weights,
            _dist: dist,
            _queues: queues,
            _prefix: None,
            _push_prefix: None,
            _scratch: None,
            _hub: None,
            _block_vals: block_vals,
            _hist: hist,
        };
        let bufs = (&kernel_only, &table, &cells, &counters);
        let lay = Self::first_layout(g, &stream, lane_bits, bufs, cells_at);
        let engine = CudaEngine {
            _kernel_only: kernel_only,
            table,
            buckets: None,
            dev: CudaDevice::new(name.clone(), stream.clone(), k.module(), k.grid, spare, meter.clone())?,
            block_sums,
            cells,
            cells_at,
            counters,
            n: n as u32,
            name,
            k,
            stream,
            fr: Frontiers::default(),
            pending_scratch: false,
            pinned: None,
            staging,
            upload,
            settle: None,
            lay,
            extras: super::Extras::default(),
            classes: None,
            deferred: None,
        };
        engine.stream.synchronize()?;
        Ok(engine)
    }

    /// The kernels' view of a new engine's buffers: the graph, the distances, the queues and
    /// the loop cells; the buffers of later runs (scratch, prefixes, hubs, buckets) unset.
    fn first_layout(
        g: &Graph,
        stream: &CudaStream,
        lane_bits: u32,
        (b, table, cells, counters): (&KernelOnly, &Slice<u32>, &Slice<u32>, &Slice<u64>),
        cells_at: usize,
    ) -> Layout {
        let at = |a: u64| a as *mut u32;
        let gn = g.num_vertices() as u64;
        Layout {
            csr: Csr {
                offsets: device_addr(&b._offsets, stream) as *const u64,
                targets: device_addr(&b._targets, stream) as *const u32,
                weights: device_addr(&b._weights, stream) as *const u32,
                n: (gn << lane_bits) as u32,
                lane_bits: lane_bits as u16,
                metric: g.metric().code(),
                head_mask: Csr::head_mask(gn),
                _pad: 0,
            },
            dist: device_addr(&b._dist, stream) as *mut u64,
            queues: [at(device_addr(&b._queues[0], stream)), at(device_addr(&b._queues[1], stream))],
            scratch: std::ptr::null_mut(),
            table: at(device_addr(table, stream)),
            prefix: std::ptr::null_mut(),
            prefix_len: 0,
            push_prefix: std::ptr::null_mut(),
            arcs: g.num_arcs() as u64,
            cells: at(device_addr(cells, stream)).wrapping_add(cells_at),
            // Four u64 words laid out as `Counters`.
            counters: device_addr(counters, stream) as *mut Counters,
            slots: std::ptr::null_mut(),
            slot_pool: 0,
            far: [std::ptr::null_mut(); 2],
            block_vals: device_addr(&b._block_vals, stream) as *mut u64,
            hist: at(device_addr(&b._hist, stream)),
            hub: std::ptr::null_mut(),
            hub_len: 0,
            degrees: *g.degree_tail(),
            max_degree: g.max_degree() as u64,
            classes: super::NO_CLASSES,
        }
    }

    /// Allocate what a run needs and has not been allocated yet (kept for later runs), within
    /// the memory the fit check left.
    fn ensure_run_buffers(&mut self, need: super::RunBuffers) -> Result<()> {
        let meter = self.dev.meter().clone();
        let s = self.stream.clone();
        if need.scratch {
            // Lookup dedupe pushes once per improvement: at most one push per arc per iteration.
            let m = ((self.lay.arcs as usize) << self.lay.csr.lane_bits).max(1);
            self.dev.reserve(4 * m as u64)?;
            let b = counted(s.alloc_zeros::<u32>(m)?, Scale::Arcs, &meter);
            self.lay.scratch = device_addr(&b, &s) as *mut u32;
            self._kernel_only._scratch = Some(b);
        }
        // A larger need replaces the buffer: the old one goes (its bytes back to the budget)
        // before the new one comes.
        if need.hub > 0 {
            self._kernel_only._hub = None;
            self.dev.release(4 * std::mem::take(&mut self.lay.hub_len));
            self.lay.hub = std::ptr::null_mut();
            self.dev.reserve(4 * need.hub)?;
            let b = counted(s.alloc_zeros::<u32>(need.hub as usize)?, Scale::Vertices, &meter);
            (self.lay.hub, self.lay.hub_len) = (device_addr(&b, &s) as *mut u32, need.hub);
            self._kernel_only._hub = Some(b);
        }
        if need.prefix > 0 {
            self._kernel_only._prefix = None;
            self.dev.release(8 * std::mem::take(&mut self.lay.prefix_len));
            self.lay.prefix = std::ptr::null_mut();
            self.dev.reserve(8 * need.prefix)?;
            let b = counted(s.alloc_zeros::<u64>(need.prefix as usize)?, Scale::Vertices, &meter);
            (self.lay.prefix, self.lay.prefix_len) = (device_addr(&b, &s) as *mut u64, need.prefix);
            self._kernel_only._prefix = Some(b);
        }
        // Only the partition loop builds prefixes by pushes (`Geometry::Partition`: the graphs
        // `Layout::prefix_by_pushes` admits).
        if need.push_prefix {
            let entries = self.n as u64 + 1;
            self.dev.reserve(8 * entries)?;
            let b = counted(s.alloc_zeros::<u64>(entries as usize)?, Scale::Vertices, &meter);
            self.lay.push_prefix = device_addr(&b, &s) as *mut u64;
            self._kernel_only._push_prefix = Some(b);
        }
        Ok(())
    }

    /// Allocate the slots' pool and the far buffers for a bucketed run (`count > 0`; the same
    /// for any bucket count, kept across runs), within the memory the fit check left.
    fn ensure_buckets(&mut self, count: u32) -> Result<()> {
        if count == 0 || self.lay.slot_pool != 0 {
            return Ok(());
        }
        let n = self.n as u64;
        self.dev.reserve(bucket_bytes(n))?;
        let nz = (n as usize).max(1);
        let pool = super::slot_pool(n) as usize;
        let meter = self.dev.meter();
        let zeros = |len: usize| -> Result<Slice<u32>> {
            Ok(counted(self.stream.alloc_zeros::<u32>(len)?, Scale::Vertices, meter))
        };
        let slots = zeros(pool)?;
        let far = [zeros(nz)?, zeros(nz)?];
        self.lay.slots = device_addr(&slots, &self.stream) as *mut u32;
        self.lay.far = [device_addr(&far[0], &self.stream) as *mut u32, device_addr(&far[1], &self.stream) as *mut u32];
        self.lay.slot_pool = pool as u32;
        self.buckets = Some((slots, far));
        Ok(())
    }

    /// Allocate the settle loop's buffers and run the precomputation on the device (once per
    /// engine), and upload the reverse graph when a pull run first needs it; both within the
    /// memory the fit check left.
    fn ensure_settle(&mut self, g: &Graph, pull: bool) -> Result<()> {
        let weights = g.engine_weights();
        let (n, m) = (self.n as u64, g.num_arcs() as u64);
        if self.settle.is_none() {
            let needed = st::settle_bytes(n, self.k.settle_grid as u64);
            self.dev.reserve(needed)?;
            let nz = (n as usize).max(1);
            let s = &self.stream;
            let meter = self.dev.meter();
            let zeros = |len: usize| -> Result<Slice<u32>> { Ok(counted(s.alloc_zeros(len)?, Scale::Vertices, meter)) };
            let bufs = [zeros(nz)?, zeros(nz)?, zeros(nz)?, zeros(nz)?, zeros(nz)?];
            let cells = zeros(super::CELLS)?;
            let mins = counted(s.alloc_zeros::<u64>(2 * self.k.settle_grid as usize)?, Scale::Vertices, meter);
            let at = |b: &CudaSlice<u32>| device_addr(b, s) as *mut u32;
            let lay = SettleLayout {
                min_out: at(&bufs[0]),
                min_in: at(&bufs[1]),
                frontier: at(&bufs[2]),
                cand: [at(&bufs[3]), at(&bufs[4])],
                cells: at(&cells),
                mins: device_addr(&mins, s) as *mut u64,
                rev: st::no_csr(self.n),
                min_weight: st::min_weight(weights),
            };
            let spec = SettleSpec {
                rule: sssp_kernels::Rule::Out,
                pull: false,
                balance: Balance::VirtualWarp,
                classify: false,
            };
            // SAFETY: min_out and min_in have max(n, 1) entries; the CSR is the resident one.
            unsafe { self.k.settle_prepare(&self.stream, lay.args(&self.lay, &spec, 0))? };
            self.settle = Some(CudaSettle { lay, _bufs: bufs, cells, _mins: mins, rev: None });
        }
        if pull && self.settle.as_ref().is_some_and(|cs| cs.rev.is_none()) {
            let needed = st::reverse_bytes(n, m);
            self.dev.reserve(needed)?;
            let cs = self.settle.as_mut().expect("allocated above");
            let (offsets, tails, ws) = st::reverse_csr(g, weights)?;
            let s = &self.stream;
            let meter = self.dev.meter();
            let rev = (
                counted(s.clone_htod(&offsets)?, Scale::Vertices, meter),
                counted(s.clone_htod(&tails)?, Scale::Arcs, meter),
                counted(s.clone_htod(&ws)?, Scale::Arcs, meter),
            );
            cs.lay.rev = Csr {
                offsets: device_addr(&rev.0, s) as *const u64,
                targets: device_addr(&rev.1, s) as *const u32,
                weights: device_addr(&rev.2, s) as *const u32,
                n: self.n,
                lane_bits: 0,
                metric: g.metric().code(),
                head_mask: u32::MAX,
                _pad: 0,
            };
            cs.rev = Some(rev);
        }
        Ok(())
    }

    /// Classify the graph's arcs on the device (once per engine, on the first run that asks),
    /// within the memory the fit check left; a graph that cannot be classified, or whose
    /// classes do not fit, stays unclassified (see `engine::Classes`).
    fn ensure_classes(&mut self) -> Result<()> {
        if self.classes.is_some() {
            return Ok(());
        }
        self.classes = Some(None);
        let bits = self.lay.csr.lane_bits;
        let (gn, m) = ((self.n >> bits) as u64, self.lay.arcs);
        let needed = 16;
        if !super::classifiable(gn, m) || needed > self.dev.spare() {
            return Ok(());
        }
        let s = self.stream.clone();
        let meter = self.dev.meter().clone();
        // The classes go into the spare high bits of the engine's own targets.
        let tagged = self.lay.csr.targets as *mut u32;
        // The in-degrees in the lookup table (n >= gn entries, free between runs), zeroed.
        s.memset_zeros(&mut *self.table)?;
        let indeg = self.lay.table;
        let mut cells = counted(s.alloc_zeros::<u64>(2)?, Scale::Vertices, &meter);
        self.lay.classes.tagged = tagged;
        let a = self.lay.classify_args(indeg, device_addr(&cells, &s) as *mut u64);
        // SAFETY: indeg n zeroed, tagged m, count two zeroed cells; phases in stream order.
        unsafe {
            self.k.classify(&s, a, 0)?;
            self.k.classify(&s, a, 1)?;
        }
        let [sinks, skips]: [u64; 2] = s.clone_dtoh(&*cells)?.try_into().expect("two cells");
        let lists = 12 * sinks;
        // A list that does not fit leaves the graph unclassified (its targets tagged, which
        // the plain kernels mask).
        if lists > self.dev.spare() {
            self.lay.classes = super::NO_CLASSES;
            return Ok(());
        }
        let tails = counted(s.alloc_zeros::<u32>(sinks.max(1) as usize)?, Scale::Arcs, &meter);
        let arcs = counted(s.alloc_zeros::<u64>(sinks.max(1) as usize)?, Scale::Arcs, &meter);
        self.lay.classes.sink_tail = device_addr(&tails, &s) as *mut u32;
        self.lay.classes.sink_arc = device_addr(&arcs, &s) as *mut u64;
        self.lay.classes.sinks = sinks;
        self.lay.classes.skips = skips;
        self.lay.classes.arcs = m;
        s.memset_zeros(&mut *cells)?;
        let a = self.lay.classify_args(indeg, device_addr(&cells, &s) as *mut u64);
        // SAFETY: the lists have room for the `sinks` arcs phase 1 counted; count zeroed.
        unsafe { self.k.classify(&s, a, 2)? };
        // `cells` is freed when it drops: wait for the pass that reads it.
        s.synchronize()?;
        self.dev.reserve(lists)?;
        self.classes = Some(Some((tails, arcs)));
        Ok(())
    }

    /// Before a run's advances: classify when asked (first time), and note the deferred pass.
    fn prepare_classes(&mut self, classify: bool, cutoff: u32) -> Result<()> {
        if classify {
            self.ensure_classes()?;
            if !self.lay.classes.tagged.is_null() {
                self.k.load_twins(&self.dev)?;
            }
        }
        self.deferred = self.deferred.or(self.lay.deferred(classify, cutoff));
        Ok(())
    }

    fn scan_args(&self, input: Queue, of: ScanOf, output: Queue) -> ScanArgs {
        ScanArgs {
            input,
            offsets: self.lay.csr.offsets,
            table: self.lay.table,
            block_sums: device_addr(&self.block_sums, &self.stream) as *mut u64,
            prefix: self.lay.prefix,
            output,
            of: of as u32,
            lane_bits: self.lay.csr.lane_bits as u32,
        }
    }
}

/// A host slice, or one zero when empty (device buffers are never empty).
fn pad(x: &[u32]) -> Vec<u32> {
    if x.is_empty() {
        vec![0]
    } else {
        x.to_vec()
    }
}

/// The device address of a buffer. Event tracking is off, so the guard cudarc returns with it
/// records nothing.
fn device_addr<T>(s: &CudaSlice<T>, stream: &CudaStream) -> u64 {
    s.device_ptr(stream).0
}

impl Engine for CudaEngine {
    fn device(&self) -> &dyn Device {
        &self.dev
    }

    fn resident(&self) -> Resident {
        self.lay.resident(self.upload)
    }

    fn init(&mut self, seeds: &[u32]) -> Result<()> {
        super::Steps::init_run(self, seeds)
    }

    fn advance(&mut self, step: Advance) -> Result<()> {
        super::Steps::advance_run(self, step)
    }

    fn run_loop(&mut self, spec: &LoopSpec, max_iters: u32) -> Result<LoopStatus> {
        let nb = spec.buckets.map_or(0, |b| b.count);
        self.ensure_buckets(nb)?;
        self.ensure_run_buffers(self.lay.run_buffers(Input::Frontier, spec.dedupe, spec.balance, spec.hub))?;
        self.prepare_classes(spec.classify, spec.cutoff)?;
        let a = self.lay.pile_args(spec, max_iters);
        let classified = self.lay.classifies(spec.classify);
        // SAFETY: buffers as `Kernels::pile_loop` requires: queues and far buffers n, slots
        // nb x n (ensure_buckets), scratch m, cells CELLS (init zeroed them: the start state and
        // a barrier at rest), block_vals and hist sized by loop_grid at construction.
        // Partition balance is the throughput mode (scale-free graphs, big frontiers): on big
        // graphs the wide loop's extra resident threads beat its costlier barrier
        // (`NARROW_PARTITION_ARCS`, docs/gpu.md).
        if spec.block {
            // SAFETY: as below; `block_loop_fits` ruled out what the block loop does not do.
            super::block_loop_fits(spec, self.lay.lanes(), classified)?;
            unsafe { self.k.pile_block(&self.stream, a)? };
        } else {
            let geometry = match spec.balance {
                Balance::Partition if !self.lay.partition_loop() => Geometry::Wide,
                Balance::Partition => Geometry::Partition,
                _ if self.lay.dense() => Geometry::Dense,
                _ => Geometry::Plain,
            };
            unsafe { self.k.pile_loop(&self.stream, a, geometry, classified)? };
        }
        let at = self.cells_at;
        let cells = self.stream.clone_dtoh(&self.cells.slice(at..at + CELLS))?;
        let status = LoopStatus::from_cells(&cells, nb);
        if status.state.done != 0 {
            self.relax_deferred()?;
        }
        Ok(status)
    }

    fn settle(&mut self, g: &Graph, spec: &SettleSpec, source: u32) -> Result<()> {
        super::one_lane(self.lay.lanes(), "a settling run")?;
        self.ensure_settle(g, spec.pull)?;
        self.ensure_run_buffers(self.lay.settle_buffers(spec.pull, spec.balance))?;
        self.prepare_classes(spec.classify && !spec.pull, sssp_kernels::NO_CUTOFF)?;
        let cs = self.settle.as_mut().expect("ensure_settle allocated it");
        // The cells start at rest: lengths, the barrier and the done flag zero.
        self.stream.memset_zeros(&mut *cs.cells)?;
        let a = cs.lay.args(&self.lay, spec, source);
        let classified = self.lay.classifies(spec.classify && !spec.pull);
        // SAFETY: buffers as `Kernels::settle_loop` requires (ensure_settle sized them, and
        // uploaded the reverse graph for a pull run); init reset the distances before this.
        unsafe { self.k.settle_loop(&self.stream, a, classified)? };
        let done = self.stream.clone_dtoh(&cs.cells.slice(SETTLE_CELL_DONE..SETTLE_CELL_DONE + 1))?;
        if done[0] == 0 {
            return Err(Error::Verification(format!(
                "settle loop still had candidates after {} steps: engine fault on {}",
                self.n, self.name
            )));
        }
        Ok(())
    }

    fn frontier_len(&mut self) -> Result<u32> {
        let i = self.fr.current_cell();
        let i = self.cells_at + i;
        let v = self.stream.clone_dtoh(&self.cells.slice(i..i + 1))?;
        Ok(v[0])
    }

    fn counters(&mut self) -> Result<Counters> {
        let w = self.stream.clone_dtoh(&*self.counters)?;
        Ok(Counters { arcs: w[0], vertices: w[1], busy: w[2], improved: w[3] as u32, overflow: (w[3] >> 32) as u32 })
    }

    fn distances(&mut self) -> Result<Vec<u32>> {
        // Unpack on the device into the lookup table (free once a run is over), then one copy
        // of 4n bytes into page-locked memory: pageable copies of the packed 8n bytes ran at
        // under 1 GB/s on the H100 machine.
        let a = ExtractArgs { dist: self.lay.dist, out: self.lay.table, n: self.n, _pad: 0 };
        // SAFETY: dist and table both have max(n, 1) entries.
        unsafe { self.k.extract(&self.stream, a)? };
        self.download_table()
    }

    fn classify(&mut self) -> Result<(Option<super::ClassCounts>, bool)> {
        let fresh = self.classes.is_none();
        self.ensure_classes()?;
        Ok((self.lay.class_counts(), fresh))
    }

    fn relax_deferred(&mut self) -> Result<()> {
        if let Some(cutoff) = self.deferred.take() {
            // SAFETY: the classes' lists hold `sinks` arcs of the resident graph (sized by
            // `ensure_classes`); dist has an entry per run vertex.
            unsafe { self.k.relax_sinks(&self.stream, self.lay.sink_args(cutoff))? };
        }
        Ok(())
    }

    fn extras(&mut self) -> &mut super::Extras {
        &mut self.extras
    }
}

impl CudaEngine {
    /// The stand-alone multisplit ([`super::multisplit`]).
    pub(crate) fn multisplit(&mut self, items: &[u32], keys: &[u32], nbins: u32) -> Result<Vec<Vec<u32>>> {
        super::check_multisplit(items, keys, nbins)?;
        let len = items.len();
        let stride = len.max(1);
        let meter = self.dev.meter().clone();
        let v = Scale::Vertices;
        let d_items = counted(self.staging.upload(&self.stream, &pad(items))?, v, &meter);
        let d_keys = counted(self.staging.upload(&self.stream, &pad(keys))?, v, &meter);
        let out = counted(self.stream.alloc_zeros::<u32>(stride * nbins as usize)?, v, &meter);
        let lens = counted(self.stream.alloc_zeros::<u32>(nbins as usize)?, v, &meter);
        let a = MultisplitArgs {
            items: device_addr(&d_items, &self.stream) as *const u32,
            keys: device_addr(&d_keys, &self.stream) as *const u32,
            len: len as u32,
            nbins,
            out: device_addr(&out, &self.stream) as *mut u32,
            out_lens: device_addr(&lens, &self.stream) as *mut u32,
            stride: stride as u32,
            _pad: 0,
            cells: self.lay.cells,
            hist: self.lay.hist,
        };
        // SAFETY: sizes as `Kernels::multisplit` requires; the barrier cells are at rest between
        // launches (every grid-barrier kernel leaves the count at 0).
        unsafe { self.k.multisplit(&self.stream, a)? };
        let (out, lens) = (self.stream.clone_dtoh(&*out)?, self.stream.clone_dtoh(&*lens)?);
        Ok((0..nbins as usize).map(|j| out[j * stride..j * stride + lens[j] as usize].to_vec()).collect())
    }
}

impl super::Steps for CudaEngine {
    fn lanes(&self) -> u32 {
        self.lay.lanes()
    }

    fn reset(&mut self, source: u32) -> Result<()> {
        self.stream.memset_zeros(&mut *self.cells)?;
        self.fr = Frontiers::default();
        self.pending_scratch = false;
        self.deferred = None;
        let a = self.lay.init_args(&self.fr, source);
        // SAFETY: dist has n entries, the queue n >= 1, counters 4 words.
        unsafe { self.k.init(&self.stream, a) }
    }

    fn seed(&mut self, sources: &[u32]) -> Result<()> {
        super::check_seeds(sources, self.n)?;
        self.reset(u32::MAX)?;
        let d = counted(self.staging.upload(&self.stream, sources)?, Scale::Vertices, self.dev.meter());
        let a = self.lay.seed_args(&self.fr, device_addr(&d, &self.stream) as *const u32, sources.len() as u32);
        // SAFETY: distinct ids below n (checked), so the frontier (n items) holds them; the
        // staged copy lives until the stream has run the launch (synchronised below, before
        // `d` is freed).
        unsafe { self.k.seed(&self.stream, a)? };
        self.stream.synchronize()?;
        Ok(())
    }

    fn relax_step(&mut self, step: Advance) -> Result<()> {
        let all = step.input == Input::AllVertices;
        if all {
            super::one_lane(self.lay.lanes(), "a topology-driven sweep")?;
        }
        self.ensure_run_buffers(self.lay.run_buffers(step.input, step.dedupe, step.balance, step.hub))?;
        if !all && step.balance == Balance::Partition {
            let sa = self.scan_args(self.lay.current(&self.fr), ScanOf::Degree, NO_QUEUE);
            // SAFETY: prefix has n + 1 >= len + 1 entries (allocated above); block_sums
            // SCAN_BLOCKS.
            unsafe { self.k.scan(&self.stream, sa)? };
        }
        self.prepare_classes(step.classify, step.cutoff)?;
        let roles = self.fr.roles(&step);
        self.pending_scratch = roles.uses_scratch();
        let a = self.lay.advance_args(&step, &roles);
        let classified = self.lay.classifies(step.classify);
        // SAFETY: as in the CPU engine: queues n, scratch m, prefix n + 1, cells CELLS, hub n.
        unsafe { self.k.advance(&self.stream, a, classified)? };
        if !a.hub.items.is_null() {
            // The hub pass, queued without reading the hub count back: the scan and the
            // partitioned advance read their lengths on the device (an empty queue costs four
            // short launches, and only graphs that have hubs get here).
            let sa = self.scan_args(a.hub, ScanOf::Degree, NO_QUEUE);
            // SAFETY: prefix has at least the hub queue's room + 1 entries (run_buffers), so
            // the hub count + 1; block_sums
            // SCAN_BLOCKS; the hub pass reads the prefix the scan wrote (same stream).
            unsafe {
                self.k.scan(&self.stream, sa)?;
                self.k.advance(&self.stream, sssp_kernels::advance::hub_pass(&a, self.lay.prefix), classified)?;
            }
        }
        Ok(())
    }

    fn dedupe(&mut self) -> Result<()> {
        let d = self.lay.dedupe_args(&self.fr);
        // SAFETY: table has n entries; every pushed vertex is < n; the next queue holds n items
        // and the winners are distinct vertices.
        unsafe {
            self.k.dedupe_mark(&self.stream, d)?;
            self.k.scan(&self.stream, self.scan_args(d.input, ScanOf::Winner, d.output))
        }
    }

    fn swap(&mut self) {
        self.fr.swap(std::mem::take(&mut self.pending_scratch));
    }

    fn clear_flags(&mut self) -> Result<()> {
        self.stream.memset_zeros(&mut self.counters.slice_mut(3..4))?;
        Ok(())
    }
}

impl CudaEngine {
    /// The first `n` entries of the lookup table (where results are staged), through the
    /// page-locked buffer.
    fn download_table(&mut self) -> Result<Vec<u32>> {
        let n = self.n as usize;
        if self.pinned.is_none() {
            // Plain page-locked memory (flags 0): cudarc's default is write-combined, which is
            // slow for the CPU to read back.
            // SAFETY: the slice is only read after the copy below has completed.
            let buf = unsafe { self.stream.context().alloc_pinned_with_flags::<u32>(self.table.len(), 0)? };
            self.pinned = Some(buf);
        }
        let pinned = self.pinned.as_mut().expect("allocated above");
        self.stream.memcpy_dtoh(&*self.table, pinned)?;
        self.stream.synchronize()?;
        crate::device::staging::parallel_copy_out(pinned, n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cells_sit_at_the_same_page_offset_inside_their_allocation() {
        for addr in (0..0x3000u64).step_by(0x80).map(|o| 0x3_0200_0000 + o) {
            let at = cells_at(addr);
            assert_eq!((addr + 4 * at as u64) % 0x1000, CELLS_PAGE_OFFSET, "{addr:#x}");
            assert!(at + CELLS <= CELLS + 1024, "{addr:#x}: inside the allocation");
        }
    }
}
