//! The `hard`/`expert` look-ahead pinned by its outputs (issue #33): whole rounds of the
//! look-ahead agents (every decision and the scores), the rollout values of every candidate at
//! positions of those rounds, the raced choice, and the simulator's own transitions
//! (`nerts_rollout::trace`), over 2-4 players and the option sets, digested per case into
//! `tests/data/nerts_fingerprint.txt`. The file was written on the build before the rollout
//! simulator moved onto the rulebook's table, its `flipone3` lines (3-card flips until a
//! `flip_one` remedy) on the build whose rollouts flip a seat's own count after that remedy,
//! its `autocall` lines on the build whose rollouts end when a Nerts pile empties, the round
//! lines of the sets with `stock_passes` (flip1, short, flipone3) on the build whose rollouts
//! know every seat's recycles; a change of any decision or value fails here.
//! `CARDCORE_BLESS=1 cargo test --test nerts_fingerprint` rewrites it (only for a change of
//! behaviour that is meant, in a commit of its own).

use cardcore_engine::card::{deck_of, natural_face};
use cardcore_engine::games::RealtimeState;
use cardcore_engine::games::nerts::{
    K_CALL, NONE, Rules as RoundOptions, StalemateRule, State, Table, UNDO, kind,
};
use cardcore_engine::nerts_rollout::{
    FullSeat, PublicSeat, Racing, Request, choose, evaluate, knowledge, trace,
};
use cardcore_engine::nerts_round::{Agent, SeatAgent, rules_of, timing_of};
use cardcore_engine::rng::CardRng;
use std::fmt::Write as _;

const DATA: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/nerts_fingerprint.txt"
);

/// FNV-1a, 64 bits: a digest that does not depend on the build.
fn digest(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// The option sets: (name, options).
fn option_sets() -> Vec<(&'static str, RoundOptions)> {
    let base = RoundOptions {
        num_work: 4,
        flip_count: 3,
        stock_passes: None,
        partial: false,
        fill_any: false,
        auto_call: false,
        foundation_points: 1,
        nerts_penalty: 2,
        nerts_bonus: 0,
        stalemate_rule: StalemateRule::RotateOne,
        max_stalemates: 3,
        undo_depth: 0,
        medians: [1300, 1600, 2000, 850, 800],
        sigma: 0.3,
        miss: 0.08,
        min_ms: 350,
        max_ms: 5000,
        retry_ms: 650,
        nerts_pile: 13,
    };
    vec![
        ("classic", base),
        (
            "loose5",
            RoundOptions {
                num_work: 5,
                partial: true,
                fill_any: true,
                nerts_bonus: 10,
                ..base
            },
        ),
        (
            "flip1",
            RoundOptions {
                flip_count: 1,
                stock_passes: Some(2),
                stalemate_rule: StalemateRule::FlipOne,
                undo_depth: 2,
                ..base
            },
        ),
        (
            "short",
            RoundOptions {
                nerts_pile: 7,
                partial: true,
                stock_passes: Some(3),
                stalemate_rule: StalemateRule::EndRound,
                medians: [900, 1100, 1400, 600, 500],
                sigma: 0.5,
                miss: 0.2,
                retry_ms: 450,
                ..base
            },
        ),
        // added after the fix of the rollouts' flip count (a seat flips one card after a
        // flip_one remedy, three before): written on that build
        (
            "flipone3",
            RoundOptions {
                stock_passes: Some(3),
                stalemate_rule: StalemateRule::FlipOne,
                ..base
            },
        ),
        // added after the rollouts followed auto_call_nerts (a simulated round ends the moment
        // a Nerts pile empties, as the table's): written on that build
        (
            "autocall",
            RoundOptions {
                auto_call: true,
                nerts_bonus: 10,
                partial: true,
                ..base
            },
        ),
    ]
}

fn look_ahead(samples: u32, horizon_ms: u32, margin: f64, racing: (u32, u32, f64, f64)) -> Agent {
    Agent::Hard {
        samples,
        horizon_ms,
        margin,
        racing: Racing {
            first: racing.0,
            step: racing.1,
            z: racing.2,
            max_loss: racing.3,
        },
    }
}

fn seat(agent: Agent) -> Option<SeatAgent> {
    Some(SeatAgent {
        agent,
        memory: None,
        last_ms: None,
        searches: 0,
    })
}

/// The seats of one case: look-ahead agents (`hard` and `expert`, at their own budgets when
/// `full`, else small ones) and a built-in opponent.
fn agents(players: usize, which: u64, full: bool) -> Vec<Option<SeatAgent>> {
    let (hard, expert) = if full {
        let expert = if players == 2 {
            look_ahead(64, 20_000, 0.25, (8, 8, 2.5, 0.005))
        } else {
            look_ahead(256, 16_000, 0.5, (8, 8, 2.5, 0.005))
        };
        (look_ahead(64, 20_000, 0.5, (8, 8, 2.5, 0.0)), expert)
    } else {
        (
            look_ahead(6, 6000, 0.5, (2, 2, 2.5, 0.0)),
            look_ahead(12, 5000, 0.25, (4, 4, 2.5, 0.005)),
        )
    };
    let other = if which % 2 == 0 {
        Agent::Greedy
    } else {
        Agent::RuleOfThumb
    };
    (0..players)
        .map(|s| seat([hard, expert, other, hard][s]))
        .collect()
}

/// What every seat shows the table.
fn public(t: &Table) -> Vec<PublicSeat> {
    t.seats
        .iter()
        .map(|p| PublicSeat {
            nerts_count: p.nerts.len() as u8,
            nerts_top: p.nerts.last().copied(),
            work: p.work.iter().map(|w| w.to_vec()).collect(),
            waste_count: p.cycle.waste_len() as u8,
            stock_count: p.cycle.stock_len() as u8,
            waste_top: p.waste().last().copied(),
            flip_count: p.flip_count,
            recycles: p.recycles,
        })
        .collect()
}

/// Rollout values and the raced choice for every seat of a position (the own stock and waste
/// remembered in part, as a look-ahead agent's memory would be).
fn values_at(st: &State, o: &RoundOptions, seed: u64, out: &mut String) {
    let t = &st.round.table;
    let players = public(t);
    for me in 0..t.seats.len() {
        let p = &t.seats[me];
        let cycle: Vec<Option<u8>> = p
            .cycle
            .cards()
            .iter()
            .enumerate()
            .map(|(i, &c)| (i % 3 != 1 || i + 1 == p.cycle.waste_len()).then_some(c))
            .collect();
        let (seats, need) =
            knowledge(&players, &t.foundations, me, &cycle, p.recycles).expect("knowledge");
        let candidates: Vec<u32> = t
            .legal_codes(me)
            .into_iter()
            .filter(|&m| m != UNDO && kind(m) != K_CALL)
            .collect();
        if candidates.is_empty() {
            continue;
        }
        let req = Request {
            seats: &seats,
            need,
            root: me,
            horizon_ms: 8000,
            samples: 5,
            seed: seed ^ me as u64,
            timing: timing_of(o),
            rules: rules_of(o),
        };
        let values = evaluate(&req, &candidates).expect("evaluate");
        let bonus: Vec<f64> = (0..candidates.len())
            .map(|i| if i == 0 { 0.5 } else { 0.0 })
            .collect();
        let racing = Racing {
            first: 2,
            step: 1,
            z: 1.5,
            max_loss: 0.01,
        };
        let best = choose(&req, &candidates, &bonus, &racing).expect("choose");
        writeln!(out, "{me} {candidates:?} {values:?} {best}").unwrap();
    }
}

/// A round of look-ahead agents: every log row, the scores, and the rollout values at three
/// points of it.
fn round_case(o: &RoundOptions, players: usize, seed: u64, full: bool) -> String {
    let mut out = String::new();
    let mut st = State::new(*o, seed, agents(players, seed, full));
    for (i, t) in [4_000i64, 15_000, 40_000].into_iter().enumerate() {
        st.advance_to(t);
        if st.is_over() {
            break;
        }
        values_at(&st, o, seed * 31 + i as u64, &mut out);
    }
    st.run();
    for row in &st.round.log {
        writeln!(out, "{} {} {} {}", row.t, row.seat, row.text, row.ok).unwrap();
    }
    writeln!(out, "end {:?} {:?}", st.round.end, st.round.scores()).unwrap();
    for a in st.agents.0.iter().flatten() {
        writeln!(out, "searches {}", a.searches).unwrap();
    }
    out
}

/// The simulator's transitions from a position of a round: random codes (legal or not).
fn trace_case(o: &RoundOptions, players: usize, seed: u64) -> String {
    let mut st = State::new(
        *o,
        seed,
        (0..players).map(|_| seat(Agent::Greedy)).collect(),
    );
    st.advance_to(12_000);
    let t = &st.round.table;
    let face = |c: &u8| natural_face(*c);
    let seats: Vec<FullSeat> = t
        .seats
        .iter()
        .enumerate()
        .map(|(s, p)| FullSeat {
            nerts: p.nerts.iter().map(face).collect(),
            work: p
                .work
                .iter()
                .map(|w| w.iter().map(face).collect())
                .collect(),
            cycle: p.cycle.cards().iter().map(face).collect(),
            waste: p.cycle.waste_len() as u8,
            recycles: p.recycles,
            found: t
                .foundations
                .iter()
                .flatten()
                .filter(|&&c| usize::from(deck_of(c)) == s)
                .count() as u8,
            flip_count: p.flip_count,
        })
        .collect();
    let mut rng = CardRng::new(seed);
    let nw = u64::from(o.num_work);
    let moves: Vec<(usize, u32)> = (0..300)
        .map(|_| {
            let s = rng.below(players as u64) as usize;
            let k = rng.below(5) as u32;
            let src = match rng.below(3) {
                0 => u32::from(NONE),
                1 => 6,
                _ => rng.below(nw) as u32,
            };
            let depth = 1 + rng.below(3) as u32;
            let dst = if k == 1 {
                rng.below(nw) as u32
            } else {
                u32::from(NONE)
            };
            (s, k | src << 8 | depth << 16 | dst << 24)
        })
        .collect();
    let steps = trace(&seats, &t.foundations, &rules_of(o), &moves).expect("trace");
    without_flip_counts(&format!("{steps:?}"))
}

/// The trace's text as it was written before a seat's layout had a flip count (the digests
/// predate it; every seat here flips the table's count, which `rules_of` carries).
fn without_flip_counts(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(", flip_count: ") {
        out.push_str(&rest[..at]);
        let tail = &rest[at + ", flip_count: ".len()..];
        rest = tail.trim_start_matches(|c: char| c.is_ascii_digit());
    }
    out.push_str(rest);
    out
}

#[test]
fn look_ahead_decisions_values_and_traces_are_unchanged() {
    let mut lines = Vec::new();
    for (name, o) in option_sets() {
        for players in 2..=4usize {
            for seed in 1..=4u64 {
                let full = seed == 4;
                let case = round_case(&o, players, seed * 1000 + players as u64, full);
                let budget = if full { "full" } else { "small" };
                lines.push(format!(
                    "round {name} {players}p seed{seed} {budget} {}",
                    digest(&case)
                ));
            }
            let tr = trace_case(&o, players, 77 + players as u64);
            lines.push(format!("trace {name} {players}p {}", digest(&tr)));
        }
    }
    let got = lines.join("\n") + "\n";
    if std::env::var_os("CARDCORE_BLESS").is_some() {
        std::fs::write(DATA, &got).expect("write the fingerprint");
        return;
    }
    let want = std::fs::read_to_string(DATA).expect("the fingerprint file");
    let diff: Vec<String> = want
        .lines()
        .zip(got.lines())
        .filter(|(a, b)| a != b)
        .map(|(a, b)| format!("want {a}\n got {b}"))
        .collect();
    assert!(
        diff.is_empty() && want.lines().count() == got.lines().count(),
        "{}",
        diff.join("\n")
    );
}
