//! The experts' search budget from Python.

use std::time::Duration;

use pyo3::PyResult;

use crate::errors::option_error;

/// A time budget in milliseconds (`None`: the rollout budget) as a duration; `OptionError`
/// unless it is finite and positive.
pub fn time_limit(ms: Option<f64>) -> PyResult<Option<Duration>> {
    match ms {
        Some(ms) if ms.is_finite() && ms > 0.0 => Ok(Some(Duration::from_secs_f64(ms / 1e3))),
        Some(ms) => Err(option_error(format!(
            "time budget must be > 0 ms, got {ms}"
        ))),
        None => Ok(None),
    }
}
