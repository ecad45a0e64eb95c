//! SSSP over several ranks: the graph split over `P` ranks, each relaxing its own
//! vertices' arcs, the ranks exchanging candidates for one another's vertices once per round:
//! synchronous distributed delta-stepping.
//!
//! **The algorithm.** Delta-stepping (Meyer and Sanders, "Δ-stepping: a parallelizable
//! shortest path algorithm", J. Algorithms 2003) with a 1D partition, as distributed-memory
//! delta-stepping is usually laid out (Madduri, Bader, Berry and Crobak, ALENEX 2007, on one
//! shared memory; Chakaravarthy, Checconi, Petrini and Sabharwal, "Scalable single source
//! shortest path algorithms for massively parallel systems", IPDPS 2014, over a network). Each
//! rank owns a contiguous range of vertices ([`Partition`]), their out-arcs ([`LocalGraph`]),
//! their distances, and bins of its own vertices by bucket (`distance / delta`). Every rank
//! runs the same loop ([`run_rank`]), one *round* per iteration:
//!
//! 1. take this rank's vertices waiting in the current bucket `cur` (the global minimum);
//! 2. relax their out-arcs: a head of this rank is lowered in place and binned (into `cur`
//!    again if the candidate falls in it); a candidate for another rank's head goes to that
//!    rank's outbox;
//! 3. combine each outbox to one candidate per vertex, the smallest (sort and dedupe), and
//!    exchange all outboxes at once ([`Communicator::exchange`]); apply what arrived, lowering
//!    and binning as in 2;
//! 4. all-reduce the minimum over the ranks of each one's lowest non-empty bin
//!    ([`Communicator::all_reduce`]): `cur` again while some rank still has work in it (the
//!    bucket's next round), else the next bucket; none anywhere ends the run.
//!
//! Then the distances are gathered in vertex order on rank 0 (an exchange in which every rank
//! sends its slice to rank 0: the ranges are contiguous and in rank order).
//!
//! **Why the end is exact.** A round ends only after its exchange, so when the all-reduce runs
//! every improvement made in the round is applied: a lowered local head is in its owner's bin,
//! a remote candidate has been delivered and applied (and binned if it lowered). No message is
//! in flight across the all-reduce. So "no rank has a non-empty bin" means no vertex waits to
//! be expanded with its current distance: every reached vertex was expanded with its final
//! distance (each lowering bins the vertex again), every arc out of it was relaxed with that
//! distance, so `d(v) <= d(u) + w` holds on every arc out of a reached vertex, and each `d(v)`
//! is the length of a path (it was some candidate): the distances are exact. Candidates never
//! fall below `cur * delta` (weights are `>= 0`), so no bucket is revisited after the loop left
//! it. Buckets are visited in increasing order, and bucket `b`'s rounds repeat only while
//! zero-weight or short arcs lower vertices back into it, as in delta-stepping on one machine.
//!
//! **Measured and chosen.**
//! - One all-reduce per round: the lowest non-empty bin says both "more work in this bucket"
//!   (it is `cur`) and which bucket comes next, and "none" ends the run; a second value beside
//!   it says whether every rank's round went well, so a rank that failed stops them all there
//!   (docs/distributed.md, "How ranks stop together").
//! - Each rank remembers the smallest candidate it has sent to each remote head (a ghost
//!   distance); a later candidate that is not smaller is not sent: the owner already holds a
//!   distance at most that one. On kron graphs most remote candidates stop there.
//! - A vertex waits in at most one bin (its bucket is recorded); lowering it into another bucket
//!   leaves a stale entry behind and counts it out of the old bin, which is dropped when no live
//!   entry is left, so the lowest bin is found in O(log buckets) and no round scans all vertices.
//! - A round relaxes only what was binned before it: a local head lowered into `cur` waits for
//!   the bucket's next round, like a remote one, so every rank's rounds stay in step.
//!
//! **Where a rank works.** The loop above is written once ([`run_rank`]'s `run_rounds`) over
//! a rank's *local step*: its data and its part of a round (relax the bucket, apply what
//! arrived, report its lowest bucket). The host step keeps the slice, distances and bins in
//! host memory and relaxes on the rank's thread. The device step (`device::DeviceStep`, kernels
//! `sssp_kernels::ranks`) keeps them resident on the rank's device: each remote head becomes a
//! *ghost* vertex of the slice, whose distance cell is the ghost filter, and a round is five
//! small kernels (relax, pack the lowered ghosts, apply, far-pile minimum, bucket split); the
//! items go from the step's outbox to the owners' inboxes through the communicator
//! (device to device on NCCL), and only a few counts cross to the host. NCCL ranks run
//! the device step on their GPUs by default, simulated ranks the host step ([`StepOn`]); CI
//! runs both on simulated ranks (the device step on the CPU backend's device, the same kernel
//! bodies).
//!
//! **Scope.** Non-negative integer and real (`f32`) weights, one source, a cutoff; distances in
//! the engines' 32-bit cells, an overflow a typed error as elsewhere.

pub mod comm;
mod device;
#[cfg(feature = "nccl")]
pub mod nccl;
pub mod partition;

use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, Instant};

use sssp_kernels::relax::{through, Through};
use sssp_kernels::{INF, NO_CUTOFF};

pub use comm::{Communicator, InProcess, Reduce};
pub use partition::{LocalGraph, Partition};

use crate::device::Device;
use crate::error::{Error, Result};
use crate::graph::{Graph, Metric};
use crate::strategy::{Solution, Stats};

/// The most ranks a run takes (more is a typed error): far past the GPUs of one host, and a
/// mistyped count must not start thousands of threads.
pub const MAX_RANKS: usize = 1024;

/// The name negative weights are refused under ([`Error::NegativeWeight`]).
const ALGO: &str = "distributed delta-stepping";

/// No bucket: the all-reduced minimum when no rank has work.
const NONE: u32 = u32::MAX;

/// Where the ranks of [`solve`] run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ranks {
    /// `P` ranks as threads of this process, talking through [`InProcess`]: the very same
    /// algorithm as on GPUs, on the CPU (what the tests run).
    Simulated(usize),
    /// `P` ranks on GPUs `0..P` of this host, one thread each, talking through NCCL
    /// (feature `nccl`; without it a typed error). Their local steps run on their GPUs
    /// ([`StepOn`]).
    Nccl(usize),
    /// `P` simulated ranks (threads talking through [`InProcess`]) whose local steps all run on
    /// GPU 0, each on a stream of its own: the device step of NCCL ranks, kernels and all, on a
    /// machine with one GPU (how the GPU suite checks them there).
    SimulatedOnGpu(usize),
}

impl Ranks {
    /// The number of ranks.
    pub fn count(self) -> usize {
        match self {
            Ranks::Simulated(p) | Ranks::Nccl(p) | Ranks::SimulatedOnGpu(p) => p,
        }
    }

    /// What the ranks talk through, for reports: `in-process` or `nccl`.
    pub fn transport(self) -> &'static str {
        match self {
            Ranks::Simulated(_) | Ranks::SimulatedOnGpu(_) => "in-process",
            Ranks::Nccl(_) => "nccl",
        }
    }
}

/// The ranks in words: `2 NCCL ranks (GPUs 0-1)`, `3 simulated ranks (CPU threads)`, `3
/// simulated ranks on GPU 0`.
impl std::fmt::Display for Ranks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Ranks::Nccl(p) => write!(f, "{p} NCCL ranks (GPUs 0-{})", p.saturating_sub(1)),
            Ranks::Simulated(p) => write!(f, "{p} simulated ranks (CPU threads)"),
            Ranks::SimulatedOnGpu(p) => write!(f, "{p} simulated ranks on GPU 0"),
        }
    }
}

/// Where each rank's local step (its round's relaxation, the candidates applied, its bins)
/// runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum StepOn {
    /// The device on NCCL ranks (each rank's GPU) and [`Ranks::SimulatedOnGpu`], the host
    /// thread on simulated ranks.
    #[default]
    Auto,
    /// The rank's host thread: distances and bins in host memory.
    Host,
    /// The rank's device, through the device layer: its GPU on NCCL ranks, the CPU backend's
    /// device on simulated ranks (the very kernel bodies the GPUs run, which is how CI tests
    /// them). The slice, distances and queues stay resident; only the candidates for other
    /// ranks and a few counts cross to the host each round.
    Device,
}

impl StepOn {
    /// Whether the local steps of `ranks` run on their devices.
    pub fn on_device(self, ranks: Ranks) -> bool {
        match self {
            StepOn::Auto => !matches!(ranks, Ranks::Simulated(_)),
            StepOn::Host => false,
            StepOn::Device => true,
        }
    }
}

/// The query and the tuning of a distributed run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DistOptions {
    /// Bucket width in the weights' own terms ([`crate::strategy::Width`]); `None`:
    /// [`crate::strategy::heuristic_delta`].
    pub delta: Option<crate::strategy::Width>,
    /// Report nothing farther than this distance (same encoding), and relax nothing towards
    /// it: [`crate::strategy::Options::cutoff`]'s meaning.
    pub cutoff: Option<u64>,
    /// Where the ranks' local steps run.
    pub step: StepOn,
    /// The device step expands a vertex of at least this many out-arcs with its whole grid
    /// instead of one team of lanes (`None`: `sssp_kernels::ranks::RANK_HUB_ARCS`, 65,536).
    pub hub_arcs: Option<u32>,
    /// The device step expands a vertex of at least this many out-arcs (and fewer than
    /// `hub_arcs`) with a wide team of lanes (`None`: `sssp_kernels::ranks::RANK_WIDE_ARCS`,
    /// 1,024).
    pub wide_arcs: Option<u32>,
    /// A failure to inject, for the tests of how ranks stop together ([`Fault`]); not an
    /// option for users.
    #[doc(hidden)]
    pub fault: Option<Fault>,
}

/// Where an injected [`Fault`] strikes.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaultAt {
    /// As the local step is made (after the solve's first collective).
    SetUp,
    /// After the relaxation of this round (from 1).
    Round(u32),
    /// As the rank collects its distances and counts.
    Finish,
}

/// A failure injected on one rank, for the tests of the failure protocol ([`run_rank`]'s
/// collectives carry a failed rank's flag, so every rank returns): rank `rank` meets, at `at`,
/// the error an allocation that does not fit its device would give.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fault {
    pub rank: u32,
    pub at: FaultAt,
}

impl Params {
    /// The error of the fault injected on rank `me` at `at`, if [`Params::fault`] names it.
    fn fault_at(&self, me: usize, at: FaultAt) -> Option<Error> {
        self.fault.filter(|f| f.rank as usize == me && f.at == at).map(Fault::error)
    }
}

impl Fault {
    /// The injected error (named so that a test can tell it from any real one).
    pub fn error(self) -> Error {
        Error::OutOfDeviceMemory { device: format!("rank {} (an injected fault)", self.rank), needed: 1, available: 0 }
    }
}

/// What every rank runs with: the same values on every rank ([`Params::new`] checks them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    /// How distances add up.
    pub metric: Metric,
    /// Bucket width (> 0), in the engines' encoding.
    pub delta: u32,
    /// Candidates above this are dropped ([`NO_CUTOFF`]: none).
    pub cutoff: u32,
    /// The source (a global id).
    pub source: u32,
    /// Where the local steps run.
    pub step: StepOn,
    /// The device step's hub threshold (> 0).
    pub hub_arcs: u32,
    /// The device step's wide threshold (> 0).
    pub wide_arcs: u32,
    /// [`DistOptions::fault`].
    #[doc(hidden)]
    pub fault: Option<Fault>,
}

impl Params {
    /// The parameters of a run on `g` from `source`: the source in range, non-negative
    /// weights ([`Error::NegativeWeight`] otherwise), a valid delta (the heuristic's if none).
    pub fn new(g: &Graph, source: u32, opts: &DistOptions) -> Result<Params> {
        crate::reference::check_source(g, source)?;
        g.unsigned_weights(ALGO)?;
        let delta = crate::strategy::Options { delta: opts.delta, ..Default::default() }.delta_for(g)?;
        if delta == 0 {
            return Err(Error::InvalidArgument("the bucket width (delta) must be above 0".into()));
        }
        let cutoff = opts.cutoff.map_or(NO_CUTOFF, |c| c.min(NO_CUTOFF as u64) as u32);
        let hub_arcs = opts.hub_arcs.unwrap_or(sssp_kernels::ranks::RANK_HUB_ARCS).max(1);
        let wide_arcs = opts.wide_arcs.unwrap_or(sssp_kernels::ranks::RANK_WIDE_ARCS).max(1);
        Ok(Params {
            metric: g.metric(),
            delta,
            cutoff,
            source,
            step: opts.step,
            hub_arcs,
            wide_arcs,
            fault: opts.fault,
        })
    }

    /// The bucket of a finite distance (clamped below [`NONE`]).
    #[inline]
    fn bucket_of(&self, d: u32) -> u32 {
        // The device step's function: both steps bin alike.
        sssp_kernels::ranks::bucket(self.metric, d, self.delta)
    }
}

/// What one rank did.
#[derive(Clone, Debug, Default)]
pub struct RankStats {
    /// Vertices owned.
    pub vertices: u64,
    /// Arcs held (the owned vertices' out-arcs).
    pub arcs: u64,
    /// Vertices expanded (a vertex counts once per expansion).
    pub expanded: u64,
    /// Arcs relaxed.
    pub arcs_relaxed: u64,
    /// Candidates sent to other ranks (after combining), over the run; the gather not counted.
    pub items_sent: u64,
    /// Candidates received from other ranks.
    pub items_received: u64,
    /// Bytes sent to other ranks (8 per candidate: a vertex and a distance).
    pub bytes_sent: u64,
    /// Time to copy this rank's slice of the graph (zero where the group kept it from an
    /// earlier solve of the same graph: [`Group`]).
    pub split: Duration,
    /// Time to load the slice on the rank's device (ghosts numbered, arcs uploaded; the device
    /// step only, and zero where the group kept it): the counterpart of the one-GPU engine's
    /// graph upload, reported apart from the solve.
    pub load: Duration,
    /// This rank's solve: its set-up and rounds, up to the gather (the largest over the ranks
    /// is the run's [`Stats::compute`], which so leaves out the distances' way to the caller,
    /// as the one-device engines leave out their download).
    pub solve: Duration,
    /// Time to bring the distances to rank 0 (the device step's download, the gather).
    pub gather: Duration,
    /// Time relaxing and applying received candidates.
    pub relax: Duration,
    /// Time in the exchanges (waiting for the slowest rank included).
    pub exchange: Duration,
    /// Time in the all-reduces (waiting included).
    pub reduce: Duration,
}

/// What a distributed run did, besides [`Stats`].
#[derive(Clone, Debug, Default)]
pub struct DistStats {
    /// Ranks that ran.
    pub ranks: u32,
    /// What they talked through ([`Ranks::transport`]).
    pub transport: &'static str,
    /// Whether the local steps ran on the ranks' devices ([`StepOn::Device`], or `Auto` on
    /// NCCL ranks) rather than their host threads.
    pub on_device: bool,
    /// Rounds (exchanges of candidates), every rank the same.
    pub rounds: u32,
    /// Buckets that had work.
    pub buckets: u32,
    /// The bucket width used.
    pub delta: u32,
    /// Each rank's, in rank order.
    pub per_rank: Vec<RankStats>,
    /// Time to compute the partition's boundaries.
    pub partition: Duration,
}

impl DistStats {
    /// Candidates sent between ranks, over all ranks.
    pub fn items_sent(&self) -> u64 {
        self.per_rank.iter().map(|r| r.items_sent).sum()
    }

    /// Bytes sent between ranks, over all ranks.
    pub fn bytes_sent(&self) -> u64 {
        self.per_rank.iter().map(|r| r.bytes_sent).sum()
    }

    /// The longest time a rank spent in exchanges.
    pub fn exchange_max(&self) -> Duration {
        self.per_rank.iter().map(|r| r.exchange).max().unwrap_or_default()
    }

    /// What this solve spent making the slices (the partition, the copies, the device loads,
    /// each rank's in parallel): zero where the group kept them from an earlier solve.
    pub fn load_time(&self) -> Duration {
        let slowest = |f: fn(&RankStats) -> Duration| self.per_rank.iter().map(f).max().unwrap_or_default();
        self.partition + slowest(|r| r.split) + slowest(|r| r.load)
    }
}

/// A finished distributed run.
#[derive(Clone, Debug)]
pub struct DistSolution {
    /// The distances in vertex order, as every other run returns them ([`Solution::dist`]),
    /// with [`Stats::iterations`] the rounds and [`Stats::compute`] the ranks' wall time.
    pub solution: Solution,
    /// Rounds, buckets and what each rank did and sent.
    pub stats: DistStats,
}

/// What [`run_rank`] returns on each rank.
#[derive(Clone, Debug, Default)]
pub struct RankOutcome {
    /// Rank 0: every distance in vertex order, in the engines' encoding ([`INF`]: unreached);
    /// `None` on the other ranks.
    pub dist: Option<Vec<u32>>,
    /// This rank's counters.
    pub stats: RankStats,
    /// Rounds run (the same on every rank).
    pub rounds: u32,
    /// Buckets that had work (the same on every rank).
    pub buckets: u32,
    /// Arcs relaxed over all ranks.
    pub arcs_relaxed: u64,
    /// Some candidate on some rank did not fit the 32-bit distances (an error only if it was
    /// some vertex's only way: [`Error::DistanceOverflow`], decided on the gathered distances).
    pub overflow: bool,
}

/// A vertex and a candidate distance as one exchanged item: the vertex in the high half, so
/// that sorting orders by vertex, then by distance.
#[inline]
fn pack(v: u32, d: u32) -> u64 {
    (v as u64) << 32 | d as u64
}

/// [`pack`] undone.
#[inline]
fn unpack(x: u64) -> (u32, u32) {
    ((x >> 32) as u32, x as u32)
}

/// Push onto a vector that grows with the input: amortised doubling, failure a typed error.
#[inline]
fn push<T>(v: &mut Vec<T>, x: T) -> Result<()> {
    if v.len() == v.capacity() {
        v.try_reserve(1).map_err(|_| Error::OutOfHostMemory { needed: crate::mem::bytes_of::<T>(v.len() + 1) })?;
    }
    v.push(x);
    Ok(())
}

/// The hasher of the ghost distances' map (keys: vertex ids): one multiply, its high half
/// folded into the low one. The std hasher (SipHash, built against adversarial keys) cost
/// more than the relaxation itself: with half of kron's arcs remote, 2 simulated ranks took
/// 2.5x one rank's time on kron 18 (1,072 ms against 423), most of it hashing.
#[derive(Clone, Copy, Default)]
struct VertexHasher(u64);

impl std::hash::Hasher for VertexHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u32(b as u32);
        }
    }

    #[inline]
    fn write_u32(&mut self, x: u32) {
        // Fibonacci hashing: the golden ratio's odd multiplier spreads consecutive ids.
        let h = (self.0 ^ x as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = h ^ (h >> 32);
    }
}

/// [`VertexHasher`]s for a map.
type Ghosts = HashMap<u32, u32, std::hash::BuildHasherDefault<VertexHasher>>;

/// One rank's bins: its vertices waiting by bucket. A vertex waits in at most one bin
/// (`queued`); leaving one for another leaves a stale entry, which is counted out of the old
/// bin's live entries, and a bin without live entries is dropped (module doc).
struct Bins {
    bins: BTreeMap<u32, Bin>,
    /// Each local vertex's bucket while it waits, else [`NONE`].
    queued: Vec<u32>,
}

#[derive(Default)]
struct Bin {
    items: Vec<u32>,
    live: usize,
}

impl Bins {
    fn new(n: usize) -> Result<Bins> {
        Ok(Bins { bins: BTreeMap::new(), queued: crate::mem::try_vec(n, NONE)? })
    }

    /// Local vertex `v` waits in `bucket` (already there: nothing to do, its distance was
    /// lowered in place).
    fn push(&mut self, v: u32, bucket: u32) -> Result<()> {
        let old = std::mem::replace(&mut self.queued[v as usize], bucket);
        if old == bucket {
            return Ok(());
        }
        if let Some(bin) = self.bins.get_mut(&old) {
            bin.live -= 1;
            if bin.live == 0 {
                self.bins.remove(&old);
            }
        }
        let bin = self.bins.entry(bucket).or_default();
        push(&mut bin.items, v)?;
        bin.live += 1;
        Ok(())
    }

    /// The vertices waiting in `bucket`, no longer waiting.
    fn take(&mut self, bucket: u32) -> Vec<u32> {
        let Some(bin) = self.bins.remove(&bucket) else { return Vec::new() };
        let mut items = bin.items;
        items.retain(|&v| {
            let here = self.queued[v as usize] == bucket;
            if here {
                self.queued[v as usize] = NONE;
            }
            here
        });
        items
    }

    /// The lowest bucket with a waiting vertex, [`NONE`] if none.
    fn lowest(&self) -> u32 {
        self.bins.first_key_value().map_or(NONE, |(&b, _)| b)
    }
}

/// What a rank's local step leaves at the end of a run.
pub(crate) struct Finished {
    /// The owned vertices' distances, in the engines' encoding.
    pub dist: Vec<u32>,
    /// Arcs relaxed.
    pub arcs_relaxed: u64,
    /// Vertices expanded.
    pub expanded: u64,
    /// Some candidate did not fit the 32-bit cells.
    pub overflow: bool,
}

/// One rank's data and its part of a round, on the host ([`HostStep`]) or on a device
/// ([`device::DeviceStep`]); [`run_rounds`] is the control, the same for both. A round is
/// split where its collective lies, so that a rank whose local work failed still takes part
/// in it (sending nothing) and the group learns of the failure at the round's all-reduce,
/// instead of the others waiting in a collective it never reaches (NCCL has no way out of one).
pub(crate) trait LocalStep {
    /// Relax the vertices waiting in bucket `cur` (the first round of a bucket brings them
    /// forward), lowering this rank's heads and readying the candidates for other ranks' heads:
    /// one per vertex, the smallest, none that cannot lower what this rank sent before.
    fn relax(&mut self, cur: u32) -> Result<()>;
    /// Send what [`relax`](Self::relax) readied to the owners through `comm` (nothing where
    /// `send` is false: this rank failed this round) and take what the others sent: the
    /// round's collective, which every rank makes. Counts the items into `stats`.
    fn exchange<C: Communicator>(&mut self, comm: &mut C, send: bool, stats: &mut RankStats) -> Result<()>;
    /// Apply what the others sent.
    fn apply(&mut self) -> Result<()>;
    /// The lowest bucket with a waiting vertex ([`NONE`]: none).
    fn lowest(&mut self) -> Result<u32>;
    /// The owned distances and the run's counts.
    fn finish(&mut self) -> Result<Finished>;
}

/// One rank's run state on the host: distances and bins in host memory, the relaxation on the
/// rank's thread.
struct HostStep<'a> {
    local: &'a LocalGraph,
    me: usize,
    partition: &'a Partition,
    params: Params,
    /// Distances of the owned vertices, in the engines' encoding.
    dist: Vec<u32>,
    bins: Bins,
    /// The smallest candidate sent so far to each remote head (module doc).
    sent: Ghosts,
    /// A round's candidates by destination rank, and what arrives.
    outboxes: Vec<Vec<u64>>,
    inbox: Vec<u64>,
    overflow: bool,
    expanded: u64,
    arcs_relaxed: u64,
}

impl<'a> HostStep<'a> {
    /// Rank `me`'s slice `local`, its source (if it owns it) at 0 and binned.
    fn new(local: &'a LocalGraph, partition: &'a Partition, me: usize, params: Params) -> Result<Self> {
        let n = local.num_vertices();
        let mut step = HostStep {
            local,
            me,
            partition,
            params,
            dist: crate::mem::try_vec(n, INF)?,
            bins: Bins::new(n)?,
            sent: Ghosts::default(),
            outboxes: vec![Vec::new(); partition.parts()],
            inbox: Vec::new(),
            overflow: false,
            expanded: 0,
            arcs_relaxed: 0,
        };
        if partition.owner(params.source) == me {
            step.lower(params.source - local.first(), params.metric.zero())?;
        }
        Ok(step)
    }

    /// Lower local vertex `v` to `d` if that is lower, and bin it.
    #[inline]
    fn lower(&mut self, v: u32, d: u32) -> Result<()> {
        if d < self.dist[v as usize] {
            self.dist[v as usize] = d;
            self.bins.push(v, self.params.bucket_of(d))?;
        }
        Ok(())
    }
}

impl LocalStep for HostStep<'_> {
    /// Local heads lowered in place, remote ones into their owners' outboxes unless no smaller
    /// than what was sent; then each outbox down to one candidate per vertex, the smallest.
    fn relax(&mut self, cur: u32) -> Result<()> {
        let frontier = self.bins.take(cur);
        let (first, n) = (self.local.first(), self.local.num_vertices() as u32);
        self.expanded += frontier.len() as u64;
        for u in frontier {
            let du = self.dist[u as usize];
            let (heads, weights) = self.local.arcs(u);
            self.arcs_relaxed += heads.len() as u64;
            for (&h, &w) in heads.iter().zip(weights) {
                let c = match through(self.params.metric, du, w, self.params.cutoff) {
                    Through::Candidate(c) => c,
                    Through::Beyond => continue,
                    Through::Overflow => {
                        self.overflow = true;
                        continue;
                    }
                };
                let local = h.wrapping_sub(first);
                if local < n {
                    self.lower(local, c)?;
                    continue;
                }
                let better = match self.sent.get(&h) {
                    Some(&s) => c < s,
                    None => {
                        self.sent.try_reserve(1).map_err(|_| Error::OutOfHostMemory {
                            needed: crate::mem::bytes_of::<(u32, u32)>(self.sent.len() + 1),
                        })?;
                        true
                    }
                };
                if better {
                    self.sent.insert(h, c);
                    push(&mut self.outboxes[self.partition.owner(h)], pack(h, c))?;
                }
            }
        }
        for out in &mut self.outboxes {
            out.sort_unstable();
            // Sorted by vertex, then distance: the first of a vertex's run is its smallest.
            out.dedup_by(|later, first| *later >> 32 == *first >> 32);
        }
        Ok(())
    }

    fn exchange<C: Communicator>(&mut self, comm: &mut C, send: bool, stats: &mut RankStats) -> Result<()> {
        if !send {
            self.outboxes.iter_mut().for_each(Vec::clear);
        }
        stats.items_sent +=
            self.outboxes.iter().enumerate().filter(|&(d, _)| d != self.me).map(|(_, o)| o.len() as u64).sum::<u64>();
        comm.exchange(&self.outboxes, &mut self.inbox)?;
        self.outboxes.iter_mut().for_each(Vec::clear);
        stats.items_received += self.inbox.len() as u64;
        Ok(())
    }

    /// The received candidates applied, each checked to name a vertex of this rank.
    fn apply(&mut self) -> Result<()> {
        let inbox = std::mem::take(&mut self.inbox);
        for &item in &inbox {
            let (v, d) = unpack(item);
            self.lower(owned_id(self.me, self.local, v)?, d)?;
        }
        self.inbox = inbox;
        Ok(())
    }

    fn lowest(&mut self) -> Result<u32> {
        Ok(self.bins.lowest())
    }

    fn finish(&mut self) -> Result<Finished> {
        Ok(Finished {
            dist: std::mem::take(&mut self.dist),
            arcs_relaxed: self.arcs_relaxed,
            expanded: self.expanded,
            overflow: self.overflow,
        })
    }
}

/// One rank's whole run (SPMD: every rank of `comm`'s group calls it, each with its own slice
/// `local` of the same partition and the same `params`), its local step on the host thread.
/// The module doc has the round protocol. Rank 0's outcome holds every distance in vertex
/// order.
///
/// [`solve`] drives it on threads; a program with its own group of ranks (its own
/// [`Communicator`], each rank loading only its slice) calls it on every rank:
///
/// ```
/// use sssp::distributed::{run_rank, DistOptions, InProcess, LocalGraph, Params, Partition};
///
/// let g = sssp::graph::Graph::from_arcs(4, &[(0, 1, 5), (1, 2, 1), (0, 2, 9), (2, 3, 2)])?;
/// let (partition, params) = (Partition::balanced(&g, 2)?, Params::new(&g, 0, &DistOptions::default())?);
/// let weights = g.unsigned_weights("example")?;
/// let rank0 = std::thread::scope(|s| {
///     let ranks: Vec<_> = InProcess::group(2)
///         .into_iter()
///         .enumerate()
///         .map(|(r, mut comm)| {
///             let (g, partition) = (&g, &partition);
///             s.spawn(move || {
///                 let local = LocalGraph::of(g, weights, partition.range(r))?;
///                 run_rank(&local, partition, &mut comm, params)
///             })
///         })
///         .collect();
///     ranks.into_iter().map(|h| h.join().unwrap()).collect::<Result<Vec<_>, _>>()
/// })?;
/// assert_eq!(rank0[0].dist, Some(vec![0, 5, 6, 8]));
/// # Ok::<(), sssp::Error>(())
/// ```
pub fn run_rank<C: Communicator>(
    local: &LocalGraph,
    partition: &Partition,
    comm: &mut C,
    params: Params,
) -> Result<RankOutcome> {
    run_rank_with(Ok(None), local, partition, comm, params)
}

/// [`run_rank`] with the local step on a device (its [`device::DeviceSlice`] of `local`, or the
/// error that loading it met), or on the host thread; timed as [`RankStats::solve`] (the step's
/// set-up and the rounds) and [`RankStats::gather`].
fn run_rank_with<C: Communicator>(
    dev: Result<Option<(&dyn Device, &mut device::DeviceSlice)>>,
    local: &LocalGraph,
    partition: &Partition,
    comm: &mut C,
    params: Params,
) -> Result<RankOutcome> {
    let dev = check_slice(local, partition, comm).and(dev);
    let (me, p) = (comm.rank(), comm.size());
    // Every rank ready before the clock starts, and every rank told whether all are: one
    // collective per solve. Ranks load their slices side by side, and the first solve after a
    // load counted the slowest load in the others' first collective (up to 1.8 s of kron 27's
    // first solve on four H100s). A rank that could not load its slice (out of device memory)
    // makes every rank return here, instead of leaving the others waiting in a round's
    // collective (NCCL ranks have no abort path). The same sum tells each rank how many
    // ghosts of its vertices the others hold: the most items one round can bring it, so the
    // device step sizes its inbox once, before the rounds, and no round allocates.
    let mut setup = vec![0u64; 1 + p];
    setup[0] = dev.is_err() as u64;
    if let Ok(Some((_, slice))) = &dev {
        // (A slice of another rank count is refused when the step is made, below.)
        let by_owner = slice.ghosts_by_owner();
        if by_owner.len() == p {
            setup[1..].copy_from_slice(&by_owner);
        }
    }
    comm.all_reduce(&mut setup, Reduce::Sum)?;
    let dev = dev?;
    if setup[0] != 0 {
        return Err(Error::Communication(format!(
            "rank {me} stops: another rank could not set up its part of the solve"
        )));
    }
    let injected = params.fault_at(me, FaultAt::SetUp);
    let t = Instant::now();
    let mut outcome = match dev {
        Some((dev, slice)) => {
            let step = device::DeviceStep::new(dev, slice, partition, me, params, setup[1 + me] as usize);
            run_rounds(injected.map_or(step, Err), local, partition, comm, params)
        }
        None => {
            let step = HostStep::new(local, partition, me, params);
            run_rounds(injected.map_or(step, Err), local, partition, comm, params)
        }
    }?;
    outcome.stats.solve = t.elapsed().saturating_sub(outcome.stats.gather);
    Ok(outcome)
}

/// A rank's part of a graph, kept by a [`Group`] between solves of that graph: its slice and,
/// once a device step has run on it, the slice loaded on the rank's device.
pub(crate) struct RankSlice {
    local: LocalGraph,
    on_device: Option<device::DeviceSlice>,
}

impl RankSlice {
    fn new(local: LocalGraph) -> RankSlice {
        RankSlice { local, on_device: None }
    }

    /// One solve on this slice: loaded on `dev` first if it is not yet (timed as
    /// [`RankStats::load`]), then [`run_rank_with`].
    fn run<C: Communicator>(
        &mut self,
        dev: Option<&dyn Device>,
        partition: &Partition,
        comm: &mut C,
        params: Params,
    ) -> Result<RankOutcome> {
        let mut load = Duration::ZERO;
        // A failed load is handed on, not returned: every rank must reach the solve's first
        // collective (`run_rank_with`), where all learn of it.
        let on = match dev {
            Some(dev) => {
                let slice = match &mut self.on_device {
                    Some(slice) => Ok(slice),
                    none => {
                        let t = Instant::now();
                        let slice = device::DeviceSlice::load(dev, &self.local, partition).map(|s| none.insert(s));
                        load = t.elapsed();
                        slice
                    }
                };
                slice.map(|s| Some((dev, s)))
            }
            None => Ok(None),
        };
        let mut outcome = run_rank_with(on, &self.local, partition, comm, params)?;
        outcome.stats.load = load;
        Ok(outcome)
    }
}

/// `local` is `comm`'s rank's slice of `partition`, which has as many parts as the group.
fn check_slice<C: Communicator>(local: &LocalGraph, partition: &Partition, comm: &C) -> Result<()> {
    let (me, p) = (comm.rank(), comm.size());
    if partition.parts() != p || partition.range(me).start != local.first() {
        return Err(Error::InvalidArgument(format!(
            "rank {me} of {p} was given the slice at vertex {} of a partition in {} parts",
            local.first(),
            partition.parts()
        )));
    }
    Ok(())
}

/// The round protocol (module doc) over any local step (or the error its set-up met): relax,
/// exchange, apply, agree on the next bucket; then the totals and the gather.
///
/// A rank whose own work fails (its step's set-up, a round's relaxation or application, the
/// next bucket's lookup, the finish) keeps making the collectives the others make until the
/// next agreement, where the failure travels with its answer (a flag beside the lowest bucket,
/// or beside the totals), and every rank returns: the failing one its error, the others
/// [`Error::Communication`]. Only a failing collective ends a rank at once (its transport is
/// broken then, and the others' collectives fail too).
fn run_rounds<C: Communicator, S: LocalStep>(
    step: Result<S>,
    local: &LocalGraph,
    partition: &Partition,
    comm: &mut C,
    params: Params,
) -> Result<RankOutcome> {
    let me = comm.rank();
    let mut stats =
        RankStats { vertices: local.num_vertices() as u64, arcs: local.num_arcs() as u64, ..RankStats::default() };
    let (mut rounds, mut buckets, mut last) = (0u32, 0u32, NONE);
    let mut step = match step {
        Ok(step) => step,
        Err(e) => return Err(agree(comm, Err(e), &mut stats).expect_err("a failure is never agreed away")),
    };
    let mut cur = agree(comm, step.lowest(), &mut stats)?;
    while cur != NONE {
        rounds += 1;
        if cur != last {
            buckets += 1;
            last = cur;
        }
        let t = Instant::now();
        let mut failed = step.relax(cur).err().or_else(|| params.fault_at(me, FaultAt::Round(rounds)));
        stats.relax += t.elapsed();
        let t = Instant::now();
        if let Err(e) = step.exchange(comm, failed.is_none(), &mut stats) {
            return Err(failed.unwrap_or(e));
        }
        stats.exchange += t.elapsed();
        let t = Instant::now();
        if failed.is_none() {
            failed = step.apply().err();
        }
        stats.relax += t.elapsed();
        let lowest = match failed {
            Some(e) => Err(e),
            None => step.lowest(),
        };
        cur = agree(comm, lowest, &mut stats)?;
    }
    let t = Instant::now();
    let done = match params.fault_at(me, FaultAt::Finish) {
        Some(e) => Err(e),
        None => step.finish(),
    };
    let (arcs, overflow) = done.as_ref().map_or((0, false), |d| (d.arcs_relaxed, d.overflow));
    let mut totals = [arcs, overflow as u64, done.is_err() as u64];
    let reduced = comm.all_reduce(&mut totals, Reduce::Sum);
    let done = done?;
    reduced?;
    if totals[2] != 0 {
        return Err(Error::Communication(format!("rank {me} stops: another rank could not finish the solve")));
    }
    stats.expanded = done.expanded;
    stats.arcs_relaxed = done.arcs_relaxed;
    stats.bytes_sent = stats.items_sent * std::mem::size_of::<u64>() as u64;
    let dist = gather(comm, &done.dist, partition)?;
    stats.gather = t.elapsed();
    Ok(RankOutcome { dist, stats, rounds, buckets, arcs_relaxed: totals[0], overflow: totals[1] > 0 })
}

/// The round's agreement: the lowest bucket with work on any rank ([`NONE`]: none anywhere),
/// or, where some rank failed (`lowest` is this rank's failure, or another's flag arrives
/// beside the minimum), the failure: this rank's own error, else [`Error::Communication`].
fn agree<C: Communicator>(comm: &mut C, lowest: Result<u32>, stats: &mut RankStats) -> Result<u32> {
    let t = Instant::now();
    // A minimum of both: the lowest bucket, and 0 where any rank failed (1: this one did not).
    let mut values = [*lowest.as_ref().unwrap_or(&NONE) as u64, lowest.is_ok() as u64];
    let reduced = comm.all_reduce(&mut values, Reduce::Min);
    stats.reduce += t.elapsed();
    let lowest = lowest?;
    reduced?;
    if values[1] == 0 {
        return Err(Error::Communication(format!("rank {} stops: another rank failed during the solve", comm.rank())));
    }
    debug_assert!(values[0] <= lowest as u64);
    Ok(values[0] as u32)
}

/// The local id of vertex `v` in rank `me`'s slice `local`, or [`Error::Communication`]: a
/// received candidate must name a vertex of this rank.
fn owned_id(me: usize, local: &LocalGraph, v: u32) -> Result<u32> {
    let l = v.wrapping_sub(local.first());
    if l < local.num_vertices() as u32 {
        Ok(l)
    } else {
        Err(Error::Communication(format!("rank {me} received a candidate for vertex {v}, which it does not own")))
    }
}

/// Every rank's distances to rank 0, which receives them in rank order: vertex order.
fn gather<C: Communicator>(comm: &mut C, dist: &[u32], partition: &Partition) -> Result<Option<Vec<u32>>> {
    use rayon::prelude::*;
    // Two distances to an item: half the items and bytes of one each.
    let pair = |c: &[u32]| c[0] as u64 | (c.get(1).copied().unwrap_or(0) as u64) << 32;
    let mut outboxes = vec![Vec::new(); comm.size()];
    crate::mem::reserve(&mut outboxes[0], dist.len().div_ceil(2))?;
    outboxes[0].par_extend(dist.par_chunks(2).map(pair));
    let mut inbox = Vec::new();
    comm.exchange(&outboxes, &mut inbox)?;
    drop(outboxes);
    if comm.rank() != 0 {
        return Ok(None);
    }
    // The inbox holds the ranks' items in rank order, each rank's ceil(len / 2).
    let lens: Vec<usize> = (0..partition.parts()).map(|r| partition.range(r).len()).collect();
    let items: usize = lens.iter().map(|l| l.div_ceil(2)).sum();
    if inbox.len() != items {
        return Err(Error::Communication(format!("rank 0 gathered {} items of distances, not {items}", inbox.len())));
    }
    let n = lens.iter().sum();
    let mut all = crate::mem::try_vec(n, 0u32)?;
    let (mut from, mut at) = (0, 0);
    for len in lens {
        let (src, dst) = (&inbox[from..from + len.div_ceil(2)], &mut all[at..at + len]);
        dst.par_chunks_mut(2).zip(src.par_iter()).for_each(|(d, &x)| {
            d[0] = x as u32;
            if let Some(hi) = d.get_mut(1) {
                *hi = (x >> 32) as u32;
            }
        });
        (from, at) = (from + len.div_ceil(2), at + len);
    }
    Ok(Some(all))
}

/// Shortest distances from `source` on `ranks` ranks: `g` split by [`Partition::balanced`],
/// each rank on its own thread running [`run_rank`] on its slice, the distances gathered in
/// vertex order. Exact for non-negative weights (integers or reals); the module doc has the
/// algorithm and why it ends exactly. The ranks are set up for this one solve: for several,
/// keep a [`Group`] (NCCL's set-up takes seconds).
///
/// Errors: [`Error::VertexOutOfRange`] for the source, [`Error::NegativeWeight`],
/// [`Error::InvalidArgument`] for a count of ranks outside `1..=`[`MAX_RANKS`], a bad delta,
/// or NCCL ranks without the `nccl` feature; [`Error::DistanceOverflow`] as elsewhere; on NCCL
/// ranks [`Error::NoGpu`] when there are fewer GPUs than ranks or no NCCL library.
///
/// ```
/// use sssp::distributed::{solve, DistOptions, Ranks};
/// use sssp::generate::{generate, GenSpec};
///
/// let g = generate(&GenSpec::parse("grid2d:8x8")?, 1, sssp::WeightSpec::AsGiven)?;
/// let run = solve(&g, 0, Ranks::Simulated(3), &DistOptions::default())?;
/// assert_eq!(run.solution.dist, sssp::reference::dijkstra(&g, 0)?);
/// assert!(run.stats.rounds >= run.stats.buckets && run.stats.items_sent() > 0);
/// # Ok::<(), sssp::Error>(())
/// ```
pub fn solve(g: &Graph, source: u32, ranks: Ranks, opts: &DistOptions) -> Result<DistSolution> {
    check_count(ranks.count())?;
    // The arguments first: a group of NCCL ranks takes seconds to set up.
    let params = Params::new(g, source, opts)?;
    Group::new(ranks)?.run(g, params)
}

/// A count of ranks outside `1..=`[`MAX_RANKS`] as a typed error.
fn check_count(p: usize) -> Result<()> {
    if !(1..=MAX_RANKS).contains(&p) {
        return Err(Error::InvalidArgument(format!("{p} ranks: a distributed run takes 1 to {MAX_RANKS}")));
    }
    Ok(())
}

/// Ranks set up once for any number of solves, on any graphs. Simulated ranks cost nothing
/// to keep (their threads start per solve); NCCL ranks keep a thread and a communicator per
/// GPU, whose set-up (the CUDA contexts, NCCL's bootstrap) is [`Group::setup_time`], paid
/// here once rather than in each solve's time.
///
/// The ranks also keep their slices of the last graph solved (copies of its arcs: 8 bytes an
/// arc on the host, and as much again on the devices for the device step), so that the next
/// query on that graph pays only its rounds; solving another graph replaces them, dropping
/// the group frees them. [`DistStats::load_time`] says what a solve spent making them.
///
/// ```
/// use sssp::distributed::{DistOptions, Group, Ranks};
/// use sssp::generate::{generate, GenSpec};
///
/// let g = generate(&GenSpec::parse("road:500")?, 1, sssp::WeightSpec::AsGiven)?;
/// let mut ranks = Group::new(Ranks::Simulated(2))?;
/// for source in [0, 7, 99] {
///     let run = ranks.solve(&g, source, &DistOptions::default())?;
///     assert_eq!(run.solution.dist, sssp::reference::dijkstra(&g, source)?);
/// }
/// # Ok::<(), sssp::Error>(())
/// ```
pub struct Group {
    ranks: Ranks,
    setup: Duration,
    transport: Transport,
    /// The graph whose slices the ranks hold, if any.
    resident: Option<Resident>,
}

/// The graph a [`Group`]'s ranks hold, kept between solves so that a query pays only its
/// rounds: the partition, and each rank's [`RankSlice`] (here for simulated ranks; NCCL ranks
/// keep theirs on their threads). Known by [`Graph::id`], which no other graph ever has, and
/// made again when the graph or the kind of local step changes.
struct Resident {
    graph: u64,
    on_device: bool,
    partition: std::sync::Arc<Partition>,
    /// Simulated ranks' slices, in rank order (empty on NCCL ranks).
    slices: Vec<RankSlice>,
    /// Simulated ranks' CPU devices for the device step (the slices' buffers live on them).
    cpus: Vec<crate::device::cpu::CpuDevice>,
}

/// What a [`Group`] keeps between solves.
enum Transport {
    Simulated,
    /// One device per rank, all on GPU 0.
    SimulatedOnGpu(Vec<crate::device::cuda::CudaDevice>),
    #[cfg(feature = "nccl")]
    Nccl(nccl::NcclGroup),
}

impl Group {
    /// Set up `ranks`. Errors: [`Error::InvalidArgument`] for a count outside
    /// `1..=`[`MAX_RANKS`] or NCCL ranks without the `nccl` feature; [`Error::NoGpu`] when
    /// this host cannot run that many NCCL ranks.
    pub fn new(ranks: Ranks) -> Result<Group> {
        check_count(ranks.count())?;
        let t = Instant::now();
        let transport = match ranks {
            Ranks::Simulated(_) => Transport::Simulated,
            Ranks::Nccl(p) => nccl_transport(p)?,
            Ranks::SimulatedOnGpu(p) => {
                let ctx = crate::device::cuda::open_context()?;
                let devices = (0..p)
                    .map(|_| crate::device::cuda::CudaDevice::on_stream(ctx.new_stream()?))
                    .collect::<Result<Vec<_>>>()?;
                Transport::SimulatedOnGpu(devices)
            }
        };
        Ok(Group { ranks, setup: t.elapsed(), transport, resident: None })
    }

    /// The ranks this group runs on.
    pub fn ranks(&self) -> Ranks {
        self.ranks
    }

    /// How long [`Group::new`] took (NCCL's set-up; near zero for simulated ranks).
    pub fn setup_time(&self) -> Duration {
        self.setup
    }

    /// [`solve`] on this group's ranks, with the same errors but those of the set-up; after
    /// a failed solve on NCCL ranks the group refuses further solves
    /// ([`Error::Communication`]): make a new one.
    pub fn solve(&mut self, g: &Graph, source: u32, opts: &DistOptions) -> Result<DistSolution> {
        let params = Params::new(g, source, opts)?;
        self.run(g, params)
    }

    /// Partition, slice and load (unless the ranks hold `g` already), run every rank, gather:
    /// one solve.
    fn run(&mut self, g: &Graph, params: Params) -> Result<DistSolution> {
        let p = self.ranks.count();
        let on_device = params.step.on_device(self.ranks);
        let kept = self.resident.as_ref().is_some_and(|r| r.graph == g.id() && r.on_device == on_device);
        // Fresh slices, where the ranks do not hold this graph: the old ones go first (their
        // device memory with them).
        let mut fresh: Option<Vec<LocalGraph>> = None;
        let (mut partition_time, mut splits) = (Duration::ZERO, vec![Duration::ZERO; p]);
        if !kept {
            self.resident = None;
            let weights = g.unsigned_weights(ALGO)?;
            let t = Instant::now();
            let partition = Partition::balanced(g, p)?;
            partition_time = t.elapsed();
            let locals;
            (locals, splits) = slices(g, weights, &partition)?.into_iter().unzip();
            fresh = Some(locals);
            self.resident = Some(Resident {
                graph: g.id(),
                on_device,
                partition: std::sync::Arc::new(partition),
                slices: Vec::new(),
                cpus: Vec::new(),
            });
        }
        let resident = self.resident.as_mut().expect("made above");
        let on_cpus = on_device && matches!(self.transport, Transport::Simulated);
        let outcomes = match &mut self.transport {
            Transport::Simulated | Transport::SimulatedOnGpu(_) => {
                if let Some(locals) = fresh {
                    resident.slices = locals.into_iter().map(RankSlice::new).collect();
                    if on_cpus {
                        resident.cpus = (0..p).map(|_| crate::device::cpu::CpuDevice::new()).collect();
                    }
                }
                // Each rank's device, if the steps run on one: its stream on GPU 0, or a CPU
                // backend's device of its own.
                let devices: Vec<Option<&dyn Device>> = match &self.transport {
                    Transport::SimulatedOnGpu(gpu) if on_device => gpu.iter().map(|d| Some(d as &dyn Device)).collect(),
                    _ if on_device => resident.cpus.iter().map(|d| Some(d as &dyn Device)).collect(),
                    _ => vec![None; p],
                };
                let partition = &*resident.partition;
                let jobs: Vec<_> = InProcess::group(p)
                    .into_iter()
                    .zip(resident.slices.iter_mut())
                    .zip(devices)
                    .map(|((mut comm, slice), dev)| move || slice.run(dev, partition, &mut comm, params))
                    .collect();
                on_threads(jobs)
            }
            #[cfg(feature = "nccl")]
            Transport::Nccl(group) => {
                let mut fresh = fresh.map(|locals| locals.into_iter().map(Some).collect::<Vec<_>>());
                let jobs = (0..p)
                    .map(|r| {
                        let partition = resident.partition.clone();
                        let local = fresh.as_mut().and_then(|l| l[r].take());
                        Box::new(move |comm: &mut nccl::Nccl| {
                            let dev = if on_device { Some(comm.device()?) } else { None };
                            comm.run_on_slice(local, |slice, comm| {
                                slice.run(dev.as_deref().map(|d| d as &dyn Device), &partition, comm, params)
                            })
                        }) as nccl::Job
                    })
                    .collect();
                group.run(jobs)
            }
        };
        // A failed solve may leave some ranks' slices half made: the next one starts afresh.
        let outcomes = outcomes.inspect_err(|_| self.resident = None)?;
        let first = outcomes.first().cloned().unwrap_or_default();
        let raw = first.dist.ok_or_else(|| Error::Communication("rank 0 gathered no distances".into()))?;
        let stats = Stats {
            compute: outcomes.iter().map(|o| o.stats.solve).max().unwrap_or_default(),
            arcs_relaxed: first.arcs_relaxed,
            vertices_processed: outcomes.iter().map(|o| o.stats.expanded).sum(),
            iterations: first.rounds,
            delta: Some(params.delta),
            host_threads: p as u32,
            ..Stats::default()
        };
        let solution = crate::strategy::finish_host(g, raw, first.overflow, stats)?;
        let per_rank = outcomes.into_iter().zip(splits).map(|(o, split)| RankStats { split, ..o.stats }).collect();
        let stats = DistStats {
            ranks: p as u32,
            transport: self.ranks.transport(),
            on_device,
            rounds: first.rounds,
            buckets: first.buckets,
            delta: params.delta,
            per_rank,
            partition: partition_time,
        };
        Ok(DistSolution { solution, stats })
    }
}

/// Every rank's slice of `g` ([`LocalGraph::of`]) and the time it took, made in parallel.
fn slices(g: &Graph, weights: &[u32], partition: &Partition) -> Result<Vec<(LocalGraph, Duration)>> {
    use rayon::prelude::*;
    (0..partition.parts())
        .into_par_iter()
        .map(|r| {
            let t = Instant::now();
            LocalGraph::of(g, weights, partition.range(r)).map(|local| (local, t.elapsed()))
        })
        .collect()
}

/// Run each job on a thread of its own (they wait for one another in the collectives), and
/// return their results in order ([`first_cause`]); a panic is resumed here.
fn on_threads<T: Send>(jobs: Vec<impl FnOnce() -> Result<T> + Send>) -> Result<Vec<T>> {
    let results: Vec<Result<T>> = std::thread::scope(|s| {
        let handles: Vec<_> = jobs.into_iter().map(|job| s.spawn(job)).collect();
        handles.into_iter().map(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))).collect()
    });
    first_cause(results)
}

/// The ranks' results in order, or, when some failed, the first error that is not another
/// rank's [`Error::Communication`] (the cause, not the ranks that could no longer talk to it).
fn first_cause<T>(results: Vec<Result<T>>) -> Result<Vec<T>> {
    let mut errors: Vec<Error> = Vec::new();
    let mut oks = Vec::with_capacity(results.len());
    for r in results {
        match r {
            Ok(x) => oks.push(x),
            Err(e) => errors.push(e),
        }
    }
    match errors.iter().position(|e| !matches!(e, Error::Communication(_))) {
        Some(i) => Err(errors.swap_remove(i)),
        None => match errors.into_iter().next() {
            Some(e) => Err(e),
            None => Ok(oks),
        },
    }
}

/// [`Ranks::Nccl`]: a group of NCCL ranks ([`nccl::NcclGroup`]).
#[cfg(feature = "nccl")]
fn nccl_transport(p: usize) -> Result<Transport> {
    nccl::NcclGroup::new(p).map(Transport::Nccl)
}

/// [`Ranks::Nccl`] without the `nccl` feature: what is needed.
#[cfg(not(feature = "nccl"))]
fn nccl_transport(_: usize) -> Result<Transport> {
    Err(Error::InvalidArgument(
        "NCCL ranks need a build with the `nccl` feature (the library: cargo build -p sssp \
         --features nccl; the sssp command: cargo build -p sssp-cli --features nccl); simulated \
         ranks (--device cpu) run the same algorithm on the CPU"
            .into(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{generate, GenSpec};
    use crate::WeightSpec;

    #[test]
    fn packing_orders_by_vertex_then_distance() {
        assert_eq!(unpack(pack(7, u32::MAX)), (7, u32::MAX));
        assert!(pack(1, u32::MAX) < pack(2, 0));
        assert!(pack(2, 3) < pack(2, 4));
    }

    #[test]
    fn candidates_for_vertices_a_rank_does_not_own_are_typed_errors() {
        let g = Graph::from_arcs(6, &[(0, 1, 1), (2, 3, 1), (4, 5, 1)]).unwrap();
        let local = LocalGraph::of(&g, g.unsigned_weights("test").unwrap(), 2..4).unwrap();
        assert_eq!((owned_id(1, &local, 2).unwrap(), owned_id(1, &local, 3).unwrap()), (0, 1));
        for v in [1, 4, u32::MAX] {
            let e = owned_id(1, &local, v);
            assert!(matches!(e, Err(Error::Communication(m)) if m.contains(&format!("vertex {v}"))), "vertex {v}");
        }
    }

    #[test]
    fn a_vertex_waits_in_one_bin_and_empty_bins_go() {
        let mut b = Bins::new(4).unwrap();
        b.push(0, 5).unwrap();
        b.push(1, 5).unwrap();
        b.push(0, 3).unwrap();
        b.push(0, 3).unwrap();
        assert_eq!(b.lowest(), 3);
        assert_eq!(b.take(3), vec![0]);
        assert_eq!(b.lowest(), 5);
        b.push(1, 4).unwrap();
        // Bin 5 held 0 (moved to 3) and 1 (moved to 4): no live entry left.
        assert_eq!(b.lowest(), 4);
        assert_eq!(b.take(5), Vec::<u32>::new());
        assert_eq!(b.take(4), vec![1]);
        assert_eq!(b.lowest(), NONE);
    }

    #[test]
    fn ranks_match_dijkstra_on_a_road_graph() {
        let g = generate(&GenSpec::parse("road:2000").unwrap(), 3, WeightSpec::AsGiven).unwrap();
        let want = crate::reference::dijkstra(&g, 5).unwrap();
        for p in [1, 2, 5] {
            let run = solve(&g, 5, Ranks::Simulated(p), &DistOptions::default()).unwrap();
            assert_eq!(run.solution.dist, want, "{p} ranks");
            assert_eq!(run.stats.per_rank.len(), p);
            assert_eq!(run.stats.items_sent() == 0, p == 1);
        }
    }

    #[test]
    fn a_rank_that_cannot_set_up_stops_every_rank_at_the_first_collective() {
        // Rank 0's slice "did not fit its device": rank 0 returns that error, rank 1 learns of
        // it in the solve's first collective and stops (on NCCL ranks it would otherwise wait
        // in a round's collective for ever).
        let g = generate(&GenSpec::parse("road:500").unwrap(), 3, WeightSpec::AsGiven).unwrap();
        let (partition, params) =
            (Partition::balanced(&g, 2).unwrap(), Params::new(&g, 0, &DistOptions::default()).unwrap());
        let weights = g.unsigned_weights("test").unwrap();
        let outcomes: Vec<Result<RankOutcome>> = std::thread::scope(|s| {
            let ranks: Vec<_> = InProcess::group(2)
                .into_iter()
                .enumerate()
                .map(|(r, mut comm)| {
                    let (g, partition) = (&g, &partition);
                    s.spawn(move || {
                        let local = LocalGraph::of(g, weights, partition.range(r))?;
                        let dev = match r {
                            0 => Err(Error::OutOfDeviceMemory { device: "test".into(), needed: 1 << 40, available: 0 }),
                            _ => Ok(None),
                        };
                        run_rank_with(dev, &local, partition, &mut comm, params)
                    })
                })
                .collect();
            ranks.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert!(matches!(outcomes[0], Err(Error::OutOfDeviceMemory { .. })), "{:?}", outcomes[0].as_ref().err());
        match &outcomes[1] {
            Err(Error::Communication(m)) => assert!(m.contains("another rank could not set up"), "{m}"),
            other => panic!("rank 1: {:?}", other.as_ref().err()),
        }
        assert!(matches!(first_cause(outcomes), Err(Error::OutOfDeviceMemory { .. })));
    }

    /// A rank whose own work fails (a fault injected at its step's set-up, after some round's
    /// relaxation, at the finish) returns that error, and every other rank returns
    /// [`Error::Communication`] saying another rank failed: they learn of it in the
    /// collectives they make anyway (the round's agreement, the totals), not by the failing
    /// rank leaving the group, which NCCL ranks cannot see. Host and device steps (the CPU
    /// backend's devices), 1 to 4 ranks, the failing rank first and last.
    #[test]
    fn a_rank_that_fails_stops_every_rank_at_the_next_agreement() {
        let g = &generate(&GenSpec::parse("kron:9").unwrap(), 4, WeightSpec::AsGiven).unwrap();
        let weights = g.unsigned_weights("test").unwrap();
        let plain = solve(g, 1, Ranks::Simulated(2), &DistOptions::default()).unwrap();
        assert!(plain.stats.rounds >= 3, "the faults below strike within the run: {} rounds", plain.stats.rounds);
        for p in 1..=4usize {
            let partition = Partition::balanced(g, p).unwrap();
            for on_device in [false, true] {
                let devices: Vec<_> = (0..p).map(|_| crate::device::cpu::CpuDevice::new()).collect();
                for at in [FaultAt::SetUp, FaultAt::Round(1), FaultAt::Round(3), FaultAt::Finish] {
                    for rank in [0, p as u32 - 1] {
                        let fault = Fault { rank, at };
                        let opts = DistOptions { fault: Some(fault), ..DistOptions::default() };
                        let params = Params::new(g, 1, &opts).unwrap();
                        let what = format!("{p} ranks, device step {on_device}, {fault:?}");
                        let outcomes: Vec<Result<RankOutcome>> = std::thread::scope(|s| {
                            let ranks: Vec<_> = InProcess::group(p)
                                .into_iter()
                                .zip(&devices)
                                .enumerate()
                                .map(|(r, (mut comm, dev))| {
                                    let partition = &partition;
                                    s.spawn(move || {
                                        let local = LocalGraph::of(g, weights, partition.range(r))?;
                                        if !on_device {
                                            return run_rank(&local, partition, &mut comm, params);
                                        }
                                        let mut slice = device::DeviceSlice::load(dev, &local, partition)?;
                                        run_rank_with(Ok(Some((dev, &mut slice))), &local, partition, &mut comm, params)
                                    })
                                })
                                .collect();
                            ranks.into_iter().map(|h| h.join().unwrap()).collect()
                        });
                        for (r, outcome) in outcomes.iter().enumerate() {
                            match outcome {
                                Err(e) if r == rank as usize => {
                                    assert_eq!(e.to_string(), fault.error().to_string(), "{what}: rank {r}")
                                }
                                Err(Error::Communication(m)) => {
                                    assert!(m.contains("another rank"), "{what}: rank {r}: {m}")
                                }
                                other => panic!("{what}: rank {r}: {:?}", other.as_ref().err()),
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn bad_arguments_are_typed_errors() {
        let g = generate(&GenSpec::parse("path:5").unwrap(), 1, WeightSpec::AsGiven).unwrap();
        let o = DistOptions::default();
        assert!(matches!(solve(&g, 5, Ranks::Simulated(2), &o), Err(Error::VertexOutOfRange { vertex: 5, .. })));
        for p in [0, MAX_RANKS + 1] {
            assert!(matches!(solve(&g, 0, Ranks::Simulated(p), &o), Err(Error::InvalidArgument(_))));
        }
        let zero = DistOptions { delta: Some(0u32.into()), ..o };
        assert!(matches!(solve(&g, 0, Ranks::Simulated(2), &zero), Err(Error::InvalidArgument(_))));
        let neg = Graph::from_arcs(2, &[(0, 1, -1)]).unwrap();
        assert!(matches!(solve(&neg, 0, Ranks::Simulated(2), &o), Err(Error::NegativeWeight { .. })));
        #[cfg(not(feature = "nccl"))]
        assert!(matches!(solve(&g, 0, Ranks::Nccl(1), &o), Err(Error::InvalidArgument(m)) if m.contains("nccl")));
    }
}
