//! Recompute the stored checksum of a mutated binary graph or hierarchy file, as the writers
//! would (both layouts are documented in `sssp::io::binary` and `sssp::hierarchy::file`).
//!
//! Without this nearly every mutation of a binary file stops at the checksum test, and the
//! structural checks behind it (offsets, ids, levels, the core table) would never see a
//! hostile value. Half of the binary mutations are fixed up, half are not.

use sssp::rng::{hash2, mix64};

/// Position key multiplier of the body sum (2^64 / golden ratio).
const K: u64 = 0x9E37_79B9_7F4A_7C15;

fn u32_at(d: &[u8], at: usize) -> u64 {
    u32::from_le_bytes(d[at..at + 4].try_into().expect("4 bytes")) as u64
}

fn u64_at(d: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(d[at..at + 8].try_into().expect("8 bytes"))
}

/// Sum of `mix64(word ^ index * K)` over `body` as little-endian words, a partial last word
/// zero-padded.
fn body_sum(body: &[u8]) -> u64 {
    body.chunks(8).enumerate().fold(0u64, |s, (i, w)| {
        let mut word = [0u8; 8];
        word[..w.len()].copy_from_slice(w);
        s.wrapping_add(mix64(u64::from_le_bytes(word) ^ (i as u64).wrapping_mul(K)))
    })
}

/// A binary CSR graph: 40-byte header, checksum at 32.
pub fn fix_binary(d: &mut [u8]) {
    const HEADER: usize = 40;
    if d.len() < HEADER {
        return;
    }
    let (version, flags, n, m) = (u32_at(d, 8), u32_at(d, 12), u64_at(d, 16), u64_at(d, 24));
    let sum = mix64(body_sum(&d[HEADER..]) ^ hash2(hash2(n, m), version << 32 | flags));
    d[32..40].copy_from_slice(&sum.to_le_bytes());
}

/// A hierarchy file: 104-byte header, checksum at 96 over the header words 8..96 and the body.
pub fn fix_hierarchy(d: &mut [u8]) {
    const HEADER: usize = 104;
    if d.len() < HEADER {
        return;
    }
    let mut h = hash2(u32_at(d, 8) << 32 | u32_at(d, 12), u64_at(d, 16));
    for at in (24..96).step_by(8) {
        h = hash2(h, u64_at(d, at));
    }
    let sum = mix64(body_sum(&d[HEADER..]) ^ h);
    d[96..104].copy_from_slice(&sum.to_le_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;
    use sssp::hierarchy::Hierarchy;
    use sssp::io::{parse_text, Format, LoadOptions};

    /// The fix-ups must reproduce what the writers store, or every "fixed" mutation would stop
    /// at the checksum test like an unfixed one.
    #[test]
    fn fix_ups_reproduce_the_writers_checksums() {
        let dir = std::env::temp_dir().join(format!("sssp-fuzz-checksum-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let text = b"p sp 5 6\na 1 2 3\na 2 3 4\na 3 4 1\na 4 5 2\na 5 1 7\na 2 4 9\n";
        let g = parse_text(std::path::Path::new("g.gr"), text, Format::Dimacs, &LoadOptions::default())
            .unwrap()
            .into_graph_as_given()
            .unwrap();
        let (bin, ch) = (dir.join("g.bin"), dir.join("g.ch"));
        sssp::io::binary::write(&g, &bin).unwrap();
        Hierarchy::build(&g).unwrap().write(&g, &ch).unwrap();
        for (path, at, fix) in [(&bin, 32, fix_binary as fn(&mut [u8])), (&ch, 96, fix_hierarchy)] {
            let want = std::fs::read(path).unwrap();
            let mut got = want.clone();
            got[at..at + 8].fill(0);
            fix(&mut got);
            assert_eq!(got, want, "{}", path.display());
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
