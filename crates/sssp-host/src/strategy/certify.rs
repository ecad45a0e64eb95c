//! The shortest-path certificate on the engine: the conditions of
//! [`crate::verify`] checked by kernels (`sssp_kernels::certify`) on the distances a run left
//! resident, so that a result is certified where it was computed, in parallel, without a copy:
//! on the GPU, or by the same kernel bodies over rayon on the CPU backend.
//!
//! [`resident`] is the problem object's one step: condition 2 in one load-balanced pass over the
//! arcs, condition 1 and the traversal's level 0 from the sources, then the traversal over tight
//! arcs one level per launch (a 16-byte read-back per level decides whether to go on), then
//! condition 3's count. Its level and two queues per vertex are the engine's idle vertex buffers
//! ([`crate::engine::Resident::spare`]: the frontier queues and the lookup table, which hold
//! nothing once a run is over), so a certified run peaks where an uncertified one does; its few
//! cells are allocated on the engine's device and kept in the engine's
//! [`Extras`](crate::engine::Extras), so the trials of a benchmark allocate once.
//!
//! The device counts violations; it does not write the messages. When the count is not zero,
//! the host downloads the distances and runs its own certificate, which counts the same
//! violations (one per arc, per source, per unreached vertex) and lists the first ones in vertex
//! order, so a failure reads the same whichever certificate ran. A count the host does not
//! confirm is reported as a fault of the device.
//!
//! `certify_result` is what the strategies call when [`Options::certify`] asks: the device
//! certificate when the result's distances are resident (an engine algorithm ran), the host's
//! otherwise, or when the engine has no memory left for the traversal.

use std::time::Instant;

use sssp_kernels::certify::{CertArgs, CERT_CELLS, CERT_LENS};
use sssp_kernels::entry::{CertArcs, CertExpand, CertReached, CertSeed};
use sssp_kernels::{Metric, INF, NO_CUTOFF};

use super::{to_dist, Certify, Options, Solution};
use crate::device::Buffer;
use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::graph::Graph;
use crate::reference::check_source;
use crate::{Dist, UNREACHED};

/// Where a result was certified ([`super::Stats::certified`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Certified {
    /// By the certificate's kernels on the engine that computed it ([`resident`]).
    Device,
    /// By [`crate::verify`] on the host's threads.
    Host,
}

impl Certified {
    /// `device` or `host`.
    pub fn name(self) -> &'static str {
        match self {
            Certified::Device => "device",
            Certified::Host => "host",
        }
    }
}

/// The traversal's cells on an engine's device, kept between calls in its extras.
struct Cells {
    /// Three sets of `CERT_LENS` length cells.
    lens: Buffer,
    cells: Buffer,
}

impl Cells {
    fn new(eng: &dyn Engine) -> Result<Self> {
        let dev = eng.device();
        Ok(Cells { lens: dev.alloc_of::<u32>(3 * CERT_LENS)?, cells: dev.alloc_of::<u64>(CERT_CELLS)? })
    }
}

/// The traversal's buffers: a level and two queues of `n` entries, the engine's idle vertex
/// buffers ([`crate::engine::Resident::spare`]: they hold nothing between runs, and the
/// certificate runs after one), and the kept cells.
struct Scratch<'c> {
    n: u32,
    level: Buffer,
    queues: [Buffer; 2],
    cells: &'c Cells,
}

impl<'c> Scratch<'c> {
    fn borrow(eng: &dyn Engine, n: u32, cells: &'c Cells) -> Self {
        let spare = eng.resident().spare;
        let meter = eng.device().meter();
        // SAFETY: the engine's buffers live as long as it, and hold `csr.n >= n` entries each;
        // nothing of the engine runs until the certificate returns (it holds the engine).
        let view = |p: *mut u32| unsafe { Buffer::borrowed(p as u64, 4 * n as u64, meter) };
        Scratch { n, level: view(spare[0]), queues: [view(spare[1]), view(spare[2])], cells }
    }
}

/// A bound on distances as the engines' cell (`NO_CUTOFF`: none, or one no cell exceeds).
fn bound_cell(metric: Metric, bound: Option<Dist>) -> u32 {
    let Some(b) = bound else { return NO_CUTOFF };
    match metric {
        Metric::Integer => u32::try_from(b).unwrap_or(NO_CUTOFF),
        Metric::Signed if b >= i32::MAX as Dist => NO_CUTOFF,
        Metric::Signed => Metric::encode_signed(b.max(i32::MIN as Dist) as i32),
        Metric::Real => b as u32,
    }
}

/// Certify on `eng` the distances its last run left resident in lane `lane` (0 for an engine
/// of one lane) as the shortest distances from the nearest of `roots` in `g` (the graph the
/// engine holds), within `bound` when given (the answer to a cutoff or target query: distances
/// above it read as unreached, see [`crate::verify::check_within`]). Nothing is downloaded
/// unless a violation is found.
///
/// Preconditions: the engine's last run is the one to certify and is over (the resident
/// distances are whatever the last run left; its frontier queues are the traversal's, so a run
/// driven step by step cannot go on after it). Errors: [`Error::Verification`] as from
/// [`crate::verify::check_nearest_within`] (the same message, built by the host from the
/// downloaded distances), [`Error::VertexOutOfRange`] for a root, [`Error::InvalidArgument`]
/// for no root, a lane the engine lacks or another graph; the device's errors. Cost: O(m) arcs
/// checked, plus one launch and a read-back per level of the tight-arc traversal (its depth is
/// the largest number of arcs on a shortest path).
///
/// # Examples
///
/// ```
/// use sssp::engine::{self, DeviceKind};
/// use sssp::graph::Graph;
/// use sssp::strategy::{certify, solve, Algo, Options};
///
/// let g = Graph::from_arcs(3, &[(0, 1, 4), (0, 2, 1), (2, 1, 2)])?;
/// let mut eng = engine::open(&g, DeviceKind::Cpu)?;
/// let sol = solve(&g, Algo::Workfront, Some(eng.as_mut()), 0, &Options::default())?;
/// assert_eq!(sol.dist, vec![0, 3, 1]);
/// certify::resident(eng.as_mut(), &g, &[0], 0, None)?; // checked where it was computed
/// # Ok::<(), sssp::Error>(())
/// ```
pub fn resident(eng: &mut dyn Engine, g: &Graph, roots: &[u32], lane: u32, bound: Option<Dist>) -> Result<()> {
    check_args(eng, g, roots)?;
    if lane >= eng.lanes() {
        return Err(Error::InvalidArgument(format!("lane {lane} of an engine with {} lanes", eng.lanes())));
    }
    let r = eng.resident();
    let total = counted(eng, g, roots, Target { csr: r.csr, dist: r.dist, lane, strict: false }, bound)?;
    if total == 0 {
        return Ok(());
    }
    // The report, as the host's certificate words it, from the clipped distances of the lane.
    let raw = eng.distances()?;
    let lanes = eng.lanes() as usize;
    let mut dist = crate::mem::try_vec(g.num_vertices(), UNREACHED)?;
    for (v, d) in dist.iter_mut().enumerate() {
        *d = to_dist(g.metric(), raw[v * lanes + lane as usize]);
        if bound.is_some_and(|b| *d != UNREACHED && *d > b) {
            *d = UNREACHED;
        }
    }
    report(eng, g, roots, &dist, bound, total)
}

/// Certify the distance vector `dist` (as [`crate::verify::check_nearest_within`] takes it)
/// with [`resident`]'s kernels on `eng`'s device: copied there first (8 bytes per vertex, fit
/// checked), so any result, a host algorithm's included, can be certified on a GPU; the tests
/// plant wrong vectors this way. Errors: as [`resident`], and [`Error::InvalidArgument`] for a
/// distance the engines cannot hold (beyond their 32-bit cells).
pub fn vector(eng: &mut dyn Engine, g: &Graph, roots: &[u32], dist: &[Dist], bound: Option<Dist>) -> Result<()> {
    check_args(eng, g, roots)?;
    let n = g.num_vertices();
    if dist.len() != n {
        return Err(Error::Verification(format!(
            "the distance vector has {} entries but the graph has {n} vertices",
            dist.len()
        )));
    }
    let metric = g.metric();
    let mut words = crate::mem::try_vec(n, 0u64)?;
    for (w, &d) in words.iter_mut().zip(dist) {
        let cell = to_cell(metric, d)
            .ok_or_else(|| Error::InvalidArgument(format!("distance {d} does not fit the engines' cells")))?;
        *w = sssp_kernels::pack(cell, 0);
    }
    let buf = eng.device().alloc_of::<u64>(n)?;
    eng.device().upload_of(&buf, 0, &words)?;
    // One lane: the engine's graph as one solve sees it.
    let mut csr = eng.resident().csr;
    csr.n = n as u32;
    csr.lane_bits = 0;
    let total = counted(eng, g, roots, Target { csr, dist: buf.ptr(), lane: 0, strict: true }, bound)?;
    drop(buf);
    if total == 0 {
        return Ok(());
    }
    report(eng, g, roots, dist, bound, total)
}

/// A distance as the engines' cell, `None` when it does not fit one.
fn to_cell(metric: Metric, d: Dist) -> Option<u32> {
    if d == UNREACHED {
        return Some(INF);
    }
    match metric {
        Metric::Integer | Metric::Real => u32::try_from(d).ok().filter(|&c| c != INF),
        Metric::Signed => i32::try_from(d).ok().filter(|&c| c != i32::MAX).map(Metric::encode_signed),
    }
}

/// The common checks of [`resident`] and [`vector`].
fn check_args(eng: &dyn Engine, g: &Graph, roots: &[u32]) -> Result<()> {
    if roots.is_empty() {
        return Err(Error::InvalidArgument("a certificate needs at least one source".into()));
    }
    for &s in roots {
        check_source(g, s)?;
    }
    let n = eng.graph_vertices();
    if n as usize != g.num_vertices() || g.metric() != eng.resident().csr.metric() {
        return Err(Error::InvalidArgument(format!(
            "the engine holds a graph of {n} vertices; this one has {}",
            g.num_vertices()
        )));
    }
    if u32::try_from(roots.len()).is_err() {
        return Err(Error::InvalidArgument(format!("{} sources for a certificate", roots.len())));
    }
    Ok(())
}

/// The distances a certificate reads: the array, the graph as its ids see it, which lane, and
/// whether values above the bound are violations ([`CertArgs::strict`]).
struct Target {
    csr: sssp_kernels::Csr,
    dist: *mut u64,
    lane: u32,
    strict: bool,
}

/// Run the kernels on `t` with the engine's kept buffers; the violations counted.
fn counted(eng: &mut dyn Engine, g: &Graph, roots: &[u32], t: Target, bound: Option<Dist>) -> Result<u64> {
    let n = g.num_vertices() as u32;
    let cells = match eng.extras().take::<Cells>() {
        Some(c) => c,
        None => Cells::new(&*eng)?,
    };
    let scratch = Scratch::borrow(&*eng, n, &cells);
    let total = run(&*eng, &scratch, roots, g.num_arcs() as u64, &t, bound_cell(g.metric(), bound));
    drop(scratch);
    eng.extras().put(cells);
    total
}

/// A count of `total` violations: the host's certificate of `dist` words them (the same count,
/// listed in vertex order); if it finds none, the device is at fault.
fn report(eng: &dyn Engine, g: &Graph, roots: &[u32], dist: &[Dist], bound: Option<Dist>, total: u64) -> Result<()> {
    crate::verify::check_nearest_within(g, roots, dist, bound)?;
    Err(Error::Verification(format!(
        "the certificate on {} counted {total} violations that the host's certificate does not find: a device fault",
        eng.device()
    )))
}

/// The passes of [`resident`] on `s`; returns the violations counted.
fn run(eng: &dyn Engine, s: &Scratch, roots: &[u32], m: u64, t: &Target, bound: u32) -> Result<u64> {
    let count = roots.len() as u32;
    let dev = eng.device();
    dev.zero(&s.level)?;
    dev.zero(&s.cells.lens)?;
    dev.zero(&s.cells.cells)?;
    let sources = dev.alloc_of::<u32>(roots.len())?;
    dev.upload_of(&sources, 0, roots)?;
    let mut a = CertArgs {
        csr: t.csr,
        dist: t.dist,
        level: s.level.ptr(),
        queue: [s.queues[0].ptr(), s.queues[1].ptr()],
        lens: s.cells.lens.ptr(),
        cells: s.cells.cells.ptr(),
        roots: sources.ptr(),
        count,
        depth: 0,
        bound,
        lane: t.lane,
        // A warp per vertex on the GPU (its lanes read neighbouring arcs); a CPU thread walks
        // a vertex's arcs alone.
        team: if dev.facts().gpu { 32 } else { 1 },
        strict: t.strict as u32,
    };
    let n = s.n as u64;
    // SAFETY: the resident graph (n + 1 offsets of one lane, m arcs) and the target's
    // distances (`csr.n` ids: every lane's, or the uploaded vector's n); level and both queues have n entries, lens 3 * CERT_LENS, cells CERT_CELLS,
    // all zeroed above (queues need no zeroing: only their first `len` and last `hubs` slots
    // are read, and each level writes those before); roots has `count` ids < n (checked);
    // levels and lengths change only through atomics.
    unsafe {
        dev.run::<CertArcs>(a, m.max(1))?;
        dev.run::<CertSeed>(a, count as u64)?;
    }
    // Level 0 holds the distinct sources; each level then costs one launch and one read-back.
    let first = dev.download_of::<u32>(&s.cells.lens, 0, CERT_LENS)?;
    let (mut len, mut hubs) = (first[0] as u64, first[1] as u64);
    loop {
        // Hubs are shared by the whole grid: size it to their arcs' scale.
        let items = (len * a.team as u64).max(if hubs > 0 { m } else { 1 });
        // SAFETY: as above; `depth`'s queue and lengths were written by the launch before.
        unsafe { dev.run::<CertExpand>(a, items)? };
        let next = ((a.depth + 1) % 3) as usize * CERT_LENS;
        let cells = dev.download_of::<u32>(&s.cells.lens, next, CERT_LENS)?;
        (len, hubs) = (cells[0] as u64, cells[1] as u64);
        if len + hubs == 0 {
            break;
        }
        a.depth += 1;
        if a.depth as u64 > n {
            // Every level claims a vertex never claimed before.
            return Err(Error::Verification(format!(
                "the certificate's traversal outlived {n} levels: a fault on {}",
                dev
            )));
        }
    }
    // SAFETY: as above.
    unsafe { dev.run::<CertReached>(a, n)? };
    let cells = dev.download_of::<u64>(&s.cells.cells, 0, CERT_CELLS)?;
    Ok(cells.iter().sum())
}

/// Arcs below which an even-degree graph is certified on the host even after a GPU run.
pub const HOST_CERTIFY_ARCS: usize = 1 << 23;

/// Whether the host's certificate beats the device's: on a GPU, for even-degree graphs (roads,
/// meshes) of fewer than [`HOST_CERTIFY_ARCS`] arcs. Their tight-arc traversal has a level per
/// few arcs of path, and each level is a launch and a read-back (about 13 us on the H100): NY,
/// 1,200-1,500 levels, certifies in 27-35 ms on the H100 and in 20-26 ms on its host's 16
/// threads, where kron 24 takes 56 ms against 6.7 s (docs/gpu.md, "The certificate on the
/// device").
pub fn host_is_faster(g: &Graph, gpu: bool) -> bool {
    gpu && g.num_arcs() < HOST_CERTIFY_ARCS && !super::auto::is_skewed(g)
}

/// Certify `sol` as [`Options::certify`] asks, from `roots` (its sources), within the
/// query's bound: on `eng`, lane `lane`, when `resident` says its distances are there (an
/// engine run computed them) and the engine has the memory for it, else on the host. Records
/// where and how long in `sol.stats`. Errors: the certificate's.
pub(crate) fn certify_result(
    g: &Graph,
    eng: Option<&mut dyn Engine>,
    resident_here: bool,
    roots: &[u32],
    lane: u32,
    sol: &mut Solution,
    opts: &Options,
) -> Result<()> {
    if opts.certify == Certify::Off {
        return Ok(());
    }
    let t = Instant::now();
    let bound = opts.query_bound(&sol.dist);
    let on_device = match eng {
        Some(e)
            if resident_here
                && (opts.certify == Certify::Device
                    || (opts.certify == Certify::Auto && !host_is_faster(g, e.is_gpu()))) =>
        {
            match resident(e, g, roots, lane, bound) {
                Ok(()) => true,
                // No room for the traversal next to the graph: the host has it.
                Err(Error::OutOfDeviceMemory { .. } | Error::OutOfHostMemory { .. }) => false,
                Err(e) => return Err(e),
            }
        }
        _ => false,
    };
    if !on_device {
        crate::verify::check_nearest_within(g, roots, &sol.dist, bound)?;
    }
    sol.stats.certified = Some(if on_device { Certified::Device } else { Certified::Host });
    sol.stats.certify = t.elapsed();
    Ok(())
}
