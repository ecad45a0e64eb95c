//! Matrix Market coordinate format, `.mtx` (as used by SuiteSparse):
//!
//! ```text
//! %%MatrixMarket matrix coordinate <pattern|integer|real> <general|symmetric>
//! % comments
//! rows cols nnz
//! i j [v]          nnz entries, 1-based
//! ```
//!
//! Decisions:
//! - Entry `(i, j)` is the arc `i-1 -> j-1` (row to column) with weight `v`. Explicit zeros are
//!   arcs of weight 0: an entry that is present is an edge.
//! - The banner is case-insensitive. `array` (dense), `complex`, `hermitian` and `skew-symmetric`
//!   files are refused with a message saying why: none has a faithful integer-weighted graph
//!   reading. `double` is accepted as a synonym of `real`.
//! - The matrix must be square (a graph's adjacency matrix is); the entry count must equal nnz.
//! - Plausibility before commitment: an nnz beyond what the bytes after the size line can hold,
//!   or more than `16 * (nnz + 1) + 1024` rows (see `text::sparse_limit`), is refused at the
//!   size line before anything is allocated; `LoadOptions::sparse_ids` (`--sparse-ids`) accepts
//!   such a count if the vertices fit in memory.
//! - `pattern` files carry no weights. `real` values are read per [`RealPolicy`]: by default
//!   (`Native`) as real weights, each rounded to the nearest `f32` (a NaN, an infinity, a
//!   negative value, one too large for `f32`, a nonzero one that would round to 0, or an
//!   integer `f32` cannot hold exactly is an error naming the line); `round` / `scale:K` turn them into integers;
//!   `reject` refuses the file. When the weights are replaced anyway (`--weights unit/random`),
//!   real values are only checked to be numbers.
//! - `symmetric`: every entry stands for both directions, but a diagonal entry is one self loop,
//!   not two. The parser therefore emits the arcs itself: all entries as given, then the reverse
//!   of every off-diagonal entry, both in file order (the same layout `EdgeList::into_graph` uses
//!   for undirected lists), with `undirected = false`. Entries above the diagonal are accepted
//!   like those below it. If the weights are to be generated (pattern file, or
//!   `WeightSpec::Random`), both arcs of an entry get the same random weight, a function of the
//!   seed and the entry's index (see the `io` module docs).
//! - `%` comment lines and blank lines are tolerated among the entries too.

use std::io::Write;
use std::path::Path;

use rayon::prelude::*;

use super::text::{
    count_newlines, explain, header_count, header_vertices, line_at, line_end, line_of, par_concat, par_map_chunks,
    plausible_vertices, push_u64, show, skip_comments, tokens, vertex1, weight, ErrAt, Fields, Part, Scanner,
    MAX_WEIGHT, MIN_WEIGHT,
};
use super::{twin_weight_rule, LoadOptions, Parsed, Progress, RealPolicy};
use crate::error::{Error, Result};
use crate::graph::{EdgeList, Graph, WeightSpec};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Field {
    Pattern,
    Integer,
    Real,
}

struct Header {
    field: Field,
    symmetric: bool,
    n: u64,
    nnz: u64,
    /// 1-based line of the size line.
    size_line: u64,
    /// Offset of the first entry line.
    data: usize,
}

/// What to do with each entry's value.
#[derive(Clone, Copy)]
enum Values {
    /// No value on the line.
    Absent,
    /// Integer value, kept as the weight.
    Int,
    /// Real value converted per the policy.
    Real(RealPolicy),
    /// A real value that must be present and well-formed but is not used (the weights are
    /// replaced anyway, so no conversion policy is needed).
    IgnoredReal,
}

pub(super) fn parse(path: &Path, text: &[u8], start: usize, opts: &LoadOptions, progress: &Progress) -> Result<Parsed> {
    let at = |e: ErrAt| e.into_error(path, text);
    let h = header(text, start).map_err(at)?;
    plausible_vertices(path, h.size_line, "the size line declares", h.n, h.nnz, opts.sparse_ids)?;
    let values = match (h.field, opts.real) {
        (Field::Pattern, _) => Values::Absent,
        (Field::Integer, _) => Values::Int,
        (Field::Real, RealPolicy::Reject) if opts.weights == WeightSpec::AsGiven => {
            return Err(Error::parse(
                path,
                line_of(text, start),
                "the matrix has `real` values, refused by --mtx-real reject; \
                 pass --mtx-real native (real weights), round (or scale:K to multiply by K, then \
                 round), or replace the weights with --weights",
            ))
        }
        // --weights replaces them: checked as numbers, not kept.
        (Field::Real, _) if opts.weights != WeightSpec::AsGiven => Values::IgnoredReal,
        (Field::Real, policy) => Values::Real(policy),
    };
    if let RealPolicy::Scale(k) = opts.real {
        if !(k.is_finite() && k > 0.0) {
            return Err(Error::InvalidArgument(format!("mtx-real scale factor {k} must be finite and positive")));
        }
    }

    let mut parts = par_map_chunks(text, h.data, progress, |chunk, base| parse_chunk(chunk, base, &h, values));
    let mut total = 0u64;
    for p in &mut parts {
        if let Some(e) = p.err.take() {
            return Err(at(e));
        }
        total += p.src.len() as u64;
    }
    if total != h.nnz {
        return Err(Error::parse(
            path,
            h.size_line,
            format!("found {total} entries, but the size line says nnz = {}", h.nnz),
        ));
    }
    let total = total as usize;
    let has_values = matches!(values, Values::Int | Values::Real(_));
    let src = par_concat(&parts.iter().map(|p| &p.src[..]).collect::<Vec<_>>());
    let dst = par_concat(&parts.iter().map(|p| &p.dst[..]).collect::<Vec<_>>());
    let w = par_concat(&parts.iter().map(|p| &p.w[..]).collect::<Vec<_>>());
    drop(parts);
    let real = matches!(values, Values::Real(RealPolicy::Native));
    let mut edges =
        EdgeList { num_vertices: h.n as u32, src, dst, weights: has_values.then_some(w), undirected: false, real };
    if !h.symmetric {
        return Ok(edges.into());
    }
    let rule = twin_weight_rule(opts.weights, has_values);
    if let Some((lo, hi, seed)) = rule {
        edges.weights = Some(
            (0..total as u64).into_par_iter().map(|e| WeightSpec::random_weight(lo, hi, seed, e) as i64).collect(),
        );
    }
    add_reverse_arcs(&mut edges);
    Ok(Parsed { edges, weights_final: rule.is_some() })
}

/// Append the reverse of every off-diagonal arc, in order, with the same weight.
fn add_reverse_arcs(e: &mut EdgeList) {
    let m = e.src.len();
    let off = (0..m).filter(|&k| e.src[k] != e.dst[k]).count();
    e.src.reserve_exact(off);
    e.dst.reserve_exact(off);
    if let Some(w) = &mut e.weights {
        w.reserve_exact(off);
    }
    for k in 0..m {
        let (u, v) = (e.src[k], e.dst[k]);
        if u != v {
            e.src.push(v);
            e.dst.push(u);
            if let Some(w) = &mut e.weights {
                w.push(w[k]);
            }
        }
    }
}

/// The banner on the first line, then comments, then the size line.
fn header(text: &[u8], start: usize) -> Result<Header, ErrAt> {
    let banner: Vec<String> = tokens(line_at(text, start)).iter().map(|t| show(t).to_ascii_lowercase()).collect();
    let expected = "`%%MatrixMarket matrix coordinate <pattern|integer|real> <general|symmetric>`";
    if banner.first().map(String::as_str) != Some("%%matrixmarket") {
        return Err(ErrAt::parse(
            start,
            format!("missing the Matrix Market banner: the first line must be {expected}"),
        ));
    }
    if banner.len() != 5 {
        return Err(ErrAt::parse(start, format!("expected the banner {expected}, found {} fields", banner.len())));
    }
    let bad = |msg: String| Err(ErrAt::parse(start, msg));
    if banner[1] != "matrix" {
        return bad(format!("only `matrix` objects are graphs, found `{}`", banner[1]));
    }
    match banner[2].as_str() {
        "coordinate" => {}
        "array" => {
            return bad("dense `array` matrices are not supported; a graph needs the sparse `coordinate` format".into())
        }
        other => return bad(format!("expected `coordinate`, found `{other}`")),
    }
    let field = match banner[3].as_str() {
        "pattern" => Field::Pattern,
        "integer" => Field::Integer,
        "real" | "double" => Field::Real,
        "complex" => return bad("`complex` values cannot be edge weights; expected pattern, integer or real".into()),
        other => return bad(format!("expected pattern, integer or real, found `{other}`")),
    };
    let symmetric = match banner[4].as_str() {
        "general" => false,
        "symmetric" => true,
        s @ ("skew-symmetric" | "hermitian") => {
            return bad(format!("`{s}` matrices are not supported (their mirrored entries are not the same weight); expected general or symmetric"))
        }
        other => return bad(format!("expected general or symmetric, found `{other}`")),
    };

    let pos = skip_comments(text, line_end(text, start), b"%");
    let toks = tokens(line_at(text, pos));
    if toks.len() != 3 {
        let found = if toks.is_empty() { "nothing".to_string() } else { format!("{} fields", toks.len()) };
        return Err(ErrAt::parse(pos, format!("expected the size line `rows cols nnz`, found {found}")));
    }
    let rows = header_count(toks[0], "rows", pos)?;
    let cols = header_count(toks[1], "cols", pos)?;
    if rows != cols {
        return Err(ErrAt::parse(
            pos,
            format!("the matrix is {rows} x {cols}; a graph needs a square matrix (rows = cols)"),
        ));
    }
    let n = header_vertices(toks[0], "rows", pos)?;
    let nnz = header_count(toks[2], "nnz", pos)?;
    let data = line_end(text, pos);
    // An entry line takes at least 4 bytes (`1 1` and a newline), so an nnz far beyond that is a
    // wrong size line: say so before parsing anything (loosely, as for DIMACS headers).
    let room = (text.len() - data) as u64;
    if nnz.saturating_mul(2) > room + 2 {
        return Err(ErrAt::parse(
            pos,
            format!("the size line declares nnz = {nnz}, but the file has only {room} bytes after it (an entry takes at least 4)"),
        ));
    }
    Ok(Header { field, symmetric, n, nnz, size_line: line_of(text, pos), data })
}

fn parse_chunk(b: &[u8], base: usize, h: &Header, values: Values) -> Part {
    // Entry lines dominate; the newline count bounds them (and the header's nnz bounds the total).
    let cap = (count_newlines(b) as usize + 1).min(h.nnz as usize);
    let wcap = if matches!(values, Values::Int | Values::Real(_)) { cap } else { 0 };
    let mut p =
        Part { src: Vec::with_capacity(cap), dst: Vec::with_capacity(cap), w: Vec::with_capacity(wcap), err: None };
    if let Err(e) = fill(&mut p, b, base, h, values) {
        p.err = Some(e);
    }
    p
}

fn fill(p: &mut Part, b: &[u8], base: usize, h: &Header, values: Values) -> Result<(), ErrAt> {
    let mut s = Scanner::new(b, base);
    while !s.at_end() {
        s.skip_blanks();
        match s.peek() {
            b'\n' => {
                s.bump();
                continue;
            }
            b'%' => {
                s.skip_line();
                continue;
            }
            _ => {}
        }
        let pos = s.pos();
        let bad = || ErrAt::parse(pos, explain_entry(line_at(b, pos - base), h.field));
        let (Some(i), Some(j)) = (s.read_int(), s.next_int()) else { return Err(bad()) };
        let w = match values {
            Values::Absent => None,
            Values::Int => Some(s.next_int().ok_or_else(bad)?),
            Values::Real(RealPolicy::Native) => {
                let w = real_weight_token(s.read_token()).ok_or_else(bad)?;
                Some(w.map_err(|m| ErrAt::parse(pos, m))? as i64)
            }
            Values::Real(policy) => {
                let x = real(s.read_token()).ok_or_else(bad)?;
                Some(real_to_weight(x, policy).map_err(|m| ErrAt::parse(pos, m))?)
            }
            Values::IgnoredReal => {
                real(s.read_token()).ok_or_else(bad)?;
                None
            }
        };
        if !s.end_line() {
            return Err(bad());
        }
        p.src.push(vertex1(i, h.n, pos, "Matrix Market")?);
        p.dst.push(vertex1(j, h.n, pos, "Matrix Market")?);
        if let Some(w) = w {
            if matches!(values, Values::Int) {
                p.w.push(weight(w, pos)?);
            } else {
                p.w.push(w);
            }
        }
    }
    Ok(())
}

/// A real number token (`str::parse` here: correct rounding matters more than speed for reals).
fn real(tok: &[u8]) -> Option<f64> {
    std::str::from_utf8(tok).ok()?.parse::<f64>().ok()
}

/// A real number token rounded once, straight to the nearest `f32` (going through `f64` could
/// round twice).
pub(super) fn real32(tok: &[u8]) -> Option<f32> {
    std::str::from_utf8(tok).ok()?.parse::<f32>().ok()
}

/// A real weight token as stored (`f32` bits), `None` if it is not a number, or why it cannot be
/// a weight. Rounding to the nearest `f32` is expected of decimals (`0.1`), but a value that
/// changes kind on the way is refused, naming the value: one too large for `f32` (it would
/// become infinite), a nonzero one too small (it would become 0), and an integer that `f32`
/// cannot hold exactly (`16777217`: an integer reads as itself or not at all).
pub(super) fn real_weight_token(tok: &[u8]) -> Option<Result<u32, String>> {
    let x = real32(tok)?;
    let shown = show(tok);
    let mantissa = tok.split(|&c| c == b'e' || c == b'E').next().unwrap_or(tok);
    // `inf` and `infinity` have no digits: only a number with digits overflowed.
    let overflowed = x.is_infinite() && tok.iter().any(u8::is_ascii_digit);
    Some(if overflowed {
        Err(format!("weight {shown} is too large for f32 (max 3.4e38)"))
    } else if x == 0.0 && mantissa.iter().any(|c| (b'1'..=b'9').contains(c)) {
        Err(format!("weight {shown} is too small for f32: it would round to 0 (the least positive f32 is 1.4e-45)"))
    } else if is_integer_literal(tok) && x.is_finite() && x >= 0.0 && !integer_is(tok, x) {
        Err(format!(
            "integer weight {shown} is not exactly an f32 ({x} is the nearest), and this file's weights are real: \
             f32 holds every integer up to 16777216 = 2^24, so scale the weights to integers, or write \
             this one as a decimal to accept the rounding"
        ))
    } else {
        crate::graph::real_weight(x)
    })
}

/// An optionally signed run of decimal digits.
fn is_integer_literal(tok: &[u8]) -> bool {
    let digits = tok.strip_prefix(b"+").unwrap_or(tok);
    !digits.is_empty() && digits.iter().all(u8::is_ascii_digit)
}

/// Whether the integer literal `tok` is exactly `x` (a finite `f32` >= 0, so an integer-valued
/// one fits in `u128`).
fn integer_is(tok: &[u8], x: f32) -> bool {
    let digits = tok.strip_prefix(b"+").unwrap_or(tok);
    let value = std::str::from_utf8(digits).ok().and_then(|d| d.parse::<u128>().ok());
    x.fract() == 0.0 && value == Some(x as u128)
}

/// Convert a real value to an integer weight per the policy.
fn real_to_weight(x: f64, policy: RealPolicy) -> Result<i64, String> {
    let y = match policy {
        RealPolicy::Native | RealPolicy::Reject => return Err("real values are rejected (see --mtx-real)".into()),
        RealPolicy::Round => x,
        RealPolicy::Scale(k) => x * k,
    };
    let r = y.round();
    if !r.is_finite() || r < MIN_WEIGHT as f64 || r > MAX_WEIGHT as f64 {
        let how = match policy {
            RealPolicy::Scale(k) => format!("value {x} scaled by {k} is {y}, which"),
            _ => format!("value {x}"),
        };
        return Err(format!("{how} does not round to an integer weight in {MIN_WEIGHT}..={MAX_WEIGHT}"));
    }
    Ok(r as i64)
}

/// Slow path: why an entry line is malformed.
fn explain_entry(line: &[u8], field: Field) -> String {
    match field {
        Field::Pattern => explain(line, "`i j` with 2 integers", &[2], Fields::Ints),
        Field::Integer => explain(line, "`i j v` with 3 integers", &[3], Fields::Ints),
        Field::Real => {
            let what = "`i j v` with 2 integers and a real";
            let toks = tokens(line);
            if toks.len() == 3 && real(toks[2]).is_none() {
                if let Some(p) = toks[..2].iter().find_map(|t| super::text::int_problem(t)) {
                    return p;
                }
                return format!("expected a real number, found `{}`", show(toks[2]));
            }
            explain(line, what, &[3], Fields::IntsExcept(2))
        }
    }
}

/// An `integer general` matrix (`real general` for real weights), 1-based, entries in CSR order.
pub(super) fn write<W: Write>(g: &Graph, out: &mut W) -> std::io::Result<()> {
    let mut head = Vec::new();
    let field = if g.metric() == crate::graph::Metric::Real { "real" } else { "integer" };
    head.extend_from_slice(format!("%%MatrixMarket matrix coordinate {field} general\n% written by sssp\n").as_bytes());
    for x in [g.num_vertices() as u64, g.num_vertices() as u64] {
        push_u64(&mut head, x);
        head.push(b' ');
    }
    push_u64(&mut head, g.num_arcs() as u64);
    head.push(b'\n');
    out.write_all(&head)?;
    let targets = g.targets();
    let weights = g.weights();
    super::write_arcs(g, out, |buf, u, e| {
        push_u64(buf, u as u64 + 1);
        buf.push(b' ');
        push_u64(buf, targets[e] as u64 + 1);
        buf.push(b' ');
        super::text::push_weight(buf, weights, e);
        buf.push(b'\n');
    })
}

#[cfg(test)]
mod tests {
    use super::super::{parse_text, read_graph, Format, LoadOptions, RealPolicy};
    use crate::error::Error;
    use crate::graph::{EdgeList, WeightSpec};
    use std::path::Path;

    fn mtx_with(text: &str, opts: &LoadOptions) -> crate::Result<EdgeList> {
        parse_text(Path::new("t.mtx"), text.as_bytes(), Format::MatrixMarket, opts)
    }

    fn mtx(text: &str) -> crate::Result<EdgeList> {
        mtx_with(text, &LoadOptions::default())
    }

    fn err(text: &str) -> (u64, String) {
        super::super::test_util::parse_error(mtx(text))
    }

    #[test]
    fn general_integer() {
        let e = mtx("%%MatrixMarket matrix coordinate integer general\n% c\n%\n3 3 3\n1 2 5\n3 1 -2\n2 2 0\n").unwrap();
        assert_eq!(e.num_vertices, 3);
        assert_eq!(e.src, vec![0, 2, 1]);
        assert_eq!(e.dst, vec![1, 0, 1]);
        assert_eq!(e.weights, Some(vec![5, -2, 0]));
        assert!(!e.undirected);
    }

    #[test]
    fn pattern_has_no_weights_and_banner_is_case_insensitive() {
        let e = mtx("%%matrixmarket MATRIX Coordinate Pattern General\n2 2 1\n1 2\n").unwrap();
        assert_eq!((e.src.clone(), e.dst.clone()), (vec![0], vec![1]));
        assert!(e.weights.is_none());
    }

    #[test]
    fn symmetric_mirrors_off_diagonal_entries_once() {
        let text = "%%MatrixMarket matrix coordinate integer symmetric\n3 3 3\n2 1 4\n3 3 9\n3 2 6\n";
        let e = mtx(text).unwrap();
        assert_eq!(e.src, vec![1, 2, 2, 0, 1]);
        assert_eq!(e.dst, vec![0, 2, 1, 1, 2]);
        assert_eq!(e.weights, Some(vec![4, 9, 6, 4, 6]));
        assert!(!e.undirected);
    }

    #[test]
    fn symmetric_pattern_gets_equal_random_weights_on_both_arcs() {
        let dir = std::env::temp_dir().join(format!("sssp-io-mtx-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("p.mtx");
        std::fs::write(&path, "%%MatrixMarket matrix coordinate pattern symmetric\n4 4 4\n2 1\n3 1\n4 4\n4 2\n")
            .unwrap();
        for spec in [WeightSpec::AsGiven, WeightSpec::Random { lo: 1, hi: 1000, seed: 7 }] {
            let g = read_graph(&path, &LoadOptions { weights: spec, ..Default::default() }).unwrap();
            assert_eq!(g.num_arcs(), 7);
            for u in 0..4u32 {
                for (v, w) in g.neighbors(u) {
                    assert!(g.neighbors(v).any(|(x, wx)| x == u && wx == w), "{u}->{v} ({w}) has no twin");
                }
            }
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn real_values_follow_the_policy() {
        let text = "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 2 2.5\n2 1 1e-3\n";
        // Native (the default): f32 weights, as bit patterns.
        let e = mtx(text).unwrap();
        assert!(e.real);
        assert_eq!(e.weights, Some(vec![2.5f32.to_bits() as i64, 1e-3f32.to_bits() as i64]));
        let reject = LoadOptions { real: RealPolicy::Reject, ..Default::default() };
        let (line, msg) = super::super::test_util::parse_error(mtx_with(text, &reject));
        assert_eq!(line, 1);
        assert!(msg.contains("--mtx-real"), "{msg}");
        let round = LoadOptions { real: RealPolicy::Round, ..Default::default() };
        assert_eq!(mtx_with(text, &round).unwrap().weights, Some(vec![3, 0]));
        let scale = LoadOptions { real: RealPolicy::Scale(1000.0), ..Default::default() };
        assert_eq!(mtx_with(text, &scale).unwrap().weights, Some(vec![2500, 1]));
        let unit = LoadOptions { weights: WeightSpec::Unit, ..Default::default() };
        assert!(mtx_with(text, &unit).unwrap().weights.is_none());
        let huge = LoadOptions { real: RealPolicy::Scale(1e12), ..Default::default() };
        match mtx_with(text, &huge) {
            Err(Error::Parse { line: 3, msg, .. }) => assert!(msg.contains("scaled"), "{msg}"),
            other => panic!("{other:?}"),
        }
        match mtx_with("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 abc\n", &round) {
            Err(Error::Parse { line: 3, msg, .. }) => assert!(msg.contains("real number"), "{msg}"),
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            mtx_with("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 nan\n", &round),
            Err(Error::Parse { line: 3, .. })
        ));
    }

    #[test]
    fn real_values_that_f32_cannot_hold_are_errors() {
        let real = |v: &str| mtx(&format!("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 {v}\n"));
        let msg = |v: &str| match real(v) {
            Err(Error::Parse { line: 3, msg, .. }) => msg,
            other => panic!("{v}: {other:?}"),
        };
        assert!(msg("1e40").contains("too large for f32 (max 3.4e38)"));
        assert!(msg("1e-50").contains("too small for f32"));
        assert!(msg("16777217").contains("not exactly an f32"));
        assert!(msg("inf").contains("not a weight"));
        assert_eq!(real("16777216").unwrap().weights, Some(vec![16777216f32.to_bits() as i64]));
        assert_eq!(real("0.1").unwrap().weights, Some(vec![0.1f32.to_bits() as i64]));
        assert_eq!(real("0e-99").unwrap().weights, Some(vec![0]));
    }

    #[test]
    fn unsupported_banners() {
        assert_eq!(err("3 3 1\n1 2\n").0, 1);
        assert!(err("%%MatrixMarket matrix array real general\n2 2\n").1.contains("array"));
        assert!(err("%%MatrixMarket matrix coordinate complex general\n").1.contains("complex"));
        assert!(err("%%MatrixMarket matrix coordinate real hermitian\n").1.contains("hermitian"));
        assert!(err("%%MatrixMarket matrix coordinate integer skew-symmetric\n").1.contains("skew-symmetric"));
        assert!(err("%%MatrixMarket vector coordinate integer general\n").1.contains("matrix"));
        assert!(err("%%MatrixMarket matrix coordinate integer\n").1.contains("fields"));
    }

    #[test]
    fn size_line_and_entries() {
        assert_eq!(
            err("%%MatrixMarket matrix coordinate pattern general\n% c\n3 4 1\n1 2\n"),
            (3, "the matrix is 3 x 4; a graph needs a square matrix (rows = cols)".into())
        );
        assert_eq!(err("%%MatrixMarket matrix coordinate pattern general\n% only comments\n").0, 3);
        assert_eq!(
            err("%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n"),
            (2, "found 1 entries, but the size line says nnz = 2".into())
        );
        // More entries than the bytes after the size line can hold: refused at the size line.
        let (line, msg) = err("%%MatrixMarket matrix coordinate pattern general\n3 3 2000000000\n1 2\n");
        assert_eq!(line, 2);
        assert!(msg.contains("only 4 bytes after it"), "{msg}");
        assert_eq!(err("%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n2 3\n3 1\n").0, 2);
        assert_eq!(
            err("%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 2 7\n"),
            (3, "expected `i j` with 2 integers, found 3".into())
        );
        assert_eq!(
            err("%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 2\n"),
            (3, "expected `i j v` with 3 integers, found 2".into())
        );
        assert_eq!(
            err("%%MatrixMarket matrix coordinate integer general\n3 3 1\n4 2 1\n"),
            (3, "vertex 4 out of range 1..=3 (Matrix Market ids are 1-based)".into())
        );
        assert!(matches!(
            mtx("%%MatrixMarket matrix coordinate pattern general\n4294967296 4294967296 0\n"),
            Err(Error::Parse { line: 2, .. })
        ));
    }

    #[test]
    fn implausible_vertex_counts_are_refused_at_the_size_line() {
        // Three lines asking for 300 million vertices (which once aborted after 14 GB).
        let text = "%%MatrixMarket matrix coordinate pattern general\n300000000 300000000 1\n1 2\n";
        let (line, msg) = err(text);
        assert_eq!(line, 2);
        assert!(msg.contains("declares 300000000 vertices for 1 edges") && msg.contains("--sparse-ids"), "{msg}");
        let sparse = LoadOptions { sparse_ids: true, ..Default::default() };
        let text = "%%MatrixMarket matrix coordinate pattern general\n5000000 5000000 1\n1 5000000\n";
        assert_eq!(mtx_with(text, &sparse).unwrap().num_vertices, 5_000_000);
    }
}
