//! The game in progress: deal, turns, going out, rebuilds, scoring, and the history a replay
//! and the re-deal of hidden cards read.

use super::Round;
use super::{CODE_DRAW_DISCARD, CODE_DRAW_STOCK, DISCARD, DRAW_DISCARD, DRAW_STOCK, ROUNDS, Rules};
use crate::card;
use crate::games::{self, BadState, IllegalMove, is_permutation};
use crate::meld;
use crate::rng::CardRng;
use crate::shuffle::permutation;

/// What the seat to play must do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Take the stock's top or the discard pile's top.
    Draw,
    /// Put one card of the hand on the discard pile.
    Discard,
    /// The game has ended.
    Over,
}

impl Phase {
    /// The name documents and observations use.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Draw => "draw",
            Self::Discard => "discard",
            Self::Over => "over",
        }
    }
}

/// A whole Three-Thirteen game (11 rounds).
///
/// Hidden information: the hands, the stock and its order, the history of deck orders and the
/// deck stream; a seat sees only what [`State::write_observation`] (or the accessors a view
/// reads) shows it.
#[derive(Clone, Debug)]
pub struct State {
    pub(super) rules: Rules,
    pub(super) seed: u64,
    pub(super) rng: CardRng,
    /// Deck orders to deal instead of shuffling, by round (1-based; tests and analysis).
    pub(super) stacked: Vec<(u32, Vec<u8>)>,
    pub(super) first_dealer: usize,
    pub(super) dealer: usize,
    pub(super) round: u32,
    pub(super) phase: Phase,
    pub(super) drawn: Option<u8>,
    pub(super) drawn_from_discard: bool,
    /// The round in play: hands (each sorted by id), stock, pile, the seat to play (the last
    /// seat that played once over), pickups, turn counters and the seat out.
    pub(super) play: Round,
    /// The round's up-card (the pile's first card).
    pub(super) upcard: u8,
    /// `(seat, card)` of every discard since the deal or the last stock rebuild.
    pub(super) discards: Vec<(u8, u8)>,
    pub(super) totals: Vec<u64>,
    pub(super) round_scores: Vec<Vec<u64>>,
    pub(super) went_out: Vec<Option<usize>>,
    /// Each round's dealt deck order (emptied by a re-deal of hidden cards).
    pub(super) deck_orders: Vec<Vec<u8>>,
    /// Each round's moves as `(seat, code)`: [`CODE_DRAW_STOCK`], [`CODE_DRAW_DISCARD`] or the
    /// discarded card.
    pub(super) move_log: Vec<Vec<(u8, i16)>>,
    /// Each round's stock rebuilds, each new stock top card first.
    pub(super) rebuilds: Vec<Vec<Vec<u8>>>,
    /// Rebuild orders to use instead of shuffling, last first (only while a state document's
    /// history is replayed to check it; empty otherwise).
    script: Vec<Vec<u8>>,
    /// A scripted rebuild order was not an order of the pile's cards.
    script_bad: bool,
}

/// A state given field by field (what a state document holds), checked by
/// [`State::from_parts`].
#[derive(Clone, Debug)]
#[allow(missing_docs)]
pub struct StateParts {
    pub seed: u64,
    pub rng: [u64; 4],
    pub stacked: Vec<(u32, Vec<u8>)>,
    pub first_dealer: usize,
    pub dealer: usize,
    pub round: u32,
    pub current: usize,
    pub phase: Phase,
    pub drawn: Option<u8>,
    pub drawn_from_discard: bool,
    pub hands: Vec<Vec<u8>>,
    pub stock: Vec<u8>,
    pub pile: Vec<u8>,
    pub upcard: u8,
    pub discards: Vec<(u8, u8)>,
    pub taken: Vec<Vec<u8>>,
    pub own_turns: Vec<u32>,
    pub turn_in_round: u32,
    pub out_seat: Option<usize>,
    pub final_left: usize,
    pub totals: Vec<u64>,
    pub round_scores: Vec<Vec<u64>>,
    pub went_out: Vec<Option<usize>>,
    pub deck_orders: Vec<Vec<u8>>,
    pub move_log: Vec<Vec<(u8, i16)>>,
    pub rebuilds: Vec<Vec<Vec<u8>>>,
}

/// The optimal deadwood of `hand` (card ids) in a round with `wild` wild.
fn deadwood_of(rules: &Rules, wild: u32, hand: &[u8]) -> u32 {
    let faces: Vec<u8> = hand.iter().map(|&c| rules.meld_face(c)).collect();
    // the hands are valid by construction: the solver cannot fail on them
    meld::min_deadwood(&faces, wild, &rules.meld).unwrap_or(u32::MAX)
}

/// Whether `hand` (card ids) has no deadwood in a round with `wild` wild (the solver runs
/// only for a hand that may meld every natural: [`meld::may_meld_every_natural`]).
fn goes_out(rules: &Rules, wild: u32, hand: &[u8]) -> bool {
    let mut faces = [0u8; meld::MAX_HAND];
    for (f, &c) in faces.iter_mut().zip(hand) {
        *f = rules.meld_face(c);
    }
    let faces = &faces[..hand.len().min(meld::MAX_HAND)];
    meld::may_meld_every_natural(faces, wild as u8)
        && meld::min_deadwood(faces, wild, &rules.meld).unwrap_or(u32::MAX) == 0
}

/// The text of a move's replay code (`str(move)` in Python).
fn code_text(code: i64) -> String {
    match code {
        CODE_DRAW_STOCK => "draw-stock".to_owned(),
        CODE_DRAW_DISCARD => "draw-discard".to_owned(),
        c => format!("discard:{c}"),
    }
}

impl State {
    /// A new game dealt from `seed`; `stacked` deck orders (by 1-based round) are dealt
    /// instead of shuffling (the deck stream is then not used for that round's deal).
    ///
    /// # Errors
    /// The rules cannot be played, or a stacked deck is not a permutation of the cards.
    pub fn new(rules: Rules, seed: u64, stacked: Vec<(u32, Vec<u8>)>) -> Result<Self, BadState> {
        if !rules.check() {
            return Err(BadState("three-thirteen options out of range".into()));
        }
        let mut rng = CardRng::for_stream(seed, 0, "deck");
        let first_dealer = match rules.first_dealer {
            Some(d) => d,
            None => rng.below(rules.players as u64) as usize,
        };
        let p = rules.players;
        let mut st = Self {
            rules,
            seed,
            rng,
            stacked,
            first_dealer,
            dealer: first_dealer,
            round: 0,
            phase: Phase::Draw,
            drawn: None,
            drawn_from_discard: false,
            play: Round {
                hands: vec![Vec::new(); p],
                taken: vec![Vec::new(); p],
                own_turns: vec![0; p],
                ..Round::default()
            },
            upcard: 0,
            discards: Vec::new(),
            totals: vec![0; p],
            round_scores: Vec::new(),
            went_out: Vec::new(),
            deck_orders: Vec::new(),
            move_log: Vec::new(),
            rebuilds: Vec::new(),
            script: Vec::new(),
            script_bad: false,
        };
        if let Some(k) = st
            .stacked
            .iter()
            .position(|(_, d)| !is_permutation(d.iter().copied(), rules.total_cards()))
        {
            let round = st.stacked[k].0;
            return Err(BadState(format!(
                "stacked deck for round {round} is not a permutation of the cards"
            )));
        }
        st.deal(1);
        Ok(st)
    }

    fn deal(&mut self, round: u32) {
        let p = self.rules.players;
        let n = round as usize + 2;
        let deck: Vec<u8> = match self.stacked.iter().find(|(r, _)| *r == round) {
            Some((_, d)) => d.clone(),
            None => permutation(&mut self.rng, self.rules.total_cards())
                .into_iter()
                .map(|c| c as u8)
                .collect(),
        };
        self.round = round;
        let first = (self.dealer + 1) % p;
        for h in &mut self.play.hands {
            h.clear();
        }
        for (k, &c) in deck[..p * n].iter().enumerate() {
            self.play.hands[(first + k) % p].push(c);
        }
        for h in &mut self.play.hands {
            h.sort_unstable();
        }
        self.upcard = deck[p * n];
        self.play.pile.clear();
        self.play.pile.push(self.upcard);
        self.play.stock.clear();
        self.play.stock.extend(deck[p * n + 1..].iter().rev());
        self.deck_orders.push(deck);
        self.move_log.push(Vec::new());
        self.rebuilds.push(Vec::new());
        self.discards.clear();
        for t in &mut self.play.taken {
            t.clear();
        }
        self.play.own_turns.fill(0);
        self.play.turns = 0;
        self.play.out = None;
        self.play.final_left = 0;
        self.play.current = first;
        self.phase = Phase::Draw;
        self.drawn = None;
        self.drawn_from_discard = false;
    }

    /// Start of a turn: rebuilds the stock from the discard pile if it is empty.
    fn begin_turn(&mut self) {
        self.phase = Phase::Draw;
        self.drawn = None;
        self.drawn_from_discard = false;
        if !self.play.stock.is_empty() {
            return;
        }
        // the deck stream's permutation of the pile (or a scripted order), recorded
        let (rng, script, script_bad) = (&mut self.rng, &mut self.script, &mut self.script_bad);
        let rebuilds = &mut self.rebuilds;
        self.play.rebuild_stock(|cards| {
            let rebuilt: Vec<u8> = if let Some(order) = script.pop() {
                let (mut a, mut b) = (order.clone(), cards.clone());
                a.sort_unstable();
                b.sort_unstable();
                *script_bad |= a != b;
                order
            } else {
                let order = permutation(rng, cards.len());
                order.iter().map(|&i| cards[usize::from(i)]).collect()
            };
            cards.clear();
            cards.extend(rebuilt.iter().rev());
            if let Some(r) = rebuilds.last_mut() {
                r.push(rebuilt);
            }
        });
        self.discards.clear();
    }

    /// `seat`'s optimal deadwood now.
    #[must_use]
    pub fn deadwood(&self, seat: usize) -> u32 {
        deadwood_of(&self.rules, self.wild_rank(), &self.play.hands[seat])
    }

    fn end_round(&mut self) {
        let p = self.rules.players;
        let (rules, wild) = (&self.rules, self.wild_rank());
        let scores: Vec<u64> = (0..p)
            .map(|s| u64::from(self.play.score(s, |h| deadwood_of(rules, wild, h))))
            .collect();
        for (t, s) in self.totals.iter_mut().zip(&scores) {
            *t += s;
        }
        self.round_scores.push(scores);
        self.went_out.push(self.play.out);
        if self.round >= ROUNDS {
            self.phase = Phase::Over;
            return;
        }
        self.dealer = (self.dealer + 1) % p;
        self.deal(self.round + 1);
    }

    /// The card that may not be discarded now, if any.
    #[must_use]
    pub fn banned(&self) -> Option<u8> {
        let (forbid, from_pile) = (self.rules.forbid_return, self.drawn_from_discard);
        self.drawn
            .and_then(|card| super::banned_after_draw(forbid, from_pile, card))
    }

    /// The card that action `action` discards now (the lowest copy of its face that may be
    /// discarded), if it is legal.
    fn discard_card(&self, action: usize) -> Option<u8> {
        let banned = self.banned();
        self.play.hands[self.play.current]
            .iter()
            .copied()
            .find(|&c| DISCARD + self.rules.face(c) == action && Some(c) != banned)
    }

    /// The replay code of action `action` for the seat to play.
    ///
    /// # Errors
    /// `action` is no action of the game, or not legal now.
    pub fn action_code(&self, action: i64) -> Result<i64, IllegalMove> {
        match usize::try_from(action) {
            Ok(DRAW_STOCK) => Ok(CODE_DRAW_STOCK),
            Ok(DRAW_DISCARD) => Ok(CODE_DRAW_DISCARD),
            Ok(a) if (DISCARD..DISCARD + 53).contains(&a) => {
                if self.phase == Phase::Discard {
                    if let Some(c) = self.discard_card(a) {
                        return Ok(i64::from(c));
                    }
                }
                Err(IllegalMove(format!("action {action} is not legal now")))
            }
            _ => Err(IllegalMove(format!("no three-thirteen action {action}"))),
        }
    }

    /// Whether action id `action` is legal now.
    #[must_use]
    pub fn is_legal_action(&self, action: i64) -> bool {
        match self.action_code(action) {
            Ok(code) if code < 0 => self.phase == Phase::Draw,
            Ok(_) => true,
            Err(_) => false,
        }
    }

    /// Plays the move of replay code `code` for the seat to play: [`CODE_DRAW_STOCK`],
    /// [`CODE_DRAW_DISCARD`], or the id of the card to discard.
    ///
    /// # Errors
    /// The move is not legal now (nothing changes).
    pub fn apply_code(&mut self, code: i64) -> Result<(), IllegalMove> {
        let seat = self.play.current;
        match self.phase {
            Phase::Over => Err(IllegalMove("the game is over".into())),
            Phase::Draw => {
                let from_pile = match code {
                    CODE_DRAW_STOCK => false,
                    CODE_DRAW_DISCARD => true,
                    _ => {
                        return Err(IllegalMove(format!(
                            "seat {seat} must draw (stock or discard pile), not {}",
                            code_text(code)
                        )));
                    }
                };
                // a turn starts with cards in the stock and on the pile (begin_turn)
                let (card, _) = self.play.draw(from_pile, true).unwrap_or_default();
                self.drawn_from_discard = from_pile;
                self.drawn = Some(card);
                self.phase = Phase::Discard;
                self.log(seat, code);
                Ok(())
            }
            Phase::Discard => {
                if code < 0 {
                    return Err(IllegalMove(format!(
                        "seat {seat} must discard, not {}",
                        code_text(code)
                    )));
                }
                let held = u8::try_from(code)
                    .ok()
                    .and_then(|c| self.play.hands[seat].iter().position(|&x| x == c));
                let Some(i) = held else {
                    return Err(IllegalMove(format!(
                        "seat {seat} does not hold card {code}"
                    )));
                };
                let card = self.play.hands[seat][i];
                if self.banned() == Some(card) {
                    return Err(IllegalMove(
                        "the card taken from the discard pile may not be returned".into(),
                    ));
                }
                self.discards.push((seat as u8, card));
                self.log(seat, code);
                let (rules, wild) = (&self.rules, self.wild_rank());
                let going = self
                    .play
                    .discard(i, rules.min_own_turns, rules.max_turns, |h| {
                        goes_out(rules, wild, h)
                    });
                if going {
                    self.begin_turn();
                } else {
                    self.end_round();
                }
                Ok(())
            }
        }
    }

    fn log(&mut self, seat: usize, code: i64) {
        if let Some(log) = self.move_log.last_mut() {
            log.push((seat as u8, code as i16));
        }
    }

    /// The legal moves of the seat to play as replay codes (one per physical card).
    #[must_use]
    pub fn legal_codes(&self) -> Vec<i64> {
        match self.phase {
            Phase::Draw => vec![CODE_DRAW_STOCK, CODE_DRAW_DISCARD],
            Phase::Over => Vec::new(),
            Phase::Discard => {
                let banned = self.banned();
                self.play.hands[self.play.current]
                    .iter()
                    .filter(|&&c| Some(c) != banned)
                    .map(|&c| i64::from(c))
                    .collect()
            }
        }
    }

    // -- read access (views, documents, agents) ---------------------------------------------

    /// The rules of the game.
    #[must_use]
    pub fn rules(&self) -> &Rules {
        &self.rules
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
    /// The stacked deck orders by round.
    #[must_use]
    pub fn stacked(&self) -> &[(u32, Vec<u8>)] {
        &self.stacked
    }
    /// The first round's dealer.
    #[must_use]
    pub fn first_dealer(&self) -> usize {
        self.first_dealer
    }
    /// This round's dealer.
    #[must_use]
    pub fn dealer(&self) -> usize {
        self.dealer
    }
    /// The round, 1..=11.
    #[must_use]
    pub fn round(&self) -> u32 {
        self.round
    }
    /// The wild rank (cards dealt) of this round.
    #[must_use]
    pub fn wild_rank(&self) -> u32 {
        self.round + 2
    }
    /// The seat to play (the last seat that played once over).
    #[must_use]
    pub fn current(&self) -> usize {
        self.play.current
    }
    /// The phase.
    #[must_use]
    pub fn phase(&self) -> Phase {
        self.phase
    }
    /// The card the seat to play drew this turn.
    #[must_use]
    pub fn drawn(&self) -> Option<u8> {
        self.drawn
    }
    /// Whether that card came from the discard pile.
    #[must_use]
    pub fn drawn_from_discard(&self) -> bool {
        self.drawn_from_discard
    }
    /// Every seat's hand, sorted by id.
    #[must_use]
    pub fn hands(&self) -> &[Vec<u8>] {
        &self.play.hands
    }
    /// The stock, top card last.
    #[must_use]
    pub fn stock(&self) -> &[u8] {
        &self.play.stock
    }
    /// The discard pile, top card last.
    #[must_use]
    pub fn pile(&self) -> &[u8] {
        &self.play.pile
    }
    /// The round's up-card.
    #[must_use]
    pub fn upcard(&self) -> u8 {
        self.upcard
    }
    /// `(seat, card)` of every discard since the deal or the last rebuild.
    #[must_use]
    pub fn discards(&self) -> &[(u8, u8)] {
        &self.discards
    }
    /// The pile cards each seat took this round and still holds.
    #[must_use]
    pub fn taken(&self) -> &[Vec<u8>] {
        &self.play.taken
    }
    /// Each seat's completed turns this round.
    #[must_use]
    pub fn own_turns(&self) -> &[u32] {
        &self.play.own_turns
    }
    /// Turns completed this round.
    #[must_use]
    pub fn turn_in_round(&self) -> u32 {
        self.play.turns
    }
    /// The seat that went out this round.
    #[must_use]
    pub fn out_seat(&self) -> Option<usize> {
        self.play.out
    }
    /// Final turns left after a seat went out.
    #[must_use]
    pub fn final_left(&self) -> usize {
        self.play.final_left
    }
    /// Penalty totals (lower is better).
    #[must_use]
    pub fn totals(&self) -> &[u64] {
        &self.totals
    }
    /// Each finished round's scores.
    #[must_use]
    pub fn round_scores(&self) -> &[Vec<u64>] {
        &self.round_scores
    }
    /// The seat that went out in each finished round.
    #[must_use]
    pub fn went_out(&self) -> &[Option<usize>] {
        &self.went_out
    }
    /// Each round's dealt deck order.
    #[must_use]
    pub fn deck_orders(&self) -> &[Vec<u8>] {
        &self.deck_orders
    }
    /// Each round's moves as `(seat, code)`.
    #[must_use]
    pub fn move_log(&self) -> &[Vec<(u8, i16)>] {
        &self.move_log
    }
    /// Each round's stock rebuilds.
    #[must_use]
    pub fn rebuilds(&self) -> &[Vec<Vec<u8>>] {
        &self.rebuilds
    }

    /// The winning seats of a finished game: the lowest total alone, or every seat sharing it
    /// under `shared_win` (none when tied otherwise).
    #[must_use]
    pub fn winners(&self) -> Vec<usize> {
        let low = self.totals.iter().copied().min().unwrap_or(0);
        let best: Vec<usize> = (0..self.rules.players)
            .filter(|&s| self.totals[s] == low)
            .collect();
        if best.len() > 1 && !self.rules.shared_win {
            Vec::new()
        } else {
            best
        }
    }

    // -- a state given field by field ---------------------------------------------------------

    /// The state `parts` describes, after checking the invariants the rules rely on.
    ///
    /// # Errors
    /// A field out of range, or fields that disagree (cards not conserved, hand sizes, the
    /// drawn card, the history, ...), named in the message.
    pub fn from_parts(rules: Rules, x: StateParts) -> Result<Self, BadState> {
        let bad = |m: &str| Err(BadState(m.to_owned()));
        if !rules.check() {
            return bad("three-thirteen options out of range");
        }
        let p = rules.players;
        let total = rules.total_cards();
        let Some(rng) = CardRng::from_state(x.rng) else {
            return bad("'rng' is the all-zero state");
        };
        if !(1..=ROUNDS).contains(&x.round) {
            return bad("'round' out of range");
        }
        let seats_ok = x.first_dealer < p && x.dealer < p && x.current < p;
        let lists_ok = [
            x.hands.len(),
            x.taken.len(),
            x.own_turns.len(),
            x.totals.len(),
        ]
        .iter()
        .all(|&n| n == p);
        if !seats_ok || !lists_ok {
            return bad("a seat or a per-seat list does not fit the table");
        }
        let over = x.phase == Phase::Over;
        let n = x.round as usize + 2;
        let cards = x
            .hands
            .iter()
            .flatten()
            .chain(&x.stock)
            .chain(&x.pile)
            .copied();
        if !is_permutation(cards, total) {
            return bad("the hands, stock and discard pile do not hold every card once");
        }
        let mut hands = x.hands;
        for (s, h) in hands.iter_mut().enumerate() {
            h.sort_unstable();
            let want = if s == x.current && x.phase == Phase::Discard {
                n + 1
            } else {
                n
            };
            if h.len() != want {
                return Err(BadState(format!(
                    "seat {s} holds {} cards, not {want}",
                    h.len()
                )));
            }
            if !x.taken[s].iter().all(|c| h.contains(c)) {
                return Err(BadState(format!(
                    "seat {s}'s taken cards are not in its hand"
                )));
            }
        }
        if x.phase == Phase::Discard && !x.drawn.is_some_and(|d| hands[x.current].contains(&d)) {
            return bad("the drawn card is not in the hand of the seat to play");
        }
        if x.phase == Phase::Draw && x.pile.is_empty() {
            return bad("the discard pile is empty at the start of a turn");
        }
        if x.out_seat.is_some_and(|s| s >= p) || x.went_out.iter().flatten().any(|&s| s >= p) {
            return bad("a seat that went out is not at the table");
        }
        if !over && x.out_seat.is_none() != (x.final_left == 0) {
            return bad("'final_left' and 'out_seat' disagree");
        }
        if x.final_left >= p {
            return bad("'final_left' out of range");
        }
        let r = x.round as usize;
        if x.deck_orders.len() != r || x.move_log.len() != r || x.rebuilds.len() != r {
            return bad("the history does not have one entry per round");
        }
        if x.round_scores.len() != x.went_out.len()
            || x.round_scores.len() != r - usize::from(!over)
            || x.round_scores.iter().any(|s| s.len() != p)
        {
            return bad("the round scores do not match the round");
        }
        if x.deck_orders
            .iter()
            .any(|d| !d.is_empty() && !is_permutation(d.iter().copied(), total))
        {
            return bad("a recorded deck order is not a permutation of the cards");
        }
        if x.move_log
            .iter()
            .flatten()
            .any(|&(s, _)| usize::from(s) >= p)
            || x.discards.iter().any(|&(s, _)| usize::from(s) >= p)
        {
            return bad("a move of a seat that is not at the table");
        }
        for (k, d) in &x.stacked {
            if !is_permutation(d.iter().copied(), total) {
                return Err(BadState(format!(
                    "the stacked deck of round {k} is not a permutation"
                )));
            }
        }
        if usize::from(x.upcard) >= total || x.drawn.is_some_and(|d| usize::from(d) >= total) {
            return bad("a card id out of range");
        }
        let st = Self {
            rules,
            seed: x.seed,
            rng,
            stacked: x.stacked,
            first_dealer: x.first_dealer,
            dealer: x.dealer,
            round: x.round,
            phase: x.phase,
            drawn: x.drawn,
            drawn_from_discard: x.drawn_from_discard,
            play: Round {
                hands,
                stock: x.stock,
                pile: x.pile,
                current: x.current,
                out: x.out_seat,
                final_left: x.final_left,
                turns: x.turn_in_round,
                own_turns: x.own_turns,
                taken: x.taken,
            },
            upcard: x.upcard,
            discards: x.discards,
            totals: x.totals,
            round_scores: x.round_scores,
            went_out: x.went_out,
            deck_orders: x.deck_orders,
            move_log: x.move_log,
            rebuilds: x.rebuilds,
            script: Vec::new(),
            script_bad: false,
        };
        st.check_scores()?;
        st.check_round_log()?;
        st.check_replay()?;
        Ok(st)
    }
}

impl State {
    /// The finished rounds' scores add up to the totals; a seat that went out scored 0; the
    /// dealer is the first dealer moved on once a round.
    fn check_scores(&self) -> Result<(), BadState> {
        let p = self.rules.players;
        for s in 0..p {
            let sum: u64 = self.round_scores.iter().map(|r| r[s]).sum();
            if sum != self.totals[s] {
                return Err(BadState(format!(
                    "seat {s}'s total is not the sum of its round scores"
                )));
            }
        }
        let out_scored = self
            .went_out
            .iter()
            .zip(&self.round_scores)
            .all(|(o, r)| o.is_none_or(|s| r[s] == 0));
        if !out_scored {
            return Err(BadState("a seat that went out has a round score".into()));
        }
        if self.dealer != (self.first_dealer + self.round as usize - 1) % p {
            return Err(BadState(
                "'dealer' is not the first dealer moved on once a round".into(),
            ));
        }
        if self.play.taken.iter().any(|t| {
            let mut t = t.clone();
            t.sort_unstable();
            t.windows(2).any(|w| w[0] == w[1])
        }) {
            return Err(BadState("a card is listed twice in 'taken'".into()));
        }
        Ok(())
    }

    /// The current round's moves are whole turns of the seats in order, as many as the turn
    /// counters say, ending where the seat to play and the phase are.
    fn check_round_log(&self) -> Result<(), BadState> {
        let p = self.rules.players;
        let bad = |m: &str| Err(BadState(format!("the move history: {m}")));
        let log = &self.move_log[self.round as usize - 1];
        let first = (self.dealer + 1) % p;
        let mut own = vec![0u32; p];
        for (k, &(seat, code)) in log.iter().enumerate() {
            let turn = k / 2;
            if usize::from(seat) != (first + turn) % p {
                return bad("a move out of turn");
            }
            let draw = k % 2 == 0;
            if draw != (i64::from(code) < 0) || !(-2..=255).contains(&code) {
                return bad("not a draw then a discard each turn");
            }
            if !draw {
                own[usize::from(seat)] += 1;
            }
        }
        let over = self.phase == Phase::Over;
        let discarding = usize::from(self.phase == Phase::Discard);
        if !over && log.len() != 2 * self.play.turns as usize + discarding {
            return bad("it does not match 'turn_in_round' and 'phase'");
        }
        if own != self.play.own_turns {
            return bad("it does not match 'own_turns'");
        }
        if !over && self.play.current != (first + self.play.turns as usize) % p {
            return bad("'current' is not the seat whose turn it is");
        }
        if self
            .play
            .out
            .is_some_and(|s| !over && s == self.play.current)
        {
            return bad("the seat that went out is to play again");
        }
        Ok(())
    }

    /// Where the round's dealt deck is known (not after a re-deal of hidden cards): the round
    /// dealt from it and played by its moves and rebuilds gives this state.
    fn check_replay(&self) -> Result<(), BadState> {
        let r = self.round as usize - 1;
        let deck = &self.deck_orders[r];
        if deck.is_empty() {
            return Ok(());
        }
        let mut sim = self.clone();
        sim.stacked = vec![(self.round, deck.clone())];
        sim.deck_orders.truncate(r);
        sim.move_log.truncate(r);
        sim.rebuilds.truncate(r);
        sim.script = self.rebuilds[r].iter().rev().cloned().collect();
        if self.phase == Phase::Over {
            // the log's last move ended the game: score the round again
            let last = sim.round_scores.pop().unwrap_or_default();
            sim.went_out.pop();
            for (t, s) in sim.totals.iter_mut().zip(last) {
                *t -= s;
            }
        }
        sim.deal(self.round);
        for &(_, code) in &self.move_log[r] {
            if let Err(e) = sim.apply_code(i64::from(code)) {
                return Err(BadState(format!("the move history does not replay: {e}")));
            }
        }
        let same = sim.script.is_empty()
            && !sim.script_bad
            && sim.round == self.round
            && sim.play.hands == self.play.hands
            && sim.play.stock == self.play.stock
            && sim.play.pile == self.play.pile
            && sim.upcard == self.upcard
            && sim.play.taken == self.play.taken
            && sim.discards == self.discards
            && sim.drawn == self.drawn
            && sim.drawn_from_discard == self.drawn_from_discard
            && sim.play.current == self.play.current
            && sim.phase == self.phase
            && sim.play.out == self.play.out
            && sim.play.final_left == self.play.final_left
            && sim.totals == self.totals
            && sim.round_scores == self.round_scores
            && sim.went_out == self.went_out
            && sim.rebuilds == self.rebuilds;
        if same {
            Ok(())
        } else {
            Err(BadState(
                "the round dealt from its deck and played by its moves is not this state".into(),
            ))
        }
    }
}

impl games::State for State {
    fn num_players(&self) -> usize {
        self.rules.players
    }

    fn num_actions(&self) -> usize {
        self.rules.num_actions()
    }

    fn current_player(&self) -> Option<usize> {
        (self.phase != Phase::Over).then_some(self.play.current)
    }

    fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    fn legal_actions(&self) -> Vec<usize> {
        match self.phase {
            Phase::Draw => vec![DRAW_STOCK, DRAW_DISCARD],
            Phase::Over => Vec::new(),
            Phase::Discard => {
                let mut mask = [false; DISCARD + card::JOKER0 as usize + 1];
                let banned = self.banned();
                for &c in &self.play.hands[self.play.current] {
                    if Some(c) != banned {
                        mask[DISCARD + self.rules.face(c)] = true;
                    }
                }
                (0..mask.len()).filter(|&a| mask[a]).collect()
            }
        }
    }

    fn write_mask(&self, mask: &mut [u8]) {
        mask.fill(0);
        match self.phase {
            Phase::Over => {}
            Phase::Draw => {
                mask[DRAW_STOCK] = 1;
                mask[DRAW_DISCARD] = 1;
            }
            Phase::Discard => {
                let banned = self.banned();
                for &c in &self.play.hands[self.play.current] {
                    if Some(c) != banned {
                        mask[DISCARD + self.rules.face(c)] = 1;
                    }
                }
            }
        }
    }

    fn apply_action(&mut self, action: i64) -> Result<(), IllegalMove> {
        let code = self.action_code(action)?;
        self.apply_code(code)
    }

    fn returns(&self) -> Vec<f64> {
        let p = self.rules.players;
        if self.phase != Phase::Over {
            return vec![0.0; p];
        }
        let winners = self.winners();
        if winners.is_empty() {
            return vec![0.0; p];
        }
        (0..p)
            .map(|s| if winners.contains(&s) { 1.0 } else { -1.0 })
            .collect()
    }

    fn observation_size(&self) -> usize {
        super::observe::observation_size(self.rules.players)
    }

    fn write_observation(&self, seat: usize, out: &mut [f32]) {
        super::observe::write(self, seat, out);
    }

    fn resample_hidden(&self, seat: usize, seed: u64) -> Self {
        super::resample::resample_hidden(self, seat, seed)
    }
}
