//! Offline experiment on the Three-Thirteen `expert`'s inferred deals (issue #18), moved out
//! of `cardcore_engine::three_thirteen_infer`'s tests.

use cardcore_engine::paired::PairedTally;
use cardcore_engine::rng::CardRng;
use cardcore_engine::shuffle::shuffle;
use cardcore_engine::three_thirteen_expert::{
    ExpertParams, PimcCandidates, Round, Search, Table, decide,
};
use cardcore_engine::three_thirteen_hard::HardParams;
use cardcore_engine::three_thirteen_infer::{Chain, Model};
use cardcore_research::{Game, P, mean_ci95, remove_face};
use std::time::Instant;

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
/// `TTI_ROUNDS=44 TTI_SEED=1 cargo test --release -p cardcore-research
/// --test three_thirteen_infer infer_gain -- --ignored --nocapture`
#[test]
#[ignore = "an experiment: minutes of CPU"]
fn infer_gain() {
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
    let mix =
        |a: u64, b: u64| cardcore_engine::rng::mix64(a ^ b.wrapping_mul(0x9e37_79b9_7f4a_7c15));
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
