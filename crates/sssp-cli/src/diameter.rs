//! `sssp diameter`: exact diameter (and radius, center, periphery) by eccentricity bounding.

use clap::Args;
use sssp::diameter::{DiameterOptions, Extremes, Scope};
use sssp::engine::DeviceKind;
use sssp::strategy::{Algo, Options};
use sssp::{Error, Result, UNREACHED};

use crate::common::{parse_balance, parse_dedupe, GraphArgs};

/// The definitions, for `--help` (kept in step with the `sssp::diameter` module docs).
pub const DEFINITIONS: &str = "\
Definitions. ecc(v), the eccentricity, is the largest shortest-path distance from v to a vertex of
its component; the diameter is the largest eccentricity, the radius the smallest, the center the
vertices of smallest eccentricity, the periphery those of largest.
- Undirected (symmetric) graphs, detected, or known from how they were built (an undirected
  input or `gen:` family, or --symmetrize): the component is the largest
  connected component (most vertices; ties: the one holding the smallest id), as in Takes and
  Kosters' BoundingDiameters. --whole: the diameter of the whole graph, `inf` if disconnected.
- Directed graphs: ecc(v) is the longest shortest path out of v to a vertex of the largest
  strongly connected component (each eccentricity then costs a forward and a backward SSSP).
  --whole: `inf` unless strongly connected.
- Radius, center and periphery are always those of the largest component. Weights must be
  non-negative; zero weights, self loops and parallel arcs are allowed (the cheapest arc counts).
  `eccentricities` is the number of SSSPs the bounding needed (the paper's I).";

#[derive(Args)]
pub struct DiameterArgs {
    #[command(flatten)]
    graph: GraphArgs,
    /// Also compute the radius (with a center vertex and its farthest vertex).
    #[arg(long)]
    radius: bool,
    /// Also list the center (implies --radius).
    #[arg(long)]
    center: bool,
    /// Also list the periphery.
    #[arg(long)]
    periphery: bool,
    /// The diameter of the whole graph (`inf` when it is not (strongly) connected) instead of
    /// the largest component's.
    #[arg(long)]
    whole: bool,
    /// Print a shortest path between the witness pair (one more SSSP).
    #[arg(long)]
    path: bool,
    /// SSSP algorithm for each eccentricity: auto, dijkstra, topo-bf, workfront, near-far,
    /// bucketing (see `sssp run --help`).
    #[arg(long, short = 'a', default_value = "auto")]
    algo: String,
    /// Device for engine algorithms: auto (GPU if usable, else CPU), gpu, cpu.
    #[arg(long, default_value = "auto")]
    device: String,
    /// Unit-weight eccentricities on an engine: queue (the frontier strategy --algo picks; a
    /// unit-weight Workfront is a BFS), or the paper's level-synchronous kernels: thread
    /// (thread-centric), warp (warp-centric), hybrid (per level by the active vertices and their
    /// adjacency length), or direction (the hybrid plus bottom-up levels while the frontier is
    /// large: Beamer's direction-optimising BFS). Unit-weight graphs only (`--weights unit`
    /// makes one): on other weights it is refused rather than ignored. [default: queue]
    #[arg(long)]
    bfs: Option<String>,
    /// Bucket width of near-far and bucketing (default: Davidson's heuristic).
    #[arg(long)]
    delta: Option<u32>,
    /// Load balancing of the advance: thread, vwarp, partition, cta, cta-warp-scan.
    #[arg(long, default_value = "vwarp")]
    balance: String,
    /// Frontier duplicate removal: stamp or lookup.
    #[arg(long, default_value = "stamp")]
    dedupe: String,
    /// Eccentricities per pass (a power of two up to 64): on undirected graphs with an engine
    /// loop strategy, each round solves K candidates at once on an engine with K lanes. More
    /// eccentricities in all (a round's picks do not see each other's bounds), fewer passes:
    /// for small graphs, where one SSSP leaves a GPU idle. 1: one at a time, as in the paper.
    #[arg(long, default_value_t = 1, value_name = "K")]
    batch: u32,
    /// Run the paper's bounding to the end. By default, on undirected graphs when only the
    /// diameter is asked for (one at a time), the last few open vertices (at most 1024) are
    /// settled by certifying their pairs instead of one eccentricity each: exact, and on
    /// Kronecker graphs far fewer eccentricities (see the library's `diameter` docs).
    #[arg(long)]
    paper_end: bool,
    /// Print the result as one JSON object.
    #[arg(long)]
    json: bool,
}

pub fn diameter(a: DiameterArgs) -> Result<()> {
    let algo = Algo::parse(&a.algo)?;
    if algo == Algo::BellmanFord {
        return Err(Error::InvalidArgument(
            "diameter needs non-negative weights; bellman-ford is for negative ones".into(),
        ));
    }
    let device = DeviceKind::parse(&a.device)?;
    // The GPU's set-up runs while the graph loads.
    crate::common::warm_up(device, algo);
    let bfs = sssp::diameter::BfsMode::parse(a.bfs.as_deref().unwrap_or("queue"))?;
    let g = a.graph.load_nonempty()?;
    // A BFS is a unit-weight run: on other weights the flag would change nothing.
    if a.bfs.is_some() && g.num_arcs() > 0 && g.weight_range() != Some((1, 1)) {
        return Err(Error::InvalidArgument(
            "--bfs chooses how unit-weight eccentricities run, and this graph's weights are not all 1: \
             leave it out, or pass --weights unit to measure in hops"
                .into(),
        ));
    }
    let opts = DiameterOptions {
        algo,
        sssp: Options {
            balance: parse_balance(&a.balance)?,
            dedupe: parse_dedupe(&a.dedupe)?,
            delta: a.delta.map(sssp::strategy::Width::from),
            ..Options::default()
        },
        bfs,
        scope: if a.whole { Scope::Whole } else { Scope::LargestComponent },
        radius: a.radius,
        center: a.center,
        periphery: a.periphery,
        path: a.path,
        // --symmetrize made it symmetric; otherwise the library detects (or knows, for a graph
        // built both ways: `Graph::built_both_ways`).
        symmetric: if a.graph.symmetrize { Some(true) } else { None },
        batch: a.batch,
        pairs: !a.paper_end,
    };
    let x = sssp::diameter::diameter(&g, device, &opts)?;
    if let Some(why) = &x.chosen {
        eprintln!("{why}");
    }
    report(&x, a.json);
    Ok(())
}

fn fmt(d: sssp::Dist) -> String {
    if d == UNREACHED {
        "inf".into()
    } else {
        d.to_string()
    }
}

fn list(v: &[u32]) -> String {
    const SHOWN: usize = 20;
    let mut s: Vec<String> = v.iter().take(SHOWN).map(|x| x.to_string()).collect();
    if v.len() > SHOWN {
        s.push(format!("... ({} in all)", v.len()));
    }
    s.join(" ")
}

fn report(x: &Extremes, json: bool) {
    if json {
        match serde_json::to_string(x) {
            Ok(s) => outln!("{s}"),
            Err(e) => eprintln!("sssp: error: {e}"),
        }
        return;
    }
    let kind = if x.directed { "directed (strongly connected components)" } else { "undirected" };
    outln!("{kind}: {} components, the largest has {} vertices", x.components, x.component_size);
    let (u, v) = x.diameter_pair;
    if x.diameter == UNREACHED {
        outln!("diameter inf (no path from {u} to {v})");
    } else {
        outln!("diameter {} (from {u} to {v})", fmt(x.diameter));
    }
    if let (Some(r), Some((c, f))) = (x.radius, x.radius_pair) {
        outln!("radius {} (center vertex {c}, farthest {f})", fmt(r));
    }
    if let Some(c) = &x.center {
        outln!("center ({}): {}", c.len(), list(c));
    }
    if let Some(p) = &x.periphery {
        outln!("periphery ({}): {}", p.len(), list(p));
    }
    if let Some(p) = &x.path {
        outln!("path ({} arcs): {}", p.len() - 1, p.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(" "));
    }
    outln!(
        "{} eccentricities ({} SSSP runs) on {}, bounds on the {}: {:.3} s (+ {:.3} s to prepare: symmetry {:.3} s \
         and components {:.3} s beside the engine's {:.3} s)",
        x.eccentricities,
        x.traversals,
        x.device,
        if x.bounds_on_device { "device" } else { "host" },
        x.compute.as_secs_f64(),
        x.prepare.as_secs_f64(),
        x.prepare_parts.symmetry.as_secs_f64(),
        x.prepare_parts.components.as_secs_f64(),
        x.prepare_parts.engine.as_secs_f64()
    );
}
