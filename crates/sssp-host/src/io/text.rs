//! Machinery shared by the line-oriented text formats.
//!
//! - [`line_chunks`] / [`par_map_chunks`]: split a text into line-aligned chunks and parse them in
//!   parallel; rayon's indexed `collect` keeps the results in file order.
//! - [`Scanner`]: a cursor over one chunk with hand-written integer parsing (no `str::parse`, no
//!   UTF-8 validation on the hot path).
//! - [`ErrAt`]: a failure at an absolute byte position. Chunks do not know their line numbers;
//!   the position is turned into an exact 1-based line only when the error is reported, by counting
//!   newlines before it, so the common (error-free) path never pays for line counting.
//! - [`explain`]: the slow path that says *why* a line failed the fast path (token count, a token
//!   that is not an integer, an integer that overflows).
//! - Integer formatting for the writers.

use std::ops::Range;
use std::path::Path;

use rayon::prelude::*;

use super::Progress;
use crate::error::Error;
use crate::graph::MAX_VERTICES;

/// Smallest chunk worth a rayon task; below this the split overhead dominates.
const MIN_CHUNK: usize = 256 << 10;

/// Chunks per thread: more than one so a chunk full of long lines does not leave a core idle.
const CHUNKS_PER_THREAD: usize = 8;

/// Weights are stored as `u32` (all non-negative) or `i32` (some negative); anything outside the
/// union of both ranges can never be stored, so parsers reject it with the line number.
pub(crate) const MIN_WEIGHT: i64 = i32::MIN as i64;
pub(crate) const MAX_WEIGHT: i64 = u32::MAX as i64;

/// A failure at absolute byte offset `pos` of the whole text, before it is tied to a file and a
/// line. Every failure in a text is a parse error: even a vertex id or count beyond the 32-bit
/// id space is a bad value in the file (exit code 4, with its line), not a bad argument.
#[derive(Debug)]
pub(crate) struct ErrAt {
    pub pos: usize,
    pub msg: String,
}

impl ErrAt {
    pub fn parse(pos: usize, msg: impl Into<String>) -> Self {
        ErrAt { pos, msg: msg.into() }
    }

    /// The public error, with the exact 1-based line of `pos` in `text`.
    pub fn into_error(self, path: &Path, text: &[u8]) -> Error {
        Error::parse(path, line_of(text, self.pos), self.msg)
    }
}

/// 1-based line number of byte `pos`.
pub(crate) fn line_of(text: &[u8], pos: usize) -> u64 {
    let pos = pos.min(text.len());
    text[..pos].par_chunks(1 << 20).map(count_newlines).sum::<u64>() + 1
}

/// Number of `\n` bytes (a loop LLVM vectorises).
pub(crate) fn count_newlines(b: &[u8]) -> u64 {
    memchr::memchr_iter(b'\n', b).count() as u64
}

/// Offset just past the end of the line containing `pos` (past its `\n`, or the text's end).
pub(crate) fn line_end(text: &[u8], pos: usize) -> usize {
    match text.get(pos..).and_then(|t| t.iter().position(|&c| c == b'\n')) {
        Some(i) => pos + i + 1,
        None => text.len(),
    }
}

/// The line starting at `pos`, without its newline (and without a trailing `\r`).
pub(crate) fn line_at(text: &[u8], pos: usize) -> &[u8] {
    let pos = pos.min(text.len());
    let end = line_end(text, pos);
    let mut line = &text[pos..end];
    while let [rest @ .., b'\n' | b'\r'] = line {
        line = rest;
    }
    line
}

/// Split `text[start..]` into line-aligned ranges: each ends just after a `\n` or at the end.
pub(crate) fn line_chunks(text: &[u8], start: usize) -> Vec<Range<usize>> {
    let start = start.min(text.len());
    let len = text.len() - start;
    let parts = (len / MIN_CHUNK).clamp(1, rayon::current_num_threads() * CHUNKS_PER_THREAD);
    let mut out = Vec::with_capacity(parts);
    let mut lo = start;
    for k in 1..=parts {
        if lo >= text.len() {
            break;
        }
        let hi = if k == parts {
            text.len()
        } else {
            // Cut at the first line boundary at or after the even split point.
            let target = (start + len / parts * k).max(lo + 1);
            line_end(text, target - 1)
        };
        if hi > lo {
            out.push(lo..hi);
            lo = hi;
        }
    }
    out
}

/// Run `f(chunk_bytes, chunk_offset)` on every chunk of `text[start..]` in parallel; results come
/// back in file order. Progress advances by each chunk's size.
pub(crate) fn par_map_chunks<T, F>(text: &[u8], start: usize, progress: &Progress, f: F) -> Vec<T>
where
    T: Send,
    F: Fn(&[u8], usize) -> T + Sync + Send,
{
    line_chunks(text, start)
        .into_par_iter()
        .map(|r| {
            let out = f(&text[r.clone()], r.start);
            progress.inc(r.len() as u64);
            out
        })
        .collect()
}

/// Space, tab and carriage return separate fields (so CRLF files parse); nothing else does.
#[inline(always)]
pub(crate) fn is_blank(c: u8) -> bool {
    c == b' ' || c == b'\t' || c == b'\r'
}

/// A cursor over one chunk. The end of the chunk behaves like a newline.
pub(crate) struct Scanner<'a> {
    b: &'a [u8],
    i: usize,
    base: usize,
}

impl<'a> Scanner<'a> {
    /// Scan `b`, which starts at absolute offset `base` of the whole text.
    pub fn new(b: &'a [u8], base: usize) -> Self {
        Scanner { b, i: 0, base }
    }

    /// Absolute offset of the cursor.
    #[inline(always)]
    pub fn pos(&self) -> usize {
        self.base + self.i
    }

    #[inline(always)]
    pub fn at_end(&self) -> bool {
        self.i >= self.b.len()
    }

    /// The current byte, `\n` at the end of the chunk.
    #[inline(always)]
    pub fn peek(&self) -> u8 {
        match self.b.get(self.i) {
            Some(&c) => c,
            None => b'\n',
        }
    }

    #[inline(always)]
    pub fn bump(&mut self) {
        self.i += 1;
    }

    #[inline(always)]
    pub fn skip_blanks(&mut self) {
        while self.i < self.b.len() && is_blank(self.b[self.i]) {
            self.i += 1;
        }
    }

    /// Move past the next newline (or to the end).
    #[inline]
    pub fn skip_line(&mut self) {
        match self.b[self.i.min(self.b.len())..].iter().position(|&c| c == b'\n') {
            Some(k) => self.i += k + 1,
            None => self.i = self.b.len(),
        }
    }

    /// After optional blanks, at a line end? If so, consume the newline.
    #[inline(always)]
    pub fn end_line(&mut self) -> bool {
        self.skip_blanks();
        if self.peek() == b'\n' {
            self.i += 1;
            true
        } else {
            false
        }
    }

    /// An optionally signed decimal integer that must end at a blank, a newline or the end of the
    /// chunk. `None` if there is no digit, a stray character, or the value does not fit in `i64`.
    #[inline(always)]
    pub fn read_int(&mut self) -> Option<i64> {
        let neg = match self.peek() {
            b'-' => {
                self.i += 1;
                true
            }
            b'+' => {
                self.i += 1;
                false
            }
            _ => false,
        };
        let start = self.i;
        let mut v: u64 = 0;
        while let Some(&c) = self.b.get(self.i) {
            let d = c.wrapping_sub(b'0');
            if d > 9 {
                break;
            }
            v = v.wrapping_mul(10).wrapping_add(d as u64);
            self.i += 1;
        }
        let digits = self.i - start;
        // 18 digits always fit; only longer tokens (leading zeros or overflow) need a careful pass.
        if digits == 0 || (digits > 18 && !fits_i64(&self.b[start..self.i])) {
            return None;
        }
        if !is_blank(self.peek()) && self.peek() != b'\n' {
            return None;
        }
        Some(if neg { -(v as i64) } else { v as i64 })
    }

    /// Blanks then an integer.
    #[inline(always)]
    pub fn next_int(&mut self) -> Option<i64> {
        self.skip_blanks();
        self.read_int()
    }

    /// Read whitespace-separated integers up to the end of the line into `out` and consume the
    /// newline. Returns how many were read; `None` (cursor left mid-line) when a token is not an
    /// integer or there are more than `K`.
    #[inline(always)]
    pub fn read_ints<const K: usize>(&mut self, out: &mut [i64; K]) -> Option<usize> {
        let mut n = 0;
        loop {
            if self.end_line() {
                return Some(n);
            }
            if n == K {
                return None;
            }
            out[n] = self.read_int()?;
            n += 1;
        }
    }

    /// The unread rest of the chunk (for error messages).
    pub fn rest(&self) -> &'a [u8] {
        &self.b[self.i.min(self.b.len())..]
    }

    /// The next whitespace-delimited token (possibly empty at a line end).
    pub fn read_token(&mut self) -> &'a [u8] {
        self.skip_blanks();
        let start = self.i;
        while let Some(&c) = self.b.get(self.i) {
            if is_blank(c) || c == b'\n' {
                break;
            }
            self.i += 1;
        }
        &self.b[start..self.i]
    }
}

/// Checked decimal value of a digit string, for tokens too long for the fast path.
fn fits_i64(digits: &[u8]) -> bool {
    let mut v: i64 = 0;
    for &c in digits {
        match v.checked_mul(10).and_then(|x| x.checked_add((c - b'0') as i64)) {
            Some(x) => v = x,
            None => return false,
        }
    }
    true
}

/// The bytes of `b` up to the first blank or newline.
pub(crate) fn first_token(b: &[u8]) -> &[u8] {
    let end = b.iter().position(|&c| is_blank(c) || c == b'\n').unwrap_or(b.len());
    &b[..end]
}

/// Whitespace-separated fields of a line.
pub(crate) fn tokens(line: &[u8]) -> Vec<&[u8]> {
    line.split(|&c| is_blank(c) || c == b'\n').filter(|t| !t.is_empty()).collect()
}

/// A token for a message, shortened to 40 bytes. Bytes other than printable ASCII (and `\`) are
/// escaped as `\xNN`: a binary file given as text must not write control characters or invalid
/// UTF-8 to the user's terminal.
pub(crate) fn show(tok: &[u8]) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    for &c in tok.iter().take(40) {
        if c.is_ascii_graphic() && c != b'\\' || c == b' ' {
            out.push(c as char);
        } else {
            let _ = write!(out, "\\x{c:02x}");
        }
    }
    if tok.len() > 40 {
        out.push_str("...");
    }
    out
}

/// Why `tok` is not an acceptable integer, or `None` if it is one.
pub(crate) fn int_problem(tok: &[u8]) -> Option<String> {
    let digits = tok.strip_prefix(b"-").or_else(|| tok.strip_prefix(b"+")).unwrap_or(tok);
    if !digits.is_empty() && digits.iter().all(u8::is_ascii_digit) {
        if fits_i64(digits) {
            return None;
        }
        // `18446744073709551615` fits 64 bits unsigned: say which range is meant.
        return Some(format!(
            "number `{}` is out of range: integers here are signed 64-bit ({} to {})",
            show(tok),
            i64::MIN,
            i64::MAX
        ));
    }
    let hint = if tok.contains(&b',') {
        " (fields are separated by spaces or tabs, not commas)"
    } else if tok.iter().any(|&c| c == b'.' || c == b'e' || c == b'E') {
        " (values must be integers)"
    } else {
        ""
    };
    Some(format!("expected an integer, found `{}`{hint}", show(tok)))
}

/// Which fields of a line are expected to be integers (the rest are checked by the caller).
#[derive(Clone, Copy)]
pub(crate) enum Fields {
    /// All fields are integers.
    Ints,
    /// All but the field at this index (a real number) are integers.
    IntsExcept(usize),
}

/// Slow path: explain why `line` (the fields after any line-type letter) is not `what`.
/// `counts` are the acceptable numbers of fields.
pub(crate) fn explain(line: &[u8], what: &str, counts: &[usize], fields: Fields) -> String {
    let toks = tokens(line);
    if !counts.contains(&toks.len()) {
        let hint = if line.contains(&b',') { " (fields are separated by spaces or tabs, not commas)" } else { "" };
        return format!("expected {what}, found {}{hint}", toks.len());
    }
    for (k, t) in toks.iter().enumerate() {
        if matches!(fields, Fields::IntsExcept(x) if x == k) {
            continue;
        }
        if let Some(p) = int_problem(t) {
            return p;
        }
    }
    format!("malformed line: expected {what}")
}

/// A 0-based vertex id from a signed value, or why it is not one.
#[inline(always)]
pub(crate) fn vertex0(v: i64, pos: usize) -> Result<u32, ErrAt> {
    if v < 0 {
        return Err(ErrAt::parse(pos, format!("vertex id {v} is negative (ids are 0-based)")));
    }
    if v as u64 >= MAX_VERTICES {
        return Err(ErrAt::parse(
            pos,
            format!("vertex id {v} does not fit the 32-bit vertex ids (at most {})", MAX_VERTICES - 1),
        ));
    }
    Ok(v as u32)
}

/// A 1-based file id in `1..=n` mapped to a 0-based vertex, or a range error naming the format.
#[inline(always)]
pub(crate) fn vertex1(v: i64, n: u64, pos: usize, format: &str) -> Result<u32, ErrAt> {
    if v < 1 || v as u64 > n {
        let range = if n == 0 { "(the graph has no vertices)".to_string() } else { format!("1..={n}") };
        return Err(ErrAt::parse(pos, format!("vertex {v} out of range {range} ({format} ids are 1-based)")));
    }
    Ok((v - 1) as u32)
}

/// A weight that some weight array can hold.
#[inline(always)]
pub(crate) fn weight(w: i64, pos: usize) -> Result<i64, ErrAt> {
    if !(MIN_WEIGHT..=MAX_WEIGHT).contains(&w) {
        return Err(ErrAt::parse(
            pos,
            format!("weight {w} is outside the supported range {MIN_WEIGHT}..={MAX_WEIGHT}"),
        ));
    }
    Ok(w)
}

/// A header count (vertices, arcs, entries) that must be a non-negative integer.
pub(crate) fn header_count(tok: &[u8], name: &str, pos: usize) -> Result<u64, ErrAt> {
    if let Some(p) = int_problem(tok) {
        return Err(ErrAt::parse(pos, format!("{name}: {p}")));
    }
    let digits = tok.strip_prefix(b"+").unwrap_or(tok);
    if digits.first() == Some(&b'-') {
        return Err(ErrAt::parse(pos, format!("{name} must not be negative, found `{}`", show(tok))));
    }
    // int_problem accepted it, so it is a decimal that fits in i64.
    Ok(digits.iter().fold(0u64, |v, &c| v * 10 + (c - b'0') as u64))
}

/// A vertex count from a header, checked against the id space.
pub(crate) fn header_vertices(tok: &[u8], name: &str, pos: usize) -> Result<u64, ErrAt> {
    let n = header_count(tok, name, pos)?;
    if n > MAX_VERTICES {
        return Err(ErrAt::parse(pos, format!("{name} {n} is beyond the 32-bit vertex ids (at most {MAX_VERTICES})")));
    }
    Ok(n)
}

/// Most vertices a file may declare or imply for `edges` edges without
/// [`LoadOptions::sparse_ids`](super::LoadOptions::sparse_ids): generous for real graphs
/// (isolated vertices and unused ids are common), tiny next to the sparse-id case (SNAP dumps
/// with ids like 400000000 for a handful of edges, or a header's count with a typo).
pub(crate) fn sparse_limit(edges: u64) -> u64 {
    16u64.saturating_mul(edges.saturating_add(1)).saturating_add(1024)
}

/// Bytes every vertex costs a graph build before any arc: the CSR offsets and the build's
/// per-vertex cursors (see `graph::csr_order`).
const BYTES_PER_VERTEX: u64 = 16;

/// Plausibility before commitment: `n` vertices, as `claim` says on line `line` (e.g. "the
/// header declares N = 5"), for a file of `edges` edges. Without `sparse_ids` more than
/// [`sparse_limit`] is a parse error saying how to override; with it, the vertices must still fit
/// in memory ([`Error::OutOfHostMemory`] at once, not after seconds of allocating).
pub(crate) fn plausible_vertices(
    path: &Path,
    line: u64,
    claim: &str,
    n: u64,
    edges: u64,
    sparse_ids: bool,
) -> crate::Result<()> {
    if sparse_ids {
        return crate::mem::check_fits(n.saturating_mul(BYTES_PER_VERTEX));
    }
    let limit = sparse_limit(edges);
    if n > limit {
        return Err(Error::parse(
            path,
            line,
            format!(
                "{claim} {n} vertices for {edges} edges, more than 16 x (edges + 1) + 1024 = {limit}: ids this \
                 sparse cost memory and time for every unused id; relabel them densely, or pass \
                 --sparse-ids (LoadOptions::sparse_ids) to keep them"
            ),
        ));
    }
    Ok(())
}

/// Skip comment lines (first non-blank byte in `comment`) and blank lines from `pos`; the offset
/// of the first other line, or `text.len()` if there is none.
pub(crate) fn skip_comments(text: &[u8], mut pos: usize, comment: &[u8]) -> usize {
    while pos < text.len() {
        let first = text[pos..].iter().position(|&c| !is_blank(c)).map(|k| text[pos + k]);
        match first {
            Some(c) if c != b'\n' && !comment.contains(&c) => return pos,
            _ => pos = line_end(text, pos),
        }
    }
    text.len()
}

/// Concatenate per-chunk vectors in order. The output is allocated zeroed (lazily, by the OS)
/// and filled in parallel, so its page faults and the copy are spread over the threads.
pub(crate) fn par_concat<T: Copy + Default + Send + Sync>(parts: &[&[T]]) -> Vec<T> {
    let total = parts.iter().map(|p| p.len()).sum();
    let mut out = vec![T::default(); total];
    let mut slots = Vec::with_capacity(parts.len());
    let mut rest = &mut out[..];
    for p in parts {
        let (slot, tail) = rest.split_at_mut(p.len());
        slots.push(slot);
        rest = tail;
    }
    slots.into_par_iter().zip(parts.par_iter()).for_each(|(slot, part)| slot.copy_from_slice(part));
    out
}

/// Append the decimal form of `v`.
#[inline]
pub(crate) fn push_u64(buf: &mut Vec<u8>, mut v: u64) {
    let mut tmp = [0u8; 20];
    let mut k = tmp.len();
    loop {
        k -= 1;
        tmp[k] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    buf.extend_from_slice(&tmp[k..]);
}

/// Append the decimal form of `v` (with `-` when negative).
#[inline]
pub(crate) fn push_i64(buf: &mut Vec<u8>, v: i64) {
    if v < 0 {
        buf.push(b'-');
    }
    push_u64(buf, v.unsigned_abs());
}

/// Append arc `e`'s weight: an integer, or a real weight's shortest decimal that reads back to
/// the same `f32` (Rust's `Display`, which never uses an exponent), always with a decimal point
/// (`1.0`, not `1`): an edge list is real only if some weight looks real, so a real graph whose
/// weights are all whole numbers must still say so.
pub(crate) fn push_weight(buf: &mut Vec<u8>, weights: &crate::graph::Weights, e: usize) {
    match weights {
        crate::graph::Weights::Real(w) => {
            use std::io::Write;
            let start = buf.len();
            let _ = write!(buf, "{}", f32::from_bits(w[e]));
            if !buf[start..].contains(&b'.') {
                buf.extend_from_slice(b".0");
            }
        }
        _ => push_i64(buf, weights.get(e)),
    }
}

/// The arcs one parallel chunk of a text parsed, or where it first failed. Shared by the
/// line-oriented parsers (DIMACS, Matrix Market, METIS); chunks are concatenated in file order.
pub struct Part {
    pub src: Vec<u32>,
    pub dst: Vec<u32>,
    pub w: Vec<i64>,
    pub err: Option<ErrAt>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_cover_the_text_at_line_boundaries() {
        let text: Vec<u8> = (0..200_000).flat_map(|i| format!("{i} {}\n", i * 7).into_bytes()).collect();
        let chunks = line_chunks(&text, 3);
        assert_eq!(chunks[0].start, 3);
        assert_eq!(chunks.last().unwrap().end, text.len());
        for w in chunks.windows(2) {
            assert_eq!(w[0].end, w[1].start);
            assert_eq!(text[w[0].end - 1], b'\n');
        }
        assert!(line_chunks(b"", 0).is_empty());
        assert_eq!(line_chunks(b"1 2", 0), vec![0..3]);
    }

    #[test]
    fn integers_parse_exactly_and_reject_overflow() {
        let mut s = Scanner::new(b"0 -12 +7 9223372036854775807 00000000000000000000042 9223372036854775808 1x", 0);
        assert_eq!(s.next_int(), Some(0));
        assert_eq!(s.next_int(), Some(-12));
        assert_eq!(s.next_int(), Some(7));
        assert_eq!(s.next_int(), Some(i64::MAX));
        assert_eq!(s.next_int(), Some(42));
        assert_eq!(s.next_int(), None);
        let mut s = Scanner::new(b"1x", 0);
        assert_eq!(s.next_int(), None);
        let mut s = Scanner::new(b"-", 0);
        assert_eq!(s.next_int(), None);
    }

    #[test]
    fn read_ints_counts_fields_and_consumes_the_line() {
        let mut out = [0i64; 3];
        let mut s = Scanner::new(b"1\t2 \r\n3 4 5\n6 7 8 9\n", 0);
        assert_eq!(s.read_ints(&mut out), Some(2));
        assert_eq!(s.read_ints(&mut out), Some(3));
        assert_eq!(out, [3, 4, 5]);
        assert_eq!(s.read_ints(&mut out), None);
    }

    #[test]
    fn explanations_name_the_problem() {
        assert_eq!(
            explain(b"1 2", "`a U V W` with 3 integers", &[3], Fields::Ints),
            "expected `a U V W` with 3 integers, found 2"
        );
        assert!(explain(b"1 x 3", "x", &[3], Fields::Ints).contains("found `x`"));
        assert!(explain(b"1,2", "x", &[2], Fields::Ints).contains("commas"));
        assert!(explain(b"1 99999999999999999999", "x", &[2], Fields::Ints).contains("64-bit"));
    }

    #[test]
    fn shown_tokens_escape_binary_bytes() {
        assert_eq!(show(b"abc"), "abc");
        assert_eq!(show(b"\x1b[2J\x00\xff\\"), "\\x1b[2J\\x00\\xff\\x5c");
        assert_eq!(show(&[b'x'; 50]), format!("{}...", "x".repeat(40)));
        let msg = explain(b"1 \x07\xfe", "x", &[2], Fields::Ints);
        assert!(msg.contains("`\\x07\\xfe`") && msg.is_ascii(), "{msg}");
    }

    #[test]
    fn line_numbers_and_formatting() {
        let t = b"a\nb\n\nc";
        assert_eq!(line_of(t, 0), 1);
        assert_eq!(line_of(t, 5), 4);
        assert_eq!(line_at(t, 2), b"b");
        let mut buf = Vec::new();
        push_i64(&mut buf, -1234);
        buf.push(b' ');
        push_u64(&mut buf, 0);
        buf.push(b' ');
        push_i64(&mut buf, i64::MIN);
        assert_eq!(buf, b"-1234 0 -9223372036854775808");
    }
}
