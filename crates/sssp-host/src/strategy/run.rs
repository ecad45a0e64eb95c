//! The drivers the strategies share: the host-driven frontier loop, the device loop, the
//! negative-cycle watch, the edge classes' preparation and the conversion of a finished run
//! into a [`Solution`] (distances in the library's form, overflow checked once).

use super::*;
use crate::engine::ClassCounts;

/// The meter of `eng`'s device, its peak reset to what the engine holds now: the start of a
/// run's [`Stats::device_memory`] (`None` without an engine).
pub(crate) fn start_meter(eng: Option<&(dyn Engine + 'static)>) -> Option<crate::device::Meter> {
    let meter = eng?.device().meter().clone();
    meter.reset_peak();
    Some(meter)
}

/// A run's [`Stats::device_memory`]: the peak since [`start_meter`], when `ran` ran on the
/// engine.
pub(crate) fn peak_of(meter: Option<crate::device::Meter>, ran: Algo) -> Option<crate::device::Footprint> {
    meter.filter(|_| ran.uses_engine()).map(|m| m.peak())
}

/// Drive a frontier loop: call `step(iter)` (which queues one iteration's operators), and read
/// the frontier length every `check_every` iterations (or every iteration when tracing) until
/// it is empty. Shared by every frontier strategy so termination and tracing are written once.
pub(crate) fn frontier_loop(
    g: &Graph,
    eng: &mut dyn Engine,
    opts: &Options,
    stats: &mut Stats,
    mut step: impl FnMut(&mut dyn Engine, u32) -> Result<()>,
) -> Result<()> {
    let mut watch = CycleWatch::new(g, Instant::now(), CYCLE_CHECK_FRONTIER);
    let every = if opts.trace { 1 } else { opts.check_every.max(1) };
    // Workfront invariant: after iteration i every vertex whose shortest path has <= i arcs is
    // final, so iteration n + 1 sees an empty frontier. Past that (plus the read-back slack) the
    // engine is broken: fail loudly instead of looping forever.
    let bound = (eng.num_vertices() as u64 + 1 + every as u64).min(u32::MAX as u64) as u32;
    let mut iter = 1u32;
    // Counters are read (a synchronisation) only to trace per-iteration deltas.
    let mut last = if opts.trace { eng.counters()? } else { Counters::default() };
    loop {
        let t = Instant::now();
        let frontier = if opts.trace { eng.frontier_len()? as u64 } else { 0 };
        step(eng, iter)?;
        if opts.trace {
            let c = eng.counters()?;
            stats.trace.push(IterTrace {
                iter,
                frontier,
                arcs: c.arcs - last.arcs,
                micros: t.elapsed().as_secs_f64() * 1e6,
                bucket: 0,
                far: 0,
                slots: 0,
            });
            last = c;
        }
        if iter.is_multiple_of(every) {
            stats.readbacks += 1;
            if eng.frontier_len()? == 0 {
                break;
            }
        }
        if iter >= bound {
            return Err(not_converged(eng, iter));
        }
        if let Some(w) = watch.as_mut().filter(|w| iter >= w.next()) {
            w.look(eng, iter)?;
        }
        iter += 1;
    }
    Ok(())
}

/// Drive a frontier strategy through [`Engine::run_loop`]: Workfront (`buckets: None`),
/// Near-Far (one bucket) or Bucketing. By default one call runs the whole solve on the device;
/// with a trace (or `device_loop` off) one iteration per call, recording the queue sizes.
pub(crate) fn device_loop(
    g: &Graph,
    eng: &mut dyn Engine,
    source: u32,
    opts: &Options,
    buckets: Option<BucketSpec>,
) -> Result<Solution> {
    crate::reference::check_source(g, source)?;
    device_loop_from(g, eng, &[source], opts, buckets)
}

/// [`device_loop`] from a set of vertex ids of the engine's runs (several sources of one
/// nearest-source solve, or one per lane of a batch): every seed at 0. The result has one
/// distance per id.
pub(crate) fn device_loop_from(
    g: &Graph,
    eng: &mut dyn Engine,
    seeds: &[u32],
    opts: &Options,
    buckets: Option<BucketSpec>,
) -> Result<Solution> {
    let opts = &Options { classify: opts.classify_on(g), ..*opts };
    // The block loop's shared queue entries keep a degree in 32 bits.
    if opts.block_loop && g.num_arcs() as u64 >= u32::MAX as u64 {
        return Err(Error::InvalidArgument("the block loop does not support graphs of 2^32 arcs or more".into()));
    }
    let (stats, started) = run_device_loop(g, eng, seeds, opts, buckets, true)?;
    finish(g, eng, stats, started, opts.target)
}

/// Iterations before the first early negative-cycle check of a signed frontier run: runs
/// without a negative cycle rarely get this far (NY: about 850 Workfront iterations).
pub(crate) const CYCLE_CHECK_FRONTIER: u32 = 1024;

/// The same for topology-driven Bellman-Ford, whose every iteration sweeps the whole graph (as
/// much work as a check).
pub(crate) const CYCLE_CHECK_SWEEPS: u32 = 16;

/// A check is made only once the run has taken this many times what the last one cost (the
/// first one's cost estimated from the graph's size), so a run without a negative cycle spends
/// at most about a fifth of its time looking for one.
const CYCLE_CHECK_RATIO: u32 = 4;

/// The early negative-cycle check of the engines' runs on signed graphs: at
/// iterations `first`, `2 first`, `4 first`, ..., when the time rule above allows, read the distances back
/// and look for a negative cycle among the reached vertices'
/// parents ([`crate::reference::negative_cycle_in`]). A cycle of weight -1 through many
/// vertices otherwise costs the whole Workfront bound, `n` iterations (a 24M-vertex road graph:
/// minutes), before the serial Bellman-Ford names it.
pub(crate) struct CycleWatch<'g> {
    g: &'g Graph,
    started: Instant,
    next: u32,
    cost: Duration,
}

impl<'g> CycleWatch<'g> {
    /// A watch for a run on `g` that started at `started`, first looking after `first`
    /// iterations; `None` unless `g` has signed weights.
    pub(crate) fn new(g: &'g Graph, started: Instant, first: u32) -> Option<Self> {
        // About 2 ns per vertex and arc for the download and the host pass.
        let cost = Duration::from_nanos(2 * (g.num_vertices() as u64 + g.num_arcs() as u64));
        (g.metric() == Metric::Signed).then_some(CycleWatch { g, started, next: first.max(1), cost })
    }

    /// The iteration count at which the run should next stop and call [`CycleWatch::look`].
    pub(crate) fn next(&self) -> u32 {
        self.next
    }

    /// After `iters` iterations (`>= next()`, between two of them): look for a negative cycle
    /// if the time rule allows; a cycle found is the run's result.
    pub(crate) fn look(&mut self, eng: &mut dyn Engine, iters: u32) -> Result<()> {
        while self.next <= iters {
            self.next = self.next.saturating_mul(2);
        }
        if self.started.elapsed() < self.cost * CYCLE_CHECK_RATIO {
            return Ok(());
        }
        let t = Instant::now();
        let raw = eng.distances()?;
        if let Some(cycle) = crate::reference::negative_cycle_in(self.g, &raw) {
            return Err(cycle);
        }
        self.cost = t.elapsed();
        Ok(())
    }
}

/// Compute the edge classes, when a run may use them, before it starts its clock (once per
/// engine): whether it uses them, and the time that took (zero after the first).
///
/// [`Classify::Auto`] decides from a census of `g` (the engine's graph) on the host first
/// ([`census`]): the classes cost `4` bytes per arc of device memory (plus `12` per arc into a
/// sink), which a run that does not use them should not hold; only when they pay does the
/// engine compute them.
pub(crate) fn prepare_classes(g: &Graph, eng: &mut dyn Engine, opts: &Options) -> Result<(bool, Duration)> {
    let t = Instant::now();
    let mut fresh = false;
    match opts.classify {
        Classify::Off => return Ok((false, Duration::ZERO)),
        Classify::On => {}
        Classify::Auto => {
            let (counts, counted) = census(g, eng);
            fresh = counted;
            if !Classify::Auto.uses(counts) {
                return Ok((false, if fresh { t.elapsed() } else { Duration::ZERO }));
            }
        }
    }
    let (counts, computed) = eng.classify()?;
    let uses = opts.classify.uses(counts);
    if uses {
        // The classified twins' module, loaded before the run's clock starts.
        eng.device().load(crate::device::Module::Twins)?;
    }
    Ok((uses, if fresh || computed { t.elapsed() } else { Duration::ZERO }))
}

/// What the edge classes of a graph would hold, counted on the host, kept in the engine's
/// extras (one per engine, as the classes are).
struct ClassCensus(Option<ClassCounts>);

/// The counts [`Engine::classify`] would find for `g` (the engine's graph), without the
/// classes: the skipped self-loops and the arcs into sinks, by the kernels' own rule
/// (`sssp_kernels::classify::arc_class`; neither class depends on the head's in-degree), in one
/// pass over the arcs on the host's threads. `None` for a graph that cannot be classified.
/// Returns whether this call counted them (the first one on an engine does).
pub(crate) fn census(g: &Graph, eng: &mut dyn Engine) -> (Option<ClassCounts>, bool) {
    if let Some(c) = eng.extras().get::<ClassCensus>() {
        return (c.0, false);
    }
    let counts = census_of(g);
    eng.extras().put(ClassCensus(counts));
    (counts, true)
}

/// Arcs above which [`census`] samples instead of counting every arc: the exact count reads the
/// head's degree at random for every arc, which on the host is a cache miss per arc (kron 28,
/// 8.6G arcs: 16.2 s on the H200 machine's 16 cores, before its first solve).
pub(crate) const CENSUS_EXACT_ARCS: usize = 1 << 26;

/// Arcs the sampled census looks at: every `m / CENSUS_SAMPLES`-th arc. The decision it feeds
/// ([`Classify::uses`]) compares a share with [`super::options::CLASSIFY_MIN_SHARE`] (10%);
/// the sampled share's standard error is below `sqrt(0.25 / 2^22)` = 0.025 percentage points,
/// so only a graph within a hair of the threshold could be decided the other way (and then
/// either way is within a hair of break-even).
pub(crate) const CENSUS_SAMPLES: usize = 1 << 22;

fn census_of(g: &Graph) -> Option<ClassCounts> {
    census_with(g, CENSUS_EXACT_ARCS, CENSUS_SAMPLES)
}

/// The census of `g`: exact up to `exact` arcs, else estimated from `samples` arcs evenly spaced
/// over the arc array (each one's tail found by a binary search of the offsets) and scaled to
/// the graph's arcs. Estimated counts decide [`Classify::Auto`] only: a run that then uses the
/// classes has the engine count them exactly ([`Engine::classify`]).
fn census_with(g: &Graph, exact: usize, samples: usize) -> Option<ClassCounts> {
    use sssp_kernels::classify::arc_class;
    use sssp_kernels::{ARC_SINK, ARC_SKIP};
    let (n, m) = (g.num_vertices(), g.num_arcs());
    if !crate::engine::classifiable(n as u64, m as u64) {
        return None;
    }
    let (offsets, targets, weights) = (g.offsets(), g.targets(), g.engine_weights());
    let metric = sssp_kernels::Metric::from_code(g.metric().code());
    let class = |u: usize, e: usize| -> (u64, u64) {
        let v = targets[e] as usize;
        match arc_class(metric, u as u32, v as u32, weights[e], 2, offsets[v + 1] - offsets[v]) {
            ARC_SKIP => (1, 0),
            ARC_SINK => (0, 1),
            _ => (0, 0),
        }
    };
    let add = |a: (u64, u64), b: (u64, u64)| (a.0 + b.0, a.1 + b.1);
    if m <= exact || samples == 0 {
        let (skipped, deferred) = (0..n)
            .into_par_iter()
            .map(|u| (offsets[u] as usize..offsets[u + 1] as usize).map(|e| class(u, e)).fold((0, 0), add))
            .reduce(|| (0, 0), add);
        return Some(ClassCounts { arcs: m as u64, skipped, deferred });
    }
    let (k, stride) = (samples.min(m), m / samples.min(m));
    let (skipped, deferred) =
        (0..k).into_par_iter().map(|i| i * stride).map(|e| class(g.source_of(e) as usize, e)).reduce(|| (0, 0), add);
    let scale = |c: u64| ((c as u128 * m as u128) / k as u128) as u64;
    Some(ClassCounts { arcs: m as u64, skipped: scale(skipped), deferred: scale(deferred) })
}

/// The iterations after which a run of `spec` on `eng` that has not finished means a broken
/// engine, not a property of the input: Workfront ends within n + 1 iterations; a bucketed run
/// within n + 1 per bucket that held a vertex (at most n).
pub(crate) fn loop_bound(eng: &dyn Engine, spec: &LoopSpec) -> u32 {
    let n = eng.num_vertices() as u64 + 1;
    if spec.buckets.is_some() { n.saturating_mul(n) } else { n }.min(u32::MAX as u64) as u32
}

/// [`device_loop_from`] up to the finished run on the device (of `g`, which `eng` holds): its
/// stats and start time. `watch`: look for negative cycles on the way.
pub(crate) fn run_device_loop(
    g: &Graph,
    eng: &mut dyn Engine,
    seeds: &[u32],
    opts: &Options,
    buckets: Option<BucketSpec>,
    watch: bool,
) -> Result<(Stats, Instant)> {
    if let Some(b) = &buckets {
        check_buckets(b)?;
    }
    // The block loop relaxes the plain targets: no classes to compute.
    let (classify, classify_time) =
        if opts.block_loop { (false, Duration::ZERO) } else { prepare_classes(g, eng, opts)? };
    let spec = LoopSpec {
        balance: opts.balance,
        dedupe: opts.dedupe,
        buckets,
        cutoff: opts.device_cutoff(),
        target: opts.target.unwrap_or(sssp_kernels::NO_TARGET),
        hub: opts.hub_degree,
        classify,
        block: opts.block_loop,
    };
    let mut stats = Stats { delta: buckets.map(|b| b.delta), buckets: buckets.map(|b| b.count), ..Stats::default() };
    stats.classify = classify_time;
    stats.classes_used = classify;
    let started = Instant::now();
    eng.init(seeds)?;
    let bound = loop_bound(eng, &spec);
    let mut watch = if watch { CycleWatch::new(g, started, CYCLE_CHECK_FRONTIER) } else { None };
    let status = if opts.trace || !opts.device_loop {
        let mut prev = eng.run_loop(&spec, 0)?;
        let mut last = eng.counters()?;
        loop {
            let t = Instant::now();
            let now = eng.run_loop(&spec, 1)?;
            stats.readbacks += 1;
            if opts.trace {
                let c = eng.counters()?;
                stats.trace.push(IterTrace {
                    iter: now.state.iters,
                    frontier: prev.near as u64,
                    arcs: c.arcs - last.arcs,
                    micros: t.elapsed().as_secs_f64() * 1e6,
                    bucket: prev.state.current,
                    far: now.far as u64,
                    slots: now.slots as u64,
                });
                last = c;
            }
            if now.state.done != 0 || now.state.iters >= bound {
                break now;
            }
            if let Some(w) = watch.as_mut().filter(|w| now.state.iters >= w.next()) {
                w.look(eng, now.state.iters)?;
            }
            prev = now;
        }
    } else if let Some(w) = watch.as_mut() {
        // One launch per stretch up to the next check: the state resumes where it stopped.
        let mut done = 0;
        loop {
            let now = eng.run_loop(&spec, w.next().min(bound) - done)?;
            stats.readbacks += 1;
            if now.state.done != 0 || now.state.iters >= bound {
                break now;
            }
            done = now.state.iters;
            w.look(eng, done)?;
        }
    } else {
        stats.readbacks = 1;
        eng.run_loop(&spec, bound)?
    };
    if status.state.done == 0 {
        return Err(not_converged(eng, status.state.iters));
    }
    stats.far_splits = status.state.splits;
    Ok((stats, started))
}

/// The error for a frontier that outlived the Workfront bound: an engine fault, never a
/// property of the input (see [`frontier_loop`]).
pub(crate) fn not_converged(eng: &dyn Engine, iterations: u32) -> Error {
    Error::Verification(format!(
        "frontier still non-empty after {iterations} iterations on {} vertices: engine fault on {}",
        eng.num_vertices(),
        eng.device()
    ))
}

/// Read distances and counters back, convert to [`Dist`], and turn a dropped overflowing
/// candidate into a typed error when it hid a reachable vertex.
///
/// `target`: the run's [`Options::target`](super::Options::target). When it was reached, the
/// answer is the distances up to the target's, every farther vertex unreached: a vertex whose
/// distance does not fit lies farther, and a run that stopped early leaves vertices unreached
/// behind reached ones anyway, so a dropped candidate is no error there (the check would name
/// such a vertex). A target left unreached (the run went to the end) is checked as a full run.
pub(crate) fn finish(
    g: &Graph,
    eng: &mut dyn Engine,
    mut stats: Stats,
    started: Instant,
    target: Option<u32>,
) -> Result<Solution> {
    let c = finish_stats(eng, &mut stats, started)?;
    let t = Instant::now();
    let raw = eng.distances()?;
    // In parallel: the first touch of the result (8 bytes per vertex) dominates the download
    // of big graphs otherwise (kron 24: 134 MB).
    let mut dist = Vec::new();
    crate::mem::reserve(&mut dist, raw.len())?;
    let metric = g.metric();
    dist.par_extend(raw.par_iter().map(|&d| to_dist(metric, d)));
    stats.download = t.elapsed();
    if c.overflow != 0 {
        if metric == Metric::Signed {
            // A dropped sum on a signed graph may have left the range downwards, which a
            // negative cycle does too: `signed_guard` decides, knowing the source.
            stats.overflowed = true;
        } else if !target.is_some_and(|t| eng.lanes() == 1 && raw.get(t as usize).is_some_and(|&d| d != INF)) {
            check_overflow(g, &raw, eng.lanes())?;
        }
    }
    Ok(Solution { dist, metric, stats, parents: None })
}

/// [`finish`] for a run on the host's threads (no engine): `raw` in the engines' encoding,
/// `overflow` whether some candidate did not fit (an error only if a vertex lost its only way).
pub(crate) fn finish_host(g: &Graph, raw: Vec<u32>, overflow: bool, mut stats: Stats) -> Result<Solution> {
    let t = Instant::now();
    if overflow {
        check_overflow(g, &raw, 1)?;
    }
    let metric = g.metric();
    let mut dist = Vec::new();
    crate::mem::reserve(&mut dist, raw.len())?;
    dist.par_extend(raw.par_iter().map(|&d| to_dist(metric, d)));
    stats.download = t.elapsed();
    Ok(Solution { dist, metric, stats, parents: None })
}

/// Wait for the run, and fill the stats from the engine's counters (returned).
fn finish_stats(eng: &mut dyn Engine, stats: &mut Stats, started: Instant) -> Result<Counters> {
    eng.relax_deferred()?;
    eng.synchronize()?;
    stats.compute = started.elapsed();
    let c = eng.counters()?;
    stats.arcs_relaxed = c.arcs;
    stats.vertices_processed = c.vertices;
    stats.iterations = c.busy as u32;
    Ok(c)
}

/// [`finish`] for a batched run: the distances of the first `count` lanes, each its own vector,
/// de-interleaved straight from the downloaded words (no `n * lanes` intermediate of
/// [`Dist`]s: on road 4M with 8 lanes that intermediate doubled the host's time).
pub(crate) fn finish_lanes(
    g: &Graph,
    eng: &mut dyn Engine,
    mut stats: Stats,
    started: Instant,
    count: usize,
) -> Result<(Stats, Vec<Vec<Dist>>)> {
    let c = finish_stats(eng, &mut stats, started)?;
    let t = Instant::now();
    let raw = eng.distances()?;
    let (n, k) = (g.num_vertices(), eng.lanes() as usize);
    let metric = g.metric();
    let mut rows: Vec<Vec<Dist>> = Vec::with_capacity(count);
    for _ in 0..count {
        let mut dist = Vec::new();
        crate::mem::reserve(&mut dist, n)?;
        rows.push(dist);
    }
    // One pass over the interleaved words, each block of vertices scattered into every row
    // (a pass per lane would read all `n * lanes` words `lanes` times).
    struct Out(Vec<*mut Dist>);
    // SAFETY: every task below writes a disjoint range of vertices of each row.
    unsafe impl Sync for Out {}
    impl Out {
        fn row(&self, j: usize) -> *mut Dist {
            self.0[j]
        }
    }
    let out = Out(rows.iter_mut().map(|r| r.as_mut_ptr()).collect());
    const BLOCK: usize = 1 << 12;
    raw[..n * k].par_chunks(BLOCK * k).enumerate().for_each(|(b, block)| {
        for (i, lanes) in block.chunks_exact(k).enumerate() {
            for (j, &d) in lanes[..count].iter().enumerate() {
                // SAFETY: row j has capacity n > b * BLOCK + i, and only this task writes there.
                unsafe { *out.row(j).add(b * BLOCK + i) = to_dist(metric, d) };
            }
        }
    });
    for r in &mut rows {
        // SAFETY: the pass above wrote all n entries of every row.
        unsafe { r.set_len(n) };
    }
    stats.download = t.elapsed();
    if c.overflow != 0 {
        check_overflow(g, &raw, eng.lanes())?;
    }
    Ok((stats, rows))
}

/// A distance cell as a [`Dist`]: [`UNREACHED`] for `INF`, signed cells decoded.
#[inline]
pub(crate) fn to_dist(metric: Metric, d: u32) -> Dist {
    match metric {
        _ if d == INF => UNREACHED,
        Metric::Signed => Metric::decode_signed(d) as Dist,
        _ => d as Dist,
    }
}

/// A negative-weight engine run's result, checked: a run that dropped a sum out of range, or
/// outlived the Workfront bound of `n` iterations, met a negative cycle or a distance past
/// `i32`. The certificate accepts a result that is exact anyway (an upward overflow on a path
/// that was not the shortest); otherwise serial Bellman-Ford finds the cycle, with its witness
/// ([`Error::NegativeCycle`]), or the distance that does not fit ([`Error::DistanceOverflow`]).
pub(crate) fn signed_guard(g: &Graph, source: u32, run: Result<Solution>) -> Result<Solution> {
    if g.metric() != Metric::Signed {
        return run;
    }
    let failed = match run {
        Ok(sol) if !sol.stats.overflowed => return Ok(sol),
        Ok(sol) if crate::verify::check(g, source, &sol.dist).is_ok() => return Ok(sol),
        Ok(_) => Error::DistanceOverflow { vertex: source, bits: 32 },
        Err(e @ (Error::Verification(_) | Error::DistanceOverflow { .. })) => e,
        Err(e) => return Err(e),
    };
    let dist = crate::reference::bellman_ford(g, source)?;
    // No cycle: a distance beyond the engines' i32 range, or (if none) the engine's own error.
    match dist.iter().position(|&d| d != UNREACHED && (d < i32::MIN as Dist || d >= i32::MAX as Dist)) {
        Some(v) => Err(Error::DistanceOverflow { vertex: v as u32, bits: 32 }),
        None => Err(failed),
    }
}

/// Candidates that would reach `INF` are dropped on the device; a vertex left at `INF` behind a
/// reached in-neighbour is one whose distance does not fit
/// ([`crate::reference::overflow_victim`]).
fn check_overflow(g: &Graph, dist: &[u32], lanes: u32) -> Result<()> {
    match crate::reference::overflow_victim(g, lanes as usize, |i| dist[i] != INF) {
        Some(v) => Err(Error::DistanceOverflow { vertex: v, bits: 32 }),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The host census counts what the engine's classification passes count, on graphs with
    /// every class: self-loops (a negative one, which is not skipped, on a signed graph),
    /// sinks, single and plain arcs, and on generated graphs.
    #[test]
    fn the_census_counts_what_the_engine_classifies() {
        let drawn = [
            vec![(0, 0, 3), (0, 1, 1), (1, 2, 2), (2, 3, 1), (3, 3, 0), (1, 4, 5), (2, 4, 1), (0, 5, 2)],
            vec![(0, 0, -1), (0, 1, 2), (1, 1, 4), (1, 2, -3), (2, 0, 5), (2, 3, 1)],
        ];
        let mut graphs: Vec<Graph> = drawn.iter().map(|a| Graph::from_arcs(6, a).unwrap()).collect();
        for spec in ["kron:8", "road:500", "grid2d:10x10"] {
            let s = crate::generate::GenSpec::parse(spec).unwrap();
            graphs.push(crate::generate::generate(&s, 3, crate::WeightSpec::AsGiven).unwrap());
        }
        for g in &graphs {
            let mut eng = crate::engine::cpu::CpuEngine::new(g).unwrap();
            let (want, _) = eng.classify().unwrap();
            assert!(want.is_some());
            assert_eq!(census_of(g), want, "{} vertices, {} arcs", g.num_vertices(), g.num_arcs());
        }
        assert!(graphs[0].num_arcs() > 0 && census_of(&graphs[0]).unwrap().skipped == 2);
        assert_eq!(census_of(&graphs[1]).unwrap().skipped, 1, "the negative self-loop stays a plain arc");
        let empty = Graph::from_arcs(3, &[]).unwrap();
        assert_eq!(census_of(&empty), None, "no arcs: not classifiable");
    }

    /// Above [`CENSUS_EXACT_ARCS`] the census samples: on graphs forced to sample (a small
    /// `exact`), the estimated shares of skipped and deferred arcs are within a percentage
    /// point of the exact ones, and lead [`Classify::Auto`] to the same decision; sampling
    /// every arc is the exact count.
    #[test]
    fn the_sampled_census_estimates_the_shares() {
        for (spec, seed) in
            [("kron:14", 1), ("road:20000", 2), ("star:5000", 3), ("grid2d:100x100", 4), ("path:3000", 5)]
        {
            let s = crate::generate::GenSpec::parse(spec).unwrap();
            let g = crate::generate::generate(&s, seed, crate::WeightSpec::AsGiven).unwrap();
            let exact = census_with(&g, usize::MAX, 0).unwrap();
            assert_eq!(census_with(&g, 0, g.num_arcs()), Some(exact), "{spec}: every arc sampled");
            let est = census_with(&g, 0, 1 << 12).unwrap();
            let share = |c: u64| c as f64 / g.num_arcs() as f64;
            for (a, b) in [(est.skipped, exact.skipped), (est.deferred, exact.deferred)] {
                assert!((share(a) - share(b)).abs() < 0.01, "{spec}: estimated {est:?}, exact {exact:?}");
            }
            let (a, b) = (Classify::Auto.uses(Some(est)), Classify::Auto.uses(Some(exact)));
            let margin = (share(exact.skipped + exact.deferred) - super::super::options::CLASSIFY_MIN_SHARE).abs();
            assert!(a == b || margin < 0.01, "{spec}: the sample decided {a}, the count {b}");
        }
    }
}
