//! Distance tables (rows = sources, columns = targets) on a contraction hierarchy, on the host:
//! the bucket-based many-to-many algorithm of Knopp, Sanders, Schultes, Schulz and Wagner
//! ("Computing Many-to-Many Shortest Paths Using Highway Hierarchies", ALENEX 2007), here on a
//! contraction hierarchy as Geisberger et al. describe it.
//!
//! 1. A full backward search from every distinct target (all of its upward space, on every
//!    host core) leaves an entry `(target, distance)` in the *bucket* of each vertex it
//!    settles.
//! 2. A full forward search from every distinct source (in parallel, one row each) reads the
//!    bucket of each vertex it settles: `row[target] = min(d(source, v) + d(v, target))`. The
//!    top of every shortest path is in both search spaces, so each cell is exact.
//!
//! With a core table both searches stop at the core, and a source's distances to every core
//! vertex are one min-plus pass over the table rows of its entries (contiguous rows, so the
//! pass vectorises); each core vertex's bucket is then read with that distance. Without one
//! the searches go through the core's arcs.
//!
//! Repeated ids are searched once and copied into every row or column that names them.
//! A table of `rows x cols` cells holds 8 bytes a cell, and [`DistTable::new`] refuses one that
//! this process cannot hold ([`Error::OutOfHostMemory`] with its size) before allocating it.

use rayon::prelude::*;

use super::{Router, Search, Side, FAR, NONE};
use crate::error::{Error, Result};
use crate::mem::try_vec;
use crate::{Dist, UNREACHED};
use sssp_kernels::INF;

/// A distance table: `rows x cols` distances, row-major ([`UNREACHED`] where there is no
/// path), rows in the order the sources were given and columns in the targets' order.
#[derive(Clone, Debug, PartialEq)]
pub struct DistTable {
    rows: usize,
    cols: usize,
    dist: Vec<Dist>,
}

impl DistTable {
    /// A table of `rows x cols` cells, every one [`UNREACHED`]. Errors:
    /// [`Error::OutOfHostMemory`] with the table's bytes when this process cannot hold it,
    /// before anything is allocated ([`check_size`]).
    pub fn new(rows: usize, cols: usize) -> Result<DistTable> {
        check_size(rows, cols)?;
        Ok(DistTable { rows, cols, dist: try_vec(rows * cols, UNREACHED)? })
    }

    /// Rows (sources).
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Columns (targets).
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The distance from source `i` to target `j` ([`UNREACHED`]: no path).
    pub fn get(&self, i: usize, j: usize) -> Dist {
        self.dist[i * self.cols + j]
    }

    /// Row `i`.
    pub fn row(&self, i: usize) -> &[Dist] {
        &self.dist[i * self.cols..][..self.cols]
    }

    /// Every cell, row-major.
    pub fn cells(&self) -> &[Dist] {
        &self.dist
    }

    /// Every cell, row-major, mutably (to fill it).
    pub fn cells_mut(&mut self) -> &mut [Dist] {
        &mut self.dist
    }
}

/// Bytes a table of `rows x cols` cells needs, or [`Error::OutOfHostMemory`] naming them when
/// this process cannot have them ([`crate::mem::check_fits`]: physical memory and swap, a cgroup
/// limit, `ulimit -v`).
pub fn check_size(rows: usize, cols: usize) -> Result<u64> {
    let bytes = (rows as u64).checked_mul(cols as u64).and_then(|c| c.checked_mul(8));
    let bytes = bytes.ok_or(Error::OutOfHostMemory { needed: u64::MAX })?;
    crate::mem::check_fits(bytes)?;
    Ok(bytes)
}

/// `ids` without repeats (first appearance order) and, for each of `ids`, its index there.
pub fn distinct(ids: &[u32]) -> (Vec<u32>, Vec<u32>) {
    let mut first = std::collections::HashMap::with_capacity(ids.len());
    let mut uniq = Vec::new();
    let at = ids
        .iter()
        .map(|&v| {
            *first.entry(v).or_insert_with(|| {
                uniq.push(v);
                uniq.len() as u32 - 1
            })
        })
        .collect();
    (uniq, at)
}

/// The table of the distinct ids' table `small` with a row per `rows` entry and a column per
/// `cols` entry (indices into its rows and columns). `small` itself when nothing repeats.
pub fn expand(small: DistTable, rows: &[u32], cols: &[u32]) -> Result<DistTable> {
    if rows.len() == small.rows && cols.len() == small.cols {
        return Ok(small);
    }
    let mut t = DistTable::new(rows.len(), cols.len())?;
    t.dist.par_chunks_mut(cols.len().max(1)).zip(rows.par_iter()).for_each(|(out, &r)| {
        let src = small.row(r as usize);
        for (o, &c) in out.iter_mut().zip(cols) {
            *o = src[c as usize];
        }
    });
    Ok(t)
}

/// Every id of `ids` is a vertex of an `n`-vertex graph ([`Error::VertexOutOfRange`] names the
/// first that is not).
pub fn check_ids(ids: &[u32], n: u32) -> Result<()> {
    match ids.iter().find(|&&v| v >= n) {
        Some(&v) => Err(Error::VertexOutOfRange { vertex: v as u64, num_vertices: n as u64 }),
        None => Ok(()),
    }
}

/// The buckets: for each vertex, the backward searches that settled it, as (distinct target
/// index, distance), by vertex.
struct Buckets {
    offsets: Vec<u64>,
    target: Vec<u32>,
    dist: Vec<u64>,
    /// Core table indices whose vertex has entries (with a core table).
    core_hit: Vec<u32>,
    /// Some backward search met an arc too heavy to relax.
    overflow: bool,
}

impl Buckets {
    fn of(r: &Router, spaces: &[(Vec<(u64, u32)>, bool)]) -> Result<Buckets> {
        let n = r.num_vertices() as usize;
        let mut offsets = try_vec(n + 1, 0u64)?;
        for (space, _) in spaces {
            for &(_, v) in space {
                offsets[v as usize + 1] += 1;
            }
        }
        for v in 0..n {
            offsets[v + 1] += offsets[v];
        }
        let total = offsets[n] as usize;
        let (mut target, mut dist) = (try_vec(total, 0u32)?, try_vec(total, 0u64)?);
        let mut at = crate::mem::try_to_vec(&offsets[..n])?;
        for (j, (space, _)) in spaces.iter().enumerate() {
            for &(d, v) in space {
                let k = at[v as usize] as usize;
                (target[k], dist[k]) = (j as u32, d);
                at[v as usize] += 1;
            }
        }
        let core = r.h.sweep_graph().core;
        let core_hit = match r.tabled() {
            true => (0..core.len() as u32)
                .filter(|&i| offsets[core[i as usize] as usize + 1] > offsets[core[i as usize] as usize])
                .collect(),
            false => Vec::new(),
        };
        let overflow = spaces.iter().any(|s| s.1);
        Ok(Buckets { offsets, target, dist, core_hit, overflow })
    }

    fn of_vertex(&self, v: u32) -> impl Iterator<Item = (u32, u64)> + '_ {
        let (s, e) = (self.offsets[v as usize] as usize, self.offsets[v as usize + 1] as usize);
        self.target[s..e].iter().copied().zip(self.dist[s..e].iter().copied())
    }
}

impl Router {
    /// A complete search from `v` (forward or backward): every vertex of its upward space is in
    /// `side.settled` afterwards.
    pub(super) fn search_all(&self, side: &mut Side, v: u32, forward: bool) {
        side.start(v);
        while self.settle(side, forward).is_some() {}
    }

    /// The search spaces of `vertices` (forward or backward), in parallel: each one's settled
    /// vertices with their distances, and whether it met an arc too heavy to relax.
    pub(super) fn search_spaces(&self, vertices: &[u32], forward: bool) -> Result<Vec<(Vec<(u64, u32)>, bool)>> {
        vertices
            .par_iter()
            .map(|&v| {
                self.with_search(|q| {
                    let side = if forward { &mut q.fwd } else { &mut q.bwd };
                    self.search_all(side, v, forward);
                    (side.settled.clone(), side.overflow)
                })
            })
            .collect()
    }

    /// The distance table from `sources` to `targets` by the bucket algorithm (see the module
    /// doc), on all of rayon's threads. Errors: [`Error::VertexOutOfRange`],
    /// [`Error::OutOfHostMemory`] (the table's size, before it is allocated),
    /// [`Error::DistanceOverflow`] for a cell behind an arc too heavy to relax.
    pub fn table(&self, sources: &[u32], targets: &[u32]) -> Result<DistTable> {
        check_ids(sources, self.num_vertices())?;
        check_ids(targets, self.num_vertices())?;
        check_size(sources.len(), targets.len())?;
        let (us, rows) = distinct(sources);
        let (ut, cols) = distinct(targets);
        let spaces = self.search_spaces(&ut, false)?;
        let buckets = Buckets::of(self, &spaces)?;
        drop(spaces);
        let mut small = DistTable::new(us.len(), ut.len())?;
        small
            .dist
            .par_chunks_mut(ut.len().max(1))
            .zip(us.par_iter())
            .try_for_each(|(row, &s)| self.with_search(|q| self.fill_row(q, s, &buckets, row, &ut))?)?;
        expand(small, &rows, &cols)
    }

    /// One source's row: its forward search read against the buckets (and, with a core table,
    /// its distances to every core vertex against the core's buckets).
    fn fill_row(&self, q: &mut Search, s: u32, b: &Buckets, row: &mut [Dist], targets: &[u32]) -> Result<()> {
        self.search_all(&mut q.fwd, s, true);
        let mut best = vec![FAR; row.len()];
        let tabled = self.tabled();
        for &(df, v) in &q.fwd.settled {
            if tabled && self.pos[v as usize] == NONE {
                continue;
            }
            for (j, db) in b.of_vertex(v) {
                best[j as usize] = best[j as usize].min(df + db);
            }
        }
        if tabled && !q.fwd.entries.is_empty() {
            let sg = self.h.sweep_graph();
            let c = sg.core.len();
            let mut to_core = vec![FAR; c];
            for &(df, e) in &q.fwd.entries {
                let trow = &sg.table[self.row[e as usize] as usize * c..][..c];
                for (o, &w) in to_core.iter_mut().zip(trow) {
                    if w != INF {
                        *o = (*o).min(df + w as u64);
                    }
                }
            }
            for &k in &b.core_hit {
                if to_core[k as usize] != FAR {
                    for (j, db) in b.of_vertex(sg.core[k as usize]) {
                        best[j as usize] = best[j as usize].min(to_core[k as usize] + db);
                    }
                }
            }
        }
        let overflow = b.overflow || q.fwd.overflow;
        for ((o, &d), &t) in row.iter_mut().zip(&best).zip(targets) {
            if overflow && (d == FAR || d >= INF as u64) {
                return Err(Error::DistanceOverflow { vertex: t, bits: 32 });
            }
            *o = if d == FAR { UNREACHED } else { d as Dist };
        }
        Ok(())
    }
}
