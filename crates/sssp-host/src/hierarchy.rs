//! Contraction hierarchies for PHAST: a per-graph preprocessing that turns every later
//! shortest-path tree into one small search and one sweep of a few hundred parallel levels.
//!
//! Why: in a bulk-synchronous strategy a distance travels one arc per iteration, and
//! NY's shortest-path trees are 784-1,199 arcs deep, so no delta gives fewer than 1,143
//! iterations and the device loop cannot go below about 3 ms there. PHAST (Delling, Goldberg,
//! Nowatzyk and Werneck, "PHAST: Hardware-accelerated shortest path trees", IPDPS 2011) trades
//! a one-off contraction for a tree whose depth is the hierarchy's, not the graph's:
//!
//! 1. **Contraction** (this module, once per graph, on the host): vertices are removed one at a
//!    time in order of importance; removing `v` adds a shortcut `u -> x` of weight
//!    `w(u,v) + w(v,x)` for each in-neighbour `u` and out-neighbour `x` still present unless a
//!    *witness* path `u -> x` no longer than that avoids `v` (a bounded Dijkstra finds it; a
//!    search that gives up only adds a shortcut that was not needed). Distances between the
//!    remaining vertices never change, so every shortest path has a representation that goes
//!    up in rank and then down.
//! 2. **Query** ([`Hierarchy::upward`]): a Dijkstra from the source over upward arcs only (a few
//!    hundred vertices on a road graph) gives the exact distance of the top of every path.
//! 3. **Sweep** (`strategy::phast::DeviceSweep`, `sssp_kernels::sweep`): every other vertex takes the minimum
//!    over its downward in-arcs, whose tails rank higher and are final. A vertex's *level* is
//!    above every vertex below it it is joined to, so a whole level is one parallel pass, and
//!    the levels run from the top down: a few hundred passes on a road graph instead of
//!    thousands of frontier iterations.
//!
//! A hierarchy can be written to a file and read back by later processes ([`mod@file`]:
//! [`Hierarchy::write`], [`Hierarchy::read`], `strategy::phast::hierarchy_file`).
//!
//! Choices, each for a measured or stated reason:
//! - **Order**: priority `4 * (shortcuts - arcs removed) + contracted neighbours + 4 * level`:
//!   the usual edge difference and spread terms, plus a level term because here the number of
//!   levels is the sweep's latency ([`PRIORITY_LEVEL`]).
//! - **Parallel rounds** (`hierarchy/build.rs`): each round contracts every vertex whose `(priority, id)`
//!   is below all its neighbours' (an independent set that always holds the least vertex), its
//!   witness searches in parallel and avoiding every vertex of the round (two of them must not
//!   serve as each other's witness); then the next round's graph is written in parallel, and
//!   the priorities of the vertices that lost a neighbour recomputed in parallel. The result
//!   does not depend on the thread count. On the H100 machine's 16 cores this built road 4M
//!   in 52 s instead of the serial heap order's 126 s, with 68 levels instead of 84
//!   (docs/gpu.md, "PHAST").
//! - **Build cost**: most of a build is the neighbours' priority simulations (road 4M on 16
//!   cores, before the changes below: 35 s of 47 s; the round's own searches 4.4 s, the serial
//!   graph edits 4.4 s, the first priorities 2.5 s), and they are cheap to make cheaper without
//!   changing the hierarchy. A witness search stops as soon as each target is decided (a
//!   third fewer vertices settled), takes a witness when it is relaxed, and queues nothing
//!   beyond the farthest undecided bound; each round's graph is a CSR in compact ids written in
//!   parallel (`hierarchy/build.rs` says why), so the searches read arrays in id order and the edits
//!   are no longer serial. The same hierarchy as before (the same arcs; a vertex's in another order) in 20.5 s instead of
//!   46.7 s on the H200 machine's 16 cores (contraction alone, `gen:road:4000000`). Cheaper
//!   priorities were measured and left out: simulations that give up after 32 settled
//!   vertices instead of 64 built road 4M in 17.3 s but with 73 levels instead of 68 (NY at
//!   16: 140 levels instead of 122); priorities refreshed only when a vertex is about to be
//!   contracted (lazy updates) built it in 22 s with 26% more shortcuts and a core of 11,965;
//!   adding to a round the vertices whose lower neighbours are all blocked halved the rounds
//!   but not the work, with 22% more shortcuts on NY. Each thread keeps its own witness
//!   distances and target marks: 12 bytes per vertex per thread (road 4M on 16 threads: 768 MB).
//! - **Progress**: [`Hierarchy::build_reporting`] reports each round (rounds, vertices left) to
//!   a callback; the command line draws a bar from it on a terminal.
//! - **Core**: contraction stops when the remaining graph becomes dense (mean out-degree above
//!   [`CORE_DEGREE`]): the last vertices of a road graph form a near-clique whose contraction
//!   would give one level per vertex, and on a scale-free graph contraction would never end
//!   well. The core keeps its arcs, and the sweep starts below it.
//! - **Core table**: a core of up to [`CORE_TABLE`] vertices gets its all-pairs distances at
//!   build time (a Dijkstra from each core vertex over the core's arcs, on every host core).
//!   The query's upward search then stops at the core: each core vertex it reaches is an
//!   *entry*, and the engine gives every core vertex `c` the least `d(entry) + table[entry][c]`
//!   in one parallel pass ([`sssp_kernels::sweep::core_table`]). Exact: a shortest path enters the
//!   core at its first core vertex, by upward arcs only, so that entry's search distance is
//!   exact, and contraction keeps the distances between remaining vertices. Without it every
//!   query searched the whole core on one host core: `gen:road:4000000`'s 5,929 core vertices
//!   and 380k core arcs took 5-6 ms of a 12 ms query. A bigger core (a scale-free graph's) is
//!   searched on the host as before: its table would take `C^2 * 4` bytes.
//! - **Weights**: sums are kept in 64 bits while contracting; an arc whose weight does not fit
//!   below `INF` is stored as `INF` and never relaxed through (a path that long overflows the
//!   engines' 32-bit distances anyway, which the strategy reports as for any other run).
//! - Integer weights only: a shortcut sums two `f32` weights in another order than a path does,
//!   which would change a real-weighted distance by a rounding; negative weights have no
//!   hierarchy. Self loops never lie on a shortest path and are dropped; of parallel arcs the
//!   lightest is kept.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde::Serialize;
use sssp_kernels::INF;

use crate::error::{Error, Result};
use crate::graph::{Graph, Metric};
use crate::mem::try_vec;

mod build;
pub mod file;

pub use build::BuildProgress;

/// Mean out-degree of the remaining graph above which contraction stops and the rest becomes
/// the core (see the module doc). NY and the generated road graphs contract completely below
/// it; at 32, `gen:road:400000` kept a core of 530 vertices that every query searched (and
/// `gen:road:4000000` one of 8,614: 6.5 ms of search on the host), where contracting them
/// cost 20% more build time and gave a 635-vertex search (0.4 ms).
pub const CORE_DEGREE: u64 = 64;

/// Weight of the level term in the contraction priority (see the module doc).
pub const PRIORITY_LEVEL: i64 = 4;

/// Vertices a witness search settles before it gives up (a shortcut is then added: safe,
/// possibly unneeded).
pub const WITNESS_SETTLES: u32 = 64;

/// Arcs a witness search scans before it gives up likewise: a search from a hub's neighbour
/// would otherwise scan the hub's whole adjacency.
pub const WITNESS_ARCS: usize = 4096;

/// A vertex with more (in-neighbour, out-neighbour) pairs than this is not simulated: its
/// shortcut count is taken as the number of pairs, an upper bound, so hubs sort last (into
/// the core, on a scale-free graph) without a witness search per pair (kron 16's hubs made
/// the build take minutes).
pub const SIMULATE_PAIRS: usize = 1024;

/// Largest core that gets an all-pairs distance table (see the module doc): 8,192^2 entries
/// of 4 bytes are 256 MiB, on the host and on the device.
pub const CORE_TABLE: u32 = 8192;

/// The contraction's size limits ([`Hierarchy::build_with`]); the defaults are the constants
/// above, measured as their docs say.
#[derive(Clone, Copy, Debug)]
pub struct HierarchyParams {
    /// [`CORE_DEGREE`].
    pub core_degree: u64,
    /// [`CORE_TABLE`]: 0 searches every core on the host.
    pub core_table: u32,
}

impl Default for HierarchyParams {
    fn default() -> Self {
        HierarchyParams { core_degree: CORE_DEGREE, core_table: CORE_TABLE }
    }
}

/// What a contraction produced.
#[derive(Clone, Debug, Default, Serialize)]
pub struct HierarchyStats {
    /// Shortcut arcs added.
    pub shortcuts: u64,
    /// Levels of the sweep.
    pub levels: u32,
    /// Vertices left uncontracted (searched by every query).
    pub core: u32,
    /// The core has a distance table (at most [`CORE_TABLE`] vertices).
    pub core_table: bool,
    /// Arcs of the upward graph (core arcs included).
    pub up_arcs: u64,
    /// Downward arcs the sweep relaxes.
    pub down_arcs: u64,
    /// Time of the contraction.
    #[serde(serialize_with = "ser_secs")]
    pub build: Duration,
}

impl HierarchyStats {
    /// Its shape in words, for the command line: `122 levels, 1019295 shortcuts, core of 0`,
    /// and whether the core has its distance table.
    pub fn summary(&self) -> String {
        let table = if self.core_table { " with its distance table" } else { "" };
        format!("{} levels, {} shortcuts, core of {}{table}", self.levels, self.shortcuts, self.core)
    }
}

fn ser_secs<S: serde::Serializer>(d: &Duration, s: S) -> std::result::Result<S::Ok, S::Error> {
    s.serialize_f64(d.as_secs_f64())
}

/// A contraction hierarchy of a graph with its PHAST sweep layout (see the module doc).
#[derive(Debug)]
pub struct Hierarchy {
    /// Identifies this hierarchy to an engine that keeps its sweep graph resident.
    id: u64,
    n: u32,
    /// Upward graph in vertex ids: arcs to higher-ranked vertices, and a core vertex's arcs
    /// to the rest of the core.
    up_offsets: Vec<u64>,
    up_heads: Vec<u32>,
    up_weights: Vec<u32>,
    /// The swept (non-core) vertices, top level first.
    order: Vec<u32>,
    /// Level `k` is `order[level_starts[k]..level_starts[k + 1]]`.
    level_starts: Vec<u32>,
    /// Downward in-arcs of `order[i]`: `down_offsets[i]..down_offsets[i + 1]`, tails and weights.
    down_offsets: Vec<u64>,
    down_tails: Vec<u32>,
    down_weights: Vec<u32>,
    /// The core's distance table, when it has one.
    table: Option<CoreTable>,
    /// The upward search's distances (`u64::MAX`: not reached), reset after each search.
    scratch: std::sync::Mutex<Vec<u64>>,
    /// What the build produced.
    pub stats: HierarchyStats,
}

/// The sweep layout an engine uploads ([`Hierarchy::sweep_graph`]).
pub struct SweepGraph<'a> {
    /// The hierarchy's id (an engine re-uploads when it changes).
    pub id: u64,
    /// Vertices of the graph it was built from.
    pub n: u32,
    /// Swept vertices, top level first.
    pub order: &'a [u32],
    /// Level boundaries in `order`.
    pub level_starts: &'a [u32],
    /// Per position in `order`: the range of its downward in-arcs.
    pub offsets: &'a [u64],
    /// Tails of the downward in-arcs.
    pub tails: &'a [u32],
    /// Their weights (`INF`: too heavy to relax through).
    pub weights: &'a [u32],
    /// The core's vertices in table order (empty: no table).
    pub core: &'a [u32],
    /// The core's distances, row `i` from `core[i]` (`INF`: unreachable or too far).
    pub table: &'a [u32],
}

/// The result of an upward search: every vertex it reached, with its distance.
#[derive(Clone, Debug, Default)]
pub struct Upward {
    /// The vertices reached (distance below `INF`), each as the sweep's seed item
    /// ([`sssp_kernels::sweep::seed_item`]: `(distance << 32) | vertex`); with a core table,
    /// core vertices are not among them.
    pub seeds: Vec<u64>,
    /// With a core table: the core vertices reached, as `seed_item(table row, distance)`.
    pub entries: Vec<u64>,
    /// Arcs relaxed.
    pub arcs: u64,
    /// Some distance did not fit below `INF` and was dropped.
    pub overflow: bool,
}

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// One vertex's arcs while contracting: (other end, weight).
type Arcs = Vec<(u32, u64)>;

/// A CSR as stored: offsets (one per row, plus the end), other ends, weights.
type Arrays = (Vec<u64>, Vec<u32>, Vec<u32>);

/// All-pairs distances of a small core (see the module doc).
#[derive(Debug)]
struct CoreTable {
    /// Core vertices in table order.
    vertices: Vec<u32>,
    /// Table row of each graph vertex (`u32::MAX`: not in the core).
    row: Vec<u32>,
    /// `dist[i * C + j]`: from `vertices[i]` to `vertices[j]`, `INF` when unreachable or
    /// too far to store.
    dist: Vec<u32>,
    /// Some finite distance was too far to store: a query that enters the core raises the
    /// overflow flag so that the host checks its result (as after any overflow).
    saturated: bool,
}

impl CoreTable {
    /// The table of the core (`!contracted`) over its arcs (`arcs[v]` of each core vertex,
    /// all to core vertices): one Dijkstra per core vertex, in parallel.
    fn build(arcs: &[Arcs], contracted: &[bool]) -> Result<CoreTable> {
        use rayon::prelude::*;
        let vertices: Vec<u32> = (0..contracted.len() as u32).filter(|&v| !contracted[v as usize]).collect();
        let c = vertices.len();
        let mut row = try_vec(contracted.len(), u32::MAX)?;
        for (i, &v) in vertices.iter().enumerate() {
            row[v as usize] = i as u32;
        }
        let local: Vec<Arcs> =
            vertices.iter().map(|&v| arcs[v as usize].iter().map(|&(x, w)| (row[x as usize], w)).collect()).collect();
        let mut dist = try_vec(c * c, INF)?;
        let saturated = dist
            .par_chunks_mut(c)
            .enumerate()
            .map_init(
                || (vec![u64::MAX; c], BinaryHeap::new()),
                |(d, heap), (i, out)| {
                    d.fill(u64::MAX);
                    d[i] = 0;
                    heap.push(Reverse((0u64, i as u32)));
                    while let Some(Reverse((du, u))) = heap.pop() {
                        if du > d[u as usize] {
                            continue;
                        }
                        for &(x, w) in &local[u as usize] {
                            if du + w < d[x as usize] {
                                d[x as usize] = du + w;
                                heap.push(Reverse((du + w, x)));
                            }
                        }
                    }
                    let mut saturated = false;
                    for (o, &du) in out.iter_mut().zip(d.iter()) {
                        saturated |= du != u64::MAX && du >= INF as u64;
                        *o = stored(du);
                    }
                    saturated
                },
            )
            .reduce(|| false, |a, b| a || b);
        Ok(CoreTable { vertices, row, dist, saturated })
    }
}

/// Rows of arcs as a CSR: offsets (one per row, plus the end), other ends, stored weights.
fn flatten<'a>(rows: impl Iterator<Item = &'a Arcs> + Clone) -> Result<Arrays> {
    let (count, total) = rows.clone().fold((0, 0), |(c, t), r| (c + 1, t + r.len()));
    let mut offsets = Vec::new();
    crate::mem::reserve(&mut offsets, count + 1)?;
    let (mut ends, mut weights) = (Vec::new(), Vec::new());
    crate::mem::reserve(&mut ends, total)?;
    crate::mem::reserve(&mut weights, total)?;
    offsets.push(0);
    for row in rows {
        for &(x, w) in row {
            ends.push(x);
            weights.push(stored(w));
        }
        offsets.push(ends.len() as u64);
    }
    Ok((offsets, ends, weights))
}

/// The weight as stored: `INF` for a sum that does not fit below it.
fn stored(w: u64) -> u32 {
    w.min(INF as u64) as u32
}

impl Hierarchy {
    /// Contract `g` (see the module doc). Errors: [`Error::InvalidArgument`] for weights other
    /// than non-negative integers; [`Error::OutOfHostMemory`].
    pub fn build(g: &Graph) -> Result<Hierarchy> {
        Self::build_with(g, HierarchyParams::default())
    }

    /// [`Hierarchy::build`] with other size limits.
    pub fn build_with(g: &Graph, params: HierarchyParams) -> Result<Hierarchy> {
        Self::build_reporting(g, params, &|_| {})
    }

    /// [`Hierarchy::build_with`], telling `progress` how far it has come: once before the
    /// first round, after every round, and once when the contraction is over (before the core
    /// table and the sweep layout, which take a small part of the time). The library draws
    /// nothing itself; the command line draws a bar from it on a terminal.
    ///
    /// ```
    /// use std::sync::atomic::{AtomicU32, Ordering};
    /// use sssp::generate::{generate, GenSpec};
    /// use sssp::hierarchy::{Hierarchy, HierarchyParams};
    /// use sssp::WeightSpec;
    ///
    /// let g = generate(&GenSpec::parse("grid2d:30x30").unwrap(), 1, WeightSpec::AsGiven).unwrap();
    /// let rounds = AtomicU32::new(0);
    /// let h = Hierarchy::build_reporting(&g, HierarchyParams::default(), &|p| {
    ///     rounds.store(p.rounds, Ordering::Relaxed)
    /// })
    /// .unwrap();
    /// assert!(rounds.load(Ordering::Relaxed) >= h.stats.levels);
    /// ```
    pub fn build_reporting(
        g: &Graph,
        params: HierarchyParams,
        progress: &(dyn Fn(BuildProgress) + Sync),
    ) -> Result<Hierarchy> {
        let started = Instant::now();
        if g.metric() != Metric::Integer {
            return Err(Error::InvalidArgument(
                "phast needs non-negative integer weights (a shortcut of real weights rounds differently \
                 from the path it stands for; negative weights have no hierarchy)"
                    .into(),
            ));
        }
        let c = build::contract(g, params, progress)?;
        let table = match c.core {
            0 => None,
            r if r <= params.core_table => Some(CoreTable::build(&c.up, &c.contracted)?),
            _ => None,
        };
        Self::assemble(g.num_vertices(), &c.contracted, &c.level, c.up, c.down, table, c.core, c.shortcuts, started)
    }

    /// Flatten the per-vertex arc lists into the upward CSR and the sweep layout.
    #[allow(clippy::too_many_arguments)]
    fn assemble(
        n: usize,
        contracted: &[bool],
        level: &[u32],
        up: Vec<Arcs>,
        down: Vec<Arcs>,
        table: Option<CoreTable>,
        core: u32,
        shortcuts: u64,
        started: Instant,
    ) -> Result<Hierarchy> {
        let up = flatten(up.iter())?;
        // Sweep order: the contracted vertices by level, the highest first; a level starts
        // where the level changes.
        let mut order: Vec<u32> = (0..n as u32).filter(|&v| contracted[v as usize]).collect();
        order.sort_by_key(|&v| (Reverse(level[v as usize]), v));
        let lev = |i: usize| level[order[i] as usize];
        let level_starts: Vec<u32> = (0..=order.len())
            .filter(|&i| i == 0 || i == order.len() || lev(i) != lev(i - 1))
            .map(|i| i as u32)
            .collect();
        let down = flatten(order.iter().map(|&v| &down[v as usize]))?;
        let (up_arcs, down_arcs) = (up.1.len(), down.1.len());
        let stats = HierarchyStats {
            shortcuts,
            levels: level_starts.len() as u32 - 1,
            core,
            core_table: table.is_some(),
            up_arcs: up_arcs as u64,
            down_arcs: down_arcs as u64,
            build: started.elapsed(),
        };
        Self::from_parts(n as u32, up, order, level_starts, down, table, stats)
    }

    /// A hierarchy of an `n`-vertex graph from its arrays (built or read), with a fresh id and
    /// search scratch.
    fn from_parts(
        n: u32,
        (up_offsets, up_heads, up_weights): Arrays,
        order: Vec<u32>,
        level_starts: Vec<u32>,
        (down_offsets, down_tails, down_weights): Arrays,
        table: Option<CoreTable>,
        stats: HierarchyStats,
    ) -> Result<Hierarchy> {
        Ok(Hierarchy {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            n,
            up_offsets,
            up_heads,
            up_weights,
            order,
            level_starts,
            down_offsets,
            down_tails,
            down_weights,
            table,
            scratch: std::sync::Mutex::new(try_vec(n as usize, u64::MAX)?),
            stats,
        })
    }

    /// Vertices of the graph it was built from.
    pub fn num_vertices(&self) -> u32 {
        self.n
    }

    /// The layout the sweep runs on.
    pub fn sweep_graph(&self) -> SweepGraph<'_> {
        SweepGraph {
            id: self.id,
            n: self.n,
            order: &self.order,
            level_starts: &self.level_starts,
            offsets: &self.down_offsets,
            tails: &self.down_tails,
            weights: &self.down_weights,
            core: self.table.as_ref().map_or(&[], |t| &t.vertices),
            table: self.table.as_ref().map_or(&[], |t| &t.dist),
        }
    }

    /// The upward graph by vertex: offsets (`n + 1`), heads and weights (`INF`: too heavy to
    /// relax through) of the arcs to higher-ranked vertices, and of a core vertex's arcs to the
    /// rest of the core. Point-to-point queries and tables search it ([`crate::route`]).
    pub fn upward_graph(&self) -> (&[u64], &[u32], &[u32]) {
        (&self.up_offsets, &self.up_heads, &self.up_weights)
    }

    /// The query's first half: Dijkstra from `source` over the upward arcs, returning an upper
    /// bound of the distance of every vertex it reaches, which the sweep lowers to the exact
    /// one. The core: with a table, the search stops at its vertices (the entries, whose
    /// table rows the sweep combines); without, it searches the core's arcs too and returns
    /// the exact distance of every core vertex.
    pub fn upward(&self, source: u32) -> Upward {
        let mut dist = self.scratch.lock().unwrap_or_else(|e| e.into_inner());
        let mut heap = BinaryHeap::new();
        let mut res = Upward::default();
        let row = self.table.as_ref().map_or(&[][..], |t| &t.row);
        dist[source as usize] = 0;
        heap.push(Reverse((0u64, source)));
        while let Some(Reverse((d, v))) = heap.pop() {
            if d > dist[v as usize] {
                continue;
            }
            if let Some(&r) = row.get(v as usize).filter(|&&r| r != u32::MAX) {
                res.entries.push(sssp_kernels::sweep::seed_item(r, d as u32));
                continue;
            }
            res.seeds.push(sssp_kernels::sweep::seed_item(v, d as u32));
            let (s, e) = (self.up_offsets[v as usize] as usize, self.up_offsets[v as usize + 1] as usize);
            res.arcs += (e - s) as u64;
            for k in s..e {
                let (x, w) = (self.up_heads[k], self.up_weights[k]);
                let c = d + w as u64;
                if c >= INF as u64 {
                    res.overflow = true;
                } else if c < dist[x as usize] {
                    dist[x as usize] = c;
                    heap.push(Reverse((c, x)));
                }
            }
        }
        // Every vertex whose entry was lowered was pushed, hence popped: it is a seed or an
        // entry, or it was popped stale after a lower entry of itself, one too.
        for &item in &res.seeds {
            dist[item as u32 as usize] = u64::MAX;
        }
        if let Some(t) = &self.table {
            for &item in &res.entries {
                dist[t.vertices[item as u32 as usize] as usize] = u64::MAX;
            }
            res.overflow |= t.saturated && !res.entries.is_empty();
        }
        res
    }
}
