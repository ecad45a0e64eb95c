//! H-BF's edge classes (`sssp_kernels::classify`): each class on hand-drawn graphs,
//! with and without classification, in every balance mode of every strategy that classifies:
//! the same distances as Dijkstra, and the work counted drops exactly where the classes say it
//! must (self-loops not relaxed, sinks never expanded and their arcs relaxed once).
//!
//! The device comes from `SSSP_TEST_DEVICE` as in `strategies.rs`: the GPU suite runs these too.

use proptest::prelude::*;
use sssp::engine::{self, Balance, Dedupe, Engine};
use sssp::graph::Graph;
use sssp::strategy::crauser::Criterion;
use sssp::strategy::{solve, solve_each, Algo, Classify, Options};
use sssp::{EdgeList, Error, WeightSpec};

use sssp_tests::device;

const BALANCES: [Balance; 5] =
    [Balance::Thread, Balance::VirtualWarp, Balance::Partition, Balance::Cta, Balance::CtaWarpScan];

fn graph(n: u32, arcs: &[(u32, u32, i64)]) -> Graph {
    Graph::from_arcs(n, arcs).unwrap()
}

/// Every strategy that classifies, in every balance mode and both dedupes, both loops; the
/// settling algorithms (push steps) with each criterion in both of their modes.
fn classifying_configs() -> Vec<(Algo, Options)> {
    let on = Options { classify: Classify::On, ..Options::default() };
    let mut v = vec![(Algo::Auto, on)];
    for balance in BALANCES {
        v.push((Algo::TopoBf, Options { balance, ..on }));
        for dedupe in [Dedupe::Stamp, Dedupe::Lookup] {
            // Threshold 2: the hub pass takes most vertices of these small graphs.
            for hub_degree in [0, 2] {
                let base = Options { balance, dedupe, hub_degree, ..on };
                v.push((Algo::Workfront, base));
                v.push((Algo::Workfront, Options { device_loop: false, check_every: 1, ..base }));
                v.push((Algo::NearFar, Options { delta: Some(3u32.into()), ..base }));
                v.push((Algo::Bucketing, Options { delta: Some(1u32.into()), buckets: 3, ..base }));
            }
        }
    }
    for balance in [Balance::VirtualWarp, Balance::Partition] {
        for criterion in Criterion::ALL {
            v.push((Algo::Crauser, Options { balance, criterion, ..on }));
        }
        v.push((Algo::CrauserEconomic, Options { balance, ..on }));
        v.push((Algo::Martin, Options { balance, ..on }));
    }
    v
}

/// Every classifying configuration, classes on and off, from `src`: the distances Dijkstra
/// gives, and a valid shortest-path tree. Returns nothing; panics with the configuration.
fn check_all(g: &Graph, eng: &mut (dyn Engine + 'static), src: u32, what: &str) {
    let want = sssp::reference::dijkstra(g, src).unwrap();
    for (algo, opts) in classifying_configs() {
        for classify in [Classify::On, Classify::Off] {
            let o = Options { classify, tree: true, ..opts };
            let sol = solve(g, algo, Some(&mut *eng), src, &o)
                .unwrap_or_else(|e| panic!("{what}: {} {o:?}: {e}", algo.name()));
            assert_eq!(sol.dist, want, "{what}: {} {o:?}", algo.name());
            sssp::verify::check_tree(g, src, &sol.dist, sol.parents.as_ref().unwrap())
                .unwrap_or_else(|e| panic!("{what}: {} {o:?}: tree: {e}", algo.name()));
        }
    }
}

/// (vertices expanded, arcs relaxed) of a Workfront run with the classes on or off.
fn work(g: &Graph, eng: &mut (dyn Engine + 'static), src: u32, balance: Balance, on: bool) -> (u64, u64) {
    let classify = if on { Classify::On } else { Classify::Off };
    let o = Options { balance, classify, ..Options::default() };
    let sol = solve(g, Algo::Workfront, Some(eng), src, &o).unwrap();
    (sol.stats.vertices_processed, sol.stats.arcs_relaxed)
}

/// The classes the paper names for its Figure 2 (the drawing itself is not in our copy of the
/// text, so this graph is rebuilt from them): self-loops (2,2) and (4,4); in-degree-1 arcs
/// (0,2), (3,7), (7,6); sinks 1, 5 and 8, whose in-arcs (2,1), (4,5), (4,8), (6,8) are deferred.
fn figure_2() -> Graph {
    graph(9, &figure_2_arcs())
}

/// The arcs of [`figure_2`].
fn figure_2_arcs() -> [(u32, u32, i64); 12] {
    [
        (0, 2, 1),
        (0, 3, 2),
        (2, 2, 1),
        (2, 1, 3),
        (2, 4, 2),
        (3, 7, 1),
        (3, 4, 5),
        (4, 4, 1),
        (4, 5, 1),
        (4, 8, 4),
        (7, 6, 1),
        (6, 8, 1),
    ]
}

#[test]
fn figure_2_graph_same_distances_less_work() {
    let g = figure_2();
    let mut eng = engine::open(&g, device()).unwrap();
    check_all(&g, eng.as_mut(), 0, "figure 2");
    for balance in BALANCES {
        let off = work(&g, eng.as_mut(), 0, balance, false);
        let on = work(&g, eng.as_mut(), 0, balance, true);
        // Off: all 12 arcs relaxed, every reached vertex expanded once except sink 8, lowered
        // twice (to 7 through 4 in iteration 3, to 5 through 6 in iteration 4). On: the three
        // sinks are never expanded, the two self-loops never relaxed, and the 4 arcs into sinks
        // are relaxed once each by the deferred pass.
        assert_eq!(off, (10, 12), "{balance:?} off");
        assert_eq!(on, (6, 10), "{balance:?} on");
    }
}

/// `auto` classifies where self-loops and arcs into sinks are at least 10% of the arcs: on the
/// Figure 2 graph (6 of 12) it does what `on` does; on a mesh (none) what `off` does.
#[test]
fn auto_classifies_where_it_pays() {
    let fig = figure_2();
    let mesh = sssp::generate::generate(&sssp::generate::GenSpec::parse("grid2d:6x6").unwrap(), 1, WeightSpec::AsGiven)
        .unwrap();
    for (g, pays) in [(fig, true), (mesh, false)] {
        let mut eng = engine::open(&g, device()).unwrap();
        let (counts, fresh) = eng.classify().unwrap();
        let counts = counts.unwrap();
        assert!(fresh);
        assert_eq!(Classify::Auto.uses(Some(counts)), pays, "{counts:?}");
        let run = |eng: &mut (dyn Engine + 'static), classify| {
            let o = Options { classify, ..Options::default() };
            let sol = solve(&g, Algo::Workfront, Some(eng), 0, &o).unwrap();
            let s = sol.stats;
            (s.vertices_processed, s.arcs_relaxed, s.classify, s.classes_used, s.device_memory.unwrap().arc_bytes)
        };
        // `auto` decides from its own count on the host, once per engine; the engine computes
        // the classes only for a run that uses them.
        let mut fresh = engine::open(&g, device()).unwrap();
        let first = run(fresh.as_mut(), Classify::Auto);
        assert!(!first.2.is_zero(), "the first auto run counts");
        assert_eq!(first.3, pays);
        let m = g.num_arcs() as u64;
        // Tagged into the targets: only the list of arcs into sinks takes memory.
        let classes = 12 * counts.deferred;
        assert_eq!(first.4, 8 * m + if pays { classes } else { 0 }, "pays {pays}: the classes held only when used");
        let auto = run(fresh.as_mut(), Classify::Auto);
        let same = run(eng.as_mut(), if pays { Classify::On } else { Classify::Off });
        assert_eq!(auto.0..=auto.1, same.0..=same.1, "pays {pays}");
        assert_eq!(first.0..=first.1, same.0..=same.1, "pays {pays}");
        // Counted (and computed) once per engine, so no later run pays for it again.
        assert!(auto.2.is_zero() && same.2.is_zero());
    }
    assert!(!Classify::Auto.uses(None) && !Classify::On.uses(None));
}

#[test]
fn self_loops_are_never_relaxed() {
    // A path 0 -> 1 -> 2 -> 3 with a self-loop (weight 0 or more) on every vertex.
    let g = graph(4, &[(0, 0, 0), (0, 1, 2), (1, 1, 5), (1, 2, 2), (2, 2, 1), (2, 3, 2), (3, 3, 7)]);
    let mut eng = engine::open(&g, device()).unwrap();
    check_all(&g, eng.as_mut(), 0, "self-loops");
    for balance in BALANCES {
        assert_eq!(work(&g, eng.as_mut(), 0, balance, false), (4, 7), "{balance:?} off");
        assert_eq!(work(&g, eng.as_mut(), 0, balance, true), (4, 3), "{balance:?} on");
    }
}

#[test]
fn sinks_are_never_expanded_and_relaxed_once() {
    // Sink 1 is lowered twice without classes (10, then 2 through 2), so it is expanded twice.
    let g = graph(3, &[(0, 1, 10), (0, 2, 1), (2, 1, 1)]);
    let mut eng = engine::open(&g, device()).unwrap();
    check_all(&g, eng.as_mut(), 0, "sink");
    for balance in BALANCES {
        assert_eq!(work(&g, eng.as_mut(), 0, balance, false), (4, 3), "{balance:?} off");
        assert_eq!(work(&g, eng.as_mut(), 0, balance, true), (2, 3), "{balance:?} on");
    }
    // The settling algorithms never settle the sink either: 0 and 2 settled instead of all 3.
    for algo in [Algo::Crauser, Algo::Martin] {
        for (classify, settled) in [(Classify::On, 2), (Classify::Off, 3)] {
            let o = Options { classify, ..Options::default() };
            let sol = solve(&g, algo, Some(eng.as_mut()), 0, &o).unwrap();
            assert_eq!(
                (sol.stats.vertices_processed, sol.distance(1)),
                (settled, Some(sssp::Distance::Integer(2))),
                "{algo:?} {classify:?}"
            );
        }
    }
    // The deferred pass keeps the cutoff: 1 is at 2, beyond a cutoff of 1.
    let o = Options { cutoff: Some(1), classify: Classify::On, ..Options::default() };
    let sol = solve(&g, Algo::Workfront, Some(eng.as_mut()), 0, &o).unwrap();
    assert_eq!(sol.dist, vec![0, sssp::UNREACHED, 1]);
    // A target that is a sink: the run still answers it (classes off for that run).
    for algo in [Algo::NearFar, Algo::Bucketing] {
        let o = Options { target: Some(1), delta: Some(1u32.into()), classify: Classify::On, ..Options::default() };
        let sol = solve(&g, algo, Some(eng.as_mut()), 0, &o).unwrap();
        assert_eq!(sol.distance(1), Some(sssp::Distance::Integer(2)), "{algo:?}");
    }
}

#[test]
fn in_degree_one_heads_are_exact_in_every_mode() {
    // An out-tree from 0 (every vertex but the root has in-degree 1) with weights that make the
    // tree paths shortest, plus a few cross arcs into vertices that then have in-degree 2.
    let mut arcs = vec![];
    for v in 1..200u32 {
        arcs.push(((v - 1) / 3, v, (v % 7 + 1) as i64));
    }
    for v in (5..200u32).step_by(17) {
        arcs.push((v / 2, v, 1));
    }
    let g = graph(200, &arcs);
    let mut eng = engine::open(&g, device()).unwrap();
    check_all(&g, eng.as_mut(), 0, "out-tree");
    check_all(&g, eng.as_mut(), 3, "out-tree from 3");
}

#[test]
fn a_negative_self_loop_stays_a_negative_cycle() {
    let mut e = EdgeList::with_capacity(3, 3);
    for (u, v, w) in [(0, 1, 2), (1, 1, -1), (1, 2, 3)] {
        e.push(u, v, w);
    }
    let g = e.into_graph_as_given().unwrap();
    let mut eng = engine::open(&g, device()).unwrap();
    for algo in [Algo::Workfront, Algo::TopoBf] {
        let on = Options { classify: Classify::On, ..Options::default() };
        let e = solve(&g, algo, Some(eng.as_mut()), 0, &on).unwrap_err();
        match e {
            Error::NegativeCycle { ref cycle, weight, .. } => {
                assert_eq!((cycle.as_slice(), weight), (&[1u32][..], -1), "{algo:?}")
            }
            other => panic!("{algo:?}: {other}"),
        }
    }
}

#[test]
fn batched_sources_relax_the_sinks_of_every_lane() {
    let g = figure_2();
    let mut eng = engine::open_lanes(&g, device(), 4).unwrap();
    let sources = [0, 3, 2, 6, 7];
    let mut got = vec![];
    let on = Options { classify: Classify::On, ..Options::default() };
    solve_each(&g, Algo::Workfront, Some(eng.as_mut()), &sources, &on, |s, sol| {
        got.push((s, sol.dist));
        Ok(())
    })
    .unwrap();
    assert_eq!(got.len(), sources.len());
    for (s, dist) in got {
        assert_eq!(dist, sssp::reference::dijkstra(&g, s).unwrap(), "from {s}");
    }
}

/// Random directed multigraphs with many sinks, self-loops, zero weights and multi-edges.
fn arb_graph() -> impl Strategy<Value = Graph> {
    // Tails from the first half only: the other half are sinks unless a self-loop lands.
    sssp_tests::multigraphs(2..40, 150, |n| n / 2 + 1, || prop_oneof![2 => Just(0i64), 4 => 0i64..5, 4 => 0i64..1000])
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn random_graphs_with_sinks_match_dijkstra(g in arb_graph(), src_pick in any::<u32>()) {
        let src = src_pick % g.num_vertices() as u32;
        let want = sssp::reference::dijkstra(&g, src).unwrap();
        let mut eng = engine::open(&g, device()).unwrap();
        for (algo, opts) in classifying_configs() {
            let sol = solve(&g, algo, Some(eng.as_mut()), src, &opts);
            prop_assert!(sol.as_ref().is_ok_and(|s| s.dist == want), "{} {:?}", algo.name(), opts);
        }
    }
}

/// Once an engine has classified its graph the classes live in the high bits of its targets
/// (no copy of them), so every reader that does not classify must see plain heads:
/// the plain advance, the tree pass, the certificate, asynchronous delta-stepping, the settle
/// loop's minima and its pull variant, PHAST's sweep, and the diameter's BFS level kernels.
#[test]
fn readers_that_do_not_classify_see_plain_heads_after_classification() {
    use sssp::diameter::{diameter, BfsMode, DiameterOptions};
    use sssp::strategy::crauser::Variant;
    use sssp::strategy::Certify;
    let unit: Vec<_> = figure_2_arcs().iter().map(|&(u, v, _)| (u, v, 1)).collect();
    for g in [figure_2(), graph(9, &unit)] {
        let want = sssp::reference::dijkstra(&g, 0).unwrap();
        let mut eng = engine::open(&g, device()).unwrap();
        let on = Options { classify: Classify::On, ..Options::default() };
        assert!(solve(&g, Algo::Workfront, Some(eng.as_mut()), 0, &on).unwrap().stats.classes_used);
        let off = Options { classify: Classify::Off, certify: Certify::Device, tree: true, ..Options::default() };
        for (algo, o) in [
            (Algo::Workfront, off),
            (Algo::TopoBf, off),
            (Algo::NearFar, Options { delta: Some(2u32.into()), ..off }),
            (Algo::Crauser, off),
            (Algo::Martin, Options { variant: Variant::Predecessor, ..off }),
            (Algo::Async, Options { tree: false, ..off }),
            (Algo::Phast, Options { tree: false, ..off }),
        ] {
            let sol = solve(&g, algo, Some(eng.as_mut()), 0, &o).unwrap_or_else(|e| panic!("{}: {e}", algo.name()));
            assert_eq!(sol.dist, want, "{}", algo.name());
            if let Some(p) = &sol.parents {
                sssp::verify::check_tree(&g, 0, &sol.dist, p).unwrap();
            }
        }
        for bfs in [BfsMode::Queue, BfsMode::Thread, BfsMode::Warp] {
            let d = |classify| {
                let sssp = Options { classify, ..Options::default() };
                diameter(&g, device(), &DiameterOptions { bfs, sssp, ..DiameterOptions::default() }).unwrap().diameter
            };
            assert_eq!(d(Classify::On), d(Classify::Off), "{bfs:?}");
        }
    }
}
