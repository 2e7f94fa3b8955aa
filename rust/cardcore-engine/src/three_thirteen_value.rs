//! A learned value of a Three-Thirteen position after a discard, and the `expert` search that
//! uses it (`search="value"`): one-step improvement over the `hard` agent.
//!
//! The value predicts the deciding seat's round score minus the mean of the other seats' (lower
//! is better) from a few features of the position right after its discard ([`features`]): the
//! hand's optimal deadwood, `hard`'s one-draw look-ahead split into its parts (expected deadwood
//! after one more stock draw, the chance that draw goes out, the chance it lowers the deadwood),
//! the wilds held, whether the discard fits the next seat's (or any opponent's) pile pickups,
//! and the deadwood and look-ahead times the opponents' pickups (a proxy for how soon the round
//! ends). It is linear, with one weight vector per round size and own-turn bucket ([`group`]);
//! the weights ([`weights::WEIGHTS`]) are fitted by ridge regression on `hard` self-play
//! ([`self_play`]; `scripts/tt-value-fit` writes them). The stock is averaged over in closed
//! form by the look-ahead features, never sampled, so the search draws no random numbers.
//!
//! The search values each of `hard`'s discard options (the discards near the least deadwood) by
//! the fitted value and plays the best; draws are `hard`'s.

use crate::card::{JOKER0, rank};
use crate::meld::{MeldError, MeldRules, fast};
use crate::rng::{CardRng, mix64};
use crate::shuffle::shuffle;
use crate::three_thirteen_expert::{
    Ctx, Decision, ExpertError, ExpertParams, Round, Table, view_of,
};
use crate::three_thirteen_hard::{self as hard, HardParams, View, interacts};

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

/// The fitted value of `pos`: the seat's expected round score minus the others' mean (lower is
/// better for the seat).
///
/// # Errors
/// [`MeldError`] for bad faces, hand size, wild rank or points.
pub fn value(pos: &Position<'_>) -> Result<f64, MeldError> {
    let x = features(pos)?;
    let w = &weights::WEIGHTS[group(pos.view.hand.len(), pos.own_turns)];
    Ok(x.iter().zip(w).map(|(a, b)| a * b).sum())
}

/// The `value` search's move at `table` (checked by the caller): `hard`'s draw; among `hard`'s
/// discard options, the one whose position has the least fitted value (`hard`'s on ties).
///
/// # Errors
/// [`ExpertError`] for a table that is not a possible position.
pub fn decide(table: &Table, params: &ExpertParams) -> Result<Decision, ExpertError> {
    table.unseen()?; // the sizes add up
    let seen = table.seen();
    let view = table.view(&seen);
    let players = table.hand_sizes.len();
    let decided = |choice| Decision {
        choice,
        deals: 0,
        candidates: 1,
    };
    if !table.discard_phase {
        let top = *table.pile.last().expect("checked");
        let can_go_out = table.turns_played()[table.seat] >= table.min_own_turns;
        let take = hard::take_pile(&view, top, can_go_out, &params.hard)?;
        return Ok(decided(usize::from(take)));
    }
    let feed = &table.taken[(table.seat + 1) % players];
    let options = hard::discard_options(&view, table.banned, feed, &params.hard)?;
    let mut default: Option<(usize, f64)> = None;
    for (j, o) in options.iter().enumerate() {
        if default.is_none_or(|(_, s)| o.score < s) {
            default = Some((j, o.score));
        }
    }
    let Some((default, _)) = default else {
        return Err(ExpertError::Table("no card may be discarded".to_owned()));
    };
    if options.len() == 1 {
        return Ok(decided(options[default].index));
    }
    let pickups: Vec<u8> = (0..players)
        .filter(|&s| s != table.seat)
        .flat_map(|s| table.taken[s].iter().copied())
        .collect();
    let own_turns = table.turns_played()[table.seat] + 1;
    let mut seen_after = seen.clone();
    seen_after.push(0);
    let mut best = (f64::INFINITY, default);
    let mut values = Vec::with_capacity(options.len());
    for o in &options {
        let discarded = table.hand[o.index];
        *seen_after.last_mut().expect("not empty") = discarded;
        let v = value(&Position {
            view: View {
                hand: &o.rest,
                seen: &seen_after,
                ..view
            },
            discarded,
            feed,
            pickups: &pickups,
            own_turns,
        })?;
        values.push(v);
    }
    for (j, &v) in values.iter().enumerate() {
        if v < best.0 || (v == best.0 && j == default) {
            best = (v, j);
        }
    }
    if values[best.1] >= values[default] {
        best.1 = default;
    }
    Ok(Decision {
        choice: options[best.1].index,
        deals: 0,
        candidates: options.len(),
    })
}

/// One training example of [`self_play`]: one of `hard`'s discard options at a decision with
/// several (before anyone has gone out), the seat's position after it, and how the round ends
/// when it is played and the round is finished by `hard` at every seat from the true cards
/// (the same cards and reshuffles for every option of the decision: common random numbers).
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The round (0 for the first of [`self_play`]'s rounds).
    pub round: u32,
    /// The seat.
    pub seat: u8,
    /// The option: 0 is `hard`'s choice (the one the game goes on with), then its others.
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

/// `rounds` rounds of `hard` at every seat of a `players`-player table (two decks, no jokers,
/// the default rules), the round sizes in turn (3, 4, ..., 13, 3, ...) and the first seat
/// rotating, every deal from `seed`: at each discard where `hard` weighs several options before
/// anyone has gone out, a [`Sample`] per option (`hard`'s first); the game goes on with
/// `hard`'s.
///
/// # Panics
/// If `players` is not 2 to 8.
#[must_use]
pub fn self_play(seed: u64, rounds: u32, players: usize) -> Vec<Sample> {
    assert!((2..=8).contains(&players), "2 to 8 players");
    let mut out = Vec::new();
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
        while r.begin_turn(&mut rng) {
            let going = if r.out.is_some() {
                r.hard_turn(&ctx)
            } else {
                sampled_turn(&mut r, &ctx, i, rng.next_u64(), &mut out)
            };
            if !going {
                break;
            }
        }
    }
    out
}

/// A `hard` turn of the current seat (nobody out yet) that, when `hard` weighs several
/// discards, plays each to the end of the round in a copy and records them in `out`.
fn sampled_turn(r: &mut Round, ctx: &Ctx, round: u32, roll: u64, out: &mut Vec<Sample>) -> bool {
    let s = r.current;
    let players = ctx.players;
    let seen = r.seen_by(s);
    let &top = r.pile.last().expect("the pile is never empty");
    let pile = hard::take_pile(
        &view_of(ctx, &r.hands[s], &seen, false),
        top,
        true,
        &ctx.hard,
    )
    .unwrap_or(false);
    let card = if pile { r.pile.pop() } else { r.stock.pop() }.expect("a card to draw");
    r.hands[s].push(card);
    if pile {
        r.taken[s].push(card);
    }
    let seen = r.seen_by(s);
    let feed = r.taken[(s + 1) % players].clone();
    let options = hard::discard_options(
        &view_of(ctx, &r.hands[s], &seen, false),
        None,
        &feed,
        &ctx.hard,
    )
    .expect("a dealt hand");
    let mut best = 0;
    for (j, o) in options.iter().enumerate() {
        if o.score < options[best].score {
            best = j;
        }
    }
    if options.len() > 1 {
        let pickups: Vec<u8> = (0..players)
            .filter(|&k| k != s)
            .flat_map(|k| r.taken[k].iter().copied())
            .collect();
        let order = std::iter::once(best).chain((0..options.len()).filter(|&j| j != best));
        for (rank_j, j) in order.enumerate() {
            let o = &options[j];
            let discarded = r.hands[s][o.index];
            let mut seen_after = seen.clone();
            seen_after.push(discarded);
            let own_turns = r.own_turns[s] + 1;
            let x = features(&Position {
                view: view_of(ctx, &o.rest, &seen_after, false),
                discarded,
                feed: &feed,
                pickups: &pickups,
                own_turns,
            })
            .expect("a dealt position");
            let mut copy = r.clone();
            let going = copy.discard(ctx, o.index, o.deadwood);
            let margin = -copy.play_out(ctx, &mut CardRng::new(roll), going, s);
            let own = if copy.out == Some(s) {
                0.0
            } else {
                f64::from(fast::deadwood(&copy.hands[s], ctx.wild, &ctx.rules))
            };
            out.push(Sample {
                round,
                seat: u8::try_from(s).unwrap_or(u8::MAX),
                option: u8::try_from(rank_j).unwrap_or(u8::MAX),
                group: group(o.rest.len(), own_turns),
                x,
                own,
                margin,
            });
        }
    }
    let o = &options[best];
    r.discard(ctx, o.index, o.deadwood)
}

#[cfg(test)]
mod tests {
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
    fn table() -> Table {
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
        let params = ExpertParams::default();
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
        let a = self_play(5, 11, 4);
        assert_eq!(a, self_play(5, 11, 4));
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
        assert_ne!(a, self_play(6, 11, 4));
    }
}
