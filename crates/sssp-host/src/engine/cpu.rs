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
use sssp_kernels::classify;
use sssp_kernels::frontier;
use sssp_kernels::{
    dedupe, settle, AdvanceArgs, Balance, Counters, Csr, PileArgs, PileState, Queue, BLOCK, CELL_STATE,
};

use super::settle::{self as st, SettleLayout, SettleSpec};
use super::{multisplit_host, Advance, Engine, Frontiers, Input, Layout, LoopSpec, LoopStatus, Resident, CELLS};
use crate::device::cpu::{grid_for, run_threads, CpuDevice, CPU_THREADS, SERIAL_THREADS};
use crate::device::{Counted, Device, Meter, Scale};
use crate::error::Result;
use crate::graph::Graph;
use crate::mem::{try_to_vec, try_vec};

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

/// A host vector standing for a device buffer: counted on the device's meter like one.
type Buf<T> = Counted<Vec<T>>;

/// A [`Shared`] buffer, counted.
type SharedBuf<T> = Counted<Shared<T>>;

/// `v`, counted on `meter` as `scale`.
fn counted<T>(v: Vec<T>, scale: Scale, meter: &Meter) -> Buf<T> {
    let bytes = crate::mem::bytes_of::<T>(v.len());
    Counted::new(v, bytes, scale, meter)
}

/// A vector of `len` copies of `value` for the kernels to share, counted on `meter` as `scale`.
fn shared<T: Copy + Send>(len: usize, value: T, scale: Scale, meter: &Meter) -> Result<SharedBuf<T>> {
    Ok(Counted::new(Shared::new(try_vec(len, value)?), crate::mem::bytes_of::<T>(len), scale, meter))
}

/// The edge classes' buffers: sink tails, sink arc indices (empty: not classified; the classes
/// themselves are tagged into the targets).
type ClassBufs = (Buf<u32>, Buf<u64>);

/// A graph resident in host memory, run by the kernels crate's bodies over rayon.
pub struct CpuEngine {
    offsets: Buf<u64>,
    n: u32,
    dist: SharedBuf<u64>,
    /// The degree prefix, allocated by the first run that scans degrees ([`super::RunBuffers`]).
    prefix: Option<SharedBuf<u64>>,
    /// The second degree prefix ([`super::Layout::push_prefix`]), allocated by the first run
    /// whose pushes build their queues' prefixes.
    push_prefix: Option<SharedBuf<u64>>,
    /// `CELLS` length cells, stored as `u64` pairs: the near queues' cells and the barrier
    /// tallies are read as `u64` (`sssp_kernels::near_cell`), so the array is 8-byte aligned.
    cells: SharedBuf<u64>,
    counters: SharedBuf<Counters>,
    /// Buffers only the kernels touch (through `lay`); owned here so they live as long as it.
    _kernel_only: (Buf<u32>, Buf<u32>, SharedBuf<u32>, [SharedBuf<u32>; 2]),
    /// The lookup scratch queue and the hub queue, each allocated by the first run that needs
    /// it ([`super::RunBuffers`]).
    _scratch: Option<SharedBuf<u32>>,
    _hub: Option<SharedBuf<u32>>,
    /// Bucket slot queues and the two far buffers, allocated on the first bucketed run.
    _buckets: Option<(SharedBuf<u32>, [SharedBuf<u32>; 2])>,
    /// Addresses of the buffers (they never move).
    lay: Layout,
    /// The settle loop's buffers, allocated on its first run (see [`CpuEngine::ensure_settle`]).
    settle: Option<CpuSettle>,
    /// The host as a device (what other features' problem objects allocate on).
    dev: CpuDevice,
    /// Problem objects of other features, kept for the engine's life.
    extras: super::Extras,
    fr: Frontiers,
    pending_scratch: bool,
    /// The edge classes (the list of arcs into sinks: tails, arcs; the classes are tagged into
    /// the targets), computed on the first classified run ([`CpuEngine::ensure_classes`]);
    /// `Some` once tried, empty when the graph cannot be classified.
    classes: Option<ClassBufs>,
    /// The cutoff of a classified run whose deferred arcs are still to be relaxed.
    deferred: Option<u32>,
    /// Time taken to copy the graph in.
    upload: std::time::Duration,
}

impl CpuEngine {
    /// Copy `g` into the engine. Needs non-negative weights.
    pub fn new(g: &Graph) -> Result<Self> {
        Self::with_lanes(g, 1)
    }

    /// [`CpuEngine::new`] for `lanes` solves side by side (see `lanes`): the graph
    /// once, the run's buffers `lanes` times.
    pub fn with_lanes(g: &Graph, lanes: u32) -> Result<Self> {
        let lane_bits = super::lane_bits(g, lanes)?;
        let dev = CpuDevice::new();
        let meter = dev.meter().clone();
        let (a, v) = (Scale::Arcs, Scale::Vertices);
        let started = std::time::Instant::now();
        let weights = counted(try_to_vec(g.engine_weights())?, a, &meter);
        let (offsets, mut targets) =
            (counted(try_to_vec(g.offsets())?, v, &meter), counted(try_to_vec(g.targets())?, a, &meter));
        let upload = started.elapsed();
        // Vertex ids of the runs: every lane has its own copy of each.
        let n = g.num_vertices() << lane_bits;
        let dist = shared(n, 0, v, &meter)?;
        let queues = [shared(n.max(1), 0, v, &meter)?, shared(n.max(1), 0, v, &meter)?];
        let table = shared(n.max(1), 0, v, &meter)?;
        let cells = shared(CELLS / 2, 0u64, v, &meter)?;
        let counters = shared(1, Counters::default(), v, &meter)?;
        let lay = Layout {
            csr: Csr {
                offsets: offsets.as_ptr(),
                // Mutable: the edge classes are tagged into it (`ensure_classes`).
                targets: targets.as_mut_ptr(),
                weights: weights.as_ptr(),
                n: n as u32,
                lane_bits: lane_bits as u16,
                metric: g.metric().code(),
                head_mask: Csr::head_mask(g.num_vertices() as u64),
                _pad: 0,
            },
            dist: dist.ptr(),
            queues: [queues[0].ptr(), queues[1].ptr()],
            scratch: std::ptr::null_mut(),
            table: table.ptr(),
            prefix: std::ptr::null_mut(),
            prefix_len: 0,
            push_prefix: std::ptr::null_mut(),
            arcs: g.num_arcs() as u64,
            cells: cells.ptr() as *mut u32,
            counters: counters.ptr(),
            slots: std::ptr::null_mut(),
            slot_pool: 0,
            far: [std::ptr::null_mut(); 2],
            // The CPU runs the grid-cooperative phases as host code (see `run_loop`).
            block_vals: std::ptr::null_mut(),
            hist: std::ptr::null_mut(),
            hub: std::ptr::null_mut(),
            hub_len: 0,
            degrees: *g.degree_tail(),
            max_degree: g.max_degree() as u64,
            classes: super::NO_CLASSES,
        };
        Ok(CpuEngine {
            offsets,
            n: n as u32,
            dist,
            prefix: None,
            push_prefix: None,
            cells,
            counters,
            _kernel_only: (targets, weights, table, queues),
            _scratch: None,
            _hub: None,
            _buckets: None,
            lay,
            settle: None,
            fr: Frontiers::default(),
            pending_scratch: false,
            classes: None,
            deferred: None,
            upload,
            dev,
            extras: super::Extras::default(),
        })
    }

    /// Classify the graph's arcs (once per engine, on the first run that asks), with the
    /// kernels crate's passes: in-degrees, classified targets, the list of arcs into sinks.
    fn ensure_classes(&mut self) -> Result<()> {
        if self.classes.is_some() {
            return Ok(());
        }
        let gn = self.offsets.len() - 1;
        let m = self.offsets[gn];
        if !super::classifiable(gn as u64, m) {
            let meter = self.dev.meter();
            self.classes = Some((counted(Vec::new(), Scale::Arcs, meter), counted(Vec::new(), Scale::Arcs, meter)));
            return Ok(());
        }
        let meter = self.dev.meter().clone();
        // The classes go into the spare high bits of the engine's own targets.
        let tagged = self.lay.csr.targets as *mut u32;
        // The in-degrees in the lookup table (n entries, free between runs), zeroed.
        let indeg = self.lay.table;
        // SAFETY: the table has max(n, 1) >= gn entries; no launch is running.
        unsafe { std::ptr::write_bytes(indeg, 0, gn) };
        let mut count = [0u64; 2];
        self.lay.classes.tagged = tagged;
        let a = self.lay.classify_args(indeg, count.as_mut_ptr());
        let totals = [std::sync::atomic::AtomicU64::new(0), std::sync::atomic::AtomicU64::new(0)];
        // SAFETY: the graph's buffers, `indeg` n zeroed entries, `tagged` m; the passes run in
        // order and touch shared entries only through atomics.
        run_threads(CPU_THREADS, |t, nt| unsafe { classify::count_in(&a, t, nt) });
        run_threads(CPU_THREADS, |t, nt| {
            let (sinks, skips) = unsafe { classify::tag(&a, t, nt) };
            totals[0].fetch_add(sinks, std::sync::atomic::Ordering::Relaxed);
            totals[1].fetch_add(skips, std::sync::atomic::Ordering::Relaxed);
        });
        let [sinks, skips] = totals.map(|t| t.into_inner());
        self.lay.classes.skips = skips;
        self.lay.classes.arcs = m;
        let mut tails = counted(try_vec(sinks as usize, 0u32)?, Scale::Arcs, &meter);
        let mut arcs = counted(try_vec(sinks as usize, 0u64)?, Scale::Arcs, &meter);
        self.lay.classes.sink_tail = tails.as_mut_ptr();
        self.lay.classes.sink_arc = arcs.as_mut_ptr();
        self.lay.classes.sinks = sinks;
        let a = self.lay.classify_args(indeg, count.as_mut_ptr());
        // SAFETY: room for the `sinks` arcs the tag pass counted; `count[0]` starts at 0.
        run_threads(CPU_THREADS, |t, nt| unsafe { classify::list_sinks(&a, t, nt) });
        self.classes = Some((tails, arcs));
        Ok(())
    }

    /// Before a run's advances: classify when asked (first time), and note the deferred pass.
    fn prepare_classes(&mut self, classify: bool, cutoff: u32) -> Result<()> {
        if classify {
            self.ensure_classes()?;
        }
        self.deferred = self.deferred.or(self.lay.deferred(classify, cutoff));
        Ok(())
    }

    /// Allocate the settle loop's buffers and run the precomputation (once per engine), and
    /// build the reverse graph when a pull run first needs it.
    fn ensure_settle(&mut self, g: &Graph, pull: bool) -> Result<()> {
        let weights = g.engine_weights();
        if self.settle.is_none() {
            let n = (self.n as usize).max(1);
            let meter = self.dev.meter().clone();
            let alloc = |len: usize| shared(len, 0u32, Scale::Vertices, &meter);
            let bufs = [alloc(n)?, alloc(n)?, alloc(n)?, alloc(n)?, alloc(n)?, alloc(CELLS)?];
            let lay = SettleLayout {
                min_out: bufs[0].ptr(),
                min_in: bufs[1].ptr(),
                frontier: bufs[2].ptr(),
                cand: [bufs[3].ptr(), bufs[4].ptr()],
                cells: bufs[5].ptr(),
                mins: std::ptr::null_mut(),
                rev: st::no_csr(self.n),
                min_weight: st::min_weight(weights),
            };
            let spec = SettleSpec {
                rule: sssp_kernels::Rule::Out,
                pull: false,
                balance: Balance::VirtualWarp,
                classify: false,
            };
            let a = lay.args(&self.lay, &spec, 0);
            // SAFETY: min_out and min_in have n entries; the CSR is the engine's. Phase 1's
            // atomic mins start from phase 0's INF, after it returned.
            run_threads(CPU_THREADS, |t, nt| unsafe { settle::prepare_out(&a, t, nt) });
            run_threads(CPU_THREADS, |t, nt| unsafe { settle::prepare_in(&a, t, nt) });
            self.settle = Some(CpuSettle { lay, _bufs: bufs, rev: None });
        }
        let s = self.settle.as_mut().expect("allocated above");
        if pull && s.rev.is_none() {
            let (offsets, tails, ws) = st::reverse_csr(g, weights)?;
            let meter = self.dev.meter();
            let (offsets, tails, ws) = (
                counted(offsets, Scale::Vertices, meter),
                counted(tails, Scale::Arcs, meter),
                counted(ws, Scale::Arcs, meter),
            );
            s.lay.rev = Csr {
                offsets: offsets.as_ptr(),
                targets: tails.as_ptr(),
                weights: ws.as_ptr(),
                n: self.n,
                lane_bits: 0,
                metric: g.metric().code(),
                head_mask: u32::MAX,
                _pad: 0,
            };
            s.rev = Some((offsets, tails, ws));
        }
        Ok(())
    }

    /// Panics unless `a.scan`, built by the last advance's pushes, is the exclusive scan of
    /// the degrees of `a.input`'s items (what [`CpuEngine::scan_degrees`] writes), total
    /// included: the debug builds' check of every prefix built by pushes.
    fn check_pushed_prefix(&mut self, a: &AdvanceArgs) {
        // SAFETY: no launch is running; the cell and the queue were written by the last
        // advance, the prefix has `len + 1` entries, and `scanned` as many.
        unsafe {
            let len = *a.input.len as usize;
            let mut scanned = vec![0u64; len + 1];
            self.scan_degrees_into(a.input, scanned.as_mut_ptr());
            assert_eq!(std::slice::from_raw_parts(a.scan, len + 1), &scanned[..], "pushed prefix of {len} slots");
        }
    }

    /// The length cells as the kernels index them (`u32` words), between launches.
    fn cell_words(&mut self) -> &mut [u32] {
        let pairs = self.cells.get_mut();
        // SAFETY: `CELLS / 2` u64s are `CELLS` initialised u32s, suitably aligned; the borrow of
        // the vector is held for the slice's life.
        unsafe { std::slice::from_raw_parts_mut(pairs.as_mut_ptr() as *mut u32, pairs.len() * 2) }
    }

    /// Exclusive prefix of the degrees of `input`'s items into `prefix` (`len + 1` entries).
    fn scan_degrees(&mut self, input: Queue) {
        assert!(self.prefix.is_some(), "allocated by the run that scans (RunBuffers)");
        // SAFETY: the engine's prefix has room for any queue's `len + 1` entries.
        unsafe { self.scan_degrees_into(input, self.lay.prefix) }
    }

    /// [`CpuEngine::scan_degrees`] into `prefix`, which has room for `len + 1` entries and is
    /// not read or written by anyone else until this returns.
    unsafe fn scan_degrees_into(&mut self, input: Queue, prefix: *mut u64) {
        // SAFETY: between launches the engine has exclusive access; the cell holds <= n, and
        // the queue's first `len` items were written by earlier steps.
        let len = unsafe { *input.len } as usize;
        let items = unsafe { std::slice::from_raw_parts(input.items, len) };
        let (offsets, bits) = (&self.offsets, self.lay.csr.lane_bits);
        // The degrees in place, then the scan over them: no temporary beside the device's
        // buffers (the GPU's scan needs none either).
        // SAFETY: the caller's.
        let prefix = unsafe { std::slice::from_raw_parts_mut(prefix, len + 1) };
        prefix[..len].par_iter_mut().zip(items.par_iter()).for_each(|(p, &v)| {
            *p = offsets[(v >> bits) as usize + 1] - offsets[(v >> bits) as usize];
        });
        let mut run = 0u64;
        for p in &mut prefix[..len] {
            let d = *p;
            *p = run;
            run += d;
        }
        prefix[len] = run;
    }

    /// One advance launch in any balance mode, then its hub pass when it diverted vertices (the
    /// GPU's persistent loop does the same with `grid::advance_any` and `hub_phase`).
    fn advance_with_hubs(&mut self, a: &AdvanceArgs, len: u32, classified: bool) {
        if Balance::is_tiled(a.balance) {
            Self::advance_tiles(a, classified);
        } else {
            Self::advance_plain(a, len, classified);
        }
        if a.hub.items.is_null() {
            return;
        }
        // SAFETY: no launch is running; the hub cell holds the count the advance pushed (<= n).
        let hubs = unsafe { *a.hub.len };
        if hubs > 0 {
            self.scan_degrees(a.hub);
            let h = k::hub_pass(a, self.lay.prefix);
            // As above; the prefix has `hubs + 1` entries from the scan.
            Self::advance_plain(&h, hubs, classified);
        }
    }

    /// One launch of the thread, virtual-warp or partition advance over `len` inputs.
    fn advance_plain(a: &AdvanceArgs, len: u32, classified: bool) {
        // SAFETY: the caller's: every buffer of `a` has the sizes `AdvanceArgs` documents (the
        // classified targets when `classified`).
        if classified {
            run_threads(grid_for(len), |t, nt| unsafe { k::advance::<true>(a, t, nt) });
        } else {
            run_threads(grid_for(len), |t, nt| unsafe { k::advance::<false>(a, t, nt) });
        }
    }

    /// The tiled modes (cooperative blocks, CTA+Warp+Scan): tile by tile, each tile's threads
    /// in phases, with a host scan where the GPU has its block scan (`grid::advance_tiles`).
    fn advance_tiles(a: &AdvanceArgs, classified: bool) {
        // SAFETY (all calls below): the buffers of `a` have the sizes `AdvanceArgs` documents;
        // a tile is private to its task, and the bodies touch shared memory only by atomics.
        let len = unsafe { k::prologue(a, 0) };
        let tiles = len.div_ceil(BLOCK);
        let run = |i: u32| {
            let mut tile = k::EMPTY_TILE;
            let tp: *mut k::Tile = &mut tile;
            let x: [u64; BLOCK as usize] =
                std::array::from_fn(|t| unsafe { k::tile_load(a, tp, i * BLOCK, len, t as u32) });
            let total: u64 = x.iter().sum();
            let mut excl = 0;
            for t in 0..BLOCK {
                unsafe { k::tile_place(tp, t, x[t as usize], excl, total) };
                excl += x[t as usize];
            }
            let expand = |t| unsafe {
                if classified {
                    k::tile_expand::<true>(a, tp, t)
                } else {
                    k::tile_expand::<false>(a, tp, t)
                }
            };
            let arcs: u64 = (0..BLOCK).map(expand).sum();
            unsafe { sssp_kernels::relax::add_arcs(a.counters, arcs) };
        };
        if tiles <= SERIAL_THREADS / BLOCK {
            (0..tiles).for_each(run);
        } else {
            (0..tiles).into_par_iter().for_each(run);
        }
    }

    /// Lookup dedupe of the pushed queue `input` into `out`: the shared mark pass, then a stable
    /// compaction of the winners (the GPU does this with its device-wide scan).
    fn compact_winners(&mut self, input: Queue, out: Queue) {
        let d = sssp_kernels::DedupeArgs { input, table: self.lay.table, output: out };
        // SAFETY: no launch is running; the cell holds the pushed count (<= m, the capacity).
        let len = unsafe { *input.len };
        // SAFETY: the table has n entries and every queued vertex is < n.
        run_threads(grid_for(len), |t, nt| unsafe { dedupe::mark(&d, t, nt) });
        // SAFETY: the slice covers the pushed, initialised items.
        let (items, table) = unsafe { (std::slice::from_raw_parts(input.items, len as usize), d.table as *const u32) };
        // Straight into `out` (another buffer than the input), in input order.
        let mut kept = 0;
        for i in 0..len {
            // SAFETY: `out` holds n items and the winners are distinct vertices; no launch is
            // running.
            unsafe {
                if dedupe::is_winner(items.as_ptr(), table, i) {
                    *out.items.add(kept) = items[i as usize];
                    kept += 1;
                }
            }
        }
        // SAFETY: the queue's length cell; no launch is running.
        unsafe { *out.len = kept as u32 };
    }

    /// Allocate what a run needs and has not been allocated yet (kept for later runs).
    fn ensure_run_buffers(&mut self, need: super::RunBuffers) -> Result<()> {
        let meter = self.dev.meter().clone();
        if need.scratch {
            // Lookup dedupe pushes once per improvement: at most one push per arc per iteration.
            let m = self.offsets[self.offsets.len() - 1] as usize;
            let b = shared((m << self.lay.csr.lane_bits).max(1), 0u32, Scale::Arcs, &meter)?;
            self.lay.scratch = b.ptr();
            self._scratch = Some(b);
        }
        if need.hub > 0 {
            // The old queue goes before the new one comes.
            (self._hub, self.lay.hub, self.lay.hub_len) = (None, std::ptr::null_mut(), 0);
            let b = shared(need.hub as usize, 0u32, Scale::Vertices, &meter)?;
            (self.lay.hub, self.lay.hub_len) = (b.ptr(), need.hub);
            self._hub = Some(b);
        }
        if need.prefix > 0 {
            (self.prefix, self.lay.prefix, self.lay.prefix_len) = (None, std::ptr::null_mut(), 0);
            let b = shared(need.prefix as usize, 0u64, Scale::Vertices, &meter)?;
            (self.lay.prefix, self.lay.prefix_len) = (b.ptr(), need.prefix);
            self.prefix = Some(b);
        }
        if need.push_prefix {
            let b = shared(self.n as usize + 1, 0u64, Scale::Vertices, &meter)?;
            self.lay.push_prefix = b.ptr();
            self.push_prefix = Some(b);
        }
        Ok(())
    }

    /// Allocate the slots' pool and the far buffers for a bucketed run (`count > 0`; the same
    /// for any bucket count, kept across runs).
    fn ensure_buckets(&mut self, count: u32) -> Result<()> {
        if count == 0 || self.lay.slot_pool != 0 {
            return Ok(());
        }
        let n = (self.n as usize).max(1);
        let meter = self.dev.meter().clone();
        let alloc = |len: usize| shared(len, 0u32, Scale::Vertices, &meter);
        let pool = super::slot_pool(self.n as u64) as usize;
        let slots = alloc(pool)?;
        let far = [alloc(n)?, alloc(n)?];
        self.lay.slots = slots.ptr();
        self.lay.slot_pool = pool as u32;
        self.lay.far = [far[0].ptr(), far[1].ptr()];
        self._buckets = Some((slots, far));
        Ok(())
    }
}

/// The settle loop's buffers on the host (see `engine::settle`).
struct CpuSettle {
    lay: SettleLayout,
    /// min_out, min_in, frontier, two candidate lists, cells: only touched through `lay`.
    _bufs: [SharedBuf<u32>; 6],
    /// The reverse graph (offsets, tails, weights), built on the first pull run.
    rev: Option<(Buf<u64>, Buf<u32>, Buf<u32>)>,
}

impl Engine for CpuEngine {
    fn device(&self) -> &dyn Device {
        &self.dev
    }

    fn resident(&self) -> Resident {
        self.lay.resident(self.upload)
    }

    fn init(&mut self, seeds: &[u32]) -> Result<()> {
        super::Steps::init_run(self, seeds)
    }

    fn advance(&mut self, step: Advance) -> Result<()> {
        super::Steps::advance_run(self, step)
    }

    fn run_loop(&mut self, spec: &LoopSpec, max_iters: u32) -> Result<LoopStatus> {
        // The GPU's persistent kernel (`sssp_kernels::grid::pile_loop`) runs these phases with
        // grid barriers where this loop returns from a launch; the control steps are the same
        // functions.
        let nb = spec.buckets.map_or(0, |b| b.count);
        self.ensure_buckets(nb)?;
        self.ensure_run_buffers(self.lay.run_buffers(Input::Frontier, spec.dedupe, spec.balance, spec.hub))?;
        self.prepare_classes(spec.classify, spec.cutoff)?;
        let p = self.lay.pile_args(spec, max_iters);
        if spec.block {
            super::block_loop_fits(spec, self.lay.lanes(), self.lay.classifies(spec.classify))?;
        }
        let state = self.lay.cell(CELL_STATE) as *mut PileState;
        // SAFETY: the cells hold a PileState at CELL_STATE; no launch is running.
        let mut st = unsafe { std::ptr::read_unaligned(state) };
        // SAFETY: the pile buffers were allocated for `nb` buckets and the state is one the
        // control functions produced from init's zeroes; queues, slots and far buffers hold n
        // items each, which the push rules never exceed (split.rs); the target is < n.
        let classified = self.lay.classifies(spec.classify);
        unsafe { frontier::run(&p, &mut st, &mut Host { eng: self, classified }) };
        // SAFETY: as above.
        unsafe { std::ptr::write_unaligned(state, st) };
        if st.done != 0 {
            self.relax_deferred()?;
        }
        Ok(LoopStatus::from_cells(self.cell_words(), nb))
    }

    fn settle(&mut self, g: &Graph, spec: &SettleSpec, source: u32) -> Result<()> {
        // The GPU runs these phases in one persistent launch (`grid_settle::settle_loop`), with
        // grid barriers where this loop returns from a launch.
        super::one_lane(self.lay.lanes(), "a settling run")?;
        self.ensure_settle(g, spec.pull)?;
        self.ensure_run_buffers(self.lay.settle_buffers(spec.pull, spec.balance))?;
        self.prepare_classes(spec.classify && !spec.pull, sssp_kernels::NO_CUTOFF)?;
        let lay = self.settle.as_ref().expect("ensure_settle allocated it").lay;
        let a = lay.args(&self.lay, spec, source);
        let classified = self.lay.classifies(spec.classify && !spec.pull);
        // SAFETY: no launch is running when the host touches a cell or a list; the buffers
        // have the sizes `SettleArgs` documents, and the bodies keep every list free of
        // duplicates (a vertex joins the candidates once and is settled once).
        let done = unsafe { settle::run(&a, &mut HostSettle { eng: self, classified }) };
        if !done {
            return Err(crate::error::Error::Verification(format!(
                "settle loop still had candidates after {} steps: engine fault on {}",
                self.n,
                self.dev.facts().name
            )));
        }
        Ok(())
    }

    fn frontier_len(&mut self) -> Result<u32> {
        let at = self.fr.current_cell();
        Ok(self.cell_words()[at])
    }

    fn counters(&mut self) -> Result<Counters> {
        Ok(self.counters.get_mut()[0])
    }

    fn distances(&mut self) -> Result<Vec<u32>> {
        let mut out = try_vec(self.n as usize, 0u32)?;
        let a = sssp_kernels::ExtractArgs { dist: self.dist.ptr(), out: out.as_mut_ptr(), n: self.n, _pad: 0 };
        // SAFETY: dist and out have n entries; each thread writes only its own slots.
        run_threads(CPU_THREADS, |t, nt| unsafe { k::extract(&a, t, nt) });
        Ok(out)
    }

    fn classify(&mut self) -> Result<(Option<super::ClassCounts>, bool)> {
        let fresh = self.classes.is_none();
        self.ensure_classes()?;
        Ok((self.lay.class_counts(), fresh))
    }

    fn relax_deferred(&mut self) -> Result<()> {
        if let Some(cutoff) = self.deferred.take() {
            let a = self.lay.sink_args(cutoff);
            // SAFETY: the classes' lists hold `sinks` arcs of the resident graph; dist has an
            // entry per run vertex; the body writes distances only through atomics.
            run_threads(grid_for(a.count.min(u32::MAX as u64) as u32), |t, nt| unsafe {
                classify::relax_sinks(&a, t, nt)
            });
        }
        Ok(())
    }

    fn extras(&mut self) -> &mut super::Extras {
        &mut self.extras
    }
}

impl CpuEngine {
    /// The stand-alone multisplit ([`super::multisplit`]).
    pub(crate) fn multisplit(&mut self, items: &[u32], keys: &[u32], nbins: u32) -> Result<Vec<Vec<u32>>> {
        super::check_multisplit(items, keys, nbins)?;
        let mut out = vec![Vec::new(); nbins as usize];
        multisplit_host(items.len(), nbins, |i| keys[i], |i| items[i], |j, parts| out[j as usize] = parts.concat());
        Ok(out)
    }
}

impl super::Steps for CpuEngine {
    fn lanes(&self) -> u32 {
        self.lay.lanes()
    }

    fn reset(&mut self, source: u32) -> Result<()> {
        self.cell_words().fill(0);
        self.fr = Frontiers::default();
        self.pending_scratch = false;
        self.deferred = None;
        let a = self.lay.init_args(&self.fr, source);
        // SAFETY: every pointer addresses a live buffer of the sizes the body indexes
        // (dist: n, queue: >= 1, counters: 1).
        run_threads(CPU_THREADS, |t, nt| unsafe { k::init(&a, t, nt) });
        Ok(())
    }

    fn seed(&mut self, sources: &[u32]) -> Result<()> {
        super::check_seeds(sources, self.n)?;
        self.reset(u32::MAX)?;
        let a = self.lay.seed_args(&self.fr, sources.as_ptr(), sources.len() as u32);
        // SAFETY: distinct ids below n (checked), so the queue (n items) holds them and no two
        // threads write one distance; `sources` outlives the launch.
        run_threads(grid_for(sources.len() as u32), |t, nt| unsafe { k::seed(&a, t, nt) });
        Ok(())
    }

    fn relax_step(&mut self, step: Advance) -> Result<()> {
        let all = step.input == Input::AllVertices;
        if all {
            super::one_lane(self.lay.lanes(), "a topology-driven sweep")?;
        }
        self.ensure_run_buffers(self.lay.run_buffers(step.input, step.dedupe, step.balance, step.hub))?;
        if !all && step.balance == sssp_kernels::Balance::Partition {
            self.scan_degrees(self.lay.current(&self.fr));
        }
        self.prepare_classes(step.classify, step.cutoff)?;
        let roles = self.fr.roles(&step);
        self.pending_scratch = roles.uses_scratch();
        let a = self.lay.advance_args(&step, &roles);
        // SAFETY: queues hold n items (a vertex is pushed at most once per iteration with
        // stamps), the scratch queue m (at most one push per arc relaxation), prefix n + 1, and
        // the input length cell was written by the previous step.
        let at = self.fr.current_cell();
        let len = if all { self.n } else { self.cell_words()[at] };
        self.advance_with_hubs(&a, len, self.lay.classifies(step.classify));
        Ok(())
    }

    fn dedupe(&mut self) -> Result<()> {
        let d = self.lay.dedupe_args(&self.fr);
        self.compact_winners(d.input, d.output);
        Ok(())
    }

    fn swap(&mut self) {
        self.fr.swap(std::mem::take(&mut self.pending_scratch));
    }

    fn clear_flags(&mut self) -> Result<()> {
        let c = &mut self.counters.get_mut()[0];
        c.improved = 0;
        c.overflow = 0;
        Ok(())
    }
}

/// The CPU engine as the frontier loop's executor: each phase launches the same bodies over
/// rayon and returns when they are done; the control runs on the calling thread.
struct Host<'e> {
    eng: &'e mut CpuEngine,
    /// Relax through the edge classes.
    classified: bool,
}

impl frontier::Executor for Host<'_> {
    unsafe fn advance(&mut self, _: &PileArgs, state: &PileState, a: &AdvanceArgs) {
        // As the GPU's partition loop (`grid::Grid::advance`, the same rule).
        let prefixed = frontier::pushes_build_prefix(a);
        if prefixed {
            // SAFETY: a near queue's pair (`sssp_kernels::near_cell`); no launch is running.
            unsafe { *a.zero_len.add(1) = 0 };
        }
        if a.balance == Balance::Partition as u32 {
            let built = prefixed && state.input_len().is_some();
            if !built {
                // SAFETY: `a.scan` is one of the engine's two prefixes (n + 1 entries), which
                // nothing else touches between launches.
                unsafe { self.eng.scan_degrees_into(a.input, a.scan as *mut u64) };
            } else if cfg!(debug_assertions) {
                self.eng.check_pushed_prefix(a);
            }
        }
        // SAFETY: the caller's; the input length cell was written by the previous phase.
        let len = unsafe { *a.input.len };
        self.eng.advance_with_hubs(a, len, self.classified);
    }

    unsafe fn compact(&mut self, input: Queue, _: *mut u32, out: Queue) {
        self.eng.compact_winners(input, out);
    }

    unsafe fn least(&mut self, len: u32, value: impl Fn(u32) -> u64 + Sync) -> u64 {
        (0..len).into_par_iter().map(&value).min().unwrap_or(u64::MAX)
    }

    unsafe fn distribute(
        &mut self,
        len: u32,
        nbins: u32,
        room: u32,
        key: impl Fn(u32) -> u32 + Sync + Copy,
        item: impl Fn(u32) -> u32 + Sync,
        dest: impl Fn(u32) -> Queue + Sync,
    ) {
        multisplit_host(
            len as usize,
            nbins,
            |i| key(i as u32),
            |i| item(i as u32),
            |j, parts| {
                let q = dest(j);
                // The far pile (the last bin) has room for every vertex; a slot for `room`.
                let room = if j + 1 == nbins { usize::MAX } else { room as usize };
                let mut at = 0;
                for part in parts {
                    let keep = part.len().min(room.saturating_sub(at));
                    // SAFETY: a bin holds distinct vertices (the far pile never holds one
                    // twice); at most `room` of them are written to a slot.
                    unsafe { std::ptr::copy_nonoverlapping(part.as_ptr(), q.items.add(at), keep) };
                    at += part.len();
                }
                // SAFETY: the queue's length cell; no launch is running. The count, past the
                // room when the slot overflowed.
                unsafe { *q.len = at as u32 };
            },
        );
    }

    unsafe fn gather(&mut self, p: &PileArgs, _: &PileState, keep: impl Fn(u32) -> bool + Sync, out: Queue) {
        let found: Vec<u32> = (0..p.adv.csr.n).into_par_iter().filter(|&v| keep(v)).collect();
        // SAFETY: `out` has room for n >= found.len() items and its length cell is zero; no
        // launch is running.
        unsafe {
            std::ptr::copy_nonoverlapping(found.as_ptr(), out.items, found.len());
            *out.len = found.len() as u32;
        }
    }
}

/// The CPU engine as the settle loop's executor: each phase a launch of the same bodies over
/// rayon, the control on the calling thread.
struct HostSettle<'e> {
    eng: &'e mut CpuEngine,
    /// Relax through the classified targets.
    classified: bool,
}

impl settle::SettleExecutor for HostSettle<'_> {
    fn leader(&self) -> bool {
        true
    }

    unsafe fn sync(&mut self) {}

    unsafe fn relax(&mut self, a: &sssp_kernels::SettleArgs, step: u32) {
        let c = self.classified;
        // SAFETY (the launches): the caller's.
        if a.pull != 0 {
            run_threads(grid_for(a.csr.n), |t, nt| unsafe { settle::pull(a, step, t, nt) });
        } else if a.balance == Balance::Partition as u32 {
            let f = unsafe { settle::frontier_queue(a) };
            self.eng.scan_degrees(f);
            let len = unsafe { *f.len };
            run_threads(grid_for(len), |t, nt| unsafe {
                if c {
                    settle::relax_frontier_partition::<true>(a, step, t, nt)
                } else {
                    settle::relax_frontier_partition::<false>(a, step, t, nt)
                }
            });
        } else {
            let len = unsafe { *settle::frontier_queue(a).len };
            run_threads(grid_for(len), |t, nt| unsafe {
                if c {
                    settle::relax_frontier::<true>(a, step, t, nt)
                } else {
                    settle::relax_frontier::<false>(a, step, t, nt)
                }
            });
        }
    }

    unsafe fn least_pair(&mut self, len: u32, value: impl Fn(u32) -> (u64, u64) + Sync) -> (u64, u64) {
        let fold = |x: (u64, u64), y: (u64, u64)| (x.0.min(y.0), x.1.min(y.1));
        let none = (u64::MAX, u64::MAX);
        if len <= SERIAL_THREADS {
            (0..len).map(&value).fold(none, fold)
        } else {
            (0..len).into_par_iter().map(&value).reduce(|| none, fold)
        }
    }

    unsafe fn settle(&mut self, a: &sssp_kernels::SettleArgs, step: u32, m: u64, delta: u64) {
        // SAFETY: the caller's.
        let len = unsafe { *settle::cand_queue(a, settle::cand_of(step)).len };
        run_threads(grid_for(len), |t, nt| unsafe { settle::settle_pass(a, step, m, delta, t, nt) });
    }
}
