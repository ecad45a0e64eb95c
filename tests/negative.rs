//! Negative weights on the engines (H-BF's setting): Workfront and topology-driven
//! Bellman-Ford in every balance and dedupe mode against serial Bellman-Ford and, on
//! potential-shifted graphs, against Dijkstra on the unshifted graph; negative cycles reported
//! with a witness that is checked to be a real, reachable, negative cycle; overflow in both
//! directions; the strategies and queries that refuse negative weights.
//!
//! The device comes from `SSSP_TEST_DEVICE` as in `strategies.rs`: the GPU suite runs these too.

use proptest::prelude::*;
use sssp::engine::{self, Engine};
use sssp::generate::{generate, GenSpec};
use sssp::graph::Graph;
use sssp::strategy::{solve, solve_each, solve_nearest, Algo, Options};
use sssp::{Dist, EdgeList, Error, Metric, WeightSpec, UNREACHED};

use sssp_tests::{configs, device};

/// The engine configurations that take negative weights (`auto` included: it picks one).
fn negative_configs() -> Vec<(Algo, Options)> {
    let v: Vec<_> = configs(Metric::Signed)
        .into_iter()
        .filter(|(a, _)| matches!(a, Algo::Auto | Algo::Workfront | Algo::TopoBf))
        .collect();
    assert!(!v.is_empty(), "SSSP_TEST_ALGOS keeps no negative-weight configuration");
    v
}

fn graph(n: u32, arcs: &[(u32, u32, i64)]) -> Graph {
    let mut e = EdgeList::with_capacity(n, arcs.len());
    for &(u, v, w) in arcs {
        e.push(u, v, w);
    }
    e.into_graph_as_given().unwrap()
}

/// Every configuration from each source equals serial Bellman-Ford.
fn check_all(g: &Graph, eng: &mut (dyn Engine + 'static), sources: &[u32], what: &str) {
    for &src in sources {
        let want = sssp::reference::bellman_ford(g, src).unwrap();
        for (algo, opts) in negative_configs() {
            let sol = solve(g, algo, Some(&mut *eng), src, &opts)
                .unwrap_or_else(|e| panic!("{what}: {} {opts:?} from {src}: {e}", algo.name()));
            if let Err(e) = sssp::verify::compare(&sol.dist, &want) {
                panic!("{what}: {} {opts:?} from {src}: {e}", algo.name());
            }
        }
    }
}

/// A family with potential-shifted weights: negative arcs, no negative cycle, and distances
/// that Dijkstra on the unshifted graph predicts exactly.
fn family(spec: &str, seed: u64) {
    let (lo, hi, potential) = (1, 100, 400);
    let shifted = WeightSpec::Shifted { lo, hi, potential, seed };
    let gs = GenSpec::parse(spec).unwrap();
    let g = generate(&gs, seed, shifted).unwrap();
    let base = generate(&gs, seed, WeightSpec::Random { lo, hi, seed }).unwrap();
    assert_eq!(g.metric(), Metric::Signed, "{spec}: no negative arc");
    let mut eng = engine::open(&g, device()).unwrap();
    let mut sources = sssp::reference::pick_sources(&g, 2, seed);
    sources.push(0);
    check_all(&g, eng.as_mut(), &sources, spec);
    // d'(s, v) = d(s, v) + p(s) - p(v): an answer independent of Bellman-Ford.
    let p = |v: u32| WeightSpec::potential(potential, seed, v);
    let src = sources[0];
    let d = sssp::reference::dijkstra(&base, src).unwrap();
    let sol = solve(&g, Algo::Workfront, Some(eng.as_mut()), src, &Options::default()).unwrap();
    for v in 0..g.num_vertices() as u32 {
        let want = if d[v as usize] == UNREACHED { UNREACHED } else { d[v as usize] + p(src) - p(v) };
        assert_eq!(sol.dist[v as usize], want, "{spec}: vertex {v}");
    }
}

#[test]
fn road() {
    family("road:3000", 1);
}

#[test]
fn grid2d() {
    family("grid2d:25x25", 2);
}

#[test]
fn kron() {
    family("kron:10", 3);
}

#[test]
fn long_path_and_star() {
    family("path:500", 4);
    family("star:300", 5);
}

#[test]
fn disconnected_multi_edges_and_self_loops() {
    family("disconnected:3:300", 6);
    family("multi:200", 7);
    family("selfloops:200", 8);
}

/// The witness must be a cycle of `g`, negative, reachable from `src`.
fn assert_witness(g: &Graph, src: u32, e: &Error, what: &str) -> Vec<u32> {
    let Error::NegativeCycle { vertex, cycle, weight } = e else { panic!("{what}: {e}") };
    assert_eq!(cycle[0], *vertex, "{what}");
    assert_eq!(*vertex, *cycle.iter().min().unwrap(), "{what}: starts at its smallest id");
    assert!(*weight < 0, "{what}: weight {weight}");
    assert_eq!(sssp::reference::cycle_weight(g, cycle), Some(*weight), "{what}: not a cycle of that weight");
    assert!(g.reachable(src)[*vertex as usize], "{what}: unreachable cycle reported");
    cycle.clone()
}

#[test]
fn negative_cycles_are_found_with_a_witness() {
    // 0 -> 1 -> 2 -> 3 -> 1 weighs -1 around 1, 2, 3; 4 hangs off it; 5 <-> 6 is a second
    // negative cycle that 0 cannot reach.
    let g = graph(7, &[(0, 1, 2), (1, 2, 1), (2, 3, 1), (3, 1, -3), (3, 4, 5), (5, 6, -1), (6, 5, -1), (6, 0, 1)]);
    let mut eng = engine::open(&g, device()).unwrap();
    for (algo, opts) in negative_configs() {
        let what = format!("{} {opts:?}", algo.name());
        let e = solve(&g, algo, Some(eng.as_mut()), 0, &opts).expect_err(&what);
        assert_eq!(assert_witness(&g, 0, &e, &what), vec![1, 2, 3], "{what}");
        // From 5 the first cycle is reached too, through 0; whichever is reported is real.
        let e = solve(&g, algo, Some(eng.as_mut()), 5, &opts).expect_err(&what);
        assert_witness(&g, 5, &e, &what);
    }
    // A negative self loop is a cycle; an unreachable one is no error.
    let g = graph(4, &[(0, 1, 1), (1, 2, -2), (3, 3, -1)]);
    let mut eng = engine::open(&g, device()).unwrap();
    check_all(&g, eng.as_mut(), &[0], "unreachable self loop");
    let e = solve(&g, Algo::Workfront, Some(eng.as_mut()), 3, &Options::default()).unwrap_err();
    assert_eq!(assert_witness(&g, 3, &e, "self loop"), vec![3]);
}

#[test]
fn planted_negative_cycles_from_the_generator() {
    // `negcycle:N:LEN:in`: every base vertex reaches a cycle of weight -1 on N..N+LEN, which
    // every engine configuration must name; `out`: no base vertex reaches it, so runs from the
    // base are exact and runs from the cycle fail.
    for (n, len, seed) in [(300u32, 1u32, 1u64), (500, 9, 2), (200, 150, 3)] {
        let reached =
            generate(&GenSpec::parse(&format!("negcycle:{n}:{len}:in")).unwrap(), seed, WeightSpec::AsGiven).unwrap();
        assert_eq!((reached.num_vertices(), reached.metric()), ((n + len) as usize, Metric::Signed));
        let mut eng = engine::open(&reached, device()).unwrap();
        for (algo, opts) in negative_configs() {
            let what = format!("negcycle:{n}:{len}:in {} {opts:?}", algo.name());
            let src = seed as u32; // a base vertex
            let e = solve(&reached, algo, Some(eng.as_mut()), src, &opts).expect_err(&what);
            let cycle = assert_witness(&reached, src, &e, &what);
            assert_eq!((cycle.len() as u32, cycle[0]), (len, n), "{what}: the planted cycle");
        }
        let apart =
            generate(&GenSpec::parse(&format!("negcycle:{n}:{len}:out")).unwrap(), seed, WeightSpec::AsGiven).unwrap();
        let mut eng = engine::open(&apart, device()).unwrap();
        check_all(&apart, eng.as_mut(), &[0, n / 2], "unreachable planted cycle");
        let e = solve(&apart, Algo::Workfront, Some(eng.as_mut()), n, &Options::default()).unwrap_err();
        assert_eq!(assert_witness(&apart, n, &e, "from the cycle").len() as u32, len);
    }
    // `both`: every lap around the cycle lowers the whole base again. Every engine
    // configuration and serial Bellman-Ford (which looks for a cycle of predecessors after n,
    // 2n, 4n, ... scans) name the planted cycle.
    let fed = generate(&GenSpec::parse("negcycle:3000:40:both").unwrap(), 5, WeightSpec::AsGiven).unwrap();
    let mut eng = engine::open(&fed, device()).unwrap();
    for (algo, opts) in negative_configs() {
        let what = format!("negcycle both {} {opts:?}", algo.name());
        let e = solve(&fed, algo, Some(eng.as_mut()), 11, &opts).expect_err(&what);
        assert_eq!(assert_witness(&fed, 11, &e, &what)[0], 3000, "{what}");
    }
    let e = sssp::reference::bellman_ford(&fed, 11).unwrap_err();
    assert_eq!(assert_witness(&fed, 11, &e, "serial")[..2], [3000, 3001]);
    // Its weights are the point: another weighting is refused, not applied.
    let e = generate(&GenSpec::parse("negcycle:10:3:in").unwrap(), 1, WeightSpec::Unit).unwrap_err();
    assert!(matches!(e, Error::InvalidArgument(ref m) if m.contains("--weights given")), "{e}");
}

#[test]
fn negative_cycles_are_caught_long_before_the_workfront_bound() {
    // 100,030 vertices: the bound is that many iterations; the early check looks from
    // iteration 1024 (Workfront) or 16 (topology-driven sweeps) on, doubling, and must name the
    // planted cycle within a small fraction of them, in the device loop and the host loop.
    let g = generate(&GenSpec::parse("negcycle:100000:30:in").unwrap(), 4, WeightSpec::AsGiven).unwrap();
    let mut eng = engine::open(&g, device()).unwrap();
    let runs = [
        (Algo::Workfront, Options::default()),
        (Algo::Workfront, Options { device_loop: false, ..Options::default() }),
        (Algo::Workfront, Options { balance: sssp::engine::Balance::Partition, ..Options::default() }),
        (Algo::TopoBf, Options::default()),
    ];
    for (algo, opts) in runs {
        let what = format!("{} {opts:?}", algo.name());
        let e = solve(&g, algo, Some(eng.as_mut()), 7, &opts).expect_err(&what);
        assert_eq!(assert_witness(&g, 7, &e, &what)[0], 100_000, "{what}: the planted cycle");
        let iterations = eng.counters().unwrap().busy;
        assert!(iterations < 20_000, "{what}: {iterations} iterations before the cycle was named");
    }
}

#[test]
fn a_long_negative_cycle_hits_the_workfront_bound_not_a_hang() {
    // Weight -1 around 2000 vertices: distances fall by 1 per lap, far from i32::MIN; the run
    // must stop at the Workfront bound (n iterations) and name the cycle.
    let n = 2000u32;
    let mut arcs: Vec<(u32, u32, i64)> = (0..n - 1).map(|v| (v, v + 1, 0)).collect();
    arcs.push((n - 1, 1, -1));
    let g = graph(n, &arcs);
    let mut eng = engine::open(&g, device()).unwrap();
    for (algo, opts) in negative_configs() {
        let e = solve(&g, algo, Some(eng.as_mut()), 0, &opts).unwrap_err();
        assert_eq!(assert_witness(&g, 0, &e, algo.name()).len(), n as usize - 1);
    }
}

#[test]
fn distances_past_i32_are_typed_errors_in_both_directions() {
    let big = i32::MAX as i64;
    let mut eng;
    for arcs in [[(0, 1, -big), (1, 2, -big)], [(0, 1, big), (1, 2, -1)]] {
        // Down past i32::MIN; and up to INF's value, i32::MAX, on the first arc (then back down: the
        // engines cannot hold the intermediate distance).
        let g = graph(3, &arcs);
        eng = engine::open(&g, device()).unwrap();
        for (algo, opts) in negative_configs() {
            match solve(&g, algo, Some(eng.as_mut()), 0, &opts) {
                Err(Error::DistanceOverflow { bits: 32, .. }) => {}
                // The serial reference (auto on the CPU) holds 64-bit distances.
                Ok(sol) if sol.stats.chosen_algo == Some(Algo::BellmanFord) => {}
                other => panic!("{arcs:?} {} {opts:?}: {:?}", algo.name(), other.map(|s| s.dist)),
            }
        }
    }
    // An overflowing detour beside a short path is dropped, not an error.
    let g = graph(3, &[(0, 1, big - 1), (1, 2, big - 1), (0, 2, -5)]);
    eng = engine::open(&g, device()).unwrap();
    check_all(&g, eng.as_mut(), &[0], "overflowing detour");
}

#[test]
fn what_refuses_negative_weights_says_so() {
    let g = graph(3, &[(0, 1, 4), (1, 2, -2)]);
    let mut eng = engine::open(&g, device()).unwrap();
    for algo in [
        Algo::NearFar,
        Algo::Bucketing,
        Algo::Crauser,
        Algo::CrauserEconomic,
        Algo::Martin,
        Algo::Async,
        Algo::Dijkstra,
    ] {
        match solve(&g, algo, Some(eng.as_mut()), 0, &Options::default()) {
            Err(Error::NegativeWeight { algo: a, from: 1, to: 2, weight: -2 }) => assert_eq!(a, algo.name()),
            other => panic!("{}: {:?}", algo.name(), other.map(|s| s.dist)),
        }
    }
    for opts in [Options::default().with_cutoff(3), Options::default().with_target(2)] {
        assert!(matches!(solve(&g, Algo::Workfront, Some(eng.as_mut()), 0, &opts), Err(Error::InvalidArgument(_))));
    }
    let o = Options::default();
    assert!(matches!(
        solve_nearest(&g, Algo::Workfront, Some(eng.as_mut()), &[0, 1], &o),
        Err(Error::InvalidArgument(_))
    ));
    let mut lanes = engine::open_lanes(&g, device(), 2).unwrap();
    let r = solve_each(&g, Algo::Workfront, Some(lanes.as_mut()), &[0, 1], &o, |_, _| Ok(()));
    assert!(matches!(r, Err(Error::InvalidArgument(_))));
    let d = sssp::diameter::DiameterOptions::default();
    assert!(matches!(sssp::diameter::diameter(&g, device(), &d), Err(Error::NegativeWeight { .. })));
}

#[test]
fn trees_on_negative_weights() {
    let g = generate(
        &GenSpec::parse("grid2d:20x20").unwrap(),
        1,
        WeightSpec::Shifted { lo: 0, hi: 9, potential: 50, seed: 3 },
    )
    .unwrap();
    let mut eng = engine::open(&g, device()).unwrap();
    for algo in [Algo::Workfront, Algo::TopoBf] {
        let sol = solve(&g, algo, Some(eng.as_mut()), 0, &Options::default().with_tree()).unwrap();
        sssp::verify::check(&g, 0, &sol.dist).unwrap();
        sssp::verify::check_tree(&g, 0, &sol.dist, sol.parents.as_ref().unwrap()).unwrap();
    }
}

/// Random multigraphs with negative arcs: some have reachable negative cycles, some not.
fn arb_graph() -> impl Strategy<Value = Graph> {
    (1u32..30).prop_flat_map(|n| {
        let w = prop_oneof![3 => Just(0i64), 6 => 0i64..50, 2 => -20i64..0, 1 => Just(-(1i64 << 30))];
        prop::collection::vec((0..n, 0..n, w), 0..120).prop_map(move |arcs| graph(n, &arcs))
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    #[test]
    fn random_negative_graphs_match_bellman_ford(g in arb_graph(), pick in any::<u32>()) {
        let src = pick % g.num_vertices() as u32;
        let want = sssp::reference::bellman_ford(&g, src);
        let fits = |d: &[Dist]| d.iter().all(|&x| x == UNREACHED || (x >= i32::MIN as Dist && x < i32::MAX as Dist));
        let mut eng = engine::open(&g, device()).unwrap();
        for (algo, opts) in negative_configs() {
            let got = solve(&g, algo, Some(eng.as_mut()), src, &opts);
            match (&got, &want) {
                (Ok(sol), Ok(want)) => prop_assert_eq!(&sol.dist, want, "{} {:?}", algo.name(), opts),
                (Err(e @ Error::NegativeCycle { .. }), Err(Error::NegativeCycle { .. })) => {
                    assert_witness(&g, src, e, algo.name());
                }
                (Err(Error::DistanceOverflow { .. }), Ok(want)) => prop_assert!(!fits(want), "{} {:?}", algo.name(), opts),
                _ => prop_assert!(false, "{} {:?}: {:?} but Bellman-Ford gives {:?}", algo.name(), opts,
                    got.map(|s| s.dist), want),
            }
        }
    }
}
