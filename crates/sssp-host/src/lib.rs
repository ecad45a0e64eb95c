//! `sssp`: exact single-source shortest paths on GPUs (CUDA) and CPUs, written in Rust.
//!
//! # The library
//!
//! - [`Graph<W>`](Graph): a graph with weights of type `W` (`u32`, `i32` or `f32`; the distance
//!   type of each is in [`Weight`]), built from `(tail, head, weight)` triples, CSR arrays, a
//!   file or (feature `petgraph`) a petgraph graph.
//! - [`Solver`]: the graph on a [`Device`] (the GPU when usable, else the CPU backend), uploaded
//!   once, and any number of queries on it: [`Solver::shortest_paths`],
//!   [`Solver::shortest_paths_many`], [`Solver::nearest`], [`Solver::distances_to`],
//!   [`Solver::path`], each with a cutoff and the algorithm as options ([`Query`]).
//! - [`Paths`]: typed distances (`None` when not reached) and the paths behind them.
//! - [`Error`]: one error type with typed variants, e.g. [`Error::NegativeCycle`] with the
//!   cycle.
//!
//! # Quickstart
//!
//! The README's example, `examples/quickstart.rs` (`cargo run -p sssp --example quickstart`),
//! compiled here in edition 2024, what `cargo new` makes:
//!
//! ```edition2024
#![doc = include_str!("../examples/quickstart.rs")]
//! ```
//!
//! # The layers below
//!
//! What [`Solver`] drives, and the CLI with it, in the order data flows:
//! - [`graph`]: the untyped CSR graph model ([`Graph::raw`]), and [`graph::order`]: the same
//!   graph relabelled (hubs first, or BFS order) with maps to and from the user's ids;
//!   [`io`]: file formats; [`generate`]: seeded generators.
//! - [`reference`](mod@reference): serial Dijkstra and Bellman-Ford; [`verify`]: a
//!   reference-free certificate checker; [`tree`]: predecessor trees and paths from any distance
//!   vector.
//! - [`engine`]: the two backends (CUDA through `cudarc`, CPU through rayon) running the same
//!   kernels from `sssp-kernels`; [`strategy`]: the parallel algorithms built from them
//!   (`strategy::solve` and its [`Options`](strategy::Options));
//!   [`hierarchy`]: the contraction hierarchy PHAST sweeps ([`strategy::phast`]);
//!   [`diameter`](mod@diameter): exact diameter, radius, center and periphery by eccentricity
//!   bounding on top of them.
//! - [`distributed`]: SSSP over several ranks (CPU-simulated threads, or GPUs through NCCL
//!   with feature `nccl`): the graph split by vertex ranges, delta-stepping with one exchange
//!   of candidates per round.
//! - [`error`]: the one error type, [`Error`]; [`mem`]: fallible allocation; [`rng`]: the seeded
//!   generator behind every random choice.
//!
//! The engine-level layer on a 3x3 grid with unit weights, checked against the answer:
//!
//! ```
//! use sssp::engine::{self, DeviceKind};
//! use sssp::generate::{generate, GenSpec};
//! use sssp::strategy::{solve, Algo, Options};
//! use sssp::WeightSpec;
//!
//! // The far corner is 4 arcs from vertex 0.
//! let g = generate(&GenSpec::parse("grid2d:3x3")?, 1, WeightSpec::Unit)?;
//! let mut eng = engine::open(&g, DeviceKind::Cpu)?; // DeviceKind::Auto picks CUDA when usable
//! let sol = solve(&g, Algo::Workfront, Some(eng.as_mut()), 0, &Options::default())?;
//! assert_eq!(sol.dist[8], 4);
//! sssp::verify::check(&g, 0, &sol.dist)?; // a certificate: needs no reference answer
//! # Ok::<(), sssp::Error>(())
//! ```

#![warn(missing_docs)]

pub mod device;
pub mod diameter;
pub mod distributed;
pub mod engine;
pub mod error;
pub mod generate;
pub mod graph;
pub mod hierarchy;
pub mod io;
pub mod kpaths;
pub mod mem;
mod paths;
pub mod reference;
pub mod rng;
pub mod route;
pub mod session;
mod solver;
pub mod strategy;
pub mod tree;
mod typed;
pub mod verify;

pub use error::{Error, Result};
pub use graph::{Distance, EdgeList, Metric, RealDistances, WeightSpec, WeightTotal, Weights};
pub use paths::{Paths, Table};
pub use solver::{Device, Query, Solver};
pub use strategy::Strategy;
pub use typed::{Graph, Weight};

/// The default hub threshold of the frontier strategies ([`strategy::Options::hub_degree`]).
pub use sssp_kernels::{BLOCK_QUEUE_CAP, HUB_DEGREE};

/// A shortest-path distance as returned by every algorithm: `i64`, with [`UNREACHED`] for
/// vertices the source cannot reach. On a graph with real weights ([`Metric::Real`]) it holds
/// the bit pattern of a non-negative `f32`, which orders like the number
/// ([`RealDistances::decode`], [`Solution::distance_f32`](strategy::Solution::distance_f32)).
pub type Dist = i64;

/// Distance of a vertex that the source cannot reach.
pub const UNREACHED: Dist = i64::MAX;
