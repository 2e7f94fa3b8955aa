//! The Three-Thirteen `hard` agent's decisions (`cardcore.three_thirteen.agents.HardAgent`).
//!
//! The agent counts the cards it has not seen and values a hand by its expected optimal deadwood
//! after one more stock draw and the best discard after it, minus a bonus for the chance that the
//! draw lets it go out. Draw: the pile card plus one more draw against two stock draws. Discard:
//! among the discards near the minimum deadwood, the hand with the best value, with a penalty for
//! feeding the next player's visible pickups. Faces that cannot meld with the hand are priced in
//! closed form, so only the faces that interact cost a solve.
//!
//! Every step, and every floating-point operation in its order, is the one the Python agent
//! made before this module replaced its loops, so the agent's games are unchanged.

use std::cell::RefCell;

use crate::card::{JOKER0, MAX_JOKERS, NATURALS, is_joker, rank, suit};
use crate::hash::FastMap;
use crate::meld::{self, AceMode, MeldError, MeldRules, card_value, fast};

/// Number of face codes (naturals and jokers).
const FACES: usize = (JOKER0 + MAX_JOKERS) as usize;

/// Tuning of the agent (the Python class constants).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HardParams {
    /// Value of the chance that the next draw lets the hand go out.
    pub out_bonus: f64,
    /// Added to a discard that fits the next player's visible pickups.
    pub feed_penalty: f64,
    /// Weight of the deadwood right now, next to the look-ahead.
    pub now_weight: f64,
    /// Discards considered: within this many points of the best deadwood.
    pub slack: u32,
    /// Most discards valued.
    pub max_candidates: usize,
    /// Share of the first stock draw's gain assumed for a second one.
    pub gamma: f64,
}

impl Default for HardParams {
    fn default() -> Self {
        Self {
            out_bonus: 10.0,
            feed_penalty: 2.0,
            now_weight: 0.05,
            slack: 10,
            max_candidates: 4,
            gamma: 0.8,
        }
    }
}

/// What `seat` has seen besides its hand ([`View::seen`]): the discard pile, then the pile
/// cards each other seat took this round and still holds (`taken`, per seat).
#[must_use]
pub fn seen_by(pile: &[u8], taken: &[Vec<u8>], seat: usize) -> Vec<u8> {
    let mut seen = pile.to_vec();
    for (s, t) in taken.iter().enumerate() {
        if s != seat {
            seen.extend_from_slice(t);
        }
    }
    seen
}

/// What the deciding seat sees, as face codes.
#[derive(Clone, Copy, Debug)]
pub struct View<'a> {
    /// The seat's hand in hand order.
    pub hand: &'a [u8],
    /// Every other card the seat has seen and cannot draw: the discard pile (its top included)
    /// and the cards opponents took from it and still hold.
    pub seen: &'a [u8],
    /// Decks in the game (copies of each natural face).
    pub num_decks: u8,
    /// Jokers in the game (`X1..Xk`).
    pub jokers: u8,
    /// The round's wild rank (3..=13).
    pub wild: u8,
    /// Scoring and ace variant.
    pub rules: MeldRules,
    /// Someone went out: this is the seat's final turn, scored on the hand after it.
    pub final_turn: bool,
}

impl View<'_> {
    fn check(&self) -> Result<(), MeldError> {
        meld::check_rules(u32::from(self.wild), &self.rules)?;
        meld::check_hand(self.hand)?;
        if self.hand.len() + 1 > meld::MAX_HAND {
            return Err(MeldError::TooManyCards(self.hand.len() + 1));
        }
        if let Some(&f) = self.seen.iter().find(|&&f| f >= JOKER0 + MAX_JOKERS) {
            return Err(MeldError::BadFace(f));
        }
        Ok(())
    }

    /// Count per face of the cards not in the hand and not seen.
    fn unseen(&self) -> [i32; FACES] {
        let mut counts = [0i32; FACES];
        counts[..usize::from(NATURALS)].fill(i32::from(self.num_decks));
        for c in counts
            .iter_mut()
            .skip(usize::from(JOKER0))
            .take(usize::from(self.jokers))
        {
            *c = 1;
        }
        for &f in self.hand.iter().chain(self.seen) {
            counts[usize::from(f)] -= 1;
        }
        counts
    }
}

/// Rank(s) of a natural face for adjacency: `(low rank, alternative rank for a high ace)`.
fn rank_hi(face: u8, mode: AceMode) -> (i32, i32) {
    let r = i32::from(rank(face));
    match (r, mode) {
        (1, AceMode::Both) => (1, 14),
        (1, AceMode::High) => (14, 14),
        _ => (r, r),
    }
}

/// Whether face `u` could ever share a meld with `naturals` (conservative: may say yes). The
/// faces are compared by `rank` and `suit` as given, jokers included.
pub(crate) fn interacts(u: u8, naturals: &[u8], wilds: usize, wild: u8, mode: AceMode) -> bool {
    if is_joker(u) || rank(u) == wild || wilds >= 2 {
        return true;
    }
    let (a1, a2) = rank_hi(u, mode);
    naturals.iter().any(|&f| {
        if rank(f) == rank(u) {
            return true;
        }
        if suit(f) != suit(u) {
            return false;
        }
        let (b1, b2) = rank_hi(f, mode);
        [a1 - b1, a1 - b2, a2 - b1, a2 - b2]
            .iter()
            .any(|d| d.abs() <= 2)
    })
}

type Memo = FastMap<u128, u32>;

/// Memo entries per generation (two generations: about 2 x 1.5 MB per thread).
const MEMO_LIMIT: usize = 1 << 16;

/// Least deadwood after any discard, remembered per thread: a hand valued in one turn comes
/// back in the next (after the drawn card is discarded again), so about a quarter of the calls
/// are repeats. The memo holds one wild rank and rule set at a time.
struct MinDiscardMemo {
    rules: Option<(u8, MeldRules)>,
    cur: Memo,
    old: Memo,
}

thread_local! {
    static MEMO: RefCell<MinDiscardMemo> = RefCell::new(MinDiscardMemo {
        rules: None,
        cur: Memo::default(),
        old: Memo::default(),
    });
}

/// The multiset of a hand of at most 16 faces as a key (sorted faces + 1, 7 bits each).
fn hand_key(hand: &[u8]) -> Option<u128> {
    if hand.len() > 16 {
        return None;
    }
    let mut sorted = [0u8; 16];
    sorted[..hand.len()].copy_from_slice(hand);
    sorted[..hand.len()].sort_unstable();
    Some(
        sorted[..hand.len()]
            .iter()
            .fold(0u128, |k, &f| (k << 7) | u128::from(f + 1)),
    )
}

/// [`fast::min_discard`] through the per-thread memo.
fn min_discard(hand: &[u8], wild: u8, rules: &MeldRules) -> u32 {
    let Some(key) = hand_key(hand) else {
        return fast::min_discard(hand, wild, rules);
    };
    MEMO.with(|m| {
        let mut m = m.borrow_mut();
        if m.rules != Some((wild, *rules)) {
            m.rules = Some((wild, *rules));
            m.cur.clear();
            m.old.clear();
        }
        if let Some(&v) = m.cur.get(&key).or_else(|| m.old.get(&key)) {
            return v;
        }
        let v = fast::min_discard(hand, wild, rules);
        if m.cur.len() >= MEMO_LIMIT {
            m.old = std::mem::take(&mut m.cur);
        }
        m.cur.insert(key, v);
        v
    })
}

fn min_of(values: &[u32]) -> u32 {
    values.iter().copied().min().unwrap_or(0)
}

/// Deadwood left after each discard of `hand` (validated by the caller).
fn discards(hand: &[u8], wild: u8, rules: &MeldRules) -> Vec<u32> {
    fast::discards(hand, wild, rules)
}

struct Agent<'a> {
    view: &'a View<'a>,
    params: &'a HardParams,
    counts: [i32; FACES],
}

impl Agent<'_> {
    fn points(&self, face: u8) -> u32 {
        card_value(face, self.view.wild, &self.view.rules)
    }

    /// Expected optimal deadwood of `faces` (n cards) after one stock draw and discard, minus
    /// `bonus` times the chance that this draw lets the hand go out.
    fn value_after_draw(&self, faces: &[u8], dw_now: u32, bonus: f64) -> f64 {
        let t = self.draw_tally(faces, dw_now);
        if t.total == 0 {
            return f64::from(dw_now);
        }
        (t.acc - bonus * t.outs as f64) / t.total as f64
    }

    /// Over the unseen cards (with multiplicity), the optimal deadwood of `faces` after drawing
    /// each and the best discard: summed, and how many draws go out or lower the deadwood.
    fn draw_tally(&self, faces: &[u8], dw_now: u32) -> DrawTally {
        let (wild, rules) = (self.view.wild, &self.view.rules);
        let naturals: Vec<u8> = faces
            .iter()
            .copied()
            .filter(|&f| f < JOKER0 && rank(f) != wild)
            .collect();
        let wilds = faces.len() - naturals.len();
        let mut with = Vec::with_capacity(faces.len() + 1);
        with.extend_from_slice(faces);
        with.push(0);
        let mut t = DrawTally::default();
        let mut one_less: Option<u32> = None;
        for (u, &cnt) in (0u8..).zip(&self.counts) {
            if cnt <= 0 {
                continue;
            }
            t.total += i64::from(cnt);
            let v = if interacts(u, &naturals, wilds, wild, rules.ace_mode) {
                *with.last_mut().expect("not empty") = u;
                let m = min_discard(&with, wild, rules);
                if m == 0 {
                    t.outs += i64::from(cnt);
                }
                m
            } else {
                let less = *one_less.get_or_insert_with(|| min_discard(faces, wild, rules));
                dw_now.min(less + self.points(u))
            };
            t.acc += (i64::from(cnt) * i64::from(v)) as f64;
            if v < dw_now {
                t.better += i64::from(cnt);
            }
        }
        t
    }

    fn take_pile(&self, top: u8, can_go_out: bool) -> bool {
        match self.draw_values(top, can_go_out, false) {
            DrawValues::Decided(take) => take,
            DrawValues::Weighed { take, stock, .. } => take < stock,
        }
    }

    /// The draw decision, or the values it weighs (with `finals`: also each draw's expected
    /// deadwood after one more, final, turn).
    fn draw_values(&self, top: u8, can_go_out: bool, finals: bool) -> DrawValues {
        let (wild, rules, p) = (self.view.wild, &self.view.rules, self.params);
        let hand = self.view.hand;
        let mut with_top = hand.to_vec();
        with_top.push(top);
        let dws = discards(&with_top, wild, rules);
        let n = hand.len();
        let keep = dws[n];
        let take = min_of(&dws[..n]);
        if take == 0 && can_go_out {
            return DrawValues::Decided(true);
        }
        if take >= keep {
            return DrawValues::Decided(false); // the expected stock draw is never worse
        }
        if self.view.final_turn {
            // scored on the hand after this turn
            return DrawValues::Decided(f64::from(take) < self.value_after_draw(hand, keep, 0.0));
        }
        let stock = self.value_after_draw(hand, keep, p.out_bonus);
        // The same horizon on both sides: the pile card plus one more draw (for the two best
        // discards after taking it), against two stock draws, the second gaining a share
        // `gamma` of what the first gains.
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&i| dws[i]);
        let mut take2 = f64::INFINITY;
        let mut take_final = f64::from(take);
        for (k, &i) in order.iter().take(2).enumerate() {
            let mut rest = with_top.clone();
            rest.remove(i);
            let v = self.value_after_draw(&rest, dws[i], p.out_bonus);
            if v < take2 {
                take2 = v;
            }
            if finals && k == 0 {
                take_final = self.value_after_draw(&rest, dws[i], 0.0);
            }
        }
        let stock2 = stock - p.gamma * (f64::from(keep) - stock);
        let stock_final = if finals {
            let once = self.value_after_draw(hand, keep, 0.0);
            once - p.gamma * (f64::from(keep) - once)
        } else {
            f64::from(keep)
        };
        DrawValues::Weighed {
            take: take2,
            stock: stock2,
            take_final,
            stock_final,
        }
    }

    /// The lowest-deadwood discard among the allowed ones (the first on ties).
    fn lowest(dws: &[u32], banned: Option<usize>) -> Option<usize> {
        let mut best: Option<usize> = None;
        for (i, &d) in dws.iter().enumerate() {
            if Some(i) != banned && best.is_none_or(|b| d < dws[b]) {
                best = Some(i);
            }
        }
        best
    }

    /// The discards the agent weighs with their scores (lower is better), in its order; a
    /// single one (the lowest deadwood) when that goes out or on a final turn. `None` when no
    /// card may be discarded.
    fn discard_options(&self, banned: Option<usize>, feed: &[u8]) -> Option<Vec<DiscardOption>> {
        let (wild, rules, p) = (self.view.wild, &self.view.rules, self.params);
        let hand = self.view.hand;
        let dws = discards(hand, wild, rules);
        let lowest = Self::lowest(&dws, banned)?;
        let best_now = dws[lowest];
        if best_now == 0 || self.view.final_turn {
            return Some(vec![DiscardOption {
                index: lowest,
                deadwood: best_now,
                score: f64::from(best_now),
                rest: Vec::new(),
            }]);
        }
        // Candidates: near-minimal deadwood, one per face (equal faces give equal hands).
        let mut order: Vec<usize> = (0..hand.len()).filter(|&i| Some(i) != banned).collect();
        order.sort_by_key(|&i| (dws[i], std::cmp::Reverse(self.points(hand[i]))));
        let mut seen = [false; FACES];
        let mut options = Vec::with_capacity(p.max_candidates);
        for i in order {
            let f = usize::from(hand[i]);
            if seen[f] || dws[i] > best_now + p.slack {
                continue;
            }
            seen[f] = true;
            let mut rest = hand.to_vec();
            rest.remove(i);
            let mut score = self.value_after_draw(&rest, dws[i], p.out_bonus);
            if !feed.is_empty() && interacts(hand[i], feed, 0, wild, rules.ace_mode) {
                score += p.feed_penalty;
            }
            score += p.now_weight * f64::from(dws[i]);
            options.push(DiscardOption {
                index: i,
                deadwood: dws[i],
                score,
                rest,
            });
            if options.len() >= p.max_candidates {
                break;
            }
        }
        Some(options)
    }

    fn discard(&self, banned: Option<usize>, feed: &[u8]) -> Option<usize> {
        let options = self.discard_options(banned, feed)?;
        let mut best = (f64::INFINITY, options.first()?.index);
        for o in &options {
            if o.score < best.0 {
                best = (o.score, o.index);
            }
        }
        Some(best.1)
    }
}

/// Sums over the unseen cards of [`Agent::draw_tally`].
#[derive(Clone, Copy, Debug, Default)]
struct DrawTally {
    /// Sum of the optimal deadwood after each draw and the best discard.
    acc: f64,
    /// Draws that go out.
    outs: i64,
    /// Draws that lower the optimal deadwood.
    better: i64,
    /// Unseen cards.
    total: i64,
}

/// What one more stock draw (and the best discard after it) does for a hand, over the cards
/// the seat has not seen: the `hard` agent's look-ahead, split into its parts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outlook {
    /// Expected optimal deadwood after the draw.
    pub mean: f64,
    /// Chance that the draw lets the hand go out.
    pub out: f64,
    /// Chance that the draw lowers the optimal deadwood.
    pub better: f64,
}

/// `f` of an agent with the default tuning at `view`, after checking the view.
fn with_default_agent<T>(view: &View<'_>, f: impl FnOnce(&Agent<'_>) -> T) -> Result<T, MeldError> {
    view.check()?;
    let params = HardParams::default();
    let agent = Agent {
        view,
        params: &params,
        counts: view.unseen(),
    };
    Ok(f(&agent))
}

/// The [`Outlook`] of the seat's hand `view.hand`, whose optimal deadwood is `dw_now` (the
/// unseen cards are everything not in `view.hand` or `view.seen`).
///
/// # Errors
/// [`MeldError`] for bad faces, hand size, wild rank or points.
pub fn outlook(view: &View<'_>, dw_now: u32) -> Result<Outlook, MeldError> {
    let t = with_default_agent(view, |agent| agent.draw_tally(view.hand, dw_now))?;
    if t.total == 0 {
        return Ok(Outlook {
            mean: f64::from(dw_now),
            out: 0.0,
            better: 0.0,
        });
    }
    let n = t.total as f64;
    Ok(Outlook {
        mean: t.acc / n,
        out: t.outs as f64 / n,
        better: t.better as f64 / n,
    })
}

/// The `hard` agent's draw decision or the values it weighs (lower is better).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum DrawValues {
    /// Clear without weighing: whether to take the pile top.
    Decided(bool),
    /// Taking the pile top against drawing from the stock: the agent's values of the hand
    /// after each, and each one's expected deadwood when the seat's next turn is its last.
    Weighed {
        take: f64,
        stock: f64,
        take_final: f64,
        stock_final: f64,
    },
}

/// A discard the `hard` agent weighs.
#[derive(Clone, Debug, PartialEq)]
pub struct DiscardOption {
    /// Index in the hand.
    pub index: usize,
    /// Optimal deadwood of the hand after it.
    pub deadwood: u32,
    /// The agent's value of the hand after it (lower is better).
    pub score: f64,
    /// The hand after it (empty for a forced discard).
    pub rest: Vec<u8>,
}

/// Draw decision: whether to take the discard-pile top `top` (else draw from the stock).
/// `can_go_out`: taking it and going out at once would count (own turns so far suffice).
///
/// # Errors
/// [`MeldError`] for bad faces, hand size, wild rank or points.
pub fn take_pile(
    view: &View<'_>,
    top: u8,
    can_go_out: bool,
    params: &HardParams,
) -> Result<bool, MeldError> {
    view.check()?;
    meld::check_hand(&[top])?;
    let agent = Agent {
        view,
        params,
        counts: view.unseen(),
    };
    Ok(agent.take_pile(top, can_go_out))
}

/// The values behind [`take_pile`], with the expected deadwood after a final turn.
///
/// # Errors
/// [`MeldError`] for bad faces, hand size, wild rank or points.
pub fn draw_values(
    view: &View<'_>,
    top: u8,
    can_go_out: bool,
    params: &HardParams,
) -> Result<DrawValues, MeldError> {
    view.check()?;
    meld::check_hand(&[top])?;
    let agent = Agent {
        view,
        params,
        counts: view.unseen(),
    };
    Ok(agent.draw_values(top, can_go_out, true))
}

/// The agent for a discard decision at `view`, after checking the view and the next player's
/// visible pickups `feed` (shared by [`discard_options`] and [`discard`]).
fn discard_agent<'a>(
    view: &'a View<'a>,
    feed: &[u8],
    params: &'a HardParams,
) -> Result<Agent<'a>, MeldError> {
    view.check()?;
    if let Some(&f) = feed.iter().find(|&&f| f >= JOKER0 + MAX_JOKERS) {
        return Err(MeldError::BadFace(f));
    }
    Ok(Agent {
        view,
        params,
        counts: view.unseen(),
    })
}

/// The discards the `hard` agent weighs, with its scores (see [`discard`]); a single one when the
/// choice is forced by going out or a final turn; empty when no card may be discarded.
///
/// # Errors
/// [`MeldError`] for bad faces, hand size, wild rank or points.
pub fn discard_options(
    view: &View<'_>,
    banned: Option<usize>,
    feed: &[u8],
    params: &HardParams,
) -> Result<Vec<DiscardOption>, MeldError> {
    Ok(discard_agent(view, feed, params)?
        .discard_options(banned, feed)
        .unwrap_or_default())
}

/// For each option of [`discard_options`] at `view`: the expected optimal deadwood of the hand
/// after it and one final turn that draws from the stock and discards to the least deadwood.
///
/// # Errors
/// [`MeldError`] for bad faces, hand size, wild rank or points.
pub fn final_turn_values(
    view: &View<'_>,
    options: &[DiscardOption],
) -> Result<Vec<f64>, MeldError> {
    with_default_agent(view, |agent| {
        options
            .iter()
            .map(|o| {
                if o.rest.is_empty() {
                    f64::from(o.deadwood)
                } else {
                    agent.value_after_draw(&o.rest, o.deadwood, 0.0)
                }
            })
            .collect()
    })
}

/// Discard decision: the index in `view.hand` of the card to discard (never `banned`, the card
/// that may not go back this turn); `None` when no card may be discarded. `feed` is the next
/// player's visible pickups.
///
/// # Errors
/// [`MeldError`] for bad faces, hand size, wild rank or points.
pub fn discard(
    view: &View<'_>,
    banned: Option<usize>,
    feed: &[u8],
    params: &HardParams,
) -> Result<Option<usize>, MeldError> {
    Ok(discard_agent(view, feed, params)?.discard(banned, feed))
}

#[cfg(test)]
mod tests {
    use super::seen_by;

    #[test]
    fn a_seat_sees_the_pile_and_the_others_pickups() {
        let taken = vec![vec![1, 2], vec![3], vec![]];
        assert_eq!(seen_by(&[9, 8], &taken, 0), vec![9, 8, 3]);
        assert_eq!(seen_by(&[9], &taken, 1), vec![9, 1, 2]);
        assert_eq!(seen_by(&[], &taken, 2), vec![1, 2, 3]);
    }
}
