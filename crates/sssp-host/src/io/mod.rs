//! Graph file formats: reading (text and binary, optionally gzip/xz compressed) and writing.
//!
//! | format | extensions | ids | weights |
//! |---|---|---|---|
//! | DIMACS shortest path ([`Format::Dimacs`]) | `.gr` | 1-based | given, may be negative |
//! | Matrix Market coordinate ([`Format::MatrixMarket`]) | `.mtx` | 1-based | `pattern`: none; `integer`; `real` per [`RealPolicy`] |
//! | edge list / SNAP ([`Format::EdgeList`]) | `.el`, `.txt`, `.edges`, `.snap` | 0-based | optional third column |
//! | GAP weighted edge list ([`Format::WeightedEdgeList`]) | `.wel` | 0-based | required third column |
//! | METIS ([`Format::Metis`]) | `.graph`, `.metis` | 1-based | per `fmt` |
//! | our binary CSR ([`Format::Binary`], see [`binary`]) | `.bin`, `.sssp` | 0-based | `u32` or `i32` |
//! | GAP's serialized graphs ([`Format::GapSerialized`], [`Format::GapWeighted`], see [`gap`]) | `.sg`, `.wsg` | 0-based | `.sg`: none; `.wsg`: `i32` |
//!
//! **Vertex ids.** Graphs always use 0-based ids. In the 1-based formats (DIMACS, Matrix Market,
//! METIS) file id `k` becomes vertex `k - 1`; ids outside `1..=N` are parse errors. In the 0-based
//! edge lists the vertex count is the largest id plus one, or `N` from a leading `# vertices: N`
//! comment (which the writer emits).
//!
//! **Plausibility before commitment.** A few bytes must not commit the program to gigabytes: a
//! vertex count that a header declares (DIMACS `p sp N M`, the Matrix Market size line, an edge
//! list's `# vertices: N`) or that an edge list's largest id implies may be at most
//! `16 * (edges + 1) + 1024`, and an edge count at most what the rest of the file can hold.
//! Beyond that the file is refused with a parse error on the header's line, before anything is
//! allocated. Genuinely sparse ids are kept with [`LoadOptions::sparse_ids`] (`--sparse-ids`),
//! which checks the count against memory instead ([`Error::OutOfHostMemory`] at once). METIS
//! needs no such rule (a line per vertex) and neither does a binary file (its size is checked
//! against its header).
//!
//! **Writing.** [`write_text`] writes every format in [`WRITABLE`] (all but METIS) so that reading
//! the file back gives the same graph: vertex count, arcs in CSR order, weights and their
//! signedness. A `.gz` / `.xz` suffix compresses, binary files included; `.zst` and `.bz2`
//! are refused ([`check_output_name`]).
//!
//! **Compression and streams.** A `.gz`, `.xz`, `.zst` or `.bz2` suffix is stripped before
//! the format is told from the name; the data itself is recognised by its magic bytes, so a
//! compressed file with a plain name also loads. The path `-` is standard input, and any input
//! that is not a regular file with a length (a fifo, `/dev/stdin`, process substitution, a
//! `/proc` file) is read as a stream, never seeked. Compressed inputs and streams are read into
//! memory within the bounds of [`EXPANSION`] (see `source.rs`), then parsed like any other
//! text. `.gz` and `.xz` are also written; `.zst` and `.bz2` are read only.
//!
//! **Speed.** A plain text file is memory-mapped (a compressed one or a stream is read into memory)
//! and cut into line-aligned chunks, several per thread. The chunks are parsed in parallel with
//! hand-written byte-level integer parsing into per-chunk vectors, which are then concatenated in
//! file order (also in parallel). A header (DIMACS `p` line, Matrix Market banner and size line,
//! METIS first line) is parsed first, so every chunk can check ids against the declared vertex
//! count. Line numbers are computed only for an error, by counting newlines before it.
//!
//! **Errors.** Every malformed input is an [`Error::Parse`] with the file, the exact 1-based line
//! and what was expected; a vertex id or count beyond [`MAX_VERTICES`](crate::graph::MAX_VERTICES)
//! is one too (a bad value in the file). Numbers that overflow 64 bits and weights outside `i32::MIN..=u32::MAX`
//! are parse errors. Nothing is silently dropped or repaired.
//!
//! **Undirected inputs and weights.** For symmetric Matrix Market files and METIS files the parser
//! emits both arcs of each edge itself (METIS lists both already; a symmetric matrix's diagonal
//! entry must give one self loop, not two, so `EdgeList::undirected` cannot be used). When such an input needs generated weights
//! (no weights in the file, or [`WeightSpec::Random`]), the parser
//! gives both arcs of an edge the *same* random weight and returns the list with weights filled
//! in; [`read_graph`] then builds it with the weights as returned. Callers of [`read_edge_list`] /
//! [`parse_text`] should do the same: build such a list with `WeightSpec::AsGiven`.
//!
//! **Binary files** are opened by [`binary::open`] without parsing or copying. `read_graph` applies
//! [`LoadOptions::weights`] and [`LoadOptions::symmetrize`] to them too (rebuilding the graph in
//! memory when either asks for a change); the other options concern text formats only.
//!
//! **Progress.** With [`LoadOptions::progress`] and stderr a terminal, a progress bar shows the
//! decompression and parsing phases; otherwise nothing is printed.

pub mod binary;
mod dimacs;
mod edgelist;
pub mod gap;
mod metis;
mod mtx;
mod source;
mod text;

use source::Compression;
pub(crate) use source::{read_bytes, Shape};
pub use source::{EXPANSION, EXPANSION_FLOOR};

use std::fs::File;
use std::io::{BufWriter, IsTerminal, Write};
use std::path::Path;

use crate::error::{Error, Result};
use crate::graph::{EdgeList, Graph, WeightSpec};

/// A graph file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// DIMACS shortest-path challenge `.gr`.
    Dimacs,
    /// Matrix Market coordinate `.mtx`.
    MatrixMarket,
    /// 0-based `u v [w]` lines (SNAP and GAP `.el`).
    EdgeList,
    /// 0-based `u v w` lines (GAP `.wel`).
    WeightedEdgeList,
    /// METIS / Chaco adjacency `.graph`.
    Metis,
    /// This crate's binary CSR (see [`binary`]).
    Binary,
    /// The GAP Benchmark Suite's serialized graph `.sg`, without weights (see [`gap`]).
    GapSerialized,
    /// GAP's weighted serialized graph `.wsg`: `i32` weights (see [`gap`]).
    GapWeighted,
}

impl Format {
    /// The format for a file name's extension, after stripping `.gz`, `.xz`, `.zst` or `.bz2`.
    pub fn from_path(p: &Path) -> Option<Format> {
        // Only the extension must be text: the rest of a (Unix) file name may be any bytes.
        let name = p.file_name()?.to_string_lossy().to_ascii_lowercase();
        let name = [".gz", ".xz", ".zst", ".bz2"].iter().find_map(|c| name.strip_suffix(c)).unwrap_or(&name);
        let (_, ext) = name.rsplit_once('.')?;
        Some(match ext {
            "gr" => Format::Dimacs,
            "mtx" => Format::MatrixMarket,
            "el" | "txt" | "edges" | "snap" => Format::EdgeList,
            "wel" => Format::WeightedEdgeList,
            "graph" | "metis" => Format::Metis,
            "bin" | "sssp" => Format::Binary,
            "sg" => Format::GapSerialized,
            "wsg" => Format::GapWeighted,
            _ => return None,
        })
    }

    /// A format by name: `gr`, `mtx`, `el`, `snap`, `wel`, `metis`, `bin`, `sg`, `wsg` (and a few aliases:
    /// `dimacs`, `txt`, `edges`, `graph`, `sssp`, `binary`), case-insensitive.
    pub fn parse(s: &str) -> Result<Format> {
        Ok(match s.to_ascii_lowercase().as_str() {
            "gr" | "dimacs" => Format::Dimacs,
            "mtx" | "matrixmarket" => Format::MatrixMarket,
            "el" | "snap" | "txt" | "edges" => Format::EdgeList,
            "wel" => Format::WeightedEdgeList,
            "metis" | "graph" => Format::Metis,
            "bin" | "binary" | "sssp" => Format::Binary,
            "sg" => Format::GapSerialized,
            "wsg" => Format::GapWeighted,
            _ => {
                return Err(Error::InvalidArgument(format!(
                    "unknown graph format `{s}`: expected one of gr, mtx, el, snap, wel, metis, bin, sg, wsg"
                )))
            }
        })
    }

    /// The canonical short name (what [`Format::parse`] accepts).
    pub fn name(self) -> &'static str {
        match self {
            Format::Dimacs => "gr",
            Format::MatrixMarket => "mtx",
            Format::EdgeList => "el",
            Format::WeightedEdgeList => "wel",
            Format::Metis => "metis",
            Format::Binary => "bin",
            Format::GapSerialized => "sg",
            Format::GapWeighted => "wsg",
        }
    }

    /// A binary format (read whole, never parsed as text): ours and GAP's.
    pub fn is_binary(self) -> bool {
        matches!(self, Format::Binary | Format::GapSerialized | Format::GapWeighted)
    }
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// How Matrix Market `real` values become weights.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum RealPolicy {
    /// Keep them as real (`f32`) weights, each value rounded to the nearest `f32` as `strtof`
    /// does: the graph gets [`crate::Weights::Real`] and real distances.
    #[default]
    Native,
    /// Refuse `real` files (when their weights would be used).
    Reject,
    /// Round to the nearest integer (halves away from zero).
    Round,
    /// Multiply by the factor, then round to the nearest integer. The factor must be finite and
    /// positive; a result outside the weight range is an error.
    Scale(f64),
}

impl RealPolicy {
    /// Parse `native`, `reject`, `round` or `scale:K`.
    pub fn parse(s: &str) -> Result<RealPolicy> {
        let err =
            || Error::InvalidArgument(format!("mtx-real `{s}`: expected native, reject, round or scale:K (K > 0)"));
        match s.split_once(':') {
            None if s == "native" => Ok(RealPolicy::Native),
            None if s == "reject" => Ok(RealPolicy::Reject),
            None if s == "round" => Ok(RealPolicy::Round),
            Some(("scale", k)) => {
                let k: f64 = k.parse().map_err(|_| err())?;
                if k.is_finite() && k > 0.0 {
                    Ok(RealPolicy::Scale(k))
                } else {
                    Err(err())
                }
            }
            _ => Err(err()),
        }
    }
}

/// How to load a graph file.
#[derive(Clone, Debug)]
pub struct LoadOptions {
    /// The format; `None` tells it from the file name.
    pub format: Option<Format>,
    /// Weights to use (see [`WeightSpec`]).
    pub weights: WeightSpec,
    /// Add the reverse of every arc.
    pub symmetrize: bool,
    /// Matrix Market `real` values.
    pub real: RealPolicy,
    /// Show a progress bar on a terminal.
    pub progress: bool,
    /// Accept a vertex count far beyond the edges (a header's `N`, a `# vertices: N` line, or
    /// the largest id of an edge list): more than `16 * (edges + 1) + 1024` is otherwise refused
    /// as implausible (see the module docs). The count is still checked against memory first.
    pub sparse_ids: bool,
}

impl Default for LoadOptions {
    fn default() -> Self {
        LoadOptions {
            format: None,
            weights: WeightSpec::AsGiven,
            symmetrize: false,
            real: RealPolicy::Native,
            progress: false,
            sparse_ids: false,
        }
    }
}

/// Load a graph in any format, binary included.
///
/// The format is `opts.format`, else told from the name (a `.gz` / `.xz` suffix is looked
/// through; compressed data is recognised by its magic bytes either way). Text is parsed in
/// parallel and built into CSR with `opts.weights` and `opts.symmetrize`; a binary file is
/// memory-mapped, not copied, unless those options ask for a change (see the module doc).
///
/// Errors: [`Error::Io`] for a file that cannot be read, [`Error::UnknownFormat`] for a name
/// without a known extension and no `opts.format`, [`Error::Parse`] naming the file, line and
/// what was expected for malformed input, [`Error::OutOfHostMemory`] when the sizes the file
/// declares cannot be allocated.
///
/// # Examples
///
/// ```
/// use sssp::io::{read_graph, LoadOptions};
///
/// // DIMACS: 3 vertices, arcs 1 -> 2 (weight 5) and 2 -> 3 (weight 7), ids 1-based in the file.
/// let path = std::env::temp_dir().join(format!("sssp-doc-read-graph-{}.gr", std::process::id()));
/// std::fs::write(&path, "c a path\np sp 3 2\na 1 2 5\na 2 3 7\n")?;
/// let g = read_graph(&path, &LoadOptions::default());
/// std::fs::remove_file(&path)?;
/// let g = g?;
/// assert_eq!((g.num_vertices(), g.num_arcs()), (3, 2));
/// assert_eq!(g.neighbors(1).collect::<Vec<_>>(), vec![(2, 7)]); // file's 2 -> 3 is 1 -> 2 here
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn read_graph(path: &Path, opts: &LoadOptions) -> Result<Graph> {
    let format = format_of(path, opts)?;
    match format {
        Format::Binary => return with_options(binary::open(path)?, opts),
        Format::GapSerialized | Format::GapWeighted => return gap::read(path, format == Format::GapWeighted, opts),
        _ => {}
    }
    let bytes = read_bytes(path, opts.progress, Shape::Text)?;
    let parsed = parse_any(path, &bytes, format, opts)?;
    // A file is read again for the line of a weight error (an error path only); a stream
    // cannot be, so its text is kept until the graph is built.
    let kept = if source::rereadable(path) {
        drop(bytes);
        None
    } else {
        Some(bytes)
    };
    // A list whose parser already generated weights (see the module docs) is built as returned.
    let spec = if parsed.weights_final { WeightSpec::AsGiven } else { opts.weights };
    parsed.edges.into_graph(spec, opts.symmetrize).map_err(|e| at_edge_line(path, format, e, kept.as_deref()))
}

/// A weight range error of the graph's build as a parse error at the edge's line: the range is
/// only known once every weight is (one negative weight makes them all `i32`), so the parsers
/// cannot tell, and the file is read again to find the line (an error path only).
fn at_edge_line(path: &Path, format: Format, e: Error, kept: Option<&[u8]>) -> Error {
    let Error::WeightOutOfRange { edge, weight, kind, .. } = e else { return e };
    let msg = format!("weight {weight} does not fit in {kind}");
    let line = match kept {
        Some(t) => edge_line(t, format, edge),
        None => read_bytes(path, false, Shape::Text).ok().and_then(|t| edge_line(&t, format, edge)),
    };
    Error::parse(path, line.unwrap_or(0), msg)
}

/// The 1-based line of edge `edge` (0-based, in file order) of a text graph, where the format
/// has one edge per line: DIMACS `a` lines, Matrix Market entries after the size line, edge
/// list lines that are not comments. `None` for METIS (edges share lines) or past the end.
fn edge_line(text: &[u8], format: Format, edge: u64) -> Option<u64> {
    let data = |l: &[u8]| -> bool {
        let l = l.trim_ascii();
        match format {
            Format::Dimacs => l.first() == Some(&b'a'),
            Format::MatrixMarket | Format::EdgeList | Format::WeightedEdgeList => {
                !l.is_empty() && !matches!(l[0], b'%' | b'#')
            }
            Format::Metis | Format::Binary | Format::GapSerialized | Format::GapWeighted => false,
        }
    };
    // Matrix Market's first data line is the size line, not an edge.
    let skip = u64::from(format == Format::MatrixMarket);
    let (k, _) =
        text.split(|&c| c == b'\n').enumerate().filter(|(_, l)| data(l)).nth(usize::try_from(edge + skip).ok()?)?;
    Some(k as u64 + 1)
}

/// Apply `weights` and `symmetrize` to an already built (binary) graph. The common case, neither,
/// keeps the graph as opened (memory-mapped); otherwise it is rebuilt like a text input, with
/// each arc an input edge.
fn with_options(g: Graph, opts: &LoadOptions) -> Result<Graph> {
    use rayon::prelude::*;
    if opts.weights == WeightSpec::AsGiven && !opts.symmetrize {
        return Ok(g);
    }
    let n = g.num_vertices();
    let mut src = vec![0u32; g.num_arcs()];
    let mut rest = &mut src[..];
    let mut rows = Vec::with_capacity(n);
    for v in 0..n as u32 {
        let (row, tail) = rest.split_at_mut(g.degree(v));
        rows.push((v, row));
        rest = tail;
    }
    rows.into_par_iter().for_each(|(v, row)| row.fill(v));
    let weights = Some((0..g.num_arcs()).into_par_iter().map(|e| g.weights().get(e)).collect());
    let real = g.metric() == crate::graph::Metric::Real;
    let edges = EdgeList { num_vertices: n as u32, src, dst: g.targets().to_vec(), weights, undirected: false, real };
    drop(g);
    edges.into_graph(opts.weights, opts.symmetrize)
}

/// Load a text format as an edge list (binary files are refused: they are already a graph).
pub fn read_edge_list(path: &Path, opts: &LoadOptions) -> Result<EdgeList> {
    let format = format_of(path, opts)?;
    if format.is_binary() {
        return Err(binary_is_not_text(path));
    }
    let bytes = read_bytes(path, opts.progress, Shape::Text)?;
    Ok(parse_any(path, &bytes, format, opts)?.edges)
}

/// Parse an in-memory (already decompressed) text. `name` is used in error messages only.
pub fn parse_text(name: &Path, bytes: &[u8], format: Format, opts: &LoadOptions) -> Result<EdgeList> {
    Ok(parse_any(name, bytes, format, opts)?.edges)
}

/// A piece of an input as error messages quote it: at most its first 40 bytes, then `...` if
/// there was more, with bytes other than printable ASCII escaped as `\xNN`. Every reader quotes
/// input through it, so a 10 MB line gives a short message, and a binary file given as text
/// writes no control characters to the terminal.
///
/// # Examples
///
/// ```
/// assert_eq!(sssp::io::excerpt(b"12x"), "12x");
/// assert_eq!(sssp::io::excerpt(&[b'9'; 10_000_000]), format!("{}...", "9".repeat(40)));
/// assert_eq!(sssp::io::excerpt(b"a\tb\x1b"), "a\\x09b\\x1b");
/// ```
pub fn excerpt(bytes: &[u8]) -> String {
    text::show(bytes)
}

/// The formats [`write_text`] can write keeping the graph exactly: vertex count, arcs in CSR
/// order and weights (edge lists get a third column and a `# vertices: N` line). It also writes
/// GAP's `.sg` (no weights) and `.wsg` (`i32` weights only), which keep less ([`gap`]); not
/// METIS.
pub const WRITABLE: [Format; 5] =
    [Format::Binary, Format::Dimacs, Format::MatrixMarket, Format::EdgeList, Format::WeightedEdgeList];

/// Write `g` as text (DIMACS, Matrix Market, edge list with weights) or binary, to `path` or,
/// for the path `-`, to standard output. A `.gz` or `.xz` suffix compresses the output, binary
/// included. METIS is refused (it describes undirected
/// graphs only), before any file is created. Reading the file back gives the same graph.
pub fn write_text(g: &Graph, path: &Path, format: Format) -> Result<()> {
    match format {
        Format::Metis => {
            return Err(Error::InvalidArgument(
                "writing METIS is not supported: METIS describes undirected graphs; use bin, gr, mtx, el or wel".into(),
            ))
        }
        Format::Binary => return binary::write(g, path),
        Format::GapSerialized | Format::GapWeighted => return gap::write(g, path, format == Format::GapWeighted),
        Format::Dimacs if g.metric() == crate::graph::Metric::Real => {
            return Err(Error::InvalidArgument(
                "DIMACS holds integer weights and this graph has real ones: write mtx, el, wel or bin".into(),
            ))
        }
        _ => {}
    }
    let mut sink = Sink::create(path)?;
    let written = match format {
        Format::Dimacs => dimacs::write(g, &mut sink),
        Format::MatrixMarket => mtx::write(g, &mut sink),
        // A plain edge list can hold weights as well as a weighted one; writing them is what
        // keeps `gen -o g.el` from being read back with random weights.
        _ => edgelist::write(g, &mut sink),
    };
    written.and_then(|()| sink.finish()).map_err(|e| Error::io(path, e))
}

/// A parsed edge list, and whether its weights were already generated per [`LoadOptions::weights`].
pub(crate) struct Parsed {
    pub edges: EdgeList,
    pub weights_final: bool,
}

impl From<EdgeList> for Parsed {
    fn from(edges: EdgeList) -> Self {
        Parsed { edges, weights_final: false }
    }
}

fn parse_any(name: &Path, bytes: &[u8], format: Format, opts: &LoadOptions) -> Result<Parsed> {
    // A UTF-8 byte order mark is not part of the first line; skipping it keeps positions (and so
    // line numbers) intact.
    let start = if bytes.starts_with(b"\xEF\xBB\xBF") { 3 } else { 0 };
    let progress = Progress::new(opts.progress, bytes.len() as u64, "parsing");
    let out = match format {
        Format::Dimacs => dimacs::parse(name, bytes, start, opts.sparse_ids, &progress).map(Parsed::from),
        Format::MatrixMarket => mtx::parse(name, bytes, start, opts, &progress),
        Format::EdgeList => edgelist::parse(name, bytes, start, false, opts.sparse_ids, &progress).map(Parsed::from),
        Format::WeightedEdgeList => {
            edgelist::parse(name, bytes, start, true, opts.sparse_ids, &progress).map(Parsed::from)
        }
        Format::Metis => metis::parse(name, bytes, start, opts, &progress),
        Format::Binary | Format::GapSerialized | Format::GapWeighted => Err(binary_is_not_text(name)),
    };
    progress.finish();
    out
}

fn binary_is_not_text(path: &Path) -> Error {
    Error::InvalidArgument(format!(
        "{}: binary graphs are not a text format; load them with read_graph",
        path.display()
    ))
}

fn format_of(path: &Path, opts: &LoadOptions) -> Result<Format> {
    opts.format.or_else(|| Format::from_path(path)).ok_or_else(|| Error::UnknownFormat { path: path.into() })
}

/// The rule for weights that a parser emitting both arcs of an undirected edge must generate
/// itself: `(lo, hi, seed)` when weights are to be random, `None` when the file's weights (or
/// unit weights, which are symmetric anyway) will do.
pub(crate) fn twin_weight_rule(spec: WeightSpec, file_has_weights: bool) -> Option<(u32, u32, u64)> {
    match spec {
        WeightSpec::Random { lo, hi, seed } => Some((lo, hi, seed)),
        WeightSpec::AsGiven if !file_has_weights => match WeightSpec::DEFAULT_RANDOM {
            WeightSpec::Random { lo, hi, seed } => Some((lo, hi, seed)),
            _ => None,
        },
        _ => None,
    }
}

/// An output file, compressed by its name's suffix, or standard output for the path `-` (the
/// command line's convention, kept here so that every writer honours it). `finish` must be
/// called to see errors.
pub(crate) enum Sink {
    Plain(BufWriter<Box<dyn Write>>),
    Gzip(flate2::write::GzEncoder<BufWriter<Box<dyn Write>>>),
    Xz(xz2::write::XzEncoder<BufWriter<Box<dyn Write>>>),
}

/// Refuse an output name whose compression suffix is read but not written: `.gz` and `.xz` are
/// written, `.zst` and `.bz2` only read (no encoder is built in), so such a name is refused
/// ([`Error::InvalidArgument`]) before anything is written rather than given plain bytes.
pub fn check_output_name(path: &Path) -> Result<()> {
    compression_to_write(path).map(|_| ())
}

/// The compression `path`'s name asks a writer for ([`check_output_name`]).
fn compression_to_write(path: &Path) -> Result<Compression> {
    let c = Compression::from_name(path);
    if matches!(c, Compression::Zstd | Compression::Bzip2) {
        return Err(Error::InvalidArgument(format!(
            "{}: .zst and .bz2 files are read but not written; write .gz, .xz or a plain file (and compress it after)",
            path.display()
        )));
    }
    Ok(c)
}

impl Sink {
    pub(crate) fn create(path: &Path) -> Result<Sink> {
        compression_to_write(path)?;
        let target: Box<dyn Write> = if path == Path::new("-") {
            Box::new(std::io::stdout())
        } else {
            Box::new(File::create(path).map_err(|e| Error::io(path, e))?)
        };
        let file = BufWriter::with_capacity(1 << 20, target);
        Ok(match compression_to_write(path)? {
            Compression::None => Sink::Plain(file),
            Compression::Gzip => Sink::Gzip(flate2::write::GzEncoder::new(file, flate2::Compression::default())),
            Compression::Xz => Sink::Xz(xz2::write::XzEncoder::new(file, 6)),
            Compression::Zstd | Compression::Bzip2 => unreachable!("refused by compression_to_write"),
        })
    }

    pub(crate) fn finish(self) -> std::io::Result<()> {
        let mut file = match self {
            Sink::Plain(f) => f,
            Sink::Gzip(z) => z.finish()?,
            Sink::Xz(z) => z.finish()?,
        };
        file.flush()
    }
}

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            Sink::Plain(f) => f.write(buf),
            Sink::Gzip(z) => z.write(buf),
            Sink::Xz(z) => z.write(buf),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Sink::Plain(f) => f.flush(),
            Sink::Gzip(z) => z.flush(),
            Sink::Xz(z) => z.flush(),
        }
    }
}

/// Render arcs as text lines in parallel blocks and write them in order; `line` appends arc `e`
/// of source `u`. Blocks are rendered a window at a time so memory stays bounded.
pub(crate) fn write_arcs<W: Write>(
    g: &Graph,
    out: &mut W,
    line: impl Fn(&mut Vec<u8>, u32, usize) + Sync,
) -> std::io::Result<()> {
    use rayon::prelude::*;
    const ARCS_PER_BLOCK: usize = 1 << 20;
    let n = g.num_vertices();
    let m = g.num_arcs();
    // Vertex boundaries of blocks of about ARCS_PER_BLOCK arcs (a high-degree vertex stays whole).
    let mut bounds = vec![0usize];
    let mut next = ARCS_PER_BLOCK;
    while next < m {
        let v = g.offsets().partition_point(|&o| (o as usize) < next).min(n);
        if v > *bounds.last().unwrap_or(&0) {
            bounds.push(v);
        }
        next += ARCS_PER_BLOCK;
    }
    bounds.push(n);
    let blocks: Vec<(usize, usize)> = bounds.windows(2).map(|w| (w[0], w[1])).collect();
    let window = rayon::current_num_threads() * 2;
    for group in blocks.chunks(window.max(1)) {
        let rendered: Vec<Vec<u8>> = group
            .par_iter()
            .map(|&(lo, hi)| {
                let arcs = (g.offsets()[hi] - g.offsets()[lo]) as usize;
                let mut buf = Vec::with_capacity(arcs * 24);
                for u in lo as u32..hi as u32 {
                    for e in g.arc_range(u) {
                        line(&mut buf, u, e);
                    }
                }
                buf
            })
            .collect();
        for b in rendered {
            out.write_all(&b)?;
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Progress

/// An optional progress bar: present only when asked for and stderr is a terminal.
pub(crate) struct Progress(Option<indicatif::ProgressBar>);

impl Progress {
    pub(crate) fn new(enabled: bool, len: u64, msg: &'static str) -> Progress {
        if !enabled || !std::io::stderr().is_terminal() {
            return Progress(None);
        }
        let style = indicatif::ProgressStyle::with_template(
            "{msg:>8} [{bar:40}] {bytes}/{total_bytes} ({bytes_per_sec}, {eta})",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar());
        let bar = indicatif::ProgressBar::new(len).with_style(style.progress_chars("=> ")).with_message(msg);
        Progress(Some(bar))
    }

    pub(crate) fn inc(&self, n: u64) {
        if let Some(b) = &self.0 {
            b.inc(n);
        }
    }

    pub(crate) fn finish(&self) {
        if let Some(b) = &self.0 {
            b.finish_and_clear();
        }
    }
}

/// What every format's unit tests need: parse a text, or take a parse error apart.
#[cfg(test)]
pub(crate) mod test_util {
    use super::{parse_text, Format, LoadOptions};
    use crate::error::Error;
    use crate::graph::EdgeList;
    use std::path::Path;

    /// Parse `text` as `format`, as if read from a file called `name`.
    pub fn parse(name: &str, format: Format, text: &str) -> crate::Result<EdgeList> {
        parse_text(Path::new(name), text.as_bytes(), format, &LoadOptions::default())
    }

    /// The (line, message) of the parse error `r` must be; anything else fails the test.
    pub fn parse_error(r: crate::Result<EdgeList>) -> (u64, String) {
        match r {
            Err(Error::Parse { line, msg, .. }) => (line, msg),
            other => panic!("expected a parse error, got {other:?}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_from_names_and_paths() {
        let f = |s: &str| Format::from_path(Path::new(s));
        assert_eq!(f("USA-road-d.NY.gr"), Some(Format::Dimacs));
        assert_eq!(f("a/b/USA-road-d.NY.GR.gz"), Some(Format::Dimacs));
        assert_eq!(f("web.mtx.xz"), Some(Format::MatrixMarket));
        assert_eq!(f("soc.txt"), Some(Format::EdgeList));
        assert_eq!(f("x.snap"), Some(Format::EdgeList));
        assert_eq!(f("x.wel"), Some(Format::WeightedEdgeList));
        assert_eq!(f("x.graph"), Some(Format::Metis));
        assert_eq!(f("x.sssp"), Some(Format::Binary));
        assert_eq!(f("x.gz"), None);
        assert_eq!(f("noext"), None);
        for name in ["gr", "mtx", "el", "snap", "wel", "metis", "bin"] {
            assert!(Format::parse(name).is_ok(), "{name}");
        }
        assert_eq!(Format::parse("SNAP").unwrap(), Format::EdgeList);
        assert!(matches!(Format::parse("csv"), Err(Error::InvalidArgument(_))));
    }

    #[test]
    fn real_policies_parse() {
        assert_eq!(RealPolicy::parse("round").unwrap(), RealPolicy::Round);
        assert_eq!(RealPolicy::parse("scale:1000").unwrap(), RealPolicy::Scale(1000.0));
        assert!(RealPolicy::parse("scale:-1").is_err());
        assert!(RealPolicy::parse("scale:nan").is_err());
        assert!(RealPolicy::parse("floor").is_err());
    }

    #[test]
    fn unknown_format_and_binary_as_text() {
        let opts = LoadOptions::default();
        assert!(matches!(read_graph(Path::new("/nonexistent/file.xyz"), &opts), Err(Error::UnknownFormat { .. })));
        assert!(matches!(read_graph(Path::new("/nonexistent/file.gr"), &opts), Err(Error::Io { .. })));
        assert!(matches!(parse_text(Path::new("x"), b"", Format::Binary, &opts), Err(Error::InvalidArgument(_))));
    }

    #[test]
    fn twin_weights_only_when_generated() {
        assert!(twin_weight_rule(WeightSpec::AsGiven, false).is_some());
        assert!(twin_weight_rule(WeightSpec::AsGiven, true).is_none());
        assert!(twin_weight_rule(WeightSpec::Unit, false).is_none());
        assert_eq!(twin_weight_rule(WeightSpec::Random { lo: 2, hi: 3, seed: 4 }, true), Some((2, 3, 4)));
    }
}
