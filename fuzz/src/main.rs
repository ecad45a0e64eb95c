//! `sssp-fuzz TARGET|all [--seed S] [--seconds N] [--iterations N] [--findings DIR]
//! [--corpus DIR] [--sssp PATH]`: fuzz one target (or each in turn) and print a summary line
//! per target. See the library docs for what is checked.

use std::path::PathBuf;
use std::process::ExitCode;

use sssp_fuzz::driver::{self, Config};
use sssp_fuzz::target::{self, Target};

const USAGE: &str = "usage: sssp-fuzz TARGET|all [--seed S] [--seconds N] [--iterations N] [--findings DIR] [--corpus DIR] [--sssp PATH] [--start I]
targets: dimacs mtx edgelist metis binary gap hierarchy sources targets plot args";

fn main() -> ExitCode {
    match parse(std::env::args().skip(1).collect()) {
        Ok((worker, targets, c)) => {
            sssp_fuzz::quiet_panics();
            for t in targets {
                let c = Config { target: t, ..c.clone() };
                let r = if worker {
                    driver::work(&c).map(|s| println!("{} {} {}", s.execs, s.findings, s.buckets.join(" ")))
                } else {
                    std::env::current_exe()
                        .map_err(|e| e.to_string())
                        .and_then(|exe| driver::supervise(&c, &exe))
                        .map(drop)
                };
                if let Err(e) = r {
                    eprintln!("sssp-fuzz: {}: {e}", t.name());
                    return ExitCode::from(2);
                }
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("sssp-fuzz: {e}\n{USAGE}");
            ExitCode::from(2)
        }
    }
}

fn parse(args: Vec<String>) -> Result<(bool, Vec<Target>, Config), String> {
    let here = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    // The `sssp` binary built beside this one (same profile), unless --sssp names another.
    let beside = std::env::current_exe().ok().and_then(|e| Some(e.parent()?.join("sssp")));
    let mut c = Config {
        target: Target::Dimacs,
        seed: 1,
        seconds: None,
        iterations: None,
        corpus: here.join("corpus"),
        findings: here.join("findings"),
        sssp: beside,
        start: 0,
    };
    let (mut worker, mut targets) = (false, vec![]);
    let mut it = args.into_iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().ok_or(format!("{a} needs a value"));
        let num = |v: String| v.parse::<u64>().map_err(|_| format!("not a number: {v}"));
        match a.as_str() {
            "--worker" => worker = true,
            "--seed" => c.seed = num(value()?)?,
            "--seconds" => c.seconds = Some(num(value()?)?),
            "--iterations" => c.iterations = Some(num(value()?)?),
            "--start" => c.start = num(value()?)?,
            "--findings" => c.findings = value()?.into(),
            "--corpus" => c.corpus = value()?.into(),
            "--sssp" => c.sssp = Some(value()?.into()),
            "all" => targets.extend(target::ALL),
            t => targets.push(Target::parse(t).ok_or(format!("unknown target or option `{t}`"))?),
        }
    }
    if targets.is_empty() {
        return Err("no target".into());
    }
    if c.seconds.is_none() && c.iterations.is_none() {
        c.seconds = Some(60);
    }
    Ok((worker, targets, c))
}
