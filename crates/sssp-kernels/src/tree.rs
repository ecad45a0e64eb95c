//! Shortest-path trees on the device: one tight in-arc per reached vertex, chosen so that the
//! parents can never form a cycle, in one load-balanced pass over the arcs.
//!
//! A tight arc `u -> v` (`d(u) + w = d(v)`) is on some shortest path, but with zero-weight
//! cycles tight arcs can form cycles, and picking any tight in-arc per vertex may close one. The
//! packed words already hold what breaks the tie: the iteration that last lowered each distance.
//! In a frontier run (Workfront, Near-Far, Bucketing) the relaxation that gave `v` its final
//! distance, in iteration `i`, came from a `u` in that iteration's input, read with `u`'s final
//! distance (were `u` lowered later, `v` would be lowered again through it). So `u`'s stamp is at
//! most `i` (an equal distance never restamps: the 64-bit minimum keeps the older stamp), and
//! equal to `i` only when `u` was lowered in iteration `i` itself before its expander read it.
//! Tree arcs are therefore the tight arcs whose tail has a smaller stamp, or the same stamp and a
//! smaller distance (a positive weight): (stamp, distance) falls strictly along parent pointers,
//! so there is no cycle and every chain ends at the source (stamp 0, distance 0). Every reached
//! vertex has such an arc except one lowered through a zero-weight arc from a vertex lowered in
//! the same iteration; the host sees such orphans and builds that tree itself (the `sssp`
//! library's `tree` module), as it does after a topology-driven sweep, whose stamps say less.
//! A settling run (Crauser, Martín: `settle`) stamps each vertex `SETTLED | step` when it is
//! proved final, and its final distance came from a vertex settled in an earlier step: the same
//! rule picks those arcs (a vertex only lowered, never settled, keeps a relax stamp below every
//! settled one and is at worst an orphan).

use core::sync::atomic::{AtomicU32, Ordering::Relaxed};

use crate::advance::partition_walk;
use crate::relax::{candidate, load_packed};
use crate::types::*;

/// Whether `u -> v` of weight `w` may be `v`'s tree arc, given both packed words.
#[inline(always)]
pub fn is_tree_arc(metric: Metric, pu: u64, w: u32, pv: u64) -> bool {
    let (du, dv) = (dist_of(pu), dist_of(pv));
    let (su, sv) = (iter_of(pu), iter_of(pv));
    // Within one stamp only arcs that raise the distance count, so equal-stamp chains climb and
    // cannot close a cycle. The distances are compared, not the weight's sign: a positive real
    // weight can vanish in the rounded sum (678319.2 + 0.001 is 678319.2 in `f32`), and such a
    // tight self-loop made a vertex its own parent. Encoded distances order like their values
    // for every metric (`Metric`).
    du != INF && candidate(metric, du, w) == Some(dv) && (su < sv || (su == sv && dv > du))
}

/// Write `u + 1` into `parent1[v]` for tree arcs `u -> v` (see the module doc); `parent1` starts
/// zeroed, so 0 means none (the source and unreached vertices). Several tree arcs into one
/// vertex race and any one wins: each is a valid choice.
#[inline(always)]
pub unsafe fn tree_arcs(a: &TreeArgs, tid: u32, nthreads: u32) {
    let csr = &a.csr;
    partition_walk(csr.offsets, csr.n, tid, nthreads, |at| {
        let Some((u, e)) = at else { return };
        let pu = load_packed(a.dist, u);
        let v = csr.target(e);
        if is_tree_arc(csr.metric(), pu, *csr.weights.add(e as usize), load_packed(a.dist, v)) {
            AtomicU32::from_ptr(a.parent1.add(v as usize)).store(u + 1, Relaxed);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tree_arcs_are_tight_and_go_down_in_stamps() {
        let i = Metric::Integer;
        assert!(is_tree_arc(i, pack(5, 2), 3, pack(8, 3)));
        // Same stamp: only through a positive weight (a zero-weight cycle's arcs all tie).
        assert!(is_tree_arc(i, pack(5, 3), 3, pack(8, 3)));
        assert!(!is_tree_arc(i, pack(5, 3), 0, pack(5, 3)));
        // The head was lowered before the tail.
        assert!(!is_tree_arc(i, pack(5, 4), 3, pack(8, 3)));
        // Not tight; unreached tail.
        assert!(!is_tree_arc(i, pack(5, 2), 4, pack(8, 3)));
        assert!(!is_tree_arc(i, pack(INF, NO_ITER), 0, pack(INF, NO_ITER)));
        // Reals: tight in rounded arithmetic.
        let f = |x: f32| x.to_bits();
        assert!(is_tree_arc(Metric::Real, pack(f(0.1), 1), f(0.2), pack(f(0.1 + 0.2), 2)));
        assert!(!is_tree_arc(Metric::Real, pack(f(0.1), 1), f(0.2), pack(f(0.3) + 1, 2)));
        // Signed: a negative arc is tight across stamps, never within one.
        let (s, e) = (Metric::Signed, Metric::encode_signed);
        assert!(is_tree_arc(s, pack(e(5), 1), -3i32 as u32, pack(e(2), 2)));
        assert!(!is_tree_arc(s, pack(e(5), 2), -3i32 as u32, pack(e(2), 2)));
        assert!(is_tree_arc(s, pack(e(-5), 2), 3, pack(e(-2), 2)));
        // A positive real weight absorbed by rounding does not raise the distance: within one
        // stamp it is no tree arc (a self-loop would make its vertex its own parent).
        let d = f(678319.2);
        assert_eq!(candidate(Metric::Real, d, f(0.001)), Some(d));
        assert!(!is_tree_arc(Metric::Real, pack(d, 3), f(0.001), pack(d, 3)));
        assert!(is_tree_arc(Metric::Real, pack(d, 2), f(0.001), pack(d, 3)));
    }
}
