//! A learned value of a Three-Thirteen position after a discard and a learned draw value, and
//! the `expert` searches that use them (`search="valuedraw"`, the default, and `"value"`):
//! one-step improvement over the `hard` agent.
//!
//! The value predicts the deciding seat's round score minus the mean of the other seats' (lower
//! is better) from a few features of the position right after its discard ([`features`]): the
//! hand's optimal deadwood, `hard`'s one-draw look-ahead split into its parts (expected deadwood
//! after one more stock draw, the chance that draw goes out, the chance it lowers the deadwood),
//! the wilds held, whether the discard fits the next seat's (or any opponent's) pile pickups,
//! and the deadwood and look-ahead times the opponents' pickups (a proxy for how soon the round
//! ends). It is linear, with one weight vector per round size and own-turn bucket ([`group`]);
//! the weights ([`weights::WEIGHTS`]) are fitted by ridge regression on `hard` self-play
//! ([`self_play`]; `research/scripts/tt-value-fit` writes them). The stock is averaged over in
//! closed form by the look-ahead features, never sampled, so the search draws no random numbers.
//!
//! The search values each of `hard`'s discard options (the discards near the least deadwood) by
//! the fitted value and plays the best. With `value` the draws are `hard`'s; with `valuedraw`
//! a draw `hard` weighs (taking the pile top lowers the deadwood) is decided by a linear draw
//! value ([`draw_features`], [`draw_choice`]; [`draw_weights::DRAW_WEIGHTS`]) fitted the same
//! way on both draws played to the end of the round: the margin after taking the top and the
//! value's discard minus the margin after the stock draw.

use crate::card::{JOKER0, rank};
use crate::meld::{MeldError, MeldRules, fast};
use crate::rng::{CardRng, mix64};
use crate::shuffle::shuffle;
use crate::three_thirteen_expert::{
    Ctx, Decision, ExpertError, ExpertParams, Round, Search, Table, view_of,
};
use crate::three_thirteen_hard::{
    self as hard, DiscardOption, DrawValues, HardParams, View, interacts,
};

pub mod draw_weights;
pub mod weights;

/// Features of a position ([`features`]), the constant first.
pub const FEATURES: usize = 10;
/// Own-turn buckets of [`group`]: 1, 2, ..., `TURN_BUCKETS` or more turns played.
pub const TURN_BUCKETS: usize = 6;
/// Round sizes (3 to 13 cards).
pub const ROUND_SIZES: usize = 11;
/// Weight vectors: one per round size and own-turn bucket.
pub const GROUPS: usize = ROUND_SIZES * TURN_BUCKETS;

/// The position of a seat right after its discard, as it sees it (face codes).
#[derive(Clone, Copy, Debug)]
pub struct Position<'a> {
    /// What the seat sees after the discard: `view.hand` is the hand after it (its size is the
    /// round's: 3 to 13 cards), `view.seen` the discard pile (its top the card just discarded)
    /// and the pile cards the opponents took and still hold (`view.final_turn` is not read).
    pub view: View<'a>,
    /// The card just discarded.
    pub discarded: u8,
    /// The next seat's pile pickups it still holds.
    pub feed: &'a [u8],
    /// Every opponent's pile pickups it still holds.
    pub pickups: &'a [u8],
    /// The seat's turns this round, this one included (at least 1).
    pub own_turns: u32,
}

/// The weight vector of a position: by round size and own turns.
#[must_use]
pub fn group(hand_len: usize, own_turns: u32) -> usize {
    let size = hand_len.clamp(3, 13) - 3;
    let turn = usize::try_from(own_turns.max(1))
        .unwrap_or(TURN_BUCKETS)
        .min(TURN_BUCKETS)
        - 1;
    size * TURN_BUCKETS + turn
}

/// The features of `pos` (see the module docs), the constant 1 first.
///
/// # Errors
/// [`MeldError`] for bad faces, hand size, wild rank or points.
pub fn features(pos: &Position<'_>) -> Result<[f64; FEATURES], MeldError> {
    let view = &pos.view;
    let dw = fast::deadwood(view.hand, view.wild, &view.rules);
    let look = hard::outlook(view, dw)?;
    let wilds = view
        .hand
        .iter()
        .filter(|&&f| f >= JOKER0 || rank(f) == view.wild)
        .count();
    let fits = |cards: &[u8]| {
        !cards.is_empty() && interacts(pos.discarded, cards, 0, view.wild, view.rules.ace_mode)
    };
    let picked = pos.pickups.len() as f64;
    let dw = f64::from(dw);
    Ok([
        1.0,
        dw,
        look.mean,
        look.out,
        look.better,
        wilds as f64,
        f64::from(u8::from(fits(pos.feed))),
        f64::from(u8::from(fits(pos.pickups))),
        dw * picked,
        look.mean * picked,
    ])
}

/// Features of a draw decision ([`draw_features`]): the constant, the taking position's
/// [`features`] and the staying position's (each without its constant), then `hard`'s two value
/// differences (take minus stock).
pub const DRAW_FEATURES: usize = 2 * FEATURES + 1;

/// The dot product of a feature vector and its weights.
pub(crate) fn dot<const N: usize>(x: &[f64; N], w: &[f64; N]) -> f64 {
    x.iter().zip(w).map(|(a, b)| a * b).sum()
}

/// The fitted value of `pos`: the seat's expected round score minus the others' mean (lower is
/// better for the seat).
///
/// # Errors
/// [`MeldError`] for bad faces, hand size, wild rank or points.
pub fn value(pos: &Position<'_>) -> Result<f64, MeldError> {
    let x = features(pos)?;
    Ok(dot(
        &x,
        &weights::WEIGHTS[group(pos.view.hand.len(), pos.own_turns)],
    ))
}

/// `hard`'s discard options at a view and the one the value picks.
pub(crate) struct Picked {
    /// `hard`'s options, in its order.
    pub(crate) options: Vec<DiscardOption>,
    /// `hard`'s choice (the first of the least score).
    pub(crate) default: usize,
    /// The value's choice: the least value, `hard`'s on ties and unless another is less.
    pub(crate) pick: usize,
    /// [`features`] of each option's position (empty for a single option).
    pub(crate) x: Vec<[f64; FEATURES]>,
    /// The fitted [`value`] of each option's position (empty for a single option).
    pub(crate) values: Vec<f64>,
}

/// [`Picked`] at `view` (the hand before the discard); `None` when no card may be discarded.
fn pick_discard(
    view: &View<'_>,
    banned: Option<usize>,
    feed: &[u8],
    pickups: &[u8],
    own_turns: u32,
    hard_params: &HardParams,
) -> Result<Option<Picked>, MeldError> {
    let options = hard::discard_options(view, banned, feed, hard_params)?;
    let mut default: Option<(usize, f64)> = None;
    for (j, o) in options.iter().enumerate() {
        if default.is_none_or(|(_, s)| o.score < s) {
            default = Some((j, o.score));
        }
    }
    let Some((default, _)) = default else {
        return Ok(None);
    };
    if options.len() == 1 {
        return Ok(Some(Picked {
            options,
            default,
            pick: default,
            x: Vec::new(),
            values: Vec::new(),
        }));
    }
    let mut seen_after = view.seen.to_vec();
    seen_after.push(0);
    let mut best = (f64::INFINITY, default);
    let mut values = Vec::with_capacity(options.len());
    let mut xs = Vec::with_capacity(options.len());
    for o in &options {
        let discarded = view.hand[o.index];
        *seen_after.last_mut().expect("not empty") = discarded;
        let x = features(&Position {
            view: View {
                hand: &o.rest,
                seen: &seen_after,
                ..*view
            },
            discarded,
            feed,
            pickups,
            own_turns,
        })?;
        values.push(dot(&x, &weights::WEIGHTS[group(o.rest.len(), own_turns)]));
        xs.push(x);
    }
    for (j, &v) in values.iter().enumerate() {
        if v < best.0 || (v == best.0 && j == default) {
            best = (v, j);
        }
    }
    if values[best.1] >= values[default] {
        best.1 = default;
    }
    Ok(Some(Picked {
        options,
        default,
        pick: best.1,
        x: xs,
        values,
    }))
}

/// A draw decision as [`draw_features`] sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Draw {
    /// `hard` does not weigh it (taking goes out, or does not lower the deadwood, or a final
    /// turn): whether `hard` takes the pile top.
    Decided(bool),
    /// `hard` weighs it: the [`DRAW_FEATURES`] and `hard`'s choice.
    Weighed {
        /// The features.
        x: [f64; DRAW_FEATURES],
        /// `hard` takes the pile top.
        hard_take: bool,
    },
}

/// The features of a draw decision. `stay` is the seat's position with the pile top left where
/// it is (as if drawn and discarded again: `stay.discarded` is the top, `stay.view.hand` the
/// hand before the draw, `stay.own_turns` this turn's count). The taking position is the one
/// after taking the top and the value's discard ([`pick_discard`]); the stock draw is valued by
/// the staying position's look-ahead features (one stock draw and the best discard).
///
/// # Errors
/// [`MeldError`] for bad faces, hand size, wild rank or points.
pub fn draw_features(
    stay: &Position<'_>,
    can_go_out: bool,
    forbid_return: bool,
    hard_params: &HardParams,
) -> Result<Draw, MeldError> {
    let view = &stay.view;
    let top = stay.discarded;
    let (take_v, stock_v, take_final, stock_final) =
        match hard::draw_values(view, top, can_go_out, hard_params)? {
            DrawValues::Decided(take) => return Ok(Draw::Decided(take)),
            DrawValues::Weighed {
                take,
                stock,
                take_final,
                stock_final,
            } => (take, stock, take_final, stock_final),
        };
    let hard_take = take_v < stock_v;
    let mut hand = view.hand.to_vec();
    hand.push(top);
    let mut seen = view.seen.to_vec();
    if let Some(k) = seen.iter().rposition(|&f| f == top) {
        seen.remove(k);
    }
    let banned = forbid_return.then_some(view.hand.len());
    let took = View {
        hand: &hand,
        seen: &seen,
        ..*view
    };
    let Some(picked) = pick_discard(
        &took,
        banned,
        stay.feed,
        stay.pickups,
        stay.own_turns,
        hard_params,
    )?
    else {
        return Ok(Draw::Decided(hard_take));
    };
    let x_take = if picked.x.is_empty() {
        // a single option (it goes out): its position
        let i = picked.options[picked.pick].index;
        let mut rest = hand.clone();
        rest.remove(i);
        seen.push(hand[i]);
        features(&Position {
            view: View {
                hand: &rest,
                seen: &seen,
                ..*view
            },
            discarded: hand[i],
            ..*stay
        })?
    } else {
        picked.x[picked.pick]
    };
    let x_stay = features(stay)?;
    let mut x = [0.0; DRAW_FEATURES];
    x[0] = 1.0;
    x[1..FEATURES].copy_from_slice(&x_take[1..]);
    x[FEATURES..2 * FEATURES - 1].copy_from_slice(&x_stay[1..]);
    x[2 * FEATURES - 1] = take_v - stock_v;
    x[2 * FEATURES] = take_final - stock_final;
    Ok(Draw::Weighed { x, hard_take })
}

/// The fitted draw value (the seat's margin after taking minus after drawing from the stock;
/// [`draw_weights::DRAW_WEIGHTS`]) decides: take the pile top when it is negative, `hard`'s
/// choice when it is 0.
#[must_use]
pub fn draw_choice(x: &[f64; DRAW_FEATURES], group: usize, hard_take: bool) -> bool {
    let v = dot(x, &draw_weights::DRAW_WEIGHTS[group]);
    v < 0.0 || (v == 0.0 && hard_take)
}

/// The `value` search's move at `table` (checked by the caller): `hard`'s draw (with
/// `valuedraw` and `win`: the fitted draw value's, [`draw_choice`], where `hard` weighs the
/// draw); among `hard`'s discard options, the one whose position has the least fitted value
/// (`hard`'s on ties).
///
/// # Errors
/// [`ExpertError`] for a table that is not a possible position.
pub fn decide(table: &Table, params: &ExpertParams) -> Result<Decision, ExpertError> {
    table.unseen()?; // the sizes add up
    let decided = |choice| Decision {
        choice,
        deals: 0,
        candidates: 1,
    };
    if !table.discard_phase {
        return Ok(decided(usize::from(take_pile(table, params)?)));
    }
    let picked = table_discards(table, params)?;
    if picked.options.len() == 1 {
        return Ok(decided(picked.options[picked.default].index));
    }
    Ok(Decision {
        choice: picked.options[picked.pick].index,
        deals: 0,
        candidates: picked.options.len(),
    })
}

/// What the seat at `table` knows of the pile pickups: the next seat's, every opponent's, and
/// its own turns this round with this one.
fn pickups_at(table: &Table) -> (&[u8], Vec<u8>, u32) {
    let players = table.hand_sizes.len();
    let pickups = (0..players)
        .filter(|&s| s != table.seat)
        .flat_map(|s| table.taken[s].iter().copied())
        .collect();
    let own_turns = table.turns_played()[table.seat] + 1;
    (&table.taken[(table.seat + 1) % players], pickups, own_turns)
}

/// The draw at `table` (checked by the caller; its draw phase): whether to take the pile top.
fn take_pile(table: &Table, params: &ExpertParams) -> Result<bool, ExpertError> {
    let seen = table.seen();
    let view = table.view(&seen);
    let (feed, pickups, own_turns) = pickups_at(table);
    let top = *table.pile.last().expect("checked");
    let can_go_out = own_turns > table.min_own_turns;
    let weighs = matches!(params.search, Search::ValueDraw | Search::Win);
    if !weighs || table.out_seat.is_some() {
        return Ok(hard::take_pile(&view, top, can_go_out, &params.hard)?);
    }
    let stay = Position {
        view,
        discarded: top,
        feed,
        pickups: &pickups,
        own_turns,
    };
    Ok(
        match draw_features(&stay, can_go_out, table.forbid_return, &params.hard)? {
            Draw::Decided(take) => take,
            Draw::Weighed { x, hard_take } => {
                draw_choice(&x, group(table.hand.len(), own_turns), hard_take)
            }
        },
    )
}

/// [`Picked`] at `table` (checked by the caller; its discard phase): `hard`'s discard options
/// and the value's pick.
///
/// # Errors
/// [`ExpertError`] for a table that is not a possible position or where no card may be
/// discarded.
pub(crate) fn table_discards(table: &Table, params: &ExpertParams) -> Result<Picked, ExpertError> {
    let seen = table.seen();
    let view = table.view(&seen);
    let (feed, pickups, own_turns) = pickups_at(table);
    pick_discard(&view, table.banned, feed, &pickups, own_turns, &params.hard)?
        .ok_or_else(|| ExpertError::Table("no card may be discarded".to_owned()))
}

/// One training example of [`self_play`]: one of `hard`'s discard options at a decision with
/// several (before anyone has gone out), the seat's position after it, and how the round ends
/// when it is played and the round is finished from the true cards (the seat playing its
/// [`Policy`], the others `hard`; the same cards and reshuffles for every option of the
/// decision: common random numbers).
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The round (0 for the first of [`self_play`]'s rounds).
    pub round: u32,
    /// The seat.
    pub seat: u8,
    /// The option: 0 is the policy's choice (the one the game goes on with), then `hard`'s
    /// others in its order.
    pub option: u8,
    /// [`group`] of the position.
    pub group: usize,
    /// [`features`] of the position.
    pub x: [f64; FEATURES],
    /// The seat's round score.
    pub own: f64,
    /// The seat's round score minus the mean of the others'.
    pub margin: f64,
}

/// One draw example of [`self_play`]: a draw `hard` weighs (before anyone has gone out), its
/// [`draw_features`], and how the round ends after taking the pile top and after drawing from
/// the stock, each followed by the policy's discard and played to the end as for [`Sample`].
#[derive(Clone, Debug, PartialEq)]
pub struct DrawSample {
    /// The round.
    pub round: u32,
    /// The seat.
    pub seat: u8,
    /// `hard` takes the pile top.
    pub hard_take: bool,
    /// [`group`] of the decision (round size and own turns with this one).
    pub group: usize,
    /// [`draw_features`] of the decision.
    pub x: [f64; DRAW_FEATURES],
    /// The seat's round score after taking and after drawing from the stock.
    pub own: [f64; 2],
    /// The seat's round score minus the others' mean, after taking and after the stock draw.
    pub margin: [f64; 2],
}

/// The examples of [`self_play`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SelfPlay {
    /// Discard examples.
    pub discards: Vec<Sample>,
    /// Draw examples.
    pub draws: Vec<DrawSample>,
}

/// How the sampled seat plays in [`self_play`] (in the game and in every play-out).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// `hard` at every seat, every seat sampled.
    Hard,
    /// One seat a round (the learner) plays the `value` search, the others `hard`.
    Value,
    /// The learner plays the `valuedraw` search.
    ValueDraw,
}

impl Policy {
    /// The policies with their names (`hard`, `value`, `valuedraw`).
    pub const ALL: [(&'static str, Policy); 3] = [
        ("hard", Policy::Hard),
        ("value", Policy::Value),
        ("valuedraw", Policy::ValueDraw),
    ];

    /// The policy called `name`, if any.
    #[must_use]
    pub fn named(name: &str) -> Option<Policy> {
        Self::ALL.iter().find(|(n, _)| *n == name).map(|&(_, p)| p)
    }
}

/// The rules of [`self_play`]'s rounds of `size` cards.
fn self_play_ctx(players: usize, size: usize) -> Ctx {
    Ctx {
        wild: u8::try_from(size).unwrap_or(13),
        rules: MeldRules::default(),
        min_own_turns: 0,
        max_turns: 400,
        forbid_return: false,
        players,
        num_decks: 2,
        jokers: 0,
        hard_seat: None,
        all_hard: true,
        hard: HardParams::default(),
    }
}

/// `rounds` rounds of a `players`-player table (two decks, no jokers, the default rules), the
/// round sizes in turn (3, 4, ..., 13, 3, ...) and the first seat rotating, every deal from
/// `seed`. With [`Policy::Hard`] `hard` plays every seat and every seat is sampled; else one
/// seat a round (seat `round / 11 % players`) plays `policy` and is the only one sampled, the
/// others play `hard`. At each of a sampled seat's draws that `hard` weighs and discards where
/// `hard` weighs several options, before anyone has gone out, every option is played to the
/// end of the round ([`Sample`], [`DrawSample`]); the game goes on with the policy's move.
///
/// # Panics
/// If `players` is not 2 to 8.
#[must_use]
pub fn self_play(seed: u64, rounds: u32, players: usize, policy: Policy) -> SelfPlay {
    assert!((2..=8).contains(&players), "2 to 8 players");
    let mut out = SelfPlay::default();
    for i in 0..rounds {
        let size = 3 + (i % 11) as usize;
        let ctx = self_play_ctx(players, size);
        let mut rng = CardRng::new(mix64(seed ^ mix64(u64::from(i) + 1)));
        let mut deck: Vec<u8> = (0..2 * 52).map(|c| (c % 52) as u8).collect();
        shuffle(&mut rng, &mut deck);
        let hands: Vec<Vec<u8>> = deck
            .chunks(size)
            .take(players)
            .map(<[u8]>::to_vec)
            .collect();
        let mut stock = deck[players * size..].to_vec();
        let pile = vec![stock.pop().expect("cards left")];
        let mut r = Round {
            hands,
            stock,
            pile,
            current: (i as usize) % players,
            out: None,
            final_left: 0,
            turns: 0,
            own_turns: vec![0; players],
            taken: vec![Vec::new(); players],
        };
        let learner = (policy != Policy::Hard).then_some((i as usize / ROUND_SIZES) % players);
        while r.begin_turn(&mut rng) {
            let s = r.current;
            let going = if r.out.is_none() && learner.is_none_or(|l| l == s) {
                sampled_turn(&mut r, &ctx, policy, i, rng.next_u64(), &mut out)
            } else if learner == Some(s) {
                policy_turn(&mut r, &ctx, policy, None)
            } else {
                r.hard_turn(&ctx)
            };
            if !going {
                break;
            }
        }
    }
    out
}

/// Every opponent's pile pickups of `s` in `r`.
fn pickups_of(r: &Round, s: usize) -> Vec<u8> {
    (0..r.taken.len())
        .filter(|&k| k != s)
        .flat_map(|k| r.taken[k].iter().copied())
        .collect()
}

/// Seat `s` takes the pile top (`pile`) or draws from the stock: what it has seen besides its
/// hand after the draw, and the card it may not discard (the taken one, under
/// `forbid_return`).
fn draw_card(r: &mut Round, ctx: &Ctx, s: usize, pile: bool) -> (Vec<u8>, Option<usize>) {
    let card = if pile { r.pile.pop() } else { r.stock.pop() }.expect("a card to draw");
    r.hands[s].push(card);
    if pile {
        r.taken[s].push(card);
    }
    let banned = (pile && ctx.forbid_return).then(|| r.hands[s].len() - 1);
    (r.seen_by(s), banned)
}

/// One turn of the current seat as `policy` plays it, the draw `forced` if given (`true`: the
/// pile top). Returns false when the round is over.
fn policy_turn(r: &mut Round, ctx: &Ctx, policy: Policy, forced: Option<bool>) -> bool {
    if policy == Policy::Hard {
        return r.hard_turn_with(ctx, forced);
    }
    let s = r.current;
    let final_turn = r.out.is_some();
    let own_turns = r.own_turns[s] + 1;
    let pickups = pickups_of(r, s);
    let feed = r.taken[(s + 1) % ctx.players].clone();
    let pile = forced.unwrap_or_else(|| {
        let seen = r.seen_by(s);
        let &top = r.pile.last().expect("the pile is never empty");
        let view = view_of(ctx, &r.hands[s], &seen, final_turn);
        let can_go_out = r.own_turns[s] >= ctx.min_own_turns;
        if policy == Policy::ValueDraw && !final_turn {
            let stay = Position {
                view,
                discarded: top,
                feed: &feed,
                pickups: &pickups,
                own_turns,
            };
            match draw_features(&stay, can_go_out, ctx.forbid_return, &ctx.hard) {
                Ok(Draw::Decided(take)) => take,
                Ok(Draw::Weighed { x, hard_take }) => {
                    draw_choice(&x, group(view.hand.len(), own_turns), hard_take)
                }
                Err(_) => false,
            }
        } else {
            hard::take_pile(&view, top, can_go_out, &ctx.hard).unwrap_or(false)
        }
    });
    let (seen, banned) = draw_card(r, ctx, s, pile);
    let view = view_of(ctx, &r.hands[s], &seen, final_turn);
    let (i, dw) = match pick_discard(&view, banned, &feed, &pickups, own_turns, &ctx.hard) {
        Ok(Some(p)) => (p.options[p.pick].index, p.options[p.pick].deadwood),
        _ => {
            let mut rest = r.hands[s].clone();
            rest.remove(0);
            (0, fast::deadwood(&rest, ctx.wild, &ctx.rules))
        }
    };
    r.discard(ctx, i, dw)
}

/// After a move of seat `s` (`going`: the round went on), plays the round to its end (`s` as
/// `policy` plays, the others `hard`, reshuffles from `roll`): `s`'s round score and margin
/// (its score minus the others' mean).
fn play_to_end(
    r: &mut Round,
    ctx: &Ctx,
    roll: u64,
    going: bool,
    s: usize,
    policy: Policy,
) -> (f64, f64) {
    let mut rng = CardRng::new(roll);
    if going {
        while r.begin_turn(&mut rng) {
            let going = if r.current == s {
                policy_turn(r, ctx, policy, None)
            } else {
                r.hard_turn(ctx)
            };
            if !going {
                break;
            }
        }
    }
    let own = if r.out == Some(s) {
        0.0
    } else {
        f64::from(fast::deadwood(&r.hands[s], ctx.wild, &ctx.rules))
    };
    (own, -r.utility(ctx, s))
}

/// A turn of the current (sampled) seat, nobody out yet: its draw when `hard` weighs it and
/// its discard when `hard` weighs several, every option played to the end of the round in a
/// copy and recorded in `out`; then the policy's move.
fn sampled_turn(
    r: &mut Round,
    ctx: &Ctx,
    policy: Policy,
    round: u32,
    roll: u64,
    out: &mut SelfPlay,
) -> bool {
    let s = r.current;
    let seat = u8::try_from(s).unwrap_or(u8::MAX);
    let own_turns = r.own_turns[s] + 1;
    let pickups = pickups_of(r, s);
    let feed = r.taken[(s + 1) % ctx.players].clone();
    let seen = r.seen_by(s);
    let &top = r.pile.last().expect("the pile is never empty");
    let stay = Position {
        view: view_of(ctx, &r.hands[s], &seen, false),
        discarded: top,
        feed: &feed,
        pickups: &pickups,
        own_turns,
    };
    let draw = draw_features(&stay, true, ctx.forbid_return, &ctx.hard).expect("a dealt hand");
    let g = group(r.hands[s].len(), own_turns);
    let pile = match draw {
        Draw::Decided(take) => take,
        Draw::Weighed { x, hard_take } => {
            let mut own = [0.0; 2];
            let mut margin = [0.0; 2];
            for (k, take) in [true, false].into_iter().enumerate() {
                let mut copy = r.clone();
                let going = policy_turn(&mut copy, ctx, policy, Some(take));
                (own[k], margin[k]) = play_to_end(&mut copy, ctx, roll, going, s, policy);
            }
            out.draws.push(DrawSample {
                round,
                seat,
                hard_take,
                group: g,
                x,
                own,
                margin,
            });
            if policy == Policy::ValueDraw {
                draw_choice(&x, g, hard_take)
            } else {
                hard_take
            }
        }
    };
    let (seen, banned) = draw_card(r, ctx, s, pile);
    let picked = pick_discard(
        &view_of(ctx, &r.hands[s], &seen, false),
        banned,
        &feed,
        &pickups,
        own_turns,
        &ctx.hard,
    )
    .expect("a dealt hand")
    .expect("a card to discard");
    let first = if policy == Policy::Hard {
        picked.default
    } else {
        picked.pick
    };
    if picked.options.len() > 1 {
        let order = std::iter::once(first).chain((0..picked.options.len()).filter(|&j| j != first));
        for (rank_j, j) in order.enumerate() {
            let o = &picked.options[j];
            let mut copy = r.clone();
            let going = copy.discard(ctx, o.index, o.deadwood);
            let (own, margin) = play_to_end(&mut copy, ctx, roll, going, s, policy);
            out.discards.push(Sample {
                round,
                seat,
                option: u8::try_from(rank_j).unwrap_or(u8::MAX),
                group: group(o.rest.len(), own_turns),
                x: picked.x[j],
                own,
                margin,
            });
        }
    }
    let o = &picked.options[first];
    r.discard(ctx, o.index, o.deadwood)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    #[test]
    fn weights_cover_every_group() {
        assert_eq!(weights::WEIGHTS.len(), GROUPS);
        assert!(
            weights::WEIGHTS
                .iter()
                .flatten()
                .all(|w| w.is_finite() && w.abs() < 1e4)
        );
        assert_eq!(group(3, 1), 0);
        assert_eq!(group(13, 99), GROUPS - 1);
    }

    /// A four-player round-5 table (7 cards, 7s wild, two decks) where seat 0 holds 8 cards
    /// after drawing and `hard` weighs several discards.
    pub(crate) fn table() -> Table {
        use crate::meld::AceMode;
        Table {
            seat: 0,
            hand: vec![0, 1, 14, 27, 9, 22, 35, 50],
            pile: vec![40, 41],
            taken: vec![vec![], vec![41 - 13], vec![], vec![]],
            hand_sizes: vec![8, 7, 7, 7],
            stock_size: 104 - 8 - 21 - 2,
            num_decks: 2,
            jokers: 0,
            wild: 7,
            rules: MeldRules {
                ace_mode: AceMode::Low,
                ..MeldRules::default()
            },
            discard_phase: true,
            banned: None,
            out_seat: None,
            turn_in_round: 6,
            first: 1,
            min_own_turns: 0,
            max_turns: 400,
            forbid_return: false,
        }
    }

    #[test]
    fn the_value_search_picks_one_of_hards_discards() {
        let t = table();
        let params = ExpertParams {
            search: Search::Value,
            ..ExpertParams::default()
        };
        let seen = t.seen();
        let options =
            hard::discard_options(&t.view(&seen), None, &t.taken[1], &params.hard).unwrap();
        assert!(options.len() > 1, "{options:?}");
        let d = decide(&t, &params).unwrap();
        assert!(options.iter().any(|o| o.index == d.choice), "{d:?}");
        assert_eq!((d.deals, d.candidates), (0, options.len()));
        assert_eq!(d, decide(&t, &params).unwrap());
        // the draw is `hard`'s
        let mut draw = t.clone();
        draw.hand.pop();
        draw.hand_sizes[0] = 7;
        draw.stock_size += 1;
        draw.discard_phase = false;
        let take = hard::take_pile(&draw.view(&draw.seen()), 41, true, &params.hard).unwrap();
        assert_eq!(decide(&draw, &params).unwrap().choice, usize::from(take));
        // a table whose sizes do not add up is an error
        draw.stock_size += 1;
        assert!(matches!(decide(&draw, &params), Err(ExpertError::Table(_))));
    }

    #[test]
    fn self_play_is_deterministic_and_scores_rounds() {
        let a = self_play(5, 11, 4, Policy::Hard).discards;
        assert_eq!(a, self_play(5, 11, 4, Policy::Hard).discards);
        assert!(a.len() > 50, "{}", a.len());
        for s in &a {
            assert!(s.own >= 0.0 && s.x[0] == 1.0 && s.x[1] >= 0.0);
            assert!((0.0..=1.0).contains(&s.x[3]) && s.x[3] <= s.x[4] + 1e-12);
        }
        // every decision has `hard`'s option first and at least one other
        assert_eq!(a[0].option, 0);
        for (i, s) in a.iter().enumerate() {
            if s.option == 0 {
                assert_eq!(a[i + 1].option, 1);
            } else {
                assert_eq!(a[i - 1].option + 1, s.option);
            }
        }
        assert_ne!(a, self_play(6, 11, 4, Policy::Hard).discards);
    }

    #[test]
    fn draw_samples_and_the_learner_policies() {
        let hard = self_play(5, 11, 4, Policy::Hard);
        assert!(hard.draws.len() > 5, "{}", hard.draws.len());
        for d in &hard.draws {
            assert!(d.x[0] == 1.0 && d.own.iter().all(|&o| o >= 0.0));
            assert!(d.x[1] >= 0.0 && d.x[FEATURES] >= 0.0);
            // hard takes when its values say so
            assert_eq!(d.hard_take, d.x[2 * FEATURES - 1] < 0.0);
        }
        for name in ["value", "valuedraw"] {
            let policy = Policy::named(name).unwrap();
            let a = self_play(5, 22, 4, policy);
            assert_eq!(a, self_play(5, 22, 4, policy));
            assert!(!a.discards.is_empty() && !a.draws.is_empty());
            // only the learner (seat round / 11 % 4) is sampled
            let learner = |round: u32| u8::try_from(round / 11 % 4).unwrap();
            assert!(a.discards.iter().all(|s| s.seat == learner(s.round)));
            assert!(a.draws.iter().all(|s| s.seat == learner(s.round)));
        }
        assert_eq!(Policy::named("nosuch"), None);
    }

    #[test]
    fn the_valuedraw_search_draws_legally_and_discards_as_value() {
        let t = table();
        let params = ExpertParams::default();
        assert_eq!(params.search, Search::ValueDraw);
        let value = ExpertParams {
            search: Search::Value,
            ..params
        };
        assert_eq!(decide(&t, &params).unwrap(), decide(&t, &value).unwrap());
        let mut draw = t.clone();
        draw.hand.pop();
        draw.hand_sizes[0] = 7;
        draw.stock_size += 1;
        draw.discard_phase = false;
        let d = decide(&draw, &params).unwrap();
        assert!(d.choice < 2 && d.deals == 0, "{d:?}");
        assert_eq!(d, decide(&draw, &params).unwrap());
        // taking 41 lowers the deadwood of this hand, so hard weighs the draw
        let seen = draw.seen();
        let stay = Position {
            view: draw.view(&seen),
            discarded: 41,
            feed: &draw.taken[1],
            pickups: &[28],
            own_turns: 2,
        };
        match draw_features(&stay, true, false, &params.hard).unwrap() {
            Draw::Weighed { x, hard_take } => {
                let take = hard::take_pile(&stay.view, 41, true, &params.hard).unwrap();
                assert_eq!(hard_take, take);
                assert_eq!(x[0], 1.0);
            }
            Draw::Decided(take) => {
                assert_eq!(
                    take,
                    hard::take_pile(&stay.view, 41, true, &params.hard).unwrap()
                );
            }
        }
    }
}
