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
//! (`cardcore_research::tt_value_data`; `research/scripts/tt-value-fit` writes them). The stock is averaged over in
//! closed form by the look-ahead features, never sampled, so the search draws no random numbers.
//!
//! The search values each of `hard`'s discard options (the discards near the least deadwood) by
//! the fitted value and plays the best. With `value` the draws are `hard`'s; with `valuedraw`
//! a draw `hard` weighs (taking the pile top lowers the deadwood) is decided by a linear draw
//! value ([`draw_features`], [`draw_choice`]; [`draw_weights::DRAW_WEIGHTS`]) fitted the same
//! way on both draws played to the end of the round: the margin after taking the top and the
//! value's discard minus the margin after the stock draw.

use crate::card::{JOKER0, rank};
use crate::games::three_thirteen::banned_after_draw;
use crate::meld::{MeldError, fast};
use crate::three_thirteen_expert::{Decision, ExpertError, ExpertParams, Search, Table};
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
#[doc(hidden)]
pub struct Picked {
    /// `hard`'s options, in its order.
    pub options: Vec<DiscardOption>,
    /// `hard`'s choice (the first of the least score).
    pub default: usize,
    /// The value's choice: the least value, `hard`'s on ties and unless another is less.
    pub pick: usize,
    /// [`features`] of each option's position (empty for a single option).
    pub x: Vec<[f64; FEATURES]>,
    /// The fitted [`value`] of each option's position (empty for a single option).
    pub values: Vec<f64>,
}

/// [`Picked`] at `view` (the hand before the discard); `None` when no card may be discarded.
///
/// # Errors
/// A hand or seen card the meld solver rejects.
#[doc(hidden)]
pub fn pick_discard(
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
    let banned = banned_after_draw(forbid_return, true, view.hand.len());
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
        use crate::meld::{AceMode, MeldRules};
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
