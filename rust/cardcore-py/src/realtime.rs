//! The one generic binding of the real-time rulebooks (`cardcore_engine::games::
//! RealtimeState`): one Python class, `RealtimeState`, for every real-time game's state (Nerts
//! today). A second class beside `State` because the two protocols differ in every method that
//! moves the game: a turn-based state has one seat to play and `apply_action`; a real-time one
//! has per-seat legal sets and masks, `submit(seat, action, t_ms)`, a clock (`now`, `step`,
//! `advance_to`) and seats played by agents, possibly Python objects called back while the
//! clock runs. Each game's extras are free functions in its own file.

use cardcore_engine::games::nerts::{self, Policy, Round};
use cardcore_engine::games::{IllegalMove, RealtimeState as _};
use cardcore_engine::rng::CardRng;
use pyo3::prelude::*;
use pyo3::types::PyByteArray;
use pyo3::{PyTraverseError, PyVisit};

use crate::errors::{option_error, py_err};
use crate::rl::bytes_of;

/// A real-time state of one of the games.
#[derive(Clone)]
pub enum AnyRealtime {
    /// Nerts.
    Nerts(nerts::State),
}

/// A failure while the clock runs: an outside (Python) agent raised, or chose an illegal move.
pub(crate) struct CallbackError(pub(crate) PyErr);

impl From<IllegalMove> for CallbackError {
    fn from(e: IllegalMove) -> Self {
        Self(py_err(e))
    }
}

/// The seats played by Python agents, through one callable `decide(seat, observation, legal
/// codes, rng state) -> (code or None, rng state)`.
pub(crate) struct PyAgents<'a, 'py> {
    pub(crate) py: Python<'py>,
    pub(crate) seats: &'a [bool],
    pub(crate) decide: Option<&'a Py<PyAny>>,
}

impl Policy for PyAgents<'_, '_> {
    type Error = CallbackError;

    fn plays(&self, seat: usize) -> bool {
        self.decide.is_some() && self.seats.get(seat).copied().unwrap_or(false)
    }

    fn act(
        &mut self,
        round: &Round,
        seat: usize,
        legal: &[u32],
        rng: &mut CardRng,
    ) -> Result<Option<u32>, CallbackError> {
        let Some(decide) = self.decide else {
            return Ok(None);
        };
        let mut run = || -> PyResult<Option<u32>> {
            let obs = crate::nerts_state::observation_tuple(self.py, round, seat)?;
            let out = decide.call1(self.py, (seat, obs, legal.to_vec(), rng.state()))?;
            let (code, state): (Option<u32>, [u64; 4]) = out.extract(self.py)?;
            *rng = CardRng::from_state(state)
                .ok_or_else(|| option_error("the all-zero generator state is invalid"))?;
            Ok(code)
        };
        run().map_err(CallbackError)
    }
}

/// A real-time game in progress (the `_s` of a real-time Python state): the rulebook's state
/// and the seats Python agents play (called back through `decide`).
#[pyclass(module = "cardcore._core")]
pub struct RealtimeState {
    pub(crate) inner: AnyRealtime,
    pub(crate) py_seats: Vec<bool>,
    pub(crate) decide: Option<Py<PyAny>>,
}

impl RealtimeState {
    pub(crate) fn new(inner: AnyRealtime, py_seats: Vec<bool>, decide: Option<Py<PyAny>>) -> Self {
        Self {
            inner,
            py_seats,
            decide,
        }
    }

    fn check_seat(&self, seat: usize) -> PyResult<()> {
        let p = self.num_players();
        if seat < p {
            Ok(())
        } else {
            Err(option_error(format!(
                "no seat {seat} at a {p}-player table"
            )))
        }
    }

    /// Runs `f` on the state with the Python agents as the outside policy.
    pub(crate) fn drive<T>(
        &mut self,
        py: Python<'_>,
        f: impl FnOnce(&mut nerts::State, &mut PyAgents<'_, '_>) -> Result<T, CallbackError>,
    ) -> PyResult<T> {
        let AnyRealtime::Nerts(s) = &mut self.inner;
        let mut agents = PyAgents {
            py,
            seats: &self.py_seats,
            decide: self.decide.as_ref(),
        };
        f(s, &mut agents).map_err(|e| e.0)
    }
}

#[pymethods]
impl RealtimeState {
    fn __traverse__(&self, visit: PyVisit<'_>) -> Result<(), PyTraverseError> {
        if let Some(d) = &self.decide {
            visit.call(d)?;
        }
        Ok(())
    }

    fn __clear__(&mut self) {
        self.decide = None;
    }

    /// The registered name of the game.
    #[getter]
    fn game(&self) -> &'static str {
        match &self.inner {
            AnyRealtime::Nerts(_) => nerts::INFO.name,
        }
    }

    /// Seats at the table.
    #[getter]
    fn num_players(&self) -> usize {
        let AnyRealtime::Nerts(s) = &self.inner;
        s.num_players()
    }

    /// Size of the fixed action space.
    #[getter]
    fn num_actions(&self) -> usize {
        let AnyRealtime::Nerts(s) = &self.inner;
        s.num_actions()
    }

    /// Length of the observation tensor.
    #[getter]
    fn observation_size(&self) -> usize {
        let AnyRealtime::Nerts(s) = &self.inner;
        s.observation_size()
    }

    /// The clock (ms since the start).
    #[getter]
    fn now(&self) -> i64 {
        let AnyRealtime::Nerts(s) = &self.inner;
        s.now()
    }

    /// Whether the game has ended.
    #[getter]
    fn is_over(&self) -> bool {
        let AnyRealtime::Nerts(s) = &self.inner;
        s.is_over()
    }

    /// `seat`'s legal action ids if they executed now, sorted.
    fn legal_actions(&self, seat: usize) -> PyResult<Vec<usize>> {
        self.check_seat(seat)?;
        let AnyRealtime::Nerts(s) = &self.inner;
        Ok(s.legal_actions(seat))
    }

    /// `seat`'s legal actions as `num_actions` 0/1 bytes.
    fn action_mask<'py>(&self, py: Python<'py>, seat: usize) -> PyResult<Bound<'py, PyByteArray>> {
        self.check_seat(seat)?;
        let AnyRealtime::Nerts(s) = &self.inner;
        PyByteArray::new_with(py, s.num_actions(), |m| {
            s.write_mask(seat, m);
            Ok(())
        })
    }

    /// Whether `seat` has an action scheduled.
    fn is_pending(&self, seat: usize) -> PyResult<bool> {
        self.check_seat(seat)?;
        let AnyRealtime::Nerts(s) = &self.inner;
        Ok(s.is_pending(seat))
    }

    /// Schedules action id `action` of `seat` at `t_ms`; `IllegalMoveError` (nothing changes)
    /// when the game is over, the id is out of range, `t_ms` is in the past or the seat has an
    /// action scheduled.
    fn submit(&mut self, seat: usize, action: i64, t_ms: i64) -> PyResult<()> {
        self.check_seat(seat)?;
        let AnyRealtime::Nerts(s) = &mut self.inner;
        s.submit(seat, action, t_ms).map_err(py_err)
    }

    /// Executes the next event; false when the game is over or nothing is scheduled.
    fn step(&mut self, py: Python<'_>) -> PyResult<bool> {
        self.drive(py, |s, a| s.step_with(a))
    }

    /// Executes every event due by `t_ms` and moves the clock there.
    fn advance_to(&mut self, py: Python<'_>, t_ms: i64) -> PyResult<()> {
        self.drive(py, |s, a| s.advance_to_with(t_ms, a))
    }

    /// Plays until the game ends (seats nobody plays never act).
    fn run(&mut self, py: Python<'_>) -> PyResult<()> {
        if self.decide.is_none() || !self.py_seats.iter().any(|&b| b) {
            // only built-in agents: without the GIL
            let AnyRealtime::Nerts(s) = &mut self.inner;
            py.detach(|| s.run());
            return Ok(());
        }
        self.drive(py, |s, a| s.run_with(a))
    }

    /// One utility per seat once over (all zero before).
    fn returns(&self) -> Vec<f64> {
        let AnyRealtime::Nerts(s) = &self.inner;
        s.returns()
    }

    /// `seat`'s observation tensor as native-endian float32 bytes.
    fn observation_tensor<'py>(
        &self,
        py: Python<'py>,
        seat: usize,
    ) -> PyResult<Bound<'py, PyByteArray>> {
        self.check_seat(seat)?;
        let AnyRealtime::Nerts(s) = &self.inner;
        let mut out = vec![0.0f32; s.observation_size()];
        s.write_observation(seat, &mut out);
        bytes_of(py, &out, f32::to_ne_bytes)
    }

    /// An independent copy (the Python agents' callable is shared).
    fn clone(&self, py: Python<'_>) -> Self {
        Self::new(
            self.inner.clone(),
            self.py_seats.clone(),
            self.decide.as_ref().map(|d| d.clone_ref(py)),
        )
    }

    /// A copy in which every card `seat` has not seen is re-dealt from `seed`.
    fn resample_hidden(&self, py: Python<'_>, seat: usize, seed: u64) -> PyResult<Self> {
        self.check_seat(seat)?;
        let AnyRealtime::Nerts(s) = &self.inner;
        Ok(Self::new(
            AnyRealtime::Nerts(s.resample_hidden(seat, seed)),
            self.py_seats.clone(),
            self.decide.as_ref().map(|d| d.clone_ref(py)),
        ))
    }
}
