//! Three-Thirteen exact wildcard meld solver (the Three-Thirteen rules page: "Melds", "Scoring" and "Variants").
//!
//! A hand is a slice of face codes (`card` module: naturals 0..52, jokers 52..56). Jokers and
//! every natural of the round's wild rank are *wild*; everything else is *natural*.
//!
//! Two exact algorithms live here (see `docs/meld-solver.md`):
//! * [`search`]: memoised search that branches on the lowest remaining natural card with a wild
//!   budget. It also rebuilds one optimal arrangement. Used by [`best_arrangement`] and as the
//!   Rust-side oracle of the fast path.
//! * [`fast`]: set enumeration over ranks plus per-suit run tables combined over the wild budget.
//!   Used by [`min_deadwood`], [`discard_deadwoods`] and the batch form.
//!
//! Both compute `D`, the minimum value of the *natural* cards left unmelded when at most `w`
//! wilds may fill melds. The answer follows from `D` (wilds fill any meld): if some natural is
//! melded (`D < sum of naturals`) every spare wild joins a meld for free, so the deadwood is `D`.
//! Otherwise no natural can be melded: with 3 or more wilds they form an all-wild meld (deadwood
//! = the naturals), with 1 or 2 wilds they are deadwood too.

pub mod fast;
pub mod search;

use crate::card::{self, JOKER0};
use thiserror::Error;

/// Where aces go in runs (the rules option `ace_mode`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum AceMode {
    /// `A-2-3` only; an unmelded ace counts 1 (the default).
    #[default]
    Low,
    /// `Q-K-A` only; an unmelded ace counts 15.
    High,
    /// An ace may end a run at either end (no wrap); an unmelded ace counts 15.
    Both,
}

impl AceMode {
    /// Mode from its code (0 low, 1 high, 2 both).
    #[must_use]
    pub const fn from_code(code: u8) -> Option<Self> {
        match code {
            0 => Some(Self::Low),
            1 => Some(Self::High),
            2 => Some(Self::Both),
            _ => None,
        }
    }

    /// Lowest and highest run position: the ace is position 1 (low) or 14 (high).
    #[must_use]
    pub const fn range(self) -> (u8, u8) {
        match self {
            Self::Low => (1, 13),
            Self::High => (2, 14),
            Self::Both => (1, 14),
        }
    }
}

/// Scoring and ace variant of the meld rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MeldRules {
    /// Ace placement in runs.
    pub ace_mode: AceMode,
    /// Value of an unmelded natural of the wild rank (default 15).
    pub wild_points: u32,
    /// Value of an unmelded joker (default 20).
    pub joker_points: u32,
}

impl Default for MeldRules {
    fn default() -> Self {
        Self {
            ace_mode: AceMode::Low,
            wild_points: 15,
            joker_points: 20,
        }
    }
}

/// Unmelded value of an ace when aces are high (the rules option `ace_mode`).
pub const ACE_HIGH_POINTS: u32 = 15;
/// Largest hand the solver accepts: every hand of the game (at most 14 cards) and then some.
/// The cost grows about tenfold per four cards; the worst hands found at this size take under
/// 0.1 s and a few MB (`docs/meld-solver.md`), 32 cards already take seconds.
pub const MAX_HAND: usize = 24;
/// Largest point value accepted for wilds and jokers.
pub const MAX_POINTS: u32 = 1000;

/// Invalid solver input.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum MeldError {
    /// Wild rank outside 3..=13.
    #[error("wild rank must be 3..13 (3-9, T, J, Q, K), got {0}")]
    BadWildRank(u32),
    /// A joker after `X4` (face code 56 or more): the solver takes Three-Thirteen cards only.
    #[error(
        "{text} (face code {0}) is not a Three-Thirteen card: the meld solver takes the naturals \
         and jokers X1..X{max}",
        text = card::format_face(*.0),
        max = card::MAX_JOKERS
    )]
    BadFace(u8),
    /// More cards than [`MAX_HAND`].
    #[error("hand of {0} cards is too large (at most {MAX_HAND})")]
    TooManyCards(usize),
    /// Points outside 0..=[`MAX_POINTS`].
    #[error("points must be 0..{MAX_POINTS}, got {0}")]
    BadPoints(u32),
}

/// Kind of a meld.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MeldKind {
    /// Same rank (an all-wild meld is a set).
    Set,
    /// Same suit, consecutive ranks.
    Run,
}

/// One meld: hand indices, each with the face a wild stands for (`None` for naturals and for a
/// wild that stands for itself).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Meld {
    /// Set or run.
    pub kind: MeldKind,
    /// `(index in the hand, face the card stands for)`, runs in rank order.
    pub cards: Vec<(usize, Option<u8>)>,
}

/// An optimal arrangement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arrangement {
    /// The melds.
    pub melds: Vec<Meld>,
    /// Hand indices of the unmelded cards.
    pub deadwood: Vec<usize>,
    /// Summed value of the deadwood (the minimum).
    pub points: u32,
}

/// A hand split into naturals and wilds, validated.
#[derive(Clone, Debug)]
pub(crate) struct Split {
    /// Wild cards in the hand.
    pub wilds: u32,
    /// Summed value of the wilds if unmelded.
    pub wild_cost: u32,
    /// Summed value of the naturals.
    pub nat_sum: u32,
}

/// Checks the rules' values and the wild rank.
///
/// # Errors
/// [`MeldError::BadWildRank`] or [`MeldError::BadPoints`].
pub fn check_rules(wild: u32, rules: &MeldRules) -> Result<(), MeldError> {
    if !(3..=13).contains(&wild) {
        return Err(MeldError::BadWildRank(wild));
    }
    for p in [rules.wild_points, rules.joker_points] {
        if p > MAX_POINTS {
            return Err(MeldError::BadPoints(p));
        }
    }
    Ok(())
}

/// Checks a hand's faces and size.
///
/// # Errors
/// [`MeldError::BadFace`] or [`MeldError::TooManyCards`].
pub fn check_hand(faces: &[u8]) -> Result<(), MeldError> {
    if faces.len() > MAX_HAND {
        return Err(MeldError::TooManyCards(faces.len()));
    }
    if let Some(&f) = faces.iter().find(|&&f| f >= JOKER0 + card::MAX_JOKERS) {
        return Err(MeldError::BadFace(f));
    }
    Ok(())
}

/// Whether `face` is wild in a round of wild rank `wild`.
#[inline]
#[must_use]
pub const fn is_wild(face: u8, wild: u8) -> bool {
    card::is_joker(face) || card::rank(face) == wild
}

/// Unmelded value of a natural (non-wild) card of `rank`.
#[inline]
#[must_use]
pub const fn natural_value(rank: u8, ace_mode: AceMode) -> u32 {
    match rank {
        1 => match ace_mode {
            AceMode::Low => 1,
            AceMode::High | AceMode::Both => ACE_HIGH_POINTS,
        },
        2..=10 => rank as u32,
        _ => 10,
    }
}

/// Unmelded value of any card. Python has the same definition as
/// `cardcore.three_thirteen.rules.card_points`, held equal by a test over every face, wild rank
/// and rule set (`tests/three_thirteen/test_three_thirteen_rules.py`).
#[inline]
#[must_use]
pub const fn card_value(face: u8, wild: u8, rules: &MeldRules) -> u32 {
    if card::is_joker(face) {
        rules.joker_points
    } else if card::rank(face) == wild {
        rules.wild_points
    } else {
        natural_value(card::rank(face), rules.ace_mode)
    }
}

pub(crate) fn split(faces: &[u8], wild: u8, rules: &MeldRules) -> Split {
    let mut s = Split {
        wilds: 0,
        wild_cost: 0,
        nat_sum: 0,
    };
    for &f in faces {
        if is_wild(f, wild) {
            s.wilds += 1;
            s.wild_cost += card_value(f, wild, rules);
        } else {
            s.nat_sum += natural_value(card::rank(f), rules.ace_mode);
        }
    }
    s
}

/// Position(s) of a rank in runs (the ace is 1 and/or 14).
#[inline]
pub(crate) fn positions(r: u8, mode: AceMode) -> &'static [u8] {
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

/// The rank at run position `q` (14 is the high ace).
#[inline]
pub(crate) const fn pos_rank(q: u8) -> u8 {
    if q == 14 { 1 } else { q }
}

/// The run window of `len` positions holding position `p`, the lowest natural left in its suit:
/// nothing lies below `p` (the high ace is never below), so the window starts at `p` unless it
/// would pass the top of the ace mode's range. Returns `(lo, hi, required, free)`: bitmasks, bit
/// `q - lo`, of the other positions holding a natural (`present(q)`), split into `required`
/// (the ends of a window longer than 3) and `free`. `None` when the range is too short, or when
/// a window longer than 3 would have a wild at an end: the shorter window holds the same
/// naturals with one wild fewer.
#[inline]
pub(crate) fn run_window(
    p: u8,
    len: u8,
    mode: AceMode,
    present: impl Fn(u8) -> bool,
) -> Option<(u8, u8, u16, u16)> {
    let (lo_all, hi_all) = mode.range();
    if hi_all + 1 < lo_all + len {
        return None;
    }
    let lo = p.min(hi_all + 1 - len).max(lo_all);
    let hi = lo + len - 1;
    let long = len > 3;
    let mut optional = 0u16;
    for q in lo..=hi {
        let here = q == p || present(q);
        if q != p && here {
            optional |= 1 << (q - lo);
        }
        if long && (q == lo || q == hi) && !here {
            return None;
        }
    }
    let required = if long {
        (1 | (1 << (hi - lo))) & optional
    } else {
        0
    };
    Some((lo, hi, required, optional & !required))
}

/// Deadwood from `d`, the least unmelded natural value with at most `wilds` wilds (module docs).
#[inline]
#[must_use]
pub(crate) const fn finish(d: u32, s: &Split) -> u32 {
    if d < s.nat_sum || s.wilds == 0 || s.wilds >= 3 {
        d
    } else {
        d + s.wild_cost
    }
}

/// Minimum deadwood of `faces` with wild rank `wild` (3..=13).
///
/// # Errors
/// Invalid faces, hand size, wild rank or points ([`MeldError`]).
pub fn min_deadwood(faces: &[u8], wild: u32, rules: &MeldRules) -> Result<u32, MeldError> {
    check_rules(wild, rules)?;
    check_hand(faces)?;
    Ok(fast::deadwood(faces, wild as u8, rules))
}

/// Whether every natural of `faces` has the partners a meld needs: two more cards of its rank,
/// or two cards of its suit among the two places either side of it in a run (an ace on both
/// sides: any ace mode), wilds counting for either. Only a hand where this holds can have no
/// deadwood (a natural is worth at least 1 point); most hands fail it at once, which spares the
/// solver (the going-out check of every discard).
#[must_use]
pub fn may_meld_every_natural(faces: &[u8], wild: u8) -> bool {
    let mut wilds = 0u32;
    let mut ranks = [0u32; 15];
    let mut places = [0u32; 4]; // bit r: rank r (ace at 1 and 14)
    for &f in faces {
        if is_wild(f, wild) {
            wilds += 1;
            continue;
        }
        let r = card::rank(f);
        ranks[usize::from(r)] += 1;
        places[usize::from(card::suit(f))] |= (1 << r) | if r == 1 { 1 << 14 } else { 0 };
    }
    if wilds >= 2 {
        return true;
    }
    faces.iter().all(|&f| {
        if is_wild(f, wild) {
            return true;
        }
        let r = card::rank(f);
        if ranks[usize::from(r)] - 1 + wilds >= 2 {
            return true;
        }
        let near = |p: u8| (0b11111u32 << p >> 2) & !(1 << p);
        let window = if r == 1 {
            (near(1) | near(14)) & !((1 << 1) | (1 << 14))
        } else {
            near(r)
        };
        (places[usize::from(card::suit(f))] & window).count_ones() + wilds >= 2
    })
}

/// Minimum deadwood of many hands (same wild rank and rules).
///
/// # Errors
/// The first invalid hand's error.
pub fn min_deadwood_batch<H: AsRef<[u8]>>(
    hands: &[H],
    wild: u32,
    rules: &MeldRules,
) -> Result<Vec<u32>, MeldError> {
    check_rules(wild, rules)?;
    for h in hands {
        check_hand(h.as_ref())?;
    }
    let w = wild as u8;
    Ok(hands
        .iter()
        .map(|h| fast::deadwood(h.as_ref(), w, rules))
        .collect())
}

/// One optimal arrangement of `faces`.
///
/// # Errors
/// Invalid faces, hand size, wild rank or points ([`MeldError`]).
pub fn best_arrangement(
    faces: &[u8],
    wild: u32,
    rules: &MeldRules,
) -> Result<Arrangement, MeldError> {
    check_rules(wild, rules)?;
    check_hand(faces)?;
    Ok(search::arrangement(faces, wild as u8, rules))
}

/// For each index `i`, the minimum deadwood of the hand without card `i` (index-aligned).
///
/// # Errors
/// Invalid faces, hand size, wild rank or points ([`MeldError`]).
pub fn discard_deadwoods(
    faces: &[u8],
    wild: u32,
    rules: &MeldRules,
) -> Result<Vec<u32>, MeldError> {
    check_rules(wild, rules)?;
    check_hand(faces)?;
    Ok(fast::discards(faces, wild as u8, rules))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::CardRng;

    /// A hand of melds (sets, runs with aces at either end, wilds in some places) plus a few
    /// random cards: often no deadwood.
    fn meldish(rng: &mut CardRng, wild: u8) -> Vec<u8> {
        let mut hand = Vec::new();
        for _ in 0..=rng.below(3) {
            if rng.below(2) == 0 {
                let r = rng.below(13) as u8;
                for _ in 0..3 + rng.below(2) {
                    hand.push(rng.below(4) as u8 * 13 + r);
                }
            } else {
                let (s, len) = (rng.below(4) as u8, 3 + rng.below(3) as u8);
                let start = rng.below(u64::from(15 - len)) as u8; // places 0..: 13 is the ace high
                for k in start..start + len {
                    hand.push(s * 13 + (k % 13));
                }
            }
        }
        for f in &mut hand {
            match rng.below(12) {
                0 => *f = 52 + rng.below(4) as u8,
                1 => *f = rng.below(4) as u8 * 13 + wild - 1,
                _ => {}
            }
        }
        for _ in 0..rng.below(3) {
            hand.push(rng.below(56) as u8);
        }
        hand.truncate(MAX_HAND);
        hand
    }

    #[test]
    fn a_hand_without_deadwood_may_meld_every_natural() {
        let mut rng = CardRng::new(7);
        let (mut zero, mut pruned) = (0, 0);
        for n in 0..40_000 {
            let wild = 3 + rng.below(11) as u8;
            let hand = if n % 2 == 0 {
                meldish(&mut rng, wild)
            } else {
                (0..3 + rng.below(12))
                    .map(|_| rng.below(56) as u8)
                    .collect()
            };
            let may = may_meld_every_natural(&hand, wild);
            for ace_mode in [AceMode::Low, AceMode::High, AceMode::Both] {
                for points in [0, 15] {
                    let rules = MeldRules {
                        ace_mode,
                        wild_points: points,
                        joker_points: points,
                    };
                    let d = min_deadwood(&hand, u32::from(wild), &rules).unwrap();
                    if d == 0 {
                        zero += 1;
                        assert!(may, "{hand:?} wild {wild} {rules:?}");
                    }
                }
            }
            pruned += usize::from(!may);
        }
        assert!(zero > 5_000 && pruned > 10_000, "{zero} {pruned}");
    }

    #[test]
    fn may_meld_every_natural_reads_aces_at_both_ends() {
        // wild 10s; the ace of hearts at either end of a run (Q-K-A, A-2-3)
        let (ah, kh, qh, h2) = (13, 25, 24, 14);
        assert!(may_meld_every_natural(&[qh, kh, ah], 10));
        assert!(may_meld_every_natural(&[ah, h2, 15], 10));
        assert!(!may_meld_every_natural(&[qh, kh, ah, 0], 10)); // the ace of clubs alone
        assert!(may_meld_every_natural(&[qh, kh, ah, 0, 52], 10)); // A-A-joker
        assert!(!may_meld_every_natural(&[qh, kh, ah, 2, 52], 10)); // the 3 of clubs alone
        assert!(may_meld_every_natural(&[0, 52, 53], 10)); // two wilds partner anything
        assert!(!may_meld_every_natural(&[0, 13, 52, 30], 10));
    }
}
