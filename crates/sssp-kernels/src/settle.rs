//! Parallel Dijkstra by settling (Crauser, Mehlhorn, Meyer, Sanders 1998, as put on a GPU by
//! Ortega-Arranz et al. 2013, `crauser-gpu-dijkstra.txt` §IV; Martín, Torres, Gavilanes 2009,
//! ibid. §IV-D/E): the per-thread bodies of the settle loop's phases, shared by the GPU's
//! persistent kernel (`grid_settle.rs`) and the CPU engine.
//!
//! One step `i`: relax the arcs of the frontier `F_i` (the vertices settled by step `i - 1`),
//! take the minimum over the *candidates* (reached, unsettled vertices) of their distance and of
//! distance + least out-weight, and settle every candidate the [`Rule`] proves final; those are
//! `F_{i+1}`. Each vertex is settled once and its arcs relaxed once: Dijkstra's work exactly.
//!
//! Why each rule is exact (with zero weights too; all weights are non-negative). Let `M` be the
//! least candidate distance. Every candidate `u` whose shortest path's last vertex before it is
//! settled has its final distance (that vertex's arcs were relaxed when it was in a frontier).
//! - OUT (Crauser): if `d(v)` were not final, the shortest path to `v` leaves the settled set
//!   through such a `u != v` and then takes an arc out of `u`, so the true distance is at least
//!   `d(u) + min_out(u) >= Delta`; `d(v) <= Delta` contradicts it. A zero `min_out` gives
//!   `Delta = M`: still exact, just fewer settled.
//! - IN (Crauser): if `d(v)` were not final, its predecessor `p` on a shortest path is unsettled,
//!   so the true distance is at least `M + w(p, v) >= M + min_in(v)`; `d(v) <= M + min_in(v)`
//!   contradicts it.
//! - Economic: OUT with every `min_out` replaced by the least arc weight (a lower bound of each).
//! - Martín: `d(v) == M`, the case `Delta = M` of the above.
//!
//! The candidate list replaces the papers' per-vertex `U` flags: a vertex joins it once, when
//! its distance first drops below `INF` (the one relaxation that sees `INF` as the old value),
//! and leaves it when settled, so a step costs O(candidates + frontier arcs), not O(n). The
//! settled state is a bit of the 64-bit packed word's stamp ([`SETTLED`]), so no extra array and
//! a relaxation never needs to test it: a settled vertex's distance is final, and the relaxation
//! skips every candidate that does not lower it.
//!
//! Counters: `arcs` = arcs relaxed (push: every out-arc of every settled vertex, once; pull: the
//! in-arcs from the frontier into unsettled vertices, each once), `vertices` = vertices settled
//! (the source included), `busy` = settle steps.

use core::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};

use crate::advance::{any_lane, partition_walk, vwarp_width, warp_max_u64, Vwarps};
use crate::relax::*;
use crate::types::*;

/// Whether a packed word belongs to a settled vertex.
#[inline(always)]
pub fn is_settled(p: u64) -> bool {
    dist_of(p) != INF && iter_of(p) & SETTLED != 0
}

/// The step that settled a vertex (its packed word must be settled).
#[inline(always)]
pub fn settled_at(p: u64) -> u32 {
    iter_of(p) & !SETTLED
}

#[inline(always)]
unsafe fn cell(a: &SettleArgs, i: usize) -> *mut u32 {
    a.cells.add(i)
}

/// Candidate list `j` (0 or 1) as a queue.
#[inline(always)]
pub unsafe fn cand_queue(a: &SettleArgs, j: u32) -> Queue {
    // A select, not `a.cand[j]`: a dynamic index into the parameter block would copy the whole
    // block to local memory on the GPU.
    let items = if j == 0 { a.cand[0] } else { a.cand[1] };
    Queue { items, len: cell(a, SETTLE_CELL_CAND + j as usize) }
}

/// The frontier as a queue.
#[inline(always)]
pub unsafe fn frontier_queue(a: &SettleArgs) -> Queue {
    Queue { items: a.frontier, len: cell(a, SETTLE_CELL_FRONTIER) }
}

/// The candidate list step `step` reads (and its relaxations append to); the settle pass writes
/// the survivors into the other one.
#[inline(always)]
pub fn cand_of(step: u32) -> u32 {
    step & 1
}

/// Precomputation, phase 0 (once per graph): `min_out[v]` = least weight out of `v`, and
/// `min_in[v] = INF` for phase 1.
#[inline(always)]
pub unsafe fn prepare_out(a: &SettleArgs, tid: u32, nthreads: u32) {
    let mut v = tid;
    while v < a.csr.n {
        let (lo, hi) = (*a.csr.offsets.add(v as usize), *a.csr.offsets.add(v as usize + 1));
        let mut m = INF;
        for e in lo..hi {
            m = m.min(*a.csr.weights.add(e as usize));
        }
        *a.min_out.add(v as usize) = m;
        *a.min_in.add(v as usize) = INF;
        v += nthreads;
    }
}

/// Precomputation, phase 1: `min_in[v]` = least weight into `v` (an atomic min per arc, so no
/// reverse graph is needed for the IN criterion).
#[inline(always)]
pub unsafe fn prepare_in(a: &SettleArgs, tid: u32, nthreads: u32) {
    let mut u = tid;
    while u < a.csr.n {
        let (lo, hi) = (*a.csr.offsets.add(u as usize), *a.csr.offsets.add(u as usize + 1));
        for e in lo..hi {
            let v = a.csr.target(e);
            let w = *a.csr.weights.add(e as usize);
            let m = AtomicU32::from_ptr(a.min_in.add(v as usize));
            if m.load(Relaxed) > w {
                m.fetch_min(w, Relaxed);
            }
        }
        u += nthreads;
    }
}

/// Start a run (one thread, after the init kernel set every distance to unreached): settle the
/// source at distance 0 (step 0), make it the frontier, empty the candidate lists.
#[inline(always)]
pub unsafe fn start(a: &SettleArgs) {
    *a.dist.add(a.source as usize) = pack(0, SETTLED);
    *a.frontier = a.source;
    *cell(a, SETTLE_CELL_FRONTIER) = 1;
    *cell(a, SETTLE_CELL_CAND) = 0;
    *cell(a, SETTLE_CELL_CAND + 1) = 0;
    *cell(a, SETTLE_CELL_DONE) = 0;
    (*a.counters).vertices = 1;
}

/// The relax phase of step `step`, push form (the successor variant): every out-arc of every
/// frontier vertex is relaxed; a vertex reached for the first time joins the candidates.
/// Thread mapping as the advance's dynamic virtual warps (`advance.rs`). `C`: `a.csr.targets`
/// is the classified copy (see [`relax_one`]).
#[inline(always)]
pub unsafe fn relax_frontier<const C: bool>(a: &SettleArgs, step: u32, tid: u32, nthreads: u32) {
    let f = frontier_queue(a);
    let len = load_len(f.len);
    let width = vwarp_width(len, nthreads);
    // Whole idle warps leave at once (road graphs: tiny frontiers on a machine-sized grid).
    if (tid & !31) as u64 >= len as u64 * width as u64 {
        return;
    }
    let out = cand_queue(a, cand_of(step));
    let map = Vwarps::of(width, tid, nthreads);
    let mut arcs = 0u64;
    let mut i = map.first;
    // Trip counts are equal across a physical warp (see `advance::advance_vwarp`), so the
    // warp-aggregated push is reached by whole warps.
    while any_lane(i < len) {
        let (start, end, du) = if i < len {
            let u = *f.items.add(i as usize);
            (*a.csr.offsets.add(u as usize), *a.csr.offsets.add(u as usize + 1), dist_of(load_packed(a.dist, u)))
        } else {
            (0, 0, INF)
        };
        let trips = warp_max_u64(map.trips(end - start));
        let mut e = start + map.lane as u64;
        for _ in 0..trips {
            let mut reached = None;
            if e < end {
                if !C {
                    arcs += 1;
                }
                reached = relax_one::<C>(a, du, e, step, &mut arcs);
            }
            push(out, reached.unwrap_or(0), reached.is_some());
            e += width as u64;
        }
        i += map.groups;
    }
    add_arcs(a.counters, arcs);
}

/// Relax one arc `e` out of a frontier vertex at distance `du`: `Some(v)` when it reached `v`
/// for the first time (the caller appends `v` to the candidates). Counting the arc in `arcs`
/// is the caller's when unclassified, as before classes existed, and this function's with
/// them (only arcs really relaxed). With H-BF's edge classes (`C`, `crate::classify`) self-loops and arcs into
/// sinks are left out (a sink is then never a candidate: the deferred pass gives its distance
/// after the loop, and no criterion needs it, since no path goes on from a sink), and an arc
/// into an in-degree-1 head stores without an atomic (the frontier holds each tail once).
#[inline(always)]
unsafe fn relax_one<const C: bool>(a: &SettleArgs, du: u32, e: u64, step: u32, arcs: &mut u64) -> Option<u32> {
    let (v, class) = if C { a.csr.head_class(0, e) } else { (a.csr.target(e), ARC_PLAIN) };
    if C {
        if class >= ARC_SINK {
            return None;
        }
        *arcs += 1;
    }
    match candidate(a.csr.metric(), du, *a.csr.weights.add(e as usize)) {
        Some(c) => {
            let r = if C && class == ARC_SINGLE { relax_single(a.dist, v, c, step) } else { relax(a.dist, v, c, step) };
            (r.improved && r.prev == INF).then_some(v)
        }
        None => {
            raise(core::ptr::addr_of_mut!((*a.counters).overflow));
            None
        }
    }
}

/// The relax phase of step `step`, push form with load-balanced partitioning (Davidson §IV-B,
/// as `advance::advance_partition`): `a.prefix` holds the exclusive scan of the frontier's
/// degrees (`len + 1` entries); warps take chunks of [`LB_CHUNK`] consecutive arc ranks and each
/// lane finds its frontier slot by binary search, so a hub is spread over the whole grid.
#[inline(always)]
pub unsafe fn relax_frontier_partition<const C: bool>(a: &SettleArgs, step: u32, tid: u32, nthreads: u32) {
    let f = frontier_queue(a);
    let len = load_len(f.len);
    let prefix = a.prefix as *const u64;
    if (tid / 32) as u64 >= (*prefix.add(len as usize)).div_ceil(LB_CHUNK as u64) {
        return;
    }
    let out = cand_queue(a, cand_of(step));
    let mut arcs = 0u64;
    partition_walk(prefix, len, tid, nthreads, |at| {
        let reached = match at {
            Some((s, r)) => {
                let u = *f.items.add(s as usize);
                let e = *a.csr.offsets.add(u as usize) + (r - *prefix.add(s as usize));
                if !C {
                    arcs += 1;
                }
                relax_one::<C>(a, dist_of(load_packed(a.dist, u)), e, step, &mut arcs)
            }
            None => None,
        };
        push(out, reached.unwrap_or(0), reached.is_some());
    });
    add_arcs(a.counters, arcs);
}

/// The relax phase of step `step`, pull form (Martín's predecessor variant): every unsettled
/// vertex scans its in-arcs for tails settled by the previous step (the frontier) and takes the
/// best candidate through them. Only the vertex's own thread writes its distance, so no atomics;
/// but every step scans the in-arcs of every unsettled vertex (O(m) per step, as in the paper).
#[inline(always)]
pub unsafe fn pull(a: &SettleArgs, step: u32, tid: u32, nthreads: u32) {
    let n = a.csr.n;
    let out = cand_queue(a, cand_of(step));
    let slots = n.div_ceil(nthreads) * nthreads;
    let mut arcs = 0u64;
    let mut v = tid;
    while v < slots {
        let mut reached = false;
        if v < n {
            let pv = load_packed(a.dist, v);
            if !is_settled(pv) {
                let dv = dist_of(pv);
                let mut best = dv;
                let (lo, hi) = (*a.rev.offsets.add(v as usize), *a.rev.offsets.add(v as usize + 1));
                for e in lo..hi {
                    let pu = load_packed(a.dist, *a.rev.targets.add(e as usize));
                    if is_settled(pu) && settled_at(pu) == step - 1 {
                        arcs += 1;
                        match candidate(a.csr.metric(), dist_of(pu), *a.rev.weights.add(e as usize)) {
                            Some(c) => best = best.min(c),
                            None => raise(core::ptr::addr_of_mut!((*a.counters).overflow)),
                        }
                    }
                }
                if best < dv {
                    *a.dist.add(v as usize) = pack(best, step);
                    reached = dv == INF;
                }
            }
        }
        push(out, v, reached);
        v += nthreads;
    }
    add_arcs(a.counters, arcs);
}

/// The two keys the minimum phase folds for candidate `v`: its distance, and (for the rules
/// that use it) its distance plus its least out-weight (`u64::MAX` otherwise).
#[inline(always)]
pub unsafe fn keys(a: &SettleArgs, v: u32) -> (u64, u64) {
    let d = dist_of(load_packed(a.dist, v));
    let out = if a.rule == Rule::Out as u32 || a.rule == Rule::Both as u32 {
        plus(a.csr.metric(), d as u64, *a.min_out.add(v as usize))
    } else {
        u64::MAX
    };
    (d as u64, out)
}

/// `x + w` for the criteria: `u64::MAX` when either side is unbounded (`x >= INF`: no
/// candidate; `w == INF`: no arc), the integer sum (no overflow in 64 bits), or the rounded
/// `f32` sum's bit pattern on a real-weighted graph. The criteria compare a distance with such a
/// sum rather than subtracting (`d - min_in <= M` becomes `d <= M + min_in`): with rounding,
/// `fl(M + min_in)` is exactly the least value a path through an unsettled vertex can take
/// (monotone rounding), so both forms are exact for integers and only this one for reals.
#[inline(always)]
pub fn plus(metric: Metric, x: u64, w: u32) -> u64 {
    if x >= INF as u64 || w == INF {
        return u64::MAX;
    }
    match metric {
        Metric::Integer => x + w as u64,
        // An infinite sum's bits (0x7f80_0000) still order above every finite distance.
        Metric::Real => (f32::from_bits(x as u32) + f32::from_bits(w)).to_bits() as u64,
        // The settling criteria need non-negative weights: the host refuses signed graphs for
        // them. Kept total: the encoded sum, or unbounded when it leaves the range.
        Metric::Signed => crate::relax::candidate(metric, x as u32, w).map_or(u64::MAX, |c| c as u64),
    }
}

/// Whether a candidate at distance `d` is final, given the minima of the step (`m`: least
/// candidate distance, `delta`: least distance + out-weight) and its own least in-weight.
#[inline(always)]
pub fn settles(metric: Metric, rule: u32, d: u32, m: u64, delta: u64, min_in: u32, min_weight: u32) -> bool {
    let d = d as u64;
    let out = d <= delta;
    let inn = d <= plus(metric, m, min_in);
    match rule {
        r if r == Rule::Out as u32 => out,
        r if r == Rule::In as u32 => inn,
        r if r == Rule::Both as u32 => out || inn,
        r if r == Rule::Economic as u32 => d <= plus(metric, m, min_weight),
        _ => d <= m,
    }
}

/// The settle pass of step `step` with the step's minima `(m, delta)`: every candidate the rule
/// proves final is settled (stamped [`SETTLED`] | step) and pushed onto the frontier; the others
/// go to the other candidate list. The caller has emptied the frontier and that list.
#[inline(always)]
pub unsafe fn settle_pass(a: &SettleArgs, step: u32, m: u64, delta: u64, tid: u32, nthreads: u32) {
    let from = cand_queue(a, cand_of(step));
    let keep = cand_queue(a, cand_of(step) ^ 1);
    let f = frontier_queue(a);
    let len = load_len(from.len);
    if tid == 0 {
        AtomicU64::from_ptr(core::ptr::addr_of_mut!((*a.counters).busy)).fetch_add(1, Relaxed);
    }
    if (tid & !31) >= len {
        return;
    }
    let slots = len.div_ceil(nthreads) * nthreads;
    let mut settled = 0u64;
    let mut i = tid;
    while i < slots {
        let (mut v, mut now, mut later) = (0, false, false);
        if i < len {
            v = *from.items.add(i as usize);
            let d = dist_of(load_packed(a.dist, v));
            let min_in =
                if a.rule == Rule::In as u32 || a.rule == Rule::Both as u32 { *a.min_in.add(v as usize) } else { INF };
            now = settles(a.csr.metric(), a.rule, d, m, delta, min_in, a.min_weight);
            later = !now;
            if now {
                *a.dist.add(v as usize) = pack(d, SETTLED | step);
                settled += 1;
            }
        }
        push(f, v, now);
        push(keep, v, later);
        i += nthreads;
    }
    add_settled(a.counters, settled);
}

/// Add a thread's count of settled vertices to the run's counter (warp-aggregated on the GPU:
/// whole warps only, like [`add_arcs`]).
#[inline(always)]
unsafe fn add_settled(counters: *mut Counters, x: u64) {
    let cell = core::ptr::addr_of_mut!((*counters).vertices);
    #[cfg(target_arch = "nvptx64")]
    {
        crate::warp::warp_add_u64(cell, x)
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        if x != 0 {
            AtomicU64::from_ptr(cell).fetch_add(x, Relaxed);
        }
    }
}

/// What runs the settle loop's phases: the GPU's persistent grid (`grid_settle::settle_loop`,
/// grid barriers) or the CPU backend (each phase a launch of these bodies over rayon). Each
/// phase ends with its writes visible to every thread that runs the control.
pub trait SettleExecutor {
    /// Whether this thread writes the control's cells (one thread on the GPU; the host).
    fn leader(&self) -> bool;
    /// Wait for every thread (a grid barrier; nothing on the CPU, whose launches return done).
    unsafe fn sync(&mut self);
    /// Step `step`'s relaxation ([`pull`], [`relax_frontier_partition`] or
    /// [`relax_frontier`] by the run's mode), then a sync.
    unsafe fn relax(&mut self, a: &SettleArgs, step: u32);
    /// The least of each of the two keys `value(i)` over `i < len` (`u64::MAX` if none), the
    /// same in every thread.
    unsafe fn least_pair(&mut self, len: u32, value: impl Fn(u32) -> (u64, u64) + Sync) -> (u64, u64);
    /// [`settle_pass`] over every thread, then a sync.
    unsafe fn settle(&mut self, a: &SettleArgs, step: u32, m: u64, delta: u64);
}

/// Parallel Dijkstra's loop, written once (Crauser et al. 1998; Martín et al. 2009), after the
/// init and the precomputation: each step relaxes the arcs of the vertices settled last, then
/// settles every candidate the run's rule proves final, until none is left. Every thread keeps
/// the step number; lengths are read after the sync that ends the phase writing them, so every
/// thread sees the same and takes the same branches. Returns whether it finished (the leader
/// also sets `SETTLE_CELL_DONE`): each step settles at least the least candidate, so `n` steps
/// settle everything, and a loop past that is broken.
#[inline(always)]
pub unsafe fn run<X: SettleExecutor>(a: &SettleArgs, x: &mut X) -> bool {
    if x.leader() {
        start(a);
    }
    x.sync();
    let mut step = 1u32;
    while step <= a.csr.n {
        x.relax(a, step);
        let len = core::ptr::read_volatile(cand_queue(a, cand_of(step)).len);
        if len == 0 {
            if x.leader() {
                *a.cells.add(SETTLE_CELL_DONE) = 1;
            }
            return true;
        }
        if x.leader() {
            // Read by no one until the settle pass, after the sync inside the minimum.
            *frontier_queue(a).len = 0;
            *cand_queue(a, cand_of(step) ^ 1).len = 0;
        }
        let (m, delta) = x.least_pair(len, |i| keys(a, *cand_queue(a, cand_of(step)).items.add(i as usize)));
        x.settle(a, step, m, delta);
        step += 1;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settled_bit_is_not_confused_with_unreached_or_relax_stamps() {
        assert!(!is_settled(pack(INF, NO_ITER)));
        assert!(!is_settled(pack(5, 7)));
        assert!(is_settled(pack(0, SETTLED)));
        assert_eq!(settled_at(pack(9, SETTLED | 12)), 12);
        // A relaxation with an equal distance never beats a settled word (relax skips it), and
        // a settled word never beats... a smaller distance (distances decide first).
        assert!(pack(9, 3) < pack(9, SETTLED | 1));
    }

    #[test]
    fn rules() {
        let (m, delta) = (10, 13);
        let out = Rule::Out as u32;
        assert!(
            settles(Metric::Integer, out, 13, m, delta, INF, 0) && !settles(Metric::Integer, out, 14, m, delta, INF, 0)
        );
        let inn = Rule::In as u32;
        assert!(
            settles(Metric::Integer, inn, 12, m, delta, 2, 0) && !settles(Metric::Integer, inn, 13, m, delta, 2, 0)
        );
        // No in-arcs: INF never overflows the u64 sum.
        assert!(settles(Metric::Integer, inn, u32::MAX - 1, m, delta, INF, 0));
        let both = Rule::Both as u32;
        assert!(
            settles(Metric::Integer, both, 13, m, delta, 0, 0) && settles(Metric::Integer, both, 14, m, delta, 5, 0)
        );
        assert!(!settles(Metric::Integer, both, 14, m, delta, 3, 0));
        assert!(settles(Metric::Integer, Rule::Economic as u32, 11, m, delta, 0, 1));
        assert!(!settles(Metric::Integer, Rule::Economic as u32, 12, m, delta, 0, 1));
        assert!(settles(Metric::Integer, Rule::Martin as u32, 10, m, delta, 0, 0));
        assert!(!settles(Metric::Integer, Rule::Martin as u32, 11, m, delta, 100, 100));
        // Reals: IN compares with the rounded sum M + min_in, never a difference.
        let (r, f) = (Metric::Real, |x: f32| x.to_bits());
        let m = f(1.0) as u64;
        assert!(settles(r, inn, f(1.0 + 0.1), m, u64::MAX, f(0.1), 0));
        assert!(!settles(r, inn, f(1.0 + 0.1) + 1, m, u64::MAX, f(0.1), 0));
        assert_eq!(plus(r, m, f(0.5)), f(1.5) as u64);
        assert_eq!(plus(r, INF as u64, f(0.5)), u64::MAX);
    }
}
