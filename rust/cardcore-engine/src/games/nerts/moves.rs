//! Nerts (Pounce, Racing Demon) move generation: every legal action of one player (the Nerts
//! rules page, "Moves").
//!
//! A player is described by a fixed 32-byte [`PlayerView`]; no heap work happens per call.
//! Because every work pile is a descending, alternating-colour run from its base card, a pile is
//! fully described for move generation by its length and its top face: the card at depth `k`
//! (1 = top) has rank `top_rank + k - 1` and the top's colour flipped `k - 1` times. The shared
//! foundations enter as one 16-bit mask per suit: bit `r` set means a card of rank `r` of that
//! suit can go on some foundation now (bit 1, the ace, is always set by the generator itself).
//!
//! State bytes (see `docs/replays.md`, section Nerts):
//!
//! | byte | meaning |
//! |---|---|
//! | 0 | Nerts pile count (0..=52) |
//! | 1 | Nerts top face (0..52), 255 if the pile is empty |
//! | 2 | stock count |
//! | 3 | waste count |
//! | 4 | waste top face, 255 if the waste is empty |
//! | 5 | number of work piles (1..=5) |
//! | 6 | flags: bit 0 partial pile moves allowed, bit 1 empty piles take anything (else only the Nerts top), bit 2 recycling allowed (passes left), bit 3 round running |
//! | 7 | reserved (0) |
//! | 8..13 | work pile lengths (0..=13) |
//! | 13..18 | work pile top faces (255 when empty) |
//! | 18..26 | four little-endian u16 foundation masks (clubs, diamonds, hearts, spades) |
//! | 26..32 | reserved (0) |
//!
//! A move is four bytes `[kind, src, depth, dst]`: kinds [`K_FOUNDATION`] (src, dst = 255 for
//! "auto"), [`K_WORK`] (src, depth, dst pile), [`K_FLIP`], [`K_RECYCLE`], [`K_CALL`]. Sources are
//! work piles `0..5`, [`SRC_WASTE`] and [`SRC_NERTS`].

use thiserror::Error;

use crate::card::{KING, NATURALS, is_natural, is_red, rank};

/// Bytes of one encoded player state.
pub const STATE_BYTES: usize = 32;
/// Bytes of one encoded move.
pub const MOVE_BYTES: usize = 4;
/// Most work piles a layout may have.
pub const MAX_WORK: usize = 5;
/// Upper bound on the number of legal moves of one state (20 pile pairs x 13 depths + the rest).
pub const MAX_MOVES: usize = 320;
/// "No card" / "auto target" marker.
pub const NONE: u8 = 255;

/// Source code of the waste top.
pub const SRC_WASTE: u8 = 5;
/// Source code of the Nerts top.
pub const SRC_NERTS: u8 = 6;

/// Foundation play `[0, src, 1, 255]` (target resolved at execution: lowest legal id).
pub const K_FOUNDATION: u8 = 0;
/// Work-pile build `[1, src, depth, dst]`.
pub const K_WORK: u8 = 1;
/// Flip `[2, 0, 0, 0]`.
pub const K_FLIP: u8 = 2;
/// Recycle `[3, 0, 0, 0]`.
pub const K_RECYCLE: u8 = 3;
/// Nerts call `[4, 0, 0, 0]`.
pub const K_CALL: u8 = 4;

/// Flag: any top segment may move (`allow_partial_pile_moves`).
pub const F_PARTIAL: u8 = 1;
/// Flag: empty work piles take any card or segment (`empty_work_pile_fill = "any"`).
pub const F_FILL_ANY: u8 = 2;
/// Flag: `Recycle` is allowed (stock passes left).
pub const F_RECYCLE: u8 = 4;
/// Flag: the round is running (no moves at all otherwise).
pub const F_RUNNING: u8 = 8;

/// An encoded player state that breaks the layout invariants.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("bad Nerts state #{index}: {why}")]
pub struct NertsError {
    /// Index of the state in a batch (0 for a single state).
    pub index: usize,
    /// What is wrong.
    pub why: &'static str,
}

/// What move generation needs to know about one player and the shared foundations.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlayerView {
    /// Cards in the Nerts pile.
    pub nerts_count: u8,
    /// Face of the Nerts top ([`NONE`] when empty).
    pub nerts_top: u8,
    /// Cards in the stock.
    pub stock: u8,
    /// Cards in the waste.
    pub waste: u8,
    /// Face of the waste top ([`NONE`] when empty).
    pub waste_top: u8,
    /// Number of work piles.
    pub num_work: u8,
    /// `F_*` flags.
    pub flags: u8,
    /// Work pile lengths.
    pub work_len: [u8; MAX_WORK],
    /// Work pile top faces ([`NONE`] when empty).
    pub work_top: [u8; MAX_WORK],
    /// Per suit, the ranks that can go on a foundation now (bit `r` for rank `r`).
    pub need: [u16; 4],
}

impl PlayerView {
    /// Reads and validates one 32-byte state.
    ///
    /// # Errors
    /// [`NertsError`] when a count, face or pile is impossible.
    pub fn decode(b: &[u8]) -> Result<Self, NertsError> {
        let bad = |why| NertsError { index: 0, why };
        if b.len() != STATE_BYTES {
            return Err(bad("a state is exactly 32 bytes"));
        }
        let mut v = Self {
            nerts_count: b[0],
            nerts_top: b[1],
            stock: b[2],
            waste: b[3],
            waste_top: b[4],
            num_work: b[5],
            flags: b[6],
            ..Self::default()
        };
        v.work_len.copy_from_slice(&b[8..13]);
        v.work_top.copy_from_slice(&b[13..18]);
        for (s, chunk) in b[18..26].chunks_exact(2).enumerate() {
            v.need[s] = u16::from_le_bytes([chunk[0], chunk[1]]);
        }
        let top_ok =
            |count: u8, top: u8| (count == 0) == (top == NONE) && (top == NONE || is_natural(top));
        if v.nerts_count > NATURALS || !top_ok(v.nerts_count, v.nerts_top) {
            return Err(bad("Nerts count and top disagree"));
        }
        if v.stock > NATURALS || v.waste > NATURALS || !top_ok(v.waste, v.waste_top) {
            return Err(bad("stock/waste count and top disagree"));
        }
        if v.num_work == 0 || usize::from(v.num_work) > MAX_WORK {
            return Err(bad("work pile count must be 1..=5"));
        }
        for i in 0..MAX_WORK {
            let (len, top) = (v.work_len[i], v.work_top[i]);
            if i >= usize::from(v.num_work) {
                if len != 0 || top != NONE {
                    return Err(bad("unused work pile slot must be empty"));
                }
                continue;
            }
            if !top_ok(len, top) || (len > 0 && rank(top) + len - 1 > KING) {
                return Err(bad("work pile length does not fit its top card"));
            }
        }
        if v.need.iter().any(|&m| m & !0x3ffe != 0) {
            return Err(bad("foundation masks use bits 1..=13 only"));
        }
        Ok(v)
    }

    /// The 32 bytes of this state.
    #[must_use]
    pub fn encode(&self) -> [u8; STATE_BYTES] {
        let mut b = [0u8; STATE_BYTES];
        b[0] = self.nerts_count;
        b[1] = self.nerts_top;
        b[2] = self.stock;
        b[3] = self.waste;
        b[4] = self.waste_top;
        b[5] = self.num_work;
        b[6] = self.flags;
        b[8..13].copy_from_slice(&self.work_len);
        b[13..18].copy_from_slice(&self.work_top);
        for s in 0..4 {
            b[18 + 2 * s..20 + 2 * s].copy_from_slice(&self.need[s].to_le_bytes());
        }
        b
    }
}

/// A fixed-capacity list of encoded moves (`u32` little-endian of `[kind, src, depth, dst]`).
#[derive(Clone, Debug)]
pub struct MoveBuf {
    moves: [u32; MAX_MOVES],
    len: usize,
}

impl Default for MoveBuf {
    fn default() -> Self {
        Self {
            moves: [0; MAX_MOVES],
            len: 0,
        }
    }
}

impl MoveBuf {
    /// The moves written by the last [`generate`].
    #[must_use]
    pub fn as_slice(&self) -> &[u32] {
        &self.moves[..self.len]
    }

    /// Number of moves.
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no moves.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    fn push(&mut self, kind: u8, src: u8, depth: u8, dst: u8) {
        // The capacity bound is proved by MAX_MOVES; `get_mut` keeps this panic-free anyway.
        if let Some(slot) = self.moves.get_mut(self.len) {
            *slot = u32::from_le_bytes([kind, src, depth, dst]);
            self.len += 1;
        }
    }
}

/// Encodes one move as its `u32`.
#[must_use]
pub const fn pack(kind: u8, src: u8, depth: u8, dst: u8) -> u32 {
    u32::from_le_bytes([kind, src, depth, dst])
}

/// Whether natural face `face` fits some foundation given the masks (the rulebook's rule:
/// [`super::fits_masks`]; a face is the id of deck 0).
#[inline]
fn fits_foundation(face: u8, need: &[u16; 4]) -> bool {
    super::fits_masks(face, need)
}

/// Whether a card of `rank`/`red` may go on a work pile whose top is `top` (not empty).
#[inline]
fn fits_work(card_rank: u8, card_red: bool, top: u8) -> bool {
    rank(top) == card_rank + 1 && is_red(top) != card_red
}

/// Writes every legal move of `v` into `out` (replacing its contents), in a fixed order:
/// foundation plays (Nerts, waste, work piles), Nerts → work, waste → work, work → work
/// (by source, target, depth), Flip, Recycle, `CallNerts`.
pub fn generate(v: &PlayerView, out: &mut MoveBuf) {
    out.len = 0;
    if v.flags & F_RUNNING == 0 {
        return;
    }
    let nw = usize::from(v.num_work).min(MAX_WORK);
    // Foundation plays.
    if v.nerts_top != NONE && fits_foundation(v.nerts_top, &v.need) {
        out.push(K_FOUNDATION, SRC_NERTS, 1, NONE);
    }
    if v.waste_top != NONE && fits_foundation(v.waste_top, &v.need) {
        out.push(K_FOUNDATION, SRC_WASTE, 1, NONE);
    }
    for i in 0..nw {
        let top = v.work_top[i];
        if top != NONE && fits_foundation(top, &v.need) {
            out.push(K_FOUNDATION, i as u8, 1, NONE);
        }
    }
    let fill_any = v.flags & F_FILL_ANY != 0;
    // Single cards from the Nerts pile and the waste.
    for (src, top) in [(SRC_NERTS, v.nerts_top), (SRC_WASTE, v.waste_top)] {
        if top == NONE {
            continue;
        }
        let (r, red) = (rank(top), is_red(top));
        for j in 0..nw {
            let t = v.work_top[j];
            let ok = if t == NONE {
                fill_any || src == SRC_NERTS
            } else {
                fits_work(r, red, t)
            };
            if ok {
                out.push(K_WORK, src, 1, j as u8);
            }
        }
    }
    // Segments between work piles.
    let partial = v.flags & F_PARTIAL != 0;
    for i in 0..nw {
        let len = v.work_len[i];
        if len == 0 {
            continue;
        }
        let top = v.work_top[i];
        let (r0, red0) = (rank(top), is_red(top));
        let first = if partial { 1 } else { len };
        for j in 0..nw {
            if j == i {
                continue;
            }
            let t = v.work_top[j];
            let (si, dj) = (i as u8, j as u8);
            if t == NONE {
                if fill_any {
                    for k in first..=len {
                        out.push(K_WORK, si, k, dj);
                    }
                }
            } else {
                // The only depth whose bottom card has rank top(j) - 1.
                let want = rank(t);
                if want > r0 {
                    let k = want - r0; // bottom rank r0 + k - 1 == want - 1
                    if k >= first && k <= len {
                        let red = red0 != ((k - 1) & 1 == 1);
                        if red != is_red(t) {
                            out.push(K_WORK, si, k, dj);
                        }
                    }
                }
            }
        }
    }
    if v.stock > 0 {
        out.push(K_FLIP, 0, 0, 0);
    } else if v.waste > 0 && v.flags & F_RECYCLE != 0 {
        out.push(K_RECYCLE, 0, 0, 0);
    }
    if v.nerts_count == 0 {
        out.push(K_CALL, 0, 0, 0);
    }
}

/// Moves of many concatenated 32-byte states: appends one count byte per state to `counts`
/// (as a `u16` little-endian pair) and the 4-byte moves to `moves`.
///
/// # Errors
/// [`NertsError`] with the index of the first invalid state; nothing is appended past it.
pub fn generate_batch(
    states: &[u8],
    counts: &mut Vec<u8>,
    moves: &mut Vec<u8>,
) -> Result<(), NertsError> {
    if states.len() % STATE_BYTES != 0 {
        return Err(NertsError {
            index: states.len() / STATE_BYTES,
            why: "length is not a multiple of 32",
        });
    }
    let n = states.len() / STATE_BYTES;
    counts.reserve(2 * n);
    moves.reserve(n * 16 * MOVE_BYTES);
    let mut buf = MoveBuf::default();
    for (index, chunk) in states.chunks_exact(STATE_BYTES).enumerate() {
        let v = PlayerView::decode(chunk).map_err(|e| NertsError { index, why: e.why })?;
        generate(&v, &mut buf);
        counts.extend_from_slice(&(buf.len as u16).to_le_bytes());
        for &m in buf.as_slice() {
            moves.extend_from_slice(&m.to_le_bytes());
        }
    }
    Ok(())
}

/// Total number of moves over many states without materialising them (the throughput kernel).
///
/// # Errors
/// As [`generate_batch`].
pub fn count_batch(states: &[u8]) -> Result<u64, NertsError> {
    if states.len() % STATE_BYTES != 0 {
        return Err(NertsError {
            index: states.len() / STATE_BYTES,
            why: "length is not a multiple of 32",
        });
    }
    let mut buf = MoveBuf::default();
    let mut total = 0u64;
    for (index, chunk) in states.chunks_exact(STATE_BYTES).enumerate() {
        let v = PlayerView::decode(chunk).map_err(|e| NertsError { index, why: e.why })?;
        generate(&v, &mut buf);
        total += buf.len as u64;
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::face;

    fn view() -> PlayerView {
        PlayerView {
            nerts_count: 5,
            nerts_top: face(7, 1), // 7d
            stock: 10,
            waste: 0,
            waste_top: NONE,
            num_work: 4,
            flags: F_PARTIAL | F_FILL_ANY | F_RECYCLE | F_RUNNING,
            work_len: [1, 1, 1, 0, 0],
            work_top: [face(8, 3), face(8, 2), face(9, 3), NONE, NONE],
            need: [0; 4],
        }
    }

    #[test]
    fn n1_build_colour_and_gap() {
        let mut b = MoveBuf::default();
        generate(&view(), &mut b);
        let m = b.as_slice();
        assert!(m.contains(&pack(K_WORK, SRC_NERTS, 1, 0)), "7d on 8s");
        assert!(!m.contains(&pack(K_WORK, SRC_NERTS, 1, 1)), "7d on 8h");
        assert!(!m.contains(&pack(K_WORK, SRC_NERTS, 1, 2)), "7d on 9s");
        assert!(m.contains(&pack(K_WORK, SRC_NERTS, 1, 3)), "7d to empty");
    }

    #[test]
    fn round_trip_bytes() {
        let v = view();
        assert_eq!(PlayerView::decode(&v.encode()), Ok(v));
        let mut bad = v.encode();
        bad[8] = 9; // 8s with 9 cards would need rank 16
        assert!(PlayerView::decode(&bad).is_err());
    }
}
