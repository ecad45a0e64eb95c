//! The `sssp` binary end to end: documented exit codes, error messages that name file and line,
//! and outputs that agree across formats and devices.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn sssp(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sssp")).args(args).output().expect("run sssp")
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sssp-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn text(o: &Output) -> (String, String) {
    (String::from_utf8_lossy(&o.stdout).into(), String::from_utf8_lossy(&o.stderr).into())
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn gen_run_verify_on_cpu() {
    let g = tmp("grid.gr");
    let o = sssp(&["gen", "grid2d:30x20", "-o", s(&g), "--seed", "5"]);
    assert!(o.status.success(), "{:?}", text(&o));
    assert!(text(&o).1.contains("seed 5"));
    for algo in ["dijkstra", "bellman-ford", "topo-bf", "workfront"] {
        let o = sssp(&["run", s(&g), "--algo", algo, "--device", "cpu", "--verify", "--trials", "3"]);
        let (out, err) = text(&o);
        assert!(o.status.success(), "{algo}: {err}");
        assert_eq!(out.matches("verified").count(), 3, "{algo}: {out}");
        // Where the certificate ran: on the engine after an engine algorithm; the reference
        // only for the first source (a small graph).
        let on = if matches!(algo, "dijkstra" | "bellman-ford") { "host" } else { "device" };
        assert_eq!(out.matches(&format!("verified (certificate on the {on} in ")).count(), 3, "{algo}: {out}");
        assert_eq!(out.matches("+reference)").count(), 1, "{algo}: {out}");
    }
    // Asked for: the host's certificate after an engine run, the reference on every graph.
    let o = sssp(&["run", s(&g), "-a", "near-far", "--device", "cpu", "--verify", "--host-certificate", "--reference"]);
    let (out, err) = text(&o);
    assert!(
        o.status.success() && out.contains("verified (certificate on the host in ") && out.contains("+reference)"),
        "{out}{err}"
    );
    // Both need --verify.
    for flag in ["--reference", "--host-certificate"] {
        let o = sssp(&["run", s(&g), "--device", "cpu", flag]);
        assert_eq!(o.status.code(), Some(2), "{flag}: {:?}", text(&o));
    }
}

#[test]
fn formats_agree_on_distances() {
    let gr = tmp("k.gr");
    let bin = tmp("k.bin");
    let wel = tmp("k.wel");
    assert!(sssp(&["gen", "kron:9", "-o", s(&gr)]).status.success());
    assert!(sssp(&["convert", s(&gr), s(&bin)]).status.success());
    assert!(sssp(&["convert", s(&bin), s(&wel)]).status.success());
    let mut outs = vec![];
    for (i, f) in [&gr, &bin, &wel].iter().enumerate() {
        let out = tmp(&format!("d{i}.txt"));
        let o = sssp(&["run", s(f), "--source", "3", "--device", "cpu", "-o", s(&out)]);
        assert!(o.status.success(), "{:?}", text(&o));
        outs.push(std::fs::read_to_string(out).unwrap());
    }
    assert_eq!(outs[0], outs[1]);
    assert_eq!(outs[0], outs[2]);
    assert!(outs[0].lines().next().unwrap().starts_with("0 "));
}

#[test]
fn malformed_input_names_file_and_line_exit_4() {
    let g = tmp("bad.gr");
    std::fs::write(&g, "c test\np sp 3 2\na 1 2 5\na 2 x 1\n").unwrap();
    let o = sssp(&["run", s(&g), "--source", "0"]);
    assert_eq!(o.status.code(), Some(4));
    let err = text(&o).1;
    assert!(err.contains(&format!("{}:4:", s(&g))), "{err}");
    let o = sssp(&["info", s(&tmp("missing.gr"))]);
    assert_eq!(o.status.code(), Some(4));
}

#[test]
fn bad_source_and_arguments_exit_2() {
    let o = sssp(&["run", "gen:path:10", "--source", "10", "--device", "cpu"]);
    assert_eq!(o.status.code(), Some(2), "{:?}", text(&o));
    assert!(text(&o).1.contains("vertex 10 is out of range"));
    let o = sssp(&["run", "gen:path:10", "--algo", "nope"]);
    assert_eq!(o.status.code(), Some(2));
    let o = sssp(&["run", "gen:path:10", "--balance", "diagonal", "--device", "cpu"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn negative_weights_run_on_workfront_and_bellman_ford() {
    let g = tmp("neg.gr");
    std::fs::write(&g, "p sp 3 3\na 1 2 4\na 2 3 -2\na 1 3 3\n").unwrap();
    // Workfront and topo-bf take negative weights on the engines; all agree with Bellman-Ford.
    let mut outs = vec![];
    for algo in ["workfront", "topo-bf", "bellman-ford"] {
        let out = tmp(&format!("neg-{algo}.txt"));
        let o = sssp(&["run", s(&g), "--source", "0", "--algo", algo, "--device", "cpu", "--verify", "-o", s(&out)]);
        assert!(o.status.success(), "{algo}: {:?}", text(&o));
        outs.push(std::fs::read_to_string(out).unwrap());
    }
    assert!(outs.iter().all(|x| x == "0 0\n1 4\n2 2\n"), "{outs:?}");
    // The error names the algorithm the user chose and the ones that accept negative weights.
    // Exit 2: the algorithm named cannot take the graph (auto would pick Bellman-Ford).
    // Both used to exit 1.
    for algo in ["near-far", "dijkstra"] {
        let o = sssp(&["run", s(&g), "--source", "0", "--algo", algo, "--device", "cpu"]);
        assert_eq!(o.status.code(), Some(2), "{algo}");
        let err = text(&o).1;
        assert!(err.contains("negative edge weight -2 on arc 1 -> 2"), "{err}");
        assert!(err.contains(&format!("`{algo}`")) && err.contains("workfront") && !err.contains("GPU"), "{err}");
    }
    // auto picks Bellman-Ford on the CPU and says so.
    let o = sssp(&["run", s(&g), "--source", "0", "--verify", "--device", "cpu"]);
    assert!(o.status.success(), "{:?}", text(&o));
    assert!(text(&o).1.contains("auto: bellman-ford"), "{:?}", text(&o));
    // Cutoffs and batches are refused with a reason.
    let o = sssp(&["run", s(&g), "--source", "0", "--algo", "workfront", "--cutoff", "3", "--device", "cpu"]);
    assert_eq!(o.status.code(), Some(2), "{:?}", text(&o));
    // A reachable negative cycle: exit 6 with the cycle and its weight, from every algorithm.
    std::fs::write(&g, "p sp 4 4\na 1 2 1\na 2 3 -1\na 3 2 -1\na 4 4 -5\n").unwrap();
    for algo in ["workfront", "topo-bf", "bellman-ford"] {
        let o = sssp(&["run", s(&g), "--source", "0", "--algo", algo, "--device", "cpu"]);
        assert_eq!(o.status.code(), Some(6), "{algo}: {:?}", text(&o));
        assert!(
            text(&o).1.contains("negative cycle is reachable from the source: 1 -> 2 -> 1 (total weight -2)"),
            "{:?}",
            text(&o)
        );
    }
}

#[test]
fn gpu_request_without_gpu_is_exit_5() {
    let o = sssp(&["run", "gen:path:10", "--source", "0", "--device", "gpu"]);
    // On the GPU machine this succeeds; everywhere else it must be the typed "no GPU" error,
    // never a silent CPU fallback.
    match o.status.code() {
        Some(0) => assert!(text(&o).0.contains("(CUDA, ")),
        Some(5) => assert!(text(&o).1.contains("GPU not available"), "{:?}", text(&o)),
        c => panic!("unexpected exit {c:?}: {:?}", text(&o)),
    }
    let o = sssp(&["run", "gen:path:10", "--source", "0", "--device", "auto"]);
    assert!(o.status.success());
}

#[test]
fn tree_output_path_and_trace() {
    let tree = tmp("tree.txt");
    let trace = tmp("trace.csv");
    let o = sssp(&[
        "run",
        "gen:path:6",
        "--weights",
        "unit",
        "--source",
        "0",
        "--device",
        "cpu",
        "-o",
        s(&tree),
        "--output-kind",
        "tree",
        "--trace",
        s(&trace),
    ]);
    assert!(o.status.success(), "{:?}", text(&o));
    assert_eq!(std::fs::read_to_string(&tree).unwrap(), "0 - 0\n1 0 1\n2 1 2\n3 2 3\n4 3 4\n5 4 5\n");
    let csv = std::fs::read_to_string(&trace).unwrap();
    assert!(csv.starts_with("iter,frontier,arcs,micros,bucket,far,slots\n1,1,1,"), "{csv}");
    assert_eq!(csv.lines().count(), 1 + 6);
    let o = sssp(&["plot", s(&trace), "-o", s(&tmp("trace.svg"))]);
    assert!(o.status.success(), "{:?}", text(&o));
    let o = sssp(&["path", "gen:path:6", "--weights", "unit", "--source", "5", "--target", "2", "--device", "cpu"]);
    let out = text(&o).0;
    assert!(out.contains("distance 3") && out.contains("5 4 3 2"), "{out}");
}

#[test]
fn bench_verifies_and_prints_a_row_per_config() {
    let o = sssp(&[
        "bench",
        "gen:uniform:2000:4",
        "--device",
        "cpu",
        "--trials",
        "2",
        "--algos",
        "dijkstra,workfront",
        "--balance",
        "thread,partition",
        "--dedupe",
        "stamp",
        "--reference",
    ]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert_eq!(out.lines().filter(|l| l.starts_with("workfront")).count(), 2, "{out}");
    assert_eq!(out.lines().filter(|l| l.starts_with("dijkstra")).count(), 1, "{out}");
}

#[test]
fn block_loop_rows_and_refusals() {
    // `--loops grid,block`: a block row per frontier config that can run in it (not lookup),
    // one row for the rest.
    let o = sssp(&[
        "bench",
        "gen:grid2d:20x20",
        "--device",
        "cpu",
        "--trials",
        "1",
        "--algos",
        "dijkstra,near-far",
        "--balance",
        "vwarp",
        "--dedupe",
        "stamp,lookup",
        "--loops",
        "grid,block",
    ]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert_eq!(out.lines().filter(|l| l.starts_with("near-far")).count(), 3, "{out}");
    assert_eq!(out.lines().filter(|l| l.contains("vwarp+blk")).count(), 1, "{out}");
    assert_eq!(out.lines().filter(|l| l.starts_with("dijkstra")).count(), 1, "{out}");
    let o = sssp(&["run", "gen:grid2d:20x20", "--algo", "bucketing", "--device", "cpu", "--block-loop", "--verify"]);
    assert!(o.status.success(), "{:?}", text(&o));
    let o = sssp(&[
        "run",
        "gen:grid2d:20x20",
        "--algo",
        "near-far",
        "--device",
        "cpu",
        "--block-loop",
        "--dedupe",
        "lookup",
    ]);
    assert_eq!(o.status.code(), Some(2), "{:?}", text(&o));
    assert!(text(&o).1.contains("block loop does not support lookup dedupe"), "{:?}", text(&o));
    let o = sssp(&["bench", "gen:grid2d:20x20", "--device", "cpu", "--loops", "grid,fast"]);
    assert_eq!(o.status.code(), Some(2), "{:?}", text(&o));
}

#[test]
fn empty_graph_is_an_error_not_a_silent_success() {
    // A usage error (exit 2: an empty file is a graph, with no source to solve from) that
    // names the file, for every command that needs a source.
    for (name, content) in [("empty.gr", "p sp 0 0\n"), ("empty.el", ""), ("comments.el", "# nothing\n")] {
        let g = tmp(name);
        std::fs::write(&g, content).unwrap();
        for cmd in [&["run", s(&g)][..], &["bench", s(&g)], &["path", s(&g), "-s", "0", "-t", "0"]] {
            let o = sssp(&[cmd, &["--device", "cpu"]].concat());
            let err = text(&o).1;
            assert_eq!(o.status.code(), Some(2), "{cmd:?}: {err}");
            assert!(err.contains(&format!("{}: the graph has no vertices", s(&g))), "{cmd:?}: {err}");
        }
    }
}

#[test]
fn bad_files_are_exit_4_with_the_file_named() {
    // An id beyond the 32-bit ids is a parse error with file and line, not a bad argument.
    let g = tmp("bigid.el");
    std::fs::write(&g, "0 1\n4294967296 0\n").unwrap();
    let o = sssp(&["info", s(&g)]);
    let err = text(&o).1;
    assert_eq!(o.status.code(), Some(4), "{err}");
    assert!(err.contains(&format!("{}:2:", s(&g))), "{err}");
    // A binary file whose flag says signed but has no negative weight: named, and no `:0:`.
    let b = tmp("flag.bin");
    assert!(sssp(&["gen", "path:5", "-o", s(&b)]).status.success());
    let mut bytes = std::fs::read(&b).unwrap();
    bytes[12] |= 1;
    std::fs::write(&b, &bytes).unwrap();
    let o = sssp(&["run", s(&b), "-s", "0", "--device", "cpu"]);
    let err = text(&o).1;
    assert_eq!(o.status.code(), Some(4), "{err}");
    assert!(err.contains(&format!("{}: ", s(&b))) && !err.contains(":0:"), "{err}");
}

#[test]
fn unwritable_outputs_fail_before_any_work() {
    let bad = tmp("no-such-dir").join("out.txt");
    // A graph file that does not exist: if the output were checked after loading, the error
    // would be about the input.
    let missing = tmp("missing-input.gr");
    for args in [
        vec!["run", s(&missing), "-s", "0", "-o", s(&bad)],
        vec!["run", s(&missing), "-s", "0", "--trace", s(&bad)],
        vec!["convert", s(&missing), s(&bad)],
    ] {
        let o = sssp(&args);
        let err = text(&o).1;
        assert_eq!(o.status.code(), Some(4), "{args:?}: {err}");
        assert!(err.contains("no-such-dir/out.txt"), "{args:?}: {err}");
    }
    let o = sssp(&["gen", "kron:4", "-o", s(&tmp("no-such-dir").join("k.bin"))]);
    assert_eq!(o.status.code(), Some(4), "{:?}", text(&o));
    assert!(!text(&o).1.contains("generated"));
    // The check leaves no file behind.
    let fine = tmp("checked.txt");
    assert!(sssp(&["run", "gen:path:3", "-s", "0", "-o", s(&fine), "--device", "cpu"]).status.success());
    assert!(std::fs::read_to_string(&fine).unwrap().starts_with("0 0\n"));
}

#[test]
fn info_reports_counts() {
    let o = sssp(&["info", "gen:disconnected:3:30", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["vertices"], 30);
    assert_eq!(v["weak_components"], 3);
}

/// `sssp ARGS` with its address space limited to `kib` KiB (`ulimit -v`), so that "does not
/// fit" does not depend on the machine the tests run on.
#[cfg(target_os = "linux")]
fn sssp_limited(kib: u64, args: &[&str]) -> Output {
    let script = format!("ulimit -v {kib} && exec \"$0\" \"$@\"");
    Command::new("sh").arg("-c").arg(script).arg(env!("CARGO_BIN_EXE_sssp")).args(args).output().expect("run sh")
}

#[cfg(target_os = "linux")]
#[test]
fn impossible_sizes_are_typed_errors_not_aborts() {
    // 4294967295 vertices for one arc: implausible, refused at the header (exit 4). With
    // --sparse-ids they need about 70 GB of offsets, more than the 4 GB allowed here: a typed
    // error (exit 5) naming the bytes, not "memory allocation of N bytes failed" and SIGABRT.
    let g = tmp("huge.gr");
    std::fs::write(&g, "p sp 4294967295 1\na 1 2 1\n").unwrap();
    let o = sssp(&["run", s(&g), "-s", "0", "--device", "cpu"]);
    let err = text(&o).1;
    assert_eq!(o.status.code(), Some(4), "{err}");
    assert!(err.contains(&format!("{}:1:", s(&g))) && err.contains("--sparse-ids"), "{err}");
    let t = std::time::Instant::now();
    let o = sssp_limited(4_000_000, &["run", s(&g), "-s", "0", "--device", "cpu", "--sparse-ids"]);
    let err = text(&o).1;
    assert_eq!(o.status.code(), Some(5), "{err}");
    assert!(err.contains("out of host memory") && err.contains("bytes"), "{err}");
    assert!(t.elapsed().as_secs() < 10);
    // A header that declares more arcs than the file can hold is refused at the header line.
    std::fs::write(&g, "p sp 3 3000000000\na 1 2 1\n").unwrap();
    let o = sssp(&["info", s(&g)]);
    let err = text(&o).1;
    assert_eq!(o.status.code(), Some(4), "{err}");
    assert!(err.contains(&format!("{}:1:", s(&g))) && err.contains("only 8 bytes"), "{err}");
}

#[test]
fn sparse_edge_list_ids_are_refused_quickly() {
    // Two arcs whose ids imply 400 million (or 4 billion) vertices: refused with file and line
    // in well under a second, instead of a minute and 10 GB (or an abort).
    let g = tmp("sparse.el");
    for big in ["400000000", "4000000000"] {
        std::fs::write(&g, format!("0 1\n1 {big}\n")).unwrap();
        let t = std::time::Instant::now();
        let o = sssp(&["run", s(&g), "-s", "0", "--device", "cpu"]);
        let err = text(&o).1;
        assert_eq!(o.status.code(), Some(4), "{err}");
        assert!(err.contains(&format!("{}:2:", s(&g))) && err.contains("--sparse-ids"), "{err}");
        assert!(t.elapsed().as_secs() < 10);
    }
}

#[test]
fn implausible_vertex_counts_are_refused_at_their_line() {
    // A few bytes declaring hundreds of millions of vertices took 25-40 s and 14 GB
    // before exit 5, or aborted. Each is now a malformed file (exit 4) naming the header's line,
    // at once, for every command that loads a graph.
    let cases = [
        ("n3e8.mtx", "%%MatrixMarket matrix coordinate real general\n300000000 300000000 1\n1 2 1.5\n", 2),
        ("p4e8.gr", "p sp 400000000 1\na 1 2 3\n", 1),
        ("v4e8.el", "# vertices: 400000001\n0 1\n1 400000000\n", 1),
    ];
    for (name, body, line) in cases {
        let g = tmp(name);
        std::fs::write(&g, body).unwrap();
        for cmd in [&["run", s(&g), "-s", "0", "--device", "cpu"][..], &["info", s(&g)], &["diameter", s(&g)]] {
            let t = std::time::Instant::now();
            let o = sssp(cmd);
            let err = text(&o).1;
            assert_eq!(o.status.code(), Some(4), "{cmd:?}: {err}");
            assert!(err.contains(&format!("{}:{line}:", s(&g))) && err.contains("--sparse-ids"), "{cmd:?}: {err}");
            assert!(t.elapsed().as_secs() < 5, "{cmd:?}");
        }
    }
}

#[test]
fn convert_keeps_real_weights_real() {
    // A real .mtx whose weights are 1.0 and 2.0 became `0 1 1` in an edge list and
    // read back as an integer graph.
    let m = tmp("whole.mtx");
    std::fs::write(&m, "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 1.0\n2 3 2.0\n").unwrap();
    for out in ["whole.el", "whole.wel"] {
        let out = tmp(out);
        let o = sssp(&["convert", s(&m), s(&out)]);
        assert!(o.status.success(), "{:?}", text(&o));
        assert!(std::fs::read_to_string(&out).unwrap().contains("0 1 1.0\n"));
        let o = sssp(&["info", s(&out), "--json"]);
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(v["real_weights"], true, "{}", s(&out));
    }
    // One decimal makes an edge list real; an integer beside it that f32 cannot hold is refused.
    let el = tmp("mixed-real.el");
    std::fs::write(&el, "0 1 0.5\n1 2 16777217\n").unwrap();
    let o = sssp(&["info", s(&el)]);
    let err = text(&o).1;
    assert_eq!(o.status.code(), Some(4), "{err}");
    assert!(err.contains(&format!("{}:2:", s(&el))) && err.contains("16777217"), "{err}");
}

#[cfg(target_os = "linux")]
#[test]
fn generators_too_big_for_the_limit_are_refused_at_once() {
    // `sssp run gen:kron:27` under a 16 GB limit aborted in the generator after
    // allocating 8.6 GB. Its build needs over 50 GB: exit 5 before any work.
    for cmd in [&["info", "gen:kron:27"][..], &["run", "gen:kron:27", "-s", "0", "--device", "cpu"]] {
        let t = std::time::Instant::now();
        let o = sssp_limited(16_000_000, cmd);
        let err = text(&o).1;
        assert_eq!(o.status.code(), Some(5), "{cmd:?}: {err}");
        assert!(err.contains("out of host memory"), "{err}");
        assert!(t.elapsed().as_secs() < 5, "{cmd:?}");
    }
    // A small one under the same limit runs.
    assert!(sssp_limited(16_000_000, &["info", "gen:kron:10"]).status.success());
}

/// A compressed file is its decompressed bytes: 2 MB of gzip that expand to 2 GB (a "zip bomb",
/// 256 copies of one member) must end as out of host memory (exit 5) once the text outgrows
/// what the process may have, not as an I/O error (exit 4, "out of memory"), an abort or the
/// OOM killer. Each growth of the buffer is checked against memory first; and a stream that
/// expands past 100 times the compressed bytes read (at least 256 MiB) is refused there as a
/// bomb (exit 4, `io::EXPANSION`).
#[cfg(target_os = "linux")]
#[test]
fn decompression_beyond_memory_is_out_of_host_memory() {
    use std::io::Write;
    let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    z.write_all(&vec![b'\n'; 8 << 20]).unwrap();
    let member = z.finish().unwrap();
    let g = tmp("bomb.gr.gz");
    std::fs::write(&g, member.repeat(256)).unwrap();
    // 2 GiB from 2 MB: past the expansion limit (the 256 MiB floor), so under a 250 MB limit
    // the memory rule refuses it first (exit 5), and without a limit the expansion rule (exit 4).
    for cmd in [&["info", s(&g)][..], &["run", s(&g), "-s", "0", "--device", "cpu"]] {
        let t = std::time::Instant::now();
        let o = sssp_limited(250_000, cmd);
        let err = text(&o).1;
        assert_eq!(o.status.code(), Some(5), "{cmd:?}: {err}");
        assert!(err.contains("out of host memory"), "{err}");
        assert!(t.elapsed().as_secs() < 10, "{cmd:?}");
        let t = std::time::Instant::now();
        let o = sssp(cmd);
        let err = text(&o).1;
        assert_eq!(o.status.code(), Some(4), "{cmd:?}: {err}");
        assert!(err.contains("decompression bomb") && err.contains("100x"), "{err}");
        assert!(t.elapsed().as_secs() < 10, "{cmd:?}");
    }
}

/// Found by the fuzzer (`dimacs`): a mutated 10 MB gzip whose deflate data refers back
/// before its own start ("invalid distance too far back") was decoded anyway, as 680 MB of
/// output, before a checksum mismatch refused it. The stream is now refused where it breaks.
/// Here: 4 MB of matches of length 258 at distance 1 with nothing before them, 660 MB if
/// decoded, under a 600 MB limit.
#[cfg(target_os = "linux")]
#[test]
fn corrupt_gzip_is_refused_where_it_breaks() {
    let mut deflate = vec![];
    let (mut acc, mut bits) = (0u64, 0u32);
    let mut put = |v: u64, len: u32, out: &mut Vec<u8>| {
        acc |= v << bits;
        bits += len;
        while bits >= 8 {
            out.push(acc as u8);
            acc >>= 8;
            bits -= 8;
        }
    };
    put(0b011, 3, &mut deflate); // the final block, fixed Huffman codes
                                 // Length code 285 (258 bytes: 8 bits 11000101, sent most significant first), distance code 0.
    let length = (0..8).fold(0u64, |r, i| r | ((0b1100_0101u64 >> i) & 1) << (7 - i));
    for _ in 0..(4u64 << 20) * 8 / 13 {
        put(length, 13, &mut deflate);
    }
    put(0, 7 + 7, &mut deflate); // end of block, then padding to a byte
    let mut gz = vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff];
    gz.extend_from_slice(&deflate);
    gz.extend_from_slice(&[0; 8]);
    let g = tmp("far-back.gr.gz");
    std::fs::write(&g, gz).unwrap();
    let t = std::time::Instant::now();
    let o = sssp_limited(600_000, &["info", s(&g)]);
    let err = text(&o).1;
    assert_eq!(o.status.code(), Some(4), "{err}");
    assert!(err.contains("corrupt or truncated gzip data"), "{err}");
    assert!(t.elapsed().as_secs() < 5);
}

#[cfg(target_os = "linux")]
#[test]
fn sparse_ids_that_cannot_fit_are_refused_at_once() {
    // With --sparse-ids the declared count is checked against memory before anything is
    // allocated: exit 5 at once under a 2 GB limit, not after 25 s of allocating.
    let g = tmp("sparse-fit.el");
    std::fs::write(&g, "# vertices: 4000000000\n0 1\n").unwrap();
    let t = std::time::Instant::now();
    let o = sssp_limited(2_000_000, &["info", s(&g), "--sparse-ids"]);
    let err = text(&o).1;
    assert_eq!(o.status.code(), Some(5), "{err}");
    assert!(t.elapsed().as_secs() < 5);
    // What fits loads.
    std::fs::write(&g, "# vertices: 2000000\n0 1\n").unwrap();
    let o = sssp(&["info", s(&g), "--sparse-ids", "--json"]);
    assert!(o.status.success(), "{:?}", text(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["vertices"], 2_000_000);
}

#[test]
fn closed_stdout_ends_quietly() {
    // The reader is gone before the first line (as with `| head -1` once it has its line):
    // exit 0 and no panic message, for every command that prints lines.
    use std::process::Stdio;
    for args in [
        &["run", "gen:path:10", "--trials", "50", "--device", "cpu"][..],
        &["bench", "gen:path:10", "--json", "--trials", "2", "--device", "cpu"][..],
        &["info", "gen:path:10"][..],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_sssp"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let o = child.wait_with_output().unwrap();
        let err = text(&o).1;
        assert_eq!(o.status.code(), Some(0), "{args:?}: {err}");
        assert!(!err.contains("panicked") && !err.contains("Broken pipe"), "{args:?}: {err}");
    }
}

#[test]
fn written_edge_lists_keep_weights_and_binary_gz_is_compressed() {
    // `gen path:10` has weights; an edge list written from it must give the same distances as
    // the generated graph itself (not random weights assigned on reading back).
    let want = text(&sssp(&["path", "gen:path:10", "-s", "0", "-t", "9", "--device", "cpu"])).0;
    assert!(want.starts_with("distance "), "{want}");
    assert!(sssp(&["gen", "path:10", "-o", s(&tmp("p.bin"))]).status.success());
    for name in ["p.el", "p.txt", "p.snap", "p.wel", "p.gr", "p.mtx", "p.bin", "p.bin.gz", "p.el.xz"] {
        let f = tmp(name);
        let o = sssp(&["gen", "path:10", "-o", s(&f)]);
        assert!(o.status.success(), "{name}: {:?}", text(&o));
        let got = text(&sssp(&["path", s(&f), "-s", "0", "-t", "9", "--device", "cpu"])).0;
        assert_eq!(got, want, "{name}");
        // Through convert too, from the binary form.
        let c = tmp(&format!("c-{name}"));
        assert!(sssp(&["convert", s(&tmp("p.bin")), s(&c)]).status.success());
        assert_eq!(text(&sssp(&["path", s(&c), "-s", "0", "-t", "9", "--device", "cpu"])).0, want, "c-{name}");
    }
    assert!(std::fs::read(tmp("p.bin.gz")).unwrap().starts_with(&[0x1f, 0x8b]));
    assert!(std::fs::read_to_string(tmp("p.el")).unwrap().lines().any(|l| l.split(' ').count() == 3));
    // A name that says nothing is a bad argument (exit 2) that names a flag that exists.
    let o = sssp(&["gen", "path:10", "-o", s(&tmp("p10"))]);
    let err = text(&o).1;
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("--to"), "{err}");
    assert!(sssp(&["gen", "path:10", "-o", s(&tmp("p10")), "--to", "wel"]).status.success());
    let o = sssp(&["convert", "gen:path:3", s(&tmp("x.graph"))]);
    assert_eq!(o.status.code(), Some(2), "{:?}", text(&o));
}

#[test]
fn argument_and_garbage_messages_read_well() {
    let o = sssp(&["run", "gen:path:5", "--weights", "random:5-1", "-s", "0"]);
    let err = text(&o).1;
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("LO (5) > HI (1)"), "{err}");
    // Binary garbage given as a text format: escaped in the message, never echoed raw.
    let g = tmp("garbage.el");
    std::fs::write(&g, b"0 1\n\x1b[2J\xff\x01 2\n").unwrap();
    let o = sssp(&["info", s(&g)]);
    assert_eq!(o.status.code(), Some(4));
    let err = String::from_utf8(o.stderr.clone()).expect("the message is valid UTF-8");
    assert!(err.contains(&format!("{}:2:", s(&g))) && err.contains("\\x1b[2J\\xff\\x01"), "{err}");
    assert!(!err.bytes().any(|c| c == 0x1b || c == 1), "{err:?}");
    // A NUL byte is no graph text at all: named with its line, whatever surrounds it.
    std::fs::write(&g, b"0 1\n\x1b[2J\xff\x00 2\n").unwrap();
    let o = sssp(&["info", s(&g)]);
    let err = String::from_utf8(o.stderr.clone()).expect("the message is valid UTF-8");
    assert!(o.status.code() == Some(4) && err.contains(&format!("{}:2: a NUL byte", s(&g))), "{err}");
    assert!(!err.bytes().any(|c| c == 0x1b || c == 0), "{err:?}");
    // The help says what --mtx-real scale:K does: it rounds.
    let help = text(&sssp(&["run", "--help"])).0;
    assert!(help.contains("then round"), "{help}");
}

#[test]
fn ignored_arguments_are_errors_and_unreachable_paths_fail() {
    for args in [
        &["path", "gen:path:6", "-s", "0", "-s", "1", "-t", "5", "--device", "cpu"][..],
        &["run", "gen:path:6", "-s", "0", "--trials", "3", "--device", "cpu"],
        &["run", "gen:path:6", "-s", "0", "--algo", "dijkstra", "--trace", s(&tmp("t.csv"))],
    ] {
        let o = sssp(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {:?}", text(&o));
    }
    // Vertex 2 has no in-arc: no path, exit 1, said on stderr.
    let g = tmp("unreach.gr");
    std::fs::write(&g, "p sp 3 1\na 1 2 1\n").unwrap();
    let o = sssp(&["path", s(&g), "-s", "0", "-t", "2", "--device", "cpu"]);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out} {err}");
    assert!(err.contains("vertex 2 is not reachable from 0"), "{err}");
}

#[test]
fn bench_and_run_take_explicit_sources() {
    let f = tmp("sources.txt");
    std::fs::write(&f, "# two sources\n3\n7\n").unwrap();
    let common = ["--device", "cpu", "--algos", "dijkstra", "--json"];
    let o = sssp(&[&["bench", "gen:grid2d:10x10", "-s", "1", "--sources-file", s(&f)][..], &common].concat());
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("sources: [1, 3, 7] (given)"), "{err}");
    let v: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(v["trials"], 3);
    let o = sssp(&["run", "gen:grid2d:10x10", "--sources-file", s(&f), "--device", "cpu", "--json"]);
    let out = text(&o).0;
    let srcs: Vec<i64> = out
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["source"].as_i64().unwrap())
        .collect();
    assert_eq!(srcs, vec![3, 7]);
    // Out of range: exit 2; a malformed file: exit 4 with its line; --trials with sources: 2.
    assert_eq!(sssp(&["bench", "gen:grid2d:10x10", "-s", "100", "--device", "cpu"]).status.code(), Some(2));
    std::fs::write(&f, "3\nx\n").unwrap();
    let o = sssp(&["bench", "gen:grid2d:10x10", "--sources-file", s(&f), "--device", "cpu"]);
    assert_eq!(o.status.code(), Some(4));
    assert!(text(&o).1.contains(&format!("{}:2:", s(&f))), "{:?}", text(&o));
    assert_eq!(sssp(&["bench", "gen:path:5", "-s", "1", "--trials", "3"]).status.code(), Some(2));
}

#[test]
fn rates_read_and_serial_rows_say_what_ran() {
    // A small graph solves at well under 1 GTEPS: the rate must still show digits.
    let o = sssp(&["run", "gen:grid2d:30x30", "-s", "0", "--algo", "dijkstra"]);
    let out = text(&o).0;
    assert!(o.status.success() && !out.contains("0.000 GTEPS"), "{out}");
    assert!(out.contains("TEPS)"), "{out}");
    let o = sssp(&[
        "bench",
        "gen:grid2d:30x30",
        "--device",
        "cpu",
        "--trials",
        "2",
        "--algos",
        "dijkstra,bellman-ford,workfront",
        "--balance",
        "thread",
        "--dedupe",
        "stamp",
        "--json",
    ]);
    let out = text(&o).0;
    assert!(o.status.success(), "{:?}", text(&o));
    let rows: Vec<serde_json::Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(rows.len(), 3);
    for r in &rows {
        let serial = r["algo"] != "workfront";
        assert_eq!(r["device"] == "CPU (serial)", serial, "{r}");
        // Every algorithm relaxed arcs: work is arcs relaxed over Dijkstra's, never 0.
        assert!(r["work"].as_f64().unwrap() >= 1.0, "{r}");
    }
    let o = sssp(&["run", "gen:grid2d:30x30", "-s", "0", "--algo", "bellman-ford"]);
    let out = text(&o).0;
    assert!(!out.contains(" 0 arcs relaxed"), "{out}");
    let o = sssp(&["bench", "gen:grid2d:30x30", "--device", "cpu", "--trials", "1", "--algos", "dijkstra"]);
    assert!(text(&o).0.contains("MTEPS"), "{:?}", text(&o));
}

#[test]
fn plot_draws_one_panel_per_trace() {
    let a = tmp("plot-workfront.csv");
    let b = tmp("plot-nearfar.csv");
    let svg = tmp("plot-fig.svg");
    // An older four-column trace next to one with the far pile and later buckets.
    std::fs::write(&a, "iter,frontier,arcs,micros\n1,1,3,10.5\n2,3,9,12.0\n3,0,0,1.0\n").unwrap();
    std::fs::write(
        &b,
        "iter,frontier,arcs,micros,bucket,far,slots\n1,1,3,8.0,0,2,0\n2,2,6,9.5,0,4,1\n3,4,12,7.0,1,0,0\n\n",
    )
    .unwrap();
    let o = sssp(&["plot", s(&a), s(&b), "-o", s(&svg)]);
    assert!(o.status.success(), "{:?}", text(&o));
    let out = std::fs::read_to_string(&svg).unwrap();
    assert!(out.starts_with("<svg") || out.starts_with("<?xml"), "{}", &out[..out.len().min(200)]);
    assert!(out.contains("plot-workfront") && out.contains("plot-nearfar"), "{out}");
    assert!(out.contains("iteration") && out.contains("far pile"), "{out}");
    // Log scale with a figure title and one label per trace.
    let o = sssp(&[
        "plot",
        s(&a),
        s(&b),
        "-o",
        s(&svg),
        "--log",
        "--title",
        "NY road",
        "--label",
        "Workfront",
        "--label",
        "NearFar",
    ]);
    assert!(o.status.success(), "{:?}", text(&o));
    let out = std::fs::read_to_string(&svg).unwrap();
    assert!(out.contains("NY road") && out.contains("Workfront") && out.contains("NearFar"), "{out}");
    // Panels share the y range unless --own-y: then the smaller trace gets its own axis.
    let shared = sssp(&["plot", s(&a), s(&b), "-o", "-"]);
    let own = sssp(&["plot", s(&a), s(&b), "-o", "-", "--own-y"]);
    assert!(shared.status.success() && own.status.success());
    assert_ne!(shared.stdout, own.stdout, "--own-y drew the same figure");
    // A label count that does not match the traces is a usage error.
    let o = sssp(&["plot", s(&a), s(&b), "-o", s(&svg), "--label", "only-one"]);
    assert_eq!(o.status.code(), Some(2), "{:?}", text(&o));
}

#[test]
fn plot_malformed_trace_names_file_and_line_exit_4() {
    let bad = tmp("plot-bad.csv");
    let svg = tmp("plot-bad.svg");
    std::fs::write(&bad, "iter,frontier,arcs,micros\n1,1,3,10.5\n2,x,9,12.0\n").unwrap();
    let o = sssp(&["plot", s(&bad), "-o", s(&svg)]);
    assert_eq!(o.status.code(), Some(4), "{:?}", text(&o));
    let err = text(&o).1;
    assert!(err.contains(&format!("{}:3:", s(&bad))), "{err}");
    assert!(!svg.exists());
    // Wrong header, wrong field count, missing file: all exit 4, none panics.
    for (body, line) in [("frontier,iter\n1,1\n", 1), ("iter,frontier,arcs,micros\n1,2,3\n", 2), ("", 1)] {
        std::fs::write(&bad, body).unwrap();
        let o = sssp(&["plot", s(&bad), "-o", s(&svg)]);
        assert_eq!(o.status.code(), Some(4), "{body:?}: {:?}", text(&o));
        assert!(text(&o).1.contains(&format!("{}:{line}:", s(&bad))), "{body:?}: {:?}", text(&o));
    }
    let o = sssp(&["plot", s(&tmp("plot-missing.csv")), "-o", s(&svg)]);
    assert_eq!(o.status.code(), Some(4), "{:?}", text(&o));
}

/// Parse a distance column (`inf` for unreached).
fn dist(x: &str) -> i64 {
    if x == "inf" {
        i64::MAX
    } else {
        x.parse().unwrap()
    }
}

#[test]
fn many_sources_stream_a_matrix_batched_or_not() {
    let g = tmp("road-many.gr");
    assert!(sssp(&["gen", "road:1500", "-o", s(&g)]).status.success());
    let src = tmp("many-sources.txt");
    std::fs::write(&src, "# three sources\n7\n100\n1499\n").unwrap();
    let mut matrices = vec![];
    for batch in ["1", "2", "4"] {
        let o = sssp(&[
            "run",
            s(&g),
            "--device",
            "cpu",
            "-a",
            "near-far",
            "--sources-file",
            s(&src),
            "--sources",
            "3",
            "--batch",
            batch,
            "--verify",
            "-o",
            "-",
            "--output-kind",
            "matrix",
            "--targets",
            "0,9",
            "--targets",
            "1499",
        ]);
        let (out, err) = text(&o);
        assert!(o.status.success(), "batch {batch}: {err}");
        // A report line per source on standard error; standard output holds the matrix alone.
        assert_eq!(err.matches("verified (certificate").count(), 4, "{err}");
        assert!(!out.contains(" on ") && !out.contains("verified"), "{out}");
        let m: Vec<&str> = out.lines().collect();
        assert_eq!(m[0], "# source 0 9 1499");
        let rows: Vec<Vec<&str>> = m[1..].iter().map(|l| l.split(' ').collect()).collect();
        assert_eq!(rows.iter().map(|r| r[0]).collect::<Vec<_>>(), ["3", "7", "100", "1499"]);
        assert_eq!(rows[3][3], "0", "the source's own column");
        matrices.push(m.join("\n"));
    }
    assert_eq!(matrices[0], matrices[1]);
    assert_eq!(matrices[0], matrices[2]);
    // The matrix agrees with single-source distance files.
    let one = tmp("many-one.txt");
    assert!(sssp(&["run", s(&g), "--device", "cpu", "-s", "100", "-o", s(&one)]).status.success());
    let d100: Vec<String> =
        std::fs::read_to_string(&one).unwrap().lines().map(|l| l.split(' ').nth(1).unwrap().into()).collect();
    let row = matrices[0].lines().find(|l| l.starts_with("100 ")).unwrap().to_string();
    assert_eq!(row, format!("100 {} {} {}", d100[0], d100[9], d100[1499]));
    // Without targets: every vertex is a column.
    let o = sssp(&["run", s(&g), "--device", "cpu", "-s", "5,6", "--batch", "2", "-o", "-", "--output-kind", "matrix"]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    let rows: Vec<&str> = out.lines().filter(|l| l.starts_with("5 ") || l.starts_with("6 ")).collect();
    assert_eq!(rows.iter().map(|r| r.split(' ').count()).collect::<Vec<_>>(), [1501, 1501]);
}

#[test]
fn multi_source_names_the_nearest_source() {
    let g = tmp("grid-multi.gr");
    assert!(sssp(&["gen", "grid2d:20x20", "-o", s(&g)]).status.success());
    let near = tmp("nearest.txt");
    for algo in ["auto", "dijkstra", "workfront", "near-far", "bucketing"] {
        let o = sssp(&[
            "run",
            s(&g),
            "--device",
            "cpu",
            "-a",
            algo,
            "--sources",
            "0,399,210",
            "--multi-source",
            "--verify",
            "-o",
            s(&near),
            "--output-kind",
            "nearest",
        ]);
        let (out, err) = text(&o);
        assert!(o.status.success(), "{algo}: {err}");
        assert!(out.contains("nearest of sources 0,399,210") && out.contains("+reference)"), "{out}");
        let lines = std::fs::read_to_string(&near).unwrap();
        let per: Vec<(u32, u32, i64)> = lines
            .lines()
            .map(|l| {
                let f: Vec<&str> = l.split(' ').collect();
                (f[0].parse().unwrap(), f[1].parse().unwrap(), dist(f[2]))
            })
            .collect();
        assert_eq!(per.len(), 400);
        for &(v, src, d) in &per {
            assert!([0, 399, 210].contains(&src), "{algo}: vertex {v} names {src}");
            if [0, 399, 210].contains(&v) {
                assert_eq!((src, d), (v, 0), "{algo}: a source is its own nearest");
            }
        }
    }
    // What a multi-source run refuses.
    for (args, what) in [
        (vec!["--multi-source", "--output-kind", "matrix", "-o", "-"], "matrix"),
        (vec!["--output-kind", "nearest", "-o", "-"], "nearest without --multi-source"),
        (vec!["--multi-source", "--batch", "2"], "batch"),
        (vec!["--multi-source", "-a", "crauser"], "crauser"),
        (vec!["--targets", "3"], "targets without a matrix"),
        (vec!["--batch", "3"], "lanes not a power of two"),
    ] {
        let mut a = vec!["run", s(&g), "--device", "cpu", "--sources", "0,5"];
        a.extend(args);
        let o = sssp(&a);
        assert_eq!(o.status.code(), Some(2), "{what}: {:?}", text(&o));
    }
}

#[test]
fn real_weights_end_to_end() {
    let mtx = tmp("r.mtx");
    let wel = tmp("r.wel");
    let o = sssp(&["gen", "grid2d:20x20", "--weights", "real:0.5-2", "-o", s(&mtx)]);
    assert!(o.status.success(), "{:?}", text(&o));
    assert!(std::fs::read_to_string(&mtx).unwrap().starts_with("%%MatrixMarket matrix coordinate real general"));
    assert!(sssp(&["convert", s(&mtx), s(&wel)]).status.success());
    // Every engine algorithm verified against the f32 reference; mtx and wel give the same bits.
    let mut outs = vec![];
    for f in [&mtx, &wel] {
        for algo in ["dijkstra", "near-far", "bucketing", "workfront", "crauser"] {
            let out = tmp(&format!("r-{algo}.txt"));
            let o = sssp(&["run", s(f), "-a", algo, "-s", "7", "--device", "cpu", "--verify", "-o", s(&out)]);
            assert!(o.status.success(), "{algo}: {:?}", text(&o));
            assert!(text(&o).0.contains("+reference)"), "{:?}", text(&o));
            outs.push(std::fs::read_to_string(out).unwrap());
        }
    }
    assert!(outs.iter().all(|x| *x == outs[0]));
    // Distances print as decimals that read back as the same f32.
    let d: Vec<f32> = outs[0].lines().map(|l| l.split(' ').nth(1).unwrap().parse().unwrap()).collect();
    assert_eq!(d[7], 0.0);
    assert!(d.iter().all(|x| x.is_finite() && *x >= 0.0) && d.iter().any(|x| x.fract() != 0.0));
    // Decimal cutoff and delta; an integer graph refuses a decimal cutoff.
    let o = sssp(&[
        "run",
        s(&mtx),
        "-a",
        "near-far",
        "--delta",
        "0.75",
        "--cutoff",
        "3.5",
        "-s",
        "7",
        "--device",
        "cpu",
        "--verify",
    ]);
    let (out, err) = text(&o);
    assert!(o.status.success() && out.contains("delta 0.75"), "{out} {err}");
    let o = sssp(&["run", "gen:path:10", "--cutoff", "2.5", "--device", "cpu"]);
    assert_eq!(o.status.code(), Some(2), "{:?}", text(&o));
    // Refused with a reason: diameter, DIMACS output; a negative real weight names its line.
    let o = sssp(&["diameter", s(&mtx)]);
    assert_eq!(o.status.code(), Some(2), "{:?}", text(&o));
    assert!(text(&o).1.contains("triangle"), "{:?}", text(&o));
    let o = sssp(&["convert", s(&mtx), s(&tmp("r.gr"))]);
    assert_eq!(o.status.code(), Some(2), "{:?}", text(&o));
    let bad = tmp("bad.wel");
    std::fs::write(&bad, "0 1 0.5\n1 2 -0.5\n").unwrap();
    let o = sssp(&["run", s(&bad), "--device", "cpu"]);
    assert_eq!(o.status.code(), Some(4), "{:?}", text(&o));
    assert!(text(&o).1.contains("bad.wel:2: real weight -0.5 is negative"), "{:?}", text(&o));
    // --mtx-real round still makes integers.
    let o = sssp(&["info", s(&mtx), "--mtx-real", "round"]);
    assert!(o.status.success() && !text(&o).0.contains("real"), "{:?}", text(&o));
}

#[test]
fn traversal_modes_and_hub_thresholds_on_the_command_line() {
    // bench: one row per mode x threshold, labelled MODE@N away from the default; partition
    // has no hub path and gets one row.
    let o = sssp(&[
        "bench",
        "gen:kron:10",
        "--device",
        "cpu",
        "--trials",
        "1",
        "--algos",
        "workfront",
        "--balance",
        "cta,cta-warp-scan,partition",
        "--hub-degrees",
        "0,8",
        "--dedupe",
        "stamp",
    ]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    let rows: Vec<&str> = out.lines().filter(|l| l.starts_with("workfront")).collect();
    assert_eq!(rows.len(), 5, "{out}");
    for label in ["cta@0", "cta@8", "cta-warp-scan@0", "cta-warp-scan@8", "partition "] {
        assert!(rows.iter().any(|r| r.contains(label)), "{label}: {out}");
    }
    // run: a tiled mode with a low threshold, verified.
    let o = sssp(&[
        "run",
        "gen:kron:10",
        "--device",
        "cpu",
        "--algo",
        "workfront",
        "--balance",
        "cta-warp-scan",
        "--hub-degree",
        "4",
        "--verify",
    ]);
    let (out, err) = text(&o);
    assert!(o.status.success() && out.contains("verified"), "{out}{err}");
    // A mode that does not exist is a usage error naming the ones that do.
    let o = sssp(&["run", "gen:kron:6", "--device", "cpu", "--algo", "near-far", "--balance", "cta-warp"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).1.contains("expected thread, vwarp, partition, cta or cta-warp-scan"), "{}", text(&o).1);
    // The settling algorithms refuse the tiled modes instead of ignoring them.
    let o = sssp(&["run", "gen:grid2d:8x8", "--device", "cpu", "--algo", "crauser", "--balance", "cta"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o).1);
}

/// Standard output holds the data and nothing else, `-` is standard output
/// for every command that writes a file, and a reader that leaves early is not an error.
#[test]
fn standard_output_is_data_only() {
    // Results on `-o -`: the statistics line goes to standard error.
    for kind in ["distances", "tree"] {
        let o = sssp(&["run", "gen:grid2d:3x3", "--source", "0", "-o", "-", "--output-kind", kind, "--device", "cpu"]);
        let (out, err) = text(&o);
        assert!(o.status.success(), "{err}");
        assert_eq!(out.lines().count(), 9, "{kind}: only the 9 vertices' lines: {out}");
        assert!(out.starts_with("0 "), "{out}");
        assert!(err.contains("reached 9"), "{err}");
    }
    let o = sssp(&["run", "gen:grid2d:3x3", "--source", "0", "-o", "-", "--json", "--device", "cpu"]);
    let (out, err) = text(&o);
    assert!(!out.contains('{') && err.contains("\"reached\":9"), "{out}{err}");
    // Without -o the statistics are the output.
    let o = sssp(&["run", "gen:grid2d:3x3", "--source", "0", "--device", "cpu"]);
    assert!(text(&o).0.contains("reached 9"));
    // A trace on standard output, likewise alone there.
    let o = sssp(&["run", "gen:grid2d:3x3", "--source", "0", "--algo", "near-far", "--trace", "-", "--device", "cpu"]);
    let (out, err) = text(&o);
    assert!(out.starts_with("iter,frontier") && !out.contains("reached") && err.contains("reached 9"), "{out}");
    // gen, convert and plot write `-` as standard output, never a file named `-`.
    let o = sssp(&["gen", "grid2d:3x3", "-o", "-", "--to", "el"]);
    let (out, err) = text(&o);
    assert!(o.status.success() && out.contains("# vertices: 9") && err.contains("standard output"), "{out}{err}");
    let el = tmp("stdout.el");
    std::fs::write(&el, &o.stdout).unwrap();
    let o = sssp(&["convert", s(&el), "-", "--to", "gr"]);
    assert!(o.status.success() && text(&o).0.starts_with("p sp 9 24") || text(&o).0.contains("\np sp 9 24"));
    let trace = tmp("stdout.csv");
    sssp(&["run", "gen:grid2d:3x3", "--source", "0", "--algo", "near-far", "--trace", s(&trace), "--device", "cpu"]);
    let o = sssp(&["plot", s(&trace), "-o", "-"]);
    assert!(o.status.success() && text(&o).0.starts_with("<svg"), "{:?}", text(&o).1);
    assert!(!Path::new("-").exists(), "a file named `-` was written");
    // Standard output without --to cannot tell the format.
    let o = sssp(&["gen", "grid2d:3x3", "-o", "-"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).1.contains("--to"));
    // Results and a trace cannot share standard output.
    let o = sssp(&["run", "gen:grid2d:3x3", "--algo", "near-far", "-o", "-", "--trace", "-", "--device", "cpu"]);
    assert_eq!(o.status.code(), Some(2));
}

/// `sssp run -o - | head -1` ends quietly with 0 (item 3), for every output kind.
#[test]
fn a_reader_that_leaves_early_is_not_an_error() {
    use std::io::BufRead;
    use std::process::Stdio;
    for kind in ["distances", "tree", "matrix"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_sssp"))
            .args(["run", "gen:grid2d:300x300", "--source", "0", "-o", "-", "--output-kind", kind, "--device", "cpu"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = String::new();
        std::io::BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
        // The reader is gone (dropped): the rest of the 90,000 lines meets a closed pipe.
        let o = child.wait_with_output().unwrap();
        assert_eq!(o.status.code(), Some(0), "{kind}: {}", String::from_utf8_lossy(&o.stderr));
        assert!(!String::from_utf8_lossy(&o.stderr).contains("error"), "{kind}");
        assert!(!first.is_empty());
    }
}

/// Item 6: an argument the run would ignore is an error (exit 2), naming what reads it.
#[test]
fn ignored_arguments_are_errors() {
    let refused = [
        (&["--algo", "dijkstra", "--delta", "5"][..], "--delta"),
        (&["--algo", "near-far", "--buckets", "4"], "--buckets"),
        (&["--algo", "dijkstra", "--balance", "cta"], "--balance"),
        (&["--algo", "dijkstra", "--hub-degree", "3"], "--hub-degree"),
        (&["--algo", "dijkstra", "--batch", "2"], "--batch"),
        (&["--batch", "0"], "--batch 0"),
        (&["--batch", "3"], "--batch 3"),
        (&["--delta", "5"], "--algo auto picks"),
        (&["--output-kind", "tree"], "--output"),
    ];
    for (args, says) in refused {
        let o = sssp(&[&["run", "gen:grid2d:5x5", "--device", "cpu"][..], args].concat());
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(text(&o).1.contains(says), "{args:?}: {}", text(&o).1);
    }
    for args in [&["--batch", "3"][..], &["--batch", "0"], &["--batch", "2", "--algo", "dijkstra"]] {
        let o = sssp(&[&["diameter", "gen:grid2d:5x5", "--device", "cpu"][..], args].concat());
        assert_eq!(o.status.code(), Some(2), "diameter {args:?}: {}", text(&o).1);
    }
    // auto with lanes runs a strategy that has them, where it would pick Dijkstra alone.
    let o = sssp(&["run", "gen:grid2d:20x20", "--device", "cpu", "--batch", "4", "--trials", "4", "--verify"]);
    let (out, err) = text(&o);
    assert!(o.status.success() && out.contains("auto (near-far)") && out.contains("batch of 4"), "{out}{err}");
}

/// Items 8 and 10: exit codes and messages.
#[test]
fn exit_codes_and_messages() {
    // A full disk behind standard output is a file that cannot be written, as with -o.
    if Path::new("/dev/full").exists() {
        let full = std::fs::File::create("/dev/full").unwrap();
        let o = Command::new(env!("CARGO_BIN_EXE_sssp"))
            .args(["run", "gen:grid2d:3x3", "--device", "cpu"])
            .stdout(full)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(4));
        assert_eq!(sssp(&["run", "gen:grid2d:3x3", "--device", "cpu", "-o", "/dev/full"]).status.code(), Some(4));
    }
    let o = sssp(&["run", "gen:grid2d:3x3", "--cutoff", "99999999999999999999"]);
    assert!(o.status.code() == Some(2) && text(&o).1.contains("too large"), "{}", text(&o).1);
    let o = sssp(&["run", "gen:grid2d:3x3", "--source", "-1"]);
    assert!(o.status.code() == Some(2) && text(&o).1.contains("is not a vertex id"), "{}", text(&o).1);
    assert!(!text(&o).1.contains("-- -1"));
    // A target beyond the cutoff is not "no path".
    let o = sssp(&["path", "gen:grid2d:30x30", "--source", "0", "-t", "899", "--cutoff", "5", "--device", "cpu"]);
    assert!(o.status.code() == Some(1) && text(&o).1.contains("not within the cutoff 5"), "{}", text(&o).1);
    // Serial runs have no iterations to report; classes counted but unused are said to be so.
    let o = sssp(&["run", "gen:grid2d:3x3", "--algo", "dijkstra"]);
    assert!(!text(&o).0.contains("iterations"), "{}", text(&o).0);
    let o = sssp(&["run", "gen:grid2d:3x3", "--algo", "near-far", "--device", "cpu"]);
    let out = text(&o).0;
    assert!(out.contains("iterations") && !out.contains("for the edge classes and their kernels"), "{out}");
    // diameter on negative weights does not suggest SSSP algorithms it does not take.
    let g = tmp("neg-diam.gr");
    std::fs::write(&g, "p sp 2 2\na 1 2 -1\na 2 1 3\n").unwrap();
    let o = sssp(&["diameter", s(&g), "--device", "cpu"]);
    let err = text(&o).1;
    assert!(o.status.code() == Some(2) && err.contains("diameter needs") && !err.contains("workfront"), "{err}");
}

/// Item 10: a graph file whose name is not UTF-8 is read like any other (Linux file names are
/// bytes).
#[cfg(unix)]
#[test]
fn graph_paths_need_not_be_utf8() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tmp("utf8").parent().unwrap().to_path_buf();
    let name = dir.join(std::ffi::OsStr::from_bytes(b"caf\xe9.gr"));
    std::fs::write(&name, "p sp 2 1\na 1 2 3\n").unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_sssp")).arg("run").arg(&name).args(["--source", "0"]).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// Item 13: `run --help` lists every algorithm `--algo` takes.
#[test]
fn run_help_lists_every_algorithm() {
    let help = text(&sssp(&["run", "--help"])).0;
    for algo in sssp::strategy::Algo::ALL {
        assert!(help.contains(algo.name()), "`{}` missing from run --help", algo.name());
    }
}

/// Item 8: a weight outside what the graph can keep (u32, or i32 once a weight is negative) is a
/// malformed file naming its line (exit 4), in every one-edge-per-line format.
#[test]
fn weights_out_of_range_name_their_line() {
    let cases = [
        ("range.gr", "c mixed\np sp 3 3\na 1 2 -1\na 2 3 3000000000\na 1 3 1\n", ":4:"),
        ("range.el", "# x\n0 1 -1\n\n1 2 3000000000\n", ":4:"),
        ("range.mtx", "%%MatrixMarket matrix coordinate integer general\n% c\n3 3 2\n1 2 -1\n2 3 3000000000\n", ":5:"),
    ];
    for (name, body, at) in cases {
        let g = tmp(name);
        std::fs::write(&g, body).unwrap();
        let o = sssp(&["run", s(&g), "--source", "0", "--device", "cpu"]);
        let err = text(&o).1;
        assert_eq!(o.status.code(), Some(4), "{name}: {err}");
        assert!(err.contains(&format!("{}{at}", s(&g))) && err.contains("does not fit in i32"), "{name}: {err}");
    }
}

/// Found by the fuzzer: writing over the input graph killed `convert` with SIGBUS
/// (the binary graph is used from a memory map); it is now a bad argument, the file intact.
#[test]
fn output_over_the_input_graph_is_refused() {
    let g = tmp("in-place.bin");
    assert!(sssp(&["gen", "grid2d:3x3", "-o", s(&g)]).status.success());
    let before = std::fs::read(&g).unwrap();
    for args in [
        vec!["convert", s(&g), s(&g)],
        vec!["run", s(&g), "-s", "0", "-o", s(&g)],
        vec!["run", s(&g), "-s", "0", "-a", "workfront", "--trace", s(&g)],
    ] {
        let o = sssp(&args);
        let (_, err) = text(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("is the input graph"), "{err}");
    }
    assert_eq!(std::fs::read(&g).unwrap(), before);
}

/// Found by the fuzzer: `-n 9223372036854775808` panicked (capacity overflow),
/// `-n 400000000` ran for minutes with 6 GB of sources and a 12 MB `sources:` line.
#[test]
fn huge_trial_counts_are_refused_and_source_lists_cut() {
    let g = tmp("trials.gr");
    std::fs::write(&g, "p sp 3 2\na 1 2 1\na 2 3 1\n").unwrap();
    for n in ["9223372036854775808", "18446744073709551615", "400000000", "1048577"] {
        for cmd in ["run", "bench"] {
            let o = sssp(&[cmd, s(&g), "-n", n]);
            let (_, err) = text(&o);
            assert_eq!(o.status.code(), Some(2), "{cmd} -n {n}: {err}");
            assert!(err.len() < 600, "{err}");
        }
    }
    let o = sssp(&["bench", s(&g), "-n", "40"]);
    let (_, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(err.contains(", ...] (40 in all)"), "{err}");
}

/// Item 2: `auto` without a GPU that picks a host algorithm (delta-stepping on the host's
/// threads) opens no engine (whose graph-sized buffers cost 26.7 s of set-up on a
/// 3e8-vertex graph for nothing).
#[test]
fn auto_opens_no_engine_for_a_serial_pick() {
    let o = sssp(&["run", "gen:grid2d:100x100", "--source", "0", "--device", "cpu"]);
    let (out, err) = text(&o);
    assert!(o.status.success() && out.contains("auto (delta-stepping) on CPU ("), "{out}{err}");
    assert!(!err.contains("device: CPU (rayon"), "an engine was opened: {err}");
    // A tiny graph: serial Dijkstra, no engine either.
    let o = sssp(&["run", "gen:grid2d:30x30", "--source", "0", "--device", "cpu"]);
    let (out, err) = text(&o);
    assert!(o.status.success() && out.contains("auto (dijkstra) on CPU (serial)"), "{out}{err}");
    assert!(!err.contains("device: CPU (rayon"), "an engine was opened: {err}");
    // A traced run wants iterations: auto picks near-far, on an engine.
    let o = sssp(&["run", "gen:grid2d:30x30", "--source", "0", "--device", "cpu", "--trace", s(&tmp("auto.csv"))]);
    assert!(text(&o).1.contains("device: CPU (rayon"), "{}", text(&o).1);
}

#[test]
fn devices_run_distributed_delta_stepping_on_simulated_ranks() {
    let g = "gen:road:3000";
    let want = tmp("dist-dijkstra.txt");
    let o = sssp(&["run", g, "--algo", "dijkstra", "--source", "7", "-o", s(&want)]);
    assert!(o.status.success(), "{:?}", text(&o));
    let want = std::fs::read_to_string(want).unwrap();
    for p in ["1", "3", "7"] {
        let got = tmp(&format!("dist-{p}.txt"));
        let o = sssp(&[
            "run",
            g,
            "--devices",
            p,
            "--device",
            "cpu",
            "--source",
            "7",
            "--verify",
            "--delta",
            "500",
            "-o",
            s(&got),
        ]);
        let (out, err) = text(&o);
        assert!(o.status.success(), "{p} ranks: {err}");
        assert!(
            out.starts_with(&format!(
                "distributed delta-stepping on {p} simulated ranks (CPU threads), local steps on the host: source 7, "
            )) && out.contains(" rounds, ")
                && out.contains("delta 500")
                && out.contains("exchanged ")
                && out.contains("the ranks set up once in ")
                && out.contains("verified (certificate on the host in ")
                && out.contains("+reference)"),
            "{p} ranks: {out}"
        );
        assert_eq!(std::fs::read_to_string(got).unwrap(), want, "{p} ranks: -o differs from dijkstra's");
    }
    // JSON: one object per source, with the rounds and each rank's volume.
    let o = sssp(&["run", g, "--devices", "2", "--device", "cpu", "-n", "2", "--json"]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    let rows: Vec<serde_json::Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(rows.len(), 2);
    for r in rows {
        assert_eq!(r["ranks"], 2);
        assert!(r["rounds"].as_u64().unwrap() >= 1 && r["per_rank"].as_array().unwrap().len() == 2, "{r}");
        assert!(r["setup_seconds"].as_f64().unwrap() >= 0.0, "{r}");
    }
    // What a distributed run does not read is refused (exit 2), before any work.
    for bad in [
        &["--algo", "workfront"][..],
        &["--batch", "2"],
        &["--multi-source"],
        &["--balance", "cta"],
        &["--workers", "2"],
        &["--devices", "0"],
    ] {
        let mut args = vec!["run", g, "--devices", "2", "--device", "cpu"];
        args.extend_from_slice(bad);
        let o = sssp(&args);
        assert_eq!(o.status.code(), Some(2), "{bad:?}: {:?}", text(&o));
    }
    // NCCL ranks: without the feature a bad argument naming it; with it, no GPU here (exit 5).
    let o = sssp(&["run", g, "--devices", "2", "--device", "gpu"]);
    let (code, err) = (o.status.code(), text(&o).1);
    if cfg!(feature = "nccl") {
        assert!(matches!(code, Some(0) | Some(5)), "{err}");
    } else {
        assert!(code == Some(2) && err.contains("`nccl` feature"), "{err}");
    }
}

/// The arcs of a `.wel` file `sssp gen` wrote: `(tail, head, weight)`.
fn wel_arcs(path: &Path) -> Vec<(usize, usize, i64)> {
    let text = std::fs::read_to_string(path).unwrap();
    let nums = |l: &str| l.split_whitespace().map(|x| x.parse::<i64>().unwrap()).collect::<Vec<_>>();
    text.lines().filter(|l| !l.starts_with('#')).map(nums).map(|a| (a[0] as usize, a[1] as usize, a[2])).collect()
}

/// `VERTEX X DIST` lines (a tree or nearest-source file): X (`-`: none) and DIST per vertex.
fn vertex_lines(text: &str) -> Vec<(Option<usize>, Option<i64>)> {
    text.lines()
        .enumerate()
        .map(|(v, l)| {
            let f: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(f[0], v.to_string(), "{l}");
            (f[1].parse().ok(), f[2].parse().ok())
        })
        .collect()
}

#[test]
fn vertex_orders_answer_in_the_users_ids() {
    let g = tmp("order.wel");
    assert!(sssp(&["gen", "kron:9", "-o", s(&g)]).status.success());
    let arcs = wel_arcs(&g);
    let cpu = ["--device", "cpu"];
    // Result files and the reports' vertices are the same as without --order (the default is
    // `input`): distances, the matrix's rows and columns, the nearest distances, the sources.
    let files = |order: &str| -> Vec<String> {
        let runs: [&[&str]; 5] = [
            &["run", s(&g), "--source", "44", "--verify"],
            &["run", s(&g), "--sources", "44,5", "--output-kind", "matrix", "--targets", "0,9,300"],
            &["run", s(&g), "--sources", "44,5", "--output-kind", "matrix", "-a", "workfront", "--batch", "2"],
            &["run", s(&g), "--trials", "3", "--json", "--verify", "-a", "near-far"],
            &["path", s(&g), "--source", "44", "--target", "300"],
        ];
        let mut outs = vec![];
        for (i, args) in runs.iter().enumerate() {
            let out = tmp(&format!("order-{order}-{i}.txt"));
            let mut args = [args, &cpu[..], &["--order", order]].concat();
            if args[0] == "run" && !args.contains(&"--json") {
                args.extend(["-o", s(&out)]);
            }
            let o = sssp(&args);
            let (stdout, err) = text(&o);
            assert!(o.status.success(), "{args:?}: {err}");
            outs.push(match std::fs::read_to_string(&out) {
                Ok(f) => f,
                // The JSON lines' vertices (and counts), not their times; the path's lines.
                Err(_) if args.contains(&"--json") => {
                    let rows: Vec<serde_json::Value> =
                        stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
                    for r in &rows {
                        assert_eq!(r["order"], order, "{r}");
                        assert_eq!(r["order_seconds"].is_f64(), order != "input", "{r}");
                    }
                    format!("{:?}", rows.iter().map(|r| (&r["source"], &r["reached"])).collect::<Vec<_>>())
                }
                Err(_) => stdout.lines().next().unwrap().to_string(),
            });
        }
        outs
    };
    let want = files("input");
    assert_eq!(want[0].lines().count(), 512);
    for order in ["degree", "bfs"] {
        assert_eq!(files(order), want, "--order {order}");
    }
    // Trees and nearest sources: the same distances; the parents may break ties another way,
    // but each is a tight arc of the input graph, in its ids.
    for order in ["input", "degree", "bfs"] {
        for (kind, extra) in
            [("tree", &[][..]), ("tree", &["-a", "workfront"][..]), ("nearest", &["--multi-source"][..])]
        {
            let out = tmp(&format!("order-{order}-{kind}.txt"));
            let args =
                [&["run", s(&g), "--sources", "44,5", "-o", s(&out), "--output-kind", kind][..], extra, &cpu].concat();
            let o = sssp(&[&args[..], &["--order", order]].concat());
            assert!(o.status.success(), "{args:?}: {:?}", text(&o));
            let got = vertex_lines(&std::fs::read_to_string(&out).unwrap());
            let o = sssp(&args);
            assert!(o.status.success(), "{args:?}: {:?}", text(&o));
            let base = vertex_lines(&std::fs::read_to_string(&out).unwrap());
            let dist = |x: &[(Option<usize>, Option<i64>)]| x.iter().map(|v| v.1).collect::<Vec<_>>();
            assert_eq!(dist(&got), dist(&base), "{order} {kind}");
            if kind == "nearest" {
                assert!(got.iter().all(|&(s, d)| matches!(s, Some(5 | 44)) == d.is_some()), "{order}");
                continue;
            }
            for (v, &(p, d)) in got.iter().enumerate() {
                match p {
                    None => assert!(v == 44 || d.is_none(), "{order}: {v} has no parent"),
                    Some(p) => {
                        let w = arcs.iter().filter(|a| a.0 == p && a.1 == v).map(|a| a.2).min();
                        assert_eq!(Some(got[p].1.unwrap() + w.expect("an arc")), d, "{order}: {p} -> {v}");
                    }
                }
            }
        }
    }
    // Bench: the same seeded sources (the user's), rows saying the order.
    let o = sssp(&["bench", s(&g), "--device", "cpu", "--algos", "dijkstra", "--json", "--order", "bfs"]);
    let (out, err) = text(&o);
    assert!(o.status.success() && err.contains("sources: [") && err.contains("order: bfs"), "{err}");
    let base = text(&sssp(&["bench", s(&g), "--device", "cpu", "--algos", "dijkstra"])).1;
    let line = |e: &str| e.lines().find(|l| l.starts_with("sources:")).unwrap().to_string();
    assert_eq!(line(&err), line(&base));
    let row: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert!(row["order"] == "bfs" && row["order_seconds"].is_f64() && row["verified"] == true, "{row}");
    // What cannot take another order is refused (exit 2), and so is an unknown order.
    for (args, says) in [
        (&["run", s(&g), "--order", "degree", "--devices", "2"][..], "--order does not apply with --devices"),
        (&["run", s(&g), "--order", "degree", "-a", "phast", "--hierarchy", s(&tmp("o.ch"))], "--hierarchy"),
        (&["bench", s(&g), "--order", "bfs", "--algos", "phast", "--hierarchy", s(&tmp("o.ch"))], "--hierarchy"),
        (&["run", s(&g), "--order", "hubs"], "input, degree, bfs"),
    ] {
        let o = sssp(&[args, &cpu].concat());
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(text(&o).1.contains(says), "{args:?}: {}", text(&o).1);
    }
    assert!(!tmp("o.ch").exists());
}
