//! The re-deal of the cards a seat has not seen (`resample_hidden`).
//!
//! Hidden places: every pay-off pile below its top, the other seats' hands, the stock (in
//! order). Placement rules (what every seat knows): a pay-off top seen before a first-player
//! reshuffle is still in that pile; cards that went back into the stock (a completed stack, a
//! recycled used pile) were seen, so they are in the stock or in the hand of a seat that drew
//! from the stock since, and never below a pay-off top; a seat holds at most as many of them
//! as it drew since, less those it played. The cards are placed most constrained first, each
//! class uniformly among the free places it may take, which makes every placement equally
//! likely; a re-deal that breaks a draw-count limit is drawn again (at most [`MAX_REDEALS`]
//! times). The copy's random stream comes from the seed and its record of the deal is
//! cleared.

use super::state::State;
use crate::rng::CardRng;
use crate::shuffle::permutation;

/// Attempts to meet every draw-count limit before a re-deal that meets only the placement
/// rules is kept.
pub const MAX_REDEALS: usize = 10_000;

/// A zone of hidden places: a pay-off pile below its top, a hand, the stock.
#[derive(Clone, Copy)]
enum Zone {
    Pay(usize),
    Hand(usize),
    Stock,
}

/// The hidden places of a state as one seat sees them, and the classes of its hidden cards.
struct Redeal<'a> {
    st: &'a State,
    zones: Vec<Zone>,
    sizes: Vec<usize>,
    /// Class 0: hidden since the deal; j: the cards of entry j.
    classes: Vec<Vec<u16>>,
    /// Per seat, the pinned cards still in its pay-off pile.
    pinned: Vec<Vec<u16>>,
    /// `[entry][seat]`: stock draws since the entry.
    draws_since: Vec<Vec<u32>>,
    /// `(seat, zone)` of every other seat's hand.
    hand_zone: Vec<(usize, usize)>,
}

impl<'a> Redeal<'a> {
    fn new(st: &'a State, seat: usize) -> Self {
        let p = st.rules.players;
        let mut zones: Vec<Zone> = (0..p).map(Zone::Pay).collect();
        zones.extend((0..p).filter(|&k| k != seat).map(Zone::Hand));
        zones.push(Zone::Stock);
        let mut sizes: Vec<usize> = st
            .payoffs
            .iter()
            .map(|x| x.len().saturating_sub(1))
            .collect();
        sizes.extend((0..p).filter(|&k| k != seat).map(|k| st.hands[k].len()));
        sizes.push(st.stock.len());
        let mut hidden: Vec<u16> = st
            .payoffs
            .iter()
            .flat_map(|x| x[..x.len().saturating_sub(1)].iter().copied())
            .collect();
        for k in (0..p).filter(|&k| k != seat) {
            hidden.extend(&st.hands[k]);
        }
        hidden.extend(&st.stock);
        hidden.sort_unstable();
        let total = st.rules.total_cards();
        let mut pinned_by = vec![None; total];
        for (k, pins) in st.pinned.iter().enumerate() {
            for &c in pins {
                pinned_by[usize::from(c)] = Some(k);
            }
        }
        let n_entries = st.entries.len();
        let mut classes = vec![Vec::new(); n_entries + 1];
        let mut pinned = vec![Vec::new(); p];
        for c in hidden {
            match pinned_by[usize::from(c)] {
                Some(k) if st.payoffs[k].contains(&c) => pinned[k].push(c),
                _ => classes[st.entry_of(c) as usize].push(c),
            }
        }
        let draws_since = st
            .entry_draws
            .iter()
            .map(|d| (0..p).map(|k| st.drawn[k].saturating_sub(d[k])).collect())
            .collect();
        let hand_zone = zones
            .iter()
            .enumerate()
            .filter_map(|(z, zone)| match *zone {
                Zone::Hand(k) => Some((k, z)),
                _ => None,
            })
            .collect();
        Self {
            st,
            zones,
            sizes,
            classes,
            pinned,
            draws_since,
            hand_zone,
        }
    }

    /// One placement obeying the placement rules, uniformly: a card list per zone.
    fn deal(&self, rng: &mut CardRng) -> Vec<Vec<Option<u16>>> {
        let mut places: Vec<Vec<Option<u16>>> = self.sizes.iter().map(|&n| vec![None; n]).collect();
        for (k, cards) in self.pinned.iter().enumerate() {
            let free: Vec<(usize, usize)> = (0..self.sizes[k]).map(|i| (k, i)).collect();
            fill(rng, cards, &free, &mut places);
        }
        let stock = self.zones.len() - 1;
        for j in (1..self.classes.len()).rev() {
            let drew = &self.draws_since[j - 1];
            let mut zones = vec![stock];
            zones.extend(
                self.hand_zone
                    .iter()
                    .filter(|&&(k, _)| drew[k] > 0)
                    .map(|&(_, z)| z),
            );
            let free = free_places(&places, &zones);
            fill(rng, &self.classes[j], &free, &mut places);
        }
        let all: Vec<usize> = (0..places.len()).collect();
        let free = free_places(&places, &all);
        fill(rng, &self.classes[0], &free, &mut places);
        places
    }

    /// Whether every seat holds at most as many re-entered cards of entries >= j as it drew
    /// since entry j, less the re-entered cards it played from its hand since.
    fn within_limits(&self, places: &[Vec<Option<u16>>]) -> bool {
        let st = self.st;
        for &(k, z) in &self.hand_zone {
            let held: Vec<u32> = places[z]
                .iter()
                .flatten()
                .map(|&c| st.entry_of(c))
                .collect();
            let played = &st.played[k];
            for (j, drew) in self.draws_since.iter().enumerate() {
                let j = j as u32 + 1;
                let n = held.iter().filter(|&&e| e >= j).count()
                    + played.iter().filter(|&&e| e >= j).count();
                if n as u64 > u64::from(drew[k]) {
                    return false;
                }
            }
        }
        true
    }

    fn write(&self, new: &mut State, places: Vec<Vec<Option<u16>>>) {
        for (zone, cards) in self.zones.iter().zip(places) {
            let cards: Vec<u16> = cards.into_iter().flatten().collect();
            match *zone {
                Zone::Pay(k) => {
                    if let Some(&top) = new.payoffs[k].last() {
                        let mut pile = cards;
                        pile.push(top);
                        new.payoffs[k] = pile;
                    }
                }
                Zone::Hand(k) => new.hands[k] = cards,
                Zone::Stock => new.stock = cards,
            }
        }
    }
}

/// The free places of `zones`, in zone order.
fn free_places(places: &[Vec<Option<u16>>], zones: &[usize]) -> Vec<(usize, usize)> {
    zones
        .iter()
        .flat_map(|&z| {
            places[z]
                .iter()
                .enumerate()
                .filter(|(_, x)| x.is_none())
                .map(move |(i, _)| (z, i))
        })
        .collect()
}

/// Puts `cards` on a uniformly random choice of the `free` places (in random order).
fn fill(
    rng: &mut CardRng,
    cards: &[u16],
    free: &[(usize, usize)],
    places: &mut [Vec<Option<u16>>],
) {
    if cards.is_empty() {
        return;
    }
    let order = permutation(rng, free.len());
    for (&card, &i) in cards.iter().zip(&order) {
        let (z, at) = free[usize::from(i)];
        places[z][at] = Some(card);
    }
}

/// A copy of `st` in which every card `seat` has not seen is re-dealt from `seed`.
pub(super) fn resample_hidden(st: &State, seat: usize, seed: u64) -> State {
    let mut rng = CardRng::new(seed);
    let mut new = st.clone();
    new.rng = CardRng::new(rng.next_u64());
    new.deck_order.clear();
    if st.over {
        return new;
    }
    let plan = Redeal::new(st, seat);
    let mut places = plan.deal(&mut rng);
    for _ in 1..MAX_REDEALS {
        if plan.within_limits(&places) {
            break;
        }
        places = plan.deal(&mut rng);
    }
    plan.write(&mut new, places);
    new
}
