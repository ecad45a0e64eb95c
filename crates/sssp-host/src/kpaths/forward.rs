//! The spur searches on exact (integer) lengths: forward from the spur vertex, guided by the
//! best remainders to the target on the whole graph.
//!
//! One search backwards from the target, on pairs (distance, arcs), gives every vertex `v` its
//! best remainder on the whole graph in the documented order: its length and arcs (an exact A*
//! potential, consistent on pairs), its first step (the smallest tight successor), and whether
//! another remainder ties with it. A spur search then starts at the spur vertex and classifies
//! what it reaches (after Feng's node classification, "Finding k shortest simple paths in
//! directed graphs", 2014): a vertex whose best remainder meets no vertex of the root is
//! *green*, and its best remainder in the masked graph is the one on the whole graph, so the
//! search stops there instead of walking it; only the others (*yellow*) are expanded. A search
//! so visits the few vertices around the spur whose best remainders run back into the root,
//! not the length of the detour.
//!
//! The order among equal (length, arcs) remainders is lexicographic, which a forward search
//! cannot tell locally; so each search also tells whether its best remainder is the only one
//! of its length and arcs (no vertex reached twice at its best, no green vertex whose best
//! remainder ties). When it is not, the exact backwards search of the parent module answers
//! for that spur, bounded by the length found.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use super::{Arcs, Entry, Length};

/// No vertex / no index / does not reach the target.
const NONE: u32 = u32::MAX;

/// Every vertex's best remainder to the target on the whole graph.
pub(super) struct ToTarget<L> {
    dist: Vec<L>,
    /// Arcs of the best remainder; `NONE`: the target is not reached (within the cutoff).
    hops: Vec<u32>,
    /// The first step of the best remainder (the smallest tight successor).
    next: Vec<u32>,
    /// Another remainder has the same length and arcs.
    tied: Vec<bool>,
}

impl<L: Length> ToTarget<L> {
    /// The search backwards from `target` over the in-arcs, ignoring remainders longer than
    /// `cutoff` (they lie on no path within it).
    pub(super) fn new(arcs: &Arcs<'_, L>, target: u32, cutoff: Option<L>) -> Self {
        let n = arcs.n();
        let (mut dist, mut hops) = (vec![L::ZERO; n], vec![NONE; n]);
        let mut done = vec![false; n];
        let mut order = Vec::new();
        let mut heap = BinaryHeap::new();
        hops[target as usize] = 0;
        heap.push(Entry(L::ZERO, 0, target));
        while let Some(Entry(d, h, v)) = heap.pop() {
            let i = v as usize;
            if done[i] || h != hops[i] || d != dist[i] {
                continue;
            }
            done[i] = true;
            order.push(v);
            for (u, w) in arcs.inn(v) {
                let j = u as usize;
                let Some(du) = d.plus(w) else { continue };
                if done[j] || cutoff.is_some_and(|c| du.order(&c) == Ordering::Greater) {
                    continue;
                }
                if hops[j] == NONE || du.order(&dist[j]).then((h + 1).cmp(&hops[j])) == Ordering::Less {
                    (dist[j], hops[j]) = (du, h + 1);
                    heap.push(Entry(du, h + 1, u));
                }
            }
        }
        let mut to = ToTarget { dist, hops, next: vec![NONE; n], tied: vec![false; n] };
        // In settling order, so that a successor's tie is known before its predecessors'.
        for &v in order.iter().skip(1) {
            to.link(arcs, v);
        }
        to
    }

    /// `next` and `tied` of `v`, its successors' being known.
    fn link(&mut self, arcs: &Arcs<'_, L>, v: u32) {
        let (dv, hv) = (self.dist[v as usize], self.hops[v as usize]);
        let (mut best, mut more) = (NONE, false);
        for (x, w) in arcs.out(v) {
            let hx = self.hops[x as usize];
            if hx == NONE || hx + 1 != hv || self.dist[x as usize].plus(w) != Some(dv) {
                continue;
            }
            if best != NONE && best != x {
                more = true; // a second tight successor (parallel arcs are one)
            }
            best = best.min(x);
        }
        self.next[v as usize] = best;
        self.tied[v as usize] = more || self.tied[best as usize];
    }

    /// Whether `v` reaches the target.
    pub(super) fn reaches(&self, v: u32) -> bool {
        self.hops[v as usize] != NONE
    }

    /// `path` (ending at a vertex that reaches the target) extended by its best remainder.
    fn walk(&self, mut path: Vec<u32>, target: u32) -> Vec<u32> {
        let mut x = *path.last().expect("a vertex");
        while x != target {
            x = self.next[x as usize];
            path.push(x);
        }
        path
    }
}

/// A heap entry of a forward search: (key, key's arcs, arcs from the spur, vertex), smallest
/// first. Among equal keys fewer arcs from the spur first, so that every predecessor giving a
/// vertex its best label is expanded before the vertex is (ties are all seen).
struct Key<L>(L, u32, u32, u32);

impl<L: Length> Ord for Key<L> {
    fn cmp(&self, o: &Self) -> Ordering {
        // Reversed: BinaryHeap pops the largest.
        o.0.order(&self.0).then(o.1.cmp(&self.1)).then(o.2.cmp(&self.2)).then(o.3.cmp(&self.3))
    }
}
impl<L: Length> PartialOrd for Key<L> {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl<L: Length> PartialEq for Key<L> {
    fn eq(&self, o: &Self) -> bool {
        self.cmp(o) == Ordering::Equal
    }
}
impl<L: Length> Eq for Key<L> {}

/// The best remainder found so far: its length and arcs, the green vertex it enters its whole
/// graph's best remainder at, that vertex's predecessor, and whether another one ties.
#[derive(Clone, Copy)]
struct Best<L> {
    len: L,
    hops: u32,
    via: u32,
    from: u32,
    tied: bool,
}

/// The forward searches' state, reused from one search to the next (O(n) in all).
pub(super) struct Forward<'s, 'a, L: Length> {
    arcs: &'s Arcs<'a, L>,
    to: &'s ToTarget<L>,
    target: u32,
    /// The index of each vertex on the path being taken apart, valid where `pos_at == path`.
    pos: Vec<u32>,
    pos_at: Vec<u32>,
    /// The smallest such index on a vertex's best remainder (itself included), where
    /// `red_at == path`: the vertex is green for spur indices below it.
    red: Vec<u32>,
    red_at: Vec<u32>,
    path: u32,
    /// Labels (distance, arcs from the spur), predecessor and tie, where `seen == epoch`.
    dist: Vec<L>,
    hops: Vec<u32>,
    parent: Vec<u32>,
    tie: Vec<bool>,
    seen: Vec<u32>,
    done: Vec<u32>,
    epoch: u32,
    heap: BinaryHeap<Key<L>>,
    chain: Vec<u32>,
    /// The settled vertices in order; `ok == epoch`: on a best remainder; `dead == epoch`: no
    /// tight path to the target avoids the root (both only where remainders tie).
    popped: Vec<u32>,
    ok: Vec<u32>,
    dead: Vec<u32>,
}

impl<'s, 'a, L: Length> Forward<'s, 'a, L> {
    pub(super) fn new(arcs: &'s Arcs<'a, L>, to: &'s ToTarget<L>, target: u32) -> Self {
        let n = arcs.n();
        Forward {
            arcs,
            to,
            target,
            pos: vec![0; n],
            pos_at: vec![0; n],
            red: vec![0; n],
            red_at: vec![0; n],
            path: 0,
            dist: vec![L::ZERO; n],
            hops: vec![0; n],
            parent: vec![0; n],
            tie: vec![false; n],
            seen: vec![0; n],
            done: vec![0; n],
            epoch: 0,
            heap: BinaryHeap::new(),
            chain: Vec::new(),
            popped: Vec::new(),
            ok: vec![0; n],
            dead: vec![0; n],
        }
    }

    /// Take `p` apart next: its vertices' indices, and forget the colours of the last path.
    pub(super) fn set_path(&mut self, p: &[u32]) {
        self.path += 1;
        for (j, &v) in p.iter().enumerate() {
            (self.pos[v as usize], self.pos_at[v as usize]) = (j as u32, self.path);
        }
    }

    fn pos(&self, v: u32) -> u32 {
        if self.pos_at[v as usize] == self.path {
            self.pos[v as usize]
        } else {
            NONE
        }
    }

    /// The smallest path index on `v`'s best remainder, memoized along the remainder (so a
    /// path's searches walk each remainder once).
    fn red(&mut self, v: u32) -> u32 {
        let mut chain = std::mem::take(&mut self.chain);
        chain.clear();
        let mut x = v;
        let mut acc = loop {
            if self.red_at[x as usize] == self.path {
                break self.red[x as usize];
            }
            chain.push(x);
            if x == self.target {
                break NONE;
            }
            x = self.to.next[x as usize];
        };
        for &y in chain.iter().rev() {
            acc = acc.min(self.pos(y));
            (self.red[y as usize], self.red_at[y as usize]) = (acc, self.path);
        }
        self.chain = chain;
        self.red[v as usize]
    }

    /// The best remainder from `spur`, the path's vertex at index `at`, avoiding the path's
    /// earlier vertices and the spur's arcs to `banned`, no longer than `limit`, with its length.
    pub(super) fn spur(&mut self, at: u32, spur: u32, banned: &[u32], limit: Option<L>) -> Option<(L, Vec<u32>)> {
        self.epoch += 1;
        let e = self.epoch;
        self.heap.clear();
        self.popped.clear();
        if !self.to.reaches(spur) {
            return None;
        }
        let s = spur as usize;
        (self.dist[s], self.hops[s], self.tie[s], self.seen[s]) = (L::ZERO, 0, false, e);
        self.heap.push(Key(self.to.dist[s], self.to.hops[s], 0, spur));
        let mut best: Option<Best<L>> = None;
        let cut = Cut { at, spur, banned, limit };
        while let Some(Key(f, fh, h, v)) = self.heap.pop() {
            // Past the best: nothing left can tie with it.
            let beyond = |b: &Best<L>| f.order(&b.len).then(fh.cmp(&b.hops)) == Ordering::Greater;
            if best.as_ref().is_some_and(beyond) || limit.is_some_and(|l| f.order(&l) == Ordering::Greater) {
                break;
            }
            let i = v as usize;
            let stale = h != self.hops[i] || self.dist[i].plus(self.to.dist[i]) != Some(f);
            if self.done[i] == e || stale {
                continue; // settled, or a stale entry
            }
            self.done[i] = e;
            self.popped.push(v);
            self.expand(&cut, v, &mut best);
        }
        let b = best?;
        let path = if b.tied { self.resolve(&cut, (b.len, b.hops)) } else { self.read(b, spur) };
        Some((b.len, path))
    }

    /// Where the arc `v -> x` of weight `w` leads from the settled `v` (labelled): nowhere (a
    /// removed vertex or arc, not reaching the target, past the limit), to a green vertex and
    /// so a remainder of (length, arcs), or to a yellow one with the label (distance, arcs).
    fn step(&mut self, cut: &Cut<'_, L>, v: u32, x: u32, w: L) -> Step<L> {
        let j = x as usize;
        if x == v || !self.to.reaches(x) || self.pos(x) <= cut.at || (v == cut.spur && cut.banned.contains(&x)) {
            return Step::Nowhere;
        }
        let (dv, hv) = (self.dist[v as usize], self.hops[v as usize]);
        let Some(dx) = dv.plus(w) else { return Step::Nowhere };
        let Some(f) = dx.plus(self.to.dist[j]) else { return Step::Nowhere };
        if cut.limit.is_some_and(|l| f.order(&l) == Ordering::Greater) {
            return Step::Nowhere;
        }
        match self.red(x) > cut.at {
            true => Step::Green(f, hv + 1 + self.to.hops[j]),
            false => Step::Yellow(dx, hv + 1, f, hv + 1 + self.to.hops[j]),
        }
    }

    /// Relax the out-arcs of the settled yellow vertex `v`: green heads are offered as
    /// remainders, yellow ones labelled.
    fn expand(&mut self, cut: &Cut<'_, L>, v: u32, best: &mut Option<Best<L>>) {
        let e = self.epoch;
        let tv = self.tie[v as usize];
        let arcs = self.arcs;
        for (x, w) in arcs.out(v) {
            let j = x as usize;
            if self.done[j] == e {
                continue;
            }
            match self.step(cut, v, x, w) {
                Step::Nowhere => {}
                Step::Green(f, fh) => {
                    offer(best, Best { len: f, hops: fh, via: x, from: v, tied: tv || self.to.tied[j] });
                }
                Step::Yellow(dx, hx, f, fh) => {
                    let label = dx.order(&self.dist[j]).then(hx.cmp(&self.hops[j]));
                    if self.seen[j] != e || label == Ordering::Less {
                        (self.dist[j], self.hops[j], self.parent[j], self.tie[j], self.seen[j]) = (dx, hx, v, tv, e);
                        self.heap.push(Key(f, fh, hx, x));
                    } else if label == Ordering::Equal && self.parent[j] != v {
                        self.tie[j] = true;
                    }
                }
            }
        }
    }

    /// The remainder of `b`: the labelled vertices back to the spur, then `b.via`'s best
    /// remainder on the whole graph.
    fn read(&self, b: Best<L>, spur: u32) -> Vec<u32> {
        let mut back = vec![b.via];
        let mut u = b.from;
        loop {
            back.push(u);
            if u == spur {
                break;
            }
            u = self.parent[u as usize];
        }
        back.reverse();
        self.to.walk(back, self.target)
    }

    /// The lexicographically smallest of the remainders of (length, arcs) `best`, after a
    /// search that found several. Each is settled yellow vertices along tight arcs, then a green
    /// vertex entered at `best`, then a path of the whole graph's tight arcs avoiding the root
    /// (every such path from a green vertex is a best remainder there). Which settled vertices
    /// lead on to one is found backwards (in reverse settling order: tight successors settle
    /// later), then the smallest such step is taken from the spur on.
    fn resolve(&mut self, cut: &Cut<'_, L>, best: (L, u32)) -> Vec<u32> {
        let e = self.epoch;
        let popped = std::mem::take(&mut self.popped);
        for &v in popped.iter().rev() {
            let on = self.next_step(cut, v, best).is_some();
            self.ok[v as usize] = if on { e } else { 0 };
        }
        self.popped = popped;
        let mut path = vec![cut.spur];
        let mut u = cut.spur;
        loop {
            let Some((x, green)) = self.next_step(cut, u, best) else { return path }; // unreachable
            path.push(x);
            if green {
                return self.tight_walk(path, cut.at);
            }
            u = x;
        }
    }

    /// The smallest head of an arc out of the settled `v` that lies on a remainder of `best`
    /// (a green head entered at `best`, or a tight settled yellow head leading on to one), and
    /// whether it is green.
    fn next_step(&mut self, cut: &Cut<'_, L>, v: u32, best: (L, u32)) -> Option<(u32, bool)> {
        let e = self.epoch;
        let arcs = self.arcs;
        let mut pick: Option<(u32, bool)> = None;
        for (x, w) in arcs.out(v) {
            if pick.is_some_and(|(p, _)| p <= x) {
                continue;
            }
            let j = x as usize;
            let on = match self.step(cut, v, x, w) {
                Step::Nowhere => None,
                Step::Green(f, fh) => (f == best.0 && fh == best.1).then_some(true),
                Step::Yellow(dx, hx, _, _) => {
                    let tight = self.done[j] == e && dx == self.dist[j] && hx == self.hops[j];
                    (tight && self.ok[j] == e).then_some(false)
                }
            };
            if let Some(green) = on {
                pick = Some((x, green));
            }
        }
        pick
    }

    /// `path`, ending at a green vertex, extended to the target by the lexicographically
    /// smallest path of tight arcs (on the whole graph's remainders) that avoids the path's
    /// vertices up to index `at`: depth first, smallest successor first, remembering the
    /// vertices that lead nowhere.
    fn tight_walk(&mut self, mut path: Vec<u32>, at: u32) -> Vec<u32> {
        let e = self.epoch;
        let base = path.len();
        // The last successor tried at each depth past the green vertex.
        let mut tried: Vec<Option<u32>> = vec![None];
        while let Some(&u) = path.last() {
            if u == self.target {
                return path;
            }
            let after = *tried.last().expect("one per depth");
            match self.tight_after(u, after, at) {
                Some(x) => {
                    *tried.last_mut().expect("one per depth") = Some(x);
                    path.push(x);
                    tried.push(None);
                }
                None => {
                    self.dead[u as usize] = e;
                    path.pop();
                    tried.pop();
                    if path.len() < base {
                        break; // unreachable: a green vertex's own best remainder avoids the root
                    }
                }
            }
        }
        path
    }

    /// The smallest tight successor of `u` above `after`, neither removed nor leading nowhere.
    fn tight_after(&self, u: u32, after: Option<u32>, at: u32) -> Option<u32> {
        let (du, hu) = (self.to.dist[u as usize], self.to.hops[u as usize]);
        self.arcs
            .out(u)
            .filter(|&(x, w)| {
                let j = x as usize;
                after.is_none_or(|a| x > a)
                    && self.to.reaches(x)
                    && self.to.hops[j] + 1 == hu
                    && self.to.dist[j].plus(w) == Some(du)
                    && self.pos(x) > at
                    && self.dead[j] != self.epoch
            })
            .map(|(x, _)| x)
            .min()
    }
}

/// A spur search's removals and bound.
struct Cut<'b, L> {
    at: u32,
    spur: u32,
    banned: &'b [u32],
    limit: Option<L>,
}

/// Where an arc leads in a spur search ([`Forward::step`]).
enum Step<L> {
    Nowhere,
    /// A green head: the remainder's (length, arcs).
    Green(L, u32),
    /// A yellow head: its label (distance, arcs) and key.
    Yellow(L, u32, L, u32),
}

/// Keep the better of `best` and `b` (length, then arcs); two different ways of equal length
/// and arcs tie (the same arc twice, parallel arcs, is one way).
fn offer<L: Length>(best: &mut Option<Best<L>>, b: Best<L>) {
    let Some(old) = best.as_mut() else {
        *best = Some(b);
        return;
    };
    match b.len.order(&old.len).then(b.hops.cmp(&old.hops)) {
        Ordering::Less => *old = b,
        Ordering::Equal if (b.via, b.from) != (old.via, old.from) => old.tied = true,
        Ordering::Equal => old.tied |= b.tied,
        Ordering::Greater => {}
    }
}
