//! Fast exact path (placeholder: delegates to the search until the tables land).

use super::{MeldRules, search};

/// Minimum deadwood.
#[must_use]
pub fn deadwood(hand: &[u8], wild: u8, rules: &MeldRules) -> u32 {
    search::deadwood(hand, wild, rules)
}

/// Deadwood after discarding each card, index-aligned.
#[must_use]
pub fn discards(hand: &[u8], wild: u8, rules: &MeldRules) -> Vec<u32> {
    let mut out = Vec::with_capacity(hand.len());
    let mut rest = Vec::with_capacity(hand.len());
    for i in 0..hand.len() {
        if let Some(j) = (0..i).find(|&j| hand[j] == hand[i]) {
            out.push(out[j]);
            continue;
        }
        rest.clear();
        rest.extend(
            hand.iter()
                .enumerate()
                .filter(|&(k, _)| k != i)
                .map(|(_, &f)| f),
        );
        out.push(search::deadwood(&rest, wild, rules));
    }
    out
}
