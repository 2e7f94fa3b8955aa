//! Paired comparison of candidate moves over shared random deals: the selection rule of the
//! `expert` agents' determinized searches.
//!
//! Each deal plays every candidate (common random numbers: the same hidden cards and the same
//! rollout seed), so the differences between candidates are much tighter than the values. The
//! first candidate is the default; another replaces it only when its mean is ahead by more
//! than `margin` standard errors of the paired difference.

use std::time::{Duration, Instant};

use crate::rng::{CardRng, mix64};

/// Sums of the candidates' values and of their squared differences to the default.
#[derive(Clone, Debug, PartialEq)]
pub struct PairedTally {
    sums: Vec<f64>,
    diff_sq: Vec<f64>,
    deals: u32,
}

impl PairedTally {
    /// Plays deals until the budget is spent: `rollouts` deals or, with `time_limit`, as many
    /// as fit in that time (at least one; not reproducible). `play(rng, roll_seed, values)`
    /// deals the hidden cards with `rng` and writes each candidate's value into `values`,
    /// seeding every candidate's rollout with `roll_seed`. Every random choice comes from
    /// `seed`.
    pub fn run(
        candidates: usize,
        rollouts: u32,
        time_limit: Option<Duration>,
        seed: u64,
        mut play: impl FnMut(&mut CardRng, u64, &mut [f64]),
    ) -> Self {
        let mut tally = Self {
            sums: vec![0.0; candidates],
            diff_sq: vec![0.0; candidates],
            deals: 0,
        };
        let start = Instant::now();
        let mut rng = CardRng::new(seed);
        let mut values = vec![0.0f64; candidates];
        loop {
            let done = match time_limit {
                Some(t) => tally.deals > 0 && start.elapsed() >= t,
                None => tally.deals >= rollouts,
            };
            if done {
                break;
            }
            let roll_seed =
                mix64(seed ^ u64::from(tally.deals).wrapping_mul(0x9e37_79b9_7f4a_7c15));
            values.fill(0.0);
            play(&mut rng, roll_seed, &mut values);
            tally.add(&values);
        }
        tally
    }

    /// Adds one deal's values (the default first).
    fn add(&mut self, values: &[f64]) {
        for (j, &v) in values.iter().enumerate() {
            self.sums[j] += v;
            let d = v - values[0];
            self.diff_sq[j] += d * d;
        }
        self.deals += 1;
    }

    /// Deals played.
    #[must_use]
    pub fn deals(&self) -> u32 {
        self.deals
    }

    /// Each candidate's mean value.
    #[must_use]
    pub fn means(&self) -> Vec<f64> {
        let n = f64::from(self.deals.max(1));
        self.sums.iter().map(|s| s / n).collect()
    }

    /// The chosen candidate: the one with the best mean among those ahead of the default by
    /// more than `margin` standard errors of the paired difference, else the default (0).
    #[must_use]
    pub fn choice(&self, margin: f64) -> usize {
        let n = f64::from(self.deals);
        let mut choice = 0;
        let mut best_edge = 0.0f64;
        for j in 1..self.sums.len() {
            let mean = (self.sums[j] - self.sums[0]) / n;
            let var = (self.diff_sq[j] / n - mean * mean).max(0.0);
            let se = (var / n).sqrt();
            if mean > 0.0 && mean - margin * se > 0.0 && mean > best_edge {
                best_edge = mean;
                choice = j;
            }
        }
        choice
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn below(rng: &mut CardRng, n: u64) -> f64 {
        rng.below(n) as f64
    }

    #[test]
    fn a_clear_edge_replaces_the_default_and_noise_does_not() {
        // Candidate 1 is always 1 better; candidate 2 is noise around the default.
        let t = PairedTally::run(3, 50, None, 7, |rng, _, v| {
            let x = below(rng, 100);
            let noise = below(rng, 3) - 1.0;
            v.copy_from_slice(&[x, x + 1.0, x + noise]);
        });
        assert_eq!(t.deals(), 50);
        assert_eq!(t.choice(3.0), 1);
        let t = PairedTally::run(2, 50, None, 7, |rng, _, v| {
            let x = below(rng, 100);
            v.copy_from_slice(&[x, x + below(rng, 3) - 1.0]);
        });
        assert_eq!(t.choice(3.0), 0);
    }

    #[test]
    fn a_time_budget_plays_at_least_one_deal() {
        let t = PairedTally::run(2, 0, Some(Duration::ZERO), 1, |_, _, v| v.fill(1.0));
        assert_eq!(t.deals(), 1);
        assert_eq!(t.choice(0.0), 0);
    }
}
