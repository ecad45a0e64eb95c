//! Shortest-path trees and paths from any distance vector.
//!
//! A predecessor array is only trustworthy if it comes from a verified certificate, and picking
//! "any tight in-arc" per vertex is wrong when zero-weight cycles exist: the vertices of such a
//! cycle can all pick each other and leave the cycle detached from the source. So the tree is
//! the breadth-first tree of the traversal over tight arcs (`dist[u] + w == dist[v]`) that
//! [`crate::verify`] already does: parents lie one level closer to the source, so the result is
//! acyclic and rooted at the source by construction, and the verification comes for free. Each
//! parent is the smallest-id candidate, so the tree is the same for any thread count.

use crate::error::{Error, Result};
use crate::graph::{Graph, NO_VERTEX};
use crate::verify;
use crate::{Dist, UNREACHED};

/// Predecessor of every vertex on a shortest path from `src`: [`NO_VERTEX`] for `src` itself
/// and for unreached vertices.
///
/// Preconditions: `src < n` ([`Error::VertexOutOfRange`]); `dist` must be the exact shortest
/// distances from `src` (checked: otherwise [`Error::Verification`] as from
/// [`verify::check`]). Complexity: O(n + m), parallel.
///
/// # Examples
///
/// ```
/// use sssp::graph::NO_VERTEX;
/// use sssp::{reference::dijkstra, tree, EdgeList};
///
/// // 0 -> 2 -> 1 (1 + 2) beats 0 -> 1 (4); vertex 3 is unreached.
/// let mut e = EdgeList::with_capacity(4, 3);
/// e.push(0, 1, 4);
/// e.push(0, 2, 1);
/// e.push(2, 1, 2);
/// let g = e.into_graph_as_given()?;
/// let dist = dijkstra(&g, 0)?;
/// assert_eq!(tree::predecessors(&g, 0, &dist)?, vec![NO_VERTEX, 2, 0, NO_VERTEX]);
/// assert_eq!(tree::path(&g, 0, &dist, 1)?, Some(vec![0, 2, 1]));
/// assert_eq!(tree::path(&g, 0, &dist, 3)?, None);
/// # Ok::<(), sssp::Error>(())
/// ```
pub fn predecessors(g: &Graph, src: u32, dist: &[Dist]) -> Result<Vec<u32>> {
    verify::certify(g, src, dist)
}

/// [`predecessors`] for the answer to a bounded query (`bound`: see
/// [`crate::strategy::Options::query_bound`]; `None` = the whole graph), certified within it.
pub fn predecessors_within(g: &Graph, src: u32, dist: &[Dist], bound: Option<Dist>) -> Result<Vec<u32>> {
    verify::certify_within(g, src, dist, bound, verify::Beyond::Unreached)
}

/// [`predecessors`] for nearest-source distances ([`crate::strategy::many::solve_nearest`]): a
/// forest with one tree per source (every source a root), certified with
/// [`verify::check_nearest`]; `bound` as for [`predecessors_within`].
pub fn predecessors_nearest(g: &Graph, sources: &[u32], dist: &[Dist], bound: Option<Dist>) -> Result<Vec<u32>> {
    verify::certify_from(g, sources, dist, bound, verify::Beyond::Unreached)
}

/// The root of every vertex's tree in a forest of parents: for nearest-source distances, the
/// id of a nearest source ([`NO_VERTEX`] for unreached vertices, whose parent is none and who
/// are no root). `roots` are the forest's roots (the sources). Parallel pointer jumping:
/// O(n log depth), which `parents` must leave acyclic (a checked or engine-built tree is).
pub fn nearest_roots(parents: &[u32], roots: &[u32]) -> Vec<u32> {
    use rayon::prelude::*;
    let n = parents.len();
    let mut is_root = vec![false; n];
    for &r in roots {
        if (r as usize) < n {
            is_root[r as usize] = true;
        }
    }
    // up[v]: an ancestor of v (itself for roots); NO_VERTEX once the chain is known to end at
    // no root.
    let mut up: Vec<u32> = (0..n).into_par_iter().map(|v| if is_root[v] { v as u32 } else { parents[v] }).collect();
    loop {
        let next: Vec<u32> = up
            .par_iter()
            .map(|&a| if a == NO_VERTEX || a as usize >= n { NO_VERTEX } else { up[a as usize] })
            .collect();
        if next == up {
            break;
        }
        up = next;
    }
    up.par_iter_mut().for_each(|a| {
        if *a != NO_VERTEX && !is_root[*a as usize] {
            *a = NO_VERTEX;
        }
    });
    up
}

/// The vertices of a shortest path from `src` to `target`, both included (`[src]` when they are
/// equal), or `None` if `dist` has `target` unreached.
///
/// Preconditions: as [`predecessors`], and `target < n` ([`Error::VertexOutOfRange`]); `dist`
/// needs to be exact only up to the target's distance (vertices farther may be unreached, as a
/// target query leaves them: [`crate::strategy::Options::target`]), which is what is verified.
/// Complexity: O(n + m) (it builds and verifies the tree; call [`predecessors`] once and walk
/// it yourself for many targets).
pub fn path(g: &Graph, src: u32, dist: &[Dist], target: u32) -> Result<Option<Vec<u32>>> {
    let n = g.num_vertices();
    if target as usize >= n {
        return Err(Error::VertexOutOfRange { vertex: target as u64, num_vertices: n as u64 });
    }
    let bound = dist[target as usize];
    if bound == UNREACHED {
        // What `dist` says; a cutoff result could not prove more (it leaves far vertices out).
        return Ok(None);
    }
    let parents = verify::certify_within(g, src, dist, Some(bound), verify::Beyond::Anything)?;
    Ok(Some(walk_up(&parents, src, target)))
}

/// Follow `parents` from `target` up to `src` and return the path in forward order. The tree
/// is a verified BFS tree, so the walk ends at `src` within `n` steps.
fn walk_up(parents: &[u32], src: u32, target: u32) -> Vec<u32> {
    let mut path = vec![target];
    let mut v = target;
    while v != src && path.len() <= parents.len() {
        v = parents[v as usize];
        if v == NO_VERTEX {
            break; // not reachable on a verified tree; stay total
        }
        path.push(v);
    }
    path.reverse();
    path
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference;

    fn graph(n: u32, arcs: &[(u32, u32, i64)]) -> Graph {
        Graph::from_arcs(n, arcs).unwrap()
    }

    /// Is some arc `u -> v` tight?
    fn tight(g: &Graph, dist: &[Dist], u: u32, v: u32) -> bool {
        g.neighbors(u).any(|(t, w)| t == v && dist[u as usize] + w == dist[v as usize])
    }

    /// Every reached vertex's parent chain reaches `src` through tight arcs within n steps.
    fn assert_tree(g: &Graph, src: u32, dist: &[Dist], parents: &[u32]) {
        assert_eq!(parents[src as usize], NO_VERTEX);
        for v in 0..g.num_vertices() as u32 {
            if dist[v as usize] == UNREACHED {
                assert_eq!(parents[v as usize], NO_VERTEX, "unreached {v} has a parent");
                continue;
            }
            let (mut x, mut steps) = (v, 0);
            while x != src {
                let p = parents[x as usize];
                assert_ne!(p, NO_VERTEX, "vertex {x} on the way from {v} has no parent");
                assert!(tight(g, dist, p, x), "{p} -> {x} is not tight");
                x = p;
                steps += 1;
                assert!(steps <= g.num_vertices(), "cycle in the tree above {v}");
            }
        }
    }

    /// Zero-weight cycles everywhere: a 0-cycle 1 -> 2 -> 3 -> 1, a 0-cycle 4 <-> 5, and
    /// zero arcs between them, so every cycle vertex has several tight in-arcs.
    fn zero_cycles() -> Graph {
        graph(
            7,
            &[
                (0, 1, 3),
                (1, 2, 0),
                (2, 3, 0),
                (3, 1, 0),
                (3, 4, 0),
                (4, 5, 0),
                (5, 4, 0),
                (5, 2, 0),
                (0, 5, 3),
                (5, 6, 1),
                (6, 6, 0),
            ],
        )
    }

    #[test]
    fn tree_on_zero_weight_cycles_is_acyclic() {
        let g = zero_cycles();
        let d = reference::dijkstra(&g, 0).unwrap();
        assert_eq!(d, vec![0, 3, 3, 3, 3, 3, 4]);
        let p = predecessors(&g, 0, &d).unwrap();
        assert_tree(&g, 0, &d, &p);
        // Level 1 is {1, 5}; 2 has two level-1 parents (1 and 5) and takes the smaller.
        assert_eq!(p, vec![NO_VERTEX, 0, 1, 2, 5, 0, 5]);
        for src in 1..7 {
            let d = reference::dijkstra(&g, src).unwrap();
            assert_tree(&g, src, &d, &predecessors(&g, src, &d).unwrap());
        }
    }

    #[test]
    fn invalid_distances_are_rejected() {
        let g = zero_cycles();
        let wrong = vec![0, 2, 2, 2, 2, 2, 3];
        assert!(matches!(predecessors(&g, 0, &wrong), Err(Error::Verification(_))));
        assert!(matches!(path(&g, 0, &wrong, 6), Err(Error::Verification(_))));
    }

    #[test]
    fn paths() {
        let g = graph(5, &[(0, 1, 1), (1, 2, 1), (0, 2, 5), (2, 3, 1), (4, 0, 1)]);
        let d = reference::dijkstra(&g, 0).unwrap();
        assert_eq!(path(&g, 0, &d, 3).unwrap(), Some(vec![0, 1, 2, 3]));
        assert_eq!(path(&g, 0, &d, 0).unwrap(), Some(vec![0]));
        assert_eq!(path(&g, 0, &d, 4).unwrap(), None);
        assert!(matches!(path(&g, 0, &d, 5), Err(Error::VertexOutOfRange { vertex: 5, .. })));
        // With negative weights too.
        let g = graph(3, &[(0, 1, 4), (0, 2, 1), (2, 1, -2)]);
        let d = reference::bellman_ford(&g, 0).unwrap();
        assert_eq!(path(&g, 0, &d, 1).unwrap(), Some(vec![0, 2, 1]));
    }
}
