//! The library's one error type. Every fallible public function returns [`Result`]; variants are
//! typed so callers can match on them, and only the CLI turns them into messages and exit codes.

use std::path::PathBuf;

/// Result alias used across the crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong in `sssp`.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// An I/O failure on a named file.
    #[error("{path}: {source}")]
    Io {
        /// The file (or directory) the operation was on.
        path: PathBuf,
        /// What the operating system said.
        source: std::io::Error,
    },

    /// Malformed input: the file, the 1-based line (0 when not line-oriented, e.g. binary) and
    /// what was expected there. Line 0 is not printed: `file: msg` rather than `file:0: msg`.
    #[error("{}{}: {msg}", path.display(), line_suffix(*line))]
    Parse {
        /// The file being read.
        path: PathBuf,
        /// 1-based line, or 0 when the format has no lines (binary) or the check is whole-file.
        line: u64,
        /// What was found and what was expected instead.
        msg: String,
    },

    /// The input's format could not be told from its name and none was given.
    #[error(
        "{path}: cannot tell the graph format from the file name; pass --format (gr, mtx, el, wel, snap, metis, bin, sg, wsg)"
    )]
    UnknownFormat {
        /// The name whose extension is not a known format.
        path: PathBuf,
    },

    /// A vertex id outside `0..n`.
    #[error("vertex {vertex} is out of range: the graph has {num_vertices} vertices (ids 0..{num_vertices})")]
    VertexOutOfRange {
        /// The id that was given (`u64` so that ids too large for `u32` are reported as given).
        vertex: u64,
        /// The graph's vertex count `n`.
        num_vertices: u64,
    },

    /// The graph is larger than the u32 vertex ids / u64 edge offsets can address.
    #[error("graph too large: {what}")]
    TooLarge {
        /// Which size overflowed and the limit, e.g. "5000000000 vertices (at most ...)".
        what: String,
    },

    /// An edge's integer weight outside the type the graph keeps its weights in: `u32`, or `i32`
    /// once some weight is negative. Reading a file reports it as [`Error::Parse`] at the
    /// edge's line instead.
    #[error("weight {weight} of edge {from} -> {to} does not fit in {kind}")]
    WeightOutOfRange {
        /// The edge's index in the edge list (0-based, in input order).
        edge: u64,
        /// Its tail.
        from: u32,
        /// Its head.
        to: u32,
        /// The weight as given.
        weight: i64,
        /// The type and why: `u32`, or `i32 (the graph has negative weights)`.
        kind: &'static str,
    },

    /// A weight that is not a weight: an `f32` that is NaN, infinite or negative (real weights
    /// must be finite and `>= 0`), given to a typed graph's constructor
    /// ([`crate::Graph::from_edges`]). Files report it as [`Error::Parse`] at its line.
    #[error("weight {weight} of edge {edge} ({from} -> {to}): {why}")]
    InvalidWeight {
        /// The edge's index in the input (0-based, in input order).
        edge: u64,
        /// Its tail.
        from: u32,
        /// Its head.
        to: u32,
        /// The weight as given, printed.
        weight: String,
        /// Why it cannot be a weight.
        why: String,
    },

    /// An algorithm that needs non-negative weights was given a negative one.
    #[error("negative edge weight {weight} on arc {from} -> {to}; {}", needs_nonnegative(algo))]
    NegativeWeight {
        /// The algorithm that refused, as the user named it.
        algo: String,
        /// Tail of the first negative arc found.
        from: u32,
        /// Head of that arc.
        to: u32,
        /// Its weight (< 0).
        weight: i64,
    },

    /// A negative cycle is reachable from the source, so shortest paths are undefined.
    #[error("a negative cycle is reachable from the source: {} (total weight {weight})", show_cycle(cycle))]
    NegativeCycle {
        /// The smallest vertex id on the cycle (`cycle[0]`).
        vertex: u32,
        /// The cycle's vertices in arc order, starting at `vertex`: arcs `cycle[i] ->
        /// cycle[i + 1]` and `cycle[last] -> cycle[0]`.
        cycle: Vec<u32>,
        /// Its total weight (< 0), taking the lightest of parallel arcs.
        weight: i64,
    },

    /// A shortest distance does not fit the distance type in use.
    #[error("shortest distance to vertex {vertex} does not fit in {}", distance_width(*bits))]
    DistanceOverflow {
        /// The first vertex found whose distance does not fit.
        vertex: u32,
        /// Width of the distance type that overflowed (32 on the engines).
        bits: u32,
    },

    /// A path was asked for to a vertex the source cannot reach.
    #[error("vertex {to} is not reachable from {from}: there is no path")]
    Unreachable {
        /// The source.
        from: u32,
        /// The target it cannot reach.
        to: u32,
    },

    /// A path was asked for within a distance cutoff, and the target is farther than the cutoff
    /// (or not reachable at all: a bounded search cannot tell the two apart).
    #[error("vertex {to} is not within the cutoff {cutoff} of {from}: no path that short (raise the cutoff, or leave it out, to find a longer one)")]
    NotWithin {
        /// The source.
        from: u32,
        /// The target beyond the cutoff.
        to: u32,
        /// The cutoff, as the query gave it.
        cutoff: String,
    },

    /// A distance result failed verification.
    #[error("verification failed: {0}")]
    Verification(String),

    /// The requested device is not usable (no driver, no GPU, or CUDA failed to start).
    #[error("GPU not available: {0}")]
    NoGpu(String),

    /// Graph plus working buffers do not fit in device memory.
    #[error("graph does not fit on {device}: needs {needed} bytes, {available} available")]
    OutOfDeviceMemory {
        /// The device's name, as [`Engine::device`](crate::engine::Engine::device) gives it.
        device: String,
        /// Bytes the graph and working buffers need.
        needed: u64,
        /// Bytes the device reported free.
        available: u64,
    },

    /// A host allocation whose size the input decides cannot be had (see [`mem`](crate::mem)): the bytes asked
    /// for, so the user can tell a wrong size from a machine that is too small.
    #[error("out of host memory: the input needs {needed} bytes")]
    OutOfHostMemory {
        /// Bytes of the allocation that failed.
        needed: u64,
    },

    /// A CUDA driver call failed.
    #[error("CUDA error: {0}")]
    Cuda(String),

    /// An argument combination that is not valid.
    #[error("invalid argument: {0}")]
    InvalidArgument(String),

    /// A distributed run's communication failed: a rank left its group (it failed, and its
    /// own error is the run's), or the communicator (NCCL) reported an error
    /// ([`crate::distributed`]).
    #[error("communication failed: {0}")]
    Communication(String),
}

/// Who refused a negative weight and, for an SSSP algorithm, which ones take it. `diameter`
/// has no such alternative: its bounds need non-negative weights whatever runs the SSSPs.
fn needs_nonnegative(algo: &str) -> String {
    if algo == "diameter" {
        "the diameter needs non-negative weights (its eccentricity bounds rest on them)".into()
    } else {
        format!(
            "algorithm `{algo}` needs non-negative weights (workfront, topo-bf and bellman-ford take negative ones)"
        )
    }
}

/// `:LINE` for a line-oriented position, nothing for line 0 (binary files, whole-file checks).
fn line_suffix(line: u64) -> String {
    if line == 0 {
        String::new()
    } else {
        format!(":{line}")
    }
}

impl Error {
    /// Shorthand for a parse error.
    pub fn parse(path: impl Into<PathBuf>, line: u64, msg: impl Into<String>) -> Self {
        Error::Parse { path: path.into(), line, msg: msg.into() }
    }

    /// Shorthand for an I/O error on a path.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io { path: path.into(), source }
    }
}

/// A cycle for a message: `3 -> 5 -> 7 -> 3`, or its first 16 vertices and a count.
fn show_cycle(c: &[u32]) -> String {
    const SHOWN: usize = 16;
    let mut s: Vec<String> = c.iter().take(SHOWN).map(u32::to_string).collect();
    if c.len() > SHOWN {
        s.push(format!("... ({} vertices)", c.len()));
    }
    s.push(c.first().map_or(String::new(), u32::to_string));
    s.join(" -> ")
}

/// How [`Error::DistanceOverflow`] names the distances that overflowed: the engines' 32-bit ones
/// hold a `u32`, an `i32` or an `f32` by the graph's weights (an `f32` overflows past its largest
/// finite value, not at a bit count).
fn distance_width(bits: u32) -> String {
    match bits {
        32 => "the 32-bit distances (the u32 or i32 range; with f32 weights, the largest finite f32, 3.4e38)".into(),
        b => format!("{b} bits"),
    }
}
