//! PHAST (Delling, Goldberg, Nowatzyk and Werneck, IPDPS 2011): exact shortest-path trees
//! from a contraction hierarchy, for road networks and meshes where every frontier strategy is
//! bound by the depth of the trees (issue #6; [`crate::hierarchy`] says why and how).
//!
//! A solve is two operators: the upward search on the host ([`Hierarchy::upward`], a few
//! hundred vertices on a road graph) and the engine's sweep ([`Engine::sweep`]: the core's
//! distances from its table, then the levels). The hierarchy is built once per graph
//! ([`Graph::hierarchy`]) and its time is reported apart ([`Stats::prepare`]), like the
//! graph's upload: it pays off over many sources (NY: after about 1,150, road 4M after about
//! 2,250, against the best frontier configuration; docs/benchmarks.md), or is read from a
//! file ([`Graph::hierarchy_file`]).
//!
//! Integer weights only (see [`crate::hierarchy`]); cutoff and target queries are answered by
//! clipping the full tree (the sweep has no early exit); the shortest-path tree is built on
//! the host from the distances.

use std::time::Instant;

use super::{finish, Options, Solution, Stats};
use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::graph::Graph;
use crate::hierarchy::Hierarchy;
use crate::UNREACHED;

/// Solve from `source` by PHAST on `eng` (which holds `g`).
pub fn phast(g: &Graph, eng: &mut dyn Engine, source: u32, _opts: &Options) -> Result<Solution> {
    crate::reference::check_source(g, source)?;
    crate::engine::one_lane(eng.lanes(), "phast")?;
    let (h, built) = g.hierarchy()?;
    let mut sol = solve_with(g, eng, &h, source)?;
    if built {
        sol.stats.prepare = h.stats.build;
    }
    Ok(sol)
}

/// [`phast`] with a hierarchy at hand (`h` built from `g`).
pub fn solve_with(g: &Graph, eng: &mut dyn Engine, h: &Hierarchy, source: u32) -> Result<Solution> {
    let started = Instant::now();
    eng.init(source)?;
    let up = h.upward(source);
    eng.sweep(&h.sweep_graph(), &up.seeds, &up.entries)?;
    let mut sol = finish(g, eng, Stats::default(), started)?;
    sol.stats.iterations = h.stats.levels;
    sol.stats.arcs_relaxed += up.arcs;
    sol.stats.vertices_processed = g.num_vertices() as u64;
    // The search dropped a sum that did not fit: the vertex behind it, if reachable, is left
    // unreached, which names it as for the sweep's own overflows (`finish`).
    if up.overflow {
        if let Some(v) = crate::reference::overflow_victim(g, 1, |i| sol.dist[i] != UNREACHED) {
            return Err(Error::DistanceOverflow { vertex: v, bits: 32 });
        }
    }
    Ok(sol)
}
