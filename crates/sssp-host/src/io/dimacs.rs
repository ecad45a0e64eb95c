//! DIMACS shortest-path format (9th DIMACS Implementation Challenge), `.gr`:
//!
//! ```text
//! c comment lines anywhere
//! p sp N M        exactly one, before any arc
//! a U V W         M arc lines, ids 1..=N, integer weight W
//! ```
//!
//! Decisions:
//! - Arc `a U V W` becomes arc `U-1 -> V-1` with weight `W`, in file order.
//! - The `p` line is found by a short sequential scan (comments may precede it); then N is known
//!   and the arc lines are parsed in parallel with ids checked against it.
//! - Negative weights are accepted (the graph becomes signed); a weight outside
//!   `i32::MIN..=u32::MAX` is a parse error.
//! - The number of arcs must equal M exactly; the error points at the `p` line.
//! - Plausibility before commitment: an M beyond what the bytes after the `p` line can hold, or
//!   an N above `16 * (M + 1) + 1024` (see `text::sparse_limit`), is refused at the `p` line
//!   before anything is allocated; `LoadOptions::sparse_ids` (`--sparse-ids`) accepts such an N
//!   if the vertices fit in memory.
//! - Blank lines are tolerated; any other line type (e.g. `n` from `.ss` source files) is an
//!   error, since it means the file is not a graph.

use std::io::Write;
use std::path::Path;

use super::text::{
    count_newlines, explain, header_count, header_vertices, line_at, line_end, line_of, par_concat, par_map_chunks,
    plausible_vertices, push_i64, push_u64, skip_comments, tokens, vertex1, weight, ErrAt, Fields, Part, Scanner,
};
use super::Progress;
use crate::error::{Error, Result};
use crate::graph::{EdgeList, Graph};

const ARC: &str = "`a U V W` with 3 integers";

/// The `p sp N M` line.
struct Header {
    n: u64,
    m: u64,
    /// 1-based line of the `p` line, for messages about it.
    line: u64,
    /// Offset just after it.
    data: usize,
}

pub(super) fn parse(path: &Path, text: &[u8], start: usize, sparse_ids: bool, progress: &Progress) -> Result<EdgeList> {
    let h = header(text, start).map_err(|e| e.into_error(path, text))?;
    plausible_vertices(path, h.line, "the header declares", h.n, h.m, sparse_ids)?;
    let mut parts = par_map_chunks(text, h.data, progress, |chunk, base| parse_chunk(chunk, base, &h));
    let mut total = 0u64;
    for p in &mut parts {
        if let Some(e) = p.err.take() {
            return Err(e.into_error(path, text));
        }
        total += p.src.len() as u64;
    }
    if total != h.m {
        return Err(Error::parse(path, h.line, format!("arc count {total} differs from the header's {}", h.m)));
    }
    let src = par_concat(&parts.iter().map(|p| &p.src[..]).collect::<Vec<_>>());
    let dst = par_concat(&parts.iter().map(|p| &p.dst[..]).collect::<Vec<_>>());
    let w = par_concat(&parts.iter().map(|p| &p.w[..]).collect::<Vec<_>>());
    drop(parts);
    Ok(EdgeList { num_vertices: h.n as u32, src, dst, weights: Some(w), undirected: false, real: false })
}

/// Find and check the `p sp N M` line: only comments and blank lines may precede it.
fn header(text: &[u8], start: usize) -> Result<Header, ErrAt> {
    let pos = skip_comments(text, start, b"c");
    let line = line_at(text, pos);
    let toks = tokens(line);
    match toks.first().copied() {
        None => return Err(ErrAt::parse(pos, "missing `p sp N M` line")),
        Some(b"p") => {}
        Some(b"a") => return Err(ErrAt::parse(pos, "missing `p sp N M` line before the first arc")),
        Some(t) => {
            return Err(ErrAt::parse(
                pos,
                format!("expected the `p sp N M` line, found a line starting with `{}`", super::text::show(t)),
            ))
        }
    }
    if toks.len() != 4 {
        return Err(ErrAt::parse(pos, format!("expected `p sp N M` with 4 fields, found {}", toks.len())));
    }
    if toks[1] != b"sp" {
        return Err(ErrAt::parse(
            pos,
            format!("expected problem type `sp` in `p sp N M`, found `{}`", super::text::show(toks[1])),
        ));
    }
    let n = header_vertices(toks[2], "vertex count N", pos)?;
    let m = header_count(toks[3], "arc count M", pos)?;
    let data = line_end(text, pos);
    // An arc line takes at least 8 bytes (`a 1 1 0` and a newline), so an M far beyond that is a
    // wrong header: say so before parsing anything. The bound is loose (twice the room) so that a
    // nearly right file still gets the precise error of its first bad line.
    let room = (text.len() - data) as u64;
    if m.saturating_mul(4) > room + 4 {
        return Err(ErrAt::parse(
            pos,
            format!("the header declares M = {m} arcs, but the file has only {room} bytes after it (an arc line takes at least 8)"),
        ));
    }
    Ok(Header { n, m, line: line_of(text, pos), data })
}

fn parse_chunk(b: &[u8], base: usize, h: &Header) -> Part {
    // Arc lines dominate real files; the newline count bounds them.
    let cap = (count_newlines(b) as usize + 1).min(h.m as usize);
    let mut p =
        Part { src: Vec::with_capacity(cap), dst: Vec::with_capacity(cap), w: Vec::with_capacity(cap), err: None };
    if let Err(e) = fill(&mut p, b, base, h) {
        p.err = Some(e);
    }
    p
}

fn fill(p: &mut Part, b: &[u8], base: usize, h: &Header) -> Result<(), ErrAt> {
    let mut s = Scanner::new(b, base);
    let mut vals = [0i64; 3];
    while !s.at_end() {
        s.skip_blanks();
        let pos = s.pos();
        match s.peek() {
            b'a' => s.bump(),
            b'c' => {
                s.skip_line();
                continue;
            }
            b'\n' => {
                s.bump();
                continue;
            }
            b'p' => return Err(ErrAt::parse(pos, format!("a second `p` line (the first is line {})", h.line))),
            c => {
                let shown = super::text::show(&[c]);
                return Err(ErrAt::parse(
                    pos,
                    format!("expected an `a U V W` arc or a `c` comment line, found a line starting with `{shown}`"),
                ));
            }
        }
        // `a` must be a word of its own.
        let ok = super::text::is_blank(s.peek()) && s.read_ints(&mut vals) == Some(3);
        if !ok {
            let line = line_at(b, pos - base);
            let fields = if line.first() == Some(&b'a') { &line[1..] } else { line };
            return Err(ErrAt::parse(pos, explain(fields, ARC, &[3], Fields::Ints)));
        }
        p.src.push(vertex1(vals[0], h.n, pos, "DIMACS")?);
        p.dst.push(vertex1(vals[1], h.n, pos, "DIMACS")?);
        p.w.push(weight(vals[2], pos)?);
    }
    Ok(())
}

/// `p sp N M` then `a U V W` lines (1-based) in CSR order.
pub(super) fn write<W: Write>(g: &Graph, out: &mut W) -> std::io::Result<()> {
    let mut head = Vec::new();
    head.extend_from_slice(b"c written by sssp\np sp ");
    push_u64(&mut head, g.num_vertices() as u64);
    head.push(b' ');
    push_u64(&mut head, g.num_arcs() as u64);
    head.push(b'\n');
    out.write_all(&head)?;
    let targets = g.targets();
    let weights = g.weights();
    super::write_arcs(g, out, |buf, u, e| {
        buf.extend_from_slice(b"a ");
        push_u64(buf, u as u64 + 1);
        buf.push(b' ');
        push_u64(buf, targets[e] as u64 + 1);
        buf.push(b' ');
        push_i64(buf, weights.get(e));
        buf.push(b'\n');
    })
}

#[cfg(test)]
mod tests {
    use super::super::test_util::{parse, parse_error};
    use super::super::Format;
    use crate::error::Error;
    use crate::graph::EdgeList;
    use std::path::Path;

    fn gr(text: &str) -> crate::Result<EdgeList> {
        parse("t.gr", Format::Dimacs, text)
    }

    fn err(text: &str) -> (u64, String) {
        parse_error(gr(text))
    }

    #[test]
    fn errors_name_the_file() {
        assert!(matches!(gr("a 1 2 3\n"), Err(Error::Parse { path, line: 1, .. }) if path == Path::new("t.gr")));
    }

    #[test]
    fn good_file() {
        let e = gr("c 9th DIMACS\nc\np sp 3 4\nc arcs\na 1 2 5\na 2 3 -1\n\na 3 1 0\na 3 3 7\n").unwrap();
        assert_eq!(e.num_vertices, 3);
        assert_eq!(e.src, vec![0, 1, 2, 2]);
        assert_eq!(e.dst, vec![1, 2, 0, 2]);
        assert_eq!(e.weights, Some(vec![5, -1, 0, 7]));
        let g = e.into_graph(crate::WeightSpec::AsGiven, false).unwrap();
        assert!(matches!(g.weights(), crate::Weights::Signed(_)));
    }

    #[test]
    fn no_trailing_newline_and_empty_graph() {
        assert_eq!(gr("p sp 2 1\na 1 2 3").unwrap().len(), 1);
        let e = gr("p sp 0 0\n").unwrap();
        assert_eq!((e.num_vertices, e.len()), (0, 0));
    }

    #[test]
    fn header_problems() {
        assert_eq!(err("c only comments\n"), (2, "missing `p sp N M` line".into()));
        assert_eq!(err("c x\na 1 2 3\np sp 2 1\n"), (2, "missing `p sp N M` line before the first arc".into()));
        assert_eq!(err("p sp 2\n").0, 1);
        assert!(err("p max 2 1\n").1.contains("`sp`"));
        assert!(err("p sp -2 1\n").1.contains("negative"));
        assert!(err("p sp two 1\n").1.contains("`two`"));
        let (line, msg) = err("p sp 2 1\na 1 2 3\np sp 2 1\n");
        assert_eq!(line, 3);
        assert!(msg.contains("second `p` line (the first is line 1)"), "{msg}");
        assert!(matches!(gr("p sp 4294967296 0\n"), Err(Error::Parse { line: 1, .. })));
    }

    #[test]
    fn arc_problems() {
        assert_eq!(err("p sp 3 2\na 1 2 3\na 1 2\n"), (3, "expected `a U V W` with 3 integers, found 2".into()));
        assert_eq!(err("p sp 3 1\na 1 2 3 4\n"), (2, "expected `a U V W` with 3 integers, found 4".into()));
        assert_eq!(
            err("p sp 1000 1\na 0 2 3\n"),
            (2, "vertex 0 out of range 1..=1000 (DIMACS ids are 1-based)".into())
        );
        assert_eq!(err("p sp 3 1\na 1 4 3\n").0, 2);
        assert!(err("p sp 3 1\na 1 2 x\n").1.contains("`x`"));
        assert!(err("p sp 3 1\na 1 2 2.5\n").1.contains("integers"));
        assert!(err("p sp 3 1\na1 2 3\n").1.contains("expected `a U V W`"));
        assert!(err("p sp 3 1\nn 1\n").1.contains("`n`"));
        assert!(err("p sp 3 1\na 1 2 99999999999999999999\n").1.contains("64-bit"));
        assert!(err("p sp 3 1\na 1 2 -2147483649\n").1.contains("range"));
    }

    #[test]
    fn header_sizes_must_be_plausible() {
        // A 3-billion-arc header on a one-line file is refused at the header, before any work.
        let (line, msg) = err("c\np sp 3 3000000000\na 1 2 3\n");
        assert_eq!(line, 2);
        assert!(msg.contains("only 8 bytes after it"), "{msg}");
        assert_eq!(gr("p sp 1 2\na 1 1 0\na 1 1 0").unwrap().len(), 2);
        // Two lines declaring 400 million vertices: refused at the `p` line, not after
        // allocating gigabytes, unless the ids are sparse on purpose.
        let (line, msg) = err("c\np sp 400000000 1\na 1 2 3\n");
        assert_eq!(line, 2);
        assert!(msg.contains("declares 400000000 vertices for 1 edges") && msg.contains("--sparse-ids"), "{msg}");
        assert_eq!(gr("p sp 1040 0\n").unwrap().num_vertices, 1040);
        assert!(gr("p sp 1041 0\n").is_err());
        let sparse = super::super::LoadOptions { sparse_ids: true, ..Default::default() };
        let e =
            super::super::parse_text(Path::new("t.gr"), b"p sp 5000000 1\na 1 5000000 3\n", Format::Dimacs, &sparse);
        assert_eq!(e.unwrap().num_vertices, 5_000_000);
    }

    #[test]
    fn arc_count_must_match() {
        assert_eq!(
            err("c\np sp 3 8\na 1 2 3\na 1 2 3\na 1 2 3\na 1 2 3\na 1 2 3\na 1 2 3\na 1 2 3\n"),
            (2, "arc count 7 differs from the header's 8".into())
        );
        assert_eq!(err("p sp 3 0\na 1 2 3\n").0, 1);
    }
}
