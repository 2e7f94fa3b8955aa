//! The Three-Thirteen `expert` agent: determinized Monte Carlo over the rest of the round.
//!
//! At each decision the agent deals the cards it has not seen at random (consistently with what
//! it sees: its hand, the discard pile, the pile cards each opponent took and still holds, hand
//! and stock sizes), plays every candidate move in that deal, and finishes the round with a fast
//! greedy policy for every seat (take the pile top only if it lowers the optimal deadwood,
//! discard to the lowest deadwood; with `hard_rollouts` the seat's own later turns are the
//! `hard` agent's). A deal is shared by all candidates (common random numbers),
//! so the comparison between candidates is much tighter than each estimate. The score of a
//! rollout is the mean round score of the opponents minus the seat's own.
//!
//! Candidates: draw from the stock or take the pile top; or the discards (one per face) within
//! `slack` points of the least deadwood, at most `max_candidates`. The `hard` agent's choice is
//! the default and is always a candidate; another candidate replaces it only when its mean is
//! ahead by more than `margin` standard errors of the paired difference (search overrides the
//! heuristic only where the samples say so).
//!
//! The searches ([`Search`]): `ValueDraw` (the default) and `Value` value `hard`'s discards by
//! a learned value and deal nothing (`three_thirteen_value`; `ValueDraw` also decides the draws
//! `hard` weighs by a learned draw value); `Lap` and `LapHard` weigh `hard`'s moves by the
//! chance that the round ends before the seat's next turn; `Round` is the search above with
//! greedy rollouts; `Pimc` plays `hard`'s candidates to the end of the round with the `hard`
//! agent for every seat (the opponents as they really play when they are `hard`).
//!
//! The budget is a number of deals (`rollouts`, deterministic) or, when `time_limit` is set, as
//! many deals as fit in that time (at least one; not reproducible). Every random choice comes
//! from `seed`.
//!
//! The deal (with `infer_hands` off) is uniform over what the seat cannot tell apart while the
//! round has had no stock rebuild; after one, an opponent's hidden cards are dealt from all
//! unseen cards (the engine's `resample_hidden` keeps the cards hidden since the deal apart from
//! those hidden by the rebuild). With `infer_hands` (the default) an opponent's hidden cards are
//! the ones it would have kept (see [`Table::deal`]), a crude model of a player's choices.

use std::time::Duration;

use thiserror::Error;

use crate::card::{JOKER0, MAX_JOKERS, NATURALS};
use crate::games::three_thirteen::banned_after_draw;
use crate::meld::{self, MeldError, MeldRules, fast};
use crate::paired::PairedTally;
use crate::rng::CardRng;
use crate::shuffle::shuffle;
use crate::three_thirteen_hard::{self as hard, DrawValues, HardParams, View};
use crate::three_thirteen_infer::InferParams;

/// Number of face codes (naturals and jokers).
const FACES: usize = (JOKER0 + MAX_JOKERS) as usize;

/// Why a table is rejected.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum ExpertError {
    /// A face, hand size, wild rank or rule value the meld solver rejects.
    #[error(transparent)]
    Meld(#[from] MeldError),
    /// Sizes and cards that do not add up to a deal.
    #[error("inconsistent table: {0}")]
    Table(String),
}

/// What the deciding seat sees, as face codes.
#[derive(Clone, Debug)]
pub struct Table {
    /// The deciding seat.
    pub seat: usize,
    /// The seat's hand in hand order (decisions name indices into it).
    pub hand: Vec<u8>,
    /// The discard pile, bottom first.
    pub pile: Vec<u8>,
    /// Per seat: the pile cards it took this round and still holds (the own entry is ignored).
    pub taken: Vec<Vec<u8>>,
    /// Per seat: cards in hand.
    pub hand_sizes: Vec<usize>,
    /// Cards in the stock.
    pub stock_size: usize,
    /// Decks in the game.
    pub num_decks: u8,
    /// Jokers in the game.
    pub jokers: u8,
    /// The round's wild rank (3..=13).
    pub wild: u8,
    /// Scoring and ace variant.
    pub rules: MeldRules,
    /// The seat has drawn and must discard.
    pub discard_phase: bool,
    /// Index in `hand` of the card that may not be discarded now.
    pub banned: Option<usize>,
    /// The seat that went out this round, if any (this is then the seat's final turn).
    pub out_seat: Option<usize>,
    /// Turns played in the round so far.
    pub turn_in_round: u32,
    /// The seat that played the round's first turn (the dealer's left).
    pub first: usize,
    /// Option `min_own_turns_before_out`.
    pub min_own_turns: u32,
    /// Option `max_turns_per_round`.
    pub max_turns: u32,
    /// Option `forbid_return_of_discard_draw`.
    pub forbid_return: bool,
}

/// The search budget and selection rule.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ExpertParams {
    /// Deals per decision (each plays every candidate once).
    pub rollouts: u32,
    /// When set, deals until this much time has passed instead (at least one deal).
    pub time_limit: Option<Duration>,
    /// Most discards compared.
    pub max_candidates: usize,
    /// Discards compared: within this many points of the least deadwood.
    pub slack: u32,
    /// Standard errors of the paired difference a candidate needs to replace the default.
    pub margin: f64,
    /// The deciding seat's later turns in a rollout are the `hard` agent's (else greedy's).
    pub hard_rollouts: bool,
    /// Opponents' hidden cards are dealt as kept cards, not uniformly (see `Table::deal`).
    pub infer_hands: bool,
    /// How the search values a discard (see [`Search`]).
    pub search: Search,
    /// With [`Search::Lap`]: the weight of the estimated chance that the round ends.
    pub risk_weight: f64,
    /// The `hard` agent that gives the default move.
    pub hard: HardParams,
    /// With [`Search::Infer`]: the chain that deals the hidden cards.
    pub infer: InferParams,
}

impl Default for ExpertParams {
    fn default() -> Self {
        Self {
            rollouts: 64,
            time_limit: None,
            max_candidates: 4,
            slack: 10,
            margin: 3.0,
            hard_rollouts: false,
            infer_hands: true,
            search: Search::ValueDraw,
            risk_weight: 1.0,
            hard: HardParams::default(),
            infer: InferParams::default(),
        }
    }
}

/// What the search plays out in each deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Search {
    /// Discards only: the chance that the round ends before the seat's next turn (an opponent
    /// goes out) after each of the `hard` agent's discards, from one lap of greedy turns; a
    /// discard is valued as `hard` values it when the round goes on and by the expected
    /// deadwood after the seat's final turn when it ends. Draws are `hard`'s.
    Lap,
    /// Draws and discards: the rest of the round, `hard`'s move replaced by a candidate ahead
    /// by more than `margin` standard errors.
    Round,
    /// Draws and discards: `hard`'s candidates, each played to the end of the round in every
    /// deal with the `hard` agent for every seat; `hard`'s move replaced by a candidate ahead by
    /// more than `margin` standard errors.
    Pimc,
    /// [`Search::Lap`] with the other seats' turns played by `hard`.
    LapHard,
    /// No deals: `hard`'s discard options valued by a linear value of the position after the
    /// discard, fitted on `hard` self-play (`three_thirteen_value`). Draws are `hard`'s.
    Value,
    /// [`Search::Value`] with the draws `hard` weighs decided by a fitted draw value
    /// (`three_thirteen_value::draw_choice`).
    ValueDraw,
    /// [`Search::Pimc`] in deals weighted by the opponents' observed choices
    /// (`three_thirteen_infer`; without the round's history, the deals of `Pimc`).
    Infer,
    /// [`Search::ValueDraw`] playing for the game, not the round: given the match standings,
    /// `hard`'s discard option with the highest estimated chance of winning the game
    /// (`three_thirteen_win`; without the standings, `ValueDraw`).
    Win,
}

impl Search {
    /// Every search with its name (the agent's `search` option), in this order.
    pub const ALL: [(&'static str, Search); 8] = [
        ("round", Search::Round),
        ("lap", Search::Lap),
        ("pimc", Search::Pimc),
        ("laphard", Search::LapHard),
        ("value", Search::Value),
        ("valuedraw", Search::ValueDraw),
        ("infer", Search::Infer),
        ("win", Search::Win),
    ];
    /// The names of [`Search::ALL`].
    pub const NAMES: [&'static str; 8] = [
        "round",
        "lap",
        "pimc",
        "laphard",
        "value",
        "valuedraw",
        "infer",
        "win",
    ];

    /// The search called `name`, if any.
    #[must_use]
    pub fn named(name: &str) -> Option<Search> {
        Self::ALL.iter().find(|(n, _)| *n == name).map(|&(_, s)| s)
    }
}

/// A decision and what the search did.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    /// Draw phase: 0 = stock, 1 = pile top. Discard phase: the index in `hand`.
    pub choice: usize,
    /// Deals played.
    pub deals: u32,
    /// Candidates compared (1: the decision was forced or clear).
    pub candidates: usize,
}

/// Rules constants of a rollout.
#[doc(hidden)]
pub struct Ctx {
    pub wild: u8,
    pub rules: MeldRules,
    pub min_own_turns: u32,
    pub max_turns: u32,
    pub forbid_return: bool,
    pub players: usize,
    pub num_decks: u8,
    pub jokers: u8,
    /// The seat whose later turns `hard` plays (`None`: greedy for every seat).
    pub hard_seat: Option<usize>,
    /// `hard` plays every seat's turns.
    pub all_hard: bool,
    pub hard: HardParams,
}

/// One dealt round, from the deciding seat's turn to the end of the round: the rulebook's
/// round in play, its cards faces (several decks repeat them) and its hands in the order the
/// search enumerates (a drawn card goes last).
pub use crate::games::three_thirteen::Round;

/// The `hard` agent's view of a hand in a rollout.
#[doc(hidden)]
pub fn view_of<'a>(ctx: &Ctx, hand: &'a [u8], seen: &'a [u8], final_turn: bool) -> View<'a> {
    View {
        hand,
        seen,
        num_decks: ctx.num_decks,
        jokers: ctx.jokers,
        wild: ctx.wild,
        rules: ctx.rules,
        final_turn,
    }
}

/// The first index of the least value, skipping `banned`.
fn argmin(values: &[u32], banned: Option<usize>) -> Option<usize> {
    let mut best: Option<usize> = None;
    for (i, &v) in values.iter().enumerate() {
        if Some(i) != banned && best.is_none_or(|b| v < values[b]) {
            best = Some(i);
        }
    }
    best
}

/// The rules of a rollout's turns are the rulebook's ([`Round::draw`], [`Round::discard`],
/// [`Round::rebuild_stock`], [`Round::score`]); what follows is how the search plays them.
impl Round {
    /// Discards card `i` of the current seat, which leaves deadwood `dw` (the search has it
    /// from the meld solver); ends the turn. Returns false when the round is over.
    #[doc(hidden)]
    pub fn play_discard(&mut self, ctx: &Ctx, i: usize, dw: u32) -> bool {
        self.discard(i, ctx.min_own_turns, ctx.max_turns, |_| dw == 0)
    }

    /// Start of a turn: rebuilds the stock from the pile when it is empty, shuffled by `rng`.
    /// False when no card can be drawn (never with real decks; ends the round as it stands).
    #[doc(hidden)]
    pub fn begin_turn(&mut self, rng: &mut CardRng) -> bool {
        self.rebuild_stock(|stock| shuffle(rng, stock))
    }

    /// Draws from the stock (`false`) or takes the pile top (`true`): the drawn card's index
    /// in the hand (the last) and the index that may not be discarded now (the rulebook's
    /// forbid-return rule, [`banned_after_draw`]).
    #[doc(hidden)]
    pub fn draw_last(&mut self, ctx: &Ctx, pile: bool) -> (usize, Option<usize>) {
        let (_, at) = self.draw(pile, false).expect("a card to draw");
        (at, banned_after_draw(ctx.forbid_return, pile, at))
    }

    /// Draws from the stock (`false`) or takes the pile top (`true`), then discards greedily.
    fn draw_then_discard(&mut self, ctx: &Ctx, pile: bool) -> bool {
        let (_, banned) = self.draw_last(ctx, pile);
        let dws = fast::discards(&self.hands[self.current], ctx.wild, &ctx.rules);
        let i = argmin(&dws, banned).expect("a card to discard");
        self.play_discard(ctx, i, dws[i])
    }

    /// One greedy turn of the current seat.
    fn greedy_turn(&mut self, ctx: &Ctx) -> bool {
        let s = self.current;
        let &top = self.pile.last().expect("the pile is never empty");
        let hand = &mut self.hands[s];
        hand.push(top);
        let dws = fast::discards(hand, ctx.wild, &ctx.rules);
        hand.pop();
        let n = dws.len() - 1;
        let keep = dws[n];
        let take = argmin(&dws[..n], None);
        if let Some(i) = take.filter(|&i| dws[i] < keep) {
            self.draw_last(ctx, true);
            self.play_discard(ctx, i, dws[i])
        } else {
            self.draw_then_discard(ctx, false)
        }
    }

    /// The pile and the other seats' pickups: what `s` has seen besides its hand.
    #[doc(hidden)]
    pub fn seen_by(&self, s: usize) -> Vec<u8> {
        hard::seen_by(&self.pile, &self.taken, s)
    }

    /// One turn of the current seat played by the `hard` agent.
    #[doc(hidden)]
    pub fn hard_turn(&mut self, ctx: &Ctx) -> bool {
        self.hard_turn_with(ctx, None)
    }

    /// One turn of the current seat played by the `hard` agent, the draw `forced` if given
    /// (`true`: the pile top).
    #[doc(hidden)]
    pub fn hard_turn_with(&mut self, ctx: &Ctx, forced: Option<bool>) -> bool {
        let s = self.current;
        let final_turn = self.out.is_some();
        let pile = forced.unwrap_or_else(|| {
            let seen = self.seen_by(s);
            let &top = self.pile.last().expect("the pile is never empty");
            let can_go_out = self.own_turns[s] >= ctx.min_own_turns;
            hard::take_pile(
                &view_of(ctx, &self.hands[s], &seen, final_turn),
                top,
                can_go_out,
                &ctx.hard,
            )
            .unwrap_or(false)
        });
        let (_, banned) = self.draw_last(ctx, pile);
        let seen = self.seen_by(s);
        let hand = &self.hands[s];
        let feed = &self.taken[(s + 1) % ctx.players];
        let choice = hard::discard(
            &view_of(ctx, hand, &seen, final_turn),
            banned,
            feed,
            &ctx.hard,
        )
        .ok()
        .flatten();
        let i = choice.unwrap_or(0);
        let mut rest = hand.clone();
        rest.remove(i);
        let dw = fast::deadwood(&rest, ctx.wild, &ctx.rules);
        self.play_discard(ctx, i, dw)
    }

    /// Plays the seat's move `first` (false: it ended the round) and the other seats' greedy
    /// turns up to the seat's next turn: whether the round ended on the way without the seat
    /// going out (its next turn is then its last).
    fn lap_ends(
        &mut self,
        ctx: &Ctx,
        rng: &mut CardRng,
        first: impl FnOnce(&mut Self, &Ctx) -> bool,
    ) -> bool {
        let seat = self.current;
        let mut going = first(self, ctx);
        while going && self.current != seat && self.out.is_none() {
            going = self.begin_turn(rng)
                && if ctx.all_hard {
                    self.hard_turn(ctx)
                } else {
                    self.greedy_turn(ctx)
                };
        }
        (!going || self.out.is_some()) && self.out != Some(seat)
    }

    /// Plays greedy turns (the `hard` agent's for `ctx.hard_seat`) to the end of the round.
    fn finish(&mut self, ctx: &Ctx, rng: &mut CardRng) {
        while self.begin_turn(rng) {
            let going = if ctx.all_hard || ctx.hard_seat == Some(self.current) {
                self.hard_turn(ctx)
            } else {
                self.greedy_turn(ctx)
            };
            if !going {
                break;
            }
        }
    }

    /// After a candidate move (`going`: the round went on), plays to the end of the round and
    /// values it for `seat` ([`Self::utility`]).
    pub(crate) fn play_out(
        &mut self,
        ctx: &Ctx,
        rng: &mut CardRng,
        going: bool,
        seat: usize,
    ) -> f64 {
        if going {
            self.finish(ctx, rng);
        }
        self.utility(ctx, seat)
    }

    /// Seat `s`'s round score as the round stands: its deadwood, 0 if it went out.
    #[doc(hidden)]
    pub fn score_in(&self, ctx: &Ctx, s: usize) -> u32 {
        self.score(s, |h| fast::deadwood(h, ctx.wild, &ctx.rules))
    }

    /// Mean round score of the other seats minus `seat`'s own.
    #[doc(hidden)]
    pub fn utility(&self, ctx: &Ctx, seat: usize) -> f64 {
        let mut own = 0.0;
        let mut others = 0.0;
        for s in 0..self.hands.len() {
            let score = f64::from(self.score_in(ctx, s));
            if s == seat {
                own = score;
            } else {
                others += score;
            }
        }
        let opponents = (ctx.players - 1) as f64;
        others / opponents - own
    }
}

impl Table {
    fn players(&self) -> usize {
        self.hand_sizes.len()
    }

    /// Everything the seat has seen besides its hand: the pile and the others' pickups.
    pub(crate) fn seen(&self) -> Vec<u8> {
        hard::seen_by(&self.pile, &self.taken, self.seat)
    }

    pub(crate) fn check(&self) -> Result<(), ExpertError> {
        let bad = |why: &str| Err(ExpertError::Table(why.to_owned()));
        let p = self.players();
        if !(2..=8).contains(&p) || self.seat >= p || self.taken.len() != p || self.first >= p {
            return bad("seats");
        }
        if self.out_seat.is_some_and(|o| o >= p || o == self.seat) {
            return bad("the seat that went out");
        }
        if self.pile.is_empty() && !self.discard_phase {
            return bad("an empty discard pile");
        }
        if self.stock_size == 0 && !self.discard_phase {
            return bad("an empty stock at the start of a turn");
        }
        if self.hand_sizes[self.seat] != self.hand.len() {
            return bad("the seat's hand size");
        }
        if self.banned.is_some_and(|b| b >= self.hand.len()) {
            return bad("the banned card");
        }
        meld::check_rules(u32::from(self.wild), &self.rules)?;
        meld::check_hand(&self.hand)?;
        if self.hand.len() + 1 > meld::MAX_HAND {
            return Err(MeldError::TooManyCards(self.hand.len() + 1).into());
        }
        for (s, t) in self.taken.iter().enumerate() {
            if s != self.seat && t.len() > self.hand_sizes[s] {
                return bad("pickups beyond a hand");
            }
        }
        Ok(())
    }

    /// Count per face of the cards the seat has not seen.
    #[doc(hidden)]
    pub fn unseen(&self) -> Result<Vec<u8>, ExpertError> {
        let mut counts = [0i32; FACES];
        counts[..usize::from(NATURALS)].fill(i32::from(self.num_decks));
        for c in counts
            .iter_mut()
            .skip(usize::from(JOKER0))
            .take(usize::from(self.jokers))
        {
            *c = 1;
        }
        for &f in self.hand.iter().chain(&self.seen()) {
            let Some(c) = counts.get_mut(usize::from(f)) else {
                return Err(MeldError::BadFace(f).into());
            };
            *c -= 1;
            if *c < 0 {
                return Err(ExpertError::Table(format!("too many copies of face {f}")));
            }
        }
        let mut out = Vec::new();
        for (f, &c) in (0u8..).zip(&counts) {
            for _ in 0..c {
                out.push(f);
            }
        }
        let hidden: usize = (0..self.players())
            .filter(|&s| s != self.seat)
            .map(|s| self.hand_sizes[s] - self.taken[s].len())
            .sum();
        if hidden + self.stock_size != out.len() {
            return Err(ExpertError::Table(format!(
                "{} unseen cards for {hidden} hidden hand cards and a stock of {}",
                out.len(),
                self.stock_size
            )));
        }
        Ok(out)
    }

    /// Turns each seat has played this round.
    pub(crate) fn turns_played(&self) -> Vec<u32> {
        let p = self.players();
        let p32 = u32::try_from(p).unwrap_or(1);
        (0..p)
            .map(|s| {
                let lap = u32::try_from((s + p - self.first) % p).unwrap_or(0);
                (self.turn_in_round + p32 - 1 - lap) / p32
            })
            .collect()
    }

    /// A random deal of the unseen cards (`unseen` from [`Self::unseen`]). With `infer`, an
    /// opponent that has played `t` turns is dealt `t` cards more and lets go of the `t` that
    /// leave it the least deadwood (they go back to the stock): a player keeps its good cards,
    /// so its hand is better than a uniform deal.
    #[doc(hidden)]
    pub fn deal(&self, unseen: &[u8], infer: bool, rng: &mut CardRng) -> Round {
        let p = self.players();
        let own_turns = self.turns_played();
        let mut cards = unseen.to_vec();
        shuffle(rng, &mut cards);
        let mut at = 0;
        let mut hands = Vec::with_capacity(p);
        let mut returned = Vec::new();
        let mut spare = self.stock_size.saturating_sub(2 * p);
        for (s, &turns) in own_turns.iter().enumerate() {
            if s == self.seat {
                hands.push(self.hand.clone());
                continue;
            }
            let k = self.hand_sizes[s] - self.taken[s].len();
            let mut h = self.taken[s].clone();
            h.extend_from_slice(&cards[at..at + k]);
            at += k;
            if infer {
                // The extra cards come out of the stock's share (a few always stay there).
                let extra = usize::try_from(turns).unwrap_or(0).min(spare);
                spare -= extra;
                h.extend_from_slice(&cards[at..at + extra]);
                at += extra;
                let fixed = self.taken[s].len();
                for _ in 0..extra {
                    let dws = fast::discards(&h, self.wild, &self.rules);
                    let i = (fixed..h.len())
                        .min_by_key(|&i| dws[i])
                        .expect("a dealt card");
                    returned.push(h.remove(i));
                }
            }
            hands.push(h);
        }
        let mut stock = cards[at..].to_vec();
        if !returned.is_empty() {
            stock.extend_from_slice(&returned);
            shuffle(rng, &mut stock);
        }
        self.round_with(hands, stock)
    }

    /// The round from the seat's turn with these hands (the seat's own is `self.hand`) and
    /// stock (top last).
    pub(crate) fn round_with(&self, hands: Vec<Vec<u8>>, stock: Vec<u8>) -> Round {
        let p = self.players();
        let final_left = self.out_seat.map_or(0, |o| (o + p - self.seat) % p);
        Round {
            hands,
            stock,
            pile: self.pile.clone(),
            current: self.seat,
            out: self.out_seat,
            final_left,
            turns: self.turn_in_round,
            own_turns: self.turns_played(),
            taken: self.taken.clone(),
        }
    }

    /// Plays `k` candidates in the same deals (common random numbers) within the budget:
    /// `value(round, rng, j)` plays candidate `j` in a copy of the deal, with the deal's rollout
    /// generator, and returns its value.
    fn tally(
        &self,
        params: &ExpertParams,
        unseen: &[u8],
        seed: u64,
        k: usize,
        value: impl Fn(&mut Round, &mut CardRng, usize) -> f64,
    ) -> PairedTally {
        PairedTally::run(
            k,
            params.rollouts,
            params.time_limit,
            seed,
            |rng, roll_seed, values| {
                let deal = self.deal(unseen, params.infer_hands, rng);
                for (j, v) in values.iter_mut().enumerate() {
                    let mut r = deal.clone();
                    *v = value(&mut r, &mut CardRng::new(roll_seed), j);
                }
            },
        )
    }

    #[doc(hidden)]
    pub fn ctx(&self, hard_rollouts: bool, hard: HardParams) -> Ctx {
        Ctx {
            wild: self.wild,
            rules: self.rules,
            min_own_turns: self.min_own_turns,
            max_turns: self.max_turns,
            forbid_return: self.forbid_return,
            players: self.players(),
            num_decks: self.num_decks,
            jokers: self.jokers,
            hard_seat: hard_rollouts.then_some(self.seat),
            all_hard: false,
            hard,
        }
    }

    /// The `hard` agent's view of this table.
    pub(crate) fn view<'a>(&'a self, seen: &'a [u8]) -> View<'a> {
        View {
            hand: &self.hand,
            seen,
            num_decks: self.num_decks,
            jokers: self.jokers,
            wild: self.wild,
            rules: self.rules,
            final_turn: self.out_seat.is_some(),
        }
    }

    /// The candidates (default first) as draw choices or hand indices, and each discard's
    /// deadwood (empty in the draw phase).
    fn candidates(&self, params: &ExpertParams) -> Result<(Vec<usize>, Vec<u32>), ExpertError> {
        let seen = self.seen();
        let view = self.view(&seen);
        let p = self.players();
        if !self.discard_phase {
            let can_go_out = self.turns_played()[self.seat] >= self.min_own_turns;
            let top = *self.pile.last().expect("checked");
            let take = hard::take_pile(&view, top, can_go_out, &params.hard)?;
            return Ok((vec![usize::from(take), usize::from(!take)], Vec::new()));
        }
        let feed = &self.taken[(self.seat + 1) % p];
        let Some(default) = hard::discard(&view, self.banned, feed, &params.hard)? else {
            return Err(ExpertError::Table("no card may be discarded".to_owned()));
        };
        let dws = fast::discards(&self.hand, self.wild, &self.rules);
        let best = argmin(&dws, self.banned).unwrap_or(default);
        let mut order: Vec<usize> = (0..self.hand.len())
            .filter(|&i| Some(i) != self.banned && i != default)
            .collect();
        order.sort_by_key(|&i| dws[i]);
        let mut seen_face = [false; FACES];
        seen_face[usize::from(self.hand[default])] = true;
        let mut cands = vec![default];
        for i in order {
            let f = usize::from(self.hand[i]);
            if cands.len() >= params.max_candidates || dws[i] > dws[best] + params.slack {
                break;
            }
            if !seen_face[f] {
                seen_face[f] = true;
                cands.push(i);
            }
        }
        Ok((cands, dws))
    }
}

/// The expert's move at `table` (see the module docs).
///
/// # Errors
/// [`ExpertError`] for a table that is not a possible position.
pub fn decide(table: &Table, params: &ExpertParams, seed: u64) -> Result<Decision, ExpertError> {
    table.check()?;
    match params.search {
        Search::Lap | Search::LapHard => return decide_lap(table, params, seed),
        Search::Pimc => return decide_pimc(table, params, seed),
        Search::Value | Search::ValueDraw | Search::Win => {
            return crate::three_thirteen_value::decide(table, params);
        }
        Search::Infer => return crate::three_thirteen_infer::decide(table, None, params, seed),
        Search::Round => {}
    }
    let (cands, dws) = table.candidates(params)?;
    let forced = cands.len() == 1
        || (table.discard_phase && (table.out_seat.is_some() || dws[cands[0]] == 0));
    if forced || (params.rollouts == 0 && params.time_limit.is_none()) {
        return Ok(Decision {
            choice: cands[0],
            deals: 0,
            candidates: 1,
        });
    }
    let unseen = table.unseen()?;
    let ctx = table.ctx(params.hard_rollouts, params.hard);
    let tally = table.tally(params, &unseen, seed, cands.len(), |r, roll, j| {
        let c = cands[j];
        let going = if table.discard_phase {
            r.play_discard(&ctx, c, dws[c])
        } else {
            r.draw_then_discard(&ctx, c == 1)
        };
        r.play_out(&ctx, roll, going, table.seat)
    });
    let (choice, deals, k) = (tally.choice(params.margin), tally.deals(), cands.len());
    Ok(Decision {
        choice: cands[choice],
        deals,
        candidates: k,
    })
}

/// [`decide`] with [`Search::Lap`].
fn decide_lap(table: &Table, params: &ExpertParams, seed: u64) -> Result<Decision, ExpertError> {
    let seen = table.seen();
    let view = table.view(&seen);
    let budget = params.rollouts > 0 || params.time_limit.is_some();
    let unseen = table.unseen()?;
    let mut ctx = table.ctx(false, params.hard);
    ctx.all_hard = params.search == Search::LapHard;
    // The chance that the round ends before the seat's next turn after each candidate move.
    let chances = |k: usize, play: &dyn Fn(&mut Round, &Ctx, usize) -> bool| {
        let tally = table.tally(params, &unseen, seed, k, |r, roll, j| {
            f64::from(u8::from(r.lap_ends(&ctx, roll, |r, ctx| play(r, ctx, j))))
        });
        let weight = params.risk_weight;
        let p: Vec<f64> = tally
            .means()
            .iter()
            .map(|&p| (p * weight).min(1.0))
            .collect();
        (p, tally.deals())
    };
    if !table.discard_phase {
        let top = *table.pile.last().expect("checked");
        let can_go_out = table.turns_played()[table.seat] >= table.min_own_turns;
        let (take, stock, take_final, stock_final) =
            match hard::draw_values(&view, top, can_go_out, &params.hard)? {
                DrawValues::Weighed {
                    take,
                    stock,
                    take_final,
                    stock_final,
                } if budget => (take, stock, take_final, stock_final),
                DrawValues::Weighed { take, stock, .. } => (take, stock, take, stock),
                DrawValues::Decided(take) => {
                    return Ok(Decision {
                        choice: usize::from(take),
                        deals: 0,
                        candidates: 1,
                    });
                }
            };
        if !budget {
            return Ok(Decision {
                choice: usize::from(take < stock),
                deals: 0,
                candidates: 1,
            });
        }
        // Candidate 0 draws from the stock, 1 takes the pile top.
        let (p, deals) = chances(2, &|r, ctx, j| r.draw_then_discard(ctx, j == 1));
        let stock_v = (1.0 - p[0]) * stock + p[0] * stock_final;
        let take_v = (1.0 - p[1]) * take + p[1] * take_final;
        return Ok(Decision {
            choice: usize::from(take_v < stock_v),
            deals,
            candidates: 2,
        });
    }
    let feed = &table.taken[(table.seat + 1) % table.players()];
    let options = hard::discard_options(&view, table.banned, feed, &params.hard)?;
    let scores: Vec<f64> = options.iter().map(|o| o.score).collect();
    let Some(default) = argmin_f64(&scores) else {
        return Err(ExpertError::Table("no card may be discarded".to_owned()));
    };
    if options.len() == 1 || !budget {
        return Ok(Decision {
            choice: options[default].index,
            deals: 0,
            candidates: 1,
        });
    }
    let finals = hard::final_turn_values(&view, &options)?;
    let (p, deals) = chances(options.len(), &|r, ctx, j| {
        r.play_discard(ctx, options[j].index, options[j].deadwood)
    });
    let valued: Vec<f64> = options
        .iter()
        .zip(&finals)
        .zip(&p)
        .map(|((o, &f), &p)| (1.0 - p) * o.score + p * f)
        .collect();
    Ok(Decision {
        choice: options[argmin_f64(&valued).unwrap_or(default)].index,
        deals,
        candidates: options.len(),
    })
}

/// `hard`'s candidates for [`Search::Pimc`], `hard`'s move first: in the draw phase the draws
/// (`true`: the pile top), in the discard phase (hand index, deadwood left).
#[doc(hidden)]
pub type PimcCandidates = (Vec<bool>, Vec<(usize, u32)>);

impl Table {
    /// The candidates of [`Search::Pimc`] (see [`PimcCandidates`]).
    #[doc(hidden)]
    pub fn pimc_candidates(&self, params: &ExpertParams) -> Result<PimcCandidates, ExpertError> {
        let seen = self.seen();
        let view = self.view(&seen);
        let mut draws: Vec<bool> = Vec::new();
        let mut discards: Vec<(usize, u32)> = Vec::new();
        if self.discard_phase {
            let feed = &self.taken[(self.seat + 1) % self.players()];
            let options = hard::discard_options(&view, self.banned, feed, &params.hard)?;
            let scores: Vec<f64> = options.iter().map(|o| o.score).collect();
            let Some(default) = argmin_f64(&scores) else {
                return Err(ExpertError::Table("no card may be discarded".to_owned()));
            };
            discards.push((options[default].index, options[default].deadwood));
            for (j, o) in options.iter().enumerate() {
                if j != default {
                    discards.push((o.index, o.deadwood));
                }
            }
        } else {
            let top = *self.pile.last().expect("checked");
            let can_go_out = self.turns_played()[self.seat] >= self.min_own_turns;
            match hard::draw_values(&view, top, can_go_out, &params.hard)? {
                DrawValues::Decided(take) => draws.push(take),
                DrawValues::Weighed { take, stock, .. } => {
                    draws.push(take < stock);
                    draws.push(take >= stock);
                }
            }
        }
        Ok((draws, discards))
    }

    /// Plays candidate `j` of [`Self::pimc_candidates`] in `r` and the rest of the round with
    /// `hard` for every seat (`ctx.all_hard`): the seat's value of the round.
    #[doc(hidden)]
    pub fn pimc_value(
        &self,
        ctx: &Ctx,
        (draws, discards): &PimcCandidates,
        r: &mut Round,
        roll: &mut CardRng,
        j: usize,
    ) -> f64 {
        let going = if self.discard_phase {
            let (i, dw) = discards[j];
            r.play_discard(ctx, i, dw)
        } else {
            r.hard_turn_with(ctx, Some(draws[j]))
        };
        r.play_out(ctx, roll, going, self.seat)
    }
}

/// [`decide`] with [`Search::Pimc`].
pub(crate) fn decide_pimc(
    table: &Table,
    params: &ExpertParams,
    seed: u64,
) -> Result<Decision, ExpertError> {
    let budget = params.rollouts > 0 || params.time_limit.is_some();
    let cands = table.pimc_candidates(params)?;
    let (draws, discards) = &cands;
    let k = draws.len().max(discards.len());
    let first = if table.discard_phase {
        discards[0].0
    } else {
        usize::from(draws[0])
    };
    if k == 1 || !budget {
        return Ok(Decision {
            choice: first,
            deals: 0,
            candidates: 1,
        });
    }
    let unseen = table.unseen()?;
    let mut ctx = table.ctx(false, params.hard);
    ctx.all_hard = true;
    let tally = table.tally(params, &unseen, seed, k, |r, roll, j| {
        table.pimc_value(&ctx, &cands, r, roll, j)
    });
    let c = tally.choice(params.margin);
    Ok(Decision {
        choice: if table.discard_phase {
            discards[c].0
        } else {
            usize::from(draws[c])
        },
        deals: tally.deals(),
        candidates: k,
    })
}

/// The first index of the least value.
fn argmin_f64(values: &[f64]) -> Option<usize> {
    let mut best: Option<usize> = None;
    for (i, &v) in values.iter().enumerate() {
        if best.is_none_or(|b| v < values[b]) {
            best = Some(i);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::meld::AceMode;

    fn table() -> Table {
        // Two players, one deck, round 2 (4 cards, 4s wild): seat 0 to draw.
        Table {
            seat: 0,
            hand: vec![0, 1, 2, 30],
            pile: vec![40],
            taken: vec![vec![], vec![]],
            hand_sizes: vec![4, 4],
            stock_size: 52 - 4 - 4 - 1,
            num_decks: 1,
            jokers: 0,
            wild: 4,
            rules: MeldRules {
                ace_mode: AceMode::Low,
                ..MeldRules::default()
            },
            discard_phase: false,
            banned: None,
            out_seat: None,
            turn_in_round: 0,
            first: 0,
            min_own_turns: 0,
            max_turns: 400,
            forbid_return: false,
        }
    }

    #[test]
    fn same_seed_same_decision() {
        let t = table();
        let p = ExpertParams {
            search: Search::Lap,
            ..ExpertParams::default()
        };
        let a = decide(&t, &p, 7).unwrap();
        assert_eq!(a, decide(&t, &p, 7).unwrap());
        assert_eq!(a.deals, p.rollouts);
    }

    #[test]
    fn discards_a_legal_index() {
        let mut t = table();
        t.hand = vec![0, 1, 2, 30, 45];
        t.hand_sizes = vec![5, 4];
        t.stock_size -= 1;
        t.discard_phase = true;
        t.banned = Some(4);
        for seed in 0..20 {
            let d = decide(&t, &ExpertParams::default(), seed).unwrap();
            assert!(d.choice < 4, "{d:?}");
        }
    }

    #[test]
    fn rollouts_keep_every_card_and_end() {
        let mut t = table();
        t.taken[1] = vec![13];
        t.pile = vec![40, 41];
        t.stock_size -= 1;
        let unseen = t.unseen().unwrap();
        let ctx = t.ctx(true, HardParams::default());
        for seed in 0..20 {
            let mut rng = CardRng::new(seed);
            let mut r = t.deal(&unseen, seed % 3 > 0, &mut rng);
            assert!(r.hands[1].contains(&13));
            let count = |r: &Round| {
                r.hands.iter().map(Vec::len).sum::<usize>() + r.stock.len() + r.pile.len()
            };
            assert_eq!(count(&r), 52);
            if r.draw_then_discard(&ctx, seed % 2 == 0) {
                r.finish(&ctx, &mut rng);
            }
            assert_eq!(count(&r), 52);
            assert!(r.out.is_none_or(|o| r.hands[o].len() == 4));
            assert!(r.final_left == 0 || r.turns >= ctx.max_turns);
        }
    }

    #[test]
    fn inferred_hands_fit_a_small_stock() {
        // Four players, one deck, round 11 (13 cards each) after 40 turns: 52 - 52 ... the
        // stock holds what the pile does not.
        let mut t = table();
        t.hand = (0..13).collect();
        t.hand_sizes = vec![13, 13, 13];
        t.taken = vec![vec![], vec![], vec![]];
        t.pile = vec![40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50];
        t.stock_size = 2;
        t.wild = 13;
        t.turn_in_round = 40;
        let unseen = t.unseen().unwrap();
        for seed in 0..10 {
            let r = t.deal(&unseen, true, &mut CardRng::new(seed));
            assert_eq!(r.stock.len(), 2);
            assert!(r.hands.iter().all(|h| h.len() == 13));
        }
        assert!(decide(&t, &ExpertParams::default(), 3).is_ok());
    }

    /// Round 1 (3 cards, 3s wild), one deck: seat 0 holds A♠ 2♠ K♠ 8♥ after its draw; seat 1
    /// took K♥ and K♦ from the pile and holds one hidden card.
    fn kings_table() -> Table {
        let mut t = table();
        t.hand = vec![0, 1, 12, 20];
        t.hand_sizes = vec![4, 3];
        t.taken = vec![vec![], vec![25, 38]];
        t.stock_size = 52 - 4 - 3 - 1;
        t.wild = 3;
        t.discard_phase = true;
        t.turn_in_round = 4;
        t
    }

    #[test]
    fn a_discard_the_next_seat_needs_ends_the_lap() {
        let t = kings_table();
        let unseen = t.unseen().unwrap();
        let ctx = t.ctx(false, HardParams::default());
        let dws = fast::discards(&t.hand, t.wild, &t.rules);
        for seed in 0..20 {
            let mut r = t.deal(&unseen, seed % 2 == 0, &mut CardRng::new(seed));
            let mut rng = CardRng::new(seed);
            assert!(r.lap_ends(&ctx, &mut rng, |r, ctx| r.play_discard(ctx, 2, dws[2])));
            assert_eq!(r.out, Some(1));
        }
    }

    #[test]
    fn the_lap_search_without_a_budget_plays_hard() {
        let lap = ExpertParams {
            search: Search::Lap,
            ..ExpertParams::default()
        };
        let none = ExpertParams { rollouts: 0, ..lap };
        for t in [kings_table(), table()] {
            let seen = t.seen();
            let view = t.view(&seen);
            let hard_choice = if t.discard_phase {
                let feed = &t.taken[1];
                hard::discard(&view, None, feed, &none.hard)
                    .unwrap()
                    .unwrap()
            } else {
                let top = *t.pile.last().unwrap();
                usize::from(hard::take_pile(&view, top, true, &none.hard).unwrap())
            };
            assert_eq!(decide(&t, &none, 1).unwrap().choice, hard_choice);
            let searched = decide(&t, &lap, 1).unwrap();
            assert!(searched.choice < t.hand.len());
        }
    }

    #[test]
    fn every_search_has_its_name() {
        for (i, (name, search)) in Search::ALL.into_iter().enumerate() {
            assert_eq!(Search::NAMES[i], name);
            assert_eq!(Search::named(name), Some(search));
        }
        assert_eq!(Search::named("Lap"), None);
    }

    #[test]
    fn every_search_is_deterministic_and_legal() {
        for search in [Search::Pimc, Search::LapHard] {
            let p = ExpertParams {
                rollouts: 8,
                search,
                ..ExpertParams::default()
            };
            for t in [kings_table(), table()] {
                let a = decide(&t, &p, 5).unwrap();
                assert_eq!(a, decide(&t, &p, 5).unwrap());
                if t.discard_phase {
                    assert!(a.choice < t.hand.len(), "{a:?}");
                } else {
                    assert!(a.choice < 2, "{a:?}");
                }
            }
            let none = ExpertParams { rollouts: 0, ..p };
            let lap = ExpertParams {
                rollouts: 0,
                search: Search::Lap,
                ..p
            };
            for t in [kings_table(), table()] {
                assert_eq!(
                    decide(&t, &none, 1).unwrap().choice,
                    decide(&t, &lap, 1).unwrap().choice
                );
            }
        }
    }

    #[test]
    fn rejects_inconsistent_sizes() {
        let mut t = table();
        t.stock_size += 1;
        assert!(matches!(
            decide(&t, &ExpertParams::default(), 1),
            Err(ExpertError::Table(_))
        ));
    }
}
