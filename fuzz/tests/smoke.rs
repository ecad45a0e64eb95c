//! The CI smoke run: every target for a few hundred iterations with a fixed seed (a few
//! seconds in all), failing on any finding. Long runs are `sssp-fuzz TARGET --seconds N`.

use std::path::{Path, PathBuf};
use std::process::Command;

use sssp_fuzz::driver::{supervise, Config};
use sssp_fuzz::target::ALL;

const SEED: u64 = 26;
const IN_PROCESS_ITERATIONS: u64 = 300;
/// Each of these starts a process, so fewer.
const CLI_ITERATIONS: u64 = 60;

/// The `sssp` binary of this build (`cargo test -p sssp-fuzz` alone does not build it).
fn sssp_binary(dir: &Path) -> PathBuf {
    let mut cmd = Command::new(env!("CARGO"));
    cmd.args(["build", "--quiet", "-p", "sssp-cli", "--bin", "sssp"]);
    if !cfg!(debug_assertions) {
        cmd.arg("--release");
    }
    let status = cmd.status().expect("cargo runs");
    assert!(status.success(), "cargo build -p sssp-cli failed");
    let exe = dir.join("sssp");
    assert!(exe.exists(), "{} was not built", exe.display());
    exe
}

#[test]
fn every_target_survives_a_short_run() {
    let worker = PathBuf::from(env!("CARGO_BIN_EXE_sssp-fuzz"));
    let dir = worker.parent().expect("a directory").to_path_buf();
    let sssp = sssp_binary(&dir);
    let findings = std::env::temp_dir().join(format!("sssp-fuzz-smoke-{}", std::process::id()));
    let mut bad = vec![];
    for t in ALL {
        let c = Config {
            target: t,
            seed: SEED,
            seconds: None,
            iterations: Some(if t.needs_binary() { CLI_ITERATIONS } else { IN_PROCESS_ITERATIONS }),
            corpus: Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus"),
            findings: findings.clone(),
            sssp: Some(sssp.clone()),
            start: 0,
        };
        let s = supervise(&c, &worker).unwrap_or_else(|e| panic!("{}: {e}", t.name()));
        assert!(s.execs >= c.iterations.unwrap_or(0), "{}: only {} executions", t.name(), s.execs);
        bad.extend(s.buckets.iter().map(|b| format!("{}/{b}", t.name())));
    }
    assert!(bad.is_empty(), "findings (inputs under {}): {bad:?}", findings.display());
    std::fs::remove_dir_all(&findings).ok();
}
