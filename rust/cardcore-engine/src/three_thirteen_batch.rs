//! Many Three-Thirteen games stepped together, for `cardcore.rl.VectorEnv`, and one game
//! stepped on its own ([`Episode`], the fast path of the PettingZoo AEC environment).
//!
//! Both play the one rulebook, [`crate::games::three_thirteen::State`]; the batch is
//! [`crate::batch::Batch`] over it (seeds, autoreset and outputs are described there).

pub use crate::batch::{IllegalAction, Outputs};
use crate::games::State as _;
use crate::games::three_thirteen::State as Game;
pub use crate::games::three_thirteen::{DISCARD, DRAW_DISCARD, DRAW_STOCK, FACES, Rules};

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

/// `n` Three-Thirteen games stepped together ([`crate::batch`]).
pub type Batch = crate::batch::Batch<Game>;

impl crate::batch::Dealt for Game {
    type Rules = Rules;

    fn deal(rules: &Rules, seed: u64) -> Self {
        new_game(rules, seed)
    }

    fn sizes(rules: &Rules) -> (usize, usize, usize) {
        (rules.observation_size(), rules.num_actions(), rules.players)
    }

    /// The penalty totals (`points()`).
    fn write_points(&self, out: &mut [f32]) {
        write_points(self, out);
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
        let (mut fresh, before) = (batch.clone(), out.clone());
        let err = batch.step(&[0, 40], &mut out, 1).unwrap_err();
        assert_eq!(
            err,
            IllegalAction {
                game: 1,
                action: 40
            }
        );
        batch.step(&[-1, 0], &mut out, 1).unwrap_err();
        batch.step(&[0, 0, 0], &mut out, 1).unwrap_err();
        batch.step(&[0], &mut out, 1).unwrap_err();
        assert_eq!(out.observation, before.observation);
        let mut again = before.clone();
        batch.step(&[0, 1], &mut out, 1).unwrap();
        fresh.step(&[0, 1], &mut again, 1).unwrap();
        assert_eq!((out.observation, out.mask), (again.observation, again.mask));
    }
}
