//! The diameter's problem objects on the engine's device: the eccentricity bounds with their
//! three passes ([`Bounds`]), and the level-synchronous BFS's count cells ([`Levels`]). Each owns
//! its buffers (allocated through the device layer, fit-checked there) and launches its kernel
//! types (`sssp_kernels::entry`) over the distances the engine's run left resident, so the
//! engine knows nothing of either.

use sssp_kernels::bfs::{BfsArgs, LevelKernel, BFS_ARCS, BFS_FOUND};
use sssp_kernels::bounds::{BoundsArgs, B_CELLS, B_RESET};
use sssp_kernels::entry::{BfsBottomUp, BfsThread, BfsWarp, BoundsEcc, BoundsPick, BoundsUpdate};
use sssp_kernels::INF;

use crate::device::Buffer;
use crate::engine::Engine;
use crate::error::{Error, Result};

/// Eccentricity bounding (`gpu-exact-diameter-bounding`, Algorithms 1-2; what the diameter runs
/// on undirected graphs): per-vertex lower and upper bounds of the eccentricity (lower 0, upper
/// none at first), the component mask, and the passes' result cells, all on the device, so a
/// bounding step reads 64 bytes and never a distance vector.
pub(super) struct Bounds {
    lb: Buffer,
    ub: Buffer,
    member: Buffer,
    out: Buffer,
    /// The graph's vertices (one lane's).
    n: u32,
}

impl Bounds {
    /// The bounds of `eng`'s graph with the component mask `member` (`member[v] != 0`, one
    /// entry per graph vertex, whatever the lanes).
    pub fn new(eng: &dyn Engine, member: &[u32]) -> Result<Self> {
        let n = eng.graph_vertices();
        if member.len() != n as usize {
            return Err(Error::InvalidArgument(format!("bounds: {} flags for {n} vertices", member.len())));
        }
        let dev = eng.device();
        let b = Bounds {
            lb: dev.alloc_of::<u32>(n as usize)?,
            ub: dev.alloc_of::<u32>(n as usize)?,
            member: dev.alloc_of::<u32>(n as usize)?,
            out: dev.alloc_of::<u64>(B_CELLS)?,
            n,
        };
        dev.upload_of(&b.ub, 0, &crate::mem::try_vec(n as usize, INF)?)?;
        dev.upload_of(&b.member, 0, member)?;
        Ok(b)
    }

    /// After a run in which `lane` (0 on an engine of one lane) solved from graph vertex
    /// `source` and reached every member: the paper's ECCENTRICITY (a max reduction over the
    /// members' distances), UPDATE BOUNDS and UPDATE CANDIDATES passes, and the candidate
    /// picks (`sssp_kernels::bounds`), in order (each reads what the one before folded).
    /// Several lanes' eccentricities of one batched run are applied one after the other.
    /// Returns the result cells (`B_ECC`, the global bounds, `B_UPPER`, `B_LOWER`, `B_OVER`).
    pub fn step(&self, eng: &dyn Engine, lane: u32, source: u32, rules: u32) -> Result<[u64; B_CELLS]> {
        if lane >= eng.lanes() || source >= self.n {
            return Err(Error::InvalidArgument(format!("bounds: lane {lane}, source {source} of {}", self.n)));
        }
        let (dev, r) = (eng.device(), eng.resident());
        dev.upload_of(&self.out, 0, &B_RESET)?;
        let a = BoundsArgs {
            dist: r.dist,
            lb: self.lb.ptr(),
            ub: self.ub.ptr(),
            member: self.member.ptr(),
            out: self.out.ptr(),
            n: self.n,
            source,
            rules,
            lane_bits: r.csr.lane_bits,
            lane: lane as u16,
        };
        let items = self.n as u64;
        // SAFETY: lb, ub and member have n entries (graph vertices), the resident distances n
        // per lane, out B_CELLS reset just above; each vertex's bounds are written by the one
        // thread that owns it.
        unsafe {
            dev.run::<BoundsEcc>(a, items)?;
            dev.run::<BoundsUpdate>(a, items)?;
            dev.run::<BoundsPick>(a, items)?;
        }
        let out = dev.download_of::<u64>(&self.out, 0, B_CELLS)?;
        let mut cells = [0u64; B_CELLS];
        cells.copy_from_slice(&out);
        Ok(cells)
    }

    /// The bounds (lower, upper; `INF`: none), `n` each.
    pub fn read(&self, eng: &dyn Engine) -> Result<(Vec<u32>, Vec<u32>)> {
        let (dev, n) = (eng.device(), self.n as usize);
        Ok((dev.download_of(&self.lb, 0, n)?, dev.download_of(&self.ub, 0, n)?))
    }

    /// The upper bounds alone.
    pub fn upper(&self, eng: &dyn Engine) -> Result<Vec<u32>> {
        eng.device().download_of(&self.ub, 0, self.n as usize)
    }
}

/// One level at a time of the level-synchronous BFS of `gpu-exact-diameter-bounding` §IV-C-D
/// (`sssp_kernels::bfs`) on the distances the engine's init started: the two count cells.
pub(super) struct Levels {
    cells: Buffer,
}

impl Levels {
    /// The cells on `eng`'s device. One lane only: the level kernels read one distance array.
    pub fn new(eng: &dyn Engine) -> Result<Self> {
        crate::engine::one_lane(eng.lanes(), "a BFS level")?;
        Ok(Levels { cells: eng.device().alloc_of::<u64>(2)? })
    }

    /// Label the unvisited neighbours of the vertices at `level` with `level + 1`,
    /// thread-centric or warp-centric, or bottom-up (every unvisited vertex with a neighbour at
    /// `level`; undirected graphs) (`kernel`). Returns (vertices labelled, their out-arcs) for
    /// the next level's choice; 0 labelled ends the BFS.
    pub fn step(&self, eng: &dyn Engine, level: u32, kernel: LevelKernel) -> Result<(u64, u64)> {
        let (dev, r) = (eng.device(), eng.resident());
        dev.zero(&self.cells)?;
        let a = BfsArgs { csr: r.csr, dist: r.dist, cells: self.cells.ptr(), level, _pad: 0 };
        let items = r.csr.n as u64;
        // SAFETY: the resident CSR and its n distances; two zeroed cells; labels go through an
        // atomic min.
        unsafe {
            match kernel {
                LevelKernel::Thread => dev.run::<BfsThread>(a, items)?,
                LevelKernel::Warp => dev.run::<BfsWarp>(a, items)?,
                LevelKernel::BottomUp => dev.run::<BfsBottomUp>(a, items)?,
            }
        }
        let c = dev.download_of::<u64>(&self.cells, 0, 2)?;
        Ok((c[BFS_FOUND], c[BFS_ARCS]))
    }
}
