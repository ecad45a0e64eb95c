//! A rank's local step on its device ([`DeviceStep`] over a [`DeviceSlice`]): the slice, its
//! distances and its queues resident (kept between solves of one graph), the round's
//! relaxation, the ghosts' outgoing items, the applied inbox, the far pile's minimum and the
//! bucket split as kernels (`sssp_kernels::ranks`, whose module doc has
//! the design and why nothing is lost). Between the kernels the host only moves what crosses
//! ranks: the outgoing items down (one per ghost lowered this round), the received ones up, and
//! a few length cells. On NCCL ranks the device is the rank's GPU; on simulated ranks it is
//! the CPU backend's device, which runs the very same kernel bodies (how CI tests them).
//!
//! Host and device steps take the same rounds and reach the same distances; the host step
//! relaxes a round's vertices in order and may lower a head twice in one round where the
//! device step's threads race, so arcs relaxed and items sent can differ.

use sssp_kernels::entry::{RankApply, RankFarMin, RankPack, RankRelax, RankReset, RankSplit};
use sssp_kernels::ranks::{
    bucket, RankArgs, C_ARCS, C_EXPANDED, C_FAR_MIN, L_FAR, L_GHOSTS, L_HUBS, L_NEAR, L_OVERFLOW, RANK_CELLS, RANK_LENS,
};
use sssp_kernels::{dist_of, Csr, INF};

use super::{Finished, LocalGraph, LocalStep, Params, Partition, NONE};
use crate::device::{Buffer, Device};
use crate::error::{Error, Result};

/// The buffers a [`DeviceSlice`] keeps (the kernels' addresses point into them: they live as
/// long as the slice).
struct Buffers {
    offsets: Buffer,
    targets: Buffer,
    weights: Buffer,
    dist: Buffer,
    stamp: Buffer,
    far_flag: Buffer,
    near: [Buffer; 2],
    far: [Buffer; 2],
    ghosts: Buffer,
    ghost_ids: Buffer,
    outbox: Buffer,
    /// Grown to the largest inbox.
    inbox: Option<Buffer>,
    lens: Buffer,
    cells: Buffer,
}

/// One rank's slice on its device, kept between solves of the same graph: the arcs, the
/// ghosts' ids, and the buffers a solve works in, which [`RankReset`] makes ready again in one
/// launch. Loading it (the ghost numbering and the uploads) is the distributed run's
/// counterpart of the one-GPU engine's graph upload, paid once per graph, not per query.
pub(crate) struct DeviceSlice {
    b: Buffers,
    /// The kernels' parameters that describe the slice (addresses, shape); a solve adds its own.
    args: RankArgs,
    /// Ghosts (remote heads of the slice's arcs).
    ghosts: u32,
}

/// The slice with its remote heads renumbered as ghosts `owned..owned + ghosts.len()`:
/// offsets (one per local id and the end; ghosts have no arcs), local targets, and the ghosts'
/// global ids in increasing order. `n` is the graph's vertex count (every head is below it).
///
/// A dense map over the global ids, in parallel: remote heads marked, numbered by one pass in
/// id order, then every arc's head looked up once. A binary search per arc over the sorted
/// ghost ids (the first version) took 20 s per rank on kron 26's two halves (1G arcs, tens of
/// millions of ghosts) on a 64-core host; the map costs 4 bytes per vertex of the graph for
/// the load's duration.
fn with_ghosts(local: &LocalGraph, n: usize) -> Result<(Vec<u64>, Vec<u32>, Vec<u32>)> {
    use rayon::prelude::*;
    use std::sync::atomic::Ordering::Relaxed;
    let (first, owned) = (local.first(), local.num_vertices() as u32);
    let remote = |h: u32| h.wrapping_sub(first) >= owned;
    if let Some(&h) = local.heads().par_iter().find_any(|&&h| h as usize >= n) {
        return Err(Error::VertexOutOfRange { vertex: h as u64, num_vertices: n as u64 });
    }
    // Marks, then local ids: 0 for a global id that is no ghost.
    let map = crate::mem::try_atomic_vec(n, 0)?;
    local.heads().par_iter().filter(|&&h| remote(h)).for_each(|&h| map[h as usize].store(1, Relaxed));
    let mut ghost_ids: Vec<u32> = Vec::new();
    crate::mem::reserve(&mut ghost_ids, map.par_iter().filter(|m| m.load(Relaxed) != 0).count())?;
    for (v, m) in map.iter().enumerate() {
        if m.load(Relaxed) != 0 {
            m.store(owned + ghost_ids.len() as u32, Relaxed);
            ghost_ids.push(v as u32);
        }
    }
    let total = owned as u64 + ghost_ids.len() as u64;
    if total >= INF as u64 {
        return Err(Error::InvalidArgument(format!(
            "a rank's slice of {owned} vertices reaches {} others: more local ids than 32 bits hold",
            ghost_ids.len()
        )));
    }
    let mut targets = Vec::new();
    crate::mem::reserve(&mut targets, local.num_arcs())?;
    targets.par_extend(
        local.heads().par_iter().map(|&h| if remote(h) { map[h as usize].load(Relaxed) } else { h - first }),
    );
    drop(map);
    let mut offsets = Vec::new();
    crate::mem::reserve(&mut offsets, total as usize + 1)?;
    offsets.par_extend(local.offsets().par_iter().copied());
    let end = *offsets.last().unwrap_or(&0);
    offsets.resize(total as usize + 1, end);
    Ok((offsets, targets, ghost_ids))
}

impl DeviceSlice {
    /// `local`, a slice of a graph of `n` vertices, on `dev`: every buffer allocated
    /// (fit-checked by the device) and the arcs and ghost ids uploaded.
    pub(crate) fn load(dev: &dyn Device, local: &LocalGraph, n: usize) -> Result<DeviceSlice> {
        let (offsets, targets, ghost_ids) = with_ghosts(local, n)?;
        let owned = local.num_vertices();
        let (ghosts, n) = (ghost_ids.len(), offsets.len() - 1);
        let upload_u32 = |v: &[u32]| -> Result<Buffer> {
            let b = dev.alloc_arcs_of::<u32>(v.len())?;
            dev.upload_of(&b, 0, v)?;
            Ok(b)
        };
        let (o, t, w) = (dev.alloc_of::<u64>(offsets.len())?, upload_u32(&targets)?, upload_u32(local.weights())?);
        dev.upload_of(&o, 0, &offsets)?;
        drop((offsets, targets));
        let ids = dev.alloc_of::<u32>(ghosts)?;
        dev.upload_of(&ids, 0, &ghost_ids)?;
        let b = Buffers {
            dist: dev.alloc_of::<u64>(n)?,
            stamp: dev.alloc_of::<u32>(n)?,
            far_flag: dev.alloc_of::<u32>(owned)?,
            near: [dev.alloc_of::<u32>(owned)?, dev.alloc_of::<u32>(owned)?],
            far: [dev.alloc_of::<u32>(owned)?, dev.alloc_of::<u32>(owned)?],
            ghosts: dev.alloc_of::<u32>(ghosts)?,
            outbox: dev.alloc_of::<u64>(ghosts)?,
            inbox: None,
            lens: dev.alloc_of::<u32>(RANK_LENS)?,
            cells: dev.alloc_of::<u64>(RANK_CELLS)?,
            ghost_ids: ids,
            offsets: o,
            targets: t,
            weights: w,
        };
        let args = RankArgs {
            csr: Csr {
                offsets: b.offsets.ptr(),
                targets: b.targets.ptr(),
                weights: b.weights.ptr(),
                n: n as u32,
                lane_bits: 0,
                metric: 0,
                head_mask: u32::MAX,
                _pad: 0,
            },
            dist: b.dist.ptr(),
            stamp: b.stamp.ptr(),
            far_flag: b.far_flag.ptr(),
            near: [b.near[0].ptr(), b.near[1].ptr()],
            far: [b.far[0].ptr(), b.far[1].ptr()],
            ghosts: b.ghosts.ptr(),
            ghost_ids: b.ghost_ids.ptr(),
            inbox: std::ptr::null(),
            outbox: b.outbox.ptr(),
            lens: b.lens.ptr(),
            cells: b.cells.ptr(),
            first: local.first(),
            owned: owned as u32,
            delta: 1,
            cutoff: 0,
            cur: 0,
            round: 1,
            far_side: 0,
            count: 0,
            team: if dev.facts().gpu { 32 } else { 1 },
            hub_arcs: 0,
            source: u32::MAX,
            zero: 0,
        };
        Ok(DeviceSlice { b, args, ghosts: ghosts as u32 })
    }
}

/// One solve on a rank's [`DeviceSlice`], driven by the round loop (`super::run_rounds`).
pub(crate) struct DeviceStep<'a> {
    dev: &'a dyn Device,
    slice: &'a mut DeviceSlice,
    partition: &'a Partition,
    me: usize,
    args: RankArgs,
    /// The next round to run (from 1); its vertices wait in `near[round % 2]`.
    round: u32,
    /// The bucket of the vertices waiting in the near queue.
    near_bucket: u32,
    /// The bucket the last round ran (`NONE` before the first).
    cur: u32,
    /// The length cells as last read, while no kernel has run since (a round with an empty
    /// inbox asks for the next bucket without reading them again).
    lens: Option<Vec<u32>>,
}

impl<'a> DeviceStep<'a> {
    /// A solve of `params` on rank `me`'s slice, loaded on `dev`: one [`RankReset`] launch
    /// (the source queued if this rank owns it).
    pub(crate) fn new(
        dev: &'a dyn Device,
        slice: &'a mut DeviceSlice,
        partition: &'a Partition,
        me: usize,
        params: Params,
    ) -> Result<Self> {
        let mut args = slice.args;
        args.csr.metric = params.metric.code();
        args.delta = params.delta;
        args.cutoff = params.cutoff;
        args.hub_arcs = params.hub_arcs;
        args.zero = params.metric.zero();
        args.source = if partition.owner(params.source) == me { params.source - args.first } else { u32::MAX };
        let mut step = DeviceStep {
            dev,
            slice,
            partition,
            me,
            args,
            round: 1,
            near_bucket: bucket(params.metric, args.zero, params.delta),
            cur: NONE,
            lens: None,
        };
        step.launch::<RankReset>(step.full())?;
        Ok(step)
    }

    /// Launch `K` over `items` items with the current arguments; the length cells read before
    /// it are stale.
    fn launch<K: sssp_kernels::entry::Body<Args = RankArgs>>(&mut self, items: u64) -> Result<()> {
        self.lens = None;
        // SAFETY: every address in `args` points into the slice's buffers on `self.dev`, sized
        // as `RankArgs` documents (`DeviceSlice::load`); the ids in them are local ids
        // `< csr.n`, and the inbox's global ids were checked to be this rank's
        // (`super::run_rounds`).
        unsafe { self.dev.run::<K>(self.args, items) }
    }

    /// The length cells, after everything queued so far.
    fn lens(&mut self) -> Result<&[u32]> {
        if self.lens.is_none() {
            self.lens = Some(self.dev.download_of::<u32>(&self.slice.b.lens, 0, RANK_LENS)?);
        }
        Ok(self.lens.as_deref().expect("read above"))
    }

    /// Threads of a launch over a queue whose length only the device knows.
    fn full(&self) -> u64 {
        self.dev.facts().threads as u64
    }
}

impl LocalStep for DeviceStep<'_> {
    fn relax(&mut self, cur: u32, outboxes: &mut [Vec<u64>]) -> Result<()> {
        let r = self.round;
        self.args.round = r;
        self.args.cur = cur;
        if cur != self.cur {
            // A new bucket: its far vertices join this round's near queue (empty unless this is
            // the first round: every rank's was, or the all-reduce would have kept the bucket).
            let kept = L_FAR + 1 - self.args.far_side as usize;
            self.dev.upload_of(&self.slice.b.lens, kept, &[0u32])?;
            self.launch::<RankSplit>(self.full())?;
            self.args.far_side ^= 1;
            self.cur = cur;
        }
        // The cells this round fills were emptied by the last round's pack (or the reset).
        self.launch::<RankRelax>(self.full())?;
        self.launch::<RankPack>(self.full())?;
        let sent = self.lens()?[L_GHOSTS + (r % 2) as usize] as usize;
        if sent > self.slice.ghosts as usize {
            return Err(Error::Communication(format!(
                "rank {} queued {sent} ghosts of {}",
                self.me, self.slice.ghosts
            )));
        }
        if sent > 0 {
            for item in self.dev.download_of::<u64>(&self.slice.b.outbox, 0, sent)? {
                super::push(&mut outboxes[self.partition.owner((item >> 32) as u32)], item)?;
            }
        }
        self.near_bucket = cur;
        self.round = r + 1;
        Ok(())
    }

    fn apply(&mut self, inbox: &[u64]) -> Result<()> {
        if inbox.is_empty() {
            return Ok(());
        }
        let b = &mut self.slice.b;
        if b.inbox.as_ref().is_none_or(|b| b.bytes() < 8 * inbox.len() as u64) {
            b.inbox = None;
            b.inbox = Some(self.dev.alloc_of::<u64>(inbox.len().next_power_of_two())?);
        }
        let buf = b.inbox.as_ref().expect("allocated above");
        self.dev.upload_of(buf, 0, inbox)?;
        self.args.inbox = buf.ptr();
        self.args.count = inbox.len() as u32;
        self.launch::<RankApply>(inbox.len() as u64)
    }

    fn lowest(&mut self) -> Result<u32> {
        let side = (self.round % 2) as usize;
        let far_side = self.args.far_side as usize;
        let (near, far) = {
            let lens = self.lens()?;
            (lens[L_NEAR + side] + lens[L_HUBS + side], lens[L_FAR + far_side])
        };
        if near > 0 {
            return Ok(self.near_bucket);
        }
        if far == 0 {
            return Ok(NONE);
        }
        self.dev.upload_of(&self.slice.b.cells, C_FAR_MIN, &[u64::MAX])?;
        self.launch::<RankFarMin>(self.full())?;
        let least = self.dev.download_of::<u64>(&self.slice.b.cells, C_FAR_MIN, 1)?[0];
        Ok(least.min(NONE as u64) as u32)
    }

    fn finish(&mut self) -> Result<Finished> {
        let owned = self.args.owned as usize;
        let words = self.dev.download_of::<u64>(&self.slice.b.dist, 0, owned)?;
        let cells = self.dev.download_of::<u64>(&self.slice.b.cells, 0, RANK_CELLS)?;
        Ok(Finished {
            dist: words.into_iter().map(dist_of).collect(),
            arcs_relaxed: cells[C_ARCS],
            expanded: cells[C_EXPANDED],
            overflow: self.lens()?[L_OVERFLOW] != 0,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::Graph;

    #[test]
    fn ghosts_are_numbered_after_the_owned_vertices_in_id_order() {
        // Vertices 2..4 owned; arcs to 0, 3, 7, 0 and 2.
        let g = Graph::from_arcs(8, &[(2, 7, 1), (2, 0, 2), (3, 3, 3), (3, 0, 4), (3, 2, 5), (5, 6, 1)]).unwrap();
        let weights = g.unsigned_weights("test").unwrap();
        let local = LocalGraph::of(&g, weights, 2..4).unwrap();
        let (offsets, targets, ghost_ids) = with_ghosts(&local, 8).unwrap();
        assert_eq!(ghost_ids, vec![0, 7]);
        // Owned: 2 -> local 0, 3 -> local 1; ghosts 0 -> 2, 7 -> 3.
        let mut arcs: Vec<(u32, u32)> = (0..2u32)
            .flat_map(|v| {
                targets[offsets[v as usize] as usize..offsets[v as usize + 1] as usize].iter().map(move |&t| (v, t))
            })
            .collect();
        arcs.sort_unstable();
        assert_eq!(arcs, vec![(0, 2), (0, 3), (1, 0), (1, 1), (1, 2)]);
        assert_eq!(offsets.len(), 5, "one offset per owned vertex and ghost, and the end");
        assert_eq!(offsets[2..], [5, 5, 5], "ghosts have no arcs");
        // A vertex count below a head (a slice paired with another graph's partition) is a
        // typed error, not an index out of the map.
        assert!(matches!(with_ghosts(&local, 7), Err(Error::VertexOutOfRange { vertex: 7, num_vertices: 7 })));
    }
}
