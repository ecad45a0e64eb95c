//! Near-Far Pile (Davidson, Baxter, Garland, Owens, IPDPS 2014, §IV-D).
//!
//! Workfront Sweep processes every changed vertex each iteration, so on graphs with long
//! shortest paths (roads, meshes) a vertex is re-expanded many times before its distance settles.
//! Near-Far processes only the *near set*, the changed vertices below a threshold
//! `T = (bucket + 1) * delta`, and parks the rest in the *far pile*. When the near set runs dry,
//! the pile is split (see `sssp_kernels::split`): the threshold jumps to the bucket of the smallest
//! distance still in the pile, entries already settled or duplicated are dropped, and the rest
//! stays. It is the one-bucket case of [`super::bucketing`]: the same device loop and operators.
//!
//! Invariant: a vertex at distance `d < T` that changed is in the near set; one at `d >= T` is
//! in the far pile; all vertices below the current bucket are final. So when both are empty the
//! distances are exact, for any non-negative weights (zero weights included), any delta >= 1.
//!
//! Delta: Davidson's heuristic `32 * mean weight / mean out-degree` ([`super::heuristic_delta`])
//! unless [`super::Options::delta`] says otherwise. A delta larger than every distance makes one
//! bucket: Workfront Sweep plus a far pile that stays empty.

use super::{device_loop, Options, Solution};
use crate::engine::{BucketSpec, Engine};
use crate::error::Result;
use crate::graph::Graph;

/// Near-Far's parameters ([`super::Strategy::NearFar`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NearFar {
    /// Balance, hub threshold, edge classes, dedupe and the loop driver.
    pub frontier: super::Frontier,
    /// Bucket width in the weights' own terms ([`super::Width`]); `None`:
    /// the heuristic ([`super::heuristic_delta`]).
    pub delta: Option<super::Width>,
    /// The Workfront <-> Near-Far hybrid's switch point ([`Options::wide_at`]; 0 = never).
    pub wide_at: u32,
}

impl NearFar {
    pub(crate) fn apply(&self, o: &mut Options) {
        self.frontier.apply(o);
        (o.delta, o.wide_at) = (self.delta, self.wide_at);
    }
}

/// Solve from `source` on `eng` (which holds `g`). See the module doc.
pub fn near_far(g: &Graph, eng: &mut dyn Engine, source: u32, opts: &Options) -> Result<Solution> {
    let delta = opts.delta_for(g)?;
    device_loop(g, eng, source, opts, Some(BucketSpec { delta, count: 1, wide_at: opts.wide_at }))
}
