// crates/sssp-host/examples/quickstart.rs; run it with `cargo run -p sssp --example quickstart`.
use sssp::{Device, Graph, Solver};

fn main() -> Result<(), sssp::Error> {
    // A small road map, both ways: (from, to, minutes). Weights are u32, i32 or f32.
    let roads = [(0, 1, 4.0f32), (1, 2, 2.5), (0, 3, 9.0), (2, 3, 1.0), (3, 4, 3.0)];
    let g = Graph::from_undirected_edges(5, roads)?;
    let mut solver = Solver::new(&g, Device::Auto)?; // CUDA if usable, else the CPU backend

    let from_0 = solver.shortest_paths(0)?; // `auto` picks the algorithm
    for (v, minutes) in from_0.reached() {
        println!("to {v}: {minutes} min via {:?}", from_0.path_to(v).unwrap_or_default());
    }
    assert_eq!(from_0.distance(3), Some(7.5)); // 0 -> 1 -> 2 -> 3 beats the direct 9

    // More queries on the same upload: a path (the run stops once the target is final), a
    // cutoff (isochrones), many sources, the nearest of several sources.
    assert_eq!(solver.path(4, 0)?, Some((10.5, vec![4, 3, 2, 1, 0])));
    assert_eq!(solver.query().cutoff(5.0).shortest_paths(0)?.num_reached(), 2);
    let rows = solver.shortest_paths_many(&[0, 4])?;
    assert_eq!(rows[1].distance(0), Some(10.5));
    let depots = solver.nearest(&[0, 4])?;
    assert_eq!(depots.nearest_source(3), Some(4));
    println!("{} vertices on {}", g.num_vertices(), solver.device_name());
    Ok(())
}
