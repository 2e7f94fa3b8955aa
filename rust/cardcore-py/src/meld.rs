//! Bindings of `cardcore_engine::meld` (placeholder until its game's issue fills it).

use pyo3::prelude::*;

pub fn register(_m: &Bound<'_, PyModule>) -> PyResult<()> {
    Ok(())
}
