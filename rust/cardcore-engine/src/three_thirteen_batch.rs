//! Many Three-Thirteen games stepped together, for `cardcore.rl.VectorEnv`, and one game
//! stepped on its own ([`Episode`], the fast path of the PettingZoo AEC environment).
//!
//! Both play the one rulebook, [`crate::games::three_thirteen::State`]. Game `i`'s `k`-th deal
//! is seeded `derive_seed(derive_seed(seed, i, "rl-vector"), k, "rl-episode")`, as in the
//! Python `VectorEnv`; a game that ends is dealt again at once, or (a batch made with
//! [`Batch::hold_ended`]) held over until the next step, which deals it again and ignores its
//! action (gymnasium's next-step autoreset).

use crate::games::State as _;
use crate::games::three_thirteen::State as Game;
pub use crate::games::three_thirteen::{DISCARD, DRAW_DISCARD, DRAW_STOCK, FACES, Rules};
use crate::rng::derive_seed;

/// An action that is not legal in the game it was given to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IllegalAction {
    /// The game (row of the batch).
    pub game: usize,
    /// The action id.
    pub action: i64,
}

/// A new game of `rules` dealt from `seed` (the rules were checked when the batch was made).
fn new_game(rules: &Rules, seed: u64) -> Game {
    Game::new(*rules, seed, Vec::new()).expect("rules checked")
}

/// `returns()` as floats into `out`.
fn write_returns(game: &Game, out: &mut [f32]) {
    for (o, r) in out.iter_mut().zip(game.returns()) {
        *o = r as f32;
    }
}

/// `points()`: the penalty totals so far.
fn write_points(game: &Game, out: &mut [f32]) {
    for (o, &t) in out.iter_mut().zip(game.totals()) {
        *o = t as f32;
    }
}

/// One game on its own: a deal of the rulebook, stepped one action at a time and observed
/// from any seat (`new_state(seed)` of the protocol, as the PettingZoo AEC environment plays
/// it).
#[derive(Clone, Debug)]
pub struct Episode {
    game: Game,
}

impl Episode {
    /// The game dealt from `seed`.
    #[must_use]
    pub fn new(rules: Rules, seed: u64) -> Self {
        Self {
            game: new_game(&rules, seed),
        }
    }

    /// The rules of the game.
    #[must_use]
    pub fn rules(&self) -> &Rules {
        self.game.rules()
    }

    /// The seat to play; `None` once the game is over.
    #[must_use]
    pub fn current(&self) -> Option<usize> {
        self.game.current_player()
    }

    /// Plays `action` for the seat to play.
    ///
    /// # Errors
    /// `action` is not legal now (nothing changes).
    pub fn apply(&mut self, action: i64) -> Result<(), IllegalAction> {
        self.game
            .apply_action(action)
            .map_err(|_| IllegalAction { game: 0, action })
    }

    /// Writes `seat`'s tensor into `obs` (`observation_size` floats) and its legal actions
    /// into `mask` (`num_actions` bytes; all 0 unless `seat` is to play).
    pub fn observe(&self, seat: usize, obs: &mut [f32], mask: &mut [u8]) {
        self.game.write_observation(seat, obs);
        if self.current() == Some(seat) {
            self.game.write_mask(mask);
        } else {
            mask.fill(0);
        }
    }

    /// Writes `returns()` into `out` (`players` floats; all 0 before the end).
    pub fn write_returns(&self, out: &mut [f32]) {
        write_returns(&self.game, out);
    }
}

/// The outputs of one call, row `i` for game `i` (flat, row-major).
#[derive(Clone, Debug, Default)]
pub struct Outputs {
    /// `n * observation_size` tensors of the seat to play.
    pub observation: Vec<f32>,
    /// `n * num_actions` legal-action bytes (0/1).
    pub mask: Vec<u8>,
    /// `n` seats to play.
    pub player: Vec<i64>,
    /// `n * players` returns of games that ended in this step (else 0).
    pub reward: Vec<f32>,
    /// `n` bytes: 1 where a game ended in this step (and was dealt again, unless held).
    pub done: Vec<u8>,
    /// `n * players` penalty totals (`points()`; of the game that ended, where one did).
    pub points: Vec<f32>,
}

/// `n` games stepped together.
#[derive(Clone, Debug)]
pub struct Batch {
    rules: Rules,
    seeds: Vec<u64>,
    episodes: Vec<u64>,
    games: Vec<Game>,
    hold: bool,
}

impl Batch {
    /// `n` games; call [`Batch::reset`] before stepping.
    #[must_use]
    pub fn new(rules: Rules, seed: u64, n: usize) -> Self {
        let seeds: Vec<u64> = (0..n as u64)
            .map(|i| derive_seed(seed, i, "rl-vector"))
            .collect();
        let games = seeds.iter().map(|&s| new_game(&rules, s)).collect();
        Self {
            rules,
            seeds,
            episodes: vec![1; n],
            games,
            hold: false,
        }
    }

    /// This batch with games that end held over (next-step autoreset): the step that ends a
    /// game writes its returns and the final tensor of the seat that moved (mask all 0, that
    /// seat in `player`); the next step deals it again, ignoring its action.
    #[must_use]
    pub fn hold_ended(mut self) -> Self {
        self.hold = true;
        self
    }

    /// Deals again the games `i` where `rows[i]` is not 0 and rewrites their rows of `out`
    /// (tensor, mask, seat, points; `reward` and `done` are left as they are), leaving the other
    /// rows of `out` as the last call wrote them.
    pub fn redeal(&mut self, rows: &[u8], out: &mut Outputs) {
        let (d, a, p) = (
            self.rules.observation_size(),
            self.rules.num_actions(),
            self.rules.players,
        );
        let n = self.games.len();
        for i in 0..n {
            if rows.get(i).copied().unwrap_or(0) == 0 {
                continue;
            }
            let seed = self.episode_seed(i);
            self.episodes[i] += 1;
            let game = &mut self.games[i];
            *game = new_game(&self.rules, seed);
            if out.player.len() == n {
                write_points(game, &mut out.points[i * p..(i + 1) * p]);
                game.write_observation(game.current(), &mut out.observation[i * d..(i + 1) * d]);
                game.write_mask(&mut out.mask[i * a..(i + 1) * a]);
                out.player[i] = game.current() as i64;
            }
        }
    }

    /// The rules of the games.
    #[must_use]
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The games.
    #[must_use]
    pub fn games(&self) -> &[Game] {
        &self.games
    }

    fn episode_seed(&self, i: usize) -> u64 {
        derive_seed(self.seeds[i], self.episodes[i], "rl-episode")
    }

    /// Deals every game anew (episode counters restart) into `out`, using `threads` threads.
    pub fn reset(&mut self, out: &mut Outputs, threads: usize) {
        for i in 0..self.games.len() {
            self.episodes[i] = 0;
            self.games[i] = new_game(&self.rules, self.episode_seed(i));
            self.episodes[i] = 1;
        }
        self.run(&[], out, threads);
    }

    /// Plays `actions[i]` in game `i`; with an illegal action nothing changes.
    ///
    /// # Errors
    /// The first illegal action.
    pub fn step(
        &mut self,
        actions: &[i64],
        out: &mut Outputs,
        threads: usize,
    ) -> Result<(), IllegalAction> {
        for (i, (g, &a)) in self.games.iter().zip(actions).enumerate() {
            if !g.is_over() && !g.is_legal_action(a) {
                return Err(IllegalAction { game: i, action: a });
            }
        }
        self.run(actions, out, threads);
        Ok(())
    }

    /// Applies `actions` (none: only observe) and writes the outputs, in `threads` chunks.
    fn run(&mut self, actions: &[i64], out: &mut Outputs, threads: usize) {
        let n = self.games.len();
        let (d, a, p) = (
            self.rules.observation_size(),
            self.rules.num_actions(),
            self.rules.players,
        );
        out.observation.resize(n * d, 0.0);
        out.mask.resize(n * a, 0);
        out.player.resize(n, 0);
        out.reward.resize(n * p, 0.0);
        out.done.resize(n, 0);
        out.points.resize(n * p, 0.0);
        let chunk = n.div_ceil(threads.max(1)).max(1);
        let rules = &self.rules;
        let hold = self.hold;
        let jobs = self
            .games
            .chunks_mut(chunk)
            .zip(self.seeds.chunks(chunk))
            .zip(self.episodes.chunks_mut(chunk))
            .zip(out.observation.chunks_mut(chunk * d))
            .zip(out.mask.chunks_mut(chunk * a))
            .zip(out.player.chunks_mut(chunk))
            .zip(out.reward.chunks_mut(chunk * p))
            .zip(out.done.chunks_mut(chunk))
            .zip(out.points.chunks_mut(chunk * p))
            .enumerate()
            .map(
                |(
                    j,
                    ((((((((games, seeds), episodes), obs), mask), player), reward), done), points),
                )| {
                    let acts = if actions.is_empty() {
                        &[][..]
                    } else {
                        &actions[j * chunk..j * chunk + games.len()]
                    };
                    Chunk {
                        games,
                        seeds,
                        episodes,
                        obs,
                        mask,
                        player,
                        reward,
                        done,
                        points,
                        actions: acts,
                        hold,
                    }
                },
            );
        if threads <= 1 || n < 2 * threads {
            for job in jobs {
                job.run(rules);
            }
        } else {
            std::thread::scope(|s| {
                for job in jobs {
                    s.spawn(move || job.run(rules));
                }
            });
        }
    }
}

/// One thread's share of a batch call.
struct Chunk<'a> {
    games: &'a mut [Game],
    seeds: &'a [u64],
    episodes: &'a mut [u64],
    obs: &'a mut [f32],
    mask: &'a mut [u8],
    player: &'a mut [i64],
    reward: &'a mut [f32],
    done: &'a mut [u8],
    points: &'a mut [f32],
    actions: &'a [i64],
    hold: bool,
}

impl Chunk<'_> {
    fn run(self, rules: &Rules) {
        let (d, a, p) = (rules.observation_size(), rules.num_actions(), rules.players);
        for (i, game) in self.games.iter_mut().enumerate() {
            let reward = &mut self.reward[i * p..(i + 1) * p];
            reward.fill(0.0);
            self.done[i] = 0;
            let mut actor = None;
            if let Some(&action) = self.actions.get(i) {
                let redeal = if game.is_over() {
                    true // held over from the last step: dealt again, the action ignored
                } else {
                    let seat = game.current();
                    // checked legal by `Batch::step`
                    let _ = game.apply_action(action);
                    if game.is_over() {
                        write_returns(game, reward);
                        write_points(game, &mut self.points[i * p..(i + 1) * p]);
                        self.done[i] = 1;
                        actor = Some(seat);
                    }
                    game.is_over() && !self.hold
                };
                if redeal {
                    let seed = derive_seed(self.seeds[i], self.episodes[i], "rl-episode");
                    self.episodes[i] += 1;
                    *game = new_game(rules, seed);
                }
            }
            if self.done[i] == 0 {
                write_points(game, &mut self.points[i * p..(i + 1) * p]);
            }
            let obs = &mut self.obs[i * d..(i + 1) * d];
            let seat = match actor {
                Some(seat) if game.is_over() => seat,
                _ => game.current(),
            };
            game.write_observation(seat, obs);
            game.write_mask(&mut self.mask[i * a..(i + 1) * a]);
            self.player[i] = seat as i64;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::meld::MeldRules;
    use crate::rng::CardRng;

    fn rules(players: usize) -> Rules {
        Rules {
            players,
            decks: 2,
            jokers: 0,
            meld: MeldRules::default(),
            first_dealer: None,
            shared_win: false,
            forbid_return: false,
            min_own_turns: 0,
            max_turns: 20,
        }
    }

    fn drive(batch: &mut Batch, steps: usize, threads: usize) -> Vec<Outputs> {
        let mut rng = CardRng::new(5);
        let mut out = Outputs::default();
        batch.reset(&mut out, threads);
        let mut all = vec![out.clone()];
        let a = batch.rules().num_actions();
        for _ in 0..steps {
            let acts: Vec<i64> = out
                .mask
                .chunks(a)
                .map(|m| {
                    let legal: Vec<usize> = (0..a).filter(|&k| m[k] == 1).collect();
                    legal[rng.below(legal.len() as u64) as usize] as i64
                })
                .collect();
            batch.step(&acts, &mut out, threads).unwrap();
            all.push(out.clone());
        }
        all
    }

    #[test]
    fn threads_do_not_change_the_games() {
        let one = drive(&mut Batch::new(rules(2), 9, 7), 500, 1);
        let two = drive(&mut Batch::new(rules(2), 9, 7), 500, 3);
        assert!(one.iter().any(|o| o.done.contains(&1)));
        for (x, y) in one.iter().zip(&two) {
            assert_eq!(x.observation, y.observation);
            assert_eq!(x.mask, y.mask);
            assert_eq!(x.reward, y.reward);
        }
    }

    #[test]
    fn held_games_end_then_deal_again_on_the_next_step() {
        let (n, a) = (5, 54);
        let mut same = Batch::new(rules(2), 9, n);
        let mut held = Batch::new(rules(2), 9, n).hold_ended();
        let (mut x, mut y) = (Outputs::default(), Outputs::default());
        same.reset(&mut x, 1);
        held.reset(&mut y, 1);
        let mut rng = CardRng::new(3);
        let mut ended = 0;
        for _ in 0..3000 {
            let acts: Vec<i64> = x
                .mask
                .chunks(a)
                .map(|m| {
                    let legal: Vec<usize> = (0..a).filter(|&k| m[k] == 1).collect();
                    legal[rng.below(legal.len() as u64) as usize] as i64
                })
                .collect();
            same.step(&acts, &mut x, 1).unwrap();
            held.step(&acts, &mut y, 1).unwrap();
            assert_eq!((&x.reward, &x.done), (&y.reward, &y.done));
            let over = y.done.clone();
            if over.contains(&1) {
                ended += 1;
                for i in (0..n).filter(|&i| over[i] == 1) {
                    assert!(held.games()[i].is_over());
                    assert!(y.mask[i * a..(i + 1) * a].iter().all(|&m| m == 0));
                }
                // next step: the held games are dealt again whatever their action
                let mut next = held.clone();
                let mut z = y.clone();
                let redo: Vec<i64> = (0..n)
                    .map(|i| if over[i] == 1 { 999 } else { -1 })
                    .collect();
                assert!(next.step(&redo, &mut z, 1).is_err() == over.contains(&0));
                if !over.contains(&0) {
                    assert_eq!((&z.observation, &z.mask), (&x.observation, &x.mask));
                    assert!(z.done.iter().all(|&d| d == 0));
                }
                // same-step: dealt again at once, the other rows as the step left them
                held.redeal(&over, &mut y);
            }
            assert_eq!(
                (&x.observation, &x.mask, &x.player),
                (&y.observation, &y.mask, &y.player)
            );
        }
        assert!(ended > 0);
    }

    #[test]
    fn an_illegal_action_changes_nothing() {
        let mut batch = Batch::new(rules(2), 1, 2);
        let mut out = Outputs::default();
        batch.reset(&mut out, 1);
        let before = out.observation.clone();
        let err = batch.step(&[0, 40], &mut out, 1).unwrap_err();
        assert_eq!(
            err,
            IllegalAction {
                game: 1,
                action: 40
            }
        );
        batch.step(&[-1, 0], &mut out, 1).unwrap_err();
        batch.run(&[], &mut out, 1);
        assert_eq!(out.observation, before);
    }
}
