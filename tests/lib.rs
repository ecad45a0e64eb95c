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

use sssp::engine::{Balance, Dedupe};
use sssp::strategy::crauser::{Criterion, Variant};
use sssp::strategy::{Algo, Classify, Options};
use sssp::Metric;

/// Bucket widths that stress the bucketed strategies on `metric`'s graphs: the heuristic
/// (`None`), the narrowest width, one larger than any distance the tests produce (one bucket:
/// Workfront with a far pile that stays empty), and an odd one in between. Real widths are
/// `f32` bit patterns (the narrowest is the smallest subnormal: bucket numbers saturate).
fn deltas(metric: Metric) -> [Option<u32>; 4] {
    match metric {
        Metric::Integer | Metric::Signed => [None, Some(1), Some(u32::MAX - 1), Some(7)],
        Metric::Real => [None, Some(1), Some(f32::MAX.to_bits()), Some(0.37f32.to_bits())],
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
