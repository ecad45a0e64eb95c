//! How the ranks of a distributed run talk: a [`Communicator`] of two collectives, an
//! all-to-all exchange of `u64` items and an element-wise all-reduce, and [`InProcess`], the
//! endpoints of a group of ranks that are threads of this process (the CPU-simulated ranks CI
//! runs). The NCCL endpoint is `super::nccl` (feature `nccl`).
//!
//! Two collectives are all the bulk-synchronous algorithm needs (the round protocol of
//! [`super`]): candidates go to their owners once per round, and one minimum decides the next
//! bucket, which also ends the run. Items are plain `u64`s so that every transport moves them
//! as they are (NCCL's `ncclUint64`, a copy between threads) and the algorithm decides what
//! they mean (a vertex and a distance packed together, or a distance when gathering).
//!
//! Every rank calls the collectives in the same order (SPMD); a rank that fails leaves its
//! group ([`InProcess`]'s drop), and the others' next collective returns
//! [`Error::Communication`] instead of waiting for it forever.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::*};
use std::sync::{Arc, Mutex, MutexGuard};

use crate::error::{Error, Result};

/// How [`Communicator::all_reduce`] combines the ranks' values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reduce {
    /// The smallest.
    Min,
    /// The largest (a logical or of flags).
    Max,
    /// The sum, saturating at `u64::MAX` (counters).
    Sum,
}

impl Reduce {
    /// `a` combined with `b`.
    ///
    /// ```
    /// use sssp::distributed::Reduce;
    /// assert_eq!(Reduce::Min.apply(3, 5), 3);
    /// assert_eq!(Reduce::Sum.apply(u64::MAX, 1), u64::MAX);
    /// ```
    pub fn apply(self, a: u64, b: u64) -> u64 {
        match self {
            Reduce::Min => a.min(b),
            Reduce::Max => a.max(b),
            Reduce::Sum => a.saturating_add(b),
        }
    }
}

/// One rank's endpoint of a group of [`size`](Communicator::size) ranks. Both collectives
/// must be called by every rank of the group, in the same order.
pub trait Communicator {
    /// This rank, `0..size()`.
    fn rank(&self) -> usize;

    /// The number of ranks in the group.
    fn size(&self) -> usize;

    /// All-to-all-v: `outboxes[d]` goes to rank `d` (one outbox per rank, this one's own
    /// included, any of them empty). `inbox` is cleared and then holds what every rank sent
    /// to this one, in the order of the sending ranks, each rank's items in the order sent.
    fn exchange(&mut self, outboxes: &[Vec<u64>], inbox: &mut Vec<u64>) -> Result<()>;

    /// Element-wise all-reduce in place: afterwards `values[i]` on every rank is `op` over
    /// every rank's `values[i]`. Every rank passes the same length.
    fn all_reduce(&mut self, values: &mut [u64], op: Reduce) -> Result<()>;
}

/// What a group of [`InProcess`] endpoints shares. Each collective writes, waits at the
/// barrier, then reads. Storage alternates between two halves by the collective's ordinal
/// (`parity`): a rank can write into a half again only two collectives later, after the barrier
/// of the collective in between, which every rank reaches only once done reading this one; so
/// one barrier per collective suffices and no message is overwritten before it is read.
struct Shared {
    size: usize,
    /// `mail[parity][to * size + from]`: what `from` sent to `to`.
    mail: [Vec<Mutex<Vec<u64>>>; 2],
    /// `board[parity][rank]`: a rank's all-reduce operands.
    board: [Vec<Mutex<Vec<u64>>>; 2],
    barrier: Barrier,
}

/// A barrier that spins briefly, then yields (simulated ranks may outnumber the cores: 7 ranks
/// on this project's 2-core machines), and that fails, rather than waits forever, once a rank
/// has left the group.
struct Barrier {
    size: usize,
    arrived: AtomicUsize,
    generation: AtomicUsize,
    left: AtomicBool,
}

/// Spins before a waiting rank starts to yield its core.
const SPINS: u32 = 256;

impl Barrier {
    fn wait(&self) -> Result<()> {
        let generation = self.generation.load(Acquire);
        if self.arrived.fetch_add(1, AcqRel) + 1 == self.size {
            self.arrived.store(0, Relaxed);
            self.generation.store(generation.wrapping_add(1), Release);
            return Ok(());
        }
        let mut spins = 0u32;
        loop {
            if self.generation.load(Acquire) != generation {
                return Ok(());
            }
            if self.left.load(Acquire) {
                // A rank that left after passing this barrier published the new generation
                // before it left: read it again before calling the group broken.
                if self.generation.load(Acquire) != generation {
                    return Ok(());
                }
                return Err(Error::Communication("a rank left the group before this collective".into()));
            }
            spins += 1;
            if spins < SPINS {
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
    }
}

/// An endpoint of a group of ranks that are threads of one process ([`InProcess::group`]):
/// shared mailboxes and a barrier. What CI runs the distributed algorithm on.
pub struct InProcess {
    rank: usize,
    shared: Arc<Shared>,
    /// Collectives called so far (their parity picks the half of the storage).
    calls: u64,
}

impl InProcess {
    /// `size` endpoints of one group, rank `i` at index `i`; run each on its own thread (they
    /// wait for one another in every collective).
    ///
    /// ```
    /// use sssp::distributed::{Communicator, InProcess, Reduce};
    /// let sums = std::thread::scope(|s| {
    ///     let ranks: Vec<_> = InProcess::group(3)
    ///         .into_iter()
    ///         .map(|mut c| s.spawn(move || {
    ///             let mut x = [c.rank() as u64 + 1];
    ///             c.all_reduce(&mut x, Reduce::Sum).map(|()| x[0])
    ///         }))
    ///         .collect();
    ///     ranks.into_iter().map(|h| h.join().unwrap()).collect::<Result<Vec<_>, _>>()
    /// })?;
    /// assert_eq!(sums, vec![6, 6, 6]);
    /// # Ok::<(), sssp::Error>(())
    /// ```
    pub fn group(size: usize) -> Vec<InProcess> {
        let cells = |k: usize| (0..k).map(|_| Mutex::new(Vec::new())).collect::<Vec<_>>();
        let shared = Arc::new(Shared {
            size,
            mail: [cells(size * size), cells(size * size)],
            board: [cells(size), cells(size)],
            barrier: Barrier {
                size,
                arrived: AtomicUsize::new(0),
                generation: AtomicUsize::new(0),
                left: AtomicBool::new(false),
            },
        });
        (0..size).map(|rank| InProcess { rank, shared: shared.clone(), calls: 0 }).collect()
    }

    /// The half of the storage this collective uses, and the call counted.
    fn next_parity(&mut self) -> usize {
        let parity = (self.calls % 2) as usize;
        self.calls += 1;
        parity
    }
}

/// A cell's contents even if a rank panicked while holding it (the panic is reported by the
/// thread's join; the data, plain `u64`s, cannot be left half-valid).
fn lock(cell: &Mutex<Vec<u64>>) -> MutexGuard<'_, Vec<u64>> {
    cell.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Communicator for InProcess {
    fn rank(&self) -> usize {
        self.rank
    }

    fn size(&self) -> usize {
        self.shared.size
    }

    fn exchange(&mut self, outboxes: &[Vec<u64>], inbox: &mut Vec<u64>) -> Result<()> {
        let (size, me) = (self.shared.size, self.rank);
        if outboxes.len() != size {
            return Err(Error::InvalidArgument(format!(
                "an exchange takes one outbox per rank: {} for {size} ranks",
                outboxes.len()
            )));
        }
        let parity = self.next_parity();
        let mail = &self.shared.mail[parity];
        for (to, out) in outboxes.iter().enumerate() {
            let mut slot = lock(&mail[to * size + me]);
            slot.clear();
            crate::mem::reserve(&mut slot, out.len())?;
            slot.extend_from_slice(out);
        }
        self.shared.barrier.wait()?;
        inbox.clear();
        let total: usize = (0..size).map(|from| lock(&mail[me * size + from]).len()).sum();
        crate::mem::reserve(inbox, total)?;
        for from in 0..size {
            let mut slot = lock(&mail[me * size + from]);
            inbox.extend_from_slice(&slot);
            slot.clear();
        }
        Ok(())
    }

    fn all_reduce(&mut self, values: &mut [u64], op: Reduce) -> Result<()> {
        let parity = self.next_parity();
        let board = &self.shared.board[parity];
        {
            let mut mine = lock(&board[self.rank]);
            mine.clear();
            crate::mem::reserve(&mut mine, values.len())?;
            mine.extend_from_slice(values);
        }
        self.shared.barrier.wait()?;
        let mut acc: Option<Vec<u64>> = None;
        for cell in board {
            let theirs = lock(cell);
            if theirs.len() != values.len() {
                return Err(Error::InvalidArgument(format!(
                    "an all-reduce of {} values met one of {} on another rank",
                    values.len(),
                    theirs.len()
                )));
            }
            match &mut acc {
                None => acc = Some(theirs.clone()),
                Some(acc) => acc.iter_mut().zip(theirs.iter()).for_each(|(a, &b)| *a = op.apply(*a, b)),
            }
        }
        if let Some(acc) = acc {
            values.copy_from_slice(&acc);
        }
        Ok(())
    }
}

impl Drop for InProcess {
    /// Leaving the group: ranks waiting in a collective this one will never join fail instead
    /// of waiting forever (a rank leaves early only when it failed or panicked; after the last
    /// collective nobody waits).
    fn drop(&mut self) {
        self.shared.barrier.left.store(true, Release);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Run `f` on every endpoint of a group of `p`, each on its own thread; their results in
    /// rank order.
    fn on_group<T: Send>(p: usize, f: impl Fn(&mut InProcess) -> Result<T> + Sync) -> Vec<Result<T>> {
        std::thread::scope(|s| {
            let f = &f;
            let hs: Vec<_> = InProcess::group(p).into_iter().map(|mut c| s.spawn(move || f(&mut c))).collect();
            hs.into_iter().map(|h| h.join().unwrap()).collect()
        })
    }

    /// What rank `from` sends rank `to` in round `round`: a pattern with empty outboxes (pairs
    /// whose sum is divisible by 3), lengths that differ by pair, and contents that name the
    /// pair and the position, so a lost, duplicated or misplaced item shows.
    fn message(round: u64, from: usize, to: usize) -> Vec<u64> {
        let len = if (from + to).is_multiple_of(3) { 0 } else { (from * 7 + to * 3 + round as usize) % 11 };
        (0..len as u64).map(|i| round << 48 | (from as u64) << 32 | (to as u64) << 16 | i).collect()
    }

    #[test]
    fn exchanges_deliver_every_item_in_order_of_the_senders() {
        for p in [1, 2, 3, 4, 7] {
            let results = on_group(p, |c| {
                let mut inbox = vec![99];
                for round in 0..20 {
                    let out: Vec<_> = (0..p).map(|to| message(round, c.rank(), to)).collect();
                    c.exchange(&out, &mut inbox)?;
                    let want: Vec<u64> = (0..p).flat_map(|from| message(round, from, c.rank())).collect();
                    assert_eq!(inbox, want, "p {p}, rank {}, round {round}", c.rank());
                }
                Ok(())
            });
            assert!(results.iter().all(Result::is_ok), "p {p}: {results:?}");
        }
    }

    #[test]
    fn empty_exchanges_and_interleaved_reductions() {
        for p in [1, 2, 7] {
            let results = on_group(p, |c| {
                let mut inbox = vec![1, 2, 3];
                c.exchange(&vec![Vec::new(); p], &mut inbox)?;
                assert!(inbox.is_empty());
                let mut seen = Vec::new();
                for round in 0..50u64 {
                    let r = c.rank() as u64;
                    let mut v = [r + round, r * round, 1];
                    c.all_reduce(&mut v[..1], Reduce::Min)?;
                    c.all_reduce(&mut v[1..2], Reduce::Max)?;
                    c.all_reduce(&mut v[2..], Reduce::Sum)?;
                    seen.push(v);
                    // Only the last rank sends, to everyone: one item each.
                    let out: Vec<_> = (0..p).map(|_| if c.rank() == p - 1 { vec![round] } else { vec![] }).collect();
                    c.exchange(&out, &mut inbox)?;
                    assert_eq!(inbox, vec![round]);
                }
                Ok(seen)
            });
            let p64 = p as u64;
            for r in results {
                let seen = r.unwrap();
                for (round, v) in seen.into_iter().enumerate() {
                    let round = round as u64;
                    assert_eq!(v, [round, (p64 - 1) * round, p64], "p {p}, round {round}");
                }
            }
        }
    }

    #[test]
    fn a_rank_that_leaves_fails_the_others_collectives_instead_of_hanging() {
        let results = on_group(4, |c| {
            if c.rank() == 2 {
                return Err(Error::InvalidArgument("rank 2 gives up".into()));
            }
            let mut x = [1];
            c.all_reduce(&mut x, Reduce::Sum)
        });
        assert!(matches!(results[2], Err(Error::InvalidArgument(_))));
        for r in [0, 1, 3] {
            assert!(matches!(results[r], Err(Error::Communication(_))), "rank {r}: {:?}", results[r]);
        }
    }

    #[test]
    fn mismatched_arguments_are_typed_errors() {
        let results = on_group(2, |c| c.exchange(&[vec![1]], &mut Vec::new()));
        // Both refuse before the barrier: neither waits for the other.
        assert!(results.iter().all(|r| matches!(r, Err(Error::InvalidArgument(_)))));
        let results = on_group(2, |c| {
            let mut v = vec![0; c.rank() + 1];
            c.all_reduce(&mut v, Reduce::Min)
        });
        assert!(results.iter().all(|r| matches!(r, Err(Error::InvalidArgument(_)))));
    }
}
