//! The seeded generator and shuffles (`cardcore-rng-v1`).

use cardcore_engine::rng::{CardRng, derive_seed as engine_derive_seed};
use cardcore_engine::shuffle;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// Seeded xoshiro256++ generator; see `docs/rng.md`.
#[pyclass(module = "cardcore._core")]
struct Rng {
    inner: CardRng,
}

#[pymethods]
impl Rng {
    #[new]
    fn new(seed: u64) -> Self {
        Self { inner: CardRng::new(seed) }
    }

    /// Generator of stream `stream` for item `index` of a run seeded with `master`.
    #[staticmethod]
    fn for_stream(master: u64, index: u64, stream: &str) -> Self {
        Self { inner: CardRng::for_stream(master, index, stream) }
    }

    /// Rebuilds a generator from `state` (four u64 words, not all zero).
    #[staticmethod]
    fn from_state(state: [u64; 4]) -> PyResult<Self> {
        CardRng::from_state(state)
            .map(|inner| Self { inner })
            .ok_or_else(|| PyValueError::new_err("the all-zero state is invalid"))
    }

    /// The four state words.
    #[getter]
    fn state(&self) -> [u64; 4] {
        self.inner.state()
    }

    fn next_u64(&mut self) -> u64 {
        self.inner.next_u64()
    }

    /// Uniform integer in `0..bound`.
    fn below(&mut self, bound: u64) -> PyResult<u64> {
        if bound == 0 {
            return Err(PyValueError::new_err("bound must be positive"));
        }
        Ok(self.inner.below(bound))
    }

    /// Uniform float in `[0, 1)`.
    fn random(&mut self) -> f64 {
        self.inner.next_f64()
    }

    /// Standard normal deviate.
    fn normal(&mut self) -> f64 {
        self.inner.next_normal()
    }

    /// A shuffled order of `0..n` (Fisher–Yates, as the shuffle contract specifies).
    fn permutation(&mut self, n: usize) -> PyResult<Vec<u32>> {
        let n32 = u32::try_from(n).map_err(|_| PyValueError::new_err("n too large"))?;
        let mut v: Vec<u32> = (0..n32).collect();
        shuffle::shuffle(&mut self.inner, &mut v);
        Ok(v)
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, ([u64; 4],))> {
        let ctor = slf.get_type().getattr("from_state")?;
        Ok((ctor, (slf.borrow().inner.state(),)))
    }

    fn __repr__(&self) -> String {
        format!("Rng.from_state({:?})", self.inner.state())
    }
}

/// Seed of stream `stream` for item `index` of a run seeded with `master`.
#[pyfunction]
fn derive_seed(master: u64, index: u64, stream: &str) -> u64 {
    engine_derive_seed(master, index, stream)
}

/// `count` shuffled orders of `0..n`, row `r` from stream `(master, first_index + r, stream)`,
/// concatenated as bytes: one byte per item when `n <= 256`, else two (little-endian).
#[pyfunction]
#[pyo3(signature = (n, master, first_index, count, stream = "deck"))]
fn permutations<'py>(
    py: Python<'py>,
    n: usize,
    master: u64,
    first_index: u64,
    count: usize,
    stream: &str,
) -> PyResult<Bound<'py, PyBytes>> {
    if n == 0 || n > 65_536 {
        return Err(PyValueError::new_err("n must be in 1..=65536"));
    }
    let total = n
        .checked_mul(count)
        .filter(|&t| t <= 1 << 31)
        .ok_or_else(|| PyValueError::new_err("n * count too large"))?;
    let stream = stream.to_owned();
    if n <= 256 {
        let work = || {
            let mut out = vec![0u8; total];
            shuffle::permutations_u8(master, first_index, &stream, n, &mut out);
            out
        };
        let out = if total >= 4096 { py.detach(work) } else { work() };
        Ok(PyBytes::new(py, &out))
    } else {
        let out: Vec<u8> = py.detach(|| {
            let mut out = vec![0u16; total];
            shuffle::permutations_u16(master, first_index, &stream, n, &mut out);
            out.iter().flat_map(|x| x.to_le_bytes()).collect()
        });
        Ok(PyBytes::new(py, &out))
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Rng>()?;
    m.add_function(wrap_pyfunction!(derive_seed, m)?)?;
    m.add_function(wrap_pyfunction!(permutations, m)?)?;
    Ok(())
}
