//! Arguments and helpers shared by the subcommands.

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use clap::Args;
use sssp::engine::{Balance, Dedupe, DeviceKind};
use sssp::graph::order::{Order, Relabelled};
use sssp::graph::Graph;
use sssp::hierarchy::{BuildProgress, Hierarchy};
use sssp::io::{Format, LoadOptions, RealPolicy};
use sssp::session::Session;
use sssp::strategy::crauser::{Criterion, Variant};
use sssp::strategy::{Algo, Classify, Driver, Options, Param, Solution, Strategy, Width};
use sssp::{Dist, Error, Metric, RealDistances, Result, WeightSpec, UNREACHED};

/// How to read a graph.
#[derive(Args, Clone)]
pub struct GraphArgs {
    /// Graph file, `-` for standard input (with --format), or `gen:SPEC` to generate one in
    /// memory (see `sssp gen --help`). Any file name the system allows, UTF-8 or not. Fifos,
    /// process substitution and /dev/stdin are read as streams; gzip, xz, zstd and bzip2 data is
    /// decompressed, told by its first bytes.
    pub graph: PathBuf,
    /// Input format when the extension does not tell: gr, mtx, el, snap, wel, metis, bin, sg, wsg.
    #[arg(long)]
    pub format: Option<String>,
    /// Weights: `given` (inputs without weights get random:1-255, GAP's convention), `unit`,
    /// `random[:LO-HI[:SEED]]` (uniform integers, a pure function of the seed and the edge),
    /// `real[:LO-HI[:SEED]]` (uniform f32 reals, default 0-1: real distances, see docs/gpu.md),
    /// or `shifted:LO-HI:P[:SEED]` (random integers plus p(u) - p(v) for a random vertex
    /// potential p in 0..=P: negative arcs, no negative cycle).
    #[arg(long, default_value = "given")]
    pub weights: String,
    /// Add the reverse of every arc (undirected inputs are always stored as two arcs).
    #[arg(long)]
    pub symmetrize: bool,
    /// Matrix Market `real` values: `native` (default: f32 weights and real distances),
    /// `reject` (an error), `round` (to the nearest integer, halves away from zero), or
    /// `scale:K` (multiply by K, then round the same way).
    #[arg(long, default_value = "native")]
    pub mtx_real: String,
    /// Keep a vertex count far beyond the edges: a header's `N` (DIMACS `p sp N M`, the Matrix
    /// Market size line), an edge list's `# vertices: N` or its largest id. Without this flag
    /// more than 16 x (edges + 1) + 1024 vertices is refused as a malformed file (exit 4),
    /// because every vertex costs memory and time even without arcs; with it the count is
    /// checked against memory instead (exit 5 at once if it cannot fit).
    #[arg(long)]
    pub sparse_ids: bool,
    /// Seed for `gen:` graphs.
    #[arg(long, default_value_t = 1)]
    pub gen_seed: u64,
}

impl GraphArgs {
    /// Load (or generate) the graph, reporting time and size on stderr.
    pub fn load(&self) -> Result<Graph> {
        let t = Instant::now();
        let weights = WeightSpec::parse(&self.weights)?;
        let g = if let Some(spec) = self.graph.to_str().and_then(|s| s.strip_prefix("gen:")) {
            let spec = sssp::generate::GenSpec::parse(spec)?;
            let g = sssp::generate::generate(&spec, self.gen_seed, weights)?;
            if self.symmetrize {
                return Err(Error::InvalidArgument(
                    "--symmetrize applies to files; generators choose their own symmetry".into(),
                ));
            }
            eprintln!("generated {} (seed {})", spec.name(), self.gen_seed);
            g
        } else {
            let opts = LoadOptions {
                format: self.format.as_deref().map(Format::parse).transpose()?,
                weights,
                symmetrize: self.symmetrize,
                real: RealPolicy::parse(&self.mtx_real)?,
                progress: true,
                sparse_ids: self.sparse_ids,
            };
            sssp::io::read_graph(&self.graph, &opts)?
        };
        eprintln!(
            "graph: {} vertices, {} arcs, loaded in {:.3} s",
            g.num_vertices(),
            g.num_arcs(),
            t.elapsed().as_secs_f64()
        );
        Ok(g)
    }
}

impl GraphArgs {
    /// The graph as the command line named it, for reports.
    pub fn name(&self) -> String {
        self.graph.to_string_lossy().into_owned()
    }

    /// [`GraphArgs::load`] for commands that solve: a graph without vertices has no source. An
    /// empty file is a well-formed graph (`info` and `convert` take it); solving from a source
    /// in it is the impossible request, like a source out of range: a usage error naming the
    /// file (exit 2), not malformed input.
    pub fn load_nonempty(&self) -> Result<Graph> {
        let g = self.load()?;
        if g.num_vertices() == 0 {
            return Err(Error::InvalidArgument(format!(
                "{}: the graph has no vertices: there is no source to solve from",
                self.graph.display()
            )));
        }
        Ok(g)
    }
}

/// `--order`: the vertex order a command solves in.
#[derive(Args, Clone)]
pub struct OrderArg {
    /// Vertex order to solve in: `input` (the graph's own ids), `degree` (relabelled by
    /// descending out-degree: the hubs first) or `bfs` (breadth-first from vertex 0). The graph
    /// is relabelled once after loading, timed apart (never in a solve's time); sources and
    /// targets are mapped in, and every vertex id printed or written is the graph's own (the
    /// same distances; a tree or nearest source may break a tie between equally short paths
    /// another way). Pays on large skewed graphs queried many times (kron 22 and 25 on an
    /// H100: 1.15-1.23x faster solves), not on road networks; costs a pass over every arc and
    /// a second copy of the graph (kron 22 on 2 cores: 2-3 s). Not with --devices or --hierarchy.
    #[arg(long, default_value = "input", value_parser = order_arg)]
    pub order: Order,
}

/// `--order`'s value: a name of [`Order::ALL`] (clap lists them on a mistake).
fn order_arg(s: &str) -> std::result::Result<Order, String> {
    s.parse::<Order>().map_err(|_| {
        let names: Vec<&str> = Order::ALL.iter().map(|o| o.name()).collect();
        format!("expected one of {}", names.join(", "))
    })
}

impl OrderArg {
    /// Refuse what cannot take another order: a contraction hierarchy file (`--hierarchy`) is
    /// keyed to the graph's own ids, and one written for a relabelled graph would serve only
    /// that order.
    pub fn check(&self, hierarchy: &HierarchyArg) -> Result<()> {
        if self.order != Order::Input && hierarchy.hierarchy.is_some() {
            return Err(Error::InvalidArgument(format!(
                "--order {} does not combine with --hierarchy (the file is keyed to the graph's own ids): leave one out",
                self.order
            )));
        }
        Ok(())
    }

    /// `g` relabelled by `--order` (kept as it is, without a copy, for `input`), said on
    /// stderr with its time, like the load's.
    pub fn apply(&self, g: Graph) -> Result<Ordered> {
        let t = Instant::now();
        let relabelled = Relabelled::new(g, self.order)?;
        let seconds = (self.order != Order::Input).then(|| t.elapsed().as_secs_f64());
        if let Some(secs) = seconds {
            let what = match self.order {
                Order::Degree => "descending out-degree",
                Order::Bfs | Order::Input => "breadth-first order",
            };
            eprintln!(
                "order: {} (vertices renumbered by {what}), relabelled in {secs:.3} s; ids in and out are the graph's own",
                self.order
            );
        }
        Ok(Ordered { relabelled, seconds })
    }
}

/// The graph a command solves on, relabelled by `--order`, and the maps to and from the user's
/// ids ([`Relabelled`]). With `--order input` every map is the identity and costs nothing.
pub struct Ordered {
    relabelled: Relabelled,
    /// The relabelling's time (`None` for `input`).
    pub seconds: Option<f64>,
}

impl Ordered {
    /// The graph to solve on.
    pub fn graph(&self) -> &Graph {
        self.relabelled.graph()
    }

    /// The order.
    pub fn order(&self) -> Order {
        self.relabelled.order()
    }

    /// The internal ids of the user's vertices (checked: [`Error::VertexOutOfRange`]).
    pub fn internal(&self, user: &[u32]) -> Result<Vec<u32>> {
        user.iter().map(|&v| self.relabelled.to_internal(v)).collect()
    }

    /// The user's id of an internal vertex.
    pub fn user(&self, internal: u32) -> u32 {
        self.relabelled.to_user(internal)
    }

    /// The user's ids of internal vertices.
    pub fn users(&self, internal: &[u32]) -> Vec<u32> {
        internal.iter().map(|&v| self.user(v)).collect()
    }

    /// Distances indexed by the user's ids (borrowed as they are for `input`).
    pub fn distances<'a>(&self, internal: &'a [Dist]) -> Result<std::borrow::Cow<'a, [Dist]>> {
        if self.relabelled.is_identity() {
            return Ok(std::borrow::Cow::Borrowed(internal));
        }
        Ok(std::borrow::Cow::Owned(self.relabelled.distances_to_user(internal)?))
    }

    /// `sol` (a run from the internal `roots`) in the user's ids: its distances, and its
    /// parents, built here on the graph solved on first when `tree` asks for them and the run
    /// did not (the parents a result file writes for `tree` and `nearest` outputs). For `input`,
    /// `sol` as it is.
    pub fn solution(&self, roots: &[u32], mut sol: Solution, tree: bool) -> Result<Solution> {
        if self.relabelled.is_identity() {
            return Ok(sol);
        }
        if tree && sol.parents.is_none() {
            sol.parents = Some(sssp::tree::predecessors_nearest(self.graph(), roots, &sol.dist, None)?);
        }
        sol.dist = self.relabelled.distances_to_user(&sol.dist)?;
        if let Some(p) = &sol.parents {
            sol.parents = Some(self.relabelled.parents_to_user(p)?);
        }
        Ok(sol)
    }

    /// The order and its time as JSON fields of a report (`order_seconds` null for `input`).
    pub fn json(&self) -> (&'static str, Option<f64>) {
        (self.order().name(), self.seconds)
    }
}

/// Start the GPU's set-up in the background (`sssp::engine::warm_up`) when `algo` runs on an
/// engine and `kind` may be the GPU: for commands that load the graph first.
pub fn warm_up(kind: DeviceKind, algo: Algo) {
    if algo.uses_engine() {
        sssp::engine::warm_up(kind);
    }
}

/// How to solve.
#[derive(Args, Clone)]
pub struct SolveArgs {
    /// Algorithm (the list is `Algo::ALL` with each one's summary: `algo_help`).
    #[arg(long, short = 'a', default_value = "auto", help = algo_help())]
    pub algo: String,
    /// Bucket width of the bucketed algorithms: near-far, bucketing, delta-stepping, async,
    /// resident (default: Davidson's heuristic, 32 x mean weight / mean out-degree, twice that
    /// for resident; printed with the result). A decimal on real-weighted graphs.
    #[arg(long)]
    pub delta: Option<String>,
    /// Buckets per window of bucketing (1-30; near-far is 1). [default: 10]
    #[arg(long)]
    pub buckets: Option<u32>,
    /// Distance cutoff: vertices farther than D are reported unreached, and the engines never
    /// relax towards them (work shrinks with D). A decimal on real-weighted graphs.
    #[arg(long, value_name = "D")]
    pub cutoff: Option<String>,
    /// Workfront <-> Near-Far hybrid for near-far and bucketing: an iteration whose input holds
    /// at least N vertices runs as a Workfront Sweep iteration (every improved vertex is expanded
    /// next, whatever its bucket); 0 = never. See docs/gpu.md for the measured switch points.
    /// [default: 0]
    #[arg(long, value_name = "N")]
    pub wide_at: Option<u32>,
    /// Device for engine algorithms: auto (GPU if usable, else CPU), gpu, cpu.
    #[arg(long, default_value = "auto")]
    pub device: String,
    /// Load balancing of the advance: thread, vwarp (dynamic virtual warps), partition
    /// (load-balanced partitioning), cta (cooperative blocks) or cta-warp-scan (Merrill's
    /// CTA+Warp+Scan); Davidson et al. 2014 §IV-B. [default: vwarp]
    #[arg(long)]
    pub balance: Option<String>,
    /// Hub threshold: frontier vertices with at least N out-arcs are expanded by a grid-wide
    /// partitioned pass instead of their thread, virtual warp or block (H-BF's high-degree
    /// path; 0 = never). Partition balance needs none. [default: 64] With --devices: a rank's
    /// queued vertex with at least N out-arcs is expanded by the rank's whole grid (at least
    /// 1; default 4096).
    #[arg(long, value_name = "N")]
    pub hub_degree: Option<u32>,
    /// H-BF's edge classes for the engine strategies (skip self-loops, relax arcs into sinks
    /// once at the end, store into in-degree-1 heads without an atomic; same distances either
    /// way): auto (when self-loops and arcs into sinks are at least 10% of the arcs, where they
    /// were measured to pay), on, off. [default: auto]
    #[arg(long, value_name = "auto|on|off")]
    pub classify: Option<String>,
    /// Same as `--classify off`.
    #[arg(long, conflicts_with = "classify")]
    pub no_classify: bool,
    /// Frontier duplicate removal: stamp (H-BF 64-bit atomic) or lookup (Davidson's table).
    /// [default: stamp]
    #[arg(long)]
    pub dedupe: Option<String>,
    /// Settle criterion of crauser: out (distance <= min of distance + least out-weight over
    /// the unsettled), in (distance - least in-weight <= least unsettled distance), both.
    /// [default: both]
    #[arg(long)]
    pub criterion: Option<String>,
    /// Relaxation of crauser, crauser-economic and martin: successor (the settled vertices push
    /// along their out-arcs) or predecessor (unsettled vertices pull over the reverse graph;
    /// every step scans all their in-arcs). [default: successor]
    #[arg(long)]
    pub variant: Option<String>,
    /// Read the frontier length back every K iterations (1 = every iteration); for workfront's
    /// launch-per-iteration loop (--host-loop, or partition balance) only: topo-bf reads its
    /// improved flag every iteration by design. [default: 8]
    #[arg(long)]
    pub check_every: Option<u32>,
    /// Launch once per iteration even where the device can run the whole loop itself (by
    /// default thread/vwarp balance with stamp dedupe run as one persistent launch).
    #[arg(long)]
    pub host_loop: bool,
    /// GPU latency mode for workfront, near-far and bucketing: run the loop in one block of
    /// 1024 threads with the near queues in shared memory instead of over the whole grid (for
    /// small frontiers: road graphs, meshes). Stamp dedupe only, never classifies, no
    /// --wide-at. Same distances.
    #[arg(long, conflicts_with = "host_loop")]
    pub block_loop: bool,
    /// Workers of --algo async: warps on the GPU, threads on the CPU backend (which runs at
    /// most its pool's size at once). Default: two warps per SM on a GPU (264 on an H100),
    /// the pool on the CPU. For --algo delta-stepping: its threads (default: the pool's), at
    /// most the machine's cores (more would only take turns at its barriers); above 4096 an
    /// error.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub workers: Option<u32>,
    /// Log2 of the vertices per piece of --algo resident, 4 to 12 (pieces of 16 to 4096
    /// vertices). Default: on a GPU, the size that spreads the pieces over its multiprocessors
    /// once; on the CPU backend, 12.
    #[arg(long, value_parser = clap::value_parser!(u32).range(4..=12))]
    pub piece_bits: Option<u32>,
    /// Source vertex (repeatable, or comma-separated: `--sources 3,17,42`). Default: `--trials`
    /// seeded random non-isolated vertices. Each source is a separate solve, on one upload of
    /// the graph (see --batch), unless --multi-source makes them one.
    #[arg(long, short = 's', value_delimiter = ',', visible_alias = "sources", allow_negative_numbers = true, value_parser = vertex_id)]
    pub source: Vec<u32>,
    /// Sources from a file, one vertex id per line (`#` comments), after any --source; at most
    /// 256 MiB (longer is refused).
    #[arg(long)]
    pub sources_file: Option<PathBuf>,
    /// Number of random sources (instead of explicit sources, which it cannot be combined with).
    #[arg(long, short = 'n', default_value_t = 1, conflicts_with_all = ["source", "sources_file"], value_parser = trials_arg)]
    pub trials: usize,
    /// Seed of the random source picker (printed with each run).
    #[arg(long, default_value_t = 27491095)]
    pub seed: u64,
    #[command(flatten)]
    pub hierarchy: HierarchyArg,
}

/// Where `--algo phast` keeps its contraction hierarchy between processes.
#[derive(Args, Clone)]
pub struct HierarchyArg {
    /// For --algo phast: read the graph's contraction hierarchy from FILE if it exists (it
    /// must have been written for this graph: a file of another graph, or a corrupt one, is
    /// an error), else build it and write it there. Without it every process builds its own.
    /// With --algo auto, full solves then run phast when the hierarchy's core is small (road
    /// networks, meshes).
    #[arg(long, value_name = "FILE")]
    pub hierarchy: Option<PathBuf>,
}

impl HierarchyArg {
    /// Read or build-and-write `g`'s hierarchy when `--hierarchy` was given (it must come with
    /// phast among `algos`), saying which on stderr; the caller gives it to the engine it opens
    /// ([`SolveArgs::open_engine`], `sssp::strategy::phast::attach`).
    pub fn apply(&self, g: &Graph, algos: &[Algo]) -> Result<Option<Arc<Hierarchy>>> {
        let Some(path) = &self.hierarchy else { return Ok(None) };
        if !algos.iter().any(|a| matches!(a, Algo::Phast | Algo::Auto)) {
            return Err(Error::InvalidArgument(
                "--hierarchy is the contraction hierarchy of --algo phast (or of auto, which runs phast on it)".into(),
            ));
        }
        let started = std::time::Instant::now();
        let bar = hierarchy_bar();
        let progress: &(dyn Fn(BuildProgress) + Sync) = match &bar {
            Some(b) => &**b,
            None => &|_| {},
        };
        let (h, read) = sssp::strategy::phast::hierarchy_file_reporting(g, path, progress)?;
        let took = started.elapsed().as_secs_f64();
        let what = if read { "read from" } else { "built and written to" };
        eprintln!("phast: contraction hierarchy {what} {} in {took:.2} s ({})", path.display(), h.stats.summary());
        Ok(Some(h))
    }
}

/// A bar on standard error for a contraction hierarchy's build (vertices contracted, rounds),
/// when standard error is a terminal, and drawn only once a build has taken a second: the
/// seconds a road graph of millions of vertices takes are then visible, while short builds,
/// tests and pipes print nothing. `None` off a terminal.
pub fn hierarchy_bar() -> Option<sssp::strategy::phast::Progress> {
    use std::io::IsTerminal;
    /// A build shorter than this draws nothing.
    const AFTER: std::time::Duration = std::time::Duration::from_secs(1);
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let state = std::sync::Mutex::new((Instant::now(), None::<indicatif::ProgressBar>));
    Some(Arc::new(move |p: BuildProgress| {
        let mut s = state.lock().unwrap_or_else(|e| e.into_inner());
        if p.rounds == 0 && !p.done {
            // A new build starts.
            *s = (Instant::now(), None);
        }
        if p.done {
            if let Some(bar) = s.1.take() {
                bar.finish_and_clear();
            }
            return;
        }
        if s.1.is_none() && s.0.elapsed() >= AFTER {
            let style = indicatif::ProgressStyle::with_template(
                "contracting [{bar:40}] {pos}/{len} vertices, {msg} ({elapsed})",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar());
            let bar = indicatif::ProgressBar::new(p.vertices).with_style(style.progress_chars("=> "));
            s.1 = Some(bar.with_elapsed(s.0.elapsed()));
        }
        if let Some(bar) = &s.1 {
            bar.set_position(p.vertices - p.remaining);
            bar.set_message(format!("round {}", p.rounds));
        }
    }))
}

/// Where a host algorithm (no engine) ran: the serial references on one thread, delta-stepping
/// on the threads its stats name.
pub fn host_device(stats: &sssp::strategy::Stats) -> String {
    match stats.host_threads {
        0 => "CPU (serial)".into(),
        1 => "CPU (1 thread)".into(),
        t => format!("CPU ({t} threads)"),
    }
}

pub fn parse_balance(s: &str) -> Result<Balance> {
    match s {
        "thread" => Ok(Balance::Thread),
        "vwarp" => Ok(Balance::VirtualWarp),
        "partition" | "lb" => Ok(Balance::Partition),
        "cta" => Ok(Balance::Cta),
        "cta-warp-scan" | "cws" => Ok(Balance::CtaWarpScan),
        _ => Err(Error::InvalidArgument(format!(
            "balance `{s}`: expected thread, vwarp, partition, cta or cta-warp-scan"
        ))),
    }
}

pub fn balance_name(b: Balance) -> &'static str {
    match b {
        Balance::Thread => "thread",
        Balance::VirtualWarp => "vwarp",
        Balance::Partition => "partition",
        Balance::Cta => "cta",
        Balance::CtaWarpScan => "cta-warp-scan",
    }
}

pub fn parse_dedupe(s: &str) -> Result<Dedupe> {
    match s {
        "stamp" => Ok(Dedupe::Stamp),
        "lookup" => Ok(Dedupe::Lookup),
        _ => Err(Error::InvalidArgument(format!("dedupe `{s}`: expected stamp or lookup"))),
    }
}

pub fn dedupe_name(d: Dedupe) -> &'static str {
    match d {
        Dedupe::Stamp => "stamp",
        Dedupe::Lookup => "lookup",
    }
}

impl SolveArgs {
    /// The files a solve reads beside the graph at `graph`, each with its name for messages
    /// (for `out::check_distinct`): the graph, the --sources-file and the --hierarchy file.
    pub fn input_files<'a>(&'a self, graph: &'a Path) -> Vec<(&'static str, &'a Path)> {
        let inputs = [
            ("the input graph", Some(graph)),
            ("the --sources-file", self.sources_file.as_deref()),
            ("the --hierarchy file", self.hierarchy.hierarchy.as_deref()),
        ];
        inputs.into_iter().filter_map(|(f, p)| Some((f, p?))).collect()
    }

    pub fn algo(&self) -> Result<Algo> {
        Algo::parse(&self.algo)
    }

    /// The solve options on `g` (its metric reads `--delta` and `--cutoff`): the query's, with
    /// the typed strategy of [`SolveArgs::strategy`] laid on.
    pub fn options(&self, g: &Graph, trace: bool) -> Result<Options> {
        self.options_for(g, self.algo()?, trace)
    }

    /// [`SolveArgs::options`] for `algo` rather than `--algo` (a distributed run is
    /// delta-stepping whatever `--algo` says, which it checked).
    pub fn options_for(&self, g: &Graph, algo: Algo, trace: bool) -> Result<Options> {
        let strategy = self.strategy(g, algo)?;
        let cutoff = self.cutoff.as_deref().map(|c| distance_arg(g, c, "--cutoff").map(|c| c as u64)).transpose()?;
        Ok(strategy.options(&Options { trace, cutoff, ..Options::default() }))
    }

    /// `algo` with the parameters its flags give, as the library's typed [`Strategy`]: a flag
    /// the strategy has no parameter for is refused ([`SolveArgs::check_flags`]).
    pub fn strategy(&self, g: &Graph, algo: Algo) -> Result<Strategy> {
        self.check_flags(algo)?;
        if self.check_every == Some(0) {
            return Err(Error::InvalidArgument("--check-every must be at least 1".into()));
        }
        let knobs = Knobs {
            delta: self.delta.as_deref().map(|x| delta_arg(g, x)).transpose()?,
            buckets: self.buckets,
            wide_at: self.wide_at,
            balance: self.balance.as_deref().map(parse_balance).transpose()?,
            hub_degree: self.hub_degree,
            dedupe: self.dedupe.as_deref().map(parse_dedupe).transpose()?,
            classify: match (self.no_classify, self.classify.as_deref()) {
                (true, _) => Some(Classify::Off),
                (false, c) => c.map(Classify::parse).transpose()?,
            },
            criterion: self.criterion.as_deref().map(Criterion::parse).transpose()?,
            variant: self.variant.as_deref().map(Variant::parse).transpose()?,
            check_every: self.check_every,
            driver: match (self.host_loop, self.block_loop) {
                (true, _) => Some(Driver::Host),
                (_, true) => Some(Driver::Block),
                _ => None,
            },
            workers: self.workers,
            piece_bits: self.piece_bits,
        };
        Ok(knobs.lay(Strategy::from(algo)))
    }

    /// Refuse the strategy flags that `algo` would ignore (the README promises that ignored
    /// arguments are errors): a flag whose parameter `algo`'s [`Strategy`] does not take.
    /// `auto` chooses the strategy and its parameters itself, so it takes none of them: naming
    /// the algorithm is how to tune one.
    pub fn check_flags(&self, algo: Algo) -> Result<()> {
        let given = [
            (Param::Delta, "--delta", self.delta.is_some()),
            (Param::Buckets, "--buckets", self.buckets.is_some()),
            (Param::WideAt, "--wide-at", self.wide_at.is_some()),
            (Param::Balance, "--balance", self.balance.is_some()),
            (Param::HubDegree, "--hub-degree", self.hub_degree.is_some()),
            (Param::Dedupe, "--dedupe", self.dedupe.is_some()),
            (Param::Classify, "--classify", self.classify.is_some() || self.no_classify),
            (Param::Criterion, "--criterion", self.criterion.is_some()),
            (Param::Variant, "--variant", self.variant.is_some()),
            (Param::CheckEvery, "--check-every", self.check_every.is_some()),
            (Param::Driver, "--host-loop", self.host_loop),
            (Param::Driver, "--block-loop", self.block_loop),
            (Param::Workers, "--workers", self.workers.is_some()),
            (Param::PieceBits, "--piece-bits", self.piece_bits.is_some()),
        ];
        let strategy = Strategy::from(algo);
        let Some(&(param, flag, _)) = given.iter().find(|(p, _, given)| *given && !strategy.takes(*p)) else {
            return Ok(());
        };
        let takers: Vec<&str> =
            Algo::ALL.iter().filter(|&&a| Strategy::from(a).takes(param)).map(|a| a.name()).collect();
        Err(Error::InvalidArgument(if algo == Algo::Auto {
            format!(
                "{flag} tunes a strategy, and --algo auto picks the strategy and its parameters itself: \
                 name one of {} with --algo to set it",
                takers.join(", ")
            )
        } else {
            format!("{flag} is read by {} only; `{}` would ignore it", takers.join(", "), algo.name())
        }))
    }

    /// [`warm_up`] on this device (nothing when it does not parse: the engine reports that).
    pub fn warm_up(&self, algo: Algo) {
        if let Ok(kind) = DeviceKind::parse(&self.device) {
            warm_up(kind, algo);
        }
    }

    /// A session on `--device` for `g` with the engine a run of `algo` with `opts` on `lanes`
    /// lanes needs opened now, and `hierarchy` (from `--hierarchy`) given to it
    /// ([`open_session`]).
    pub fn session<'g>(
        &self,
        g: &'g Graph,
        algo: Algo,
        opts: &Options,
        hierarchy: Option<Arc<Hierarchy>>,
        lanes: u32,
    ) -> Result<(Session<'g>, Option<String>)> {
        open_session(g, DeviceKind::parse(&self.device)?, algo, opts, hierarchy, lanes)
    }

    /// The explicit sources, or `trials` seeded random ones.
    pub fn sources(&self, g: &Graph) -> Result<Vec<u32>> {
        if g.num_vertices() == 0 {
            return Err(Error::InvalidArgument("the graph has no vertices: there is no source to solve from".into()));
        }
        let explicit = crate::sources::explicit(&self.source, self.sources_file.as_deref())?;
        if explicit.is_empty() {
            if self.trials == 0 {
                return Err(Error::InvalidArgument("--trials must be at least 1".into()));
            }
            let s = sssp::reference::pick_sources(g, self.trials, self.seed);
            eprintln!("sources: {} picked with seed {}", s.len(), self.seed);
            return Ok(s);
        }
        for &s in &explicit {
            sssp::reference::check_source(g, s)?;
        }
        Ok(explicit)
    }
}

/// A vertex id on the command line. Negative numbers reach this parser (`allow_negative_numbers`
/// on the argument) so that `--source -1` is told what a vertex id is, rather than clap's tip to
/// pass `-- -1`, which would make it a graph name.
pub fn vertex_id(s: &str) -> std::result::Result<u32, String> {
    s.trim().parse::<u32>().map_err(|_| {
        format!(
            "`{s}` is not a vertex id: ids are the graph's 0-based vertex numbers, integers from 0 to {}",
            u32::MAX - 1
        )
    })
}

/// The most random sources one command picks: a million solves is far past what a benchmark
/// needs (GAP uses 64), and a mistyped count (`-n 4000000000`) must be refused at once, not
/// fill memory with a source list and run for days (found by the fuzzer).
pub const MAX_TRIALS: usize = 1 << 20;

/// `--trials`: an integer in `0..=MAX_TRIALS` (0 is refused later, with the reason).
pub fn trials_arg(s: &str) -> std::result::Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if n <= MAX_TRIALS => Ok(n),
        Ok(_) => Err(format!("at most {MAX_TRIALS} random sources; give explicit ones with --sources-file")),
        Err(e) => Err(e.to_string()),
    }
}

/// A distance given on the command line, in `g`'s metric: an integer on integer-weighted graphs
/// (exact to 2^63, which a float would not be), a decimal (rounded to the nearest f32) on
/// real-weighted ones.
pub fn distance_arg(g: &Graph, s: &str, what: &str) -> Result<Dist> {
    match g.metric() {
        Metric::Integer | Metric::Signed => {
            let digits = !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit());
            match s.parse::<u64>().ok().filter(|&x| x < UNREACHED as u64) {
                Some(x) => Ok(x as Dist),
                None if digits => Err(Error::InvalidArgument(format!(
                    "{what} `{s}`: too large; distances go up to {} (2^63 - 2)",
                    UNREACHED - 1
                ))),
                None => Err(Error::InvalidArgument(format!(
                    "{what} `{s}`: expected a non-negative integer (the graph has integer weights)"
                ))),
            }
        }
        Metric::Real => {
            let x: f64 = s.parse().map_err(|_| {
                Error::InvalidArgument(format!("{what} `{s}`: expected a number (the graph has real weights)"))
            })?;
            Metric::Real.encode(x, what)
        }
    }
}

/// `--delta` on `g`: a distance above 0 that the kernels can hold.
pub fn delta_arg(g: &Graph, s: &str) -> Result<Width> {
    let d = distance_arg(g, s, "--delta")?;
    // u32::MAX is the kernels' unreached distance: no bucket width reaches it.
    if d == 0 || d >= u32::MAX as Dist {
        return Err(Error::InvalidArgument(format!("--delta `{s}`: expected a width above 0 and below 2^32 - 1")));
    }
    Ok(Width::encoded(g.metric(), d as u32))
}

/// A `--deltas` entry: a width as [`delta_arg`] reads it, or `Fx` for F (a positive number)
/// times the graph's heuristic width ([`sssp::strategy::scaled_delta`]).
pub fn delta_or_factor_arg(g: &Graph, s: &str) -> Result<Width> {
    let Some(f) = s.strip_suffix('x') else { return delta_arg(g, s) };
    match f.parse::<f64>() {
        Ok(f) if f.is_finite() && f > 0.0 => Ok(Width::encoded(g.metric(), sssp::strategy::scaled_delta(g, f))),
        _ => Err(Error::InvalidArgument(format!(
            "--deltas `{s}`: expected a width, or a positive factor of the heuristic such as `4x`"
        ))),
    }
}

/// Whether `algo` needs an engine on `g`. An engine algorithm on negative weights is an error
/// naming it (the engines only know they refuse); `auto` then picks Bellman-Ford and needs none.
pub fn engine_needed(g: &Graph, algo: Algo) -> Result<bool> {
    if !algo.uses_engine() {
        return Ok(false);
    }
    // Which algorithm takes which weights is the library's rule (`auto` picks accordingly).
    sssp::strategy::check_metric(g, algo, &Options::default())?;
    Ok(true)
}

/// A [`Session`] for `g` on `kind` with the engine a run of `algo` with `opts` on `lanes`
/// lanes needs opened now (none for the serial algorithms, nor for `auto` where it picks one on
/// the CPU: the CPU engine's buffers are sized by the graph, 26.7 s of set-up for 3e8 vertices,
/// and would go unused), `hierarchy` given to it (its sweep graph uploaded then, not
/// in the first solve). Says which device it is on stderr, with the set-up, the graph's upload
/// and the hierarchy's apart. Returns the session and the opened engine's device, if any.
pub fn open_session<'g>(
    g: &'g Graph,
    kind: DeviceKind,
    algo: Algo,
    opts: &Options,
    hierarchy: Option<Arc<Hierarchy>>,
    lanes: u32,
) -> Result<(Session<'g>, Option<String>)> {
    let needed = engine_needed(g, algo)?;
    let mut session = Session::new(g, kind)?;
    if let Some(bar) = hierarchy_bar() {
        session.report_hierarchy_builds(bar);
    }
    if let Some(h) = hierarchy {
        session.set_hierarchy(h)?;
    }
    if needed {
        session.open_for(algo, opts, lanes)?;
    }
    let Some(o) = session.take_opened() else {
        if let (true, DeviceKind::Auto, Some(why)) = (needed, kind, session.fallback()) {
            eprintln!("no usable GPU ({why}); auto runs an algorithm on the host, so no engine is opened");
        }
        return Ok((session, None));
    };
    if let (DeviceKind::Auto, Some(why)) = (kind, session.fallback()) {
        eprintln!("no usable GPU ({why}); using the CPU backend");
    }
    let secs = |d: std::time::Duration| d.as_secs_f64();
    if o.lanes > 1 {
        eprintln!("device: {} ({} lanes, set-up and upload {:.3} s)", o.device, o.lanes, secs(o.setup + o.upload));
    } else {
        let with_hierarchy =
            o.hierarchy_upload.map(|t| format!(", hierarchy upload {:.3} s", secs(t))).unwrap_or_default();
        eprintln!(
            "device: {} (set-up {:.3} s, graph upload {:.3} s{with_hierarchy})",
            o.device,
            secs(o.setup),
            secs(o.upload)
        );
    }
    Ok((session, Some(o.device)))
}

/// Graphs below this many arcs get the serial reference with `--verify` without asking
/// (`--reference`): it costs seconds from about there on (kron 21's 67M arcs: minutes).
pub const REFERENCE_ARCS: usize = 2_000_000;

/// Whether `run --verify` compares with the serial reference: when asked, or on small graphs.
pub fn reference_wanted(g: &Graph, asked: bool) -> bool {
    asked || g.num_arcs() < REFERENCE_ARCS
}

/// The strategies' certificate for `--verify` (`--host-certificate`: on the host).
pub fn certify_mode(verify: bool, host: bool) -> sssp::strategy::Certify {
    match (verify, host) {
        (false, _) => sssp::strategy::Certify::Off,
        (true, false) => sssp::strategy::Certify::Auto,
        (true, true) => sssp::strategy::Certify::Host,
    }
}

/// What certified `sol` (the strategies did, as `opts.certify` asked; the host here if they
/// did not): `certificate on the device in 1.234 ms`.
fn certified(g: &Graph, from: &[u32], sol: &Solution, opts: &Options) -> Result<String> {
    let (on, took) = match sol.stats.certified {
        Some(on) => (on, sol.stats.certify),
        None => {
            let t = std::time::Instant::now();
            sssp::verify::check_nearest_within(g, from, &sol.dist, opts.query_bound(&sol.dist))?;
            (sssp::strategy::certify::Certified::Host, t.elapsed())
        }
    };
    Ok(format!("certificate on the {} in {:.3} ms", on.name(), took.as_secs_f64() * 1e3))
}

/// Verify a result: the certificate always (see [`certified`]); against the serial reference
/// when `reference`. Returns a short description of what was checked.
pub fn verify(g: &Graph, src: u32, sol: &Solution, reference: bool, opts: &Options) -> Result<String> {
    let what = certified(g, &[src], sol, opts)?;
    if !reference {
        return Ok(what);
    }
    // A cutoff or target query answers up to a bound: the reference is clipped to it.
    let dist = &sol.dist;
    let bound = opts.query_bound(dist);
    let mut want = match g.weights() {
        sssp::Weights::Unsigned(_) | sssp::Weights::Real(_) => sssp::reference::dijkstra(g, src)?,
        sssp::Weights::Signed(_) => sssp::reference::bellman_ford(g, src)?,
    };
    if let Some(b) = bound {
        want.iter_mut().filter(|d| **d > b).for_each(|d| *d = UNREACHED);
    }
    sssp::verify::compare_in(g.metric(), dist, &want)?;
    Ok(format!("{what}+reference"))
}

/// Verify a nearest-source result: the certificate with every source a root; against
/// multi-source Dijkstra too when `reference`.
pub fn verify_nearest(g: &Graph, sources: &[u32], sol: &Solution, reference: bool, opts: &Options) -> Result<String> {
    let what = certified(g, sources, sol, opts)?;
    if !reference {
        return Ok(what);
    }
    let bound = opts.query_bound(&sol.dist);
    let mut want = sssp::reference::dijkstra_nearest(g, sources)?;
    if let Some(b) = bound {
        want.iter_mut().filter(|d| **d > b).for_each(|d| *d = UNREACHED);
    }
    sssp::verify::compare_in(g.metric(), &sol.dist, &want)?;
    Ok(format!("{what}+reference"))
}

/// One line (or JSON object) per trial on `device` (the engine's name, if one was opened): the
/// run from `from` (one source, or the set of a
/// nearest-source run), in the user's ids; `order`: the `--order` and its time, for JSON.
#[allow(clippy::too_many_arguments)]
pub fn report(
    g: &Graph,
    algo: Algo,
    device: Option<&str>,
    from: &[u32],
    sol: &Solution,
    verified: Option<&str>,
    json: bool,
    to: crate::out::Channel,
    order: (&str, Option<f64>),
) {
    let s = &sol.stats;
    let reached = sol.dist.iter().filter(|&&d| d != UNREACHED).count();
    let secs = s.compute.as_secs_f64();
    let gteps = if secs > 0.0 { g.num_arcs() as f64 / secs / 1e9 } else { 0.0 };
    // What really ran: `auto` names its choice, and a serial choice ran on the host.
    let ran = s.chosen_algo.unwrap_or(algo);
    let device = if ran.uses_engine() { device } else { None }.map_or_else(|| host_device(s), str::to_string);
    let label = match s.chosen_algo {
        Some(a) => format!("auto ({})", a.name()),
        None => algo.name().to_string(),
    };
    let batch = s.batch.map(|k| format!(", batch of {k} (times are the pass's)")).unwrap_or_default();
    if json {
        let source = match from {
            [one] => serde_json::json!(one),
            _ => serde_json::Value::Null,
        };
        let sources = (from.len() > 1).then_some(from);
        let v = serde_json::json!({
            "algo": algo, "device": device, "source": source, "sources": sources, "batch": s.batch, "reached": reached,
            "seconds": secs, "gteps": gteps, "download_seconds": s.download.as_secs_f64(),
            "classify_seconds": s.classify.as_secs_f64(), "classes_used": s.classes_used, "prepare_seconds": s.prepare.as_secs_f64(),
            "hierarchy_upload_seconds": s.hierarchy_upload.as_secs_f64(),
            "iterations": s.iterations, "arcs_relaxed": s.arcs_relaxed,
            "vertices_processed": s.vertices_processed, "readbacks": s.readbacks,
            "delta": s.delta.map(|d| dist_json(g.metric(), d as Dist)), "buckets": s.buckets, "far_splits": s.far_splits, "chosen": s.chosen,
            "settled_per_step": s.settled_per_step, "verified": verified,
            "certified_on": s.certified, "certify_seconds": s.certified.map(|_| s.certify.as_secs_f64()),
            "device_bytes": s.device_memory.map(|f| f.bytes), "device_arc_bytes": s.device_memory.map(|f| f.arc_bytes),
            "order": order.0, "order_seconds": order.1,
        });
        to.line(format_args!("{v}"));
    } else {
        let buckets = run_notes(g, s);
        // The serial references have no iterations to count.
        let iterations = if ran.uses_engine() { format!(", {} iterations", s.iterations) } else { String::new() };
        let from = match from {
            [one] => format!("source {one}"),
            many if many.len() <= 8 => {
                format!("nearest of sources {}", many.iter().map(u32::to_string).collect::<Vec<_>>().join(","))
            }
            many => format!("nearest of {} sources", many.len()),
        };
        to.line(format_args!(
            "{} on {}: {from}, reached {reached}, {:.3} ms ({}){iterations}, {} arcs relaxed{buckets}{batch}{}",
            label,
            device,
            secs * 1e3,
            teps(gteps * 1e9),
            s.arcs_relaxed,
            verified.map(|v| format!(", verified ({v})")).unwrap_or_default()
        ));
        if let Some(f) = s.device_memory {
            to.line(format_args!("device memory: {}", memory_line(g, f)));
        }
    }
}

/// The text report's notes on a run: its buckets and far-pile splits, the vertices settled per
/// step, and the once-per-engine costs outside its clock (edge classes, PHAST's hierarchy).
fn run_notes(g: &Graph, s: &sssp::strategy::Stats) -> String {
    let buckets = match (s.delta.map(|d| g.metric().show(d as Dist)), s.buckets) {
        (Some(d), Some(1)) => format!(", delta {d}, {} far-pile splits", s.far_splits),
        (Some(d), Some(a)) => format!(", delta {d} x {a} buckets, {} far-pile splits", s.far_splits),
        _ => String::new(),
    };
    let buckets = match s.settled_per_step {
        Some(x) => format!("{buckets}, {x:.1} vertices settled per step"),
        None => buckets,
    };
    // The edge classes are computed once per engine, before the first run's clock starts.
    // `--classify auto` counts the classes, then relaxes without them where they do not pay.
    let buckets = match (s.classify.is_zero(), s.classes_used) {
        (true, _) => buckets,
        (false, true) => format!(
            "{buckets} (+{:.3} ms for the edge classes and their kernels, once)",
            s.classify.as_secs_f64() * 1e3
        ),
        (false, false) => format!(
            "{buckets} (+{:.3} ms to count the edge classes, once; too few to pay, so not used)",
            s.classify.as_secs_f64() * 1e3
        ),
    };
    // PHAST's hierarchy, when --hierarchy did not give one, is built by the graph's first
    // solve, and put on the device with it, outside its clock.
    let buckets = if s.prepare.is_zero() {
        buckets
    } else {
        format!("{buckets} (+{:.3} s to build the contraction hierarchy, once)", s.prepare.as_secs_f64())
    };
    let buckets = if s.hierarchy_upload.is_zero() {
        buckets
    } else {
        format!(
            "{buckets} (+{:.3} ms to put the contraction hierarchy on the device, once)",
            s.hierarchy_upload.as_secs_f64() * 1e3
        )
    };
    buckets
}

/// A run's device memory for people: `1.23 GB peak (8.0 B/arc + 40.0 B/vertex)`, the peak split
/// into the buffers sized by arcs (per arc of the graph) and the rest (per vertex, fixed-size
/// buffers included).
pub fn memory_line(g: &Graph, f: sssp::device::Footprint) -> String {
    let b = f.bytes as f64;
    let size = if b >= 1e9 {
        format!("{:.2} GB", b / 1e9)
    } else if b >= 1e6 {
        format!("{:.2} MB", b / 1e6)
    } else {
        format!("{:.1} kB", b / 1e3)
    };
    let per_arc = f.arc_bytes as f64 / g.num_arcs().max(1) as f64;
    let per_vertex = (f.bytes - f.arc_bytes) as f64 / g.num_vertices().max(1) as f64;
    format!("{size} peak ({per_arc:.1} B/arc + {per_vertex:.1} B/vertex)")
}

/// A traversal rate in a unit that shows its digits: GTEPS from 1e9 arcs/s, MTEPS from 1e6,
/// kTEPS below (a serial run on a road graph is about 1 MTEPS, which "0.000 GTEPS" hid).
pub fn teps(arcs_per_sec: f64) -> String {
    if arcs_per_sec >= 1e9 {
        format!("{:.2} GTEPS", arcs_per_sec / 1e9)
    } else if arcs_per_sec >= 1e6 {
        format!("{:.1} MTEPS", arcs_per_sec / 1e6)
    } else {
        format!("{:.1} kTEPS", arcs_per_sec / 1e3)
    }
}

/// A result file, or standard output for `-`.
pub fn create_output(path: &Path) -> Result<BufWriter<Box<dyn Write>>> {
    let w: Box<dyn Write> = if crate::out::is_stdout(path) {
        Box::new(std::io::stdout())
    } else {
        Box::new(std::fs::File::create(path).map_err(|e| Error::io(path, e))?)
    };
    Ok(BufWriter::new(w))
}

pub fn write_trace(path: &PathBuf, trace: &[sssp::strategy::IterTrace]) -> Result<()> {
    let mut w = create_output(path)?;
    let io = |e| Error::io(path, e);
    writeln!(w, "iter,frontier,arcs,micros,bucket,far,slots").map_err(io)?;
    for t in trace {
        writeln!(w, "{},{},{},{:.1},{},{},{}", t.iter, t.frontier, t.arcs, t.micros, t.bucket, t.far, t.slots)
            .map_err(io)?;
    }
    w.flush().map_err(io)
}

/// A distance as result files write it: `inf` for unreached, real distances as the shortest
/// decimal that reads back as the same f32.
pub fn fmt_dist(m: Metric, d: Dist) -> String {
    m.show(d)
}

/// A distance (a delta, a weight) for JSON: an integer, or the f32 value on real graphs.
pub fn dist_json(m: Metric, d: Dist) -> serde_json::Value {
    match m {
        Metric::Real => serde_json::json!(f32::from_bits(d as u32) as f64),
        Metric::Integer | Metric::Signed => serde_json::json!(d),
    }
}

/// A vertex as result files write it (`-` for none).
fn fmt_vertex(v: u32) -> String {
    if v == sssp::graph::NO_VERTEX {
        "-".to_string()
    } else {
        v.to_string()
    }
}

/// Write the result of a run from `roots` (one source, or a nearest-source set) as `kind`:
/// `distances`, `tree` or `nearest` (see `sssp run --help`).
pub fn write_result(g: &Graph, roots: &[u32], sol: &Solution, path: &Path, kind: &str) -> Result<()> {
    let mut w = create_output(path)?;
    let io = |e| Error::io(path, e);
    let m = g.metric();
    let fmt = |d| fmt_dist(m, d);
    let dist = &sol.dist;
    if kind == "tree" || kind == "nearest" {
        let pred = match &sol.parents {
            Some(p) => std::borrow::Cow::Borrowed(p),
            None => std::borrow::Cow::Owned(sssp::tree::predecessors_nearest(g, roots, dist, None)?),
        };
        if kind == "tree" {
            for (v, (&p, &d)) in pred.iter().zip(dist).enumerate() {
                writeln!(w, "{v} {} {}", fmt_vertex(p), fmt(d)).map_err(io)?;
            }
        } else {
            let near = sssp::tree::nearest_roots(&pred, roots);
            for (v, (&s, &d)) in near.iter().zip(dist).enumerate() {
                writeln!(w, "{v} {} {}", fmt_vertex(s), fmt(d)).map_err(io)?;
            }
        }
    } else {
        for (v, &d) in dist.iter().enumerate() {
            writeln!(w, "{v} {}", fmt(d)).map_err(io)?;
        }
    }
    w.flush().map_err(io)
}

pub fn write_graph(g: &Graph, path: &Path, format: Format) -> Result<()> {
    match format {
        Format::Binary => sssp::io::binary::write(g, path),
        f => sssp::io::write_text(g, path, f),
    }
}

/// The `--algo` help: every algorithm of [`Algo::ALL`] with its summary, so that a new one is
/// listed without an edit here.
pub fn algo_help() -> String {
    let each: Vec<String> = Algo::ALL.iter().map(|a| format!("{} ({})", a.name(), a.summary())).collect();
    format!("Algorithm: {}", each.join(", "))
}

/// Strategy parameters parsed from flags or a benchmark row; `None`: not given (the
/// strategy's default stays).
#[derive(Clone, Copy, Debug, Default)]
pub struct Knobs {
    pub delta: Option<Width>,
    pub buckets: Option<u32>,
    pub wide_at: Option<u32>,
    pub balance: Option<Balance>,
    pub hub_degree: Option<u32>,
    pub dedupe: Option<Dedupe>,
    pub classify: Option<Classify>,
    pub criterion: Option<Criterion>,
    pub variant: Option<Variant>,
    pub check_every: Option<u32>,
    pub driver: Option<Driver>,
    pub workers: Option<u32>,
    pub piece_bits: Option<u32>,
}

impl Knobs {
    /// `s` with the given knobs that it has a parameter for laid on (the others are left out:
    /// [`SolveArgs::check_flags`] refuses them first where the user gave them).
    pub fn lay(&self, mut s: Strategy) -> Strategy {
        fn set<T: Copy>(field: &mut T, knob: Option<T>) {
            if let Some(k) = knob {
                *field = k;
            }
        }
        let spread = |sp: &mut sssp::strategy::Spread| {
            set(&mut sp.balance, self.balance);
            set(&mut sp.hub_degree, self.hub_degree);
            set(&mut sp.classify, self.classify);
        };
        let settle = |st: &mut sssp::strategy::crauser::Settle| {
            set(&mut st.balance, self.balance);
            set(&mut st.classify, self.classify);
            set(&mut st.variant, self.variant);
        };
        if let Some(f) = s.frontier_mut() {
            spread(&mut f.spread);
            set(&mut f.dedupe, self.dedupe);
            set(&mut f.driver, self.driver);
        }
        let delta = self.delta.map(Some);
        match &mut s {
            Strategy::DeltaStepping(p) => {
                set(&mut p.delta, delta);
                set(&mut p.threads, self.workers);
            }
            Strategy::Async(p) => {
                set(&mut p.delta, delta);
                set(&mut p.workers, self.workers);
            }
            Strategy::Resident(p) => {
                set(&mut p.delta, delta);
                set(&mut p.piece_bits, self.piece_bits);
            }
            Strategy::TopoBf(p) => spread(&mut p.spread),
            Strategy::Workfront(p) => set(&mut p.check_every, self.check_every),
            Strategy::NearFar(p) => {
                set(&mut p.delta, delta);
                set(&mut p.wide_at, self.wide_at);
            }
            Strategy::Bucketing(p) => {
                set(&mut p.delta, delta);
                set(&mut p.buckets, self.buckets);
                set(&mut p.wide_at, self.wide_at);
            }
            Strategy::Crauser(p) => {
                settle(&mut p.settle);
                set(&mut p.criterion, self.criterion);
            }
            Strategy::CrauserEconomic(p) | Strategy::Martin(p) => settle(p),
            Strategy::Auto | Strategy::Dijkstra | Strategy::BellmanFord | Strategy::Phast => {}
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::{CommandFactory, Parser};

    #[derive(Parser)]
    struct Solve {
        #[command(flatten)]
        solve: SolveArgs,
    }

    fn parse(args: &[&str]) -> SolveArgs {
        Solve::try_parse_from(std::iter::once("sssp").chain(args.iter().copied())).unwrap().solve
    }

    /// The strategy flags have no clap defaults (so that a given flag can be told from a left-out
    /// one); their help states the library's defaults, which must stay the real ones.
    #[test]
    fn stated_defaults_are_the_library_defaults() {
        let help = Solve::command().render_long_help().to_string();
        let d = Options::default();
        for stated in [
            format!("[default: {}]", d.buckets),
            format!("[default: {}]", d.hub_degree),
            format!("[default: {}]", d.check_every),
            format!("[default: {}]", d.wide_at),
            format!("[default: {}]", balance_name(d.balance)),
            format!("[default: {}]", dedupe_name(d.dedupe)),
        ] {
            assert!(help.contains(&stated), "no {stated} in\n{help}");
        }
    }

    /// `run --help` names every algorithm (the list comes from `Algo::ALL`).
    #[test]
    fn algo_help_names_every_algorithm() {
        let help = Solve::command().render_long_help().to_string().split_whitespace().collect::<Vec<_>>().join(" ");
        for a in Algo::ALL {
            assert!(
                help.contains(&format!("{} ({}", a.name(), &a.summary()[..10])),
                "{} missing from\n{help}",
                a.name()
            );
        }
    }

    #[test]
    fn flags_an_algorithm_would_ignore_are_refused() {
        let refused = |args: &[&str], algo| parse(args).check_flags(algo).unwrap_err().to_string();
        assert!(refused(&["--delta", "5"], Algo::Dijkstra)
            .contains("delta-stepping, near-far, bucketing, async, resident only"));
        assert!(refused(&["--piece-bits", "5"], Algo::Bucketing).contains("resident only"));
        assert!(refused(&["--buckets", "4"], Algo::NearFar).contains("`near-far` would ignore it"));
        assert!(refused(&["--balance", "cta"], Algo::Dijkstra).contains("--balance"));
        assert!(refused(&["--hub-degree", "4"], Algo::Crauser).contains("--hub-degree"));
        assert!(refused(&["--no-classify"], Algo::Phast).contains("--classify"));
        assert!(refused(&["--delta", "5"], Algo::Auto).contains("--algo auto picks"));
        assert!(refused(&["--block-loop"], Algo::Auto).contains("--block-loop"));
        assert!(refused(&["--criterion", "in"], Algo::Martin).contains("crauser only"));
        // What each algorithm reads is accepted, and no flag is accepted by all.
        assert!(parse(&["--delta", "5", "--buckets", "4", "--wide-at", "9", "--block-loop"])
            .check_flags(Algo::Bucketing)
            .is_ok());
        assert!(parse(&["--balance", "cta", "--variant", "predecessor"]).check_flags(Algo::Martin).is_ok());
        assert!(parse(&["--hub-degree", "0", "--classify", "on"]).check_flags(Algo::TopoBf).is_ok());
        // Topology-driven Bellman-Ford reads its improved flag every iteration by design.
        assert!(refused(&["--check-every", "2"], Algo::TopoBf).contains("workfront only"));
        assert!(parse(&["--cutoff", "5"]).check_flags(Algo::Dijkstra).is_ok());
        assert!(parse(&[]).check_flags(Algo::Auto).is_ok());
    }
}
