//! Road routing: a point-to-point route, an isochrone and the whole tree from one place, on one
//! upload of the graph.
//!
//! ```sh
//! cargo run --release -p sssp --example road_routing                       # a generated road graph
//! cargo run --release -p sssp --example road_routing -- USA-road-d.NY.gr.gz  # a DIMACS road graph
//! ```
//!
//! The two places are drawn with a fixed seed among the vertices with a road out of them
//! (`reference::pick_sources`, GAP's convention), so every run is replayable.

use sssp::generate::{generate, GenSpec};
use sssp::{Device, Graph, Solver, WeightSpec};

/// Seed of the two places.
const SEED: u64 = 7;

fn main() -> Result<(), sssp::Error> {
    let g: Graph<u32> = match std::env::args().nth(1) {
        Some(path) => Graph::read(path)?,
        // A planar road-like network of 200,000 junctions (`sssp gen --help`).
        None => Graph::from_raw(generate(&GenSpec::parse("road:200000")?, 1, WeightSpec::AsGiven)?)?,
    };
    println!("{} junctions, {} road segments (arcs)", g.num_vertices(), g.num_edges());
    let mut solver = Solver::new(&g, Device::Auto)?;
    if let Some(why) = solver.fallback() {
        println!("on the CPU: {why}");
    }

    let places = sssp::reference::pick_sources(g.raw(), 2, SEED);
    let (from, to) = (places[0], places[1]);
    // The run stops as soon as `to`'s distance is final (near-far, bucketing, dijkstra).
    let Some((length, route)) = solver.path(from, to)? else {
        println!("no route from {from} to {to}");
        return Ok(());
    };
    println!("route {from} -> {to}: length {length}, {} junctions", route.len());

    // An isochrone: every junction within a quarter of that length. The engines never relax
    // past the cutoff, so it costs a fraction of a full solve.
    let reach = solver.query().cutoff(length / 4).shortest_paths(from)?;
    println!("{} junctions within {} of {from}", reach.num_reached(), length / 4);

    // The whole tree: the farthest junction and how long the run took.
    let all = solver.shortest_paths(from)?;
    if let Some((far, d)) = all.farthest() {
        let hops = all.path_to(far).map_or(0, |p| p.len() - 1);
        println!("farthest from {from}: {far} at {d} ({hops} segments)");
    }
    println!(
        "{} on {}: {:.3} ms",
        all.algorithm().name(),
        solver.device_name(),
        all.stats().compute.as_secs_f64() * 1e3
    );
    Ok(())
}
