//! Bindings of `cardcore_engine::spite`: the Spite & Malice turn planner; and of
//! `cardcore_engine::spite_actions`: the legal action ids (the tests' oracle, the 0.4.0 Python
//! engine, reads them).

use cardcore_engine::spite::{self, DEFAULT_NODE_LIMIT, PlanInput, PlanRules, SideRule, Step};
use cardcore_engine::spite_actions::{ActionLayout, Discards};
use cardcore_engine::spite_expert::{self, ExpertParams, Table};
use pyo3::prelude::*;
use pyo3::types::PyList;

use crate::boundary::keyword_class;
use crate::errors::{int_arg, option_error, py_err, type_error};

/// One plan step as `(kind, a, b)`: kind 0 = pay-off to centre `a`; 1 = side `a` to centre
/// `b`; 2 = hand card `a` to centre `b`; 3 = discard hand card `a` to side `b`.
fn step_tuple(s: Step) -> (u8, u8, u8) {
    match s {
        Step::PayOff(c) => (0, c, 0),
        Step::Side(a, c) => (1, a, c),
        Step::Hand(a, c) => (2, a, c),
        Step::Discard(a, sd) => (3, a, sd),
        Step::None => (255, 0, 0),
    }
}

keyword_class!(
    /// The planner's answer (`spite::Plan`): its steps (as `step_tuple` writes them), score,
    /// nodes expanded and whether the search finished.
    SpitePlan {
        score: f64,
        steps: Vec<(u8, u8, u8)>,
        nodes: u32,
        complete: bool,
    }
);

/// Best building sequence of the current turn; see `cardcore.spite_malice.planner`.
#[pyfunction]
#[pyo3(signature = (
    hand, sides, side_lens, payoff, payoff_left, center, opp_payoffs, next_side_tops,
    weights, *, top = 12, wild_start = true, refill_empty_hand = true, side_rule = 0,
    must_play_aces = false, node_limit = DEFAULT_NODE_LIMIT
))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn spite_plan(
    py: Python<'_>,
    hand: Vec<u8>,
    sides: Vec<Vec<u8>>,
    side_lens: Vec<usize>,
    payoff: u8,
    payoff_left: u32,
    center: Vec<u8>,
    opp_payoffs: Vec<u8>,
    next_side_tops: Vec<u8>,
    weights: Vec<f64>,
    top: u8,
    wild_start: bool,
    refill_empty_hand: bool,
    side_rule: u8,
    must_play_aces: bool,
    node_limit: u32,
) -> PyResult<SpitePlan> {
    let side_rule = side_rule_of(side_rule)?;
    let rules = PlanRules {
        top,
        wild_start,
        refill_empty_hand,
        side_rule,
        must_play_aces,
    };
    let side_refs: Vec<&[u8]> = sides.iter().map(Vec::as_slice).collect();
    let inp = PlanInput::new(
        &hand,
        &side_refs,
        &side_lens,
        payoff,
        payoff_left,
        &center,
        &opp_payoffs,
        &next_side_tops,
        rules,
    )
    .map_err(py_err)?;
    let w = spite::check_weights(&weights).map_err(py_err)?;
    let work = || spite::plan(&inp, &w, node_limit);
    // Typical turns take microseconds; release the GIL only when the search can be long
    // (a big hand or deep side stacks multiply the positions).
    let side_cards: usize = sides.iter().map(Vec::len).sum();
    let plan = if node_limit > 10_000 && (hand.len() > 8 || side_cards > 24) {
        py.detach(work)
    } else {
        work()
    };
    Ok(SpitePlan {
        score: plan.score,
        steps: plan.steps.iter().map(|&s| step_tuple(s)).collect(),
        nodes: plan.nodes,
        complete: plan.complete,
    })
}

fn side_rule_of(code: u8) -> PyResult<SideRule> {
    match code {
        0 => Ok(SideRule::Any),
        1 => Ok(SideRule::SameOrOneLower),
        2 => Ok(SideRule::NoAces),
        other => Err(option_error(format!("side_rule {other} not in 0..=2"))),
    }
}

keyword_class!(
    /// What the expert's seat sees (`spite_expert::Table`, cards as values; `sides[seat][i]`
    /// and `center[c]` bottom first), its planner rules (`top`, `wild_start`,
    /// `refill_empty_hand`, `side_rule` code as in `spite_plan`, `must_play_aces`) flattened.
    SpiteTable {
        seat: usize,
        hand: Vec<u8>,
        payoff_tops: Vec<u8>,
        payoff_counts: Vec<u32>,
        sides: Vec<Vec<Vec<u8>>>,
        center: Vec<Vec<u8>>,
        hand_sizes: Vec<usize>,
        stock_count: usize,
        decks: u8,
        hand_size: usize,
        top: u8,
        wild_start: bool,
        refill_empty_hand: bool,
        side_rule: u8,
        must_play_aces: bool,
        turn: u32,
        max_turns: u32,
        turn_start_center: Option<Vec<u8>>,
    }
);

impl SpiteTable {
    fn table(&self) -> PyResult<Table> {
        Ok(Table {
            seat: self.seat,
            hand: self.hand.clone(),
            payoff_tops: self.payoff_tops.clone(),
            payoff_counts: self.payoff_counts.clone(),
            sides: self.sides.clone(),
            center: self.center.clone(),
            hand_sizes: self.hand_sizes.clone(),
            stock_count: self.stock_count,
            decks: self.decks,
            hand_size: self.hand_size,
            rules: PlanRules {
                top: self.top,
                wild_start: self.wild_start,
                refill_empty_hand: self.refill_empty_hand,
                side_rule: side_rule_of(self.side_rule)?,
                must_play_aces: self.must_play_aces,
            },
            turn: self.turn,
            max_turns: self.max_turns,
            turn_start_center: self.turn_start_center.clone(),
        })
    }
}

keyword_class!(
    /// The expert's search (`spite_expert::ExpertParams`): `time_ms` a time budget or `None`
    /// (the rollout budget); `weights` the planner's (`spite_weights`).
    SpiteExpertParams {
        rollouts: u32,
        time_ms: Option<f64>,
        candidates: usize,
        horizon: usize,
        margin: f64,
        win_value: f64,
        node_limit: u32,
        weights: Vec<f64>,
    }
);

impl SpiteExpertParams {
    fn params(&self) -> PyResult<ExpertParams> {
        Ok(ExpertParams {
            rollouts: self.rollouts,
            time_limit: crate::budget::time_limit(self.time_ms)?,
            candidates: self.candidates,
            horizon: self.horizon,
            margin: self.margin,
            win_value: self.win_value,
            node_limit: self.node_limit,
            weights: spite::check_weights(&self.weights).map_err(py_err)?,
        })
    }
}

keyword_class!(
    /// The expert's decision (`spite_expert::Decision`): the plan to play (`steps` as in
    /// `spite_plan`), the deals searched and the plans compared.
    SpiteDecision {
        steps: Vec<(u8, u8, u8)>,
        deals: u32,
        candidates: usize,
    }
);

/// Spite & Malice expert agent: the decision at `table`. The search runs without the GIL.
#[pyfunction]
pub(crate) fn spite_expert_decide(
    py: Python<'_>,
    table: &SpiteTable,
    params: &SpiteExpertParams,
    seed: u64,
) -> PyResult<SpiteDecision> {
    let p = params.params()?;
    let table = table.table()?;
    let d = py
        .detach(|| spite_expert::decide(&table, &p, seed))
        .map_err(py_err)?;
    Ok(SpiteDecision {
        steps: d.steps.iter().map(|&s| step_tuple(s)).collect(),
        deals: d.deals,
        candidates: d.candidates,
    })
}

/// The built-in weight vector `name` ("hard", "plays", "payoff").
#[pyfunction]
pub(crate) fn spite_weights(name: &str) -> PyResult<Vec<f64>> {
    spite::preset(name).map(|w| w.to_vec()).map_err(py_err)
}

/// The legal action ids of one Spite & Malice game's options
/// (`cardcore.spite_malice.game.SpiteMaliceGame.actions`).
#[pyclass(module = "cardcore._core", frozen)]
pub struct SpiteActions {
    layout: ActionLayout,
}

/// A pile of the state: a list of card ids, bottom to top.
fn pile<'a, 'py>(obj: &'a Bound<'py, PyAny>) -> PyResult<&'a Bound<'py, PyList>> {
    obj.cast::<PyList>()
        .map_err(|_| type_error("a pile must be a list of card ids"))
}

fn card_id(obj: &Bound<'_, PyAny>) -> PyResult<usize> {
    int_arg(obj, "a card id", 0, i128::from(u16::MAX))
}

/// The top card of a pile.
fn top(obj: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
    let pile = pile(obj)?;
    match pile.len() {
        0 => Ok(None),
        n => Ok(Some(card_id(&pile.get_item(n - 1)?)?)),
    }
}

#[pymethods]
impl SpiteActions {
    /// `face[card]` is every physical card's face, `face_rank[f]` a face's building rank (0 =
    /// wild); `wild_start`: a wild card may start an empty stack.
    #[new]
    fn new(
        slots: usize,
        sides: usize,
        face: Vec<u16>,
        face_rank: Vec<u8>,
        wild_start: bool,
    ) -> PyResult<Self> {
        ActionLayout::new(slots, sides, face, face_rank, wild_start)
            .map(|layout| Self { layout })
            .map_err(py_err)
    }

    /// The sorted legal action ids of the seat to play, from the state's piles: the centre
    /// stacks, the seat's pay-off pile, side stacks and hand; with `discards` every hand face
    /// onto every side stack follows.
    fn legal<'py>(
        &self,
        center: &Bound<'py, PyList>,
        payoff: &Bound<'py, PyAny>,
        sides: &Bound<'py, PyList>,
        hand: &Bound<'py, PyList>,
        discards: bool,
    ) -> PyResult<Bound<'py, PyList>> {
        let lens = center
            .iter()
            .map(|stack| Ok(pile(&stack)?.len()))
            .collect::<PyResult<Vec<usize>>>()?;
        let side_tops = sides
            .iter()
            .map(|s| top(&s))
            .collect::<PyResult<Vec<_>>>()?;
        let cards = hand
            .iter()
            .map(|c| card_id(&c))
            .collect::<PyResult<Vec<usize>>>()?;
        let discards = if discards {
            Discards::Any
        } else {
            Discards::None
        };
        let mut out = Vec::with_capacity(32);
        self.layout
            .legal(&lens, top(payoff)?, &side_tops, &cards, discards, &mut out)
            .map_err(py_err)?;
        PyList::new(center.py(), out)
    }
}
