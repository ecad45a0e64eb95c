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
    // dist 8n, two frontiers 4n each, lookup table 4n, scan prefix 8(n + 1).
    let per_vertex = offsets + 8 * n + 2 * 4 * n + 4 * n + 8 * (n + 1) + CELLS_AND_COUNTERS;
    assert_eq!(got.arc_bytes, arcs, "per-arc bytes: the graph's heads and weights, nothing else");
    assert_eq!(got.bytes, per_vertex + arcs, "all bytes");
    assert_eq!(eng.device().meter().now(), got, "nothing freed or added since the peak");

    // A lookup-dedupe run adds its scratch queue (one push per arc), once; a run with a hub
    // path its hub queue (n items), once.
    let lookup = Options { dedupe: Dedupe::Lookup, ..opts };
    let sol = solve(&g, Algo::Workfront, Some(eng.as_mut()), 0, &lookup).unwrap();
    let with_scratch = sol.stats.device_memory.unwrap();
    assert_eq!(with_scratch.bytes, got.bytes + 4 * m);
    assert_eq!(with_scratch.arc_bytes, got.arc_bytes + 4 * m);
    let hubs = Options { hub_degree: 3, ..opts };
    let sol = solve(&g, Algo::Workfront, Some(eng.as_mut()), 0, &hubs).unwrap();
    assert_eq!(sol.stats.device_memory.unwrap().bytes, with_scratch.bytes + 4 * n);
    let sol = solve(&g, Algo::Workfront, Some(eng.as_mut()), 0, &lookup).unwrap();
    assert_eq!(sol.stats.device_memory.unwrap().bytes, with_scratch.bytes + 4 * n, "kept, not made again");
}

/// The default path (what `auto` picks on a GPU, run on the test device: the CPU engine holds
/// the same buffers): the graph's 8 bytes per arc are the only per-arc bytes, and the rest is at
/// most 40 bytes per vertex plus the bucket queues of a bucketed pick (`4n(A + 2)`) and the
/// fixed cells (on a GPU also the loops' per-block buffers: under 1 MiB).
#[test]
fn the_default_path_holds_8_bytes_per_arc_and_at_most_40_per_vertex() {
    let fixed = if sssp_tests::device() == DeviceKind::Gpu { 1 << 20 } else { CELLS_AND_COUNTERS };
    for spec in ["kron:12", "road:20000"] {
        let g = gen(spec);
        let (n, m) = (g.num_vertices() as u64, g.num_arcs() as u64);
        let c = sssp::strategy::auto::choose(&g, true, &Options::default());
        let mut eng = engine::open(&g, sssp_tests::device()).unwrap();
        let sol = solve(&g, c.algo, Some(eng.as_mut()), 0, &c.opts).unwrap();
        let got = sol.stats.device_memory.unwrap();
        assert!(!sol.stats.classes_used, "{spec}: the classes do not pay here");
        assert_eq!(got.arc_bytes, 8 * m, "{spec} ({}): per-arc bytes", c.why);
        let buckets = if c.algo == Algo::Bucketing { 4 * n * (c.opts.buckets as u64 + 2) } else { 0 };
        let budget = 8 * m + 40 * n + buckets + fixed;
        assert!(got.bytes <= budget, "{spec} ({}): {got:?} over {budget}", c.why);
    }
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
