//! Bindings of `cardcore_engine::three_thirteen_batch`: the Three-Thirteen fast path of
//! `cardcore.rl.VectorEnv` (many games per call, outputs as `bytearray`s numpy reads in place).

use cardcore_engine::meld::{AceMode, MeldRules};
use cardcore_engine::three_thirteen_batch::{Batch, Outputs, Rules};
use pyo3::prelude::*;
use pyo3::types::PyByteArray;

use crate::errors::{illegal_move_error, option_error};

/// Validated Three-Thirteen options for the native engines (built by `cardcore.rl.native`).
#[pyclass(module = "cardcore._core", frozen)]
pub struct ThreeThirteenRules(pub Rules);

#[pymethods]
impl ThreeThirteenRules {
    /// The options of `cardcore.three_thirteen.Options`, as numbers.
    #[new]
    #[pyo3(signature = (
        *, players, decks, jokers, ace_mode, wild_points, joker_points, first_dealer,
        shared_win, forbid_return, min_own_turns, max_turns
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        players: usize,
        decks: usize,
        jokers: usize,
        ace_mode: u8,
        wild_points: u32,
        joker_points: u32,
        first_dealer: Option<usize>,
        shared_win: bool,
        forbid_return: bool,
        min_own_turns: u32,
        max_turns: u32,
    ) -> PyResult<Self> {
        let ace_mode = AceMode::from_code(ace_mode).ok_or_else(|| option_error("bad ace mode"))?;
        let rules = Rules {
            players,
            decks,
            jokers,
            meld: MeldRules {
                ace_mode,
                wild_points,
                joker_points,
            },
            first_dealer,
            shared_win,
            forbid_return,
            min_own_turns,
            max_turns,
        };
        if !rules.check() {
            return Err(option_error("options out of range"));
        }
        Ok(Self(rules))
    }
}

/// `n` Three-Thirteen games stepped together (see `cardcore.rl.vector`).
#[pyclass(module = "cardcore._core")]
pub struct ThreeThirteenBatch {
    batch: Batch,
    out: Outputs,
    threads: usize,
}

/// What `ThreeThirteenBatch.reset` and `step` return: the arrays of `cardcore.rl.vector.Batch`
/// as native-endian bytes (`observation` and `reward` float32, `mask` and `done` 0/1 bytes,
/// `player` int64, `points` float32), row `i` for game `i`.
#[pyclass(module = "cardcore._core", frozen, get_all)]
pub struct ThreeThirteenArrays {
    observation: Py<PyByteArray>,
    mask: Py<PyByteArray>,
    player: Py<PyByteArray>,
    reward: Py<PyByteArray>,
    done: Py<PyByteArray>,
    points: Py<PyByteArray>,
}

pub(crate) fn bytes_of<'py, const W: usize, T: Copy>(
    py: Python<'py>,
    values: &[T],
    to_bytes: impl Fn(T) -> [u8; W],
) -> PyResult<Bound<'py, PyByteArray>> {
    PyByteArray::new_with(py, values.len() * W, |buf| {
        for (dst, &v) in buf.chunks_exact_mut(W).zip(values) {
            dst.copy_from_slice(&to_bytes(v));
        }
        Ok(())
    })
}

impl ThreeThirteenBatch {
    fn arrays(&self, py: Python<'_>) -> PyResult<ThreeThirteenArrays> {
        let o = &self.out;
        Ok(ThreeThirteenArrays {
            observation: bytes_of(py, &o.observation, f32::to_ne_bytes)?.unbind(),
            mask: PyByteArray::new(py, &o.mask).unbind(),
            player: bytes_of(py, &o.player, i64::to_ne_bytes)?.unbind(),
            reward: bytes_of(py, &o.reward, f32::to_ne_bytes)?.unbind(),
            done: PyByteArray::new(py, &o.done).unbind(),
            points: bytes_of(py, &o.points, f32::to_ne_bytes)?.unbind(),
        })
    }
}

#[pymethods]
impl ThreeThirteenBatch {
    /// `n` games of `rules`, seeded as `VectorEnv(game, n, seed)`; `threads` share each call.
    /// `hold=True`: a game that ends is held over until the next step, which deals it again
    /// and ignores its action (gymnasium's next-step autoreset); else it is dealt again at once.
    #[new]
    #[pyo3(signature = (rules, n, seed, *, threads, hold=false))]
    fn new(
        rules: &ThreeThirteenRules,
        n: usize,
        seed: u64,
        threads: usize,
        hold: bool,
    ) -> PyResult<Self> {
        if n == 0 {
            return Err(option_error("n must be at least 1"));
        }
        let batch = Batch::new(rules.0, seed, n);
        Ok(Self {
            batch: if hold { batch.hold_ended() } else { batch },
            out: Outputs::default(),
            threads: threads.max(1),
        })
    }

    /// Deals every game anew; the arrays of the seats to play.
    fn reset(&mut self, py: Python<'_>) -> PyResult<ThreeThirteenArrays> {
        let (batch, out, threads) = (&mut self.batch, &mut self.out, self.threads);
        py.detach(move || batch.reset(out, threads));
        self.arrays(py)
    }

    /// Deals again the games whose byte in `rows` is not 0 (`n` bytes); the arrays with their
    /// rows rewritten (tensor, mask, seat, points) and the other rows, `reward` and `done` as the
    /// last call left them.
    fn redeal(&mut self, py: Python<'_>, rows: &[u8]) -> PyResult<ThreeThirteenArrays> {
        let n = self.batch.games().len();
        if rows.len() != n {
            return Err(option_error(format!("expected {n} row flags")));
        }
        if self.out.player.len() != n {
            return Err(option_error("call reset() first"));
        }
        self.batch.redeal(rows, &mut self.out);
        self.arrays(py)
    }

    /// Plays one action per game (`actions`: native-endian int64 bytes). An illegal action
    /// raises `IllegalMoveError` and changes nothing.
    fn step(&mut self, py: Python<'_>, actions: &[u8]) -> PyResult<ThreeThirteenArrays> {
        let n = self.batch.games().len();
        if actions.len() != 8 * n {
            return Err(option_error(format!("expected {n} int64 actions")));
        }
        let acts: Vec<i64> = actions
            .chunks_exact(8)
            .map(|b| i64::from_ne_bytes(b.try_into().unwrap_or_default()))
            .collect();
        let (batch, out, threads) = (&mut self.batch, &mut self.out, self.threads);
        py.detach(move || batch.step(&acts, out, threads))
            .map_err(|e| {
                illegal_move_error(format!(
                    "game {}: action {} is not legal now (nothing was played)",
                    e.game, e.action
                ))
            })?;
        self.arrays(py)
    }
}
