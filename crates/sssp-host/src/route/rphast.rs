//! RPHAST (Delling, Goldberg and Werneck, "Faster Batched Shortest Paths in Road Networks",
//! ATMOS 2011): a distance table on a device by PHAST's sweep restricted to the part of the
//! hierarchy that reaches the targets, several sources per sweep.
//!
//! - **Selection** (host, once per target set): every vertex from which a target is reached by
//!   downward arcs alone, found by walking the sweep's downward in-arcs backwards from the
//!   targets, plus the core. A target's distance is the minimum over its downward in-arcs of
//!   their tails' distances, all in that set, so sweeping the set alone, level by level from
//!   the top as PHAST does, gives the targets' exact distances. The set is renumbered
//!   (*local* ids): the targets first, so that a batch's answers are one download of the
//!   first cells, then the rest in sweep order, then the core.
//! - **Lanes**: `K` sources share one sweep. Local vertex `l` of lane `j` is cell `l * K + j`,
//!   and the restricted sweep graph is laid out `K` times with its ids shifted so (a level of
//!   the copy is the `K` copies of the level, contiguous), so the existing sweep kernels
//!   (`sssp_kernels::sweep`) run `K` sources in each launch unchanged: one launch per level
//!   for `K` sources instead of one per level per source, which is what a single sweep on a
//!   GPU is bound by. The core's table pass runs once per lane, its distance cells and entries
//!   offset to the lane's.
//! - **A batch**: the upward searches of its sources on the host's threads ([`super::Router`],
//!   the same searches as the point-to-point queries), the cells reset (`sssp_init` over the
//!   `K * L` cells), each lane's core pass, the seeds and the small top levels in one block
//!   on a GPU, one launch per other level, and one download of the targets' cells.
//!
//! A batch whose sweep raised the overflow flag (a sum that does not fit the 32-bit cells) is
//! recomputed by the host's bucket algorithm ([`super::table`]), which adds in 64 bits.
//! The CPU backend runs the same kernel bodies (the one-block launch as the seeds then one
//! launch per level), which is how the tests check this path against Dijkstra.

use rayon::prelude::*;
use sssp_kernels::entry::{Init, Sweep, SweepBlock, SweepCore};
use sssp_kernels::sweep::{self, seed_item, SweepArgs, SWEEP_BLOCK_THREADS};
use sssp_kernels::{dist_of, Counters, Csr, InitArgs, Queue, INF};

use super::table::{check_ids, check_size, distinct, expand, DistTable};
use super::{Router, NONE};
use crate::device::{Buffer, Device, GpuOnly};
use crate::error::{Error, Result};
use crate::graph::Metric;
use crate::mem::try_vec;
use crate::strategy::phast::SweepBuffers;
use crate::{Dist, UNREACHED};

/// Lanes (sources per sweep) when the caller gives none: enough to fill a GPU with a road
/// graph's levels, while a road graph of 4M vertices' restricted sweep graph, laid out this
/// many times, stays a few GB.
pub const DEFAULT_LANES: u32 = 32;

/// The part of the hierarchy that reaches the targets, in local ids (one lane).
struct Restricted {
    /// Local id of each vertex (`NONE`: not in the set).
    local: Vec<u32>,
    /// Local vertices in all (`L`).
    len: u32,
    /// The swept vertices of the set, in sweep order (local ids), and its non-empty levels.
    order: Vec<u32>,
    level_starts: Vec<u32>,
    /// Downward in-arcs per position: offsets, tails (local ids), weights.
    offsets: Vec<u64>,
    tails: Vec<u32>,
    weights: Vec<u32>,
    /// The core's local ids in table order (empty without a table).
    core: Vec<u32>,
}

impl Restricted {
    /// The set that reaches `targets` (distinct, local ids `0..targets.len()`).
    fn select(r: &Router, targets: &[u32]) -> Result<Restricted> {
        let sg = r.h.sweep_graph();
        let n = r.num_vertices() as usize;
        const MARK: u32 = NONE - 1;
        let mut local = try_vec(n, NONE)?;
        let mut stack: Vec<u32> = Vec::new();
        for (i, &t) in targets.iter().enumerate() {
            local[t as usize] = i as u32;
            stack.push(t);
        }
        while let Some(v) = stack.pop() {
            let p = r.pos[v as usize];
            if p == NONE {
                continue;
            }
            for &u in &sg.tails[sg.offsets[p as usize] as usize..sg.offsets[p as usize + 1] as usize] {
                if local[u as usize] == NONE && r.pos[u as usize] != NONE {
                    local[u as usize] = MARK;
                    stack.push(u);
                }
            }
        }
        let mut next = targets.len() as u32;
        let (mut order, mut level_starts) = (Vec::new(), vec![0u32]);
        for w in sg.level_starts.windows(2) {
            for &v in &sg.order[w[0] as usize..w[1] as usize] {
                match local[v as usize] {
                    NONE => continue,
                    MARK => {
                        local[v as usize] = next;
                        next += 1;
                    }
                    _ => {}
                }
                order.push(v);
            }
            if order.len() as u32 > *level_starts.last().expect("one start") {
                level_starts.push(order.len() as u32);
            }
        }
        let core_vertices: Vec<u32> = match sg.core.is_empty() {
            false => sg.core.to_vec(),
            true => (0..n as u32).filter(|&v| r.pos[v as usize] == NONE).collect(),
        };
        for &c in &core_vertices {
            if local[c as usize] == NONE {
                local[c as usize] = next;
                next += 1;
            }
        }
        let core =
            if sg.core.is_empty() { Vec::new() } else { core_vertices.iter().map(|&c| local[c as usize]).collect() };
        let (mut offsets, mut tails, mut weights) = (vec![0u64], Vec::new(), Vec::new());
        for &v in &order {
            let p = r.pos[v as usize] as usize;
            for k in sg.offsets[p] as usize..sg.offsets[p + 1] as usize {
                tails.push(local[sg.tails[k] as usize]);
                weights.push(sg.weights[k]);
            }
            offsets.push(tails.len() as u64);
        }
        let order = order.iter().map(|&v| local[v as usize]).collect();
        Ok(Restricted { local, len: next, order, level_starts, offsets, tails, weights, core })
    }
}

/// The restricted sweep graph laid out for `k` lanes (see the module doc), on a device.
struct Lanes {
    k: u32,
    graph: SweepBuffers,
    /// Host copy of the level starts (positions of the laid-out graph).
    starts: Vec<u32>,
    dist: Buffer,
    counters: Buffer,
}

impl Lanes {
    fn upload(dev: &dyn Device, r: &Restricted, table: &[u32], k: u32) -> Result<Lanes> {
        let ku = k as usize;
        let positions = r.order.len();
        let mut order = try_vec(positions * ku, 0u32)?;
        order.par_chunks_mut(ku).zip(&r.order).for_each(|(o, &v)| {
            for (j, x) in o.iter_mut().enumerate() {
                *x = v * k + j as u32;
            }
        });
        let starts: Vec<u32> = r.level_starts.iter().map(|&s| s * k).collect();
        let mut offsets = try_vec(positions * ku + 1, 0u64)?;
        for p in 0..positions {
            let (s, e) = (r.offsets[p], r.offsets[p + 1]);
            for j in 0..ku {
                offsets[p * ku + j] = s * k as u64 + j as u64 * (e - s);
            }
        }
        offsets[positions * ku] = r.offsets[positions] * k as u64;
        let arcs = r.tails.len() * ku;
        let (mut tails, mut weights) = (try_vec(arcs, 0u32)?, try_vec(arcs, 0u32)?);
        for p in 0..positions {
            let (s, e) = (r.offsets[p] as usize, r.offsets[p + 1] as usize);
            for j in 0..ku {
                let at = s * ku + j * (e - s);
                for (i, a) in (s..e).enumerate() {
                    tails[at + i] = r.tails[a] * k + j as u32;
                    weights[at + i] = r.weights[a];
                }
            }
        }
        let core: Vec<u32> = r.core.iter().map(|&c| c * k).collect();
        let graph = SweepBuffers::from_parts(dev, [&order, &starts], &offsets, [&tails, &weights], [&core, table])?;
        let cells = r.len as usize * ku;
        let counter_words = std::mem::size_of::<Counters>().div_ceil(8);
        Ok(Lanes { k, graph, starts, dist: dev.alloc_of::<u64>(cells)?, counters: dev.alloc_of::<u64>(counter_words)? })
    }

    /// The sweep's arguments over these buffers, all levels, no seeds.
    fn args(&self, r: &Restricted) -> SweepArgs {
        SweepArgs {
            down: Csr {
                offsets: self.graph.offsets.ptr(),
                targets: self.graph.tails.ptr(),
                weights: self.graph.weights.ptr(),
                n: r.order.len() as u32 * self.k,
                lane_bits: 0,
                metric: Metric::Integer.code(),
                head_mask: u32::MAX,
                _pad: 0,
            },
            order: self.graph.order.ptr(),
            level_starts: self.graph.level_starts.ptr(),
            dist: self.dist.ptr(),
            seeds: std::ptr::null(),
            counters: self.counters.ptr(),
            core: self.graph.core.ptr(),
            table: self.graph.table.ptr(),
            seed_count: 0,
            first: 0,
            last: self.starts.len().saturating_sub(1) as u32,
            core_count: r.core.len() as u32,
            entry_count: 0,
            _pad: 0,
        }
    }
}

/// One batch's upward searches, as the sweep takes them: every lane's seeds (cells), then each
/// lane's core entries (table rows) and where they start; and whether a search met an arc too
/// heavy to relax.
struct Seeds {
    items: Vec<u64>,
    seeds: usize,
    entry_starts: Vec<usize>,
    overflow: bool,
}

fn upward(r: &Router, sel: &Restricted, sources: &[u32], k: u32) -> Result<Seeds> {
    let searched = r.search_spaces(sources, true)?;
    let mut out = Seeds { items: Vec::new(), seeds: 0, entry_starts: Vec::new(), overflow: false };
    let tabled = r.tabled();
    for (j, (settled, overflow)) in searched.iter().enumerate() {
        out.overflow |= overflow;
        for &(d, v) in settled {
            let l = sel.local[v as usize];
            let entry = tabled && r.pos[v as usize] == NONE;
            if d >= INF as u64 {
                out.overflow = true;
            } else if !entry && l != NONE {
                out.items.push(seed_item(l * k + j as u32, d as u32));
            }
        }
    }
    out.seeds = out.items.len();
    for (settled, _) in &searched {
        out.entry_starts.push(out.items.len());
        for &(d, v) in settled {
            if tabled && r.pos[v as usize] == NONE && d < INF as u64 {
                out.items.push(seed_item(r.row[v as usize], d as u32));
            }
        }
    }
    out.entry_starts.push(out.items.len());
    Ok(out)
}

/// The distance table from `sources` to `targets` by RPHAST on `dev` (a GPU, or the CPU
/// backend running the same kernel bodies), `lanes` sources per sweep (a power of two from 1
/// to 64; [`DEFAULT_LANES`] is the default the library uses), on the hierarchy of `router`.
/// Errors: [`Error::VertexOutOfRange`], [`Error::InvalidArgument`] for `lanes`,
/// [`Error::OutOfHostMemory`] (the table's size, before it is allocated),
/// [`Error::OutOfDeviceMemory`] when the laid-out sweep graph does not fit on the device (fewer
/// lanes need less), and the device's errors.
pub fn table(dev: &dyn Device, router: &Router, sources: &[u32], targets: &[u32], lanes: u32) -> Result<DistTable> {
    check_ids(sources, router.num_vertices())?;
    check_ids(targets, router.num_vertices())?;
    check_size(sources.len(), targets.len())?;
    if !lanes.is_power_of_two() || lanes > 64 {
        return Err(Error::InvalidArgument(format!("RPHAST lanes {lanes}: expected a power of two from 1 to 64")));
    }
    let (us, rows) = distinct(sources);
    let (ut, cols) = distinct(targets);
    let mut small = DistTable::new(us.len(), ut.len())?;
    if !us.is_empty() && !ut.is_empty() {
        let sel = Restricted::select(router, &ut)?;
        // Cells are 32-bit ids: fewer lanes for a set too large for that many.
        let mut k = lanes.min(us.len().next_power_of_two() as u32);
        while k > 1 && sel.len as u64 * k as u64 >= u32::MAX as u64 {
            k /= 2;
        }
        if sel.len as u64 * k as u64 >= u32::MAX as u64 {
            return Err(Error::TooLarge { what: format!("an RPHAST sweep of {} vertices", sel.len) });
        }
        let lanes = Lanes::upload(dev, &sel, router.h.sweep_graph().table, k)?;
        for (batch, out) in us.chunks(k as usize).zip(small.cells_mut().chunks_mut(k as usize * ut.len())) {
            sweep_batch(dev, router, &sel, &lanes, batch, out, &ut)?;
        }
    }
    expand(small, &rows, &cols)
}

/// One batch of at most `K` sources into its rows `out`.
fn sweep_batch(
    dev: &dyn Device,
    r: &Router,
    sel: &Restricted,
    lanes: &Lanes,
    batch: &[u32],
    out: &mut [Dist],
    targets: &[u32],
) -> Result<()> {
    let k = lanes.k;
    let seeds = upward(r, sel, batch, k)?;
    let items = dev.alloc_of::<u64>(seeds.items.len())?;
    dev.upload_of(&items, 0, &seeds.items)?;
    let base = lanes.args(sel);
    let cells = sel.len * k;
    let init = InitArgs {
        dist: lanes.dist.ptr(),
        frontier: Queue { items: std::ptr::null_mut(), len: std::ptr::null_mut() },
        counters: lanes.counters.ptr(),
        n: cells,
        source: NONE,
        zero: 0,
        _pad: 0,
    };
    // SAFETY: every buffer is this device's and sized as the arguments say: `cells` distance
    // cells, the laid-out graph whose ids are all `< cells` (local ids `< L`, times `K`, plus a
    // lane), the core's cells and table rows of the hierarchy's table; the seed items name
    // cells `< cells` and the entries table rows `< C`. Each lane's core pass writes its own
    // cells (atomic mins); each level writes its own positions' cells, reading higher levels'.
    unsafe {
        if dev.facts().gpu {
            dev.launch(&GpuOnly::<Init>::new(init), cells as u64)?;
        } else {
            sssp_kernels::advance::init(&init, 0, 1);
        }
        for j in 0..batch.len() {
            let (s, e) = (seeds.entry_starts[j], seeds.entry_starts[j + 1]);
            if e > s {
                let a = SweepArgs {
                    dist: lanes.dist.ptr::<u64>().wrapping_add(j),
                    seeds: items.ptr::<u64>().wrapping_add(s),
                    entry_count: (e - s) as u32,
                    ..base
                };
                dev.run::<SweepCore>(a, sweep::core_items(&a) as u64)?;
            }
        }
        let a = SweepArgs { seeds: items.ptr(), seed_count: seeds.seeds as u32, ..base };
        levels(dev, a, &lanes.starts)?;
    }
    let got = dev.download_of::<u64>(&lanes.dist, 0, targets.len() * k as usize)?;
    let words = dev.download_of::<u64>(&lanes.counters, 0, std::mem::size_of::<Counters>().div_ceil(8))?;
    // SAFETY: `Counters` is `#[repr(C)]` plain integers, as many bytes as the words hold or fewer.
    let counters: Counters = unsafe { std::ptr::read_unaligned(words.as_ptr() as *const Counters) };
    if seeds.overflow || counters.overflow != 0 {
        let exact = r.table(batch, targets)?;
        out[..exact.cells().len()].copy_from_slice(exact.cells());
        return Ok(());
    }
    for (j, row) in out.chunks_mut(targets.len()).enumerate().take(batch.len()) {
        for (t, o) in row.iter_mut().enumerate() {
            let d = dist_of(got[t * k as usize + j]);
            *o = if d == INF { UNREACHED } else { d as Dist };
        }
    }
    Ok(())
}

/// The seeds and every level of `a`'s graph: on a GPU the seeds and the small top levels in one
/// block, then a launch per level; on the CPU the seeds, then a launch per level.
///
/// # Safety
/// As [`sweep_batch`]'s launches: `a` names this device's buffers, consistent.
unsafe fn levels(dev: &dyn Device, mut a: SweepArgs, starts: &[u32]) -> Result<()> {
    let levels = starts.len().saturating_sub(1);
    let size = |k: usize| starts[k + 1] - starts[k];
    let top = match dev.facts().gpu {
        true => (0..levels).take_while(|&k| size(k) <= SWEEP_BLOCK_THREADS).count(),
        false => 0,
    };
    if dev.facts().gpu {
        a.first = 0;
        a.last = top as u32;
        dev.launch(&GpuOnly::<SweepBlock>::new(a), 0)?;
    } else {
        sweep::seed(&a, 0, 1);
    }
    for k in top..levels {
        a.first = k as u32;
        a.last = k as u32 + 1;
        dev.run::<Sweep>(a, size(k) as u64)?;
    }
    Ok(())
}
