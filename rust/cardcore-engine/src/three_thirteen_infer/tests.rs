use super::*;
use crate::card::NATURALS;
use crate::three_thirteen_expert::budget::{mean_ci95, table_of};
use crate::three_thirteen_expert::{Ctx, view_of};

pub(super) const P: usize = 4;
pub(super) const DECKS: u8 = 2;

/// A `hard` self-play round with its public history and each seat's true slots.
pub(super) struct Game {
    pub(super) r: Round,
    pub(super) ctx: Ctx,
    pub(super) wild: u8,
    pub(super) first: usize,
    pub(super) history: History,
    pub(super) slots: Vec<Vec<u8>>,
    /// The stock was rebuilt: the history no longer reaches the deal.
    pub(super) rebuilt: bool,
}

impl Game {
    /// A fresh round (hands sorted by face, as the replay keeps them).
    pub(super) fn new(rnd: u8, first: usize, rng: &mut CardRng) -> Self {
        let mut deck: Vec<u8> = (0..NATURALS)
            .flat_map(|f| std::iter::repeat_n(f, usize::from(DECKS)))
            .collect();
        shuffle(rng, &mut deck);
        let n = usize::from(rnd) + 2;
        let hands: Vec<Vec<u8>> = (0..P)
            .map(|s| {
                let mut h = deck[s * n..(s + 1) * n].to_vec();
                h.sort_unstable();
                h
            })
            .collect();
        let up = deck[P * n];
        let wild = rnd + 2;
        let r = Round {
            hands: hands.clone(),
            stock: deck[P * n + 1..].to_vec(),
            pile: vec![up],
            current: first,
            out: None,
            final_left: 0,
            turns: 0,
            own_turns: vec![0; P],
            taken: vec![Vec::new(); P],
        };
        let t = table_of(&r, wild, first, false);
        let mut ctx = t.ctx(false, HardParams::default());
        ctx.all_hard = true;
        Self {
            r,
            ctx,
            wild,
            first,
            history: History {
                upcard: Some(up),
                turns: Vec::new(),
            },
            slots: hands,
            rebuilt: false,
        }
    }

    /// Starts the current seat's turn (a stock rebuild ends the history); false: the round
    /// cannot go on.
    pub(super) fn begin(&mut self, rng: &mut CardRng) -> bool {
        if self.r.stock.is_empty() {
            self.rebuilt = true;
        }
        self.r.begin_turn(rng)
    }

    /// `hard`'s draw for the current seat (true: the pile top).
    pub(super) fn hard_draw(&self) -> bool {
        let (r, ctx) = (&self.r, &self.ctx);
        let s = r.current;
        let seen = r.seen_by(s);
        let top = *r.pile.last().expect("a pile");
        let can = r.own_turns[s] >= ctx.min_own_turns;
        hard::take_pile(
            &view_of(ctx, &r.hands[s], &seen, r.out.is_some()),
            top,
            can,
            &ctx.hard,
        )
        .unwrap_or(false)
    }

    /// Draws for the current seat; returns the drawn card's index in the (sorted) hand.
    pub(super) fn draw(&mut self, take: bool) -> usize {
        let r = &mut self.r;
        let s = r.current;
        let card = if take { r.pile.pop() } else { r.stock.pop() }.expect("a card");
        if take {
            r.taken[s].push(card);
        } else {
            self.slots[s].push(card);
        }
        self.history.turns.push(Turn {
            draw: if take { Draw::Pile(card) } else { Draw::Stock },
            discard: 0,
        });
        insert_sorted(&mut r.hands[s], card)
    }

    /// `hard`'s discard for the current seat after its draw (`banned`: the taken card).
    pub(super) fn hard_discard(&self, banned: Option<usize>) -> usize {
        let (r, ctx) = (&self.r, &self.ctx);
        let s = r.current;
        let seen = r.seen_by(s);
        let feed = &r.taken[(s + 1) % P];
        hard::discard(
            &view_of(ctx, &r.hands[s], &seen, r.out.is_some()),
            banned,
            feed,
            &ctx.hard,
        )
        .ok()
        .flatten()
        .unwrap_or(0)
    }

    /// Discards card `i` of the current seat; false: the round is over.
    pub(super) fn discard(&mut self, i: usize) -> bool {
        let r = &mut self.r;
        let s = r.current;
        let mut rest = r.hands[s].clone();
        let d = rest.remove(i);
        let dw = fast::deadwood(&rest, self.wild, &self.ctx.rules);
        self.history.turns.last_mut().expect("the draw").discard = d;
        r.discard(&self.ctx, i, dw)
    }

    /// A whole `hard` turn; false: the round is over.
    pub(super) fn hard_turn(&mut self) -> bool {
        let take = self.hard_draw();
        let at = self.draw(take);
        let banned = (take && self.ctx.forbid_return).then_some(at);
        let i = self.hard_discard(banned);
        self.discard(i)
    }

    pub(super) fn table(&self, discard_phase: bool) -> Table {
        table_of(&self.r, self.wild, self.first, discard_phase)
    }

    /// The history without the current seat's incomplete turn.
    pub(super) fn history_now(&self, discard_phase: bool) -> History {
        let mut h = self.history.clone();
        if discard_phase {
            h.turns.pop();
        }
        h
    }
}

/// Cards in a round.
fn count(r: &Round) -> usize {
    r.hands.iter().map(Vec::len).sum::<usize>() + r.stock.len() + r.pile.len()
}

/// Plays `hard` rounds and calls `at(game, discard_phase)` at each of seat 0's decisions
/// before the stock is rebuilt.
fn each_decision(rounds: u64, seed: u64, mut at: impl FnMut(&Game, bool)) {
    let mut rng = CardRng::new(seed);
    for g in 0..rounds {
        let rnd = u8::try_from(g % 11).unwrap() + 1;
        let first = usize::try_from(rng.below(4)).unwrap();
        let mut game = Game::new(rnd, first, &mut rng);
        let mut play = CardRng::new(seed ^ g);
        while game.begin(&mut play) && !game.rebuilt {
            if game.r.current == 0 {
                at(&game, false);
                let take = game.hard_draw();
                game.draw(take);
                at(&game, true);
                let i = game.hard_discard(None);
                if !game.discard(i) {
                    break;
                }
            } else if !game.hard_turn() {
                break;
            }
        }
    }
}

#[test]
fn the_truth_explains_the_history_exactly() {
    let mut checked = 0;
    each_decision(22, 5, |game, discard_phase| {
        let t = game.table(discard_phase);
        let h = game.history_now(discard_phase);
        let model = Model::new(&t, &h, HardParams::default(), 0.0).unwrap();
        let mut scratch = Vec::new();
        for o in &model.opponents {
            let m = model.misses(o, &game.slots[o.seat], &mut scratch);
            assert_eq!(m, 0, "seat {} at turn {}", o.seat, t.turn_in_round);
            let mut now = game.r.hands[o.seat].clone();
            now.sort_unstable();
            assert_eq!(scratch, now);
        }
        checked += 1;
    });
    assert!(checked > 100, "{checked}");
}

#[test]
fn exact_deals_reproduce_the_history_and_keep_every_card() {
    // Exact likelihood against `hard`: the deals whose every replayed choice is `hard`'s
    // (most of them after a long burn-in) reproduce the history; every deal keeps every card.
    let mut n = 0;
    let mut exact = 0;
    each_decision(5, 9, |game, discard_phase| {
        let t = game.table(discard_phase);
        let h = game.history_now(discard_phase);
        if t.turn_in_round < 6 || n >= 8 {
            return;
        }
        n += 1;
        let model = Model::new(&t, &h, HardParams::default(), 0.0).unwrap();
        let unseen = t.unseen().unwrap();
        let mut rng = CardRng::new(n);
        let mut chain = Chain::new(&model, &t, &unseen, &mut rng);
        chain.burn_in(32, &mut rng);
        for _ in 0..4 {
            chain.sweep(1, &mut rng);
            assert!(chain.possible());
            let r = chain.deal(&t, &mut rng);
            assert_eq!(count(&r), count(&game.r));
            assert_eq!(r.hands[0], t.hand);
            for s in 1..P {
                assert_eq!(r.hands[s].len(), t.hand_sizes[s]);
                assert!(contains_all(&r.hands[s], &t.taken[s]));
            }
            let mut all: Vec<u8> = r.hands.concat();
            all.extend_from_slice(&r.stock);
            all.extend_from_slice(&r.pile);
            all.sort_unstable();
            let mut truth: Vec<u8> = game.r.hands.concat();
            truth.extend_from_slice(&game.r.stock);
            truth.extend_from_slice(&game.r.pile);
            truth.sort_unstable();
            assert_eq!(all, truth);
            if chain.misses() == 0 {
                exact += 1;
                // An independent replay of each opponent's turns agrees.
                let mut scratch = Vec::new();
                for (j, o) in model.opponents.iter().enumerate() {
                    assert_eq!(model.misses(o, &chain.slots[j], &mut scratch), 0);
                    let mut now = r.hands[o.seat].clone();
                    now.sort_unstable();
                    assert_eq!(scratch, now);
                }
            }
        }
    });
    assert!(
        n >= 4 && 2 * exact >= 4 * n,
        "{n} positions, {exact} exact deals"
    );
}

#[test]
fn deals_are_deterministic_from_the_seed() {
    let mut n = 0;
    each_decision(6, 3, |game, discard_phase| {
        let t = game.table(discard_phase);
        let h = game.history_now(discard_phase);
        if t.turn_in_round < 4 || n > 5 {
            return;
        }
        n += 1;
        let p = InferParams {
            burn_in: 3,
            ..InferParams::default()
        };
        let a = deals(&t, &h, HardParams::default(), &p, 3, 17).unwrap();
        let b = deals(&t, &h, HardParams::default(), &p, 3, 17).unwrap();
        for (x, y) in a.iter().zip(&b) {
            assert_eq!(x.hands, y.hands);
            assert_eq!(x.stock, y.stock);
        }
    });
    assert!(n > 0);
}

#[test]
fn a_history_that_does_not_lead_to_the_table_is_an_error() {
    let mut n = 0;
    each_decision(3, 4, |game, discard_phase| {
        let t = game.table(discard_phase);
        let mut h = game.history_now(discard_phase);
        if h.turns.len() < 3 || n > 0 {
            return;
        }
        n += 1;
        let p = InferParams::default();
        let hp = HardParams::default();
        let mut short = h.clone();
        short.turns.pop();
        assert!(matches!(
            deals(&t, &short, hp, &p, 1, 1),
            Err(ExpertError::Table(_))
        ));
        let wrong = (h.turns[0].discard + 1) % 52;
        h.turns[1].draw = Draw::Pile(wrong);
        assert!(deals(&t, &h, hp, &p, 1, 1).is_err());
        let bad_eps = InferParams { epsilon: -1.0, ..p };
        let h = game.history_now(discard_phase);
        assert!(deals(&t, &h, hp, &bad_eps, 1, 1).is_err());
    });
    assert_eq!(n, 1);
}

/// Offline: how much of the hands-seen gain inferred deals recover (issue #18).
///
/// Rounds of `hard` self-play (4 players, 2 decks, round numbers cycling 1..=11); at each of
/// seat 0's decisions where `hard` weighs more than one move (a discard that goes out is
/// skipped) each chooser's move is valued by a reference: the true hands, the stock shuffled
/// `TTI_REF` times, each of `hard`'s candidates played to the end of the round by `hard` at
/// every seat (the others' mean round score minus the seat's own). Gain: reference of the
/// chooser's move minus `hard`'s, summed over a round, times 11 (margin points a game).
/// Choosers, each `TTI_DEALS` deals (pimc over `hard`'s candidates, margins 0, 1, 2):
/// `pimc` (the honest deal), `seen` (true hands, stock shuffled), `infer e` (chain deals at
/// each epsilon of `TTI_EPS`); and `value` (the learned value's discard).
/// `TTI_ROUNDS=44 TTI_SEED=1 cargo test --release -p cardcore-engine --lib
/// three_thirteen_infer::tests::infer_gain -- --ignored --nocapture`
#[test]
#[ignore = "an experiment: minutes of CPU"]
fn infer_gain() {
    use crate::paired::PairedTally;
    use crate::three_thirteen_expert::{ExpertParams, PimcCandidates, Search, decide};
    use std::time::Instant;
    let env = |k: &str, d: &str| std::env::var(k).unwrap_or_else(|_| d.to_owned());
    let rounds: u64 = env("TTI_ROUNDS", "22").parse().unwrap();
    let seed: u64 = env("TTI_SEED", "1").parse().unwrap();
    let refs: u32 = env("TTI_REF", "64").parse().unwrap();
    let n: u32 = env("TTI_DEALS", "64").parse().unwrap();
    let burn: u32 = env("TTI_BURN", "4").parse().unwrap();
    let thin: u32 = env("TTI_THIN", "1").parse().unwrap();
    let epss: Vec<f64> = env("TTI_EPS", "0.02,0.2")
        .split(',')
        .map(|x| x.parse().unwrap())
        .collect();
    let margins = [0.0, 1.0, 2.0];
    let mut labels: Vec<String> = vec!["value".into()];
    let mut kinds: Vec<String> = vec!["pimc".into(), "seen".into()];
    kinds.extend(epss.iter().map(|e| format!("infer {e}")));
    for k in &kinds {
        for m in margins {
            labels.push(format!("{k} {n} m{m}"));
        }
    }
    let mut per_round: Vec<Vec<f64>> = vec![Vec::new(); labels.len()];
    let mut changed = vec![0u32; labels.len()];
    let mut positions = 0u64;
    let mut infer_time = 0.0f64;
    let mut infer_calls = 0u64;
    let (mut props, mut accs, mut impossible) = (0u64, 0u64, 0u64);
    let (mut misses, mut miss_n) = (0.0f64, 0.0f64);
    let mut overlap = [0.0f64; 4];
    let mut overlap_n = [0.0f64; 4];
    let value_params = ExpertParams {
        search: Search::Value,
        ..ExpertParams::default()
    };
    let hp = HardParams::default();
    // Values of each candidate in each of the deals.
    let values = |t: &Table, cands: &PimcCandidates, deals: &[Round], s: u64| {
        let k = cands.0.len().max(cands.1.len());
        let mut ctx = t.ctx(false, hp);
        ctx.all_hard = true;
        let mut out: Vec<Vec<f64>> = Vec::new();
        let mut i = 0;
        PairedTally::run(k, deals.len() as u32, None, s, |_, roll_seed, vals| {
            for (j, v) in vals.iter_mut().enumerate() {
                let mut r = deals[i].clone();
                *v = t.pimc_value(&ctx, cands, &mut r, &mut CardRng::new(roll_seed), j);
            }
            out.push(vals.to_vec());
            i += 1;
        });
        out
    };
    let choice = |vals: &[Vec<f64>], m: f64| {
        let mut i = 0;
        PairedTally::run(vals[0].len(), vals.len() as u32, None, 0, |_, _, v| {
            v.copy_from_slice(&vals[i]);
            i += 1;
        })
        .choice(m)
    };
    let mix = |a: u64, b: u64| crate::rng::mix64(a ^ b.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let mut rng = CardRng::new(seed);
    for g in 0..rounds {
        let rnd = u8::try_from(g % 11).unwrap() + 1;
        let first = usize::try_from(rng.below(4)).unwrap();
        let mut game = Game::new(rnd, first, &mut rng);
        let mut play = CardRng::new(seed ^ 0x5eed ^ g);
        let mut gains = vec![0.0f64; labels.len()];
        'round: while game.begin(&mut play) && !game.rebuilt {
            if game.r.current != 0 {
                if !game.hard_turn() {
                    break;
                }
                continue;
            }
            for discard_phase in [false, true] {
                let t = game.table(discard_phase);
                let h = game.history_now(discard_phase);
                let cands = t.pimc_candidates(&ExpertParams::default()).unwrap();
                let k = cands.0.len().max(cands.1.len());
                let skip = k == 1 || (discard_phase && t.out_seat.is_none() && cands.1[0].1 == 0);
                if !skip {
                    positions += 1;
                    let s0 = seed.wrapping_mul(1_000_003) ^ positions;
                    let truth = game.r.clone();
                    let mut srng = CardRng::new(mix(s0, 1));
                    let ref_deals: Vec<Round> = (0..refs)
                        .map(|_| {
                            let mut d = truth.clone();
                            shuffle(&mut srng, &mut d.stock);
                            d
                        })
                        .collect();
                    let reference = values(&t, &cands, &ref_deals, mix(s0, 2));
                    let mean = |j: usize| {
                        reference.iter().map(|v| v[j]).sum::<f64>() / reference.len() as f64
                    };
                    let gain = |c: usize| mean(c) - mean(0);
                    let mut at = 0;
                    let vc = decide(&t, &value_params, 0).unwrap().choice;
                    let vj = if discard_phase {
                        cands.1.iter().position(|c| c.0 == vc).unwrap_or(0)
                    } else {
                        cands
                            .0
                            .iter()
                            .position(|&c| usize::from(c) == vc)
                            .unwrap_or(0)
                    };
                    gains[at] += gain(vj);
                    changed[at] += u32::from(vj != 0);
                    at += 1;
                    let unseen = t.unseen().unwrap();
                    let mut drng = CardRng::new(mix(s0, 3));
                    let mut sets: Vec<Vec<Round>> = Vec::new();
                    sets.push((0..n).map(|_| t.deal(&unseen, true, &mut drng)).collect());
                    sets.push(
                        (0..n)
                            .map(|_| {
                                let mut d = truth.clone();
                                shuffle(&mut drng, &mut d.stock);
                                d
                            })
                            .collect(),
                    );
                    for &e in &epss {
                        let start = Instant::now();
                        let model = Model::new(&t, &h, hp, e).unwrap();
                        let mut crng = CardRng::new(mix(s0, 4));
                        let mut chain = Chain::new(&model, &t, &unseen, &mut crng);
                        chain.burn_in(burn, &mut crng);
                        let mut ds = Vec::new();
                        for _ in 0..n {
                            chain.sweep(thin, &mut crng);
                            impossible += u64::from(!chain.possible());
                            misses += f64::from(chain.misses());
                            miss_n += 1.0;
                            ds.push(chain.deal(&t, &mut crng));
                        }
                        infer_time += start.elapsed().as_secs_f64();
                        infer_calls += 1;
                        props += chain.proposals;
                        accs += chain.accepted;
                        sets.push(ds);
                    }
                    // Hidden cards dealt right (multiset overlap with the truth), per set.
                    for (q, ds) in sets.iter().enumerate() {
                        for d in ds {
                            for o in 1..P {
                                let hid = |h: &[u8]| {
                                    let mut x = h.to_vec();
                                    for &c in &t.taken[o] {
                                        remove_face(&mut x, c);
                                    }
                                    x
                                };
                                let mut truth_h = hid(&truth.hands[o]);
                                let mut hits = 0u64;
                                for c in hid(&d.hands[o]) {
                                    hits += u64::from(remove_face(&mut truth_h, c));
                                }
                                overlap[q.min(3)] += hits as f64;
                                overlap_n[q.min(3)] += hid(&d.hands[o]).len() as f64;
                            }
                        }
                    }
                    for ds in &sets {
                        let vals = values(&t, &cands, ds, mix(s0, 5));
                        for m in margins {
                            let c = choice(&vals, m);
                            gains[at] += gain(c);
                            changed[at] += u32::from(c != 0);
                            at += 1;
                        }
                    }
                }
                if discard_phase {
                    let i = game.hard_discard(None);
                    if !game.discard(i) {
                        break 'round;
                    }
                } else {
                    let take = game.hard_draw();
                    game.draw(take);
                }
            }
        }
        let line: Vec<String> = gains.iter().map(|x| format!("{x:.4}")).collect();
        eprintln!("R {rnd} {}", line.join(" "));
        for (v, x) in per_round.iter_mut().zip(&gains) {
            v.push(*x);
        }
        if (g + 1) % 11 == 0 {
            eprintln!("{} rounds, {positions} positions", g + 1);
        }
    }
    eprintln!(
        "{rounds} rounds (seed {seed}), {positions} positions; chain {:.1} ms a decision, acceptance {:.3}, impossible states {impossible}, choices hard would not make per deal {:.2}",
        1000.0 * infer_time / infer_calls.max(1) as f64,
        accs as f64 / props.max(1) as f64,
        misses / miss_n
    );
    eprintln!(
        "hidden cards dealt right: pimc {:.3}, seen {:.3}, infer {:.3}",
        overlap[0] / overlap_n[0],
        overlap[1] / overlap_n[1],
        overlap[2] / overlap_n[2]
    );
    eprintln!("L {}", labels.join("|"));
    for (i, l) in labels.iter().enumerate() {
        let (m, h) = mean_ci95(&per_round[i]);
        eprintln!(
            "{l:18} {:+7.2} ± {:5.2}   {}",
            11.0 * m,
            11.0 * h,
            changed[i]
        );
    }
}
