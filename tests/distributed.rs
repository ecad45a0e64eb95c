//! Distributed SSSP on simulated ranks against serial Dijkstra: P in {1, 2, 3, 4, 7}
//! on every generator family of `strategies.rs` (adversarial shapes included), real weights,
//! cutoffs, several sources each (an isolated one and unreached parts included), the typed
//! errors, and proptest random multigraphs with random P and bucket widths. Every comparison is
//! of whole distance arrays. With `SSSP_TEST_RANKS=nccl:G` (scripts/gpu-multi.sh, a build with
//! the `nccl` feature) the same checks run on NCCL ranks, one per GPU, for every P up to G.

use proptest::prelude::*;
use sssp::distributed::{solve, DistOptions, Group, Ranks, StepOn};
use sssp::generate::{generate, GenSpec};
use sssp::graph::Graph;
use sssp::{Error, Metric, WeightSpec, UNREACHED};
use sssp_tests::{dist_solve, max_ranks, rank_mode, run_ranks, RankMode};

/// The rank counts every family runs with: one rank, even and odd splits, more ranks than
/// some ranges have vertices on the small graphs.
const RANKS: [usize; 5] = [1, 2, 3, 4, 7];

/// Both local steps: the host's, and the device's kernels (on simulated ranks the CPU
/// backend's device runs them; on NCCL ranks the GPUs), the latter also with every vertex of
/// 3 to 5 out-arcs wide (a wide team each) and of more a hub (expanded by the whole grid), so
/// that small graphs take all three tiers: (step, hub threshold, wide threshold).
const STEPS: [(StepOn, Option<u32>, Option<u32>); 3] =
    [(StepOn::Host, None, None), (StepOn::Device, None, None), (StepOn::Device, Some(6), Some(3))];

/// Every rank count from every source against Dijkstra, with the run's own accounting checked.
fn check(g: &Graph, sources: &[u32], opts: &DistOptions, what: &str) {
    for &src in sources {
        let want = sssp::reference::dijkstra(g, src).unwrap();
        let want = match opts.cutoff {
            Some(c) => want.into_iter().map(|d| if d != UNREACHED && d as u64 > c { UNREACHED } else { d }).collect(),
            None => want,
        };
        for (p, (step, hub_arcs, wide_arcs)) in RANKS.into_iter().flat_map(|p| STEPS.map(|s| (p, s))) {
            let opts = &DistOptions { step, hub_arcs, wide_arcs, ..*opts };
            let what = &format!("{what} ({step:?} step, hubs from {hub_arcs:?} arcs, wide from {wide_arcs:?})");
            let Some(run) = dist_solve(g, src, p, opts) else { continue };
            let run = run.unwrap_or_else(|e| panic!("{what}: {p} ranks from {src} failed: {e}"));
            if let Err(e) = sssp::verify::compare_in(g.metric(), &run.solution.dist, &want) {
                panic!("{what}: {p} ranks from {src}: {e}");
            }
            let s = &run.stats;
            assert_eq!(s.on_device, step.on_device(run_ranks(p)), "{what}");
            assert_eq!(s.per_rank.len(), p, "{what}");
            assert_eq!(s.per_rank.iter().map(|r| r.vertices).sum::<u64>(), g.num_vertices() as u64, "{what}");
            assert_eq!(s.per_rank.iter().map(|r| r.arcs).sum::<u64>(), g.num_arcs() as u64, "{what}");
            assert_eq!(s.items_sent(), s.per_rank.iter().map(|r| r.items_received).sum::<u64>(), "{what}: lost items");
            assert!(s.rounds >= s.buckets, "{what}");
            assert!(p > 1 || s.items_sent() == 0, "{what}: one rank sends nothing");
            let reached = want.iter().filter(|&&d| d != UNREACHED).count();
            assert!(run.solution.stats.arcs_relaxed > 0 || g.degree(src) == 0 || reached == 1, "{what}: no work");
        }
    }
}

/// Sources: two seeded picks, vertex 0, and a vertex without out-arcs when there is one (a
/// run that reaches only its source).
fn sources(g: &Graph, seed: u64) -> Vec<u32> {
    let mut s = sssp::reference::pick_sources(g, 2, seed);
    s.push(0);
    if let Some(sink) = (0..g.num_vertices() as u32).find(|&v| g.degree(v) == 0) {
        s.push(sink);
    }
    s
}

fn family(spec: &str, seed: u64) {
    let g = generate(&GenSpec::parse(spec).unwrap(), seed, WeightSpec::AsGiven).unwrap();
    check(&g, &sources(&g, seed), &DistOptions::default(), spec);
}

sssp_tests::family_tests!(family);

#[test]
fn unit_weights_and_small_and_large_deltas() {
    let g = generate(&GenSpec::parse("kron:9").unwrap(), 3, WeightSpec::Unit).unwrap();
    check(&g, &[0, 17], &DistOptions::default(), "kron unit");
    let g = generate(&GenSpec::parse("road:2000").unwrap(), 4, WeightSpec::AsGiven).unwrap();
    for delta in [1, 7, u32::MAX - 1] {
        check(
            &g,
            &[3],
            &DistOptions { delta: Some(delta.into()), ..DistOptions::default() },
            &format!("road delta {delta}"),
        );
    }
}

#[test]
fn isolated_source_reaches_only_itself() {
    // Vertex 3 has no arcs at all; vertex 4 only in-arcs.
    let g = Graph::from_arcs(6, &[(0, 1, 2), (1, 2, 2), (2, 0, 1), (0, 4, 9), (5, 4, 1)]).unwrap();
    for src in [3, 4] {
        for (p, (step, hub_arcs, wide_arcs)) in RANKS.into_iter().flat_map(|p| STEPS.map(|s| (p, s))) {
            let Some(run) =
                dist_solve(&g, src, p, &DistOptions { step, hub_arcs, wide_arcs, ..DistOptions::default() })
            else {
                continue;
            };
            let run = run.unwrap();
            let want: Vec<i64> = (0..6).map(|v| if v == src { 0 } else { UNREACHED }).collect();
            assert_eq!(run.solution.dist, want, "{p} ranks from {src}, {step:?} step");
        }
    }
    check(&g, &[0, 5], &DistOptions::default(), "small");
}

#[test]
fn real_weights() {
    for (spec, seed) in [("kron:9", 1), ("road:2000", 2), ("zero:800", 3)] {
        let w = WeightSpec::RandomReal { lo: 0.0, hi: 1.0, seed: 11 };
        let g = generate(&GenSpec::parse(spec).unwrap(), seed, w).unwrap();
        assert_eq!(g.metric(), Metric::Real);
        check(&g, &sources(&g, seed), &DistOptions::default(), spec);
    }
}

#[test]
fn cutoffs_prune_what_is_relaxed_and_reported() {
    let g = generate(&GenSpec::parse("grid2d:30x30").unwrap(), 2, WeightSpec::AsGiven).unwrap();
    let p = max_ranks().min(3);
    let full = dist_solve(&g, 0, p, &DistOptions::default()).unwrap().unwrap();
    for cutoff in [0, 1, 500, 5_000, 1 << 40] {
        let opts = DistOptions { cutoff: Some(cutoff), ..DistOptions::default() };
        check(&g, &[0, 450], &opts, &format!("grid cutoff {cutoff}"));
        let cut = dist_solve(&g, 0, p, &opts).unwrap().unwrap();
        let reached = |d: &[i64]| d.iter().filter(|&&d| d != UNREACHED).count();
        // A cutoff that leaves some vertex out saves the arcs out of it. On a GPU a round's
        // relaxations race (a vertex lowered twice in one round is expanded at whichever
        // distance its reader saw), so two runs relax a few dozen arcs more or less: there the
        // counts are compared only where the cutoff leaves out most of the reach, a saving far
        // past that noise. The CPU's rounds are deterministic and compared at every cutoff.
        let (reached_cut, reached_full) = (reached(&cut.solution.dist), reached(&full.solution.dist));
        let (cut, full) = (cut.solution.stats.arcs_relaxed, full.solution.stats.arcs_relaxed);
        if matches!(rank_mode(), RankMode::Simulated) || 2 * reached_cut < reached_full {
            let pruned = reached_cut < reached_full;
            assert!(if pruned { cut < full } else { cut <= full }, "cutoff {cutoff}: {cut} arcs, {full} without");
        }
    }
}

#[test]
fn overflowing_distances_are_a_typed_error_and_overflowing_candidates_are_not() {
    // Three arcs of weight 2^31 + 1: the third vertex's distance needs 33 bits.
    let heavy = (1i64 << 31) + 1;
    let g = Graph::from_arcs(4, &[(0, 1, heavy), (1, 2, heavy), (2, 3, heavy)]).unwrap();
    for (p, (step, hub_arcs, wide_arcs)) in RANKS.into_iter().flat_map(|p| STEPS.map(|s| (p, s))) {
        let Some(r) = dist_solve(&g, 0, p, &DistOptions { step, hub_arcs, wide_arcs, ..DistOptions::default() }) else {
            continue;
        };
        assert!(matches!(r, Err(Error::DistanceOverflow { vertex: 2, bits: 32 })), "{p} ranks, {step:?} step: {r:?}");
    }
    // 0 -> 1 heavy and 0 -> 2 -> 1 light: the candidate through the heavy arc overflows, 3's
    // true distance fits.
    let g = Graph::from_arcs(4, &[(0, 1, u32::MAX as i64 - 10), (1, 3, 100), (0, 2, 1), (2, 1, 1)]).unwrap();
    check(&g, &[0], &DistOptions::default(), "overflowing candidate");
}

#[test]
fn bad_arguments_are_typed_errors() {
    let g = generate(&GenSpec::parse("path:10").unwrap(), 1, WeightSpec::AsGiven).unwrap();
    let o = DistOptions::default();
    assert!(matches!(solve(&g, 10, Ranks::Simulated(2), &o), Err(Error::VertexOutOfRange { vertex: 10, .. })));
    assert!(matches!(solve(&g, 0, Ranks::Simulated(0), &o), Err(Error::InvalidArgument(_))));
    assert!(matches!(solve(&g, 0, Ranks::Simulated(100_000), &o), Err(Error::InvalidArgument(_))));
    let shifted = WeightSpec::parse("shifted:1-10:20").unwrap();
    let neg = generate(&GenSpec::parse("grid2d:5x5").unwrap(), 1, shifted).unwrap();
    assert!(matches!(solve(&neg, 0, Ranks::Simulated(2), &o), Err(Error::NegativeWeight { .. })));
}

/// Random multigraphs: zero weights, self loops, parallel arcs, isolated vertices.
fn arb_graph() -> impl Strategy<Value = Graph> {
    sssp_tests::multigraphs(1..48, 220, |n| n, || prop_oneof![3 => Just(0i64), 4 => 0i64..5, 4 => 0i64..1000])
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn random_graphs_match_dijkstra(
        g in arb_graph(),
        src_pick in any::<u32>(),
        p_pick in 1usize..10,
        on_device in any::<bool>(),
        hub_arcs in prop::option::of(1u32..6),
        wide_arcs in prop::option::of(1u32..4),
        delta in prop::option::of(1u32..40),
        cutoff in prop::option::of(0u64..3000),
    ) {
        let src = src_pick % g.num_vertices() as u32;
        let mut want = sssp::reference::dijkstra(&g, src).unwrap();
        if let Some(c) = cutoff {
            want.iter_mut().filter(|d| **d != UNREACHED && **d as u64 > c).for_each(|d| *d = UNREACHED);
        }
        let p = p_pick.min(max_ranks());
        let step = if on_device { StepOn::Device } else { StepOn::Host };
        let run = dist_solve(&g, src, p, &DistOptions { delta: delta.map(Into::into), cutoff, step, hub_arcs, wide_arcs, fault: None }).unwrap().unwrap();
        prop_assert_eq!(run.solution.dist, want, "{} ranks, delta {:?}, cutoff {:?}, {:?} step, hubs {:?}, wide {:?}", p, delta, cutoff, step, hub_arcs, wide_arcs);
    }
}

#[test]
fn a_group_keeps_a_graph_between_solves_and_makes_another_afresh() {
    let road = generate(&GenSpec::parse("road:3000").unwrap(), 1, WeightSpec::AsGiven).unwrap();
    let kron = generate(&GenSpec::parse("kron:10").unwrap(), 2, WeightSpec::AsGiven).unwrap();
    let clone = road.clone();
    for p in [1, 2, 3].into_iter().filter(|&p| p <= max_ranks()) {
        let mut group = Group::new(run_ranks(p)).unwrap();
        // (graph, source, whether the ranks hold its slices from the solve before).
        // A clone is the same arcs: the original's slices serve it. The last query is kron,
        // so the next step's first (road) finds another graph whatever the step.
        let queries = [
            (&road, 0, false),
            (&road, 17, true),
            (&clone, 5, true),
            (&kron, 3, false),
            (&road, 9, false),
            (&kron, 4, false),
        ];
        for (step, hub_arcs, wide_arcs) in STEPS {
            let opts = DistOptions { step, hub_arcs, wide_arcs, ..DistOptions::default() };
            for (i, &(g, src, kept)) in queries.iter().enumerate() {
                let run = group.solve(g, src, &opts).unwrap();
                let what = format!("{p} ranks, {step:?} step, query {i}");
                assert_eq!(run.solution.dist, sssp::reference::dijkstra(g, src).unwrap(), "{what}");
                assert_eq!(run.stats.load_time().is_zero(), kept, "{what}: {:?}", run.stats.load_time());
                assert!(!run.solution.stats.compute.is_zero(), "{what}");
            }
        }
    }
}

/// A rank that fails mid-solve (an injected fault: as its local step is made, after a round's
/// relaxation, at the finish) fails the solve with its own error on every kind of ranks, and
/// no rank is left waiting in a collective: NCCL ranks would wait for ever, so on them this
/// test ends only if the failure protocol works. A new group then solves exactly. On NCCL the
/// largest group only (each case sets up a group of its own: seconds).
#[test]
fn a_failing_rank_fails_the_solve_and_no_rank_waits() {
    use sssp::distributed::{Fault, FaultAt};
    let g = generate(&GenSpec::parse("kron:10").unwrap(), 5, WeightSpec::AsGiven).unwrap();
    let src = sources(&g, 5)[0];
    let want = sssp::reference::dijkstra(&g, src).unwrap();
    let counts: Vec<usize> = match rank_mode() {
        RankMode::Nccl(gpus) => vec![gpus],
        _ => vec![1, 2, 3],
    };
    for p in counts {
        for (step, hub_arcs, wide_arcs) in STEPS[..2].iter().copied() {
            for at in [FaultAt::SetUp, FaultAt::Round(2), FaultAt::Finish] {
                let fault = Fault { rank: p as u32 - 1, at };
                let opts = DistOptions { step, hub_arcs, wide_arcs, fault: Some(fault), ..DistOptions::default() };
                let what = format!("{p} ranks, {step:?} step, {fault:?}");
                match Group::new(run_ranks(p)).unwrap().solve(&g, src, &opts) {
                    Err(Error::OutOfDeviceMemory { device, .. }) => {
                        assert!(device.contains("injected"), "{what}: {device}")
                    }
                    other => panic!("{what}: {:?}", other.map(|r| r.stats.rounds)),
                }
                // (A group refuses to solve after a failed solve: its transport may be broken.)
                let mut group = Group::new(run_ranks(p)).unwrap();
                let run = group.solve(&g, src, &DistOptions { fault: None, ..opts }).unwrap();
                assert_eq!(run.solution.dist, want, "{what}: the solve after");
            }
        }
    }
}
