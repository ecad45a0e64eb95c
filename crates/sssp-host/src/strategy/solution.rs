//! What a run returns: distances ([`Solution`]) and what it did ([`Stats`], [`IterTrace`]).

use super::*;

/// One traced iteration.
#[derive(Clone, Debug, Serialize)]
pub struct IterTrace {
    /// Iteration number, from 1.
    pub iter: u32,
    /// Input vertices of this iteration (the near set, for the bucketed strategies).
    pub frontier: u64,
    /// Arcs relaxed in this iteration.
    pub arcs: u64,
    /// Wall time of the iteration on the host (a launch and its read-backs), microseconds.
    pub micros: f64,
    /// Bucketed strategies: the bucket processed (its distances are `[bucket*delta,
    /// (bucket+1)*delta)`, so the Near-Far threshold is `(bucket+1)*delta`); 0 otherwise.
    pub bucket: u32,
    /// Items in the far pile after the iteration (stale entries included until a split).
    pub far: u64,
    /// Items waiting in the window's later buckets after the iteration.
    pub slots: u64,
}

/// What a run did.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Stats {
    /// Iterations that had work (queued empty iterations are not counted).
    pub iterations: u32,
    /// Arcs relaxed (read and a candidate computed), over the whole run.
    pub arcs_relaxed: u64,
    /// Frontier entries expanded (a vertex counts once per expansion).
    pub vertices_processed: u64,
    /// Host round trips taken to decide termination.
    pub readbacks: u32,
    /// Bucketed strategies: the bucket width used.
    pub delta: Option<u32>,
    /// Bucketed strategies: buckets per window.
    pub buckets: Option<u32>,
    /// Bucketed strategies: far-pile splits.
    pub far_splits: u32,
    /// A signed-weight run dropped a sum outside the engines' range (see `signed_guard`).
    #[serde(skip)]
    pub overflowed: bool,
    /// Settling algorithms (`crauser`, `martin`): vertices settled per step, on average (the
    /// source, settled before the first step, not counted).
    pub settled_per_step: Option<f64>,
    /// `auto`: what it chose and why (one line).
    pub chosen: Option<String>,
    /// `auto`: the algorithm it ran.
    pub chosen_algo: Option<Algo>,
    /// Time of the solve itself (init to last kernel), excluding upload and download.
    #[serde(serialize_with = "ser_secs")]
    pub compute: Duration,
    /// Time to copy distances back to the host, as the result's type.
    #[serde(serialize_with = "ser_secs")]
    pub download: Duration,
    /// Per-iteration records, when [`Options::trace`] was set.
    pub trace: Vec<IterTrace>,
    /// Time to build the tree, when [`Options::tree`] was set.
    #[serde(serialize_with = "ser_secs")]
    pub tree: Duration,
    /// Host threads of a run on the host's threads ([`super::delta_stepping`]); 0 otherwise.
    pub host_threads: u32,
    /// Time to compute the edge classes before the run ([`Options::classify`]): once per
    /// engine, so zero after its first classified run; not part of `compute`.
    #[serde(serialize_with = "ser_secs")]
    pub classify: Duration,
    /// Whether the run relaxed through the edge classes. [`Classify::Auto`] counts the classes
    /// (the time in `classify`) and then relaxes without them where they would not pay.
    pub classes_used: bool,
    /// Time to build the graph's contraction hierarchy ([`phast`]) when this run built it
    /// (zero when it was built before); not part of `compute`.
    #[serde(serialize_with = "ser_secs")]
    pub prepare: Duration,
    /// Time this run spent making the engine's device ready for PHAST's sweep of its hierarchy
    /// (on a GPU, copying the hierarchy in: [`phast::attach`]); not part of `compute`. Zero when
    /// the engine was given the hierarchy before the run, which is when `attach` does it (and
    /// returns the time); a run that builds the hierarchy attaches it and reports both.
    #[serde(serialize_with = "ser_secs")]
    pub hierarchy_upload: Duration,
    /// Where the result was certified, when [`Options::certify`] asked
    /// ([`certify::Certified`]: on the engine that computed it, or on the host).
    pub certified: Option<certify::Certified>,
    /// How long certifying took (not part of `compute`).
    #[serde(serialize_with = "ser_secs")]
    pub certify: Duration,
    /// Batched sources ([`many::solve_each`] on an engine with lanes): how many sources this
    /// run's pass solved together; the times and counters above are the whole pass's.
    pub batch: Option<u32>,
    /// A run on an engine: the most device memory the engine's buffers held at once during it
    /// (from the start of the solve to its result, certificate and tree included), counting
    /// what the engine held when it started (the graph, and buffers kept from earlier runs).
    /// Per run rather than over the engine's life, so that each run on a shared engine (one
    /// `sssp bench` row after another) reports its own peak, not an earlier run's. Counted the
    /// same way on both backends ([`crate::device::Meter`]). `None` for a run on the host.
    pub device_memory: Option<crate::device::Footprint>,
}

fn ser_secs<S: serde::Serializer>(d: &Duration, s: S) -> std::result::Result<S::Ok, S::Error> {
    s.serialize_f64(d.as_secs_f64())
}

/// A finished run: exact distances and statistics.
#[derive(Clone, Debug)]
pub struct Solution {
    /// Exact distances in their stored form, [`crate::UNREACHED`] for vertices the source does
    /// not reach: integers on integer-weighted graphs, `f32` bit patterns on real-weighted ones
    /// (see `metric`). [`Solution::distance`] and [`Solution::distances`] give the numbers.
    pub dist: Vec<Dist>,
    /// How `dist` holds its distances: the graph's [`Metric`].
    pub metric: Metric,
    /// What the run did.
    pub stats: Stats,
    /// With [`Options::tree`]: each vertex's parent on a shortest path from the source
    /// ([`crate::graph::NO_VERTEX`] for the source and for unreached vertices).
    pub parents: Option<Vec<u32>>,
}

impl Solution {
    /// The distance to `v` as the number it is (an integer, or an `f32` on a real-weighted
    /// graph); `None`: unreached, beyond the query's bound, or not a vertex.
    pub fn distance(&self, v: u32) -> Option<Distance> {
        self.dist.get(v as usize).and_then(|&d| Distance::of(self.metric, d))
    }

    /// Every vertex's [`distance`](Self::distance), in id order.
    pub fn distances(&self) -> impl Iterator<Item = Option<Distance>> + '_ {
        self.dist.iter().map(|&d| Distance::of(self.metric, d))
    }

    /// The farthest vertex the run reached, and its distance (the smallest id among ties).
    pub fn farthest(&self) -> Option<(u32, Distance)> {
        // Stored distances order like the numbers in every metric (see `Metric`).
        let (v, &d) =
            self.dist.iter().enumerate().filter(|(_, &d)| d != UNREACHED).max_by_key(|&(v, &d)| (d, Reverse(v)))?;
        Distance::of(self.metric, d).map(|d| (v as u32, d))
    }

    /// The distance to `v` as an `f32` in any metric (integers above 2^24 rounded); `None` as
    /// [`distance`](Self::distance).
    pub fn distance_f32(&self, v: u32) -> Option<f32> {
        self.distance(v).map(|d| d.as_f64() as f32)
    }

    /// Every distance as an `f32` (as [`distance_f32`](Self::distance_f32)),
    /// `f32::INFINITY` for unreached vertices.
    pub fn distances_f32(&self) -> Vec<f32> {
        self.distances().map(|d| d.map_or(f32::INFINITY, |d| d.as_f64() as f32)).collect()
    }

    /// The vertices of a shortest path from the run's source (the nearest source, for
    /// [`many::solve_nearest`]) to `target`, both included, read off the tree: `None` when
    /// `target` is unreached or out of range, or when the run was not asked for a tree
    /// ([`Options::tree`]; [`crate::tree::path`] builds one from the distances instead).
    pub fn path(&self, target: u32) -> Option<Vec<u32>> {
        let parents = self.parents.as_ref()?;
        self.distance(target)?;
        let mut path = vec![target];
        let mut v = target;
        // A tree has no cycle; the length bound keeps a corrupted one from looping.
        while parents[v as usize] != crate::graph::NO_VERTEX && path.len() <= parents.len() {
            v = parents[v as usize];
            path.push(v);
        }
        path.reverse();
        Some(path)
    }
}
