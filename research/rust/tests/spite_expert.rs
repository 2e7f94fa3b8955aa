//! Offline experiments on the Spite & Malice `expert` search (issue 18), moved out of
//! `cardcore_engine::spite_expert`. Each is an ignored test; run one with
//! `cargo test --release -p cardcore-research --test spite_expert NAME -- --ignored --nocapture`.

use cardcore_engine::games::spite_malice::{Rules, State, StockRule};
use cardcore_engine::rng::CardRng;
use cardcore_engine::shuffle::shuffle;
use cardcore_engine::spite::{self, NO_CARD, PlanRules, SideRule};
use cardcore_engine::spite_expert::{
    Ctx, ExpertParams, Game, Rulebook, Table, card_values, reaches_payoff, search,
};

/// Offline comparison of search settings (issue 18), on positions of planner self-play (2
/// players, default rules; every `SMX_EVERY`-th turn start of seat 0 in `SMX_GAMES` games from
/// `SMX_SEED`). At each position the planner's best plans are valued over `SMX_REF_DEALS` deals
/// (the reference: the same rollouts, scored after 2, 4 and 8 turns); each setting of
/// `SMX_SETTINGS` (`rollouts/candidates/horizon/margin`, comma-separated, the first one the
/// baseline) then searches with its own seed, and its choice is scored by the reference value it
/// gains over the planner's plan (pay-off cards). Printed per setting: CPU time relative to the
/// first, how often it leaves the planner's plan, the mean gain and the mean gain minus the
/// first setting's on the same positions, with 95% intervals. The reference uses the search's
/// own model (uniform deals, planner rollouts), so it judges budgets and selection rules, not
/// a different model. Run with
/// `SMX_GAMES=4 SMX_SEED=3 cargo test --release -p cardcore-research --test spite_expert frontier -- --ignored
/// --nocapture` (about 80 positions; 5-15 minutes).
mod frontier {
    use super::*;
    use std::time::Instant;

    pub(super) fn env(name: &str, default: u64) -> u64 {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    }

    /// The expert's default search (rollouts 32, candidates 6, one round, margin 1).
    pub(super) fn default_params() -> ExpertParams {
        ExpertParams {
            rollouts: 32,
            time_limit: None,
            candidates: 6,
            horizon: 2,
            margin: 1.0,
            win_value: 10.0,
            node_limit: 500_000,
            weights: spite::preset("hard").unwrap(),
        }
    }

    pub(super) fn rules() -> PlanRules {
        PlanRules {
            top: 12,
            wild_start: true,
            refill_empty_hand: true,
            side_rule: SideRule::Any,
            must_play_aces: false,
        }
    }

    /// The self-play game's rules (2 players, 2 decks, kings wild, default options).
    pub(super) fn game_rules() -> Rules {
        Rules {
            players: 2,
            decks: 2,
            jokers: false,
            payoff_size: 20,
            hand_size: 5,
            side_stacks: 4,
            center_stacks: 3,
            king_can_start: true,
            refill_empty_hand: true,
            completed_to_stock: true,
            stock_rule: StockRule::TieOnRequiredDraw,
            side_rule: SideRule::Any,
            must_play_aces: false,
            first_player: None,
            max_turns: 100_000,
            win_bonus: 0,
        }
    }

    /// A pile's values.
    pub(super) fn values(pile: &[u16]) -> Vec<u8> {
        let v = card_values(&game_rules());
        pile.iter().map(|&c| v[usize::from(c)]).collect()
    }

    pub(super) fn view(g: &Game, s: usize, start: Option<Vec<u8>>) -> Table {
        let st = &g.0;
        Table {
            seat: s,
            hand: values(&st.hands()[s]),
            payoff_tops: st
                .payoffs()
                .iter()
                .map(|p| p.last().map_or(NO_CARD, |&c| values(&[c])[0]))
                .collect(),
            payoff_counts: st
                .payoffs()
                .iter()
                .map(|p| u32::try_from(p.len()).unwrap())
                .collect(),
            sides: st
                .sides()
                .iter()
                .map(|ss| ss.iter().map(|x| values(x)).collect())
                .collect(),
            center: st.center().iter().map(|x| values(x)).collect(),
            hand_sizes: st.hands().iter().map(Vec::len).collect(),
            stock_count: st.stock().len(),
            decks: 2,
            hand_size: 5,
            rules: rules(),
            turn: st.turn(),
            max_turns: 100_000,
            turn_start_center: start,
        }
    }

    /// A game of the rulebook dealt from `rng` (lean: no history).
    pub(super) fn new_game(rng: &mut CardRng) -> Game {
        Game(
            State::new(game_rules(), rng.next_u64(), false)
                .unwrap()
                .lean(),
        )
    }

    /// Reference values: every plan over `deals` deals (drawn by `deal`), utility after each
    /// of `horizons`.
    pub(super) fn reference(
        ctx: &Ctx<'_>,
        mut deal: impl FnMut(&mut CardRng) -> Game,
        plans: &[spite::Plan],
        deals: u32,
        horizons: &[usize],
        seed: u64,
    ) -> Vec<Vec<f64>> {
        let hmax = *horizons.iter().max().unwrap();
        let mut sums = vec![vec![0.0; plans.len()]; horizons.len()];
        let mut rng = CardRng::new(seed);
        for d in 0..deals {
            let dealt = deal(&mut rng);
            let roll_seed = cardcore_engine::rng::mix64(
                seed ^ u64::from(d).wrapping_mul(0x9e37_79b9_7f4a_7c15),
            );
            for (j, plan) in plans.iter().enumerate() {
                let mut g = dealt.clone();
                g.0.set_rng(CardRng::new(roll_seed));
                g.finish_turn(ctx, Some(&plan.steps));
                for t in 0..=hmax {
                    if let Some(k) = horizons.iter().position(|&h| h == t) {
                        sums[k][j] += g.utility(ctx);
                    }
                    if t < hmax && !g.0.over() {
                        g.finish_turn(ctx, None);
                    }
                }
            }
        }
        let n = f64::from(deals);
        sums.iter()
            .map(|r| r.iter().map(|x| x / n).collect())
            .collect()
    }

    #[test]
    #[ignore = "offline experiment"]
    fn frontier() {
        let games = env("SMX_GAMES", 4);
        let seed = env("SMX_SEED", 1);
        let ref_deals = u32::try_from(env("SMX_REF_DEALS", 512)).unwrap();
        let every = env("SMX_EVERY", 2);
        let horizons = [2usize, 4, 8];
        // (label, rollouts, candidates, horizon, margin)
        let settings: Vec<(String, u32, usize, usize, f64)> = std::env::var("SMX_SETTINGS")
            .unwrap_or_else(|_| "32/6/2/1,32/10/2/1,20/10/2/1,16/12/2/1,32/6/4/1,20/10/4/1,16/10/4/1,24/8/3/1,64/10/2/1,32/10/4/1,12/16/2/1".into())
            .split(',')
            .map(|s| {
                let f: Vec<&str> = s.split('/').collect();
                (
                    format!("r{} k{} h{} m{}", f[0], f[1], f[2], f[3]),
                    f[0].parse().unwrap(),
                    f[1].parse().unwrap(),
                    f[2].parse().unwrap(),
                    f[3].parse().unwrap(),
                )
            })
            .collect();
        let kmax = settings.iter().map(|s| s.2).max().unwrap();
        let base = default_params();
        // gains[setting][horizon]: sum and sum of squares; time per setting; overrides.
        let ns = settings.len();
        let mut gain = vec![vec![(0.0f64, 0.0f64); horizons.len()]; ns];
        let mut secs = vec![0.0f64; ns];
        let mut moved = vec![0u32; ns];
        let mut best_gain = vec![(0.0f64, 0.0f64); horizons.len()];
        let mut diff = vec![vec![(0.0f64, 0.0f64); horizons.len()]; ns];
        let mut n = 0u32;
        let mut rng = CardRng::new(seed);
        let dummy = view(&new_game(&mut CardRng::new(0)), 0, None);
        let card_values = card_values(&game_rules());
        for gi in 0..games {
            let mut g = new_game(&mut rng);
            let mut turn = 0u64;
            while !g.0.over() && g.0.turn() < 400 {
                if g.0.current() == 0 && turn % every == 0 {
                    let t = view(&g, 0, None);
                    let inp = t.plan_input().unwrap();
                    let plans = spite::plan_top(&inp, &base.weights, base.node_limit, kmax);
                    if plans.len() > 1 {
                        let unseen = t.unseen().unwrap();
                        let book = Rulebook::new(&t, &unseen).unwrap();
                        let ctx = Ctx {
                            table: &t,
                            params: &base,
                            values: &card_values,
                        };
                        let vals = reference(
                            &ctx,
                            |rng| book.game(&t.deal(&unseen, rng)),
                            &plans,
                            ref_deals,
                            &horizons,
                            rng.next_u64(),
                        );
                        for (hi, v) in vals.iter().enumerate() {
                            let b = v.iter().copied().fold(f64::MIN, f64::max) - v[0];
                            best_gain[hi].0 += b;
                            best_gain[hi].1 += b * b;
                        }
                        let sel_seed = rng.next_u64();
                        let mut first = Vec::new();
                        for (si, (_, r, k, h, m)) in settings.iter().enumerate() {
                            let params = ExpertParams {
                                rollouts: *r,
                                candidates: *k,
                                horizon: *h,
                                margin: *m,
                                ..base
                            };
                            let k = (*k).min(plans.len());
                            let start = Instant::now();
                            let tally = search(&t, &params, &book, &plans[..k], &unseen, sel_seed);
                            let c = tally.choice(*m);
                            secs[si] += start.elapsed().as_secs_f64();
                            moved[si] += u32::from(c != 0);
                            for (hi, v) in vals.iter().enumerate() {
                                let d = v[c] - v[0];
                                gain[si][hi].0 += d;
                                gain[si][hi].1 += d * d;
                                if si == 0 {
                                    first.push(d);
                                }
                                let e = d - first[hi];
                                diff[si][hi].0 += e;
                                diff[si][hi].1 += e * e;
                            }
                        }
                        n += 1;
                    }
                }
                if g.0.current() == 0 {
                    turn += 1;
                }
                let ctx = Ctx {
                    table: &dummy,
                    params: &base,
                    values: &card_values,
                };
                g.finish_turn(&ctx, None);
            }
            eprintln!("game {gi}: {n} decisions so far");
        }
        let nf = f64::from(n);
        let ci = |(s, q): (f64, f64)| {
            let m = s / nf;
            let se = ((q / nf - m * m).max(0.0) / nf).sqrt();
            format!("{m:+.4} ({:+.4} to {:+.4})", m - 1.96 * se, m + 1.96 * se)
        };
        eprintln!("decisions {n}, reference {ref_deals} deals, horizons {horizons:?}");
        let bests: Vec<String> = best_gain.iter().map(|&x| ci(x)).collect();
        eprintln!("oracle best-of-{kmax}: {}", bests.join(" | "));
        for (si, s) in settings.iter().enumerate() {
            let gs: Vec<String> = gain[si].iter().map(|&x| ci(x)).collect();
            let ds: Vec<String> = diff[si].iter().map(|&x| ci(x)).collect();
            eprintln!(
                "{:<18} cost {:.2}x moved {:.1}% gain h2/h4/h8: {}\n{:<18} minus first: {}",
                s.0,
                secs[si] / secs[0],
                100.0 * f64::from(moved[si]) / nf,
                gs.join(" | "),
                "",
                ds.join(" | ")
            );
        }
    }
}

/// Offline screen of the deal's model against the true hidden cards (issue 18): seat 0's turn
/// starts in 2-player planner self-play (`SMX_GAMES` games from `SMX_SEED`). At each position
/// the planner's best `candidates` plans are valued over `SMX_REF_DEALS` deals that keep the
/// TRUE hands (the opponent's included) and shuffle only what nobody has seen (the stock and
/// the pay-off cards under the tops), played on with the planner and scored after 2, 4 and 8
/// turns. This reference does not use the searched model. The default search with the uniform
/// deal (`old`) and with the deal kept to the opponent's last turn (`new`,
/// [`Table::turn_start_center`]) then choose with the same seed; printed: each one's gain over
/// the planner's plan against the reference, new minus old, 95% intervals, CPU ratio, and how
/// often the opponent's true hand broke the filter (should be never). Run with
/// `SMX_GAMES=8 SMX_SEED=1 cargo test --release -p cardcore-research --test spite_expert reveal_screen --
/// --ignored --nocapture`.
mod reveal_screen {
    use super::frontier::{
        default_params, env, game_rules, new_game, reference, rules, values, view,
    };
    use super::*;
    use std::time::Instant;

    /// The true game with the cards nobody has seen (stock, pay-off cards under the tops)
    /// shuffled.
    fn true_deal(g: &Game, rng: &mut CardRng) -> Game {
        let mut d = g.clone();
        let st = &g.0;
        let mut pool = st.stock().to_vec();
        let mut sizes = Vec::new();
        for p in st.payoffs() {
            let n = p.len().saturating_sub(1);
            sizes.push(n);
            pool.extend(&p[..n]);
        }
        shuffle(rng, &mut pool);
        let mut payoffs = Vec::new();
        for (p, n) in st.payoffs().iter().zip(sizes) {
            let at = pool.len() - n;
            let mut under = pool.split_off(at);
            under.extend(&p[n..]);
            payoffs.push(under);
        }
        d.0.redeal(st.hands().to_vec(), payoffs, pool).unwrap();
        d
    }

    #[test]
    #[ignore = "offline experiment"]
    fn reveal_screen() {
        let games = env("SMX_GAMES", 8);
        let seed = env("SMX_SEED", 1);
        let ref_deals = u32::try_from(env("SMX_REF_DEALS", 256)).unwrap();
        let horizons = [2usize, 4, 8];
        let base = default_params();
        let acc = |v: &mut (f64, f64), x: f64| {
            v.0 += x;
            v.1 += x * x;
        };
        let mut gain = [[(0.0f64, 0.0f64); 3]; 2];
        let mut diff = [(0.0f64, 0.0f64); 3];
        let mut secs = [0.0f64; 2];
        let (mut n, mut differ, mut broken, mut filtered) = (0u32, 0u32, 0u32, 0u32);
        let mut rng = CardRng::new(seed);
        let card_values = card_values(&game_rules());
        for gi in 0..games {
            let mut g = new_game(&mut rng);
            let mut opp_played = false;
            while !g.0.over() && g.0.turn() < 400 {
                if g.0.current() == 0 {
                    let ranks: Vec<u8> =
                        g.0.center()
                            .iter()
                            .map(|c| u8::try_from(c.len()).unwrap())
                            .collect();
                    let start = opp_played.then(|| ranks.clone());
                    let t_new = view(&g, 0, start);
                    let t_old = view(&g, 0, None);
                    if t_new.previous_hand().is_some() {
                        filtered += 1;
                        let sides: Vec<Vec<u8>> =
                            g.0.sides()[1].iter().map(|x| values(x)).collect();
                        if reaches_payoff(
                            &values(&g.0.hands()[1]),
                            &sides,
                            &ranks,
                            t_new.payoff_tops[1],
                            rules(),
                        ) {
                            broken += 1;
                        }
                    }
                    let inp = t_old.plan_input().unwrap();
                    let plans =
                        spite::plan_top(&inp, &base.weights, base.node_limit, base.candidates);
                    if plans.len() > 1 {
                        let ctx = Ctx {
                            table: &t_old,
                            params: &base,
                            values: &card_values,
                        };
                        let vals = reference(
                            &ctx,
                            |rng| true_deal(&g, rng),
                            &plans,
                            ref_deals,
                            &horizons,
                            rng.next_u64(),
                        );
                        let unseen = t_old.unseen().unwrap();
                        let sel_seed = rng.next_u64();
                        let mut choice = [0usize; 2];
                        for (k, t) in [&t_old, &t_new].into_iter().enumerate() {
                            let start = Instant::now();
                            let book = Rulebook::new(t, &unseen).unwrap();
                            let tally = search(t, &base, &book, &plans, &unseen, sel_seed);
                            choice[k] = tally.choice(base.margin);
                            secs[k] += start.elapsed().as_secs_f64();
                        }
                        differ += u32::from(choice[0] != choice[1]);
                        for (hi, v) in vals.iter().enumerate() {
                            let d0 = v[choice[0]] - v[0];
                            let d1 = v[choice[1]] - v[0];
                            acc(&mut gain[0][hi], d0);
                            acc(&mut gain[1][hi], d1);
                            acc(&mut diff[hi], d1 - d0);
                        }
                        n += 1;
                    }
                }
                let dummy = view(&g, 0, None);
                let ctx = Ctx {
                    table: &dummy,
                    params: &base,
                    values: &card_values,
                };
                let mover = g.0.current();
                g.finish_turn(&ctx, None);
                if mover == 1 {
                    opp_played = true;
                }
            }
            eprintln!("game {gi}: {n} decisions, {differ} differ so far");
        }
        let nf = f64::from(n);
        let ci = |(s, q): (f64, f64)| {
            let m = s / nf;
            let se = ((q / nf - m * m).max(0.0) / nf).sqrt();
            format!("{m:+.4} ({:+.4} to {:+.4})", m - 1.96 * se, m + 1.96 * se)
        };
        eprintln!(
            "decisions {n}, choices differ {differ}, filtered positions {filtered}, true hand broke the filter {broken}; reference {ref_deals} true deals"
        );
        for (k, name) in ["old", "new"].iter().enumerate() {
            let gs: Vec<String> = gain[k].iter().map(|&x| ci(x)).collect();
            eprintln!(
                "{name}: cost {:.2}x gain h2/h4/h8: {}",
                secs[k] / secs[0],
                gs.join(" | ")
            );
        }
        let ds: Vec<String> = diff.iter().map(|&x| ci(x)).collect();
        eprintln!("new minus old h2/h4/h8: {}", ds.join(" | "));
    }
}
