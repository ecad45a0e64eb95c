//! Workfront Sweep (Davidson, Baxter, Garland, Owens, IPDPS 2014, §IV-C).
//!
//! A queue-based Bellman-Ford: each iteration relaxes the out-arcs of exactly the vertices whose
//! distance changed in the previous one, so work tracks the moving "wavefront" instead of the
//! whole graph. The queue must not hold a vertex twice, or work can grow without bound on graphs
//! where many arcs improve the same head; two dedupe methods are offered ([`Dedupe`](crate::engine::Dedupe)):
//! Davidson's lookup table plus compaction, and H-BF's (distance, iteration) 64-bit atomic stamp,
//! which needs no extra pass. Load balancing is a parameter of the advance ([`Balance`]).
//!
//! Invariant: after iteration `i`, every vertex whose shortest path has at most `i` arcs has
//! its final distance; every vertex lowered in iteration `i` is in the next frontier. So the
//! loop ends (empty frontier) after at most `n` iterations with exact distances, for any
//! non-negative weights (zero weights included).
//!
//! By default it runs as the engine's device loop (the bucketed strategies' loop with no
//! buckets), except with partition balance on graphs of more than
//! [`NARROW_PARTITION_ARCS`](crate::engine::NARROW_PARTITION_ARCS) arcs (2^31, the most the
//! partition loop holds): there Workfront's few, huge iterations run as full-occupancy
//! launches queued from the host, which beat the wide device loop (kron 22 on the H100: 8.6 ms
//! against 9.9, 2026-11-27). Below it the partition loop wins (kron 16: 0.21 ms against
//! 0.57-0.59 host-driven in an older build; kron 22: 5.2 against 7.4-7.8).
//! `Options::device_loop = false` launches once per iteration from the host for every mode
//! (`--host-loop`, kept to measure what the device loop saves).

use std::time::Instant;

use super::{device_loop, finish, frontier_loop, Options, Solution, Stats};
use crate::engine::{narrow_partition_arcs, Balance, Engine, Input};
use crate::error::Result;
use crate::graph::Graph;

/// Workfront Sweep's parameters ([`super::Strategy::Workfront`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Workfront {
    /// Balance, hub threshold, edge classes, dedupe and the loop driver.
    pub frontier: super::Frontier,
    /// Read the frontier length back every this many iterations of a host-driven loop (>= 1;
    /// [`Options::check_every`]): the host loop, and partition balance on graphs of more than
    /// [`NARROW_PARTITION_ARCS`](crate::engine::NARROW_PARTITION_ARCS) arcs, which runs
    /// host-driven.
    pub check_every: u32,
}

impl Default for Workfront {
    fn default() -> Self {
        Workfront { frontier: Default::default(), check_every: Options::default().check_every }
    }
}

impl Workfront {
    pub(crate) fn apply(&self, o: &mut Options) {
        self.frontier.apply(o);
        o.check_every = self.check_every;
    }
}

/// Solve from `source` on `eng` (which holds `g`). See the module doc.
pub fn workfront(g: &Graph, eng: &mut dyn Engine, source: u32, opts: &Options) -> Result<Solution> {
    let host_driven = opts.balance == Balance::Partition && g.num_arcs() as u64 > narrow_partition_arcs();
    if (opts.device_loop && !host_driven) || opts.trace {
        return device_loop(g, eng, source, opts, None);
    }
    crate::reference::check_source(g, source)?;
    let (classify, classify_time) = super::prepare_classes(g, eng, opts)?;
    let mut stats = Stats { classify: classify_time, classes_used: classify, ..Stats::default() };
    let started = Instant::now();
    eng.init(&[source])?;
    frontier_loop(g, eng, opts, &mut stats, |eng, iter| eng.advance(opts.advance(Input::Frontier, iter, classify)))?;
    finish(g, eng, stats, started, opts.target)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The loop rule of partition balance: on a graph within `narrow_partition_arcs` the whole
    /// solve is one device-loop call (one read-back at its end); the host loop, still there
    /// for `--host-loop` and big graphs, reads back every `check_every` iterations. Both are
    /// exact.
    #[test]
    fn partition_balance_runs_the_device_loop_on_small_graphs() {
        let spec = crate::generate::GenSpec::parse("kron:10").unwrap();
        let g = crate::generate::generate(&spec, 7, crate::WeightSpec::AsGiven).unwrap();
        assert!((g.num_arcs() as u64) <= crate::engine::NARROW_PARTITION_ARCS);
        let source = crate::reference::pick_sources(&g, 1, 7)[0];
        let want = crate::reference::dijkstra(&g, source).unwrap();
        let mut eng = crate::engine::cpu::CpuEngine::new(&g).unwrap();
        let opts = Options { balance: Balance::Partition, ..Options::default() };
        let device = workfront(&g, &mut eng, source, &opts).unwrap();
        assert_eq!(device.stats.readbacks, 1, "one device-loop call");
        let host = workfront(&g, &mut eng, source, &Options { device_loop: false, check_every: 1, ..opts }).unwrap();
        assert_eq!(host.stats.readbacks, host.stats.iterations, "a read-back per iteration");
        assert!(host.stats.iterations > 2);
        assert_eq!(device.dist, want);
        assert_eq!(host.dist, want);
    }
}
