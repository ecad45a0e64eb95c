//! A rank's local step on its device ([`DeviceStep`] over a [`DeviceSlice`]): the slice, its
//! distances and its queues resident (kept between solves of one graph), the round's
//! relaxation, the ghosts' outgoing items, the applied inbox, the far pile's minimum and the
//! bucket split as kernels (`sssp_kernels::ranks`, whose module doc has
//! the design and why nothing is lost). The round's items leave from the outbox, one range per
//! owner, and arrive in the inbox buffer through [`Communicator::exchange_on_device`] (device
//! to device on NCCL ranks); the host reads only the length cells and the per-owner counts. On
//! NCCL ranks the device is the rank's GPU; on simulated ranks it is the CPU backend's device,
//! which runs the very same kernel bodies (how CI tests them).
//!
//! Host and device steps take the same rounds and reach the same distances; the host step
//! relaxes a round's vertices in order and may lower a head twice in one round where the
//! device step's threads race, so arcs relaxed and items sent can differ.

use sssp_kernels::entry::{RankApply, RankFarMin, RankPack, RankRelax, RankReset, RankSplit};
use sssp_kernels::ranks::{
    bucket, counts_at, rank_lens, RankArgs, C_ARCS, C_EXPANDED, C_FAR_MIN, C_FOREIGN, L_FAR, L_GHOSTS, L_HUBS, L_NEAR,
    L_OVERFLOW, L_WIDE, RANK_CELLS, RANK_WIDE_ARCS, RANK_WIDE_TEAM,
};
use sssp_kernels::{dist_of, Csr, INF};

use super::{Communicator, Finished, LocalGraph, LocalStep, Params, Partition, RankStats, NONE};
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
    wide: [Buffer; 2],
    ghosts: Buffer,
    ghost_ids: Buffer,
    ranges: Buffer,
    outbox: Buffer,
    /// Room for the most items a round can bring: one per ghost of this rank's vertices on
    /// the other ranks (sized when a solve sets up, from the ghost counts every rank reports
    /// in the solve's first collective, so that no round allocates).
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
    /// Each rank's range of ghost indices, `ranks + 1` entries (as on the device); the last is
    /// the ghost count.
    ranges: Vec<u32>,
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

/// Each rank's range of ghost indices: the ghosts `ranges[d]..ranges[d + 1]` are rank `d`'s
/// vertices (the ids ascend, the owners' ranges too), `ranges[P]` the ghost count.
fn ranges_of(ghost_ids: &[u32], partition: &Partition) -> Vec<u32> {
    let mut ranges: Vec<u32> = partition.bounds()[..partition.parts()]
        .iter()
        .map(|&b| ghost_ids.partition_point(|&id| id < b) as u32)
        .collect();
    ranges.push(ghost_ids.len() as u32);
    ranges
}

impl DeviceSlice {
    /// `local`, a slice of `partition`'s graph, on `dev`: every buffer allocated (fit-checked
    /// by the device) and the arcs, ghost ids and owners' ranges uploaded.
    pub(crate) fn load(dev: &dyn Device, local: &LocalGraph, partition: &Partition) -> Result<DeviceSlice> {
        let n = *partition.bounds().last().unwrap_or(&0) as usize;
        let (offsets, targets, ghost_ids) = with_ghosts(local, n)?;
        let ranges = ranges_of(&ghost_ids, partition);
        let p = partition.parts() as u32;
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
        let by_owner = dev.alloc_of::<u32>(ranges.len())?;
        dev.upload_of(&by_owner, 0, &ranges)?;
        let b = Buffers {
            dist: dev.alloc_of::<u64>(n)?,
            stamp: dev.alloc_of::<u32>(n)?,
            far_flag: dev.alloc_of::<u32>(owned)?,
            near: [dev.alloc_of::<u32>(owned)?, dev.alloc_of::<u32>(owned)?],
            far: [dev.alloc_of::<u32>(owned)?, dev.alloc_of::<u32>(owned)?],
            wide: [dev.alloc_of::<u32>(owned)?, dev.alloc_of::<u32>(owned)?],
            ghosts: dev.alloc_of::<u32>(ghosts)?,
            outbox: dev.alloc_of::<u64>(ghosts)?,
            inbox: None,
            lens: dev.alloc_of::<u32>(rank_lens(p))?,
            cells: dev.alloc_of::<u64>(RANK_CELLS)?,
            ghost_ids: ids,
            ranges: by_owner,
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
            wide: [b.wide[0].ptr(), b.wide[1].ptr()],
            ghosts: b.ghosts.ptr(),
            ghost_ids: b.ghost_ids.ptr(),
            inbox: std::ptr::null(),
            outbox: b.outbox.ptr(),
            ranges: b.ranges.ptr(),
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
            ranks: p,
            wide_arcs: RANK_WIDE_ARCS,
            wide_team: if dev.facts().gpu { RANK_WIDE_TEAM } else { 1 },
            _pad: 0,
        };
        Ok(DeviceSlice { b, args, ranges })
    }

    /// This rank's ghosts by owner (`ranks` counts, its own 0): the most items one round can
    /// send each rank.
    pub(crate) fn ghosts_by_owner(&self) -> Vec<u64> {
        self.ranges.windows(2).map(|w| (w[1] - w[0]) as u64).collect()
    }
}

/// One solve on a rank's [`DeviceSlice`], driven by the round loop (`super::run_rounds`).
pub(crate) struct DeviceStep<'a> {
    dev: &'a dyn Device,
    slice: &'a mut DeviceSlice,
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
    /// Each rank's range of the outbox that the last relaxation filled.
    sends: Vec<std::ops::Range<usize>>,
    /// Items the last exchange brought.
    got: usize,
}

impl<'a> DeviceStep<'a> {
    /// A solve of `params` on rank `me`'s slice, loaded on `dev`, whose inbox gets room for
    /// `inbox` items (kept between solves): one [`RankReset`] launch (the source queued if
    /// this rank owns it).
    pub(crate) fn new(
        dev: &'a dyn Device,
        slice: &'a mut DeviceSlice,
        partition: &Partition,
        me: usize,
        params: Params,
        inbox: usize,
    ) -> Result<Self> {
        if slice.ranges.len() != partition.parts() + 1 {
            return Err(Error::InvalidArgument(format!(
                "a slice loaded for {} ranks solved on {}",
                slice.ranges.len() - 1,
                partition.parts()
            )));
        }
        super::comm::room(dev, &mut slice.b.inbox, inbox)?;
        let mut args = slice.args;
        args.csr.metric = params.metric.code();
        args.delta = params.delta;
        args.cutoff = params.cutoff;
        args.hub_arcs = params.hub_arcs;
        args.wide_arcs = params.wide_arcs;
        args.zero = params.metric.zero();
        args.source = if partition.owner(params.source) == me { params.source - args.first } else { u32::MAX };
        let mut step = DeviceStep {
            dev,
            slice,
            me,
            args,
            round: 1,
            near_bucket: bucket(params.metric, args.zero, params.delta),
            cur: NONE,
            lens: None,
            sends: Vec::new(),
            got: 0,
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
        // `< csr.n`; the apply kernel skips (and counts) an inbox item for a vertex this rank
        // does not own; the pack kernel writes within the owners' ranges of the outbox.
        unsafe { self.dev.run::<K>(self.args, items) }
    }

    /// The length cells, after everything queued so far.
    fn lens(&mut self) -> Result<&[u32]> {
        if self.lens.is_none() {
            self.lens = Some(self.dev.download_of::<u32>(&self.slice.b.lens, 0, rank_lens(self.args.ranks))?);
        }
        Ok(self.lens.as_deref().expect("read above"))
    }

    /// Threads of a launch over a queue whose length only the device knows.
    fn full(&self) -> u64 {
        self.dev.facts().threads as u64
    }
}

impl DeviceStep<'_> {
    /// Relax bucket `cur`'s waiting vertices and pack the ghosts they lowered: returns each
    /// rank's range of this round's items in the outbox.
    fn relax_and_pack(&mut self, cur: u32) -> Result<Vec<std::ops::Range<usize>>> {
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
        self.near_bucket = cur;
        self.round = r + 1;
        let (me, p) = (self.me, self.args.ranks as usize);
        let side = (r % 2) as usize;
        self.lens()?;
        let (lens, ranges) = (self.lens.as_deref().expect("read above"), &self.slice.ranges);
        let ghosts = ranges[p];
        let (sent, counts) = (lens[L_GHOSTS + side], &lens[counts_at(side, p as u32)..][..p]);
        // Each range filled within its owner's ghosts, and the counts add up to the queue.
        let sends: Vec<_> = (0..p).map(|d| ranges[d] as usize..ranges[d] as usize + counts[d] as usize).collect();
        let packed: u64 = counts.iter().map(|&c| c as u64).sum();
        if packed != sent as u64 || sends.iter().zip(&ranges[1..]).any(|(s, &end)| s.end > end as usize) {
            return Err(Error::Communication(format!(
                "rank {me} queued {sent} of {ghosts} ghosts and packed {counts:?} into ranges {ranges:?}"
            )));
        }
        Ok(sends)
    }

    /// Apply the `count` items that arrived in the inbox buffer.
    fn apply_inbox(&mut self, count: usize) -> Result<()> {
        if count == 0 {
            return Ok(());
        }
        self.args.inbox = self.slice.b.inbox.as_ref().expect("an exchange that delivered items made the inbox").ptr();
        self.args.count = count as u32;
        self.launch::<RankApply>(count as u64)
    }
}

impl LocalStep for DeviceStep<'_> {
    /// Relax and pack on the device; the items go from the outbox's ranges into the inbox
    /// buffer ([`Communicator::exchange_on_device`]: device to device on NCCL ranks) and are
    /// applied there: only the length cells and the per-destination counts cross to the host.
    fn relax(&mut self, cur: u32) -> Result<()> {
        self.sends = self.relax_and_pack(cur)?;
        Ok(())
    }

    fn exchange<C: Communicator>(&mut self, comm: &mut C, send: bool, stats: &mut RankStats) -> Result<()> {
        let p = self.args.ranks as usize;
        if !send || self.sends.len() != p {
            self.sends = vec![0..0; p];
        }
        stats.items_sent += self.sends.iter().map(|s| s.len() as u64).sum::<u64>();
        let b = &mut self.slice.b;
        let got = comm.exchange_on_device(self.dev, &b.outbox, &std::mem::take(&mut self.sends), &mut b.inbox)?;
        if got > u32::MAX as usize {
            return Err(Error::Communication(format!("rank {} received {got} items in one round", self.me)));
        }
        stats.items_received += got as u64;
        self.got = got;
        Ok(())
    }

    fn apply(&mut self) -> Result<()> {
        let got = std::mem::take(&mut self.got);
        self.apply_inbox(got)
    }

    fn lowest(&mut self) -> Result<u32> {
        let side = (self.round % 2) as usize;
        let far_side = self.args.far_side as usize;
        let (near, far) = {
            let lens = self.lens()?;
            (lens[L_NEAR + side] + lens[L_HUBS + side] + lens[L_WIDE + side], lens[L_FAR + far_side])
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
        if cells[C_FOREIGN] > 0 {
            return Err(Error::Communication(format!(
                "rank {} received {} candidate(s) for vertices it does not own",
                self.me, cells[C_FOREIGN]
            )));
        }
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
    use crate::device::cpu::CpuDevice;
    use crate::graph::Graph;

    #[test]
    fn a_round_packs_each_owners_items_into_its_range_and_foreign_items_fail_the_solve() {
        // Three ranks own 0..2, 2..4, 4..6; rank 1's arcs reach 0, 1 (rank 0) and 5 (rank 2).
        let g = Graph::from_arcs(6, &[(2, 5, 4), (2, 0, 1), (3, 1, 2), (2, 3, 1)]).unwrap();
        let partition = Partition::from_bounds(vec![0, 2, 4, 6], 6).unwrap();
        let local = LocalGraph::of(&g, g.unsigned_weights("test").unwrap(), 2..4).unwrap();
        let cpu = CpuDevice::new();
        let dev: &dyn Device = &cpu;
        let mut slice = DeviceSlice::load(dev, &local, &partition).unwrap();
        assert_eq!(slice.ranges, [0, 2, 2, 3], "ghosts 0, 1 are rank 0's, ghost 5 rank 2's");
        let params = Params::new(&g, 2, &super::super::DistOptions::default()).unwrap();
        assert_eq!(slice.ghosts_by_owner(), [2, 0, 1], "what rank 1 can send each rank in a round");
        let mut step = DeviceStep::new(dev, &mut slice, &partition, 1, params, 2).unwrap();
        let sends = step.relax_and_pack(0).unwrap();
        assert_eq!(sends, [0..1, 2..2, 2..3], "one item to rank 0 (vertex 0 at 1), one to rank 2");
        let outbox = dev.download_of::<u64>(&step.slice.b.outbox, 0, 3).unwrap();
        assert_eq!((outbox[0], outbox[2]), (1, 5 << 32 | 4));
        // An inbox item for vertex 0, which rank 1 does not own, is counted, not applied.
        let inbox = super::super::comm::room(dev, &mut step.slice.b.inbox, 2).unwrap();
        dev.upload_of(inbox, 0, &[3u64 << 32, 0]).unwrap();
        step.apply_inbox(2).unwrap();
        let e = step.finish();
        assert!(matches!(e, Err(Error::Communication(ref m)) if m.contains("1 candidate(s)")), "{:?}", e.err());
    }

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
