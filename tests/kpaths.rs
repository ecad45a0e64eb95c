//! k shortest simple paths (Yen) and the shortest-path DAG, against brute force: every simple
//! path of a small random multigraph (zero weights, self loops, parallel arcs, ties) enumerated
//! and sorted in the documented order, and every tight arc of the reference distances.

use proptest::prelude::*;
use sssp::{Error, Graph, Solver};
use sssp_tests::device;

/// Every simple path from `s` to `t` with its length (the lightest of parallel arcs), sorted by
/// (length, arcs, vertices): the order `k_shortest_paths` documents.
fn brute_force(n: usize, arcs: &[(u32, u32, u32)], s: u32, t: u32) -> Vec<(u64, Vec<u32>)> {
    let mut best = vec![vec![None::<u64>; n]; n];
    for &(u, v, w) in arcs {
        let b = &mut best[u as usize][v as usize];
        *b = Some(b.map_or(w as u64, |x: u64| x.min(w as u64)));
    }
    let mut out = Vec::new();
    let mut path = vec![s];
    fn dfs(best: &[Vec<Option<u64>>], t: u32, path: &mut Vec<u32>, len: u64, out: &mut Vec<(u64, Vec<u32>)>) {
        let u = *path.last().unwrap();
        if u == t {
            out.push((len, path.clone()));
            return;
        }
        for v in 0..best.len() as u32 {
            if let Some(w) = best[u as usize][v as usize] {
                if !path.contains(&v) {
                    path.push(v);
                    dfs(best, t, path, len + w, out);
                    path.pop();
                }
            }
        }
    }
    dfs(&best, t, &mut path, 0, &mut out);
    out.sort_by(|a, b| (a.0, a.1.len(), &a.1).cmp(&(b.0, b.1.len(), &b.1)));
    out
}

/// Each path simple, from `s` to `t`, of its stated length, in non-decreasing order, distinct.
fn check_paths(g: &Graph<u32>, s: u32, t: u32, found: &[(u64, Vec<u32>)]) {
    let raw = g.raw();
    for (i, (len, p)) in found.iter().enumerate() {
        assert_eq!((p[0], *p.last().unwrap()), (s, t));
        let mut seen = p.clone();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), p.len(), "not simple: {p:?}");
        let sum: u64 = p
            .windows(2)
            .map(|a| raw.neighbors(a[0]).filter(|&(h, _)| h == a[1]).map(|(_, w)| w as u64).min().unwrap())
            .sum();
        assert_eq!(sum, *len, "{p:?}");
        if i > 0 {
            assert!(found[i - 1].0 <= *len && found[i - 1].1 != *p);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// Small random multigraphs: the k shortest paths are the first k of brute force, in
    /// the documented order (ties included), a huge k returns every simple path, and a
    /// cutoff keeps the first k of those no longer than it.
    #[test]
    fn yen_matches_brute_force(
        n in 2u32..8,
        arcs in prop::collection::vec((0u32..8, 0u32..8, 0u32..4), 0..26),
        s in 0u32..8,
        t in 0u32..8,
        k in 1usize..12,
        cutoff in 0u64..12,
    ) {
        let arcs: Vec<_> = arcs.into_iter().map(|(u, v, w)| (u % n, v % n, w)).collect();
        let (s, t) = (s % n, t % n);
        let g = Graph::from_edges(n as usize, arcs.iter().copied()).unwrap();
        let mut solver = Solver::new(&g, device()).unwrap();
        let all = brute_force(n as usize, &arcs, s, t);
        let found = solver.k_shortest_paths(s, t, k).unwrap();
        let want: Vec<_> = all.iter().take(k).cloned().collect();
        prop_assert_eq!(&found, &want);
        check_paths(&g, s, t, &found);
        prop_assert_eq!(&solver.k_shortest_paths(s, t, 1 << 40).unwrap(), &all);
        let within: Vec<_> = all.iter().filter(|p| p.0 <= cutoff).take(k).cloned().collect();
        prop_assert_eq!(solver.query().cutoff(cutoff).k_shortest_paths(s, t, k).unwrap(), within);
    }

    /// Unit and 0/1 weights on random graphs of up to 9 vertices: ties everywhere, which the
    /// searches on integer weights resolve by the vertex sequence; against brute force.
    #[test]
    fn ties_resolve_as_brute_force(
        n in 2u32..10,
        arcs in prop::collection::vec((0u32..10, 0u32..10, 0u32..2), 0..40),
        k in 1usize..30,
    ) {
        let arcs: Vec<_> = arcs.into_iter().map(|(u, v, w)| (u % n, v % n, w)).collect();
        let g = Graph::from_edges(n as usize, arcs.iter().copied()).unwrap();
        let mut solver = Solver::new(&g, device()).unwrap();
        let all = brute_force(n as usize, &arcs, 0, n - 1);
        let want: Vec<_> = all.iter().take(k).cloned().collect();
        prop_assert_eq!(solver.k_shortest_paths(0, n - 1, k).unwrap(), want);
    }

    /// The shortest-path DAG: every tight arc of the reference distances, on integer and real
    /// weights.
    #[test]
    fn dag_matches_tight_arcs(
        n in 1u32..12,
        arcs in prop::collection::vec((0u32..12, 0u32..12, 0u32..4), 0..40),
        s in 0u32..12,
    ) {
        let arcs: Vec<_> = arcs.into_iter().map(|(u, v, w)| (u % n, v % n, w)).collect();
        let s = s % n;
        let g = Graph::from_edges(n as usize, arcs.iter().copied()).unwrap();
        let paths = Solver::new(&g, device()).unwrap().shortest_paths(s).unwrap();
        let d = sssp::reference::dijkstra(g.raw(), s).unwrap();
        let gr = Graph::from_edges(n as usize, arcs.iter().map(|&(u, v, w)| (u, v, w as f32 * 0.5))).unwrap();
        let real = Solver::new(&gr, device()).unwrap().shortest_paths(s).unwrap();
        for v in 0..n {
            let mut want: Vec<u32> = arcs
                .iter()
                .filter(|&&(u, x, w)| x == v && d[u as usize] != sssp::UNREACHED && d[v as usize] == d[u as usize] + w as i64)
                .map(|&(u, _, _)| u)
                .collect();
            want.sort_unstable();
            want.dedup();
            prop_assert_eq!(paths.predecessors_all(v), &want[..], "vertex {}", v);
            prop_assert_eq!(real.predecessors_all(v), &want[..], "vertex {} (f32)", v);
        }
    }
}

/// Real weights (halves: exact in f32 and f64) give the same paths as the integers doubled,
/// with and without a cutoff.
#[test]
fn real_weights_order_as_integers() {
    let arcs = [(0, 1, 1u32), (1, 4, 2), (0, 2, 2), (2, 4, 1), (0, 3, 0), (3, 4, 3), (1, 2, 0), (2, 1, 0), (0, 4, 4)];
    let g = Graph::from_edges(5, arcs).unwrap();
    let gr = Graph::from_edges(5, arcs.iter().map(|&(u, v, w)| (u, v, w as f32 * 0.5))).unwrap();
    let a = Solver::new(&g, device()).unwrap().k_shortest_paths(0, 4, 20).unwrap();
    let b = Solver::new(&gr, device()).unwrap().k_shortest_paths(0, 4, 20).unwrap();
    assert_eq!(a.len(), 6);
    let halves: Vec<_> = a.iter().map(|(l, p)| (*l as f32 * 0.5, p.clone())).collect();
    assert_eq!(b, halves);
    for c in 0..9u32 {
        let a = Solver::new(&g, device()).unwrap().query().cutoff(c as u64).k_shortest_paths(0, 4, 20).unwrap();
        let b = Solver::new(&gr, device()).unwrap().query().cutoff(c as f32 * 0.5).k_shortest_paths(0, 4, 20).unwrap();
        let within: Vec<_> = halves.iter().filter(|p| p.0 <= c as f32 * 0.5).cloned().collect();
        assert_eq!(b, within, "cutoff {c}");
        assert_eq!(a.len(), within.len(), "cutoff {c}");
    }
}

/// A 12x12 grid (too many paths to enumerate): 200 paths, each simple and of its length, the
/// first as long as the shortest path.
#[test]
fn grid_paths_are_simple_and_sorted() {
    let g0 = sssp::generate::generate(
        &sssp::generate::GenSpec::parse("grid2d:12x12").unwrap(),
        3,
        sssp::WeightSpec::parse("random:1-9:5").unwrap(),
    )
    .unwrap();
    let g = Graph::<u32>::from_raw(g0).unwrap();
    let mut solver = Solver::new(&g, device()).unwrap();
    let found = solver.k_shortest_paths(0, 143, 200).unwrap();
    assert_eq!(found.len(), 200);
    assert_eq!(Some(found[0].0), solver.shortest_paths(0).unwrap().distance(143));
    check_paths(&g, 0, 143, &found);
}

#[test]
fn bad_input_is_a_typed_error() {
    let g = Graph::from_edges(4, [(0, 1, 1u32), (1, 2, 1)]).unwrap();
    let mut solver = Solver::new(&g, device()).unwrap();
    assert!(matches!(solver.k_shortest_paths(0, 2, 0), Err(Error::InvalidArgument(_))));
    assert!(matches!(solver.k_shortest_paths(0, 9, 1), Err(Error::VertexOutOfRange { vertex: 9, .. })));
    assert!(matches!(solver.k_shortest_paths(9, 0, 1), Err(Error::VertexOutOfRange { vertex: 9, .. })));
    assert_eq!(solver.k_shortest_paths(0, 3, 5).unwrap(), vec![]); // not reached
    assert_eq!(solver.k_shortest_paths(2, 0, 5).unwrap(), vec![]);
    assert_eq!(solver.k_shortest_paths(1, 1, 5).unwrap(), vec![(0, vec![1])]);
    let err = Solver::new(&Graph::from_edges(2, [(0, 1, 1i32)]).unwrap(), device())
        .unwrap()
        .query()
        .cutoff(-1)
        .k_shortest_paths(0, 1, 1)
        .unwrap_err();
    assert!(matches!(err, Error::InvalidArgument(_)), "{err:?}");
    let neg = Graph::from_edges(3, [(0, 1, 2i32), (1, 2, -1)]).unwrap();
    let err = Solver::new(&neg, device()).unwrap().k_shortest_paths(0, 2, 2).unwrap_err();
    assert!(matches!(err, Error::NegativeWeight { from: 1, to: 2, weight: -1, .. }), "{err:?}");
}

/// A 10x10 grid of weights 1-3 (ties everywhere, far too many paths to enumerate): the searches
/// on integer weights and those on the same weights as reals (a different algorithm: backwards
/// Dijkstra per spur vertex) agree path for path, with and without a cutoff.
#[test]
fn integer_and_real_searches_agree_on_a_grid() {
    let g0 = sssp::generate::generate(
        &sssp::generate::GenSpec::parse("grid2d:10x10").unwrap(),
        7,
        sssp::WeightSpec::parse("random:1-3:9").unwrap(),
    )
    .unwrap();
    let g = Graph::<u32>::from_raw(g0).unwrap();
    let arcs: Vec<(u32, u32, f32)> =
        (0..100).flat_map(|u| g.raw().neighbors(u).map(move |(v, w)| (u, v, w as f32)).collect::<Vec<_>>()).collect();
    let gr = Graph::from_edges(100, arcs).unwrap();
    for (s, t, cut) in [(0, 99, None), (9, 90, None), (45, 3, Some(14u64))] {
        let mut a = Solver::new(&g, device()).unwrap();
        let mut b = Solver::new(&gr, device()).unwrap();
        let (a, b) = match cut {
            None => (a.k_shortest_paths(s, t, 300).unwrap(), b.k_shortest_paths(s, t, 300).unwrap()),
            Some(c) => (
                a.query().cutoff(c).k_shortest_paths(s, t, 300).unwrap(),
                b.query().cutoff(c as f32).k_shortest_paths(s, t, 300).unwrap(),
            ),
        };
        assert!(a.len() > 20, "{s} -> {t}: {} paths", a.len());
        let as_real: Vec<_> = a.iter().map(|(l, p)| (*l as f32, p.clone())).collect();
        assert_eq!(as_real, b, "{s} -> {t}");
        check_paths(&g, s, t, &a);
    }
}
