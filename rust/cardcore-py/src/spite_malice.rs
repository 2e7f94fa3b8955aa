//! Spite & Malice's extras on the generic `State` (the moves as `(kind, x, y)` codes, the
//! observation and the whole state field by field for `cardcore.spite_malice`); the rules
//! are `cardcore_engine::games::spite_malice`. The planner and the expert are bound in
//! `spite.rs`.

use cardcore_engine::games::spite_malice::{EndReason, Move, State as Rulebook, StateParts};
use cardcore_engine::spite::SideRule;
use cardcore_engine::spite_episode::{self, StockRule};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::errors::{option_error, py_err, state_format_error, type_error};
use crate::state::{AnyState, State};

crate::state::rulebook_access!(SpiteMalice, Rulebook, "spite-malice");

/// The moves as `(seat, kind, x, y)`.
fn moves(s: &Rulebook) -> Vec<(u8, u8, usize, usize)> {
    s.log()
        .iter()
        .map(|&(seat, m)| {
            let (k, x, y) = m.code();
            (seat, k, x, y)
        })
        .collect()
}

/// A new game of `rules` dealt from `seed`; `log_events` keeps the events' texts.
#[pyfunction]
#[pyo3(signature = (rules, seed, log_events = false))]
pub fn sm_new(rules: &SpiteMaliceRules, seed: u64, log_events: bool) -> PyResult<State> {
    let st = Rulebook::new(rules.0.clone(), seed, log_events).map_err(py_err)?;
    Ok(State::new(AnyState::SpiteMalice(st)))
}

/// Plays move `(kind, x, y)` for the seat to play: kind 0 the pay-off top to centre slot `y`,
/// 1 side stack `x`'s top to slot `y`, 2 hand card `x` to slot `y`, 3 hand card `x` onto side
/// stack `y`.
#[pyfunction]
pub fn sm_apply_code(mut state: PyRefMut<'_, State>, kind: u8, x: i64, y: i64) -> PyResult<()> {
    rulebook_mut(&mut state)?
        .apply_code(kind, x, y)
        .map_err(py_err)
}

/// Why move `(kind, x, y)` may not be played now; `None` when it may.
#[pyfunction]
pub fn sm_why_illegal(
    state: PyRef<'_, State>,
    kind: u8,
    x: i64,
    y: i64,
) -> PyResult<Option<String>> {
    let s = rulebook(&state)?;
    if kind > 3 {
        return Ok(Some(format!("no spite-malice move kind {kind}")));
    }
    Ok(s.why_illegal(kind, x, y))
}

/// The first-player procedure run on this position (tied pay-off piles are reshuffled from
/// the deck stream); returns the seat without setting it.
#[pyfunction]
pub fn sm_choose_first_player(mut state: PyRefMut<'_, State>) -> PyResult<usize> {
    Ok(rulebook_mut(&mut state)?.choose_first_player())
}

/// The legal moves of the seat to play as `(kind, x, y)`, plays first, then discards.
#[pyfunction]
pub fn sm_legal_moves(state: PyRef<'_, State>) -> PyResult<Vec<(u8, usize, usize)>> {
    Ok(rulebook(&state)?
        .legal_moves()
        .into_iter()
        .map(Move::code)
        .collect())
}

/// The move `(kind, x, y)` action id `action` plays now, or `None` when it is not legal.
#[pyfunction]
pub fn sm_action_move(
    state: PyRef<'_, State>,
    action: i64,
) -> PyResult<Option<(u8, usize, usize)>> {
    Ok(rulebook(&state)?.move_of_action(action).map(Move::code))
}

/// What `seat` sees, in the order of the Python `Observation`'s first 11 fields: `(seat,
/// current, hand, hand_sizes, payoff_tops, payoff_counts, side_stacks, center, stock_count,
/// used_count, turn)`.
#[pyfunction]
pub fn sm_observation<'py>(
    py: Python<'py>,
    state: PyRef<'_, State>,
    seat: usize,
) -> PyResult<Bound<'py, PyTuple>> {
    let s = rulebook(&state)?;
    let p = s.rules().players;
    if seat >= p {
        return Err(option_error(format!(
            "no seat {seat} at a {p}-player table"
        )));
    }
    let tuple = |cards: &[u16]| PyTuple::new(py, cards);
    let tuples = |piles: &[Vec<u16>]| -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(
            py,
            piles
                .iter()
                .map(|x| tuple(x))
                .collect::<PyResult<Vec<_>>>()?,
        )
    };
    let sides = PyTuple::new(
        py,
        s.sides()
            .iter()
            .map(|ss| tuples(ss))
            .collect::<PyResult<Vec<_>>>()?,
    )?;
    let items: Vec<Bound<'py, PyAny>> = vec![
        seat.into_pyobject(py)?.into_any(),
        s.current().into_pyobject(py)?.into_any(),
        tuple(&s.hands()[seat])?.into_any(),
        PyTuple::new(py, s.hands().iter().map(Vec::len))?.into_any(),
        PyTuple::new(py, s.payoffs().iter().map(|x| x.last().copied()))?.into_any(),
        PyTuple::new(py, s.payoffs().iter().map(Vec::len))?.into_any(),
        sides.into_any(),
        tuples(s.center())?.into_any(),
        s.stock().len().into_pyobject(py)?.into_any(),
        s.used().len().into_pyobject(py)?.into_any(),
        s.turn().into_pyobject(py)?.into_any(),
    ];
    PyTuple::new(py, items)
}

/// The whole state field by field, under the names of the state document (cards as ids;
/// `moves` as `(seat, kind, x, y)`; the knowledge lists at the top level).
#[pyfunction]
pub fn sm_parts<'py>(py: Python<'py>, state: PyRef<'_, State>) -> PyResult<Bound<'py, PyDict>> {
    let s = rulebook(&state)?;
    let d = PyDict::new(py);
    d.set_item("seed", s.seed())?;
    d.set_item("rng", s.rng_state().to_vec())?;
    d.set_item("deck_order", s.deck_order())?;
    d.set_item("payoffs", s.payoffs())?;
    d.set_item("hands", s.hands())?;
    d.set_item("sides", s.sides())?;
    d.set_item("center", s.center())?;
    d.set_item("stock", s.stock())?;
    d.set_item("used", s.used())?;
    d.set_item("current", s.current())?;
    d.set_item("first_player", s.first_player())?;
    d.set_item("turn", s.turn())?;
    d.set_item("over", s.over())?;
    d.set_item("winner", s.winner())?;
    d.set_item("end_reason", s.end_reason().name())?;
    d.set_item("scores", s.scores())?;
    d.set_item("reshuffles", s.reshuffles())?;
    d.set_item("events", s.events())?;
    d.set_item("moves", moves(s))?;
    d.set_item("pinned", s.pinned())?;
    d.set_item("entries", s.entries())?;
    d.set_item("entry_draws", s.entry_draws())?;
    d.set_item("drawn", s.drawn())?;
    d.set_item("played", s.played())?;
    Ok(d)
}

/// One field of [`sm_parts`] (the cheap ones a facade reads often).
#[pyfunction]
pub fn sm_get<'py>(
    py: Python<'py>,
    state: PyRef<'_, State>,
    name: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let s = rulebook(&state)?;
    Ok(match name {
        "current" => s.current().into_pyobject(py)?.into_any(),
        "first_player" => s.first_player().into_pyobject(py)?.into_any(),
        "turn" => s.turn().into_pyobject(py)?.into_any(),
        "over" => pyo3::types::PyBool::new(py, s.over()).to_owned().into_any(),
        "winner" => s.winner().into_pyobject(py)?.into_any(),
        "end_reason" => s.end_reason().name().into_pyobject(py)?.into_any(),
        "scores" => s.scores().into_pyobject(py)?.into_any(),
        "reshuffles" => s.reshuffles().into_pyobject(py)?.into_any(),
        "seed" => s.seed().into_pyobject(py)?.into_any(),
        "rng" => s.rng_state().to_vec().into_pyobject(py)?.into_any(),
        "deck_order" => s.deck_order().into_pyobject(py)?.into_any(),
        "payoffs" => s.payoffs().into_pyobject(py)?.into_any(),
        "hands" => s.hands().into_pyobject(py)?.into_any(),
        "sides" => s.sides().into_pyobject(py)?.into_any(),
        "center" => s.center().into_pyobject(py)?.into_any(),
        "stock" => s.stock().into_pyobject(py)?.into_any(),
        "used" => s.used().into_pyobject(py)?.into_any(),
        "events" => s.events().into_pyobject(py)?.into_any(),
        "moves" => moves(s).into_pyobject(py)?.into_any(),
        "pinned" => s.pinned().into_pyobject(py)?.into_any(),
        "entries" => s.entries().into_pyobject(py)?.into_any(),
        "entry_draws" => s.entry_draws().into_pyobject(py)?.into_any(),
        "drawn" => s.drawn().into_pyobject(py)?.into_any(),
        "played" => s.played().into_pyobject(py)?.into_any(),
        _ => return Err(type_error(format!("no spite-malice field {name:?}"))),
    })
}

/// The state that `parts` (the fields of [`sm_parts`]) describes, checked: `StateFormatError`
/// naming what disagrees.
#[pyfunction]
pub fn sm_from_parts(rules: &SpiteMaliceRules, parts: &Bound<'_, PyDict>) -> PyResult<State> {
    let get = |k: &str| -> PyResult<Bound<'_, PyAny>> {
        parts
            .get_item(k)?
            .ok_or_else(|| state_format_error(format!("no field {k:?}")))
    };
    macro_rules! field {
        ($k:literal) => {
            get($k)?
                .extract()
                .map_err(|e| state_format_error(format!("field {:?}: {e}", $k)))?
        };
    }
    let reason: String = field!("end_reason");
    let end_reason = EndReason::from_name(&reason)
        .ok_or_else(|| state_format_error(format!("field \"end_reason\": no reason {reason:?}")))?;
    let codes: Vec<(u8, u8, usize, usize)> = field!("moves");
    let mut log = Vec::with_capacity(codes.len());
    for (seat, k, x, y) in codes {
        let mv = Move::from_code(k, x, y).ok_or_else(|| {
            state_format_error(format!("field \"moves\": no move ({k}, {x}, {y})"))
        })?;
        log.push((seat, mv));
    }
    let x = StateParts {
        seed: field!("seed"),
        rng: field!("rng"),
        deck_order: field!("deck_order"),
        payoffs: field!("payoffs"),
        hands: field!("hands"),
        sides: field!("sides"),
        center: field!("center"),
        stock: field!("stock"),
        used: field!("used"),
        current: field!("current"),
        first_player: field!("first_player"),
        turn: field!("turn"),
        over: field!("over"),
        winner: field!("winner"),
        end_reason,
        scores: field!("scores"),
        events: field!("events"),
        reshuffles: field!("reshuffles"),
        log,
        pinned: field!("pinned"),
        entries: field!("entries"),
        entry_draws: field!("entry_draws"),
        drawn: field!("drawn"),
        played: field!("played"),
    };
    let st = Rulebook::from_parts(rules.0.clone(), x).map_err(py_err)?;
    Ok(State::new(AnyState::SpiteMalice(st)))
}

/// Validated Spite & Malice options for the native engine (built by `cardcore.spite_malice.state.native_rules`).
#[pyclass(module = "cardcore._core", frozen)]
pub struct SpiteMaliceRules(pub(crate) spite_episode::Rules);

#[pymethods]
impl SpiteMaliceRules {
    /// The options of `cardcore.spite_malice.Options` (resolved).
    #[new]
    #[pyo3(signature = (
        *, players, decks, jokers, payoff_size, hand_size, side_stacks, center_stacks,
        king_can_start, refill_empty_hand, completed_to_stock, stock_exhausted, side_stack_rule,
        must_play_aces, first_player, max_turns, win_bonus = 0
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        players: usize,
        decks: usize,
        jokers: bool,
        payoff_size: usize,
        hand_size: usize,
        side_stacks: usize,
        center_stacks: usize,
        king_can_start: bool,
        refill_empty_hand: bool,
        completed_to_stock: bool,
        stock_exhausted: &str,
        side_stack_rule: &str,
        must_play_aces: bool,
        first_player: Option<usize>,
        max_turns: u32,
        win_bonus: u64,
    ) -> PyResult<Self> {
        let stock_rule = match stock_exhausted {
            "tie_on_required_draw" => StockRule::TieOnRequiredDraw,
            "tie_immediately" => StockRule::TieImmediately,
            "recycle_then_tie" => StockRule::RecycleThenTie,
            other => return Err(option_error(format!("stock_exhausted {other:?}"))),
        };
        let side_rule = match side_stack_rule {
            "any" => SideRule::Any,
            "same_or_one_lower" => SideRule::SameOrOneLower,
            "no_aces" => SideRule::NoAces,
            other => return Err(option_error(format!("side_stack_rule {other:?}"))),
        };
        let rules = spite_episode::Rules {
            players,
            decks,
            jokers,
            payoff_size,
            hand_size,
            side_stacks,
            center_stacks,
            king_can_start,
            refill_empty_hand,
            completed_to_stock,
            stock_rule,
            side_rule,
            must_play_aces,
            first_player,
            max_turns,
            win_bonus,
        };
        if !rules.check() {
            return Err(option_error("options out of range"));
        }
        Ok(Self(rules))
    }
}

crate::rl::batch_class!(
    /// `n` Spite & Malice games stepped together (`cardcore.rl.gym_vector`).
    SpiteMaliceBatch,
    Rulebook,
    SpiteMaliceRules
);
