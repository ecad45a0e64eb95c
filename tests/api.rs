//! The typed library API (`Graph<W>`, `Solver`, `Paths`) against the references, for
//! every weight type: random multigraphs (zero weights, self-loops, parallel arcs, unreachable
//! parts) with `u32`, `i32` (negative arcs from a vertex potential, and arbitrary ones with
//! negative cycles) and `f32` weights, every query (one source, many, batched, nearest, cutoff,
//! targets, paths), and the trees behind `path_to` checked as certificates.

use proptest::prelude::*;
use sssp::distributed::Ranks;
use sssp::reference::{self, bellman_ford, dijkstra, dijkstra_nearest};
use sssp::strategy::Algo;
use sssp::{verify, Device, Error, Graph, Paths, Solver, Weight, UNREACHED};
use sssp_tests::device;

/// The algorithms every non-negative graph is solved with (`auto` first).
const ALGOS: [Algo; 7] =
    [Algo::Auto, Algo::Dijkstra, Algo::Workfront, Algo::NearFar, Algo::Bucketing, Algo::Crauser, Algo::TopoBf];

/// The device the solvers run on: the suite's (`SSSP_TEST_DEVICE`), as a [`Device`].
fn dev() -> Device {
    device()
}

/// `paths` holds `want` (the reference's stored distances) as typed numbers, and its trees are
/// shortest-path trees: `path_to(v)` runs from the source to `v` along the tree.
fn check_paths<W: Weight>(g: &Graph<W>, paths: &Paths<'_, W>, want: &[i64], what: &str) -> Result<(), TestCaseError> {
    let src = paths.sources()[0];
    prop_assert_eq!(paths.raw_distances(), want, "{}", what);
    for (v, &d) in want.iter().enumerate() {
        prop_assert_eq!(paths.distance(v as u32).is_some(), d != UNREACHED, "{}: vertex {}", what, v);
    }
    prop_assert_eq!(paths.reached().count(), want.iter().filter(|&&d| d != UNREACHED).count());
    prop_assert_eq!(paths.distance(want.len() as u32), None);
    let parents = paths.raw_parents().map_err(|e| TestCaseError::fail(format!("{what}: tree: {e}")))?;
    verify::check_tree(g.raw(), src, want, parents).map_err(|e| TestCaseError::fail(format!("{what}: {e}")))?;
    let typed: Vec<Option<u32>> = paths.parents().unwrap().collect();
    prop_assert_eq!(typed.len(), want.len(), "{}", what);
    for v in 0..want.len() as u32 {
        prop_assert_eq!(typed[v as usize], paths.parent(v).unwrap(), "{}: parents() at {}", what, v);
        // The typed parent is the tree's, `None` for the source and the vertices not reached.
        let parent = paths.parent(v).map_err(|e| TestCaseError::fail(format!("{what}: parent: {e}")))?;
        let tree = Some(parents[v as usize]).filter(|&p| p != sssp::graph::NO_VERTEX);
        prop_assert_eq!(parent, tree, "{}: parent of {}", what, v);
        prop_assert_eq!(parent.is_some(), v != src && paths.distance(v).is_some(), "{}: parent of {}", what, v);
        match paths.path_to(v) {
            None => prop_assert!(paths.distance(v).is_none(), "{}: no path to reached {}", what, v),
            Some(p) => {
                prop_assert_eq!((p[0], *p.last().unwrap()), (src, v), "{}", what);
                for arc in p.windows(2) {
                    prop_assert!(g.neighbors(arc[0]).any(|(h, _)| h == arc[1]), "{}: no arc {:?}", what, arc);
                }
            }
        }
    }
    Ok(())
}

/// Every query of a solver on a non-negative graph against Dijkstra from `src` (and from
/// `others` for the many-source queries).
fn check_queries<W: Weight>(g: &Graph<W>, src: u32, others: &[u32], cutoff: W::Distance) -> Result<(), TestCaseError> {
    let raw = g.raw();
    let want = dijkstra(raw, src).unwrap();
    let overflows = |d: &[i64]| d.iter().any(|&d| d != UNREACHED && d >= u32::MAX as i64 - 1);
    for algo in ALGOS {
        let mut solver = Solver::new(g, dev()).unwrap().with_algo(algo);
        let what = format!("{} from {src}", algo.name());
        match solver.shortest_paths(src) {
            Ok(paths) => check_paths(g, &paths, &want, &what)?,
            Err(Error::DistanceOverflow { .. }) => prop_assert!(overflows(&want), "{}", what),
            Err(e) => prop_assert!(false, "{}: {}", what, e),
        }
        if overflows(&want) {
            continue;
        }
        // A cutoff: the same distances up to it, nothing beyond.
        let cut = solver.query().cutoff(cutoff).shortest_paths(src).unwrap();
        for (v, d) in cut.distances().enumerate() {
            let full = paths_distance::<W>(want[v]);
            prop_assert_eq!(d, full.filter(|&x| x <= cutoff), "{} cutoff: vertex {}", what, v);
        }
        // Targets and paths.
        let targets: Vec<u32> = (0..g.num_vertices() as u32).rev().collect();
        let got = solver.distances_to(src, &targets).unwrap();
        for (&t, d) in targets.iter().zip(&got) {
            prop_assert_eq!(*d, paths_distance::<W>(want[t as usize]), "{} distances_to {}", what, t);
        }
        for &t in targets.iter().take(4) {
            let one = solver.distances_to(src, &[t]).unwrap();
            prop_assert_eq!(one[0], paths_distance::<W>(want[t as usize]), "{} distance to {}", what, t);
            match solver.path(src, t).unwrap() {
                None => prop_assert_eq!(want[t as usize], UNREACHED),
                Some((d, p)) => {
                    prop_assert_eq!(Some(d), paths_distance::<W>(want[t as usize]));
                    prop_assert_eq!((p[0], *p.last().unwrap()), (src, t));
                }
            }
        }
    }
    // Many sources, one at a time and batched; nearest source.
    let mut sources = vec![src];
    sources.extend_from_slice(others);
    let wants: Vec<Vec<i64>> = sources.iter().map(|&s| dijkstra(raw, s).unwrap()).collect();
    if wants.iter().any(|w| overflows(w)) {
        return Ok(());
    }
    let mut solver = Solver::new(g, dev()).unwrap();
    for batch in [1, 4] {
        let all = solver.query().batch(batch).shortest_paths_many(&sources).unwrap();
        prop_assert_eq!(all.len(), sources.len());
        for ((p, w), s) in all.iter().zip(&wants).zip(&sources) {
            prop_assert_eq!(p.sources(), &[*s]);
            check_paths(g, p, w, &format!("batch {batch} from {s}"))?;
        }
    }
    let near = solver.nearest(&sources).unwrap();
    prop_assert_eq!(near.raw_distances(), &dijkstra_nearest(raw, &sources).unwrap()[..]);
    verify::check_tree_nearest(raw, near.sources(), near.raw_distances(), near.raw_parents().unwrap())
        .map_err(|e| TestCaseError::fail(format!("nearest: {e}")))?;
    for v in 0..g.num_vertices() as u32 {
        if let Some(s) = near.nearest_source(v) {
            prop_assert!(sources.contains(&s));
            prop_assert_eq!(near.path_to(v).map(|p| p[0]), Some(s));
        }
    }
    Ok(())
}

/// A stored distance as `W`'s distance type (`None` for unreached): what `Paths` must give, by
/// the documented correspondence (u32 -> u64, i32 -> i64, f32 -> its bits).
fn paths_distance<W: Weight>(d: i64) -> Option<W::Distance> {
    if d == UNREACHED {
        return None;
    }
    let any: Box<dyn std::any::Any> = match W::NAME {
        "u32" => Box::new(d as u64),
        "i32" => Box::new(d),
        "f32" => Box::new(f32::from_bits(d as u32)),
        other => panic!("weight type {other}"),
    };
    Some(*any.downcast::<W::Distance>().expect("the documented distance type"))
}

/// `n` vertices and up to 150 arcs drawn by `weight`, as `(tail, head, weight)` triples.
fn arb_edges<W: std::fmt::Debug + Clone + 'static>(
    weight: impl Strategy<Value = W> + Clone + 'static,
) -> impl Strategy<Value = (u32, Vec<(u32, u32, W)>)> {
    (1u32..30).prop_flat_map(move |n| (Just(n), prop::collection::vec((0..n, 0..n, weight.clone()), 0..150)))
}

fn u32_weight() -> impl Strategy<Value = u32> + Clone {
    prop_oneof![3 => Just(0u32), 4 => 0u32..5, 4 => 0u32..1000, 1 => (1u32 << 31) - 3..(1 << 31)]
}

fn f32_weight() -> impl Strategy<Value = f32> + Clone {
    prop_oneof![2 => Just(0.0f32), 2 => Just(0.5f32), 4 => 0.0f32..10.0, 2 => 0.0f32..1e6, 1 => Just(1e-3f32)]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn u32_graphs_match_dijkstra((n, edges) in arb_edges(u32_weight()), pick in any::<u32>(), cutoff in 0u64..2000) {
        let g = Graph::from_edges(n as usize, edges).unwrap();
        check_queries(&g, pick % n, &[(pick / 7) % n, (pick / 13) % n], cutoff)?;
    }

    #[test]
    fn f32_graphs_match_dijkstra((n, edges) in arb_edges(f32_weight()), pick in any::<u32>(), cutoff in 0.0f32..30.0) {
        let g = Graph::from_edges(n as usize, edges).unwrap();
        check_queries(&g, pick % n, &[(pick / 7) % n], cutoff)?;
    }

    #[test]
    fn undirected_graphs_are_symmetric((n, edges) in arb_edges(0u32..100), pick in any::<u32>()) {
        let g = Graph::from_undirected_edges(n as usize, edges.clone()).unwrap();
        prop_assert_eq!(g.num_edges(), 2 * edges.len());
        let (a, b) = (pick % n, (pick / 31) % n);
        let mut solver = Solver::new(&g, dev()).unwrap();
        prop_assert_eq!(solver.distances_to(a, &[b]).unwrap(), solver.distances_to(b, &[a]).unwrap());
    }

    /// Non-negative `i32` weights shifted by a vertex potential: many negative arcs, no negative
    /// cycle, and `d'(s, v) = d(s, v) + p(s) - p(v)`; Bellman-Ford is the reference.
    #[test]
    fn i32_graphs_with_negative_arcs_match_bellman_ford(
        (n, edges) in arb_edges(0i32..100),
        potentials in prop::collection::vec(0i32..60, 30),
        pick in any::<u32>(),
        cutoff in 0i64..150,
    ) {
        let shifted = edges.iter().map(|&(u, v, w)| (u, v, w + potentials[u as usize] - potentials[v as usize]));
        let g = Graph::from_edges(n as usize, shifted).unwrap();
        let src = pick % n;
        let want = bellman_ford(g.raw(), src).unwrap();
        for algo in [Algo::Auto, Algo::BellmanFord, Algo::Workfront, Algo::TopoBf] {
            let mut solver = Solver::new(&g, dev()).unwrap().with_algo(algo);
            let paths = solver.shortest_paths(src).unwrap();
            check_paths(&g, &paths, &want, algo.name())?;
            // A cutoff on negative weights: the whole graph solved, the answer cut, the
            // paths of the vertices within it still whole.
            let cut = solver.query().cutoff(cutoff).shortest_paths(src).unwrap();
            for v in 0..n {
                let d = paths.distance(v);
                prop_assert_eq!(cut.distance(v), d.filter(|&d| d <= cutoff), "{} cutoff {}: vertex {}", algo.name(), cutoff, v);
                if cut.distance(v).is_some() {
                    prop_assert_eq!(cut.path_to(v).map(|p| p[0]), Some(src));
                }
            }
        }
        if g.has_negative_weights() {
            let refused = Solver::new(&g, dev()).unwrap().with_algo(Algo::Dijkstra).shortest_paths(src);
            prop_assert!(matches!(refused, Err(Error::NegativeWeight { .. })), "dijkstra took a negative weight");
        }
    }

    /// Arbitrary `i32` weights: the answer of Bellman-Ford, or a negative cycle reachable from the
    /// source, listed with its (negative) weight.
    #[test]
    fn i32_negative_cycles_are_typed_errors((n, edges) in arb_edges(-20i32..60), pick in any::<u32>()) {
        let g = Graph::from_edges(n as usize, edges).unwrap();
        let src = pick % n;
        let want = bellman_ford(g.raw(), src);
        for algo in [Algo::Auto, Algo::Workfront] {
            match (Solver::new(&g, dev()).unwrap().with_algo(algo).shortest_paths(src), &want) {
                (Ok(paths), Ok(want)) => check_paths(&g, &paths, want, algo.name())?,
                (Err(Error::NegativeCycle { cycle, weight, vertex }), Err(Error::NegativeCycle { .. })) => {
                    prop_assert!(weight < 0 && cycle[0] == vertex);
                    prop_assert_eq!(reference::cycle_weight(g.raw(), &cycle), Some(weight));
                    let reach = g.raw().reachable(src);
                    prop_assert!(cycle.iter().all(|&v| reach[v as usize]));
                }
                (got, want) => prop_assert!(false, "{}: got {:?}, want {:?}", algo.name(), got.map(|p| p.num_reached()), want.as_ref().map(|_| ())),
            }
        }
    }
}

/// A solver on ranks (the library's option, `Solver::on_ranks`) answers like Dijkstra: distances and
/// trees, cutoffs, distances to targets and paths, on integer and real weights.
fn check_ranked<W: Weight>(g: &Graph<W>, src: u32, others: &[u32], cutoff: W::Distance) -> Result<(), TestCaseError> {
    let want = dijkstra(g.raw(), src).unwrap();
    for p in [1, 3] {
        let mut solver = Solver::on_ranks(g, Ranks::Simulated(p)).unwrap();
        let what = format!("{p} ranks from {src}");
        let paths = match solver.shortest_paths(src) {
            Ok(paths) => paths,
            Err(Error::DistanceOverflow { .. }) => continue,
            Err(e) => return Err(TestCaseError::fail(format!("{what}: {e}"))),
        };
        prop_assert_eq!(paths.algorithm(), Algo::DeltaStepping);
        check_paths(g, &paths, &want, &what)?;
        let cut = solver.query().cutoff(cutoff).shortest_paths(src).unwrap();
        for v in 0..want.len() as u32 {
            prop_assert_eq!(
                cut.distance(v),
                paths.distance(v).filter(|&d| d <= cutoff),
                "{} cutoff: vertex {}",
                what,
                v
            );
        }
        let to: Vec<_> = others.iter().map(|&t| paths.distance(t)).collect();
        prop_assert_eq!(solver.distances_to(src, others).unwrap(), to, "{}", what);
        for &t in others {
            let path = solver.path(src, t).unwrap();
            prop_assert_eq!(path.as_ref().map(|(d, _)| *d), paths.distance(t), "{}: path to {}", what, t);
            if let Some((_, p)) = path {
                prop_assert_eq!((p[0], *p.last().unwrap()), (src, t));
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    #[test]
    fn ranked_solvers_match_dijkstra((n, edges) in arb_edges(u32_weight()), pick in any::<u32>(), cutoff in 0u64..2000) {
        let g = Graph::from_edges(n as usize, edges).unwrap();
        check_ranked(&g, pick % n, &[(pick / 7) % n, (pick / 13) % n], cutoff)?;
    }

    #[test]
    fn ranked_solvers_match_dijkstra_on_reals((n, edges) in arb_edges(f32_weight()), pick in any::<u32>(), cutoff in 0.0f32..30.0) {
        let g = Graph::from_edges(n as usize, edges).unwrap();
        check_ranked(&g, pick % n, &[(pick / 7) % n], cutoff)?;
    }
}

#[test]
fn ranked_solvers_refuse_what_ranks_do_not_run() {
    let g = Graph::from_edges(3, [(0, 1, 1u32), (1, 2, 2)]).unwrap();
    let mut solver = Solver::on_ranks(&g, Ranks::Simulated(2)).unwrap();
    assert!(matches!(solver.nearest(&[0, 2]), Err(Error::InvalidArgument(_))));
    assert!(matches!(solver.query().algo(Algo::NearFar).shortest_paths(0), Err(Error::InvalidArgument(_))));
    assert_eq!(solver.query().algo(Algo::DeltaStepping).shortest_paths(0).unwrap().distance(2), Some(3));
    assert!(matches!(solver.shortest_paths(3), Err(Error::VertexOutOfRange { vertex: 3, .. })));
    let neg = Graph::from_edges(2, [(0, 1, -1i32)]).unwrap();
    let mut solver = Solver::on_ranks(&neg, Ranks::Simulated(2)).unwrap();
    assert!(matches!(solver.shortest_paths(0), Err(Error::NegativeWeight { .. })));
    assert!(matches!(Solver::on_ranks(&g, Ranks::Simulated(0)), Err(Error::InvalidArgument(_))));
    assert!(!solver.is_gpu() && solver.fallback().is_none());
}

#[test]
fn bad_queries_are_typed_errors() {
    let g = Graph::from_edges(3, [(0, 1, 1.0f32), (1, 2, 2.0)]).unwrap();
    let mut solver = Solver::new(&g, dev()).unwrap();
    assert!(matches!(solver.shortest_paths(3), Err(Error::VertexOutOfRange { vertex: 3, num_vertices: 3 })));
    assert!(matches!(solver.path(0, 9), Err(Error::VertexOutOfRange { vertex: 9, .. })));
    assert!(matches!(solver.distances_to(0, &[1, 5]), Err(Error::VertexOutOfRange { vertex: 5, .. })));
    assert!(matches!(solver.shortest_paths_many(&[0, 4]), Err(Error::VertexOutOfRange { vertex: 4, .. })));
    assert!(matches!(solver.nearest(&[]), Err(Error::InvalidArgument(_))));
    for bad in [f32::NAN, -1.0, f32::INFINITY] {
        assert!(matches!(solver.query().cutoff(bad).shortest_paths(0), Err(Error::InvalidArgument(_))), "{bad}");
    }
    let neg = Graph::from_edges(2, [(0, 1, -1i32)]).unwrap();
    let mut solver = Solver::new(&neg, dev()).unwrap();
    assert!(matches!(solver.query().cutoff(-1).shortest_paths(0), Err(Error::InvalidArgument(_))));
    assert!(matches!(solver.nearest(&[0]), Err(Error::InvalidArgument(_))));
    assert_eq!(solver.path(0, 1).unwrap(), Some((-1, vec![0, 1])));
    // The `phast` hierarchy needs non-negative integer weights.
    let real = Graph::from_edges(2, [(0, 1, 0.5f32)]).unwrap();
    assert!(Solver::new(&real, dev()).unwrap().prepare_hierarchy().is_err());
}

#[test]
fn a_hierarchy_is_prepared_once_and_auto_runs_phast_on_it() {
    let raw =
        sssp::generate::generate(&sssp::generate::GenSpec::parse("road:3000").unwrap(), 1, sssp::WeightSpec::AsGiven)
            .unwrap();
    let g = Graph::<u32>::from_raw(raw).unwrap();
    let mut solver = Solver::new(&g, dev()).unwrap();
    assert!(solver.prepare_hierarchy().unwrap());
    assert!(!solver.prepare_hierarchy().unwrap(), "built once");
    for src in [0, 1234, 2999] {
        let paths = solver.shortest_paths(src).unwrap();
        assert_eq!(paths.algorithm(), Algo::Phast);
        assert_eq!(paths.raw_distances(), &dijkstra(g.raw(), src).unwrap()[..]);
        verify::check_tree(g.raw(), src, paths.raw_distances(), paths.raw_parents().unwrap()).unwrap();
    }
}

#[test]
fn files_read_as_their_weight_type() {
    let dir = sssp_tests::TempDir::new("api-read");
    let ints = dir.write("g.gr", "p sp 3 2\na 1 2 5\na 2 3 7\n");
    let negs = dir.write("n.gr", "p sp 3 2\na 1 2 5\na 2 3 -7\n");
    let reals = dir.write("r.el", "0 1 0.25\n1 2 0.5\n");
    assert_eq!(Graph::<u32>::read(&ints).unwrap().num_edges(), 2);
    assert_eq!(Graph::<i32>::read(&ints).unwrap().neighbors(1).collect::<Vec<_>>(), vec![(2, 7)]);
    assert_eq!(Graph::<f32>::read(&ints).unwrap().neighbors(0).collect::<Vec<_>>(), vec![(1, 5.0)]);
    assert!(matches!(Graph::<u32>::read(&negs), Err(Error::InvalidArgument(_))));
    assert_eq!(Graph::<i32>::read(&negs).unwrap().neighbors(1).collect::<Vec<_>>(), vec![(2, -7)]);
    assert!(matches!(Graph::<u32>::read(&reals), Err(Error::InvalidArgument(_))));
    let g = Graph::<f32>::read(reals.as_path()).unwrap();
    assert_eq!(Solver::new(&g, dev()).unwrap().path(0, 2).unwrap(), Some((0.75, vec![0, 1, 2])));
    assert!(matches!(Graph::<u32>::read(dir.path("missing.gr")), Err(Error::Io { .. })));
}

#[test]
fn paths_debug_is_short() {
    let g = Graph::from_edges(40, (0..39).map(|v| (v, v + 1, 1u32))).unwrap();
    let paths = Solver::new(&g, Device::Cpu).unwrap().shortest_paths(0).unwrap();
    let s = format!("{paths:?}");
    assert!(s.starts_with("Paths { sources: [0], algorithm: ") && s.contains("reached: 40"), "{s}");
    assert!(s.contains("\"..\": 32") && s.len() < 300, "{s}");
}

/// A strategy's bucket width is a number in the graph's own weight type: 2 on real weights is
/// 2.0 (not an `f32` bit pattern), a fraction on integer weights is refused, and either runs
/// exactly (the stats report the width as the graph's distances encode it).
#[test]
fn bucket_widths_are_numbers_of_the_weight_type() {
    use sssp::strategy::{near_far::NearFar, Strategy, Width};
    let edges = |w: f32| (0..59u32).flat_map(move |v| [(v, v + 1, w), (v, (v * 7 + 3) % 60, 2.0 * w)]);
    let real = Graph::from_edges(60, edges(0.75)).unwrap();
    let ints = Graph::from_edges(60, edges(3.0).map(|(u, v, w)| (u, v, w as u32))).unwrap();
    let near_far = |w: Width| Strategy::NearFar(NearFar { delta: Some(w), ..NearFar::default() });
    for (delta, bits) in [(Width::from(2u32), 2.0f32.to_bits()), (Width::from(1.5f32), 1.5f32.to_bits())] {
        let paths = Solver::new(&real, dev()).unwrap().with_strategy(near_far(delta)).shortest_paths(0).unwrap();
        assert_eq!(paths.raw_distances(), &dijkstra(real.raw(), 0).unwrap()[..], "{delta:?}");
        assert_eq!(paths.stats().delta, Some(bits), "{delta:?}");
    }
    let paths =
        Solver::new(&ints, dev()).unwrap().with_strategy(near_far(Width::from(4.0f32))).shortest_paths(0).unwrap();
    assert_eq!((paths.raw_distances(), paths.stats().delta), (&dijkstra(ints.raw(), 0).unwrap()[..], Some(4)));
    let half = Solver::new(&ints, dev()).unwrap().with_strategy(near_far(Width::from(2.5f32))).shortest_paths(0);
    assert!(matches!(half, Err(Error::InvalidArgument(ref m)) if m.contains("whole number")), "{half:?}");
}
