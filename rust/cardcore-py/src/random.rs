//! The seeded generator and shuffles (`cardcore-rng-v1`).

use std::sync::{Mutex, MutexGuard, PoisonError};

use cardcore_engine::rng::{CardRng, derive_seed as engine_derive_seed};
use cardcore_engine::shuffle;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes};

use crate::errors::{
    float_arg, int_arg, memory_error, option_error, range_error, seed_arg, str_arg,
};

/// Largest `permutation` / `permutations` length: ids fit in two bytes.
const MAX_ITEMS: i128 = 65_536;

/// Lengths at or above this run with the GIL released.
const DETACH_ITEMS: usize = 4096;

/// Bytes of `permutations` output filled per GIL-released stretch; Ctrl-C is checked between
/// stretches.
const CHECK_BYTES: usize = 1 << 22;

/// Seeded xoshiro256++ generator; see `docs/rng.md`. Safe to share between threads: every call
/// takes the generator's lock (the draws then interleave in whatever order the threads run).
#[pyclass(module = "cardcore._core", frozen)]
pub(crate) struct Rng {
    inner: Mutex<CardRng>,
}

impl Rng {
    fn wrap(inner: CardRng) -> Self {
        Self {
            inner: Mutex::new(inner),
        }
    }

    /// The generator (a panic while it was held cannot leave it half-updated: every update is
    /// a plain word assignment).
    fn rng(&self) -> MutexGuard<'_, CardRng> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A copy of the generator (to draw from without the lock, then [`Rng::put`] back).
    pub(crate) fn take(&self) -> CardRng {
        self.rng().clone()
    }

    /// Makes `inner` the generator.
    pub(crate) fn put(&self, inner: CardRng) {
        *self.rng() = inner;
    }
}

#[pymethods]
impl Rng {
    #[new]
    fn new(seed: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(Self::wrap(CardRng::new(seed_arg(seed, "seed")?)))
    }

    /// Generator of stream `stream` for item `index` of a run seeded with `master`.
    #[staticmethod]
    fn for_stream(
        master: &Bound<'_, PyAny>,
        index: &Bound<'_, PyAny>,
        stream: &Bound<'_, PyAny>,
    ) -> PyResult<Self> {
        let (master, index) = (seed_arg(master, "master")?, seed_arg(index, "index")?);
        let stream = str_arg(stream, "stream")?;
        Ok(Self::wrap(CardRng::for_stream(master, index, stream)))
    }

    /// Rebuilds a generator from `state` (four u64 words, not all zero).
    #[staticmethod]
    fn from_state(state: &Bound<'_, PyAny>) -> PyResult<Self> {
        let words: Vec<Bound<'_, PyAny>> = match state.try_iter() {
            Ok(items) => items.collect::<PyResult<_>>()?,
            Err(_) => Vec::new(),
        };
        if words.len() != 4 {
            return Err(option_error(format!(
                "state must be four ints in 0..2**64-1, got {state}"
            )));
        }
        let mut s = [0_u64; 4];
        for (word, item) in s.iter_mut().zip(&words) {
            *word = seed_arg(item, "a state word")?;
        }
        CardRng::from_state(s)
            .map(Self::wrap)
            .ok_or_else(|| option_error("the all-zero state is invalid"))
    }

    /// The four state words.
    #[getter]
    fn state(&self) -> (u64, u64, u64, u64) {
        let [a, b, c, d] = self.rng().state();
        (a, b, c, d)
    }

    fn next_u64(&self) -> u64 {
        self.rng().next_u64()
    }

    /// Uniform integer in `0..bound`.
    fn below(&self, bound: &Bound<'_, PyAny>) -> PyResult<u64> {
        let bound = int_arg(bound, "bound", 1, i128::from(u64::MAX))?;
        Ok(self.rng().below(bound))
    }

    /// Uniform float in `[0, 1)`.
    fn random(&self) -> f64 {
        self.rng().next_f64()
    }

    /// Standard normal deviate (bit-identical on every platform).
    fn normal(&self) -> f64 {
        self.rng().next_normal()
    }

    /// `median * exp(sigma * normal())`, bit-identical on every platform.
    fn lognormal(&self, median: &Bound<'_, PyAny>, sigma: &Bound<'_, PyAny>) -> PyResult<f64> {
        let (median, sigma) = (float_arg(median, "median")?, float_arg(sigma, "sigma")?);
        Ok(self.rng().next_lognormal(median, sigma))
    }

    /// A shuffled order of `0..n` (Fisher–Yates, as the shuffle contract specifies).
    fn permutation(&self, py: Python<'_>, n: &Bound<'_, PyAny>) -> PyResult<Vec<u32>> {
        let n32: u32 = int_arg(n, "n", 0, i128::from(u32::MAX))?;
        let n = n32 as usize;
        let mut v: Vec<u32> = Vec::new();
        v.try_reserve_exact(n)
            .map_err(|_| memory_error("permutation too large"))?;
        v.extend(0..n32);
        if n >= DETACH_ITEMS {
            // the lock is taken and dropped without the GIL, so a thread waiting for it while
            // holding the GIL cannot deadlock with this one
            py.detach(|| shuffle::shuffle(&mut self.rng(), &mut v));
        } else {
            shuffle::shuffle(&mut self.rng(), &mut v);
        }
        Ok(v)
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, ([u64; 4],))> {
        let ctor = slf.get_type().getattr("from_state")?;
        Ok((ctor, (slf.get().rng().state(),)))
    }

    fn __repr__(&self) -> String {
        format!("Rng.from_state({:?})", self.rng().state())
    }
}

/// Seed of stream `stream` for item `index` of a run seeded with `master`.
#[pyfunction]
pub(crate) fn derive_seed(
    master: &Bound<'_, PyAny>,
    index: &Bound<'_, PyAny>,
    stream: &Bound<'_, PyAny>,
) -> PyResult<u64> {
    Ok(engine_derive_seed(
        seed_arg(master, "master")?,
        seed_arg(index, "index")?,
        str_arg(stream, "stream")?,
    ))
}

/// `count` shuffled orders of `0..n`, row `r` from stream `(master, first_index + r, stream)`,
/// concatenated as `bytes` (a `bytearray` when `writable`): one byte per item when `n <= 256`,
/// else two (little-endian).
#[pyfunction]
#[pyo3(signature = (n, master, first_index, count, stream = "deck", writable = false))]
pub(crate) fn permutations<'py>(
    py: Python<'py>,
    n: &Bound<'py, PyAny>,
    master: &Bound<'py, PyAny>,
    first_index: &Bound<'py, PyAny>,
    count: &Bound<'py, PyAny>,
    stream: &str,
    writable: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let master = seed_arg(master, "master")?;
    let first_index = seed_arg(first_index, "first_index")?;
    let n: usize = int_arg(n, "n", 1, MAX_ITEMS)?;
    let count: usize = int_arg(count, "count", 0, i128::from(u32::MAX))?;
    if count > 0 && first_index.checked_add(count as u64 - 1).is_none() {
        return Err(range_error("first_index + count - 1 must be below 2**64"));
    }
    let width = if n <= 256 { 1 } else { 2 };
    let total = n
        .checked_mul(count)
        .and_then(|t| t.checked_mul(width))
        .filter(|&t| t <= 1 << 31)
        .ok_or_else(|| range_error(format!("n * count too large ({n} * {count})")))?;
    // Fill the new object in place: no intermediate Vec, no copy. Each stretch of rows depends
    // only on its first row's index, so the stretches join to the same bytes.
    let fill = |buf: &mut [u8]| -> PyResult<()> {
        let row = n * width;
        let rows_per = (CHECK_BYTES / row).max(1);
        let mut index = first_index;
        for part in buf.chunks_mut(rows_per * row) {
            let rows = (part.len() / row) as u64;
            let mut fill = move || {
                if width == 1 {
                    shuffle::permutations_u8(master, index, stream, n, part);
                } else {
                    shuffle::permutations_u16_le(master, index, stream, n, part);
                }
            };
            if total >= DETACH_ITEMS {
                py.detach(fill);
                py.check_signals()?;
            } else {
                fill();
            }
            index = index.wrapping_add(rows);
        }
        Ok(())
    };
    if writable {
        Ok(PyByteArray::new_with(py, total, fill)?.into_any())
    } else {
        Ok(PyBytes::new_with(py, total, fill)?.into_any())
    }
}
