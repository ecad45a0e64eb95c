//! `sssp paths`: the k shortest simple paths between two vertices (`sssp::kpaths`), and the
//! shortest-path DAG that `run --output-kind dag` writes.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;
use sssp::{Dist, Error, Result, UNREACHED};

use crate::common::{self, GraphArgs, Ordered, SolveArgs};

#[derive(Args)]
pub struct PathsArgs {
    #[command(flatten)]
    graph: GraphArgs,
    #[command(flatten)]
    solve: SolveArgs,
    /// The target vertex.
    #[arg(long, short = 't', allow_negative_numbers = true, value_parser = common::vertex_id)]
    target: u32,
    /// How many paths: at most K, fewer when fewer simple paths exist.
    #[arg(short = 'k', long = "k", value_name = "K", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    k: u64,
    /// Write the paths to this file instead of standard output (`-`: standard output).
    #[arg(long, short = 'o')]
    output: Option<PathBuf>,
    /// Print one JSON object per path instead: `{"length": L, "arcs": A, "vertices": [...]}`.
    #[arg(long)]
    json: bool,
}

/// `sssp paths`: one line per path, shortest first, `LENGTH: V0 V1 ...`.
pub fn paths(a: PathsArgs) -> Result<()> {
    if a.solve.source.len() > 1 || a.solve.trials > 1 {
        return Err(Error::InvalidArgument(
            "paths goes from one source: give a single --source (or none for one seeded random pick)".into(),
        ));
    }
    if let Some(p) = &a.output {
        crate::out::check_writable(p)?;
        crate::out::check_distinct(&[("-o", p.as_path())], &a.solve.input_files(&a.graph.graph))?;
    }
    let algo = a.solve.algo()?;
    a.solve.check_flags(algo)?;
    let g = a.graph.load_nonempty()?;
    // `--cutoff`, parsed for this graph's weights: no path longer is printed.
    let opts = a.solve.options(&g, false)?;
    let src = a.solve.sources(&g)?[0];
    sssp::reference::check_source(&g, a.target)?;
    sssp::kpaths::refuse_negative_arcs(&g)?;
    let k = usize::try_from(a.k).unwrap_or(usize::MAX);
    let t = std::time::Instant::now();
    let found = sssp::kpaths::k_shortest_graph(&g, src, a.target, k, opts.cutoff)?;
    eprintln!("{} path(s) from {src} to {} ({:.3} s)", found.len(), a.target, t.elapsed().as_secs_f64());
    let out = a.output.clone().unwrap_or_else(|| PathBuf::from("-"));
    let mut w = common::create_output(&out)?;
    let io = |e| Error::io(&out, e);
    for (len, p) in &found {
        let len = common::fmt_dist(g.metric(), *len);
        let vs: Vec<String> = p.iter().map(u32::to_string).collect();
        if a.json {
            writeln!(w, "{{\"length\": {len}, \"arcs\": {}, \"vertices\": [{}]}}", p.len() - 1, vs.join(", "))
                .map_err(io)?;
        } else {
            writeln!(w, "{len}: {}", vs.join(" ")).map_err(io)?;
        }
    }
    w.flush().map_err(io)
}

/// `--output-kind dag`: lines `VERTEX DIST P1 P2 ...` in the user's id order, the Pi every
/// predecessor of VERTEX on a shortest path (none for a source or an unreached vertex), from
/// `dist`, the distances on the solved (possibly relabelled) graph.
pub fn write_dag(ordered: &Ordered, dist: &[Dist], path: &Path) -> Result<()> {
    let g = ordered.graph();
    let (off, preds) = sssp::kpaths::shortest_path_dag(g, dist)?;
    let n = g.num_vertices();
    let mut rows: Vec<(Dist, Vec<u32>)> = vec![(UNREACHED, Vec::new()); n];
    for v in 0..n {
        let mut p = ordered.users(&preds[off[v] as usize..off[v + 1] as usize]);
        p.sort_unstable();
        rows[ordered.user(v as u32) as usize] = (dist[v], p);
    }
    let mut w = common::create_output(path)?;
    let io = |e| Error::io(path, e);
    for (v, (d, p)) in rows.iter().enumerate() {
        let mut line = format!("{v} {}", common::fmt_dist(g.metric(), *d));
        p.iter().for_each(|u| line.push_str(&format!(" {u}")));
        writeln!(w, "{line}").map_err(io)?;
    }
    w.flush().map_err(io)
}
