//! The block loop (`Options::block_loop`, `sssp_kernels::block_loop`): one block runs the
//! frontier loop with its near queues in shared memory, the first `BLOCK_QUEUE_CAP` slots of a
//! queue there and the rest in device memory. These tests aim at what only it does: frontiers
//! past the shared capacity, resuming from a state and queues another launch left (one
//! iteration per launch), the block-wide far split, queries, and the typed refusals. The
//! strategy matrix over every family is in `sssp_tests::configs`. On the CPU (CI) the engine
//! runs its one loop after the same checks; `scripts/gpu-suite.sh` runs this on the GPU.

use sssp::engine::{self, Dedupe};
use sssp::generate::{generate, GenSpec};
use sssp::graph::Graph;
use sssp::strategy::{solve, Algo, Options};
use sssp::{Error, WeightSpec, BLOCK_QUEUE_CAP};

use sssp_tests::device;

fn block() -> Options {
    Options { block_loop: true, ..Options::default() }
}

/// Every frontier strategy, on the device loop and one launch per iteration, at the heuristic
/// delta and at `deltas`, against Dijkstra from `sources`.
fn check(g: &Graph, sources: &[u32], deltas: &[u32], what: &str) {
    let mut eng = engine::open(g, device()).unwrap();
    for &src in sources {
        let want = sssp::reference::dijkstra(g, src).unwrap();
        let mut runs = vec![(Algo::Workfront, block())];
        for delta in std::iter::once(None).chain(deltas.iter().map(|&d| Some(d))) {
            for device_loop in [true, false] {
                let o = Options { delta: delta.map(Into::into), device_loop, ..block() };
                runs.push((Algo::NearFar, o));
                runs.push((Algo::Bucketing, o));
                runs.push((Algo::Bucketing, Options { buckets: 2, ..o }));
            }
        }
        for (algo, o) in runs {
            let sol = solve(g, algo, Some(eng.as_mut()), src, &o)
                .unwrap_or_else(|e| panic!("{what}: {} {o:?} from {src}: {e}", algo.name()));
            sssp::verify::compare(&sol.dist, &want)
                .unwrap_or_else(|e| panic!("{what}: {} {o:?} from {src}: {e}", algo.name()));
        }
    }
}

#[test]
fn frontiers_past_the_shared_capacity() {
    // A star whose centre pushes 3x the shared capacity at once, with a second ring behind it.
    let leaves = 3 * BLOCK_QUEUE_CAP;
    let mut arcs = vec![];
    for i in 1..=leaves {
        arcs.push((0, i, (i % 97 + 1) as i64));
        arcs.push((i, leaves + 1 + i % 500, (i % 13) as i64));
        arcs.push((i, 0, 1));
    }
    let g = Graph::from_arcs(leaves + 501, &arcs).unwrap();
    check(&g, &[0, 5], &[1, 40, u32::MAX - 1], "star");
    // Kronecker: frontiers of thousands at every width.
    let g = generate(&GenSpec::parse("kron:13").unwrap(), 2, WeightSpec::AsGiven).unwrap();
    check(&g, &[0, 77], &[1, 64, 100_000], "kron:13");
}

#[test]
fn long_chains_and_many_buckets() {
    // Thousands of iterations and of bucket moves and far splits: a grid, a path, a road.
    for (spec, deltas) in
        [("grid2d:60x40", &[1u32, 300][..]), ("path:3000", &[1, 50_000][..]), ("road:3000", &[7, 1000][..])]
    {
        let g = generate(&GenSpec::parse(spec).unwrap(), 4, WeightSpec::AsGiven).unwrap();
        check(&g, &[0, g.num_vertices() as u32 / 2], deltas, spec);
    }
}

#[test]
fn one_iteration_per_launch_resumes_across_the_shared_capacity() {
    // A trace runs one iteration per launch: every launch leaves the queues in device memory
    // and the next one picks them up, at every frontier size.
    let g = generate(&GenSpec::parse("kron:14").unwrap(), 5, WeightSpec::AsGiven).unwrap();
    let mut eng = engine::open(&g, device()).unwrap();
    let want = sssp::reference::dijkstra(&g, 3).unwrap();
    for algo in [Algo::Workfront, Algo::NearFar, Algo::Bucketing] {
        let o = Options { trace: true, delta: Some(1000u32.into()), buckets: 2, ..block() };
        let sol = solve(&g, algo, Some(eng.as_mut()), 3, &o).unwrap();
        sssp::verify::compare(&sol.dist, &want).unwrap();
        assert_eq!(sol.stats.trace.len() as u32, sol.stats.iterations, "{}: a trace row per iteration", algo.name());
        assert!(
            sol.stats.trace.iter().any(|r| r.frontier > BLOCK_QUEUE_CAP as u64),
            "{}: a frontier past the cap",
            algo.name()
        );
    }
}

#[test]
fn queries_stop_where_the_grid_loop_stops() {
    let g = generate(&GenSpec::parse("road:5000").unwrap(), 6, WeightSpec::AsGiven).unwrap();
    let mut eng = engine::open(&g, device()).unwrap();
    let all = sssp::reference::dijkstra(&g, 0).unwrap();
    let n = g.num_vertices() as u32;
    let far = (0..n).filter(|&v| all[v as usize] != sssp::UNREACHED).max_by_key(|&v| all[v as usize]).unwrap();
    let target =
        (0..n).find(|&v| all[v as usize] != sssp::UNREACHED && all[v as usize] >= all[far as usize] / 2).unwrap();
    for algo in [Algo::NearFar, Algo::Bucketing] {
        for block_loop in [false, true] {
            let o = Options { block_loop, ..Options::default() };
            let t = solve(&g, algo, Some(eng.as_mut()), 0, &o.with_target(target)).unwrap();
            assert_eq!(t.dist[target as usize], all[target as usize], "{} block {block_loop}", algo.name());
            assert_eq!(t.distance(target), Some(sssp::Distance::Integer(all[target as usize])), "{}", algo.name());
            let cut = all[target as usize] as u64;
            let c = solve(&g, algo, Some(eng.as_mut()), 0, &o.with_cutoff(cut)).unwrap();
            for (v, (&got, &d)) in c.dist.iter().zip(&all).enumerate() {
                let want = if d as u64 <= cut { d } else { sssp::UNREACHED };
                assert_eq!(got, want, "{} block {block_loop}: cutoff at vertex {v}", algo.name());
            }
        }
    }
}

#[test]
fn what_the_block_loop_does_not_do_is_a_typed_error() {
    let g = generate(&GenSpec::parse("grid2d:8x8").unwrap(), 1, WeightSpec::AsGiven).unwrap();
    let mut eng = engine::open(&g, device()).unwrap();
    for (o, what) in [
        (Options { dedupe: Dedupe::Lookup, ..block() }, "lookup dedupe"),
        (Options { wide_at: 4, ..block() }, "--wide-at"),
    ] {
        match solve(&g, Algo::NearFar, Some(eng.as_mut()), 0, &o) {
            Err(Error::InvalidArgument(m)) => assert!(m.contains("block loop"), "{what}: {m}"),
            other => panic!("{what}: expected a typed refusal, got {:?}", other.map(|s| s.stats.iterations)),
        }
    }
}
