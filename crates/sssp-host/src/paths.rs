//! Typed results: [`Paths`], the shortest distances of one query with their paths.
//!
//! A query keeps the distances and a reference to the graph; the shortest-path tree behind
//! [`Paths::path_to`] is built when a path is first asked for, on the host from the distances
//! (the tight-arc tree of [`crate::tree`], certified on the way, O(n + m)), unless the query
//! asked for it up front ([`crate::Query::with_tree`]), which builds it on the engine right after
//! the run where the algorithm allows (one pass over the arcs: `strategy::attach_tree`).

use std::fmt;
use std::sync::OnceLock;

use crate::error::Result;
use crate::graph::NO_VERTEX;
use crate::strategy::{Algo, Solution, Stats};
use crate::typed::{Graph, Weight};
use crate::{Dist, UNREACHED};

/// Shortest distances from a source (or from the nearest of several: [`crate::Solver::nearest`])
/// on a [`Graph<W>`](Graph), as numbers of type `W::Distance`, with the paths behind them.
///
/// A result keeps the distances and a reference to the graph; the shortest-path tree behind
/// [`Paths::path_to`] is built when a path is first asked for, on the host from the distances
/// (the tight-arc tree of [`crate::tree`], certified on the way, O(n + m)), unless the query
/// asked for it up front ([`crate::Query::with_tree`]), which builds it on the engine right after
/// the run where the algorithm allows (one pass over the arcs).
///
/// ```
/// use sssp::{Device, Graph, Solver};
/// let g = Graph::from_edges(4, [(0, 1, 2u32), (1, 2, 3), (0, 2, 9)])?;
/// let paths = Solver::new(&g, Device::Cpu)?.shortest_paths(0)?;
/// assert_eq!(paths.distance(2), Some(5));
/// assert_eq!(paths.distance(3), None); // not reached
/// assert_eq!(paths.path_to(2), Some(vec![0, 1, 2]));
/// assert_eq!(paths.reached().collect::<Vec<_>>(), vec![(0, 0), (1, 2), (2, 5)]);
/// # Ok::<(), sssp::Error>(())
/// ```
pub struct Paths<'g, W: Weight> {
    graph: &'g Graph<W>,
    /// The query's sources: one, or the set of a nearest-source query.
    sources: Vec<u32>,
    /// Stored distances (see [`Solution::dist`]), [`UNREACHED`] beyond the query's bound.
    dist: Vec<Dist>,
    /// The distance up to which `dist` answers (the cutoff, or a target's distance).
    bound: Option<Dist>,
    /// The shortest-path tree (a forest for several sources), built on first use unless the run
    /// built it.
    parents: OnceLock<Vec<u32>>,
    /// Each vertex's nearest source (several sources only), built on first use.
    roots: OnceLock<Vec<u32>>,
    /// Every shortest-path predecessor (CSR: offsets, predecessors), built on first use.
    dag: OnceLock<(Vec<u64>, Vec<u32>)>,
    stats: Stats,
    algo: Algo,
}

impl<'g, W: Weight> Paths<'g, W> {
    /// The answer of a run of `algo` from `sources` (clipped to `bound` already).
    pub(crate) fn new(graph: &'g Graph<W>, sources: Vec<u32>, sol: Solution, bound: Option<Dist>, algo: Algo) -> Self {
        let ran = sol.stats.chosen_algo.unwrap_or(algo);
        let parents = OnceLock::new();
        if let Some(p) = sol.parents {
            let _ = parents.set(p);
        }
        Paths {
            graph,
            sources,
            dist: sol.dist,
            bound,
            parents,
            roots: OnceLock::new(),
            dag: OnceLock::new(),
            stats: sol.stats,
            algo: ran,
        }
    }

    /// The shortest distance to `v`; `None` when `v` is not reached (or is beyond the query's
    /// cutoff, or is not a vertex).
    ///
    /// ```
    /// use sssp::{Device, Graph, Solver};
    /// let g = Graph::from_edges(3, [(0, 1, 0.5f32), (1, 2, 0.25)])?;
    /// let paths = Solver::new(&g, Device::Cpu)?.shortest_paths(1)?;
    /// assert_eq!((paths.distance(2), paths.distance(0), paths.distance(9)), (Some(0.25), None, None));
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn distance(&self, v: u32) -> Option<W::Distance> {
        match self.dist.get(v as usize) {
            Some(&d) if d != UNREACHED => Some(W::distance(d)),
            _ => None,
        }
    }

    /// The vertices of a shortest path to `v`, from its source to `v` both included (`[s]` for a
    /// source `s`), or `None` when `v` is not reached. The first call builds the tree (O(n + m),
    /// on the host from the distances, unless the query built it: [`crate::Query::with_tree`]), later ones walk it (O(path length)).
    ///
    /// ```
    /// use sssp::{Device, Graph, Solver};
    /// // 0 -> 2 -> 1 costs 1 + 2, less than 0 -> 1's 4.
    /// let g = Graph::from_edges(4, [(0, 1, 4i32), (0, 2, 1), (2, 1, 2)])?;
    /// let paths = Solver::new(&g, Device::Cpu)?.shortest_paths(0)?;
    /// assert_eq!(paths.path_to(1), Some(vec![0, 2, 1]));
    /// assert_eq!(paths.path_to(0), Some(vec![0]));
    /// assert_eq!(paths.path_to(3), None);
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn path_to(&self, v: u32) -> Option<Vec<u32>> {
        self.try_path_to(v).ok().flatten()
    }

    /// [`Paths::path_to`], with the error of building the tree: [`crate::Error::Verification`]
    /// if the distances are not the shortest ones (a bug, never expected), or
    /// [`crate::Error::OutOfHostMemory`].
    ///
    /// ```
    /// use sssp::{Device, Graph, Solver};
    /// let g = Graph::from_edges(2, [(0, 1, 1u32)])?;
    /// assert_eq!(Solver::new(&g, Device::Cpu)?.shortest_paths(0)?.try_path_to(1)?, Some(vec![0, 1]));
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn try_path_to(&self, v: u32) -> Result<Option<Vec<u32>>> {
        if self.distance(v).is_none() {
            return Ok(None);
        }
        let parents = self.raw_parents()?;
        let mut path = vec![v];
        let mut x = v;
        // A tree has no cycle; the length bound keeps a corrupted one from looping.
        while parents[x as usize] != NO_VERTEX && path.len() <= parents.len() {
            x = parents[x as usize];
            path.push(x);
        }
        path.reverse();
        Ok(Some(path))
    }

    /// The parent of `v` on a shortest path: `None` for a source, a vertex not reached, or an id
    /// that is not a vertex. The first call builds the tree (see [`Paths::path_to`]); its errors
    /// are [`Paths::try_path_to`]'s.
    ///
    /// ```
    /// use sssp::{Device, Graph, Solver};
    /// let g = Graph::from_edges(4, [(0, 1, 1u32), (1, 2, 1)])?;
    /// let paths = Solver::new(&g, Device::Cpu)?.shortest_paths(0)?;
    /// assert_eq!((paths.parent(2)?, paths.parent(0)?, paths.parent(3)?, paths.parent(9)?), (Some(1), None, None, None));
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn parent(&self, v: u32) -> Result<Option<u32>> {
        if self.distance(v).is_none() {
            return Ok(None);
        }
        Ok(Some(self.raw_parents()?[v as usize]).filter(|&p| p != NO_VERTEX))
    }

    /// Each vertex's parent on a shortest path, in vertex order: `None` for the sources and for
    /// vertices not reached. The tree is built on first use (see [`Paths::path_to`]);
    /// [`Paths::parent`] reads one vertex's, [`Paths::raw_parents`] the whole tree as one slice.
    ///
    /// ```
    /// use sssp::{Device, Graph, Solver};
    /// let g = Graph::from_edges(3, [(0, 1, 1u32), (1, 2, 1)])?;
    /// let paths = Solver::new(&g, Device::Cpu)?.shortest_paths(0)?;
    /// assert_eq!(paths.parents()?.collect::<Vec<_>>(), [None, Some(0), Some(1)]);
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn parents(&self) -> Result<impl Iterator<Item = Option<u32>> + '_> {
        Ok(self.raw_parents()?.iter().map(|&p| (p != NO_VERTEX).then_some(p)))
    }

    /// The whole shortest-path tree as one slice, for bulk use (copies, arrays): each vertex's
    /// parent, [`NO_VERTEX`] for the sources and for vertices not reached (as
    /// [`Paths::raw_distances`] marks them with [`crate::UNREACHED`]). Built on first use.
    ///
    /// ```
    /// use sssp::{graph::NO_VERTEX, Device, Graph, Solver};
    /// let g = Graph::from_edges(3, [(0, 1, 1u32), (1, 2, 1)])?;
    /// let paths = Solver::new(&g, Device::Cpu)?.shortest_paths(0)?;
    /// assert_eq!(paths.raw_parents()?, &[NO_VERTEX, 0, 1]);
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn raw_parents(&self) -> Result<&[u32]> {
        if let Some(p) = self.parents.get() {
            return Ok(p);
        }
        let p = crate::tree::predecessors_nearest(self.graph.raw(), &self.sources, &self.dist, self.bound)?;
        Ok(self.parents.get_or_init(|| p))
    }

    /// Every predecessor of `v` on a shortest path, in increasing id order, each once: every
    /// `u` with an arc `u -> v` such that `d(u) + w == d(v)`, the sum computed as the engines
    /// compute distances (exactly for integer weights; in `f32` for `f32` weights: the exact
    /// equality of the computed sum, the rule NetworkX applies in `float64`). Empty for a
    /// vertex not reached, and for a source unless a zero-weight cycle leads back to it. The
    /// first call builds the whole shortest-path DAG (O(n + m log m), on the host), later ones
    /// read it. Zero-weight cycles on shortest paths appear whole (the DAG is then none).
    ///
    /// ```
    /// use sssp::{Device, Graph, Solver};
    /// let g = Graph::from_edges(4, [(0, 1, 1u32), (0, 2, 1), (1, 3, 1), (2, 3, 1), (0, 3, 5)])?;
    /// let paths = Solver::new(&g, Device::Cpu)?.shortest_paths(0)?;
    /// assert_eq!(paths.predecessors_all(3), &[1, 2]);
    /// assert_eq!(paths.predecessors_all(0), &[] as &[u32]);
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn predecessors_all(&self, v: u32) -> &[u32] {
        let (off, preds) = self.dag.get_or_init(|| {
            crate::kpaths::shortest_path_dag(self.graph.raw(), &self.dist).unwrap_or_else(|_| (vec![0], Vec::new()))
        });
        match (off.get(v as usize), off.get(v as usize + 1)) {
            (Some(&a), Some(&b)) => &preds[a as usize..b as usize],
            _ => &[],
        }
    }

    /// The source that `v` is nearest to, for a query from several sources
    /// ([`crate::Solver::nearest`]; the source itself for one), or `None` when `v` is not
    /// reached. Ties between sources go to one of them. The first call builds the tree.
    ///
    /// ```
    /// use sssp::{Device, Graph, Solver};
    /// let g = Graph::from_undirected_edges(5, [(0, 1, 1u32), (1, 2, 1), (2, 3, 1), (3, 4, 1)])?;
    /// let near = Solver::new(&g, Device::Cpu)?.nearest(&[0, 4])?;
    /// assert_eq!((near.nearest_source(1), near.nearest_source(3)), (Some(0), Some(4)));
    /// assert_eq!(near.distance(2), Some(2));
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn nearest_source(&self, v: u32) -> Option<u32> {
        self.distance(v)?;
        if let [s] = self.sources[..] {
            return Some(s);
        }
        if self.roots.get().is_none() {
            let roots = crate::tree::nearest_roots(self.raw_parents().ok()?, &self.sources);
            let _ = self.roots.set(roots);
        }
        self.roots.get().and_then(|r| r.get(v as usize)).copied().filter(|&s| s != NO_VERTEX)
    }

    /// The vertices reached, with their distances, in id order.
    ///
    /// ```
    /// use sssp::{Device, Graph, Solver};
    /// let g = Graph::from_edges(3, [(2, 0, 1.5f32)])?;
    /// let paths = Solver::new(&g, Device::Cpu)?.shortest_paths(2)?;
    /// assert_eq!(paths.reached().collect::<Vec<_>>(), vec![(0, 1.5), (2, 0.0)]);
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn reached(&self) -> impl Iterator<Item = (u32, W::Distance)> + '_ {
        self.dist.iter().enumerate().filter(|(_, &d)| d != UNREACHED).map(|(v, &d)| (v as u32, W::distance(d)))
    }

    /// Every vertex's [`distance`](Paths::distance), in id order.
    ///
    /// ```
    /// use sssp::{Device, Graph, Solver};
    /// let g = Graph::from_edges(3, [(0, 1, 7u32)])?;
    /// let paths = Solver::new(&g, Device::Cpu)?.shortest_paths(0)?;
    /// assert_eq!(paths.distances().collect::<Vec<_>>(), vec![Some(0), Some(7), None]);
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn distances(&self) -> impl Iterator<Item = Option<W::Distance>> + '_ {
        self.dist.iter().map(|&d| (d != UNREACHED).then(|| W::distance(d)))
    }

    /// How many vertices are reached (the sources included).
    ///
    /// ```
    /// use sssp::{Device, Graph, Solver};
    /// let g = Graph::from_edges(3, [(0, 1, 7u32)])?;
    /// assert_eq!(Solver::new(&g, Device::Cpu)?.shortest_paths(0)?.num_reached(), 2);
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn num_reached(&self) -> usize {
        self.dist.iter().filter(|&&d| d != UNREACHED).count()
    }

    /// The farthest vertex reached and its distance (the smallest id among ties).
    ///
    /// ```
    /// use sssp::{Device, Graph, Solver};
    /// let g = Graph::from_edges(3, [(0, 1, 7u32), (0, 2, 7)])?;
    /// assert_eq!(Solver::new(&g, Device::Cpu)?.shortest_paths(0)?.farthest(), Some((1, 7)));
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn farthest(&self) -> Option<(u32, W::Distance)> {
        // Stored distances order like the numbers in every metric (see `Metric`).
        let (v, &d) = self
            .dist
            .iter()
            .enumerate()
            .filter(|(_, &d)| d != UNREACHED)
            .max_by_key(|&(v, &d)| (d, std::cmp::Reverse(v)))?;
        Some((v as u32, W::distance(d)))
    }

    /// The query's sources: one, or the set of a nearest-source query.
    ///
    /// ```
    /// use sssp::{Device, Graph, Solver};
    /// let g = Graph::from_edges(3, [(0, 1, 7u32)])?;
    /// assert_eq!(Solver::new(&g, Device::Cpu)?.shortest_paths(2)?.sources(), &[2]);
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn sources(&self) -> &[u32] {
        &self.sources
    }

    /// The algorithm that ran (what `auto` picked, when it was asked for).
    ///
    /// ```
    /// use sssp::{strategy::Algo, Device, Graph, Solver};
    /// let g = Graph::from_edges(2, [(0, 1, -1i32)])?;
    /// // Negative weights on the CPU: serial Bellman-Ford.
    /// assert_eq!(Solver::new(&g, Device::Cpu)?.shortest_paths(0)?.algorithm(), Algo::BellmanFord);
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn algorithm(&self) -> Algo {
        self.algo
    }

    /// What the run did: times, arcs relaxed, iterations, `auto`'s reason ([`Stats`]).
    ///
    /// ```
    /// use sssp::{Device, Graph, Solver};
    /// let g = Graph::from_edges(2, [(0, 1, 1u32)])?;
    /// assert_eq!(Solver::new(&g, Device::Cpu)?.shortest_paths(0)?.stats().arcs_relaxed, 1);
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// The distances as the lower layers store them ([`Dist`]: integers, or `f32` bit
    /// patterns on real-weighted graphs; [`UNREACHED`] when not reached), for
    /// [`crate::verify`] and [`crate::tree`].
    ///
    /// ```
    /// use sssp::{Device, Graph, Solver};
    /// let g = Graph::from_edges(2, [(0, 1, 3u32)])?;
    /// let paths = Solver::new(&g, Device::Cpu)?.shortest_paths(0)?;
    /// sssp::verify::check(g.raw(), 0, paths.raw_distances())?; // a certificate
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn raw_distances(&self) -> &[Dist] {
        &self.dist
    }
}

impl<W: Weight> fmt::Debug for Paths<'_, W> {
    /// The sources, the algorithm, how many vertices were reached and the first few distances.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        /// Distances shown.
        const SHOWN: usize = 8;
        struct Reached<'a, 'g, W: Weight>(&'a Paths<'g, W>);
        impl<W: Weight> fmt::Debug for Reached<'_, '_, W> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                let mut m = f.debug_map();
                m.entries(self.0.reached().take(SHOWN));
                if self.0.num_reached() > SHOWN {
                    m.entry(&"..", &(self.0.num_reached() - SHOWN));
                }
                m.finish()
            }
        }
        f.debug_struct("Paths")
            .field("sources", &self.sources)
            .field("algorithm", &self.algo.name())
            .field("vertices", &self.dist.len())
            .field("reached", &self.num_reached())
            .field("distances", &Reached(self))
            .finish()
    }
}

/// A distance table with typed distances ([`crate::Solver::table`]): rows are the sources,
/// columns the targets, in the order given; `None` where there is no path.
#[derive(Clone, Debug, PartialEq)]
pub struct Table<W: Weight> {
    raw: crate::route::table::DistTable,
    _w: std::marker::PhantomData<W>,
}

impl<W: Weight> Table<W> {
    pub(crate) fn new(raw: crate::route::table::DistTable) -> Self {
        Table { raw, _w: std::marker::PhantomData }
    }

    /// Rows (sources).
    pub fn rows(&self) -> usize {
        self.raw.rows()
    }

    /// Columns (targets).
    pub fn cols(&self) -> usize {
        self.raw.cols()
    }

    /// The distance from source `i` to target `j`, `None` when there is no path.
    pub fn get(&self, i: usize, j: usize) -> Option<W::Distance> {
        typed::<W>(self.raw.get(i, j))
    }

    /// Row `i`: the distances from source `i`.
    pub fn row(&self, i: usize) -> Vec<Option<W::Distance>> {
        self.raw.row(i).iter().map(|&d| typed::<W>(d)).collect()
    }

    /// The untyped table ([`crate::UNREACHED`] where there is no path).
    pub fn raw(&self) -> &crate::route::table::DistTable {
        &self.raw
    }
}

fn typed<W: Weight>(d: Dist) -> Option<W::Distance> {
    (d != crate::UNREACHED).then(|| W::distance(d))
}
