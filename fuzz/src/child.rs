//! Run the `sssp` binary on one input with a time limit, and measure it: exit status, wall
//! time, peak resident memory (from `wait4`) and the length of what it wrote to stderr.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How one run ended.
#[derive(Debug)]
pub enum End {
    /// Exit code.
    Code(i32),
    /// Killed by this signal (not by us).
    Signal(i32),
    /// Still running at the limit; killed.
    TimedOut,
}

#[derive(Debug)]
pub struct Outcome {
    pub end: End,
    pub wall: Duration,
    pub max_rss: u64,
    /// stderr, cut to its first 4 KiB, and its full length.
    pub stderr: String,
    pub stderr_len: u64,
}

/// How often the runner looks whether the child has ended.
const POLL: Duration = Duration::from_micros(500);

/// Run `exe args` in `dir` (stdout discarded, stderr to `dir/stderr`), killing it after `limit`.
pub fn run(exe: &Path, args: &[String], dir: &Path, limit: Duration) -> std::io::Result<Outcome> {
    let err_path = dir.join("stderr");
    let err_file = std::fs::File::create(&err_path)?;
    let start = Instant::now();
    let child = Command::new(exe)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(err_file)
        // Colours and progress bars are for people; keep the output plain and comparable.
        .env("NO_COLOR", "1")
        .spawn()?;
    let pid = child.id() as libc::pid_t;
    let (end, max_rss) = loop {
        let mut status = 0;
        // SAFETY: zeroed rusage is a valid out-parameter; `pid` is our own child, reaped here
        // exactly once (std's `Child` is never waited on).
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        let r = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if r == pid {
            let rss = usage.ru_maxrss as u64 * 1024;
            let end = if libc::WIFEXITED(status) {
                End::Code(libc::WEXITSTATUS(status))
            } else {
                End::Signal(libc::WTERMSIG(status))
            };
            break (end, rss);
        }
        if r < 0 {
            return Err(std::io::Error::last_os_error());
        }
        if start.elapsed() > limit {
            // SAFETY: signalling our own, not yet reaped, child.
            unsafe { libc::kill(pid, libc::SIGKILL) };
            unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
            break (End::TimedOut, usage.ru_maxrss as u64 * 1024);
        }
        std::thread::sleep(POLL);
    };
    let wall = start.elapsed();
    let bytes = std::fs::read(&err_path)?;
    let stderr = String::from_utf8_lossy(&bytes[..bytes.len().min(4096)]).into_owned();
    Ok(Outcome { end, wall, max_rss, stderr, stderr_len: bytes.len() as u64 })
}
