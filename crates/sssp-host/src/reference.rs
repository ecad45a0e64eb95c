//! Serial reference algorithms: Dijkstra (non-negative weights) and queue-based Bellman-Ford
//! (any weights, with negative-cycle detection), plus source checking and GAP-style source
//! picking. These are the answers every parallel strategy is compared against, so they favour
//! obvious correctness over speed.
//!
//! Dijkstra uses `std::collections::BinaryHeap` of `Reverse((dist, vertex))` with lazy deletion:
//! a vertex is pushed again whenever its tentative distance strictly improves, and a popped
//! entry whose distance is larger than the vertex's current one is stale and skipped. Pops come
//! in non-decreasing distance order, so the first non-stale pop of a vertex settles it.
//! Distances are kept in `u64`: a settled distance is at most `i64::MAX - 1` (checked when it is
//! settled, else [`Error::DistanceOverflow`]) and weights are below 2^32, so `d + w` cannot
//! overflow, and the overflow check is exact: it fires only when a *shortest* distance does not
//! fit a [`Dist`] (a longer, overflowing detour that is later improved is not an error).
//!
//! Bellman-Ford is the FIFO label-correcting method (SPFA): a vertex is queued when its distance
//! improves and is not already queued. Each label carries the number of arcs of the walk that
//! produced it; that walk's labels strictly decreased along any repeated vertex, so a label of
//! `n` or more arcs proves a negative cycle reachable from the source, and a reachable negative
//! cycle makes labels grow without bound, so detection is sound and complete. The cycle is then
//! found by walking predecessor pointers (cycles in the predecessor graph are negative).
//! Labels are `i128` so no intermediate sum can overflow; results that do not fit a [`Dist`]
//! are [`Error::DistanceOverflow`]. Negative cycles the source cannot reach are never visited
//! and are not an error.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use crate::error::{Error, Result};
use crate::graph::{Graph, Metric, NO_VERTEX};
use crate::mem;
use crate::rng::Rng;
use crate::{Dist, UNREACHED};
use sssp_kernels::relax::candidate;

/// Largest finite distance ([`UNREACHED`] is `i64::MAX`).
const MAX_FINITE: i64 = i64::MAX - 1;

/// Width named in [`Error::DistanceOverflow`]: distances are `i64`.
const DIST_BITS: u32 = 64;

/// `Ok` if `src` is a vertex of `g`, else [`Error::VertexOutOfRange`]. O(1).
pub fn check_source(g: &Graph, src: u32) -> Result<()> {
    let n = g.num_vertices() as u64;
    if (src as u64) < n {
        Ok(())
    } else {
        Err(Error::VertexOutOfRange { vertex: src as u64, num_vertices: n })
    }
}

/// Work done by one Dijkstra run: the work-efficiency baseline for parallel strategies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DijkstraStats {
    /// Vertices settled (= vertices reachable from the source).
    pub settled: u64,
    /// Arcs scanned out of settled vertices (= out-arcs of reachable vertices).
    pub arcs_relaxed: u64,
}

/// Shortest distances from `src`, [`UNREACHED`] for vertices it cannot reach.
///
/// Preconditions: `src < n` ([`Error::VertexOutOfRange`]); all weights non-negative
/// ([`Error::NegativeWeight`]). A shortest distance above `i64::MAX - 1` is
/// [`Error::DistanceOverflow`]. Complexity: O((n + m) log m) time, O(n + m) memory (heap
/// entries are bounded by the number of improvements, at most m + 1).
///
/// # Examples
///
/// ```
/// use sssp::reference::dijkstra;
/// use sssp::{EdgeList, UNREACHED};
///
/// // 0 -> 1 costs 4 directly but 1 + 2 through vertex 2; vertex 3 has no in-arcs.
/// let mut e = EdgeList::with_capacity(4, 3);
/// e.push(0, 1, 4);
/// e.push(0, 2, 1);
/// e.push(2, 1, 2);
/// let g = e.into_graph_as_given()?;
/// assert_eq!(dijkstra(&g, 0)?, vec![0, 3, 1, UNREACHED]);
/// # Ok::<(), sssp::Error>(())
/// ```
pub fn dijkstra(g: &Graph, src: u32) -> Result<Vec<Dist>> {
    dijkstra_with_stats(g, src).map(|(dist, _)| dist)
}

/// [`dijkstra`], also returning how much work it did.
pub fn dijkstra_with_stats(g: &Graph, src: u32) -> Result<(Vec<Dist>, DijkstraStats)> {
    dijkstra_bounded(g, src, Bound::default())
}

/// Where a bounded Dijkstra may stop.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Bound {
    /// Settle nothing farther than this.
    pub cutoff: Option<u64>,
    /// Stop once this vertex is settled.
    pub target: Option<u32>,
}

/// [`dijkstra_with_stats`] that stops early: at the first vertex beyond the cutoff, or once the
/// target and the vertices tied with it are settled. Vertices it did not settle are [`UNREACHED`] (the distances of the
/// vertices it settled are exact: the answer to a cutoff query). Errors as [`dijkstra`]
/// (and [`Error::VertexOutOfRange`] for a target `>= n`).
pub fn dijkstra_bounded(g: &Graph, src: u32, bound: Bound) -> Result<(Vec<Dist>, DijkstraStats)> {
    dijkstra_from(g, &[src], bound)
}

/// Distances from the nearest of `sources` (all at 0; at least one, repeats allowed): the
/// reference for [`crate::strategy::many::solve_nearest`]. Errors as [`dijkstra`].
pub fn dijkstra_nearest(g: &Graph, sources: &[u32]) -> Result<Vec<Dist>> {
    dijkstra_from(g, sources, Bound::default()).map(|(d, _)| d)
}

/// [`dijkstra_bounded`] from a set of sources.
pub fn dijkstra_from(g: &Graph, sources: &[u32], bound: Bound) -> Result<(Vec<Dist>, DijkstraStats)> {
    if sources.is_empty() {
        return Err(Error::InvalidArgument("a run needs at least one source".into()));
    }
    for &src in sources {
        check_source(g, src)?;
    }
    if let Some(t) = bound.target {
        check_source(g, t)?;
    }
    let mut cutoff = bound.cutoff.unwrap_or(u64::MAX);
    let mut settled = Vec::new();
    let weights = g.unsigned_weights("dijkstra")?;
    let metric = g.metric();
    // Real weights: a sum past f32::MAX is dropped, as the engines drop it; it loses nothing
    // unless it was the only way to a vertex (every prefix of a finite rounded path sum is
    // finite), which is checked once at the end.
    let mut dropped = false;
    let (offsets, targets) = (g.offsets(), g.targets());
    let mut dist = mem::try_vec(g.num_vertices(), u64::MAX)?;
    let mut heap = BinaryHeap::new();
    let mut stats = DijkstraStats::default();
    for &src in sources {
        if dist[src as usize] != 0 {
            dist[src as usize] = 0;
            heap.push(Reverse((0u64, src)));
        }
    }
    while let Some(Reverse((d, u))) = heap.pop() {
        if d > dist[u as usize] {
            continue; // stale: u was settled with a smaller distance
        }
        if d > cutoff {
            break;
        }
        if d > MAX_FINITE as u64 {
            return Err(Error::DistanceOverflow { vertex: u, bits: DIST_BITS });
        }
        stats.settled += 1;
        settled.push(u);
        if bound.target == Some(u) {
            // Settle the target's ties too: the answer holds every vertex up to its distance.
            cutoff = cutoff.min(d);
        }
        let arcs = offsets[u as usize] as usize..offsets[u as usize + 1] as usize;
        stats.arcs_relaxed += arcs.len() as u64;
        for e in arcs {
            let v = targets[e];
            let nd = match metric {
                // d < 2^63 and w < 2^32: no overflow (see the module doc).
                Metric::Integer | Metric::Signed => d + weights[e] as u64,
                // Real distances are f32 bit patterns, added in f32 as on the engines.
                Metric::Real => match candidate(Metric::Real, d as u32, weights[e]) {
                    Some(c) => c as u64,
                    None => {
                        dropped = true;
                        continue;
                    }
                },
            };
            if nd < dist[v as usize] {
                dist[v as usize] = nd;
                heap.push(Reverse((nd, v)));
            }
        }
    }
    if dropped && bound == Bound::default() {
        if let Some(v) = overflow_victim(g, 1, |v| dist[v] != u64::MAX) {
            return Err(Error::DistanceOverflow { vertex: v, bits: 32 });
        }
    }
    let early = bound != Bound::default() && !heap.is_empty();
    let mut out: Vec<Dist> = dist.into_iter().map(|d| if d == u64::MAX { UNREACHED } else { d as Dist }).collect();
    if early {
        // Only settled vertices are final; the rest were only labelled.
        let mut keep = mem::try_vec(out.len(), false)?;
        for &v in &settled {
            keep[v as usize] = true;
        }
        for (d, k) in out.iter_mut().zip(keep) {
            if !k {
                *d = UNREACHED;
            }
        }
    }
    Ok((out, stats))
}

/// The rule behind every dropped-overflow check (the engines' and real-weighted Dijkstra's):
/// dropping a sum that does not fit never loses a distance that fits (every prefix of such a
/// path fits too), so a result is exact unless a vertex is unreached while an in-neighbour is
/// reached; that vertex's distance does not fit. `reached(i)` tells for entry `i = v * lanes +
/// j` (vertex `v` of run `j`); the first such vertex found, scanning tails then runs.
pub(crate) fn overflow_victim(g: &Graph, lanes: usize, reached: impl Fn(usize) -> bool) -> Option<u32> {
    for u in 0..g.num_vertices() as u32 {
        for j in 0..lanes {
            if !reached(u as usize * lanes + j) {
                continue;
            }
            if let Some((v, _)) = g.neighbors(u).find(|&(v, _)| !reached(v as usize * lanes + j)) {
                return Some(v);
            }
        }
    }
    None
}

/// Shortest distances from `src` for any integer weights, [`UNREACHED`] for vertices it cannot
/// reach.
///
/// Preconditions: `src < n` ([`Error::VertexOutOfRange`]). A negative cycle reachable from
/// `src` is [`Error::NegativeCycle`] naming a vertex on it (the smallest id on the cycle found);
/// a shortest distance outside `i64::MIN..=i64::MAX - 1` is [`Error::DistanceOverflow`].
/// Complexity: O(n m) time in the worst case (typically near-linear on sparse graphs),
/// O(n) memory (28 bytes per vertex).
pub fn bellman_ford(g: &Graph, src: u32) -> Result<Vec<Dist>> {
    bellman_ford_with_stats(g, src).map(|(dist, _)| dist)
}

/// Work done by one Bellman-Ford run, comparable with [`DijkstraStats`]: a vertex is scanned
/// each time it leaves the queue (possibly many times, unlike Dijkstra's once), and every scan
/// relaxes all its out-arcs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BellmanFordStats {
    /// Vertices taken from the queue and scanned (with repeats).
    pub scans: u64,
    /// Arcs relaxed by those scans.
    pub arcs_relaxed: u64,
}

/// [`bellman_ford`], also returning how much work it did.
pub fn bellman_ford_with_stats(g: &Graph, src: u32) -> Result<(Vec<Dist>, BellmanFordStats)> {
    check_source(g, src)?;
    if g.metric() == Metric::Real {
        // Real weights are never negative (see `Weights::Real`), so nothing needs this.
        return Err(Error::InvalidArgument(
            "bellman-ford takes integer weights; real weights are non-negative: use dijkstra or an engine \
             algorithm"
                .into(),
        ));
    }
    let mut stats = BellmanFordStats::default();
    let n = g.num_vertices();
    let (targets, weights) = (g.targets(), g.weights());
    let mut dist = mem::try_vec(n, i128::MAX)?;
    let mut hops = mem::try_vec(n, 0u32)?;
    let mut pred = mem::try_vec(n, NO_VERTEX)?;
    let mut queued = mem::try_vec(n, false)?;
    let mut queue = VecDeque::new();
    dist[src as usize] = 0;
    queued[src as usize] = true;
    queue.push_back(src);
    // Besides the hop count, look for a cycle of predecessors after n, 2n, 4n, ... scans: any
    // such cycle is negative (each predecessor arc was tight when set and its tail has only
    // fallen since, and the arc that closed it lowered a distance), and one shows up about a
    // lap after the distances start falling around a negative cycle, where the hop count needs
    // n / (cycle length) laps, each of which may re-relax the whole graph behind the cycle.
    // The looks cost O(n log(scans / n)) in all.
    let mut next_look = n.max(1) as u64;
    while let Some(u) = queue.pop_front() {
        queued[u as usize] = false;
        stats.scans += 1;
        if stats.scans >= next_look {
            next_look *= 2;
            if let Some(cycle) = parent_cycle(&pred, |_| true) {
                return Err(cycle_error(g, cycle));
            }
        }
        stats.arcs_relaxed += g.degree(u) as u64;
        let (du, hu) = (dist[u as usize], hops[u as usize]);
        for e in g.arc_range(u) {
            let v = targets[e] as usize;
            let nd = du + weights.get(e) as i128;
            if nd < dist[v] {
                dist[v] = nd;
                pred[v] = u;
                // hu < n <= u32::MAX, so this cannot overflow.
                hops[v] = hu + 1;
                if hops[v] as usize >= n {
                    return Err(negative_cycle(g, &pred, v as u32));
                }
                if !queued[v] {
                    queued[v] = true;
                    queue.push_back(v as u32);
                }
            }
        }
    }
    let dist = dist
        .into_iter()
        .enumerate()
        .map(|(v, d)| match d {
            i128::MAX => Ok(UNREACHED),
            d if d >= Dist::MIN as i128 && d <= MAX_FINITE as i128 => Ok(d as Dist),
            _ => Err(Error::DistanceOverflow { vertex: v as u32, bits: DIST_BITS }),
        })
        .collect::<Result<_>>()?;
    Ok((dist, stats))
}

/// The negative cycle behind a label of `n` arcs at `v`, as [`Error::NegativeCycle`]: walk
/// predecessors from `v` until a vertex repeats (it is on a cycle of the predecessor graph,
/// whose recorded arcs sum below zero), list the cycle in arc order from its smallest id (so
/// the answer does not depend on where the walk entered), and weigh it with the lightest of
/// any parallel arcs (no heavier than the recorded ones, so still negative). O(n + cycle arcs).
fn negative_cycle(g: &Graph, pred: &[u32], v: u32) -> Error {
    let mut seen = match mem::try_vec(pred.len(), false) {
        Ok(s) => s,
        Err(e) => return e,
    };
    let mut x = v;
    while x != NO_VERTEX && !seen[x as usize] {
        seen[x as usize] = true;
        x = pred[x as usize];
    }
    if x == NO_VERTEX {
        // Not expected (a label of n arcs comes from a cycle), but stay total.
        return Error::NegativeCycle { vertex: v, cycle: vec![v], weight: 0 };
    }
    // Walking predecessors lists the cycle backwards.
    let mut cycle = vec![x];
    let mut y = pred[x as usize];
    while y != x {
        cycle.push(y);
        y = pred[y as usize];
    }
    cycle.reverse();
    cycle_error(g, cycle)
}

/// `cycle` (arcs `cycle[i] -> cycle[i + 1]`) as [`Error::NegativeCycle`]: rotated to start at
/// its smallest id (so the answer does not depend on where a walk entered it), weighed with the
/// lightest of parallel arcs.
fn cycle_error(g: &Graph, mut cycle: Vec<u32>) -> Error {
    let first = (0..cycle.len()).min_by_key(|&i| cycle[i]).unwrap_or(0);
    cycle.rotate_left(first);
    let weight = cycle_weight(g, &cycle).unwrap_or(0);
    Error::NegativeCycle { vertex: cycle[0], cycle, weight }
}

/// A negative cycle that a snapshot of a run's distances already shows, if any: the engines'
/// early negative-cycle check, which spares a run on a graph with a reachable
/// negative cycle the `n` iterations of the Workfront bound.
///
/// `dist` are an engine's signed distance cells ([`Metric::encode_signed`], `u32::MAX`
/// unreached) between two iterations. A reached vertex `v` got its distance through some
/// in-arc `(u, v)` whose tail has only fallen since, so `d(u) + w(u, v) <= d(v)` holds for it.
/// Each reached vertex takes, among such in-arcs, one minimising `d(u) + w` as its parent.
/// Summing `d(v) - d(u) - w >= 0` around a cycle of parents shows it weighs at most 0: the
/// first negative one found is returned, as [`bellman_ford`] reports one (zero-weight cycles
/// are skipped). Every vertex on it is reached, so it is reachable from the run's sources.
/// Once the distances around a reachable negative cycle keep falling, its vertices are each
/// other's parents, and the check sees it; until then it finds nothing and costs nothing but
/// time, so it is safe to call at any point (the engines keep the `n`-iteration bound behind
/// it). O(n + m) time, 17 bytes per vertex ([`Error::OutOfHostMemory`] if they cannot be had).
pub fn negative_cycle_in(g: &Graph, dist: &[u32]) -> Option<Error> {
    let n = g.num_vertices();
    let d = |v: usize| (dist[v] != u32::MAX).then(|| Metric::decode_signed(dist[v]) as i64);
    // An allocation that fails is the answer too: the caller stops with it either way.
    let (mut best, mut parent) = match (mem::try_vec(n, i64::MAX), mem::try_vec(n, NO_VERTEX)) {
        (Ok(b), Ok(p)) => (b, p),
        (Err(e), _) | (_, Err(e)) => return Some(e),
    };
    for u in 0..n {
        let Some(du) = d(u) else { continue };
        for (v, w) in g.neighbors(u as u32) {
            let v = v as usize;
            if let Some(dv) = d(v) {
                let c = du + w;
                if c <= dv && c < best[v] {
                    (best[v], parent[v]) = (c, u as u32);
                }
            }
        }
    }
    parent_cycle(&parent, |cycle| cycle_weight(g, cycle).is_some_and(|w| w < 0)).map(|c| cycle_error(g, c))
}

/// The first cycle of a parent array (`NO_VERTEX`: no parent) that `keep` accepts, in arc
/// order (`cycle[i]` is the parent of `cycle[i + 1]`). O(n) plus `keep`'s work: parents are
/// walked from every vertex not seen yet, and a walk that meets its own path closes a cycle.
fn parent_cycle(parent: &[u32], mut keep: impl FnMut(&[u32]) -> bool) -> Option<Vec<u32>> {
    const NEW: u8 = 0;
    const ON_PATH: u8 = 1;
    const DONE: u8 = 2;
    let mut state = vec![NEW; parent.len()];
    let mut path = Vec::new();
    for s in 0..parent.len() {
        path.clear();
        let mut x = s as u32;
        while x != NO_VERTEX && state[x as usize] == NEW {
            state[x as usize] = ON_PATH;
            path.push(x);
            x = parent[x as usize];
        }
        if x != NO_VERTEX && state[x as usize] == ON_PATH {
            // The walk lists the cycle backwards, from the tail of its closing arc.
            let at = path.iter().position(|&p| p == x).expect("x is on the path");
            let mut cycle = path[at..].to_vec();
            cycle.reverse();
            if keep(&cycle) {
                return Some(cycle);
            }
        }
        for &p in &path {
            state[p as usize] = DONE;
        }
    }
    None
}

/// The total weight of `cycle` (arcs `cycle[i] -> cycle[i + 1]`, closing back to
/// `cycle[0]`) with the lightest of parallel arcs, or `None` if an arc is missing: how a
/// reported negative cycle is checked to be real.
pub fn cycle_weight(g: &Graph, cycle: &[u32]) -> Option<i64> {
    let mut total = 0i64;
    for (i, &u) in cycle.iter().enumerate() {
        let v = cycle[(i + 1) % cycle.len()];
        total += g.neighbors(u).filter(|&(t, _)| t == v).map(|(_, w)| w).min()?;
    }
    Some(total)
}

/// How many random draws [`pick_sources`] makes before falling back to a scan.
const SOURCE_TRIES: usize = 64;

/// `count` source vertices in the GAP benchmark's style: uniform random vertices with at least
/// one out-arc, from `Rng::new(seed)`, so a run is replayable and the first `k` sources are the
/// same for any `count >= k`. Repeats are possible (as in GAP).
///
/// Never fails: if the graph has no arc at all, every source is vertex 0; an empty graph (no
/// vertices) gives an empty list. If 64 draws in a row hit vertices without arcs (graphs where
/// almost every vertex is isolated), the source is the next vertex with an arc after the last
/// draw, cyclically. Complexity: O(count) expected, O(count * n) worst case.
pub fn pick_sources(g: &Graph, count: usize, seed: u64) -> Vec<u32> {
    let n = g.num_vertices() as u64;
    if n == 0 {
        return Vec::new();
    }
    if g.num_arcs() == 0 {
        return vec![0; count];
    }
    let mut rng = Rng::new(seed);
    (0..count).map(|_| pick_one(g, n, &mut rng)).collect()
}

fn pick_one(g: &Graph, n: u64, rng: &mut Rng) -> u32 {
    let mut v = 0u32;
    for _ in 0..SOURCE_TRIES {
        v = rng.below(n) as u32;
        if g.degree(v) > 0 {
            return v;
        }
    }
    // The graph has an arc (checked by the caller), so the scan finds a vertex.
    (0..n).map(|k| ((v as u64 + k) % n) as u32).find(|&u| g.degree(u) > 0).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(n: u32, arcs: &[(u32, u32, i64)]) -> Graph {
        Graph::from_arcs(n, arcs).unwrap()
    }

    const INF: Dist = UNREACHED;

    /// Engine cells for signed distances (`None`: unreached).
    fn cells(d: &[Option<i32>]) -> Vec<u32> {
        d.iter().map(|x| x.map_or(u32::MAX, Metric::encode_signed)).collect()
    }

    #[test]
    fn snapshots_show_negative_cycles_and_nothing_else() {
        // 0 -> 1 -> 2 -> 3 -> 1 weighs -1 around 1, 2, 3 (3 -> 1 weighs -4); 4 hangs off 3.
        let g = graph(5, &[(0, 1, 1), (1, 2, 1), (2, 3, 2), (3, 1, -4), (3, 4, 7)]);
        // Mid-run: the cycle has been lapped once (1 fell from 1 to 0 through 3).
        let mid = cells(&[Some(0), Some(0), Some(2), Some(4), Some(11)]);
        match negative_cycle_in(&g, &mid) {
            Some(Error::NegativeCycle { vertex: 1, cycle, weight: -1 }) => assert_eq!(cycle, vec![1, 2, 3]),
            other => panic!("{other:?}"),
        }
        // Already when 3 is reached, its arc back to 1 beats 1's distance: the cycle shows.
        let reached = cells(&[Some(0), Some(1), Some(2), Some(4), None]);
        assert!(matches!(negative_cycle_in(&g, &reached), Some(Error::NegativeCycle { vertex: 1, .. })));
        // Before that, the parents form a tree: nothing to report yet.
        let early = cells(&[Some(0), Some(1), Some(2), None, None]);
        assert!(negative_cycle_in(&g, &early).is_none());
        // Final distances of a graph without a negative cycle, zero-weight cycles and negative
        // arcs included, never show one; nor do unreached vertices on a negative cycle.
        let g = graph(6, &[(0, 1, 3), (1, 2, 0), (2, 1, 0), (1, 3, -2), (3, 0, 5), (4, 5, -1), (5, 4, -1)]);
        let dist = bellman_ford(&g, 0).unwrap();
        let done: Vec<Option<i32>> = dist.iter().map(|&d| (d != UNREACHED).then_some(d as i32)).collect();
        assert!(negative_cycle_in(&g, &cells(&done)).is_none());
        let stale = cells(&[Some(0), Some(3), Some(3), Some(1), Some(-7), Some(-8)]);
        assert!(matches!(negative_cycle_in(&g, &stale), Some(Error::NegativeCycle { vertex: 4, weight: -2, .. })));
    }

    #[test]
    fn dijkstra_on_a_small_graph() {
        // 0 -> 1 (4), 0 -> 2 (1), 2 -> 1 (2), 1 -> 3 (5), 2 -> 3 (8), 4 isolated, self loop on 3.
        let g = graph(5, &[(0, 1, 4), (0, 2, 1), (2, 1, 2), (1, 3, 5), (2, 3, 8), (3, 3, 0)]);
        let (d, stats) = dijkstra_with_stats(&g, 0).unwrap();
        assert_eq!(d, vec![0, 3, 1, 8, INF]);
        assert_eq!(stats, DijkstraStats { settled: 4, arcs_relaxed: 6 });
        assert_eq!(bellman_ford(&g, 0).unwrap(), d);
        assert_eq!(dijkstra(&g, 4).unwrap(), vec![INF, INF, INF, INF, 0]);
    }

    #[test]
    fn zero_weights_and_multi_edges() {
        let g = graph(4, &[(0, 1, 0), (1, 0, 0), (1, 2, 7), (1, 2, 3), (2, 3, 0), (3, 1, 0)]);
        assert_eq!(dijkstra(&g, 0).unwrap(), vec![0, 0, 3, 3]);
        assert_eq!(bellman_ford(&g, 0).unwrap(), vec![0, 0, 3, 3]);
    }

    #[test]
    fn errors() {
        let g = graph(3, &[(0, 1, 1), (1, 2, -1)]);
        assert!(matches!(dijkstra(&g, 0), Err(Error::NegativeWeight { from: 1, to: 2, weight: -1, .. })));
        assert!(matches!(dijkstra(&g, 3), Err(Error::VertexOutOfRange { vertex: 3, num_vertices: 3 })));
        assert!(matches!(bellman_ford(&g, 7), Err(Error::VertexOutOfRange { vertex: 7, .. })));
        assert!(check_source(&g, 2).is_ok());
    }

    #[test]
    fn bellman_ford_with_negative_weights() {
        // The cheapest way to 3 goes through the negative arc 2 -> 1.
        let g = graph(5, &[(0, 1, 5), (0, 2, 2), (2, 1, -4), (1, 3, 1), (3, 4, -2), (0, 4, 0)]);
        assert_eq!(bellman_ford(&g, 0).unwrap(), vec![0, -2, 2, -1, -3]);
        assert_eq!(bellman_ford(&g, 2).unwrap(), vec![INF, -4, 0, -3, -5]);
        // FIFO order: 0, 1, 2, 4, 3, 1 (improved through 2 -> 1), 3, 4; each scan relaxes its
        // vertex's out-arcs, so re-scans count again.
        let (d, stats) = bellman_ford_with_stats(&g, 0).unwrap();
        assert_eq!(d, vec![0, -2, 2, -1, -3]);
        assert_eq!(stats, BellmanFordStats { scans: 8, arcs_relaxed: 8 });
    }

    #[test]
    fn reachable_negative_cycle_is_reported_on_the_cycle() {
        // 0 -> 1 -> 2 -> 3 -> 1 with the cycle 1, 2, 3 weighing -1; 4 hangs off the cycle.
        let g = graph(5, &[(0, 1, 1), (1, 2, 1), (2, 3, 1), (3, 1, -3), (3, 4, 1)]);
        match bellman_ford(&g, 0) {
            Err(Error::NegativeCycle { vertex, cycle, weight }) => {
                assert_eq!((vertex, cycle, weight), (1, vec![1, 2, 3], -1));
            }
            other => panic!("expected a negative cycle, got {other:?}"),
        }
        // A negative self loop is a cycle too.
        let g = graph(2, &[(0, 1, 1), (1, 1, -1)]);
        assert!(matches!(bellman_ford(&g, 0), Err(Error::NegativeCycle { vertex: 1, weight: -1, .. })));
    }

    #[test]
    fn unreachable_negative_cycle_is_fine() {
        // The cycle 2 <-> 3 weighs -2 but nothing leads there from 0.
        let g = graph(4, &[(0, 1, 3), (2, 3, -1), (3, 2, -1), (3, 0, 1)]);
        assert_eq!(bellman_ford(&g, 0).unwrap(), vec![0, 3, INF, INF]);
        assert!(matches!(bellman_ford(&g, 2), Err(Error::NegativeCycle { .. })));
    }

    #[test]
    fn largest_weights_do_not_overflow() {
        // A real overflow needs a path of about 2^31 arcs of weight u32::MAX (too big for a unit
        // test); check that the largest weights add up exactly in both algorithms.
        let big = u32::MAX as i64;
        let g = graph(3, &[(0, 1, big), (1, 2, big), (0, 2, 1)]);
        assert_eq!(dijkstra(&g, 0).unwrap(), vec![0, big, 1]);
        assert_eq!(bellman_ford(&g, 0).unwrap(), vec![0, big, 1]);
        assert_eq!(dijkstra(&g, 1).unwrap(), vec![INF, 0, big]);
    }

    #[test]
    fn pick_sources_is_replayable_and_skips_isolated_vertices() {
        let g = graph(10, &[(3, 4, 1), (7, 2, 1)]);
        let a = pick_sources(&g, 20, 42);
        assert_eq!(a.len(), 20);
        assert!(a.iter().all(|&v| v == 3 || v == 7));
        assert_eq!(pick_sources(&g, 5, 42), a[..5]);
        assert_ne!(pick_sources(&g, 20, 43), a);
        assert_eq!(pick_sources(&graph(4, &[]), 3, 1), vec![0, 0, 0]);
        assert!(pick_sources(&graph(0, &[]), 3, 1).is_empty());
        // One vertex with an arc among many: found by the fallback scan when draws miss.
        let mut e = crate::graph::EdgeList::with_capacity(100_000, 1);
        e.push(99_999, 0, 1);
        let sparse = e.into_graph_as_given().unwrap();
        assert!(pick_sources(&sparse, 4, 9).iter().all(|&v| v == 99_999));
    }
}
