//! Spite & Malice: the one rulebook (the deal and the first player, pay-off piles, hand
//! refills, centre stacks and their completion, wild cards, side stacks and every side-stack
//! rule, stock exhaustion, restricted discards, the turn cap, the scores of a game), its
//! observation tensor and the re-deal of hidden cards. [`moves`] holds the move rules over a
//! compact position, which the state, the action ids and the planner's search all use. A match
//! is a series of games dealt from derived seeds (`cardcore.spite_malice.spec`).
//!
//! A game is a pure function of `(rules, seed, moves)`: one `"deck"` stream per game
//! (`CardRng::for_stream(seed, 0, "deck")`) deals the deck and draws every later shuffle in
//! event order (pay-off reshuffles of the first-player procedure, completed stacks shuffled
//! into the stock, used-pile recycling). Cards are physical ids (`deck * 52 + face`, jokers
//! after every natural); piles are bottom to top (the last element is the top card). Centre
//! stacks are slots: an empty stack is a free slot; with unlimited centre stacks exactly one
//! spare free slot is kept at the end.
//!
//! Action ids (`docs/embedding.md`; [`crate::spite_actions`]): with `C` centre slots, `S` side
//! stacks and `F` faces (52, or 53 when jokers are wild), the pay-off top to slot `c`, side
//! stack `i`'s top to slot `c`, a hand card of face `f` to slot `c`, a hand card of face `f`
//! onto side stack `i`; an id plays the lowest-numbered card of its face in the hand.

pub mod moves;
mod observe;
mod resample;
mod state;
#[cfg(test)]
mod tests;

pub use observe::CENTER_ROWS;
pub use state::{EndReason, Move, State, StateParts};

use crate::card::{self, KING, NATURALS};
use crate::games::GameInfo;
use crate::spite_actions::ActionLayout;
pub use moves::SideRule;

/// The registry entry of Spite & Malice.
pub const INFO: GameInfo = GameInfo {
    name: "spite-malice",
    min_players: 2,
    max_players: 4,
};

/// Face of every joker in action ids and tensors (jokers are interchangeable).
pub const JOKER_FACE: usize = card::JOKER0 as usize;

/// When an exhausted stock ends the game in a tie (option `stock_exhausted`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StockRule {
    /// When a required draw finds no card.
    TieOnRequiredDraw,
    /// As soon as the stock is empty.
    TieImmediately,
    /// A required draw first shuffles the used pile into the stock.
    RecycleThenTie,
}

/// The options of a game (validated by the Python `Options`; [`Rules::check`] again).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Seats (2..=4).
    pub players: usize,
    /// 52-card decks (1..=8).
    pub decks: usize,
    /// Wild jokers, 2 per deck (`wild_mode="jokers"`); else wild kings.
    pub jokers: bool,
    /// Cards in each pay-off pile.
    pub payoff_size: usize,
    /// Cards in a full hand.
    pub hand_size: usize,
    /// Side stacks per player.
    pub side_stacks: usize,
    /// Centre stacks (0: unlimited, one free slot kept at the end).
    pub center_stacks: usize,
    /// A wild card may start an empty centre stack.
    pub king_can_start: bool,
    /// Draw a new hand when it empties mid-turn.
    pub refill_empty_hand: bool,
    /// A completed centre stack is shuffled into the stock (else set aside).
    pub completed_to_stock: bool,
    /// When an exhausted stock ends the game.
    pub stock_rule: StockRule,
    /// Which cards may be discarded to a side stack.
    pub side_rule: SideRule,
    /// A playable ace must be played before discarding.
    pub must_play_aces: bool,
    /// Seat that moves first; `None`: the highest face-up pay-off card.
    pub first_player: Option<usize>,
    /// Turns before the game is a tie.
    pub max_turns: u32,
    /// Points added to the winner's score.
    pub win_bonus: u64,
}

impl Rules {
    /// Whether the options are in the ranges of the Python `Options`.
    #[must_use]
    pub fn check(&self) -> bool {
        (2..=4).contains(&self.players)
            && (1..=8).contains(&self.decks)
            && (1..=60).contains(&self.payoff_size)
            && (1..=12).contains(&self.hand_size)
            && (1..=8).contains(&self.side_stacks)
            && self.center_stacks <= 8
            && self.first_player.is_none_or(|s| s < self.players)
            && self.max_turns >= 1
            && self.players * (self.payoff_size + self.hand_size) <= self.total_cards()
    }

    /// Cards in the deck.
    #[must_use]
    pub fn total_cards(&self) -> usize {
        card::natural_ids(self.decks) + if self.jokers { 2 * self.decks } else { 0 }
    }

    /// Faces in action ids and tensors (52, 53 with jokers: one face for every joker).
    #[must_use]
    pub fn faces(&self) -> usize {
        usize::from(NATURALS) + usize::from(self.jokers)
    }

    /// Effective rank at which a centre stack is complete: 12 (wild kings) or 13.
    #[must_use]
    pub fn top(&self) -> usize {
        if self.jokers { 13 } else { 12 }
    }

    /// Centre slots in the action ids and the tensor (`max_center_slots`): the limit, or
    /// (unlimited) one per card that may start a stack plus the spare free slot.
    #[must_use]
    pub fn slots(&self) -> usize {
        if self.center_stacks > 0 {
            return self.center_stacks;
        }
        let wilds = match (self.king_can_start, self.jokers) {
            (false, _) => 0,
            (true, true) => 2 * self.decks,
            (true, false) => 4 * self.decks,
        };
        4 * self.decks + wilds + 1
    }

    /// The action ids of these options.
    #[must_use]
    pub fn layout(&self) -> ActionLayout {
        let face = (0..self.total_cards())
            .map(|c| u16::try_from(self.face(c)).unwrap_or(u16::MAX))
            .collect();
        let face_rank = (0..self.faces()).map(|f| self.face_rank(f)).collect();
        ActionLayout::new(
            self.slots(),
            self.side_stacks,
            face,
            face_rank,
            self.king_can_start,
        )
        .expect("every face has a rank")
    }

    /// Size of the action space.
    #[must_use]
    pub fn num_actions(&self) -> usize {
        let (c, s, f) = (self.slots(), self.side_stacks, self.faces());
        c + s * c + f * c + f * s
    }

    /// Length of the observation tensor.
    #[must_use]
    pub fn observation_size(&self) -> usize {
        let (p, f, s) = (self.players, self.faces(), self.side_stacks);
        f + p * f + 2 * p * s * f + self.slots() * CENTER_ROWS + 3 * p + p * s + 3
    }

    /// The face of a physical card in action ids and tensors.
    #[must_use]
    pub fn face(&self, card: impl Into<usize>) -> usize {
        let c = card.into();
        if card::is_joker_id(c, self.decks) {
            JOKER_FACE
        } else {
            usize::from(card::natural_face(c))
        }
    }

    /// Building value of a face: 0 for a wild card, else 1..=12 (wild kings) or 1..=13.
    #[must_use]
    pub fn face_rank(&self, face: usize) -> u8 {
        if face == JOKER_FACE {
            return 0;
        }
        let r = u8::try_from(face).map_or(0, card::rank);
        if r == KING && !self.jokers { 0 } else { r }
    }

    /// Building value of a physical card (0 = wild).
    #[must_use]
    pub fn rank(&self, card: u16) -> u8 {
        self.face_rank(self.face(card))
    }

    /// The card's text: `"7h@1"` (face and deck) for a natural, `"X3"` for a joker.
    #[must_use]
    pub fn card_text(&self, card: u16) -> String {
        let c = usize::from(card);
        let naturals = card::natural_ids(self.decks);
        if self.jokers && c >= naturals {
            return format!("X{}", c - naturals + 1);
        }
        let face = card::natural_face(c);
        const RANKS: &[u8; 13] = b"A23456789TJQK";
        const SUITS: &[u8; 4] = b"cdhs";
        format!(
            "{}{}@{}",
            RANKS[usize::from(card::rank(face) - 1)] as char,
            SUITS[usize::from(card::suit(face))] as char,
            c / usize::from(NATURALS)
        )
    }

    /// The option's name of the side-stack rule (`side_stack_rule`).
    #[must_use]
    pub fn side_rule_name(&self) -> &'static str {
        match self.side_rule {
            SideRule::Any => "any",
            SideRule::SameOrOneLower => "same_or_one_lower",
            SideRule::NoAces => "no_aces",
        }
    }
}

/// The native vector environments' batch of this rulebook (`crate::batch`).
impl crate::batch::Dealt for State {
    type Rules = Rules;

    fn deal(rules: &Rules, seed: u64) -> Self {
        Self::new(rules.clone(), seed, false).expect("rules checked")
    }

    fn sizes(rules: &Rules) -> (usize, usize, usize) {
        (rules.observation_size(), rules.num_actions(), rules.players)
    }
}
