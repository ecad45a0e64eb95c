//! Parallel SSSP strategies, each a short loop over engine operators.
//!
//! | strategy | paper | loop |
//! |---|---|---|
//! | [`workfront`] | Davidson et al. 2014, §IV-C | advance the changed vertices; dedupe; repeat until empty |
//! | [`near_far`] | Davidson et al. 2014, §IV-D | advance the near set (below a threshold); park the rest in the far pile |
//! | [`bucketing`] | Davidson et al. 2014, §IV-E | advance the lowest bucket of a window of A; multisplit the far pile |
//! | [`topo_bf`] | the LonestarGPU baseline in Davidson et al. / H-BF | advance every vertex until nothing improves |
//! | [`crauser`] | Crauser et al. 1998; Martín et al. 2009; Ortega-Arranz et al. 2013 | relax the last settled vertices' arcs; settle every vertex proved final |
//! | [`asynchronous`] | Wang, Fussell and Lin 2021 (ADDS) | persistent workers take vertices from a ring of delta-wide buckets; no barrier |
//! | [`delta_stepping`] | Meyer and Sanders 2003, in GAP's CPU layout (Beamer et al.) | host threads: own bins, a shared frontier per bucket, a barrier per bucket |
//! | [`phast`] | Delling et al. 2011 (PHAST), on a contraction hierarchy built once per graph | search upward on the host; sweep the hierarchy's levels downward |
//!
//! Every strategy runs on any [`Engine`] (CUDA or CPU) and returns exact distances or an error;
//! the result is converted to the library's [`Dist`] and checked for overflow here, once. The
//! three frontier strategies share one driver (`device_loop`): they differ only in the bucket
//! structure they hand the engine's loop.

pub mod asynchronous;
pub mod auto;
pub mod bucketing;
pub mod certify;
pub mod crauser;
mod crew;
pub mod delta_stepping;
pub mod many;
pub mod near_far;
mod options;
mod params;
pub mod phast;
pub mod resident;
mod run;
mod solution;
pub mod topo_bf;
pub mod workfront;

pub use many::{solve_each, solve_nearest};
pub use options::*;
pub use params::*;
pub(crate) use run::*;
pub use solution::*;

use std::cmp::Reverse;
use std::time::{Duration, Instant};

use rayon::prelude::*;
use serde::Serialize;
use sssp_kernels::INF;

use crate::engine::{check_buckets, Balance, BucketSpec, Counters, Dedupe, Engine, LoopSpec};
use crate::error::{Error, Result};
use crate::graph::Graph;
use crate::graph::{Distance, Metric};
use crate::{Dist, UNREACHED};

/// Which algorithms take `g`'s weights, and which queries: negative weights run on Workfront,
/// topology-driven Bellman-Ford and serial Bellman-Ford only (the bucketed and settling
/// strategies and Dijkstra order vertices by distance, which a negative arc breaks), from one
/// source, without a cutoff or target (a path may climb past a bound and come back below it).
/// Errors: [`Error::NegativeWeight`] naming the algorithm and the first negative arc,
/// [`Error::InvalidArgument`] for the query.
pub fn check_metric(g: &Graph, algo: Algo, opts: &Options) -> Result<()> {
    if g.metric() != Metric::Signed {
        return Ok(());
    }
    if !matches!(algo, Algo::Workfront | Algo::TopoBf | Algo::BellmanFord | Algo::Auto) {
        g.unsigned_weights(algo.name())?;
    }
    if opts.cutoff.is_some() || opts.target.is_some() {
        return Err(Error::InvalidArgument(
            "cutoff and target queries need non-negative weights (with a negative arc a path can \
             pass the bound and come back below it)"
                .into(),
        ));
    }
    Ok(())
}

/// Every algorithm `sssp run --algo` knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Algo {
    /// Serial binary-heap Dijkstra (the reference; CPU only).
    Dijkstra,
    /// Serial queue-based Bellman-Ford with negative-cycle detection (the only one that accepts
    /// negative weights; CPU only).
    BellmanFord,
    /// Topology-driven Bellman-Ford on an engine.
    TopoBf,
    /// Workfront Sweep on an engine.
    Workfront,
    /// Near-Far Pile on an engine.
    NearFar,
    /// Bucketing (delta-stepping with a window of buckets and a far pile) on an engine.
    Bucketing,
    /// Parallel Dijkstra with Crauser et al.'s criteria ([`crauser`]) on an engine.
    Crauser,
    /// Crauser's economic variant (one global least arc weight) on an engine.
    CrauserEconomic,
    /// Martín et al.'s parallel Dijkstra (settle the minimum distance) on an engine.
    Martin,
    /// PHAST on the graph's contraction hierarchy ([`phast`]): built once per graph (seconds),
    /// then each solve is an upward search and a sweep of the hierarchy's levels on an engine.
    /// Non-negative integer weights.
    Phast,
    /// Delta-stepping on the host's threads in the GAP benchmark suite's layout
    /// ([`delta_stepping`]): the CPU's fast parallel path. Non-negative weights.
    DeltaStepping,
    /// Asynchronous delta-stepping on an engine ([`asynchronous`]): no barrier, a device-wide
    /// worklist of delta-wide buckets. Non-negative weights, one solve per engine.
    Async,
    /// Resident pieces on an engine ([`resident`]): the vertices cut into pieces that blocks
    /// relax to a local fixpoint in shared memory, a grid barrier per round of crossings.
    /// Non-negative weights, one solve per engine.
    Resident,
    /// Pick one of the above, and its parameters, from the device and the graph
    /// ([`auto::choose`]).
    Auto,
}

impl Algo {
    /// Every algorithm, in the order `--help` lists them.
    pub const ALL: [Algo; 14] = [
        Algo::Auto,
        Algo::Dijkstra,
        Algo::BellmanFord,
        Algo::DeltaStepping,
        Algo::TopoBf,
        Algo::Workfront,
        Algo::NearFar,
        Algo::Bucketing,
        Algo::Crauser,
        Algo::CrauserEconomic,
        Algo::Martin,
        Algo::Phast,
        Algo::Async,
        Algo::Resident,
    ];

    /// The `--algo` name.
    pub fn name(self) -> &'static str {
        match self {
            Algo::Dijkstra => "dijkstra",
            Algo::BellmanFord => "bellman-ford",
            Algo::TopoBf => "topo-bf",
            Algo::Workfront => "workfront",
            Algo::NearFar => "near-far",
            Algo::Bucketing => "bucketing",
            Algo::Crauser => "crauser",
            Algo::CrauserEconomic => "crauser-economic",
            Algo::Martin => "martin",
            Algo::Phast => "phast",
            Algo::Async => "async",
            Algo::Resident => "resident",
            Algo::DeltaStepping => "delta-stepping",
            Algo::Auto => "auto",
        }
    }

    /// What it is, in a few words: the CLI's `--algo` help lists every algorithm with this, so
    /// the help and [`Algo::ALL`] cannot drift.
    pub fn summary(self) -> &'static str {
        match self {
            Algo::Auto => "picks one of the others and its parameters from the device and the graph, and says which and why",
            Algo::Dijkstra => "serial binary-heap Dijkstra, the reference",
            Algo::BellmanFord => "serial queue-based Bellman-Ford; accepts negative weights",
            Algo::DeltaStepping => "delta-stepping on the host's threads (--workers)",
            Algo::TopoBf => "topology-driven Bellman-Ford",
            Algo::Workfront => "Workfront Sweep",
            Algo::NearFar => "Near-Far Pile",
            Algo::Bucketing => "delta-stepping with a window of buckets and a far pile",
            Algo::Crauser => "parallel Dijkstra: each step settles every vertex Crauser's criterion proves final; see --criterion",
            Algo::CrauserEconomic => "the same with one global least arc weight",
            Algo::Martin => "parallel Dijkstra settling the minimum distance",
            Algo::Phast => "PHAST on a contraction hierarchy built once per graph, or read with --hierarchy; non-negative integer weights",
            Algo::Async => "asynchronous delta-stepping, one launch without barriers (--workers)",
            Algo::Resident => "resident pieces relaxed to local fixpoints in shared memory (--piece-bits)",
        }
    }

    /// Uses a bucket width (`Options::delta`).
    pub fn uses_delta(self) -> bool {
        matches!(self, Algo::NearFar | Algo::Bucketing | Algo::Async | Algo::DeltaStepping | Algo::Resident)
    }

    /// Parse an `--algo` name.
    pub fn parse(s: &str) -> Result<Self> {
        Self::ALL.into_iter().find(|a| a.name() == s).ok_or_else(|| {
            let names: Vec<_> = Self::ALL.iter().map(|a| a.name()).collect();
            Error::InvalidArgument(format!("algorithm `{s}`: expected one of {}", names.join(", ")))
        })
    }

    /// Runs on an [`Engine`] (GPU or CPU backend) rather than as serial host code.
    pub fn uses_engine(self) -> bool {
        // Auto opens one to learn the device, even when it then picks serial Dijkstra.
        matches!(
            self,
            Algo::TopoBf
                | Algo::Workfront
                | Algo::NearFar
                | Algo::Bucketing
                | Algo::Crauser
                | Algo::CrauserEconomic
                | Algo::Martin
                | Algo::Phast
                | Algo::Async
                | Algo::Resident
                | Algo::Auto
        )
    }

    /// Settles vertices once each (parallel Dijkstra: [`crauser`]); takes `--variant`.
    pub fn settles(self) -> bool {
        matches!(self, Algo::Crauser | Algo::CrauserEconomic | Algo::Martin)
    }

    /// Whether [`Options::classify`] applies: every engine strategy (the settling ones in
    /// their push variant).
    pub fn classifies(self) -> bool {
        self.uses_engine() && !matches!(self, Algo::Phast | Algo::Async | Algo::Resident)
    }
}

/// Solve from `source` with `algo`. Engine algorithms need `eng` (holding `g`); the serial
/// references ignore it.
pub fn solve(
    g: &Graph,
    algo: Algo,
    eng: Option<&mut (dyn Engine + 'static)>,
    source: u32,
    opts: &Options,
) -> Result<Solution> {
    if let Some(t) = opts.target {
        crate::reference::check_source(g, t)?;
    }
    let mut eng = eng;
    crate::reference::check_source(g, source)?;
    let meter = start_meter(eng.as_deref());
    let mut sol = solve_unclipped(g, algo, eng.as_deref_mut(), source, opts)?;
    clip(&mut sol.dist, opts);
    let ran = sol.stats.chosen_algo.unwrap_or(algo);
    // An engine algorithm leaves its distances on the engine (`finish` read them from there).
    let resident = ran.uses_engine();
    certify::certify_result(
        g,
        eng.as_mut().map(|e| &mut **e as &mut dyn Engine),
        resident,
        &[source],
        0,
        &mut sol,
        opts,
    )?;
    if opts.tree {
        attach_tree(g, ran, eng, &[source], &mut sol, opts)?;
    }
    sol.stats.device_memory = peak_of(meter, ran);
    Ok(sol)
}

/// Build [`Solution::parents`] for a finished run from `roots` (its sources): on the engine
/// after a frontier or settling run (`ran`), on the host otherwise or where the engine's pass
/// left an orphan (a zero-weight arc taken within one iteration or step: `sssp_kernels::tree`);
/// clipped to the query's bound.
pub(crate) fn attach_tree(
    g: &Graph,
    ran: Algo,
    eng: Option<&mut (dyn Engine + 'static)>,
    roots: &[u32],
    sol: &mut Solution,
    opts: &Options,
) -> Result<()> {
    let t = Instant::now();
    let bound = opts.query_bound(&sol.dist);
    let on_host = |dist: &[Dist]| crate::tree::predecessors_nearest(g, roots, dist, bound);
    let mut parents = match eng {
        // Settling runs qualify too: a vertex settled in step s got its distance from one
        // settled in an earlier step, whose stamp (SETTLED | step) is smaller.
        Some(e) if matches!(ran, Algo::Workfront | Algo::NearFar | Algo::Bucketing) || ran.settles() => {
            let p = e.tree_parents()?;
            // Roots as a sorted list (one source: no n-sized mask on kron 24's 16M vertices).
            let mut sorted = roots.to_vec();
            sorted.sort_unstable();
            let orphan = p.par_iter().zip(&sol.dist).enumerate().any(|(v, (&p, &d))| {
                p == crate::graph::NO_VERTEX && d != UNREACHED && sorted.binary_search(&(v as u32)).is_err()
            });
            if orphan {
                on_host(&sol.dist)?
            } else {
                p
            }
        }
        _ => on_host(&sol.dist)?,
    };
    // A bounded query keeps only the vertices within its bound (their tree arcs come from
    // vertices within it too: a tight arc's tail is no farther than its head). In parallel:
    // a serial pass over kron 22's 4M entries took 26 ms on the H100 machine's host,
    // 9x the tree itself.
    if bound.is_some() {
        parents.par_iter_mut().zip(&sol.dist).for_each(|(p, &d)| {
            if d == UNREACHED {
                *p = crate::graph::NO_VERTEX;
            }
        });
    }
    sol.stats.tree = t.elapsed();
    sol.parents = Some(parents);
    Ok(())
}

/// The query's contract on any strategy's result: nothing farther than the cutoff, or than
/// the target when it was reached (see [`Options::target`]). A strategy that ran to the end
/// has exact distances everywhere, so clipping them gives the same answer as an early stop.
pub(crate) fn clip(dist: &mut [Dist], opts: &Options) {
    let Some(bound) = opts.query_bound(dist) else { return };
    dist.par_iter_mut().for_each(|d| {
        if *d > bound {
            *d = UNREACHED;
        }
    });
}

fn solve_unclipped(
    g: &Graph,
    algo: Algo,
    eng: Option<&mut (dyn Engine + 'static)>,
    source: u32,
    opts: &Options,
) -> Result<Solution> {
    if algo != Algo::Auto {
        check_metric(g, algo, opts)?;
    }
    let serial = |f: &dyn Fn() -> Result<(Vec<Dist>, u64)>| -> Result<Solution> {
        let t = Instant::now();
        let (dist, arcs) = f()?;
        let stats = Stats { compute: t.elapsed(), arcs_relaxed: arcs, ..Stats::default() };
        Ok(Solution { dist, metric: g.metric(), stats, parents: None })
    };
    match (algo, eng) {
        (Algo::Auto, mut eng) => {
            let phast = eng.as_deref_mut().and_then(|e| auto::phast_fits(g, e, opts));
            let c = phast.unwrap_or_else(|| auto::choose(g, eng.as_ref().is_some_and(|e| e.is_gpu()), opts));
            let mut sol = solve_unclipped(g, c.algo, eng, source, &c.opts)?;
            sol.stats.chosen = Some(c.why);
            sol.stats.chosen_algo = Some(c.algo);
            Ok(sol)
        }
        (Algo::Dijkstra, _) => serial(&|| {
            let bound = crate::reference::Bound { cutoff: opts.cutoff, target: opts.target };
            let (d, s) = crate::reference::dijkstra_bounded(g, source, bound)?;
            Ok((d, s.arcs_relaxed))
        }),
        (Algo::DeltaStepping, _) => delta_stepping::delta_stepping(g, source, opts),
        (Algo::BellmanFord, _) => serial(&|| {
            let (d, s) = crate::reference::bellman_ford_with_stats(g, source)?;
            Ok((d, s.arcs_relaxed))
        }),
        (Algo::TopoBf, Some(e)) => signed_guard(g, source, topo_bf::topo_bf(g, e, source, opts)),
        (Algo::Workfront, Some(e)) => signed_guard(g, source, workfront::workfront(g, e, source, opts)),
        (Algo::NearFar, Some(e)) => near_far::near_far(g, e, source, opts),
        (Algo::Bucketing, Some(e)) => bucketing::bucketing(g, e, source, opts),
        (Algo::Crauser, Some(e)) => crauser::solve(g, e, source, opts, crauser::Family::Crauser),
        (Algo::CrauserEconomic, Some(e)) => crauser::solve(g, e, source, opts, crauser::Family::Economic),
        (Algo::Martin, Some(e)) => crauser::solve(g, e, source, opts, crauser::Family::Martin),
        (Algo::Phast, Some(e)) => phast::phast(g, e, source, opts),
        (Algo::Async, Some(e)) => asynchronous::asynchronous(g, e, source, opts),
        (Algo::Resident, Some(e)) => resident::resident(g, e, &[source], opts),
        (a, None) => Err(Error::InvalidArgument(format!("`{}` runs on an engine; none was opened", a.name()))),
    }
}
