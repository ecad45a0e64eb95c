//! `--algo auto`: pick the strategy and its parameters from the device and the graph.
//!
//! The rule is read off measurements (the table's, and docs/performance.md), not theory, and says why
//! it chose:
//!
//! | device | graph | choice | measured |
//! |---|---|---|---|
//! | GPU | skewed degrees (hubs) | Workfront, partition balance | kron 16: 0.66 ms (Near-Far 0.88, vwarp 41); kron 22: 8.6 ms (Near-Far 9.2); in the partition loop with 32-bit ranks (2026-11-28) kron 16 0.21, kron 18 0.37-0.39, kron 22 5.2 (Near-Far 5.7) |
//! | GPU | even degrees, mean < 3.5 (road networks) | Bucketing, virtual warps, delta = 8 x heuristic | NY: 7.27 ms (heuristic delta 9.67, best measured 7.05); road 4M: 22.9 ms (best measured 23.1) |
//! | GPU | a road network of at most [`GPU_SMALL_ROAD_ARCS`] arcs | Bucketing, virtual warps, delta = 32 x heuristic | H200: luxembourg 3.06 ms (8x: 3.22, Workfront 2.96); gen:road 30k-100k within 1-2% of the best |
//! | GPU | even degrees, mean 3.5 to 5 (2D meshes) | Near-Far, virtual warps, delta = 4 x heuristic | grid2d 500^2, 1000^2, 2000^2: 3.92, 8.33, 19.2 ms (heuristic delta 4.75, 10.1, 22.9) |
//! | GPU | even degrees, mean 5 to 12 (3D meshes, sparse uniform random graphs) | Near-Far, partition balance, heuristic delta | H200: grid3d 256^3 15.8 ms (virtual warps 17.5); `gen:uniform:4194304:8` 2.6 (virtual warps 7.3 in the plain loop, 3.9 in the wide one) |
//! | GPU | even degrees, mean >= 12 (dense uniform random graphs) | Near-Far, partition balance, delta = heuristic / 2 | H200: `gen:uniform:16777216:16` 20.5 ms (heuristic 22.4; virtual warps 87.5 in the plain loop, 30.6 in the wide one); `gen:uniform:67108864:16` 91.9 (100.1) |
//! | CPU | fewer than [`CPU_SERIAL_ARCS`] arcs | serial Dijkstra | a 15-vertex path 0.023 ms (delta-stepping 0.076); road 2k 0.110 (0.138) |
//! | CPU | even degrees, mean < 3.5 (roads) | delta-stepping ([`super::delta_stepping`]): a thread per 16k vertices (at most 16); delta = heuristic / 4 on one thread, the heuristic on 2-15, 2 x heuristic on 16 | 16-core host, 2026-11-29: NY on 2 cores 11.5-12.2 ms (one thread 15.0; GAP 11.6), on 16 5.5 (GAP 4.4); road 1M on 2 cores 42-47 (GAP 39.4), on 16 12.0 (GAP 8.6) |
//! | CPU | every other graph | delta-stepping, a thread per 8k vertices; delta = heuristic / 64 at mean out-degree 8 or more, heuristic / 32 below | 16-core host, 2026-11-29, 16 threads: kron 20 39 ms (GAP 44), `gen:uniform:4194304:8` 92-98 (GAP 103), web-NotreDame 5.3-5.8 (GAP 4.4) |
//! | any | a negative weight | serial Bellman-Ford (the only algorithm that accepts one) | |
//! | any | one source, no cutoff or target, the engine already holds a contraction hierarchy of the graph whose core is at most 1/[`PHAST_CORE_SHARE`] of the vertices (built, or read with `--hierarchy`) | PHAST ([`phast_fits`]) | H100: NY 1.76 ms (auto's frontier pick 8.07), road 4M 3.13 (25.6), grid2d 1M 2.67 (16.1); CPU engine on 2 cores: NY 4-6.5 ms (Dijkstra 23-42). kron 16's core is 42% of its vertices: 30.4 ms against 0.69 |
//!
//! "Skewed" means the largest out-degree is at least [`SKEW`] times the mean and at least
//! [`SKEW_MIN_DEGREE`]: a hub then holds a warp's worth of arcs many times over, and only
//! load-balanced partitioning keeps it from serialising a warp. On road networks the GPU's time
//! is iterations (docs/gpu.md), so a wider bucket than Davidson's work-minimising heuristic pays;
//! on 3D meshes the heuristic's work saving wins (grid3d: 3x slower at 8x the delta), and 2D
//! meshes sit between (4x the heuristic). A traced run (`--trace`) wants iterations, so on the CPU
//! it takes Near-Far instead of delta-stepping or Dijkstra.

use super::{heuristic_delta, scaled_delta, Algo, Options, Width};
use crate::engine::{Balance, Dedupe, Engine};
use crate::graph::{Graph, Metric, RealDistances, Weights};
use crate::hierarchy::Hierarchy;

/// Arcs below which the CPU runs serial Dijkstra: delta-stepping's fixed cost (about 50 us on
/// a 2-core machine) is most of a small run. Measured with `sssp bench --device
/// cpu` there: a 15-vertex path 0.023 ms against 0.076; road 2,000 (5k arcs) 0.110 against
/// 0.138; road 10,000 (25k arcs) 0.520 against 0.433 and kron 10 (32k arcs) 0.229 against 0.197,
/// where delta-stepping already wins.
pub const CPU_SERIAL_ARCS: usize = 8192;

/// Max degree / mean degree from which a graph counts as skewed.
pub const SKEW: f64 = 32.0;
/// ... and the max degree it needs at least (small graphs have small maxima whatever their shape).
/// Not the engines' hub threshold ([`crate::HUB_DEGREE`], which picks the vertices of a run that
/// go to the grid-wide pass): this one only classifies the graph.
pub const SKEW_MIN_DEGREE: usize = 256;
/// Bucket width multiplier over the heuristic for road networks on a GPU.
pub const GPU_ROAD_DELTA_FACTOR: u64 = 8;
/// Arcs up to which a road network on a GPU takes [`GPU_SMALL_ROAD_DELTA_FACTOR`]: about one
/// wave of an H200's resident threads (132 SMs x 2048), so the extra relaxations of a wide
/// bucket run beside the useful ones and only the rounds it saves count. Measured on the H200
/// (`bench --algos workfront,bucketing --balance vwarp --deltas 8x,16x,32x,64x,128x`, 7
/// sources): luxembourg (239k arcs) 8x 3.22 ms, 32x 3.06, Workfront 2.96 (1,090, 1,010 and 989
/// rounds); gen:road 30k-100k (75k-250k arcs) every width within 2%; above it wide buckets
/// cost: gen:road 300k 8x 2.96, 32x 3.06; NY (734k arcs) 8x 4.08, 32x 5.25.
pub const GPU_SMALL_ROAD_ARCS: usize = 1 << 18;
/// Bucket width multiplier over the heuristic for road networks of at most
/// [`GPU_SMALL_ROAD_ARCS`] arcs on a GPU.
pub const GPU_SMALL_ROAD_DELTA_FACTOR: u64 = 32;
/// Mean out-degree below which an even-degree graph is taken for a road network (road
/// networks: 2.4-2.8; grids and meshes: 4-6). Measured on NY (2.8), road 4M (2.5), grid3d (6).
pub const ROAD_MEAN_DEGREE: f64 = 3.5;
/// Mean out-degree from which an even-degree mesh is taken for a 3D one (grid2d: 4.0, grid3d:
/// 6.0). Below it a GPU widens the buckets ([`GPU_MESH2D_DELTA_FACTOR`]); from it, wider
/// buckets cost more work than the iterations they save.
pub const MESH_3D_MEAN_DEGREE: f64 = 5.0;
/// Mean out-degree from which an even-degree graph on a GPU takes half the heuristic width:
/// on uniform random graphs of mean degree 16 the heuristic's buckets relax about twice the
/// arcs (work 1.94-1.96), half of it 1.66-1.67. Measured on the H200 with Near-Far and partition
/// balance (docs/performance.md): `gen:uniform:67108864:16` 91.9 ms against 100.1,
/// `gen:uniform:16777216:16` 20.5 against 22.4; at mean degree 8 (`gen:uniform:4194304:8`, 2.68
/// against 2.61) and on grid3d (mean 6: 17.9 against 15.9) the heuristic is as good or better.
pub const DENSE_HALF_DELTA_MEAN_DEGREE: f64 = 12.0;
/// Bucket width multiplier over the heuristic for 2D meshes on a GPU. Measured on the H100
/// (H100, 2026-11-27): Near-Far
/// at 4x the heuristic took grid2d 500^2, 1000^2 and 2000^2 in 3.92, 8.33 and 19.2 ms against
/// 4.75, 10.1 and 22.9 at 1x (8x: 3.80, 8.37, 21.0). On grid3d 128^3 and 256^3, 2x was already
/// 1.1x and 1.3x slower than 1x.
pub const GPU_MESH2D_DELTA_FACTOR: u64 = 4;

/// `auto` runs PHAST on a graph holding a hierarchy whose core is at most this fraction of its
/// vertices (road 4M: 1/675, grid2d 1M: 1/897, NY: no core; kron 16: 1/2.4, where the host
/// search of the core is the whole solve).
pub const PHAST_CORE_SHARE: u64 = 64;

/// PHAST as `auto`'s pick for one full solve on `eng`, with the reason, or `None`: only when
/// the engine already holds a hierarchy of the graph ([`super::phast::attach`]) (building one costs seconds to
/// minutes, which a single solve never pays back) with a small core, on one lane, for a full
/// tree (a cutoff or target query stops the frontier strategies early; a trace wants their
/// iterations).
pub fn phast_fits(g: &Graph, eng: &mut dyn Engine, base: &Options) -> Option<Choice> {
    let lanes = eng.lanes();
    phast_choice(g, &*super::phast::held(eng)?, lanes, base)
}

/// [`phast_fits`] with the hierarchy `h` of `g` at hand, on an engine of `lanes` lanes (for a
/// caller deciding whether to open an engine at all).
pub fn phast_choice(g: &Graph, h: &Hierarchy, lanes: u32, base: &Options) -> Option<Choice> {
    let small_core = h.stats.core as u64 * PHAST_CORE_SHARE <= g.num_vertices() as u64;
    let full = base.cutoff.is_none() && base.target.is_none() && !base.trace;
    (lanes == 1 && full && small_core && g.metric() == Metric::Integer).then(|| Choice {
        algo: Algo::Phast,
        opts: *base,
        why: format!(
            "auto: phast (the graph holds a contraction hierarchy: {} levels, core of {})",
            h.stats.levels, h.stats.core
        ),
    })
}

/// What `auto` picked, and why, in one line.
#[derive(Clone, Debug)]
pub struct Choice {
    /// The algorithm to run.
    pub algo: Algo,
    /// Its options (balance, dedupe, delta chosen; the caller's others kept).
    pub opts: Options,
    /// One line: what and why, printed by the CLI and recorded in `--json`.
    pub why: String,
}

/// Whether `g`'s degrees are skewed (scale-free): its largest degree is at least
/// [`SKEW_MIN_DEGREE`] and [`SKEW`] times the mean. What [`choose`] tells social and web graphs
/// from roads and meshes by.
pub fn is_skewed(g: &Graph) -> bool {
    let mean = g.num_arcs() as f64 / g.num_vertices().max(1) as f64;
    let max = g.max_degree();
    max >= SKEW_MIN_DEGREE && max as f64 >= SKEW * mean.max(1.0)
}

/// Choose for `g` on a GPU (`gpu`) or the CPU backend, starting from `base` (its check and trace
/// settings are kept; balance, dedupe and delta are chosen here).
pub fn choose(g: &Graph, gpu: bool, base: &Options) -> Choice {
    let n = g.num_vertices().max(1);
    let mean = g.num_arcs() as f64 / n as f64;
    let max = g.max_degree();
    let skewed = is_skewed(g);
    let shape = format!("{} degrees: max {max}, mean {mean:.1}", if skewed { "skewed" } else { "even" });
    let with = |algo, balance, delta: Option<u32>, what: String| Choice {
        algo,
        opts: Options { balance, dedupe: Dedupe::Stamp, delta: delta.map(|d| Width::encoded(g.metric(), d)), ..*base },
        why: format!("auto: {what} ({shape}; {})", if gpu { "GPU" } else { "CPU" }),
    };
    if matches!(g.weights(), Weights::Signed(_)) {
        // Negative weights: Workfront on a GPU (label-correcting, the engines' only strategy
        // that takes them besides topology-driven Bellman-Ford, which does more work), serial
        // Bellman-Ford on the CPU.
        return match (gpu, skewed) {
            (true, true) => with(
                Algo::Workfront,
                Balance::Partition,
                None,
                "workfront, partition balance (negative weights)".into(),
            ),
            (true, false) => {
                with(Algo::Workfront, Balance::VirtualWarp, None, "workfront, vwarp (negative weights)".into())
            }
            (false, _) => Choice {
                algo: Algo::BellmanFord,
                opts: *base,
                why: "auto: bellman-ford (negative weights; CPU)".into(),
            },
        };
    }
    let h = heuristic_delta(g);
    let hs = g.metric().show(h as crate::Dist);
    // The heuristic times `factor`, and how it reads.
    let widened = |factor: f64| {
        let d = scaled_delta(g, factor);
        (d, format!("delta {} = {factor} x heuristic", g.metric().show(d as crate::Dist)))
    };
    match (gpu, skewed) {
        (true, true) => with(Algo::Workfront, Balance::Partition, None, "workfront, partition balance".into()),
        (true, false) if mean < ROAD_MEAN_DEGREE => {
            let small = g.num_arcs() <= GPU_SMALL_ROAD_ARCS;
            let factor = if small { GPU_SMALL_ROAD_DELTA_FACTOR } else { GPU_ROAD_DELTA_FACTOR };
            let (d, shown) = widened(factor as f64);
            with(Algo::Bucketing, Balance::VirtualWarp, Some(d), format!("bucketing, vwarp, {shown}"))
        }
        (true, false) if mean < MESH_3D_MEAN_DEGREE => {
            let (d, shown) = widened(GPU_MESH2D_DELTA_FACTOR as f64);
            with(Algo::NearFar, Balance::VirtualWarp, Some(d), format!("near-far, vwarp, {shown}"))
        }
        (true, false) => {
            let (d, shown) = widened(if mean < DENSE_HALF_DELTA_MEAN_DEGREE { 1.0 } else { 0.5 });
            with(Algo::NearFar, Balance::Partition, Some(d), format!("near-far, partition balance, {shown}"))
        }
        // A trace asks for an engine's iterations, which the host algorithms do not have.
        (false, _) if base.trace => {
            with(Algo::NearFar, Balance::VirtualWarp, Some(h), format!("near-far, vwarp, delta {hs} (traced)"))
        }
        // Tiny graphs: delta-stepping's set-up (buckets, a thread's start) is most of the run.
        (false, _) if g.num_arcs() < CPU_SERIAL_ARCS => Choice {
            algo: Algo::Dijkstra,
            opts: *base,
            why: format!("auto: dijkstra (fewer than {CPU_SERIAL_ARCS} arcs; {shape}; CPU)"),
        },
        (false, skewed) => {
            let road = !skewed && mean < ROAD_MEAN_DEGREE;
            let (pool, threads) = cpu_threads(n, road);
            let (d, shown) = cpu_delta(g, road, mean, threads);
            let mut c = with(
                Algo::DeltaStepping,
                Balance::Thread,
                Some(d),
                format!("delta-stepping, {threads} thread{}, {shown}", if threads == 1 { "" } else { "s" }),
            );
            c.opts.workers = if threads < pool { threads as u32 } else { base.workers };
            c
        }
    }
}

/// Delta-stepping's bucket width on the CPU for `g` (a road network or not, of mean out-degree
/// `mean`) on `threads` threads, and how it reads: the heuristic scaled by the rule of the
/// constants below (docs/performance.md, "The CPU backend against GAP", has the sweeps). A
/// CPU thread pays little per bucket (a barrier, a microsecond or two) and a lot per repeated
/// expansion, so outside road networks the buckets are far narrower than the GPU's.
fn cpu_delta(g: &Graph, road: bool, mean: f64, threads: usize) -> (u32, String) {
    let h = heuristic_delta(g);
    let divided = |by: u32| match g.metric() {
        Metric::Integer | Metric::Signed => (h / by).max(1),
        Metric::Real => (f32::from_bits(h) / by as f32).max(f32::MIN_POSITIVE).to_bits(),
    };
    let show = |d: u32| g.metric().show(d as crate::Dist);
    let by = |k: u32| (divided(k), format!("delta {} = heuristic / {k}", show(divided(k))));
    match road {
        true if threads == 1 => by(CPU_ROAD_DELTA_DIVISOR),
        true if threads >= CPU_ROAD_WIDE_THREADS => {
            let d = scaled_delta(g, CPU_ROAD_WIDE_FACTOR as f64);
            (d, format!("delta {} = {CPU_ROAD_WIDE_FACTOR} x heuristic", show(d)))
        }
        true => (h, format!("delta {} = heuristic", show(h))),
        false if mean >= CPU_DENSE_MEAN_DEGREE => by(CPU_DELTA_DIVISOR),
        false => by(CPU_SPARSE_DELTA_DIVISOR),
    }
}

/// The host's threads for delta-stepping on a graph of `n` vertices (a road network or not), as
/// (the pool, the threads `auto` asks for).
fn cpu_threads(n: usize, road: bool) -> (usize, usize) {
    let pool = super::delta_stepping::threads();
    // A thread per so many vertices: on a small graph the threads' start and their
    // barriers cost more than the work they share (road 20k on 2 cores: 0.8 ms on one
    // thread, 2.4 on two).
    let per = if road { CPU_ROAD_VERTICES_PER_THREAD } else { CPU_VERTICES_PER_THREAD };
    let by_size = (n / per).max(1);
    let threads = match road {
        true => pool.min(by_size).min(CPU_ROAD_THREADS),
        false => pool.min(by_size),
    };
    (pool, threads)
}

/// Most threads `auto` gives delta-stepping on a road network. Measured on the H200 machine's
/// 16-core host, 2026-11-29 (`RAYON_NUM_THREADS=T sssp bench G --device cpu --algos
/// delta-stepping --deltas 0.25x,0.5x,1x,2x,4x --trials 5`; docs/performance.md): NY at the
/// heuristic width 20.7 ms on 1 thread, 15.5 on 2, 11.5 on 4, 7.6 on 8, 6.6 on 16; road 1M 30.0
/// on 4, 19.8 on 8, 14.9 on 16.
pub const CPU_ROAD_THREADS: usize = 16;

/// Vertices per delta-stepping thread `auto` asks for on a road network: small ones stay on one
/// thread (road 20k on 2 cores: one 0.8 ms, two 2.4), NY (264k vertices) takes 16 (see
/// [`CPU_ROAD_THREADS`]). Every pool of 2 or more shares a large road network's buckets: on two
/// cores of the 16-core host (2026-11-29, `docs/results/h200-host-2026-11-29-cpu/`) NY took
/// 11.5-12.2 ms on two threads against 15.0 on one, road 1M 42-47 against 57-60.
pub const CPU_ROAD_VERTICES_PER_THREAD: usize = 1 << 14;
/// ... and on every other graph (kron 16, 65k vertices: 11.6 ms on two threads).
pub const CPU_VERTICES_PER_THREAD: usize = 1 << 13;

/// The CPU's bucket width for road networks on one thread: the heuristic over this (one
/// thread on the 16-core host, 2026-11-29: NY 15.1 ms at 1/8 and 1/4, 16.6 at 1/2, 19.6 at 1x).
pub const CPU_ROAD_DELTA_DIVISOR: u32 = 4;
/// Threads from which a road network's buckets are [`CPU_ROAD_WIDE_FACTOR`] times the
/// heuristic; fewer threads (but more than one) take the heuristic itself. Measured on the
/// 16-core host, 2026-11-29 (`RAYON_NUM_THREADS=T sssp bench G --device cpu --algos
/// delta-stepping --deltas 0.125x,...,8x`, 3 sources twice, medians): 16 threads: NY 5.53 ms at
/// 1x, 5.55 at 2x, 6.12 at 4x; road 1M 13.2 at 1x, 12.0 at 2x, 11.0 at 4x, 11.8 at 8x. Two
/// threads (two cores): NY 12.2 at 1x, 14.0 at 2x (11.5 at 1/4); road 1M 46.9 at 1x, 42.3 at 2x.
pub const CPU_ROAD_WIDE_THREADS: usize = 16;
/// ... the factor.
pub const CPU_ROAD_WIDE_FACTOR: u32 = 2;
/// Mean out-degree from which a non-road graph takes [`CPU_DELTA_DIVISOR`], below it
/// [`CPU_SPARSE_DELTA_DIVISOR`]: the best widths on the 16-core host (2026-11-29, 16 threads
/// and 2) were 1-2 on kron 20 (mean 32, heuristic / 64 = 2) and 4-8 on `gen:uniform:4194304:8`
/// (heuristic / 64 = 8), but 32-64 on web-NotreDame (mean 4.6, heuristic / 64 = 13: 7.4 ms
/// against 5.3-5.8 at 32-64 on 16 threads) and 32 on ca-CondMat (mean 1.7, heuristic / 64 =
/// 37, heuristic / 32 = 74: 2.0 and 2.1 ms on 16 threads, 2.5 and 2.8 on two).
pub const CPU_DENSE_MEAN_DEGREE: f64 = 8.0;
/// The CPU's bucket width for non-road graphs of mean out-degree [`CPU_DENSE_MEAN_DEGREE`] or
/// more: the heuristic over this (kron 20: best at 1-2 of 128; `gen:uniform:4194304:8`: 4-8 of
/// 512).
pub const CPU_DELTA_DIVISOR: u32 = 64;
/// ... and below that mean degree (social and web graphs): the heuristic over this.
pub const CPU_SPARSE_DELTA_DIVISOR: u32 = 32;

/// [`choose`] for an engine of `lanes` lanes. Batches run on the frontier strategies only, so
/// where [`choose`] picks a host algorithm (the CPU's delta-stepping) a batch runs Near-Far with
/// the heuristic delta instead: the caller asked for lanes, and a host pick would drop them.
pub fn choose_lanes(g: &Graph, gpu: bool, base: &Options, lanes: u32) -> Choice {
    let c = choose(g, gpu, base);
    if lanes <= 1 || c.algo.uses_engine() {
        return c;
    }
    let h = heuristic_delta(g);
    Choice {
        algo: Algo::NearFar,
        opts: Options {
            balance: Balance::VirtualWarp,
            dedupe: Dedupe::Stamp,
            delta: Some(Width::encoded(g.metric(), h)),
            ..*base
        },
        why: format!(
            "auto: near-far, vwarp, delta {} ({lanes} lanes: delta-stepping on the host runs one source at a time)",
            g.metric().show(h as crate::Dist)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{generate, GenSpec};
    use crate::WeightSpec;

    /// An integer graph's width as a number.
    fn int(w: Width) -> u32 {
        w.encode(Metric::Integer).unwrap()
    }

    fn graph(spec: &str) -> Graph {
        generate(&GenSpec::parse(spec).unwrap(), 1, WeightSpec::AsGiven).unwrap()
    }

    #[test]
    fn hubs_get_partitioning_and_roads_get_buckets_or_dijkstra() {
        let (kron, road) = (graph("kron:14"), graph("road:20000"));
        let o = Options::default();
        assert_eq!(
            (choose(&kron, true, &o).algo, choose(&kron, true, &o).opts.balance),
            (Algo::Workfront, Balance::Partition)
        );
        assert_eq!(choose(&kron, false, &o).algo, Algo::DeltaStepping);
        assert_eq!(
            choose(&kron, false, &o).opts.delta.map(int),
            Some((heuristic_delta(&kron) / CPU_DELTA_DIVISOR).max(1))
        );
        // Sparse non-road graphs (mean out-degree below 8) take wider buckets than dense ones.
        let sparse = graph("uniform:40000:4");
        assert_eq!(
            choose(&sparse, false, &o).opts.delta.map(int),
            Some((heuristic_delta(&sparse) / CPU_SPARSE_DELTA_DIVISOR).max(1))
        );
        let gpu_road = choose(&road, true, &o);
        let mesh = choose(&graph("grid3d:12x12x12"), true, &o);
        assert_eq!(
            (mesh.algo, mesh.opts.delta.map(int)),
            (Algo::NearFar, Some(heuristic_delta(&graph("grid3d:12x12x12"))))
        );
        assert_eq!(mesh.opts.balance, Balance::Partition);
        // Uniform random graphs (even degrees, mean 8) go with the 3D meshes.
        let uniform = graph("uniform:4096:8");
        assert!(!is_skewed(&uniform));
        let dense = choose(&uniform, true, &o);
        assert_eq!((dense.algo, dense.opts.balance), (Algo::NearFar, Balance::Partition));
        assert_eq!(dense.opts.delta.map(int), Some(heuristic_delta(&uniform)));
        let denser = graph("uniform:4096:16");
        let half = choose(&denser, true, &o);
        assert_eq!((half.algo, half.opts.balance), (Algo::NearFar, Balance::Partition));
        assert_eq!(half.opts.delta.map(int), Some(scaled_delta(&denser, 0.5)));
        assert!(half.why.contains("= 0.5 x heuristic"), "{}", half.why);
        // A 2D mesh (mean degree 4) gets wider buckets than a 3D one (mean degree 6).
        let plane = graph("grid2d:100x100");
        let mesh2d = choose(&plane, true, &o);
        assert_eq!((mesh2d.algo, mesh2d.opts.delta.map(int)), (Algo::NearFar, Some(heuristic_delta(&plane) * 4)));
        assert!(mesh2d.why.contains("= 4 x heuristic"), "{}", mesh2d.why);
        assert_eq!((gpu_road.algo, gpu_road.opts.balance), (Algo::Bucketing, Balance::VirtualWarp));
        // A road network within one wave of resident threads takes wider buckets than a larger one.
        assert!(road.num_arcs() <= GPU_SMALL_ROAD_ARCS);
        assert_eq!(gpu_road.opts.delta.map(int), Some(heuristic_delta(&road) * 32));
        let big_road = graph("road:120000");
        assert!(big_road.num_arcs() > GPU_SMALL_ROAD_ARCS);
        assert_eq!(choose(&big_road, true, &o).opts.delta.map(int), Some(heuristic_delta(&big_road) * 8));
        assert_eq!(choose(&road, false, &o).algo, Algo::DeltaStepping);
        // Road networks: a thread per 16k vertices at the heuristic width, twice it on 16
        // threads, a quarter of it on one thread (road 20k stays on one).
        let in_pool = |t: usize, g: &Graph| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(t).build().unwrap();
            pool.install(|| choose(g, false, &o))
        };
        let two = in_pool(2, &big_road);
        assert_eq!((two.opts.workers, two.opts.delta.map(int)), (o.workers, Some(heuristic_delta(&big_road))));
        assert!(two.why.contains("2 threads") && two.why.contains("= heuristic ("), "{}", two.why);
        let shared = in_pool(8, &big_road);
        assert_eq!((shared.opts.workers, shared.opts.delta.map(int)), (7, Some(heuristic_delta(&big_road))));
        assert!(shared.why.contains("7 threads"), "{}", shared.why);
        let huge = graph("road:300000");
        let wide = in_pool(16, &huge);
        assert_eq!((wide.opts.workers, wide.opts.delta.map(int)), (o.workers, Some(scaled_delta(&huge, 2.0))));
        assert!(wide.why.contains("16 threads") && wide.why.contains("= 2 x heuristic"), "{}", wide.why);
        let alone = in_pool(8, &road);
        assert_eq!(
            (alone.opts.workers, alone.opts.delta.map(int)),
            (1, Some(heuristic_delta(&road) / CPU_ROAD_DELTA_DIVISOR))
        );
        // Lanes need a frontier strategy: a batch on the CPU does not run the host's algorithm.
        assert_eq!(choose_lanes(&road, false, &o, 1).algo, Algo::DeltaStepping);
        assert_eq!(choose_lanes(&road, false, &o, 4).algo, Algo::NearFar);
        assert_eq!(choose_lanes(&kron, true, &o, 4).algo, Algo::Workfront);
        // Tiny graphs run serial Dijkstra on the CPU, a frontier strategy on a GPU.
        let tiny = graph("grid2d:30x30");
        assert!(tiny.num_arcs() < CPU_SERIAL_ARCS);
        assert_eq!(choose(&tiny, false, &o).algo, Algo::Dijkstra);
        assert_ne!(choose(&tiny, true, &o).algo, Algo::Dijkstra);
        assert!(
            gpu_road.why.starts_with("auto: bucketing") && gpu_road.why.contains("even degrees"),
            "{}",
            gpu_road.why
        );
    }

    #[test]
    fn phast_only_on_a_held_hierarchy_with_a_small_core() {
        use crate::engine::{self, DeviceKind};
        use crate::strategy::phast;
        let (road, kron) = (graph("road:3000"), graph("kron:11"));
        let o = Options::default();
        let mut on_road = engine::open(&road, DeviceKind::Cpu).unwrap();
        let mut on_kron = engine::open(&kron, DeviceKind::Cpu).unwrap();
        assert!(phast_fits(&road, on_road.as_mut(), &o).is_none(), "no hierarchy built yet");
        phast::hierarchy(&road, on_road.as_mut()).unwrap();
        let (h, _) = phast::hierarchy(&kron, on_kron.as_mut()).unwrap();
        assert_eq!(phast_fits(&road, on_road.as_mut(), &o).map(|c| c.algo), Some(Algo::Phast));
        let mut batched = engine::open_lanes(&road, DeviceKind::Cpu, 2).unwrap();
        phast::attach(batched.as_mut(), phast::held(on_road.as_mut()).unwrap()).unwrap();
        assert!(phast_fits(&road, batched.as_mut(), &o).is_none(), "batched");
        assert!(phast_fits(&road, on_road.as_mut(), &o.with_cutoff(10)).is_none(), "a cutoff query");
        assert!(phast_fits(&road, on_road.as_mut(), &Options { trace: true, ..o }).is_none(), "traced");
        assert!(h.stats.core as u64 * PHAST_CORE_SHARE > 2048);
        assert!(phast_fits(&kron, on_kron.as_mut(), &o).is_none(), "kron's core is too big");
    }
}
