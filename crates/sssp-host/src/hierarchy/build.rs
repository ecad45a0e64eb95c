//! The contraction itself ([`super::Hierarchy::build_with`]): parallel rounds over a compact
//! snapshot of the remaining graph (see the parent module's doc for the algorithm and the
//! measured choices).
//!
//! Each round reads one immutable graph: a CSR of the vertices still present, in *compact*
//! ids `0..k` (the vertices in ascending original id, so comparing compact ids orders them as
//! the original ids do and the hierarchy is the same as the one a per-vertex list gave). The
//! round's witness searches, the neighbours' priority simulations and the next round's
//! selection all read it; the next snapshot is written in parallel, a row per surviving vertex:
//! its old arcs not into the round, renumbered, merged with its new shortcuts. Writing the
//! whole remaining graph per round costs less than editing lists in place: the rounds' graphs
//! shrink (road 4M: 10M arcs, then a few million), the writes are parallel where the edits
//! were a serial pass (4.4 s of road 4M's 47 s on 16 cores), and the searches then run on
//! arrays laid out in id order with neighbours close by instead of on rows scattered over
//! the heap.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::Mutex;

use rayon::prelude::*;

use super::{Arcs, HierarchyParams, PRIORITY_LEVEL, SIMULATE_PAIRS, WITNESS_ARCS, WITNESS_SETTLES};
use crate::error::Result;
use crate::graph::Graph;
use crate::mem::try_vec;

/// Rows written by one task when a snapshot is built: enough to amortise the task, few enough
/// that a round of a few hundred vertices still spreads over the threads.
const CHUNK: usize = 1024;

/// How far a build has come, for a progress display ([`super::Hierarchy::build_reporting`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BuildProgress {
    /// Rounds contracted so far.
    pub rounds: u32,
    /// Vertices not contracted yet.
    pub remaining: u64,
    /// Vertices of the graph.
    pub vertices: u64,
    /// The contraction is over (the core, if any, is what remains).
    pub done: bool,
}

/// What the contraction hands to the hierarchy's assembly, in original ids.
pub(super) struct Contracted {
    pub contracted: Vec<bool>,
    /// The level of each contracted vertex; 0 for the core.
    pub level: Vec<u32>,
    /// A contracted vertex's upward out-arcs, a core vertex's arcs to the rest of the core.
    pub up: Vec<Arcs>,
    /// A contracted vertex's downward in-arcs.
    pub down: Vec<Arcs>,
    pub core: u32,
    pub shortcuts: u64,
}

/// One direction of a snapshot: row `v` is `head[off[v]..off[v + 1]]` with its weights.
#[derive(Default)]
struct Rows {
    off: Vec<usize>,
    head: Vec<u32>,
    weight: Vec<u64>,
}

impl Rows {
    fn row(&self, v: u32) -> (&[u32], &[u64]) {
        let (s, e) = (self.off[v as usize], self.off[v as usize + 1]);
        (&self.head[s..e], &self.weight[s..e])
    }

    fn len(&self, v: u32) -> usize {
        self.off[v as usize + 1] - self.off[v as usize]
    }

    fn arcs(&self, v: u32) -> impl Iterator<Item = (u32, u64)> + '_ {
        let (h, w) = self.row(v);
        h.iter().copied().zip(w.iter().copied())
    }

    /// Rows of the given lengths, each written by `fill(row, heads, weights, scratch)`; chunks
    /// of rows in parallel, each into its own part of the arrays, with a scratch list per chunk.
    fn build(lens: &[usize], fill: impl Fn(u32, &mut [u32], &mut [u64], &mut Arcs) + Sync) -> Result<Rows> {
        let mut off = Vec::new();
        crate::mem::reserve(&mut off, lens.len() + 1)?;
        off.push(0);
        for &l in lens {
            off.push(off[off.len() - 1] + l);
        }
        let total = off[lens.len()];
        let (mut head, mut weight) = (try_vec(total, 0u32)?, try_vec(total, 0u64)?);
        let mut parts = Vec::new();
        let (mut hs, mut ws) = (&mut head[..], &mut weight[..]);
        for c in (0..lens.len()).step_by(CHUNK) {
            let e = (c + CHUNK).min(lens.len());
            let (h, hr) = std::mem::take(&mut hs).split_at_mut(off[e] - off[c]);
            let (w, wr) = std::mem::take(&mut ws).split_at_mut(off[e] - off[c]);
            parts.push((c, e, h, w));
            (hs, ws) = (hr, wr);
        }
        parts.into_par_iter().for_each(|(c, e, h, w)| {
            let mut scratch = Vec::new();
            for v in c..e {
                let (s, t) = (off[v] - off[c], off[v + 1] - off[c]);
                fill(v as u32, &mut h[s..t], &mut w[s..t], &mut scratch);
            }
        });
        Ok(Rows { off, head, weight })
    }

    /// Rows from per-vertex lists.
    fn of_lists(lists: &[Arcs]) -> Result<Rows> {
        let lens: Vec<usize> = lists.iter().map(Vec::len).collect();
        Rows::build(&lens, |v, h, w, _| copy_row(&lists[v as usize], h, w))
    }
}

/// The remaining graph of a round, in compact ids (see the module doc).
struct Snapshot {
    /// Compact id -> original id, ascending.
    ids: Vec<u32>,
    out: Rows,
    inn: Rows,
}

impl Snapshot {
    /// `g` without self loops (never on a shortest path) and with the lightest of parallel
    /// arcs: each row is merged through a position table, so a hub costs its degree, not its
    /// square.
    fn of(g: &Graph) -> Result<Snapshot> {
        let (n, weights) = (g.num_vertices(), g.engine_weights());
        let (mut out, mut inn) = (arc_lists(n)?, arc_lists(n)?);
        let mut at = try_vec(n, u32::MAX)?;
        for v in 0..n as u32 {
            let row = &mut out[v as usize];
            for e in g.arc_range(v) {
                let (x, w) = (g.targets()[e], weights[e] as u64);
                match at[x as usize] {
                    _ if x == v => {}
                    u32::MAX => {
                        at[x as usize] = row.len() as u32;
                        row.push((x, w));
                    }
                    i => row[i as usize].1 = row[i as usize].1.min(w),
                }
            }
            for &(x, w) in row.iter() {
                at[x as usize] = u32::MAX;
                inn[x as usize].push((v, w));
            }
        }
        let ids = (0..n as u32).collect();
        Ok(Snapshot { ids, out: Rows::of_lists(&out)?, inn: Rows::of_lists(&inn)? })
    }

    fn len(&self) -> usize {
        self.ids.len()
    }

    fn arcs(&self) -> u64 {
        self.out.head.len() as u64
    }

    /// Row `v` in original ids.
    fn original(&self, rows: &Rows, v: u32) -> Arcs {
        rows.arcs(v).map(|(x, w)| (self.ids[x as usize], w)).collect()
    }
}

/// Write `arcs` into a row's heads and weights.
fn copy_row(arcs: &[(u32, u64)], heads: &mut [u32], weights: &mut [u64]) {
    for ((h, w), &(x, c)) in heads.iter_mut().zip(weights.iter_mut()).zip(arcs) {
        (*h, *w) = (x, c);
    }
}

/// `n` empty arc lists, or [`crate::Error::OutOfHostMemory`].
pub(super) fn arc_lists(n: usize) -> Result<Vec<Arcs>> {
    let mut v = Vec::new();
    crate::mem::reserve(&mut v, n)?;
    v.resize_with(n, Vec::new);
    Ok(v)
}

/// A bounded Dijkstra on a snapshot, with its buffers kept between searches. Distances are
/// reset through the list of touched vertices, not by a clear, so a search costs what it
/// visits.
struct Witness {
    dist: Vec<u64>,
    /// `i + 1` for the search's target `i`, 0 for any other vertex.
    mark: Vec<u32>,
    touched: Vec<u32>,
    heap: BinaryHeap<Reverse<(u64, u32)>>,
    /// After a search: target `i` has a witness.
    found: Vec<bool>,
}

impl Witness {
    fn new(n: usize) -> Result<Witness> {
        let (dist, mark) = (try_vec(n, u64::MAX)?, try_vec(n, 0)?);
        Ok(Witness { dist, mark, touched: Vec::new(), heap: BinaryHeap::new(), found: Vec::new() })
    }

    /// Search from `from`, avoiding the vertices `avoid` names, until each target `(x, bound)`
    /// is decided (`found`): a path to `x` no longer than `bound` (a witness), or none (every
    /// vertex left is farther than every undecided bound), or the search gave up after
    /// [`WITNESS_SETTLES`] vertices or [`WITNESS_ARCS`] arcs (no witness: a shortcut that may
    /// not be needed). A witness is taken when it is relaxed rather than when it is settled,
    /// and nothing beyond the undecided targets' farthest bound is queued: the vertices settled
    /// are the same as a search to the farthest bound would settle, to the point where every
    /// target is decided, so the shortcuts are the same, for a third fewer settled vertices
    /// (road 4M: 930M instead of 1,340M).
    fn search(&mut self, g: &Rows, from: u32, avoid: impl Fn(u32) -> bool, targets: &[(u32, u64)]) {
        for &t in &self.touched {
            self.dist[t as usize] = u64::MAX;
        }
        self.touched.clear();
        self.heap.clear();
        self.found.clear();
        self.found.resize(targets.len(), false);
        for (i, &(x, _)) in targets.iter().enumerate() {
            self.mark[x as usize] = i as u32 + 1;
        }
        let farthest = |found: &[bool]| targets.iter().zip(found).filter(|t| !t.1).map(|t| t.0 .1).max();
        let (mut open, mut reach) = (targets.len(), farthest(&self.found).unwrap_or(0));
        self.dist[from as usize] = 0;
        self.touched.push(from);
        self.heap.push(Reverse((0, from)));
        let (mut settled, mut scanned) = (0, 0);
        'search: while let Some(Reverse((d, v))) = self.heap.pop() {
            if d > self.dist[v as usize] {
                continue;
            }
            if d > reach || settled >= WITNESS_SETTLES || scanned >= WITNESS_ARCS {
                break;
            }
            settled += 1;
            let (heads, weights) = g.row(v);
            scanned += heads.len();
            for (&x, &w) in heads.iter().zip(weights) {
                let c = d + w;
                if c > reach || c >= self.dist[x as usize] || avoid(x) {
                    continue;
                }
                if self.dist[x as usize] == u64::MAX {
                    self.touched.push(x);
                }
                self.dist[x as usize] = c;
                self.heap.push(Reverse((c, x)));
                let m = self.mark[x as usize] as usize;
                if m != 0 && !self.found[m - 1] && c <= targets[m - 1].1 {
                    self.found[m - 1] = true;
                    open -= 1;
                    match farthest(&self.found) {
                        Some(r) if open > 0 => reach = r,
                        _ => break 'search,
                    }
                }
            }
        }
        for &(x, _) in targets {
            self.mark[x as usize] = 0;
        }
    }
}

/// A shortcut `u -> x` of weight `w`, in compact ids.
type Shortcut = (u32, u32, u64);

/// The contraction's state between rounds: the snapshot and, per compact id, what the
/// priority is made of.
struct State {
    g: Snapshot,
    level: Vec<u32>,
    /// Neighbours already contracted.
    gone: Vec<u32>,
    /// The priority ([`State::priority`]), kept for the vertices whose neighbourhood did not
    /// change.
    prio: Vec<i64>,
    /// The vertices of the round being contracted: witness searches go around them.
    in_round: Vec<bool>,
    /// One witness search state per rayon thread (searches run in parallel): 12 bytes per
    /// vertex per thread.
    witnesses: Vec<Mutex<Witness>>,
}

impl State {
    /// The state of `g` before any contraction, with every priority computed.
    fn new(g: &Graph) -> Result<State> {
        let n = g.num_vertices();
        let mut witnesses = Vec::new();
        crate::mem::reserve(&mut witnesses, rayon::current_num_threads().max(1))?;
        for _ in 0..witnesses.capacity() {
            witnesses.push(Mutex::new(Witness::new(n)?));
        }
        let g = Snapshot::of(g)?;
        let (level, gone, in_round) = (try_vec(n, 0)?, try_vec(n, 0)?, try_vec(n, false)?);
        let mut s = State { g, level, gone, prio: Vec::new(), in_round, witnesses };
        s.prio = (0..n as u32).into_par_iter().map(|v| s.priority(v)).collect();
        Ok(s)
    }

    /// Run `f` with this thread's witness search state.
    fn with_witness<R>(&self, f: impl FnOnce(&mut Witness) -> R) -> R {
        let i = rayon::current_thread_index().unwrap_or(0) % self.witnesses.len();
        f(&mut self.witnesses[i].lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// The shortcuts removing `v` needs (pushed to `out` when given), and how many: a pair
    /// `u -> v -> x` needs one unless a witness path no longer than it avoids `v` and every
    /// other vertex of the round. Reads the snapshot only, so rounds run it in parallel.
    fn shortcuts(&self, v: u32, w: &mut Witness, mut out: Option<&mut Vec<Shortcut>>) -> u64 {
        let avoid = |x: u32| x == v || self.in_round[x as usize];
        let (mut count, mut targets) = (0, Vec::with_capacity(self.g.out.len(v)));
        for (u, wu) in self.g.inn.arcs(v) {
            targets.clear();
            targets.extend(self.g.out.arcs(v).filter(|a| a.0 != u).map(|(x, wx)| (x, wu + wx)));
            if targets.is_empty() {
                continue;
            }
            w.search(&self.g.out, u, avoid, &targets);
            for (&(x, through), _) in targets.iter().zip(&w.found).filter(|t| !t.1) {
                count += 1;
                if let Some(o) = out.as_deref_mut() {
                    o.push((u, x, through));
                }
            }
        }
        count
    }

    fn priority(&self, v: u32) -> i64 {
        let (ins, outs) = (self.g.inn.len(v), self.g.out.len(v));
        let removed = (ins + outs) as i64;
        let added = if ins * outs > SIMULATE_PAIRS {
            (ins * outs) as i64
        } else {
            self.with_witness(|w| self.shortcuts(v, w, None)) as i64
        };
        4 * (added - removed) + self.gone[v as usize] as i64 + PRIORITY_LEVEL * self.level[v as usize] as i64
    }

    /// This round: every vertex whose `(priority, id)` is below all its neighbours' (such
    /// vertices are never adjacent, and the least one always qualifies).
    fn select(&self) -> Vec<u32> {
        let key = |v: u32| (self.prio[v as usize], v);
        let (out, inn) = (&self.g.out, &self.g.inn);
        (0..self.g.len() as u32)
            .into_par_iter()
            .filter(|&v| out.row(v).0.iter().chain(inn.row(v).0).all(|&x| key(v) < key(x)))
            .collect()
    }

    /// The round's shortcuts, found in parallel (witness searches avoiding the whole round).
    fn round_shortcuts(&mut self, round: &[u32]) -> Vec<Shortcut> {
        for &v in round {
            self.in_round[v as usize] = true;
        }
        let this = &*self;
        let cuts: Vec<Vec<Shortcut>> = round
            .par_iter()
            .map(|&v| {
                let mut out = Vec::new();
                this.with_witness(|w| this.shortcuts(v, w, Some(&mut out)));
                out
            })
            .collect();
        cuts.into_iter().flatten().collect()
    }
}

/// What a surviving vertex's rows become ([`next_row`]).
#[derive(Clone, Copy, Default)]
struct Survivor {
    /// The new rows' lengths, out and in.
    lens: (usize, usize),
    /// Arcs to or from round vertices it loses (its contracted neighbours, counted per arc as
    /// the priority's spread term always has).
    lost: u32,
    /// One above the highest level among those neighbours (0: none).
    level: u32,
}

/// Survivor `y`'s new row of one direction into `buf`: its arcs not to round vertices,
/// renumbered, merged with `adds` (the new shortcuts of this row, their other ends in old
/// compact ids), keeping the lightest arc to each vertex. Returns the arcs lost and one above
/// the highest level of their other ends.
fn next_row(
    (heads, weights): (&[u32], &[u64]),
    adds: &[(u32, u32, u64)],
    s: &State,
    new_id: &[u32],
    buf: &mut Vec<(u32, u64)>,
) -> (u32, u32) {
    buf.clear();
    let (mut lost, mut level) = (0, 0);
    for (&x, &w) in heads.iter().zip(weights) {
        if s.in_round[x as usize] {
            lost += 1;
            level = level.max(s.level[x as usize] + 1);
        } else {
            buf.push((new_id[x as usize], w));
        }
    }
    if !adds.is_empty() {
        buf.extend(adds.iter().map(|&(_, x, w)| (new_id[x as usize], w)));
        buf.sort_unstable();
        buf.dedup_by_key(|a| a.0);
    }
    (lost, level)
}

/// The entries of `adds` (sorted) whose first field is `key`.
fn adds_of(adds: &[(u32, u32, u64)], key: u32) -> &[(u32, u32, u64)] {
    let start = adds.partition_point(|a| a.0 < key);
    &adds[start..start + adds[start..].partition_point(|a| a.0 == key)]
}

impl State {
    /// Record the round's vertices in `c`: their arcs in original ids (out-arcs go up, in-arcs
    /// come down: every other end is contracted later or in the core) and their levels.
    fn record(&self, round: &[u32], c: &mut Contracted) {
        let g = &self.g;
        let arcs: Vec<(Arcs, Arcs)> =
            round.par_iter().map(|&v| (g.original(&g.out, v), g.original(&g.inn, v))).collect();
        for (&v, (up, down)) in round.iter().zip(arcs) {
            let o = g.ids[v as usize] as usize;
            (c.up[o], c.down[o], c.level[o], c.contracted[o]) = (up, down, self.level[v as usize], true);
        }
    }

    /// Remove the round's vertices, adding `cuts`: the next snapshot (two passes over the
    /// survivors in parallel: the rows' lengths, then the rows), their state carried over, and
    /// the priorities of those that lost a neighbour recomputed in parallel (their degrees,
    /// levels and counts changed; every other priority stands).
    fn advance(&mut self, round: &[u32], mut cuts: Vec<Shortcut>) -> Result<()> {
        let k = self.g.len();
        let mut new_id = try_vec(k, u32::MAX)?;
        let mut survivors = Vec::new();
        crate::mem::reserve(&mut survivors, k - round.len())?;
        for v in 0..k as u32 {
            if !self.in_round[v as usize] {
                new_id[v as usize] = survivors.len() as u32;
                survivors.push(v);
            }
        }
        let mut reversed: Vec<Shortcut> = cuts.par_iter().map(|&(u, x, w)| (x, u, w)).collect();
        cuts.par_sort_unstable();
        reversed.par_sort_unstable();
        let this = &*self;
        let row = |y: u32, out: bool, buf: &mut Arcs| match out {
            true => next_row(this.g.out.row(y), adds_of(&cuts, y), this, &new_id, buf),
            false => next_row(this.g.inn.row(y), adds_of(&reversed, y), this, &new_id, buf),
        };
        let info: Vec<Survivor> = survivors
            .par_iter()
            .map_init(Vec::new, |buf, &y| {
                let ((lost_out, level_out), out_len) = (row(y, true, buf), buf.len());
                let (lost_in, level_in) = row(y, false, buf);
                Survivor { lens: (out_len, buf.len()), lost: lost_out + lost_in, level: level_out.max(level_in) }
            })
            .collect();
        let write = |out: bool| {
            let lens: Vec<usize> = info.iter().map(|i| if out { i.lens.0 } else { i.lens.1 }).collect();
            Rows::build(&lens, |y, heads, weights, buf| {
                row(survivors[y as usize], out, buf);
                copy_row(buf, heads, weights);
            })
        };
        let (out, inn) = (write(true)?, write(false)?);
        let ids = survivors.iter().map(|&y| self.g.ids[y as usize]).collect();
        let old = |a: &[u32], i: usize| a[survivors[i] as usize];
        self.level = info.iter().enumerate().map(|(i, s)| old(&self.level, i).max(s.level)).collect();
        self.gone = info.iter().enumerate().map(|(i, s)| old(&self.gone, i) + s.lost).collect();
        self.prio = survivors.iter().map(|&y| self.prio[y as usize]).collect();
        self.g = Snapshot { ids, out, inn };
        self.in_round = try_vec(self.g.len(), false)?;
        let touched: Vec<u32> = (0..info.len() as u32).filter(|&y| info[y as usize].lost > 0).collect();
        let this = &*self;
        let fresh: Vec<i64> = touched.par_iter().map(|&y| this.priority(y)).collect();
        for (&y, p) in touched.iter().zip(fresh) {
            self.prio[y as usize] = p;
        }
        Ok(())
    }
}

/// Contract `g` in parallel rounds until it is empty or its mean out-degree passes
/// `params.core_degree` (see the parent module's doc), telling `progress` after every round.
pub(super) fn contract(
    g: &Graph,
    params: HierarchyParams,
    progress: &(dyn Fn(BuildProgress) + Sync),
) -> Result<Contracted> {
    let n = g.num_vertices();
    let mut report = BuildProgress { rounds: 0, remaining: n as u64, vertices: n as u64, done: false };
    progress(report);
    let mut s = State::new(g)?;
    let mut c = Contracted {
        contracted: try_vec(n, false)?,
        level: try_vec(n, 0)?,
        up: arc_lists(n)?,
        down: arc_lists(n)?,
        core: 0,
        shortcuts: 0,
    };
    loop {
        let remaining = s.g.len() as u64;
        if remaining == 0 || (remaining > 1 && s.g.arcs() > params.core_degree.saturating_mul(remaining)) {
            break;
        }
        let round = s.select();
        let cuts = s.round_shortcuts(&round);
        c.shortcuts += cuts.len() as u64;
        s.record(&round, &mut c);
        s.advance(&round, cuts)?;
        report.rounds += 1;
        report.remaining = s.g.len() as u64;
        progress(report);
    }
    // The core keeps its arcs, all to core vertices.
    for v in 0..s.g.len() as u32 {
        c.up[s.g.ids[v as usize] as usize] = s.g.original(&s.g.out, v);
    }
    c.core = s.g.len() as u32;
    report.done = true;
    progress(report);
    Ok(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Exact distances from `from` in `rows`, never entering `avoid`.
    fn dijkstra(rows: &Rows, n: usize, from: u32, avoid: u32) -> Vec<u64> {
        let mut dist = vec![u64::MAX; n];
        let mut heap = BinaryHeap::from([Reverse((0u64, from))]);
        dist[from as usize] = 0;
        while let Some(Reverse((d, v))) = heap.pop() {
            if d > dist[v as usize] {
                continue;
            }
            for (x, w) in rows.arcs(v) {
                if x != avoid && d + w < dist[x as usize] {
                    dist[x as usize] = d + w;
                    heap.push(Reverse((d + w, x)));
                }
            }
        }
        dist
    }

    /// On graphs too small for the search to give up, a target is found exactly when a path
    /// no longer than its bound avoids the contracted vertex; the same search state serves
    /// every search (its marks and distances reset between them).
    #[test]
    fn witnesses_are_exact_below_the_limits() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |m: u64| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) % m
        };
        for trial in 0..200 {
            let n = 2 + next(40) as u32;
            let arcs: Vec<(u32, u32, i64)> = (0..next(4 * n as u64))
                .map(|_| (next(n as u64) as u32, next(n as u64) as u32, next(6) as i64))
                .collect();
            let g = Graph::from_arcs(n, &arcs).unwrap();
            let s = Snapshot::of(&g).unwrap();
            let mut w = Witness::new(n as usize).unwrap();
            for v in 0..n {
                for (u, wu) in s.inn.arcs(v) {
                    let targets: Vec<(u32, u64)> =
                        s.out.arcs(v).filter(|a| a.0 != u).map(|(x, wx)| (x, wu + wx + next(3))).collect();
                    w.search(&s.out, u, |x| x == v, &targets);
                    let exact = dijkstra(&s.out, n as usize, u, v);
                    for (&(x, bound), &found) in targets.iter().zip(&w.found) {
                        assert_eq!(found, exact[x as usize] <= bound, "trial {trial}: {u} -> {x} avoiding {v}");
                    }
                }
            }
        }
    }

    /// The snapshot drops self loops and keeps the lightest of parallel arcs, both ways.
    #[test]
    fn the_first_snapshot_is_the_simple_graph() {
        let g = Graph::from_arcs(3, &[(0, 1, 5), (0, 1, 3), (0, 0, 1), (1, 2, 4), (2, 0, 0)]).unwrap();
        let s = Snapshot::of(&g).unwrap();
        let row = |r: &Rows, v| r.arcs(v).collect::<Vec<_>>();
        assert_eq!(row(&s.out, 0), [(1, 3)]);
        assert_eq!(row(&s.inn, 1), [(0, 3)]);
        assert_eq!(row(&s.inn, 0), [(2, 0)]);
        assert_eq!(s.arcs(), 3);
    }

    /// Progress comes before the first round, after each, and at the end, rounds counting up
    /// and the vertices left counting down to the core.
    #[test]
    fn progress_is_reported_round_by_round() {
        let g = crate::generate::generate(
            &crate::generate::GenSpec::parse("road:2000").unwrap(),
            3,
            crate::graph::WeightSpec::AsGiven,
        )
        .unwrap();
        let seen = Mutex::new(Vec::new());
        let c = contract(&g, HierarchyParams::default(), &|p| seen.lock().unwrap().push(p)).unwrap();
        let seen = seen.into_inner().unwrap();
        assert_eq!(seen[0], BuildProgress { rounds: 0, remaining: 2000, vertices: 2000, done: false });
        for (i, pair) in seen.windows(2).enumerate() {
            assert!(pair[1].remaining <= pair[0].remaining, "{i}");
            assert_eq!(pair[1].rounds, pair[0].rounds + u32::from(!pair[1].done), "{i}");
        }
        let last = seen[seen.len() - 1];
        assert!(last.done && last.remaining == c.core as u64);
        assert_eq!(c.contracted.iter().filter(|&&x| !x).count() as u64, last.remaining);
    }
}
