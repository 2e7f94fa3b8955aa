//! Nerts move generation against a brute-force oracle that checks every candidate move with the
//! rules of the Nerts rules page ("Moves") written out card by card (full piles, not the
//! length/top shortcut).

use cardcore_engine::card::{face, is_red, rank, suit};
use cardcore_engine::games::nerts::moves::{
    F_FILL_ANY, F_PARTIAL, F_RECYCLE, F_RUNNING, K_CALL, K_FLIP, K_FOUNDATION, K_RECYCLE, K_WORK,
    MoveBuf, NONE, PlayerView, SRC_NERTS, SRC_WASTE, count_batch, generate, generate_batch,
    is_legal, pack,
};
use proptest::prelude::*;

/// A player with whole work piles (bottom → top), for the oracle.
#[derive(Debug, Clone)]
struct Full {
    nerts: Vec<u8>,
    stock: u8,
    waste: Vec<u8>,
    work: Vec<Vec<u8>>,
    flags: u8,
    foundation_tops: Vec<u8>,
}

impl Full {
    fn view(&self) -> PlayerView {
        let mut v = PlayerView {
            nerts_count: u8::try_from(self.nerts.len()).unwrap(),
            nerts_top: self.nerts.last().copied().unwrap_or(NONE),
            stock: self.stock,
            waste: u8::try_from(self.waste.len()).unwrap(),
            waste_top: self.waste.last().copied().unwrap_or(NONE),
            num_work: u8::try_from(self.work.len()).unwrap(),
            flags: self.flags,
            work_top: [NONE; 5],
            ..PlayerView::default()
        };
        for (i, p) in self.work.iter().enumerate() {
            v.work_len[i] = u8::try_from(p.len()).unwrap();
            v.work_top[i] = p.last().copied().unwrap_or(NONE);
        }
        for &t in &self.foundation_tops {
            if rank(t) < 13 {
                v.need[usize::from(suit(t))] |= 1 << (rank(t) + 1);
            }
        }
        v
    }

    fn fits_foundation(&self, c: u8) -> bool {
        rank(c) == 1
            || self
                .foundation_tops
                .iter()
                .any(|&t| suit(t) == suit(c) && rank(t) + 1 == rank(c))
    }

    fn oracle(&self) -> Vec<u32> {
        let mut out = Vec::new();
        if self.flags & F_RUNNING == 0 {
            return out;
        }
        let w = self.work.len();
        let fits_work = |c: u8, t: u8| rank(t) == rank(c) + 1 && is_red(t) != is_red(c);
        let tops: Vec<(u8, Option<u8>)> = [
            (SRC_NERTS, self.nerts.last()),
            (SRC_WASTE, self.waste.last()),
        ]
        .into_iter()
        .map(|(s, c)| (s, c.copied()))
        .collect();
        for &(src, c) in &tops {
            if let Some(c) = c
                && self.fits_foundation(c)
            {
                out.push(pack(K_FOUNDATION, src, 1, NONE));
            }
        }
        for (i, p) in self.work.iter().enumerate() {
            if let Some(&c) = p.last()
                && self.fits_foundation(c)
            {
                out.push(pack(K_FOUNDATION, u8::try_from(i).unwrap(), 1, NONE));
            }
        }
        for &(src, c) in &tops {
            let Some(c) = c else { continue };
            for (j, p) in self.work.iter().enumerate() {
                let ok = match p.last() {
                    None => self.flags & F_FILL_ANY != 0 || src == SRC_NERTS,
                    Some(&t) => fits_work(c, t),
                };
                if ok {
                    out.push(pack(K_WORK, src, 1, u8::try_from(j).unwrap()));
                }
            }
        }
        for i in 0..w {
            for j in 0..w {
                if i == j {
                    continue;
                }
                let src = &self.work[i];
                for k in 1..=src.len() {
                    if self.flags & F_PARTIAL == 0 && k != src.len() {
                        continue;
                    }
                    let bottom = src[src.len() - k];
                    let ok = match self.work[j].last() {
                        None => self.flags & F_FILL_ANY != 0,
                        Some(&t) => fits_work(bottom, t),
                    };
                    if ok {
                        let (si, dj, kk) = (
                            u8::try_from(i).unwrap(),
                            u8::try_from(j).unwrap(),
                            u8::try_from(k).unwrap(),
                        );
                        out.push(pack(K_WORK, si, kk, dj));
                    }
                }
            }
        }
        if self.stock > 0 {
            out.push(pack(K_FLIP, 0, 0, 0));
        } else if !self.waste.is_empty() && self.flags & F_RECYCLE != 0 {
            out.push(pack(K_RECYCLE, 0, 0, 0));
        }
        if self.nerts.is_empty() {
            out.push(pack(K_CALL, 0, 0, 0));
        }
        out
    }
}

fn pile() -> impl Strategy<Value = Vec<u8>> {
    (
        0u8..4,
        1u8..=13,
        0u8..13,
        proptest::collection::vec(any::<bool>(), 13),
    )
        .prop_map(|(kind, base_rank, len_seed, picks)| {
            if kind == 0 {
                return Vec::new();
            }
            let len = 1 + len_seed % base_rank;
            let mut s = picks[0] as u8 * 3; // clubs or spades
            let mut out = Vec::new();
            for k in 0..len {
                out.push(face(base_rank - k, s));
                let red = matches!(s, 1 | 2);
                let pick = picks[usize::from(k)] as u8;
                s = if red {
                    [0, 3][usize::from(pick)]
                } else {
                    [1, 2][usize::from(pick)]
                };
            }
            out
        })
}

fn player() -> impl Strategy<Value = Full> {
    (
        proptest::collection::vec(0u8..52, 0..3),
        0u8..3,
        proptest::collection::vec(0u8..52, 0..3),
        proptest::collection::vec(pile(), 4..=5),
        0u8..16,
        proptest::collection::vec(0u8..52, 0..8),
    )
        .prop_map(|(nerts, stock, waste, work, flags, foundation_tops)| Full {
            nerts,
            stock,
            waste,
            work,
            flags,
            foundation_tops,
        })
}

/// Every code of kinds 0..=5 with sources 0..=7, depths 0..=14 and targets 0..=5 or "auto".
fn every_code() -> impl Iterator<Item = u32> {
    (0..=5u8).flat_map(|k| {
        (0..=7u8).flat_map(move |s| {
            (0..=14u8).flat_map(move |d| (0..=5u8).chain([NONE]).map(move |j| pack(k, s, d, j)))
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn generator_equals_oracle(p in player()) {
        let v = p.view();
        prop_assert_eq!(PlayerView::decode(&v.encode()), Ok(v));
        let mut buf = MoveBuf::default();
        generate(&v, &mut buf);
        prop_assert_eq!(buf.as_slice().to_vec(), p.oracle());
    }

    /// Legality and generation are one set of rules: over every code, `is_legal` takes exactly
    /// the oracle's moves (the bytes a kind does not read aside: a foundation play's depth, all
    /// three of a flip, recycle or call).
    #[test]
    fn legality_equals_the_oracle(p in player()) {
        let v = p.view();
        let legal = p.oracle();
        for code in every_code() {
            let [k, s, _, j] = code.to_le_bytes();
            let shape = match k {
                K_FOUNDATION => pack(k, s, 1, j),
                K_FLIP..=K_CALL => pack(k, 0, 0, 0),
                _ => code,
            };
            let want = legal.contains(&shape);
            prop_assert_eq!(is_legal(&v, code), want, "{:08x}", code);
        }
    }

    #[test]
    fn decode_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..40)) {
        if let Ok(v) = PlayerView::decode(&bytes) {
            let mut buf = MoveBuf::default();
            generate(&v, &mut buf);
            prop_assert!(buf.len() <= cardcore_engine::games::nerts::moves::MAX_MOVES);
        }
    }
}

#[test]
fn batch_matches_single_calls() {
    let p = Full {
        nerts: vec![face(7, 1)],
        stock: 2,
        waste: vec![face(12, 3)],
        work: vec![
            vec![face(9, 0), face(8, 2)],
            vec![face(10, 1)],
            vec![],
            vec![face(8, 3)],
        ],
        flags: F_PARTIAL | F_FILL_ANY | F_RUNNING,
        foundation_tops: vec![face(6, 1)],
    };
    let one = p.view().encode();
    let mut states = one.to_vec();
    states.extend_from_slice(&one);
    let (mut counts, mut moves) = (Vec::new(), Vec::new());
    generate_batch(&states, &mut counts, &mut moves).unwrap();
    let n = usize::from(u16::from_le_bytes([counts[0], counts[1]]));
    assert_eq!(counts.len(), 4);
    assert_eq!(moves.len(), 2 * 4 * n);
    assert_eq!(count_batch(&states).unwrap(), 2 * n as u64);
    assert!(
        p.oracle().contains(&pack(K_FOUNDATION, SRC_NERTS, 1, NONE)),
        "7d on 6d"
    );
    let mut bad = states.clone();
    bad[32 + 5] = 9;
    let err = generate_batch(&bad, &mut Vec::new(), &mut Vec::new()).unwrap_err();
    assert_eq!(err.index, 1);
}
