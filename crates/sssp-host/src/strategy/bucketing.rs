//! Bucketing with a far pile (Davidson et al. 2014, §IV-E): delta-stepping (Meyer and Sanders)
//! in bulk-synchronous form.
//!
//! Distances fall into buckets of width delta; a window of `A` buckets has one queue each and the
//! far pile holds what lies beyond. The loop processes the lowest non-empty bucket until no
//! vertex of it improves, then moves to the next; when the window is exhausted, a *multisplit*
//! (one histogram pass, a scan, a stable scatter: the GPU primitive the paper lacked and replaced
//! with a radix sort) splits the far pile into the next window. Improved vertices go straight to
//! their bucket's queue during the advance (a push when they enter it; see
//! `sssp_kernels::split` for why no queue then holds a vertex twice), so an iteration needs no
//! reorganisation pass at all, which was 82% of the paper's bucketing time.
//!
//! `A` (`Options::buckets`, default [`DEFAULT_BUCKETS`]): more buckets mean fewer far-pile
//! splits, at `4n` bytes of device memory each. Meyer and Sanders' light/heavy arc split is not
//! implemented: every arc is relaxed when its tail is expanded. Whether deferring heavy arcs
//! pays here has not been measured (docs/gpu.md).

use super::{device_loop, Options, Solution};
use crate::engine::{BucketSpec, Engine};
use crate::error::Result;
use crate::graph::Graph;

/// The window size Davidson et al. found best (A = 10, §IV-E).
pub const DEFAULT_BUCKETS: u32 = 10;

/// Bucketing's parameters ([`super::Strategy::Bucketing`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bucketing {
    /// Balance, hub threshold, edge classes, dedupe and the loop driver.
    pub frontier: super::Frontier,
    /// Bucket width in the weights' own terms ([`super::Width`]); `None`:
    /// the heuristic ([`super::heuristic_delta`]).
    pub delta: Option<super::Width>,
    /// Buckets per window (`A`, `1..=30`).
    pub buckets: u32,
    /// The Workfront <-> Near-Far hybrid's switch point ([`Options::wide_at`]; 0 = never).
    pub wide_at: u32,
}

impl Default for Bucketing {
    fn default() -> Self {
        Bucketing { frontier: Default::default(), delta: None, buckets: DEFAULT_BUCKETS, wide_at: 0 }
    }
}

impl Bucketing {
    pub(crate) fn apply(&self, o: &mut Options) {
        self.frontier.apply(o);
        (o.delta, o.buckets, o.wide_at) = (self.delta, self.buckets, self.wide_at);
    }
}

/// Solve from `source` on `eng` (which holds `g`). See the module doc.
pub fn bucketing(g: &Graph, eng: &mut dyn Engine, source: u32, opts: &Options) -> Result<Solution> {
    let delta = opts.delta_for(g)?;
    device_loop(g, eng, source, opts, Some(BucketSpec { delta, count: opts.buckets, wide_at: opts.wide_at }))
}
