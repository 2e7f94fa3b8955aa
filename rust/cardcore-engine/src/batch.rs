//! Many games of one rulebook stepped together: the native vector environments
//! (`cardcore.rl.VectorEnv`, `gymnasium.make_vec`) of any rulebook that implements [`Dealt`]
//! (each game beside its rules: Three-Thirteen in `three_thirteen_batch`, Spite & Malice in
//! `games::spite_malice`).
//!
//! Game `i`'s `k`-th deal is seeded `derive_seed(derive_seed(seed, i, "rl-vector"), k,
//! "rl-episode")`, as in the Python `VectorEnv`; a game that ends is dealt again at once, or (a
//! batch made with [`Batch::hold_ended`]) held over until the next step, which deals it again
//! and ignores its action (gymnasium's next-step autoreset). A step writes, for every game, the
//! tensor and legal mask of the seat to play, that seat, the returns of a game that ended and
//! the game's tracked counts ([`Dealt::write_points`]); the rows go to [`Outputs`] (threads
//! share the games) or, one game at a time, to any [`Rows`] (the bindings write numpy's memory).

use crate::games::State;
use crate::rng::derive_seed;

/// A rulebook state the batch can deal.
pub trait Dealt: State {
    /// The game's checked rules.
    type Rules: Clone + Send + Sync;
    /// The game of `rules` dealt from `seed` (the rules were checked when the batch was made).
    fn deal(rules: &Self::Rules, seed: u64) -> Self;
    /// Floats of a tensor, action ids and seats under `rules`.
    fn sizes(rules: &Self::Rules) -> (usize, usize, usize);
    /// The counts a shaped reward tracks, one per seat (default: none, all 0).
    fn write_points(&self, out: &mut [f32]) {
        out.fill(0.0);
    }
}

/// An action that is not legal in the game it was given to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IllegalAction {
    /// The game (row of the batch).
    pub game: usize,
    /// The action id.
    pub action: i64,
}

/// One game's row of a call's outputs.
#[derive(Debug)]
pub struct Row<'a> {
    /// The tensor of `player`.
    pub obs: &'a [f32],
    /// The legal actions of `player` (all 0 when the game is over).
    pub mask: &'a [u8],
    /// The seat to play (the seat that moved last, when the game ended in this step and is held).
    pub player: i64,
    /// The returns of a game that ended in this step, else all 0.
    pub reward: &'a [f32],
    /// The game ended in this step.
    pub done: bool,
    /// [`Dealt::write_points`] (of the game that ended, where one did).
    pub points: &'a [f32],
}

/// Where a call's rows go (row `i` of the games given to the call).
pub trait Rows {
    /// Writes game `i`'s row.
    fn put(&mut self, i: usize, row: &Row<'_>);
    /// Writes game `i`'s row but its `reward` and `done` (a re-deal keeps the step's).
    fn put_dealt(&mut self, i: usize, row: &Row<'_>);
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
    /// `n * players` tracked counts ([`Dealt::write_points`]; of the game that ended, where
    /// one did).
    pub points: Vec<f32>,
}

impl Outputs {
    fn resize(&mut self, n: usize, (d, a, p): (usize, usize, usize)) {
        self.observation.resize(n * d, 0.0);
        self.mask.resize(n * a, 0);
        self.player.resize(n, 0);
        self.reward.resize(n * p, 0.0);
        self.done.resize(n, 0);
        self.points.resize(n * p, 0.0);
    }
}

/// Rows that go nowhere (a re-deal before the first reset).
struct NoRows;

impl Rows for NoRows {
    fn put(&mut self, _: usize, _: &Row<'_>) {}
    fn put_dealt(&mut self, _: usize, _: &Row<'_>) {}
}

/// Where the tensors go: floats, or their native-endian bytes (a Python `bytearray`'s memory).
enum Tensors<'a> {
    Floats(&'a mut [f32]),
    Bytes(&'a mut [u8]),
}

/// `src` as native-endian bytes into `dst`.
fn put_bytes(dst: &mut [u8], src: &[f32]) {
    for (d, v) in dst.chunks_exact_mut(4).zip(src) {
        d.copy_from_slice(&v.to_ne_bytes());
    }
}

impl Tensors<'_> {
    fn put(&mut self, i: usize, d: usize, row: &[f32]) {
        match self {
            Self::Floats(f) => f[i * d..(i + 1) * d].copy_from_slice(row),
            Self::Bytes(b) => put_bytes(&mut b[4 * i * d..4 * (i + 1) * d], row),
        }
    }

    fn split(self, at: usize) -> (Self, Self) {
        match self {
            Self::Floats(f) => {
                let (x, y) = f.split_at_mut(at.min(f.len()));
                (Self::Floats(x), Self::Floats(y))
            }
            Self::Bytes(b) => {
                let (x, y) = b.split_at_mut((4 * at).min(b.len()));
                (Self::Bytes(x), Self::Bytes(y))
            }
        }
    }
}

/// A chunk of [`Outputs`]' rows.
struct OutRows<'a> {
    sizes: (usize, usize, usize),
    obs: Tensors<'a>,
    mask: &'a mut [u8],
    player: &'a mut [i64],
    reward: &'a mut [f32],
    done: &'a mut [u8],
    points: &'a mut [f32],
}

impl Rows for OutRows<'_> {
    fn put(&mut self, i: usize, row: &Row<'_>) {
        let p = self.sizes.2;
        self.reward[i * p..(i + 1) * p].copy_from_slice(row.reward);
        self.done[i] = u8::from(row.done);
        self.put_dealt(i, row);
    }

    fn put_dealt(&mut self, i: usize, row: &Row<'_>) {
        let (d, a, p) = self.sizes;
        self.obs.put(i, d, row.obs);
        self.mask[i * a..(i + 1) * a].copy_from_slice(row.mask);
        self.player[i] = row.player;
        self.points[i * p..(i + 1) * p].copy_from_slice(row.points);
    }
}

/// `n` games stepped together.
#[derive(Clone, Debug)]
pub struct Batch<G: Dealt> {
    rules: G::Rules,
    seeds: Vec<u64>,
    episodes: Vec<u64>,
    games: Vec<G>,
    /// The legal mask of each game's seat to play as last written (what `step` checks).
    masks: Vec<u8>,
    hold: bool,
}

impl<G: Dealt> Batch<G> {
    /// `n` games; call [`Batch::reset`] before stepping.
    #[must_use]
    pub fn new(rules: G::Rules, seed: u64, n: usize) -> Self {
        let seeds: Vec<u64> = (0..n as u64)
            .map(|i| derive_seed(seed, i, "rl-vector"))
            .collect();
        let games = seeds.iter().map(|&s| G::deal(&rules, s)).collect();
        let a = G::sizes(&rules).1;
        Self {
            rules,
            seeds,
            episodes: vec![1; n],
            games,
            masks: vec![0; n * a],
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

    /// The rules of the games.
    #[must_use]
    pub fn rules(&self) -> &G::Rules {
        &self.rules
    }

    /// The games.
    #[must_use]
    pub fn games(&self) -> &[G] {
        &self.games
    }

    /// Floats of a tensor, action ids and seats.
    #[must_use]
    pub fn sizes(&self) -> (usize, usize, usize) {
        G::sizes(&self.rules)
    }

    fn deal_again(&mut self, i: usize) {
        let seed = derive_seed(self.seeds[i], self.episodes[i], "rl-episode");
        self.episodes[i] += 1;
        self.games[i] = G::deal(&self.rules, seed);
    }

    /// Deals every game anew (episode counters restart) into `out`, using `threads` threads.
    pub fn reset(&mut self, out: &mut Outputs, threads: usize) {
        self.deal_all();
        self.run(&[], out, None, threads);
    }

    /// [`Batch::reset`], the tensors written into `obs` as native-endian `f32` bytes (`n *
    /// observation_size * 4`; `out.observation` is left empty).
    pub fn reset_bytes(&mut self, obs: &mut [u8], out: &mut Outputs, threads: usize) {
        self.deal_all();
        self.run(&[], out, Some(obs), threads);
    }

    /// [`Batch::reset`], the rows written to `rows`.
    pub fn reset_into(&mut self, rows: &mut impl Rows) {
        self.deal_all();
        self.chunk_all(&[]).run(rows);
    }

    fn deal_all(&mut self) {
        for i in 0..self.games.len() {
            self.episodes[i] = 0;
            self.deal_again(i);
        }
    }

    /// Deals again the games `i` where `rows[i]` is not 0 and rewrites their rows of `out`
    /// (tensor, mask, seat, points; `reward` and `done` are left as they are), leaving the other
    /// rows of `out` as the last call wrote them.
    pub fn redeal(&mut self, rows: &[u8], out: &mut Outputs) {
        let n = self.games.len();
        if out.player.len() != n {
            self.redeal_into(rows, &mut NoRows);
            return;
        }
        let sizes = self.sizes();
        let mut sink = OutRows {
            sizes,
            obs: Tensors::Floats(&mut out.observation),
            mask: &mut out.mask,
            player: &mut out.player,
            reward: &mut out.reward,
            done: &mut out.done,
            points: &mut out.points,
        };
        self.redeal_into(rows, &mut sink);
    }

    /// [`Batch::redeal`], the re-dealt rows written to `sink` ([`Rows::put_dealt`]).
    pub fn redeal_into(&mut self, rows: &[u8], sink: &mut impl Rows) {
        let (d, a, p) = self.sizes();
        let mut obs = vec![0.0; d];
        let mut points = vec![0.0; p];
        let reward = vec![0.0; p];
        for i in self.redeal_games(rows) {
            let game = &self.games[i];
            let seat = game.current_player().unwrap_or(0);
            game.write_observation(seat, &mut obs);
            let mask = &mut self.masks[i * a..(i + 1) * a];
            game.write_mask(mask);
            game.write_points(&mut points);
            let row = Row {
                obs: &obs,
                mask,
                player: seat as i64,
                reward: &reward,
                done: false,
                points: &points,
            };
            sink.put_dealt(i, &row);
        }
    }

    fn redeal_games(&mut self, rows: &[u8]) -> Vec<usize> {
        let dealt: Vec<usize> = (0..self.games.len())
            .filter(|&i| rows.get(i).is_some_and(|&r| r != 0))
            .collect();
        for &i in &dealt {
            self.deal_again(i);
        }
        dealt
    }

    /// Checks `actions` (one per game; a held game's is ignored) against the legal masks.
    fn check(&self, actions: &[i64]) -> Result<(), IllegalAction> {
        let a = self.sizes().1;
        for (i, (g, &action)) in self.games.iter().zip(actions).enumerate() {
            let legal = usize::try_from(action)
                .ok()
                .filter(|&k| k < a)
                .is_some_and(|k| self.masks[i * a + k] == 1);
            if !legal && !g.is_over() {
                return Err(IllegalAction { game: i, action });
            }
        }
        if actions.len() != self.games.len() {
            let game = actions.len().min(self.games.len());
            return Err(IllegalAction { game, action: -1 });
        }
        Ok(())
    }

    /// Plays `actions[i]` in game `i`; with an illegal action nothing changes.
    ///
    /// # Errors
    /// The first illegal action (or too few actions).
    pub fn step(
        &mut self,
        actions: &[i64],
        out: &mut Outputs,
        threads: usize,
    ) -> Result<(), IllegalAction> {
        self.check(actions)?;
        self.run(actions, out, None, threads);
        Ok(())
    }

    /// [`Batch::step`], the tensors written into `obs` as in [`Batch::reset_bytes`].
    ///
    /// # Errors
    /// The first illegal action (or too few actions); nothing changes.
    pub fn step_bytes(
        &mut self,
        actions: &[i64],
        obs: &mut [u8],
        out: &mut Outputs,
        threads: usize,
    ) -> Result<(), IllegalAction> {
        self.check(actions)?;
        self.run(actions, out, Some(obs), threads);
        Ok(())
    }

    /// [`Batch::step`] on one thread, the rows written to `rows`.
    ///
    /// # Errors
    /// The first illegal action (nothing changes).
    pub fn step_into(
        &mut self,
        actions: &[i64],
        rows: &mut impl Rows,
    ) -> Result<(), IllegalAction> {
        self.check(actions)?;
        self.chunk_all(actions).run(rows);
        Ok(())
    }

    fn chunk_all<'a>(&'a mut self, actions: &'a [i64]) -> Chunk<'a, G> {
        Chunk {
            rules: &self.rules,
            games: &mut self.games,
            seeds: &self.seeds,
            episodes: &mut self.episodes,
            masks: &mut self.masks,
            actions,
            hold: self.hold,
        }
    }

    /// Applies `actions` (none: only observe) and writes the outputs, in `threads` chunks.
    fn run(
        &mut self,
        actions: &[i64],
        out: &mut Outputs,
        bytes: Option<&mut [u8]>,
        threads: usize,
    ) {
        let n = self.games.len();
        let sizes = self.sizes();
        let (d, a, p) = sizes;
        let mut tensors = match bytes {
            Some(b) => {
                out.observation.clear();
                out.resize(n, (0, a, p));
                Tensors::Bytes(b)
            }
            None => {
                out.resize(n, sizes);
                Tensors::Floats(&mut out.observation)
            }
        };
        let chunk = n.div_ceil(threads.max(1)).max(1);
        let rules = &self.rules;
        let hold = self.hold;
        let jobs = self
            .games
            .chunks_mut(chunk)
            .zip(self.seeds.chunks(chunk))
            .zip(self.episodes.chunks_mut(chunk))
            .zip(self.masks.chunks_mut(chunk * a))
            .zip(std::iter::from_fn(move || {
                let (x, rest) =
                    std::mem::replace(&mut tensors, Tensors::Floats(&mut [])).split(chunk * d);
                tensors = rest;
                Some(x)
            }))
            .zip(out.mask.chunks_mut(chunk * a))
            .zip(out.player.chunks_mut(chunk))
            .zip(out.reward.chunks_mut(chunk * p))
            .zip(out.done.chunks_mut(chunk))
            .zip(out.points.chunks_mut(chunk * p))
            .enumerate()
            .map(
                |(
                    j,
                    (
                        (
                            (((((((games, seeds), episodes), masks), obs), mask), player), reward),
                            done,
                        ),
                        points,
                    ),
                )| {
                    let acts = if actions.is_empty() {
                        &[][..]
                    } else {
                        &actions[j * chunk..j * chunk + games.len()]
                    };
                    let job = Chunk {
                        rules,
                        games,
                        seeds,
                        episodes,
                        masks,
                        actions: acts,
                        hold,
                    };
                    let sink = OutRows {
                        sizes,
                        obs,
                        mask,
                        player,
                        reward,
                        done,
                        points,
                    };
                    (job, sink)
                },
            );
        if threads <= 1 || n < 2 * threads {
            for (job, mut sink) in jobs {
                job.run(&mut sink);
            }
        } else {
            std::thread::scope(|s| {
                for (job, mut sink) in jobs {
                    s.spawn(move || job.run(&mut sink));
                }
            });
        }
    }
}

/// One thread's share of a batch call.
struct Chunk<'a, G: Dealt> {
    rules: &'a G::Rules,
    games: &'a mut [G],
    seeds: &'a [u64],
    episodes: &'a mut [u64],
    masks: &'a mut [u8],
    actions: &'a [i64],
    hold: bool,
}

impl<G: Dealt> Chunk<'_, G> {
    fn run(self, sink: &mut impl Rows) {
        let rules = self.rules;
        let (d, a, p) = G::sizes(rules);
        let mut obs = vec![0.0; d];
        let mut reward = vec![0.0; p];
        let mut points = vec![0.0; p];
        for (i, game) in self.games.iter_mut().enumerate() {
            reward.fill(0.0);
            let mut done = false;
            let mut actor = None;
            if let Some(&action) = self.actions.get(i) {
                let redeal = if game.is_over() {
                    true // held over from the last step: dealt again, the action ignored
                } else {
                    let seat = game.current_player();
                    // checked legal by `Batch::check` against this position's mask
                    game.apply_checked_action(action);
                    if game.is_over() {
                        for (o, r) in reward.iter_mut().zip(game.returns()) {
                            *o = r as f32;
                        }
                        game.write_points(&mut points);
                        done = true;
                        actor = seat;
                    }
                    done && !self.hold
                };
                if redeal {
                    let seed = derive_seed(self.seeds[i], self.episodes[i], "rl-episode");
                    self.episodes[i] += 1;
                    *game = G::deal(rules, seed);
                }
            }
            if !done {
                game.write_points(&mut points);
            }
            let seat = match actor {
                Some(seat) if game.is_over() => seat,
                _ => game.current_player().unwrap_or(0),
            };
            game.write_observation(seat, &mut obs);
            let mask = &mut self.masks[i * a..(i + 1) * a];
            game.write_mask(mask);
            let row = Row {
                obs: &obs,
                mask,
                player: seat as i64,
                reward: &reward,
                done,
                points: &points,
            };
            sink.put(i, &row);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::spite_malice::{Rules, State as Spite, StockRule};
    use crate::rng::CardRng;
    use crate::spite::SideRule;

    fn rules() -> Rules {
        Rules {
            players: 3,
            decks: 2,
            jokers: false,
            payoff_size: 8,
            hand_size: 5,
            side_stacks: 4,
            center_stacks: 0,
            king_can_start: true,
            refill_empty_hand: true,
            completed_to_stock: true,
            stock_rule: StockRule::TieOnRequiredDraw,
            side_rule: SideRule::Any,
            must_play_aces: false,
            first_player: None,
            max_turns: 40,
            win_bonus: 0,
        }
    }

    /// Steps a held Spite & Malice batch with random legal actions: every output, the tensors
    /// as floats (`threads` threads) or as bytes (one thread).
    fn drive(threads: usize, bytes: bool) -> Vec<Outputs> {
        let mut batch = Batch::<Spite>::new(rules(), 3, 7).hold_ended();
        let (d, a, _) = batch.sizes();
        let mut out = Outputs::default();
        let mut raw = vec![0u8; 7 * d * 4];
        let as_floats = |raw: &[u8], out: &mut Outputs| {
            out.observation = raw
                .chunks_exact(4)
                .map(|b| f32::from_ne_bytes([b[0], b[1], b[2], b[3]]))
                .collect();
        };
        if bytes {
            batch.reset_bytes(&mut raw, &mut out, 1);
            as_floats(&raw, &mut out);
        } else {
            batch.reset(&mut out, threads);
        }
        let mut rng = CardRng::new(11);
        let mut all = vec![out.clone()];
        for _ in 0..400 {
            let acts: Vec<i64> = out
                .mask
                .chunks(a)
                .map(|m| {
                    let legal: Vec<usize> = (0..a).filter(|&k| m[k] == 1).collect();
                    legal
                        .get(rng.below(legal.len().max(1) as u64) as usize)
                        .map_or(0, |&k| k as i64)
                })
                .collect();
            if bytes {
                batch.step_bytes(&acts, &mut raw, &mut out, 1).unwrap();
                as_floats(&raw, &mut out);
            } else {
                batch.step(&acts, &mut out, threads).unwrap();
            }
            all.push(out.clone());
        }
        all
    }

    #[test]
    fn threads_and_bytes_give_the_same_spite_malice_games() {
        let one = drive(1, false);
        assert!(one.iter().any(|o| o.done.contains(&1)));
        for other in [drive(3, false), drive(1, true)] {
            for (x, y) in one.iter().zip(&other) {
                assert_eq!(
                    (&x.observation, &x.mask, &x.player, &x.reward, &x.done),
                    (&y.observation, &y.mask, &y.player, &y.reward, &y.done)
                );
            }
        }
    }
}
