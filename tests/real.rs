//! Real (`f32`) weights: every engine strategy, in every balance and dedupe mode,
//! against the reference Dijkstra in `f32` arithmetic, bit for bit; the certificate, queries,
//! trees and batches on real distances; the formats that carry real weights; and the typed
//! errors (negative, NaN and infinite weights, sums past `f32::MAX`, diameter, DIMACS).
//!
//! The device comes from `SSSP_TEST_DEVICE` as in `strategies.rs`: the GPU suite runs these too.

use proptest::prelude::*;
use sssp::engine::{self, Engine};
use sssp::generate::{generate, GenSpec};
use sssp::graph::Graph;
use sssp::io::{read_graph, LoadOptions, RealPolicy};
use sssp::strategy::{solve, solve_each, solve_nearest, Algo, Options, Width};
use sssp::{Dist, EdgeList, Error, Metric, RealDistances, WeightSpec, UNREACHED};

use sssp_tests::{configs, device, TempDir};

/// A graph from `(u, v, w)` arcs with real weights.
fn real_graph(n: u32, arcs: &[(u32, u32, f32)]) -> Graph {
    let mut e = EdgeList::with_capacity(n, arcs.len());
    for &(u, v, w) in arcs {
        e.push(u, v, w.to_bits() as i64);
    }
    e.real = true;
    e.into_graph(WeightSpec::AsGiven, false).unwrap()
}

fn f(d: Dist) -> f32 {
    f32::from_bits(d as u32)
}

/// Every configuration from each source: bitwise equal to the reference, certified, and the
/// reference itself certified (it is what the certificate's rounded arithmetic must accept).
fn check_all(g: &Graph, eng: &mut (dyn Engine + 'static), sources: &[u32], what: &str) {
    assert_eq!(g.metric(), Metric::Real, "{what}: not a real-weighted graph");
    for &src in sources {
        let want = sssp::reference::dijkstra(g, src).unwrap();
        sssp::verify::check(g, src, &want).unwrap_or_else(|e| panic!("{what}: reference from {src}: {e}"));
        for (algo, opts) in configs(Metric::Real) {
            let sol = solve(g, algo, Some(&mut *eng), src, &opts)
                .unwrap_or_else(|e| panic!("{what}: {} {opts:?} from {src} failed: {e}", algo.name()));
            if let Err(e) = sssp::verify::compare_in(Metric::Real, &sol.dist, &want) {
                panic!("{what}: {} {opts:?} from {src}: {e}", algo.name());
            }
        }
    }
}

fn family(spec: &str, weights: WeightSpec, seed: u64) {
    let g = generate(&GenSpec::parse(spec).unwrap(), seed, weights).unwrap();
    let mut eng = engine::open(&g, device()).unwrap();
    let mut sources = sssp::reference::pick_sources(&g, 2, seed);
    sources.push(0);
    check_all(&g, eng.as_mut(), &sources, spec);
}

fn uniform(lo: f32, hi: f32) -> WeightSpec {
    WeightSpec::RandomReal { lo, hi, seed: 11 }
}

#[test]
fn kron() {
    family("kron:10", uniform(0.0, 1.0), 1);
}

#[test]
fn road() {
    family("road:3000", uniform(0.5, 20.0), 2);
}

#[test]
fn grid2d() {
    family("grid2d:24x24", uniform(0.001, 1.0), 3);
}

#[test]
fn long_path_with_tiny_weights() {
    // Sums of 1e-4s over 400 arcs: every addition rounds, so the order of additions matters.
    family("path:400", uniform(1e-4, 2e-4), 4);
}

#[test]
fn star_and_disconnected() {
    family("star:300", uniform(0.0, 3.0), 5);
    family("disconnected:4:200", uniform(1.0, 2.0), 6);
}

#[test]
fn all_zero_weights() {
    // real:0-0: every distance is +0.0; the buckets all hold bucket 0.
    family("uniform:300:5", uniform(0.0, 0.0), 7);
}

#[test]
fn multi_edges_and_self_loops() {
    family("multi:200", uniform(0.0, 10.0), 8);
    family("selfloops:200", uniform(0.0, 10.0), 9);
}

#[test]
fn huge_weights_spanning_the_exponent_range() {
    // Weights up to 1e37: distances approach f32::MAX without passing it on these paths.
    family("uniform:200:3", uniform(1e30, 1e37), 10);
}

#[test]
fn the_distance_is_the_rounded_path_sum() {
    // 1e8 + 1 rounds back to 1e8 in f32 (the spacing there is 8): the path 0 -> 1 -> 2 has
    // length 1e8, shorter than the arc 0 -> 2 of 1e8 + 8. Every engine must agree, bit for bit.
    let g = real_graph(3, &[(0, 1, 1e8), (1, 2, 1.0), (0, 2, 100000008.0)]);
    let want = sssp::reference::dijkstra(&g, 0).unwrap();
    assert_eq!(f(want[2]), 1e8);
    let mut eng = engine::open(&g, device()).unwrap();
    check_all(&g, eng.as_mut(), &[0, 1], "rounding");
    // The certificate follows the same arithmetic: 1e8 + 1 is tight into vertex 2.
    let tree = sssp::tree::predecessors(&g, 0, &want).unwrap();
    assert_eq!(tree[2], 1);
}

#[test]
fn sums_past_f32_max_are_a_typed_error_unless_a_shorter_path_exists() {
    let mut eng;
    // 0 -> 1 -> 2 with 3e38 each: vertex 2's distance is past f32::MAX.
    let g = real_graph(3, &[(0, 1, 3e38), (1, 2, 3e38)]);
    assert!(matches!(sssp::reference::dijkstra(&g, 0), Err(Error::DistanceOverflow { vertex: 2, .. })));
    eng = engine::open(&g, device()).unwrap();
    for (algo, opts) in configs(Metric::Real) {
        match solve(&g, algo, Some(eng.as_mut()), 0, &opts) {
            Err(Error::DistanceOverflow { vertex: 2, .. }) => {}
            other => panic!("{} {opts:?}: {:?}", algo.name(), other.map(|s| s.dist)),
        }
    }
    // The same detour beside a short arc: dropped, not an error.
    let g = real_graph(3, &[(0, 1, 3e38), (1, 2, 3e38), (0, 2, 1.0)]);
    eng = engine::open(&g, device()).unwrap();
    check_all(&g, eng.as_mut(), &[0], "overflowing detour");
    // A cutoff below the overflow answers without error.
    let g = real_graph(3, &[(0, 1, 3e38), (1, 2, 3e38)]);
    eng = engine::open(&g, device()).unwrap();
    let opts = Options::default().with_cutoff(Metric::Real.encode(1e38, "cutoff").unwrap() as u64);
    for algo in [Algo::NearFar, Algo::Bucketing, Algo::Workfront, Algo::Dijkstra] {
        let sol = solve(&g, algo, Some(eng.as_mut()), 0, &opts).unwrap();
        assert_eq!(sol.dist, vec![0, UNREACHED, UNREACHED], "{}", algo.name());
    }
}

#[test]
fn cutoff_target_and_trees_on_real_distances() {
    let g = generate(&GenSpec::parse("road:2000").unwrap(), 3, uniform(0.25, 4.0)).unwrap();
    let mut eng = engine::open(&g, device()).unwrap();
    let src = sssp::reference::pick_sources(&g, 1, 3)[0];
    let full = sssp::reference::dijkstra(&g, src).unwrap();
    let far = full.iter().copied().filter(|&d| d != UNREACHED).max().unwrap();
    let cutoff = Metric::Real.encode(Metric::Real.decode(far) / 3.0, "cutoff").unwrap();
    let target = (0..g.num_vertices()).max_by_key(|&v| if full[v] == UNREACHED { -1 } else { full[v] }).unwrap() as u32;
    for (algo, base) in configs(Metric::Real) {
        let what = format!("{} {base:?}", algo.name());
        // Cutoff: the reference clipped at it, certified within it.
        let sol = solve(&g, algo, Some(eng.as_mut()), src, &base.with_cutoff(cutoff as u64)).unwrap();
        let want: Vec<Dist> = full.iter().map(|&d| if d > cutoff { UNREACHED } else { d }).collect();
        sssp::verify::compare_in(Metric::Real, &sol.dist, &want).unwrap_or_else(|e| panic!("{what}: {e}"));
        sssp::verify::check_within(&g, src, &sol.dist, cutoff).unwrap_or_else(|e| panic!("{what}: {e}"));
        // Target with a tree: the target's distance exact, the path's rounded sum equal to it.
        let sol = solve(&g, algo, Some(eng.as_mut()), src, &base.with_target(target).with_tree()).unwrap();
        assert_eq!(sol.distance(target), Some(sssp::Distance::Real(f(full[target as usize]))), "{what}");
        assert_eq!(sol.distance_f32(target), Some(f(full[target as usize])), "{what}");
        let path = sol.path(target).unwrap_or_else(|| panic!("{what}: no path"));
        let mut len = 0f32;
        for w in path.windows(2) {
            let (u, v) = (w[0], w[1]);
            // Parallel arcs: the tree's arc is one whose rounded sum is v's distance.
            let tight = g
                .neighbors(u)
                .filter(|&(x, _)| x == v)
                .map(|(_, b)| len + f32::from_bits(b as u32))
                .find(|s| s.to_bits() as Dist == full[v as usize]);
            len = tight.unwrap_or_else(|| panic!("{what}: no tight arc {u} -> {v}"));
        }
        assert_eq!(len, f(full[target as usize]), "{what}: the path's rounded sum");
    }
    // Full trees, certified by the tree checker in the real metric.
    for algo in [Algo::NearFar, Algo::Bucketing, Algo::Workfront, Algo::Crauser, Algo::Martin] {
        let sol = solve(&g, algo, Some(eng.as_mut()), src, &Options::default().with_tree()).unwrap();
        sssp::verify::check_tree(&g, src, &sol.dist, sol.parents.as_ref().unwrap()).unwrap();
        assert_eq!(sol.dist, full);
        assert_eq!(sol.distances_f32()[src as usize], 0.0);
    }
}

#[test]
fn batches_and_nearest_sources() {
    let g = generate(&GenSpec::parse("grid2d:30x30").unwrap(), 1, uniform(0.1, 1.0)).unwrap();
    let sources = sssp::reference::pick_sources(&g, 6, 5);
    let mut eng = engine::open_lanes(&g, device(), 4).unwrap();
    for algo in [Algo::Workfront, Algo::NearFar, Algo::Bucketing] {
        let mut seen = 0;
        solve_each(&g, algo, Some(eng.as_mut()), &sources, &Options::default(), |s, sol| {
            seen += 1;
            sssp::verify::compare_in(Metric::Real, &sol.dist, &sssp::reference::dijkstra(&g, s)?)
        })
        .unwrap_or_else(|e| panic!("{}: {e}", algo.name()));
        assert_eq!(seen, sources.len());
    }
    let mut one = engine::open(&g, device()).unwrap();
    let want = sssp::reference::dijkstra_nearest(&g, &sources).unwrap();
    for algo in [Algo::Workfront, Algo::NearFar, Algo::Bucketing] {
        let sol = solve_nearest(&g, algo, Some(one.as_mut()), &sources, &Options::default().with_tree()).unwrap();
        sssp::verify::compare_in(Metric::Real, &sol.dist, &want).unwrap();
        sssp::verify::check_tree_nearest(&g, &sources, &sol.dist, sol.parents.as_ref().unwrap()).unwrap();
    }
}

#[test]
fn the_certificate_uses_rounded_sums() {
    let g = real_graph(3, &[(0, 1, 1e8), (1, 2, 1.0), (0, 2, 100000008.0)]);
    let d = |x: f32| x.to_bits() as Dist;
    sssp::verify::check(&g, 0, &[0, d(1e8), d(1e8)]).unwrap();
    // The exact sum 1e8 + 1 is not an f32; 1e8 + 8 is a path but not the shortest.
    let Err(Error::Verification(why)) = sssp::verify::check(&g, 0, &[0, d(1e8), d(100000008.0)]) else { panic!() };
    assert!(why.contains("vertex 2") && why.contains("100000000"), "{why}");
    // A distance below every path: no tight path leads to it.
    assert!(sssp::verify::check(&g, 0, &[0, d(1e8), d(9e7)]).is_err());
}

#[test]
fn bad_real_deltas_and_serial_bellman_ford_are_refused() {
    let g = real_graph(2, &[(0, 1, 0.5)]);
    let mut eng = engine::open(&g, device()).unwrap();
    let bad = [0.0, -0.0, f32::INFINITY, f32::NAN, -1.0].map(Width::from);
    for bad in bad.into_iter().chain([Width::from(0u32)]) {
        let opts = Options::default().with_delta(bad);
        assert!(
            matches!(solve(&g, Algo::NearFar, Some(eng.as_mut()), 0, &opts), Err(Error::InvalidArgument(_))),
            "{bad:?}"
        );
    }
    assert!(matches!(sssp::reference::bellman_ford(&g, 0), Err(Error::InvalidArgument(_))));
    let opts = sssp::diameter::DiameterOptions::default();
    assert!(matches!(sssp::diameter::diameter(&g, device(), &opts), Err(Error::InvalidArgument(_))));
    // Encoding distances for a real graph.
    assert_eq!(Metric::Real.encode(0.5, "x").unwrap(), 0.5f32.to_bits() as Dist);
    assert_eq!(Metric::Real.encode(-0.0, "x").unwrap(), 0);
    assert!(Metric::Real.encode(f64::NAN, "x").is_err());
    assert!(Metric::Real.encode(1e39, "x").is_err());
    assert!(Metric::Integer.encode(2.5, "x").is_err());
    assert_eq!(Metric::Real.show(0.1f32.to_bits() as Dist), "0.1");
    assert_eq!(Metric::Real.show(UNREACHED), "inf");
}

fn bits(g: &Graph) -> Vec<i64> {
    (0..g.num_arcs()).map(|e| g.weights().get(e)).collect()
}

#[test]
fn formats_carry_real_weights() {
    let dir = TempDir::new("formats");
    let g = generate(&GenSpec::parse("kron:8").unwrap(), 1, uniform(0.0, 100.0)).unwrap();
    for name in ["g.mtx", "g.el", "g.wel", "g.bin", "g.mtx.gz"] {
        let p = dir.path(name);
        match name {
            "g.bin" => sssp::io::binary::write(&g, &p).unwrap(),
            _ => sssp::io::write_text(&g, &p, sssp::io::Format::from_path(&p).unwrap()).unwrap(),
        }
        let back = read_graph(&p, &LoadOptions::default()).unwrap();
        assert_eq!(back.metric(), Metric::Real, "{name}");
        assert_eq!((back.offsets(), back.targets()), (g.offsets(), g.targets()), "{name}");
        // Written as the shortest decimal that reads back as the same f32: bit for bit.
        assert_eq!(bits(&back), bits(&g), "{name}");
    }
    // DIMACS holds integers only: writing a real graph is refused, not rounded.
    let gr = dir.path("g.gr");
    assert!(matches!(sssp::io::write_text(&g, &gr, sssp::io::Format::Dimacs), Err(Error::InvalidArgument(_))));

    // An edge list with one decimal weight is real throughout; integers among them become f32.
    let el = dir.write("d.wel", "0 1 3\n1 2 0.25\n2 0 1e-3\n");
    let h = read_graph(&el, &LoadOptions::default()).unwrap();
    assert_eq!(h.metric(), Metric::Real);
    assert_eq!(bits(&h), vec![3f32.to_bits() as i64, 0.25f32.to_bits() as i64, 1e-3f32.to_bits() as i64]);
    // Matrix Market real: native by default, round on request.
    let mtx = dir.write("d.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 2.5\n2 3 0.1\n");
    assert_eq!(read_graph(&mtx, &LoadOptions::default()).unwrap().metric(), Metric::Real);
    let round = LoadOptions { real: RealPolicy::Round, ..Default::default() };
    assert_eq!(read_graph(&mtx, &round).unwrap().metric(), Metric::Integer);
}

#[test]
fn bad_real_weights_are_parse_errors_with_lines() {
    let dir = TempDir::new("bad");
    for (text, line, says) in [
        ("0 1 0.5\n1 2 -0.25\n", 2, "negative"),
        ("0 1 0.5\n1 2 nan\n", 2, "NaN"),
        ("0 1 0.5\n\n1 2 inf\n", 3, "finite"),
        ("0 1 0.5\n1 2 1e39\n", 2, "too large for f32 (max 3.4e38)"),
        ("0 1 0.5\n1 2 1e-50\n", 2, "too small for f32"),
        ("0 1 0.5\n1 2 16777217\n", 2, "not exactly an f32"),
    ] {
        let p = dir.write("w.wel", text);
        match read_graph(&p, &LoadOptions::default()) {
            Err(Error::Parse { line: l, msg, .. }) => {
                assert_eq!(l, line, "{text:?}: {msg}");
                assert!(msg.contains(says), "{text:?}: {msg}");
            }
            other => panic!("{text:?}: {:?}", other.map(|g| g.num_arcs())),
        }
    }
    // A binary file whose real weights were damaged into a NaN.
    let g = real_graph(2, &[(0, 1, 0.5)]);
    let p = dir.path("g.bin");
    sssp::io::binary::write(&g, &p).unwrap();
    let mut raw = std::fs::read(&p).unwrap();
    let at = raw.windows(4).rposition(|w| w == 0.5f32.to_bits().to_le_bytes()).unwrap();
    raw[at..at + 4].copy_from_slice(&f32::NAN.to_bits().to_le_bytes());
    std::fs::write(&p, &raw).unwrap();
    assert!(read_graph(&p, &LoadOptions::default()).is_err());
}

/// Random real multigraphs: zero weights, subnormals, weights that round away in sums, and
/// weights near f32::MAX (two in a row overflow).
fn arb_graph() -> impl Strategy<Value = Graph> {
    (1u32..40).prop_flat_map(|n| {
        let w = prop_oneof![
            3 => Just(0.0f32),
            1 => Just(f32::from_bits(1)),
            4 => 0.0f32..1.0,
            2 => (0u32..40).prop_map(|k| 1e8 + k as f32),
            3 => 0.0f32..1000.0,
            1 => 2e38f32..3e38,
        ];
        prop::collection::vec((0..n, 0..n, w), 0..200).prop_map(move |arcs| real_graph(n, &arcs))
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn random_real_graphs_match_dijkstra(g in arb_graph(), src_pick in any::<u32>()) {
        let src = src_pick % g.num_vertices() as u32;
        let want = sssp::reference::dijkstra(&g, src);
        let mut eng = engine::open(&g, device()).unwrap();
        for (algo, opts) in configs(Metric::Real) {
            match (solve(&g, algo, Some(eng.as_mut()), src, &opts), &want) {
                (Ok(sol), Ok(want)) => {
                    prop_assert!(sssp::verify::compare(&sol.dist, want).is_ok(), "{} {:?}", algo.name(), opts);
                    prop_assert!(sssp::verify::check(&g, src, &sol.dist).is_ok());
                }
                (Err(Error::DistanceOverflow { .. }), Err(Error::DistanceOverflow { .. })) => {}
                (got, want) => prop_assert!(
                    false, "{} {:?}: {:?} but the reference gives {:?}", algo.name(), opts,
                    got.map(|s| s.dist), want
                ),
            }
        }
    }
}

/// The library's distances are the numbers, whatever the weights: never the `f32` bit patterns
/// that `Solution::dist` stores on real-weighted graphs read as integers (the README's example
/// once printed "farthest 1087721439"), and never integers read as bits (1.3e-44 for 5).
#[test]
fn distances_are_typed_numbers_never_bit_patterns() {
    let path = |w: &str| generate(&GenSpec::parse("path:4").unwrap(), 1, WeightSpec::parse(w).unwrap()).unwrap();
    let (int, real) = (path("unit"), path("real:2.5-2.5"));
    let mut eng = engine::open(&int, device()).unwrap();
    let sol = solve(&int, Algo::NearFar, Some(eng.as_mut()), 0, &Options::default()).unwrap();
    assert_eq!(sol.distance(3), Some(sssp::Distance::Integer(3)));
    assert_eq!(sol.distance_f32(3), Some(3.0));
    assert_eq!(sol.farthest(), Some((3, sssp::Distance::Integer(3))));
    let mut eng = engine::open(&real, device()).unwrap();
    let sol = solve(&real, Algo::NearFar, Some(eng.as_mut()), 0, &Options::default()).unwrap();
    assert_eq!(sol.distance(2), Some(sssp::Distance::Real(5.0)));
    assert_eq!(sol.distance(2).unwrap().to_string(), "5");
    assert_eq!(sol.distance_f32(3), Some(7.5));
    assert_eq!(sol.farthest(), Some((3, sssp::Distance::Real(7.5))));
    let all: Vec<_> = sol.distances().collect();
    assert_eq!(all[1], Some(sssp::Distance::Real(2.5)));
    assert_eq!(sol.distance(9), None, "not a vertex");
}
