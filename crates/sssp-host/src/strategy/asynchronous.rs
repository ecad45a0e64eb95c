//! Asynchronous delta-stepping (`--algo async`), after the idea of ADDS (Wang,
//! Fussell and Lin, PPoPP'21): one launch, no barrier between priority levels.
//!
//! Every bulk-synchronous strategy pays a grid barrier (or a host round trip) per iteration and
//! a chain of dependent memory round trips per hop; on a road graph of a few hundred thousand
//! vertices that is 1,100-1,700 iterations whose barriers cost more than their work. Here the
//! worklist itself orders the work: the GPU's warps (the CPU's threads) each take up to a warp's
//! worth of vertices from the lowest non-empty of 32 delta-wide buckets, expand them, and push
//! what they lower into the bucket of its new distance, without waiting for each other. Hubs
//! are cut into chunks of arcs that any worker takes. The protocol, its exactness and its
//! termination argument are in `sssp_kernels::worklist`.
//!
//! Queries: cutoff and target work (a candidate beyond the cutoff, or beyond the target's
//! distance so far, is not pushed: the target's distance only falls, so nothing dropped could
//! reach it or any vertex as near); trees are built on the host from the distances. Refused with
//! a typed error: negative weights (a label-correcting run would not end on a negative cycle,
//! and buckets need an order; `check_metric`) and batched lanes (one solve per engine).
//! Without a barrier there are no iterations: `--trace` records nothing, and the stats'
//! `iterations` is 0; `vertices_processed` counts expanded items (hub chunks one each).
//!
//! Memory on the device: `4 n` bytes of flags, `32 x 4 n'` of bucket rings (`n'`: `n` rounded
//! up to a power of two: every ring can hold every vertex, which is what keeps a push from ever
//! waiting on a full ring), and the chunk ring. Kept between solves in the engine's extras; the
//! memory-fit check refuses it like any other allocation.

use std::time::Instant;

use sssp_kernels::entry::{AsyncRun, AsyncSeed};
use sssp_kernels::worklist::{aq_ctl_cells, AsyncArgs, AQ_BUCKETS, AQ_CHUNK};

use super::{finish, Options, Solution, Stats};
use crate::device::{Buffer, Device};
use crate::engine::{one_lane, Engine};
use crate::error::Result;
use crate::graph::{Graph, Metric};

/// The worklist's buffers on an engine's device: a problem object, kept in the engine's extras
/// between solves (a finished run leaves every ring cell and flag empty, so a solve only resets
/// the counters).
pub struct Worklist {
    queued: Buffer,
    slots: Buffer,
    chunks: Buffer,
    ctl: Buffer,
    cap_bits: u32,
    chunk_bits: u32,
}

impl Worklist {
    /// The buffers for a graph of `n` vertex ids and `m` arcs on `dev`.
    pub fn new(dev: &dyn Device, n: u32, m: u64) -> Result<Self> {
        let cap_bits = n.max(2).next_power_of_two().trailing_zeros();
        // Room for every chunk of a few hubs at once; a split that finds no room is expanded
        // by its warp instead, so this bounds memory, not correctness.
        let chunk_bits = (m / AQ_CHUNK).clamp(1 << 10, 1 << 22).next_power_of_two().trailing_zeros();
        Ok(Worklist {
            queued: dev.alloc_of::<u32>(n as usize)?,
            slots: dev.alloc_of::<u32>((AQ_BUCKETS as usize) << cap_bits)?,
            chunks: dev.alloc_of::<u64>(1 << chunk_bits)?,
            ctl: dev.alloc_of::<u32>(aq_ctl_cells(AQ_BUCKETS))?,
            cap_bits,
            chunk_bits,
        })
    }
}

/// The asynchronous strategy's parameters ([`super::Strategy::Async`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Async {
    /// Bucket width in the weights' own terms ([`super::Width`]); `None`:
    /// the heuristic ([`super::heuristic_delta`]).
    pub delta: Option<super::Width>,
    /// Workers: warps on a GPU, threads on the CPU; 0: two warps per SM, or the pool.
    pub workers: u32,
}

impl Async {
    pub(crate) fn apply(&self, o: &mut Options) {
        (o.delta, o.workers) = (self.delta, self.workers);
    }
}

/// Solve from `source` on `eng` (which holds `g`). See the module doc.
pub fn asynchronous(g: &Graph, eng: &mut dyn Engine, source: u32, opts: &Options) -> Result<Solution> {
    one_lane(eng.lanes(), "async")?;
    let delta = opts.delta_for(g)?;
    let wl = match eng.extras().take::<Worklist>() {
        Some(wl) => wl,
        None => Worklist::new(eng.device(), eng.resident().csr.n, g.num_arcs() as u64)?,
    };
    let res = eng.resident();
    let args = AsyncArgs {
        csr: res.csr,
        dist: res.dist,
        counters: res.counters,
        queued: wl.queued.ptr(),
        slots: wl.slots.ptr(),
        chunks: wl.chunks.ptr(),
        ctl: wl.ctl.ptr(),
        delta,
        nbuckets: AQ_BUCKETS,
        cap_bits: wl.cap_bits,
        chunk_bits: wl.chunk_bits,
        cutoff: opts.device_cutoff(),
        target: opts.target.unwrap_or(u32::MAX),
        source,
        real: (g.metric() == Metric::Real) as u32,
    };
    let threads = match opts.workers {
        // Two warps per SM (a 32nd of the grid-stride grid's threads, which is 8 blocks of 256
        // per SM): 264 on the H100, the fastest count measured on NY, road 1M and kron 16-18
        // (more workers contend for the buckets' counters: kron 16 3.1 ms with 264, 4.6 with
        // 1056; docs/gpu.md). The CPU: its grid (the pool runs as many at once as it has
        // threads).
        0 if eng.is_gpu() => eng.device().facts().threads / 32,
        0 => eng.device().facts().threads,
        w if eng.is_gpu() => w.saturating_mul(32),
        w => w,
    };
    let started = Instant::now();
    eng.init(&[source])?;
    let dev = eng.device();
    // SAFETY: every address is a live buffer of this device of the size `AsyncArgs` documents:
    // the engine's graph, distances and counters, and the worklist made for its `n` and `m`.
    unsafe {
        dev.run::<AsyncSeed>(args, aq_ctl_cells(AQ_BUCKETS) as u64)?;
        dev.run::<AsyncRun>(args, threads as u64)?;
    }
    let sol = finish(g, eng, Stats::default(), started, opts.target)?;
    eng.extras().put(wl);
    Ok(sol)
}
