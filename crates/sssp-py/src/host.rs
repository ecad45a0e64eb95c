//! The float64 half: the graph in float64, the repair of an `f32` engine's answer, and serial
//! float64 solves for weights no engine type holds exactly (the crate docs, "Weights").

use std::borrow::Cow;
use std::collections::VecDeque;

use rayon::prelude::*;
use sssp::graph::NO_VERTEX;
use sssp::Error;

/// Whether a pass over `len` values is worth rayon's pool: handing a job to the pool and
/// waiting for it costs microseconds, more than a small graph's whole pass (the scipy
/// drop-ins on a 3-vertex graph spent most of their time there), and a pool of one thread
/// only adds the splitting (NY's 730k column indices took 15 ms to check that way, against
/// under 1 ms in a plain loop).
pub fn parallel(len: usize) -> bool {
    len >= 1 << 16 && rayon::current_num_threads() > 1
}

/// A directed graph in CSR form with float64 weights: the arcs the typed graph holds, in the same
/// order.
pub struct Csr64 {
    offsets: Vec<u64>,
    heads: Vec<u32>,
    w: Vec<f64>,
    negative: bool,
}

/// A graph's arcs from scipy's CSR arrays, in the order the library keeps them; the weights
/// borrowed from the caller where they need no change (a directed graph, every weight finite).
pub struct Arcs<'a> {
    pub offsets: Vec<u64>,
    pub heads: Vec<u32>,
    pub w: Cow<'a, [f64]>,
}

/// The arcs of scipy's CSR arrays (`indptr` of `n + 1`, `heads` checked `< n` already), every
/// weight 1 when `weights` is `None`. Arcs with a NaN or infinite weight are dropped (scipy
/// treats them as absent); `directed = false` adds each arc's reverse after the tail's own.
pub fn arcs<'a>(
    indptr: &[i64],
    heads: Vec<u32>,
    weights: Option<&'a [f64]>,
    directed: bool,
) -> Result<Arcs<'a>, String> {
    let n = indptr.len() - 1;
    let m = heads.len();
    let decreasing =
        if parallel(n) { indptr.par_windows(2).any(|p| p[0] > p[1]) } else { indptr.windows(2).any(|p| p[0] > p[1]) };
    if indptr[0] != 0 || indptr[n] != m as i64 || decreasing {
        return Err(format!(
            "indptr must start at 0, never decrease and end at the number of entries ({m}); it starts at {} and ends at {}",
            indptr[0], indptr[n]
        ));
    }
    let all_finite = weights.is_none_or(|w| {
        if parallel(m) {
            w.par_iter().all(|x| x.is_finite())
        } else {
            w.iter().all(|x| x.is_finite())
        }
    });
    if directed && all_finite {
        // The common case, in parallel and without a rebuild: the arrays as given.
        let offsets = if parallel(n) {
            indptr.par_iter().map(|&o| o as u64).collect()
        } else {
            indptr.iter().map(|&o| o as u64).collect()
        };
        let w = match weights {
            Some(w) => Cow::Borrowed(w),
            None => Cow::Owned(vec![1.0; m]),
        };
        return Ok(Arcs { offsets, heads, w });
    }
    if all_finite {
        return Ok(symmetric(indptr, &heads, weights));
    }
    let weight = |e: usize| weights.map_or(1.0, |w| w[e]);
    // The arcs of tail `u` that are kept: (head, weight).
    let hs = &heads[..];
    let kept = |u: usize| {
        (indptr[u] as usize..indptr[u + 1] as usize).map(move |e| (hs[e], weight(e))).filter(|(_, w)| w.is_finite())
    };
    let mut degree = vec![0u64; n + 1];
    for u in 0..n {
        for (v, _) in kept(u) {
            degree[u + 1] += 1;
            if !directed {
                degree[v as usize + 1] += 1;
            }
        }
    }
    for v in 0..n {
        degree[v + 1] += degree[v];
    }
    let offsets = degree;
    let arcs = offsets[n] as usize;
    let mut fill: Vec<u64> = offsets[..n].to_vec();
    let mut out_heads = vec![0u32; arcs];
    let mut out_w = vec![0f64; arcs];
    let mut put = |u: usize, v: u32, w: f64| {
        let at = fill[u] as usize;
        out_heads[at] = v;
        out_w[at] = w;
        fill[u] += 1;
    };
    for u in 0..n {
        for (v, w) in kept(u) {
            put(u, v, w);
        }
    }
    if !directed {
        for u in 0..n {
            for (v, w) in kept(u) {
                put(v as usize, u as u32, w);
            }
        }
    }
    Ok(Arcs { offsets, heads: out_heads, w: Cow::Owned(out_w) })
}

/// [`arcs`] of an undirected graph whose weights are all finite: each row's own arcs copied
/// as slices, then every arc's reverse after its head's own (no per-arc filtering: the general
/// path's filter made NY's symmetrisation three times slower).
fn symmetric<'a>(indptr: &[i64], heads: &[u32], weights: Option<&[f64]>) -> Arcs<'a> {
    let n = indptr.len() - 1;
    let mut offsets = vec![0u64; n + 1];
    for u in 0..n {
        offsets[u + 1] = (indptr[u + 1] - indptr[u]) as u64;
    }
    for &v in heads {
        offsets[v as usize + 1] += 1;
    }
    for v in 0..n {
        offsets[v + 1] += offsets[v];
    }
    let total = offsets[n] as usize;
    let mut out_heads = vec![0u32; total];
    let mut out_w = vec![1.0f64; total];
    let mut fill: Vec<u64> = Vec::with_capacity(n);
    for u in 0..n {
        let (a, b, at) = (indptr[u] as usize, indptr[u + 1] as usize, offsets[u] as usize);
        out_heads[at..at + b - a].copy_from_slice(&heads[a..b]);
        if let Some(w) = weights {
            out_w[at..at + b - a].copy_from_slice(&w[a..b]);
        }
        fill.push((at + b - a) as u64);
    }
    for u in 0..n {
        for e in indptr[u] as usize..indptr[u + 1] as usize {
            let v = heads[e] as usize;
            let at = fill[v] as usize;
            out_heads[at] = u as u32;
            out_w[at] = weights.map_or(1.0, |w| w[e]);
            fill[v] += 1;
        }
    }
    Arcs { offsets, heads: out_heads, w: Cow::Owned(out_w) }
}

impl Csr64 {
    /// The float64 graph of `arcs`, taking their arrays (the weights copied if borrowed);
    /// `negative`: whether a weight is below 0 (the caller's classification knows).
    pub fn from_arcs(arcs: Arcs<'_>, negative: bool) -> Csr64 {
        Csr64 { offsets: arcs.offsets, heads: arcs.heads, w: arcs.w.into_owned(), negative }
    }

    /// The float64 copy of a typed graph's arcs, in its order.
    pub fn from_raw(raw: &sssp::graph::Graph) -> Csr64 {
        use sssp::graph::Weights;
        let w: Vec<f64> = match raw.weights() {
            Weights::Unsigned(w) => w.par_iter().map(|&x| x as f64).collect(),
            Weights::Signed(w) => w.par_iter().map(|&x| x as f64).collect(),
            Weights::Real(w) => w.par_iter().map(|&x| f32::from_bits(x) as f64).collect(),
        };
        // `Signed` holds at least one negative weight; the others none.
        let negative = matches!(raw.weights(), Weights::Signed(_));
        Csr64 { offsets: raw.offsets().to_vec(), heads: raw.targets().to_vec(), w, negative }
    }

    pub fn num_vertices(&self) -> usize {
        self.offsets.len() - 1
    }

    pub fn has_negative(&self) -> bool {
        self.negative
    }

    /// Up to `k` shortest simple paths from `s` to `t` in float64 (`sssp::kpaths`, plain
    /// Dijkstra spur searches: no potential), with their lengths.
    pub fn k_shortest(&self, s: u32, t: u32, k: usize) -> Result<Vec<(f64, Vec<u32>)>, Error> {
        let arcs = sssp::kpaths::Arcs::new(&self.offsets, &self.heads, Cow::Borrowed(&self.w[..]))?;
        sssp::kpaths::k_shortest(&arcs, s, t, k, None)
    }

    /// The arcs of `u`: `(head, weight)`.
    fn arcs(&self, u: usize) -> impl Iterator<Item = (usize, f64)> + '_ {
        let (a, b) = (self.offsets[u] as usize, self.offsets[u + 1] as usize);
        self.heads[a..b].iter().map(|&v| v as usize).zip(self.w[a..b].iter().copied())
    }
}

/// A monotone priority queue of vertices keyed by non-negative float64 distances (a radix
/// heap): Dijkstra pops keys in non-decreasing order and pushes none below the last popped, so
/// each entry sits in the bucket of the highest bit where its key differs from the last popped
/// key, and moves only to lower buckets: no comparisons on push, and each entry moves at most
/// 64 times (in practice once or twice), where a binary heap sifts it through log(size)
/// levels. A non-negative float64's bits order like the number.
struct RadixHeap {
    last: u64,
    len: usize,
    buckets: [Vec<(u64, u32)>; 65],
}

impl RadixHeap {
    fn new() -> RadixHeap {
        RadixHeap { last: 0, len: 0, buckets: std::array::from_fn(|_| Vec::new()) }
    }

    fn bucket(&self, key: u64) -> usize {
        (64 - (key ^ self.last).leading_zeros()) as usize
    }

    /// Queues `v` at distance `d` (at least the last popped one).
    fn push(&mut self, d: f64, v: u32) {
        let key = d.to_bits();
        debug_assert!(key >= self.last);
        let b = self.bucket(key);
        self.buckets[b].push((key, v));
        self.len += 1;
    }

    fn pop(&mut self) -> Option<(f64, u32)> {
        if self.len == 0 {
            return None;
        }
        if self.buckets[0].is_empty() {
            let i = (1..65).find(|&i| !self.buckets[i].is_empty()).expect("len > 0");
            let moved = std::mem::take(&mut self.buckets[i]);
            self.last = moved.iter().map(|&(k, _)| k).min().expect("non-empty");
            for &(k, v) in &moved {
                let b = self.bucket(k);
                self.buckets[b].push((k, v));
            }
            // keep the emptied bucket's allocation for later keys
            let mut moved = moved;
            moved.clear();
            self.buckets[i] = moved;
        }
        self.len -= 1;
        self.buckets[0].pop().map(|(k, v)| (f64::from_bits(k), v))
    }
}

/// Distances and parents from the set `sources` (all at 0), within `limit`, on the host in
/// float64: Dijkstra for non-negative weights, FIFO Bellman-Ford otherwise (a negative cycle
/// reachable from a source is [`Error::NegativeCycle`]).
pub fn solve(g: &Csr64, sources: &[u32], limit: f64) -> Result<(Vec<f64>, Vec<u32>), Error> {
    let n = g.num_vertices();
    let mut d = vec![f64::INFINITY; n];
    let mut parent = vec![NO_VERTEX; n];
    for &s in sources {
        d[s as usize] = 0.0;
    }
    if g.has_negative() {
        bellman_ford(g, sources, &mut d, &mut parent)?;
        for v in 0..n {
            if d[v] > limit {
                d[v] = f64::INFINITY;
                parent[v] = NO_VERTEX;
            }
        }
        return Ok((d, parent));
    }
    let mut heap = RadixHeap::new();
    for &s in sources {
        heap.push(0.0, s);
    }
    settle(g, heap, &mut d, &mut parent, limit);
    Ok((d, parent))
}

/// Dijkstra from the vertices in `heap` over the bounds `d`: every arc that lowers a bound
/// (within `limit`) lowers it and queues its head. Ends at the fixpoint.
fn settle(g: &Csr64, mut heap: RadixHeap, d: &mut [f64], parent: &mut [u32], limit: f64) {
    assert!(d.len() == g.num_vertices() && parent.len() == g.num_vertices());
    while let Some((du, u)) = heap.pop() {
        if du != d[u as usize] {
            continue; // a stale entry: `u` was queued again nearer
        }
        let (a, b) = (g.offsets[u as usize] as usize, g.offsets[u as usize + 1] as usize);
        for (&v, &w) in g.heads[a..b].iter().zip(&g.w[a..b]) {
            let c = du + w;
            let v = v as usize;
            // SAFETY: every head is below n (checked when the graph was built), and `d` and
            // `parent` hold n entries: the bounds checks cost a tenth of the run on road graphs.
            unsafe {
                if c < *d.get_unchecked(v) && c <= limit {
                    *d.get_unchecked_mut(v) = c;
                    *parent.get_unchecked_mut(v) = u;
                    heap.push(c, v as u32);
                }
            }
        }
    }
}

/// FIFO Bellman-Ford (queue-based label correcting) from `d`'s finite entries.
fn bellman_ford(g: &Csr64, sources: &[u32], d: &mut [f64], parent: &mut [u32]) -> Result<(), Error> {
    let n = g.num_vertices();
    let mut queued = vec![false; n];
    let mut count = vec![0usize; n];
    let mut queue: VecDeque<u32> = sources.iter().copied().collect();
    for &s in sources {
        queued[s as usize] = true;
    }
    while let Some(u) = queue.pop_front() {
        queued[u as usize] = false;
        for (v, w) in g.arcs(u as usize) {
            let c = d[u as usize] + w;
            if c < d[v] {
                d[v] = c;
                parent[v] = u;
                if !queued[v] {
                    queued[v] = true;
                    queue.push_back(v as u32);
                    count[v] += 1;
                    // Queued n times: some path has n arcs, so the parents hold a cycle, or will.
                    if count[v].is_multiple_of(n) {
                        if let Some(cycle) = parent_cycle(parent, v as u32) {
                            return Err(negative_cycle(cycle));
                        }
                    }
                }
            }
        }
    }
    Ok(())
}

/// A cycle among the parents above `v`, if there is one within `n` steps.
fn parent_cycle(parent: &[u32], v: u32) -> Option<Vec<u32>> {
    let n = parent.len();
    let mut x = v;
    for _ in 0..n {
        x = parent[x as usize];
        if x == NO_VERTEX {
            return None;
        }
    }
    // `x` is on a cycle now: walk it once.
    let mut cycle = vec![x];
    let mut y = parent[x as usize];
    while y != x {
        cycle.push(y);
        y = parent[y as usize];
    }
    cycle.reverse(); // parents point backwards: arc order is the reverse
    Some(cycle)
}

/// The library's error for `cycle`, rotated to start at its smallest vertex.
fn negative_cycle(mut cycle: Vec<u32>) -> Error {
    let at = cycle.iter().enumerate().min_by_key(|&(_, &v)| v).map_or(0, |(i, _)| i);
    cycle.rotate_left(at);
    Error::NegativeCycle { vertex: cycle[0], cycle, weight: -1 }
}

/// The exact float64 answer from an `f32` engine's shortest-path tree (`parents`, a forest
/// rooted at `sources`), within `limit`.
///
/// 1. The tree's float64 path lengths, in breadth-first order from the roots (each vertex's
///    arcs scanned once for the children whose parent it is): each is the float64 length of a
///    real path, so an upper bound that some path achieves.
/// 2. One scan of every arc; each arc that lowers its head's bound queues the head, and
///    Dijkstra from those ([`settle`]) runs to the fixpoint.
///
/// Why the fixpoint is scipy's answer: let `L` be what float64 Dijkstra computes, the least
/// solution of `d[v] = min over arcs (d[u] + w)` in float64 rounding (rounding is monotone and
/// weights non-negative). Every bound here is a path's float64 length, so at least `L`. If
/// some `d[v] > L[v]`, take the first such `v` in Dijkstra's settling order and its Dijkstra
/// parent `u`, settled before it: `d[u] = L[u]`, and at the fixpoint `d[v] <= d[u] + w = L[v]`,
/// a contradiction. When the `f32` tree is optimal in float64 too (ties within rounding aside,
/// always) step 2 queues nothing.
pub fn repair(g: &Csr64, sources: &[u32], parents: &[u32], limit: f64) -> (Vec<f64>, Vec<u32>) {
    let n = g.num_vertices();
    let mut d = vec![f64::INFINITY; n];
    let mut parent = vec![NO_VERTEX; n];
    // 1. Tree lengths in breadth-first order: a tree arc's float64 weight is the lightest arc
    //    from the parent to the child, found by one scan of the parent's arcs.
    let mut order: Vec<u32> = Vec::with_capacity(n);
    for &s in sources {
        if d[s as usize] != 0.0 {
            d[s as usize] = 0.0;
            order.push(s);
        }
    }
    let mut head = 0;
    while head < order.len() {
        let u = order[head] as usize;
        head += 1;
        for (v, w) in g.arcs(u) {
            if parents[v] == u as u32 && d[u] + w < d[v] {
                if d[v].is_infinite() {
                    order.push(v as u32);
                }
                d[v] = d[u] + w;
                parent[v] = u as u32;
            }
        }
    }
    for v in 0..n {
        if d[v] > limit {
            d[v] = f64::INFINITY;
            parent[v] = NO_VERTEX;
        }
    }
    // 2. Every arc that still lowers a bound, then Dijkstra to the fixpoint.
    let mut heap = RadixHeap::new();
    for u in 0..n {
        if d[u].is_finite() {
            for (v, w) in g.arcs(u) {
                let c = d[u] + w;
                if c < d[v] && c <= limit {
                    d[v] = c;
                    parent[v] = u as u32;
                    heap.push(c, v as u32);
                }
            }
        }
    }
    settle(g, heap, &mut d, &mut parent, limit);
    (d, parent)
}

/// Each vertex's root (its nearest source) following `parent`, `NO_VERTEX` where `d` is not
/// finite.
pub fn roots(parent: &[u32], d: &[f64]) -> Vec<u32> {
    let n = parent.len();
    let mut root = vec![NO_VERTEX; n];
    let mut stack = Vec::new();
    for v in 0..n {
        if !d[v].is_finite() || root[v] != NO_VERTEX {
            continue;
        }
        let mut x = v as u32;
        while root[x as usize] == NO_VERTEX && parent[x as usize] != NO_VERTEX {
            stack.push(x);
            x = parent[x as usize];
        }
        let r = if root[x as usize] != NO_VERTEX { root[x as usize] } else { x };
        root[x as usize] = r;
        for y in stack.drain(..) {
            root[y as usize] = r;
        }
    }
    root
}
