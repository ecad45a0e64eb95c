//! `sssp info`: what a graph is, at a glance.

use sssp::graph::Graph;
use sssp::{RealDistances, Result, UNREACHED};

use crate::common::GraphArgs;

/// Union-find with path halving, for weakly connected components.
struct Dsu(Vec<u32>);

impl Dsu {
    fn find(&mut self, mut x: u32) -> u32 {
        while self.0[x as usize] != x {
            let p = self.0[self.0[x as usize] as usize];
            self.0[x as usize] = p;
            x = p;
        }
        x
    }

    fn union(&mut self, a: u32, b: u32) {
        let (a, b) = (self.find(a), self.find(b));
        if a != b {
            self.0[a.max(b) as usize] = a.min(b);
        }
    }
}

/// Hop distances from `s` by BFS over out-arcs.
fn bfs_hops(g: &Graph, s: u32) -> Result<Vec<i64>> {
    let mut d = sssp::mem::try_vec(g.num_vertices(), UNREACHED)?;
    let mut q = std::collections::VecDeque::from([s]);
    d[s as usize] = 0;
    while let Some(u) = q.pop_front() {
        for &v in &g.targets()[g.arc_range(u)] {
            if d[v as usize] == UNREACHED {
                d[v as usize] = d[u as usize] + 1;
                q.push_back(v);
            }
        }
    }
    Ok(d)
}

pub fn info(args: &GraphArgs, json: bool) -> Result<()> {
    let g = args.load()?;
    let n = g.num_vertices();
    let m = g.num_arcs();
    // Every per-vertex array is sized by the input: allocated fallibly (exit 5, not an abort);
    // degrees come from the offsets, so they need none.
    let max_deg = g.max_degree();
    let isolated = (0..n as u32).filter(|&v| g.degree(v) == 0).count();
    let self_loops =
        (0..n as u32).map(|v| g.targets()[g.arc_range(v)].iter().filter(|&&t| t == v).count()).sum::<usize>();
    let mut dsu = Dsu(sssp::mem::try_vec(n, 0u32)?);
    dsu.0.iter_mut().enumerate().for_each(|(v, p)| *p = v as u32);
    for u in 0..n as u32 {
        for &v in &g.targets()[g.arc_range(u)] {
            dsu.union(u, v);
        }
    }
    let components = (0..n as u32).filter(|&v| dsu.find(v) == v).count();
    // Approximate (hop) diameter by a double sweep from the highest-degree vertex: a lower
    // bound on the directed hop diameter of its component, usually tight on road-like graphs.
    let (diam, far) = if n == 0 {
        (0, 0)
    } else {
        let start = (0..n as u32).max_by_key(|&v| g.degree(v)).unwrap_or(0);
        let ecc = |d: &[i64]| {
            d.iter()
                .enumerate()
                .filter(|(_, &x)| x != UNREACHED)
                .max_by_key(|(_, &x)| x)
                .map(|(v, &x)| (x, v as u32))
                .unwrap()
        };
        let (_, far) = ecc(&bfs_hops(&g, start)?);
        (ecc(&bfs_hops(&g, far)?).0, far)
    };
    let weights = g.weight_range();
    if json {
        let v = serde_json::json!({
            "vertices": n, "arcs": m, "avg_out_degree": m as f64 / n.max(1) as f64, "max_out_degree": max_deg,
            "zero_out_degree": isolated, "self_loops": self_loops, "weak_components": components,
            "weight_min": weights.map(|w| crate::common::dist_json(g.metric(), w.0)),
            "weight_max": weights.map(|w| crate::common::dist_json(g.metric(), w.1)),
            "real_weights": g.metric() == sssp::Metric::Real,
            "hop_diameter_lower_bound": diam,
        });
        outln!("{v}");
    } else {
        outln!("vertices            {n}");
        outln!("arcs                {m}");
        outln!(
            "out-degree          avg {:.2}, max {max_deg}, {isolated} vertices with none",
            m as f64 / n.max(1) as f64
        );
        outln!("self loops          {self_loops}");
        match weights {
            Some((lo, hi)) => outln!(
                "weights             {} ..= {}{}",
                g.metric().show(lo),
                g.metric().show(hi),
                if g.metric() == sssp::Metric::Real { " (real, f32)" } else { "" }
            ),
            None => outln!("weights             (no arcs)"),
        }
        outln!("weak components     {components}");
        outln!("hop diameter        >= {diam} (double sweep from vertex {far})");
    }
    Ok(())
}
