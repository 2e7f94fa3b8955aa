//! The round in play and the rules of a turn: the draw, the discard, going out and the final
//! turns, the turn cap, the stock rebuild and the round's scores. [`super::State`] plays every
//! round of a game on one [`Round`]; a search that plays rounds to their end (the `expert`'s
//! rollouts) plays the same type, so these rules are written once.
//!
//! What is not a rule is the caller's: how a card is written (the rulebook's physical ids, a
//! search's faces), the order of a hand (the rulebook keeps it sorted, a search appends the
//! drawn card: its tie-breaks name hand indices), how deadwood is counted (the meld solver on
//! the card's faces, or a value the search already has) and where the randomness of a rebuild
//! comes from (the game's deck stream, a rollout's own generator).

/// The forbid-return rule (option `forbid_return_of_discard_draw`, `forbid_return`): after a
/// draw, what may not be discarded in the same turn: the drawn card (`drawn`, as the caller
/// names it: a physical id, or its index in the hand) when it was taken from the discard pile
/// (`from_pile`); nothing else. [`super::State::banned`] and the searches' draws ask this.
#[must_use]
pub fn banned_after_draw<T>(forbid_return: bool, from_pile: bool, drawn: T) -> Option<T> {
    (forbid_return && from_pile).then_some(drawn)
}

/// The cards and counters of the round in play.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Round {
    /// Each seat's hand.
    pub hands: Vec<Vec<u8>>,
    /// The stock, top card last.
    pub stock: Vec<u8>,
    /// The discard pile, top card last.
    pub pile: Vec<u8>,
    /// The seat to play.
    pub current: usize,
    /// The seat that went out this round.
    pub out: Option<usize>,
    /// Final turns left after a seat went out.
    pub final_left: usize,
    /// Turns played this round.
    pub turns: u32,
    /// Each seat's completed turns this round.
    pub own_turns: Vec<u32>,
    /// Per seat: the pile cards it took this round and still holds (what the others saw).
    pub taken: Vec<Vec<u8>>,
}

impl Round {
    /// Seats at the table.
    #[must_use]
    pub fn players(&self) -> usize {
        self.hands.len()
    }

    /// Start of a turn: when the stock is empty, the discard pile but its top becomes the stock,
    /// in the order `shuffle` leaves it (given the pile bottom first; the stock's top last).
    /// False when no card can be drawn (never with real decks).
    pub fn rebuild_stock(&mut self, shuffle: impl FnOnce(&mut Vec<u8>)) -> bool {
        if self.stock.is_empty() {
            let Some(top) = self.pile.pop() else {
                return false;
            };
            std::mem::swap(&mut self.stock, &mut self.pile);
            shuffle(&mut self.stock);
            self.pile.push(top);
        }
        !self.stock.is_empty()
    }

    /// The seat to play takes the discard pile's top (`from_pile`) or the stock's: the card and
    /// its index in the hand, where it goes in order when `sorted` (before its equals), else
    /// last. `None` (nothing
    /// changes) when that pile is empty.
    pub fn draw(&mut self, from_pile: bool, sorted: bool) -> Option<(u8, usize)> {
        let card = self.take(from_pile)?;
        let hand = &mut self.hands[self.current];
        let at = if sorted {
            hand.partition_point(|&x| x < card)
        } else {
            hand.len()
        };
        hand.insert(at, card);
        Some((card, at))
    }

    /// The public part of [`Round::draw`]: the seat to play takes the discard pile's top
    /// (`from_pile`, which joins its public pickups) or the stock's, and the card is returned
    /// without going into a hand. `None` (nothing changes) when that pile is empty. A replay of
    /// the public history (the `expert`'s hand inference) plays this alone.
    #[inline]
    pub fn take(&mut self, from_pile: bool) -> Option<u8> {
        let card = if from_pile {
            self.pile.pop()?
        } else {
            self.stock.pop()?
        };
        if from_pile {
            self.taken[self.current].push(card);
        }
        Some(card)
    }

    /// The seat to play discards card `i` of its hand and ends its turn: it goes out when it has
    /// completed more than `min_own_turns` turns and the hand left has no deadwood (`goes_out`,
    /// asked only then); after
    /// that every other seat plays one final turn; with nobody out the round ends after
    /// `max_turns` turns. Returns false when the round is over (the seat to play is then the
    /// one that played last).
    pub fn discard(
        &mut self,
        i: usize,
        min_own_turns: u32,
        max_turns: u32,
        goes_out: impl FnOnce(&[u8]) -> bool,
    ) -> bool {
        let card = self.hands[self.current].remove(i);
        self.end_turn(card, min_own_turns, max_turns, goes_out)
    }

    /// The public part of [`Round::discard`], given the card the seat to play let go (already
    /// out of its hand): the card leaves the seat's public pickups and goes on the pile, and
    /// the turn ends by the same rules (`goes_out` is given the seat's hand as it is). Returns
    /// false when the round is over. A replay of the public history plays this alone, with
    /// `goes_out` what the history shows.
    #[inline]
    pub fn end_turn(
        &mut self,
        card: u8,
        min_own_turns: u32,
        max_turns: u32,
        goes_out: impl FnOnce(&[u8]) -> bool,
    ) -> bool {
        let s = self.current;
        if let Some(k) = self.taken[s].iter().position(|&c| c == card) {
            self.taken[s].remove(k);
        }
        self.pile.push(card);
        self.own_turns[s] += 1;
        self.turns += 1;
        if self.out.is_none() {
            if self.own_turns[s] > min_own_turns && goes_out(&self.hands[s]) {
                self.out = Some(s);
                self.final_left = self.players() - 1;
            } else if self.turns >= max_turns {
                return false;
            }
        } else {
            self.final_left -= 1;
            if self.final_left == 0 {
                return false;
            }
        }
        self.current = (s + 1) % self.players();
        true
    }

    /// Seat `s`'s round score as the round stands: 0 if it went out, else its deadwood.
    pub fn score(&self, s: usize, deadwood: impl FnOnce(&[u8]) -> u32) -> u32 {
        if self.out == Some(s) {
            0
        } else {
            deadwood(&self.hands[s])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Round;

    /// Two seats holding 3 cards each, seat 0 to play.
    fn round() -> Round {
        Round {
            hands: vec![vec![10, 20, 30], vec![11, 21, 31]],
            stock: vec![40, 41],
            pile: vec![50],
            own_turns: vec![0, 0],
            taken: vec![Vec::new(), Vec::new()],
            ..Round::default()
        }
    }

    #[test]
    fn a_draw_goes_in_order_or_last_and_a_pile_card_is_taken() {
        let mut r = round();
        assert_eq!(r.draw(false, true), Some((41, 3)));
        let mut r2 = round();
        assert_eq!(r2.draw(true, true), Some((50, 3)));
        assert_eq!(r2.taken[0], vec![50]);
        assert!(r2.pile.is_empty());
        assert_eq!(r2.draw(true, false), None, "an empty pile: nothing changes");
        let mut r3 = round();
        r3.hands[0] = vec![10, 60];
        assert_eq!(r3.draw(false, true), Some((41, 1)));
        r3.hands[0] = vec![41, 60];
        r3.stock = vec![41];
        assert_eq!(r3.draw(false, true), Some((41, 0)), "before its equals");
        assert_eq!(r.hands[0], vec![10, 20, 30, 41]);
    }

    #[test]
    fn going_out_gives_every_other_seat_one_final_turn() {
        let mut r = round();
        r.draw(true, false);
        // the taken card is discarded: it leaves the pickups
        assert!(r.discard(3, 0, 100, |_| false));
        assert!(r.taken[0].is_empty() && r.pile == vec![50]);
        assert_eq!((r.current, r.turns, r.out), (1, 1, None));
        r.draw(false, false);
        assert!(r.discard(0, 0, 100, |h| h.len() == 3));
        assert_eq!((r.out, r.final_left, r.current), (Some(1), 1, 0));
        r.draw(false, false);
        assert!(
            !r.discard(0, 0, 100, |_| true),
            "seat 0's final turn ends the round"
        );
        assert_eq!(r.out, Some(1), "a final turn at 0 deadwood does not go out");
        assert_eq!((r.score(1, |_| 7), r.score(0, |h| h.len() as u32)), (0, 3));
    }

    #[test]
    fn min_own_turns_and_the_turn_cap() {
        let mut r = round();
        r.draw(false, false);
        assert!(
            r.discard(0, 1, 100, |_| true),
            "no going out on the first own turn"
        );
        assert_eq!(r.out, None);
        let mut r = round();
        r.draw(false, false);
        assert!(!r.discard(0, 0, 1, |_| false), "the cap ends the round");
        assert_eq!(r.current, 0);
    }

    #[test]
    fn the_public_part_of_a_turn_alone_keeps_the_same_public_round() {
        // the turns of `going_out_gives_every_other_seat_one_final_turn`, replayed with the
        // hands and the stock hidden (empty): pile, pickups, turns and going out as played
        let mut r = round();
        let mut public = Round {
            hands: vec![Vec::new(); 2],
            stock: Vec::new(),
            ..round()
        };
        let turns: [(bool, usize, bool); 3] =
            [(true, 3, false), (false, 0, true), (false, 0, true)];
        for (from_pile, i, out) in turns {
            let (card, _) = r.draw(from_pile, false).unwrap();
            if from_pile {
                assert_eq!(public.take(true), Some(card));
            }
            let discarded = r.hands[r.current][i];
            let going = r.discard(i, 0, 100, |_| out);
            assert_eq!(public.end_turn(discarded, 0, 100, |_| out), going);
            assert_eq!(
                (&public.pile, &public.taken, &public.own_turns),
                (&r.pile, &r.taken, &r.own_turns)
            );
            assert_eq!(
                (public.current, public.turns, public.out, public.final_left),
                (r.current, r.turns, r.out, r.final_left)
            );
        }
    }

    #[test]
    fn a_rebuild_keeps_the_top_and_orders_the_rest() {
        let mut r = round();
        r.stock.clear();
        r.pile = vec![1, 2, 3];
        assert!(r.rebuild_stock(|s| {
            assert_eq!(*s, vec![1, 2]);
            s.reverse();
        }));
        assert_eq!((r.stock.clone(), r.pile.clone()), (vec![2, 1], vec![3]));
        assert!(r.rebuild_stock(|_| panic!("the stock is not empty")));
        r.stock.clear();
        assert!(!r.rebuild_stock(|_| {}), "only the top: nothing to draw");
        assert_eq!(r.pile, vec![3]);
    }
}
