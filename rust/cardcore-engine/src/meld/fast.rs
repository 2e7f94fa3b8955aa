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
use super::{AceMode, MeldRules, Split, finish, natural_value, pos_rank, positions, run_window};
use crate::card::{JOKER0, is_joker, rank, suit};

/// Wild budgets tracked per suit: `g(k)` for `k = 0..KN-1`; 12 wilds meld any suit (one run).
pub(crate) const KN: usize = 13;
/// `g` values of one suit for `k = 0..KN-1` wilds.
pub(crate) type Costs = [u16; KN];
const INF: u16 = u16::MAX / 2;

/// Bits 1..=3 of every count nibble of a packed key: zero iff no count exceeds 1.
const NIBBLE_HIGH_BITS: u64 = 0x000E_EEEE_EEEE_EEEE;

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
fn suit_solve(
    cnt: &mut [u8; 14],
    mode: AceMode,
    memo: &mut FastMap<Costs>,
    tab: Option<&Table>,
    tab1: Option<&Table>,
) -> Costs {
    let Some(r) = (1..=13u8).find(|&r| cnt[usize::from(r)] > 0) else {
        return [0; KN];
    };
    let key = pack(cnt);
    if let Some(tab) = tab
        && key & NIBBLE_HIGH_BITS == 0
    {
        // No duplicate left: the table row.
        let mut mask = 0usize;
        for r in 1..=13 {
            mask |= usize::from(cnt[r]) << (r - 1);
        }
        return tab[mask].map(u16::from);
    }
    if let Some(t1) = tab1
        && (key & NIBBLE_HIGH_BITS).count_ones() == 1
    {
        // Exactly one rank held twice (or three times: then not this table).
        let high = key & NIBBLE_HIGH_BITS;
        let r2 = (high.trailing_zeros() / 4) as usize + 1;
        if cnt[r2] == 2 {
            let mut mask = 0usize;
            for q in 1..=13 {
                mask |= usize::from(cnt[q].min(1)) << (q - 1);
            }
            return t1[((r2 - 1) << 13) | mask].map(u16::from);
        }
    }
    if let Some(v) = memo.get(&key) {
        return *v;
    }
    let mut res = [INF; KN];
    let val = natural_value(r, mode) as u16;
    cnt[usize::from(r)] -= 1;
    // Deadwood.
    let sub = suit_solve(cnt, mode, memo, tab, tab1);
    for k in 0..KN {
        res[k] = res[k].min(sub[k] + val);
    }
    // Runs holding the lowest card at position `p` (see `run_window`).
    for &p in positions(r, mode) {
        for len in 3u8..=5 {
            let Some((lo, hi, required, free)) =
                run_window(p, len, mode, |q| cnt[usize::from(pos_rank(q))] > 0)
            else {
                continue;
            };
            let mut subset = free;
            loop {
                let taken = subset | required;
                let need = usize::from(len) - 1 - taken.count_ones() as usize;
                for q in lo..=hi {
                    if taken & (1 << (q - lo)) != 0 {
                        cnt[usize::from(pos_rank(q))] -= 1;
                    }
                }
                let sub = suit_solve(cnt, mode, memo, tab, tab1);
                for q in lo..=hi {
                    if taken & (1 << (q - lo)) != 0 {
                        cnt[usize::from(pos_rank(q))] += 1;
                    }
                }
                for k in need..KN {
                    res[k] = res[k].min(sub[k - need]);
                }
                if subset == 0 {
                    break;
                }
                subset = (subset - 1) & free;
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
            let g = suit_solve(&mut cnt, mode, &mut memo, None, None);
            g.map(|v| v as u8)
        })
        .collect()
}

/// One lazily built value per ace mode (the solver's tables).
struct PerMode<T>([OnceLock<T>; 3]);

impl<T> PerMode<T> {
    const fn new() -> Self {
        Self([OnceLock::new(), OnceLock::new(), OnceLock::new()])
    }

    fn get(&'static self, mode: AceMode, build: fn(AceMode) -> T) -> &'static T {
        let i = match mode {
            AceMode::Low => 0,
            AceMode::High => 1,
            AceMode::Both => 2,
        };
        self.0[i].get_or_init(|| build(mode))
    }
}

fn table(mode: AceMode) -> &'static Table {
    static CELLS: PerMode<Table> = PerMode::new();
    CELLS.get(mode, build_table)
}

/// For every duplicate-free suit mask and `k`, the costs (again) and the rank mask of the
/// naturals left unmelded by one optimal run arrangement. Built by a direct DP over masks in
/// increasing order (removing cards gives a smaller mask), with the same options as
/// [`suit_solve`].
struct DeadTable {
    cost: Vec<[u16; KN]>,
    dead: Vec<[u16; KN]>,
}

fn build_dead_table(mode: AceMode) -> DeadTable {
    let n = 1usize << 13;
    let mut t = DeadTable {
        cost: vec![[0; KN]; n],
        dead: vec![[0; KN]; n],
    };
    let rank_bit = |q: u8| 1usize << (pos_rank(q) - 1);
    for mask in 1..n {
        let r = mask.trailing_zeros() as u8 + 1;
        let bit_r = 1usize << (r - 1);
        let val = natural_value(r, mode) as u16;
        let rest = mask & !bit_r;
        let mut cost = [INF; KN];
        let mut dead = [0u16; KN];
        for k in 0..KN {
            cost[k] = t.cost[rest][k] + val;
            {
                dead[k] = t.dead[rest][k] | bit_r as u16;
            }
        }
        for &p in positions(r, mode) {
            for len in 3u8..=5 {
                let Some((lo, hi, required, free)) =
                    run_window(p, len, mode, |q| mask & rank_bit(q) != 0)
                else {
                    continue;
                };
                let mut subset = free;
                loop {
                    let taken = subset | required;
                    let need = usize::from(len) - 1 - taken.count_ones() as usize;
                    let mut sub = rest;
                    for q in lo..=hi {
                        if taken & (1 << (q - lo)) != 0 {
                            sub &= !rank_bit(q);
                        }
                    }
                    for k in need..KN {
                        let c = t.cost[sub][k - need];
                        if c < cost[k] {
                            cost[k] = c;
                            dead[k] = t.dead[sub][k - need];
                        }
                    }
                    if subset == 0 {
                        break;
                    }
                    subset = (subset - 1) & free;
                }
            }
        }
        t.cost[mask] = cost;
        t.dead[mask] = dead;
    }
    t
}

fn dead_table(mode: AceMode) -> &'static DeadTable {
    static CELLS: PerMode<DeadTable> = PerMode::new();
    CELLS.get(mode, build_dead_table)
}

/// Table of `g` for suits with exactly one rank held twice: index `(r - 1) * 8192 + mask`.
fn build_table1(mode: AceMode) -> Table {
    let single = table(mode);
    let mut memo = FastMap::default();
    let mut out = vec![[0u8; KN]; 13 << 13];
    for r in 1..=13usize {
        for mask in 0..1u32 << 13 {
            if mask & (1 << (r - 1)) == 0 {
                continue;
            }
            let mut cnt = [0u8; 14];
            for q in 1..=13 {
                if mask & (1 << (q - 1)) != 0 {
                    cnt[q] = 1;
                }
            }
            cnt[r] = 2;
            let g = suit_solve(&mut cnt, mode, &mut memo, Some(single), None);
            {
                out[((r - 1) << 13) | mask as usize] = g.map(|v| v as u8);
            }
        }
    }
    out
}

fn table1(mode: AceMode) -> &'static Table {
    static CELLS: PerMode<Table> = PerMode::new();
    CELLS.get(mode, build_table1)
}

thread_local! {
    static DUP_CACHE: RefCell<[FastMap<Costs>; 3]> = RefCell::new(Default::default());
}
/// Entries per ace mode before the per-thread cache is cleared (bounds its memory to a few MB).
const DUP_CACHE_LIMIT: usize = 1 << 16;

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
        suit_solve(&mut work, mode, memo, Some(table(mode)), Some(table1(mode)))
    })
}

/// One rank's set options: copies taken per suit and the wilds needed.
#[derive(Clone, Copy, Default)]
struct SetOpt {
    take: [u8; 4],
    need: u8,
}

/// Length of budget arrays: the most wilds a hand can hold, plus one.
const CB: usize = super::MAX_HAND + 1;

/// Working state of one hand.
#[derive(Clone)]
struct Hand {
    /// Natural counts by suit and rank (1..=13).
    cnt: [[u8; 14]; 4],
    /// 13-bit rank mask per suit.
    mask: [u16; 4],
    /// Whether a suit holds a duplicate card (count >= 2 somewhere).
    dup: [bool; 4],
    wilds: u32,
    mode: AceMode,
    /// Least value of the naturals taken out of the suits (ranks whose naturals all lie far
    /// from any natural of their suit), by wilds allowed.
    iso: [u16; CB],
    /// The search stops once the best leaf reaches this known lower bound (0 by default).
    floor: u32,
    /// Per-hand memo of duplicate-suit costs.
    memo: [(u64, Costs); 8],
    memo_len: usize,
    /// When set, the best leaf's suits and budget are kept (for [`dead_naturals`]).
    track: bool,
    snap: Option<Snapshot>,
}

/// The suits and the wild budget left at the best leaf of the set search.
#[derive(Clone, Copy)]
struct Snapshot {
    cnt: [[u8; 14]; 4],
    mask: [u16; 4],
    budget: u32,
}

impl Hand {
    fn new(c: &Counts, wilds: u32, mode: AceMode) -> Self {
        let (cnt, mask, dup) = (c.cnt, c.mask, c.dup);
        Self {
            cnt,
            mask,
            dup,
            wilds,
            mode,
            iso: [0; CB],
            floor: 0,
            memo: [(u64::MAX, [0; KN]); 8],
            memo_len: 0,
            track: false,
            snap: None,
        }
    }

    /// Costs of suit `s` in its current state (table row or cached).
    #[inline]
    fn costs(&mut self, s: usize, tab: &Table) -> Costs {
        if !self.dup[s] {
            return tab[usize::from(self.mask[s])].map(u16::from);
        }
        let key = pack(&self.cnt[s]);
        let high = key & NIBBLE_HIGH_BITS;
        if high == 0 {
            return tab[usize::from(self.mask[s])].map(u16::from);
        }
        if high.count_ones() == 1 {
            let r = (high.trailing_zeros() / 4) as usize + 1;
            if self.cnt[s][r] == 2 {
                let t1 = table1(self.mode);
                return t1[((r - 1) << 13) | usize::from(self.mask[s])].map(u16::from);
            }
        }
        for &(k, c) in &self.memo[..self.memo_len] {
            if k == key {
                return c;
            }
        }
        let c = dup_costs(&self.cnt[s], self.mode);
        let slot = if self.memo_len < self.memo.len() {
            self.memo_len += 1;
            self.memo_len - 1
        } else {
            (key as usize) & (self.memo.len() - 1)
        };
        self.memo[slot] = (key, c);
        c
    }

    /// Least `iso(k_iso) + sum_s g_s(k_s)` with `k_iso + sum k_s <= budget`.
    fn combine(&mut self, budget: u32, tab: &Table) -> u32 {
        let b = (budget as usize).min(CB - 1);
        if b == 0 {
            let mut total = u32::from(self.iso[0]);
            for s in 0..4 {
                if self.mask[s] != 0 {
                    total += if self.dup[s] {
                        u32::from(self.costs(s, tab)[0])
                    } else {
                        u32::from(tab[usize::from(self.mask[s])][0])
                    };
                }
            }
            return total;
        }
        if b <= 2 {
            // Closed forms: the base (no wild anywhere) minus the best gains from one
            // component taking 1 or 2 wilds, or two components taking one each.
            let mut base = u32::from(self.iso[0]);
            let (mut top1, mut top2) = (u32::from(self.iso[0] - self.iso[1]), 0u32);
            let mut gain2 = u32::from(self.iso[0] - self.iso[2]);
            for s in 0..4 {
                if self.mask[s] == 0 {
                    continue;
                }
                let (g0, g1, g2) = if self.dup[s] {
                    let g = self.costs(s, tab);
                    (g[0], g[1], g[2])
                } else {
                    let row = &tab[usize::from(self.mask[s])];
                    (u16::from(row[0]), u16::from(row[1]), u16::from(row[2]))
                };
                base += u32::from(g0);
                let g1 = u32::from(g0 - g1);
                gain2 = gain2.max(u32::from(g0 - g2));
                if g1 > top1 {
                    top2 = top1;
                    top1 = g1;
                } else if g1 > top2 {
                    top2 = g1;
                }
            }
            let gain = if b == 1 { top1 } else { gain2.max(top1 + top2) };
            return base - gain;
        }
        let mut cur = self.iso;
        for s in 0..4 {
            if self.mask[s] == 0 {
                continue;
            }
            let g = self.costs(s, tab);
            let mut next = [INF; CB];
            for k in 0..=b {
                let mut best = INF;
                for j in 0..=k.min(KN - 1) {
                    let v = cur[k - j] + g[j];
                    if v < best {
                        best = v;
                    }
                }
                next[k] = best;
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

    /// Ranks with a natural of the same suit within `min(4, wilds + 1)` run positions, as a
    /// 13-bit mask per suit.
    fn near_masks(&self) -> [u16; 4] {
        let mut out = [0u16; 4];
        for s in 0..4 {
            let m = u32::from(self.mask[s]);
            // Positions: bit p-1 for position p (ace at bit 0 and/or bit 13).
            let pos = match self.mode {
                AceMode::Low => m,
                AceMode::High => (m & !1) | ((m & 1) << 13),
                AceMode::Both => m | ((m & 1) << 13),
            };
            // Two naturals `d` apart share a run only with `d - 1` wilds between them (the
            // nearest natural of a run is at most `wilds + 1` away), and windows are <= 5.
            let reach = (self.wilds + 1).min(4);
            let mut spread = 0u32;
            for d in 1..=reach {
                spread |= (pos << d) | (pos >> d);
            }
            let ace_near = match self.mode {
                AceMode::Low => spread & 1,
                AceMode::High => (spread >> 13) & 1,
                AceMode::Both => (spread | (spread >> 13)) & 1,
            };
            {
                out[s] = ((spread & 0x1FFE) | ace_near) as u16;
            }
        }
        out
    }
}

thread_local! {
    static SCRATCH: RefCell<Vec<SetOpt>> = const { RefCell::new(Vec::new()) };
}

/// Largest number of set options kept per hand before falling back to the search.
const MAX_SET_OPTS: usize = 1 << 16;

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
            if h.track {
                h.snap = Some(Snapshot {
                    cnt: h.cnt,
                    mask: h.mask,
                    budget: h.wilds - used,
                });
            }
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
        if *best <= h.floor {
            return;
        }
    }
}

/// Least unmelded natural value with at most `wilds` wilds for naturals counted by suit and
/// rank, or `None` when outside the fast path's domain (a card with 16+ copies, huge options).
fn solve_counts(c: &Counts, wilds: u32, mode: AceMode) -> Option<u32> {
    solve_core(c, wilds, mode, false).map(|(d, _)| d)
}

/// `g` of one suit state without a hand memo.
fn suit_costs(cnt: &[u8; 14], mask: u16, mode: AceMode, tab: &Table) -> Costs {
    let key = pack(cnt);
    let high = key & NIBBLE_HIGH_BITS;
    if high == 0 {
        return tab[usize::from(mask)].map(u16::from);
    }
    if high.count_ones() == 1 {
        let r = (high.trailing_zeros() / 4) as usize + 1;
        if cnt[r] == 2 {
            return table1(mode)[((r - 1) << 13) | usize::from(mask)].map(u16::from);
        }
    }
    dup_costs(cnt, mode)
}

/// Unmelded naturals of the best leaf: redo its convolution keeping the argmin, then read each
/// duplicate-free suit's dead mask for the wilds it got.
fn dead_naturals(h: &Hand, mode: AceMode) -> ([u16; 4], u32) {
    let Some(snap) = h.snap else {
        return ([0; 4], h.wilds);
    };
    let tab = table(mode);
    let dt = dead_table(mode);
    let b = (snap.budget as usize).min(CB - 1);
    let mut cur = h.iso;
    let mut choice = [[0u8; CB]; 4];
    for s in 0..4 {
        if snap.mask[s] == 0 {
            continue;
        }
        let g = suit_costs(&snap.cnt[s], snap.mask[s], mode, tab);
        let mut next = [INF; CB];
        for k in 0..=b {
            for j in 0..=k.min(KN - 1) {
                let v = cur[k - j] + g[j];
                if v < next[k] {
                    next[k] = v;
                    {
                        choice[s][k] = j as u8;
                    }
                }
            }
        }
        cur = next;
    }
    let mut dead = [0u16; 4];
    let mut k = b;
    let mut used = h.wilds - snap.budget;
    for s in (0..4).rev() {
        if snap.mask[s] == 0 {
            continue;
        }
        let j = usize::from(choice[s][k]);
        if pack(&snap.cnt[s]) & NIBBLE_HIGH_BITS == 0 {
            dead[s] = dt.dead[usize::from(snap.mask[s])][j];
        }
        k -= j;
        {
            used += j as u32;
        }
    }
    // The pulled-out ranks need only the fewest wilds reaching their value.
    let iso_used = (0..=k).find(|&i| h.iso[i] == h.iso[k]).unwrap_or(k);
    {
        used += iso_used as u32;
    }
    (dead, used)
}

/// [`solve_counts`] that stops as soon as a leaf reaches `floor`, a known lower bound.
fn solve_floor(c: &Counts, wilds: u32, mode: AceMode, floor: u32) -> Option<u32> {
    if c.over {
        return None;
    }
    SCRATCH.with(|scratch| {
        let mut opts = scratch.borrow_mut();
        let mut prep = prepare(c, wilds, mode, &mut opts)?;
        prep.h.floor = floor;
        Some(run(&mut prep.h, &prep.ranks[..prep.n_ranks], &opts, mode))
    })
}

fn solve_core(c: &Counts, wilds: u32, mode: AceMode, track: bool) -> Option<(u32, Option<Hand>)> {
    if c.over {
        return None;
    }
    SCRATCH.with(|scratch| {
        let mut opts = scratch.borrow_mut();
        let mut prep = prepare(c, wilds, mode, &mut opts)?;
        prep.h.track = track;
        let best = run(&mut prep.h, &prep.ranks[..prep.n_ranks], &opts, mode);
        Some((best, if track { Some(prep.h) } else { None }))
    })
}

/// A hand ready for the set search: pulled-out ranks applied, per-rank options listed.
#[derive(Clone)]
struct Prepared {
    h: Hand,
    ranks: [(usize, usize, usize); 13],
    n_ranks: usize,
    near: [u16; 4],
    /// Ranks taken out of the suits (all naturals isolated).
    pulled: u16,
    /// The natural counts before any rank was taken out.
    orig: [[u8; 14]; 4],
}

/// What [`rank_options`] did with a rank.
enum RankKind {
    /// No set possible or useful.
    Skip,
    /// Taken out of the suits into the budget array.
    Pulled,
    /// Options `opts[start..end]`.
    Options(usize, usize),
}

/// Set options of rank `r` (see the module docs for the pruning); may pull the rank out of `h`.
fn rank_options(
    h: &mut Hand,
    r: usize,
    near: &[u16; 4],
    opts: &mut Vec<SetOpt>,
) -> Option<RankKind> {
    let (wilds, mode) = (h.wilds, h.mode);
    let min_set: u32 = if wilds == 0 { 3 } else { 2 };
    let total: u32 = (0..4).map(|s| u32::from(h.cnt[s][r])).sum();
    if total < min_set {
        return Some(RankKind::Skip);
    }
    let bit = 1u16 << (r - 1);
    let mut forced = [0u8; 4]; // isolated copies: in the set whenever there is one
    let mut free = [0u8; 4];
    for s in 0..4 {
        if near[s] & bit != 0 {
            free[s] = h.cnt[s][r];
        } else {
            forced[s] = h.cnt[s][r];
        }
    }
    if free == [0; 4] {
        // Every natural of this rank is isolated: take them out of the suits. With 3+ they meld
        // for free; a pair melds with one wild or stays (singletons with two wilds each never
        // beat the pair with one).
        h.remove(r, &forced);
        if total == 2 {
            let v: u32 = (0..4)
                .map(|s| u32::from(forced[s]) * natural_value(r_u8(r), mode))
                .sum();
            let v = v as u16;
            for k in (1..CB).rev() {
                h.iso[k] = (h.iso[k] + v).min(h.iso[k - 1]);
            }
            h.iso[0] += v;
        }
        return Some(RankKind::Pulled);
    }
    let start = opts.len();
    let n_forced: u32 = forced.iter().map(|&c| u32::from(c)).sum();
    if n_forced < 3 {
        opts.push(SetOpt::default());
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
                    let need = 3u32.saturating_sub(n) as u8;
                    if u32::from(need) > wilds {
                        continue;
                    }
                    if opts.len() >= MAX_SET_OPTS {
                        return None;
                    }
                    opts.push(SetOpt { take, need });
                }
            }
        }
    }
    let only_none = opts.len() - start == 1 && opts[start].take == [0; 4];
    if opts.len() > start && !only_none {
        Some(RankKind::Options(start, opts.len()))
    } else {
        opts.truncate(start);
        Some(RankKind::Skip)
    }
}

fn prepare(c: &Counts, wilds: u32, mode: AceMode, opts: &mut Vec<SetOpt>) -> Option<Prepared> {
    let h = Hand::new(c, wilds, mode);
    let near = h.near_masks();
    let mut prep = Prepared {
        h,
        ranks: [(0, 0, 0); 13],
        n_ranks: 0,
        near,
        pulled: 0,
        orig: c.cnt,
    };
    opts.clear();
    let min_set: u8 = if wilds == 0 { 3 } else { 2 };
    for r in 1..=13usize {
        if c.per_rank[r] < min_set {
            continue;
        }
        match rank_options(&mut prep.h, r, &near, opts)? {
            RankKind::Skip => {}
            RankKind::Pulled => prep.pulled |= 1 << (r - 1),
            RankKind::Options(a, b) => {
                prep.ranks[prep.n_ranks] = (r, a, b);
                prep.n_ranks += 1;
            }
        }
    }
    Some(prep)
}

fn run(h: &mut Hand, ranks: &[(usize, usize, usize)], opts: &[SetOpt], mode: AceMode) -> u32 {
    let mut best = u32::MAX;
    search_sets(h, ranks, opts, 0, 0, table(mode), &mut best);
    best
}

/// `D` of the prepared hand minus one natural `(s, r)`, reusing its preparation: a card
/// isolated in the whole hand is isolated without `(s, r)` too, so the pruning stays exact;
/// only rank `r`'s options are rebuilt. `None` when rank `r` was pulled out (solve afresh).
fn run_without(
    prep: &Prepared,
    opts: &[SetOpt],
    s: usize,
    r: usize,
    floor: u32,
    extra: &mut Vec<SetOpt>,
) -> Option<u32> {
    let mut h = prep.h.clone();
    h.floor = floor;
    h.track = false;
    h.snap = None;
    if prep.pulled & (1 << (r - 1)) != 0 {
        // Rebuild the pulled-out ranks' budget array with one copy fewer at rank `r`; a lone
        // copy left goes back to its suit (isolated, so its suit table prices it exactly).
        let mut iso = [0u16; CB];
        for q in 1..=13usize {
            if prep.pulled & (1 << (q - 1)) == 0 {
                continue;
            }
            let mut take: [u8; 4] = std::array::from_fn(|t| prep.orig[t][q]);
            if q == r {
                take[s] -= 1;
            }
            let total: u32 = take.iter().map(|&c| u32::from(c)).sum();
            match total {
                0 => {}
                1 => {
                    let t = take.iter().position(|&c| c == 1).unwrap_or(s);
                    h.cnt[t][q] += 1;
                    h.mask[t] |= 1 << (q - 1);
                    h.dup[t] = h.cnt[t].iter().any(|&n| n > 1);
                }
                2 => {
                    let v = (2 * natural_value(r_u8(q), h.mode)) as u16;
                    for k in (1..CB).rev() {
                        iso[k] = (iso[k] + v).min(iso[k - 1]);
                    }
                    iso[0] += v;
                }
                _ => {} // a free set
            }
        }
        h.iso = iso;
        let mode = h.mode;
        return Some(run(&mut h, &prep.ranks[..prep.n_ranks], opts, mode));
    }
    h.cnt[s][r] -= 1;
    if h.cnt[s][r] == 0 {
        h.mask[s] &= !(1 << (r - 1));
    }
    h.dup[s] = h.cnt[s].iter().any(|&n| n > 1);
    let mut ranks = prep.ranks;
    let mut n = prep.n_ranks;
    if let Some(i) = ranks[..n].iter().position(|x| x.0 == r) {
        extra.clear();
        extra.extend_from_slice(opts);
        match rank_options(&mut h, r, &prep.near, extra)? {
            RankKind::Options(a, b) => ranks[i] = (r, a, b),
            RankKind::Skip | RankKind::Pulled => {
                ranks.copy_within(i + 1..n, i);
                n -= 1;
            }
        }
        let mode = h.mode;
        return Some(run(&mut h, &ranks[..n], extra, mode));
    }
    let mode = h.mode;
    Some(run(&mut h, &ranks[..n], opts, mode))
}

#[inline]
const fn r_u8(r: usize) -> u8 {
    r as u8
}

/// Natural counts by suit and rank, with the derived masks kept in step.
#[derive(Clone, Copy)]
struct Counts {
    cnt: [[u8; 14]; 4],
    mask: [u16; 4],
    dup: [bool; 4],
    per_rank: [u8; 14],
    /// Some card has 16+ copies (outside the fast path).
    over: bool,
}

impl Counts {
    fn add(&mut self, s: usize, r: usize) {
        let c = &mut self.cnt[s][r];
        *c = c.saturating_add(1);
        self.over |= *c > 15;
        self.dup[s] |= *c > 1;
        self.mask[s] |= 1 << (r - 1);
        self.per_rank[r] = self.per_rank[r].saturating_add(1);
    }

    fn remove_one(&mut self, s: usize, r: usize) {
        self.cnt[s][r] -= 1;
        if self.cnt[s][r] == 0 {
            self.mask[s] &= !(1 << (r - 1));
        }
        self.per_rank[r] -= 1;
        self.dup[s] = self.cnt[s].iter().any(|&n| n > 1);
    }
}

/// A parsed hand: natural counts and the split of values.
struct Parsed {
    counts: Counts,
    split: Split,
}

fn parse(hand: &[u8], wild: u8, rules: &MeldRules) -> Parsed {
    let mut p = Parsed {
        counts: Counts {
            cnt: [[0; 14]; 4],
            mask: [0; 4],
            dup: [false; 4],
            per_rank: [0; 14],
            over: false,
        },
        split: Split {
            wilds: 0,
            wild_cost: 0,
            nat_sum: 0,
        },
    };
    for &f in hand {
        if is_joker(f) {
            p.split.wilds += 1;
            p.split.wild_cost += rules.joker_points;
        } else if rank(f) == wild {
            p.split.wilds += 1;
            p.split.wild_cost += rules.wild_points;
        } else {
            p.counts.add(usize::from(suit(f)), usize::from(rank(f)));
            p.split.nat_sum += natural_value(rank(f), rules.ace_mode);
        }
    }
    p
}

/// The suits' rank masks of a *plain* hand: no wild, no duplicate, no rank with 3 naturals.
/// Then no set is possible and the suits are independent (and stay so without any card).
fn plain_masks(hand: &[u8], wild: u8) -> Option<[u16; 4]> {
    let mut masks = [0u16; 4];
    let mut per_rank = [0u8; 14];
    for &f in hand {
        if is_joker(f) || rank(f) == wild {
            return None;
        }
        let (s, r) = (usize::from(suit(f)), usize::from(rank(f)));
        let bit = 1u16 << (r - 1);
        per_rank[r] += 1;
        if masks[s] & bit != 0 || per_rank[r] >= 3 {
            return None;
        }
        masks[s] |= bit;
    }
    Some(masks)
}

/// Minimum deadwood.
#[must_use]
pub fn deadwood(hand: &[u8], wild: u8, rules: &MeldRules) -> u32 {
    // Common case first: a plain hand is four table lookups.
    if let Some(masks) = plain_masks(hand, wild) {
        let tab = table(rules.ace_mode);
        return masks
            .iter()
            .map(|&m| u32::from(tab[usize::from(m)][0]))
            .sum();
    }
    let p = parse(hand, wild, rules);
    match solve_counts(&p.counts, p.split.wilds, rules.ace_mode) {
        Some(d) => finish(d, &p.split),
        None => search::deadwood(hand, wild, rules),
    }
}

/// Whether natural `(s, r)` can be in no meld at all of the hand (then it is deadwood in every
/// arrangement, and discarding it lowers the deadwood by exactly its value).
fn unmeldable(cnt: &[[u8; 14]; 4], s: usize, r: usize, wilds: u32, mode: AceMode) -> bool {
    if wilds >= 2 {
        return false;
    }
    let total: u32 = (0..4).map(|t| u32::from(cnt[t][r])).sum();
    if total + wilds >= 3 {
        return false;
    }
    // Runs: any 3-window holding position p with the other two positions natural or (one) wild.
    let (lo_all, hi_all) = mode.range();
    let r8 = r as u8;
    for &p in positions(r8, mode) {
        for lo in lo_all.max(p.saturating_sub(2))..=p.min(hi_all - 2) {
            let mut missing = 0;
            for q in lo..lo + 3 {
                if q != p && cnt[s][usize::from(pos_rank(q))] == 0 {
                    missing += 1;
                }
            }
            if missing <= wilds {
                return false;
            }
        }
    }
    true
}

/// Shared work for the deadwood left after each discard of one hand.
///
/// The hand is parsed and prepared once; one tracked solve of the whole hand gives its deadwood
/// and one optimal arrangement. A natural left unmelded by that arrangement (or unmeldable)
/// costs `deadwood - value` without a solve, and so does a wild the arrangement does not need
/// (`deadwood` unchanged); every other natural reuses the preparation, rebuilding only its own
/// rank's set options, and one solve serves every wild.
struct Discarder<'a> {
    hand: &'a [u8],
    wild: u8,
    rules: &'a MeldRules,
    p: Parsed,
    prep: Prepared,
    opts: Vec<SetOpt>,
    extra: Vec<SetOpt>,
    /// `D` of the whole hand.
    d: u32,
    /// Deadwood of the whole hand.
    full: u32,
    dead: [u16; 4],
    spare_wild: bool,
    without_wild: Option<Option<u32>>,
}

impl<'a> Discarder<'a> {
    /// `None` outside the fast path's domain.
    fn new(hand: &'a [u8], wild: u8, rules: &'a MeldRules) -> Option<Self> {
        let p = parse(hand, wild, rules);
        if p.counts.over {
            return None;
        }
        let mode = rules.ace_mode;
        let mut opts: Vec<SetOpt> = Vec::new();
        let prep = prepare(&p.counts, p.split.wilds, mode, &mut opts)?;
        let mut whole = prep.h.clone();
        whole.track = true;
        let d = run(&mut whole, &prep.ranks[..prep.n_ranks], &opts, mode);
        let (dead, used) = dead_naturals(&whole, mode);
        let full = finish(d, &p.split);
        // A wild the optimal arrangement does not need: discarding it changes nothing (fewer
        // wilds never help, and that arrangement still fits).
        let spare_wild = d < p.split.nat_sum && used < p.split.wilds;
        Some(Self {
            hand,
            wild,
            rules,
            p,
            prep,
            opts,
            extra: Vec::new(),
            d,
            full,
            dead,
            spare_wild,
            without_wild: None,
        })
    }

    /// The deadwood after discarding card `i` when it needs no solve.
    fn quick(&self, i: usize) -> Option<u32> {
        let f = self.hand[i];
        let v = super::card_value(f, self.wild, self.rules);
        if is_joker(f) || rank(f) == self.wild {
            return self.spare_wild.then_some(self.full);
        }
        let (s, r) = (usize::from(suit(f)), usize::from(rank(f)));
        let dead = self.dead[s] & (1 << (r - 1)) != 0;
        (dead
            || unmeldable(
                &self.p.counts.cnt,
                s,
                r,
                self.p.split.wilds,
                self.rules.ace_mode,
            ))
        .then(|| self.full - v)
    }

    /// The deadwood after discarding card `i`, solved.
    fn solve(&mut self, i: usize) -> u32 {
        let f = self.hand[i];
        let mode = self.rules.ace_mode;
        let mut counts = self.p.counts;
        let mut sp = self.p.split.clone();
        let v = super::card_value(f, self.wild, self.rules);
        let reused = if is_joker(f) || rank(f) == self.wild {
            sp.wilds -= 1;
            sp.wild_cost -= v;
            // Every wild leaves the same naturals and one wild fewer: one solve serves all
            // (only the value of the wilds left in the deadwood differs, applied by `finish`).
            // Fewer wilds never help, so `D(hand)` is a lower bound.
            let (c, d) = (&self.p.counts, self.d);
            *self
                .without_wild
                .get_or_insert_with(|| solve_floor(c, sp.wilds, mode, d))
        } else {
            let (s, r) = (usize::from(suit(f)), usize::from(rank(f)));
            counts.remove_one(s, r);
            sp.nat_sum -= v;
            // Lower bound: the hand's own arrangement with this card added as deadwood.
            let floor = self.d.saturating_sub(natural_value(r_u8(r), mode));
            run_without(&self.prep, &self.opts, s, r, floor, &mut self.extra)
        };
        match reused.or_else(|| solve_counts(&counts, sp.wilds, mode)) {
            Some(d) => finish(d, &sp),
            None => search::deadwood(&without(self.hand, i), self.wild, self.rules),
        }
    }
}

/// The first index holding a card interchangeable with card `i` (equal faces; all jokers).
fn first_alike(hand: &[u8], i: usize) -> usize {
    let class = |f: u8| -> u8 { if is_joker(f) { JOKER0 } else { f } };
    (0..i)
        .find(|&j| class(hand[j]) == class(hand[i]))
        .unwrap_or(i)
}

/// Deadwood after discarding each card, index-aligned (work shared as [`Discarder`] says;
/// equal faces and all jokers share a result).
#[must_use]
pub fn discards(hand: &[u8], wild: u8, rules: &MeldRules) -> Vec<u32> {
    let Some(mut dc) = Discarder::new(hand, wild, rules) else {
        return slow_discards(hand, wild, rules);
    };
    let mut out: Vec<u32> = Vec::with_capacity(hand.len());
    for i in 0..hand.len() {
        let j = first_alike(hand, i);
        let v = if j < i {
            out[j]
        } else {
            dc.quick(i).unwrap_or_else(|| dc.solve(i))
        };
        out.push(v);
    }
    out
}

/// The least deadwood left by any discard (`min(discards(hand))`; 0 for an empty hand).
///
/// Discarding a card of value `v` leaves at least `deadwood - v` (an arrangement without it plus
/// the card unmelded is one of the whole hand), so the cards that need a solve are tried from
/// the most valuable down and the rest are skipped once that bound cannot beat the best so far.
#[must_use]
pub fn min_discard(hand: &[u8], wild: u8, rules: &MeldRules) -> u32 {
    if let Some(masks) = plain_masks(hand, wild) {
        // A discard changes one suit's row of a plain hand.
        let tab = table(rules.ace_mode);
        let cost = |m: u16| u32::from(tab[usize::from(m)][0]);
        let total: u32 = masks.iter().map(|&m| cost(m)).sum();
        return hand
            .iter()
            .map(|&f| {
                let m = masks[usize::from(suit(f))];
                total - cost(m) + cost(m & !(1 << (rank(f) - 1)))
            })
            .min()
            .unwrap_or(0);
    }
    let Some(mut dc) = Discarder::new(hand, wild, rules) else {
        return slow_discards(hand, wild, rules)
            .into_iter()
            .min()
            .unwrap_or(0);
    };
    let mut best = u32::MAX;
    let mut todo: Vec<(u32, usize)> = Vec::with_capacity(hand.len());
    for i in 0..hand.len() {
        if first_alike(hand, i) < i {
            continue;
        }
        match dc.quick(i) {
            Some(v) => best = best.min(v),
            None => todo.push((super::card_value(hand[i], wild, rules), i)),
        }
    }
    todo.sort_unstable_by(|a, b| b.cmp(a));
    for (v, i) in todo {
        if dc.full.saturating_sub(v) >= best {
            break;
        }
        best = best.min(dc.solve(i));
    }
    if best == u32::MAX { 0 } else { best }
}

fn without(hand: &[u8], i: usize) -> Vec<u8> {
    hand.iter()
        .enumerate()
        .filter(|&(k, _)| k != i)
        .map(|(_, &x)| x)
        .collect()
}

/// Discards by one solve each (hands outside the fast path's domain).
fn slow_discards(hand: &[u8], wild: u8, rules: &MeldRules) -> Vec<u32> {
    (0..hand.len())
        .map(|i| deadwood(&without(hand, i), wild, rules))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The direct DP of the dead-mask table prices every suit exactly like the main table, and
    /// each dead mask is a subset of its suit whose value is the cost.
    #[test]
    fn dead_table_agrees_with_costs() {
        for mode in [AceMode::Low, AceMode::High, AceMode::Both] {
            let tab = table(mode);
            let dt = dead_table(mode);
            for mask in 0..1usize << 13 {
                for k in 0..KN {
                    assert_eq!(
                        u16::from(tab[mask][k]),
                        dt.cost[mask][k],
                        "{mode:?} {mask} {k}"
                    );
                    let d = usize::from(dt.dead[mask][k]);
                    assert_eq!(d & !mask, 0);
                    let v: u32 = (1..=13u8)
                        .filter(|&r| d & (1 << (r - 1)) != 0)
                        .map(|r| natural_value(r, mode))
                        .sum();
                    assert_eq!(v, u32::from(dt.cost[mask][k]));
                }
            }
        }
    }
}
