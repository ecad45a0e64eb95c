//! Queries: distance cutoffs and target vertices, on every strategy, against the
//! reference clipped at the query's bound; and the work they save.
//!
//! The device comes from `SSSP_TEST_DEVICE` as in `strategies.rs` (so the GPU suite runs these
//! too).

use proptest::prelude::*;
use sssp::engine::{self, Balance, Dedupe, Engine};
use sssp::generate::{generate, GenSpec};
use sssp::graph::Graph;
use sssp::strategy::crauser::Variant;
use sssp::strategy::{solve, Algo, Options};
use sssp::{Dist, Distance, Error, WeightSpec, UNREACHED};

use sssp_tests::device;

/// Every algorithm that takes a query, in the modes that change how the query is honoured
/// (device loop or not, buckets or not).
fn configs() -> Vec<(Algo, Options)> {
    let mut v = vec![(Algo::Auto, Options::default()), (Algo::Dijkstra, Options::default())];
    for balance in [Balance::VirtualWarp, Balance::Partition] {
        for dedupe in [Dedupe::Stamp, Dedupe::Lookup] {
            let base = Options { balance, dedupe, ..Options::default() };
            v.push((Algo::Workfront, base));
            v.push((Algo::NearFar, base));
            v.push((Algo::Bucketing, Options { delta: Some(40u32.into()), buckets: 3, ..base }));
            v.push((Algo::NearFar, Options { device_loop: false, delta: Some(1u32.into()), ..base }));
        }
    }
    v.push((Algo::TopoBf, Options::default()));
    // The settling algorithms run to the end and are clipped like Workfront.
    v.push((Algo::Crauser, Options::default()));
    v.push((Algo::CrauserEconomic, Options::default()));
    v.push((Algo::Martin, Options { variant: Variant::Predecessor, ..Options::default() }));
    v
}

fn clipped(want: &[Dist], bound: Dist) -> Vec<Dist> {
    want.iter().map(|&d| if d > bound { UNREACHED } else { d }).collect()
}

/// Solve with `q` (cutoff and target set on top of each config) and compare with the reference
/// clipped at the bound the query implies; the certificate must accept the result too.
fn check_query(g: &Graph, eng: &mut (dyn Engine + 'static), src: u32, cutoff: Option<u64>, target: Option<u32>) {
    let full = sssp::reference::dijkstra(g, src).unwrap();
    let t_dist = target.map(|t| full[t as usize]).filter(|&d| d != UNREACHED);
    let bound = match (cutoff, t_dist) {
        (None, None) => None,
        (c, t) => Some(c.map_or(Dist::MAX, |c| c.min(Dist::MAX as u64 - 1) as Dist).min(t.unwrap_or(Dist::MAX))),
    };
    let want = clipped(&full, bound.unwrap_or(Dist::MAX));
    for (algo, base) in configs() {
        let opts = Options { cutoff, target, tree: true, ..base };
        let what = format!("{} {opts:?} from {src}", algo.name());
        let sol = solve(g, algo, Some(&mut *eng), src, &opts).unwrap_or_else(|e| panic!("{what}: {e}"));
        if let Err(e) = sssp::verify::compare(&sol.dist, &want) {
            panic!("{what}: {e}");
        }
        assert_eq!(opts.query_bound(&sol.dist), bound, "{what}");
        sssp::verify::check_within(g, src, &sol.dist, bound.unwrap_or(Dist::MAX))
            .unwrap_or_else(|e| panic!("{what}: certificate: {e}"));
        let parents = sol.parents.as_ref().expect("a tree was asked for");
        sssp::verify::check_tree(g, src, &sol.dist, parents).unwrap_or_else(|e| panic!("{what}: tree: {e}"));
        // A target query's result is enough for its path (what `sssp path` prints).
        if let Some(t) = target.filter(|&t| sol.dist[t as usize] != UNREACHED) {
            let dt = sol.dist[t as usize];
            let p = sssp::tree::path(g, src, &sol.dist, t).unwrap().expect("reached target has a path");
            let len: i64 = p.windows(2).map(|e| arc_weight(g, e[0], e[1], &sol.dist)).sum();
            assert_eq!((p[0], *p.last().unwrap(), len), (src, t, dt), "{what}: path {p:?}");
        }
    }
}

/// The weight of the lightest arc `u -> v` that is tight under `dist` (multigraphs may have
/// several).
fn arc_weight(g: &Graph, u: u32, v: u32, dist: &[Dist]) -> i64 {
    g.neighbors(u).filter(|&(x, w)| x == v && dist[u as usize] + w == dist[v as usize]).map(|(_, w)| w).min().unwrap()
}

fn family(spec: &str, seed: u64) {
    let g = generate(&GenSpec::parse(spec).unwrap(), seed, WeightSpec::AsGiven).unwrap();
    let mut eng = engine::open(&g, device()).unwrap();
    let src = sssp::reference::pick_sources(&g, 1, seed)[0];
    let full = sssp::reference::dijkstra(&g, src).unwrap();
    let mut reached: Vec<Dist> = full.iter().copied().filter(|&d| d != UNREACHED).collect();
    reached.sort_unstable();
    let at = |q: f64| reached[((reached.len() - 1) as f64 * q) as usize];
    // Cutoffs: nothing but the source, a tenth, the median, exactly the largest, beyond it.
    for cutoff in [0, at(0.1) as u64, at(0.5) as u64, at(1.0) as u64, u64::MAX] {
        check_query(&g, eng.as_mut(), src, Some(cutoff), None);
    }
    // Targets: the source itself, a near one, the farthest, an unreached one if any; and a
    // target beyond a cutoff.
    let by_dist = |d: Dist| full.iter().position(|&x| x == d).unwrap() as u32;
    let mut targets = vec![src, by_dist(at(0.05)), by_dist(at(1.0))];
    if let Some(u) = full.iter().position(|&d| d == UNREACHED) {
        targets.push(u as u32);
    }
    for t in targets {
        check_query(&g, eng.as_mut(), src, None, Some(t));
    }
    check_query(&g, eng.as_mut(), src, Some(at(0.2) as u64), Some(by_dist(at(0.9))));
}

#[test]
fn road() {
    family("road:3000", 1);
}

#[test]
fn grid2d() {
    family("grid2d:30x30", 2);
}

#[test]
fn kron() {
    family("kron:9", 3);
}

#[test]
fn zero_weights() {
    family("zero:800", 4);
}

#[test]
fn disconnected() {
    family("disconnected:4:300", 5);
}

/// Work shrinks with the cutoff, and a near target costs a fraction of a full solve on a road
/// graph, for the ordered strategies (Workfront only drops the candidates beyond the cutoff).
#[test]
fn queries_save_work() {
    let g = generate(&GenSpec::parse("road:20000").unwrap(), 7, WeightSpec::AsGiven).unwrap();
    let mut eng = engine::open(&g, device()).unwrap();
    let src = sssp::reference::pick_sources(&g, 1, 7)[0];
    let full = sssp::reference::dijkstra(&g, src).unwrap();
    let mut reached: Vec<Dist> = full.iter().copied().filter(|&d| d != UNREACHED).collect();
    reached.sort_unstable();
    let near = reached[reached.len() / 20];
    let near_vertex = full.iter().position(|&d| d == near).unwrap() as u32;
    for algo in [Algo::NearFar, Algo::Bucketing, Algo::Dijkstra, Algo::Workfront] {
        let mut arcs = |opts: Options| solve(&g, algo, Some(eng.as_mut()), src, &opts).unwrap().stats.arcs_relaxed;
        let all = arcs(Options::default());
        let mut last = all;
        for q in [0.5, 0.1, 0.01] {
            let cut = arcs(Options {
                cutoff: Some(reached[(reached.len() as f64 * q) as usize] as u64),
                ..Options::default()
            });
            assert!(cut < last, "{}: cutoff at quantile {q}: {cut} arcs, not below {last}", algo.name());
            last = cut;
        }
        if algo != Algo::Workfront {
            let to_near = arcs(Options { target: Some(near_vertex), ..Options::default() });
            assert!(to_near * 4 < all, "{}: near target took {to_near} of {all} arcs", algo.name());
        }
    }
}

/// With positive weights the engine's own tree pass covers every reached vertex (no host
/// fallback), after every frontier strategy and mode and every settling algorithm; with zero
/// weights the result is still a valid tree (possibly the host's).
#[test]
fn engine_trees_cover_every_vertex_with_positive_weights() {
    for spec in ["road:3000", "kron:9", "grid3d:8x9x7"] {
        let g = generate(&GenSpec::parse(spec).unwrap(), 11, WeightSpec::AsGiven).unwrap();
        let mut eng = engine::open(&g, device()).unwrap();
        let src = sssp::reference::pick_sources(&g, 1, 11)[0];
        for (algo, opts) in configs()
            .into_iter()
            .filter(|(a, _)| matches!(a, Algo::Workfront | Algo::NearFar | Algo::Bucketing) || a.settles())
        {
            let sol = solve(&g, algo, Some(eng.as_mut()), src, &opts).unwrap();
            let parents = eng.tree_parents().unwrap();
            sssp::verify::check_tree(&g, src, &sol.dist, &parents)
                .unwrap_or_else(|e| panic!("{spec}: {} {opts:?}: {e}", algo.name()));
        }
    }
}

#[test]
fn tree_checker_rejects_bad_trees() {
    // 0 -> 1 (0), 1 -> 2 (0), 2 -> 1 (0), 0 -> 2 (3): every vertex at distance 0; 1 and 2 form a
    // zero-weight cycle.
    let g = Graph::from_arcs(3, &[(0, 1, 0), (1, 2, 0), (2, 1, 0), (0, 2, 3)]).unwrap();
    let dist = [0, 0, 0];
    const NO: u32 = sssp::graph::NO_VERTEX;
    sssp::verify::check_tree(&g, 0, &dist, &[NO, 0, 1]).unwrap();
    // A zero-weight cycle of tight arcs, detached from the source.
    assert!(sssp::verify::check_tree(&g, 0, &dist, &[NO, 2, 1]).is_err());
    // With 2 at distance 3 the arc 0 -> 2 is its tight arc; at distance 0 it is not (and a
    // missing parent, or a parent for the source, is a fault).
    assert!(sssp::verify::check_tree(&g, 0, &[0, 0, 3], &[NO, 0, 0]).is_ok());
    assert!(sssp::verify::check_tree(&g, 0, &dist, &[NO, 0, 0]).is_err());
    assert!(sssp::verify::check_tree(&g, 0, &dist, &[NO, 0, NO]).is_err());
    assert!(sssp::verify::check_tree(&g, 0, &dist, &[1, 0, 1]).is_err());
}

#[test]
fn out_of_range_target_is_a_typed_error() {
    let g = generate(&GenSpec::parse("path:10").unwrap(), 1, WeightSpec::AsGiven).unwrap();
    let mut eng = engine::open(&g, device()).unwrap();
    for (algo, opts) in configs() {
        let opts = Options { target: Some(10), ..opts };
        assert!(
            matches!(solve(&g, algo, Some(eng.as_mut()), 0, &opts), Err(Error::VertexOutOfRange { vertex: 10, .. })),
            "{}",
            algo.name()
        );
    }
}

/// A candidate that does not fit 32 bits, made before the run reaches its target: a target
/// query answers (the vertex it hid lies beyond the target, reported unreached as any farther
/// vertex), while the full solve, and a query for that vertex itself, are overflow errors on
/// the engines' 32-bit distances. (A proptest of `api.rs` found near-far and bucketing
/// reporting the overflow for the reached target's query.)
#[test]
fn an_overflow_beyond_the_target_is_no_error() {
    // 0 -> 2 (5) -> 1 (2^32 - 2): 1's only path does not fit 32 bits. 0 -> 3 (10): the target.
    let g = Graph::from_arcs(4, &[(0, 2, 5), (2, 1, u32::MAX as i64 - 1), (0, 3, 10)]).unwrap();
    let mut eng = engine::open(&g, device()).unwrap();
    for (algo, opts) in configs() {
        let what = format!("{} {opts:?}", algo.name());
        let near = solve(&g, algo, Some(eng.as_mut()), 0, &Options { target: Some(3), ..opts });
        let near = near.unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(near.dist, [0, UNREACHED, 5, 10], "{what}");
        // The engines hold 32-bit distances: 1's is an error. The host's algorithms (auto's
        // serial Dijkstra on the CPU backend) compute it exactly in 64 bits.
        for target in [None, Some(1)] {
            match solve(&g, algo, Some(eng.as_mut()), 0, &Options { target, ..opts }) {
                Err(Error::DistanceOverflow { vertex: 1, .. }) => {}
                Ok(sol) => assert_eq!(sol.dist, [0, 4_294_967_299, 5, 10], "{what} {target:?}"),
                Err(e) => panic!("{what} {target:?}: {e}"),
            }
        }
    }
}

#[test]
fn the_bounded_certificate_rejects_wrong_answers() {
    // 0 -> 1 (5), 1 -> 2 (5), 0 -> 2 (20): within bound 10, vertex 2 is at 10.
    let g = Graph::from_arcs(3, &[(0, 1, 5), (1, 2, 5), (0, 2, 20)]).unwrap();
    sssp::verify::check_within(&g, 0, &[0, 5, 10], 10).unwrap();
    sssp::verify::check_within(&g, 0, &[0, 5, UNREACHED], 9).unwrap();
    // Missing a vertex within the bound, or keeping one beyond it, or a non-shortest distance.
    assert!(sssp::verify::check_within(&g, 0, &[0, 5, UNREACHED], 10).is_err());
    assert!(sssp::verify::check_within(&g, 0, &[0, 5, 10], 9).is_err());
    assert!(sssp::verify::check_within(&g, 0, &[0, 6, 11], 20).is_err());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Random multigraphs (zero weights, self loops, parallel arcs), random cutoffs and targets.
    #[test]
    fn random_queries_match_the_clipped_reference(
        n in 1u32..60,
        arcs in prop::collection::vec((0u32..60, 0u32..60, 0i64..50), 0..200),
        cutoff in prop::option::of(0u64..300),
        target in prop::option::of(0u32..60),
    ) {
        let arcs: Vec<_> = arcs.into_iter().map(|(u, v, w)| (u % n, v % n, w)).collect();
        let g = Graph::from_arcs(n, &arcs).unwrap();
        let mut eng = engine::open(&g, device()).unwrap();
        check_query(&g, eng.as_mut(), 0, cutoff, target.map(|t| t % n));
    }
}

/// The builder setters set what the fields say, and `Solution::path` walks the returned tree to
/// a shortest path (every arc tight, weights summing to the distance) from every algorithm.
#[test]
fn builder_options_and_solution_paths() {
    let o = Options::default().with_cutoff(70).with_target(3).with_tree().with_delta(9u32).with_buckets(4);
    assert_eq!((o.cutoff, o.target, o.tree, o.delta, o.buckets), (Some(70), Some(3), true, Some(9u32.into()), 4));
    let o = Options::default().with_balance(Balance::Partition).with_dedupe(Dedupe::Lookup).with_wide_at(5);
    assert_eq!((o.balance, o.dedupe, o.wide_at), (Balance::Partition, Dedupe::Lookup, 5));
    let g = generate(&GenSpec::parse("road:1500").unwrap(), 3, WeightSpec::AsGiven).unwrap();
    let mut eng = engine::open(&g, device()).unwrap();
    let src = sssp::reference::pick_sources(&g, 1, 3)[0];
    for (algo, base) in configs() {
        let sol = solve(&g, algo, Some(eng.as_mut()), src, &base.with_tree()).unwrap();
        for t in [src, 0, 777, 1499] {
            match sol.path(t) {
                None => assert_eq!(sol.distance(t), None, "{}: {t}", algo.name()),
                Some(p) => {
                    let len: i64 = p.windows(2).map(|e| arc_weight(&g, e[0], e[1], &sol.dist)).sum();
                    assert_eq!(
                        (p[0], *p.last().unwrap(), Some(Distance::Integer(len))),
                        (src, t, sol.distance(t)),
                        "{}",
                        algo.name()
                    );
                }
            }
        }
        let plain = solve(&g, algo, Some(eng.as_mut()), src, &base).unwrap();
        assert_eq!(plain.path(777), None, "no tree, no path");
    }
}
