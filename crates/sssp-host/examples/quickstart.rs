// crates/sssp-host/examples/quickstart.rs; run it with `cargo run -p sssp --example quickstart`.
use sssp::engine::{self, DeviceKind};
use sssp::generate::{generate, GenSpec};
use sssp::strategy::{solve, Algo, Options};
use sssp::{WeightSpec, UNREACHED};

fn main() -> Result<(), sssp::Error> {
    // A 100x100 grid with its generator's weights; `GenSpec::HELP` lists every family.
    let g = generate(&GenSpec::parse("grid2d:100x100")?, 1, WeightSpec::AsGiven)?;
    let mut eng = engine::open(&g, DeviceKind::Auto)?; // CUDA if usable, else the CPU backend
    let sol = solve(&g, Algo::Workfront, Some(eng.as_mut()), 0, &Options::default())?;
    sssp::verify::check(&g, 0, &sol.dist)?; // a certificate: needs no reference answer
    let far = sol.dist.iter().filter(|&&d| d != UNREACHED).max().unwrap_or(&0);
    println!("{} vertices on {}, farthest at distance {far}", g.num_vertices(), eng.device());
    Ok(())
}
