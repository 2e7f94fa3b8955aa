//! Card text parsing and formatting.

use cardcore_engine::card;
use pyo3::prelude::*;

use crate::errors::PyCardError;

/// Parses card text into `(face, deck or None)` pairs.
#[pyfunction]
fn parse_cards(text: &str) -> PyResult<Vec<(u8, Option<u16>)>> {
    let tokens = card::parse_cards(text).map_err(PyCardError)?;
    Ok(tokens.into_iter().map(|t| (t.face, t.deck)).collect())
}

/// Canonical text of a face code (0..56).
#[pyfunction]
fn format_face(face: u8) -> PyResult<String> {
    if face >= card::JOKER0 + card::MAX_JOKERS {
        return Err(pyo3::exceptions::PyValueError::new_err(format!(
            "face code {face} out of range 0..55"
        )));
    }
    Ok(card::format_face(face))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(parse_cards, m)?)?;
    m.add_function(wrap_pyfunction!(format_face, m)?)?;
    Ok(())
}
