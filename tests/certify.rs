//! The certificate on the engine (`sssp::strategy::certify`) against the host's
//! (`sssp::verify`): it rejects what the host rejects, with the same report, and accepts every
//! strategy's answer on every generator family, on one lane and on a batch's lanes.
//!
//! The device comes from `SSSP_TEST_DEVICE` (`cpu` by default: the kernel bodies over rayon;
//! `gpu` in `scripts/gpu-suite.sh run`).

use sssp::engine::{self, Engine};
use sssp::generate::{generate, GenSpec};
use sssp::graph::Graph;
use sssp::strategy::certify::{self, Certified};
use sssp::strategy::{solve, solve_each, solve_nearest, Algo, Certify, Options};
use sssp::{reference, verify, Dist, EdgeList, Error, WeightSpec, UNREACHED};

use sssp_tests::device;

const INF: Dist = UNREACHED;

fn graph(n: u32, arcs: &[(u32, u32, i64)]) -> Graph {
    Graph::from_arcs(n, arcs).unwrap()
}

fn open(g: &Graph) -> Box<dyn Engine> {
    engine::open(g, device()).unwrap()
}

/// The device certificate of `dist` and the host's agree: both accept, or both reject with the
/// same message.
fn agree(eng: &mut dyn Engine, g: &Graph, roots: &[u32], dist: &[Dist], bound: Option<Dist>) -> Option<String> {
    let host = verify::check_nearest_within(g, roots, dist, bound);
    let dev = certify::vector(eng, g, roots, dist, bound);
    match (host, dev) {
        (Ok(()), Ok(())) => None,
        (Err(Error::Verification(h)), Err(Error::Verification(d))) => {
            assert_eq!(h, d, "the same report");
            Some(d)
        }
        (h, d) => panic!("host {h:?}, device {d:?} for {dist:?}"),
    }
}

/// 0 -> 1 (2) -> 2 (0) -> 3 (0) -> 1 (0): a zero-weight cycle 1, 2, 3 entered at 1; 4 is
/// reached from 3 (5); 5 is unreachable but has an arc to 0.
fn zero_cycle() -> Graph {
    graph(6, &[(0, 1, 2), (1, 2, 0), (2, 3, 0), (3, 1, 0), (3, 4, 5), (5, 0, 1)])
}

#[test]
fn rejects_planted_errors_as_the_host_does() {
    let g = zero_cycle();
    let mut eng = open(&g);
    let good = vec![0, 2, 2, 2, 7, INF];
    assert_eq!(agree(eng.as_mut(), &g, &[0], &good, None), None);
    let planted = |v: usize, d: Dist| {
        let mut x = good.clone();
        x[v] = d;
        x
    };
    let cases: Vec<(Vec<Dist>, &str)> = vec![
        (planted(4, 8), "vertex 4: dist 8 but arc 3 -> 4 (w 5) gives 7"),
        (planted(4, 6), "vertex 4: dist 6 but no path of tight arcs"),
        // Too small on the whole zero-weight cycle: tight among themselves, not from 0.
        (vec![0, 1, 1, 1, 6, INF], "vertex 1: dist 1 but no path of tight arcs"),
        (planted(4, INF), "vertex 4: dist inf but arc 3 -> 4 (w 5) gives 7"),
        (planted(5, 3), "vertex 5: dist 3 but no path"),
        (vec![1, 3, 3, 3, 8, INF], "source 0: dist 1 but must be 0"),
    ];
    for (d, want) in cases {
        let m = agree(eng.as_mut(), &g, &[0], &d, None).unwrap_or_else(|| panic!("{d:?} accepted"));
        assert!(m.contains(want), "{m}");
    }
    // Bounded: beyond the bound must be unreached; within it, exact.
    assert_eq!(agree(eng.as_mut(), &g, &[0], &[0, 2, 2, 2, INF, INF], Some(2)), None);
    let m = agree(eng.as_mut(), &g, &[0], &[0, 2, 2, 2, 7, INF], Some(2)).unwrap();
    assert!(m.contains("the query's bound is 2"), "{m}");
    // Several roots (nearest source): 5 as a second source.
    assert_eq!(agree(eng.as_mut(), &g, &[0, 5], &[0, 2, 2, 2, 7, 0], None), None);
    assert!(agree(eng.as_mut(), &g, &[0, 5], &good, None).unwrap().contains("source 5"));
}

#[test]
fn counts_every_violation_and_shows_the_first_ten() {
    let n = 30u32;
    let arcs: Vec<_> = (1..n).map(|v| (0, v, 1)).collect();
    let g = graph(n, &arcs);
    let mut eng = open(&g);
    let mut d = vec![5; n as usize];
    d[0] = 0;
    let m = agree(eng.as_mut(), &g, &[0], &d, None).unwrap();
    assert!(m.starts_with("58 violations (first 10 shown)"), "{m}");
}

#[test]
fn real_weights_one_ulp_off() {
    let mut e = EdgeList::with_capacity(3, 3);
    e.real = true;
    let f = |x: f32| x.to_bits() as i64;
    e.push(0, 1, f(0.1));
    e.push(1, 2, f(0.2));
    e.push(0, 2, f(0.7));
    let g = e.into_graph_as_given().unwrap();
    let mut eng = open(&g);
    let good = reference::dijkstra(&g, 0).unwrap();
    assert_eq!(good[2], f(0.1 + 0.2), "the rounded sum");
    assert_eq!(agree(eng.as_mut(), &g, &[0], &good, None), None);
    for off in [-1, 1] {
        let mut d = good.clone();
        d[2] += off;
        let m = agree(eng.as_mut(), &g, &[0], &d, None).unwrap_or_else(|| panic!("{off} ulp accepted"));
        assert!(m.contains("vertex 2"), "{m}");
    }
}

#[test]
fn signed_weights() {
    let g = graph(4, &[(0, 1, 4), (0, 2, 1), (2, 1, -2), (1, 3, -1)]);
    let mut eng = open(&g);
    assert_eq!(agree(eng.as_mut(), &g, &[0], &[0, -1, 1, -2], None), None);
    assert!(agree(eng.as_mut(), &g, &[0], &[0, -1, 1, -1], None).is_some());
    assert!(agree(eng.as_mut(), &g, &[0], &[0, 0, 1, -1], None).is_some());
}

/// The generator families the strategies suite uses, small.
fn families() -> Vec<(String, Graph)> {
    let specs = [
        "kron:9",
        "road:1500",
        "grid2d:20x15",
        "star:300",
        "path:400",
        "complete:30",
        "uniform:600:6",
        "zero:200",
        "multi:200",
        "disconnected:3:100",
    ];
    specs
        .iter()
        .map(|s| (s.to_string(), generate(&GenSpec::parse(s).unwrap(), 7, WeightSpec::AsGiven).unwrap()))
        .collect()
}

#[test]
fn accepts_every_strategy_on_the_families_where_it_ran() {
    for (name, g) in families() {
        let mut eng = open(&g);
        let src = reference::pick_sources(&g, 1, 3)[0];
        let want = reference::dijkstra(&g, src).unwrap();
        for algo in [
            Algo::Auto,
            Algo::Workfront,
            Algo::NearFar,
            Algo::Bucketing,
            Algo::TopoBf,
            Algo::Crauser,
            Algo::Martin,
            Algo::Async,
            Algo::Dijkstra,
        ] {
            let o = Options { certify: Certify::Device, ..Options::default() };
            let sol = solve(&g, algo, Some(eng.as_mut()), src, &o).unwrap_or_else(|e| panic!("{name} {algo:?}: {e}"));
            assert_eq!(sol.dist, want, "{name} {algo:?}");
            let ran = sol.stats.chosen_algo.unwrap_or(algo);
            let on = if ran.uses_engine() { Certified::Device } else { Certified::Host };
            assert_eq!(sol.stats.certified, Some(on), "{name} {algo:?}");
            // Auto: the same, unless the host's certificate is the faster one for this graph.
            let auto = Options { certify: Certify::Auto, ..Options::default() };
            let sol = solve(&g, algo, Some(eng.as_mut()), src, &auto).unwrap();
            let host = certify::host_is_faster(&g, eng.is_gpu());
            let on = if ran.uses_engine() && !host { Certified::Device } else { Certified::Host };
            assert_eq!(sol.stats.certified, Some(on), "{name} {algo:?} auto");
            // And again, directly, on what the run left resident.
            if ran.uses_engine() {
                certify::resident(eng.as_mut(), &g, &[src], 0, None).unwrap();
            }
            // A cutoff query: the clipped answer is certified, not the resident words.
            let cut = want.iter().copied().filter(|&d| d != INF).max().unwrap_or(0) / 2;
            let o = Options { cutoff: Some(cut as u64), ..o };
            if algo != Algo::Async {
                let sol = solve(&g, algo, Some(eng.as_mut()), src, &o).unwrap();
                assert!(sol.dist.iter().all(|&d| d == INF || d <= cut), "{name} {algo:?}");
                assert!(sol.stats.certified.is_some());
            }
        }
        // A wrong vector planted over a correct run's is rejected, as the host does.
        let mut bad = want.clone();
        if let Some(v) = (0..bad.len()).find(|&v| bad[v] != INF && v != src as usize) {
            bad[v] += 1;
            assert!(agree(eng.as_mut(), &g, &[src], &bad, None).is_some(), "{name}");
            bad[v] -= 2;
            if bad[v] >= 0 {
                assert!(agree(eng.as_mut(), &g, &[src], &bad, None).is_some(), "{name}");
            }
        }
        // Nearest source.
        let roots = reference::pick_sources(&g, 3, 5);
        let o = Options { certify: Certify::Device, ..Options::default() };
        let sol = solve_nearest(&g, Algo::NearFar, Some(eng.as_mut()), &roots, &o).unwrap();
        assert_eq!(sol.stats.certified, Some(Certified::Device), "{name}");
        // The host certificate when asked.
        let o = Options { certify: Certify::Host, ..Options::default() };
        let sol = solve(&g, Algo::Workfront, Some(eng.as_mut()), src, &o).unwrap();
        assert_eq!(sol.stats.certified, Some(Certified::Host), "{name}");
    }
}

#[test]
fn batched_lanes_are_certified_each() {
    for (name, g) in families().into_iter().take(4) {
        let mut eng = engine::open_lanes(&g, device(), 4).unwrap();
        let sources = reference::pick_sources(&g, 6, 11);
        let o = Options { certify: Certify::Device, ..Options::default() };
        let mut seen = 0;
        solve_each(&g, Algo::NearFar, Some(eng.as_mut()), &sources, &o, |s, sol| {
            assert_eq!(sol.dist, reference::dijkstra(&g, s).unwrap(), "{name} {s}");
            assert_eq!(sol.stats.certified, Some(Certified::Device), "{name}");
            seen += 1;
            Ok(())
        })
        .unwrap();
        assert_eq!(seen, sources.len());
        // The last pass's lanes stay resident: its first lane is not another's answer.
        let last = sources[4];
        certify::resident(eng.as_mut(), &g, &[last], 0, None).unwrap();
        if let Some(&other) =
            sources.iter().find(|&&s| reference::dijkstra(&g, s).unwrap() != reference::dijkstra(&g, last).unwrap())
        {
            assert!(matches!(certify::resident(eng.as_mut(), &g, &[other], 0, None), Err(Error::Verification(_))));
        }
    }
}
