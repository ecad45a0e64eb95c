//! Parallel Dijkstra by settling: Crauser et al.'s criteria (general and economic variants) and
//! Martín et al.'s equal-minimum rule, as Ortega-Arranz, Torres, Llanos, Gonzalez-Escribano
//! put them on a GPU ("A New GPU-based Approach to the Shortest Path Problem", HPCS 2013,
//! `crauser-gpu-dijkstra.txt`).
//!
//! Each step relaxes the arcs of the vertices settled by the previous step and then settles
//! every reached vertex that provably has its final distance, so every vertex is settled once
//! and its arcs relaxed once: exactly Dijkstra's work, in as many steps as the rule needs.
//! Which rule ([`Criterion`]) decides how many vertices a step settles:
//!
//! | algo | settles candidate `v` when | paper |
//! |---|---|---|
//! | `crauser`, `--criterion out` | `d(v) <= min_u (d(u) + min out-weight of u)` | §IV-A/B, eq. 1 |
//! | `crauser`, `--criterion in` | `d(v) - min in-weight of v <= min_u d(u)` | Crauser et al. 1998 |
//! | `crauser`, `--criterion both` (default) | either | Crauser et al. 1998 |
//! | `crauser-economic` | `d(v) <= min_u d(u) + least arc weight` | §IV-C, eq. 2 |
//! | `martin` | `d(v) == min_u d(u)` | §IV-D, eq. 3 |
//!
//! (`u` ranges over the candidates: reached, unsettled vertices.) Every variant relaxes by push
//! (successor variant) or pull (predecessor variant, [`Variant`], §IV-E). A push step spreads
//! the frontier's arcs by dynamic virtual warps, or with `Options::balance` = partition by a
//! degree scan and equal arcs per warp (scale-free graphs, whose hubs would serialise a warp). Exactness with zero
//! weights and the step structure are argued in `sssp_kernels::settle`; the whole solve is one
//! engine call ([`Engine::settle`]), a single persistent launch on the GPU.

use std::time::Instant;

use super::{finish, prepare_classes, Options, Solution, Stats};
use crate::engine::{Balance, Engine, Rule, SettleSpec};
use crate::error::{Error, Result};
use crate::graph::Graph;

/// Crauser et al.'s settle criteria (`--criterion`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Criterion {
    /// OUT: per-vertex least out-weights.
    Out,
    /// IN: per-vertex least in-weights.
    In,
    /// OUT or IN (the default: never fewer vertices per step than either).
    Both,
}

impl Criterion {
    /// Every criterion.
    pub const ALL: [Criterion; 3] = [Criterion::Out, Criterion::In, Criterion::Both];

    /// The `--criterion` name.
    pub fn name(self) -> &'static str {
        match self {
            Criterion::Out => "out",
            Criterion::In => "in",
            Criterion::Both => "both",
        }
    }

    /// Parse a `--criterion` name.
    pub fn parse(s: &str) -> Result<Self> {
        Self::ALL
            .into_iter()
            .find(|c| c.name() == s)
            .ok_or_else(|| Error::InvalidArgument(format!("criterion `{s}`: expected out, in or both")))
    }
}

/// How a step relaxes (`--variant`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Push: the frontier relaxes its out-arcs (the default).
    Successor,
    /// Pull: every unsettled vertex scans its in-arcs for frontier tails (reverse graph built
    /// on the host and uploaded on first use). Every step costs O(in-arcs of unsettled vertices).
    Predecessor,
}

impl Variant {
    /// Both variants.
    pub const ALL: [Variant; 2] = [Variant::Successor, Variant::Predecessor];

    /// The `--variant` name.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Successor => "successor",
            Variant::Predecessor => "predecessor",
        }
    }

    /// Parse a `--variant` name.
    pub fn parse(s: &str) -> Result<Self> {
        Self::ALL
            .into_iter()
            .find(|v| v.name() == s)
            .ok_or_else(|| Error::InvalidArgument(format!("variant `{s}`: expected successor or predecessor")))
    }
}

/// Which of the three algorithms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Family {
    Crauser,
    Economic,
    Martin,
}

/// The rule a family runs with `opts`.
fn rule(family: Family, opts: &Options) -> Rule {
    match (family, opts.criterion) {
        (Family::Crauser, Criterion::Out) => Rule::Out,
        (Family::Crauser, Criterion::In) => Rule::In,
        (Family::Crauser, Criterion::Both) => Rule::Both,
        (Family::Economic, _) => Rule::Economic,
        (Family::Martin, _) => Rule::Martin,
    }
}

/// The settling strategies' shared parameters: `crauser-economic` and `martin` take these
/// ([`super::Strategy::CrauserEconomic`], [`super::Strategy::Martin`]), `crauser` these and a
/// criterion ([`Crauser`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settle {
    /// Push or pull relaxation.
    pub variant: Variant,
    /// Balance of a push step (dynamic virtual warps, or partition for scale-free graphs).
    pub balance: Balance,
    /// Relax a push step through the edge classes ([`super::Classify`]).
    pub classify: super::Classify,
}

impl Default for Settle {
    fn default() -> Self {
        let d = Options::default();
        Settle { variant: d.variant, balance: d.balance, classify: d.classify }
    }
}

impl Settle {
    pub(crate) fn apply(&self, o: &mut Options) {
        (o.variant, o.balance, o.classify) = (self.variant, self.balance, self.classify);
    }
}

/// `crauser`'s parameters ([`super::Strategy::Crauser`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Crauser {
    /// Variant, balance and edge classes.
    pub settle: Settle,
    /// Which settle criterion.
    pub criterion: Criterion,
}

impl Default for Crauser {
    fn default() -> Self {
        Crauser { settle: Settle::default(), criterion: Options::default().criterion }
    }
}

impl Crauser {
    pub(crate) fn apply(&self, o: &mut Options) {
        self.settle.apply(o);
        o.criterion = self.criterion;
    }
}

/// Solve from `source` on `eng` (which holds `g`). See the module doc.
pub(crate) fn solve(g: &Graph, eng: &mut dyn Engine, source: u32, opts: &Options, family: Family) -> Result<Solution> {
    crate::reference::check_source(g, source)?;
    if Balance::is_tiled(opts.balance as u32) {
        // The settle loop's push relaxation has its own two mappings (virtual warps, and
        // partitioning for skewed frontiers); a tiled mode would be silently ignored.
        return Err(Error::InvalidArgument(format!(
            "{family:?}: the settling algorithms take --balance thread, vwarp or partition"
        )));
    }
    let pull = opts.variant == Variant::Predecessor;
    // The pull variant ignores the classes: do not compute them for it.
    let (classify, classify_time) = if pull { (false, Default::default()) } else { prepare_classes(g, eng, opts)? };
    let spec = SettleSpec { rule: rule(family, opts), pull, balance: opts.balance, classify };
    let started = Instant::now();
    eng.init(&[source])?;
    eng.settle(g, &spec, source)?;
    let mut sol = finish(
        g,
        eng,
        Stats { readbacks: 1, classify: classify_time, classes_used: classify, ..Stats::default() },
        started,
        opts.target,
    )?;
    // `vertices_processed` counts the settled vertices, the source (settled before step 1)
    // included (sinks are not settled when the run classifies: the deferred pass gives their
    // distances); `iterations` the settle steps.
    let s = &mut sol.stats;
    s.settled_per_step = Some(s.vertices_processed.saturating_sub(1) as f64 / s.iterations.max(1) as f64);
    Ok(sol)
}
