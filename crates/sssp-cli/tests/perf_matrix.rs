//! The performance matrix's quick CPU form (`scripts/perf-matrix.sh`, QUICK=1 DEVICE=cpu), run
//! with this build's `sssp` as both the old and the new binary: every row of the quick matrix
//! is in its table, each with numbers that agree with the raw results beside it, and every
//! trial behind them verified. Timings are not asserted (they belong to the matrix itself).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

/// The quick rows this test runs (`ROWS`): one of each of auto's GPU and CPU arms (a road, a 2D
/// mesh, a sparse and a dense uniform graph, Kronecker graphs below and above the CPU's serial
/// bound) and a real graph; the other quick rows are the same code on bigger inputs, and they
/// would double the test's time. The ones generated in memory:
const GENERATED_ROWS: &[&str] =
    &["road 40k", "grid2d 400^2", "uniform 2^15 x 8", "uniform 2^16 x 16", "kron 10", "kron 12"];
/// ... and the real one (when ../shared/data is there).
const REAL_ROWS: &[&str] = &["ca-CondMat (social)"];

/// `ROWS` for these rows: their names, each matched whole.
fn rows_pattern() -> String {
    let names: Vec<String> = GENERATED_ROWS.iter().chain(REAL_ROWS).map(|r| regex_escape(r)).collect();
    format!("^({})$", names.join("|"))
}

fn regex_escape(s: &str) -> String {
    s.chars().map(|c| if "^()[]{}.*+?|\\$".contains(c) { format!("\\{c}") } else { c.to_string() }).collect()
}

#[test]
fn the_quick_cpu_matrix_has_every_row_and_consistent_numbers() {
    let root = repo();
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("perf-matrix");
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).unwrap();
    let out = tmp.join("out");
    let bin = env!("CARGO_BIN_EXE_sssp");
    let status = Command::new("bash")
        .arg(root.join("scripts/perf-matrix.sh"))
        .arg(&out)
        .env("OLD", bin)
        .env("NEW", bin)
        .env("DEVICE", "cpu")
        .env("QUICK", "1")
        .env("ROWS", rows_pattern())
        .env("ROUNDS", "2")
        .env("TRIALS", "1")
        .env("SWEEP_TRIALS", "1")
        .env("CACHE", tmp.join("graphs"))
        .env("DATA", root.join("../shared/data"))
        .stdout(std::process::Stdio::null())
        .stderr(std::fs::File::create(tmp.join("stderr.log")).unwrap())
        .status()
        .expect("run scripts/perf-matrix.sh (needs bash and python3)");
    let log = std::fs::read_to_string(tmp.join("stderr.log")).unwrap_or_default();
    assert!(status.success(), "perf-matrix.sh failed: {status}\n{log}");

    let table = std::fs::read_to_string(out.join("matrix.md")).unwrap();
    let mut rows = BTreeMap::new();
    for line in table.lines().filter(|l| l.starts_with("| ") && !l.starts_with("| graph") && !l.starts_with("|---")) {
        let cells: Vec<&str> = line.trim_matches('|').split(" | ").map(str::trim).collect();
        assert_eq!(cells.len(), 9, "{line}");
        rows.insert(cells[0].to_string(), cells.iter().map(|c| c.to_string()).collect::<Vec<_>>());
    }
    let have_data = root.join("../shared/data/road/USA-road-d.NY.gr.gz").exists();
    let expected: Vec<&str> = GENERATED_ROWS.iter().chain(if have_data { REAL_ROWS } else { &[] }).copied().collect();
    assert_eq!(rows.len(), expected.len(), "{table}");

    // The raw results: each row's two sides in both rounds plus its sweep, every trial verified.
    let raw = std::fs::read_to_string(out.join("raw.jsonl")).unwrap();
    let mut per_row: BTreeMap<String, Raw> = BTreeMap::new();
    for line in raw.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["verified"], true, "{line}");
        let e = per_row.entry(v["row"].as_str().unwrap().to_string()).or_default();
        let ms = v["median_ms"].as_f64().unwrap();
        match v["side"].as_str().unwrap() {
            "old" => e.old.push(ms),
            "new" => {
                e.new.push(ms);
                e.skewed |= v["chosen"].as_str().unwrap_or_default().contains("skewed");
            }
            _ => e.sweep.push((v["algo"].as_str().unwrap().to_string(), ms)),
        }
    }
    for name in &expected {
        let c = rows.get(*name).unwrap_or_else(|| panic!("row `{name}` missing:\n{table}"));
        let r = &per_row[*name];
        assert_eq!((r.old.len(), r.new.len()), (2, 2), "{name}: two rounds of old and new");
        // auto, then Workfront once and Near-Far and Bucketing at four widths for each balance
        // mode (skewed graphs: partition balance only).
        assert_eq!(r.sweep.len(), 1 + if r.skewed { 1 } else { 2 } * 9, "{name}: sweep rows");
        assert!(!c[1].is_empty() && c[1] != "?", "{name}: no pick");
        // A side's time is the median of its rounds (two: their mean), shown to 3 decimals.
        let (old, new) = (median(&r.old), median(&r.new));
        assert_eq!(c[2].split(' ').next().unwrap(), format!("{old:.3}"), "{name}");
        assert_eq!(c[3].split(' ').next().unwrap(), format!("{new:.3}"), "{name}");
        assert_eq!(c[4], format!("{:.2}", new / old), "{name}");
        let verdict = if min(&r.new) > max(&r.old) {
            "slower"
        } else if max(&r.new) < min(&r.old) {
            "faster"
        } else {
            "same"
        };
        assert_eq!(c[5], verdict, "{name}");
        // The best is the sweep's fastest row, and auto/best compares the sweep's own auto row.
        let best = min(&r.sweep.iter().map(|s| s.1).collect::<Vec<_>>());
        let auto = r.sweep.iter().find(|s| s.0 == "auto").expect("auto in the sweep").1;
        assert_eq!(c[7], format!("{best:.3}"), "{name}");
        assert_eq!(c[8], format!("{:.2}", auto / best), "{name}");
        assert!(auto / best >= 1.0, "{name}");
    }
}

#[derive(Default)]
struct Raw {
    old: Vec<f64>,
    new: Vec<f64>,
    sweep: Vec<(String, f64)>,
    skewed: bool,
}

fn min(xs: &[f64]) -> f64 {
    xs.iter().copied().fold(f64::INFINITY, f64::min)
}

fn max(xs: &[f64]) -> f64 {
    xs.iter().copied().fold(f64::NEG_INFINITY, f64::max)
}

/// Python's `statistics.median`.
fn median(xs: &[f64]) -> f64 {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}
