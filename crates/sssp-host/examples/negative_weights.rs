//! Negative weights: a route where some legs pay you back (rebates), solved by an algorithm that
//! takes them (`auto` picks serial Bellman-Ford on the CPU, Workfront on a GPU), and a negative
//! cycle as a typed error naming the cycle.
//!
//! ```sh
//! cargo run --release -p sssp --example negative_weights
//! ```

use sssp::{Device, Error, Graph, Solver};

fn main() -> Result<(), Error> {
    // Legs between five stops: cost, or a rebate when negative. No cycle pays back more than it
    // costs, so shortest paths are defined.
    let legs = [(0, 1, 6i32), (0, 2, 7), (1, 3, 5), (1, 2, 8), (2, 3, -3), (3, 1, -2), (2, 4, 9), (4, 0, 2)];
    let g = Graph::from_edges(5, legs)?;
    let mut solver = Solver::new(&g, Device::Auto)?;
    let paths = solver.shortest_paths(0)?;
    println!("from stop 0 ({}):", paths.algorithm().name());
    for (v, cost) in paths.reached() {
        println!("  to {v}: {cost:>3} via {:?}", paths.path_to(v).unwrap_or_default());
    }
    assert_eq!(paths.distance(1), Some(2)); // 0 -> 2 -> 3 -> 1: 7 - 3 - 2

    // A rebate too generous: 1 -> 3 -> 1 now pays 1 per lap, so no route is shortest.
    let mut greedy = legs.to_vec();
    greedy.push((3, 1, -6));
    let g = Graph::from_edges(5, greedy)?;
    match Solver::new(&g, Device::Auto)?.shortest_paths(0) {
        Err(Error::NegativeCycle { cycle, weight, .. }) => {
            println!("negative cycle {cycle:?} (total {weight}): shortest paths are undefined");
        }
        other => panic!("expected a negative cycle, got {other:?}"),
    }
    Ok(())
}
