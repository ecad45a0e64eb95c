//! Integration tests live in tests/*.rs; this library holds what they share.

use std::path::PathBuf;

use sssp::engine::DeviceKind;

/// The device the engine tests run on: `SSSP_TEST_DEVICE=gpu` (what `scripts/gpu-suite.sh run`
/// sets) or `cpu` (the default, and CI's).
pub fn device() -> DeviceKind {
    match std::env::var("SSSP_TEST_DEVICE").as_deref() {
        Ok("gpu") => DeviceKind::Gpu,
        Ok("cpu") | Err(_) => DeviceKind::Cpu,
        Ok(other) => panic!("SSSP_TEST_DEVICE={other}: expected cpu or gpu"),
    }
}

/// How the distributed suite runs its ranks: simulated (the default, and CI's); simulated
/// ranks whose device steps run on GPU 0 with `SSSP_TEST_RANKS=gpu` (what `scripts/gpu-suite.sh
/// run` sets on a one-GPU machine); or NCCL ranks on the first `G` GPUs with
/// `SSSP_TEST_RANKS=nccl:G` (what `scripts/gpu-multi.sh` sets on a multi-GPU machine, with a
/// build that has the `nccl` feature).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RankMode {
    Simulated,
    OneGpu,
    Nccl(usize),
}

/// The mode `SSSP_TEST_RANKS` asks for.
pub fn rank_mode() -> RankMode {
    match std::env::var("SSSP_TEST_RANKS").as_deref() {
        Err(_) | Ok("simulated") => RankMode::Simulated,
        Ok("gpu") => RankMode::OneGpu,
        Ok(s) => match s.strip_prefix("nccl:").and_then(|g| g.parse().ok()) {
            Some(gpus) if gpus > 0 => RankMode::Nccl(gpus),
            _ => panic!("SSSP_TEST_RANKS={s}: expected simulated, gpu or nccl:GPUS"),
        },
    }
}

/// The most ranks this mode runs (NCCL: one per GPU).
pub fn max_ranks() -> usize {
    match rank_mode() {
        RankMode::Simulated | RankMode::OneGpu => usize::MAX,
        RankMode::Nccl(gpus) => gpus,
    }
}

/// The ranks [`dist_solve`] runs `p` ranks on.
pub fn run_ranks(p: usize) -> Ranks {
    match rank_mode() {
        RankMode::Simulated => Ranks::Simulated(p),
        RankMode::OneGpu => Ranks::SimulatedOnGpu(p),
        RankMode::Nccl(_) => Ranks::Nccl(p),
    }
}

/// A distributed solve on `p` ranks of [`rank_mode`]; `None` when the mode has fewer than
/// `p` (NCCL: GPUs). GPU groups are set up once per rank count and kept for the whole test
/// binary (their set-up takes seconds, a small solve milliseconds); simulated ranks go
/// through the one-off [`sssp::distributed::solve`].
pub fn dist_solve(g: &Graph, src: u32, p: usize, opts: &DistOptions) -> Option<sssp::Result<DistSolution>> {
    use std::collections::BTreeMap;
    use std::sync::{Mutex, PoisonError};
    static GROUPS: Mutex<BTreeMap<usize, Group>> = Mutex::new(BTreeMap::new());
    match rank_mode() {
        RankMode::Simulated => Some(sssp::distributed::solve(g, src, Ranks::Simulated(p), opts)),
        RankMode::Nccl(gpus) if p > gpus => None,
        _ => {
            let ranks = run_ranks(p);
            let mut groups = GROUPS.lock().unwrap_or_else(PoisonError::into_inner);
            let group = match groups.entry(p) {
                std::collections::btree_map::Entry::Occupied(e) => e.into_mut(),
                std::collections::btree_map::Entry::Vacant(e) => {
                    e.insert(Group::new(ranks).unwrap_or_else(|e| panic!("{ranks:?}: {e}")))
                }
            };
            Some(group.solve(g, src, opts))
        }
    }
}

/// One `#[test]` per generator family of the strategy suites, each calling `$family(spec,
/// seed)` in the calling file: the same thirteen graphs (scale-free, uniform sparse and dense,
/// meshes, a road-like network, a long path, a hub, a complete graph, components, zero weights,
/// self loops, multi-arcs) for every suite that checks a solver against the reference on them.
/// The dense uniform graph (mean degree 12) takes the CUDA engine's dense geometry under thread
/// and virtual-warp balance (`sssp::engine::DENSE_MEAN_DEGREE`).
#[macro_export]
macro_rules! family_tests {
    ($family:ident) => {
        $crate::family_tests!($family;
            kron "kron:10" 1, uniform "uniform:3000:6" 2, grid2d "grid2d:40x30" 3,
            grid3d "grid3d:10x12x9" 4, road "road:4000" 5, long_path "path:700" 6,
            star_with_hub "star:5000" 7, complete "complete:48" 8,
            disconnected "disconnected:5:600" 9, zero_weights "zero:1500" 10,
            self_loops "selfloops:1000" 11, multi_edges "multi:1000" 12, dense "uniform:2000:12" 13);
    };
    ($family:ident; $($name:ident $spec:literal $seed:literal),*) => {
        $(
            #[test]
            fn $name() {
                $family($spec, $seed);
            }
        )*
    };
}

use sssp::distributed::{DistOptions, DistSolution, Group, Ranks};
use sssp::engine::{Balance, Dedupe};
use sssp::graph::Graph;
use sssp::strategy::crauser::{Criterion, Variant};
use sssp::strategy::{Algo, Classify, Options, Width};
use sssp::Metric;

/// Bucket widths that stress the bucketed strategies on `metric`'s graphs: the heuristic
/// (`None`), the narrowest width, one larger than any distance the tests produce (one bucket:
/// Workfront with a far pile that stays empty), and an odd one in between. On real weights the
/// narrowest is the smallest subnormal `f32` (bucket numbers saturate).
fn deltas(metric: Metric) -> [Option<Width>; 4] {
    match metric {
        Metric::Integer | Metric::Signed => [None, Some(1u32.into()), Some((u32::MAX - 1).into()), Some(7u32.into())],
        Metric::Real => [None, Some(f32::from_bits(1).into()), Some(f32::MAX.into()), Some(0.37f32.into())],
    }
}

/// Every (algorithm, balance, dedupe) combination an engine runs, and for the bucketed
/// strategies the heuristic delta and both extremes, the Workfront <-> Near-Far hybrid, on the
/// device loop and one launch per iteration; `SSSP_TEST_ALGOS=a,b` keeps only those algorithms
/// (to run one family's configs on the GPU machine).
pub fn configs(metric: Metric) -> Vec<(Algo, Options)> {
    let mut v = all_configs(metric);
    if let Ok(keep) = std::env::var("SSSP_TEST_ALGOS") {
        let keep: Vec<Algo> = keep.split(',').map(|a| Algo::parse(a).expect("SSSP_TEST_ALGOS")).collect();
        v.retain(|(a, _)| keep.contains(a));
        // Empty for a metric none of them takes (async on negative weights); a filter that
        // keeps nothing anywhere is a typo.
        let integer = all_configs(Metric::Integer);
        assert!(integer.iter().any(|(a, _)| keep.contains(a)), "SSSP_TEST_ALGOS keeps no configuration");
    }
    v
}

fn all_configs(metric: Metric) -> Vec<(Algo, Options)> {
    let [heuristic, narrow, huge, odd] = deltas(metric);
    // `auto` picks from the device and the graph; whatever it picks must be exact.
    // `auto` first: from a graph's first source it runs its frontier pick; from later ones,
    // once the phast configuration (last) has left the graph a hierarchy with a small core,
    // it runs phast (`strategy::auto::phast_fits`). Both paths are checked.
    let mut v = vec![(Algo::Auto, Options::default())];
    for balance in [Balance::Thread, Balance::VirtualWarp, Balance::Partition] {
        v.push((Algo::TopoBf, Options { balance, hub_degree: 3, ..Options::default() }));
        // H-BF's edge classes forced on (the library's rule leaves them off on most test
        // graphs) and off.
        v.push((Algo::TopoBf, Options { balance, classify: Classify::On, ..Options::default() }));
        v.push((Algo::TopoBf, Options { balance, classify: Classify::Off, ..Options::default() }));
        for dedupe in [Dedupe::Stamp, Dedupe::Lookup] {
            // The hub path: nearly every vertex through it with stamps (threshold 3), the
            // library's threshold with lookup (only the test graphs' real hubs).
            let hub_degree = if dedupe == Dedupe::Stamp { 3 } else { sssp::HUB_DEGREE };
            let base = Options { balance, dedupe, hub_degree, ..Options::default() };
            for check_every in [1, 5] {
                v.push((Algo::Workfront, Options { check_every, device_loop: false, ..base }));
            }
            v.push((Algo::Workfront, base));
            for classify in [Classify::On, Classify::Off] {
                v.push((Algo::Workfront, Options { classify, ..base }));
                v.push((Algo::NearFar, Options { classify, ..base }));
                v.push((Algo::Bucketing, Options { classify, delta: narrow, buckets: 3, ..base }));
            }
            for (delta, buckets, device_loop) in
                [(heuristic, 10, true), (narrow, 3, true), (huge, 30, true), (odd, 2, false)]
            {
                let o = Options { delta, buckets, device_loop, ..base };
                v.push((Algo::Bucketing, o));
                v.push((Algo::NearFar, o));
            }
            // The hybrid: every iteration unordered (the push rules of both at once), and a
            // switch that flips back and forth as the input grows and shrinks.
            v.push((Algo::NearFar, Options { delta: odd, wide_at: 1, ..base }));
            v.push((
                Algo::Bucketing,
                Options { wide_at: 16, buckets: 4, device_loop: balance != Balance::Thread, ..base },
            ));
        }
    }
    // The block loop (one block, shared-memory queues): every frontier strategy and every
    // delta, on one launch for the whole run and on one launch per iteration (each resuming
    // from the state and queues the last one left).
    let block = Options { block_loop: true, dedupe: Dedupe::Stamp, ..Options::default() };
    v.push((Algo::Workfront, block));
    for (delta, buckets, device_loop) in [(heuristic, 10, true), (narrow, 3, true), (huge, 30, true), (odd, 2, false)] {
        let o = Options { delta, buckets, device_loop, ..block };
        v.push((Algo::Bucketing, o));
        v.push((Algo::NearFar, o));
    }
    // The tiled modes (cooperative blocks, CTA+Warp+Scan): without a hub path, so that the
    // CTA tier gets the large vertices, and with threshold 64, so that the warp tier (32..63
    // arcs) and the hub pass both run; every strategy, both loops.
    for balance in [Balance::Cta, Balance::CtaWarpScan] {
        v.push((Algo::TopoBf, Options { balance, hub_degree: 0, ..Options::default() }));
        for (dedupe, hub_degree) in [(Dedupe::Stamp, 64), (Dedupe::Lookup, 0)] {
            let base = Options { balance, dedupe, hub_degree, ..Options::default() };
            v.push((Algo::Workfront, base));
            v.push((Algo::Workfront, Options { classify: Classify::On, ..base }));
            v.push((Algo::Workfront, Options { classify: Classify::Off, ..base }));
            v.push((Algo::Workfront, Options { check_every: 1, device_loop: false, ..base }));
            for (delta, buckets, device_loop) in [(heuristic, 10, true), (narrow, 3, true), (odd, 2, false)] {
                let o = Options { delta, buckets, device_loop, ..base };
                v.push((Algo::Bucketing, o));
                v.push((Algo::NearFar, o));
            }
            v.push((Algo::NearFar, Options { delta: odd, wide_at: 1, ..base }));
        }
    }
    // Parallel Dijkstra: every criterion and both relaxation variants (successor first: the
    // predecessor run is checked against it by the strategies suite).
    // Push steps in both balance modes (dynamic virtual warps, partitioning).
    let settle_modes = [
        (Variant::Successor, Balance::VirtualWarp),
        (Variant::Successor, Balance::Partition),
        (Variant::Predecessor, Balance::VirtualWarp),
    ];
    // Without edge classes, so that each pull run has a push run to be compared with step by
    // step (the classes change the push steps; the pull variant never uses them).
    let plain = Options { classify: Classify::Off, ..Options::default() };
    for criterion in Criterion::ALL {
        for (variant, balance) in settle_modes {
            v.push((Algo::Crauser, Options { criterion, variant, balance, ..plain }));
        }
    }
    for algo in [Algo::CrauserEconomic, Algo::Martin] {
        for (variant, balance) in settle_modes {
            v.push((algo, Options { variant, balance, ..plain }));
        }
    }
    // Their push steps through the edge classes, forced on.
    for balance in [Balance::VirtualWarp, Balance::Partition] {
        v.push((Algo::Crauser, Options { balance, classify: Classify::On, ..Options::default() }));
        v.push((Algo::Martin, Options { balance, classify: Classify::On, ..Options::default() }));
    }
    // PHAST on the graph's contraction hierarchy: integer weights only (tests/phast.rs checks
    // the refusals).
    if metric == Metric::Integer {
        v.push((Algo::Phast, Options::default()));
    }
    // Delta-stepping on the host's threads (non-negative weights): the heuristic, one bucket
    // per unit, one bucket for everything, an odd width.
    if metric != Metric::Signed {
        for delta in deltas(metric) {
            v.push((Algo::DeltaStepping, Options { delta, ..Options::default() }));
        }
        // More threads than the test machine's cores: several threads per bucket, each with
        // its own bins and its fused rounds, whatever the pool; and one thread alone, whose
        // loop writes distances with plain stores.
        v.push((Algo::DeltaStepping, Options { delta: odd, workers: 5, ..Options::default() }));
        v.push((Algo::DeltaStepping, Options { delta: odd, workers: 1, ..Options::default() }));
    }
    // Asynchronous delta-stepping (non-negative weights): the full grid (the CPU's pool at
    // once), one worker (every item by one thread, in bucket order), and the bucket widths that
    // put everything in one bucket, in the narrowest buckets, and in between.
    if metric != Metric::Signed {
        let [heuristic, narrow, wide, odd] = deltas(metric);
        v.push((Algo::Async, Options::default()));
        v.push((Algo::Async, Options { workers: 1, ..Options::default() }));
        for delta in [narrow, wide, odd] {
            v.push((Algo::Async, Options { delta, ..Options::default() }));
        }
        v.push((Algo::Async, Options { delta: heuristic, workers: 3, ..Options::default() }));
    }
    // Resident pieces (non-negative weights): the device's piece size and the smallest (most
    // crossings, several pieces per block on a GPU), at its default width and at the widths
    // that put everything in one bucket, in the narrowest buckets, and in between.
    if metric != Metric::Signed {
        let [_, narrow, wide, odd] = deltas(metric);
        v.push((Algo::Resident, Options::default()));
        v.push((Algo::Resident, Options { piece_bits: 4, ..Options::default() }));
        for delta in [narrow, wide, odd] {
            v.push((Algo::Resident, Options { delta, piece_bits: 4, ..Options::default() }));
        }
        v.push((Algo::Resident, Options { delta: odd, piece_bits: 6, ..Options::default() }));
    }
    v
}

/// A scratch folder under the system's temporary one, unique to the test binary and `tag`,
/// removed (with what the test wrote there) when dropped.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        let exe = std::env::current_exe().ok();
        let suite = exe.as_deref().and_then(|p| p.file_stem()).and_then(|s| s.to_str()).unwrap_or("test");
        let dir = std::env::temp_dir().join(format!("sssp-{suite}-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    /// The path of `name` in the folder.
    pub fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    /// Write `text` to `name` in the folder; its path.
    pub fn write(&self, name: &str, text: &str) -> PathBuf {
        let p = self.path(name);
        std::fs::write(&p, text).unwrap();
        p
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Random directed multigraphs for the proptest suites: a vertex count drawn from `vertices`, up
/// to `max_arcs` arcs (self loops and parallel arcs as they fall) whose tails lie below
/// `tails(n)` (`n` for any; fewer leave the other vertices sinks), and weights from `weight`
/// (each suite its own mix of zero, small, large and near-overflow weights).
pub fn multigraphs<W>(
    vertices: std::ops::Range<u32>,
    max_arcs: usize,
    tails: fn(u32) -> u32,
    weight: fn() -> W,
) -> impl proptest::strategy::Strategy<Value = sssp::graph::Graph>
where
    W: proptest::strategy::Strategy<Value = i64> + 'static,
{
    use proptest::prelude::*;
    vertices.prop_flat_map(move |n| {
        prop::collection::vec((0..tails(n), 0..n, weight()), 0..max_arcs).prop_map(move |arcs| {
            let mut e = sssp::EdgeList::with_capacity(n, arcs.len());
            for (u, v, w) in arcs {
                e.push(u, v, w);
            }
            e.into_graph(sssp::WeightSpec::AsGiven, false).unwrap()
        })
    })
}
