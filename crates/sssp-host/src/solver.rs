//! The solver: a typed graph's device state, prepared once, and any number of queries on it.
//!
//! [`Solver::new`] decides the device ([`Device::Auto`]: the GPU when one is usable, else the
//! CPU backend, with the reason kept in [`Solver::fallback`]) and, on a GPU, uploads the graph
//! there at once. On the CPU the engine (the graph's copy in the CPU backend's layout) is
//! opened on the first query whose algorithm runs on one: `auto` runs serial Dijkstra on
//! even-degree graphs and serial Bellman-Ford on negative weights there, which need none. What
//! a graph's solves prepare is kept with that engine and done once: the edge classes, PHAST's
//! contraction hierarchy ([`Solver::prepare_hierarchy`]); the bucket width is derived from the
//! graph's weight total, computed once per graph.
//!
//! Queries ([`Query`], or the shortcuts on [`Solver`]) run on the solver's
//! [`crate::session::Session`], the untyped core that decides the device and keeps the engines,
//! over the engine-level layer [`crate::strategy`] (`solve`, `solve_each`, `solve_nearest`).
//! The `sssp` command runs on a `Session` too.
//!
//! [`Solver::on_ranks`] runs the solver's queries on several ranks instead
//! ([`crate::distributed`]: one GPU each through NCCL, or simulated ranks), the ranks set up
//! once with the solver.

#[cfg(doc)]
use crate::error::Error;
use crate::error::Result;
use crate::graph::Metric;
use crate::paths::Paths;
use crate::session::Session;
use crate::strategy::{Algo, Options, Solution, Strategy};
use crate::typed::{Graph, Weight};
use crate::{Dist, UNREACHED};

/// Which device a [`Solver`] runs on: `Auto` (the GPU when one is usable, else the CPU
/// backend), `Gpu` (an error if none is usable) or `Cpu`.
///
/// ```
/// use sssp::{Device, Graph, Solver};
/// let g = Graph::from_edges(2, [(0, 1, 1u32)])?;
/// let solver = Solver::new(&g, Device::Auto)?; // never fails for want of a GPU
/// assert!(solver.is_gpu() || solver.fallback().is_some());
/// # Ok::<(), sssp::Error>(())
/// ```
pub use crate::engine::DeviceKind as Device;

/// Shortest paths on one [`Graph`], with the device state kept between queries: the graph is
/// uploaded once, and what the solves prepare (edge classes, a contraction hierarchy) is made
/// once.
///
/// The algorithm is `auto` unless set ([`Solver::with_algo`], or with its parameters
/// [`Solver::with_strategy`]): it picks the strategy and its
/// parameters from the device and the graph ([`crate::strategy::auto`]); negative weights run on
/// Workfront on a GPU and on serial Bellman-Ford on the CPU.
///
/// ```
/// use sssp::{Device, Graph, Solver};
/// let g = Graph::from_edges(4, [(0, 1, 2.5f32), (1, 2, 1.0), (0, 2, 4.0), (2, 3, 0.5)])?;
/// let mut solver = Solver::new(&g, Device::Cpu)?;
/// assert_eq!(solver.shortest_paths(0)?.distance(3), Some(4.0));
/// assert_eq!(solver.path(0, 3)?, Some((4.0, vec![0, 1, 2, 3])));
/// assert_eq!(solver.distances_to(1, &[0, 3])?, vec![None, Some(1.5)]);
/// # Ok::<(), sssp::Error>(())
/// ```
pub struct Solver<'g, W: Weight> {
    graph: &'g Graph<W>,
    /// The device and its engines (the one-lane engine opened in `new` on a GPU, on first need
    /// on the CPU; a batched one for [`Query::batch`]): the core the CLI runs on too.
    session: Session<'g>,
    strategy: Strategy,
    /// Ranks of a distributed solver ([`Solver::on_ranks`]), set up once.
    ranks: Option<crate::distributed::Group>,
}

impl<W: Weight> std::fmt::Debug for Solver<'_, W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Solver")
            .field("graph", self.graph)
            .field("device", &self.device_name())
            .field("strategy", &self.strategy)
            .field("ranks", &self.ranks.as_ref().map(|g| g.ranks()))
            .finish()
    }
}

impl<'g, W: Weight> Solver<'g, W> {
    /// A solver for `graph` on `device`. On a GPU (`Gpu`, or `Auto` with a usable GPU) the
    /// graph is uploaded now; on the CPU the engine is opened by the first query that needs one.
    ///
    /// Errors: [`Error::NoGpu`] for `Gpu` without a usable GPU, [`Error::OutOfDeviceMemory`]
    /// when the graph does not fit on it, [`Error::Cuda`].
    ///
    /// ```
    /// use sssp::{Device, Graph, Solver};
    /// let g = Graph::from_edges(3, [(0, 1, 7u32), (1, 2, 5)])?;
    /// assert_eq!(Solver::new(&g, Device::Cpu)?.shortest_paths(0)?.distance(2), Some(12));
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn new(graph: &'g Graph<W>, device: Device) -> Result<Self> {
        let mut session = Session::new(graph.raw(), device)?;
        if session.is_gpu() {
            session.engine()?; // the upload, now
            session.take_opened();
        }
        Ok(Solver { graph, session, strategy: Strategy::Auto, ranks: None })
    }

    /// A solver whose queries run on `ranks` (distributed delta-stepping,
    /// [`crate::distributed`]): the graph split into `P` vertex ranges, each rank relaxing its
    /// own on its GPU (NCCL ranks, feature `nccl`) or its thread (simulated ranks), the ranks
    /// set up here, once; nothing is uploaded to a single device. Queries take one source at a
    /// time: [`Solver::shortest_paths`] and its many-source loop, [`Solver::distances_to`] and
    /// [`Solver::path`] (solved whole; the path from the distances on the host);
    /// [`Solver::nearest`] is an [`Error::InvalidArgument`], and so is an algorithm other than
    /// `auto` or `delta-stepping` (whose delta it takes). Non-negative weights only
    /// ([`Error::NegativeWeight`] at the query).
    ///
    /// Errors: [`Error::InvalidArgument`] for a count of ranks outside `1..=`
    /// [`crate::distributed::MAX_RANKS`] or NCCL ranks without the `nccl` feature;
    /// [`Error::NoGpu`] when this host cannot start that many NCCL ranks.
    ///
    /// ```
    /// use sssp::distributed::Ranks;
    /// use sssp::{Graph, Solver};
    /// let g = Graph::from_undirected_edges(5, [(0, 1, 4u32), (1, 2, 1), (2, 3, 2), (3, 4, 1), (0, 4, 9)])?;
    /// let mut solver = Solver::on_ranks(&g, Ranks::Simulated(2))?; // or Ranks::Nccl(2): two GPUs
    /// assert_eq!(solver.shortest_paths(0)?.distance(4), Some(8));
    /// assert_eq!(solver.path(4, 1)?, Some((4, vec![4, 3, 2, 1])));
    /// assert_eq!(solver.device_name(), "2 simulated ranks (CPU threads)");
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn on_ranks(graph: &'g Graph<W>, ranks: crate::distributed::Ranks) -> Result<Self> {
        // The session is never used for a query; on the CPU it opens nothing until one is.
        let session = Session::new(graph.raw(), Device::Cpu)?;
        let group = crate::distributed::Group::new(ranks)?;
        Ok(Solver { graph, session, strategy: Strategy::Auto, ranks: Some(group) })
    }

    /// Run every query with `algo` instead of `auto` (the default). An algorithm that cannot
    /// take the graph (e.g. `dijkstra` with negative weights) fails at the query with
    /// [`Error::NegativeWeight`].
    ///
    /// ```
    /// use sssp::{strategy::Algo, Device, Graph, Solver};
    /// let g = Graph::from_edges(3, [(0, 1, 7u32), (1, 2, 5)])?;
    /// let mut solver = Solver::new(&g, Device::Cpu)?.with_algo(Algo::NearFar);
    /// let paths = solver.shortest_paths(0)?;
    /// assert_eq!((paths.distance(2), paths.algorithm()), (Some(12), Algo::NearFar));
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn with_algo(self, algo: Algo) -> Self {
        self.with_strategy(algo)
    }

    /// Run every query with `strategy`: an algorithm with its own parameters type
    /// ([`Strategy`]; an [`Algo`] converts to its defaults), so a parameter the algorithm would
    /// ignore cannot be given.
    ///
    /// ```
    /// use sssp::strategy::{bucketing::Bucketing, Strategy};
    /// use sssp::{Device, Graph, Solver};
    /// let g = Graph::from_edges(3, [(0, 1, 7u32), (1, 2, 5)])?;
    /// let buckets = Strategy::Bucketing(Bucketing { delta: Some(4u32.into()), buckets: 2, ..Bucketing::default() });
    /// let mut solver = Solver::new(&g, Device::Cpu)?.with_strategy(buckets);
    /// assert_eq!(solver.shortest_paths(0)?.distance(2), Some(12));
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn with_strategy(mut self, strategy: impl Into<Strategy>) -> Self {
        self.strategy = strategy.into();
        self
    }

    /// The graph.
    ///
    /// ```
    /// let g = sssp::Graph::from_edges(2, [(0, 1, 1u32)])?;
    /// assert_eq!(sssp::Solver::new(&g, sssp::Device::Cpu)?.graph().num_vertices(), 2);
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn graph(&self) -> &'g Graph<W> {
        self.graph
    }

    /// Whether the solver runs on a GPU.
    ///
    /// ```
    /// let g = sssp::Graph::from_edges(2, [(0, 1, 1u32)])?;
    /// assert!(!sssp::Solver::new(&g, sssp::Device::Cpu)?.is_gpu());
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn is_gpu(&self) -> bool {
        match &self.ranks {
            Some(group) => !matches!(group.ranks(), crate::distributed::Ranks::Simulated(_)),
            None => self.session.is_gpu(),
        }
    }

    /// Why [`Device::Auto`] runs on the CPU (no driver, no GPU, ...), or `None` when it runs on
    /// the GPU or the CPU was asked for.
    ///
    /// ```
    /// let g = sssp::Graph::from_edges(2, [(0, 1, 1u32)])?;
    /// assert_eq!(sssp::Solver::new(&g, sssp::Device::Cpu)?.fallback(), None);
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn fallback(&self) -> Option<&str> {
        self.session.fallback()
    }

    /// The device, in words: the GPU's name, or the CPU backend's threads.
    ///
    /// ```
    /// let g = sssp::Graph::from_edges(2, [(0, 1, 1u32)])?;
    /// assert!(sssp::Solver::new(&g, sssp::Device::Cpu)?.device_name().contains("CPU"));
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn device_name(&self) -> String {
        match &self.ranks {
            Some(group) => group.ranks().to_string(),
            None => self.session.device_name(),
        }
    }

    /// Build the graph's contraction hierarchy for PHAST and keep it with the engine (seconds
    /// to minutes on large road graphs; integer weights only): `auto` then runs PHAST for full
    /// solves when the hierarchy's core is small, as on road networks and meshes. Done once;
    /// later calls return at once. Returns whether this call built it.
    ///
    /// ```
    /// use sssp::{strategy::Algo, Device, Graph, Solver};
    /// let g = Graph::from_undirected_edges(4, [(0, 1, 3u32), (1, 2, 4), (2, 3, 5)])?;
    /// let mut solver = Solver::new(&g, Device::Cpu)?;
    /// assert!(solver.prepare_hierarchy()?);
    /// let paths = solver.shortest_paths(0)?;
    /// assert_eq!((paths.distance(3), paths.algorithm()), (Some(12), Algo::Phast));
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn prepare_hierarchy(&mut self) -> Result<bool> {
        self.session.prepare_hierarchy()
    }

    /// A query with options (a cutoff, the algorithm, a tree built with the run, batches): set
    /// them, then run it with one of [`Query`]'s methods.
    ///
    /// ```
    /// use sssp::{Device, Graph, Solver};
    /// let g = Graph::from_edges(3, [(0, 1, 7u32), (1, 2, 5)])?;
    /// let mut solver = Solver::new(&g, Device::Cpu)?;
    /// let near = solver.query().cutoff(10).shortest_paths(0)?;
    /// assert_eq!((near.distance(1), near.distance(2)), (Some(7), None)); // 12 > 10
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn query(&mut self) -> Query<'_, 'g, W> {
        let strategy = self.strategy;
        Query { solver: self, cutoff: None, strategy, tree: false, batch: 1 }
    }

    /// Shortest paths from `source` to every vertex: [`Query::shortest_paths`] without options.
    ///
    /// Errors: [`Error::VertexOutOfRange`], [`Error::NegativeCycle`] (a negative cycle reachable
    /// from `source`, listed), [`Error::DistanceOverflow`], and the device's errors.
    ///
    /// ```
    /// use sssp::{Device, Error, Graph, Solver};
    /// let cyc = Graph::from_edges(3, [(0, 1, 1i32), (1, 2, -3), (2, 1, 1)])?;
    /// let mut solver = Solver::new(&cyc, Device::Cpu)?;
    /// match solver.shortest_paths(0) {
    ///     Err(Error::NegativeCycle { cycle, weight, .. }) => assert_eq!((cycle, weight), (vec![1, 2], -2)),
    ///     other => panic!("{other:?}"),
    /// }
    /// assert!(matches!(solver.shortest_paths(3), Err(Error::VertexOutOfRange { vertex: 3, .. })));
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn shortest_paths(&mut self, source: u32) -> Result<Paths<'g, W>> {
        self.query().shortest_paths(source)
    }

    /// Shortest paths from each of `sources`, independently: [`Query::shortest_paths_many`]
    /// without options.
    ///
    /// ```
    /// use sssp::{Device, Graph, Solver};
    /// let g = Graph::from_undirected_edges(3, [(0, 1, 2u32), (1, 2, 3)])?;
    /// let all = Solver::new(&g, Device::Cpu)?.shortest_paths_many(&[0, 2])?;
    /// assert_eq!((all[0].distance(2), all[1].distance(0)), (Some(5), Some(5)));
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn shortest_paths_many(&mut self, sources: &[u32]) -> Result<Vec<Paths<'g, W>>> {
        self.query().shortest_paths_many(sources)
    }

    /// Distances from the nearest of `sources`: [`Query::nearest`] without options.
    ///
    /// ```
    /// use sssp::{Device, Graph, Solver};
    /// let g = Graph::from_edges(3, [(0, 1, 5u32), (2, 1, 2)])?;
    /// let near = Solver::new(&g, Device::Cpu)?.nearest(&[0, 2])?;
    /// assert_eq!((near.distance(1), near.nearest_source(1)), (Some(2), Some(2)));
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn nearest(&mut self, sources: &[u32]) -> Result<Paths<'g, W>> {
        self.query().nearest(sources)
    }

    /// The distances from `source` to each of `targets`: [`Query::distances_to`] without
    /// options.
    ///
    /// ```
    /// use sssp::{Device, Graph, Solver};
    /// let g = Graph::from_edges(3, [(0, 1, 5i32), (1, 2, -2)])?;
    /// assert_eq!(Solver::new(&g, Device::Cpu)?.distances_to(0, &[2, 1, 0])?, vec![Some(3), Some(5), Some(0)]);
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn distances_to(&mut self, source: u32, targets: &[u32]) -> Result<Vec<Option<W::Distance>>> {
        self.query().distances_to(source, targets)
    }

    /// A shortest path from `source` to `target` and its length: [`Query::path`] without
    /// options.
    ///
    /// ```
    /// use sssp::{Device, Graph, Solver};
    /// let g = Graph::from_edges(3, [(0, 1, 5u32), (1, 2, 1), (0, 2, 9)])?;
    /// let mut solver = Solver::new(&g, Device::Cpu)?;
    /// assert_eq!(solver.path(0, 2)?, Some((6, vec![0, 1, 2])));
    /// assert_eq!(solver.path(2, 0)?, None);
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn path(&mut self, source: u32, target: u32) -> Result<Option<(W::Distance, Vec<u32>)>> {
        self.query().path(source, target)
    }

    /// Up to `k` shortest simple paths (no vertex twice) from `source` to `target`, each with
    /// its length: [`Query::k_shortest_paths`] without a cutoff.
    ///
    /// ```
    /// use sssp::{Device, Graph, Solver};
    /// let g = Graph::from_edges(4, [(0, 1, 1u32), (1, 3, 1), (0, 2, 1), (2, 3, 1), (0, 3, 3), (1, 2, 0)])?;
    /// let paths = Solver::new(&g, Device::Cpu)?.k_shortest_paths(0, 3, 3)?;
    /// assert_eq!(paths, vec![(2, vec![0, 1, 3]), (2, vec![0, 2, 3]), (2, vec![0, 1, 2, 3])]);
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn k_shortest_paths(&mut self, source: u32, target: u32, k: usize) -> Result<Vec<(W::Distance, Vec<u32>)>> {
        self.query().k_shortest_paths(source, target, k)
    }

    /// Give the solver a contraction hierarchy of its graph (read from a file with
    /// [`crate::strategy::phast::hierarchy_file`], or built with [`crate::hierarchy::Hierarchy::build`]):
    /// PHAST's solves, [`Solver::route`] and [`Solver::table`] then use it. Errors:
    /// [`Error::InvalidArgument`] for a hierarchy of a graph of another size, and the device's
    /// errors (its sweep graph goes to the open engine now).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use sssp::{hierarchy::Hierarchy, Device, Graph, Solver};
    /// let g = Graph::from_undirected_edges(3, [(0, 1, 4u32), (1, 2, 1)])?;
    /// let mut solver = Solver::new(&g, Device::Cpu)?;
    /// solver.set_hierarchy(Arc::new(Hierarchy::build(g.raw())?))?;
    /// assert_eq!(solver.route(2, 0)?, Some((5, vec![2, 1, 0])));
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn set_hierarchy(&mut self, h: std::sync::Arc<crate::hierarchy::Hierarchy>) -> Result<()> {
        if h.num_vertices() as usize != self.graph.num_vertices() {
            return Err(crate::Error::InvalidArgument(format!(
                "a hierarchy of a {}-vertex graph given to a solver of {} vertices",
                h.num_vertices(),
                self.graph.num_vertices()
            )));
        }
        self.session.set_hierarchy(h).map(drop)
    }

    /// A shortest path from `source` to `target` and its length, `None` when there is none, by
    /// the bidirectional upward search on the contraction hierarchy ([`crate::route`]:
    /// microseconds on a road graph, on the host whatever the device), the path unpacked from
    /// the hierarchy's shortcuts. The hierarchy is built on the first call when the solver has
    /// none ([`Solver::prepare_hierarchy`], [`Solver::set_hierarchy`]). Non-negative integer
    /// weights only.
    ///
    /// Errors: [`Error::VertexOutOfRange`], [`Error::InvalidArgument`] for weights that have no
    /// hierarchy (negative or real ones), [`Error::DistanceOverflow`].
    ///
    /// ```
    /// use sssp::{Device, Graph, Solver};
    /// let g = Graph::from_edges(4, [(0, 1, 1u32), (1, 2, 1), (0, 2, 5), (2, 3, 1)])?;
    /// let mut solver = Solver::new(&g, Device::Cpu)?;
    /// assert_eq!(solver.route(0, 3)?, Some((3, vec![0, 1, 2, 3])));
    /// assert_eq!(solver.route(3, 0)?, None);
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn route(&mut self, source: u32, target: u32) -> Result<Option<(W::Distance, Vec<u32>)>> {
        let found = self.session.route(source, target)?;
        Ok(found.map(|(d, p)| (W::distance(d as Dist), p)))
    }

    /// The distances from each of `sources` (rows) to each of `targets` (columns), repeats
    /// kept as rows and columns. With a contraction hierarchy ([`Solver::prepare_hierarchy`],
    /// [`Solver::set_hierarchy`]): RPHAST on a GPU, the many-to-many buckets on the CPU
    /// ([`crate::route`]); without one, a solve per source, batched on lanes on a GPU.
    ///
    /// Errors: [`Error::VertexOutOfRange`], [`Error::OutOfHostMemory`] for a table this process
    /// cannot hold (with its bytes, before anything is allocated), and the solves' errors.
    ///
    /// ```
    /// use sssp::{Device, Graph, Solver};
    /// let g = Graph::from_undirected_edges(4, [(0, 1, 2u32), (1, 2, 3), (2, 3, 1)])?;
    /// let mut solver = Solver::new(&g, Device::Cpu)?;
    /// solver.prepare_hierarchy()?;
    /// let t = solver.table(&[0, 3], &[3, 1, 3])?;
    /// assert_eq!(t.row(0), vec![Some(6), Some(2), Some(6)]);
    /// assert_eq!(t.get(1, 1), Some(4));
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn table(&mut self, sources: &[u32], targets: &[u32]) -> Result<crate::paths::Table<W>> {
        use crate::session::TableMethod;
        let algo = self.strategy.algo();
        let opts = self.strategy.options(&Options::default());
        let batchable = matches!(algo, Algo::Auto | Algo::Workfront | Algo::NearFar | Algo::Bucketing);
        let lanes = match self.session.hierarchy() {
            Some(_) => crate::route::rphast::DEFAULT_LANES,
            None if self.session.is_gpu() && batchable && !self.graph.has_negative_weights() => 32,
            None => 1,
        };
        let (t, _) = self.session.table(sources, targets, TableMethod::Auto, (algo, &opts, lanes))?;
        Ok(crate::paths::Table::new(t))
    }
}

/// One query's options, then the query: from [`Solver::query`].
///
/// - [`Query::cutoff`]: report nothing farther than a distance (the engines never relax past
///   it, so the work shrinks with it: isochrones, range queries).
/// - [`Query::algo`], [`Query::strategy`]: this query's algorithm (and its parameters).
/// - [`Query::with_tree`]: build the shortest-path tree with the run (on the engine where the
///   algorithm allows) rather than on the first [`Paths::path_to`].
/// - [`Query::batch`]: solve many sources `k` at a time on a batched engine.
///
/// ```
/// use sssp::{strategy::Algo, Device, Graph, Solver};
/// let g = Graph::from_edges(4, [(0, 1, 1.0f32), (1, 2, 1.0), (2, 3, 1.0)])?;
/// let mut solver = Solver::new(&g, Device::Cpu)?;
/// let paths = solver.query().cutoff(2.0).algo(Algo::Workfront).with_tree().shortest_paths(0)?;
/// assert_eq!((paths.distance(2), paths.distance(3)), (Some(2.0), None));
/// assert_eq!(paths.path_to(2), Some(vec![0, 1, 2]));
/// # Ok::<(), sssp::Error>(())
/// ```
#[must_use = "a query runs only when one of its methods (shortest_paths, path, ...) is called"]
pub struct Query<'s, 'g, W: Weight> {
    solver: &'s mut Solver<'g, W>,
    cutoff: Option<W::Distance>,
    strategy: Strategy,
    tree: bool,
    batch: u32,
}

impl<'g, W: Weight> Query<'_, 'g, W> {
    /// Report vertices farther than `cutoff` as not reached (and, where the algorithm can, never
    /// look past it). On graphs with negative weights the whole graph is solved and the result
    /// cut at `cutoff`.
    ///
    /// ```
    /// use sssp::{Device, Graph, Solver};
    /// let g = Graph::from_edges(3, [(0, 1, 4i32), (1, 2, -2)])?;
    /// let paths = Solver::new(&g, Device::Cpu)?.query().cutoff(3).shortest_paths(0)?;
    /// assert_eq!((paths.distance(1), paths.distance(2)), (None, Some(2)));
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn cutoff(mut self, cutoff: W::Distance) -> Self {
        self.cutoff = Some(cutoff);
        self
    }

    /// Run this query with `algo` (the solver's, `auto` by default, otherwise).
    ///
    /// ```
    /// use sssp::{strategy::Algo, Device, Graph, Solver};
    /// let g = Graph::from_edges(2, [(0, 1, 3u32)])?;
    /// let paths = Solver::new(&g, Device::Cpu)?.query().algo(Algo::Crauser).shortest_paths(0)?;
    /// assert_eq!((paths.distance(1), paths.algorithm()), (Some(3), Algo::Crauser));
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn algo(self, algo: Algo) -> Self {
        self.strategy(algo)
    }

    /// Run this query with `strategy`, an algorithm with its parameters
    /// ([`Solver::with_strategy`]).
    ///
    /// ```
    /// use sssp::strategy::{near_far::NearFar, Algo, Strategy};
    /// use sssp::{Device, Graph, Solver};
    /// let g = Graph::from_edges(2, [(0, 1, 3u32)])?;
    /// let nf = Strategy::NearFar(NearFar { delta: Some(1u32.into()), ..NearFar::default() });
    /// let paths = Solver::new(&g, Device::Cpu)?.query().strategy(nf).shortest_paths(0)?;
    /// assert_eq!((paths.distance(1), paths.algorithm()), (Some(3), Algo::NearFar));
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn strategy(mut self, strategy: impl Into<Strategy>) -> Self {
        self.strategy = strategy.into();
        self
    }

    /// Build the shortest-path tree with the run: on the engine after the frontier and settling
    /// algorithms (one pass over the arcs, while the run's distances are still there), on the
    /// host otherwise. Without it the tree is built on the host by the first
    /// [`Paths::path_to`]. Not with [`Query::batch`] (those sources run one at a time).
    ///
    /// ```
    /// use sssp::{Device, Graph, Solver};
    /// let g = Graph::from_edges(3, [(0, 1, 1u32), (1, 2, 1)])?;
    /// let paths = Solver::new(&g, Device::Cpu)?.query().with_tree().shortest_paths(0)?;
    /// assert_eq!(paths.path_to(2), Some(vec![0, 1, 2]));
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn with_tree(mut self) -> Self {
        self.tree = true;
        self
    }

    /// Solve [`Query::shortest_paths_many`]'s sources `k` at a time (a power of two up to 64):
    /// `k` distance arrays relaxed together over one copy of the graph, on a second engine with
    /// `k` lanes that the solver opens on first use and keeps. It pays on road graphs on a GPU
    /// (11x the sources per second at `k = 32` on NY), not on scale-free graphs. Where the
    /// query cannot be batched (negative weights, a tree, an algorithm other than `auto`,
    /// `workfront`, `near-far` or `bucketing`) the sources run one at a time.
    ///
    /// ```
    /// use sssp::{Device, Graph, Solver};
    /// let g = Graph::from_undirected_edges(4, [(0, 1, 1u32), (1, 2, 1), (2, 3, 1)])?;
    /// let all = Solver::new(&g, Device::Cpu)?.query().batch(4).shortest_paths_many(&[0, 1, 2, 3, 0])?;
    /// let far: Vec<_> = all.iter().map(|p| p.distance(3)).collect();
    /// assert_eq!(far, vec![Some(3), Some(2), Some(1), Some(0), Some(3)]);
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn batch(mut self, k: u32) -> Self {
        self.batch = k;
        self
    }

    /// The options of this query's runs, and the bound to cut results at on the host (graphs
    /// with negative weights take no cutoff on the engines: the whole graph is solved).
    fn options(&self) -> Result<(Options, Option<Dist>)> {
        let mut o = self.strategy.options(&Options { tree: self.tree, ..Options::default() });
        let Some(c) = self.cutoff else { return Ok((o, None)) };
        let c = W::cutoff(c)?;
        if self.solver.graph.raw().metric() == Metric::Signed {
            return Ok((o, Some(c.min(Dist::MAX as u64 - 1) as Dist)));
        }
        o.cutoff = Some(c);
        Ok((o, None))
    }

    /// One source's run with `opts`, cut at `host_cut`.
    fn solve(&mut self, source: u32, opts: &Options, host_cut: Option<Dist>) -> Result<Paths<'g, W>> {
        let algo = self.strategy.algo();
        let graph = self.solver.graph;
        if let Some(group) = self.solver.ranks.as_mut() {
            if !matches!(algo, Algo::Auto | Algo::DeltaStepping) {
                return Err(crate::Error::InvalidArgument(format!(
                    "a solver on ranks runs distributed delta-stepping; `{}` runs on one device",
                    algo.name()
                )));
            }
            let d = crate::distributed::DistOptions { delta: opts.delta, cutoff: opts.cutoff, ..Default::default() };
            let run = group.solve(graph.raw(), source, &d)?;
            // The ranks solve the whole graph (no early stop at a target): its answer is
            // bounded by the cutoff only.
            let whole = Options { target: None, ..*opts };
            return finish(graph, vec![source], run.solution, &whole, host_cut, Algo::DeltaStepping);
        }
        let sol = self.solver.session.solve(algo, source, opts)?;
        finish(graph, vec![source], sol, opts, host_cut, algo)
    }

    /// Up to `k` shortest simple paths (no vertex twice) from `source` to `target`, each with
    /// its length, shortest first; among equal lengths fewer arcs first, then the
    /// lexicographically smaller vertex sequence (Yen's algorithm: [`crate::kpaths`]). Fewer
    /// than `k` when no more simple paths exist (none when `target` is not reached). With
    /// [`Query::cutoff`], no path longer than the cutoff (for `f32` weights: the path's `f64`
    /// sum), and the searches stop there. `source == target` gives the one path `[source]` of
    /// length 0. The searches run on the host, each over a small part of the graph (the
    /// module docs say why), whatever the solver's device.
    ///
    /// Errors: [`Error::InvalidArgument`] for `k == 0` or a negative cutoff,
    /// [`Error::VertexOutOfRange`], [`Error::NegativeWeight`] naming the first negative arc
    /// (Yen needs none), [`Error::DistanceOverflow`], and the device's errors.
    ///
    /// ```
    /// use sssp::{Device, Graph, Solver};
    /// let g = Graph::from_edges(4, [(0, 1, 1u32), (1, 3, 1), (0, 2, 1), (2, 3, 1), (0, 3, 3), (1, 2, 0)])?;
    /// let mut solver = Solver::new(&g, Device::Cpu)?;
    /// let paths = solver.query().cutoff(2).k_shortest_paths(0, 3, 10)?;
    /// assert_eq!(paths.len(), 3); // the three of length 2; 0 -> 3 (3) is past the cutoff
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn k_shortest_paths(self, source: u32, target: u32, k: usize) -> Result<Vec<(W::Distance, Vec<u32>)>> {
        let raw = self.solver.graph.raw();
        crate::reference::check_source(raw, source)?;
        crate::reference::check_source(raw, target)?;
        if k == 0 {
            return Err(crate::Error::InvalidArgument("k shortest paths: k must be at least 1".into()));
        }
        crate::kpaths::refuse_negative_arcs(raw)?;
        let cutoff = self.cutoff.map(W::cutoff).transpose()?;
        let found = crate::kpaths::k_shortest_graph(raw, source, target, k, cutoff)?;
        Ok(found.into_iter().map(|(d, p)| (W::distance(d), p)).collect())
    }

    /// Shortest paths from `source` to every vertex (within the cutoff).
    ///
    /// Errors: [`Error::VertexOutOfRange`], [`Error::NegativeCycle`] (a negative cycle reachable
    /// from `source`, listed), [`Error::NegativeWeight`] for an algorithm that cannot take
    /// negative weights, [`Error::InvalidArgument`] for a cutoff that is not a distance (negative,
    /// NaN), [`Error::DistanceOverflow`], and the device's errors.
    ///
    /// ```
    /// use sssp::{Device, Graph, Solver};
    /// let g = Graph::from_edges(3, [(0, 1, 1.5f32), (1, 2, 1.5)])?;
    /// let paths = Solver::new(&g, Device::Cpu)?.query().cutoff(2.0).shortest_paths(0)?;
    /// assert_eq!(paths.reached().collect::<Vec<_>>(), vec![(0, 0.0), (1, 1.5)]);
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn shortest_paths(mut self, source: u32) -> Result<Paths<'g, W>> {
        let (opts, cut) = self.options()?;
        self.solve(source, &opts, cut)
    }

    /// Shortest paths from each of `sources` (in order, repeats allowed), each independent of the
    /// others, on the one upload: one at a time, or [`Query::batch`]ed. Holds `n` distances per
    /// source in memory. Errors as [`Query::shortest_paths`], for the first source that fails.
    ///
    /// ```
    /// use sssp::{Device, Graph, Solver};
    /// let g = Graph::from_edges(3, [(0, 1, 4u32), (1, 2, 1), (2, 0, 1)])?;
    /// let all = Solver::new(&g, Device::Cpu)?.query().cutoff(4).shortest_paths_many(&[0, 1, 2])?;
    /// assert_eq!(all[0].distances().collect::<Vec<_>>(), vec![Some(0), Some(4), None]);
    /// assert_eq!(all[2].distance(1), None); // 2 -> 0 -> 1 is 5, beyond the cutoff
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn shortest_paths_many(mut self, sources: &[u32]) -> Result<Vec<Paths<'g, W>>> {
        let graph = self.solver.graph;
        for &s in sources {
            crate::reference::check_source(graph.raw(), s)?;
        }
        let (opts, cut) = self.options()?;
        let batchable = matches!(self.strategy.algo(), Algo::Auto | Algo::Workfront | Algo::NearFar | Algo::Bucketing);
        let signed = graph.has_negative_weights();
        let ranks = self.solver.ranks.is_some();
        if self.batch <= 1 || sources.len() <= 1 || signed || cut.is_some() || opts.tree || !batchable || ranks {
            return sources.iter().map(|&s| self.solve(s, &opts, cut)).collect();
        }
        let algo = self.strategy.algo();
        let mut out = Vec::with_capacity(sources.len());
        self.solver.session.solve_each(algo, sources, &opts, self.batch, |s, sol| {
            out.push(finish(graph, vec![s], sol, &opts, None, algo)?);
            Ok(())
        })?;
        Ok(out)
    }

    /// Distances from the nearest of `sources` (at least one; repeats are ignored), in one run
    /// with every source at 0: facility location, Voronoi cells of a road network. The result's
    /// [`Paths::nearest_source`] names each vertex's source and [`Paths::path_to`] the path from
    /// it. Non-negative weights only ([`Error::InvalidArgument`] otherwise); `auto`, `dijkstra`,
    /// `workfront`, `near-far` and `bucketing` take a set of sources.
    ///
    /// ```
    /// use sssp::{Device, Graph, Solver};
    /// let g = Graph::from_undirected_edges(4, [(0, 1, 1u32), (1, 2, 5), (2, 3, 1)])?;
    /// let near = Solver::new(&g, Device::Cpu)?.nearest(&[0, 3])?;
    /// assert_eq!(near.distances().collect::<Vec<_>>(), vec![Some(0), Some(1), Some(1), Some(0)]);
    /// assert_eq!(near.path_to(2), Some(vec![3, 2]));
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn nearest(self, sources: &[u32]) -> Result<Paths<'g, W>> {
        if self.solver.ranks.is_some() {
            return Err(crate::Error::InvalidArgument(
                "a solver on ranks runs one source at a time: nearest needs a solver on one device".into(),
            ));
        }
        let (opts, _) = self.options()?;
        let graph = self.solver.graph;
        let algo = self.strategy.algo();
        let sol = self.solver.session.solve_nearest(algo, sources, &opts)?;
        let mut seeds = sources.to_vec();
        seeds.sort_unstable();
        seeds.dedup();
        finish(graph, seeds, sol, &opts, None, algo)
    }

    /// The distances from `source` to each of `targets`, in order (`None`: not reached, or
    /// beyond the cutoff). One target stops the run as soon as its distance is final where the
    /// algorithm can (near-far, bucketing, dijkstra). Errors as [`Query::shortest_paths`], and
    /// [`Error::VertexOutOfRange`] for a target.
    ///
    /// ```
    /// use sssp::{Device, Graph, Solver};
    /// let g = Graph::from_edges(4, [(0, 1, 1u32), (1, 2, 1), (2, 3, 1)])?;
    /// assert_eq!(Solver::new(&g, Device::Cpu)?.distances_to(0, &[3, 1])?, vec![Some(3), Some(1)]);
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn distances_to(mut self, source: u32, targets: &[u32]) -> Result<Vec<Option<W::Distance>>> {
        let raw = self.solver.graph.raw();
        for &t in targets {
            crate::reference::check_source(raw, t)?;
        }
        let (mut opts, cut) = self.options()?;
        if let ([t], None) = (targets, cut) {
            opts.target = Some(*t);
        }
        let paths = self.solve(source, &opts, cut)?;
        Ok(targets.iter().map(|&t| paths.distance(t)).collect())
    }

    /// A shortest path from `source` to `target` (both included) and its length, or `None` when
    /// `target` is not reached (or is beyond the cutoff). The run stops as soon as `target`'s
    /// distance is final where the algorithm can (near-far, bucketing, dijkstra: on a road graph
    /// a near target costs a small part of a full solve), and the tree is built with it.
    ///
    /// ```
    /// use sssp::{Device, Graph, Solver};
    /// let g = Graph::from_edges(4, [(0, 1, 1u32), (1, 2, 1), (0, 2, 5), (2, 3, 1)])?;
    /// let mut solver = Solver::new(&g, Device::Cpu)?;
    /// assert_eq!(solver.path(0, 3)?, Some((3, vec![0, 1, 2, 3])));
    /// assert_eq!(solver.query().cutoff(2).path(0, 3)?, None);
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn path(mut self, source: u32, target: u32) -> Result<Option<(W::Distance, Vec<u32>)>> {
        let raw = self.solver.graph.raw();
        crate::reference::check_source(raw, target)?;
        let (mut opts, cut) = self.options()?;
        if raw.metric() != Metric::Signed {
            opts.target = Some(target);
        }
        opts.tree = true;
        let paths = self.solve(source, &opts, cut)?;
        let Some(d) = paths.distance(target) else { return Ok(None) };
        Ok(paths.try_path_to(target)?.map(|p| (d, p)))
    }
}

/// A run's [`Solution`] as [`Paths`], the bound the tree is built within recorded. A cut made
/// here (`host_cut`: the cutoff of a query on negative weights, which the engines ran without
/// one) comes after the tree is built from the whole answer: with negative arcs a vertex within
/// the cutoff can lie behind one beyond it, and its path goes through that one.
fn finish<'g, W: Weight>(
    graph: &'g Graph<W>,
    sources: Vec<u32>,
    mut sol: Solution,
    opts: &Options,
    host_cut: Option<Dist>,
    algo: Algo,
) -> Result<Paths<'g, W>> {
    let bound = opts.query_bound(&sol.dist);
    if let Some(c) = host_cut {
        if sol.parents.is_none() {
            sol.parents = Some(crate::tree::predecessors_nearest(graph.raw(), &sources, &sol.dist, bound)?);
        }
        for d in sol.dist.iter_mut() {
            if *d != UNREACHED && *d > c {
                *d = UNREACHED;
            }
        }
    }
    Ok(Paths::new(graph, sources, sol, bound, algo))
}
