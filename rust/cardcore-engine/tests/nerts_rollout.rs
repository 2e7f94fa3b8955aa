//! Nerts look-ahead simulator: input checks, determinism, candidates scored independently of
//! each other, and positions whose best move is known.

use cardcore_engine::card::{face, natural_face};
use cardcore_engine::games::nerts::moves::{
    K_FLIP, K_FOUNDATION, K_RECYCLE, K_WORK, NONE, SRC_NERTS, pack,
};
use cardcore_engine::games::nerts::{Rules as TableRules, StalemateRule, Table, deal_deck};
use cardcore_engine::nerts_rollout::{
    FullSeat, PublicSeat, Racing, Request, Rules, SeatKnowledge, Timing, choose, knowledge,
    rule_options, trace,
};

/// Per-candidate sums over the samples.
fn evaluate(req: &Request<'_>, candidates: &[u32]) -> Result<Vec<f64>, String> {
    let values = cardcore_engine::nerts_rollout::evaluate(req, candidates).map_err(|e| e.0)?;
    assert_eq!(values.len(), req.samples as usize * candidates.len());
    let mut sums = vec![0.0; candidates.len()];
    for row in values.chunks_exact(candidates.len()) {
        for (s, v) in sums.iter_mut().zip(row) {
            *s += f64::from(*v);
        }
    }
    Ok(sums)
}

const C: u8 = 0;
const D: u8 = 1;
const H: u8 = 2;
const S: u8 = 3;

fn rules(bonus: i32) -> Rules {
    Rules {
        num_work: 4,
        flip_count: 3,
        partial: true,
        fill_any: true,
        max_recycles: u32::MAX,
        auto_call: false,
        foundation_points: 1,
        nerts_penalty: 2,
        nerts_bonus: bonus,
    }
}

/// Fixed delays (sigma 0, no misses): 1000 ms for everything but the call (500 ms).
fn fixed() -> Timing {
    Timing {
        m_play: 1000.0,
        m_build: 1000.0,
        m_seq: 1000.0,
        m_flip: 1000.0,
        m_call: 500.0,
        sigma: 0.0,
        miss: 0.0,
        min_ms: 1,
        max_ms: 10_000,
        retry_ms: 500,
    }
}

fn classic() -> Timing {
    Timing {
        m_play: 1300.0,
        m_build: 1600.0,
        m_seq: 2000.0,
        m_flip: 850.0,
        m_call: 800.0,
        sigma: 0.3,
        miss: 0.08,
        min_ms: 350,
        max_ms: 5000,
        retry_ms: 650,
    }
}

/// Every card of the seat not listed in `used` goes to the pool, the stock holds `stock` unknown
/// cards and the hidden Nerts cards take the rest.
fn seat(
    nerts_top: u8,
    nerts_count: u8,
    work: &[&[u8]],
    stock: usize,
    used: &[u8],
) -> SeatKnowledge {
    let mut seen: Vec<u8> = work.iter().flat_map(|p| p.iter().copied()).collect();
    seen.extend_from_slice(used);
    if nerts_top != NONE {
        seen.push(nerts_top);
    }
    let free: Vec<u8> = (0..52).filter(|c| !seen.contains(c)).collect();
    let hidden = usize::from(nerts_count.saturating_sub(1));
    SeatKnowledge {
        nerts_count,
        nerts_top,
        work: work.iter().map(|p| p.to_vec()).collect(),
        cycle: vec![NONE; stock],
        waste: 0,
        pool: free[..hidden + stock].to_vec(),
        recycles: 0,
        found: 0,
        flip_count: 0,
    }
}

/// An opponent that can do nothing: three kings and a two out, a king on its Nerts pile, no
/// stock.
fn stuck() -> SeatKnowledge {
    let kings: [&[u8]; 4] = [
        &[face(13, C)],
        &[face(13, D)],
        &[face(13, H)],
        &[face(2, S)],
    ];
    seat(face(13, S), 13, &kings, 0, &[])
}

fn request<'a>(
    seats: &'a [SeatKnowledge],
    timing: Timing,
    bonus: i32,
    samples: u32,
) -> Request<'a> {
    Request {
        seats,
        need: [[0; 16]; 4],
        root: 0,
        horizon_ms: 2_000,
        samples,
        seed: 7,
        timing,
        rules: rules(bonus),
    }
}

#[test]
fn the_move_that_lets_the_seat_call_in_time_scores_the_bonus() {
    // The 7h (last Nerts card) fits the 8s: built at 1000 ms, called at 1500 ms. Flipping first
    // delays the call past the 2000 ms horizon.
    let eight: [&[u8]; 4] = [
        &[face(8, S)],
        &[face(13, D)],
        &[face(13, H)],
        &[face(13, C)],
    ];
    let seats = [seat(face(7, H), 1, &eight, 6, &[]), stuck()];
    let build = pack(K_WORK, SRC_NERTS, 1, 0);
    let flip = pack(K_FLIP, 0, 0, 0);
    let v = evaluate(&request(&seats, fixed(), 10, 4), &[build, flip]).unwrap();
    // root 0 (+10 when it called) against the stuck seat's 13 Nerts cards (-26); after the
    // flip an ace from the stock may still go up (+1)
    assert_eq!(v[0], 4.0 * 36.0);
    assert!((4.0 * 26.0..=4.0 * 27.0).contains(&v[1]), "{v:?}");
}

#[test]
fn with_auto_call_the_rollout_ends_when_the_nerts_pile_empties() {
    // The 7h (last Nerts card) onto the 8s at 1000 ms. The call follows 500 ms later, past a
    // 1200 ms horizon: no bonus; with auto_call_nerts the round ends at 1000 ms, the bonus
    // scored (the rulebook's round: Table::auto_calls).
    let eight: [&[u8]; 4] = [
        &[face(8, S)],
        &[face(13, D)],
        &[face(13, H)],
        &[face(13, C)],
    ];
    let seats = [seat(face(7, H), 1, &eight, 6, &[]), stuck()];
    let build = pack(K_WORK, SRC_NERTS, 1, 0);
    let value = |auto_call: bool, horizon_ms: u32| {
        let mut req = request(&seats, fixed(), 10, 4);
        req.rules.auto_call = auto_call;
        req.horizon_ms = horizon_ms;
        evaluate(&req, &[build]).unwrap()[0]
    };
    // root 0 (+10 when it called) against the stuck seat's 13 Nerts cards (-26)
    assert_eq!(value(false, 1_200), 4.0 * 26.0);
    assert_eq!(value(true, 1_200), 4.0 * 36.0);
    assert_eq!(value(false, 2_000), 4.0 * 36.0);
    assert_eq!(value(true, 2_000), 4.0 * 36.0);
}

#[test]
fn foundation_plays_count_for_their_owner() {
    let tops: [&[u8]; 4] = [
        &[face(1, H)],
        &[face(13, D)],
        &[face(13, H)],
        &[face(13, C)],
    ];
    let seats = [seat(face(9, S), 5, &tops, 6, &[]), stuck()];
    let play = pack(K_FOUNDATION, 0, 1, NONE);
    let v = evaluate(&request(&seats, fixed(), 0, 1), &[play]).unwrap();
    // the ace goes up at 1000 ms (+1), the 9s fills the emptied pile at 2000 ms: 4 Nerts
    // cards left (-8) against the stuck seat's -26
    assert_eq!(v, vec![1.0 - 8.0 + 26.0]);
}

#[test]
fn same_seed_same_values_and_candidates_do_not_interact() {
    let mine: [&[u8]; 4] = [&[face(9, S)], &[face(6, D)], &[face(12, H)], &[face(3, C)]];
    let theirs: [&[u8]; 4] = [&[face(10, S)], &[face(2, D)], &[face(5, H)], &[face(11, C)]];
    let seats = [
        seat(face(5, C), 13, &mine, 35, &[]),
        seat(face(8, D), 13, &theirs, 35, &[]),
    ];
    let mut req = request(&seats, classic(), 0, 16);
    req.horizon_ms = 20_000;
    let a = pack(K_FLIP, 0, 0, 0);
    let b = pack(K_WORK, SRC_NERTS, 1, 1); // the 5c onto the 6d
    let ab = evaluate(&req, &[a, b]).unwrap();
    let ba = evaluate(&req, &[b, a]).unwrap();
    assert_eq!(ab, vec![ba[1], ba[0]]);
    assert_eq!(ab, evaluate(&req, &[a, b]).unwrap());
    req.seed = 8;
    assert_ne!(ab, evaluate(&req, &[a, b]).unwrap());
}

#[test]
fn inconsistent_knowledge_and_illegal_candidates_are_errors() {
    let mine: [&[u8]; 4] = [&[face(9, S)], &[face(6, D)], &[face(12, H)], &[face(3, C)]];
    let good = [seat(face(5, C), 13, &mine, 35, &[]), stuck()];
    let flip = pack(K_FLIP, 0, 0, 0);
    assert!(evaluate(&request(&good, fixed(), 0, 1), &[flip]).is_ok());
    // the 5c onto the 9s: not legal
    let bad_move = pack(K_WORK, SRC_NERTS, 1, 0);
    assert!(evaluate(&request(&good, fixed(), 0, 1), &[bad_move]).is_err());
    let mut short = good.clone();
    short[0].pool.pop();
    assert!(evaluate(&request(&short, fixed(), 0, 1), &[flip]).is_err());
    let mut twice = good.clone();
    twice[0].pool[0] = face(9, S);
    assert!(evaluate(&request(&twice, fixed(), 0, 1), &[flip]).is_err());
    let mut not_a_run = good.clone();
    not_a_run[0].work[0] = vec![face(9, S), face(8, C)];
    assert!(evaluate(&request(&not_a_run, fixed(), 0, 1), &[flip]).is_err());
    let alone = [good[0].clone()];
    assert!(evaluate(&request(&alone, fixed(), 0, 1), &[flip]).is_err());
    let mut upside_down = fixed();
    upside_down.min_ms = 20_000;
    assert!(evaluate(&request(&good, upside_down, 0, 1), &[flip]).is_err());
    let mut nan = fixed();
    nan.sigma = f64::NAN;
    assert!(evaluate(&request(&good, nan, 0, 1), &[flip]).is_err());
    let mut too_many = good.clone();
    too_many[1].found = 200;
    assert!(evaluate(&request(&too_many, fixed(), 0, 1), &[flip]).is_err());
}

#[test]
fn long_four_seat_rollouts_run_clean() {
    // Two minutes of 4-seat play per rollout: no panic, no overflow (debug build).
    let a: [&[u8]; 4] = [&[face(9, S)], &[face(6, D)], &[face(12, H)], &[face(3, C)]];
    let b: [&[u8]; 4] = [&[face(10, S)], &[face(2, D)], &[face(5, H)], &[face(11, C)]];
    let c: [&[u8]; 4] = [&[face(1, S)], &[face(7, D)], &[face(8, H)], &[face(4, C)]];
    let d: [&[u8]; 4] = [&[face(13, S)], &[face(9, D)], &[face(2, H)], &[face(6, C)]];
    let seats = [
        seat(face(5, C), 13, &a, 35, &[]),
        seat(face(8, D), 13, &b, 35, &[]),
        seat(face(3, H), 13, &c, 35, &[]),
        seat(face(12, S), 13, &d, 35, &[]),
    ];
    let mut req = request(&seats, classic(), 0, 8);
    req.horizon_ms = 120_000;
    let v = evaluate(
        &req,
        &[pack(K_FLIP, 0, 0, 0), pack(K_WORK, SRC_NERTS, 1, 1)],
    )
    .unwrap();
    assert!(v.iter().all(|x| x.is_finite()));
}

/// Two seats mid-round, with many legal moves for the root (classic speed, 20 s look-ahead).
fn busy_table() -> [SeatKnowledge; 2] {
    let mine: [&[u8]; 4] = [&[face(9, S)], &[face(6, D)], &[], &[face(3, C)]];
    let theirs: [&[u8]; 4] = [&[face(10, S)], &[face(2, D)], &[face(5, H)], &[face(11, C)]];
    [
        seat(face(5, C), 13, &mine, 36, &[]),
        seat(face(8, D), 13, &theirs, 35, &[]),
    ]
}

#[test]
fn choose_without_racing_is_the_best_mean_of_evaluate() {
    let seats = busy_table();
    let mut req = request(&seats, classic(), 0, 24);
    req.horizon_ms = 20_000;
    let cands = [
        pack(K_FLIP, 0, 0, 0),
        pack(K_WORK, SRC_NERTS, 1, 1), // the 5c onto the 6d
        pack(K_WORK, SRC_NERTS, 1, 2), // the 5c into the empty pile
        pack(K_WORK, 0, 1, 2),         // the 9s into the empty pile
    ];
    let sums = evaluate(&req, &cands).unwrap();
    let all = Racing {
        first: 24,
        step: 1,
        z: 0.0,
        max_loss: 0.0,
    };
    for bonus in [[0.0; 4], [0.0, 0.0, 0.0, 5.0], [2.0, 0.0, 0.0, 0.0]] {
        let want = (0..4)
            .map(|i| sums[i] / 24.0 + bonus[i])
            .enumerate()
            .fold((0, f64::MIN), |b, (i, v)| if v > b.1 { (i, v) } else { b })
            .0;
        assert_eq!(
            choose(&req, &cands, &bonus, &all).unwrap(),
            want,
            "{bonus:?}"
        );
    }
}

#[test]
fn racing_drops_a_clearly_worse_move_and_keeps_the_best() {
    // Building the last Nerts card lets the seat call in time; flipping does not (see
    // the_move_that_lets_the_seat_call_in_time_scores_the_bonus): racing still picks the build,
    // from the first deals on, wherever it stands in the list.
    let eight: [&[u8]; 4] = [
        &[face(8, S)],
        &[face(13, D)],
        &[face(13, H)],
        &[face(13, C)],
    ];
    let seats = [seat(face(7, H), 1, &eight, 6, &[]), stuck()];
    let req = request(&seats, fixed(), 10, 64);
    let build = pack(K_WORK, SRC_NERTS, 1, 0);
    let flip = pack(K_FLIP, 0, 0, 0);
    let racing = Racing {
        first: 4,
        step: 4,
        z: 2.5,
        max_loss: 0.0,
    };
    assert_eq!(choose(&req, &[build, flip], &[0.0; 2], &racing).unwrap(), 0);
    assert_eq!(choose(&req, &[flip, build], &[0.0; 2], &racing).unwrap(), 1);
    // a large enough head start outweighs the bonus of the call
    assert_eq!(
        choose(&req, &[flip, build], &[20.0, 0.0], &racing).unwrap(),
        0
    );
    // errors: one bonus per candidate, legal candidates only
    assert!(choose(&req, &[flip, build], &[0.0], &racing).is_err());
    assert!(choose(&req, &[], &[], &racing).is_err());
    let illegal = pack(K_WORK, SRC_NERTS, 1, 1);
    assert!(choose(&req, &[flip, illegal], &[0.0; 2], &racing).is_err());
}

#[test]
fn knowledge_pools_what_a_seat_cannot_see() {
    // Seat 0 sees its own cards; seat 1 (ids 52..104) shows a Nerts top, a work pile and a
    // waste top. The 7h of seat 1 and the ace of clubs of seat 0 are on foundations.
    let me = PublicSeat {
        nerts_count: 10,
        nerts_top: Some(face(9, S)),
        work: vec![
            vec![face(13, D), face(12, C)],
            vec![],
            vec![face(4, H)],
            vec![],
        ],
        waste_count: 2,
        stock_count: 3,
        waste_top: Some(face(5, D)),
        flip_count: 0,
        recycles: 0,
    };
    let them = PublicSeat {
        nerts_count: 13,
        nerts_top: Some(52 + face(2, S)),
        work: vec![vec![52 + face(10, H)], vec![], vec![], vec![]],
        waste_count: 1,
        stock_count: 30,
        waste_top: Some(52 + face(11, C)),
        flip_count: 0,
        recycles: 0,
    };
    let piles = vec![
        vec![face(1, C)],
        vec![52 + face(1, H), 52 + face(2, H), 52 + face(3, H)],
    ];
    let cycle = [
        Some(face(6, C)),
        Some(face(5, D)),
        None,
        Some(face(8, H)),
        None,
    ];
    let (seats, need) = knowledge(&[me, them.clone()], &piles, 0, &cycle, 2).unwrap();
    let own = &seats[0];
    assert_eq!(
        (own.nerts_top, own.cycle.len(), own.waste, own.recycles),
        (face(9, S), 5, 2, 2)
    );
    assert_eq!(
        own.cycle,
        vec![face(6, C), face(5, D), NONE, face(8, H), NONE]
    );
    assert_eq!(own.found, 1);
    // 52 - 3 work cards - Nerts top - 3 remembered - 1 on a foundation
    assert_eq!(own.pool.len(), 52 - 8);
    assert!(!own.pool.contains(&face(1, C)) && !own.pool.contains(&face(8, H)));
    let other = &seats[1];
    assert_eq!(other.cycle.len(), 31);
    assert_eq!(other.cycle[0], face(11, C));
    assert_eq!(
        (other.found, other.recycles, other.pool.len()),
        (3, 0, 52 - 3 - 3)
    );
    // the clubs foundation takes a 2 next, the hearts one a 4
    assert_eq!((need[0][2], need[2][4], need[1][2]), (1, 1, 0));
    // a card of another seat in a seat's piles is an error, not a panic
    let mut wrong = them;
    wrong.work[1] = vec![face(3, S)];
    let empty = PublicSeat {
        work: vec![vec![]; 4],
        ..PublicSeat::default()
    };
    assert!(knowledge(&[empty, wrong], &piles, 0, &[], 0).is_err());
    assert!(knowledge(&[PublicSeat::default()], &[], 0, &[Some(200)], 0).is_err());
}

/// The rulebook's options of a look-ahead's `rules` ([`rule_options`]) at a real table: this
/// stalemate rule, 13-card Nerts piles to deal.
fn table_rules(r: &Rules, rule: StalemateRule) -> TableRules {
    TableRules {
        stalemate_rule: rule,
        max_stalemates: 3,
        nerts_pile: 13,
        ..rule_options(r)
    }
}

#[test]
fn a_seat_flips_its_own_count_after_a_flip_one_remedy() {
    // a seat that can do nothing but turn its stock, whose stock comes off Ac 5d 9h: turning
    // one card at a time (after a flip_one remedy) it plays the ace, three at a time it never
    // sees it on top of its waste
    let kings: [&[u8]; 4] = [
        &[face(13, C)],
        &[face(13, D)],
        &[face(13, H)],
        &[face(2, S)],
    ];
    let stock = [face(1, C), face(5, D), face(9, H)];
    let mut me = seat(face(13, S), 13, &kings, 0, &stock);
    me.cycle = stock.to_vec();
    let flip = pack(K_FLIP, 0, 0, 0);
    let value = |flip_count: u8| {
        let seats = [
            SeatKnowledge {
                flip_count,
                ..me.clone()
            },
            stuck(),
        ];
        let mut req = request(&seats, fixed(), 0, 4);
        req.horizon_ms = 5_000;
        evaluate(&req, &[flip]).unwrap()[0]
    };
    // the table's 3, said or left to the table: never the ace; 1: the ace on every deal
    assert_eq!(value(0), value(3));
    assert_eq!(value(1), value(3) + 4.0);
    // a seat cannot flip more than the table's count
    let seats = [
        SeatKnowledge {
            flip_count: 4,
            ..me.clone()
        },
        stuck(),
    ];
    let err = evaluate(&request(&seats, fixed(), 0, 1), &[flip]).unwrap_err();
    assert!(err.contains("flip_count"), "{err}");
}

#[test]
fn knowledge_and_trace_follow_the_table_after_a_flip_one_remedy() {
    let r = rules(0);
    let decks: Vec<Vec<u8>> = (0..3).map(|s| deal_deck(5, s)).collect();
    let mut table = Table::deal(table_rules(&r, StalemateRule::FlipOne), &decks);
    let flip = pack(K_FLIP, 0, 0, 0);
    for s in 0..3 {
        table.apply(s, flip);
        table.rotate_stalemate(s);
    }
    let public: Vec<PublicSeat> = table.seats.iter().map(PublicSeat::of).collect();
    let (known, _) = knowledge(&public, &[], 1, &[], 0).unwrap();
    assert_eq!(
        known.iter().map(|k| k.flip_count).collect::<Vec<_>>(),
        [1, 1, 1]
    );
    // the simulator's flips from that table are the rulebook's: one card each
    let full: Vec<FullSeat> = table
        .seats
        .iter()
        .map(|p| FullSeat {
            nerts: p.nerts.iter().map(|&c| natural_face(c)).collect(),
            work: p
                .work
                .iter()
                .map(|w| w.iter().map(|&c| natural_face(c)).collect())
                .collect(),
            cycle: p.cycle.cards().iter().map(|&c| natural_face(c)).collect(),
            waste: p.cycle.waste_len() as u8,
            recycles: p.recycles,
            found: p.found,
            flip_count: p.flip_count,
        })
        .collect();
    let moves: Vec<(usize, u32)> = (0..6).map(|i| (i % 3, flip)).collect();
    let steps = trace(&full, &[], &r, &moves).unwrap();
    for (&(s, mv), step) in moves.iter().zip(&steps) {
        table.apply(s, mv);
        let waste: Vec<usize> = table.seats.iter().map(|p| p.cycle.waste_len()).collect();
        let simulated: Vec<usize> = step.seats.iter().map(|p| usize::from(p.waste)).collect();
        assert_eq!(simulated, waste);
        assert!(step.seats.iter().all(|p| p.flip_count == 1));
    }
    assert_eq!(steps[5].seats[0].waste, 2);
}

#[test]
fn an_opponent_that_has_used_its_stock_passes_does_not_recycle_in_the_rollouts() {
    // stock_passes=2: one recycle a seat. Seat 1 has turned its whole stock over once and
    // through again; everyone saw it recycle, so the look-ahead of seat 0 knows it
    let mut r = rules(0);
    r.max_recycles = 1;
    let decks: Vec<Vec<u8>> = (0..2).map(|s| deal_deck(9, s)).collect();
    let mut tr = table_rules(&r, StalemateRule::RotateOne);
    tr.stock_passes = Some(2);
    let mut table = Table::deal(tr, &decks);
    let (flip, recycle) = (pack(K_FLIP, 0, 0, 0), pack(K_RECYCLE, 0, 0, 0));
    for _ in 0..2 {
        while table.seats[1].cycle.stock_len() > 0 {
            table.apply(1, flip);
        }
        if table.may_recycle(1) {
            table.apply(1, recycle);
        }
    }
    assert_eq!(table.seats[1].recycles, 1);
    assert!(!table.may_recycle(1));
    let public: Vec<PublicSeat> = table.seats.iter().map(PublicSeat::of).collect();
    let own = vec![None; table.seats[0].cycle.cards().len()];
    let (known, _) = knowledge(&public, &[], 0, &own, 0).unwrap();
    assert_eq!(known.iter().map(|k| k.recycles).collect::<Vec<_>>(), [0, 1]);

    // and the rollouts hold it to that: an opponent with an empty stock and Ac Jd Jh in its
    // waste (turning one card at a time) plays the ace after a recycle, and cannot with its
    // pass used up. Both seats show Ks on their Nerts piles and Kc Kd Kh 2s on their work
    // piles; seat 0 turns its Jc Jd Jh.
    let kings: [&[u8]; 4] = [
        &[face(13, C)],
        &[face(13, D)],
        &[face(13, H)],
        &[face(2, S)],
    ];
    let laid = |cycle: [u8; 3], waste: u8, flip_count: u8| SeatKnowledge {
        cycle: cycle.to_vec(),
        waste,
        flip_count,
        ..seat(face(13, S), 13, &kings, 0, &cycle)
    };
    let me = laid([face(11, C), face(11, D), face(11, H)], 0, 0);
    let them = laid([face(1, C), face(11, D), face(11, H)], 3, 1);
    let value = |recycles: u32| {
        let seats = [
            me.clone(),
            SeatKnowledge {
                recycles,
                ..them.clone()
            },
        ];
        let mut req = request(&seats, fixed(), 0, 4);
        req.rules = r;
        req.horizon_ms = 5_000;
        evaluate(&req, &[flip]).unwrap()[0]
    };
    assert_eq!(value(0), value(known[1].recycles) - 4.0);
}
