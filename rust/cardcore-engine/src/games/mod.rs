//! The games' rulebooks: each game's rules written once, behind one [`State`] trait that every
//! consumer uses (the embedding protocol through the one generic binding, RL, simulation and
//! the agents' searches).
//!
//! A rulebook lives in `games/<game>/` and ends with its [`GameInfo`] entry, listed in
//! [`GAMES`].

pub mod nerts;
pub mod spite_malice;
pub mod three_thirteen;

use thiserror::Error;

/// A move that is not legal now; the state is unchanged.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error("{0}")]
pub struct IllegalMove(pub String);

/// A state document (a state given field by field) that breaks the rules' invariants.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error("{0}")]
pub struct BadState(pub String);

/// A turn-based game in progress, mutable, copied with `clone`: the one interface of every
/// rulebook (OpenSpiel's `State`).
pub trait State: Clone + Send + Sync + 'static {
    /// Seats at the table.
    fn num_players(&self) -> usize;
    /// Size of the fixed action space of these options.
    fn num_actions(&self) -> usize;
    /// The seat to play; `None` once the game is over.
    fn current_player(&self) -> Option<usize>;
    /// Whether the game has ended.
    fn is_over(&self) -> bool;
    /// The legal action ids, sorted, each once (empty once over).
    fn legal_actions(&self) -> Vec<usize>;
    /// Writes 1 at every legal action id and 0 elsewhere (`num_actions` bytes).
    fn write_mask(&self, mask: &mut [u8]) {
        mask.fill(0);
        for a in self.legal_actions() {
            mask[a] = 1;
        }
    }
    /// Plays action id `action` for the seat to play.
    ///
    /// # Errors
    /// The action is not legal now (nothing changes).
    fn apply_action(&mut self, action: i64) -> Result<(), IllegalMove>;
    /// Plays action id `action`, which the caller has checked against the mask
    /// [`State::write_mask`] wrote for this very position (the batch engines do), so a game
    /// may skip its own legality check. The default checks anyway (an illegal action then
    /// changes nothing).
    fn apply_checked_action(&mut self, action: i64) {
        let _ = self.apply_action(action);
    }
    /// One utility per seat once the game is over (all zero before); higher is better.
    fn returns(&self) -> Vec<f64>;
    /// Length of [`State::write_observation`]'s tensor.
    fn observation_size(&self) -> usize;
    /// Writes what `seat` may see as a float tensor (`observation_size` floats).
    fn write_observation(&self, seat: usize, out: &mut [f32]);
    /// A state `seat` cannot tell apart from this one: what it has seen is kept, every card
    /// it has not seen is re-dealt uniformly from `seed` (future deals too).
    #[must_use]
    fn resample_hidden(&self, seat: usize, seed: u64) -> Self;
}

/// A real-time game in progress (Nerts): no seat waits for another. Every seat has its own
/// legal actions at every moment; a seat *submits* an action for a clock reading, and the
/// game's event clock runs the submitted actions (and those of the seats its own agents
/// play) in time order, checking each when it executes. Observations and masks are per seat.
pub trait RealtimeState: Clone + Send + Sync + 'static {
    /// Seats at the table.
    fn num_players(&self) -> usize;
    /// Size of the fixed action space of these options.
    fn num_actions(&self) -> usize;
    /// The clock (ms since the start).
    fn now(&self) -> i64;
    /// Whether the game has ended.
    fn is_over(&self) -> bool;
    /// `seat`'s legal action ids if they executed now, sorted, each once (empty once over).
    fn legal_actions(&self, seat: usize) -> Vec<usize>;
    /// Writes 1 at every legal action id of `seat` and 0 elsewhere (`num_actions` bytes).
    fn write_mask(&self, seat: usize, mask: &mut [u8]) {
        mask.fill(0);
        for a in self.legal_actions(seat) {
            mask[a] = 1;
        }
    }
    /// Whether `seat` has an action scheduled (a seat has at most one).
    fn is_pending(&self, seat: usize) -> bool;
    /// Schedules action id `action` of `seat` at clock `t_ms` (at or after now); whether it is
    /// legal is decided when it executes.
    ///
    /// # Errors
    /// The game is over, the id is out of range, `t_ms` is in the past or the seat already
    /// has an action scheduled (nothing changes).
    fn submit(&mut self, seat: usize, action: i64, t_ms: i64) -> Result<(), IllegalMove>;
    /// Executes the next event; false when the game is over or nothing is scheduled.
    fn step(&mut self) -> bool;
    /// Executes every event due by `t_ms` and moves the clock there.
    fn advance_to(&mut self, t_ms: i64);
    /// One utility per seat once the game is over (all zero before); higher is better.
    fn returns(&self) -> Vec<f64>;
    /// Length of [`RealtimeState::write_observation`]'s tensor.
    fn observation_size(&self) -> usize;
    /// Writes what `seat` may see as a float tensor (`observation_size` floats), seat-relative
    /// (the seat first, then the others in turn order).
    fn write_observation(&self, seat: usize, out: &mut [f32]);
    /// A state `seat` cannot tell apart from this one: what it has seen is kept, every card
    /// it has not seen is re-dealt uniformly from `seed`.
    #[must_use]
    fn resample_hidden(&self, seat: usize, seed: u64) -> Self;
}

/// Whether `cards` holds every card id `0..total` exactly once (the conservation check of
/// every rulebook's state documents).
pub fn is_permutation<C: Copy + Into<usize>>(
    cards: impl IntoIterator<Item = C>,
    total: usize,
) -> bool {
    let mut seen = vec![false; total];
    let mut n = 0;
    for c in cards {
        let c: usize = c.into();
        if c >= total || seen[c] {
            return false;
        }
        seen[c] = true;
        n += 1;
    }
    n == total
}

/// What the shared layers know of a game: its name and player counts.
#[derive(Clone, Copy, Debug)]
pub struct GameInfo {
    /// The registered name (`load_game(name)`).
    pub name: &'static str,
    /// Fewest seats.
    pub min_players: usize,
    /// Most seats.
    pub max_players: usize,
}

/// Every game with a rulebook here.
pub const GAMES: &[GameInfo] = &[three_thirteen::INFO, spite_malice::INFO, nerts::INFO];
