//! PHAST (Delling, Goldberg, Nowatzyk and Werneck, IPDPS 2011): exact shortest-path trees
//! from a contraction hierarchy, for road networks and meshes where every frontier strategy is
//! bound by the depth of the trees ([`crate::hierarchy`] says why and how).
//!
//! A solve is two operators: the upward search on the host ([`Hierarchy::upward`], a few
//! hundred vertices on a road graph) and the downward sweep on the engine's device
//! (`DeviceSweep`, a problem object the engine keeps: the core's distances from its table,
//! then the levels). The hierarchy is prepared once per engine ([`hierarchy`]: the engine that
//! holds the graph keeps it, so the caller who owns the engine owns it) and its time is
//! reported apart ([`Stats::prepare`]), like the graph's upload: it pays off over many sources
//! (NY: after about 1,150, road 4M after about 2,250, against the best frontier configuration;
//! docs/performance.md, "PHAST"), or is read from a file ([`hierarchy_file`], then [`attach`]).
//!
//! The engine's device is made ready for the sweep when the engine is given the hierarchy
//! ([`attach`], which [`hierarchy`] calls when it builds one), not by the first solve: on a GPU
//! the hierarchy's arrays are copied in and room is made for a query's seeds there, and
//! `attach` returns the time, which callers report apart like the graph's upload (the CLI's
//! `device:` line; [`Stats::hierarchy_upload`] for a solve that had to do it itself, with a
//! hierarchy the engine was not given). When the first sweep did it, a process's
//! first solve took 3.6 ms on NY and 13.9 ms on `gen:road:1500000` on the H100, against
//! 1.7 and 3.0 ms for the later ones; with the copy made by `attach` (2 ms and 9-15 ms there)
//! and the kernels' functions looked up when the engine opens (`device::cuda`), the first
//! solve costs what the others do (docs/results/h100-2026-11-25-phast-cold).
//!
//! Integer weights only (see [`crate::hierarchy`]); cutoff and target queries are answered by
//! clipping the full tree (the sweep has no early exit); the shortest-path tree is built on
//! the host from the distances.

use std::sync::Arc;
use std::time::{Duration, Instant};

use sssp_kernels::entry::{Sweep, SweepBlock, SweepCore};
use sssp_kernels::sweep::{self, SweepArgs, SWEEP_BLOCK_THREADS};

use super::{finish, Options, Solution, Stats};
use crate::device::{Buffer, Device, GpuOnly};
use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::graph::Graph;
use crate::hierarchy::{BuildProgress, Hierarchy, HierarchyParams, SweepGraph};
use crate::UNREACHED;

/// Solve from `source` by PHAST on `eng` (which holds `g`).
pub fn phast(g: &Graph, eng: &mut dyn Engine, source: u32, _opts: &Options) -> Result<Solution> {
    crate::reference::check_source(g, source)?;
    crate::engine::one_lane(eng.lanes(), "phast")?;
    let (h, attached) = held_or_built(g, eng)?;
    let mut sol = solve_with(g, eng, &h, source)?;
    if let Some(upload) = attached {
        sol.stats.prepare = h.stats.build;
        sol.stats.hierarchy_upload = upload;
    }
    Ok(sol)
}

/// The contraction hierarchy an engine holding `g` keeps for PHAST (a prepared object in its
/// extras, [`crate::engine::Extras`]; given with [`attach`] or built here on first use, then
/// attached and kept: seconds on a road graph of a million vertices, so call this before timing
/// queries), and whether this call built it. Errors as [`Hierarchy::build`] and [`attach`].
pub fn hierarchy(g: &Graph, eng: &mut dyn Engine) -> Result<(Arc<Hierarchy>, bool)> {
    held_or_built(g, eng).map(|(h, attached)| (h, attached.is_some()))
}

/// [`hierarchy`], with the time [`attach`] took when this call built and attached it.
fn held_or_built(g: &Graph, eng: &mut dyn Engine) -> Result<(Arc<Hierarchy>, Option<Duration>)> {
    if let Some(h) = held(eng) {
        return Ok((h, None));
    }
    let report = eng.extras().get::<Reporter>().map(|r| r.0.clone());
    let h = Arc::new(match report {
        Some(p) => Hierarchy::build_reporting(g, HierarchyParams::default(), &*p)?,
        None => Hierarchy::build(g)?,
    });
    let upload = attach(eng, h.clone())?;
    Ok((h, Some(upload)))
}

/// A receiver of a hierarchy build's progress ([`Hierarchy::build_reporting`]).
pub type Progress = Arc<dyn Fn(BuildProgress) + Send + Sync>;

/// Where an engine's hierarchy builds report their progress ([`report_builds`]).
struct Reporter(Progress);

/// Have the hierarchy builds this engine does for PHAST ([`hierarchy`], or a first solve)
/// tell `progress` how far they have come, so that a caller can show the seconds a build of
/// a large graph takes (the command line draws a bar on a terminal).
pub fn report_builds(eng: &mut dyn Engine, progress: Progress) {
    eng.extras().put(Reporter(progress));
}

/// Give the engine `h`, a hierarchy of the graph it holds (read from a file, or built by the
/// caller), for its PHAST solves and `auto`'s choice ([`crate::strategy::auto::phast_fits`]),
/// and make its device ready for the sweep now: on a GPU, the hierarchy's downward graph, level
/// order, core and core table copied in and room made for a query's seeds (the CPU reads the
/// hierarchy in place). Returns how long that took, for the caller to report apart from the
/// solves, like the graph's upload ([`crate::engine::Resident::upload`]): a solve then does no
/// preparation (see the module doc for why and what it cost). Giving the hierarchy the engine
/// already holds again copies nothing. An engine of several lanes, which does not run PHAST,
/// only keeps `h`.
///
/// Errors, after which the engine holds no hierarchy: `h` is of a graph of another size
/// ([`Error::InvalidArgument`]), or the device has no memory left for it
/// ([`Error::OutOfDeviceMemory`]).
pub fn attach(eng: &mut dyn Engine, h: Arc<Hierarchy>) -> Result<Duration> {
    let started = Instant::now();
    eng.extras().take::<Prepared>();
    let before = eng.extras().take::<DeviceSweep>();
    if h.num_vertices() != eng.graph_vertices() {
        return Err(Error::InvalidArgument(format!(
            "a hierarchy of a {}-vertex graph given to an engine holding {} vertices",
            h.num_vertices(),
            eng.graph_vertices()
        )));
    }
    let sg = h.sweep_graph();
    // Another hierarchy's copy goes first: its bytes back to the budget before the new copy's.
    let kept = before.filter(|s| s.id == sg.id);
    let sweep = match kept {
        Some(s) => Some(s),
        None if eng.lanes() == 1 => Some(DeviceSweep::prepare(&*eng, &sg)?),
        None => None,
    };
    if let Some(s) = sweep {
        eng.extras().put(s);
    }
    eng.extras().put(Prepared(h));
    Ok(started.elapsed())
}

/// The hierarchy the engine holds (given or built), without building one.
pub fn held(eng: &mut dyn Engine) -> Option<Arc<Hierarchy>> {
    eng.extras().get::<Prepared>().map(|p| p.0.clone())
}

/// `g`'s contraction hierarchy from the file `path` when it exists (it must hold a hierarchy
/// of this graph: [`Hierarchy::read`]), else built and written there ([`Hierarchy::write`]).
/// Returns it and whether it was read (`false`: built and written).
///
/// A path that exists but is not a regular file (a fifo, a device, a directory) is refused
/// ([`Error::Parse`]) rather than opened: a fifo would wait for a writer for ever.
pub fn hierarchy_file(g: &Graph, path: &std::path::Path) -> Result<(Arc<Hierarchy>, bool)> {
    hierarchy_file_reporting(g, path, &|_| {})
}

/// [`hierarchy_file`], telling `progress` how a build goes when there is no file to read
/// ([`Hierarchy::build_reporting`]).
pub fn hierarchy_file_reporting(
    g: &Graph,
    path: &std::path::Path,
    progress: &(dyn Fn(BuildProgress) + Sync),
) -> Result<(Arc<Hierarchy>, bool)> {
    match std::fs::metadata(path) {
        Ok(m) if m.is_file() => return Ok((Arc::new(Hierarchy::read(g, path)?), true)),
        Ok(_) => return Err(Error::parse(path, 0, crate::hierarchy::file::NOT_REGULAR)),
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(Error::io(path, e)),
        Err(_) => {}
    }
    let h = Hierarchy::build_reporting(g, HierarchyParams::default(), progress)?;
    h.write(g, path)?;
    Ok((Arc::new(h), false))
}

/// The hierarchy an engine keeps for PHAST ([`hierarchy`], [`attach`]).
struct Prepared(Arc<Hierarchy>);

/// [`phast`] with a hierarchy at hand (`h` built from `g`). The engine's device is ready for it
/// when `h` is the hierarchy last given to the engine ([`attach`]) or swept on it; otherwise
/// this solve makes it ready first (replacing the copy of the one before), outside its clock,
/// and reports the time in [`Stats::hierarchy_upload`].
pub fn solve_with(g: &Graph, eng: &mut dyn Engine, h: &Hierarchy, source: u32) -> Result<Solution> {
    let sg = h.sweep_graph();
    let kept = eng.extras().take::<DeviceSweep>().filter(|s| s.id == sg.id);
    let (mut sweep, upload) = match kept {
        Some(s) => (s, Duration::ZERO),
        None => {
            let t = Instant::now();
            (DeviceSweep::prepare(&*eng, &sg)?, t.elapsed())
        }
    };
    let started = Instant::now();
    let run = eng.init(&[source]).and_then(|_| {
        let up = h.upward(source);
        sweep.run(&*eng, &sg, &up.seeds, &up.entries).map(|_| up)
    });
    eng.extras().put(sweep);
    let up = run?;
    // A full sweep, whatever the query (the caller clips it): an overflow anywhere is an error.
    let mut sol = finish(g, eng, Stats::default(), started, None)?;
    sol.stats.hierarchy_upload = upload;
    sol.stats.iterations = h.stats.levels;
    sol.stats.arcs_relaxed += up.arcs;
    sol.stats.vertices_processed = g.num_vertices() as u64;
    // The search dropped a sum that did not fit: the vertex behind it, if reachable, is left
    // unreached, which names it as for the sweep's own overflows (`finish`).
    if up.overflow {
        if let Some(v) = crate::reference::overflow_victim(g, 1, |i| sol.dist[i] != UNREACHED) {
            return Err(Error::DistanceOverflow { vertex: v, bits: 32 });
        }
    }
    Ok(sol)
}

/// The top levels of at most this many vertices run in the GPU's one block
/// (`sssp_sweep_block`), a barrier apart: a launch per level costs a few microseconds, more than
/// one pass of a block over them.
const SWEEP_BLOCK_LEVEL: u32 = SWEEP_BLOCK_THREADS;

/// Seed items the room made for a query holds beyond the core's vertices ([`seed_room`]): an
/// upward search on a road graph reaches a few hundred vertices below the core (road 4M: 635),
/// so their queries never grow it.
const SEED_ROOM: usize = 1024;

/// Seed items to make room for on the device for `h`'s queries: the upward search's seeds and
/// core entries are distinct vertices, at most every core vertex (entries with a core table,
/// seeds without one) and [`SEED_ROOM`] below it, and at most every vertex.
fn seed_room(h: &SweepGraph<'_>) -> usize {
    let core = (h.n as usize).saturating_sub(h.order.len());
    (SEED_ROOM + core).next_power_of_two().min((h.n as usize).max(1))
}

/// PHAST's sweep on an engine's device for one hierarchy, a problem object the engine keeps in
/// its extras ([`crate::engine::Extras`]), made by [`attach`] (or by a solve with a hierarchy
/// the engine was not given): on a GPU the hierarchy's downward graph, level order, core and
/// core table, copied in (fit-checked), plus room for a query's seeds; the CPU reads the
/// hierarchy in place and keeps only which one it was made for.
pub(crate) struct DeviceSweep {
    /// The hierarchy it was made for ([`SweepGraph::id`]).
    id: u64,
    /// The hierarchy on the device (GPU only).
    graph: Option<SweepBuffers>,
    /// The seed items (GPU only), grown to a power of two when a search reaches more vertices.
    seeds: Option<Buffer>,
}

/// A sweep graph's arrays on the device (one padding entry each when empty): PHAST's, and
/// RPHAST's restricted graph laid out in lanes (`route::rphast`).
pub(crate) struct SweepBuffers {
    pub(crate) order: Buffer,
    pub(crate) level_starts: Buffer,
    pub(crate) offsets: Buffer,
    pub(crate) tails: Buffer,
    pub(crate) weights: Buffer,
    pub(crate) core: Buffer,
    pub(crate) table: Buffer,
}

impl SweepBuffers {
    fn upload(dev: &dyn Device, h: &SweepGraph<'_>) -> Result<Self> {
        Self::from_parts(dev, [h.order, h.level_starts], h.offsets, [h.tails, h.weights], [h.core, h.table])
    }

    /// Copies of the arrays on `dev`: `[order, level_starts]`, the offsets, `[tails, weights]`
    /// (in the arcs' memory) and `[core, table]`.
    pub(crate) fn from_parts(
        dev: &dyn Device,
        levels: [&[u32]; 2],
        offsets: &[u64],
        arcs: [&[u32]; 2],
        core: [&[u32]; 2],
    ) -> Result<Self> {
        fn copy<T: crate::device::Plain>(dev: &dyn Device, x: &[T], arcs: bool) -> Result<Buffer> {
            let b = if arcs { dev.alloc_arcs_of::<T>(x.len())? } else { dev.alloc_of::<T>(x.len())? };
            dev.upload_of(&b, 0, x)?;
            Ok(b)
        }
        Ok(SweepBuffers {
            order: copy(dev, levels[0], false)?,
            level_starts: copy(dev, levels[1], false)?,
            offsets: copy(dev, offsets, false)?,
            tails: copy(dev, arcs[0], true)?,
            weights: copy(dev, arcs[1], true)?,
            core: copy(dev, core[0], false)?,
            table: copy(dev, core[1], false)?,
        })
    }
}

impl DeviceSweep {
    /// `h` made ready on `eng`'s device: checked against the engine (one lane, a hierarchy of
    /// its graph); on a GPU its arrays copied in and room made for [`seed_room`] seed items,
    /// and the copies finished (so that the time is theirs, not the first solve's).
    fn prepare(eng: &dyn Engine, h: &SweepGraph<'_>) -> Result<Self> {
        crate::engine::one_lane(eng.lanes(), "the PHAST sweep")?;
        let (dev, r) = (eng.device(), eng.resident());
        sweep_args(h, r.csr.n, r.csr.metric, r.dist, r.counters, 0, 0)?;
        if !dev.facts().gpu {
            return Ok(DeviceSweep { id: h.id, graph: None, seeds: None });
        }
        let graph = SweepBuffers::upload(dev, h)?;
        let seeds = dev.alloc_of::<u64>(seed_room(h))?;
        dev.synchronize()?;
        Ok(DeviceSweep { id: h.id, graph: Some(graph), seeds: Some(seeds) })
    }

    /// After the engine's init: write `seeds` (the upward search's, as `sweep::seed_item`s),
    /// give the core's vertices their distances from `entries` and `h`'s core table (when it
    /// has one; `entries` empty otherwise), then run every level of `h` (the hierarchy this was
    /// prepared for) from the top, each vertex taking the least candidate over its downward
    /// in-arcs; arcs relaxed and overflows go to the engine's counters. Queued.
    pub fn run(&mut self, eng: &dyn Engine, h: &SweepGraph<'_>, seeds: &[u64], entries: &[u64]) -> Result<()> {
        crate::engine::one_lane(eng.lanes(), "the PHAST sweep")?;
        if h.id != self.id {
            return Err(Error::InvalidArgument("the PHAST sweep was prepared for another hierarchy".into()));
        }
        let (dev, r) = (eng.device(), eng.resident());
        let mut a = sweep_args(h, r.csr.n, r.csr.metric, r.dist, r.counters, seeds.len(), entries.len())?;
        let starts = h.level_starts;
        let size = |k: usize| starts[k + 1] - starts[k];
        let levels = starts.len().saturating_sub(1);
        let core = sweep::core_items(&a);
        if !dev.facts().gpu {
            return Self::on_host(dev, a, seeds, entries, levels, size);
        }
        let items = seeds.len() + entries.len();
        if self.seeds.as_ref().is_none_or(|b| b.bytes() < 8 * items as u64) {
            self.seeds = None; // its bytes back to the budget before the new buffer's
            self.seeds = Some(dev.alloc_of::<u64>(items.next_power_of_two().max(SEED_ROOM))?);
        }
        let Some(b) = &self.graph else {
            return Err(Error::InvalidArgument("the PHAST sweep was prepared on another device".into()));
        };
        let s = self.seeds.as_ref().expect("allocated above");
        // The entries follow the seeds in one array.
        dev.upload_of(s, 0, seeds)?;
        dev.upload_of(s, seeds.len(), entries)?;
        a.down.offsets = b.offsets.ptr();
        a.down.targets = b.tails.ptr();
        a.down.weights = b.weights.ptr();
        a.order = b.order.ptr();
        a.level_starts = b.level_starts.ptr();
        a.seeds = s.ptr();
        a.core = b.core.ptr();
        a.table = b.table.ptr();
        let top = (0..levels).take_while(|&k| size(k) <= SWEEP_BLOCK_LEVEL).count();
        a.first = 0;
        a.last = top as u32;
        // SAFETY: the sweep graph and seeds are this device's copies of a hierarchy of the
        // engine's n-vertex graph (`sweep_args` checked the size), dist has n entries; each
        // vertex is written by its own thread only, core vertices by atomic mins.
        unsafe {
            if core > 0 {
                // Before the block: the seeds it writes are not core vertices, and its levels
                // read the core's final distances.
                dev.run::<SweepCore>(a, core as u64)?;
            }
            dev.launch(&GpuOnly::<SweepBlock>::new(a), 0)?;
            for level in top..levels {
                a.first = level as u32;
                a.last = level as u32 + 1;
                dev.run::<Sweep>(a, size(level) as u64)?;
            }
        }
        Ok(())
    }

    /// The CPU's sequence of the same work: the seeds, the core, then one launch per level
    /// (the GPU's one-block top levels need its block barrier).
    fn on_host(
        dev: &dyn Device,
        mut a: SweepArgs,
        seeds: &[u64],
        entries: &[u64],
        levels: usize,
        size: impl Fn(usize) -> u32,
    ) -> Result<()> {
        let joined: Vec<u64>;
        let items = if entries.is_empty() {
            seeds
        } else {
            joined = [seeds, entries].concat();
            &joined
        };
        a.seeds = items.as_ptr();
        // SAFETY: on the CPU device the hierarchy's arrays are read in place (host memory);
        // dist has n entries and every id in the seeds and the sweep graph is < n (a hierarchy
        // of an n-vertex graph: `sweep_args` checked); each vertex is written by its own thread
        // only, reading tails of earlier levels; core vertices by atomic mins.
        unsafe {
            sweep::seed(&a, 0, 1);
            let core = sweep::core_items(&a);
            if core > 0 {
                dev.run::<SweepCore>(a, core as u64)?;
            }
            for k in 0..levels {
                a.first = k as u32;
                dev.run::<Sweep>(a, size(k) as u64)?;
            }
        }
        Ok(())
    }
}

/// The sweep's arguments over `h`'s host arrays (the CPU engine reads them in place; the GPU
/// swaps in its copies), all levels, for `seeds` seeds followed by `entries` core entries
/// (the caller points `seeds` at them); or an error when `h` was built from a graph of
/// another size than the engine's `n` vertices (every id it holds must be `< n`), or when
/// there are more entries than core vertices (each is reached once).
fn sweep_args(
    h: &SweepGraph<'_>,
    n: u32,
    metric: u16,
    dist: *mut u64,
    counters: *mut sssp_kernels::Counters,
    seeds: usize,
    entries: usize,
) -> Result<SweepArgs> {
    if h.n != n {
        return Err(Error::InvalidArgument(format!(
            "a hierarchy of a {}-vertex graph swept on an engine of {n} vertices",
            h.n
        )));
    }
    if entries > h.core.len() || h.table.len() != h.core.len() * h.core.len() {
        return Err(Error::InvalidArgument(format!(
            "{entries} core entries for a core table of {} vertices ({} entries)",
            h.core.len(),
            h.table.len()
        )));
    }
    Ok(SweepArgs {
        down: sssp_kernels::Csr {
            offsets: h.offsets.as_ptr(),
            targets: h.tails.as_ptr(),
            weights: h.weights.as_ptr(),
            n: h.order.len() as u32,
            lane_bits: 0,
            metric,
            head_mask: u32::MAX,
            _pad: 0,
        },
        order: h.order.as_ptr(),
        level_starts: h.level_starts.as_ptr(),
        dist,
        seeds: std::ptr::null(),
        counters,
        core: h.core.as_ptr(),
        table: h.table.as_ptr(),
        seed_count: seeds as u32,
        first: 0,
        last: h.level_starts.len().saturating_sub(1) as u32,
        core_count: h.core.len() as u32,
        entry_count: entries as u32,
        _pad: 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{self, DeviceKind};
    use crate::generate::{generate, GenSpec};
    use crate::WeightSpec;

    fn road(n: u32) -> Graph {
        generate(&GenSpec::parse(&format!("road:{n}")).unwrap(), 3, WeightSpec::AsGiven).unwrap()
    }

    /// The id of the hierarchy the engine's sweep was prepared for, if any.
    fn prepared_for(eng: &mut dyn Engine) -> Option<u64> {
        eng.extras().get::<DeviceSweep>().map(|s| s.id)
    }

    /// The device is made ready for the sweep when the engine is given the
    /// hierarchy; the first solve then prepares nothing, and every solve is exact.
    #[test]
    fn attach_prepares_the_sweep_before_the_first_solve() {
        let g = road(2000);
        let h = Arc::new(Hierarchy::build(&g).unwrap());
        let mut eng = engine::open(&g, DeviceKind::Cpu).unwrap();
        assert_eq!(prepared_for(eng.as_mut()), None);
        attach(eng.as_mut(), h.clone()).unwrap();
        assert_eq!(prepared_for(eng.as_mut()), Some(h.sweep_graph().id), "prepared by attach, before any solve");
        for src in [0, 999, 1999] {
            let sol = phast(&g, eng.as_mut(), src, &Options::default()).unwrap();
            assert!(sol.stats.prepare.is_zero() && sol.stats.hierarchy_upload.is_zero(), "from {src}: {:?}", sol.stats);
            crate::verify::compare(&sol.dist, &crate::reference::dijkstra(&g, src).unwrap()).unwrap();
            assert_eq!(prepared_for(eng.as_mut()), Some(h.sweep_graph().id), "kept");
        }
        // Given again: kept as it is.
        attach(eng.as_mut(), h.clone()).unwrap();
        assert_eq!(prepared_for(eng.as_mut()), Some(h.sweep_graph().id));
        // A hierarchy the engine was not given: its solve prepares it, then the held one's does.
        let other = Hierarchy::build(&g).unwrap();
        let sol = solve_with(&g, eng.as_mut(), &other, 5).unwrap();
        crate::verify::compare(&sol.dist, &crate::reference::dijkstra(&g, 5).unwrap()).unwrap();
        assert_eq!(prepared_for(eng.as_mut()), Some(other.sweep_graph().id));
        let sol = phast(&g, eng.as_mut(), 5, &Options::default()).unwrap();
        crate::verify::compare(&sol.dist, &crate::reference::dijkstra(&g, 5).unwrap()).unwrap();
        assert_eq!(prepared_for(eng.as_mut()), Some(h.sweep_graph().id));
    }

    #[test]
    fn a_hierarchy_built_by_the_first_solve_is_attached_by_it() {
        let g = road(1000);
        let mut eng = engine::open(&g, DeviceKind::Cpu).unwrap();
        let sol = phast(&g, eng.as_mut(), 3, &Options::default()).unwrap();
        assert!(!sol.stats.prepare.is_zero(), "this solve built the hierarchy");
        let h = held(eng.as_mut()).unwrap();
        assert_eq!(prepared_for(eng.as_mut()), Some(h.sweep_graph().id));
        let sol = phast(&g, eng.as_mut(), 4, &Options::default()).unwrap();
        assert!(sol.stats.prepare.is_zero() && sol.stats.hierarchy_upload.is_zero());
    }

    #[test]
    fn attach_refuses_another_graphs_hierarchy_and_only_keeps_it_on_lanes() {
        let (g, small) = (road(1000), road(500));
        let h = Arc::new(Hierarchy::build(&g).unwrap());
        let mut eng = engine::open(&small, DeviceKind::Cpu).unwrap();
        attach(eng.as_mut(), Arc::new(Hierarchy::build(&small).unwrap())).unwrap();
        match attach(eng.as_mut(), h.clone()) {
            Err(Error::InvalidArgument(m)) => assert!(m.contains("1000-vertex"), "{m}"),
            other => panic!("expected a refusal, got {other:?}"),
        }
        assert!(held(eng.as_mut()).is_none() && prepared_for(eng.as_mut()).is_none(), "nothing held after");
        // Batched engines never sweep: they keep the hierarchy (for `auto`'s choice) only.
        let mut lanes = engine::open_lanes(&g, DeviceKind::Cpu, 2).unwrap();
        attach(lanes.as_mut(), h).unwrap();
        assert!(held(lanes.as_mut()).is_some() && prepared_for(lanes.as_mut()).is_none());
    }
}
