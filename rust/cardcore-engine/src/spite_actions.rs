//! Spite & Malice legal action ids (the embedding protocol's `legal_actions`, the layout of
//! `python/cardcore/spite_malice/game.py` and `docs/embedding.md`): which plays and discards
//! are legal as ids and what an id means, used by the rulebook
//! ([`crate::games::spite_malice`]) and, bound as `_core.SpiteActions`, by the 0.4.0 Python
//! engine the tests keep as the oracle.
//!
//! With `C` centre slots, `S` side stacks and `F` faces the ids are, in this order: the pay-off
//! top to slot `c` (`c`), side stack `k`'s top to slot `c` (`C + k * C + c`), a hand card of
//! face `f` to slot `c` (`hand_base + f * C + c`), a hand card of face `f` onto side stack `k`
//! (`discard_base + f * S + k`). Cards are physical ids; equal faces are one action.

use thiserror::Error;

use crate::games::spite_malice::moves::{
    self, Build, DiscardRules, Position, SideRule, SideTop, Source,
};

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

/// Which discards [`ActionLayout::legal`] lists after the plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Discards {
    /// None (the caller lists them).
    None,
    /// Every hand face onto every side stack.
    Any,
    /// As the options say: none while `must_play_aces` and an ace can be played; under a
    /// side-stack rule other than `Any`, every hand face onto each stack that takes it, or onto
    /// every stack when no hand card fits anywhere (the rule is lifted).
    Rules {
        /// Which cards a side stack takes.
        side_rule: SideRule,
        /// A playable ace must be played before discarding.
        must_play_aces: bool,
    },
}

impl Discards {
    /// The discards of these options ([`Discards::Any`] when nothing restricts them).
    #[must_use]
    pub fn of(side_rule: SideRule, must_play_aces: bool) -> Self {
        if side_rule == SideRule::Any && !must_play_aces {
            Self::Any
        } else {
            Self::Rules {
                side_rule,
                must_play_aces,
            }
        }
    }
}

/// What an action id plays (the inverse of the layout's numbering).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// The pay-off top to centre slot `center`.
    PayOff {
        /// Centre slot.
        center: usize,
    },
    /// Side stack `side`'s top to centre slot `center`.
    Side {
        /// Side stack.
        side: usize,
        /// Centre slot.
        center: usize,
    },
    /// A hand card of face `face` to centre slot `center`.
    Hand {
        /// Face.
        face: u16,
        /// Centre slot.
        center: usize,
    },
    /// A hand card of face `face` onto side stack `side`.
    Discard {
        /// Face.
        face: u16,
        /// Side stack.
        side: usize,
    },
}

/// Side stacks whose ranks [`ActionLayout::legal`] keeps on the stack (the rules allow 1 to 8).
const MAX_STACK_SIDES: usize = 8;

/// The action layout of one game's options.
#[derive(Clone, Debug)]
pub struct ActionLayout {
    slots: usize,
    sides: usize,
    hand_base: usize,
    discard_base: usize,
    /// Faces in the ids (the highest face + 1).
    faces: usize,
    build: Build,
    face: Vec<u16>,
    face_rank: Vec<u8>,
}

impl ActionLayout {
    /// `face[card]` is the face of every physical card, `face_rank[f]` the building rank of a
    /// face (0 = wild; the highest rank completes a stack); a wild card starts an empty stack
    /// only with `wild_start`.
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
        let top = face_rank.iter().copied().max().unwrap_or(0);
        Ok(Self {
            slots,
            sides,
            hand_base,
            discard_base: hand_base + faces * slots,
            faces,
            build: Build { top, wild_start },
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

    /// Size of the action space.
    #[must_use]
    pub fn num_actions(&self) -> usize {
        self.discard_base + self.faces * self.sides
    }

    /// What action id `id` plays; `None` past the last id.
    #[must_use]
    pub fn decode(&self, id: usize) -> Option<Action> {
        let (slots, sides) = (self.slots, self.sides);
        let face = |k: usize| u16::try_from(k).ok();
        Some(if id < slots {
            Action::PayOff { center: id }
        } else if id < self.hand_base {
            let k = id - slots;
            Action::Side {
                side: k / slots,
                center: k % slots,
            }
        } else if id < self.discard_base {
            let k = id - self.hand_base;
            Action::Hand {
                face: face(k / slots)?,
                center: k % slots,
            }
        } else if id < self.num_actions() {
            let k = id - self.discard_base;
            Action::Discard {
                face: face(k / sides)?,
                side: k % sides,
            }
        } else {
            return None;
        })
    }

    fn rank<C: Into<usize>>(&self, card: C) -> Result<u8, ActionError> {
        Ok(self.face_rank[usize::from(self.face(card.into())?)])
    }

    /// The legal action ids of the seat to play, sorted: `center` holds the size of every
    /// centre stack, `payoff_top` the pay-off top, `side_tops` the top of each side stack,
    /// `hand` the hand (physical card ids); the plays, then the discards `discards` lists.
    pub fn legal<C: Copy + Into<usize>>(
        &self,
        center: &[usize],
        payoff_top: Option<C>,
        side_tops: &[Option<C>],
        hand: &[C],
        discards: Discards,
        out: &mut Vec<usize>,
    ) -> Result<(), ActionError> {
        if center.len() > self.slots {
            return Err(ActionError::TooManySlots(center.len(), self.slots));
        }
        if side_tops.len() != self.sides {
            return Err(ActionError::WrongSides(side_tops.len(), self.sides));
        }
        let payoff = payoff_top.map(|c| self.rank(c)).transpose()?;
        // on the stack for the sizes the rules allow (no allocation a step), else on the heap
        let (mut side_buf, side_vec);
        let sides: &[Option<u8>] = if side_tops.len() <= MAX_STACK_SIDES {
            side_buf = [None; MAX_STACK_SIDES];
            for (b, top) in side_buf.iter_mut().zip(side_tops) {
                *b = top.map(|c| self.rank(c)).transpose()?;
            }
            &side_buf[..side_tops.len()]
        } else {
            side_vec = side_tops
                .iter()
                .map(|top| top.map(|c| self.rank(c)).transpose())
                .collect::<Result<Vec<_>, _>>()?;
            &side_vec
        };
        let (mut face_buf, mut face_vec);
        let faces: &[u16] = if self.faces <= 64 {
            // the hand's distinct faces in face order, through a bit set
            let mut seen = 0u64;
            for &c in hand {
                seen |= 1 << self.face(c.into())?;
            }
            face_buf = [0u16; 64];
            let mut n = 0;
            while seen != 0 {
                face_buf[n] = seen.trailing_zeros() as u16;
                seen &= seen - 1;
                n += 1;
            }
            &face_buf[..n]
        } else {
            face_vec = hand
                .iter()
                .map(|&c| self.face(c.into()))
                .collect::<Result<Vec<u16>, _>>()?;
            face_vec.sort_unstable();
            face_vec.dedup();
            &face_vec
        };
        let view = LayoutView {
            layout: self,
            center,
            payoff,
            sides,
            faces,
        };
        let slots = self.slots;
        moves::plays(&view, self.build, |src, c| {
            out.push(match src {
                Source::PayOff => c,
                Source::Side(k) => slots + k * slots + c,
                Source::Hand(f) => self.hand_base + f * slots + c,
            });
        });
        let rules = match discards {
            Discards::None => return Ok(()),
            Discards::Any => DiscardRules {
                side_rule: SideRule::Any,
                must_play_aces: false,
            },
            Discards::Rules {
                side_rule,
                must_play_aces,
            } => DiscardRules {
                side_rule,
                must_play_aces,
            },
        };
        moves::discards(&view, rules, |f, k| {
            out.push(self.discard_base + f * self.sides + k);
        });
        Ok(())
    }
}

/// A position of the ids as the rulebook's move rules read it: the hand is its distinct faces
/// in face order (an id plays a face), numbered by face.
struct LayoutView<'a> {
    layout: &'a ActionLayout,
    center: &'a [usize],
    payoff: Option<u8>,
    sides: &'a [Option<u8>],
    faces: &'a [u16],
}

impl Position for LayoutView<'_> {
    fn slots(&self) -> impl Iterator<Item = (usize, u8)> {
        self.center
            .iter()
            .enumerate()
            .map(|(c, &len)| (c, u8::try_from(len).unwrap_or(u8::MAX)))
    }

    fn payoff_top(&self) -> Option<u8> {
        self.payoff
    }

    fn side_stacks(&self) -> usize {
        self.sides.len()
    }

    fn side_top(&self, k: usize) -> SideTop {
        self.sides[k].map_or(SideTop::Empty, SideTop::Card)
    }

    fn hand(&self) -> impl Iterator<Item = (usize, u8)> {
        let rank = &self.layout.face_rank;
        self.faces
            .iter()
            .map(|&f| (usize::from(f), rank[usize::from(f)]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::{KING, NATURALS, rank};

    /// One deck, kings wild (rank 0), three slots, two side stacks.
    fn layout() -> ActionLayout {
        let face: Vec<u16> = (0..52).collect();
        let face_rank = (0..NATURALS)
            .map(|f| if rank(f) == KING { 0 } else { rank(f) })
            .collect();
        ActionLayout::new(3, 2, face, face_rank, true).unwrap()
    }

    #[test]
    fn plays_then_discards_sorted() {
        let l = layout();
        // stacks of 0, 1 and 0 cards; pay-off top Ac (id 0); side tops 2c (1) and none;
        // hand 2d (14) and Kc (12, wild)
        let mut out = Vec::new();
        l.legal::<usize>(
            &[0, 1, 0],
            Some(0),
            &[Some(1), None],
            &[14, 12],
            Discards::Any,
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
    fn restricted_discards() {
        let l = layout();
        let hand_base = 3 + 2 * 3;
        let discard_base = hand_base + 52 * 3;
        let legal = |center: &[usize], tops: &[Option<usize>], hand: &[usize], d: Discards| {
            let mut out = Vec::new();
            l.legal(center, None, tops, hand, d, &mut out).unwrap();
            out.retain(|&a| a >= discard_base);
            out
        };
        let same = Discards::of(SideRule::SameOrOneLower, false);
        // 3c (id 2) on side stack 0, side stack 1 empty: 2d (14) fits both, 5d (17) only 1
        assert_eq!(
            legal(&[1, 1, 1], &[Some(2), None], &[14, 17], same),
            vec![
                discard_base + 14 * 2,
                discard_base + 14 * 2 + 1,
                discard_base + 17 * 2 + 1
            ]
        );
        // nothing fits: the rule is lifted
        assert_eq!(
            legal(&[1, 1, 1], &[Some(2), Some(2)], &[17], same),
            vec![discard_base + 17 * 2, discard_base + 17 * 2 + 1]
        );
        let no_aces = Discards::of(SideRule::NoAces, false);
        assert_eq!(
            legal(&[1, 1, 1], &[None, None], &[13, 17], no_aces).len(),
            2
        );
        // an ace (Ad, 13) in hand and an empty centre stack: no discard at all
        let aces = Discards::of(SideRule::Any, true);
        assert!(legal(&[1, 0, 1], &[None, None], &[13, 17], aces).is_empty());
        assert_eq!(legal(&[1, 1, 1], &[None, None], &[13, 17], aces).len(), 4);
        assert_eq!(Discards::of(SideRule::Any, false), Discards::Any);
    }

    #[test]
    fn decode_inverts_the_numbering() {
        let l = layout();
        let hand_base = 3 + 2 * 3;
        let discard_base = hand_base + 52 * 3;
        assert_eq!(l.num_actions(), discard_base + 52 * 2);
        assert_eq!(l.decode(2), Some(Action::PayOff { center: 2 }));
        assert_eq!(
            l.decode(3 + 3 + 1),
            Some(Action::Side { side: 1, center: 1 })
        );
        assert_eq!(
            l.decode(hand_base + 14 * 3 + 2),
            Some(Action::Hand {
                face: 14,
                center: 2
            })
        );
        assert_eq!(
            l.decode(discard_base + 51 * 2 + 1),
            Some(Action::Discard { face: 51, side: 1 })
        );
        assert_eq!(l.decode(l.num_actions()), None);
    }

    #[test]
    fn bad_positions_are_errors() {
        let l = layout();
        let mut out = Vec::new();
        assert_eq!(
            l.legal::<usize>(&[0], None, &[None; 2], &[52], Discards::Any, &mut out),
            Err(ActionError::NoSuchCard(52))
        );
        assert_eq!(
            l.legal::<usize>(&[0; 4], None, &[None; 2], &[], Discards::Any, &mut out),
            Err(ActionError::TooManySlots(4, 3))
        );
        assert_eq!(
            l.legal::<usize>(&[0], None, &[None], &[], Discards::Any, &mut out),
            Err(ActionError::WrongSides(1, 2))
        );
        assert!(ActionLayout::new(3, 2, vec![5], vec![1; 5], true).is_err());
    }
}
