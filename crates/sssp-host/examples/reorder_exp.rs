//! An experiment, not a feature: does a vertex
//! order change the solvers' speed? The graph relabelled by descending degree (hubs first, so
//! their distance words share cache lines) and in BFS order, against the graph's own ids, same
//! sources (mapped); median of 5 seeded sources. The relabelling is the library's
//! (`sssp::graph::order`, what `sssp run --order` and `sssp bench --order` use).
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
//! Results: docs/performance.md, "The CPU backend" (CPU) and
//! "GPU: a vertex order" (GPU).

use sssp::generate::{generate, GenSpec};
use sssp::graph::order::Order;
use std::time::Instant;

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
    let srcs = sssp::reference::pick_sources(&g, 5, 7);
    let opts = sssp::strategy::Options { delta: Some(d.into()), ..Default::default() };
    for (name, order) in [("orig", Order::Input), ("degree", Order::Degree), ("bfs", Order::Bfs)] {
        let t = Instant::now();
        let r = g.relabelled(order).unwrap();
        let gr = r.graph();
        let mapped: Vec<String> = srcs.iter().map(|&s| r.to_internal(s).unwrap().to_string()).collect();
        if let Some(dir) = &write {
            std::fs::create_dir_all(dir).unwrap();
            sssp::io::binary::write(gr, &dir.join(format!("{name}.bin"))).unwrap();
            std::fs::write(dir.join(format!("{name}.src")), mapped.join("\n") + "\n").unwrap();
            // The time includes computing the order (and for `orig`, a copy of the graph).
            eprintln!("{name}: relabelled and written in {:.1} s", t.elapsed().as_secs_f64());
            continue;
        }
        let mut ts = vec![];
        for &s in &srcs {
            let t = Instant::now();
            let sol = sssp::strategy::delta_stepping::delta_stepping(gr, r.to_internal(s).unwrap(), &opts).unwrap();
            ts.push(t.elapsed().as_secs_f64() * 1e3);
            std::hint::black_box(sol);
        }
        ts.sort_by(|a, b| a.partial_cmp(b).unwrap());
        println!("{spec} delta {d} {name}: median {:.1} ms", ts[2]);
    }
}
