//! Exact diameter, radius, center and periphery by eccentricity bounding (Takes and Kosters'
//! BoundingDiameters, as run on a GPU in `gpu-exact-diameter-bounding`, Algorithms 1-2).
//!
//! # Definitions
//!
//! - The *eccentricity* `ecc(v)` is the largest shortest-path distance from `v` to a vertex of
//!   its component (below). The *diameter* is the largest eccentricity, the *radius* the
//!   smallest; the *center* is the set of vertices whose eccentricity is the radius, the
//!   *periphery* the set whose eccentricity is the diameter.
//! - **Undirected graphs** (symmetric ones: the cheapest arc `u -> v` weighs what the cheapest
//!   `v -> u` weighs; detected by [`is_symmetric`]): the component is a connected component. By default the largest one (most vertices; ties: the one holding
//!   the smallest vertex id) is analysed, as the paper does.
//! - **Directed graphs**: the *directed* eccentricity `ecc(v) = max_w d(v, w)` (longest shortest
//!   path *out of* `v`) over the vertices `w` of the largest *strongly* connected component. A
//!   shortest path between two vertices of one strongly connected component never leaves it, so
//!   SSSP on the whole graph gives the component's distances exactly.
//! - [`Scope::Whole`]: the diameter of the whole graph, which is infinite ([`UNREACHED`]) when
//!   the graph is not (strongly) connected; the witness is then a pair with no path. Radius,
//!   center and periphery are always those of the largest component.
//! - Self loops never shorten anything; of parallel arcs the cheapest counts; zero-weight arcs
//!   are ordinary arcs of length 0 (the bounds below hold for any non-negative weights). A
//!   one-vertex component has diameter and radius 0, its vertex is center and periphery.
//!   Negative weights are an error ([`Error::NegativeWeight`]): with them "shortest" is not a
//!   metric and no bound holds. Unit weights make every eccentricity a BFS.
//!
//! # Bounding (the paper's Algorithms 1-2)
//!
//! Each vertex `v` of the component keeps bounds `lb[v] <= ecc(v) <= ub[v]`. Computing the
//! eccentricity of a vertex `u` (one SSSP; "I" counts these) with forward distances
//! `f(v) = d(u, v)` and backward distances `b(v) = d(v, u)` gives, by the triangle inequality,
//!
//! - `ecc(v) >= b(v)` (`v` reaches `u`),
//! - `ecc(v) >= ecc(u) - f(v)` (from `d(u, w) <= d(u, v) + d(v, w)`),
//! - `ecc(v) <= b(v) + ecc(u)` (go to `u`, then anywhere).
//!
//! On undirected graphs `b = f` and these are exactly the paper's `UPDATE BOUNDS KERNEL`. On
//! directed graphs they are Takes and Kosters' directed bounds and need a second SSSP on the
//! reverse graph per eccentricity (`traversals` counts both): exact, never a guess. The
//! global bounds are `D_L = max lb`, `D_U = max ub` for the diameter and `R_L = min lb`,
//! `R_U = min ub` for the radius; every one of them is realised by a computed distance (the
//! largest lower bound is `ecc(u)` or `b(v)` of some computed `u`; the smallest upper bound is
//! `ecc(u)` of a computed `u`), which is where the witnesses come from.
//!
//! A vertex stays a candidate (the paper's `UPDATE CANDIDATES KERNEL`) while its bounds differ
//! and it can still matter: for the diameter unless `ub <= D_L and 2 lb >= D_U` (the paper's
//! rule); for the radius while `lb < R_U`; for the center (once the radius `R` is known) while
//! `lb <= R < ub`; for the periphery (once the diameter `D` is known) while `lb < D <= ub`.
//! Radius, center and periphery are only pursued when asked for, so each costs only the extra
//! eccentricities it needs. Candidates are chosen alternately with the largest upper bound and
//! the smallest lower bound (ties: the smaller id), starting from a vertex of highest degree
//! (ties: the smaller id), as in the paper. The loop ends when no candidate is left; then
//! `D_L = D_U` (a vertex with `ub > D_L` would still be a candidate) and `R_L = R_U` likewise.
//!
//! # Pair certification (beyond the paper)
//!
//! When only the diameter is asked for on an undirected graph, one eccentricity at a time
//! ([`DiameterOptions::pairs`], on by default), the loop ends differently once at most
//! 1,024 members have `ub > D_L` (the device counts them in the same pass): a vertex also leaves
//! that open set when each of its pairs with the others left open is certified by some computed
//! `w` with `d(a, w) + d(w, b) <= D_L`, and the picks alternate between the open vertex with
//! the largest upper bound and the vertex within `D_L - R` (`R` the least eccentricity seen) of
//! the most open ones. The loop ends when the open set is empty, with `D = D_L`. The rule, its
//! soundness and the measurements that chose it are in the `pairs` submodule's docs: on kron
//! graphs it needs at most 20 eccentricities where the paper's loop needs up to 634.
//!
//! # Where it runs
//!
//! On undirected graphs with an engine strategy (Workfront, Near-Far, Bucketing, or `auto`'s
//! choice of one), everything stays on the engine, as in the paper's Algorithm 1: each SSSP runs
//! as the engine's own loop without downloading distances, and the ECCENTRICITY reduction, UPDATE
//! BOUNDS and UPDATE CANDIDATES passes (`sssp_kernels::bounds`) run there too; the host reads 64
//! bytes per eccentricity (`passes::Bounds::step`). Unit-weight graphs can use the paper's
//! level-synchronous BFS kernels instead ([`BfsMode`]). Directed graphs (whose bounds need the
//! backward distances of a second engine on the reverse graph) and the serial references keep
//! the bounds on the host over downloaded distances, with the same rules
//! (`sssp_kernels::bounds::update_bounds`, `candidate`) and the same picks, so both give the same
//! answers with the same number of eccentricities (tested).
//!
//! [`DiameterOptions::batch`] runs several eccentricities per pass on undirected graphs: the
//! candidates of a round solve at once in the lanes of one engine (`engine::open_lanes`), the
//! device applies their bounds one after the other (`passes::Bounds::step` takes the lane),
//! and the host picks the next round from the bounds (`picks`). The same rules, so the same
//! exact answers; more eccentricities in all, fewer passes.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use serde::Serialize;

use sssp_kernels::bounds::{
    candidate, far_vertex, update_bounds, widen, B_DLO, B_ECC, B_LOWER, B_OVER, B_UPPER, NO_GLOBALS, RULE_CENTER,
    RULE_DIAMETER, RULE_PERIPHERY, RULE_RADIUS,
};

mod pairs;
mod passes;
use pairs::{Pairs, PAIR_LIMIT};
use passes::{Bounds, Levels};

use crate::engine::{self, BucketSpec, DeviceKind, Engine, LoopSpec};
use crate::error::{Error, Result};
use crate::graph::{Graph, Metric, Weights};
use crate::strategy::{self, Algo};
use crate::{Dist, UNREACHED};
use sssp_kernels::bfs::{use_bottom_up, use_warp, LevelKernel};
use sssp_kernels::{NO_CUTOFF, NO_TARGET};

/// Which part of the graph the diameter is taken over.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scope {
    /// The largest (strongly) connected component (the paper's convention).
    #[default]
    LargestComponent,
    /// The whole graph: infinite when it is not (strongly) connected.
    Whole,
}

/// How unit-weight eccentricities run on an engine (`--bfs`). Weighted graphs always use the
/// SSSP strategy (`algo`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum BfsMode {
    /// The frontier (queue) strategy `algo` picks: a unit-weight Workfront run is a BFS.
    #[default]
    Queue,
    /// The paper's thread-centric level kernel (Algorithm 3; one vertex per thread).
    Thread,
    /// The paper's warp-centric level kernel (Algorithm 4; one vertex per warp).
    Warp,
    /// The paper's hybrid: per level, thread- or warp-centric by the active vertices and their
    /// adjacency length (`sssp_kernels::bfs::use_warp`).
    Hybrid,
    /// Direction-optimising (Beamer et al., SC'12): the hybrid's top-down levels, and bottom-up
    /// ones (each unvisited vertex looks for a neighbour on the frontier) while the frontier's
    /// arcs outnumber a fourteenth of the unvisited vertices' (`sssp_kernels::bfs::use_bottom_up`).
    Direction,
}

impl BfsMode {
    /// `queue`, `thread`, `warp`, `hybrid`, `direction`.
    pub fn parse(s: &str) -> Result<Self> {
        match s {
            "queue" => Ok(BfsMode::Queue),
            "thread" => Ok(BfsMode::Thread),
            "warp" => Ok(BfsMode::Warp),
            "hybrid" => Ok(BfsMode::Hybrid),
            "direction" => Ok(BfsMode::Direction),
            _ => Err(Error::InvalidArgument(format!("bfs `{s}`: expected queue, thread, warp, hybrid or direction"))),
        }
    }
}

/// What to compute, and how.
#[derive(Clone, Copy, Debug)]
pub struct DiameterOptions {
    /// The SSSP algorithm for each eccentricity (`Auto` by default). Serial ones ignore the
    /// device.
    pub algo: Algo,
    /// Options of the SSSP strategy.
    pub sssp: strategy::Options,
    /// How unit-weight eccentricities run on an engine (ignored for weighted graphs, and for
    /// directed graphs, whose bounds are kept on the host).
    pub bfs: BfsMode,
    /// Largest component (default) or whole graph.
    pub scope: Scope,
    /// Also compute the radius (and a center vertex with its farthest vertex).
    pub radius: bool,
    /// Also list the center (implies the radius).
    pub center: bool,
    /// Also list the periphery.
    pub periphery: bool,
    /// Return a shortest path between the diameter's witness pair (one more SSSP).
    pub path: bool,
    /// `Some(true)`: the caller knows the graph is symmetric (e.g. it was loaded with
    /// `--symmetrize`), so the check is skipped; `Some(false)`: treat it as directed; `None`:
    /// symmetric if [`Graph::built_both_ways`], else detect with [`is_symmetric`].
    pub symmetric: Option<bool>,
    /// Eccentricities per pass (batching): a power of two up to
    /// [`engine::MAX_LANES`]. Above 1, on undirected graphs with an engine loop strategy, each
    /// round runs that many SSSPs at once on an engine with as many lanes (one upload of the
    /// graph, one launch), applies their bounds one after the other on the device, and picks
    /// the next round's sources on the host from the bounds (alternately the largest upper and
    /// the smallest lower bound, as one at a time). The picks of a round do not see each
    /// other's bounds, so the bounding may compute more eccentricities in all, in fewer passes:
    /// for small graphs, where one SSSP leaves most of a GPU idle. Unit weights then run as
    /// queue BFS (the level kernels take one source). Elsewhere (directed graphs, serial
    /// algorithms) it is ignored. 1 (default): one at a time, the paper's loop.
    pub batch: u32,
    /// Pair certification (module docs, "Pair certification"): on undirected graphs, when only
    /// the diameter is asked for, one at a time, end the bounding by certifying the pairs of
    /// the few vertices left open instead of computing each one's eccentricity. On by default;
    /// `false` runs the paper's loop to the end (`--paper-end`).
    pub pairs: bool,
}

impl Default for DiameterOptions {
    fn default() -> Self {
        DiameterOptions {
            algo: Algo::Auto,
            sssp: strategy::Options::default(),
            bfs: BfsMode::default(),
            scope: Scope::LargestComponent,
            radius: false,
            center: false,
            periphery: false,
            path: false,
            symmetric: None,
            batch: 1,
            pairs: true,
        }
    }
}

/// The answer of [`diameter`].
#[derive(Clone, Debug, Serialize)]
pub struct Extremes {
    /// Whether the graph was treated as directed (not symmetric).
    pub directed: bool,
    /// Number of (strongly) connected components of the whole graph.
    pub components: usize,
    /// Vertices of the component analysed (the largest).
    pub component_size: usize,
    /// The diameter; [`UNREACHED`] when infinite ([`Scope::Whole`] on a disconnected graph).
    pub diameter: Dist,
    /// Witness `(u, v)`: `d(u, v)` is the diameter (or there is no path from `u` to `v`).
    pub diameter_pair: (u32, u32),
    /// A shortest path from `u` to `v` of the witness, when asked for and finite.
    pub path: Option<Vec<u32>>,
    /// The radius of the component, when asked for.
    pub radius: Option<Dist>,
    /// Witness `(c, v)`: `c` is a center vertex and `d(c, v)` its eccentricity, the radius.
    pub radius_pair: Option<(u32, u32)>,
    /// The center, ascending, when asked for.
    pub center: Option<Vec<u32>>,
    /// The periphery, ascending, when asked for.
    pub periphery: Option<Vec<u32>>,
    /// Eccentricities computed (the paper's "I").
    pub eccentricities: u32,
    /// SSSP runs: one per eccentricity (two on directed graphs: forward and backward), plus one
    /// for the path when asked.
    pub traversals: u32,
    /// Where the SSSPs ran.
    pub device: String,
    /// Whether the bounds lived on the engine's device (`passes::Bounds`: undirected graphs with
    /// an engine loop strategy) rather than on the host over downloaded distances.
    pub bounds_on_device: bool,
    /// `auto`'s choice for the first SSSP, if `auto` chose.
    pub chosen: Option<String>,
    /// Wall time of the preparation: symmetry check, components, and opening the engines
    /// (the upload, and on a GPU the CUDA context).
    #[serde(serialize_with = "ser_secs")]
    pub prepare: Duration,
    /// The preparation's parts (the first two run beside the third, so they overlap).
    pub prepare_parts: Preparation,
    /// Wall time of the bounding itself (every eccentricity and bounds pass, and the path).
    #[serde(serialize_with = "ser_secs")]
    pub compute: Duration,
}

/// Where [`Extremes::prepare`] went, seconds in JSON. The symmetry check and the components run
/// on a second thread while the forward engine opens.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct Preparation {
    /// [`is_symmetric`] (zero when [`DiameterOptions::symmetric`] or
    /// [`Graph::built_both_ways`] said).
    #[serde(serialize_with = "ser_secs")]
    pub symmetry: Duration,
    /// [`connected`] or [`strongly_connected`].
    #[serde(serialize_with = "ser_secs")]
    pub components: Duration,
    /// Opening the engines: on a GPU the CUDA context, the module and the upload; on a directed
    /// graph also the reverse graph's.
    #[serde(serialize_with = "ser_secs")]
    pub engine: Duration,
}

/// Symmetry (unless `known`) and components of `g`, timed.
fn structure(g: &Graph, known: Option<bool>) -> Result<(bool, Components, Preparation)> {
    let t = Instant::now();
    let symmetric = match known {
        Some(s) => s,
        None => is_symmetric(g)?,
    };
    let symmetry = t.elapsed();
    let t = Instant::now();
    let comps = if symmetric { connected(g)? } else { strongly_connected(g)? };
    Ok((symmetric, comps, Preparation { symmetry, components: t.elapsed(), engine: Duration::ZERO }))
}

fn ser_secs<S: serde::Serializer>(d: &Duration, s: S) -> std::result::Result<S::Ok, S::Error> {
    s.serialize_f64(d.as_secs_f64())
}

/// Exact diameter (and on request radius, center, periphery) of `g`; see the module docs for
/// the definitions. The SSSPs run with `opts.algo` on an engine opened on `device` (two on
/// directed graphs: one on the reverse graph).
///
/// Errors: a graph without vertices ([`Error::InvalidArgument`]), a negative weight
/// ([`Error::NegativeWeight`]), and whatever the engine or strategy reports.
///
/// ```
/// use sssp::diameter::{diameter, DiameterOptions};
/// use sssp::engine::DeviceKind;
/// // A path 0 - 1 - 2 - 3 with unit weights (both directions).
/// let g = sssp::graph::Graph::from_arcs(4, &[(0, 1, 1), (1, 0, 1), (1, 2, 1), (2, 1, 1), (2, 3, 1), (3, 2, 1)])?;
/// let opts = DiameterOptions { center: true, ..DiameterOptions::default() };
/// let x = diameter(&g, DeviceKind::Cpu, &opts)?;
/// assert_eq!((x.diameter, x.radius), (3, Some(2)));
/// assert_eq!(x.center, Some(vec![1, 2]));
/// # Ok::<(), sssp::Error>(())
/// ```
pub fn diameter(g: &Graph, device: DeviceKind, opts: &DiameterOptions) -> Result<Extremes> {
    let started = Instant::now();
    let n = g.num_vertices();
    if n == 0 {
        return Err(Error::InvalidArgument("the graph has no vertices: its diameter is undefined".into()));
    }
    check_batch(opts)?;
    check_weights(g)?;
    // The structure (symmetry, components) on a second thread while this one opens the
    // forward engine: independent work, and on a GPU the CUDA context and the upload alone take
    // 0.3-0.5 s of kron 20's preparation.
    let (structure, fwd) = std::thread::scope(|s| {
        let known = opts.symmetric.or(g.built_both_ways().then_some(true));
        let h = s.spawn(move || structure(g, known));
        let t = Instant::now();
        let fwd = if opts.algo.uses_engine() { engine::open(g, device).map(Some) } else { Ok(None) };
        (h.join(), fwd.map(|e| (e, t.elapsed())))
    });
    let (symmetric, comps, mut parts) = structure.unwrap_or_else(|p| std::panic::resume_unwind(p))?;
    if opts.batch > 1 && !symmetric {
        return Err(Error::InvalidArgument(format!(
            "batches of eccentricities (batch {}) need an undirected graph: this one is directed \
             (its bounds run one eccentricity at a time)",
            opts.batch
        )));
    }
    let (fwd, engine_time) = fwd?;
    parts.engine = engine_time;
    let members = comps.largest_members();
    let center_wanted = opts.center;
    let radius_wanted = opts.radius || opts.center;

    let mut x = Extremes {
        directed: !symmetric,
        components: comps.count,
        component_size: members.len(),
        diameter: 0,
        diameter_pair: (members[0], members[0]),
        path: None,
        radius: None,
        radius_pair: None,
        center: None,
        periphery: None,
        eccentricities: 0,
        traversals: 0,
        device: "CPU (serial)".into(),
        bounds_on_device: false,
        chosen: None,
        prepare: Duration::ZERO,
        prepare_parts: Preparation::default(),
        compute: Duration::ZERO,
    };
    let whole_infinite = opts.scope == Scope::Whole && comps.count > 1;
    let need_bounds = !whole_infinite || radius_wanted || opts.periphery;

    let t = Instant::now();
    let mut runner = Runner::open(g, device, opts, fwd, symmetric || !need_bounds)?;
    parts.engine += t.elapsed();
    x.prepare = started.elapsed();
    x.prepare_parts = parts;
    let started = Instant::now();
    if need_bounds {
        let rules = RULE_DIAMETER
            | if radius_wanted { RULE_RADIUS } else { 0 }
            | if center_wanted { RULE_CENTER } else { 0 }
            | if opts.periphery { RULE_PERIPHERY } else { 0 };
        let b = bound(g, &members, &mut runner, symmetric, opts, rules)?;
        x.diameter = b.diameter;
        x.diameter_pair = b.diameter_pair;
        x.radius = b.radius;
        x.radius_pair = b.radius_pair;
        x.center = b.center;
        x.periphery = b.periphery;
        x.eccentricities = b.eccentricities;
        x.bounds_on_device = b.on_device;
        if !opts.radius && !opts.center {
            x.radius = None;
            x.radius_pair = None;
        }
    }
    if whole_infinite {
        x.diameter = UNREACHED;
        x.diameter_pair = unreachable_pair(g, members[0]);
    } else if opts.path {
        let (u, v) = x.diameter_pair;
        let d = runner.forward(u)?;
        x.path = crate::tree::path(g, u, &d, v)?;
    }
    x.traversals = runner.traversals;
    x.device = runner.device();
    x.chosen = runner.chosen.take();
    x.compute = started.elapsed();
    Ok(x)
}

/// Diameter takes non-negative integer weights only.
fn check_weights(g: &Graph) -> Result<()> {
    if let Weights::Signed(_) = g.weights() {
        // Always an error: a signed graph holds a negative weight (see `Weights`).
        g.unsigned_weights("diameter")?;
    }
    if let Weights::Real(_) = g.weights() {
        // Eccentricity bounding leans on the triangle inequality d(u,w) <= d(u,v) + d(v,w),
        // which rounded f32 sums break by an ulp: the bounds could exclude the true extreme.
        return Err(Error::InvalidArgument(
            "diameter takes integer weights: with real (f32) weights rounding breaks the triangle inequality \
             its eccentricity bounds rely on (scale the weights to integers)"
                .into(),
        ));
    }
    Ok(())
}

/// A pair `(u, v)` with no path from `u` to `v`, `u` in the largest component of a graph that is
/// not strongly connected.
fn unreachable_pair(g: &Graph, u: u32) -> (u32, u32) {
    let fwd = g.reachable(u);
    if let Some(v) = fwd.iter().position(|&r| !r) {
        return (u, v as u32);
    }
    // `u` reaches everything, so something does not reach `u`.
    let back = g.reverse().reachable(u);
    let v = back.iter().position(|&r| !r).unwrap_or(u as usize) as u32;
    (v, u)
}

/// Runs the SSSPs: forward on `g`, backward on its reverse (directed graphs only).
struct Runner<'g> {
    g: &'g Graph,
    device: DeviceKind,
    rev: Option<Graph>,
    fwd_eng: Option<Box<dyn Engine>>,
    rev_eng: Option<Box<dyn Engine>>,
    opts: DiameterOptions,
    traversals: u32,
    chosen: Option<String>,
}

impl<'g> Runner<'g> {
    /// With the forward engine `fwd_eng` already open (when the algorithm uses one).
    fn open(
        g: &'g Graph,
        device: DeviceKind,
        opts: &DiameterOptions,
        fwd_eng: Option<Box<dyn Engine>>,
        symmetric: bool,
    ) -> Result<Self> {
        let engine_needed = opts.algo.uses_engine();
        let rev = if symmetric { None } else { Some(g.reverse()) };
        let rev_eng = match (&rev, engine_needed) {
            (Some(r), true) => Some(engine::open(r, device)?),
            _ => None,
        };
        Ok(Runner { g, device, rev, fwd_eng, rev_eng, opts: *opts, traversals: 0, chosen: None })
    }

    fn device(&self) -> String {
        self.fwd_eng.as_ref().map(|e| e.device().to_string()).unwrap_or_else(|| "CPU (serial)".into())
    }

    fn solve(&mut self, backward: bool, src: u32) -> Result<Vec<Dist>> {
        let (g, eng) = if backward {
            (self.rev.as_ref().unwrap_or(self.g), self.rev_eng.as_deref_mut())
        } else {
            (self.g, self.fwd_eng.as_deref_mut())
        };
        let sol = strategy::solve(g, self.opts.algo, eng, src, &self.opts.sssp)?;
        self.traversals += 1;
        if self.chosen.is_none() {
            self.chosen = sol.stats.chosen;
        }
        Ok(sol.dist)
    }

    fn forward(&mut self, src: u32) -> Result<Vec<Dist>> {
        self.solve(false, src)
    }

    /// Backward distances `d(v, src)`, or `None` on a symmetric graph (they equal the forward).
    fn backward(&mut self, src: u32) -> Result<Option<Vec<Dist>>> {
        if self.rev.is_none() {
            return Ok(None);
        }
        self.solve(true, src).map(Some)
    }
}

/// What the bounding found.
struct Bounded {
    diameter: Dist,
    diameter_pair: (u32, u32),
    radius: Option<Dist>,
    radius_pair: Option<(u32, u32)>,
    center: Option<Vec<u32>>,
    periphery: Option<Vec<u32>>,
    eccentricities: u32,
    on_device: bool,
}

/// One eccentricity's worth of bookkeeping, as [`drive`] sees it.
struct StepOut {
    /// The source's eccentricity and its farthest member (ties: smallest id).
    ecc: u64,
    far: u32,
    /// Directed graphs: the largest backward distance `d(v, source)` to a member, and `v`.
    back: Option<(u64, u32)>,
    /// The candidate with the largest upper bound, and the one with the smallest lower bound.
    upper: Option<u32>,
    lower: Option<u32>,
    /// `D_L` after this step, and how many members have an upper bound above it.
    d_lo: u64,
    over: u64,
}

/// Where the bounds live: on the host (any graph, any SSSP algorithm) or on an engine
/// (undirected graphs with an engine strategy; the distances never leave the device).
trait Book {
    /// Compute the eccentricity of `src` (its SSSP runs here), update every bound and pick the
    /// next candidates by `rules`.
    fn step(&mut self, src: u32, rules: u32) -> Result<StepOut>;
    /// The final bounds of the members, in member order.
    fn finals(&mut self) -> Result<(Vec<u64>, Vec<u64>)>;
    /// The members whose upper bound exceeds `d_lo`, with it, ascending.
    fn open_set(&mut self, d_lo: u64) -> Result<Vec<(u32, u64)>>;
    /// The last step's distances from its source to `ids` (undirected graphs).
    fn last_at(&mut self, ids: &[u32]) -> Result<Vec<u64>>;
}

/// Host bookkeeping over downloaded distances, with backward distances on directed graphs.
struct HostBook<'a, 'g> {
    members: &'a [u32],
    run: &'a mut Runner<'g>,
    lb: Vec<u64>,
    ub: Vec<u64>,
    /// The last step's forward distances.
    last: Vec<Dist>,
}

impl Book for HostBook<'_, '_> {
    fn step(&mut self, src: u32, rules: u32) -> Result<StepOut> {
        let f = self.run.forward(src)?;
        let b = self.run.backward(src)?;
        let directed = b.is_some();
        let back = b.as_deref().unwrap_or(&f);
        // ECC: the largest distance to a member (all members are reachable from `src`).
        let (mut ecc, mut far) = (0u64, src);
        let (mut bmax, mut bfar) = (0u64, src);
        for &v in self.members {
            let (fv, bv) = (f[v as usize], back[v as usize]);
            if fv == UNREACHED || bv == UNREACHED {
                return Err(Error::Verification(format!(
                    "component member {v} not reached from {src}: internal fault"
                )));
            }
            if fv as u64 > ecc {
                (ecc, far) = (fv as u64, v);
            }
            if bv as u64 > bmax {
                (bmax, bfar) = (bv as u64, v);
            }
        }
        // UPDATE BOUNDS (the shared rule of the device kernels), then the global bounds.
        let mut g = NO_GLOBALS;
        for (j, &v) in self.members.iter().enumerate() {
            let (l, h) = if v == src {
                (ecc, ecc)
            } else {
                update_bounds(self.lb[j], self.ub[j], f[v as usize] as u64, back[v as usize] as u64, ecc)
            };
            (self.lb[j], self.ub[j]) = (l, h);
            g = widen(g, l, h);
        }
        // UPDATE CANDIDATES and the two picks (ties: smallest id; members ascend).
        // (bound, vertex) of the best pick so far on each side.
        let mut upper: Option<(u64, u32)> = None;
        let mut lower: Option<(u64, u32)> = None;
        let mut over = 0;
        for (j, &v) in self.members.iter().enumerate() {
            let (l, h) = (self.lb[j], self.ub[j]);
            over += (h > g[0]) as u64;
            if candidate(l, h, &g, rules) {
                if upper.is_none_or(|(k, _)| h > k) {
                    upper = Some((h, v));
                }
                if lower.is_none_or(|(k, _)| l < k) {
                    lower = Some((l, v));
                }
            }
        }
        self.last = f;
        Ok(StepOut {
            ecc,
            far,
            back: directed.then_some((bmax, bfar)),
            upper: upper.map(|x| x.1),
            lower: lower.map(|x| x.1),
            d_lo: g[0],
            over,
        })
    }

    fn finals(&mut self) -> Result<(Vec<u64>, Vec<u64>)> {
        Ok((std::mem::take(&mut self.lb), std::mem::take(&mut self.ub)))
    }

    fn open_set(&mut self, d_lo: u64) -> Result<Vec<(u32, u64)>> {
        Ok(self.members.iter().zip(&self.ub).filter(|&(_, &h)| h > d_lo).map(|(&v, &h)| (v, h)).collect())
    }

    fn last_at(&mut self, ids: &[u32]) -> Result<Vec<u64>> {
        Ok(ids.iter().map(|&v| self.last[v as usize] as u64).collect())
    }
}

/// Device bookkeeping: each SSSP runs as the engine's loop (no download) and the bounding
/// passes run on the engine (`passes::Bounds::step`). Undirected graphs only (`b = f`).
struct DeviceBook<'a> {
    g: &'a Graph,
    eng: &'a mut dyn Engine,
    /// The bounds and their passes on the engine's device.
    bounds: Bounds,
    /// The BFS levels' count cells (unit weights with a level kernel), made on first use.
    levels: Option<Levels>,
    spec: LoopSpec,
    /// Level kernels instead of the loop (unit weights only).
    bfs: BfsMode,
    members: &'a [u32],
    traversals: u32,
}

impl DeviceBook<'_> {
    /// The SSSP from `src`, distances left on the device. `Ok(false)`: a candidate overflowed
    /// 32 bits, so the caller redoes the work on the host (which reports a real overflow).
    fn sssp(&mut self, src: u32) -> Result<bool> {
        if self.bfs != BfsMode::Queue {
            self.eng.init(&[src])?;
            // Level by level until a level labels nothing (at most n levels).
            let (n, m) = (self.g.num_vertices() as u64, self.g.num_arcs() as u64);
            let (mut active, mut arcs) = (1u64, self.g.degree(src) as u64);
            // Direction-optimising: the arcs of the vertices labelled so far, and the mode.
            let (mut visited_arcs, mut bottom_up) = (arcs, false);
            for level in 0..=n.min(u32::MAX as u64 - 1) as u32 {
                let top_down = if use_warp(active, arcs, n) { LevelKernel::Warp } else { LevelKernel::Thread };
                let kernel = match self.bfs {
                    BfsMode::Thread => LevelKernel::Thread,
                    BfsMode::Warp => LevelKernel::Warp,
                    BfsMode::Direction => {
                        bottom_up = use_bottom_up(bottom_up, active, arcs, m - visited_arcs.min(m), n);
                        if bottom_up {
                            LevelKernel::BottomUp
                        } else {
                            top_down
                        }
                    }
                    _ => top_down,
                };
                if self.levels.is_none() {
                    self.levels = Some(Levels::new(self.eng)?);
                }
                let levels = self.levels.as_ref().expect("made above");
                (active, arcs) = levels.step(self.eng, level, kernel)?;
                visited_arcs += arcs;
                if active == 0 {
                    self.traversals += 1;
                    return Ok(true);
                }
            }
            return Err(strategy::not_converged(self.eng, self.g.num_vertices() as u32));
        }
        self.traversals += 1;
        loop_run(self.eng, &self.spec, &[src])
    }
}

/// One run of `spec` on `eng` from `seeds` (one per lane of a batch), distances left on the
/// engine. `Ok(false)`: a candidate overflowed 32 bits (see [`OVERFLOWED`]).
fn loop_run(eng: &mut dyn Engine, spec: &LoopSpec, seeds: &[u32]) -> Result<bool> {
    eng.init(seeds)?;
    let st = eng.run_loop(spec, strategy::loop_bound(eng, spec))?;
    if st.state.done == 0 {
        return Err(strategy::not_converged(eng, st.state.iters));
    }
    Ok(eng.counters()?.overflow == 0)
}

/// A 32-bit overflow on the device: [`bound`] falls back to the host (64-bit distances).
const OVERFLOWED: &str = "device distances overflowed 32 bits";

impl Book for DeviceBook<'_> {
    fn step(&mut self, src: u32, rules: u32) -> Result<StepOut> {
        if !self.sssp(src)? {
            return Err(Error::Verification(OVERFLOWED.into()));
        }
        let c = self.bounds.step(self.eng, 0, src, rules)?;
        let e = c[B_ECC];
        Ok(StepOut {
            ecc: e >> 32,
            far: far_vertex(e),
            back: None,
            upper: (c[B_UPPER] != 0).then(|| far_vertex(c[B_UPPER])),
            lower: (c[B_LOWER] != u64::MAX).then_some(c[B_LOWER] as u32),
            d_lo: c[B_DLO],
            over: c[B_OVER],
        })
    }

    fn finals(&mut self) -> Result<(Vec<u64>, Vec<u64>)> {
        let (lb, ub) = self.bounds.read(self.eng)?;
        let wide = |x: &[u32]| self.members.iter().map(|&v| x[v as usize] as u64).collect();
        Ok((wide(&lb), wide(&ub)))
    }

    fn open_set(&mut self, d_lo: u64) -> Result<Vec<(u32, u64)>> {
        // Once per bounding: both bound arrays (INF, no bound, is above any D_L).
        let ub = self.bounds.upper(self.eng)?;
        Ok(self.members.iter().map(|&v| (v, ub[v as usize] as u64)).filter(|&(_, h)| h > d_lo).collect())
    }

    fn last_at(&mut self, ids: &[u32]) -> Result<Vec<u64>> {
        // All n distances (4 bytes each, page-locked), then the few asked for: no gather operator
        // for a list of at most PAIR_LIMIT vertices.
        let d = self.eng.distances()?;
        Ok(ids.iter().map(|&v| d[v as usize] as u64).collect())
    }
}

/// The engine strategy `opts.algo` amounts to on this engine as a loop the device runs itself
/// (Workfront, Near-Far, Bucketing), or `None` (serial references, topology-driven BF).
fn device_spec(g: &Graph, eng: &mut dyn Engine, opts: &DiameterOptions) -> Result<Option<(LoopSpec, Option<String>)>> {
    let (algo, o, why) = if opts.algo == Algo::Auto {
        let c = strategy::auto::choose(g, eng.is_gpu(), &opts.sssp);
        (c.algo, c.opts, Some(c.why))
    } else {
        (opts.algo, opts.sssp, None)
    };
    let buckets = match algo {
        Algo::Workfront => None,
        Algo::NearFar => Some(BucketSpec { delta: o.delta_for(g)?, count: 1, wide_at: o.wide_at }),
        Algo::Bucketing => Some(BucketSpec { delta: o.delta_for(g)?, count: o.buckets, wide_at: o.wide_at }),
        _ => return Ok(None),
    };
    if let Some(b) = &buckets {
        engine::check_buckets(b)?;
    }
    Ok(Some((
        LoopSpec {
            balance: o.balance,
            dedupe: o.dedupe,
            buckets,
            cutoff: NO_CUTOFF,
            target: NO_TARGET,
            hub: o.hub_degree,
            classify: crate::strategy::prepare_classes(g, eng, &o)?.0,
            // Lanes and the level kernels: the grid loop.
            block: false,
        },
        why,
    )))
}

/// [`DiameterOptions::batch`] as the bounding can use it: a lane count (a power of two up to
/// [`engine::MAX_LANES`]) and, above 1, an engine loop strategy to run the lanes. Anything else
/// would be ignored, so it is refused.
fn check_batch(opts: &DiameterOptions) -> Result<()> {
    let k = opts.batch;
    if !k.is_power_of_two() || k > engine::MAX_LANES {
        return Err(Error::InvalidArgument(format!(
            "batch {k}: expected a power of two from 1 to {} eccentricities per pass",
            engine::MAX_LANES
        )));
    }
    let loops = matches!(opts.algo, Algo::Auto | Algo::Workfront | Algo::NearFar | Algo::Bucketing);
    if k > 1 && !loops {
        return Err(Error::InvalidArgument(format!(
            "batches of eccentricities run on workfront, near-far, bucketing or auto; `{}` runs one at a time",
            opts.algo.name()
        )));
    }
    Ok(())
}

/// The bounding loop over the component `members` (ascending vertex ids): on the engine when
/// the graph is symmetric and the algorithm is an engine loop, else on the host.
fn bound(
    g: &Graph,
    members: &[u32],
    run: &mut Runner,
    symmetric: bool,
    opts: &DiameterOptions,
    rules: u32,
) -> Result<Bounded> {
    let n = g.num_vertices();
    // Start from a vertex of highest degree (the paper, after Takes and Kosters); ties: the
    // smallest id.
    let first = members.iter().copied().fold(members[0], |b, v| if g.degree(v) > g.degree(b) { v } else { b });
    // Pair certification: undirected (the pair bound adds d(a, w) and d(w, b)), the diameter
    // alone (the others need every bound to meet).
    let pairs_on = (symmetric && rules == RULE_DIAMETER && opts.pairs).then_some(g);
    if symmetric {
        if let Some(eng) = run.fwd_eng.as_deref_mut() {
            let unit = g.num_arcs() == 0 || g.weight_range() == Some((1, 1));
            let bfs = if unit { opts.bfs } else { BfsMode::Queue };
            let spec = match device_spec(g, eng, opts)? {
                Some((spec, why)) => Some((spec, why)),
                // The level kernels need no strategy: any engine algorithm will do.
                None if bfs != BfsMode::Queue => Some((
                    LoopSpec {
                        balance: opts.sssp.balance,
                        dedupe: opts.sssp.dedupe,
                        buckets: None,
                        cutoff: NO_CUTOFF,
                        target: NO_TARGET,
                        hub: opts.sssp.hub_degree,
                        // The level kernels read the plain targets.
                        classify: false,
                        block: false,
                    },
                    Some(opts.algo.name().to_string()),
                )),
                None => None,
            };
            if let Some((spec, why)) = spec {
                let mut member = crate::mem::try_vec(n, 0u32)?;
                for &v in members {
                    member[v as usize] = 1;
                }
                if opts.batch > 1 {
                    let r = batched(g, run.device, spec, &member, members, first, rules, opts);
                    if !matches!(&r, Err(Error::Verification(m)) if m == OVERFLOWED) {
                        let why = why.unwrap_or_else(|| opts.algo.name().to_string());
                        let (b, traversals) = r?;
                        run.traversals += traversals;
                        run.chosen =
                            Some(format!("{why}; {} eccentricities per pass; bounds on the device", opts.batch));
                        return Ok(b);
                    }
                }
                let bounds = Bounds::new(eng, &member)?;
                let mut book = DeviceBook { g, eng, bounds, levels: None, spec, bfs, members, traversals: 0 };
                match drive(&mut book, members, first, rules, pairs_on) {
                    Err(Error::Verification(m)) if m == OVERFLOWED => {}
                    r => {
                        let r = r.map(|b| Bounded { on_device: true, ..b });
                        run.traversals += book.traversals;
                        let why = why.unwrap_or_else(|| opts.algo.name().to_string());
                        run.chosen = Some(match bfs {
                            BfsMode::Queue => format!("{why}; bounds on the device"),
                            b => format!("unit weights: {b:?} level BFS (not {why}); bounds on the device"),
                        });
                        return r;
                    }
                }
                run.traversals += book.traversals;
            }
        }
    }
    let k = members.len();
    let mut book = HostBook {
        members,
        run,
        lb: crate::mem::try_vec(k, 0u64)?,
        ub: crate::mem::try_vec(k, u64::MAX)?,
        last: Vec::new(),
    };
    drive(&mut book, members, first, rules, pairs_on)
}

/// What the bounding loops learn from the eccentricities they compute: the best realised
/// distances (the diameter's witness, and the smallest eccentricity's) and how many.
struct Tally {
    best: (u64, u32, u32),
    center: Option<(u64, u32, u32)>,
    /// The sources so far: one eccentricity each.
    sources: HashSet<u32>,
    /// Whether pair certification ended the bounding (the upper bounds need not meet).
    by_pairs: bool,
}

impl Tally {
    fn new(first: u32) -> Self {
        Tally { best: (0, first, first), center: None, sources: HashSet::new(), by_pairs: false }
    }

    /// Take in the eccentricity of `u`.
    fn add(&mut self, u: u32, s: &StepOut) -> Result<()> {
        // Each step makes its source exact, and exact vertices are never candidates.
        if !self.sources.insert(u) {
            return Err(Error::Verification("bounding picked a vertex twice: internal fault".into()));
        }
        if s.ecc > self.best.0 {
            self.best = (s.ecc, u, s.far);
        }
        if let Some((b, v)) = s.back {
            if b > self.best.0 {
                self.best = (b, v, u);
            }
        }
        if self.center.is_none_or(|c| s.ecc < c.0) {
            self.center = Some((s.ecc, u, s.far));
        }
        Ok(())
    }
}

/// Algorithm 1's loop: compute an eccentricity, update the bounds, pick the next candidate,
/// alternately the largest upper bound and the smallest lower bound, until none is left. With
/// `pairs_on` (the graph), pair certification takes over once at most [`PAIR_LIMIT`] members
/// have an upper bound above `D_L` ([`pairs`]): its own picks, and the loop ends when no pair
/// can be farther apart than `D_L`.
fn drive(book: &mut dyn Book, members: &[u32], first: u32, rules: u32, pairs_on: Option<&Graph>) -> Result<Bounded> {
    let mut tally = Tally::new(first);
    let mut next = Some(first);
    let mut take_upper = true;
    let mut pairs: Option<Pairs> = None;
    while let Some(u) = next {
        let s = book.step(u, rules)?;
        tally.add(u, &s)?;
        next = if take_upper { s.upper } else { s.lower };
        if let Some(g) = pairs_on {
            if pairs.is_none() && s.over <= PAIR_LIMIT {
                pairs = Some(Pairs::new(g, book.open_set(s.d_lo)?)?);
            }
            if let Some(p) = pairs.as_mut() {
                p.take(s.ecc, s.d_lo, book.last_at(p.vertices())?);
                if p.closed() {
                    tally.by_pairs = true;
                    break;
                }
                let least = tally.center.map_or(0, |c| c.0);
                let cover =
                    if take_upper { None } else { p.cover(g, s.d_lo.saturating_sub(least).max(1), &tally.sources) };
                // The paper's lower pick when the balls outgrow their budget; the upper pick
                // when neither has one.
                next = cover.or(if take_upper { None } else { s.lower }).or_else(|| p.upper(g));
            }
        }
        take_upper = !take_upper;
    }
    let (lb, ub) = book.finals()?;
    conclude(tally, members, &lb, &ub, rules)
}

/// The bounding with [`DiameterOptions::batch`] eccentricities per pass, on an engine of that
/// many lanes opened for it (undirected graphs; `spec` a loop strategy): the first round is the
/// starting vertex alone, every later one the next candidates [`picks`] names. Returns the
/// answers and the SSSP runs.
#[allow(clippy::too_many_arguments)]
fn batched(
    g: &Graph,
    device: DeviceKind,
    mut spec: LoopSpec,
    member: &[u32],
    members: &[u32],
    first: u32,
    rules: u32,
    opts: &DiameterOptions,
) -> Result<(Bounded, u32)> {
    let k = opts.batch;
    let mut eng = engine::open_lanes(g, device, k)?;
    spec.classify = strategy::prepare_classes(g, eng.as_mut(), &opts.sssp)?.0;
    let bounds = Bounds::new(eng.as_ref(), member)?;
    let bits = k.trailing_zeros();
    let (mut tally, mut next, mut traversals) = (Tally::new(first), vec![first], 0u32);
    while !next.is_empty() {
        let seeds: Vec<u32> = next.iter().enumerate().map(|(j, &s)| (s << bits) | j as u32).collect();
        traversals += next.len() as u32;
        if !loop_run(eng.as_mut(), &spec, &seeds)? {
            return Err(Error::Verification(OVERFLOWED.into()));
        }
        for (j, &u) in next.iter().enumerate() {
            let e = bounds.step(eng.as_ref(), j as u32, u, rules)?[B_ECC];
            let s =
                StepOut { ecc: e >> 32, far: far_vertex(e), back: None, upper: None, lower: None, d_lo: 0, over: 0 };
            tally.add(u, &s)?;
        }
        let (lb, ub) = bounds.read(eng.as_ref())?;
        next = picks(&lb, &ub, members, rules, k as usize);
    }
    let (lb, ub) = bounds.read(eng.as_ref())?;
    let wide = |x: &[u32]| members.iter().map(|&v| x[v as usize] as u64).collect::<Vec<_>>();
    let b = conclude(tally, members, &wide(&lb), &wide(&ub), rules)?;
    Ok((Bounded { on_device: true, ..b }, traversals))
}

/// Up to `k` candidates for the next round, by the bounds `lb`, `ub` (per graph vertex, as the
/// device keeps them: `INF` for no upper bound): alternately the one with the largest upper
/// bound and the one with the smallest lower bound not taken yet (ties: the smaller id), the
/// order one-at-a-time bounding would take them in if no eccentricity tightened anything.
fn picks(lb: &[u32], ub: &[u32], members: &[u32], rules: u32, k: usize) -> Vec<u32> {
    let bounds = |v: u32| (lb[v as usize] as u64, ub[v as usize] as u64);
    let g = members.iter().fold(NO_GLOBALS, |g, &v| widen(g, bounds(v).0, bounds(v).1));
    let cands: Vec<u32> = members.iter().copied().filter(|&v| candidate(bounds(v).0, bounds(v).1, &g, rules)).collect();
    // The first `k` of each order suffice (at most `k` picks in all): a selection, then a sort
    // of those, not a sort of every candidate.
    let first_k = |key: &dyn Fn(u32) -> (u64, u32)| {
        let mut c = cands.clone();
        if c.len() > k {
            c.select_nth_unstable_by_key(k - 1, |&v| key(v));
            c.truncate(k);
        }
        c.sort_by_key(|&v| key(v));
        c
    };
    let by_upper = first_k(&|v| (u64::MAX - bounds(v).1, v));
    let by_lower = first_k(&|v| (bounds(v).0, v));
    let mut out: Vec<u32> = Vec::with_capacity(k);
    let (mut up, mut low) = (by_upper.into_iter(), by_lower.into_iter());
    while out.len() < k {
        let u = up.find(|v| !out.contains(v));
        out.extend(u);
        if out.len() == k {
            break;
        }
        let l = low.find(|v| !out.contains(v));
        out.extend(l);
        if u.is_none() && l.is_none() {
            break;
        }
    }
    out
}

/// The answers from the final bounds, checked: the diameter's bounds met at the best realised
/// distance, and the radius's at the smallest eccentricity.
fn conclude(tally: Tally, members: &[u32], lb: &[u64], ub: &[u64], rules: u32) -> Result<Bounded> {
    let eccentricities = tally.sources.len() as u32;
    let Tally { best, center, by_pairs, .. } = tally;
    let d_lo = lb.iter().copied().max().unwrap_or(0);
    // Pair certification leaves upper bounds above D_L: it showed no pair reaches them.
    let d_hi = if by_pairs { d_lo } else { ub.iter().copied().max().unwrap_or(0) };
    if d_lo != d_hi || d_lo != best.0 {
        return Err(Error::Verification(format!(
            "diameter bounds did not meet ({d_lo} < {d_hi}, witness {}): internal fault",
            best.0
        )));
    }
    let c = center.expect("at least one eccentricity was computed");
    let mut out = Bounded {
        diameter: best.0 as Dist,
        diameter_pair: (best.1, best.2),
        radius: None,
        radius_pair: None,
        center: None,
        periphery: None,
        eccentricities,
        on_device: false,
    };
    if rules & (RULE_RADIUS | RULE_CENTER) != 0 {
        let r_lo = lb.iter().copied().min().unwrap_or(0);
        if r_lo != c.0 {
            return Err(Error::Verification(format!("radius bounds did not meet ({r_lo} < {}): internal fault", c.0)));
        }
        out.radius = Some(c.0 as Dist);
        out.radius_pair = Some((c.1, c.2));
    }
    if rules & RULE_CENTER != 0 {
        // Every vertex is decided: `ub == R` (center) or `lb > R` (not).
        out.center = Some((0..members.len()).filter(|&j| ub[j] == c.0).map(|j| members[j]).collect());
    }
    if rules & RULE_PERIPHERY != 0 {
        out.periphery = Some((0..members.len()).filter(|&j| lb[j] == best.0).map(|j| members[j]).collect());
    }
    Ok(out)
}

/// Whether `g` is symmetric as a metric: for every arc `u -> v` of weight `w`, the cheapest arc
/// `v -> u` weighs at most `w` (so the cheapest copies agree both ways and `d(u, v) = d(v, u)`).
/// Self loops are ignored. Equivalently, every vertex's out-neighbours with their cheapest
/// weights are its in-neighbours with theirs: each vertex's out-arcs and in-arcs (from a
/// counting sort) are sorted, and one linear merge per vertex compares them, all in parallel;
/// instead of a binary search per arc (kron 20 on 2 cores: 6.8 s before). 16 bytes per arc of
/// scratch.
pub fn is_symmetric(g: &Graph) -> Result<bool> {
    use rayon::prelude::*;
    let (n, m) = (g.num_vertices(), g.num_arcs());
    let (offs, targets, ws) = (g.offsets(), g.targets(), g.engine_weights());
    // (other end, weight) as one ordered key: the weights' bit patterns order as the weights
    // (u32 integers; non-negative f32s), i32s once their sign bit is flipped.
    let flip = if g.metric() == Metric::Signed { 0x8000_0000 } else { 0 };
    let key = |other: u32, e: usize| (other as u64) << 32 | (ws[e] ^ flip) as u64;
    // Out-arcs, each vertex's sorted by key: the cheapest arc to a head first.
    let mut out = crate::mem::try_vec(m, 0u64)?;
    split_rows(&mut out, offs)?.into_par_iter().enumerate().for_each(|(v, row)| {
        for (slot, e) in row.iter_mut().zip(offs[v] as usize..) {
            *slot = key(targets[e], e);
        }
        row.sort_unstable();
    });
    // In-arcs by a counting sort: counts and positions by atomics, every row then sorted, all
    // in parallel.
    use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
    let mut cells = Vec::new();
    crate::mem::reserve(&mut cells, n + 1)?;
    cells.extend((0..=n).map(|_| AtomicU64::new(0)));
    targets.par_iter().for_each(|&t| {
        cells[t as usize + 1].fetch_add(1, Relaxed);
    });
    let mut in_offs = crate::mem::try_vec(n + 1, 0u64)?;
    for v in 0..n {
        in_offs[v + 1] = in_offs[v] + cells[v + 1].load(Relaxed);
        cells[v].store(in_offs[v], Relaxed);
    }
    let mut inn = crate::mem::try_vec(m, 0u64)?;
    /// The in-arc array, written at distinct positions by many threads.
    struct Slots(*mut u64);
    // SAFETY: each position is claimed by exactly one `fetch_add` below, so no two threads
    // write the same element, and nothing reads the array until the writes are joined.
    unsafe impl Sync for Slots {}
    let slots = Slots(inn.as_mut_ptr());
    (0..n).into_par_iter().for_each(|u| {
        let slots = &slots;
        for e in offs[u] as usize..offs[u + 1] as usize {
            let at = cells[targets[e] as usize].fetch_add(1, Relaxed) as usize;
            // SAFETY: `at` < m (it runs within the row of `targets[e]`) and is this write's own.
            unsafe { *slots.0.add(at) = key(u as u32, e) };
        }
    });
    drop(cells);
    // The (other end, cheapest weight) of each run of a sorted row (its first key is the
    // least), self loops skipped.
    fn runs(row: &[u64], v: u32) -> impl Iterator<Item = u64> + '_ {
        row.chunk_by(|a, b| a >> 32 == b >> 32).map(|r| r[0]).filter(move |&k| (k >> 32) as u32 != v)
    }
    let rows_in = split_rows(&mut inn, &in_offs)?;
    Ok(split_rows(&mut out, offs)?.into_par_iter().zip(rows_in).enumerate().all(|(v, (o, i))| {
        i.sort_unstable();
        runs(o, v as u32).eq(runs(i, v as u32))
    }))
}

/// `data` cut into the rows of a CSR's `offsets`.
fn split_rows<'a>(data: &'a mut [u64], offsets: &[u64]) -> Result<Vec<&'a mut [u64]>> {
    let mut rows = Vec::new();
    crate::mem::reserve(&mut rows, offsets.len().saturating_sub(1))?;
    let mut rest = data;
    for w in offsets.windows(2) {
        let (a, b) = rest.split_at_mut((w[1] - w[0]) as usize);
        rows.push(a);
        rest = b;
    }
    Ok(rows)
}

/// Strongly connected components (on a symmetric graph: the connected components).
#[derive(Clone, Debug)]
pub struct Components {
    /// Component id of each vertex.
    pub id: Vec<u32>,
    /// Number of components.
    pub count: usize,
    /// Vertices per component.
    pub sizes: Vec<u32>,
}

impl Components {
    /// The largest component (ties: the one holding the smallest vertex id): its vertices,
    /// ascending.
    pub fn largest_members(&self) -> Vec<u32> {
        let mut best: Option<u32> = None;
        // Scanning vertices in order meets each component first at its smallest vertex, so a
        // strict `>` keeps the earliest among equals.
        for &c in &self.id {
            if best.is_none_or(|b| self.sizes[c as usize] > self.sizes[b as usize]) {
                best = Some(c);
            }
        }
        let Some(b) = best else { return Vec::new() };
        (0..self.id.len() as u32).filter(|&v| self.id[v as usize] == b).collect()
    }
}

/// The connected components of a symmetric graph (where they are its strongly connected
/// ones), in parallel: a lock-free union-find over the arcs (each link hangs the larger root
/// under the smaller by compare-and-swap, finds halve their paths), so every component's root
/// is its smallest vertex; then ids in order of the roots. The same components as
/// [`strongly_connected`] gives a symmetric graph, for a fraction of its serial time.
pub fn connected(g: &Graph) -> Result<Components> {
    use rayon::prelude::*;
    use std::sync::atomic::{AtomicU32, Ordering::Relaxed};
    let n = g.num_vertices();
    let mut parent = Vec::new();
    crate::mem::reserve(&mut parent, n)?;
    parent.extend((0..n as u32).map(AtomicU32::new));
    let find = |mut x: u32| loop {
        let p = parent[x as usize].load(Relaxed);
        if p == x {
            return x;
        }
        let gp = parent[p as usize].load(Relaxed);
        // Path halving; a lost race only leaves a longer path, never a wrong one.
        let _ = parent[x as usize].compare_exchange(p, gp, Relaxed, Relaxed);
        x = gp;
    };
    (0..n as u32).into_par_iter().for_each(|u| {
        // Every arc has its reverse (the graph is symmetric): one of each pair is enough.
        for &v in g.targets()[g.arc_range(u)].iter().filter(|&&v| v > u) {
            let (mut a, mut b) = (find(u), find(v));
            while a != b {
                let (lo, hi) = (a.min(b), a.max(b));
                // Hang `hi` under `lo` if `hi` is still a root; else retry from the new roots.
                match parent[hi as usize].compare_exchange(hi, lo, Relaxed, Relaxed) {
                    Ok(_) => break,
                    Err(_) => (a, b) = (find(hi), find(lo)),
                }
            }
        }
    });
    let mut root = crate::mem::try_vec(n, 0u32)?;
    root.par_iter_mut().enumerate().for_each(|(v, r)| *r = find(v as u32));
    // Roots are their components' smallest vertices: numbering them in vertex order meets
    // each component at its smallest vertex first, as Tarjan's numbering does not but
    // `largest_members` needs only for ties (which it breaks by the smallest vertex).
    let mut id = root;
    let mut sizes: Vec<u32> = Vec::new();
    for v in 0..n {
        let r = id[v] as usize;
        let c = if r == v {
            sizes.push(0);
            sizes.len() as u32 - 1
        } else {
            id[r]
        };
        id[v] = c;
        sizes[c as usize] += 1;
    }
    Ok(Components { id, count: sizes.len(), sizes })
}

/// Tarjan's strongly connected components, iterative (an explicit stack: graphs have millions
/// of vertices, far past what recursion survives). O(n + m).
pub fn strongly_connected(g: &Graph) -> Result<Components> {
    const NONE: u32 = u32::MAX;
    let n = g.num_vertices();
    let offs = g.offsets();
    let targets = g.targets();
    let mut index = crate::mem::try_vec(n, NONE)?;
    let mut low = crate::mem::try_vec(n, 0u32)?;
    let mut on_stack = crate::mem::try_vec(n, false)?;
    let mut id = crate::mem::try_vec(n, NONE)?;
    let mut stack: Vec<u32> = Vec::new();
    // (vertex, next arc to look at)
    let mut calls: Vec<(u32, u64)> = Vec::new();
    let mut counter = 0u32;
    let mut sizes: Vec<u32> = Vec::new();
    for s in 0..n as u32 {
        if index[s as usize] != NONE {
            continue;
        }
        index[s as usize] = counter;
        low[s as usize] = counter;
        counter += 1;
        stack.push(s);
        on_stack[s as usize] = true;
        calls.push((s, offs[s as usize]));
        while let Some(top) = calls.last_mut() {
            let v = top.0;
            if top.1 < offs[v as usize + 1] {
                let w = targets[top.1 as usize];
                top.1 += 1;
                if index[w as usize] == NONE {
                    index[w as usize] = counter;
                    low[w as usize] = counter;
                    counter += 1;
                    stack.push(w);
                    on_stack[w as usize] = true;
                    calls.push((w, offs[w as usize]));
                } else if on_stack[w as usize] {
                    low[v as usize] = low[v as usize].min(index[w as usize]);
                }
                continue;
            }
            calls.pop();
            if let Some(&(p, _)) = calls.last() {
                low[p as usize] = low[p as usize].min(low[v as usize]);
            }
            if low[v as usize] == index[v as usize] {
                let c = sizes.len() as u32;
                let mut size = 0;
                loop {
                    let w = stack.pop().expect("v is on the stack");
                    on_stack[w as usize] = false;
                    id[w as usize] = c;
                    size += 1;
                    if w == v {
                        break;
                    }
                }
                sizes.push(size);
            }
        }
    }
    Ok(Components { id, count: sizes.len(), sizes })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn undirected(n: u32, edges: &[(u32, u32, i64)]) -> Graph {
        let arcs: Vec<_> = edges.iter().flat_map(|&(u, v, w)| [(u, v, w), (v, u, w)]).collect();
        Graph::from_arcs(n, &arcs).unwrap()
    }

    #[test]
    fn scc_of_a_long_path_needs_no_recursion() {
        let n = 200_000u32;
        let arcs: Vec<_> = (0..n - 1).map(|v| (v, v + 1, 1)).collect();
        let c = strongly_connected(&Graph::from_arcs(n, &arcs).unwrap()).unwrap();
        assert_eq!(c.count, n as usize);
        let mut cyc = arcs.clone();
        cyc.push((n - 1, 0, 1));
        let c = strongly_connected(&Graph::from_arcs(n, &cyc).unwrap()).unwrap();
        assert_eq!(c.count, 1);
    }

    #[test]
    fn connected_components_match_tarjan_on_symmetric_graphs() {
        let mut r = crate::rng::Rng::new(5);
        for _ in 0..500 {
            let n = 1 + r.below(40) as u32;
            let edges: Vec<_> =
                (0..r.below(50)).map(|_| (r.below(n as u64) as u32, r.below(n as u64) as u32, 1)).collect();
            let g = undirected(n, &edges);
            let (a, b) = (connected(&g).unwrap(), strongly_connected(&g).unwrap());
            assert_eq!((a.count, a.largest_members()), (b.count, b.largest_members()), "{edges:?}");
            // The same partition: equal ids in one exactly where equal in the other.
            for u in 0..n as usize {
                for v in 0..n as usize {
                    assert_eq!(a.id[u] == a.id[v], b.id[u] == b.id[v], "{edges:?}");
                }
            }
            let mut sizes = a.sizes.clone();
            sizes.sort_unstable();
            let mut want = b.sizes.clone();
            want.sort_unstable();
            assert_eq!(sizes, want);
        }
        // A long path (no recursion, long chains of links) and a kron graph.
        let n = 200_000u32;
        let path = undirected(n, &(0..n - 1).map(|v| (v, v + 1, 1)).collect::<Vec<_>>());
        assert_eq!(connected(&path).unwrap().count, 1);
        let kron = crate::generate::generate(
            &crate::generate::GenSpec::parse("kron:12").unwrap(),
            2,
            crate::WeightSpec::AsGiven,
        )
        .unwrap();
        let (a, b) = (connected(&kron).unwrap(), strongly_connected(&kron).unwrap());
        assert_eq!((a.count, a.largest_members()), (b.count, b.largest_members()));
    }

    #[test]
    fn symmetry_uses_the_cheapest_copy() {
        assert!(is_symmetric(&undirected(3, &[(0, 1, 2), (1, 2, 0)])).unwrap());
        assert!(!is_symmetric(&Graph::from_arcs(2, &[(0, 1, 1)]).unwrap()).unwrap());
        // 0 -> 1 costs 1 (cheapest of 1 and 5), 1 -> 0 costs 1.
        assert!(is_symmetric(&Graph::from_arcs(2, &[(0, 1, 5), (0, 1, 1), (1, 0, 1), (0, 0, 3)]).unwrap()).unwrap());
        assert!(!is_symmetric(&Graph::from_arcs(2, &[(0, 1, 1), (1, 0, 2)]).unwrap()).unwrap());
    }

    /// The definition, by brute force: every arc `u -> v` (u != v) has a way back no heavier.
    fn symmetric_by_definition(g: &Graph) -> bool {
        (0..g.num_vertices() as u32).all(|u| {
            g.neighbors(u).all(|(v, w)| v == u || g.neighbors(v).filter(|&(x, _)| x == u).any(|(_, b)| b <= w))
        })
    }

    #[test]
    fn symmetry_agrees_with_its_definition() {
        // Random small multigraphs, made symmetric, then some spoiled by one arc: self loops,
        // parallel arcs, negative weights (signed), heavier copies one way.
        let mut r = crate::rng::Rng::new(11);
        let (mut yes, mut no) = (0, 0);
        for t in 0..2000 {
            let n = 1 + r.below(7) as u32;
            let mut arcs = vec![];
            for _ in 0..r.below(12) {
                let (u, v) = (r.below(n as u64) as u32, r.below(n as u64) as u32);
                let w = r.below(4) as i64 - if t % 3 == 0 { 2 } else { 0 };
                arcs.push((u, v, w));
                arcs.push((v, u, w));
                if r.below(4) == 0 {
                    arcs.push((u, v, w + r.below(3) as i64));
                }
            }
            match r.below(3) {
                0 => arcs.push((r.below(n as u64) as u32, r.below(n as u64) as u32, r.below(5) as i64)),
                1 if !arcs.is_empty() => {
                    let i = r.below(arcs.len() as u64) as usize;
                    arcs[i].2 -= 1;
                }
                _ => {}
            }
            let g = Graph::from_arcs(n, &arcs).unwrap();
            let want = symmetric_by_definition(&g);
            assert_eq!(is_symmetric(&g).unwrap(), want, "{arcs:?}");
            if want {
                yes += 1;
            } else {
                no += 1;
            }
        }
        assert!(yes > 300 && no > 300, "{yes} symmetric, {no} not");
    }
}
