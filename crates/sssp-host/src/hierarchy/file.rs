//! A contraction hierarchy on disk, so that a graph is contracted once, not once per process
//! (road 4M: two minutes of build against milliseconds to read back).
//!
//! # Layout (version 1)
//!
//! Little-endian; each array starts at a multiple of 8 bytes and is zero-padded to one.
//!
//! | offset | size | content |
//! |---|---|---|
//! | 0 | 8 | magic `b"SSSPCH\0\0"` |
//! | 8 | 4 | `u32` version = 1 |
//! | 12 | 4 | `u32` flags: bit 0 = the core has a distance table, bit 1 = that table saturated; other bits 0 |
//! | 16 | 8 | `u64` n, the graph's vertices |
//! | 24 | 8 | `u64` the graph's fingerprint ([`fingerprint`]) |
//! | 32 | 8 x 8 | `u64` counts: upward arcs, swept vertices, level starts, downward arcs, table vertices `C` (0 without a table), shortcuts, core vertices, build nanoseconds |
//! | 96 | 8 | `u64` checksum of the header's words 8..96 and the body, as the binary graph format's ([`crate::io::binary`]) |
//! | 104 | | body: upward offsets (`u64`, n + 1), heads, weights (`u32`); sweep order, level starts (`u32`); downward offsets (`u64`, swept + 1), tails, weights (`u32`); core vertices (`u32`, C); table (`u32`, C x C) |
//!
//! # Reading
//!
//! [`Hierarchy::read`] refuses, with [`Error::Parse`] naming the file, anything that is not a
//! hierarchy of *this* graph: a wrong magic, version or flags; a file written for another graph
//! (vertex count or fingerprint); a length other than the counts imply (checked before any
//! allocation, so a corrupt count cannot ask for memory); a checksum mismatch; and, because
//! the engines index device memory with what it holds, any structure the sweep could not run
//! on safely (offsets that decrease or overrun, ids out of range, a vertex swept twice or both
//! swept and in the core, a downward arc that does not come from a higher level or the core).
//! The checksum detects corruption, not tampering: a crafted file with consistent structure and
//! wrong shortcut weights would give wrong distances, which `--verify` (the certificate) catches.

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::Path;
use std::time::Duration;

use super::{Arrays, CoreTable, Hierarchy, HierarchyStats};
use crate::error::{Error, Result};
use crate::graph::Graph;
use crate::io::binary::section_sum;
use crate::mem::try_vec;
use crate::rng::{hash2, mix64};

/// File magic.
pub const MAGIC: [u8; 8] = *b"SSSPCH\0\0";
/// Format version written and accepted.
pub const VERSION: u32 = 1;
const FLAG_TABLE: u32 = 1;
const FLAG_SATURATED: u32 = 2;
const HEADER_LEN: u64 = 104;

/// Why a hierarchy path that is not a regular file is refused: the file is read at the length
/// its header implies and written by a rename into place, which neither a fifo nor a device
/// (nor standard input) can be.
pub(crate) const NOT_REGULAR: &str =
    "not a regular file: a hierarchy file is read at the length its header implies and written by renaming into place";

/// A 64-bit fingerprint of a graph's CSR as the engines see it (sizes, offsets, targets, the
/// engine weights and their metric): a hierarchy file names the graph it was built from.
pub fn fingerprint(g: &Graph) -> u64 {
    let sum = |b: &[u8]| section_sum(b, 0);
    let mut h = hash2(g.num_vertices() as u64, g.num_arcs() as u64);
    for part in [sum(bytes(g.offsets())), sum(bytes(g.targets())), sum(bytes(g.engine_weights()))] {
        h = hash2(h, part);
    }
    hash2(h, g.metric().code() as u64)
}

/// The integer types the file holds: no padding bytes, every bit pattern valid.
trait Plain: Copy + Send + Default {}
impl Plain for u32 {}
impl Plain for u64 {}

/// The bytes of a slice of plain integers.
fn bytes<T: Plain>(x: &[T]) -> &[u8] {
    // SAFETY: `T: Plain`: no padding, every byte initialised.
    unsafe { std::slice::from_raw_parts(x.as_ptr() as *const u8, std::mem::size_of_val(x)) }
}

fn bytes_mut<T: Plain>(x: &mut [T]) -> &mut [u8] {
    // SAFETY: as `bytes`; every bit pattern is a valid `T`.
    unsafe { std::slice::from_raw_parts_mut(x.as_mut_ptr() as *mut u8, std::mem::size_of_val(x)) }
}

/// Bytes of an array of `len` items of `size` bytes, padded to 8; `None` on overflow.
fn padded(len: u64, size: u64) -> Option<u64> {
    len.checked_mul(size)?.checked_add(7).map(|b| b & !7)
}

/// The header's counts (offsets 32..96).
#[derive(Clone, Copy)]
struct Counts {
    up_arcs: u64,
    swept: u64,
    starts: u64,
    down_arcs: u64,
    table: u64,
    shortcuts: u64,
    core: u64,
    build_ns: u64,
}

impl Counts {
    fn words(&self) -> [u64; 8] {
        [self.up_arcs, self.swept, self.starts, self.down_arcs, self.table, self.shortcuts, self.core, self.build_ns]
    }

    /// The body's arrays as (items, bytes per item), in file order, for `n` vertices.
    fn arrays(&self, n: u64) -> Option<[(u64, u64); 10]> {
        Some([
            (n.checked_add(1)?, 8),
            (self.up_arcs, 4),
            (self.up_arcs, 4),
            (self.swept, 4),
            (self.starts, 4),
            (self.swept.checked_add(1)?, 8),
            (self.down_arcs, 4),
            (self.down_arcs, 4),
            (self.table, 4),
            (self.table.checked_mul(self.table)?, 4),
        ])
    }

    /// The file length these counts imply.
    fn file_len(&self, n: u64) -> Option<u64> {
        self.arrays(n)?.iter().try_fold(HEADER_LEN, |at, &(len, size)| at.checked_add(padded(len, size)?))
    }
}

/// The checksum of the header fields and the body's per-array sums (each array's sum taken at
/// its word position in the body, so the result is the binary format's sum over the body).
fn checksum(version: u32, flags: u32, n: u64, print: u64, counts: &Counts, body: u64) -> u64 {
    let mut h = hash2((version as u64) << 32 | flags as u64, n);
    for w in std::iter::once(print).chain(counts.words()) {
        h = hash2(h, w);
    }
    mix64(body ^ h)
}

/// The body being read, array by array, with its running sum.
struct Body<'a> {
    r: BufReader<File>,
    path: &'a Path,
    sum: BodySum,
}

impl Body<'_> {
    /// The next array: `len` items (the file length was checked against the counts, so `len`
    /// is what the file holds), then its zero padding.
    fn read<T: Plain>(&mut self, len: u64) -> Result<Vec<T>> {
        let io = |e| Error::io(self.path, e);
        let mut v = try_vec(len as usize, T::default())?;
        self.r.read_exact(bytes_mut(&mut v)).map_err(io)?;
        let mut pad = [0u8; 8];
        let pad = &mut pad[..(8 - std::mem::size_of_val(&v[..]) % 8) % 8];
        self.r.read_exact(pad).map_err(io)?;
        if pad.iter().any(|&x| x != 0) {
            return Err(Error::parse(self.path, 0, "non-zero padding after an array: the file is corrupt"));
        }
        self.sum.add(bytes(&v));
        Ok(v)
    }

    fn u64s(&mut self, len: u64) -> Result<Vec<u64>> {
        self.read(len)
    }

    fn u32s(&mut self, len: u64) -> Result<Vec<u32>> {
        self.read(len)
    }
}

/// Running sum over the body's arrays, in file order.
struct BodySum {
    word: u64,
    sum: u64,
}

impl BodySum {
    fn add(&mut self, b: &[u8]) {
        self.sum = self.sum.wrapping_add(section_sum(b, self.word));
        self.word += (b.len() as u64).div_ceil(8);
    }
}

impl Hierarchy {
    /// Write this hierarchy of `g` to `path` (through a temporary file beside it, renamed
    /// into place when complete, so a reader never sees half a file).
    pub fn write(&self, g: &Graph, path: &Path) -> Result<()> {
        if g.num_vertices() as u32 != self.n || g.num_vertices() > u32::MAX as usize {
            return Err(Error::InvalidArgument(format!(
                "a hierarchy of a {}-vertex graph written for one of {}",
                self.n,
                g.num_vertices()
            )));
        }
        let io = |e| Error::io(path, e);
        let t = self.table.as_ref();
        let empty: &[u32] = &[];
        let (core, table) = t.map_or((empty, empty), |t| (&t.vertices[..], &t.dist[..]));
        let flags = t.map_or(0, |t| FLAG_TABLE | if t.saturated { FLAG_SATURATED } else { 0 });
        let counts = Counts {
            up_arcs: self.up_heads.len() as u64,
            swept: self.order.len() as u64,
            starts: self.level_starts.len() as u64,
            down_arcs: self.down_tails.len() as u64,
            table: core.len() as u64,
            shortcuts: self.stats.shortcuts,
            core: self.stats.core as u64,
            build_ns: self.stats.build.as_nanos().min(u64::MAX as u128) as u64,
        };
        let arrays: [&[u8]; 10] = [
            bytes(&self.up_offsets),
            bytes(&self.up_heads),
            bytes(&self.up_weights),
            bytes(&self.order),
            bytes(&self.level_starts),
            bytes(&self.down_offsets),
            bytes(&self.down_tails),
            bytes(&self.down_weights),
            bytes(core),
            bytes(table),
        ];
        let mut body = BodySum { word: 0, sum: 0 };
        arrays.iter().for_each(|a| body.add(a));
        let print = fingerprint(g);
        let n = self.n as u64;
        let sum = checksum(VERSION, flags, n, print, &counts, body.sum);
        let tmp = path.with_file_name(format!(
            ".{}.tmp{}",
            path.file_name().map_or("hierarchy".into(), |s| s.to_string_lossy()),
            std::process::id()
        ));
        let result = (|| -> std::io::Result<()> {
            let mut w = BufWriter::new(File::create(&tmp)?);
            w.write_all(&MAGIC)?;
            w.write_all(&VERSION.to_le_bytes())?;
            w.write_all(&flags.to_le_bytes())?;
            for x in [n, print].into_iter().chain(counts.words()).chain([sum]) {
                w.write_all(&x.to_le_bytes())?;
            }
            for a in arrays {
                w.write_all(a)?;
                w.write_all(&[0u8; 8][..(8 - a.len() % 8) % 8])?;
            }
            w.into_inner().map_err(|e| e.into_error())?.sync_all()
        })();
        match result.and_then(|()| std::fs::rename(&tmp, path)) {
            Ok(()) => Ok(()),
            Err(e) => {
                let _ = std::fs::remove_file(&tmp);
                Err(io(e))
            }
        }
    }

    /// Read a hierarchy of `g` written by [`Hierarchy::write`] (see the module doc for what is
    /// checked). Errors: [`Error::Io`], [`Error::Parse`] (line 0) for anything that is not a
    /// sound hierarchy of `g` (a path that is not a regular file included: a fifo or a device
    /// is refused before it is opened, since opening a fifo waits for a writer for ever),
    /// [`Error::OutOfHostMemory`].
    pub fn read(g: &Graph, path: &Path) -> Result<Hierarchy> {
        let bad = |msg: String| Error::Parse { path: path.into(), line: 0, msg };
        let io = |e| Error::io(path, e);
        if !std::fs::metadata(path).map_err(io)?.is_file() {
            return Err(bad(NOT_REGULAR.into()));
        }
        let file = File::open(path).map_err(io)?;
        let len = file.metadata().map_err(io)?.len();
        let mut r = BufReader::new(file);
        if len < HEADER_LEN {
            return Err(bad(format!("{len} bytes: too short for a hierarchy file ({HEADER_LEN}-byte header)")));
        }
        let mut head = [0u8; HEADER_LEN as usize];
        r.read_exact(&mut head).map_err(io)?;
        let word = |i: usize| u64::from_le_bytes(head[i..i + 8].try_into().expect("8 bytes"));
        if head[..8] != MAGIC {
            return Err(bad(
                "not a hierarchy file (expected the magic SSSPCH, as `sssp run --hierarchy` writes)".into()
            ));
        }
        let version = u32::from_le_bytes(head[8..12].try_into().expect("4 bytes"));
        let flags = u32::from_le_bytes(head[12..16].try_into().expect("4 bytes"));
        if version != VERSION {
            return Err(bad(format!("hierarchy file version {version}; this build reads version {VERSION}")));
        }
        if flags & !(FLAG_TABLE | FLAG_SATURATED) != 0 || (flags & FLAG_SATURATED != 0 && flags & FLAG_TABLE == 0) {
            return Err(bad(format!("unknown flags {flags:#x}")));
        }
        let (n, print) = (word(16), word(24));
        if n != g.num_vertices() as u64 || print != fingerprint(g) {
            return Err(bad(format!(
                "written for another graph ({n} vertices, fingerprint {print:#018x}; this one: {} vertices, {:#018x})",
                g.num_vertices(),
                fingerprint(g)
            )));
        }
        let c = Counts {
            up_arcs: word(32),
            swept: word(40),
            starts: word(48),
            down_arcs: word(56),
            table: word(64),
            shortcuts: word(72),
            core: word(80),
            build_ns: word(88),
        };
        let want = c.file_len(n);
        if want != Some(len) {
            return Err(bad(format!(
                "{len} bytes, but its counts imply {}: truncated or corrupt",
                want.map_or("more than 2^64".into(), |w| w.to_string())
            )));
        }
        if (flags & FLAG_TABLE == 0) != (c.table == 0) {
            return Err(bad("the table flag and the table size disagree".into()));
        }
        let mut b = Body { r, path, sum: BodySum { word: 0, sum: 0 } };
        let up = (b.u64s(n + 1)?, b.u32s(c.up_arcs)?, b.u32s(c.up_arcs)?);
        let (order, level_starts) = (b.u32s(c.swept)?, b.u32s(c.starts)?);
        let down = (b.u64s(c.swept + 1)?, b.u32s(c.down_arcs)?, b.u32s(c.down_arcs)?);
        let (core, dist) = (b.u32s(c.table)?, b.u32s(c.table * c.table)?);
        let body = b.sum;
        if checksum(version, flags, n, print, &c, body.sum) != word(96) {
            return Err(bad("checksum mismatch: the file is corrupt".into()));
        }
        let table = (c.table > 0).then_some((core, dist, flags & FLAG_SATURATED != 0));
        let h = Hierarchy::checked(
            n as u32,
            up,
            order,
            level_starts,
            down,
            table,
            HierarchyStats {
                shortcuts: c.shortcuts,
                levels: 0,
                core: c.core.min(u32::MAX as u64) as u32,
                core_table: c.table > 0,
                up_arcs: c.up_arcs,
                down_arcs: c.down_arcs,
                build: Duration::from_nanos(c.build_ns),
            },
        );
        h.map_err(bad)
    }

    /// A hierarchy from read arrays, after checking everything the engines rely on (see the
    /// module doc); the message says what is wrong.
    fn checked(
        n: u32,
        up: Arrays,
        order: Vec<u32>,
        level_starts: Vec<u32>,
        down: Arrays,
        table: Option<(Vec<u32>, Vec<u32>, bool)>,
        mut stats: HierarchyStats,
    ) -> std::result::Result<Hierarchy, String> {
        let nu = n as usize;
        csr_ok("upward", &up, n)?;
        csr_ok("downward", &down, n)?;
        // Level of every swept vertex (u32::MAX: not swept, i.e. in the core).
        let mut level = try_vec(nu, u32::MAX).map_err(|e| e.to_string())?;
        let starts_ok = level_starts.first() == Some(&0)
            && level_starts.last() == Some(&(order.len() as u32))
            && level_starts.windows(2).all(|w| w[0] < w[1])
            && order.len() <= nu;
        if !starts_ok {
            return Err("level starts do not split the sweep order into non-empty levels".into());
        }
        for (k, w) in level_starts.windows(2).enumerate() {
            for &v in &order[w[0] as usize..w[1] as usize] {
                if v >= n || level[v as usize] != u32::MAX {
                    return Err(format!("sweep order: vertex {v} out of range or swept twice"));
                }
                level[v as usize] = k as u32;
            }
        }
        let core = nu - order.len();
        if stats.core as usize != core {
            return Err(format!("{} core vertices stated, {core} not swept", stats.core));
        }
        for (i, &v) in order.iter().enumerate() {
            for j in down.0[i]..down.0[i + 1] {
                let u = down.1[j as usize];
                if level[u as usize] != u32::MAX && level[u as usize] >= level[v as usize] {
                    return Err(format!("downward arc {u} -> {v} does not come from a higher level"));
                }
            }
        }
        let table = match table {
            None => None,
            Some((vertices, dist, saturated)) => {
                if vertices.len() != core {
                    return Err(format!("a table of {} vertices for a core of {core}", vertices.len()));
                }
                let mut row = try_vec(nu, u32::MAX).map_err(|e| e.to_string())?;
                for (i, &v) in vertices.iter().enumerate() {
                    if v >= n || level[v as usize] != u32::MAX || row[v as usize] != u32::MAX {
                        return Err(format!("core vertex {v} out of range, swept, or listed twice"));
                    }
                    row[v as usize] = i as u32;
                }
                Some(CoreTable { vertices, row, dist, saturated })
            }
        };
        stats.levels = level_starts.len() as u32 - 1;
        Hierarchy::from_parts(n, up, order, level_starts, down, table, stats).map_err(|e| e.to_string())
    }
}

/// A CSR's offsets start at 0, never decrease and end at the arc count, its ids are `< n`,
/// and it has a weight per arc.
fn csr_ok(what: &str, (offsets, ids, weights): &Arrays, n: u32) -> std::result::Result<(), String> {
    let ok = offsets.first() == Some(&0)
        && offsets.last() == Some(&(ids.len() as u64))
        && offsets.windows(2).all(|w| w[0] <= w[1])
        && weights.len() == ids.len();
    if !ok {
        return Err(format!("{what} offsets do not run from 0 to the arc count without decreasing"));
    }
    match ids.iter().position(|&x| x >= n) {
        Some(i) => Err(format!("{what} arc {i} names vertex {} of {n}", ids[i])),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{generate, GenSpec};
    use crate::graph::WeightSpec;

    /// A file written from a hierarchy broken by `spoil` (so its checksum is right) is refused
    /// with a message containing `want`.
    fn refused(g: &Graph, base: &Hierarchy, spoil: impl Fn(&mut Hierarchy), want: &str) {
        let mut h = Hierarchy::checked(
            base.n,
            (base.up_offsets.clone(), base.up_heads.clone(), base.up_weights.clone()),
            base.order.clone(),
            base.level_starts.clone(),
            (base.down_offsets.clone(), base.down_tails.clone(), base.down_weights.clone()),
            base.table.as_ref().map(|t| (t.vertices.clone(), t.dist.clone(), t.saturated)),
            base.stats.clone(),
        )
        .unwrap();
        spoil(&mut h);
        let path = std::env::temp_dir().join(format!("sssp-chfile-{}-{want}.ch", std::process::id()));
        h.write(g, &path).unwrap();
        let r = Hierarchy::read(g, &path);
        let _ = std::fs::remove_file(&path);
        match r {
            Err(Error::Parse { msg, .. }) => assert!(msg.contains(want), "expected '{want}', got '{msg}'"),
            other => panic!("expected a refusal ({want}), got {:?}", other.map(|h| h.stats)),
        }
    }

    #[test]
    fn structure_that_the_sweep_cannot_run_on_is_refused() {
        let g = generate(&GenSpec::parse("grid2d:12x12").unwrap(), 3, WeightSpec::AsGiven).unwrap();
        let h = Hierarchy::build(&g).unwrap();
        assert!(h.level_starts.len() > 3 && !h.down_tails.is_empty());
        // A downward arc from the vertex's own level: the sweep would race.
        let last = *h.order.last().unwrap();
        refused(&g, &h, |h| *h.down_tails.last_mut().unwrap() = last, "does not come from a higher level");
        refused(&g, &h, |h| h.order[1] = h.order[0], "swept twice");
        refused(&g, &h, |h| h.level_starts[1] = 0, "level starts");
        refused(&g, &h, |h| h.up_heads[0] = 144, "names vertex 144");
        refused(&g, &h, |h| h.down_tails[0] = 1000, "names vertex 1000");
        refused(&g, &h, |h| h.up_offsets[1] = u64::MAX, "offsets");
        refused(&g, &h, |h| h.stats.core = 1, "core vertices stated");
        // A table whose one core vertex is swept too (the swept-last vertex made the core).
        refused(
            &g,
            &h,
            |h| {
                h.stats.core = 1;
                h.order.pop();
                *h.level_starts.last_mut().unwrap() -= 1;
                h.down_offsets.pop();
                let k = *h.down_offsets.last().unwrap() as usize;
                h.down_tails.truncate(k);
                h.down_weights.truncate(k);
                h.table = Some(CoreTable { vertices: vec![h.order[0]], row: vec![], dist: vec![0], saturated: false });
            },
            "core vertex",
        );
    }

    #[test]
    fn fingerprints_tell_graphs_apart() {
        let a = Graph::from_arcs(3, &[(0, 1, 1), (1, 2, 1)]).unwrap();
        let b = Graph::from_arcs(3, &[(0, 1, 1), (1, 2, 2)]).unwrap();
        let c = Graph::from_arcs(3, &[(0, 1, 1), (0, 2, 1)]).unwrap();
        assert_eq!(fingerprint(&a), fingerprint(&Graph::from_arcs(3, &[(0, 1, 1), (1, 2, 1)]).unwrap()));
        assert_ne!(fingerprint(&a), fingerprint(&b));
        assert_ne!(fingerprint(&a), fingerprint(&c));
    }
}
