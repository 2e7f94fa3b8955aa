//! Exact memoised search over canonical melds, with arrangement reconstruction.
//!
//! State: the remaining natural cards (counts per distinct face, as a mixed-radix index) and the
//! wilds left. The lowest remaining natural `c` is either deadwood, or in a set of its rank with
//! 1..=5 naturals, or in a run of its suit whose window is 3..=5 positions long. Longer melds
//! never need to be considered: a set of 6+ naturals splits into two sets of 3+, and a run
//! window of 6+ positions splits into two windows of 3+ with the same wilds. A window starts at
//! `c` (nothing of its suit is left below it) unless it would pass the top, and a window of 4 or
//! 5 has naturals at both ends (else the shorter window does as well with a wild fewer). Every
//! other member of `c`'s meld is still present when `c` is the lowest card, so every arrangement
//! in this normal form is reached.

use super::{
    AceMode, Arrangement, Meld, MeldKind, MeldRules, Split, finish, is_wild, natural_value,
    pos_rank, positions, run_window, split,
};
use crate::card::{self, face, rank, suit};

pub(crate) type FastMap<V> = crate::hash::FastMap<u64, V>;

const NONE: u8 = u8::MAX;

/// One way to place the lowest remaining natural.
#[derive(Clone, Copy, Debug)]
enum Opt {
    Dead,
    /// Copies of `rank` taken per suit.
    Set {
        rank: u8,
        take: [u8; 4],
        need: u8,
    },
    /// Window `lo..=hi` of `suit`; bit `q - lo` of `taken` set where a natural is used.
    Run {
        suit: u8,
        lo: u8,
        hi: u8,
        taken: u16,
        need: u8,
    },
}

struct Solver {
    faces: Vec<u8>,
    cnt: Vec<u8>,
    radix: Vec<u64>,
    vals: Vec<u16>,
    idx: [u8; 52],
    wild: u8,
    mode: AceMode,
    wplus: u64,
    memo: FastMap<u16>,
}

impl Solver {
    fn new(hand: &[u8], wild: u8, mode: AceMode, wilds: u32) -> (Self, u64) {
        let mut counts = [0u8; 52];
        for &f in hand {
            if !is_wild(f, wild) {
                counts[usize::from(f)] += 1;
            }
        }
        let mut s = Self {
            faces: Vec::new(),
            cnt: Vec::new(),
            radix: Vec::new(),
            vals: Vec::new(),
            idx: [NONE; 52],
            wild,
            mode,
            wplus: u64::from(wilds) + 1,
            memo: FastMap::default(),
        };
        let mut place = 1u64;
        let mut state = 0u64;
        for f in 0..card::NATURALS {
            let c = counts[usize::from(f)];
            if c > 0 {
                {
                    s.idx[usize::from(f)] = s.faces.len() as u8;
                }
                s.faces.push(f);
                s.cnt.push(c);
                s.radix.push(place);
                s.vals.push(natural_value(rank(f), mode) as u16);
                state += place * u64::from(c);
                place *= u64::from(c) + 1;
            }
        }
        (s, state)
    }

    #[inline]
    fn count(&self, f: u8) -> u8 {
        match self.idx[usize::from(f)] {
            NONE => 0,
            j => self.cnt[usize::from(j)],
        }
    }

    fn options(&self, i: usize, wrem: u8) -> Vec<Opt> {
        let c = self.faces[i];
        let (r, s0) = (rank(c), suit(c));
        let mut out = vec![Opt::Dead];
        // Sets of rank r holding c: 1..=5 naturals, wilds up to 3.
        let avail: [u8; 4] = std::array::from_fn(|s| self.count(face(r, s as u8)).min(5));
        for t0 in 0..=avail[0] {
            for t1 in 0..=avail[1] {
                for t2 in 0..=avail[2] {
                    for t3 in 0..=avail[3] {
                        let take = [t0, t1, t2, t3];
                        let n = t0 + t1 + t2 + t3;
                        if take[usize::from(s0)] == 0 || n > 5 {
                            continue;
                        }
                        let need = 3u8.saturating_sub(n);
                        if need <= wrem {
                            out.push(Opt::Set {
                                rank: r,
                                take,
                                need,
                            });
                        }
                    }
                }
            }
        }
        // Runs of suit s0 holding c at position p.
        // `c` is the lowest natural left in its suit (faces are processed suit by suit, rank
        // upwards): see `run_window`.
        for &p in positions(r, self.mode) {
            for len in 3u8..=5 {
                let Some((lo, hi, required, free)) = run_window(p, len, self.mode, |q| {
                    let rq = pos_rank(q);
                    rq != self.wild && self.count(face(rq, s0)) > 0
                }) else {
                    continue;
                };
                // Every subset of the other present positions.
                let mut sub = free;
                loop {
                    let taken = sub | required | (1 << (p - lo));
                    let need = len - taken.count_ones() as u8;
                    if need <= wrem {
                        out.push(Opt::Run {
                            suit: s0,
                            lo,
                            hi,
                            taken,
                            need,
                        });
                    }
                    if sub == 0 {
                        break;
                    }
                    sub = (sub - 1) & free;
                }
            }
        }
        out
    }

    /// Removes (`add = false`) or restores the naturals of `o` other than `Dead`'s card, returning
    /// the state delta; `Dead` handles card `i`.
    fn apply(&mut self, i: usize, o: &Opt, add: bool) -> u64 {
        let mut delta = 0u64;
        let mut one = |this: &mut Self, f: u8, k: u8| {
            let j = usize::from(this.idx[usize::from(f)]);
            if add {
                this.cnt[j] += k;
            } else {
                this.cnt[j] -= k;
            }
            delta += this.radix[j] * u64::from(k);
        };
        match *o {
            Opt::Dead => one(self, self.faces[i], 1),
            Opt::Set { rank: r, take, .. } => {
                for (s, &k) in take.iter().enumerate() {
                    if k > 0 {
                        one(self, face(r, s as u8), k);
                    }
                }
            }
            Opt::Run {
                suit: s,
                lo,
                hi,
                taken,
                ..
            } => {
                for q in lo..=hi {
                    if taken & (1 << (q - lo)) != 0 {
                        one(self, face(pos_rank(q), s), 1);
                    }
                }
            }
        }
        delta
    }

    fn cost(&self, i: usize, o: &Opt) -> (u16, u8) {
        match *o {
            Opt::Dead => (self.vals[i], 0),
            Opt::Set { need, .. } | Opt::Run { need, .. } => (0, need),
        }
    }

    fn first(&self, start: usize) -> Option<usize> {
        (start..self.faces.len()).find(|&j| self.cnt[j] > 0)
    }

    fn solve(&mut self, start: usize, state: u64, wrem: u8) -> u16 {
        let Some(i) = self.first(start) else {
            return 0;
        };
        let key = state * self.wplus + u64::from(wrem);
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let mut best = u16::MAX;
        for o in self.options(i, wrem) {
            let (cost, need) = self.cost(i, &o);
            let delta = self.apply(i, &o, false);
            let v = cost + self.solve(i, state - delta, wrem - need);
            self.apply(i, &o, true);
            best = best.min(v);
        }
        self.memo.insert(key, best);
        best
    }

    /// One optimal sequence of options from the full state.
    fn trace(&mut self, mut state: u64, mut wrem: u8) -> Vec<(usize, Opt)> {
        let mut out = Vec::new();
        let mut start = 0;
        while let Some(i) = self.first(start) {
            let target = self.solve(i, state, wrem);
            let mut chosen = None;
            for o in self.options(i, wrem) {
                let (cost, need) = self.cost(i, &o);
                let delta = self.apply(i, &o, false);
                let v = cost + self.solve(i, state - delta, wrem - need);
                if v == target {
                    chosen = Some((o, delta, need));
                    break;
                }
                self.apply(i, &o, true);
            }
            let Some((o, delta, need)) = chosen else {
                unreachable!("the optimum is always reachable");
            };
            out.push((i, o));
            state -= delta;
            wrem -= need;
            start = i;
        }
        out
    }
}

/// Least unmelded natural value with at most all the hand's wilds (the module's `D`).
#[must_use]
pub fn natural_deadwood(hand: &[u8], wild: u8, rules: &MeldRules) -> u32 {
    let sp = split(hand, wild, rules);
    let (mut s, state) = Solver::new(hand, wild, rules.ace_mode, sp.wilds);
    u32::from(s.solve(0, state, sp.wilds.min(255) as u8))
}

/// Minimum deadwood by the search alone (the oracle of the fast path).
#[must_use]
pub fn deadwood(hand: &[u8], wild: u8, rules: &MeldRules) -> u32 {
    let sp = split(hand, wild, rules);
    finish(natural_deadwood(hand, wild, rules), &sp)
}

/// Picks wilds for a set of `rank` whose naturals have `suits`: each stands for a missing suit.
fn set_stand_ins(rank: u8, natural_suits: &[u8], n: usize) -> Vec<u8> {
    let mut order: Vec<u8> = (0..4).filter(|s| !natural_suits.contains(s)).collect();
    order.extend(0..4);
    (0..n).map(|k| face(rank, order[k % order.len()])).collect()
}

/// One optimal arrangement (indices into `hand`).
#[must_use]
pub fn arrangement(hand: &[u8], wild: u8, rules: &MeldRules) -> Arrangement {
    let sp: Split = split(hand, wild, rules);
    let (mut s, state) = Solver::new(hand, wild, rules.ace_mode, sp.wilds);
    let w8 = sp.wilds.min(255) as u8;
    let d = u32::from(s.solve(0, state, w8));
    let steps = s.trace(state, w8);

    // Hand indices still free, per face (naturals) and for wilds.
    let mut pool: Vec<Vec<usize>> = vec![Vec::new(); 52];
    let mut wild_pool: Vec<usize> = Vec::new();
    for (k, &f) in hand.iter().enumerate().rev() {
        if is_wild(f, wild) {
            wild_pool.push(k);
        } else {
            pool[usize::from(f)].push(k);
        }
    }
    wild_pool.reverse();
    let mut wild_iter = wild_pool.into_iter();
    let mut take = |f: u8| pool[usize::from(f)].pop().unwrap_or(usize::MAX);

    let mut melds: Vec<Meld> = Vec::new();
    let mut deadwood: Vec<usize> = Vec::new();
    // Set rank of each meld (None for runs), and run windows for extending.
    let mut info: Vec<(Option<u8>, u8, u8, u8)> = Vec::new();
    for (i, o) in steps {
        match o {
            Opt::Dead => deadwood.push(take(s.faces[i])),
            Opt::Set {
                rank: r,
                take: t,
                need,
            } => {
                let mut cards = Vec::new();
                let mut suits = Vec::new();
                for (su, &k) in t.iter().enumerate() {
                    let su = su as u8;
                    for _ in 0..k {
                        cards.push((take(face(r, su)), None));
                        suits.push(su);
                    }
                }
                for f in set_stand_ins(r, &suits, usize::from(need)) {
                    let k = wild_iter.next().unwrap_or(usize::MAX);
                    cards.push((k, Some(f)));
                }
                melds.push(Meld {
                    kind: MeldKind::Set,
                    cards,
                });
                info.push((Some(r), 0, 0, 0));
            }
            Opt::Run {
                suit: su,
                lo,
                hi,
                taken,
                ..
            } => {
                let mut cards = Vec::new();
                for q in lo..=hi {
                    let f = face(pos_rank(q), su);
                    if taken & (1 << (q - lo)) != 0 {
                        cards.push((take(f), None));
                    } else {
                        let k = wild_iter.next().unwrap_or(usize::MAX);
                        cards.push((k, Some(f)));
                    }
                }
                melds.push(Meld {
                    kind: MeldKind::Run,
                    cards,
                });
                info.push((None, su, lo, hi));
            }
        }
    }
    let spare: Vec<usize> = wild_iter.collect();
    if !spare.is_empty() {
        if d < sp.nat_sum && spare.len() < 3 {
            // Join a set, else extend a run (its window is at most 5 long, so there is room).
            if let Some(m) = info.iter().position(|x| x.0.is_some()) {
                let r = info[m].0.unwrap_or(wild);
                let suits: Vec<u8> = melds[m]
                    .cards
                    .iter()
                    .filter(|c| c.1.is_none())
                    .map(|c| suit(hand[c.0]))
                    .collect();
                let fill = set_stand_ins(r, &suits, melds[m].cards.len() + spare.len());
                for (n, k) in spare.into_iter().enumerate() {
                    let f = fill[melds[m].cards.len() - suits.len() + n];
                    melds[m].cards.push((k, Some(f)));
                }
            } else if let Some((_, su, lo, hi)) = info.first().copied() {
                let (lo_all, hi_all) = rules.ace_mode.range();
                let (mut lo, mut hi) = (lo, hi);
                for k in spare {
                    if hi < hi_all {
                        hi += 1;
                        melds[0].cards.push((k, Some(face(pos_rank(hi), su))));
                    } else {
                        debug_assert!(lo > lo_all);
                        lo -= 1;
                        melds[0].cards.insert(0, (k, Some(face(pos_rank(lo), su))));
                    }
                }
            }
        } else if spare.len() >= 3 {
            // An all-wild meld, a set of the wild rank.
            let mut suits = (0..4u8).cycle();
            let cards = spare
                .into_iter()
                .map(|k| {
                    if card::is_joker(hand[k]) {
                        (k, suits.next().map(|su| face(wild, su)))
                    } else {
                        (k, None)
                    }
                })
                .collect();
            melds.push(Meld {
                kind: MeldKind::Set,
                cards,
            });
        } else {
            deadwood.extend(spare);
        }
    }
    // A wild that stands for its own face needs no note.
    for m in &mut melds {
        for c in &mut m.cards {
            if c.1 == Some(hand[c.0]) {
                c.1 = None;
            }
        }
    }
    deadwood.sort_unstable();
    Arrangement {
        melds,
        deadwood,
        points: finish(d, &sp),
    }
}
