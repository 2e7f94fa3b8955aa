//! One Spite & Malice game stepped natively: the fast path of the PettingZoo AEC environment
//! (`cardcore.rl.pettingzoo`).
//!
//! The rules, the deck stream, the action ids and the observation tensor are those of the
//! Python engine (`cardcore.spite_malice.state.State` and `SpiteMaliceGame`), which stays the
//! reference: the tests play both with the same seeds and actions under several option sets
//! and compare every tensor, mask, seat and reward. Which actions are legal and what an id
//! plays come from [`crate::spite_actions`] (as for the Python engine's `legal_actions`); this
//! module deals, plays the transitions and writes the tensor. Cards are physical ids (jokers
//! after the naturals); piles are bottom to top.

use crate::card::{self, KING, NATURALS};
use crate::rng::CardRng;
use crate::shuffle::permutation;
use crate::spite::SideRule;
use crate::spite_actions::{Action, ActionLayout, Discards};

/// Face of every joker in action ids and tensors (jokers are interchangeable).
const JOKER_FACE: usize = card::JOKER0 as usize;
/// Rows of one centre slot in the tensor (effective ranks 0..=12).
pub const CENTER_ROWS: usize = 13;

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
#[derive(Clone, Debug)]
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

    fn naturals(&self) -> usize {
        card::natural_ids(self.decks)
    }

    fn total_cards(&self) -> usize {
        self.naturals() + if self.jokers { 2 * self.decks } else { 0 }
    }

    fn faces(&self) -> usize {
        usize::from(NATURALS) + usize::from(self.jokers)
    }

    /// Effective rank at which a centre stack is complete.
    fn top(&self) -> usize {
        if self.jokers { 13 } else { 12 }
    }

    /// Centre slots in the action ids and the tensor (`max_center_slots`).
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

    /// The action ids of these options: every physical card's face and every face's
    /// building rank, as `SpiteMaliceGame` passes them to `_core.SpiteActions`.
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
        self.layout().num_actions()
    }

    /// Length of the observation tensor.
    #[must_use]
    pub fn observation_size(&self) -> usize {
        let (p, f, s) = (self.players, self.faces(), self.side_stacks);
        f + p * f + 2 * p * s * f + self.slots() * CENTER_ROWS + 3 * p + p * s + 3
    }

    /// The face of a physical card in action ids and tensors.
    fn face(&self, card: impl Into<usize>) -> usize {
        let c = card.into();
        if card::is_joker_id(c, self.decks) {
            JOKER_FACE
        } else {
            usize::from(card::natural_face(c))
        }
    }

    /// Building value of a face: 0 for a wild card, else 1..=12 (wild kings) or 1..=13.
    fn face_rank(&self, face: usize) -> u8 {
        if face == JOKER_FACE {
            return 0;
        }
        let r = u8::try_from(face).map_or(0, card::rank);
        if r == KING && !self.jokers { 0 } else { r }
    }
}

/// An action that is not legal now (nothing was played).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IllegalAction {
    /// The action id.
    pub action: i64,
}

/// Where a played card comes from and goes to.
#[derive(Clone, Copy)]
enum Move {
    PayOff { center: usize },
    Side { side: usize, center: usize },
    Hand { card: u16, center: usize },
    Discard { card: u16, side: usize },
}

/// One game, dealt as `new_state(seed)` of the Python engine.
#[derive(Clone, Debug)]
pub struct Episode {
    rules: Rules,
    layout: ActionLayout,
    discards: Discards,
    rng: CardRng,
    payoffs: Vec<Vec<u16>>,
    hands: Vec<Vec<u16>>,
    /// `[seat][stack]`.
    sides: Vec<Vec<Vec<u16>>>,
    center: Vec<Vec<u16>>,
    stock: Vec<u16>,
    used: Vec<u16>,
    current: usize,
    turn: u32,
    over: bool,
    winner: Option<usize>,
    /// The legal action ids of the seat to play, 0/1 per id (all 0 once over).
    legal: Vec<u8>,
}

impl Episode {
    /// The game dealt from `seed` (`rules` must pass [`Rules::check`]).
    #[must_use]
    pub fn new(rules: Rules, seed: u64) -> Self {
        let mut rng = CardRng::for_stream(seed, 0, "deck");
        let order = permutation(&mut rng, rules.total_cards());
        let p = rules.players;
        let mut pos = 0;
        let mut deal = |n: usize| {
            let pile = order[pos..pos + n].to_vec();
            pos += n;
            pile
        };
        let payoffs: Vec<Vec<u16>> = (0..p).map(|_| deal(rules.payoff_size)).collect();
        let hands: Vec<Vec<u16>> = (0..p).map(|_| deal(rules.hand_size)).collect();
        let mut stock = order[pos..].to_vec();
        stock.reverse(); // the stock's top (the list end) is the next card of the deck
        let slots = rules.center_stacks.max(1);
        let layout = rules.layout();
        let mut ep = Self {
            sides: vec![vec![Vec::new(); rules.side_stacks]; p],
            center: vec![Vec::new(); slots],
            legal: vec![0; layout.num_actions()],
            discards: Discards::of(rules.side_rule, rules.must_play_aces),
            layout,
            rng,
            payoffs,
            hands,
            stock,
            used: Vec::new(),
            current: 0,
            turn: 1,
            over: false,
            winner: None,
            rules,
        };
        ep.current = ep.choose_first_player();
        if ep.rules.stock_rule == StockRule::TieImmediately && ep.stock.is_empty() {
            ep.over = true;
        }
        ep.update_legal();
        ep
    }

    fn choose_first_player(&mut self) -> usize {
        if let Some(s) = self.rules.first_player {
            return s;
        }
        let decks = self.rules.decks;
        let value = |c: u16| {
            let c = usize::from(c);
            if card::is_joker_id(c, decks) {
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
                let mut pile = std::mem::take(&mut self.payoffs[s]);
                self.shuffle_into(&mut pile);
                self.payoffs[s] = pile;
            }
            contenders = tied;
        }
        contenders[0]
    }

    /// `pile` in the order of a permutation drawn from the game's stream.
    fn shuffle_into(&mut self, pile: &mut Vec<u16>) {
        let perm = permutation(&mut self.rng, pile.len());
        *pile = perm.iter().map(|&i| pile[usize::from(i)]).collect();
    }

    /// The rules of the game.
    #[must_use]
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The seat to play; `None` once the game is over.
    #[must_use]
    pub fn current(&self) -> Option<usize> {
        (!self.over).then_some(self.current)
    }

    fn update_legal(&mut self) {
        self.legal.fill(0);
        if self.over {
            return;
        }
        let seat = self.current;
        let center: Vec<usize> = self.center.iter().map(Vec::len).collect();
        let side_tops: Vec<Option<u16>> =
            self.sides[seat].iter().map(|s| s.last().copied()).collect();
        let mut ids = Vec::new();
        self.layout
            .legal(
                &center,
                self.payoffs[seat].last().copied(),
                &side_tops,
                &self.hands[seat],
                self.discards,
                &mut ids,
            )
            .expect("the piles fit the layout");
        for a in ids {
            self.legal[a] = 1;
        }
    }

    /// The lowest-numbered card of `face` in the hand of the seat to play.
    fn hand_card(&self, face: usize) -> u16 {
        let r = &self.rules;
        self.hands[self.current]
            .iter()
            .copied()
            .filter(|&c| r.face(c) == face)
            .min()
            .unwrap_or(0)
    }

    /// Plays `action` for the seat to play.
    ///
    /// # Errors
    /// `action` is not legal now (nothing changes).
    pub fn apply(&mut self, action: i64) -> Result<(), IllegalAction> {
        let legal = usize::try_from(action)
            .ok()
            .filter(|&a| self.legal.get(a) == Some(&1));
        let Some(a) = legal else {
            return Err(IllegalAction { action });
        };
        let mv = match self.layout.decode(a).expect("a legal id is in the layout") {
            Action::PayOff { center } => Move::PayOff { center },
            Action::Side { side, center } => Move::Side { side, center },
            Action::Hand { face, center } => Move::Hand {
                card: self.hand_card(face.into()),
                center,
            },
            Action::Discard { face, side } => Move::Discard {
                card: self.hand_card(face.into()),
                side,
            },
        };
        self.play(mv);
        self.update_legal();
        Ok(())
    }

    fn take_from_hand(&mut self, seat: usize, card: u16) {
        let hand = &mut self.hands[seat];
        if let Some(i) = hand.iter().position(|&c| c == card) {
            hand.remove(i);
        }
    }

    fn play(&mut self, mv: Move) {
        let seat = self.current;
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
            self.over = true;
            self.winner = Some(seat);
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

    fn complete(&mut self, c: usize) {
        let cards = std::mem::take(&mut self.center[c]);
        if self.rules.completed_to_stock {
            let mut pile = std::mem::take(&mut self.stock);
            pile.extend(cards);
            self.shuffle_into(&mut pile);
            self.stock = pile;
        } else {
            self.used.extend(cards);
        }
        self.fix_slots();
    }

    /// Unlimited centre stacks: the stacks in play in order, then one free slot.
    fn fix_slots(&mut self) {
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

    fn required_draw(&mut self, seat: usize) {
        let need = self.rules.hand_size.saturating_sub(self.hands[seat].len());
        if need == 0 {
            return;
        }
        let rule = self.rules.stock_rule;
        if self.stock.is_empty() && rule == StockRule::RecycleThenTie && !self.used.is_empty() {
            let mut pile = std::mem::take(&mut self.used);
            self.shuffle_into(&mut pile);
            self.stock = pile;
        }
        if self.stock.is_empty() {
            self.over = true;
            return;
        }
        let n = need.min(self.stock.len());
        let drawn = self.stock.split_off(self.stock.len() - n);
        self.hands[seat].extend(drawn.iter().rev());
        if rule == StockRule::TieImmediately && self.stock.is_empty() {
            self.over = true;
        }
    }

    fn end_turn(&mut self) {
        if self.turn >= self.rules.max_turns {
            self.over = true;
            return;
        }
        self.turn += 1;
        self.current = (self.current + 1) % self.rules.players;
        self.required_draw(self.current);
    }

    /// Writes `seat`'s tensor into `obs` (`observation_size` floats) and its legal actions
    /// into `mask` (`num_actions` bytes; all 0 unless `seat` is to play).
    pub fn observe(&self, seat: usize, obs: &mut [f32], mask: &mut [u8]) {
        self.write_observation(seat, obs);
        if self.current() == Some(seat) {
            mask.copy_from_slice(&self.legal);
        } else {
            mask.fill(0);
        }
    }

    fn write_observation(&self, seat: usize, obs: &mut [f32]) {
        let r = &self.rules;
        let (p, f, n_sides) = (r.players, r.faces(), r.side_stacks);
        let payoff_tops = f;
        let side_tops = payoff_tops + p * f;
        let side_cards = side_tops + p * n_sides * f;
        let center = side_cards + p * n_sides * f;
        let to_move = center + r.slots() * CENTER_ROWS;
        let payoff_counts = to_move + p;
        let hand_sizes = payoff_counts + p;
        let side_sizes = hand_sizes + p;
        let counts = side_sizes + p * n_sides;
        obs.fill(0.0);
        for &c in &self.hands[seat] {
            obs[r.face(c)] += 1.0;
        }
        for rel in 0..p {
            let k = (seat + rel) % p;
            if let Some(&top) = self.payoffs[k].last() {
                obs[payoff_tops + rel * f + r.face(top)] += 1.0;
            }
            for (i, side) in self.sides[k].iter().enumerate() {
                let block = (rel * n_sides + i) * f;
                if let Some(&top) = side.last() {
                    obs[side_tops + block + r.face(top)] += 1.0;
                }
                for &c in side {
                    obs[side_cards + block + r.face(c)] += 1.0;
                }
                obs[side_sizes + rel * n_sides + i] = side.len() as f32;
            }
            obs[payoff_counts + rel] = self.payoffs[k].len() as f32;
            obs[hand_sizes + rel] = self.hands[k].len() as f32;
        }
        for (i, stack) in self.center.iter().enumerate() {
            obs[center + i * CENTER_ROWS + stack.len()] += 1.0;
        }
        if !self.over {
            obs[to_move + (self.current + p - seat) % p] += 1.0;
        }
        obs[counts] = self.stock.len() as f32;
        obs[counts + 1] = self.used.len() as f32;
        obs[counts + 2] = self.turn as f32;
    }

    /// Writes `returns()` into `out` (`players` floats): +1 for the winner, -1 for the others;
    /// all 0 before the end and after a tie.
    pub fn write_returns(&self, out: &mut [f32]) {
        for (s, x) in out.iter_mut().enumerate() {
            *x = match self.winner {
                None => 0.0,
                Some(w) if w == s => 1.0,
                Some(_) => -1.0,
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules() -> Rules {
        Rules {
            players: 2,
            decks: 2,
            jokers: false,
            payoff_size: 20,
            hand_size: 5,
            side_stacks: 4,
            center_stacks: 3,
            king_can_start: true,
            refill_empty_hand: true,
            completed_to_stock: true,
            stock_rule: StockRule::TieOnRequiredDraw,
            side_rule: SideRule::Any,
            must_play_aces: false,
            first_player: None,
            max_turns: 1000,
        }
    }

    #[test]
    fn sizes_of_the_default_game() {
        let r = rules();
        assert!(r.check());
        assert_eq!(r.num_actions(), 379);
        assert_eq!(r.slots(), 3);
    }

    #[test]
    fn random_games_end_and_keep_every_card() {
        for (seed, center_stacks) in [(1_u64, 3), (2, 0), (3, 0)] {
            let r = Rules {
                center_stacks,
                ..rules()
            };
            let total = r.total_cards();
            let mut ep = Episode::new(r.clone(), seed);
            let mut rng = CardRng::new(seed);
            let mut obs = vec![0.0; r.observation_size()];
            let mut mask = vec![0; r.num_actions()];
            while let Some(seat) = ep.current() {
                ep.observe(seat, &mut obs, &mut mask);
                let legal: Vec<usize> = (0..mask.len()).filter(|&a| mask[a] == 1).collect();
                assert!(!legal.is_empty());
                let a = legal[rng.below(legal.len() as u64) as usize];
                assert!(ep.apply(-1).is_err());
                ep.apply(a as i64).expect("a legal action");
                let mut cards: Vec<u16> = ep.stock.clone();
                cards.extend(&ep.used);
                for pile in ep.payoffs.iter().chain(&ep.hands).chain(&ep.center) {
                    cards.extend(pile);
                }
                for side in ep.sides.iter().flatten() {
                    cards.extend(side);
                }
                cards.sort_unstable();
                assert!(cards.iter().copied().map(usize::from).eq(0..total));
            }
        }
    }
}
