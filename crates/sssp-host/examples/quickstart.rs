// crates/sssp-host/examples/quickstart.rs; run it with `cargo run -p sssp --example quickstart`.
use sssp::engine::{self, DeviceKind};
use sssp::generate::{generate, GenSpec};
use sssp::strategy::{solve, Algo, Options};
use sssp::WeightSpec;

fn main() -> Result<(), sssp::Error> {
    // A 100x100 grid with real (f32) weights in [1, 10); `GenSpec::HELP` lists every family.
    let weights = WeightSpec::parse("real:1-10")?;
    let g = generate(&GenSpec::parse("grid2d:100x100")?, 1, weights)?;
    let mut eng = engine::open(&g, DeviceKind::Auto)?; // CUDA if usable, else the CPU backend
    let sol = solve(&g, Algo::Workfront, Some(eng.as_mut()), 0, &Options::default())?;
    sssp::verify::check(&g, 0, &sol.dist)?; // a certificate: needs no reference answer

    // Distances come typed: `Distance::Real` here, `Distance::Integer` on integer weights.
    if let Some((v, d)) = sol.farthest() {
        println!("{} vertices on {}, farthest: vertex {v} at {d}", g.num_vertices(), eng.device());
    }
    Ok(())
}
