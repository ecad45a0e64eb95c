//! Solving on a relabelled graph (`sssp::graph::order`) answers the input graph's query: on
//! every generator family and on random multigraphs, distances solved on the graph relabelled
//! by degree and by BFS order, from the user's sources mapped in, come back under the user's
//! ids equal to serial Dijkstra on the input graph, and the parents come back as a shortest-path
//! tree of the input graph.
//!
//! The device comes from `SSSP_TEST_DEVICE` (`cpu` by default, as in CI), as in the strategy
//! suite.

use proptest::prelude::*;
use sssp::engine;
use sssp::generate::{generate, GenSpec};
use sssp::graph::order::{Order, Relabelled};
use sssp::graph::Graph;
use sssp::strategy::{solve, Algo, Options};
use sssp::WeightSpec;

use sssp_tests::device;

/// The orders that rename vertices.
const ORDERS: [Order; 2] = [Order::Degree, Order::Bfs];

/// For each of `sources` (the user's ids): solve on `g` relabelled by `order` with `auto` (the
/// default solver) and with two engine strategies, and compare the distances, mapped back, with
/// Dijkstra on `g`; the parents, mapped back, must be a shortest-path tree of `g`.
fn check(g: &Graph, order: Order, sources: &[u32], what: &str) -> Result<(), TestCaseError> {
    let r = Relabelled::new(g.clone(), order).unwrap();
    prop_assert_eq!(r.graph().num_arcs(), g.num_arcs());
    let mut eng = engine::open(r.graph(), device()).unwrap();
    for &src in sources {
        let want = sssp::reference::dijkstra(g, src).unwrap();
        let inner = r.to_internal(src).unwrap();
        for algo in [Algo::Auto, Algo::Workfront, Algo::NearFar] {
            let opts = Options { tree: true, ..Options::default() };
            let sol = solve(r.graph(), algo, Some(eng.as_mut()), inner, &opts)
                .unwrap_or_else(|e| panic!("{what} {order} {} from {src}: {e}", algo.name()));
            let got = r.distances_to_user(&sol.dist).unwrap();
            if let Err(e) = sssp::verify::compare(&got, &want) {
                return Err(TestCaseError::fail(format!("{what} {order} {} from {src}: {e}", algo.name())));
            }
            let parents = match &sol.parents {
                Some(p) => p.clone(),
                None => sssp::tree::predecessors(r.graph(), inner, &sol.dist).unwrap(),
            };
            let parents = r.parents_to_user(&parents).unwrap();
            if let Err(e) = sssp::verify::check_tree(g, src, &want, &parents) {
                return Err(TestCaseError::fail(format!("{what} {order} {} from {src}: tree: {e}", algo.name())));
            }
        }
    }
    Ok(())
}

fn family(spec: &str, seed: u64) {
    let g = generate(&GenSpec::parse(spec).unwrap(), seed, WeightSpec::AsGiven).unwrap();
    let mut sources = sssp::reference::pick_sources(&g, 2, seed);
    sources.push(0);
    sources.push(g.num_vertices() as u32 - 1);
    for order in ORDERS {
        check(&g, order, &sources, spec).unwrap();
    }
}

sssp_tests::family_tests!(family);

/// Random multigraphs with zero weights, self loops and parallel arcs (the strategy suite's,
/// without its overflowing weights: overflow is not what this checks).
fn arb_graph() -> impl Strategy<Value = Graph> {
    sssp_tests::multigraphs(1..40, 200, |n| n, || prop_oneof![4 => Just(0i64), 4 => 0i64..5, 4 => 0i64..1000])
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_multigraphs_answer_as_the_input(g in arb_graph(), picks in prop::collection::vec(any::<u32>(), 1..4)) {
        let sources: Vec<u32> = picks.iter().map(|p| p % g.num_vertices() as u32).collect();
        for order in ORDERS {
            check(&g, order, &sources, "random")?;
        }
    }
}
