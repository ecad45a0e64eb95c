//! The DIMACS New York road network (USA-road-d.NY, 264,346 vertices, 733,846 arcs) end to end:
//! load it through `io`, run the reference Dijkstra from vertex 0 (DIMACS node 1), and check the
//! answer with the certificate checker, the predecessor tree and a few facts about the graph.
//! The file lives in the shared data folder next to the checkout; a missing file fails the test
//! (it is part of the project's data, not optional).
//!
//! `ny_road_dijkstra_timing` (ignored by default) reports the release-mode time of the reference
//! Dijkstra, the baseline for the parallel strategies:
//! `cargo test --release -p sssp-tests --test ny_road -- --ignored --nocapture`.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use sssp::graph::Graph;
use sssp::graph::NO_VERTEX;
use sssp::io::{read_graph, LoadOptions};
use sssp::{reference, tree, verify, UNREACHED};

const NY_VERTICES: usize = 264_346;
const NY_ARCS: usize = 733_846;

fn ny_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/road/USA-road-d.NY.gr.gz")
}

fn load_ny() -> Graph {
    let path = ny_path();
    assert!(
        path.exists(),
        "the NY road graph is missing: looked for {} (USA-road-d.NY.gr.gz from the 9th DIMACS challenge, \
         expected in shared/data/road/ beside the checkout)",
        path.display()
    );
    read_graph(&path, &LoadOptions::default()).unwrap_or_else(|e| panic!("loading {}: {e}", path.display()))
}

#[test]
fn ny_road_dijkstra_verifies() {
    let g = load_ny();
    assert_eq!(g.num_vertices(), NY_VERTICES, "vertices (the header's count)");
    assert_eq!(g.num_arcs(), NY_ARCS, "arcs (the header's count)");
    let (lo, hi) = g.weight_range().unwrap();
    assert!(lo >= 0 && hi > lo, "DIMACS distance graphs have non-negative lengths, got {lo}..{hi}");

    let (dist, stats) = reference::dijkstra_with_stats(&g, 0).unwrap();
    verify::check(&g, 0, &dist).unwrap();

    // The network is strongly connected: everything is reached, and Dijkstra touched every arc.
    assert!(dist.iter().all(|&d| d != UNREACHED), "some vertex is unreached");
    assert_eq!(stats.settled, NY_VERTICES as u64);
    assert_eq!(stats.arcs_relaxed, NY_ARCS as u64);
    assert_eq!(dist[0], 0);
    // Each neighbour of the source is no farther than the arc to it.
    for (v, w) in g.neighbors(0) {
        assert!(dist[v as usize] <= w);
    }
    // A path to the farthest vertex adds up to its distance.
    let far = (0..NY_VERTICES).max_by_key(|&v| dist[v]).unwrap() as u32;
    assert!(dist[far as usize] > 0);
    let parents = tree::predecessors(&g, 0, &dist).unwrap();
    assert_eq!(parents.iter().filter(|&&p| p == NO_VERTEX).count(), 1, "only the source lacks a parent");
    let path = tree::path(&g, 0, &dist, far).unwrap().expect("reachable");
    let length: i64 = path
        .windows(2)
        .map(|hop| g.neighbors(hop[0]).filter(|&(t, _)| t == hop[1]).map(|(_, w)| w).min().unwrap())
        .sum();
    assert_eq!(length, dist[far as usize]);
    // Hundreds of hops at least: a road network is long and thin.
    assert!(path.len() > 100, "path to the farthest vertex has only {} vertices", path.len());
}

/// Release-mode time of `reference::dijkstra` from vertex 0: best and median of 7 runs.
#[test]
#[ignore = "timing; run with --release -- --ignored --nocapture"]
fn ny_road_dijkstra_timing() {
    let t = Instant::now();
    let g = load_ny();
    let load = t.elapsed();
    let mut times: Vec<Duration> = (0..7)
        .map(|_| {
            let t = Instant::now();
            let d = reference::dijkstra(&g, 0).unwrap();
            let e = t.elapsed();
            assert_eq!(d[0], 0);
            e
        })
        .collect();
    times.sort();
    let t = Instant::now();
    verify::check(&g, 0, &reference::dijkstra(&g, 0).unwrap()).unwrap();
    let dijkstra_and_check = t.elapsed();
    println!(
        "NY road ({} vertices, {} arcs): load {load:.2?}; reference::dijkstra from 0: best {:.2?}, median {:.2?} \
         (7 runs); dijkstra + verify::check {dijkstra_and_check:.2?}",
        g.num_vertices(),
        g.num_arcs(),
        times[0],
        times[3]
    );
}
