//! The graph model: a compressed sparse row (CSR) adjacency with `u32` vertex ids, `u64` edge
//! offsets (so more than 2^32 arcs are addressable) and integer weights.
//!
//! Weights are `u32` when every weight is non-negative (what the GPU strategies need) and `i32`
//! when some weight is negative (what Bellman-Ford accepts). Self loops and multi-edges are kept
//! exactly as given: they are legal, and some strategies treat them specially.
//!
//! Arrays live in [`Buf`], which is either an owned `Vec` or a slice of a memory-mapped binary
//! graph file, so a billion-arc graph opens without copying (see `io::binary`).

use std::ops::Deref;
use std::sync::Arc;

use rayon::prelude::*;

use crate::error::{Error, Result};
use crate::{mem, rng};

mod blocked;
pub(crate) use blocked::csr_blocked;
pub mod order;

/// Largest vertex count: ids are `u32` and `u32::MAX` is reserved as "no vertex".
pub const MAX_VERTICES: u64 = u32::MAX as u64;

/// "No vertex" marker (predecessor of the source and of unreached vertices).
pub const NO_VERTEX: u32 = u32::MAX;

/// A read-only array that is either owned or borrowed from a shared memory map.
pub enum Buf<T: 'static> {
    /// An array the process allocated (parsed, generated or converted).
    Owned(Vec<T>),
    /// `len` elements of `T` starting `offset` bytes into the map; the offset is aligned for `T`.
    Mapped {
        /// The file's map, shared by every array of the graph and alive as long as any of them.
        map: Arc<memmap2::Mmap>,
        /// Byte offset of the first element.
        offset: usize,
        /// Number of elements.
        len: usize,
    },
}

impl<T: Copy + 'static> Buf<T> {
    /// A view into a map. Fails if the range is out of the map or misaligned for `T`.
    ///
    /// # Safety
    /// `T` must be a plain integer type for which every bit pattern is valid.
    pub unsafe fn mapped(map: Arc<memmap2::Mmap>, offset: usize, len: usize) -> Option<Self> {
        let bytes = len.checked_mul(std::mem::size_of::<T>())?;
        let end = offset.checked_add(bytes)?;
        if end > map.len() || !(map.as_ptr() as usize + offset).is_multiple_of(std::mem::align_of::<T>()) {
            return None;
        }
        Some(Buf::Mapped { map, offset, len })
    }
}

impl<T: 'static> Deref for Buf<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        match self {
            Buf::Owned(v) => v,
            // SAFETY: `mapped` checked bounds and alignment; the map is read-only and kept alive
            // by the Arc for as long as `self`.
            Buf::Mapped { map, offset, len } => unsafe {
                std::slice::from_raw_parts(map.as_ptr().add(*offset) as *const T, *len)
            },
        }
    }
}

impl<T: Clone + 'static> Clone for Buf<T> {
    fn clone(&self) -> Self {
        match self {
            Buf::Owned(v) => Buf::Owned(v.clone()),
            Buf::Mapped { map, offset, len } => Buf::Mapped { map: map.clone(), offset: *offset, len: *len },
        }
    }
}

impl<T: std::fmt::Debug + 'static> std::fmt::Debug for Buf<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter().take(16)).finish()
    }
}

impl<T> From<Vec<T>> for Buf<T> {
    fn from(v: Vec<T>) -> Self {
        Buf::Owned(v)
    }
}

/// Arc weights: unsigned when all are non-negative integers, signed when some is negative, real
/// (`f32`) when the input carried real numbers.
///
/// The split is decided once, when the graph is built: a graph is [`Weights::Signed`] exactly when
/// some weight is negative, so the GPU strategies can take the `u32` array without a check per arc.
///
/// Real weights are kept as the bit patterns of non-negative finite `f32`s (`-0.0` stored as
/// `+0.0`), which order like the numbers: the engines upload them as they are and add them in
/// `f32` ([`Metric`]). Every distance of a real-weighted graph, in a [`crate::strategy::Solution`], a
/// cutoff or a delta, is such a bit pattern too (see [`Metric::encode`] and [`Metric::decode`]).
#[derive(Clone, Debug)]
pub enum Weights {
    /// Every weight is an integer `>= 0`: what Dijkstra and the engine strategies accept.
    Unsigned(Buf<u32>),
    /// At least one weight is `< 0`: only Bellman-Ford accepts these.
    Signed(Buf<i32>),
    /// Real weights: `f32` bit patterns, each finite and `>= +0.0`.
    Real(Buf<u32>),
}

pub use sssp_kernels::Metric;

/// Distances of a real-weighted graph are `f32` bit patterns held in a [`crate::Dist`].
pub trait RealDistances {
    /// The bit pattern of a non-negative finite distance, or an error naming `what` (a cutoff,
    /// a delta...).
    fn encode(self, x: f64, what: &str) -> Result<crate::Dist>;
    /// The number a distance stands for ([`crate::UNREACHED`] and integers alike, as `f64`).
    fn decode(self, d: crate::Dist) -> f64;
    /// A distance for people: the integer, the shortest decimal that reads back as the same
    /// `f32`, or `inf` for [`crate::UNREACHED`].
    fn show(self, d: crate::Dist) -> String;
    /// `d + w` in this metric, comparable with other distances as `i128` (for reals: the bit
    /// pattern of the rounded `f32` sum, `None` when it is not finite); `w` as
    /// [`Weights::get`] gives it. `d` must be finite.
    fn plus(self, d: crate::Dist, w: i64) -> Option<i128>;
}

impl RealDistances for Metric {
    fn encode(self, x: f64, what: &str) -> Result<crate::Dist> {
        let bad = |m: &str| Err(Error::InvalidArgument(format!("{what} {x}: {m}")));
        if !(x.is_finite() && x >= 0.0) {
            return bad("must be a finite number >= 0");
        }
        match self {
            Metric::Integer | Metric::Signed if x.fract() != 0.0 || x >= i64::MAX as f64 => {
                bad("the graph has integer weights, so this must be an integer")
            }
            Metric::Integer | Metric::Signed => Ok(x as crate::Dist),
            // `as f32` rounds to nearest (past f32::MAX: to infinity); `+ 0.0` turns -0.0
            // into +0.0.
            Metric::Real => match (x as f32) + 0.0 {
                f if f.is_finite() => Ok(f.to_bits() as crate::Dist),
                _ => bad("is past the largest f32, and the graph has real (f32) weights"),
            },
        }
    }

    fn show(self, d: crate::Dist) -> String {
        match self {
            _ if d == crate::UNREACHED => "inf".into(),
            Metric::Real => f32::from_bits(d as u32).to_string(),
            Metric::Integer | Metric::Signed => d.to_string(),
        }
    }

    fn plus(self, d: crate::Dist, w: i64) -> Option<i128> {
        match self {
            // Host distances and weights of signed graphs are plain i64s.
            Metric::Integer | Metric::Signed => Some(d as i128 + w as i128),
            Metric::Real => sssp_kernels::relax::candidate(Metric::Real, d as u32, w as u32).map(|c| c as i128),
        }
    }

    fn decode(self, d: crate::Dist) -> f64 {
        match self {
            Metric::Real if d != crate::UNREACHED => f32::from_bits(d as u32) as f64,
            _ => d as f64,
        }
    }
}

/// A distance as the number it is: exact integers on graphs with integer weights (signed ones
/// included), `f32` on graphs with real weights. What [`crate::strategy::Solution::distance`]
/// returns, so that no caller reads the `f32` bit patterns a [`crate::Dist`] holds on real graphs
/// as integers.
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
pub enum Distance {
    /// A distance on an integer-weighted graph.
    Integer(i64),
    /// A distance on a real-weighted graph: the `f32` sum the engines computed.
    Real(f32),
}

impl Distance {
    /// The distance that `d` stands for in `metric`, or `None` for [`crate::UNREACHED`].
    ///
    /// ```
    /// use sssp::{Distance, Metric};
    /// assert_eq!(Distance::of(Metric::Integer, 7), Some(Distance::Integer(7)));
    /// assert_eq!(Distance::of(Metric::Real, 2.5f32.to_bits() as i64), Some(Distance::Real(2.5)));
    /// assert_eq!(Distance::of(Metric::Integer, sssp::UNREACHED), None);
    /// ```
    pub fn of(metric: Metric, d: crate::Dist) -> Option<Distance> {
        match metric {
            _ if d == crate::UNREACHED => None,
            Metric::Real => Some(Distance::Real(f32::from_bits(d as u32))),
            Metric::Integer | Metric::Signed => Some(Distance::Integer(d)),
        }
    }

    /// The number as an `f64` (exact for reals and for integers up to 2^53).
    pub fn as_f64(self) -> f64 {
        match self {
            Distance::Integer(x) => x as f64,
            Distance::Real(x) => x as f64,
        }
    }
}

impl std::fmt::Display for Distance {
    /// The integer, or the shortest decimal that reads back as the same `f32`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Distance::Integer(x) => write!(f, "{x}"),
            Distance::Real(x) => write!(f, "{x}"),
        }
    }
}

/// `f32` weight `x` as stored: its bit pattern, or why it cannot be a weight.
pub fn real_weight(x: f32) -> std::result::Result<u32, String> {
    if x.is_nan() {
        Err("NaN is not a weight".into())
    } else if x.is_infinite() {
        Err(format!("{x} is not a weight (weights must be finite)"))
    } else if x < 0.0 {
        Err(format!(
            "real weight {x} is negative: real weights must be >= 0 (negative integer weights run on \
             Bellman-Ford)"
        ))
    } else {
        Ok((x + 0.0).to_bits())
    }
}

impl Weights {
    /// Number of weights, one per arc.
    pub fn len(&self) -> usize {
        match self {
            Weights::Unsigned(w) | Weights::Real(w) => w.len(),
            Weights::Signed(w) => w.len(),
        }
    }

    /// How distances add up: [`Metric::Real`] for real weights.
    pub fn metric(&self) -> Metric {
        match self {
            Weights::Real(_) => Metric::Real,
            Weights::Signed(_) => Metric::Signed,
            Weights::Unsigned(_) => Metric::Integer,
        }
    }

    /// True for a graph without arcs.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Weight of arc `e` widened to `i64`: for [`Weights::Real`] its bit pattern (what an
    /// [`EdgeList`] with `real` holds; [`RealDistances::decode`] gives the number).
    #[inline]
    pub fn get(&self, e: usize) -> i64 {
        match self {
            Weights::Unsigned(w) | Weights::Real(w) => w[e] as i64,
            Weights::Signed(w) => w[e] as i64,
        }
    }
}

/// The sum of a graph's weights ([`Graph::weight_total`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum WeightTotal {
    /// Integer weights: exact.
    Integer(u128),
    /// Real weights.
    Real(f64),
}

/// A directed graph in CSR form. Undirected inputs are stored as two arcs per edge.
#[derive(Clone, Debug)]
pub struct Graph {
    offsets: Buf<u64>,
    targets: Buf<u32>,
    weights: Weights,
    /// [`Graph::weight_total`], computed on first use and kept: a pass over every weight
    /// (134 ms serially on kron 22), and every Near-Far or Bucketing solve without `--delta`
    /// derives its bucket width from it.
    total: std::sync::OnceLock<WeightTotal>,
    /// [`Graph::weight_range`], computed on first use and kept (a pass over every weight).
    range: std::sync::OnceLock<Option<(i64, i64)>>,
    /// The largest out-degree, computed once ([`Graph::max_degree`]: `auto` asks on every solve,
    /// and a parallel pass costs more than a small graph's whole solve).
    max_degree: std::sync::OnceLock<usize>,
    /// [`Graph::degree_tail`], computed once (an engine's hub queue is sized by it).
    degrees: std::sync::OnceLock<DegreeTail>,
    /// [`Graph::built_both_ways`].
    both_ways: bool,
    /// [`Graph::id`].
    id: u64,
}

/// The next [`Graph::id`].
static NEXT_GRAPH_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

impl Graph {
    /// Assemble a graph from CSR arrays, checking that they are consistent.
    pub fn from_csr(offsets: Buf<u64>, targets: Buf<u32>, weights: Weights) -> Result<Self> {
        let bad = |m: &str| Err(Error::InvalidArgument(format!("inconsistent CSR: {m}")));
        if offsets.is_empty() {
            return bad("offsets must have n+1 entries");
        }
        let n = offsets.len() as u64 - 1;
        if n > MAX_VERTICES {
            return Err(Error::TooLarge { what: format!("{n} vertices (at most {MAX_VERTICES})") });
        }
        if offsets[0] != 0 || *offsets.last().unwrap() != targets.len() as u64 {
            return bad("offsets must start at 0 and end at the number of arcs");
        }
        if weights.len() != targets.len() {
            return bad("one weight per arc");
        }
        if offsets.par_windows(2).any(|w| w[0] > w[1]) {
            return bad("offsets must not decrease");
        }
        // The largest target of each chunk (a loop the compiler vectorises), then the culprit
        // only in a chunk that has one: opening kron:23's 2.2 GB file on one thread, a search
        // arc by arc took 0.32 s (as long as the checksum), the chunks' maxima 0.13-0.15 s.
        let bad = targets.par_chunks(1 << 14).find_any(|c| c.iter().fold(0, |a, &t| a.max(t)) as u64 >= n);
        if let Some(&t) = bad.and_then(|c| c.iter().find(|&&t| t as u64 >= n)) {
            return Err(Error::VertexOutOfRange { vertex: t as u64, num_vertices: n });
        }
        Ok(Graph {
            offsets,
            targets,
            weights,
            total: std::sync::OnceLock::new(),
            range: std::sync::OnceLock::new(),
            max_degree: std::sync::OnceLock::new(),
            degrees: std::sync::OnceLock::new(),
            both_ways: false,
            id: NEXT_GRAPH_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        })
    }

    /// This graph's number in this process: never given to another graph (a clone, being the
    /// same arcs, keeps it). A graph cannot change once made, so what was built from a graph
    /// can be kept under its id (a distributed group's slices: `distributed::Group`) with no
    /// risk of serving it for another graph that happens to lie at the same address.
    pub(crate) fn id(&self) -> u64 {
        self.id
    }

    /// Whether every arc was built together with its reverse of the same weight: an undirected
    /// input or generator (`EdgeList::undirected`), or `--symmetrize`. Such a graph is
    /// symmetric ([`crate::diameter::is_symmetric`]) without a check; `false` only means not
    /// known (a CSR given directly, a binary file, a shifted weighting).
    pub fn built_both_ways(&self) -> bool {
        self.both_ways
    }

    /// `self`, marked as [built both ways](Graph::built_both_ways) when `yes`.
    pub(crate) fn with_both_ways(mut self, yes: bool) -> Self {
        self.both_ways = yes;
        self
    }

    /// Number of vertices `n`; ids are `0..n`.
    pub fn num_vertices(&self) -> usize {
        self.offsets.len() - 1
    }

    /// Number of arcs `m` (an undirected edge counts twice).
    pub fn num_arcs(&self) -> usize {
        self.targets.len()
    }

    /// The CSR offsets, `n + 1` entries: `v`'s out-arcs are `offsets[v]..offsets[v + 1]`.
    pub fn offsets(&self) -> &[u64] {
        &self.offsets
    }

    /// The head of each arc, `m` entries, grouped by tail in [`offsets`](Self::offsets) order.
    pub fn targets(&self) -> &[u32] {
        &self.targets
    }

    /// The weight of each arc, parallel to [`targets`](Self::targets).
    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    /// How distances add up on this graph (real weights: [`Metric::Real`]).
    pub fn metric(&self) -> Metric {
        self.weights.metric()
    }

    /// Every weight as the engines' `u32` cells hold it: integers, `f32` bit patterns
    /// ([`Metric::Real`]) or `i32`s ([`Metric::Signed`]); the metric says which. Which
    /// strategies accept which metric is the strategies' business
    /// ([`crate::strategy::check_metric`]).
    pub fn engine_weights(&self) -> &[u32] {
        match &self.weights {
            Weights::Unsigned(w) | Weights::Real(w) => w,
            // SAFETY: i32 and u32 have the same size and alignment, and every bit pattern is
            // valid for both.
            Weights::Signed(w) => unsafe { std::slice::from_raw_parts(w.as_ptr() as *const u32, w.len()) },
        }
    }

    /// The weights as the engines take them (`u32` integers, or `f32` bit patterns with
    /// [`Metric::Real`], see [`metric`](Self::metric)) if all are non-negative, else a typed
    /// error naming the first negative arc.
    pub fn unsigned_weights(&self, algo: &str) -> Result<&[u32]> {
        match &self.weights {
            Weights::Unsigned(w) | Weights::Real(w) => Ok(w),
            Weights::Signed(w) => match w.iter().position(|&x| x < 0) {
                // A signed graph always has a negative weight (see `Weights`), but stay total.
                None => Err(Error::InvalidArgument("signed weights without a negative one".into())),
                Some(e) => {
                    let from = self.source_of(e);
                    Err(Error::NegativeWeight { algo: algo.into(), from, to: self.targets[e], weight: w[e] as i64 })
                }
            },
        }
    }

    /// Out-degree of `v`.
    #[inline]
    pub fn degree(&self, v: u32) -> usize {
        (self.offsets[v as usize + 1] - self.offsets[v as usize]) as usize
    }

    /// The largest out-degree (0 without vertices): O(n) in parallel the first time, then kept.
    pub fn max_degree(&self) -> usize {
        *self.max_degree.get_or_init(|| self.offsets.par_windows(2).map(|w| (w[1] - w[0]) as usize).max().unwrap_or(0))
    }

    /// How many vertices have each power-of-two degree or more, computed once.
    pub(crate) fn degree_tail(&self) -> &DegreeTail {
        self.degrees.get_or_init(|| DegreeTail::of(&self.offsets))
    }

    /// Arc index range of `v`'s out-arcs.
    #[inline]
    pub fn arc_range(&self, v: u32) -> std::ops::Range<usize> {
        self.offsets[v as usize] as usize..self.offsets[v as usize + 1] as usize
    }

    /// Out-neighbours of `v` with weights (widened to `i64`; bit patterns for real weights).
    pub fn neighbors(&self, v: u32) -> impl Iterator<Item = (u32, i64)> + '_ {
        self.arc_range(v).map(move |e| (self.targets[e], self.weights.get(e)))
    }

    /// The source vertex of arc `e` (binary search in the offsets).
    pub fn source_of(&self, e: usize) -> u32 {
        (self.offsets.partition_point(|&o| o <= e as u64) - 1) as u32
    }

    /// Smallest and largest weight, or `None` for a graph with no arcs (bit patterns for real
    /// weights: they order like the numbers; [`Metric::decode`] reads them).
    /// Computed once per graph and kept.
    pub fn weight_range(&self) -> Option<(i64, i64)> {
        *self.range.get_or_init(|| {
            if self.num_arcs() == 0 {
                return None;
            }
            let (lo, hi) = match &self.weights {
                Weights::Unsigned(w) | Weights::Real(w) => {
                    (*w.par_iter().min().unwrap() as i64, *w.par_iter().max().unwrap() as i64)
                }
                Weights::Signed(w) => (*w.par_iter().min().unwrap() as i64, *w.par_iter().max().unwrap() as i64),
            };
            Some((lo, hi))
        })
    }

    /// The sum of the arcs' weights: integer weights exactly, negative ones counting as 0;
    /// real weights as given. Computed once per graph, in parallel, and kept.
    pub fn weight_total(&self) -> WeightTotal {
        *self.total.get_or_init(|| match &self.weights {
            Weights::Unsigned(w) => WeightTotal::Integer(w.par_iter().map(|&x| x as u128).sum()),
            Weights::Signed(w) => WeightTotal::Integer(w.par_iter().map(|&x| x.max(0) as u128).sum()),
            Weights::Real(w) => WeightTotal::Real(w.par_iter().map(|&x| f32::from_bits(x) as f64).sum()),
        })
    }

    /// A graph from `(tail, head, weight)` arcs, kept as given (no doubling, no default
    /// weights). Handy for small hand-drawn graphs; O(n + m).
    ///
    /// ```
    /// let g = sssp::graph::Graph::from_arcs(3, &[(0, 1, 5), (1, 2, -1)])?;
    /// assert_eq!(g.neighbors(1).collect::<Vec<_>>(), vec![(2, -1)]);
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn from_arcs(n: u32, arcs: &[(u32, u32, i64)]) -> Result<Graph> {
        let mut e = EdgeList::with_capacity(n, arcs.len());
        for &(u, v, w) in arcs {
            e.push(u, v, w);
        }
        e.into_graph_as_given()
    }

    /// Which vertices `src` reaches along arcs (any weights). O(n + m).
    pub fn reachable(&self, src: u32) -> Vec<bool> {
        let mut seen = vec![false; self.num_vertices()];
        let mut stack = vec![src];
        seen[src as usize] = true;
        while let Some(u) = stack.pop() {
            for &v in &self.targets[self.arc_range(u)] {
                if !std::mem::replace(&mut seen[v as usize], true) {
                    stack.push(v);
                }
            }
        }
        seen
    }

    /// The reverse graph (in-arcs as out-arcs), with the same weights. O(n + m).
    pub fn reverse(&self) -> Graph {
        let n = self.num_vertices();
        let mut edges = EdgeList::with_capacity(n as u32, self.num_arcs());
        edges.real = self.metric() == Metric::Real;
        for v in 0..n as u32 {
            for e in self.arc_range(v) {
                edges.push(self.targets[e], v, self.weights.get(e));
            }
        }
        edges.into_graph_as_given().expect("reversing a valid graph cannot fail")
    }
}

/// How to give weights to an input that has none (or to override given ones).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum WeightSpec {
    /// Keep the weights in the file; inputs without weights get [`WeightSpec::DEFAULT_RANDOM`].
    AsGiven,
    /// Every arc weighs 1.
    Unit,
    /// Uniform integers in `lo..=hi`, a pure function of `(seed, input edge index)`, so both arcs
    /// of an undirected edge get the same weight and the result does not depend on threads.
    Random {
        /// Smallest weight.
        lo: u32,
        /// Largest weight (`>= lo`).
        hi: u32,
        /// Seed of the weight stream: the same seed gives the same weights.
        seed: u64,
    },
    /// Uniform real (`f32`) weights in `[lo, hi)` (`lo` when they are equal), a pure function of
    /// `(seed, input edge index)` like [`WeightSpec::Random`]: the graph gets [`Weights::Real`].
    RandomReal {
        /// Smallest weight (finite, `>= 0`).
        lo: f32,
        /// Upper end (`>= lo`, finite).
        hi: f32,
        /// Seed of the weight stream.
        seed: u64,
    },
    /// [`WeightSpec::Random`]`{ lo, hi, seed }`, then shifted by a vertex potential: arc
    /// `u -> v` gets `w + p(u) - p(v)` with `p` uniform in `0..=potential` (a pure function of
    /// `(seed, vertex)`). Every cycle keeps its weight, so there is no negative cycle, yet
    /// many arcs are negative; shortest paths stay the same paths, and `d'(s, v) = d(s, v) +
    /// p(s) - p(v)` checks a negative-weight solver against Dijkstra (H-BF's setting).
    Shifted {
        /// Smallest base weight.
        lo: u32,
        /// Largest base weight.
        hi: u32,
        /// Largest potential.
        potential: u32,
        /// Seed of the weights and of the potential.
        seed: u64,
    },
}

impl WeightSpec {
    /// GAP's convention for unweighted inputs: uniform integers in [1, 255], fixed seed.
    pub const DEFAULT_RANDOM: WeightSpec = WeightSpec::Random { lo: 1, hi: 255, seed: 27491095 };

    /// Uniform reals in [0, 1), seed as [`WeightSpec::DEFAULT_RANDOM`]'s.
    pub const DEFAULT_REAL: WeightSpec = WeightSpec::RandomReal { lo: 0.0, hi: 1.0, seed: 27491095 };

    /// Parse `unit`, `given`, `random`, `random:LO-HI`, `random:LO-HI:SEED`, the real forms
    /// `real`, `real:LO-HI`, `real:LO-HI:SEED` (LO and HI plain decimals, e.g. `real:0.5-2`),
    /// or `shifted:LO-HI:P[:SEED]` ([`WeightSpec::Shifted`]).
    pub fn parse(s: &str) -> Result<Self> {
        let err = || {
            Error::InvalidArgument(format!(
                "weights `{s}`: expected unit, given, random, random:LO-HI, random:LO-HI:SEED, real, real:LO-HI, \
                 real:LO-HI:SEED or shifted:LO-HI:P[:SEED]"
            ))
        };
        // `LO-HI`; then an optional last `:SEED` (None: malformed, or more parts after it).
        fn range<T: std::str::FromStr>(r: &str) -> Option<(T, T)> {
            let (a, b) = r.split_once('-')?;
            Some((a.parse().ok()?, b.parse().ok()?))
        }
        fn last_seed<'a>(mut parts: impl Iterator<Item = &'a str>, default: u64) -> Option<u64> {
            let seed = match parts.next() {
                Some(sd) => sd.parse().ok()?,
                None => default,
            };
            parts.next().is_none().then_some(seed)
        }
        let check_order = |kind: &str, lo: u32, hi: u32| {
            if lo > hi {
                return Err(Error::InvalidArgument(format!(
                    "weights `{s}`: LO ({lo}) > HI ({hi}); the range is {kind}:LO-HI with LO <= HI"
                )));
            }
            Ok(())
        };
        let mut parts = s.split(':');
        match parts.next() {
            Some("unit") if parts.next().is_none() => Ok(WeightSpec::Unit),
            Some("given") if parts.next().is_none() => Ok(WeightSpec::AsGiven),
            Some("real") => {
                let WeightSpec::RandomReal { mut lo, mut hi, seed } = Self::DEFAULT_REAL else { unreachable!() };
                if let Some(r) = parts.next() {
                    (lo, hi) = range(r).ok_or_else(err)?;
                    if !(lo.is_finite() && hi.is_finite() && lo >= 0.0 && lo <= hi) {
                        return Err(Error::InvalidArgument(format!(
                            "weights `{s}`: real weights need finite 0 <= LO <= HI"
                        )));
                    }
                }
                let seed = last_seed(parts, seed).ok_or_else(err)?;
                Ok(WeightSpec::RandomReal { lo, hi, seed })
            }
            Some("shifted") => {
                let WeightSpec::Random { seed, .. } = Self::DEFAULT_RANDOM else { unreachable!() };
                let (lo, hi) = range(parts.next().ok_or_else(err)?).ok_or_else(err)?;
                check_order("shifted", lo, hi)?;
                let potential: u32 = parts.next().ok_or_else(err)?.parse().map_err(|_| err())?;
                let seed = last_seed(parts, seed).ok_or_else(err)?;
                if hi as u64 + potential as u64 > i32::MAX as u64 {
                    return Err(Error::InvalidArgument(format!(
                        "weights `{s}`: HI + P must stay below 2^31 (shifted weights are i32s)"
                    )));
                }
                Ok(WeightSpec::Shifted { lo, hi, potential, seed })
            }
            Some("random") => {
                let WeightSpec::Random { mut lo, mut hi, seed } = Self::DEFAULT_RANDOM else { unreachable!() };
                if let Some(r) = parts.next() {
                    (lo, hi) = range(r).ok_or_else(err)?;
                    check_order("random", lo, hi)?;
                }
                let seed = last_seed(parts, seed).ok_or_else(err)?;
                Ok(WeightSpec::Random { lo, hi, seed })
            }
            _ => Err(err()),
        }
    }

    /// The potential of vertex `v` under [`WeightSpec::Shifted`]: uniform in `0..=potential`.
    #[inline]
    pub fn potential(potential: u32, seed: u64, v: u32) -> i64 {
        rng::below(rng::hash2(seed ^ 0x5045_4e54_4941_4c53, v as u64), potential as u64 + 1) as i64
    }

    /// The base weights of a [`WeightSpec::Shifted`] (before the shift), else `self`.
    pub(crate) fn unshifted(self) -> WeightSpec {
        match self {
            WeightSpec::Shifted { lo, hi, seed, .. } => WeightSpec::Random { lo, hi, seed },
            s => s,
        }
    }

    /// Apply the shift of a [`WeightSpec::Shifted`] to `g` (its arcs as built, so both arcs of
    /// an undirected edge are shifted in their own direction); any other spec returns `g`.
    pub(crate) fn shift(self, g: Graph) -> Result<Graph> {
        let WeightSpec::Shifted { potential, seed, .. } = self else { return Ok(g) };
        let n = g.num_vertices() as u32;
        let mut e = EdgeList::with_capacity(n, g.num_arcs());
        for u in 0..n {
            let pu = Self::potential(potential, seed, u);
            for (v, w) in g.neighbors(u) {
                e.push(u, v, w + pu - Self::potential(potential, seed, v));
            }
        }
        e.into_graph_as_given()
    }

    /// Weight for input edge `index` under [`WeightSpec::Random`]`{ lo, hi, seed }`: a pure
    /// function of its arguments, so any thread can compute any edge's weight.
    #[inline]
    pub fn random_weight(lo: u32, hi: u32, seed: u64, index: u64) -> u32 {
        lo + rng::below(rng::hash2(seed, index), hi as u64 - lo as u64 + 1) as u32
    }

    /// The stored weight (`f32` bit pattern) of input edge `index` under
    /// [`WeightSpec::RandomReal`]`{ lo, hi, seed }`: `lo + u (hi - lo)` with `u` in `[0, 1)`
    /// from 24 random bits, clamped into `[lo, hi]` against rounding.
    #[inline]
    pub fn random_real_weight(lo: f32, hi: f32, seed: u64, index: u64) -> u32 {
        let u = (rng::hash2(seed, index) >> 40) as f32 * (1.0 / (1u32 << 24) as f32);
        (lo + u * (hi - lo)).clamp(lo, hi).to_bits()
    }
}

/// A list of arcs as read from a file or made by a generator, before CSR construction.
///
/// Weights are `i64` here so parsers can report out-of-range values precisely; `None` means the
/// input carried no weights.
#[derive(Clone, Debug, Default)]
pub struct EdgeList {
    /// Vertex count `n`; every id in `src` and `dst` must be below it (checked at CSR build).
    pub num_vertices: u32,
    /// Tail of each edge.
    pub src: Vec<u32>,
    /// Head of each edge, parallel to `src`.
    pub dst: Vec<u32>,
    /// Weight of each edge, parallel to `src`; `None` when the input had no weights (they are
    /// then chosen by the [`WeightSpec`] given to [`into_graph`](Self::into_graph)).
    pub weights: Option<Vec<i64>>,
    /// True when each listed edge stands for two arcs (undirected input, e.g. a symmetric MTX).
    pub undirected: bool,
    /// True when `weights` hold real weights as `f32` bit patterns ([`Weights::Real`]).
    pub real: bool,
}

impl EdgeList {
    /// An empty weighted, directed list on `num_vertices` vertices with room for `m` edges.
    pub fn with_capacity(num_vertices: u32, m: usize) -> Self {
        EdgeList {
            num_vertices,
            src: Vec::with_capacity(m),
            dst: Vec::with_capacity(m),
            weights: Some(Vec::with_capacity(m)),
            undirected: false,
            real: false,
        }
    }

    /// Append a weighted arc. Panics if the list was built without weights (programming error).
    pub fn push(&mut self, u: u32, v: u32, w: i64) {
        self.src.push(u);
        self.dst.push(v);
        self.weights.as_mut().expect("weighted edge list").push(w);
    }

    /// Number of listed edges (before any doubling).
    pub fn len(&self) -> usize {
        self.src.len()
    }

    /// True when no edge is listed.
    pub fn is_empty(&self) -> bool {
        self.src.is_empty()
    }

    /// Build the CSR graph. `symmetrize` adds the reverse of every arc (on top of an undirected
    /// input's own doubling, which always happens).
    pub fn into_graph(self, spec: WeightSpec, symmetrize: bool) -> Result<Graph> {
        if let WeightSpec::Shifted { .. } = spec {
            return spec.shift(self.into_graph(spec.unshifted(), symmetrize)?);
        }
        let m_in = self.len();
        let real = match spec {
            WeightSpec::AsGiven => self.real && self.weights.is_some(),
            _ => matches!(spec, WeightSpec::RandomReal { .. }),
        };
        let weights: Vec<i64> = match (spec, self.weights) {
            (WeightSpec::AsGiven, Some(w)) => w,
            (WeightSpec::Unit, _) => vec![1; m_in],
            (WeightSpec::AsGiven, None) => random_weights(WeightSpec::DEFAULT_RANDOM, m_in),
            (r, _) => random_weights(r, m_in),
        };
        let doubled = self.undirected || symmetrize;
        build_csr(self.num_vertices, &self.src, &self.dst, &weights, doubled, real)
    }

    /// Build with the weights exactly as stored (no defaults, no doubling).
    pub fn into_graph_as_given(self) -> Result<Graph> {
        let real = self.real && self.weights.is_some();
        let w = self.weights.unwrap_or_else(|| vec![1; self.src.len()]);
        build_csr(self.num_vertices, &self.src, &self.dst, &w, self.undirected, real)
    }
}

fn random_weights(spec: WeightSpec, m: usize) -> Vec<i64> {
    let m = 0..m as u64;
    match spec {
        WeightSpec::Random { lo, hi, seed } => {
            m.into_par_iter().map(|i| WeightSpec::random_weight(lo, hi, seed, i) as i64).collect()
        }
        WeightSpec::RandomReal { lo, hi, seed } => {
            m.into_par_iter().map(|i| WeightSpec::random_real_weight(lo, hi, seed, i) as i64).collect()
        }
        _ => unreachable!("only random specs draw weights"),
    }
}

/// Build a graph from an edge list with `i64` weights (with `real`, `f32` bit patterns),
/// checking ids and weight ranges.
fn build_csr(n: u32, src: &[u32], dst: &[u32], w: &[i64], doubled: bool, real: bool) -> Result<Graph> {
    let nn = n as u64;
    if let Some(&v) = src.par_iter().chain(dst.par_iter()).find_any(|&&v| v as u64 >= nn) {
        return Err(Error::VertexOutOfRange { vertex: v as u64, num_vertices: nn });
    }
    if real {
        // Parsers and generators store checked patterns; an edge list built by hand may not.
        let bad = |&x: &i64| u32::try_from(x).map_or(true, |b| real_weight(f32::from_bits(b)) != Ok(b));
        if let Some(i) = w.par_iter().position_any(bad) {
            return Err(Error::InvalidArgument(format!(
                "weight bits {:#x} of edge {} -> {} are not a finite real weight >= +0.0",
                w[i], src[i], dst[i]
            )));
        }
        let arcs = src.len() as u64 * if doubled { 2 } else { 1 };
        return if arcs <= ArcKey::index(u32::MAX) + 1 {
            assemble::<u32>(n, src, dst, w, doubled, Kind::Real)
        } else {
            assemble::<u64>(n, src, dst, w, doubled, Kind::Real)
        };
    }
    let signed = w.par_iter().any(|&x| x < 0);
    let (lo, hi) = if signed { (i32::MIN as i64, i32::MAX as i64) } else { (0, u32::MAX as i64) };
    // The first such edge, so that a file's error names its first bad line.
    if let Some(i) = w.par_iter().position_first(|&x| x < lo || x > hi) {
        let kind = if signed { "i32 (the graph has negative weights)" } else { "u32" };
        return Err(Error::WeightOutOfRange { edge: i as u64, from: src[i], to: dst[i], weight: w[i], kind });
    }
    let arcs = src.len() as u64 * if doubled { 2 } else { 1 };
    let kind = if signed { Kind::Signed } else { Kind::Unsigned };
    if arcs <= ArcKey::index(u32::MAX) + 1 {
        assemble::<u32>(n, src, dst, w, doubled, kind)
    } else {
        assemble::<u64>(n, src, dst, w, doubled, kind)
    }
}

/// Which [`Weights`] variant a build makes.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Unsigned,
    Signed,
    Real,
}

fn assemble<K: ArcKey>(n: u32, src: &[u32], dst: &[u32], w: &[i64], doubled: bool, kind: Kind) -> Result<Graph> {
    let m = src.len() as u64;
    let (offsets, keys) = csr_order::<K>(n, src, dst, doubled)?;
    let targets: Vec<u32> = keys.par_iter().map(|&k| arc_ends(k.index(), src, dst).1).collect();
    let weight = |k: K| w[arc_edge(k.index(), m)];
    let unsigned = || Buf::Owned(keys.par_iter().map(|&k| weight(k) as u32).collect());
    let weights = match kind {
        Kind::Signed => Weights::Signed(Buf::Owned(keys.par_iter().map(|&k| weight(k) as i32).collect())),
        Kind::Unsigned => Weights::Unsigned(unsigned()),
        Kind::Real => Weights::Real(unsigned()),
    };
    Ok(Graph::from_csr(Buf::Owned(offsets), Buf::Owned(targets), weights)?.with_both_ways(doubled))
}

/// Names an arc of an edge list of `m` edges: key `a < m` is edge `a` as given, key `m + a`
/// its reverse (doubled inputs). `u32` keys when the arcs fit (half the memory), else `u64`.
pub(crate) trait ArcKey: Copy + Ord + Send + Sync {
    fn from_index(a: u64) -> Self;
    fn index(self) -> u64;
}

impl ArcKey for u32 {
    fn from_index(a: u64) -> Self {
        a as u32
    }
    fn index(self) -> u64 {
        self as u64
    }
}

impl ArcKey for u64 {
    fn from_index(a: u64) -> Self {
        a
    }
    fn index(self) -> u64 {
        self
    }
}

/// The input edge of arc `a` of an edge list of `m` edges.
#[inline]
pub(crate) fn arc_edge(a: u64, m: u64) -> usize {
    (if a < m { a } else { a - m }) as usize
}

/// (tail, head) of arc `a`: edge `a` forwards, or edge `a - m` reversed.
#[inline]
pub(crate) fn arc_ends(a: u64, src: &[u32], dst: &[u32]) -> (u32, u32) {
    let m = src.len() as u64;
    if a < m {
        (src[a as usize], dst[a as usize])
    } else {
        (dst[(a - m) as usize], src[(a - m) as usize])
    }
}

/// The CSR order of an edge list's arcs (with `doubled`, every edge's reverse arc too, keyed
/// after all forward arcs): the offsets, and the key of the arc in each CSR slot, every vertex's
/// arcs in key order, i.e. input order. Ids must be `< n` (callers check).
///
/// Parallel and deterministic: arcs are scattered to their source's segment with atomic cursors
/// (in whatever order threads get there), then each segment is sorted by key, which restores
/// input order. Peak extra memory is one key per arc plus a counter per vertex. Used by
/// [`EdgeList::into_graph`]; the generators build with [`csr_blocked`] instead, which makes the
/// same order without atomics or sorting (its tests compare the two).
///
/// The per-vertex arrays are sized by `n`, which the input decides (a header, or the largest
/// id), so they are allocated fallibly: an impossible `n` is [`Error::OutOfHostMemory`], checked
/// against the machine before any work, never an abort.
pub(crate) fn csr_order<K: ArcKey>(n: u32, src: &[u32], dst: &[u32], doubled: bool) -> Result<(Vec<u64>, Vec<K>)> {
    use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
    let arcs = src.len() as u64 * if doubled { 2 } else { 1 };
    let tail = |a: u64| arc_ends(a, src, dst).0 as usize;
    // Peak: counts (reused as the offsets) and cursors per vertex, one key per arc, and the CSR
    // arrays the caller makes from them (targets and weights, 8 bytes per arc).
    let vertices = n as usize + 1;
    let per_arc = std::mem::size_of::<K>() as u64 + 8;
    mem::check_fits(mem::bytes_of::<u64>(vertices).saturating_mul(2).saturating_add(arcs.saturating_mul(per_arc)))?;
    let mut counts: Vec<AtomicU64> = Vec::new();
    mem::reserve(&mut counts, vertices)?;
    counts.par_extend((0..vertices).into_par_iter().map(|_| AtomicU64::new(0)));
    (0..arcs as usize).into_par_iter().with_min_len(1 << 12).for_each(|a| {
        counts[tail(a as u64) + 1].fetch_add(1, Relaxed);
    });
    let mut offsets: Vec<u64> = counts.into_iter().map(AtomicU64::into_inner).collect();
    for v in 0..n as usize {
        offsets[v + 1] += offsets[v];
    }
    let mut cursor: Vec<AtomicU64> = Vec::new();
    mem::reserve(&mut cursor, n as usize)?;
    cursor.par_extend(offsets[..n as usize].par_iter().map(|&o| AtomicU64::new(o)));
    let mut keys = mem::try_vec(arcs as usize, K::from_index(0))?;
    let slots = Slots(keys.as_mut_ptr());
    (0..arcs as usize).into_par_iter().with_min_len(1 << 12).for_each(|a| {
        let slot = cursor[tail(a as u64)].fetch_add(1, Relaxed);
        // SAFETY: the cursors hand every arc a distinct slot below `arcs`.
        unsafe { slots.write(slot as usize, K::from_index(a as u64)) };
    });
    sort_segments(&offsets, &mut keys, 0, n as usize);
    Ok((offsets, keys))
}

/// A buffer that threads write at distinct indices.
struct Slots<K>(*mut K);

// SAFETY: writers use distinct indices (see `csr_order`), and the buffer outlives the writes.
unsafe impl<K: Send> Sync for Slots<K> {}

impl<K> Slots<K> {
    /// # Safety
    /// `i` is in bounds and no other thread writes index `i`.
    unsafe fn write(&self, i: usize, k: K) {
        self.0.add(i).write(k)
    }
}

/// Below this many arcs, a vertex range is sorted by one task.
const SORT_GRAIN: u64 = 1 << 16;

/// Sort each vertex's keys in `lo..hi` (`keys` holds exactly those vertices' arcs), splitting the
/// vertex range in halves in parallel until a part has few arcs or is a single vertex (a hub
/// with many arcs is sorted in parallel itself).
fn sort_segments<K: ArcKey>(offsets: &[u64], keys: &mut [K], lo: usize, hi: usize) {
    if hi <= lo {
        return;
    }
    let base = offsets[lo];
    if hi - lo == 1 {
        if keys.len() as u64 > SORT_GRAIN {
            keys.par_sort_unstable();
        } else {
            keys.sort_unstable();
        }
    } else if (keys.len() as u64) <= SORT_GRAIN {
        for v in lo..hi {
            keys[(offsets[v] - base) as usize..(offsets[v + 1] - base) as usize].sort_unstable();
        }
    } else {
        let mid = lo + (hi - lo) / 2;
        let (left, right) = keys.split_at_mut((offsets[mid] - base) as usize);
        rayon::join(|| sort_segments(offsets, left, lo, mid), || sort_segments(offsets, right, mid, hi));
    }
}

/// For each `p < 64`, how many vertices have at least `2^p` out-arcs: one pass over the
/// offsets, the first time an engine opens on the graph ([`Graph::degree_tail`]), then an upper
/// bound on the hubs of any threshold in O(1) ([`DegreeTail::at_least`]), exact at powers of
/// two (the default [`sssp_kernels::HUB_DEGREE`] is one). Sizes the hub queue by the graph's hubs, not its vertices: a uniform graph of degree
/// 16 has a handful of vertices of degree 64 or more, and `4n` bytes for them was the last term
/// of its path above the memory budget.
#[derive(Clone, Copy, Debug)]
pub(crate) struct DegreeTail([u64; 64]);

impl DegreeTail {
    fn of(offsets: &[u64]) -> Self {
        let counts = offsets
            .par_windows(2)
            .fold(
                || [0u64; 64],
                |mut c, w| {
                    let d = w[1] - w[0];
                    if d > 0 {
                        c[63 - d.leading_zeros() as usize] += 1;
                    }
                    c
                },
            )
            .reduce(|| [0u64; 64], |a, b| std::array::from_fn(|i| a[i] + b[i]));
        // Counts per power-of-two band, summed from the top: vertices of degree >= 2^p.
        let mut tail = [0u64; 64];
        let mut run = 0;
        for p in (0..64).rev() {
            run += counts[p];
            tail[p] = run;
        }
        DegreeTail(tail)
    }

    /// At least as many as the vertices of degree `t` or more (`t >= 1`): those of degree
    /// `2^floor(log2 t)` or more.
    pub fn at_least(&self, t: u32) -> u64 {
        self.0[31 - t.max(1).leading_zeros() as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn triangle() -> EdgeList {
        let mut e = EdgeList::with_capacity(3, 3);
        e.push(0, 1, 5);
        e.push(1, 2, 7);
        e.push(0, 2, 20);
        e
    }

    #[test]
    fn edge_lists_doubled_are_built_both_ways() {
        // One way only: not marked (and not symmetric). Doubled by `undirected` or by
        // `symmetrize`: marked, and symmetric, with weights drawn per edge too.
        let g = triangle().into_graph(WeightSpec::AsGiven, false).unwrap();
        assert!(!g.built_both_ways() && !crate::diameter::is_symmetric(&g).unwrap());
        let mut e = triangle();
        e.undirected = true;
        for (e, symmetrize) in [(e, false), (triangle(), true)] {
            for w in [WeightSpec::AsGiven, WeightSpec::Random { lo: 1, hi: 99, seed: 4 }] {
                let g = e.clone().into_graph(w, symmetrize).unwrap();
                assert!(g.built_both_ways() && crate::diameter::is_symmetric(&g).unwrap(), "{w:?}");
            }
        }
        // A shifted weighting makes the two arcs of an edge differ: not marked.
        let mut e = triangle();
        e.undirected = true;
        let g = e.into_graph(WeightSpec::Shifted { lo: 1, hi: 9, potential: 5, seed: 3 }, false).unwrap();
        assert!(!g.built_both_ways());
    }

    #[test]
    fn csr_keeps_input_order_and_weights() {
        let g = triangle().into_graph(WeightSpec::AsGiven, false).unwrap();
        assert_eq!(g.offsets(), &[0, 2, 3, 3]);
        assert_eq!(g.targets(), &[1, 2, 2]);
        assert_eq!(g.neighbors(0).collect::<Vec<_>>(), vec![(1, 5), (2, 20)]);
        assert!(matches!(g.weights(), Weights::Unsigned(_)));
    }

    #[test]
    fn symmetrize_doubles_with_equal_weights() {
        let g = triangle().into_graph(WeightSpec::AsGiven, true).unwrap();
        assert_eq!(g.num_arcs(), 6);
        assert_eq!(g.neighbors(2).collect::<Vec<_>>(), vec![(1, 7), (0, 20)]);
    }

    #[test]
    fn negative_weights_make_a_signed_graph() {
        let mut e = triangle();
        e.weights.as_mut().unwrap()[1] = -3;
        let g = e.into_graph(WeightSpec::AsGiven, false).unwrap();
        assert!(matches!(g.weights(), Weights::Signed(_)));
        assert!(matches!(
            g.unsigned_weights("dijkstra"),
            Err(Error::NegativeWeight { from: 1, to: 2, weight: -3, .. })
        ));
    }

    #[test]
    fn out_of_range_vertex_and_weight_are_errors() {
        let mut e = triangle();
        e.dst[0] = 3;
        assert!(matches!(e.into_graph(WeightSpec::AsGiven, false), Err(Error::VertexOutOfRange { vertex: 3, .. })));
        let mut e = triangle();
        e.weights.as_mut().unwrap()[0] = 1 << 40;
        assert!(matches!(
            e.into_graph(WeightSpec::AsGiven, false),
            Err(Error::WeightOutOfRange { edge: 0, weight: 1099511627776, kind: "u32", .. })
        ));
        // The first bad edge is named (a file's error then names its first bad line).
        let mut e = triangle();
        let w = e.weights.as_mut().unwrap();
        (w[0], w[1], w[2]) = (-1, 1 << 33, 1 << 34);
        assert!(matches!(e.into_graph(WeightSpec::AsGiven, false), Err(Error::WeightOutOfRange { edge: 1, .. })));
    }

    /// `from_csr` names a target out of range wherever it is (the check goes by chunk maxima).
    #[test]
    fn from_csr_finds_a_target_out_of_range() {
        let (n, m) = (10u32, 100_000usize);
        for bad in [0, 16_383, 16_384, 99_999] {
            let mut targets: Vec<u32> = (0..m).map(|i| i as u32 % n).collect();
            targets[bad] = n + 7;
            let offsets = vec![0, m as u64].into_iter().chain(std::iter::repeat_n(m as u64, n as usize - 1)).collect();
            let weights = Weights::Unsigned(Buf::Owned(vec![1; m]));
            match Graph::from_csr(Buf::Owned(offsets), Buf::Owned(targets), weights) {
                Err(Error::VertexOutOfRange { vertex: 17, num_vertices: 10 }) => {}
                other => panic!("target {bad}: {:?}", other.map(|g| g.num_arcs())),
            }
        }
    }

    #[test]
    fn random_weights_are_reproducible_and_in_range() {
        let spec = WeightSpec::parse("random:3-9:42").unwrap();
        let a = triangle().into_graph(spec, true).unwrap();
        let b = triangle().into_graph(spec, true).unwrap();
        let (Weights::Unsigned(wa), Weights::Unsigned(wb)) = (a.weights(), b.weights()) else { panic!() };
        assert_eq!(&wa[..], &wb[..]);
        assert!(wa.iter().all(|&w| (3..=9).contains(&w)));
        match WeightSpec::parse("random:9-3") {
            Err(Error::InvalidArgument(m)) => assert!(m.contains("LO (9) > HI (3)"), "{m}"),
            other => panic!("{other:?}"),
        }
        assert!(WeightSpec::parse("bogus").is_err());
    }

    #[test]
    fn reverse_swaps_arcs() {
        let g = triangle().into_graph(WeightSpec::AsGiven, false).unwrap();
        let r = g.reverse();
        assert_eq!(r.neighbors(2).collect::<Vec<_>>(), vec![(0, 20), (1, 7)]);
        assert_eq!(r.degree(0), 0);
    }
}
