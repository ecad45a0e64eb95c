//! `sssp`: exact single-source shortest paths on GPUs and CPUs.
//!
//! This binary is the only place where library errors become messages and exit codes.

#[macro_use]
mod out;
mod bench;
mod common;
mod diameter;
mod distributed;
mod info;
mod kpaths;
mod plot;
mod route;
mod sources;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use common::{GraphArgs, OrderArg, SolveArgs};
use sssp::strategy::Algo;
use sssp::{Error, Result};

const AFTER_HELP: &str = "\
Vertex ids on the command line and in every output are the graph's internal 0-based ids. For the
1-based formats (DIMACS .gr, Matrix Market, METIS) internal id = file id - 1.

A GRAPH is a file (format from its extension, .gz/.xz/.zst/.bz2 decompressed transparently; see
--format), `-` for standard input (with --format), or a generator spec `gen:SPEC` (see `sssp gen
--help`), e.g. gen:kron:20 or gen:grid2d:1000x1000. No output (-o, --trace) may be one of the
run's input files (the graph, --sources-file, --targets-file, --hierarchy).

Exit codes: 0 success; 1 the run failed (e.g. a distance overflow) or `path`'s target is not
reachable;
2 bad usage or arguments (an algorithm that cannot take the graph's negative weights included);
3 verification failed; 4 a file that cannot be read or written, or
malformed input (the message names the file, and the line for text formats);
5 GPU unavailable, or out of device or host memory;
6 a negative cycle is reachable from the source (the message lists it and its weight).";

#[derive(Parser)]
#[command(name = "sssp", version, about = "Exact single-source shortest paths on GPUs (CUDA) and CPUs", after_help = AFTER_HELP)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Solve from one or more sources; print statistics, optionally verify and write results.
    Run(RunArgs),
    /// Time strategies over several sources and print a table (verifying every trial).
    Bench(bench::BenchArgs),
    /// Print a shortest path from one source (one --source, or one seeded random pick) to a
    /// target. Exit code 1 if the target is not reachable. With --hierarchy FILE: the
    /// contraction hierarchy's bidirectional search (microseconds on a road graph, on the
    /// host), and --pairs-file runs many pairs on every core.
    Path(PathArgs),
    /// A distance table (rows = --sources-file, columns = --targets-file) to CSV or JSON: with
    /// --hierarchy, the many-to-many buckets on the host or RPHAST on a GPU; without, one
    /// solve per source.
    Table(route::TableArgs),
    /// Print the K shortest simple paths from one source to a target (Yen's algorithm), one
    /// line per path, shortest first: `LENGTH: V0 V1 ...`. Equal lengths: fewer arcs first, then
    /// the lexicographically smaller vertex sequence. Fewer than K lines when fewer simple paths
    /// exist (none when the target is not reached); negative weights are refused (exit 2).
    /// With --cutoff D no path longer than D is printed, and the searches stop there. The
    /// searches run on the host (each visits a small part of the graph), whatever --device says.
    Paths(kpaths::PathsArgs),
    /// Exact diameter of the largest (strongly) connected component by eccentricity bounding;
    /// with --radius, --center, --periphery the others from the same bounds.
    #[command(after_help = diameter::DEFINITIONS)]
    Diameter(diameter::DiameterArgs),
    /// Describe a graph: sizes, degrees, weights, components, approximate diameter.
    Info(InfoArgs),
    /// Convert a graph to another format (by OUT's extension or --to: bin, gr, mtx, el, wel, and GAP's sg, wsg).
    Convert(ConvertArgs),
    /// Generate a seeded synthetic graph and write it.
    Gen(GenArgs),
    /// Draw per-iteration traces (from `run --trace`) as an SVG, one panel per trace.
    Plot(plot::PlotArgs),
}

#[derive(Args)]
struct RunArgs {
    #[command(flatten)]
    graph: GraphArgs,
    #[command(flatten)]
    solve: SolveArgs,
    #[command(flatten)]
    order: OrderArg,
    /// Check every result with the reference-free certificate (O(m)): on the engine that
    /// computed it (no download; on the GPU, kernels), or on the host's threads after a host
    /// algorithm. The first source's result is also compared with serial Dijkstra (or
    /// Bellman-Ford for negative weights) on graphs of fewer than 2M arcs, or with
    /// --reference. The report says which ran. Fails with exit code 3.
    #[arg(long)]
    verify: bool,
    /// With --verify: compare the first source's result with the serial reference whatever
    /// the graph's size (slow on big graphs).
    #[arg(long, requires = "verify")]
    reference: bool,
    /// With --verify: certify on the host's threads even after an engine run (the certificate
    /// before the device one, to compare their times).
    #[arg(long, requires = "verify")]
    host_certificate: bool,
    /// Write results to this file (`-`: standard output, and the statistics go to standard
    /// error so that standard output holds only the results); see --output-kind.
    #[arg(long, short = 'o')]
    output: Option<PathBuf>,
    /// `distances`: lines `VERTEX DIST` (DIST `inf` if unreached) of the first source (or of
    /// the --multi-source run); `tree`: lines `VERTEX PARENT DIST` (PARENT `-` for the source
    /// and unreached vertices); `nearest` (with --multi-source): lines `VERTEX SOURCE DIST`,
    /// SOURCE the nearest source (`-` if unreached); `matrix`: one line per source, streamed
    /// as each run ends: `SOURCE D1 D2 ...`, the distances to the --targets (every vertex, in
    /// id order, without them), after a `# source` header line naming the columns; `dag`: lines
    /// `VERTEX DIST P1 P2 ...`, the Pi every predecessor on a shortest path (d(Pi) + w == DIST,
    /// exactly as the engines add; none for the source and unreached vertices). Needs -o.
    /// [default: distances]
    #[arg(long, requires = "output", value_parser = ["distances", "tree", "nearest", "matrix", "dag"])]
    output_kind: Option<String>,
    /// One run from all the sources at once (--source, --sources-file or the random picks):
    /// each vertex gets its distance to the nearest of them (and, with `--output-kind nearest`,
    /// which one). dijkstra, workfront, near-far, bucketing and auto take it.
    #[arg(long)]
    multi_source: bool,
    /// Solve K sources per pass (a power of two up to 64): K distance arrays relaxed together
    /// on one copy of the graph, by workfront, near-far or bucketing. On road graphs many
    /// sources' iterations fit in one's time; on scale-free graphs it does not pay. Distance
    /// and cutoff queries only (no trees).
    #[arg(long, default_value_t = 1, value_name = "K")]
    batch: u32,
    /// Target columns of `--output-kind matrix` (repeatable, or comma-separated).
    #[arg(long, value_delimiter = ',', value_name = "T", allow_negative_numbers = true, value_parser = common::vertex_id)]
    targets: Vec<u32>,
    /// Target columns from a file, one vertex id per line (`#` comments), after any --targets;
    /// at most 256 MiB (longer is refused).
    #[arg(long, value_name = "FILE")]
    targets_file: Option<PathBuf>,
    /// Print statistics as JSON (one object per trial) instead of text.
    #[arg(long)]
    json: bool,
    /// Solve on P ranks: distributed delta-stepping (docs/distributed.md), the graph split into
    /// P vertex ranges balanced by arcs, candidates for other ranks' vertices exchanged once per
    /// round. With --device gpu one rank per GPU through NCCL (a build with feature `nccl`);
    /// with --device cpu P simulated ranks (threads) run the same algorithm; auto: NCCL ranks
    /// where the build and the machine have them, else simulated ones. Prints the rounds and
    /// the volume exchanged. Takes --delta, --cutoff, the sources, --verify, -o (distances or
    /// tree) and --json; other strategy flags are refused.
    #[arg(long, value_name = "P", value_parser = clap::value_parser!(u32).range(1..=sssp::distributed::MAX_RANKS as i64))]
    devices: Option<u32>,
    /// With --devices: where each rank's local step runs. `device`: on the rank's device
    /// (its GPU on NCCL ranks; the CPU backend's device, which runs the GPU's kernel bodies, on
    /// simulated ranks); `host`: on the rank's host thread; `auto` (the default): the GPU on
    /// NCCL ranks, the host thread on simulated ones.
    #[arg(long, value_name = "WHERE", default_value = "auto", value_parser = ["auto", "host", "device"], requires = "devices")]
    rank_step: String,
    /// Write a per-iteration CSV (iter,frontier,arcs,micros,bucket,far,slots) of the first trial
    /// (`-`: standard output, and the statistics go to standard error); `sssp plot` draws it. Tracing synchronises every iteration, so it slows the run down.
    /// Engine algorithms only: the serial references have no iterations to trace.
    #[arg(long)]
    trace: Option<PathBuf>,
}

#[derive(Args)]
struct PathArgs {
    #[command(flatten)]
    graph: GraphArgs,
    #[command(flatten)]
    solve: SolveArgs,
    #[command(flatten)]
    order: OrderArg,
    /// The target vertex.
    #[arg(long, short = 't', allow_negative_numbers = true, value_parser = common::vertex_id, required_unless_present = "pairs_file")]
    target: Option<u32>,
    /// With --hierarchy: pairs `SOURCE TARGET`, one a line (`#` comments), each answered on the
    /// hierarchy, on every core; prints `SOURCE TARGET DIST V0 V1 ...` a line (`inf` and no
    /// path where there is none) and the time per pair on standard error.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["target", "source", "sources_file"])]
    pairs_file: Option<PathBuf>,
    /// With --pairs-file: the distances alone (no path unpacked).
    #[arg(long, requires = "pairs_file")]
    no_path: bool,
}

#[derive(Args)]
struct InfoArgs {
    #[command(flatten)]
    graph: GraphArgs,
    /// Print as JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
struct ConvertArgs {
    #[command(flatten)]
    graph: GraphArgs,
    /// Output file (`-`: standard output, with --to); the format comes from its extension, or
    /// --to. See --to for the formats.
    out: PathBuf,
    #[arg(long, help = OUTPUT_FORMATS)]
    to: Option<String>,
    /// Allow writing GAP's .sg, which holds no weights, from a graph whose weights are not all
    /// 1 (without it that is refused, since the weights would be lost).
    #[arg(long)]
    drop_weights: bool,
}

/// The writable formats, for `--help` (kept in step with `sssp::io::WRITABLE`).
const OUTPUT_FORMATS: &str = "Output format when OUT's extension does not tell: bin (.bin, .sssp: binary CSR), \
gr (.gr: DIMACS), mtx (.mtx: Matrix Market integer general), el (.el, .txt, .edges, .snap: `u v w` \
lines), wel (.wel: `u v w` lines). Every one keeps the vertex count, the arcs and their weights; a \
.gz or .xz suffix compresses (binary too; .zst and .bz2 are read, not written). A --to that \
contradicts OUT's extension is refused. Also GAP's serialized graphs, for running GAP on the same \
file: sg (.sg: no weights, so weights other than 1 need --drop-weights) and wsg (.wsg: i32 weights). METIS cannot be written (it is undirected only).";

#[derive(Args)]
struct GenArgs {
    /// What to generate. Forms:
    #[arg(long_help = sssp::generate::GenSpec::HELP)]
    spec: String,
    /// Output file (`-`: standard output, with --to); the format comes from its extension, or
    /// --to (bin, gr, mtx, el, wel, each optionally .gz/.xz).
    #[arg(long, short = 'o')]
    output: PathBuf,
    #[arg(long, help = OUTPUT_FORMATS)]
    to: Option<String>,
    /// Generator seed (printed, so every graph can be made again).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Weights: given (the generator's own), unit, random[:LO-HI[:SEED]], real[:LO-HI[:SEED]]
    /// (f32), shifted:LO-HI:P[:SEED] (negative arcs, no negative cycle).
    #[arg(long, default_value = "given")]
    weights: String,
    /// Allow writing GAP's .sg, which holds no weights, from weights that are not all 1.
    #[arg(long)]
    drop_weights: bool,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.cmd {
        Cmd::Run(a) => run(a),
        Cmd::Bench(a) => bench::bench(a),
        Cmd::Path(a) => path(a),
        Cmd::Table(a) => route::table(a),
        Cmd::Paths(a) => kpaths::paths(a),
        Cmd::Diameter(a) => diameter::diameter(a),
        Cmd::Info(a) => info::info(&a.graph, a.json),
        Cmd::Convert(a) => convert(a),
        Cmd::Gen(a) => gen(a),
        Cmd::Plot(a) => plot::plot(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // `sssp run -o - | head`: the reader has what it wanted (see `out`).
        Err(e) if out::reader_left(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("sssp: error: {e}");
            ExitCode::from(exit_code(&e))
        }
    }
}

/// The documented exit codes (see AFTER_HELP).
fn exit_code(e: &Error) -> u8 {
    match e {
        Error::Verification(_) => 3,
        Error::Io { .. } | Error::Parse { .. } | Error::UnknownFormat { .. } => 4,
        Error::NoGpu(_) | Error::OutOfDeviceMemory { .. } | Error::OutOfHostMemory { .. } | Error::Cuda(_) => 5,
        Error::InvalidArgument(_)
        | Error::VertexOutOfRange { .. }
        | Error::TooLarge { .. }
        | Error::WeightOutOfRange { .. }
        | Error::InvalidWeight { .. }
        | Error::NegativeWeight { .. } => 2,
        Error::NegativeCycle { .. } => 6,
        _ => 1,
    }
}

fn run(a: RunArgs) -> Result<()> {
    check_run_files(&a)?;
    if let Some(p) = a.devices {
        return distributed::run(&a, p);
    }
    let algo = a.solve.algo()?;
    a.solve.check_flags(algo)?;
    let kind = a.output_kind.as_deref().unwrap_or("distances");
    let targets = sources::explicit(&a.targets, a.targets_file.as_deref())?;
    check_run_args(&a, algo, kind, &targets)?;
    // Statistics share standard output only when no data is written there.
    let stats_to = out::Channel::for_stats(a.output.iter().chain(&a.trace));
    a.order.check(&a.solve.hierarchy)?;
    a.solve.warm_up(algo);
    let g = a.graph.load_nonempty()?;
    let hierarchy = a.solve.hierarchy.apply(&g, &[algo])?;
    for &t in &targets {
        sssp::reference::check_source(&g, t)?;
    }
    // Checked before a relabelling that may take seconds (the metric is the same after it).
    let opts = sssp::strategy::Options {
        certify: common::certify_mode(a.verify, a.host_certificate),
        ..a.solve.options(&g, a.trace.is_some())?
    };
    // In the user's ids: the seeded picks are the same vertices in any order.
    let user_sources = a.solve.sources(&g)?;
    // From here on `g` is the graph solved on (relabelled by --order) and the sources and
    // targets are its ids; every id reported or written is mapped back (`ordered`). --verify
    // certifies on the relabelled graph: it is the input graph up to names, so a certificate
    // (or the reference's answer) there is one for the input.
    let ordered = a.order.apply(g)?;
    let g = ordered.graph();
    let sources = ordered.internal(&user_sources)?;
    let internal_targets = ordered.internal(&targets)?;
    let (mut session, device) = a.solve.session(g, algo, &opts, hierarchy, a.batch)?;
    // Trees are built (on the engine after frontier and settling runs) only where written.
    let tree = a.output.is_some() && matches!(kind, "tree" | "nearest");
    if a.multi_source {
        let ran = Ran { a: &a, algo, kind, device: device.as_deref(), stats_to };
        return run_nearest(&ran, &ordered, &mut session, (&user_sources, &sources), opts, tree);
    }
    let mut matrix = match (&a.output, kind) {
        (Some(p), "matrix") => {
            Some((p.clone(), matrix_header(common::create_output(p)?, p, &targets, g.num_vertices())?))
        }
        _ => None,
    };
    let mut trial = 0;
    session.solve_each(
        algo,
        &sources,
        &sssp::strategy::Options { tree: tree && sources.len() == 1, ..opts },
        a.batch,
        |src, sol| {
            let first = trial == 0;
            trial += 1;
            let reference = first && common::reference_wanted(g, a.reference);
            let verified = if a.verify { Some(common::verify(g, src, &sol, reference, &opts)?) } else { None };
            if first {
                if let Some(why) = &sol.stats.chosen {
                    eprintln!("{why}");
                }
            }
            let user_src = ordered.user(src);
            let order = ordered.json();
            common::report(g, algo, device.as_deref(), &[user_src], &sol, verified.as_deref(), a.json, stats_to, order);
            if let Some((p, w)) = &mut matrix {
                // Target columns read where the targets are; every vertex's in the user's id order.
                let row = match targets.is_empty() {
                    true => ordered.distances(&sol.dist)?,
                    false => std::borrow::Cow::Borrowed(&sol.dist[..]),
                };
                matrix_row(w, p, g.metric(), user_src, &row, &internal_targets)?;
            }
            if first {
                if let Some(p) = &a.trace {
                    common::write_trace(p, &sol.stats.trace)?;
                }
                if let (Some(p), "dag") = (&a.output, kind) {
                    return kpaths::write_dag(&ordered, &sol.dist, p);
                }
                if let (Some(p), false) = (&a.output, kind == "matrix") {
                    let sol = ordered.solution(&[src], sol, tree)?;
                    common::write_result(g, &[user_src], &sol, p, kind)?;
                }
            }
            Ok(())
        },
    )?;
    if let Some((p, mut w)) = matrix {
        std::io::Write::flush(&mut w).map_err(|e| Error::io(&p, e))?;
    }
    Ok(())
}

/// What a `run` reports with: its arguments, the algorithm, the output kind, the engine's name
/// and where statistics go.
struct Ran<'r> {
    a: &'r RunArgs,
    algo: Algo,
    kind: &'r str,
    device: Option<&'r str>,
    stats_to: out::Channel,
}

/// `run --multi-source`: one solve from the set `(user ids, internal ids)`, its report, trace and
/// output.
fn run_nearest(
    ran: &Ran,
    ordered: &common::Ordered,
    session: &mut sssp::session::Session,
    (user_sources, sources): (&[u32], &[u32]),
    opts: sssp::strategy::Options,
    tree: bool,
) -> Result<()> {
    let Ran { a, algo, kind, device, stats_to } = *ran;
    let g = ordered.graph();
    let o = sssp::strategy::Options { trace: a.trace.is_some(), tree, ..opts };
    let sol = session.solve_nearest(algo, sources, &o)?;
    let verified = if a.verify {
        Some(common::verify_nearest(g, sources, &sol, common::reference_wanted(g, a.reference), &opts)?)
    } else {
        None
    };
    if let Some(why) = &sol.stats.chosen {
        eprintln!("{why}");
    }
    let order = ordered.json();
    common::report(g, algo, device, user_sources, &sol, verified.as_deref(), a.json, stats_to, order);
    if let Some(p) = &a.trace {
        common::write_trace(p, &sol.stats.trace)?;
    }
    if let (Some(p), "dag") = (&a.output, kind) {
        return kpaths::write_dag(ordered, &sol.dist, p);
    }
    if let Some(p) = &a.output {
        let sol = ordered.solution(sources, sol, tree)?;
        common::write_result(g, user_sources, &sol, p, kind)?;
    }
    Ok(())
}

/// `run`'s outputs and inputs: every output writable, and none of them one of the inputs or
/// another output.
fn check_run_files(a: &RunArgs) -> Result<()> {
    for p in a.output.iter().chain(&a.trace) {
        out::check_writable(p)?;
    }
    let outputs: Vec<(&str, &std::path::Path)> =
        [("-o", &a.output), ("--trace", &a.trace)].into_iter().filter_map(|(f, p)| Some((f, p.as_deref()?))).collect();
    let mut inputs = a.solve.input_files(&a.graph.graph);
    inputs.extend(a.targets_file.as_deref().map(|p| ("the --targets-file", p)));
    out::check_distinct(&outputs, &inputs)?;
    Ok(())
}

/// `run`'s flags that do not go together, refused before the graph is read.
fn check_run_args(a: &RunArgs, algo: Algo, kind: &str, targets: &[u32]) -> Result<()> {
    check_batch(a.batch, algo)?;
    if a.trace.is_some() && !algo.uses_engine() {
        return Err(Error::InvalidArgument(format!(
            "--trace records the iterations of an engine algorithm (topo-bf, workfront, near-far, bucketing); `{}` has none",
            algo.name()
        )));
    }
    if a.output.as_deref().is_some_and(out::is_stdout) && a.trace.as_deref().is_some_and(out::is_stdout) {
        return Err(Error::InvalidArgument(
            "-o - and --trace - would mix results and the trace on standard output: send one to a file".into(),
        ));
    }
    if !targets.is_empty() && kind != "matrix" {
        return Err(Error::InvalidArgument(
            "--targets and --targets-file name the columns of `--output-kind matrix`".into(),
        ));
    }
    if a.multi_source && kind == "matrix" {
        return Err(Error::InvalidArgument(
            "--multi-source makes one run; `--output-kind matrix` has a row per source".into(),
        ));
    }
    if kind == "nearest" && !a.multi_source {
        return Err(Error::InvalidArgument(
            "`--output-kind nearest` names the nearest of the --multi-source sources".into(),
        ));
    }
    if a.batch > 1 && (a.multi_source || kind == "tree") {
        return Err(Error::InvalidArgument(
            "--batch runs independent distance queries; --multi-source and trees run with --batch 1".into(),
        ));
    }
    Ok(())
}

/// `--batch K` for `algo`: K lanes are a power of two up to 64, and only the frontier strategies
/// (and `auto`, which then picks one of them) have lanes, so any other algorithm would ignore it.
fn check_batch(k: u32, algo: Algo) -> Result<()> {
    if !k.is_power_of_two() || k > sssp::engine::MAX_LANES {
        return Err(Error::InvalidArgument(format!(
            "--batch {k}: expected a power of two from 1 to {}",
            sssp::engine::MAX_LANES
        )));
    }
    if k > 1 && !matches!(algo, Algo::Workfront | Algo::NearFar | Algo::Bucketing | Algo::Auto) {
        return Err(Error::InvalidArgument(format!(
            "--batch is read by workfront, near-far, bucketing and auto only; `{}` runs one source at a time",
            algo.name()
        )));
    }
    Ok(())
}

/// Start a distance matrix: the `# source` header naming the columns.
fn matrix_header<W: std::io::Write>(mut w: W, path: &std::path::Path, targets: &[u32], n: usize) -> Result<W> {
    let io = |e| Error::io(path, e);
    if targets.is_empty() {
        writeln!(w, "# source, then the distance to every vertex 0..{n} in id order (inf: unreached)").map_err(io)?;
    } else {
        let cols: Vec<String> = targets.iter().map(u32::to_string).collect();
        writeln!(w, "# source {}", cols.join(" ")).map_err(io)?;
    }
    Ok(w)
}

/// One row of a distance matrix: the source, then its distance to every target column.
fn matrix_row<W: std::io::Write>(
    w: &mut W,
    path: &std::path::Path,
    metric: sssp::Metric,
    src: u32,
    dist: &[sssp::Dist],
    targets: &[u32],
) -> Result<()> {
    let io = |e| Error::io(path, e);
    let mut line = src.to_string();
    let mut push = |d| {
        line.push(' ');
        line.push_str(&common::fmt_dist(metric, d));
    };
    if targets.is_empty() {
        dist.iter().for_each(|&d| push(d));
    } else {
        targets.iter().for_each(|&t| push(dist[t as usize]));
    }
    line.push('\n');
    w.write_all(line.as_bytes()).map_err(io)
}

fn path(a: PathArgs) -> Result<()> {
    if a.solve.source.len() > 1 || a.solve.trials > 1 {
        return Err(Error::InvalidArgument(
            "path goes from one source: give a single --source (or none for one seeded random pick)".into(),
        ));
    }
    let algo = a.solve.algo()?;
    a.solve.check_flags(algo)?;
    a.order.check(&a.solve.hierarchy)?;
    if a.solve.hierarchy.hierarchy.is_some() && a.solve.cutoff.is_some() {
        return Err(Error::InvalidArgument(
            "--cutoff bounds a solve; with --hierarchy the path comes from the hierarchy's search, which takes none"
                .into(),
        ));
    }
    if a.pairs_file.is_some() && a.solve.hierarchy.hierarchy.is_none() {
        return Err(Error::InvalidArgument(
            "--pairs-file runs on the contraction hierarchy: give --hierarchy FILE (built and written there when missing)"
                .into(),
        ));
    }
    a.solve.warm_up(algo);
    let g = a.graph.load_nonempty()?;
    let hierarchy = a.solve.hierarchy.apply(&g, &[algo])?;
    if let (Some(h), Some(pairs)) = (&hierarchy, a.pairs_file.as_deref()) {
        return route::path(&g, h.clone(), None, Some(pairs), a.no_path);
    }
    let target = a.target.expect("clap: --target unless --pairs-file");
    let opts = a.solve.options(&g, false)?;
    let user_src = a.solve.sources(&g)?[0];
    sssp::reference::check_source(&g, target)?;
    if let Some(h) = hierarchy {
        return route::path(&g, h, Some((user_src, target)), None, false);
    }
    // Solved on the graph relabelled by --order; the path printed in the user's ids.
    let ordered = a.order.apply(g)?;
    let g = ordered.graph();
    let (src, target) = (ordered.internal(&[user_src])?[0], ordered.internal(&[target])?[0]);
    // Ordered strategies (near-far, bucketing, dijkstra) stop once the target is final.
    let opts = sssp::strategy::Options { target: Some(target), ..opts };
    let (mut session, _) = a.solve.session(g, algo, &opts, hierarchy, 1)?;
    let sol = session.solve(algo, src, &opts)?;
    match sssp::tree::path(g, src, &sol.dist, target)? {
        // An answer, but not a path: say so on stderr and exit 1 (documented in the help), so
        // scripts can tell it from a path.
        None if opts.cutoff.is_some() => {
            let cutoff = a.solve.cutoff.clone().unwrap_or_default();
            return Err(Error::NotWithin { from: user_src, to: ordered.user(target), cutoff });
        }
        None => return Err(Error::Unreachable { from: user_src, to: ordered.user(target) }),
        Some(p) => {
            outln!("distance {}", common::fmt_dist(g.metric(), sol.dist[target as usize]));
            let p = ordered.users(&p);
            outln!("{} arcs: {}", p.len() - 1, p.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(" "));
        }
    }
    Ok(())
}

fn convert(a: ConvertArgs) -> Result<()> {
    let format = output_format(&a.out, a.to.as_deref())?;
    out::check_writable(&a.out)?;
    out::check_distinct(&[("OUT", &a.out)], &[("the input graph", &a.graph.graph)])?;
    let g = a.graph.load()?;
    check_dropped_weights(&g, format, a.drop_weights)?;
    common::write_graph(&g, &a.out, format)?;
    eprintln!("wrote {} ({} vertices, {} arcs)", out::name(&a.out), g.num_vertices(), g.num_arcs());
    Ok(())
}

fn gen(a: GenArgs) -> Result<()> {
    let spec = sssp::generate::GenSpec::parse(&a.spec)?;
    let weights = sssp::WeightSpec::parse(&a.weights)?;
    let format = output_format(&a.output, a.to.as_deref())?;
    out::check_writable(&a.output)?;
    let g = sssp::generate::generate(&spec, a.seed, weights)?;
    check_dropped_weights(&g, format, a.drop_weights)?;
    common::write_graph(&g, &a.output, format)?;
    eprintln!(
        "generated {} with seed {}: {} vertices, {} arcs -> {}",
        spec.name(),
        a.seed,
        g.num_vertices(),
        g.num_arcs(),
        out::name(&a.output)
    );
    Ok(())
}

fn edge_list(f: sssp::io::Format) -> bool {
    matches!(f, sssp::io::Format::EdgeList | sssp::io::Format::WeightedEdgeList)
}

/// GAP's `.sg` holds no weights: writing one from a graph whose weights are not all 1 loses
/// them, which `--drop-weights` must ask for (an unweighted input read with its default
/// random weights included: `--weights unit` makes the graph what the file will hold).
fn check_dropped_weights(g: &sssp::graph::Graph, format: sssp::io::Format, drop: bool) -> Result<()> {
    if format == sssp::io::Format::GapSerialized && !drop && g.num_arcs() > 0 && g.weight_range() != Some((1, 1)) {
        return Err(Error::InvalidArgument(
            "GAP's .sg holds no weights and this graph's are not all 1: write .wsg to keep them, or pass \
             --drop-weights (or --weights unit) to write the arcs alone"
                .into(),
        ));
    }
    Ok(())
}

/// The format to write `path` in, from `--to` or the file name, checked before any work: a
/// name that tells nothing, a format that cannot be written, a `--to` that contradicts the
/// name's extension (`out.gr --to mtx` would put Matrix Market in a `.gr` file, which every
/// reader then takes for DIMACS), or a compression that is read but not written (`.zst`,
/// `.bz2`) is a bad argument (exit 2). A name without a known extension takes any `--to`.
fn output_format(path: &std::path::Path, to: Option<&str>) -> Result<sssp::io::Format> {
    if !out::is_stdout(path) {
        sssp::io::check_output_name(path)?;
    }
    let format =
        match to {
            Some(f) => {
                let f = sssp::io::Format::parse(f)?;
                match sssp::io::Format::from_path(path) {
                    // `.el` and `.wel` are written alike (`u v w` lines), and read alike.
                    Some(named) if named != f && !(edge_list(named) && edge_list(f)) && !out::is_stdout(path) => {
                        return Err(Error::InvalidArgument(format!(
                            "{}: the name says {named} and --to says {f}: readers would take the file for {named}; \
                             rename it (or leave --to out)",
                            path.display()
                        )))
                    }
                    _ => f,
                }
            }
            None if out::is_stdout(path) => return Err(Error::InvalidArgument(
                "standard output (`-`) has no extension to tell the format: pass --to FORMAT (bin, gr, mtx, el, wel)"
                    .into(),
            )),
            None => sssp::io::Format::from_path(path).ok_or_else(|| {
                Error::InvalidArgument(format!(
                    "cannot tell the output format from the name `{}`: give it an extension \
                 (.bin, .gr, .mtx, .el, .wel, .sg, .wsg, optionally followed by .gz or .xz) or pass --to FORMAT",
                    path.display()
                ))
            })?,
        };
    let gap = matches!(format, sssp::io::Format::GapSerialized | sssp::io::Format::GapWeighted);
    if !sssp::io::WRITABLE.contains(&format) && !gap {
        return Err(Error::InvalidArgument(format!(
            "{}: {format} cannot be written; writable formats are bin, gr, mtx, el, wel, sg and wsg",
            path.display()
        )));
    }
    Ok(format)
}
