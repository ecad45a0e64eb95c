//! Many sources: nearest-source runs against multi-source Dijkstra, and batched
//! sources (engines with lanes) row by row against single-source runs, on every generator
//! family worth a different shape, adversarial ones included, and on proptest graphs.
//!
//! The device comes from `SSSP_TEST_DEVICE` as in `strategies.rs` (so the GPU suite runs these
//! too).

use proptest::prelude::*;
use sssp::engine::{self, Balance, Dedupe, DeviceKind, Engine};
use sssp::generate::{generate, GenSpec};
use sssp::graph::Graph;
use sssp::graph::NO_VERTEX;
use sssp::strategy::{solve, solve_each, solve_nearest, Algo, Options};
use sssp::{Dist, Error, WeightSpec, UNREACHED};

use sssp_tests::device;

/// The algorithms that take a set of sources or a batch, in the modes that change the loop.
fn configs() -> Vec<(Algo, Options)> {
    let mut v = vec![(Algo::Auto, Options::default())];
    for balance in [Balance::VirtualWarp, Balance::Partition, Balance::Thread] {
        for dedupe in [Dedupe::Stamp, Dedupe::Lookup] {
            let base = Options { balance, dedupe, ..Options::default() };
            v.push((Algo::Workfront, base));
            v.push((Algo::NearFar, base));
            v.push((Algo::Bucketing, Options { delta: Some(40u32.into()), buckets: 3, ..base }));
        }
    }
    v.push((Algo::NearFar, Options { device_loop: false, delta: Some(7u32.into()), ..Options::default() }));
    v.push((Algo::NearFar, Options { wide_at: 4, ..Options::default() }));
    v
}

fn clipped(want: &[Dist], bound: Option<u64>) -> Vec<Dist> {
    let b = bound.map_or(Dist::MAX, |c| c.min(Dist::MAX as u64 - 1) as Dist);
    want.iter().map(|&d| if d > b { UNREACHED } else { d }).collect()
}

/// A nearest-source run equals multi-source Dijkstra (clipped at the cutoff), passes the
/// certificate, and its forest names for each vertex a source at exactly that distance.
fn check_nearest(g: &Graph, eng: &mut (dyn Engine + 'static), sources: &[u32], cutoff: Option<u64>) {
    let want = clipped(&sssp::reference::dijkstra_nearest(g, sources).unwrap(), cutoff);
    let each: Vec<Vec<Dist>> = sources.iter().map(|&s| sssp::reference::dijkstra(g, s).unwrap()).collect();
    let mut runs = configs();
    runs.push((Algo::Dijkstra, Options::default()));
    runs.push((Algo::DeltaStepping, Options::default()));
    runs.push((Algo::DeltaStepping, Options { delta: Some(1u32.into()), ..Options::default() }));
    for (algo, base) in runs {
        let opts = Options { cutoff, tree: true, ..base };
        let what = format!("{} {opts:?} from {sources:?}", algo.name());
        let sol = solve_nearest(g, algo, Some(&mut *eng), sources, &opts).unwrap_or_else(|e| panic!("{what}: {e}"));
        sssp::verify::compare(&sol.dist, &want).unwrap_or_else(|e| panic!("{what}: {e}"));
        sssp::verify::check_nearest_within(g, sources, &sol.dist, opts.query_bound(&sol.dist))
            .unwrap_or_else(|e| panic!("{what}: certificate: {e}"));
        let parents = sol.parents.as_ref().expect("a tree was asked for");
        sssp::verify::check_tree_nearest(g, sources, &sol.dist, parents).unwrap_or_else(|e| panic!("{what}: {e}"));
        let roots = sssp::tree::nearest_roots(parents, sources);
        for (v, (&r, &d)) in roots.iter().zip(&sol.dist).enumerate() {
            if d == UNREACHED {
                assert_eq!(r, NO_VERTEX, "{what}: unreached {v} has a source");
                continue;
            }
            let k = sources.iter().position(|&s| s == r).unwrap_or_else(|| panic!("{what}: {v}'s root {r}"));
            assert_eq!(each[k][v], d, "{what}: vertex {v} names source {r}, which is not a nearest one");
        }
    }
}

/// Every row of a batch on an engine with `lanes` lanes equals a single-source run (clipped
/// at the cutoff), in source order, with the batch sizes the lanes imply.
fn check_batches(g: &Graph, lanes: u32, sources: &[u32], cutoff: Option<u64>) {
    let mut eng = engine::open_lanes(g, device(), lanes).unwrap();
    assert_eq!((eng.lanes(), eng.num_vertices() as usize), (lanes, g.num_vertices() * lanes as usize));
    for (algo, base) in configs() {
        let opts = Options { cutoff, ..base };
        let what = format!("{} {opts:?} on {lanes} lanes", algo.name());
        let mut seen = vec![];
        solve_each(g, algo, Some(eng.as_mut()), sources, &opts, |s, sol| {
            let want = clipped(&sssp::reference::dijkstra(g, s).unwrap(), cutoff);
            sssp::verify::compare(&sol.dist, &want)
                .map_err(|e| Error::Verification(format!("{what}: row {s}: {e}")))?;
            let k = seen.len();
            let batch = (sources.len() - k / lanes as usize * lanes as usize).min(lanes as usize) as u32;
            // `auto` may pick serial Dijkstra (on the CPU, for even degrees): one at a time.
            let serial = sol.stats.chosen_algo == Some(Algo::Dijkstra);
            assert_eq!(sol.stats.batch, (lanes > 1 && !serial).then_some(batch), "{what}: row {k}");
            seen.push(s);
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(seen, sources, "{what}: rows out of order");
    }
}

fn family(spec: &str, seed: u64) {
    let g = generate(&GenSpec::parse(spec).unwrap(), seed, WeightSpec::AsGiven).unwrap();
    let mut eng = engine::open(&g, device()).unwrap();
    let mut sources = sssp::reference::pick_sources(&g, 5, seed);
    check_nearest(&g, eng.as_mut(), &sources[..1], None);
    // Repeats are one source.
    sources.push(sources[0]);
    check_nearest(&g, eng.as_mut(), &sources, None);
    let median = {
        let mut d: Vec<Dist> = sssp::reference::dijkstra_nearest(&g, &sources).unwrap();
        d.retain(|&x| x != UNREACHED);
        d.sort_unstable();
        d[d.len() / 2] as u64
    };
    check_nearest(&g, eng.as_mut(), &sources, Some(median));
    // 6 sources (one repeated) on 1, 4 (a full and a partial pass) and 8 lanes (one partial).
    for lanes in [1, 4, 8] {
        check_batches(&g, lanes, &sources, None);
    }
    check_batches(&g, 4, &sources, Some(median));
}

#[test]
fn road() {
    family("road:2000", 1);
}

#[test]
fn grid2d() {
    family("grid2d:25x25", 2);
}

#[test]
fn kron() {
    family("kron:8", 3);
}

#[test]
fn zero_weights() {
    family("zero:500", 4);
}

#[test]
fn disconnected() {
    family("disconnected:4:200", 5);
}

#[test]
fn star_with_hub() {
    family("star:3000", 6);
}

/// The widest batch: 64 lanes, more sources than lanes.
#[test]
fn sixty_four_lanes() {
    let g = generate(&GenSpec::parse("road:500").unwrap(), 9, WeightSpec::AsGiven).unwrap();
    let sources = sssp::reference::pick_sources(&g, 70, 9);
    let mut eng = engine::open_lanes(&g, device(), 64).unwrap();
    let mut rows = 0;
    solve_each(&g, Algo::NearFar, Some(eng.as_mut()), &sources, &Options::default(), |s, sol| {
        sssp::verify::compare(&sol.dist, &sssp::reference::dijkstra(&g, s).unwrap())?;
        rows += 1;
        Ok(())
    })
    .unwrap();
    assert_eq!(rows, 70);
}

#[test]
fn what_a_batch_refuses_is_a_typed_error() {
    let g = generate(&GenSpec::parse("grid2d:6x6").unwrap(), 1, WeightSpec::AsGiven).unwrap();
    for lanes in [0, 3, 128] {
        assert!(matches!(engine::open_lanes(&g, device(), lanes), Err(Error::InvalidArgument(_))), "{lanes}");
    }
    let mut eng = engine::open_lanes(&g, device(), 4).unwrap();
    let refuse = |r: sssp::Result<()>, what: &str| {
        assert!(matches!(r, Err(Error::InvalidArgument(_))), "{what}: {r:?}");
    };
    let ok = |_: u32, _| Ok(());
    let tree = Options { tree: true, ..Options::default() };
    refuse(solve_each(&g, Algo::NearFar, Some(eng.as_mut()), &[0, 1], &tree, ok), "tree");
    let target = Options { target: Some(3), ..Options::default() };
    refuse(solve_each(&g, Algo::NearFar, Some(eng.as_mut()), &[0, 1], &target, ok), "target");
    refuse(solve_each(&g, Algo::Crauser, Some(eng.as_mut()), &[0, 1], &Options::default(), ok), "crauser");
    refuse(solve(&g, Algo::TopoBf, Some(eng.as_mut()), 0, &Options::default()).map(drop), "topo-bf");
    refuse(solve(&g, Algo::Martin, Some(eng.as_mut()), 0, &Options::default()).map(drop), "martin");
    refuse(solve_nearest(&g, Algo::NearFar, Some(eng.as_mut()), &[0, 1], &Options::default()).map(drop), "nearest");
    assert!(matches!(
        solve_each(&g, Algo::NearFar, Some(eng.as_mut()), &[0, 36], &Options::default(), ok),
        Err(Error::VertexOutOfRange { vertex: 36, .. })
    ));
    // Nearest-source runs: no source, a source out of range, an algorithm that takes one.
    let mut one = engine::open(&g, device()).unwrap();
    let o = Options::default();
    refuse(solve_nearest(&g, Algo::NearFar, Some(one.as_mut()), &[], &o).map(drop), "no source");
    assert!(matches!(
        solve_nearest(&g, Algo::NearFar, Some(one.as_mut()), &[1, 99], &o),
        Err(Error::VertexOutOfRange { vertex: 99, .. })
    ));
    refuse(solve_nearest(&g, Algo::Crauser, Some(one.as_mut()), &[0, 1], &o).map(drop), "crauser");
    // Too many ids for u32: refused before anything is allocated.
    let big = Graph::from_arcs(1 << 27, &[(0, 1, 1)]).unwrap();
    assert!(matches!(engine::open_lanes(&big, DeviceKind::Cpu, 64), Err(Error::TooLarge { .. })));
}

#[test]
fn the_nearest_certificate_rejects_wrong_answers() {
    // 0 -> 1 (5), 2 -> 1 (2), 1 -> 3 (1): from {0, 2}, vertex 1 is at 2 and 3 at 3.
    let g = Graph::from_arcs(4, &[(0, 1, 5), (2, 1, 2), (1, 3, 1)]).unwrap();
    sssp::verify::check_nearest(&g, &[0, 2], &[0, 2, 0, 3]).unwrap();
    assert!(sssp::verify::check_nearest(&g, &[0, 2], &[0, 5, 0, 6]).is_err());
    assert!(sssp::verify::check_nearest(&g, &[0], &[0, 2, 0, 3]).is_err());
    const NO: u32 = NO_VERTEX;
    sssp::verify::check_tree_nearest(&g, &[0, 2], &[0, 2, 0, 3], &[NO, 2, NO, 1]).unwrap();
    // A parent for a source, or a non-tight parent.
    assert!(sssp::verify::check_tree_nearest(&g, &[0, 2], &[0, 2, 0, 3], &[NO, 2, 1, 1]).is_err());
    assert!(sssp::verify::check_tree_nearest(&g, &[0, 2], &[0, 2, 0, 3], &[NO, 0, NO, 1]).is_err());
    assert_eq!(sssp::tree::nearest_roots(&[NO, 2, NO, 1], &[0, 2]), vec![0, 2, 2, 2]);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    /// Random multigraphs (zero weights, self loops, parallel arcs), random source sets and
    /// cutoffs: nearest-source runs and batched rows against the references.
    #[test]
    fn random_source_sets_match_the_references(
        n in 1u32..50,
        arcs in prop::collection::vec((0u32..50, 0u32..50, 0i64..40), 0..160),
        sources in prop::collection::vec(0u32..50, 1..9),
        cutoff in prop::option::of(0u64..200),
    ) {
        let arcs: Vec<_> = arcs.into_iter().map(|(u, v, w)| (u % n, v % n, w)).collect();
        let sources: Vec<u32> = sources.into_iter().map(|s| s % n).collect();
        let g = Graph::from_arcs(n, &arcs).unwrap();
        let mut eng = engine::open(&g, device()).unwrap();
        check_nearest(&g, eng.as_mut(), &sources, cutoff);
        check_batches(&g, 4, &sources, cutoff);
    }
}
