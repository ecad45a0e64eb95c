//! Topology-driven Bellman-Ford: every iteration relaxes every arc out of every reached vertex,
//! until an iteration improves nothing. The LonestarGPU-style baseline that Davidson et al. and
//! H-BF measure work efficiency against: simple, no queues, `O(n m)` work in the worst case.
//!
//! The "improved" flag must be read every iteration (the loop has no frontier to look at), so
//! this strategy synchronises once per iteration by design.

use std::time::Instant;

use super::{finish, Options, Solution, Stats};
use crate::engine::{Engine, Input};
use crate::error::{Error, Result};
use crate::graph::Graph;

/// Topology-driven Bellman-Ford's parameters ([`super::Strategy::TopoBf`]): how its sweeps
/// spread the arcs. (It reads its improved flag every iteration by design, so it has no
/// read-back interval.)
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TopoBf {
    /// Balance, hub threshold and edge classes of every sweep.
    pub spread: super::Spread,
}

impl TopoBf {
    pub(crate) fn apply(&self, o: &mut Options) {
        self.spread.apply(o);
    }
}

/// Solve from `source` on `eng` (which holds `g`). Needs non-negative weights (the engine
/// checked). At most `n` iterations: a shortest path has at most `n - 1` arcs.
pub fn topo_bf(g: &Graph, eng: &mut dyn Engine, source: u32, opts: &Options) -> Result<Solution> {
    crate::reference::check_source(g, source)?;
    let (classify, classify_time) = super::prepare_classes(g, eng, opts)?;
    let mut stats = Stats { classify: classify_time, classes_used: classify, ..Stats::default() };
    let started = Instant::now();
    eng.init(&[source])?;
    let mut last_arcs = 0;
    let mut watch = super::CycleWatch::new(g, started, super::CYCLE_CHECK_SWEEPS);
    for iter in 1..=g.num_vertices().max(1) as u32 {
        let t = Instant::now();
        eng.advance(opts.advance(Input::AllVertices, iter, classify))?;
        let c = eng.counters()?;
        stats.readbacks += 1;
        stats.iterations = iter;
        if opts.trace {
            let micros = t.elapsed().as_secs_f64() * 1e6;
            stats.trace.push(super::IterTrace {
                iter,
                frontier: g.num_vertices() as u64,
                arcs: c.arcs - last_arcs,
                micros,
                bucket: 0,
                far: 0,
                slots: 0,
            });
            last_arcs = c.arcs;
        }
        if c.improved == 0 {
            // The last sweep relaxed every arc out of every reached vertex again, so its
            // overflow flag (cleared per iteration) covers every candidate `finish` must know of.
            let mut sol = finish(g, eng, stats, started, opts.target)?;
            sol.stats.iterations = iter;
            return Ok(sol);
        }
        if let Some(w) = watch.as_mut().filter(|w| iter >= w.next()) {
            w.look(eng, iter)?;
        }
    }
    // Non-negative weights converge within n iterations; getting here means a broken engine
    // (signed graphs with a negative cycle return from `finish`'s caller, `signed_guard`).
    Err(Error::Verification("topology-driven Bellman-Ford did not converge within n iterations".into()))
}
