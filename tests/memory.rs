//! Device memory: every buffer an engine holds is counted on its device's
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

/// Length cells (70 of 4 bytes: `sssp_kernels::NUM_CELLS`) and the counters (32 bytes), the
/// fixed part every engine holds.
const CELLS_AND_COUNTERS: u64 = 4 * 70 + 32;

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
    // dist 8n, two frontiers 4n each, lookup table 4n: no degree prefix for a run that scans no
    // degrees.
    let per_vertex = offsets + 8 * n + 2 * 4 * n + 4 * n + CELLS_AND_COUNTERS;
    assert_eq!(got.arc_bytes, arcs, "per-arc bytes: the graph's heads and weights, nothing else");
    assert_eq!(got.bytes, per_vertex + arcs, "all bytes");
    assert_eq!(eng.device().meter().now(), got, "nothing freed or added since the peak");

    // A lookup-dedupe run adds its scratch queue (one push per arc), once; a run with a hub
    // path its hub queue (room for every vertex of degree 2 or more, threshold 3 rounded down to
    // a power of two: all n of a grid) and the degree prefix (one more word, the hub pass
    // scans), once; a partitioned run (n + 1 words) finds the prefix there, and adds the
    // second prefix its pushes build (n + 1 words, `Layout::push_prefix`), once.
    let lookup = Options { dedupe: Dedupe::Lookup, ..opts };
    let sol = solve(&g, Algo::Workfront, Some(eng.as_mut()), 0, &lookup).unwrap();
    let with_scratch = sol.stats.device_memory.unwrap();
    assert_eq!(with_scratch.bytes, got.bytes + 4 * m);
    assert_eq!(with_scratch.arc_bytes, got.arc_bytes + 4 * m);
    let hubs = Options { hub_degree: 3, ..opts };
    let sol = solve(&g, Algo::Workfront, Some(eng.as_mut()), 0, &hubs).unwrap();
    let with_hubs = with_scratch.bytes + 4 * n + 8 * (n + 1);
    assert_eq!(sol.stats.device_memory.unwrap().bytes, with_hubs);
    let sol = solve(&g, Algo::Workfront, Some(eng.as_mut()), 0, &lookup).unwrap();
    assert_eq!(sol.stats.device_memory.unwrap().bytes, with_hubs, "kept, not made again");
    let part = Options { balance: Balance::Partition, ..opts };
    for _ in 0..2 {
        let sol = solve(&g, Algo::Workfront, Some(eng.as_mut()), 0, &part).unwrap();
        assert_eq!(sol.stats.device_memory.unwrap().bytes, with_hubs + 8 * (n + 1), "the pushes' prefix, once");
    }
}

#[test]
fn a_partitioned_run_adds_the_degree_prefix_and_a_bucketed_one_the_shared_slots() {
    let g = gen("grid2d:40x30");
    let (n, m) = (g.num_vertices() as u64, g.num_arcs() as u64);
    let (offsets, arcs) = graph_bytes(n, m);
    let base = offsets + arcs + 8 * n + 2 * 4 * n + 4 * n + CELLS_AND_COUNTERS;
    let opts =
        Options { balance: Balance::Thread, dedupe: Dedupe::Stamp, classify: Classify::Off, ..Options::default() };
    let mut eng = engine::open(&g, DeviceKind::Cpu).unwrap();
    let part = Options { balance: Balance::Partition, ..opts };
    let sol = solve(&g, Algo::Workfront, Some(eng.as_mut()), 0, &part).unwrap();
    // The scanned prefix and the one the pushes build (`Layout::push_prefix`), n + 1 words each.
    assert_eq!(sol.stats.device_memory.unwrap().bytes, base + 2 * 8 * (n + 1), "two prefixes, n + 1 words each");
    // The slots of any bucket count share one pool of n entries, beside two far piles of n.
    for (algo, buckets) in [(Algo::Bucketing, 10), (Algo::NearFar, 1), (Algo::Bucketing, 30)] {
        let mut eng = engine::open(&g, DeviceKind::Cpu).unwrap();
        let o = Options { buckets, ..opts };
        let sol = solve(&g, algo, Some(eng.as_mut()), 0, &o).unwrap();
        assert_eq!(sol.stats.device_memory.unwrap().bytes, base + 4 * n + 2 * 4 * n, "{} x {buckets}", algo.name());
    }
}

#[test]
fn the_hub_path_holds_room_for_the_hubs_only() {
    // One vertex of degree 999 among leaves of degree 1: the hub queue and the hub pass's prefix
    // are sized by the vertices of degree 64 or more (one), not by the vertex count; a
    // partitioned run then replaces the prefix with its n + 1 words and adds the second one its
    // pushes build.
    let g = gen("star:1000");
    let (n, m) = (g.num_vertices() as u64, g.num_arcs() as u64);
    assert_eq!((0..n as u32).filter(|&v| g.degree(v) >= 64).count(), 1);
    let (offsets, arcs) = graph_bytes(n, m);
    let base = offsets + arcs + 8 * n + 2 * 4 * n + 4 * n + CELLS_AND_COUNTERS;
    let mut eng = engine::open(&g, DeviceKind::Cpu).unwrap();
    let opts =
        Options { balance: Balance::VirtualWarp, dedupe: Dedupe::Stamp, classify: Classify::Off, ..Options::default() };
    let sol = solve(&g, Algo::Workfront, Some(eng.as_mut()), 0, &opts).unwrap();
    sssp::verify::compare(&sol.dist, &sssp::reference::dijkstra(&g, 0).unwrap()).unwrap();
    assert_eq!(sol.stats.device_memory.unwrap().bytes, base + 4 + 8 * 2, "one hub: 4 + 8 x 2 bytes");
    let part = Options { balance: Balance::Partition, ..opts };
    let sol = solve(&g, Algo::Workfront, Some(eng.as_mut()), 0, &part).unwrap();
    assert_eq!(
        sol.stats.device_memory.unwrap().bytes,
        base + 4 + 2 * 8 * (n + 1),
        "the prefix replaced, the pushes' added"
    );
}

/// The default path (what `auto` picks on a GPU, run on the test device: the CPU engine holds
/// the same buffers), certified or not: the graph's 8 bytes per arc are the only per-arc bytes,
/// and the rest is at most 40 bytes per vertex plus the fixed cells (on a GPU also the loops'
/// per-block buffers: under 1 MiB), and 8 more per vertex where partition balance builds its
/// degree prefixes by the pushes (graphs of up to `NARROW_PARTITION_ARCS` arcs), and 8 more
/// where Near-Far runs partition balance (its buckets and the scans' prefix). One family per
/// pick: Workfront with partition balance on a skewed graph, Bucketing on a road network,
/// Near-Far with virtual warps on a 2D mesh and with partition balance on a uniform graph.
#[test]
fn the_default_path_holds_8_bytes_per_arc_and_at_most_40_per_vertex() {
    let fixed = if sssp_tests::device() == DeviceKind::Gpu { 1 << 20 } else { CELLS_AND_COUNTERS + 64 };
    let mut picks = std::collections::BTreeSet::new();
    for spec in ["kron:12", "road:20000", "grid2d:150x150", "uniform:20000:8"] {
        let g = gen(spec);
        let (n, m) = (g.num_vertices() as u64, g.num_arcs() as u64);
        let c = sssp::strategy::auto::choose(&g, true, &Options::default());
        picks.insert(c.algo.name());
        for certify in [sssp::strategy::Certify::Off, sssp::strategy::Certify::Device] {
            let mut eng = engine::open(&g, sssp_tests::device()).unwrap();
            let opts = Options { certify, ..c.opts };
            let sol = solve(&g, c.algo, Some(eng.as_mut()), 0, &opts).unwrap();
            let got = sol.stats.device_memory.unwrap();
            assert!(!sol.stats.classes_used, "{spec}: the classes do not pay here");
            assert_eq!(got.arc_bytes, 8 * m, "{spec} ({}): per-arc bytes", c.why);
            // Partition balance on a graph of the partition loop's size also holds the degree
            // prefix its pushes build (`n + 1` words, docs/gpu.md "Memory").
            let pushes = opts.balance == Balance::Partition
                && opts.dedupe == Dedupe::Stamp
                && m <= engine::NARROW_PARTITION_ARCS;
            // Near-Far with partition balance (uniform graphs, 3D meshes) holds the buckets'
            // `12n` and the degree prefix its scans fill besides (docs/gpu.md "Memory").
            let bucketed_prefix = opts.balance == Balance::Partition && c.algo == Algo::NearFar;
            let budget = 8 * m
                + 40 * n
                + fixed
                + if pushes { 8 * (n + 1) } else { 0 }
                + if bucketed_prefix { 8 * (n + 1) } else { 0 };
            assert!(got.bytes <= budget, "{spec} ({}, {certify:?}): {got:?} over {budget}", c.why);
        }
    }
    assert!(picks.len() >= 3, "the families cover the default picks: {picks:?}");
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
