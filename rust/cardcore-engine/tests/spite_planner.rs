//! Turn planner: chains to the pay-off card, wild cards, discard rules, validation, budget.

use cardcore_engine::spite::{
    NO_CARD, NUM_FEATURES, PlanError, PlanInput, PlanRules, SideRule, Step, WILD, feat, plan,
    preset,
};

const RULES: PlanRules = PlanRules {
    top: 12,
    wild_start: true,
    refill_empty_hand: true,
    side_rule: SideRule::Any,
    must_play_aces: false,
};

fn input(hand: &[u8], sides: &[&[u8]], payoff: u8, center: &[u8], rules: PlanRules) -> PlanInput {
    let lens: Vec<usize> = sides.iter().map(|s| s.len()).collect();
    PlanInput::new(
        hand,
        sides,
        &lens,
        payoff,
        5,
        center,
        &[NO_CARD],
        &[],
        rules,
    )
    .unwrap()
}

/// Replays `steps` on a tiny model and returns the final centre and whether the pay-off was
/// played; panics on an illegal step.
fn replay(
    hand: &[u8],
    sides: &[&[u8]],
    payoff: u8,
    center: &[u8],
    steps: &[Step],
) -> (Vec<u8>, bool) {
    let mut c = center.to_vec();
    let mut used = vec![false; hand.len()];
    let mut depth = vec![0usize; sides.len()];
    let mut paid = false;
    let fits = |v: u8, e: u8| if v == WILD { e < 12 } else { v == e + 1 };
    for s in steps {
        let (v, dst) = match *s {
            Step::PayOff(d) => {
                assert!(!paid);
                paid = true;
                (payoff, d)
            }
            Step::Side(i, d) => {
                let i = usize::from(i);
                let v = sides[i][depth[i]];
                depth[i] += 1;
                (v, d)
            }
            Step::Hand(i, d) => {
                let i = usize::from(i);
                assert!(!used[i]);
                used[i] = true;
                (hand[i], d)
            }
            Step::Discard(i, _) => {
                assert!(!used[usize::from(i)]);
                continue;
            }
            Step::None => panic!("placeholder step"),
        };
        let d = usize::from(dst);
        assert!(fits(v, c[d]), "step {s:?} does not fit on {}", c[d]);
        c[d] = if c[d] + 1 >= 12 { 0 } else { c[d] + 1 };
    }
    (c, paid)
}

#[test]
fn finds_the_chain_to_the_payoff_card() {
    // centre 3, pay-off 7: hand 4 and 6, side top 5 -> 4, 5, 6, then the pay-off.
    let hand = [4, 9, 6, 9, 10];
    let sides: [&[u8]; 4] = [&[5], &[], &[], &[]];
    let w = preset("hard").unwrap();
    let p = plan(&input(&hand, &sides, 7, &[3, 0, 0], RULES), &w, 1_000_000);
    assert!(p.complete);
    assert!(matches!(p.steps.last(), Some(Step::PayOff(_))));
    let (_, paid) = replay(&hand, &sides, 7, &[3, 0, 0], &p.steps);
    assert!(paid);
}

#[test]
fn uses_a_wild_only_when_it_reaches_the_payoff() {
    let w = preset("hard").unwrap();
    // K fills the missing 5: 4 (hand), K as 5, 6 (hand), pay-off 7.
    let hand = [4, WILD, 6, 11, 11];
    let p = plan(
        &input(&hand, &[&[], &[]], 7, &[3, 0, 0], RULES),
        &w,
        1_000_000,
    );
    assert!(matches!(p.steps.last(), Some(Step::PayOff(_))));
    assert!(p.steps.contains(&Step::Hand(1, 0)));
    // Without the 6 the wild cannot reach it: the king stays in hand.
    let hand = [4, WILD, 11, 11, 10];
    let p = plan(
        &input(&hand, &[&[], &[]], 7, &[3, 0, 0], RULES),
        &w,
        1_000_000,
    );
    assert!(p.steps.iter().all(|s| !matches!(s, Step::Hand(1, _))));
    assert!(matches!(p.steps.last(), Some(Step::Discard(_, _))));
}

#[test]
fn completing_a_stack_resets_it() {
    // Q completes the 11, then an ace starts it again, then the pay-off 2.
    let w = preset("hard").unwrap();
    let hand = [12, 1, 9, 9, 9];
    let p = plan(&input(&hand, &[&[]], 2, &[11], RULES), &w, 1_000_000);
    let (_, paid) = replay(&hand, &[&[]], 2, &[11], &p.steps);
    assert!(paid);
}

#[test]
fn emptied_hand_is_a_terminal_event() {
    let mut w = [0.0; NUM_FEATURES];
    w[feat::HAND_EMPTIED] = 100.0;
    let hand = [1, 2, 3];
    let p = plan(&input(&hand, &[&[]], 9, &[0, 0, 0], RULES), &w, 1_000_000);
    assert_eq!(p.steps.len(), 3);
    assert!(p.steps.iter().all(|s| matches!(s, Step::Hand(_, _))));
    assert!((p.score - 100.0).abs() < 1e-9);
}

#[test]
fn discard_rules_are_respected() {
    let rules = PlanRules {
        side_rule: SideRule::SameOrOneLower,
        ..RULES
    };
    let mut w = [0.0; NUM_FEATURES];
    w[feat::DISCARD_RANK] = 10.0; // wants to discard the highest card (the 10)
    let sides: [&[u8]; 2] = [&[5], &[7]];
    let p = plan(
        &input(&[10, 6], &sides, NO_CARD, &[11], rules),
        &w,
        1_000_000,
    );
    // the 10 fits nowhere (tops 5 and 7), the 6 fits on the 7 (one lower)
    assert_eq!(p.steps, vec![Step::Discard(1, 1)]);
    // must_play_aces: no discard while an ace can start a stack
    let rules = PlanRules {
        must_play_aces: true,
        ..RULES
    };
    let p = plan(&input(&[1, 9], &[&[]], NO_CARD, &[0], rules), &w, 1_000_000);
    assert_eq!(p.steps.first(), Some(&Step::Hand(0, 0)));
}

#[test]
fn transpositions_are_merged() {
    // Four independent plays on four stacks: 4! orders, but only 2^4 positions.
    let w = preset("hard").unwrap();
    let hand = [2, 4, 6, 8, 10];
    let p = plan(
        &input(&hand, &[&[]], NO_CARD, &[1, 3, 5, 7], RULES),
        &w,
        1_000_000,
    );
    assert!(p.nodes <= 32, "{} nodes", p.nodes);
}

#[test]
fn node_budget_and_validation() {
    let w = preset("hard").unwrap();
    let hand = [2, 4, 6, 8, 10];
    let p = plan(&input(&hand, &[&[]], NO_CARD, &[1, 3, 5, 7], RULES), &w, 3);
    assert!(!p.complete);
    assert!(matches!(preset("nope"), Err(PlanError::UnknownPreset(_))));
    let bad = PlanInput::new(&[13], &[], &[], NO_CARD, 0, &[0], &[], &[], RULES);
    assert!(matches!(bad, Err(PlanError::BadCard { .. })));
    let bad = PlanInput::new(&[1; 17], &[], &[], NO_CARD, 0, &[0], &[], &[], RULES);
    assert!(matches!(bad, Err(PlanError::TooMany { .. })));
    let bad = PlanInput::new(&[1], &[], &[], NO_CARD, 0, &[12], &[], &[], RULES);
    assert!(matches!(bad, Err(PlanError::BadRules(_))));
    let bad_rules = PlanRules { top: 11, ..RULES };
    assert!(PlanInput::new(&[1], &[], &[], NO_CARD, 0, &[0], &[], &[], bad_rules).is_err());
    assert!(cardcore_engine::spite::check_weights(&[1.0]).is_err());
    assert!(cardcore_engine::spite::check_weights(&[f64::NAN; NUM_FEATURES]).is_err());
}

#[test]
fn empty_hand_has_no_plan() {
    let w = preset("hard").unwrap();
    let p = plan(&input(&[], &[&[]], NO_CARD, &[0], RULES), &w, 1_000);
    assert!(p.steps.is_empty());
    assert_eq!(p.score, f64::NEG_INFINITY);
}
