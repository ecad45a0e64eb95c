//! A tiny, stable, seedable random number generator (SplitMix64).
//!
//! Why our own: generated graphs, random weights and random sources must be identical for the
//! same seed across versions, platforms and thread counts. SplitMix64 is also a good *hash*, so
//! per-item values are computed as `mix(seed, index)` and never depend on iteration order, which
//! keeps parallel generators reproducible.

/// SplitMix64's increment (2^64 / golden ratio), by which [`Rng`]'s state advances.
pub(crate) const GOLDEN_GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

/// SplitMix64 finaliser: a bijective 64-bit mixer.
#[inline]
pub fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The value of stream `seed` at position `index`, independent of any other position.
#[inline]
pub fn hash2(seed: u64, index: u64) -> u64 {
    mix64(seed ^ mix64(index.wrapping_add(GOLDEN_GAMMA)))
}

/// Sequential SplitMix64 stream, for the places where values are drawn in a fixed order (a
/// single-threaded loop); parallel code uses [`hash2`] so its values do not depend on scheduling.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// The stream for `seed`: equal seeds give equal streams on every platform and version.
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    /// The next 64 uniformly distributed bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(GOLDEN_GAMMA);
        mix64(self.0)
    }

    /// Uniform in `0..n` (n > 0), by Lemire's multiply-shift (bias < 2^-32 for n < 2^32).
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        below(self.next_u64(), n)
    }

    /// Uniform in `[0, 1)`.
    #[inline]
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

/// Map a random 64-bit value to `0..n` (n > 0).
#[inline]
pub fn below(r: u64, n: u64) -> u64 {
    ((r as u128 * n as u128) >> 64) as u64
}
