//! The Nerts (Pounce, Racing Demon) move rules, once (the rules page, "Moves"): the foundation
//! rule, the work-pile rule, what may move from where to where, every legal move of one player
//! ([`generate`]) and whether one move is legal ([`is_legal`], over the packed view or the
//! table's layouts through [`Seat`]). The table, the built-in agents and the bindings ask here.
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

use crate::card::{
    ACE, KING, NATURALS, face, is_natural, is_red, natural_face, next_in_suit, rank, rank_of,
    suit_of,
};

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

// The move rules, once. The generator below, [`is_legal`] (over a [`PlayerView`] or the
// table's layouts, [`Seat`]) and the built-in agents ask these; nothing else states them.

/// The foundation rule: the face of the card that goes next on a foundation whose top card is
/// `top` (a face or physical id): the same suit, one rank up; none on a king. A card that
/// [`starts_foundation`] starts one of its own. The table's foundation cache
/// ([`super::Needs`]) moves on by these two functions.
#[inline]
#[must_use]
pub const fn foundation_next(top: u8) -> Option<u8> {
    let f = top % NATURALS; // its natural face
    if rank(f) < KING {
        Some(next_in_suit(f))
    } else {
        None
    }
}

/// Whether card `card` (a face or physical id) starts a foundation of its own: an ace.
#[inline]
#[must_use]
pub const fn starts_foundation(card: u8) -> bool {
    rank(card % NATURALS) == ACE
}

/// Whether card `card` may go on a foundation whose top card is `top` (cards are faces or
/// physical ids).
#[inline]
#[must_use]
pub fn builds_on_foundation(card: u8, top: u8) -> bool {
    foundation_next(top) == Some(natural_face(card))
}

/// Whether `card` fits some foundation whose top cards are `tops` now.
#[inline]
#[must_use]
pub fn fits_tops(card: u8, tops: impl IntoIterator<Item = u8>) -> bool {
    starts_foundation(card) || tops.into_iter().any(|t| builds_on_foundation(card, t))
}

/// Whether `card` fits some foundation of `foundations` (bottom to top) now.
#[inline]
#[must_use]
pub fn fits_foundations(card: u8, foundations: &[Vec<u8>]) -> bool {
    fits_tops(card, foundations.iter().filter_map(|f| f.last().copied()))
}

/// The faces that start a foundation ([`starts_foundation`]): the four aces.
const STARTERS: [u8; 4] = {
    let mut out = [0u8; 4];
    let (mut f, mut n) = (0, 0);
    while f < NATURALS {
        if starts_foundation(f) {
            out[n] = f;
            n += 1;
        }
        f += 1;
    }
    assert!(n == 4);
    out
};

/// The foundation rule counted: how many cards must land on foundations before `card` (a face
/// or physical id) fits one, the foundations' top cards being `tops` now (faces or ids): the
/// cards between a top and `card` along [`foundation_next`], or, on a foundation started
/// anew ([`starts_foundation`]), the starting card and those after it up to `card`; the
/// fewest of these, 0 when it fits now.
#[must_use]
pub fn foundation_gap(card: u8, tops: impl IntoIterator<Item = u8>) -> u8 {
    let face = natural_face(card);
    // the steps along the foundation rule from face `from` up to `face`, if it leads there
    let steps = |from: u8| -> Option<u8> {
        let (mut f, mut n) = (from, 0);
        while f != face {
            f = foundation_next(f)?;
            n += 1;
        }
        Some(n)
    };
    let anew = STARTERS.iter().filter_map(|&a| steps(a)).min();
    tops.into_iter()
        .filter_map(|t| steps(natural_face(t))?.checked_sub(1))
        .chain(anew)
        .min()
        .expect("every card is reached from a foundation's start")
}

/// Whether `card` fits some foundation given the need masks (`Needs::masks`: per suit, bit `r`
/// set when a rank-`r` card of that suit fits some foundation; aces are not in the masks).
#[inline]
#[must_use]
pub fn fits_masks(card: u8, masks: &[u16; 4]) -> bool {
    starts_foundation(card) || masks[usize::from(suit_of(card))] >> rank_of(card) & 1 == 1
}

/// The work key of a card of rank `rank` and colour `red`: `rank * 2 + red` (2..=27). The
/// work-pile rule reads a card by its rank and colour only, that is by its key.
#[inline]
#[must_use]
pub const fn key_of(rank: u8, red: bool) -> u8 {
    rank * 2 + red as u8
}

/// The rank of the cards of work key `key`.
#[inline]
#[must_use]
pub const fn key_rank(key: u8) -> u8 {
    key >> 1
}

/// [`key_of`] of every natural face, computed at compile time.
const WORK_KEYS: [u8; NATURALS as usize] = {
    let mut keys = [0u8; NATURALS as usize];
    let mut f = 0;
    while f < NATURALS {
        keys[f as usize] = key_of(rank(f), is_red(f));
        f += 1;
    }
    keys
};

/// The work key of natural face `face` ([`key_of`] its rank and colour).
#[inline]
#[must_use]
pub const fn work_key(face: u8) -> u8 {
    WORK_KEYS[face as usize]
}

/// The work-pile rule: a card of work key `key` goes on a work-pile card of key
/// `builds_on_key(key)`, one rank higher (`+ 2`) and of the other colour (`^ 1`), so every
/// work pile is a descending run of alternating colours.
#[inline]
#[must_use]
pub const fn builds_on_key(key: u8) -> u8 {
    (key + 2) ^ 1
}

/// The work-pile rule ([`builds_on_key`]) by rank and colour: a card of rank `rank` and
/// colour `red` goes on a work-pile card of rank `on_rank` and colour `on_red`.
#[inline]
#[must_use]
pub const fn builds_down_on(rank: u8, red: bool, on_rank: u8, on_red: bool) -> bool {
    key_of(on_rank, on_red) == builds_on_key(key_of(rank, red))
}

/// The work-pile rule for two natural faces: `card` builds down on `top`.
#[inline]
#[must_use]
pub const fn builds_down(card: u8, top: u8) -> bool {
    work_key(top) == builds_on_key(work_key(card))
}

/// Rank and colour of the card `depth` deep (1 = the top) in a work pile whose top card has
/// rank `top_rank` and colour `top_red` (a pile is a run: one rank up and the other colour per
/// card).
#[inline]
#[must_use]
pub const fn run_card(top_rank: u8, top_red: bool, depth: u8) -> (u8, bool) {
    (top_rank + depth - 1, top_red != ((depth - 1) & 1 == 1))
}

/// The run parity of work key `key`: `rank + red` modulo 2. Every card of a work pile has the
/// pile's parity (each card down is one rank up and the other colour), and a card builds down
/// only on a card of its own parity.
#[inline]
#[must_use]
pub const fn run_parity(key: u8) -> usize {
    ((key ^ (key >> 1)) & 1) as usize
}

/// Per run parity, bit `rank` set for the ranks of the natural faces in `faces` (bit `face`
/// for each face) of that parity: the ranks whose card of that parity's colour is in the set.
#[inline]
#[must_use]
pub fn ranks_by_parity(faces: u64) -> [u32; 2] {
    const ODD: u32 = 0xAAAA_AAAA; // bits of the odd ranks
    let ranks = |s: u8| ((faces >> face(ACE, s)) & 0x1FFF) as u32 * 2;
    let red = ranks(1) | ranks(2);
    let black = ranks(0) | ranks(3);
    [red & ODD | black & !ODD, red & !ODD | black & ODD]
}

/// The ranks of the pile tops that some segment of a work pile of `len` cards whose top has
/// rank `top_rank` may go onto ([`lift_depths`]): bit `top_rank + depth` for each depth (if
/// the target has the pile's [`run_parity`]).
#[inline]
#[must_use]
pub const fn lift_ranks(top_rank: u8, len: u8, partial: bool) -> u32 {
    if partial {
        ((1u32 << len) - 1) << (top_rank + 1)
    } else {
        1u32 << (top_rank + len)
    }
}

/// The work-pile rule for a segment: how many cards of a work pile of `len` cards whose top has
/// work key `top_key` may move onto a pile top of key `on_key` (`None` if no segment may): the
/// card one rank below the target's must be in the pile, within [`lift_depths`], and of the
/// other colour, that is of the target's [`run_parity`].
#[inline]
#[must_use]
pub fn lift_depth(top_key: u8, len: u8, partial: bool, on_key: u8) -> Option<u8> {
    let (r0, tr) = (key_rank(top_key), key_rank(on_key));
    if tr <= r0 || run_parity(top_key) != run_parity(on_key) {
        return None;
    }
    let k = tr - r0;
    lift_depths(len, partial).contains(&k).then_some(k)
}

/// What an empty work pile takes from source `src`: anything with `fill_any`, else only the
/// Nerts top.
#[inline]
#[must_use]
pub const fn fills_empty(src: u8, fill_any: bool) -> bool {
    fill_any || src == SRC_NERTS
}

/// The depths a work pile of `len` cards may move onto another pile: the whole pile, or with
/// `partial` any top segment.
#[inline]
#[must_use]
pub const fn lift_depths(len: u8, partial: bool) -> std::ops::RangeInclusive<u8> {
    (if partial { 1 } else { len })..=len
}

/// Whether a seat may flip: its stock has cards.
#[inline]
#[must_use]
pub const fn may_flip(stock: usize) -> bool {
    stock > 0
}

/// Whether a seat may recycle: its stock is empty, its waste is not, and it has passes left.
#[inline]
#[must_use]
pub const fn may_recycle(stock: usize, waste: usize, passes_left: bool) -> bool {
    stock == 0 && waste > 0 && passes_left
}

/// Whether a seat may call Nerts: its Nerts pile is empty.
#[inline]
#[must_use]
pub const fn may_call(nerts: usize) -> bool {
    nerts == 0
}

/// What the move rules read of one seat: the packed [`PlayerView`] and the table's layouts
/// (`Table::seat`) both give it, so [`is_legal`] is one function for both.
pub trait Seat {
    /// Whether the round takes moves.
    fn running(&self) -> bool;
    /// Work piles.
    fn num_work(&self) -> usize;
    /// Face of the top card of source `src` (Nerts pile, waste, work pile `src`); `None` when
    /// the pile is empty or there is no such source.
    fn top(&self, src: u8) -> Option<u8>;
    /// Cards in work pile `i` (`i < num_work`).
    fn work_len(&self, i: usize) -> usize;
    /// Rank and colour of the card `depth` deep in work pile `i` (`1 <= depth <= work_len`).
    fn work_card(&self, i: usize, depth: u8) -> (u8, bool);
    /// Whether natural face `face` fits some foundation now.
    fn fits_foundation(&self, face: u8) -> bool;
    /// Cards in the stock, the waste and the Nerts pile.
    fn counts(&self) -> (usize, usize, usize);
    /// Whether stock passes are left to recycle.
    fn passes_left(&self) -> bool;
    /// `allow_partial_pile_moves`.
    fn partial(&self) -> bool;
    /// Empty work piles take anything.
    fn fill_any(&self) -> bool;
}

impl Seat for PlayerView {
    fn running(&self) -> bool {
        self.flags & F_RUNNING != 0
    }

    fn num_work(&self) -> usize {
        usize::from(self.num_work).min(MAX_WORK)
    }

    fn top(&self, src: u8) -> Option<u8> {
        let t = match src {
            SRC_NERTS => self.nerts_top,
            SRC_WASTE => self.waste_top,
            i if usize::from(i) < MAX_WORK => self.work_top[usize::from(i)],
            _ => NONE,
        };
        (t != NONE).then_some(t)
    }

    fn work_len(&self, i: usize) -> usize {
        usize::from(self.work_len[i])
    }

    fn work_card(&self, i: usize, depth: u8) -> (u8, bool) {
        let top = self.work_top[i];
        run_card(rank(top), is_red(top), depth)
    }

    fn fits_foundation(&self, face: u8) -> bool {
        fits_masks(face, &self.need)
    }

    fn counts(&self) -> (usize, usize, usize) {
        (
            usize::from(self.stock),
            usize::from(self.waste),
            usize::from(self.nerts_count),
        )
    }

    fn passes_left(&self) -> bool {
        self.flags & F_RECYCLE != 0
    }

    fn partial(&self) -> bool {
        self.flags & F_PARTIAL != 0
    }

    fn fill_any(&self) -> bool {
        self.flags & F_FILL_ANY != 0
    }
}

/// Whether `seat` may make move `mv` now: exactly the moves [`generate`] lists, and a
/// flip, recycle or call whatever its other bytes. A foundation play that names its foundation
/// is not decided here (the view does not know foundation ids): `false`.
#[inline]
#[must_use]
pub fn is_legal<S: Seat>(seat: &S, mv: u32) -> bool {
    let [k, s, d, j] = mv.to_le_bytes();
    if !seat.running() {
        return false;
    }
    let (stock, waste, nerts) = seat.counts();
    match k {
        K_FOUNDATION => j == NONE && seat.top(s).is_some_and(|c| seat.fits_foundation(c)),
        K_WORK => {
            let (w, j) = (seat.num_work(), usize::from(j));
            if j >= w || usize::from(s) == j {
                return false;
            }
            let (r, red) = if s == SRC_NERTS || s == SRC_WASTE {
                match seat.top(s) {
                    Some(c) if d == 1 => (rank(c), is_red(c)),
                    _ => return false,
                }
            } else if usize::from(s) < w {
                let len = u8::try_from(seat.work_len(usize::from(s))).unwrap_or(u8::MAX);
                if d == 0 || !lift_depths(len, seat.partial()).contains(&d) {
                    return false;
                }
                seat.work_card(usize::from(s), d)
            } else {
                return false;
            };
            match seat.top(j as u8) {
                None => fills_empty(s, seat.fill_any()),
                Some(t) => builds_down_on(r, red, rank(t), is_red(t)),
            }
        }
        K_FLIP => may_flip(stock),
        K_RECYCLE => may_recycle(stock, waste, seat.passes_left()),
        K_CALL => may_call(nerts),
        _ => false,
    }
}

/// Writes every legal move of `v` into `out` (replacing its contents), in a fixed order:
/// foundation plays (Nerts, waste, work piles), Nerts → work, waste → work, work → work
/// (by source, target, depth), Flip, Recycle, `CallNerts`.
pub fn generate(v: &PlayerView, out: &mut MoveBuf) {
    out.len = 0;
    if !v.running() {
        return;
    }
    let nw = v.num_work();
    // The work key of each work pile's top card, read once.
    let mut tops = [None; MAX_WORK];
    for (slot, &t) in tops[..nw].iter_mut().zip(&v.work_top) {
        if t != NONE {
            *slot = Some(work_key(t));
        }
    }
    // Foundation plays.
    for s in [SRC_NERTS, SRC_WASTE] {
        if v.top(s).is_some_and(|c| v.fits_foundation(c)) {
            out.push(K_FOUNDATION, s, 1, NONE);
        }
    }
    for (i, &t) in v.work_top[..nw].iter().enumerate() {
        if t != NONE && v.fits_foundation(t) {
            out.push(K_FOUNDATION, i as u8, 1, NONE);
        }
    }
    let fill_any = v.fill_any();
    // Single cards from the Nerts pile and the waste.
    for src in [SRC_NERTS, SRC_WASTE] {
        let Some(c) = v.top(src) else {
            continue;
        };
        let on = builds_on_key(work_key(c));
        for (j, top) in tops[..nw].iter().enumerate() {
            let ok = match *top {
                None => fills_empty(src, fill_any),
                Some(key) => key == on,
            };
            if ok {
                out.push(K_WORK, src, 1, j as u8);
            }
        }
    }
    // Segments between work piles.
    let partial = v.partial();
    for i in 0..nw {
        let (len, Some(key0)) = (v.work_len[i], tops[i]) else {
            continue;
        };
        let depths = lift_depths(len, partial);
        let si = i as u8;
        for (j, top) in tops[..nw].iter().enumerate() {
            if j == i {
                continue;
            }
            let dj = j as u8;
            match *top {
                None => {
                    if fills_empty(si, fill_any) {
                        for k in depths.clone() {
                            out.push(K_WORK, si, k, dj);
                        }
                    }
                }
                Some(key) => {
                    if let Some(k) = lift_depth(key0, len, partial, key) {
                        out.push(K_WORK, si, k, dj);
                    }
                }
            }
        }
    }
    let (stock, waste, nerts) = v.counts();
    if may_flip(stock) {
        out.push(K_FLIP, 0, 0, 0);
    } else if may_recycle(stock, waste, v.passes_left()) {
        out.push(K_RECYCLE, 0, 0, 0);
    }
    if may_call(nerts) {
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
    use super::super::Needs;
    use super::*;
    use crate::card::{face, suit};

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

    /// The work-pile rule for every pair of faces: one rank lower, the other colour; and the
    /// run's cards below a top follow it.
    #[test]
    fn work_rule_every_face() {
        for f in 0..NATURALS {
            for t in 0..NATURALS {
                let want = rank(t) == rank(f) + 1 && (suit(t) % 3 == 0) != (suit(f) % 3 == 0);
                assert_eq!(builds_down(f, t), want, "{f} on {t}");
            }
            for d in 1..=(KING + 1 - rank(f)) {
                let (r, red) = run_card(rank(f), is_red(f), d);
                assert_eq!(r, rank(f) + d - 1);
                if d > 1 {
                    let (r1, red1) = run_card(rank(f), is_red(f), d - 1);
                    assert!(builds_down_on(r1, red1, r, red), "{f} depth {d}");
                }
            }
        }
    }

    /// The foundation rule for every pair of faces (deck 0 and deck 3 ids), and the table's
    /// [`Needs`] of one foundation against it.
    #[test]
    fn foundation_rule_every_face() {
        for c in 0..NATURALS {
            for t in 0..NATURALS {
                let want = suit(t) == suit(c) && rank(t) + 1 == rank(c);
                assert_eq!(builds_on_foundation(c, t), want, "{c} on {t}");
                assert_eq!(
                    builds_on_foundation(c + 156, t + 52),
                    want,
                    "{c} on {t} ids"
                );
                let piles = [vec![t]];
                let needs = Needs::of_piles(&piles);
                assert_eq!(fits_masks(c, &needs.masks()), want || rank(c) == ACE);
                assert_eq!(needs.fits(c + 52), want || rank(c) == ACE);
                assert_eq!(fits_foundations(c, &piles), want || rank(c) == ACE);
            }
        }
    }

    /// The foundation gap against its plain wording: a card of rank `r` is `r - 1` cards from
    /// a foundation of its own, `r - 1 - k` from one of its suit topped by rank `k < r`; no
    /// tops, one and two, every face (deck 0 and deck 2 ids).
    #[test]
    fn foundation_gap_counts_the_foundation_rule() {
        let plain = |c: u8, tops: &[u8]| -> u8 {
            let mut gap = rank(c) - 1;
            for &t in tops {
                if suit(t) == suit(c) && rank(t) < rank(c) {
                    gap = gap.min(rank(c) - 1 - rank(t));
                }
            }
            gap
        };
        for c in 0..NATURALS {
            assert_eq!(foundation_gap(c, []), rank(c) - 1, "{c}");
            for t in 0..NATURALS {
                let want = plain(c, &[t]);
                assert_eq!(foundation_gap(c, [t]), want, "{c} on {t}");
                assert_eq!(foundation_gap(c + 104, [t + 52]), want, "{c} on {t} ids");
                assert_eq!(
                    foundation_gap(c, [t]) == 0,
                    fits_tops(c, [t]),
                    "{c} fits {t}"
                );
                for u in 0..NATURALS {
                    assert_eq!(foundation_gap(c, [t, u]), plain(c, &[t, u]), "{c}: {t} {u}");
                }
            }
        }
    }

    /// The work-pile rule's statement over work keys, against its plain wording (one rank
    /// lower, the other colour) for every rank and colour pair, and a face's key is its rank
    /// and colour.
    #[test]
    fn work_keys_state_the_work_rule() {
        for f in 0..NATURALS {
            assert_eq!(work_key(f), key_of(rank(f), is_red(f)));
            assert_eq!(key_rank(work_key(f)), rank(f));
        }
        for r in ACE..=KING {
            for on in ACE..=KING {
                for (red, on_red) in [(false, false), (false, true), (true, false), (true, true)] {
                    let want = on == r + 1 && on_red != red;
                    assert_eq!(
                        builds_down_on(r, red, on, on_red),
                        want,
                        "{r} {red} on {on}"
                    );
                }
            }
        }
    }

    /// Every card of a run has the run's parity, and a card builds down only on a card of its
    /// own parity; [`ranks_by_parity`] sorts each face by it.
    #[test]
    fn run_parity_is_the_runs() {
        for f in 0..NATURALS {
            let p = run_parity(work_key(f));
            for d in 1..=(KING + 1 - rank(f)) {
                let (r, red) = run_card(rank(f), is_red(f), d);
                assert_eq!(run_parity(key_of(r, red)), p, "{f} depth {d}");
            }
            for t in 0..NATURALS {
                if builds_down(f, t) {
                    assert_eq!(run_parity(work_key(t)), p, "{f} on {t}");
                }
            }
            let mut want = [0u32; 2];
            want[p] = 1 << rank(f);
            assert_eq!(ranks_by_parity(1 << f), want, "{f}");
        }
        assert_eq!(ranks_by_parity((1 << NATURALS) - 1), [0x3ffe; 2]);
    }

    /// [`lift_ranks`] and [`lift_depth`] against the definition: each segment of a run in
    /// [`lift_depths`] whose bottom card [`run_card`] builds down on the target, for every
    /// top face, pile length, partial option and target face.
    #[test]
    fn lift_depth_is_the_segment_rule() {
        for f in 0..NATURALS {
            for len in 1..=(KING + 1 - rank(f)) {
                for partial in [false, true] {
                    let depths = lift_depths(len, partial);
                    let ranks = depths.clone().fold(0u32, |m, k| m | 1 << (rank(f) + k));
                    assert_eq!(lift_ranks(rank(f), len, partial), ranks);
                    for t in 0..NATURALS {
                        let fits = |&k: &u8| {
                            let (r, red) = run_card(rank(f), is_red(f), k);
                            builds_down_on(r, red, rank(t), is_red(t))
                        };
                        let want: Vec<u8> = depths.clone().filter(fits).collect();
                        assert!(want.len() <= 1);
                        assert_eq!(
                            lift_depth(work_key(f), len, partial, work_key(t)),
                            want.first().copied(),
                            "{len} from {f} onto {t}, partial {partial}"
                        );
                    }
                }
            }
        }
    }

    /// The foundation cache against the foundation rule in plain words (same suit, one rank
    /// up; aces always): two decks played out in an interleaved order and taken back, with
    /// every face's fit and the counts checked after each step.
    #[test]
    fn needs_follow_the_foundation_rule() {
        fn check(needs: &Needs, piles: &[Vec<u8>]) {
            for c in 0..NATURALS {
                let want = rank(c) == ACE
                    || piles.iter().any(|p| {
                        p.last()
                            .is_some_and(|&t| suit_of(t) == suit(c) && rank_of(t) + 1 == rank(c))
                    });
                assert_eq!(needs.fits(c), want, "{c} on {piles:?}");
            }
            assert_eq!(*needs, Needs::of_piles(piles));
            assert_eq!(Needs::from_counts(needs.counts()), *needs);
        }
        let mut needs = Needs::default();
        let mut piles: Vec<Vec<u8>> = Vec::new();
        let mut order = Vec::new();
        for r in ACE..=KING {
            for s in [2, 0, 3, 1] {
                order.extend([face(r, s) + 52, face(r, s)]);
            }
        }
        for &card in &order {
            let at = piles
                .iter()
                .position(|p| p.last().is_some_and(|&t| builds_on_foundation(card, t)));
            match at {
                Some(i) => piles[i].push(card),
                None => piles.push(vec![card]),
            }
            needs.played(card);
            check(&needs, &piles);
        }
        for &card in order.iter().rev() {
            let i = piles.iter().position(|p| p.last() == Some(&card)).unwrap();
            piles[i].pop();
            needs.taken_back(card);
            let kept: Vec<Vec<u8>> = piles.iter().filter(|p| !p.is_empty()).cloned().collect();
            check(&needs, &kept);
        }
        assert_eq!(needs, Needs::default());
    }
}
