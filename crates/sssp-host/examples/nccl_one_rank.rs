//! Distributed SSSP with the NCCL communicator on one GPU (one rank), checked against
//! Dijkstra: the NCCL path of `sssp::distributed` end to end on a one-GPU machine.
//!
//! Build here (no GPU or libnccl needed to build), run there:
//!
//! ```text
//! cargo build --release -p sssp --features nccl --example nccl_one_rank
//! NCCL_NVLS_ENABLE=0 target/release/examples/nccl_one_rank [GEN-SPEC [RANKS]]
//! ```
//!
//! `GEN-SPEC` is a generator spec (default `kron:14`), `RANKS` the GPUs to use (default 1).
//! It needs the CUDA driver and libnccl where cudarc looks for it (`libnccl.so` on the
//! library path: a `libnccl.so.2` alone is not among the names cudarc tries). Prints
//! `nccl one rank: ok` (or `nccl N ranks: ok`) when every distance equals Dijkstra's, and
//! exits non-zero otherwise.

use sssp::distributed::{solve, DistOptions, Ranks};
use sssp::generate::{generate, GenSpec};

fn main() -> std::process::ExitCode {
    match check() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("nccl_one_rank: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

fn check() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let spec = GenSpec::parse(&args.next().unwrap_or_else(|| "kron:14".into()))?;
    let ranks: usize = args.next().map_or(Ok(1), |s| s.parse())?;
    let g = generate(&spec, 1, sssp::WeightSpec::AsGiven)?;
    // A seeded pick that skips isolated vertices, as `sssp run` makes.
    let source = sssp::reference::pick_sources(&g, 1, 27491095)[0];
    let run = solve(&g, source, Ranks::Nccl(ranks), &DistOptions::default())?;
    let want = sssp::reference::dijkstra(&g, source)?;
    sssp::verify::compare(&run.solution.dist, &want)?;
    let s = &run.stats;
    println!(
        "{} from {source}: {} vertices, {} arcs; {} rounds, {} buckets, delta {}, {} items sent, {:.3} ms ({:.3} ms in exchanges)",
        spec.name(),
        g.num_vertices(),
        g.num_arcs(),
        s.rounds,
        s.buckets,
        s.delta,
        s.items_sent(),
        run.solution.stats.compute.as_secs_f64() * 1e3,
        s.exchange_max().as_secs_f64() * 1e3
    );
    match ranks {
        1 => println!("nccl one rank: ok"),
        p => println!("nccl {p} ranks: ok"),
    }
    Ok(())
}
