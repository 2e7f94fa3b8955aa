//! Fisher–Yates shuffles driven by [`CardRng`], with batched unbiased bounded integers.
//!
//! Algorithm (`cardcore-rng-v1`, part of the seed contract; `docs/rng.md` is the full
//! specification): for `i` from `n-1` down to `1`, swap item `i` with item `j`, `j` uniform in
//! `0..=i`. The `j`s are drawn in batches of up to six from one 64-bit word (Brackett-Rozinsky &
//! Lemire, "Batched Ranged Random Integer Generation", 2024): the bounds `i+1, i, …` of one batch
//! are chosen greedily (never below 2) while their product stays at most 2^48, each index is the
//! high word of `leftover * bound`, and the whole batch is redrawn when the final leftover falls
//! below `(2^64 - P) mod P` (`P` the product). A batch of one bound is exactly
//! [`CardRng::below`]. The results are exactly uniform.
//!
//! The batch schedule depends only on the length, so the multi-row functions compute it once.

use crate::rng::{CardRng, StreamSeeds};

const BATCH_PRODUCT_LIMIT: u64 = 1 << 48;
const MAX_BATCH: usize = 6;
/// Rows shuffled together by the multi-row functions (interleaved for instruction-level
/// parallelism; the output of each row does not depend on it). Measured through Python on the
/// release wheel, 104 cards: 1 lane 156 ns/deck, 2 lanes 121, 3 lanes 120, 4 lanes 128.
const LANES: usize = 3;

/// One batch of the draw schedule: indices for positions `top-1, top-2, …, top-k`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Batch {
    top: usize,
    k: usize,
    product: u64,
}

/// Up to this many items every batch has `min(6, top - 1)` bounds (`256 * 255 * … * 251 < 2^48`),
/// and its product comes from [`SMALL_PRODUCTS`].
const SMALL_TOP: usize = 256;

/// `SMALL_PRODUCTS[top]`: product of the bounds `top, top-1, …` of the batch starting at `top`.
const SMALL_PRODUCTS: [u64; SMALL_TOP + 1] = small_products();

const fn small_products() -> [u64; SMALL_TOP + 1] {
    let mut table = [0u64; SMALL_TOP + 1];
    let mut top = 2;
    while top <= SMALL_TOP {
        let k = if top - 1 < MAX_BATCH {
            top - 1
        } else {
            MAX_BATCH
        };
        let mut p = 1u64;
        let mut t = 0;
        while t < k {
            p *= (top - t) as u64;
            t += 1;
        }
        table[top] = p;
        top += 1;
    }
    table
}

/// The batch that starts at position `top - 1` (`top >= 2`).
#[inline]
fn next_batch(top: usize) -> Batch {
    if top <= SMALL_TOP {
        return Batch {
            top,
            k: if top - 1 < MAX_BATCH {
                top - 1
            } else {
                MAX_BATCH
            },
            product: SMALL_PRODUCTS[top],
        };
    }
    greedy_batch(top)
}

/// The batch rule itself: bounds `top, top-1, …` (each at least 2, at most six) while their
/// product stays at most 2^48 (the first bound is always taken).
fn greedy_batch(top: usize) -> Batch {
    let mut k = 0;
    let mut product: u64 = 1;
    while k < MAX_BATCH && top - k > 1 {
        let bound = (top - k) as u64;
        match product.checked_mul(bound) {
            Some(p) if p <= BATCH_PRODUCT_LIMIT || k == 0 => product = p,
            _ => break,
        }
        k += 1;
    }
    Batch { top, k, product }
}

/// The whole schedule of a shuffle of `n` items.
fn schedule(n: usize) -> Vec<Batch> {
    let mut out = Vec::with_capacity(n / MAX_BATCH + 2);
    let mut i = n;
    while i > 1 {
        let b = next_batch(i);
        i -= b.k;
        out.push(b);
    }
    out
}

/// The `K` indices of batch `b` (`K == b.k`, `K >= 2`).
#[inline(always)]
fn draw_fixed<const K: usize>(rng: &mut CardRng, b: Batch) -> [usize; K] {
    let mut js = [0usize; K];
    loop {
        let mut leftover = rng.next_u64();
        for (t, j) in js.iter_mut().enumerate() {
            let m = u128::from(leftover) * ((b.top - t) as u128);
            {
                *j = (m >> 64) as usize;
                leftover = m as u64;
            }
        }
        if leftover >= b.product || leftover >= b.product.wrapping_neg() % b.product {
            return js;
        }
    }
}

/// Applies batch `b` (`K == b.k`).
#[inline(always)]
fn apply_fixed<T, const K: usize>(rng: &mut CardRng, items: &mut [T], b: Batch) {
    let js = draw_fixed::<K>(rng, b);
    // `top <= items.len()` and `js[t] < top - t`: slicing once drops most bounds checks.
    let head = &mut items[..b.top];
    for (t, &j) in js.iter().enumerate() {
        head.swap(b.top - 1 - t, j);
    }
}

/// Applies batch `b` to `R` independent rows (same length, own generators). Interleaving the
/// rows' dependency chains multiplies throughput; each row's output is unchanged.
#[inline(always)]
fn apply_rows_fixed<T, const K: usize, const R: usize>(
    rngs: &mut [CardRng; R],
    rows: &mut [&mut [T]; R],
    b: Batch,
) {
    let mut js = [[0usize; K]; R];
    for (j, rng) in js.iter_mut().zip(rngs.iter_mut()) {
        *j = draw_fixed::<K>(rng, b);
    }
    let top = b.top;
    for (row, j) in rows.iter_mut().zip(&js) {
        let head = &mut row[..top];
        for (t, &jt) in j.iter().enumerate() {
            head.swap(top - 1 - t, jt);
        }
    }
}

/// [`apply`] on `R` rows at once.
#[inline(always)]
fn apply_rows<T, const R: usize>(rngs: &mut [CardRng; R], rows: &mut [&mut [T]; R], b: Batch) {
    match b.k {
        MAX_BATCH => apply_rows_fixed::<T, MAX_BATCH, R>(rngs, rows, b),
        5 => apply_rows_fixed::<T, 5, R>(rngs, rows, b),
        4 => apply_rows_fixed::<T, 4, R>(rngs, rows, b),
        3 => apply_rows_fixed::<T, 3, R>(rngs, rows, b),
        2 => apply_rows_fixed::<T, 2, R>(rngs, rows, b),
        _ => {
            for (rng, row) in rngs.iter_mut().zip(rows.iter_mut()) {
                apply(rng, row, b);
            }
        }
    }
}

/// Applies batch `b`.
#[inline(always)]
fn apply<T>(rng: &mut CardRng, items: &mut [T], b: Batch) {
    match b.k {
        MAX_BATCH => apply_fixed::<T, MAX_BATCH>(rng, items, b),
        5 => apply_fixed::<T, 5>(rng, items, b),
        4 => apply_fixed::<T, 4>(rng, items, b),
        3 => apply_fixed::<T, 3>(rng, items, b),
        2 => apply_fixed::<T, 2>(rng, items, b),
        _ => {
            let j = rng.below(b.top as u64) as usize;
            items.swap(b.top - 1, j);
        }
    }
}

/// Shuffles `items` in place.
pub fn shuffle<T>(rng: &mut CardRng, items: &mut [T]) {
    let mut i = items.len();
    while i > 1 {
        let b = next_batch(i);
        apply(rng, items, b);
        i -= b.k;
    }
}

/// Shuffles `items` by a precomputed `schedule(items.len())`.
#[inline]
fn shuffle_scheduled<T>(rng: &mut CardRng, items: &mut [T], plan: &[Batch]) {
    for &b in plan {
        apply(rng, items, b);
    }
}

/// The identity permutation `0..n` shuffled by `rng`.
///
/// # Panics
/// If `n > 65536`.
#[must_use]
pub fn permutation(rng: &mut CardRng, n: usize) -> Vec<u16> {
    assert!(n <= 65_536, "permutation length fits u16");
    let mut v: Vec<u16> = (0..n).map(|x| x as u16).collect();
    shuffle(rng, &mut v);
    v
}

/// Fills `out` (length `count * n`) with `count` shuffled orders of `0..n` as bytes (`n <= 256`):
/// row `r` uses the generator `CardRng::for_stream(master, first_index + r, stream)` (the index
/// wraps modulo 2^64).
///
/// # Panics
/// If `n` is 0 or above 256, or `out.len()` is not a multiple of `n`.
pub fn permutations_u8(master: u64, first_index: u64, stream: &str, n: usize, out: &mut [u8]) {
    assert!(n <= 256 && n > 0 && out.len() % n == 0);
    let seeds = StreamSeeds::new(master, stream);
    if out.len() == n {
        // One row (the single-deck call from Python): no allocation at all.
        for (v, x) in out.iter_mut().enumerate() {
            {
                *x = v as u8;
            }
        }
        shuffle(&mut seeds.rng(first_index), out);
        return;
    }
    let identity: Vec<u8> = (0..n).map(|x| x as u8).collect();
    let plan = schedule(n);
    let mut index = first_index;
    let mut pairs = out.chunks_exact_mut(LANES * n);
    for group in &mut pairs {
        let mut rngs: [CardRng; LANES] =
            std::array::from_fn(|r| seeds.rng(index.wrapping_add(r as u64)));
        let mut it = group.chunks_exact_mut(n);
        let mut rows: [&mut [u8]; LANES] = std::array::from_fn(|_| it.next().unwrap_or_default());
        for row in &mut rows {
            row.copy_from_slice(&identity);
        }
        for &batch in &plan {
            apply_rows(&mut rngs, &mut rows, batch);
        }
        index = index.wrapping_add(LANES as u64);
    }
    for rest in pairs.into_remainder().chunks_exact_mut(n) {
        let mut rng = seeds.rng(index);
        rest.copy_from_slice(&identity);
        shuffle_scheduled(&mut rng, rest, &plan);
        index = index.wrapping_add(1);
    }
}

/// As [`permutations_u8`] for any `n <= 65536`, as `u16`s.
///
/// # Panics
/// If `n` is 0 or above 65536, or `out.len()` is not a multiple of `n`.
pub fn permutations_u16(master: u64, first_index: u64, stream: &str, n: usize, out: &mut [u16]) {
    assert!(n <= 65_536 && n > 0 && out.len() % n == 0);
    let identity: Vec<u16> = (0..n).map(|x| x as u16).collect();
    let plan = schedule(n);
    let seeds = StreamSeeds::new(master, stream);
    let mut index = first_index;
    for row in out.chunks_exact_mut(n) {
        let mut rng = seeds.rng(index);
        row.copy_from_slice(&identity);
        shuffle_scheduled(&mut rng, row, &plan);
        index = index.wrapping_add(1);
    }
}

/// As [`permutations_u16`], written as little-endian byte pairs (`out.len() == 2 * count * n`).
///
/// # Panics
/// If `n` is 0 or above 65536, or `out.len()` is not a multiple of `2 * n`.
pub fn permutations_u16_le(master: u64, first_index: u64, stream: &str, n: usize, out: &mut [u8]) {
    assert!(n <= 65_536 && n > 0 && out.len() % (2 * n) == 0);
    let identity: Vec<u16> = (0..n).map(|x| x as u16).collect();
    let mut row = identity.clone();
    let plan = schedule(n);
    let seeds = StreamSeeds::new(master, stream);
    let mut index = first_index;
    for chunk in out.chunks_exact_mut(2 * n) {
        let mut rng = seeds.rng(index);
        row.copy_from_slice(&identity);
        shuffle_scheduled(&mut rng, &mut row, &plan);
        for (dst, x) in chunk.chunks_exact_mut(2).zip(&row) {
            dst.copy_from_slice(&x.to_le_bytes());
        }
        index = index.wrapping_add(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_permutation(p: &[u16]) -> bool {
        let mut seen = vec![false; p.len()];
        for &x in p {
            let x = usize::from(x);
            if x >= p.len() || seen[x] {
                return false;
            }
            seen[x] = true;
        }
        true
    }

    #[test]
    fn permutations_for_many_lengths() {
        let mut rng = CardRng::new(1);
        for n in (0..=300).chain([1000, 4096, 65_535, 65_536]) {
            let p = permutation(&mut rng, n);
            assert_eq!(p.len(), n);
            assert!(is_permutation(&p), "n = {n}");
        }
    }

    #[test]
    fn tiny_lengths() {
        let mut rng = CardRng::new(2);
        assert!(permutation(&mut rng, 0).is_empty());
        assert_eq!(permutation(&mut rng, 1), vec![0]);
        let mut seen = [0u32; 2];
        for _ in 0..1000 {
            let p = permutation(&mut rng, 2);
            seen[usize::from(p[0])] += 1;
        }
        assert!(seen[0] > 400 && seen[1] > 400, "{seen:?}");
    }

    #[test]
    fn schedule_covers_every_position_once() {
        for n in (0..=300).chain([65_536, 70_000]) {
            let plan = schedule(n);
            let mut expected_top = n;
            for b in &plan {
                assert_eq!(b.top, expected_top);
                assert!(b.k >= 1 && b.k <= MAX_BATCH && b.top - b.k >= 1);
                let prod: u64 = (0..b.k).map(|t| (b.top - t) as u64).product();
                assert_eq!(prod, b.product);
                assert!(b.k == 1 || b.product <= BATCH_PRODUCT_LIMIT);
                expected_top -= b.k;
            }
            assert!(expected_top <= 1, "n = {n}");
        }
        // A 104-card deck: seventeen full batches of six, then bounds 2 (alone).
        let plan = schedule(104);
        assert_eq!(plan.len(), 18);
        assert!(plan[..17].iter().all(|b| b.k == 6));
        assert_eq!((plan[17].top, plan[17].k), (2, 1));
        // Past 2^24 the product of two bounds exceeds 2^48: single draws.
        assert_eq!(next_batch(1 << 25).k, 1);
    }

    #[test]
    fn small_table_matches_the_greedy_rule() {
        for top in 2..=SMALL_TOP {
            assert_eq!(next_batch(top), greedy_batch(top), "top = {top}");
        }
        assert!(SMALL_PRODUCTS[SMALL_TOP] <= BATCH_PRODUCT_LIMIT);
    }

    #[test]
    fn scheduled_equals_on_the_fly() {
        for n in [2, 3, 7, 52, 104, 256, 300, 5000] {
            let plan = schedule(n);
            let mut a: Vec<u32> = (0..n as u32).collect();
            let mut b = a.clone();
            shuffle(&mut CardRng::new(n as u64), &mut a);
            shuffle_scheduled(&mut CardRng::new(n as u64), &mut b, &plan);
            assert_eq!(a, b);
        }
    }

    #[test]
    fn batch_rows_equal_single_streams() {
        for (n, count) in [1, 2, 10, 104, 256]
            .into_iter()
            .flat_map(|n| [1, 2, 5, 7].map(move |c| (n, c)))
        {
            let mut rows = vec![0u8; n * count];
            permutations_u8(9, 100, "deck", n, &mut rows);
            let mut wide = vec![0u16; n * count];
            permutations_u16(9, 100, "deck", n, &mut wide);
            let mut le = vec![0u8; 2 * n * count];
            permutations_u16_le(9, 100, "deck", n, &mut le);
            for r in 0..count {
                let single = permutation(&mut CardRng::for_stream(9, 100 + r as u64, "deck"), n);
                let row8: Vec<u16> = rows[r * n..(r + 1) * n]
                    .iter()
                    .map(|&b| u16::from(b))
                    .collect();
                assert_eq!(row8, single);
                assert_eq!(&wide[r * n..(r + 1) * n], single.as_slice());
                let row_le: Vec<u16> = le[2 * r * n..2 * (r + 1) * n]
                    .chunks_exact(2)
                    .map(|c| u16::from_le_bytes([c[0], c[1]]))
                    .collect();
                assert_eq!(row_le, single);
            }
        }
    }

    #[test]
    fn index_wraps_instead_of_overflowing() {
        let mut rows = vec![0u8; 2 * 10];
        permutations_u8(1, u64::MAX, "deck", 10, &mut rows);
        let last = permutation(&mut CardRng::for_stream(1, u64::MAX, "deck"), 10);
        let first = permutation(&mut CardRng::for_stream(1, 0, "deck"), 10);
        let to16 = |s: &[u8]| s.iter().map(|&b| u16::from(b)).collect::<Vec<_>>();
        assert_eq!(to16(&rows[..10]), last);
        assert_eq!(to16(&rows[10..]), first);
    }

    #[test]
    fn every_permutation_of_four_appears() {
        let mut counts = std::collections::HashMap::new();
        let mut rng = CardRng::new(4);
        for _ in 0..24_000 {
            *counts.entry(permutation(&mut rng, 4)).or_insert(0u32) += 1;
        }
        assert_eq!(counts.len(), 24);
        // Expected 1000 each; sd ~31. 6 sd either side.
        assert!(
            counts.values().all(|&c| (810..1190).contains(&c)),
            "{counts:?}"
        );
    }
}
