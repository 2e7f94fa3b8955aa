//! Typed errors of the engine; the bindings map each variant to a `cardcore.errors` class.

use thiserror::Error;

/// A card token or card list that cannot be read.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum CardError {
    /// A malformed token.
    #[error("bad card token {token:?}: {why}")]
    BadToken {
        /// The token as written.
        token: String,
        /// What is wrong with it.
        why: String,
    },
    /// More jokers in one text than faces for them (`X204` is the last).
    #[error("too many jokers: at most X1..X204")]
    TooManyJokers,
}
