//! Host threads kept between solves, for delta-stepping's runs whose threads meet at a
//! barrier per bucket and so must all run at once (rayon's tasks need not).
//!
//! Starting a thread per run cost what a small graph's whole solve costs: on the 16-core host,
//! ca-CondMat from a source in a 2-vertex component took 1.0 ms on 16 fresh threads (GAP,
//! whose OpenMP threads wait between runs: under 0.1 ms), and web-NotreDame 1.8 ms at best
//! against a median of 5.3 (docs/performance.md, "The CPU backend against GAP"). The crew's
//! members sleep (parked) between jobs and are woken per job; a process has one crew, grown to
//! the largest count asked for, and a run that finds it busy (another solve on another thread)
//! or in a forked child (whose members were not copied) starts threads of its own instead.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::*};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::Thread;

use crate::error::{Error, Result};

/// A job's body, run as `job(me)` by every participant `me`.
type Job<'a> = dyn Fn(usize) + Sync + 'a;

/// A posted job: the caller's closure with its lifetime erased (see [`run`]'s safety note).
#[derive(Clone, Copy)]
struct Posted(*const Job<'static>);

// SAFETY: the closure is `Sync`, so a reference to it may go to other threads; the pointer is
// dereferenced only while the caller that posted it waits for the job's end.
unsafe impl Send for Posted {}

/// What the caller and the members share.
struct Board {
    /// Bumped per job; a member runs each generation once.
    generation: AtomicUsize,
    /// Participants of the current job (the caller is 0; members `1..count` run it).
    count: AtomicUsize,
    job: Mutex<Option<Posted>>,
    /// Members done with the current job.
    done: AtomicUsize,
    panicked: AtomicBool,
}

/// The process's crew: its members (member `k` runs as participant `k + 1`) and the process
/// that started them.
struct Crew {
    board: Arc<Board>,
    members: Vec<Thread>,
    process: u32,
}

static CREW: OnceLock<Mutex<Crew>> = OnceLock::new();

/// Run `job(me)` for every `me` below `threads` at once: 0 on the caller's thread, the others
/// on the crew's members; `None` when the crew is busy or cannot be used here (the caller
/// then starts threads of its own). An error when a member cannot be started.
pub(crate) fn run(threads: usize, job: &Job<'_>) -> Option<Result<()>> {
    let lock = CREW.get_or_init(|| Mutex::new(Crew::new()));
    let mut crew = lock.try_lock().ok()?;
    if crew.process != std::process::id() {
        // A forked child: the members stayed with the parent. A fresh crew (the old one's
        // threads do not exist here; its board is simply dropped).
        *crew = Crew::new();
    }
    if let Err(e) = crew.grow(threads - 1) {
        return Some(Err(e));
    }
    // SAFETY: the pointer is handed to the members and used by them only until `done`
    // counts every one of them; `Crew::wait` below waits for that before this function
    // returns (or unwinds: it runs in a drop guard), so the closure outlives every use.
    let posted = Posted(unsafe { std::mem::transmute::<*const Job<'_>, *const Job<'static>>(job) });
    let board = &crew.board;
    board.done.store(0, Relaxed);
    board.count.store(threads, Relaxed);
    *board.job.lock().unwrap_or_else(|e| e.into_inner()) = Some(posted);
    board.generation.fetch_add(1, Release);
    for m in &crew.members[..threads - 1] {
        m.unpark();
    }
    let wait = Wait { board, members: threads - 1 };
    job(0);
    drop(wait);
    if board.panicked.swap(false, Relaxed) {
        panic!("a delta-stepping thread panicked");
    }
    Some(Ok(()))
}

/// Waits, when dropped, for every member of the job to be done with it.
struct Wait<'a> {
    board: &'a Board,
    members: usize,
}

impl Drop for Wait<'_> {
    fn drop(&mut self) {
        let mut spins = 0u32;
        while self.board.done.load(Acquire) < self.members {
            spins += 1;
            if spins < 1 << 12 {
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
        *self.board.job.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }
}

impl Crew {
    fn new() -> Self {
        let board = Board {
            generation: AtomicUsize::new(0),
            count: AtomicUsize::new(0),
            job: Mutex::new(None),
            done: AtomicUsize::new(0),
            panicked: AtomicBool::new(false),
        };
        Crew { board: Arc::new(board), members: Vec::new(), process: std::process::id() }
    }

    /// At least `members` members, started now where missing.
    fn grow(&mut self, members: usize) -> Result<()> {
        while self.members.len() < members {
            let (board, me) = (Arc::clone(&self.board), self.members.len() + 1);
            let seen = board.generation.load(Relaxed);
            let started = std::thread::Builder::new()
                .name(format!("sssp-delta-{me}"))
                .spawn(move || serve(&board, me, seen))
                .map_err(|e| {
                    Error::InvalidArgument(format!(
                        "delta-stepping could not start thread {me} of {}: {e} (ask for fewer threads)",
                        members + 1
                    ))
                })?;
            self.members.push(started.thread().clone());
        }
        Ok(())
    }
}

/// A member's life: wait for a generation after `seen`, run the job if it takes part, report.
fn serve(board: &Board, me: usize, mut seen: usize) {
    loop {
        let generation = loop {
            let g = board.generation.load(Acquire);
            if g != seen {
                break g;
            }
            std::thread::park();
        };
        seen = generation;
        if me >= board.count.load(Relaxed) {
            continue;
        }
        let posted = *board.job.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(Posted(job)) = posted {
            // SAFETY: posted by `run`, which waits for this member's `done` before the closure
            // can go (see there).
            let job = unsafe { &*job };
            if catch_unwind(AssertUnwindSafe(|| job(me))).is_err() {
                board.panicked.store(true, Relaxed);
            }
        }
        board.done.fetch_add(1, Release);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Jobs of different sizes on the one crew, each participant once per job; a job that
    /// finds the crew busy is told so instead of waiting.
    #[test]
    fn every_participant_runs_each_job_once() {
        // Other tests' solves may hold the crew for a while: try until it is free.
        let until_free = |threads: usize, job: &Job<'_>| loop {
            match run(threads, job) {
                Some(done) => return done.unwrap(),
                None => std::thread::yield_now(),
            }
        };
        for threads in [3, 1, 5, 2, 5] {
            let hits: Vec<AtomicUsize> = (0..threads).map(|_| AtomicUsize::new(0)).collect();
            until_free(threads, &|me| {
                hits[me].fetch_add(1, Relaxed);
            });
            assert!(hits.iter().all(|h| h.load(Relaxed) == 1), "{threads}");
        }
        until_free(2, &|me| {
            if me == 0 {
                assert!(run(2, &|_| {}).is_none(), "busy");
            }
        });
    }
}
