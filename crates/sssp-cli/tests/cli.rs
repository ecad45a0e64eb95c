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
fn negative_weights_need_bellman_ford() {
    let g = tmp("neg.gr");
    std::fs::write(&g, "p sp 3 3\na 1 2 4\na 2 3 -2\na 1 3 3\n").unwrap();
    let o = sssp(&["run", s(&g), "--source", "0", "--algo", "workfront", "--device", "cpu"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o).1.contains("negative edge weight -2 on arc 1 -> 2"), "{:?}", text(&o));
    let out = tmp("neg.txt");
    let o = sssp(&["run", s(&g), "--source", "0", "--algo", "bellman-ford", "--verify", "-o", s(&out)]);
    assert!(o.status.success(), "{:?}", text(&o));
    assert_eq!(std::fs::read_to_string(out).unwrap(), "0 0\n1 4\n2 2\n");
    std::fs::write(&g, "p sp 2 2\na 1 2 -1\na 2 1 -1\n").unwrap();
    let o = sssp(&["run", s(&g), "--source", "0", "--algo", "bellman-ford"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o).1.contains("negative cycle"));
}

#[test]
fn gpu_request_without_gpu_is_exit_5() {
    let o = sssp(&["run", "gen:path:10", "--source", "0", "--device", "gpu"]);
    // On the GPU machine this succeeds; everywhere else it must be the typed "no GPU" error,
    // never a silent CPU fallback.
    match o.status.code() {
        Some(0) => assert!(text(&o).0.contains("(CUDA)")),
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
fn empty_graph_is_an_error_not_a_silent_success() {
    let g = tmp("empty.gr");
    std::fs::write(&g, "p sp 0 0\n").unwrap();
    for cmd in ["run", "bench"] {
        let o = sssp(&[cmd, s(&g), "--device", "cpu"]);
        assert_eq!(o.status.code(), Some(2), "{cmd}: {:?}", text(&o));
        assert!(text(&o).1.contains("no vertices"));
    }
}

#[test]
fn info_reports_counts() {
    let o = sssp(&["info", "gen:disconnected:3:30", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["vertices"], 30);
    assert_eq!(v["weak_components"], 3);
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
