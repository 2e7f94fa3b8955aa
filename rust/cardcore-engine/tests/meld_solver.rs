//! Meld solver: worked cases of the rules and the fast path against the memoised search.

use cardcore_engine::card::parse_faces;
use cardcore_engine::meld::{
    self, AceMode, MeldError, MeldRules, best_arrangement, discard_deadwoods, fast, min_deadwood,
    search,
};
use proptest::prelude::*;

fn rules(mode: AceMode) -> MeldRules {
    MeldRules {
        ace_mode: mode,
        ..MeldRules::default()
    }
}

fn dw(hand: &str, wild: u32, mode: AceMode) -> u32 {
    let faces = parse_faces(hand).unwrap();
    let r = rules(mode);
    let a = min_deadwood(&faces, wild, &r).unwrap();
    let b = best_arrangement(&faces, wild, &r).unwrap().points;
    assert_eq!(a, b, "{hand}");
    a
}

#[test]
fn worked_cases() {
    use AceMode::{Both, High, Low};
    let cases: &[(&str, u32, AceMode, u32)] = &[
        ("3c 9h Kd", 3, Low, 34),
        ("3c 3d 9h", 3, Low, 0),
        ("3c 3d 3h", 3, Low, 0),
        ("X1 Kd 2c", 3, Low, 32),
        ("Kh Qh X1", 3, Low, 0),
        ("Ah 2h X1", 3, Low, 0),
        ("Kd 3c 3s", 3, Low, 0),
        ("4s 7h 8h Kc", 4, Low, 10),
        ("X1 4c 9h Kd", 4, Low, 9),
        ("Ah 3h 5c Qs Qd", 5, Low, 4),
        ("4h 5h 6h 9c 9d", 5, Low, 10),
        ("Kh Ah 2h 5c 9d", 5, Low, 19),
        ("Ac Ac 2c 3c 3c", 5, Low, 4),
        ("Ac Ac 2c 3c 3c 6d", 6, Low, 0),
        ("Qh Kh Ah 9c 9d 9s", 6, Low, 21),
        ("Qh Kh Ah 9c 9d 9s", 6, High, 0),
        ("6c Kh Qs 2d 7c 9h", 6, Low, 53),
        ("Ah 2h 3h 9c 9d Ks", 6, Low, 28),
        ("Ah 2h 3h 9c 9d Ks", 6, High, 48),
        ("Ah 2h 3h 9c 9d Ks", 6, Both, 28),
        ("8h 8h 8c 2d 3d 4d Kc", 7, Low, 10),
        ("4h 5h 6h 6c 6d 9s 7c", 7, Low, 9),
        ("2c 4c 6c 8c 7d 7h Kd", 7, Low, 10),
        ("5h 6h 6h 7h Tc Jc Qc 2s", 8, Low, 8),
        ("9c 9d Kh 2c 3c 4c 5c 7s Js", 9, Low, 17),
        ("Kc Kd Ah 2h 3h 4h 5h 5c 5s 9d Td Jd Qd", 13, Low, 0),
        ("7c 7d 8h 9h Ts", 5, Low, 41),
        ("7c 7d 8h 9h Ts", 7, Low, 10),
    ];
    for &(hand, wild, mode, want) in cases {
        assert_eq!(dw(hand, wild, mode), want, "{hand} W={wild} {mode:?}");
    }
}

#[test]
fn m22_discards() {
    let faces = parse_faces("Kc Ah 2h 3h 4h 5h 5c 5s 9d Td Jd Qd 7s 8c").unwrap();
    let d = discard_deadwoods(&faces, 13, &MeldRules::default()).unwrap();
    assert_eq!(d[13], 5);
    assert_eq!(d[12], 8);
    assert_eq!(d[6], 8);
    assert_eq!(d[0], 15);
    assert_eq!(*d.iter().min().unwrap(), 5);
}

#[test]
fn errors_not_panics() {
    let r = MeldRules::default();
    assert_eq!(min_deadwood(&[1], 2, &r), Err(MeldError::BadWildRank(2)));
    assert_eq!(min_deadwood(&[1], 14, &r), Err(MeldError::BadWildRank(14)));
    assert_eq!(min_deadwood(&[56], 5, &r), Err(MeldError::BadFace(56)));
    assert_eq!(
        min_deadwood(&[0; 25], 5, &r),
        Err(MeldError::TooManyCards(25))
    );
    let bad = MeldRules {
        joker_points: 5000,
        ..r
    };
    assert_eq!(min_deadwood(&[1], 5, &bad), Err(MeldError::BadPoints(5000)));
    assert_eq!(min_deadwood(&[], 5, &r), Ok(0));
    // Many copies of one card (outside the fast path's tables) still solve exactly.
    assert_eq!(min_deadwood(&[4; 20], 7, &r), Ok(0));
    assert_eq!(min_deadwood(&[4; 17], 5, &r), Ok(0));
    assert_eq!(
        meld::min_deadwood_batch(&[vec![4u8; 2]], 7, &r),
        Ok(vec![10])
    );
}

fn mode_of(k: u8) -> AceMode {
    AceMode::from_code(k % 3).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// Fast path == memoised search on dense hands (two suits, few ranks, copies, wilds).
    #[test]
    fn fast_equals_search_dense(
        picks in prop::collection::vec((0u8..2, 0u8..7, 0u8..3), 3..=16),
        jokers in 0u8..=4,
        lo in 1u8..=8,
        wild in 3u32..=13,
        mode in 0u8..3,
        suits in prop::array::uniform2(0u8..4),
    ) {
        let mut hand: Vec<u8> = picks
            .iter()
            .map(|&(s, r, _)| {
                let rank = if r == 6 { 1 } else { lo + r };
                suits[usize::from(s)] * 13 + rank - 1
            })
            .collect();
        hand.extend((0..jokers).map(|k| 52 + k));
        let r = rules(mode_of(mode));
        let w = wild as u8;
        prop_assert_eq!(fast::deadwood(&hand, w, &r), search::deadwood(&hand, w, &r));
        // Discards (shared work) == the search on each hand minus one card.
        let d = fast::discards(&hand, w, &r);
        for (i, &got) in d.iter().enumerate() {
            let mut rest = hand.clone();
            rest.remove(i);
            prop_assert_eq!(got, search::deadwood(&rest, w, &r), "discard {}", i);
        }
        prop_assert_eq!(fast::min_discard(&hand, w, &r), d.iter().copied().min().unwrap_or(0));
    }

    /// Discards on hands of isolated same-rank groups (ranks taken out of the suits).
    #[test]
    fn discards_isolated_groups(
        picks in prop::collection::vec((0u8..4, 0u8..5, 0u8..3), 3..=15),
        jokers in 0u8..=3,
        wild in 3u32..=13,
        mode in 0u8..3,
    ) {
        // Ranks 2, 6, 10 (far apart) and K, A, in any suit: many isolated pairs and triples.
        let ranks = [2u8, 6, 10, 13, 1];
        let mut hand: Vec<u8> = picks
            .iter()
            .map(|&(s, r, _)| s * 13 + ranks[usize::from(r)] - 1)
            .collect();
        hand.extend((0..jokers).map(|k| 52 + k));
        let r = rules(mode_of(mode));
        let w = wild as u8;
        let d = fast::discards(&hand, w, &r);
        for (i, &got) in d.iter().enumerate() {
            let mut rest = hand.clone();
            rest.remove(i);
            prop_assert_eq!(got, search::deadwood(&rest, w, &r), "discard {}", i);
        }
        prop_assert_eq!(fast::min_discard(&hand, w, &r), d.iter().copied().min().unwrap_or(0));
    }

    /// Fast path == memoised search on hands from two decks plus jokers.
    #[test]
    fn fast_equals_search_uniform(
        hand in prop::collection::vec(0u8..56, 0..=20),
        wild in 3u32..=13,
        mode in 0u8..3,
    ) {
        let r = rules(mode_of(mode));
        let w = wild as u8;
        prop_assert_eq!(fast::deadwood(&hand, w, &r), search::deadwood(&hand, w, &r));
        let a = best_arrangement(&hand, wild, &r).unwrap();
        prop_assert_eq!(a.points, fast::deadwood(&hand, w, &r));
    }

    /// Discards == individual solves, and the least of them == `min_discard`.
    #[test]
    fn discards_equal_solves(
        hand in prop::collection::vec(0u8..56, 1..=15),
        wild in 3u32..=13,
        mode in 0u8..3,
    ) {
        let r = rules(mode_of(mode));
        let d = discard_deadwoods(&hand, wild, &r).unwrap();
        for (i, &got) in d.iter().enumerate() {
            let mut rest = hand.clone();
            rest.remove(i);
            prop_assert_eq!(got, min_deadwood(&rest, wild, &r).unwrap());
        }
        let least = fast::min_discard(&hand, wild as u8, &r);
        prop_assert_eq!(least, d.iter().copied().min().unwrap());
    }
}
