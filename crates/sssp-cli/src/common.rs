//! Arguments and helpers shared by the subcommands.

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;
use sssp::engine::{self, Balance, Dedupe, DeviceKind, Engine};
use sssp::io::{Format, LoadOptions, RealPolicy};
use sssp::strategy::crauser::{Criterion, Variant};
use sssp::strategy::{Algo, Classify, Options, Solution};
use sssp::{Dist, Error, Graph, Metric, RealDistances, Result, WeightSpec, UNREACHED};

/// How to read a graph.
#[derive(Args, Clone)]
pub struct GraphArgs {
    /// Graph file, or `gen:SPEC` to generate one in memory (see `sssp gen --help`).
    pub graph: String,
    /// Input format when the extension does not tell: gr, mtx, el, snap, wel, metis, bin.
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
    /// Seed for `gen:` graphs.
    #[arg(long, default_value_t = 1)]
    pub gen_seed: u64,
}

impl GraphArgs {
    /// Load (or generate) the graph, reporting time and size on stderr.
    pub fn load(&self) -> Result<Graph> {
        let t = Instant::now();
        let weights = WeightSpec::parse(&self.weights)?;
        let g = if let Some(spec) = self.graph.strip_prefix("gen:") {
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
            };
            sssp::io::read_graph(Path::new(&self.graph), &opts)?
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
    /// [`GraphArgs::load`] for commands that solve: a graph without vertices has no source, and
    /// since only an input can be empty (generators refuse empty specs) that is bad input naming
    /// the file (exit 4), not a bad argument.
    pub fn load_nonempty(&self) -> Result<Graph> {
        let g = self.load()?;
        if g.num_vertices() == 0 {
            return Err(Error::parse(&self.graph, 0, "the graph has no vertices: there is no source to solve from"));
        }
        Ok(g)
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
    /// Algorithm: auto (picks one of the others and its balance and delta from the device and
    /// the graph, and says which and why), dijkstra, bellman-ford (serial references;
    /// bellman-ford accepts negative weights), topo-bf (topology-driven Bellman-Ford), workfront
    /// (Workfront Sweep), near-far (Near-Far Pile), bucketing (delta-stepping with a window of
    /// buckets and a far pile), crauser (parallel Dijkstra: each step settles every vertex
    /// Crauser's criterion proves final; see --criterion), crauser-economic (the same with one
    /// global least arc weight), martin (parallel Dijkstra settling the minimum distance).
    #[arg(long, short = 'a', default_value = "auto")]
    pub algo: String,
    /// Bucket width of near-far and bucketing (default: Davidson's heuristic, 32 x mean weight
    /// / mean out-degree, printed with the result). A decimal on real-weighted graphs.
    #[arg(long)]
    pub delta: Option<String>,
    /// Buckets per window of bucketing (1-30; near-far is 1).
    #[arg(long, default_value_t = sssp::strategy::bucketing::DEFAULT_BUCKETS)]
    pub buckets: u32,
    /// Distance cutoff: vertices farther than D are reported unreached, and the engines never
    /// relax towards them (work shrinks with D). A decimal on real-weighted graphs.
    #[arg(long, value_name = "D")]
    pub cutoff: Option<String>,
    /// Workfront <-> Near-Far hybrid for near-far and bucketing: an iteration whose input holds
    /// at least N vertices runs as a Workfront Sweep iteration (every improved vertex is expanded
    /// next, whatever its bucket); 0 = never. See docs/gpu.md for the measured switch points.
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub wide_at: u32,
    /// Device for engine algorithms: auto (GPU if usable, else CPU), gpu, cpu.
    #[arg(long, default_value = "auto")]
    pub device: String,
    /// Load balancing of the advance: thread, vwarp (dynamic virtual warps), partition
    /// (load-balanced partitioning), cta (cooperative blocks) or cta-warp-scan (Merrill's
    /// CTA+Warp+Scan); Davidson et al. 2014 §IV-B.
    #[arg(long, default_value = "vwarp")]
    pub balance: String,
    /// Hub threshold: frontier vertices with at least N out-arcs are expanded by a grid-wide
    /// partitioned pass instead of their thread, virtual warp or block (H-BF's high-degree
    /// path; 0 = never). Partition balance needs none.
    #[arg(long, default_value_t = sssp::HUB_DEGREE, value_name = "N")]
    pub hub_degree: u32,
    /// H-BF's edge classes for the engine strategies (skip self-loops, relax arcs into sinks
    /// once at the end, store into in-degree-1 heads without an atomic; same distances either
    /// way): auto (when self-loops and arcs into sinks are at least 10% of the arcs, where they
    /// were measured to pay), on, off.
    #[arg(long, default_value = "auto", value_name = "auto|on|off")]
    pub classify: String,
    /// Same as `--classify off`.
    #[arg(long, conflicts_with = "classify")]
    pub no_classify: bool,
    /// Frontier duplicate removal: stamp (H-BF 64-bit atomic) or lookup (Davidson's table).
    #[arg(long, default_value = "stamp")]
    pub dedupe: String,
    /// Settle criterion of crauser: out (distance <= min of distance + least out-weight over
    /// the unsettled), in (distance - least in-weight <= least unsettled distance), both.
    #[arg(long, default_value = "both")]
    pub criterion: String,
    /// Relaxation of crauser, crauser-economic and martin: successor (the settled vertices push
    /// along their out-arcs) or predecessor (unsettled vertices pull over the reverse graph;
    /// every step scans all their in-arcs).
    #[arg(long, default_value = "successor")]
    pub variant: String,
    /// Read the frontier length back every K iterations (1 = every iteration); for the
    /// launch-per-iteration loop only.
    #[arg(long, default_value_t = 8)]
    pub check_every: u32,
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
    /// Source vertex (repeatable, or comma-separated: `--sources 3,17,42`). Default: `--trials`
    /// seeded random non-isolated vertices. Each source is a separate solve, on one upload of
    /// the graph (see --batch), unless --multi-source makes them one.
    #[arg(long, short = 's', value_delimiter = ',', visible_alias = "sources")]
    pub source: Vec<u32>,
    /// Sources from a file, one vertex id per line (`#` comments), after any --source.
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
    /// phast among `algos`), saying which on stderr.
    pub fn apply(&self, g: &Graph, algos: &[Algo]) -> Result<()> {
        let Some(path) = &self.hierarchy else { return Ok(()) };
        if !algos.iter().any(|a| matches!(a, Algo::Phast | Algo::Auto)) {
            return Err(Error::InvalidArgument(
                "--hierarchy is the contraction hierarchy of --algo phast (or of auto, which runs phast on it)".into(),
            ));
        }
        let started = std::time::Instant::now();
        let (h, read) = g.hierarchy_file(path)?;
        let took = started.elapsed().as_secs_f64();
        let what = if read { "read from" } else { "built and written to" };
        eprintln!("phast: contraction hierarchy {what} {} in {took:.2} s ({})", path.display(), h.stats.summary());
        Ok(())
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
    pub fn algo(&self) -> Result<Algo> {
        Algo::parse(&self.algo)
    }

    /// The solve options on `g` (its metric reads `--delta` and `--cutoff`).
    pub fn options(&self, g: &Graph, trace: bool) -> Result<Options> {
        if self.check_every == 0 {
            return Err(Error::InvalidArgument("--check-every must be at least 1".into()));
        }
        Ok(Options {
            balance: parse_balance(&self.balance)?,
            hub_degree: self.hub_degree,
            dedupe: parse_dedupe(&self.dedupe)?,
            check_every: self.check_every,
            trace,
            device_loop: !self.host_loop,
            block_loop: self.block_loop,
            delta: self.delta.as_deref().map(|d| delta_arg(g, d)).transpose()?,
            buckets: self.buckets,
            wide_at: self.wide_at,
            cutoff: self.cutoff.as_deref().map(|c| distance_arg(g, c, "--cutoff").map(|c| c as u64)).transpose()?,
            target: None,
            tree: false,
            criterion: Criterion::parse(&self.criterion)?,
            variant: Variant::parse(&self.variant)?,
            classify: if self.no_classify { Classify::Off } else { Classify::parse(&self.classify)? },
        })
    }

    /// [`warm_up`] on this device (nothing when it does not parse: the engine reports that).
    pub fn warm_up(&self, algo: Algo) {
        if let Ok(kind) = DeviceKind::parse(&self.device) {
            warm_up(kind, algo);
        }
    }

    /// Open an engine if the algorithm needs one, and say which device it is.
    pub fn open_engine(&self, g: &Graph, algo: Algo) -> Result<Option<Box<dyn Engine>>> {
        if !engine_needed(g, algo)? {
            return Ok(None);
        }
        open_engine(g, DeviceKind::parse(&self.device)?).map(Some)
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

/// The most random sources one command picks: a million solves is far past what a benchmark
/// needs (GAP uses 64), and a mistyped count (`-n 4000000000`) must be refused at once, not
/// fill memory with a source list and run for days (issue 26: found by the fuzzer).
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
            s.parse::<u64>().ok().filter(|&x| x < UNREACHED as u64).map(|x| x as Dist).ok_or_else(|| {
                Error::InvalidArgument(format!(
                    "{what} `{s}`: expected a non-negative integer (the graph has integer weights)"
                ))
            })
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
pub fn delta_arg(g: &Graph, s: &str) -> Result<u32> {
    let d = distance_arg(g, s, "--delta")?;
    // u32::MAX is the kernels' unreached distance: no bucket width reaches it.
    if d == 0 || d >= u32::MAX as Dist {
        return Err(Error::InvalidArgument(format!("--delta `{s}`: expected a width above 0 and below 2^32 - 1")));
    }
    Ok(d as u32)
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

pub fn open_engine(g: &Graph, kind: DeviceKind) -> Result<Box<dyn Engine>> {
    let t = Instant::now();
    let (eng, fell_back) = engine::open_explained(g, kind)?;
    if let Some(why) = fell_back {
        eprintln!("no usable GPU ({why}); using the CPU backend");
    }
    let upload = eng.upload_time().as_secs_f64();
    eprintln!(
        "device: {} (set-up {:.3} s, graph upload {upload:.3} s)",
        eng.device(),
        t.elapsed().as_secs_f64() - upload
    );
    Ok(eng)
}

/// Verify a result: the certificate always; against the serial reference when `full`.
/// Returns a short description of what was checked.
pub fn verify(g: &Graph, src: u32, dist: &[Dist], full: bool, opts: &Options) -> Result<&'static str> {
    // A cutoff or target query answers up to a bound: the certificate and the reference are
    // both taken within it.
    let bound = opts.query_bound(dist);
    match bound {
        None => sssp::verify::check(g, src, dist)?,
        Some(b) => sssp::verify::check_within(g, src, dist, b)?,
    }
    if !full {
        return Ok("certificate");
    }
    let mut want = match g.weights() {
        sssp::Weights::Unsigned(_) | sssp::Weights::Real(_) => sssp::reference::dijkstra(g, src)?,
        sssp::Weights::Signed(_) => sssp::reference::bellman_ford(g, src)?,
    };
    if let Some(b) = bound {
        want.iter_mut().filter(|d| **d > b).for_each(|d| *d = UNREACHED);
    }
    sssp::verify::compare_in(g.metric(), dist, &want)?;
    Ok("certificate+reference")
}

/// Verify a nearest-source result: the certificate with every source a root; against
/// multi-source Dijkstra too when `full`.
pub fn verify_nearest(g: &Graph, sources: &[u32], dist: &[Dist], full: bool, opts: &Options) -> Result<&'static str> {
    let bound = opts.query_bound(dist);
    sssp::verify::check_nearest_within(g, sources, dist, bound)?;
    if !full {
        return Ok("certificate");
    }
    let mut want = sssp::reference::dijkstra_nearest(g, sources)?;
    if let Some(b) = bound {
        want.iter_mut().filter(|d| **d > b).for_each(|d| *d = UNREACHED);
    }
    sssp::verify::compare_in(g.metric(), dist, &want)?;
    Ok("certificate+reference")
}

/// One line (or JSON object) per trial on `device` (the engine's name, if one was opened): the
/// run from `from` (one source, or the set of a
/// nearest-source run).
pub fn report(
    g: &Graph,
    algo: Algo,
    device: Option<&str>,
    from: &[u32],
    sol: &Solution,
    verified: Option<&str>,
    json: bool,
) {
    let s = &sol.stats;
    let reached = sol.dist.iter().filter(|&&d| d != UNREACHED).count();
    let secs = s.compute.as_secs_f64();
    let gteps = if secs > 0.0 { g.num_arcs() as f64 / secs / 1e9 } else { 0.0 };
    // What really ran: `auto` names its choice, and a serial choice ran on the host.
    let ran = s.chosen_algo.unwrap_or(algo);
    let device = if ran.uses_engine() { device } else { None }.map_or_else(|| "CPU (serial)".into(), str::to_string);
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
            "classify_seconds": s.classify.as_secs_f64(), "prepare_seconds": s.prepare.as_secs_f64(),
            "iterations": s.iterations, "arcs_relaxed": s.arcs_relaxed,
            "vertices_processed": s.vertices_processed, "readbacks": s.readbacks,
            "delta": s.delta.map(|d| dist_json(g.metric(), d as Dist)), "buckets": s.buckets, "far_splits": s.far_splits, "chosen": s.chosen,
            "settled_per_step": s.settled_per_step, "verified": verified,
        });
        outln!("{v}");
    } else {
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
        let buckets = if s.classify.is_zero() {
            buckets
        } else {
            format!(
                "{buckets} (+{:.3} ms for the edge classes and their kernels, once)",
                s.classify.as_secs_f64() * 1e3
            )
        };
        // PHAST's hierarchy is built by the graph's first solve, outside its clock.
        let buckets = if s.prepare.is_zero() {
            buckets
        } else {
            format!("{buckets} (+{:.3} s to build the contraction hierarchy, once)", s.prepare.as_secs_f64())
        };
        let from = match from {
            [one] => format!("source {one}"),
            many if many.len() <= 8 => {
                format!("nearest of sources {}", many.iter().map(u32::to_string).collect::<Vec<_>>().join(","))
            }
            many => format!("nearest of {} sources", many.len()),
        };
        outln!(
            "{} on {}: {from}, reached {reached}, {:.3} ms ({}), {} iterations, {} arcs relaxed{buckets}{batch}{}",
            label,
            device,
            secs * 1e3,
            teps(gteps * 1e9),
            s.iterations,
            s.arcs_relaxed,
            verified.map(|v| format!(", verified ({v})")).unwrap_or_default()
        );
    }
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

fn create(path: &Path) -> Result<BufWriter<std::fs::File>> {
    Ok(BufWriter::new(std::fs::File::create(path).map_err(|e| Error::io(path, e))?))
}

/// A result file, or standard output for `-`.
pub fn create_output(path: &Path) -> Result<BufWriter<Box<dyn Write>>> {
    let w: Box<dyn Write> = if path == Path::new("-") {
        Box::new(std::io::stdout())
    } else {
        Box::new(std::fs::File::create(path).map_err(|e| Error::io(path, e))?)
    };
    Ok(BufWriter::new(w))
}

pub fn write_trace(path: &PathBuf, trace: &[sssp::strategy::IterTrace]) -> Result<()> {
    let mut w = create(path)?;
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
