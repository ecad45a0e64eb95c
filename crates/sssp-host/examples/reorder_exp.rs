//! An experiment, not a feature (issue #27 item 3, issue #30's bytes model): does a vertex
//! order change the CPU backend's delta-stepping? The graph relabelled by descending degree
//! (hubs first, so their distance words share cache lines) and in BFS order, against the
//! graph's own ids, same sources (mapped), same delta; median of 5 seeded sources.
//!
//! ```text
//! cargo run --release -p sssp --example reorder_exp -- kron:20 2
//! cargo run --release -p sssp --example reorder_exp -- ../shared/data/road/USA-road-d.NY.gr.gz 3726
//! ```
//!
//! Results: docs/benchmarks.md, "CPU: delta-stepping on the host's threads".

use sssp::generate::{generate, GenSpec};
use sssp::graph::Graph;
use std::time::Instant;
/// `g` with vertex `order[i]` renamed `i`, and the new id of every old one.
fn relabel(g: &Graph, order: &[u32]) -> (Graph, Vec<u32>) {
    let n = g.num_vertices();
    let mut newid = vec![0u32; n];
    for (i, &v) in order.iter().enumerate() {
        newid[v as usize] = i as u32;
    }
    let mut arcs = Vec::with_capacity(g.num_arcs());
    for u in 0..n as u32 {
        for (h, w) in g.neighbors(u) {
            arcs.push((newid[u as usize], newid[h as usize], w));
        }
    }
    (Graph::from_arcs(n as u32, &arcs).unwrap(), newid)
}
fn main() {
    let spec = std::env::args().nth(1).unwrap_or("kron:20".into());
    let d: u32 = std::env::args().nth(2).map_or(2, |s| s.parse().unwrap());
    let g = if spec.contains('/') {
        sssp::io::read_graph(std::path::Path::new(&spec), &Default::default()).unwrap()
    } else {
        generate(&GenSpec::parse(&spec).unwrap(), 1, sssp::WeightSpec::AsGiven).unwrap()
    };
    let n = g.num_vertices();
    let mut deg: Vec<u32> = (0..n as u32).collect();
    deg.sort_by_key(|&v| std::cmp::Reverse(g.degree(v)));
    // BFS order from vertex 0 (then the rest).
    let mut seen = vec![false; n];
    let mut bfs = Vec::with_capacity(n);
    for r in 0..n as u32 {
        if seen[r as usize] {
            continue;
        }
        seen[r as usize] = true;
        let mut q = std::collections::VecDeque::from([r]);
        while let Some(u) = q.pop_front() {
            bfs.push(u);
            for (h, _) in g.neighbors(u) {
                if !seen[h as usize] {
                    seen[h as usize] = true;
                    q.push_back(h);
                }
            }
        }
    }
    let srcs = sssp::reference::pick_sources(&g, 5, 7);
    let opts = sssp::strategy::Options { delta: Some(d), ..Default::default() };
    let ident: Vec<u32> = (0..n as u32).collect();
    for (name, order) in [("orig", &ident), ("degree", &deg), ("bfs", &bfs)] {
        let (gr, newid) = relabel(&g, order);
        let mut ts = vec![];
        for &s in &srcs {
            let t = Instant::now();
            let sol = sssp::strategy::delta_stepping::delta_stepping(&gr, newid[s as usize], &opts).unwrap();
            ts.push(t.elapsed().as_secs_f64() * 1e3);
            std::hint::black_box(sol);
        }
        ts.sort_by(|a, b| a.partial_cmp(b).unwrap());
        println!("{spec} delta {d} {name}: median {:.1} ms", ts[2]);
    }
}
