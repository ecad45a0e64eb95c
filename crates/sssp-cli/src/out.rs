//! Standard output that ends the program quietly when its reader goes away.
//!
//! `println!` panics when stdout is a closed pipe (`sssp bench X --json | head -1`: "failed
//! printing to stdout: Broken pipe", exit 101). A reader that has seen enough is not an error,
//! so every line of results goes through [`outln!`], which exits with status 0 on `BrokenPipe`
//! (nothing more can be delivered, and the work so far was correct). Any other write error
//! (a full disk behind a redirect) is reported and exits 1.

use std::io::Write;
use std::path::Path;

use sssp::{Error, Result};

/// Write one line to stdout (see the module docs for what a failed write does).
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::out::line(format_args!($($arg)*))
    };
}

/// The function behind [`outln!`].
pub fn line(args: std::fmt::Arguments) {
    let mut out = std::io::stdout().lock();
    let written = out.write_fmt(args).and_then(|()| out.write_all(b"\n")).and_then(|()| out.flush());
    if let Err(e) = written {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("sssp: error: writing to standard output: {e}");
        std::process::exit(1);
    }
}

/// Fail now, before any loading or solving, if `path` cannot be written: an output that fails
/// only after a long solve wastes the solve. Opens without truncating, and removes the file
/// again if this check created it, so nothing changes on disk.
pub fn check_writable(path: &Path) -> Result<()> {
    if path == Path::new("-") {
        return Ok(()); // standard output
    }
    let existed = path.exists();
    std::fs::OpenOptions::new().append(true).create(true).open(path).map_err(|e| Error::io(path, e))?;
    if !existed {
        let _ = std::fs::remove_file(path);
    }
    Ok(())
}

/// Refuse to write the output over the input graph: a binary graph is used straight from a
/// memory map, and truncating the file under it kills the process with SIGBUS
/// (`sssp convert g.bin g.bin`, found by the fuzzer); a text one would be lost.
pub fn check_not_input(out: &Path, graph: &str) -> Result<()> {
    use std::os::unix::fs::MetadataExt;
    let (Ok(o), Ok(g)) = (std::fs::metadata(out), std::fs::metadata(graph)) else {
        return Ok(()); // a new output, or a generated graph: nothing to overwrite
    };
    if (o.dev(), o.ino()) == (g.dev(), g.ino()) {
        return Err(Error::InvalidArgument(format!(
            "{} is the input graph: write the output to another file",
            out.display()
        )));
    }
    Ok(())
}
