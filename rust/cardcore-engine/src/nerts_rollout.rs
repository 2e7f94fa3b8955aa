//! Nerts rollouts: plays sampled deals forward in real time with the greedy policy. The `hard`
//! agent scores each of its candidate moves by the mean score difference these rollouts reach
//! (Monte Carlo over the cards it cannot see): [`choose`] races the candidates over the
//! sampled deals, [`evaluate`] gives every value, [`knowledge`] turns what a seat sees into the
//! simulator's input.
//!
//! The rollouts play the rulebook's table ([`crate::games::nerts::Table`]) in its lean mode (no
//! undo log, no foundation piles): its legality, its moves and its scores. Beside it they keep
//! the greedy policy's caches of each seat's work piles (`Side`, refreshed after every
//! apply). The clock is the agents' own model of the rulebook's ([`crate::games::nerts::Round`],
//! the rules page's "Table speeds": log-normal reaction delays, here drawn from 256 quantiles
//! per action class, misses, validation at execution, retries, sleeping until a foundation
//! changes, the round ending when a Nerts call executes, or with `auto_call_nerts` the moment
//! a Nerts pile empties, as [`RuleTable::auto_calls`] says); it leaves out what a short
//! look-ahead does not need: stalemate remedies and the event log. A remedy already made is part of the
//! position: after a `flip_one` remedy a seat's [`SeatKnowledge::flip_count`] is 1, and its
//! simulated seat flips one card at a time, as the table does. The greedy policy is the built-in
//! `greedy` agent's ([`crate::nerts_round`]).
//!
//! The inputs give cards as faces `0..52` per seat (the owner is the seat), and a seat's stock
//! and waste as one list in *cycle order* (the order the cards come off the stock in a pass):
//! the first `waste` entries are the waste from bottom to top, the rest the stock from top to
//! bottom.

use std::sync::OnceLock;

use thiserror::Error;

use crate::card::{KING, NATURALS, deck_of, is_natural, natural_face};
use crate::games::nerts::moves::{
    K_CALL, K_FLIP, K_FOUNDATION, K_RECYCLE, K_WORK, MAX_WORK, NONE, SRC_NERTS, SRC_WASTE,
    builds_on_key, fills_empty, key_rank, lift_depth, lift_ranks, may_call, may_flip, may_recycle,
    pack, ranks_by_parity, run_parity, work_key,
};
use crate::games::nerts::{
    Cycle, Layout, Needs, Pile, Rules as RuleOptions, Seats, StalemateRule, Table as RuleTable,
    WORK_CARDS, WorkPiles, builds_down, depth, dst, kind, src,
};
use crate::rng::{CardRng, splitmix64};

pub use crate::games::nerts::MAX_SEATS;
const THINK: u32 = u32::MAX;
const NO_MOVE: u32 = u32::MAX - 1;

/// Reaction delays of a table speed (the rules page's "Table speeds"), in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Timing {
    /// Median delay of a foundation play.
    pub m_play: f64,
    /// Median delay of a single-card work-pile build.
    pub m_build: f64,
    /// Median delay of a segment move.
    pub m_seq: f64,
    /// Median delay of a flip or recycle.
    pub m_flip: f64,
    /// Median delay of the Nerts call.
    pub m_call: f64,
    /// Log-normal sigma.
    pub sigma: f64,
    /// Probability of overlooking the chosen foundation play.
    pub miss: f64,
    /// Smallest delay.
    pub min_ms: u32,
    /// Largest delay.
    pub max_ms: u32,
    /// Wait before re-planning after a failed action.
    pub retry_ms: u32,
}

/// The table options a rollout needs (the rules page's "Variants").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Work piles per seat (4 or 5).
    pub num_work: u8,
    /// Cards turned per flip (3 or 1).
    pub flip_count: u8,
    /// Any top segment may move (`allow_partial_pile_moves`).
    pub partial: bool,
    /// Empty piles take any card (`empty_work_pile_fill = "any"`).
    pub fill_any: bool,
    /// Recycles allowed per seat (`u32::MAX` = unlimited).
    pub max_recycles: u32,
    /// The round ends the moment a Nerts pile empties (`auto_call_nerts`), without the call.
    pub auto_call: bool,
    /// Points per own card on a foundation.
    pub foundation_points: i32,
    /// Points lost per card left in the Nerts pile.
    pub nerts_penalty: i32,
    /// Points for the caller.
    pub nerts_bonus: i32,
}

/// What the deciding seat knows of one seat. Unknown cards (the Nerts cards under the top and
/// `NONE` entries of `cycle`) are drawn from `pool` anew for every sample; the pool may hold more
/// cards than there are unknown places (a position set up by hand).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SeatKnowledge {
    /// Cards in the Nerts pile.
    pub nerts_count: u8,
    /// Face of the Nerts top (`NONE` when the pile is empty).
    pub nerts_top: u8,
    /// Work piles, bottom to top.
    pub work: Vec<Vec<u8>>,
    /// Stock and waste in cycle order; `NONE` marks a card not known.
    pub cycle: Vec<u8>,
    /// How many entries of `cycle` are the waste.
    pub waste: u8,
    /// The cards that fill the unknown places, in any order.
    pub pool: Vec<u8>,
    /// Recycles done so far this round.
    pub recycles: u32,
    /// Cards of this seat on foundations.
    pub found: u8,
    /// Cards this seat turns per flip now (1 after a `flip_one` stalemate remedy); 0 for the
    /// table's [`Rules::flip_count`].
    pub flip_count: u8,
}

/// What every seat shows the table, in physical card ids (`seat * 52 + face`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PublicSeat {
    /// Cards in the Nerts pile.
    pub nerts_count: u8,
    /// The Nerts top.
    pub nerts_top: Option<u8>,
    /// Work piles, bottom to top.
    pub work: Vec<Vec<u8>>,
    /// Cards in the waste.
    pub waste_count: u8,
    /// Cards in the stock.
    pub stock_count: u8,
    /// The waste top.
    pub waste_top: Option<u8>,
    /// Cards the seat turns per flip now (everyone sees how many it turns: 1 after a
    /// `flip_one` stalemate remedy); 0 for the table's [`Rules::flip_count`].
    pub flip_count: u8,
    /// Times the seat has turned its waste over this round (everyone sees it do so); for
    /// the deciding seat [`knowledge`] takes its `recycles` argument instead.
    pub recycles: u32,
}

impl PublicSeat {
    /// What a rulebook table's seat `p` shows everyone.
    #[must_use]
    pub fn of(p: &Layout) -> Self {
        Self {
            nerts_count: p.nerts.len() as u8,
            nerts_top: p.nerts.last().copied(),
            work: p.work.to_vecs(),
            waste_count: p.cycle.waste_len() as u8,
            stock_count: p.cycle.stock_len() as u8,
            waste_top: p.cycle.waste_top(),
            flip_count: p.flip_count,
            recycles: p.recycles,
        }
    }
}

/// Every seat as seat `me` may know it (faces `0..52` per seat, [`NONE`] for a card it has not
/// seen): what the table shows, plus `me`'s own stock and waste in cycle order as far as it
/// remembers them (`None` = not seen) and its recycles; for each seat the pool of its cards
/// that are neither visible, remembered, nor on a foundation, its flip count and its recycles
/// (public: every seat's [`PublicSeat::recycles`], so that a simulated seat with a
/// `stock_passes` limit recycles only the passes it has left). Also the foundation needs.
///
/// # Errors
/// [`RolloutError`] for a card that is not the seat's own or a memory that does not fit.
pub fn knowledge(
    players: &[PublicSeat],
    foundation_piles: &[Vec<u8>],
    me: usize,
    own_cycle: &[Option<u8>],
    recycles: u32,
) -> Result<(Vec<SeatKnowledge>, [[u8; 16]; 4]), RolloutError> {
    let need = Needs::of_piles(foundation_piles).counts();
    let mut on_foundations = [0u64; MAX_SEATS];
    for &c in foundation_piles.iter().flatten() {
        if let Some(bits) = on_foundations.get_mut(usize::from(deck_of(c))) {
            *bits |= 1 << natural_face(c);
        }
    }
    let mut out = Vec::with_capacity(players.len());
    for (seat, p) in players.iter().enumerate().take(MAX_SEATS) {
        let own = |c: u8| -> Result<u8, RolloutError> {
            (usize::from(deck_of(c)) == seat)
                .then(|| natural_face(c))
                .ok_or_else(|| {
                    RolloutError(format!("seat {seat}: card id {c} is not one of its cards"))
                })
        };
        let (cycle, rec) = if seat == me {
            let cycle = own_cycle
                .iter()
                .map(|c| c.map_or(Ok(NONE), own))
                .collect::<Result<Vec<u8>, _>>()?;
            (cycle, recycles)
        } else {
            let mut cycle = vec![NONE; usize::from(p.waste_count) + usize::from(p.stock_count)];
            if let (Some(top), Some(slot)) = (
                p.waste_top,
                usize::from(p.waste_count)
                    .checked_sub(1)
                    .and_then(|i| cycle.get_mut(i)),
            ) {
                *slot = own(top)?;
            }
            (cycle, p.recycles)
        };
        let work = p
            .work
            .iter()
            .map(|pile| pile.iter().map(|&c| own(c)).collect())
            .collect::<Result<Vec<Vec<u8>>, _>>()?;
        let nerts_top = p.nerts_top.map_or(Ok(NONE), own)?;
        let mut seen = on_foundations[seat];
        for &f in work.iter().flatten().chain(&cycle).chain([&nerts_top]) {
            if f != NONE {
                seen |= 1 << f;
            }
        }
        out.push(SeatKnowledge {
            nerts_count: p.nerts_count,
            nerts_top,
            work,
            cycle,
            waste: p.waste_count,
            pool: (0..NATURALS).filter(|&f| seen >> f & 1 == 0).collect(),
            recycles: rec,
            found: on_foundations[seat].count_ones() as u8,
            flip_count: p.flip_count,
        });
    }
    Ok((out, need))
}

/// Inputs that do not describe a reachable position.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error("{0}")]
pub struct RolloutError(pub String);

/// The greedy policy's caches of one seat's work piles, kept beside the lean rulebook table
/// (its sidecar) and refreshed by [`Lean::apply`] after the table's own apply. Faces
/// (`0..52`) throughout.
#[derive(Clone, Copy)]
// Two whole cache lines a seat (104 bytes of fields): measured faster in release builds.
#[repr(align(128))]
struct Side {
    /// Each work pile's top ([`NONE`] when empty) and its work key (the rulebook's
    /// [`work_key`]; 0 when empty).
    tops: [u8; MAX_WORK],
    keys: [u8; MAX_WORK],
    /// Bit `face` of every pile top, bit `key` of every pile top's key (with how many tops
    /// have each key), and bit `i` of every empty pile (piles past `num_work` count as empty).
    top_bits: u64,
    key_bits: u32,
    key_count: [u8; 32],
    /// Per [`run_parity`], bit `rank` of every pile top of that parity (the same information
    /// as `key_bits`, arranged for [`Lean::pile_move`]).
    targets: [u32; 2],
    empty: u8,
    /// Bit `face` for every card in the work piles.
    in_piles: u64,
    /// The greedy policy's pile move ([`Lean::pile_move`]) for `pile_fit`, the foundations'
    /// fit bits of the cards under the pile tops (nothing else changes it); `pile_ok` is
    /// cleared when a pile changes.
    pile_fit: u64,
    pile_mv: u32,
    pile_ok: bool,
    /// Set when the greedy policy last found nothing but the stock to play (with no move left
    /// out) for foundations `stuck_fit`: until the Nerts pile or a work pile changes, or the
    /// foundations' fit of a card in `stuck_mask` (the piles' cards and the Nerts top), only
    /// the waste top can give it another move.
    stuck: bool,
    stuck_fit: u64,
    stuck_mask: u64,
}

impl Side {
    const EMPTY: Self = Self {
        tops: [NONE; MAX_WORK],
        keys: [0; MAX_WORK],
        top_bits: 0,
        key_bits: 0,
        key_count: [0; 32],
        targets: [0; 2],
        empty: (1 << MAX_WORK) - 1,
        in_piles: 0,
        pile_fit: 0,
        pile_mv: NO_MOVE,
        pile_ok: false,
        stuck: false,
        stuck_fit: 0,
        stuck_mask: 0,
    };

    /// The caches of a seat's work piles, from scratch.
    fn of(work: &[Pile<WORK_CARDS>]) -> Self {
        let mut side = Self::EMPTY;
        for (i, pile) in work.iter().enumerate() {
            for &c in pile.iter() {
                side.in_piles |= 1 << c;
            }
            side.pile_changed(i, pile);
        }
        debug_assert!(side.masks_ok(work));
        side
    }

    /// Refreshes the top and key of pile `i` after it changed (and the masks of both).
    #[inline]
    fn pile_changed(&mut self, i: usize, pile: &[u8]) {
        let old = self.tops[i];
        if old != NONE {
            self.top_bits &= !(1 << old);
            let k = self.keys[i];
            self.key_count[usize::from(k)] -= 1;
            if self.key_count[usize::from(k)] == 0 {
                self.key_bits &= !(1 << k);
                self.targets[run_parity(k)] &= !(1 << key_rank(k));
            }
        }
        if let Some(&top) = pile.last() {
            let key = work_key(top);
            self.tops[i] = top;
            self.keys[i] = key;
            self.empty &= !(1 << i);
            self.top_bits |= 1 << top;
            self.key_count[usize::from(key)] += 1;
            self.key_bits |= 1 << key;
            self.targets[run_parity(key)] |= 1 << key_rank(key);
        } else {
            self.tops[i] = NONE;
            self.keys[i] = 0;
            self.empty |= 1 << i;
        }
        self.pile_ok = false;
        self.stuck = false;
    }

    fn masks_ok(&self, work: &[Pile<WORK_CARDS>]) -> bool {
        let mut tb = 0u64;
        let mut kb = 0u32;
        let mut em = 0u8;
        let mut cards = 0u64;
        for j in 0..MAX_WORK {
            match work.get(j).and_then(|p| p.last()) {
                None => {
                    em |= 1 << j;
                    if self.tops[j] != NONE {
                        return false;
                    }
                }
                Some(&t) => {
                    if self.tops[j] != t || self.keys[j] != work_key(t) {
                        return false;
                    }
                    tb |= 1 << t;
                    kb |= 1 << self.keys[j];
                }
            }
        }
        for &c in work.iter().flat_map(|p| p.iter()) {
            cards |= 1 << c;
        }
        tb == self.top_bits && kb == self.key_bits && em == self.empty && cards == self.in_piles
    }

    /// The greedy policy's build of face `card` (from source `s`): onto the first pile top it
    /// builds down on (whose key is the rulebook's [`builds_on_key`] of its own), else into the
    /// first empty pile if `fill` allows; `NO_MOVE` when neither (or no card).
    #[inline]
    fn build(&self, s: u8, card: u8, nw: usize, fill: bool) -> u32 {
        if card == NONE {
            return NO_MOVE;
        }
        let want = builds_on_key(work_key(card));
        if self.key_bits >> want & 1 == 1 {
            for j in 0..nw {
                if self.tops[j] != NONE && self.keys[j] == want {
                    return pack(K_WORK, s, 1, j as u8);
                }
            }
        }
        let first_empty = self.empty.trailing_zeros() as usize;
        if first_empty < nw && fill {
            return pack(K_WORK, s, 1, first_empty as u8);
        }
        NO_MOVE
    }
}

/// The face of card `card` of a rollout's table (`NONE` for none): its cards are faces.
#[inline]
fn face_of(card: Option<u8>) -> u8 {
    card.unwrap_or(NONE)
}

/// The rollouts' table: the rulebook's table in its lean mode (no undo log, no foundation
/// piles) and the greedy policy's caches beside it. It holds every seat's cards as faces
/// `0..52` (the ids of the first deck): the rules read a card by its face only, and a lean
/// table keeps no foundation piles, so whose card it is never matters (each seat's count of
/// cards on the foundations is kept apart); the greedy policy then reads faces without a
/// lookup.
struct Lean {
    table: RuleTable,
    side: [Side; MAX_SEATS],
}

impl Clone for Lean {
    #[inline]
    fn clone(&self) -> Self {
        Self {
            table: self.table.clone(),
            side: self.side,
        }
    }

    /// In place: a rollout refills one table per candidate instead of building a new one.
    #[inline]
    fn clone_from(&mut self, source: &Self) {
        self.table.clone_from(&source.table);
        // the seats at the table only (the caches past them stay empty)
        let n = source.n();
        self.side[..n].copy_from_slice(&source.side[..n]);
    }
}

impl Lean {
    /// The lean table of `seats`, whose foundations take `need` next.
    fn new(rules: &Rules, seats: Seats<Layout>, need: &[[u8; 16]; 4]) -> Self {
        let mut side = [Side::EMPTY; MAX_SEATS];
        for (s, p) in side.iter_mut().zip(seats.iter()) {
            *s = Side::of(&p.work);
        }
        Self {
            table: RuleTable::lean(rule_options(rules), seats, Needs::from_counts(*need)),
            side,
        }
    }

    /// The top face of `seat`'s source `s` ([`NONE`] when empty), a work pile's from the
    /// caches.
    #[inline(always)]
    fn source_face(&self, seat: usize, s: u8) -> u8 {
        let p = &self.table.seats[seat];
        match s {
            SRC_NERTS => face_of(p.nerts.top()),
            SRC_WASTE => face_of(p.cycle.waste_top()),
            i => self.side[seat].tops[usize::from(i)],
        }
    }

    /// Whether face `f` ([`NONE`] for none) fits a foundation now.
    #[inline(always)]
    fn fits(&self, f: u8) -> bool {
        is_natural(f) && Needs::fit_has(self.table.needs.fit, f)
    }

    /// Seats at the table.
    #[inline]
    fn n(&self) -> usize {
        self.table.seats.len()
    }

    /// Makes the legal move `mv` with the rulebook's apply and refreshes the caches of the
    /// piles it changed; returns whether a foundation changed.
    #[inline]
    fn apply(&mut self, seat: usize, mv: u32) -> bool {
        // the stock and waste: nothing cached (the rulebook's flip and recycle, which its
        // apply makes, without the undo record a lean table drops)
        let k = kind(mv);
        if k <= K_WORK {
            return self.apply_to_piles(seat, mv);
        }
        if k == K_FLIP {
            self.table.flip(seat);
        } else {
            self.table.recycle(seat);
        }
        false
    }

    /// [`Lean::apply`] of a move that changes piles (the rulebook's foundation play or
    /// work-pile move, as its apply makes them on a lean table).
    #[inline(never)]
    fn apply_to_piles(&mut self, seat: usize, mv: u32) -> bool {
        let (k, s) = (kind(mv), src(mv));
        let found = k == K_FOUNDATION;
        if found {
            self.table.to_foundation(seat, s);
        } else {
            debug_assert_eq!(k, K_WORK);
            self.table
                .to_work(seat, s, usize::from(depth(mv)), usize::from(dst(mv)));
        }
        let work = &self.table.seats[seat].work;
        let side = &mut self.side[seat];
        match (found, s) {
            (true, SRC_NERTS) => side.stuck = false,
            (true, SRC_WASTE) => {}
            (true, i) => {
                let i = usize::from(i);
                side.in_piles &= !(1 << side.tops[i]);
                side.pile_changed(i, &work[i]);
            }
            (false, SRC_NERTS | SRC_WASTE) => {
                if s == SRC_NERTS {
                    side.stuck = false;
                }
                let j = usize::from(dst(mv));
                side.in_piles |= 1 << face_of(work[j].top());
                side.pile_changed(j, &work[j]);
            }
            (false, i) => {
                // the source first: its old top is the moved segment's top
                let (i, j) = (usize::from(i), usize::from(dst(mv)));
                side.pile_changed(i, &work[i]);
                side.pile_changed(j, &work[j]);
            }
        }
        debug_assert!(side.masks_ok(work));
        found
    }

    /// The greedy policy (`GreedyAgent`), skipping `exclude` (a foundation play or
    /// `NO_MOVE`); `NO_MOVE` when it waits. Keeps the seat's pile move for the next call.
    #[inline(always)]
    fn greedy(&mut self, seat: usize, exclude: u32) -> u32 {
        let fit = self.table.needs.fit;
        let side = &self.side[seat];
        if side.stuck && (fit ^ side.stuck_fit) & side.stuck_mask == 0 {
            return self.waste_or_stock(seat, fit, exclude);
        }
        self.full_greedy(seat, exclude)
    }

    /// [`Lean::greedy`] from scratch.
    #[inline(never)]
    fn full_greedy(&mut self, seat: usize, exclude: u32) -> u32 {
        let t = &self.table;
        let fit = t.needs.fit;
        let fits = |card: u8| is_natural(card) && Needs::fit_has(fit, card);
        let p = &t.seats[seat];
        let side = &mut self.side[seat];
        let nw = usize::from(t.rules.num_work);
        let ok = |mv: u32| mv != exclude;
        if may_call(p.nerts.len()) {
            return pack(K_CALL, 0, 0, 0);
        }
        let nt = face_of(p.nerts.top());
        let wt = face_of(p.cycle.waste_top());
        let f_nerts = pack(K_FOUNDATION, SRC_NERTS, 1, NONE);
        if fits(nt) && ok(f_nerts) {
            return f_nerts;
        }
        let f_waste = pack(K_FOUNDATION, SRC_WASTE, 1, NONE);
        if fits(wt) && ok(f_waste) {
            return f_waste;
        }
        if fit & side.top_bits != 0 {
            for (i, &top) in side.tops.iter().enumerate().take(nw) {
                let mv = pack(K_FOUNDATION, i as u8, 1, NONE);
                if fits(top) && ok(mv) {
                    return mv;
                }
            }
        }
        // Nerts top, then waste top, onto a work pile: a real build before an empty pile.
        for (s, card) in [(SRC_NERTS, nt), (SRC_WASTE, wt)] {
            let mv = side.build(s, card, nw, fills_empty(s, t.rules.fill_any));
            if mv != NO_MOVE {
                return mv;
            }
        }
        // The pile move depends only on the piles and whether the cards under their tops (the
        // cards a move may expose) fit a foundation: kept until either changes (a seat
        // flipping through its stock asks again and again).
        let pile_fit = fit & side.in_piles & !side.top_bits;
        if !side.pile_ok || side.pile_fit != pile_fit {
            side.pile_mv = Self::pile_move(side, &p.work, fit, nw, t.rules.partial);
            side.pile_fit = pile_fit;
            side.pile_ok = true;
        }
        if side.pile_mv != NO_MOVE {
            return side.pile_mv;
        }
        if exclude == NO_MOVE {
            side.stuck = true;
            side.stuck_fit = fit;
            side.stuck_mask = side.in_piles | if nt == NONE { 0 } else { 1 << nt };
        }
        Self::stock_move(t, seat)
    }

    /// [`Lean::greedy`] for a seat whose Nerts top and piles can give no move: the waste
    /// top's foundation play, then its build (a real build before an empty pile), then the
    /// stock.
    #[inline]
    fn waste_or_stock(&self, seat: usize, fit: u64, exclude: u32) -> u32 {
        let t = &self.table;
        let wt = face_of(t.seats[seat].cycle.waste_top());
        if wt != NONE {
            let f_waste = pack(K_FOUNDATION, SRC_WASTE, 1, NONE);
            if Needs::fit_has(fit, wt) && f_waste != exclude {
                return f_waste;
            }
            let nw = usize::from(t.rules.num_work);
            let mv =
                self.side[seat].build(SRC_WASTE, wt, nw, fills_empty(SRC_WASTE, t.rules.fill_any));
            if mv != NO_MOVE {
                return mv;
            }
        }
        Self::stock_move(t, seat)
    }

    /// The greedy policy's last resort: flip, else recycle, else wait.
    #[inline]
    fn stock_move(t: &RuleTable, seat: usize) -> u32 {
        let p = &t.seats[seat];
        let (stock, waste) = (p.cycle.stock_len(), p.cycle.waste_len());
        if may_flip(stock) {
            return pack(K_FLIP, 0, 0, 0);
        }
        if may_recycle(stock, waste, t.may_recycle(seat)) {
            return pack(K_RECYCLE, 0, 0, 0);
        }
        NO_MOVE
    }

    /// The greedy policy's pile move for foundations `fit` (`NO_MOVE` if none): the first that
    /// empties its pile or exposes a card that fits a foundation.
    ///
    /// A pile's segment goes onto a top only if that top has the pile's [`run_parity`] and its
    /// rank is one of the pile's [`lift_ranks`]: one mask per parity finds the piles worth a
    /// look, and [`lift_depth`] the segment. `exposes[parity]`, the ranks whose card of that
    /// parity fits some foundation, holds the rank of every card a move may expose.
    #[inline(never)]
    fn pile_move(
        side: &Side,
        work: &[Pile<WORK_CARDS>],
        fit: u64,
        nw: usize,
        partial: bool,
    ) -> u32 {
        let exposes = ranks_by_parity(fit);
        let (tops, keys, targets) = (&side.tops, &side.keys, &side.targets);
        for i in 0..nw {
            let pile = &work[i];
            let len = pile.len() as u8;
            if len == 0 {
                continue;
            }
            let top_rank = key_rank(keys[i]);
            let parity = run_parity(keys[i]);
            // the whole pile's target empties it: always worth a move
            let whole = lift_ranks(top_rank, len, false);
            let reach = if partial {
                lift_ranks(top_rank, len, true)
            } else {
                whole
            };
            if targets[parity] & reach & (exposes[parity] | whole) == 0 {
                continue;
            }
            for j in 0..nw {
                if j == i || tops[j] == NONE {
                    continue;
                }
                let Some(k) = lift_depth(keys[i], len, partial, keys[j]) else {
                    continue;
                };
                debug_assert!(builds_down(pile[usize::from(len - k)], tops[j]));
                if k == len || Needs::fit_has(fit, pile[usize::from(len - k - 1)]) {
                    return pack(K_WORK, i as u8, k, j as u8);
                }
            }
        }
        NO_MOVE
    }
}

/// The rulebook's options of a rollout's rules, as the rollouts' lean table runs them: no
/// undo, no dealing of its own, a stalemate ends the round (the clock's fields are the
/// rollout's own, [`Timing`]: unused here).
#[must_use]
pub fn rule_options(r: &Rules) -> RuleOptions {
    RuleOptions {
        num_work: r.num_work,
        flip_count: r.flip_count,
        stock_passes: (r.max_recycles != u32::MAX).then(|| r.max_recycles.saturating_add(1)),
        partial: r.partial,
        fill_any: r.fill_any,
        auto_call: r.auto_call,
        foundation_points: r.foundation_points,
        nerts_penalty: r.nerts_penalty,
        nerts_bonus: r.nerts_bonus,
        stalemate_rule: StalemateRule::EndRound,
        max_stalemates: 0,
        undo_depth: 0,
        medians: [0; 5],
        sigma: 0.0,
        miss: 0.0,
        min_ms: 0,
        max_ms: 0,
        retry_ms: 0,
        nerts_pile: 0,
    }
}

/// A seat's pending event as one sortable key: its time above its tie-break draw, so events
/// run in the order of `(t, tiebreak)`; [`IDLE`] when the seat has none.
type EventKey = u128;
const IDLE: EventKey = EventKey::MAX;

/// Delay quantiles per action class (play, build, segment, flip/recycle, call).
type DelayTable = [[u32; QUANTILES]; 5];
const QUANTILES: usize = 256;

/// Standard normal quantiles at `(i + 0.5) / 256` (bisection on `erf`, computed once).
fn normal_quantiles() -> &'static [f64; QUANTILES] {
    static TABLE: OnceLock<[f64; QUANTILES]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut q = [0.0; QUANTILES];
        for (i, slot) in q.iter_mut().enumerate() {
            let p = (i as f64 + 0.5) / QUANTILES as f64;
            let (mut lo, mut hi) = (-10.0_f64, 10.0_f64);
            for _ in 0..80 {
                let mid = 0.5 * (lo + hi);
                if 0.5 * (1.0 + libm::erf(mid / std::f64::consts::SQRT_2)) < p {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            *slot = 0.5 * (lo + hi);
        }
        q
    })
}

/// The table speed's clamped log-normal delays as 256 equally likely values per class: the
/// rollouts draw one with a single random byte (the engine itself samples exactly).
fn delay_table(t: &Timing) -> DelayTable {
    let z = normal_quantiles();
    let mut out = [[0; QUANTILES]; 5];
    for (row, m) in out
        .iter_mut()
        .zip([t.m_play, t.m_build, t.m_seq, t.m_flip, t.m_call])
    {
        for (slot, q) in row.iter_mut().zip(z) {
            let d = (m * libm::exp(t.sigma * q)).round();
            {
                *slot = d.clamp(f64::from(t.min_ms), f64::from(t.max_ms)) as u32;
            }
        }
    }
    out
}

/// The delay class of a move: play, build, segment, flip/recycle, call.
#[inline]
fn delay_class(mv: u32) -> usize {
    match kind(mv) {
        K_FOUNDATION => 0,
        K_WORK if depth(mv) > 1 => 2,
        K_FLIP | K_RECYCLE => 3,
        K_CALL => 4,
        _ => 1,
    }
}

#[inline]
fn event_key(t: u32, tiebreak: u64) -> EventKey {
    EventKey::from(t) << 64 | EventKey::from(tiebreak)
}

/// `CardRng::next_f64() < miss` is `x * 2^-53 < miss` for the top 53 bits `x` of a draw, and
/// both sides scale exactly by `2^53`: for an integer `x` that is `x < ceil(miss * 2^53)`.
fn miss_threshold(miss: f64) -> u64 {
    (miss * 9_007_199_254_740_992.0).ceil() as u64
}

/// How [`Sim::run`] stopped.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Run {
    /// The seat asked for is the next to act.
    Due,
    /// The rollout is over (the caller, if a Nerts call ended it).
    End(Option<usize>),
}

// The clock's state first, in the first two cache lines.
#[repr(C)]
struct Sim<'a> {
    pending: [EventKey; MAX_SEATS],
    rng: CardRng,
    moves: [u32; MAX_SEATS],
    now: u32,
    sleeping: [bool; MAX_SEATS],
    /// `timing.miss` as a threshold on 53 random bits.
    miss: u64,
    delays: &'a DelayTable,
    timing: &'a Timing,
    table: Lean,
}

impl Clone for Sim<'_> {
    fn clone(&self) -> Self {
        Self {
            table: self.table.clone(),
            timing: self.timing,
            miss: self.miss,
            delays: self.delays,
            rng: self.rng.clone(),
            now: self.now,
            pending: self.pending,
            moves: self.moves,
            sleeping: self.sleeping,
        }
    }

    /// In place (see [`Lean::clone_from`]).
    fn clone_from(&mut self, source: &Self) {
        self.table.clone_from(&source.table);
        self.timing = source.timing;
        self.miss = source.miss;
        self.delays = source.delays;
        self.rng.clone_from(&source.rng);
        self.now = source.now;
        self.pending = source.pending;
        self.moves = source.moves;
        self.sleeping = source.sleeping;
    }
}

impl Sim<'_> {
    fn delay(&mut self, mv: u32) -> u32 {
        self.delays[delay_class(mv)][(self.rng.next_u64() >> 56) as usize]
    }

    fn schedule(&mut self, seat: usize, t: u32, mv: u32) {
        let tb = self.rng.next_u64();
        self.pending[seat] = event_key(t, tb);
        self.moves[seat] = mv;
        self.sleeping[seat] = false;
    }

    #[inline(always)]
    fn decide(&mut self, seat: usize) {
        let mut mv = self.table.greedy(seat, NO_MOVE);
        if mv == NO_MOVE {
            self.sleeping[seat] = true;
            return;
        }
        // `next_f64() < miss`, in integers (see [`miss_threshold`])
        let miss = self.rng.next_u64() >> 11 < self.miss;
        if miss && kind(mv) == K_FOUNDATION {
            mv = self.table.greedy(seat, mv);
            if mv == NO_MOVE {
                self.schedule(seat, self.now.saturating_add(self.timing.retry_ms), THINK);
                return;
            }
        }
        let d = self.delay(mv);
        self.schedule(seat, self.now.saturating_add(d), mv);
    }

    /// Whether a move legal when `seat` chose it is legal now. Only foundation plays can be
    /// overtaken: the seat's own layout changes only by its own moves, one pending at a time.
    fn still_legal(&self, seat: usize, mv: u32) -> bool {
        let now =
            kind(mv) != K_FOUNDATION || self.table.fits(self.table.source_face(seat, src(mv)));
        debug_assert_eq!(now, self.table.table.is_legal(seat, mv));
        now
    }

    /// Plays until `horizon` or a Nerts call (returns [`Run::End`] with the caller), or until
    /// seat `stop` is the next to act (returns [`Run::Due`] before anything of that event
    /// happens; `MAX_SEATS` never stops).
    fn run(&mut self, horizon: u32, stop: usize) -> Run {
        let n = self.table.n();
        loop {
            // the earliest event, the lowest seat on a tie (seats past `n` are always idle)
            let p = &self.pending;
            let (a, sa) = if p[1] < p[0] { (p[1], 1) } else { (p[0], 0) };
            let (b, sb) = if p[3] < p[2] { (p[3], 3) } else { (p[2], 2) };
            let (key, seat) = if b < a { (b, sb) } else { (a, sa) };
            let t = (key >> 64) as u32;
            if t > horizon || key == IDLE {
                return Run::End(None);
            }
            if seat == stop {
                return Run::Due;
            }
            self.pending[seat] = IDLE;
            self.now = t;
            let mv = self.moves[seat];
            if mv == THINK {
                self.decide(seat);
                continue;
            }
            if !self.still_legal(seat, mv) {
                self.schedule(seat, self.now.saturating_add(self.timing.retry_ms), THINK);
                continue;
            }
            if kind(mv) == K_CALL {
                return Run::End(Some(seat));
            }
            let changed = self.table.apply(seat, mv);
            if self.table.table.auto_calls(seat) {
                return Run::End(Some(seat));
            }
            self.decide(seat);
            if changed {
                for s in 0..n {
                    if self.sleeping[s] && self.pending[s] == IDLE {
                        self.decide(s);
                    }
                }
            }
        }
    }
}

fn check_card(card: u8, seen: &mut u64, who: usize) -> Result<(), RolloutError> {
    if !is_natural(card) {
        return Err(RolloutError(format!(
            "seat {who}: card {card} is not a face 0..52"
        )));
    }
    if *seen >> card & 1 == 1 {
        return Err(RolloutError(format!(
            "seat {who}: card {card} appears twice"
        )));
    }
    *seen |= 1 << card;
    Ok(())
}

fn check_timing(t: &Timing) -> Result<(), RolloutError> {
    let medians = [t.m_play, t.m_build, t.m_seq, t.m_flip, t.m_call];
    if medians.iter().any(|m| !m.is_finite() || *m <= 0.0)
        || !t.sigma.is_finite()
        || t.sigma < 0.0
        || !(0.0..=1.0).contains(&t.miss)
        || t.min_ms > t.max_ms
    {
        return Err(RolloutError(
            "timing needs positive medians, sigma >= 0, miss in 0..=1 and min_ms <= max_ms".into(),
        ));
    }
    Ok(())
}

/// Checks one seat's knowledge; returns the number of unknown places.
fn validate_seat(k: &SeatKnowledge, who: usize, rules: &Rules) -> Result<usize, RolloutError> {
    let bad = |why: &str| Err(RolloutError(format!("seat {who}: {why}")));
    let mut seen = 0u64;
    if k.found > NATURALS {
        return bad("more than 52 cards on foundations");
    }
    if k.flip_count > rules.flip_count {
        return bad("flips more cards than the table's flip_count");
    }
    if (k.nerts_count == 0) != (k.nerts_top == NONE) || k.nerts_count > NATURALS {
        return bad("Nerts count and top disagree");
    }
    if k.nerts_top != NONE {
        check_card(k.nerts_top, &mut seen, who)?;
    }
    if k.work.len() != usize::from(rules.num_work) {
        return bad("wrong number of work piles");
    }
    for pile in &k.work {
        if pile.len() > usize::from(KING) {
            return bad("a work pile is longer than 13 cards");
        }
        for (a, b) in pile.iter().zip(pile.iter().skip(1)) {
            if !is_natural(*a) || !builds_down(*b, *a) {
                return bad("a work pile is not a descending alternating run");
            }
        }
        for &c in pile {
            check_card(c, &mut seen, who)?;
        }
    }
    if usize::from(k.waste) > k.cycle.len() || k.cycle.len() > usize::from(NATURALS) {
        return bad("waste count exceeds the stock and waste");
    }
    let mut unknown = usize::from(k.nerts_count.saturating_sub(1));
    for &c in &k.cycle {
        if c == NONE {
            unknown += 1;
        } else {
            check_card(c, &mut seen, who)?;
        }
    }
    if k.pool.len() < unknown {
        return Err(RolloutError(format!(
            "seat {who}: the pool has {} cards for {unknown} unknown places",
            k.pool.len()
        )));
    }
    for &c in &k.pool {
        check_card(c, &mut seen, who)?;
    }
    Ok(unknown)
}

/// A seat's cards per flip: its own count, or the table's for 0.
fn seat_flips(flip_count: u8, rules: &Rules) -> u8 {
    if flip_count == 0 {
        rules.flip_count
    } else {
        flip_count
    }
}

/// Sampled deals of one set of knowledge: every seat's known cards laid out once (the
/// `template`), and per seat its pool, the Nerts cards under the top and the unknown places of
/// its cycle, which [`Dealer::deal`] fills.
struct Dealer {
    template: Lean,
    pools: [[u8; 52]; MAX_SEATS],
    pool_len: [u8; MAX_SEATS],
    hidden: [u8; MAX_SEATS],
    holes: [[u8; 52]; MAX_SEATS],
    hole_len: [u8; MAX_SEATS],
}

impl Dealer {
    /// Lays out the known cards (the knowledge has been validated); an unknown place holds
    /// the seat's face 0 until it is dealt.
    fn new(know: &[SeatKnowledge], need: &[[u8; 16]; 4], rules: &Rules) -> Self {
        let mut holes = [[0; 52]; MAX_SEATS];
        let mut hole_len = [0; MAX_SEATS];
        let mut pools = [[0; 52]; MAX_SEATS];
        let mut pool_len = [0; MAX_SEATS];
        let mut hidden = [0; MAX_SEATS];
        let seats = know
            .iter()
            .enumerate()
            .map(|(who, k)| {
                pools[who][..k.pool.len()].copy_from_slice(&k.pool);
                pool_len[who] = k.pool.len() as u8;
                hidden[who] = k.nerts_count.saturating_sub(1);
                let mut p = Layout {
                    flip_count: seat_flips(k.flip_count, rules),
                    recycles: k.recycles,
                    found: k.found,
                    work: WorkPiles::empty(k.work.len()),
                    ..Layout::default()
                };
                p.nerts.extend((0..hidden[who]).map(|_| 0));
                if k.nerts_count > 0 {
                    p.nerts.push(k.nerts_top);
                }
                for (pile, cards) in p.work.iter_mut().zip(&k.work) {
                    pile.extend(cards);
                }
                for (at, &c) in k.cycle.iter().enumerate() {
                    if c == NONE {
                        holes[who][usize::from(hole_len[who])] = at as u8;
                        hole_len[who] += 1;
                    }
                }
                let cycle: Vec<u8> = k
                    .cycle
                    .iter()
                    .map(|&c| if c == NONE { 0 } else { c })
                    .collect();
                let w = usize::from(k.waste);
                p.cycle = Cycle::new(&cycle[..w], &cycle[w..]);
                p
            })
            .collect();
        Self {
            template: Lean::new(rules, seats, need),
            pools,
            pool_len,
            hidden,
            holes,
            hole_len,
        }
    }

    /// One sampled deal: every unknown place filled from a shuffle of its seat's pool (the
    /// Nerts cards under the top first, then the cycle's places in order; face 0 once the
    /// pool runs out).
    fn deal(&self, rng: &mut CardRng) -> Lean {
        let mut t = self.template.clone();
        self.deal_into(rng, &mut t);
        t
    }

    /// [`Dealer::deal`] into `t` in place (the rollouts deal every sample into one table).
    fn deal_into(&self, rng: &mut CardRng, t: &mut Lean) {
        t.clone_from(&self.template);
        for (who, seat) in t.table.seats.iter_mut().enumerate() {
            let m = usize::from(self.pool_len[who]);
            let hidden = usize::from(self.hidden[who]);
            let holes = &self.holes[who][..usize::from(self.hole_len[who])];
            let mut pool = self.pools[who];
            // a uniform draw of `unknown` pool cards in random order (partial Fisher-Yates)
            for i in 0..(hidden + holes.len()).min(m) {
                let j = i + rng.below((m - i) as u64) as usize;
                pool.swap(i, j);
            }
            let under = hidden.min(m);
            for (slot, &f) in seat.nerts[..under].iter_mut().zip(&pool[..under]) {
                *slot = f;
            }
            for (n, &at) in holes.iter().enumerate() {
                seat.cycle.cards_mut()[usize::from(at)] =
                    if under + n < m { pool[under + n] } else { 0 };
            }
        }
    }
}

/// A rollout request: the deciding seat's knowledge of the table and the look-ahead settings.
#[derive(Clone, Debug)]
pub struct Request<'a> {
    /// Every seat's known cards.
    pub seats: &'a [SeatKnowledge],
    /// `need[suit][rank]`: how many foundations take that rank next (ranks 2..=13).
    pub need: [[u8; 16]; 4],
    /// The deciding seat.
    pub root: usize,
    /// Milliseconds the look-ahead runs.
    pub horizon_ms: u32,
    /// Sampled deals per candidate (the same deals and delays for every candidate); the most
    /// [`choose`] uses.
    pub samples: u32,
    /// Seed of the samples.
    pub seed: u64,
    /// Table speed.
    pub timing: Timing,
    /// Table options.
    pub rules: Rules,
}

/// Checks a request; returns the delay table its rollouts draw from.
fn prepare(req: &Request<'_>) -> Result<DelayTable, RolloutError> {
    let n = req.seats.len();
    if !(2..=MAX_SEATS).contains(&n) || req.root >= n {
        return Err(RolloutError(
            "need 2..=4 seats and a root among them".into(),
        ));
    }
    if req.rules.num_work == 0 || usize::from(req.rules.num_work) > MAX_WORK {
        return Err(RolloutError("work piles must be 1..=5".into()));
    }
    if req.rules.flip_count == 0 {
        return Err(RolloutError("flip_count must be at least 1".into()));
    }
    for (who, k) in req.seats.iter().enumerate() {
        validate_seat(k, who, &req.rules)?;
    }
    if req
        .need
        .iter()
        .any(|row| row[0] != 0 || row[1] != 0 || row[14] != 0 || row[15] != 0)
    {
        return Err(RolloutError(
            "foundation needs use ranks 2..=13 only".into(),
        ));
    }
    check_timing(&req.timing)?;
    Ok(cached_delay_table(&req.timing))
}

/// [`delay_table`], kept per thread for the last table speed seen (a game asks for the same
/// one at every decision).
fn cached_delay_table(timing: &Timing) -> DelayTable {
    thread_local! {
        static LAST: std::cell::RefCell<Option<(Timing, DelayTable)>> =
            const { std::cell::RefCell::new(None) };
    }
    LAST.with_borrow_mut(|last| match last {
        Some((t, table)) if t == timing => *table,
        _ => {
            let table = delay_table(timing);
            *last = Some((*timing, table));
            table
        }
    })
}

/// The sampled deals of a request in order: each a dealt table and the seed of its delays.
struct Samples {
    dealer: Dealer,
    state: u64,
}

impl Samples {
    fn new(req: &Request<'_>) -> Self {
        Self {
            dealer: Dealer::new(req.seats, &req.need, &req.rules),
            state: req.seed,
        }
    }

    /// Deals the next sample into `into`; returns the seed of its delays.
    fn next_deal(&mut self, into: &mut Lean) -> u64 {
        let mut deal_rng = CardRng::new(splitmix64(&mut self.state));
        let timing_seed = splitmix64(&mut self.state);
        self.dealer.deal_into(&mut deal_rng, into);
        timing_seed
    }
}

fn check_candidate(base: &Lean, req: &Request<'_>, mv: u32) -> Result<(), RolloutError> {
    if mv == THINK || mv == NO_MOVE || !base.table.is_legal(req.root, mv) {
        return Err(RolloutError(format!("candidate {mv:#010x} is not legal")));
    }
    Ok(())
}

/// For each of `samples` sampled deals and each candidate move (sample-major: the values of
/// sample `k` are `out[k * candidates.len()..][..candidates.len()]`), the root's score minus the
/// mean of the other scores, times `seats - 1` to stay an integer, at the end of the rollout that
/// starts with that move.
///
/// # Errors
/// [`RolloutError`] when the knowledge is inconsistent or a candidate is not legal.
pub fn evaluate(req: &Request<'_>, candidates: &[u32]) -> Result<Vec<i32>, RolloutError> {
    let delays = prepare(req)?;
    let mut out = Vec::with_capacity(req.samples as usize * candidates.len());
    let mut samples = Samples::new(req);
    let mut start = Start::blank(&samples, req, &delays);
    let mut one = None;
    for _ in 0..req.samples {
        let timing_seed = samples.next_deal(&mut start.sim.table);
        for &mv in candidates {
            check_candidate(&start.sim.table, req, mv)?;
        }
        start.begin(req, timing_seed);
        rollouts(req, &mut start, candidates, &mut out, &mut one);
    }
    Ok(out)
}

/// How [`choose`] spends its samples: `first` sampled deals for every candidate, then `step`
/// more at a time for the candidates still in the running, up to the request's `samples`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Racing {
    /// Deals every candidate gets.
    pub first: u32,
    /// Deals added per round for the candidates left.
    pub step: u32,
    /// A candidate drops out once the leader's mean lead over it, sample by sample, exceeds
    /// this many standard errors.
    pub z: f64,
    /// A candidate also drops out once taking the leader instead of it costs less than this
    /// many points in expectation (the normal approximation of the lead: `se * pdf(m / se) -
    /// m * cdf(-m / se)` for a lead `m` with standard error `se`): the two are as good as equal,
    /// so more deals would not change what the choice is worth. 0 turns this off.
    pub max_loss: f64,
}

/// The expected loss of taking the leader over a candidate it leads by `lead` points with
/// standard error `se` (normal approximation): `E[max(0, X)]` for `X ~ N(-lead, se^2)`.
fn expected_loss(lead: f64, se: f64) -> f64 {
    if se <= 0.0 {
        return (-lead).max(0.0);
    }
    let x = lead / se;
    let pdf = libm::exp(-0.5 * x * x) / (2.0 * std::f64::consts::PI).sqrt();
    let upper = 0.5 * libm::erfc(x / std::f64::consts::SQRT_2);
    se * pdf - lead * upper
}

/// The candidate with the best mean value (in points, plus its `bonus`), raced: every candidate
/// sees the same deals and delays as [`evaluate`] gives them, but a candidate stops getting
/// deals once it is clearly behind the leader (see [`Racing`]). With `first >= samples` this is
/// the best mean of [`evaluate`]'s values. Ties go to the earlier candidate.
///
/// # Errors
/// [`RolloutError`] when the knowledge is inconsistent, a candidate is not legal, or `bonus`
/// does not give one value per candidate.
pub fn choose(
    req: &Request<'_>,
    candidates: &[u32],
    bonus: &[f64],
    racing: &Racing,
) -> Result<usize, RolloutError> {
    let delays = prepare(req)?;
    if bonus.len() != candidates.len() || candidates.is_empty() {
        return Err(RolloutError(
            "need one bonus per candidate and at least one candidate".into(),
        ));
    }
    let k = candidates.len();
    let others = (req.seats.len() - 1) as f64;
    let mut values: Vec<Vec<i32>> = vec![Vec::with_capacity(req.samples as usize); k];
    let mut alive: Vec<usize> = (0..k).collect();
    let (mut firsts, mut got) = (Vec::with_capacity(k), Vec::with_capacity(k));
    let mut samples = Samples::new(req);
    let mut start = Start::blank(&samples, req, &delays);
    let mut one = None;
    let mut n = 0u32;
    let mut target = racing.first.clamp(1, req.samples.max(1));
    loop {
        while n < target {
            let timing_seed = samples.next_deal(&mut start.sim.table);
            for &i in &alive {
                check_candidate(&start.sim.table, req, candidates[i])?;
            }
            start.begin(req, timing_seed);
            firsts.clear();
            firsts.extend(alive.iter().map(|&i| candidates[i]));
            got.clear();
            rollouts(req, &mut start, &firsts, &mut got, &mut one);
            for (&i, &v) in alive.iter().zip(&got) {
                values[i].push(v);
            }
            n += 1;
        }
        let nf = f64::from(n);
        let mean = |i: usize| {
            values[i].iter().map(|&v| f64::from(v)).sum::<f64>() / (nf * others) + bonus[i]
        };
        let mut lead = alive[0];
        let mut best = mean(lead);
        for &i in &alive[1..] {
            let m = mean(i);
            if m > best {
                (lead, best) = (i, m);
            }
        }
        if n >= req.samples || alive.len() == 1 {
            return Ok(lead);
        }
        alive.retain(|&i| {
            if i == lead {
                return true;
            }
            let d = values[lead]
                .iter()
                .zip(&values[i])
                .map(|(&a, &b)| (f64::from(a) - f64::from(b)) / others);
            let (sum, sq) = d.fold((0.0, 0.0), |(s, q), x| (s + x, q + x * x));
            let mu = sum / nf;
            let se = (sq / nf - mu * mu).max(0.0).sqrt() / nf.sqrt();
            let margin = mu + bonus[lead] - bonus[i];
            margin <= racing.z * se && expected_loss(margin, se) >= racing.max_loss
        });
        if alive.len() == 1 {
            return Ok(lead);
        }
        target = n.saturating_add(racing.step.max(1)).min(req.samples);
    }
}

/// The greedy policy's move for seat `seat` (`None` when it would wait), the policy every seat
/// follows inside a rollout. Only visible cards matter, so unknown places are filled in order.
///
/// # Errors
/// [`RolloutError`] when the knowledge is inconsistent.
pub fn greedy_move(
    seats: &[SeatKnowledge],
    need: &[[u8; 16]; 4],
    seat: usize,
    rules: &Rules,
) -> Result<Option<u32>, RolloutError> {
    if !(1..=MAX_SEATS).contains(&seats.len()) || seat >= seats.len() {
        return Err(RolloutError(
            "need 1..=4 seats and the seat among them".into(),
        ));
    }
    for (who, k) in seats.iter().enumerate() {
        validate_seat(k, who, rules)?;
    }
    let mut table = Dealer::new(seats, need, rules).deal(&mut CardRng::new(0));
    let mv = table.greedy(seat, NO_MOVE);
    Ok((mv != NO_MOVE).then_some(mv))
}

/// What every candidate's rollout of one sampled deal starts from: the shared simulation
/// (the dealt table, the generator after the draws of the start, the opponents part-way
/// through their current actions), and the root's two draws (its delay's quantile and its
/// tie-break), which do not depend on the candidate. A rollout then only looks up its first
/// move's delay. One per request: [`Samples::next_deal`] deals every sample into its table in
/// place, [`Start::begin`] sets it going, and [`rollouts`] plays it on (once per sample).
struct Start<'a> {
    sim: Sim<'a>,
    root_quantile: usize,
    root_tiebreak: u64,
}

impl<'a> Start<'a> {
    /// A start for [`Samples::next_deal`] to deal into.
    fn blank(samples: &Samples, req: &'a Request<'_>, delays: &'a DelayTable) -> Self {
        Self {
            sim: Sim {
                table: samples.dealer.template.clone(),
                timing: &req.timing,
                miss: miss_threshold(req.timing.miss),
                delays,
                rng: CardRng::new(0),
                now: 0,
                pending: [IDLE; MAX_SEATS],
                moves: [NO_MOVE; MAX_SEATS],
                sleeping: [false; MAX_SEATS],
            },
            root_quantile: 0,
            root_tiebreak: 0,
        }
    }

    /// The start of the dealt table: the draws in the order a rollout makes them, the root's
    /// delay and tie-break, then each opponent's greedy move, its delay, the part already
    /// done and its tie-break.
    fn begin(&mut self, req: &Request<'_>, timing_seed: u64) {
        let mut rng = CardRng::new(timing_seed);
        self.root_quantile = (rng.next_u64() >> 56) as usize;
        self.root_tiebreak = rng.next_u64();
        let sim = &mut self.sim;
        sim.now = 0;
        sim.pending = [IDLE; MAX_SEATS];
        sim.moves = [NO_MOVE; MAX_SEATS];
        sim.sleeping = [false; MAX_SEATS];
        for s in 0..sim.table.n() {
            if s != req.root {
                // An opponent is part-way through its current action.
                let mv = sim.table.greedy(s, NO_MOVE);
                if mv == NO_MOVE {
                    sim.sleeping[s] = true;
                } else {
                    let d = sim.delays[delay_class(mv)][(rng.next_u64() >> 56) as usize];
                    let left = (f64::from(d) * rng.next_f64()) as u32;
                    sim.pending[s] = event_key(left, rng.next_u64());
                    sim.moves[s] = mv;
                }
            }
        }
        sim.rng = rng;
    }
}

/// The rollout values of candidates `firsts` from one start, in order: the root score minus
/// the others' mean, times `seats - 1`, at the end of the rollout that starts with each move.
///
/// Until the root's first event, only the opponents act, the same way whichever move it is
/// (the root's draws were made at the start): so the candidates are taken in the order of
/// their first event's key (its delay, which only the move's class changes, and the
/// tie-break), the opponents are played once up to each key, and each candidate goes on from
/// there. The values are the ones of playing each candidate from the start alone.
///
/// `start`'s simulation is played on (the shared one); `one` keeps a candidate's simulation
/// for the next sample, to be refilled in place.
fn rollouts<'a>(
    req: &Request<'_>,
    start: &mut Start<'a>,
    firsts: &[u32],
    out: &mut Vec<i32>,
    one: &mut Option<Sim<'a>>,
) {
    let root = req.root;
    let base = out.len();
    out.resize(base + firsts.len(), 0);
    let (quantile, tiebreak) = (start.root_quantile, start.root_tiebreak);
    let shared = &mut start.sim;
    let delays = shared.delays;
    let key = |mv: u32| event_key(delays[delay_class(mv)][quantile], tiebreak);
    let mut order: Vec<usize> = (0..firsts.len()).collect();
    order.sort_by_key(|&c| key(firsts[c]));
    let mut ended = None;
    let mut due = None;
    for c in order {
        let k = key(firsts[c]);
        if ended.is_none() && due != Some(k) {
            shared.pending[root] = k;
            match shared.run(req.horizon_ms, root) {
                Run::Due => due = Some(k),
                Run::End(caller) => ended = Some(caller),
            }
        }
        out[base + c] = match ended {
            Some(caller) => value(req, &shared.table, caller),
            None => {
                let sim = match one {
                    Some(sim) => {
                        sim.clone_from(shared);
                        sim
                    }
                    None => one.insert(shared.clone()),
                };
                sim.moves[root] = firsts[c];
                let Run::End(caller) = sim.run(req.horizon_ms, MAX_SEATS) else {
                    unreachable!("a run that never stops ends")
                };
                value(req, &sim.table, caller)
            }
        };
    }
}

/// The root's score minus the mean of the others', times `seats - 1`.
fn value(req: &Request<'_>, t: &Lean, caller: Option<usize>) -> i32 {
    let t = &t.table;
    let mine = t.score(req.root, caller);
    let others: i32 = (0..t.seats.len())
        .filter(|&s| s != req.root)
        .map(|s| t.score(s, caller))
        .sum();
    let k = (t.seats.len() - 1) as i32;
    mine * k - others
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expected_loss_of_a_normal_lead() {
        // a tie: se * pdf(0); far ahead: nothing; behind by m with no noise: m
        assert!((expected_loss(0.0, 2.0) - 2.0 * 0.398_942_28).abs() < 1e-8);
        assert!(expected_loss(10.0, 1.0) < 1e-20);
        assert!((expected_loss(-1.5, 0.0) - 1.5).abs() < 1e-12);
        assert!(expected_loss(0.5, 0.0).abs() < 1e-12);
        // E[max(0, X)] for X ~ N(-1, 1): pdf(1) - cdf(-1)
        assert!((expected_loss(1.0, 1.0) - (0.241_970_72 - 0.158_655_25)).abs() < 1e-8);
    }

    #[test]
    fn normal_quantiles_are_symmetric_and_increasing() {
        let q = normal_quantiles();
        assert!((q[0] + 2.886_2).abs() < 1e-3, "{}", q[0]); // Phi^-1(0.5 / 256)
        for i in 0..QUANTILES {
            assert!((q[i] + q[QUANTILES - 1 - i]).abs() < 1e-12);
        }
        assert!(q.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn delay_table_has_the_median_and_the_clamps() {
        let t = Timing {
            m_play: 1300.0,
            m_build: 1600.0,
            m_seq: 2000.0,
            m_flip: 850.0,
            m_call: 800.0,
            sigma: 0.3,
            miss: 0.08,
            min_ms: 350,
            max_ms: 2000,
            retry_ms: 650,
        };
        let d = delay_table(&t);
        // the two middle quantiles straddle the median
        assert!(d[0][127] < 1300 && d[0][128] > 1300);
        assert!(d[2].iter().all(|&x| (350..=2000).contains(&x)));
        assert_eq!(d[2][255], 2000); // clamped
    }
}

/// One seat with every card known, for [`trace`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FullSeat {
    /// The Nerts pile, bottom to top.
    pub nerts: Vec<u8>,
    /// Work piles, bottom to top.
    pub work: Vec<Vec<u8>>,
    /// Stock and waste in cycle order.
    pub cycle: Vec<u8>,
    /// How many entries of `cycle` are the waste.
    pub waste: u8,
    /// Recycles done so far this round.
    pub recycles: u32,
    /// Cards of this seat on foundations.
    pub found: u8,
    /// Cards this seat turns per flip (1 after a `flip_one` stalemate remedy); 0 for the
    /// table's [`Rules::flip_count`].
    pub flip_count: u8,
}

/// One step of [`trace`]: whether the move was legal, then the table after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceStep {
    /// Whether the simulator found the move legal (an illegal move changes nothing).
    pub legal: bool,
    /// Every seat after the step.
    pub seats: Vec<FullSeat>,
    /// Foundation needs after the step (see [`Request::need`]).
    pub need: [[u8; 16]; 4],
}

/// The simulator's own transitions, for parity tests against the Python engine: from a table
/// laid out in full (foundation piles as card ids), tries each `(seat, move code)` in turn
/// with the rollouts' legality check and applies it when legal (a Nerts call is only checked).
///
/// # Errors
/// [`RolloutError`] for a table that is not laid out consistently or a seat out of range.
pub fn trace(
    seats: &[FullSeat],
    foundations: &[Vec<u8>],
    rules: &Rules,
    moves: &[(usize, u32)],
) -> Result<Vec<TraceStep>, RolloutError> {
    if !(1..=MAX_SEATS).contains(&seats.len()) {
        return Err(RolloutError("need 1..=4 seats".into()));
    }
    let mut laid_out = Vec::with_capacity(seats.len());
    for (who, full) in seats.iter().enumerate() {
        let split = full.nerts.len().saturating_sub(1);
        let known = SeatKnowledge {
            nerts_count: u8::try_from(full.nerts.len()).unwrap_or(u8::MAX),
            nerts_top: full.nerts.last().copied().unwrap_or(NONE),
            work: full.work.clone(),
            cycle: full.cycle.clone(),
            waste: full.waste,
            pool: full.nerts[..split].to_vec(),
            recycles: full.recycles,
            found: full.found,
            flip_count: full.flip_count,
        };
        validate_seat(&known, who, rules)?;
        let mut p = Layout {
            flip_count: seat_flips(full.flip_count, rules),
            recycles: full.recycles,
            found: full.found,
            work: WorkPiles::empty(full.work.len()),
            ..Layout::default()
        };
        p.nerts.extend(&full.nerts);
        for (pile, cards) in p.work.iter_mut().zip(&full.work) {
            pile.extend(cards);
        }
        let w = usize::from(full.waste);
        p.cycle = Cycle::new(&full.cycle[..w], &full.cycle[w..]);
        laid_out.push(p);
    }
    let mut table = Lean::new(
        rules,
        laid_out.into_iter().collect(),
        &Needs::of_piles(foundations).counts(),
    );
    let mut out = Vec::with_capacity(moves.len());
    for &(seat, mv) in moves {
        if seat >= table.n() {
            return Err(RolloutError(format!("seat {seat} is not at the table")));
        }
        let legal = table.table.is_legal(seat, mv);
        if legal && kind(mv) != K_CALL {
            table.apply(seat, mv);
        }
        out.push(TraceStep {
            legal,
            seats: table.table.seats.iter().map(full_seat).collect(),
            need: table.table.needs.counts(),
        });
    }
    Ok(out)
}

/// A seat of the table as [`FullSeat`] (faces).
fn full_seat(p: &Layout) -> FullSeat {
    let faces = |cards: &[u8]| cards.to_vec();
    FullSeat {
        nerts: faces(&p.nerts),
        work: p.work.iter().map(|w| faces(w)).collect(),
        cycle: faces(p.cycle.cards()),
        waste: p.cycle.waste_len() as u8,
        recycles: p.recycles,
        found: p.found,
        flip_count: p.flip_count,
    }
}
