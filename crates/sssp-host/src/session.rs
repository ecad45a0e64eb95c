//! The untyped core of [`crate::Solver`]: one graph of any weight type, the engines its runs
//! need (opened when first needed, then kept), and runs that return the engine-level
//! [`Solution`] with its statistics.
//!
//! [`crate::Solver`] wraps a session with typed weights and results; the `sssp` command runs
//! on a session directly (it reads graphs whose weight type is known only once the file is
//! read, and reports statistics, traces and certificates that typed results do not carry). So
//! both decide the device, open engines, give them a contraction hierarchy and pick lanes the
//! same way, here.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::engine::{self, DeviceKind, Engine};
use crate::error::{Error, Result};
use crate::graph::Graph;
use crate::hierarchy::Hierarchy;
use crate::route::table::{check_ids, check_size, distinct, expand, DistTable};
use crate::route::{rphast, Router};
use crate::strategy::{self, auto, Algo, Options, Solution};

/// A graph's device state: which device runs it, the one-lane engine and a batched one, each
/// opened on first need and kept.
///
/// ```
/// use sssp::generate::{generate, GenSpec};
/// use sssp::session::Session;
/// use sssp::strategy::{Algo, Options};
/// let g = generate(&GenSpec::parse("grid2d:8x8")?, 1, sssp::WeightSpec::Unit)?;
/// let mut s = Session::new(&g, sssp::Device::Cpu)?;
/// let sol = s.solve(Algo::NearFar, 0, &Options::default())?;
/// assert_eq!(sol.dist[63], 14);
/// # Ok::<(), sssp::Error>(())
/// ```
pub struct Session<'g> {
    graph: &'g Graph,
    /// `Gpu` or `Cpu`: what [`Session::new`] decided.
    kind: DeviceKind,
    fallback: Option<String>,
    engine: Option<Box<dyn Engine>>,
    lanes: Option<Box<dyn Engine>>,
    /// PHAST's hierarchy, given to every engine this session opens.
    hierarchy: Option<Arc<Hierarchy>>,
    /// Where the one-lane engine's hierarchy builds report ([`Session::report_hierarchy_builds`]).
    build_progress: Option<strategy::phast::Progress>,
    /// The hierarchy made ready for point-to-point queries and tables, once.
    router: Option<Arc<Router>>,
    opened: Option<Opened>,
}

/// How [`Session::table`] computes a distance table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableMethod {
    /// With a hierarchy, RPHAST on a GPU and the buckets on the CPU; without, one solve per
    /// source.
    Auto,
    /// The many-to-many bucket algorithm on the host's threads ([`Router::table`]).
    Buckets,
    /// RPHAST on the session's device ([`rphast::table`]).
    Rphast,
    /// One solve per source (batched on lanes where asked), the target columns kept.
    Sssp,
}

impl TableMethod {
    /// `auto`, `buckets`, `rphast` or `sssp`.
    pub fn parse(s: &str) -> Result<Self> {
        match s {
            "auto" => Ok(TableMethod::Auto),
            "buckets" => Ok(TableMethod::Buckets),
            "rphast" => Ok(TableMethod::Rphast),
            "sssp" => Ok(TableMethod::Sssp),
            _ => Err(Error::InvalidArgument(format!("table method `{s}`: expected auto, buckets, rphast or sssp"))),
        }
    }

    /// Its name, as [`TableMethod::parse`] reads it.
    pub fn name(self) -> &'static str {
        match self {
            TableMethod::Auto => "auto",
            TableMethod::Buckets => "buckets",
            TableMethod::Rphast => "rphast",
            TableMethod::Sssp => "sssp",
        }
    }
}

/// What opening an engine took ([`Session::open_for`]), for a caller that reports it.
#[derive(Clone, Debug)]
pub struct Opened {
    /// The device, in words.
    pub device: String,
    /// Lanes of the engine (1: the one-lane engine).
    pub lanes: u32,
    /// Set-up besides the graph's upload (a GPU context, kernels, working buffers).
    pub setup: Duration,
    /// The graph's upload.
    pub upload: Duration,
    /// The hierarchy's upload, when one was given.
    pub hierarchy_upload: Option<Duration>,
}

impl<'g> Session<'g> {
    /// A session for `graph` on `device`: `Gpu` is an error without a usable GPU; `Auto` is the
    /// GPU when one is usable, else the CPU backend ([`Session::fallback`] says why). Nothing
    /// is opened yet.
    ///
    /// Errors: [`Error::NoGpu`] for `Gpu` without a usable GPU.
    pub fn new(graph: &'g Graph, device: DeviceKind) -> Result<Self> {
        let (kind, fallback) = match (device, engine::gpu_usable(device)) {
            (DeviceKind::Cpu, _) => (DeviceKind::Cpu, None),
            (_, Ok(())) => (DeviceKind::Gpu, None),
            (DeviceKind::Gpu, Err(why)) => return Err(Error::NoGpu(why)),
            (DeviceKind::Auto, Err(why)) => (DeviceKind::Cpu, Some(why)),
        };
        Ok(Session {
            graph,
            kind,
            fallback,
            engine: None,
            lanes: None,
            hierarchy: None,
            build_progress: None,
            router: None,
            opened: None,
        })
    }

    /// The graph.
    pub fn graph(&self) -> &'g Graph {
        self.graph
    }

    /// Whether the runs go to a GPU.
    pub fn is_gpu(&self) -> bool {
        self.kind == DeviceKind::Gpu
    }

    /// Why `Auto` runs on the CPU, if it does.
    pub fn fallback(&self) -> Option<&str> {
        self.fallback.as_deref()
    }

    /// The device, in words: the open engine's, else the CPU backend's threads or "GPU".
    pub fn device_name(&self) -> String {
        match (&self.engine, self.kind) {
            (Some(e), _) => e.device().to_string(),
            (None, DeviceKind::Gpu) => "GPU".into(),
            (None, _) => format!("CPU ({} threads)", rayon::current_num_threads()),
        }
    }

    /// What the last engine opened took, once ([`Opened`]); `None` when nothing was opened
    /// since the last call.
    pub fn take_opened(&mut self) -> Option<Opened> {
        self.opened.take()
    }

    /// Give PHAST's contraction hierarchy to the engines: the open one now (its sweep graph
    /// uploaded then, not in the first solve), the ones opened later when they open.
    pub fn set_hierarchy(&mut self, h: Arc<Hierarchy>) -> Result<Option<Duration>> {
        self.hierarchy = Some(h.clone());
        match self.engine.as_deref_mut() {
            Some(e) => strategy::phast::attach(e, h).map(Some),
            None => Ok(None),
        }
    }

    /// Have the hierarchy builds of PHAST's engine, open now or later, tell `progress` how far
    /// they have come ([`strategy::phast::report_builds`]).
    pub fn report_hierarchy_builds(&mut self, progress: strategy::phast::Progress) {
        if let Some(e) = self.engine.as_deref_mut() {
            strategy::phast::report_builds(e, progress.clone());
        }
        self.build_progress = Some(progress);
    }

    /// Build the graph's contraction hierarchy (or find the one held) on the one-lane engine,
    /// opening it. Returns whether this call built it.
    pub fn prepare_hierarchy(&mut self) -> Result<bool> {
        let g = self.graph;
        Ok(strategy::phast::hierarchy(g, self.engine()?)?.1)
    }

    /// The one-lane engine if it is open (nothing is opened).
    pub fn open_engine(&mut self) -> Option<&mut (dyn Engine + 'static)> {
        self.engine.as_deref_mut()
    }

    /// The one-lane engine, opened now if it was not.
    pub fn engine(&mut self) -> Result<&mut (dyn Engine + 'static)> {
        if self.engine.is_none() {
            let e = self.open(1)?;
            self.engine = Some(e);
        }
        Ok(self.engine.as_deref_mut().expect("opened above"))
    }

    /// Open the engine a run of `algo` with `opts` on `lanes` lanes needs (none for the serial
    /// algorithms, and none for `auto` where it picks one: road graphs on the CPU), now rather
    /// than in the run; [`Session::take_opened`] then says what it took.
    pub fn open_for(&mut self, algo: Algo, opts: &Options, lanes: u32) -> Result<()> {
        if lanes > 1 {
            self.lanes_engine(lanes).map(drop)
        } else {
            self.engine_for(algo, opts).map(drop)
        }
    }

    /// The engine a run of `algo` with `opts` needs: the open one, or one opened now when the
    /// algorithm (what `auto` would pick) runs on an engine, else none.
    pub fn engine_for(&mut self, algo: Algo, opts: &Options) -> Result<Option<&mut (dyn Engine + 'static)>> {
        let needs = match algo {
            _ if self.engine.is_some() => true,
            // On a GPU `auto` runs on it; on the CPU the algorithm it picks decides (the CPU
            // engine's buffers are sized by the graph and would go unused by a serial run).
            Algo::Auto => {
                self.is_gpu()
                    || self.hierarchy.as_ref().is_some_and(|h| auto::phast_choice(self.graph, h, 1, opts).is_some())
                    || auto::choose(self.graph, false, opts).algo.uses_engine()
            }
            a => a.uses_engine(),
        };
        if needs {
            // An engine algorithm on negative weights is refused by name before anything opens.
            if algo != Algo::Auto {
                strategy::check_metric(self.graph, algo, &Options::default())?;
            }
            self.engine().map(Some)
        } else {
            Ok(None)
        }
    }

    /// An engine of `lanes` lanes, kept for later batches of as many (another count replaces
    /// it).
    pub fn lanes_engine(&mut self, lanes: u32) -> Result<&mut (dyn Engine + 'static)> {
        if self.lanes.as_deref().is_none_or(|e| e.lanes() != lanes) {
            self.lanes = None; // free the old one first
            let e = self.open(lanes)?;
            self.lanes = Some(e);
        }
        Ok(self.lanes.as_deref_mut().expect("opened above"))
    }

    /// Open an engine of `lanes` lanes on the session's device, with the hierarchy.
    fn open(&mut self, lanes: u32) -> Result<Box<dyn Engine>> {
        let t = Instant::now();
        let mut e = if lanes > 1 {
            engine::open_lanes(self.graph, self.kind, lanes)?
        } else {
            match engine::open_explained(self.graph, self.kind)? {
                (e, None) => e,
                (e, Some(why)) => {
                    self.fallback = Some(why);
                    e
                }
            }
        };
        self.kind = if e.is_gpu() { DeviceKind::Gpu } else { DeviceKind::Cpu };
        let opened = t.elapsed();
        if let (Some(p), 1) = (&self.build_progress, lanes) {
            strategy::phast::report_builds(e.as_mut(), p.clone());
        }
        let hierarchy_upload = match (&self.hierarchy, lanes) {
            (Some(h), 1) => Some(strategy::phast::attach(e.as_mut(), h.clone())?),
            _ => None,
        };
        let upload = e.upload_time();
        self.opened = Some(Opened {
            device: e.device().to_string(),
            lanes,
            setup: opened.saturating_sub(upload),
            upload,
            hierarchy_upload,
        });
        Ok(e)
    }

    /// Solve from `source` with `algo` ([`strategy::solve`]) on the engine it needs.
    pub fn solve(&mut self, algo: Algo, source: u32, opts: &Options) -> Result<Solution> {
        let g = self.graph;
        let eng = self.engine_for(algo, opts)?;
        strategy::solve(g, algo, eng, source, opts)
    }

    /// Solve from each of `sources` in turn, `lanes` at a time on a batched engine when
    /// `lanes > 1` ([`strategy::solve_each`]), handing each result to `each`.
    pub fn solve_each(
        &mut self,
        algo: Algo,
        sources: &[u32],
        opts: &Options,
        lanes: u32,
        each: impl FnMut(u32, Solution) -> Result<()>,
    ) -> Result<()> {
        let g = self.graph;
        let eng = if lanes > 1 { Some(self.lanes_engine(lanes)?) } else { self.engine_for(algo, opts)? };
        strategy::solve_each(g, algo, eng, sources, opts, each)
    }

    /// One run with every one of `sources` at distance 0 ([`strategy::solve_nearest`]).
    pub fn solve_nearest(&mut self, algo: Algo, sources: &[u32], opts: &Options) -> Result<Solution> {
        let g = self.graph;
        let eng = match algo {
            // `auto` picks as for one source; serial Dijkstra takes a set of sources too.
            Algo::Auto | Algo::Dijkstra => self.engine_for(algo, opts)?,
            _ => Some(self.engine()?),
        };
        strategy::solve_nearest(g, algo, eng, sources, opts)
    }

    /// The contraction hierarchy: the one given ([`Session::set_hierarchy`]), else the one the
    /// one-lane engine holds (built by [`Session::prepare_hierarchy`] or a PHAST solve).
    pub fn hierarchy(&mut self) -> Option<Arc<Hierarchy>> {
        if let Some(h) = &self.hierarchy {
            return Some(h.clone());
        }
        match self.engine.as_mut() {
            Some(e) => strategy::phast::held(e.as_mut()),
            None => None,
        }
    }

    /// The hierarchy made ready for point-to-point queries and tables ([`Router`]), once; a
    /// hierarchy is built first when the session has none (seconds on a road graph of a
    /// million vertices). Errors as [`Hierarchy::build`].
    pub fn router(&mut self) -> Result<Arc<Router>> {
        let h = match self.hierarchy() {
            Some(h) => h,
            None => {
                let h = Arc::new(Hierarchy::build(self.graph)?);
                self.set_hierarchy(h.clone())?;
                h
            }
        };
        match &self.router {
            Some(r) if Arc::ptr_eq(r.hierarchy(), &h) => Ok(r.clone()),
            _ => {
                let r = Arc::new(Router::new(h)?);
                self.router = Some(r.clone());
                Ok(r)
            }
        }
    }

    /// A shortest path from `s` to `t` and its length by the hierarchy's bidirectional search
    /// ([`Router::route`]), on the host, `None` when there is none.
    pub fn route(&mut self, s: u32, t: u32) -> Result<Option<(u64, Vec<u32>)>> {
        let g = self.graph;
        self.router()?.route(g, s, t)
    }

    /// The distance table from `sources` to `targets` (rows, columns; repeats kept) by
    /// `method` ([`TableMethod::Auto`] picks as its doc says), and the method that ran.
    /// `algo`, `opts` and `lanes` are the solves' for [`TableMethod::Sssp`]; `lanes` is also
    /// RPHAST's sources per sweep. Errors: [`Error::VertexOutOfRange`],
    /// [`Error::OutOfHostMemory`] for a table this process cannot hold (its bytes, before it is
    /// allocated), the hierarchy's and the solves' errors.
    pub fn table(
        &mut self,
        sources: &[u32],
        targets: &[u32],
        method: TableMethod,
        (algo, opts, lanes): (Algo, &Options, u32),
    ) -> Result<(DistTable, TableMethod)> {
        let n = self.graph.num_vertices() as u32;
        check_ids(sources, n)?;
        check_ids(targets, n)?;
        check_size(sources.len(), targets.len())?;
        let method = match method {
            TableMethod::Auto if self.hierarchy().is_none() => TableMethod::Sssp,
            TableMethod::Auto if self.is_gpu() => TableMethod::Rphast,
            TableMethod::Auto => TableMethod::Buckets,
            m => m,
        };
        let table = match method {
            TableMethod::Buckets => self.router()?.table(sources, targets)?,
            TableMethod::Rphast => {
                let r = self.router()?;
                rphast::table(self.engine()?.device(), &r, sources, targets, lanes)?
            }
            _ => self.table_by_solves(sources, targets, algo, opts, lanes)?,
        };
        Ok((table, method))
    }

    /// [`TableMethod::Sssp`]: a solve from each distinct source, its target columns kept.
    fn table_by_solves(
        &mut self,
        sources: &[u32],
        targets: &[u32],
        algo: Algo,
        opts: &Options,
        lanes: u32,
    ) -> Result<DistTable> {
        let (us, rows) = distinct(sources);
        let mut small = DistTable::new(us.len(), targets.len())?;
        let cols = targets.len();
        let mut i = 0;
        let cells = small.cells_mut();
        self.solve_each(algo, &us, opts, lanes, |_, sol| {
            for (o, &t) in cells[i * cols..][..cols].iter_mut().zip(targets) {
                *o = sol.dist[t as usize];
            }
            i += 1;
            Ok(())
        })?;
        expand(small, &rows, &(0..cols as u32).collect::<Vec<_>>())
    }
}
