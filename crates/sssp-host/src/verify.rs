//! Reference-free verification of a distance vector, by the shortest-path certificate.
//!
//! `dist` is exactly the shortest-distance vector from `src` if and only if
//! 1. `dist[src] == 0`;
//! 2. every arc `u -> v` with `dist[u]` finite satisfies `dist[u] + w >= dist[v]` (so `dist[v]`
//!    is finite too): no distance can be improved, hence each finite `dist[v]` is at most the
//!    true distance, and every vertex the source reaches has a finite distance;
//! 3. every vertex with a finite distance is reached from `src` by a path of *tight* arcs
//!    (`dist[u] + w == dist[v]`): such a path is a real path of length `dist[v]`, so `dist[v]`
//!    is at least the true distance.
//!
//! Condition 3 is checked by a traversal from the source over tight arcs, not by asking that
//! each vertex have *some* tight in-arc: on a zero-weight cycle, planted too-small distances
//! make the cycle's arcs tight among themselves while no tight path leads in from the source.
//! With 1-3 holding, no negative cycle can be reachable (2 fails on one), and vertices left at
//! [`UNREACHED`] are exactly those the source cannot reach.
//!
//! Everything is O(n + m) and parallel (rayon). The traversal is level-synchronous; small
//! frontiers (long, thin graphs such as paths and roads) are expanded serially to avoid one
//! parallel step per level. It also yields a deterministic shortest-path tree for
//! [`crate::tree`]: the parent of `v` is the smallest-id vertex of the previous level with a
//! tight arc to `v`, so the tree is acyclic by construction even with zero-weight cycles.
//!
//! Violations are reported as [`Error::Verification`] with the total count and the first
//! [`MAX_SHOWN`] in vertex order (deterministic for any thread count).

use std::fmt::Write as _;
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

use rayon::prelude::*;

use crate::error::{Error, Result};
use crate::graph::{Graph, Metric, RealDistances, NO_VERTEX};
use crate::reference::check_source;
use crate::{Dist, UNREACHED};

/// How many violations a report lists.
pub const MAX_SHOWN: usize = 10;

/// Vertices per parallel task when scanning all vertices.
const SCAN_CHUNK: usize = 1 << 12;

/// Frontiers smaller than this are expanded serially.
const SERIAL_FRONTIER: usize = 1 << 10;

/// Check that `dist` is the vector of shortest distances from `src` in `g` (see the module doc).
///
/// Preconditions: `src < n` ([`Error::VertexOutOfRange`]). Errors: [`Error::Verification`]
/// listing up to ten violations, e.g. `vertex 17: dist 12 but arc 3 -> 17 (w 4) gives 9`.
/// Works for signed weights. Complexity: O(n + m) time, parallel; 8 bytes per vertex.
///
/// # Examples
///
/// ```
/// use sssp::graph::Graph;
/// use sssp::{verify, Error};
///
/// let g = Graph::from_arcs(3, &[(0, 1, 4), (0, 2, 1), (2, 1, 2)])?;
/// verify::check(&g, 0, &[0, 3, 1])?; // the shortest distances, certified without a reference
///
/// // 4 is the length of a path to 1, but not the shortest: the arc 2 -> 1 improves it to 3.
/// let Err(Error::Verification(why)) = verify::check(&g, 0, &[0, 4, 1]) else { panic!() };
/// assert!(why.contains("vertex 1"), "{why}");
/// # Ok::<(), sssp::Error>(())
/// ```
pub fn check(g: &Graph, src: u32, dist: &[Dist]) -> Result<()> {
    certify(g, src, dist).map(drop)
}

/// Check the answer to a bounded query (a cutoff, or a target's distance, see
/// [`crate::strategy::Options::cutoff`]): `dist` must be the shortest distances from `src` for
/// every vertex at most `bound` away, and unreached for all others. The certificate of
/// [`check`] with the triangle condition asked only where the arc's candidate is within the
/// bound, and every reached distance within it. Same errors and cost as [`check`].
pub fn check_within(g: &Graph, src: u32, dist: &[Dist], bound: Dist) -> Result<()> {
    certify_within(g, src, dist, Some(bound), Beyond::Unreached).map(drop)
}

/// What a bounded certificate asks of the vertices beyond its bound.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Beyond {
    /// They must be unreached (the answer to a bounded query).
    Unreached,
    /// Anything (a full result checked only as far as one path needs).
    Anything,
}

/// [`check`], returning the tight-arc BFS tree's parents on success ([`NO_VERTEX`] for the
/// source and unreached vertices).
pub(crate) fn certify(g: &Graph, src: u32, dist: &[Dist]) -> Result<Vec<u32>> {
    certify_within(g, src, dist, None, Beyond::Unreached)
}

/// [`certify`] within `bound` (see [`check_within`]).
pub(crate) fn certify_within(
    g: &Graph,
    src: u32,
    dist: &[Dist],
    bound: Option<Dist>,
    beyond: Beyond,
) -> Result<Vec<u32>> {
    certify_from(g, &[src], dist, bound, beyond)
}

/// Check nearest-source distances (one run from a set of sources, every source at 0:
/// [`crate::strategy::many::solve_nearest`]): `dist[v]` must be the distance from the nearest of
/// `sources` to `v`. The certificate of [`check`] with every source a root. Same errors and
/// cost; a source given twice is fine.
pub fn check_nearest(g: &Graph, sources: &[u32], dist: &[Dist]) -> Result<()> {
    certify_from(g, sources, dist, None, Beyond::Unreached).map(drop)
}

/// [`check_nearest`] for the answer to a bounded query (see [`check_within`]).
pub fn check_nearest_within(g: &Graph, sources: &[u32], dist: &[Dist], bound: Option<Dist>) -> Result<()> {
    certify_from(g, sources, dist, bound, Beyond::Unreached).map(drop)
}

/// [`certify_within`] from a set of sources (every one a root at distance 0).
pub(crate) fn certify_from(
    g: &Graph,
    sources: &[u32],
    dist: &[Dist],
    bound: Option<Dist>,
    beyond: Beyond,
) -> Result<Vec<u32>> {
    for &src in sources {
        check_source(g, src)?;
    }
    if sources.is_empty() {
        return Err(Error::InvalidArgument("a certificate needs at least one source".into()));
    }
    let n = g.num_vertices();
    if dist.len() != n {
        return Err(Error::Verification(format!(
            "the distance vector has {} entries but the graph has {n} vertices",
            dist.len()
        )));
    }
    let m = g.metric();
    let mut report = Report::default();
    for &src in sources {
        if dist[src as usize] != 0 {
            report.add(|| format!("source {src}: dist {} but must be 0", m.show(dist[src as usize])));
        }
    }
    let limit = bound.map_or(i128::MAX, |b| b as i128);
    report.merge(scan(n, |u, rep| triangle_violations(g, dist, u, limit, rep)));
    if let Some(b) = bound.filter(|_| beyond == Beyond::Unreached) {
        report.merge(scan(n, |v, rep| {
            let d = dist[v as usize];
            if d != UNREACHED && d > b {
                rep.add(|| format!("vertex {v}: dist {} but the query's bound is {}", m.show(d), m.show(b)));
            }
        }));
    }
    let parents = tight_tree(g, sources, dist);
    let root = is_root(n, sources);
    report.merge(scan(n, |v, rep| {
        let d = dist[v as usize];
        if d != UNREACHED && !root[v as usize] && parents[v as usize] == NO_VERTEX {
            rep.add(|| format!("vertex {v}: dist {} but no path of tight arcs leads to it from the source", m.show(d)));
        }
    }));
    report.into_result("violation", "violations").map(|()| parents)
}

/// Check that `parents` is a shortest-path tree of `dist` from `src`: every reached vertex but
/// the source has a parent joined to it by a tight arc, the source and unreached vertices have
/// none ([`NO_VERTEX`]), and following parents from any vertex reaches the source (no cycle,
/// which zero-weight arcs would otherwise allow). `dist` must already be certified.
/// Errors: [`Error::Verification`] listing up to ten faults. Complexity: O(n + m).
pub fn check_tree(g: &Graph, src: u32, dist: &[Dist], parents: &[u32]) -> Result<()> {
    check_tree_nearest(g, &[src], dist, parents)
}

/// [`check_tree`] for a forest of nearest-source distances: every source is a root (no parent)
/// and every chain ends at one of them.
pub fn check_tree_nearest(g: &Graph, sources: &[u32], dist: &[Dist], parents: &[u32]) -> Result<()> {
    let n = g.num_vertices();
    for &s in sources {
        check_source(g, s)?;
    }
    let root = is_root(n, sources);
    let m = g.metric();
    if parents.len() != n || dist.len() != n {
        return Err(Error::Verification(format!(
            "{} parents and {} distances for {n} vertices",
            parents.len(),
            dist.len()
        )));
    }
    let mut report = scan(n, |v, rep| {
        let (p, d) = (parents[v as usize], dist[v as usize]);
        if root[v as usize] || d == UNREACHED {
            if p != NO_VERTEX {
                rep.add(|| format!("vertex {v}: parent {p} but it is the source or unreached"));
            }
        } else if p == NO_VERTEX || p as usize >= n {
            rep.add(|| format!("vertex {v}: dist {} but no parent", m.show(d)));
        } else if !g.neighbors(p).any(|(x, w)| x == v && is_tight(m, dist[p as usize], w, d)) {
            rep.add(|| format!("vertex {v}: parent {p} but no tight arc {p} -> {v}"));
        }
    });
    if report.total == 0 {
        // Every chain must end at the source: mark vertices known to, walking each chain once.
        const UNKNOWN: u8 = 0;
        const ON_WALK: u8 = 1;
        const ROOTED: u8 = 2;
        let mut state = vec![UNKNOWN; n];
        for &s in sources {
            state[s as usize] = ROOTED;
        }
        let mut walk = Vec::new();
        for start in 0..n as u32 {
            if dist[start as usize] == UNREACHED {
                continue;
            }
            let mut v = start;
            while state[v as usize] == UNKNOWN {
                state[v as usize] = ON_WALK;
                walk.push(v);
                v = parents[v as usize];
            }
            if state[v as usize] == ON_WALK {
                report.add(|| format!("vertex {v}: its parents form a cycle"));
                break;
            }
            for u in walk.drain(..) {
                state[u as usize] = ROOTED;
            }
        }
    }
    report.into_result("fault", "faults")
}

/// Compare two distance vectors entry by entry.
///
/// Errors: [`Error::Verification`] for different lengths, or listing up to ten mismatches GAP's
/// way, `v: got != want` ([`UNREACHED`] shown as `inf`). Complexity: O(n), parallel.
pub fn compare(got: &[Dist], want: &[Dist]) -> Result<()> {
    compare_in(Metric::Integer, got, want)
}

/// [`compare`], showing distances as `metric` reads them (real ones as decimals).
pub fn compare_in(metric: Metric, got: &[Dist], want: &[Dist]) -> Result<()> {
    if got.len() != want.len() {
        return Err(Error::Verification(format!("got {} distances, want {}", got.len(), want.len())));
    }
    scan(got.len(), |v, rep| {
        let (a, b) = (got[v as usize], want[v as usize]);
        if a != b {
            rep.add(|| format!("{v}: {} != {}", metric.show(a), metric.show(b)));
        }
    })
    .into_result("mismatch", "mismatches")
}

/// Is `u -> v` of weight `w` tight (`du + w == dv` in the graph's [`Metric`])? Both ends must
/// be finite: `UNREACHED` is `i64::MAX`, which a finite `du + w` can equal numerically.
///
/// With real weights the sum is the rounded `f32` one, which is what makes the certificate
/// exact there too: rounding to nearest is monotone and `x + w >= x` for `w >= 0`, so
/// conditions 2 and 3 pin `dist` to the smallest rounded path sum, bit for bit.
#[inline]
pub(crate) fn is_tight(m: Metric, du: Dist, w: i64, dv: Dist) -> bool {
    du != UNREACHED && dv != UNREACHED && m.plus(du, w) == Some(dv as i128)
}

/// Condition 2 for the out-arcs of `u`, for candidates up to `limit`.
fn triangle_violations(g: &Graph, dist: &[Dist], u: u32, limit: i128, rep: &mut Report) {
    let du = dist[u as usize];
    if du == UNREACHED {
        return;
    }
    let m = g.metric();
    for (v, w) in g.neighbors(u) {
        let dv = dist[v as usize];
        // A real sum past f32::MAX is no path at all: the engines drop it, and if it hid the
        // only way to `v` they fail with a DistanceOverflow rather than answer.
        let Some(via) = m.plus(du, w).filter(|&via| via <= limit) else { continue };
        let (w, shown) = (m.show(w), m.show(via as Dist));
        if dv == UNREACHED {
            rep.add(|| format!("vertex {v}: dist inf but arc {u} -> {v} (w {w}) gives {shown}"));
        } else if via < dv as i128 {
            rep.add(|| format!("vertex {v}: dist {} but arc {u} -> {v} (w {w}) gives {shown}", m.show(dv)));
        }
    }
}

/// Parents of the BFS tree over tight arcs from `src` ([`NO_VERTEX`] for `src` and for vertices
/// the traversal does not reach). Level-synchronous: a vertex's level is claimed by
/// compare-and-swap; every frontier vertex with a tight arc to a vertex claimed at this level
/// offers itself as parent and the smallest id wins, so the result is thread-count independent.
fn tight_tree(g: &Graph, sources: &[u32], dist: &[Dist]) -> Vec<u32> {
    let n = g.num_vertices();
    let cells = |x: u32| -> Vec<AtomicU32> {
        if n <= SCAN_CHUNK {
            (0..n).map(|_| AtomicU32::new(x)).collect()
        } else {
            (0..n).into_par_iter().map(|_| AtomicU32::new(x)).collect()
        }
    };
    let (level, parent) = (cells(u32::MAX), cells(NO_VERTEX));
    let m = g.metric();
    let mut frontier = Vec::with_capacity(sources.len());
    for &s in sources {
        // A source given twice is one root.
        if level[s as usize].swap(0, Relaxed) != 0 {
            frontier.push(s);
        }
    }
    let mut depth = 0u32;
    while !frontier.is_empty() {
        depth += 1;
        let expand = |u: u32, next: &mut Vec<u32>| {
            let du = dist[u as usize];
            for (v, w) in g.neighbors(u) {
                if !is_tight(m, du, w, dist[v as usize]) {
                    continue;
                }
                let claimed = match level[v as usize].compare_exchange(u32::MAX, depth, Relaxed, Relaxed) {
                    Ok(_) => {
                        next.push(v);
                        true
                    }
                    Err(l) => l == depth,
                };
                if claimed {
                    parent[v as usize].fetch_min(u, Relaxed);
                }
            }
        };
        frontier = if frontier.len() < SERIAL_FRONTIER {
            let mut next = Vec::new();
            for &u in &frontier {
                expand(u, &mut next);
            }
            next
        } else {
            let parts: Vec<Vec<u32>> = frontier
                .par_chunks(SERIAL_FRONTIER / 4)
                .map(|chunk| {
                    let mut next = Vec::new();
                    for &u in chunk {
                        expand(u, &mut next);
                    }
                    next
                })
                .collect();
            parts.concat()
        };
    }
    // The sources keep NO_VERTEX: their level is 0, so no later level can claim them.
    parent.into_iter().map(AtomicU32::into_inner).collect()
}

/// `n` flags: whether each vertex is one of `sources`.
fn is_root(n: usize, sources: &[u32]) -> Vec<bool> {
    let mut root = vec![false; n];
    for &s in sources {
        root[s as usize] = true;
    }
    root
}

/// Violations found so far: the total and the first few messages.
#[derive(Default)]
struct Report {
    total: u64,
    shown: Vec<String>,
}

impl Report {
    /// Count a violation; `msg` is only formatted if it will be shown.
    fn add(&mut self, msg: impl FnOnce() -> String) {
        self.total += 1;
        if self.shown.len() < MAX_SHOWN {
            self.shown.push(msg());
        }
    }

    /// Append `other`'s violations after this report's.
    fn merge(&mut self, other: Report) {
        self.total += other.total;
        let room = MAX_SHOWN - self.shown.len();
        self.shown.extend(other.shown.into_iter().take(room));
    }

    /// `Ok` if empty, else the error: `N <what>`, then one indented line per shown violation.
    fn into_result(self, one: &str, many: &str) -> Result<()> {
        if self.total == 0 {
            return Ok(());
        }
        let mut msg = format!("{} {}", self.total, if self.total == 1 { one } else { many });
        if self.total as usize > self.shown.len() {
            let _ = write!(msg, " (first {} shown)", self.shown.len());
        }
        for line in &self.shown {
            let _ = write!(msg, "\n  {line}");
        }
        Err(Error::Verification(msg))
    }
}

/// Run `visit` on every vertex `0..n` in parallel chunks and merge the reports in vertex order.
fn scan(n: usize, visit: impl Fn(u32, &mut Report) + Sync) -> Report {
    if n <= SCAN_CHUNK {
        // One chunk: on this thread. Handing it to the pool (a wake-up and a wait) costs more
        // than a small graph's whole check (a 15-vertex tree: 39 us with the hand-off).
        let mut rep = Report::default();
        (0..n as u32).for_each(|v| visit(v, &mut rep));
        return rep;
    }
    let reports: Vec<Report> = (0..n.div_ceil(SCAN_CHUNK))
        .into_par_iter()
        .map(|c| {
            let mut rep = Report::default();
            for v in c * SCAN_CHUNK..((c + 1) * SCAN_CHUNK).min(n) {
                visit(v as u32, &mut rep);
            }
            rep
        })
        .collect();
    let mut all = Report::default();
    for r in reports {
        all.merge(r);
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference;

    fn graph(n: u32, arcs: &[(u32, u32, i64)]) -> Graph {
        Graph::from_arcs(n, arcs).unwrap()
    }

    const INF: Dist = UNREACHED;

    /// 0 -> 1 (2) -> 2 (0) -> 3 (0) -> 1 (0): a zero-weight cycle 1, 2, 3 entered at 1; 4 is
    /// reached from 3 (5); 5 is unreachable but has an arc to 0.
    fn zero_cycle() -> Graph {
        graph(6, &[(0, 1, 2), (1, 2, 0), (2, 3, 0), (3, 1, 0), (3, 4, 5), (5, 0, 1)])
    }

    fn message(r: Result<()>) -> String {
        match r {
            Err(Error::Verification(m)) => m,
            other => panic!("expected a verification error, got {other:?}"),
        }
    }

    #[test]
    fn accepts_correct_distances() {
        let g = zero_cycle();
        let d = reference::dijkstra(&g, 0).unwrap();
        assert_eq!(d, vec![0, 2, 2, 2, 7, INF]);
        check(&g, 0, &d).unwrap();
        check(&g, 5, &reference::dijkstra(&g, 5).unwrap()).unwrap();
        let neg = graph(3, &[(0, 1, 4), (0, 2, 1), (2, 1, -2)]);
        check(&neg, 0, &[0, -1, 1]).unwrap();
    }

    #[test]
    fn rejects_planted_errors() {
        let g = zero_cycle();
        let good = vec![0, 2, 2, 2, 7, INF];
        let planted = |v: usize, d: Dist| {
            let mut x = good.clone();
            x[v] = d;
            x
        };
        // Too large: the arc from 3 can improve 4.
        let m = message(check(&g, 0, &planted(4, 8)));
        assert!(m.contains("vertex 4: dist 8 but arc 3 -> 4 (w 5) gives 7"), "{m}");
        // Too small: no tight path leads to 4.
        let m = message(check(&g, 0, &planted(4, 6)));
        assert!(m.contains("vertex 4: dist 6 but no path of tight arcs"), "{m}");
        // Too small on the whole zero-weight cycle: its arcs are tight among themselves and the
        // triangle inequality holds everywhere, but nothing tight leads in from the source.
        let cyc = vec![0, 1, 1, 1, 6, INF];
        let m = message(check(&g, 0, &cyc));
        assert!(m.contains("vertex 1: dist 1 but no path of tight arcs"), "{m}");
        assert!(m.starts_with("4 violations"), "{m}");
        // Unreached where it should be reached, and reached where it cannot be.
        let m = message(check(&g, 0, &planted(4, INF)));
        assert!(m.contains("vertex 4: dist inf but arc 3 -> 4 (w 5) gives 7"), "{m}");
        let m = message(check(&g, 0, &planted(5, 3)));
        assert!(m.contains("vertex 5: dist 3 but no path"), "{m}");
        // The source must be at 0.
        let m = message(check(&g, 0, &[1, 3, 3, 3, 8, INF]));
        assert!(m.contains("source 0: dist 1 but must be 0"), "{m}");
        // Wrong length.
        let m = message(check(&g, 0, &good[..5]));
        assert!(m.contains("5 entries but the graph has 6"), "{m}");
        assert!(matches!(check(&g, 6, &good), Err(Error::VertexOutOfRange { vertex: 6, .. })));
    }

    #[test]
    fn finite_value_equal_to_unreached_is_not_tight() {
        // dist[1] is "unreached"; a finite 0 + w must not make that arc tight.
        let g = graph(2, &[(0, 1, 5)]);
        assert!(!is_tight(Metric::Integer, i64::MAX - 5, 5, UNREACHED));
        assert!(check(&g, 0, &[0, INF]).is_err());
    }

    #[test]
    fn report_lists_at_most_ten() {
        let n = 30u32;
        let arcs: Vec<_> = (1..n).map(|v| (0, v, 1)).collect();
        let g = graph(n, &arcs);
        let mut d = vec![5; n as usize];
        d[0] = 0;
        let m = message(check(&g, 0, &d));
        assert!(m.starts_with("58 violations (first 10 shown)"), "{m}");
        assert_eq!(m.lines().count(), 11);
    }

    #[test]
    fn compare_lists_mismatches() {
        compare(&[0, 1, INF], &[0, 1, INF]).unwrap();
        let m = message(compare(&[0, 2, INF], &[0, 1, 4]));
        assert!(m.starts_with("2 mismatches"), "{m}");
        assert!(m.contains("1: 2 != 1") && m.contains("2: inf != 4"), "{m}");
        assert!(message(compare(&[0], &[0, 1])).contains("got 1 distances, want 2"));
    }

    #[test]
    fn parallel_frontiers_give_a_deterministic_tree() {
        // A wide two-level graph: 0 -> 1..=3000 -> 3001..; each leaf has several tight parents.
        let mut arcs = Vec::new();
        for v in 1..=3000u32 {
            arcs.push((0, v, 1));
            arcs.push((v, 3000 + (v % 50) + 1, 1));
        }
        let g = graph(3051, &arcs);
        let d = reference::dijkstra(&g, 0).unwrap();
        let p = certify(&g, 0, &d).unwrap();
        for leaf in 3001..3051u32 {
            // Parents of leaf 3001 + j are the v with v % 50 == j; the smallest is j (or 50).
            let j = leaf - 3001;
            let smallest = if j == 0 { 50 } else { j };
            assert_eq!(p[leaf as usize], smallest, "leaf {leaf}");
        }
    }
}
