//! Run the `sssp` binary on one input with a time limit, and measure it: exit status, wall
//! time, peak resident memory (from `wait4`), what it wrote to stdout and the length of what it
//! wrote to stderr. The input may be fed as a stream ([`Feed`]): through a pipe on standard
//! input or through a named pipe, each written by a `cat` process that is killed when the run
//! ends (a reader that stops early leaves its writer blocked; a process is easy to end, a
//! thread is not).

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

/// How the input file reaches the program.
#[derive(Clone, Copy, Debug)]
pub enum Feed<'a> {
    /// It reads the file itself (named in its arguments).
    File,
    /// This file through a pipe on its standard input.
    Stdin(&'a Path),
    /// This file (`.0`) through the named pipe `.1` (made here), which its arguments name.
    Fifo(&'a Path, &'a Path),
}

#[derive(Debug)]
pub struct Outcome {
    pub end: End,
    pub wall: Duration,
    pub max_rss: u64,
    /// stdout and stderr, each cut to its first 4 KiB, and stderr's full length.
    pub stdout: String,
    pub stderr: String,
    pub stderr_len: u64,
}

/// How often the runner looks whether the child has ended.
const POLL: Duration = Duration::from_micros(500);

/// Run `exe args` in `dir` (stdout to `dir/stdout`, stderr to `dir/stderr`) with its input
/// fed as `feed` says, killing it after `limit`.
pub fn run(exe: &Path, args: &[String], dir: &Path, limit: Duration, feed: Feed) -> std::io::Result<Outcome> {
    let (out_path, err_path) = (dir.join("stdout"), dir.join("stderr"));
    let mut cmd = Command::new(exe);
    cmd.args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out_path)?)
        .stderr(std::fs::File::create(&err_path)?)
        // Colours and progress bars are for people; keep the output plain and comparable.
        .env("NO_COLOR", "1");
    let mut feeder = match feed {
        Feed::File => None,
        Feed::Stdin(input) => {
            let mut cat = Command::new("cat").arg(input).stdout(Stdio::piped()).stderr(Stdio::null()).spawn()?;
            cmd.stdin(Stdio::from(cat.stdout.take().expect("piped")));
            Some(cat)
        }
        Feed::Fifo(input, fifo) => {
            make_fifo(fifo)?;
            let mut sh = Command::new("sh");
            sh.args(["-c", "exec cat \"$0\" > \"$1\""]).arg(input).arg(fifo).stderr(Stdio::null());
            Some(sh.spawn()?)
        }
    };
    let start = Instant::now();
    let child = cmd.spawn()?;
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
    if let Some(mut f) = feeder.take() {
        f.kill().ok();
        f.wait()?;
    }
    let head = |b: &[u8]| String::from_utf8_lossy(&b[..b.len().min(4096)]).into_owned();
    let bytes = std::fs::read(&err_path)?;
    let stdout = head(&std::fs::read(&out_path)?);
    Ok(Outcome { end, wall, max_rss, stdout, stderr: head(&bytes), stderr_len: bytes.len() as u64 })
}

/// A new named pipe at `path` (an old one, or a file left there, is replaced).
fn make_fifo(path: &Path) -> std::io::Result<()> {
    use std::os::unix::ffi::OsStrExt;
    std::fs::remove_file(path).ok();
    let c = std::ffi::CString::new(path.as_os_str().as_bytes()).map_err(std::io::Error::other)?;
    // SAFETY: `c` is a valid NUL-terminated path that outlives the call.
    if unsafe { libc::mkfifo(c.as_ptr(), 0o600) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}
