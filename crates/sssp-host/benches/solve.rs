//! Criterion micro-benchmarks of whole solves on small graphs (CPU): the serial references and
//! the CPU engine running the kernel bodies. GPU timings come from `sssp bench` (whole runs with
//! verification, docs/performance.md); criterion's statistics are for the CPU-side pieces.

use criterion::{criterion_group, criterion_main, Criterion};
use sssp::engine::{self, Balance, DeviceKind};
use sssp::generate::{generate, GenSpec};
use sssp::strategy::{solve, Algo, Options};
use sssp::WeightSpec;

fn solves(c: &mut Criterion) {
    for spec in ["road:100000", "kron:14"] {
        let g = generate(&GenSpec::parse(spec).unwrap(), 1, WeightSpec::AsGiven).unwrap();
        let src = sssp::reference::pick_sources(&g, 1, 1)[0];
        let mut group = c.benchmark_group(spec);
        group.sample_size(10);
        group.bench_function("dijkstra", |b| b.iter(|| sssp::reference::dijkstra(&g, src).unwrap()));
        group.bench_function("verify::check", |b| {
            let d = sssp::reference::dijkstra(&g, src).unwrap();
            b.iter(|| sssp::verify::check(&g, src, &d).unwrap())
        });
        let mut eng = engine::open(&g, DeviceKind::Cpu).unwrap();
        for balance in [Balance::VirtualWarp, Balance::Partition] {
            let opts = Options { balance, ..Options::default() };
            group.bench_function(format!("workfront-cpu-{balance:?}"), |b| {
                b.iter(|| solve(&g, Algo::Workfront, Some(eng.as_mut()), src, &opts).unwrap())
            });
        }
        group.finish();
    }
}

criterion_group!(benches, solves);
criterion_main!(benches);
