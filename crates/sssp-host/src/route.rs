//! Road routing on a contraction hierarchy: point-to-point shortest paths and distance tables,
//! on the hierarchy PHAST sweeps ([`crate::hierarchy`]).
//!
//! **Point to point** ([`Router::route`], [`Router::distance`]): the bidirectional upward search
//! of Geisberger, Sanders, Schultes and Delling ("Contraction Hierarchies: Faster and Simpler
//! Hierarchical Routing in Road Networks", WEA 2008). A forward Dijkstra from the source over
//! the arcs to higher-ranked vertices and a backward one from the target over the arcs from
//! higher-ranked vertices (the sweep's downward in-arcs, read backwards) meet at the top of the
//! path: contraction keeps a shortest path of every pair that goes up in rank, then down. Each
//! search stops once its least key reaches the best meeting found, which is exact: the top of
//! an optimal path has both of its distances below that bound, so both searches settle it.
//! On a road graph each side settles a few hundred vertices; a search is microseconds, so it
//! runs on the host's threads, never as a device launch, and many pairs run on every core.
//!
//! **The core.** A hierarchy whose contraction stopped at a dense core keeps the core's arcs
//! (both searches go on through them: the forward search over the core's out-arcs, the backward
//! one over their reverse, built here) or, for a core of at most [`crate::hierarchy::CORE_TABLE`]
//! vertices, its all-pairs table: then both searches stop at the core (its first vertices on
//! the path, the *entries*, are settled exactly by upward arcs alone) and the best pair of
//! entries is read from the table, forward entries and backward ones each in increasing
//! distance, so that a pair is left as soon as its two distances alone reach the best.
//!
//! **Unpacking.** A shortcut `u -> x` of weight `w` stands for `u -> v -> x` through a vertex `v`
//! contracted before both, with `w(u, v) + w(v, x) = w`: `u` is among the tails of `v`'s
//! downward in-arcs and `x` among the heads of its upward arcs. Rather than a middle vertex per
//! shortcut in the hierarchy (its build and file untouched), the router keeps each vertex's
//! *lower* out-neighbours (the downward arcs read by tail) and finds `v` there when it unpacks:
//! an arc of the graph of exactly that weight ends the recursion, and each step goes to a vertex
//! of a lower level, so it ends on any hierarchy that the file reader accepted. The path comes
//! out without repeated vertices (a zero-weight cycle that two shortcuts' expansions could close
//! is cut out; its weight is 0, so the length stays the shortest).
//!
//! **Tables** ([`table`]): the many-to-many bucket algorithm on the host, and RPHAST on a device
//! ([`rphast`]).
//!
//! Distances are summed in 64 bits; an arc whose weight did not fit below `INF` when the
//! hierarchy was built is never relaxed, and a query that met one and found no path (or a path
//! of `INF` or more) is [`Error::DistanceOverflow`] rather than a wrong answer.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::{Arc, Mutex};

use sssp_kernels::INF;

use crate::error::{Error, Result};
use crate::graph::Graph;
use crate::hierarchy::Hierarchy;
use crate::mem::try_vec;

pub mod rphast;
pub mod table;

/// No vertex (not swept, no parent, no table row).
const NONE: u32 = u32::MAX;

/// A distance not reached.
const FAR: u64 = u64::MAX;

/// Rows of arcs by vertex: `offsets[v]..offsets[v + 1]` are `v`'s (other end, weight).
#[derive(Debug, Default)]
struct Adj {
    offsets: Vec<u64>,
    ends: Vec<u32>,
    weights: Vec<u32>,
}

impl Adj {
    /// The arcs `(row, end, weight)` given by `arcs` (called twice: count, then fill), as rows
    /// of `n` vertices.
    fn of<I: Iterator<Item = (u32, u32, u32)>>(n: usize, arcs: impl Fn() -> I) -> Result<Adj> {
        let mut offsets = try_vec(n + 1, 0u64)?;
        let mut total = 0usize;
        for (r, _, _) in arcs() {
            offsets[r as usize + 1] += 1;
            total += 1;
        }
        for v in 0..n {
            offsets[v + 1] += offsets[v];
        }
        let (mut ends, mut weights) = (try_vec(total, 0u32)?, try_vec(total, 0u32)?);
        let mut at: Vec<u64> = crate::mem::try_to_vec(&offsets[..n])?;
        for (r, e, w) in arcs() {
            let k = at[r as usize] as usize;
            ends[k] = e;
            weights[k] = w;
            at[r as usize] += 1;
        }
        Ok(Adj { offsets, ends, weights })
    }

    fn row(&self, v: u32) -> impl Iterator<Item = (u32, u32)> + '_ {
        let (s, e) = (self.offsets[v as usize] as usize, self.offsets[v as usize + 1] as usize);
        self.ends[s..e].iter().copied().zip(self.weights[s..e].iter().copied())
    }
}

/// A contraction hierarchy made ready for point-to-point queries and tables (see the module
/// doc): the hierarchy, each vertex's sweep position and level, the core's reversed arcs, the
/// downward arcs by tail, and a pool of search states, one per thread that queries at once.
///
/// ```
/// use std::sync::Arc;
/// use sssp::graph::Graph;
/// use sssp::hierarchy::Hierarchy;
/// use sssp::route::Router;
/// // 0 -> 1 -> 2 -> 3, and a longer 0 -> 3.
/// let g = Graph::from_arcs(4, &[(0, 1, 2), (1, 2, 2), (2, 3, 2), (0, 3, 9)])?;
/// let router = Router::new(Arc::new(Hierarchy::build(&g)?))?;
/// assert_eq!(router.route(&g, 0, 3)?, Some((6, vec![0, 1, 2, 3])));
/// assert_eq!(router.distance(3, 0)?, None);
/// # Ok::<(), sssp::Error>(())
/// ```
pub struct Router {
    h: Arc<Hierarchy>,
    /// Sweep position of each vertex (`NONE`: in the core).
    pos: Vec<u32>,
    /// Level of each vertex counted from the bottom (the core: `u32::MAX`), for unpacking.
    level: Vec<u32>,
    /// The core's arcs reversed: each core vertex's in-arcs from the core (searched backwards
    /// when the core has no table).
    core_in: Adj,
    /// The downward arcs by tail: `u`'s lower out-neighbours (for unpacking).
    lower_out: Adj,
    /// Table row of each vertex (`NONE`: not in the core, or the core has no table).
    row: Vec<u32>,
    /// Search states not in use.
    pool: Mutex<Vec<Search>>,
}

impl std::fmt::Debug for Router {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Router").field("hierarchy", &self.h.stats).finish()
    }
}

/// One direction's Dijkstra state, kept between queries (reset over what it touched).
#[derive(Default)]
struct Side {
    dist: Vec<u64>,
    parent: Vec<u32>,
    touched: Vec<u32>,
    heap: BinaryHeap<Reverse<(u64, u32)>>,
    /// Vertices settled and not stalled, in order, with their distances (core entries
    /// included).
    settled: Vec<(u64, u32)>,
    /// With a core table: the core vertices settled (not expanded), with their distances.
    entries: Vec<(u64, u32)>,
    /// An arc too heavy to relax (stored as `INF`) was met.
    overflow: bool,
}

impl Side {
    fn new(n: usize) -> Result<Side> {
        Ok(Side { dist: try_vec(n, FAR)?, parent: try_vec(n, NONE)?, ..Side::default() })
    }

    /// Forget the last search and start one from `v`.
    fn start(&mut self, v: u32) {
        for &t in &self.touched {
            self.dist[t as usize] = FAR;
            self.parent[t as usize] = NONE;
        }
        self.touched.clear();
        self.heap.clear();
        self.settled.clear();
        self.entries.clear();
        self.overflow = false;
        self.dist[v as usize] = 0;
        self.touched.push(v);
        self.heap.push(Reverse((0, v)));
    }

    /// The least key queued (a lower bound of every vertex not yet settled), `FAR` when none.
    fn min_key(&self) -> u64 {
        self.heap.peek().map_or(FAR, |r| r.0 .0)
    }

    /// Lower `x` to `d` through `from`.
    fn relax(&mut self, from: u32, x: u32, w: u32, d: u64) {
        if w == INF {
            self.overflow = true;
            return;
        }
        let c = d + w as u64;
        let old = self.dist[x as usize];
        if c < old {
            if old == FAR {
                self.touched.push(x);
            }
            self.dist[x as usize] = c;
            self.parent[x as usize] = from;
            self.heap.push(Reverse((c, x)));
        }
    }
}

/// A query's two sides.
struct Search {
    fwd: Side,
    bwd: Side,
}

/// Where the best path found meets.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Via {
    None,
    /// At a vertex both searches reached.
    Vertex(u32),
    /// Forward entry, then the core (its table), then backward entry.
    Core(u32, u32),
}

impl Router {
    /// `h` made ready for queries (see the struct doc). Errors: [`Error::OutOfHostMemory`].
    pub fn new(h: Arc<Hierarchy>) -> Result<Router> {
        let n = h.num_vertices() as usize;
        let sg = h.sweep_graph();
        let mut pos = try_vec(n, NONE)?;
        let mut level = try_vec(n, u32::MAX)?;
        let levels = sg.level_starts.len().saturating_sub(1);
        for k in 0..levels {
            for p in sg.level_starts[k]..sg.level_starts[k + 1] {
                pos[sg.order[p as usize] as usize] = p;
                level[sg.order[p as usize] as usize] = (levels - 1 - k) as u32;
            }
        }
        let (uo, uh, uw) = h.upward_graph();
        let core: Vec<u32> = (0..n as u32).filter(|&v| pos[v as usize] == NONE).collect();
        let core_in = Adj::of(n, || {
            core.iter().flat_map(move |&v| {
                let (s, e) = (uo[v as usize] as usize, uo[v as usize + 1] as usize);
                (s..e).map(move |k| (uh[k], v, uw[k]))
            })
        })?;
        let (order, offsets, tails, weights) = (sg.order, sg.offsets, sg.tails, sg.weights);
        let lower_out = Adj::of(n, || {
            (0..order.len()).flat_map(move |p| {
                let v = order[p];
                (offsets[p] as usize..offsets[p + 1] as usize).map(move |k| (tails[k], v, weights[k]))
            })
        })?;
        let mut row = Vec::new();
        if !sg.core.is_empty() {
            row = try_vec(n, NONE)?;
            for (i, &c) in sg.core.iter().enumerate() {
                row[c as usize] = i as u32;
            }
        }
        Ok(Router { h, pos, level, core_in, lower_out, row, pool: Mutex::new(Vec::new()) })
    }

    /// The hierarchy.
    pub fn hierarchy(&self) -> &Arc<Hierarchy> {
        &self.h
    }

    /// Vertices of the graph.
    pub fn num_vertices(&self) -> u32 {
        self.h.num_vertices()
    }

    fn check(&self, v: u32) -> Result<()> {
        match v < self.num_vertices() {
            true => Ok(()),
            false => Err(Error::VertexOutOfRange { vertex: v as u64, num_vertices: self.num_vertices() as u64 }),
        }
    }

    /// Whether the core has a table (the searches then stop at the core).
    fn tabled(&self) -> bool {
        !self.row.is_empty()
    }

    /// Run `f` with a search state of this thread's (from the pool, or a new one).
    fn with_search<R>(&self, f: impl FnOnce(&mut Search) -> R) -> Result<R> {
        let taken = self.pool.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let mut s = match taken {
            Some(s) => s,
            None => {
                let n = self.num_vertices() as usize;
                Search { fwd: Side::new(n)?, bwd: Side::new(n)? }
            }
        };
        let r = f(&mut s);
        self.pool.lock().unwrap_or_else(|e| e.into_inner()).push(s);
        Ok(r)
    }

    /// Settle the next vertex of `side` (forward: over upward arcs; backward: over downward
    /// in-arcs), or `None` when its queue is empty. A core vertex of a tabled core is an entry:
    /// settled, not expanded.
    fn settle(&self, side: &mut Side, forward: bool) -> Option<(u64, u32)> {
        let (d, v) = loop {
            let Reverse((d, v)) = side.heap.pop()?;
            if d == side.dist[v as usize] {
                break (d, v);
            }
        };
        let p = self.pos[v as usize];
        if p != NONE && self.stalled(side, v, p, d, forward) {
            return Some((d, v));
        }
        side.settled.push((d, v));
        if p == NONE && self.tabled() {
            side.entries.push((d, v));
            return Some((d, v));
        }
        if forward {
            let (uo, uh, uw) = self.h.upward_graph();
            for k in uo[v as usize] as usize..uo[v as usize + 1] as usize {
                side.relax(v, uh[k], uw[k], d);
            }
        } else if p == NONE {
            for (u, w) in self.core_in.row(v) {
                side.relax(v, u, w, d);
            }
        } else {
            let sg = self.h.sweep_graph();
            for k in sg.offsets[p as usize] as usize..sg.offsets[p as usize + 1] as usize {
                side.relax(v, sg.tails[k], sg.weights[k], d);
            }
        }
        Some((d, v))
    }

    /// Stall-on-demand (Geisberger et al. 2008, §4.2): `v` (swept, at position `p`) reached at
    /// `d` is not expanded when a higher neighbour already gives it less (forward: a tail of its
    /// downward in-arcs; backward: a head of its upward arcs). Such a `v` is on no shortest
    /// path's upward part (there every distance is exact), so the search loses nothing; on NY
    /// it settles several times fewer vertices.
    fn stalled(&self, side: &Side, v: u32, p: u32, d: u64, forward: bool) -> bool {
        let below = |x: u32, w: u32| w != INF && side.dist[x as usize] != FAR && side.dist[x as usize] + (w as u64) < d;
        if forward {
            let sg = self.h.sweep_graph();
            let (s, e) = (sg.offsets[p as usize] as usize, sg.offsets[p as usize + 1] as usize);
            sg.tails[s..e].iter().zip(&sg.weights[s..e]).any(|(&u, &w)| below(u, w))
        } else {
            let (uo, uh, uw) = self.h.upward_graph();
            (uo[v as usize] as usize..uo[v as usize + 1] as usize).any(|k| below(uh[k], uw[k]))
        }
    }

    /// The bidirectional search from `s` to `t` on `q`: the best length and where it meets.
    fn meet(&self, q: &mut Search, s: u32, t: u32) -> (u64, Via) {
        q.fwd.start(s);
        q.bwd.start(t);
        let (mut best, mut via) = (FAR, Via::None);
        loop {
            let (kf, kb) = (q.fwd.min_key(), q.bwd.min_key());
            if kf >= best && kb >= best {
                break;
            }
            let forward = kf < best && (kf <= kb || kb >= best);
            let (side, other) = if forward { (&mut q.fwd, &q.bwd) } else { (&mut q.bwd, &q.fwd) };
            let Some((d, v)) = self.settle(side, forward) else { continue };
            let o = other.dist[v as usize];
            if o != FAR && d + o < best {
                (best, via) = (d + o, Via::Vertex(v));
            }
        }
        if self.tabled() {
            self.through_core(q, &mut best, &mut via);
        }
        (best, via)
    }

    /// Lower `best` through the core's table: the least forward entry + table + backward entry,
    /// each list in increasing distance so that the scans stop where their distances alone
    /// reach `best`.
    fn through_core(&self, q: &mut Search, best: &mut u64, via: &mut Via) {
        let sg = self.h.sweep_graph();
        let c = sg.core.len();
        q.fwd.entries.sort_unstable();
        q.bwd.entries.sort_unstable();
        let Some(&(least_b, _)) = q.bwd.entries.first() else { return };
        for &(df, cf) in &q.fwd.entries {
            if df + least_b >= *best {
                break;
            }
            let row = &sg.table[self.row[cf as usize] as usize * c..][..c];
            for &(db, cb) in &q.bwd.entries {
                if df + db >= *best {
                    break;
                }
                let w = row[self.row[cb as usize] as usize];
                if w != INF && df + w as u64 + db < *best {
                    *best = df + w as u64 + db;
                    *via = Via::Core(cf, cb);
                }
            }
        }
    }

    /// The distance from `s` to `t` (`None`: no path). Errors: [`Error::VertexOutOfRange`],
    /// [`Error::DistanceOverflow`] (see the module doc), [`Error::OutOfHostMemory`].
    pub fn distance(&self, s: u32, t: u32) -> Result<Option<u64>> {
        self.check(s)?;
        self.check(t)?;
        self.with_search(|q| {
            let (best, _) = self.meet(q, s, t);
            overflow_check(q, t, best)
        })?
    }

    /// A shortest path from `s` to `t` (both included) and its length, `None` when there is
    /// none. Errors as [`Router::distance`], and [`Error::InvalidArgument`] for a hierarchy
    /// that is not of `g` (an arc that unpacks to nothing in `g`).
    pub fn route(&self, g: &Graph, s: u32, t: u32) -> Result<Option<(u64, Vec<u32>)>> {
        self.check(s)?;
        self.check(t)?;
        if g.num_vertices() != self.num_vertices() as usize {
            return Err(Error::InvalidArgument(format!(
                "a hierarchy of a {}-vertex graph asked for a path in one of {}",
                self.num_vertices(),
                g.num_vertices()
            )));
        }
        self.with_search(|q| {
            let (best, via) = self.meet(q, s, t);
            let Some(d) = overflow_check(q, t, best)? else { return Ok(None) };
            let arcs = self.hierarchy_arcs(q, via)?;
            Ok(Some((d, self.unpack(g, s, &arcs)?)))
        })?
    }

    /// The hierarchy's arcs of the path found: forward tree to the meeting, the core's part
    /// (a Dijkstra over its arcs between the two entries), backward tree to the target.
    fn hierarchy_arcs(&self, q: &Search, via: Via) -> Result<Vec<(u32, u32, u64)>> {
        let (up_to, down_from) = match via {
            Via::Vertex(v) => (v, v),
            Via::Core(a, b) => (a, b),
            Via::None => return Ok(Vec::new()),
        };
        let mut arcs = Vec::new();
        let mut v = up_to;
        while q.fwd.parent[v as usize] != NONE {
            let p = q.fwd.parent[v as usize];
            arcs.push((p, v, q.fwd.dist[v as usize] - q.fwd.dist[p as usize]));
            v = p;
        }
        arcs.reverse();
        if up_to != down_from {
            arcs.extend(self.core_path(up_to, down_from)?);
        }
        let mut v = down_from;
        while q.bwd.parent[v as usize] != NONE {
            let p = q.bwd.parent[v as usize];
            arcs.push((v, p, q.bwd.dist[v as usize] - q.bwd.dist[p as usize]));
            v = p;
        }
        Ok(arcs)
    }

    /// A shortest path from core vertex `a` to core vertex `b` over the core's arcs, as arcs.
    fn core_path(&self, a: u32, b: u32) -> Result<Vec<(u32, u32, u64)>> {
        let mut side = Side::new(self.num_vertices() as usize)?;
        side.start(a);
        let (uo, uh, uw) = self.h.upward_graph();
        while let Some(Reverse((d, v))) = side.heap.pop() {
            if d != side.dist[v as usize] {
                continue;
            }
            if v == b {
                break;
            }
            for k in uo[v as usize] as usize..uo[v as usize + 1] as usize {
                side.relax(v, uh[k], uw[k], d);
            }
        }
        if side.dist[b as usize] == FAR {
            return Err(inconsistent(a, b, 0));
        }
        let mut arcs = Vec::new();
        let mut v = b;
        while v != a {
            let p = side.parent[v as usize];
            arcs.push((p, v, side.dist[v as usize] - side.dist[p as usize]));
            v = p;
        }
        arcs.reverse();
        Ok(arcs)
    }

    /// The vertices of `arcs` (hierarchy arcs from `s`, consecutive) unpacked into arcs of `g`,
    /// from `s`, with any repeated vertex's loop cut out.
    fn unpack(&self, g: &Graph, s: u32, arcs: &[(u32, u32, u64)]) -> Result<Vec<u32>> {
        let mut path = vec![s];
        let mut at = std::collections::HashMap::from([(s, 0usize)]);
        // Each step goes down a level, so a hierarchy the reader accepted unpacks in finitely
        // many; this bound only stops a crafted one early.
        let mut budget = 64 * g.num_vertices() as u64 + 1024;
        let mut stack = Vec::new();
        for &arc in arcs.iter().rev() {
            stack.push(arc);
        }
        while let Some((u, x, w)) = stack.pop() {
            budget = budget.checked_sub(1).ok_or_else(|| inconsistent(u, x, w))?;
            if original(g, u, x, w) {
                match at.get(&x) {
                    Some(&i) => {
                        for v in path.drain(i + 1..) {
                            at.remove(&v);
                        }
                    }
                    None => {
                        at.insert(x, path.len());
                        path.push(x);
                    }
                }
                continue;
            }
            let (v, w1) = self.middle(u, x, w).ok_or_else(|| inconsistent(u, x, w))?;
            stack.push((v, x, w - w1));
            stack.push((u, v, w1));
        }
        Ok(path)
    }

    /// A vertex `v` below `u` and `x` with arcs `u -> v` and `v -> x` in the hierarchy whose
    /// weights sum to `w`, and the first's weight.
    fn middle(&self, u: u32, x: u32, w: u64) -> Option<(u32, u64)> {
        let (uo, uh, uw) = self.h.upward_graph();
        let lx = self.level[x as usize];
        for (v, w1) in self.lower_out.row(u) {
            let w1 = w1 as u64;
            if w1 > w || self.level[v as usize] >= lx || self.level[v as usize] >= self.level[u as usize] {
                continue;
            }
            let hit = (uo[v as usize] as usize..uo[v as usize + 1] as usize)
                .any(|k| uh[k] == x && uw[k] != INF && w1 + uw[k] as u64 == w);
            if hit {
                return Some((v, w1));
            }
        }
        None
    }

    /// Each of `pairs` answered on all of rayon's threads, with its path when `unpack` (else
    /// the distance alone, and an empty path), and the time each took. Errors as
    /// [`Router::route`], for the first pair that fails.
    pub fn route_many(&self, g: &Graph, pairs: &[(u32, u32)], unpack: bool) -> Result<Vec<Routed>> {
        use rayon::prelude::*;
        pairs
            .par_iter()
            .map(|&(s, t)| {
                let started = std::time::Instant::now();
                let found = if unpack { self.route(g, s, t)? } else { self.distance(s, t)?.map(|d| (d, Vec::new())) };
                Ok(Routed { found, took: started.elapsed() })
            })
            .collect()
    }
}

/// One pair's answer from [`Router::route_many`].
#[derive(Clone, Debug)]
pub struct Routed {
    /// The distance and the path (empty when not unpacked), `None` when there is no path.
    pub found: Option<(u64, Vec<u32>)>,
    /// Its query's time, on one thread.
    pub took: std::time::Duration,
}

/// The answer `best` to `t` after search `q`: `None` when there is no path, or
/// [`Error::DistanceOverflow`] when an arc too heavy to relax was met and the answer is none or
/// does not fit below `INF` (the path may go through that arc).
fn overflow_check(q: &Search, t: u32, best: u64) -> Result<Option<u64>> {
    let overflow = q.fwd.overflow || q.bwd.overflow;
    match best {
        FAR if overflow => Err(Error::DistanceOverflow { vertex: t, bits: 32 }),
        FAR => Ok(None),
        d if d >= INF as u64 && overflow => Err(Error::DistanceOverflow { vertex: t, bits: 32 }),
        d => Ok(Some(d)),
    }
}

/// Whether `g` has an arc `u -> x` of weight exactly `w`.
fn original(g: &Graph, u: u32, x: u32, w: u64) -> bool {
    let (targets, weights) = (g.targets(), g.engine_weights());
    g.arc_range(u).any(|e| targets[e] == x && weights[e] as u64 == w)
}

fn inconsistent(u: u32, x: u32, w: u64) -> Error {
    Error::InvalidArgument(format!(
        "the hierarchy's arc {u} -> {x} (weight {w}) is neither an arc of the graph nor two arcs of the \
         hierarchy: the hierarchy was not built from this graph"
    ))
}

#[cfg(test)]
mod tests;
