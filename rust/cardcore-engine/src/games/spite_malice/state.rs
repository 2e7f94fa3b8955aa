//! The game in progress: the deal and the first player, plays and discards, completed centre
//! stacks, refills, the end of a game, and what every seat knows about the hidden cards (for
//! the re-deal of hidden cards).

use std::sync::Arc;

use super::moves::{self, Build, DiscardRules, Position, SideRule, SideTop, Source};
use super::{Rules, StockRule};
use crate::card;
use crate::games::{self, BadState, IllegalMove, is_permutation};
use crate::rng::CardRng;
use crate::shuffle::{permutation, shuffle};
use crate::spite_actions::{Action, ActionLayout, Discards};

/// One move of the seat to play (card ids are physical cards).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    /// The pay-off top to centre slot `center`.
    PayOff {
        /// Centre slot.
        center: usize,
    },
    /// Side stack `side`'s top to centre slot `center`.
    Side {
        /// Side stack.
        side: usize,
        /// Centre slot.
        center: usize,
    },
    /// Hand card `card` to centre slot `center`.
    Hand {
        /// Card id.
        card: u16,
        /// Centre slot.
        center: usize,
    },
    /// Hand card `card` onto side stack `side` (ends the turn).
    Discard {
        /// Card id.
        card: u16,
        /// Side stack.
        side: usize,
    },
}

impl Move {
    /// `(kind, x, y)`: 0 pay-off (`y` the slot), 1 side (`x` the stack, `y` the slot), 2 hand
    /// (`x` the card, `y` the slot), 3 discard (`x` the card, `y` the stack).
    #[must_use]
    pub fn code(self) -> (u8, usize, usize) {
        match self {
            Self::PayOff { center } => (0, 0, center),
            Self::Side { side, center } => (1, side, center),
            Self::Hand { card, center } => (2, usize::from(card), center),
            Self::Discard { card, side } => (3, usize::from(card), side),
        }
    }

    /// The move of [`Move::code`]'s triple; `None` for an unknown kind or a card id past
    /// `u16`.
    #[must_use]
    pub fn from_code(kind: u8, x: usize, y: usize) -> Option<Self> {
        Some(match kind {
            0 => Self::PayOff { center: y },
            1 => Self::Side { side: x, center: y },
            2 => Self::Hand {
                card: u16::try_from(x).ok()?,
                center: y,
            },
            3 => Self::Discard {
                card: u16::try_from(x).ok()?,
                side: y,
            },
            _ => return None,
        })
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// Still running.
    None,
    /// A seat emptied its pay-off pile.
    PayOffEmptied,
    /// The stock ran out (a tie).
    StockExhausted,
    /// The turn cap was reached (a tie).
    MaxTurns,
}

impl EndReason {
    /// The text of records and documents.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::None => "",
            Self::PayOffEmptied => "pay-off emptied",
            Self::StockExhausted => "stock exhausted",
            Self::MaxTurns => "max_turns",
        }
    }

    /// The reason of [`EndReason::name`].
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        [
            Self::None,
            Self::PayOffEmptied,
            Self::StockExhausted,
            Self::MaxTurns,
        ]
        .into_iter()
        .find(|r| r.name() == name)
    }
}

/// A whole Spite & Malice game.
///
/// Hidden information: the pay-off piles below their tops, the other seats' hands, the stock,
/// the deck order and the deck stream; a seat sees only [`State::write_observation`] (or
/// what the accessors a view reads show it). What every seat knows about hidden cards is kept
/// in `pinned` (pay-off tops seen before a first-player reshuffle), `entries` (cards that went
/// back into the stock, seen, in order), `entry_draws` (each seat's stock draws at each
/// entry), `drawn` (stock draws per seat) and `played` (per seat, the entry of every card it
/// played from its hand that had gone back into the stock).
#[derive(Clone, Debug)]
pub struct State {
    pub(super) rules: Rules,
    pub(super) layout: Arc<ActionLayout>,
    pub(super) seed: u64,
    pub(super) rng: CardRng,
    pub(super) deck_order: Vec<u16>,
    pub(super) payoffs: Vec<Vec<u16>>,
    pub(super) hands: Vec<Vec<u16>>,
    /// `[seat][stack]`.
    pub(super) sides: Vec<Vec<Vec<u16>>>,
    pub(super) center: Vec<Vec<u16>>,
    pub(super) stock: Vec<u16>,
    pub(super) used: Vec<u16>,
    pub(super) current: usize,
    pub(super) first_player: usize,
    pub(super) turn: u32,
    pub(super) over: bool,
    pub(super) winner: Option<usize>,
    pub(super) end_reason: EndReason,
    pub(super) scores: Vec<u64>,
    /// The events' texts, when they are logged.
    pub(super) events: Option<Vec<String>>,
    pub(super) reshuffles: u32,
    pub(super) log: Vec<(u8, Move)>,
    pub(super) pinned: Vec<Vec<u16>>,
    pub(super) entries: Vec<Vec<u16>>,
    pub(super) entry_draws: Vec<Vec<u32>>,
    pub(super) drawn: Vec<u32>,
    pub(super) played: Vec<Vec<u32>>,
    /// The (1-based) latest entry of every card into the stock; 0: never.
    pub(super) entry_of: Vec<u32>,
    /// Whether the log and what the seats know are kept (false: a lean state, see
    /// [`State::lean`]).
    pub(super) history: bool,
}

/// A state given field by field (what a state document holds), checked by
/// [`State::from_parts`].
#[derive(Clone, Debug)]
#[allow(missing_docs)]
pub struct StateParts {
    pub seed: u64,
    pub rng: [u64; 4],
    pub deck_order: Vec<u16>,
    pub payoffs: Vec<Vec<u16>>,
    pub hands: Vec<Vec<u16>>,
    pub sides: Vec<Vec<Vec<u16>>>,
    pub center: Vec<Vec<u16>>,
    pub stock: Vec<u16>,
    pub used: Vec<u16>,
    pub current: usize,
    pub first_player: usize,
    pub turn: u32,
    pub over: bool,
    pub winner: Option<usize>,
    pub end_reason: EndReason,
    pub scores: Vec<u64>,
    pub events: Option<Vec<String>>,
    pub reshuffles: u32,
    pub log: Vec<(u8, Move)>,
    pub pinned: Vec<Vec<u16>>,
    pub entries: Vec<Vec<u16>>,
    pub entry_draws: Vec<Vec<u32>>,
    pub drawn: Vec<u32>,
    pub played: Vec<Vec<u32>>,
}

/// A seat's position as the rulebook's move rules read it (card values by the rules).
struct SeatView<'a> {
    st: &'a State,
    seat: usize,
}

impl Position for SeatView<'_> {
    fn slots(&self) -> impl Iterator<Item = (usize, u8)> {
        let center = &self.st.center;
        center
            .iter()
            .enumerate()
            .map(|(c, s)| (c, u8::try_from(s.len()).unwrap_or(u8::MAX)))
    }

    fn payoff_top(&self) -> Option<u8> {
        let r = &self.st.rules;
        self.st.payoffs[self.seat].last().map(|&c| r.rank(c))
    }

    fn side_stacks(&self) -> usize {
        self.st.sides[self.seat].len()
    }

    fn side_top(&self, k: usize) -> SideTop {
        let r = &self.st.rules;
        self.st.sides[self.seat][k]
            .last()
            .map_or(SideTop::Empty, |&c| SideTop::Card(r.rank(c)))
    }

    fn hand(&self) -> impl Iterator<Item = (usize, u8)> {
        let r = &self.st.rules;
        self.st.hands[self.seat]
            .iter()
            .enumerate()
            .map(|(i, &c)| (i, r.rank(c)))
    }
}

/// `pile` in the order of a permutation drawn from `rng` (the order [`shuffle`] gives it in
/// place: the swaps do not depend on the cards).
fn shuffled(rng: &mut CardRng, pile: &[u16]) -> Vec<u16> {
    permutation(rng, pile.len())
        .iter()
        .map(|&i| pile[usize::from(i)])
        .collect()
}

impl State {
    fn blank(rules: Rules, seed: u64, rng: CardRng) -> Self {
        let p = rules.players;
        let total = rules.total_cards();
        Self {
            layout: Arc::new(rules.layout()),
            seed,
            rng,
            deck_order: Vec::new(),
            payoffs: vec![Vec::new(); p],
            hands: vec![Vec::new(); p],
            sides: vec![vec![Vec::new(); rules.side_stacks]; p],
            center: vec![Vec::new(); rules.center_stacks.max(1)],
            stock: Vec::new(),
            used: Vec::new(),
            current: 0,
            first_player: 0,
            turn: 1,
            over: false,
            winner: None,
            end_reason: EndReason::None,
            scores: vec![0; p],
            events: None,
            reshuffles: 0,
            log: Vec::new(),
            pinned: vec![Vec::new(); p],
            entries: Vec::new(),
            entry_draws: Vec::new(),
            drawn: vec![0; p],
            played: vec![Vec::new(); p],
            entry_of: vec![0; total],
            history: true,
            rules,
        }
    }

    /// A new game dealt from `seed`: pay-off piles, then full hands, the rest is the stock;
    /// then the first player. `log_events` keeps the events' texts.
    ///
    /// # Errors
    /// The rules cannot be played.
    pub fn new(rules: Rules, seed: u64, log_events: bool) -> Result<Self, BadState> {
        if !rules.check() {
            return Err(BadState("spite-malice options out of range".into()));
        }
        let mut rng = CardRng::for_stream(seed, 0, "deck");
        let order = permutation(&mut rng, rules.total_cards());
        let mut st = Self::blank(rules, seed, rng);
        let r = &st.rules;
        let (p, pay, hand) = (r.players, r.payoff_size, r.hand_size);
        let mut pos = 0;
        for k in 0..p {
            st.payoffs[k] = order[pos..pos + pay].to_vec();
            pos += pay;
        }
        for k in 0..p {
            st.hands[k] = order[pos..pos + hand].to_vec();
            pos += hand;
        }
        st.stock = order[pos..].iter().rev().copied().collect();
        st.deck_order = order;
        if log_events {
            st.events = Some(Vec::new());
        }
        st.first_player = st.choose_first_player();
        st.current = st.first_player;
        if st.rules.stock_rule == StockRule::TieImmediately && st.stock.is_empty() {
            st.end_tie(EndReason::StockExhausted);
        }
        Ok(st)
    }

    /// This state without its history, for an agent's look-ahead (the expert's rollouts): the
    /// same rules and the same play, but no move log, no events and no record of what the
    /// seats know, so that copies are cheap. Its documents and its re-deals of hidden cards
    /// are not meaningful.
    #[must_use]
    pub fn lean(mut self) -> Self {
        self.history = false;
        self.events = None;
        self.log = Vec::new();
        self.deck_order = Vec::new();
        self.entries = Vec::new();
        self.entry_draws = Vec::new();
        self.entry_of = Vec::new();
        self.pinned.iter_mut().for_each(Vec::clear);
        self.played.iter_mut().for_each(Vec::clear);
        self
    }

    /// The hidden cards dealt again by a caller (an agent's deal of the cards it has not
    /// seen): every seat's hand and pay-off pile and the stock are replaced by piles of the
    /// same sizes; the rest of the position stays.
    ///
    /// # Errors
    /// The piles do not fit the table or do not hold the cards of the game once with the
    /// rest of the position (nothing changes).
    pub fn redeal(
        &mut self,
        hands: Vec<Vec<u16>>,
        payoffs: Vec<Vec<u16>>,
        stock: Vec<u16>,
    ) -> Result<(), BadState> {
        let sizes = |new: &[Vec<u16>], old: &[Vec<u16>]| {
            new.len() == old.len() && new.iter().zip(old).all(|(a, b)| a.len() == b.len())
        };
        if !sizes(&hands, &self.hands)
            || !sizes(&payoffs, &self.payoffs)
            || stock.len() != self.stock.len()
        {
            return Err(BadState("a deal keeps the size of every pile".into()));
        }
        let cards = payoffs
            .iter()
            .chain(&hands)
            .chain(self.sides.iter().flatten())
            .chain(&self.center)
            .flatten()
            .chain(&stock)
            .chain(&self.used);
        if !is_permutation(cards.copied(), self.rules.total_cards()) {
            return Err(BadState(
                "the deal's piles do not hold every card once".into(),
            ));
        }
        self.hands = hands;
        self.payoffs = payoffs;
        self.stock = stock;
        Ok(())
    }

    /// Draws the later shuffles (completed stacks, recycling) from `rng`: a caller's
    /// randomness source, e.g. one stream per rollout of a look-ahead.
    pub fn set_rng(&mut self, rng: CardRng) {
        self.rng = rng;
    }

    fn event(&mut self, text: impl FnOnce() -> String) {
        if let Some(ev) = &mut self.events {
            ev.push(text());
        }
    }

    /// The first player by the rules: the `first_player` option, else the highest pay-off top
    /// (a joker counts 14, a king 13); the tied seats reshuffle their piles (in seat order,
    /// from the deck stream) until one is highest. Returns the seat (the caller sets it).
    pub fn choose_first_player(&mut self) -> usize {
        if let Some(s) = self.rules.first_player {
            return s;
        }
        let decks = self.rules.decks;
        let value = |c: u16| {
            if card::is_joker_id(usize::from(c), decks) {
                14
            } else {
                usize::from(card::rank_of(c))
            }
        };
        let mut contenders: Vec<usize> = (0..self.rules.players).collect();
        for _ in 0..1000 {
            let values: Vec<usize> = contenders
                .iter()
                .map(|&s| self.payoffs[s].last().map_or(0, |&c| value(c)))
                .collect();
            let best = values.iter().copied().max().unwrap_or(0);
            let tied: Vec<usize> = contenders
                .iter()
                .zip(&values)
                .filter(|&(_, &v)| v == best)
                .map(|(&s, _)| s)
                .collect();
            if tied.len() == 1 {
                return tied[0];
            }
            for &s in &tied {
                if let Some(&top) = self.payoffs[s].last() {
                    self.pinned[s].push(top); // seen, now somewhere in the pile
                }
                self.payoffs[s] = shuffled(&mut self.rng, &self.payoffs[s]);
                self.reshuffles += 1;
                self.event(|| format!("reshuffle payoff {s}"));
            }
            contenders = tied;
        }
        contenders[0] // unreachable in practice (identical one-card piles)
    }

    // -- rules --------------------------------------------------------------------------------

    /// The building rules.
    fn build(&self) -> Build {
        Build {
            top: self.rules.top() as u8,
            wild_start: self.rules.king_can_start,
        }
    }

    /// Whether a card goes on a centre stack of `effective` cards now.
    fn fits(&self, card: u16, effective: usize) -> bool {
        u8::try_from(effective).is_ok_and(|e| self.build().fits(self.rules.rank(card), e))
    }

    /// Whether `seat` could play an ace now (a free slot and an ace on hand or a top).
    fn ace_playable(&self, seat: usize) -> bool {
        moves::ace_playable(&SeatView { st: self, seat })
    }

    /// The legal discards of `seat` as `(card, side)`, in hand order then side order.
    fn discards(&self, seat: usize) -> Vec<(u16, usize)> {
        let hand = &self.hands[seat];
        let rules = DiscardRules {
            side_rule: self.rules.side_rule,
            must_play_aces: self.rules.must_play_aces,
        };
        let mut out = Vec::new();
        moves::discards(&SeatView { st: self, seat }, rules, |i, k| {
            out.push((hand[i], k));
        });
        out
    }

    fn discard_rule(&self) -> Discards {
        Discards::of(self.rules.side_rule, self.rules.must_play_aces)
    }

    /// Every legal move of the seat to play: the pay-off top, the side tops, the hand cards
    /// (in hand order) to the slots they fit, then the discards (empty once over).
    #[must_use]
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.over {
            return Vec::new();
        }
        let seat = self.current;
        let hand = &self.hands[seat];
        let mut out = Vec::new();
        moves::plays(&SeatView { st: self, seat }, self.build(), |src, center| {
            out.push(match src {
                Source::PayOff => Move::PayOff { center },
                Source::Side(side) => Move::Side { side, center },
                Source::Hand(i) => Move::Hand {
                    card: hand[i],
                    center,
                },
            });
        });
        out.extend(
            self.discards(seat)
                .into_iter()
                .map(|(card, side)| Move::Discard { card, side }),
        );
        out
    }

    /// Why `(kind, x, y)` (see [`Move::code`]) may not be played now (`None`: it may), in the
    /// words of the Python engine.
    #[must_use]
    pub fn why_illegal(&self, kind: u8, x: i64, y: i64) -> Option<String> {
        if self.over {
            return Some("the game is over".into());
        }
        let seat = self.current;
        let r = &self.rules;
        let in_hand = |card: i64| {
            u16::try_from(card)
                .ok()
                .filter(|c| self.hands[seat].contains(c))
        };
        let side_ok = |s: i64| usize::try_from(s).ok().filter(|&s| s < r.side_stacks);
        if kind == 3 {
            if side_ok(y).is_none() {
                return Some(format!("no side stack S{y}"));
            }
            let Some(card) = in_hand(x) else {
                return Some(format!("card #{x} is not in the hand"));
            };
            if r.must_play_aces && self.ace_playable(seat) {
                return Some("a playable ace must be played first".into());
            }
            if r.side_rule != SideRule::Any && !self.discards(seat).contains(&(card, y as usize)) {
                return Some(format!(
                    "side stack rule '{}' forbids this discard",
                    r.side_rule_name()
                ));
            }
            return None;
        }
        let Some(c) = usize::try_from(y).ok().filter(|&c| c < self.center.len()) else {
            return Some(format!("no centre stack C{}", i128::from(y) + 1));
        };
        let card = match kind {
            0 => match self.payoffs[seat].last() {
                Some(&c) => c,
                None => return Some("the pay-off pile is empty".into()),
            },
            1 => {
                let Some(s) = side_ok(x) else {
                    return Some(format!("no side stack S{x}"));
                };
                match self.sides[seat][s].last() {
                    Some(&c) => c,
                    None => return Some(format!("side stack S{} is empty", s + 1)),
                }
            }
            _ => match in_hand(x) {
                Some(c) => c,
                None => return Some(format!("card #{x} is not in the hand")),
            },
        };
        let e = self.center[c].len();
        if !self.fits(card, e) {
            return Some(format!(
                "{} does not go on C{} (effective rank {e})",
                r.card_text(card),
                c + 1
            ));
        }
        None
    }

    /// Plays `mv` for the seat to play.
    ///
    /// # Errors
    /// The move is not legal now (nothing changes); the message says why.
    pub fn apply_move(&mut self, mv: Move) -> Result<(), IllegalMove> {
        let (kind, x, y) = mv.code();
        // indices and card ids are far below i64::MAX
        self.apply_code(kind, x as i64, y as i64)
    }

    /// Plays `(kind, x, y)` (see [`Move::code`]) for the seat to play.
    ///
    /// # Errors
    /// The move is not legal now (nothing changes); the message says why.
    pub fn apply_code(&mut self, kind: u8, x: i64, y: i64) -> Result<(), IllegalMove> {
        if kind > 3 {
            return Err(IllegalMove(format!("no spite-malice move kind {kind}")));
        }
        if let Some(why) = self.why_illegal(kind, x, y) {
            return Err(IllegalMove(why));
        }
        // checked above: the indices and the card fit
        let mv = Move::from_code(kind, x as usize, y as usize).expect("a checked move");
        self.play(mv);
        Ok(())
    }

    /// The move action id `action` plays now (the lowest-numbered card of its face in the
    /// hand), if it is legal.
    fn action_move(&self, action: i64) -> Option<Move> {
        let a = usize::try_from(action).ok()?;
        if a >= self.layout.num_actions() || !self.legal_actions_vec().contains(&a) {
            return None;
        }
        self.decode_action(a)
    }

    /// The move of action id `a` (below the layout's size) now, without checking it is legal
    /// (the lowest-numbered card of its face in the hand; None when the hand has none).
    fn decode_action(&self, a: usize) -> Option<Move> {
        let hand_card = |face: u16| {
            let hand = &self.hands[self.current];
            hand.iter()
                .copied()
                .filter(|&c| self.rules.face(c) == usize::from(face))
                .min()
        };
        Some(match self.layout.decode(a)? {
            Action::PayOff { center } => Move::PayOff { center },
            Action::Side { side, center } => Move::Side { side, center },
            Action::Hand { face, center } => Move::Hand {
                card: hand_card(face)?,
                center,
            },
            Action::Discard { face, side } => Move::Discard {
                card: hand_card(face)?,
                side,
            },
        })
    }

    /// The move action id `action` plays now, if it is legal (the replay's move).
    #[must_use]
    pub fn move_of_action(&self, action: i64) -> Option<Move> {
        if self.over {
            return None;
        }
        self.action_move(action)
    }

    fn legal_actions_vec(&self) -> Vec<usize> {
        // one allocation: a turn rarely has more legal actions than this
        let mut out = Vec::with_capacity(64);
        if self.over {
            return out;
        }
        let seat = self.current;
        // on the stack for the sizes the rules allow (no allocation a step), else on the heap
        let (mut center_buf, center_vec);
        let center: &[usize] = if self.center.len() <= 32 {
            center_buf = [0usize; 32];
            for (b, stack) in center_buf.iter_mut().zip(&self.center) {
                *b = stack.len();
            }
            &center_buf[..self.center.len()]
        } else {
            center_vec = self.center.iter().map(Vec::len).collect::<Vec<usize>>();
            &center_vec
        };
        let (mut tops_buf, tops_vec);
        let side_tops: &[Option<u16>] = if self.sides[seat].len() <= 8 {
            tops_buf = [None; 8];
            for (t, side) in tops_buf.iter_mut().zip(&self.sides[seat]) {
                *t = side.last().copied();
            }
            &tops_buf[..self.sides[seat].len()]
        } else {
            tops_vec = self.sides[seat]
                .iter()
                .map(|s| s.last().copied())
                .collect::<Vec<_>>();
            &tops_vec
        };
        self.layout
            .legal(
                center,
                self.payoffs[seat].last().copied(),
                side_tops,
                &self.hands[seat],
                self.discard_rule(),
                &mut out,
            )
            .expect("the piles fit the layout");
        out
    }

    /// Plays a legal move (checked by the caller).
    pub(super) fn play(&mut self, mv: Move) {
        let seat = self.current;
        if self.history {
            self.log.push((seat as u8, mv));
        }
        let (card, center) = match mv {
            Move::Discard { card, side } => {
                self.take_from_hand(seat, card);
                self.sides[seat][side].push(card);
                self.end_turn();
                return;
            }
            Move::PayOff { center } => (self.payoffs[seat].pop(), center),
            Move::Side { side, center } => (self.sides[seat][side].pop(), center),
            Move::Hand { card, center } => {
                self.take_from_hand(seat, card);
                (Some(card), center)
            }
        };
        self.center[center].extend(card);
        if self.center[center].len() >= self.rules.top() {
            self.complete(center);
        } else {
            self.fix_slots();
        }
        if matches!(mv, Move::PayOff { .. }) && self.payoffs[seat].is_empty() {
            self.end_win(seat);
            return;
        }
        if self.hands[seat].is_empty() && !self.over {
            if self.rules.refill_empty_hand {
                self.required_draw(seat);
            } else {
                self.end_turn();
            }
        }
    }

    fn take_from_hand(&mut self, seat: usize, card: u16) {
        let hand = &mut self.hands[seat];
        if let Some(i) = hand.iter().position(|&c| c == card) {
            hand.remove(i);
        }
        // a card played from a hand that had gone back into the stock: its entry
        let entry = self.entry_of(card);
        if entry > 0 {
            self.played[seat].push(entry);
        }
    }

    /// Seen cards go back into the stock (public knowledge for the re-deal of hidden cards).
    fn enter_stock(&mut self, cards: &[u16]) {
        if !self.history {
            return;
        }
        self.entries.push(cards.to_vec());
        self.entry_draws.push(self.drawn.clone());
        let n = self.entries.len() as u32;
        for &c in cards {
            self.entry_of[usize::from(c)] = n;
        }
    }

    fn complete(&mut self, c: usize) {
        let cards = std::mem::take(&mut self.center[c]);
        if self.rules.completed_to_stock {
            self.enter_stock(&cards);
            self.stock.extend(&cards);
            shuffle(&mut self.rng, &mut self.stock);
            self.reshuffles += 1;
            let n = self.stock.len();
            self.event(|| format!("complete C{} -> stock {n}", c + 1));
        } else {
            self.used.extend(cards);
            let n = self.used.len();
            self.event(|| format!("complete C{} -> used {n}", c + 1));
        }
        self.fix_slots();
    }

    /// Unlimited centre stacks: the stacks in play in order, then one free slot.
    pub(super) fn fix_slots(&mut self) {
        if self.rules.center_stacks != 0 {
            return;
        }
        let center = &mut self.center;
        let last_used = center.last().is_some_and(|c| !c.is_empty());
        if last_used || center[..center.len() - 1].iter().any(Vec::is_empty) {
            center.retain(|c| !c.is_empty());
            center.push(Vec::new());
        }
    }

    /// Draws up to a full hand; a tie when the draw finds no card at all.
    fn required_draw(&mut self, seat: usize) {
        let need = self.rules.hand_size.saturating_sub(self.hands[seat].len());
        if need == 0 {
            return;
        }
        let rule = self.rules.stock_rule;
        if self.stock.is_empty() && rule == StockRule::RecycleThenTie && !self.used.is_empty() {
            let mut pile = std::mem::take(&mut self.used);
            self.enter_stock(&pile);
            shuffle(&mut self.rng, &mut pile);
            self.stock = pile;
            self.reshuffles += 1;
            let n = self.stock.len();
            self.event(|| format!("recycle used -> stock {n}"));
        }
        if self.stock.is_empty() {
            self.end_tie(EndReason::StockExhausted);
            return;
        }
        let n = need.min(self.stock.len());
        self.drawn[seat] += n as u32;
        let at = self.stock.len() - n;
        self.hands[seat].extend(self.stock.drain(at..).rev());
        if rule == StockRule::TieImmediately && self.stock.is_empty() {
            self.end_tie(EndReason::StockExhausted);
        }
    }

    fn end_turn(&mut self) {
        if self.turn >= self.rules.max_turns {
            self.end_tie(EndReason::MaxTurns);
            return;
        }
        self.turn += 1;
        self.current = (self.current + 1) % self.rules.players;
        self.required_draw(self.current);
    }

    fn end_tie(&mut self, reason: EndReason) {
        self.over = true;
        self.winner = None;
        self.end_reason = reason;
        self.scores.fill(0);
    }

    fn end_win(&mut self, seat: usize) {
        self.over = true;
        self.winner = Some(seat);
        self.end_reason = EndReason::PayOffEmptied;
        let pts: usize = (0..self.rules.players)
            .filter(|&k| k != seat)
            .map(|k| self.payoffs[k].len())
            .sum();
        self.scores.fill(0);
        self.scores[seat] = pts as u64 + self.rules.win_bonus;
    }

    // -- read access (views, documents, agents) ---------------------------------------------

    /// The rules of the game.
    #[must_use]
    pub fn rules(&self) -> &Rules {
        &self.rules
    }
    /// The action layout of the rules.
    #[must_use]
    pub fn layout(&self) -> &ActionLayout {
        &self.layout
    }
    /// The seed the game was dealt from.
    #[must_use]
    pub fn seed(&self) -> u64 {
        self.seed
    }
    /// The deck stream's state words.
    #[must_use]
    pub fn rng_state(&self) -> [u64; 4] {
        self.rng.state()
    }
    /// The dealt deck order (empty after a re-deal of hidden cards or for a built position).
    #[must_use]
    pub fn deck_order(&self) -> &[u16] {
        &self.deck_order
    }
    /// Every seat's pay-off pile, top last.
    #[must_use]
    pub fn payoffs(&self) -> &[Vec<u16>] {
        &self.payoffs
    }
    /// Every seat's hand.
    #[must_use]
    pub fn hands(&self) -> &[Vec<u16>] {
        &self.hands
    }
    /// Every seat's side stacks, tops last.
    #[must_use]
    pub fn sides(&self) -> &[Vec<Vec<u16>>] {
        &self.sides
    }
    /// The centre slots (an empty one is free).
    #[must_use]
    pub fn center(&self) -> &[Vec<u16>] {
        &self.center
    }
    /// The stock, top card last.
    #[must_use]
    pub fn stock(&self) -> &[u16] {
        &self.stock
    }
    /// Completed stacks set aside.
    #[must_use]
    pub fn used(&self) -> &[u16] {
        &self.used
    }
    /// The seat to play (the last seat that played once over).
    #[must_use]
    pub fn current(&self) -> usize {
        self.current
    }
    /// The seat that played first.
    #[must_use]
    pub fn first_player(&self) -> usize {
        self.first_player
    }
    /// The turn, from 1.
    #[must_use]
    pub fn turn(&self) -> u32 {
        self.turn
    }
    /// Whether the game has ended.
    #[must_use]
    pub fn over(&self) -> bool {
        self.over
    }
    /// The winner (none before the end and after a tie).
    #[must_use]
    pub fn winner(&self) -> Option<usize> {
        self.winner
    }
    /// Why the game ended.
    #[must_use]
    pub fn end_reason(&self) -> EndReason {
        self.end_reason
    }
    /// Points of each seat (the winner's only; 0 before the end).
    #[must_use]
    pub fn scores(&self) -> &[u64] {
        &self.scores
    }
    /// The events' texts, when logged.
    #[must_use]
    pub fn events(&self) -> Option<&[String]> {
        self.events.as_deref()
    }
    /// Shuffles drawn from the deck stream after the deal.
    #[must_use]
    pub fn reshuffles(&self) -> u32 {
        self.reshuffles
    }
    /// Every move played, with its seat.
    #[must_use]
    pub fn log(&self) -> &[(u8, Move)] {
        &self.log
    }
    /// Pay-off tops seen before a first-player reshuffle, by seat.
    #[must_use]
    pub fn pinned(&self) -> &[Vec<u16>] {
        &self.pinned
    }
    /// The cards of every entry into the stock.
    #[must_use]
    pub fn entries(&self) -> &[Vec<u16>] {
        &self.entries
    }
    /// Each seat's stock draws at each entry.
    #[must_use]
    pub fn entry_draws(&self) -> &[Vec<u32>] {
        &self.entry_draws
    }
    /// Each seat's stock draws.
    #[must_use]
    pub fn drawn(&self) -> &[u32] {
        &self.drawn
    }
    /// Per seat, the entry of every re-entered card it played from its hand.
    #[must_use]
    pub fn played(&self) -> &[Vec<u32>] {
        &self.played
    }
    /// The latest entry of card `card` into the stock (0: never).
    #[must_use]
    pub fn entry_of(&self, card: u16) -> u32 {
        self.entry_of.get(usize::from(card)).copied().unwrap_or(0)
    }

    // -- a state given field by field ---------------------------------------------------------

    /// The state `x` describes, after checking the invariants the rules rely on.
    ///
    /// # Errors
    /// A field out of range, or fields that disagree (cards not conserved, sizes, seats, the
    /// centre stacks, the end, what the seats know), named in the message.
    #[allow(clippy::too_many_lines)]
    pub fn from_parts(rules: Rules, x: StateParts) -> Result<Self, BadState> {
        let bad = |m: &str| Err(BadState(m.to_owned()));
        if !rules.check() {
            return bad("spite-malice options out of range");
        }
        let p = rules.players;
        let total = rules.total_cards();
        let Some(rng) = CardRng::from_state(x.rng) else {
            return bad("'rng' is the all-zero state");
        };
        let per_seat = [
            x.payoffs.len(),
            x.hands.len(),
            x.sides.len(),
            x.scores.len(),
            x.pinned.len(),
            x.drawn.len(),
            x.played.len(),
        ];
        if per_seat.iter().any(|&n| n != p) {
            return bad(
                "a per-seat list ('payoffs', 'hands', 'sides', 'scores' or a 'knowledge' list) does not fit the table",
            );
        }
        if x.current >= p || x.first_player >= p || x.winner.is_some_and(|w| w >= p) {
            return bad("'current', 'first_player' or 'winner' is not a seat at the table");
        }
        if x.sides.iter().any(|s| s.len() != rules.side_stacks) {
            return bad("'sides': a seat does not have the options' side stacks");
        }
        let cards = x
            .payoffs
            .iter()
            .chain(&x.hands)
            .chain(x.sides.iter().flatten())
            .chain(&x.center)
            .flatten()
            .chain(&x.stock)
            .chain(&x.used);
        if !is_permutation(cards.copied(), total) {
            return bad("the piles do not hold every card once");
        }
        if !x.deck_order.is_empty() && !is_permutation(x.deck_order.iter().copied(), total) {
            return bad("the recorded deck order is not a permutation of the cards");
        }
        if x.hands.iter().any(|h| h.len() > rules.hand_size) {
            return bad("a hand holds more cards than a full hand");
        }
        let center = &x.center;
        if rules.center_stacks > 0 {
            if center.len() != rules.center_stacks {
                return Err(BadState(format!(
                    "{} centre slots, the options say {}",
                    center.len(),
                    rules.center_stacks
                )));
            }
        } else if center.last().is_none_or(|c| !c.is_empty())
            || center[..center.len() - 1].iter().any(Vec::is_empty)
            || center.len() > rules.slots()
        {
            return bad("unlimited centre stacks: the stacks in play, then one free slot");
        }
        let mut st = Self::blank(rules, x.seed, rng);
        for (i, stack) in center.iter().enumerate() {
            let legal = stack.len() < st.rules.top()
                && stack.iter().enumerate().all(|(at, &c)| st.fits(c, at));
            if !legal {
                return Err(BadState(format!(
                    "centre stack C{} is not a legal stack",
                    i + 1
                )));
            }
        }
        if x.over != (x.end_reason != EndReason::None) {
            return bad("'end_reason' does not match 'over'");
        }
        if !x.over && (x.winner.is_some() || x.scores.iter().any(|&s| s > 0)) {
            return bad("a winner or scores before the game is over");
        }
        if x.winner.is_some() != (x.end_reason == EndReason::PayOffEmptied) {
            return bad("'winner' does not match 'end_reason'");
        }
        if let Some(w) = x.winner {
            if !x.payoffs[w].is_empty() {
                return bad("the winner still has pay-off cards");
            }
            if x.scores.iter().enumerate().any(|(k, &s)| k != w && s > 0) {
                return bad("'scores': a seat other than the winner has points");
            }
        }
        if !x.over {
            if let Some(k) = x.payoffs.iter().position(Vec::is_empty) {
                return Err(BadState(format!(
                    "'payoffs': seat {k}'s pay-off pile is empty but the game is not over"
                )));
            }
            if x.hands[x.current].is_empty() && !x.stock.is_empty() {
                return bad("the seat to play has an empty hand and the stock is not empty");
            }
        }
        if x.turn == 0 {
            return bad("'turn' starts at 1");
        }
        if x.log.iter().any(|&(s, _)| usize::from(s) >= p) {
            return bad("'moves': a move of a seat that is not at the table");
        }
        // what the seats know (the re-deal of hidden cards relies on it)
        let n_entries = x.entries.len();
        if x.entry_draws.len() != n_entries || x.entry_draws.iter().any(|d| d.len() != p) {
            return bad("'knowledge': 'entry_draws' needs one count per seat for every entry");
        }
        let mut entry_of = vec![0u32; total];
        for (j, cards) in x.entries.iter().enumerate() {
            let mut seen = vec![false; total];
            for &c in cards {
                let c = usize::from(c);
                if c >= total || seen[c] {
                    return bad("'knowledge': an entry holds a card twice or no card of the game");
                }
                seen[c] = true;
                entry_of[c] = j as u32 + 1;
            }
        }
        for k in 0..p {
            let mut prev = 0;
            for d in &x.entry_draws {
                if d[k] < prev || d[k] > x.drawn[k] {
                    return bad(
                        "'knowledge': a draw count at an entry exceeds a later or the current one",
                    );
                }
                prev = d[k];
            }
        }
        if x.played
            .iter()
            .flatten()
            .any(|&e| e == 0 || e as usize > n_entries)
        {
            return bad("'knowledge': 'played' names an entry that does not exist");
        }
        let mut pinned_by = vec![None; total];
        for (k, pins) in x.pinned.iter().enumerate() {
            for &c in pins {
                let i = usize::from(c);
                if i >= total || pinned_by[i].is_some_and(|j| j != k) {
                    return bad(
                        "'knowledge': 'pinned' names no card of the game or one card for two seats",
                    );
                }
                pinned_by[i] = Some(k);
                if x.payoffs
                    .iter()
                    .enumerate()
                    .any(|(j, pile)| j != k && pile.contains(&c))
                {
                    return bad("'knowledge': a pinned card is in another seat's pay-off pile");
                }
            }
        }
        if x.payoffs
            .iter()
            .flatten()
            .any(|&c| entry_of[usize::from(c)] > 0)
        {
            return bad("'knowledge': a card that went back into the stock is in a pay-off pile");
        }
        for k in 0..p {
            for j in 1..=n_entries {
                let drew = x.drawn[k] - x.entry_draws[j - 1][k];
                let held = x.hands[k]
                    .iter()
                    .filter(|&&c| entry_of[usize::from(c)] as usize >= j)
                    .count();
                let played = x.played[k].iter().filter(|&&e| e as usize >= j).count();
                if (held + played) as u64 > u64::from(drew) {
                    return Err(BadState(format!(
                        "'knowledge': seat {k} holds or played more cards of entry {j} and later than it drew since"
                    )));
                }
            }
        }
        st.deck_order = x.deck_order;
        st.payoffs = x.payoffs;
        st.hands = x.hands;
        st.sides = x.sides;
        st.center = x.center;
        st.stock = x.stock;
        st.used = x.used;
        st.current = x.current;
        st.first_player = x.first_player;
        st.turn = x.turn;
        st.over = x.over;
        st.winner = x.winner;
        st.end_reason = x.end_reason;
        st.scores = x.scores;
        st.events = x.events;
        st.reshuffles = x.reshuffles;
        st.log = x.log;
        st.pinned = x.pinned;
        st.entries = x.entries;
        st.entry_draws = x.entry_draws;
        st.drawn = x.drawn;
        st.played = x.played;
        st.entry_of = entry_of;
        Ok(st)
    }
}

impl games::State for State {
    fn num_players(&self) -> usize {
        self.rules.players
    }

    fn num_actions(&self) -> usize {
        self.layout.num_actions()
    }

    fn current_player(&self) -> Option<usize> {
        (!self.over).then_some(self.current)
    }

    fn is_over(&self) -> bool {
        self.over
    }

    fn legal_actions(&self) -> Vec<usize> {
        self.legal_actions_vec()
    }

    fn apply_action(&mut self, action: i64) -> Result<(), IllegalMove> {
        match self.move_of_action(action) {
            Some(mv) => {
                self.play(mv);
                Ok(())
            }
            None => Err(IllegalMove(format!("action {action} is not legal now"))),
        }
    }

    /// The batch engine's step: the action was checked against this position's mask, so
    /// the legal actions are not listed a second time.
    fn apply_checked_action(&mut self, action: i64) {
        let decoded = usize::try_from(action)
            .ok()
            .filter(|&a| !self.over && a < self.layout.num_actions())
            .and_then(|a| self.decode_action(a));
        match decoded {
            Some(mv) => self.play(mv),
            None => debug_assert!(false, "action {action} was not checked legal"),
        }
    }

    fn returns(&self) -> Vec<f64> {
        (0..self.rules.players)
            .map(|s| match self.winner {
                Some(w) if self.over && w == s => 1.0,
                Some(_) if self.over => -1.0,
                _ => 0.0,
            })
            .collect()
    }

    fn observation_size(&self) -> usize {
        self.rules.observation_size()
    }

    fn write_observation(&self, seat: usize, out: &mut [f32]) {
        super::observe::write(self, seat, out);
    }

    fn resample_hidden(&self, seat: usize, seed: u64) -> Self {
        super::resample::resample_hidden(self, seat, seed)
    }
}
