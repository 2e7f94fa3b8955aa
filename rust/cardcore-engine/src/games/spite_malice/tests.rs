//! Unit tests of the rulebook (the oracle tests in `tests/spite_malice/` compare it with the
//! Python engine of 0.4.0 move for move).

use super::*;
use crate::games::State as _;
use crate::rng::CardRng;

fn rules() -> Rules {
    Rules {
        players: 2,
        decks: 2,
        jokers: false,
        payoff_size: 20,
        hand_size: 5,
        side_stacks: 4,
        center_stacks: 3,
        king_can_start: true,
        refill_empty_hand: true,
        completed_to_stock: true,
        stock_rule: StockRule::TieOnRequiredDraw,
        side_rule: SideRule::Any,
        must_play_aces: false,
        first_player: None,
        max_turns: 1000,
        win_bonus: 0,
    }
}

fn variants() -> Vec<Rules> {
    let r = rules();
    vec![
        r.clone(),
        Rules {
            center_stacks: 0,
            players: 3,
            decks: 3,
            ..r.clone()
        },
        Rules {
            jokers: true,
            side_rule: SideRule::SameOrOneLower,
            must_play_aces: true,
            completed_to_stock: false,
            stock_rule: StockRule::RecycleThenTie,
            ..r.clone()
        },
        Rules {
            side_rule: SideRule::NoAces,
            refill_empty_hand: false,
            stock_rule: StockRule::TieImmediately,
            payoff_size: 8,
            first_player: Some(1),
            win_bonus: 5,
            ..r
        },
    ]
}

fn cards_of(st: &State) -> Vec<u16> {
    let mut cards: Vec<u16> = st.stock().to_vec();
    cards.extend(st.used());
    for pile in st.payoffs().iter().chain(st.hands()).chain(st.center()) {
        cards.extend(pile);
    }
    for side in st.sides().iter().flatten() {
        cards.extend(side);
    }
    cards.sort_unstable();
    cards
}

fn parts(st: &State) -> StateParts {
    StateParts {
        seed: st.seed(),
        rng: st.rng_state(),
        deck_order: st.deck_order().to_vec(),
        payoffs: st.payoffs().to_vec(),
        hands: st.hands().to_vec(),
        sides: st.sides().to_vec(),
        center: st.center().to_vec(),
        stock: st.stock().to_vec(),
        used: st.used().to_vec(),
        current: st.current(),
        first_player: st.first_player(),
        turn: st.turn(),
        over: st.over(),
        winner: st.winner(),
        end_reason: st.end_reason(),
        scores: st.scores().to_vec(),
        events: st.events().map(<[String]>::to_vec),
        reshuffles: st.reshuffles(),
        log: st.log().to_vec(),
        pinned: st.pinned().to_vec(),
        entries: st.entries().to_vec(),
        entry_draws: st.entry_draws().to_vec(),
        drawn: st.drawn().to_vec(),
        played: st.played().to_vec(),
    }
}

#[test]
fn sizes_of_the_default_game() {
    let r = rules();
    assert!(r.check());
    assert_eq!(r.num_actions(), 379);
    assert_eq!(r.layout().num_actions(), 379);
    assert_eq!(r.slots(), 3);
    assert_eq!(r.card_text(0), "Ac@0");
    assert_eq!(r.card_text(52 + 51), "Ks@1");
}

#[test]
fn random_games_keep_every_card_and_agree_with_the_moves() {
    for (v, r) in variants().into_iter().enumerate() {
        for seed in 0..4_u64 {
            let total = r.total_cards();
            let mut st = State::new(r.clone(), seed, true).unwrap();
            let mut rng = CardRng::new(seed + 100 * v as u64);
            let mut obs = vec![0.0; r.observation_size()];
            let mut steps = 0;
            while let Some(seat) = st.current_player() {
                st.write_observation(seat, &mut obs);
                let legal = st.legal_actions();
                assert!(!legal.is_empty());
                // every legal move is an action id, every id one of the moves' faces
                let moves = st.legal_moves();
                assert!(moves.iter().all(|m| {
                    let (k, x, y) = m.code();
                    st.why_illegal(k, x as i64, y as i64).is_none()
                }));
                let a = legal[rng.below(legal.len() as u64) as usize];
                assert!(st.apply_action(-1).is_err());
                st.apply_action(a as i64).expect("a legal action");
                assert!(cards_of(&st).iter().map(|&c| usize::from(c)).eq(0..total));
                steps += 1;
                if steps % 37 == 0 {
                    let copy = State::from_parts(r.clone(), parts(&st)).expect("a state of play");
                    assert_eq!(copy.legal_actions(), st.legal_actions());
                    let other = st.resample_hidden(seat, steps);
                    assert_eq!(other.hands()[seat], st.hands()[seat]);
                    assert_eq!(cards_of(&other), cards_of(&st));
                    State::from_parts(r.clone(), parts(&other)).expect("a re-deal is consistent");
                }
            }
            assert!(st.over());
            assert_eq!(
                st.end_reason() == EndReason::PayOffEmptied,
                st.winner().is_some()
            );
            State::from_parts(r.clone(), parts(&st)).expect("a finished game");
        }
    }
}

#[test]
fn illegal_moves_say_why() {
    let mut st = State::new(rules(), 3, false).unwrap();
    assert_eq!(st.apply_code(0, 0, 5).unwrap_err().0, "no centre stack C6");
    assert_eq!(st.apply_code(0, 0, -1).unwrap_err().0, "no centre stack C0");
    assert_eq!(st.apply_code(3, 0, 4).unwrap_err().0, "no side stack S4");
    assert_eq!(
        st.apply_code(1, 0, 0).unwrap_err().0,
        "side stack S1 is empty"
    );
    assert_eq!(
        st.apply_code(2, 999, 0).unwrap_err().0,
        "card #999 is not in the hand"
    );
}

#[test]
fn inconsistent_documents_are_refused() {
    let mut rng = CardRng::new(1);
    let st = (0..)
        .find_map(|seed| {
            let mut st = State::new(rules(), seed, false).unwrap();
            while st.entries().is_empty() && !st.over() {
                let legal = st.legal_actions();
                st.apply_action(legal[rng.below(legal.len() as u64) as usize] as i64)
                    .unwrap();
            }
            (!st.over()).then_some(st)
        })
        .unwrap();
    let x = parts(&st);
    State::from_parts(rules(), x.clone()).unwrap();
    // an empty pay-off pile on a game that is not over (issue #31 L12)
    let mut y = x.clone();
    let card = y.payoffs[0].drain(..).collect::<Vec<_>>();
    y.used.extend(card);
    let e = State::from_parts(rules(), y).unwrap_err();
    assert!(e.0.contains("'payoffs'"), "{e}");
    // knowledge that disagrees with the piles (issue #31 M5)
    let mut y = x.clone();
    y.entry_draws[0][0] = y.drawn[0] + 1;
    assert!(
        State::from_parts(rules(), y)
            .unwrap_err()
            .0
            .contains("'knowledge'")
    );
    let mut y = x.clone();
    y.played[1].push(9);
    assert!(
        State::from_parts(rules(), y)
            .unwrap_err()
            .0
            .contains("'knowledge'")
    );
    let mut y = x.clone();
    y.entry_draws.pop();
    assert!(
        State::from_parts(rules(), y)
            .unwrap_err()
            .0
            .contains("'knowledge'")
    );
    let mut y = x;
    y.pinned[1].push(y.payoffs[0][0]);
    assert!(
        State::from_parts(rules(), y)
            .unwrap_err()
            .0
            .contains("'knowledge'")
    );
}
