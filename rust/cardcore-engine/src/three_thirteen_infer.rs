//! Hand inference for the Three-Thirteen `expert`: deals of the opponents' hidden cards
//! weighted by how well they explain the opponents' observed choices.
//!
//! The round's public history ([`History`]: for every completed turn, whether the seat took
//! the pile top or drew from the stock and which card it discarded) is replayed for each
//! opponent under a hypothesised hand, with the `hard` agent's decisions: each observed
//! choice (take or skip the pile top, the discard's face) scores `1` when `hard` would have
//! made it and `epsilon` when not (a soft likelihood, robust against players that are not
//! `hard`; `epsilon = 0` is the exact likelihood against `hard`). The rules are hard
//! constraints: a hand that could not have made a discard, that would have gone out and did
//! not (or went out without a zero deadwood) or that lacks the pickups it is seen to hold is
//! impossible.
//!
//! The hypothesis for an opponent is its *slots*: the cards it was dealt and, in order, the
//! card of each of its stock draws. The hand at every turn follows from the slots and the
//! public pickups and discards. Under the deal's uniform prior every assignment of the unseen
//! cards to slots and stock that is consistent with the history is equally likely, so a
//! Metropolis chain over assignments with symmetric moves (swap a slot's card with a stock
//! card; swap two slots of one opponent) samples the posterior. The chain starts at a uniform
//! deal whose slots are labelled backwards from the current hand (each stock draw a uniform
//! pick among the cards not publicly taken), which always satisfies the history's discards.
//!
//! Every random choice comes from the seed. A history that does not lead from the deal to the
//! table (one turn per turn played, each pile draw the pile's top, the pile it leaves) is
//! rejected with [`ExpertError::Table`]; without a history (after a stock rebuild) callers
//! use uniform deals.

use crate::games::three_thirteen::banned_after_draw;
use crate::meld::fast;
use crate::paired::PairedTally;
use crate::rng::CardRng;
use crate::shuffle::shuffle;
use crate::three_thirteen_expert::{
    Decision, ExpertError, ExpertParams, Round, Table, decide_pimc,
};
use crate::three_thirteen_hard::{self as hard, HardParams, View};

/// How a turn's card was drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Draw {
    /// From the stock (the card is hidden).
    Stock,
    /// The pile top, this face.
    Pile(u8),
    /// The pile top, a face the seat did not see (the round's up-card, taken on the first
    /// turn and since discarded; only possible on the round's first turn).
    PileUnknown,
}

/// One completed turn of the round (the seat follows from the first seat and the index).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Turn {
    /// The draw.
    pub draw: Draw,
    /// The face discarded.
    pub discard: u8,
}

/// The round's public history from the deal.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct History {
    /// The card turned up to start the pile (`None`: unknown, taken on the first turn).
    pub upcard: Option<u8>,
    /// Every completed turn, in order (the deciding seat's current turn is not one).
    pub turns: Vec<Turn>,
}

/// The chain's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct InferParams {
    /// Likelihood of a choice `hard` would not make (0: exact against `hard`).
    pub epsilon: f64,
    /// Burn-in: sweeps (one proposal per slot of each opponent) before the first deal.
    pub burn_in: u32,
    /// Proposals per slot of each opponent between deals.
    pub thin: u32,
}

impl Default for InferParams {
    fn default() -> Self {
        Self {
            epsilon: 0.01,
            burn_in: 24,
            thin: 1,
        }
    }
}

/// One turn of an opponent, with the public state its decisions saw.
#[derive(Clone, Debug)]
struct SeatTurn {
    /// The pile top before the draw (`None`: unknown up-card).
    top: Option<u8>,
    /// What the seat had seen besides its hand before the draw.
    seen_draw: Vec<u8>,
    /// ... and after the draw.
    seen_discard: Vec<u8>,
    /// The next seat's pickups when it discarded.
    feed: Vec<u8>,
    /// Its own public pickups before the draw, and after the discard.
    taken_before: Vec<u8>,
    taken_after: Vec<u8>,
    draw: Draw,
    discard: u8,
    final_turn: bool,
    can_go_out: bool,
    /// The discard may end the round (own turns > min) and the turn was not a final turn.
    out_rule: bool,
    went_out: bool,
}

/// Everything the chain needs about one opponent.
#[derive(Clone, Debug)]
struct Opponent {
    seat: usize,
    turns: Vec<SeatTurn>,
    /// Cards dealt (the first slots).
    dealt: usize,
    /// Its public pickups now.
    taken_now: Vec<u8>,
}

/// The replayed history of every opponent and the rules the replay needs.
pub struct Model {
    opponents: Vec<Opponent>,
    eps: f64,
    hard: HardParams,
    num_decks: u8,
    jokers: u8,
    wild: u8,
    rules: crate::meld::MeldRules,
    forbid_return: bool,
}

/// What a broken rule counts in [`Model::misses`] (a likelihood of `epsilon^1000`: none).
const IMPOSSIBLE: u32 = 1000;

fn remove_face(v: &mut Vec<u8>, f: u8) -> bool {
    match v.iter().position(|&c| c == f) {
        Some(i) => {
            v.remove(i);
            true
        }
        None => false,
    }
}

fn insert_sorted(v: &mut Vec<u8>, f: u8) -> usize {
    let i = v.partition_point(|&c| c < f);
    v.insert(i, f);
    i
}

/// Whether multiset `sub` (any order) is inside the sorted multiset `hand`.
fn contains_all(hand: &[u8], sub: &[u8]) -> bool {
    let mut used = [0u8; 256];
    for &f in sub {
        let n = hand.iter().filter(|&&c| c == f).count();
        let u = &mut used[usize::from(f)];
        if usize::from(*u) >= n {
            return false;
        }
        *u += 1;
    }
    true
}

impl Model {
    /// Replays the public history against `table` (the deciding seat's view now).
    ///
    /// # Errors
    /// [`ExpertError::Table`] when the history does not lead to the table (wrong length,
    /// a pile top that was not there, a history cut by a stock rebuild).
    pub fn new(
        table: &Table,
        history: &History,
        hard_params: HardParams,
        epsilon: f64,
    ) -> Result<Self, ExpertError> {
        let bad = |why: &str| Err(ExpertError::Table(format!("history: {why}")));
        let p = table.hand_sizes.len();
        if !(0.0..=1.0).contains(&epsilon) {
            return bad("epsilon outside 0..=1");
        }
        if history.turns.len() != table.turn_in_round as usize {
            return bad("not one turn per turn played (a stock rebuild?)");
        }
        let dealt = table.hand.len() - usize::from(table.discard_phase);
        if history.upcard.is_none()
            && history.turns.first().map(|t| t.draw) != Some(Draw::PileUnknown)
        {
            return bad("an unknown up-card that was not taken on the first turn");
        }
        // The round's public part, played by the rulebook's own turn rules (`Round::take`,
        // `Round::end_turn`): the pile, each seat's pickups it still holds, its turns and who
        // went out. Hands and stock stay empty (hidden); a stock draw changes nothing public.
        let mut round = Round {
            hands: vec![Vec::new(); p],
            pile: history.upcard.into_iter().collect(),
            current: table.first % p,
            own_turns: vec![0; p],
            taken: vec![Vec::new(); p],
            ..Round::default()
        };
        let mut opponents: Vec<Opponent> = (0..p)
            .filter(|&s| s != table.seat)
            .map(|seat| Opponent {
                seat,
                turns: Vec::new(),
                dealt,
                taken_now: table.taken[seat].clone(),
            })
            .collect();
        let n = history.turns.len();
        let mut over = false;
        for (t, turn) in history.turns.iter().enumerate() {
            let s = round.current;
            if round.out == Some(s) {
                return bad("a turn after going out");
            }
            if over {
                return bad("a turn after the round ended");
            }
            if matches!(turn.draw, Draw::PileUnknown) && t != 0 {
                return bad("an unknown pile top after the first turn");
            }
            let top = round.pile.last().copied();
            let seen_draw = round.seen_by(s);
            let taken_before = round.taken[s].clone();
            if let Draw::Pile(c) = turn.draw {
                if top != Some(c) {
                    return bad("a pile card that was not the top");
                }
                round.take(true);
            }
            let seen_discard = round.seen_by(s);
            let feed = round.taken[(s + 1) % p].clone();
            let final_turn = round.out.is_some();
            let can_go_out = round.own_turns[s] >= table.min_own_turns;
            // The seat that went out did so on its last turn.
            let went_out = table.out_seat == Some(s) && t + p >= n;
            if went_out && final_turn {
                return bad("two seats went out");
            }
            // no turn cap here: the round it ends asks no decision
            over = !round.end_turn(turn.discard, table.min_own_turns, u32::MAX, |_| went_out);
            if went_out && round.out != Some(s) {
                return bad("going out before the turns the rules ask");
            }
            let out_rule = !final_turn && round.own_turns[s] > table.min_own_turns;
            if s == table.seat {
                continue;
            }
            let o = opponents
                .iter_mut()
                .find(|o| o.seat == s)
                .expect("an opponent");
            o.turns.push(SeatTurn {
                top: if matches!(turn.draw, Draw::PileUnknown) {
                    None
                } else {
                    top
                },
                seen_draw,
                seen_discard,
                feed,
                taken_before,
                taken_after: round.taken[s].clone(),
                draw: turn.draw,
                discard: turn.discard,
                final_turn,
                can_go_out,
                out_rule,
                went_out,
            });
        }
        if round.out != table.out_seat {
            return bad("the seat that went out");
        }
        // The pile now: in the discard phase the seat may have taken the top.
        let pile = &round.pile;
        let pile_ok = if table.discard_phase {
            *pile == table.pile || pile[..pile.len().saturating_sub(1)] == table.pile[..]
        } else {
            *pile == table.pile
        };
        if !pile_ok {
            return bad("the pile it leads to is not the table's");
        }
        Ok(Self {
            opponents,
            eps: epsilon,
            hard: hard_params,
            num_decks: table.num_decks,
            jokers: table.jokers,
            wild: table.wild,
            rules: table.rules,
            forbid_return: table.forbid_return,
        })
    }

    fn view<'a>(&self, hand: &'a [u8], seen: &'a [u8], final_turn: bool) -> View<'a> {
        View {
            hand,
            seen,
            num_decks: self.num_decks,
            jokers: self.jokers,
            wild: self.wild,
            rules: self.rules,
            final_turn,
        }
    }

    /// The choices of opponent `o` that `hard` would not have made with these slots (the
    /// likelihood is `epsilon` to this power), plus [`IMPOSSIBLE`] for each rule the slots
    /// break (a discard not in hand, a pickup not held, going out or not against the
    /// deadwood): such slots cannot have led to its history, and the count guides the chain
    /// out of them. `hand` is scratch and holds its hand now on return.
    fn misses(&self, o: &Opponent, slots: &[u8], hand: &mut Vec<u8>) -> u32 {
        hand.clear();
        hand.extend_from_slice(&slots[..o.dealt.min(slots.len())]);
        hand.sort_unstable();
        let mut next = o.dealt;
        let mut m = 0u32;
        let mut broken = |ok: bool| {
            if !ok {
                m += IMPOSSIBLE;
            }
        };
        let mut missed = 0u32;
        for t in &o.turns {
            broken(contains_all(hand, &t.taken_before));
            let pile = matches!(t.draw, Draw::Pile(_) | Draw::PileUnknown);
            if let Some(top) = t.top {
                let view = self.view(hand, &t.seen_draw, t.final_turn);
                match hard::take_pile(&view, top, t.can_go_out, &self.hard) {
                    Ok(take) if take == pile => {}
                    _ => missed += 1,
                }
            }
            let card = match t.draw {
                Draw::Pile(c) => Some(c),
                Draw::Stock | Draw::PileUnknown => {
                    next += 1;
                    slots.get(next - 1).copied()
                }
            };
            let Some(card) = card else {
                broken(false);
                continue;
            };
            let at = insert_sorted(hand, card);
            let banned = banned_after_draw(self.forbid_return, pile, at);
            let view = self.view(hand, &t.seen_discard, t.final_turn);
            match hard::discard(&view, banned, &t.feed, &self.hard) {
                Ok(Some(i)) if hand[i] == t.discard => {}
                _ => missed += 1,
            }
            broken(remove_face(hand, t.discard));
            broken(
                !(t.out_rule || t.went_out)
                    || (fast::deadwood(hand, self.wild, &self.rules) == 0) == t.went_out,
            );
            broken(contains_all(hand, &t.taken_after));
        }
        broken(next == slots.len() && contains_all(hand, &o.taken_now));
        m + missed
    }

    /// Slots for opponent `o` whose hidden hand now is `hidden`, labelled backwards at random
    /// (see the module docs).
    fn label(&self, o: &Opponent, hidden: &[u8], rng: &mut CardRng) -> Vec<u8> {
        let mut hand: Vec<u8> = o.taken_now.clone();
        hand.extend_from_slice(hidden);
        let draws = o
            .turns
            .iter()
            .filter(|t| !matches!(t.draw, Draw::Pile(_)))
            .count();
        let mut drawn = vec![0u8; draws];
        let mut k = draws;
        for t in o.turns.iter().rev() {
            hand.push(t.discard);
            match t.draw {
                Draw::Pile(c) => {
                    remove_face(&mut hand, c);
                }
                Draw::Stock | Draw::PileUnknown => {
                    // A uniform pick among the cards not publicly taken before.
                    let mut eligible = hand.clone();
                    for &c in &t.taken_before {
                        remove_face(&mut eligible, c);
                    }
                    // Half the time the card discarded that turn (drawn and let go at once,
                    // as players often do), else uniform: any start is valid for the chain.
                    let pick = if eligible.is_empty() {
                        hand[0]
                    } else if eligible.contains(&t.discard) && rng.below(2) == 0 {
                        t.discard
                    } else {
                        eligible[rng.below(eligible.len() as u64) as usize]
                    };
                    remove_face(&mut hand, pick);
                    k -= 1;
                    drawn[k] = pick;
                }
            }
        }
        hand.extend_from_slice(&drawn);
        hand
    }
}

/// A chain over the opponents' slots and the stock.
pub struct Chain<'m> {
    model: &'m Model,
    slots: Vec<Vec<u8>>,
    miss: Vec<u32>,
    /// The likelihood of a miss the chain targets now (`epsilon` after the burn-in).
    eps: f64,
    stock: Vec<u8>,
    scratch: Vec<u8>,
    /// Proposals made and accepted (for measurements).
    pub proposals: u64,
    /// Accepted proposals.
    pub accepted: u64,
}

impl<'m> Chain<'m> {
    /// A chain started at a uniform deal of `unseen` (from [`Table::unseen`]).
    #[must_use]
    pub fn new(model: &'m Model, table: &Table, unseen: &[u8], rng: &mut CardRng) -> Self {
        let mut cards = unseen.to_vec();
        shuffle(rng, &mut cards);
        let mut at = 0;
        let mut slots = Vec::with_capacity(model.opponents.len());
        let mut miss = Vec::with_capacity(model.opponents.len());
        let mut scratch = Vec::new();
        for o in &model.opponents {
            let k = table.hand_sizes[o.seat] - table.taken[o.seat].len();
            let s = model.label(o, &cards[at..at + k], rng);
            at += k;
            miss.push(model.misses(o, &s, &mut scratch));
            slots.push(s);
        }
        Self {
            model,
            slots,
            miss,
            eps: model.eps,
            stock: cards[at..].to_vec(),
            scratch,
            proposals: 0,
            accepted: 0,
        }
    }

    /// One Metropolis proposal for opponent `j`.
    fn step(&mut self, j: usize, rng: &mut CardRng) {
        let n = self.slots[j].len();
        if n == 0 {
            return;
        }
        let a = rng.below(n as u64) as usize;
        let swap_stock = self.stock.is_empty() || rng.below(3) > 0;
        let (b, old) = if swap_stock && !self.stock.is_empty() {
            let b = rng.below(self.stock.len() as u64) as usize;
            if self.stock[b] == self.slots[j][a] {
                return;
            }
            std::mem::swap(&mut self.slots[j][a], &mut self.stock[b]);
            (b, true)
        } else {
            let b = rng.below(n as u64) as usize;
            if self.slots[j][b] == self.slots[j][a] {
                return;
            }
            self.slots[j].swap(a, b);
            (b, false)
        };
        self.proposals += 1;
        let o = &self.model.opponents[j];
        let new = self.model.misses(o, &self.slots[j], &mut self.scratch);
        // Metropolis on eps^misses.
        let cur = self.miss[j];
        let accept = new <= cur
            || rng.next_f64() < self.eps.powi(i32::try_from(new - cur).unwrap_or(i32::MAX));
        if accept {
            self.miss[j] = new;
            self.accepted += 1;
        } else if old {
            std::mem::swap(&mut self.slots[j][a], &mut self.stock[b]);
        } else {
            self.slots[j].swap(a, b);
        }
    }

    /// `per_slot` proposals per slot of every opponent.
    pub fn sweep(&mut self, per_slot: u32, rng: &mut CardRng) {
        for j in 0..self.slots.len() {
            let k = self.slots[j].len() * per_slot as usize;
            for _ in 0..k {
                self.step(j, rng);
            }
        }
    }

    /// Whether every opponent's history is possible under the current state.
    #[must_use]
    pub fn possible(&self) -> bool {
        self.miss.iter().all(|&m| m < IMPOSSIBLE)
    }

    /// The choices `hard` would not have made under the current state, summed over
    /// opponents (with [`IMPOSSIBLE`] for each broken rule).
    #[must_use]
    pub fn misses(&self) -> u32 {
        self.miss.iter().sum()
    }

    /// The burn-in: `per_slot` proposals per slot in each of `sweeps` sweeps, the likelihood
    /// of a miss tempered from 1/2 down to `epsilon` (so that the chain first finds hands that
    /// explain most choices).
    pub fn burn_in(&mut self, sweeps: u32, rng: &mut CardRng) {
        let target = self.model.eps;
        for k in 0..sweeps {
            let f = f64::from(k + 1) / f64::from(sweeps);
            self.eps = (0.5f64.ln() * (1.0 - f)).exp() * target.max(1e-9).powf(f);
            if k + 1 == sweeps {
                self.eps = target;
            }
            self.sweep(1, rng);
        }
        self.eps = target;
    }

    /// The opponents' hands now under the current state, per seat (the deciding seat's own
    /// entry is `table.hand`), and the stock shuffled with `rng`.
    #[doc(hidden)]
    pub fn deal(&mut self, table: &Table, rng: &mut CardRng) -> Round {
        let p = table.hand_sizes.len();
        let mut hands: Vec<Vec<u8>> = vec![Vec::new(); p];
        hands[table.seat] = table.hand.clone();
        for (j, o) in self.model.opponents.iter().enumerate() {
            let _ = self.model.misses(o, &self.slots[j], &mut self.scratch);
            // The hand now: the pickups first, then the hidden cards (as `Table::deal`).
            let mut hidden = self.scratch.clone();
            for &c in &o.taken_now {
                remove_face(&mut hidden, c);
            }
            let mut h = o.taken_now.clone();
            h.extend_from_slice(&hidden);
            hands[o.seat] = h;
        }
        let mut stock = self.stock.clone();
        shuffle(rng, &mut stock);
        table.round_with(hands, stock)
    }
}

/// `n` deals of the hidden cards at `table` given `history`: a chain from a uniform deal,
/// `params.burn_in` proposals per slot, then `params.thin` between deals.
///
/// # Errors
/// [`ExpertError`] for a table or history that is not a possible position.
#[cfg(test)]
pub(crate) fn deals(
    table: &Table,
    history: &History,
    hard_params: HardParams,
    params: &InferParams,
    n: usize,
    seed: u64,
) -> Result<Vec<Round>, ExpertError> {
    let model = Model::new(table, history, hard_params, params.epsilon)?;
    let unseen = table.unseen()?;
    let mut rng = CardRng::new(seed);
    let mut chain = Chain::new(&model, table, &unseen, &mut rng);
    chain.burn_in(params.burn_in, &mut rng);
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        chain.sweep(params.thin, &mut rng);
        out.push(chain.deal(table, &mut rng));
    }
    Ok(out)
}

/// [`Search::Infer`](crate::three_thirteen_expert::Search::Infer): `hard`'s candidates played
/// to the end of the round by `hard` at every seat (as [`Search::Pimc`]) in deals from the chain
/// (one chain per decision: `params.infer.burn_in` proposals per slot, then `params.infer.thin`
/// between deals). Without a `history` (e.g. after a stock rebuild, when the observation no
/// longer lists the turns before it) the deals are [`Search::Pimc`]'s.
///
/// [`Search::Pimc`]: crate::three_thirteen_expert::Search::Pimc
///
/// # Errors
/// [`ExpertError`] for a table that is not a possible position, or a history that does not
/// lead to it.
pub fn decide(
    table: &Table,
    history: Option<&History>,
    params: &ExpertParams,
    seed: u64,
) -> Result<Decision, ExpertError> {
    table.check()?;
    let Some(history) = history else {
        return decide_pimc(table, params, seed);
    };
    let model = Model::new(table, history, params.hard, params.infer.epsilon)?;
    let budget = params.rollouts > 0 || params.time_limit.is_some();
    let cands = table.pimc_candidates(params)?;
    let (draws, discards) = &cands;
    let k = draws.len().max(discards.len());
    let pick = |c: usize| {
        if table.discard_phase {
            discards[c].0
        } else {
            usize::from(draws[c])
        }
    };
    if k == 1 || !budget {
        return Ok(Decision {
            choice: pick(0),
            deals: 0,
            candidates: 1,
        });
    }
    let unseen = table.unseen()?;
    let mut ctx = table.ctx(false, params.hard);
    ctx.all_hard = true;
    let mut rng = CardRng::new(crate::rng::mix64(seed ^ 0x1f_e2e4));
    let mut chain = Chain::new(&model, table, &unseen, &mut rng);
    chain.burn_in(params.infer.burn_in, &mut rng);
    let tally = PairedTally::run(
        k,
        params.rollouts,
        params.time_limit,
        seed,
        |deal_rng, roll_seed, values| {
            chain.sweep(params.infer.thin, &mut rng);
            let deal = chain.deal(table, deal_rng);
            for (j, v) in values.iter_mut().enumerate() {
                let mut r = deal.clone();
                *v = table.pimc_value(&ctx, &cands, &mut r, &mut CardRng::new(roll_seed), j);
            }
        },
    );
    Ok(Decision {
        choice: pick(tally.choice(params.margin)),
        deals: tally.deals(),
        candidates: k,
    })
}

#[cfg(test)]
mod tests;
