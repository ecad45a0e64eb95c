//! The engine-level options ([`Options`]): one flat carrier of every strategy's knobs and the
//! query's (cutoff, target, tree, certificate, trace), which `solve` and `solve_each` take;
//! the bucket width heuristic and the edge-class rule ([`Classify`]). The typed front is
//! [`Strategy`]: each strategy's own parameters type, laid onto these by [`Strategy::options`].

use super::*;

/// Every strategy's knobs and the query's, flat: what the engine-level entry points take. To
/// choose a strategy's parameters with a type that has only the ones it reads, use
/// [`Strategy`] (`Strategy::options` fills these in).
#[derive(Clone, Copy, Debug, PartialEq)]
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
    /// Bucket width of the bucketed strategies, in the weights' own terms ([`Width`]); `None`:
    /// [`heuristic_delta`].
    pub delta: Option<Width>,
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
    /// Certify every result before returning it ([`Certify`]); a result that fails is the
    /// run's [`Error::Verification`]. [`Stats::certified`] says where it ran.
    pub certify: Certify,
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
    /// Workers of the asynchronous strategy ([`asynchronous`]): warps on the GPU, threads on
    /// the CPU (which runs at most its pool's size at once). 0: two warps per SM on a GPU, the
    /// pool on the CPU. Also the threads of [`delta_stepping`] (0: the pool's).
    pub workers: u32,
    /// Log2 of the vertices per piece of [`resident`] (0: sized to the device).
    pub piece_bits: u32,
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
    /// Set the bucket width ([`Options::delta`]) instead of the heuristic: `with_delta(400u32)`
    /// on integer weights, `with_delta(2.5f32)` on real ones.
    pub fn with_delta(self, delta: impl Into<Width>) -> Self {
        Options { delta: Some(delta.into()), ..self }
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
    /// Set the asynchronous strategy's workers ([`Options::workers`]; 0 = the default).
    pub fn with_workers(self, workers: u32) -> Self {
        Options { workers, ..self }
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

    /// The delta to use on `g`, in its distance encoding (an `f32` bit pattern on real
    /// weights): the one asked for, checked ([`Width::encode`]), or the heuristic.
    /// (The bucket count is checked with it where it is used, by the strategy that runs.)
    pub fn delta_for(&self, g: &Graph) -> Result<u32> {
        match self.delta {
            Some(w) => w.encode(g.metric()),
            None => Ok(heuristic_delta(g)),
        }
    }
}

/// A bucket width in the weights' own terms: what every `delta` parameter takes.
/// `Width::from(400u32)` on integer weights, `Width::from(2.5f32)` on real ones. On real
/// weights an integer width is that number (2 is 2.0); on integer weights a real width must be
/// a whole number. Checked against the graph when a run starts ([`Width::encode`]), so a width
/// can be chosen before the graph is known.
///
/// ```
/// use sssp::graph::Metric;
/// use sssp::strategy::Width;
/// assert_eq!(Width::from(2u32).encode(Metric::Real).unwrap(), 2.0f32.to_bits());
/// assert_eq!(Width::from(40.0f32).encode(Metric::Integer).unwrap(), 40);
/// assert!(Width::from(2.5f32).encode(Metric::Integer).is_err());
/// assert!(Width::from(0u32).encode(Metric::Integer).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Width(WidthKind);

/// A real width keeps its bits, so that [`Width`] is `Eq` (as the strategies' parameter types
/// are).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum WidthKind {
    Int(u32),
    Real(u32),
}

impl From<u32> for Width {
    fn from(w: u32) -> Self {
        Width(WidthKind::Int(w))
    }
}

impl From<f32> for Width {
    fn from(w: f32) -> Self {
        Width(WidthKind::Real(w.to_bits()))
    }
}

impl Width {
    /// A width already in `metric`'s distance encoding (what [`heuristic_delta`] and
    /// [`scaled_delta`] return).
    pub fn encoded(metric: Metric, bits: u32) -> Self {
        match metric {
            Metric::Real => Width(WidthKind::Real(bits)),
            _ => Width(WidthKind::Int(bits)),
        }
    }

    /// The width as a number.
    pub fn value(self) -> f64 {
        match self.0 {
            WidthKind::Int(w) => w as f64,
            WidthKind::Real(b) => f32::from_bits(b) as f64,
        }
    }

    /// The width in `metric`'s distance encoding: a whole number from 1 to 2^32 - 2 on integer
    /// weights (2^32 - 1 is the kernels' unreached distance), the bits of a finite `f32` above
    /// 0 on real ones. [`Error::InvalidArgument`] otherwise.
    pub fn encode(self, metric: Metric) -> Result<u32> {
        let v = self.value();
        let bits = match (self.0, metric) {
            (WidthKind::Real(b), Metric::Real) => Some(b).filter(|_| f32::from_bits(b).is_finite() && v > 0.0),
            (WidthKind::Int(w), Metric::Real) => Some((w as f32).to_bits()).filter(|_| w > 0),
            (WidthKind::Int(w), _) => Some(w).filter(|&w| w > 0 && w < u32::MAX),
            (WidthKind::Real(_), _) => Some(v as u32).filter(|_| v.fract() == 0.0 && v >= 1.0 && v < u32::MAX as f64),
        };
        bits.ok_or_else(|| {
            let expected = match metric {
                Metric::Real => "a finite number above 0 (the graph has real weights)",
                _ => "a whole number from 1 to 2^32 - 2 (the graph has integer weights)",
            };
            Error::InvalidArgument(format!("bucket width (delta) {v}: expected {expected}"))
        })
    }
}

/// The warp width `c` of Davidson et al.'s delta heuristic.
pub const DELTA_C: u64 = 32;

/// Davidson et al.'s delta heuristic (§IV-D): `delta = c * w / d` with `w` the mean arc weight,
/// `d` the mean out-degree and `c` the warp width (32), after Meyer and Sanders' `Θ(1/d)`: wide
/// enough that a bucket holds a warp's worth of parallel work per vertex, narrow enough to save
/// most of Workfront's redundant relaxations. At least 1. Computed from the graph alone, in one
/// pass over the weights: `c * sum(w) * n / m^2`, from the graph's weight total (computed once
/// per graph, in parallel, and kept with it: [`Graph::weight_total`]).
pub fn heuristic_delta(g: &Graph) -> u32 {
    let (n, m) = (g.num_vertices() as u128, g.num_arcs() as u128);
    if m == 0 {
        return if g.metric() == Metric::Real { 1f32.to_bits() } else { 1 };
    }
    let sum: u128 = match g.weight_total() {
        crate::graph::WeightTotal::Integer(sum) => sum,
        crate::graph::WeightTotal::Real(sum) => {
            // The same formula in real arithmetic; the width is an f32 bit pattern like every
            // real distance, at least the smallest normal f32 (a zero width has no buckets).
            let d = DELTA_C as f64 * sum * n as f64 / (m as f64 * m as f64);
            return (d as f32).clamp(f32::MIN_POSITIVE, f32::MAX).to_bits();
        }
    };
    let d = DELTA_C as u128 * sum * n / (m * m);
    d.clamp(1, u32::MAX as u128 - 1) as u32
}

/// [`heuristic_delta`] times `factor`, as a bucket width of `g`'s metric (an f32 bit pattern on
/// real weights, scaled as the number it stands for), within the widths the kernels take.
pub fn scaled_delta(g: &Graph, factor: f64) -> u32 {
    let h = heuristic_delta(g);
    match g.metric() {
        Metric::Real => (f32::from_bits(h) * factor as f32).clamp(f32::MIN_POSITIVE, f32::MAX).to_bits(),
        _ => (h as f64 * factor).round().clamp(1.0, (u32::MAX - 1) as f64) as u32,
    }
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
            certify: Certify::Off,
            criterion: crauser::Criterion::Both,
            variant: crauser::Variant::Successor,
            classify: Classify::Auto,
            workers: 0,
            piece_bits: 0,
        }
    }
}

/// When a run relaxes through H-BF's edge classes ([`Options::classify`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Classify {
    /// When the arcs a classified run leaves out of its iterations (self-loops, arcs into
    /// sinks) are at least [`CLASSIFY_MIN_SHARE`] of the graph's: there the classes pay; on
    /// graphs with few of them, the classified kernels' extra branch cost more than they saved
    /// (H100, 2026-11-23). The classes are computed once per engine to know.
    #[default]
    Auto,
    /// Always (where the graph can be classified).
    On,
    /// Never: every arc relaxed as it is.
    Off,
}

/// [`Classify::Auto`]'s threshold: skipped self-loops plus arcs into sinks, as a share of all
/// arcs. Measured on the H100 (2026-11-23): with 29% of the arcs
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

/// Whether and where the strategies certify their results ([`Options::certify`]), with the
/// reference-free certificate of [`crate::verify`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Certify {
    /// Not at all (the caller may check the distances itself).
    Off,
    /// Where it is fastest: on the engine after an engine algorithm ([`certify::resident`], no
    /// download), except on a GPU for even-degree graphs of fewer than
    /// [`certify::HOST_CERTIFY_ARCS`] arcs (their traversal is a launch per level); on the host
    /// after a host algorithm, or when the engine has no memory left for the certificate's
    /// buffers.
    Auto,
    /// As `Auto`, but on the engine whenever an engine algorithm ran (what the GPU suite
    /// checks the device certificate with).
    Device,
    /// On the host ([`crate::verify`]) whatever ran: the certificate before the device one,
    /// kept to compare with it.
    Host,
}
