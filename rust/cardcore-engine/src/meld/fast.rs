//! Fast exact path: sets enumerated per rank, runs solved per suit from tables, suits combined
//! over the wild budget.
//!
//! Every arrangement can be normalised so that each rank holds at most one set of two or more
//! naturals (two sets of one rank merge into one needing no more wilds) and every other melded
//! natural sits in a run of its suit, where "run" includes one natural plus two wilds. Given the
//! set of each rank, the suits are independent except for the shared wilds, so
//! `D = min over set choices of min over k_0+..+k_3 <= w - set wilds of sum_s g_s(k_s)` where
//! `g_s(k)` is the least unmelded value of suit `s`'s remaining naturals using runs with at most
//! `k` wilds. `g_s` comes from a precomputed table when the suit has no duplicate card and from
//! a per-thread cache otherwise; both are filled by the same exact lowest-rank recursion.
//!
//! Pruning keeps the set enumeration small without losing exactness: a natural with no natural
//! of its suit within 4 positions can never share a (normalised) run, so whenever its rank forms
//! a set it joins that set (moving it there never costs more), and a rank with 3+ such naturals
//! always forms a set.

#![allow(clippy::needless_range_loop)] // index loops over suits and ranks read best here

use std::cell::RefCell;
use std::sync::OnceLock;

use super::search::{self, FastMap};
use super::{AceMode, MeldRules, Split, finish, natural_value};
use crate::card::{JOKER0, rank, suit};

/// Wild budgets tracked per suit: `g(k)` for `k = 0..KN-1`; 12 wilds meld any suit (one run).
pub(crate) const KN: usize = 13;
/// `g` values of one suit for `k = 0..KN-1` wilds.
pub(crate) type Costs = [u16; KN];
const INF: u16 = u16::MAX / 2;

/// Position(s) of a rank in runs (the ace is 1 and/or 14).
#[inline]
fn positions(r: u8, mode: AceMode) -> &'static [u8] {
    const POS: [[u8; 1]; 14] = [
        [0],
        [1],
        [2],
        [3],
        [4],
        [5],
        [6],
        [7],
        [8],
        [9],
        [10],
        [11],
        [12],
        [13],
    ];
    match (r, mode) {
        (1, AceMode::High) => &[14],
        (1, AceMode::Both) => &[1, 14],
        _ => &POS[r as usize],
    }
}

#[inline]
const fn pos_rank(q: u8) -> u8 {
    if q == 14 { 1 } else { q }
}

const fn pack(cnt: &[u8; 14]) -> u64 {
    let mut key = 0u64;
    let mut r = 1;
    while r <= 13 {
        key |= (cnt[r] as u64) << (4 * (r - 1));
        r += 1;
    }
    key
}

/// Exact run-only solve of one suit (counts by rank 1..=13), memoised in `memo`.
fn suit_solve(cnt: &mut [u8; 14], mode: AceMode, memo: &mut FastMap<Costs>) -> Costs {
    let Some(r) = (1..=13u8).find(|&r| cnt[usize::from(r)] > 0) else {
        return [0; KN];
    };
    let key = pack(cnt);
    if let Some(v) = memo.get(&key) {
        return *v;
    }
    let mut res = [INF; KN];
    #[allow(clippy::cast_possible_truncation)]
    let val = natural_value(r, mode) as u16;
    cnt[usize::from(r)] -= 1;
    let (lo_all, hi_all) = mode.range();
    // Deadwood.
    let sub = suit_solve(cnt, mode, memo);
    for k in 0..KN {
        res[k] = res[k].min(sub[k] + val);
    }
    for &p in positions(r, mode) {
        for len in 3u8..=5 {
            let a_min = lo_all.max((p + 1).saturating_sub(len));
            let a_max = p.min(hi_all + 1 - len);
            for lo in a_min..=a_max {
                let hi = lo + len - 1;
                let mut optional = 0u16;
                for q in lo..=hi {
                    if q != p && cnt[usize::from(pos_rank(q))] > 0 {
                        optional |= 1 << (q - lo);
                    }
                }
                let mut subset = optional;
                loop {
                    let need = usize::from(len) - 1 - subset.count_ones() as usize;
                    for q in lo..=hi {
                        if subset & (1 << (q - lo)) != 0 {
                            cnt[usize::from(pos_rank(q))] -= 1;
                        }
                    }
                    let sub = suit_solve(cnt, mode, memo);
                    for q in lo..=hi {
                        if subset & (1 << (q - lo)) != 0 {
                            cnt[usize::from(pos_rank(q))] += 1;
                        }
                    }
                    for k in need..KN {
                        res[k] = res[k].min(sub[k - need]);
                    }
                    if subset == 0 {
                        break;
                    }
                    subset = (subset - 1) & optional;
                }
            }
        }
    }
    cnt[usize::from(r)] += 1;
    memo.insert(key, res);
    res
}

/// Table of `g` for every duplicate-free suit (13-bit rank mask, bit `r-1`), values fit a `u8`.
type Table = Vec<[u8; KN]>;

fn build_table(mode: AceMode) -> Table {
    let mut memo = FastMap::default();
    (0..1u32 << 13)
        .map(|mask| {
            let mut cnt = [0u8; 14];
            for r in 1..=13 {
                if mask & (1 << (r - 1)) != 0 {
                    cnt[r] = 1;
                }
            }
            let g = suit_solve(&mut cnt, mode, &mut memo);
            #[allow(clippy::cast_possible_truncation)]
            g.map(|v| v as u8)
        })
        .collect()
}

fn table(mode: AceMode) -> &'static Table {
    static LOW: OnceLock<Table> = OnceLock::new();
    static HIGH: OnceLock<Table> = OnceLock::new();
    static BOTH: OnceLock<Table> = OnceLock::new();
    match mode {
        AceMode::Low => LOW.get_or_init(|| build_table(AceMode::Low)),
        AceMode::High => HIGH.get_or_init(|| build_table(AceMode::High)),
        AceMode::Both => BOTH.get_or_init(|| build_table(AceMode::Both)),
    }
}

thread_local! {
    static DUP_CACHE: RefCell<[FastMap<Costs>; 3]> = RefCell::new(Default::default());
}
const DUP_CACHE_LIMIT: usize = 1 << 18;

/// `g` of a suit with duplicates (counts by rank), from the per-thread cache.
fn dup_costs(cnt: &[u8; 14], mode: AceMode) -> Costs {
    let m = match mode {
        AceMode::Low => 0,
        AceMode::High => 1,
        AceMode::Both => 2,
    };
    DUP_CACHE.with(|c| {
        let mut caches = c.borrow_mut();
        let memo = &mut caches[m];
        if let Some(v) = memo.get(&pack(cnt)) {
            return *v;
        }
        if memo.len() > DUP_CACHE_LIMIT {
            memo.clear();
        }
        let mut work = *cnt;
        suit_solve(&mut work, mode, memo)
    })
}

/// One rank's set options: copies taken per suit and the wilds needed.
#[derive(Clone, Copy)]
struct SetOpt {
    take: [u8; 4],
    need: u8,
}

/// Working state of one hand.
struct Hand {
    /// Natural counts by suit and rank (1..=13).
    cnt: [[u8; 14]; 4],
    /// 13-bit rank mask per suit (valid when the suit has no duplicate).
    mask: [u16; 4],
    /// Whether a suit holds a duplicate card (count >= 2 somewhere).
    dup: [bool; 4],
    wilds: u32,
    mode: AceMode,
}

impl Hand {
    /// Costs of suit `s` in its current state (table row or cached).
    #[inline]
    fn costs(&self, s: usize, tab: &Table) -> Costs {
        if self.dup[s] {
            dup_costs(&self.cnt[s], self.mode)
        } else {
            tab[usize::from(self.mask[s])].map(u16::from)
        }
    }

    /// Least `sum_s g_s(k_s)` with `sum k_s <= budget`.
    fn combine(&self, budget: u32, tab: &Table) -> u32 {
        if budget == 0 {
            let mut total = 0u32;
            for s in 0..4 {
                total += if self.dup[s] {
                    u32::from(dup_costs(&self.cnt[s], self.mode)[0])
                } else {
                    u32::from(tab[usize::from(self.mask[s])][0])
                };
            }
            return total;
        }
        let b = (budget as usize).min(KN - 1);
        let mut cur = self.costs(0, tab);
        for s in 1..4 {
            if self.mask[s] == 0 {
                continue;
            }
            let g = self.costs(s, tab);
            let mut next = [INF; KN];
            for (i, &ci) in cur.iter().enumerate().take(b + 1) {
                for (j, &gj) in g.iter().enumerate().take(b + 1 - i) {
                    let v = ci + gj;
                    if v < next[i + j] {
                        next[i + j] = v;
                    }
                }
            }
            // "At most k": keep the running minimum.
            for k in 1..=b {
                next[k] = next[k].min(next[k - 1]);
            }
            cur = next;
        }
        u32::from(cur[b])
    }

    fn remove(&mut self, r: usize, take: &[u8; 4]) {
        for s in 0..4 {
            let t = take[s];
            if t > 0 {
                self.cnt[s][r] -= t;
                if self.cnt[s][r] == 0 {
                    self.mask[s] &= !(1 << (r - 1));
                }
            }
        }
    }

    fn restore(&mut self, r: usize, take: &[u8; 4]) {
        for s in 0..4 {
            let t = take[s];
            if t > 0 {
                self.cnt[s][r] += t;
                self.mask[s] |= 1 << (r - 1);
            }
        }
    }
}

/// Largest number of set options kept per rank (a rank of 20 copies has fewer than this).
const MAX_SET_OPTS: usize = 4096;

/// Depth-first search over the candidate ranks' set options.
fn search_sets(
    h: &mut Hand,
    ranks: &[(usize, usize, usize)],
    opts: &[SetOpt],
    depth: usize,
    used: u32,
    tab: &Table,
    best: &mut u32,
) {
    if depth == ranks.len() {
        let v = h.combine(h.wilds - used, tab);
        if v < *best {
            *best = v;
        }
        return;
    }
    let (r, start, end) = ranks[depth];
    for o in &opts[start..end] {
        let used2 = used + u32::from(o.need);
        if used2 > h.wilds {
            continue;
        }
        h.remove(r, &o.take);
        search_sets(h, ranks, opts, depth + 1, used2, tab, best);
        h.restore(r, &o.take);
        if *best == 0 {
            return;
        }
    }
}

/// Least unmelded natural value with at most the hand's wilds, or `None` when the hand is
/// outside the fast path's domain (a card with 16+ copies).
fn natural_deadwood(hand: &[u8], wild: u8, mode: AceMode, wilds: u32) -> Option<u32> {
    let mut h = Hand {
        cnt: [[0; 14]; 4],
        mask: [0; 4],
        dup: [false; 4],
        wilds,
        mode,
    };
    for &f in hand {
        if f >= JOKER0 || rank(f) == wild {
            continue;
        }
        let (s, r) = (usize::from(suit(f)), usize::from(rank(f)));
        if h.cnt[s][r] >= 15 {
            return None;
        }
        h.cnt[s][r] += 1;
        if h.cnt[s][r] >= 2 {
            h.dup[s] = true;
        }
        h.mask[s] |= 1 << (r - 1);
    }
    let tab = table(mode);
    // Ranks that can hold a set, with their options (see the module docs for the pruning).
    let min_set = if wilds == 0 { 3 } else { 2 };
    let mut ranks: [(usize, usize, usize); 13] = [(0, 0, 0); 13];
    let mut n_ranks = 0;
    let mut opts: Vec<SetOpt> = Vec::new();
    for r in 1..=13usize {
        let total: u32 = (0..4).map(|s| u32::from(h.cnt[s][r])).sum();
        if total < min_set {
            continue;
        }
        #[allow(clippy::cast_possible_truncation)]
        let r8 = r as u8;
        let mut forced = [0u8; 4]; // isolated copies: always in the set when there is one
        let mut free = [0u8; 4];
        for s in 0..4 {
            let c = h.cnt[s][r];
            if c == 0 {
                continue;
            }
            let near = positions(r8, mode).iter().any(|&p| {
                (1..=4u8).any(|d| {
                    [p.wrapping_sub(d), p + d].iter().any(|&q| {
                        (1..=14).contains(&q) && {
                            let rq = pos_rank(q);
                            rq != r8 && h.cnt[s][usize::from(rq)] > 0
                        }
                    })
                })
            });
            if near {
                free[s] = c;
            } else {
                forced[s] = c;
            }
        }
        let start = opts.len();
        let n_forced: u32 = forced.iter().map(|&c| u32::from(c)).sum();
        if n_forced < 3 {
            opts.push(SetOpt {
                take: [0; 4],
                need: 0,
            });
        }
        for t0 in 0..=free[0] {
            for t1 in 0..=free[1] {
                for t2 in 0..=free[2] {
                    for t3 in 0..=free[3] {
                        let take = [
                            t0 + forced[0],
                            t1 + forced[1],
                            t2 + forced[2],
                            t3 + forced[3],
                        ];
                        let n: u32 = take.iter().map(|&c| u32::from(c)).sum();
                        if n < 2 {
                            continue;
                        }
                        #[allow(clippy::cast_possible_truncation)]
                        let need = 3u32.saturating_sub(n) as u8;
                        if u32::from(need) > wilds {
                            continue;
                        }
                        if opts.len() - start >= MAX_SET_OPTS {
                            return None;
                        }
                        opts.push(SetOpt { take, need });
                    }
                }
            }
        }
        let only_none = opts.len() - start == 1 && opts[start].take == [0; 4];
        if opts.len() > start && !only_none {
            ranks[n_ranks] = (r, start, opts.len());
            n_ranks += 1;
        } else {
            opts.truncate(start);
        }
    }
    let mut best = u32::MAX;
    search_sets(&mut h, &ranks[..n_ranks], &opts, 0, 0, tab, &mut best);
    Some(best)
}

/// Minimum deadwood.
#[must_use]
pub fn deadwood(hand: &[u8], wild: u8, rules: &MeldRules) -> u32 {
    let sp: Split = super::split(hand, wild, rules);
    match natural_deadwood(hand, wild, rules.ace_mode, sp.wilds) {
        Some(d) => finish(d, &sp),
        None => search::deadwood(hand, wild, rules),
    }
}

/// Deadwood after discarding each card, index-aligned.
#[must_use]
pub fn discards(hand: &[u8], wild: u8, rules: &MeldRules) -> Vec<u32> {
    let mut out: Vec<u32> = Vec::with_capacity(hand.len());
    let mut rest = Vec::with_capacity(hand.len());
    let class = |f: u8| -> u8 { if f >= JOKER0 { JOKER0 } else { f } };
    for i in 0..hand.len() {
        if let Some(j) = (0..i).find(|&j| class(hand[j]) == class(hand[i])) {
            out.push(out[j]);
            continue;
        }
        rest.clear();
        rest.extend(
            hand.iter()
                .enumerate()
                .filter(|&(k, _)| k != i)
                .map(|(_, &f)| f),
        );
        out.push(deadwood(&rest, wild, rules));
    }
    out
}
