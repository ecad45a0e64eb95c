//! Resident pieces (`--algo resident`): many hops per global round, for road networks and
//! meshes. The design, its invariants and why it is exact are in the kernels' module doc
//! (`sssp_kernels::resident`); this is the host's side: the pieces' state on the engine's
//! device (a problem object kept between solves), one launch on the GPU (without barriers when
//! every piece has a block of its own, else in rounds), and the same bodies in rounds over the
//! CPU's pool. Measurements and what is slow: docs/gpu.md, "Resident pieces".
//!
//! Pieces are ranges of consecutive vertex ids, so the input order decides how local they are
//! (road files are: 91-93% of NY's arcs stay inside pieces of 2-4k vertices; `--order bfs`
//! relabels a file that is not). On the GPU a piece is sized so that the pieces fill the SMs
//! once, up to `1 << MAX_PIECE_BITS` vertices (a block's shared memory); a larger graph gives
//! each block several pieces, visited in turn.
//!
//! Non-negative weights (integer or real); one source or several (their nearest); cutoff and
//! target queries stop early (the target when its bucket is final). One lane.

use std::time::Instant;

use rayon::prelude::*;
use sssp_kernels::entry::{ResidentAsync, ResidentLoop};
use sssp_kernels::resident::{self as rk, Local, ResidentArgs, MAX_PIECE_BITS, R_CELLS};
use sssp_kernels::types::{INF, NO_TARGET};

use super::{finish, Options, Solution, Stats};
use crate::device::{Buffer, Device, GpuOnly};
use crate::engine::{one_lane, Engine};
use crate::error::{Error, Result};
use crate::graph::{Graph, Metric};

/// The resident strategy's parameters ([`super::Strategy::Resident`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Resident {
    /// Bucket width in the weights' own terms ([`super::Width`]); `None`:
    /// [`DELTA_SCALE`] times the heuristic ([`super::heuristic_delta`]).
    pub delta: Option<super::Width>,
    /// Log2 of the vertices per piece, 4 to [`MAX_PIECE_BITS`]; 0: sized to the device.
    pub piece_bits: u32,
}

impl Resident {
    pub(crate) fn apply(&self, o: &mut Options) {
        (o.delta, o.piece_bits) = (self.delta, self.piece_bits);
    }
}

/// The default bucket width, in heuristic widths. Wider buckets cut the rounds but add more
/// relaxations than they save time (one H200, NY: 10.4, 10.2 and 11.8 ms at 1x, 2x and 4x
/// without barriers; 15.7 ms at 2x and 27.2 at 128x in rounds; docs/gpu.md, "Resident pieces").
pub const DELTA_SCALE: u32 = 2;

/// The smallest piece (`1 << MIN_PIECE_BITS` vertices): smaller ones only add rounds.
pub const MIN_PIECE_BITS: u32 = 4;

/// The pieces' state on an engine's device, for one graph and piece size: per vertex its
/// `done` mark, per piece `own` and two inbox slots, and the control cells, in one buffer that
/// a solve zeroes with one memset. Kept in the engine's extras between solves.
pub(crate) struct Pieces {
    bits: u32,
    count: u32,
    n: u32,
    state: Buffer,
}

impl Pieces {
    fn new(dev: &dyn Device, n: u32, bits: u32) -> Result<Self> {
        let count = n.div_ceil(1 << bits).max(1);
        let words = R_CELLS + 3 * count as usize + n as usize;
        Ok(Pieces { bits, count, n, state: dev.alloc_of::<u32>(words)? })
    }

    /// Addresses of the cells, the pieces' words and the `done` marks.
    fn parts(&self) -> (*mut u32, *mut u32, *mut u32) {
        let base: *mut u32 = self.state.ptr();
        // Addresses only (the buffer holds them all); nothing is dereferenced here.
        let pieces = base.wrapping_add(R_CELLS);
        (base, pieces, pieces.wrapping_add(3 * self.count as usize))
    }
}

/// Log2 of the piece size for `n` vertices: `asked` when given, else on a GPU the size that
/// spreads the pieces over its multiprocessors once (capped by shared memory), on the CPU the
/// largest (a piece is one thread's task).
fn piece_bits(asked: u32, n: u32, gpu_units: Option<u32>) -> Result<u32> {
    if asked != 0 {
        if !(MIN_PIECE_BITS..=MAX_PIECE_BITS).contains(&asked) {
            return Err(Error::InvalidArgument(format!(
                "piece bits {asked}: expected {MIN_PIECE_BITS} to {MAX_PIECE_BITS} (pieces of 16 to 4096 vertices)"
            )));
        }
        return Ok(asked);
    }
    Ok(match gpu_units {
        Some(units) => {
            let per = n.div_ceil(units.max(1)).max(1).next_power_of_two();
            per.trailing_zeros().clamp(MIN_PIECE_BITS, MAX_PIECE_BITS)
        }
        None => MAX_PIECE_BITS,
    })
}

/// Solve from `sources` (their nearest) on `eng` (which holds `g`). See the module doc.
pub fn resident(g: &Graph, eng: &mut dyn Engine, sources: &[u32], opts: &Options) -> Result<Solution> {
    one_lane(eng.lanes(), "resident")?;
    // No source, no unit of work: the barrier-free kernel would wait for one for ever.
    if sources.is_empty() {
        return Err(Error::InvalidArgument("`resident` needs at least one source".into()));
    }
    for &s in sources {
        crate::reference::check_source(g, s)?;
    }
    if g.metric() == Metric::Signed {
        return Err(Error::InvalidArgument(
            "`resident` needs non-negative weights (its buckets settle in order); use bellman-ford or workfront".into(),
        ));
    }
    let delta = match opts.delta {
        Some(_) => opts.delta_for(g)?,
        None => super::scaled_delta(g, DELTA_SCALE as f64),
    };
    let n = eng.resident().csr.n;
    let units = eng.is_gpu().then(|| eng.device().facts().units);
    let bits = piece_bits(opts.piece_bits, n, units)?;
    let pieces = match eng.extras().take::<Pieces>() {
        Some(p) if p.bits == bits && p.n == n => p,
        other => {
            drop(other); // its bytes back to the budget before the new buffer's
            Pieces::new(eng.device(), n, bits)?
        }
    };
    let run = run(g, eng, &pieces, sources, delta, opts);
    eng.extras().put(pieces);
    let (mut sol, rounds) = run?;
    sol.stats.delta = Some(delta);
    sol.stats.iterations = rounds;
    Ok(sol)
}

/// One solve on prepared pieces: the state zeroed, the sources seeded, the rounds run; the
/// solution and the rounds it took.
fn run(
    g: &Graph,
    eng: &mut dyn Engine,
    p: &Pieces,
    sources: &[u32],
    delta: u32,
    opts: &Options,
) -> Result<(Solution, u32)> {
    let started = Instant::now();
    eng.init(sources)?;
    let dev = eng.device();
    dev.zero(&p.state)?;
    let (cells, words, done) = p.parts();
    let r = eng.resident();
    let mut a = ResidentArgs {
        csr: r.csr,
        dist: r.dist,
        done,
        pieces_state: words,
        cells,
        counters: r.counters,
        delta,
        cutoff: opts.device_cutoff(),
        target: opts.target.unwrap_or(NO_TARGET),
        piece_bits: p.bits,
        pieces: p.count,
        seed_piece: u32::MAX,
        // Each round either sends a lowering below the threshold or raises it past a pending
        // distance; far more than any run needs, so only a bug reaches it.
        max_rounds: (p.n as u64 * 4 + 1024).min(u32::MAX as u64) as u32,
        _pad: 0,
    };
    let seeded = match sources {
        [s] => {
            a.seed_piece = s >> p.bits;
            1
        }
        _ => seed_own(dev, p, sources)?,
    };
    let facts = dev.facts();
    if facts.gpu {
        // SAFETY: every address is a live buffer of this device of the size `ResidentArgs`
        // documents: the engine's graph, distances and counters, and `p`'s state made for its
        // `n` vertices and `count` pieces, zeroed above.
        unsafe {
            if p.count <= facts.units {
                // One piece per block (a block per SM): no grid barrier; the host counts a
                // unit of work for every seeded piece.
                dev.upload_of(&p.state, rk::A_WORK, &[seeded])?;
                dev.launch(&GpuOnly::<ResidentAsync>::new(a), 0)?
            } else {
                dev.launch(&GpuOnly::<ResidentLoop>::new(a), 0)?
            }
        };
    } else {
        on_host(&a)?;
    }
    let mut sol = finish(g, eng, Stats::default(), started, opts.target)?;
    let c: Vec<u32> = eng.device().download_of(&p.state, 0, R_CELLS)?;
    if c[rk::R_LIMIT] != 0 {
        return Err(Error::InvalidArgument(format!(
            "`resident` stopped after {} rounds without an answer",
            c[rk::R_ROUNDS]
        )));
    }
    sol.stats.vertices_processed = c[rk::R_VISITS] as u64;
    Ok((sol, c[rk::R_ROUNDS]))
}

/// Several sources: each one's piece starts with a pending distance of 0 (`own`, inverted).
/// Returns how many pieces that seeds.
fn seed_own(dev: &dyn Device, p: &Pieces, sources: &[u32]) -> Result<u32> {
    let mut own = vec![0u32; p.count as usize];
    for &s in sources {
        own[(s >> p.bits) as usize] = !0;
    }
    dev.upload_of(&p.state, R_CELLS, &own)?;
    Ok(own.iter().filter(|&&o| o != 0).count() as u32)
}

/// The CPU's rounds: the kernel's sequence with a rayon task per piece (one thread each) where
/// the GPU has a block, and a return from the parallel loop where it has a grid barrier.
fn on_host(a: &ResidentArgs) -> Result<()> {
    let mut thr = rk::threshold_above(a.csr.metric(), 0, a.delta);
    let mut r = 0u32;
    let (mut visits, mut arcs) = (0u64, 0u64);
    loop {
        // SAFETY: `a` holds the live host buffers `run` made; within a round every piece is
        // visited by one task, the cells and other pieces' words are touched by atomics only.
        unsafe { rk::clear_ahead(a, r) };
        let (pending, v, e) = (0..a.pieces)
            .into_par_iter()
            .map(|q| unsafe { visit(a, q, r, thr) })
            .reduce(|| (INF, 0, 0), |x, y| (x.0.min(y.0), x.1 + y.1, x.2 + y.2));
        visits += v;
        arcs += e;
        // SAFETY: as above.
        let next = unsafe {
            rk::report(a, r, pending);
            rk::next_threshold(a, r, thr)
        };
        r += 1;
        match next {
            Some(x) if r < a.max_rounds => thr = x,
            Some(_) => {
                // SAFETY: the cells are `a`'s.
                unsafe { *a.cells.add(rk::R_LIMIT) = 1 };
                break;
            }
            None => break,
        }
    }
    // SAFETY: the cells and counters are `a`'s, and nothing else runs now.
    unsafe {
        *a.cells.add(rk::R_ROUNDS) = r;
        *a.cells.add(rk::R_VISITS) = visits.min(u32::MAX as u64) as u32;
        (*a.counters).arcs += arcs;
    }
    Ok(())
}

/// Round `r` at threshold `thr` on piece `q`, by one thread: the GPU block's steps with one
/// thread. Returns the piece's least pending distance, whether it was visited (0 or 1) and
/// the arcs relaxed.
///
/// # Safety
/// `a`'s buffers are live and no other task visits `q` in this round.
unsafe fn visit(a: &ResidentArgs, q: u32, r: u32, thr: u32) -> (u32, u64, u64) {
    // SAFETY: the caller's.
    unsafe {
        let m = rk::take(a, q, r);
        if m >= thr {
            return (m, 0, 0);
        }
        let len = a.span(q).1 as usize;
        let (mut dist, mut done) = (vec![0u32; len], vec![0u32; len]);
        let l = Local { dist: dist.as_mut_ptr(), done: done.as_mut_ptr() };
        rk::load(a, q, l, 0, 1);
        let mut arcs = 0;
        loop {
            let p = rk::pass(a, q, l, thr, 0, 1, |h, c| rk::send_round(a, h, c, thr, r));
            arcs += p.arcs;
            if !p.again {
                break;
            }
        }
        let pending = rk::store(a, q, l, r, 0, 1, true);
        rk::keep(a, q, pending);
        (pending, 1, arcs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_fill_the_device_once_within_shared_memory() {
        // NY's 264,346 vertices over 132 SMs: 2,003 each, so pieces of 2,048.
        assert_eq!(piece_bits(0, 264_346, Some(132)).unwrap(), 11);
        // Road 1M: capped by shared memory (4,096), several pieces per block.
        assert_eq!(piece_bits(0, 1_000_000, Some(132)).unwrap(), MAX_PIECE_BITS);
        // A tiny graph: the smallest piece.
        assert_eq!(piece_bits(0, 10, Some(132)).unwrap(), MIN_PIECE_BITS);
        assert_eq!(piece_bits(0, 10, None).unwrap(), MAX_PIECE_BITS);
        assert_eq!(piece_bits(7, 10, None).unwrap(), 7);
        assert!(piece_bits(3, 10, None).is_err());
        assert!(piece_bits(13, 10, None).is_err());
    }

    /// Several sources give their nearest's distances (one piece state seeded per source), and
    /// a call without a source, or with one out of range, is a typed error (without a source
    /// the barrier-free kernel would have no unit of work to start from).
    #[test]
    fn sources_are_checked_and_several_give_the_nearest() {
        use crate::engine::{self, DeviceKind};
        use crate::generate::{generate, GenSpec};
        use crate::WeightSpec;
        let g = generate(&GenSpec::parse("road:3000").unwrap(), 3, WeightSpec::AsGiven).unwrap();
        let mut eng = engine::open(&g, DeviceKind::Cpu).unwrap();
        let opts = Options { piece_bits: 6, ..Options::default() };
        assert!(resident(&g, eng.as_mut(), &[], &opts).is_err());
        assert!(resident(&g, eng.as_mut(), &[3000], &opts).is_err());
        let sources = [0, 1500, 2999];
        let got = resident(&g, eng.as_mut(), &sources, &opts).unwrap().dist;
        let each: Vec<Vec<_>> = sources.iter().map(|&s| crate::reference::dijkstra(&g, s).unwrap()).collect();
        let nearest: Vec<_> = (0..g.num_vertices()).map(|v| each.iter().map(|d| d[v]).min().unwrap()).collect();
        assert_eq!(got, nearest);
    }

    #[test]
    fn thresholds_end_the_bucket_of_their_distance() {
        assert_eq!(rk::threshold_above(Metric::Integer, 0, 10), 10);
        assert_eq!(rk::threshold_above(Metric::Integer, 9, 10), 10);
        assert_eq!(rk::threshold_above(Metric::Integer, 10, 10), 20);
        assert_eq!(rk::threshold_above(Metric::Integer, INF - 1, 10), INF);
        let t = rk::threshold_above(Metric::Real, 1.5f32.to_bits(), 0.5f32.to_bits());
        assert_eq!(f32::from_bits(t), 2.0);
    }
}
