//! Solver timings in pure Rust (no Python). Ignored by default; run with
//! `cargo test --release -p cardcore-engine --test meld_timing -- --ignored --nocapture`.

use std::hint::black_box;
use std::time::Instant;

use cardcore_engine::meld::{MeldRules, best_arrangement, discard_deadwoods, min_deadwood};
use cardcore_engine::rng::CardRng;

fn hands(n: usize, size: usize, decks: usize, jokers: u8, rng: &mut CardRng) -> Vec<Vec<u8>> {
    let mut deck: Vec<u8> = (0..decks).flat_map(|_| 0..52u8).collect();
    deck.extend((0..jokers).map(|k| 52 + k));
    (0..n)
        .map(|_| {
            for i in 0..size {
                let j = i + rng.below((deck.len() - i) as u64) as usize;
                deck.swap(i, j);
            }
            deck[..size].to_vec()
        })
        .collect()
}

/// Seconds per hand of `f` over `hs`: the 10th percentile over chunks of 256 hands, so that a
/// loaded machine (other processes preempting this one) does not inflate the figure.
fn per_item<T>(hs: &[T], mut f: impl FnMut(&T) -> u32) -> f64 {
    let mut samples: Vec<f64> = Vec::new();
    let mut sink = 0u64;
    for chunk in hs.chunks(256) {
        let t = Instant::now();
        for h in chunk {
            sink += u64::from(f(black_box(h)));
        }
        samples.push(t.elapsed().as_secs_f64() / chunk.len() as f64);
    }
    black_box(sink);
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 10]
}

fn time_per_hand(hs: &[Vec<u8>], wild: u32) -> f64 {
    let r = MeldRules::default();
    per_item(hs, |h| min_deadwood(h, wild, &r).unwrap())
}

#[test]
#[ignore = "timing, run by hand"]
#[allow(clippy::print_stdout)]
fn timings() {
    let scale: usize = std::env::var("MELD_TIMING_SCALE")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10);
    let n = |k: usize| k * scale / 10;
    let mut rng = CardRng::new(7);
    // Warm up: build the suit tables (single and one-duplicate) outside the timings.
    let _ = min_deadwood(&[0, 0, 1, 40], 5, &MeldRules::default());
    let h10 = hands(n(200_000), 10, 1, 0, &mut rng);
    println!(
        "10 cards 1 deck, wild K (kings are wild): {:.0} ns",
        1e9 * time_per_hand(&h10, 13)
    );
    // The same hands with a wild rank none of them holds (no wild at all, as in gin rummy).
    let plain: Vec<(Vec<u8>, u32)> = h10
        .iter()
        .filter_map(|h| {
            (3..=13u32)
                .rev()
                .find(|&w| h.iter().all(|&f| u32::from(f % 13) + 1 != w))
                .map(|w| (h.clone(), w))
        })
        .collect();
    let r0 = MeldRules::default();
    let per = per_item(&plain, |(h, w)| min_deadwood(h, *w, &r0).unwrap());
    println!("10 cards 1 deck, no wild card: {:.0} ns", 1e9 * per);
    // 14-card hands with exactly two wilds (wild rank 7, two decks, jokers possible).
    let mut h14 = Vec::new();
    while h14.len() < n(50_000) {
        for h in hands(1000, 14, 2, 4, &mut rng) {
            let w = h.iter().filter(|&&f| f >= 52 || f % 13 == 6).count();
            if w == 2 {
                h14.push(h);
            }
        }
    }
    println!("14 cards 2 wilds: {:.0} ns", 1e9 * time_per_hand(&h14, 7));
    let sizes: Vec<usize> = std::env::var("MELD_TIMING_SIZES").ok().map_or_else(
        || vec![3, 7, 10, 13, 14, 20],
        |v| v.split(',').filter_map(|x| x.parse().ok()).collect(),
    );
    for size in sizes {
        let hs = hands(n(20_000), size, 2, 4, &mut rng);
        println!(
            "{size} cards 2 decks+4 jokers W=7: {:.0} ns",
            1e9 * time_per_hand(&hs, 7)
        );
    }
    let r = MeldRules::default();
    let per = per_item(&h14[..n(20_000)], |h| {
        discard_deadwoods(h, 7, &r).unwrap().into_iter().sum()
    });
    println!("discards 14: {:.0} ns", 1e9 * per);
    let per = per_item(&h14[..n(5_000)], |h| {
        best_arrangement(&h[..13], 7, &r).unwrap().points
    });
    println!("best_arrangement 13 (<= 2 wilds): {:.0} ns", 1e9 * per);
}
