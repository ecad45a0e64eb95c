//! The `sssp` binary on inputs that are not plain regular files, and on files the run both
//! reads and writes: standard input, fifos, compressed streams, devices without an end,
//! outputs naming inputs, and arguments that would be ignored.
#![cfg(target_os = "linux")]

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sssp"))
}

fn sssp(args: &[&str]) -> Output {
    bin().args(args).output().expect("run sssp")
}

/// `sssp ARGS` with `input` on its standard input.
fn sssp_stdin(args: &[&str], input: &[u8]) -> Output {
    let mut child =
        bin().args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    // A writer of its own: the child may refuse early and stop reading.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sssp-input-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into()
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into()
}

/// A fifo at `path` that `data` is written into by a thread (once a reader opens it).
fn fifo(path: &Path, data: Vec<u8>) -> std::thread::JoinHandle<()> {
    let _ = std::fs::remove_file(path);
    assert!(Command::new("mkfifo").arg(path).status().unwrap().success());
    let path = path.to_path_buf();
    std::thread::spawn(move || {
        if let Ok(mut f) = std::fs::OpenOptions::new().write(true).open(&path) {
            let _ = f.write_all(&data);
        }
    })
}

const GR: &str = "p sp 3 2\na 1 2 5\na 2 3 7\n";
const DISTANCES: &str = "0 0\n1 5\n2 12\n";

fn gzip(b: &[u8]) -> Vec<u8> {
    let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    z.write_all(b).unwrap();
    z.finish().unwrap()
}

/// The distances of `run GRAPH -s 0 -o -` with `extra` arguments.
fn distances(graph: &str, extra: &[&str], stdin: Option<&[u8]>) -> Output {
    let args = [&["run", graph, "-s", "0", "--device", "cpu", "-o", "-"][..], extra].concat();
    match stdin {
        Some(b) => sssp_stdin(&args, b),
        None => sssp(&args),
    }
}

/// `-`, /dev/stdin, a fifo and process substitution are read as streams, compressed or not:
/// before, /dev/stdin gave 0 vertices with exit 0, a fifo lost DIMACS's `p` line and a gzip
/// fifo said "Illegal seek".
#[test]
fn graphs_stream_from_stdin_and_fifos() {
    for data in [GR.as_bytes().to_vec(), gzip(GR.as_bytes())] {
        for name in ["-", "/dev/stdin"] {
            let o = distances(name, &["--format", "gr"], Some(&data));
            assert_eq!((o.status.code(), out(&o)), (Some(0), DISTANCES.into()), "{name}: {}", err(&o));
        }
        let f = tmp("g.fifo");
        let w = fifo(&f, data.clone());
        let o = distances(s(&f), &["--format", "gr"], None);
        w.join().unwrap();
        assert_eq!((o.status.code(), out(&o)), (Some(0), DISTANCES.into()), "fifo: {}", err(&o));
    }
    // A pipe into convert (it wrote 0 vertices): the graph arrives whole.
    let bin = tmp("piped.bin");
    let o = sssp_stdin(&["convert", "/dev/stdin", "--format", "el", s(&bin)], b"0 1 5\n1 2 7\n");
    assert!(err(&o).contains("3 vertices, 2 arcs"), "{}", err(&o));
    // A binary graph through a pipe, and one with a byte too many.
    let data = std::fs::read(&bin).unwrap();
    let o = distances("-", &["--format", "bin"], Some(&data));
    assert_eq!(out(&o), DISTANCES, "{}", err(&o));
    let o = sssp_stdin(&["info", "-", "--format", "bin"], &[&data[..], b"x"].concat());
    assert!(o.status.code() == Some(4) && err(&o).contains("too long"), "{}", err(&o));
    // `-` has no name to tell the format from.
    let o = sssp_stdin(&["info", "-"], GR.as_bytes());
    assert!(o.status.code() == Some(4) && err(&o).contains("--format"), "{}", err(&o));
}

/// `.zst` and `.bz2` load, by name and through a pipe (their magic bytes), and are refused as
/// outputs (read only) before any work.
#[test]
fn zstd_and_bzip2_inputs_load() {
    let zst = ruzstd::encoding::compress_to_vec(GR.as_bytes(), ruzstd::encoding::CompressionLevel::Fastest);
    let mut bz = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
    bz.write_all(GR.as_bytes()).unwrap();
    let bz = bz.finish().unwrap();
    for (name, data) in [("g.gr.zst", zst), ("g.gr.bz2", bz)] {
        let p = tmp(name);
        std::fs::write(&p, &data).unwrap();
        let o = distances(s(&p), &[], None);
        assert_eq!(out(&o), DISTANCES, "{name}: {}", err(&o));
        let o = distances("-", &["--format", "gr"], Some(&data));
        assert_eq!(out(&o), DISTANCES, "{name} on stdin: {}", err(&o));
        let o = sssp(&["convert", s(&p), s(&tmp(&format!("out.{name}")))]);
        assert!(o.status.code() == Some(2) && err(&o).contains("read but not written"), "{}", err(&o));
    }
}

/// Peak resident memory of `sssp ARGS` (its own, through `wait4`), its exit code and stderr.
// The child is reaped by `wait4`, which clippy does not see.
#[allow(clippy::zombie_processes)]
fn peak_rss(args: &[&str], stdin: Option<&Path>) -> (u64, Option<i32>, String) {
    let mut cmd = bin();
    cmd.args(args).stdout(Stdio::null()).stderr(Stdio::piped());
    if let Some(p) = stdin {
        cmd.stdin(std::fs::File::open(p).unwrap());
    }
    let mut child = cmd.spawn().unwrap();
    let mut stderr = String::new();
    child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
    let mut status = 0;
    // SAFETY: plain libc call on a child of this process that nothing else waits for.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = unsafe { libc::wait4(child.id() as i32, &mut status, 0, &mut usage) };
    assert_eq!(pid, child.id() as i32);
    let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    (usage.ru_maxrss as u64 * 1024, code, stderr)
}

/// A 7.8 MB gzip bomb is refused before it costs a gigabyte (it cost 1.49 GB). The limit
/// follows the compressed bytes read, so a file and a pipe are refused alike: an even bomb at
/// the 256 MiB floor; one whose first 4.5 MB expand only 2x (random digits) and the rest some
/// 200x stays within 100x of what it read, and so within 780 MB, until the parser refuses it.
#[test]
fn a_gzip_bomb_is_refused_under_a_gigabyte() {
    let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    z.write_all(&vec![b'\n'; 8 << 20]).unwrap();
    let member = z.finish().unwrap();
    let even = member.repeat(7_800_000 / member.len());
    let mut x = 12345u64;
    let digits: Vec<u8> = (0..9_000_000)
        .map(|_| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            b"0123456789 \n"[(x >> 33) as usize % 12]
        })
        .collect();
    let mut mixed = gzip(&digits);
    mixed.extend(member.repeat((7_800_000 - mixed.len()) / member.len()));
    for (name, bomb, says) in [("even.gr.gz", even, "decompression bomb"), ("mixed.gr.gz", mixed, "expected the `p sp")]
    {
        let p = tmp(name);
        std::fs::write(&p, &bomb).unwrap();
        for (args, stdin) in [(&["info", s(&p)][..], None), (&["info", "-", "--format", "gr"], Some(p.as_path()))] {
            let (rss, code, stderr) = peak_rss(args, stdin);
            assert_eq!(code, Some(4), "{name}: {stderr}");
            assert!(stderr.contains(says), "{name}: {stderr}");
            assert!(rss < 1 << 30, "{name}: {} MB", rss >> 20);
        }
    }
}

/// Bytes after the last gzip member, and NUL bytes in a text format (`/dev/zero`), are named
/// at once; they were "unexpected end of file" and an endless read.
#[test]
fn trailing_garbage_and_devices_are_refused_by_name() {
    let p = tmp("trailing.gr.gz");
    std::fs::write(&p, [gzip(GR.as_bytes()), b"garbage".to_vec()].concat()).unwrap();
    let o = sssp(&["info", s(&p)]);
    assert!(o.status.code() == Some(4) && err(&o).contains("bytes after the last gzip member"), "{}", err(&o));
    let t = std::time::Instant::now();
    let o = sssp(&["info", "/dev/zero", "--format", "el"]);
    assert!(o.status.code() == Some(4) && err(&o).contains("/dev/zero:1: a NUL byte"), "{}", err(&o));
    assert!(t.elapsed().as_secs() < 10);
    // A NUL byte hidden in a comment line is refused from a plain file as from a stream (the
    // file was read, the stream refused: a stream must read as the file does).
    let p = tmp("nul-comment.txt");
    std::fs::write(&p, b"# SNAP\n# \0 comment\n0\t1\n1\t2\n").unwrap();
    for (args, stdin) in
        [(&["info", s(&p), "--format", "snap"][..], None), (&["info", "-", "--format", "snap"], Some(p.as_path()))]
    {
        let (_, code, stderr) = peak_rss(args, stdin);
        assert!(code == Some(4) && stderr.contains(":2: a NUL byte"), "{args:?}: {stderr}");
    }
}

/// `/dev/zero` as a sources, targets or trace file is refused at a bound (it grew past 5 GB).
#[test]
fn auxiliary_files_are_read_with_a_bound() {
    let g = tmp("aux.gr");
    std::fs::write(&g, GR).unwrap();
    let t = std::time::Instant::now();
    for args in [
        &["run", s(&g), "--device", "cpu", "--sources-file", "/dev/zero"][..],
        &[
            "run",
            s(&g),
            "--device",
            "cpu",
            "-s",
            "0",
            "-o",
            "-",
            "--output-kind",
            "matrix",
            "--targets-file",
            "/dev/zero",
        ],
        &["plot", "/dev/zero", "-o", "-"],
    ] {
        let o = sssp(args);
        assert!(o.status.code() == Some(4) && err(&o).contains("/dev/zero: longer than"), "{args:?}: {}", err(&o));
    }
    assert!(t.elapsed().as_secs() < 20);
}

/// No output may be one of the run's inputs, nor two outputs one file: each of these exited
/// 0 and destroyed its input.
#[test]
fn outputs_never_overwrite_inputs() {
    let g = tmp("clobber.gr");
    std::fs::write(&g, GR).unwrap();
    let (src, trace, h) = (tmp("clobber.src"), tmp("clobber.csv"), tmp("clobber.ch"));
    std::fs::write(&src, "0\n").unwrap();
    assert!(sssp(&["run", s(&g), "-s", "0", "--device", "cpu", "-a", "workfront", "--trace", s(&trace)])
        .status
        .success());
    let before = std::fs::read(&trace).unwrap();
    let cpu = ["--device", "cpu"];
    let respelled = format!("{}/./clobber.src", s(src.parent().unwrap()));
    let cases: [(Vec<&str>, &str); 6] = [
        (vec!["run", s(&g), "-o", s(&src), "--sources-file", s(&src)], "is the --sources-file"),
        (vec!["run", s(&g), "-s", "0", "--trace", s(&trace), "-o", s(&trace)], "is the -o output"),
        (vec!["run", s(&g), "-s", "0", "-a", "phast", "--hierarchy", s(&h), "-o", s(&h)], "is the --hierarchy file"),
        (
            vec![
                "run",
                s(&g),
                "-s",
                "0",
                "-o",
                "-",
                "--output-kind",
                "matrix",
                "--targets-file",
                s(&src),
                "--trace",
                s(&src),
            ],
            "is the --targets-file",
        ),
        (vec!["plot", s(&trace), "-o", s(&trace)], "is a trace to draw"),
        // The same file by another spelling.
        (vec!["run", s(&g), "-o", &respelled, "--sources-file", s(&src)], "is the --sources-file"),
    ];
    for (args, says) in cases {
        let extra: &[&str] = if args[0] == "run" { &cpu } else { &[] };
        let args: Vec<&str> = args.iter().chain(extra).copied().collect();
        let o = sssp(&args);
        assert!(o.status.code() == Some(2) && err(&o).contains(says), "{args:?}: {}", err(&o));
    }
    assert_eq!(std::fs::read_to_string(&src).unwrap(), "0\n");
    assert_eq!(std::fs::read(&trace).unwrap(), before);
    assert!(!h.exists(), "no hierarchy written");
}

/// `--hierarchy` on a fifo is refused at once (it waited for a writer for ever).
#[test]
fn a_hierarchy_that_is_not_a_regular_file_is_refused() {
    let g = tmp("h.gr");
    std::fs::write(&g, GR).unwrap();
    let f = tmp("h.fifo");
    let _ = std::fs::remove_file(&f);
    assert!(Command::new("mkfifo").arg(&f).status().unwrap().success());
    let t = std::time::Instant::now();
    let o = sssp(&["run", s(&g), "-s", "0", "-a", "phast", "--device", "cpu", "--hierarchy", s(&f)]);
    assert!(o.status.code() == Some(4) && err(&o).contains("not a regular file"), "{}", err(&o));
    assert!(t.elapsed().as_secs() < 10);
}

/// `convert` refuses what would write the wrong thing: a `--to` that contradicts the name,
/// and `.sg` from weights that it would drop (unless asked).
#[test]
fn convert_refuses_contradicting_formats_and_lost_weights() {
    let g = tmp("c.gr");
    std::fs::write(&g, GR).unwrap();
    let o = sssp(&["convert", s(&g), s(&tmp("c-out.gr")), "--to", "mtx"]);
    assert!(o.status.code() == Some(2) && err(&o).contains("the name says gr and --to says mtx"), "{}", err(&o));
    assert!(!tmp("c-out.gr").exists());
    // A name without a known extension takes any --to; .el and .wel are written alike.
    assert!(sssp(&["convert", s(&g), s(&tmp("c-out.data")), "--to", "mtx"]).status.success());
    assert!(sssp(&["convert", s(&g), s(&tmp("c-out.el")), "--to", "wel"]).status.success());
    let sg = tmp("c.sg");
    let o = sssp(&["convert", s(&g), s(&sg)]);
    assert!(o.status.code() == Some(2) && err(&o).contains("--drop-weights"), "{}", err(&o));
    assert!(sssp(&["convert", s(&g), s(&sg), "--drop-weights"]).status.success());
    assert!(sssp(&["convert", s(&g), s(&sg), "--weights", "unit"]).status.success());
}

/// `diameter --bfs` on a weighted graph was ignored without a word.
#[test]
fn diameter_bfs_needs_unit_weights() {
    let g = tmp("d.gr");
    std::fs::write(&g, GR).unwrap();
    let o = sssp(&["diameter", s(&g), "--device", "cpu", "--bfs", "queue"]);
    assert!(o.status.code() == Some(2) && err(&o).contains("--bfs"), "{}", err(&o));
    let o = sssp(&["diameter", s(&g), "--device", "cpu", "--bfs", "queue", "--weights", "unit"]);
    assert!(o.status.success(), "{}", err(&o));
}

/// More delta-stepping threads than the machine runs are capped (20000 panicked "failed to
/// spawn thread"); past the hard limit they are refused.
#[test]
fn thread_counts_are_capped_and_bounded() {
    let g = tmp("t.gr");
    std::fs::write(&g, GR).unwrap();
    let cores = std::thread::available_parallelism().unwrap().get();
    let o = distances(s(&g), &["-a", "delta-stepping", "--workers", "4000"], None);
    assert_eq!(out(&o), DISTANCES, "{}", err(&o));
    let o = sssp(&["run", s(&g), "-s", "0", "-a", "delta-stepping", "--workers", "4000", "--json"]);
    assert!(out(&o).contains(&format!("CPU ({cores} thread")), "{}", out(&o));
    let o = sssp(&["run", s(&g), "-s", "0", "-a", "delta-stepping", "--workers", "20000"]);
    assert!(o.status.code() == Some(2) && err(&o).contains("at most 4096"), "{}", err(&o));
}

/// An f32 distance past the largest finite f32 says so (it read "does not fit in 32 bits").
#[test]
fn an_f32_overflow_names_the_largest_f32() {
    let g = tmp("overflow.mtx");
    std::fs::write(&g, "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 3e38\n2 3 3e38\n").unwrap();
    for algo in ["dijkstra", "near-far"] {
        let o = sssp(&["run", s(&g), "-s", "0", "--device", "cpu", "--algo", algo]);
        assert!(
            !o.status.success() && err(&o).contains("vertex 2") && err(&o).contains("largest finite f32"),
            "{algo}: {}",
            err(&o)
        );
    }
}
