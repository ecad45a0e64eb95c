//! PHAST (`Algo::Phast`, `sssp::hierarchy`): the contraction and the sweep against Dijkstra on
//! the families where it matters (roads, meshes, long paths), on graphs whose contraction
//! stops at a core (scale-free, dense), on directed and disconnected ones, with zero weights,
//! and at the 32-bit overflow edge; the hierarchy's own invariants; the refusals. Every
//! family and the random multigraphs also run it through `sssp_tests::configs`. On the CPU
//! (CI) the engine runs the sweep's bodies level by level; `scripts/gpu-suite.sh` runs this on
//! the GPU.

use sssp::engine;
use sssp::generate::{generate, GenSpec};
use sssp::graph::Graph;
use sssp::hierarchy::{Hierarchy, HierarchyParams, CORE_DEGREE};
use sssp::strategy::{phast, solve, Algo, Options};
use sssp::{EdgeList, Error, WeightSpec, UNREACHED};

use sssp_tests::{device, TempDir};

/// PHAST from `sources` equals Dijkstra, and the hierarchy keeps its invariants.
fn check(g: &Graph, sources: &[u32], what: &str) {
    let mut eng = engine::open(g, device()).unwrap();
    for &src in sources {
        let want = sssp::reference::dijkstra(g, src).unwrap();
        let sol = solve(g, Algo::Phast, Some(eng.as_mut()), src, &Options::default())
            .unwrap_or_else(|e| panic!("{what} from {src}: {e}"));
        sssp::verify::compare(&sol.dist, &want).unwrap_or_else(|e| panic!("{what} from {src}: {e}"));
    }
    let (h, built) = phast::hierarchy(g, eng.as_mut()).unwrap();
    assert!(!built, "{what}: the engine keeps the hierarchy its first solve built");
    invariants(&h, g, what);
}

/// Every vertex is swept once or is in the core; a downward arc's tail is in the core or in a
/// level above its head's; the levels cover the sweep order.
fn invariants(h: &Hierarchy, g: &Graph, what: &str) {
    let sg = h.sweep_graph();
    let n = g.num_vertices();
    let mut level = vec![u32::MAX; n];
    let levels = sg.level_starts.len().saturating_sub(1);
    assert_eq!(levels as u32, h.stats.levels, "{what}");
    for k in 0..levels {
        let (s, e) = (sg.level_starts[k] as usize, sg.level_starts[k + 1] as usize);
        assert!(s < e, "{what}: empty level {k}");
        for &v in &sg.order[s..e] {
            assert_eq!(level[v as usize], u32::MAX, "{what}: {v} swept twice");
            level[v as usize] = k as u32;
        }
    }
    assert_eq!(sg.order.len() + h.stats.core as usize, n, "{what}: swept + core != n");
    for (i, &v) in sg.order.iter().enumerate() {
        for j in sg.offsets[i]..sg.offsets[i + 1] {
            let u = sg.tails[j as usize];
            // Core vertices (never swept) sit above every level.
            let above = level[u as usize] == u32::MAX || level[u as usize] < level[v as usize];
            assert!(above, "{what}: down arc {u} -> {v} does not come from above");
        }
    }
}

#[test]
fn roads_meshes_and_paths() {
    for spec in ["road:3000", "grid2d:40x30", "grid3d:12x10x8", "path:2000", "uniform:2000:3"] {
        let g = generate(&GenSpec::parse(spec).unwrap(), 7, WeightSpec::AsGiven).unwrap();
        let n = g.num_vertices() as u32;
        check(&g, &[0, n / 3, n - 1], spec);
    }
    // Unit weights: many equal-length paths (witnesses tie with the shortcut).
    let g = generate(&GenSpec::parse("grid2d:30x30").unwrap(), 1, WeightSpec::Unit).unwrap();
    check(&g, &[0, 455], "grid2d unit");
}

#[test]
fn stars_zero_weights_multigraphs_and_disconnected_parts() {
    // A hub whose leaves are contracted all in one round; about half the weights 0 (witnesses
    // that tie with the shortcut); every arc 2-4 times; parts that never meet; a clique that
    // stays a core.
    for spec in ["star:500", "zero:400", "multi:300", "disconnected:4:400", "complete:40"] {
        let g = generate(&GenSpec::parse(spec).unwrap(), 11, WeightSpec::AsGiven).unwrap();
        let n = g.num_vertices() as u32;
        check(&g, &[0, 1, n / 2, n - 1], spec);
    }
}

#[test]
fn contraction_that_stops_at_a_core() {
    // Scale-free and dense graphs: the remaining graph passes CORE_DEGREE arcs per vertex
    // and the rest is searched by every query.
    // Kronecker: hubs are never simulated (their pairs are the estimate) and sort last.
    let g = generate(&GenSpec::parse("kron:11").unwrap(), 3, WeightSpec::AsGiven).unwrap();
    check(&g, &[0, 17, 200], "kron:11");
    // Mean degree 100 from the start: all of it is the core, searched by every query.
    let g = generate(&GenSpec::parse("uniform:300:100").unwrap(), 3, WeightSpec::AsGiven).unwrap();
    check(&g, &[0, 17, 200], "uniform:300:100");
    let h = Hierarchy::build(&g).unwrap();
    assert!(h.stats.core > 0, "expected a core (mean degree above {CORE_DEGREE})");
}

/// PHAST with `h` (built from `g`) from `sources` equals Dijkstra.
fn check_with(g: &Graph, h: &Hierarchy, sources: &[u32], what: &str) {
    let mut eng = engine::open(g, device()).unwrap();
    for &src in sources {
        let want = sssp::reference::dijkstra(g, src).unwrap();
        let sol = sssp::strategy::phast::solve_with(g, eng.as_mut(), h, src)
            .unwrap_or_else(|e| panic!("{what} from {src}: {e}"));
        sssp::verify::compare(&sol.dist, &want).unwrap_or_else(|e| panic!("{what} from {src}: {e}"));
    }
    invariants(h, g, what);
}

#[test]
fn core_table_and_host_search_agree() {
    // A core with its distance table (the default up to CORE_TABLE vertices) and the same
    // core searched on the host (table limit 0), from sources below and inside the core, on
    // an undirected scale-free graph, a dense one (all core), and a directed one whose core
    // is not strongly connected (unreachable table entries), with zero weights.
    // Two dense blocks of 80 (each vertex to the next 75 of its block; block 0's arcs heavier
    // than any way into it, so that every entry below is its own vertex's best), block 0 joined to
    // block 1 one way only, and a fringe of 10 into block 0 and 10 out of block 1.
    let mut arcs = vec![];
    for i in 0..80u32 {
        for k in 1..=75u32 {
            arcs.push((i, (i + k) % 80, 100 + ((i * k) % 5) as i64));
            arcs.push((80 + i, 80 + (i + k) % 80, ((i + k) % 3) as i64));
        }
        arcs.push((i, 80 + (i * 7) % 80, 4));
    }
    for i in 0..10u32 {
        arcs.push((160 + i, i * 3, 2));
        arcs.push((80 + i * 5, 170 + i, (i % 2) as i64));
    }
    // And a source below the core with 50 core entries (more than one chunk of the table
    // pass), at weights that make different entries the best for different core vertices.
    for i in 0..50u32 {
        arcs.push((180, i, ((i * 37) % 11) as i64));
    }
    // Leaves out of block 1, so that the mean degree starts below CORE_DEGREE.
    for i in 0..60u32 {
        arcs.push((80 + i, 181 + i, 1));
    }
    let one_way = Graph::from_arcs(241, &arcs).unwrap();
    let graphs = [
        ("kron:11", generate(&GenSpec::parse("kron:11").unwrap(), 5, WeightSpec::AsGiven).unwrap()),
        ("uniform:300:100", generate(&GenSpec::parse("uniform:300:100").unwrap(), 5, WeightSpec::AsGiven).unwrap()),
        ("one-way blocks", one_way),
    ];
    for (what, g) in &graphs {
        let table = Hierarchy::build(g).unwrap();
        let host = Hierarchy::build_with(g, HierarchyParams { core_table: 0, ..Default::default() }).unwrap();
        assert!(table.stats.core > 0 && table.stats.core_table, "{what}: expected a core with a table");
        assert!(!host.stats.core_table, "{what}");
        let n = g.num_vertices() as u32;
        let sources = [0, 1, n / 2, 179, 180, n - 1];
        check_with(g, &table, &sources, &format!("{what} with the table"));
        check_with(g, &host, &sources, &format!("{what} searched on the host"));
    }
}

/// The graph with two dense one-way blocks of `core_table_and_host_search_agree`, smaller:
/// a core that keeps a table.
fn graph_with_a_core() -> Graph {
    let mut arcs = vec![];
    for i in 0..80u32 {
        for k in 1..=70u32 {
            arcs.push((i, (i + k) % 80, 1 + ((i * k) % 5) as i64));
        }
    }
    for i in 0..10u32 {
        arcs.push((80 + i, i * 3, 2));
        arcs.push((i * 5, 90 + i, (i % 2) as i64));
    }
    Graph::from_arcs(100, &arcs).unwrap()
}

#[test]
fn the_hierarchy_does_not_depend_on_the_thread_count() {
    // The rounds pick their vertices by priority alone and apply them in order.
    for spec in ["road:3000", "kron:10"] {
        let g = generate(&GenSpec::parse(spec).unwrap(), 9, WeightSpec::AsGiven).unwrap();
        let build = |threads| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            pool.install(|| Hierarchy::build(&g).unwrap())
        };
        let (one, three) = (build(1), build(3));
        let (a, b) = (one.sweep_graph(), three.sweep_graph());
        assert_eq!((a.order, a.level_starts, a.offsets), (b.order, b.level_starts, b.offsets), "{spec}");
        assert_eq!((a.tails, a.weights, a.core, a.table), (b.tails, b.weights, b.core, b.table), "{spec}");
        assert_eq!(one.upward(5).seeds, three.upward(5).seeds, "{spec}");
    }
}

#[test]
fn hierarchy_files_round_trip() {
    let dir = TempDir::new("ch");
    let road = generate(&GenSpec::parse("road:3000").unwrap(), 4, WeightSpec::AsGiven).unwrap();
    let core = graph_with_a_core();
    for (what, g, params) in [
        ("road", &road, HierarchyParams::default()),
        ("core with a table", &core, HierarchyParams::default()),
        ("core searched on the host", &core, HierarchyParams { core_table: 0, ..Default::default() }),
    ] {
        let h = Hierarchy::build_with(g, params).unwrap();
        let path = dir.path(&format!("{what}.ch"));
        h.write(g, &path).unwrap();
        let back = Hierarchy::read(g, &path).unwrap();
        let (a, b) = (h.sweep_graph(), back.sweep_graph());
        assert_eq!(
            (a.order, a.level_starts, a.offsets, a.tails),
            (b.order, b.level_starts, b.offsets, b.tails),
            "{what}"
        );
        assert_eq!((a.weights, a.core, a.table), (b.weights, b.core, b.table), "{what}");
        assert_eq!(format!("{:?}", h.stats), format!("{:?}", back.stats), "{what}");
        assert_eq!(h.upward(1).seeds, back.upward(1).seeds, "{what}");
        check_with(g, &back, &[0, 1, 85], &format!("{what}, read back"));
    }
    // phast::hierarchy_file: built and written once, read by a fresh copy of the graph.
    let path = dir.path("cached.ch");
    let (_, read) = phast::hierarchy_file(&road, &path).unwrap();
    assert!(!read && path.exists());
    let again = generate(&GenSpec::parse("road:3000").unwrap(), 4, WeightSpec::AsGiven).unwrap();
    let (h, read) = phast::hierarchy_file(&again, &path).unwrap();
    assert!(read);
    let mut eng = engine::open(&again, device()).unwrap();
    phast::attach(eng.as_mut(), h.clone()).unwrap();
    let (kept, built) = phast::hierarchy(&again, eng.as_mut()).unwrap();
    assert!(!built && std::ptr::eq(&*h, &*kept), "the engine keeps what it was given");
    check_with(&again, &h, &[0, 2999], "road, hierarchy from its file");
    // auto runs phast on an engine that holds a hierarchy with a small core.
    let sol = solve(&again, Algo::Auto, Some(eng.as_mut()), 7, &Options::default()).unwrap();
    assert_eq!(sol.stats.chosen_algo, Some(Algo::Phast));
    sssp::verify::compare(&sol.dist, &sssp::reference::dijkstra(&again, 7).unwrap()).unwrap();
}

/// The engine's device is made ready for the sweep when it is given the
/// hierarchy (on a GPU: the hierarchy copied in), so that a process's first solve costs what
/// the later ones do; a solve with a hierarchy the engine was not given prepares it itself and
/// says so. Every solve is exact.
#[test]
fn the_device_is_prepared_when_the_hierarchy_is_attached() {
    let dir = TempDir::new("attach");
    let g = generate(&GenSpec::parse("road:3000").unwrap(), 6, WeightSpec::AsGiven).unwrap();
    let path = dir.path("road.ch");
    phast::hierarchy_file(&g, &path).unwrap();
    let (h, read) = phast::hierarchy_file(&g, &path).unwrap();
    assert!(read);
    let mut eng = engine::open(&g, device()).unwrap();
    phast::attach(eng.as_mut(), h.clone()).unwrap();
    for src in [0, 1500, 2999] {
        let sol = solve(&g, Algo::Phast, Some(eng.as_mut()), src, &Options::default()).unwrap();
        assert!(sol.stats.prepare.is_zero(), "from {src}: the hierarchy was given");
        assert!(sol.stats.hierarchy_upload.is_zero(), "from {src}: prepared at attach, not by a solve");
        sssp::verify::compare(&sol.dist, &sssp::reference::dijkstra(&g, src).unwrap()).unwrap();
    }
    let other = Hierarchy::build(&g).unwrap();
    let sol = phast::solve_with(&g, eng.as_mut(), &other, 7).unwrap();
    if eng.is_gpu() {
        assert!(
            !sol.stats.hierarchy_upload.is_zero(),
            "a hierarchy the engine was not given is copied in by its solve"
        );
    }
    sssp::verify::compare(&sol.dist, &sssp::reference::dijkstra(&g, 7).unwrap()).unwrap();
    // A hierarchy of another graph is refused when given, not at its first solve.
    let small = generate(&GenSpec::parse("road:500").unwrap(), 6, WeightSpec::AsGiven).unwrap();
    let mut on_small = engine::open(&small, device()).unwrap();
    assert!(matches!(phast::attach(on_small.as_mut(), h), Err(Error::InvalidArgument(_))));
}

#[test]
fn bad_hierarchy_files_are_typed_errors() {
    let dir = TempDir::new("badch");
    let g = graph_with_a_core();
    let h = Hierarchy::build(&g).unwrap();
    let path = dir.path("h.ch");
    h.write(&g, &path).unwrap();
    let good = std::fs::read(&path).unwrap();
    let bad = dir.path("bad.ch");
    let parse_error = |bytes: &[u8], what: &str| -> String {
        std::fs::write(&bad, bytes).unwrap();
        match Hierarchy::read(&g, &bad) {
            Err(Error::Parse { line: 0, msg, .. }) => msg,
            other => panic!("{what}: expected a parse error, got {:?}", other.map(|h| h.stats)),
        }
    };
    // A corrupted byte is caught wherever it is (the checksum covers the whole file but the
    // magic, version and flags, which are checked themselves): every header byte, and body
    // bytes at a stride that visits every array; truncations likewise.
    for i in (0..104).chain((104..good.len()).step_by(61)) {
        let mut b = good.clone();
        b[i] ^= 0x41;
        parse_error(&b, &format!("byte {i} flipped"));
    }
    for len in (0..good.len()).step_by(97) {
        parse_error(&good[..len], &format!("truncated to {len}"));
    }
    let mut longer = good.clone();
    longer.extend([0u8; 8]);
    assert!(parse_error(&longer, "longer").contains("truncated or corrupt"));
    assert!(parse_error(b"hello", "text").contains("too short"));
    // Another graph: same size, other weights.
    let other = Graph::from_arcs(100, &[(0, 1, 1)]).unwrap();
    match Hierarchy::read(&other, &path) {
        Err(Error::Parse { msg, .. }) => assert!(msg.contains("another graph"), "{msg}"),
        r => panic!("expected a refusal, got {:?}", r.map(|h| h.stats)),
    }
    // A missing file is an I/O error naming it.
    assert!(matches!(Hierarchy::read(&g, &dir.path("none.ch")), Err(Error::Io { .. })));
}

#[test]
fn a_core_distance_too_far_to_store_is_an_overflow() {
    // All core (mean out-degree above CORE_DEGREE): a block of 80 vertices, each with arcs
    // of weight 1 to the next 70; a -> block[0] and block[5] -> b of weight 2^31 - 1. From a,
    // b lies at 2 (2^31 - 1) + 5 = 2^32 + 3: the table stores INF for it (saturated), and the
    // query reports the overflow at b; from block[0] every distance fits and is exact.
    let w = (1i64 << 31) - 1;
    let (a, b) = (80u32, 81u32);
    let mut arcs = vec![(a, 0, w), (5, b, w)];
    for i in 0..80u32 {
        for k in 1..=70u32 {
            arcs.push((i, (i + k) % 80, 1));
        }
    }
    let g = Graph::from_arcs(82, &arcs).unwrap();
    let h = Hierarchy::build(&g).unwrap();
    assert!(h.stats.core_table && h.stats.core == 82, "{:?}", h.stats);
    let mut eng = engine::open(&g, device()).unwrap();
    match solve(&g, Algo::Phast, Some(eng.as_mut()), a, &Options::default()) {
        Err(Error::DistanceOverflow { vertex, .. }) => assert_eq!(vertex, b),
        other => panic!("expected an overflow at {b}, got {other:?}"),
    }
    check(&g, &[0, 5, b], "saturated core");
}

#[test]
fn directed_disconnected_zero_weights_loops_and_parallel_arcs() {
    // Two one-way rings joined one way, an island, zero-weight arcs, self loops, parallel arcs.
    let mut arcs = vec![];
    for i in 0..50u32 {
        arcs.push((i, (i + 1) % 50, (i % 3) as i64));
        arcs.push((50 + i, 50 + (i + 1) % 50, 2));
        arcs.push((i, i, 0));
        arcs.push((i, (i + 1) % 50, 7));
    }
    arcs.push((10, 60, 0));
    arcs.push((100, 101, 1));
    let g = Graph::from_arcs(102, &arcs).unwrap();
    check(&g, &[0, 55, 100, 101], "rings");
    // One vertex, no arcs.
    let g = Graph::from_arcs(1, &[]).unwrap();
    check(&g, &[0], "one vertex");
}

#[test]
fn overflow_is_reported_as_by_every_strategy() {
    // A path of weights 2^31 - 2: two arcs fit below 2^32 - 1, three do not. Contraction
    // makes shortcuts of the sums (stored as INF when they do not fit).
    let w = (1i64 << 31) - 2;
    let g = Graph::from_arcs(4, &[(0, 1, w), (1, 2, w), (2, 3, w)]).unwrap();
    let mut eng = engine::open(&g, device()).unwrap();
    match solve(&g, Algo::Phast, Some(eng.as_mut()), 0, &Options::default()) {
        Err(Error::DistanceOverflow { vertex: 3, .. }) => {}
        other => panic!("expected an overflow at 3, got {other:?}"),
    }
    // From 1 everything fits.
    let sol = solve(&g, Algo::Phast, Some(eng.as_mut()), 1, &Options::default()).unwrap();
    assert_eq!(sol.dist, vec![UNREACHED, 0, w, 2 * w]);
}

#[test]
fn queries_and_trees_come_from_the_full_tree() {
    let g = generate(&GenSpec::parse("road:2000").unwrap(), 2, WeightSpec::AsGiven).unwrap();
    let mut eng = engine::open(&g, device()).unwrap();
    let want = sssp::reference::dijkstra(&g, 5).unwrap();
    let cutoff = want[100];
    let o = Options::default().with_cutoff(cutoff as u64).with_tree();
    let sol = solve(&g, Algo::Phast, Some(eng.as_mut()), 5, &o).unwrap();
    for (v, (&d, &w)) in sol.dist.iter().zip(&want).enumerate() {
        assert_eq!(d, if w <= cutoff { w } else { UNREACHED }, "vertex {v}");
    }
    sssp::verify::check_tree(&g, 5, &sol.dist, sol.parents.as_ref().unwrap()).unwrap();
    assert_eq!(sol.path(100).unwrap().first(), Some(&5));
}

#[test]
fn refusals_are_typed() {
    // Real weights: a shortcut would round differently from its path.
    let mut e = EdgeList::with_capacity(3, 2);
    e.push(0, 1, 1);
    e.push(1, 2, 1);
    let g = e.into_graph(WeightSpec::parse("real:0.5-2.5").unwrap(), false).unwrap();
    let mut eng = engine::open(&g, device()).unwrap();
    match solve(&g, Algo::Phast, Some(eng.as_mut()), 0, &Options::default()) {
        Err(Error::InvalidArgument(m)) => assert!(m.contains("integer"), "{m}"),
        other => panic!("expected a refusal, got {other:?}"),
    }
    // Negative weights.
    let g = Graph::from_arcs(3, &[(0, 1, 4), (1, 2, -1)]).unwrap();
    let mut eng = engine::open(&g, device()).unwrap();
    assert!(matches!(
        solve(&g, Algo::Phast, Some(eng.as_mut()), 0, &Options::default()),
        Err(Error::NegativeWeight { .. })
    ));
    // A batched engine.
    let g = generate(&GenSpec::parse("path:10").unwrap(), 1, WeightSpec::AsGiven).unwrap();
    let mut eng = engine::open_lanes(&g, device(), 4).unwrap();
    assert!(matches!(
        solve(&g, Algo::Phast, Some(eng.as_mut()), 0, &Options::default()),
        Err(Error::InvalidArgument(_))
    ));
}
