//! Routing on the contraction hierarchy (`sssp::route`, `Solver::route`, `Solver::table`):
//! random multigraphs (zero weights, parallel arcs, self loops, unreachable parts) against
//! Dijkstra by proptest, with and without a core; the table by the buckets and by RPHAST on the
//! engine's device (`SSSP_TEST_DEVICE`: the CPU backend's kernel bodies in CI, the GPU's
//! kernels under `scripts/gpu-suite.sh`).

use std::sync::Arc;

use proptest::prelude::*;
use sssp::engine;
use sssp::graph::Graph;
use sssp::hierarchy::{Hierarchy, HierarchyParams};
use sssp::route::{rphast, Router};
use sssp::{Device, Error, Solver, UNREACHED};

use sssp_tests::device;

/// A random multigraph of `n` vertices: arcs with weights 0..=`w` (zeros, repeats and loops
/// included).
fn multigraph() -> impl Strategy<Value = (usize, Vec<(u32, u32, u32)>)> {
    (2usize..40).prop_flat_map(|n| {
        let arc = (0..n as u32, 0..n as u32, 0u32..12);
        (Just(n), prop::collection::vec(arc, 0..4 * n))
    })
}

fn graph(n: usize, arcs: &[(u32, u32, u32)]) -> Graph {
    let arcs: Vec<(u32, u32, i64)> = arcs.iter().map(|&(u, v, w)| (u, v, w as i64)).collect();
    Graph::from_arcs(n as u32, &arcs).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Every pair's distance and path, and the whole table by both algorithms, equal
    /// Dijkstra's, with a complete hierarchy and with a core (table or none).
    #[test]
    fn routes_and_tables_equal_dijkstra((n, arcs) in multigraph(), core in 0u32..3) {
        let g = graph(n, &arcs);
        let params = match core {
            0 => HierarchyParams::default(),
            1 => HierarchyParams { core_degree: 1, ..HierarchyParams::default() },
            _ => HierarchyParams { core_degree: 1, core_table: 0 },
        };
        let r = Router::new(Arc::new(Hierarchy::build_with(&g, params).unwrap())).unwrap();
        let all: Vec<u32> = (0..n as u32).collect();
        let table = r.table(&all, &all).unwrap();
        let eng = engine::open(&g, device()).unwrap();
        let swept = rphast::table(eng.device(), &r, &all, &all, 4).unwrap();
        for s in 0..n as u32 {
            let want = sssp::reference::dijkstra(&g, s).unwrap();
            for t in 0..n as u32 {
                let w = want[t as usize];
                prop_assert_eq!(table.get(s as usize, t as usize), w, "buckets {} -> {}", s, t);
                prop_assert_eq!(swept.get(s as usize, t as usize), w, "rphast {} -> {}", s, t);
                match r.route(&g, s, t).unwrap() {
                    None => prop_assert_eq!(w, UNREACHED),
                    Some((d, p)) => {
                        prop_assert_eq!(d as i64, w);
                        prop_assert_eq!((p[0], *p.last().unwrap()), (s, t));
                        let mut len = 0;
                        for a in p.windows(2) {
                            let arc = g.neighbors(a[0]).filter(|&(x, _)| x == a[1]).map(|(_, w)| w).min();
                            prop_assert!(arc.is_some(), "{} -> {} is no arc", a[0], a[1]);
                            len += arc.unwrap();
                        }
                        prop_assert_eq!(len, w);
                    }
                }
            }
        }
    }
}

/// The typed API: `Solver::route` builds the hierarchy on first use; `Solver::table` keeps
/// repeats, runs with and without a hierarchy, and refuses bad ids and real weights' hierarchy.
#[test]
fn solver_route_and_table() {
    let g = sssp::Graph::from_undirected_edges(6, [(0, 1, 3u32), (1, 2, 0), (2, 3, 4), (0, 3, 9), (4, 5, 1)]).unwrap();
    let mut solver = Solver::new(&g, Device::Cpu).unwrap();
    let plain = solver.table(&[0, 3, 0], &[3, 5, 0]).unwrap();
    assert_eq!(plain.row(0), vec![Some(7), None, Some(0)]);
    assert_eq!(plain.row(2), plain.row(0));
    assert_eq!(solver.route(0, 3).unwrap(), Some((7, vec![0, 1, 2, 3])));
    assert_eq!(solver.route(0, 4).unwrap(), None);
    let on_hierarchy = solver.table(&[0, 3, 0], &[3, 5, 0]).unwrap();
    assert_eq!(on_hierarchy, plain);
    assert!(matches!(solver.route(0, 6), Err(Error::VertexOutOfRange { vertex: 6, .. })));
    assert!(matches!(solver.table(&[7], &[0]), Err(Error::VertexOutOfRange { vertex: 7, .. })));
    let real = sssp::Graph::from_edges(2, [(0, 1, 0.5f32)]).unwrap();
    assert!(matches!(Solver::new(&real, Device::Cpu).unwrap().route(0, 1), Err(Error::InvalidArgument(_))));
    let other = Arc::new(Hierarchy::build(sssp::Graph::from_edges(3, [(0, 1, 1u32)]).unwrap().raw()).unwrap());
    assert!(matches!(solver.set_hierarchy(other), Err(Error::InvalidArgument(_))));
}
