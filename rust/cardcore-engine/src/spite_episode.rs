//! One Spite & Malice game stepped natively: the fast path of the PettingZoo AEC environment
//! (`cardcore.rl.pettingzoo`). It steps the rulebook's state
//! ([`crate::games::spite_malice::State`]), which deals, plays and writes the tensor; this
//! module keeps the legal mask of the seat to play between steps.

use crate::games::State as _;
use crate::games::spite_malice::State;
pub use crate::games::spite_malice::{CENTER_ROWS, Rules, StockRule};

/// An action that is not legal now (nothing was played).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IllegalAction {
    /// The action id.
    pub action: i64,
}

/// One game, dealt as `new_state(seed)` of the protocol.
#[derive(Clone, Debug)]
pub struct Episode {
    state: State,
    /// The legal action ids of the seat to play, 0/1 per id (all 0 once over).
    legal: Vec<u8>,
}

impl Episode {
    /// The game dealt from `seed` (`rules` must pass [`Rules::check`]).
    ///
    /// # Panics
    /// If the rules do not pass [`Rules::check`].
    #[must_use]
    pub fn new(rules: Rules, seed: u64) -> Self {
        let state = State::new(rules, seed, false).expect("checked rules");
        let mut legal = vec![0; state.num_actions()];
        state.write_mask(&mut legal);
        Self { state, legal }
    }

    /// The rules of the game.
    #[must_use]
    pub fn rules(&self) -> &Rules {
        self.state.rules()
    }

    /// The rulebook's state.
    #[must_use]
    pub fn state(&self) -> &State {
        &self.state
    }

    /// The seat to play; `None` once the game is over.
    #[must_use]
    pub fn current(&self) -> Option<usize> {
        self.state.current_player()
    }

    /// Plays `action` for the seat to play.
    ///
    /// # Errors
    /// `action` is not legal now (nothing changes).
    pub fn apply(&mut self, action: i64) -> Result<(), IllegalAction> {
        let legal = usize::try_from(action)
            .ok()
            .is_some_and(|a| self.legal.get(a) == Some(&1));
        if !legal {
            return Err(IllegalAction { action });
        }
        self.state
            .apply_action(action)
            .map_err(|_| IllegalAction { action })?;
        self.state.write_mask(&mut self.legal);
        Ok(())
    }

    /// Writes `seat`'s tensor into `obs` (`observation_size` floats) and its legal actions
    /// into `mask` (`num_actions` bytes; all 0 unless `seat` is to play).
    pub fn observe(&self, seat: usize, obs: &mut [f32], mask: &mut [u8]) {
        self.state.write_observation(seat, obs);
        if self.current() == Some(seat) {
            mask.copy_from_slice(&self.legal);
        } else {
            mask.fill(0);
        }
    }

    /// Writes `returns()` into `out` (`players` floats): +1 for the winner, -1 for the others;
    /// all 0 before the end and after a tie.
    pub fn write_returns(&self, out: &mut [f32]) {
        for (x, r) in out.iter_mut().zip(self.state.returns()) {
            *x = r as f32;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::CardRng;
    use crate::spite::SideRule;

    #[test]
    fn random_games_end() {
        let r = Rules {
            players: 2,
            decks: 2,
            jokers: false,
            payoff_size: 20,
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
            max_turns: 1000,
            win_bonus: 0,
        };
        let mut ep = Episode::new(r.clone(), 4);
        let mut rng = CardRng::new(4);
        let mut obs = vec![0.0; r.observation_size()];
        let mut mask = vec![0; r.num_actions()];
        while let Some(seat) = ep.current() {
            ep.observe(seat, &mut obs, &mut mask);
            let legal: Vec<usize> = (0..mask.len()).filter(|&a| mask[a] == 1).collect();
            let a = legal[rng.below(legal.len() as u64) as usize];
            assert!(ep.apply(-1).is_err());
            ep.apply(a as i64).expect("a legal action");
        }
    }
}
