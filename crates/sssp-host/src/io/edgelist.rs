//! Edge lists: SNAP `.txt`, GAP `.el` (`u v` or `u v w` per line) and GAP `.wel` (`u v w`).
//!
//! - Ids are 0-based; the vertex count is the largest id plus one (an edge list cannot express
//!   isolated vertices above the largest id). An empty list is a graph with no vertices.
//! - Fields are separated by spaces or tabs (a trailing `\r` is tolerated); commas are *not*
//!   separators, because no edge-list dialect we read uses them and guessing would hide errors.
//! - Lines whose first non-blank character is `#` (SNAP) or `%` are comments; blank lines are
//!   skipped.
//! - In `.el`, weights are all-or-nothing: the first edge line decides, and the first line that
//!   disagrees is an error (a half-weighted file is almost certainly a broken file). `.wel`
//!   requires the weight.
//! - Each line is one arc `u -> v`; SNAP's undirected graphs need `--symmetrize`.

use std::io::Write;
use std::path::Path;

use super::text::{
    count_newlines, explain, line_at, par_concat, par_map_chunks, push_i64, push_u64, vertex0, weight, ErrAt, Fields,
    Scanner,
};
use super::Progress;
use crate::error::Result;
use crate::graph::{EdgeList, Graph};

/// One chunk's arcs, plus what the merge needs to check consistency across chunks.
struct Part {
    src: Vec<u32>,
    dst: Vec<u32>,
    w: Vec<i64>,
    /// Position and weightedness of the chunk's first edge line.
    first: Option<(usize, bool)>,
    max_id: Option<u32>,
    err: Option<ErrAt>,
}

pub(super) fn parse(
    path: &Path,
    text: &[u8],
    start: usize,
    require_weights: bool,
    progress: &Progress,
) -> Result<EdgeList> {
    let mut parts = par_map_chunks(text, start, progress, |chunk, base| parse_chunk(chunk, base, require_weights));

    // The first edge line of the file decides whether weights are given; report the first line
    // that disagrees or fails, in file order.
    let weighted = parts.iter().find_map(|p| p.first.map(|(_, w)| w)).unwrap_or(require_weights);
    for p in &mut parts {
        if let Some((pos, w)) = p.first {
            if w != weighted {
                return Err(mixed_weights(pos, w).into_error(path, text));
            }
        }
        if let Some(e) = p.err.take() {
            return Err(e.into_error(path, text));
        }
    }

    let num_vertices = parts.iter().filter_map(|p| p.max_id).max().map_or(0, |m| m + 1);
    let src = par_concat(&parts.iter().map(|p| &p.src[..]).collect::<Vec<_>>());
    let dst = par_concat(&parts.iter().map(|p| &p.dst[..]).collect::<Vec<_>>());
    let w = par_concat(&parts.iter().map(|p| &p.w[..]).collect::<Vec<_>>());
    drop(parts);
    Ok(EdgeList { num_vertices, src, dst, weights: weighted.then_some(w), undirected: false })
}

fn parse_chunk(b: &[u8], base: usize, require_weights: bool) -> Part {
    // Every edge takes a line, so the newline count bounds the arcs: no reallocation.
    let cap = count_newlines(b) as usize + 1;
    let mut p = Part {
        src: Vec::with_capacity(cap),
        dst: Vec::with_capacity(cap),
        w: Vec::new(),
        first: None,
        max_id: None,
        err: None,
    };
    if let Err(e) = fill(&mut p, b, base, require_weights, cap) {
        p.err = Some(e);
    }
    p
}

fn fill(p: &mut Part, b: &[u8], base: usize, require_weights: bool, cap: usize) -> Result<(), ErrAt> {
    let (what, counts): (&str, &[usize]) = if require_weights {
        ("`u v w` with 3 integers", &[3])
    } else {
        ("`u v` or `u v w` with 2 or 3 integers", &[2, 3])
    };
    let min_fields = counts[0];
    let mut s = Scanner::new(b, base);
    let mut vals = [0i64; 3];
    let mut max_id = 0u32;
    // Fields per edge line in this chunk: 0 until the first edge line sets it to 2 or 3.
    let mut fields = 0usize;
    while !s.at_end() {
        s.skip_blanks();
        match s.peek() {
            b'\n' => {
                s.bump();
                continue;
            }
            b'#' | b'%' => {
                s.skip_line();
                continue;
            }
            _ => {}
        }
        let pos = s.pos();
        let k = match s.read_ints(&mut vals) {
            Some(k) if k >= min_fields => k,
            _ => return Err(ErrAt::parse(pos, explain(line_at(b, pos - base), what, counts, Fields::Ints))),
        };
        if k != fields {
            // Taken once per chunk unless the file mixes weighted and unweighted lines.
            if fields != 0 {
                return Err(mixed_weights(pos, k == 3));
            }
            fields = k;
            p.first = Some((pos, k == 3));
            if k == 3 {
                p.w.reserve_exact(cap);
            }
        }
        let u = vertex0(vals[0], pos)?;
        let v = vertex0(vals[1], pos)?;
        max_id = max_id.max(u).max(v);
        p.src.push(u);
        p.dst.push(v);
        if k == 3 {
            p.w.push(weight(vals[2], pos)?);
        }
    }
    if p.first.is_some() {
        p.max_id = Some(max_id);
    }
    Ok(())
}

fn mixed_weights(pos: usize, has_w: bool) -> ErrAt {
    let msg = if has_w {
        "this line has a weight but the first edge line has none; give weights on every line or on none"
    } else {
        "expected `u v w`: this line has no weight but the first edge line has one; give weights on every line or on none"
    };
    ErrAt::parse(pos, msg)
}

/// `u v w` lines (or `u v` without weights), 0-based, in CSR order.
pub(super) fn write<W: Write>(g: &Graph, out: &mut W, weighted: bool) -> std::io::Result<()> {
    let targets = g.targets();
    let weights = g.weights();
    super::write_arcs(g, out, |buf, u, e| {
        push_u64(buf, u as u64);
        buf.push(b' ');
        push_u64(buf, targets[e] as u64);
        if weighted {
            buf.push(b' ');
            push_i64(buf, weights.get(e));
        }
        buf.push(b'\n');
    })
}

#[cfg(test)]
mod tests {
    use super::super::test_util::{parse, parse_error as parse_line};
    use super::super::Format;
    use crate::error::Error;
    use crate::graph::EdgeList;

    fn el(text: &str) -> crate::Result<EdgeList> {
        parse("t.el", Format::EdgeList, text)
    }

    fn wel(text: &str) -> crate::Result<EdgeList> {
        parse("t.wel", Format::WeightedEdgeList, text)
    }

    #[test]
    fn snap_style_with_comments_tabs_and_crlf() {
        let e = el("# Directed graph\r\n# FromNodeId\tToNodeId\r\n0\t1\r\n\r\n  % other comment\n3\t0\r\n2 2").unwrap();
        assert_eq!(e.num_vertices, 4);
        assert_eq!(e.src, vec![0, 3, 2]);
        assert_eq!(e.dst, vec![1, 0, 2]);
        assert!(e.weights.is_none());
        assert!(!e.undirected);
    }

    #[test]
    fn weighted_lines_keep_order_and_signs() {
        let e = el("1 0 5\n0 1 -7\n").unwrap();
        assert_eq!(e.num_vertices, 2);
        assert_eq!(e.weights, Some(vec![5, -7]));
        let e = wel("0 4 4294967295\n").unwrap();
        assert_eq!(e.num_vertices, 5);
        assert_eq!(e.weights, Some(vec![u32::MAX as i64]));
    }

    #[test]
    fn empty_input_is_an_empty_graph() {
        let e = el("# nothing\n\n").unwrap();
        assert_eq!((e.num_vertices, e.len()), (0, 0));
    }

    #[test]
    fn mixed_weights_name_the_first_disagreeing_line() {
        let (line, msg) = parse_line(el("# c\n0 1\n1 2\n2 3 4\n"));
        assert_eq!(line, 4);
        assert!(msg.contains("weight"), "{msg}");
        let (line, _) = parse_line(el("0 1 9\n\n1 2\n"));
        assert_eq!(line, 3);
    }

    #[test]
    fn malformed_lines() {
        let (line, msg) = parse_line(el("0 1\n1\n"));
        assert_eq!(line, 2);
        assert_eq!(msg, "expected `u v` or `u v w` with 2 or 3 integers, found 1");
        let (line, msg) = parse_line(el("0 1\n1 2 3 4\n"));
        assert_eq!((line, msg.as_str()), (2, "expected `u v` or `u v w` with 2 or 3 integers, found 4"));
        let (line, msg) = parse_line(el("0,1\n"));
        assert_eq!(line, 1);
        assert!(msg.contains("commas"), "{msg}");
        let (line, msg) = parse_line(el("0 1\n0 1.5 2\n"));
        assert_eq!(line, 2);
        assert!(msg.contains("`1.5`"), "{msg}");
        let (line, msg) = parse_line(el("0 -1\n"));
        assert_eq!(line, 1);
        assert!(msg.contains("negative"), "{msg}");
        let (line, msg) = parse_line(el("0 1 99999999999999999999\n"));
        assert_eq!(line, 1);
        assert!(msg.contains("64-bit"), "{msg}");
        let (line, msg) = parse_line(el("0 1 4294967296\n"));
        assert_eq!(line, 1);
        assert!(msg.contains("range"), "{msg}");
        let (line, msg) = parse_line(wel("0 1 2\n3 4\n"));
        assert_eq!((line, msg.as_str()), (2, "expected `u v w` with 3 integers, found 2"));
    }

    #[test]
    fn ids_beyond_u32_are_too_large() {
        assert!(matches!(el("0 4294967295\n"), Err(Error::TooLarge { .. })));
        assert!(matches!(el("0 1\n10000000000 1\n"), Err(Error::TooLarge { what }) if what.contains("t.el:2")));
        assert_eq!(el("4294967294 0\n").unwrap().num_vertices, u32::MAX);
    }

    #[test]
    fn errors_in_later_chunks_have_exact_lines() {
        // Big enough for many chunks; the bad line sits deep inside.
        let mut text = String::from("# header\n");
        for i in 0..300_000u32 {
            text.push_str(&format!("{} {}\n", i, i + 1));
        }
        let good = el(&text).unwrap();
        assert_eq!(good.len(), 300_000);
        assert_eq!(good.num_vertices, 300_001);
        assert_eq!(good.src[123_456], 123_456);
        let bad = text.replacen("250000 250001\n", "250000 x\n", 1);
        let (line, msg) = parse_line(el(&bad));
        assert_eq!(line, 250_002);
        assert!(msg.contains("`x`"), "{msg}");
        let mixed = text.replacen("200000 200001\n", "200000 200001 5\n", 1);
        assert_eq!(parse_line(el(&mixed)).0, 200_002);
    }
}
