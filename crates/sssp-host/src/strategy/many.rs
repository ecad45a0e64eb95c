//! Many sources on one resident graph: nearest-source distances from a set of
//! sources in one run, and many independent solves streamed from one upload, batched on the
//! engine's lanes where it has them.
//!
//! **Nearest source** ([`solve_nearest`]): every source starts at distance 0 and the frontier
//! holds them all, so one run gives each vertex its distance to the nearest source (facility
//! location, Voronoi cells of a road network, multi-depot routing). The tree it can return is a
//! forest rooted at the sources; [`crate::tree::nearest_roots`] names each vertex's source.
//!
//! **Batched sources** ([`solve_each`] on an engine opened with
//! [`crate::engine::open_lanes`]): `k` independent solves share one pass. Vertex `v` of lane
//! `j` is id `v * k + j` (`sssp_kernels::Csr::lane_bits`), so the frontier strategies run on
//! them unchanged: one persistent launch, one threshold schedule, one queue per bucket, `k`
//! sources' frontiers in every iteration. Road graphs are where this pays: a single solve
//! there is hundreds of iterations over a few hundred vertices each (NY: 1 696 iterations,
//! about 150 vertices per near set), far too little to fill a GPU, so the iterations of `k`
//! sources cost little more than one source's. The lanes of a vertex are adjacent ids, so their
//! distance words share cache lines and the arcs they read are the same.

use super::{attach_tree, auto, clip, device_loop_from, finish_lanes, run_device_loop, Algo, Options, Solution};
use crate::engine::{BucketSpec, Engine};
use crate::error::{Error, Result};
use crate::graph::Graph;
use crate::reference::{check_source, Bound};

/// The bucket structure of a frontier strategy (`Some(None)`: Workfront Sweep), or `None` for
/// an algorithm that is not one.
fn frontier_buckets(g: &Graph, algo: Algo, opts: &Options) -> Result<Option<Option<BucketSpec>>> {
    let delta = || opts.delta_for(g);
    Ok(match algo {
        Algo::Workfront => Some(None),
        Algo::NearFar => Some(Some(BucketSpec { delta: delta()?, count: 1, wide_at: opts.wide_at })),
        Algo::Bucketing => Some(Some(BucketSpec { delta: delta()?, count: opts.buckets, wide_at: opts.wide_at })),
        _ => None,
    })
}

/// `algo`, or what `auto` picks for `g` on `eng` (with its options).
/// Negative weights run one source at a time: their negative-cycle check is per source.
fn refuse_signed(g: &Graph, what: &str) -> Result<()> {
    if g.metric() == crate::graph::Metric::Signed {
        return Err(Error::InvalidArgument(format!(
            "{what} need non-negative weights; with negative ones solve each source on its own"
        )));
    }
    Ok(())
}

fn resolve(g: &Graph, algo: Algo, eng: Option<&dyn Engine>, opts: &Options) -> (Algo, Options, Option<String>) {
    if algo == Algo::Auto {
        let c = auto::choose_lanes(g, eng.is_some_and(|e| e.is_gpu()), opts, eng.map_or(1, |e| e.lanes()));
        (c.algo, c.opts, Some(c.why))
    } else {
        (algo, *opts, None)
    }
}

/// Distances from the nearest of `sources` (at least one; repeats are ignored): one run with
/// every source at 0. Serial Dijkstra and the frontier strategies (Workfront, Near-Far,
/// Bucketing, and `auto`'s picks among them) take a set of sources; the others run from one.
/// Cutoff and target queries and trees work as in [`super::solve`]: the tree is a forest
/// rooted at the sources, and [`crate::tree::nearest_roots`] turns it into each vertex's
/// nearest source. Errors: [`Error::VertexOutOfRange`] for a source `>= n`,
/// [`Error::InvalidArgument`] for no source or an algorithm that takes one.
pub fn solve_nearest(
    g: &Graph,
    algo: Algo,
    eng: Option<&mut (dyn Engine + 'static)>,
    sources: &[u32],
    opts: &Options,
) -> Result<Solution> {
    if sources.is_empty() {
        return Err(Error::InvalidArgument("a nearest-source run needs at least one source".into()));
    }
    refuse_signed(g, "nearest-source runs")?;
    for &s in sources {
        check_source(g, s)?;
    }
    if let Some(t) = opts.target {
        check_source(g, t)?;
    }
    let mut seeds = sources.to_vec();
    seeds.sort_unstable();
    seeds.dedup();
    let (ran, o, why) = resolve(g, algo, eng.as_deref().map(|e| e as &dyn Engine), opts);
    let mut eng = eng;
    let meter = super::start_meter(eng.as_deref());
    let mut sol = if ran == Algo::DeltaStepping {
        super::delta_stepping::delta_stepping_from(g, &seeds, &o)?
    } else if ran == Algo::Dijkstra {
        let t = std::time::Instant::now();
        let (dist, st) = crate::reference::dijkstra_from(g, &seeds, Bound { cutoff: o.cutoff, target: o.target })?;
        let stats = super::Stats { compute: t.elapsed(), arcs_relaxed: st.arcs_relaxed, ..Default::default() };
        Solution { dist, metric: g.metric(), stats, parents: None }
    } else {
        let Some(buckets) = frontier_buckets(g, ran, &o)? else {
            return Err(Error::InvalidArgument(format!(
                "`{}` runs from one source; nearest-source runs take dijkstra, delta-stepping, workfront, near-far, bucketing or auto",
                ran.name()
            )));
        };
        let e = eng
            .as_deref_mut()
            .ok_or_else(|| Error::InvalidArgument(format!("`{}` runs on an engine; none was opened", ran.name())))?;
        crate::engine::one_lane(e.lanes(), "a nearest-source run")?;
        device_loop_from(g, e, &seeds, &o, buckets)?
    };
    sol.stats.chosen = why;
    sol.stats.chosen_algo = (algo == Algo::Auto).then_some(ran);
    clip(&mut sol.dist, &o);
    let resident = ran.uses_engine();
    super::certify::certify_result(
        g,
        eng.as_mut().map(|e| &mut **e as &mut dyn Engine),
        resident,
        sources,
        0,
        &mut sol,
        &o,
    )?;
    if o.tree {
        attach_tree(g, ran, eng, &seeds, &mut sol, &o)?;
    }
    sol.stats.device_memory = super::peak_of(meter, ran);
    Ok(sol)
}

/// Solve from every one of `sources` (each independently, in order) and hand each result to
/// `each(source, solution)` as soon as it is ready, so a caller can stream rows without holding
/// them all. On an engine with lanes ([`crate::engine::open_lanes`]) the frontier strategies
/// solve `lanes` sources per pass (the last pass may be partly filled; `Stats::batch` says how
/// many shared it, and its times and counters are the pass's); one-lane engines and the serial
/// references run one source at a time through [`super::solve`]. Tree and target queries and
/// the other engine algorithms need a one-lane engine ([`Error::InvalidArgument`] otherwise).
/// Stops at the first error, from a solve or from `each`.
pub fn solve_each(
    g: &Graph,
    algo: Algo,
    eng: Option<&mut (dyn Engine + 'static)>,
    sources: &[u32],
    opts: &Options,
    mut each: impl FnMut(u32, Solution) -> Result<()>,
) -> Result<()> {
    for &s in sources {
        check_source(g, s)?;
    }
    let mut eng = eng;
    let lanes = eng.as_deref().map_or(1, |e| e.lanes());
    if lanes > 1 {
        refuse_signed(g, "batched runs (--batch)")?;
    }
    let (ran, o, why) = resolve(g, algo, eng.as_deref().map(|e| e as &dyn Engine), opts);
    let buckets = frontier_buckets(g, ran, &o)?;
    let batched = match (lanes, buckets) {
        // The serial references (what `auto` picks on a CPU for road graphs) need no engine.
        (1, _) => None,
        (_, None) if !ran.uses_engine() => None,
        (_, Some(b)) if !o.tree && o.target.is_none() => Some(b),
        (_, _) => {
            return Err(Error::InvalidArgument(format!(
                "an engine with {lanes} lanes runs batches of distance (and cutoff) queries with workfront, near-far or bucketing; `{}`{} runs one source at a time: open the engine with one lane",
                ran.name(),
                if o.tree || o.target.is_some() { " with a tree or a target" } else { "" }
            )))
        }
    };
    let Some(buckets) = batched else {
        for &s in sources {
            let sol = super::solve(g, algo, eng.as_deref_mut(), s, opts)?;
            each(s, sol)?;
        }
        return Ok(());
    };
    let e = eng.expect("an engine has lanes");
    for chunk in sources.chunks(lanes as usize) {
        let meter = super::start_meter(Some(&*e));
        // Lane j of this pass solves from chunk[j]: its source is id chunk[j] * k + j.
        let seeds: Vec<u32> = chunk.iter().enumerate().map(|(j, &s)| s * lanes + j as u32).collect();
        // Batches refuse signed graphs: no negative cycle to watch for.
        let (stats, started) = run_device_loop(g, e, &seeds, &o, buckets, false)?;
        let (mut stats, rows) = finish_lanes(g, e, stats, started, chunk.len())?;
        stats.batch = Some(chunk.len() as u32);
        stats.chosen.clone_from(&why);
        stats.chosen_algo = (algo == Algo::Auto).then_some(ran);
        for (j, (mut dist, &s)) in rows.into_iter().zip(chunk).enumerate() {
            clip(&mut dist, &o);
            let mut sol = Solution { dist, metric: g.metric(), stats: stats.clone(), parents: None };
            // Every lane's distances stay resident until the next pass.
            super::certify::certify_result(g, Some(&mut *e), true, &[s], j as u32, &mut sol, &o)?;
            // The pass's peak so far (its certificates up to this lane's included).
            sol.stats.device_memory = super::peak_of(meter.clone(), ran);
            each(s, sol)?;
        }
    }
    Ok(())
}
