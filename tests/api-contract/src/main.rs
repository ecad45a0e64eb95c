// The library contract: a petgraph user's first program, unchanged.
use sssp::{Device, Graph, Solver};

fn main() -> Result<(), sssp::Error> {
    // Real weights, built in memory from (tail, head, weight) triples.
    let g = Graph::from_edges(4, [(0, 1, 2.5f32), (1, 2, 1.0), (0, 2, 4.0), (2, 3, 0.5)])?;
    let mut solver = Solver::new(&g, Device::Auto)?; // the graph goes to the device once
    let paths = solver.shortest_paths(0)?;
    assert_eq!(paths.distance(2), Some(3.5));
    assert_eq!(paths.distance(3), Some(4.0));
    assert_eq!(paths.path_to(3), Some(vec![0, 1, 2, 3]));
    let back = solver.shortest_paths(3)?; // a second query on the same upload
    assert_eq!(back.distance(0), None); // unreachable

    // Integer weights, negative weights, and a negative cycle as a typed error.
    let ints = Graph::from_edges(3, [(0, 1, 7u32), (1, 2, 5)])?;
    assert_eq!(Solver::new(&ints, Device::Cpu)?.shortest_paths(0)?.distance(2), Some(12));
    let neg = Graph::from_edges(3, [(0, 1, 4i32), (1, 2, -2)])?;
    assert_eq!(Solver::new(&neg, Device::Cpu)?.shortest_paths(0)?.distance(2), Some(2));
    let cyc = Graph::from_edges(3, [(0, 1, 1i32), (1, 2, -3), (2, 1, 1)])?;
    match Solver::new(&cyc, Device::Cpu)?.shortest_paths(0) {
        Err(sssp::Error::NegativeCycle { cycle, .. }) => assert!(cycle.contains(&1) && cycle.contains(&2)),
        other => panic!("expected a negative cycle, got {other:?}"),
    }
    println!("api contract: ok");
    Ok(())
}
