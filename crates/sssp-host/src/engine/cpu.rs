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
use sssp_kernels::advance as k;
use sssp_kernels::{dedupe, Counters, Csr, MAX_VWARP};

use super::{Advance, Engine, Frontiers, Input, Layout, CELLS};
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
    n: u32,
    dist: Shared<u64>,
    queues: [Shared<u32>; 2],
    prefix: Shared<u64>,
    cells: Shared<u32>,
    counters: Shared<Counters>,
    /// Buffers only the kernels touch (through `lay`); owned here so they live as long as it.
    _kernel_only: (Vec<u32>, Vec<u32>, Shared<u32>, Shared<u32>),
    /// Addresses of the buffers (they never move).
    lay: Layout,
    fr: Frontiers,
    pending_scratch: bool,
}

impl CpuEngine {
    /// Copy `g` into the engine. Needs non-negative weights.
    pub fn new(g: &Graph) -> Result<Self> {
        let weights = g.unsigned_weights("GPU-style strategies")?.to_vec();
        let (offsets, targets) = (g.offsets().to_vec(), g.targets().to_vec());
        let n = g.num_vertices();
        let m = g.num_arcs();
        let dist = Shared::new(vec![0; n]);
        let queues = [Shared::new(vec![0; n.max(1)]), Shared::new(vec![0; n.max(1)])];
        // Lookup dedupe pushes once per improvement: at most one push per arc per iteration.
        let scratch = Shared::new(vec![0; m.max(1)]);
        let table = Shared::new(vec![0; n.max(1)]);
        let prefix = Shared::new(vec![0; n + 1]);
        let cells = Shared::new(vec![0; CELLS]);
        let counters = Shared::new(vec![Counters::default()]);
        let lay = Layout {
            csr: Csr {
                offsets: offsets.as_ptr(),
                targets: targets.as_ptr(),
                weights: weights.as_ptr(),
                n: n as u32,
                _pad: 0,
            },
            dist: dist.ptr(),
            queues: [queues[0].ptr(), queues[1].ptr()],
            scratch: scratch.ptr(),
            table: table.ptr(),
            prefix: prefix.ptr(),
            cells: cells.ptr(),
            counters: counters.ptr(),
        };
        Ok(CpuEngine {
            offsets,
            n: n as u32,
            dist,
            queues,
            prefix,
            cells,
            counters,
            _kernel_only: (targets, weights, scratch, table),
            lay,
            fr: Frontiers::default(),
            pending_scratch: false,
        })
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
        let items = unsafe { std::slice::from_raw_parts(self.lay.current(&self.fr).items, len) };
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
        let a = self.lay.init_args(&self.fr, source);
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
        self.pending_scratch = roles.uses_scratch();
        let a = self.lay.advance_args(&step, &roles);
        // SAFETY: queues hold n items (a vertex is pushed at most once per iteration with
        // stamps), the scratch queue m (at most one push per arc relaxation), prefix n + 1, and
        // the input length cell was written by the previous step.
        let len = if all { self.n } else { self.cells.get_mut()[self.fr.current_cell()] };
        Self::launch(Self::grid_for(len), |t, nt| unsafe { k::advance(&a, t, nt) });
        Ok(())
    }

    fn dedupe(&mut self) -> Result<()> {
        let d = self.lay.dedupe_args(&self.fr);
        let len = self.cells.get_mut()[self.fr.scratch_cell()];
        // SAFETY: the table has n entries and every queued vertex is < n.
        Self::launch(Self::grid_for(len), |t, nt| unsafe { dedupe::mark(&d, t, nt) });
        // Stable compaction of the winners (the GPU does this with its device-wide scan).
        // SAFETY: no launch is running; the slice covers the pushed, initialised items.
        let (items, table) =
            unsafe { (std::slice::from_raw_parts(d.input.items, len as usize), d.table as *const u32) };
        let winners: Vec<u32> = (0..len)
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
        let a = sssp_kernels::ExtractArgs { dist: self.dist.ptr(), out: out.as_mut_ptr(), n: self.n, _pad: 0 };
        // SAFETY: dist and out have n entries; each thread writes only its own slots.
        Self::launch(CPU_THREADS, |t, nt| unsafe { k::extract(&a, t, nt) });
        Ok(out)
    }

    fn synchronize(&mut self) -> Result<()> {
        Ok(())
    }
}
