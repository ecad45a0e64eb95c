//! Device memory (issue #30, item 1): every buffer an engine holds is counted on its device's
//! meter, on both backends the same way, and a run reports its peak (`Stats::device_memory`).
//! Checked on the CPU backend, where the count is exact and needs no GPU: the peak of a known
//! configuration equals the sum of the buffers docs/gpu.md lists for it ("## Memory"), term by
//! term, so a buffer that appears, grows or goes uncounted fails here.

use sssp::engine::{self, Balance, Dedupe, DeviceKind};
use sssp::generate::{generate, GenSpec};
use sssp::graph::Graph;
use sssp::strategy::{solve, Algo, Classify, Options};
use sssp::WeightSpec;

fn gen(spec: &str) -> Graph {
    generate(&GenSpec::parse(spec).unwrap(), 1, WeightSpec::AsGiven).unwrap()
}

/// Bytes of the graph on an engine: offsets (per vertex), heads and weights (per arc).
fn graph_bytes(n: u64, m: u64) -> (u64, u64) {
    (8 * (n + 1), 4 * m + 4 * m)
}

/// Length cells (64 of 4 bytes: `sssp_kernels::NUM_CELLS`) and the counters (32 bytes), the
/// fixed part every engine holds.
const CELLS_AND_COUNTERS: u64 = 4 * 64 + 32;

#[test]
fn a_workfront_run_holds_exactly_the_listed_buffers() {
    let g = gen("grid2d:40x30");
    let (n, m) = (g.num_vertices() as u64, g.num_arcs() as u64);
    let mut eng = engine::open(&g, DeviceKind::Cpu).unwrap();
    let opts =
        Options { balance: Balance::Thread, dedupe: Dedupe::Stamp, classify: Classify::Off, ..Options::default() };
    let sol = solve(&g, Algo::Workfront, Some(eng.as_mut()), 0, &opts).unwrap();
    let got = sol.stats.device_memory.expect("an engine run reports its device memory");
    let (offsets, arcs) = graph_bytes(n, m);
    // dist 8n, two frontiers 4n each, lookup table 4n, scan prefix 8(n + 1), hub queue 4n.
    let per_vertex = offsets + 8 * n + 2 * 4 * n + 4 * n + 8 * (n + 1) + 4 * n + CELLS_AND_COUNTERS;
    // The lookup dedupe's scratch queue (one push per arc), allocated with the engine.
    let scratch = 4 * m;
    assert_eq!(got.arc_bytes, arcs + scratch, "per-arc bytes");
    assert_eq!(got.bytes, per_vertex + arcs + scratch, "all bytes");
    assert_eq!(eng.device().meter().now(), got, "nothing freed or added since the peak");
}

#[test]
fn host_runs_report_none_and_repeated_runs_hold_no_more() {
    let g = gen("grid2d:20x20");
    let mut eng = engine::open(&g, DeviceKind::Cpu).unwrap();
    let sol = solve(&g, Algo::Dijkstra, Some(eng.as_mut()), 0, &Options::default()).unwrap();
    assert_eq!(sol.stats.device_memory, None, "a host run");
    // A certified run: what it keeps for the next one (the certificate's queues, the edge
    // classes) stays; what it made only for itself is given back.
    let o = Options { certify: sssp::strategy::Certify::Auto, ..Options::default() };
    let first = solve(&g, Algo::Workfront, Some(eng.as_mut()), 0, &o).unwrap().stats.device_memory.unwrap();
    let kept = eng.device().meter().now();
    assert!(first.bytes >= kept.bytes);
    let again = solve(&g, Algo::Workfront, Some(eng.as_mut()), 5, &o).unwrap().stats.device_memory.unwrap();
    assert_eq!(eng.device().meter().now(), kept, "a second run holds no more than the first left");
    assert_eq!(again, first, "and peaks where the first did");
}
