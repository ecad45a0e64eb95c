//! File formats end to end: random graphs written in every writable format (plain and
//! compressed) read back identical, and damaged binary files rejected with errors, never panics.

use std::io::Write;
use std::path::{Path, PathBuf};

use sssp::graph::Graph;
use sssp::io::{self, binary, Format, LoadOptions};
use sssp::rng::Rng;
use sssp::{EdgeList, Error, WeightSpec, Weights};
use sssp_tests::TempDir;

/// A fresh directory under the system temp dir, removed on drop.
/// A random multigraph with self loops; the last vertex always has an arc, so formats that infer
/// the vertex count from the largest id (edge lists) agree on it.
fn random_graph(seed: u64, n: u32, m: usize, signed: bool) -> Graph {
    let mut rng = Rng::new(seed);
    let mut e = EdgeList::with_capacity(n, m);
    for k in 0..m {
        let u = rng.below(n as u64) as u32;
        let v = if k == 0 { n - 1 } else { rng.below(n as u64) as u32 };
        let w = rng.below(1_000_001) as i64 - if signed { 300_000 } else { 0 };
        e.push(u, v, w);
    }
    e.into_graph_as_given().unwrap()
}

fn weights_of(g: &Graph) -> Vec<i64> {
    (0..g.num_arcs()).map(|e| g.weights().get(e)).collect()
}

fn assert_same(a: &Graph, b: &Graph, what: &str) {
    assert_eq!(a.num_vertices(), b.num_vertices(), "{what}: vertices");
    assert_eq!(a.offsets(), b.offsets(), "{what}: offsets");
    assert_eq!(a.targets(), b.targets(), "{what}: targets");
    assert_eq!(weights_of(a), weights_of(b), "{what}: weights");
    assert_eq!(
        matches!(a.weights(), Weights::Signed(_)),
        matches!(b.weights(), Weights::Signed(_)),
        "{what}: signedness"
    );
}

fn load(path: &Path) -> Graph {
    io::read_graph(path, &LoadOptions::default()).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn text_formats_round_trip() {
    let dir = TempDir::new("text");
    for (seed, signed) in [(1, false), (2, true)] {
        let g = random_graph(seed, 2_000, 30_000, signed);
        for (name, format) in
            [("g.gr", Format::Dimacs), ("g.wel", Format::WeightedEdgeList), ("g.mtx", Format::MatrixMarket)]
        {
            let p = dir.path(name);
            io::write_text(&g, &p, format).unwrap();
            assert_same(&g, &load(&p), name);
        }
    }
}

#[test]
fn binary_round_trip_through_both_entry_points() {
    let dir = TempDir::new("binary");
    for (seed, signed) in [(3, false), (4, true)] {
        let g = random_graph(seed, 5_000, 50_000, signed);
        let p = dir.path("g.sssp");
        binary::write(&g, &p).unwrap();
        assert_same(&g, &binary::open(&p).unwrap(), "binary::open");
        assert_same(&g, &load(&p), "read_graph");
        let q = dir.path("g2.bin");
        io::write_text(&g, &q, Format::Binary).unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), std::fs::read(&q).unwrap(), "deterministic bytes");
    }
}

#[test]
fn compressed_inputs_round_trip() {
    let dir = TempDir::new("gz");
    let g = random_graph(5, 3_000, 40_000, false);
    let plain = dir.path("g.gr");
    io::write_text(&g, &plain, Format::Dimacs).unwrap();
    // gzip written independently of the library (two members, as `cat a.gz b.gz` makes).
    let text = std::fs::read(&plain).unwrap();
    let gz = dir.path("g.gr.gz");
    let mut file = std::fs::File::create(&gz).unwrap();
    let (a, b) = text.split_at(text.len() / 2);
    for part in [a, b] {
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        enc.write_all(part).unwrap();
        file.write_all(&enc.finish().unwrap()).unwrap();
    }
    drop(file);
    assert_same(&g, &load(&gz), "gz");
    // A compressed file is recognised by its bytes even under a plain name.
    let renamed = dir.path("renamed.gr");
    std::fs::copy(&gz, &renamed).unwrap();
    assert_same(&g, &load(&renamed), "gz under a plain name");
    // The library's own compressed writers.
    for name in ["w.wel.gz", "w.wel.xz"] {
        let p = dir.path(name);
        io::write_text(&g, &p, Format::WeightedEdgeList).unwrap();
        assert_same(&g, &load(&p), name);
    }
    // A truncated gzip stream is an error, not a short graph.
    let bytes = std::fs::read(&gz).unwrap();
    let cut = dir.path("cut.gr.gz");
    std::fs::write(&cut, &bytes[..bytes.len() / 3]).unwrap();
    assert!(io::read_graph(&cut, &LoadOptions::default()).is_err());
}

#[test]
fn binary_options_and_compression() {
    let dir = TempDir::new("binopts");
    let g = random_graph(10, 500, 4_000, false);
    let p = dir.path("g.bin");
    binary::write(&g, &p).unwrap();
    // A gzipped binary file opens too (decompressed into memory).
    let gz = dir.path("g.bin.gz");
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    enc.write_all(&std::fs::read(&p).unwrap()).unwrap();
    std::fs::write(&gz, enc.finish().unwrap()).unwrap();
    assert_same(&g, &load(&gz), "bin.gz");
    // Options apply to binary inputs as to text ones.
    let opts = LoadOptions { weights: WeightSpec::Unit, symmetrize: true, ..Default::default() };
    let h = io::read_graph(&p, &opts).unwrap();
    assert_eq!(h.num_arcs(), 2 * g.num_arcs());
    assert_eq!(h.weight_range(), Some((1, 1)));
    let text = dir.path("g.el");
    io::write_text(&g, &text, Format::EdgeList).unwrap();
    assert_same(&io::read_graph(&text, &opts).unwrap(), &h, "same options, binary vs text");
    // What cannot be written is refused before a file is created.
    let metis = dir.path("g.graph");
    assert!(matches!(io::write_text(&g, &metis, Format::Metis), Err(Error::InvalidArgument(_))));
    assert!(!metis.exists());
}

#[test]
fn edge_list_parses_across_chunks_in_order() {
    let mut rng = Rng::new(6);
    let (n, m) = (100_000u32, 400_000usize);
    let mut text = String::from("# a SNAP-style header\n# FromNodeId\tToNodeId\n");
    let mut src = Vec::with_capacity(m);
    let mut dst = Vec::with_capacity(m);
    for k in 0..m {
        let u = rng.below(n as u64) as u32;
        let v = if k == m / 2 { n - 1 } else { rng.below(n as u64) as u32 };
        text.push_str(&format!("{u}\t{v}\n"));
        if k % 1000 == 0 {
            text.push_str("# a comment in the middle\n\n");
        }
        src.push(u);
        dst.push(v);
    }
    let e = io::parse_text(Path::new("mem.txt"), text.as_bytes(), Format::EdgeList, &LoadOptions::default()).unwrap();
    assert_eq!(e.num_vertices, n);
    assert_eq!(e.src, src);
    assert_eq!(e.dst, dst);
    assert!(e.weights.is_none());
    // Default weights for an unweighted file are GAP's random ones, in range.
    let g = e.into_graph(WeightSpec::AsGiven, false).unwrap();
    let (lo, hi) = g.weight_range().unwrap();
    assert!(lo >= 1 && hi <= 255);
}

#[test]
fn symmetrize_option_doubles_arcs() {
    let dir = TempDir::new("sym");
    let p = dir.path("g.el");
    std::fs::write(&p, "0 1\n1 2\n").unwrap();
    let opts = LoadOptions { symmetrize: true, weights: WeightSpec::Unit, ..Default::default() };
    let g = io::read_graph(&p, &opts).unwrap();
    assert_eq!(g.num_arcs(), 4);
    assert_eq!(g.neighbors(1).collect::<Vec<_>>(), vec![(2, 1), (0, 1)]);
    let e = io::read_edge_list(&p, &LoadOptions::default()).unwrap();
    assert_eq!(e.len(), 2);
}

#[test]
fn damaged_binary_files_are_errors() {
    let dir = TempDir::new("damaged");
    let g = random_graph(7, 1_000, 10_000, true);
    let p = dir.path("g.bin");
    binary::write(&g, &p).unwrap();
    let good = std::fs::read(&p).unwrap();
    let bad = dir.path("bad.bin");
    let expect_parse_error = |bytes: &[u8], what: &str| {
        std::fs::write(&bad, bytes).unwrap();
        match io::read_graph(&bad, &LoadOptions::default()) {
            Err(Error::Parse { line: 0, .. }) => {}
            other => panic!("{what}: expected a parse error, got {:?}", other.map(|g| g.num_arcs())),
        }
    };
    // A flipped bit anywhere: header, offsets, targets, padding, weights.
    let mut rng = Rng::new(8);
    let mut spots: Vec<usize> = (0..40).collect();
    spots.extend((0..200).map(|_| rng.below(good.len() as u64) as usize));
    spots.push(good.len() - 1);
    for &i in &spots {
        let mut b = good.clone();
        b[i] ^= 1 << (i % 8);
        expect_parse_error(&b, &format!("flip at byte {i}"));
    }
    for len in [0, 7, 39, 40, 41, good.len() / 2, good.len() - 1] {
        expect_parse_error(&good[..len], &format!("truncated to {len}"));
    }
    // A text file given the binary format.
    expect_parse_error(b"p sp 1 0\n", "text as binary");
}

#[test]
fn parse_errors_carry_file_and_line() {
    let dir = TempDir::new("errors");
    let p = dir.path("bad.gr");
    std::fs::write(&p, "c x\np sp 3 2\na 1 2 1\na 1 9 1\n").unwrap();
    match io::read_graph(&p, &LoadOptions::default()) {
        Err(Error::Parse { path, line, msg }) => {
            assert_eq!(path, p);
            assert_eq!(line, 4);
            assert_eq!(msg, "vertex 9 out of range 1..=3 (DIMACS ids are 1-based)");
        }
        other => panic!("{:?}", other.map(|g| g.num_arcs())),
    }
    let q = dir.path("graph.unknown");
    std::fs::write(&q, "").unwrap();
    assert!(matches!(io::read_graph(&q, &LoadOptions::default()), Err(Error::UnknownFormat { .. })));
    let opts = LoadOptions { format: Some(Format::EdgeList), ..Default::default() };
    std::fs::write(&q, "0 1\n").unwrap();
    assert_eq!(io::read_graph(&q, &opts).unwrap().num_arcs(), 1);
}

/// Every writable format, by a file name that selects it, and the compression suffixes.
const WRITABLE_NAMES: [&str; 8] = ["g.bin", "g.sssp", "g.gr", "g.mtx", "g.el", "g.txt", "g.snap", "g.wel"];
const SUFFIXES: [&str; 3] = ["", ".gz", ".xz"];

/// A small graph: any vertex count (trailing isolated vertices included, and none at all), any
/// arcs among them (loops, multi-arcs), weights anywhere in the u32 range or, when some weight
/// is negative, the i32 range.
fn arb_graph() -> impl proptest::strategy::Strategy<Value = Graph> {
    use proptest::prelude::*;
    (0u32..40, any::<bool>()).prop_flat_map(|(n, signed)| {
        let w = if signed { (i32::MIN as i64)..=(i32::MAX as i64) } else { 0..=(u32::MAX as i64) };
        let arcs =
            if n == 0 { Just(vec![]).boxed() } else { proptest::collection::vec((0..n, 0..n, w), 0..120).boxed() };
        arcs.prop_map(move |arcs| Graph::from_arcs(n, &arcs).unwrap())
    })
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

    /// Writing a graph in any writable format (plain or compressed) and reading it back gives the
    /// same graph: vertex count (trailing isolated vertices too), arcs in order, weights and
    /// their signedness.
    #[test]
    fn every_writable_format_round_trips(g in arb_graph(), which in 0usize..8, z in 0usize..3) {
        let dir = TempDir::new(&format!("prop-{which}-{z}"));
        let p = dir.path(&format!("{}{}", WRITABLE_NAMES[which], SUFFIXES[z]));
        let format = Format::from_path(&p).unwrap();
        proptest::prop_assert!(io::WRITABLE.contains(&format));
        io::write_text(&g, &p, format).unwrap();
        assert_same(&g, &load(&p), &p.display().to_string());
    }
}

#[test]
fn compressed_names_write_compressed_files() {
    let dir = TempDir::new("zmagic");
    let g = random_graph(11, 100, 500, false);
    for name in WRITABLE_NAMES {
        for (suffix, magic) in [(".gz", &[0x1f, 0x8b][..]), (".xz", &[0xfd, b'7', b'z', b'X', b'Z', 0][..])] {
            let p = dir.path(&format!("{name}{suffix}"));
            io::write_text(&g, &p, Format::from_path(&p).unwrap()).unwrap();
            assert!(std::fs::read(&p).unwrap().starts_with(magic), "{name}{suffix} is not compressed");
        }
    }
}

/// Parse throughput on a large generated edge list (not part of the normal run):
///
/// `SSSP_PARSE_EDGES=100000000 cargo test --release -p sssp-tests --test formats -- --ignored --nocapture parse_throughput`
///
/// The file is written to the temp dir first (not timed), then `read_edge_list` is timed
/// (read + parse), and the file is deleted. `SSSP_PARSE_FILE=path` times an existing file instead.
#[test]
#[ignore]
fn parse_throughput() {
    let dir = TempDir::new("throughput");
    let path = match std::env::var_os("SSSP_PARSE_FILE") {
        Some(p) => PathBuf::from(p),
        None => {
            let edges: usize =
                std::env::var("SSSP_PARSE_EDGES").ok().and_then(|s| s.parse().ok()).unwrap_or(10_000_000);
            let path = dir.path("big.el");
            write_random_edge_list(&path, edges);
            path
        }
    };
    let bytes = std::fs::metadata(&path).unwrap().len();
    for _ in 0..2 {
        let t = std::time::Instant::now();
        let e = io::read_edge_list(&path, &LoadOptions::default()).unwrap();
        let secs = t.elapsed().as_secs_f64();
        println!(
            "read_edge_list: {} edges, {:.1} MB in {secs:.2} s = {:.0} MB/s ({} threads)",
            e.len(),
            bytes as f64 / 1e6,
            bytes as f64 / 1e6 / secs,
            rayon_threads()
        );
    }
}

/// `edges` lines `u v` with ids below edges / 6 (about GAP's average degree).
fn write_random_edge_list(path: &Path, edges: usize) {
    let n: u64 = (edges as u64 / 6).max(2);
    let mut out = std::io::BufWriter::with_capacity(1 << 22, std::fs::File::create(path).unwrap());
    let mut rng = Rng::new(9);
    let mut line = String::new();
    for _ in 0..edges {
        use std::fmt::Write as _;
        line.clear();
        writeln!(line, "{} {}", rng.below(n), rng.below(n)).unwrap();
        out.write_all(line.as_bytes()).unwrap();
    }
    out.flush().unwrap();
}

fn rayon_threads() -> String {
    std::env::var("RAYON_NUM_THREADS")
        .unwrap_or_else(|_| std::thread::available_parallelism().map_or(1, |n| n.get()).to_string())
}

/// GAP's `.wsg` keeps a graph with `i32` weights exactly (directed with its transpose, or
/// built both ways as undirected), plain and compressed; `.sg` keeps the arcs and drops the
/// weights, and an undirected `.sg` read back gives both arcs of an edge the same weight.
#[test]
fn gap_serialized_graphs_round_trip() {
    let dir = TempDir::new("gap");
    for (k, g) in [random_graph(31, 300, 2_000, false), random_graph(32, 300, 2_000, true)].into_iter().enumerate() {
        for suffix in ["", ".gz"] {
            let p = dir.path(&format!("g{k}.wsg{suffix}"));
            io::write_text(&g, &p, Format::GapWeighted).unwrap();
            assert_same(&g, &load(&p), &p.display().to_string());
        }
        let p = dir.path(&format!("g{k}.sg"));
        io::write_text(&g, &p, Format::GapSerialized).unwrap();
        let unit = LoadOptions { weights: WeightSpec::Unit, ..Default::default() };
        let back = io::read_graph(&p, &unit).unwrap();
        assert_eq!((back.offsets(), back.targets()), (g.offsets(), g.targets()), "{}", p.display());
        assert!(weights_of(&back).iter().all(|&w| w == 1));
    }
    // Undirected (built both ways): the flag says so, the file has no transpose, and the graph
    // comes back both ways.
    let mut e = EdgeList::with_capacity(50, 120);
    let mut rng = Rng::new(33);
    for _ in 0..120 {
        let (u, v) = (rng.below(50) as u32, rng.below(50) as u32);
        if u != v {
            e.push(u, v, rng.below(1000) as i64);
        }
    }
    let g = e.into_graph(WeightSpec::AsGiven, true).unwrap();
    assert!(g.built_both_ways());
    let p = dir.path("u.wsg");
    io::write_text(&g, &p, Format::GapWeighted).unwrap();
    let bytes = std::fs::read(&p).unwrap();
    assert_eq!(bytes[0], 0, "undirected flag");
    assert_eq!(bytes.len(), 17 + 8 * 51 + 8 * g.num_arcs(), "no transpose");
    let back = load(&p);
    assert_same(&g, &back, "undirected .wsg");
    assert!(back.built_both_ways());
    let p = dir.path("u.sg");
    io::write_text(&g, &p, Format::GapSerialized).unwrap();
    let back = load(&p); // random weights, the same on both arcs of an edge
    assert_eq!(back.num_arcs(), g.num_arcs());
    for u in 0..50u32 {
        for (v, w) in back.neighbors(u) {
            assert!(back.neighbors(v).any(|(x, y)| x == u && y == w), "{u} -> {v} ({w}) has no twin");
        }
    }
}

#[test]
fn gap_writes_refuse_what_wsg_cannot_hold() {
    let dir = TempDir::new("gap-refuse");
    let big = Graph::from_arcs(2, &[(0, 1, i32::MAX as i64 + 1)]).unwrap();
    let p = dir.path("big.wsg");
    assert!(matches!(io::write_text(&big, &p, Format::GapWeighted), Err(Error::InvalidArgument(_))));
    assert!(!p.exists(), "refused before the file is created");
    io::write_text(&big, &dir.path("big.sg"), Format::GapSerialized).unwrap(); // no weights: fine
    let mut e = EdgeList::with_capacity(2, 1);
    e.real = true;
    e.push(0, 1, 1.5f32.to_bits() as i64);
    let real = e.into_graph_as_given().unwrap();
    assert!(matches!(io::write_text(&real, &dir.path("r.wsg"), Format::GapWeighted), Err(Error::InvalidArgument(_))));
}

#[test]
fn damaged_gap_files_are_errors() {
    let dir = TempDir::new("gap-damaged");
    let g = random_graph(34, 100, 800, false);
    let p = dir.path("g.wsg");
    io::write_text(&g, &p, Format::GapWeighted).unwrap();
    let good = std::fs::read(&p).unwrap();
    let bad = dir.path("bad.wsg");
    let expect_parse_error = |bytes: &[u8], what: &str| {
        std::fs::write(&bad, bytes).unwrap();
        match io::read_graph(&bad, &LoadOptions::default()) {
            Err(Error::Parse { line: 0, msg, .. }) => msg,
            other => panic!("{what}: expected a parse error, got {:?}", other.map(|g| g.num_arcs())),
        }
    };
    for len in [0, 1, 16, 17, good.len() / 2, good.len() - 1] {
        expect_parse_error(&good[..len], &format!("truncated to {len}"));
    }
    let mut b = good.clone();
    b[0] = 2;
    assert!(expect_parse_error(&b, "directed byte").contains("expected 0 or 1"));
    // A header that promises 2^40 vertices in a small file: refused by the length check, before
    // anything the size of the claim is allocated.
    let mut b = good.clone();
    b[9..17].copy_from_slice(&(1i64 << 31).to_le_bytes());
    expect_parse_error(&b, "huge n");
    let mut b = good.clone();
    b[1..9].copy_from_slice(&(-5i64).to_le_bytes());
    assert!(expect_parse_error(&b, "negative m").contains("negative"));
    // A decreasing offset, and an arc to a vertex past n.
    let mut b = good.clone();
    b[17 + 8..17 + 16].copy_from_slice(&(900i64).to_le_bytes());
    assert!(expect_parse_error(&b, "offsets").contains("offsets"));
    let mut b = good.clone();
    let first_arc = 17 + 8 * 101;
    b[first_arc..first_arc + 4].copy_from_slice(&(100i32).to_le_bytes());
    assert!(expect_parse_error(&b, "head").contains("not below n"));
    // A .wsg read as .sg: the length does not add up.
    let as_sg = dir.path("g.sg");
    std::fs::copy(&p, &as_sg).unwrap();
    assert!(matches!(io::read_graph(&as_sg, &LoadOptions::default()), Err(Error::Parse { .. })));
}
