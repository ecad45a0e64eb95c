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
//! Measured choices (docs/performance.md, "The CPU backend against GAP"; callgrind on NY from
//! source 22835, one thread, delta 3726, 870,679 arcs, the solve's instructions): the loop is
//! monomorphised per kind of sum (`Step`: a plain 32-bit add where no candidate can reach
//! [`INF`], a bounded one for a cutoff or huge weights, `f32`) and per sharing (`Lower`: one
//! thread stores, several compare-and-swap); a bucket is a multiplication, not a division
//! (`Divider`); the graph's slices are copied into the thread's registers (`View`) and
//! indexed without bounds checks (the graph's invariants); the counters threads write sit on
//! cache lines of their own. 50.4 M instructions before, 28.7 M after; GAP's loop 28.2 M. A
//! thread's bins are a power-of-two ring whose emptied bins keep their capacity (a taken bin
//! was a lost allocation: 5.9 M instructions of reallocation per solve), and the shared
//! frontiers come from zeroed pages that a run touches only as far as its buckets fill them.
//!
//! **Thread counts.** Every thread must run at once (they meet at a spinning barrier per
//! bucket), so a count asked for ([`DeltaStepping::threads`], `--workers`) is capped at the
//! machine's available parallelism (`std::thread::available_parallelism`: its cores, within
//! the process's affinity and cgroup quota): more threads only take turns at the barriers (3000
//! on 2 cores: 23 s on a 1000-vertex path), and tens of thousands exhaust the process's
//! threads. [`Stats::host_threads`] says how many ran. They come from the process's crew
//! (`strategy::crew`, kept between solves), or are started for the run when the crew is
//! busy. A count above [`MAX_THREADS`] is refused ([`crate::Error::InvalidArgument`]) rather
//! than capped: no machine runs that many here, so it is a mistake. A thread the system will
//! not start is an error too, not an abort.

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

/// Spins at a barrier before sleeping until the last thread arrives: about a hundred
/// microseconds. A peer that is not running (the cores are shared with other work) needs the
/// core more than a spinning thread: on 2 cores shared with 3 compilers, NY took 350-570 ms on
/// two threads when the waiting thread yielded instead, against 75-120 on one thread.
const BARRIER_SPINS: u32 = 1 << 12;

/// No bucket (the end of the run).
const NONE: u32 = u32::MAX;

/// A barrier that spins, then sleeps: `std::sync::Barrier` parks its threads in the kernel
/// at once, and a bucket's two barriers then cost 150 us on this machine's 2 cores (NY with
/// delta 1000: 1,038 buckets, 161 ms); spinning costs about a microsecond. Sleeping after
/// [`BARRIER_SPINS`] keeps an oversubscribed machine (tests or builds side by side) moving.
struct SpinBarrier {
    threads: usize,
    arrived: AtomicUsize,
    generation: AtomicUsize,
    /// Threads asleep on `wake` (the last to arrive takes the lock only when there are some).
    sleepers: AtomicUsize,
    lock: std::sync::Mutex<()>,
    wake: std::sync::Condvar,
}

impl SpinBarrier {
    fn new(threads: usize) -> Self {
        SpinBarrier {
            threads,
            arrived: AtomicUsize::new(0),
            generation: AtomicUsize::new(0),
            sleepers: AtomicUsize::new(0),
            lock: std::sync::Mutex::new(()),
            wake: std::sync::Condvar::new(),
        }
    }

    fn wait(&self) {
        let gen = self.generation.load(Acquire);
        if self.arrived.fetch_add(1, AcqRel) + 1 == self.threads {
            self.arrived.store(0, Relaxed);
            // Sequentially consistent with the sleepers' count: either this thread sees a
            // sleeper and wakes it, or the sleeper sees the new generation and does not sleep.
            self.generation.store(gen.wrapping_add(1), SeqCst);
            if self.sleepers.load(SeqCst) > 0 {
                let _held = self.lock.lock().unwrap_or_else(|e| e.into_inner());
                self.wake.notify_all();
            }
            return;
        }
        for _ in 0..BARRIER_SPINS {
            if self.generation.load(Acquire) != gen {
                return;
            }
            std::hint::spin_loop();
        }
        let mut held = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        self.sleepers.fetch_add(1, SeqCst);
        while self.generation.load(SeqCst) == gen {
            held = self.wake.wait(held).unwrap_or_else(|e| e.into_inner());
        }
        self.sleepers.fetch_sub(1, SeqCst);
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

    /// Bin `v` in `bucket` (at or after `base`: a lowered head's bucket is never below the
    /// current one). The common case, a bucket inside the ring, is a mask and a push.
    #[inline(always)]
    fn push(&mut self, bucket: u32, v: u32) {
        let i = bucket.wrapping_sub(self.base) as usize;
        if i >= self.ring.len() {
            return self.push_outside(bucket, v);
        }
        self.span = self.span.max(i + 1);
        self.near += 1;
        let mask = self.ring.len() - 1;
        self.ring[bucket as usize & mask].push(v);
    }

    /// [`Self::push`] beyond the ring: the ring grows up to [`WINDOW`], the far list beyond.
    #[cold]
    #[inline(never)]
    fn push_outside(&mut self, bucket: u32, v: u32) {
        let i = bucket.saturating_sub(self.base) as usize;
        if i >= WINDOW {
            self.far.push(v);
            return;
        }
        if i >= self.ring.len() {
            self.grow(i + 1);
        }
        self.push(self.base + i as u32, v);
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

/// How a run forms candidates and buckets, chosen once per solve so that the loop of the run
/// carries only what the graph and the query need (one monomorphised loop per kind): the
/// integer loop without a cutoff on a graph whose longest simple path cannot reach [`INF`]
/// adds and compares, nothing else, as GAP's 32-bit loop does.
trait Step: Copy + Send + Sync {
    /// The candidate through an arc of weight `w` from a vertex at `du`.
    fn through(self, du: u32, w: u32) -> Through;
    /// The bucket of a distance below [`INF`].
    fn bucket(self, d: u32) -> u32;
    /// Whether `du` lies below bucket `cur` (so an earlier bucket expanded its vertex).
    fn before(self, du: u32, cur: u32) -> bool;
}

/// Integer weights without a cutoff where no candidate can reach [`INF`] (see [`plain_fits`]):
/// a plain 32-bit sum.
#[derive(Clone, Copy)]
struct Plain(Divider);

/// Integer weights with a bound on the candidates: the cutoff, or (without one) the largest
/// finite distance, past which a sum is an overflow.
#[derive(Clone, Copy)]
struct Bounded {
    div: Divider,
    bound: u32,
    cutoff: bool,
}

/// Real (`f32`) weights, through the kernels' rounding rule.
#[derive(Clone, Copy)]
struct Real {
    delta: f32,
    cutoff: u32,
}

impl Step for Plain {
    #[inline(always)]
    fn through(self, du: u32, w: u32) -> Through {
        Through::Candidate(du.wrapping_add(w))
    }
    #[inline(always)]
    fn bucket(self, d: u32) -> u32 {
        self.0.div(d)
    }
    #[inline(always)]
    fn before(self, du: u32, cur: u32) -> bool {
        (du as u64) < cur as u64 * self.0.d as u64
    }
}

impl Step for Bounded {
    #[inline(always)]
    fn through(self, du: u32, w: u32) -> Through {
        let c = du as u64 + w as u64;
        match c <= self.bound as u64 {
            true => Through::Candidate(c as u32),
            false if self.cutoff => Through::Beyond,
            false => Through::Overflow,
        }
    }
    #[inline(always)]
    fn bucket(self, d: u32) -> u32 {
        self.div.div(d)
    }
    #[inline(always)]
    fn before(self, du: u32, cur: u32) -> bool {
        (du as u64) < cur as u64 * self.div.d as u64
    }
}

impl Step for Real {
    #[inline(always)]
    fn through(self, du: u32, w: u32) -> Through {
        through(Metric::Real, du, w, self.cutoff)
    }
    #[inline(always)]
    fn bucket(self, d: u32) -> u32 {
        ((f32::from_bits(d) / self.delta) as u32).min(NONE - 1)
    }
    #[inline(always)]
    fn before(self, du: u32, cur: u32) -> bool {
        self.bucket(du) < cur
    }
}

/// Division of a `u32` by a fixed `d >= 1` as a multiplication: Lemire, Kaser and Kurz ("Faster
/// remainder by direct computation", 2019, theorem 1) show that `n / d == (n * c) >> 64` for
/// every 32-bit `n` with `c = ceil(2^64 / d)`, which fits 64 bits for every `d > 1`; `d == 1`
/// keeps `c = 0` and returns `n`. A division costs tens of cycles; it ran once per lowered
/// vertex (NY: 315k per solve).
#[derive(Clone, Copy)]
struct Divider {
    d: u32,
    c: u64,
}

impl Divider {
    fn new(d: u32) -> Self {
        let d = d.max(1);
        Divider { d, c: if d == 1 { 0 } else { u64::MAX / d as u64 + 1 } }
    }

    #[inline(always)]
    fn div(self, n: u32) -> u32 {
        match self.c {
            0 => n,
            c => ((n as u128 * c as u128) >> 64) as u32,
        }
    }
}

/// Whether integer sums on `g` need no check: without a cutoff, when no candidate can reach
/// [`INF`]. Every tentative distance is the length of a simple path (a walk that revisits a
/// vertex never lowers it: weights are non-negative and a lowering is strict), and a
/// candidate adds an arc leaving the path's last vertex, which a simple path to it never
/// used: so a candidate is at most the sum of all weights, and at most `n` times the largest.
fn plain_fits(g: &Graph, cutoff: u32) -> bool {
    let max = g.weight_range().map_or(0, |(_, hi)| hi.max(0) as u128);
    let total = match g.weight_total() {
        crate::graph::WeightTotal::Integer(t) => t,
        crate::graph::WeightTotal::Real(_) => u128::MAX,
    };
    cutoff == NO_CUTOFF && total.min(g.num_vertices() as u128 * max) < INF as u128
}

/// The state the threads share. The counters each thread writes during a bucket (`taken`,
/// `len`, `next`) sit on cache lines of their own, away from what every arc reads.
struct Shared<'a> {
    graph: View<'a>,
    target: Option<u32>,
    /// Two frontiers, alternating by bucket: the current one is read while the next one is
    /// filled. Each with its length, the next piece to take, and the next bucket (agreed by an
    /// atomic min).
    frontier: [Vec<AtomicU32>; 2],
    len: [Line<AtomicUsize>; 2],
    taken: [Line<AtomicUsize>; 2],
    next: [Line<AtomicU32>; 2],
    arcs: Line<AtomicU64>,
    overflow: AtomicBool,
    barrier: Line<SpinBarrier>,
}

/// A value alone on its cache lines (two: adjacent-line prefetching pairs them).
#[repr(align(128))]
struct Line<T>(T);

impl<T> std::ops::Deref for Line<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// How a thread writes a lowered distance: with a compare-and-swap when threads share the
/// distances, with a plain store when one thread runs alone (a locked instruction costs about
/// 20 cycles: 315k lowerings on NY).
trait Lower {
    const SHARED: bool;
}
struct Alone;
struct Together;
impl Lower for Alone {
    const SHARED: bool = false;
}
impl Lower for Together {
    const SHARED: bool = true;
}

/// What the loop reads and writes per arc: the graph's arrays and the distances, as slices a
/// thread copies into registers (behind `&Shared`, whose atomics make it mutable memory to the
/// compiler, they were reloaded at every arc).
#[derive(Clone, Copy)]
struct View<'a> {
    offsets: &'a [u64],
    targets: &'a [u32],
    weights: &'a [u32],
    dist: &'a [AtomicU32],
}

impl View<'_> {
    /// Expand `u` if its distance is still in bucket `cur` or later (else an earlier bucket
    /// expanded it), pushing the heads it lowers into `bins`; the arcs looked at.
    #[inline(always)]
    fn expand<S: Step, L: Lower>(self, step: S, u: u32, cur: u32, bins: &mut Bins, overflow: &AtomicBool) -> u64 {
        // SAFETY: `u` came from a frontier or a bin, which hold heads of arcs or seeds, all
        // below n (`Graph::from_csr` checks every head; seeds are checked by the solve); the
        // offsets have n + 1 entries, non-decreasing up to the arcs' count (checked there too),
        // so `s..e` lies within `targets` and `weights` (both of that length) and every head
        // `v` read from them indexes `dist` (n cells).
        unsafe {
            let du = self.dist.get_unchecked(u as usize).load(Relaxed);
            if step.before(du, cur) {
                return 0;
            }
            let s = *self.offsets.get_unchecked(u as usize) as usize;
            let e = *self.offsets.get_unchecked(u as usize + 1) as usize;
            let heads = self.targets.get_unchecked(s..e);
            let weights = self.weights.get_unchecked(s..e);
            for (&v, &w) in heads.iter().zip(weights) {
                match step.through(du, w) {
                    Through::Candidate(c) => lower::<S, L>(step, self.dist.get_unchecked(v as usize), v, c, bins),
                    Through::Beyond => {}
                    Through::Overflow => overflow.store(true, Relaxed),
                }
            }
            (e - s) as u64
        }
    }
}

/// Lower `v`'s distance (in `cell`) to `c` if that is smaller (a plain read first: most
/// candidates stop there), and bin `v` by its new distance.
#[inline(always)]
fn lower<S: Step, L: Lower>(step: S, cell: &AtomicU32, v: u32, c: u32, bins: &mut Bins) {
    let mut old = cell.load(Relaxed);
    if !L::SHARED {
        if c < old {
            cell.store(c, Relaxed);
            bins.push(step.bucket(c), v);
        }
        return;
    }
    while c < old {
        match cell.compare_exchange_weak(old, c, Relaxed, Relaxed) {
            Ok(_) => {
                bins.push(step.bucket(c), v);
                return;
            }
            Err(now) => old = now,
        }
    }
}

impl Shared<'_> {
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
    fn bucket<S: Step, L: Lower>(&self, step: S, f: usize, cur: u32, bins: &mut Bins, private: &mut Vec<u32>) -> u64 {
        let (graph, overflow) = (self.graph, &self.overflow);
        let mut arcs = 0;
        for &v in private.iter() {
            arcs += graph.expand::<S, L>(step, v, cur, bins, overflow);
        }
        private.clear();
        let len = self.len[f].load(Relaxed);
        loop {
            let at = self.taken[f].fetch_add(PIECE, Relaxed);
            if at >= len {
                break;
            }
            for cell in &self.frontier[f][at..(at + PIECE).min(len)] {
                arcs += graph.expand::<S, L>(step, cell.load(Relaxed), cur, bins, overflow);
            }
        }
        // A large bin goes to the shared frontier instead, to be shared.
        while (1..LOCAL_BIN).contains(&bins.len_of(cur)) {
            bins.take_into(cur, private);
            for &v in private.iter() {
                arcs += graph.expand::<S, L>(step, v, cur, bins, overflow);
            }
            private.clear();
        }
        arcs
    }

    /// One thread's whole run: per bucket, expand it ([`Self::bucket`]), agree on the next
    /// bucket, barrier, publish the bins of the next bucket into the other frontier, barrier.
    /// Thread 0 resets the other frontier's counters while the bucket is expanded (nobody reads
    /// them then: the last reads were before the barrier).
    fn run<S: Step, L: Lower>(&self, step: S, me: usize) -> u32 {
        let mut bins = Bins::new();
        let mut arcs = 0u64;
        let mut cur = 0u32;
        let mut buckets = 0usize;
        // What did not fit the shared frontier: this thread expands it itself.
        let mut private = Vec::new();
        let bucket_of_vertex = |v: u32| step.bucket(self.graph.dist[v as usize].load(Relaxed));
        loop {
            let (f, other) = (buckets % 2, 1 - buckets % 2);
            if me == 0 {
                self.len[other].store(0, Relaxed);
                self.taken[other].store(0, Relaxed);
                self.next[other].store(NONE, Relaxed);
            }
            arcs += self.bucket::<S, L>(step, f, cur, &mut bins, &mut private);
            self.next[f].fetch_min(bins.next(cur, bucket_of_vertex), Relaxed);
            self.barrier.wait();
            let next = self.next[f].load(Relaxed);
            let stop = next == NONE
                || self.target.is_some_and(|t| {
                    let d = self.graph.dist[t as usize].load(Relaxed);
                    d != INF && next > step.bucket(d)
                });
            if stop {
                break;
            }
            cur = next;
            buckets += 1;
            bins.advance(cur, bucket_of_vertex);
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

/// The threads this machine runs at once, asked once (the answer reads the process's cgroup
/// files: tens of microseconds, per solve before).
fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
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
    let cutoff = opts.device_cutoff();
    // Before the clock: a pass over the weights on a graph's first solve, kept by the graph.
    let plain = metric == Metric::Integer && plain_fits(g, cutoff);
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
    // `Options::workers` threads when set (auto's rule for the graph), else the pool's.
    let threads = threads_for(opts.workers)?;
    let line = |x| Line(AtomicUsize::new(x));
    let shared = Shared {
        graph: View { offsets: g.offsets(), targets: g.targets(), weights, dist: &dist },
        target: opts.target,
        frontier,
        len: [line(seeds.len()), line(0)],
        taken: [line(0), line(0)],
        next: [Line(AtomicU32::new(NONE)), Line(AtomicU32::new(NONE))],
        arcs: Line(AtomicU64::new(0)),
        overflow: AtomicBool::new(false),
        barrier: Line(SpinBarrier::new(threads)),
    };
    let div = Divider::new(delta);
    let buckets = match metric {
        Metric::Real => run_with(&shared, Real { delta: f32::from_bits(delta), cutoff }, threads),
        _ if plain => run_with(&shared, Plain(div), threads),
        _ => run_with(&shared, Bounded { div, bound: cutoff.min(INF - 1), cutoff: cutoff != NO_CUTOFF }, threads),
    }?;
    let (arcs, overflow) = (shared.arcs.0.into_inner(), shared.overflow.into_inner());
    let raw = crate::mem::into_plain(dist);
    let stats = Stats {
        compute: started.elapsed(),
        arcs_relaxed: arcs,
        iterations: buckets,
        delta: Some(delta),
        host_threads: threads as u32,
        ..Stats::default()
    };
    finish_host(g, raw, overflow, stats)
}

/// Run `shared` with `step` on `threads` threads: one runs alone on the caller's thread with
/// plain stores; several share the distances ([`run_threads`]).
fn run_with<S: Step>(shared: &Shared, step: S, threads: usize) -> Result<u32> {
    if threads == 1 {
        return Ok(shared.run::<S, Alone>(step, 0));
    }
    // The process's crew when it is free (thread 0's buckets kept from its job), else
    // threads of the run's own.
    let buckets = AtomicU32::new(0);
    let job = |me: usize| {
        let b = shared.run::<S, Together>(step, me);
        if me == 0 {
            buckets.store(b, Relaxed);
        }
    };
    match super::crew::run(threads, &job) {
        Some(done) => done.map(|()| buckets.into_inner()),
        None => run_threads(threads, |me| shared.run::<S, Together>(step, me)),
    }
}

/// Run `run(me)` for every `me` below `threads`, each on a thread of its own (not rayon tasks:
/// the barrier needs every one running at once); thread 0's result (the buckets). They start
/// together once all are spawned: a thread the system refuses ends the others before they
/// reach a barrier it would never pass, and the run is an error.
fn run_threads(threads: usize, run: impl Fn(usize) -> u32 + Sync) -> Result<u32> {
    // 0: wait, 1: run, 2: every thread was not started, return.
    let gate = std::sync::atomic::AtomicU8::new(0);
    std::thread::scope(|s| {
        let (gate, run) = (&gate, &run);
        let mut others = Vec::with_capacity(threads.saturating_sub(1));
        let mut failed = None;
        for me in 1..threads {
            let spawned = std::thread::Builder::new().spawn_scoped(s, move || {
                while gate.load(Acquire) == 0 {
                    std::thread::yield_now();
                }
                if gate.load(Acquire) == 1 {
                    run(me)
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
        let mine = if failed.is_none() { run(0) } else { 0 };
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

    /// The multiplication gives the quotient for every divisor kind (one, powers of two,
    /// odd, the largest) at the ends of the 32-bit range and at the multiples around them.
    #[test]
    fn divider_matches_division() {
        let mut rng = crate::rng::Rng::new(7);
        let mut divisors = vec![1, 2, 3, 7, 641, 3726, 14907, 1 << 31, (1 << 31) + 1, u32::MAX - 1, u32::MAX];
        divisors.extend((0..200).map(|_| rng.next_u64() as u32 | 1));
        for d in divisors {
            let div = Divider::new(d);
            let near = |k: u32| [k.saturating_sub(1), k, k.saturating_add(1)];
            let mut ns: Vec<u32> = [0, 1, u32::MAX - 1, u32::MAX].into();
            for q in [1u32, 2, 1000, u32::MAX / d] {
                ns.extend(near(q.saturating_mul(d)));
            }
            ns.extend((0..200).map(|_| rng.next_u64() as u32));
            for n in ns {
                assert_eq!(div.div(n), n / d, "{n} / {d}");
            }
        }
    }

    /// The three loops (a plain sum, a bounded sum, real weights), on one thread and on
    /// several: weights so large that only the bounded loop may run, with and without a
    /// cutoff, agree with Dijkstra.
    #[test]
    fn every_step_and_thread_count_matches_dijkstra() {
        let road = generate(&GenSpec::parse("road:3000").unwrap(), 5, WeightSpec::AsGiven).unwrap();
        let arcs: Vec<(u32, u32, i64)> = (0..road.num_vertices() as u32)
            .flat_map(|u| {
                let (s, e) = (road.offsets()[u as usize] as usize, road.offsets()[u as usize + 1] as usize);
                (s..e).map(move |i| (u, i))
            })
            .map(|(u, i)| (u, road.targets()[i], 2_000_000 + road.weights().get(i)))
            .collect();
        let heavy = Graph::from_arcs(road.num_vertices() as u32, &arcs).unwrap();
        assert!(!plain_fits(&heavy, NO_CUTOFF) && plain_fits(&road, NO_CUTOFF));
        for g in [&road, &heavy] {
            let want = crate::reference::dijkstra(g, 0).unwrap();
            for workers in [1, 2, 3] {
                for cutoff in [None, Some(want[want.len() / 2] as u64)] {
                    let o = Options { workers, cutoff, ..Options::default() };
                    let got = delta_stepping(g, 0, &o).unwrap();
                    let clip =
                        |d: &crate::Dist| if cutoff.is_some_and(|c| *d as u64 > c) { crate::UNREACHED } else { *d };
                    assert_eq!(got.dist, want.iter().map(clip).collect::<Vec<_>>(), "{workers} threads, {cutoff:?}");
                }
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
