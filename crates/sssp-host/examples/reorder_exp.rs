//! An experiment, not a feature (issue #27 item 3, issue #30's bytes model): does a vertex
//! order change the solvers' speed? The graph relabelled by descending degree (hubs first, so
//! their distance words share cache lines) and in BFS order, against the graph's own ids, same
//! sources (mapped); median of 5 seeded sources.
//!
//! ```text
//! cargo run --release -p sssp --example reorder_exp -- kron:20 2            # CPU delta-stepping
//! cargo run --release -p sssp --example reorder_exp -- NY.gr.gz 3726
//! cargo run --release -p sssp --example reorder_exp -- kron:24 0 --write DIR  # files for a GPU
//! ```
//!
//! With `--write DIR` it times nothing: it writes `DIR/ORDER.bin` (the relabelled graph) and
//! `DIR/ORDER.src` (the five sources, mapped, one per line: `sssp bench F --sources-file S`)
//! for each order, so that the GPU machine (which has no Rust) can run `sssp bench` on them.
//!
//! Results: docs/benchmarks.md, "CPU: delta-stepping on the host's threads" (CPU) and
//! "GPU: a vertex order" (GPU).

use rayon::prelude::*;
use sssp::generate::{generate, GenSpec};
use sssp::graph::{Graph, Weights};
use std::time::Instant;

/// `g` with vertex `order[i]` renamed `i`, and the new id of every old one: each new vertex's
/// arcs are its old vertex's, their heads renamed (in parallel over the new vertices).
fn relabel(g: &Graph, order: &[u32]) -> (Graph, Vec<u32>) {
    let n = g.num_vertices();
    let mut newid = vec![0u32; n];
    for (i, &v) in order.iter().enumerate() {
        newid[v as usize] = i as u32;
    }
    let mut offsets = Vec::with_capacity(n + 1);
    offsets.push(0u64);
    for &v in order {
        offsets.push(offsets.last().unwrap() + g.degree(v) as u64);
    }
    let w = g.unsigned_weights("reorder_exp").expect("integer weights >= 0");
    let (mut heads, mut weights) = (vec![0u32; g.num_arcs()], vec![0u32; g.num_arcs()]);
    let mut hs: Vec<&mut [u32]> = Vec::with_capacity(n);
    let mut ws: Vec<&mut [u32]> = Vec::with_capacity(n);
    let (mut h_rest, mut w_rest) = (&mut heads[..], &mut weights[..]);
    for &v in order {
        let d = g.degree(v);
        let (h, hr) = std::mem::take(&mut h_rest).split_at_mut(d);
        let (x, wr) = std::mem::take(&mut w_rest).split_at_mut(d);
        (h_rest, w_rest) = (hr, wr);
        hs.push(h);
        ws.push(x);
    }
    hs.into_par_iter().zip(ws).zip(order.par_iter()).for_each(|((h, x), &v)| {
        let r = g.arc_range(v);
        for (k, e) in r.enumerate() {
            h[k] = newid[g.targets()[e] as usize];
            x[k] = w[e];
        }
    });
    let gr = Graph::from_csr(offsets.into(), heads.into(), Weights::Unsigned(weights.into())).unwrap();
    (gr, newid)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let spec = args.get(1).cloned().unwrap_or("kron:20".into());
    let d: u32 = args.get(2).map_or(2, |s| s.parse().unwrap());
    let write = args.iter().position(|a| a == "--write").map(|i| std::path::PathBuf::from(&args[i + 1]));
    let t = Instant::now();
    let g = if spec.contains('/') {
        sssp::io::read_graph(std::path::Path::new(&spec), &Default::default()).unwrap()
    } else {
        generate(&GenSpec::parse(&spec).unwrap(), 1, sssp::WeightSpec::AsGiven).unwrap()
    };
    eprintln!(
        "{spec}: {} vertices, {} arcs, loaded in {:.1} s",
        g.num_vertices(),
        g.num_arcs(),
        t.elapsed().as_secs_f64()
    );
    let n = g.num_vertices();
    let mut deg: Vec<u32> = (0..n as u32).collect();
    deg.par_sort_by_key(|&v| std::cmp::Reverse(g.degree(v)));
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
        let t = Instant::now();
        let (gr, newid) = relabel(&g, order);
        let mapped: Vec<String> = srcs.iter().map(|&s| newid[s as usize].to_string()).collect();
        if let Some(dir) = &write {
            std::fs::create_dir_all(dir).unwrap();
            sssp::io::binary::write(&gr, &dir.join(format!("{name}.bin"))).unwrap();
            std::fs::write(dir.join(format!("{name}.src")), mapped.join("\n") + "\n").unwrap();
            eprintln!("{name}: relabelled and written in {:.1} s", t.elapsed().as_secs_f64());
            continue;
        }
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
