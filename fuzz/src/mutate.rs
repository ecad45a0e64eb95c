//! Mutations of a seed: byte-level edits, splicing, number replacement and long lines for text;
//! aligned word overwrites for the binary formats; token edits for argument vectors.
//!
//! Every choice comes from one [`Rng`] seeded per iteration, so an iteration replays exactly
//! from `(seed, target, iteration)` alone (the supervisor restarts a crashed worker there).

/// SplitMix64: small, seedable, good enough to pick mutations.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        sssp::rng::mix64(self.0)
    }

    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// True one time in `n`.
    pub fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }

    pub fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
}

/// Numbers at the edges of the types the readers use, and huge counts.
pub const INTERESTING: &[&str] = &[
    "0",
    "-1",
    "1",
    "-0",
    "+1",
    "2147483647",
    "2147483648",
    "-2147483648",
    "-2147483649",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999999",
    "400000000",
    "1000000000",
    "1e9",
    "3.5",
    "-0.5",
    "1e308",
    "1e39",
    "nan",
    "inf",
    "0x10",
];

/// Bytes that change how a text line is read.
const SPECIAL_BYTES: &[u8] = b" \t\n\r-+0123456789#%,.e:\0\xff";

/// Longest run a "long line" mutation inserts; one in [`HUGE_EVERY`] is 10 MB.
const LONG_LINE: usize = 1 << 16;
const HUGE_LINE: usize = 10 << 20;
const HUGE_EVERY: usize = 200;

/// The largest input a mutation makes: a 10 MB line and some (stacked mutations that copy
/// ranges would otherwise grow an input without bound, and the fuzzer would run out of memory
/// itself).
pub const MAX_INPUT: usize = 16 << 20;

/// Apply 1 to 4 text mutations to `data`; `others` are the target's seeds, for splicing.
pub fn text(rng: &mut Rng, data: &mut Vec<u8>, others: &[Vec<u8>]) {
    for _ in 0..1 + rng.below(4) {
        if data.len() > MAX_INPUT {
            data.truncate(MAX_INPUT);
            return;
        }
        match rng.below(11) {
            0 => flip_bit(rng, data),
            1 => set_byte(rng, data),
            2 => insert_bytes(rng, data),
            3 => delete_range(rng, data),
            4 => duplicate_range(rng, data),
            5 => splice(rng, data, others),
            6 | 7 => replace_number(rng, data),
            8 => long_line(rng, data),
            9 => duplicate_line(rng, data),
            _ => delete_line(rng, data),
        }
    }
    data.truncate(MAX_INPUT);
}

/// Like [`text`], plus overwrites of aligned 32- and 64-bit words with interesting values
/// (counts, offsets and ids in the binary formats are words).
pub fn binary(rng: &mut Rng, data: &mut Vec<u8>, others: &[Vec<u8>]) {
    for _ in 0..1 + rng.below(3) {
        if data.len() > MAX_INPUT {
            data.truncate(MAX_INPUT);
            return;
        }
        match rng.below(8) {
            0 => flip_bit(rng, data),
            1 => set_byte(rng, data),
            2 => delete_range(rng, data),
            3 => duplicate_range(rng, data),
            4 => splice(rng, data, others),
            _ => set_word(rng, data),
        }
    }
    data.truncate(MAX_INPUT);
}

fn flip_bit(rng: &mut Rng, d: &mut [u8]) {
    if !d.is_empty() {
        let i = rng.below(d.len());
        d[i] ^= 1 << rng.below(8);
    }
}

fn set_byte(rng: &mut Rng, d: &mut [u8]) {
    if !d.is_empty() {
        let i = rng.below(d.len());
        d[i] = if rng.one_in(2) { *rng.pick(SPECIAL_BYTES) } else { rng.next_u64() as u8 };
    }
}

fn insert_bytes(rng: &mut Rng, d: &mut Vec<u8>) {
    let at = rng.below(d.len() + 1);
    let k = 1 + rng.below(8);
    let bytes: Vec<u8> =
        (0..k).map(|_| if rng.one_in(2) { *rng.pick(SPECIAL_BYTES) } else { rng.next_u64() as u8 }).collect();
    d.splice(at..at, bytes);
}

/// A random range, shorter ones more likely.
fn range(rng: &mut Rng, len: usize) -> (usize, usize) {
    let a = rng.below(len + 1);
    let max = (len - a).min(if rng.one_in(4) { len } else { 16 });
    (a, a + rng.below(max + 1))
}

fn delete_range(rng: &mut Rng, d: &mut Vec<u8>) {
    let (a, b) = range(rng, d.len());
    d.drain(a..b);
}

fn duplicate_range(rng: &mut Rng, d: &mut Vec<u8>) {
    let (a, b) = range(rng, d.len());
    let piece = d[a..b].to_vec();
    let at = rng.below(d.len() + 1);
    d.splice(at..at, piece);
}

/// A prefix of `d` followed by a suffix of another seed.
fn splice(rng: &mut Rng, d: &mut Vec<u8>, others: &[Vec<u8>]) {
    if others.is_empty() {
        return;
    }
    let o = rng.pick(others);
    let cut = rng.below(d.len() + 1);
    let from = rng.below(o.len() + 1);
    d.truncate(cut);
    d.extend_from_slice(&o[from..]);
}

/// Replace one run of digits (with its sign) by an interesting number.
fn replace_number(rng: &mut Rng, d: &mut Vec<u8>) {
    let starts: Vec<usize> =
        (0..d.len()).filter(|&i| d[i].is_ascii_digit() && (i == 0 || !d[i - 1].is_ascii_digit())).collect();
    if starts.is_empty() {
        return insert_bytes(rng, d);
    }
    let mut a = *rng.pick(&starts);
    let mut b = a;
    while b < d.len() && d[b].is_ascii_digit() {
        b += 1;
    }
    if a > 0 && d[a - 1] == b'-' {
        a -= 1;
    }
    d.splice(a..b, rng.pick(INTERESTING).bytes());
}

fn long_line(rng: &mut Rng, d: &mut Vec<u8>) {
    let len = if rng.one_in(HUGE_EVERY) { HUGE_LINE } else { 1 + rng.below(LONG_LINE) };
    let fill = *rng.pick(b"x9 ,-");
    let at = rng.below(d.len() + 1);
    d.splice(at..at, std::iter::repeat_n(fill, len));
}

fn line_bounds(rng: &mut Rng, d: &[u8]) -> (usize, usize) {
    let i = rng.below(d.len() + 1);
    let a = d[..i].iter().rposition(|&c| c == b'\n').map_or(0, |p| p + 1);
    let b = d[i..].iter().position(|&c| c == b'\n').map_or(d.len(), |p| i + p + 1);
    (a, b)
}

fn duplicate_line(rng: &mut Rng, d: &mut Vec<u8>) {
    let (a, b) = line_bounds(rng, d);
    let line = d[a..b].to_vec();
    let times = if rng.one_in(8) { (1 << 20) / line.len().max(1) } else { 1 }.clamp(1, 1000);
    for _ in 0..times {
        d.splice(b..b, line.iter().copied());
    }
}

fn delete_line(rng: &mut Rng, d: &mut Vec<u8>) {
    let (a, b) = line_bounds(rng, d);
    d.drain(a..b);
}

/// Overwrite an aligned word with 0, 1, all ones, a power of two, a huge count or a nearby
/// value: counts and offsets are where binary readers must not trust the file.
fn set_word(rng: &mut Rng, d: &mut [u8]) {
    let width = if rng.one_in(2) { 4 } else { 8 };
    if d.len() < width {
        return;
    }
    let at = rng.below(d.len() / width) * width;
    let old = if width == 4 {
        u32::from_le_bytes(d[at..at + 4].try_into().expect("4 bytes")) as u64
    } else {
        u64::from_le_bytes(d[at..at + 8].try_into().expect("8 bytes"))
    };
    let v = match rng.below(7) {
        0 => 0,
        1 => 1,
        2 => u64::MAX,
        3 => 1u64 << rng.below(64),
        4 => 400_000_000,
        5 => old.wrapping_add(1),
        _ => old.wrapping_sub(1),
    };
    d[at..at + width].copy_from_slice(&v.to_le_bytes()[..width]);
}

/// Mutate an argument vector: drop, duplicate, swap or insert arguments (from `dict`, the
/// flags and values the command's help names), or edit one argument's text.
pub fn args(rng: &mut Rng, a: &mut Vec<String>, dict: &[String]) {
    for _ in 0..1 + rng.below(3) {
        match rng.below(7) {
            0 if !a.is_empty() => {
                a.remove(rng.below(a.len()));
            }
            1 if !a.is_empty() => {
                let x = a[rng.below(a.len())].clone();
                a.insert(rng.below(a.len() + 1), x);
            }
            2 if a.len() > 1 => {
                let (i, j) = (rng.below(a.len()), rng.below(a.len()));
                a.swap(i, j);
            }
            3 | 4 if !dict.is_empty() => {
                let x = rng.pick(dict).clone();
                a.insert(rng.below(a.len() + 1), x);
            }
            5 if !a.is_empty() => {
                let i = rng.below(a.len());
                a[i] = rng.pick(INTERESTING).to_string();
            }
            _ if !a.is_empty() => {
                let i = rng.below(a.len());
                let mut b = a[i].clone().into_bytes();
                match rng.below(3) {
                    0 => replace_number(rng, &mut b),
                    1 => delete_range(rng, &mut b),
                    _ => insert_bytes(rng, &mut b),
                }
                // Arguments must stay valid strings for `Command`, and must not name paths
                // outside the work directory (a mutated `-o` would overwrite anything).
                a[i] = String::from_utf8_lossy(&b).replace(['/', '\0'], "_");
            }
            _ => {}
        }
    }
}
