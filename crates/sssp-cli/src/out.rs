//! Standard output: data only, ending the program quietly when its reader goes away.
//!
//! - `println!` panics when stdout is a closed pipe (`sssp bench X --json | head -1`: "failed
//!   printing to stdout: Broken pipe", exit 101). A reader that has seen enough is not an error,
//!   so every line of results goes through [`outln!`], which exits with status 0 on `BrokenPipe`
//!   (nothing more can be delivered, and the work so far was correct), and result files written
//!   to `-` end the same way ([`reader_left`], checked where `main` turns errors into exit
//!   codes). Any other write error (a full disk behind a redirect) is a file that cannot be
//!   written: exit 4, as for `-o FILE`.
//! - `-` names standard output wherever the CLI writes a file (`-o`, `--trace`, `gen`,
//!   `convert`, `plot`). When results go there, statistics go to standard error
//!   ([`Channel::for_stats`]), so standard output holds nothing but the data.

use std::io::Write;
use std::path::{Path, PathBuf};

use sssp::{Error, Result};

/// Write one line to stdout (see the module docs for what a failed write does).
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::out::line(format_args!($($arg)*))
    };
}

/// The exit status of a write to standard output that failed for another reason than a
/// departed reader: the documented code of a file that cannot be written.
const WRITE_FAILED: i32 = 4;

/// The function behind [`outln!`].
pub fn line(args: std::fmt::Arguments) {
    let mut out = std::io::stdout().lock();
    let written = out.write_fmt(args).and_then(|()| out.write_all(b"\n")).and_then(|()| out.flush());
    if let Err(e) = written {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("sssp: error: writing to standard output: {e}");
        std::process::exit(WRITE_FAILED);
    }
}

/// Whether `path` names standard output.
pub fn is_stdout(path: &Path) -> bool {
    path == Path::new("-")
}

/// `path` for a message: its name, or "standard output" for `-`.
pub fn name(path: &Path) -> String {
    if is_stdout(path) {
        "standard output".into()
    } else {
        path.display().to_string()
    }
}

/// Whether `e` says that the reader of standard output went away (`sssp run -o - | head`):
/// the program then ends quietly with status 0, like [`outln!`].
pub fn reader_left(e: &Error) -> bool {
    matches!(e, Error::Io { path, source } if is_stdout(path) && source.kind() == std::io::ErrorKind::BrokenPipe)
}

/// Where statistics lines go: standard output, unless results are written there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Channel {
    /// Statistics are the command's output.
    Stdout,
    /// Results own standard output; statistics go beside the other messages.
    Stderr,
}

impl Channel {
    /// [`Channel::Stderr`] when one of `outputs` is standard output, else [`Channel::Stdout`].
    pub fn for_stats<'a>(outputs: impl IntoIterator<Item = &'a PathBuf>) -> Channel {
        if outputs.into_iter().any(|p| is_stdout(p)) {
            Channel::Stderr
        } else {
            Channel::Stdout
        }
    }

    /// Write one line to this channel.
    pub fn line(self, args: std::fmt::Arguments) {
        match self {
            Channel::Stdout => line(args),
            Channel::Stderr => eprintln!("{args}"),
        }
    }
}

/// Fail now, before any loading or solving, if `path` cannot be written: an output that fails
/// only after a long solve wastes the solve. Opens without truncating, and removes the file
/// again if this check created it, so nothing changes on disk.
pub fn check_writable(path: &Path) -> Result<()> {
    if is_stdout(path) {
        return Ok(());
    }
    let existed = path.exists();
    std::fs::OpenOptions::new().append(true).create(true).open(path).map_err(|e| Error::io(path, e))?;
    if !existed {
        let _ = std::fs::remove_file(path);
    }
    Ok(())
}

/// Refuse to write an output over one of the run's inputs, or two outputs to one file: a
/// binary graph is used straight from a memory map, and truncating the file under it kills the
/// process with SIGBUS (`sssp convert g.bin g.bin`, found by the fuzzer); any other input (a
/// sources file, a trace, a hierarchy) would be lost, and two outputs would overwrite each
/// other. `outputs` and `inputs` are (what it is, path) pairs, e.g. ("-o", p), ("the input
/// graph", g), read in messages as "-o P is the input graph"; standard output (`-`) and generated graphs (`gen:`) are no files.
pub fn check_distinct(outputs: &[(&str, &Path)], inputs: &[(&str, &Path)]) -> Result<()> {
    for (k, &(what, out)) in outputs.iter().enumerate() {
        if is_stdout(out) {
            continue;
        }
        let earlier = outputs[..k].iter().map(|&(w, p)| (format!("the {w} output"), p));
        let mut all = inputs.iter().map(|&(w, p)| (w.to_string(), p)).chain(earlier);
        if let Some((other, _)) = all.find(|(_, other)| same_file(out, other)) {
            return Err(Error::InvalidArgument(format!(
                "{what} {} is {other}: write the output to another file",
                out.display()
            )));
        }
    }
    Ok(())
}

/// Whether `a` and `b` name one file: the same device and inode when both exist (links and
/// different spellings of one path included), else the same absolute path once the directory
/// part is resolved (an output not yet created).
pub fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    if is_stdout(a) || is_stdout(b) || b.to_str().is_some_and(|s| s.starts_with("gen:")) {
        return false;
    }
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(x), Ok(y)) => (x.dev(), x.ino()) == (y.dev(), y.ino()),
        (Err(_), Err(_)) => resolved(a).is_some_and(|x| resolved(b) == Some(x)),
        _ => false,
    }
}

/// `p` with its directory canonicalized (the file itself may not exist yet).
fn resolved(p: &Path) -> Option<PathBuf> {
    let name = p.file_name()?;
    let dir = match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    Some(std::fs::canonicalize(dir).ok()?.join(name))
}
