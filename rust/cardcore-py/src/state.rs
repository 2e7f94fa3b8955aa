//! The one generic binding of the rulebooks (`cardcore_engine::games::State`): one Python
//! class, `State`, for every game's state. Each game's extras (its own moves, its views and
//! documents) are free functions in the game's file, as pyspiel keeps them.

use cardcore_engine::games::{self, State as _, spite_malice, three_thirteen};
use pyo3::prelude::*;
use pyo3::types::PyByteArray;

use crate::errors::{option_error, py_err};
use crate::rl::bytes_of;

/// A state of one of the games.
#[derive(Clone)]
pub enum AnyState {
    /// Three-Thirteen.
    ThreeThirteen(three_thirteen::State),
    /// Spite & Malice.
    SpiteMalice(spite_malice::State),
}

/// `$body` with `$s` bound to the rulebook state inside `$state` (an `AnyState`).
macro_rules! with_state {
    ($state:expr, $s:ident => $body:expr) => {
        match $state {
            AnyState::ThreeThirteen($s) => $body,
            AnyState::SpiteMalice($s) => $body,
        }
    };
}

/// The same game's `AnyState` built from `$body`, with `$s` bound to the rulebook state.
macro_rules! map_state {
    ($state:expr, $s:ident => $body:expr) => {
        match $state {
            AnyState::ThreeThirteen($s) => AnyState::ThreeThirteen($body),
            AnyState::SpiteMalice($s) => AnyState::SpiteMalice($body),
        }
    };
}

/// `rulebook(&State)` and `rulebook_mut(&mut State)`: the rulebook state of one `AnyState`
/// variant, or `ArgumentTypeError` naming the game for a state of another game (each game's
/// extras file invokes it once).
macro_rules! rulebook_access {
    ($variant:ident, $ty:ty, $game:literal) => {
        fn rulebook(state: &State) -> PyResult<&$ty> {
            match &state.inner {
                AnyState::$variant(s) => Ok(s),
                #[allow(unreachable_patterns)]
                _ => Err(crate::errors::type_error(concat!(
                    "not a ", $game, " state"
                ))),
            }
        }

        fn rulebook_mut(state: &mut State) -> PyResult<&mut $ty> {
            match &mut state.inner {
                AnyState::$variant(s) => Ok(s),
                #[allow(unreachable_patterns)]
                _ => Err(crate::errors::type_error(concat!(
                    "not a ", $game, " state"
                ))),
            }
        }
    };
}
pub(crate) use rulebook_access;

/// A game in progress, of any game (the `_s` of every Python state class): the rulebook's
/// state, mutable, copied with `clone`.
#[pyclass(module = "cardcore._core")]
pub struct State {
    pub(crate) inner: AnyState,
}

impl State {
    pub(crate) fn new(inner: AnyState) -> Self {
        Self { inner }
    }

    fn check_seat(&self, seat: usize) -> PyResult<()> {
        let p = with_state!(&self.inner, s => s.num_players());
        if seat < p {
            Ok(())
        } else {
            Err(option_error(format!(
                "no seat {seat} at a {p}-player table"
            )))
        }
    }
}

#[pymethods]
impl State {
    /// The registered name of the game.
    #[getter]
    fn game(&self) -> &'static str {
        match &self.inner {
            AnyState::ThreeThirteen(_) => games::three_thirteen::INFO.name,
            AnyState::SpiteMalice(_) => games::spite_malice::INFO.name,
        }
    }

    /// Seats at the table.
    #[getter]
    fn num_players(&self) -> usize {
        with_state!(&self.inner, s => s.num_players())
    }

    /// Size of the fixed action space.
    #[getter]
    fn num_actions(&self) -> usize {
        with_state!(&self.inner, s => s.num_actions())
    }

    /// Length of the observation tensor.
    #[getter]
    fn observation_size(&self) -> usize {
        with_state!(&self.inner, s => s.observation_size())
    }

    /// The seat to play; `None` once the game is over.
    #[getter]
    fn current_player(&self) -> Option<usize> {
        with_state!(&self.inner, s => s.current_player())
    }

    /// Whether the game has ended.
    #[getter]
    fn is_over(&self) -> bool {
        with_state!(&self.inner, s => s.is_over())
    }

    /// The legal action ids, sorted.
    fn legal_actions(&self) -> Vec<usize> {
        with_state!(&self.inner, s => s.legal_actions())
    }

    /// The legal actions as `num_actions` 0/1 bytes.
    fn action_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyByteArray>> {
        with_state!(&self.inner, s => PyByteArray::new_with(py, s.num_actions(), |m| {
            s.write_mask(m);
            Ok(())
        }))
    }

    /// Plays action id `action` for the seat to play; `IllegalMoveError` (nothing changes)
    /// when it is not legal now.
    fn apply_action(&mut self, action: i64) -> PyResult<()> {
        with_state!(&mut self.inner, s => s.apply_action(action).map_err(py_err))
    }

    /// One utility per seat once over (all zero before).
    fn returns(&self) -> Vec<f64> {
        with_state!(&self.inner, s => s.returns())
    }

    /// `seat`'s observation tensor as native-endian float32 bytes.
    fn observation_tensor<'py>(
        &self,
        py: Python<'py>,
        seat: usize,
    ) -> PyResult<Bound<'py, PyByteArray>> {
        self.check_seat(seat)?;
        with_state!(&self.inner, s => {
            let mut out = vec![0.0f32; s.observation_size()];
            s.write_observation(seat, &mut out);
            bytes_of(py, &out, f32::to_ne_bytes)
        })
    }

    /// An independent copy.
    fn clone(&self) -> Self {
        Self::new(self.inner.clone())
    }

    /// A copy in which every card `seat` has not seen is re-dealt from `seed`.
    fn resample_hidden(&self, seat: usize, seed: u64) -> PyResult<Self> {
        self.check_seat(seat)?;
        Ok(Self::new(
            map_state!(&self.inner, s => s.resample_hidden(seat, seed)),
        ))
    }
}
