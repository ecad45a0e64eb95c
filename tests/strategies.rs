//! Every engine strategy x load-balancing mode x dedupe mode against serial Dijkstra, on every
//! generator family (adversarial shapes included) and on proptest random graphs.
//!
//! The device comes from `SSSP_TEST_DEVICE` (`cpu` by default, as in CI; `gpu` on the GPU test
//! machine, where a missing GPU is a failure, never a silent skip). The same test binary is the
//! GPU suite: `scripts/gpu-suite.sh` builds it here and runs it there.

use proptest::prelude::*;
use sssp::engine::{self, Balance, Engine};
use sssp::generate::{generate, GenSpec};
use sssp::graph::Graph;
use sssp::strategy::crauser::{Criterion, Variant};
use sssp::strategy::{solve, Algo, Classify, Options};
use sssp::{EdgeList, Error, Metric, WeightSpec};

use sssp_tests::device;

/// Every engine configuration, integer deltas (see `sssp_tests::configs`).
fn configs() -> Vec<(Algo, Options)> {
    sssp_tests::configs(Metric::Integer)
}

/// The work invariants of the settling algorithms (each vertex settled once; see
/// `sssp_kernels::settle`), on a result already compared with Dijkstra's distances `dist`.
///
/// Push (successor): arcs relaxed == the out-arcs of the reached vertices, exactly Dijkstra's
/// work; vertices settled == vertices reached. Pull (predecessor): its counter is the in-arcs
/// relaxed from frontier tails into still-unsettled heads, each arc at most once (a tail is in
/// one frontier): at most the push count, at least one per reached vertex but the source (the
/// arc that gave it its distance). The two variants take the same steps (a pull step leaves the
/// same tentative distances on the unsettled vertices as a push step). For Martín, whose steps
/// settle by increasing distance, the count is pinned further: every arc to a farther head is
/// pulled, none to a nearer one or a self loop. A push run through H-BF's edge classes relaxes
/// no self-loop and settles no sink but the source (a sink's arcs into it are relaxed once by the
/// deferred pass, and counted there).
#[allow(clippy::too_many_arguments)]
fn check_settling(
    g: &Graph,
    src: u32,
    dist: &[i64],
    opts: &Options,
    algo: Algo,
    s: &sssp::strategy::Stats,
    push: Option<(u32, u64)>,
    what: &str,
) {
    let reached: Vec<u32> = (0..g.num_vertices() as u32).filter(|&v| dist[v as usize] != sssp::UNREACHED).collect();
    let loops = |v: u32| g.neighbors(v).filter(|&(x, _)| x == v).count() as u64;
    let classified = opts.variant == Variant::Successor && classifies(g, opts.classify);
    let work: u64 = reached.iter().map(|&v| g.degree(v) as u64 - if classified { loops(v) } else { 0 }).sum();
    let settled = reached.iter().filter(|&&v| !classified || g.degree(v) > 0 || v == src).count();
    let name = format!("{what}: {} {opts:?}", algo.name());
    assert_eq!(s.vertices_processed, settled as u64, "{name}: every reached vertex settled once");
    assert!(s.iterations as usize <= reached.len().saturating_sub(1), "{name}: a step settles at least one vertex");
    match opts.variant {
        Variant::Successor => assert_eq!(s.arcs_relaxed, work, "{name}: push relaxes each settled vertex's arcs once"),
        Variant::Predecessor => {
            let (steps, arcs) = push.unwrap_or_else(|| panic!("{name}: no successor run to compare with"));
            assert_eq!(s.iterations, steps, "{name}: pull and push take the same steps");
            assert!(
                s.arcs_relaxed <= arcs && s.arcs_relaxed + 1 >= reached.len() as u64,
                "{name}: {} arcs",
                s.arcs_relaxed
            );
            if algo == Algo::Martin {
                let arcs = |keep: &dyn Fn(i64, i64) -> bool| -> u64 {
                    reached
                        .iter()
                        .flat_map(|&u| g.neighbors(u).map(move |(v, _)| (u, v)))
                        .filter(|&(u, v)| u != v && keep(dist[u as usize], dist[v as usize]))
                        .count() as u64
                };
                let (lo, hi) = (arcs(&|du, dv| dv > du), arcs(&|du, dv| dv >= du));
                assert!(lo <= s.arcs_relaxed && s.arcs_relaxed <= hi, "{name}: {} pulled, {lo}..={hi}", s.arcs_relaxed);
            }
        }
    }
}

/// Whether a run with `classify` on `g` relaxes through the edge classes (the library's rule,
/// from the classes' counts computed here on the host).
fn classifies(g: &Graph, classify: Classify) -> bool {
    let arcs = g.num_arcs() as u64;
    let all = || (0..g.num_vertices() as u32).flat_map(|u| g.neighbors(u).map(move |(v, _)| (u, v)));
    let skipped = all().filter(|&(u, v)| u == v).count() as u64;
    let deferred = all().filter(|&(_, v)| g.degree(v) == 0).count() as u64;
    let counts = (arcs > 0).then_some(sssp::engine::ClassCounts { arcs, skipped, deferred });
    classify.uses(counts)
}

/// Whether `auto` ran a serial reference (64-bit distances: no 32-bit overflow to report).
fn serial_choice(sol: &sssp::strategy::Solution) -> bool {
    sol.stats.chosen_algo.is_some_and(|a| !a.uses_engine())
}

/// Solve from each source with every configuration and compare with Dijkstra exactly.
fn check_all(g: &Graph, eng: &mut (dyn Engine + 'static), sources: &[u32], what: &str) {
    for &src in sources {
        let want = sssp::reference::dijkstra(g, src).unwrap();
        // (steps, arcs) of the last successor run of a settling algorithm.
        let mut push = None;
        for (algo, opts) in configs() {
            let sol = solve(g, algo, Some(eng), src, &opts)
                .unwrap_or_else(|e| panic!("{what}: {} {opts:?} from {src} failed: {e}", algo.name()));
            if let Err(e) = sssp::verify::compare(&sol.dist, &want) {
                panic!("{what}: {} {opts:?} from {src}: {e}", algo.name());
            }
            assert!(sol.stats.arcs_relaxed > 0 || g.degree(src) == 0, "{what}: no work counted");
            if algo.settles() {
                check_settling(g, src, &want, &opts, algo, &sol.stats, push, what);
                // The pull runs compare with an unclassified push run (the classes change both).
                if !(opts.variant == Variant::Successor && classifies(g, opts.classify)) {
                    push = Some((sol.stats.iterations, sol.stats.arcs_relaxed));
                }
            }
        }
    }
}

fn family(spec: &str, seed: u64) {
    let g = generate(&GenSpec::parse(spec).unwrap(), seed, WeightSpec::AsGiven).unwrap();
    let mut eng = engine::open(&g, device()).unwrap();
    let mut sources = sssp::reference::pick_sources(&g, 2, seed);
    sources.push(0);
    check_all(&g, eng.as_mut(), &sources, spec);
}

sssp_tests::family_tests!(family);

#[test]
fn unit_weights_are_bfs() {
    let g = generate(&GenSpec::parse("kron:9").unwrap(), 3, WeightSpec::Unit).unwrap();
    let mut eng = engine::open(&g, device()).unwrap();
    check_all(&g, eng.as_mut(), &[0, 17], "kron unit");
}

#[test]
fn overflowing_distances_are_a_typed_error() {
    // Three arcs of weight 2^31 + 1: the third vertex's distance needs 33 bits.
    let mut e = EdgeList::with_capacity(4, 3);
    for v in 0..3 {
        e.push(v, v + 1, (1 << 31) + 1);
    }
    let g = e.into_graph(WeightSpec::AsGiven, false).unwrap();
    let mut eng = engine::open(&g, device()).unwrap();
    for (algo, opts) in configs() {
        match solve(&g, algo, Some(eng.as_mut()), 0, &opts) {
            Err(Error::DistanceOverflow { vertex: 2, bits: 32 }) => {}
            // `auto` may pick serial Dijkstra (64-bit distances), which answers exactly.
            Ok(sol) if serial_choice(&sol) => assert_eq!(sol.dist[2], 2 * ((1 << 31) + 1)),
            other => panic!("{} {opts:?}: expected overflow at vertex 2, got {other:?}", algo.name()),
        }
    }
}

#[test]
fn overflowing_candidates_that_are_not_shortest_are_fine() {
    // 0 -> 1 heavy and 0 -> 2 -> 1 light: the heavy candidate into 1 after the heavy arc 1 -> 3
    // overflows, but 3's true distance through the light path fits.
    let mut e = EdgeList::with_capacity(4, 4);
    e.push(0, 1, u32::MAX as i64 - 10);
    e.push(1, 3, 100);
    e.push(0, 2, 1);
    e.push(2, 1, 1);
    let g = e.into_graph(WeightSpec::AsGiven, false).unwrap();
    let mut eng = engine::open(&g, device()).unwrap();
    check_all(&g, eng.as_mut(), &[0], "overflowing candidate");
}

#[test]
fn out_of_range_source_is_a_typed_error() {
    let g = generate(&GenSpec::parse("path:10").unwrap(), 1, WeightSpec::AsGiven).unwrap();
    let mut eng = engine::open(&g, device()).unwrap();
    for (algo, opts) in configs() {
        assert!(matches!(
            solve(&g, algo, Some(eng.as_mut()), 10, &opts),
            Err(Error::VertexOutOfRange { vertex: 10, .. })
        ));
    }
}

#[test]
fn engine_is_reusable_across_sources_and_modes() {
    // Buffers are reset by init: run a lookup-dedupe solve, then a stamp one, from other sources.
    let g = generate(&GenSpec::parse("uniform:500:4").unwrap(), 5, WeightSpec::AsGiven).unwrap();
    let mut eng = engine::open(&g, device()).unwrap();
    for src in [3, 100, 3] {
        check_all(&g, eng.as_mut(), &[src], "reuse");
    }
}

#[test]
fn trace_records_every_iteration() {
    let g = generate(&GenSpec::parse("path:50").unwrap(), 1, WeightSpec::Unit).unwrap();
    let mut eng = engine::open(&g, device()).unwrap();
    let opts = Options { trace: true, ..Options::default() };
    let sol = solve(&g, Algo::Workfront, Some(eng.as_mut()), 0, &opts).unwrap();
    // A path from one end: iteration k expands vertex k-1 (the last one too, to no effect).
    assert_eq!(sol.stats.iterations, 50);
    let busy: Vec<_> = sol.stats.trace.iter().filter(|t| t.frontier > 0).collect();
    assert_eq!(busy.len(), 50);
    assert!(busy.iter().all(|t| t.frontier == 1));
    assert_eq!(sol.stats.trace.iter().map(|t| t.arcs).sum::<u64>(), sol.stats.arcs_relaxed);
}

#[test]
fn bucketed_trace_shows_buckets_in_order_and_accounts_for_every_arc() {
    let g = generate(&GenSpec::parse("grid2d:30x30").unwrap(), 2, WeightSpec::AsGiven).unwrap();
    let mut eng = engine::open(&g, device()).unwrap();
    for algo in [Algo::NearFar, Algo::Bucketing] {
        let opts = Options { trace: true, delta: Some(100u32.into()), buckets: 4, ..Options::default() };
        let sol = solve(&g, algo, Some(eng.as_mut()), 0, &opts).unwrap();
        sssp::verify::compare(&sol.dist, &sssp::reference::dijkstra(&g, 0).unwrap()).unwrap();
        let t = &sol.stats.trace;
        assert_eq!(t.len() as u32, t.last().unwrap().iter);
        assert!(t.windows(2).all(|w| w[0].bucket <= w[1].bucket), "{}: buckets go up", algo.name());
        assert!(t.last().unwrap().bucket > 10, "{}: delta 100 on a 30x30 grid spans many buckets", algo.name());
        assert_eq!(t.iter().map(|r| r.arcs).sum::<u64>(), sol.stats.arcs_relaxed);
        assert!(sol.stats.far_splits > 0);
    }
}

/// Bucketing's slots share `n` entries of room (`n / A` each, `sssp_kernels::split`): a bucket
/// that more vertices enter overflows its slot, and the loop gathers that bucket from the
/// distances instead of reading it. Built to overflow on every path into a slot: the source's
/// 1,999 leaves all enter slot 5 (room 4,000 / 10 = 400), half of them then drop to slot 3 (stale
/// entries behind, the new slot overflowed too), and each leaf's far vertex (all in two
/// buckets of one later window) overflows the slots the far split distributes to. Every loop
/// (grid, block, one launch per iteration, the trace's launch per iteration, which resumes from a
/// state that points at an overflowed slot), both dedupes, against Dijkstra.
#[test]
fn overflowed_slots_are_gathered_from_the_distances_and_stay_exact() {
    let n = 2000u32;
    let mut arcs = Vec::new();
    for i in 1..n {
        arcs.push((0, i, 55 + i as i64 % 3)); // bucket 5
        arcs.push((i, n + i, 200 + i as i64 % 7)); // the far tier, buckets 25-26
        if i + 1 < n {
            arcs.push((i, i + 1, 1));
        }
        if i % 2 == 0 {
            arcs.push((1, i, 10 + i as i64 % 5)); // via vertex 1 (bucket 2): bucket 3
        }
    }
    arcs.push((0, 1, 21));
    let g = Graph::from_arcs(2 * n, &arcs).unwrap();
    let want = sssp::reference::dijkstra(&g, 0).unwrap();
    let mut eng = engine::open(&g, device()).unwrap();
    let base = Options { delta: Some(10u32.into()), buckets: 10, ..Options::default() };
    let mut runs = Vec::new();
    for balance in [Balance::Thread, Balance::VirtualWarp, Balance::Partition] {
        for dedupe in [sssp::engine::Dedupe::Stamp, sssp::engine::Dedupe::Lookup] {
            for device_loop in [true, false] {
                runs.push(Options { balance, dedupe, device_loop, ..base });
            }
        }
    }
    runs.push(Options { trace: true, ..base });
    runs.push(Options { block_loop: true, ..base });
    runs.push(Options { block_loop: true, trace: true, ..base });
    for o in runs {
        for _ in 0..3 {
            let sol = solve(&g, Algo::Bucketing, Some(eng.as_mut()), 0, &o).unwrap();
            sssp::verify::compare(&sol.dist, &want).unwrap_or_else(|e| panic!("{o:?}: {e}"));
        }
    }
}

#[test]
fn bucketed_strategies_save_work_on_meshes() {
    // The point of Near-Far and Bucketing (Davidson §IV-D): far fewer relaxations than Workfront
    // on graphs with long shortest paths (about 4x fewer here, 40x on NY). Counts, not times.
    let g = generate(&GenSpec::parse("grid2d:100x100").unwrap(), 3, WeightSpec::AsGiven).unwrap();
    let mut eng = engine::open(&g, device()).unwrap();
    let mut arcs = |algo| solve(&g, algo, Some(eng.as_mut()), 0, &Options::default()).unwrap().stats.arcs_relaxed;
    let (wf, nf, bk) = (arcs(Algo::Workfront), arcs(Algo::NearFar), arcs(Algo::Bucketing));
    assert!(nf * 3 < wf && bk * 3 < wf, "workfront {wf}, near-far {nf}, bucketing {bk}");
}

#[test]
fn crauser_settles_many_vertices_per_step_and_martin_one_distance() {
    // Steps are counts, not times. On a road graph with distinct-ish weights Martín settles one
    // distance per step; Crauser's criteria settle many vertices per step, and `both` never needs
    // more steps than the better of its two halves here.
    let g = generate(&GenSpec::parse("road:4000").unwrap(), 5, WeightSpec::AsGiven).unwrap();
    let mut eng = engine::open(&g, device()).unwrap();
    let want = sssp::reference::dijkstra(&g, 0).unwrap();
    let mut distinct: Vec<i64> = want.iter().copied().filter(|&d| d != sssp::UNREACHED).collect();
    distinct.sort_unstable();
    distinct.dedup();
    let mut steps = |algo, criterion| {
        let opts = Options { criterion, ..Options::default() };
        let sol = solve(&g, algo, Some(eng.as_mut()), 0, &opts).unwrap();
        sssp::verify::compare(&sol.dist, &want).unwrap();
        sol.stats.iterations as usize
    };
    let (out, inn, both) = (
        steps(Algo::Crauser, Criterion::Out),
        steps(Algo::Crauser, Criterion::In),
        steps(Algo::Crauser, Criterion::Both),
    );
    let (eco, martin) = (steps(Algo::CrauserEconomic, Criterion::Both), steps(Algo::Martin, Criterion::Both));
    // No zero weights here: Martín's step k settles exactly the k-th smallest distance.
    assert!(g.weight_range().unwrap().0 > 0);
    assert_eq!(martin, distinct.len() - 1, "martin: one step per distance but the source's");
    assert!(
        both <= out.min(inn) && out * 4 < martin && inn * 4 < martin,
        "out {out}, in {inn}, both {both}, martin {martin}"
    );
    assert!(out <= eco && eco < martin, "economic {eco} between out {out} and martin {martin}");
}

#[test]
fn bad_bucket_parameters_are_refused() {
    let g = generate(&GenSpec::parse("path:10").unwrap(), 1, WeightSpec::AsGiven).unwrap();
    let mut eng = engine::open(&g, device()).unwrap();
    for (delta, buckets) in [(Some(0u32.into()), 10), (None, 0), (None, 31)] {
        let opts = Options { delta, buckets, ..Options::default() };
        let r = solve(&g, Algo::Bucketing, Some(eng.as_mut()), 0, &opts);
        assert!(matches!(r, Err(Error::InvalidArgument(_))), "{delta:?} x {buckets}: {r:?}");
    }
}

/// The multisplit operator against a stable partition on the host.
fn check_multisplit(items: &[u32], keys: &[u32], nbins: u32) {
    let g = generate(&GenSpec::parse("path:4").unwrap(), 1, WeightSpec::AsGiven).unwrap();
    let got = engine::multisplit(&g, device(), items, keys, nbins).unwrap();
    let want: Vec<Vec<u32>> =
        (0..nbins).map(|b| items.iter().zip(keys).filter(|&(_, &k)| k == b).map(|(&x, _)| x).collect()).collect();
    assert_eq!(got, want, "{} items, {nbins} bins", items.len());
}

#[test]
fn multisplit_edge_cases() {
    check_multisplit(&[], &[], 3);
    check_multisplit(&[5, 6, 7], &[0, 0, 0], 1);
    // Everything in the last bin (the far pile), and everything dropped.
    let items: Vec<u32> = (0..5000).collect();
    check_multisplit(&items, &vec![11; 5000], 12);
    check_multisplit(&items, &vec![12; 5000], 12);
    // Skewed: almost all in one bin, a few scattered, across many tiles and blocks.
    let n = 300_000u32;
    let items: Vec<u32> = (0..n).map(|i| i.wrapping_mul(2654435761)).collect();
    let keys: Vec<u32> = (0..n).map(|i| if i % 997 == 0 { i % 32 } else { 3 }).collect();
    check_multisplit(&items, &keys, 32);
    // Bad arguments are errors, not faults.
    let g = generate(&GenSpec::parse("path:4").unwrap(), 1, WeightSpec::AsGiven).unwrap();
    assert!(engine::multisplit(&g, device(), &[1, 2], &[0], 2).is_err());
    assert!(engine::multisplit(&g, device(), &[1], &[0], 33).is_err());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn multisplit_is_a_stable_partition(keys in prop::collection::vec(0u32..14, 0..3000), nbins in 1u32..13) {
        let items: Vec<u32> = (0..keys.len() as u32).map(|i| i * 7 + 1).collect();
        check_multisplit(&items, &keys, nbins);
    }
}

/// Random multigraphs with zero weights, self loops, parallel arcs and weights near 2^31 (two in
/// a row fit the 32-bit distances, three do not).
fn arb_graph() -> impl Strategy<Value = Graph> {
    sssp_tests::multigraphs(
        1..40,
        200,
        |n| n,
        || {
            let near_edge = (1i64 << 31) - 3..(1i64 << 31);
            prop_oneof![4 => Just(0i64), 4 => 0i64..5, 4 => 0i64..1000, 1 => near_edge]
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_graphs_match_dijkstra(g in arb_graph(), src_pick in any::<u32>()) {
        let src = src_pick % g.num_vertices() as u32;
        let want = sssp::reference::dijkstra(&g, src).unwrap();
        // A shortest distance of 2^32 - 1 or more does not fit the engines' 32-bit distances.
        let overflows = want.iter().any(|&d| d != sssp::UNREACHED && d >= u32::MAX as i64);
        let mut eng = engine::open(&g, device()).unwrap();
        for (algo, opts) in configs() {
            match solve(&g, algo, Some(eng.as_mut()), src, &opts) {
                Ok(sol) => {
                    prop_assert!(!overflows || serial_choice(&sol), "{} {:?}: no overflow reported", algo.name(), opts);
                    prop_assert!(sssp::verify::compare(&sol.dist, &want).is_ok(), "{} {:?}", algo.name(), opts);
                    prop_assert!(sssp::verify::check(&g, src, &sol.dist).is_ok());
                }
                Err(Error::DistanceOverflow { .. }) => prop_assert!(overflows, "{} {:?}", algo.name(), opts),
                Err(e) => prop_assert!(false, "{} {:?}: {}", algo.name(), opts, e),
            }
        }
    }
}

/// The hub path and the tiled modes relax every arc of an expanded vertex exactly once and
/// count each expanded vertex once (the hub pass does not count its input again): a star's hub
/// (2999 arcs) and its leaves (one arc back each) from the hub, in every balance mode, with the
/// hub path off, at the library's threshold, and taking every vertex (threshold 1).
#[test]
fn hub_path_and_tiles_relax_each_arc_once() {
    let g = generate(&GenSpec::parse("star:3000").unwrap(), 1, WeightSpec::AsGiven).unwrap();
    let want = sssp::reference::dijkstra(&g, 0).unwrap();
    let mut eng = engine::open(&g, device()).unwrap();
    for balance in [Balance::Thread, Balance::VirtualWarp, Balance::Partition, Balance::Cta, Balance::CtaWarpScan] {
        for hub_degree in [0, sssp::HUB_DEGREE, 1] {
            for algo in [Algo::Workfront, Algo::NearFar] {
                let o = Options { balance, hub_degree, delta: Some((u32::MAX - 1).into()), ..Options::default() };
                let sol = solve(&g, algo, Some(eng.as_mut()), 0, &o).unwrap();
                let what = format!("{algo:?} {balance:?} hub {hub_degree}");
                assert_eq!(sol.dist, want, "{what}");
                assert_eq!((sol.stats.vertices_processed, sol.stats.arcs_relaxed), (3000, 5998), "{what}");
            }
        }
    }
}

/// A frontier whose vertices are mostly sinks: the source's 600 out-neighbours have no arcs but
/// every 40th, which has 70 (to sinks of its own), and every 7th, which has one. A partitioned
/// advance of that frontier sees long runs of slots without arcs, where 32 slots can hold fewer
/// ranks than a warp's trip (the GPU's runs walk then searches rank by rank, and its window
/// moves past the empty slots). Every configuration matches Dijkstra; with partition balance
/// each arc is relaxed exactly once (every vertex has one parent, and Workfront reaches it in
/// its hop order), so a rank handed out twice or never shows in the count.
#[test]
fn sinks_in_the_frontier() {
    let fan = 600u32;
    let mut edges = Vec::new();
    let mut next = fan + 1;
    for i in 1..=fan {
        edges.push((0, i, 1 + i as i64 % 9));
        let out = if i % 40 == 0 {
            70
        } else if i % 7 == 0 {
            1
        } else {
            0
        };
        for j in 0..out {
            edges.push((i, next, 1 + (i + j) as i64 % 13));
            next += 1;
        }
    }
    let g = Graph::from_arcs(next, &edges).unwrap();
    let m = g.num_arcs() as u64;
    let mut eng = engine::open(&g, device()).unwrap();
    check_all(&g, eng.as_mut(), &[0], "sinks in the frontier");
    let want = sssp::reference::dijkstra(&g, 0).unwrap();
    for algo in [Algo::Workfront, Algo::NearFar, Algo::Bucketing] {
        // Without edge classes, which would leave the arcs into sinks out of the count.
        let o = Options {
            balance: Balance::Partition,
            delta: Some((u32::MAX - 1).into()),
            classify: Classify::Off,
            ..Options::default()
        };
        let sol = solve(&g, algo, Some(eng.as_mut()), 0, &o).unwrap();
        assert_eq!(sol.dist, want, "{algo:?}");
        assert_eq!(sol.stats.arcs_relaxed, m, "{algo:?}: every arc once");
    }
}

/// The settling algorithms have their own arc mappings: a tiled mode is refused, not ignored.
#[test]
fn settling_algorithms_refuse_tiled_modes() {
    let g = generate(&GenSpec::parse("grid2d:8x8").unwrap(), 1, WeightSpec::AsGiven).unwrap();
    let mut eng = engine::open(&g, device()).unwrap();
    for algo in [Algo::Crauser, Algo::Martin] {
        let o = Options { balance: Balance::Cta, ..Options::default() };
        let e = solve(&g, algo, Some(eng.as_mut()), 0, &o).unwrap_err();
        assert!(matches!(e, Error::InvalidArgument(ref m) if m.contains("thread, vwarp or partition")), "{e}");
    }
}
