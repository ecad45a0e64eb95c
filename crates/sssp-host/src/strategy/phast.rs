//! PHAST (Delling, Goldberg, Nowatzyk and Werneck, IPDPS 2011): exact shortest-path trees
//! from a contraction hierarchy, for road networks and meshes where every frontier strategy is
//! bound by the depth of the trees (issue #6; [`crate::hierarchy`] says why and how).
//!
//! A solve is two operators: the upward search on the host ([`Hierarchy::upward`], a few
//! hundred vertices on a road graph) and the downward sweep on the engine's device
//! (`DeviceSweep`, a problem object the engine keeps: the core's distances from its table,
//! then the levels). The hierarchy is prepared once per engine ([`hierarchy`]: the engine that
//! holds the graph keeps it, so the caller who owns the engine owns it) and its time is
//! reported apart ([`Stats::prepare`]), like the graph's upload: it pays off over many sources
//! (NY: after about 1,150, road 4M after about 2,250, against the best frontier configuration;
//! docs/benchmarks.md), or is read from a file ([`hierarchy_file`], then [`attach`]).
//!
//! Integer weights only (see [`crate::hierarchy`]); cutoff and target queries are answered by
//! clipping the full tree (the sweep has no early exit); the shortest-path tree is built on
//! the host from the distances.

use std::sync::Arc;
use std::time::Instant;

use sssp_kernels::entry::{Sweep, SweepBlock, SweepCore};
use sssp_kernels::sweep::{self, SweepArgs, SWEEP_BLOCK_THREADS};

use super::{finish, Options, Solution, Stats};
use crate::device::{Buffer, Device, GpuOnly};
use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::graph::Graph;
use crate::hierarchy::{Hierarchy, SweepGraph};
use crate::UNREACHED;

/// Solve from `source` by PHAST on `eng` (which holds `g`).
pub fn phast(g: &Graph, eng: &mut dyn Engine, source: u32, _opts: &Options) -> Result<Solution> {
    crate::reference::check_source(g, source)?;
    crate::engine::one_lane(eng.lanes(), "phast")?;
    let (h, built) = hierarchy(g, eng)?;
    let mut sol = solve_with(g, eng, &h, source)?;
    if built {
        sol.stats.prepare = h.stats.build;
    }
    Ok(sol)
}

/// The contraction hierarchy an engine holding `g` keeps for PHAST (a prepared object in its
/// extras, [`crate::engine::Extras`]; given with [`attach`] or built here on first use and
/// kept: seconds on a road graph of a million vertices, so call this before timing queries),
/// and whether this call built it. Errors as [`Hierarchy::build`].
pub fn hierarchy(g: &Graph, eng: &mut dyn Engine) -> Result<(Arc<Hierarchy>, bool)> {
    if let Some(h) = held(eng) {
        return Ok((h, false));
    }
    let h = Arc::new(Hierarchy::build(g)?);
    attach(eng, h.clone());
    Ok((h, true))
}

/// Give the engine `h`, a hierarchy of the graph it holds (read from a file, or built by the
/// caller), for its PHAST solves and `auto`'s choice ([`crate::strategy::auto::phast_fits`]).
pub fn attach(eng: &mut dyn Engine, h: Arc<Hierarchy>) {
    eng.extras().put(Prepared(h));
}

/// The hierarchy the engine holds (given or built), without building one.
pub fn held(eng: &mut dyn Engine) -> Option<Arc<Hierarchy>> {
    eng.extras().get::<Prepared>().map(|p| p.0.clone())
}

/// `g`'s contraction hierarchy from the file `path` when it exists (it must hold a hierarchy
/// of this graph: [`Hierarchy::read`]), else built and written there ([`Hierarchy::write`]).
/// Returns it and whether it was read (`false`: built and written).
pub fn hierarchy_file(g: &Graph, path: &std::path::Path) -> Result<(Arc<Hierarchy>, bool)> {
    if path.exists() {
        return Ok((Arc::new(Hierarchy::read(g, path)?), true));
    }
    let h = Hierarchy::build(g)?;
    h.write(g, path)?;
    Ok((Arc::new(h), false))
}

/// The hierarchy an engine keeps for PHAST ([`hierarchy`], [`attach`]).
struct Prepared(Arc<Hierarchy>);

/// [`phast`] with a hierarchy at hand (`h` built from `g`).
pub fn solve_with(g: &Graph, eng: &mut dyn Engine, h: &Hierarchy, source: u32) -> Result<Solution> {
    let started = Instant::now();
    eng.init(&[source])?;
    let up = h.upward(source);
    let mut sweep = eng.extras().take::<DeviceSweep>().unwrap_or_default();
    let swept = sweep.run(eng, &h.sweep_graph(), &up.seeds, &up.entries);
    eng.extras().put(sweep);
    swept?;
    let mut sol = finish(g, eng, Stats::default(), started)?;
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

/// PHAST's sweep on an engine's device, a problem object the engine keeps in its extras
/// ([`crate::engine::Extras`]): on a GPU the hierarchy's downward graph, level order, core and
/// core table, copied in on the first sweep and kept while the same hierarchy comes back
/// (fit-checked), plus room for a query's seeds; the CPU reads the hierarchy in place.
#[derive(Default)]
pub(crate) struct DeviceSweep {
    /// The hierarchy on the device (GPU only) and its id.
    graph: Option<(u64, SweepBuffers)>,
    /// The seed items, grown to a power of two when a search reaches more vertices.
    seeds: Option<Buffer>,
}

/// A sweep graph's arrays on the device (one padding entry each when empty).
struct SweepBuffers {
    order: Buffer,
    level_starts: Buffer,
    offsets: Buffer,
    tails: Buffer,
    weights: Buffer,
    core: Buffer,
    table: Buffer,
}

impl SweepBuffers {
    fn upload(dev: &dyn Device, h: &SweepGraph<'_>) -> Result<Self> {
        fn copy<T: crate::device::Plain>(dev: &dyn Device, x: &[T]) -> Result<Buffer> {
            let b = dev.alloc_of::<T>(x.len())?;
            dev.upload_of(&b, 0, x)?;
            Ok(b)
        }
        Ok(SweepBuffers {
            order: copy(dev, h.order)?,
            level_starts: copy(dev, h.level_starts)?,
            offsets: copy(dev, h.offsets)?,
            tails: copy(dev, h.tails)?,
            weights: copy(dev, h.weights)?,
            core: copy(dev, h.core)?,
            table: copy(dev, h.table)?,
        })
    }
}

impl DeviceSweep {
    /// After the engine's init: write `seeds` (the upward search's, as `sweep::seed_item`s),
    /// give the core's vertices their distances from `entries` and `h`'s core table (when it
    /// has one; `entries` empty otherwise), then run every level of `h` from the top, each
    /// vertex taking the least candidate over its downward in-arcs; arcs relaxed and overflows
    /// go to the engine's counters. Queued.
    pub fn run(&mut self, eng: &dyn Engine, h: &SweepGraph<'_>, seeds: &[u64], entries: &[u64]) -> Result<()> {
        crate::engine::one_lane(eng.lanes(), "the PHAST sweep")?;
        let (dev, r) = (eng.device(), eng.resident());
        let mut a = sweep_args(h, r.csr.n, r.csr.metric, r.dist, r.counters, seeds.len(), entries.len())?;
        let starts = h.level_starts;
        let size = |k: usize| starts[k + 1] - starts[k];
        let levels = starts.len().saturating_sub(1);
        let core = sweep::core_items(&a);
        if !dev.facts().gpu {
            return Self::on_host(dev, a, seeds, entries, levels, size);
        }
        if self.graph.as_ref().is_none_or(|(id, _)| *id != h.id) {
            self.graph = None; // its bytes back to the budget before the new copy's
            self.graph = Some((h.id, SweepBuffers::upload(dev, h)?));
        }
        let items = seeds.len() + entries.len();
        if self.seeds.as_ref().is_none_or(|b| b.bytes() < 8 * items as u64) {
            self.seeds = None;
            self.seeds = Some(dev.alloc_of::<u64>(items.next_power_of_two().max(1024))?);
        }
        let b = &self.graph.as_ref().expect("uploaded above").1;
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
