//! The Nerts table (`NertsTable`): every seat's layout and the shared foundations. It
//! validates and applies moves, lists them with [`moves::generate`] and checks them with [`moves::is_legal`], undoes them,
//! applies the stalemate remedies and scores the round. It knows nothing about time.
//!
//! A *lean* table ([`Table::lean`], the rollouts of `hard` and `expert`) is the same table with
//! the undo log and the foundation piles switched off: it keeps what the foundations take next
//! ([`Needs`]) and each seat's count of cards on them, so moves, legality and scores are the
//! same; a foundation play names no foundation id (the automatic target only).

use super::moves::{
    self, F_FILL_ANY, F_PARTIAL, F_RECYCLE, F_RUNNING, K_CALL, K_FLIP, K_FOUNDATION, K_RECYCLE,
    K_WORK, MAX_WORK, MoveBuf, NONE, PlayerView, SRC_NERTS, SRC_WASTE, generate,
};
use super::piles::{Cycle, Needs, Pile, Seats, WorkPiles};
use super::{
    K_UNDO, Rules, StalemateRule, builds_on_foundation, depth, dst, kind, seat_points, src,
};
use crate::card::{ACE, NATURALS, is_red_id, natural_face, natural_id, rank_of};
use crate::shuffle::permutations_u8;

/// How to reverse one executed move (`action` is its code).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UndoRecord {
    /// The move code.
    pub action: u32,
    /// Its kind.
    pub kind: u8,
    /// Source.
    pub src: u8,
    /// Foundation id or target pile.
    pub dst: usize,
    /// Cards moved (or the flip's packet size).
    pub depth: usize,
    /// The card put on a foundation (-1 otherwise).
    pub card: i32,
}

/// A pile that may hold a whole deck (the Nerts pile).
pub type DeckPile = Pile<{ NATURALS as usize }>;

/// One seat's cards: piles bottom to top; the stock and waste as one [`Cycle`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Layout {
    /// Nerts pile.
    pub nerts: DeckPile,
    /// Work piles.
    pub work: WorkPiles,
    /// The stock and the waste.
    pub cycle: Cycle,
    /// The seat's cards on the foundations.
    pub found: u8,
    /// Recycles this round (passes - 1).
    pub recycles: u32,
    /// Cards per flip.
    pub flip_count: u8,
    /// Stalemate remedies applied this round.
    pub stalemates: u32,
}

impl Layout {
    /// Every card the seat holds (Nerts pile, stock, waste, work piles).
    #[must_use]
    pub fn all_cards(&self) -> Vec<u8> {
        let mut out: Vec<u8> = self.nerts.to_vec();
        out.extend(self.cycle.stock().iter().rev());
        out.extend(self.cycle.waste());
        for p in &self.work {
            out.extend(p.iter());
        }
        out
    }

    /// The top cards of the waste its owner sees fanned (bottom to top).
    #[must_use]
    pub fn waste_fan(&self) -> &[u8] {
        let waste = self.cycle.waste();
        let k = usize::from(self.flip_count).min(waste.len());
        &waste[waste.len() - k..]
    }

    /// The waste, bottom to top.
    #[inline]
    #[must_use]
    pub fn waste(&self) -> &[u8] {
        self.cycle.waste()
    }

    /// The stock, bottom to top (its top last).
    #[must_use]
    pub fn stock(&self) -> Vec<u8> {
        self.cycle.stock().iter().rev().copied().collect()
    }
}

/// One seat of a [`Table`] as the move rules read it ([`Table::seat`]).
#[derive(Clone, Copy, Debug)]
pub struct SeatOf<'a> {
    table: &'a Table,
    seat: usize,
}

impl moves::Seat for SeatOf<'_> {
    #[inline]
    fn running(&self) -> bool {
        self.table.running
    }

    #[inline]
    fn num_work(&self) -> usize {
        self.table.seats[self.seat].work.len()
    }

    #[inline]
    fn top(&self, src: u8) -> Option<u8> {
        self.table.source_top(self.seat, src).map(natural_face)
    }

    #[inline]
    fn work_len(&self, i: usize) -> usize {
        self.table.seats[self.seat].work[i].len()
    }

    #[inline]
    fn work_card(&self, i: usize, depth: u8) -> (u8, bool) {
        let pile = &self.table.seats[self.seat].work[i];
        let card = pile[pile.len() - usize::from(depth)];
        (rank_of(card), is_red_id(card))
    }

    #[inline]
    fn fits_foundation(&self, face: u8) -> bool {
        self.table.fits_foundation(face)
    }

    #[inline]
    fn counts(&self) -> (usize, usize, usize) {
        let p = &self.table.seats[self.seat];
        (p.cycle.stock_len(), p.cycle.waste_len(), p.nerts.len())
    }

    #[inline]
    fn passes_left(&self) -> bool {
        self.table.may_recycle(self.seat)
    }

    #[inline]
    fn partial(&self) -> bool {
        self.table.rules.partial
    }

    #[inline]
    fn fill_any(&self) -> bool {
        self.table.rules.fill_any
    }
}

/// Every layout plus the shared foundations.
#[derive(Debug)]
pub struct Table {
    /// The options.
    pub rules: Rules,
    /// Every seat's cards.
    pub seats: Seats<Layout>,
    /// Foundation piles, in the order they were started (ids never shift); none kept by a
    /// lean table.
    pub foundations: Vec<Vec<u8>>,
    /// What the foundations take next.
    pub needs: Needs,
    /// Per seat, its undo stack, oldest first (none kept by a lean table).
    pub undo: Vec<Vec<UndoRecord>>,
    /// Whether moves are still taken (false once Nerts is called or the round ended).
    pub running: bool,
    /// No undo log and no foundation piles (see the module docs).
    pub lean: bool,
}

impl Clone for Table {
    /// A copy; a lean table's (no foundation piles, no undo stacks) copies as bytes.
    #[inline]
    fn clone(&self) -> Self {
        let vecs = |v: &Vec<Vec<u8>>| if v.is_empty() { Vec::new() } else { v.clone() };
        Self {
            rules: self.rules,
            seats: self.seats,
            foundations: vecs(&self.foundations),
            needs: self.needs,
            undo: if self.undo.is_empty() {
                Vec::new()
            } else {
                self.undo.clone()
            },
            running: self.running,
            lean: self.lean,
        }
    }

    /// Copies `source` into `self` in place (the rollouts refill one table per candidate).
    #[inline]
    fn clone_from(&mut self, source: &Self) {
        self.rules = source.rules;
        self.seats.copy_from(&source.seats);
        // a lean table's lists are empty: no call
        if !(self.foundations.is_empty() && source.foundations.is_empty()) {
            self.foundations.clone_from(&source.foundations);
        }
        self.needs = source.needs;
        if !(self.undo.is_empty() && source.undo.is_empty()) {
            self.undo.clone_from(&source.undo);
        }
        self.running = source.running;
        self.lean = source.lean;
    }
}

/// Seat `seat`'s 52 card ids in shuffled order (permutation `seat` of the `"deck"` stream).
#[must_use]
pub fn deal_deck(seed: u64, seat: usize) -> Vec<u8> {
    let mut perm = [0u8; 52];
    permutations_u8(seed, seat as u64, "deck", 52, &mut perm);
    perm.iter().map(|&f| natural_id(f, seat as u8)).collect()
}

impl Table {
    /// The layouts dealt from `decks[s]` (seat `s`'s cards in dealing order): the Nerts pile
    /// (its last card on top), one card per work pile, the rest the stock (its first on top).
    #[must_use]
    pub fn deal(rules: Rules, decks: &[Vec<u8>]) -> Self {
        let (n, w) = (usize::from(rules.nerts_pile), usize::from(rules.num_work));
        let seats = decks
            .iter()
            .map(|deck| {
                let mut work = WorkPiles::empty(w);
                for (pile, &c) in work.iter_mut().zip(&deck[n..n + w]) {
                    pile.push(c);
                }

                Layout {
                    nerts: DeckPile::from_slice(&deck[..n]),
                    work,
                    cycle: Cycle::new(&[], &deck[n + w..]),
                    flip_count: rules.flip_count,
                    ..Layout::default()
                }
            })
            .collect();
        Self {
            rules,
            seats,
            foundations: Vec::new(),
            needs: Needs::default(),
            undo: vec![Vec::new(); decks.len()],
            running: true,
            lean: false,
        }
    }

    /// A lean table (no undo log, no foundation piles) of `seats`, whose foundations take
    /// `needs` next.
    #[must_use]
    pub fn lean(rules: Rules, seats: Seats<Layout>, needs: Needs) -> Self {
        Self {
            rules,
            seats,
            foundations: Vec::new(),
            needs,
            undo: Vec::new(),
            running: true,
            lean: true,
        }
    }

    /// Seats at the table.
    #[must_use]
    pub fn num_players(&self) -> usize {
        self.seats.len()
    }

    /// Per suit, the ranks that fit some foundation now (see [`Needs::masks`]).
    #[must_use]
    pub fn need_masks(&self) -> [u16; 4] {
        self.needs.masks()
    }

    /// Whether `card` fits some foundation now.
    #[inline]
    #[must_use]
    pub fn fits_foundation(&self, card: u8) -> bool {
        self.needs.fits(card)
    }

    /// The lowest foundation id `card` (not an ace) may go on.
    #[must_use]
    pub fn foundation_for(&self, card: u8) -> Option<usize> {
        self.foundations
            .iter()
            .position(|f| f.last().is_some_and(|&t| builds_on_foundation(card, t)))
    }

    /// The top card of source `s` of `seat` (Nerts pile, waste, or work pile `s`).
    #[inline(always)]
    #[must_use]
    pub fn source_top(&self, seat: usize, s: u8) -> Option<u8> {
        let p = &self.seats[seat];
        match s {
            SRC_NERTS => p.nerts.top(),
            SRC_WASTE => p.cycle.waste_top(),
            i => p.work.get(usize::from(i)).and_then(|w| w.top()),
        }
    }

    /// Whether `seat` has stock passes left to recycle its waste.
    #[must_use]
    pub fn may_recycle(&self, seat: usize) -> bool {
        self.rules
            .stock_passes
            .is_none_or(|p| i64::from(self.seats[seat].recycles) < i64::from(p) - 1)
    }

    /// What the move generator reads of `seat` (the 32-byte state of `docs/replays.md`).
    #[must_use]
    pub fn view(&self, seat: usize) -> PlayerView {
        let p = &self.seats[seat];
        let r = &self.rules;
        let mut flags = 0;
        if r.partial {
            flags |= F_PARTIAL;
        }
        if r.fill_any {
            flags |= F_FILL_ANY;
        }
        if self.may_recycle(seat) {
            flags |= F_RECYCLE;
        }
        if self.running {
            flags |= F_RUNNING;
        }
        let face = |c: Option<&u8>| c.map_or(NONE, |&c| natural_face(c));
        let count = |n: usize| u8::try_from(n).unwrap_or(u8::MAX);
        let mut v = PlayerView {
            nerts_count: count(p.nerts.len()),
            nerts_top: face(p.nerts.last()),
            stock: count(p.cycle.stock_len()),
            waste: count(p.cycle.waste_len()),
            waste_top: face(p.cycle.waste().last()),
            num_work: count(p.work.len()),
            flags,
            work_len: [0; MAX_WORK],
            work_top: [NONE; MAX_WORK],
            need: self.need_masks(),
        };
        for (i, pile) in p.work.iter().enumerate().take(MAX_WORK) {
            if let Some(&top) = pile.last() {
                v.work_len[i] = count(pile.len());
                v.work_top[i] = natural_face(top);
            }
        }
        v
    }

    /// Every legal move of `seat` (the generator's order), then `Undo` when legal. Foundation
    /// plays are listed once per source with the automatic target.
    #[must_use]
    pub fn legal_codes(&self, seat: usize) -> Vec<u32> {
        let mut buf = MoveBuf::default();
        generate(&self.view(seat), &mut buf);
        let mut out = buf.as_slice().to_vec();
        if self.undo_legal(seat) {
            out.push(super::UNDO);
        }
        out
    }

    /// Whether `seat` may undo its last move now (an ace whose foundation is no longer the
    /// newest stays: foundation ids never shift).
    #[must_use]
    pub fn undo_legal(&self, seat: usize) -> bool {
        let Some(rec) = self.undo.get(seat).and_then(|u| u.last()) else {
            return false;
        };
        if !self.running {
            return false;
        }
        if rec.kind == K_FOUNDATION {
            let f = &self.foundations[rec.dst];
            if f.len() == 1 && rec.dst != self.foundations.len() - 1 {
                return false;
            }
            return f.last().map(|&c| i32::from(c)) == Some(rec.card);
        }
        true
    }

    /// What the move rules read of `seat` (see [`moves::Seat`]).
    #[inline]
    #[must_use]
    pub fn seat(&self, seat: usize) -> SeatOf<'_> {
        SeatOf { table: self, seat }
    }

    /// Whether `seat`'s Nerts call is made for it now (`auto_call_nerts`: the round ends the
    /// moment the seat's Nerts pile empties, without the call's delay).
    #[inline]
    #[must_use]
    pub fn auto_calls(&self, seat: usize) -> bool {
        self.rules.auto_call && moves::may_call(self.seats[seat].nerts.len())
    }

    /// Whether `seat` may make move `mv` now: the rules' [`moves::is_legal`] on its layout,
    /// a foundation play that names its foundation, or `Undo`.
    #[inline]
    #[must_use]
    pub fn is_legal(&self, seat: usize, mv: u32) -> bool {
        if !self.running || seat >= self.seats.len() {
            return false;
        }
        match kind(mv) {
            K_FOUNDATION if dst(mv) != NONE => {
                let (Some(card), Some(f)) = (
                    self.source_top(seat, src(mv)),
                    self.foundations.get(usize::from(dst(mv))),
                ) else {
                    return false;
                };
                !self.lean
                    && rank_of(card) != ACE
                    && f.last().is_some_and(|&top| builds_on_foundation(card, top))
            }
            K_UNDO => self.undo_legal(seat),
            _ => moves::is_legal(&self.seat(seat), mv),
        }
    }

    #[inline(always)]
    fn pop_source(&mut self, seat: usize, s: u8) -> u8 {
        let p = &mut self.seats[seat];
        let card = match s {
            SRC_NERTS => p.nerts.pop(),
            SRC_WASTE => p.cycle.pop_waste(),
            i => p.work[usize::from(i)].pop(),
        };
        card.unwrap_or(NONE)
    }

    fn push_source(&mut self, seat: usize, s: u8, cards: &[u8]) {
        let p = &mut self.seats[seat];
        match s {
            SRC_NERTS => p.nerts.extend(cards),
            SRC_WASTE => {
                for &c in cards {
                    p.cycle.push_waste(c);
                }
            }
            i => p.work[usize::from(i)].extend(cards),
        }
    }

    /// Makes move `mv` for `seat`, which [`Table::is_legal`] has accepted.
    #[inline(always)]
    pub fn apply(&mut self, seat: usize, mv: u32) {
        let rec = match kind(mv) {
            K_FOUNDATION => {
                let card = self.to_foundation(seat, src(mv));
                if self.lean {
                    return;
                }
                let fid = self.place_on_foundation(card, dst(mv));
                Some(UndoRecord {
                    action: mv,
                    kind: K_FOUNDATION,
                    src: src(mv),
                    dst: fid,
                    depth: 1,
                    card: i32::from(card),
                })
            }
            K_WORK => {
                let (s, j) = (src(mv), usize::from(dst(mv)));
                let n = self.to_work(seat, s, usize::from(depth(mv)), j);
                Some(UndoRecord {
                    action: mv,
                    kind: K_WORK,
                    src: s,
                    dst: j,
                    depth: n,
                    card: -1,
                })
            }
            K_FLIP => {
                let k = self.flip(seat);
                Some(UndoRecord {
                    action: mv,
                    kind: K_FLIP,
                    src: 0,
                    dst: 0,
                    depth: k,
                    card: -1,
                })
            }
            K_RECYCLE => {
                self.recycle(seat);
                Some(UndoRecord {
                    action: mv,
                    kind: K_RECYCLE,
                    src: 0,
                    dst: 0,
                    depth: 0,
                    card: -1,
                })
            }
            K_CALL => {
                self.running = false;
                None
            }
            _ => {
                self.undo(seat);
                return;
            }
        };
        if self.lean {
            return;
        }
        let depth_limit = self.rules.undo_depth;
        let stack = &mut self.undo[seat];
        if let Some(rec) = rec
            && depth_limit > 0
        {
            stack.push(rec);
            if stack.len() > depth_limit {
                stack.remove(0);
            }
        } else if kind(mv) == K_CALL {
            stack.clear();
        }
    }

    /// The foundation play of [`Table::apply`] as far as a lean table makes it: the top card
    /// of `seat`'s source `s` leaves it and counts as the seat's card on a foundation, and
    /// the needs move on; returns the card (apply then places it on a foundation pile and
    /// keeps the undo record). The rollouts call it directly.
    #[inline(always)]
    pub fn to_foundation(&mut self, seat: usize, s: u8) -> u8 {
        let card = self.pop_source(seat, s);
        self.needs.played(card);
        self.seats[seat].found += 1;
        card
    }

    /// The work-pile move of [`Table::apply`] without its undo record: `d` cards from the top
    /// of `seat`'s source `s` (one from the Nerts pile or the waste) onto work pile `j`;
    /// returns how many moved. The rollouts call it directly.
    #[inline(always)]
    pub fn to_work(&mut self, seat: usize, s: u8, d: usize, j: usize) -> usize {
        if s == SRC_NERTS || s == SRC_WASTE {
            let card = self.pop_source(seat, s);
            self.seats[seat].work[j].push(card);
            1
        } else {
            let work = &mut self.seats[seat].work;
            let from = work[usize::from(s)];
            let at = from.len() - d;
            work[j].extend_from_slice(&from[at..]);
            work[usize::from(s)].truncate(at);
            d
        }
    }

    /// The flip of [`Table::apply`] without its undo record: `seat` turns its flip count of
    /// stock cards (at most the stock) onto the waste; returns how many. The rollouts call it
    /// directly.
    #[inline(always)]
    pub fn flip(&mut self, seat: usize) -> usize {
        let p = &mut self.seats[seat];
        p.cycle.flip(usize::from(p.flip_count))
    }

    /// The recycle of [`Table::apply`] without its undo record: `seat` turns its waste over
    /// onto the empty stock. The rollouts call it directly.
    #[inline(always)]
    pub fn recycle(&mut self, seat: usize) {
        let p = &mut self.seats[seat];
        p.cycle.turn_over();
        p.recycles += 1;
    }

    /// Puts `card` on a foundation (a new one for an ace, else foundation `dst` or, with
    /// `dst = NONE`, the lowest it fits); returns the foundation's id.
    #[inline(never)]
    fn place_on_foundation(&mut self, card: u8, dst: u8) -> usize {
        if rank_of(card) == ACE {
            self.foundations.push(vec![card]);
            return self.foundations.len() - 1;
        }
        let fid = if dst == NONE {
            self.foundation_for(card).unwrap_or(0)
        } else {
            usize::from(dst)
        };
        self.foundations[fid].push(card);
        fid
    }

    /// Reverses `seat`'s last move (which [`Table::undo_legal`] allows).
    fn undo(&mut self, seat: usize) {
        let Some(rec) = self.undo.get_mut(seat).and_then(Vec::pop) else {
            return;
        };
        match rec.kind {
            K_FOUNDATION => {
                let card = self.foundations[rec.dst].pop().unwrap_or(NONE);
                if self.foundations[rec.dst].is_empty() {
                    // an ace that started the newest foundation: the foundation goes
                    self.foundations.remove(rec.dst);
                }
                self.needs.taken_back(card);
                self.seats[seat].found -= 1;
                self.push_source(seat, rec.src, &[card]);
            }
            K_WORK => {
                let pile = &mut self.seats[seat].work[rec.dst];
                let at = pile.len() - rec.depth;
                let moved = *pile;
                pile.truncate(at);
                self.push_source(seat, rec.src, &moved[at..]);
            }
            K_FLIP => {
                self.seats[seat].cycle.unflip(rec.depth);
            }
            _ => {
                let p = &mut self.seats[seat];
                p.cycle.unturn();
                p.recycles -= 1;
            }
        }
    }

    /// The stalemate remedy for one seat: its waste turned back onto what is left of the
    /// stock, then (`rotate_one`) the top stock card to the bottom, or (`flip_one`) one card
    /// per flip from now on. Its undo stack is cleared.
    pub fn rotate_stalemate(&mut self, seat: usize) {
        let rule = self.rules.stalemate_rule;
        let p = &mut self.seats[seat];
        p.stalemates += 1;
        p.cycle.turn_over();
        if rule == StalemateRule::RotateOne && p.cycle.stock_len() > 1 {
            p.cycle.stock_top_to_bottom();
        } else if rule == StalemateRule::FlipOne {
            p.flip_count = 1;
        }
        if let Some(u) = self.undo.get_mut(seat) {
            u.clear();
        }
    }

    /// Per seat, its cards on the foundations.
    #[must_use]
    pub fn foundation_counts(&self) -> Vec<i32> {
        self.seats.iter().map(|p| i32::from(p.found)).collect()
    }

    /// Seat `seat`'s round score: points per own card on a foundation, less the penalty per
    /// card left in the Nerts pile, plus the caller's bonus.
    #[inline]
    #[must_use]
    pub fn score(&self, seat: usize, caller: Option<usize>) -> i32 {
        let (r, p) = (&self.rules, &self.seats[seat]);
        seat_points(
            i32::from(p.found),
            p.nerts.len() as i32,
            caller == Some(seat),
            r.foundation_points,
            r.nerts_penalty,
            r.nerts_bonus,
        )
    }

    /// Every seat's round score (see [`Table::score`]).
    #[must_use]
    pub fn scores(&self, caller: Option<usize>) -> Vec<i32> {
        (0..self.seats.len())
            .map(|seat| self.score(seat, caller))
            .collect()
    }
}
