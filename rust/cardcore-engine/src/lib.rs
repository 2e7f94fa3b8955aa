//! Pure-Rust hot paths of cardcore. Nothing here knows about Python; `cardcore-py` binds it.
//!
//! * [`card`]: faces, physical ids, text notation.
//! * [`rng`] and [`shuffle`]: the versioned seeded generator and Fisher–Yates.
//! * [`meld`]: Three-Thirteen exact wildcard meld solver.
//! * [`spite`]: Spite & Malice turn planner.
//! * [`nerts`]: Nerts move generation.

pub mod card;
pub mod error;
pub mod meld;
pub mod nerts;
pub mod rng;
pub mod shuffle;
pub mod spite;
