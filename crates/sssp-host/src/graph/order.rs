//! Vertex orders: a graph relabelled so that the vertices most relaxations touch get nearby ids,
//! and the two maps between the user's ids and the relabelled ones.
//!
//! Every strategy keeps one distance word per vertex, indexed by id. The Kronecker generator
//! (Graph500's) scatters its hubs over the whole id range, so the words that most relaxations
//! read and write lie one per cache line across an array larger than the L2. Renaming the
//! vertices by descending out-degree ([`Order::Degree`]: hubs first) packs those words into a
//! few lines that stay cached; a BFS order ([`Order::Bfs`]) gives neighbours nearby ids. The
//! answer is the same graph's, up to names: [`Relabelled`] maps sources in and distances and
//! parents back.
//!
//! Measured on an H100 (2026-11-27: `sssp bench --algos auto`
//! on the graphs that `examples/reorder_exp.rs --write` relabelled, the same 5 seeded sources
//! mapped into each order, every trial certified; median solve time in ms, the relabelling's
//! time on 16 cores with the file's write):
//!
//! | graph | input ids | degree | BFS | relabelling |
//! |---|---:|---:|---:|---:|
//! | `kron:18` | 1.10 | 1.12 | 1.03 | 0.1 s |
//! | `kron:22` | 9.05 | 7.85 | 7.73 | 2.0-2.5 s |
//! | `kron:25` (1.07G arcs) | 76.5 | 62.3 | 63.5 | 18-28 s |
//! | NY road | 9.26 | 9.36 | 9.27 | 0.0 s |
//! | `road:1000000` | 11.92 | 11.91 | 11.95 | 0.1 s |
//!
//! So it pays on large skewed graphs (1.15-1.23x on kron 22 and 25; on the CPU backend's
//! delta-stepping, kron 20 ran 1.3-1.55x faster in degree order), not on small ones (kron 18's
//! distance words fit the L2 in any order) nor on road networks (no hubs, and each iteration's
//! cost is latency, not bandwidth). It costs a pass over every arc and a second copy of the
//! graph while it is built: this module's relabelling of kron 22 (134M arcs) took 1.8 s by
//! degree and 3.0 s in BFS order on the project's 2-core machine (`sssp bench --order`'s
//! `order:` line; the example's 2.0-2.5 s above include writing the file). That is why `auto`
//! never relabels by itself: a one-off query would pay seconds of relabelling to save
//! milliseconds (14 ms a solve on kron 25, whose 1.07G arcs took the example 18-28 s), so it
//! pays back only after hundreds of queries. It is for many queries on one big skewed graph
//! (`sssp run --order degree` with many sources, a service that keeps the [`Relabelled`]
//! graph).
//!
//! Both orders are deterministic: degree order sorts by descending out-degree, ties by the
//! original id; BFS order is the order in which a breadth-first search from vertex 0, then from
//! each vertex not yet visited in id order, first reaches the vertices (following out-arcs in
//! CSR order). Both are computed in parallel; the BFS expands its large levels in parallel and
//! yields exactly the serial search's order (see `bfs_order`).

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::Ordering::Relaxed;

use rayon::prelude::*;

use super::{Buf, Graph, Weights, NO_VERTEX};
use crate::error::{Error, Result};
use crate::mem;

/// How to number a graph's vertices for solving (see the [module](self) for when it pays).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Order {
    /// The graph's own ids: nothing is relabelled or copied.
    #[default]
    Input,
    /// Descending out-degree, ties by the original id: the hubs first.
    Degree,
    /// Breadth-first from vertex 0, then from each unvisited vertex in id order.
    Bfs,
}

impl Order {
    /// Every order, in the order their names are listed.
    pub const ALL: [Order; 3] = [Order::Input, Order::Degree, Order::Bfs];

    /// The name [`FromStr`] reads and [`Display`](fmt::Display) writes: `input`, `degree` or
    /// `bfs`.
    ///
    /// ```
    /// use sssp::graph::order::Order;
    /// assert_eq!(Order::Degree.name(), "degree");
    /// assert_eq!("bfs".parse::<Order>()?, Order::Bfs);
    /// assert!("random".parse::<Order>().unwrap_err().to_string().contains("input, degree, bfs"));
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Order::Input => "input",
            Order::Degree => "degree",
            Order::Bfs => "bfs",
        }
    }
}

impl FromStr for Order {
    type Err = Error;

    fn from_str(s: &str) -> Result<Order> {
        Order::ALL.into_iter().find(|o| o.name() == s).ok_or_else(|| {
            let names: Vec<&str> = Order::ALL.iter().map(|o| o.name()).collect();
            Error::InvalidArgument(format!("vertex order `{s}`: expected one of {}", names.join(", ")))
        })
    }
}

impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A graph with its vertices renumbered by an [`Order`], and the maps between the user's ids
/// (the input graph's) and the internal ones (the relabelled graph's).
///
/// Solve on [`graph`](Self::graph) from [`to_internal`](Self::to_internal) sources; give the
/// user [`distances_to_user`](Self::distances_to_user),
/// [`parents_to_user`](Self::parents_to_user) and [`to_user`](Self::to_user) of any vertex.
/// Certificates ([`crate::verify`]) hold on the relabelled graph as they would on the input: it
/// is the same graph up to names.
///
/// ```
/// use sssp::graph::{order::{Order, Relabelled}, Graph};
///
/// // 0 -> 1 (weight 4), 2 -> 1 (1), 2 -> 0 (2): vertex 2 has the most out-arcs.
/// let g = Graph::from_arcs(3, &[(0, 1, 4), (2, 1, 1), (2, 0, 2)])?;
/// let r = Relabelled::new(g, Order::Degree)?;
/// assert_eq!(r.to_internal(2)?, 0); // the hub first, then the rest by id
/// let src = r.to_internal(2)?;
/// let dist = sssp::reference::dijkstra(r.graph(), src)?;
/// assert_eq!(r.distances_to_user(&dist)?, vec![2, 1, 0]); // indexed by the user's ids
/// # Ok::<(), sssp::Error>(())
/// ```
#[derive(Debug)]
pub struct Relabelled {
    graph: Graph,
    order: Order,
    /// The internal id of each user vertex; empty for the identity ([`Order::Input`]).
    new_of_old: Vec<u32>,
    /// The user id of each internal vertex; empty for the identity.
    old_of_new: Vec<u32>,
}

impl Graph {
    /// This graph relabelled by `order` ([`Relabelled::new`] on a copy for [`Order::Input`],
    /// which clones the arrays of a graph built in memory; one opened from a binary file shares
    /// its map). The other orders leave `self` as it is and build the new graph beside it.
    ///
    /// ```
    /// use sssp::graph::{order::Order, Graph};
    /// let g = Graph::from_arcs(3, &[(0, 1, 4), (2, 1, 1), (2, 0, 2)])?;
    /// let r = g.relabelled(Order::Bfs)?;
    /// // BFS from 0 reaches 1; then 2 starts a search of its own.
    /// assert_eq!((r.to_user(0), r.to_user(1), r.to_user(2)), (0, 1, 2));
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn relabelled(&self, order: Order) -> Result<Relabelled> {
        match order {
            Order::Input => Relabelled::new(self.clone(), order),
            _ => Relabelled::build(self, order),
        }
    }
}

impl Relabelled {
    /// `g` renumbered by `order`. [`Order::Input`] keeps `g` as it is (no copy, no maps); the
    /// others build the relabelled graph in O(n log n + m) (degree's sort; BFS is O(n + m)) on
    /// rayon's threads and then drop `g`, so the peak is both graphs. Every allocation whose
    /// size the graph decides is checked first: a graph too large for this machine's memory is
    /// [`Error::OutOfHostMemory`], not an abort.
    ///
    /// ```
    /// use sssp::graph::{order::{Order, Relabelled}, Graph};
    /// let g = Graph::from_arcs(2, &[(1, 0, 3)])?;
    /// let r = Relabelled::new(g, Order::Input)?;
    /// assert!(r.is_identity() && r.to_internal(1)? == 1);
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn new(g: Graph, order: Order) -> Result<Relabelled> {
        match order {
            Order::Input => Ok(Relabelled { graph: g, order, new_of_old: Vec::new(), old_of_new: Vec::new() }),
            _ => Relabelled::build(&g, order),
        }
    }

    /// The relabelling of `g` by a non-identity `order`.
    fn build(g: &Graph, order: Order) -> Result<Relabelled> {
        let (n, m) = (g.num_vertices(), g.num_arcs());
        let weight_bytes = match g.weights() {
            Weights::Signed(_) => std::mem::size_of::<i32>(),
            Weights::Unsigned(_) | Weights::Real(_) => std::mem::size_of::<u32>(),
        };
        // The new CSR, the two maps, and the order's working array (BFS's per-vertex state, or
        // the sort's keys); the input graph stays alive throughout.
        let needed = (n as u64 + 1) * 8 + m as u64 * (4 + weight_bytes as u64) + n as u64 * (4 + 4 + 8);
        mem::check_fits(needed)?;
        let old_of_new = match order {
            Order::Input => unreachable!("the identity is not built"),
            Order::Degree => degree_order(g)?,
            Order::Bfs => bfs_order(g, PARALLEL_LEVEL_ARCS)?,
        };
        let new_of_old = inverse(&old_of_new)?;
        let graph = relabel(g, &old_of_new, &new_of_old)?;
        Ok(Relabelled { graph, order, new_of_old, old_of_new })
    }

    /// The graph to solve on: the input's arcs and weights under the internal ids.
    pub fn graph(&self) -> &Graph {
        &self.graph
    }

    /// The order it was built by.
    pub fn order(&self) -> Order {
        self.order
    }

    /// Whether internal ids are the user's ([`Order::Input`]): then every map below is the
    /// identity and [`distances_to_user`](Self::distances_to_user) a plain copy, which a caller
    /// holding the answer can skip.
    pub fn is_identity(&self) -> bool {
        self.old_of_new.is_empty()
    }

    /// The internal id of the user's vertex `user`, or [`Error::VertexOutOfRange`].
    ///
    /// ```
    /// use sssp::graph::{order::Order, Graph};
    /// let r = Graph::from_arcs(2, &[(1, 0, 3)])?.relabelled(Order::Degree)?;
    /// assert_eq!(r.to_internal(1)?, 0);
    /// assert!(matches!(r.to_internal(2), Err(sssp::Error::VertexOutOfRange { vertex: 2, num_vertices: 2 })));
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn to_internal(&self, user: u32) -> Result<u32> {
        let n = self.graph.num_vertices();
        if user as usize >= n {
            return Err(Error::VertexOutOfRange { vertex: user as u64, num_vertices: n as u64 });
        }
        Ok(if self.is_identity() { user } else { self.new_of_old[user as usize] })
    }

    /// The user's id of internal vertex `internal` (an id the solvers gave, such as a parent or
    /// a vertex of a path).
    ///
    /// # Panics
    /// If `internal` is not a vertex of [`graph`](Self::graph).
    ///
    /// ```
    /// use sssp::graph::{order::Order, Graph};
    /// let r = Graph::from_arcs(2, &[(1, 0, 3)])?.relabelled(Order::Degree)?;
    /// assert_eq!(r.to_user(0), 1);
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn to_user(&self, internal: u32) -> u32 {
        let n = self.graph.num_vertices();
        assert!((internal as usize) < n, "internal vertex {internal} is out of range (the graph has {n} vertices)");
        if self.is_identity() {
            internal
        } else {
            self.old_of_new[internal as usize]
        }
    }

    /// A per-vertex array indexed by internal ids (distances, or anything else with one entry
    /// per vertex), indexed by the user's ids instead: entry `v` is `internal[to_internal(v)]`.
    /// O(n) on rayon's threads. [`Error::InvalidArgument`] if `internal` does not have one entry
    /// per vertex; [`Error::OutOfHostMemory`] if the copy cannot be allocated.
    ///
    /// ```
    /// use sssp::graph::{order::Order, Graph};
    /// let r = Graph::from_arcs(2, &[(1, 0, 3)])?.relabelled(Order::Degree)?;
    /// assert_eq!(r.distances_to_user(&[10, 20])?, vec![20, 10]);
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn distances_to_user<T: Copy + Send + Sync>(&self, internal: &[T]) -> Result<Vec<T>> {
        self.check_len(internal.len())?;
        if self.is_identity() {
            return mem::try_par_to_vec(internal);
        }
        let mut out = Vec::new();
        mem::reserve(&mut out, internal.len())?;
        out.par_extend(self.new_of_old.par_iter().map(|&v| internal[v as usize]));
        Ok(out)
    }

    /// A parent (predecessor) array indexed by internal ids and holding internal ids, such as
    /// [`crate::tree::predecessors`] gives, in the user's ids on both sides: entry `v` is the
    /// user's id of the parent of `v`, and [`NO_VERTEX`] ("no parent": the sources, unreached
    /// vertices) stays [`NO_VERTEX`]. O(n) on rayon's threads. [`Error::InvalidArgument`] if the
    /// array does not have one entry per vertex, [`Error::VertexOutOfRange`] for an entry that
    /// is neither a vertex nor [`NO_VERTEX`].
    ///
    /// ```
    /// use sssp::graph::{order::Order, Graph, NO_VERTEX};
    /// let r = Graph::from_arcs(2, &[(1, 0, 3)])?.relabelled(Order::Degree)?;
    /// // Internally 0 (the user's 1) is the source and the parent of 1 (the user's 0).
    /// assert_eq!(r.parents_to_user(&[NO_VERTEX, 0])?, vec![1, NO_VERTEX]);
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn parents_to_user(&self, internal: &[u32]) -> Result<Vec<u32>> {
        let n = self.check_len(internal.len())?;
        if let Some(&p) = internal.par_iter().find_any(|&&p| p != NO_VERTEX && p as usize >= n) {
            return Err(Error::VertexOutOfRange { vertex: p as u64, num_vertices: n as u64 });
        }
        if self.is_identity() {
            return mem::try_par_to_vec(internal);
        }
        let mut out = Vec::new();
        mem::reserve(&mut out, n)?;
        out.par_extend(self.new_of_old.par_iter().map(|&v| match internal[v as usize] {
            NO_VERTEX => NO_VERTEX,
            p => self.old_of_new[p as usize],
        }));
        Ok(out)
    }

    /// `n` if `len` is the graph's vertex count, else the error of a per-vertex array that is
    /// not one.
    fn check_len(&self, len: usize) -> Result<usize> {
        let n = self.graph.num_vertices();
        if len != n {
            return Err(Error::InvalidArgument(format!(
                "a per-vertex array of {len} entries for a graph of {n} vertices"
            )));
        }
        Ok(n)
    }
}

/// Degree order: every vertex by descending out-degree, ties by ascending id (unique keys, so
/// the unstable parallel sort is deterministic).
fn degree_order(g: &Graph) -> Result<Vec<u32>> {
    let n = g.num_vertices();
    // (degree, id) keys in one array: the sort reads no offsets at random.
    let mut keys = Vec::new();
    mem::reserve(&mut keys, n)?;
    keys.par_extend((0..n as u32).into_par_iter().map(|v| (std::cmp::Reverse(g.degree(v) as u64), v)));
    keys.par_sort_unstable();
    let mut order = Vec::new();
    mem::reserve(&mut order, n)?;
    order.par_extend(keys.into_par_iter().map(|(_, v)| v));
    Ok(order)
}

/// The arcs out of a BFS level from which [`bfs_order`] expands it in parallel; smaller levels
/// (road networks' every level, the many small components of a Kronecker graph) go serially,
/// where two parallel passes cost more than the level.
const PARALLEL_LEVEL_ARCS: u64 = 1 << 14;

/// Per-vertex state of [`bfs_order`]: not reached yet.
const UNSEEN: u32 = u32::MAX;
/// Per-vertex state of [`bfs_order`]: reached (has its place in the order).
const SEEN: u32 = u32::MAX - 1;

/// BFS order: vertices in the order a serial FIFO breadth-first search from vertex 0, then
/// from each vertex not reached yet in id order, first reaches them (out-arcs in CSR order).
///
/// The search is level-synchronous, and the order is the serial one exactly: in a FIFO search
/// the next level is the unreached heads of the current level's arcs, each placed at its first
/// arc in (tail's position in the level, arc's position in the tail's list) order. A level of
/// at least `parallel_arcs` arcs is expanded in two parallel passes: every unreached head takes
/// the smallest position of a tail that reaches it (`fetch_min` on its state word); then each
/// tail, in level order, keeps the heads that chose it, at their first arc from it. Positions
/// lie below `n - 1 <= u32::MAX - 1` (a level has fewer vertices than the graph, but for the
/// root's level of one), so they never reach [`SEEN`] or [`UNSEEN`].
pub(crate) fn bfs_order(g: &Graph, parallel_arcs: u64) -> Result<Vec<u32>> {
    let n = g.num_vertices();
    let targets = g.targets();
    let state = &mem::try_atomic_vec(n, UNSEEN)?[..];
    let mut order: Vec<u32> = Vec::new();
    mem::reserve(&mut order, n)?;
    for root in 0..n as u32 {
        if state[root as usize].load(Relaxed) != UNSEEN {
            continue;
        }
        state[root as usize].store(SEEN, Relaxed);
        order.push(root);
        let mut level = order.len() - 1..order.len();
        while !level.is_empty() {
            let tails = &order[level.clone()];
            let arcs: u64 = if tails.len() > 1024 {
                tails.par_iter().map(|&u| g.degree(u) as u64).sum()
            } else {
                tails.iter().map(|&u| g.degree(u) as u64).sum()
            };
            let start = order.len();
            if arcs < parallel_arcs {
                let mut next = Vec::new();
                for &u in tails {
                    for &h in &targets[g.arc_range(u)] {
                        if state[h as usize].load(Relaxed) == UNSEEN {
                            state[h as usize].store(SEEN, Relaxed);
                            next.push(h);
                        }
                    }
                }
                order.extend_from_slice(&next);
            } else {
                tails.par_iter().enumerate().for_each(|(pos, &u)| {
                    for &h in &targets[g.arc_range(u)] {
                        let s = &state[h as usize];
                        // States only become SEEN between the passes: a head read as not SEEN
                        // here holds UNSEEN or a position, both above `pos` or the smaller one.
                        if s.load(Relaxed) != SEEN {
                            s.fetch_min(pos as u32, Relaxed);
                        }
                    }
                });
                // Order-preserving collect: the heads of each tail in its arc order, tails in
                // level order. Only tail `pos` sees a head holding `pos`, so marking it SEEN
                // there keeps a repeated arc from placing it twice.
                let next: Vec<u32> = tails
                    .par_iter()
                    .enumerate()
                    .flat_map_iter(|(pos, &u)| {
                        targets[g.arc_range(u)].iter().copied().filter(move |&h| {
                            let s = &state[h as usize];
                            s.load(Relaxed) == pos as u32 && {
                                s.store(SEEN, Relaxed);
                                true
                            }
                        })
                    })
                    .collect();
                order.extend_from_slice(&next);
            }
            level = start..order.len();
        }
    }
    Ok(order)
}

/// The inverse of the permutation `old_of_new`: the new id of every old vertex.
fn inverse(old_of_new: &[u32]) -> Result<Vec<u32>> {
    let new_of_old = mem::try_atomic_vec(old_of_new.len(), 0)?;
    old_of_new.par_iter().enumerate().for_each(|(new, &old)| new_of_old[old as usize].store(new as u32, Relaxed));
    Ok(mem::into_plain(new_of_old))
}

/// Consecutive new vertices whose arcs are copied by one task: about this many arcs (a hub
/// with more is a task of its own)...
const CHUNK_ARCS: u64 = 1 << 16;
/// ... or this many vertices, whichever comes first.
const CHUNK_VERTICES: usize = 1 << 12;

/// The graph `g` with vertex `old_of_new[i]` renamed `i`: each new vertex's arcs are its old
/// vertex's, in the same order, heads renamed by `new_of_old` and weights carried. Built in
/// parallel over runs of new vertices, each writing its own slice of the new arrays.
fn relabel(g: &Graph, old_of_new: &[u32], new_of_old: &[u32]) -> Result<Graph> {
    let n = g.num_vertices();
    let mut offsets = mem::try_vec(n + 1, 0u64)?;
    offsets[1..].par_iter_mut().zip(old_of_new.par_iter()).for_each(|(o, &v)| *o = g.degree(v) as u64);
    for i in 0..n {
        offsets[i + 1] += offsets[i];
    }
    let weights = match g.weights() {
        Weights::Unsigned(w) => Weights::Unsigned(Buf::from(move_arcs(g, &offsets, old_of_new, w)?)),
        Weights::Real(w) => Weights::Real(Buf::from(move_arcs(g, &offsets, old_of_new, w)?)),
        Weights::Signed(w) => Weights::Signed(Buf::from(move_arcs(g, &offsets, old_of_new, w)?)),
    };
    let heads = {
        let mut heads = mem::try_vec(g.num_arcs(), 0u32)?;
        for_runs(&offsets, &mut heads, |vs, out| {
            let mut k = 0;
            for &old in &old_of_new[vs] {
                let src = &g.targets()[g.arc_range(old)];
                for (o, &h) in out[k..k + src.len()].iter_mut().zip(src) {
                    *o = new_of_old[h as usize];
                }
                k += src.len();
            }
        });
        heads
    };
    let r = Graph::from_csr(Buf::from(offsets), Buf::from(heads), weights)?.with_both_ways(g.built_both_ways());
    // Sums, extremes and the degrees do not depend on names: keep what `g` computed.
    if let Some(&t) = g.total.get() {
        let _ = r.total.set(t);
    }
    if let Some(&x) = g.range.get() {
        let _ = r.range.set(x);
    }
    if let Some(&d) = g.max_degree.get() {
        let _ = r.max_degree.set(d);
    }
    if let Some(&t) = g.degrees.get() {
        let _ = r.degrees.set(t);
    }
    Ok(r)
}

/// The weights `w` of `g`'s arcs in the order of the new CSR (`offsets`, `old_of_new`).
fn move_arcs<T: Copy + Default + Send + Sync>(
    g: &Graph,
    offsets: &[u64],
    old_of_new: &[u32],
    w: &[T],
) -> Result<Vec<T>> {
    let mut out = mem::try_vec(w.len(), T::default())?;
    for_runs(offsets, &mut out, |vs, out| {
        let mut k = 0;
        for &old in &old_of_new[vs] {
            let src = &w[g.arc_range(old)];
            out[k..k + src.len()].copy_from_slice(src);
            k += src.len();
        }
    });
    Ok(out)
}

/// Call `f(vertices, their arcs' slice of out)` on rayon's threads for runs of consecutive
/// vertices of the CSR `offsets` ([`CHUNK_ARCS`], [`CHUNK_VERTICES`]), which cover every
/// vertex once.
fn for_runs<T: Send>(offsets: &[u64], out: &mut [T], f: impl Fn(std::ops::Range<usize>, &mut [T]) + Sync) {
    let n = offsets.len() - 1;
    let mut runs = Vec::new();
    let mut rest = out;
    let mut start = 0;
    for v in 0..n {
        let end = v + 1;
        if end == n || end - start >= CHUNK_VERTICES || offsets[end] - offsets[start] >= CHUNK_ARCS {
            let (mine, tail) = std::mem::take(&mut rest).split_at_mut((offsets[end] - offsets[start]) as usize);
            runs.push((start..end, mine));
            rest = tail;
            start = end;
        }
    }
    runs.into_par_iter().for_each(|(vs, out)| f(vs, out));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{generate, GenSpec};
    use crate::graph::EdgeList;
    use crate::WeightSpec;

    /// A plain FIFO search, as `examples/reorder_exp.rs` had it: the order to match.
    fn serial_bfs(g: &Graph) -> Vec<u32> {
        let n = g.num_vertices();
        let mut seen = vec![false; n];
        let mut order = Vec::new();
        for r in 0..n as u32 {
            if seen[r as usize] {
                continue;
            }
            seen[r as usize] = true;
            let mut q = std::collections::VecDeque::from([r]);
            while let Some(u) = q.pop_front() {
                order.push(u);
                for (h, _) in g.neighbors(u) {
                    if !std::mem::replace(&mut seen[h as usize], true) {
                        q.push_back(h);
                    }
                }
            }
        }
        order
    }

    /// Every arc `(u, v, w)` of `g` as `(new(u), new(v), w)`, sorted: the multiset of arcs.
    fn arcs_renamed(g: &Graph, new: impl Fn(u32) -> u32) -> Vec<(u32, u32, i64)> {
        let mut a: Vec<_> = (0..g.num_vertices() as u32)
            .flat_map(|u| g.neighbors(u).map(move |(v, w)| (u, v, w)))
            .map(|(u, v, w)| (new(u), new(v), w))
            .collect();
        a.sort_unstable();
        a
    }

    /// The relabelled graph is `g` up to names: the maps are inverse permutations, every arc of
    /// `g` is an arc of the new graph renamed (with its weight and multiplicity), each vertex's
    /// arcs keep their order, and the weights keep their kind.
    fn check_isomorphic(g: &Graph, r: &Relabelled) {
        let (n, h) = (g.num_vertices(), r.graph());
        assert_eq!((h.num_vertices(), h.num_arcs()), (n, g.num_arcs()));
        assert_eq!(h.metric(), g.metric());
        assert_eq!(std::mem::discriminant(h.weights()), std::mem::discriminant(g.weights()));
        assert_eq!(h.built_both_ways(), g.built_both_ways());
        let mut seen = vec![false; n];
        for v in 0..n as u32 {
            let i = r.to_internal(v).unwrap();
            assert_eq!(r.to_user(i), v);
            assert!(!std::mem::replace(&mut seen[i as usize], true), "two vertices named {i}");
            let renamed: Vec<_> = g.neighbors(v).map(|(x, w)| (r.to_internal(x).unwrap(), w)).collect();
            assert_eq!(h.neighbors(i).collect::<Vec<_>>(), renamed, "arcs of {v} (now {i})");
        }
        assert_eq!(arcs_renamed(g, |v| r.to_internal(v).unwrap()), arcs_renamed(h, |v| v));
        assert_eq!(g.weight_range(), h.weight_range());
        assert_eq!(g.weight_total(), h.weight_total());
        assert_eq!(g.max_degree(), h.max_degree());
    }

    fn graphs() -> Vec<(String, Graph)> {
        let mut v = vec![];
        for (spec, w) in [
            ("kron:9", WeightSpec::AsGiven),
            ("road:500", WeightSpec::AsGiven),
            ("disconnected:4:50", WeightSpec::AsGiven),
            ("multi:200", WeightSpec::AsGiven),
            ("selfloops:200", WeightSpec::AsGiven),
            ("uniform:300:4", WeightSpec::RandomReal { lo: 0.0, hi: 1.0, seed: 3 }),
            ("kron:8", WeightSpec::Shifted { lo: 1, hi: 9, potential: 5, seed: 3 }),
        ] {
            let g = generate(&GenSpec::parse(spec).unwrap(), 2, w).unwrap();
            v.push((format!("{spec} {w:?}"), g));
        }
        v
    }

    #[test]
    fn every_weight_kind_is_relabelled_to_an_isomorphic_graph() {
        let mut kinds = vec![];
        for (name, g) in graphs() {
            kinds.push(g.metric());
            for order in Order::ALL {
                let r = g.relabelled(order).unwrap();
                assert_eq!(r.order(), order);
                assert_eq!(r.is_identity(), order == Order::Input, "{name} {order}");
                check_isomorphic(&g, &r);
            }
        }
        for m in [crate::Metric::Integer, crate::Metric::Signed, crate::Metric::Real] {
            assert!(kinds.contains(&m), "no graph with {m:?} weights");
        }
    }

    #[test]
    fn degree_order_is_non_increasing_with_ties_by_id() {
        for (name, g) in graphs() {
            let r = Relabelled::new(g.clone(), Order::Degree).unwrap();
            let h = r.graph();
            for i in 1..h.num_vertices() as u32 {
                let (a, b) = (h.degree(i - 1), h.degree(i));
                assert!(a >= b, "{name}: degree {a} then {b}");
                assert!(a > b || r.to_user(i - 1) < r.to_user(i), "{name}: equal degrees out of id order");
            }
        }
    }

    #[test]
    fn bfs_order_is_the_serial_searchs_in_parallel_too() {
        for (name, g) in graphs() {
            let want = serial_bfs(&g);
            // Every level serially, every level in parallel, and the default mix.
            for par in [u64::MAX, 0, 1, PARALLEL_LEVEL_ARCS] {
                assert_eq!(bfs_order(&g, par).unwrap(), want, "{name}, parallel from {par} arcs");
            }
            let r = g.relabelled(Order::Bfs).unwrap();
            assert!((0..g.num_vertices() as u32).all(|i| r.to_user(i) == want[i as usize]), "{name}");
        }
        // Parallel arcs and self loops at the hub of a star: each head placed once.
        let mut e = EdgeList::with_capacity(5, 12);
        for v in [3, 1, 3, 0, 4, 2, 1, 4] {
            e.push(0, v, 1);
        }
        e.push(4, 2, 1);
        let g = e.into_graph_as_given().unwrap();
        assert_eq!(bfs_order(&g, 0).unwrap(), vec![0, 3, 1, 4, 2]);
    }

    #[test]
    fn maps_take_user_ids_and_give_them_back() {
        let g = generate(&GenSpec::parse("kron:8").unwrap(), 1, WeightSpec::AsGiven).unwrap();
        let n = g.num_vertices() as u32;
        for order in Order::ALL {
            let r = g.relabelled(order).unwrap();
            assert!(matches!(r.to_internal(n), Err(Error::VertexOutOfRange { vertex, .. }) if vertex == n as u64));
            let src = crate::reference::pick_sources(&g, 1, 5)[0];
            let want = crate::reference::dijkstra(&g, src).unwrap();
            let got = crate::reference::dijkstra(r.graph(), r.to_internal(src).unwrap()).unwrap();
            assert_eq!(r.distances_to_user(&got).unwrap(), want, "{order}");
            // The tree on the relabelled graph, in user ids, is a tree of `g`.
            let parents = crate::tree::predecessors(r.graph(), r.to_internal(src).unwrap(), &got).unwrap();
            let user = r.parents_to_user(&parents).unwrap();
            crate::verify::check_tree(&g, src, &want, &user).unwrap();
            assert_eq!(user[src as usize], NO_VERTEX);
            assert!(matches!(r.distances_to_user(&got[1..]), Err(Error::InvalidArgument(_))));
            let mut bad = parents.clone();
            bad[0] = n;
            assert!(matches!(r.parents_to_user(&bad), Err(Error::VertexOutOfRange { .. })));
        }
    }

    #[test]
    fn names_parse_and_print() {
        for o in Order::ALL {
            assert_eq!(o.to_string().parse::<Order>().unwrap(), o);
        }
        let e = "hubs".parse::<Order>().unwrap_err().to_string();
        assert!(e.contains("`hubs`") && e.contains("input, degree, bfs"), "{e}");
        assert_eq!(Order::default(), Order::Input);
    }

    #[test]
    fn empty_and_arcless_graphs() {
        for g in [Graph::from_arcs(0, &[]).unwrap(), Graph::from_arcs(5, &[]).unwrap()] {
            for order in Order::ALL {
                check_isomorphic(&g, &g.relabelled(order).unwrap());
            }
        }
    }
}
