//! What both engines share for the settle loop of parallel Dijkstra ([`super::Engine::settle`],
//! `sssp_kernels::settle`): the run's description, the extra buffers' addresses and sizes, and
//! the host-built reverse graph of the pull variant.

use sssp_kernels::{Balance, Csr, Rule, SettleArgs};

use super::Layout;
use crate::error::Result;
use crate::graph::Graph;
use crate::mem::try_vec;

/// One run of the settle loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SettleSpec {
    /// Which candidates a step may settle.
    pub rule: Rule,
    /// Relax by pulling over the reverse graph (Martín's predecessor variant) instead of
    /// pushing along the frontier's out-arcs.
    pub pull: bool,
    /// How a push step spreads the frontier's arcs over threads: `Partition` (a degree scan
    /// and equal arcs per warp) or dynamic virtual warps (the other two).
    pub balance: Balance,
    /// Push steps relax through the edge classes (as `engine::Advance::classify`; the pull
    /// variant ignores it: it has no atomics to save, and every unsettled vertex scans all its
    /// in-arcs anyway). A run that classifies ends with `Engine::relax_deferred`.
    pub classify: bool,
}

/// Addresses of the settle loop's buffers in one engine (device or host), beside its
/// [`Layout`]. Allocated on the first settle run; the reverse graph on the first pull run.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SettleLayout {
    /// `n` least out-weights, `n` least in-weights.
    pub min_out: *mut u32,
    pub min_in: *mut u32,
    /// The frontier and the two candidate lists, `n` items each.
    pub frontier: *mut u32,
    pub cand: [*mut u32; 2],
    /// `NUM_CELLS` cells of its own (lengths, barrier, done flag).
    pub cells: *mut u32,
    /// GPU: two `u64` per block of the loop's grid; null on the CPU.
    pub mins: *mut u64,
    /// The reverse graph (null pointers until a pull run uploaded it).
    pub rev: Csr,
    /// The least arc weight of the graph (`INF` with no arcs).
    pub min_weight: u32,
}

impl SettleLayout {
    /// The loop's parameters for `spec` from `source`.
    pub fn args(&self, lay: &Layout, spec: &SettleSpec, source: u32) -> SettleArgs {
        SettleArgs {
            csr: lay.csr,
            rev: self.rev,
            dist: lay.dist,
            min_out: self.min_out,
            min_in: self.min_in,
            frontier: self.frontier,
            cand: self.cand,
            cells: self.cells,
            mins: self.mins,
            counters: lay.counters,
            prefix: lay.prefix,
            balance: spec.balance as u32,
            _pad: 0,
            rule: spec.rule as u32,
            pull: spec.pull as u32,
            source,
            min_weight: self.min_weight,
        }
    }
}

/// A null [`Csr`] (the reverse graph before a pull run needs it).
pub(crate) fn no_csr(n: u32) -> Csr {
    Csr {
        offsets: std::ptr::null(),
        targets: std::ptr::null(),
        weights: std::ptr::null(),
        n,
        lane_bits: 0,
        metric: 0,
        head_mask: u32::MAX,
        _pad: 0,
    }
}

/// Bytes of the settle buffers (five vertex arrays and the cells) on a device.
pub(crate) fn settle_bytes(n: u64, blocks: u64) -> u64 {
    5 * 4 * n.max(1) + 4 * sssp_kernels::NUM_CELLS as u64 + 16 * blocks
}

/// Bytes of the reverse graph on a device.
pub(crate) fn reverse_bytes(n: u64, m: u64) -> u64 {
    super::graph_bytes(n, m)
}

/// The least weight of `weights` (`INF` if there is none): the economic variant's
/// `Delta_base` (Ortega-Arranz et al. §IV-C).
pub(crate) fn min_weight(weights: &[u32]) -> u32 {
    weights.iter().copied().min().unwrap_or(sssp_kernels::INF)
}

/// The reverse graph of `g` as CSR arrays (offsets, tails, weights): a counting sort of the arcs
/// by head, keeping every arc (self loops and parallel arcs included). Fallible allocations.
pub(crate) fn reverse_csr(g: &Graph, weights: &[u32]) -> Result<(Vec<u64>, Vec<u32>, Vec<u32>)> {
    let (n, m) = (g.num_vertices(), g.num_arcs());
    let mut offsets = try_vec(n + 1, 0u64)?;
    for &v in g.targets() {
        offsets[v as usize + 1] += 1;
    }
    for v in 0..n {
        offsets[v + 1] += offsets[v];
    }
    let mut next = try_vec(n, 0u64)?;
    next.copy_from_slice(&offsets[..n]);
    let (mut tails, mut ws) = (try_vec(m.max(1), 0u32)?, try_vec(m.max(1), 0u32)?);
    for u in 0..n as u32 {
        for e in g.arc_range(u) {
            let v = g.targets()[e] as usize;
            let at = next[v] as usize;
            tails[at] = u;
            ws[at] = weights[e];
            next[v] += 1;
        }
    }
    Ok((offsets, tails, ws))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reverse_keeps_every_arc() {
        let g = Graph::from_arcs(3, &[(0, 1, 5), (0, 1, 2), (1, 1, 0), (2, 0, 7)]).unwrap();
        let w = g.unsigned_weights("test").unwrap().to_vec();
        let (off, tails, ws) = reverse_csr(&g, &w).unwrap();
        assert_eq!(off, vec![0, 1, 4, 4]);
        assert_eq!(tails, vec![2, 0, 0, 1]);
        assert_eq!(ws, vec![7, 5, 2, 0]);
        assert_eq!(min_weight(&w), 0);
    }
}
