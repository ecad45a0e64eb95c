//! Near-Far Pile and Bucketing (Davidson, Baxter, Garland, Owens, IPDPS 2014, §IV-D and §IV-E):
//! where an improved vertex goes, and what the loop does when a bucket runs dry.
//!
//! Distances fall into buckets of width `delta`. The loop processes one bucket at a time (the
//! *current* one), iterating until no vertex of it improves; a window of `A` buckets has a queue
//! each, and everything beyond the window waits in the *far pile*. When every bucket of the
//! window is done, the far pile is split (a multisplit) into the next window, which starts at the
//! bucket of the smallest distance left in the pile, so empty distance ranges cost nothing.
//! Near-Far is `A = 1`: the near set is the current bucket; Bucketing is `A > 1`.
//!
//! # Why no queue ever holds a vertex twice
//! Distances only fall, so a vertex's *class* (near = bucket `<= current`, slot `s`, far,
//! unreached) only moves towards near while the window and current bucket stay fixed, and each
//! 64-bit atomic min returns the value it replaced. So among the relaxations that lower a vertex
//! in one iteration, exactly one sees each class change. The push rules ([`pushes`]):
//! - into a later slot or the far pile: push only on entering that class (the one relaxation that
//!   crossed into it). A slot queue or the far pile therefore holds each vertex at most once, so
//!   `n` items of room are enough for the far pile and for Near-Far's one slot;
//! - into the next near queue: push on entering the near class, or (stamp dedupe) on the
//!   iteration's first improvement (H-BF's stamp), so the next near queue holds each vertex at most
//!   once; with lookup dedupe every near improvement pushes and the lookup pass compacts.
//!
//! # Slots share `n` entries of room
//! Bucketing's `A` slots would need `n` items of room each for the worst case (`4An` bytes, more
//! than the graph on a road network); they share one pool of `n` instead, `n / A` each
//! ([`Buckets::room`]). A push past a slot's room is counted but not written
//! ([`crate::relax::push_within`]; the far split's distribution does the same), so the slot's
//! length above its room says it *overflowed*. The loop never reads such a slot: when it comes
//! up, its bucket is gathered from the distances into the near queue instead
//! (`frontier::gather_overflowed`): every vertex whose distance lies in the bucket, which is
//! exactly what the slot held live. One pass over the distances per overflowed bucket, where a
//! full slot would cost `4n` bytes held for the whole solve; on NY at `auto`'s delta no slot
//! overflowed for any of the benchmark's sources (counted on the CPU backend).
//!
//! Entries go stale instead of being moved: a vertex in slot 5 that later drops into slot 2 is
//! pushed to slot 2 and processed there; its slot-5 copy is skipped when slot 5 comes up (its
//! distance is below the bucket, see [`is_stale`]), and far-pile copies of vertices that left
//! the far class are dropped at the next split, exactly as §IV-D describes.

use crate::relax::{load_len, Relaxation};
use crate::types::*;

/// The bucket of a distance: `floor(d / delta)`, in real arithmetic on a real-weighted graph
/// (`b.real`, both `d` and `delta` are `f32` bit patterns). IEEE division by a positive constant
/// rounds monotonically and the cast truncates (saturating), so buckets still ascend with
/// distance: the queue rules below only need that. Capped at `u32::MAX - 1`, the last bucket
/// integer distances can reach (`INF - 1` with delta 1), so the loop's bucket arithmetic sees
/// the same range either way.
#[inline(always)]
pub fn bucket_of(b: &Buckets, d: u32) -> u32 {
    if b.real != 0 {
        ((f32::from_bits(d) / f32::from_bits(b.delta)) as u32).min(u32::MAX - 1)
    } else {
        d / b.delta
    }
}

/// Where a distance belongs in the current iteration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// Bucket `<= current`: processed in this bucket's next iteration.
    Near,
    /// A later bucket of the window: its slot.
    Slot(u32),
    /// Beyond the window.
    Far,
    /// `INF`.
    Unreached,
}

/// The class of distance `d` (buckets are active: `b.nbuckets > 0`).
#[inline(always)]
pub fn class_of(b: &Buckets, d: u32) -> Class {
    if d == INF {
        return Class::Unreached;
    }
    let k = bucket_of(b, d);
    if k <= b.current {
        Class::Near
    } else if (k as u64) < b.window as u64 + b.nbuckets as u64 {
        Class::Slot(k - b.window)
    } else {
        Class::Far
    }
}

/// An input vertex whose distance has fallen below the current bucket was already processed
/// in an earlier bucket (at that distance); its queue entry is a leftover to skip.
#[inline(always)]
pub fn is_stale(b: &Buckets, d: u32) -> bool {
    b.nbuckets != 0 && d != INF && bucket_of(b, d) < b.current
}

/// The current window's bucket bounds in distance, for [`class_within`] and
/// [`is_stale_within`]: on integer distances a bucket `floor(d / delta)` is below `k` exactly
/// when `d < k * delta`, so those tests compare instead of dividing. The products saturate at
/// `u32::MAX`, above every finite distance, which keeps the comparisons exact.
///
/// Why: the class of a relaxation's candidate stands between it and its push, and the stale
/// test before every expansion, and a `div.u32` is a long dependent sequence on the GPU. The
/// thread and virtual-warp advances compute the bounds once per advance: with the width's
/// divisions gone too (`advance::vwarp_width`), NY went from 5.04 to 4.76-4.80 ms on the H100
/// (H100, 2026-11-27). The partitioned and tiled advances keep the divisions:
/// bounds in every advance spilled registers in their loops (`sssp_pile_loop_partition` 56 ->
/// 84-108 bytes), and kron 16-17 ran 4-8% slower.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// `current * delta`: below it an entry is stale.
    current_start: u32,
    /// `(current + 1) * delta`: below it a distance is near.
    near_end: u32,
    /// `(window + nbuckets) * delta`: from it on a distance is far.
    window_end: u32,
}

impl Bounds {
    /// The bounds of `b`'s window (meaningless, and unused, on real distances).
    #[inline(always)]
    pub fn of(b: &Buckets) -> Bounds {
        let end = |k: u32| k.saturating_mul(b.delta);
        Bounds {
            current_start: end(b.current),
            near_end: end(b.current.saturating_add(1)),
            window_end: end(b.window.saturating_add(b.nbuckets)),
        }
    }
}

/// [`class_of`] by the window's bounds `k` (`Bounds::of(b)`): a division only for a slot.
#[inline(always)]
pub fn class_within(b: &Buckets, k: &Bounds, d: u32) -> Class {
    if b.real != 0 || d == INF {
        return class_of(b, d);
    }
    if d < k.near_end {
        Class::Near
    } else if d < k.window_end {
        Class::Slot(d / b.delta - b.window)
    } else {
        Class::Far
    }
}

/// [`is_stale`] by the window's bounds `k` (`Bounds::of(b)`).
#[inline(always)]
pub fn is_stale_within(b: &Buckets, k: &Bounds, d: u32) -> bool {
    if b.real != 0 {
        return is_stale(b, d);
    }
    b.nbuckets != 0 && d != INF && d < k.current_start
}

/// What one relaxation must push.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pushes {
    /// Onto the advance's output (the next near queue, or the lookup scratch queue).
    pub near: bool,
    /// Onto this slot's queue.
    pub slot: Option<u32>,
    /// Onto the far pile.
    pub far: bool,
}

/// The push rules of the module doc. `cand` is the distance the relaxation tried; `lookup` is
/// [`Dedupe::Lookup`] (every near improvement pushes).
#[inline(always)]
pub fn pushes(b: &Buckets, r: &Relaxation, cand: u32, lookup: bool) -> Pushes {
    pushes_by(b, r, cand, lookup, |d| class_of(b, d))
}

/// [`pushes`] with the classes by the window's bounds `k` ([`class_within`]).
#[inline(always)]
pub fn pushes_within(b: &Buckets, k: &Bounds, r: &Relaxation, cand: u32, lookup: bool) -> Pushes {
    pushes_by(b, r, cand, lookup, |d| class_within(b, k, d))
}

/// [`pushes`] with `class` for [`class_of`].
#[inline(always)]
fn pushes_by(b: &Buckets, r: &Relaxation, cand: u32, lookup: bool, class: impl Fn(u32) -> Class) -> Pushes {
    let none = Pushes { near: false, slot: None, far: false };
    if !r.improved {
        return none;
    }
    if b.nbuckets == 0 {
        return Pushes { near: if lookup { true } else { r.first }, ..none };
    }
    let now = class(cand);
    let entered = now != class(r.prev);
    // Wide mode (the hybrid's Workfront iterations): every vertex improved goes to the next
    // near queue once per iteration (its first improvement, as in Workfront), whatever its
    // class; a later improvement into the near class must not push it again. The slot and far
    // pushes still follow the class rules, so those queues keep their invariant (every vertex
    // of a later class has its entry) and the loop can drop back to ordered iterations at any
    // time.
    let near = if b.wide != 0 { lookup || r.first } else { lookup || r.first || entered };
    match now {
        Class::Near => Pushes { near, ..none },
        Class::Slot(s) => Pushes { near: near && b.wide != 0, slot: if entered { Some(s) } else { None }, ..none },
        Class::Far => Pushes { near: near && b.wide != 0, far: entered, ..none },
        Class::Unreached => none,
    }
}

/// A length cell of the pile's cell array.
#[inline(always)]
pub unsafe fn cell(cells: *mut u32, i: usize) -> *mut u32 {
    cells.add(i)
}

/// What the loop does after an iteration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// Run another iteration from the updated state.
    Iterate,
    /// Every bucket of the window is done: split the far pile into the next window.
    Split,
    /// Nothing is left anywhere.
    Done,
}

/// After an iteration's pushes are complete: move the state on. Every thread of a persistent
/// launch calls this with the same state and reads the same lengths, so all take the same
/// decision; the lengths it reads cannot change before the next barrier, even while faster
/// threads already run the next iteration: that iteration pushes into the ring cell after the
/// one read here (`k` always moves on), and the slots scanned lie at or
/// below the bucket picked, which it never pushes into (candidates are `>=` the input's
/// distances; a candidate in the picked bucket is near).
#[inline(always)]
pub unsafe fn after_iteration(st: &mut PileState, cells: *mut u32, nbuckets: u32, known: Option<u32>) -> Next {
    st.iters += 1;
    let next = known.unwrap_or_else(|| load_len(cell(cells, near_cell(st.k + 1))));
    // Queues alternate with k's parity and cells with k mod 3: keep k mod 6. The ring moves on
    // whatever comes next, so the next iteration pushes into the cell after the one just read,
    // even when it starts from a slot or after a split. Left in place, the first threads to
    // start a slot's iteration could push into that cell while a slower thread still reads it
    // here, see it non-empty and take the other branch: the state would diverge between
    // threads (racecheck found it in the block loop, where one warp can run ahead). The cell
    // after it was zeroed by the iteration just finished.
    st.k = (st.k + 1) % 6;
    st.known_len = 0;
    if next > 0 {
        st.from_slot = 0;
        // Final: nothing pushes into an input (see the doc above).
        st.known_len = next + 1;
        return Next::Iterate;
    }
    if nbuckets == 0 {
        st.done = 1;
        return Next::Done;
    }
    let mut j = st.current - st.window + 1;
    while j < nbuckets {
        if load_len(cell(cells, CELL_SLOTS + j as usize)) > 0 {
            st.current = st.window + j;
            st.from_slot = 1;
            return Next::Iterate;
        }
        j += 1;
    }
    Next::Split
}

/// Whether the target's distance is final, so a target query can stop: every distance below
/// the current bucket is final (the buckets before it are exhausted). All threads of a
/// persistent launch agree: a true answer cannot change, and a false one cannot turn true
/// before the next barrier, since the next advance expands only vertices at or above the
/// current bucket and so lowers nothing below it.
#[inline(always)]
pub unsafe fn target_settled(p: &PileArgs, st: &PileState) -> bool {
    let b = &p.adv.buckets;
    if p.target == NO_TARGET || b.nbuckets == 0 || st.done != 0 {
        return false;
    }
    let d = dist_of(crate::relax::load_packed(p.adv.dist, p.target));
    d != INF && bucket_of(b, d) < st.current
}

/// After a far-pile split found its smallest live distance in bucket `window` (`None`: the
/// pile held nothing live): the new window starts there, and its first bucket is non-empty.
#[inline(always)]
pub fn after_split(st: &mut PileState, window: Option<u32>) -> Next {
    st.splits += 1;
    st.far ^= 1;
    match window {
        None => {
            st.done = 1;
            Next::Done
        }
        Some(w) => {
            st.window = w;
            st.current = w;
            st.from_slot = 1;
            Next::Iterate
        }
    }
}

/// A far-pile entry at distance `d` is live (still unprocessed) iff its bucket lies beyond the
/// window just finished; anything below left the far class and was processed from a slot or
/// the near queue.
#[inline(always)]
pub fn far_is_live(b: &Buckets, d: u32, old_window_end: u64) -> bool {
    d != INF && bucket_of(b, d) as u64 >= old_window_end
}

/// The multisplit bin of a far-pile entry at distance `d` for a new window starting at bucket
/// `window`: `0..nbuckets` the window's slots, `nbuckets` the far pile, `nbuckets + 1` dropped.
#[inline(always)]
pub fn far_bin(b: &Buckets, d: u32, window: u32, old_window_end: u64) -> u32 {
    let nbuckets = b.nbuckets;
    if !far_is_live(b, d, old_window_end) {
        return nbuckets + 1;
    }
    let k = bucket_of(b, d);
    // Live entries lie at or above the new window, which starts at the smallest of them.
    if k.wrapping_sub(window) < nbuckets {
        k - window
    } else {
        nbuckets
    }
}

/// The advance of the iteration the state describes: the template with its queues, stamp and
/// bucket filled in. Shared by the GPU's persistent loop and the CPU engine.
#[inline(always)]
pub unsafe fn pile_step(p: &PileArgs, st: &PileState) -> AdvanceArgs {
    let c = |i: u32| cell(p.cells, i as usize);
    let k = st.k;
    // Selects, not `near[k % 2]`: a run-time index into the parameter block would copy it to
    // local memory on the GPU.
    let (cur, next) = if k.is_multiple_of(2) { (p.near[0], p.near[1]) } else { (p.near[1], p.near[0]) };
    let far = if st.far == 0 { p.far[0] } else { p.far[1] };
    let b = &p.adv.buckets;
    let near = |k: u32| cell(p.cells, near_cell(k));
    let input = if st.from_slot != 0 { b.slot(st.current - st.window) } else { Queue { items: cur, len: near(k) } };
    let (output, zero_len) = if p.adv.dedupe == Dedupe::Lookup as u32 {
        (Queue { items: p.scratch, len: c(3 + st.scratch) }, c(3 + (st.scratch ^ 1)))
    } else {
        (Queue { items: next, len: near(k + 1) }, near(k + 2))
    };
    // The near queues' degree prefixes alternate with them (`PileArgs::push_prefix`): this
    // iteration reads (or scans into) its input's and its pushes build the next queue's.
    let (scan, push_prefix) = match p.push_prefix {
        x if x.is_null() => (p.adv.scan, x),
        x if k.is_multiple_of(2) => (p.adv.scan, x),
        x => (x as *const u64, p.adv.scan as *mut u64),
    };
    // The hybrid's switch: a wide input needs no ordering (Davidson et al. §VI). Its length is
    // final here (the previous phase ended at a barrier, and nothing pushes into an input).
    let wide = (p.wide_at != 0 && b.nbuckets != 0 && load_len(input.len) >= p.wide_at) as u16;
    let (hub, hub_zero) = hub_ring(p.adv.hub.items, p.cells, st.iters + 1);
    AdvanceArgs {
        input,
        output,
        zero_len,
        scan,
        push_prefix,
        hub,
        hub_zero,
        iter: st.iters + 1,
        buckets: Buckets {
            window: st.window,
            current: st.current,
            far: Queue { items: far, len: c(CELL_FAR as u32 + st.far) },
            wide,
            ..*b
        },
        ..p.adv
    }
}

/// The near queue of the iteration the state describes (what it reads, unless it reads a slot;
/// where an overflowed slot's bucket is gathered to).
#[inline(always)]
pub unsafe fn current_near(p: &PileArgs, st: &PileState) -> Queue {
    let cur = if st.k.is_multiple_of(2) { p.near[0] } else { p.near[1] };
    Queue { items: cur, len: cell(p.cells, near_cell(st.k)) }
}

/// The next near queue of the iteration the state describes (where lookup dedupe compacts to).
#[inline(always)]
pub unsafe fn next_near(p: &PileArgs, st: &PileState) -> Queue {
    let next = if st.k.is_multiple_of(2) { p.near[1] } else { p.near[0] };
    Queue { items: next, len: cell(p.cells, near_cell(st.k + 1)) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn buckets(delta: u32, window: u32, current: u32, nbuckets: u32) -> Buckets {
        Buckets { delta, window, current, nbuckets, ..NO_BUCKETS }
    }

    fn lowered(prev: u32, first: bool) -> Relaxation {
        Relaxation { improved: true, first, prev }
    }

    /// The bounds' tests against the division's, on edge values and a pseudo-random sweep
    /// (deltas from 1 to `u32::MAX`, windows anywhere the loop can put them).
    #[test]
    fn classes_within_the_bounds_match_the_divisions() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let edges = [0u32, 1, 2, 9, 10, 11, 255, 65_535, 1 << 31, INF - 2, INF - 1, INF];
        for round in 0..20_000 {
            let delta = match round % 4 {
                0 => 1 + (next() % 16) as u32,
                1 => 1 + (next() % 1_000_000) as u32,
                2 => 1 + (next() as u32 >> 1),
                _ => u32::MAX - (next() % 4) as u32,
            };
            let nbuckets = 1 + (next() % MAX_BUCKETS as u64) as u32;
            let window =
                if round % 3 == 0 { (next() % 8) as u32 } else { (INF / delta).saturating_sub((next() % 8) as u32) };
            // A state the loop can be in: buckets stop at `u32::MAX - 1` (`bucket_of`).
            let current = window.saturating_add((next() % nbuckets as u64) as u32).min(u32::MAX - 1);
            let window = window.min(current);
            let b = buckets(delta, window, current, nbuckets);
            let k = Bounds::of(&b);
            let ends = [current, current.wrapping_add(1), window.wrapping_add(nbuckets)].map(|k| k.wrapping_mul(delta));
            let near_ends = ends.iter().flat_map(|&e| [e.wrapping_sub(1), e, e.wrapping_add(1)]);
            let randoms: [u32; 4] = core::array::from_fn(|_| next() as u32);
            let shave = (next() % 3) as u32;
            for d in edges.iter().copied().chain(randoms).chain(near_ends) {
                let at = format!("d {d}, delta {delta}, window {window}, current {current}, nbuckets {nbuckets}");
                assert_eq!(class_within(&b, &k, d), class_of(&b, d), "{at}");
                assert_eq!(is_stale_within(&b, &k, d), is_stale(&b, d), "{at}");
                let r = lowered(d, round % 2 == 0);
                let c = d.saturating_sub(shave);
                assert_eq!(pushes_within(&b, &k, &r, c, false), pushes(&b, &r, c, false), "{at}, cand {c}");
            }
        }
    }

    #[test]
    fn classes_follow_the_window() {
        let b = buckets(10, 3, 4, 3); // window buckets 3, 4, 5; current 4
        assert_eq!(class_of(&b, 45), Class::Near);
        assert_eq!(class_of(&b, 30), Class::Near);
        assert_eq!(class_of(&b, 55), Class::Slot(2));
        assert_eq!(class_of(&b, 60), Class::Far);
        assert_eq!(class_of(&b, INF), Class::Unreached);
        assert!(is_stale(&b, 39) && !is_stale(&b, 40));
    }

    #[test]
    fn pushes_happen_once_per_class_entry() {
        let b = buckets(10, 0, 0, 3);
        // Unreached -> far: push to the far pile once; far -> far: nothing.
        assert!(pushes(&b, &lowered(INF, true), 100, false).far);
        assert_eq!(pushes(&b, &lowered(100, false), 90, false), Pushes { near: false, slot: None, far: false });
        // far -> slot 2, slot 2 -> slot 2, slot 2 -> slot 1.
        assert_eq!(pushes(&b, &lowered(90, false), 25, false).slot, Some(2));
        assert_eq!(pushes(&b, &lowered(25, false), 21, false).slot, None);
        assert_eq!(pushes(&b, &lowered(21, false), 15, false).slot, Some(1));
        // Into the current bucket: push once per iteration (stamp), or on entering it.
        assert!(pushes(&b, &lowered(15, false), 5, false).near);
        assert!(!pushes(&b, &lowered(5, false), 4, false).near);
        assert!(pushes(&b, &lowered(5, true), 4, false).near);
        // Lookup: every near improvement pushes.
        assert!(pushes(&b, &lowered(5, false), 4, true).near);
        // No improvement, no push.
        let none = Relaxation { improved: false, first: false, prev: 3 };
        assert_eq!(pushes(&b, &none, 4, true), Pushes { near: false, slot: None, far: false });
    }

    #[test]
    fn wide_mode_pushes_every_improved_vertex_once_and_keeps_the_class_pushes() {
        let b = Buckets { wide: 1, ..buckets(10, 0, 0, 3) };
        // First improvement of the iteration, into the far pile: both queues.
        assert_eq!(pushes(&b, &lowered(INF, true), 100, false), Pushes { near: true, slot: None, far: true });
        // A later one into slot 2 then into the near class: the slot entry only, no second near.
        assert_eq!(pushes(&b, &lowered(100, false), 25, false), Pushes { near: false, slot: Some(2), far: false });
        assert_eq!(pushes(&b, &lowered(25, false), 5, false), Pushes { near: false, slot: None, far: false });
        // Lookup dedupe: every improvement pushes (the lookup pass compacts).
        assert!(pushes(&b, &lowered(25, false), 21, true).near);
    }

    #[test]
    fn far_bins_drop_what_left_the_far_class() {
        // Old window ended at bucket 10; the new window starts at 12 with 3 buckets.
        let b = buckets(10, 12, 12, 3);
        assert_eq!(far_bin(&b, 95, 12, 10), 4); // bucket 9: processed already
        assert_eq!(far_bin(&b, 125, 12, 10), 0);
        assert_eq!(far_bin(&b, 149, 12, 10), 2);
        assert_eq!(far_bin(&b, 150, 12, 10), 3);
        // The same on a real-weighted graph: f32 distances and width, buckets floor(d / 10.0).
        let f = |x: f32| x.to_bits();
        let r = Buckets { real: 1, delta: f(10.0), ..b };
        assert_eq!(far_bin(&r, f(95.5), 12, 10), 4);
        assert_eq!(far_bin(&r, f(120.0), 12, 10), 0);
        assert_eq!(far_bin(&r, f(149.99), 12, 10), 2);
        assert_eq!(far_bin(&r, f(150.0), 12, 10), 3);
        assert_eq!(bucket_of(&r, f(0.0)), 0);
        assert_eq!(bucket_of(&r, f(3.0e38)), u32::MAX - 1); // saturates at the integer range, never wraps
    }

    #[test]
    fn control_moves_through_near_then_slots_then_split() {
        let mut cells = [0u32; NUM_CELLS];
        let mut st = PileState::default();
        assert_eq!(st.input_len(), None, "the start state knows no length");
        cells[near_cell(1)] = 4; // next near queue non-empty
        assert_eq!(unsafe { after_iteration(&mut st, cells.as_mut_ptr(), 3, None) }, Next::Iterate);
        assert_eq!((st.k, st.from_slot, st.iters), (1, 0, 1));
        assert_eq!(st.input_len(), Some(4), "the length it read is the next input's");
        cells[near_cell(2)] = 0;
        cells[CELL_SLOTS + 2] = 7; // slot 1 empty, slot 2 not
        assert_eq!(unsafe { after_iteration(&mut st, cells.as_mut_ptr(), 3, None) }, Next::Iterate);
        // The ring moves on with the slot, so the next pushes go past the cell just read.
        assert_eq!((st.current, st.from_slot, st.k), (2, 1, 2));
        assert_eq!(st.input_len(), None, "a slot's length is read by the advance");
        cells[near_cell(3)] = 0;
        assert_eq!(unsafe { after_iteration(&mut st, cells.as_mut_ptr(), 3, None) }, Next::Split);
        assert_eq!(after_split(&mut st, Some(9)), Next::Iterate);
        assert_eq!((st.window, st.current, st.far, st.splits), (9, 9, 1, 1));
        assert_eq!(after_split(&mut st, None), Next::Done);
        assert_eq!(st.done, 1);
        // Workfront (no buckets): an empty next queue ends the run.
        let mut wf = PileState::default();
        assert_eq!(unsafe { after_iteration(&mut wf, [0u32; NUM_CELLS].as_mut_ptr(), 0, None) }, Next::Done);
    }

    #[test]
    fn a_length_known_on_the_way_stands_for_the_cell() {
        // The counting barrier hands the next near queue's length over: the control step then
        // decides as if it had read the cell, which it does not read (it holds 0 here).
        let mut cells = [0u32; NUM_CELLS];
        let mut known = PileState::default();
        assert_eq!(unsafe { after_iteration(&mut known, cells.as_mut_ptr(), 3, Some(5)) }, Next::Iterate);
        let mut read = PileState::default();
        cells[near_cell(1)] = 5;
        assert_eq!(unsafe { after_iteration(&mut read, cells.as_mut_ptr(), 3, None) }, Next::Iterate);
        assert_eq!((known.k, known.from_slot, known.input_len()), (read.k, read.from_slot, Some(5)));
        // A known 0 moves on to the slots, as an empty cell does.
        cells[CELL_SLOTS + 1] = 2;
        assert_eq!(unsafe { after_iteration(&mut known, cells.as_mut_ptr(), 3, Some(0)) }, Next::Iterate);
        assert_eq!((known.current, known.from_slot), (1, 1));
    }
}
