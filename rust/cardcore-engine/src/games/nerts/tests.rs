//! Unit tests of the Nerts rulebook: the deal, the action ids, the table against its lean
//! mode (the rollouts'), undo, the clock with submitted moves, agents' rounds and the re-deal.

use super::round::Humans;
use super::table::deal_deck;
use super::*;
use crate::card::{KING, deck_of, natural_face, natural_id, rank_of, suit_of};
use crate::games::RealtimeState;
use crate::nerts_rollout::{FullSeat, trace};
use crate::nerts_round::{Agent, SeatAgent};
use crate::rng::CardRng;
use crate::shuffle::permutation;

fn rules(num_work: u8, flip_count: u8, stock_passes: Option<u32>, loose: bool) -> Rules {
    Rules {
        num_work,
        flip_count,
        stock_passes,
        partial: loose,
        fill_any: loose,
        auto_call: false,
        foundation_points: 1,
        nerts_penalty: 2,
        nerts_bonus: 0,
        stalemate_rule: StalemateRule::RotateOne,
        max_stalemates: 3,
        undo_depth: 2,
        medians: [1000; 5],
        sigma: 0.3,
        miss: 0.0,
        min_ms: 100,
        max_ms: 5000,
        retry_ms: 500,
        nerts_pile: 13,
    }
}

/// A shuffled table: per seat a Nerts pile of `nerts` cards, one card per work pile, the rest
/// in the stock.
fn table(o: &Rules, players: usize, nerts: usize, rng: &mut CardRng) -> Table {
    let decks: Vec<Vec<u8>> = (0..players)
        .map(|seat| {
            permutation(rng, 52)
                .into_iter()
                .map(|f| natural_id(u8::try_from(f).unwrap(), u8::try_from(seat).unwrap()))
                .collect()
        })
        .collect();
    let mut r = *o;
    r.nerts_pile = u8::try_from(nerts).unwrap();
    Table::deal(r, &decks)
}

/// Every card of the table, sorted.
fn all_cards(t: &Table) -> Vec<u8> {
    let mut out: Vec<u8> = t.seats.iter().flat_map(Layout::all_cards).collect();
    out.extend(t.foundations.iter().flatten());
    out.sort_unstable();
    out
}

#[test]
fn the_deal_follows_the_deck_stream() {
    let o = rules(4, 3, None, false);
    let r = Round::new(o, 7, 3);
    for (s, p) in r.table.seats.iter().enumerate() {
        let deck = deal_deck(7, s);
        assert_eq!(p.nerts, deck[..13]);
        assert_eq!(
            p.work,
            deck[13..17].iter().map(|&c| vec![c]).collect::<Vec<_>>()
        );
        assert_eq!(
            p.stock(),
            deck[17..].iter().rev().copied().collect::<Vec<_>>()
        );
        assert!(p.all_cards().iter().all(|&c| usize::from(deck_of(c)) == s));
    }
    let mut every: Vec<u8> = (0..156).collect();
    every.sort_unstable();
    assert_eq!(all_cards(&r.table), every);
    assert_ne!(deal_deck(7, 0), deal_deck(7, 1));
}

#[test]
fn action_ids_and_codes_are_one_to_one() {
    for w in [4usize, 5] {
        let n = num_actions(w);
        assert_eq!(n, 2 + 3 * w + 13 * w * (w - 1) + 4);
        for id in 0..n {
            let code = action_code(id, w).unwrap();
            assert_eq!(
                action_of_code(code, w),
                Some(id),
                "{id} {}",
                action_text(code)
            );
        }
        assert_eq!(action_code(n, w), None);
        // a named foundation is its source's action
        assert_eq!(action_of_code(pack(K_FOUNDATION, 1, 1, 3), w), Some(3));
        assert_eq!(action_of_code(pack(K_WORK, 0, 1, 0), w), None);
        assert_eq!(action_of_code(pack(K_WORK, SRC_NERTS, 2, 0), w), None);
    }
    assert_eq!(action_text(action_code(0, 4).unwrap()), "N>F");
    assert_eq!(action_text(pack(K_WORK, 2, 3, 0)), "P2:3>P0");
    assert_eq!(action_text(pack(K_FOUNDATION, SRC_WASTE, 1, 2)), "W>F2");
}

/// Every seat as the rollout simulator lays it out (faces; the cycle is the waste bottom to
/// top, then the stock from its top).
fn laid_out(t: &Table) -> Vec<FullSeat> {
    let faces = |cards: &[u8]| cards.iter().map(|&c| natural_face(c)).collect::<Vec<u8>>();
    t.seats
        .iter()
        .enumerate()
        .map(|(seat, p)| FullSeat {
            nerts: faces(&p.nerts),
            work: p.work.iter().map(|w| faces(w)).collect(),
            cycle: faces(p.cycle.cards()),
            waste: u8::try_from(p.cycle.waste_len()).unwrap(),
            recycles: p.recycles,
            found: u8::try_from(
                t.foundations
                    .iter()
                    .flatten()
                    .filter(|&&c| usize::from(deck_of(c)) == seat)
                    .count(),
            )
            .unwrap(),
            flip_count: p.flip_count,
        })
        .collect()
}

/// How many foundations take each (suit, rank) next.
fn needs(foundations: &[Vec<u8>]) -> [[u8; 16]; 4] {
    let mut need = [[0u8; 16]; 4];
    for &top in foundations.iter().filter_map(|f| f.last()) {
        if rank_of(top) < KING {
            need[usize::from(suit_of(top))][usize::from(rank_of(top)) + 1] += 1;
        }
    }
    need
}

/// Every move code the simulator knows (foundation plays with the automatic target).
fn candidates(num_work: u8) -> Vec<u32> {
    let mut out = vec![
        pack(K_FOUNDATION, SRC_NERTS, 1, NONE),
        pack(K_FOUNDATION, SRC_WASTE, 1, NONE),
    ];
    out.extend((0..num_work).map(|i| pack(K_FOUNDATION, i, 1, NONE)));
    for s in [SRC_NERTS, SRC_WASTE] {
        out.extend((0..num_work).map(|j| pack(K_WORK, s, 1, j)));
    }
    for i in 0..num_work {
        for j in 0..num_work {
            out.extend((1..=13).map(|k| pack(K_WORK, i, k, j)));
        }
    }
    out.extend([pack(K_FLIP, 0, 0, 0), pack(K_RECYCLE, 0, 0, 0), CALL]);
    out
}

/// The rulebook's table and its lean mode as the rollouts play it (`nerts_rollout::trace`:
/// no undo log, no foundation piles, the rollouts' caches checked after every move in debug
/// builds) driven through the same random move sequences, legal and illegal, from random
/// deals: after every step the same verdict, the same full table and the same foundation
/// needs; and the generator lists exactly the moves `is_legal` takes.
/// (`tests/nerts/test_nerts_sim_parity.py` holds the Python table to the lean one the same
/// way.)
#[test]
fn table_and_rollout_simulator_agree_step_by_step() {
    let sets = [
        rules(4, 3, None, true),
        rules(5, 1, None, true),
        rules(4, 3, None, false),
        rules(4, 3, Some(2), true),
        rules(4, 1, Some(1), false),
    ];
    let mut kinds = [0usize; 6];
    for (which, o) in sets.iter().enumerate() {
        for players in 2..=4 {
            for seed in 0..4u64 {
                let mut rng = CardRng::new(seed * 100 + which as u64 * 10 + players as u64);
                let nerts = [13, 5, 3][(seed % 3) as usize];
                let mut t = table(o, players, nerts, &mut rng);
                let start = laid_out(&t);
                let every = candidates(o.num_work);
                let mut moves = Vec::new();
                let mut expected = Vec::new();
                for _ in 0..400 {
                    let seat = rng.below(players as u64) as usize;
                    let legal: Vec<u32> = t
                        .legal_codes(seat)
                        .into_iter()
                        .filter(|&m| m != UNDO)
                        .collect();
                    let mut by_check: Vec<u32> = every
                        .iter()
                        .copied()
                        .filter(|&m| t.is_legal(seat, m))
                        .collect();
                    let mut sorted = legal.clone();
                    sorted.sort_unstable();
                    by_check.sort_unstable();
                    assert_eq!(sorted, by_check, "generator vs is_legal");
                    let mv = if !legal.is_empty() && rng.below(4) != 0 {
                        legal[rng.below(legal.len() as u64) as usize]
                    } else {
                        every[rng.below(every.len() as u64) as usize]
                    };
                    let ok = t.is_legal(seat, mv);
                    if ok && kind(mv) != K_CALL {
                        t.apply(seat, mv);
                        kinds[usize::from(kind(mv))] += 1;
                    }
                    moves.push((seat, mv));
                    expected.push((ok, laid_out(&t), needs(&t.foundations)));
                }
                let steps = trace(&start, &[], &crate::nerts_round::rules_of(o), &moves).unwrap();
                assert_eq!(steps.len(), expected.len());
                for (i, (step, (ok, seats, need))) in steps.iter().zip(&expected).enumerate() {
                    let at = (which, players, seed, i, moves[i]);
                    assert_eq!(step.legal, *ok, "{at:?}");
                    assert_eq!(&step.seats, seats, "{at:?}");
                    assert_eq!(&step.need, need, "{at:?}");
                }
            }
        }
    }
    assert!(kinds[usize::from(K_FOUNDATION)] > 500, "{kinds:?}");
    assert!(kinds[usize::from(K_WORK)] > 500, "{kinds:?}");
    assert!(kinds[usize::from(K_FLIP)] > 500, "{kinds:?}");
    assert!(kinds[usize::from(K_RECYCLE)] > 20, "{kinds:?}");
}

/// Undo reverses every kind of move: a legal move then its undo gives back the table (the
/// undo stack aside); cards are conserved throughout, and the foundations' needs are always
/// those of the foundation piles.
#[test]
fn undo_reverses_each_move() {
    let mut undone = 0;
    for seed in 0..30u64 {
        let mut o = rules(4, 3, Some(3), seed % 2 == 0);
        o.undo_depth = 3;
        let mut rng = CardRng::new(seed);
        let mut t = table(&o, 2, 4, &mut rng);
        let cards = all_cards(&t);
        for _ in 0..300 {
            let seat = rng.below(2) as usize;
            let legal: Vec<u32> = t
                .legal_codes(seat)
                .into_iter()
                .filter(|&m| m != UNDO && m != CALL)
                .collect();
            if legal.is_empty() {
                break;
            }
            let mv = legal[rng.below(legal.len() as u64) as usize];
            let before = (t.seats, t.foundations.clone());
            t.apply(seat, mv);
            assert_eq!(all_cards(&t), cards);
            assert_eq!(t.needs, Needs::of_piles(&t.foundations), "the needs follow");
            if rng.below(3) == 0 {
                assert!(t.is_legal(seat, UNDO), "{}", action_text(mv));
                t.apply(seat, UNDO);
                undone += 1;
                assert_eq!(t.seats, before.0, "{}", action_text(mv));
                assert_eq!(t.foundations, before.1);
                assert_eq!(t.needs, Needs::of_piles(&t.foundations));
            }
        }
    }
    assert!(undone > 300, "{undone}");
}

#[test]
fn an_ace_below_a_newer_foundation_cannot_be_undone() {
    let o = rules(4, 3, None, false);
    let mut t = Table::deal(o, &[deal_deck(1, 0), deal_deck(1, 1)]);
    // seat 0's Nerts top an ace, seat 1's too
    t.seats[0].nerts.push(natural_id(0, 0u8)); // face 0 = ace of clubs
    t.seats[1].nerts.push(natural_id(13, 1u8));
    let f = pack(K_FOUNDATION, SRC_NERTS, 1, NONE);
    assert_eq!(rank_of(*t.seats[0].nerts.last().unwrap()), 1);
    t.apply(0, f);
    assert!(t.undo_legal(0));
    t.apply(1, f);
    assert!(!t.undo_legal(0), "foundation 0 is no longer the newest");
    assert!(t.undo_legal(1));
    t.apply(1, UNDO);
    assert_eq!(t.foundations.len(), 1);
}

#[test]
fn kept_needs_follow_the_foundation_piles_for_every_deck() {
    // Four decks played onto foundations in random legal order (taking some back): after
    // every step the needs kept by Needs::played/taken_back equal the ones read off the piles.
    let mut rng = CardRng::new(33);
    for _ in 0..8 {
        let (mut piles, mut needs) = (Vec::<Vec<u8>>::new(), Needs::default());
        let mut left: Vec<u8> = (0..4 * 52).collect();
        loop {
            let fits: Vec<usize> = (0..left.len()).filter(|&i| needs.fits(left[i])).collect();
            let Some(&i) = fits.get(rng.below(fits.len().max(1) as u64) as usize) else {
                break;
            };
            let card = left.swap_remove(i);
            if rank_of(card) == 1 {
                piles.push(vec![card]);
            } else {
                let f = piles.iter().position(|p| {
                    p.last()
                        .is_some_and(|&t| moves::builds_on_foundation(card, t))
                });
                piles[f.expect("a card that fits has a foundation")].push(card);
            }
            needs.played(card);
            assert_eq!(needs, Needs::of_piles(&piles), "after {card}");
            if rng.below(4) == 0 {
                let p = rng.below(piles.len() as u64) as usize;
                let back = piles[p].pop().expect("no empty pile");
                if piles[p].is_empty() {
                    piles.remove(p);
                }
                needs.taken_back(back);
                left.push(back);
                assert_eq!(needs, Needs::of_piles(&piles), "after taking {back} back");
            }
        }
        assert!(left.is_empty() && piles.len() == 16);
    }
}

#[test]
fn submitted_moves_run_on_the_clock() {
    let o = rules(4, 3, None, false);
    let mut r = Round::new(o, 3, 2);
    r.start(&mut Humans).unwrap();
    assert!(r.next_event().is_none());
    let flip = pack(K_FLIP, 0, 0, 0);
    r.submit(0, flip, 500).unwrap();
    assert_eq!(
        r.submit(0, flip, 600).unwrap_err().0,
        "seat 0 already has a pending action"
    );
    r.submit(1, flip, 200).unwrap();
    r.advance_to(300, &mut Humans).unwrap();
    assert_eq!(r.now, 300);
    assert_eq!(r.table.seats[1].cycle.waste_len(), 3);
    assert_eq!(r.table.seats[0].cycle.waste_len(), 0);
    assert_eq!(
        r.submit(1, flip, 100).unwrap_err().0,
        "t_ms 100 is before now (300)"
    );
    assert!(r.step(&mut Humans).unwrap());
    assert_eq!(r.now, 500);
    assert_eq!(r.log.len(), 2);
    assert_eq!(
        (r.log[0].t, r.log[0].seat, r.log[0].text.as_str()),
        (200, 1, "flip")
    );
    // an illegal move fails when it executes, nothing moves
    r.submit(0, CALL, 600).unwrap();
    r.step(&mut Humans).unwrap();
    assert!(!r.log[2].ok);
    assert_eq!(r.inputs.len(), 3);
    r.advance_to(MAX_ROUND_MS, &mut Humans).unwrap();
    assert_eq!(r.end, Some("cap"));
    assert_eq!(
        r.submit(0, flip, MAX_ROUND_MS).unwrap_err().0,
        "the round is over"
    );
}

fn hard() -> Agent {
    Agent::Hard {
        samples: 4,
        horizon_ms: 3000,
        margin: 0.5,
        racing: crate::nerts_rollout::Racing {
            first: 2,
            step: 2,
            z: 2.0,
            max_loss: 0.5,
        },
    }
}

fn seat_agent(agent: Agent) -> Option<SeatAgent> {
    Some(SeatAgent {
        agent,
        memory: None,
        last_ms: None,
        searches: 0,
    })
}

/// Rounds of built-in agents end, conserve cards, and are a pure function of the seed; the
/// lean mode (no event log, no undo log) plays the same round.
#[test]
fn agents_rounds_end_and_repeat() {
    for (seed, agents) in [
        (1u64, vec![Agent::Random, Agent::Greedy]),
        (2, vec![Agent::Greedy, Agent::RuleOfThumb, Agent::Random]),
        (3, vec![Agent::RuleOfThumb, hard()]),
    ] {
        let o = rules(4, 3, None, false);
        let make = || State::new(o, seed, agents.iter().map(|&a| seat_agent(a)).collect());
        let mut a = make();
        let cards = all_cards(&a.round.table);
        a.run();
        assert!(a.is_over());
        assert_eq!(all_cards(&a.round.table), cards);
        let mut b = make();
        while b.step() {}
        if !b.is_over() {
            b.run();
        }
        assert_eq!(a.round.log, b.round.log);
        assert_eq!(a.round.scores(), b.round.scores());
        let mut lean = make();
        lean.round.keep_log = false;
        lean.round.table.rules.undo_depth = 0;
        lean.run();
        assert!(lean.round.log.is_empty());
        assert_eq!(lean.round.table.foundations, a.round.table.foundations);
        assert_eq!(lean.returns(), a.returns());
    }
}

#[test]
fn the_tensor_is_seat_relative_and_the_redeal_keeps_what_the_seat_sees() {
    let o = rules(4, 3, None, false);
    let mut st = State::new(
        o,
        11,
        vec![seat_agent(Agent::Greedy), None, seat_agent(Agent::Random)],
    );
    st.advance_to(20_000);
    let size = st.observation_size();
    let tensor = |s: &State, seat: usize| {
        let mut out = vec![0.0f32; size];
        s.write_observation(seat, &mut out);
        out
    };
    // seat 1's own block first: its Nerts top
    let t1 = tensor(&st, 1);
    let top = natural_face(*st.round.table.seats[1].nerts.last().unwrap());
    assert_eq!(t1[usize::from(top)], 1.0);
    for seat in 0..3 {
        let re = st.resample_hidden(seat, 99);
        assert_eq!(tensor(&re, seat), tensor(&st, seat));
        assert_eq!(all_cards(&re.round.table), all_cards(&st.round.table));
        for s in 0..3 {
            let (a, b) = (&re.round.table.seats[s], &st.round.table.seats[s]);
            let mut x = a.all_cards();
            let mut y = b.all_cards();
            x.sort_unstable();
            y.sort_unstable();
            assert_eq!(x, y, "a seat keeps its own cards");
            assert_eq!(a.nerts.last(), b.nerts.last());
            if s == seat {
                let fan = b.waste_fan().len();
                assert_eq!(
                    a.waste()[a.cycle.waste_len() - fan..],
                    b.waste()[b.cycle.waste_len() - fan..]
                );
            }
            assert_eq!(a.waste().last(), b.waste().last());
        }
        assert_ne!(
            re.round
                .table
                .seats
                .iter()
                .map(Layout::stock)
                .collect::<Vec<_>>(),
            st.round
                .table
                .seats
                .iter()
                .map(Layout::stock)
                .collect::<Vec<_>>()
        );
        let mut after = re.clone();
        after.advance_to(40_000);
        assert_eq!(all_cards(&after.round.table), all_cards(&st.round.table));
    }
}
