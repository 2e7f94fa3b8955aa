//! Nerts: the one rulebook of a real-time round (`cardcore rules nerts`): every seat's layout
//! and the shared foundations ([`Table`]: legality, moves, undo, stalemate remedies, scoring),
//! the discrete-event clock that orders the seats' moves ([`Round`]: submitted moves, the
//! agents' thinking, failures and retries, stalemates, the caps and the event log), and the
//! round as a [`crate::games::RealtimeState`] ([`State`]).
//!
//! A round is a pure function of `(rules, seed, agents, submitted moves)`: seat `s` is dealt
//! the permutation `s` of the `"deck"` stream, its delays and misses draw from its own
//! `"timing"` stream, its agent from its `"agent"` stream, and every scheduled event draws one
//! tie-break from the `"tiebreak"` stream (index 0), in the order the events happen.
//!
//! Cards are physical ids (`seat * 52 + face`: each seat plays its own deck). Moves are the
//! packed codes of [`moves`] (`[kind, src, depth, dst]` little-endian) plus [`K_UNDO`].

pub mod moves;
mod piles;
mod round;
mod state;
mod table;
#[cfg(test)]
mod tests;

pub use piles::{Cycle, MAX_SEATS, Needs, Pile, Seats, WORK_CARDS, WorkPiles};
pub use round::{Humans, Input, LogRow, Pending, Policy, Round};
pub use state::{Mixed, State, action_code, action_of_code, num_actions, observation_size};
pub use table::{DeckPile, Layout, Table, UndoRecord, deal_deck};

pub use moves::{
    F_FILL_ANY, F_PARTIAL, F_RECYCLE, F_RUNNING, K_CALL, K_FLIP, K_FOUNDATION, K_RECYCLE, K_WORK,
    MAX_WORK, NONE, SRC_NERTS, SRC_WASTE, builds_down, builds_on_foundation, fits_foundations,
    fits_masks, pack,
};

use crate::games::GameInfo;

/// The registry entry of Nerts.
pub const INFO: GameInfo = GameInfo {
    name: "nerts",
    min_players: 2,
    max_players: 4,
};

/// Packed code of `Undo` (kind 5).
pub const K_UNDO: u8 = 5;
/// The code of `Undo`.
pub const UNDO: u32 = K_UNDO as u32;
/// The code of `CallNerts`.
pub const CALL: u32 = K_CALL as u32;
/// A round still running after one simulated hour ends with `end = "cap"`.
pub const MAX_ROUND_MS: i64 = 3_600_000;
/// A round that executed this many events ends with `end = "cap"`.
pub const MAX_EVENTS: u64 = 200_000;

/// The kind byte of a move code.
#[inline]
#[must_use]
pub const fn kind(mv: u32) -> u8 {
    (mv & 255) as u8
}

/// The source byte of a move code.
#[inline]
#[must_use]
pub const fn src(mv: u32) -> u8 {
    (mv >> 8 & 255) as u8
}

/// The depth byte of a move code.
#[inline]
#[must_use]
pub const fn depth(mv: u32) -> u8 {
    (mv >> 16 & 255) as u8
}

/// The target byte of a move code.
#[inline]
#[must_use]
pub const fn dst(mv: u32) -> u8 {
    (mv >> 24) as u8
}

/// The scoring rule, once: a seat's round points from its cards on the foundations and those
/// left in its Nerts pile (`points` per foundation card, less `penalty` per Nerts card, plus
/// `bonus` when it `called` Nerts). The table's scores and the rollouts' values use it.
#[inline]
#[must_use]
pub const fn seat_points(
    on_foundations: i32,
    nerts_left: i32,
    called: bool,
    points: i32,
    penalty: i32,
    bonus: i32,
) -> i32 {
    points * on_foundations - penalty * nerts_left + if called { bonus } else { 0 }
}

/// What a global stalemate does (`stalemate_rule`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StalemateRule {
    /// Waste back to stock, the top stock card to the bottom.
    RotateOne,
    /// Waste back to stock, one card per flip from now on.
    FlipOne,
    /// The round ends.
    EndRound,
}

impl StalemateRule {
    /// The option's value.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::RotateOne => "rotate_one",
            Self::FlipOne => "flip_one",
            Self::EndRound => "end_round",
        }
    }
}

/// The options of a round (validated by the Python `Options`) and its speed profile.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rules {
    /// Work piles per seat.
    pub num_work: u8,
    /// Cards per flip (`flip_count`).
    pub flip_count: u8,
    /// `stock_passes` (`None` = unlimited).
    pub stock_passes: Option<u32>,
    /// `allow_partial_pile_moves`.
    pub partial: bool,
    /// `empty_work_pile_fill == "any"`.
    pub fill_any: bool,
    /// `auto_call_nerts`.
    pub auto_call: bool,
    /// Points per own card on a foundation.
    pub foundation_points: i32,
    /// Points lost per card left in the Nerts pile.
    pub nerts_penalty: i32,
    /// Points for the caller.
    pub nerts_bonus: i32,
    /// `stalemate_rule`.
    pub stalemate_rule: StalemateRule,
    /// `max_consecutive_stalemates`.
    pub max_stalemates: u32,
    /// `undo_depth` (0: no undo log is kept).
    pub undo_depth: usize,
    /// Median delays per class: play, build, segment, flip/recycle, call (whole ms).
    pub medians: [i64; 5],
    /// Log-normal sigma.
    pub sigma: f64,
    /// Probability of overlooking a chosen foundation play.
    pub miss: f64,
    /// Smallest delay.
    pub min_ms: i64,
    /// Largest delay.
    pub max_ms: i64,
    /// Wait before re-planning (`m_play // 2`).
    pub retry_ms: i64,
    /// Cards in each Nerts pile.
    pub nerts_pile: u8,
}

impl Rules {
    /// Whether the options can be dealt and played: 1..=5 work piles, a Nerts pile and the
    /// work piles within the 52 cards, 1 or 3 cards per flip, delays in order.
    #[must_use]
    pub fn check(&self) -> bool {
        (1..=MAX_WORK as u8).contains(&self.num_work)
            && self.nerts_pile >= 1
            && usize::from(self.nerts_pile) + usize::from(self.num_work) <= 52
            && self.flip_count >= 1
            && self.stock_passes.is_none_or(|p| p >= 1)
            && self.min_ms >= 0
            && self.min_ms <= self.max_ms
            && self.retry_ms >= 0
            && self.sigma.is_finite()
            && self.sigma >= 0.0
            && (0.0..=1.0).contains(&self.miss)
    }

    /// The delay class of a move (an index of [`Rules::medians`]).
    #[must_use]
    pub const fn delay_class(mv: u32) -> usize {
        match kind(mv) {
            K_FOUNDATION => 0,
            K_WORK if depth(mv) > 1 => 2,
            K_FLIP | K_RECYCLE => 3,
            K_CALL => 4,
            _ => 1,
        }
    }
}

/// Whether a move is progress for the stalemate count (a foundation play, or a card from the
/// Nerts pile or the waste onto a work pile).
#[must_use]
pub const fn is_progress(mv: u32) -> bool {
    kind(mv) == K_FOUNDATION || (kind(mv) == K_WORK && matches!(src(mv), SRC_NERTS | SRC_WASTE))
}

/// `str(action)` of a move code (`N>F`, `W>F2`, `P1:3>P0`, `flip`, `recycle`, `nerts`,
/// `undo`).
#[must_use]
pub fn action_text(mv: u32) -> String {
    let src_text = |s: u8| match s {
        SRC_NERTS => "N".to_string(),
        SRC_WASTE => "W".to_string(),
        i => format!("P{i}"),
    };
    match kind(mv) {
        K_FOUNDATION => {
            let d = dst(mv);
            let target = if d == NONE {
                String::new()
            } else {
                d.to_string()
            };
            format!("{}>F{target}", src_text(src(mv)))
        }
        K_WORK => {
            let d = depth(mv);
            let dtext = if d == 1 {
                String::new()
            } else {
                format!(":{d}")
            };
            format!("{}{dtext}>P{}", src_text(src(mv)), dst(mv))
        }
        K_FLIP => "flip".into(),
        K_RECYCLE => "recycle".into(),
        K_CALL => "nerts".into(),
        _ => "undo".into(),
    }
}
