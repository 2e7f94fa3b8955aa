//! How much more budget buys: an offline frontier of [`Search::Pimc`]'s deals per decision,
//! and of the same search with the opponents' hands SEEN (a bound, not an agent).
//!
//! Rounds of `hard` self-play (4 players, 2 decks, the round number cycling through 1..=11, the
//! first seat uniform); at each decision of seat 0 where `hard` weighs more than one move (and
//! its discard does not go out), each chooser's move is valued by a reference: the true hands,
//! the stock shuffled again `TTF_REF` times, each of `hard`'s candidates played to the end of
//! the round with `hard` for every seat (the seat's value: the others' mean round score minus
//! its own). The true hands are a draw from what the seat knows and the stock order is uniform given them, so
//! the reference is unbiased for what the seat can know. A chooser's gain at a decision is the
//! reference value of its move minus that of `hard`'s; the figure is the sum over a round's
//! decisions, times 11 rounds (one-step gains: the round goes on with `hard`'s move).
//!
//! Choosers: `pimc` at each deal count of `TTF_DEALS` (the prefixes of one run: the same
//! deals as `decide` with that many rollouts) and margins 0, 1, 2; `seen` the same with the
//! true hands and the stock shuffled (`TTF_SEEN` counts); `lap`, the expert's lap search.
//!
//! It prints (stderr) one `R round gain...` line a round, in the order of the final table's
//! rows, so that runs with other seeds can be pooled, then the table.
//! `TTF_ROUNDS=110 TTF_SEED=1 TTF_REF=64 cargo test --release -p cardcore-research
//! --test three_thirteen_expert budget_curve -- --ignored --nocapture` (some 20 s of CPU a round).

use cardcore_engine::card::NATURALS;
use cardcore_engine::paired::PairedTally;
use cardcore_engine::rng::CardRng;
use cardcore_engine::shuffle::shuffle;
use cardcore_engine::three_thirteen_expert::{
    Ctx, ExpertParams, PimcCandidates, Round, Search, Table, decide,
};
use cardcore_research::{mean_ci95, table_of};
use std::time::Instant;

fn env(name: &str, default: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| default.to_owned())
}

fn counts(name: &str, default: &str) -> Vec<u32> {
    env(name, default)
        .split(',')
        .map(|x| x.parse().expect("a count"))
        .collect()
}

const P: usize = 4;
const DECKS: u8 = 2;

/// A fresh round: hands of `rnd + 2` cards, one card on the pile.
fn fresh(rnd: u8, first: usize, rng: &mut CardRng) -> Round {
    let mut deck: Vec<u8> = (0..NATURALS)
        .flat_map(|f| std::iter::repeat_n(f, usize::from(DECKS)))
        .collect();
    shuffle(rng, &mut deck);
    let n = usize::from(rnd) + 2;
    let hands: Vec<Vec<u8>> = (0..P).map(|s| deck[s * n..(s + 1) * n].to_vec()).collect();
    let pile = vec![deck[P * n]];
    Round {
        hands,
        stock: deck[P * n + 1..].to_vec(),
        pile,
        current: first,
        out: None,
        final_left: 0,
        turns: 0,
        own_turns: vec![0; P],
        taken: vec![Vec::new(); P],
    }
}

/// Each deal's candidate values, `n` deals: honest deals (`truth` None) or the true
/// hands with the stock shuffled.
fn values(
    t: &Table,
    cands: &PimcCandidates,
    truth: Option<&Round>,
    n: u32,
    seed: u64,
) -> Vec<Vec<f64>> {
    let k = cands.0.len().max(cands.1.len());
    let params = ExpertParams::default();
    let unseen = t.unseen().unwrap();
    let mut ctx = t.ctx(false, params.hard);
    ctx.all_hard = true;
    let mut out = Vec::new();
    PairedTally::run(k, n, None, seed, |rng, roll_seed, vals| {
        let deal = match truth {
            None => t.deal(&unseen, params.infer_hands, rng),
            Some(r) => {
                let mut d = r.clone();
                shuffle(rng, &mut d.stock);
                d
            }
        };
        for (j, v) in vals.iter_mut().enumerate() {
            let mut r = deal.clone();
            *v = t.pimc_value(&ctx, cands, &mut r, &mut CardRng::new(roll_seed), j);
        }
        out.push(vals.to_vec());
    });
    out
}

/// The choice of a paired tally over the first `n` deals of `vals`.
fn choice(vals: &[Vec<f64>], n: u32, margin: f64) -> usize {
    let mut i = 0;
    PairedTally::run(vals[0].len(), n, None, 0, |_, _, v| {
        v.copy_from_slice(&vals[i]);
        i += 1;
    })
    .choice(margin)
}

#[test]
#[ignore = "an experiment: minutes of CPU"]
fn budget_curve() {
    let rounds: u64 = env("TTF_ROUNDS", "40").parse().unwrap();
    let seed: u64 = env("TTF_SEED", "1").parse().unwrap();
    let refs: u32 = env("TTF_REF", "64").parse().unwrap();
    let deals = counts("TTF_DEALS", "16,64,256");
    let seens = counts("TTF_SEEN", "16,64,256");
    let margins = [0.0, 1.0, 2.0];
    let mut labels: Vec<String> = vec!["lap".into()];
    for (kind, ns) in [("pimc", &deals), ("seen", &seens)] {
        for &n in ns {
            for m in margins {
                labels.push(format!("{kind} {n} m{m}"));
            }
        }
    }
    let mut per_round = vec![Vec::new(); labels.len()];
    let mut changed = vec![0u32; labels.len()];
    let (mut positions, mut decisions, mut rollouts) = (0u32, 0u32, 0u64);
    let mut rollout_time = 0.0f64;
    let params = ExpertParams {
        search: Search::Lap,
        ..ExpertParams::default()
    };
    let mut rng = CardRng::new(seed);
    for g in 0..rounds {
        let rnd = u8::try_from(g % 11).unwrap() + 1;
        let wild = rnd + 2;
        let first = usize::try_from(rng.below(4)).unwrap();
        let mut r = fresh(rnd, first, &mut rng);
        let mut t0 = table_of(&r, wild, first, false);
        let mut ctx = t0.ctx(false, params.hard);
        ctx.all_hard = true;
        let mut gains = vec![0.0f64; labels.len()];
        let mut play = CardRng::new(seed ^ 0x5eed ^ g);
        while r.begin_turn(&mut play) {
            let s = r.current;
            if s != 0 {
                if !r.hard_turn(&ctx) {
                    break;
                }
                continue;
            }
            // Seat 0: the draw, then the discard, each a decision.
            t0 = table_of(&r, wild, first, false);
            let mut take = None;
            for discard_phase in [false, true] {
                let t = if discard_phase {
                    // hard's draw, then the discard decision
                    let mut d = r.clone();
                    let pile = take.expect("the draw");
                    d.draw(pile, false).unwrap();
                    let t = table_of(&d, wild, first, true);
                    (t, d)
                } else {
                    (t0.clone(), r.clone())
                };
                let (t, truth) = t;
                decisions += 1;
                let cands = t.pimc_candidates(&params).unwrap();
                if !discard_phase {
                    take = Some(cands.0[0]);
                }
                let k = cands.0.len().max(cands.1.len());
                if k == 1 || (discard_phase && t.out_seat.is_none() && cands.1[0].1 == 0) {
                    continue;
                }
                positions += 1;
                let s0 = seed.wrapping_mul(1_000_003) ^ u64::from(positions);
                let start = Instant::now();
                let reference = values(&t, &cands, Some(&truth), refs, mix(s0, 1));
                rollout_time += start.elapsed().as_secs_f64();
                rollouts += u64::from(refs) * k as u64;
                let mean = |j: usize| reference.iter().map(|v| v[j]).sum::<f64>() / f64::from(refs);
                let gain = |c: usize| mean(c) - mean(0);
                let mut at = 0;
                let lap = decide(&t, &params, mix(s0, 2)).unwrap().choice;
                let lap_j = if discard_phase {
                    cands.1.iter().position(|c| c.0 == lap).unwrap_or(0)
                } else {
                    cands.0.iter().position(|&c| usize::from(c) == lap).unwrap()
                };
                gains[at] += gain(lap_j);
                changed[at] += u32::from(lap_j != 0);
                at += 1;
                for (which, ns) in [(None, &deals), (Some(&truth), &seens)] {
                    let nmax = *ns.iter().max().unwrap();
                    let vals = values(&t, &cands, which, nmax, mix(s0, 3));
                    for &n in ns {
                        for m in margins {
                            let c = choice(&vals, n, m);
                            gains[at] += gain(c);
                            changed[at] += u32::from(c != 0);
                            at += 1;
                        }
                    }
                }
            }
            if !r.hard_turn(&ctx) {
                break;
            }
        }
        for (v, g) in per_round.iter_mut().zip(&gains) {
            v.push(*g);
        }
        // One line a round for pooling runs: round number, then each chooser's gain.
        let line: Vec<String> = gains.iter().map(|x| format!("{x:.4}")).collect();
        eprintln!("R {rnd} {}", line.join(" "));
        if (g + 1) % 10 == 0 {
            eprintln!("{} rounds, {positions} positions", g + 1);
        }
    }
    let ms = 1000.0 * rollout_time / rollouts as f64;
    eprintln!(
        "{rounds} rounds (seed {seed}), {decisions} decisions of seat 0, {positions} with a choice; reference {refs} shuffles; one hard rollout {ms:.3} ms"
    );
    eprintln!("L {}", labels.join("|"));
    eprintln!(
        "C {}",
        changed
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    );
    eprintln!(
        "gain in margin points a game (11 x per round; + = better than hard), 95% interval; decisions changed"
    );
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

/// One turn of `r`'s current seat chosen by the SEEN search: among `hard`'s candidates,
/// the best over `n` shuffles of the true stock (the true hands), margin `margin`.
fn seen_turn(r: &mut Round, ctx: &Ctx, first: usize, n: u32, margin: f64, seed: u64) -> bool {
    let params = ExpertParams::default();
    let t = table_of(r, ctx.wild, first, false);
    let cands = t.pimc_candidates(&params).unwrap();
    let pile = if cands.0.len() > 1 {
        let vals = values(&t, &cands, Some(r), n, mix(seed, 1));
        cands.0[choice(&vals, n, margin)]
    } else {
        cands.0[0]
    };
    r.draw(pile, false).unwrap();
    let t = table_of(r, ctx.wild, first, true);
    let cands = t.pimc_candidates(&params).unwrap();
    let goes_out = t.out_seat.is_none() && cands.1[0].1 == 0;
    let j = if cands.1.len() > 1 && !goes_out {
        let vals = values(&t, &cands, Some(r), n, mix(seed, 2));
        choice(&vals, n, margin)
    } else {
        0
    };
    let (i, dw) = cands.1[j];
    r.play_discard(ctx, i, dw)
}

/// Whole games (11 rounds, 4 players, `hard`'s rules as [`budget_curve`]): `hard` at every
/// seat, and on the same deals and reshuffles one seat (`game % 4`) choosing by the SEEN
/// search (the opponents' hands in view, the stock shuffled `TTG_N` times, margin
/// `TTG_MARGIN`): a bound on what a determinized search with a perfect model of the
/// opponents' hands wins. Games `TTG_START..TTG_START+TTG_GAMES` of seed `TTG_SEED`; one
/// `G` line a game (own total, baseline own total, margin change, win, baseline win) for
/// pooling runs, then the means with 95% intervals.
#[test]
#[ignore = "an experiment: seconds of CPU a game"]
fn seen_games() {
    let start: u64 = env("TTG_START", "0").parse().unwrap();
    let games: u64 = env("TTG_GAMES", "4").parse().unwrap();
    let seed: u64 = env("TTG_SEED", "1").parse().unwrap();
    let n: u32 = env("TTG_N", "64").parse().unwrap();
    let margin: f64 = env("TTG_MARGIN", "1").parse().unwrap();
    let params = ExpertParams::default();
    let mut rows: Vec<[f64; 5]> = Vec::new();
    let begun = Instant::now();
    for g in start..start + games {
        let seat = usize::try_from(g % 4).unwrap();
        let mut totals = [[0u32; P]; 2];
        for rnd in 1..=11u8 {
            let wild = rnd + 2;
            let key = g * 16 + u64::from(rnd);
            let first = usize::try_from((g + u64::from(rnd)) % 4).unwrap();
            let deal = fresh(rnd, first, &mut CardRng::new(mix(seed, key)));
            let mut ctx = table_of(&deal, wild, first, false).ctx(false, params.hard);
            ctx.all_hard = true;
            for (k, total) in totals.iter_mut().enumerate() {
                let mut r = deal.clone();
                let mut play = CardRng::new(mix(seed ^ 0x5eed, key));
                let mut turn = 0u64;
                while r.begin_turn(&mut play) {
                    turn += 1;
                    let going = if k == 1 && r.current == seat {
                        seen_turn(&mut r, &ctx, first, n, margin, mix(key, turn))
                    } else {
                        r.hard_turn(&ctx)
                    };
                    if !going {
                        break;
                    }
                }
                for (s, t) in total.iter_mut().enumerate() {
                    *t += r.score_in(&ctx, s);
                }
            }
        }
        let won = |t: &[u32; P]| {
            let best = *t.iter().min().unwrap();
            f64::from(u8::from(
                t[seat] == best && t.iter().filter(|&&x| x == best).count() == 1,
            ))
        };
        let others =
            |t: &[u32; P]| f64::from(t.iter().sum::<u32>() - t[seat]) / 3.0 - f64::from(t[seat]);
        let row = [
            f64::from(totals[1][seat]),
            f64::from(totals[0][seat]),
            others(&totals[1]) - others(&totals[0]),
            won(&totals[1]),
            won(&totals[0]),
        ];
        eprintln!(
            "G {g} {} {} {:.4} {} {} ({:.0} s)",
            row[0],
            row[1],
            row[2],
            row[3],
            row[4],
            begun.elapsed().as_secs_f64()
        );
        rows.push(row);
    }
    let ci = |f: &dyn Fn(&[f64; 5]) -> f64| {
        let (m, h) = mean_ci95(&rows.iter().map(f).collect::<Vec<_>>());
        format!("{m:+.2} ± {h:.2}")
    };
    eprintln!(
        "{} games (seed {seed}, {n} shuffles, margin {margin}): own points {}, margin {}, wins {} (hard {}), wins change {}",
        rows.len(),
        ci(&|r| r[0] - r[1]),
        ci(&|r| r[2]),
        ci(&|r| r[3]),
        ci(&|r| r[4]),
        ci(&|r| r[3] - r[4]),
    );
}

fn mix(a: u64, b: u64) -> u64 {
    cardcore_engine::rng::mix64(a ^ b.wrapping_mul(0x9e37_79b9_7f4a_7c15))
}
