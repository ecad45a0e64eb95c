//! Typed graphs: [`Graph<W>`](Graph) with `W` one of `u32`, `i32` and `f32`, and the distance
//! type each weight type adds up to ([`Weight::Distance`]).
//!
//! The typed graph is a thin wrapper over the untyped CSR graph the engines run on
//! ([`crate::graph::Graph`], whose [`Weights`] decide per graph whether the weights are `u32`,
//! `i32` or `f32` bit patterns): the type parameter is the promise that the weights are of type
//! `W`, checked once when the graph is built, so that every distance read back comes out as
//! the number it is ([`crate::Paths::distance`]) and never as a bit pattern in an `i64`; the
//! distance type of each weight type is in [`Weight`]'s docs.

use std::fmt;
use std::marker::PhantomData;
use std::path::Path;

use crate::error::{Error, Result};
use crate::graph::{self, real_weight, Buf, EdgeList, Metric, Weights, MAX_VERTICES};
use crate::io::{self, LoadOptions};
use crate::Dist;

mod sealed {
    use super::*;

    /// What the library needs of a weight type; implemented for `u32`, `i32` and `f32` only.
    pub trait Sealed: Sized {
        /// `f32` weights.
        const REAL: bool;
        /// The weight as an [`EdgeList`] holds it (`f32`: its bit pattern), or why it cannot be a
        /// weight.
        fn to_stored(self) -> std::result::Result<i64, String>;
        /// A weight as [`crate::graph::Graph::neighbors`] gives it.
        fn from_stored(w: i64) -> Self;
        /// A finite stored distance ([`Dist`], not [`crate::UNREACHED`]) as the number it is.
        fn distance(d: Dist) -> <Self as super::Weight>::Distance
        where
            Self: super::Weight;
        /// A cutoff as [`crate::strategy::Options::cutoff`] takes it.
        fn cutoff(c: <Self as super::Weight>::Distance) -> Result<u64>
        where
            Self: super::Weight;
        /// `raw` as a graph of this weight type: the same graph when its weights are of this
        /// type, converted when they convert exactly, else an error saying which type they are.
        fn adapt(raw: graph::Graph) -> Result<graph::Graph>;
        /// A weight array as the untyped graph stores it, reusing the allocation (`u32` as is,
        /// `i32` as is or as `u32` when none is negative, `f32` as bit patterns), or the first
        /// weight that cannot be one: its arc, the weight and why.
        fn into_weights(w: Vec<Self>) -> std::result::Result<Weights, (usize, String, String)>;
    }
}

pub(crate) use sealed::Sealed;

/// A weight type of [`Graph`]: `u32`, `i32` or `f32` (the trait is sealed), and the type its
/// shortest distances are:
///
/// | `W` | weights | `W::Distance` | how distances are computed |
/// |---|---|---|---|
/// | `u32` | `0..=u32::MAX` | `u64` | exactly; the engines add in 32 bits, and a shortest distance past `u32::MAX - 1` there is [`Error::DistanceOverflow`] (never a wrong number); serial Dijkstra adds in 64 bits |
/// | `i32` | any `i32`; negative ones run on the algorithms that take them (`auto` picks one) | `i64` | exactly; the engines' range is `i32`'s, past it [`Error::DistanceOverflow`] |
/// | `f32` | finite and `>= 0` (NaN, infinities and negative numbers are [`Error::InvalidWeight`]) | `f32` | in `f32` arithmetic: every algorithm returns exactly the bits serial Dijkstra computes in `f32` (rounding is monotone, so every schedule reaches that fixpoint) |
///
/// ```
/// use sssp::Weight;
/// fn distance_type<W: Weight>() -> &'static str {
///     std::any::type_name::<W::Distance>()
/// }
/// assert_eq!(distance_type::<u32>(), "u64");
/// assert_eq!(distance_type::<i32>(), "i64");
/// assert_eq!(distance_type::<f32>(), "f32");
/// ```
pub trait Weight: Sealed + Copy + fmt::Debug + fmt::Display + PartialOrd + Send + Sync + 'static {
    /// What shortest distances of a graph with these weights are: `u64` for `u32` weights,
    /// `i64` for `i32` weights, `f32` for `f32` weights.
    type Distance: Copy + fmt::Debug + fmt::Display + PartialEq + PartialOrd + Send + Sync + 'static;
    /// The type's name, for messages: `"u32"`, `"i32"`, `"f32"`.
    const NAME: &'static str;
}

impl Weight for u32 {
    type Distance = u64;
    const NAME: &'static str = "u32";
}

impl Sealed for u32 {
    const REAL: bool = false;
    fn to_stored(self) -> std::result::Result<i64, String> {
        Ok(self as i64)
    }
    fn from_stored(w: i64) -> Self {
        w as u32
    }
    fn distance(d: Dist) -> u64 {
        d as u64
    }
    fn cutoff(c: u64) -> Result<u64> {
        Ok(c)
    }
    fn into_weights(w: Vec<u32>) -> std::result::Result<Weights, (usize, String, String)> {
        Ok(Weights::Unsigned(Buf::Owned(w)))
    }
    fn adapt(raw: graph::Graph) -> Result<graph::Graph> {
        match raw.weights() {
            Weights::Unsigned(_) => Ok(raw),
            Weights::Signed(_) => Err(wrong_type("u32", "negative integer", "i32")),
            Weights::Real(_) => Err(wrong_type("u32", "real", "f32")),
        }
    }
}

impl Weight for i32 {
    type Distance = i64;
    const NAME: &'static str = "i32";
}

impl Sealed for i32 {
    const REAL: bool = false;
    fn to_stored(self) -> std::result::Result<i64, String> {
        Ok(self as i64)
    }
    fn from_stored(w: i64) -> Self {
        w as i32
    }
    fn distance(d: Dist) -> i64 {
        d
    }
    fn cutoff(c: i64) -> Result<u64> {
        u64::try_from(c).map_err(|_| Error::InvalidArgument(format!("cutoff {c}: must be >= 0")))
    }
    fn into_weights(w: Vec<i32>) -> std::result::Result<Weights, (usize, String, String)> {
        use rayon::prelude::*;
        if w.par_iter().any(|&x| x < 0) {
            Ok(Weights::Signed(Buf::Owned(w)))
        } else {
            // Same size and alignment: the collect reuses the allocation.
            Ok(Weights::Unsigned(Buf::Owned(w.into_iter().map(|x| x as u32).collect())))
        }
    }
    fn adapt(raw: graph::Graph) -> Result<graph::Graph> {
        match raw.weights() {
            Weights::Signed(_) => Ok(raw),
            // Non-negative i32 weights are kept as `u32` (what the engines' non-negative
            // strategies take): the same graph, if every weight fits an i32.
            Weights::Unsigned(_) => match raw.weight_range() {
                Some((_, hi)) if hi > i32::MAX as i64 => Err(Error::InvalidArgument(format!(
                    "the graph has a weight {hi} that does not fit in i32: use Graph<u32>"
                ))),
                _ => Ok(raw),
            },
            Weights::Real(_) => Err(wrong_type("i32", "real", "f32")),
        }
    }
}

impl Weight for f32 {
    type Distance = f32;
    const NAME: &'static str = "f32";
}

impl Sealed for f32 {
    const REAL: bool = true;
    fn to_stored(self) -> std::result::Result<i64, String> {
        real_weight(self).map(|bits| bits as i64)
    }
    fn from_stored(w: i64) -> Self {
        f32::from_bits(w as u32)
    }
    fn distance(d: Dist) -> f32 {
        f32::from_bits(d as u32)
    }
    fn cutoff(c: f32) -> Result<u64> {
        use crate::graph::RealDistances;
        Metric::Real.encode(c as f64, "cutoff").map(|bits| bits as u64)
    }
    fn into_weights(w: Vec<f32>) -> std::result::Result<Weights, (usize, String, String)> {
        use rayon::prelude::*;
        if let Some(e) = w.par_iter().position_first(|&x| real_weight(x).is_err()) {
            let why = real_weight(w[e]).err().unwrap_or_default();
            return Err((e, w[e].to_string(), why));
        }
        // `real_weight`'s bits (-0.0 as +0.0), in place: same size and alignment.
        Ok(Weights::Real(Buf::Owned(w.into_iter().map(|x| (x + 0.0).to_bits()).collect())))
    }
    fn adapt(raw: graph::Graph) -> Result<graph::Graph> {
        /// Integers up to 2^24 are exact in `f32`.
        const EXACT: i64 = 1 << 24;
        match raw.weights() {
            Weights::Real(_) => Ok(raw),
            Weights::Signed(_) => Err(wrong_type("f32", "negative integer", "i32")),
            Weights::Unsigned(w) => {
                if let Some(e) = w.iter().position(|&x| x as i64 > EXACT) {
                    return Err(Error::InvalidArgument(format!(
                        "integer weight {} of arc {e} is not exact in f32 (above 2^24): use Graph<u32>",
                        w[e]
                    )));
                }
                let bits = Buf::Owned(w.iter().map(|&x| (x as f32).to_bits()).collect());
                let both_ways = raw.built_both_ways();
                let offsets = Buf::Owned(raw.offsets().to_vec());
                let targets = Buf::Owned(raw.targets().to_vec());
                Ok(graph::Graph::from_csr(offsets, targets, Weights::Real(bits))?.with_both_ways(both_ways))
            }
        }
    }
}

fn wrong_type(asked: &str, has: &str, use_instead: &str) -> Error {
    Error::InvalidArgument(format!("the graph has {has} weights, not {asked}: use Graph<{use_instead}>"))
}

/// A directed graph with weights of type `W` (`u32`, `i32` or `f32`), in compressed sparse row
/// form with `u32` vertex ids `0..n`. Self-loops and parallel edges are kept as given.
///
/// Build it from `(tail, head, weight)` triples ([`Graph::from_edges`],
/// [`Graph::from_undirected_edges`]), from CSR arrays ([`Graph::from_csr`]), from a file
/// ([`Graph::read`]) or, with the `petgraph` feature, from a petgraph graph
/// (`Graph::from_petgraph`); then solve on it with a [`crate::Solver`]. The untyped graph the
/// engines and the lower layers take is [`Graph::raw`].
///
/// ```
/// use sssp::Graph;
/// let g = Graph::from_edges(3, [(0, 1, 2.5f32), (1, 2, 1.0)])?;
/// assert_eq!((g.num_vertices(), g.num_edges()), (3, 2));
/// assert_eq!(g.neighbors(1).collect::<Vec<_>>(), vec![(2, 1.0)]);
/// # Ok::<(), sssp::Error>(())
/// ```
#[derive(Clone)]
pub struct Graph<W: Weight> {
    raw: graph::Graph,
    _weight: PhantomData<fn() -> W>,
}

impl<W: Weight> fmt::Debug for Graph<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Graph")
            .field("weight", &W::NAME)
            .field("vertices", &self.num_vertices())
            .field("edges", &self.num_edges())
            .field("undirected", &self.is_undirected())
            .finish()
    }
}

impl<W: Weight> Graph<W> {
    /// A directed graph on `n` vertices (ids `0..n`) with an arc `tail -> head` of weight `w`
    /// for every `(tail, head, w)` of `edges`, in the order given. O(n + m).
    ///
    /// Errors: [`Error::VertexOutOfRange`] for an id `>= n`, [`Error::InvalidWeight`] for an
    /// `f32` weight that is NaN, infinite or negative, [`Error::TooLarge`] for `n` beyond
    /// `u32::MAX - 1`.
    ///
    /// ```
    /// use sssp::{Error, Graph};
    /// let g = Graph::from_edges(3, [(0, 1, 7u32), (1, 2, 5)])?;
    /// assert_eq!(g.neighbors(0).collect::<Vec<_>>(), vec![(1, 7)]);
    /// // Bad input is a typed error, never a panic.
    /// assert!(matches!(Graph::from_edges(2, [(0, 2, 1u32)]), Err(Error::VertexOutOfRange { vertex: 2, .. })));
    /// assert!(matches!(Graph::from_edges(2, [(0, 1, f32::NAN)]), Err(Error::InvalidWeight { edge: 0, .. })));
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn from_edges<I>(n: usize, edges: I) -> Result<Self>
    where
        I: IntoIterator<Item = (u32, u32, W)>,
    {
        Self::build(n, edges, false)
    }

    /// An undirected graph: every `(a, b, w)` of `edges` is an edge both ways, stored as the two
    /// arcs `a -> b` and `b -> a` of weight `w`. Errors as [`Graph::from_edges`]. O(n + m).
    ///
    /// ```
    /// use sssp::Graph;
    /// let g = Graph::from_undirected_edges(3, [(0, 1, 4i32), (1, 2, 1)])?;
    /// assert_eq!(g.num_edges(), 4); // each edge is two arcs
    /// assert_eq!(g.neighbors(1).collect::<Vec<_>>(), vec![(2, 1), (0, 4)]);
    /// assert!(g.is_undirected());
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn from_undirected_edges<I>(n: usize, edges: I) -> Result<Self>
    where
        I: IntoIterator<Item = (u32, u32, W)>,
    {
        Self::build(n, edges, true)
    }

    fn build<I>(n: usize, edges: I, undirected: bool) -> Result<Self>
    where
        I: IntoIterator<Item = (u32, u32, W)>,
    {
        let n = vertex_count(n)?;
        let edges = edges.into_iter();
        let mut list = EdgeList::with_capacity(n, edges.size_hint().0);
        for (i, (tail, head, w)) in edges.enumerate() {
            let stored = w.to_stored().map_err(|why| Error::InvalidWeight {
                edge: i as u64,
                from: tail,
                to: head,
                weight: w.to_string(),
                why,
            })?;
            list.push(tail, head, stored);
        }
        list.undirected = undirected;
        list.real = W::REAL;
        Ok(Graph { raw: list.into_graph_as_given()?, _weight: PhantomData })
    }

    /// A graph from CSR arrays: `offsets` (`n + 1` entries, starting at 0, never decreasing,
    /// ending at the number of arcs `m`), the head of each arc (`targets`, `m` entries, grouped by
    /// tail) and its weight (`weights`, parallel to `targets`). The arrays are kept, none copied
    /// (`f32` weights become their bit patterns and non-negative `i32` ones `u32`, in place).
    ///
    /// Errors: [`Error::InvalidArgument`] for inconsistent arrays, [`Error::VertexOutOfRange`] for
    /// a head `>= n`, [`Error::InvalidWeight`] for a bad `f32` weight.
    ///
    /// ```
    /// use sssp::Graph;
    /// // 0 -> 1 (3), 0 -> 2 (1), 2 -> 1 (1)
    /// let g = Graph::from_csr(vec![0, 2, 2, 3], vec![1, 2, 1], vec![3u32, 1, 1])?;
    /// assert_eq!(g.neighbors(2).collect::<Vec<_>>(), vec![(1, 1)]);
    /// assert!(Graph::from_csr(vec![0, 2], vec![0], vec![1u32]).is_err()); // 2 arcs promised, 1 given
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn from_csr(offsets: Vec<u64>, targets: Vec<u32>, weights: Vec<W>) -> Result<Self> {
        if weights.len() != targets.len() {
            return Err(Error::InvalidArgument(format!(
                "inconsistent CSR: {} weights for {} arcs (one weight per arc)",
                weights.len(),
                targets.len()
            )));
        }
        let weights = W::into_weights(weights).map_err(|(e, weight, why)| {
            // Name the arc by its ends, as the edge-list constructors do.
            let from = offsets.partition_point(|&o| o <= e as u64).saturating_sub(1) as u32;
            Error::InvalidWeight { edge: e as u64, from, to: targets[e], weight, why }
        })?;
        let raw = graph::Graph::from_csr(Buf::Owned(offsets), Buf::Owned(targets), weights)?;
        Ok(Graph { raw, _weight: PhantomData })
    }

    /// Read a graph file in any of the library's formats (DIMACS `.gr`, Matrix Market `.mtx`,
    /// edge lists `.el`/`.wel`/`.txt`, METIS, the binary `.bin`; optionally `.gz` or `.xz`),
    /// told from its name: [`io::read_graph`] with the default [`LoadOptions`]. Inputs without
    /// weights get uniform integers in `[1, 255]`; undirected formats (symmetric Matrix Market,
    /// METIS) give two arcs per edge.
    ///
    /// The file's weights must be of type `W`: integer weights read as `u32` (or as `i32` when
    /// they fit), negative ones as `i32`, real ones as `f32`; integer weights up to 2^24 also
    /// read as `f32`. Otherwise [`Error::InvalidArgument`] names the type to use. Errors of the
    /// file itself as [`io::read_graph`].
    ///
    /// ```
    /// use sssp::Graph;
    /// let path = std::env::temp_dir().join(format!("sssp-doc-typed-read-{}.gr", std::process::id()));
    /// std::fs::write(&path, "p sp 3 2\na 1 2 5\na 2 3 7\n")?; // DIMACS: ids from 1 in the file
    /// let g: Graph<u32> = Graph::read(&path)?;
    /// assert_eq!(g.neighbors(1).collect::<Vec<_>>(), vec![(2, 7)]);
    /// let as_real: Graph<f32> = Graph::read(&path)?; // exact: the weights are small integers
    /// assert_eq!(as_real.neighbors(1).collect::<Vec<_>>(), vec![(2, 7.0)]);
    /// std::fs::remove_file(&path)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn read(path: impl AsRef<Path>) -> Result<Self> {
        Self::read_with(path, &LoadOptions::default())
    }

    /// [`Graph::read`] with options: the format, the weights to give an input without them,
    /// `symmetrize` (add the reverse of every arc), ... ([`LoadOptions`]).
    ///
    /// ```
    /// use sssp::io::LoadOptions;
    /// use sssp::{Graph, WeightSpec};
    /// let path = std::env::temp_dir().join(format!("sssp-doc-typed-read-with-{}.el", std::process::id()));
    /// std::fs::write(&path, "0 1\n1 2\n")?; // an edge list without weights
    /// let opts = LoadOptions { weights: WeightSpec::Unit, symmetrize: true, ..LoadOptions::default() };
    /// let g: Graph<u32> = Graph::read_with(&path, &opts)?;
    /// assert_eq!(g.neighbors(1).collect::<Vec<_>>(), vec![(2, 1), (0, 1)]);
    /// std::fs::remove_file(&path)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn read_with(path: impl AsRef<Path>, opts: &LoadOptions) -> Result<Self> {
        Self::from_raw(io::read_graph(path.as_ref(), opts)?)
    }

    /// The untyped graph `raw` as a `Graph<W>`: kept as it is when its weights are of type `W`,
    /// converted when they convert exactly (integers up to 2^24 to `f32`), else
    /// [`Error::InvalidArgument`] naming the type to use. O(1) without a conversion.
    ///
    /// ```
    /// use sssp::Graph;
    /// let raw = sssp::graph::Graph::from_arcs(2, &[(0, 1, -3)])?;
    /// assert!(Graph::<u32>::from_raw(raw.clone()).is_err()); // a negative weight
    /// let g = Graph::<i32>::from_raw(raw)?;
    /// assert_eq!(g.neighbors(0).next(), Some((1, -3)));
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn from_raw(raw: graph::Graph) -> Result<Self> {
        Ok(Graph { raw: W::adapt(raw)?, _weight: PhantomData })
    }

    /// The untyped graph the engines, strategies and lower layers ([`crate::strategy`],
    /// [`crate::verify`], [`crate::io`]) take.
    ///
    /// ```
    /// let g = sssp::Graph::from_edges(2, [(0, 1, 1.5f32)])?;
    /// assert_eq!(g.raw().metric(), sssp::Metric::Real);
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn raw(&self) -> &graph::Graph {
        &self.raw
    }

    /// The untyped graph, giving up the typed view.
    ///
    /// ```
    /// let raw = sssp::Graph::from_edges(2, [(0, 1, 1u32)])?.into_raw();
    /// assert_eq!(raw.num_arcs(), 1);
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn into_raw(self) -> graph::Graph {
        self.raw
    }

    /// Number of vertices `n`; ids are `0..n`.
    ///
    /// ```
    /// assert_eq!(sssp::Graph::from_edges(5, [(0, 1, 1u32)])?.num_vertices(), 5);
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn num_vertices(&self) -> usize {
        self.raw.num_vertices()
    }

    /// Number of arcs `m` (an undirected edge counts twice).
    ///
    /// ```
    /// assert_eq!(sssp::Graph::from_undirected_edges(2, [(0, 1, 1u32)])?.num_edges(), 2);
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn num_edges(&self) -> usize {
        self.raw.num_arcs()
    }

    /// The out-arcs of `v` as `(head, weight)`, in input order; none for `v >= n`.
    ///
    /// ```
    /// let g = sssp::Graph::from_edges(3, [(0, 2, -1i32), (0, 1, 4)])?;
    /// assert_eq!(g.neighbors(0).collect::<Vec<_>>(), vec![(2, -1), (1, 4)]);
    /// assert_eq!(g.neighbors(7).count(), 0);
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn neighbors(&self, v: u32) -> impl Iterator<Item = (u32, W)> + '_ {
        let arcs = if (v as usize) < self.num_vertices() { self.raw.arc_range(v) } else { 0..0 };
        arcs.map(move |e| (self.raw.targets()[e], W::from_stored(self.raw.weights().get(e))))
    }

    /// Whether the graph was built undirected (every edge as two arcs of the same weight:
    /// [`Graph::from_undirected_edges`], an undirected file format or petgraph graph).
    ///
    /// ```
    /// assert!(!sssp::Graph::from_edges(2, [(0, 1, 1u32), (1, 0, 1)])?.is_undirected()); // not known
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn is_undirected(&self) -> bool {
        self.raw.built_both_ways()
    }

    /// Whether some weight is negative (only possible for `W = i32`): such graphs run on the
    /// algorithms that take negative weights ([`crate::Solver`] picks one).
    ///
    /// ```
    /// assert!(sssp::Graph::from_edges(2, [(0, 1, -1i32)])?.has_negative_weights());
    /// assert!(!sssp::Graph::from_edges(2, [(0, 1, 1i32)])?.has_negative_weights());
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn has_negative_weights(&self) -> bool {
        self.raw.metric() == Metric::Signed
    }
}

/// `n` as a vertex count, or [`Error::TooLarge`].
fn vertex_count(n: usize) -> Result<u32> {
    if n as u64 > MAX_VERTICES {
        return Err(Error::TooLarge { what: format!("{n} vertices (at most {MAX_VERTICES})") });
    }
    Ok(n as u32)
}

#[cfg(feature = "petgraph")]
mod from_petgraph {
    use super::*;
    use petgraph::visit::{EdgeRef, GraphProp, IntoEdgeReferences, NodeIndexable};

    impl<W: Weight> Graph<W> {
        /// A graph from a petgraph graph (`Graph`, `StableGraph`, `GraphMap`, `Csr`, ...; its
        /// edge weights of type `W`), with petgraph's node indices
        /// ([`NodeIndexable::to_index`]) as vertex ids: `n` is its `node_bound()`, so the ids of
        /// removed nodes of a `StableGraph` stay unused vertices. An undirected petgraph graph
        /// gives two arcs per edge. Needs the `petgraph` feature. Errors as
        /// [`Graph::from_edges`].
        ///
        /// ```
        /// let mut pg = petgraph::Graph::<(), f32>::new();
        /// let (a, b, c) = (pg.add_node(()), pg.add_node(()), pg.add_node(()));
        /// pg.extend_with_edges([(a, b, 1.5), (b, c, 2.0)]);
        /// let g = sssp::Graph::from_petgraph(&pg)?;
        /// let paths = sssp::Solver::new(&g, sssp::Device::Cpu)?.shortest_paths(a.index() as u32)?;
        /// assert_eq!(paths.distance(c.index() as u32), Some(3.5));
        /// # Ok::<(), sssp::Error>(())
        /// ```
        pub fn from_petgraph<G>(g: G) -> Result<Self>
        where
            G: IntoEdgeReferences<EdgeWeight = W> + NodeIndexable + GraphProp,
        {
            let n = g.node_bound();
            let id = |x| u32::try_from(g.to_index(x)).unwrap_or(u32::MAX);
            let edges = g.edge_references().map(|e| (id(e.source()), id(e.target()), *e.weight()));
            Self::build(n, edges, !g.is_directed())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_choose_the_raw_representation() {
        let g = Graph::from_edges(2, [(0, 1, 3i32)]).unwrap();
        assert!(matches!(g.raw().weights(), Weights::Unsigned(_)));
        let g = Graph::from_edges(2, [(0, 1, -3i32)]).unwrap();
        assert!(matches!(g.raw().weights(), Weights::Signed(_)));
        let g = Graph::from_edges(2, [(0, 1, 3.0f32)]).unwrap();
        assert!(matches!(g.raw().weights(), Weights::Real(_)));
        let g = Graph::<f32>::from_edges(2, []).unwrap();
        assert!(matches!(g.raw().weights(), Weights::Real(_)));
    }

    #[test]
    fn bad_input_is_a_typed_error() {
        for w in [f32::NAN, f32::INFINITY, -1.0] {
            match Graph::from_edges(3, [(0, 1, 1.0), (1, 2, w)]) {
                Err(Error::InvalidWeight { edge: 1, from: 1, to: 2, .. }) => {}
                other => panic!("{w}: {other:?}"),
            }
            match Graph::from_csr(vec![0, 1, 2, 2], vec![1, 2], vec![1.0, w]) {
                Err(Error::InvalidWeight { edge: 1, from: 1, to: 2, .. }) => {}
                other => panic!("{w}: {other:?}"),
            }
        }
        assert!(matches!(Graph::from_edges(2, [(5, 1, 1u32)]), Err(Error::VertexOutOfRange { vertex: 5, .. })));
        assert!(matches!(Graph::from_csr(vec![0, 1], vec![3], vec![1u32]), Err(Error::VertexOutOfRange { .. })));
        assert!(matches!(Graph::from_csr(vec![0, 1], vec![0], vec![1u32, 2]), Err(Error::InvalidArgument(_))));
        assert!(matches!(Graph::from_csr(vec![], vec![], Vec::<u32>::new()), Err(Error::InvalidArgument(_))));
        assert!(matches!(Graph::from_csr(vec![0, 2, 1], vec![0], vec![1u32]), Err(Error::InvalidArgument(_))));
        // -0.0 is a weight (stored as +0.0).
        let g = Graph::from_edges(2, [(0, 1, -0.0f32)]).unwrap();
        assert_eq!(g.neighbors(0).next().map(|(_, w)| w.to_bits()), Some(0));
    }

    #[test]
    fn from_raw_converts_only_exactly() {
        let big = graph::Graph::from_arcs(2, &[(0, 1, 1 << 31)]).unwrap();
        assert!(Graph::<u32>::from_raw(big.clone()).is_ok());
        assert!(Graph::<i32>::from_raw(big.clone()).is_err());
        assert!(Graph::<f32>::from_raw(big).is_err());
        let small = graph::Graph::from_arcs(2, &[(0, 1, 1 << 24)]).unwrap();
        let f = Graph::<f32>::from_raw(small).unwrap();
        assert_eq!(f.neighbors(0).next(), Some((1, 16_777_216.0)));
        let real = Graph::from_edges(2, [(0, 1, 0.5f32)]).unwrap().into_raw();
        assert!(Graph::<u32>::from_raw(real.clone()).is_err());
        assert!(Graph::<i32>::from_raw(real).is_err());
    }
}
