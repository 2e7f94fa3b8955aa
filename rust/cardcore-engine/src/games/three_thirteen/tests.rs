use super::state::Phase;
use super::*;
use crate::games::State as _;
use crate::rng::CardRng;

fn rules(players: usize, jokers: usize) -> Rules {
    Rules {
        players,
        decks: 2,
        jokers,
        meld: MeldRules::default(),
        first_dealer: None,
        shared_win: false,
        forbid_return: true,
        min_own_turns: 0,
        max_turns: 60,
    }
}

/// Plays a whole game with uniformly random legal actions; checks card conservation and the
/// mask at every step.
fn random_game(r: Rules, seed: u64) -> State {
    let mut st = State::new(r, seed, Vec::new()).unwrap();
    let mut rng = CardRng::new(seed ^ 0x5eed);
    let mut mask = vec![0u8; r.num_actions()];
    while !st.is_over() {
        let legal = st.legal_actions();
        st.write_mask(&mut mask);
        assert_eq!(
            legal,
            (0..mask.len())
                .filter(|&a| mask[a] == 1)
                .collect::<Vec<_>>()
        );
        let mut all: Vec<u8> = st.hands().iter().flatten().copied().collect();
        all.extend(st.stock());
        all.extend(st.pile());
        all.sort_unstable();
        assert_eq!(all, (0..r.total_cards() as u8).collect::<Vec<_>>());
        let a = legal[rng.below(legal.len() as u64) as usize];
        st.apply_action(a as i64).unwrap();
    }
    st
}

#[test]
fn random_games_conserve_cards_and_end_after_eleven_rounds() {
    for players in 2..=6 {
        let st = random_game(rules(players, 2), players as u64);
        assert_eq!(st.round_scores().len(), ROUNDS as usize);
        let sums: Vec<u64> = (0..players)
            .map(|s| st.round_scores().iter().map(|r| r[s]).sum())
            .collect();
        assert_eq!(sums, st.totals());
        assert_eq!(st.current_player(), None);
    }
}

#[test]
fn an_illegal_move_changes_nothing() {
    let mut st = State::new(rules(3, 0), 7, Vec::new()).unwrap();
    let before = format!("{st:?}");
    assert!(st.apply_action(5).is_err());
    assert!(st.apply_action(99).is_err());
    assert!(st.apply_action(-1).is_err());
    assert!(st.apply_code(3).is_err());
    assert_eq!(format!("{st:?}"), before);
    st.apply_action(DRAW_DISCARD as i64).unwrap();
    let taken = st.drawn().unwrap();
    let err = st.apply_code(i64::from(taken)).unwrap_err();
    assert!(err.0.contains("may not be returned"), "{err}");
    assert!(st.apply_action(DRAW_STOCK as i64).is_err());
}

#[test]
fn the_forbid_return_rule_bans_only_a_card_taken_from_the_pile() {
    assert_eq!(banned_after_draw(true, true, 7u8), Some(7));
    assert_eq!(banned_after_draw(true, false, 7u8), None);
    assert_eq!(banned_after_draw(false, true, 7usize), None);
    for forbid in [false, true] {
        for from_pile in [false, true] {
            let mut r = rules(3, 0);
            r.forbid_return = forbid;
            let mut st = State::new(r, 11, Vec::new()).unwrap();
            assert_eq!(st.banned(), None);
            let draw = if from_pile { DRAW_DISCARD } else { DRAW_STOCK };
            st.apply_action(draw as i64).unwrap();
            let drawn = st.drawn().unwrap();
            assert_eq!(st.banned(), (forbid && from_pile).then_some(drawn));
            assert_eq!(st.banned(), banned_after_draw(forbid, from_pile, drawn));
        }
    }
}

fn parts_of(st: &State) -> StateParts {
    StateParts {
        seed: st.seed(),
        rng: st.rng_state(),
        stacked: Vec::new(),
        first_dealer: st.first_dealer(),
        dealer: st.dealer(),
        round: st.round(),
        current: st.current(),
        phase: st.phase(),
        drawn: st.drawn(),
        drawn_from_discard: st.drawn_from_discard(),
        hands: st.hands().to_vec(),
        stock: st.stock().to_vec(),
        pile: st.pile().to_vec(),
        upcard: st.upcard(),
        discards: st.discards().to_vec(),
        taken: st.taken().to_vec(),
        own_turns: st.own_turns().to_vec(),
        turn_in_round: st.turn_in_round(),
        out_seat: st.out_seat(),
        final_left: st.final_left(),
        totals: st.totals().to_vec(),
        round_scores: st.round_scores().to_vec(),
        went_out: st.went_out().to_vec(),
        deck_orders: st.deck_orders().to_vec(),
        move_log: st.move_log().to_vec(),
        rebuilds: st.rebuilds().to_vec(),
    }
}

#[test]
fn a_state_rebuilt_from_its_parts_plays_on_identically() {
    let r = rules(4, 2);
    let mut st = State::new(r, 11, Vec::new()).unwrap();
    for _ in 0..150 {
        let legal = st.legal_actions();
        st.apply_action(legal[legal.len() / 2] as i64).unwrap();
    }
    let parts = parts_of(&st);
    let mut copy = State::from_parts(r, parts.clone()).unwrap();
    while !st.is_over() {
        let legal = st.legal_actions();
        assert_eq!(legal, copy.legal_actions());
        let a = legal[0] as i64;
        st.apply_action(a).unwrap();
        copy.apply_action(a).unwrap();
    }
    assert_eq!(format!("{st:?}"), format!("{copy:?}"));
    let mut dup = parts.clone();
    dup.stock[0] = dup.pile[0];
    assert!(State::from_parts(r, dup).is_err());
    let mut short = parts;
    short.hands[1].pop();
    assert!(State::from_parts(r, short).is_err());
}

#[test]
fn a_redeal_keeps_what_the_seat_saw_and_conserves_cards() {
    let r = rules(3, 0);
    let mut st = State::new(r, 3, Vec::new()).unwrap();
    let mut rng = CardRng::new(1);
    for step in 0..400 {
        if st.is_over() {
            break;
        }
        let seat = step % 3;
        let re = st.resample_hidden(seat, step as u64);
        assert_eq!(re.hands()[seat], st.hands()[seat]);
        assert_eq!(re.pile(), st.pile());
        assert_eq!(re.stock().len(), st.stock().len());
        for s in 0..3 {
            assert_eq!(re.hands()[s].len(), st.hands()[s].len());
            assert!(st.taken()[s].iter().all(|c| re.hands()[s].contains(c)));
        }
        let mut all: Vec<u8> = re.hands().iter().flatten().copied().collect();
        all.extend(re.stock());
        all.extend(re.pile());
        all.sort_unstable();
        assert_eq!(all, (0..r.total_cards() as u8).collect::<Vec<_>>());
        let legal = st.legal_actions();
        st.apply_action(legal[rng.below(legal.len() as u64) as usize] as i64)
            .unwrap();
    }
}

#[test]
fn a_document_whose_history_does_not_replay_is_refused() {
    let r = Rules {
        max_turns: 400,
        ..rules(3, 0)
    };
    let mut st = State::new(r, 21, Vec::new()).unwrap();
    let mut rng = CardRng::new(2);
    // into a round with a rebuild, mid-turn
    while st.round() < 4
        || st.rebuilds()[st.round() as usize - 1].is_empty()
        || st.phase() != Phase::Discard
    {
        let legal = st.legal_actions();
        st.apply_action(legal[rng.below(legal.len() as u64) as usize] as i64)
            .unwrap();
    }
    let good = parts_of(&st);
    State::from_parts(r, good.clone()).unwrap();
    let refused = |change: &dyn Fn(&mut StateParts)| {
        let mut x = good.clone();
        change(&mut x);
        State::from_parts(r, x).unwrap_err()
    };
    let k = good.round as usize - 1;
    let n = good.move_log[k].len();
    // a discard swapped for another card of the same hand: the cards still add up
    refused(&|x| {
        let (seat, code) = x.move_log[k][n - 2];
        let other = x.hands[usize::from(seat)][0];
        x.move_log[k][n - 2] = (
            seat,
            if i16::from(other) == code {
                i16::from(x.hands[usize::from(seat)][1])
            } else {
                i16::from(other)
            },
        );
    });
    refused(&|x| x.move_log[k].swap(0, 1));
    refused(&|x| x.move_log[k].truncate(n - 2));
    refused(&|x| x.rebuilds[k][0].reverse());
    refused(&|x| x.dealer = (x.dealer + 1) % 3);
    refused(&|x| x.totals[0] += 1);
    refused(&|x| x.out_seat = Some(x.current));
    refused(&|x| {
        let c = x.hands[0][0];
        x.taken[0] = vec![c, c];
    });
    refused(&|x| x.own_turns[1] += 1);
    // a re-dealt state has no deck to replay, and still reads back
    let re = st.resample_hidden(1, 5);
    State::from_parts(r, parts_of(&re)).unwrap();
}
