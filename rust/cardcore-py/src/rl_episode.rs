//! Bindings of `cardcore_engine::three_thirteen_batch::Episode`: one Three-Thirteen game
//! stepped natively, the fast path of `cardcore.rl.pettingzoo`'s AEC environment.

use cardcore_engine::three_thirteen_batch::Episode;
use pyo3::prelude::*;
use pyo3::types::PyByteArray;

use crate::errors::{IllegalMoveError, OptionError};
use crate::rl::{ThreeThirteenRules, bytes_of};

/// One Three-Thirteen game dealt from `seed` (`new_state(seed)` of the Python engine).
#[pyclass(module = "cardcore._core")]
pub struct ThreeThirteenEpisode {
    episode: Episode,
    obs: Vec<f32>,
    mask: Vec<u8>,
}

#[pymethods]
impl ThreeThirteenEpisode {
    #[new]
    fn new(rules: &ThreeThirteenRules, seed: u64) -> Self {
        let episode = Episode::new(rules.0.clone(), seed);
        let r = episode.rules();
        Self {
            obs: vec![0.0; r.observation_size()],
            mask: vec![0; r.num_actions()],
            episode,
        }
    }

    /// The seat to play; `None` once the game is over.
    #[getter]
    fn current_player(&self) -> Option<usize> {
        self.episode.current()
    }

    /// Plays action id `action` for the seat to play; an illegal one raises
    /// `IllegalMoveError` and changes nothing.
    fn apply(&mut self, py: Python<'_>, action: i64) -> PyResult<()> {
        let episode = &mut self.episode;
        py.detach(move || episode.apply(action)).map_err(|e| {
            IllegalMoveError::new_err(format!(
                "action {} is not legal now (nothing was played)",
                e.action
            ))
        })
    }

    /// `(tensor, mask)` of `seat` as bytes (native-endian float32; 0/1 per action id, all 0
    /// unless `seat` is to play).
    fn observe<'py>(
        &mut self,
        py: Python<'py>,
        seat: usize,
    ) -> PyResult<(Bound<'py, PyByteArray>, Bound<'py, PyByteArray>)> {
        if seat >= self.episode.rules().players {
            return Err(OptionError::new_err(format!("no seat {seat}")));
        }
        self.episode.observe(seat, &mut self.obs, &mut self.mask);
        Ok((
            bytes_of(py, &self.obs, f32::to_ne_bytes)?,
            PyByteArray::new(py, &self.mask),
        ))
    }

    /// `returns()`: +1 for each winning seat, -1 for the others; all 0 before the end and
    /// when nobody wins.
    fn returns(&self) -> Vec<f32> {
        let mut out = vec![0.0; self.episode.rules().players];
        self.episode.write_returns(&mut out);
        out
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<ThreeThirteenEpisode>()
}
