//! The move rules of Spite & Malice over a compact position: which card goes on which centre
//! stack and what a play does to it, the side-stack discard rules and their lifting, and the
//! playable-ace rule. The one implementation of these rules: the rulebook's state
//! ([`super::State`]), the legal action ids ([`crate::spite_actions`]) and the planner's search
//! ([`crate::spite`]) all take their moves from [`plays`] and [`discards`], each over its own
//! encoding of the position (a [`Position`]).
//!
//! Cards are building values: `1..=top` for naturals and [`WILD`] (0) for a wild card; a
//! centre stack is its effective rank (its size; 0 is a free slot).

/// Building value of a wild card.
pub const WILD: u8 = 0;

/// Side-stack discard rule (option `side_stack_rule`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SideRule {
    /// Any card on any own side stack.
    Any,
    /// A card of the same rank as the top or one lower; empty stacks take anything.
    SameOrOneLower,
    /// No aces on side stacks.
    NoAces,
}

impl SideRule {
    /// Whether a side stack whose top is `top` takes a discard of value `v` under this rule
    /// (before the rule is lifted, see [`discards`]). A top the position does not know
    /// ([`SideTop::Unknown`]) takes no natural under `SameOrOneLower`.
    #[inline(always)]
    #[must_use]
    pub fn takes(self, v: u8, top: SideTop) -> bool {
        match self {
            Self::Any => true,
            Self::NoAces => v != 1,
            Self::SameOrOneLower => match top {
                SideTop::Empty => true,
                _ if v == WILD => true,
                SideTop::Card(t) => t == WILD || t == v || t == v + 1,
                SideTop::Unknown => false,
            },
        }
    }
}

/// What a position shows of a side stack's top.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SideTop {
    /// The stack is empty.
    Empty,
    /// Its top card's value.
    Card(u8),
    /// The stack has cards the position does not show (a search told only its upper cards).
    Unknown,
}

/// Whether a card of value `v` continues a centre stack of effective rank `e`: the next value,
/// or a wild card on a started stack (on an empty one only with `wild_start`).
#[inline(always)]
#[must_use]
pub const fn builds_on(v: u8, e: usize, wild_start: bool) -> bool {
    if v == WILD {
        e > 0 || wild_start
    } else {
        v as usize == e + 1
    }
}

/// The building rules of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Build {
    /// Completing rank: 12 with wild kings, 13 with jokers.
    pub top: u8,
    /// A wild card may start an empty stack.
    pub wild_start: bool,
}

impl Build {
    /// Whether a card of value `v` goes on a centre stack of effective rank `e` now: the next
    /// value, or a wild card on a started stack below the completing rank (on an empty one
    /// only with `wild_start`). Values are at most `top`, so a natural fits only a stack
    /// below it ([`builds_on`] with the completing rank; the search's hottest test).
    #[inline(always)]
    #[must_use]
    pub const fn fits(self, v: u8, e: u8) -> bool {
        if v == WILD {
            e < self.top && (e > 0 || self.wild_start)
        } else {
            v == e.wrapping_add(1)
        }
    }

    /// Whether a stack of `len` cards is complete (it leaves the centre).
    #[inline(always)]
    #[must_use]
    pub const fn complete(self, len: usize) -> bool {
        len >= self.top as usize
    }

    /// The effective rank of a stack of rank `e` after a play on it: `e + 1`, or 0 (a free
    /// slot) when the play completes it.
    #[inline(always)]
    #[must_use]
    pub const fn after_play(self, e: u8) -> u8 {
        if self.complete(e as usize + 1) {
            0
        } else {
            e + 1
        }
    }
}

/// The discard rules of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DiscardRules {
    /// Which cards a side stack takes.
    pub side_rule: SideRule,
    /// A playable ace must be played before discarding.
    pub must_play_aces: bool,
}

/// A position of the seat to play as the move rules read it.
pub trait Position {
    /// The centre slots a card may go to, as `(slot, effective rank)`, in slot order. A
    /// search may leave out a slot of the same rank as an earlier one (the same move).
    fn slots(&self) -> impl Iterator<Item = (usize, u8)>;
    /// The pay-off top's value (`None`: none to play).
    fn payoff_top(&self) -> Option<u8>;
    /// Side stacks of the seat.
    fn side_stacks(&self) -> usize;
    /// The top of side stack `k`.
    fn side_top(&self, k: usize) -> SideTop;
    /// The hand as `(index, value)`, in hand order. A search may leave out a card of the
    /// same value as an earlier one (the same move).
    fn hand(&self) -> impl Iterator<Item = (usize, u8)>;
}

/// Where a play to the centre comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The pay-off top.
    PayOff,
    /// Side stack `.0`'s top.
    Side(usize),
    /// Hand card `.0` (the position's index).
    Hand(usize),
}

/// Every play to the centre, in order: the pay-off top, the side tops (in stack order), the
/// hand (in hand order), each to every slot it fits (in slot order); `f(source, slot)`.
#[inline(always)]
pub fn plays<P: Position>(p: &P, b: Build, mut f: impl FnMut(Source, usize)) {
    if let Some(v) = p.payoff_top() {
        for (c, e) in p.slots() {
            if b.fits(v, e) {
                f(Source::PayOff, c);
            }
        }
    }
    for k in 0..p.side_stacks() {
        if let SideTop::Card(v) = p.side_top(k) {
            for (c, e) in p.slots() {
                if b.fits(v, e) {
                    f(Source::Side(k), c);
                }
            }
        }
    }
    for (i, v) in p.hand() {
        for (c, e) in p.slots() {
            if b.fits(v, e) {
                f(Source::Hand(i), c);
            }
        }
    }
}

/// Whether an ace could be played now: a free slot, and an ace in the hand, on a side top or
/// on the pay-off pile.
#[inline(always)]
pub fn ace_playable<P: Position>(p: &P) -> bool {
    p.slots().any(|(_, e)| e == 0)
        && (p.hand().any(|(_, v)| v == 1)
            || (0..p.side_stacks()).any(|k| p.side_top(k) == SideTop::Card(1))
            || p.payoff_top() == Some(1))
}

/// Whether the side-stack rule is lifted: no hand card may go on any side stack under it.
#[inline(always)]
pub fn lifted<P: Position>(p: &P, rule: SideRule) -> bool {
    !p.hand()
        .any(|(_, v)| (0..p.side_stacks()).any(|k| rule.takes(v, p.side_top(k))))
}

/// Every discard, `f(hand index, side stack)` in hand order then stack order: none while a
/// playable ace must be played first; under a side-stack rule, each stack that takes the
/// card, or every stack when no hand card may go anywhere (the rule is lifted).
#[inline(always)]
pub fn discards<P: Position>(p: &P, r: DiscardRules, mut f: impl FnMut(usize, usize)) {
    if r.must_play_aces && ace_playable(p) {
        return;
    }
    let free = r.side_rule == SideRule::Any || lifted(p, r.side_rule);
    for (i, v) in p.hand() {
        for k in 0..p.side_stacks() {
            if free || r.side_rule.takes(v, p.side_top(k)) {
                f(i, k);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A position given as plain lists (`sides`: each stack's top, `Unknown` as `None`).
    struct Plain {
        center: Vec<u8>,
        payoff: Option<u8>,
        sides: Vec<SideTop>,
        hand: Vec<u8>,
    }

    impl Position for Plain {
        fn slots(&self) -> impl Iterator<Item = (usize, u8)> {
            self.center.iter().copied().enumerate()
        }
        fn payoff_top(&self) -> Option<u8> {
            self.payoff
        }
        fn side_stacks(&self) -> usize {
            self.sides.len()
        }
        fn side_top(&self, k: usize) -> SideTop {
            self.sides[k]
        }
        fn hand(&self) -> impl Iterator<Item = (usize, u8)> {
            self.hand.iter().copied().enumerate()
        }
    }

    const KINGS: Build = Build {
        top: 12,
        wild_start: true,
    };

    #[test]
    fn building_and_completing() {
        assert!(KINGS.fits(1, 0) && KINGS.fits(12, 11) && !KINGS.fits(3, 1));
        assert!(KINGS.fits(WILD, 0) && KINGS.fits(WILD, 11));
        let strict = Build {
            top: 13,
            wild_start: false,
        };
        assert!(!strict.fits(WILD, 0) && strict.fits(WILD, 12) && strict.fits(13, 12));
        assert_eq!((KINGS.after_play(10), KINGS.after_play(11)), (11, 0));
        assert!(KINGS.complete(12) && !KINGS.complete(11));
        assert!(!KINGS.fits(1, u8::MAX), "no overflow past any stack");
    }

    #[test]
    fn plays_in_the_rules_order() {
        let p = Plain {
            center: vec![0, 2, 0],
            payoff: Some(3),
            sides: vec![SideTop::Card(1), SideTop::Empty],
            hand: vec![WILD, 3],
        };
        let mut got = Vec::new();
        plays(&p, KINGS, |s, c| got.push((s, c)));
        use Source::{Hand, PayOff, Side};
        let want = [
            (PayOff, 1),
            (Side(0), 0),
            (Side(0), 2),
            (Hand(0), 0),
            (Hand(0), 1),
            (Hand(0), 2),
            (Hand(1), 1),
        ];
        assert_eq!(got, want);
    }

    #[test]
    fn discard_rules() {
        let same = DiscardRules {
            side_rule: SideRule::SameOrOneLower,
            must_play_aces: false,
        };
        let discards_of = |p: &Plain, r: DiscardRules| {
            let mut out = Vec::new();
            discards(p, r, |i, k| out.push((i, k)));
            out
        };
        // 5 on a 6 top or the empty stack; a 9 nowhere but the empty stack; an unknown top
        // takes no natural
        let mut p = Plain {
            center: vec![1],
            payoff: None,
            sides: vec![SideTop::Card(6), SideTop::Empty, SideTop::Unknown],
            hand: vec![5, 9],
        };
        assert_eq!(discards_of(&p, same), vec![(0, 0), (0, 1), (1, 1)]);
        // no stack takes a card: the rule is lifted
        p.sides = vec![SideTop::Card(2), SideTop::Unknown];
        assert!(lifted(&p, SideRule::SameOrOneLower));
        assert_eq!(discards_of(&p, same).len(), 4);
        // no aces on side stacks; an ace and a free slot: no discard at all
        let aces = DiscardRules {
            side_rule: SideRule::NoAces,
            must_play_aces: true,
        };
        p.hand = vec![1, 9];
        assert!(!ace_playable(&p), "no free slot");
        assert_eq!(discards_of(&p, aces), vec![(1, 0), (1, 1)]);
        p.center = vec![3, 0];
        assert!(ace_playable(&p) && discards_of(&p, aces).is_empty());
    }
}
