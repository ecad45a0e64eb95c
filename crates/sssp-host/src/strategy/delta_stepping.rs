//! Delta-stepping as a CPU runs it best (`--algo delta-stepping`): Meyer and Sanders'
//! buckets in the layout of the GAP benchmark suite's `sssp` (Beamer, Asanović and Patterson),
//! written here from its description: each thread keeps its own bins, one shared frontier holds
//! the current bucket, and a barrier separates buckets.
//!
//! The engines' frontier strategies are GPU-shaped: a device-wide queue per bucket, an atomic
//! per push, a scan and a compaction per iteration, a grid-stride body per thread. On a CPU
//! with a few threads that costs more than the work (NY on 2 cores: Bucketing 95 ms, serial
//! Dijkstra 27 ms). Here:
//! - the threads take 64-vertex pieces of the shared frontier with one atomic each (dynamic
//!   scheduling), expand them, and push each lowered head into their *own* bin of its bucket:
//!   no atomic on a push, no shared queue during the bucket;
//! - a lowered distance is written with a compare-and-swap only when a plain read shows the
//!   candidate is smaller (most relaxations stop at the read);
//! - a thread re-expands its own bin of the current bucket at once while it stays small (the
//!   bucket's next round without a barrier, GAP's "bin size threshold");
//! - at the bucket's end the threads agree on the next non-empty bucket (one atomic min), then
//!   copy their bins of it into the shared frontier (one atomic add each) between barriers.
//!
//! Duplicates are allowed (a vertex lowered twice sits in a bin twice); an entry whose vertex's
//! distance has fallen below the current bucket was expanded in an earlier one and is skipped.
//! Exact for non-negative weights (label-correcting within a bucket, buckets in order); integer
//! and real (`f32`) weights, cutoff (nothing beyond it is pushed) and target (the run stops once
//! the current bucket starts past the target's distance). A host algorithm over the graph: no
//! engine, any device setting; threads: rayon's pool size (`RAYON_NUM_THREADS`).
//!
//! Measured choices (docs/performance.md, "CPU backend against GAP"; callgrind on NY, one
//! thread, delta 3726): the integer loop tests a vertex's bucket by multiplication and each arc
//! against one bound, and holds the graph's slices once (the per-arc and per-vertex work: 69.5 M
//! instructions for the solve before, 50.4 M after; GAP's loop 27.7 M); a thread's bins are a
//! power-of-two ring whose emptied bins keep their capacity (a taken bin was a lost allocation:
//! 5.9 M instructions of reallocation per solve), and the shared frontiers come from zeroed pages
//! that a run touches only as far as its buckets fill them.
//!
//! **Thread counts.** Every thread must run at once (they meet at a spinning barrier per
//! bucket), so a count asked for ([`DeltaStepping::threads`], `--workers`) is capped at the
//! machine's available parallelism (`std::thread::available_parallelism`: its cores, within
//! the process's affinity and cgroup quota): more threads only take turns at the barriers (3000
//! on 2 cores: 23 s on a 1000-vertex path), and tens of thousands exhaust the process's
//! threads. [`Stats::host_threads`] says how many ran. A count above [`MAX_THREADS`] is
//! refused ([`crate::Error::InvalidArgument`]) rather than capped: no machine runs that many
//! here, so it is a mistake. A thread the system will not start is an error too, not an abort.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering::*};
use std::time::Instant;

use sssp_kernels::relax::{through, Through};
use sssp_kernels::{INF, NO_CUTOFF};

use super::{finish_host, Options, Solution, Stats};
use crate::error::Result;
use crate::graph::{Graph, Metric};

/// Vertices of the shared frontier a thread takes at a time.
const PIECE: usize = 64;

/// A thread re-expands its own bin of the current bucket without a barrier while it holds
/// fewer than this many entries (larger bins go through the shared frontier, to be shared).
const LOCAL_BIN: usize = 1000;

/// Bins a thread keeps from the current bucket on; entries beyond wait in a far list and are
/// binned when the window reaches them (a tiny delta on long paths would otherwise allocate a
/// bin per bucket up to the largest distance).
const WINDOW: usize = 1 << 14;

/// No bucket (the end of the run).
const NONE: u32 = u32::MAX;

/// A barrier that spins (then yields): `std::sync::Barrier` parks its threads in the kernel,
/// and a bucket's two barriers then cost 150 us on this machine's 2 cores (NY with delta
/// 1000: 1,038 buckets, 161 ms); spinning costs about a microsecond. Yielding after a while
/// keeps an oversubscribed machine (tests running side by side) moving.
struct SpinBarrier {
    threads: usize,
    arrived: AtomicUsize,
    generation: AtomicUsize,
}

impl SpinBarrier {
    fn new(threads: usize) -> Self {
        SpinBarrier { threads, arrived: AtomicUsize::new(0), generation: AtomicUsize::new(0) }
    }

    fn wait(&self) {
        let gen = self.generation.load(Acquire);
        if self.arrived.fetch_add(1, AcqRel) + 1 == self.threads {
            self.arrived.store(0, Relaxed);
            self.generation.store(gen.wrapping_add(1), Release);
            return;
        }
        let mut spins = 0u32;
        while self.generation.load(Acquire) == gen {
            spins += 1;
            if spins < 1 << 12 {
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
    }
}

/// One thread's bins: buckets `base..base + span` in a ring of power-of-two length (bucket `b`
/// at `b & mask`), the rest in `far`; `near` counts the entries in the ring. A bin emptied by
/// the run keeps its capacity for a later bucket (no allocation per bucket once warm).
struct Bins {
    base: u32,
    span: usize,
    ring: Vec<Vec<u32>>,
    far: Vec<u32>,
    near: usize,
}

impl Bins {
    fn new() -> Self {
        Bins { base: 0, span: 0, ring: (0..16).map(|_| Vec::new()).collect(), far: Vec::new(), near: 0 }
    }

    fn slot(&mut self, bucket: u32) -> &mut Vec<u32> {
        let mask = self.ring.len() - 1;
        &mut self.ring[bucket as usize & mask]
    }

    #[inline]
    fn push(&mut self, bucket: u32, v: u32) {
        let i = bucket.saturating_sub(self.base) as usize;
        if i >= self.ring.len() {
            if i >= WINDOW {
                self.far.push(v);
                return;
            }
            self.grow(i + 1);
        }
        self.span = self.span.max(i + 1);
        self.near += 1;
        let b = self.base + i as u32;
        self.slot(b).push(v);
    }

    /// A ring of at least `need` slots, each live bin moved to its bucket's new slot.
    #[cold]
    fn grow(&mut self, need: usize) {
        let mut ring: Vec<Vec<u32>> = (0..need.next_power_of_two()).map(|_| Vec::new()).collect();
        let mask = ring.len() - 1;
        for k in 0..self.span {
            let b = self.base + k as u32;
            ring[b as usize & mask] = std::mem::take(self.slot(b));
        }
        self.ring = ring;
    }

    /// Entries in bucket `cur`'s bin.
    fn len_of(&self, cur: u32) -> usize {
        match cur.checked_sub(self.base) {
            Some(i) if (i as usize) < self.span => self.ring[cur as usize & (self.ring.len() - 1)].len(),
            _ => 0,
        }
    }

    /// Its lowest non-empty bucket at or after `cur`, the far list's lowest (from the distances
    /// now) when the bins hold none.
    fn next(&self, cur: u32, bucket_of: impl Fn(u32) -> u32) -> u32 {
        let skip = cur.saturating_sub(self.base) as usize;
        let mask = self.ring.len() - 1;
        let live = |k: &usize| !self.ring[(self.base as usize + k) & mask].is_empty();
        match (skip..self.span).find(|k| self.near > 0 && live(k)) {
            Some(k) => self.base + k as u32,
            None => self.far.iter().map(|&v| bucket_of(v).max(cur)).min().unwrap_or(NONE),
        }
    }

    /// Move the window to start at `cur`: empty the bins before it; when the bins hold nothing,
    /// bin the far entries that now fall inside (their distances may have fallen since they
    /// were put there: a far entry whose bucket came into the window and stayed in the far list
    /// would be chosen as the next bucket again and again, with nothing in its bin).
    fn advance(&mut self, cur: u32, bucket_of: impl Fn(u32) -> u32) {
        while self.base < cur && self.span > 0 {
            let b = self.base;
            let bin = self.slot(b);
            let stale = bin.len();
            bin.clear();
            self.near -= stale;
            self.base += 1;
            self.span -= 1;
        }
        if self.span == 0 || self.near == 0 {
            for k in 0..self.span {
                let b = self.base + k as u32;
                self.slot(b).clear();
            }
            (self.base, self.span, self.near) = (cur, 0, 0);
            for v in std::mem::take(&mut self.far) {
                self.push(bucket_of(v).max(cur), v);
            }
        }
    }

    /// Swap bucket `cur`'s bin with `out` (empty, its capacity reused by the bin).
    fn take_into(&mut self, cur: u32, out: &mut Vec<u32>) {
        debug_assert!(out.is_empty());
        if self.len_of(cur) > 0 {
            std::mem::swap(self.slot(cur), out);
            self.near -= out.len();
        }
    }
}

/// The state the threads share.
struct Shared<'a> {
    offsets: &'a [u64],
    targets: &'a [u32],
    weights: &'a [u32],
    metric: Metric,
    dist: Vec<AtomicU32>,
    delta: u32,
    cutoff: u32,
    target: Option<u32>,
    /// Two frontiers, alternating by bucket: the current one is read while the next one is
    /// filled. Each with its length, the next piece to take, and the next bucket (agreed by an
    /// atomic min).
    frontier: [Vec<AtomicU32>; 2],
    len: [AtomicUsize; 2],
    taken: [AtomicUsize; 2],
    next: [AtomicU32; 2],
    arcs: AtomicU64,
    overflow: AtomicBool,
    barrier: SpinBarrier,
}

impl Shared<'_> {
    fn bucket_of(&self, d: u32) -> u32 {
        match self.metric {
            Metric::Real => ((f32::from_bits(d) / f32::from_bits(self.delta)) as u32).min(NONE - 1),
            _ => (d / self.delta).min(NONE - 1),
        }
    }

    fn bucket_of_vertex(&self, v: u32) -> u32 {
        self.bucket_of(self.dist[v as usize].load(Relaxed))
    }

    /// Expand `u` (if its distance is still in bucket `cur` or later: else an earlier bucket
    /// expanded it), pushing the heads it lowers into `bins`; the arcs looked at.
    #[inline(always)]
    fn expand(&self, u: u32, cur: u32, bins: &mut Bins) -> u64 {
        match self.metric {
            Metric::Integer => self.expand_integer(u, cur, bins),
            metric => self.expand_with(u, cur, bins, |du, w| match through(metric, du, w, self.cutoff) {
                Through::Candidate(c) => Some(c),
                Through::Beyond => None,
                Through::Overflow => {
                    self.overflow.store(true, Relaxed);
                    None
                }
            }),
        }
    }

    /// [`Self::expand`] on integer weights, the loop a CPU spends its time in: a bucket test
    /// by multiplication (no division per vertex), one comparison per arc against the bound
    /// (the cutoff, or the largest finite distance), a division only per lowered head.
    #[inline(always)]
    fn expand_integer(&self, u: u32, cur: u32, bins: &mut Bins) -> u64 {
        let du = self.dist[u as usize].load(Relaxed);
        if du == INF || (du as u64) < cur as u64 * self.delta as u64 {
            return 0;
        }
        let bound = self.cutoff.min(INF - 1) as u64;
        let (s, e) = (self.offsets[u as usize] as usize, self.offsets[u as usize + 1] as usize);
        for (&v, &w) in self.targets[s..e].iter().zip(&self.weights[s..e]) {
            let c = du as u64 + w as u64;
            if c > bound {
                // Beyond the cutoff, or (without one) reaching INF: an overflow.
                if self.cutoff == NO_CUTOFF {
                    self.overflow.store(true, Relaxed);
                }
                continue;
            }
            self.lower(v, c as u32, bins);
        }
        (e - s) as u64
    }

    /// Lower `v`'s distance to `c` if that is smaller (a plain read first: most candidates
    /// stop there), and bin `v` by its new distance.
    #[inline(always)]
    fn lower(&self, v: u32, c: u32, bins: &mut Bins) {
        let cell = &self.dist[v as usize];
        let mut old = cell.load(Relaxed);
        while c < old {
            match cell.compare_exchange_weak(old, c, Relaxed, Relaxed) {
                Ok(_) => {
                    bins.push(self.bucket_of(c), v);
                    return;
                }
                Err(now) => old = now,
            }
        }
    }

    #[inline(always)]
    fn expand_with(&self, u: u32, cur: u32, bins: &mut Bins, cand: impl Fn(u32, u32) -> Option<u32>) -> u64 {
        let du = self.dist[u as usize].load(Relaxed);
        if du == INF || self.bucket_of(du) < cur {
            return 0;
        }
        let (s, e) = (self.offsets[u as usize] as usize, self.offsets[u as usize + 1] as usize);
        for (&v, &w) in self.targets[s..e].iter().zip(&self.weights[s..e]) {
            if let Some(c) = cand(du, w) {
                self.lower(v, c, bins);
            }
        }
        (e - s) as u64
    }

    /// Copy `mine` (a thread's bin of the next bucket) into frontier `f` with one reservation
    /// and empty it; false (`mine` kept) when it does not fit.
    fn publish(&self, f: usize, mine: &mut Vec<u32>) -> bool {
        let mut at = self.len[f].load(Relaxed);
        loop {
            if at + mine.len() > self.frontier[f].len() {
                return false;
            }
            match self.len[f].compare_exchange_weak(at, at + mine.len(), Relaxed, Relaxed) {
                Ok(_) => break,
                Err(now) => at = now,
            }
        }
        for (cell, &v) in self.frontier[f][at..].iter().zip(mine.iter()) {
            cell.store(v, Relaxed);
        }
        mine.clear();
        true
    }

    /// Bucket `cur` as one thread sees it: what it kept from the last publication, its pieces
    /// of shared frontier `f`, then its own bin of `cur` again and again while that stays small
    /// (the bucket's later rounds without a barrier: bucket fusion); the arcs looked at.
    fn bucket(&self, f: usize, cur: u32, bins: &mut Bins, private: &mut Vec<u32>) -> u64 {
        let mut arcs = 0;
        for &v in private.iter() {
            arcs += self.expand(v, cur, bins);
        }
        private.clear();
        loop {
            let at = self.taken[f].fetch_add(PIECE, Relaxed);
            let len = self.len[f].load(Relaxed);
            if at >= len {
                break;
            }
            for cell in &self.frontier[f][at..(at + PIECE).min(len)] {
                arcs += self.expand(cell.load(Relaxed), cur, bins);
            }
        }
        // A large bin goes to the shared frontier instead, to be shared.
        while (1..LOCAL_BIN).contains(&bins.len_of(cur)) {
            bins.take_into(cur, private);
            for &v in private.iter() {
                arcs += self.expand(v, cur, bins);
            }
            private.clear();
        }
        arcs
    }

    /// One thread's whole run: per bucket, expand it ([`Self::bucket`]), agree on the next
    /// bucket, barrier, publish the bins of the next bucket into the other frontier, barrier.
    /// Thread 0 resets the other frontier's counters while the bucket is expanded (nobody reads
    /// them then: the last reads were before the barrier).
    fn run(&self, me: usize) -> u32 {
        let mut bins = Bins::new();
        let mut arcs = 0u64;
        let mut cur = 0u32;
        let mut buckets = 0usize;
        // What did not fit the shared frontier: this thread expands it itself.
        let mut private = Vec::new();
        loop {
            let (f, other) = (buckets % 2, 1 - buckets % 2);
            if me == 0 {
                self.len[other].store(0, Relaxed);
                self.taken[other].store(0, Relaxed);
                self.next[other].store(NONE, Relaxed);
            }
            arcs += self.bucket(f, cur, &mut bins, &mut private);
            self.next[f].fetch_min(bins.next(cur, |v| self.bucket_of_vertex(v)), Relaxed);
            self.barrier.wait();
            let next = self.next[f].load(Relaxed);
            let stop = next == NONE
                || self.target.is_some_and(|t| {
                    let d = self.dist[t as usize].load(Relaxed);
                    d != INF && next > self.bucket_of(d)
                });
            if stop {
                break;
            }
            cur = next;
            buckets += 1;
            bins.advance(cur, |v| self.bucket_of_vertex(v));
            bins.take_into(cur, &mut private);
            if self.publish(other, &mut private) {
                private.clear();
            }
            self.barrier.wait();
        }
        self.arcs.fetch_add(arcs, Relaxed);
        buckets as u32
    }
}

/// The threads a run uses: rayon's pool size (`RAYON_NUM_THREADS`).
pub fn threads() -> usize {
    rayon::current_num_threads().max(1)
}

/// The most threads a run may ask for (see the module docs): beyond it the count is refused.
pub const MAX_THREADS: u32 = 4096;

/// The threads a run asking for `asked` (0: the pool's) uses: capped at the machine's
/// available parallelism; an error above [`MAX_THREADS`].
fn threads_for(asked: u32) -> Result<usize> {
    if asked > MAX_THREADS {
        return Err(crate::Error::InvalidArgument(format!(
            "{asked} delta-stepping threads: at most {MAX_THREADS} (a run uses at most the machine's {} cores)",
            cores()
        )));
    }
    Ok(match asked {
        0 => threads(),
        w => (w as usize).min(cores()),
    })
}

/// The threads this machine runs at once.
fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Delta-stepping's parameters ([`super::Strategy::DeltaStepping`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DeltaStepping {
    /// Bucket width in the weights' own terms ([`super::Width`]); `None`:
    /// the heuristic ([`super::heuristic_delta`]).
    pub delta: Option<super::Width>,
    /// Threads; 0: the pool's. Capped at the machine's available parallelism; above
    /// [`MAX_THREADS`] an error (see the module docs).
    pub threads: u32,
}

impl DeltaStepping {
    pub(crate) fn apply(&self, o: &mut Options) {
        (o.delta, o.workers) = (self.delta, self.threads);
    }
}

/// Solve from `source` on the host's threads. See the module doc.
pub fn delta_stepping(g: &Graph, source: u32, opts: &Options) -> Result<Solution> {
    delta_stepping_from(g, &[source], opts)
}

/// [`delta_stepping`] from every vertex of `seeds` at distance 0 (the nearest-source query:
/// each vertex's distance to the nearest seed); distinct, at least one.
pub fn delta_stepping_from(g: &Graph, seeds: &[u32], opts: &Options) -> Result<Solution> {
    // Room for a bucket of twice the vertices; a bucket with more entries (vertices lowered
    // several times within it) keeps the rest in its threads' own lists (`Shared::publish`).
    solve_with_room(g, seeds, opts, 2 * g.num_vertices() + 1024 + seeds.len())
}

/// [`delta_stepping_from`] with shared frontiers of `room` entries (at least the seeds).
fn solve_with_room(g: &Graph, seeds: &[u32], opts: &Options, room: usize) -> Result<Solution> {
    if seeds.is_empty() {
        return Err(crate::Error::InvalidArgument("a run needs at least one source".into()));
    }
    for &s in seeds {
        crate::reference::check_source(g, s)?;
    }
    let weights = g.unsigned_weights("delta-stepping")?;
    let delta = opts.delta_for(g)?.max(1);
    let n = g.num_vertices();
    let metric = g.metric();
    let started = Instant::now();
    let dist = crate::mem::try_atomic_vec(n, INF)?;
    for &s in seeds {
        dist[s as usize].store(metric.zero(), Relaxed);
    }
    let room = room.max(seeds.len());
    // Zeroed pages, touched only as far as the buckets fill them (the room is the worst case).
    let frontier = [crate::mem::try_zeroed_atomic_vec(room)?, crate::mem::try_zeroed_atomic_vec(room)?];
    for (cell, &s) in frontier[0].iter().zip(seeds) {
        cell.store(s, Relaxed);
    }
    // `Options::workers` threads when set (auto caps road graphs, whose small buckets stop
    // paying for more threads at 4-8), else the pool's.
    let threads = threads_for(opts.workers)?;
    let shared = Shared {
        offsets: g.offsets(),
        targets: g.targets(),
        weights,
        metric,
        dist,
        delta,
        cutoff: opts.device_cutoff(),
        target: opts.target,
        frontier,
        len: [AtomicUsize::new(seeds.len()), AtomicUsize::new(0)],
        taken: [AtomicUsize::new(0), AtomicUsize::new(0)],
        next: [AtomicU32::new(NONE), AtomicU32::new(NONE)],
        arcs: AtomicU64::new(0),
        overflow: AtomicBool::new(false),
        barrier: SpinBarrier::new(threads),
    };
    let buckets = run_threads(&shared, threads)?;
    let raw = crate::mem::into_plain(shared.dist);
    let stats = Stats {
        compute: started.elapsed(),
        arcs_relaxed: shared.arcs.into_inner(),
        iterations: buckets,
        delta: Some(delta),
        host_threads: threads as u32,
        ..Stats::default()
    };
    finish_host(g, raw, shared.overflow.into_inner(), stats)
}

/// Run `shared` on `threads` threads of their own (not rayon tasks: the barrier needs every
/// one running at once); the buckets. They start together once all are spawned: a thread the
/// system refuses ends the others before they reach a barrier it would never pass, and the run
/// is an error.
fn run_threads(shared: &Shared, threads: usize) -> Result<u32> {
    // 0: wait, 1: run, 2: every thread was not started, return.
    let gate = std::sync::atomic::AtomicU8::new(0);
    std::thread::scope(|s| {
        let gate = &gate;
        let mut others = Vec::with_capacity(threads.saturating_sub(1));
        let mut failed = None;
        for me in 1..threads {
            let spawned = std::thread::Builder::new().spawn_scoped(s, move || {
                while gate.load(Acquire) == 0 {
                    std::thread::yield_now();
                }
                if gate.load(Acquire) == 1 {
                    shared.run(me)
                } else {
                    0
                }
            });
            match spawned {
                Ok(h) => others.push(h),
                Err(e) => {
                    failed = Some((me, e));
                    break;
                }
            }
        }
        gate.store(if failed.is_some() { 2 } else { 1 }, Release);
        let mine = if failed.is_none() { shared.run(0) } else { 0 };
        for h in others {
            if let Err(panic) = h.join() {
                std::panic::resume_unwind(panic);
            }
        }
        match failed {
            None => Ok(mine),
            Some((me, e)) => Err(crate::Error::InvalidArgument(format!(
                "delta-stepping could not start thread {me} of {threads}: {e} (ask for fewer threads)"
            ))),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{generate, GenSpec};
    use crate::WeightSpec;

    /// Shared frontiers far too small for the buckets (one entry, then a few): every thread
    /// keeps what does not fit and expands it itself; the distances stay Dijkstra's.
    #[test]
    fn buckets_past_the_shared_frontier_are_expanded_by_their_threads() {
        for spec in ["complete:40", "kron:10", "road:3000"] {
            let g = generate(&GenSpec::parse(spec).unwrap(), 3, WeightSpec::AsGiven).unwrap();
            let want = crate::reference::dijkstra(&g, 0).unwrap();
            for (room, delta) in [(1, None), (7, Some(1)), (64, Some(u32::MAX - 1)), (1 << 20, Some(1))] {
                let o = Options { delta: delta.map(crate::strategy::Width::from), ..Options::default() };
                let got = solve_with_room(&g, &[0], &o, room).unwrap();
                assert_eq!(got.dist, want, "{spec}, room {room}, delta {delta:?}");
            }
        }
    }

    /// The bin ring: buckets pushed out of order and past the ring's length (it grows, each
    /// live bin moving to its bucket's new slot), the next bucket found after each take, and an
    /// emptied bin's capacity handed back.
    #[test]
    fn bins_grow_and_keep_their_buckets() {
        let mut bins = Bins::new();
        for (bucket, v) in [(3, 30), (100, 1000), (20, 200), (3, 31), (5000, 7), (WINDOW as u32 + 9, 9)] {
            bins.push(bucket, v);
        }
        assert_eq!((bins.near, bins.far.clone()), (5, vec![9]));
        assert!(bins.ring.len() >= 5001 && bins.ring.len().is_power_of_two());
        let mut out = Vec::with_capacity(64);
        let mut seen = vec![];
        let mut cur = 0;
        while bins.near > 0 {
            cur = bins.next(cur, |_| NONE);
            bins.advance(cur, |_| NONE);
            bins.take_into(cur, &mut out);
            seen.push((cur, out.clone()));
            out.clear();
        }
        let want = [(3, vec![30, 31]), (20, vec![200]), (100, vec![1000]), (5000, vec![7])];
        assert_eq!(seen, want);
        assert!(bins.ring.iter().any(|b| b.capacity() >= 64), "the taken bin keeps the capacity");
        // The far entry, binned once the ring is empty, by its distance's bucket now.
        bins.advance(cur + 1, |v| if v == 9 { cur + 3 } else { NONE });
        assert_eq!(bins.next(cur + 1, |_| NONE), cur + 3);
    }

    /// A vertex first pushed beyond the window (far) and then lowered into it: its far entry
    /// must be binned when the window runs dry, or the run picks that bucket forever (the
    /// real-weight proptest hung on this before `Bins::advance` re-binned it).
    #[test]
    fn a_far_entry_lowered_into_the_window_does_not_stall_the_run() {
        let far = WINDOW as u32 * 3;
        let g = Graph::from_arcs(4, &[(0, 1, far as i64), (0, 2, 1), (2, 1, 1), (1, 3, 5)]).unwrap();
        for room in [1, 64] {
            let got = solve_with_room(&g, &[0], &Options::default().with_delta(1u32), room).unwrap();
            assert_eq!(got.dist, vec![0, 2, 1, 7]);
        }
    }
}
