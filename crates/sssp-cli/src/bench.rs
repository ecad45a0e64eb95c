//! `sssp bench`: whole-run benchmark of strategies x load-balancing x dedupe modes.
//!
//! GAP's discipline: seeded sources (replayable), several trials, the median reported, and the
//! verifier inside the benchmark: every trial's distances pass the certificate check, where
//! they were computed (on the engine after an engine run, outside the solve's time: the
//! `cert ms` column; `--host-certificate` certifies on the host instead), and with
//! `--reference` they are also compared with serial Dijkstra. A failed check fails the run
//! (exit code 3); no timing of a wrong answer is ever printed as a result.
//!
//! Times exclude graph load and upload (reported once) and distance download (its own column).
//! MTEPS = arcs of the graph / solve time / 1e6 (JSON: `gteps`, the same rate / 1e9). "work" = arcs relaxed / arcs Dijkstra relaxes (the
//! out-arcs of reached vertices, each once), Davidson et al.'s work-efficiency measure. For the
//! settling algorithms (crauser, crauser-economic, martin) the balance column shows
//! `criterion/variant/balance` (balance: th, vw, pa), "iters" their settle steps and "per step" the vertices settled per step.

use clap::Args;
use sssp::engine::{Balance, Dedupe, DeviceKind};
use sssp::graph::Graph;
use sssp::strategy::crauser::{Criterion, Variant};
use sssp::strategy::{Algo, Classify, Driver, Options, Strategy, Width};
use sssp::{Error, Result, UNREACHED};

use crate::common::{self, balance_name, dedupe_name, parse_balance, parse_dedupe, GraphArgs};

#[derive(Args)]
pub struct BenchArgs {
    #[command(flatten)]
    graph: GraphArgs,
    #[command(flatten)]
    hierarchy: common::HierarchyArg,
    #[command(flatten)]
    order: common::OrderArg,
    /// Algorithms, comma-separated.
    #[arg(long, default_value = "workfront,near-far,bucketing", value_delimiter = ',')]
    algos: Vec<String>,
    /// Bucket widths to sweep for near-far and bucketing, comma-separated (default: the
    /// heuristic only). Each delta is one row: the work/time curve against delta. Decimals on
    /// real-weighted graphs; `Fx` is F times Davidson's heuristic (`1x,4x,8x`).
    #[arg(long, value_delimiter = ',')]
    deltas: Vec<String>,
    /// Buckets per window for bucketing, comma-separated.
    #[arg(long, default_value = "10", value_delimiter = ',')]
    buckets: Vec<u32>,
    /// Hybrid switch points for near-far and bucketing (`run --wide-at`), comma-separated; 0 =
    /// no hybrid. Each is one row.
    #[arg(long, default_value = "0", value_delimiter = ',')]
    wide_at: Vec<u32>,
    /// Target queries: for each fraction F (comma-separated, in (0, 1]), each trial asks for the
    /// vertex at about F times its source's eccentricity (the first at or beyond it, from a
    /// serial Dijkstra run up front); each F is one row. Ordered strategies stop early.
    #[arg(long, value_delimiter = ',', value_name = "F")]
    target_at: Vec<f64>,
    /// Load-balancing modes, comma-separated (engine algorithms): thread, vwarp, partition,
    /// cta, cta-warp-scan.
    #[arg(long, default_value = "thread,vwarp,partition", value_delimiter = ',')]
    balance: Vec<String>,
    /// Hub thresholds to sweep, comma-separated (every mode but partition; 0 = no hub path;
    /// default: the library's). A row with a threshold other than the default shows it as
    /// `MODE@N`.
    #[arg(long, value_delimiter = ',', value_name = "N")]
    hub_degrees: Vec<u32>,
    /// H-BF edge classes, comma-separated: auto (the library's rule), on, off (`on,off`: one
    /// row each, to measure the gain), for the strategies that use them (workfront, near-far,
    /// bucketing, topo-bf, auto). Rows show `-c` (on) or `-nc` (off) after the balance mode.
    #[arg(long, default_value = "auto", value_delimiter = ',', value_name = "auto|on|off")]
    classify: Vec<String>,
    /// Criteria of crauser, comma-separated (out, in, both).
    #[arg(long, default_value = "both", value_delimiter = ',')]
    criteria: Vec<String>,
    /// Variants of crauser, crauser-economic and martin, comma-separated (successor,
    /// predecessor).
    #[arg(long, default_value = "successor", value_delimiter = ',')]
    variants: Vec<String>,
    /// Dedupe modes, comma-separated (frontier algorithms).
    #[arg(long, default_value = "stamp,lookup", value_delimiter = ',')]
    dedupe: Vec<String>,
    /// Device: auto, gpu, cpu.
    #[arg(long, default_value = "auto")]
    device: String,
    /// Source vertex (repeatable; each one trial), as for `run`.
    #[arg(long, short = 's')]
    source: Vec<u32>,
    /// Sources from a file, one vertex id per line (`#` comments), after any --source.
    #[arg(long)]
    sources_file: Option<std::path::PathBuf>,
    /// Without explicit sources: this many, picked with --seed among non-isolated vertices.
    #[arg(long, short = 'n', default_value_t = 5, conflicts_with_all = ["source", "sources_file"], value_parser = crate::common::trials_arg)]
    trials: usize,
    #[arg(long, default_value_t = 27491095)]
    seed: u64,
    /// Frontier length read-back interval (launch-per-iteration loop).
    #[arg(long, default_value_t = 8)]
    check_every: u32,
    /// Launch once per iteration even where the device could run the loop itself.
    #[arg(long)]
    host_loop: bool,
    /// Device loops of workfront, near-far and bucketing, comma-separated: grid (the persistent
    /// loop over the whole GPU), block (one block, shared-memory queues: `run --block-loop`).
    /// Block rows show `+blk` after the balance mode (their advance ignores it: dynamic virtual
    /// warps over the block).
    #[arg(long, default_value = "grid", value_delimiter = ',', value_name = "grid|block")]
    loops: Vec<String>,
    /// Workers of async rows, comma-separated (0: the default, `w=auto`; `run --workers`).
    /// Rows show `w=N` as their balance.
    #[arg(long, default_value = "0", value_delimiter = ',', value_name = "N")]
    workers: Vec<u32>,
    /// Piece sizes (log2) of resident rows, comma-separated (0: the default; `run
    /// --piece-bits`). Rows show `p=N` as their balance.
    #[arg(long, default_value = "0", value_delimiter = ',', value_name = "BITS")]
    piece_bits: Vec<u32>,
    /// Also compare every trial with serial Dijkstra (slow on big graphs).
    #[arg(long)]
    reference: bool,
    /// Certify every trial on the host's threads, not on the engine that computed it (the
    /// certificate before the device one: compare the `cert ms` columns).
    #[arg(long)]
    host_certificate: bool,
    /// Also build the shortest-path tree of every trial (`run --output-kind tree`); the
    /// `tree ms` column is its extra time.
    #[arg(long)]
    tree: bool,
    /// Batched sources: for each K (comma-separated powers of two up to 64) solve all the
    /// trials' sources K per pass on an engine with K lanes (`run --batch`), and print a
    /// throughput table instead: wall time of the whole stream (init to distances in host
    /// memory, every row de-interleaved), sources per second, and the speed-up over K = 1 (one
    /// source at a time on the same device). Frontier algorithms only; every row verified.
    #[arg(long, value_delimiter = ',', value_name = "K")]
    batches: Vec<u32>,
    /// Print rows as JSON lines.
    #[arg(long)]
    json: bool,
}

#[derive(Clone, Copy)]
struct Config {
    algo: Algo,
    /// When to relax through the edge classes (`--classify`).
    classify: Classify,
    balance: Balance,
    hub_degree: u32,
    dedupe: Dedupe,
    delta: Option<Width>,
    buckets: u32,
    wide_at: u32,
    /// The block loop (`--loops block`).
    block: bool,
    /// Workers of an async row (`--workers`).
    workers: u32,
    /// Piece size of a resident row (`--piece-bits`).
    piece_bits: u32,
    /// Target query at this fraction of the eccentricity (`--target-at`).
    target_at: Option<f64>,
    criterion: Criterion,
    variant: Variant,
}

fn configs(a: &BenchArgs, g: &Graph) -> Result<Vec<Config>> {
    let mut out = vec![];
    for name in &a.algos {
        out.extend(algo_rows(a, g, Algo::parse(name)?)?);
    }
    let classify: Vec<Classify> = a.classify.iter().map(|s| Classify::parse(s)).collect::<Result<_>>()?;
    let loops: Vec<bool> = a
        .loops
        .iter()
        .map(|s| match s.as_str() {
            "grid" => Ok(false),
            "block" => Ok(true),
            _ => Err(Error::InvalidArgument(format!("loop `{s}`: expected grid or block"))),
        })
        .collect::<Result<_>>()?;
    // Each row once per setting where the classes apply; once elsewhere. Block-loop rows never
    // classify, and exist for the frontier strategies only.
    let out = expand(
        out,
        |c| if c.algo.classifies() { classify.clone() } else { vec![Classify::Auto] },
        |c, classify| Config { classify, ..c },
    );
    let block_fits = |c: &Config| c.classify != Classify::On && c.dedupe == Dedupe::Stamp && c.wide_at == 0;
    let out = expand(
        out,
        |c| {
            if is_frontier(c.algo) {
                loops.iter().copied().filter(|&b| !b || block_fits(c)).collect()
            } else {
                vec![false]
            }
        },
        |c, block| Config { block, ..c },
    );
    let out = expand(
        out,
        |c| if c.algo == Algo::Async { a.workers.clone() } else { vec![0] },
        |c, workers| Config { workers, ..c },
    );
    Ok(expand(
        out,
        |c| if c.algo == Algo::Resident { a.piece_bits.clone() } else { vec![0] },
        |c, piece_bits| Config { piece_bits, ..c },
    ))
}

/// Every row in `rows` once for each of its values, in order (the sweep's nested loops).
fn expand<T>(rows: Vec<Config>, values: impl Fn(&Config) -> Vec<T>, set: impl Fn(Config, T) -> Config) -> Vec<Config> {
    rows.into_iter().flat_map(|c| values(&c).into_iter().map(|v| set(c, v)).collect::<Vec<_>>()).collect()
}

/// The rows of one algorithm: the product of the parameters it has (one value of the others).
fn algo_rows(a: &BenchArgs, g: &Graph, algo: Algo) -> Result<Vec<Config>> {
    // `auto` picks its own modes, and PHAST's sweep has none: one row.
    let balances: Vec<Balance> =
        if algo.uses_engine() && !matches!(algo, Algo::Auto | Algo::Phast | Algo::Async | Algo::Resident) {
            a.balance.iter().map(|s| parse_balance(s)).collect::<Result<_>>()?
        } else {
            vec![Balance::Thread]
        };
    let dedupes: Vec<Dedupe> = if is_frontier(algo) && algo != Algo::Auto {
        a.dedupe.iter().map(|s| parse_dedupe(s)).collect::<Result<_>>()?
    } else {
        vec![Dedupe::Stamp]
    };
    let deltas: Vec<Option<Width>> = if algo.uses_delta() && !a.deltas.is_empty() {
        a.deltas.iter().map(|d| common::delta_or_factor_arg(g, d).map(Some)).collect::<Result<_>>()?
    } else {
        vec![None]
    };
    let buckets = if algo == Algo::Bucketing { a.buckets.clone() } else { vec![1] };
    let wide_ats = if algo.uses_delta() { a.wide_at.clone() } else { vec![0] };
    let target_ats: Vec<Option<f64>> =
        if a.target_at.is_empty() { vec![None] } else { a.target_at.iter().map(|&f| Some(f)).collect() };
    let criteria: Vec<Criterion> = if algo == Algo::Crauser {
        a.criteria.iter().map(|s| Criterion::parse(s)).collect::<Result<_>>()?
    } else {
        vec![Criterion::Both]
    };
    let variants: Vec<Variant> = if algo.settles() {
        a.variants.iter().map(|s| Variant::parse(s)).collect::<Result<_>>()?
    } else {
        vec![Variant::Successor]
    };
    // Partition has no hub path and auto picks its own: one threshold for those.
    let hubs = |c: &Config| {
        let swept = c.balance.has_hub_path() && algo.uses_engine() && algo != Algo::Auto && !algo.settles();
        if swept && !a.hub_degrees.is_empty() {
            a.hub_degrees.clone()
        } else {
            vec![sssp::HUB_DEGREE]
        }
    };
    let base = Config {
        algo,
        classify: Classify::Auto,
        block: false,
        workers: 0,
        piece_bits: 0,
        balance: Balance::Thread,
        hub_degree: sssp::HUB_DEGREE,
        dedupe: Dedupe::Stamp,
        delta: None,
        buckets: 1,
        wide_at: 0,
        target_at: None,
        criterion: Criterion::Both,
        variant: Variant::Successor,
    };
    let rows = expand(vec![base], |_| balances.clone(), |c, balance| Config { balance, ..c });
    let rows = expand(rows, hubs, |c, hub_degree| Config { hub_degree, ..c });
    let rows = expand(rows, |_| dedupes.clone(), |c, dedupe| Config { dedupe, ..c });
    let rows = expand(rows, |_| deltas.clone(), |c, delta| Config { delta, ..c });
    let rows = expand(rows, |_| buckets.clone(), |c, buckets| Config { buckets, ..c });
    let rows = expand(rows, |_| wide_ats.clone(), |c, wide_at| Config { wide_at, ..c });
    let rows = expand(rows, |_| target_ats.clone(), |c, target_at| Config { target_at, ..c });
    let rows = expand(rows, |_| criteria.clone(), |c, criterion| Config { criterion, ..c });
    Ok(expand(rows, |_| variants.clone(), |c, variant| Config { variant, ..c }))
}

impl Config {
    /// The solve options of this row (no query, no tree): its algorithm's typed strategy with
    /// the row's parameters (those the algorithm has).
    fn options(&self, a: &BenchArgs) -> Options {
        let knobs = crate::common::Knobs {
            delta: self.delta,
            buckets: Some(self.buckets),
            wide_at: Some(self.wide_at),
            balance: Some(self.balance),
            hub_degree: Some(self.hub_degree),
            dedupe: Some(self.dedupe),
            classify: Some(self.classify),
            criterion: Some(self.criterion),
            variant: Some(self.variant),
            check_every: Some(a.check_every),
            driver: Some(match (a.host_loop, self.block) {
                (true, _) => Driver::Host,
                (_, true) => Driver::Block,
                _ => Driver::Device,
            }),
            workers: Some(self.workers),
            piece_bits: Some(self.piece_bits),
        };
        let query = Options { certify: crate::common::certify_mode(true, a.host_certificate), ..Options::default() };
        knobs.lay(Strategy::from(self.algo)).options(&query)
    }
}

/// `--batches`: sources per second, K sources per pass, against one at a time (K = 1).
fn bench_batches(a: &BenchArgs, g: &Graph, order: OrderUsed, configs: &[Config], sources: &[u32]) -> Result<()> {
    if a.tree || !a.target_at.is_empty() {
        return Err(Error::InvalidArgument("--batches measures distance queries: no --tree or --target-at".into()));
    }
    if let Some(c) = configs.iter().find(|c| !is_frontier(c.algo)) {
        return Err(Error::InvalidArgument(format!(
            "--batches runs workfront, near-far and bucketing; `{}` solves one source at a time",
            c.algo.name()
        )));
    }
    let kind = DeviceKind::parse(&a.device)?;
    if !a.json {
        outln!(
            "graph {}: {} vertices, {} arcs; {} sources{}",
            a.graph.name(),
            g.num_vertices(),
            g.num_arcs(),
            sources.len(),
            order_note(order)
        );
        outln!(
            "{:<10} {:<9} {:<6} {:>8} {:>3} {:>4} {:>10} {:>11} {:>9} {:>8} {:>7}",
            "algo",
            "balance",
            "dedupe",
            "delta",
            "A",
            "K",
            "total ms",
            "ms/source",
            "sources/s",
            "vs K=1",
            "iters"
        );
    }
    for c in configs {
        let opts = c.options(a);
        let mut base = None;
        for &k in &a.batches {
            let t = std::time::Instant::now();
            let mut eng = sssp::engine::open_lanes(g, kind, k)?;
            let open_s = t.elapsed().as_secs_f64();
            // Untimed warm-up: one pass (module load, first-touch allocations).
            let warm = &sources[..sources.len().min(k as usize)];
            sssp::strategy::solve_each(g, c.algo, Some(eng.as_mut()), warm, &opts, |_, _| Ok(()))?;
            let mut rows = Vec::with_capacity(sources.len());
            let mut iters = vec![];
            // Every row is certified as it comes (a wrong row fails the run, exit 3); the
            // certificates' time is taken out of the stream's.
            let mut certify = std::time::Duration::ZERO;
            let mut device_bytes: Option<u64> = None;
            let t = std::time::Instant::now();
            sssp::strategy::solve_each(g, c.algo, Some(eng.as_mut()), sources, &opts, |s, sol| {
                iters.push(sol.stats.iterations as f64);
                device_bytes = device_bytes.max(sol.stats.device_memory.map(|f| f.bytes));
                certify += sol.stats.certify;
                rows.push((s, sol.dist));
                Ok(())
            })?;
            let total = (t.elapsed().saturating_sub(certify)).as_secs_f64();
            if a.reference {
                for (s, d) in &rows {
                    sssp::verify::compare(d, &reference(g, *s)?)?;
                }
            }
            let rate = sources.len() as f64 / total;
            let speedup = rate / *base.get_or_insert(rate);
            let iters = median(&mut iters);
            let delta = opts.delta_for(g).ok().filter(|_| c.algo.uses_delta());
            let nb = (c.algo == Algo::Bucketing).then_some(c.buckets);
            if a.json {
                let v = serde_json::json!({
                    "graph": a.graph.name(), "algo": c.algo, "balance": balance_name(c.balance),
                    "dedupe": dedupe_name(c.dedupe), "delta": delta.map(|d| common::dist_json(g.metric(), d as sssp::Dist)), "buckets": nb, "lanes": k,
                    "sources": sources.len(), "total_ms": total * 1e3, "ms_per_source": total * 1e3 / sources.len() as f64,
                    "sources_per_second": rate, "speedup": speedup, "iterations": iters,
                    "device": eng.device().to_string(), "open_seconds": open_s, "verified": true,
                    "device_bytes": device_bytes, "order": order.0, "order_seconds": order.1,
                });
                outln!("{v}");
            } else {
                let dash = |x: Option<u32>| x.map_or("-".to_string(), |v| v.to_string());
                outln!(
                    "{:<10} {:<9} {:<6} {:>8} {:>3} {k:>4} {:>10.3} {:>11.4} {rate:>9.1} {speedup:>7.2}x {iters:>7.0}",
                    c.algo.name(),
                    balance_name(c.balance),
                    dedupe_name(c.dedupe),
                    show_delta(g, delta),
                    dash(nb),
                    total * 1e3,
                    total * 1e3 / sources.len() as f64,
                );
            }
        }
    }
    Ok(())
}

/// The serial answer `--reference` compares with: Bellman-Ford for negative weights, else
/// Dijkstra (in f32 on real-weighted graphs).
fn reference(g: &Graph, src: u32) -> Result<Vec<sssp::Dist>> {
    match g.metric() {
        sssp::Metric::Signed => sssp::reference::bellman_ford(g, src),
        _ => sssp::reference::dijkstra(g, src),
    }
}

/// A delta column: `-` for none, a decimal on real-weighted graphs.
fn show_delta(g: &Graph, delta: Option<u32>) -> String {
    delta.map_or("-".to_string(), |d| sssp::RealDistances::show(g.metric(), d as sssp::Dist))
}

/// Frontier strategies (they take a dedupe mode).
fn is_frontier(algo: Algo) -> bool {
    matches!(algo, Algo::Workfront | Algo::NearFar | Algo::Bucketing)
}

/// `--order` and its time, for JSON rows ([`common::Ordered::json`]).
type OrderUsed = (&'static str, Option<f64>);

/// The end of a table's header line: the vertex order and its time, if not `input`.
fn order_note((name, seconds): OrderUsed) -> String {
    seconds.map_or(String::new(), |s| format!("; vertex order {name} (relabelled in {s:.3} s, not in the times)"))
}

/// Where the serial references run.
const SERIAL: &str = "CPU (serial)";

fn median(xs: &mut [f64]) -> f64 {
    xs.sort_by(|a, b| a.total_cmp(b));
    xs[xs.len() / 2]
}

/// Where `f` is in the `--target-at` list.
fn fraction_index(fs: &[f64], f: f64) -> usize {
    fs.iter().position(|&x| x == f).expect("configs come from this list")
}

/// For each source, the targets of `--target-at`: the vertex nearest at or beyond each fraction
/// of the source's eccentricity (the largest finite distance), by a serial Dijkstra.
fn query_targets(g: &Graph, sources: &[u32], fractions: &[f64]) -> Result<Vec<Vec<u32>>> {
    sources
        .iter()
        .map(|&s| {
            let d = sssp::reference::dijkstra(g, s)?;
            let ecc = d.iter().copied().filter(|&x| x != UNREACHED).max().unwrap_or(0);
            Ok(fractions
                .iter()
                .map(|&f| {
                    let want = match g.metric() {
                        sssp::Metric::Integer | sssp::Metric::Signed => (ecc as f64 * f).ceil() as i64,
                        // Real distances are f32 bit patterns: scale the number, not the bits.
                        sssp::Metric::Real => ((f32::from_bits(ecc as u32) as f64 * f) as f32).to_bits() as i64,
                    };
                    let best = (0..d.len()).filter(|&v| d[v] != UNREACHED && d[v] >= want).min_by_key(|&v| d[v]);
                    best.unwrap_or(s as usize) as u32
                })
                .collect())
        })
        .collect()
}

/// Arcs Dijkstra relaxes from this source: every out-arc of every reached vertex, once.
fn dijkstra_work(g: &Graph, dist: &[i64]) -> u64 {
    (0..g.num_vertices() as u32).filter(|&v| dist[v as usize] != UNREACHED).map(|v| g.degree(v) as u64).sum()
}

/// The sources for a log line: all of a short list, the first few and the count of a long one
/// (a million sources are not a line anyone reads).
fn list_head(s: &[u32]) -> String {
    const SHOWN: usize = 16;
    if s.len() <= SHOWN {
        return format!("{s:?}");
    }
    let head: Vec<String> = s[..SHOWN].iter().map(u32::to_string).collect();
    format!("[{}, ...] ({} in all)", head.join(", "), s.len())
}

pub fn bench(a: BenchArgs) -> Result<()> {
    let explicit = crate::sources::explicit(&a.source, a.sources_file.as_deref())?;
    if explicit.is_empty() && a.trials == 0 {
        return Err(Error::InvalidArgument("--trials must be at least 1".into()));
    }
    if let Some(f) = a.target_at.iter().find(|f| !(**f > 0.0 && **f <= 1.0)) {
        return Err(Error::InvalidArgument(format!("--target-at {f}: expected a fraction in (0, 1]")));
    }
    a.order.check(&a.hierarchy)?;
    let g = a.graph.load_nonempty()?;
    let configs = configs(&a, &g)?;
    let hierarchy = a.hierarchy.apply(&g, &configs.iter().map(|c| c.algo).collect::<Vec<_>>())?;
    let (sources, targets) = bench_queries(&a, &g, explicit)?;
    // The sources and targets above are the user's (the seeded picks the same vertices in any
    // order); from here on `g` is the graph relabelled by --order, and they are its ids. The
    // certificates and the reference check the relabelled graph: the input up to names.
    let ordered = a.order.apply(g)?;
    let g = ordered.graph();
    let sources = ordered.internal(&sources)?;
    let targets = targets.iter().map(|t| ordered.internal(t)).collect::<Result<Vec<_>>>()?;
    let order = ordered.json();
    if !a.batches.is_empty() {
        return bench_batches(&a, g, order, &configs, &sources);
    }
    // One session for every row, its engine opened for the first row that needs one (a named
    // engine algorithm before `auto`, which may not need one on the CPU).
    let mut first = None;
    for c in &configs {
        if common::engine_needed(g, c.algo)? && first.is_none_or(|a| a == Algo::Auto) {
            first = Some(c.algo);
        }
    }
    let kind = DeviceKind::parse(&a.device)?;
    let (mut session, opened) =
        common::open_session(g, kind, first.unwrap_or(Algo::Dijkstra), &configs[0].options(&a), hierarchy, 1)?;
    let device = opened.clone().unwrap_or_else(|| SERIAL.into());
    if !a.json {
        let serial_note = if opened.is_some() && configs.iter().any(|c| !c.algo.uses_engine()) {
            format!(" (dijkstra/bellman-ford rows: {SERIAL}; delta-stepping rows: the host's threads)")
        } else {
            String::new()
        };
        let name = a.graph.name();
        let (n, m, k) = (g.num_vertices(), g.num_arcs(), sources.len());
        outln!("graph {name}: {n} vertices, {m} arcs; device {device}{serial_note}; {k} trials{}", order_note(order));
        print_header();
    }
    for c in &configs {
        let trials = run_trials(&a, g, &mut session, c, &sources, &targets)?;
        print_row(&a, g, c, trials, &device, order);
    }
    Ok(())
}

/// The bench's sources (given, or seeded picks) and, per source, its `--target-at` targets.
fn bench_queries(a: &BenchArgs, g: &Graph, explicit: Vec<u32>) -> Result<(Vec<u32>, Vec<Vec<u32>>)> {
    let sources = if explicit.is_empty() {
        let s = sssp::reference::pick_sources(g, a.trials, a.seed);
        eprintln!("sources: {} (seed {})", list_head(&s), a.seed);
        s
    } else {
        for &s in &explicit {
            sssp::reference::check_source(g, s)?;
        }
        eprintln!("sources: {} (given)", list_head(&explicit));
        explicit
    };
    let targets = if a.target_at.is_empty() {
        vec![vec![]; sources.len()]
    } else {
        let t = query_targets(g, &sources, &a.target_at)?;
        eprintln!("targets (per source, per --target-at fraction): {t:?}");
        t
    };
    Ok((sources, targets))
}

/// The text table's column heads.
fn print_header() {
    outln!(
        "{:<16} {:<12} {:<6} {:>8} {:>3} {:>7} {:>6} {:>10} {:>10} {:>9} {:>7} {:>7} {:>6} {:>9} {:>8} {:>8} {:>9}",
        "algo",
        "balance",
        "dedupe",
        "delta",
        "A",
        "wide",
        "target",
        "median ms",
        "min ms",
        "MTEPS",
        "work",
        "iters",
        "splits",
        "dl ms",
        "tree ms",
        "per step",
        "cert ms"
    );
}

/// One configuration's trials, each as its solve reported it.
#[derive(Default)]
struct Trials {
    ms: Vec<f64>,
    work: Vec<f64>,
    iters: Vec<f64>,
    dl: Vec<f64>,
    splits: Vec<f64>,
    tree_ms: Vec<f64>,
    cert_ms: Vec<f64>,
    certified_on: Option<sssp::strategy::certify::Certified>,
    per_step: Vec<f64>,
    delta: Option<u32>,
    chosen: Option<String>,
    last: sssp::strategy::Stats,
    /// The largest of the trials' peaks (each trial's is its own: see `Stats::device_memory`).
    device_mem: Option<sssp::device::Footprint>,
}

/// Configuration `c` from every source, after one untimed warm-up; each answer certified (and
/// compared with the reference under `--reference`).
fn run_trials(
    a: &BenchArgs,
    g: &Graph,
    session: &mut sssp::session::Session,
    c: &Config,
    sources: &[u32],
    targets: &[Vec<u32>],
) -> Result<Trials> {
    let target_of = |i: usize| c.target_at.map(|f| targets[i][fraction_index(&a.target_at, f)]);
    let opts = Options { tree: a.tree, target: target_of(0), ..c.options(a) };
    if c.algo.uses_engine() {
        warm_up(session, c.algo, sources[0], &opts)?;
    }
    let mut t = Trials::default();
    for (i, &src) in sources.iter().enumerate() {
        let opts = Options { target: target_of(i), ..opts };
        // Certified inside (`opts.certify`): a wrong answer is the solve's error.
        let sol = session.solve(c.algo, src, &opts)?;
        t.cert_ms.push(sol.stats.certify.as_secs_f64() * 1e3);
        t.certified_on = sol.stats.certified;
        if a.reference {
            let mut want = reference(g, src)?;
            if let Some(b) = opts.query_bound(&sol.dist) {
                want.iter_mut().filter(|d| **d > b).for_each(|d| *d = UNREACHED);
            }
            sssp::verify::compare(&sol.dist, &want)?;
        }
        if let Some(p) = &sol.parents {
            sssp::verify::check_tree(g, src, &sol.dist, p)?;
            t.tree_ms.push(sol.stats.tree.as_secs_f64() * 1e3);
        }
        t.ms.push(sol.stats.compute.as_secs_f64() * 1e3);
        t.work.push(sol.stats.arcs_relaxed as f64 / dijkstra_work(g, &sol.dist).max(1) as f64);
        t.iters.push(sol.stats.iterations as f64);
        t.dl.push(sol.stats.download.as_secs_f64() * 1e3);
        t.splits.push(sol.stats.far_splits as f64);
        t.per_step.extend(sol.stats.settled_per_step.iter().copied());
        t.delta = sol.stats.delta;
        t.chosen = sol.stats.chosen.clone();
        if let Some(f) = sol.stats.device_memory.filter(|f| t.device_mem.is_none_or(|d| f.bytes > d.bytes)) {
            t.device_mem = Some(f);
        }
        t.last = sol.stats;
    }
    Ok(t)
}

/// One untimed solve (module JIT, first-touch allocations). PHAST's hierarchy, without
/// --hierarchy, is built (and put on the device) by the first solve, once per graph: said apart.
fn warm_up(session: &mut sssp::session::Session, algo: Algo, src: u32, opts: &Options) -> Result<()> {
    let warm = session.solve(algo, src, opts)?;
    if !warm.stats.prepare.is_zero() {
        eprintln!(
            "phast: contraction hierarchy built in {:.2} s and put on the device in {:.3} s ({}), once per graph, not in the times",
            warm.stats.prepare.as_secs_f64(),
            warm.stats.hierarchy_upload.as_secs_f64(),
            session
                .open_engine()
                // A closure, not the function: it reborrows the engine for less than 'static.
                .and_then(|e| sssp::strategy::phast::held(e))
                .map_or(String::new(), |h| h.stats.summary())
        );
    }
    Ok(())
}

/// The balance and dedupe columns of a row: the settling algorithms' mode (criterion and
/// variant), the async workers, or the frontier strategies' balance, hub degree and dedupe.
fn mode_columns(c: &Config) -> (String, &'static str) {
    let mark = match c.classify {
        Classify::Auto => "",
        Classify::On => "-c",
        Classify::Off => "-nc",
    };
    let bal = &balance_name(c.balance)[..2];
    let (bal, ded) = match c.algo {
        Algo::Async => (if c.workers == 0 { "w=auto".to_string() } else { format!("w={}", c.workers) }, "-"),
        Algo::Resident => (if c.piece_bits == 0 { "p=auto".to_string() } else { format!("p={}", c.piece_bits) }, "-"),
        Algo::Crauser => (format!("{}/{}/{bal}{mark}", c.criterion.name(), &c.variant.name()[..4]), "-"),
        a if a.settles() => (format!("-/{}/{bal}{mark}", &c.variant.name()[..4]), "-"),
        a if a.uses_engine() && a != Algo::Auto => {
            let hub = if c.hub_degree == sssp::HUB_DEGREE { String::new() } else { format!("@{}", c.hub_degree) };
            let blk = if c.block { "+blk" } else { "" };
            (format!("{}{hub}{mark}{blk}", balance_name(c.balance)), dedupe_name(c.dedupe))
        }
        _ if c.classify != Classify::Auto => (mark.to_string(), "-"),
        _ => ("-".to_string(), "-"),
    };
    (bal, if is_frontier(c.algo) { ded } else { "-" })
}

/// One row of the table (or one JSON line): the medians of `t`.
fn print_row(a: &BenchArgs, g: &Graph, c: &Config, mut t: Trials, device: &str, order: OrderUsed) {
    let med = median(&mut t.ms);
    let min = t.ms[0];
    let gteps = g.num_arcs() as f64 / (med / 1e3) / 1e9;
    let (work, iters, dl, splits) =
        (median(&mut t.work), median(&mut t.iters), median(&mut t.dl), median(&mut t.splits));
    let tree = (!t.tree_ms.is_empty()).then(|| median(&mut t.tree_ms));
    let cert = median(&mut t.cert_ms);
    let per_step = if t.per_step.is_empty() { None } else { Some(median(&mut t.per_step)) };
    let (bal, ded) = mode_columns(c);
    let nb = if c.algo.uses_delta() { Some(c.buckets) } else { None };
    // The host algorithms run on the host whatever engine the other rows use (auto's too,
    // when it picked one).
    let host = common::host_device(&t.last);
    let ran_on_host = !c.algo.uses_engine() || t.last.chosen_algo.is_some_and(|a| !a.uses_engine());
    let row_device = if ran_on_host { host.as_str() } else { device };
    if a.json {
        let v = serde_json::json!({
            "graph": a.graph.name(), "algo": c.algo, "balance": bal, "dedupe": ded, "device": row_device,
            "delta": t.delta.map(|d| common::dist_json(g.metric(), d as sssp::Dist)), "buckets": nb, "wide_at": nb.map(|_| c.wide_at), "target_at": c.target_at, "far_splits": splits, "chosen": t.chosen,
            "median_ms": med, "min_ms": min, "gteps": gteps, "work": work, "iterations": iters,
            "criterion": (c.algo == Algo::Crauser).then(|| c.criterion.name()),
            "variant": c.algo.settles().then(|| c.variant.name()), "settled_per_step": per_step,
            "download_ms": dl, "tree_ms": tree, "trials": t.ms.len(), "verified": true,
            "certify_ms": cert, "certified_on": t.certified_on,
            "classify": c.algo.classifies().then_some(c.classify.name()),
            "loop": is_frontier(c.algo).then_some(if c.block { "block" } else { "grid" }),
            // The peak and its per-arc part, with the graph's size: the row alone shows
            // where it stands against a bytes-per-arc-and-vertex budget.
            "device_bytes": t.device_mem.map(|f| f.bytes), "device_arc_bytes": t.device_mem.map(|f| f.arc_bytes),
            "vertices": g.num_vertices(), "arcs": g.num_arcs(),
            "order": order.0, "order_seconds": order.1,
        });
        outln!("{v}");
        return;
    }
    let cert_col = match t.certified_on {
        Some(sssp::strategy::certify::Certified::Host) => format!("{cert:.3}h"),
        _ => format!("{cert:.3}"),
    };
    let dash = |x: Option<u32>| x.map_or("-".to_string(), |v| v.to_string());
    outln!(
        "{:<16} {:<12} {:<6} {:>8} {:>3} {:>7} {:>6} {med:>10.3} {min:>10.3} {:>9.1} {work:>7.2} {iters:>7.0} {splits:>6.0} {dl:>9.3} {:>8} {:>8} {cert_col:>9}",
        c.algo.name(),
        bal,
        ded,
        show_delta(g, t.delta),
        dash(nb),
        dash(nb.map(|_| c.wide_at)),
        c.target_at.map_or("-".to_string(), |f| format!("{f}e")),
        gteps * 1e3,
        tree.map_or("-".to_string(), |t| format!("{t:.3}")),
        per_step.map_or("-".to_string(), |x| format!("{x:.1}"))
    );
}
