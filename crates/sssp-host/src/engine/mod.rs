//! Engines: one graph resident on one device, and the operators strategies are built from.
//!
//! Two backends implement [`Engine`]:
//! - [`cuda::CudaEngine`] loads the committed PTX (built from `sssp-kernels` by `cargo xtask ptx`)
//!   through `cudarc`'s dynamically loaded driver API, so the binary starts on machines without
//!   CUDA and a missing GPU is an error value;
//! - [`cpu::CpuEngine`] runs the *same* kernel bodies (the `sssp-kernels` crate linked as a
//!   library) across a rayon pool. Only the device-wide scan differs (see `sssp_kernels::ptx`).
//!
//! Data and control are separate (Gunrock's problem/enactor split): an engine owns the buffers
//! (graph, distances, frontiers, counters) and resets them per run with [`Engine::init`]; a
//! strategy owns the loop and the iteration count, and speaks only in operators.
//!
//! Frontier bookkeeping is shared by both backends through `Frontiers`: two vertex queues whose
//! lengths live in device memory, a scratch queue for lookup-table dedupe, and a ring of length
//! cells arranged so that an iteration never needs a separate memset (each advance zeroes the
//! cell the *next* advance will push into). The host reads a length only when it must decide
//! whether to stop, which is what lets a strategy queue many iterations without a round trip.

pub mod cpu;
pub mod cuda;
pub mod settle;

pub use settle::SettleSpec;
pub use sssp_kernels::{Balance, Counters, Dedupe, PileState, Rule};

use sssp_kernels::classify::{ClassifyArgs, SinkArgs};
use sssp_kernels::{AdvanceArgs, Buckets, Csr, DedupeArgs, InitArgs, PileArgs, Queue, SeedArgs, NO_BUCKETS};

use rayon::prelude::*;

use crate::device::Device;
use crate::error::{Error, Result};
use crate::graph::Graph;

/// Which device runs a strategy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeviceKind {
    /// The GPU when one is usable, else the CPU; the run reports which one ran.
    Auto,
    /// CUDA device 0; an error if none is usable (never a silent fallback).
    Gpu,
    /// The CPU backend (rayon).
    Cpu,
}

impl DeviceKind {
    /// `auto`, `gpu` (or `cuda`), `cpu`.
    pub fn parse(s: &str) -> Result<Self> {
        match s {
            "auto" => Ok(DeviceKind::Auto),
            "gpu" | "cuda" => Ok(DeviceKind::Gpu),
            "cpu" => Ok(DeviceKind::Cpu),
            _ => Err(Error::InvalidArgument(format!("device `{s}`: expected auto, gpu or cpu"))),
        }
    }
}

/// Where an advance takes its input vertices from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// The current frontier; improved heads are pushed onto the next frontier.
    Frontier,
    /// Every vertex (topology-driven sweep); nothing is pushed, improvements set a flag.
    AllVertices,
}

/// One advance (relax) step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Advance {
    /// Which vertices are expanded.
    pub input: Input,
    /// How their arcs are spread over threads.
    pub balance: Balance,
    /// How the next frontier is kept free of duplicates.
    pub dedupe: Dedupe,
    /// Iteration number, from 1; stamped into improved vertices.
    pub iter: u32,
    /// Candidates above this distance are dropped (`sssp_kernels::NO_CUTOFF`: none).
    pub cutoff: u32,
    /// Hub threshold: input vertices with at least this many out-arcs are expanded by a
    /// grid-wide partitioned pass instead of their thread, virtual warp or block
    /// (`sssp_kernels::HUB_DEGREE` by default; 0 = never; ignored by partition balance).
    pub hub: u32,
    /// Relax through H-BF's edge classes (`sssp_kernels::classify`), computed on the engine on
    /// first use; ignored where the graph cannot be classified (more than 2^30 vertices, no
    /// arcs, or no device memory left for the classes). A run that classifies must end with
    /// [`Engine::relax_deferred`].
    pub classify: bool,
}

/// Where an engine keeps the edge classes of its graph (`sssp_kernels::classify`), computed on
/// first use. The classes are tagged into the two spare high bits of the resident graph's own
/// targets (the heads of a graph of at most `sssp_kernels::MAX_CLASSIFIED` = 2^30 vertices
/// leave them free, and every kernel reads heads through `Csr::target`, which masks them), so
/// they cost no copy of the targets: only the list of arcs into sinks (12 bytes each). Graphs
/// with more vertices, or no arcs, are never classified, and neither is one whose sink list does
/// not fit in the device memory the engine has left: classification only saves work, so a run
/// asking for it then runs unclassified, with the same result.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Classes {
    /// The classified targets: the resident graph's targets, once tagged (null: not
    /// classified).
    pub tagged: *mut u32,
    /// Tail and index of each arc into a sink, `sinks` each.
    pub sink_tail: *mut u32,
    pub sink_arc: *mut u64,
    pub sinks: u64,
    /// Skipped self-loops.
    pub skips: u64,
    /// Arcs of the graph (one lane's).
    pub arcs: u64,
}

/// No classes (yet).
pub(crate) const NO_CLASSES: Classes = Classes {
    tagged: std::ptr::null_mut(),
    sink_tail: std::ptr::null_mut(),
    sink_arc: std::ptr::null_mut(),
    sinks: 0,
    skips: 0,
    arcs: 0,
};

/// What the edge classes of a graph hold ([`Engine::classify`]): the arcs a classified run
/// does not relax during its iterations.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClassCounts {
    /// Arcs of the graph.
    pub arcs: u64,
    /// Self-loops of weight >= 0 (never relaxed).
    pub skipped: u64,
    /// Arcs into sinks (relaxed once, at the end).
    pub deferred: u64,
}

/// Whether a graph of `n` vertices and `m` arcs can be classified.
pub(crate) fn classifiable(n: u64, m: u64) -> bool {
    n <= sssp_kernels::MAX_CLASSIFIED && m > 0
}

/// A graph resident on a device, with the operators strategies compose.
pub trait Engine {
    /// The device the engine runs on: memory, launches, synchronisation and its facts. Other
    /// features' problem objects allocate their buffers and launch their kernels there.
    fn device(&self) -> &dyn Device;

    /// What is resident for other features' kernels to read: the graph, the distances, the
    /// counters.
    fn resident(&self) -> Resident;

    /// Reset for a run from `seeds`, distinct vertex ids `< num_vertices()`: every distance
    /// unreached but theirs (0), the frontier holding them, counters zero. One id on an engine
    /// of one lane is a single-source run; several are the sources of one nearest-source
    /// solve (one lane) or one source per lane of a batch. Queued.
    fn init(&mut self, seeds: &[u32]) -> Result<()>;

    /// One iteration's relaxation (see [`Advance`]). From the frontier: relax its vertices'
    /// out-arcs, push the improved heads (deduplicated by `step.dedupe`: stamps as they are
    /// pushed, or Davidson's lookup table and a stable compaction after) and make them the
    /// current frontier. From every vertex (a topology-driven sweep): zero the `improved` and
    /// `overflow` flags, relax every reached vertex's out-arcs, and flag improvements. Queued.
    fn advance(&mut self, step: Advance) -> Result<()>;

    /// Run the iterations of a frontier strategy (Workfront, Near-Far, Bucketing: see
    /// [`LoopSpec`]) from the state the last call left (or [`Engine::init`]'s start state)
    /// without returning to the host in between, until the solve is done or `max_iters`
    /// iterations have run. Every balance and dedupe mode runs this way. The loop is
    /// `sssp_kernels::frontier::run`, written once: on the GPU one persistent launch with grid
    /// barriers between phases (`sssp_kernels::grid::pile_loop`) or one block
    /// (`block_loop::pile_block`), on the CPU a launch per phase. Synchronises, and returns
    /// where it stopped.
    fn run_loop(&mut self, spec: &LoopSpec, max_iters: u32) -> Result<LoopStatus>;

    /// Parallel Dijkstra (Crauser et al.; Martín et al.: `sssp_kernels::settle`) from `source`,
    /// after [`Engine::init`]: steps that relax the arcs of the vertices settled last and settle
    /// every candidate `spec.rule` proves final, until none is left. `g` is the graph the engine
    /// holds (the per-vertex weight minima are computed on the device from the resident copy;
    /// the pull variant's reverse graph is built from `g` on the host and uploaded on first
    /// use, fit-checked). On the GPU one persistent launch (`sssp_settle_loop`); the CPU engine
    /// runs the same phases in order. Synchronises; counters as `sssp_kernels::settle` says.
    fn settle(&mut self, g: &Graph, spec: &SettleSpec, source: u32) -> Result<()>;

    /// Length of the current frontier. Synchronises with the device.
    fn frontier_len(&mut self) -> Result<u32>;

    /// The run's counters. Synchronises with the device.
    fn counters(&mut self) -> Result<Counters>;

    /// The distances (`sssp_kernels::INF` for unreached). Synchronises.
    fn distances(&mut self) -> Result<Vec<u32>>;

    /// After a run whose advances classified ([`Advance::classify`], [`LoopSpec::classify`]):
    /// relax the arcs the classes deferred (those into sinks), once each, from the final
    /// distances (`sssp_kernels::classify::relax_sinks`), so the distances are complete. A
    /// no-op when nothing was deferred since the last [`Engine::init`]; [`Engine::run_loop`]
    /// calls it itself when the solve finishes. A new operator because no other one relaxes a
    /// fixed list of arcs. Queued.
    fn relax_deferred(&mut self) -> Result<()>;

    /// Compute the edge classes of the resident graph now, if not done yet (the first run that
    /// classifies does it otherwise, inside its own time): three passes over the arcs on the
    /// engine (`sssp_kernels::classify`). Returns what they found, or `None` for a graph that
    /// cannot be classified (see [`Advance::classify`]), and whether this call computed them (the first
    /// one does). Synchronises.
    fn classify(&mut self) -> Result<(Option<ClassCounts>, bool)>;

    /// Problem objects kept for the engine's lifetime (see [`Extras`]).
    fn extras(&mut self) -> &mut Extras;
}

/// The backend pieces that [`Engine::init`] and [`Engine::advance`] are sequenced from, the
/// same way for both backends ([`Steps::init_run`], [`Steps::advance_run`]).
pub(crate) trait Steps {
    /// Solves a run carries side by side.
    fn lanes(&self) -> u32;
    /// Reset for a run: distances unreached, the frontier `[source]` and `source` at 0
    /// (`u32::MAX`: no source, an empty frontier), counters and cells zero. Queued.
    fn reset(&mut self, source: u32) -> Result<()>;
    /// A reset with every one of `sources` at 0 and in the frontier.
    fn seed(&mut self, sources: &[u32]) -> Result<()>;
    /// One advance's relaxation (the launches), nothing after it.
    fn relax_step(&mut self, step: Advance) -> Result<()>;
    /// Lookup dedupe of the pushed queue into the next frontier (Davidson's table plus a
    /// stable compaction).
    fn dedupe(&mut self) -> Result<()>;
    /// Make the next frontier the current one (host-side bookkeeping only).
    fn swap(&mut self);
    /// Zero the `improved` and `overflow` flags (before a topology-driven sweep).
    fn clear_flags(&mut self) -> Result<()>;

    /// [`Engine::init`]: one source on one lane is a reset, anything else a seeding.
    fn init_run(&mut self, seeds: &[u32]) -> Result<()> {
        match seeds {
            [one] if self.lanes() == 1 => self.reset(*one),
            _ => self.seed(seeds),
        }
    }

    /// [`Engine::advance`]: flags cleared before a topology-driven sweep; after a frontier
    /// step, its pushes deduplicated (lookup) and made the current frontier.
    fn advance_run(&mut self, step: Advance) -> Result<()> {
        if step.input == Input::AllVertices {
            self.clear_flags()?;
        }
        self.relax_step(step)?;
        if step.input == Input::Frontier {
            if step.dedupe == Dedupe::Lookup {
                self.dedupe()?;
            }
            self.swap();
        }
        Ok(())
    }
}

/// Problem objects an engine keeps for its lifetime without knowing their features, one per
/// type: a feature takes its object out, uses it with the engine, and puts it back (PHAST's
/// sweep graph stays on the device across queries this way). Dropped with the engine.
#[derive(Default)]
pub struct Extras(std::collections::HashMap<std::any::TypeId, Box<dyn std::any::Any + Send>>);

impl Extras {
    /// The object of type `T`, taken out (`None`: there is none).
    pub fn take<T: std::any::Any + Send>(&mut self) -> Option<T> {
        self.0.remove(&std::any::TypeId::of::<T>()).and_then(|b| b.downcast().ok()).map(|b| *b)
    }

    /// The object of type `T`, left in place.
    pub fn get<T: std::any::Any + Send>(&self) -> Option<&T> {
        self.0.get(&std::any::TypeId::of::<T>()).and_then(|b| b.downcast_ref())
    }

    /// Keep `x` (replacing an object of its type).
    pub fn put<T: std::any::Any + Send>(&mut self, x: T) {
        self.0.insert(std::any::TypeId::of::<T>(), Box::new(x));
    }
}

/// What an engine keeps resident that other features' kernels read (addresses on its device).
#[derive(Clone, Copy, Debug)]
pub struct Resident {
    /// The graph, as the kernels see it: `n` is the vertex ids of a run (the graph's vertices
    /// times the lanes), `lane_bits` the lanes.
    pub csr: Csr,
    /// The packed distances of a run, `csr.n` of them.
    pub dist: *mut u64,
    /// The run's counters.
    pub counters: *mut Counters,
    /// Three buffers of `csr.n` `u32` each that hold nothing between runs (the two frontier
    /// queues and the lookup table): a feature may use them until the engine's next run, so
    /// that it allocates nothing of its own (the certificate's traversal does: its level and two
    /// queues are the `12n` bytes it would otherwise add to a verified run's peak).
    pub spare: [*mut u32; 3],
    /// How long copying the graph in took when the engine opened (device set-up, such as
    /// creating a CUDA context and loading the kernels, not included).
    pub upload: std::time::Duration,
}

impl dyn Engine + '_ {
    /// Number of vertex ids of a run: the resident graph's vertices times `lanes`.
    pub fn num_vertices(&self) -> u32 {
        self.resident().csr.n
    }

    /// Solves one run carries side by side (batched sources, `sssp_kernels::Csr::lane_bits`):
    /// vertex `v` of lane `j` has id `v * lanes + j`. 1 for an engine opened with [`open`].
    /// Engines with more lanes run the frontier strategies only (Workfront, Near-Far,
    /// Bucketing); the other operators refuse.
    pub fn lanes(&self) -> u32 {
        1 << self.resident().csr.lane_bits
    }

    /// The resident graph's own vertices (one lane's).
    pub fn graph_vertices(&self) -> u32 {
        self.num_vertices() >> self.resident().csr.lane_bits
    }

    /// How long copying the graph into the engine took (see [`Resident::upload`]).
    pub fn upload_time(&self) -> std::time::Duration {
        self.resident().upload
    }

    /// Whether this engine runs on a GPU (what `--algo auto` chooses by).
    pub fn is_gpu(&self) -> bool {
        self.device().facts().gpu
    }

    /// Wait for all queued work.
    pub fn synchronize(&self) -> Result<()> {
        self.device().synchronize()
    }

    /// After a frontier run (Workfront, Near-Far, Bucketing) or a settling run (Crauser,
    /// Martín): a shortest-path tree of its distances, as parents (`crate::tree::NO_VERTEX` for
    /// the source and unreached vertices), built on the engine in one pass over the arcs: each
    /// reached vertex gets a tight in-arc from a vertex its run lowered (or settled) earlier, so
    /// the tree has no cycle even through zero-weight cycles (`sssp_kernels::tree`). A vertex
    /// with no such arc is left without a parent (the caller checks). Synchronises.
    /// A problem object of its own: a buffer on the engine's device (fit-checked) and the
    /// kernel type `TreeArcs`; the engine keeps nothing for it.
    pub fn tree_parents(&self) -> Result<Vec<u32>> {
        one_lane(self.lanes(), "the tree pass")?;
        let (dev, r) = (self.device(), self.resident());
        let n = r.csr.n as usize;
        // parent + 1 per vertex, 0 for none (zeroed when made).
        let out = dev.alloc_of::<u32>(n)?;
        let a = sssp_kernels::TreeArgs { csr: r.csr, dist: r.dist, parent1: out.ptr() };
        // SAFETY: the resident graph and distances; out has n zeroed entries, written only
        // through atomics.
        unsafe { dev.run::<sssp_kernels::entry::TreeArcs>(a, n as u64)? };
        let mut p = dev.download_of::<u32>(&out, 0, n)?;
        p.par_iter_mut().for_each(|x| *x = x.wrapping_sub(1));
        Ok(p)
    }
}

/// Stable multisplit on a fresh engine of `kind` holding `g`: item `i` goes to bin `keys[i]`
/// (`>= nbins`: dropped), bins keep input order, `nbins <= 32`. The operator the far-pile split
/// of the bucketed strategies uses inside their loop (the GPU's grid-cooperative one,
/// `sssp_multisplit`, and the CPU's `multisplit_host`), exposed with explicit keys for its
/// tests; no strategy calls it.
pub fn multisplit(g: &Graph, kind: DeviceKind, items: &[u32], keys: &[u32], nbins: u32) -> Result<Vec<Vec<u32>>> {
    let gpu = || cuda::CudaEngine::new(g).and_then(|mut e| e.multisplit(items, keys, nbins));
    let host = || cpu::CpuEngine::new(g).and_then(|mut e| e.multisplit(items, keys, nbins));
    match kind {
        DeviceKind::Gpu => gpu(),
        DeviceKind::Cpu => host(),
        DeviceKind::Auto => match gpu() {
            Err(Error::NoGpu(_)) => host(),
            r => r,
        },
    }
}

/// Open an engine for `g` on the requested device.
pub fn open(g: &Graph, kind: DeviceKind) -> Result<Box<dyn Engine>> {
    open_explained(g, kind).map(|(e, _)| e)
}

/// Start making the GPU's context and loading its kernels in the background when `kind` may use
/// the GPU (`Gpu`, `Auto`), so that the first engine opened later finds them ready; for a
/// caller that reads or generates a graph first. Never blocks or fails (see
/// [`cuda::warm_up`]); the context and kernels are then shared by every engine of the process.
pub fn warm_up(kind: DeviceKind) {
    if kind != DeviceKind::Cpu {
        cuda::warm_up();
    }
}

/// Whether [`open`] on `kind` would give a GPU engine, without opening one: `Err` with the
/// reason when it would not (`Cpu`, or no usable GPU). Making the CUDA context is the test, so
/// after [`warm_up`] this costs nothing more.
pub fn gpu_usable(kind: DeviceKind) -> std::result::Result<(), String> {
    match kind {
        DeviceKind::Cpu => Err("the CPU was asked for".into()),
        DeviceKind::Gpu | DeviceKind::Auto => cuda::usable().map_err(|e| match e {
            Error::NoGpu(why) => why,
            e => e.to_string(),
        }),
    }
}

/// Most lanes of a batched engine ([`open_lanes`]).
pub const MAX_LANES: u32 = 64;

/// Partition balance's loop geometry, by the graph's arcs: up to this many,
/// every frontier strategy with partition balance runs in the partition loop (one launch for
/// the solve), Workfront included; above it, Near-Far and Bucketing take the wide loop (4 blocks
/// per SM) and Workfront launches each iteration from the host at full occupancy. The bound is
/// the most the partition loop's 32-bit walk holds (`sssp_kernels::advance::RANKS32_MAX`): with
/// its runs, its pipeline, its 32-bit ranks and three blocks an SM it beat both other loops on
/// every graph measured. On the H100 (2026-11-28) Workfront took kron 19-25 in 0.57-0.59, 1.19-1.22, 2.52-2.53,
/// 5.15-5.17, 15.6, 24.5 and 63.2 ms against 1.07, 1.97-1.98, 3.25-3.53, 7.36-7.78, 19.4, 28.2
/// and 80.1 in the host loop, and Near-Far kron 22 in 5.68 against 7.94 in the wide loop. Until
/// then the bound was 2^23 arcs (kron 18), where the older partition loop lost by 10-40% on
/// kron 20 and 22. The runs it admits hold the pushes' degree prefix (`8(n + 1)` bytes more:
/// `Layout::prefix_by_pushes`). Only the CUDA engine reads the geometry; the CPU engine's
/// loops are the same. `SSSP_NARROW_PARTITION_ARCS=N` moves the bound down (see
/// [`narrow_partition_arcs`]).
pub const NARROW_PARTITION_ARCS: u64 = sssp_kernels::advance::RANKS32_MAX - 1;

/// Mean out-degree from which thread and virtual-warp balance leave the plain loop for the
/// wide one (the CUDA engine's geometry), whose advance reads a head's distance before its atomic
/// min. Dense graphs run a few dozen iterations over frontiers of millions of arcs, most of which
/// do not improve their head: there the read spares an atomic (throughput), where on roads and
/// meshes it only lengthens each hop's chain (latency: `sssp_kernels::relax::relax_direct`).
/// Measured on the H200 (docs/performance.md): Near-Far with virtual warps took
/// `gen:uniform:16777216:16` in 87.5 ms in the plain loop and 30.6 ms in the wide loop at three
/// blocks an SM, `gen:uniform:4194304:8` 7.3 and 3.9; grid3d 256^3 (mean degree 6) 17.5 in the
/// plain loop and 20.8 in the wide one, grid2d and roads about 1.7x slower there.
pub const DENSE_MEAN_DEGREE: u64 = 7;

/// [`NARROW_PARTITION_ARCS`], or `SSSP_NARROW_PARTITION_ARCS` when set: the GPU suite sets it to 0
/// to run the wide loop and the host-driven Workfront on its small test graphs
/// (`scripts/gpu-suite.sh`), and a measurement can move it, never past the default (the most
/// the partition loop's 32-bit ranks and arc ids hold).
pub fn narrow_partition_arcs() -> u64 {
    std::env::var("SSSP_NARROW_PARTITION_ARCS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(NARROW_PARTITION_ARCS)
        .min(NARROW_PARTITION_ARCS)
}

/// Open an engine for `g` that runs `lanes` solves side by side (a power of two,
/// `1..=MAX_LANES`): one copy of the graph, `lanes` times the distance array and queues (see
/// `lanes`). On `Auto` without a usable GPU, the CPU engine.
pub fn open_lanes(g: &Graph, kind: DeviceKind, lanes: u32) -> Result<Box<dyn Engine>> {
    lane_bits(g, lanes)?;
    Ok(match kind {
        DeviceKind::Cpu => Box::new(cpu::CpuEngine::with_lanes(g, lanes)?),
        DeviceKind::Gpu => Box::new(cuda::CudaEngine::with_lanes(g, None, lanes)?),
        DeviceKind::Auto => match cuda::CudaEngine::with_lanes(g, None, lanes) {
            Ok(e) => Box::new(e),
            Err(Error::NoGpu(_)) => Box::new(cpu::CpuEngine::with_lanes(g, lanes)?),
            Err(e) => return Err(e),
        },
    })
}

/// `log2(lanes)` after checking `lanes` (a power of two up to [`MAX_LANES`]) and that the ids
/// `n * lanes` fit below `u32::MAX` (which marks "no vertex").
pub(crate) fn lane_bits(g: &Graph, lanes: u32) -> Result<u32> {
    if !lanes.is_power_of_two() || lanes > MAX_LANES {
        return Err(Error::InvalidArgument(format!("{lanes} lanes: expected a power of two from 1 to {MAX_LANES}")));
    }
    let ids = g.num_vertices() as u64 * lanes as u64;
    if ids >= u32::MAX as u64 {
        return Err(Error::TooLarge {
            what: format!(
                "{} vertices x {lanes} lanes = {ids} vertex ids (at most {})",
                g.num_vertices(),
                u32::MAX - 1
            ),
        });
    }
    Ok(lanes.trailing_zeros())
}

/// The error of an operator that a batched engine (more than one lane) does not run.
pub(crate) fn one_lane(lanes: u32, what: &str) -> Result<()> {
    if lanes == 1 {
        Ok(())
    } else {
        Err(Error::InvalidArgument(format!(
            "{what} runs on one solve at a time; this engine carries {lanes} (batched sources run Workfront, Near-Far and Bucketing)"
        )))
    }
}

/// The seeds of [`Engine::init`] checked: distinct ids below `ids`, at least one.
pub(crate) fn check_seeds(sources: &[u32], ids: u32) -> Result<()> {
    if sources.is_empty() {
        return Err(Error::InvalidArgument("a run needs at least one source".into()));
    }
    if let Some(&v) = sources.iter().find(|&&v| v >= ids) {
        return Err(Error::VertexOutOfRange { vertex: v as u64, num_vertices: ids as u64 });
    }
    let mut seen = sources.to_vec();
    seen.sort_unstable();
    if let Some(w) = seen.windows(2).find(|w| w[0] == w[1]) {
        return Err(Error::InvalidArgument(format!("source {} given twice", w[0])));
    }
    Ok(())
}

/// [`open`], also returning why `Auto` fell back to the CPU (`None` when it did not).
pub fn open_explained(g: &Graph, kind: DeviceKind) -> Result<(Box<dyn Engine>, Option<String>)> {
    match kind {
        DeviceKind::Cpu => Ok((Box::new(cpu::CpuEngine::new(g)?), None)),
        DeviceKind::Gpu => Ok((Box::new(cuda::CudaEngine::new(g)?), None)),
        DeviceKind::Auto => match cuda::CudaEngine::new(g) {
            Ok(e) => Ok((Box::new(e), None)),
            // Only "no usable GPU" falls back; a real failure on a present GPU (out of memory,
            // a launch error) is reported.
            Err(Error::NoGpu(why)) => Ok((Box::new(cpu::CpuEngine::new(g)?), Some(why))),
            Err(e) => Err(e),
        },
    }
}

/// What [`Engine::run_loop`] runs: the advance's modes, and the bucket structure (none:
/// Workfront Sweep; one bucket: Near-Far; more: Bucketing).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoopSpec {
    /// How the advance spreads arcs over threads.
    pub balance: Balance,
    /// How the near queue is kept free of duplicates.
    pub dedupe: Dedupe,
    /// `None`: Workfront Sweep; `Some`: Near-Far (one bucket) or Bucketing.
    pub buckets: Option<BucketSpec>,
    /// Candidates above this distance are dropped (`sssp_kernels::NO_CUTOFF`: none).
    pub cutoff: u32,
    /// Bucketed runs stop once this vertex's distance is final (`sssp_kernels::NO_TARGET`:
    /// none; must be `< n`).
    pub target: u32,
    /// The hub threshold, as [`Advance::hub`].
    pub hub: u32,
    /// Relax through the edge classes, as [`Advance::classify`].
    pub classify: bool,
    /// Run the loop in one block with the near queues in shared memory (the GPU's latency mode
    /// for small frontiers, `sssp_kernels::block_loop`; see `block_loop_fits` for what it
    /// takes). Same contract and results; the CPU engine has one way to run a loop and ignores
    /// it, after the same checks.
    pub block: bool,
}

/// Whether a loop run can go through the block loop: stamp dedupe, one lane, no edge classes,
/// no Workfront <-> Near-Far hybrid (the block loop does not implement them; docs/gpu.md).
pub(crate) fn block_loop_fits(spec: &LoopSpec, lanes: u32, classified: bool) -> Result<()> {
    let why = if spec.dedupe != Dedupe::Stamp {
        Some("lookup dedupe")
    } else if lanes != 1 {
        Some("batched sources")
    } else if classified {
        Some("edge classes")
    } else if spec.buckets.is_some_and(|b| b.wide_at != 0) {
        Some("the Workfront <-> Near-Far hybrid (--wide-at)")
    } else {
        None
    };
    match why {
        Some(w) => Err(Error::InvalidArgument(format!("the block loop does not support {w}"))),
        None => Ok(()),
    }
}

/// Bucket width and window size (Davidson et al. §IV-D/E).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BucketSpec {
    /// Bucket width, >= 1.
    pub delta: u32,
    /// Buckets per window, `1..=MAX_BUCKETS` (1 = Near-Far).
    pub count: u32,
    /// The Workfront <-> Near-Far hybrid: iterations whose input holds at least this many
    /// vertices run as Workfront iterations (every improvement goes to the next input, whatever
    /// its bucket); 0 = never (pure Near-Far / Bucketing).
    pub wide_at: u32,
}

/// Where a [`Engine::run_loop`] call stopped, and the sizes of the queues (for traces).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LoopStatus {
    /// The control state the loop stopped in (`done` set when the distances are final).
    pub state: PileState,
    /// Items of the next iteration's input (the near queue, or the slot it starts from).
    pub near: u32,
    /// Items in the far pile (stale entries included: the pile is compacted only by splits).
    pub far: u32,
    /// Items waiting in the later slots of the window.
    pub slots: u32,
}

impl LoopStatus {
    /// Read the sizes from a copy of the engine's cells.
    pub(crate) fn from_cells(cells: &[u32], nbuckets: u32) -> Self {
        use sssp_kernels::{CELL_FAR, CELL_SLOTS, CELL_STATE};
        // SAFETY: the cells hold a PileState at CELL_STATE (12 u32s, alignment 4).
        let state = unsafe { std::ptr::read_unaligned(cells[CELL_STATE..].as_ptr() as *const PileState) };
        let j = (state.current - state.window) as usize;
        let near = if state.from_slot != 0 { cells[CELL_SLOTS + j] } else { cells[sssp_kernels::near_cell(state.k)] };
        let later = (j + 1).min(nbuckets as usize);
        let slots = cells[CELL_SLOTS + later..CELL_SLOTS + nbuckets as usize].iter().map(|&x| x as u64).sum::<u64>();
        LoopStatus {
            state,
            near,
            far: if nbuckets == 0 { 0 } else { cells[CELL_FAR + state.far as usize] },
            slots: slots.min(u32::MAX as u64) as u32,
        }
    }
}

/// Check a [`BucketSpec`] against the kernels' limits.
pub fn check_buckets(b: &BucketSpec) -> Result<()> {
    if b.delta == 0 {
        return Err(Error::InvalidArgument("delta must be at least 1".into()));
    }
    if b.count == 0 || b.count > sssp_kernels::MAX_BUCKETS {
        return Err(Error::InvalidArgument(format!(
            "{} buckets: expected 1 to {}",
            b.count,
            sssp_kernels::MAX_BUCKETS
        )));
    }
    Ok(())
}

/// Length cells both engines allocate (frontier ring, scratch, grid barrier, loop result).
pub(crate) const CELLS: usize = sssp_kernels::NUM_CELLS;

/// Frontier bookkeeping shared by both engines: which queue and which length cell play which
/// role in the current iteration.
///
/// Frontier cells `F0..F2` rotate: the current frontier's length is `F[k]`, the next one's
/// `F[k+1]` and `F[k+2]` is zeroed by this iteration's advance for the following one. Scratch
/// cells `T0, T1` (lookup dedupe) alternate the same way. Queues alternate between 0 and 1.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Frontiers {
    k: usize,
    j: usize,
}

/// A vertex buffer of an engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Buffer {
    /// Frontier queue 0 or 1.
    Frontier(usize),
    /// The lookup-dedupe scratch queue (room for one push per arc).
    Scratch,
}

/// A queue as buffer and length-cell indices; each engine turns it into addresses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct QueueRef {
    pub buf: Buffer,
    pub cell: usize,
}

/// What an advance reads, where it pushes, and which length cell it zeroes for the iteration
/// after (`None`: a null pointer in the parameter block).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Roles {
    pub input: Option<QueueRef>,
    pub output: Option<QueueRef>,
    pub zero: Option<usize>,
}

/// A queue with no items and no length cell (a null pointer in a parameter block).
pub(crate) const NO_QUEUE: Queue = Queue { items: std::ptr::null_mut(), len: std::ptr::null_mut() };

/// Where an engine's buffers are: device addresses on the GPU, host addresses on the CPU.
/// Engines allocate their buffers once and never move them, so the layout is computed once and
/// both engines fill their parameter blocks from it the same way.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Layout {
    pub csr: Csr,
    /// `n` packed (distance, iteration) words.
    pub dist: *mut u64,
    /// The two frontier queues, `n` items each.
    pub queues: [*mut u32; 2],
    /// The lookup-dedupe scratch queue, `m` items (allocated by the first lookup run: null
    /// before).
    pub scratch: *mut u32,
    /// The lookup table, `n` entries.
    pub table: *mut u32,
    /// Degree prefix sums, `prefix_len` entries: `n + 1` once a partitioned run has scanned a
    /// frontier, the hubs' count + 1 while only hub passes have ([`Layout::run_buffers`]; null
    /// before any run that scans degrees), so that vwarp runs never hold `8n` bytes for it.
    pub prefix: *mut u64,
    pub prefix_len: u64,
    /// The second degree prefix, `n + 1` entries, for the runs whose pushes build their near
    /// queues' prefixes ([`Layout::prefix_by_pushes`]); null until one allocates it (and on
    /// the GPU for graphs above [`NARROW_PARTITION_ARCS`], whose runs take loops that scan).
    pub push_prefix: *mut u64,
    /// The graph's arcs (one solve's, not times the lanes).
    pub arcs: u64,
    /// `CELLS` length cells.
    pub cells: *mut u32,
    pub counters: *mut Counters,
    /// The bucket slot queues' pool, `slot_pool` entries (about `n`: [`slot_pool`]), which a
    /// run of `A` buckets shares out as `A` queues of `slot_pool / A` (allocated on the first
    /// bucketed run; 0 before).
    pub slots: *mut u32,
    pub slot_pool: u32,
    /// The two far buffers, `n` items each (allocated with the slots).
    pub far: [*mut u32; 2],
    /// GPU persistent loop only: one `u64` per block and `MAX_BINS` counts per block.
    pub block_vals: *mut u64,
    pub hist: *mut u32,
    /// The hub queue, `hub_len` items (see `sssp_kernels::advance`'s module doc): room for every
    /// vertex of the run's hub degree or more (an iteration's input holds each vertex once),
    /// allocated by the first run that has a hub path ([`Layout::has_hubs`]: null before) and
    /// grown by one with a lower threshold.
    pub hub: *mut u32,
    pub hub_len: u64,
    /// How many vertices have each degree or more, to size the hub queue by.
    pub degrees: crate::graph::DegreeTail,
    /// The graph's largest out-degree: a run whose hub threshold lies above it has no hub
    /// path at all, so graphs without hubs (roads, meshes) never pay for one.
    pub max_degree: u64,
    /// The edge classes, once computed.
    pub classes: Classes,
}

impl Layout {
    /// What other features' kernels read of it ([`Engine::resident`]).
    pub fn resident(&self, upload: std::time::Duration) -> Resident {
        Resident {
            csr: self.csr,
            dist: self.dist,
            counters: self.counters,
            spare: [self.queues[0], self.queues[1], self.table],
            upload,
        }
    }

    /// Solves a run carries side by side.
    pub fn lanes(&self) -> u32 {
        1 << self.csr.lane_bits
    }

    pub fn cell(&self, i: usize) -> *mut u32 {
        self.cells.wrapping_add(i)
    }

    pub fn queue(&self, q: Option<QueueRef>) -> Queue {
        match q {
            None => NO_QUEUE,
            Some(QueueRef { buf: Buffer::Frontier(i), cell }) => Queue { items: self.queues[i], len: self.cell(cell) },
            Some(QueueRef { buf: Buffer::Scratch, cell }) => Queue { items: self.scratch, len: self.cell(cell) },
        }
    }

    /// The current frontier.
    pub fn current(&self, fr: &Frontiers) -> Queue {
        self.queue(Some(QueueRef { buf: Buffer::Frontier(fr.current_queue()), cell: fr.current_cell() }))
    }

    /// The next frontier.
    pub fn next(&self, fr: &Frontiers) -> Queue {
        self.queue(Some(QueueRef { buf: Buffer::Frontier(fr.next_queue()), cell: fr.next_cell() }))
    }

    pub fn init_args(&self, fr: &Frontiers, source: u32) -> InitArgs {
        let zero = self.csr.metric().zero();
        InitArgs {
            dist: self.dist,
            frontier: self.current(fr),
            counters: self.counters,
            n: self.csr.n,
            source,
            zero,
            _pad: 0,
        }
    }

    /// The seed step after an init with no source (`sources`: an address the kernel can read).
    pub fn seed_args(&self, fr: &Frontiers, sources: *const u32, count: u32) -> SeedArgs {
        SeedArgs { dist: self.dist, frontier: self.current(fr), sources, count, zero: self.csr.metric().zero() }
    }

    /// The counts of the classes, once computed (`None`: not classified).
    pub fn class_counts(&self) -> Option<ClassCounts> {
        (!self.classes.tagged.is_null()).then_some(ClassCounts {
            arcs: self.classes.arcs,
            skipped: self.classes.skips,
            deferred: self.classes.sinks,
        })
    }

    /// Whether a run that asks for the classes (`classify`) relaxes through them: they exist
    /// (so it takes the classified kernels and leaves arcs for [`Engine::relax_deferred`]).
    /// Runs that do not read the same targets through the plain kernels, which mask the tags.
    pub fn classifies(&self, classify: bool) -> bool {
        classify && !self.classes.tagged.is_null()
    }

    /// The classification passes' parameters (the graph's own view: one lane), with `indeg`
    /// (n zeroed entries) and the `count` cell.
    pub fn classify_args(&self, indeg: *mut u32, count: *mut u64) -> ClassifyArgs {
        let bits = self.csr.lane_bits;
        ClassifyArgs {
            csr: Csr { n: self.csr.n >> bits, lane_bits: 0, ..self.csr },
            tagged: self.classes.tagged,
            indeg,
            sink_tail: self.classes.sink_tail,
            sink_arc: self.classes.sink_arc,
            count,
        }
    }

    /// The cutoff a classified run with `cutoff` leaves for [`Engine::relax_deferred`], when it
    /// classifies and the graph has arcs into sinks.
    pub fn deferred(&self, classify: bool, cutoff: u32) -> Option<u32> {
        (classify && self.classes.sinks > 0).then_some(cutoff)
    }

    /// The deferred pass of a classified run with `cutoff`.
    pub fn sink_args(&self, cutoff: u32) -> SinkArgs {
        SinkArgs {
            csr: self.csr,
            dist: self.dist,
            sink_tail: self.classes.sink_tail,
            sink_arc: self.classes.sink_arc,
            count: self.classes.sinks,
            counters: self.counters,
            cutoff,
            _pad: 0,
        }
    }

    /// The advance for `step` in the given roles; the degree prefix is used by frontier
    /// advances (a topology-driven sweep partitions by the CSR offsets themselves).
    pub fn advance_args(&self, step: &Advance, roles: &Roles) -> AdvanceArgs {
        let (hub, hub_zero) = sssp_kernels::hub_ring(self.hub_items(step.balance, step.hub), self.cells, step.iter);
        AdvanceArgs {
            hub,
            hub_zero,
            hub_degree: step.hub,
            hub_pass: 0,
            csr: self.csr,
            dist: self.dist,
            input: self.queue(roles.input),
            output: self.queue(roles.output),
            zero_len: roles.zero.map_or(std::ptr::null_mut(), |c| self.cell(c)),
            // Null scan = partition by the CSR offsets (a topology-driven sweep): a partitioned
            // frontier run must have its prefix by now (`run_buffers`).
            scan: if roles.input.is_some() {
                debug_assert!(step.balance != Balance::Partition || !self.prefix.is_null());
                self.prefix
            } else {
                std::ptr::null()
            },
            // The host-driven loop scans every input; the persistent loops' pushes may build
            // the prefixes (`pile_args`).
            push_prefix: std::ptr::null_mut(),
            counters: self.counters,
            iter: step.iter,
            balance: step.balance as u32,
            dedupe: step.dedupe as u32,
            cutoff: step.cutoff,
            buckets: NO_BUCKETS,
        }
    }

    /// Whether a run in `balance` with threshold `hub` has a hub path (not partition balance,
    /// threshold not 0, and some vertex of that degree).
    pub fn has_hubs(&self, balance: Balance, hub: u32) -> bool {
        balance.has_hub_path() && hub != 0 && self.max_degree >= hub as u64
    }

    /// The hub queue for a run in `balance` with threshold `hub`, or null when that run has no
    /// hub path. The engine allocates the queue before such a run ([`RunBuffers`]).
    pub fn hub_items(&self, balance: Balance, hub: u32) -> *mut u32 {
        if self.has_hubs(balance, hub) {
            debug_assert!(!self.hub.is_null(), "a run with a hub path before its queue was allocated");
            self.hub
        } else {
            std::ptr::null_mut()
        }
    }

    /// Entries of the hub queue a run with threshold `hub` needs: every vertex id (of every
    /// lane) of that degree or more, at least one.
    fn hub_room(&self, hub: u32) -> u64 {
        (self.degrees.at_least(hub) << self.csr.lane_bits).max(1)
    }

    /// Entries of the degree prefix a run in these modes needs (0: none): `n + 1` for a
    /// partitioned advance over a frontier (a topology-driven sweep partitions by the offsets
    /// themselves), the hub count + 1 for the hub pass.
    fn prefix_room(&self, input: Input, balance: Balance, hub: u32) -> u64 {
        if input == Input::Frontier && balance == Balance::Partition {
            self.csr.n as u64 + 1
        } else if self.has_hubs(balance, hub) {
            self.hub_room(hub) + 1
        } else {
            0
        }
    }

    /// What a settle run needs of the same buffers: the degree prefix for a partitioned push
    /// over its frontier (a settle run has no hub path).
    pub fn settle_buffers(&self, pull: bool, balance: Balance) -> RunBuffers {
        let want = if pull { 0 } else { self.prefix_room(Input::Frontier, balance, 0) };
        RunBuffers { prefix: if want > self.prefix_len { want } else { 0 }, ..RunBuffers::default() }
    }

    /// What a run of these modes needs beyond the buffers every run has (or has allocated
    /// smaller).
    pub fn run_buffers(&self, input: Input, dedupe: Dedupe, balance: Balance, hub: u32) -> RunBuffers {
        let hubs = if self.has_hubs(balance, hub) { self.hub_room(hub) } else { 0 };
        let prefix = self.prefix_room(input, balance, hub);
        RunBuffers {
            scratch: input == Input::Frontier && dedupe == Dedupe::Lookup && self.scratch.is_null(),
            hub: if hubs > self.hub_len { hubs } else { 0 },
            prefix: if prefix > self.prefix_len { prefix } else { 0 },
            push_prefix: input == Input::Frontier
                && self.prefix_by_pushes(dedupe, balance, hub)
                && self.push_prefix.is_null(),
        }
    }

    /// Whether a persistent-loop run in these modes builds each near queue's degree prefix
    /// with its pushes (`PileArgs::push_prefix`), once the second prefix is allocated: partition
    /// balance with stamp dedupe (a vertex enters the near queue once an iteration, so a
    /// queue's degrees sum to at most `m`, which must fit the 32 bits that count them), one
    /// solve at a time, no hub path, and a graph of at most [`NARROW_PARTITION_ARCS`] arcs: on
    /// the GPU only the partition loop builds prefixes (bigger graphs take loops that scan), so
    /// the biggest graphs, where memory is scarcest, hold no second prefix's `8(n + 1)` bytes. Measured on
    /// the H100 (2026-11-28): kron 16 0.32 ms against
    /// 0.35 with the scan, kron 17 and 18 within the noise; with the pushes staged per warp
    /// (`sssp_kernels::warp::PushStage`, which only this path has), kron 16-18 took 0.24-0.26,
    /// 0.39-0.41 and 0.56-0.63 ms. `SSSP_PUSH_PREFIX=0` turns it off: every partitioned
    /// iteration then scans its input and pushes trip by trip, as before (to compare the two
    /// in one binary).
    pub fn prefix_by_pushes(&self, dedupe: Dedupe, balance: Balance, hub: u32) -> bool {
        std::env::var_os("SSSP_PUSH_PREFIX").is_none_or(|v| v != "0")
            && balance == Balance::Partition
            && dedupe == Dedupe::Stamp
            && !self.has_hubs(balance, hub)
            && self.csr.lane_bits == 0
            && self.partition_loop()
    }

    /// Whether the graph is dense enough for the wide loop under thread and virtual-warp
    /// balance ([`DENSE_MEAN_DEGREE`]).
    pub fn dense(&self) -> bool {
        self.arcs >= DENSE_MEAN_DEGREE * (self.csr.n >> self.csr.lane_bits) as u64
    }

    /// Whether partition balance runs in the partition loop on this engine (the CUDA engine's
    /// geometry, and the runs whose pushes may build prefixes): a graph of at most
    /// [`narrow_partition_arcs`] arcs whose iterations' ranks, every lane's, stay below
    /// `sssp_kernels::advance::RANKS32_MAX` (the loop's walk holds them in 32 bits).
    pub fn partition_loop(&self) -> bool {
        self.arcs <= narrow_partition_arcs() && self.arcs << self.csr.lane_bits < sssp_kernels::advance::RANKS32_MAX
    }

    /// The persistent loop's parameters for `spec` (a bucketed spec's buffers must have been
    /// allocated: `slot_pool > 0`).
    pub fn pile_args(&self, spec: &LoopSpec, max_iters: u32) -> PileArgs {
        let step = Advance {
            input: Input::Frontier,
            balance: spec.balance,
            dedupe: spec.dedupe,
            iter: 1,
            cutoff: spec.cutoff,
            hub: spec.hub,
            classify: spec.classify,
        };
        let mut adv = self.advance_args(&step, &Roles { input: None, output: None, zero: None });
        adv.scan = self.prefix;
        if let Some(b) = spec.buckets {
            debug_assert!(self.slot_pool >= b.count);
            adv.buckets = Buckets {
                slot_items: self.slots,
                slot_lens: self.cell(sssp_kernels::CELL_SLOTS),
                far: NO_QUEUE,
                room: self.slot_pool / b.count,
                delta: b.delta,
                window: 0,
                current: 0,
                nbuckets: b.count,
                wide: 0,
                real: (self.csr.metric() == sssp_kernels::Metric::Real) as u16,
            };
        }
        PileArgs {
            adv,
            near: self.queues,
            far: self.far,
            scratch: self.scratch,
            table: self.table,
            cells: self.cells,
            block_vals: self.block_vals,
            hist: self.hist,
            max_iters,
            wide_at: spec.buckets.map_or(0, |b| b.wide_at),
            target: spec.target,
            _pad: 0,
            push_prefix: if self.prefix_by_pushes(spec.dedupe, spec.balance, spec.hub) {
                self.push_prefix
            } else {
                std::ptr::null_mut()
            },
        }
    }

    /// Lookup dedupe of the pushed scratch queue into the next frontier.
    pub fn dedupe_args(&self, fr: &Frontiers) -> DedupeArgs {
        DedupeArgs {
            input: self.queue(Some(QueueRef { buf: Buffer::Scratch, cell: fr.scratch_cell() })),
            table: self.table,
            output: self.next(fr),
        }
    }
}

/// The buffers a run needs that the engine has not allocated yet, or smaller
/// ([`Layout::run_buffers`]): the lookup dedupe's scratch queue (`4m` bytes: only lookup runs
/// read it), the hub queue (4 bytes per hub: only runs with a hub path) and the degree prefix
/// (`8(n + 1)` for partition balance, 8 per hub for the hub pass alone). Allocated by the first
/// run that needs them and kept; a larger need replaces the buffer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct RunBuffers {
    pub scratch: bool,
    /// Entries of the hub queue to make (0: none).
    pub hub: u64,
    /// Entries of the degree prefix to make (0: none).
    pub prefix: u64,
    /// Make the second degree prefix (`n + 1` entries, [`Layout::push_prefix`]).
    pub push_prefix: bool,
}

impl Roles {
    /// Whether the advance pushes into the scratch queue (so the next swap flips scratch cells).
    pub fn uses_scratch(&self) -> bool {
        self.output.is_some_and(|q| q.buf == Buffer::Scratch)
    }
}

impl Frontiers {
    /// The roles for `step` at the current ring position. Both engines take them from here, so
    /// the rotation is written once.
    pub fn roles(&self, step: &Advance) -> Roles {
        let current = QueueRef { buf: Buffer::Frontier(self.current_queue()), cell: self.current_cell() };
        match (step.input, step.dedupe) {
            (Input::AllVertices, _) => Roles { input: None, output: None, zero: None },
            (Input::Frontier, Dedupe::Lookup) => Roles {
                input: Some(current),
                output: Some(QueueRef { buf: Buffer::Scratch, cell: self.scratch_cell() }),
                zero: Some(self.spare_scratch_cell()),
            },
            (Input::Frontier, Dedupe::Stamp) => Roles {
                input: Some(current),
                output: Some(QueueRef { buf: Buffer::Frontier(self.next_queue()), cell: self.next_cell() }),
                zero: Some(self.spare_cell()),
            },
        }
    }

    pub fn current_queue(&self) -> usize {
        self.k % 2
    }
    pub fn next_queue(&self) -> usize {
        (self.k + 1) % 2
    }
    pub fn current_cell(&self) -> usize {
        sssp_kernels::near_cell(self.k as u32)
    }
    pub fn next_cell(&self) -> usize {
        sssp_kernels::near_cell(self.k as u32 + 1)
    }
    pub fn spare_cell(&self) -> usize {
        sssp_kernels::near_cell(self.k as u32 + 2)
    }
    pub fn scratch_cell(&self) -> usize {
        3 + self.j
    }
    pub fn spare_scratch_cell(&self) -> usize {
        3 + (self.j ^ 1)
    }
    pub fn swap(&mut self, used_scratch: bool) {
        // Queues alternate with k's parity; keep k in a small range without breaking parity.
        self.k = (self.k + 1) % 6;
        if used_scratch {
            self.j ^= 1;
        }
    }
}

/// The multisplit operator's argument checks, shared by both engines.
pub(crate) fn check_multisplit(items: &[u32], keys: &[u32], nbins: u32) -> Result<()> {
    if items.len() != keys.len() {
        return Err(Error::InvalidArgument(format!("multisplit: {} items but {} keys", items.len(), keys.len())));
    }
    if nbins == 0 || nbins > sssp_kernels::MAX_BINS {
        return Err(Error::InvalidArgument(format!(
            "multisplit: {nbins} bins, expected 1 to {}",
            sssp_kernels::MAX_BINS
        )));
    }
    Ok(())
}

/// Entries of the slot queues' pool on an engine of `n` vertex ids: `n`, so that a run of one
/// bucket (Near-Far) has room for every vertex and its slot never overflows (a slot holds each
/// vertex at most once, `sssp_kernels::split`), and at least [`sssp_kernels::MAX_BUCKETS`], so
/// that every slot of a tiny graph has room for one. Bucketing's `A` slots share it: they
/// overflow only when more than `n / A` vertices enter one bucket of a window, and the loop
/// then gathers that bucket from the distances (`sssp_kernels::frontier`). Sized for the worst
/// case instead (`n` per slot), the slots took `4An` bytes: `40n` at the default 10 buckets.
pub(crate) fn slot_pool(n: u64) -> u64 {
    n.max(sssp_kernels::MAX_BUCKETS as u64)
}

/// Bytes of the bucket buffers (the slots' pool and two far buffers of `n`).
pub(crate) fn bucket_bytes(n: u64) -> u64 {
    4 * slot_pool(n) + 2 * 4 * n.max(1)
}

/// Stable multisplit on the host, the contract of [`multisplit`] for `len` slots given
/// as functions: chunks are split into per-bin pieces in parallel, and each bin is its pieces in
/// chunk order (so stable). What the CPU engine runs for the far-pile split (and for the
/// `multisplit` operator). `out(bin, parts)` gets a bin's pieces, so the caller copies it once.
pub(crate) fn multisplit_host(
    len: usize,
    nbins: u32,
    key: impl Fn(usize) -> u32 + Sync,
    item: impl Fn(usize) -> u32 + Sync,
    mut out: impl FnMut(u32, &[&[u32]]),
) {
    use rayon::prelude::*;
    const CHUNK: usize = 1 << 14;
    let nb = nbins as usize;
    let chunks = len.div_ceil(CHUNK);
    // Small inputs (most far-pile splits of road graphs): one pass, no fork-join.
    let bins: Vec<Vec<Vec<u32>>> = if chunks <= 1 {
        vec![split_range(0..len, nb, &key, &item)]
    } else {
        (0..chunks)
            .into_par_iter()
            .map(|c| split_range(c * CHUNK..((c + 1) * CHUNK).min(len), nb, &key, &item))
            .collect()
    };
    for j in 0..nb {
        let parts: Vec<&[u32]> = bins.iter().map(|b| b[j].as_slice()).collect();
        out(j as u32, &parts);
    }
}

fn split_range(
    r: std::ops::Range<usize>,
    nb: usize,
    key: &(impl Fn(usize) -> u32 + Sync),
    item: &(impl Fn(usize) -> u32 + Sync),
) -> Vec<Vec<u32>> {
    let mut bins = vec![Vec::new(); nb];
    for i in r {
        let k = key(i) as usize;
        if k < nb {
            bins[k].push(item(i));
        }
    }
    bins
}

/// What every run needs on the device beyond the graph, in bytes (for the fit check). The
/// buffers of some runs only (the lookup scratch, the hub queue, the degree prefix, the bucket
/// queues, the edge classes, the settle loop's) are fit-checked when the first such run
/// allocates them.
pub(crate) fn working_bytes(n: u64, scan_blocks: u64) -> u64 {
    let dist = 8 * n;
    let queues = 2 * 4 * n;
    let table = 4 * n;
    dist + queues + table + 8 * scan_blocks + 64
}

/// Bytes of the graph itself on the device.
pub(crate) fn graph_bytes(n: u64, m: u64) -> u64 {
    8 * (n + 1) + 4 * m + 4 * m
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(dedupe: Dedupe) -> Advance {
        Advance {
            input: Input::Frontier,
            balance: Balance::Thread,
            dedupe,
            iter: 1,
            cutoff: sssp_kernels::NO_CUTOFF,
            hub: sssp_kernels::HUB_DEGREE,
            classify: false,
        }
    }

    #[test]
    fn stamp_ring_hands_each_output_to_the_next_input_and_pre_zeroes_its_output() {
        let mut fr = Frontiers::default();
        for _ in 0..12 {
            let now = fr.roles(&step(Dedupe::Stamp));
            fr.swap(false);
            let next = fr.roles(&step(Dedupe::Stamp));
            assert_eq!(now.output, next.input);
            // The cell this iteration zeroes is the one the next iteration pushes into...
            assert_eq!(now.zero, next.output.map(|q| q.cell));
            // ...and never one this iteration reads or writes.
            assert_ne!(now.zero, now.input.map(|q| q.cell));
            assert_ne!(now.zero, now.output.map(|q| q.cell));
        }
    }

    #[test]
    fn the_degree_tail_bounds_the_hubs_of_every_threshold() {
        // Degrees 0, 1, 2, ..., 300 (vertex v has v out-arcs to vertex 0).
        let arcs: Vec<(u32, u32, i64)> = (0..=300u32).flat_map(|v| (0..v).map(move |_| (v, 0, 1))).collect();
        let g = Graph::from_arcs(301, &arcs).unwrap();
        let tail = *g.degree_tail();
        for t in 1..=400u32 {
            let exact = (0..=300u64).filter(|&d| d >= t as u64).count() as u64;
            let p = 1u64 << (31 - t.leading_zeros());
            let bound = (0..=300u64).filter(|&d| d >= p).count() as u64;
            assert_eq!(tail.at_least(t), bound, "threshold {t}");
            assert!(bound >= exact);
            if t.is_power_of_two() {
                assert_eq!(bound, exact, "exact at {t}");
            }
        }
    }

    #[test]
    fn lookup_alternates_scratch_cells() {
        let mut fr = Frontiers::default();
        let first = fr.roles(&step(Dedupe::Lookup));
        assert_eq!(first.output.unwrap().buf, Buffer::Scratch);
        fr.swap(true);
        let second = fr.roles(&step(Dedupe::Lookup));
        assert_eq!(first.zero, second.output.map(|q| q.cell));
        assert_ne!(first.output, second.output);
    }
}
