//! Bindings of the engines' one-game steppers (`three_thirteen_batch::Episode`,
//! `spite_episode::Episode`): the fast path of `cardcore.rl.pettingzoo`'s AEC environment.

use cardcore_engine::spite_episode;
use cardcore_engine::three_thirteen_batch;
use pyo3::prelude::*;
use pyo3::types::PyByteArray;

use crate::errors::{illegal_move_error, option_error};
use crate::rl::bytes_of;
use crate::spite_malice::SpiteMaliceRules;
use crate::three_thirteen::ThreeThirteenRules;

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
