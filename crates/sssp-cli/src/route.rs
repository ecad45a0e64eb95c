//! `sssp path --hierarchy` (point to point on the contraction hierarchy, one pair or a
//! `--pairs-file` on every core) and `sssp table` (a distance table: rows = sources, columns =
//! targets), over `sssp::route` through the session.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use clap::Args;
use sssp::graph::Graph;
use sssp::hierarchy::Hierarchy;
use sssp::session::{Session, TableMethod};
use sssp::strategy::{Algo, Options};
use sssp::{engine::DeviceKind, Dist, Error, Result, UNREACHED};

use crate::common::{self, GraphArgs, HierarchyArg};
use crate::{out, sources};

#[derive(Args)]
pub struct TableArgs {
    #[command(flatten)]
    graph: GraphArgs,
    /// The rows: one vertex id per line (`#` comments; repeats are kept as rows).
    #[arg(long, value_name = "FILE")]
    sources_file: PathBuf,
    /// The columns: one vertex id per line (repeats are kept as columns).
    #[arg(long, value_name = "FILE")]
    targets_file: PathBuf,
    /// The table: `.csv` (a header `source,T1,T2,...`, then a row `S,D1,D2,...` per source,
    /// `inf` where there is no path) or `.json` (`{"sources", "targets", "distances"}`, `null`
    /// where there is no path); `-` writes CSV to standard output.
    #[arg(long, short = 'o')]
    output: PathBuf,
    #[command(flatten)]
    hierarchy: HierarchyArg,
    /// `auto`: with --hierarchy, RPHAST on a GPU and the many-to-many buckets on the CPU;
    /// without, one solve per source (`auto`'s strategy, --batch lanes at a time). `buckets`,
    /// `rphast` (on --device) and `sssp` force one (the first two need --hierarchy).
    #[arg(long, default_value = "auto", value_parser = ["auto", "buckets", "rphast", "sssp"])]
    method: String,
    /// auto, gpu or cpu: where RPHAST and the solves run (the buckets run on the host).
    #[arg(long, default_value = "auto")]
    device: String,
    /// Sources per sweep (RPHAST) or per batched solve (sssp): a power of two up to 64.
    /// Default: 32 on a GPU, 1 on the CPU.
    #[arg(long, value_name = "K")]
    batch: Option<u32>,
}

/// `sssp path --hierarchy F`: one pair, or every pair of `--pairs-file`, by the hierarchy's
/// bidirectional search; `hierarchy` read or built by the caller.
pub fn path(g: &Graph, h: Arc<Hierarchy>, pair: Option<(u32, u32)>, pairs: Option<&Path>, no_path: bool) -> Result<()> {
    let mut session = Session::new(g, DeviceKind::Cpu)?;
    session.set_hierarchy(h)?;
    let r = session.router()?;
    if let Some((s, t)) = pair {
        let started = Instant::now();
        let found = r.route(g, s, t)?;
        eprintln!("route: bidirectional search on the hierarchy in {:.1} us", started.elapsed().as_secs_f64() * 1e6);
        let Some((d, p)) = found else { return Err(Error::Unreachable { from: s, to: t }) };
        outln!("distance {d}");
        outln!("{} arcs: {}", p.len() - 1, join(&p, " "));
        return Ok(());
    }
    let file = pairs.expect("a pair or a pairs file");
    let pairs: Vec<(u32, u32)> =
        sources::read_rows(file, 2, g.num_vertices())?.into_iter().map(|(_, v)| (v[0], v[1])).collect();
    let started = Instant::now();
    let answers = r.route_many(g, &pairs, !no_path)?;
    let wall = started.elapsed().as_secs_f64();
    let mut times: Vec<f64> = answers.iter().map(|a| a.took.as_secs_f64() * 1e6).collect();
    times.sort_by(f64::total_cmp);
    eprintln!(
        "route: {} pairs in {:.3} s on the {}; per pair median {:.1} us, mean {:.1} us ({})",
        pairs.len(),
        wall,
        session.device_name(),
        times[times.len() / 2],
        times.iter().sum::<f64>() / times.len() as f64,
        if no_path { "distances" } else { "paths unpacked" }
    );
    let mut w = common::create_output(Path::new("-"))?;
    let io = |e| Error::io("-", e);
    for (&(s, t), a) in pairs.iter().zip(&answers) {
        match &a.found {
            None => writeln!(w, "{s} {t} inf").map_err(io)?,
            Some((d, p)) if p.is_empty() => writeln!(w, "{s} {t} {d}").map_err(io)?,
            Some((d, p)) => writeln!(w, "{s} {t} {d} {}", join(p, " ")).map_err(io)?,
        }
    }
    w.flush().map_err(io)
}

fn join(p: &[u32], sep: &str) -> String {
    p.iter().map(u32::to_string).collect::<Vec<_>>().join(sep)
}

/// `sssp table`.
pub fn table(a: TableArgs) -> Result<()> {
    let json = table_format(&a.output)?;
    out::check_writable(&a.output)?;
    let inputs = [
        ("the input graph", a.graph.graph.as_path()),
        ("the --sources-file", a.sources_file.as_path()),
        ("the --targets-file", a.targets_file.as_path()),
    ];
    let mut inputs: Vec<_> = inputs.to_vec();
    inputs.extend(a.hierarchy.hierarchy.as_deref().map(|p| ("the --hierarchy file", p)));
    out::check_distinct(&[("-o", &a.output)], &inputs)?;
    let method = TableMethod::parse(&a.method)?;
    if matches!(method, TableMethod::Buckets | TableMethod::Rphast) && a.hierarchy.hierarchy.is_none() {
        return Err(Error::InvalidArgument(format!(
            "--method {} runs on a hierarchy: give --hierarchy FILE",
            a.method
        )));
    }
    let g = a.graph.load_nonempty()?;
    let n = g.num_vertices();
    let rows: Vec<u32> = sources::read_rows(&a.sources_file, 1, n)?.into_iter().map(|(_, v)| v[0]).collect();
    let cols: Vec<u32> = sources::read_rows(&a.targets_file, 1, n)?.into_iter().map(|(_, v)| v[0]).collect();
    let bytes = sssp::route::table::check_size(rows.len(), cols.len())?;
    let hierarchy = a.hierarchy.apply(&g, &[Algo::Auto])?;
    let mut session = Session::new(&g, DeviceKind::parse(&a.device)?)?;
    if let Some(h) = hierarchy {
        session.set_hierarchy(h)?;
    }
    let lanes = a.batch.unwrap_or(if session.is_gpu() { 32 } else { 1 });
    let started = Instant::now();
    let (t, ran) = session.table(&rows, &cols, method, (Algo::Auto, &Options::default(), lanes))?;
    let secs = started.elapsed().as_secs_f64();
    let device = match ran {
        TableMethod::Buckets => format!("host ({})", Session::new(&g, DeviceKind::Cpu)?.device_name()),
        _ => session.device_name(),
    };
    eprintln!(
        "table: {} x {} ({:.1} MB) by {} on {device} in {:.3} s ({:.1} us per cell)",
        rows.len(),
        cols.len(),
        bytes as f64 / 1e6,
        ran.name(),
        secs,
        secs * 1e6 / (rows.len() * cols.len()).max(1) as f64
    );
    write_table(&a.output, json, g.metric(), &rows, &cols, t.cells())
}

/// Whether `path` gets JSON (`.json`) rather than CSV (`.csv`, `-`); any other name is refused.
fn table_format(path: &Path) -> Result<bool> {
    match path.extension().and_then(|e| e.to_str()) {
        Some("json") => Ok(true),
        Some("csv") => Ok(false),
        _ if out::is_stdout(path) => Ok(false),
        _ => Err(Error::InvalidArgument(format!(
            "{}: a table is written as .csv or .json (or `-`: CSV on standard output)",
            path.display()
        ))),
    }
}

fn write_table(path: &Path, json: bool, m: sssp::Metric, rows: &[u32], cols: &[u32], cells: &[Dist]) -> Result<()> {
    let io = |e| Error::io(path, e);
    let mut w = common::create_output(path)?;
    let cell = |d: Dist, none: &str| if d == UNREACHED { none.to_string() } else { common::fmt_dist(m, d) };
    if json {
        write!(w, "{{\"sources\":[{}],\"targets\":[{}],\"distances\":[", join(rows, ","), join(cols, ","))
            .map_err(io)?;
        for (i, row) in cells.chunks(cols.len().max(1)).enumerate().take(rows.len()) {
            let r: Vec<String> = row.iter().map(|&d| cell(d, "null")).collect();
            write!(w, "{}[{}]", if i > 0 { "," } else { "" }, r.join(",")).map_err(io)?;
        }
        writeln!(w, "]}}").map_err(io)?;
    } else {
        writeln!(w, "source,{}", join(cols, ",")).map_err(io)?;
        for (&s, row) in rows.iter().zip(cells.chunks(cols.len().max(1))) {
            let r: Vec<String> = row.iter().map(|&d| cell(d, "inf")).collect();
            writeln!(w, "{s},{}", r.join(",")).map_err(io)?;
        }
    }
    w.flush().map_err(io)
}
