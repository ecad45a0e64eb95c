//! Diameter, radius, center and periphery by eccentricity bounding, against brute force
//! (Dijkstra from every vertex) on seeded random graphs (weighted and unit, connected and not,
//! directed and undirected) and on families with known answers. The witness pair's distance
//! must equal the diameter, and the path (when asked) must be a real path of that length.
//!
//! The device comes from `SSSP_TEST_DEVICE` (`cpu` by default; `gpu` on the GPU machine, where
//! a missing GPU is a failure), as in `strategies.rs`.

use sssp::diameter::{diameter, strongly_connected, BfsMode, DiameterOptions, Extremes, Scope};
use sssp::engine::DeviceKind;
use sssp::generate::{generate, GenSpec};
use sssp::graph::Graph;
use sssp::rng::Rng;
use sssp::strategy::Algo;
use sssp::{Dist, Error, WeightSpec, UNREACHED};

use sssp_tests::device;

fn all(algo: Algo) -> DiameterOptions {
    DiameterOptions { algo, radius: true, center: true, periphery: true, path: true, ..DiameterOptions::default() }
}

/// Brute force: eccentricities within the largest (strongly) connected component, from
/// Dijkstra at every vertex.
struct Brute {
    members: Vec<u32>,
    ecc: Vec<Dist>,
    dist: Vec<Vec<Dist>>,
    components: usize,
}

fn brute(g: &Graph) -> Brute {
    let n = g.num_vertices();
    let dist: Vec<Vec<Dist>> = (0..n as u32).map(|s| sssp::reference::dijkstra(g, s).unwrap()).collect();
    // Components from mutual reachability, independent of the library's Tarjan.
    let mut comp = vec![usize::MAX; n];
    let mut count = 0;
    for u in 0..n {
        if comp[u] != usize::MAX {
            continue;
        }
        for v in 0..n {
            if dist[u][v] != UNREACHED && dist[v][u] != UNREACHED {
                comp[v] = count;
            }
        }
        count += 1;
    }
    let sizes: Vec<usize> = (0..count).map(|c| comp.iter().filter(|&&x| x == c).count()).collect();
    // Components are numbered by their smallest vertex, so the first maximum is the tie rule.
    let big = (0..count).fold(0, |b, c| if sizes[c] > sizes[b] { c } else { b });
    let members: Vec<u32> = (0..n as u32).filter(|&v| comp[v as usize] == big).collect();
    let ecc = members.iter().map(|&u| members.iter().map(|&v| dist[u as usize][v as usize]).max().unwrap()).collect();
    Brute { members, ecc, dist, components: count }
}

fn check(g: &Graph, x: &Extremes, b: &Brute, what: &str) {
    let d = *b.ecc.iter().max().unwrap();
    let r = *b.ecc.iter().min().unwrap();
    assert_eq!(x.components, b.components, "{what}: components");
    assert_eq!(x.component_size, b.members.len(), "{what}: component size");
    assert_eq!(x.diameter, d, "{what}: diameter");
    let (u, v) = x.diameter_pair;
    assert_eq!(b.dist[u as usize][v as usize], d, "{what}: witness ({u}, {v})");
    assert_eq!(x.radius, Some(r), "{what}: radius");
    let (c, f) = x.radius_pair.unwrap();
    assert_eq!(b.dist[c as usize][f as usize], r, "{what}: radius witness");
    let pick = |want: Dist| -> Vec<u32> {
        b.members.iter().zip(&b.ecc).filter(|&(_, &e)| e == want).map(|(&v, _)| v).collect()
    };
    assert!(pick(r).contains(&c), "{what}: radius witness {c} not in the center");
    assert_eq!(x.center.as_deref(), Some(&pick(r)[..]), "{what}: center");
    assert_eq!(x.periphery.as_deref(), Some(&pick(d)[..]), "{what}: periphery");
    let p = x.path.as_ref().unwrap_or_else(|| panic!("{what}: no path"));
    check_path(g, p, u, v, d, what);
    assert!(x.eccentricities as usize <= b.members.len(), "{what}: more eccentricities than vertices");
}

/// `p` is a path from `u` to `v` along arcs of `g` whose (cheapest-arc) length is `len`.
fn check_path(g: &Graph, p: &[u32], u: u32, v: u32, len: Dist, what: &str) {
    assert_eq!((p.first(), p.last()), (Some(&u), Some(&v)), "{what}: path ends");
    let total: Dist = p
        .windows(2)
        .map(|s| {
            g.neighbors(s[0])
                .filter(|&(h, _)| h == s[1])
                .map(|(_, w)| w)
                .min()
                .unwrap_or_else(|| panic!("{what}: no arc {} -> {}", s[0], s[1]))
        })
        .sum();
    assert_eq!(total, len, "{what}: path length");
}

/// Whether `auto` picks an engine loop on this device (else serial Dijkstra: bounds on the
/// host).
fn auto_loop(g: &Graph) -> bool {
    let gpu = device() == DeviceKind::Gpu;
    let algo = sssp::strategy::auto::choose(g, gpu, &sssp::strategy::Options::default()).algo;
    matches!(algo, Algo::Workfront | Algo::NearFar | Algo::Bucketing)
}

/// All weights 1 (or no arcs): where the level BFS applies.
fn unit(g: &Graph) -> bool {
    g.num_arcs() == 0 || g.weight_range() == Some((1, 1))
}

fn random_graph(rng: &mut Rng, directed: bool, weighted: bool) -> Graph {
    let n = 1 + rng.below(12) as u32;
    let m = rng.below(3 * n as u64 + 1);
    let mut arcs = Vec::new();
    for _ in 0..m {
        let (u, v) = (rng.below(n as u64) as u32, rng.below(n as u64) as u32);
        let w = if weighted { rng.below(6) as i64 } else { 1 };
        arcs.push((u, v, w));
        if !directed {
            arcs.push((v, u, w));
        }
    }
    Graph::from_arcs(n, &arcs).unwrap()
}

/// 1200 seeded random graphs (the first 40 on a GPU, where every call opens CUDA engines and
/// JIT-loads the module, a few hundred ms each): every combination of directed/undirected and weighted/unit, with several
/// SSSP algorithms (the serial reference and engine strategies) and BFS modes.
#[test]
fn random_graphs_match_brute_force() {
    let mut rng = Rng::new(0xd1a3);
    let algos = [Algo::Auto, Algo::Dijkstra, Algo::Workfront, Algo::NearFar, Algo::Bucketing];
    let graphs = if device() == DeviceKind::Gpu { 40 } else { 1200 };
    for k in 0..graphs {
        let (directed, weighted) = (k % 2 == 0, k % 4 < 2);
        let g = random_graph(&mut rng, directed, weighted);
        let b = brute(&g);
        let algo = algos[k % algos.len()];
        let what = format!(
            "graph {k} ({}, {}, {})",
            if directed { "directed" } else { "undirected" },
            if weighted { "weighted" } else { "unit" },
            algo.name()
        );
        // Unit weights: also the paper's level kernels (on the engine's bounds).
        let bfs = [BfsMode::Queue, BfsMode::Thread, BfsMode::Warp, BfsMode::Hybrid, BfsMode::Direction][(k / 5) % 5];
        let what = format!("{what} {bfs:?}");
        let x = diameter(&g, device(), &DiameterOptions { bfs, ..all(algo) }).unwrap_or_else(|e| panic!("{what}: {e}"));
        check(&g, &x, &b, &what);
        // Undirected graphs with an engine loop keep their bounds on the engine.
        let engine_loop = matches!(algo, Algo::Workfront | Algo::NearFar | Algo::Bucketing)
            || (algo == Algo::Auto && (auto_loop(&g) || (bfs != BfsMode::Queue && unit(&g))));
        assert_eq!(x.bounds_on_device, engine_loop && !x.directed, "{what}: where the bounds lived");
        if !directed {
            assert!(!x.directed || g.num_arcs() == 0 || !sssp::diameter::is_symmetric(&g).unwrap(), "{what}");
        }
        // Only the diameter asked for: the same answer, ended by pair certification on
        // undirected graphs, and by the paper's rules with `pairs: false`. (Not necessarily
        // fewer eccentricities: other candidates change the alternation's picks.)
        for pairs in [true, false] {
            let lean = diameter(&g, device(), &DiameterOptions { algo, pairs, ..DiameterOptions::default() }).unwrap();
            assert_eq!((lean.diameter, lean.radius, lean.center.is_none()), (x.diameter, None, true), "{what}");
            let (u, v) = lean.diameter_pair;
            assert_eq!(b.dist[u as usize][v as usize], x.diameter, "{what}: lean witness, pairs {pairs}");
            assert!(lean.eccentricities >= 1, "{what}");
        }
        // The whole graph: infinite exactly when disconnected, with a pair that has no path.
        let whole =
            diameter(&g, device(), &DiameterOptions { algo, scope: Scope::Whole, ..DiameterOptions::default() })
                .unwrap();
        if b.components > 1 {
            let (u, v) = whole.diameter_pair;
            assert_eq!((whole.diameter, b.dist[u as usize][v as usize]), (UNREACHED, UNREACHED), "{what}: whole");
        } else {
            assert_eq!(whole.diameter, x.diameter, "{what}: whole, connected");
        }
    }
}

fn known(spec: &str, weights: WeightSpec) -> Extremes {
    let g = generate(&GenSpec::parse(spec).unwrap(), 1, weights).unwrap();
    let x = diameter(&g, device(), &all(Algo::Auto)).unwrap();
    assert!(!x.directed, "{spec}: generated both ways, so symmetric");
    let (u, v) = x.diameter_pair;
    check_path(&g, x.path.as_ref().unwrap(), u, v, x.diameter, spec);
    x
}

#[test]
fn known_answers() {
    for n in [1u32, 2, 3, 10, 101] {
        let x = known(&format!("path:{n}"), WeightSpec::Unit);
        assert_eq!(x.diameter, n as Dist - 1, "path {n}");
        assert_eq!(x.radius, Some(n as Dist / 2), "path {n}");
        let mid = if n % 2 == 1 { vec![n / 2] } else { vec![n / 2 - 1, n / 2] };
        assert_eq!(x.center, Some(mid), "path {n} center");
        if n > 1 {
            assert_eq!(x.periphery, Some(vec![0, n - 1]), "path {n} periphery");
        }
    }
    let one = known("path:1", WeightSpec::Unit);
    assert_eq!((one.diameter, one.diameter_pair, one.path.clone()), (0, (0, 0), Some(vec![0])));
    for (a, b) in [(1u32, 7u32), (5, 5), (13, 4)] {
        let x = known(&format!("grid2d:{a}x{b}"), WeightSpec::Unit);
        assert_eq!(x.diameter, (a + b - 2) as Dist, "grid {a}x{b}");
        assert_eq!(x.periphery.as_ref().map(|p| p.len()), Some(if a == 1 || b == 1 { 2 } else { 4 }), "grid corners");
    }
    for n in [2u32, 5, 40] {
        let x = known(&format!("complete:{n}"), WeightSpec::Unit);
        assert_eq!((x.diameter, x.radius), (1, Some(1)), "complete {n}");
        assert_eq!(x.center.as_ref().map(|c| c.len()), Some(n as usize));
    }
    let x = known("star:50", WeightSpec::Unit);
    assert_eq!((x.diameter, x.radius, x.center.clone()), (2, Some(1), Some(vec![0])), "star");
    assert_eq!(x.periphery.as_ref().map(|p| p.len()), Some(49), "star periphery");
    // Weighted variants: every weight 7 scales every answer by 7.
    let seven = WeightSpec::Random { lo: 7, hi: 7, seed: 1 };
    assert_eq!(known("path:30", seven).diameter, 29 * 7);
    assert_eq!(known("grid2d:6x9", seven).diameter, 13 * 7);
    assert_eq!(known("star:20", seven).radius, Some(7));
}

#[test]
fn cycles() {
    for n in [3u32, 4, 9, 50] {
        let arcs: Vec<_> = (0..n).flat_map(|v| [(v, (v + 1) % n, 1), ((v + 1) % n, v, 1)]).collect();
        let g = Graph::from_arcs(n, &arcs).unwrap();
        let x = diameter(&g, device(), &all(Algo::Auto)).unwrap();
        assert_eq!((x.diameter, x.radius), ((n / 2) as Dist, Some((n / 2) as Dist)), "cycle {n}");
        assert_eq!(x.center.map(|c| c.len()), Some(n as usize));
        // One direction only: the directed cycle's eccentricities are all n - 1.
        let one: Vec<_> = (0..n).map(|v| (v, (v + 1) % n, 1)).collect();
        let x = diameter(&Graph::from_arcs(n, &one).unwrap(), device(), &all(Algo::Auto)).unwrap();
        assert!(x.directed);
        assert_eq!(
            (x.diameter, x.radius, x.traversals),
            ((n - 1) as Dist, Some((n - 1) as Dist), 2 * x.eccentricities + 1)
        );
    }
}

#[test]
fn largest_component_and_whole() {
    // A path of 5 (diameter 4) and a disjoint triangle of heavy edges (diameter 100).
    let mut arcs = vec![];
    for v in 0..4u32 {
        arcs.extend([(v, v + 1, 1), (v + 1, v, 1)]);
    }
    for (u, v) in [(5u32, 6u32), (6, 7), (7, 5)] {
        arcs.extend([(u, v, 100), (v, u, 100)]);
    }
    let g = Graph::from_arcs(8, &arcs).unwrap();
    let x = diameter(&g, device(), &DiameterOptions::default()).unwrap();
    assert_eq!((x.diameter, x.components, x.component_size), (4, 2, 5));
    let w = diameter(&g, device(), &DiameterOptions { scope: Scope::Whole, ..DiameterOptions::default() }).unwrap();
    assert_eq!((w.diameter, w.eccentricities), (UNREACHED, 0));
}

#[test]
fn zero_weights_self_loops_multi_edges() {
    // Zero-weight arcs: the whole graph is at distance 0.
    let g = Graph::from_arcs(3, &[(0, 1, 0), (1, 0, 0), (1, 2, 0), (2, 1, 0), (1, 1, 5)]).unwrap();
    let x = diameter(&g, device(), &all(Algo::Auto)).unwrap();
    assert_eq!((x.diameter, x.radius), (0, Some(0)));
    // Parallel arcs: the cheapest counts, in both directions.
    let g = Graph::from_arcs(2, &[(0, 1, 9), (0, 1, 2), (1, 0, 2), (1, 0, 4), (0, 0, 1)]).unwrap();
    let x = diameter(&g, device(), &all(Algo::Auto)).unwrap();
    assert!(!x.directed);
    assert_eq!(x.diameter, 2);
}

#[test]
fn negative_weights_and_empty_graphs_are_errors() {
    let g = Graph::from_arcs(2, &[(0, 1, -1), (1, 0, 1)]).unwrap();
    assert!(matches!(diameter(&g, device(), &DiameterOptions::default()), Err(Error::NegativeWeight { .. })));
    let e = Graph::from_arcs(0, &[]).unwrap();
    assert!(matches!(diameter(&e, device(), &DiameterOptions::default()), Err(Error::InvalidArgument(_))));
}

#[test]
fn bounding_saves_eccentricities_on_larger_graphs() {
    // The paper's point: far fewer eccentricities than vertices. Counts, not times.
    for spec in ["kron:12", "road:5000", "grid2d:60x40"] {
        let g = generate(&GenSpec::parse(spec).unwrap(), 3, WeightSpec::Unit).unwrap();
        let x = diameter(&g, device(), &DiameterOptions::default()).unwrap();
        let members = strongly_connected(&g).unwrap().largest_members();
        // Spot-check against the brute force on the witness's own eccentricity and a few others.
        let (u, v) = x.diameter_pair;
        let du = sssp::reference::dijkstra(&g, u).unwrap();
        assert_eq!(du[v as usize], x.diameter, "{spec}: witness");
        for &s in members.iter().step_by(members.len() / 17 + 1) {
            let d = sssp::reference::dijkstra(&g, s).unwrap();
            let e = members.iter().map(|&w| d[w as usize]).max().unwrap();
            assert!(e <= x.diameter, "{spec}: ecc({s}) = {e} > diameter {}", x.diameter);
        }
        eprintln!("{spec}: diameter {} with {} eccentricities", x.diameter, x.eccentricities);
        assert!((x.eccentricities as usize) < members.len() / 10, "{spec}: {} eccentricities", x.eccentricities);
    }
}

/// The engine's bounding passes (`sssp_kernels::bounds`, on the CPU engine in CI and on the GPU
/// with `SSSP_TEST_DEVICE=gpu`) and the host's make the same picks (same rules, same ties), so
/// they agree on every answer and on the number of eccentricities.
#[test]
fn device_and_host_bounds_agree() {
    for spec in ["kron:11", "road:3000", "grid2d:50x30", "disconnected:4:300", "star:300"] {
        for weights in [WeightSpec::Unit, WeightSpec::Random { lo: 1, hi: 100, seed: 5 }] {
            let g = generate(&GenSpec::parse(spec).unwrap(), 2, weights).unwrap();
            let host = diameter(&g, device(), &all(Algo::Dijkstra)).unwrap();
            assert!(!host.bounds_on_device);
            let modes = [
                (Algo::Workfront, BfsMode::Queue),
                (Algo::NearFar, BfsMode::Queue),
                (Algo::Bucketing, BfsMode::Queue),
                (Algo::Auto, BfsMode::Thread),
                (Algo::Auto, BfsMode::Warp),
                (Algo::Auto, BfsMode::Hybrid),
                (Algo::Auto, BfsMode::Direction),
            ];
            for (algo, bfs) in modes {
                let dev = diameter(&g, device(), &DiameterOptions { bfs, ..all(algo) }).unwrap();
                let what = format!("{spec} {weights:?} {} {bfs:?}", algo.name());
                if algo != Algo::Auto || unit(&g) || auto_loop(&g) {
                    assert_eq!(dev.bounds_on_device, !dev.directed, "{what}");
                }
                assert_eq!(
                    (dev.diameter, dev.diameter_pair, dev.radius, dev.radius_pair, dev.eccentricities),
                    (host.diameter, host.diameter_pair, host.radius, host.radius_pair, host.eccentricities),
                    "{what}"
                );
                assert_eq!((&dev.center, &dev.periphery), (&host.center, &host.periphery), "{what}");
                let (u, v) = dev.diameter_pair;
                check_path(&g, dev.path.as_ref().unwrap(), u, v, dev.diameter, &what);
                // The diameter alone, ended by pair certification: the same picks too.
                let lean = |algo| diameter(&g, device(), &DiameterOptions { algo, bfs, ..DiameterOptions::default() });
                let (dev, host) = (lean(algo).unwrap(), lean(Algo::Dijkstra).unwrap());
                assert_eq!(
                    (dev.diameter, dev.diameter_pair, dev.eccentricities),
                    (host.diameter, host.diameter_pair, host.eccentricities),
                    "{what}, diameter only"
                );
            }
        }
    }
}

/// Batched eccentricities (`DiameterOptions::batch`): the same exact answers as brute force on
/// random undirected graphs, weighted and unit, for several batch sizes and loop strategies;
/// the bounds stay on the engine; and on a larger graph the rounds (SSSP passes) are fewer
/// than one-at-a-time's eccentricities while the answers stay the same.
#[test]
fn batched_eccentricities_match_brute_force() {
    let mut rng = Rng::new(0xba7c);
    let graphs = if device() == DeviceKind::Gpu { 24 } else { 300 };
    let algos = [Algo::Workfront, Algo::NearFar, Algo::Bucketing, Algo::Auto];
    for k in 0..graphs {
        let g = random_graph(&mut rng, false, k % 2 == 0);
        let b = brute(&g);
        let (algo, batch) = (algos[k % algos.len()], [2, 8, 64][k % 3]);
        let what = format!("graph {k} ({}, batch {batch})", algo.name());
        let x =
            diameter(&g, device(), &DiameterOptions { batch, ..all(algo) }).unwrap_or_else(|e| panic!("{what}: {e}"));
        check(&g, &x, &b, &what);
        if algo != Algo::Auto && !x.directed {
            assert!(x.bounds_on_device, "{what}: the bounds stay on the engine");
        }
    }
    let g = generate(&GenSpec::parse("kron:11").unwrap(), 3, WeightSpec::AsGiven).unwrap();
    let one = diameter(&g, device(), &all(Algo::Workfront)).unwrap();
    let eight = diameter(&g, device(), &DiameterOptions { batch: 8, ..all(Algo::Workfront) }).unwrap();
    assert_eq!(
        (eight.diameter, eight.radius, &eight.center, &eight.periphery),
        (one.diameter, one.radius, &one.center, &one.periphery)
    );
    let rounds = eight.chosen.as_deref().unwrap_or_default();
    assert!(rounds.contains("8 eccentricities per pass"), "{rounds}");
    assert!(
        eight.eccentricities.div_ceil(8) < one.eccentricities,
        "{} vs {}",
        eight.eccentricities,
        one.eccentricities
    );
    // A batch that is not a power of two is a typed error.
    let e = diameter(&g, device(), &DiameterOptions { batch: 3, ..all(Algo::Workfront) }).unwrap_err();
    assert!(matches!(e, sssp::Error::InvalidArgument(_)), "{e}");
}

/// Pair certification (`DiameterOptions::pairs`, the default for the diameter alone) on
/// Kronecker graphs, where the paper's loop ends with one eccentricity per leftover leaf: the
/// same diameter as the paper's rules and as brute force on the smallest, with the witness's
/// distance checked, and at most 20 eccentricities (the target; the paper's rules need
/// up to 203 on these).
#[test]
fn pair_certification_on_kronecker_graphs() {
    let scales: &[u32] = if device() == DeviceKind::Gpu { &[10, 14] } else { &[9, 10, 11, 12, 13, 14] };
    let (mut most, mut paper_most) = (0, 0);
    for &scale in scales {
        for seed in 1..=6 {
            let spec = format!("kron:{scale}");
            let g = generate(&GenSpec::parse(&spec).unwrap(), seed, WeightSpec::Unit).unwrap();
            let what = format!("{spec} seed {seed}");
            let x = diameter(&g, device(), &DiameterOptions::default()).unwrap();
            let paper =
                diameter(&g, device(), &DiameterOptions { pairs: false, ..DiameterOptions::default() }).unwrap();
            assert_eq!(x.diameter, paper.diameter, "{what}");
            let (u, v) = x.diameter_pair;
            assert_eq!(sssp::reference::dijkstra(&g, u).unwrap()[v as usize], x.diameter, "{what}: witness");
            if scale <= 10 {
                check_diameter(&g, &x, &what);
            }
            assert!(x.eccentricities <= 20, "{what}: {} eccentricities", x.eccentricities);
            most = most.max(x.eccentricities);
            paper_most = paper_most.max(paper.eccentricities);
        }
    }
    eprintln!("kron: at most {most} eccentricities with pairs, {paper_most} with the paper's rules");
    assert!(paper_most > 20, "the graphs no longer exercise pair certification ({paper_most})");
}

/// The diameter of `x` against brute force (the diameter only: no radius asked).
fn check_diameter(g: &Graph, x: &Extremes, what: &str) {
    let b = brute(g);
    assert_eq!(x.diameter, *b.ecc.iter().max().unwrap(), "{what}: brute force");
}
