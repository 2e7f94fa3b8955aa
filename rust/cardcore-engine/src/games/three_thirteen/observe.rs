//! The observation tensor: what one seat may see, as floats (layout in `docs/embedding.md`,
//! the Python `observation_layout`).

use super::state::{Phase, State};
use crate::card;

/// Faces in tensors and action ids: the 52 naturals and one for every joker.
pub const FACES: usize = card::JOKER0 as usize + 1;

/// The most seats at a table (`INFO.max_players`).
const MAX_SEATS: usize = super::INFO.max_players;

/// Offsets of the tensor's segments.
#[derive(Clone, Copy, Debug)]
struct Layout {
    hand: usize,
    drawn: usize,
    discard_top: usize,
    discard_pile: usize,
    taken: usize,
    discarded: usize,
    wild_rank: usize,
    phase: usize,
    to_move: usize,
    dealer: usize,
    went_out: usize,
    hand_sizes: usize,
    totals: usize,
    stock_size: usize,
    size: usize,
}

impl Layout {
    const fn new(p: usize) -> Self {
        let hand = 0;
        let drawn = hand + FACES;
        let discard_top = drawn + FACES;
        let discard_pile = discard_top + FACES;
        let taken = discard_pile + FACES;
        let discarded = taken + (p - 1) * FACES;
        let wild_rank = discarded + p * FACES;
        let phase = wild_rank + 13;
        let to_move = phase + 2;
        let dealer = to_move + p;
        let went_out = dealer + p;
        let hand_sizes = went_out + p;
        let totals = hand_sizes + p;
        let stock_size = totals + p;
        Self {
            hand,
            drawn,
            discard_top,
            discard_pile,
            taken,
            discarded,
            wild_rank,
            phase,
            to_move,
            dealer,
            went_out,
            hand_sizes,
            totals,
            stock_size,
            size: stock_size + 5,
        }
    }
}

/// Length of the tensor at a table of `players`.
#[must_use]
pub const fn observation_size(players: usize) -> usize {
    Layout::new(players).size
}

/// Writes `seat`'s tensor into `out`: the drawn card and whether it came from the discard
/// pile only for the seat to play.
pub fn write(st: &State, seat: usize, out: &mut [f32]) {
    let lay = Layout::new(st.rules.players);
    out.fill(0.0);
    let p = st.rules.players;
    // seat `s` sits `rel(s)` places after `seat` (no division in the loops below)
    let rel = |s: usize| if s >= seat { s - seat } else { s + p - seat };
    let over = st.phase == Phase::Over;
    let mine = !over && seat == st.play.current;
    let face = |c: u8| st.rules.face(c);
    for &c in &st.play.hands[seat] {
        out[lay.hand + face(c)] += 1.0;
    }
    if let (true, Some(d)) = (mine && st.phase == Phase::Discard, st.drawn) {
        out[lay.drawn + face(d)] += 1.0;
    }
    if let Some(&top) = st.play.pile.last() {
        out[lay.discard_top + face(top)] += 1.0;
        let pile = &mut out[lay.discard_pile..lay.discard_pile + FACES];
        for &c in &st.play.pile {
            pile[face(c)] += 1.0;
        }
    }
    for r in 1..p {
        let base = lay.taken + (r - 1) * FACES;
        let k = if seat + r < p { seat + r } else { seat + r - p };
        for &c in &st.play.taken[k] {
            out[base + face(c)] += 1.0;
        }
    }
    // each seat's discards: its block of the tensor, found once per seat
    let mut blocks = [0usize; MAX_SEATS];
    for (s, b) in blocks.iter_mut().enumerate().take(p) {
        *b = rel(s) * FACES;
    }
    let discarded = &mut out[lay.discarded..lay.discarded + p * FACES];
    for &(s, c) in &st.discards {
        discarded[blocks[usize::from(s)] + face(c)] += 1.0;
    }
    out[lay.wild_rank + st.round as usize + 1] += 1.0;
    if !over {
        out[lay.phase + usize::from(st.phase == Phase::Discard)] += 1.0;
        out[lay.to_move + rel(st.play.current)] += 1.0;
    }
    out[lay.dealer + rel(st.dealer)] += 1.0;
    if let Some(o) = st.play.out {
        out[lay.went_out + rel(o)] += 1.0;
    }
    for r in 0..p {
        let k = if seat + r < p { seat + r } else { seat + r - p };
        out[lay.hand_sizes + r] = st.play.hands[k].len() as f32;
        out[lay.totals + r] = st.totals[k] as f32;
    }
    out[lay.stock_size] = st.play.stock.len() as f32;
    out[lay.stock_size + 1] = st.round as f32;
    out[lay.stock_size + 2] = st.play.own_turns[seat] as f32;
    out[lay.stock_size + 3] = st.play.turns as f32;
    out[lay.stock_size + 4] = if mine && st.drawn_from_discard {
        1.0
    } else {
        0.0
    };
}
