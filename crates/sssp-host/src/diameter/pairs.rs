//! Pair certification: how the diameter's bounding ends on undirected graphs once few vertices
//! are left open. Our extension of the paper's loop (Takes and Kosters' rules are kept; this
//! only removes more vertices and picks differently), exact for any non-negative weights.
//!
//! # Why
//!
//! Bounding removes a vertex `a` from the diameter's open set `U = {v : ub(v) > D_L}` only once
//! one computed `w` has `d(a, w) + ecc(w) <= D_L`. On Kronecker graphs the last open vertices
//! are leaves `D_L / 2 + 1` or so from every center (kron 19: after two eccentricities, 51 leaves
//! at distance 4 from the hub, whose eccentricity is 4, with `D_L = 7`), so no center is close
//! enough to any of them and the paper's loop spends one eccentricity on each (53 in all; 634 on
//! one kron 15).
//!
//! # The rule
//!
//! A pair `(a, b)` farther apart than `D_L` has `ecc(a) > D_L` and `ecc(b) > D_L`, so both stay in
//! `U` (their upper bounds never drop to `D_L`). Hence `a` can leave `U` as soon as every other
//! `b` still in `U` has *some* computed `w` with `d(a, w) + d(w, b) <= D_L`: a different `w` for
//! each `b` is fine. Sound by induction: if `(a, b)` were a far pair, `b` would still be in `U`
//! and no `w` could certify `(a, b)` (`d(a, b) <= d(a, w) + d(w, b)`), so `a` would stay. When
//! `U` is empty no pair is farther apart than `D_L`, which is a computed eccentricity: it is
//! the diameter. `D_L` only grows, so a pair certified once stays certified, and a vertex that
//! left `U` never matters again.
//!
//! Once `|U| <=` [`PAIR_LIMIT`], every eccentricity from then on also hands over its source's
//! distances to the vertices of `U` (the engine's distances, 4 bytes per vertex, read once per
//! eccentricity); the pairs they certify are marked (all rows again whenever `D_L` grows), the
//! upper bounds of `U` follow on the host, and each step drops every vertex whose pairs are all
//! certified or whose upper bound reached `D_L`.
//!
//! # The picks
//!
//! Still alternating, as in the paper:
//! - **upper**: the vertex of `U` with the largest upper bound; ties: the most uncertified pairs
//!   (its eccentricity settles all of them at once), higher degree, smaller id;
//! - **cover**: the vertex `w`, not computed yet, within `r = D_L - R` of the most vertices of `U`,
//!   `R` the smallest eccentricity computed so far. Such a `w`, if it is as central as the best
//!   center seen, certifies `(a, b)` for every `a` within `r` of it and every `b` within `R`. Ties:
//!   higher degree, smaller id. The balls are bounded searches on the host from each vertex of
//!   `U`, with a budget of arcs ([`ball_budget`]); past it the paper's lower pick is taken.
//!
//! Measured with a serial implementation on 48 Kronecker graphs (scales 12-19, seeds 1-6, unit
//! weights): at most 20 eccentricities, against up to 634 with the paper's rules alone; roads
//! and grids of 30k-100k vertices within one of the paper's count either way. Only the
//! diameter uses it: radius, center and periphery need every vertex's bounds to meet.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, HashSet};

use crate::error::Result;
use crate::graph::Graph;
use crate::mem::try_vec;

/// The largest open set pair certification starts with: `|U|^2` pair flags, and `|U|^2` checks
/// per eccentricity.
pub(super) const PAIR_LIMIT: u64 = 1024;

/// Arcs the cover pick's ball searches may scan in all, per pick: 1/256 of the graph's arcs, at
/// least 2^16. The host scans arcs some 10-500 times slower than a GPU eccentricity does (kron
/// 19: 16.8M arcs in about 1 ms; road 4M: 10M in about 30 ms, one level at a time), so this
/// keeps a pick well below an eccentricity's time. Kron graphs need far less (kron 19: at most
/// 5,491 arcs for 51 balls of radius 3; the vertices at the radius are not scanned); on roads
/// and grids, where `r` is hundreds of hops, the balls give up and the paper's lower pick
/// stands (with the whole graph as budget, road 4M took 3.0 s instead of 0.8 s on the H100).
pub(super) fn ball_budget(g: &Graph) -> u64 {
    (g.num_arcs() as u64 / 256).max(1 << 16)
}

/// The open set `U` and what is known of its pairs.
pub(super) struct Pairs {
    /// The vertices of `U` when certification started, ascending; rows index them.
    verts: Vec<u32>,
    /// Their upper bounds, tightened by every eccentricity since.
    ub: Vec<u64>,
    /// Whether each is still open.
    alive: Vec<bool>,
    /// `certified[i * k + j]`: some computed `w` has `d(i, w) + d(w, j) <= D_L`.
    certified: Vec<bool>,
    /// Uncertified pairs of each open vertex with the other open ones.
    uncertified: Vec<u32>,
    /// Each eccentricity's source distances to `verts`, kept to re-check when `D_L` grows.
    rows: Vec<Vec<u64>>,
    /// The `D_L` the rows were last checked with.
    d_lo: u64,
    /// The least arc weight (for the cover pick's searches).
    least: u64,
}

impl Pairs {
    /// Start from the open set of `g`: `(vertex, upper bound)`, ascending.
    pub(super) fn new(g: &Graph, open: Vec<(u32, u64)>) -> Result<Self> {
        let k = open.len();
        let mut certified = try_vec(k * k, false)?;
        for i in 0..k {
            certified[i * k + i] = true;
        }
        Ok(Pairs {
            verts: open.iter().map(|x| x.0).collect(),
            ub: open.iter().map(|x| x.1).collect(),
            alive: vec![true; k],
            certified,
            uncertified: vec![0; k],
            rows: Vec::new(),
            d_lo: 0,
            least: g.weight_range().map_or(0, |(lo, _)| lo.max(0) as u64),
        })
    }

    /// The vertices whose distances each eccentricity hands over (every one of the start, open
    /// or not: the rows keep one layout).
    pub(super) fn vertices(&self) -> &[u32] {
        &self.verts
    }

    /// Take in an eccentricity `ecc` whose source has distances `row` to [`Pairs::vertices`],
    /// with `D_L` now `d_lo`: certify pairs, tighten upper bounds, drop what is settled.
    pub(super) fn take(&mut self, ecc: u64, d_lo: u64, row: Vec<u64>) {
        let k = self.verts.len();
        for (u, &d) in self.ub.iter_mut().zip(&row) {
            *u = (*u).min(d.saturating_add(ecc));
        }
        self.rows.push(row);
        // A larger D_L may certify pairs with the older rows too.
        let from = if d_lo > self.d_lo { 0 } else { self.rows.len() - 1 };
        self.d_lo = d_lo;
        for row in &self.rows[from..] {
            for i in (0..k).filter(|&i| self.alive[i]) {
                for j in (i + 1..k).filter(|&j| self.alive[j]) {
                    if row[i].saturating_add(row[j]) <= d_lo {
                        self.certified[i * k + j] = true;
                        self.certified[j * k + i] = true;
                    }
                }
            }
        }
        // A vertex whose upper bound reached D_L is in no far pair. Then the ones whose pairs
        // with the rest are all certified leave together, by the counts before any of them
        // leaves: no far pair loses an end (module docs).
        for i in 0..k {
            self.alive[i] &= self.ub[i] > d_lo;
        }
        for i in 0..k {
            self.uncertified[i] = (0..k).filter(|&j| self.alive[j] && !self.certified[i * k + j]).count() as u32;
        }
        for i in 0..k {
            self.alive[i] &= self.uncertified[i] != 0;
        }
    }

    /// Whether `U` is empty: no pair is farther apart than `D_L`.
    pub(super) fn closed(&self) -> bool {
        !self.alive.contains(&true)
    }

    /// The upper pick (module docs), `None` when `U` is empty.
    pub(super) fn upper(&self, g: &Graph) -> Option<u32> {
        let open = (0..self.verts.len()).filter(|&i| self.alive[i]);
        let key = |i: usize| (self.ub[i], self.uncertified[i], g.degree(self.verts[i]), Reverse(self.verts[i]));
        open.max_by_key(|&i| key(i)).map(|i| self.verts[i])
    }

    /// The cover pick (module docs) with radius `r`, never a vertex of `computed`; `None` when
    /// the balls outgrow [`ball_budget`] (or nothing qualifies).
    /// Hash maps, not arrays of `n`: the budget bounds their size, and a pick stays cheap on a
    /// large graph.
    pub(super) fn cover(&self, g: &Graph, r: u64, computed: &HashSet<u32>) -> Option<u32> {
        let mut ball = Ball { dist: HashMap::new(), least: self.least };
        let mut count: HashMap<u32, u32> = HashMap::new();
        let mut budget = ball_budget(g);
        for i in (0..self.verts.len()).filter(|&i| self.alive[i]) {
            for w in ball.search(g, self.verts[i], r, &mut budget)? {
                *count.entry(w).or_default() += 1;
            }
        }
        count
            .into_iter()
            .filter(|(w, _)| !computed.contains(w))
            .max_by_key(|&(w, c)| (c, g.degree(w), Reverse(w)))
            .map(|(w, _)| w)
    }
}

/// Bounded shortest-path searches on the host (Dijkstra; unit weights make it a BFS).
struct Ball {
    dist: HashMap<u32, u64>,
    /// The least arc weight (0 without arcs): a vertex closer than `r` by less than it has no
    /// neighbour within `r`, and is not scanned.
    least: u64,
}

impl Ball {
    /// The vertices within `r` of `s` (`s` included), or `None` once more than `budget` arcs in
    /// all have been scanned (the budget is shared by the searches of one pick).
    fn search(&mut self, g: &Graph, s: u32, r: u64, budget: &mut u64) -> Option<Vec<u32>> {
        self.dist.clear();
        let mut heap = BinaryHeap::new();
        self.dist.insert(s, 0);
        heap.push(Reverse((0u64, s)));
        while let Some(Reverse((d, v))) = heap.pop() {
            if d > self.dist[&v] || d.saturating_add(self.least) > r {
                continue;
            }
            let deg = g.degree(v) as u64;
            if deg > *budget {
                return None;
            }
            *budget -= deg;
            for (x, w) in g.neighbors(v) {
                let dx = d.saturating_add(w.max(0) as u64);
                if dx <= r && self.dist.get(&x).is_none_or(|&old| dx < old) {
                    self.dist.insert(x, dx);
                    heap.push(Reverse((dx, x)));
                }
            }
        }
        Some(self.dist.keys().copied().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A graph without arcs, where the tests need none.
    fn g0() -> Graph {
        Graph::from_arcs(1, &[]).unwrap()
    }

    /// A path 0 - 1 - 2 - 3 - 4, unit weights.
    fn path5() -> Graph {
        let mut arcs = Vec::new();
        for v in 0..4u32 {
            arcs.push((v, v + 1, 1));
            arcs.push((v + 1, v, 1));
        }
        Graph::from_arcs(5, &arcs).unwrap()
    }

    // The eccentricities below are large enough to leave the upper bounds above D_L, so only
    // the pair rule can settle anything.

    #[test]
    fn a_far_pair_is_never_certified() {
        // U = {0, 4} with D_L = 3 (too small: d(0, 4) = 4): a vertex 2 from both must not
        // certify the pair, so both stay open and the bounding goes on.
        let mut p = Pairs::new(&g0(), vec![(0, 20), (4, 20)]).unwrap();
        p.take(9, 3, vec![2, 2]);
        assert!(!p.closed());
        assert_eq!(p.uncertified, vec![1, 1]);
        // With D_L = 4 the same distances certify it.
        p.take(9, 4, vec![2, 2]);
        assert!(p.closed());
    }

    #[test]
    fn older_rows_count_again_when_the_lower_bound_grows() {
        // Row 1 (distances 3 and 2, sum 5) certifies nothing under D_L = 4, row 2 (sum 6)
        // nothing either; once D_L = 5, row 1 certifies the pair.
        let mut p = Pairs::new(&g0(), vec![(0, 20), (1, 20)]).unwrap();
        p.take(9, 4, vec![3, 2]);
        p.take(9, 4, vec![3, 3]);
        assert!(!p.closed());
        p.take(9, 5, vec![3, 3]);
        assert!(p.closed());
    }

    #[test]
    fn upper_bounds_settle_vertices_too() {
        // Vertex 7 reaches ub 3 + 1 = D_L: it leaves, and 8's only pair goes with it.
        let mut p = Pairs::new(&g0(), vec![(7, 5), (8, 5)]).unwrap();
        p.take(1, 4, vec![3, 9]);
        assert_eq!(p.ub, vec![4, 5]);
        assert!(p.closed());
        // Alone in U: no pair, settled by the first eccentricity.
        let mut q = Pairs::new(&g0(), vec![(3, 9)]).unwrap();
        assert!(!q.closed());
        q.take(5, 4, vec![2]);
        assert!(q.closed());
    }

    #[test]
    fn upper_pick_prefers_bound_then_open_pairs_then_degree() {
        let g = path5();
        let mut p = Pairs::new(&g0(), vec![(0, 6), (2, 6), (4, 5)]).unwrap();
        p.uncertified = vec![1, 2, 2];
        assert_eq!(p.upper(&g), Some(2));
        p.uncertified = vec![2, 2, 2];
        // Same bound and open pairs: vertex 2 has degree 2, vertex 0 degree 1.
        assert_eq!(p.upper(&g), Some(2));
        p.alive = vec![false, false, true];
        assert_eq!(p.upper(&g), Some(4));
        p.alive = vec![false; 3];
        assert_eq!(p.upper(&g), None);
    }

    #[test]
    fn cover_pick_takes_the_vertex_near_most_open_ones() {
        // Open {0, 4}, radius 2: vertex 2 is within 2 of both; 1 and 3 of one each.
        let g = path5();
        let p = Pairs::new(&g, vec![(0, 9), (4, 9)]).unwrap();
        assert_eq!(p.cover(&g, 2, &HashSet::new()), Some(2));
        // Computed vertices are never picked again: then 1 (degree 2, smaller id than 3).
        assert_eq!(p.cover(&g, 2, &[2].into_iter().collect()), Some(1));
        // Radius 1: nobody is within 1 of both; ties by degree, then id.
        assert_eq!(p.cover(&g, 1, &HashSet::new()), Some(1));
    }

    #[test]
    fn ball_search_is_bounded_and_budgeted() {
        let g = Graph::from_arcs(4, &[(0, 1, 2), (1, 0, 2), (1, 2, 5), (2, 1, 5), (0, 3, 0), (3, 0, 0)]).unwrap();
        let mut b = Ball { dist: HashMap::new(), least: 0 };
        let mut budget = 100;
        let mut got = b.search(&g, 0, 6, &mut budget).unwrap();
        got.sort();
        assert_eq!(got, vec![0, 1, 3]);
        let mut got = b.search(&g, 0, 7, &mut budget).unwrap();
        got.sort();
        assert_eq!(got, vec![0, 1, 2, 3]);
        let mut tiny = 1;
        assert!(b.search(&g, 1, 7, &mut tiny).is_none());
    }
}
