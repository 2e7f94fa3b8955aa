//! The re-deal of the cards a seat has not seen (`resample_hidden`).
//!
//! The seat's hand, the discard pile and the pile cards each opponent took (and still holds)
//! stay. The others are the *unseen* cards, in classes by when they were last hidden: at the
//! deal, or in the latest stock rebuild that took them. Each opponent holds exactly as many
//! cards of each class as it drew (less those it discarded) and the stock holds only cards of
//! the newest class, so each class is shuffled and dealt back to the same places; the deck
//! stream of later rounds is a new one from the seed. The copy's record of past deck orders
//! is cleared (it would show hidden cards) and its rebuilds are listed as sorted sets.

use super::state::{Phase, State};
use super::{CODE_DRAW_DISCARD, CODE_DRAW_STOCK};
use crate::rng::CardRng;
use crate::shuffle::permutation;

/// The unseen cards by class (0: hidden since the deal; j: hidden by the round's j-th stock
/// rebuild), how many of each class every seat holds (none for `seat`), and the stock's
/// class. Reads only public information: the moves, the up-card and the rebuilt piles' sets.
fn hidden_classes(st: &State, seat: usize) -> (Vec<Vec<u8>>, Vec<Vec<i64>>, usize) {
    let p = st.rules.players;
    let n = st.round as i64 + 2;
    let total = st.rules.total_cards();
    let empty = Vec::new();
    let log = st.move_log.last().unwrap_or(&empty);
    let no_rebuilds = Vec::new();
    let rebuilds = st.rebuilds.last().unwrap_or(&no_rebuilds);
    let mut cls_of = vec![0usize; total];
    let mut counts: Vec<Vec<i64>> = vec![vec![n]; p];
    let mut pile = vec![st.upcard];
    let mut taken: Vec<Vec<u8>> = vec![Vec::new(); p];
    let mut stock_size = total as i64 - p as i64 * n - 1;
    let mut stock_class = 0;
    let mut rebuilt = 0;
    for &(k, code) in log {
        let k = usize::from(k);
        let code = i64::from(code);
        if code < 0 && stock_size == 0 {
            // the stock was rebuilt at the start of this turn
            rebuilt += 1;
            stock_class = rebuilt;
            for &c in &rebuilds[rebuilt - 1] {
                cls_of[usize::from(c)] = stock_class;
            }
            stock_size = rebuilds[rebuilt - 1].len() as i64;
            pile.drain(..pile.len().saturating_sub(1));
        }
        if code == CODE_DRAW_STOCK {
            stock_size -= 1;
            if counts[k].len() < stock_class + 1 {
                counts[k].resize(stock_class + 1, 0);
            }
            counts[k][stock_class] += 1;
        } else if code == CODE_DRAW_DISCARD {
            if let Some(c) = pile.pop() {
                taken[k].push(c);
            }
        } else {
            let c = code as u8;
            if let Some(i) = taken[k].iter().position(|&x| x == c) {
                taken[k].remove(i);
            } else {
                let cls = cls_of[usize::from(c)];
                if counts[k].len() < cls + 1 {
                    counts[k].resize(cls + 1, 0);
                }
                counts[k][cls] -= 1;
            }
            pile.push(c);
        }
    }
    if rebuilt < rebuilds.len() {
        // rebuilt after the last move, before the next draw
        stock_class = rebuilt + 1;
        for &c in &rebuilds[rebuilt] {
            cls_of[usize::from(c)] = stock_class;
        }
    }
    let mut seen = vec![false; total];
    for &c in st.play.hands[seat]
        .iter()
        .chain(&st.play.pile)
        .chain(st.play.taken.iter().flatten())
    {
        seen[usize::from(c)] = true;
    }
    let mut pools: Vec<Vec<u8>> = vec![Vec::new(); stock_class + 1];
    for c in 0..total {
        if !seen[c] {
            pools[cls_of[c]].push(c as u8);
        }
    }
    counts[seat].clear();
    (pools, counts, stock_class)
}

/// See the module documentation.
pub fn resample_hidden(st: &State, seat: usize, seed: u64) -> State {
    let mut rng = CardRng::new(seed);
    let mut new = st.clone();
    new.rng = CardRng::new(rng.next_u64());
    new.stacked.clear();
    for d in &mut new.deck_orders {
        d.clear();
    }
    for r in &mut new.rebuilds {
        for x in r {
            x.sort_unstable();
        }
    }
    if st.phase == Phase::Over {
        return new;
    }
    let (pools, counts, stock_class) = hidden_classes(st, seat);
    // a seat that drew an unseen card from the stock this turn holds it as `drawn`
    let drew_unseen =
        (st.phase == Phase::Discard && !st.drawn_from_discard && st.play.current != seat)
            .then_some(st.play.current);
    let mut hands: Vec<Vec<u8>> = st.play.taken.clone();
    hands[seat].clone_from(&st.play.hands[seat]);
    let mut stock = Vec::new();
    for (cls, pool) in pools.iter().enumerate() {
        if pool.is_empty() {
            continue;
        }
        let order = permutation(&mut rng, pool.len());
        let mut at = 0;
        for (k, per_class) in counts.iter().enumerate() {
            let m = per_class.get(cls).copied().unwrap_or(0);
            if m > 0 {
                let m = m as usize;
                if Some(k) == drew_unseen && cls == stock_class {
                    new.drawn = Some(pool[usize::from(order[at])]);
                }
                hands[k].extend(order[at..at + m].iter().map(|&i| pool[usize::from(i)]));
                at += m;
            }
        }
        if cls == stock_class {
            stock = order[at..].iter().map(|&i| pool[usize::from(i)]).collect();
        }
    }
    for h in &mut hands {
        h.sort_unstable();
    }
    new.play.hands = hands;
    new.play.stock = stock;
    new
}
