//! Engine errors as the pure-Python classes of `cardcore.errors`.

use cardcore_engine::error::CardError;
use pyo3::PyErr;

pyo3::import_exception!(cardcore.errors, CardParseError);
pyo3::import_exception!(cardcore.errors, IllegalMoveError);
pyo3::import_exception!(cardcore.errors, OptionError);

/// Local newtype so engine errors convert into `PyErr` (orphan rule).
pub struct PyCardError(pub CardError);

impl From<PyCardError> for PyErr {
    fn from(e: PyCardError) -> Self {
        CardParseError::new_err(e.0.to_string())
    }
}
