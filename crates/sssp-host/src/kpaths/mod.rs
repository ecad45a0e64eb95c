//! The k shortest simple paths between two vertices (Yen's algorithm), and every shortest-path
//! predecessor of a vertex (the shortest-path DAG).
//!
//! **k shortest simple paths.** Yen's algorithm (J. Y. Yen, "Finding the K shortest loopless
//! paths in a network", Management Science 17(11), 1971) finds the paths in order: each
//! accepted path is taken apart at every vertex from where it left its parent path on (Lawler's
//! refinement: earlier vertices were taken apart already), and each such *spur* vertex gets the
//! best path to the target that keeps the path's prefix (the *root*), avoids the root's other
//! vertices and leaves the spur vertex by none of the arcs that accepted paths with the same root
//! take. The best of the candidates is the next path. The choices made here:
//!
//! - **Order and ties.** Paths come shortest first; among equal lengths, fewer arcs first; then
//!   the lexicographically smaller vertex sequence. The order compares two paths with a common
//!   prefix by their remainders, which is all Yen's argument needs, so each spur search only has
//!   to return the best remainder in that order, and the result is the same on every device.
//! - **Spur searches.** On integer weights (`forward.rs`): one search backwards from the target
//!   on the whole graph first gives every vertex its best remainder (length, arcs, first step,
//!   whether another ties with it); each spur search then runs forwards from the spur vertex with
//!   those lengths as an exact A* potential, and stops at every vertex whose best remainder
//!   avoids the root (Feng's node classification), so it visits only the few vertices near the
//!   spur whose remainders run back into the root. Where remainders tie, the smallest vertex
//!   sequence among them is read off the search's tight arcs. On real weights (rounded sums
//!   would break a potential's consistency and the split of a length into root and remainder)
//!   each spur search is a Dijkstra search *backwards* from the target over the in-arcs, on
//!   pairs (distance, arcs), which stops when the spur vertex is settled; the remainder is read
//!   forwards from the spur vertex, taking the smallest id among the tight arcs at each step.
//!   Removed vertices and arcs are a per-search mask (epoch stamps per vertex, and the spur
//!   vertex's barred successors), so nothing is copied per search. The spur searches are not
//!   solves of their own on the engine: each visits a small part of the graph, where a masked
//!   solve per spur would cost a pass over it, batched lanes or not. The engine's one solve
//!   from the source tells the real-weight searches which vertices are reached.
//! - **Cutoff.** With a cutoff no path longer is returned: the first search ignores remainders
//!   beyond it and every spur search stops there.
//! - **Memory.** Candidates beyond the number of paths still wanted are dropped (they can never
//!   be chosen), and a spur search stops at the length of the last candidate still wanted, so a
//!   large `k` costs no more than the paths that exist: the run ends when no simple path is left.
//! - **Lengths.** Integer weights add exactly (in `i64`; an overflow is
//!   [`Error::DistanceOverflow`]). Real weights add in `f64` along the path from the source;
//!   paths are ordered by those sums.
//! - Self-loops never lie on a simple path; of parallel arcs the lightest counts. Negative
//!   weights are refused ([`Error::NegativeWeight`], naming the arc).
//!
//! **All shortest paths.** [`shortest_path_dag`]: for every vertex `v`, every `u` with an arc
//! `u -> v` such that `d(u) + w == d(v)`, the sum computed as the engines compute distances
//! (exactly for integers; in `f32` for real weights, so the rule is the exact equality of the
//! computed sum, as NetworkX applies it in `float64`). With zero-weight cycles the arcs among
//! the cycle's vertices are all listed, so the "DAG" then has those cycles.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::collections::{BTreeSet, BinaryHeap};

use crate::error::{Error, Result};
use crate::graph::{Graph, Metric, Weights};
use crate::{Dist, UNREACHED};

mod forward;

/// The name errors give the algorithm.
const ALGO: &str = "k shortest paths (Yen)";

/// A path length of the k-shortest-paths search: `i64` (integer weights) or `f64` (real ones).
pub trait Length: Copy + PartialEq + PartialOrd + std::fmt::Debug + Send + Sync + 'static {
    /// The length of an empty path.
    const ZERO: Self;
    /// Sums are exact (associative): a path's length is its root's plus its remainder's, and a
    /// remainder's length is a valid search potential (`forward.rs`).
    const EXACT: bool;
    /// `self + w`, or `None` when the sum does not fit.
    fn plus(self, w: Self) -> Option<Self>;
    /// A total order agreeing with `<` on the lengths that occur (finite, non-negative).
    fn order(&self, other: &Self) -> Ordering;
    /// Whether the length is below zero (or not a number).
    fn is_negative(self) -> bool;
    /// The length for a message, rounded toward minus infinity.
    fn as_i64(self) -> i64;
    /// `self - b` for a search's length limit, `None` when below zero; on real lengths a
    /// little more (a relative `1e-9`), so that rounding never cuts a remainder that fits.
    fn minus(self, b: Self) -> Option<Self>;
}

impl Length for i64 {
    const ZERO: i64 = 0;
    const EXACT: bool = true;
    fn plus(self, w: i64) -> Option<i64> {
        self.checked_add(w)
    }
    fn order(&self, other: &i64) -> Ordering {
        self.cmp(other)
    }
    fn is_negative(self) -> bool {
        self < 0
    }
    fn as_i64(self) -> i64 {
        self
    }
    fn minus(self, b: i64) -> Option<i64> {
        Some(self - b).filter(|&d| d >= 0)
    }
}

impl Length for f64 {
    const ZERO: f64 = 0.0;
    const EXACT: bool = false;
    fn plus(self, w: f64) -> Option<f64> {
        Some(self + w).filter(|x| x.is_finite())
    }
    fn order(&self, other: &f64) -> Ordering {
        self.total_cmp(other)
    }
    fn is_negative(self) -> bool {
        self.is_nan() || self < 0.0
    }
    fn as_i64(self) -> i64 {
        self.floor() as i64
    }
    fn minus(self, b: f64) -> Option<f64> {
        let slack = 1e-9 * self.abs().max(b.abs());
        Some(self - b + slack).filter(|&d| d >= 0.0)
    }
}

/// A directed graph's arcs in CSR form with lengths of type `L`, and its in-arcs (built here).
pub struct Arcs<'a, L: Length> {
    offsets: &'a [u64],
    heads: &'a [u32],
    len: Cow<'a, [L]>,
    /// In-arcs: `rev_off[v]..rev_off[v + 1]` index `rev_tail` and `rev_len`.
    rev_off: Vec<u64>,
    rev_tail: Vec<u32>,
    rev_len: Vec<L>,
}

impl<'a, L: Length> Arcs<'a, L> {
    /// The arcs of `offsets` (n + 1 entries), `heads` and `len` (one per arc).
    ///
    /// Errors: [`Error::InvalidArgument`] for arrays that are no CSR graph,
    /// [`Error::NegativeWeight`] naming the first arc of negative length.
    pub fn new(offsets: &'a [u64], heads: &'a [u32], len: Cow<'a, [L]>) -> Result<Self> {
        let n = offsets.len().saturating_sub(1);
        let m = heads.len();
        let sane = !offsets.is_empty() && offsets[0] == 0 && offsets[n] == m as u64 && len.len() == m;
        if !sane || offsets.windows(2).any(|p| p[0] > p[1]) || heads.iter().any(|&h| h as usize >= n) {
            return Err(Error::InvalidArgument("k shortest paths: the arrays are not a CSR graph".into()));
        }
        for u in 0..n {
            for e in offsets[u] as usize..offsets[u + 1] as usize {
                if len[e].is_negative() {
                    let (from, to, weight) = (u as u32, heads[e], len[e].as_i64());
                    return Err(Error::NegativeWeight { algo: ALGO.into(), from, to, weight });
                }
            }
        }
        let mut rev_off = vec![0u64; n + 1];
        heads.iter().for_each(|&h| rev_off[h as usize + 1] += 1);
        (0..n).for_each(|v| rev_off[v + 1] += rev_off[v]);
        let mut fill = rev_off[..n].to_vec();
        let (mut rev_tail, mut rev_len) = (vec![0u32; m], vec![L::ZERO; m]);
        for u in 0..n {
            for e in offsets[u] as usize..offsets[u + 1] as usize {
                let at = &mut fill[heads[e] as usize];
                rev_tail[*at as usize] = u as u32;
                rev_len[*at as usize] = len[e];
                *at += 1;
            }
        }
        Ok(Arcs { offsets, heads, len, rev_off, rev_tail, rev_len })
    }

    fn n(&self) -> usize {
        self.offsets.len() - 1
    }

    /// The out-arcs of `u`: (head, length).
    fn out(&self, u: u32) -> impl Iterator<Item = (u32, L)> + '_ {
        let r = self.offsets[u as usize] as usize..self.offsets[u as usize + 1] as usize;
        self.heads[r.clone()].iter().copied().zip(self.len[r].iter().copied())
    }

    /// The in-arcs of `v`: (tail, length).
    fn inn(&self, v: u32) -> impl Iterator<Item = (u32, L)> + '_ {
        let r = self.rev_off[v as usize] as usize..self.rev_off[v as usize + 1] as usize;
        self.rev_tail[r.clone()].iter().copied().zip(self.rev_len[r].iter().copied())
    }

    /// The length of `path` summed from its first vertex (the lightest of parallel arcs), or
    /// `None` if it is no path.
    fn length_of(&self, path: &[u32]) -> Result<L> {
        Ok(*self.prefix_lengths(path)?.last().expect("one vertex at least"))
    }

    /// The lengths of `path`'s prefixes: entry `j` that of `path[..=j]`, summed from the first
    /// vertex as [`Arcs::length_of`] sums.
    fn prefix_lengths(&self, path: &[u32]) -> Result<Vec<L>> {
        let mut out = Vec::with_capacity(path.len());
        out.push(L::ZERO);
        for p in path.windows(2) {
            let w = self.out(p[0]).filter(|&(h, _)| h == p[1]).map(|(_, w)| w).min_by(|a, b| a.order(b));
            let w = w.ok_or_else(|| Error::InvalidArgument(format!("no arc {} -> {}", p[0], p[1])))?;
            let total = out[out.len() - 1].plus(w).ok_or(Error::DistanceOverflow { vertex: p[1], bits: 64 })?;
            out.push(total);
        }
        Ok(out)
    }
}

/// One path with its length; ordered by (length, arcs, vertices): the documented order.
#[derive(Clone, Debug)]
struct Cand<L> {
    len: L,
    path: Vec<u32>,
    /// Where it left its parent path (Lawler): the index of its spur vertex.
    dev: usize,
}

impl<L: Length> Ord for Cand<L> {
    fn cmp(&self, o: &Self) -> Ordering {
        self.len.order(&o.len).then(self.path.len().cmp(&o.path.len())).then_with(|| self.path.cmp(&o.path))
    }
}
impl<L: Length> PartialOrd for Cand<L> {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl<L: Length> PartialEq for Cand<L> {
    fn eq(&self, o: &Self) -> bool {
        self.cmp(o) == Ordering::Equal
    }
}
impl<L: Length> Eq for Cand<L> {}

/// A heap entry of a spur search: (key, arcs, vertex), smallest first.
struct Entry<L>(L, u32, u32);

impl<L: Length> Ord for Entry<L> {
    fn cmp(&self, o: &Self) -> Ordering {
        // Reversed: BinaryHeap pops the largest.
        o.0.order(&self.0).then(o.1.cmp(&self.1)).then(o.2.cmp(&self.2))
    }
}
impl<L: Length> PartialOrd for Entry<L> {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl<L: Length> PartialEq for Entry<L> {
    fn eq(&self, o: &Self) -> bool {
        self.cmp(o) == Ordering::Equal
    }
}
impl<L: Length> Eq for Entry<L> {}

/// The spur searches' state, reused from one search to the next (O(n) in all).
struct Search<'s, 'a, L: Length> {
    arcs: &'s Arcs<'a, L>,
    target: u32,
    /// Distance and arcs to the target, valid where `seen == epoch`.
    dist: Vec<L>,
    hops: Vec<u32>,
    seen: Vec<u32>,
    /// `done == epoch`: settled; `barred == epoch`: removed for this search.
    done: Vec<u32>,
    barred: Vec<u32>,
    epoch: u32,
    heap: BinaryHeap<Entry<L>>,
}

impl<'s, 'a, L: Length> Search<'s, 'a, L> {
    fn new(arcs: &'s Arcs<'a, L>, target: u32) -> Self {
        let n = arcs.n();
        Search {
            arcs,
            target,
            dist: vec![L::ZERO; n],
            hops: vec![0; n],
            seen: vec![0; n],
            done: vec![0; n],
            barred: vec![0; n],
            epoch: 0,
            heap: BinaryHeap::new(),
        }
    }

    /// The best remainder from `root`'s last vertex (the spur) to the target avoiding `root`'s
    /// other vertices and the spur's arcs to `banned`, no longer than `limit`.
    fn spur(&mut self, root: &[u32], banned: &[u32], limit: Option<L>) -> Option<Vec<u32>> {
        self.epoch += 1;
        let (e, spur) = (self.epoch, *root.last()?);
        root[..root.len() - 1].iter().for_each(|&v| self.barred[v as usize] = e);
        if self.barred[self.target as usize] == e {
            return None;
        }
        self.heap.clear();
        self.reach(self.target, L::ZERO, 0);
        while let Some(Entry(key, h, v)) = self.heap.pop() {
            if limit.is_some_and(|b| key > b) {
                return None;
            }
            let i = v as usize;
            if self.done[i] == e || h != self.hops[i] || self.dist[i] != key {
                continue; // settled, or a stale entry
            }
            self.done[v as usize] = e;
            if v == spur {
                return Some(self.read(spur, banned));
            }
            let (dv, hv) = (self.dist[v as usize], h + 1);
            for (u, w) in self.arcs.inn(v) {
                if self.barred[u as usize] == e || (u == spur && banned.contains(&v)) || self.done[u as usize] == e {
                    continue;
                }
                if let Some(d) = dv.plus(w) {
                    self.reach(u, d, hv);
                }
            }
        }
        None
    }

    /// Offer `u` the distance `d` over `h` arcs.
    fn reach(&mut self, u: u32, d: L, h: u32) {
        let (i, e) = (u as usize, self.epoch);
        if self.seen[i] == e && (self.dist[i].order(&d).then(self.hops[i].cmp(&h))) != Ordering::Greater {
            return;
        }
        (self.seen[i], self.dist[i], self.hops[i]) = (e, d, h);
        self.heap.push(Entry(d, h, u));
    }

    /// The remainder from `spur` after its search: the smallest tight successor each step.
    fn read(&self, spur: u32, banned: &[u32]) -> Vec<u32> {
        let e = self.epoch;
        let mut path = vec![spur];
        let mut u = spur;
        while u != self.target {
            let (du, hu) = (self.dist[u as usize], self.hops[u as usize]);
            let next = self
                .arcs
                .out(u)
                .filter(|&(v, w)| {
                    let i = v as usize;
                    self.done[i] == e
                        && self.barred[i] != e
                        && !(u == spur && banned.contains(&v))
                        && self.hops[i] + 1 == hu
                        && self.dist[i].plus(w) == Some(du)
                })
                .map(|(v, _)| v)
                .min();
            match next {
                Some(v) => {
                    path.push(v);
                    u = v;
                }
                None => break, // unreachable: the search's own parent is always tight
            }
        }
        path
    }
}

/// Up to `k` shortest simple paths from `source` to `target` over `arcs`, shortest first (ties
/// as the module docs say), each with its length, none longer than `cutoff`.
///
/// `source == target` gives the one path `[source]` of length 0. Errors:
/// [`Error::InvalidArgument`] for `k == 0` or a negative cutoff, [`Error::VertexOutOfRange`],
/// [`Error::DistanceOverflow`].
pub fn k_shortest<L: Length>(
    arcs: &Arcs<'_, L>,
    source: u32,
    target: u32,
    k: usize,
    cutoff: Option<L>,
) -> Result<Vec<(L, Vec<u32>)>> {
    let n = arcs.n();
    for v in [source, target] {
        if v as usize >= n {
            return Err(Error::VertexOutOfRange { vertex: v as u64, num_vertices: n as u64 });
        }
    }
    if k == 0 || cutoff.is_some_and(L::is_negative) {
        return Err(Error::InvalidArgument(format!(
            "k shortest paths: k = {k} (at least 1), cutoff {cutoff:?} (not negative)"
        )));
    }
    if source == target {
        return Ok(vec![(L::ZERO, vec![source])]);
    }
    let to = L::EXACT.then(|| forward::ToTarget::new(arcs, target, cutoff));
    let mut spurs = match to.as_ref() {
        Some(to) => Spurs::Forward(forward::Forward::new(arcs, to, target)),
        None => Spurs::Backward(Search::new(arcs, target)),
    };
    spurs.set_path(&[source]);
    let Some((first, len)) = spurs.spur(&[source], 0, &[], cutoff) else { return Ok(Vec::new()) };
    let len = match len {
        Some(l) => l,
        None => arcs.length_of(&first)?,
    };
    if beyond(len, cutoff) {
        return Ok(Vec::new());
    }
    let mut done = vec![Cand { len, path: first, dev: 0 }];
    let mut pool: BTreeSet<Cand<L>> = BTreeSet::new();
    while done.len() < k {
        spur_all(arcs, &mut spurs, &done, &mut pool, k - done.len(), cutoff)?;
        match pool.pop_first() {
            Some(c) => done.push(c),
            None => break,
        }
    }
    Ok(done.into_iter().map(|c| (c.len, c.path)).collect())
}

/// Whether `len` is past `cutoff`.
fn beyond<L: Length>(len: L, cutoff: Option<L>) -> bool {
    cutoff.is_some_and(|c| len.order(&c) == Ordering::Greater)
}

/// The spur searches: forward ones on exact lengths, backwards ones on real lengths.
enum Spurs<'s, 'a, L: Length> {
    Forward(forward::Forward<'s, 'a, L>),
    Backward(Search<'s, 'a, L>),
}

impl<L: Length> Spurs<'_, '_, L> {
    /// The path whose spur vertices come next.
    fn set_path(&mut self, p: &[u32]) {
        if let Spurs::Forward(f) = self {
            f.set_path(p);
        }
    }

    /// The best remainder from `p[i]` avoiding `p[..i]` and the arcs to `banned`, no longer than
    /// `limit`, with its length where the search knows it exactly.
    fn spur(&mut self, p: &[u32], i: usize, banned: &[u32], limit: Option<L>) -> Option<(Vec<u32>, Option<L>)> {
        match self {
            Spurs::Forward(f) => f.spur(i as u32, p[i], banned, limit).map(|(l, r)| (r, Some(l))),
            Spurs::Backward(b) => b.spur(&p[..=i], banned, limit).map(|r| (r, None)),
        }
    }
}

/// Yen's inner loop: the candidates of the last accepted path's spur vertices into `pool`,
/// which keeps the `want` best, none past `cutoff`.
fn spur_all<L: Length>(
    arcs: &Arcs<'_, L>,
    spurs: &mut Spurs<'_, '_, L>,
    done: &[Cand<L>],
    pool: &mut BTreeSet<Cand<L>>,
    want: usize,
    cutoff: Option<L>,
) -> Result<()> {
    let last = done.last().expect("one path at least");
    let p = &last.path;
    spurs.set_path(p);
    let roots = arcs.prefix_lengths(p)?;
    // The accepted paths that share p's prefix up to the spur index, narrowed as it grows.
    let mut sharing: Vec<&[u32]> = done.iter().map(|c| &c.path[..]).collect();
    for i in 0..p.len() - 1 {
        sharing.retain(|q| q.len() > i && q[i] == p[i]);
        if i < last.dev {
            continue;
        }
        let banned: Vec<u32> = sharing.iter().filter_map(|q| q.get(i + 1).copied()).collect();
        // A remainder longer than the last candidate still wanted is never chosen.
        let mut limit = match pool.len() >= want {
            true => pool.iter().nth(want - 1).map(|c| c.len),
            false => None,
        };
        if let Some(c) = cutoff {
            limit = Some(limit.map_or(c, |l| if beyond(l, Some(c)) { c } else { l }));
        }
        let rest = match limit {
            Some(l) => match l.minus(roots[i]) {
                Some(r) => Some(r),
                None => continue, // the root alone is longer
            },
            None => None,
        };
        let Some((rest, rest_len)) = spurs.spur(p, i, &banned, rest) else { continue };
        let mut path = p[..i].to_vec();
        path.extend_from_slice(&rest);
        let len = match rest_len {
            Some(l) => roots[i].plus(l).ok_or(Error::DistanceOverflow { vertex: target_of(&path), bits: 64 })?,
            None => arcs.length_of(&path)?,
        };
        if beyond(len, cutoff) {
            continue; // real lengths: the search's limit had some slack
        }
        pool.insert(Cand { len, path, dev: i });
        while pool.len() > want {
            pool.pop_last();
        }
    }
    Ok(())
}

/// The last vertex of a path.
fn target_of(path: &[u32]) -> u32 {
    *path.last().expect("one vertex at least")
}

/// [`k_shortest`] on a graph of the library. `cutoff` as [`crate::strategy::Options::cutoff`]
/// encodes it: no path longer is returned, and the searches stop there. Lengths come as
/// [`Dist`] (for real weights the `f32` bits of the `f64` sum, rounded; the cutoff applies to
/// the `f64` sum).
///
/// Errors: those of [`k_shortest`], and [`Error::NegativeWeight`] for a graph with a negative
/// weight (naming the first negative arc).
///
/// ```
/// use sssp::{kpaths, EdgeList};
/// let mut e = EdgeList::with_capacity(4, 5);
/// for (u, v, w) in [(0, 1, 1), (1, 3, 1), (0, 2, 1), (2, 3, 1), (0, 3, 3)] {
///     e.push(u, v, w);
/// }
/// let g = e.into_graph_as_given()?;
/// let found = kpaths::k_shortest_graph(&g, 0, 3, 5, None)?;
/// assert_eq!(found, vec![(2, vec![0, 1, 3]), (2, vec![0, 2, 3]), (3, vec![0, 3])]);
/// assert_eq!(kpaths::k_shortest_graph(&g, 0, 3, 5, Some(2))?, found[..2]);
/// # Ok::<(), sssp::Error>(())
/// ```
pub fn k_shortest_graph(
    g: &Graph,
    source: u32,
    target: u32,
    k: usize,
    cutoff: Option<u64>,
) -> Result<Vec<(Dist, Vec<u32>)>> {
    match g.weights() {
        Weights::Unsigned(w) => {
            let len: Vec<i64> = w.iter().map(|&x| x as i64).collect();
            let arcs = Arcs::new(g.offsets(), g.targets(), Cow::Owned(len))?;
            let cut = cutoff.map(|c| i64::try_from(c).unwrap_or(i64::MAX));
            k_shortest(&arcs, source, target, k, cut)
        }
        Weights::Signed(_) => refuse_negative_arcs(g).and(Ok(Vec::new())),
        Weights::Real(w) => {
            let len: Vec<f64> = w.iter().map(|&x| f32::from_bits(x) as f64).collect();
            let arcs = Arcs::new(g.offsets(), g.targets(), Cow::Owned(len))?;
            let cut = cutoff.map(|c| f32::from_bits(c as u32) as f64);
            let found = k_shortest(&arcs, source, target, k, cut)?;
            Ok(found.into_iter().map(|(l, p)| ((l as f32).to_bits() as Dist, p)).collect())
        }
    }
}

/// Every shortest-path predecessor of every vertex, from the shortest distances `dist` of a
/// query on `g` (the rule is in the module docs): CSR arrays `(offsets, preds)`, the
/// predecessors of `v` being `preds[offsets[v]..offsets[v + 1]]` in increasing id order, each
/// once (parallel arcs are one). Unreached vertices have none, and so has a source unless a
/// zero-weight cycle leads back to it. O(n + m log m).
///
/// ```
/// use sssp::{kpaths, reference::dijkstra, EdgeList};
/// let mut e = EdgeList::with_capacity(4, 4);
/// for (u, v, w) in [(0, 1, 1), (0, 2, 1), (1, 3, 1), (2, 3, 1)] {
///     e.push(u, v, w);
/// }
/// let g = e.into_graph_as_given()?;
/// let (off, preds) = kpaths::shortest_path_dag(&g, &dijkstra(&g, 0)?)?;
/// assert_eq!(&preds[off[3] as usize..off[4] as usize], &[1, 2]);
/// # Ok::<(), sssp::Error>(())
/// ```
pub fn shortest_path_dag(g: &Graph, dist: &[Dist]) -> Result<(Vec<u64>, Vec<u32>)> {
    let n = g.num_vertices();
    if dist.len() != n {
        return Err(Error::InvalidArgument(format!("{} distances for {n} vertices", dist.len())));
    }
    let m: Metric = g.metric();
    let mut pairs: Vec<(u32, u32)> = Vec::new();
    for u in 0..n as u32 {
        let du = dist[u as usize];
        if du == UNREACHED {
            continue;
        }
        for (v, w) in g.neighbors(u) {
            if crate::verify::is_tight(m, du, w, dist[v as usize]) {
                pairs.push((v, u));
            }
        }
    }
    pairs.sort_unstable();
    pairs.dedup();
    let mut offsets = vec![0u64; n + 1];
    pairs.iter().for_each(|&(v, _)| offsets[v as usize + 1] += 1);
    (0..n).for_each(|v| offsets[v + 1] += offsets[v]);
    Ok((offsets, pairs.into_iter().map(|(_, u)| u).collect()))
}

/// [`Error::NegativeWeight`] naming the first negative arc of `g`, if it has one: what
/// [`k_shortest_graph`] refuses, checked before a solve.
pub fn refuse_negative_arcs(g: &Graph) -> Result<()> {
    if g.metric() != Metric::Signed {
        return Ok(());
    }
    for u in 0..g.num_vertices() as u32 {
        if let Some((to, weight)) = g.neighbors(u).find(|&(_, w)| w < 0) {
            return Err(Error::NegativeWeight { algo: ALGO.into(), from: u, to, weight });
        }
    }
    Ok(())
}
