//! Bindings of the engines' one-game steppers (`three_thirteen_batch::Episode`,
//! `spite_episode::Episode`): the fast path of `cardcore.rl.pettingzoo`'s AEC environment.

use cardcore_engine::spite::SideRule;
use cardcore_engine::spite_episode::{self, StockRule};
use cardcore_engine::three_thirteen_batch;
use pyo3::prelude::*;
use pyo3::types::PyByteArray;

use crate::errors::{illegal_move_error, option_error};
use crate::rl::{ThreeThirteenRules, bytes_of};

/// Validated Spite & Malice options for the native engine (built by `cardcore.rl.native`).
#[pyclass(module = "cardcore._core", frozen)]
pub struct SpiteMaliceRules(pub(crate) spite_episode::Rules);

#[pymethods]
impl SpiteMaliceRules {
    /// The options of `cardcore.spite_malice.Options` (resolved).
    #[new]
    #[pyo3(signature = (
        *, players, decks, jokers, payoff_size, hand_size, side_stacks, center_stacks,
        king_can_start, refill_empty_hand, completed_to_stock, stock_exhausted, side_stack_rule,
        must_play_aces, first_player, max_turns, win_bonus = 0
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        players: usize,
        decks: usize,
        jokers: bool,
        payoff_size: usize,
        hand_size: usize,
        side_stacks: usize,
        center_stacks: usize,
        king_can_start: bool,
        refill_empty_hand: bool,
        completed_to_stock: bool,
        stock_exhausted: &str,
        side_stack_rule: &str,
        must_play_aces: bool,
        first_player: Option<usize>,
        max_turns: u32,
        win_bonus: u64,
    ) -> PyResult<Self> {
        let stock_rule = match stock_exhausted {
            "tie_on_required_draw" => StockRule::TieOnRequiredDraw,
            "tie_immediately" => StockRule::TieImmediately,
            "recycle_then_tie" => StockRule::RecycleThenTie,
            other => return Err(option_error(format!("stock_exhausted {other:?}"))),
        };
        let side_rule = match side_stack_rule {
            "any" => SideRule::Any,
            "same_or_one_lower" => SideRule::SameOrOneLower,
            "no_aces" => SideRule::NoAces,
            other => return Err(option_error(format!("side_stack_rule {other:?}"))),
        };
        let rules = spite_episode::Rules {
            players,
            decks,
            jokers,
            payoff_size,
            hand_size,
            side_stacks,
            center_stacks,
            king_can_start,
            refill_empty_hand,
            completed_to_stock,
            stock_rule,
            side_rule,
            must_play_aces,
            first_player,
            max_turns,
            win_bonus,
        };
        if !rules.check() {
            return Err(option_error("options out of range"));
        }
        Ok(Self(rules))
    }
}

/// What [`Episode`] needs of a game's engine.
trait Stepper: Send + Sync {
    fn players(&self) -> usize;
    /// `(observation_size, num_actions)`.
    fn sizes(&self) -> (usize, usize);
    fn current(&self) -> Option<usize>;
    /// Plays `action`; `Err(action)` if it is not legal (nothing changes).
    fn apply(&mut self, action: i64) -> Result<(), i64>;
    fn observe(&self, seat: usize, obs: &mut [f32], mask: &mut [u8]);
    fn write_returns(&self, out: &mut [f32]);
}

/// `Stepper` for an engine's episode type (the engines' methods have the same names).
macro_rules! stepper {
    ($($episode:ty),*) => {$(
        impl Stepper for $episode {
            fn players(&self) -> usize {
                self.rules().players
            }
            fn sizes(&self) -> (usize, usize) {
                (self.rules().observation_size(), self.rules().num_actions())
            }
            fn current(&self) -> Option<usize> {
                self.current()
            }
            fn apply(&mut self, action: i64) -> Result<(), i64> {
                self.apply(action).map_err(|e| e.action)
            }
            fn observe(&self, seat: usize, obs: &mut [f32], mask: &mut [u8]) {
                self.observe(seat, obs, mask);
            }
            fn write_returns(&self, out: &mut [f32]) {
                self.write_returns(out);
            }
        }
    )*};
}

stepper!(three_thirteen_batch::Episode, spite_episode::Episode);

/// One game dealt from `seed` (`new_state(seed)` of the Python engine) by the native engine
/// of `rules` (`ThreeThirteenRules` or `SpiteMaliceRules`).
#[pyclass(module = "cardcore._core")]
pub struct Episode {
    game: Box<dyn Stepper>,
    obs: Vec<f32>,
    mask: Vec<u8>,
}

#[pymethods]
impl Episode {
    #[new]
    fn new(rules: &Bound<'_, PyAny>, seed: u64) -> PyResult<Self> {
        let game: Box<dyn Stepper> = if let Ok(r) = rules.cast::<ThreeThirteenRules>() {
            Box::new(three_thirteen_batch::Episode::new(r.get().0, seed))
        } else if let Ok(r) = rules.cast::<SpiteMaliceRules>() {
            Box::new(spite_episode::Episode::new(r.get().0.clone(), seed))
        } else {
            let ty = rules.get_type().name()?;
            return Err(option_error(format!("no native engine for {ty}")));
        };
        let (obs, actions) = game.sizes();
        Ok(Self {
            obs: vec![0.0; obs],
            mask: vec![0; actions],
            game,
        })
    }

    /// The seat to play; `None` once the game is over.
    #[getter]
    fn current_player(&self) -> Option<usize> {
        self.game.current()
    }

    /// Plays action id `action` for the seat to play; an illegal one raises
    /// `IllegalMoveError` and changes nothing.
    fn apply(&mut self, action: i64) -> PyResult<()> {
        self.game.apply(action).map_err(|a| {
            illegal_move_error(format!("action {a} is not legal now (nothing was played)"))
        })
    }

    /// `(tensor, mask)` of `seat` as bytes (native-endian float32; 0/1 per action id, all 0
    /// unless `seat` is to play).
    fn observe<'py>(
        &mut self,
        py: Python<'py>,
        seat: usize,
    ) -> PyResult<(Bound<'py, PyByteArray>, Bound<'py, PyByteArray>)> {
        if seat >= self.game.players() {
            return Err(option_error(format!("no seat {seat}")));
        }
        self.game.observe(seat, &mut self.obs, &mut self.mask);
        Ok((
            bytes_of(py, &self.obs, f32::to_ne_bytes)?,
            PyByteArray::new(py, &self.mask),
        ))
    }

    /// `returns()`: +1 for each winning seat, -1 for the others; all 0 before the end and
    /// when nobody wins.
    fn returns(&self) -> Vec<f32> {
        let mut out = vec![0.0; self.game.players()];
        self.game.write_returns(&mut out);
        out
    }
}
