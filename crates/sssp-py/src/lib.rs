//! `sssp._native`: the Rust half of the Python package (the Python half, `python/sssp/`, holds
//! scipy's signatures and semantics and the NetworkX backend, and is the only caller).
//!
//! One class, [`Native`]: a graph built from CSR arrays, held with a [`Solver`] on its device for
//! any number of queries. Arrays cross the boundary by address (`ndarray.ctypes.data`): the stable
//! ABI (abi3, one wheel for CPython 3.9+) has no buffer protocol before 3.11, and an address
//! costs no copy. The Python layer passes only C-contiguous arrays of the dtype each argument
//! names (int64 offsets, int32 or int64 heads, float64 weights and outputs, int32
//! predecessors), of the length it names, alive for the call; every value in them is checked
//! here.
//!
//! # Weights: exact float64 answers
//!
//! scipy computes in float64; `sssp`'s engines take `u32`, `i32` and `f32` weights. The class
//! picks per graph ([`Kind`]), so that every answer equals scipy's to the bit:
//! - integral weights in `u32`'s range (road graphs, unit weights): `Graph<u32>`, distances in
//!   `u64`, exact, converted to float64 exactly below 2^53 (a distance past the engines' 32-bit
//!   range is computed again on the host in float64, as scipy does);
//! - integral weights in `i32`'s range with negative ones: `Graph<i32>` (Bellman-Ford class);
//! - other non-negative weights: the engine runs in `f32`, and its tree is then *repaired* on
//!   the host in float64 ([`repair`]): the tree's float64 path lengths are achievable upper
//!   bounds, and a label-correcting pass from every arc that still improves a bound reaches the
//!   least fixpoint of `d[v] = min(d[u] + w)` in float64 rounding, which is exactly what scipy's
//!   Dijkstra computes (proof at [`repair`]). Where the f32 tree is already optimal in float64
//!   (almost always) the repair is one scan of the arcs;
//! - anything else (negative non-integral weights, integers past `i32`/`u32`): serial
//!   float64 label-correcting on the host ([`host`]).

use std::cell::OnceCell;
use std::mem::ManuallyDrop;
use std::ptr::NonNull;

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyIndexError, PyMemoryError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use rayon::prelude::*;
use sssp::graph::NO_VERTEX;
use sssp::{Device, Error, Graph, Paths, Solver, Weight};

mod host;

use host::{Arcs, Csr64};

create_exception!(
    _native,
    NegativeCycle,
    PyException,
    "A negative cycle reachable from a source; args: (message, cycle)."
);

/// scipy's predecessor of a source or of a vertex not reached.
const NO_PRED: i32 = -9999;

/// Sources solved per call of the library (each holds `n` distances).
const CHUNK: usize = 64;

/// Construction phases on standard error when `SSSP_PY_TIMINGS` is set: where a slow
/// conversion goes (a diagnostic; the benchmark reports the total).
struct Phases(Option<std::time::Instant>);

impl Phases {
    fn start() -> Phases {
        Phases(std::env::var_os("SSSP_PY_TIMINGS").map(|_| std::time::Instant::now()))
    }
    /// `x`, marked done.
    fn after<T>(&self, what: &str, x: T) -> T {
        self.mark(what);
        x
    }

    fn mark(&self, what: &str) {
        if let Some(t) = self.0 {
            eprintln!("sssp: {what} at {:.1} ms", t.elapsed().as_secs_f64() * 1e3);
        }
    }
}

/// A library error as the Python exception a scipy or NetworkX user expects.
fn py_err(e: Error) -> PyErr {
    match e {
        Error::NegativeCycle { ref cycle, .. } => {
            let msg = format!("Negative cycle detected on node {}", cycle.first().copied().unwrap_or(0));
            NegativeCycle::new_err((msg, cycle.clone()))
        }
        Error::VertexOutOfRange { .. } => PyIndexError::new_err(e.to_string()),
        Error::OutOfHostMemory { .. } | Error::OutOfDeviceMemory { .. } => PyMemoryError::new_err(e.to_string()),
        Error::InvalidArgument(_) | Error::InvalidWeight { .. } | Error::NegativeWeight { .. } => {
            PyValueError::new_err(e.to_string())
        }
        _ => PyRuntimeError::new_err(e.to_string()),
    }
}

/// A typed graph and the solver that borrows it, in one value: the graph is boxed so that its
/// address outlives the solver, which is dropped first.
struct Held<W: Weight> {
    solver: ManuallyDrop<Solver<'static, W>>,
    graph: NonNull<Graph<W>>,
}

impl<W: Weight> Held<W> {
    fn new(graph: Graph<W>, device: Device) -> Result<Self, Error> {
        let graph = NonNull::from(Box::leak(Box::new(graph)));
        // SAFETY: the box is freed only in `drop`, after the solver that borrows it.
        let solver = Solver::new(unsafe { graph.as_ref() }, device);
        match solver {
            Ok(s) => Ok(Held { solver: ManuallyDrop::new(s), graph }),
            Err(e) => {
                // SAFETY: nothing borrows the graph any more.
                drop(unsafe { Box::from_raw(graph.as_ptr()) });
                Err(e)
            }
        }
    }
}

impl<W: Weight> Drop for Held<W> {
    fn drop(&mut self) {
        // SAFETY: the solver goes first; then nothing borrows the graph.
        unsafe {
            ManuallyDrop::drop(&mut self.solver);
            drop(Box::from_raw(self.graph.as_ptr()));
        }
    }
}

/// How a graph's float64 weights are solved (module docs, "Weights"), with the graph in the
/// form each needs.
enum Kind {
    /// Integral, in `0..=u32::MAX`.
    Unsigned(Held<u32>),
    /// Integral, in `i32`'s range, some negative.
    Signed(Held<i32>),
    /// Non-negative, not all integral: the engine in `f32`, repaired on the host in float64 (the
    /// float64 graph kept beside it, the arcs in the same order).
    Real(Held<f32>, Csr64),
    /// The host in float64 only.
    Host(Csr64),
}

/// A graph on its device, for any number of queries (the Python class `sssp.Graph` wraps it).
#[pyclass(unsendable, module = "sssp._native")]
struct Native {
    kind: Kind,
    /// The float64 graph of an integer kind, built from the typed graph on first need (the
    /// rare host runs: distances past the engines' 32 bits, nearest-source runs on negative
    /// weights), so that the common case holds one copy of the arcs.
    lazy: OnceCell<Csr64>,
    n: usize,
    arcs: usize,
    negative: bool,
    /// The solver holds a contraction hierarchy ([`Native::prepare_hierarchy`]): `path` runs on it.
    hierarchy: bool,
}

/// A slice of `len` values of type `T` at the address `addr` (module docs: the caller's
/// promise).
///
/// # Safety
/// `addr` is the address of `len` initialised values of `T`, alive and not written for `'a`.
unsafe fn view<'a, T>(addr: usize, len: usize) -> &'a [T] {
    if len == 0 {
        return &[];
    }
    unsafe { std::slice::from_raw_parts(addr as *const T, len) }
}

/// # Safety
/// As [`view`], and nothing else reads or writes the values for `'a`.
unsafe fn view_mut<'a, T>(addr: usize, len: usize) -> &'a mut [T] {
    if len == 0 {
        return &mut [];
    }
    unsafe { std::slice::from_raw_parts_mut(addr as *mut T, len) }
}

fn device_of(name: &str) -> PyResult<Device> {
    match name {
        "auto" => Ok(Device::Auto),
        "gpu" | "cuda" => Ok(Device::Gpu),
        "cpu" => Ok(Device::Cpu),
        _ => Err(PyValueError::new_err(format!("device {name:?}: expected 'auto', 'cpu' or 'gpu'"))),
    }
}

/// Where a query writes: `rows` rows of `n` distances, and predecessors and nearest sources when
/// asked for.
struct Out<'a> {
    dist: &'a mut [f64],
    pred: Option<&'a mut [i32]>,
    src: Option<&'a mut [i32]>,
}

impl Native {
    fn n(&self) -> usize {
        self.n
    }

    /// A query's `k` sources (int32 at `sources`, checked) and where its `rows` rows of answers
    /// go: `outs` are the addresses of the distances (float64), predecessors and nearest
    /// sources (int32; 0: not asked for).
    ///
    /// # Safety
    /// As [`view`] and [`view_mut`] for each address with its length.
    unsafe fn io<'a>(&self, sources: usize, k: usize, rows: usize, outs: [usize; 3]) -> PyResult<(Vec<u32>, Out<'a>)> {
        let n = self.n();
        let srcs = to_vertices(unsafe { view::<i32>(sources, k) }, n)?;
        let cells = rows.checked_mul(n).ok_or_else(|| PyMemoryError::new_err("too many distances"))?;
        let [dist, pred, src] = outs;
        let out = Out {
            dist: unsafe { view_mut(dist, cells) },
            pred: (pred != 0).then(|| unsafe { view_mut(pred, cells) }),
            src: (src != 0).then(|| unsafe { view_mut(src, cells) }),
        };
        Ok((srcs, out))
    }

    /// [`Native::run`] with the interpreter released, so that other Python threads run while
    /// the device works.
    fn run_detached(
        &mut self,
        py: Python<'_>,
        sources: &[u32],
        limit: f64,
        nearest: bool,
        out: &mut Out<'_>,
    ) -> PyResult<()> {
        /// The run's borrows, declared `Send` for `detach`: the closure runs on this thread
        /// (`detach` only releases the interpreter around it), the class is `unsendable` (no
        /// other thread reaches `self`), and the run touches no Python object (its errors are
        /// built lazily).
        struct OnThisThread<T>(T);
        unsafe impl<T> Send for OnThisThread<T> {}
        let job = OnThisThread((self, sources, out));
        py.detach(move || {
            let job = job;
            let (native, sources, out) = job.0;
            native.run(sources, limit, nearest, out)
        })
    }

    /// Shortest paths from each of `sources` (rows of `out`), or from their set (`nearest`: one
    /// row).
    fn run(&mut self, sources: &[u32], limit: f64, nearest: bool, out: &mut Out<'_>) -> PyResult<()> {
        let Native { kind, lazy, n, negative, .. } = self;
        let n = *n;
        // Nearest-source runs on the engines take non-negative weights only.
        let engine = !(nearest && *negative);
        match kind {
            Kind::Unsigned(h) if engine => {
                let cut = cutoff_int(limit).map(|c| c.max(0) as u64);
                let mut row = 0;
                let mut overflow = false;
                for group in groups(sources, nearest) {
                    match solve_group(h, group, nearest, cut) {
                        Ok(paths) => row += write_all(&paths, row, n, limit, out)?,
                        // Past the engines' 32-bit sums: float64 on the host, as scipy, for every row.
                        Err(Error::DistanceOverflow { .. }) => {
                            overflow = true;
                            break;
                        }
                        Err(e) => return Err(py_err(e)),
                    }
                }
                if !overflow {
                    return Ok(());
                }
            }
            Kind::Signed(h) if engine => {
                let mut row = 0;
                for group in groups(sources, nearest) {
                    let paths = solve_group(h, group, nearest, cutoff_int(limit)).map_err(py_err)?;
                    row += write_all(&paths, row, n, limit, out)?;
                }
                return Ok(());
            }
            Kind::Real(h, csr) => {
                // The engine in f32, cut just above `limit`; the repair finds what it missed.
                // A limit past f32's range cuts nothing: every f32 distance is below it.
                let cut = Some(limit).filter(|&l| l <= f32::MAX as f64).map(next_up_f32).filter(|c| c.is_finite());
                let mut row = 0;
                for group in groups(sources, nearest) {
                    let paths = solve_group(h, group, nearest, cut).map_err(py_err)?;
                    let sets: Vec<&[u32]> = if nearest { vec![group] } else { group.chunks(1).collect() };
                    for (p, set) in paths.iter().zip(sets) {
                        let (d, parents) = host::repair(csr, set, p.raw_parents().map_err(py_err)?, limit);
                        write_host(&d, &parents, row, out);
                        row += 1;
                    }
                }
                return Ok(());
            }
            _ => {}
        }
        let csr = kind.float64(lazy);
        let sets: Vec<&[u32]> = if nearest { vec![sources] } else { sources.chunks(1).collect() };
        for (row, set) in sets.iter().enumerate() {
            let (d, parents) = host::solve(csr, set, limit).map_err(py_err)?;
            write_host(&d, &parents, row, out);
        }
        Ok(())
    }
}

/// Typed results into the rows of `out` from `first` on, cut at `limit`; how many rows.
fn write_all<W: Weight>(all: &[Paths<'_, W>], first: usize, n: usize, limit: f64, out: &mut Out<'_>) -> PyResult<usize>
where
    W::Distance: AsF64,
{
    for (row, paths) in (first..).zip(all) {
        let cells = row * n..(row + 1) * n;
        let dist = &mut out.dist[cells.clone()];
        for (slot, d) in dist.iter_mut().zip(paths.distances()) {
            *slot = match d.map(AsF64::as_f64) {
                Some(d) if d <= limit => d,
                _ => f64::INFINITY,
            };
        }
        if let Some(pred) = out.pred.as_deref_mut() {
            let parents = paths.raw_parents().map_err(py_err)?;
            for ((slot, &p), &d) in pred[cells.clone()].iter_mut().zip(parents).zip(&*dist) {
                *slot = if p == NO_VERTEX || d.is_infinite() { NO_PRED } else { p as i32 };
            }
        }
        if let Some(src) = out.src.as_deref_mut() {
            for (v, slot) in src[cells].iter_mut().enumerate() {
                *slot = match paths.nearest_source(v as u32) {
                    Some(s) if dist[v].is_finite() => s as i32,
                    _ => NO_PRED,
                };
            }
        }
    }
    Ok(all.len())
}

/// A float64 answer (distances, parents) into row `row` of `out`.
fn write_host(d: &[f64], parents: &[u32], row: usize, out: &mut Out<'_>) {
    let n = d.len();
    let cells = row * n..(row + 1) * n;
    out.dist[cells.clone()].copy_from_slice(d);
    if let Some(pred) = out.pred.as_deref_mut() {
        for (slot, &p) in pred[cells.clone()].iter_mut().zip(parents) {
            *slot = if p == NO_VERTEX { NO_PRED } else { p as i32 };
        }
    }
    if let Some(src) = out.src.as_deref_mut() {
        for (slot, &r) in src[cells].iter_mut().zip(&host::roots(parents, d)) {
            *slot = if r == NO_VERTEX { NO_PRED } else { r as i32 };
        }
    }
}

/// `limit` as an integer cutoff (`None`: none): distances are integers, so `d <= limit` is
/// `d <= floor(limit)`.
fn cutoff_int(limit: f64) -> Option<i64> {
    (limit < 9.0e18).then(|| limit.floor() as i64)
}

/// The least `f32` at or above `x`.
fn next_up_f32(x: f64) -> f32 {
    let f = x as f32;
    if (f as f64) >= x {
        f
    } else {
        f.next_up()
    }
}

/// A typed distance as float64 (exact below 2^53: distances past it are beyond scipy's exact
/// range too).
trait AsF64: Copy {
    fn as_f64(self) -> f64;
}
impl AsF64 for u64 {
    fn as_f64(self) -> f64 {
        self as f64
    }
}
impl AsF64 for i64 {
    fn as_f64(self) -> f64 {
        self as f64
    }
}
impl AsF64 for f32 {
    fn as_f64(self) -> f64 {
        self as f64
    }
}

/// A query's groups of sources, each one library call: `CHUNK` sources at a time (so that
/// at most `CHUNK` results are held before they are written out), or (`nearest`) the set once.
fn groups(sources: &[u32], nearest: bool) -> Vec<&[u32]> {
    if nearest {
        vec![sources]
    } else {
        sources.chunks(CHUNK).collect()
    }
}

/// One group's typed solves: each source alone, or (`nearest`) one run from the set, cut at
/// `cut`.
fn solve_group<W: Weight>(
    h: &mut Held<W>,
    group: &[u32],
    nearest: bool,
    cut: Option<W::Distance>,
) -> Result<Vec<Paths<'static, W>>, Error> {
    // Lanes pay on even-degree graphs on a GPU (NY: 2.3 ms a source in lanes of 32 against
    // 10.9 alone); on skewed ones (kron) they cost a third more than one at a time.
    let lanes = h.solver.is_gpu() && group.len() >= 8 && !sssp::strategy::auto::is_skewed(h.solver.graph().raw());
    let q = match cut {
        Some(c) => h.solver.query().cutoff(c),
        None => h.solver.query(),
    };
    if nearest {
        return Ok(vec![q.nearest(group)?]);
    }
    q.batch(if lanes { 32 } else { 1 }).shortest_paths_many(group)
}

#[pymethods]
impl Native {
    /// The graph of `n` vertices from CSR arrays by address: `indptr` (`n + 1` int64), `indices`
    /// (`nnz` int32, or int64 when `wide`), `data` (`nnz` float64; 0: every weight 1). NaN and
    /// infinite weights drop their arc (scipy's convention); `directed=False` adds each arc's
    /// reverse.
    #[new]
    ///
    /// `one_query`: the graph answers one query (scipy's drop-in calls), so that on one CPU
    /// thread a non-negative graph is solved by the float64 host Dijkstra without building the
    /// engine's graph at all ([`serial_host`]).
    #[pyo3(signature = (n, indptr, indices, nnz, wide, data, directed, device, one_query=false))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        n: usize,
        indptr: usize,
        indices: usize,
        nnz: usize,
        wide: bool,
        data: usize,
        directed: bool,
        device: &str,
        one_query: bool,
    ) -> PyResult<Self> {
        if n as u64 >= sssp::graph::MAX_VERTICES {
            return Err(PyValueError::new_err(format!(
                "{n} vertices: at most {} are supported",
                sssp::graph::MAX_VERTICES - 1
            )));
        }
        let device = device_of(device)?;
        let phases = Phases::start();
        // SAFETY: the caller's promise (module docs).
        let (indptr, weights) = unsafe { (view::<i64>(indptr, n + 1), (data != 0).then(|| view::<f64>(data, nnz))) };
        let heads: Vec<u32> = if wide {
            heads_of(unsafe { view::<i64>(indices, nnz) }, n)?
        } else {
            heads_of(unsafe { view::<i32>(indices, nnz) }, n)?
        };
        phases.mark("heads checked");
        let arcs = host::arcs(indptr, heads, weights, directed).map_err(PyValueError::new_err)?;
        phases.mark("arcs");
        let m = arcs.heads.len();
        // The host's float64 Dijkstra needs only to know that no weight is negative.
        if one_query && serial_host(device) && !arcs.w.iter().any(|&x| x < 0.0) {
            let kind = Kind::Host(Csr64::from_arcs(arcs, false));
            phases.mark("host graph ready");
            return Ok(Native { kind, lazy: OnceCell::new(), n, arcs: m, negative: false, hierarchy: false });
        }
        let range = WeightRange::of(&arcs.w);
        phases.mark("weights classified");
        let negative = range.lo < 0.0;
        let kind = Kind::pick(arcs, range, device, &phases).map_err(py_err)?;
        phases.mark("solver ready");
        Ok(Native { kind, lazy: OnceCell::new(), n, arcs: m, negative, hierarchy: false })
    }

    #[getter]
    fn num_vertices(&self) -> usize {
        self.n()
    }

    #[getter]
    fn num_arcs(&self) -> usize {
        self.arcs
    }

    /// How the weights are solved: "u32", "i32", "f32+f64" or "f64" (module docs).
    #[getter]
    fn kind(&self) -> &'static str {
        match self.kind {
            Kind::Unsigned(_) => "u32",
            Kind::Signed(_) => "i32",
            Kind::Real(..) => "f32+f64",
            Kind::Host(_) => "f64",
        }
    }

    /// "gpu" or "cpu".
    #[getter]
    fn device(&self) -> &'static str {
        let gpu = match &self.kind {
            Kind::Unsigned(h) => h.solver.is_gpu(),
            Kind::Signed(h) => h.solver.is_gpu(),
            Kind::Real(h, _) => h.solver.is_gpu(),
            Kind::Host(_) => false,
        };
        if gpu {
            "gpu"
        } else {
            "cpu"
        }
    }

    /// The device's name, and why the CPU runs when the GPU was asked for by "auto".
    #[getter]
    fn device_name(&self) -> String {
        let (name, why) = match &self.kind {
            Kind::Unsigned(h) => (h.solver.device_name(), h.solver.fallback().map(str::to_owned)),
            Kind::Signed(h) => (h.solver.device_name(), h.solver.fallback().map(str::to_owned)),
            Kind::Real(h, _) => (h.solver.device_name(), h.solver.fallback().map(str::to_owned)),
            Kind::Host(_) => ("host (float64)".to_owned(), None),
        };
        match why {
            Some(w) => format!("{name} ({w})"),
            None => name,
        }
    }

    #[getter]
    fn has_negative_weights(&self) -> bool {
        self.negative
    }

    /// Distances from each of `k` sources (int32 at `sources`) into `k` rows of `n` float64 at
    /// `dist`, and predecessors (int32) at `pred` unless 0.
    #[pyo3(signature = (sources, k, limit, dist, pred))]
    fn solve(
        &mut self,
        py: Python<'_>,
        sources: usize,
        k: usize,
        limit: f64,
        dist: usize,
        pred: usize,
    ) -> PyResult<()> {
        // SAFETY: the caller's promise (module docs).
        let (srcs, mut out) = unsafe { self.io(sources, k, k, [dist, pred, 0])? };
        self.run_detached(py, &srcs, limit, false, &mut out)
    }

    /// Distances from the nearest of `k` sources into `n` float64 at `dist`, predecessors and
    /// nearest sources (int32) at `pred` and `src` unless 0.
    #[pyo3(signature = (sources, k, limit, dist, pred, src))]
    #[allow(clippy::too_many_arguments)]
    fn nearest(
        &mut self,
        py: Python<'_>,
        sources: usize,
        k: usize,
        limit: f64,
        dist: usize,
        pred: usize,
        src: usize,
    ) -> PyResult<()> {
        // SAFETY: the caller's promise (module docs).
        let (srcs, mut out) = unsafe { self.io(sources, k, 1, [dist, pred, src])? };
        if srcs.is_empty() {
            return Err(PyValueError::new_err("nearest needs at least one source"));
        }
        self.run_detached(py, &srcs, limit, true, &mut out)
    }

    /// Up to `k` shortest simple paths from `source` to `sink` (Yen: `sssp::kpaths`), shortest
    /// first: their float64 lengths and their vertices. Integer weights exactly in the solver's
    /// graph, real ones in float64; both on the host (`sssp::kpaths` says why).
    fn yen(&mut self, source: u32, sink: u32, k: usize) -> PyResult<(Vec<f64>, Vec<Vec<u32>>)> {
        let found: Vec<(f64, Vec<u32>)> = match &mut self.kind {
            Kind::Unsigned(h) => {
                let got = h.solver.k_shortest_paths(source, sink, k).map_err(py_err)?;
                got.into_iter().map(|(d, p)| (d as f64, p)).collect()
            }
            Kind::Signed(h) => {
                let got = h.solver.k_shortest_paths(source, sink, k).map_err(py_err)?;
                got.into_iter().map(|(d, p)| (d as f64, p)).collect()
            }
            Kind::Real(_, c) | Kind::Host(c) => c.k_shortest(source, sink, k).map_err(py_err)?,
        };
        Ok(found.into_iter().unzip())
    }

    /// Give the graph a contraction hierarchy (integer weights only): read from `path` when
    /// the file exists (else built and written there), or built in memory. Returns whether it
    /// was read.
    #[pyo3(signature = (path=None))]
    fn prepare_hierarchy(&mut self, path: Option<std::path::PathBuf>) -> PyResult<bool> {
        let Kind::Unsigned(h) = &mut self.kind else {
            return Err(PyValueError::new_err(
                "a contraction hierarchy needs non-negative integer weights (this graph's are not)",
            ));
        };
        let solver = &mut *h.solver;
        let read = (|| -> Result<bool, Error> {
            match path {
                Some(p) => {
                    let (hier, read) = sssp::strategy::phast::hierarchy_file(solver.graph().raw(), &p)?;
                    solver.set_hierarchy(hier)?;
                    Ok(read)
                }
                None => solver.prepare_hierarchy().map(|_| false),
            }
        })();
        let read = read.map_err(py_err)?;
        self.hierarchy = true;
        Ok(read)
    }

    /// Whether the graph holds a contraction hierarchy.
    #[getter]
    fn has_hierarchy(&self) -> bool {
        self.hierarchy
    }

    /// A shortest path from `source` to `target` on the hierarchy (`None`: no path).
    fn route(&mut self, source: u32, target: u32) -> PyResult<Option<(f64, Vec<u32>)>> {
        let Kind::Unsigned(h) = &mut self.kind else {
            return Err(PyValueError::new_err("routing on a hierarchy needs non-negative integer weights"));
        };
        let found = h.solver.route(source, target).map_err(py_err)?;
        Ok(found.map(|(d, p)| (d as f64, p)))
    }

    /// The distance table from `k` sources (int32 at `sources`) to `m` targets (int32 at
    /// `targets`) into `k x m` float64 at `out` (`inf`: no path), integer weights only
    /// (`Solver::table`: on the hierarchy when the graph holds one).
    fn table(&mut self, sources: usize, k: usize, targets: usize, m: usize, out: usize) -> PyResult<()> {
        let Kind::Unsigned(h) = &mut self.kind else {
            return Err(PyValueError::new_err("the native table takes non-negative integer weights"));
        };
        let n = self.n;
        // SAFETY: the caller's promise (module docs).
        let (s, t) = unsafe { (view::<i32>(sources, k), view::<i32>(targets, m)) };
        let (s, t) = (to_vertices(s, n)?, to_vertices(t, n)?);
        // SAFETY: as above, `k * m` float64 the caller owns.
        let out = unsafe { view_mut::<f64>(out, k * m) };
        let solver = &mut *h.solver;
        let table = solver.table(&s, &t).map_err(py_err)?;
        for (o, &d) in out.iter_mut().zip(table.raw().cells()) {
            *o = if d == sssp::UNREACHED { f64::INFINITY } else { d as f64 };
        }
        Ok(())
    }

    /// The exact diameter and radius of the whole graph (`inf` when it is not strongly
    /// connected), on integer weights; `None` for real weights (the Python layer then takes the
    /// eccentricities one by one).
    fn extremes(&self) -> PyResult<Option<(f64, f64)>> {
        use sssp::diameter::{diameter, DiameterOptions, Scope};
        let (raw, device) = match &self.kind {
            Kind::Unsigned(h) => (h.solver.graph().raw(), if h.solver.is_gpu() { Device::Gpu } else { Device::Cpu }),
            _ => return Ok(None),
        };
        let opts = DiameterOptions { scope: Scope::Whole, radius: true, ..DiameterOptions::default() };
        let x = diameter(raw, device, &opts).map_err(py_err)?;
        let num = |d: i64| if d == sssp::UNREACHED { f64::INFINITY } else { d as f64 };
        Ok(Some((num(x.diameter), x.radius.map_or(f64::INFINITY, num))))
    }
}

/// Whether a query on `device` runs on one CPU thread: then the float64 host Dijkstra
/// (`host::solve`, a binary heap) beats the engines, which are built for many threads or a
/// GPU and pay for the typed graph, the solver and (for predecessors) a certified tree on top
/// of the run (with predecessors, a certified tree; with real weights, the f32 engine and its
/// float64 repair): on NY with one thread, 3 sources with predecessors went from 2.1 times
/// scipy's time to 0.9, real weights from 7 times to 1.0 (docs/performance.md, "Python").
/// Whether `Auto` finds a GPU is asked once per process.
fn serial_host(device: Device) -> bool {
    static GPU: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    if rayon::current_num_threads() > 1 {
        return false;
    }
    match device {
        Device::Cpu => true,
        Device::Gpu => false,
        _ => !*GPU.get_or_init(|| {
            let probe = Graph::from_csr(vec![0, 0], Vec::new(), Vec::<u32>::new());
            probe.and_then(|g| Solver::new(&g, Device::Auto).map(|s| s.is_gpu())).unwrap_or(false)
        }),
    }
}

/// Column indices as vertex ids: checked in one parallel pass, then converted without a
/// fallible step (a collect of `Result`s is several times slower: kron 22's 134M heads took
/// 0.5 s that way on 16 cores).
fn heads_of<T: Copy + Into<i64> + Send + Sync>(h: &[T], n: usize) -> PyResult<Vec<u32>> {
    let bad = |&x: &T| !(0..n as i64).contains(&x.into());
    let first_bad =
        if host::parallel(h.len()) { h.par_iter().find_first(|x| bad(x)) } else { h.iter().find(|x| bad(x)) };
    if let Some(&x) = first_bad {
        let x: i64 = x.into();
        return Err(PyValueError::new_err(format!("column index {x} is out of range for {n} vertices")));
    }
    if host::parallel(h.len()) {
        Ok(h.par_iter().map(|&x| x.into() as u32).collect())
    } else {
        Ok(h.iter().map(|&x| x.into() as u32).collect())
    }
}

/// Sources as vertex ids, checked.
fn to_vertices(s: &[i32], n: usize) -> PyResult<Vec<u32>> {
    s.iter()
        .map(|&x| {
            u32::try_from(x)
                .ok()
                .filter(|&v| (v as usize) < n)
                .ok_or_else(|| PyValueError::new_err(format!("indices out of range 0...N: {x} (N = {n})")))
        })
        .collect()
}

/// What one pass over the float64 weights tells: whether all are integers, and their range
/// (with 0: an empty graph classifies as non-negative integers).
#[derive(Clone, Copy)]
struct WeightRange {
    integral: bool,
    lo: f64,
    hi: f64,
}

impl WeightRange {
    fn of(w: &[f64]) -> WeightRange {
        // Integral: past 2^52 every float64 is; below, a round trip through i64 (one
        // conversion instruction each way, where `fract` is a libm call: 3 times slower).
        let integral = |x: f64| x.abs() >= 4_503_599_627_370_496.0 || (x as i64) as f64 == x;
        let step = |(i, lo, hi): (bool, f64, f64), &x: &f64| (i && integral(x), lo.min(x), hi.max(x));
        let (integral, lo, hi) = if host::parallel(w.len()) {
            w.par_iter()
                .fold(|| (true, 0.0f64, 0.0f64), step)
                .reduce(|| (true, 0.0, 0.0), |a, b| (a.0 && b.0, a.1.min(b.1), a.2.max(b.2)))
        } else {
            w.iter().fold((true, 0.0, 0.0), step)
        };
        WeightRange { integral, lo, hi }
    }
}

impl Kind {
    /// The weight class of `arcs` (module docs) and its solver on `device`; integer kinds take
    /// the arrays over (the float64 weights, borrowed or dropped, never copied), real ones keep
    /// the float64 graph beside a copy in `f32`.
    fn pick(arcs: Arcs<'_>, range: WeightRange, device: Device, phases: &Phases) -> Result<Kind, Error> {
        let WeightRange { integral, lo, hi } = range;
        let w = &arcs.w;
        if integral && lo >= 0.0 && hi <= u32::MAX as f64 {
            let w = w.par_iter().map(|&x| x as u32).collect();
            let g = phases.after("typed graph", Graph::from_csr(arcs.offsets, arcs.heads, w))?;
            return Ok(Kind::Unsigned(Held::new(g, device)?));
        }
        if integral && lo >= i32::MIN as f64 && hi <= i32::MAX as f64 {
            let w = w.par_iter().map(|&x| x as i32).collect();
            let g = phases.after("typed graph", Graph::from_csr(arcs.offsets, arcs.heads, w))?;
            return Ok(Kind::Signed(Held::new(g, device)?));
        }
        if lo >= 0.0 && hi <= f32::MAX as f64 {
            let w32 = w.par_iter().map(|&x| x as f32).collect();
            let g = phases.after("typed graph", Graph::from_csr(arcs.offsets.clone(), arcs.heads.clone(), w32))?;
            return Ok(Kind::Real(Held::new(g, device)?, Csr64::from_arcs(arcs, false)));
        }
        Ok(Kind::Host(Csr64::from_arcs(arcs, lo < 0.0)))
    }

    /// The graph in float64: the kept one, or (integer kinds) built from the typed graph once.
    fn float64<'a>(&'a self, lazy: &'a OnceCell<Csr64>) -> &'a Csr64 {
        match self {
            Kind::Real(_, c) | Kind::Host(c) => c,
            Kind::Unsigned(h) => lazy.get_or_init(|| Csr64::from_raw(h.solver.graph().raw())),
            Kind::Signed(h) => lazy.get_or_init(|| Csr64::from_raw(h.solver.graph().raw())),
        }
    }
}

/// A graph file read by the library's loaders (every format and compression the CLI reads,
/// `-` and other streams included), held until the Python layer copies its arrays out.
#[pyclass(unsendable, module = "sssp._native")]
struct Loaded {
    graph: sssp::graph::Graph,
}

/// The graph in the file at `path`, in `format` (None: told from the name, as the CLI does).
#[pyfunction]
#[pyo3(signature = (path, format=None))]
fn read(py: Python<'_>, path: std::path::PathBuf, format: Option<&str>) -> PyResult<Loaded> {
    let format = format.map(sssp::io::Format::parse).transpose().map_err(py_err)?;
    let opts = sssp::io::LoadOptions { format, ..sssp::io::LoadOptions::default() };
    let graph = py.detach(|| sssp::io::read_graph(&path, &opts));
    match graph {
        Ok(graph) => Ok(Loaded { graph }),
        Err(Error::Io { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => {
            Err(pyo3::exceptions::PyFileNotFoundError::new_err(format!("{}: no such file", path.display())))
        }
        Err(e @ Error::Io { .. }) => Err(pyo3::exceptions::PyOSError::new_err(e.to_string())),
        // The library's message names the command line's `--format`; here it is an argument.
        Err(Error::UnknownFormat { path }) => Err(PyValueError::new_err(format!(
            "{}: cannot tell the graph format from the file name; pass format= (gr, mtx, el, wel, snap, metis, bin, sg, wsg)",
            path.display()
        ))),
        Err(e @ (Error::Parse { .. } | Error::TooLarge { .. })) => {
            Err(PyValueError::new_err(e.to_string()))
        }
        Err(e) => Err(py_err(e)),
    }
}

#[pymethods]
impl Loaded {
    #[getter]
    fn num_vertices(&self) -> usize {
        self.graph.num_vertices()
    }

    #[getter]
    fn num_arcs(&self) -> usize {
        self.graph.num_arcs()
    }

    /// The arrays into memory the caller owns: `n + 1` int64 offsets at `indptr`, `m` heads
    /// at `indices` (int64 when `wide`, else int32: the caller picks int64 for more than
    /// `i32::MAX` vertices) and `m` float64 weights at `data` (every engine weight, `u32`,
    /// `i32` or `f32`, is exact in float64).
    fn fill(&self, indptr: usize, indices: usize, wide: bool, data: usize) -> PyResult<()> {
        use sssp::graph::Weights;
        let g = &self.graph;
        let (n, m) = (g.num_vertices(), g.num_arcs());
        if !wide && n > i32::MAX as usize {
            return Err(PyValueError::new_err(format!("{n} vertices need int64 column indices")));
        }
        // SAFETY: the caller's promise (module docs), with these lengths.
        let (o, w) = unsafe { (view_mut::<i64>(indptr, n + 1), view_mut::<f64>(data, m)) };
        o.par_iter_mut().zip(g.offsets()).for_each(|(o, &x)| *o = x as i64);
        if wide {
            let h = unsafe { view_mut::<i64>(indices, m) };
            h.par_iter_mut().zip(g.targets()).for_each(|(h, &x)| *h = x as i64);
        } else {
            let h = unsafe { view_mut::<i32>(indices, m) };
            h.par_iter_mut().zip(g.targets()).for_each(|(h, &x)| *h = x as i32);
        }
        match g.weights() {
            Weights::Unsigned(x) => w.par_iter_mut().zip(&x[..]).for_each(|(w, &x)| *w = x as f64),
            Weights::Signed(x) => w.par_iter_mut().zip(&x[..]).for_each(|(w, &x)| *w = x as f64),
            Weights::Real(x) => w.par_iter_mut().zip(&x[..]).for_each(|(w, &x)| *w = f32::from_bits(x) as f64),
        }
        Ok(())
    }
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Native>()?;
    m.add_class::<Loaded>()?;
    m.add_function(wrap_pyfunction!(read, m)?)?;
    m.add("NegativeCycle", m.py().get_type::<NegativeCycle>())?;
    m.add("NO_PRED", NO_PRED)?;
    Ok(())
}
