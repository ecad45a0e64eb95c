//! The CPU backend: the kernels crate's per-thread bodies, run over a rayon pool.
//!
//! A "launch" of `T` threads is `(0..T).into_par_iter()` calling the body with `(tid, T)`, the
//! same grid-stride contract as on the GPU. Device memory is ordinary host memory; the bodies
//! use `core::sync::atomic` on it exactly as they do on the GPU. Two things differ, by design:
//! warp-aggregated atomics are plain atomics here (same result, see `sssp_kernels::relax`), and
//! the device-wide scan is a host prefix sum with the same contract as the GPU's three-phase scan
//! (the GPU version needs shared memory and block barriers).

use std::cell::UnsafeCell;

use rayon::prelude::*;
use sssp_kernels::advance::{self as k, InitArgs};
use sssp_kernels::{dedupe, AdvanceArgs, Counters, Csr, DedupeArgs, Queue, MAX_VWARP};

use super::{Advance, Buffer, Engine, Frontiers, Input, QueueRef, CELLS};
use crate::error::Result;
use crate::graph::Graph;

/// Threads of one CPU "launch". A multiple of the widest virtual warp; large enough that rayon
/// can balance uneven per-thread work, and the dynamic virtual-warp rule sees the same kind of
/// ratio (threads / frontier) as on a GPU.
const CPU_THREADS: u32 = 256 * MAX_VWARP;

/// Grids up to this many threads run on the calling thread (no fork-join).
const SERIAL_THREADS: u32 = 1024;

/// Memory the kernels write through raw pointers while other threads do too; only ever touched
/// through atomics in the bodies, or by the engine between launches.
struct Shared<T>(UnsafeCell<Vec<T>>);

// SAFETY: concurrent access happens only inside kernel bodies, which use atomics for every
// location that more than one thread may touch (the same discipline as on the GPU).
unsafe impl<T: Send> Sync for Shared<T> {}

impl<T: Copy> Shared<T> {
    fn new(v: Vec<T>) -> Self {
        Shared(UnsafeCell::new(v))
    }
    fn ptr(&self) -> *mut T {
        // SAFETY: only the address is taken.
        unsafe { (*self.0.get()).as_mut_ptr() }
    }
    /// Exclusive access between launches.
    fn get_mut(&mut self) -> &mut Vec<T> {
        self.0.get_mut()
    }
}

pub struct CpuEngine {
    offsets: Vec<u64>,
    targets: Vec<u32>,
    weights: Vec<u32>,
    n: u32,
    dist: Shared<u64>,
    queues: [Shared<u32>; 2],
    scratch: Shared<u32>,
    table: Shared<u32>,
    prefix: Shared<u64>,
    cells: Shared<u32>,
    counters: Shared<Counters>,
    fr: Frontiers,
    pending_scratch: bool,
}

impl CpuEngine {
    /// Copy `g` into the engine. Needs non-negative weights.
    pub fn new(g: &Graph) -> Result<Self> {
        let weights = g.unsigned_weights("GPU-style strategies")?.to_vec();
        let n = g.num_vertices();
        let m = g.num_arcs();
        Ok(CpuEngine {
            offsets: g.offsets().to_vec(),
            targets: g.targets().to_vec(),
            weights,
            n: n as u32,
            dist: Shared::new(vec![0; n]),
            queues: [Shared::new(vec![0; n.max(1)]), Shared::new(vec![0; n.max(1)])],
            // Lookup dedupe pushes once per improvement: at most one push per arc per iteration.
            scratch: Shared::new(vec![0; m.max(1)]),
            table: Shared::new(vec![0; n.max(1)]),
            prefix: Shared::new(vec![0; n + 1]),
            cells: Shared::new(vec![0; CELLS]),
            counters: Shared::new(vec![Counters::default()]),
            fr: Frontiers::default(),
            pending_scratch: false,
        })
    }

    fn csr(&self) -> Csr {
        Csr {
            offsets: self.offsets.as_ptr(),
            targets: self.targets.as_ptr(),
            weights: self.weights.as_ptr(),
            n: self.n,
            _pad: 0,
        }
    }

    fn cell(&self, i: usize) -> *mut u32 {
        // SAFETY: i < CELLS.
        unsafe { self.cells.ptr().add(i) }
    }

    fn queue(&self, q: usize, cell: usize) -> Queue {
        Queue { items: self.queues[q].ptr(), len: self.cell(cell) }
    }

    /// Addresses of a queue reference (null for none).
    fn resolve(&self, q: Option<QueueRef>) -> Queue {
        match q {
            None => Queue { items: std::ptr::null_mut(), len: std::ptr::null_mut() },
            Some(QueueRef { buf: Buffer::Frontier(i), cell }) => self.queue(i, cell),
            Some(QueueRef { buf: Buffer::Scratch, cell }) => Queue { items: self.scratch.ptr(), len: self.cell(cell) },
        }
    }

    fn current(&self) -> Queue {
        self.queue(self.fr.current_queue(), self.fr.current_cell())
    }

    /// Run `body(tid, nthreads)` for every thread of a CPU grid of `nthreads` threads.
    ///
    /// The bodies are correct for any grid size (grid-stride loops), so the grid is sized to the
    /// work: tiny frontiers (road graphs have hundreds of iterations with a few hundred
    /// vertices) run inline on the calling thread instead of paying a rayon fork-join.
    fn launch(nthreads: u32, body: impl Fn(u32, u32) + Sync + Send) {
        if nthreads <= SERIAL_THREADS {
            (0..nthreads).for_each(|t| body(t, nthreads));
        } else {
            (0..nthreads).into_par_iter().for_each(|t| body(t, nthreads));
        }
    }

    /// Grid size for `len` input items: a few virtual threads per item, whole warps, at most
    /// [`CPU_THREADS`].
    fn grid_for(len: u32) -> u32 {
        (len.saturating_mul(4).next_multiple_of(MAX_VWARP)).clamp(MAX_VWARP, CPU_THREADS)
    }

    /// Exclusive prefix of the current frontier's degrees into `prefix` (`len + 1` entries).
    fn scan_degrees(&mut self) {
        let len = self.cells.get_mut()[self.fr.current_cell()] as usize;
        // SAFETY: between launches the engine has exclusive access; the cell holds <= n.
        let items = unsafe { std::slice::from_raw_parts(self.queues[self.fr.current_queue()].ptr(), len) };
        let offsets = &self.offsets;
        let degrees: Vec<u64> = items.par_iter().map(|&v| offsets[v as usize + 1] - offsets[v as usize]).collect();
        let prefix = self.prefix.get_mut();
        let mut run = 0u64;
        for (i, d) in degrees.iter().enumerate() {
            prefix[i] = run;
            run += d;
        }
        prefix[len] = run;
    }
}

impl Engine for CpuEngine {
    fn device(&self) -> String {
        format!("CPU (rayon, {} threads)", rayon::current_num_threads())
    }

    fn num_vertices(&self) -> u32 {
        self.n
    }

    fn init(&mut self, source: u32) -> Result<()> {
        self.cells.get_mut().fill(0);
        self.fr = Frontiers::default();
        self.pending_scratch = false;
        let a = InitArgs {
            dist: self.dist.ptr(),
            frontier: self.current(),
            counters: self.counters.ptr(),
            n: self.n,
            source,
        };
        // SAFETY: every pointer addresses a live buffer of the sizes the body indexes
        // (dist: n, queue: >= 1, counters: 1).
        Self::launch(CPU_THREADS, |t, nt| unsafe { k::init(&a, t, nt) });
        Ok(())
    }

    fn advance(&mut self, step: Advance) -> Result<()> {
        let all = step.input == Input::AllVertices;
        if !all && step.balance == sssp_kernels::Balance::Partition {
            self.scan_degrees();
        }
        let roles = self.fr.roles(&step);
        let (input, output) = (self.resolve(roles.input), self.resolve(roles.output));
        let zero_len = roles.zero.map_or(std::ptr::null_mut(), |c| self.cell(c));
        self.pending_scratch = roles.output.is_some_and(|q| q.buf == Buffer::Scratch);
        let a = AdvanceArgs {
            csr: self.csr(),
            dist: self.dist.ptr(),
            input,
            output,
            zero_len,
            scan: if all { std::ptr::null() } else { self.prefix.ptr() },
            counters: self.counters.ptr(),
            iter: step.iter,
            balance: step.balance as u32,
            dedupe: step.dedupe as u32,
            _pad: 0,
        };
        // SAFETY: queues hold n items (a vertex is pushed at most once per iteration with
        // stamps), the scratch queue m (at most one push per arc relaxation), prefix n + 1, and
        // the input length cell was written by the previous step.
        let len = if all { self.n } else { self.cells.get_mut()[self.fr.current_cell()] };
        Self::launch(Self::grid_for(len), |t, nt| unsafe { k::advance(&a, t, nt) });
        Ok(())
    }

    fn dedupe(&mut self) -> Result<()> {
        let d = DedupeArgs {
            input: Queue { items: self.scratch.ptr(), len: self.cell(self.fr.scratch_cell()) },
            table: self.table.ptr(),
            output: self.queue(self.fr.next_queue(), self.fr.next_cell()),
        };
        // SAFETY: the table has n entries and every queued vertex is < n.
        let pushed = self.cells.get_mut()[self.fr.scratch_cell()];
        Self::launch(Self::grid_for(pushed), |t, nt| unsafe { dedupe::mark(&d, t, nt) });
        // Stable compaction of the winners (the GPU does this with its device-wide scan).
        let len = self.cells.get_mut()[self.fr.scratch_cell()] as usize;
        // SAFETY: no launch is running; the slices cover initialised memory.
        let (items, table) = unsafe { (std::slice::from_raw_parts(d.input.items, len), d.table as *const u32) };
        let winners: Vec<u32> = (0..len as u32)
            .filter(|&i| unsafe { dedupe::is_winner(items.as_ptr(), table, i) })
            .map(|i| items[i as usize])
            .collect();
        let next = self.queues[self.fr.next_queue()].get_mut();
        next[..winners.len()].copy_from_slice(&winners);
        let cell = self.fr.next_cell();
        self.cells.get_mut()[cell] = winners.len() as u32;
        Ok(())
    }

    fn swap(&mut self) {
        self.fr.swap(std::mem::take(&mut self.pending_scratch));
    }

    fn advance_loop(&mut self, step: Advance, max_iters: u32) -> Result<u32> {
        debug_assert!(super::loop_supported(&step));
        // The GPU's persistent kernel runs exactly these steps, a grid barrier in place of the
        // return to this loop.
        let mut done = 0;
        while done < max_iters && self.frontier_len()? > 0 {
            self.advance(Advance { iter: step.iter + done, ..step })?;
            self.swap();
            done += 1;
        }
        Ok(done)
    }

    fn frontier_len(&mut self) -> Result<u32> {
        Ok(self.cells.get_mut()[self.fr.current_cell()])
    }

    fn counters(&mut self) -> Result<Counters> {
        Ok(self.counters.get_mut()[0])
    }

    fn clear_flags(&mut self) -> Result<()> {
        let c = &mut self.counters.get_mut()[0];
        c.improved = 0;
        c.overflow = 0;
        Ok(())
    }

    fn distances(&mut self) -> Result<Vec<u32>> {
        let mut out = vec![0u32; self.n as usize];
        let a = k::ExtractArgs { dist: self.dist.ptr(), out: out.as_mut_ptr(), n: self.n, _pad: 0 };
        // SAFETY: dist and out have n entries; each thread writes only its own slots.
        Self::launch(CPU_THREADS, |t, nt| unsafe { k::extract(&a, t, nt) });
        Ok(out)
    }

    fn synchronize(&mut self) -> Result<()> {
        Ok(())
    }
}
