//! `strategy::solve` for the CLI, with the work the serial Bellman-Ford reference did.
//!
//! The library's `solve` runs Bellman-Ford through `reference::bellman_ford`, which does not
//! report its work, so `run`/`bench` showed "0 arcs relaxed" for it. Until `strategy::solve`
//! calls `reference::bellman_ford_with_stats` itself (a one-line change there), the CLI does,
//! timed the same way as the library's serial references.

use std::time::Instant;

use sssp::engine::Engine;
use sssp::strategy::{Algo, Options, Solution, Stats};
use sssp::{Graph, Result};

pub fn solve(
    g: &Graph,
    algo: Algo,
    eng: Option<&mut (dyn Engine + 'static)>,
    src: u32,
    opts: &Options,
) -> Result<Solution> {
    if algo == Algo::BellmanFord {
        let t = Instant::now();
        let (dist, s) = sssp::reference::bellman_ford_with_stats(g, src)?;
        let stats = Stats {
            compute: t.elapsed(),
            arcs_relaxed: s.arcs_relaxed,
            vertices_processed: s.scans,
            ..Stats::default()
        };
        return Ok(Solution { dist, stats });
    }
    sssp::strategy::solve(g, algo, eng, src, opts)
}
