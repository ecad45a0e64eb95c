//! `--sources-file FILE`: explicit sources, one vertex id per line, for `run` and `bench` (so a
//! benchmark can use the same sources as another system's).

use std::io::Read;
use std::path::Path;

use sssp::{Error, Result};

/// The ids in `path`: one per line; blank lines and lines starting with `#` or `%` are skipped.
/// A line that is not a single 32-bit id is a parse error naming the file and line (exit 4);
/// whether each id is a vertex of the graph is checked later, like `--source`.
pub fn read(path: &Path) -> Result<Vec<u32>> {
    let text = read_bounded(path, IDS_LIMIT)?;
    let mut out = Vec::new();
    for (k, line) in text.split(|&c| c == b'\n').enumerate() {
        let line = line.trim_ascii();
        if line.is_empty() || line[0] == b'#' || line[0] == b'%' {
            continue;
        }
        let id = std::str::from_utf8(line).ok().and_then(|s| s.parse::<u32>().ok());
        match id {
            Some(id) => out.push(id),
            None => {
                return Err(Error::parse(
                    path,
                    k as u64 + 1,
                    format!("expected one vertex id (0..=4294967295), found `{}`", sssp::io::excerpt(line)),
                ))
            }
        }
    }
    if out.is_empty() {
        return Err(Error::parse(path, 0, "no vertex ids in the file"));
    }
    Ok(out)
}

/// The rows of `path` that are `width` vertex ids each (blank lines and `#`/`%` comments
/// skipped), with their 1-based line numbers; every id checked against the graph's `n` vertices.
/// A malformed line, an id out of range or a file without rows is a parse error naming the file
/// and the line (exit 4).
pub fn read_rows(path: &Path, width: usize, n: usize) -> Result<Vec<(u64, Vec<u32>)>> {
    let text = read_bounded(path, IDS_LIMIT)?;
    let mut out = Vec::new();
    for (k, line) in text.split(|&c| c == b'\n').enumerate() {
        let (at, line) = (k as u64 + 1, line.trim_ascii());
        if line.is_empty() || line[0] == b'#' || line[0] == b'%' {
            continue;
        }
        let words: Option<Vec<u32>> = std::str::from_utf8(line)
            .ok()
            .map(|s| s.split(|c: char| c.is_ascii_whitespace() || c == ',').filter(|w| !w.is_empty()))
            .and_then(|ws| ws.map(|w| w.parse::<u32>().ok()).collect());
        let ids = match words {
            Some(ids) if ids.len() == width => ids,
            _ => {
                let want = if width == 1 { "one vertex id".to_string() } else { format!("{width} vertex ids") };
                return Err(Error::parse(path, at, format!("expected {want}, found `{}`", sssp::io::excerpt(line))));
            }
        };
        if let Some(&v) = ids.iter().find(|&&v| v as usize >= n) {
            return Err(Error::parse(
                path,
                at,
                format!("vertex {v} is out of range: the graph has {n} vertices (ids 0..{n})"),
            ));
        }
        out.push((at, ids));
    }
    if out.is_empty() {
        return Err(Error::parse(path, 0, "no vertex ids in the file"));
    }
    Ok(out)
}

/// The largest id file read (`--sources-file`, `--targets-file`): 256 MiB, some 25 million
/// ids. Anything longer (`/dev/zero`, a mistaken graph file) is refused at this size instead
/// of filling memory.
pub const IDS_LIMIT: u64 = 256 << 20;

/// The whole of an auxiliary file (ids, a trace), refused with a parse error once it passes
/// `limit` bytes. Pipes and process substitution are read like files; a fifo without a writer
/// waits for one, as any reader of it does.
pub fn read_bounded(path: &Path, limit: u64) -> Result<Vec<u8>> {
    let io = |e| Error::io(path, e);
    let file = std::fs::File::open(path).map_err(io)?;
    let mut text = Vec::new();
    file.take(limit + 1).read_to_end(&mut text).map_err(io)?;
    if text.len() as u64 > limit {
        return Err(Error::parse(
            path,
            0,
            format!("longer than {limit} bytes: too long for this file (is it the right one?)"),
        ));
    }
    Ok(text)
}

/// `--source` ids followed by those of `--sources-file`, if any.
pub fn explicit(given: &[u32], file: Option<&Path>) -> Result<Vec<u32>> {
    let mut out = given.to_vec();
    if let Some(f) = file {
        out.extend(read(f)?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_comments_and_errors() {
        let dir = std::env::temp_dir().join(format!("sssp-sources-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("s.txt");
        std::fs::write(&p, "# sources\n3\n\n 7 \r\n0\n").unwrap();
        assert_eq!(read(&p).unwrap(), vec![3, 7, 0]);
        std::fs::write(&p, "3\n4 5\n").unwrap();
        assert!(matches!(read(&p), Err(Error::Parse { line: 2, .. })));
        std::fs::write(&p, "# none\n").unwrap();
        assert!(matches!(read(&p), Err(Error::Parse { line: 0, .. })));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A 10 MB line is quoted as the graph readers quote input, not whole.
    #[test]
    fn long_lines_give_short_messages() {
        let dir = std::env::temp_dir().join(format!("sssp-sources-long-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("s.txt");
        let mut text = b"3\n".to_vec();
        text.extend(std::iter::repeat_n(b'9', 10 << 20));
        std::fs::write(&p, text).unwrap();
        let msg = read(&p).unwrap_err().to_string();
        assert!(msg.len() < 200, "{} bytes: {}", msg.len(), &msg[..200]);
        assert!(msg.contains(":2:") && msg.contains("999..."), "{msg}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A file longer than the bound is refused at the bound, not read to its end: `/dev/zero`
    /// has no end.
    #[test]
    fn reads_are_bounded() {
        let e = read_bounded(Path::new("/dev/zero"), 1 << 20).unwrap_err();
        assert!(
            matches!(e, Error::Parse { line: 0, .. }) && e.to_string().contains("longer than 1048576 bytes"),
            "{e}"
        );
        let e = read(Path::new("/dev/zero")).unwrap_err().to_string();
        assert!(e.contains("longer than 268435456 bytes"), "{e}");
    }
}
