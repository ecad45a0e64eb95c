//! Our binary CSR format (`.bin`, `.sssp`): a graph that opens in O(size / bandwidth) with no
//! parsing and no copy, because the arrays are used straight from a memory map.
//!
//! # Layout
//!
//! Little-endian; every array starts at a multiple of 8 bytes from the file start.
//!
//! | offset | size | content |
//! |---|---|---|
//! | 0 | 8 | magic `b"SSSPCSR\0"` |
//! | 8 | 4 | `u32` version = 1 |
//! | 12 | 4 | `u32` flags: bit 0 = weights are signed (`i32`), bit 1 = weights are real (`f32` bit patterns, finite, `>= +0.0`), not both; other bits 0 |
//! | 16 | 8 | `u64` n (vertices) |
//! | 24 | 8 | `u64` m (arcs) |
//! | 32 | 8 | `u64` checksum (below) |
//! | 40 | 8(n+1) | offsets, `u64` |
//! | T = 48 + 8n | 4m | targets, `u32` |
//! | W = T + 4m rounded up to 8 | 4m | weights, `u32` or `i32` per flag bit 0 |
//! | W + 4m | 0 or 4 | zero padding to a multiple of 8: the file length is `W + 4m` rounded up to 8 |
//!
//! # Checksum
//!
//! The *body* (everything from byte 40 to the end, padding included) is read as little-endian
//! `u64` words `x_0, x_1, ...`. With `K = 0x9E3779B97F4A7C15` and `mix64` the SplitMix64 finaliser
//! ([`crate::rng::mix64`]):
//!
//! ```text
//! S        = sum over i of mix64(x_i ^ (i * K))            (wrapping u64 sum)
//! checksum = mix64(S ^ hash2(hash2(n, m), version << 32 | flags))
//! ```
//!
//! `mix64` is a bijection, so changing any single word always changes `S`; the position key makes
//! swapped words count; and the header fields are folded in. Because the sum is associative the
//! body is hashed in parallel blocks and combined in any order with the same result. It is not a
//! cryptographic hash: it detects corruption and truncation, not tampering.
//!
//! # Opening
//!
//! [`open`] maps the file read-only, checks magic, version, flags, sizes and exact file length,
//! verifies the checksum (O(file size), in parallel, at roughly memory bandwidth; it touches every
//! page once), then hands the mapped arrays to [`Graph::from_csr`], which checks that offsets
//! start at 0, never decrease and end at m, and that targets are below n. Every problem is an
//! [`Error::Parse`] with line 0.
//!
//! The map is shared and read-only; like any memory map, truncating the file while the graph is
//! alive is undefined behaviour (typically SIGBUS), which is why writers should write a new file
//! rather than rewrite one in place. A `.gz`/`.xz` compressed binary file is decompressed into an
//! anonymous map instead.
//!
//! Big-endian hosts are refused with an error: the arrays are used in place, and byte-swapping
//! them would defeat the point of the format.

use std::fs::File;
use std::io::Write;
use std::path::Path;
use std::sync::Arc;

use memmap2::{Mmap, MmapOptions};
use rayon::prelude::*;

use crate::error::{Error, Result};
use crate::graph::{Buf, Graph, Weights};
use crate::rng::{hash2, mix64};

/// File magic.
pub const MAGIC: [u8; 8] = *b"SSSPCSR\0";
/// Format version written and accepted.
pub const VERSION: u32 = 1;
/// Flag bit: weights are `i32` (otherwise `u32`).
pub const FLAG_SIGNED: u32 = 1;
/// Flags bit 1: the weights are real, stored as `f32` bit patterns ([`Weights::Real`]).
pub const FLAG_REAL: u32 = 2;
/// Bytes before the offsets array.
pub const HEADER_LEN: usize = 40;

/// Position key multiplier (2^64 / golden ratio).
const K: u64 = 0x9E37_79B9_7F4A_7C15;
/// Words per parallel checksum block (1 MiB).
const BLOCK_WORDS: usize = 1 << 17;

/// Write `g` to `path` in the binary format. A `.gz` or `.xz` suffix compresses the file (it then
/// opens through an anonymous map instead of the file's, see [`open`]).
pub fn write(g: &Graph, path: &Path) -> Result<()> {
    refuse_big_endian()?;
    let io = |e| Error::io(path, e);
    let mut out = super::Sink::create(path)?;
    write_to(g, &mut out).and_then(|()| out.finish()).map_err(io)
}

/// The binary form of `g` to any writer.
fn write_to<W: Write>(g: &Graph, out: &mut W) -> std::io::Result<()> {
    let n = g.num_vertices() as u64;
    let m = g.num_arcs() as u64;
    let (flags, weight_bytes): (u32, &[u8]) = match g.weights() {
        Weights::Unsigned(w) => (0, as_bytes(&w[..])),
        Weights::Signed(w) => (FLAG_SIGNED, as_bytes(&w[..])),
        Weights::Real(w) => (FLAG_REAL, as_bytes(&w[..])),
    };
    let offsets = as_bytes(g.offsets());
    let targets = as_bytes(g.targets());

    // The body is three 8-aligned sections; hash each with its first word index.
    let targets_word = offsets.len() / 8;
    let weights_word = targets_word + targets.len().div_ceil(8);
    let sum = section_sum(offsets, 0)
        .wrapping_add(section_sum(targets, targets_word as u64))
        .wrapping_add(section_sum(weight_bytes, weights_word as u64));
    let checksum = finish(sum, VERSION, flags, n, m);

    let mut header = Vec::with_capacity(HEADER_LEN);
    header.extend_from_slice(&MAGIC);
    header.extend_from_slice(&VERSION.to_le_bytes());
    header.extend_from_slice(&flags.to_le_bytes());
    header.extend_from_slice(&n.to_le_bytes());
    header.extend_from_slice(&m.to_le_bytes());
    header.extend_from_slice(&checksum.to_le_bytes());
    let pad = [0u8; 8];
    out.write_all(&header)?;
    out.write_all(offsets)?;
    out.write_all(targets)?;
    out.write_all(&pad[..padding(targets.len())])?;
    out.write_all(weight_bytes)?;
    out.write_all(&pad[..padding(weight_bytes.len())])
}

/// Open a binary graph by memory-mapping it (see the module docs for what is checked). A
/// compressed file, or a stream (standard input for `-`, a fifo), is read into an anonymous map
/// first, no further than its header's length.
pub fn open(path: &Path) -> Result<Graph> {
    refuse_big_endian()?;
    let io = |e| Error::io(path, e);
    if !super::source::rereadable(path) {
        return open_copied(path);
    }
    let file = File::open(path).map_err(io)?;
    let len = file.metadata().map_err(io)?.len();
    if len < HEADER_LEN as u64 {
        return Err(corrupt(path, format!("truncated: {len} bytes, but the header alone is {HEADER_LEN}")));
    }
    let mut head = [0u8; 6];
    {
        use std::io::Read;
        (&file).read_exact(&mut head).map_err(io)?;
    }
    if super::Compression::sniff(&head) != super::Compression::None {
        return open_copied(path);
    }
    // SAFETY: the map is read-only and private to this process; the file changing underneath is
    // the documented caveat of memory-mapped files (see the module docs).
    let map = unsafe { Mmap::map(&file) }.map_err(io)?;
    from_map(path, Arc::new(map))
}

/// The length a header declares, for reading a stream no further ([`super::Shape::Binary`]).
fn declared_len(head: &[u8]) -> Option<u64> {
    let h = Header::read(head).ok()?;
    Some(Layout::of(h.n, h.m)?.end)
}

/// A compressed or streamed binary graph: read into an anonymous map, then used like a file map.
fn open_copied(path: &Path) -> Result<Graph> {
    let shape = super::Shape::Binary { header: HEADER_LEN, len: declared_len };
    let bytes = super::read_bytes(path, false, shape)?;
    if bytes.len() < HEADER_LEN {
        return Err(corrupt(path, format!("truncated: {} bytes, but the header alone is {HEADER_LEN}", bytes.len())));
    }
    let mut anon = MmapOptions::new().len(bytes.len()).map_anon().map_err(|e| Error::io(path, e))?;
    anon.copy_from_slice(&bytes);
    drop(bytes);
    let map = anon.make_read_only().map_err(|e| Error::io(path, e))?;
    from_map(path, Arc::new(map))
}

/// Validate a mapped binary graph and build the graph on views of it.
fn from_map(path: &Path, map: Arc<Mmap>) -> Result<Graph> {
    let h = Header::read(&map).map_err(|m| corrupt(path, m))?;
    let layout = Layout::of(h.n, h.m)
        .ok_or_else(|| corrupt(path, format!("sizes n = {} and m = {} are impossible", h.n, h.m)))?;
    if map.len() as u64 != layout.end {
        let what = if (map.len() as u64) < layout.end { "truncated" } else { "too long" };
        return Err(corrupt(
            path,
            format!("{what}: {} bytes, but n = {} and m = {} need {}", map.len(), h.n, h.m, layout.end),
        ));
    }
    let sum = section_sum(&map[HEADER_LEN..], 0);
    let expected = finish(sum, h.version, h.flags, h.n, h.m);
    if expected != h.checksum {
        return Err(corrupt(
            path,
            format!("checksum mismatch (stored {:#018x}, computed {expected:#018x}): the file is corrupt", h.checksum),
        ));
    }
    let (n1, m) = ((h.n + 1) as usize, h.m as usize);
    let view_failed = || corrupt(path, "arrays are out of bounds or misaligned".to_string());
    // SAFETY: u64/u32/i32 accept every bit pattern; bounds and alignment are checked by `mapped`.
    let offsets = unsafe { Buf::<u64>::mapped(map.clone(), HEADER_LEN, n1) }.ok_or_else(view_failed)?;
    let targets = unsafe { Buf::<u32>::mapped(map.clone(), layout.targets as usize, m) }.ok_or_else(view_failed)?;
    let weights = if h.flags & FLAG_SIGNED != 0 {
        Weights::Signed(unsafe { Buf::<i32>::mapped(map.clone(), layout.weights as usize, m) }.ok_or_else(view_failed)?)
    } else if h.flags & FLAG_REAL != 0 {
        let w = unsafe { Buf::<u32>::mapped(map, layout.weights as usize, m) }.ok_or_else(view_failed)?;
        // Every engine relies on real weights being finite and non-negative: check, by name.
        if let Some(e) = w.par_iter().position_any(|&b| crate::graph::real_weight(f32::from_bits(b)) != Ok(b)) {
            return Err(corrupt(
                path,
                format!("arc {e} has weight bits {:#x}, not a finite real weight >= +0.0", w[e]),
            ));
        }
        Weights::Real(w)
    } else {
        Weights::Unsigned(unsafe { Buf::<u32>::mapped(map, layout.weights as usize, m) }.ok_or_else(view_failed)?)
    };
    let g = Graph::from_csr(offsets, targets, weights).map_err(|e| corrupt(path, format!("invalid graph: {e}")))?;
    // A signed graph always has a negative weight (see `Weights`); a file whose flag says signed
    // without one would reach the solvers as a contradiction, so it is refused here, by name.
    if let Weights::Signed(w) = g.weights() {
        if !w.par_iter().any(|&x| x < 0) {
            return Err(corrupt(
                path,
                "the flags say signed weights, but no weight is negative (a writer bug; rewrite it with `sssp convert`)"
                    .into(),
            ));
        }
    }
    Ok(g)
}

struct Header {
    version: u32,
    flags: u32,
    n: u64,
    m: u64,
    checksum: u64,
}

impl Header {
    fn read(b: &[u8]) -> std::result::Result<Header, String> {
        let u32_at = |o: usize| u32::from_le_bytes(b[o..o + 4].try_into().expect("4 bytes"));
        let u64_at = |o: usize| u64::from_le_bytes(b[o..o + 8].try_into().expect("8 bytes"));
        if b.len() < HEADER_LEN {
            return Err(format!("truncated: {} bytes, but the header alone is {HEADER_LEN}", b.len()));
        }
        if b[..8] != MAGIC {
            return Err("not an sssp binary graph (bad magic; expected `SSSPCSR\\0`)".into());
        }
        let h = Header { version: u32_at(8), flags: u32_at(12), n: u64_at(16), m: u64_at(24), checksum: u64_at(32) };
        if h.version != VERSION {
            return Err(format!("unsupported version {} (this build reads version {VERSION})", h.version));
        }
        if h.flags & !(FLAG_SIGNED | FLAG_REAL) != 0 || h.flags == FLAG_SIGNED | FLAG_REAL {
            return Err(format!("unknown flags {:#x}", h.flags));
        }
        Ok(h)
    }
}

/// Byte offsets of the arrays and the file length for `n` vertices and `m` arcs.
struct Layout {
    targets: u64,
    weights: u64,
    end: u64,
}

impl Layout {
    fn of(n: u64, m: u64) -> Option<Layout> {
        let targets = (n.checked_add(1)?).checked_mul(8)?.checked_add(HEADER_LEN as u64)?;
        let weights = round8(targets.checked_add(m.checked_mul(4)?)?)?;
        let end = round8(weights.checked_add(m.checked_mul(4)?)?)?;
        // Everything must be addressable on this host.
        usize::try_from(end).ok()?;
        Some(Layout { targets, weights, end })
    }
}

fn round8(x: u64) -> Option<u64> {
    Some(x.checked_add(7)? & !7)
}

fn padding(len: usize) -> usize {
    (8 - len % 8) % 8
}

/// Wrapping sum of `mix64(word ^ (index * K))` over `bytes` as little-endian words, the first
/// having index `first`; a final partial word is zero-padded (as the file's padding is).
pub(crate) fn section_sum(bytes: &[u8], first: u64) -> u64 {
    bytes
        .par_chunks(BLOCK_WORDS * 8)
        .enumerate()
        .map(|(b, block)| block_sum(block, first + (b * BLOCK_WORDS) as u64))
        .reduce(|| 0, u64::wrapping_add)
}

/// [`section_sum`] of one block, serially. With AVX2 (found at run time) 8 words go abreast in
/// vector registers ([`block_sum_lanes`]): 1.2 ns a word instead of 4.2 on one core of the
/// 2-core machine, so that opening a file is no longer mostly this sum (kron:23, 2.2 GB: 1.39 s
/// of a 1.86 s open with one thread). Without AVX2 the plain loop is the faster one: the same
/// lanes in SSE2 took 4.8 ns a word, its 64-bit multiplies being emulated.
fn block_sum(block: &[u8], first: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2, checked just above.
        return unsafe { block_sum_avx2(block, first) };
    }
    block_sum_serial(block, first)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn block_sum_avx2(block: &[u8], first: u64) -> u64 {
    block_sum_lanes(block, first)
}

/// Words per group of [`block_sum_lanes`].
const LANES: usize = 8;

/// The sum of [`block_sum_serial`], word `j` of each group of [`LANES`] added into its own
/// accumulator (the sum wraps, so any grouping gives the same total); the words after the
/// last whole group go through the serial loop.
#[inline(always)]
fn block_sum_lanes(block: &[u8], first: u64) -> u64 {
    let mut groups = block.chunks_exact(8 * LANES);
    let mut acc = [0u64; LANES];
    let mut key = [0u64; LANES];
    for (j, k) in key.iter_mut().enumerate() {
        *k = (first + j as u64).wrapping_mul(K);
    }
    for group in &mut groups {
        for j in 0..LANES {
            let x = u64::from_le_bytes(group[8 * j..8 * j + 8].try_into().expect("8 bytes"));
            acc[j] = acc[j].wrapping_add(mix64(x ^ key[j]));
            key[j] = key[j].wrapping_add((LANES as u64).wrapping_mul(K));
        }
    }
    let done = (block.len() / (8 * LANES) * LANES) as u64;
    acc.iter().fold(block_sum_serial(groups.remainder(), first + done), |s, &a| s.wrapping_add(a))
}

/// The definition: `sum of mix64(word_i ^ (i * K))`, a final partial word zero-padded.
fn block_sum_serial(block: &[u8], first: u64) -> u64 {
    let mut words = block.chunks_exact(8);
    let mut s = 0u64;
    let mut i = first;
    for w in &mut words {
        let x = u64::from_le_bytes(w.try_into().expect("8 bytes"));
        s = s.wrapping_add(mix64(x ^ i.wrapping_mul(K)));
        i += 1;
    }
    let tail = words.remainder();
    if !tail.is_empty() {
        let mut last = [0u8; 8];
        last[..tail.len()].copy_from_slice(tail);
        s = s.wrapping_add(mix64(u64::from_le_bytes(last) ^ i.wrapping_mul(K)));
    }
    s
}

fn finish(sum: u64, version: u32, flags: u32, n: u64, m: u64) -> u64 {
    mix64(sum ^ hash2(hash2(n, m), (version as u64) << 32 | flags as u64))
}

fn corrupt(path: &Path, msg: String) -> Error {
    Error::parse(path, 0, msg)
}

fn refuse_big_endian() -> Result<()> {
    if cfg!(target_endian = "big") {
        return Err(Error::InvalidArgument(
            "binary graph files are little-endian and used in place; this host is big-endian".into(),
        ));
    }
    Ok(())
}

/// Marker for the plain integer types whose in-memory bytes are the file's bytes (on
/// little-endian hosts).
trait Plain: Copy {}
impl Plain for u64 {}
impl Plain for u32 {}
impl Plain for i32 {}

fn as_bytes<T: Plain>(s: &[T]) -> &[u8] {
    // SAFETY: `T` is a plain integer without padding; any initialised value is valid bytes.
    unsafe { std::slice::from_raw_parts(s.as_ptr() as *const u8, std::mem::size_of_val(s)) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::EdgeList;

    /// A per-test scratch directory, removed on drop.
    struct Scratch(std::path::PathBuf);

    impl Scratch {
        fn new(test: &str) -> Scratch {
            let dir = std::env::temp_dir().join(format!("sssp-io-binary-{}-{test}", std::process::id()));
            std::fs::create_dir_all(&dir).unwrap();
            Scratch(dir)
        }

        fn path(&self, name: &str) -> std::path::PathBuf {
            self.0.join(name)
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn sample(signed: bool) -> Graph {
        let mut e = EdgeList::with_capacity(5, 5);
        e.push(0, 1, 3);
        e.push(0, 4, 1);
        e.push(2, 3, if signed { -5 } else { 5 });
        e.push(4, 0, 9);
        e.push(3, 3, 0);
        e.into_graph_as_given().unwrap()
    }

    fn same(a: &Graph, b: &Graph) {
        assert_eq!(a.offsets(), b.offsets());
        assert_eq!(a.targets(), b.targets());
        assert_eq!(
            (0..a.num_arcs()).map(|e| a.weights().get(e)).collect::<Vec<_>>(),
            (0..b.num_arcs()).map(|e| b.weights().get(e)).collect::<Vec<_>>()
        );
        assert_eq!(matches!(a.weights(), Weights::Signed(_)), matches!(b.weights(), Weights::Signed(_)));
    }

    #[test]
    fn round_trip_and_layout() {
        let dir = Scratch::new("round_trip");
        for signed in [false, true] {
            let g = sample(signed);
            let p = dir.path(&format!("g{signed}.bin"));
            write(&g, &p).unwrap();
            let bytes = std::fs::read(&p).unwrap();
            // 40 + 6*8 offsets + 5*4 targets (+4 pad) + 5*4 weights (+4 pad)
            assert_eq!(bytes.len(), 40 + 48 + 24 + 24);
            assert_eq!(&bytes[..8], b"SSSPCSR\0");
            let h = open(&p).unwrap();
            same(&g, &h);
        }
    }

    #[test]
    fn empty_graph() {
        let dir = Scratch::new("empty");
        let g = EdgeList::with_capacity(0, 0).into_graph_as_given().unwrap();
        let p = dir.path("empty.bin");
        write(&g, &p).unwrap();
        let h = open(&p).unwrap();
        assert_eq!((h.num_vertices(), h.num_arcs()), (0, 0));
    }

    fn corrupt_err(dir: &Scratch, bytes: &[u8], name: &str) -> String {
        let p = dir.path(name);
        std::fs::write(&p, bytes).unwrap();
        match open(&p) {
            Err(Error::Parse { line: 0, msg, .. }) => msg,
            other => panic!("expected a parse error, got {other:?}"),
        }
    }

    #[test]
    fn every_corruption_is_an_error() {
        let dir = Scratch::new("corruption");
        let g = sample(false);
        let p = dir.path("good.bin");
        write(&g, &p).unwrap();
        let good = std::fs::read(&p).unwrap();
        for i in 0..good.len() {
            let mut b = good.clone();
            b[i] ^= 0x10;
            corrupt_err(&dir, &b, "flip.bin");
        }
        assert!(corrupt_err(&dir, &good[..good.len() - 8], "short.bin").contains("truncated"));
        assert!(corrupt_err(&dir, &good[..20], "tiny.bin").contains("truncated"));
        assert!(corrupt_err(&dir, b"", "zero.bin").contains("truncated"));
        let mut long = good.clone();
        long.extend_from_slice(&[0; 8]);
        assert!(corrupt_err(&dir, &long, "long.bin").contains("too long"));
        let mut b = good.clone();
        b[0] = b'X';
        assert!(corrupt_err(&dir, &b, "magic.bin").contains("magic"));
        let mut b = good.clone();
        b[16..24].copy_from_slice(&u64::MAX.to_le_bytes());
        assert!(corrupt_err(&dir, &b, "huge.bin").contains("impossible"));
    }

    #[test]
    fn valid_checksum_but_bad_csr_is_still_an_error() {
        let dir = Scratch::new("forged");
        // A writer bug (e.g. a decreasing offset) must not get past `open` just because the
        // checksum matches: forge a file with a correct checksum around bad offsets.
        let g = sample(false);
        let p = dir.path("forged.bin");
        write(&g, &p).unwrap();
        let mut b = std::fs::read(&p).unwrap();
        b[40 + 8..40 + 16].copy_from_slice(&7u64.to_le_bytes());
        let sum = section_sum(&b[HEADER_LEN..], 0);
        let ck = finish(sum, VERSION, 0, 5, 5);
        b[32..40].copy_from_slice(&ck.to_le_bytes());
        assert!(corrupt_err(&dir, &b, "forged2.bin").contains("invalid graph"));
    }

    #[test]
    fn signed_flag_without_a_negative_weight_is_an_error() {
        let dir = Scratch::new("signed_flag");
        let p = dir.path("g.bin");
        write(&sample(false), &p).unwrap();
        let mut b = std::fs::read(&p).unwrap();
        b[12..16].copy_from_slice(&FLAG_SIGNED.to_le_bytes());
        let ck = finish(section_sum(&b[HEADER_LEN..], 0), VERSION, FLAG_SIGNED, 5, 5);
        b[32..40].copy_from_slice(&ck.to_le_bytes());
        assert!(corrupt_err(&dir, &b, "signed.bin").contains("no weight is negative"));
    }

    #[test]
    fn checksum_is_independent_of_blocking() {
        let bytes: Vec<u8> = (0..(BLOCK_WORDS * 8 * 3 + 12)).map(|i| (i * 31 % 251) as u8).collect();
        let whole = section_sum(&bytes, 0);
        let serial = block_sum_serial(&bytes, 0);
        assert_eq!(whole, serial);
        // The lanes (and AVX2 where the CPU has it) sum what the serial loop does, whatever
        // the length and the first word's index.
        for (len, first) in [(0, 0), (7, 3), (64, 1), (65, 9), (1000, 12345), (BLOCK_WORDS * 8 + 13, 1 << 40)] {
            let b = &bytes[..len];
            assert_eq!(block_sum_lanes(b, first), block_sum_serial(b, first), "{len} {first}");
            assert_eq!(block_sum(b, first), block_sum_serial(b, first), "{len} {first}");
        }
        let split = BLOCK_WORDS * 8 + 64;
        assert_eq!(
            whole,
            section_sum(&bytes[..split], 0).wrapping_add(section_sum(&bytes[split..], (split / 8) as u64))
        );
    }
}
