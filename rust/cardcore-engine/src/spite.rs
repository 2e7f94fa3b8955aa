//! Spite & Malice turn planner: an exhaustive, deduplicated search of one building phase.
//!
//! The current player's turn is a deterministic puzzle as long as nothing new is revealed:
//! from the hand, the side stacks, the pay-off top and the centre stacks' effective ranks,
//! every sequence of centre plays is searched, and every reachable position is scored either
//! with a final discard (which ends the turn) or, when the sequence reveals hidden cards, as a
//! terminal "bonus" event: playing the pay-off top (the next pay-off card is turned up) or
//! emptying the hand (five new cards are drawn). The caller plays the returned sequence and
//! plans again after such an event.
//!
//! Encoding: a card is its rank value as `u8`: `1..=top` for naturals and [`WILD`] (0) for a
//! wild card (a king in the default rules, a joker with `wild_mode="jokers"`). Centre stacks
//! are effective ranks (`0` = empty slot). Side stacks are given top first.
//!
//! Moves: the rulebook's move rules ([`crate::games::spite_malice::moves`]: which card goes
//! where, what a play does to a centre stack, the discard rules) over the search's compact
//! position; the search keeps only its encoding, its order and its scores.
//!
//! Search: depth-first over plays with a transposition table keyed by the canonical position
//! (used hand slots, side depths, the *sorted* centre ranks, pay-off played). Every feature of
//! the score is a function of that position, so a position reached twice has the same subtree
//! and is skipped. Equal hand cards and centre stacks of equal rank are interchangeable, so
//! only the first of each is tried. The only heap allocations are the table and the result.

use std::collections::HashSet;

use thiserror::Error;

use crate::games::spite_malice::moves::{self, Build, DiscardRules, Position, SideTop, Source};
pub use crate::games::spite_malice::moves::{SideRule, WILD, builds_on};
use crate::hash::FastSet;

/// "No card" (an empty pay-off pile, a missing opponent).
pub const NO_CARD: u8 = 255;
/// Most hand cards the planner accepts.
pub const MAX_HAND: usize = 16;
/// Most side stacks per player.
pub const MAX_SIDES: usize = 8;
/// Most cards of one side stack looked at (from the top).
pub const MAX_SIDE_DEPTH: usize = 16;
/// Most centre slots.
pub const MAX_CENTER: usize = 12;
/// Most opponents (pay-off tops in turn order, the next player first).
pub const MAX_OPPONENTS: usize = 3;
/// Score added when the pay-off play empties the pay-off pile (the game is won).
pub const WIN_SCORE: f64 = 1.0e9;
/// Default node budget of one search.
pub const DEFAULT_NODE_LIMIT: u32 = 500_000;

/// Why a planner input is rejected.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum PlanError {
    /// A size beyond the fixed arrays.
    #[error("{what}: {got} exceeds the planner limit {limit}")]
    TooMany {
        /// Which input.
        what: &'static str,
        /// Its size.
        got: usize,
        /// The limit.
        limit: usize,
    },
    /// A card value outside `0..=top`.
    #[error("{what}: card value {value} is not 0 (wild) or 1..={top}")]
    BadCard {
        /// Which input.
        what: &'static str,
        /// The value.
        value: u8,
        /// The completing rank.
        top: u8,
    },
    /// A completing rank other than 12 or 13, or a centre rank that is not below it.
    #[error("bad rules: {0}")]
    BadRules(String),
    /// A weight vector of the wrong length or with a non-finite entry.
    #[error("weights: expected {expected} finite numbers, got {got}")]
    BadWeights {
        /// [`NUM_FEATURES`].
        expected: usize,
        /// The length given.
        got: usize,
    },
    /// An unknown built-in weight preset.
    #[error("unknown planner preset {0:?} (known: hard, plays, payoff)")]
    UnknownPreset(String),
}

/// Names of the score features, in weight-vector order.
pub const FEATURES: [&str; NUM_FEATURES] = [
    "payoff_played",
    "hand_emptied",
    "hand_played",
    "side_played",
    "wild_played",
    "next_open",
    "next_chain",
    "next_gap",
    "others_open",
    "own_gap",
    "flex",
    "discard_same",
    "discard_below",
    "discard_empty",
    "discard_bury",
    "discard_wild",
    "discard_rank",
    "empty_sides",
    "centre_sum",
    "side_ordered",
    "next_danger",
    "own_reach",
    "payoff_delay",
    "payoff_next_fit",
];
/// Number of score features.
pub const NUM_FEATURES: usize = 24;
/// Chance, in the `next_danger` feature, that the next player's unseen hand supplies one
/// missing rank.
pub const DANGER_BASE: f64 = 0.45;

/// Feature indices (see [`FEATURES`]).
pub mod feat {
    /// The pay-off top was played (terminal: the next card is turned up).
    pub const PAYOFF_PLAYED: usize = 0;
    /// The hand was emptied and is refilled (terminal).
    pub const HAND_EMPTIED: usize = 1;
    /// Cards played from the hand.
    pub const HAND_PLAYED: usize = 2;
    /// Cards played from side stacks.
    pub const SIDE_PLAYED: usize = 3;
    /// Wild cards played from the hand or side stacks.
    pub const WILD_PLAYED: usize = 4;
    /// The next player's pay-off top is playable on the final centre.
    pub const NEXT_OPEN: usize = 5;
    /// It becomes playable after the next player plays its visible side tops.
    pub const NEXT_CHAIN: usize = 6;
    /// How many ranks the closest centre stack is below the next player's pay-off (0..=top).
    pub const NEXT_GAP: usize = 7;
    /// Other opponents (after the next one) whose pay-off top is playable.
    pub const OTHERS_OPEN: usize = 8;
    /// How many ranks the closest centre stack is below the own pay-off top.
    pub const OWN_GAP: usize = 9;
    /// Own cards left (hand after the discard, side tops) playable on the final centre.
    pub const FLEX: usize = 10;
    /// The discard has the rank of the side top it covers.
    pub const DISCARD_SAME: usize = 11;
    /// The discard is one rank below the side top it covers.
    pub const DISCARD_BELOW: usize = 12;
    /// The discard goes to an empty side stack.
    pub const DISCARD_EMPTY: usize = 13;
    /// The discard covers a side top that is neither equal nor one above it.
    pub const DISCARD_BURY: usize = 14;
    /// The discard is a wild card.
    pub const DISCARD_WILD: usize = 15;
    /// Rank of the discard divided by the completing rank (wild = 1).
    pub const DISCARD_RANK: usize = 16;
    /// Empty side stacks after the discard.
    pub const EMPTY_SIDES: usize = 17;
    /// Sum of centre effective ranks divided by the completing rank.
    pub const CENTRE_SUM: usize = 18;
    /// Side stacks whose two top cards run downwards (top one lower or equal) after the discard.
    pub const SIDE_ORDERED: usize = 19;
    /// `max` over centre stacks below the next player's pay-off rank `q` of
    /// `DANGER_BASE^k`, `k` = ranks between the stack and `q` that its side tops (wild tops
    /// filling gaps) do not supply: a rough chance that it reaches its pay-off card.
    pub const NEXT_DANGER: usize = 20;
    /// The same measure for the own pay-off card with the cards kept after the discard (hand
    /// and side tops, wild ones filling gaps): how well the turn prepares the next one.
    pub const OWN_REACH: usize = 21;
    /// Plays made before the pay-off play (only in plans that play it): playing it first
    /// turns up the next pay-off card before the other plays are chosen.
    pub const PAYOFF_DELAY: usize = 22;
    /// In plans that play the pay-off card: the share of the `top + 1` card values (wild
    /// included) that would fit the final centre, i.e. the chance that the next pay-off card,
    /// turned up at once, is playable too.
    pub const PAYOFF_NEXT_FIT: usize = 23;
}

/// Built-in weight presets by name.
pub fn preset(name: &str) -> Result<[f64; NUM_FEATURES], PlanError> {
    let mut w = [0.0; NUM_FEATURES];
    match name {
        "hard" => {
            w[feat::PAYOFF_PLAYED] = 1000.0;
            w[feat::HAND_EMPTIED] = 25.0;
            w[feat::HAND_PLAYED] = 3.0;
            w[feat::SIDE_PLAYED] = 3.0;
            w[feat::WILD_PLAYED] = -9.0;
            w[feat::NEXT_OPEN] = -60.0;
            w[feat::NEXT_CHAIN] = -14.0;
            w[feat::NEXT_GAP] = 1.5;
            w[feat::OTHERS_OPEN] = -15.0;
            w[feat::OWN_GAP] = -2.0;
            w[feat::FLEX] = 1.0;
            w[feat::DISCARD_SAME] = 4.0;
            w[feat::DISCARD_BELOW] = 5.0;
            w[feat::DISCARD_EMPTY] = 1.0;
            w[feat::DISCARD_BURY] = -4.0;
            w[feat::DISCARD_WILD] = -30.0;
            w[feat::DISCARD_RANK] = 3.0;
            w[feat::EMPTY_SIDES] = 1.0;
            w[feat::CENTRE_SUM] = 0.0;
            w[feat::SIDE_ORDERED] = 1.0;
            w[feat::NEXT_DANGER] = -25.0;
            w[feat::OWN_REACH] = 0.0;
            w[feat::PAYOFF_DELAY] = -2.0;
            w[feat::PAYOFF_NEXT_FIT] = 20.0;
        }
        "plays" => {
            w[feat::PAYOFF_PLAYED] = 1000.0;
            w[feat::HAND_EMPTIED] = 10.0;
            w[feat::HAND_PLAYED] = 1.0;
            w[feat::SIDE_PLAYED] = 1.0;
        }
        "payoff" => {
            w[feat::PAYOFF_PLAYED] = 1000.0;
            w[feat::OWN_GAP] = -1.0;
        }
        other => return Err(PlanError::UnknownPreset(other.to_owned())),
    }
    Ok(w)
}

/// One step of a plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Step {
    /// Play the pay-off top to centre slot `.0`.
    PayOff(u8),
    /// Play the top of side stack `.0` to centre slot `.1`.
    Side(u8, u8),
    /// Play hand card number `.0` (input order) to centre slot `.1`.
    Hand(u8, u8),
    /// Put hand card `.0` on side stack `.1`, ending the turn.
    Discard(u8, u8),
    /// Placeholder of the fixed path arrays.
    #[default]
    None,
}

/// The position to plan from, in fixed arrays.
#[derive(Clone, Debug)]
pub struct PlanInput {
    hand: [u8; MAX_HAND],
    hand_len: usize,
    sides: [[u8; MAX_SIDE_DEPTH]; MAX_SIDES],
    side_known: [u8; MAX_SIDES],
    side_len: [u16; MAX_SIDES],
    num_sides: usize,
    payoff: u8,
    payoff_left: u32,
    center: [u8; MAX_CENTER],
    num_center: usize,
    opp_payoffs: [u8; MAX_OPPONENTS],
    next_sides: [u8; MAX_SIDES],
    num_next_sides: usize,
    top: u8,
    wild_start: bool,
    refill: bool,
    side_rule: SideRule,
    must_play_aces: bool,
}

/// Rules that shape the search.
#[derive(Clone, Copy, Debug)]
pub struct PlanRules {
    /// Completing rank: 12 with wild kings, 13 with jokers.
    pub top: u8,
    /// A wild card may start an empty stack.
    pub wild_start: bool,
    /// An emptied hand is refilled mid-turn (else the turn ends at once).
    pub refill_empty_hand: bool,
    /// Discard restriction.
    pub side_rule: SideRule,
    /// Discarding is illegal while an ace can be played.
    pub must_play_aces: bool,
}

impl PlanInput {
    /// Validates and packs a position.
    ///
    /// `sides[i]` lists side stack `i` from the top down (only the first [`MAX_SIDE_DEPTH`]
    /// cards are used) and `side_lens[i]` is its real size. `opp_payoffs` are the
    /// opponents' pay-off tops in turn order ([`NO_CARD`] for none); `next_side_tops` are the
    /// next player's side tops.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        hand: &[u8],
        sides: &[&[u8]],
        side_lens: &[usize],
        payoff: u8,
        payoff_left: u32,
        center: &[u8],
        opp_payoffs: &[u8],
        next_side_tops: &[u8],
        rules: PlanRules,
    ) -> Result<Self, PlanError> {
        let top = rules.top;
        if top != 12 && top != 13 {
            return Err(PlanError::BadRules(format!(
                "completing rank {top} is not 12 or 13"
            )));
        }
        let limit = |what, got, limit| {
            if got > limit {
                Err(PlanError::TooMany { what, got, limit })
            } else {
                Ok(())
            }
        };
        limit("hand", hand.len(), MAX_HAND)?;
        limit("side stacks", sides.len(), MAX_SIDES)?;
        limit("centre slots", center.len(), MAX_CENTER)?;
        limit("opponents", opp_payoffs.len(), MAX_OPPONENTS)?;
        limit("next side tops", next_side_tops.len(), MAX_SIDES)?;
        if side_lens.len() != sides.len() {
            return Err(PlanError::BadRules(
                "side_lens and sides differ in length".into(),
            ));
        }
        let card_ok = |what: &'static str, v: u8, none_ok: bool| {
            if v <= top || (none_ok && v == NO_CARD) {
                Ok(())
            } else {
                Err(PlanError::BadCard {
                    what,
                    value: v,
                    top,
                })
            }
        };
        let mut inp = Self {
            hand: [0; MAX_HAND],
            hand_len: hand.len(),
            sides: [[0; MAX_SIDE_DEPTH]; MAX_SIDES],
            side_known: [0; MAX_SIDES],
            side_len: [0; MAX_SIDES],
            num_sides: sides.len(),
            payoff,
            payoff_left,
            center: [0; MAX_CENTER],
            num_center: center.len(),
            opp_payoffs: [NO_CARD; MAX_OPPONENTS],
            next_sides: [0; MAX_SIDES],
            num_next_sides: next_side_tops.len(),
            top,
            wild_start: rules.wild_start,
            refill: rules.refill_empty_hand,
            side_rule: rules.side_rule,
            must_play_aces: rules.must_play_aces,
        };
        for (i, &v) in hand.iter().enumerate() {
            card_ok("hand", v, false)?;
            inp.hand[i] = v;
        }
        for (i, (s, &len)) in sides.iter().zip(side_lens).enumerate() {
            let known = s.len().min(MAX_SIDE_DEPTH);
            if len < known {
                return Err(PlanError::BadRules(format!(
                    "side stack {i}: size below cards"
                )));
            }
            for (j, &v) in s.iter().take(known).enumerate() {
                card_ok("side stack", v, false)?;
                inp.sides[i][j] = v;
            }
            inp.side_known[i] = u8::try_from(known).unwrap_or(u8::MAX);
            inp.side_len[i] = u16::try_from(len).unwrap_or(u16::MAX);
        }
        card_ok("pay-off", payoff, true)?;
        if payoff == NO_CARD {
            inp.payoff_left = 0;
        } else if payoff_left == 0 {
            inp.payoff_left = 1;
        }
        for (i, &e) in center.iter().enumerate() {
            if e >= top {
                return Err(PlanError::BadRules(format!(
                    "centre rank {e} is not below {top}"
                )));
            }
            inp.center[i] = e;
        }
        for (i, &v) in opp_payoffs.iter().enumerate() {
            card_ok("opponent pay-off", v, true)?;
            inp.opp_payoffs[i] = v;
        }
        for (i, &v) in next_side_tops.iter().enumerate() {
            card_ok("next side tops", v, false)?;
            inp.next_sides[i] = v;
        }
        Ok(inp)
    }
}

/// The best plan found.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// Its score (`-inf` when there is no legal end of turn, e.g. an empty hand).
    pub score: f64,
    /// The steps, the last one a discard unless the plan ends on a terminal event.
    pub steps: Vec<Step>,
    /// Positions expanded.
    pub nodes: u32,
    /// False when the node budget stopped the search early.
    pub complete: bool,
}

/// True when a card of value `v` may go on a centre stack of effective rank `e` below the
/// completing rank `top`: the rulebook's [`Build::fits`].
#[inline]
#[must_use]
pub const fn can_play(v: u8, e: u8, top: u8, wild_start: bool) -> bool {
    Build { top, wild_start }.fits(v, e)
}

#[derive(Clone, Copy)]
struct Pos {
    used: u16,
    depth: [u8; MAX_SIDES],
    center: [u8; MAX_CENTER],
    payoff_played: bool,
}

impl Pos {
    /// The position at the start of the turn: nothing played yet.
    fn root(inp: &PlanInput) -> Pos {
        Pos {
            used: 0,
            depth: [0; MAX_SIDES],
            center: inp.center,
            payoff_played: false,
        }
    }
}

/// A search position as the rulebook's move rules read it ([`moves::Position`]): the first
/// unused hand card of each value and the first centre slot of each rank (the others are the
/// same moves), a side top the input does not show as [`SideTop::Unknown`].
struct View<'a> {
    inp: &'a PlanInput,
    p: &'a Pos,
    /// The first slot of each rank ([`View::distinct_slots`]).
    slots: &'a [(usize, u8)],
}

impl View<'_> {
    /// The first centre slot of each effective rank of `p`, as `(slot, rank)`, into `out`;
    /// returns how many.
    #[inline(always)]
    fn distinct_slots(inp: &PlanInput, p: &Pos, out: &mut [(usize, u8); MAX_CENTER]) -> usize {
        let mut seen: u32 = 0;
        let mut n = 0;
        for (c, &e) in p.center[..inp.num_center].iter().enumerate() {
            if seen & (1 << e) == 0 {
                seen |= 1 << e;
                out[n] = (c, e);
                n += 1;
            }
        }
        n
    }
}

impl Position for View<'_> {
    #[inline(always)]
    fn slots(&self) -> impl Iterator<Item = (usize, u8)> {
        self.slots.iter().copied()
    }

    #[inline(always)]
    fn payoff_top(&self) -> Option<u8> {
        (!self.p.payoff_played && self.inp.payoff != NO_CARD).then_some(self.inp.payoff)
    }

    #[inline(always)]
    fn side_stacks(&self) -> usize {
        self.inp.num_sides
    }

    #[inline(always)]
    fn side_top(&self, k: usize) -> SideTop {
        let d = self.p.depth[k];
        if u16::from(d) >= self.inp.side_len[k] {
            SideTop::Empty
        } else if d < self.inp.side_known[k] {
            SideTop::Card(self.inp.sides[k][usize::from(d)])
        } else {
            SideTop::Unknown
        }
    }

    #[inline(always)]
    fn hand(&self) -> impl Iterator<Item = (usize, u8)> {
        let (inp, used) = (self.inp, self.p.used);
        let mut tried: u32 = 0;
        (0..inp.hand_len).filter_map(move |i| {
            let v = inp.hand[i];
            if used & (1 << i) != 0 || tried & (1 << v) != 0 {
                return None;
            }
            tried |= 1 << v;
            Some((i, v))
        })
    }
}

type Key = [u8; 2 + MAX_SIDES + MAX_CENTER + 1];

const MAX_PATH: usize = MAX_HAND + MAX_SIDES * MAX_SIDE_DEPTH + 2;

struct Search<'a> {
    inp: &'a PlanInput,
    build: Build,
    discard: DiscardRules,
    w: &'a [f64; NUM_FEATURES],
    seen: FastSet<Key>,
    path: [Step; MAX_PATH],
    path_len: usize,
    best: [Step; MAX_PATH],
    best_len: usize,
    best_score: f64,
    nodes: u32,
    node_limit: u32,
    complete: bool,
    /// With `top_k > 0`, the best `top_k` plans, best first (ties: first found first).
    top_k: usize,
    tops: Vec<(f64, Vec<Step>)>,
}

impl<'a> Search<'a> {
    /// A search from `inp` scored by `w`, stopping after `node_limit` nodes (at least one),
    /// keeping the best `top_k` plans when `top_k > 0`.
    fn new(inp: &'a PlanInput, w: &'a [f64; NUM_FEATURES], node_limit: u32, top_k: usize) -> Self {
        Search {
            inp,
            build: Build {
                top: inp.top,
                wild_start: inp.wild_start,
            },
            discard: DiscardRules {
                side_rule: inp.side_rule,
                must_play_aces: inp.must_play_aces,
            },
            w,
            seen: HashSet::default(),
            path: [Step::None; MAX_PATH],
            path_len: 0,
            best: [Step::None; MAX_PATH],
            best_len: 0,
            best_score: f64::NEG_INFINITY,
            nodes: 0,
            node_limit: node_limit.max(1),
            complete: true,
            top_k,
            tops: Vec::new(),
        }
    }

    fn key(&self, p: &Pos) -> Key {
        let mut k: Key = [0; 2 + MAX_SIDES + MAX_CENTER + 1];
        k[..2].copy_from_slice(&p.used.to_le_bytes());
        k[2..2 + MAX_SIDES].copy_from_slice(&p.depth);
        let mut c = p.center;
        c[..self.inp.num_center].sort_unstable();
        k[2 + MAX_SIDES..2 + MAX_SIDES + MAX_CENTER].copy_from_slice(&c);
        k[2 + MAX_SIDES + MAX_CENTER] = u8::from(p.payoff_played);
        k
    }

    #[inline]
    fn side_top(&self, p: &Pos, s: usize) -> Option<u8> {
        let d = usize::from(p.depth[s]);
        (d < usize::from(self.inp.side_known[s])).then(|| self.inp.sides[s][d])
    }

    #[inline]
    fn side_empty(&self, p: &Pos, s: usize) -> bool {
        usize::from(p.depth[s]) >= usize::from(self.inp.side_len[s])
    }

    fn gap(&self, center: &[u8], v: u8) -> f64 {
        let top = self.inp.top;
        if v == WILD {
            return if center
                .iter()
                .any(|&e| can_play(WILD, e, top, self.inp.wild_start))
            {
                0.0
            } else {
                f64::from(top)
            };
        }
        center
            .iter()
            .filter(|&&e| e < v)
            .map(|&e| f64::from(v - 1 - e))
            .fold(f64::from(top), f64::min)
    }

    fn open(&self, center: &[u8], v: u8) -> bool {
        v != NO_CARD
            && center
                .iter()
                .any(|&e| can_play(v, e, self.inp.top, self.inp.wild_start))
    }

    /// Can the next player bring some stack to `q - 1` with its side tops (wild ones fill gaps)?
    fn chain(&self, center: &[u8], q: u8) -> bool {
        if q == NO_CARD || q == WILD {
            return false;
        }
        let tops = &self.inp.next_sides[..self.inp.num_next_sides];
        let wilds = tops.iter().filter(|&&t| t == WILD).count();
        center.iter().any(|&e| {
            if e >= q {
                return false;
            }
            let mut missing = 0;
            for r in (e + 1)..q {
                if !tops.contains(&r) {
                    missing += 1;
                }
            }
            missing <= wilds
        })
    }

    /// See [`feat::NEXT_DANGER`].
    fn danger(&self, center: &[u8], q: u8) -> f64 {
        if q == NO_CARD || q == WILD {
            return 0.0;
        }
        let tops = &self.inp.next_sides[..self.inp.num_next_sides];
        let wilds = tops.iter().filter(|&&t| t == WILD).count();
        let mut safe: f64 = 1.0;
        let mut seen: u32 = 0;
        for &e in center {
            if e >= q || seen & (1 << e) != 0 {
                continue;
            }
            seen |= 1 << e;
            let missing = ((e + 1)..q).filter(|r| !tops.contains(r)).count();
            let k = i32::try_from(missing.saturating_sub(wilds)).unwrap_or(i32::MAX);
            safe *= 1.0 - DANGER_BASE.powi(k);
        }
        1.0 - safe
    }

    /// See [`feat::OWN_REACH`].
    fn own_reach(&self, p: &Pos, card: usize, side: usize) -> f64 {
        let inp = self.inp;
        let q = inp.payoff;
        if q == WILD {
            return 1.0;
        }
        let mut have: u32 = 0;
        let mut wilds = 0usize;
        let mut add = |v: u8| {
            if v == WILD {
                wilds += 1;
            } else {
                have |= 1 << v;
            }
        };
        for i in 0..inp.hand_len {
            if i != card && p.used & (1 << i) == 0 {
                add(inp.hand[i]);
            }
        }
        for sd in 0..inp.num_sides {
            if sd == side {
                add(inp.hand[card]);
            } else if let Some(t) = self.side_top(p, sd) {
                add(t);
            }
        }
        let mut best: f64 = 0.0;
        for &e in &p.center[..inp.num_center] {
            if e >= q {
                continue;
            }
            let missing = ((e + 1)..q).filter(|&r| have & (1 << r) == 0).count();
            let k = i32::try_from(missing.saturating_sub(wilds)).unwrap_or(i32::MAX);
            best = best.max(DANGER_BASE.powi(k));
        }
        best
    }

    /// Score of a position without its discard part.
    fn position_score(&self, p: &Pos) -> f64 {
        let inp = self.inp;
        let w = self.w;
        let center = &p.center[..inp.num_center];
        let mut s = 0.0;
        let mut hand_played = 0u32;
        let mut wild_played = 0u32;
        for i in 0..inp.hand_len {
            if p.used & (1 << i) != 0 {
                hand_played += 1;
                wild_played += u32::from(inp.hand[i] == WILD);
            }
        }
        let mut side_played = 0u32;
        for sd in 0..inp.num_sides {
            for j in 0..usize::from(p.depth[sd]) {
                side_played += 1;
                wild_played += u32::from(inp.sides[sd][j] == WILD);
            }
        }
        if p.payoff_played {
            s += w[feat::PAYOFF_PLAYED];
            s += w[feat::PAYOFF_DELAY] * f64::from(hand_played + side_played);
            let fit = (0..=inp.top)
                .filter(|&v| {
                    center
                        .iter()
                        .any(|&e| can_play(v, e, inp.top, inp.wild_start))
                })
                .count();
            let share = fit as f64 / f64::from(inp.top + 1);
            s += w[feat::PAYOFF_NEXT_FIT] * share;
            if inp.payoff_left == 1 {
                s += WIN_SCORE;
            }
        }
        if !p.payoff_played {
            // A pay-off play ends the plan (the caller plans again with the new pay-off top),
            // so the plays before it are only a path: they are not rewarded for themselves.
            s += w[feat::HAND_PLAYED] * f64::from(hand_played);
            s += w[feat::SIDE_PLAYED] * f64::from(side_played);
        }
        s += w[feat::WILD_PLAYED] * f64::from(wild_played);
        let next = inp.opp_payoffs[0];
        if next != NO_CARD {
            let open = self.open(center, next);
            if open {
                s += w[feat::NEXT_OPEN];
            } else if self.chain(center, next) {
                s += w[feat::NEXT_CHAIN];
            }
            s += w[feat::NEXT_GAP] * self.gap(center, next);
            s += w[feat::NEXT_DANGER] * self.danger(center, next);
        }
        let others = inp.opp_payoffs[1..]
            .iter()
            .filter(|&&q| self.open(center, q))
            .count();
        s += w[feat::OTHERS_OPEN] * others as f64;
        if !p.payoff_played && inp.payoff != NO_CARD {
            s += w[feat::OWN_GAP] * self.gap(center, inp.payoff);
        }
        let csum: u32 = center.iter().map(|&e| u32::from(e)).sum();
        s += w[feat::CENTRE_SUM] * f64::from(csum) / f64::from(inp.top);
        s
    }

    /// Side-dependent part shared by discard leaves: flex over side tops, empty and ordered sides.
    fn discard_score(&self, p: &Pos, card: usize, side: usize) -> f64 {
        let inp = self.inp;
        let w = self.w;
        let center = &p.center[..inp.num_center];
        let v = inp.hand[card];
        let top = inp.top;
        let mut s = 0.0;
        let covered = self.side_top(p, side);
        let empty = self.side_empty(p, side);
        if empty {
            s += w[feat::DISCARD_EMPTY];
        } else {
            match covered {
                Some(t) if t == v && v != WILD => s += w[feat::DISCARD_SAME],
                Some(t) if t != WILD && v != WILD && t == v + 1 => s += w[feat::DISCARD_BELOW],
                _ => s += w[feat::DISCARD_BURY],
            }
        }
        if v == WILD {
            s += w[feat::DISCARD_WILD];
            s += w[feat::DISCARD_RANK];
        } else {
            s += w[feat::DISCARD_RANK] * f64::from(v) / f64::from(top);
        }
        // Flexibility: remaining hand cards and side tops (after the discard) playable now.
        let playable = |x: u8| center.iter().any(|&e| can_play(x, e, top, inp.wild_start));
        let mut flex = 0u32;
        for i in 0..inp.hand_len {
            if i != card && p.used & (1 << i) == 0 && playable(inp.hand[i]) {
                flex += 1;
            }
        }
        let mut empties = 0u32;
        let mut ordered = 0u32;
        for sd in 0..inp.num_sides {
            let (t, under) = if sd == side {
                (Some(v), if empty { None } else { covered })
            } else {
                if self.side_empty(p, sd) {
                    empties += 1;
                    continue;
                }
                let d = usize::from(p.depth[sd]);
                let under = if d + 1 < usize::from(inp.side_known[sd]) {
                    Some(inp.sides[sd][d + 1])
                } else {
                    None
                };
                (self.side_top(p, sd), under)
            };
            if let Some(t) = t {
                if playable(t) {
                    flex += 1;
                }
                if let Some(u) = under
                    && t != WILD
                    && u != WILD
                    && (u == t || u == t + 1)
                {
                    ordered += 1;
                }
            }
        }
        if w[feat::OWN_REACH] != 0.0 && !p.payoff_played && inp.payoff != NO_CARD {
            s += w[feat::OWN_REACH] * self.own_reach(p, card, side);
        }
        s += w[feat::FLEX] * f64::from(flex);
        s += w[feat::EMPTY_SIDES] * f64::from(empties);
        s += w[feat::SIDE_ORDERED] * f64::from(ordered);
        s
    }

    fn record(&mut self, score: f64, last: Step) {
        if self.top_k > 0 && (self.tops.len() < self.top_k || score > self.tops[self.top_k - 1].0) {
            let mut steps = self.path[..self.path_len].to_vec();
            if last != Step::None {
                steps.push(last);
            }
            let at = self.tops.partition_point(|t| t.0 >= score);
            self.tops.insert(at, (score, steps));
            self.tops.truncate(self.top_k);
        }
        if score > self.best_score {
            self.best_score = score;
            self.best[..self.path_len].copy_from_slice(&self.path[..self.path_len]);
            let mut n = self.path_len;
            if last != Step::None {
                self.best[n] = last;
                n += 1;
            }
            self.best_len = n;
        }
    }

    fn leaf(&mut self, view: &View<'_>) {
        let (inp, p) = (self.inp, view.p);
        let base = self.position_score(p);
        if p.payoff_played {
            self.record(base, Step::None);
            return;
        }
        let hand_left = (0..inp.hand_len)
            .filter(|&i| p.used & (1 << i) == 0)
            .count();
        if hand_left == 0 {
            if inp.hand_len > 0 {
                let bonus = if inp.refill {
                    self.w[feat::HAND_EMPTIED]
                } else {
                    0.0
                };
                self.record(base + bonus, Step::None);
            }
            return;
        }
        // the rulebook's discards (equal cards discard alike: the first of each value)
        moves::discards(view, self.discard, |i, sd| {
            let s = base + self.discard_score(p, i, sd);
            self.record(s, Step::Discard(i as u8, sd as u8));
        });
    }

    /// The position after a play to slot `c` (the rulebook's [`Build::after_play`]).
    fn play(&self, p: &Pos, c: usize) -> Pos {
        let mut q = *p;
        q.center[c] = self.build.after_play(q.center[c]);
        q
    }

    fn push(&mut self, step: Step, q: &Pos) {
        self.path[self.path_len] = step;
        self.path_len += 1;
        self.visit(q);
        self.path_len -= 1;
    }

    fn visit(&mut self, p: &Pos) {
        if self.nodes >= self.node_limit {
            self.complete = false;
            return;
        }
        if !self.seen.insert(self.key(p)) {
            return;
        }
        self.nodes += 1;
        let inp = self.inp;
        let mut slots = [(0, 0); MAX_CENTER];
        let n = View::distinct_slots(inp, p, &mut slots);
        let view = View {
            inp,
            p,
            slots: &slots[..n],
        };
        self.leaf(&view);
        if p.payoff_played {
            return;
        }
        let hand_left = (0..inp.hand_len).any(|i| p.used & (1 << i) == 0);
        if !hand_left && inp.hand_len > 0 {
            return;
        }
        // the rulebook's plays (equal cards and stacks of equal rank: the first of each)
        moves::plays(&view, self.build, |src, c| {
            let mut q = self.play(p, c);
            let step = match src {
                Source::PayOff => {
                    q.payoff_played = true;
                    Step::PayOff(c as u8)
                }
                Source::Side(sd) => {
                    q.depth[sd] += 1;
                    Step::Side(sd as u8, c as u8)
                }
                Source::Hand(i) => {
                    q.used |= 1 << i;
                    Step::Hand(i as u8, c as u8)
                }
            };
            self.push(step, &q);
        });
    }
}

/// Searches every building sequence from `inp` and returns the best plan under `weights`.
pub fn plan(inp: &PlanInput, weights: &[f64; NUM_FEATURES], node_limit: u32) -> Plan {
    search(inp, weights, node_limit, 0).0
}

/// The best `k` plans (distinct end positions of the turn), best first; the first is
/// [`plan`]'s. Empty when there is no legal end of turn.
pub fn plan_top(
    inp: &PlanInput,
    weights: &[f64; NUM_FEATURES],
    node_limit: u32,
    k: usize,
) -> Vec<Plan> {
    let (best, tops) = search(inp, weights, node_limit, k.max(1));
    tops.into_iter()
        .map(|(score, steps)| Plan {
            score,
            steps,
            nodes: best.nodes,
            complete: best.complete,
        })
        .collect()
}

fn search(
    inp: &PlanInput,
    weights: &[f64; NUM_FEATURES],
    node_limit: u32,
    top_k: usize,
) -> (Plan, Vec<(f64, Vec<Step>)>) {
    let mut s = Search::new(inp, weights, node_limit, top_k);
    let root = Pos::root(inp);
    s.visit(&root);
    let best = Plan {
        score: s.best_score,
        steps: s.best[..s.best_len].to_vec(),
        nodes: s.nodes,
        complete: s.complete,
    };
    (best, s.tops)
}

/// Checks a weight vector.
pub fn check_weights(w: &[f64]) -> Result<[f64; NUM_FEATURES], PlanError> {
    if w.len() != NUM_FEATURES || w.iter().any(|x| !x.is_finite()) {
        return Err(PlanError::BadWeights {
            expected: NUM_FEATURES,
            got: w.len(),
        });
    }
    let mut out = [0.0; NUM_FEATURES];
    out.copy_from_slice(w);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::rng::CardRng;
    use crate::spite_actions::{Action, ActionLayout, Discards};

    /// A move in a common encoding: plays as (source, value or stack, centre effective rank),
    /// source 0 the pay-off, 1 a side stack (its index), 2 a hand value; discards as (3, value,
    /// side stack).
    type Move = (u8, u8, u8);

    /// The planner's moves from the root, as `Search::visit` and `Search::leaf` take them from
    /// the rulebook's move rules over the search's view of the position.
    fn planner_moves(inp: &PlanInput) -> BTreeSet<Move> {
        let w = [0.0; NUM_FEATURES];
        let s = Search::new(inp, &w, 1, 0);
        let p = Pos::root(inp);
        let mut slots = [(0, 0); MAX_CENTER];
        let n = View::distinct_slots(inp, &p, &mut slots);
        let view = View {
            inp,
            p: &p,
            slots: &slots[..n],
        };
        let mut out = BTreeSet::new();
        moves::plays(&view, s.build, |src, c| {
            let e = p.center[c];
            out.insert(match src {
                Source::PayOff => (0, 0, e),
                Source::Side(sd) => (1, sd as u8, e),
                Source::Hand(i) => (2, inp.hand[i], e),
            });
        });
        if inp.hand_len > 0 {
            moves::discards(&view, s.discard, |i, sd| {
                out.insert((3, inp.hand[i], sd as u8));
            });
        }
        out
    }

    /// The same position's legal action ids (`spite_actions`, cards numbered by their value),
    /// decoded into the common encoding.
    #[allow(clippy::too_many_arguments)]
    fn action_moves(
        hand: &[u8],
        sides: &[Vec<u8>],
        payoff: u8,
        center: &[u8],
        rules: PlanRules,
    ) -> BTreeSet<Move> {
        let values: Vec<u16> = (0..=u16::from(rules.top)).collect();
        let ranks: Vec<u8> = (0..=rules.top).collect();
        let layout =
            ActionLayout::new(center.len(), sides.len(), values, ranks, rules.wild_start).unwrap();
        let sizes: Vec<usize> = center.iter().map(|&e| usize::from(e)).collect();
        let tops: Vec<Option<usize>> = sides
            .iter()
            .map(|s| s.first().map(|&v| usize::from(v)))
            .collect();
        let hand: Vec<usize> = hand.iter().map(|&v| usize::from(v)).collect();
        let payoff = (payoff != NO_CARD).then_some(usize::from(payoff));
        let mut ids = Vec::new();
        let discards = Discards::of(rules.side_rule, rules.must_play_aces);
        layout
            .legal(&sizes, payoff, &tops, &hand, discards, &mut ids)
            .unwrap();
        let byte = |x: usize| u8::try_from(x).unwrap();
        ids.iter()
            .map(|&id| match layout.decode(id).unwrap() {
                Action::PayOff { center: c } => (0, 0, center[c]),
                Action::Side { side, center: c } => (1, byte(side), center[c]),
                Action::Hand { face, center: c } => (2, byte(usize::from(face)), center[c]),
                Action::Discard { face, side } => (3, byte(usize::from(face)), byte(side)),
            })
            .collect()
    }

    /// The planner and the legal action ids agree on every move of random positions under
    /// every rule combination (one rule set, the rulebook's `moves`, over two encodings of a
    /// position: the search's, which leaves out equal cards and stacks, and the ids').
    #[test]
    fn planner_moves_match_legal_action_ids() {
        fn below(rng: &mut CardRng, n: u8) -> u8 {
            u8::try_from(rng.below(u64::from(n))).unwrap()
        }
        /// Low values are common, so that aces, wilds, fits and equal cards are.
        fn value(rng: &mut CardRng, top: u8) -> u8 {
            if below(rng, 4) == 0 {
                below(rng, 3)
            } else {
                below(rng, top + 1)
            }
        }
        let rng = &mut CardRng::new(2026);
        let rules_all = [SideRule::Any, SideRule::SameOrOneLower, SideRule::NoAces];
        let mut discards = 0;
        for case in 0..20_000 {
            let top = if below(rng, 2) == 0 { 12 } else { 13 };
            let rules = PlanRules {
                top,
                wild_start: below(rng, 2) == 0,
                refill_empty_hand: true,
                side_rule: rules_all[usize::from(below(rng, 3))],
                must_play_aces: below(rng, 2) == 0,
            };
            let hand: Vec<u8> = (0..below(rng, 7)).map(|_| value(rng, top)).collect();
            let sides: Vec<Vec<u8>> = (0..1 + below(rng, 4))
                .map(|_| (0..below(rng, 3)).map(|_| value(rng, top)).collect())
                .collect();
            let payoff = if below(rng, 5) == 0 {
                NO_CARD
            } else {
                value(rng, top)
            };
            let center: Vec<u8> = (0..1 + below(rng, 6))
                .map(|_| {
                    if below(rng, 2) == 0 {
                        0
                    } else {
                        below(rng, top)
                    }
                })
                .collect();
            let side_refs: Vec<&[u8]> = sides.iter().map(Vec::as_slice).collect();
            let side_lens: Vec<usize> = sides.iter().map(Vec::len).collect();
            let inp = PlanInput::new(
                &hand,
                &side_refs,
                &side_lens,
                payoff,
                5,
                &center,
                &[],
                &[],
                rules,
            )
            .unwrap();
            let want = action_moves(&hand, &sides, payoff, &center, rules);
            assert_eq!(
                planner_moves(&inp),
                want,
                "case {case}: hand {hand:?} sides {sides:?} payoff {payoff} centre {center:?} \
                 rules {rules:?}"
            );
            discards += want.iter().filter(|m| m.0 == 3).count();
        }
        assert!(discards > 10_000);
    }
}
