//! The training data of the Three-Thirteen learned values (`three_thirteen_value`): rounds of
//! `hard` self-play (or a learner playing a value search) where every option of a sampled
//! decision is played to the end of the round ([`self_play`]; `examples/tt_value_data.rs`
//! writes it, `scripts/tt-value-fit` fits the weights on it).

use cardcore_engine::meld::{MeldRules, fast};
use cardcore_engine::rng::{CardRng, mix64};
use cardcore_engine::shuffle::shuffle;
use cardcore_engine::three_thirteen_expert::{Ctx, Round, view_of};
use cardcore_engine::three_thirteen_hard::{self as hard, HardParams};
use cardcore_engine::three_thirteen_value::{
    DRAW_FEATURES, Draw, FEATURES, Position, ROUND_SIZES, draw_choice, draw_features, group,
    pick_discard,
};

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
    let (_, banned) = r.draw_last(ctx, pile);
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
    r.play_discard(ctx, i, dw)
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
            let going = copy.play_discard(ctx, o.index, o.deadwood);
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
    r.play_discard(ctx, o.index, o.deadwood)
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
