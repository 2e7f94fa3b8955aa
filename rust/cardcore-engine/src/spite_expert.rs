//! The Spite & Malice `expert` agent: the turn planner's best plans checked by determinized
//! look-ahead.
//!
//! At the start of a turn (and after each event that reveals cards) the agent asks the planner
//! for its `candidates` best plans (distinct end positions of the turn). It then deals the
//! cards it has not seen at random, consistently with what it sees (its hand, every side stack,
//! the centre, the pay-off tops and counts, hand and stock sizes), and in each deal plays every
//! candidate, finishes its turn and plays the next `horizon` turns with the planner for every
//! seat (refills, completed stacks shuffled into the stock, wins and stock ties as the rules
//! say). A rollout scores the pay-off cards the seat played minus the mean the others played,
//! plus or minus `win_value` for a win or a loss inside the horizon. A deal is shared by all
//! candidates (common random numbers). The planner's own plan is the default and is replaced
//! only by a candidate ahead by more than `margin` standard errors of the paired difference.
//!
//! The budget is a number of deals (`rollouts`, deterministic) or, with `time_limit`, as many
//! deals as fit in that time (at least one; not reproducible). Every random choice comes from
//! `seed`.
//!
//! The deal is uniform over the unseen cards, except that with [`Table::turn_start_center`]
//! the previous seat gets no hand with which its last turn could have reached its pay-off top
//! from the centre it left (deals are redrawn; [`reaches_payoff`]). It does not use what the
//! engine's `resample_hidden` also knows (pay-off tops seen before a first-player reshuffle,
//! which re-entered stock cards a seat may hold).
//!
//! A deal is the rulebook's state ([`crate::games::spite_malice::State`], lean: no history),
//! cards of each value standing for the values the seat knows, and a rollout plays the
//! planner's plans on it as moves of the rulebook (its shuffles drawn from the rollout's
//! stream): the rules of the look-ahead are the game's. The options supported are limited
//! centre slots, completed stacks shuffled into the stock and a tie at a required draw from an
//! empty stock (the Python agent plays the planner otherwise).

use std::time::Duration;

use crate::games::spite_malice::moves::Build;
use crate::games::spite_malice::{EndReason, Move, Rules, State, StateParts, StockRule};
use crate::paired::PairedTally;
use crate::rng::CardRng;
use crate::shuffle::shuffle;
use crate::spite::{
    self, MAX_CENTER, MAX_HAND, MAX_OPPONENTS, MAX_SIDE_DEPTH, MAX_SIDES, NO_CARD, NUM_FEATURES,
    PlanError, PlanInput, PlanRules, Step, WILD,
};

/// What the deciding seat sees at its turn, as card values (`0` wild, `1..=top`).
#[derive(Clone, Debug)]
pub struct Table {
    /// The deciding seat (to play).
    pub seat: usize,
    /// Its hand.
    pub hand: Vec<u8>,
    /// Per seat: the pay-off top ([`NO_CARD`] when the pile is empty).
    pub payoff_tops: Vec<u8>,
    /// Per seat: cards in the pay-off pile (its top included).
    pub payoff_counts: Vec<u32>,
    /// Per seat, per side stack: its cards, bottom first.
    pub sides: Vec<Vec<Vec<u8>>>,
    /// Per centre slot: its cards, bottom first (the effective rank is the length).
    pub center: Vec<Vec<u8>>,
    /// Per seat: cards in hand.
    pub hand_sizes: Vec<usize>,
    /// Cards in the stock.
    pub stock_count: usize,
    /// Decks in the game.
    pub decks: u8,
    /// Cards a hand is filled to.
    pub hand_size: usize,
    /// Building rules.
    pub rules: PlanRules,
    /// The turn being played (from 1, as the rulebook counts).
    pub turn: u32,
    /// Option `max_turns`.
    pub max_turns: u32,
    /// The centre's effective ranks (stack sizes) when the seat's turn began, as the previous
    /// seat left them; `None` when that seat has not played a turn yet. The previous seat then
    /// ended its turn without reaching its pay-off top, so the deal gives it no hand that
    /// builds from that centre up to its pay-off top (see [`reaches_payoff`]).
    pub turn_start_center: Option<Vec<u8>>,
}

/// The search budget and selection rule.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ExpertParams {
    /// Deals per decision (each plays every candidate once).
    pub rollouts: u32,
    /// When set, deals until this much time has passed instead (at least one deal).
    pub time_limit: Option<Duration>,
    /// Plans compared (the planner's best ones).
    pub candidates: usize,
    /// Turns played after the current one in a rollout.
    pub horizon: usize,
    /// Standard errors of the paired difference a candidate needs to replace the default.
    pub margin: f64,
    /// Rollout score of a win (minus for a loss) inside the horizon.
    pub win_value: f64,
    /// The planner's node budget per plan.
    pub node_limit: u32,
    /// The planner's weights.
    pub weights: [f64; NUM_FEATURES],
}

/// A decision: the plan to play and what the search did.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    /// The plan's steps (hand indices into [`Table::hand`]).
    pub steps: Vec<Step>,
    /// Deals played.
    pub deals: u32,
    /// Plans compared.
    pub candidates: usize,
}

/// The rulebook's game for a table: its rules, per card value the physical cards that stand
/// for it (the seat knows only values; any cards of the right values play alike) and the
/// position, the table's cards given the same physical cards in every deal.
#[doc(hidden)]
pub struct Rulebook {
    /// Per physical card: its value.
    pub values: Vec<u8>,
    /// Per value (`0` wild, `1..=top`): the physical cards of that building value.
    ids: Vec<Vec<u16>>,
    /// Per value: the cards the side stacks and the centre hold (the first ones).
    fixed: Vec<usize>,
    /// A deal of the table as the rulebook's state (lean: no history).
    base: State,
}

impl Rulebook {
    /// The rulebook's game of `table` (a game whose options the expert supports: limited
    /// centre slots, completed stacks shuffled into the stock, a tie at a required draw from
    /// an empty stock) with `unseen` dealt.
    ///
    /// # Errors
    /// The table is not a position of such a game.
    pub fn new(table: &Table, unseen: &[u8]) -> Result<Self, PlanError> {
        let rules = Rules {
            players: table.players(),
            decks: usize::from(table.decks),
            jokers: table.rules.top == 13,
            // the deal is the table's: the pay-off size only has to fit the deck
            payoff_size: 1,
            hand_size: table.hand_size,
            side_stacks: table.sides[table.seat].len(),
            center_stacks: table.center.len(),
            king_can_start: table.rules.wild_start,
            refill_empty_hand: table.rules.refill_empty_hand,
            completed_to_stock: true,
            stock_rule: StockRule::TieOnRequiredDraw,
            side_rule: table.rules.side_rule,
            must_play_aces: table.rules.must_play_aces,
            first_player: None,
            max_turns: table.max_turns,
            win_bonus: 0,
        };
        if !rules.check() {
            return Err(PlanError::BadRules(
                "the table is not a game of the rules (seats, decks, hand size, side stacks or \
                 centre slots out of range)"
                    .into(),
            ));
        }
        let values = card_values(&rules);
        let mut ids = vec![Vec::new(); usize::from(table.rules.top) + 1];
        for (c, &v) in values.iter().enumerate() {
            if let Some(pool) = ids.get_mut(usize::from(v)) {
                pool.push(c as u16);
            }
        }
        let mut book = Self {
            values,
            ids,
            fixed: Vec::new(),
            base: State::new(rules.clone(), 0, false).expect("checked rules"),
        };
        let mut next = vec![0; book.ids.len()];
        let sides = table
            .sides
            .iter()
            .map(|ss| ss.iter().map(|st| book.cards(st, &mut next)).collect())
            .collect::<Result<_, _>>()?;
        let center = table
            .center
            .iter()
            .map(|c| book.cards(c, &mut next))
            .collect::<Result<_, _>>()?;
        book.fixed = next;
        let deal = table.deal(unseen, &mut CardRng::new(0));
        let (hands, payoffs, stock) = book.hidden(&deal)?;
        let p = table.players();
        let parts = StateParts {
            seed: 0,
            rng: CardRng::new(0).state(),
            deck_order: Vec::new(),
            payoffs,
            hands,
            sides,
            center,
            stock,
            used: Vec::new(),
            current: table.seat,
            first_player: table.seat,
            turn: table.turn,
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
        };
        book.base = State::from_parts(rules, parts)
            .map_err(|e| PlanError::BadRules(format!("the table is not a game position: {}", e.0)))?
            .lean();
        Ok(book)
    }

    /// Physical cards for `values`, the next ones of each value after `next`.
    fn cards(&self, values: &[u8], next: &mut [usize]) -> Result<Vec<u16>, PlanError> {
        values
            .iter()
            .map(|&v| {
                let c = self
                    .ids
                    .get(usize::from(v))
                    .and_then(|pool| pool.get(next[usize::from(v)]))
                    .ok_or_else(|| PlanError::BadRules(format!("too many cards of value {v}")))?;
                next[usize::from(v)] += 1;
                Ok(*c)
            })
            .collect()
    }

    /// The hands, pay-off piles and stock of a deal as physical cards (after the table's).
    #[allow(clippy::type_complexity)]
    fn hidden(&self, deal: &Deal) -> Result<(Vec<Vec<u16>>, Vec<Vec<u16>>, Vec<u16>), PlanError> {
        let mut next = self.fixed.clone();
        let hands = deal
            .hands
            .iter()
            .map(|h| self.cards(h, &mut next))
            .collect::<Result<_, _>>()?;
        let payoffs = deal
            .payoffs
            .iter()
            .map(|h| self.cards(h, &mut next))
            .collect::<Result<_, _>>()?;
        let stock = self.cards(&deal.stock, &mut next)?;
        Ok((hands, payoffs, stock))
    }

    /// The rulebook's state of a deal of the table.
    ///
    /// # Panics
    /// A deal that is not one of the table's unseen cards.
    #[must_use]
    pub fn game(&self, deal: &Deal) -> Game {
        let (hands, payoffs, stock) = self.hidden(deal).expect("a deal of the unseen cards");
        let mut g = self.base.clone();
        g.redeal(hands, payoffs, stock)
            .expect("a deal of the unseen cards");
        Game(g)
    }
}

/// A dealt game, from the deciding seat's turn on: the rulebook's state (lean), played by
/// the planner for every seat.
#[derive(Clone)]
#[doc(hidden)]
pub struct Game(pub State);

/// The unseen cards dealt (values): every seat's hand (the deciding seat's own), pay-off
/// pile (bottom first, its known top last) and the stock (top last).
#[derive(Clone, Debug)]
#[doc(hidden)]
pub struct Deal {
    pub hands: Vec<Vec<u8>>,
    pub payoffs: Vec<Vec<u8>>,
    pub stock: Vec<u8>,
}

#[doc(hidden)]
pub struct Ctx<'a> {
    pub table: &'a Table,
    pub params: &'a ExpertParams,
    /// Per physical card: its value ([`card_values`]).
    pub values: &'a [u8],
}

/// Per physical card of a game of `rules`: its value (`0` wild, `1..=top`).
#[must_use]
pub fn card_values(rules: &Rules) -> Vec<u8> {
    (0..rules.total_cards())
        .map(|c| rules.rank(c as u16))
        .collect()
}

/// The planner's input for a seat: `hand` its hand, `sides` its side stacks and `next_sides`
/// the next seat's (bottom first), `center` the centre slots' ranks, `tops` every seat's
/// pay-off top ([`NO_CARD`]: none), `left` its pay-off count (all as values).
#[allow(clippy::too_many_arguments)]
fn plan_input<S: AsRef<[u8]>>(
    seat: usize,
    hand: &[u8],
    sides: &[S],
    next_sides: &[S],
    center: &[u8],
    tops: &[u8],
    left: u32,
    rules: PlanRules,
) -> Result<PlanInput, PlanError> {
    let p = tops.len();
    let sides_down: Vec<Vec<u8>> = sides
        .iter()
        .map(|st| {
            st.as_ref()
                .iter()
                .rev()
                .take(MAX_SIDE_DEPTH)
                .copied()
                .collect()
        })
        .collect();
    let refs: Vec<&[u8]> = sides_down.iter().map(Vec::as_slice).collect();
    let lens: Vec<usize> = sides.iter().map(|st| st.as_ref().len()).collect();
    let center: Vec<u8> = center.iter().take(MAX_CENTER).copied().collect();
    let opps: Vec<u8> = (1..p.min(MAX_OPPONENTS + 1))
        .map(|k| tops[(seat + k) % p])
        .collect();
    let next_tops: Vec<u8> = next_sides
        .iter()
        .filter_map(|st| st.as_ref().last().copied())
        .collect();
    PlanInput::new(
        hand, &refs, &lens, tops[seat], left, &center, &opps, &next_tops, rules,
    )
}

impl Game {
    fn players(&self) -> usize {
        self.0.rules().players
    }

    /// The planner's input for the seat to play (what [`plan_input`] makes of its piles'
    /// values, without a heap allocation: this runs for every plan of a rollout).
    fn plan_input(&self, ctx: &Ctx<'_>) -> Result<PlanInput, PlanError> {
        let st = &self.0;
        let (s, p) = (st.current(), self.players());
        let value = |c: &u16| ctx.values[usize::from(*c)];
        let (hand_ids, own, next) = (&st.hands()[s], &st.sides()[s], &st.sides()[(s + 1) % p]);
        if hand_ids.len() > MAX_HAND || own.len() > MAX_SIDES || next.len() > MAX_SIDES {
            return Err(PlanError::TooMany {
                what: "hand or side stacks",
                got: hand_ids.len().max(own.len()).max(next.len()),
                limit: MAX_SIDES.min(MAX_HAND),
            });
        }
        let mut hand = [0u8; MAX_HAND];
        for (h, c) in hand.iter_mut().zip(hand_ids) {
            *h = value(c);
        }
        let mut down = [[0u8; MAX_SIDE_DEPTH]; MAX_SIDES];
        let mut known = [0usize; MAX_SIDES];
        let mut lens = [0usize; MAX_SIDES];
        for (k, stack) in own.iter().enumerate() {
            for (d, c) in down[k].iter_mut().zip(stack.iter().rev()) {
                *d = value(c);
            }
            known[k] = stack.len().min(MAX_SIDE_DEPTH);
            lens[k] = stack.len();
        }
        let mut refs: [&[u8]; MAX_SIDES] = [&[]; MAX_SIDES];
        for (k, r) in refs.iter_mut().enumerate().take(own.len()) {
            *r = &down[k][..known[k]];
        }
        let mut center = [0u8; MAX_CENTER];
        let nc = st.center().len().min(MAX_CENTER);
        for (e, c) in center.iter_mut().zip(st.center()) {
            *e = u8::try_from(c.len()).unwrap_or(u8::MAX);
        }
        let top = |k: usize| st.payoffs()[k].last().map_or(NO_CARD, value);
        let mut opps = [NO_CARD; MAX_OPPONENTS];
        let no = p.min(MAX_OPPONENTS + 1) - 1;
        for (k, o) in opps.iter_mut().enumerate().take(no) {
            *o = top((s + k + 1) % p);
        }
        let mut next_tops = [0u8; MAX_SIDES];
        let mut nn = 0;
        for stack in next {
            if let Some(c) = stack.last() {
                next_tops[nn] = value(c);
                nn += 1;
            }
        }
        let left = u32::try_from(st.payoffs()[s].len()).unwrap_or(u32::MAX);
        PlanInput::new(
            &hand[..hand_ids.len()],
            &refs[..own.len()],
            &lens[..own.len()],
            top(s),
            left,
            &center[..nc],
            &opps[..no],
            &next_tops[..nn],
            ctx.table.rules,
        )
    }

    /// Plays `steps` (hand indices as of now) for the seat to play, until its turn or the
    /// game ends.
    fn execute(&mut self, steps: &[Step]) {
        let st = &mut self.0;
        let seat = st.current();
        let mut hand = [0u16; MAX_HAND];
        for (h, &c) in hand.iter_mut().zip(&st.hands()[seat]) {
            *h = c;
        }
        for &step in steps {
            let Some(mv) = step_move(step, &hand) else {
                continue;
            };
            st.apply_move(mv)
                .expect("the planner plays the rulebook's legal moves");
            if st.over() || st.current() != seat {
                return;
            }
        }
    }

    /// Plays the rest of the seat to play's turn (`first`: the plan already chosen, then the
    /// planner's plans after each card revealed) on the rulebook's state.
    #[doc(hidden)]
    pub fn finish_turn(&mut self, ctx: &Ctx<'_>, first: Option<&[Step]>) {
        let seat = self.0.current();
        let mut first = first;
        // A turn has at most one plan per revealed card; the cap only guards the loop.
        for _ in 0..256 {
            if self.0.over() || self.0.current() != seat {
                return;
            }
            let steps = match first.take() {
                Some(steps) => steps.to_vec(),
                None => match self.plan_input(ctx) {
                    Ok(inp) => spite::plan(&inp, &ctx.params.weights, ctx.params.node_limit).steps,
                    Err(_) => Vec::new(),
                },
            };
            if steps.is_empty() {
                // no plan (a node budget spent before any end of turn): the first legal move
                let mv = self.0.legal_moves()[0];
                self.0
                    .apply_move(mv)
                    .expect("the rulebook's legal moves are legal");
                continue;
            }
            self.execute(&steps);
        }
    }

    /// The deciding seat's rollout score (see the module docs).
    #[doc(hidden)]
    pub fn utility(&self, ctx: &Ctx<'_>) -> f64 {
        let me = ctx.table.seat;
        let st = &self.0;
        if st.over() {
            return match st.winner() {
                Some(w) if w == me => ctx.params.win_value,
                Some(_) => -ctx.params.win_value,
                None => 0.0,
            };
        }
        let played = |s: usize| -> f64 {
            f64::from(ctx.table.payoff_counts[s])
                - f64::from(u32::try_from(st.payoffs()[s].len()).unwrap_or(0))
        };
        let p = self.players();
        let others: f64 = (0..p).filter(|&s| s != me).map(played).sum();
        let mean = others / (p - 1) as f64;
        played(me) - mean
    }
}

/// Deals tried for one consistent with the previous seat's turn before a deal is kept anyway.
const DEAL_TRIES: u32 = 64;

/// Whether a seat holding `hand` (values) with side stacks `sides` (bottom first) could build
/// from a centre of effective ranks `center` up to its pay-off top `payoff` and play it, using
/// one centre stack: every value from the stack's next one up to `payoff - 1` from its hand (a
/// natural card or a wild) or a side-stack top (a side card uncovers the one below). Plays on
/// other stacks (to uncover side cards or complete a stack) are not tried, so a `true` is
/// always a real way to the pay-off card and a `false` may miss one. A wild pay-off top (always
/// playable on a started stack) or no pay-off card gives `false`.
#[must_use]
pub fn reaches_payoff(
    hand: &[u8],
    sides: &[Vec<u8>],
    center: &[u8],
    payoff: u8,
    rules: PlanRules,
) -> bool {
    if payoff == WILD || payoff == NO_CARD || payoff > rules.top {
        return false;
    }
    let mut counts = [0u8; 256];
    for &v in hand {
        counts[usize::from(v)] = counts[usize::from(v)].saturating_add(1);
    }
    let mut depth: Vec<usize> = sides.iter().map(Vec::len).collect();
    let mut budget = 4096u32;
    center.iter().any(|&e| {
        e < payoff
            && build(
                e,
                payoff,
                &mut counts,
                sides,
                &mut depth,
                Build {
                    top: rules.top,
                    wild_start: rules.wild_start,
                },
                &mut budget,
            )
    })
}

/// Depth-first search of [`reaches_payoff`] on one stack at rank `e` (the stack's next value is
/// `e + 1`); `budget` bounds the nodes (exhausted: `false`).
fn build(
    e: u8,
    payoff: u8,
    counts: &mut [u8; 256],
    sides: &[Vec<u8>],
    depth: &mut [usize],
    b: Build,
    budget: &mut u32,
) -> bool {
    if e + 1 == payoff {
        return true;
    }
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    let v = e + 1;
    // A side card of the value first (it uncovers another card and keeps the hand's), then
    // the hand's natural card; then a wild the same way (a side wild before the hand's).
    for card in [v, WILD] {
        // the rulebook's building rule (a wild card on an empty stack only with wild_start)
        if !b.fits(card, e) {
            break;
        }
        for i in 0..sides.len() {
            let d = depth[i];
            if d > 0 && sides[i][d - 1] == card {
                depth[i] -= 1;
                let ok = build(v, payoff, counts, sides, depth, b, budget);
                depth[i] += 1;
                if ok {
                    return true;
                }
            }
        }
        let c = usize::from(card);
        if counts[c] > 0 {
            counts[c] -= 1;
            let ok = build(v, payoff, counts, sides, depth, b, budget);
            counts[c] += 1;
            if ok {
                return true;
            }
        }
    }
    false
}

impl Table {
    fn players(&self) -> usize {
        self.hand_sizes.len()
    }

    fn check(&self) -> Result<(), PlanError> {
        let bad = |why: &str| Err(PlanError::BadRules(why.to_owned()));
        let p = self.players();
        if !(2..=4).contains(&p) || self.seat >= p {
            return bad("seats");
        }
        if self.payoff_tops.len() != p
            || self.payoff_counts.len() != p
            || self.sides.len() != p
            || self.sides.iter().any(|ss| ss.len() != self.sides[0].len())
        {
            return bad("one pay-off pile and side stacks per seat");
        }
        if self.hand.len() != self.hand_sizes[self.seat] {
            return bad("the seat's hand size");
        }
        if self.center.len() > MAX_CENTER || self.center.is_empty() {
            return bad("centre slots");
        }
        for s in 0..p {
            if (self.payoff_tops[s] == NO_CARD) != (self.payoff_counts[s] == 0) {
                return bad("a pay-off top without cards (or cards without a top)");
            }
        }
        if let Some(c) = &self.turn_start_center
            && (c.len() != self.center.len() || c.iter().any(|&e| e >= self.rules.top))
        {
            return bad("turn_start_center: one rank below the completing rank per centre slot");
        }
        Ok(())
    }

    /// The cards the seat has not seen, as values.
    #[doc(hidden)]
    pub fn unseen(&self) -> Result<Vec<u8>, PlanError> {
        let top = self.rules.top;
        let decks = usize::from(self.decks);
        let mut counts = vec![0i64; usize::from(top) + 1];
        for c in counts.iter_mut().skip(1) {
            *c = i64::try_from(4 * decks).unwrap_or(0);
        }
        // Wild cards: the kings (4 a deck) or the jokers (2 a deck).
        counts[usize::from(WILD)] =
            i64::try_from(if top == 12 { 4 * decks } else { 2 * decks }).unwrap_or(0);
        let known = self
            .hand
            .iter()
            .chain(self.sides.iter().flatten().flatten())
            .chain(self.center.iter().flatten())
            .chain(self.payoff_tops.iter().filter(|&&v| v != NO_CARD));
        for &v in known {
            let Some(c) = counts.get_mut(usize::from(v)) else {
                return Err(PlanError::BadCard {
                    what: "table",
                    value: v,
                    top,
                });
            };
            *c -= 1;
            if *c < 0 {
                return Err(PlanError::BadRules(format!("too many cards of value {v}")));
            }
        }
        let mut out = Vec::new();
        for (v, &c) in (0u8..).zip(&counts) {
            for _ in 0..c {
                out.push(v);
            }
        }
        let p = self.players();
        let hidden: usize = (0..p)
            .map(|s| {
                let hand = if s == self.seat {
                    0
                } else {
                    self.hand_sizes[s]
                };
                hand + usize::try_from(self.payoff_counts[s].saturating_sub(1)).unwrap_or(0)
            })
            .sum::<usize>()
            + self.stock_count;
        if hidden != out.len() {
            return Err(PlanError::BadRules(format!(
                "{} unseen cards for {hidden} hidden places",
                out.len()
            )));
        }
        Ok(out)
    }

    /// Where the previous seat's hand lies in a deal's cards (start, length) and the centre
    /// it left, when [`Table::turn_start_center`] rules some of its hands out: it is known, the
    /// seat has cards in hand and its pay-off top was out of reach without them.
    #[doc(hidden)]
    pub fn previous_hand(&self) -> Option<(usize, usize, &[u8])> {
        let center = self.turn_start_center.as_deref()?;
        let p = self.players();
        let prev = (self.seat + p - 1) % p;
        let n = self.hand_sizes[prev];
        if prev == self.seat
            || n == 0
            || reaches_payoff(
                &[],
                &self.sides[prev],
                center,
                self.payoff_tops[prev],
                self.rules,
            )
        {
            return None;
        }
        let below =
            |s: usize| usize::try_from(self.payoff_counts[s].saturating_sub(1)).unwrap_or(0);
        let at = (0..prev)
            .map(|s| if s == self.seat { 0 } else { self.hand_sizes[s] } + below(s))
            .sum();
        Some((at, n, center))
    }

    /// A random deal of the unseen cards (the previous seat's hand kept to what its last turn
    /// allows, see [`Table::turn_start_center`]: deals are redrawn up to `DEAL_TRIES` times).
    #[doc(hidden)]
    pub fn deal(&self, unseen: &[u8], rng: &mut CardRng) -> Deal {
        let p = self.players();
        let mut cards = unseen.to_vec();
        shuffle(rng, &mut cards);
        if let Some((at, n, center)) = self.previous_hand() {
            let prev = (self.seat + p - 1) % p;
            let reaches = |hand: &[u8]| {
                reaches_payoff(
                    hand,
                    &self.sides[prev],
                    center,
                    self.payoff_tops[prev],
                    self.rules,
                )
            };
            let mut tries = 1;
            while tries < DEAL_TRIES && reaches(&cards[at..at + n]) {
                shuffle(rng, &mut cards);
                tries += 1;
            }
        }
        let mut at = 0;
        let mut take = |n: usize| {
            let part = cards[at..at + n].to_vec();
            at += n;
            part
        };
        let mut hands = Vec::with_capacity(p);
        let mut payoffs = Vec::with_capacity(p);
        for s in 0..p {
            hands.push(if s == self.seat {
                self.hand.clone()
            } else {
                take(self.hand_sizes[s])
            });
            let below = usize::try_from(self.payoff_counts[s].saturating_sub(1)).unwrap_or(0);
            let mut pile = take(below);
            if self.payoff_tops[s] != NO_CARD {
                pile.push(self.payoff_tops[s]);
            }
            payoffs.push(pile);
        }
        let stock = take(self.stock_count);
        Deal {
            hands,
            payoffs,
            stock,
        }
    }

    /// The planner's input for the deciding seat as it sees the table.
    #[doc(hidden)]
    pub fn plan_input(&self) -> Result<PlanInput, PlanError> {
        let s = self.seat;
        let p = self.players();
        let center: Vec<u8> = self
            .center
            .iter()
            .map(|c| u8::try_from(c.len()).unwrap_or(u8::MAX))
            .collect();
        plan_input(
            s,
            &self.hand,
            &self.sides[s],
            &self.sides[(s + 1) % p],
            &center,
            &self.payoff_tops,
            self.payoff_counts[s],
            self.rules,
        )
    }
}

/// Plays every plan in the same deals of the unseen cards until the budget is spent.
#[doc(hidden)]
pub fn search(
    table: &Table,
    params: &ExpertParams,
    book: &Rulebook,
    plans: &[spite::Plan],
    unseen: &[u8],
    seed: u64,
) -> PairedTally {
    let ctx = Ctx {
        table,
        params,
        values: &book.values,
    };
    PairedTally::run(
        plans.len(),
        params.rollouts,
        params.time_limit,
        seed,
        |rng, roll_seed, values| {
            let deal = book.game(&table.deal(unseen, rng));
            for (v, plan) in values.iter_mut().zip(plans) {
                let mut g = deal.clone();
                g.0.set_rng(CardRng::new(roll_seed));
                g.finish_turn(&ctx, Some(&plan.steps));
                for _ in 0..params.horizon {
                    if g.0.over() {
                        break;
                    }
                    g.finish_turn(&ctx, None);
                }
                *v = g.utility(&ctx);
            }
        },
    )
}

/// The expert's plan at `table` (see the module docs).
///
/// # Errors
/// [`PlanError`] for a table that is not a possible position.
pub fn decide(table: &Table, params: &ExpertParams, seed: u64) -> Result<Decision, PlanError> {
    table.check()?;
    let inp = table.plan_input()?;
    let plans = spite::plan_top(&inp, &params.weights, params.node_limit, params.candidates);
    if plans.len() <= 1 || (params.rollouts == 0 && params.time_limit.is_none()) {
        return Ok(Decision {
            steps: plans
                .into_iter()
                .next()
                .map(|p| p.steps)
                .unwrap_or_default(),
            deals: 0,
            candidates: 1,
        });
    }
    let unseen = table.unseen()?;
    let book = Rulebook::new(table, &unseen)?;
    let tally = search(table, params, &book, &plans, &unseen, seed);
    let (choice, deals, k) = (tally.choice(params.margin), tally.deals(), plans.len());
    Ok(Decision {
        steps: plans[choice].steps.clone(),
        deals,
        candidates: k,
    })
}

/// The rulebook move of a planner step, with `hand` the seat's hand as the plan numbers it
/// (None for [`Step::None`]).
fn step_move(step: Step, hand: &[u16]) -> Option<Move> {
    Some(match step {
        Step::PayOff(c) => Move::PayOff { center: c.into() },
        Step::Side(k, c) => Move::Side {
            side: k.into(),
            center: c.into(),
        },
        Step::Hand(i, c) => Move::Hand {
            card: hand[usize::from(i)],
            center: c.into(),
        },
        Step::Discard(i, k) => Move::Discard {
            card: hand[usize::from(i)],
            side: k.into(),
        },
        Step::None => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spite::SideRule;

    /// Two players, two decks, kings wild: seat 0 to play its first turn.
    fn table() -> Table {
        Table {
            seat: 0,
            hand: vec![1, 2, 7, 9, 0],
            payoff_tops: vec![3, 11],
            payoff_counts: vec![20, 20],
            sides: vec![vec![Vec::new(); 4], vec![Vec::new(); 4]],
            center: vec![Vec::new(); 3],
            hand_sizes: vec![5, 5],
            stock_count: 104 - 40 - 10,
            decks: 2,
            hand_size: 5,
            rules: PlanRules {
                top: 12,
                wild_start: true,
                refill_empty_hand: true,
                side_rule: SideRule::Any,
                must_play_aces: false,
            },
            turn: 1,
            max_turns: 1000,
            turn_start_center: None,
        }
    }

    fn params() -> ExpertParams {
        ExpertParams {
            rollouts: 8,
            time_limit: None,
            candidates: 4,
            horizon: 2,
            margin: 1.0,
            win_value: 10.0,
            node_limit: 500_000,
            weights: spite::preset("hard").unwrap(),
        }
    }

    /// The cards of a deal of table `t`.
    fn cards(t: &Table, d: &Deal) -> usize {
        d.hands.iter().map(Vec::len).sum::<usize>()
            + d.payoffs.iter().map(Vec::len).sum::<usize>()
            + t.sides.iter().flatten().map(Vec::len).sum::<usize>()
            + t.center.iter().map(Vec::len).sum::<usize>()
            + d.stock.len()
    }

    #[test]
    fn same_seed_same_plan() {
        let t = table();
        let a = decide(&t, &params(), 5).unwrap();
        assert_eq!(a, decide(&t, &params(), 5).unwrap());
        assert!(matches!(
            a.steps.last(),
            Some(Step::Discard(..) | Step::PayOff(_))
        ));
    }

    /// A deal becomes the rulebook's state with the deal's values in the same places, and the
    /// rollouts play it turn by turn to the end.
    #[test]
    fn rollouts_play_the_rulebook_state_of_a_deal() {
        let t = table();
        let unseen = t.unseen().unwrap();
        let p = params();
        let book = Rulebook::new(&t, &unseen).unwrap();
        let ctx = Ctx {
            table: &t,
            params: &p,
            values: &book.values,
        };
        for seed in 0..6 {
            let mut rng = CardRng::new(seed);
            let deal = t.deal(&unseen, &mut rng);
            assert_eq!(cards(&t, &deal), 104);
            let mut g = book.game(&deal);
            let v = |pile: &Vec<u16>| pile.iter().map(|&c| book.values[usize::from(c)]).collect();
            let st = &g.0;
            assert_eq!(
                st.hands().iter().map(v).collect::<Vec<Vec<u8>>>(),
                deal.hands
            );
            assert_eq!(
                st.payoffs().iter().map(v).collect::<Vec<Vec<u8>>>(),
                deal.payoffs
            );
            assert_eq!(v(&st.stock().to_vec()), deal.stock);
            assert_eq!(
                st.center().iter().map(v).collect::<Vec<Vec<u8>>>(),
                t.center
            );
            assert_eq!((st.current(), st.turn()), (t.seat, t.turn));
            g.0.set_rng(CardRng::new(seed));
            for turn in 0..1000 {
                if g.0.over() {
                    break;
                }
                let seat = g.0.current();
                g.finish_turn(&ctx, None);
                assert!(
                    g.0.over() || g.0.current() != seat,
                    "seed {seed}, turn {turn}"
                );
            }
            assert!(g.0.over(), "seed {seed}: a game ends within 1000 turns");
        }
        // a position the rules cannot hold: a turn 0
        let bad = Table { turn: 0, ..t };
        assert!(decide(&bad, &p, 1).is_err());
    }

    /// The table the Python `ExpertAgent` builds for the seat to play of a rulebook state.
    fn table_of(st: &crate::games::spite_malice::State, start: Option<Vec<u8>>) -> Table {
        let r = st.rules();
        let v = |pile: &Vec<u16>| pile.iter().map(|&c| r.rank(c)).collect::<Vec<u8>>();
        let seat = st.current();
        Table {
            seat,
            hand: v(&st.hands()[seat]),
            payoff_tops: st
                .payoffs()
                .iter()
                .map(|p| p.last().map_or(NO_CARD, |&c| r.rank(c)))
                .collect(),
            payoff_counts: st.payoffs().iter().map(|p| p.len() as u32).collect(),
            sides: st
                .sides()
                .iter()
                .map(|ss| ss.iter().map(v).collect())
                .collect(),
            center: st.center().iter().map(v).collect(),
            hand_sizes: st.hands().iter().map(Vec::len).collect(),
            stock_count: st.stock().len(),
            decks: r.decks as u8,
            hand_size: r.hand_size,
            rules: PlanRules {
                top: r.top() as u8,
                wild_start: r.king_can_start,
                refill_empty_hand: r.refill_empty_hand,
                side_rule: r.side_rule,
                must_play_aces: r.must_play_aces,
            },
            turn: st.turn(),
            max_turns: r.max_turns,
            turn_start_center: start,
        }
    }

    /// Expert games on the rulebook under the rules the expert supports: a fingerprint of
    /// every decision (its steps, deals and candidates). The rollouts moved onto the
    /// rulebook's state (issue #32) without changing one decision: the fingerprint was taken
    /// before the move.
    #[test]
    fn expert_decisions_are_unchanged() {
        use crate::games::spite_malice::{Rules, State, StockRule};
        let mut h = Vec::new();
        let (mut decisions, mut deals) = (0, 0);
        for (seed, players, jokers, refill, side_rule, aces, hand_size, cap) in [
            (11, 2, false, true, SideRule::Any, false, 5, 1000),
            (12, 3, true, true, SideRule::SameOrOneLower, true, 5, 1000),
            (13, 4, false, false, SideRule::NoAces, false, 4, 1000),
            (14, 2, true, false, SideRule::Any, true, 3, 1000),
            (15, 2, false, true, SideRule::SameOrOneLower, false, 5, 12),
        ] {
            let rules = Rules {
                players,
                decks: 2,
                jokers,
                payoff_size: 10,
                hand_size,
                side_stacks: 4,
                center_stacks: 4,
                king_can_start: !jokers,
                refill_empty_hand: refill,
                completed_to_stock: true,
                stock_rule: StockRule::TieOnRequiredDraw,
                side_rule,
                must_play_aces: aces,
                first_player: None,
                max_turns: cap,
                win_bonus: 0,
            };
            let mut st = State::new(rules.clone(), seed, false).unwrap();
            let p = ExpertParams {
                rollouts: 4,
                candidates: 3,
                margin: 0.25,
                node_limit: 20_000,
                ..params()
            };
            let (mut start_turn, mut start) = (0, None);
            let mut rng = CardRng::new(seed);
            while !st.over() {
                if st.turn() != start_turn {
                    start_turn = st.turn();
                    start = (st.turn() > 1)
                        .then(|| st.center().iter().map(|c| c.len() as u8).collect());
                }
                let seat = st.current();
                let t = table_of(&st, start.clone());
                let d = decide(&t, &p, rng.next_u64()).unwrap();
                decisions += 1;
                deals += d.deals;
                h.extend(format!("{:?} {} {};", d.steps, d.deals, d.candidates).bytes());
                assert!(!d.steps.is_empty());
                let hand = st.hands()[seat].clone();
                for step in d.steps {
                    let Some(mv) = step_move(step, &hand) else {
                        continue;
                    };
                    let (k, x, y) = mv.code();
                    st.apply_code(k, x as i64, y as i64).unwrap();
                }
            }
        }
        let got = crate::rng::fnv1a64(&h);
        assert_eq!(
            (decisions, deals, got),
            (387, 1540, 5_082_336_541_505_921_103)
        );
    }

    #[test]
    fn reaching_the_payoff_top() {
        let r = table().rules;
        let none: Vec<Vec<u8>> = vec![Vec::new(); 4];
        // Centre at 3, pay-off 6: 4 and 5 are needed.
        assert!(!reaches_payoff(&[5, 9], &none, &[3, 0], 6, r));
        assert!(reaches_payoff(&[5, 4], &none, &[3, 0], 6, r));
        assert!(reaches_payoff(&[5, WILD], &none, &[3, 0], 6, r));
        assert!(!reaches_payoff(&[WILD], &none, &[3, 0], 6, r));
        // A side card counts only once uncovered.
        let sides = vec![vec![4], vec![5, 9], Vec::new(), Vec::new()];
        assert!(!reaches_payoff(&[], &sides, &[3, 0], 6, r));
        let sides = vec![vec![4], vec![9, 5], Vec::new(), Vec::new()];
        assert!(reaches_payoff(&[], &sides, &[3, 0], 6, r));
        // Directly playable, from an empty slot, and a wild start.
        assert!(reaches_payoff(&[], &none, &[5], 6, r));
        assert!(reaches_payoff(&[1], &none, &[0], 2, r));
        assert!(reaches_payoff(&[WILD], &none, &[0], 2, r));
        let strict = PlanRules {
            wild_start: false,
            ..r
        };
        assert!(!reaches_payoff(&[WILD], &none, &[0], 2, strict));
        // No constraint from a wild or missing pay-off top, or above the centre.
        assert!(!reaches_payoff(&[1, 2, 3], &none, &[0], WILD, r));
        assert!(!reaches_payoff(&[1, 2, 3], &none, &[0], NO_CARD, r));
        assert!(!reaches_payoff(&[1, 2, 3], &none, &[7], 5, r));
    }

    #[test]
    fn deals_keep_to_the_previous_turn() {
        // Seat 1 left the centre at 3 and 0 with its pay-off top 6 out of reach.
        let mut t = table();
        t.payoff_tops = vec![3, 6];
        t.center = vec![vec![1, 2, 3], Vec::new(), Vec::new()];
        t.stock_count -= 3;
        t.hand_sizes = vec![5, 4];
        t.stock_count += 1;
        t.turn_start_center = Some(vec![3, 0, 0]);
        let unseen = t.unseen().unwrap();
        let mut uniform = 0;
        let mut rng = CardRng::new(3);
        for _ in 0..200 {
            let g = t.deal(&unseen, &mut rng);
            assert_eq!(cards(&t, &g), 104);
            assert!(!reaches_payoff(
                &g.hands[1],
                &t.sides[1],
                &[3, 0, 0],
                6,
                t.rules
            ));
        }
        let old = Table {
            turn_start_center: None,
            ..t.clone()
        };
        for _ in 0..200 {
            let g = old.deal(&unseen, &mut rng);
            uniform += u32::from(reaches_payoff(
                &g.hands[1],
                &t.sides[1],
                &[3, 0, 0],
                6,
                t.rules,
            ));
        }
        assert!(
            uniform > 20,
            "the uniform deal often gives seat 1 a way: {uniform}"
        );
        // A pay-off top the centre takes at once: the turn start tells nothing.
        t.turn_start_center = Some(vec![5, 0, 0]);
        assert!(t.previous_hand().is_none());
        assert!(decide(&t, &params(), 1).is_ok());
        t.turn_start_center = Some(vec![3, 0]);
        assert!(decide(&t, &params(), 1).is_err());
    }

    #[test]
    fn rejects_inconsistent_counts() {
        let mut t = table();
        t.stock_count += 1;
        assert!(decide(&t, &params(), 1).is_err());
        let mut t = table();
        t.hand.push(0);
        assert!(decide(&t, &params(), 1).is_err());
    }
}
