//! Three-Thirteen Rummy: the one rulebook (deal, draw and discard, going out and the final
//! turns, stock rebuilds, round scoring, the 11 rounds of a game, every rules option and the
//! turn cap), its observation tensor and the re-deal of hidden cards.
//!
//! A game is a pure function of `(rules, seed, moves)`: every deal and every stock rebuild
//! draws from the one `"deck"` stream (`CardRng::for_stream(seed, 0, "deck")`) in the order
//! the events happen; without `first_dealer`, that stream's first draw (`below(players)`)
//! picks the first dealer. Cards are physical ids (`deck * 52 + face`, jokers after every
//! natural); the meld solver reads their faces.

mod observe;
mod resample;
mod round;
mod state;
#[cfg(test)]
mod tests;

pub use observe::FACES;
pub use round::{Round, banned_after_draw};
pub use state::{Phase, State, StateParts};

use crate::card;
use crate::games::GameInfo;
use crate::meld::MeldRules;

/// The registry entry of Three-Thirteen.
pub const INFO: GameInfo = GameInfo {
    name: "three-thirteen",
    min_players: 2,
    max_players: 6,
};

/// Rounds in a game (3 cards dealt in the first, 13 in the last).
pub const ROUNDS: u32 = 11;
/// Action ids: draw from the stock, draw the discard-pile top, then `DISCARD + face` discards
/// (faces 0..51, 52 any joker: jokers are interchangeable).
pub const DRAW_STOCK: usize = 0;
/// See [`DRAW_STOCK`].
pub const DRAW_DISCARD: usize = 1;
/// See [`DRAW_STOCK`].
pub const DISCARD: usize = 2;
/// Replay code of a stock draw (a discard's code is its card id).
pub const CODE_DRAW_STOCK: i64 = -1;
/// Replay code of a pile draw.
pub const CODE_DRAW_DISCARD: i64 = -2;

/// The options of a game (validated by the Python `Options`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Seats at the table (2..=6).
    pub players: usize,
    /// Standard decks combined.
    pub decks: usize,
    /// Jokers added.
    pub jokers: usize,
    /// Ace mode and unmelded wild and joker points.
    pub meld: MeldRules,
    /// Seat of the first dealer; `None`: drawn from the deck stream.
    pub first_dealer: Option<usize>,
    /// A shared lowest total wins for every tied seat (`tie_rule="shared_win"`).
    pub shared_win: bool,
    /// A card taken from the discard pile may not be discarded in the same turn.
    pub forbid_return: bool,
    /// Own completed turns needed before going out counts.
    pub min_own_turns: u32,
    /// Turns in a round with nobody out before it is scored as it stands.
    pub max_turns: u32,
}

impl Rules {
    /// Cards in the deck.
    #[must_use]
    pub fn total_cards(&self) -> usize {
        card::natural_ids(self.decks) + self.jokers
    }

    /// Whether the options can be played: 2..=6 seats, 1..=4 decks, 0..=4 jokers, enough cards
    /// for 13 each plus a stock, a first dealer at the table.
    #[must_use]
    pub fn check(&self) -> bool {
        (INFO.min_players..=INFO.max_players).contains(&self.players)
            && (1..=4).contains(&self.decks)
            && self.jokers <= usize::from(card::MAX_JOKERS)
            && self.total_cards() >= 13 * self.players + 2
            && self.first_dealer.is_none_or(|d| d < self.players)
            && self.max_turns >= 1
    }

    /// Size of the action space.
    #[must_use]
    pub fn num_actions(&self) -> usize {
        DISCARD + usize::from(card::JOKER0) + usize::from(self.jokers > 0)
    }

    /// Length of the observation tensor.
    #[must_use]
    pub const fn observation_size(&self) -> usize {
        observe::observation_size(self.players)
    }

    /// The meld solver's face of a physical card (jokers keep their own codes).
    #[must_use]
    pub fn meld_face(&self, card: u8) -> u8 {
        card::face_of(usize::from(card), self.decks)
    }

    /// The tensor and action face of a physical card (every joker is face 52).
    #[must_use]
    pub fn face(&self, card: u8) -> usize {
        usize::from(self.meld_face(card)).min(usize::from(card::JOKER0))
    }
}
