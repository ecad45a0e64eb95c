//! The fuzz loop (a worker) and its supervisor.
//!
//! A worker runs iterations `start..` of one target: each mutates a seed with an [`Rng`] seeded
//! from `(seed, target, iteration)`, runs it, and files what it found. An input can still take
//! the worker down (an allocation failure aborts; a hang never returns), so [`supervise`] runs
//! the worker as a child process: when it dies, the input it was running (left in its work
//! directory) is filed as a finding and a new worker goes on from the next iteration.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::mutate::Rng;
use crate::target::{Bench, Finding, Input, Target, HANG};

/// What one fuzzing session is asked to do.
#[derive(Clone, Debug)]
pub struct Config {
    pub target: Target,
    pub seed: u64,
    pub seconds: Option<u64>,
    pub iterations: Option<u64>,
    pub corpus: PathBuf,
    pub findings: PathBuf,
    pub sssp: Option<PathBuf>,
    /// The first iteration (a restarted worker goes on where the last one died).
    pub start: u64,
}

/// How a session went.
#[derive(Debug, Default)]
pub struct Summary {
    pub execs: u64,
    pub findings: u64,
    /// The findings' buckets, as filed.
    pub buckets: Vec<String>,
}

/// Inputs kept per bucket: enough to see the pattern, not thousands of copies of one bug.
const KEEP_PER_BUCKET: usize = 3;
/// Exit status of a worker whose watchdog saw an input run past [`HANG`].
const HANG_EXIT: i32 = 75;

fn iteration_seed(seed: u64, target: Target, iter: u64) -> u64 {
    sssp::rng::hash2(sssp::rng::hash2(seed, target as u64), iter)
}

/// The work directory of a target: inputs are written here before each run.
pub fn work_dir(c: &Config) -> PathBuf {
    c.findings.join(".work").join(c.target.name())
}

/// Run iterations in this process until a limit is reached.
pub fn work(c: &Config) -> Result<Summary, String> {
    let bench = Bench::new(c.target, &c.corpus, work_dir(c), c.sssp.clone())?;
    let started = Instant::now();
    let mut sum = Summary::default();
    let watch = Watchdog::start(c.target.needs_binary());
    let iter_file = bench.work.join("iteration");
    let mut iter = c.start;
    loop {
        if c.iterations.is_some_and(|n| iter >= c.start + n)
            || c.seconds.is_some_and(|s| started.elapsed().as_secs() >= s)
        {
            break;
        }
        let mut rng = Rng::new(iteration_seed(c.seed, c.target, iter));
        // Without an extension the supervisor knows that the harness itself died (mutating).
        std::fs::write(&iter_file, format!("{iter}")).map_err(|e| e.to_string())?;
        let input = bench.mutate(&mut rng);
        std::fs::write(&iter_file, format!("{iter} {}", input.ext)).map_err(|e| e.to_string())?;
        watch.begin();
        let found = bench.run(&input, &mut rng)?;
        watch.end();
        sum.execs += 1;
        for f in found {
            sum.findings += 1;
            sum.buckets.push(file(&c.findings, c.target, &f, &input, iter)?);
        }
        iter += 1;
    }
    Ok(sum)
}

/// Save a finding under `findings/TARGET/BUCKET/`: its input, what was seen and how to replay.
/// The bucket is the class plus the detail with its numbers blanked, so one bug found with
/// different sizes files once.
pub fn file(findings: &Path, t: Target, f: &Finding, input: &Input, iter: u64) -> Result<String, String> {
    // What the input contributes to a message (after the first backtick) varies with the input;
    // the bug is in the text before it.
    let stem = f.detail.split('`').next().unwrap_or("");
    let shape: String = stem.chars().take(80).map(|c| if c.is_ascii_digit() { '#' } else { c }).collect();
    let key = sssp::rng::hash2(0, shape.bytes().fold(0u64, |h, b| sssp::rng::hash2(h, b as u64)));
    let bucket = format!("{}-{:08x}", f.class, key as u32);
    let dir = findings.join(t.name()).join(&bucket);
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let kept = std::fs::read_dir(&dir).map_err(|e| e.to_string())?.count() / 2;
    if kept < KEEP_PER_BUCKET {
        let ext = if input.bytes.len() > 1 << 20 { format!("{}.big", input.ext) } else { input.ext.clone() };
        std::fs::write(dir.join(format!("{iter}.{ext}")), &input.bytes).map_err(|e| e.to_string())?;
        std::fs::write(dir.join(format!("{iter}.finding")), format!("{}: {}\n", f.class, f.detail))
            .map_err(|e| e.to_string())?;
    }
    Ok(bucket)
}

/// Ends the worker with [`HANG_EXIT`] when one input runs past [`HANG`] (an in-process reader
/// cannot be interrupted; the children of the CLI targets are killed by their runner instead).
struct Watchdog(Option<Arc<AtomicU64>>);

impl Watchdog {
    fn start(off: bool) -> Watchdog {
        if off {
            return Watchdog(None);
        }
        let began = Arc::new(AtomicU64::new(0));
        let seen = began.clone();
        let epoch = Instant::now();
        std::thread::spawn(move || loop {
            std::thread::sleep(Duration::from_millis(200));
            let b = seen.load(Relaxed);
            if b != 0 && epoch.elapsed().as_millis() as u64 > b + HANG.as_millis() as u64 {
                std::process::exit(HANG_EXIT);
            }
        });
        // The thread keeps its own epoch; `begin` stores milliseconds since it (+1: 0 is idle).
        EPOCH.get_or_init(|| epoch);
        Watchdog(Some(began))
    }

    fn begin(&self) {
        if let (Some(b), Some(e)) = (&self.0, EPOCH.get()) {
            b.store(e.elapsed().as_millis() as u64 + 1, Relaxed);
        }
    }

    fn end(&self) {
        if let Some(b) = &self.0 {
            b.store(0, Relaxed);
        }
    }
}

static EPOCH: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();

/// Run workers (`exe --worker ...`, the `sssp-fuzz` binary) for `c` until its limits,
/// restarting after each crash or hang; print a summary line.
pub fn supervise(c: &Config, exe: &Path) -> Result<Summary, String> {
    let started = Instant::now();
    let mut total = Summary::default();
    let mut start = c.start;
    loop {
        let left_s = c.seconds.map(|s| s.saturating_sub(started.elapsed().as_secs()));
        let left_n = c.iterations.map(|n| (c.start + n).saturating_sub(start));
        if left_s == Some(0) || left_n == Some(0) {
            break;
        }
        let mut cmd = Command::new(exe);
        cmd.args(["--worker", c.target.name(), "--seed", &c.seed.to_string(), "--start", &start.to_string()]);
        cmd.arg("--corpus").arg(&c.corpus).arg("--findings").arg(&c.findings);
        if let Some(s) = left_s {
            cmd.args(["--seconds", &s.to_string()]);
        }
        if let Some(n) = left_n {
            cmd.args(["--iterations", &n.to_string()]);
        }
        if let Some(p) = &c.sssp {
            cmd.arg("--sssp").arg(p);
        }
        let err_path = work_dir(c).with_extension("stderr");
        std::fs::create_dir_all(work_dir(c)).map_err(|e| e.to_string())?;
        let err = std::fs::File::create(&err_path).map_err(|e| e.to_string())?;
        let out = cmd.stderr(err).stdout(Stdio::piped()).output().map_err(|e| e.to_string())?;
        let report = String::from_utf8_lossy(&out.stdout);
        if out.status.success() {
            let mut it = report.split_whitespace();
            let (execs, findings) = (it.next(), it.next());
            total.execs += execs.and_then(|x| x.parse().ok()).unwrap_or(0);
            total.findings += findings.and_then(|x| x.parse().ok()).unwrap_or(0);
            total.buckets.extend(it.map(str::to_string));
            break;
        }
        // The worker died on an input: file it, and go on after it.
        let (iter, ext) = std::fs::read_to_string(work_dir(c).join("iteration"))
            .ok()
            .and_then(|s| s.split_once(' ').map(|(i, e)| (i.parse::<u64>().ok(), e.to_string())))
            .and_then(|(i, e)| Some((i?, e)))
            .ok_or_else(|| {
                let err = std::fs::read_to_string(&err_path).unwrap_or_default();
                format!("the worker failed outside any reader (a harness bug): {}", err.trim())
            })?;
        let bytes = std::fs::read(work_dir(c).join(format!("input.{ext}"))).unwrap_or_default();
        let stderr = std::fs::read_to_string(&err_path).unwrap_or_default();
        let last = stderr.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("").to_string();
        let f = match out.status.code() {
            Some(HANG_EXIT) => Finding { class: "hang", detail: format!("ran past {HANG:?}") },
            _ => Finding { class: "abort", detail: format!("{:?}: {last}", out.status) },
        };
        total.execs += iter + 1 - start;
        total.findings += 1;
        total.buckets.push(file(&c.findings, c.target, &f, &Input { bytes, ext }, iter)?);
        start = iter + 1;
    }
    let secs = started.elapsed().as_secs_f64();
    let mut buckets = total.buckets.clone();
    buckets.sort();
    buckets.dedup();
    println!(
        "{}: {} execs in {secs:.0} s ({:.0}/s), {} findings in {} buckets {:?}",
        c.target.name(),
        total.execs,
        total.execs as f64 / secs.max(1e-9),
        total.findings,
        buckets.len(),
        buckets
    );
    std::io::stdout().flush().ok();
    Ok(total)
}
