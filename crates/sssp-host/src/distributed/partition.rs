//! The graph split over the ranks: 1D, each rank a contiguous range of vertex ids, their
//! out-arcs and their distances ([`Partition`], [`LocalGraph`]).
//!
//! Ranges are balanced by cost `out-degree + 1` per vertex: a rank's work in a round is its
//! frontier's arcs, and its memory its arcs plus a distance per vertex. Counting the `+ 1`
//! keeps graphs with few or no arcs from landing on one rank; on graphs with arcs it changes
//! little (kron's mean degree is 32). Boundaries come from the CSR offsets themselves, which are
//! the prefix sums of the degrees: the cost of vertices `0..v` is `offsets[v] + v`, so each
//! boundary is one binary search and nothing is counted twice. Contiguous ranges keep the
//! owner of a head one binary search over `P + 1` boundaries away, and make the ranks' distance
//! slices, concatenated in rank order, the distances in vertex order.

use std::ops::Range;

use crate::error::{Error, Result};
use crate::graph::Graph;

/// Contiguous vertex ranges, one per rank: rank `r` owns `bounds[r]..bounds[r + 1]`. Ranks may
/// be empty (more ranks than vertices, or a hub heavier than a rank's share).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Partition {
    bounds: Vec<u32>,
}

impl Partition {
    /// `g`'s vertices in `parts` contiguous ranges of about equal cost (out-degree + 1 per
    /// vertex; see the module doc). O(P log n).
    ///
    /// ```
    /// use sssp::distributed::Partition;
    /// // A star: the hub 0 has 4 out-arcs, the leaves none; costs 5, 1, 1, 1, 1.
    /// let g = sssp::graph::Graph::from_arcs(5, &[(0, 1, 1), (0, 2, 1), (0, 3, 1), (0, 4, 1)])?;
    /// let p = Partition::balanced(&g, 2)?;
    /// assert_eq!((p.range(0), p.range(1)), (0..1, 1..5));
    /// assert_eq!(p.owner(3), 1);
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn balanced(g: &Graph, parts: usize) -> Result<Partition> {
        if parts == 0 {
            return Err(Error::InvalidArgument("a partition needs at least one part".into()));
        }
        let offsets = g.offsets();
        let n = g.num_vertices();
        let cost = |v: usize| offsets[v] as u128 + v as u128;
        let total = cost(n);
        let mut bounds = crate::mem::try_vec(parts + 1, 0u32)?;
        for (k, b) in bounds.iter_mut().enumerate().skip(1) {
            // The first vertex whose prefix reaches k/parts of the total.
            let want = total * k as u128;
            let v = partition_point(n + 1, |v| cost(v) * (parts as u128) < want);
            *b = v as u32;
        }
        Ok(Partition { bounds })
    }

    /// Ranges from explicit boundaries: `bounds[0] == 0`, non-decreasing, the last one the
    /// vertex count `n`; `bounds.len() - 1` ranks.
    pub fn from_bounds(bounds: Vec<u32>, n: usize) -> Result<Partition> {
        let ok = bounds.len() >= 2
            && bounds[0] == 0
            && bounds.last().is_some_and(|&b| b as usize == n)
            && bounds.windows(2).all(|w| w[0] <= w[1]);
        if !ok {
            return Err(Error::InvalidArgument(format!(
                "partition bounds must start at 0, not decrease and end at the vertex count {n}"
            )));
        }
        Ok(Partition { bounds })
    }

    /// The number of ranks.
    pub fn parts(&self) -> usize {
        self.bounds.len() - 1
    }

    /// The `parts() + 1` boundaries.
    pub fn bounds(&self) -> &[u32] {
        &self.bounds
    }

    /// The vertices rank `rank` owns.
    pub fn range(&self, rank: usize) -> Range<u32> {
        self.bounds[rank]..self.bounds[rank + 1]
    }

    /// The rank owning vertex `v` (`v < n`): a binary search over the boundaries, so an empty
    /// rank owns nothing.
    #[inline]
    pub fn owner(&self, v: u32) -> usize {
        self.bounds.partition_point(|&b| b <= v) - 1
    }
}

/// The first `i` in `0..len` where `below(i)` is false (`below` true then false).
fn partition_point(len: usize, below: impl Fn(usize) -> bool) -> usize {
    let (mut lo, mut hi) = (0, len);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if below(mid) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    lo
}

/// One rank's slice of the graph: its vertices' out-arcs in CSR form, offsets rebased to 0,
/// heads as global ids (a head may belong to any rank), weights as the engines hold them
/// (`u32` integers or `f32` bit patterns).
#[derive(Clone, Debug)]
pub struct LocalGraph {
    first: u32,
    offsets: Vec<u64>,
    heads: Vec<u32>,
    weights: Vec<u32>,
}

impl LocalGraph {
    /// The slice of `g` (with `weights`, its weights as [`Graph::unsigned_weights`] gives them)
    /// for the vertices `range`: copies its arcs (on all of rayon's threads), O(its vertices +
    /// arcs).
    pub fn of(g: &Graph, weights: &[u32], range: Range<u32>) -> Result<LocalGraph> {
        let (lo, hi) = (range.start as usize, range.end as usize);
        if lo > hi || hi > g.num_vertices() || weights.len() != g.num_arcs() {
            return Err(Error::InvalidArgument(format!(
                "a local graph of vertices {lo}..{hi} of a graph of {} vertices and {} arcs with {} weights",
                g.num_vertices(),
                g.num_arcs(),
                weights.len()
            )));
        }
        let offsets = g.offsets();
        let (s, e) = (offsets[lo] as usize, offsets[hi] as usize);
        let mut rebased = Vec::new();
        crate::mem::reserve(&mut rebased, hi - lo + 1)?;
        {
            use rayon::prelude::*;
            rebased.par_extend(offsets[lo..=hi].par_iter().map(|&o| o - s as u64));
        }
        Ok(LocalGraph {
            first: range.start,
            offsets: rebased,
            heads: crate::mem::try_par_to_vec(&g.targets()[s..e])?,
            weights: crate::mem::try_par_to_vec(&weights[s..e])?,
        })
    }

    /// The first vertex (global id) of the slice.
    pub fn first(&self) -> u32 {
        self.first
    }

    /// The number of vertices owned.
    pub fn num_vertices(&self) -> usize {
        self.offsets.len() - 1
    }

    /// The number of arcs held (the owned vertices' out-arcs).
    pub fn num_arcs(&self) -> usize {
        self.heads.len()
    }

    /// The arc offsets, one per owned vertex and the end, from 0.
    pub fn offsets(&self) -> &[u64] {
        &self.offsets
    }

    /// Every arc's head (global ids), in the order of the offsets.
    pub fn heads(&self) -> &[u32] {
        &self.heads
    }

    /// Every arc's weight, as the engines hold them.
    pub fn weights(&self) -> &[u32] {
        &self.weights
    }

    /// The out-arcs of local vertex `v` (global id `first() + v`): heads (global ids) and
    /// weights.
    #[inline]
    pub fn arcs(&self, v: u32) -> (&[u32], &[u32]) {
        let (s, e) = (self.offsets[v as usize] as usize, self.offsets[v as usize + 1] as usize);
        (&self.heads[s..e], &self.weights[s..e])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{generate, GenSpec};
    use crate::WeightSpec;

    /// Every vertex owned by exactly the rank whose range holds it; the slices together are
    /// the graph's arcs in order.
    fn check(g: &Graph, parts: usize) {
        let p = Partition::balanced(g, parts).unwrap();
        assert_eq!(p.parts(), parts);
        assert_eq!(p.bounds()[0], 0);
        assert_eq!(*p.bounds().last().unwrap() as usize, g.num_vertices());
        for v in 0..g.num_vertices() as u32 {
            assert!(p.range(p.owner(v)).contains(&v), "vertex {v} of {:?}", p.bounds());
        }
        let w = g.unsigned_weights("test").unwrap();
        let mut arcs = Vec::new();
        for r in 0..parts {
            let l = LocalGraph::of(g, w, p.range(r)).unwrap();
            assert_eq!(l.first(), p.range(r).start);
            for v in 0..l.num_vertices() as u32 {
                let (h, w) = l.arcs(v);
                arcs.extend(h.iter().zip(w).map(|(&h, &w)| (l.first() + v, h, w)));
            }
        }
        let want: Vec<_> =
            (0..g.num_vertices() as u32).flat_map(|u| g.neighbors(u).map(move |(v, w)| (u, v, w as u32))).collect();
        assert_eq!(arcs, want);
    }

    #[test]
    fn every_vertex_has_one_owner_and_every_arc_one_slice() {
        for spec in ["kron:8", "star:300", "path:10", "disconnected:3:50"] {
            let g = generate(&GenSpec::parse(spec).unwrap(), 1, WeightSpec::AsGiven).unwrap();
            for parts in [1, 2, 3, 4, 7, 64] {
                check(&g, parts);
            }
        }
    }

    #[test]
    fn more_ranks_than_vertices_and_graphs_without_arcs() {
        let g = Graph::from_arcs(3, &[(0, 1, 2)]).unwrap();
        check(&g, 7);
        let p = Partition::balanced(&g, 7).unwrap();
        assert_eq!((0..7).filter(|&r| !p.range(r).is_empty()).count(), 3, "{:?}", p.bounds());
        // No arcs: balanced by vertices.
        let g = Graph::from_arcs(10, &[]).unwrap();
        check(&g, 3);
        let p = Partition::balanced(&g, 2).unwrap();
        assert_eq!(p.bounds(), &[0, 5, 10]);
        assert!(Partition::balanced(&g, 0).is_err());
    }

    #[test]
    fn ranges_are_balanced_by_arcs() {
        let g = generate(&GenSpec::parse("kron:10").unwrap(), 2, WeightSpec::AsGiven).unwrap();
        let p = Partition::balanced(&g, 4).unwrap();
        let total = (g.num_arcs() + g.num_vertices()) as f64;
        let max_degree = g.max_degree() as f64;
        for r in 0..4 {
            let range = p.range(r);
            let cost =
                (g.offsets()[range.end as usize] - g.offsets()[range.start as usize]) as f64 + range.len() as f64;
            assert!((cost - total / 4.0).abs() <= max_degree + 1.0, "rank {r}: {cost} of {total}");
        }
    }

    #[test]
    fn explicit_bounds_are_checked() {
        assert!(Partition::from_bounds(vec![0, 2, 5], 5).is_ok());
        for bad in [vec![1, 5], vec![0, 3, 2, 5], vec![0, 4], vec![0]] {
            assert!(Partition::from_bounds(bad.clone(), 5).is_err(), "{bad:?}");
        }
    }
}
