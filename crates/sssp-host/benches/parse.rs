//! Text parsing throughput: an in-memory edge list (~2M edges) parsed as a GAP/SNAP edge list and
//! the same arcs as DIMACS. Reported as bytes per second of input text.
//!
//! Run with `cargo bench -p sssp --bench parse`.

use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use sssp::io::{parse_text, Format, LoadOptions};
use sssp::rng::Rng;

const VERTICES: u64 = 1 << 20;
const EDGES: usize = 2_000_000;

/// `(edge list text, DIMACS text)` for the same random arcs with weights in 1..=255.
fn texts() -> (Vec<u8>, Vec<u8>) {
    let mut rng = Rng::new(42);
    let mut el = String::with_capacity(EDGES * 20);
    let mut gr = format!("c benchmark\np sp {VERTICES} {EDGES}\n");
    gr.reserve(EDGES * 24);
    for _ in 0..EDGES {
        let (u, v, w) = (rng.below(VERTICES), rng.below(VERTICES), 1 + rng.below(255));
        el.push_str(&format!("{u} {v} {w}\n"));
        gr.push_str(&format!("a {} {} {w}\n", u + 1, v + 1));
    }
    (el.into_bytes(), gr.into_bytes())
}

fn bench_parse(c: &mut Criterion) {
    let (el, gr) = texts();
    let opts = LoadOptions::default();
    let mut group = c.benchmark_group("parse_text");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(el.len() as u64));
    group.bench_function("edge_list", |b| {
        b.iter(|| parse_text(Path::new("bench.el"), &el, Format::EdgeList, &opts).expect("valid edge list"))
    });
    group.throughput(Throughput::Bytes(gr.len() as u64));
    group.bench_function("dimacs", |b| {
        b.iter(|| parse_text(Path::new("bench.gr"), &gr, Format::Dimacs, &opts).expect("valid DIMACS"))
    });
    group.finish();
}

criterion_group!(benches, bench_parse);
criterion_main!(benches);
