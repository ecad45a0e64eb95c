//! Where an input's bytes come from: a file, or standard input for the path `-`, plain or
//! compressed (gzip, xz, zstd, bzip2: told by the first bytes, never by the name).
//!
//! **Files and streams.** A regular file with a length is read in place: a plain one is
//! memory-mapped. Everything else is a stream, read once from the front: standard input, fifos,
//! process substitution (`<(zcat g.gz)`), `/dev/stdin`, character devices, and the files of
//! `/proc` and `/sys`, which say they are regular but report a length of 0. Nothing is ever
//! seeked: the compression is told from the first bytes, which are read and then put back in
//! front of the rest ([`peeked`]), so a stream loses nothing.
//!
//! **Bounds.** Every byte read into memory is first checked against the memory this process
//! may have ([`crate::mem::check_fits`]). On top of that:
//! - compressed data may expand to at most [`EXPANSION`] times the compressed bytes read so
//!   far, or [`EXPANSION_FLOOR`], whichever is more, checked as it decompresses: a bomb stops
//!   at its first excess, whether it comes from a file or a pipe (nothing needs its length);
//! - a text format must not contain a NUL byte, which no graph text has: `/dev/zero`, or a
//!   binary file given as text, is refused at its first chunk instead of filling memory;
//! - a binary format's stream is read up to the length its header implies, and one byte more
//!   (so that the reader can say the length is wrong), never further.
//!
//! **Trailing data.** Concatenated gzip members and zstd frames (what `pigz`, `pzstd` and
//! `cat a.gz b.gz` make) are read as one stream; bytes after the last one that do not start
//! another are refused rather than ignored (gzip's "trailing garbage ignored"): they could be
//! the rest of a graph.

use std::cell::Cell;
use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use super::Progress;
use crate::error::{Error, Result};

/// Compressed input may expand to at most this many times the compressed bytes read so far, or
/// [`EXPANSION_FLOOR`], whichever is more, before it is refused. Graph text compresses 4-6x
/// with gzip (NY's DIMACS file: 3.9x) and up to about 26x with xz on the most regular generated
/// graphs (a unit-weight 1000x1000 grid edge list); gzip reaches about 1000x on blank lines.
/// 100 leaves the most regular graph a margin of 4, and keeps what a bomb costs before it is
/// refused under a gigabyte up to 10 MB of compressed input, wherever its excess lies (the
/// bytes decompressed are at most 100 times those read). A real graph past the limit is read
/// decompressed: plain files are mapped in place.
pub const EXPANSION: u64 = 100;

/// Compressed input may always expand to this much (256 MiB), whatever its ratio: small files
/// of any ratio are read, and a bomb that expands evenly is refused here, for a few hundred
/// megabytes and a fraction of a second.
pub const EXPANSION_FLOOR: u64 = 256 << 20;

/// What the bytes must be, so that reading can stop as soon as they cannot be.
#[derive(Clone, Copy)]
pub(crate) enum Shape {
    /// A text format: no NUL bytes.
    Text,
    /// A binary format whose first `header` bytes tell its whole length (`None`: not a valid
    /// header; the reader says why once it has the bytes).
    Binary { header: usize, len: fn(&[u8]) -> Option<u64> },
}

/// A whole input: a read-only map of a plain file, or the bytes read from a stream or
/// decompressed.
pub(crate) enum Text {
    Mapped(memmap2::Mmap),
    Owned(Vec<u8>),
}

impl std::ops::Deref for Text {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Text::Mapped(m) => m,
            Text::Owned(v) => v,
        }
    }
}

/// Whether `path` names standard input (the command line's `-`).
pub(crate) fn is_stdin(path: &Path) -> bool {
    path == Path::new("-")
}

/// Whether `path` can be read a second time, the same: a regular file with a length (not
/// standard input, a fifo or a `/proc` file).
pub(crate) fn rereadable(path: &Path) -> bool {
    !is_stdin(path) && std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() > 0)
}

/// `path` opened for reading; standard input for `-`.
pub(crate) fn open(path: &Path) -> std::io::Result<File> {
    if is_stdin(path) {
        use std::os::fd::AsFd;
        return Ok(File::from(std::io::stdin().as_fd().try_clone_to_owned()?));
    }
    File::open(path)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Compression {
    None,
    Gzip,
    Xz,
    Zstd,
    Bzip2,
}

impl Compression {
    /// By magic bytes: gzip `1f 8b`, xz `fd 37 7a 58 5a 00`, zstd `28 b5 2f fd` (or a
    /// skippable frame, `5? 2a 4d 18`), bzip2 `BZh` and a block size digit.
    pub(crate) fn sniff(head: &[u8]) -> Compression {
        match head {
            [0x1f, 0x8b, ..] => Compression::Gzip,
            [0xfd, b'7', b'z', b'X', b'Z', 0, ..] => Compression::Xz,
            [0x28, 0xb5, 0x2f, 0xfd, ..] => Compression::Zstd,
            [m, 0x2a, 0x4d, 0x18, ..] if m & 0xf0 == 0x50 => Compression::Zstd,
            [b'B', b'Z', b'h', d, ..] if (b'1'..=b'9').contains(d) => Compression::Bzip2,
            _ => Compression::None,
        }
    }

    /// By name, for writing: `.gz` and `.xz` are written; `.zst` and `.bz2` are read only.
    pub(crate) fn from_name(path: &Path) -> Compression {
        let name = path.file_name().map(|n| n.to_string_lossy()).unwrap_or_default().to_ascii_lowercase();
        [
            (".gz", Compression::Gzip),
            (".xz", Compression::Xz),
            (".zst", Compression::Zstd),
            (".bz2", Compression::Bzip2),
        ]
        .into_iter()
        .find(|(s, _)| name.ends_with(s))
        .map_or(Compression::None, |(_, c)| c)
    }

    fn name(self) -> &'static str {
        match self {
            Compression::None => "plain",
            Compression::Gzip => "gzip",
            Compression::Xz => "xz",
            Compression::Zstd => "zstd",
            Compression::Bzip2 => "bzip2",
        }
    }
}

/// The whole input at `path` (standard input for `-`), decompressed if its first bytes say so,
/// within the bounds of the module docs for `shape`.
pub(crate) fn read_bytes(path: &Path, progress: bool, shape: Shape) -> Result<Text> {
    let io = |e| Error::io(path, e);
    let file = open(path).map_err(io)?;
    let meta = file.metadata().map_err(io)?;
    let mappable = meta.is_file() && meta.len() > 0;
    let bar = Progress::new(progress, if mappable { meta.len() } else { 0 }, "reading");
    let consumed = Cell::new(0u64);
    let counted = Counted { inner: &file, progress: &bar, count: &consumed };
    let (head, rest) = peeked(counted, 6).map_err(io)?;
    let kind = Compression::sniff(&head);
    if kind == Compression::None && mappable {
        // A plain file is parsed straight from the page cache: no copy, and none of the page
        // faults of a private buffer as large as the file (about a fifth of the load time of a
        // large edge list). Truncating the file while it is parsed is undefined behaviour, the
        // usual caveat of maps.
        // SAFETY: read-only private map; see the caveat above.
        let map = unsafe { memmap2::MmapOptions::new().populate().map(&file) }.map_err(io)?;
        // The same rule as for streams, so that a file reads the same whichever way it comes
        // (a NUL byte in a comment line would pass the parsers): one memchr pass, a few
        // percent of parsing.
        if let (Shape::Text, Some(at)) = (shape, memchr_nul(&map)) {
            let line = super::text::count_newlines(&map[..at]) + 1;
            return unread(path, kind, &consumed, Err(Unread::NotText { line })).map(Text::Owned);
        }
        return Ok(Text::Mapped(map));
    }
    let source = BufReader::with_capacity(1 << 20, std::io::Cursor::new(head).chain(rest));
    let bound = Bound { consumed: &consumed, compressed: kind != Compression::None, shape };
    let res = match kind {
        Compression::None => read_all(source, &bound),
        Compression::Gzip => read_all(Members::gzip(source), &bound),
        Compression::Xz => read_all(xz2::bufread::XzDecoder::new_multi_decoder(source), &bound),
        Compression::Zstd => read_all(Members::zstd(source), &bound),
        Compression::Bzip2 => read_all(bzip2::bufread::MultiBzDecoder::new(source), &bound),
    };
    bar.finish();
    unread(path, kind, &consumed, res).map(Text::Owned)
}

/// The error for why [`read_all`] stopped short, if it did.
fn unread(path: &Path, kind: Compression, consumed: &Cell<u64>, res: Result<Vec<u8>, Unread>) -> Result<Vec<u8>> {
    let what = kind.name();
    match res {
        Ok(out) => Ok(out),
        Err(Unread::Memory(e)) => Err(e),
        Err(Unread::Expands(limit)) => Err(Error::parse(
            path,
            0,
            format!(
                "{what} data expands past {limit} bytes from {} (more than {EXPANSION}x: a decompression bomb, or a \
                 graph to decompress first: a plain file is read in place, without a copy in memory)",
                consumed.get()
            ),
        )),
        Err(Unread::NotText { line }) => Err(Error::parse(
            path,
            line,
            "a NUL byte: this is not graph text (a binary file or a device such as /dev/zero; see --format)",
        )),
        Err(Unread::Io(e)) if e.get_ref().is_some_and(|i| i.is::<Trailing>()) => {
            Err(Error::parse(path, 0, format!("{what} data: {e}")))
        }
        // Bad compressed data is a property of the file, not of the system: report it as such.
        Err(Unread::Io(e)) if is_data_error(&e) => {
            Err(Error::parse(path, 0, format!("corrupt or truncated {what} data: {e}")))
        }
        Err(Unread::Io(e)) => Err(Error::io(path, e)),
    }
}

/// The first `k` bytes of `r` (fewer if it ends first), and `r` to read the rest from: the
/// bytes are taken, not seeked back, so pipes work; the caller reads them again in front.
pub(crate) fn peeked<R: Read>(mut r: R, k: usize) -> std::io::Result<(Vec<u8>, R)> {
    let mut head = vec![0u8; k];
    let mut got = 0;
    while got < k {
        match r.read(&mut head[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    head.truncate(got);
    Ok((head, r))
}

/// How far [`read_all`] may go: see the module docs.
struct Bound<'a> {
    /// Input bytes read so far (compressed ones, for compressed input).
    consumed: &'a Cell<u64>,
    compressed: bool,
    shape: Shape,
}

impl Bound<'_> {
    /// The most output bytes allowed now, by the expansion rule (`u64::MAX` for plain input).
    fn expansion(&self) -> u64 {
        if self.compressed {
            self.consumed.get().saturating_mul(EXPANSION).max(EXPANSION_FLOOR)
        } else {
            u64::MAX
        }
    }
}

/// Why [`read_all`] stopped short.
pub(crate) enum Unread {
    /// The bytes would outgrow memory: [`Error::OutOfHostMemory`].
    Memory(Error),
    /// The output would pass this expansion limit.
    Expands(u64),
    /// Text with a NUL byte on this (1-based) line.
    NotText { line: u64 },
    /// The reader failed.
    Io(std::io::Error),
}

/// Everything `r` gives, within `bound`, in a buffer whose every growth is first checked
/// against the memory this process may have ([`crate::mem::check_fits`]) and then reserved
/// fallibly: a few megabytes of compressed input can expand to more than the machine holds,
/// which must end as [`Error::OutOfHostMemory`] (exit 5), not as an abort or the OOM killer.
/// Growth never passes the expansion limit, so the buffer's capacity stays within it too.
fn read_all(mut r: impl Read, bound: &Bound) -> std::result::Result<Vec<u8>, Unread> {
    let mut out: Vec<u8> = Vec::new();
    let mut chunk = vec![0u8; 1 << 20];
    // A binary stream's whole length, once its header is in.
    let mut whole: Option<u64> = None;
    loop {
        let n = match r.read(&mut chunk) {
            Ok(0) => return Ok(out),
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(Unread::Io(e)),
        };
        let limit = bound.expansion();
        if (out.len() + n) as u64 > limit {
            return Err(Unread::Expands(limit));
        }
        if let (Shape::Text, Some(at)) = (bound.shape, memchr_nul(&chunk[..n])) {
            let line = super::text::count_newlines(&out) + super::text::count_newlines(&chunk[..at]) + 1;
            return Err(Unread::NotText { line });
        }
        let mut take = n;
        if let Some(w) = whole {
            // One byte past the header's length is enough for the reader to say it is wrong.
            take = take.min((w + 1).saturating_sub(out.len() as u64) as usize);
        }
        if out.len() + take > out.capacity() {
            // Doubling, as `Vec` would, but asked for only once it is known to fit, and never
            // past the expansion limit.
            let room = usize::try_from(limit.saturating_sub(out.len() as u64)).unwrap_or(usize::MAX);
            let grow = out.capacity().max(take).max(chunk.len()).min(room).max(take);
            let needed = (out.len() as u64).saturating_add(grow as u64);
            crate::mem::check_fits(needed)
                .and_then(|()| crate::mem::reserve(&mut out, grow))
                .map_err(Unread::Memory)?;
        }
        out.extend_from_slice(&chunk[..take]);
        if let Shape::Binary { header, len } = bound.shape {
            if whole.is_none() && out.len() >= header {
                // A header that tells no length leaves the reader to say what is wrong with it.
                whole = Some(len(&out[..header]).unwrap_or(header as u64 - 1));
            }
            if let Some(w) = whole.filter(|&w| out.len() as u64 > w) {
                out.truncate(w as usize + 1);
                return Ok(out);
            }
        }
    }
}

/// Where the first NUL byte of `bytes` is.
fn memchr_nul(bytes: &[u8]) -> Option<usize> {
    memchr::memchr(0, bytes)
}

fn is_data_error(e: &std::io::Error) -> bool {
    use std::io::ErrorKind::*;
    matches!(e.kind(), InvalidData | InvalidInput | UnexpectedEof)
}

/// A reader that advances a progress bar and counts what it read.
struct Counted<'a, R> {
    inner: R,
    progress: &'a Progress,
    count: &'a Cell<u64>,
}

impl<R: Read> Read for Counted<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.progress.inc(n as u64);
        self.count.set(self.count.get() + n as u64);
        Ok(n)
    }
}

/// Bytes after the last gzip member or zstd frame that do not start another one.
#[derive(Debug)]
struct Trailing {
    format: &'static str,
    first: u8,
}

impl std::fmt::Display for Trailing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "bytes after the last {} member start no other one (first byte {:#04x}): refused rather than \
             ignored, since they may be part of the graph",
            self.format, self.first
        )
    }
}

impl std::error::Error for Trailing {}

/// Concatenated gzip members or zstd frames as one stream, refusing trailing bytes that start
/// neither (see [`Trailing`]).
enum Members<R: BufRead> {
    /// Inside a gzip member.
    Gzip(Box<flate2::bufread::GzDecoder<R>>),
    /// Between zstd frames (`active` false) or inside one.
    Zstd { src: R, dec: Box<ruzstd::decoding::FrameDecoder>, active: bool },
    /// Taken apart to move to the next member, or finished.
    Done,
}

impl<R: BufRead> Members<R> {
    fn gzip(src: R) -> Self {
        Members::Gzip(Box::new(flate2::bufread::GzDecoder::new(src)))
    }

    fn zstd(src: R) -> Self {
        Members::Zstd { src, dec: Box::new(ruzstd::decoding::FrameDecoder::new()), active: false }
    }

    /// After a member: the next one's first byte, if there is more input.
    fn next_byte(src: &mut R) -> std::io::Result<Option<u8>> {
        Ok(src.fill_buf()?.first().copied())
    }
}

impl<R: BufRead> Read for Members<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            match std::mem::replace(self, Members::Done) {
                Members::Done => return Ok(0),
                Members::Gzip(mut z) => {
                    let n = z.read(buf)?;
                    if n > 0 {
                        *self = Members::Gzip(z);
                        return Ok(n);
                    }
                    let mut src = (*z).into_inner();
                    match Self::next_byte(&mut src)? {
                        None => return Ok(0),
                        Some(0x1f) => *self = Members::gzip(src),
                        Some(first) => return Err(trailing("gzip", first)),
                    }
                }
                Members::Zstd { mut src, mut dec, active } => {
                    let n = if active { zstd_read(&mut src, &mut dec, buf)? } else { 0 };
                    if n > 0 {
                        *self = Members::Zstd { src, dec, active };
                        return Ok(n);
                    }
                    match Self::next_byte(&mut src)? {
                        None => return Ok(0),
                        Some(first) if first == 0x28 || first & 0xf0 == 0x50 => {
                            let started = zstd_frame(&mut src, &mut dec)?;
                            *self = Members::Zstd { src, dec, active: started };
                        }
                        Some(first) => return Err(trailing("zstd", first)),
                    }
                }
            }
        }
    }
}

fn trailing(format: &'static str, first: u8) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidData, Trailing { format, first })
}

fn zstd_error(e: impl std::fmt::Display) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidData, e.to_string())
}

/// Start the next zstd frame: `true` for a data frame, `false` for a skippable one (skipped).
fn zstd_frame<R: BufRead>(src: &mut R, dec: &mut ruzstd::decoding::FrameDecoder) -> std::io::Result<bool> {
    use ruzstd::decoding::errors::{FrameDecoderError, ReadFrameHeaderError};
    match dec.init(&mut *src) {
        Ok(()) => Ok(true),
        Err(FrameDecoderError::ReadFrameHeaderError(ReadFrameHeaderError::SkipFrame { length, .. })) => {
            let skipped = std::io::copy(&mut src.take(u64::from(length)), &mut std::io::sink())?;
            if skipped < u64::from(length) {
                return Err(std::io::Error::new(std::io::ErrorKind::UnexpectedEof, "a truncated skippable frame"));
            }
            Ok(false)
        }
        Err(e) => Err(zstd_error(e)),
    }
}

/// Decode the current zstd frame into `buf`; 0 at its end (its checksum checked).
fn zstd_read<R: BufRead>(
    src: &mut R,
    dec: &mut ruzstd::decoding::FrameDecoder,
    buf: &mut [u8],
) -> std::io::Result<usize> {
    use ruzstd::decoding::BlockDecodingStrategy;
    while dec.can_collect() < buf.len() && !dec.is_finished() {
        let want = buf.len() - dec.can_collect();
        dec.decode_blocks(&mut *src, BlockDecodingStrategy::UptoBytes(want)).map_err(zstd_error)?;
    }
    let n = dec.read(buf)?;
    if n == 0 {
        if let (Some(stored), Some(computed)) = (dec.get_checksum_from_data(), dec.get_calculated_checksum()) {
            if stored != computed {
                return Err(zstd_error(format!(
                    "checksum mismatch ({stored:#010x} stored, {computed:#010x} computed)"
                )));
            }
        }
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bound(consumed: &Cell<u64>, shape: Shape) -> Bound<'_> {
        Bound { consumed, compressed: true, shape }
    }

    /// A few kilobytes of gzip that expand past the floor stop there, whatever the whole would
    /// be; the limit follows the compressed bytes read so far.
    #[test]
    fn compressed_input_stops_at_the_expansion_limit() {
        use std::io::Write;
        let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        z.write_all(&vec![b'\n'; 300 << 20]).unwrap();
        let gz = z.finish().unwrap();
        assert!(gz.len() < 1 << 20, "{} bytes", gz.len());
        let consumed = Cell::new(gz.len() as u64);
        let r = read_all(Members::gzip(&gz[..]), &bound(&consumed, Shape::Text));
        assert!(matches!(r, Err(Unread::Expands(EXPANSION_FLOOR))), "300 MiB past the 256 MiB floor");
        let consumed = Cell::new(3 << 20);
        assert_eq!(bound(&consumed, Shape::Text).expansion(), 300 << 20);
    }

    #[test]
    fn magic_bytes_tell_the_compression() {
        assert_eq!(Compression::sniff(&[0x1f, 0x8b, 8]), Compression::Gzip);
        assert_eq!(Compression::sniff(&[0x28, 0xb5, 0x2f, 0xfd, 0]), Compression::Zstd);
        assert_eq!(Compression::sniff(&[0x50, 0x2a, 0x4d, 0x18]), Compression::Zstd);
        assert_eq!(Compression::sniff(b"BZh91AY"), Compression::Bzip2);
        assert_eq!(Compression::sniff(b"BZh 1 2"), Compression::None);
        assert_eq!(Compression::sniff(b"\x1f"), Compression::None);
        assert_eq!(Compression::from_name(Path::new("a.el.ZST")), Compression::Zstd);
    }

    /// Two gzip members are one stream; a byte after them that starts no member is refused.
    #[test]
    fn gzip_members_and_trailing_bytes() {
        use std::io::Write;
        let member = |s: &[u8]| {
            let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            z.write_all(s).unwrap();
            z.finish().unwrap()
        };
        let mut two = member(b"0 1\n");
        two.extend(member(b"1 2\n"));
        let mut out = String::new();
        Members::gzip(&two[..]).read_to_string(&mut out).unwrap();
        assert_eq!(out, "0 1\n1 2\n");
        two.extend(b"junk");
        let e = Members::gzip(&two[..]).read_to_string(&mut out).unwrap_err();
        assert!(e.get_ref().is_some_and(|i| i.is::<Trailing>()), "{e}");
    }

    /// A binary stream is read to its header's length and one byte more, not to its end.
    #[test]
    fn binary_streams_stop_past_the_header_length() {
        let shape = Shape::Binary { header: 1, len: |h| Some(u64::from(h[0])) };
        let consumed = Cell::new(0);
        let b = Bound { consumed: &consumed, compressed: false, shape };
        let data = [10u8; 100];
        assert_eq!(read_all(&data[..], &b).ok().map(|v| v.len()), Some(11));
        let nul = Bound { consumed: &consumed, compressed: false, shape: Shape::Text };
        assert!(matches!(read_all(&b"0 1\n1 2\n\0"[..], &nul), Err(Unread::NotText { line: 3 })));
    }
}
