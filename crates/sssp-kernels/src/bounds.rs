//! Eccentricity bounding, the per-vertex passes of Takes and Kosters' BoundingDiameters as the
//! GPU paper runs them (`gpu-exact-diameter-bounding`, Algorithm 2: UPDATE BOUNDS KERNEL and
//! UPDATE CANDIDATES KERNEL, plus the ECCENTRICITY reduction of Algorithm 1), so the host never
//! downloads a distance vector per eccentricity.
//!
//! Three passes after an SSSP from `source`, each a grid-stride loop returning a per-thread
//! partial that the caller folds (warp shuffles and one atomic per warp on the GPU, a plain fold
//! on the CPU) into the result cells [`BoundsArgs::out`]:
//! 1. [`ecc_partial`]: the largest distance to a member of the component, and the vertex (ties:
//!    the smaller id), packed by [`far_key`];
//! 2. [`update_partial`]: every member's bounds tightened by [`update_bounds`] (the source's set
//!    to its eccentricity), and the global bounds folded: max/min of lower and upper bounds;
//! 3. [`pick_partial`]: among the [`candidate`]s, the one with the largest upper bound and the
//!    one with the smallest lower bound (ties: smaller id); the host alternates between them.
//!
//! [`update_bounds`] and [`candidate`] are the rules themselves; the host's bookkeeping for
//! directed graphs (which needs backward distances from a second engine) calls them too.

use crate::relax::load_packed;
use crate::types::*;

/// Result cell: [`far_key`] of the eccentricity (max over members).
pub const B_ECC: usize = 0;
/// Result cell: largest lower bound (the diameter's lower bound `D_L`).
pub const B_DLO: usize = 1;
/// Result cell: largest upper bound (`D_U`).
pub const B_DHI: usize = 2;
/// Result cell: smallest lower bound (the radius's lower bound `R_L`).
pub const B_RLO: usize = 3;
/// Result cell: smallest upper bound (`R_U`).
pub const B_RHI: usize = 4;
/// Result cell: [`far_key`] `(ub, v)` of the candidate with the largest upper bound (0: none).
pub const B_UPPER: usize = 5;
/// Result cell: `(lb << 32) | v` of the candidate with the smallest lower bound (`u64::MAX`:
/// none).
pub const B_LOWER: usize = 6;
/// Result cell: how many members have an upper bound above `D_L` (the diameter's open set:
/// only they can be an end of a pair farther apart than `D_L`). The host switches to pair
/// certification (`sssp::diameter`) once it is small.
pub const B_OVER: usize = 7;
/// Result cells in all.
pub const B_CELLS: usize = 8;

/// What the result cells hold before the passes fold into them.
pub const B_RESET: [u64; B_CELLS] = [0, 0, 0, u64::MAX, u64::MAX, 0, u64::MAX, 0];

/// Rules: the diameter (always pursued).
pub const RULE_DIAMETER: u32 = 1;
/// Rules: the radius.
pub const RULE_RADIUS: u32 = 2;
/// Rules: the center (needs the radius).
pub const RULE_CENTER: u32 = 4;
/// Rules: the periphery.
pub const RULE_PERIPHERY: u32 = 8;

/// A distance and its vertex, packed so that the maximum is the largest distance and, among
/// equals, the smallest vertex id.
#[inline(always)]
pub const fn far_key(d: u32, v: u32) -> u64 {
    ((d as u64) << 32) | (!v) as u64
}

/// The vertex of a [`far_key`].
#[inline(always)]
pub const fn far_vertex(k: u64) -> u32 {
    !(k as u32)
}

/// The paper's UPDATE BOUNDS for one vertex `v`, with forward distance `f = d(u, v)` and
/// backward distance `b = d(v, u)` from a vertex `u` of eccentricity `ecc` (`b = f` on
/// undirected graphs): `ecc(v) >= b`, `ecc(v) >= ecc - f`, `ecc(v) <= b + ecc`. Saturating, so
/// an unbounded upper bound stays unbounded.
#[inline(always)]
pub fn update_bounds(lb: u64, ub: u64, f: u64, b: u64, ecc: u64) -> (u64, u64) {
    let low = if b > ecc.saturating_sub(f) { b } else { ecc.saturating_sub(f) };
    let high = b.saturating_add(ecc);
    (if low > lb { low } else { lb }, if high < ub { high } else { ub })
}

/// The global bounds: `[D_L, D_U, R_L, R_U]`.
pub type Globals = [u64; 4];

/// The global bounds of no vertex, which [`widen`] folds vertices into.
pub const NO_GLOBALS: Globals = [0, 0, u64::MAX, u64::MAX];

/// `g` with a vertex of bounds `l <= h` folded in (the host's bookkeeping; the device folds
/// per-thread partials in `update_partial`).
#[inline(always)]
pub fn widen(g: Globals, l: u64, h: u64) -> Globals {
    [g[0].max(l), g[1].max(h), g[2].min(l), g[3].min(h)]
}

/// The paper's UPDATE CANDIDATES rule for a vertex with bounds `l <= h`: whether its
/// eccentricity can still change an answer that `rules` asks for. Exact vertices never are.
/// Diameter: unless `h <= D_L and 2 l >= D_U` (it can neither be the diameter nor tighten
/// others'). Radius: while `l < R_U`. Center, once the radius `R` is known: while
/// `l <= R < h`. Periphery, once the diameter `D` is known: while `l < D <= h`.
#[inline(always)]
pub fn candidate(l: u64, h: u64, g: &Globals, rules: u32) -> bool {
    let [d_lo, d_hi, r_lo, r_hi] = *g;
    if l == h {
        return false;
    }
    let diam = rules & RULE_DIAMETER != 0 && d_lo != d_hi && !(h <= d_lo && l.saturating_mul(2) >= d_hi);
    let rad = rules & RULE_RADIUS != 0 && r_lo != r_hi && l < r_hi;
    let cen = rules & RULE_CENTER != 0 && r_lo == r_hi && l <= r_hi && r_hi < h;
    let per = rules & RULE_PERIPHERY != 0 && d_lo == d_hi && l < d_lo && d_lo <= h;
    diam || rad || cen || per
}

/// Parameters of the bounding passes.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct BoundsArgs {
    /// Packed distances of the last run (from `source`): `n << lane_bits` of them, vertex `v`
    /// of this eccentricity at `(v << lane_bits) | lane` (batched eccentricities, one per lane
    /// of an engine with lanes; `lane_bits == 0` for one).
    pub dist: *mut u64,
    /// `n` lower bounds (meaningful for members).
    pub lb: *mut u32,
    /// `n` upper bounds (`INF`: none yet).
    pub ub: *mut u32,
    /// `n` flags: non-zero for members of the component.
    pub member: *const u32,
    /// [`B_CELLS`] result cells, reset to [`B_RESET`] before pass 1.
    pub out: *mut u64,
    /// Vertices.
    pub n: u32,
    /// The run's source (its bounds become its eccentricity).
    pub source: u32,
    /// `RULE_*` flags.
    pub rules: u32,
    /// Log2 of the run's lanes, and the lane of this eccentricity.
    pub lane_bits: u16,
    pub lane: u16,
}

// The layout the PTX entry points expect (the host fills this block field by field), and the
// thread-safety and launch-argument marks that every parameter block carries (see `types`).
const _: () = assert!(core::mem::size_of::<BoundsArgs>() == 5 * 8 + 16);
#[cfg(all(feature = "cuda", not(target_arch = "nvptx64")))]
// SAFETY: `#[repr(C)]`, `Copy`, only integers and addresses, the layout checked above.
unsafe impl cudarc::driver::DeviceRepr for BoundsArgs {}

/// The distance of graph vertex `v` in this eccentricity's lane.
#[inline(always)]
unsafe fn dist_at(a: &BoundsArgs, v: u32) -> u32 {
    dist_of(load_packed(a.dist, (v << a.lane_bits) | a.lane as u32))
}

unsafe impl Send for BoundsArgs {}
unsafe impl Sync for BoundsArgs {}

/// Pass 1 (ECCENTRICITY): this thread's largest [`far_key`] over members. Every member must have
/// been reached (a component's members are).
#[inline(always)]
pub unsafe fn ecc_partial(a: &BoundsArgs, tid: u32, nthreads: u32) -> u64 {
    let mut best = 0u64;
    let mut v = tid;
    while v < a.n {
        if *a.member.add(v as usize) != 0 {
            let k = far_key(dist_at(a, v), v);
            best = if k > best { k } else { best };
        }
        v += nthreads;
    }
    best
}

/// Pass 2 (UPDATE BOUNDS): tighten this thread's members' bounds with the eccentricity in
/// `out[B_ECC]`, and return its partial `[max lb, max ub, min lb, min ub]`.
#[inline(always)]
pub unsafe fn update_partial(a: &BoundsArgs, tid: u32, nthreads: u32) -> [u64; 4] {
    let ecc = (core::ptr::read_volatile(a.out.add(B_ECC)) >> 32) as u64;
    let mut acc = [0u64, 0, u64::MAX, u64::MAX];
    let mut v = tid;
    while v < a.n {
        if *a.member.add(v as usize) != 0 {
            let (lp, up) = (a.lb.add(v as usize), a.ub.add(v as usize));
            let (l, h) = if v == a.source {
                (ecc, ecc)
            } else {
                let f = dist_at(a, v) as u64;
                let ub = if *up == INF { u64::MAX } else { *up as u64 };
                update_bounds(*lp as u64, ub, f, f, ecc)
            };
            // An upper bound past 32 bits stays INF ("none"); real ones are below it.
            let h32 = if h >= INF as u64 { INF } else { h as u32 };
            *lp = l as u32;
            *up = h32;
            let h = h32 as u64;
            acc[0] = if l > acc[0] { l } else { acc[0] };
            acc[1] = if h > acc[1] { h } else { acc[1] };
            acc[2] = if l < acc[2] { l } else { acc[2] };
            acc[3] = if h < acc[3] { h } else { acc[3] };
        }
        v += nthreads;
    }
    acc
}

/// Pass 3 (UPDATE CANDIDATES and selection): this thread's candidate with the largest upper
/// bound (as a [`far_key`]; 0 for none) and with the smallest lower bound (`(lb << 32) | v`;
/// `u64::MAX` for none), by the global bounds in `out`, and how many of its members have an
/// upper bound above `D_L` (for [`B_OVER`]).
#[inline(always)]
pub unsafe fn pick_partial(a: &BoundsArgs, tid: u32, nthreads: u32) -> (u64, u64, u64) {
    let g: Globals = [
        core::ptr::read_volatile(a.out.add(B_DLO)),
        core::ptr::read_volatile(a.out.add(B_DHI)),
        core::ptr::read_volatile(a.out.add(B_RLO)),
        core::ptr::read_volatile(a.out.add(B_RHI)),
    ];
    let (mut up, mut low, mut over) = (0u64, u64::MAX, 0u64);
    let mut v = tid;
    while v < a.n {
        if *a.member.add(v as usize) != 0 {
            let (l, h) = (*a.lb.add(v as usize), *a.ub.add(v as usize));
            over += (h as u64 > g[0]) as u64;
            if candidate(l as u64, h as u64, &g, a.rules) {
                let ku = far_key(h, v);
                let kl = ((l as u64) << 32) | v as u64;
                up = if ku > up { ku } else { up };
                low = if kl < low { kl } else { low };
            }
        }
        v += nthreads;
    }
    (up, low, over)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_follow_the_triangle_inequality() {
        // u has eccentricity 10; v is 3 from u: 7 <= ecc(v) <= 13.
        assert_eq!(update_bounds(0, u64::MAX, 3, 3, 10), (7, 13));
        // Directed: v is 3 from u, u is 12 from v: 12 <= ecc(v) <= 22.
        assert_eq!(update_bounds(0, u64::MAX, 3, 12, 10), (12, 22));
        // Never loosened.
        assert_eq!(update_bounds(9, 11, 3, 3, 10), (9, 11));
    }

    #[test]
    fn candidates_follow_the_paper() {
        let g = [10, 14, 5, 8];
        assert!(!candidate(6, 6, &g, RULE_DIAMETER)); // exact
        assert!(candidate(6, 12, &g, RULE_DIAMETER)); // could exceed D_L
        assert!(candidate(6, 9, &g, RULE_DIAMETER)); // 2 * 6 < 14: may still tighten others
        assert!(!candidate(7, 9, &g, RULE_DIAMETER)); // pruned
        assert!(candidate(7, 9, &g, RULE_RADIUS)); // 7 < R_U = 8
        assert!(!candidate(8, 9, &g, RULE_RADIUS));
        let known = [10, 10, 8, 8];
        assert!(candidate(8, 9, &known, RULE_CENTER) && !candidate(9, 12, &known, RULE_CENTER));
        assert!(candidate(9, 12, &known, RULE_PERIPHERY) && !candidate(8, 9, &known, RULE_PERIPHERY));
        assert_eq!(far_vertex(far_key(5, 17)), 17);
        assert!(far_key(5, 1) > far_key(5, 2) && far_key(6, 9) > far_key(5, 1));
    }
}
