//! Three-Thirteen's extras on the generic `State` (the moves by replay code, the observation
//! and the whole state field by field for `cardcore.three_thirteen`); the rules are
//! `cardcore_engine::games::three_thirteen`.

use cardcore_engine::games::three_thirteen::{Phase, State as Rulebook, StateParts};
use cardcore_engine::meld::{AceMode, MeldRules};
use cardcore_engine::three_thirteen_batch::Rules;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::errors::{option_error, py_err, state_format_error, type_error};
use crate::state::{AnyState, State};

/// Card ids as Python ints (a `Vec<u8>` would become `bytes`).
fn ids(cards: &[u8]) -> Vec<u16> {
    cards.iter().map(|&c| u16::from(c)).collect()
}

/// Piles of card ids as lists of Python ints.
fn piles(cards: &[Vec<u8>]) -> Vec<Vec<u16>> {
    cards.iter().map(|p| ids(p)).collect()
}

crate::state::rulebook_access!(ThreeThirteen, Rulebook, "three-thirteen");

/// A new game of `rules` dealt from `seed`; `stacked` deck orders by 1-based round are dealt
/// instead of shuffling.
#[pyfunction]
#[pyo3(signature = (rules, seed, stacked = Vec::new()))]
pub fn tt_new(
    rules: &ThreeThirteenRules,
    seed: u64,
    stacked: Vec<(u32, Vec<u8>)>,
) -> PyResult<State> {
    let st = Rulebook::new(rules.0, seed, stacked).map_err(py_err)?;
    Ok(State::new(AnyState::ThreeThirteen(st)))
}

/// Plays the move of replay code `code` (-1 draw from the stock, -2 the pile top, else the id
/// of the card to discard) for the seat to play.
#[pyfunction]
pub fn tt_apply_code(mut state: PyRefMut<'_, State>, code: i64) -> PyResult<()> {
    rulebook_mut(&mut state)?.apply_code(code).map_err(py_err)
}

/// The legal moves as replay codes, one per physical card.
#[pyfunction]
pub fn tt_legal_codes(state: PyRef<'_, State>) -> PyResult<Vec<i64>> {
    Ok(rulebook(&state)?.legal_codes())
}

/// The seat to play (the last seat that played once over).
#[pyfunction]
pub fn tt_current(state: PyRef<'_, State>) -> PyResult<usize> {
    Ok(rulebook(&state)?.current())
}

/// Each seat's optimal deadwood now.
#[pyfunction]
pub fn tt_deadwoods(state: PyRef<'_, State>) -> PyResult<Vec<u32>> {
    let s = rulebook(&state)?;
    Ok((0..s.rules().players).map(|k| s.deadwood(k)).collect())
}

/// What `seat` sees, in the order of the Python `Observation`'s first 19 fields: `(seat,
/// num_players, round, cards_dealt, wild_rank, dealer, phase, hand, drawn, drawn_from_discard,
/// discard_pile, stock_size, hand_sizes, taken, discards, out_seat, own_turns, turn_in_round,
/// totals)`.
#[pyfunction]
pub fn tt_observation<'py>(
    py: Python<'py>,
    state: PyRef<'_, State>,
    seat: usize,
) -> PyResult<Bound<'py, PyTuple>> {
    let s = rulebook(&state)?;
    let p = s.rules().players;
    if seat >= p {
        return Err(crate::errors::option_error(format!(
            "no seat {seat} at a {p}-player table"
        )));
    }
    let mine = seat == s.current();
    let tuple = |cards: &[u8]| PyTuple::new(py, cards);
    let taken = PyTuple::new(
        py,
        s.taken()
            .iter()
            .map(|t| tuple(t))
            .collect::<PyResult<Vec<_>>>()?,
    )?;
    let discards = PyTuple::new(py, s.discards().iter().map(|&(k, c)| (k, c)))?;
    let items: Vec<Bound<'py, PyAny>> = vec![
        seat.into_pyobject(py)?.into_any(),
        p.into_pyobject(py)?.into_any(),
        s.round().into_pyobject(py)?.into_any(),
        (s.round() + 2).into_pyobject(py)?.into_any(),
        s.wild_rank().into_pyobject(py)?.into_any(),
        s.dealer().into_pyobject(py)?.into_any(),
        s.phase().name().into_pyobject(py)?.into_any(),
        tuple(&s.hands()[seat])?.into_any(),
        (if mine { s.drawn() } else { None })
            .into_pyobject(py)?
            .into_any(),
        pyo3::types::PyBool::new(py, mine && s.drawn_from_discard())
            .to_owned()
            .into_any(),
        tuple(s.pile())?.into_any(),
        s.stock().len().into_pyobject(py)?.into_any(),
        PyTuple::new(py, s.hands().iter().map(Vec::len))?.into_any(),
        taken.into_any(),
        discards.into_any(),
        s.out_seat().into_pyobject(py)?.into_any(),
        s.own_turns()[seat].into_pyobject(py)?.into_any(),
        s.turn_in_round().into_pyobject(py)?.into_any(),
        PyTuple::new(py, s.totals())?.into_any(),
    ];
    PyTuple::new(py, items)
}

/// The whole state field by field, under the names of the state document (cards as ids).
#[pyfunction]
pub fn tt_parts<'py>(py: Python<'py>, state: PyRef<'_, State>) -> PyResult<Bound<'py, PyDict>> {
    let s = rulebook(&state)?;
    let d = PyDict::new(py);
    d.set_item("seed", s.seed())?;
    d.set_item("rng", s.rng_state().to_vec())?;
    d.set_item(
        "stacked",
        s.stacked()
            .iter()
            .map(|(r, d)| (*r, ids(d)))
            .collect::<Vec<_>>(),
    )?;
    d.set_item("first_dealer", s.first_dealer())?;
    d.set_item("dealer", s.dealer())?;
    d.set_item("round", s.round())?;
    d.set_item("current", s.current())?;
    d.set_item("phase", s.phase().name())?;
    d.set_item("drawn", s.drawn())?;
    d.set_item("drawn_from_discard", s.drawn_from_discard())?;
    d.set_item("hands", piles(s.hands()))?;
    d.set_item("stock", ids(s.stock()))?;
    d.set_item("discard_pile", ids(s.pile()))?;
    d.set_item("upcard", s.upcard())?;
    d.set_item("discards", s.discards().to_vec())?;
    d.set_item("taken", piles(s.taken()))?;
    d.set_item("own_turns", s.own_turns().to_vec())?;
    d.set_item("turn_in_round", s.turn_in_round())?;
    d.set_item("out_seat", s.out_seat())?;
    d.set_item("final_left", s.final_left())?;
    d.set_item("totals", s.totals().to_vec())?;
    d.set_item("round_scores", s.round_scores().to_vec())?;
    d.set_item("went_out", s.went_out().to_vec())?;
    d.set_item("deck_orders", piles(s.deck_orders()))?;
    d.set_item("move_log", s.move_log().to_vec())?;
    d.set_item(
        "rebuilds",
        s.rebuilds().iter().map(|r| piles(r)).collect::<Vec<_>>(),
    )?;
    Ok(d)
}

/// One field of [`tt_parts`] (the cheap ones a facade reads often).
#[pyfunction]
pub fn tt_get<'py>(
    py: Python<'py>,
    state: PyRef<'_, State>,
    name: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let s = rulebook(&state)?;
    Ok(match name {
        "seed" => s.seed().into_pyobject(py)?.into_any(),
        "round" => s.round().into_pyobject(py)?.into_any(),
        "dealer" => s.dealer().into_pyobject(py)?.into_any(),
        "current" => s.current().into_pyobject(py)?.into_any(),
        "phase" => s.phase().name().into_pyobject(py)?.into_any(),
        "drawn" => s.drawn().into_pyobject(py)?.into_any(),
        "drawn_from_discard" => pyo3::types::PyBool::new(py, s.drawn_from_discard())
            .to_owned()
            .into_any(),
        "out_seat" => s.out_seat().into_pyobject(py)?.into_any(),
        "final_left" => s.final_left().into_pyobject(py)?.into_any(),
        "turn_in_round" => s.turn_in_round().into_pyobject(py)?.into_any(),
        "first_dealer" => s.first_dealer().into_pyobject(py)?.into_any(),
        "over" => pyo3::types::PyBool::new(py, s.phase() == Phase::Over)
            .to_owned()
            .into_any(),
        "upcard" => s.upcard().into_pyobject(py)?.into_any(),
        "stock_size" => s.stock().len().into_pyobject(py)?.into_any(),
        "totals" => s.totals().to_vec().into_pyobject(py)?.into_any(),
        "hands" => piles(s.hands()).into_pyobject(py)?.into_any(),
        "discard_pile" => ids(s.pile()).into_pyobject(py)?.into_any(),
        "stock" => ids(s.stock()).into_pyobject(py)?.into_any(),
        "taken" => piles(s.taken()).into_pyobject(py)?.into_any(),
        "own_turns" => s.own_turns().to_vec().into_pyobject(py)?.into_any(),
        "round_scores" => s.round_scores().to_vec().into_pyobject(py)?.into_any(),
        "went_out" => s.went_out().to_vec().into_pyobject(py)?.into_any(),
        "discards" => s.discards().to_vec().into_pyobject(py)?.into_any(),
        _ => return Err(type_error(format!("no three-thirteen field {name:?}"))),
    })
}

fn phase_of(name: &str) -> PyResult<Phase> {
    match name {
        "draw" => Ok(Phase::Draw),
        "discard" => Ok(Phase::Discard),
        "over" => Ok(Phase::Over),
        _ => Err(state_format_error(format!("no phase {name:?}"))),
    }
}

/// The state that `parts` (the fields of [`tt_parts`]) describes, checked: `StateFormatError`
/// naming what disagrees.
#[pyfunction]
pub fn tt_from_parts(rules: &ThreeThirteenRules, parts: &Bound<'_, PyDict>) -> PyResult<State> {
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
    let phase: String = field!("phase");
    let x = StateParts {
        seed: field!("seed"),
        rng: field!("rng"),
        stacked: field!("stacked"),
        first_dealer: field!("first_dealer"),
        dealer: field!("dealer"),
        round: field!("round"),
        current: field!("current"),
        phase: phase_of(&phase)?,
        drawn: field!("drawn"),
        drawn_from_discard: field!("drawn_from_discard"),
        hands: field!("hands"),
        stock: field!("stock"),
        pile: field!("discard_pile"),
        upcard: field!("upcard"),
        discards: field!("discards"),
        taken: field!("taken"),
        own_turns: field!("own_turns"),
        turn_in_round: field!("turn_in_round"),
        out_seat: field!("out_seat"),
        final_left: field!("final_left"),
        totals: field!("totals"),
        round_scores: field!("round_scores"),
        went_out: field!("went_out"),
        deck_orders: field!("deck_orders"),
        move_log: field!("move_log"),
        rebuilds: field!("rebuilds"),
    };
    let st = Rulebook::from_parts(rules.0, x).map_err(py_err)?;
    Ok(State::new(AnyState::ThreeThirteen(st)))
}

/// Validated Three-Thirteen options for the native engines (built by `cardcore.three_thirteen.state.native_rules`).
#[pyclass(module = "cardcore._core", frozen)]
pub struct ThreeThirteenRules(pub Rules);

#[pymethods]
impl ThreeThirteenRules {
    /// The options of `cardcore.three_thirteen.Options`, as numbers.
    #[new]
    #[pyo3(signature = (
        *, players, decks, jokers, ace_mode, wild_points, joker_points, first_dealer,
        shared_win, forbid_return, min_own_turns, max_turns
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        players: usize,
        decks: usize,
        jokers: usize,
        ace_mode: u8,
        wild_points: u32,
        joker_points: u32,
        first_dealer: Option<usize>,
        shared_win: bool,
        forbid_return: bool,
        min_own_turns: u32,
        max_turns: u32,
    ) -> PyResult<Self> {
        let ace_mode = AceMode::from_code(ace_mode).ok_or_else(|| option_error("bad ace mode"))?;
        let rules = Rules {
            players,
            decks,
            jokers,
            meld: MeldRules {
                ace_mode,
                wild_points,
                joker_points,
            },
            first_dealer,
            shared_win,
            forbid_return,
            min_own_turns,
            max_turns,
        };
        if !rules.check() {
            return Err(option_error("options out of range"));
        }
        Ok(Self(rules))
    }
}

crate::rl::batch_class!(
    /// `n` Three-Thirteen games stepped together (see `cardcore.rl.vector`).
    ThreeThirteenBatch,
    Rulebook,
    ThreeThirteenRules
);
