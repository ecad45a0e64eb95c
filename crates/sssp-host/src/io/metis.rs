//! METIS (Chaco) adjacency format, `.graph`:
//!
//! ```text
//! % comments
//! n m [fmt [ncon]]
//! line i (1-based) for vertex i: [size] [ncon vertex weights] neighbours, `v` or `v w` pairs
//! ```
//!
//! `fmt` has up to three binary digits, right-aligned: hundreds = vertex sizes, tens = vertex
//! weights (`ncon` of them, default 1), ones = edge weights interleaved with neighbours. So `1` is
//! edge weights, `10` vertex weights, `11` both.
//!
//! Decisions:
//! - METIS graphs are undirected and list every edge at both endpoints, with `m` counting edges:
//!   the adjacency entries must number exactly `2m` (checked), and each entry becomes one arc as
//!   listed (`undirected = false`; doubling again would make every edge two parallel pairs).
//! - The adjacency must be symmetric, as METIS's own `graphchk` demands: for every entry `v` (with
//!   weight `w`) on vertex `u`'s line, `u` (with weight `w`) is on `v`'s line, as many times.
//!   The first entry in file order without its twin is a parse error on `u`'s line. Checked by
//!   sorting the arcs and their reverses (O(m log m), in parallel), after the ids are checked.
//! - Vertex sizes and weights are skipped: shortest paths have no use for them.
//! - Comment lines (first non-blank `%`) are not vertex lines; a blank line is a vertex without
//!   neighbours. Fewer than `n` vertex lines is an error; lines after the `n`-th must be blank.
//! - Vertex lines are counted per chunk in a first parallel pass, so the second pass knows each
//!   line's vertex and checks everything with exact lines.
//! - Without edge weights in the file (or with `WeightSpec::Random`), both arcs of an edge get the
//!   same random weight, a function of the seed and the unordered pair `{u, v}` (see the `io`
//!   module docs).

use std::path::Path;

use rayon::prelude::*;

use super::text::{
    first_token, header_count, header_vertices, int_problem, line_at, line_chunks, line_end, line_of, par_concat, show,
    skip_comments, tokens, vertex1, weight, ErrAt, Part, Scanner,
};
use super::{twin_weight_rule, LoadOptions, Parsed, Progress};
use crate::error::{Error, Result};
use crate::graph::{EdgeList, WeightSpec};

struct Header {
    n: u64,
    m: u64,
    /// Numbers to skip at the start of each vertex line (size and vertex weights).
    skip: usize,
    edge_weights: bool,
    /// The `fmt` field as written, for messages.
    fmt: String,
    line: u64,
    data: usize,
}

pub(super) fn parse(path: &Path, text: &[u8], start: usize, opts: &LoadOptions, progress: &Progress) -> Result<Parsed> {
    let at = |e: ErrAt| e.into_error(path, text);
    let h = header(text, start).map_err(at)?;

    // Pass 1: vertex lines per chunk, hence the first vertex of every chunk.
    let chunks = line_chunks(text, h.data);
    let counts: Vec<u64> = chunks.par_iter().map(|r| count_vertex_lines(&text[r.clone()])).collect();
    let lines: u64 = counts.iter().sum();
    if lines < h.n {
        return Err(Error::parse(
            path,
            h.line,
            format!("found {lines} vertex lines, but the header declares n = {} vertices", h.n),
        ));
    }
    let firsts: Vec<u64> = counts.iter().scan(0u64, |acc, &c| Some(std::mem::replace(acc, *acc + c))).collect();

    // Pass 2: the arcs.
    let mut parts: Vec<Part> = chunks
        .par_iter()
        .zip(firsts.par_iter())
        .map(|(r, &first)| {
            let p = parse_chunk(&text[r.clone()], r.start, first, &h);
            progress.inc(r.len() as u64);
            p
        })
        .collect();
    let mut total = 0u64;
    for p in &mut parts {
        if let Some(e) = p.err.take() {
            return Err(at(e));
        }
        total += p.src.len() as u64;
    }
    if total != 2 * h.m {
        return Err(Error::parse(
            path,
            h.line,
            format!(
                "found {total} adjacency entries, but m = {} edges need {} (METIS lists each edge at both endpoints)",
                h.m,
                2 * h.m
            ),
        ));
    }
    let src = par_concat(&parts.iter().map(|p| &p.src[..]).collect::<Vec<_>>());
    let dst = par_concat(&parts.iter().map(|p| &p.dst[..]).collect::<Vec<_>>());
    let w = par_concat(&parts.iter().map(|p| &p.w[..]).collect::<Vec<_>>());
    drop(parts);
    if let Some(i) = first_without_twin(&src, &dst, h.edge_weights.then_some(&w[..])) {
        let (u, v) = (src[i] as u64 + 1, dst[i] as u64 + 1);
        let what =
            if h.edge_weights { format!("neighbour {v} with weight {}", w[i]) } else { format!("neighbour {v}") };
        let twin = if h.edge_weights { format!("{u} with weight {}", w[i]) } else { u.to_string() };
        return Err(Error::parse(
            path,
            line_of(text, vertex_line(text, h.data, src[i])),
            format!(
                "vertex {u} lists {what}, but vertex {v} does not list {twin} as often: \
                 METIS adjacency must be symmetric (each edge at both endpoints)"
            ),
        ));
    }
    let rule = twin_weight_rule(opts.weights, h.edge_weights);
    let weights = match rule {
        Some((lo, hi, seed)) => Some(pair_weights(&src, &dst, lo, hi, seed)),
        None => h.edge_weights.then_some(w),
    };
    let edges = EdgeList { num_vertices: h.n as u32, src, dst, weights, undirected: false, real: false };
    Ok(Parsed { edges, weights_final: rule.is_some() })
}

/// The first arc (in file order) whose reverse, with the same weight when `w` is given, occurs
/// fewer times than the arc itself; `None` when the arcs are symmetric as a multiset.
///
/// Fast path: the wrapping sum of `hash(u, v, w) - hash(v, u, w)` over all arcs is 0 for every
/// symmetric multiset, so a zero sum (O(m), no memory) accepts the file; asymmetric inputs give
/// a zero sum only by a 64-bit hash coincidence. Only a nonzero sum pays for the exact search,
/// which sorts the arcs and their reverses (40 bytes per arc) to name the first offender.
fn first_without_twin(src: &[u32], dst: &[u32], w: Option<&[i64]>) -> Option<usize> {
    let key = |a: u32, b: u32, i: usize| ((a as u64) << 32 | b as u64, w.map_or(0, |w| w[i]));
    let h = |(k, w): (u64, i64)| crate::rng::hash2(k, w as u64);
    let imbalance = (0..src.len())
        .into_par_iter()
        .map(|i| h(key(src[i], dst[i], i)).wrapping_sub(h(key(dst[i], src[i], i))))
        .reduce(|| 0, u64::wrapping_add);
    if imbalance == 0 {
        return None;
    }
    let mut fwd: Vec<((u64, i64), usize)> =
        (0..src.len()).into_par_iter().map(|i| (key(src[i], dst[i], i), i)).collect();
    let mut rev: Vec<(u64, i64)> = (0..src.len()).into_par_iter().map(|i| key(dst[i], src[i], i)).collect();
    fwd.par_sort_unstable();
    rev.par_sort_unstable();
    // Walk equal keys of both lists together; a key with more arcs than reverses is unmatched.
    let (mut i, mut j, mut first) = (0, 0, None::<usize>);
    while i < fwd.len() {
        let k = fwd[i].0;
        let end = i + fwd[i..].partition_point(|x| x.0 == k);
        while j < rev.len() && rev[j] < k {
            j += 1;
        }
        let twins = rev[j..].partition_point(|&x| x == k);
        if end - i > twins {
            // The group is sorted by index too: its first arc is the earliest in the file.
            first = Some(first.map_or(fwd[i].1, |f| f.min(fwd[i].1)));
        }
        j += twins;
        i = end;
    }
    first
}

/// Offset of vertex `u`'s line (0-based `u`), walking the vertex lines after the header as
/// [`fill`] does. Only for error messages.
fn vertex_line(text: &[u8], data: usize, u: u32) -> usize {
    let mut s = Scanner::new(&text[data..], data);
    let mut k = 0u64;
    while !s.at_end() {
        s.skip_blanks();
        if s.peek() != b'%' {
            if k == u as u64 {
                return line_start(text, s.pos());
            }
            k += 1;
        }
        s.skip_line();
    }
    data
}

/// Offset of the start of the line containing `pos`.
fn line_start(text: &[u8], pos: usize) -> usize {
    text[..pos].iter().rposition(|&c| c == b'\n').map_or(0, |k| k + 1)
}

/// The same random weight for `u -> v` and `v -> u`: keyed by the unordered pair.
fn pair_weights(src: &[u32], dst: &[u32], lo: u32, hi: u32, seed: u64) -> Vec<i64> {
    src.par_iter()
        .zip(dst.par_iter())
        .map(|(&u, &v)| {
            let key = (u.min(v) as u64) << 32 | u.max(v) as u64;
            WeightSpec::random_weight(lo, hi, seed, key) as i64
        })
        .collect()
}

fn header(text: &[u8], start: usize) -> Result<Header, ErrAt> {
    let pos = skip_comments(text, start, b"%");
    let toks = tokens(line_at(text, pos));
    if !(2..=4).contains(&toks.len()) {
        let found = if toks.is_empty() { "nothing".to_string() } else { format!("{} fields", toks.len()) };
        return Err(ErrAt::parse(pos, format!("expected the header `n m [fmt [ncon]]`, found {found}")));
    }
    let n = header_vertices(toks[0], "vertex count n", pos)?;
    let m = header_count(toks[1], "edge count m", pos)?;
    let fmt = toks.get(2).map_or("0".into(), |t| show(t));
    if fmt.is_empty() || fmt.len() > 3 || !fmt.bytes().all(|c| c == b'0' || c == b'1') {
        return Err(ErrAt::parse(pos, format!("fmt must be up to three 0/1 digits (e.g. 1, 10, 11), found `{fmt}`")));
    }
    let digits: Vec<bool> = format!("{fmt:0>3}").bytes().map(|c| c == b'1').collect();
    let ncon = match toks.get(3) {
        Some(t) => header_count(t, "ncon", pos)?,
        None => 1,
    };
    if digits[1] && ncon == 0 {
        return Err(ErrAt::parse(pos, "ncon must be at least 1 when fmt has vertex weights"));
    }
    let skip = digits[0] as u64 + if digits[1] { ncon } else { 0 };
    Ok(Header {
        n,
        m,
        skip: skip.min(u32::MAX as u64) as usize,
        edge_weights: digits[2],
        fmt,
        line: line_of(text, pos),
        data: line_end(text, pos),
    })
}

/// Lines that are not comments (the same walk as [`fill`]).
fn count_vertex_lines(b: &[u8]) -> u64 {
    let mut s = Scanner::new(b, 0);
    let mut k = 0;
    while !s.at_end() {
        s.skip_blanks();
        if s.peek() != b'%' {
            k += 1;
        }
        s.skip_line();
    }
    k
}

fn parse_chunk(b: &[u8], base: usize, first: u64, h: &Header) -> Part {
    let mut p = Part { src: Vec::new(), dst: Vec::new(), w: Vec::new(), err: None };
    if let Err(e) = fill(&mut p, b, base, first, h) {
        p.err = Some(e);
    }
    p
}

fn fill(p: &mut Part, b: &[u8], base: usize, first: u64, h: &Header) -> Result<(), ErrAt> {
    let mut s = Scanner::new(b, base);
    let mut vertex = first;
    while !s.at_end() {
        s.skip_blanks();
        if s.peek() == b'%' {
            s.skip_line();
            continue;
        }
        let pos = s.pos();
        if vertex >= h.n {
            if !s.end_line() {
                return Err(ErrAt::parse(
                    pos,
                    format!("a line for vertex {}, but the header declares n = {} vertices", vertex + 1, h.n),
                ));
            }
            vertex += 1;
            continue;
        }
        let u = vertex as u32;
        for k in 0..h.skip {
            s.skip_blanks();
            if s.peek() == b'\n' {
                return Err(ErrAt::parse(
                    pos,
                    format!("expected {} vertex size/weight value(s) first (fmt {}), found {k}", h.skip, h.fmt),
                ));
            }
            int_at(&mut s)?;
        }
        loop {
            s.skip_blanks();
            if s.peek() == b'\n' {
                s.bump();
                break;
            }
            let v = vertex1(int_at(&mut s)?, h.n, pos, "METIS")?;
            if h.edge_weights {
                s.skip_blanks();
                if s.peek() == b'\n' {
                    return Err(ErrAt::parse(
                        pos,
                        format!(
                            "neighbour {} has no edge weight (fmt {} interleaves `v w` pairs)",
                            v as u64 + 1,
                            h.fmt
                        ),
                    ));
                }
                p.w.push(weight(int_at(&mut s)?, pos)?);
            }
            p.src.push(u);
            p.dst.push(v);
        }
        vertex += 1;
    }
    Ok(())
}

/// An integer at the cursor, or an error naming the offending token.
fn int_at(s: &mut Scanner) -> Result<i64, ErrAt> {
    let pos = s.pos();
    let rest = s.rest();
    s.read_int().ok_or_else(|| {
        let tok = first_token(rest);
        let msg = int_problem(tok).unwrap_or_else(|| format!("expected an integer, found `{}`", show(tok)));
        ErrAt::parse(pos, msg)
    })
}

#[cfg(test)]
mod tests {
    use super::super::{read_graph, Format, LoadOptions};
    use crate::error::Error;
    use crate::graph::{EdgeList, WeightSpec};

    fn metis(text: &str) -> crate::Result<EdgeList> {
        super::super::test_util::parse("t.graph", Format::Metis, text)
    }

    fn err(text: &str) -> (u64, String) {
        super::super::test_util::parse_error(metis(text))
    }

    #[test]
    fn edge_weighted_graph_keeps_arcs_as_listed() {
        // Triangle 1-2 (w 5), 2-3 (w 7), plus isolated vertex 4 given by a blank line.
        let e = metis("% comment\n4 2 1\n2 5\n1 5 3 7\n% between\n2 7\n\n").unwrap();
        assert_eq!(e.num_vertices, 4);
        assert_eq!(e.src, vec![0, 1, 1, 2]);
        assert_eq!(e.dst, vec![1, 0, 2, 1]);
        assert_eq!(e.weights, Some(vec![5, 5, 7, 7]));
        assert!(!e.undirected);
    }

    #[test]
    fn vertex_weights_and_sizes_are_skipped() {
        let e = metis("3 1 11 2\n9 9 2 4\n8 8 1 4\n7 7\n").unwrap();
        assert_eq!((e.src.clone(), e.dst.clone(), e.weights.clone()), (vec![0, 1], vec![1, 0], Some(vec![4, 4])));
        let e = metis("2 1 110\n5 1 2\n5 1 1\n").unwrap();
        assert_eq!(e.dst, vec![1, 0]);
    }

    #[test]
    fn unweighted_gets_equal_twin_weights() {
        let e = metis("3 2\n2 3\n1\n1\n").unwrap();
        let w = e.weights.clone().unwrap();
        assert_eq!((w[0], w[1]), (w[2], w[3]));
        let dir = std::env::temp_dir().join(format!("sssp-io-metis-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("g.graph");
        std::fs::write(&path, "3 2 1\n2 5 3 6\n1 5\n1 6\n").unwrap();
        let g = read_graph(
            &path,
            &LoadOptions { weights: WeightSpec::Random { lo: 1, hi: 1 << 30, seed: 3 }, ..Default::default() },
        )
        .unwrap();
        let w01 = g.neighbors(0).find(|&(v, _)| v == 1).unwrap().1;
        assert_eq!(g.neighbors(1).next().unwrap(), (0, w01));
        let g = read_graph(&path, &LoadOptions::default()).unwrap();
        assert_eq!(g.neighbors(0).collect::<Vec<_>>(), vec![(1, 5), (2, 6)]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn trailing_blank_lines_are_allowed_but_not_extra_vertices() {
        assert_eq!(metis("2 1\n2\n1\n\n\n").unwrap().len(), 2);
        assert_eq!(err("2 1\n2\n1\n\n3\n"), (5, "a line for vertex 4, but the header declares n = 2 vertices".into()));
        assert_eq!(err("3 1\n2\n1\n"), (1, "found 2 vertex lines, but the header declares n = 3 vertices".into()));
    }

    #[test]
    fn asymmetric_adjacency_names_the_first_line_without_twin() {
        // Vertex 1 lists 2, but 2 lists 3 instead of 1 (and 3 lists 2).
        let (line, msg) = err("% c\n3 2\n2\n3\n2 1\n");
        assert_eq!(line, 3);
        assert!(msg.starts_with("vertex 1 lists neighbour 2, but vertex 2 does not list 1"), "{msg}");
        // Same pairs, different weights.
        let (line, msg) = err("2 1 1\n2 5\n1 6\n");
        assert_eq!(line, 2);
        assert!(msg.contains("neighbour 2 with weight 5") && msg.contains("symmetric"), "{msg}");
        // A multi-edge listed twice at one end and once at the other.
        assert_eq!(err("3 2\n2 2\n1\n3\n").0, 2);
        // Self loops are their own twins.
        assert_eq!(metis("2 2\n1 2\n1 2\n").unwrap().len(), 4);
    }

    #[test]
    fn malformed_inputs() {
        assert_eq!(
            err("3 2\n2\n1\n\n"),
            (1, "found 2 adjacency entries, but m = 2 edges need 4 (METIS lists each edge at both endpoints)".into())
        );
        assert_eq!(err("2 1\n3\n1\n"), (2, "vertex 3 out of range 1..=2 (METIS ids are 1-based)".into()));
        assert_eq!(err("2 1\n2\n0\n").0, 3);
        assert_eq!(
            err("2 1 1\n2 5\n1\n"),
            (3, "neighbour 1 has no edge weight (fmt 1 interleaves `v w` pairs)".into())
        );
        assert!(err("2 1\n2\nx\n").1.contains("`x`"));
        assert_eq!(err("2 1 10\n1 2\n\n").0, 3);
        assert!(err("2 1 12\n").1.contains("fmt"));
        assert!(err("% only\n").1.contains("header"));
        assert!(err("2 1 1 1 1\n").1.contains("5 fields"));
        assert!(matches!(metis("5000000000 0\n"), Err(Error::Parse { line: 1, .. })));
    }
}
