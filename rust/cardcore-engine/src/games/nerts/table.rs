//! The Nerts table (`NertsTable`): every seat's layout and the shared foundations. It
//! validates and applies moves, lists them with [`super::moves::generate`], undoes them,
//! applies the stalemate remedies and scores the round. It knows nothing about time.

use super::moves::{
    F_FILL_ANY, F_PARTIAL, F_RECYCLE, F_RUNNING, K_CALL, K_FLIP, K_FOUNDATION, K_RECYCLE, K_WORK,
    MAX_WORK, MoveBuf, NONE, PlayerView, SRC_NERTS, SRC_WASTE, generate,
};
use super::{
    K_UNDO, Rules, StalemateRule, builds_on_foundation, depth, dst, fits_masks, kind, need_masks,
    seat_points, src,
};
use crate::card::{ACE, builds_down, deck_of, natural_face, natural_id, rank_of};
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

/// One seat's cards: piles bottom to top, the stock's top last.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Nerts pile.
    pub nerts: Vec<u8>,
    /// Work piles.
    pub work: Vec<Vec<u8>>,
    /// Stock.
    pub stock: Vec<u8>,
    /// Waste.
    pub waste: Vec<u8>,
    /// Recycles this round (passes - 1).
    pub recycles: u32,
    /// Cards per flip.
    pub flip_count: u8,
    /// Stalemate remedies applied this round.
    pub stalemates: u32,
    /// The undo stack, oldest first.
    pub undo: Vec<UndoRecord>,
}

impl Layout {
    /// Every card the seat holds (Nerts pile, stock, waste, work piles).
    #[must_use]
    pub fn all_cards(&self) -> Vec<u8> {
        let mut out: Vec<u8> = self.nerts.clone();
        out.extend(&self.stock);
        out.extend(&self.waste);
        for p in &self.work {
            out.extend(p);
        }
        out
    }

    /// The top cards of the waste its owner sees fanned (bottom to top).
    #[must_use]
    pub fn waste_fan(&self) -> &[u8] {
        let k = usize::from(self.flip_count).min(self.waste.len());
        &self.waste[self.waste.len() - k..]
    }
}

/// Every layout plus the shared foundations.
#[derive(Clone, Debug)]
pub struct Table {
    /// The options.
    pub rules: Rules,
    /// Every seat's cards.
    pub seats: Vec<Layout>,
    /// Foundation piles, in the order they were started (ids never shift).
    pub foundations: Vec<Vec<u8>>,
    /// Whether moves are still taken (false once Nerts is called or the round ended).
    pub running: bool,
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
            .map(|deck| Layout {
                nerts: deck[..n].to_vec(),
                work: deck[n..n + w].iter().map(|&c| vec![c]).collect(),
                stock: deck[n + w..].iter().rev().copied().collect(),
                waste: Vec::new(),
                recycles: 0,
                flip_count: rules.flip_count,
                stalemates: 0,
                undo: Vec::new(),
            })
            .collect();
        Self {
            rules,
            seats,
            foundations: Vec::new(),
            running: true,
        }
    }

    /// Seats at the table.
    #[must_use]
    pub fn num_players(&self) -> usize {
        self.seats.len()
    }

    /// Per suit, the ranks that fit some foundation now (see [`need_masks`]).
    #[must_use]
    pub fn need_masks(&self) -> [u16; 4] {
        need_masks(&self.foundations)
    }

    /// Whether `card` fits some foundation now.
    #[must_use]
    pub fn fits_foundation(&self, card: u8) -> bool {
        fits_masks(card, &self.need_masks())
    }

    /// The lowest foundation id `card` (not an ace) may go on.
    #[must_use]
    pub fn foundation_for(&self, card: u8) -> Option<usize> {
        self.foundations
            .iter()
            .position(|f| f.last().is_some_and(|&t| builds_on_foundation(card, t)))
    }

    /// The top card of source `s` of `seat` (Nerts pile, waste, or work pile `s`).
    #[must_use]
    pub fn source_top(&self, seat: usize, s: u8) -> Option<u8> {
        let p = &self.seats[seat];
        match s {
            SRC_NERTS => p.nerts.last().copied(),
            SRC_WASTE => p.waste.last().copied(),
            i => p.work.get(usize::from(i)).and_then(|w| w.last().copied()),
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
            stock: count(p.stock.len()),
            waste: count(p.waste.len()),
            waste_top: face(p.waste.last()),
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
        let Some(rec) = self.seats[seat].undo.last() else {
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

    /// Whether `seat` may make move `mv` now.
    #[must_use]
    pub fn is_legal(&self, seat: usize, mv: u32) -> bool {
        if !self.running || seat >= self.seats.len() {
            return false;
        }
        let p = &self.seats[seat];
        match kind(mv) {
            K_FOUNDATION => {
                let Some(card) = self.source_top(seat, src(mv)) else {
                    return false;
                };
                if dst(mv) == NONE {
                    return self.fits_foundation(card);
                }
                let t = usize::from(dst(mv));
                if rank_of(card) == ACE || t >= self.foundations.len() {
                    return false;
                }
                self.foundations[t]
                    .last()
                    .is_some_and(|&top| builds_on_foundation(card, top))
            }
            K_WORK => {
                let (s, d, j) = (src(mv), usize::from(depth(mv)), usize::from(dst(mv)));
                let w = p.work.len();
                if j >= w || usize::from(s) == j {
                    return false;
                }
                let card = if s == SRC_NERTS || s == SRC_WASTE {
                    if d != 1 {
                        return false;
                    }
                    match self.source_top(seat, s) {
                        Some(c) => c,
                        None => return false,
                    }
                } else if usize::from(s) < w {
                    let pile = &p.work[usize::from(s)];
                    if !(1..=pile.len()).contains(&d) || (!self.rules.partial && d != pile.len()) {
                        return false;
                    }
                    pile[pile.len() - d]
                } else {
                    return false;
                };
                match p.work[j].last() {
                    None => self.rules.fill_any || s == SRC_NERTS,
                    Some(&top) => builds_down(natural_face(card), natural_face(top)),
                }
            }
            K_FLIP => !p.stock.is_empty(),
            K_RECYCLE => p.stock.is_empty() && !p.waste.is_empty() && self.may_recycle(seat),
            K_CALL => p.nerts.is_empty(),
            K_UNDO => self.undo_legal(seat),
            _ => false,
        }
    }

    fn pop_source(&mut self, seat: usize, s: u8) -> u8 {
        let p = &mut self.seats[seat];
        let card = match s {
            SRC_NERTS => p.nerts.pop(),
            SRC_WASTE => p.waste.pop(),
            i => p.work[usize::from(i)].pop(),
        };
        card.unwrap_or(NONE)
    }

    fn push_source(&mut self, seat: usize, s: u8, cards: &[u8]) {
        let p = &mut self.seats[seat];
        match s {
            SRC_NERTS => p.nerts.extend(cards),
            SRC_WASTE => p.waste.extend(cards),
            i => p.work[usize::from(i)].extend(cards),
        }
    }

    /// Makes move `mv` for `seat`, which [`Table::is_legal`] has accepted.
    pub fn apply(&mut self, seat: usize, mv: u32) {
        let rec = match kind(mv) {
            K_FOUNDATION => {
                let card = self.pop_source(seat, src(mv));
                let fid = if rank_of(card) == ACE {
                    self.foundations.push(vec![card]);
                    self.foundations.len() - 1
                } else {
                    let fid = if dst(mv) == NONE {
                        self.foundation_for(card).unwrap_or(0)
                    } else {
                        usize::from(dst(mv))
                    };
                    self.foundations[fid].push(card);
                    fid
                };
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
                let (s, d, j) = (src(mv), usize::from(depth(mv)), usize::from(dst(mv)));
                let moved = if s == SRC_NERTS || s == SRC_WASTE {
                    vec![self.pop_source(seat, s)]
                } else {
                    let pile = &mut self.seats[seat].work[usize::from(s)];
                    pile.split_off(pile.len() - d)
                };
                let n = moved.len();
                self.seats[seat].work[j].extend(moved);
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
                let p = &mut self.seats[seat];
                let k = usize::from(p.flip_count).min(p.stock.len());
                let packet = p.stock.split_off(p.stock.len() - k);
                p.waste.extend(packet.iter().rev());
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
                let p = &mut self.seats[seat];
                p.stock = p.waste.iter().rev().copied().collect();
                p.waste.clear();
                p.recycles += 1;
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
        let depth_limit = self.rules.undo_depth;
        let stack = &mut self.seats[seat].undo;
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

    /// Reverses `seat`'s last move (which [`Table::undo_legal`] allows).
    fn undo(&mut self, seat: usize) {
        let Some(rec) = self.seats[seat].undo.pop() else {
            return;
        };
        match rec.kind {
            K_FOUNDATION => {
                let card = self.foundations[rec.dst].pop().unwrap_or(NONE);
                if self.foundations[rec.dst].is_empty() {
                    // an ace that started the newest foundation: the foundation goes
                    self.foundations.remove(rec.dst);
                }
                self.push_source(seat, rec.src, &[card]);
            }
            K_WORK => {
                let pile = &mut self.seats[seat].work[rec.dst];
                let moved = pile.split_off(pile.len() - rec.depth);
                self.push_source(seat, rec.src, &moved);
            }
            K_FLIP => {
                let p = &mut self.seats[seat];
                let packet = p.waste.split_off(p.waste.len() - rec.depth);
                p.stock.extend(packet.iter().rev());
            }
            _ => {
                let p = &mut self.seats[seat];
                p.waste = p.stock.iter().rev().copied().collect();
                p.stock.clear();
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
        let waste = std::mem::take(&mut p.waste);
        p.stock.extend(waste.iter().rev());
        if rule == StalemateRule::RotateOne && p.stock.len() > 1 {
            p.stock.rotate_right(1);
        } else if rule == StalemateRule::FlipOne {
            p.flip_count = 1;
        }
        p.undo.clear();
    }

    /// Per seat, its cards on the foundations.
    #[must_use]
    pub fn foundation_counts(&self) -> Vec<i32> {
        let mut counts = vec![0; self.seats.len()];
        for &c in self.foundations.iter().flatten() {
            if let Some(n) = counts.get_mut(usize::from(deck_of(c))) {
                *n += 1;
            }
        }
        counts
    }

    /// Round scores: points per own card on a foundation, less the penalty per card left in
    /// the Nerts pile, plus the caller's bonus.
    #[must_use]
    pub fn scores(&self, caller: Option<usize>) -> Vec<i32> {
        let r = &self.rules;
        self.foundation_counts()
            .iter()
            .zip(&self.seats)
            .enumerate()
            .map(|(seat, (&n, p))| {
                seat_points(
                    n,
                    i32::try_from(p.nerts.len()).unwrap_or(0),
                    caller == Some(seat),
                    r.foundation_points,
                    r.nerts_penalty,
                    r.nerts_bonus,
                )
            })
            .collect()
    }
}
