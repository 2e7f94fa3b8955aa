//! The table's storage, kept inline so that a table copies without allocating (the rollouts
//! of `hard` and `expert` copy one per candidate): a [`Pile`] of at most `N` cards, a seat's
//! [`WorkPiles`], the [`Seats`] of a table, and the foundations' [`Needs`].

use std::fmt;
use std::ops::{Deref, DerefMut};

use super::MAX_WORK;
use super::moves::{NONE, foundation_next, starts_foundation};
use crate::card::{KING, NATURALS, is_natural, natural_face, rank_of, suit_of};

/// Most seats at a table.
pub const MAX_SEATS: usize = 4;

/// A pile of at most `N` cards, bottom to top; reads as a slice (and compares as one).
#[derive(Clone, Copy)]
pub struct Pile<const N: usize> {
    cards: [u8; N],
    len: u8,
}

impl<const N: usize> Default for Pile<N> {
    fn default() -> Self {
        Self {
            cards: [0; N],
            len: 0,
        }
    }
}

impl<const N: usize> Pile<N> {
    /// The pile holding `cards` (bottom first).
    ///
    /// # Panics
    /// More than `N` cards.
    #[must_use]
    pub fn from_slice(cards: &[u8]) -> Self {
        let mut p = Self::default();
        p.cards[..cards.len()].copy_from_slice(cards);
        p.len = cards.len() as u8;
        p
    }

    /// Cards in the pile.
    #[inline]
    #[must_use]
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// Whether the pile has no cards.
    #[inline]
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The top card.
    #[inline]
    #[must_use]
    pub fn top(&self) -> Option<u8> {
        usize::from(self.len).checked_sub(1).map(|i| self.cards[i])
    }

    /// Puts `card` on top.
    #[inline]
    pub fn push(&mut self, card: u8) {
        self.cards[usize::from(self.len)] = card;
        self.len += 1;
    }

    /// Takes the top card.
    #[inline]
    pub fn pop(&mut self) -> Option<u8> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        Some(self.cards[usize::from(self.len)])
    }

    /// Puts `cards` on top, the first lowest.
    #[inline]
    pub fn extend_from_slice(&mut self, cards: &[u8]) {
        let at = usize::from(self.len);
        self.cards[at..at + cards.len()].copy_from_slice(cards);
        self.len += cards.len() as u8;
    }

    /// Keeps the bottom `len` cards.
    #[inline]
    pub fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len as u8);
    }

    /// Takes every card.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Sets the number of cards (the cards past the old length are whatever was there).
    #[inline]
    pub fn set_len(&mut self, len: usize) {
        debug_assert!(len <= N);
        self.len = len as u8;
    }
}

impl<const N: usize> Extend<u8> for Pile<N> {
    fn extend<I: IntoIterator<Item = u8>>(&mut self, iter: I) {
        for c in iter {
            self.push(c);
        }
    }
}

impl<'a, const N: usize> Extend<&'a u8> for Pile<N> {
    fn extend<I: IntoIterator<Item = &'a u8>>(&mut self, iter: I) {
        for &c in iter {
            self.push(c);
        }
    }
}

impl<const N: usize> Deref for Pile<N> {
    type Target = [u8];
    #[inline]
    fn deref(&self) -> &[u8] {
        &self.cards[..usize::from(self.len)]
    }
}

impl<const N: usize> DerefMut for Pile<N> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [u8] {
        &mut self.cards[..usize::from(self.len)]
    }
}

impl<'a, const N: usize> IntoIterator for &'a Pile<N> {
    type Item = &'a u8;
    type IntoIter = std::slice::Iter<'a, u8>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'a, const N: usize> IntoIterator for &'a mut Pile<N> {
    type Item = &'a mut u8;
    type IntoIter = std::slice::IterMut<'a, u8>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter_mut()
    }
}

impl<const N: usize> fmt::Debug for Pile<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<const N: usize> PartialEq for Pile<N> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl<const N: usize> Eq for Pile<N> {}

impl<const N: usize> PartialEq<[u8]> for Pile<N> {
    fn eq(&self, other: &[u8]) -> bool {
        **self == *other
    }
}

impl<const N: usize> PartialEq<Vec<u8>> for Pile<N> {
    fn eq(&self, other: &Vec<u8>) -> bool {
        **self == **other
    }
}

/// The most cards a work pile can hold (king down to ace).
pub const WORK_CARDS: usize = KING as usize;

/// A seat's work piles (as many as the options give it); reads as a slice of piles.
#[derive(Clone, Copy, Default)]
pub struct WorkPiles {
    piles: [Pile<WORK_CARDS>; MAX_WORK],
    len: u8,
}

impl WorkPiles {
    /// `n` empty piles.
    #[must_use]
    pub fn empty(n: usize) -> Self {
        Self {
            piles: [Pile::default(); MAX_WORK],
            len: n as u8,
        }
    }

    /// The piles (bottom to top each).
    #[must_use]
    pub fn to_vecs(&self) -> Vec<Vec<u8>> {
        self.iter().map(|p| p.to_vec()).collect()
    }
}

impl std::ops::Index<usize> for WorkPiles {
    type Output = Pile<WORK_CARDS>;
    #[inline]
    fn index(&self, i: usize) -> &Pile<WORK_CARDS> {
        debug_assert!(i < usize::from(self.len), "no work pile {i}");
        &self.piles[i]
    }
}

impl std::ops::IndexMut<usize> for WorkPiles {
    #[inline]
    fn index_mut(&mut self, i: usize) -> &mut Pile<WORK_CARDS> {
        debug_assert!(i < usize::from(self.len), "no work pile {i}");
        &mut self.piles[i]
    }
}

impl Deref for WorkPiles {
    type Target = [Pile<WORK_CARDS>];
    #[inline]
    fn deref(&self) -> &Self::Target {
        &self.piles[..usize::from(self.len)]
    }
}

impl DerefMut for WorkPiles {
    #[inline]
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.piles[..usize::from(self.len)]
    }
}

impl<'a> IntoIterator for &'a WorkPiles {
    type Item = &'a Pile<WORK_CARDS>;
    type IntoIter = std::slice::Iter<'a, Pile<WORK_CARDS>>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl fmt::Debug for WorkPiles {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl PartialEq for WorkPiles {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl Eq for WorkPiles {}

impl PartialEq<Vec<Vec<u8>>> for WorkPiles {
    fn eq(&self, other: &Vec<Vec<u8>>) -> bool {
        self.len() == other.len() && self.iter().zip(other).all(|(a, b)| a == b)
    }
}

/// The seats of a table (at most [`MAX_SEATS`]); reads as a slice.
#[derive(Clone, Copy, Default)]
pub struct Seats<T> {
    seats: [T; MAX_SEATS],
    len: u8,
}

impl<T: Copy> Seats<T> {
    /// Makes `self` a copy of `source`, copying only the seats at the table (the places past
    /// them are never read): [`Table::clone_from`](super::Table) of the rollouts' tables.
    #[inline]
    pub fn copy_from(&mut self, source: &Self) {
        let n = usize::from(source.len);
        self.seats[..n].copy_from_slice(&source.seats[..n]);
        self.len = source.len;
    }
}

impl<T: Default> FromIterator<T> for Seats<T> {
    /// # Panics
    /// More than [`MAX_SEATS`] seats.
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut s = Self::default();
        for x in iter {
            assert!(usize::from(s.len) < MAX_SEATS, "at most {MAX_SEATS} seats");
            s.seats[usize::from(s.len)] = x;
            s.len += 1;
        }
        s
    }
}

impl<T> std::ops::Index<usize> for Seats<T> {
    type Output = T;
    #[inline]
    fn index(&self, i: usize) -> &T {
        debug_assert!(i < usize::from(self.len), "seat {i} is not at the table");
        &self.seats[i]
    }
}

impl<T> std::ops::IndexMut<usize> for Seats<T> {
    #[inline]
    fn index_mut(&mut self, i: usize) -> &mut T {
        debug_assert!(i < usize::from(self.len), "seat {i} is not at the table");
        &mut self.seats[i]
    }
}

impl<T> Deref for Seats<T> {
    type Target = [T];
    #[inline]
    fn deref(&self) -> &[T] {
        &self.seats[..usize::from(self.len)]
    }
}

impl<T> DerefMut for Seats<T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.seats[..usize::from(self.len)]
    }
}

impl<'a, T> IntoIterator for &'a Seats<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<T: fmt::Debug> fmt::Debug for Seats<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<T: PartialEq> PartialEq for Seats<T> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

/// The natural face of every physical card id (`id % 52`), for [`Needs::played`].
const FACE_OF_ID: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut id = 0;
    while id < 256 {
        t[id] = (id % NATURALS as usize) as u8;
        id += 1;
    }
    t
};

/// [`foundation_next`] of every physical card id ([`NONE`] after a king), for
/// [`Needs::played`]: the rule's own answers, tabled at compile time.
const NEXT_OF_ID: [u8; 256] = {
    let mut t = [NONE; 256];
    let mut id = 0;
    while id < 256 {
        if let Some(f) = foundation_next(id as u8) {
            t[id] = f;
        }
        id += 1;
    }
    t
};

/// Bit `face` of every face that [`starts_foundation`] (the aces).
const STARTERS: u64 = {
    let mut bits = 0;
    let mut f = 0;
    while f < NATURALS {
        if starts_foundation(f) {
            bits |= 1 << f;
        }
        f += 1;
    }
    bits
};

/// What the foundations take next, kept up to date by every foundation play (the table's
/// cache of its foundation piles; a lean table keeps only this): how many foundations take
/// each face next, and bit `face` of `fit` set for every face that fits some foundation (aces
/// always). It moves on by the foundation rule ([`foundation_next`], [`starts_foundation`])
/// and states nothing of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Needs {
    /// Foundations that take each face next (aces: 0).
    takers: [u8; NATURALS as usize],
    /// Bit `face` set when that face fits some foundation now.
    pub fit: u64,
}

impl Default for Needs {
    fn default() -> Self {
        Self::from_counts([[0; 16]; 4])
    }
}

impl Needs {
    /// The needs of `count`: `count[suit][rank]` foundations take that rank next (ranks
    /// 2..=13; the other cells are not read).
    #[must_use]
    pub fn from_counts(count: [[u8; 16]; 4]) -> Self {
        let mut needs = Self {
            takers: [0; NATURALS as usize],
            fit: STARTERS,
        };
        for f in (0..NATURALS).filter(|&f| !starts_foundation(f)) {
            for _ in 0..count[usize::from(suit_of(f))][usize::from(rank_of(f))] {
                needs.need(f);
            }
        }
        needs
    }

    /// `count[suit][rank]`: how many foundations take that rank of that suit next (see
    /// [`Needs::from_counts`]).
    #[must_use]
    pub fn counts(&self) -> [[u8; 16]; 4] {
        let mut count = [[0u8; 16]; 4];
        for (f, &n) in (0..NATURALS).zip(&self.takers) {
            count[usize::from(suit_of(f))][usize::from(rank_of(f))] = n;
        }
        count
    }

    /// The needs of foundation piles (their tops).
    #[must_use]
    pub fn of_piles(piles: &[Vec<u8>]) -> Self {
        let mut needs = Self::default();
        for &top in piles.iter().filter_map(|p| p.last()) {
            needs.need_after(top);
        }
        needs
    }

    /// Whether physical card `card` fits some foundation.
    #[inline]
    #[must_use]
    pub fn fits(&self, card: u8) -> bool {
        Self::fit_has(self.fit, natural_face(card))
    }

    /// Whether natural face `face` is in `fit` (a copy of [`Needs::fit`]): it fits some
    /// foundation.
    #[inline]
    #[must_use]
    pub const fn fit_has(fit: u64, face: u8) -> bool {
        debug_assert!(is_natural(face));
        fit >> face & 1 == 1
    }

    /// Per suit, bit `rank` set when a card of that rank fits (aces left out).
    #[must_use]
    pub fn masks(&self) -> [u16; 4] {
        let mut m = [0u16; 4];
        for f in (0..NATURALS).filter(|&f| !starts_foundation(f)) {
            if Self::fit_has(self.fit, f) {
                m[usize::from(suit_of(f))] |= 1 << rank_of(f);
            }
        }
        m
    }

    /// One more foundation takes face `f`.
    #[inline]
    fn need(&mut self, f: u8) {
        let n = &mut self.takers[usize::from(f)];
        *n = n.saturating_add(1);
        self.fit |= 1 << f;
    }

    /// One foundation fewer takes face `f` (not an ace: every ace fits).
    #[inline]
    fn unneed(&mut self, f: u8) {
        let n = &mut self.takers[usize::from(f)];
        *n -= 1;
        if *n == 0 {
            self.fit &= !(1 << f);
        }
    }

    /// One more foundation takes the card after `top` (nothing after a king).
    #[inline]
    fn need_after(&mut self, top: u8) {
        if let Some(f) = foundation_next(top) {
            self.need(f);
        }
    }

    /// Physical card `card` went onto a foundation. Its face and the face that goes on it
    /// next come from tables (every foundation play of a rollout makes this; no divisions).
    #[inline]
    pub fn played(&mut self, card: u8) {
        let f = FACE_OF_ID[usize::from(card)];
        if STARTERS >> f & 1 == 0 {
            self.unneed(f);
        }
        let next = NEXT_OF_ID[usize::from(card)];
        if next != NONE {
            self.need(next);
        }
    }

    /// Physical card `card` came back off a foundation (undo).
    pub fn taken_back(&mut self, card: u8) {
        let f = natural_face(card);
        if let Some(next) = foundation_next(f) {
            self.unneed(next);
        }
        if !starts_foundation(f) {
            self.need(f);
        }
    }
}

/// A seat's stock and waste as one list in *cycle order*, the order a pass turns the cards:
/// the waste from bottom to top, then the stock from its top down. A flip moves the boundary,
/// turning the waste back over resets it, and playing the waste top closes its gap.
#[derive(Clone, Copy)]
pub struct Cycle {
    cards: [u8; NATURALS as usize],
    len: u8,
    waste: u8,
}

impl Default for Cycle {
    fn default() -> Self {
        Self {
            cards: [0; NATURALS as usize],
            len: 0,
            waste: 0,
        }
    }
}

impl Cycle {
    /// The waste `waste` (bottom to top) and the stock `stock` (from its top down).
    ///
    /// # Panics
    /// More than 52 cards.
    #[must_use]
    pub fn new(waste: &[u8], stock: &[u8]) -> Self {
        let mut c = Self::default();
        let w = waste.len();
        c.cards[..w].copy_from_slice(waste);
        c.cards[w..w + stock.len()].copy_from_slice(stock);
        c.len = (w + stock.len()) as u8;
        c.waste = w as u8;
        c
    }

    /// Every card in cycle order.
    #[inline]
    #[must_use]
    pub fn cards(&self) -> &[u8] {
        &self.cards[..usize::from(self.len)]
    }

    /// Every card in cycle order, to change cards in place.
    #[inline]
    pub fn cards_mut(&mut self) -> &mut [u8] {
        &mut self.cards[..usize::from(self.len)]
    }

    /// The waste, bottom to top.
    #[inline]
    #[must_use]
    pub fn waste(&self) -> &[u8] {
        &self.cards[..usize::from(self.waste)]
    }

    /// The waste, bottom to top, to change cards in place.
    #[inline]
    pub fn waste_mut(&mut self) -> &mut [u8] {
        &mut self.cards[..usize::from(self.waste)]
    }

    /// The stock from its top down.
    #[inline]
    #[must_use]
    pub fn stock(&self) -> &[u8] {
        &self.cards[usize::from(self.waste)..usize::from(self.len)]
    }

    /// The stock from its top down, to change cards in place.
    #[inline]
    pub fn stock_mut(&mut self) -> &mut [u8] {
        &mut self.cards[usize::from(self.waste)..usize::from(self.len)]
    }

    /// Cards in the waste.
    #[inline]
    #[must_use]
    pub fn waste_len(&self) -> usize {
        usize::from(self.waste)
    }

    /// Cards in the stock.
    #[inline]
    #[must_use]
    pub fn stock_len(&self) -> usize {
        usize::from(self.len - self.waste)
    }

    /// The waste top.
    #[inline]
    #[must_use]
    pub fn waste_top(&self) -> Option<u8> {
        usize::from(self.waste)
            .checked_sub(1)
            .map(|i| self.cards[i])
    }

    /// Turns the top `k` stock cards (at most the stock) onto the waste, the top one first;
    /// returns how many.
    #[inline]
    pub fn flip(&mut self, k: usize) -> usize {
        let k = k.min(self.stock_len());
        self.waste += k as u8;
        k
    }

    /// Puts the top `k` waste cards back on the stock (a flip undone).
    #[inline]
    pub fn unflip(&mut self, k: usize) {
        self.waste -= k as u8;
    }

    /// Turns the waste over onto the stock: a recycle (the stock is empty), or the stalemate
    /// remedy's waste turned back onto what is left of the stock.
    #[inline]
    pub fn turn_over(&mut self) {
        self.waste = 0;
    }

    /// Turns a stock that was the waste back into the waste (a recycle undone).
    #[inline]
    pub fn unturn(&mut self) {
        self.waste = self.len;
    }

    /// Takes the waste top.
    #[inline]
    pub fn pop_waste(&mut self) -> Option<u8> {
        let w = usize::from(self.waste);
        let card = *self.cards.get(w.checked_sub(1)?)?;
        self.cards.copy_within(w..usize::from(self.len), w - 1);
        self.waste -= 1;
        self.len -= 1;
        Some(card)
    }

    /// Puts `card` on the waste.
    pub fn push_waste(&mut self, card: u8) {
        let (w, n) = (usize::from(self.waste), usize::from(self.len));
        self.cards.copy_within(w..n, w + 1);
        self.cards[w] = card;
        self.waste += 1;
        self.len += 1;
    }

    /// Moves the stock's top card to its bottom.
    pub fn stock_top_to_bottom(&mut self) {
        self.stock_mut().rotate_left(1);
    }
}

impl PartialEq for Cycle {
    fn eq(&self, other: &Self) -> bool {
        self.cards() == other.cards() && self.waste == other.waste
    }
}

impl Eq for Cycle {}

impl fmt::Debug for Cycle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Cycle")
            .field("waste", &self.waste())
            .field("stock", &self.stock())
            .finish()
    }
}
