//! Pure-Rust hot paths of cardcore. Nothing here knows about Python; `cardcore-py` binds it.
//!
//! * [`card`]: faces, physical ids, text notation.
//! * [`rng`] and [`shuffle`]: the versioned seeded generator and Fisher–Yates.
//! * [`meld`]: Three-Thirteen exact wildcard meld solver; [`three_thirteen_hard`]: the `hard`
//!   agent's decisions; [`three_thirteen_expert`]: the `expert` agent's determinized search;
//!   [`three_thirteen_value`]: its learned values of a position and a draw (`search="valuedraw"`);
//!   [`three_thirteen_batch`]: many games stepped together (RL).
//! * [`spite`]: Spite & Malice turn planner; [`spite_expert`]: the `expert` agent's search;
//!   [`spite_actions`]: legal action ids and their meaning (the rulebook's);
//!   [`spite_episode`]: one game of the rulebook stepped natively (RL).
//! * [`nerts_rollout`]: Nerts look-ahead simulator;
//!   [`nerts_round`]: whole rounds of the built-in agents.
//! * [`games`]: the rulebooks, one per game, behind one `State` trait
//!   ([`games::three_thirteen`], [`games::spite_malice`], [`games::nerts`]; Nerts move
//!   generation: [`games::nerts::moves`]).
//! * [`hash`]: the one fast hasher of the memo tables.
//! * [`paired`]: the experts' paired comparison of candidate moves over shared deals.

pub mod batch;
pub mod card;
pub mod error;
pub mod games;
pub mod hash;
pub mod meld;
pub mod nerts_rollout;
pub mod nerts_round;
pub mod paired;
pub mod rng;
pub mod shuffle;
pub mod spite;
pub mod spite_actions;
pub mod spite_episode;
pub mod spite_expert;
pub mod three_thirteen_batch;
pub mod three_thirteen_expert;
pub mod three_thirteen_hard;
pub mod three_thirteen_infer;
pub mod three_thirteen_value;
pub mod three_thirteen_win;
