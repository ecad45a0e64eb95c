//! The GAP Benchmark Suite's serialized graphs (`.sg`, and `.wsg` with weights), so that GAP and
//! `sssp` run on the very same file.
//!
//! # Layout
//!
//! What GAP's `WriterBase::WriteSerializedGraph` writes and its `Reader` reads back: the host's
//! byte order (little-endian on every machine GAP and we run on), packed, no padding.
//!
//! | size | content |
//! |---|---|
//! | 1 | `bool` directed (0 or 1) |
//! | 8 | `i64` m: arcs, each undirected edge counted twice |
//! | 8 | `i64` n: vertices |
//! | 8(n+1) | `i64` out-offsets |
//! | 4m or 8m | out-neighbours: `i32` ids (`.sg`), or `(i32 id, i32 weight)` pairs (`.wsg`) |
//! | if directed: 8(n+1) + 4m or 8m | the in-offsets and in-neighbours (the transpose) |
//!
//! An undirected graph lists each edge in both endpoints' rows. Reading takes the out-arrays
//! (the transpose only counts towards the exact length check, which bounds every allocation by
//! the file's size before any is made); writing computes the transpose of a directed graph.
//! Weights are `i32`: a `u32` weight past `i32::MAX` or a real (`f32`) weight cannot be written
//! to `.wsg`, and `.sg` drops weights (reading one gives weights per `--weights`, as any
//! unweighted format does; an undirected file's two arcs of an edge get the same weight).

use std::io::Write;
use std::path::Path;

use rayon::prelude::*;

use super::{read_bytes, with_options, LoadOptions, Shape, Sink};
use crate::error::{Error, Result};
use crate::graph::{Buf, EdgeList, Graph, Weights, MAX_VERTICES};

/// Bytes before the out-offsets: the directed flag, m and n.
const HEADER: usize = 17;

/// Read a `.sg` (`weighted = false`) or `.wsg` file (compressed or not).
pub fn read(path: &Path, weighted: bool, opts: &LoadOptions) -> Result<Graph> {
    let shape = Shape::Binary { header: HEADER, len: if weighted { declared_len::<8> } else { declared_len::<4> } };
    let bytes = read_bytes(path, opts.progress, shape)?;
    let bad = |msg: String| Error::parse(path, 0, msg);
    if bytes.len() < HEADER {
        return Err(bad(format!("truncated: {} bytes, but a GAP serialized graph's header is {HEADER}", bytes.len())));
    }
    let directed = match bytes[0] {
        0 => false,
        1 => true,
        b => return Err(bad(format!("the first byte (directed) is {b}: expected 0 or 1"))),
    };
    let word = |at: usize| i64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
    let (m, n) = (word(1), word(9));
    if n < 0 || m < 0 {
        return Err(bad(format!("negative sizes: {n} vertices, {m} arcs")));
    }
    if n as u64 > MAX_VERTICES {
        return Err(bad(format!("{n} vertices: at most {MAX_VERTICES} fit 32-bit ids")));
    }
    // The exact length, in 128 bits: no header value can overflow it or commit memory first.
    let each = if weighted { 8 } else { 4 };
    let half = 8 * (n as u128 + 1) + each * m as u128;
    let want = HEADER as u128 + if directed { 2 * half } else { half };
    if bytes.len() as u128 != want {
        let what = if weighted { ".wsg" } else { ".sg" };
        return Err(bad(format!(
            "{} bytes, but a {} {what} file of {n} vertices and {m} arcs has {want} (wrong extension, truncated, or not a GAP serialized graph)",
            bytes.len(),
            if directed { "directed" } else { "undirected" }
        )));
    }
    let (n, m) = (n as usize, m as usize);
    let offsets: Vec<u64> = bytes[HEADER..HEADER + 8 * (n + 1)]
        .par_chunks_exact(8)
        .map(|b| i64::from_le_bytes(b.try_into().expect("8 bytes")) as u64)
        .collect();
    if offsets[0] != 0 || offsets[n] != m as u64 || offsets.par_windows(2).any(|w| w[0] > w[1]) {
        return Err(bad(format!("the out-offsets must start at 0, never decrease and end at m = {m}")));
    }
    let body = &bytes[HEADER + 8 * (n + 1)..][..each as usize * m];
    let int = |b: &[u8]| i32::from_le_bytes(b.try_into().expect("4 bytes"));
    let entry = each as usize;
    let targets: Vec<u32> = body.par_chunks_exact(entry).map(|b| int(&b[..4]) as u32).collect();
    if let Some(e) = targets.par_iter().position_first(|&v| v as usize >= n) {
        return Err(bad(format!("arc {e} goes to vertex {}: not below n = {n}", targets[e] as i32)));
    }
    let w: Option<Vec<i32>> = weighted.then(|| body.par_chunks_exact(8).map(|b| int(&b[4..])).collect());
    if !directed {
        unmatched_arc(&offsets, &targets, w.as_deref()).map_or(Ok(()), |msg| Err(bad(msg)))?;
    }
    let Some(w) = w else {
        // No weights: the unweighted formats' rule. An undirected file's edge is listed from
        // both ends; keep one listing (tail <= head) and let the build double it, so that both
        // arcs get the same generated weight.
        let mut src = Vec::with_capacity(if directed { m } else { m / 2 + 1 });
        let mut dst = Vec::with_capacity(src.capacity());
        for u in 0..n {
            for &v in &targets[offsets[u] as usize..offsets[u + 1] as usize] {
                if directed || u as u32 <= v {
                    src.push(u as u32);
                    dst.push(v);
                }
            }
        }
        let edges = EdgeList { num_vertices: n as u32, src, dst, weights: None, undirected: !directed, real: false };
        return edges.into_graph(opts.weights, opts.symmetrize);
    };
    let weights = if w.par_iter().any(|&x| x < 0) {
        Weights::Signed(Buf::Owned(w))
    } else {
        Weights::Unsigned(Buf::Owned(w.into_iter().map(|x| x as u32).collect()))
    };
    let g = Graph::from_csr(Buf::Owned(offsets), Buf::Owned(targets), weights)?.with_both_ways(!directed);
    with_options(g, opts)
}

/// An undirected file lists every edge from both ends: the arcs `u -> v` with `u < v` must be
/// those with `u > v` reversed, weights included (self loops pair with nothing). A file whose
/// rows disagree is not the undirected graph it says it is, and keeping one listing of each
/// edge would silently drop or invent arcs: the first unmatched arc, described, or `None`.
fn unmatched_arc(offsets: &[u64], targets: &[u32], weights: Option<&[i32]>) -> Option<String> {
    let n = offsets.len() - 1;
    let arcs = |down: bool| -> Vec<(u32, u32, i32)> {
        let mut v: Vec<(u32, u32, i32)> = (0..n)
            .into_par_iter()
            .flat_map_iter(|u| {
                let (lo, hi) = (offsets[u] as usize, offsets[u + 1] as usize);
                (lo..hi).filter_map(move |e| {
                    let (u, t) = (u as u32, targets[e]);
                    let w = weights.map_or(0, |w| w[e]);
                    match down {
                        false if u < t => Some((u, t, w)),
                        true if u > t => Some((t, u, w)),
                        _ => None,
                    }
                })
            })
            .collect();
        v.par_sort_unstable();
        v
    };
    let (up, down) = (arcs(false), arcs(true));
    let differ = up.iter().zip(&down).position(|(a, b)| a != b).unwrap_or(up.len().min(down.len()));
    if differ == up.len() && up.len() == down.len() {
        return None;
    }
    // The smaller of the two at the first difference is the arc without its reverse.
    let (a, b) = (up.get(differ), down.get(differ));
    let (u, v, w) = match (a, b) {
        (Some(a), Some(b)) if a < b => *a,
        (_, Some(&(t, u, w))) => (u, t, w),
        (Some(a), None) => *a,
        (None, None) => return None,
    };
    let weight = weights.map(|_| format!(" of weight {w}")).unwrap_or_default();
    Some(format!(
        "the header says undirected, but arc {u} -> {v}{weight} is not listed as {v} -> {u}{weight} too \
         (an undirected file lists every edge in both endpoints' rows)"
    ))
}

/// The length a header declares with `EACH` bytes per arc entry, for reading a stream no
/// further ([`Shape::Binary`]); `None` for a header that is no GAP header (the reader says why).
fn declared_len<const EACH: u128>(head: &[u8]) -> Option<u64> {
    let directed = match head[0] {
        0 => false,
        1 => true,
        _ => return None,
    };
    let word = |at: usize| i64::from_le_bytes(head[at..at + 8].try_into().expect("8 bytes"));
    let (m, n) = (u128::try_from(word(1)).ok()?, u128::try_from(word(9)).ok()?);
    let half = 8 * (n + 1) + EACH * m;
    u64::try_from(HEADER as u128 + if directed { 2 * half } else { half }).ok()
}

/// Write `g` as `.sg` (`weighted = false`: the weights are dropped) or `.wsg`. A graph built
/// both ways (`--symmetrize`, undirected formats) is written undirected; any other with its
/// transpose, as GAP's reader expects of a directed graph. Weights that do not fit `i32` are
/// refused before the file is created.
pub fn write(g: &Graph, path: &Path, weighted: bool) -> Result<()> {
    let weights: Option<Vec<i32>> =
        if weighted {
            Some(match g.weights() {
                Weights::Signed(w) => w.to_vec(),
                Weights::Unsigned(w) => match w.par_iter().position_first(|&x| x > i32::MAX as u32) {
                    Some(e) => {
                        return Err(Error::InvalidArgument(format!(
                            "arc {e} weighs {}: GAP's .wsg holds i32 weights (at most {})",
                            w[e],
                            i32::MAX
                        )))
                    }
                    None => w.par_iter().map(|&x| x as i32).collect(),
                },
                Weights::Real(_) => return Err(Error::InvalidArgument(
                    "GAP's .wsg holds integer (i32) weights and this graph has real ones: write mtx, el, wel or bin"
                        .into(),
                )),
            })
        } else {
            None
        };
    let directed = !g.built_both_ways();
    let mut out = Sink::create(path)?;
    let io = |e| Error::io(path, e);
    let n = g.num_vertices();
    let m = g.num_arcs() as i64;
    out.write_all(&[directed as u8]).map_err(io)?;
    out.write_all(&m.to_le_bytes()).map_err(io)?;
    out.write_all(&(n as i64).to_le_bytes()).map_err(io)?;
    put_rows(&mut out, g.offsets(), g.targets(), weights.as_deref()).map_err(io)?;
    if directed {
        let (offsets, sources, w) = transpose(g, weights.as_deref());
        put_rows(&mut out, &offsets, &sources, w.as_deref()).map_err(io)?;
    }
    out.finish().map_err(io)
}

/// The offsets as `i64`, then each neighbour (with its weight when given), little-endian.
fn put_rows(out: &mut impl Write, offsets: &[u64], heads: &[u32], weights: Option<&[i32]>) -> std::io::Result<()> {
    const CHUNK: usize = 1 << 16;
    for part in offsets.chunks(CHUNK) {
        let bytes: Vec<u8> = part.iter().flat_map(|&o| (o as i64).to_le_bytes()).collect();
        out.write_all(&bytes)?;
    }
    for (i, part) in heads.chunks(CHUNK).enumerate() {
        let bytes: Vec<u8> = match weights {
            None => part.iter().flat_map(|&v| (v as i32).to_le_bytes()).collect(),
            Some(w) => part
                .iter()
                .zip(&w[i * CHUNK..])
                .flat_map(|(&v, &x)| {
                    let mut pair = [0u8; 8];
                    pair[..4].copy_from_slice(&(v as i32).to_le_bytes());
                    pair[4..].copy_from_slice(&x.to_le_bytes());
                    pair
                })
                .collect(),
        };
        out.write_all(&bytes)?;
    }
    Ok(())
}

/// The transpose of `g` (each vertex's in-arcs by ascending tail) with the weights alongside.
fn transpose(g: &Graph, weights: Option<&[i32]>) -> (Vec<u64>, Vec<u32>, Option<Vec<i32>>) {
    let n = g.num_vertices();
    let mut offsets = vec![0u64; n + 1];
    for &v in g.targets() {
        offsets[v as usize + 1] += 1;
    }
    for v in 0..n {
        offsets[v + 1] += offsets[v];
    }
    let mut fill = offsets[..n].to_vec();
    let mut sources = vec![0u32; g.num_arcs()];
    let mut w = weights.map(|_| vec![0i32; g.num_arcs()]);
    for u in 0..n {
        let arcs = g.offsets()[u] as usize..g.offsets()[u + 1] as usize;
        for e in arcs {
            let v = g.targets()[e] as usize;
            let at = fill[v] as usize;
            sources[at] = u as u32;
            if let (Some(w), Some(from)) = (w.as_mut(), weights) {
                w[at] = from[e];
            }
            fill[v] += 1;
        }
    }
    (offsets, sources, w)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tmp(name: &str) -> std::path::PathBuf {
        std::env::temp_dir().join(format!("sssp-gap-{}-{name}", std::process::id()))
    }

    /// The layout by hand: a directed 3-vertex graph 0 -> 1 (5), 0 -> 2 (7), 2 -> 1 (1).
    #[test]
    fn wsg_bytes_are_gaps_layout() {
        let g = Graph::from_arcs(3, &[(0, 1, 5), (0, 2, 7), (2, 1, 1)]).unwrap();
        let p = tmp("layout.wsg");
        write(&g, &p, true).unwrap();
        let b = std::fs::read(&p).unwrap();
        let mut want = vec![1u8];
        for x in [3i64, 3, 0, 2, 2, 3] {
            want.extend_from_slice(&x.to_le_bytes()); // m, n, out-offsets
        }
        for (v, w) in [(1i32, 5i32), (2, 7), (1, 1)] {
            want.extend_from_slice(&v.to_le_bytes());
            want.extend_from_slice(&w.to_le_bytes());
        }
        for x in [0i64, 0, 2, 3] {
            want.extend_from_slice(&x.to_le_bytes()); // in-offsets: 1 has 0 and 2, 2 has 0
        }
        for (v, w) in [(0i32, 5i32), (2, 1), (0, 7)] {
            want.extend_from_slice(&v.to_le_bytes());
            want.extend_from_slice(&w.to_le_bytes());
        }
        assert_eq!(b, want);
        std::fs::remove_file(&p).unwrap();
    }

    /// An undirected file whose rows disagree is refused, naming the arc without its reverse;
    /// one whose rows agree (weights included) loads.
    #[test]
    fn undirected_rows_must_agree() {
        // 3 vertices; rows: 0: [1], 1: [0, 2], 2: [] -- 1 -> 2 has no 2 -> 1.
        let offsets = [0u64, 1, 3, 3];
        let targets = [1u32, 0, 2];
        let msg = unmatched_arc(&offsets, &targets, None).expect("refused");
        assert!(msg.contains("arc 1 -> 2 is not listed as 2 -> 1"), "{msg}");
        assert_eq!(unmatched_arc(&[0, 1, 2], &[1, 0], None), None);
        // Both listings, but weights 5 and 6: not one edge.
        let msg = unmatched_arc(&[0, 1, 2], &[1, 0], Some(&[5, 6])).expect("refused");
        assert!(msg.contains("arc 0 -> 1 of weight 5"), "{msg}");
        assert_eq!(unmatched_arc(&[0, 2, 3], &[0, 1, 0], Some(&[9, 4, 4])), None, "a self loop pairs with nothing");
        // Through a file: the reader refuses it with a parse error.
        let mut b = vec![0u8];
        for x in [3i64, 3, 0, 1, 3, 3] {
            b.extend_from_slice(&x.to_le_bytes());
        }
        for v in [1i32, 0, 2] {
            b.extend_from_slice(&v.to_le_bytes());
        }
        let p = tmp("asym.sg");
        std::fs::write(&p, b).unwrap();
        let r = read(&p, false, &LoadOptions::default());
        std::fs::remove_file(&p).unwrap();
        assert!(matches!(r, Err(Error::Parse { ref msg, .. }) if msg.contains("says undirected")), "{r:?}");
    }
}
