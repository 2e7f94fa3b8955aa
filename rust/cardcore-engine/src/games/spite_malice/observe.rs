//! The observation tensor of a seat (the layout of `SpiteMaliceGame`, `docs/embedding.md`).
//!
//! In this order, seats relative to the observer (itself first): its hand's faces (counts), every
//! seat's pay-off top face, every side stack's top face and its cards' faces (counts), each
//! centre slot's effective rank (one-hot over [`CENTER_ROWS`]), the seat to play (one-hot,
//! none once over), then counts: pay-off piles, hands, side stacks, the stock, the used pile
//! and the turn.

use super::state::State;

/// Rows of one centre slot in the tensor (effective ranks 0..=12).
pub const CENTER_ROWS: usize = 13;

/// Writes `seat`'s tensor into `obs` (`observation_size` floats).
pub(super) fn write(st: &State, seat: usize, obs: &mut [f32]) {
    let r = &st.rules;
    let (p, f, n_sides) = (r.players, r.faces(), r.side_stacks);
    let payoff_tops = f;
    let side_tops = payoff_tops + p * f;
    let side_cards = side_tops + p * n_sides * f;
    let center = side_cards + p * n_sides * f;
    let to_move = center + r.slots() * CENTER_ROWS;
    let payoff_counts = to_move + p;
    let hand_sizes = payoff_counts + p;
    let side_sizes = hand_sizes + p;
    let counts = side_sizes + p * n_sides;
    obs.fill(0.0);
    for &c in &st.hands[seat] {
        obs[r.face(c)] += 1.0;
    }
    for rel in 0..p {
        let k = (seat + rel) % p;
        if let Some(&top) = st.payoffs[k].last() {
            obs[payoff_tops + rel * f + r.face(top)] += 1.0;
        }
        for (i, side) in st.sides[k].iter().enumerate() {
            let block = (rel * n_sides + i) * f;
            if let Some(&top) = side.last() {
                obs[side_tops + block + r.face(top)] += 1.0;
            }
            for &c in side {
                obs[side_cards + block + r.face(c)] += 1.0;
            }
            obs[side_sizes + rel * n_sides + i] = side.len() as f32;
        }
        obs[payoff_counts + rel] = st.payoffs[k].len() as f32;
        obs[hand_sizes + rel] = st.hands[k].len() as f32;
    }
    for (i, stack) in st.center.iter().enumerate() {
        obs[center + i * CENTER_ROWS + stack.len()] += 1.0;
    }
    if !st.over {
        obs[to_move + (st.current + p - seat) % p] += 1.0;
    }
    obs[counts] = st.stock.len() as f32;
    obs[counts + 1] = st.used.len() as f32;
    obs[counts + 2] = st.turn as f32;
}
