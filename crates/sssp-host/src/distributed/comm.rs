//! How the ranks of a distributed run talk: a [`Communicator`] of two collectives, an
//! all-to-all exchange of `u64` items and an element-wise all-reduce, and [`InProcess`], the
//! endpoints of a group of ranks that are threads of this process (the CPU-simulated ranks CI
//! runs). The NCCL endpoint is `super::nccl` (feature `nccl`).
//!
//! Two collectives are all the bulk-synchronous algorithm needs (the round protocol of
//! [`super`]): candidates go to their owners once per round, and one minimum decides the next
//! bucket, which also ends the run. Items are plain `u64`s so that every transport moves them
//! as they are (NCCL's `ncclUint64`, a copy between threads) and the algorithm decides what
//! they mean (a vertex and a distance packed together, or a distance when gathering). The
//! exchange has a second form for items that lie in a device's memory
//! ([`Communicator::exchange_on_device`]): through the host by default, device to device on
//! NCCL, so the device step's round never brings its items to the host.
//!
//! Every rank calls the collectives in the same order (SPMD); a rank that fails leaves its
//! group ([`InProcess`]'s drop), and the others' next collective returns
//! [`Error::Communication`] instead of waiting for it forever.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::*};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

use std::ops::Range;

use crate::device::{Buffer, Device};
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

    /// [`exchange`](Self::exchange) of items that lie in `dev`'s memory: rank `d`'s items are
    /// `outbox[sends[d]]` (item indices; this rank's own range is empty), and what the other
    /// ranks send to this one lands in `inbox` (made larger when too small), in
    /// the order of the sending ranks. Returns how many items arrived.
    ///
    /// The default moves the items through the host (down, [`exchange`](Self::exchange), up),
    /// which is what simulated ranks do on the CPU backend's device, so CI runs the very
    /// logic; an NCCL endpoint whose rank's GPU is `dev` sends them from device memory to
    /// device memory, and only the counts cross to the host.
    fn exchange_on_device(
        &mut self,
        dev: &dyn Device,
        outbox: &Buffer,
        sends: &[Range<usize>],
        inbox: &mut Option<Buffer>,
    ) -> Result<usize> {
        through_host(self, dev, outbox, sends, inbox)
    }
}

/// [`Communicator::exchange_on_device`] through the host: each range downloaded, one
/// [`Communicator::exchange`], what arrived uploaded into `inbox`.
pub(crate) fn through_host<C: Communicator + ?Sized>(
    comm: &mut C,
    dev: &dyn Device,
    outbox: &Buffer,
    sends: &[Range<usize>],
    inbox: &mut Option<Buffer>,
) -> Result<usize> {
    check_sends(comm.rank(), comm.size(), sends)?;
    let outboxes = sends
        .iter()
        .map(|r| if r.is_empty() { Ok(Vec::new()) } else { dev.download_of::<u64>(outbox, r.start, r.len()) })
        .collect::<Result<Vec<_>>>()?;
    let mut received = Vec::new();
    comm.exchange(&outboxes, &mut received)?;
    let into = room(dev, inbox, received.len())?;
    if !received.is_empty() {
        dev.upload_of(into, 0, &received)?;
    }
    Ok(received.len())
}

/// `sends` of [`Communicator::exchange_on_device`]: one range per rank, this rank's own empty.
pub(crate) fn check_sends(me: usize, p: usize, sends: &[Range<usize>]) -> Result<()> {
    if sends.len() != p || !sends[me].is_empty() {
        return Err(Error::InvalidArgument(format!(
            "an exchange on the device takes one range per rank, rank {me}'s own empty: {sends:?} for {p} ranks"
        )));
    }
    Ok(())
}

/// `inbox` with room for `items` (at least one) `u64`s on `dev`: kept if large enough, else
/// replaced (the old one freed first) by one of exactly that size. The device step sizes it
/// once, before its rounds, to the most a round can bring, so the exchanges find it large
/// enough and no round allocates (rounding up, as for a buffer grown round by round, would
/// only waste memory).
pub(crate) fn room<'a>(dev: &dyn Device, inbox: &'a mut Option<Buffer>, items: usize) -> Result<&'a Buffer> {
    if inbox.as_ref().is_none_or(|b| b.bytes() < crate::mem::bytes_of::<u64>(items)) {
        *inbox = None;
        *inbox = Some(dev.alloc_of::<u64>(items.max(1))?);
    }
    Ok(inbox.as_ref().expect("made above"))
}

/// What a group of [`InProcess`] endpoints shares. Each collective writes, waits at the
/// barrier, then reads. Storage alternates between two halves by the collective's ordinal
/// (`parity`): a rank can write into a half again only two collectives later, after the barrier
/// of the collective in between, which every rank reaches only once done reading this one; so
/// one barrier per collective suffices and no message is overwritten before it is read.
/// Senders write only their non-empty outboxes and each rank reads only its own mailbox, so an
/// exchange costs a rank O(its messages), not O(P): a group of a thousand ranks stays cheap.
struct Shared {
    size: usize,
    /// `mail[parity][to]`: the messages sent to `to`, each with its sender.
    mail: [Vec<Mailbox>; 2],
    /// `folded[parity]`: the all-reduce of the collective that last used this half, folded
    /// as the ranks arrive.
    folded: [Mutex<Folded>; 2],
    barrier: Barrier,
}

/// A rank's mailbox: the messages sent to it, each with its sender.
type Mailbox = Mutex<Vec<(usize, Vec<u64>)>>;

/// An all-reduce in progress: which collective (its ordinal, the same on every rank), the
/// values folded so far, and whether some rank brought a different length.
struct Folded {
    call: u64,
    values: Vec<u64>,
    mismatch: Option<(usize, usize)>,
}

/// A barrier that spins briefly, yields a while, then sleeps until the last rank arrives, and
/// that fails, rather than waits forever, once a rank has left the group. Spinning serves
/// ranks that have a core each (a round's barrier costs about a microsecond); yielding lets
/// ranks that share cores (7 simulated ranks on 2-core machines) arrive without
/// a wake-up each; sleeping serves groups far larger than the machine: waiters that only
/// yielded kept every core busy with waiters, and 1,024 ranks took 4.5 s for a 10-vertex path.
struct Barrier {
    size: usize,
    arrived: AtomicUsize,
    /// Advanced by the last rank to arrive, under `sleep`'s lock, so that a waiter checking it
    /// under the lock cannot miss the wake-up.
    generation: AtomicUsize,
    left: AtomicBool,
    sleep: Mutex<()>,
    wake: Condvar,
    /// Spin first: each rank has a core of its own.
    spin: bool,
    /// Yield before sleeping: the ranks share the cores, but not many to a core.
    yield_first: bool,
}

/// Checks of the generation before a waiting rank starts to yield its core.
const SPINS: u32 = 2048;

/// How long a waiting rank yields before it sleeps: a round of a road graph is a few
/// microseconds of work per rank, and sleeping at every barrier (a futex wake-up each) made
/// `gen:road:1000000` on 4 simulated ranks 3x slower (537 ms against 178 on 2 cores).
const YIELD_FOR: std::time::Duration = std::time::Duration::from_micros(200);

/// Past this many ranks per core, waiters sleep at once: a thousand ranks yielding to one
/// another on 2 cores spent seconds doing nothing else.
const YIELDING_RANKS_PER_CORE: usize = 8;

impl Barrier {
    fn new(size: usize) -> Barrier {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Barrier {
            spin: size <= cores,
            yield_first: size <= YIELDING_RANKS_PER_CORE * cores,
            size,
            arrived: AtomicUsize::new(0),
            generation: AtomicUsize::new(0),
            left: AtomicBool::new(false),
            sleep: Mutex::new(()),
            wake: Condvar::new(),
        }
    }

    fn wait(&self) -> Result<()> {
        let generation = self.generation.load(Acquire);
        if self.arrived.fetch_add(1, AcqRel) + 1 == self.size {
            self.arrived.store(0, Relaxed);
            let _guard = self.sleep.lock().unwrap_or_else(|p| p.into_inner());
            self.generation.store(generation.wrapping_add(1), Release);
            self.wake.notify_all();
            return Ok(());
        }
        // Passed once the generation moved; broken if a rank left before it did (a rank that
        // left after passing this barrier advanced the generation before it left).
        let state = || {
            if self.generation.load(Acquire) != generation {
                Some(Ok(()))
            } else if self.left.load(Acquire) {
                if self.generation.load(Acquire) != generation {
                    Some(Ok(()))
                } else {
                    Some(Err(Error::Communication("a rank left the group before this collective".into())))
                }
            } else {
                None
            }
        };
        for _ in 0..if self.spin { SPINS } else { 0 } {
            if let Some(done) = state() {
                return done;
            }
            std::hint::spin_loop();
        }
        let started = std::time::Instant::now();
        while self.yield_first && started.elapsed() < YIELD_FOR {
            if let Some(done) = state() {
                return done;
            }
            std::thread::yield_now();
        }
        let mut guard = self.sleep.lock().unwrap_or_else(|p| p.into_inner());
        loop {
            if let Some(done) = state() {
                return done;
            }
            guard = self.wake.wait(guard).unwrap_or_else(|p| p.into_inner());
        }
    }

    /// A rank leaves: wake the sleepers, so they see it.
    fn leave(&self) {
        let _guard = self.sleep.lock().unwrap_or_else(|p| p.into_inner());
        self.left.store(true, Release);
        self.wake.notify_all();
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
        let cells = || (0..size).map(|_| Mutex::new(Vec::new())).collect::<Vec<_>>();
        let folded = || Mutex::new(Folded { call: u64::MAX, values: Vec::new(), mismatch: None });
        let shared = Arc::new(Shared {
            size,
            mail: [cells(), cells()],
            folded: [folded(), folded()],
            barrier: Barrier::new(size),
        });
        (0..size).map(|rank| InProcess { rank, shared: shared.clone(), calls: 0 }).collect()
    }

    /// This collective's ordinal and the half of the storage it uses; the call counted.
    fn next_call(&mut self) -> (u64, usize) {
        let call = self.calls;
        self.calls += 1;
        (call, (call % 2) as usize)
    }
}

/// A cell's contents even if a rank panicked while holding it (the panic is reported by the
/// thread's join; the data, plain integers, cannot be left half-valid).
fn lock<T>(cell: &Mutex<T>) -> MutexGuard<'_, T> {
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
        let (_, parity) = self.next_call();
        let mail = &self.shared.mail[parity];
        for (to, out) in outboxes.iter().enumerate().filter(|(_, out)| !out.is_empty()) {
            let message = crate::mem::try_to_vec(out)?;
            let mut slot = lock(&mail[to]);
            crate::mem::reserve(&mut slot, 1)?;
            slot.push((me, message));
        }
        self.shared.barrier.wait()?;
        let mut messages = std::mem::take(&mut *lock(&mail[me]));
        // Senders arrive in any order; the inbox is in rank order.
        messages.sort_unstable_by_key(|&(from, _)| from);
        inbox.clear();
        crate::mem::reserve(inbox, messages.iter().map(|(_, m)| m.len()).sum())?;
        for (_, m) in &messages {
            inbox.extend_from_slice(m);
        }
        Ok(())
    }

    fn all_reduce(&mut self, values: &mut [u64], op: Reduce) -> Result<()> {
        let (call, parity) = self.next_call();
        let folded = &self.shared.folded[parity];
        {
            let mut f = lock(folded);
            if f.call != call {
                // The first rank here: the half still holds a collective two calls back.
                f.call = call;
                f.values.clear();
                crate::mem::reserve(&mut f.values, values.len())?;
                f.values.extend_from_slice(values);
                f.mismatch = None;
            } else if f.values.len() != values.len() {
                f.mismatch = Some((f.values.len(), values.len()));
            } else {
                f.values.iter_mut().zip(values.iter()).for_each(|(a, &b)| *a = op.apply(*a, b));
            }
        }
        self.shared.barrier.wait()?;
        let f = lock(folded);
        if let Some((a, b)) = f.mismatch {
            return Err(Error::InvalidArgument(format!(
                "an all-reduce met {a} values on one rank and {b} on another: every rank passes the same length"
            )));
        }
        values.copy_from_slice(&f.values);
        Ok(())
    }
}

impl Drop for InProcess {
    /// Leaving the group: ranks waiting in a collective this one will never join fail instead
    /// of waiting forever (a rank leaves early only when it failed or panicked; after the last
    /// collective nobody waits).
    fn drop(&mut self) {
        self.shared.barrier.leave();
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

    /// A group far larger than the machine: each rank sends its neighbour one item.
    #[test]
    fn many_more_ranks_than_cores() {
        let p = 300;
        let results = on_group(p, |c| {
            let (me, mut inbox) = (c.rank(), Vec::new());
            let out: Vec<_> = (0..p).map(|to| if to == (me + 1) % p { vec![me as u64] } else { vec![] }).collect();
            c.exchange(&out, &mut inbox)?;
            let mut sum = [me as u64];
            c.all_reduce(&mut sum, Reduce::Sum)?;
            Ok((inbox, sum[0]))
        });
        for (me, r) in results.into_iter().enumerate() {
            let (inbox, sum) = r.unwrap();
            assert_eq!((inbox, sum), (vec![((me + p - 1) % p) as u64], (p * (p - 1) / 2) as u64));
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
