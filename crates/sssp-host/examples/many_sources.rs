//! Many sources on one upload: an origin-destination matrix, solved a batch of sources per pass,
//! and the nearest of several depots for every vertex in one run.
//!
//! ```sh
//! cargo run --release -p sssp --example many_sources
//! ```

use sssp::generate::{generate, GenSpec};
use sssp::{Device, Graph, Solver, WeightSpec};

/// Seed of the origins and destinations.
const SEED: u64 = 11;
/// Sources solved together per pass (a power of two up to 64): on a GPU, road graphs solve
/// many times more sources per second this way (README, "Queries").
const BATCH: u32 = 8;

fn main() -> Result<(), sssp::Error> {
    let raw = generate(&GenSpec::parse("road:100000")?, 1, WeightSpec::AsGiven)?;
    let g = Graph::<u32>::from_raw(raw)?;
    let mut solver = Solver::new(&g, Device::Auto)?;

    // Origins and destinations, drawn with a fixed seed (replayable).
    let picks = sssp::reference::pick_sources(g.raw(), 12, SEED);
    let (origins, destinations) = picks.split_at(8);
    let rows = solver.query().batch(BATCH).shortest_paths_many(origins)?;
    println!("origin-destination matrix ({} origins x {} destinations):", origins.len(), destinations.len());
    for (o, row) in origins.iter().zip(&rows) {
        let cells: Vec<String> =
            destinations.iter().map(|&d| row.distance(d).map_or("-".into(), |x| x.to_string())).collect();
        println!("{o:>7}: {}", cells.join(" "));
    }

    // Four depots: each vertex's distance to the nearest, and which one it is, in one run.
    let depots = &picks[8..];
    let near = solver.nearest(depots)?;
    for &d in depots {
        let served = (0..g.num_vertices() as u32).filter(|&v| near.nearest_source(v) == Some(d)).count();
        println!("depot {d:>7} serves {served} vertices");
    }
    if let Some((v, dist)) = near.farthest() {
        println!("the vertex farthest from every depot: {v}, {dist} from depot {:?}", near.nearest_source(v));
    }
    Ok(())
}
