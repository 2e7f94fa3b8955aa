//! Bindings of `cardcore_engine::nerts`: move generation for one state or a batch.

use cardcore_engine::nerts::{self, MoveBuf, NertsError, PlayerView, STATE_BYTES};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

fn err(e: &NertsError) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// Every legal move of one 32-byte player state, as 4 bytes per move.
#[pyfunction]
fn nerts_moves<'py>(py: Python<'py>, state: &[u8]) -> PyResult<Bound<'py, PyBytes>> {
    let v = PlayerView::decode(state).map_err(|e| err(&e))?;
    let mut buf = MoveBuf::default();
    nerts::generate(&v, &mut buf);
    let mut out = [0u8; nerts::MAX_MOVES * nerts::MOVE_BYTES];
    for (chunk, m) in out.chunks_exact_mut(4).zip(buf.as_slice()) {
        chunk.copy_from_slice(&m.to_le_bytes());
    }
    Ok(PyBytes::new(py, &out[..buf.len() * nerts::MOVE_BYTES]))
}

/// Every legal move of one state as a list of packed `u32` codes (`kind | src<<8 | depth<<16 | dst<<24`).
#[pyfunction]
fn nerts_move_codes(state: &[u8]) -> PyResult<Vec<u32>> {
    let v = PlayerView::decode(state).map_err(|e| err(&e))?;
    let mut buf = MoveBuf::default();
    nerts::generate(&v, &mut buf);
    Ok(buf.as_slice().to_vec())
}

/// Moves of many concatenated states (GIL released): `(counts, moves)` where `counts` holds one
/// little-endian u16 per state and `moves` the 4-byte moves of all states in order.
#[pyfunction]
fn nerts_moves_batch<'py>(
    py: Python<'py>,
    states: &[u8],
) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
    let owned = states.to_vec();
    let (counts, moves) = py
        .detach(move || {
            let mut counts = Vec::new();
            let mut moves = Vec::new();
            nerts::generate_batch(&owned, &mut counts, &mut moves).map(|()| (counts, moves))
        })
        .map_err(|e| err(&e))?;
    Ok((PyBytes::new(py, &counts), PyBytes::new(py, &moves)))
}

/// Total number of legal moves over many concatenated states, repeated `repeat` times (GIL
/// released); the move-generation throughput kernel used by the benchmarks.
#[pyfunction]
#[pyo3(signature = (states, repeat = 1))]
fn nerts_count_batch(py: Python<'_>, states: &[u8], repeat: u32) -> PyResult<u64> {
    if states.len() % STATE_BYTES != 0 {
        return Err(PyValueError::new_err(
            "states must be a multiple of 32 bytes",
        ));
    }
    let owned = states.to_vec();
    py.detach(move || {
        let mut total = 0u64;
        for _ in 0..repeat {
            total += nerts::count_batch(&owned)?;
        }
        Ok(total)
    })
    .map_err(|e: NertsError| err(&e))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("NERTS_STATE_BYTES", STATE_BYTES)?;
    m.add_function(wrap_pyfunction!(nerts_moves, m)?)?;
    m.add_function(wrap_pyfunction!(nerts_move_codes, m)?)?;
    m.add_function(wrap_pyfunction!(nerts_moves_batch, m)?)?;
    m.add_function(wrap_pyfunction!(nerts_count_batch, m)?)?;
    Ok(())
}
