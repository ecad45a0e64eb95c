//! Seeded mutation fuzzing of every reader of the `sssp` project and of the CLI's argument
//! paths, on the stable toolchain (cargo-fuzz needs nightly).
//!
//! The goal it checks: no input of any size or shape makes the program abort,
//! panic, hang or take more than 1 GB or 2 s before it answers or refuses, unless the graph it
//! describes needs it; and no error message repeats an unbounded piece of the input.
//!
//! Targets ([`target::ALL`]): `dimacs`, `mtx`, `edgelist`, `metis`, `binary`, `gap` (graph files read
//! by `sssp::io::read_graph`), `hierarchy` (`Hierarchy::read` of the corpus graph, then an
//! upward search with what it accepted), and, through the built `sssp` binary, `sources`
//! (`--sources-file`), `targets` (`--targets-file`), `plot` (trace CSVs), `args` (argument
//! vectors over a tiny graph) and `stream` (every text seed, compressed ones too, read as a file
//! and then through a pipe on standard input or a named pipe: the stream must read as the file
//! does, same exit code and same report, within the same limits).
//!
//! Each iteration mutates a seed from `fuzz/corpus/TARGET/` ([`mutate`]), runs it, and files a
//! finding under `--findings DIR/TARGET/BUCKET/` (the input as `ITERATION.EXT`, what was seen as
//! `ITERATION.finding`) for a panic, an abort, a signal, an exit code
//! other than 0-6, a hang (10 s), a run over 2 s, a heap over 1 GB (the counting allocator of
//! [`alloc`] also refuses requests past that), or an error message over 600 bytes.
//! The binary formats' seeds are written from the text corpora at start-up, so they follow the
//! writers; half their mutations get a recomputed checksum ([`checksum`]).
//!
//! Work the input asks for is not a finding: the `args` target lets a `gen` graph take what
//! it needs, and lets a count of 100 or more (`bench -n 742`) run past 2 s (not past the hang
//! limit); usage text may run to 4 KiB there.
//!
//! Iteration `i` of target `t` replays from `(--seed, t, i)` alone: `--start i --iterations 1`.

pub mod alloc;
pub mod checksum;
pub mod child;
pub mod driver;
pub mod mutate;
pub mod target;

#[global_allocator]
static ALLOC: alloc::Counting = alloc::Counting;

/// Quiet panics: a caught panic is a finding, filed with its message; the default hook would
/// print a backtrace note for each of thousands of them.
pub fn quiet_panics() {
    std::panic::set_hook(Box::new(|_| {}));
}
