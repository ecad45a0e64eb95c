//! Standard output that ends the program quietly when its reader goes away.
//!
//! `println!` panics when stdout is a closed pipe (`sssp bench X --json | head -1`: "failed
//! printing to stdout: Broken pipe", exit 101). A reader that has seen enough is not an error,
//! so every line of results goes through [`outln!`], which exits with status 0 on `BrokenPipe`
//! (nothing more can be delivered, and the work so far was correct). Any other write error
//! (a full disk behind a redirect) is reported and exits 1.

use std::io::Write;

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
