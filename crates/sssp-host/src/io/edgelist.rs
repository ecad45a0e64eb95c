//! Edge lists: SNAP `.txt`, GAP `.el` (`u v` or `u v w` per line) and GAP `.wel` (`u v w`).
//!
//! - Ids are 0-based; the vertex count is the largest id plus one, unless a comment line
//!   `# vertices: N` before the first edge declares it (what our writer emits, so isolated
//!   vertices above the largest id survive a round trip); then every id must be below `N`.
//!   The word is matched in any case (`# Vertices: N`). Such a line after the first edge, or a
//!   second one, is an error at its line rather than a comment: either would otherwise be
//!   ignored without a word. An empty list without that line is a graph with no vertices.
//! - Sparse ids are refused: a largest id that implies, or a `# vertices: N` line that declares,
//!   more than `16 * (edges + 1) + 1024` vertices (SNAP dumps with ids like 400000000 for a
//!   handful of edges) is an error naming its line, because every vertex costs memory and time
//!   in every array. Relabel such ids densely, or keep them with `LoadOptions::sparse_ids`
//!   (`--sparse-ids`), which still checks that the vertices fit in memory before allocating.
//! - Fields are separated by spaces or tabs (a trailing `\r` is tolerated); commas are *not*
//!   separators, because no edge-list dialect we read uses them and guessing would hide errors.
//! - Lines whose first non-blank character is `#` (SNAP) or `%` are comments; blank lines are
//!   skipped.
//! - In `.el`, weights are all-or-nothing: the first edge line decides, and the first line that
//!   disagrees is an error (a half-weighted file is almost certainly a broken file). `.wel`
//!   requires the weight.
//! - Each line is one arc `u -> v`; SNAP's undirected graphs need `--symmetrize`.
//! - Weights are integers, or real numbers: if some weight is not an integer (`0.5`, `1e-3`,
//!   `2.0`), the file is read again with every weight a real one, rounded to the nearest `f32`
//!   (`3` becomes 3.0), and the graph gets real weights and real distances. A real weight must
//!   be finite and `>= 0`, and no value may change kind on the way to `f32`: one beyond `f32`'s
//!   range (`1e40`, "too large for f32"), a nonzero one that would round to 0 (`1e-50`), and an
//!   integer `f32` cannot hold exactly (`16777217` beside a `0.5`) are errors naming the line.
//! - The writer writes real weights with a decimal point (`1.0`, never `1`), so a real graph
//!   reads back real even when every weight is a whole number.

use std::io::Write;
use std::path::Path;

use super::text::{
    count_newlines, explain, header_count, line_at, line_end, line_of, par_concat, par_map_chunks, plausible_vertices,
    push_u64, sparse_limit, vertex0, weight, ErrAt, Fields, Scanner,
};
use super::Progress;
use crate::error::Result;
use crate::graph::{EdgeList, Graph, MAX_VERTICES};

/// One chunk's arcs, plus what the merge needs to check consistency across chunks.
struct Part {
    src: Vec<u32>,
    dst: Vec<u32>,
    w: Vec<i64>,
    /// Position and weightedness of the chunk's first edge line.
    first: Option<(usize, bool)>,
    max_id: Option<u32>,
    err: Option<ErrAt>,
    /// A line with a real (non-integer) weight was met: the file must be read in real mode.
    real_seen: bool,
    /// Position of the chunk's last `# vertices:` line, if any.
    decl: Option<usize>,
}

pub(super) fn parse(
    path: &Path,
    text: &[u8],
    start: usize,
    require_weights: bool,
    sparse_ids: bool,
    progress: &Progress,
) -> Result<EdgeList> {
    let mut parts =
        par_map_chunks(text, start, progress, |chunk, base| parse_chunk(chunk, base, require_weights, false));
    // A line whose weight is a real number makes the whole file real: read it again that way.
    let real = parts.iter().any(|p| p.real_seen);
    if real {
        parts = par_map_chunks(text, start, progress, |chunk, base| parse_chunk(chunk, base, require_weights, true));
    }

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

    // A declaration after the first edge would be silently ignored: say where it must be.
    let first_edge = parts.iter().find_map(|p| p.first.map(|(pos, _)| pos));
    if let (Some(edge), Some(at)) = (first_edge, parts.iter().filter_map(|p| p.decl).max()) {
        if at > edge {
            let msg = "a `# vertices: N` line after the first edge: it declares the count only before the edges";
            return Err(ErrAt::parse(at, msg).into_error(path, text));
        }
    }
    let arcs: u64 = parts.iter().map(|p| p.src.len() as u64).sum();
    let max_id = parts.iter().filter_map(|p| p.max_id).max();
    let num_vertices = match declared_vertices(text, start).map_err(|e| e.into_error(path, text))? {
        Some((n, _)) if max_id.is_some_and(|m| m as u64 >= n) => {
            let id = max_id.unwrap_or(0);
            let at = first_line_with(text, start, |u, v| u.max(v) as u64 >= n);
            let msg = format!("vertex id {id} is not below the declared vertex count {n} (`# vertices: {n}`)");
            return Err(ErrAt::parse(at, msg).into_error(path, text));
        }
        Some((n, at)) => {
            plausible_vertices(path, line_of(text, at), "`# vertices:` declares", n, arcs, sparse_ids)?;
            n as u32
        }
        None => {
            let n = max_id.map_or(0, |m| m as u64 + 1);
            let id = max_id.unwrap_or(0);
            // The offending line is searched for only when there is one to name.
            let refused = !sparse_ids && n > sparse_limit(arcs);
            let line = if refused { line_of(text, first_line_with(text, start, |u, v| u.max(v) == id)) } else { 0 };
            plausible_vertices(path, line, &format!("vertex id {id} implies"), n, arcs, sparse_ids)?;
            n as u32
        }
    };
    let src = par_concat(&parts.iter().map(|p| &p.src[..]).collect::<Vec<_>>());
    let dst = par_concat(&parts.iter().map(|p| &p.dst[..]).collect::<Vec<_>>());
    let w = par_concat(&parts.iter().map(|p| &p.w[..]).collect::<Vec<_>>());
    drop(parts);
    Ok(EdgeList { num_vertices, src, dst, weights: weighted.then_some(w), undirected: false, real: real && weighted })
}

/// The comment line that declares the vertex count, as our writer emits it.
const DECLARE: &[u8] = b"vertices:";

/// The count of a comment line that declares the vertex count, `# vertices: N` as our writer
/// emits it (or `%`, any case, any blanks): the text after the colon. `None` for any other line.
fn declaration(line: &[u8]) -> Option<&[u8]> {
    let body = line.trim_ascii_start();
    let rest = body.strip_prefix(b"#").or_else(|| body.strip_prefix(b"%"))?.trim_ascii_start();
    let (word, count) = rest.split_at_checked(DECLARE.len())?;
    word.eq_ignore_ascii_case(DECLARE).then_some(count)
}

/// `# vertices: N` (see [`declaration`]) among the comment and blank lines before the first
/// edge line: N and the line's offset. A malformed count, or a second such line, is an error
/// (which one would hold is not for the reader to guess); other comments are ignored.
fn declared_vertices(text: &[u8], start: usize) -> Result<Option<(u64, usize)>, ErrAt> {
    let mut pos = start;
    let mut found = None;
    while pos < text.len() {
        let line = line_at(text, pos);
        match line.trim_ascii_start().first() {
            None => {}
            Some(b'#' | b'%') => {
                if let Some(count) = declaration(line) {
                    if let Some((_, first)) = found {
                        let msg = format!("a second `# vertices:` line (the first is line {})", line_of(text, first));
                        return Err(ErrAt::parse(pos, msg));
                    }
                    let n = header_count(count.trim_ascii(), "declared vertex count", pos)?;
                    if n > MAX_VERTICES {
                        return Err(ErrAt::parse(pos, format!("declared vertex count {n} exceeds {MAX_VERTICES}")));
                    }
                    found = Some((n, pos));
                }
            }
            Some(_) => break,
        }
        pos = line_end(text, pos);
    }
    Ok(found)
}

/// Offset of the first edge line whose ids satisfy `hit` (only for error messages; the text
/// has parsed, so every non-comment line is an edge).
fn first_line_with(text: &[u8], start: usize, hit: impl Fn(u32, u32) -> bool) -> usize {
    let mut pos = start;
    while pos < text.len() {
        let mut s = Scanner::new(line_at(text, pos), pos);
        s.skip_blanks();
        if !matches!(s.peek(), b'#' | b'%' | b'\n') {
            if let (Some(u), Some(v)) = (s.next_int(), s.next_int()) {
                if hit(u as u32, v as u32) {
                    return pos;
                }
            }
        }
        pos = line_end(text, pos);
    }
    start
}

fn parse_chunk(b: &[u8], base: usize, require_weights: bool, real: bool) -> Part {
    // Every edge takes a line, so the newline count bounds the arcs: no reallocation.
    let cap = count_newlines(b) as usize + 1;
    let mut p = Part {
        src: Vec::with_capacity(cap),
        dst: Vec::with_capacity(cap),
        w: Vec::new(),
        first: None,
        max_id: None,
        err: None,
        real_seen: false,
        decl: None,
    };
    if let Err(e) = fill(&mut p, b, base, require_weights, cap, real) {
        p.err = Some(e);
    }
    p
}

/// `u v` or `u v w` with `w` a real number: the fields read (2 or 3; `None` if malformed), the
/// weight's stored bits in `vals[2]`, or an error for a real that cannot be a weight.
fn read_real_line(s: &mut Scanner, vals: &mut [i64; 3], pos: usize) -> Result<Option<usize>, ErrAt> {
    let (Some(u), Some(v)) = (s.read_int(), s.next_int()) else { return Ok(None) };
    (vals[0], vals[1]) = (u, v);
    if s.end_line() {
        return Ok(Some(2));
    }
    let Some(w) = super::mtx::real_weight_token(s.read_token()) else { return Ok(None) };
    if !s.end_line() {
        return Ok(None);
    }
    vals[2] = w.map_err(|m| ErrAt::parse(pos, m))? as i64;
    Ok(Some(3))
}

/// Whether the line at the scanner is `u v w` with `w` a real number but not an integer.
fn real_weight_line(line: &[u8]) -> bool {
    let t: Vec<&[u8]> = line.split(|c| super::text::is_blank(*c) || *c == b'\n').filter(|t| !t.is_empty()).collect();
    // An all-digit weight that failed is an integer out of range, which stays an error (it
    // would be a silent change of meaning to read 2^40 as an f32).
    let integer = |w: &[u8]| w.iter().all(|c| c.is_ascii_digit() || *c == b'-' || *c == b'+');
    t.len() == 3 && !integer(t[2]) && super::mtx::real32(t[2]).is_some()
}

fn fill(p: &mut Part, b: &[u8], base: usize, require_weights: bool, cap: usize, real: bool) -> Result<(), ErrAt> {
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
                if declaration(line_at(b, s.pos() - base)).is_some() {
                    p.decl = Some(s.pos());
                }
                s.skip_line();
                continue;
            }
            _ => {}
        }
        let pos = s.pos();
        let read = if real { read_real_line(&mut s, &mut vals, pos)? } else { s.read_ints(&mut vals) };
        let k = match read {
            Some(k) if k >= min_fields => k,
            _ if !real && real_weight_line(line_at(b, pos - base)) => {
                // The caller reads the file again in real mode.
                p.real_seen = true;
                return Ok(());
            }
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
            p.w.push(if real { vals[2] } else { weight(vals[2], pos)? });
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

/// A `# vertices: N` line (so the count survives isolated vertices above the largest id), then
/// `u v w` lines, 0-based, in CSR order. Both `.el` and `.wel` get the weights: an edge list
/// without them would be read back with generated ones.
pub(super) fn write<W: Write>(g: &Graph, out: &mut W) -> std::io::Result<()> {
    let mut head = b"# written by sssp\n# ".to_vec();
    head.extend_from_slice(DECLARE);
    head.push(b' ');
    push_u64(&mut head, g.num_vertices() as u64);
    head.push(b'\n');
    out.write_all(&head)?;
    let targets = g.targets();
    let weights = g.weights();
    super::write_arcs(g, out, |buf, u, e| {
        push_u64(buf, u as u64);
        buf.push(b' ');
        push_u64(buf, targets[e] as u64);
        buf.push(b' ');
        super::text::push_weight(buf, weights, e);
        buf.push(b'\n');
    })
}

#[cfg(test)]
mod tests {
    use super::super::test_util::{parse, parse_error as parse_line};
    use super::super::{parse_text, Format, LoadOptions};
    use crate::error::Error;
    use crate::graph::EdgeList;
    use std::path::Path;

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
    fn ids_beyond_u32_are_parse_errors() {
        assert!(matches!(el("0 4294967295\n"), Err(Error::Parse { line: 1, .. })));
        let (line, msg) = parse_line(el("0 1\n4294967296 1\n"));
        assert_eq!(line, 2);
        assert!(msg.contains("does not fit the 32-bit vertex ids"), "{msg}");
        // Refused as implausible (2 edges); with --sparse-ids, as more than this machine has.
        assert_eq!(parse_line(el("# vertices: 4294967295\n4294967294 0\n")).0, 1);
        let sparse = LoadOptions { sparse_ids: true, ..Default::default() };
        let big = parse_text(Path::new("t.el"), b"# vertices: 4294967295\n4294967294 0\n", Format::EdgeList, &sparse);
        assert!(matches!(big, Err(Error::OutOfHostMemory { .. })) || big.is_ok_and(|e| e.num_vertices == u32::MAX));
    }

    #[test]
    fn sparse_ids_are_refused_with_their_line() {
        // Two edges that would make a 400-million-vertex graph.
        let (line, msg) = parse_line(el("# snap\n0 1\n1 400000000\n"));
        assert_eq!(line, 3);
        assert!(msg.contains("implies 400000001 vertices for 2 edges") && msg.contains("--sparse-ids"), "{msg}");
        // At the limit it is fine.
        assert_eq!(el("0 1055\n").unwrap().num_vertices, 1056);
        assert!(el("0 1056\n").is_err());
        // A declared count is held to the same rule, on its own line: a few bytes must not
        // commit the loader to gigabytes.
        let (line, msg) = parse_line(el("# snap\n# vertices: 400000001\n0 1\n1 400000000\n"));
        assert_eq!(line, 2);
        assert!(msg.contains("declares 400000001 vertices for 2 edges") && msg.contains("--sparse-ids"), "{msg}");
        assert_eq!(el("# vertices: 1056\n0 1\n").unwrap().num_vertices, 1056);
        // --sparse-ids keeps them (this size fits anywhere the tests run).
        let sparse = LoadOptions { sparse_ids: true, ..Default::default() };
        let keep = |t: &str| parse_text(Path::new("t.el"), t.as_bytes(), Format::EdgeList, &sparse).unwrap();
        assert_eq!(keep("# vertices: 5000001\n0 1\n").num_vertices, 5_000_001);
        assert_eq!(keep("0 1\n1 5000000\n").num_vertices, 5_000_001);
    }

    #[test]
    fn declared_vertex_count_is_honoured_and_checked() {
        let e = el("# written by sssp\n#  vertices: 7\n\n0 1\n").unwrap();
        assert_eq!(e.num_vertices, 7);
        assert_eq!(el("% vertices: 3\n").unwrap().num_vertices, 3);
        let (line, msg) = parse_line(el("# vertices: 3\n0 1\n2 3\n"));
        assert_eq!(line, 3);
        assert!(msg.contains("not below the declared vertex count 3"), "{msg}");
        assert_eq!(parse_line(el("# vertices: x\n0 1\n")).0, 1);
        // Only before the first edge, once, in any case.
        let (line, msg) = parse_line(el("0 1\n# vertices: 9\n"));
        assert!(line == 2 && msg.contains("after the first edge"), "{line}: {msg}");
        let (line, msg) = parse_line(el("# vertices: 4\n# vertices: 5\n0 1\n"));
        assert!(line == 2 && msg.contains("second `# vertices:` line (the first is line 1)"), "{line}: {msg}");
        assert_eq!(el("# Vertices: 6\n0 1\n").unwrap().num_vertices, 6);
        assert_eq!(el("#VERTICES:3\n").unwrap().num_vertices, 3);
        // Other comments anywhere are comments.
        assert_eq!(el("0 1\n# vertex count: 9\n").unwrap().num_vertices, 2);
    }

    #[test]
    fn real_weights_do_not_change_kind() {
        let bits = |x: f32| x.to_bits() as i64;
        // One decimal makes the whole file real: an integer that f32 holds is fine, one it
        // cannot hold exactly (16777217 would become 16777216) is an error on its line.
        assert_eq!(el("0 1 0.5\n1 2 16777216\n").unwrap().weights, Some(vec![bits(0.5), bits(16777216.0)]));
        let (line, msg) = parse_line(el("0 1 0.5\n1 2 16777217\n"));
        assert_eq!(line, 2);
        assert!(msg.contains("16777217") && msg.contains("not exactly an f32"), "{msg}");
        // Beyond f32's range either way: errors saying so, not inf or a silent 0.
        let (line, msg) = parse_line(el("0 1 0.5\n1 2 1e-50\n"));
        assert_eq!(line, 2);
        assert!(msg.contains("1e-50") && msg.contains("too small for f32"), "{msg}");
        let (line, msg) = parse_line(el("0 1 1e40\n"));
        assert_eq!(line, 1);
        assert!(msg.contains("1e40 is too large for f32 (max 3.4e38)"), "{msg}");
        assert!(parse_line(el("0 1 inf\n")).1.contains("not a weight"));
        assert_eq!(el("0 1 0.0\n1 0 0e-50\n2 1 1e-45\n").unwrap().weights.map(|w| w[2]), Some(bits(1e-45)));
    }

    #[test]
    fn real_graphs_read_back_real() {
        // A real graph whose weights are whole numbers (from a real .mtx) used to be written
        // as `0 1 1` and read back as an integer graph.
        let mut e = EdgeList::with_capacity(3, 2);
        e.push(0, 1, 1.0f32.to_bits() as i64);
        e.push(1, 2, 3e38f32.to_bits() as i64);
        e.real = true;
        let g = e.into_graph(crate::WeightSpec::AsGiven, false).unwrap();
        let dir = std::env::temp_dir().join(format!("sssp-io-el-real-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for name in ["g.el", "g.wel"] {
            let path = dir.join(name);
            super::super::write_text(&g, &path, Format::from_path(&path).unwrap()).unwrap();
            let text = std::fs::read_to_string(&path).unwrap();
            assert!(text.contains("0 1 1.0\n"), "{text}");
            let back = super::super::read_graph(&path, &LoadOptions::default()).unwrap();
            assert_eq!(back.metric(), crate::graph::Metric::Real, "{name}");
            assert_eq!(
                (0..2).map(|a| back.weights().get(a)).collect::<Vec<_>>(),
                (0..2).map(|a| g.weights().get(a)).collect::<Vec<_>>()
            );
        }
        std::fs::remove_dir_all(&dir).unwrap();
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
