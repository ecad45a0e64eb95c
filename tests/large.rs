//! Large graphs (10M+ arcs per family) through every engine configuration, checked against
//! serial Dijkstra. Too slow for CI's CPU backend, so `#[ignore]`d; the GPU suite
//! (`scripts/gpu-suite.sh`) runs them with `--ignored` and `SSSP_TEST_DEVICE=gpu`.

use std::path::Path;

use sssp::engine::{self, Balance, Dedupe};
use sssp::generate::{generate, GenSpec};
use sssp::graph::Graph;
use sssp::strategy::{solve, Algo, Options};
use sssp::WeightSpec;

use sssp_tests::device;

fn check(g: &Graph, what: &str, with_topo_bf: bool) {
    let mut eng = engine::open(g, device()).unwrap();
    let src = sssp::reference::pick_sources(g, 1, 7)[0];
    let want = sssp::reference::dijkstra(g, src).unwrap();
    for balance in [Balance::Thread, Balance::VirtualWarp, Balance::Partition] {
        let mut runs = vec![];
        if with_topo_bf {
            runs.push((Algo::TopoBf, Options { balance, ..Options::default() }));
        }
        for dedupe in [Dedupe::Stamp, Dedupe::Lookup] {
            for device_loop in [false, true] {
                runs.push((Algo::Workfront, Options { balance, dedupe, device_loop, ..Options::default() }));
            }
            // The bucketed strategies with the heuristic delta, on the device loop.
            runs.push((Algo::NearFar, Options { balance, dedupe, ..Options::default() }));
            runs.push((Algo::Bucketing, Options { balance, dedupe, ..Options::default() }));
        }
        for (algo, opts) in runs {
            let sol = solve(g, algo, Some(eng.as_mut()), src, &opts).unwrap();
            sssp::verify::compare(&sol.dist, &want).unwrap_or_else(|e| panic!("{what} {} {opts:?}: {e}", algo.name()));
            eprintln!(
                "{what}: {} {:?}/{:?} ok, {:.2} ms",
                algo.name(),
                opts.balance,
                opts.dedupe,
                sol.stats.compute.as_secs_f64() * 1e3
            );
        }
    }
}

fn gen(spec: &str) -> Graph {
    generate(&GenSpec::parse(spec).unwrap(), 1, WeightSpec::AsGiven).unwrap()
}

#[test]
#[ignore]
fn large_kron() {
    check(&gen("kron:20"), "kron:20", true);
}

#[test]
#[ignore]
fn large_uniform() {
    check(&gen("uniform:2000000:8"), "uniform:2M:8", true);
}

#[test]
#[ignore]
fn large_grid2d() {
    check(&gen("grid2d:2000x2000"), "grid2d:2000x2000", false);
}

#[test]
#[ignore]
fn large_grid3d() {
    check(&gen("grid3d:140x140x140"), "grid3d:140^3", false);
}

#[test]
#[ignore]
fn large_road() {
    check(&gen("road:4000000"), "road:4M", false);
}

#[test]
#[ignore]
fn ny_road_all_configs() {
    let candidates = [
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/road/USA-road-d.NY.gr.gz"),
        Path::new(".gpu/USA-road-d.NY.gr.gz").to_path_buf(),
    ];
    let path = candidates.iter().find(|p| p.exists()).expect("USA-road-d.NY.gr.gz not found in ../shared or .gpu/");
    let g = sssp::io::read_graph(path, &sssp::io::LoadOptions::default()).unwrap();
    check(&g, "NY", true);
}

#[test]
#[ignore]
fn gpu_memory_limit_is_a_typed_error() {
    // kron:16 needs ~25 MB plus the 256 MiB margin; a 100 MB cap must refuse it before allocating.
    let g = gen("kron:16");
    match sssp::engine::cuda::CudaEngine::with_memory_limit(&g, Some(100 << 20)) {
        Err(sssp::Error::OutOfDeviceMemory { needed, available, .. }) => {
            assert_eq!(available, 100 << 20);
            assert!(needed > available);
        }
        Err(e) => panic!("expected OutOfDeviceMemory, got {e}"),
        Ok(_) => panic!("expected OutOfDeviceMemory, got an engine"),
    }
    assert!(sssp::engine::cuda::CudaEngine::with_memory_limit(&g, Some(1 << 30)).is_ok());
}
