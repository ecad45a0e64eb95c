//! The frontier loop of Workfront, Near-Far and Bucketing, and its far split, written once
//! (Davidson et al., IPDPS 2014, §IV-C-E; the queue rules are in [`crate::split`]).
//!
//! Three executors run it ([`Executor`]): the GPU's persistent grid (`grid::pile_loop`: grid
//! barriers between phases, every thread running the same control on its own copy of the
//! state), the GPU's one-block latency loop (`block_loop::pile_block`: block barriers, the near
//! queues mirrored in shared memory) and the CPU backend (`sssp::engine::cpu`: each phase a
//! launch of the same bodies over rayon, the control on the host). An executor supplies the
//! phases whose shape depends on who runs them, the advance, the lookup dedupe's compaction,
//! and the far split's reduction and multisplit; the sequence, the queue bookkeeping and the
//! split's rules are here, the same for all three.
//!
//! Every phase an executor runs ends with its results visible to every thread that runs the
//! control (a barrier on the GPU; the CPU's launches return when done), and the control reads
//! only lengths that are stable until the next phase, so every copy of the state stays equal.

use crate::relax::{load_len, load_packed};
use crate::split::*;
use crate::types::*;

/// What runs a frontier loop's phases (see the module doc).
pub trait Executor {
    /// Whether this executor runs the lookup dedupe's [`Executor::compact`]; one that does not
    /// (the block loop: stamp only, the host refuses lookup there) drops the per-iteration test.
    const COMPACTS: bool = true;
    /// One iteration's advance of `a` (made by [`pile_step`] from `st`) in every balance mode:
    /// relax the input queue's out-arcs and push the improved heads per the queue rules.
    unsafe fn advance(&mut self, p: &PileArgs, st: &PileState, a: &AdvanceArgs);
    /// Davidson's lookup dedupe: mark `input`'s winners in `table` and compact them, in input
    /// order, into `out`, length included.
    unsafe fn compact(&mut self, input: Queue, table: *mut u32, out: Queue);
    /// The least `value(i)` over `i < len` (`u64::MAX` when there is none), the same in every
    /// thread.
    unsafe fn least(&mut self, len: u32, value: impl Fn(u32) -> u64 + Sync) -> u64;
    /// Item `item(i)` of every `i < len` to bin `key(i)` (`>= nbins`: dropped): queue `dest(j)`
    /// gets bin `j`'s items from its start, and its length. The last bin is the big one (the
    /// far pile, room for every item), which an executor may push differently; the others have
    /// room for `room` items each, and one that gets more is left overflowed (its length the
    /// bin's count, only its first `room` items written), as [`push_within`] leaves it.
    ///
    /// [`push_within`]: crate::relax::push_within
    unsafe fn distribute(
        &mut self,
        len: u32,
        nbins: u32,
        room: u32,
        key: impl Fn(u32) -> u32 + Sync + Copy,
        item: impl Fn(u32) -> u32 + Sync,
        dest: impl Fn(u32) -> Queue + Sync,
    );
    /// Every vertex `v < p.adv.csr.n` with `keep(v)`, appended in any order to `out`, the near
    /// queue the iteration `st` describes will read (its length cell at zero). A parallel
    /// executor waits for every thread first: `out`'s cell is the one [`after_iteration`] has
    /// just read as empty, and a thread still reading it must not see the gather's pushes.
    unsafe fn gather(&mut self, p: &PileArgs, st: &PileState, keep: impl Fn(u32) -> bool + Sync, out: Queue);
    /// The length of the next near queue (the one [`after_iteration`] reads) when the executor
    /// learned it on the way, so the control step need not read its cell: the GPU grid's
    /// counting barrier, when the advance pushed straight into that queue (stamp dedupe; lookup
    /// dedupe pushes into the scratch queue and compacts, so it gives `None`).
    fn next_near_len(&self) -> Option<u32> {
        None
    }
}

/// Whether the advance `a` (made by [`pile_step`]) builds the next near queue's degree prefix
/// with its pushes (`PileArgs::push_prefix`; stamp dedupe only: with lookup dedupe the pushes go
/// to the scratch queue, and the compaction makes the next near queue). Where it does, an
/// executor zeroes the arcs half of the length pair the iteration zeroes (`a.zero_len + 1`,
/// `types::near_cell`), from which the iteration after it counts, and skips the degree scan of
/// an input the last advance of its launch pushed (the control step read its length:
/// [`PileState::input_len`]). The rule of both executors that build prefixes: the GPU's
/// partition loop (`grid`) and the CPU engine.
#[inline(always)]
pub fn pushes_build_prefix(a: &AdvanceArgs) -> bool {
    !a.push_prefix.is_null() && a.dedupe == Dedupe::Stamp as u32
}

/// Run the frontier loop from `st` until the solve is done or `p.max_iters` iterations have
/// run: each iteration advances the current near queue or bucket slot, compacts the pushes
/// (lookup dedupe), moves the state on ([`after_iteration`]), splits the far pile into the next
/// window when the window has run dry, and stops early once the target is final.
#[inline(always)]
pub unsafe fn run<X: Executor>(p: &PileArgs, st: &mut PileState, x: &mut X) {
    let nb = p.adv.buckets.nbuckets;
    // Iterations run so far: `st.iters - first` (each iteration counts one in
    // [`after_iteration`]), so no counter of its own is kept live through the loop.
    let first = st.iters;
    // What the previous launch's control step read may be stale by now (the host runs between
    // launches).
    st.known_len = 0;
    while st.done == 0 && st.iters.wrapping_sub(first) < p.max_iters {
        if nb != 0 && st.from_slot != 0 {
            gather_overflowed(p, st, x);
        }
        let a = pile_step(p, st);
        x.advance(p, st, &a);
        if X::COMPACTS && a.dedupe == Dedupe::Lookup as u32 {
            x.compact(a.output, p.table, next_near(p, st));
            st.scratch ^= 1;
        }
        if after_iteration(st, p.cells, nb, x.next_near_len()) == Next::Split {
            split_far(p, st, x);
        }
        if target_settled(p, st) {
            st.done = 1;
        }
    }
}

/// When the slot about to be read overflowed (more vertices entered its bucket than its room,
/// see [`crate::split`]), its queue is incomplete: the bucket's vertices are gathered from the
/// distances into the near queue instead, and the iteration reads that. They are exactly the
/// vertices the slot would have held live: every vertex whose distance lies in the bucket, none
/// of them expanded at that distance yet (a vertex expanded earlier was in an earlier bucket
/// then, and distances only fall). The near queue is empty here (the iteration that moved to
/// the slot, or the split, found it so), and the slot's length is left as it is: no thread may
/// change a length another may still be reading, and the next split rewrites it.
#[inline(always)]
unsafe fn gather_overflowed<X: Executor>(p: &PileArgs, st: &mut PileState, x: &mut X) {
    let b = &p.adv.buckets;
    if load_len(b.slot(st.current - st.window).len) <= b.room {
        return;
    }
    let near = current_near(p, st);
    let current = st.current;
    x.gather(
        p,
        st,
        move |v| {
            let d = dist_of(load_packed(p.adv.dist, v));
            d != INF && bucket_of(&p.adv.buckets, d) == current
        },
        near,
    );
    st.from_slot = 0;
    // The gather's pushes made the near queue's length: the advance reads it.
    st.known_len = 0;
}

/// The far split (§IV-D/E): the next window starts at the bucket of the least live distance in
/// the far pile; the pile's live vertices go to that window's slots ([`far_bin`]) or to the
/// other far buffer, and stale copies are dropped. No live vertex left: the solve is done
/// ([`after_split`]).
#[inline(always)]
pub unsafe fn split_far<X: Executor>(p: &PileArgs, st: &mut PileState, x: &mut X) {
    let nb = p.adv.buckets.nbuckets;
    let old_end = st.window as u64 + nb as u64;
    let far = st.far as usize;
    let (pile, other) = if far == 0 { (p.far[0], p.far[1]) } else { (p.far[1], p.far[0]) };
    let (pile, other) = (Items(pile), Items(other));
    let len = load_len(cell(p.cells, CELL_FAR + far));
    let dist = move |i: u32| dist_of(load_packed(p.adv.dist, pile.at(i)));
    let least = x.least(len, |i| {
        let d = dist(i);
        if far_is_live(&p.adv.buckets, d, old_end) {
            d as u64
        } else {
            u64::MAX
        }
    });
    let window = if least == u64::MAX { None } else { Some(bucket_of(&p.adv.buckets, least as u32)) };
    if let Some(w) = window {
        x.distribute(
            len,
            nb + 1,
            p.adv.buckets.room,
            move |i| far_bin(&p.adv.buckets, dist(i), w, old_end),
            move |i| pile.at(i),
            move |j| {
                if j < nb {
                    p.adv.buckets.slot(j)
                } else {
                    Queue { items: other.ptr(), len: cell(p.cells, CELL_FAR + (far ^ 1)) }
                }
            },
        );
    }
    after_split(st, window);
}

/// A far buffer's address, shareable by the split's closures (the CPU runs them on several
/// threads; they only read it, and write through it under the queue rules).
#[derive(Clone, Copy)]
struct Items(*mut u32);

// SAFETY: an address; the accesses through it follow the kernels' contract (crate doc).
unsafe impl Send for Items {}
// SAFETY: as above.
unsafe impl Sync for Items {}

impl Items {
    #[inline(always)]
    unsafe fn at(self, i: u32) -> u32 {
        *self.0.add(i as usize)
    }

    // A method, so that a closure captures the whole (shareable) value, not its field.
    #[inline(always)]
    fn ptr(self) -> *mut u32 {
        self.0
    }
}
