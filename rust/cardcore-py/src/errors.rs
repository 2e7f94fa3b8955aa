//! Every error that crosses the boundary, mapped here and only here to the pure-Python classes
//! of `cardcore.errors`: engine errors through [`EngineError`] (`.map_err(py_err)?`), bad
//! arguments through [`int_arg`], [`float_arg`], [`str_arg`] and the `*_error` constructors.
//! No other binding file names an exception class (the classes are private to this module).

use cardcore_engine::error::CardError;
use cardcore_engine::games::nerts::moves::NertsError;
use cardcore_engine::games::{BadState, IllegalMove};
use cardcore_engine::meld::MeldError;
use cardcore_engine::nerts_rollout::RolloutError;
use cardcore_engine::spite::PlanError;
use cardcore_engine::spite_actions::ActionError;
use cardcore_engine::three_thirteen_expert::ExpertError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt, PyIterator, PyString};

/// The classes of `cardcore.errors` (private: other modules use the constructors below).
mod classes {
    pyo3::import_exception!(cardcore.errors, ArgumentRangeError);
    pyo3::import_exception!(cardcore.errors, ArgumentTypeError);
    pyo3::import_exception!(cardcore.errors, CardParseError);
    pyo3::import_exception!(cardcore.errors, IllegalMoveError);
    pyo3::import_exception!(cardcore.errors, OptionError);
    pyo3::import_exception!(cardcore.errors, StateFormatError);
}
use classes::{
    ArgumentRangeError, ArgumentTypeError, CardParseError, IllegalMoveError, OptionError,
    StateFormatError,
};

/// `EngineError` with one variant per engine error type, and `From` each of them (so
/// `.map_err(py_err)?` takes any): every variant is written once.
macro_rules! engine_errors {
    ($($(#[$doc:meta])* $variant:ident($ty:ty)),* $(,)?) => {
        /// An engine error on its way to Python (a local type, for the orphan rule).
        #[derive(Debug)]
        pub enum EngineError {
            $($(#[$doc])* $variant($ty)),*
        }

        $(impl From<$ty> for EngineError {
            fn from(e: $ty) -> Self {
                Self::$variant(e)
            }
        })*
    };
}

engine_errors!(
    /// Card text that cannot be read: `CardParseError`.
    Card(CardError),
    /// Meld-solver input: `CardParseError` for a bad face, else `OptionError`.
    Meld(MeldError),
    /// Three-Thirteen expert table: as [`EngineError::Meld`], or `OptionError`.
    Expert(ExpertError),
    /// Spite & Malice planner input: `OptionError`.
    Plan(PlanError),
    /// Spite & Malice action layout: `OptionError`; piles it cannot read: `StateFormatError`.
    Actions(ActionError),
    /// An encoded Nerts state: `OptionError`.
    Nerts(NertsError),
    /// A Nerts look-ahead position or request: `OptionError`.
    Rollout(RolloutError),
    /// A move a rulebook refuses now: `IllegalMoveError`.
    Illegal(IllegalMove),
    /// A state a rulebook cannot be given: `StateFormatError`.
    State(BadState),
);

impl From<EngineError> for PyErr {
    fn from(e: EngineError) -> Self {
        match e {
            EngineError::Card(e) => CardParseError::new_err(e.to_string()),
            EngineError::Meld(e @ MeldError::BadFace(_))
            | EngineError::Expert(ExpertError::Meld(e @ MeldError::BadFace(_))) => {
                CardParseError::new_err(e.to_string())
            }
            EngineError::Meld(e) => OptionError::new_err(e.to_string()),
            EngineError::Expert(e) => OptionError::new_err(e.to_string()),
            EngineError::Plan(e) => OptionError::new_err(e.to_string()),
            EngineError::Actions(e @ ActionError::NoRank(..)) => {
                OptionError::new_err(e.to_string())
            }
            EngineError::Actions(e) => StateFormatError::new_err(e.to_string()),
            EngineError::Nerts(e) => OptionError::new_err(e.to_string()),
            EngineError::Rollout(e) => OptionError::new_err(e.to_string()),
            EngineError::Illegal(e) => IllegalMoveError::new_err(e.to_string()),
            EngineError::State(e) => StateFormatError::new_err(e.to_string()),
        }
    }
}

/// Any engine error as its `cardcore.errors` exception: `.map_err(py_err)?`.
pub fn py_err(e: impl Into<EngineError>) -> PyErr {
    PyErr::from(e.into())
}

/// A bad argument value: `OptionError`.
pub fn option_error(msg: impl Into<String>) -> PyErr {
    OptionError::new_err(msg.into())
}

/// Card text or a card value that cannot be read: `CardParseError`.
pub fn card_parse_error(msg: impl Into<String>) -> PyErr {
    CardParseError::new_err(msg.into())
}

/// A state document that cannot be read: `StateFormatError`.
pub fn state_format_error(msg: impl Into<String>) -> PyErr {
    StateFormatError::new_err(msg.into())
}

/// An action the rules forbid now (nothing was played): `IllegalMoveError`.
pub fn illegal_move_error(msg: impl Into<String>) -> PyErr {
    IllegalMoveError::new_err(msg.into())
}

/// An allocation the machine cannot make: the built-in `MemoryError` (not a bad argument).
pub fn memory_error(msg: impl Into<String>) -> PyErr {
    pyo3::exceptions::PyMemoryError::new_err(msg.into())
}

/// An argument of the wrong type: `ArgumentTypeError` (also a `TypeError`).
pub fn type_error(msg: impl Into<String>) -> PyErr {
    ArgumentTypeError::new_err(msg.into())
}

/// An `int` argument outside its range: `ArgumentRangeError` (also a `ValueError` and an
/// `OverflowError`).
pub fn range_error(msg: impl Into<String>) -> PyErr {
    ArgumentRangeError::new_err(msg.into())
}

/// A bound as people write it: `2**64-1` rather than twenty digits.
fn bound_text(v: i128) -> String {
    match v {
        _ if v == i128::from(u64::MAX) => "2**64-1".to_owned(),
        _ if v == i128::from(i64::MAX) => "2**63-1".to_owned(),
        _ if v == i128::from(u32::MAX) => "2**32-1".to_owned(),
        _ => v.to_string(),
    }
}

/// An `int` argument (never a `bool`) in `lo..=hi`, converted to `T` (which must hold that
/// range): `ArgumentTypeError` for another type, `ArgumentRangeError` naming `name` and the
/// range otherwise.
pub fn int_arg<T: TryFrom<i128>>(
    obj: &Bound<'_, PyAny>,
    name: &str,
    lo: i128,
    hi: i128,
) -> PyResult<T> {
    if obj.is_instance_of::<PyBool>() || !obj.is_instance_of::<PyInt>() {
        let ty = obj.get_type().name()?;
        return Err(type_error(format!("{name} must be an int, not {ty}")));
    }
    obj.extract::<i128>()
        .ok()
        .filter(|v| (lo..=hi).contains(v))
        .and_then(|v| T::try_from(v).ok())
        .ok_or_else(|| {
            range_error(format!(
                "{name} must be an int in {}..{}, got {obj}",
                bound_text(lo),
                bound_text(hi)
            ))
        })
}

/// A seed-like `int` in `0..2**64`.
pub fn seed_arg(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<u64> {
    int_arg(obj, name, 0, i128::from(u64::MAX))
}

/// A number (`int` or `float`): `ArgumentTypeError` for anything else.
pub fn float_arg(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<f64> {
    obj.extract::<f64>()
        .map_err(|_| match obj.get_type().name() {
            Ok(ty) => type_error(format!("{name} must be a number, not {ty}")),
            Err(e) => e,
        })
}

/// A `str` argument: `ArgumentTypeError` for anything else.
pub fn str_arg<'a>(obj: &'a Bound<'_, PyAny>, name: &str) -> PyResult<&'a str> {
    match obj.cast::<PyString>() {
        Ok(s) => s.to_str(),
        Err(_) => Err(type_error(format!(
            "{name} must be a str, not {}",
            obj.get_type().name()?
        ))),
    }
}

/// `iter(obj)`: `ArgumentTypeError` ("`name` must be `what`, not ...") when it is not iterable.
pub fn iter_arg<'py>(
    obj: &Bound<'py, PyAny>,
    name: &str,
    what: &str,
) -> PyResult<Bound<'py, PyIterator>> {
    obj.try_iter().map_err(|_| match obj.get_type().name() {
        Ok(ty) => type_error(format!("{name} must be {what}, not {ty}")),
        Err(e) => e,
    })
}
