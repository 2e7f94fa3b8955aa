//! The table's storage, kept inline so that a table copies without allocating (the rollouts
//! of `hard` and `expert` copy one per candidate): a [`Pile`] of at most `N` cards, a seat's
//! [`WorkPiles`], the [`Seats`] of a table, and the foundations' [`Needs`].

use std::fmt;
use std::ops::{Deref, DerefMut};

use super::MAX_WORK;
use crate::card::{ACE, KING, face, natural_face, rank_of, suit_of};

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
#[derive(Clone, Default)]
pub struct Seats<T> {
    seats: [T; MAX_SEATS],
    len: u8,
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

/// What the foundations take next, kept up to date by every foundation play (the table's
/// cache of its foundation piles; a lean table keeps only this): `count[suit][rank]`
/// foundations take that rank next (ranks 2..=13), and bit `face` of `fit` is set for every
/// face that fits some foundation (aces always).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Needs {
    /// Foundations per suit and rank that take it next.
    pub count: [[u8; 16]; 4],
    /// Bit `face` set when that face fits some foundation now.
    pub fit: u64,
}

impl Default for Needs {
    fn default() -> Self {
        Self::from_counts([[0; 16]; 4])
    }
}

impl Needs {
    /// The needs of `count` (see [`Needs::count`]).
    #[must_use]
    pub fn from_counts(count: [[u8; 16]; 4]) -> Self {
        let mut fit = 0;
        for (s, row) in count.iter().enumerate() {
            let s = s as u8;
            fit |= 1 << face(ACE, s);
            for (r, &n) in row.iter().enumerate().take(14).skip(2) {
                if n > 0 {
                    fit |= 1 << face(r as u8, s);
                }
            }
        }
        Self { count, fit }
    }

    /// The needs of foundation piles (their tops).
    #[must_use]
    pub fn of_piles(piles: &[Vec<u8>]) -> Self {
        let mut count = [[0u8; 16]; 4];
        for top in piles.iter().filter_map(|p| p.last()) {
            let r = usize::from(rank_of(*top));
            if r < usize::from(KING) {
                let cell = &mut count[usize::from(suit_of(*top))][r + 1];
                *cell = cell.saturating_add(1);
            }
        }
        Self::from_counts(count)
    }

    /// Whether physical card `card` fits some foundation.
    #[inline]
    #[must_use]
    pub fn fits(&self, card: u8) -> bool {
        self.fit >> natural_face(card) & 1 == 1
    }

    /// Per suit, bit `rank` set when a card of that rank fits (aces left out).
    #[must_use]
    pub fn masks(&self) -> [u16; 4] {
        let mut m = [0u16; 4];
        for (s, row) in self.count.iter().enumerate() {
            for (r, &n) in row.iter().enumerate().take(14).skip(2) {
                if n > 0 {
                    m[s] |= 1 << r;
                }
            }
        }
        m
    }

    /// Physical card `card` went onto a foundation.
    #[inline]
    pub fn played(&mut self, card: u8) {
        let f = natural_face(card);
        let (s, r) = (usize::from(suit_of(f)), usize::from(rank_of(f)));
        if r > usize::from(ACE) {
            self.count[s][r] -= 1;
            if self.count[s][r] == 0 {
                self.fit &= !(1 << f);
            }
        }
        if r < usize::from(KING) {
            self.count[s][r + 1] = self.count[s][r + 1].saturating_add(1);
            self.fit |= 1 << (f + 1);
        }
    }

    /// Physical card `card` came back off a foundation (undo).
    pub fn taken_back(&mut self, card: u8) {
        let f = natural_face(card);
        let (s, r) = (usize::from(suit_of(f)), usize::from(rank_of(f)));
        if r < usize::from(KING) {
            self.count[s][r + 1] -= 1;
            if self.count[s][r + 1] == 0 {
                self.fit &= !(1 << (f + 1));
            }
        }
        if r > usize::from(ACE) {
            self.count[s][r] = self.count[s][r].saturating_add(1);
            self.fit |= 1 << f;
        }
    }
}
