//! `cardcore._core`: thin PyO3 bindings over `cardcore-engine`. No game logic lives here; each
//! submodule converts types, maps errors and releases the GIL around long calls.

use pyo3::prelude::*;

mod budget;
mod cards;
mod errors;
mod meld;
mod nerts;
mod nerts_round;
mod random;
mod rl;
mod rl_episode;
mod spite;

/// The private extension module; the public API is the `cardcore` Python package.
#[pymodule(gil_used = false)]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("RNG_VERSION", cardcore_engine::rng::RNG_VERSION)?;
    cards::register(m)?;
    random::register(m)?;
    meld::register(m)?;
    spite::register(m)?;
    nerts::register(m)?;
    nerts_round::register(m)?;
    rl::register(m)?;
    rl_episode::register(m)?;
    Ok(())
}
