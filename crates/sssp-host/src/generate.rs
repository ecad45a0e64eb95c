//! Seeded graph generators: every graph is a pure function of `(GenSpec, seed)`.
//!
//! Each family first builds a *shape*: vertex count, an edge list (`src`, `dst`), whether each
//! edge stands for two arcs, and the family's natural weights, which are either a random stream
//! (`lo..=hi`, a pure function of a seed derived from the generator seed and the edge index) or
//! explicit values for families that define their own (road lengths, planted zeros). From a
//! shape, [`generate_edges`] materialises an [`EdgeList`] (what `sssp gen` writes) and
//! [`generate`] builds the CSR [`Graph`] directly. Both agree exactly: `generate(s, seed, w)` has
//! the same offsets, targets and weights as `generate_edges(s, seed)?.into_graph(w, false)`, so
//! a written-then-read graph is the one the engine would have generated (tested below).
//!
//! Reproducibility: randomness comes only from [`crate::rng`]. Per-item values are
//! `hash2(stream seed, item index)`, never a shared sequential stream inside parallel code, so
//! results are identical for every thread count and machine. Kronecker, uniform, heavy and
//! complete edges and the whole CSR build are parallel; grids, roads (Kruskal's spanning tree)
//! and the small adversarial families are plain serial loops, deterministic by construction.
//!
//! Memory: the big families (Kronecker, uniform) must reach 2^32 arcs. [`generate`] therefore
//! does not go through `EdgeList::into_graph` (which keeps several 8- and 16-byte temporaries per
//! arc); it builds the CSR from the shape's edge list with `graph::csr_blocked`, whose passes
//! over the edges keep their work (each arc's tail, key and head: the key is the edge index,
//! plus `m` for the reverse arc of an undirected edge) in the output arrays themselves, and make
//! `into_graph`'s order (forward arcs in input order, then reverse arcs in input order). Peak is
//! the CSR plus the edge list, about 12 bytes per arc. Measured on 16 cores with the build it
//! replaced (atomic cursors and a sort per vertex; the same peak), kron:24 took 10 s and 6.4
//! GB, kron:26 53 s and 26 GB; on the 2-core machine this one turns the edges of kron:22 and
//! kron:23 into the CSR 3.2 to 3.8 times as fast, on one thread or two (the commit
//! that made it has the numbers). A generator may produce at most [`MAX_GEN_ARCS`] = 2^34 arcs
//! (kron 29): about 12 bytes an arc while generating, 200 GB at that size, checked against the
//! memory there is before anything is allocated. (The build kept its keys in 32 bits up to
//! 2^32 arcs; it carries a key's high bits beside the tail since, `graph::blocked`.)
//!
//! Kronecker follows Graph500: R-MAT quadrant probabilities A = .57, B = C = .19, D = .05, no
//! noise, `edge_factor * 2^scale` undirected edges (two arcs each, like GAP's `-g`), self loops
//! and duplicates kept (both are legal in our model), and vertex ids relabelled by a seeded
//! permutation so that the densest vertex is not vertex 0. The permutation is a keyed bijection
//! on `scale`-bit integers (rounds of xor, odd multiply and xorshift), which needs no memory and
//! is computed per edge in parallel, instead of a shuffled table.

use std::fmt;

use rayon::prelude::*;

use crate::error::{Error, Result};
use crate::graph::{csr_blocked, Buf, EdgeList, Graph, WeightSpec, Weights, MAX_VERTICES};
use crate::mem;
use crate::rng::{self, Rng};

/// Most arcs any generator may produce (2^34, kron 29's): generating that many takes about
/// 200 GB of memory (12 bytes an arc: the CSR and the edge list), more than any host this
/// project runs on but the largest GPU hosts, and far beyond what the CSR build could hold
/// (`graph::blocked`, 2^40).
pub const MAX_GEN_ARCS: u64 = 1 << 34;

/// Graph500's default edge factor.
pub const KRON_EDGE_FACTOR: u32 = 16;

/// A generator family with its size parameters. Parse one with [`GenSpec::parse`]; the
/// canonical text form is [`GenSpec::name`] (also `Display`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GenSpec {
    /// Graph500 Kronecker / R-MAT: `2^scale` vertices, `edge_factor * 2^scale` undirected edges.
    Kron {
        /// log2 of the vertex count.
        scale: u32,
        /// Undirected edges per vertex ([`KRON_EDGE_FACTOR`] unless given).
        edge_factor: u32,
    },
    /// `n` vertices and `n * degree` directed arcs with independent uniform endpoints, G(n, m).
    Uniform {
        /// Number of vertices.
        n: u32,
        /// Arcs per vertex, on average (each arc's tail is random too).
        degree: u32,
    },
    /// `w x h` 4-neighbour grid, arcs both ways; vertex `(x, y)` is `y * w + x`.
    Grid2d {
        /// Width: vertices per row.
        w: u32,
        /// Height: number of rows.
        h: u32,
    },
    /// `x * y * z` 6-neighbour grid, arcs both ways; vertex `(i, j, k)` is `(k * y + j) * x + i`.
    Grid3d {
        /// Extent along the fastest-varying axis.
        x: u32,
        /// Extent along the middle axis.
        y: u32,
        /// Extent along the slowest-varying axis.
        z: u32,
    },
    /// Road-like planar network: jittered grid points, a random spanning tree of the grid plus
    /// some more grid edges and diagonals (about 2.5 arcs per vertex), connected, weights the
    /// rounded Euclidean lengths (a grid cell is 1000 units).
    Road {
        /// Number of vertices.
        n: u32,
    },
    /// `0 - 1 - ... - n-1`, arcs both ways: hop diameter `n - 1`.
    Path {
        /// Number of vertices.
        n: u32,
    },
    /// Hub 0 joined both ways to every other vertex.
    Star {
        /// Number of vertices.
        n: u32,
    },
    /// Every ordered pair `u != v` once, each arc with its own weight.
    Complete {
        /// Number of vertices.
        n: u32,
    },
    /// `n` vertices in `parts` strongly connected components (vertex `v` is in part
    /// `v % parts`), so most vertices are unreachable from any source.
    Disconnected {
        /// Number of components.
        parts: u32,
        /// Number of vertices, in all components together.
        n: u32,
    },
    /// Random digraph with directed zero-weight cycles and about half the other weights 0.
    ZeroWeights {
        /// Number of vertices.
        n: u32,
    },
    /// Random digraph with a self loop on every vertex (some weigh 0), two on every fourth.
    SelfLoops {
        /// Number of vertices.
        n: u32,
    },
    /// Random digraph where every arc comes 2 to 4 times with different weights, the copies
    /// not adjacent in the adjacency list.
    MultiEdges {
        /// Number of vertices.
        n: u32,
    },
    /// Random digraph with weights in `[2^31, 2^32)`: every distance past one hop overflows
    /// 32 bits (for engines that keep 32-bit distances).
    Heavy {
        /// Number of vertices.
        n: u32,
    },
    /// A planted negative cycle (H-BF's negative-weight inputs): a strongly connected base
    /// digraph on vertices `0..n` (the cycle `0 -> 1 -> ... -> n-1 -> 0` plus `2n` random arcs,
    /// weights `1..=255`) and a cycle on `len` more vertices `n..n+len` whose arcs weigh 1 but
    /// the last, which weighs `-len`, so the cycle's total is -1 (the least negative a cycle of
    /// integers can be: the hardest to detect). How it hangs off the base is [`Reach`]. Weights
    /// are the family's own (`--weights given`).
    NegativeCycle {
        /// Vertices of the base graph.
        n: u32,
        /// Vertices (and arcs) of the planted cycle.
        len: u32,
        /// Whether the base reaches the cycle, and whether the cycle leads back into the base.
        reach: Reach,
    },
}

/// How [`GenSpec::NegativeCycle`]'s cycle is joined to its base graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reach {
    /// `in`: one arc from base vertex 0 into the cycle; every base vertex reaches it.
    In,
    /// `out`: one arc from the cycle to vertex 0; no base vertex reaches it (only sources on the
    /// cycle do), so runs from the base must succeed.
    Out,
    /// `both`: the two arcs, so every lap around the cycle lowers the whole base again, the
    /// costly case for detection by hop counts (`n / LEN` laps).
    Both,
}

impl GenSpec {
    /// The accepted forms, one per line, for `--help`.
    pub const HELP: &'static str = "\
kron:SCALE[:EF]        Graph500 Kronecker (R-MAT .57/.19/.19/.05): 2^SCALE vertices, EF*2^SCALE undirected edges (EF default 16), ids permuted
uniform:N:DEG          N vertices, N*DEG directed arcs with uniform random endpoints
grid2d:WxH             W*H 4-neighbour grid, arcs both ways
grid3d:XxYxZ           X*Y*Z 6-neighbour grid, arcs both ways
road:N                 road-like planar network: N jittered grid points, ~2.5 arcs/vertex, connected, Euclidean weights
path:N                 path 0-1-...-(N-1), arcs both ways
star:N                 hub 0 joined both ways to vertices 1..N-1
complete:N             all N*(N-1) ordered pairs
disconnected:PARTS:N   N vertices in PARTS strongly connected components (vertex v in part v % PARTS)
zero:N                 random digraph with zero-weight cycles, about half the weights 0
selfloops:N            random digraph with self loops on every vertex
multi:N                random digraph, every arc 2-4 times with different weights
heavy:N                random digraph with weights in [2^31, 2^32): distances overflow 32 bits
negcycle:N:LEN:REACH   strongly connected N-vertex digraph plus a planted cycle of LEN vertices and weight -1 (vertices N..N+LEN), reached from the base (REACH = in), not (out), or reached and feeding back (both)";

    /// Parse a generator spec such as `kron:22`, `grid2d:1000x1000` or `disconnected:4:1000`
    /// (see [`GenSpec::HELP`]). Sizes are validated: zero sizes, more than `u32::MAX` vertices or
    /// more than [`MAX_GEN_ARCS`] arcs are [`Error::InvalidArgument`].
    pub fn parse(s: &str) -> Result<GenSpec> {
        let (family, rest) = s.split_once(':').ok_or_else(|| bad_form(s))?;
        let args: Vec<&str> = rest.split(':').collect();
        let spec = match (family, args.as_slice()) {
            ("kron", [sc]) => GenSpec::Kron { scale: int(s, "SCALE", sc)?, edge_factor: KRON_EDGE_FACTOR },
            ("kron", [sc, ef]) => GenSpec::Kron { scale: int(s, "SCALE", sc)?, edge_factor: int(s, "EF", ef)? },
            ("uniform", [n, d]) => GenSpec::Uniform { n: int(s, "N", n)?, degree: int(s, "DEG", d)? },
            ("grid2d", [d]) => {
                let [w, h] = dims(s, d)?;
                GenSpec::Grid2d { w, h }
            }
            ("grid3d", [d]) => {
                let [x, y, z] = dims(s, d)?;
                GenSpec::Grid3d { x, y, z }
            }
            ("road", [n]) => GenSpec::Road { n: int(s, "N", n)? },
            ("path", [n]) => GenSpec::Path { n: int(s, "N", n)? },
            ("star", [n]) => GenSpec::Star { n: int(s, "N", n)? },
            ("complete", [n]) => GenSpec::Complete { n: int(s, "N", n)? },
            ("disconnected", [p, n]) => GenSpec::Disconnected { parts: int(s, "PARTS", p)?, n: int(s, "N", n)? },
            ("zero", [n]) => GenSpec::ZeroWeights { n: int(s, "N", n)? },
            ("selfloops", [n]) => GenSpec::SelfLoops { n: int(s, "N", n)? },
            ("multi", [n]) => GenSpec::MultiEdges { n: int(s, "N", n)? },
            ("heavy", [n]) => GenSpec::Heavy { n: int(s, "N", n)? },
            ("negcycle", [n, len, reach]) => GenSpec::NegativeCycle {
                n: int(s, "N", n)?,
                len: int(s, "LEN", len)?,
                reach: match *reach {
                    "in" => Reach::In,
                    "out" => Reach::Out,
                    "both" => Reach::Both,
                    _ => {
                        return Err(Error::InvalidArgument(format!(
                            "generator `{s}`: REACH must be `in` (the base reaches the cycle), `out` (it does not) \
                             or `both` (it does, and the cycle leads back into it)"
                        )))
                    }
                },
            },
            _ => return Err(bad_form(s)),
        };
        spec.size()?;
        Ok(spec)
    }

    /// Canonical text form; `GenSpec::parse(&spec.name())` gives `spec` back.
    pub fn name(&self) -> String {
        match *self {
            GenSpec::Kron { scale, edge_factor } => format!("kron:{scale}:{edge_factor}"),
            GenSpec::Uniform { n, degree } => format!("uniform:{n}:{degree}"),
            GenSpec::Grid2d { w, h } => format!("grid2d:{w}x{h}"),
            GenSpec::Grid3d { x, y, z } => format!("grid3d:{x}x{y}x{z}"),
            GenSpec::Road { n } => format!("road:{n}"),
            GenSpec::Path { n } => format!("path:{n}"),
            GenSpec::Star { n } => format!("star:{n}"),
            GenSpec::Complete { n } => format!("complete:{n}"),
            GenSpec::Disconnected { parts, n } => format!("disconnected:{parts}:{n}"),
            GenSpec::ZeroWeights { n } => format!("zero:{n}"),
            GenSpec::SelfLoops { n } => format!("selfloops:{n}"),
            GenSpec::MultiEdges { n } => format!("multi:{n}"),
            GenSpec::Heavy { n } => format!("heavy:{n}"),
            GenSpec::NegativeCycle { n, len, reach } => {
                let reach = match reach {
                    Reach::In => "in",
                    Reach::Out => "out",
                    Reach::Both => "both",
                };
                format!("negcycle:{n}:{len}:{reach}")
            }
        }
    }

    /// Vertex count and an upper bound on the arc count, after validating the parameters.
    /// Computed in `u128` so absurd sizes cannot overflow before they are rejected. O(1).
    pub fn size(&self) -> Result<(u64, u64)> {
        let fail = |msg: String| Err(Error::InvalidArgument(format!("generator `{self}`: {msg}")));
        let dims: &[u32] = match self {
            GenSpec::Kron { scale, edge_factor } => &[*scale, *edge_factor],
            GenSpec::Uniform { n, degree } => &[*n, *degree],
            GenSpec::Grid2d { w, h } => &[*w, *h],
            GenSpec::Grid3d { x, y, z } => &[*x, *y, *z],
            GenSpec::Disconnected { parts, n } => &[*parts, *n],
            GenSpec::NegativeCycle { n, len, .. } => &[*n, *len],
            GenSpec::Road { n }
            | GenSpec::Path { n }
            | GenSpec::Star { n }
            | GenSpec::Complete { n }
            | GenSpec::ZeroWeights { n }
            | GenSpec::SelfLoops { n }
            | GenSpec::MultiEdges { n }
            | GenSpec::Heavy { n } => std::slice::from_ref(n),
        };
        if dims.contains(&0) {
            return fail("sizes must be at least 1".into());
        }
        let (n, arcs): (u128, u128) = match *self {
            GenSpec::Kron { scale, edge_factor } => {
                if scale > 31 {
                    return fail(format!("SCALE {scale} is too large: vertex ids are u32, so at most 31"));
                }
                let n = 1u128 << scale;
                (n, 2 * edge_factor as u128 * n)
            }
            GenSpec::Uniform { n, degree } => (n as u128, n as u128 * degree as u128),
            GenSpec::Grid2d { w, h } => {
                let (w, h) = (w as u128, h as u128);
                (w * h, 2 * ((w - 1) * h + w * (h - 1)))
            }
            GenSpec::Grid3d { x, y, z } => {
                let (x, y, z) = (x as u128, y as u128, z as u128);
                (x * y * z, 2 * ((x - 1) * y * z + x * (y - 1) * z + x * y * (z - 1)))
            }
            // Spanning tree + kept grid edges + diagonals: at most 3 edges per vertex.
            GenSpec::Road { n } => (n as u128, 6 * n as u128),
            GenSpec::Path { n } | GenSpec::Star { n } => (n as u128, 2 * (n as u128 - 1)),
            GenSpec::Complete { n } => (n as u128, n as u128 * (n as u128 - 1)),
            GenSpec::Disconnected { parts, n } => {
                if parts > n {
                    return fail(format!("{parts} parts need at least {parts} vertices"));
                }
                (n as u128, 3 * n as u128)
            }
            GenSpec::ZeroWeights { n } => (n as u128, (1 + ZERO_RANDOM_DEGREE as u128) * n as u128),
            GenSpec::SelfLoops { n } => (n as u128, 2 * n as u128 + SELF_RANDOM_DEGREE as u128 * n as u128),
            GenSpec::MultiEdges { n } => (n as u128, MULTI_PAIRS_PER_VERTEX as u128 * 4 * n as u128),
            GenSpec::Heavy { n } => (n as u128, HEAVY_DEGREE as u128 * n as u128),
            GenSpec::NegativeCycle { n, len, .. } => {
                // The last cycle arc weighs -len: it must fit an i32.
                if len > i32::MAX as u32 {
                    return fail(format!("LEN {len} is too large: the closing arc weighs -LEN, an i32"));
                }
                (n as u128 + len as u128, 3 * n as u128 + len as u128 + 2)
            }
        };
        if n > MAX_VERTICES as u128 {
            return fail(format!("{n} vertices; at most {MAX_VERTICES} (vertex ids are u32)"));
        }
        if arcs > MAX_GEN_ARCS as u128 {
            return fail(format!(
                "up to {arcs} arcs; generators make at most {MAX_GEN_ARCS} (about 200 GB while generating)"
            ));
        }
        Ok((n as u64, arcs as u64))
    }
}

impl fmt::Display for GenSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl std::str::FromStr for GenSpec {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        GenSpec::parse(s)
    }
}

fn bad_form(s: &str) -> Error {
    let forms: Vec<&str> = GenSpec::HELP.lines().filter_map(|l| l.split_whitespace().next()).collect();
    Error::InvalidArgument(format!("generator `{s}`: expected one of {}", forms.join(", ")))
}

/// A decimal `u32` parameter.
fn int(spec: &str, what: &str, text: &str) -> Result<u32> {
    text.parse().map_err(|_| {
        Error::InvalidArgument(format!(
            "generator `{spec}`: {what} must be an integer in 0..={}, got `{text}`",
            u32::MAX
        ))
    })
}

/// `AxB` or `AxBxC`.
fn dims<const K: usize>(spec: &str, text: &str) -> Result<[u32; K]> {
    let parts: Vec<&str> = text.split('x').collect();
    if parts.len() != K {
        let want = if K == 2 { "WxH" } else { "XxYxZ" };
        return Err(Error::InvalidArgument(format!("generator `{spec}`: expected dimensions {want}, got `{text}`")));
    }
    let mut out = [0u32; K];
    for (o, p) in out.iter_mut().zip(parts) {
        *o = int(spec, "each dimension", p)?;
    }
    Ok(out)
}

/// Generate the CSR graph for `spec` and `seed`. `weights`: [`WeightSpec::AsGiven`] keeps the
/// family's natural weights (uniform 1..=255 from a seed-derived stream unless the family
/// defines its own), `Unit` and `Random` replace them exactly as `EdgeList::into_graph` would.
///
/// Preconditions: none (sizes are validated, a `Random` range with `lo > hi` is rejected).
/// Complexity: O(n + m) work, parallel except the road family's spanning tree (O(n log n));
/// memory about 12 bytes per arc at peak (the CSR and the edge list it is built from).
///
/// # Examples
///
/// ```
/// use sssp::generate::{generate, GenSpec};
/// use sssp::WeightSpec;
///
/// // `path:4` is 0 - 1 - 2 - 3 with arcs both ways.
/// let g = generate(&GenSpec::parse("path:4")?, 1, WeightSpec::Unit)?;
/// assert_eq!((g.num_vertices(), g.num_arcs()), (4, 6));
/// assert_eq!(g.neighbors(1).collect::<Vec<_>>(), vec![(2, 1), (0, 1)]);
///
/// // A pure function of (spec, seed): the same seed gives the same graph, weights included.
/// let spec = GenSpec::Kron { scale: 8, edge_factor: 4 };
/// let (a, b) = (generate(&spec, 7, WeightSpec::AsGiven)?, generate(&spec, 7, WeightSpec::AsGiven)?);
/// assert_eq!((a.offsets(), a.targets()), (b.offsets(), b.targets()));
/// assert!((0..a.num_arcs()).all(|e| a.weights().get(e) == b.weights().get(e)));
/// # Ok::<(), sssp::Error>(())
/// ```
pub fn generate(spec: &GenSpec, seed: u64, weights: WeightSpec) -> Result<Graph> {
    if let GenSpec::NegativeCycle { .. } = spec {
        // Its negative arcs are the point: another weighting would remove the cycle.
        if weights != WeightSpec::AsGiven {
            return Err(Error::InvalidArgument(format!(
                "generator `{spec}` has its own weights (the planted cycle); use --weights given"
            )));
        }
        return generate_edges(spec, seed)?.into_graph_as_given();
    }
    if let WeightSpec::Shifted { .. } = weights {
        return weights.shift(generate(spec, seed, weights.unshifted())?);
    }
    let weight = ArcWeight::resolve(weights)?;
    let shape = build_shape(spec, seed)?;
    shape.into_graph(weight)
}

/// Generate the edge list for `spec` and `seed`, with the natural weights materialised (as
/// `i64`) and `undirected` set for families whose edges stand for two arcs. Use this to write a
/// generated graph to a file; `generate` is the lean path to a [`Graph`].
///
/// Complexity: O(m) time; 16 bytes per edge.
pub fn generate_edges(spec: &GenSpec, seed: u64) -> Result<EdgeList> {
    if let GenSpec::NegativeCycle { n, len, reach } = *spec {
        check_size(spec)?;
        return Ok(negative_cycle(n, len, reach, seed));
    }
    let shape = build_shape(spec, seed)?;
    let m = shape.src.len();
    let weights: Vec<i64> = match shape.natural {
        Natural::Random { lo, hi, seed } => {
            (0..m as u64).into_par_iter().map(|i| WeightSpec::random_weight(lo, hi, seed, i) as i64).collect()
        }
        Natural::Given(w) => w.into_par_iter().map(i64::from).collect(),
    };
    Ok(EdgeList {
        num_vertices: shape.n,
        src: shape.src,
        dst: shape.dst,
        weights: Some(weights),
        undirected: shape.undirected,
        real: false,
    })
}

// ---------------------------------------------------------------------------------------------
// Shapes
// ---------------------------------------------------------------------------------------------

/// A generated edge list before weights are chosen.
struct Shape {
    n: u32,
    src: Vec<u32>,
    dst: Vec<u32>,
    /// Each edge stands for two arcs (`src -> dst`, then `dst -> src`), same weight.
    undirected: bool,
    natural: Natural,
}

/// A family's own weights.
enum Natural {
    /// Uniform in `lo..=hi`, a pure function of `(seed, edge index)`.
    Random { lo: u32, hi: u32, seed: u64 },
    /// One value per edge.
    Given(Vec<u32>),
}

/// Sub-stream ids: every random decision family uses `hash2(seed, STREAM)` as its own seed so
/// that no two decisions share random bits.
mod stream {
    pub const WEIGHTS: u64 = 1;
    pub const EDGES: u64 = 2;
    pub const PERMUTATION: u64 = 3;
    pub const JITTER: u64 = 4;
    pub const TREE: u64 = 5;
    pub const EXTRA: u64 = 6;
    pub const SHAPE: u64 = 7;
}

fn sub(seed: u64, stream: u64) -> u64 {
    rng::hash2(seed, stream)
}

/// GAP's weight range for unweighted graphs, from the generator's own seed.
fn natural_random(seed: u64) -> Natural {
    Natural::Random { lo: 1, hi: 255, seed: sub(seed, stream::WEIGHTS) }
}

/// Edge list plus per-edge weights, for the families that define their weights.
#[derive(Default)]
struct Arcs {
    src: Vec<u32>,
    dst: Vec<u32>,
    w: Vec<u32>,
}

impl Arcs {
    fn with_capacity(m: usize) -> Self {
        Arcs { src: Vec::with_capacity(m), dst: Vec::with_capacity(m), w: Vec::with_capacity(m) }
    }

    fn push(&mut self, u: u32, v: u32, w: u32) {
        self.src.push(u);
        self.dst.push(v);
        self.w.push(w);
    }

    fn into_shape(self, n: u32, undirected: bool) -> Shape {
        Shape { n, src: self.src, dst: self.dst, undirected, natural: Natural::Given(self.w) }
    }
}

/// The least memory a generated build of `n` vertices and (at most) `arcs` arcs touches at its
/// peak: per vertex, the CSR offsets and the build's cursors (16 bytes); per arc, the targets and
/// weights made (8 bytes) and at least half an edge of the shape they are made from (4 bytes; a
/// directed family holds a whole edge per arc, 8). A lower bound, so a build it refuses could
/// never have finished, and one it lets pass still allocates fallibly.
fn least_build_bytes(n: u64, arcs: u64) -> u64 {
    n.saturating_mul(16).saturating_add(arcs.saturating_mul(12))
}

/// Check `spec` and that its build could fit before any work: `gen:kron:27` under a 16 GB limit
/// is [`Error::OutOfHostMemory`] at once, not an abort after minutes of generating.
fn check_size(spec: &GenSpec) -> Result<()> {
    let (n, arcs) = spec.size()?;
    mem::check_fits(least_build_bytes(n, arcs))
}

fn build_shape(spec: &GenSpec, seed: u64) -> Result<Shape> {
    check_size(spec)?;
    Ok(match *spec {
        GenSpec::Kron { scale, edge_factor } => kron(scale, edge_factor, seed)?,
        GenSpec::Uniform { n, degree } => uniform(n, n as u64 * degree as u64, seed, natural_random(seed))?,
        GenSpec::Grid2d { w, h } => grid(&[w, h], seed),
        GenSpec::Grid3d { x, y, z } => grid(&[x, y, z], seed),
        GenSpec::Road { n } => road(n, seed),
        GenSpec::Path { n } => undirected_pairs(n, seed, (1..n).map(|v| (v - 1, v))),
        GenSpec::Star { n } => undirected_pairs(n, seed, (1..n).map(|v| (0, v))),
        GenSpec::Complete { n } => complete(n, seed)?,
        GenSpec::Disconnected { parts, n } => disconnected(parts, n, seed),
        GenSpec::ZeroWeights { n } => zero_weights(n, seed),
        GenSpec::SelfLoops { n } => self_loops(n, seed),
        GenSpec::MultiEdges { n } => multi_edges(n, seed),
        GenSpec::Heavy { n } => {
            let natural = Natural::Random { lo: 1 << 31, hi: u32::MAX, seed: sub(seed, stream::WEIGHTS) };
            uniform(n, n as u64 * HEAVY_DEGREE as u64, seed, natural)?
        }
        // Negative weights: built as an edge list (`generate_edges`), never as a shape.
        GenSpec::NegativeCycle { .. } => unreachable!("negcycle is generated by generate_edges"),
    })
}

/// [`GenSpec::NegativeCycle`]'s edge list (see there).
fn negative_cycle(n: u32, len: u32, reach: Reach, seed: u64) -> EdgeList {
    let (edge_seed, w_seed) = (sub(seed, stream::EDGES), sub(seed, stream::WEIGHTS));
    let (n64, len64) = (n as u64, len as u64);
    let mut src = Vec::with_capacity((3 * n64 + len64 + 1) as usize);
    let mut dst = Vec::with_capacity(src.capacity());
    let mut weights = Vec::with_capacity(src.capacity());
    let mut arc = |u: u64, v: u64, w: i64| {
        src.push(u as u32);
        dst.push(v as u32);
        weights.push(w);
    };
    for v in 0..n64 {
        arc(v, (v + 1) % n64, WeightSpec::random_weight(1, 255, w_seed, v) as i64);
    }
    for i in 0..2 * n64 {
        let (u, v) = (pick(edge_seed, 2 * i, n64), pick(edge_seed, 2 * i + 1, n64));
        arc(u, v, WeightSpec::random_weight(1, 255, w_seed, n64 + i) as i64);
    }
    for k in 0..len64 {
        let w = if k + 1 == len64 { -(len64 as i64) } else { 1 };
        arc(n64 + k, n64 + (k + 1) % len64, w);
    }
    if reach != Reach::Out {
        arc(0, n64, 1);
    }
    if reach != Reach::In {
        arc(n64, 0, 1);
    }
    EdgeList { num_vertices: n + len, src, dst, weights: Some(weights), undirected: false, real: false }
}

/// Fill `src`/`dst` in parallel with `edge(i)` for `i in 0..m`: each edge depends only on its
/// index, so the result does not depend on the thread count.
fn parallel_edges(m: u64, edge: impl Fn(u64) -> (u32, u32) + Sync) -> Result<(Vec<u32>, Vec<u32>)> {
    let mut src = mem::try_vec(m as usize, 0u32)?;
    let mut dst = mem::try_vec(m as usize, 0u32)?;
    src.par_iter_mut().zip(dst.par_iter_mut()).enumerate().with_min_len(1 << 12).for_each(|(i, (s, d))| {
        (*s, *d) = edge(i as u64);
    });
    Ok((src, dst))
}

// R-MAT quadrant thresholds on a uniform u32: A = .57, A+B = .76, A+B+C = .95.
const RMAT_A: u32 = (0.57f64 * 4294967296.0) as u32;
const RMAT_AB: u32 = (0.76f64 * 4294967296.0) as u32;
const RMAT_ABC: u32 = (0.95f64 * 4294967296.0) as u32;

/// Graph500 Kronecker graph (see the module doc).
fn kron(scale: u32, edge_factor: u32, seed: u64) -> Result<Shape> {
    let m = (edge_factor as u64) << scale;
    let edge_seed = sub(seed, stream::EDGES);
    let perm = BitPermutation::new(scale, sub(seed, stream::PERMUTATION));
    let mut src = mem::try_vec(m as usize, 0u32)?;
    let mut dst = mem::try_vec(m as usize, 0u32)?;
    src.par_chunks_mut(KRON_BATCH)
        .zip(dst.par_chunks_mut(KRON_BATCH))
        .enumerate()
        .for_each(|(b, (s, d))| kron_batch(scale, edge_seed, &perm, (b * KRON_BATCH) as u64, s, d));
    Ok(Shape { n: (1u64 << scale) as u32, src, dst, undirected: true, natural: natural_random(seed) })
}

/// Edges per task of [`kron`].
const KRON_BATCH: usize = 1 << 12;

/// Edges `first..first + src.len()` of [`kron`]: [`rmat_edge`] and the permutation, 8 edges
/// abreast ([`rmat_lanes`]). Where the CPU has AVX2 the same code is compiled for it, found at
/// run time. On one core of the 2-core machine, scale 22: 14 ns an edge against 41 one edge at
/// a time (29 without AVX2), in a loop alone; kron:22's edges, allocation included, 1.07 s
/// against 2.64. Every path gives the same edges (tested).
fn kron_batch(scale: u32, seed: u64, perm: &BitPermutation, first: u64, src: &mut [u32], dst: &mut [u32]) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2, checked just above.
        return unsafe { kron_batch_avx2(scale, seed, perm, first, src, dst) };
    }
    kron_batch_lanes(scale, seed, perm, first, src, dst)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn kron_batch_avx2(scale: u32, seed: u64, perm: &BitPermutation, first: u64, src: &mut [u32], dst: &mut [u32]) {
    kron_batch_lanes(scale, seed, perm, first, src, dst)
}

/// [`kron_batch`] for whatever instructions the caller was compiled for.
#[inline(always)]
fn kron_batch_lanes(scale: u32, seed: u64, perm: &BitPermutation, first: u64, src: &mut [u32], dst: &mut [u32]) {
    let mut src_lanes = src.chunks_exact_mut(RMAT_LANES);
    let mut dst_lanes = dst.chunks_exact_mut(RMAT_LANES);
    let mut i = first;
    for (s, d) in (&mut src_lanes).zip(&mut dst_lanes) {
        let (u, v) = rmat_lanes(scale, seed, i);
        for k in 0..RMAT_LANES {
            (s[k], d[k]) = (perm.apply32(u[k]), perm.apply32(v[k]));
        }
        i += RMAT_LANES as u64;
    }
    for (s, d) in src_lanes.into_remainder().iter_mut().zip(dst_lanes.into_remainder()) {
        let (u, v) = rmat_edge(scale, seed, i);
        (*s, *d) = (perm.apply(u) as u32, perm.apply(v) as u32);
        i += 1;
    }
}

/// Edges [`rmat_lanes`] makes at once: 8 `u32` lanes fill an AVX2 register.
const RMAT_LANES: usize = 8;

/// [`rmat_edge`] for edges `first..first + 8`, each step done for all 8 edges in a row of
/// independent lanes (which the compiler turns into vector instructions), with the ids in `u32`
/// (scale <= 31). The random words are the same: lane `k` runs edge `first + k`'s stream.
#[inline(always)]
fn rmat_lanes(scale: u32, seed: u64, first: u64) -> ([u32; RMAT_LANES], [u32; RMAT_LANES]) {
    let mut state = [0u64; RMAT_LANES];
    for (k, s) in state.iter_mut().enumerate() {
        // `Rng::new(hash2(seed, i))`, whose `next_u64` adds the increment and mixes.
        *s = rng::hash2(seed, first + k as u64);
    }
    let (mut u, mut v) = ([0u32; RMAT_LANES], [0u32; RMAT_LANES]);
    let mut words = [[0u32; RMAT_LANES]; 2];
    for level in 0..scale {
        let half = (level % 2) as usize;
        if half == 0 {
            for (k, s) in state.iter_mut().enumerate() {
                *s = s.wrapping_add(rng::GOLDEN_GAMMA);
                let bits = rng::mix64(*s);
                (words[0][k], words[1][k]) = (bits as u32, (bits >> 32) as u32);
            }
        }
        for k in 0..RMAT_LANES {
            let (du, dv) = rmat_quadrant(words[half][k]);
            u[k] = (u[k] << 1) | du as u32;
            v[k] = (v[k] << 1) | dv as u32;
        }
    }
    (u, v)
}

/// The R-MAT quadrant of a uniform `x`: [0, A) -> (0, 0), [A, A+B) -> (0, 1), [A+B, A+B+C) ->
/// (1, 0), the rest (1, 1); computed without branches (they would be mispredicted at every
/// level).
#[inline(always)]
fn rmat_quadrant(x: u32) -> (bool, bool) {
    (x >= RMAT_AB, (x >= RMAT_A) ^ (x >= RMAT_AB) ^ (x >= RMAT_ABC))
}

/// Edge `i` of an R-MAT graph: one quadrant choice per bit level, 32 random bits each. The
/// definition; [`rmat_lanes`] computes the same 8 at a time.
fn rmat_edge(scale: u32, seed: u64, i: u64) -> (u64, u64) {
    let mut r = Rng::new(rng::hash2(seed, i));
    let (mut u, mut v) = (0u64, 0u64);
    let mut bits = 0u64;
    for level in 0..scale {
        if level % 2 == 0 {
            bits = r.next_u64();
        }
        let (du, dv) = rmat_quadrant(bits as u32);
        bits >>= 32;
        u = (u << 1) | du as u64;
        v = (v << 1) | dv as u64;
    }
    (u, v)
}

/// A keyed bijection on `bits`-bit integers. Each round is a composition of bijections mod
/// 2^bits: xor with a key, multiply by an odd key, and `x ^= x >> shift` (shift >= 1).
/// Multiplication carries low bits upward and the xorshift carries high bits down, so four
/// rounds scatter R-MAT's bit-structured ids well enough to hide the hubs' positions.
struct BitPermutation {
    mask: u64,
    shift: u32,
    xor: [u64; 4],
    mul: [u64; 4],
}

impl BitPermutation {
    fn new(bits: u32, seed: u64) -> Self {
        let mask = if bits >= 64 { u64::MAX } else { (1u64 << bits) - 1 };
        let mut r = Rng::new(seed);
        let mut xor = [0u64; 4];
        let mut mul = [0u64; 4];
        for k in 0..4 {
            xor[k] = r.next_u64() & mask;
            mul[k] = (r.next_u64() | 1) & mask;
        }
        BitPermutation { mask, shift: (bits / 2).max(1), xor, mul }
    }

    #[inline]
    fn apply(&self, mut x: u64) -> u64 {
        for k in 0..4 {
            x ^= self.xor[k];
            x = x.wrapping_mul(self.mul[k]) & self.mask;
            x ^= x >> self.shift;
        }
        x
    }

    /// [`apply`](Self::apply) in `u32` arithmetic, for `bits <= 32`: the low 32 bits of a
    /// product depend only on the low 32 bits of its factors, and the mask keeps no more, so
    /// the result is the same (and 32-bit lanes are twice as many per vector register).
    #[inline(always)]
    fn apply32(&self, mut x: u32) -> u32 {
        for k in 0..4 {
            x ^= self.xor[k] as u32;
            x = x.wrapping_mul(self.mul[k] as u32) & self.mask as u32;
            x ^= x >> self.shift;
        }
        x
    }
}

/// `m` directed arcs with independent uniform endpoints (self loops and duplicates allowed).
fn uniform(n: u32, m: u64, seed: u64, natural: Natural) -> Result<Shape> {
    let edge_seed = sub(seed, stream::EDGES);
    let (src, dst) = parallel_edges(m, |i| {
        let mut r = Rng::new(rng::hash2(edge_seed, i));
        (r.below(n as u64) as u32, r.below(n as u64) as u32)
    })?;
    Ok(Shape { n, src, dst, undirected: false, natural })
}

/// A 2D or 3D grid (`dims[0]` varies fastest in the id), each vertex's edges to its `+1`
/// neighbours listed in id order; undirected.
fn grid(dims: &[u32], seed: u64) -> Shape {
    let n: u64 = dims.iter().map(|&d| d as u64).product();
    let mut stride = 1u64;
    let strides: Vec<u64> = dims
        .iter()
        .map(|&d| {
            let s = stride;
            stride *= d as u64;
            s
        })
        .collect();
    let mut src = Vec::new();
    let mut dst = Vec::new();
    for v in 0..n {
        for (&d, &s) in dims.iter().zip(&strides) {
            if (v / s) % d as u64 + 1 < d as u64 {
                src.push(v as u32);
                dst.push((v + s) as u32);
            }
        }
    }
    Shape { n: n as u32, src, dst, undirected: true, natural: natural_random(seed) }
}

/// Undirected edges from a list of pairs, with random natural weights.
fn undirected_pairs(n: u32, seed: u64, pairs: impl Iterator<Item = (u32, u32)>) -> Shape {
    let (src, dst) = pairs.unzip();
    Shape { n, src, dst, undirected: true, natural: natural_random(seed) }
}

/// Every ordered pair once, in row-major order, each arc with an independent weight.
fn complete(n: u32, seed: u64) -> Result<Shape> {
    let m = n as u64 * (n as u64 - 1);
    let (src, dst) = parallel_edges(m, |i| {
        let (u, k) = (i / (n as u64 - 1), i % (n as u64 - 1));
        // Row u lists every v != u in increasing order: skip the diagonal.
        let v = if k < u { k } else { k + 1 };
        (u as u32, v as u32)
    })?;
    Ok(Shape { n, src, dst, undirected: false, natural: natural_random(seed) })
}

/// Uniform `0..n` from item `i` of stream `seed`.
fn pick(seed: u64, i: u64, n: u64) -> u64 {
    rng::below(rng::hash2(seed, i), n)
}

/// True with probability `num / den`, from item `i` of stream `seed`.
fn chance(seed: u64, i: u64, num: u64, den: u64) -> bool {
    pick(seed, i, den) < num
}

/// Components with ids interleaved (`v % parts`): a random recursive tree inside each part,
/// both directions (so each part is strongly connected), plus a random extra arc inside the part
/// from every other vertex.
fn disconnected(parts: u32, n: u32, seed: u64) -> Shape {
    let (tree_seed, extra_seed) = (sub(seed, stream::TREE), sub(seed, stream::EXTRA));
    let parts = parts as u64;
    let members = |v: u64| (n as u64 - v % parts).div_ceil(parts); // size of v's part
    let mut src = Vec::new();
    let mut dst = Vec::new();
    for v in 0..n as u64 {
        let (part, local) = (v % parts, v / parts);
        if local > 0 {
            let parent = part + pick(tree_seed, v, local) * parts;
            src.extend([parent as u32, v as u32]);
            dst.extend([v as u32, parent as u32]);
        }
        if chance(extra_seed, 2 * v, 1, 2) {
            let to = part + pick(extra_seed, 2 * v + 1, members(v)) * parts;
            src.push(v as u32);
            dst.push(to as u32);
        }
    }
    Shape { n, src, dst, undirected: false, natural: natural_random(seed) }
}

/// Random out-arcs per vertex in the random-digraph families.
const ZERO_RANDOM_DEGREE: u32 = 3;
const SELF_RANDOM_DEGREE: u32 = 3;
const MULTI_PAIRS_PER_VERTEX: u32 = 2;
const HEAVY_DEGREE: u32 = 4;

/// A weight from `1..=255`, or 0 with probability `zero_num / zero_den`.
fn weight_or_zero(seed: u64, i: u64, zero_num: u64, zero_den: u64) -> u32 {
    let r = rng::hash2(seed, i);
    if rng::below(r, zero_den) < zero_num {
        0
    } else {
        1 + rng::below(rng::mix64(r), 255) as u32
    }
}

/// Directed zero-weight cycles over consecutive ids (lengths 2..=7; a final singleton gets a
/// zero self loop), then `3n` random arcs, half of them weighing 0.
fn zero_weights(n: u32, seed: u64) -> Shape {
    let (shape_seed, edge_seed, w_seed) =
        (sub(seed, stream::SHAPE), sub(seed, stream::EDGES), sub(seed, stream::WEIGHTS));
    let n64 = n as u64;
    let mut arcs = Arcs::with_capacity(((1 + ZERO_RANDOM_DEGREE as u64) * n64) as usize);
    let mut start = 0u64;
    while start < n64 {
        let len = (2 + pick(shape_seed, start, 6)).min(n64 - start);
        for k in 0..len {
            let next = start + (k + 1) % len;
            arcs.push((start + k) as u32, next as u32, 0);
        }
        start += len;
    }
    for i in 0..ZERO_RANDOM_DEGREE as u64 * n64 {
        let (u, v) = (pick(edge_seed, 2 * i, n64), pick(edge_seed, 2 * i + 1, n64));
        arcs.push(u as u32, v as u32, weight_or_zero(w_seed, i, 1, 2));
    }
    arcs.into_shape(n, false)
}

/// A self loop on every vertex (a quarter weigh 0), a second one on every fourth vertex, and
/// `3n` random arcs weighing `1..=255`.
fn self_loops(n: u32, seed: u64) -> Shape {
    let (edge_seed, w_seed) = (sub(seed, stream::EDGES), sub(seed, stream::WEIGHTS));
    let n64 = n as u64;
    let mut arcs = Arcs::with_capacity(((2 + SELF_RANDOM_DEGREE as u64) * n64) as usize);
    let mut k = 0u64; // weight index
    for v in 0..n {
        arcs.push(v, v, weight_or_zero(w_seed, k, 1, 4));
        k += 1;
        // Interleave random arcs so the loops are not always first in their adjacency.
        for j in 0..SELF_RANDOM_DEGREE as u64 {
            let i = v as u64 * SELF_RANDOM_DEGREE as u64 + j;
            arcs.push(v, pick(edge_seed, i, n64) as u32, weight_or_zero(w_seed, k, 0, 1));
            k += 1;
        }
        if v % 4 == 3 {
            arcs.push(v, v, weight_or_zero(w_seed, k, 0, 1));
            k += 1;
        }
    }
    arcs.into_shape(n, false)
}

/// `2n` random vertex pairs; pair `p` appears `2 + (p's draw % 3)` times. The copies are
/// emitted in rounds (every pair's first copy, then every second copy, ...) so parallel arcs
/// are far apart in their adjacency lists, and every copy has its own weight.
fn multi_edges(n: u32, seed: u64) -> Shape {
    let (edge_seed, w_seed) = (sub(seed, stream::EDGES), sub(seed, stream::WEIGHTS));
    let n64 = n as u64;
    let pairs = MULTI_PAIRS_PER_VERTEX as u64 * n64;
    let copies = |p: u64| 2 + pick(edge_seed, 3 * p + 2, 3);
    let mut arcs = Arcs::with_capacity((pairs * 3) as usize);
    for round in 0..4 {
        for p in 0..pairs {
            if round < copies(p) {
                let (u, v) = (pick(edge_seed, 3 * p, n64), pick(edge_seed, 3 * p + 1, n64));
                arcs.push(u as u32, v as u32, weight_or_zero(w_seed, arcs.src.len() as u64, 0, 1));
            }
        }
    }
    arcs.into_shape(n, false)
}

// Road network parameters: a grid cell is 1000 length units; points move up to +-35% of a cell
// (so neighbours stay >= 300 apart and every weight is positive); after the spanning tree, each
// remaining grid edge is kept with probability 1/5 and each cell gets a diagonal with
// probability 1/20, which gives about 1.25 edges = 2.5 arcs per vertex.
const ROAD_CELL: f64 = 1000.0;
const ROAD_JITTER: f64 = 0.7;
const ROAD_KEEP: (u64, u64) = (1, 5);
const ROAD_DIAGONAL: (u64, u64) = (1, 20);

/// Road-like network (see [`GenSpec::Road`]). Vertex ids are row-major on a `w`-wide grid with a
/// partial last row; the spanning tree is Kruskal's over the grid edges in a random order, so
/// the graph is connected with long detours (hop diameter about 2000 at a million
/// vertices), as in real road networks.
fn road(n: u32, seed: u64) -> Shape {
    let n64 = n as u64;
    let w = ceil_sqrt(n64);
    let jitter_seed = sub(seed, stream::JITTER);
    let point = |v: u64| -> (f64, f64) {
        let r = rng::hash2(jitter_seed, v);
        let unit = |bits: u64| (bits & 0xff_ffff) as f64 / (1u64 << 24) as f64 - 0.5;
        let (x, y) = ((v % w) as f64 + unit(r) * ROAD_JITTER, (v / w) as f64 + unit(r >> 32) * ROAD_JITTER);
        (x * ROAD_CELL, y * ROAD_CELL)
    };
    let length = |a: u64, b: u64| -> u32 {
        let (p, q) = (point(a), point(b));
        ((p.0 - q.0).hypot(p.1 - q.1).round() as u32).max(1)
    };
    // Candidate grid edge c = 2v (right) or 2v + 1 (down).
    let end = |c: u64| -> Option<u64> {
        let v = c / 2;
        let right = c & 1 == 0;
        let to = if right { v + 1 } else { v + w };
        let ok = to < n64 && (!right || v % w + 1 < w);
        ok.then_some(to)
    };
    let keep = road_edges(n64, &end, sub(seed, stream::TREE), sub(seed, stream::EXTRA));
    let diag_seed = sub(seed, stream::SHAPE);
    let mut arcs = Arcs::with_capacity((n64 * 5 / 4) as usize);
    for v in 0..n64 {
        for c in [2 * v, 2 * v + 1] {
            if keep[c as usize] {
                let to = end(c).unwrap_or(v);
                arcs.push(v as u32, to as u32, length(v, to));
            }
        }
        let in_cell = v % w + 1 < w && v + w + 1 < n64;
        if in_cell && chance(diag_seed, 2 * v, ROAD_DIAGONAL.0, ROAD_DIAGONAL.1) {
            let (a, b) = if chance(diag_seed, 2 * v + 1, 1, 2) { (v, v + w + 1) } else { (v + 1, v + w) };
            arcs.push(a as u32, b as u32, length(a, b));
        }
    }
    arcs.into_shape(n, true)
}

/// Which candidate grid edges the road keeps: Kruskal's spanning tree over a random order
/// (distinct `hash2` keys, so the order is a deterministic permutation), plus a random fifth of
/// the rest.
fn road_edges(n: u64, end: &(impl Fn(u64) -> Option<u64> + Sync), tree_seed: u64, extra_seed: u64) -> Vec<bool> {
    let mut order: Vec<(u64, u64)> =
        (0..2 * n).into_par_iter().filter(|&c| end(c).is_some()).map(|c| (rng::hash2(tree_seed, c), c)).collect();
    order.par_sort_unstable();
    let mut sets = DisjointSets::new(n as usize);
    let mut keep = vec![false; 2 * n as usize];
    for &(_, c) in &order {
        let (a, b) = (c / 2, end(c).unwrap_or(c / 2));
        keep[c as usize] = sets.union(a as u32, b as u32) || chance(extra_seed, c, ROAD_KEEP.0, ROAD_KEEP.1);
    }
    keep
}

/// Union-find with path halving and union by size.
struct DisjointSets {
    parent: Vec<u32>,
    size: Vec<u32>,
}

impl DisjointSets {
    fn new(n: usize) -> Self {
        DisjointSets { parent: (0..n as u32).collect(), size: vec![1; n] }
    }

    fn find(&mut self, mut x: u32) -> u32 {
        while self.parent[x as usize] != x {
            let grand = self.parent[self.parent[x as usize] as usize];
            self.parent[x as usize] = grand;
            x = grand;
        }
        x
    }

    /// Merge the sets of `a` and `b`; false if they were already one.
    fn union(&mut self, a: u32, b: u32) -> bool {
        let (mut a, mut b) = (self.find(a), self.find(b));
        if a == b {
            return false;
        }
        if self.size[a as usize] < self.size[b as usize] {
            std::mem::swap(&mut a, &mut b);
        }
        self.parent[b as usize] = a;
        self.size[a as usize] += self.size[b as usize];
        true
    }
}

/// Smallest `r` with `r * r >= n`.
fn ceil_sqrt(n: u64) -> u64 {
    let mut r = (n as f64).sqrt() as u64;
    while r * r < n {
        r += 1;
    }
    while r > 1 && (r - 1) * (r - 1) >= n {
        r -= 1;
    }
    r.max(1)
}

// ---------------------------------------------------------------------------------------------
// Shape -> CSR
// ---------------------------------------------------------------------------------------------

/// The weight of input edge `i` under a [`WeightSpec`] and a family's natural weights.
enum ArcWeight {
    Natural,
    Unit,
    Random {
        lo: u32,
        hi: u32,
        seed: u64,
    },
    /// `f32` bit patterns ([`WeightSpec::RandomReal`]): the graph gets [`Weights::Real`].
    Real {
        lo: f32,
        hi: f32,
        seed: u64,
    },
}

impl ArcWeight {
    fn resolve(spec: WeightSpec) -> Result<Self> {
        Ok(match spec {
            WeightSpec::AsGiven => ArcWeight::Natural,
            WeightSpec::Unit => ArcWeight::Unit,
            WeightSpec::Random { lo, hi, seed } if lo <= hi => ArcWeight::Random { lo, hi, seed },
            WeightSpec::Random { lo, hi, .. } => {
                return Err(Error::InvalidArgument(format!("random weights {lo}-{hi}: empty range")))
            }
            WeightSpec::RandomReal { lo, hi, seed } if lo.is_finite() && hi.is_finite() && 0.0 <= lo && lo <= hi => {
                ArcWeight::Real { lo, hi, seed }
            }
            WeightSpec::RandomReal { lo, hi, .. } => {
                return Err(Error::InvalidArgument(format!("real weights {lo}-{hi}: need finite 0 <= LO <= HI")))
            }
            // `generate` applies the shift to the graph it builds with the base weights.
            WeightSpec::Shifted { .. } => return Self::resolve(spec.unshifted()),
        })
    }

    #[inline]
    fn get(&self, natural: &Natural, i: usize) -> u32 {
        match (self, natural) {
            (ArcWeight::Unit, _) => 1,
            (ArcWeight::Random { lo, hi, seed }, _) | (ArcWeight::Natural, Natural::Random { lo, hi, seed }) => {
                WeightSpec::random_weight(*lo, *hi, *seed, i as u64)
            }
            (ArcWeight::Natural, Natural::Given(w)) => w[i],
            (ArcWeight::Real { lo, hi, seed }, _) => WeightSpec::random_real_weight(*lo, *hi, *seed, i as u64),
        }
    }
}

impl Shape {
    /// Build the CSR in the same arc order as `EdgeList::into_graph` (`graph::csr_order`'s,
    /// made by [`csr_blocked`]), each arc weighing its input edge's weight.
    fn into_graph(self, weight: ArcWeight) -> Result<Graph> {
        let m = self.src.len() as u64;
        let arcs = if self.undirected { 2 * m } else { m };
        if arcs > MAX_GEN_ARCS {
            // `size()` bounds every family; this guards the build against a future mistake.
            return Err(Error::InvalidArgument(format!("{arcs} arcs: at most {MAX_GEN_ARCS} can be generated")));
        }
        let natural = &self.natural;
        let csr = csr_blocked(self.n, &self.src, &self.dst, self.undirected, |e| weight.get(natural, e))?;
        let both_ways = self.undirected;
        drop(self);
        let weights = match weight {
            ArcWeight::Real { .. } => Weights::Real(Buf::Owned(csr.weights)),
            _ => Weights::Unsigned(Buf::Owned(csr.weights)),
        };
        Ok(Graph::from_csr(Buf::Owned(csr.offsets), Buf::Owned(csr.targets), weights)?.with_both_ways(both_ways))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `Graph::built_both_ways` is never claimed wrongly: every generated graph so marked is
    /// symmetric, whatever the family and weights; the undirected families are marked (the
    /// claim is not vacuous); a shifted weighting and the directed families are not.
    #[test]
    fn graphs_built_both_ways_are_symmetric() {
        let weights = [
            WeightSpec::AsGiven,
            WeightSpec::Unit,
            WeightSpec::Random { lo: 1, hi: 9, seed: 3 },
            WeightSpec::DEFAULT_REAL,
            WeightSpec::Shifted { lo: 1, hi: 9, potential: 5, seed: 3 },
        ];
        let mut marked = std::collections::BTreeSet::new();
        for spec in all_small() {
            for seed in 1..4 {
                for &w in &weights {
                    let Ok(g) = generate(&spec, seed, w) else { continue };
                    if g.built_both_ways() {
                        assert!(crate::diameter::is_symmetric(&g).unwrap(), "{} seed {seed} {w:?}", spec.name());
                        assert!(!matches!(w, WeightSpec::Shifted { .. }), "{} {w:?}", spec.name());
                        marked.insert(spec.name().split(':').next().unwrap().to_string());
                    }
                }
            }
        }
        let want = ["grid2d", "grid3d", "kron", "path", "road", "star"];
        assert_eq!(marked.into_iter().collect::<Vec<_>>(), want);
    }

    fn all_small() -> Vec<GenSpec> {
        [
            "kron:6",
            "kron:5:4",
            "uniform:200:4",
            "grid2d:7x5",
            "grid3d:3x4x5",
            "road:300",
            "path:50",
            "star:40",
            "complete:12",
            "disconnected:4:101",
            "zero:120",
            "selfloops:80",
            "multi:60",
            "heavy:50",
        ]
        .iter()
        .map(|s| GenSpec::parse(s).unwrap())
        .collect()
    }

    fn csr(g: &Graph) -> (Vec<u64>, Vec<u32>, Vec<i64>) {
        (g.offsets().to_vec(), g.targets().to_vec(), (0..g.num_arcs()).map(|e| g.weights().get(e)).collect())
    }

    /// A 64-bit digest of a graph's offsets, targets and weights, in order.
    fn digest(g: &Graph) -> u64 {
        let (offsets, targets, weights) = csr(g);
        let words =
            offsets.into_iter().chain(targets.into_iter().map(u64::from)).chain(weights.into_iter().map(|w| w as u64));
        words.fold(rng::hash2(g.num_vertices() as u64, g.num_arcs() as u64), rng::hash2)
    }

    /// Generated graphs are pinned bit for bit (offsets, targets, weights, in arc order): the
    /// digests were taken from the build before the CSR construction was rewritten for speed,
    /// so any change to what a spec and seed produce fails here, not only a
    /// disagreement between two code paths. kron:14 and uniform:20000:6 are large enough to
    /// span many vertex blocks and chunks of the parallel build.
    #[test]
    fn generated_graphs_are_pinned() {
        let cases: [(&str, WeightSpec, u64); 9] = [
            ("kron:14", WeightSpec::AsGiven, 0xf54eb00b90bf2ccf),
            ("kron:12:3", WeightSpec::Unit, 0xa047a57011c28122),
            ("kron:11", WeightSpec::DEFAULT_REAL, 0xc672f4482f3d983e),
            ("uniform:20000:6", WeightSpec::AsGiven, 0xcc12adc93fe63379),
            ("road:5000", WeightSpec::AsGiven, 0x126522c9b45a4cdb),
            ("grid2d:60x40", WeightSpec::Random { lo: 3, hi: 900, seed: 8 }, 0xe1a06c3ae72d996c),
            ("star:3000", WeightSpec::AsGiven, 0xb574d2c6ff480cf2),
            ("multi:2000", WeightSpec::AsGiven, 0xa832da4d63d3dc93),
            ("heavy:3000", WeightSpec::AsGiven, 0x3f31f758c34d139f),
        ];
        for (s, w, want) in cases {
            let got = digest(&generate(&GenSpec::parse(s).unwrap(), 5, w).unwrap());
            assert_eq!(format!("{got:#018x}"), format!("{want:#018x}"), "{s} {w:?}");
        }
    }

    #[test]
    fn parse_and_name_round_trip() {
        for spec in all_small() {
            assert_eq!(GenSpec::parse(&spec.name()).unwrap(), spec);
            assert_eq!(spec.to_string(), spec.name());
        }
        assert_eq!(GenSpec::parse("kron:22").unwrap(), GenSpec::Kron { scale: 22, edge_factor: 16 });
        assert_eq!(GenSpec::parse("grid3d:256x256x256").unwrap(), GenSpec::Grid3d { x: 256, y: 256, z: 256 });
        assert_eq!(GenSpec::parse("disconnected:4:1000").unwrap(), GenSpec::Disconnected { parts: 4, n: 1000 });
        for (text, reach) in [("in", Reach::In), ("out", Reach::Out), ("both", Reach::Both)] {
            let planted = GenSpec::NegativeCycle { n: 10, len: 3, reach };
            assert_eq!(GenSpec::parse(&format!("negcycle:10:3:{text}")).unwrap(), planted);
            assert_eq!(GenSpec::parse(&planted.name()).unwrap(), planted);
        }
        // Every form in HELP parses once its placeholders are numbers.
        assert_eq!(GenSpec::HELP.lines().count(), 14);
    }

    #[test]
    fn bad_specs_are_invalid_arguments() {
        for s in [
            "",
            "kron",
            "kron:",
            "kron:x",
            "kron:0",
            "kron:32",
            "kron:29:17",
            "kron:4:0",
            "uniform:10",
            "uniform:0:4",
            "uniform:10:0",
            "grid2d:10",
            "grid2d:0x10",
            "grid2d:10x10x10",
            "grid3d:65536x65536x2",
            "path:0",
            "complete:140000",
            "disconnected:5:4",
            "road:-3",
            "road:5000000000",
            "nosuch:3",
            "star:5:5",
            "uniform:4294967295:5",
            "negcycle:10:3",
            "negcycle:10:3:maybe",
            "negcycle:0:3:in",
            "negcycle:10:0:out",
            "negcycle:10:4294967295:in",
        ] {
            match GenSpec::parse(s) {
                Err(Error::InvalidArgument(msg)) => assert!(msg.contains("generator"), "{s}: {msg}"),
                other => panic!("{s}: expected InvalidArgument, got {other:?}"),
            }
        }
        // kron 28 and 29 (2^33 and 2^34 arcs) are within the generators' reach
        // (kron 28 on one H200, kron 29 over four); building them needs the memory.
        for s in ["kron:28", "kron:29", "uniform:536870912:32"] {
            assert!(GenSpec::parse(s).is_ok(), "{s}");
        }
        // Specs built directly are validated by generate as well.
        assert!(generate(&GenSpec::Path { n: 0 }, 1, WeightSpec::AsGiven).is_err());
        let empty = WeightSpec::Random { lo: 9, hi: 3, seed: 1 };
        assert!(matches!(generate(&GenSpec::Path { n: 3 }, 1, empty), Err(Error::InvalidArgument(_))));
    }

    #[test]
    fn sizes_and_arc_counts() {
        let count = |s: &str| {
            let g = generate(&GenSpec::parse(s).unwrap(), 7, WeightSpec::AsGiven).unwrap();
            (g.num_vertices(), g.num_arcs())
        };
        assert_eq!(count("kron:4"), (16, 512));
        assert_eq!(count("kron:5:3"), (32, 192));
        assert_eq!(count("uniform:100:3"), (100, 300));
        assert_eq!(count("grid2d:3x4"), (12, 2 * (2 * 4 + 3 * 3)));
        assert_eq!(count("grid3d:2x3x4"), (24, 2 * (12 + 16 + 18)));
        assert_eq!(count("path:5"), (5, 8));
        assert_eq!(count("path:1"), (1, 0));
        assert_eq!(count("star:5"), (5, 8));
        assert_eq!(count("complete:5"), (5, 20));
        assert_eq!(count("heavy:10"), (10, 40));
        // Base cycle + 2n random arcs + the planted cycle + the arc joining them.
        assert_eq!(count("negcycle:10:4:in"), (14, 30 + 4 + 1));
        let g = generate(&GenSpec::parse("negcycle:10:4:out").unwrap(), 7, WeightSpec::AsGiven).unwrap();
        let cycle: Vec<u32> = (10..14).collect();
        assert_eq!(crate::reference::cycle_weight(&g, &cycle), Some(-1));
        assert!(!g.reachable(0)[10], "out: the base does not reach the cycle");
        assert_eq!(count("negcycle:10:4:both"), (14, 30 + 4 + 2));
        for spec in all_small() {
            let (n, bound) = spec.size().unwrap();
            let g = generate(&spec, 3, WeightSpec::AsGiven).unwrap();
            assert_eq!(g.num_vertices() as u64, n, "{spec}");
            assert!(g.num_arcs() as u64 <= bound, "{spec}: {} > {bound}", g.num_arcs());
        }
    }

    #[test]
    fn reproducible_and_seed_dependent() {
        for spec in all_small() {
            let a = csr(&generate(&spec, 11, WeightSpec::AsGiven).unwrap());
            let b = csr(&generate(&spec, 11, WeightSpec::AsGiven).unwrap());
            let c = csr(&generate(&spec, 12, WeightSpec::AsGiven).unwrap());
            assert_eq!(a, b, "{spec}");
            assert_ne!(a, c, "{spec}: seeds 11 and 12 give the same graph");
        }
    }

    #[test]
    fn generate_matches_edge_list_path() {
        let specs = [WeightSpec::AsGiven, WeightSpec::Unit, WeightSpec::Random { lo: 0, hi: 9, seed: 5 }];
        for spec in all_small() {
            for w in specs {
                let direct = csr(&generate(&spec, 21, w).unwrap());
                let via = csr(&generate_edges(&spec, 21).unwrap().into_graph(w, false).unwrap());
                assert_eq!(direct, via, "{spec} {w:?}");
            }
        }
    }

    /// Kronecker edges made 8 abreast, with AVX2 where the CPU has it and without, are the
    /// edges of the one-at-a-time definition (`rmat_edge`, `BitPermutation::apply`), for
    /// scales odd and even up to 31 and batches that end inside a group of 8.
    #[test]
    fn kron_lanes_match_the_definition() {
        for (scale, first, len) in [(1, 0, 9), (2, 5, 17), (7, 1000, 64), (16, 3, 100), (22, 1 << 40, 41), (31, 77, 35)]
        {
            let seed = sub(scale as u64, stream::EDGES);
            let perm = BitPermutation::new(scale, sub(9, stream::PERMUTATION));
            let want: Vec<(u32, u32)> = (first..first + len as u64)
                .map(|i| {
                    let (u, v) = rmat_edge(scale, seed, i);
                    (perm.apply(u) as u32, perm.apply(v) as u32)
                })
                .collect();
            let (mut src, mut dst) = (vec![0; len], vec![0; len]);
            kron_batch_lanes(scale, seed, &perm, first, &mut src, &mut dst);
            assert_eq!(src.iter().copied().zip(dst.iter().copied()).collect::<Vec<_>>(), want, "scale {scale}");
            let (mut src, mut dst) = (vec![0; len], vec![0; len]);
            kron_batch(scale, seed, &perm, first, &mut src, &mut dst);
            assert_eq!(src.into_iter().zip(dst).collect::<Vec<_>>(), want, "scale {scale} (dispatched)");
        }
        let perm = BitPermutation::new(31, 5);
        let mut r = Rng::new(6);
        for _ in 0..1000 {
            let x = r.below(1 << 31);
            assert_eq!(perm.apply32(x as u32) as u64, perm.apply(x));
        }
    }

    /// The same graphs whatever the number of threads (the build cuts its work by it).
    #[test]
    fn graphs_do_not_depend_on_threads() {
        let specs = ["kron:13", "uniform:9000:5", "star:5000", "road:3000"].map(|s| GenSpec::parse(s).unwrap());
        let build = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            pool.install(|| {
                specs.iter().map(|s| csr(&generate(s, 3, WeightSpec::AsGiven).unwrap())).collect::<Vec<_>>()
            })
        };
        let one = build(1);
        for threads in [2, 3, 8] {
            assert!(build(threads) == one, "{threads} threads");
        }
    }

    #[test]
    fn bit_permutation_is_a_bijection() {
        for bits in [1, 2, 3, 5, 8, 12] {
            let p = BitPermutation::new(bits, 99);
            let mut seen = vec![false; 1 << bits];
            for x in 0..1u64 << bits {
                let y = p.apply(x) as usize;
                assert!(!seen[y], "bits {bits}: {y} twice");
                seen[y] = true;
            }
        }
        // Vertex 0 is not the hub: the hub (pre-image of R-MAT's vertex 0) moved.
        assert_ne!(BitPermutation::new(20, sub(1, stream::PERMUTATION)).apply(0), 0);
    }

    #[test]
    fn kron_is_skewed_and_symmetric() {
        let g = generate(&GenSpec::parse("kron:10").unwrap(), 1, WeightSpec::AsGiven).unwrap();
        let max_deg = (0..1024).map(|v| g.degree(v)).max().unwrap();
        assert!(max_deg > 10 * 32, "max degree {max_deg} is not hub-like");
        let mut fwd: Vec<(u32, u32, i64)> = Vec::new();
        for u in 0..1024 {
            fwd.extend(g.neighbors(u).map(|(v, w)| (u, v, w)));
        }
        let mut rev: Vec<(u32, u32, i64)> = fwd.iter().map(|&(u, v, w)| (v, u, w)).collect();
        fwd.sort();
        rev.sort();
        assert_eq!(fwd, rev);
        assert!(fwd.iter().all(|&(_, _, w)| (1..=255).contains(&w)));
    }

    #[test]
    fn road_is_connected_sparse_and_euclidean() {
        let g = generate(&GenSpec::Road { n: 20_000 }, 5, WeightSpec::AsGiven).unwrap();
        assert!(g.reachable(0).iter().all(|&r| r));
        let avg = g.num_arcs() as f64 / g.num_vertices() as f64;
        assert!((2.3..2.7).contains(&avg), "average out-degree {avg}");
        let (lo, hi) = g.weight_range().unwrap();
        assert!(lo >= 300 && hi <= 2500, "weights {lo}..{hi}");
    }

    #[test]
    fn star_path_complete_shapes() {
        let star = generate(&GenSpec::Star { n: 100 }, 1, WeightSpec::Unit).unwrap();
        assert_eq!(star.degree(0), 99);
        assert!((1..100).all(|v| star.neighbors(v).eq([(0, 1)])));
        let path = generate(&GenSpec::Path { n: 4 }, 1, WeightSpec::Unit).unwrap();
        assert_eq!(path.neighbors(1).collect::<Vec<_>>(), vec![(2, 1), (0, 1)]);
        let k = generate(&GenSpec::Complete { n: 6 }, 1, WeightSpec::Unit).unwrap();
        for u in 0..6 {
            assert_eq!(
                k.neighbors(u).map(|(v, _)| v).collect::<Vec<_>>(),
                (0..6).filter(|&v| v != u).collect::<Vec<_>>()
            );
        }
    }

    #[test]
    fn disconnected_parts_are_closed() {
        let g = generate(&GenSpec::Disconnected { parts: 4, n: 103 }, 2, WeightSpec::AsGiven).unwrap();
        for src in [0, 5, 102] {
            let r = g.reachable(src);
            for (v, &hit) in r.iter().enumerate() {
                assert_eq!(hit, v as u32 % 4 == src % 4, "source {src}, vertex {v}");
            }
        }
    }

    #[test]
    fn adversarial_weights_and_loops() {
        let z = generate(&GenSpec::ZeroWeights { n: 500 }, 3, WeightSpec::AsGiven).unwrap();
        let zeros = (0..z.num_arcs()).filter(|&e| z.weights().get(e) == 0).count();
        assert!(zeros * 2 > z.num_arcs(), "{zeros} zero weights of {}", z.num_arcs());
        // The first cycle (0 -> 1 -> ... -> 0) weighs nothing.
        assert!(z.neighbors(0).any(|(v, w)| v == 1 && w == 0));

        let s = generate(&GenSpec::SelfLoops { n: 100 }, 3, WeightSpec::AsGiven).unwrap();
        assert!((0..100).all(|v| s.neighbors(v).any(|(t, _)| t == v)));
        assert_eq!(s.neighbors(3).filter(|&(t, _)| t == 3).count(), 2);

        let m = generate(&GenSpec::MultiEdges { n: 100 }, 3, WeightSpec::AsGiven).unwrap();
        let mut pairs: Vec<(u32, u32)> = (0..100).flat_map(|u| m.neighbors(u).map(move |(v, _)| (u, v))).collect();
        let total = pairs.len();
        pairs.sort();
        pairs.dedup();
        assert!(pairs.len() * 2 <= total, "{} distinct pairs among {total} arcs", pairs.len());

        let h = generate(&GenSpec::Heavy { n: 100 }, 3, WeightSpec::AsGiven).unwrap();
        assert!(h.weight_range().unwrap().0 >= 1 << 31);
    }

    #[test]
    fn edge_list_flags() {
        let e = generate_edges(&GenSpec::parse("kron:5").unwrap(), 1).unwrap();
        assert!(e.undirected);
        assert_eq!(e.len(), 16 * 32);
        let e = generate_edges(&GenSpec::parse("uniform:10:2").unwrap(), 1).unwrap();
        assert!(!e.undirected);
        assert_eq!(e.weights.as_ref().map(Vec::len), Some(20));
    }
}
