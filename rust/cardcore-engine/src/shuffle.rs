//! Fisher–Yates shuffles driven by [`CardRng`], with batched unbiased bounded integers.
//!
//! Algorithm (`cardcore-rng-v1`, part of the seed contract): for `i` from `n-1` down to `1`,
//! swap item `i` with item `j`, `j` uniform in `0..=i`. The `j`s are drawn in batches of up to
//! six from one 64-bit word (Brackett-Rozinsky & Lemire, "Batched Ranged Random Integer
//! Generation", 2024): the bounds `i+1, i, …` of one batch are chosen greedily while their
//! product stays below 2^48, each index is the high word of `leftover * bound`, and the whole
//! batch is redrawn when the final leftover falls below `(2^64 - P) mod P` (`P` the product).
//! The results are exactly uniform.

use crate::rng::CardRng;

const BATCH_PRODUCT_LIMIT: u64 = 1 << 48;
const MAX_BATCH: usize = 6;

/// Shuffles `items` in place.
pub fn shuffle<T>(rng: &mut CardRng, items: &mut [T]) {
    let mut i = items.len();
    let mut js = [0usize; MAX_BATCH];
    while i > 1 {
        // Bounds of this batch: i, i-1, ..., while the product stays under the limit.
        let mut k = 0;
        let mut product: u64 = 1;
        while k < MAX_BATCH && i - k > 1 {
            let bound = (i - k) as u64;
            match product.checked_mul(bound) {
                Some(p) if p <= BATCH_PRODUCT_LIMIT || k == 0 => product = p,
                _ => break,
            }
            k += 1;
        }
        if k == 1 {
            #[allow(clippy::cast_possible_truncation)]
            let j = rng.below(i as u64) as usize;
            items.swap(i - 1, j);
            i -= 1;
            continue;
        }
        draw_batch(rng, i, k, product, &mut js);
        for (step, &j) in js[..k].iter().enumerate() {
            items.swap(i - 1 - step, j);
        }
        i -= k;
    }
}

/// Draws `k` uniform indices `js[t] in 0..(top - t)` from one 64-bit word.
#[inline]
fn draw_batch(rng: &mut CardRng, top: usize, k: usize, product: u64, js: &mut [usize; MAX_BATCH]) {
    let mut threshold: Option<u64> = None;
    loop {
        let mut leftover = rng.next_u64();
        for (t, j) in js[..k].iter_mut().enumerate() {
            let m = u128::from(leftover) * ((top - t) as u128);
            #[allow(clippy::cast_possible_truncation)]
            {
                *j = (m >> 64) as usize;
                leftover = m as u64;
            }
        }
        if leftover >= product {
            return;
        }
        let t = *threshold.get_or_insert_with(|| product.wrapping_neg() % product);
        if leftover >= t {
            return;
        }
    }
}

/// The identity permutation `0..n` shuffled by `rng`.
#[must_use]
pub fn permutation(rng: &mut CardRng, n: usize) -> Vec<u16> {
    let n16 = u16::try_from(n).expect("permutation length fits u16");
    let mut v: Vec<u16> = (0..n16).collect();
    shuffle(rng, &mut v);
    v
}

/// Fills `out` (length `count * n`) with `count` shuffled orders of `0..n` as bytes (`n <= 256`):
/// row `r` uses the generator `CardRng::for_stream(master, first_index + r, stream)`.
pub fn permutations_u8(master: u64, first_index: u64, stream: &str, n: usize, out: &mut [u8]) {
    assert!(n <= 256 && n > 0 && out.len() % n == 0);
    #[allow(clippy::cast_possible_truncation)]
    let identity: Vec<u8> = (0..n).map(|x| x as u8).collect();
    for (r, row) in out.chunks_exact_mut(n).enumerate() {
        let mut rng = CardRng::for_stream(master, first_index + r as u64, stream);
        row.copy_from_slice(&identity);
        shuffle(&mut rng, row);
    }
}

/// As [`permutations_u8`] for any `n <= 65536`, as `u16`s.
pub fn permutations_u16(master: u64, first_index: u64, stream: &str, n: usize, out: &mut [u16]) {
    assert!(n <= 65_536 && n > 0 && out.len() % n == 0);
    #[allow(clippy::cast_possible_truncation)]
    let identity: Vec<u16> = (0..n).map(|x| x as u16).collect();
    for (r, row) in out.chunks_exact_mut(n).enumerate() {
        let mut rng = CardRng::for_stream(master, first_index + r as u64, stream);
        row.copy_from_slice(&identity);
        shuffle(&mut rng, row);
    }
}
