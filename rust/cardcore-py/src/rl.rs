//! What the bindings of the rulebooks' batches share (`cardcore_engine::batch`, the native
//! vector environments `cardcore.rl.VectorEnv` and `gymnasium.make_vec`: many games per call,
//! outputs as `bytearray`s numpy reads in place): the arrays class and `batch_class!`, which
//! each game's binding file invokes for its own batch class.

use cardcore_engine::batch::{IllegalAction, Outputs, Row, Rows};
use pyo3::prelude::*;
use pyo3::types::PyByteArray;

use crate::errors::{illegal_move_error, option_error};

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

/// The arrays of `o`, with `observation` the tensors' bytes already written.
pub(crate) fn arrays(
    py: Python<'_>,
    observation: Bound<'_, PyByteArray>,
    o: &Outputs,
) -> PyResult<ThreeThirteenArrays> {
    Ok(ThreeThirteenArrays {
        observation: observation.unbind(),
        mask: PyByteArray::new(py, &o.mask).unbind(),
        player: bytes_of(py, &o.player, i64::to_ne_bytes)?.unbind(),
        reward: bytes_of(py, &o.reward, f32::to_ne_bytes)?.unbind(),
        done: PyByteArray::new(py, &o.done).unbind(),
        points: bytes_of(py, &o.points, f32::to_ne_bytes)?.unbind(),
    })
}

/// The rows a re-deal wrote, in game order (its other outputs stay empty).
#[derive(Default)]
pub(crate) struct Picked(pub(crate) Outputs);

impl Rows for Picked {
    fn put(&mut self, i: usize, row: &Row<'_>) {
        self.put_dealt(i, row);
    }

    fn put_dealt(&mut self, _: usize, row: &Row<'_>) {
        let o = &mut self.0;
        o.observation.extend_from_slice(row.obs);
        o.mask.extend_from_slice(row.mask);
        o.player.push(row.player);
        o.points.extend_from_slice(row.points);
    }
}

pub(crate) fn illegal(e: &IllegalAction) -> PyErr {
    if e.action == -1 && e.game > 0 {
        return option_error("expected one action per game");
    }
    illegal_move_error(format!(
        "game {}: action {} is not legal now (nothing was played)",
        e.game, e.action
    ))
}

/// A batch class of a game's rulebook (`cardcore.rl.vector`, `cardcore.rl.gym_vector`). The
/// tensors are written straight into the returned `bytearray` (threads share the games).
macro_rules! batch_class {
    ($(#[$doc:meta])* $name:ident, $game:ty, $rules:ty) => {
        $(#[$doc])*
        #[::pyo3::pyclass(module = "cardcore._core")]
        pub struct $name {
            batch: ::cardcore_engine::batch::Batch<$game>,
            out: ::cardcore_engine::batch::Outputs,
            threads: usize,
            started: bool,
        }

        impl $name {
            /// Runs `call` with the memory of a new `bytearray` for the tensors (the GIL
            /// released), then returns every array.
            fn call(
                &mut self,
                py: ::pyo3::Python<'_>,
                call: impl FnOnce(
                    &mut ::cardcore_engine::batch::Batch<$game>,
                    &mut [u8],
                    &mut ::cardcore_engine::batch::Outputs,
                    usize,
                ) -> Result<(), ::cardcore_engine::batch::IllegalAction>
                    + Send,
            ) -> ::pyo3::PyResult<$crate::rl::ThreeThirteenArrays> {
                let n = self.batch.games().len();
                let d = self.batch.sizes().0;
                let (batch, out, threads) = (&mut self.batch, &mut self.out, self.threads);
                let obs = ::pyo3::types::PyByteArray::new_with(py, n * d * 4, |buf| {
                    py.detach(move || call(batch, buf, out, threads))
                        .map_err(|e| $crate::rl::illegal(&e))
                })?;
                self.started = true;
                $crate::rl::arrays(py, obs, &self.out)
            }
        }

        #[::pyo3::pymethods]
        impl $name {
            /// `n` games of `rules`, seeded as `VectorEnv(game, n, seed)`; `threads` share
            /// each call. `hold=True`: a game that ends is held over until the next step,
            /// which deals it again and ignores its action (gymnasium's next-step autoreset);
            /// else it is dealt again at once.
            #[new]
            #[pyo3(signature = (rules, n, seed, *, threads, hold=false))]
            fn new(
                rules: &$rules,
                n: usize,
                seed: u64,
                threads: usize,
                hold: bool,
            ) -> ::pyo3::PyResult<Self> {
                if n == 0 {
                    return Err($crate::errors::option_error("n must be at least 1"));
                }
                let batch = ::cardcore_engine::batch::Batch::new(rules.0.clone(), seed, n);
                Ok(Self {
                    batch: if hold { batch.hold_ended() } else { batch },
                    out: ::cardcore_engine::batch::Outputs::default(),
                    threads: threads.max(1),
                    started: false,
                })
            }

            /// Deals every game anew; the arrays of the seats to play.
            fn reset(
                &mut self,
                py: ::pyo3::Python<'_>,
            ) -> ::pyo3::PyResult<$crate::rl::ThreeThirteenArrays> {
                self.call(py, |batch, obs, out, threads| {
                    batch.reset_bytes(obs, out, threads);
                    Ok(())
                })
            }

            /// Deals again the games whose byte in `rows` is not 0 (`n` bytes); the arrays of
            /// those games only, in game order (tensor, mask, seat, points; `reward` and
            /// `done` empty).
            fn redeal(
                &mut self,
                py: ::pyo3::Python<'_>,
                rows: &[u8],
            ) -> ::pyo3::PyResult<$crate::rl::ThreeThirteenArrays> {
                let n = self.batch.games().len();
                if rows.len() != n {
                    return Err($crate::errors::option_error(format!("expected {n} row flags")));
                }
                if !self.started {
                    return Err($crate::errors::option_error("call reset() first"));
                }
                let mut picked = $crate::rl::Picked::default();
                self.batch.redeal_into(rows, &mut picked);
                let obs = $crate::rl::bytes_of(py, &picked.0.observation, f32::to_ne_bytes)?;
                $crate::rl::arrays(py, obs, &picked.0)
            }

            /// Plays one action per game (`actions`: native-endian int64 bytes). An illegal
            /// action raises `IllegalMoveError` and changes nothing.
            fn step(
                &mut self,
                py: ::pyo3::Python<'_>,
                actions: &[u8],
            ) -> ::pyo3::PyResult<$crate::rl::ThreeThirteenArrays> {
                let n = self.batch.games().len();
                if actions.len() != 8 * n {
                    return Err($crate::errors::option_error(format!("expected {n} int64 actions")));
                }
                let acts: Vec<i64> = actions
                    .chunks_exact(8)
                    .map(|b| i64::from_ne_bytes(b.try_into().unwrap_or_default()))
                    .collect();
                self.call(py, move |batch, obs, out, threads| {
                    batch.step_bytes(&acts, obs, out, threads)
                })
            }
        }
    };
}
pub(crate) use batch_class;
