//! The router and both table algorithms against Dijkstra on several graph families, with
//! and without a core (and its table).

use std::sync::Arc;

use super::table::DistTable;
use super::*;
use crate::engine::{self, DeviceKind};
use crate::generate::{generate, GenSpec};
use crate::hierarchy::HierarchyParams;
use crate::reference::dijkstra;
use crate::{Dist, WeightSpec, UNREACHED};

fn gen(spec: &str, seed: u64, w: WeightSpec) -> Graph {
    generate(&GenSpec::parse(spec).unwrap(), seed, w).unwrap()
}

/// The graph families: road, grid with zero weights, a scale-free one (a core), parallel arcs
/// and unreachable parts.
fn graphs() -> Vec<(String, Graph)> {
    let mut out = vec![
        ("road:1500".to_string(), gen("road:1500", 3, WeightSpec::AsGiven)),
        ("grid2d:20x15 0-3".into(), gen("grid2d:20x15", 5, WeightSpec::parse("random:0-3:7").unwrap())),
        ("kron:9".into(), gen("kron:9", 2, WeightSpec::parse("random:1-20:3").unwrap())),
    ];
    // Parallel arcs (the lighter one counts), zero weights, a self loop, two components, a sink.
    let arcs =
        [(0, 1, 5), (0, 1, 2), (1, 2, 0), (2, 0, 1), (2, 3, 4), (3, 3, 1), (1, 3, 9), (4, 5, 1), (5, 4, 0), (3, 6, 2)];
    out.push(("small".into(), Graph::from_arcs(7, &arcs).unwrap()));
    out
}

/// Hierarchies of `g`: complete, and with a core kept by a low density limit, with and without
/// its table.
fn hierarchies(g: &Graph) -> Vec<(&'static str, Arc<Hierarchy>)> {
    let core = HierarchyParams { core_degree: 2, ..HierarchyParams::default() };
    let bare = HierarchyParams { core_degree: 2, core_table: 0 };
    let kept = Hierarchy::build_with(g, core).unwrap();
    // The searches through the core are what these cover: every family but the tiny one keeps one.
    assert!(kept.stats.core > 0 || g.num_vertices() < 10, "no core kept");
    vec![
        ("full", Arc::new(Hierarchy::build(g).unwrap())),
        ("core+table", Arc::new(Hierarchy::build_with(g, core).unwrap())),
        ("core", Arc::new(Hierarchy::build_with(g, bare).unwrap())),
    ]
}

/// `path` is a path of `g` from `s` to `t` of length `d`, without a repeated vertex.
fn check_path(g: &Graph, s: u32, t: u32, d: u64, path: &[u32]) {
    assert_eq!((path[0], *path.last().unwrap()), (s, t));
    let mut len = 0u64;
    for w in path.windows(2) {
        let arc = g.neighbors(w[0]).filter(|&(x, _)| x == w[1]).map(|(_, w)| w as u64).min();
        len += arc.unwrap_or_else(|| panic!("{} -> {} is not an arc", w[0], w[1]));
    }
    assert_eq!(len, d, "{s} -> {t}: the path's length");
    let mut seen = path.to_vec();
    seen.sort_unstable();
    seen.dedup();
    assert_eq!(seen.len(), path.len(), "a vertex repeats in {path:?}");
}

fn want(g: &Graph, s: u32) -> Vec<Dist> {
    dijkstra(g, s).unwrap()
}

#[test]
fn point_to_point_equals_dijkstra() {
    for (name, g) in graphs() {
        let n = g.num_vertices() as u32;
        for (kind, h) in hierarchies(&g) {
            let r = Router::new(h).unwrap();
            let sources: Vec<u32> = (0..n).step_by((n as usize / 9).max(1)).collect();
            for &s in &sources {
                let d = want(&g, s);
                for t in (0..n).step_by((n as usize / 23).max(1)).chain([s]) {
                    let got = r.route(&g, s, t).unwrap();
                    match (d[t as usize], got) {
                        (UNREACHED, None) => {}
                        (w, Some((x, p))) if w == x as Dist => check_path(&g, s, t, x, &p),
                        (w, other) => panic!("{name} {kind}: {s} -> {t}: want {w}, got {other:?}"),
                    }
                    assert_eq!(r.distance(s, t).unwrap().map(|x| x as Dist).unwrap_or(UNREACHED), d[t as usize]);
                }
            }
        }
    }
}

/// Every cell of a table equals Dijkstra's, repeated ids included, by both algorithms.
fn check_table(name: &str, g: &Graph, t: &DistTable, sources: &[u32], targets: &[u32]) {
    assert_eq!((t.rows(), t.cols()), (sources.len(), targets.len()));
    for (i, &s) in sources.iter().enumerate() {
        let d = want(g, s);
        for (j, &x) in targets.iter().enumerate() {
            assert_eq!(t.get(i, j), d[x as usize], "{name}: {s} -> {x}");
        }
    }
}

#[test]
fn tables_equal_dijkstra_by_buckets_and_rphast() {
    for (name, g) in graphs() {
        let n = g.num_vertices() as u32;
        let mut sources: Vec<u32> = (0..n).step_by((n as usize / 7).max(1)).collect();
        sources.push(sources[0]);
        let mut targets: Vec<u32> = (1..n).step_by((n as usize / 11).max(1)).collect();
        targets.push(sources[1.min(sources.len() - 1)]);
        targets.push(targets[0]);
        for (kind, h) in hierarchies(&g) {
            let r = Router::new(h).unwrap();
            check_table(
                &format!("{name} {kind} buckets"),
                &g,
                &r.table(&sources, &targets).unwrap(),
                &sources,
                &targets,
            );
            let eng = engine::open(&g, DeviceKind::Cpu).unwrap();
            for lanes in [1, 4, 64] {
                let t = rphast::table(eng.device(), &r, &sources, &targets, lanes).unwrap();
                check_table(&format!("{name} {kind} rphast x{lanes}"), &g, &t, &sources, &targets);
            }
        }
    }
}

#[test]
fn bad_input_is_a_typed_error() {
    let g = gen("road:300", 1, WeightSpec::AsGiven);
    let r = Router::new(Arc::new(Hierarchy::build(&g).unwrap())).unwrap();
    assert!(matches!(r.route(&g, 0, 300), Err(Error::VertexOutOfRange { vertex: 300, .. })));
    assert!(matches!(r.distance(301, 0), Err(Error::VertexOutOfRange { vertex: 301, .. })));
    assert!(matches!(r.table(&[0], &[7, 900]), Err(Error::VertexOutOfRange { vertex: 900, .. })));
    // 2^22 x 2^22 cells of 8 bytes: 128 TiB, refused before anything is searched.
    match r.table(&vec![0; 1 << 22], &vec![1; 1 << 22]) {
        Err(Error::OutOfHostMemory { needed }) => assert_eq!(needed, 1u64 << 47),
        other => panic!("{:?}", other.map(|t| t.rows())),
    }
    let t = r.table(&[], &[3]).unwrap();
    assert_eq!((t.rows(), t.cols()), (0, 1));
    // Another graph's hierarchy: its arcs do not unpack in this one.
    let other = gen("road:300", 2, WeightSpec::AsGiven);
    let mut failed = false;
    for t in 1..300 {
        match r.route(&other, 0, t) {
            Err(Error::InvalidArgument(m)) => {
                assert!(m.contains("not built from this graph"), "{m}");
                failed = true;
                break;
            }
            Ok(Some((_, p))) if p.windows(2).any(|w| !other.neighbors(w[0]).any(|(x, _)| x == w[1])) => {
                panic!("a path of arcs that are not the graph's: {p:?}")
            }
            _ => {}
        }
    }
    assert!(failed, "some path of the other graph must fail to unpack");
}

/// A path whose length does not fit below `INF`: an error, never a wrong number; a shorter
/// one beside it is exact.
#[test]
fn overflow_is_reported() {
    let big = u32::MAX - 1;
    let g = Graph::from_arcs(4, &[(0, 1, big as i64), (1, 2, big as i64), (0, 3, 5)]).unwrap();
    let r = Router::new(Arc::new(Hierarchy::build(&g).unwrap())).unwrap();
    assert_eq!(r.distance(0, 3).unwrap(), Some(5));
    match r.distance(0, 2) {
        Err(Error::DistanceOverflow { vertex: 2, .. }) | Ok(Some(8589934588)) => {}
        other => panic!("{other:?}"),
    }
}
