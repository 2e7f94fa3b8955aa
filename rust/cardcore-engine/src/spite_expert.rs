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
//! which re-entered stock cards a seat may hold). Only the rules this simulator implements are
//! supported: limited centre slots, completed stacks shuffled into the stock and a tie at a
//! required draw from an empty stock (the Python agent plays the planner otherwise).

use std::time::Duration;

use crate::paired::PairedTally;
use crate::rng::CardRng;
use crate::shuffle::shuffle;
use crate::spite::{
    self, MAX_CENTER, MAX_OPPONENTS, MAX_SIDE_DEPTH, NO_CARD, NUM_FEATURES, PlanError, PlanInput,
    PlanRules, Step, WILD,
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
    /// Turns played so far and the cap at which the game is a tie.
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

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[doc(hidden)]
pub enum End {
    Win(usize),
    Tie,
}

/// A dealt game, from the deciding seat's turn on.
#[derive(Clone)]
#[doc(hidden)]
pub struct Game {
    pub hands: Vec<Vec<u8>>,
    pub payoffs: Vec<Vec<u8>>,
    pub sides: Vec<Vec<Vec<u8>>>,
    pub center: Vec<Vec<u8>>,
    pub stock: Vec<u8>,
    pub current: usize,
    pub turn: u32,
    pub end: Option<End>,
}

/// What a plan's execution left to do.
enum After {
    /// The turn ended with a discard (or the game ended).
    Done,
    /// A card was revealed (pay-off top played, hand emptied): plan again.
    Replan,
}

#[doc(hidden)]
pub struct Ctx<'a> {
    pub table: &'a Table,
    pub params: &'a ExpertParams,
}

impl Game {
    fn players(&self) -> usize {
        self.hands.len()
    }

    /// The planner's input for the seat to play (`payoff_left`: its pay-off count, when the
    /// pile here is a stand-in).
    fn plan_input(
        &self,
        rules: PlanRules,
        payoff_left: Option<u32>,
    ) -> Result<PlanInput, PlanError> {
        let s = self.current;
        let p = self.players();
        let sides: Vec<Vec<u8>> = self.sides[s]
            .iter()
            .map(|st| st.iter().rev().take(MAX_SIDE_DEPTH).copied().collect())
            .collect();
        let refs: Vec<&[u8]> = sides.iter().map(Vec::as_slice).collect();
        let lens: Vec<usize> = self.sides[s].iter().map(Vec::len).collect();
        let center: Vec<u8> = self
            .center
            .iter()
            .take(MAX_CENTER)
            .map(|c| u8::try_from(c.len()).unwrap_or(u8::MAX))
            .collect();
        let opps: Vec<u8> = (1..p.min(MAX_OPPONENTS + 1))
            .map(|k| self.payoffs[(s + k) % p].last().copied().unwrap_or(NO_CARD))
            .collect();
        let next_tops: Vec<u8> = self.sides[(s + 1) % p]
            .iter()
            .filter_map(|st| st.last().copied())
            .collect();
        let top = self.payoffs[s].last().copied().unwrap_or(NO_CARD);
        let left =
            payoff_left.unwrap_or_else(|| u32::try_from(self.payoffs[s].len()).unwrap_or(u32::MAX));
        PlanInput::new(
            &self.hands[s],
            &refs,
            &lens,
            top,
            left,
            &center,
            &opps,
            &next_tops,
            rules,
        )
    }

    /// Puts `v` on centre slot `c`; a completed stack goes back into the stock, shuffled.
    fn play_center(&mut self, c: usize, v: u8, top: u8, rng: &mut CardRng) {
        let stack = &mut self.center[c];
        stack.push(v);
        if stack.len() >= usize::from(top) {
            self.stock.append(stack);
            shuffle(rng, &mut self.stock);
        }
    }

    /// Draws up to `n` cards into the current hand; a tie when the stock is empty.
    #[doc(hidden)]
    pub fn draw(&mut self, n: usize) {
        if n == 0 {
            return;
        }
        if self.stock.is_empty() {
            self.end = Some(End::Tie);
            return;
        }
        let s = self.current;
        let k = n.min(self.stock.len());
        let at = self.stock.len() - k;
        let drawn: Vec<u8> = self.stock.drain(at..).rev().collect();
        self.hands[s].extend(drawn);
    }

    /// Plays `steps` (hand indices as of now) for the current seat.
    fn execute(&mut self, steps: &[Step], top: u8, rng: &mut CardRng) -> After {
        let s = self.current;
        let hand = std::mem::take(&mut self.hands[s]);
        let mut used = vec![false; hand.len()];
        let mut after = After::Replan;
        for &step in steps {
            match step {
                Step::PayOff(c) => {
                    let v = self.payoffs[s].pop().expect("a pay-off card");
                    self.play_center(usize::from(c), v, top, rng);
                    if self.payoffs[s].is_empty() {
                        self.end = Some(End::Win(s));
                        after = After::Done;
                        break;
                    }
                }
                Step::Side(sd, c) => {
                    let v = self.sides[s][usize::from(sd)].pop().expect("a side card");
                    self.play_center(usize::from(c), v, top, rng);
                }
                Step::Hand(i, c) => {
                    used[usize::from(i)] = true;
                    self.play_center(usize::from(c), hand[usize::from(i)], top, rng);
                }
                Step::Discard(i, sd) => {
                    used[usize::from(i)] = true;
                    self.sides[s][usize::from(sd)].push(hand[usize::from(i)]);
                    after = After::Done;
                    break;
                }
                Step::None => {}
            }
        }
        self.hands[s] = hand
            .into_iter()
            .zip(used)
            .filter_map(|(v, u)| (!u).then_some(v))
            .collect();
        after
    }

    /// Finishes the current seat's turn (after `first`, the plan already chosen) and passes
    /// the turn on.
    #[doc(hidden)]
    pub fn finish_turn(&mut self, ctx: &Ctx<'_>, first: Option<&[Step]>, rng: &mut CardRng) {
        let t = ctx.table;
        let top = t.rules.top;
        let mut first = first;
        // A turn has at most one plan per revealed card; the cap only guards the loop.
        for _ in 0..256 {
            let steps = match first.take() {
                Some(steps) => steps.to_vec(),
                None => match self.plan_input(t.rules, None) {
                    Ok(inp) => spite::plan(&inp, &ctx.params.weights, ctx.params.node_limit).steps,
                    Err(_) => Vec::new(),
                },
            };
            if steps.is_empty() {
                break;
            }
            match self.execute(&steps, top, rng) {
                After::Done => break,
                After::Replan => {
                    let s = self.current;
                    if self.hands[s].is_empty() {
                        if !t.rules.refill_empty_hand {
                            break;
                        }
                        self.draw(t.hand_size);
                    }
                }
            }
            if self.end.is_some() {
                return;
            }
        }
        if self.end.is_some() {
            return;
        }
        // the rules' cap: the game is a tie after turn `max_turns` (the rulebook's end_turn)
        if self.turn >= t.max_turns {
            self.end = Some(End::Tie);
            return;
        }
        self.turn += 1;
        self.current = (self.current + 1) % self.players();
        let s = self.current;
        let need = t.hand_size.saturating_sub(self.hands[s].len());
        self.draw(need);
    }

    /// The deciding seat's rollout score (see the module docs).
    #[doc(hidden)]
    pub fn utility(&self, ctx: &Ctx<'_>) -> f64 {
        let me = ctx.table.seat;
        match self.end {
            Some(End::Win(w)) if w == me => return ctx.params.win_value,
            Some(End::Win(_)) => return -ctx.params.win_value,
            Some(End::Tie) => return 0.0,
            None => {}
        }
        let played = |s: usize| -> f64 {
            f64::from(ctx.table.payoff_counts[s])
                - f64::from(u32::try_from(self.payoffs[s].len()).unwrap_or(0))
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
                rules.wild_start,
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
    wild_start: bool,
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
        if card == WILD && e == 0 && !wild_start {
            break;
        }
        for i in 0..sides.len() {
            let d = depth[i];
            if d > 0 && sides[i][d - 1] == card {
                depth[i] -= 1;
                let ok = build(v, payoff, counts, sides, depth, wild_start, budget);
                depth[i] += 1;
                if ok {
                    return true;
                }
            }
        }
        let c = usize::from(card);
        if counts[c] > 0 {
            counts[c] -= 1;
            let ok = build(v, payoff, counts, sides, depth, wild_start, budget);
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
        if self.payoff_tops.len() != p || self.payoff_counts.len() != p || self.sides.len() != p {
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
    pub fn deal(&self, unseen: &[u8], rng: &mut CardRng) -> Game {
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
        Game {
            hands,
            payoffs,
            sides: self.sides.clone(),
            center: self.center.clone(),
            stock,
            current: self.seat,
            turn: self.turn,
            end: None,
        }
    }

    /// The planner's input for the deciding seat as it sees the table.
    #[doc(hidden)]
    pub fn plan_input(&self) -> Result<PlanInput, PlanError> {
        let game = Game {
            hands: (0..self.players())
                .map(|s| {
                    if s == self.seat {
                        self.hand.clone()
                    } else {
                        Vec::new()
                    }
                })
                .collect(),
            payoffs: (0..self.players())
                .map(|s| {
                    let t = self.payoff_tops[s];
                    if t == NO_CARD { Vec::new() } else { vec![t] }
                })
                .collect(),
            sides: self.sides.clone(),
            center: self.center.clone(),
            stock: Vec::new(),
            current: self.seat,
            turn: self.turn,
            end: None,
        };
        // The stand-in pay-off piles hold only their tops: pass the real count.
        game.plan_input(self.rules, Some(self.payoff_counts[self.seat]))
    }
}

/// Plays every plan in the same deals of the unseen cards until the budget is spent.
#[doc(hidden)]
pub fn search(
    table: &Table,
    params: &ExpertParams,
    plans: &[spite::Plan],
    unseen: &[u8],
    seed: u64,
) -> PairedTally {
    let ctx = Ctx { table, params };
    PairedTally::run(
        plans.len(),
        params.rollouts,
        params.time_limit,
        seed,
        |rng, roll_seed, values| {
            let deal = table.deal(unseen, rng);
            for (v, plan) in values.iter_mut().zip(plans) {
                let mut g = deal.clone();
                let mut roll = CardRng::new(roll_seed);
                g.finish_turn(&ctx, Some(&plan.steps), &mut roll);
                for _ in 0..params.horizon {
                    if g.end.is_some() {
                        break;
                    }
                    g.finish_turn(&ctx, None, &mut roll);
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
    let tally = search(table, params, &plans, &unseen, seed);
    let (choice, deals, k) = (tally.choice(params.margin), tally.deals(), plans.len());
    Ok(Decision {
        steps: plans[choice].steps.clone(),
        deals,
        candidates: k,
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
            turn: 0,
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

    fn cards(g: &Game) -> usize {
        g.hands.iter().map(Vec::len).sum::<usize>()
            + g.payoffs.iter().map(Vec::len).sum::<usize>()
            + g.sides.iter().flatten().map(Vec::len).sum::<usize>()
            + g.center.iter().map(Vec::len).sum::<usize>()
            + g.stock.len()
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

    #[test]
    fn rollouts_keep_every_card_and_end() {
        let t = table();
        let unseen = t.unseen().unwrap();
        let p = params();
        let ctx = Ctx {
            table: &t,
            params: &p,
        };
        for seed in 0..6 {
            let mut rng = CardRng::new(seed);
            let mut g = t.deal(&unseen, &mut rng);
            assert_eq!(cards(&g), 104);
            for _ in 0..1000 {
                if g.end.is_some() {
                    break;
                }
                g.finish_turn(&ctx, None, &mut rng);
                assert_eq!(cards(&g), 104);
                assert!(g.center.iter().all(|c| c.len() < 12));
            }
            assert!(
                g.end.is_some(),
                "seed {seed}: a game ends within 1000 turns"
            );
        }
    }

    /// The rollout game's piles (as values) of a rulebook state.
    fn game_of(st: &crate::games::spite_malice::State) -> Game {
        let r = st.rules();
        let v = |pile: &Vec<u16>| pile.iter().map(|&c| r.rank(c)).collect::<Vec<u8>>();
        Game {
            hands: st.hands().iter().map(v).collect(),
            payoffs: st.payoffs().iter().map(v).collect(),
            sides: st
                .sides()
                .iter()
                .map(|ss| ss.iter().map(v).collect())
                .collect(),
            center: st.center().iter().map(v).collect(),
            stock: v(&st.stock().to_vec()),
            current: st.current(),
            turn: st.turn(),
            end: match (st.over(), st.winner()) {
                (false, _) => None,
                (true, Some(w)) => Some(End::Win(w)),
                (true, None) => Some(End::Tie),
            },
        }
    }

    /// The rollout game plays a turn as the rulebook does (the rules the expert supports:
    /// limited centre slots, completed stacks shuffled into the stock, a tie at a required
    /// draw from an empty stock): the same planner plans played on both give the same piles,
    /// seat, end and deck stream after every turn, until the game ends (at the turn cap
    /// too: a tie after turn `max_turns`).
    #[test]
    fn the_rollout_game_plays_as_the_rulebook() {
        use crate::games::spite_malice::{Move, Rules, State, StockRule};
        for (seed, players, jokers, refill, side_rule, cap) in [
            (1, 2, false, true, SideRule::Any, 100_000),
            (2, 3, true, true, SideRule::SameOrOneLower, 100_000),
            (3, 4, false, false, SideRule::NoAces, 100_000),
            (4, 2, true, false, SideRule::Any, 100_000),
            (5, 2, false, true, SideRule::Any, 9),
            (6, 3, true, true, SideRule::SameOrOneLower, 25),
        ] {
            let rules = Rules {
                players,
                decks: 3,
                jokers,
                payoff_size: 12,
                hand_size: 5,
                side_stacks: 4,
                center_stacks: 4,
                king_can_start: true,
                refill_empty_hand: refill,
                completed_to_stock: true,
                stock_rule: StockRule::TieOnRequiredDraw,
                side_rule,
                must_play_aces: false,
                first_player: None,
                max_turns: cap,
                win_bonus: 0,
            };
            let mut st = State::new(rules.clone(), seed, false).unwrap();
            let plan_rules = PlanRules {
                top: rules.top() as u8,
                wild_start: true,
                refill_empty_hand: refill,
                side_rule,
                must_play_aces: false,
            };
            let t = Table {
                rules: plan_rules,
                hand_size: rules.hand_size,
                max_turns: rules.max_turns,
                ..table()
            };
            let p = params();
            let ctx = Ctx {
                table: &t,
                params: &p,
            };
            let mut g = game_of(&st);
            let mut rng = CardRng::from_state(st.rng_state()).unwrap();
            let mut turns = 0;
            while !st.over() {
                // the rulebook: the planner's plans for the seat to play until its turn ends
                let seat = st.current();
                while !st.over() && st.current() == seat {
                    let inp = game_of(&st).plan_input(plan_rules, None).unwrap();
                    let steps = spite::plan(&inp, &p.weights, p.node_limit).steps;
                    assert!(!steps.is_empty());
                    let hand = st.hands()[seat].clone();
                    for step in steps {
                        let mv = match step {
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
                            Step::None => continue,
                        };
                        let (k, x, y) = mv.code();
                        st.apply_code(k, x as i64, y as i64).unwrap();
                    }
                }
                // the rollout game: one turn
                g.finish_turn(&ctx, None, &mut rng);
                let want = game_of(&st);
                assert_eq!(
                    (&g.hands, &g.payoffs, &g.sides, &g.center, &g.stock),
                    (
                        &want.hands,
                        &want.payoffs,
                        &want.sides,
                        &want.center,
                        &want.stock
                    ),
                    "seed {seed}, turn {turns}"
                );
                assert_eq!(
                    (g.current, g.turn, g.end),
                    (want.current, want.turn, want.end)
                );
                assert_eq!(rng.state(), st.rng_state());
                turns += 1;
            }
            assert!(turns >= 10.min(cap), "seed {seed}: {turns} turns");
        }
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
            assert_eq!(cards(&g), 104);
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
