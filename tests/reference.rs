//! Property tests of the reference layer: on random small graphs (zero weights, self loops and
//! multi-edges included) Dijkstra and Bellman-Ford agree, both answers pass the certificate
//! checker, any single perturbed distance fails it, and the predecessor tree and paths are
//! consistent. Negative weights without negative cycles come from potential reweighting
//! `w'(u, v) = w(u, v) + p(u) - p(v)` of a non-negative graph, which shifts every distance by
//! the known amount `p(src) - p(v)`; planted negative cycles must be reported exactly when the
//! source reaches them. Finally every generator family, at small sizes and random seeds, gives
//! graphs on which all of this holds.

use proptest::prelude::*;
use sssp::generate::{self, GenSpec};
use sssp::graph::Graph;
use sssp::graph::NO_VERTEX;
use sssp::{reference, tree, verify, Dist, EdgeList, Error, WeightSpec, UNREACHED};

type Arc = (u32, u32, i64);

fn build(n: u32, arcs: &[Arc]) -> Graph {
    let mut e = EdgeList::with_capacity(n, arcs.len());
    for &(u, v, w) in arcs {
        e.push(u, v, w);
    }
    e.into_graph_as_given().expect("valid arcs")
}

/// Up to 60 vertices, up to 4n arcs with many zero weights; some arcs repeated with another
/// weight (multi-edges); self loops come from equal random endpoints.
fn arb_graph() -> impl Strategy<Value = (u32, Vec<Arc>)> {
    (1u32..=60).prop_flat_map(|n| {
        let weight = prop_oneof![3 => Just(0i64), 6 => 0i64..=20, 1 => 0i64..=1_000_000];
        let arcs = prop::collection::vec((0..n, 0..n, weight), 0..=4 * n as usize);
        let dups = prop::collection::vec((any::<prop::sample::Index>(), 0i64..=20), 0..8);
        (Just(n), arcs, dups).prop_map(|(n, mut arcs, dups)| {
            if !arcs.is_empty() {
                for (i, w) in dups {
                    let (u, v, _) = arcs[i.index(arcs.len())];
                    arcs.push((u, v, w));
                }
            }
            (n, arcs)
        })
    })
}

/// A graph, a source and vertex potentials for reweighting.
fn arb_instance() -> impl Strategy<Value = (u32, Vec<Arc>, u32, Vec<i64>)> {
    arb_graph().prop_flat_map(|(n, arcs)| {
        let potentials = prop::collection::vec(0i64..=100, n as usize);
        (Just(n), Just(arcs), 0..n, potentials)
    })
}

/// The predecessor tree is rooted at `src` through tight arcs, and `tree::path` follows it.
fn check_tree(g: &Graph, src: u32, dist: &[Dist]) -> Result<(), TestCaseError> {
    let parents = tree::predecessors(g, src, dist).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(parents[src as usize], NO_VERTEX);
    for v in 0..g.num_vertices() as u32 {
        let p = tree::path(g, src, dist, v).map_err(|e| TestCaseError::fail(e.to_string()))?;
        if dist[v as usize] == UNREACHED {
            prop_assert_eq!(parents[v as usize], NO_VERTEX);
            prop_assert!(p.is_none());
            continue;
        }
        let p = p.expect("reached vertex has a path");
        prop_assert_eq!(p[0], src);
        prop_assert_eq!(*p.last().unwrap(), v);
        prop_assert!(p.len() <= g.num_vertices());
        // The path's cheapest arcs add up to the distance.
        let mut len = 0i64;
        for hop in p.windows(2) {
            let w = g.neighbors(hop[0]).filter(|&(t, _)| t == hop[1]).map(|(_, w)| w).min();
            prop_assert!(w.is_some(), "{} -> {} is not an arc", hop[0], hop[1]);
            len += w.unwrap();
        }
        prop_assert_eq!(len, dist[v as usize]);
    }
    Ok(())
}

/// Changing any one distance by one (or to/from unreached) must be caught.
fn check_perturbations(g: &Graph, src: u32, dist: &[Dist]) -> Result<(), TestCaseError> {
    for v in 0..dist.len() {
        let variants: &[Dist] =
            if dist[v] == UNREACHED { &[0, -1, 1000] } else { &[dist[v] - 1, dist[v] + 1, UNREACHED] };
        for &bad in variants {
            let mut x = dist.to_vec();
            x[v] = bad;
            let r = verify::check(g, src, &x);
            prop_assert!(matches!(r, Err(Error::Verification(_))), "vertex {} set to {} was accepted", v, bad);
        }
    }
    Ok(())
}

fn agree_and_verify(g: &Graph, src: u32) -> Result<Vec<Dist>, TestCaseError> {
    let d = reference::dijkstra(g, src).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let b = reference::bellman_ford(g, src).map_err(|e| TestCaseError::fail(e.to_string()))?;
    if let Err(e) = verify::compare(&b, &d) {
        return Err(TestCaseError::fail(e.to_string()));
    }
    if let Err(e) = verify::check(g, src, &d) {
        return Err(TestCaseError::fail(e.to_string()));
    }
    Ok(d)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn dijkstra_equals_bellman_ford((n, arcs, src, _) in arb_instance()) {
        let g = build(n, &arcs);
        let d = agree_and_verify(&g, src)?;
        // Unreached vertices are exactly the ones the source cannot reach.
        let r = g.reachable(src);
        for v in 0..n as usize {
            prop_assert_eq!(d[v] != UNREACHED, r[v]);
        }
        check_tree(&g, src, &d)?;
        check_perturbations(&g, src, &d)?;
    }

    #[test]
    fn negative_weights_by_potentials((n, arcs, src, p) in arb_instance()) {
        let g = build(n, &arcs);
        let d = reference::dijkstra(&g, src).unwrap();
        let shifted: Vec<Arc> = arcs.iter().map(|&(u, v, w)| (u, v, w + p[u as usize] - p[v as usize])).collect();
        let h = build(n, &shifted);
        let want: Vec<Dist> = (0..n as usize)
            .map(|v| if d[v] == UNREACHED { UNREACHED } else { d[v] + p[src as usize] - p[v] })
            .collect();
        let got = reference::bellman_ford(&h, src).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(&got, &want);
        if let Err(e) = verify::check(&h, src, &got) {
            return Err(TestCaseError::fail(e.to_string()));
        }
        check_tree(&h, src, &got)?;
        check_perturbations(&h, src, &got)?;
    }

    #[test]
    fn planted_negative_cycle_is_found_iff_reachable(
        (n, arcs, src, p) in arb_instance(),
        cycle in prop::collection::vec(any::<prop::sample::Index>(), 1..5),
    ) {
        // Reweight a non-negative graph (no negative cycle), then add a cycle of total -1.
        let mut all: Vec<Arc> = arcs.iter().map(|&(u, v, w)| (u, v, w + p[u as usize] - p[v as usize])).collect();
        let on: Vec<u32> = cycle.iter().map(|i| i.index(n as usize) as u32).collect();
        for k in 0..on.len() {
            let (u, v) = (on[k], on[(k + 1) % on.len()]);
            let w = if k == 0 { -1 } else { 0 };
            all.push((u, v, w + p[u as usize] - p[v as usize]));
        }
        let g = build(n, &all);
        let reaches = g.reachable(src)[on[0] as usize];
        match reference::bellman_ford(&g, src) {
            Err(Error::NegativeCycle { vertex, cycle, weight }) => {
                prop_assert!(reaches, "reported a cycle the source cannot reach");
                // The witness is a real cycle of the graph, of the weight it claims, negative.
                prop_assert_eq!(cycle[0], vertex);
                prop_assert!(weight < 0);
                prop_assert_eq!(reference::cycle_weight(&g, &cycle), Some(weight));
                // The reported vertex lies on a cycle reachable from the source.
                prop_assert!(g.reachable(src)[vertex as usize]);
                prop_assert!(g.neighbors(vertex).any(|(t, _)| g.reachable(t)[vertex as usize]));
            }
            Ok(d) => {
                prop_assert!(!reaches, "missed a reachable negative cycle");
                if let Err(e) = verify::check(&g, src, &d) {
                    return Err(TestCaseError::fail(e.to_string()));
                }
            }
            Err(e) => return Err(TestCaseError::fail(e.to_string())),
        }
    }
}

/// Small instances of every generator family.
const FAMILIES: &[&str] = &[
    "kron:7",
    "kron:6:4",
    "uniform:300:3",
    "grid2d:12x9",
    "grid3d:4x5x6",
    "road:500",
    "path:200",
    "star:150",
    "complete:20",
    "disconnected:5:203",
    "zero:300",
    "selfloops:200",
    "multi:150",
    "heavy:100",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 10, ..ProptestConfig::default() })]

    #[test]
    fn generator_families_pass(seed in any::<u64>(), source_seed in any::<u64>()) {
        for name in FAMILIES {
            let spec = GenSpec::parse(name).unwrap();
            for weights in [WeightSpec::AsGiven, WeightSpec::Unit] {
                let g = generate::generate(&spec, seed, weights).unwrap();
                for src in reference::pick_sources(&g, 2, source_seed) {
                    let d = agree_and_verify(&g, src)?;
                    let reached = d.iter().filter(|&&x| x != UNREACHED).count();
                    if matches!(spec, GenSpec::Road { .. } | GenSpec::Grid2d { .. } | GenSpec::Path { .. }) {
                        prop_assert_eq!(reached, g.num_vertices(), "{} is connected", name);
                    }
                    if let GenSpec::Disconnected { parts, n } = spec {
                        prop_assert!(reached <= (n as usize).div_ceil(parts as usize), "{}", name);
                    }
                }
            }
        }
    }
}

#[test]
fn heavy_distances_exceed_32_bits() {
    let g = generate::generate(&GenSpec::Heavy { n: 200 }, 1, WeightSpec::AsGiven).unwrap();
    let src = reference::pick_sources(&g, 1, 1)[0];
    let d = reference::dijkstra(&g, src).unwrap();
    assert!(d.iter().any(|&x| x != UNREACHED && x > u32::MAX as Dist));
}
