//! Playing Three-Thirteen for the game, not the round: the `expert` search `win`.
//!
//! The game is won by the lowest total after 11 rounds (alone), so what a discard is worth
//! depends on the standings: a seat far behind gains only by a round that swings far, a seat
//! ahead by a quiet one, and a seat level with three others must beat the least of them. The
//! `win` search values each of `hard`'s discard options (the `value` search's candidates, before
//! anyone has gone out) by an estimate of the chance that the seat wins the game after it
//! ([`win_chance`]), a normal approximation of the final totals:
//!
//! * the seat's final total is its total now, plus this round's margin over the others' mean
//!   (`C`: mean from the fitted values, the level of the value's pick from a fit of the margin
//!   on the position's features ([`weights::LEVEL`]) and the options' differences from the
//!   `value` search's fit; variance likewise: a fit of the squared residuals on the same
//!   features at the pick, [`weights::SPREAD`], plus the options' differences from a fit of
//!   the change of the squared residual between two options of a decision, on the same cards,
//!   [`weights::SPREAD_CHANGE`]), plus the rounds still to come;
//! * an opponent `j`'s final total is its total now, plus the others' mean round score this
//!   round, plus its own deviation from that mean ([`weights::DEVIATION`]), plus the rounds to
//!   come;
//! * the rounds to come add, per seat, the variance of a seat's round score for each round size
//!   left ([`weights::ROUND`]), independently, with mean 0 for every seat.
//!
//! So the seat wins when `a_j + C - e_j < 0` for every opponent, with `a_j` the seat's total
//! minus `j`'s, `C ~ N(m, v + F)` shared (this round's margin and the seat's future rounds) and
//! `e_j ~ N(0, d + F)` independent (an opponent's own deviation and future rounds): one integral
//! over `C` of a product of normal distribution functions, computed by Simpson's rule. The
//! option with the highest chance is played (the value's pick unless another is higher). Draws,
//! final turns and tables without standings play as `valuedraw`. No deals: deterministic.
//!
//! The tables are fitted by `research/scripts/tt-win-fit` on `hard` self-play.

use crate::three_thirteen_expert::{Decision, ExpertError, ExpertParams, Table};
use crate::three_thirteen_value::{self as value, FEATURES, ROUND_SIZES, dot};

pub mod weights;

/// The match standings the `win` search plays for.
#[derive(Clone, Debug, PartialEq)]
pub struct Standings {
    /// Every seat's total of the rounds played before this one (penalty points, lower wins).
    pub totals: Vec<f64>,
    /// Rounds still to play after this one (0 in the last round). The rounds of a game grow by
    /// one card each, so they are taken as the round sizes after this round's, up to 13.
    pub rounds_after: u32,
}

/// The standard normal distribution function (relative error below 1.2e-7: the Chebyshev-fitted
/// complementary error function of Numerical Recipes, `erfcc`).
#[must_use]
pub fn normal_cdf(x: f64) -> f64 {
    let z = (x / std::f64::consts::SQRT_2).abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let erfc = t * poly.exp();
    if x >= 0.0 {
        1.0 - 0.5 * erfc
    } else {
        0.5 * erfc
    }
}

/// Simpson intervals of [`win_chance`]'s integral (an even number), over 8 standard deviations
/// either side of the mean.
const STEPS: usize = 96;
const WIDTH: f64 = 8.0;

/// The chance that `a_j + C - e_j < 0` for every `a_j` in `behind`, with `C ~ N(mean,
/// shared_var)` and the `e_j ~ N(0, own_var)` independent of each other and of `C`: the
/// seat's chance of the lowest total alone when `behind` holds its total minus each
/// opponent's (see the module docs). A variance of 0 is a point mass.
#[must_use]
pub fn win_chance(behind: &[f64], mean: f64, shared_var: f64, own_var: f64) -> f64 {
    let sd_e = own_var.max(0.0).sqrt();
    let given = |c: f64| -> f64 {
        behind
            .iter()
            .map(|&a| {
                let d = -(a + c);
                if sd_e > 0.0 {
                    normal_cdf(d / sd_e)
                } else {
                    f64::from(u8::from(d > 0.0))
                }
            })
            .product()
    };
    let sd_c = shared_var.max(0.0).sqrt();
    if sd_c == 0.0 {
        return given(mean);
    }
    let h = 2.0 * WIDTH / STEPS as f64;
    let mut sum = 0.0;
    for k in 0..=STEPS {
        let z = -WIDTH + h * k as f64;
        let w = if k == 0 || k == STEPS {
            1.0
        } else if k % 2 == 1 {
            4.0
        } else {
            2.0
        };
        sum += w * (-0.5 * z * z).exp() * given(mean + sd_c * z);
    }
    sum * h / 3.0 / (2.0 * std::f64::consts::PI).sqrt()
}

/// The variance the rounds after a round of `hand_len` cards add to one seat's total: the
/// round sizes after it, `rounds_after` of them (capped at 13 cards).
#[must_use]
pub fn future_variance(hand_len: usize, rounds_after: u32) -> f64 {
    (1..=rounds_after as usize)
        .map(|k| weights::ROUND[(hand_len + k).clamp(3, 13) - 3])
        .sum()
}

/// The least variance of a round's margin [`decide`] assumes (a fitted spread below it is
/// extrapolation).
pub const MIN_VARIANCE: f64 = 1.0;

/// The `win` search's move at `table` (see the module docs): with `standings` and before anyone
/// has gone out, among `hard`'s discard options the one with the highest [`win_chance`]; else
/// the `valuedraw` search's move.
///
/// # Errors
/// [`ExpertError`] for a table that is not a possible position, or standings that do not have
/// one finite total per seat.
pub fn decide(
    table: &Table,
    standings: Option<&Standings>,
    params: &ExpertParams,
) -> Result<Decision, ExpertError> {
    if let Some(s) = standings {
        if s.totals.len() != table.hand_sizes.len() || !s.totals.iter().all(|t| t.is_finite()) {
            return Err(ExpertError::Table(format!(
                "standings: one finite total per seat ({} seats), got {:?}",
                table.hand_sizes.len(),
                s.totals
            )));
        }
    }
    table.check()?;
    let Some(standings) = standings.filter(|_| table.discard_phase && table.out_seat.is_none())
    else {
        return value::decide(table, params);
    };
    table.unseen()?; // the sizes add up
    let picked = value::table_discards(table, params)?;
    if picked.options.len() == 1 {
        return Ok(Decision {
            choice: picked.options[picked.default].index,
            deals: 0,
            candidates: 1,
        });
    }
    let size = (table.hand.len() - 1).clamp(3, 13) - 3;
    let pick = picked.pick;
    let level = dot(&picked.x[pick], &weights::LEVEL[size]) - picked.values[pick];
    let future = future_variance(table.hand.len() - 1, standings.rounds_after);
    let own = standings.totals[table.seat];
    let behind: Vec<f64> = (0..standings.totals.len())
        .filter(|&j| j != table.seat)
        .map(|j| own - standings.totals[j])
        .collect();
    let deviation = weights::DEVIATION[size] + future;
    let x0 = &picked.x[pick];
    let spread0 = dot(x0, &weights::SPREAD[size]);
    let chance = |j: usize| {
        let dx: [f64; FEATURES] = std::array::from_fn(|i| picked.x[j][i] - x0[i]);
        let spread = (spread0 + dot(&dx, &weights::SPREAD_CHANGE[size])).max(MIN_VARIANCE);
        win_chance(
            &behind,
            level + picked.values[j],
            spread + future,
            deviation,
        )
    };
    let mut best = (chance(pick), pick);
    for j in 0..picked.options.len() {
        let c = chance(j);
        if c > best.0 {
            best = (c, j);
        }
    }
    Ok(Decision {
        choice: picked.options[best.1].index,
        deals: 0,
        candidates: picked.options.len(),
    })
}

/// [`ROUND_SIZES`] checked against the tables.
const _: () = assert!(weights::ROUND.len() == ROUND_SIZES);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::CardRng;

    #[test]
    fn normal_cdf_matches_known_values() {
        for (x, p) in [
            (0.0, 0.5),
            (1.0, 0.841_344_746_068_543),
            (-1.959_963_984_540_054, 0.025),
            (3.0, 0.998_650_101_968_37),
            (-5.0, 2.866_515_718_791_939e-7),
        ] {
            let got = normal_cdf(x);
            assert!((got - p).abs() <= 2e-7 * p.max(1e-3), "{x}: {got} vs {p}");
        }
    }

    /// One opponent: `a + C - e` is normal, the chance is closed form.
    #[test]
    fn win_chance_is_closed_form_with_one_opponent() {
        for (a, m, v, d) in [
            (0.0, 0.0, 100.0, 100.0),
            (12.0, -3.0, 64.0, 400.0),
            (-30.0, 2.0, 1.0, 9.0),
            (5.0, 1.0, 0.0, 25.0),
        ] {
            let exact = normal_cdf(-(a + m) / f64::sqrt(v + d));
            let got = win_chance(&[a], m, v, d);
            assert!(
                (got - exact).abs() < 1e-6,
                "{a} {m} {v} {d}: {got} vs {exact}"
            );
        }
    }

    /// Four seats alike (level totals, the shared and own parts of the same variance): each
    /// seat wins a quarter of the time; more lead wins more.
    #[test]
    fn win_chance_is_a_quarter_among_equals_and_grows_with_the_lead() {
        let p = win_chance(&[0.0; 3], 0.0, 225.0, 225.0);
        assert!((p - 0.25).abs() < 1e-6, "{p}");
        let mut last = 0.0;
        for lead in [-40.0, -10.0, 0.0, 10.0, 40.0] {
            let q = win_chance(&[-lead; 3], 0.0, 225.0, 225.0);
            assert!(q > last, "{lead}: {q}");
            last = q;
        }
        // behind, more variance of the own round helps; ahead, it hurts
        let behind = [20.0, 25.0, 30.0];
        assert!(win_chance(&behind, 0.0, 200.0, 100.0) > win_chance(&behind, 0.0, 100.0, 100.0));
        let ahead = [-20.0, -25.0, -30.0];
        assert!(win_chance(&ahead, 0.0, 200.0, 100.0) < win_chance(&ahead, 0.0, 100.0, 100.0));
    }

    /// Brute force: the same model sampled (Box-Muller normals from a fixed seed).
    #[test]
    fn win_chance_agrees_with_sampling() {
        let mut rng = CardRng::new(7);
        let mut normal = || {
            let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            let v = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            (-2.0 * (1.0 - u).ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
        };
        let n = 200_000;
        for (behind, m, v, d) in [
            (vec![5.0, -8.0, 14.0], 1.5, 90.0_f64, 160.0_f64),
            (vec![-25.0, -3.0, 0.0], -2.0, 300.0, 60.0),
            (vec![40.0, 35.0], 0.0, 500.0, 500.0),
        ] {
            let mut wins = 0u32;
            for _ in 0..n {
                let c = m + v.sqrt() * normal();
                if behind.iter().all(|a| a + c - d.sqrt() * normal() < 0.0) {
                    wins += 1;
                }
            }
            let sampled = f64::from(wins) / f64::from(n);
            let got = win_chance(&behind, m, v, d);
            // 4 standard errors of the sampled share
            let tol = 4.0 * (sampled * (1.0 - sampled) / f64::from(n)).sqrt() + 1e-4;
            assert!(
                (got - sampled).abs() < tol,
                "{behind:?}: {got} vs {sampled}"
            );
        }
    }

    #[test]
    fn the_win_search_picks_one_of_hards_discards_and_plays_valuedraw_otherwise() {
        use crate::three_thirteen_expert::Search;
        use crate::three_thirteen_hard as hard;
        let t = crate::three_thirteen_value::tests::table();
        let params = ExpertParams {
            search: Search::Win,
            ..ExpertParams::default()
        };
        let valuedraw = ExpertParams::default();
        let seen = t.seen();
        let options =
            hard::discard_options(&t.view(&seen), None, &t.taken[1], &params.hard).unwrap();
        assert!(options.len() > 1, "{options:?}");
        let plain = value::decide(&t, &valuedraw).unwrap();
        assert_eq!(decide(&t, None, &params).unwrap(), plain);
        for (totals, rounds_after) in [
            (vec![0.0; 4], 6),
            (vec![90.0, 20.0, 30.0, 40.0], 0),
            (vec![10.0, 60.0, 70.0, 80.0], 0),
            (vec![40.0, 41.0, 39.0, 40.0], 1),
        ] {
            let s = Standings {
                totals,
                rounds_after,
            };
            let d = decide(&t, Some(&s), &params).unwrap();
            assert!(options.iter().any(|o| o.index == d.choice), "{d:?}");
            assert_eq!((d.deals, d.candidates), (0, options.len()));
            assert_eq!(d, decide(&t, Some(&s), &params).unwrap());
            // the draw, and a final turn, are valuedraw's
            let mut draw = t.clone();
            draw.hand.pop();
            draw.hand_sizes[0] = 7;
            draw.stock_size += 1;
            draw.discard_phase = false;
            assert_eq!(
                decide(&draw, Some(&s), &params).unwrap(),
                value::decide(&draw, &valuedraw).unwrap()
            );
            let mut last = t.clone();
            last.out_seat = Some(2);
            assert_eq!(
                decide(&last, Some(&s), &params).unwrap(),
                value::decide(&last, &valuedraw).unwrap()
            );
        }
        // standings must have one finite total per seat
        for totals in [vec![0.0; 3], vec![0.0, f64::NAN, 0.0, 0.0]] {
            let s = Standings {
                totals,
                rounds_after: 0,
            };
            assert!(matches!(
                decide(&t, Some(&s), &params),
                Err(ExpertError::Table(_))
            ));
        }
    }

    #[test]
    fn tables_are_finite_and_the_future_adds_up() {
        assert!(weights::ROUND.iter().all(|v| v.is_finite() && *v > 0.0));
        assert!(weights::DEVIATION.iter().all(|v| v.is_finite() && *v > 0.0));
        assert!(
            weights::LEVEL
                .iter()
                .chain(&weights::SPREAD)
                .chain(&weights::SPREAD_CHANGE)
                .flatten()
                .all(|w| w.is_finite())
        );
        assert_eq!(future_variance(13, 0), 0.0);
        assert_eq!(future_variance(12, 1), weights::ROUND[10]);
        let all: f64 = weights::ROUND.iter().skip(1).sum();
        assert!((future_variance(3, 10) - all).abs() < 1e-9);
    }
}
