//! Parallel SSSP strategies, each a short loop over engine operators.
//!
//! | strategy | paper | loop |
//! |---|---|---|
//! | [`workfront`] | Davidson et al. 2014, §IV-C | advance the changed vertices; dedupe; repeat until empty |
//! | [`near_far`] | Davidson et al. 2014, §IV-D | advance the near set (below a threshold); park the rest in the far pile |
//! | [`bucketing`] | Davidson et al. 2014, §IV-E | advance the lowest bucket of a window of A; multisplit the far pile |
//! | [`topo_bf`] | the LonestarGPU baseline in Davidson et al. / H-BF | advance every vertex until nothing improves |
//! | [`crauser`] | Crauser et al. 1998; Martín et al. 2009; Ortega-Arranz et al. 2013 | relax the last settled vertices' arcs; settle every vertex proved final |
//! | [`phast`] | Delling et al. 2011 (PHAST), on a contraction hierarchy built once per graph | search upward on the host; sweep the hierarchy's levels downward |
//!
//! Every strategy runs on any [`Engine`] (CUDA or CPU) and returns exact distances or an error;
//! the result is converted to the library's [`Dist`] and checked for overflow here, once. The
//! three frontier strategies share one driver (`device_loop`): they differ only in the bucket
//! structure they hand the engine's loop.

pub mod auto;
pub mod bucketing;
pub mod crauser;
pub mod many;
pub mod near_far;
pub mod phast;
pub mod topo_bf;
pub mod workfront;

pub use many::{solve_each, solve_nearest};

use std::cmp::Reverse;
use std::time::{Duration, Instant};

use rayon::prelude::*;
use serde::Serialize;
use sssp_kernels::INF;

use crate::engine::{check_buckets, Balance, BucketSpec, Counters, Dedupe, Engine, LoopSpec};
use crate::error::{Error, Result};
use crate::graph::Graph;
use crate::graph::{Distance, Metric};
use crate::{Dist, UNREACHED};

/// Knobs shared by the device strategies.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// How arcs are spread over threads.
    pub balance: Balance,
    /// Hub threshold of the frontier strategies: frontier vertices with at least this many
    /// out-arcs are expanded by a grid-wide partitioned pass instead of their thread, virtual
    /// warp or block ([`sssp_kernels::HUB_DEGREE`] by default; 0 = never; partition balance
    /// needs none).
    pub hub_degree: u32,
    /// How duplicate frontier entries are avoided (frontier strategies).
    pub dedupe: Dedupe,
    /// Read the frontier length back only every this many iterations (>= 1). Iterations queued
    /// past the end of the run see an empty frontier and cost one empty launch each; fewer
    /// read-backs save a host round trip (about 10 us on an H100) per iteration.
    pub check_every: u32,
    /// Record per-iteration statistics (synchronises every iteration: slower, exact timings).
    pub trace: bool,
    /// Let the device run the iterations itself (one persistent launch) unless a trace is asked
    /// for; else one launch per iteration.
    pub device_loop: bool,
    /// Workfront, Near-Far and Bucketing on the GPU: run the loop in one block of 1024 threads
    /// with the near queues in shared memory instead of over the whole grid (the latency mode
    /// for small frontiers: road graphs and meshes; docs/gpu.md, "The block loop"). Stamp dedupe
    /// only, no edge classes (a run with this set never classifies), no `wide_at`. Same
    /// distances; the CPU engine runs its one loop.
    pub block_loop: bool,
    /// Bucket width of Near-Far and Bucketing; `None`: [`heuristic_delta`].
    pub delta: Option<u32>,
    /// Buckets per window of Bucketing (`A`), `1..=30`.
    pub buckets: u32,
    /// Near-Far and Bucketing: the Workfront <-> Near-Far hybrid's switch point. Iterations whose
    /// input holds at least this many vertices run unordered, as Workfront Sweep iterations
    /// ([`BucketSpec::wide_at`]); 0 = never.
    pub wide_at: u32,
    /// Distance cutoff: vertices farther than this are reported unreached
    /// ([`crate::UNREACHED`]), and the engines never relax towards them, so the work shrinks
    /// with the cutoff (isochrones, range queries).
    pub cutoff: Option<u64>,
    /// Target vertex: the run may stop as soon as its distance is final. Near-Far, Bucketing
    /// and serial Dijkstra do (the others run to the end). The result then holds the exact
    /// distances up to the target's, and every farther vertex as unreached: the answer to a
    /// cutoff query at the target's distance.
    pub target: Option<u32>,
    /// Also return a shortest-path tree ([`Solution::parents`]): built on the engine after a
    /// frontier or settling run (one pass over the arcs), on the host (from the certified
    /// distances) after the serial references and topology-driven Bellman-Ford.
    pub tree: bool,
    /// Crauser's settle criterion (`crauser` only).
    pub criterion: crauser::Criterion,
    /// Push or pull relaxation of the settling algorithms (`crauser`, `crauser-economic`,
    /// `martin`).
    pub variant: crauser::Variant,
    /// Whether to relax through H-BF's edge classes: self-loops skipped, arcs into sinks
    /// relaxed once at the end, arcs into in-degree-1 heads stored without an atomic
    /// (`sssp_kernels::classify`); see [`Classify`]. Every engine strategy: the frontier
    /// strategies (Workfront, Near-Far, Bucketing, the hybrid), topology-driven Bellman-Ford,
    /// and the settling algorithms' push steps (their pull variant and the serial references
    /// relax every arc as it is). Same distances either way. Not used for a run whose target is
    /// a sink (a deferred target would never look settled, costing the early exit).
    pub classify: Classify,
}

/// Builder-style setters: `Options::default().with_cutoff(5000).with_tree()`; each returns the
/// changed options (the fields are public too, for struct-update syntax).
impl Options {
    /// Set [`Options::balance`].
    pub fn with_balance(self, balance: Balance) -> Self {
        Options { balance, ..self }
    }
    /// Set the hub threshold ([`Options::hub_degree`]; 0 = no hub path).
    pub fn with_hub_degree(self, hub_degree: u32) -> Self {
        Options { hub_degree, ..self }
    }
    /// Set [`Options::dedupe`].
    pub fn with_dedupe(self, dedupe: Dedupe) -> Self {
        Options { dedupe, ..self }
    }
    /// Set the bucket width ([`Options::delta`]) instead of the heuristic.
    pub fn with_delta(self, delta: u32) -> Self {
        Options { delta: Some(delta), ..self }
    }
    /// Set Bucketing's buckets per window ([`Options::buckets`]).
    pub fn with_buckets(self, buckets: u32) -> Self {
        Options { buckets, ..self }
    }
    /// Set the hybrid's switch point ([`Options::wide_at`]).
    pub fn with_wide_at(self, wide_at: u32) -> Self {
        Options { wide_at, ..self }
    }
    /// Report nothing farther than `cutoff` ([`Options::cutoff`]).
    pub fn with_cutoff(self, cutoff: u64) -> Self {
        Options { cutoff: Some(cutoff), ..self }
    }
    /// Stop once `target`'s distance is final ([`Options::target`]).
    pub fn with_target(self, target: u32) -> Self {
        Options { target: Some(target), ..self }
    }
    /// Also return the shortest-path tree ([`Options::tree`], [`Solution::parents`]).
    pub fn with_tree(self) -> Self {
        Options { tree: true, ..self }
    }
    /// Record per-iteration statistics ([`Options::trace`]).
    pub fn with_trace(self) -> Self {
        Options { trace: true, ..self }
    }
    /// Crauser's settle criterion ([`Options::criterion`]).
    pub fn with_criterion(self, criterion: crauser::Criterion) -> Self {
        Options { criterion, ..self }
    }
    /// Push or pull relaxation of the settling algorithms ([`Options::variant`]).
    pub fn with_variant(self, variant: crauser::Variant) -> Self {
        Options { variant, ..self }
    }
    /// Run the GPU loop in one block ([`Options::block_loop`]).
    pub fn with_block_loop(self, block_loop: bool) -> Self {
        Options { block_loop, ..self }
    }
    /// Relax through the edge classes always, never, or when they pay ([`Options::classify`]).
    pub fn with_classify(self, classify: Classify) -> Self {
        Options { classify, ..self }
    }

    /// [`Options::classify`] for a run on `g`: off when the target is a sink.
    pub(crate) fn classify_on(&self, g: &Graph) -> Classify {
        if self.target.is_none_or(|t| t as usize >= g.num_vertices() || g.degree(t) > 0) {
            self.classify
        } else {
            Classify::Off
        }
    }

    /// The distance up to which a result answers the query (`None`: everywhere): the cutoff,
    /// or the target's distance in `dist` when it was reached, whichever is smaller. What
    /// [`crate::verify::check_within`] takes to certify a bounded result.
    pub fn query_bound(&self, dist: &[Dist]) -> Option<Dist> {
        let target = self.target.and_then(|t| dist.get(t as usize).copied()).filter(|&d| d != UNREACHED);
        let cutoff = self.cutoff.map(|c| c.min(Dist::MAX as u64 - 1) as Dist);
        match (cutoff, target) {
            (None, None) => None,
            (c, t) => Some(c.unwrap_or(Dist::MAX).min(t.unwrap_or(Dist::MAX))),
        }
    }

    /// One advance of a host-driven loop with these options: iteration `iter` over `input`,
    /// through the edge classes when `classify` (what [`prepare_classes`] decided).
    pub(crate) fn advance(&self, input: crate::engine::Input, iter: u32, classify: bool) -> crate::engine::Advance {
        crate::engine::Advance {
            input,
            balance: self.balance,
            dedupe: self.dedupe,
            iter,
            cutoff: self.device_cutoff(),
            hub: self.hub_degree,
            classify,
        }
    }

    /// The cutoff as the kernels take it: the largest candidate kept.
    pub(crate) fn device_cutoff(&self) -> u32 {
        self.cutoff.map_or(sssp_kernels::NO_CUTOFF, |d| d.min(sssp_kernels::NO_CUTOFF as u64) as u32)
    }

    /// The delta to use on `g`: the one asked for, or the heuristic.
    /// (The bucket count is checked with it where it is used, by the strategy that runs.)
    pub fn delta_for(&self, g: &Graph) -> Result<u32> {
        match self.delta {
            // Real graphs: delta is an f32 bit pattern like every real distance; it must be a
            // finite number > 0 (bits 1 to f32::MAX's).
            Some(d) if g.metric() == Metric::Real && !(1..=f32::MAX.to_bits()).contains(&d) => {
                Err(Error::InvalidArgument(format!(
                    "delta bits {d:#x} are not a finite f32 > 0 (the graph has real weights)"
                )))
            }
            Some(d) => Ok(d),
            None => Ok(heuristic_delta(g)),
        }
    }
}

/// The warp width `c` of Davidson et al.'s delta heuristic.
pub const DELTA_C: u64 = 32;

/// Davidson et al.'s delta heuristic (§IV-D): `delta = c * w / d` with `w` the mean arc weight,
/// `d` the mean out-degree and `c` the warp width (32), after Meyer and Sanders' `Θ(1/d)`: wide
/// enough that a bucket holds a warp's worth of parallel work per vertex, narrow enough to save
/// most of Workfront's redundant relaxations. At least 1. Computed from the graph alone, in one
/// pass over the weights: `c * sum(w) * n / m^2`. Computed once per graph (in parallel) and
/// kept with it.
pub fn heuristic_delta(g: &Graph) -> u32 {
    g.cached_delta(compute_delta)
}

fn compute_delta(g: &Graph) -> u32 {
    let (n, m) = (g.num_vertices() as u128, g.num_arcs() as u128);
    if m == 0 {
        return if g.metric() == Metric::Real { 1f32.to_bits() } else { 1 };
    }
    let sum: u128 = match g.weights() {
        crate::graph::Weights::Unsigned(w) => w.par_iter().map(|&x| x as u128).sum(),
        crate::graph::Weights::Signed(w) => w.par_iter().map(|&x| x.max(0) as u128).sum(),
        crate::graph::Weights::Real(w) => {
            // The same formula in real arithmetic; the width is an f32 bit pattern like every
            // real distance, at least the smallest normal f32 (a zero width has no buckets).
            let sum: f64 = w.par_iter().map(|&x| f32::from_bits(x) as f64).sum();
            let d = DELTA_C as f64 * sum * n as f64 / (m as f64 * m as f64);
            return (d as f32).clamp(f32::MIN_POSITIVE, f32::MAX).to_bits();
        }
    };
    let d = DELTA_C as u128 * sum * n / (m * m);
    d.clamp(1, u32::MAX as u128 - 1) as u32
}

impl Default for Options {
    fn default() -> Self {
        Options {
            balance: Balance::VirtualWarp,
            hub_degree: sssp_kernels::HUB_DEGREE,
            dedupe: Dedupe::Stamp,
            check_every: 8,
            trace: false,
            device_loop: true,
            block_loop: false,
            delta: None,
            buckets: bucketing::DEFAULT_BUCKETS,
            wide_at: 0,
            cutoff: None,
            target: None,
            tree: false,
            criterion: crauser::Criterion::Both,
            variant: crauser::Variant::Successor,
            classify: Classify::Auto,
        }
    }
}

/// One traced iteration.
#[derive(Clone, Debug, Serialize)]
pub struct IterTrace {
    /// Iteration number, from 1.
    pub iter: u32,
    /// Input vertices of this iteration (the near set, for the bucketed strategies).
    pub frontier: u64,
    /// Arcs relaxed in this iteration.
    pub arcs: u64,
    /// Wall time of the iteration on the host (a launch and its read-backs), microseconds.
    pub micros: f64,
    /// Bucketed strategies: the bucket processed (its distances are `[bucket*delta,
    /// (bucket+1)*delta)`, so the Near-Far threshold is `(bucket+1)*delta`); 0 otherwise.
    pub bucket: u32,
    /// Items in the far pile after the iteration (stale entries included until a split).
    pub far: u64,
    /// Items waiting in the window's later buckets after the iteration.
    pub slots: u64,
}

/// What a run did.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Stats {
    /// Iterations that had work (queued empty iterations are not counted).
    pub iterations: u32,
    /// Arcs relaxed (read and a candidate computed), over the whole run.
    pub arcs_relaxed: u64,
    /// Frontier entries expanded (a vertex counts once per expansion).
    pub vertices_processed: u64,
    /// Host round trips taken to decide termination.
    pub readbacks: u32,
    /// Bucketed strategies: the bucket width used.
    pub delta: Option<u32>,
    /// Bucketed strategies: buckets per window.
    pub buckets: Option<u32>,
    /// Bucketed strategies: far-pile splits.
    pub far_splits: u32,
    /// A signed-weight run dropped a sum outside the engines' range (see `signed_guard`).
    #[serde(skip)]
    pub overflowed: bool,
    /// Settling algorithms (`crauser`, `martin`): vertices settled per step, on average (the
    /// source, settled before the first step, not counted).
    pub settled_per_step: Option<f64>,
    /// `auto`: what it chose and why (one line).
    pub chosen: Option<String>,
    /// `auto`: the algorithm it ran.
    pub chosen_algo: Option<Algo>,
    /// Time of the solve itself (init to last kernel), excluding upload and download.
    #[serde(serialize_with = "ser_secs")]
    pub compute: Duration,
    /// Time to copy distances back to the host, as the result's type.
    #[serde(serialize_with = "ser_secs")]
    pub download: Duration,
    /// Per-iteration records, when [`Options::trace`] was set.
    pub trace: Vec<IterTrace>,
    /// Time to build the tree, when [`Options::tree`] was set.
    #[serde(serialize_with = "ser_secs")]
    pub tree: Duration,
    /// Time to compute the edge classes before the run ([`Options::classify`]): once per
    /// engine, so zero after its first classified run; not part of `compute`.
    #[serde(serialize_with = "ser_secs")]
    pub classify: Duration,
    /// Whether the run relaxed through the edge classes. [`Classify::Auto`] counts the classes
    /// (the time in `classify`) and then relaxes without them where they would not pay.
    pub classes_used: bool,
    /// Time to build the graph's contraction hierarchy ([`phast`]) when this run built it
    /// (zero when it was built before); not part of `compute`.
    #[serde(serialize_with = "ser_secs")]
    pub prepare: Duration,
    /// Batched sources ([`many::solve_each`] on an engine with lanes): how many sources this
    /// run's pass solved together; the times and counters above are the whole pass's.
    pub batch: Option<u32>,
}

fn ser_secs<S: serde::Serializer>(d: &Duration, s: S) -> std::result::Result<S::Ok, S::Error> {
    s.serialize_f64(d.as_secs_f64())
}

/// A finished run: exact distances and statistics.
#[derive(Clone, Debug)]
pub struct Solution {
    /// Exact distances in their stored form, [`crate::UNREACHED`] for vertices the source does
    /// not reach: integers on integer-weighted graphs, `f32` bit patterns on real-weighted ones
    /// (see `metric`). [`Solution::distance`] and [`Solution::distances`] give the numbers.
    pub dist: Vec<Dist>,
    /// How `dist` holds its distances: the graph's [`Metric`].
    pub metric: Metric,
    /// What the run did.
    pub stats: Stats,
    /// With [`Options::tree`]: each vertex's parent on a shortest path from the source
    /// ([`crate::graph::NO_VERTEX`] for the source and for unreached vertices).
    pub parents: Option<Vec<u32>>,
}

impl Solution {
    /// The distance to `v` as the number it is (an integer, or an `f32` on a real-weighted
    /// graph); `None`: unreached, beyond the query's bound, or not a vertex.
    pub fn distance(&self, v: u32) -> Option<Distance> {
        self.dist.get(v as usize).and_then(|&d| Distance::of(self.metric, d))
    }

    /// Every vertex's [`distance`](Self::distance), in id order.
    pub fn distances(&self) -> impl Iterator<Item = Option<Distance>> + '_ {
        self.dist.iter().map(|&d| Distance::of(self.metric, d))
    }

    /// The farthest vertex the run reached, and its distance (the smallest id among ties).
    pub fn farthest(&self) -> Option<(u32, Distance)> {
        // Stored distances order like the numbers in every metric (see `Metric`).
        let (v, &d) =
            self.dist.iter().enumerate().filter(|(_, &d)| d != UNREACHED).max_by_key(|&(v, &d)| (d, Reverse(v)))?;
        Distance::of(self.metric, d).map(|d| (v as u32, d))
    }

    /// The distance to `v` as an `f32` in any metric (integers above 2^24 rounded); `None` as
    /// [`distance`](Self::distance).
    pub fn distance_f32(&self, v: u32) -> Option<f32> {
        self.distance(v).map(|d| d.as_f64() as f32)
    }

    /// Every distance as an `f32` (as [`distance_f32`](Self::distance_f32)),
    /// `f32::INFINITY` for unreached vertices.
    pub fn distances_f32(&self) -> Vec<f32> {
        self.distances().map(|d| d.map_or(f32::INFINITY, |d| d.as_f64() as f32)).collect()
    }

    /// The vertices of a shortest path from the run's source (the nearest source, for
    /// [`many::solve_nearest`]) to `target`, both included, read off the tree: `None` when
    /// `target` is unreached or out of range, or when the run was not asked for a tree
    /// ([`Options::tree`]; [`crate::tree::path`] builds one from the distances instead).
    pub fn path(&self, target: u32) -> Option<Vec<u32>> {
        let parents = self.parents.as_ref()?;
        self.distance(target)?;
        let mut path = vec![target];
        let mut v = target;
        // A tree has no cycle; the length bound keeps a corrupted one from looping.
        while parents[v as usize] != crate::graph::NO_VERTEX && path.len() <= parents.len() {
            v = parents[v as usize];
            path.push(v);
        }
        path.reverse();
        Some(path)
    }
}

/// Drive a frontier loop: call `step(iter)` (which queues one iteration's operators), and read
/// the frontier length every `check_every` iterations (or every iteration when tracing) until
/// it is empty. Shared by every frontier strategy so termination and tracing are written once.
pub(crate) fn frontier_loop(
    g: &Graph,
    eng: &mut dyn Engine,
    opts: &Options,
    stats: &mut Stats,
    mut step: impl FnMut(&mut dyn Engine, u32) -> Result<()>,
) -> Result<()> {
    let mut watch = CycleWatch::new(g, Instant::now(), CYCLE_CHECK_FRONTIER);
    let every = if opts.trace { 1 } else { opts.check_every.max(1) };
    // Workfront invariant: after iteration i every vertex whose shortest path has <= i arcs is
    // final, so iteration n + 1 sees an empty frontier. Past that (plus the read-back slack) the
    // engine is broken: fail loudly instead of looping forever.
    let bound = (eng.num_vertices() as u64 + 1 + every as u64).min(u32::MAX as u64) as u32;
    let mut iter = 1u32;
    // Counters are read (a synchronisation) only to trace per-iteration deltas.
    let mut last = if opts.trace { eng.counters()? } else { Counters::default() };
    loop {
        let t = Instant::now();
        let frontier = if opts.trace { eng.frontier_len()? as u64 } else { 0 };
        step(eng, iter)?;
        if opts.trace {
            let c = eng.counters()?;
            stats.trace.push(IterTrace {
                iter,
                frontier,
                arcs: c.arcs - last.arcs,
                micros: t.elapsed().as_secs_f64() * 1e6,
                bucket: 0,
                far: 0,
                slots: 0,
            });
            last = c;
        }
        if iter.is_multiple_of(every) {
            stats.readbacks += 1;
            if eng.frontier_len()? == 0 {
                break;
            }
        }
        if iter >= bound {
            return Err(not_converged(eng, iter));
        }
        if let Some(w) = watch.as_mut().filter(|w| iter >= w.next()) {
            w.look(eng, iter)?;
        }
        iter += 1;
    }
    Ok(())
}

/// Drive a frontier strategy through [`Engine::run_loop`]: Workfront (`buckets: None`),
/// Near-Far (one bucket) or Bucketing. By default one call runs the whole solve on the device;
/// with a trace (or `device_loop` off) one iteration per call, recording the queue sizes.
pub(crate) fn device_loop(
    g: &Graph,
    eng: &mut dyn Engine,
    source: u32,
    opts: &Options,
    buckets: Option<BucketSpec>,
) -> Result<Solution> {
    crate::reference::check_source(g, source)?;
    device_loop_from(g, eng, &[source], opts, buckets)
}

/// [`device_loop`] from a set of vertex ids of the engine's runs (several sources of one
/// nearest-source solve, or one per lane of a batch): every seed at 0. The result has one
/// distance per id.
pub(crate) fn device_loop_from(
    g: &Graph,
    eng: &mut dyn Engine,
    seeds: &[u32],
    opts: &Options,
    buckets: Option<BucketSpec>,
) -> Result<Solution> {
    let opts = &Options { classify: opts.classify_on(g), ..*opts };
    // The block loop's shared queue entries keep a degree in 32 bits.
    if opts.block_loop && g.num_arcs() as u64 >= u32::MAX as u64 {
        return Err(Error::InvalidArgument("the block loop does not support graphs of 2^32 arcs or more".into()));
    }
    let (stats, started) = run_device_loop(eng, seeds, opts, buckets, Some(g))?;
    finish(g, eng, stats, started)
}

/// Iterations before the first early negative-cycle check of a signed frontier run: runs
/// without a negative cycle rarely get this far (NY: about 850 Workfront iterations).
pub(crate) const CYCLE_CHECK_FRONTIER: u32 = 1024;

/// The same for topology-driven Bellman-Ford, whose every iteration sweeps the whole graph (as
/// much work as a check).
pub(crate) const CYCLE_CHECK_SWEEPS: u32 = 16;

/// A check is made only once the run has taken this many times what the last one cost (the
/// first one's cost estimated from the graph's size), so a run without a negative cycle spends
/// at most about a fifth of its time looking for one.
const CYCLE_CHECK_RATIO: u32 = 4;

/// The early negative-cycle check of the engines' runs on signed graphs (issue #7): at
/// iterations `first`, `2 first`, `4 first`, ..., when the time rule above allows, read the distances back
/// and look for a negative cycle among the reached vertices'
/// parents ([`crate::reference::negative_cycle_in`]). A cycle of weight -1 through many
/// vertices otherwise costs the whole Workfront bound, `n` iterations (a 24M-vertex road graph:
/// minutes), before the serial Bellman-Ford names it.
pub(crate) struct CycleWatch<'g> {
    g: &'g Graph,
    started: Instant,
    next: u32,
    cost: Duration,
}

impl<'g> CycleWatch<'g> {
    /// A watch for a run on `g` that started at `started`, first looking after `first`
    /// iterations; `None` unless `g` has signed weights.
    pub(crate) fn new(g: &'g Graph, started: Instant, first: u32) -> Option<Self> {
        // About 2 ns per vertex and arc for the download and the host pass.
        let cost = Duration::from_nanos(2 * (g.num_vertices() as u64 + g.num_arcs() as u64));
        (g.metric() == Metric::Signed).then_some(CycleWatch { g, started, next: first.max(1), cost })
    }

    /// The iteration count at which the run should next stop and call [`CycleWatch::look`].
    pub(crate) fn next(&self) -> u32 {
        self.next
    }

    /// After `iters` iterations (`>= next()`, between two of them): look for a negative cycle
    /// if the time rule allows; a cycle found is the run's result.
    pub(crate) fn look(&mut self, eng: &mut dyn Engine, iters: u32) -> Result<()> {
        while self.next <= iters {
            self.next = self.next.saturating_mul(2);
        }
        if self.started.elapsed() < self.cost * CYCLE_CHECK_RATIO {
            return Ok(());
        }
        let t = Instant::now();
        let raw = eng.distances()?;
        if let Some(cycle) = crate::reference::negative_cycle_in(self.g, &raw) {
            return Err(cycle);
        }
        self.cost = t.elapsed();
        Ok(())
    }
}

/// When a run relaxes through H-BF's edge classes ([`Options::classify`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Classify {
    /// When the arcs a classified run leaves out of its iterations (self-loops, arcs into
    /// sinks) are at least [`CLASSIFY_MIN_SHARE`] of the graph's: there the classes pay; on
    /// graphs with few of them, the classified kernels' extra branch cost more than they saved
    /// (docs/benchmarks.md, "Edge classes"). The classes are computed once per engine to know.
    #[default]
    Auto,
    /// Always (where the graph can be classified).
    On,
    /// Never: every arc relaxed as it is.
    Off,
}

/// [`Classify::Auto`]'s threshold: skipped self-loops plus arcs into sinks, as a share of all
/// arcs. Measured on the H100 (docs/benchmarks.md, "Edge classes"): with 29% of the arcs
/// self-loops (`gen:selfloops`), classes made Workfront and Near-Far 4-6% faster; with about 5%
/// of them into sinks (`gen:uniform:4000000:3`) they were even; with none (kron, roads, meshes)
/// 2-5% slower. 10% sits between the neutral and the winning case.
pub const CLASSIFY_MIN_SHARE: f64 = 0.10;

impl Classify {
    /// `auto`, `on`, `off`.
    pub fn parse(s: &str) -> Result<Self> {
        match s {
            "auto" => Ok(Classify::Auto),
            "on" => Ok(Classify::On),
            "off" => Ok(Classify::Off),
            _ => Err(Error::InvalidArgument(format!("classify `{s}`: expected auto, on or off"))),
        }
    }

    /// The name [`Classify::parse`] takes.
    pub fn name(self) -> &'static str {
        match self {
            Classify::Auto => "auto",
            Classify::On => "on",
            Classify::Off => "off",
        }
    }

    /// Whether a run classifies, given the graph's classes (`None`: it cannot be classified).
    pub fn uses(self, counts: Option<crate::engine::ClassCounts>) -> bool {
        match (self, counts) {
            (Classify::Off, _) | (_, None) => false,
            (Classify::On, Some(_)) => true,
            (Classify::Auto, Some(c)) => (c.skipped + c.deferred) as f64 >= CLASSIFY_MIN_SHARE * c.arcs as f64,
        }
    }
}

/// Compute the edge classes, when a run may use them, before it starts its clock (once per
/// engine): whether it uses them, and the time that took (zero after the first).
pub(crate) fn prepare_classes(eng: &mut dyn Engine, opts: &Options) -> Result<(bool, Duration)> {
    let t = Instant::now();
    if opts.classify == Classify::Off {
        return Ok((false, Duration::ZERO));
    }
    let (counts, fresh) = eng.classify()?;
    let uses = opts.classify.uses(counts);
    if uses {
        eng.load_classified()?;
    }
    Ok((uses, if fresh { t.elapsed() } else { Duration::ZERO }))
}

/// Reset `eng` for a run from `seeds`: [`Engine::init`] for one source on an engine of one
/// lane, [`Engine::init_many`] otherwise.
pub(crate) fn start_at(eng: &mut dyn Engine, seeds: &[u32]) -> Result<()> {
    match seeds {
        [one] if eng.lanes() == 1 => eng.init(*one),
        _ => eng.init_many(seeds),
    }
}

/// The iterations after which a run of `spec` on `eng` that has not finished means a broken
/// engine, not a property of the input: Workfront ends within n + 1 iterations; a bucketed run
/// within n + 1 per bucket that held a vertex (at most n).
pub(crate) fn loop_bound(eng: &dyn Engine, spec: &LoopSpec) -> u32 {
    let n = eng.num_vertices() as u64 + 1;
    if spec.buckets.is_some() { n.saturating_mul(n) } else { n }.min(u32::MAX as u64) as u32
}

/// [`device_loop_from`] up to the finished run on the device: its stats and start time.
pub(crate) fn run_device_loop(
    eng: &mut dyn Engine,
    seeds: &[u32],
    opts: &Options,
    buckets: Option<BucketSpec>,
    watch: Option<&Graph>,
) -> Result<(Stats, Instant)> {
    if let Some(b) = &buckets {
        check_buckets(b)?;
    }
    // The block loop relaxes the plain targets: no classes to compute.
    let (classify, classify_time) = if opts.block_loop { (false, Duration::ZERO) } else { prepare_classes(eng, opts)? };
    let spec = LoopSpec {
        balance: opts.balance,
        dedupe: opts.dedupe,
        buckets,
        cutoff: opts.device_cutoff(),
        target: opts.target.unwrap_or(sssp_kernels::NO_TARGET),
        hub: opts.hub_degree,
        classify,
        block: opts.block_loop,
    };
    let mut stats = Stats { delta: buckets.map(|b| b.delta), buckets: buckets.map(|b| b.count), ..Stats::default() };
    stats.classify = classify_time;
    stats.classes_used = classify;
    let started = Instant::now();
    start_at(eng, seeds)?;
    let bound = loop_bound(eng, &spec);
    let mut watch = watch.and_then(|g| CycleWatch::new(g, started, CYCLE_CHECK_FRONTIER));
    let status = if opts.trace || !opts.device_loop {
        let mut prev = eng.run_loop(&spec, 0)?;
        let mut last = eng.counters()?;
        loop {
            let t = Instant::now();
            let now = eng.run_loop(&spec, 1)?;
            stats.readbacks += 1;
            if opts.trace {
                let c = eng.counters()?;
                stats.trace.push(IterTrace {
                    iter: now.state.iters,
                    frontier: prev.near as u64,
                    arcs: c.arcs - last.arcs,
                    micros: t.elapsed().as_secs_f64() * 1e6,
                    bucket: prev.state.current,
                    far: now.far as u64,
                    slots: now.slots as u64,
                });
                last = c;
            }
            if now.state.done != 0 || now.state.iters >= bound {
                break now;
            }
            if let Some(w) = watch.as_mut().filter(|w| now.state.iters >= w.next()) {
                w.look(eng, now.state.iters)?;
            }
            prev = now;
        }
    } else if let Some(w) = watch.as_mut() {
        // One launch per stretch up to the next check: the state resumes where it stopped.
        let mut done = 0;
        loop {
            let now = eng.run_loop(&spec, w.next().min(bound) - done)?;
            stats.readbacks += 1;
            if now.state.done != 0 || now.state.iters >= bound {
                break now;
            }
            done = now.state.iters;
            w.look(eng, done)?;
        }
    } else {
        stats.readbacks = 1;
        eng.run_loop(&spec, bound)?
    };
    if status.state.done == 0 {
        return Err(not_converged(eng, status.state.iters));
    }
    stats.far_splits = status.state.splits;
    Ok((stats, started))
}

/// The error for a frontier that outlived the Workfront bound: an engine fault, never a
/// property of the input (see [`frontier_loop`]).
pub(crate) fn not_converged(eng: &dyn Engine, iterations: u32) -> Error {
    Error::Verification(format!(
        "frontier still non-empty after {iterations} iterations on {} vertices: engine fault on {}",
        eng.num_vertices(),
        eng.device()
    ))
}

/// Read distances and counters back, convert to [`Dist`], and turn a dropped overflowing
/// candidate into a typed error when it hid a reachable vertex.
pub(crate) fn finish(g: &Graph, eng: &mut dyn Engine, mut stats: Stats, started: Instant) -> Result<Solution> {
    let c = finish_stats(eng, &mut stats, started)?;
    let t = Instant::now();
    let raw = eng.distances()?;
    // In parallel: the first touch of the result (8 bytes per vertex) dominates the download
    // of big graphs otherwise (kron 24: 134 MB).
    let mut dist = Vec::new();
    crate::mem::reserve(&mut dist, raw.len())?;
    let metric = g.metric();
    dist.par_extend(raw.par_iter().map(|&d| to_dist(metric, d)));
    stats.download = t.elapsed();
    if c.overflow != 0 {
        if metric == Metric::Signed {
            // A dropped sum on a signed graph may have left the range downwards, which a
            // negative cycle does too: `signed_guard` decides, knowing the source.
            stats.overflowed = true;
        } else {
            check_overflow(g, &raw, eng.lanes())?;
        }
    }
    Ok(Solution { dist, metric, stats, parents: None })
}

/// Wait for the run, and fill the stats from the engine's counters (returned).
fn finish_stats(eng: &mut dyn Engine, stats: &mut Stats, started: Instant) -> Result<Counters> {
    eng.relax_deferred()?;
    eng.synchronize()?;
    stats.compute = started.elapsed();
    let c = eng.counters()?;
    stats.arcs_relaxed = c.arcs;
    stats.vertices_processed = c.vertices;
    stats.iterations = c.busy as u32;
    Ok(c)
}

/// [`finish`] for a batched run: the distances of the first `count` lanes, each its own vector,
/// de-interleaved straight from the downloaded words (no `n * lanes` intermediate of
/// [`Dist`]s: on road 4M with 8 lanes that intermediate doubled the host's time).
pub(crate) fn finish_lanes(
    g: &Graph,
    eng: &mut dyn Engine,
    mut stats: Stats,
    started: Instant,
    count: usize,
) -> Result<(Stats, Vec<Vec<Dist>>)> {
    let c = finish_stats(eng, &mut stats, started)?;
    let t = Instant::now();
    let raw = eng.distances()?;
    let (n, k) = (g.num_vertices(), eng.lanes() as usize);
    let metric = g.metric();
    let mut rows: Vec<Vec<Dist>> = Vec::with_capacity(count);
    for _ in 0..count {
        let mut dist = Vec::new();
        crate::mem::reserve(&mut dist, n)?;
        rows.push(dist);
    }
    // One pass over the interleaved words, each block of vertices scattered into every row
    // (a pass per lane would read all `n * lanes` words `lanes` times).
    struct Out(Vec<*mut Dist>);
    // SAFETY: every task below writes a disjoint range of vertices of each row.
    unsafe impl Sync for Out {}
    impl Out {
        fn row(&self, j: usize) -> *mut Dist {
            self.0[j]
        }
    }
    let out = Out(rows.iter_mut().map(|r| r.as_mut_ptr()).collect());
    const BLOCK: usize = 1 << 12;
    raw[..n * k].par_chunks(BLOCK * k).enumerate().for_each(|(b, block)| {
        for (i, lanes) in block.chunks_exact(k).enumerate() {
            for (j, &d) in lanes[..count].iter().enumerate() {
                // SAFETY: row j has capacity n > b * BLOCK + i, and only this task writes there.
                unsafe { *out.row(j).add(b * BLOCK + i) = to_dist(metric, d) };
            }
        }
    });
    for r in &mut rows {
        // SAFETY: the pass above wrote all n entries of every row.
        unsafe { r.set_len(n) };
    }
    stats.download = t.elapsed();
    if c.overflow != 0 {
        check_overflow(g, &raw, eng.lanes())?;
    }
    Ok((stats, rows))
}

/// A distance cell as a [`Dist`]: [`UNREACHED`] for `INF`, signed cells decoded.
#[inline]
fn to_dist(metric: Metric, d: u32) -> Dist {
    match metric {
        _ if d == INF => UNREACHED,
        Metric::Signed => Metric::decode_signed(d) as Dist,
        _ => d as Dist,
    }
}

/// Which algorithms take `g`'s weights, and which queries: negative weights run on Workfront,
/// topology-driven Bellman-Ford and serial Bellman-Ford only (the bucketed and settling
/// strategies and Dijkstra order vertices by distance, which a negative arc breaks), from one
/// source, without a cutoff or target (a path may climb past a bound and come back below it).
/// Errors: [`Error::NegativeWeight`] naming the algorithm and the first negative arc,
/// [`Error::InvalidArgument`] for the query.
pub fn check_metric(g: &Graph, algo: Algo, opts: &Options) -> Result<()> {
    if g.metric() != Metric::Signed {
        return Ok(());
    }
    if !matches!(algo, Algo::Workfront | Algo::TopoBf | Algo::BellmanFord | Algo::Auto) {
        g.unsigned_weights(algo.name())?;
    }
    if opts.cutoff.is_some() || opts.target.is_some() {
        return Err(Error::InvalidArgument(
            "cutoff and target queries need non-negative weights (with a negative arc a path can \
             pass the bound and come back below it)"
                .into(),
        ));
    }
    Ok(())
}

/// A negative-weight engine run's result, checked: a run that dropped a sum out of range, or
/// outlived the Workfront bound of `n` iterations, met a negative cycle or a distance past
/// `i32`. The certificate accepts a result that is exact anyway (an upward overflow on a path
/// that was not the shortest); otherwise serial Bellman-Ford finds the cycle, with its witness
/// ([`Error::NegativeCycle`]), or the distance that does not fit ([`Error::DistanceOverflow`]).
fn signed_guard(g: &Graph, source: u32, run: Result<Solution>) -> Result<Solution> {
    if g.metric() != Metric::Signed {
        return run;
    }
    let failed = match run {
        Ok(sol) if !sol.stats.overflowed => return Ok(sol),
        Ok(sol) if crate::verify::check(g, source, &sol.dist).is_ok() => return Ok(sol),
        Ok(_) => Error::DistanceOverflow { vertex: source, bits: 32 },
        Err(e @ (Error::Verification(_) | Error::DistanceOverflow { .. })) => e,
        Err(e) => return Err(e),
    };
    let dist = crate::reference::bellman_ford(g, source)?;
    // No cycle: a distance beyond the engines' i32 range, or (if none) the engine's own error.
    match dist.iter().position(|&d| d != UNREACHED && (d < i32::MIN as Dist || d >= i32::MAX as Dist)) {
        Some(v) => Err(Error::DistanceOverflow { vertex: v as u32, bits: 32 }),
        None => Err(failed),
    }
}

/// Candidates that would reach `INF` are dropped on the device; a vertex left at `INF` behind a
/// reached in-neighbour is one whose distance does not fit
/// ([`crate::reference::overflow_victim`]).
fn check_overflow(g: &Graph, dist: &[u32], lanes: u32) -> Result<()> {
    match crate::reference::overflow_victim(g, lanes as usize, |i| dist[i] != INF) {
        Some(v) => Err(Error::DistanceOverflow { vertex: v, bits: 32 }),
        None => Ok(()),
    }
}

/// Every algorithm `sssp run --algo` knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Algo {
    /// Serial binary-heap Dijkstra (the reference; CPU only).
    Dijkstra,
    /// Serial queue-based Bellman-Ford with negative-cycle detection (the only one that accepts
    /// negative weights; CPU only).
    BellmanFord,
    /// Topology-driven Bellman-Ford on an engine.
    TopoBf,
    /// Workfront Sweep on an engine.
    Workfront,
    /// Near-Far Pile on an engine.
    NearFar,
    /// Bucketing (delta-stepping with a window of buckets and a far pile) on an engine.
    Bucketing,
    /// Parallel Dijkstra with Crauser et al.'s criteria ([`crauser`]) on an engine.
    Crauser,
    /// Crauser's economic variant (one global least arc weight) on an engine.
    CrauserEconomic,
    /// Martín et al.'s parallel Dijkstra (settle the minimum distance) on an engine.
    Martin,
    /// PHAST on the graph's contraction hierarchy ([`phast`]): built once per graph (seconds),
    /// then each solve is an upward search and a sweep of the hierarchy's levels on an engine.
    /// Non-negative integer weights.
    Phast,
    /// Pick one of the above, and its parameters, from the device and the graph
    /// ([`auto::choose`]).
    Auto,
}

impl Algo {
    /// Every algorithm, in the order `--help` lists them.
    pub const ALL: [Algo; 11] = [
        Algo::Auto,
        Algo::Dijkstra,
        Algo::BellmanFord,
        Algo::TopoBf,
        Algo::Workfront,
        Algo::NearFar,
        Algo::Bucketing,
        Algo::Crauser,
        Algo::CrauserEconomic,
        Algo::Martin,
        Algo::Phast,
    ];

    /// The `--algo` name.
    pub fn name(self) -> &'static str {
        match self {
            Algo::Dijkstra => "dijkstra",
            Algo::BellmanFord => "bellman-ford",
            Algo::TopoBf => "topo-bf",
            Algo::Workfront => "workfront",
            Algo::NearFar => "near-far",
            Algo::Bucketing => "bucketing",
            Algo::Crauser => "crauser",
            Algo::CrauserEconomic => "crauser-economic",
            Algo::Martin => "martin",
            Algo::Phast => "phast",
            Algo::Auto => "auto",
        }
    }

    /// Uses a bucket width (`Options::delta`).
    pub fn uses_delta(self) -> bool {
        matches!(self, Algo::NearFar | Algo::Bucketing)
    }

    /// Parse an `--algo` name.
    pub fn parse(s: &str) -> Result<Self> {
        Self::ALL.into_iter().find(|a| a.name() == s).ok_or_else(|| {
            let names: Vec<_> = Self::ALL.iter().map(|a| a.name()).collect();
            Error::InvalidArgument(format!("algorithm `{s}`: expected one of {}", names.join(", ")))
        })
    }

    /// Runs on an [`Engine`] (GPU or CPU backend) rather than as serial host code.
    pub fn uses_engine(self) -> bool {
        // Auto opens one to learn the device, even when it then picks serial Dijkstra.
        matches!(
            self,
            Algo::TopoBf
                | Algo::Workfront
                | Algo::NearFar
                | Algo::Bucketing
                | Algo::Crauser
                | Algo::CrauserEconomic
                | Algo::Martin
                | Algo::Phast
                | Algo::Auto
        )
    }

    /// Settles vertices once each (parallel Dijkstra: [`crauser`]); takes `--variant`.
    pub fn settles(self) -> bool {
        matches!(self, Algo::Crauser | Algo::CrauserEconomic | Algo::Martin)
    }

    /// Whether [`Options::classify`] applies: every engine strategy (the settling ones in
    /// their push variant).
    pub fn classifies(self) -> bool {
        self.uses_engine() && self != Algo::Phast
    }
}

/// Solve from `source` with `algo`. Engine algorithms need `eng` (holding `g`); the serial
/// references ignore it.
pub fn solve(
    g: &Graph,
    algo: Algo,
    eng: Option<&mut (dyn Engine + 'static)>,
    source: u32,
    opts: &Options,
) -> Result<Solution> {
    if let Some(t) = opts.target {
        crate::reference::check_source(g, t)?;
    }
    let mut eng = eng;
    crate::reference::check_source(g, source)?;
    let mut sol = solve_unclipped(g, algo, eng.as_mut().map(|e| &mut **e), source, opts)?;
    clip(&mut sol.dist, opts);
    if opts.tree {
        let ran = sol.stats.chosen_algo.unwrap_or(algo);
        attach_tree(g, ran, eng, &[source], &mut sol, opts)?;
    }
    Ok(sol)
}

/// Build [`Solution::parents`] for a finished run from `roots` (its sources): on the engine
/// after a frontier or settling run (`ran`), on the host otherwise or where the engine's pass
/// left an orphan (a zero-weight arc taken within one iteration or step: `sssp_kernels::tree`);
/// clipped to the query's bound.
pub(crate) fn attach_tree(
    g: &Graph,
    ran: Algo,
    eng: Option<&mut (dyn Engine + 'static)>,
    roots: &[u32],
    sol: &mut Solution,
    opts: &Options,
) -> Result<()> {
    let t = Instant::now();
    let bound = opts.query_bound(&sol.dist);
    let on_host = |dist: &[Dist]| crate::tree::predecessors_nearest(g, roots, dist, bound);
    let mut parents = match eng {
        // Settling runs qualify too: a vertex settled in step s got its distance from one
        // settled in an earlier step, whose stamp (SETTLED | step) is smaller.
        Some(e) if matches!(ran, Algo::Workfront | Algo::NearFar | Algo::Bucketing) || ran.settles() => {
            let p = e.tree_parents()?;
            // Roots as a sorted list (one source: no n-sized mask on kron 24's 16M vertices).
            let mut sorted = roots.to_vec();
            sorted.sort_unstable();
            let orphan = p.par_iter().zip(&sol.dist).enumerate().any(|(v, (&p, &d))| {
                p == crate::graph::NO_VERTEX && d != UNREACHED && sorted.binary_search(&(v as u32)).is_err()
            });
            if orphan {
                on_host(&sol.dist)?
            } else {
                p
            }
        }
        _ => on_host(&sol.dist)?,
    };
    // A bounded query keeps only the vertices within its bound (their tree arcs come from
    // vertices within it too: a tight arc's tail is no farther than its head). In parallel:
    // a serial pass over kron 22's 4M entries took 26 ms on the lent H100 machine's host,
    // 9x the tree itself.
    if bound.is_some() {
        parents.par_iter_mut().zip(&sol.dist).for_each(|(p, &d)| {
            if d == UNREACHED {
                *p = crate::graph::NO_VERTEX;
            }
        });
    }
    sol.stats.tree = t.elapsed();
    sol.parents = Some(parents);
    Ok(())
}

/// The query's contract on any strategy's result: nothing farther than the cutoff, or than
/// the target when it was reached (see [`Options::target`]). A strategy that ran to the end
/// has exact distances everywhere, so clipping them gives the same answer as an early stop.
pub(crate) fn clip(dist: &mut [Dist], opts: &Options) {
    let Some(bound) = opts.query_bound(dist) else { return };
    dist.par_iter_mut().for_each(|d| {
        if *d > bound {
            *d = UNREACHED;
        }
    });
}

fn solve_unclipped(
    g: &Graph,
    algo: Algo,
    eng: Option<&mut (dyn Engine + 'static)>,
    source: u32,
    opts: &Options,
) -> Result<Solution> {
    if algo != Algo::Auto {
        check_metric(g, algo, opts)?;
    }
    let serial = |f: &dyn Fn() -> Result<(Vec<Dist>, u64)>| -> Result<Solution> {
        let t = Instant::now();
        let (dist, arcs) = f()?;
        let stats = Stats { compute: t.elapsed(), arcs_relaxed: arcs, ..Stats::default() };
        Ok(Solution { dist, metric: g.metric(), stats, parents: None })
    };
    match (algo, eng) {
        (Algo::Auto, eng) => {
            let phast = eng.as_ref().and_then(|e| auto::phast_fits(g, e.lanes(), opts));
            let c = phast.unwrap_or_else(|| auto::choose(g, eng.as_ref().is_some_and(|e| e.is_gpu()), opts));
            let mut sol = solve_unclipped(g, c.algo, eng, source, &c.opts)?;
            sol.stats.chosen = Some(c.why);
            sol.stats.chosen_algo = Some(c.algo);
            Ok(sol)
        }
        (Algo::Dijkstra, _) => serial(&|| {
            let bound = crate::reference::Bound { cutoff: opts.cutoff, target: opts.target };
            let (d, s) = crate::reference::dijkstra_bounded(g, source, bound)?;
            Ok((d, s.arcs_relaxed))
        }),
        (Algo::BellmanFord, _) => serial(&|| {
            let (d, s) = crate::reference::bellman_ford_with_stats(g, source)?;
            Ok((d, s.arcs_relaxed))
        }),
        (Algo::TopoBf, Some(e)) => signed_guard(g, source, topo_bf::topo_bf(g, e, source, opts)),
        (Algo::Workfront, Some(e)) => signed_guard(g, source, workfront::workfront(g, e, source, opts)),
        (Algo::NearFar, Some(e)) => near_far::near_far(g, e, source, opts),
        (Algo::Bucketing, Some(e)) => bucketing::bucketing(g, e, source, opts),
        (Algo::Crauser, Some(e)) => crauser::solve(g, e, source, opts, crauser::Family::Crauser),
        (Algo::CrauserEconomic, Some(e)) => crauser::solve(g, e, source, opts, crauser::Family::Economic),
        (Algo::Martin, Some(e)) => crauser::solve(g, e, source, opts, crauser::Family::Martin),
        (Algo::Phast, Some(e)) => phast::phast(g, e, source, opts),
        (a, None) => Err(Error::InvalidArgument(format!("`{}` runs on an engine; none was opened", a.name()))),
    }
}
