//! Spite & Malice legal action ids (the embedding protocol's `legal_actions`, the layout of
//! `python/cardcore/spite_malice/game.py` and `docs/embedding.md`).
//!
//! With `C` centre slots, `S` side stacks and `F` faces the ids are, in this order: the pay-off
//! top to slot `c` (`c`), side stack `k`'s top to slot `c` (`C + k * C + c`), a hand card of
//! face `f` to slot `c` (`hand_base + f * C + c`), a hand card of face `f` onto side stack `k`
//! (`discard_base + f * S + k`). Cards are physical ids; equal faces are one action.

use thiserror::Error;

/// A layout or position the ids cannot be computed for.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum ActionError {
    #[error("card id {0} is not a card of this game")]
    NoSuchCard(usize),
    #[error("{0} centre slots, the layout has {1}")]
    TooManySlots(usize, usize),
    #[error("{0} side stacks, the layout has {1}")]
    WrongSides(usize, usize),
    #[error("a face has no building rank (faces {0}, ranks {1})")]
    NoRank(usize, usize),
}

/// The action layout of one game's options.
#[derive(Clone, Debug)]
pub struct ActionLayout {
    slots: usize,
    sides: usize,
    hand_base: usize,
    discard_base: usize,
    wild_start: bool,
    face: Vec<u16>,
    face_rank: Vec<u8>,
}

impl ActionLayout {
    /// `face[card]` is the face of every physical card, `face_rank[f]` the building rank of a
    /// face (0 = wild); a wild card starts an empty stack only with `wild_start`.
    pub fn new(
        slots: usize,
        sides: usize,
        face: Vec<u16>,
        face_rank: Vec<u8>,
        wild_start: bool,
    ) -> Result<Self, ActionError> {
        let faces = face.iter().map(|&f| usize::from(f) + 1).max().unwrap_or(0);
        if faces > face_rank.len() {
            return Err(ActionError::NoRank(faces, face_rank.len()));
        }
        let hand_base = slots + sides * slots;
        Ok(Self {
            slots,
            sides,
            hand_base,
            discard_base: hand_base + faces * slots,
            wild_start,
            face,
            face_rank,
        })
    }

    /// The face of physical card `card`.
    pub fn face(&self, card: usize) -> Result<u16, ActionError> {
        self.face
            .get(card)
            .copied()
            .ok_or(ActionError::NoSuchCard(card))
    }

    fn rank(&self, card: usize) -> Result<u8, ActionError> {
        Ok(self.face_rank[usize::from(self.face(card)?)])
    }

    /// Pushes `base + c` for every centre slot `c` a card of building rank `rank` goes on.
    fn push_targets(&self, center: &[usize], rank: u8, base: usize, out: &mut Vec<usize>) {
        for (c, &len) in center.iter().enumerate() {
            let fits = if rank == 0 {
                len > 0 || self.wild_start
            } else {
                usize::from(rank) == len + 1
            };
            if fits {
                out.push(base + c);
            }
        }
    }

    /// The legal action ids of the seat to play, sorted: `center` holds the size of every
    /// centre stack, `payoff_top` the pay-off top, `side_tops` the top of each side stack,
    /// `hand` the hand; with `discards` every hand face onto every side stack follows (the
    /// plain discard rules; the caller adds restricted discards itself).
    pub fn legal(
        &self,
        center: &[usize],
        payoff_top: Option<usize>,
        side_tops: &[Option<usize>],
        hand: &[usize],
        discards: bool,
        out: &mut Vec<usize>,
    ) -> Result<(), ActionError> {
        if center.len() > self.slots {
            return Err(ActionError::TooManySlots(center.len(), self.slots));
        }
        if side_tops.len() != self.sides {
            return Err(ActionError::WrongSides(side_tops.len(), self.sides));
        }
        if let Some(card) = payoff_top {
            self.push_targets(center, self.rank(card)?, 0, out);
        }
        for (k, top) in side_tops.iter().enumerate() {
            if let Some(card) = *top {
                let base = self.slots + k * self.slots;
                self.push_targets(center, self.rank(card)?, base, out);
            }
        }
        let mut faces: Vec<u16> = hand
            .iter()
            .map(|&c| self.face(c))
            .collect::<Result<_, _>>()?;
        faces.sort_unstable();
        faces.dedup();
        for &f in &faces {
            let f = usize::from(f);
            let base = self.hand_base + f * self.slots;
            self.push_targets(center, self.face_rank[f], base, out);
        }
        if discards {
            for &f in &faces {
                let base = self.discard_base + usize::from(f) * self.sides;
                out.extend(base..base + self.sides);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One deck, kings wild (rank 0), three slots, two side stacks.
    fn layout() -> ActionLayout {
        let face: Vec<u16> = (0..52).collect();
        let face_rank = (0..52)
            .map(|f| if f % 13 == 12 { 0 } else { f % 13 + 1 })
            .collect();
        ActionLayout::new(3, 2, face, face_rank, true).unwrap()
    }

    #[test]
    fn plays_then_discards_sorted() {
        let l = layout();
        // stacks of 0, 1 and 0 cards; pay-off top Ac (id 0); side tops 2c (1) and none;
        // hand 2d (14) and Kc (12, wild)
        let mut out = Vec::new();
        l.legal(
            &[0, 1, 0],
            Some(0),
            &[Some(1), None],
            &[14, 12],
            true,
            &mut out,
        )
        .unwrap();
        let hand_base = 3 + 2 * 3;
        let discard_base = hand_base + 52 * 3;
        let mut want = vec![0, 2, 3 + 1];
        want.extend([
            hand_base + 12 * 3,
            hand_base + 12 * 3 + 1,
            hand_base + 12 * 3 + 2,
        ]);
        want.push(hand_base + 14 * 3 + 1);
        want.extend([discard_base + 12 * 2, discard_base + 12 * 2 + 1]);
        want.extend([discard_base + 14 * 2, discard_base + 14 * 2 + 1]);
        assert_eq!(out, want);
    }

    #[test]
    fn bad_positions_are_errors() {
        let l = layout();
        let mut out = Vec::new();
        assert_eq!(
            l.legal(&[0], None, &[None; 2], &[52], true, &mut out),
            Err(ActionError::NoSuchCard(52))
        );
        assert_eq!(
            l.legal(&[0; 4], None, &[None; 2], &[], true, &mut out),
            Err(ActionError::TooManySlots(4, 3))
        );
        assert_eq!(
            l.legal(&[0], None, &[None], &[], true, &mut out),
            Err(ActionError::WrongSides(1, 2))
        );
        assert!(ActionLayout::new(3, 2, vec![5], vec![1; 5], true).is_err());
    }
}
