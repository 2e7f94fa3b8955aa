//! Bindings of `cardcore_engine::meld`: the Three-Thirteen meld solver.
//!
//! Hands cross the boundary as `bytes` of face codes; rules as `ace_mode` code, wild points and
//! joker points; the hard and expert agents' inputs and decisions as typed frozen classes.
//! Invalid input raises `OptionError` / `CardParseError`, never a panic.

use cardcore_engine::card;
use cardcore_engine::games::three_thirteen::banned_after_draw;
use cardcore_engine::meld::{self, AceMode, MeldKind, MeldRules};
use cardcore_engine::three_thirteen_expert::{
    self as expert, Decision, ExpertParams, Search, Table,
};
use cardcore_engine::three_thirteen_hard::{self as hard, HardParams, View};
use cardcore_engine::three_thirteen_infer::{self as infer, Draw, History, InferParams, Turn};
use cardcore_engine::three_thirteen_win::{self as win, Standings};
use pyo3::buffer::{Element, PyBuffer};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyInt, PyList, PySequence, PyString};

use crate::boundary::{boundary_struct, keyword_class};
use crate::cards::read_faces;
use crate::errors::{card_parse_error, option_error, py_err};

/// Batches at or above this many hands run with the GIL released.
const DETACH_HANDS: usize = 64;
/// Hands solved per GIL-released stretch of a batch; Ctrl-C is checked between stretches.
const CHECK_HANDS: usize = 1 << 14;

/// Minimum deadwood of every hand, in stretches of [`CHECK_HANDS`] (the GIL released for
/// large batches, Ctrl-C checked in between).
fn solve_batch(py: Python<'_>, hands: &[&[u8]], wild: u32, r: &MeldRules) -> PyResult<Vec<u32>> {
    let mut out = Vec::with_capacity(hands.len());
    for part in hands.chunks(CHECK_HANDS) {
        let solve = || meld::min_deadwood_batch(part, wild, r);
        let values = if hands.len() >= DETACH_HANDS {
            py.detach(solve)
        } else {
            solve()
        };
        out.extend(values.map_err(py_err)?);
        py.check_signals()?;
    }
    Ok(out)
}

/// The hands of `flat` ending at `ends` (hands stored back to back).
fn split_at_ends<'a>(flat: &'a [u8], ends: &[usize]) -> Vec<&'a [u8]> {
    let mut start = 0;
    ends.iter()
        .map(|&e| {
            let hand = &flat[start..e];
            start = e;
            hand
        })
        .collect()
}

fn rules(ace_mode: u8, wild_points: u32, joker_points: u32) -> PyResult<MeldRules> {
    let ace_mode = AceMode::from_code(ace_mode).ok_or_else(|| {
        option_error(format!(
            "ace_mode code must be 0 (low), 1 (high) or 2 (both), got {ace_mode}"
        ))
    })?;
    let r = MeldRules {
        ace_mode,
        wild_points,
        joker_points,
    };
    meld::check_rules(3, &r).map_err(py_err)?;
    Ok(r)
}

/// Minimum deadwood of one hand.
#[pyfunction]
#[pyo3(signature = (faces, wild, ace_mode = 0, wild_points = 15, joker_points = 20))]
pub(crate) fn meld_deadwood(
    faces: &[u8],
    wild: u32,
    ace_mode: u8,
    wild_points: u32,
    joker_points: u32,
) -> PyResult<u32> {
    let r = rules(ace_mode, wild_points, joker_points)?;
    meld::min_deadwood(faces, wild, &r).map_err(py_err)
}

/// Deadwood left after discarding each card of the hand, index-aligned.
#[pyfunction]
#[pyo3(signature = (faces, wild, ace_mode = 0, wild_points = 15, joker_points = 20))]
pub(crate) fn meld_discards(
    faces: &[u8],
    wild: u32,
    ace_mode: u8,
    wild_points: u32,
    joker_points: u32,
) -> PyResult<Vec<u32>> {
    let r = rules(ace_mode, wild_points, joker_points)?;
    meld::discard_deadwoods(faces, wild, &r).map_err(py_err)
}

/// Minimum deadwood of each hand of a sequence of `bytes`; the GIL is released.
#[pyfunction]
#[pyo3(signature = (hands, wild, ace_mode = 0, wild_points = 15, joker_points = 20))]
pub(crate) fn meld_deadwood_batch(
    py: Python<'_>,
    hands: &Bound<'_, PySequence>,
    wild: u32,
    ace_mode: u8,
    wild_points: u32,
    joker_points: u32,
) -> PyResult<Vec<u32>> {
    let r = rules(ace_mode, wild_points, joker_points)?;
    let n = hands.len()?;
    let mut flat: Vec<u8> = Vec::with_capacity(n * 12);
    let mut ends: Vec<usize> = Vec::with_capacity(n);
    for item in hands.try_iter()? {
        let item = item?;
        let b = item.cast::<PyBytes>()?;
        flat.extend_from_slice(b.as_bytes());
        ends.push(flat.len());
    }
    solve_batch(py, &split_at_ends(&flat, &ends), wild, &r)
}

/// Minimum deadwood of `len(buf) // hand_size` hands packed back to back in one `bytes`.
#[pyfunction]
#[pyo3(signature = (buf, hand_size, wild, ace_mode = 0, wild_points = 15, joker_points = 20))]
pub(crate) fn meld_deadwood_packed(
    py: Python<'_>,
    buf: &[u8],
    hand_size: usize,
    wild: u32,
    ace_mode: u8,
    wild_points: u32,
    joker_points: u32,
) -> PyResult<Vec<u32>> {
    let r = rules(ace_mode, wild_points, joker_points)?;
    if hand_size == 0 || buf.len() % hand_size != 0 {
        return Err(option_error(format!(
            "buffer of {} bytes is not a whole number of {hand_size}-card hands",
            buf.len()
        )));
    }
    let hands: Vec<&[u8]> = buf.chunks(hand_size).collect();
    solve_batch(py, &hands, wild, &r)
}

/// A meld as `(kind, [(hand index, face stood for or -1)])`; kind 0 = set, 1 = run.
type PyMeld = (u8, Vec<(usize, i16)>);

keyword_class!(
    /// One optimal arrangement (`meld::Arrangement`): the melds, the hand indices left as
    /// deadwood and their points.
    MeldArrangement {
        melds: Vec<PyMeld>,
        deadwood: Vec<usize>,
        points: u32,
    }
);

/// One optimal arrangement of a hand.
#[pyfunction]
#[pyo3(signature = (faces, wild, ace_mode = 0, wild_points = 15, joker_points = 20))]
pub(crate) fn meld_best(
    faces: &[u8],
    wild: u32,
    ace_mode: u8,
    wild_points: u32,
    joker_points: u32,
) -> PyResult<MeldArrangement> {
    let r = rules(ace_mode, wild_points, joker_points)?;
    let a = meld::best_arrangement(faces, wild, &r).map_err(py_err)?;
    let melds = a
        .melds
        .into_iter()
        .map(|m| {
            let kind = match m.kind {
                MeldKind::Set => 0,
                MeldKind::Run => 1,
            };
            let cards = m
                .cards
                .into_iter()
                .map(|(k, f)| (k, f.map_or(-1, i16::from)))
                .collect();
            (kind, cards)
        })
        .collect();
    Ok(MeldArrangement {
        melds,
        deadwood: a.deadwood,
        points: a.points,
    })
}

// --- the public surface: `cardcore.three_thirteen.min_deadwood` and `min_deadwood_batch` -------

/// The wild rank from `3..=13` or `"3"`..`"9"`, `"T"`/`"10"`, `"J"`, `"Q"`, `"K"`.
fn wild_arg(obj: &Bound<'_, PyAny>) -> PyResult<u32> {
    let rank = if obj.is_instance_of::<PyBool>() {
        None
    } else if obj.is_instance_of::<PyInt>() {
        obj.extract::<u32>().ok().filter(|w| (3..=13).contains(w))
    } else if let Ok(text) = obj.cast::<PyString>() {
        match text.to_str()?.trim().to_ascii_uppercase().as_str() {
            "T" | "10" => Some(10),
            "J" => Some(11),
            "Q" => Some(12),
            "K" => Some(13),
            t => t.parse::<u32>().ok().filter(|w| (3..=9).contains(w)),
        }
    } else {
        None
    };
    rank.ok_or_else(|| match obj.repr() {
        Ok(r) => option_error(format!("wild rank must be 3..13 or 3-9/T/J/Q/K, got {r}")),
        Err(e) => e,
    })
}

/// Points of a rules keyword: an int in `0..=1000`.
fn points_arg(obj: Option<&Bound<'_, PyAny>>, name: &str, default: u32) -> PyResult<u32> {
    let Some(obj) = obj else {
        return Ok(default);
    };
    let v = (!obj.is_instance_of::<PyBool>() && obj.is_instance_of::<PyInt>())
        .then(|| obj.extract::<u32>().ok())
        .flatten()
        .filter(|&v| v <= meld::MAX_POINTS);
    v.ok_or_else(|| match obj.repr() {
        Ok(r) => option_error(format!("{name} must be an int in 0..1000, got {r}")),
        Err(e) => e,
    })
}

/// The rules from the public keywords (`ace_mode="low"|"high"|"both"`, points).
fn rules_args(
    ace_mode: Option<&Bound<'_, PyAny>>,
    wild_points: Option<&Bound<'_, PyAny>>,
    joker_points: Option<&Bound<'_, PyAny>>,
) -> PyResult<MeldRules> {
    let ace_mode = match ace_mode {
        None => AceMode::Low,
        Some(obj) => {
            let text = obj.cast::<PyString>().ok().map(|t| t.to_string());
            match text.as_deref() {
                Some("low") => AceMode::Low,
                Some("high") => AceMode::High,
                Some("both") => AceMode::Both,
                _ => {
                    return Err(option_error(format!(
                        "ace_mode must be 'low', 'high' or 'both', got {}",
                        obj.repr()?
                    )));
                }
            }
        }
    };
    Ok(MeldRules {
        ace_mode,
        wild_points: points_arg(wild_points, "wild_points", 15)?,
        joker_points: points_arg(joker_points, "joker_points", 20)?,
    })
}

/// Minimum deadwood of `hand` when `wild` is the round's wild rank.
///
/// `hand`: card text (`"3h 4h 5h 7c 7d 7s JK"`) or an iterable of `Card`. `wild`: the wild rank
/// as an int 3..13 or text (`"3"`..`"9"`, `"T"`/`"10"`, `"J"`, `"Q"`, `"K"`). Jokers and every
/// card of the wild rank are wild; `ace_mode` (`"low"`, `"high"`, `"both"`), `wild_points` and
/// `joker_points` are the scoring variants. Raises `CardParseError` for bad cards and
/// `OptionError` for a bad wild rank, rules or a hand of more than 24 cards.
#[pyfunction]
#[pyo3(
    signature = (hand, wild, *, ace_mode = None, wild_points = None, joker_points = None),
    text_signature = "(hand, wild, *, ace_mode='low', wild_points=15, joker_points=20)"
)]
pub(crate) fn min_deadwood(
    hand: &Bound<'_, PyAny>,
    wild: &Bound<'_, PyAny>,
    ace_mode: Option<&Bound<'_, PyAny>>,
    wild_points: Option<&Bound<'_, PyAny>>,
    joker_points: Option<&Bound<'_, PyAny>>,
) -> PyResult<u32> {
    let r = rules_args(ace_mode, wild_points, joker_points)?;
    let wild = wild_arg(wild)?;
    let mut faces = Vec::with_capacity(16);
    read_faces(hand, &mut faces)?;
    meld::min_deadwood(&faces, wild, &r).map_err(py_err)
}

/// Face codes of the physical card ids of a game of `decks` decks (jokers after the naturals).
fn id_faces(decks: u16) -> Vec<u8> {
    let decks = usize::from(decks);
    (0..card::natural_ids(decks) + usize::from(card::MAX_JOKERS))
        .map(|id| card::face_of(id, decks))
        .collect()
}

/// The faces of a 2-D buffer of card ids of element type `T`, row-major, with its shape;
/// `None` when the buffer holds another element type.
fn buffer_faces<T: Element + Copy + TryInto<usize> + std::fmt::Display>(
    py: Python<'_>,
    obj: &Bound<'_, PyAny>,
    decks: u16,
) -> PyResult<Option<(Vec<u8>, [usize; 2])>> {
    let Ok(buf) = PyBuffer::<T>::get(obj) else {
        return Ok(None);
    };
    if buf.dimensions() != 2 {
        return Err(option_error(format!(
            "an array of card ids must be 2-D (hands x cards), got {} dimension(s)",
            buf.dimensions()
        )));
    }
    let shape = [buf.shape()[0], buf.shape()[1]];
    let table = id_faces(decks);
    let ids = buf.to_vec(py)?;
    let mut faces = Vec::with_capacity(ids.len());
    for &v in &ids {
        match v.try_into().ok().and_then(|i: usize| table.get(i)) {
            Some(&f) => faces.push(f),
            None => {
                return Err(card_parse_error(format!(
                    "card id {v} out of range 0..{} for {decks} deck(s)",
                    table.len() - 1
                )));
            }
        }
    }
    Ok(Some((faces, shape)))
}

/// The faces of an integer array (numpy, `memoryview`, any buffer) of card ids; `None` when
/// `obj` is not a buffer of integers.
fn array_faces(obj: &Bound<'_, PyAny>, decks: u16) -> PyResult<Option<(Vec<u8>, [usize; 2])>> {
    let py = obj.py();
    if obj.is_instance_of::<PyString>() || obj.is_instance_of::<PyBytes>() {
        return Ok(None);
    }
    macro_rules! try_types {
        ($($t:ty),*) => {
            $(if let Some(found) = buffer_faces::<$t>(py, obj, decks)? {
                return Ok(Some(found));
            })*
        };
    }
    try_types!(u8, u16, u32, u64, i8, i16, i32, i64);
    Ok(None)
}

/// :func:`min_deadwood` of every hand (same wild rank and rules), the GIL released while solving.
///
/// `hands`: a sequence of hands (card text or iterables of `Card`), or a 2-D integer array of
/// physical card ids (numpy arrays, `memoryview`s such as `shuffle_batch` rows, any buffer),
/// one hand per row, read without a Python call per card; `decks` says how many decks the ids
/// count (ids `52 * decks ..` are the jokers).
#[pyfunction]
#[pyo3(
    signature = (
        hands, wild, *, ace_mode = None, wild_points = None, joker_points = None, decks = 1
    ),
    text_signature = "(hands, wild, *, ace_mode='low', wild_points=15, joker_points=20, decks=1)"
)]
pub(crate) fn min_deadwood_batch(
    hands: &Bound<'_, PyAny>,
    wild: &Bound<'_, PyAny>,
    ace_mode: Option<&Bound<'_, PyAny>>,
    wild_points: Option<&Bound<'_, PyAny>>,
    joker_points: Option<&Bound<'_, PyAny>>,
    decks: u16,
) -> PyResult<Vec<u32>> {
    let py = hands.py();
    let r = rules_args(ace_mode, wild_points, joker_points)?;
    let wild = wild_arg(wild)?;
    if let Some((faces, [rows, cols])) = array_faces(hands, decks)? {
        if cols == 0 {
            return Ok(vec![0; rows]);
        }
        let views: Vec<&[u8]> = faces.chunks(cols).collect();
        return solve_batch(py, &views, wild, &r);
    }
    let n = hands.len().unwrap_or(0);
    let mut flat: Vec<u8> = Vec::with_capacity(n * 12);
    let mut ends: Vec<usize> = Vec::with_capacity(n);
    if let Ok(list) = hands.cast::<PyList>() {
        for hand in list.iter() {
            read_faces(&hand, &mut flat)?;
            ends.push(flat.len());
        }
    } else {
        for hand in hands.try_iter()? {
            read_faces(&hand?, &mut flat)?;
            ends.push(flat.len());
        }
    }
    solve_batch(py, &split_at_ends(&flat, &ends), wild, &r)
}

boundary_struct!(
    /// The hard agent's tuning (`three_thirteen_hard::HardParams`; built by
    /// `cardcore.three_thirteen.agents.hard_params` from an agent's class constants).
    ThreeThirteenHardParams => HardParams {
        out_bonus: f64,
        feed_penalty: f64,
        now_weight: f64,
        slack: u32,
        max_candidates: usize,
        gamma: f64,
    }
);

keyword_class!(
    /// What the hard agent sees at a decision (`three_thirteen_hard::View`, cards as faces,
    /// its meld rules as `ace_mode` code, `wild_points` and `joker_points`).
    ThreeThirteenView {
        hand: Vec<u8>,
        seen: Vec<u8>,
        num_decks: u8,
        jokers: u8,
        wild: u8,
        ace_mode: u8,
        wild_points: u32,
        joker_points: u32,
        final_turn: bool,
    }
);

impl ThreeThirteenView {
    fn view(&self) -> PyResult<View<'_>> {
        Ok(View {
            hand: &self.hand,
            seen: &self.seen,
            num_decks: self.num_decks,
            jokers: self.jokers,
            wild: self.wild,
            rules: rules(self.ace_mode, self.wild_points, self.joker_points)?,
            final_turn: self.final_turn,
        })
    }
}

/// Three-Thirteen hard agent, draw phase: whether to take the discard-pile top `top`.
#[pyfunction]
pub(crate) fn tt_hard_take_pile(
    view: &ThreeThirteenView,
    top: u8,
    can_go_out: bool,
    params: &ThreeThirteenHardParams,
) -> PyResult<bool> {
    hard::take_pile(&view.view()?, top, can_go_out, &HardParams::from(*params)).map_err(py_err)
}

/// Three-Thirteen hard agent, discard phase: the hand index to discard (never `banned`).
#[pyfunction]
pub(crate) fn tt_hard_discard(
    view: &ThreeThirteenView,
    banned: Option<usize>,
    feed: &[u8],
    params: &ThreeThirteenHardParams,
) -> PyResult<Option<usize>> {
    hard::discard(&view.view()?, banned, feed, &HardParams::from(*params)).map_err(py_err)
}

keyword_class!(
    /// What the expert's seat sees (`three_thirteen_expert::Table`, cards as faces, its meld
    /// rules as `ace_mode` code, `wild_points` and `joker_points`).
    ThreeThirteenTable {
        seat: usize,
        hand: Vec<u8>,
        pile: Vec<u8>,
        taken: Vec<Vec<u8>>,
        hand_sizes: Vec<usize>,
        stock_size: usize,
        num_decks: u8,
        jokers: u8,
        wild: u8,
        ace_mode: u8,
        wild_points: u32,
        joker_points: u32,
        discard_phase: bool,
        banned: Option<usize>,
        out_seat: Option<usize>,
        turn_in_round: u32,
        first: usize,
        min_own_turns: u32,
        max_turns: u32,
        forbid_return: bool,
    }
);

impl ThreeThirteenTable {
    fn table(&self) -> PyResult<Table> {
        Ok(Table {
            seat: self.seat,
            hand: self.hand.clone(),
            pile: self.pile.clone(),
            taken: self.taken.clone(),
            hand_sizes: self.hand_sizes.clone(),
            stock_size: self.stock_size,
            num_decks: self.num_decks,
            jokers: self.jokers,
            wild: self.wild,
            rules: rules(self.ace_mode, self.wild_points, self.joker_points)?,
            discard_phase: self.discard_phase,
            banned: self.banned,
            out_seat: self.out_seat,
            turn_in_round: self.turn_in_round,
            first: self.first,
            min_own_turns: self.min_own_turns,
            max_turns: self.max_turns,
            forbid_return: self.forbid_return,
        })
    }
}

keyword_class!(
    /// The expert's search (`three_thirteen_expert::ExpertParams`): `time_ms` a time budget or
    /// `None` (the rollout budget); `search` a name of `Search::NAMES` (`THREE_THIRTEEN_SEARCHES`);
    /// `hard` the tuning of its `hard` moves.
    ThreeThirteenExpertParams {
        rollouts: u32,
        time_ms: Option<f64>,
        max_candidates: usize,
        slack: u32,
        margin: f64,
        hard_rollouts: bool,
        infer_hands: bool,
        search: String,
        risk_weight: f64,
        hard: ThreeThirteenHardParams,
        infer_epsilon: f64,
    }
);

impl ThreeThirteenExpertParams {
    fn params(&self) -> PyResult<ExpertParams> {
        Ok(ExpertParams {
            rollouts: self.rollouts,
            time_limit: crate::budget::time_limit(self.time_ms)?,
            max_candidates: self.max_candidates,
            slack: self.slack,
            margin: self.margin,
            hard_rollouts: self.hard_rollouts,
            infer_hands: self.infer_hands,
            search: Search::named(&self.search).ok_or_else(|| {
                crate::errors::range_error(format!(
                    "search must be one of {}, not {:?}",
                    Search::NAMES.join(", "),
                    self.search
                ))
            })?,
            risk_weight: self.risk_weight,
            hard: self.hard.into(),
            infer: InferParams {
                epsilon: self.infer_epsilon,
                ..InferParams::default()
            },
        })
    }
}

boundary_struct!(
    /// The expert's decision (`three_thirteen_expert::Decision`): `choice` 0 (stock) or 1
    /// (pile) in the draw phase, else the hand index to discard; the deals searched and the
    /// candidates compared.
    ThreeThirteenDecision => Decision {
        choice: usize,
        deals: u32,
        candidates: usize,
    }
);

keyword_class!(
    /// The round's public history (`three_thirteen_infer::History`): the up-card (`None` when
    /// it was taken on the first turn and not seen since), and per completed turn in order the
    /// draw (`-1` the stock, `-2` the pile top not seen, else the face taken from the pile)
    /// and the face discarded.
    ThreeThirteenHistory {
        upcard: Option<u8>,
        draws: Vec<i16>,
        discards: Vec<u8>,
    }
);

impl ThreeThirteenHistory {
    fn history(&self) -> PyResult<History> {
        if self.draws.len() != self.discards.len() {
            return Err(crate::errors::range_error(
                "history: one draw per discard".to_owned(),
            ));
        }
        let turns = self
            .draws
            .iter()
            .zip(&self.discards)
            .map(|(&d, &discard)| {
                let draw = match d {
                    -1 => Draw::Stock,
                    -2 => Draw::PileUnknown,
                    f => Draw::Pile(u8::try_from(f).map_err(|_| {
                        crate::errors::range_error(format!("history: draw code {f}"))
                    })?),
                };
                Ok(Turn { draw, discard })
            })
            .collect::<PyResult<Vec<Turn>>>()?;
        Ok(History {
            upcard: self.upcard,
            turns,
        })
    }
}

keyword_class!(
    /// The match standings the `win` search plays for (`three_thirteen_win::Standings`): every
    /// seat's total of the rounds before this one and the rounds still to play after it.
    ThreeThirteenStandings {
        totals: Vec<i64>,
        rounds_after: u32,
    }
);

impl ThreeThirteenStandings {
    fn standings(&self) -> Standings {
        Standings {
            // exact: totals are far below 2^53
            #[allow(clippy::cast_precision_loss)]
            totals: self.totals.iter().map(|&t| t as f64).collect(),
            rounds_after: self.rounds_after,
        }
    }
}

/// Three-Thirteen expert agent: the decision at `table`. The search runs without the GIL.
/// `history` (the round's public history) is used by the `infer` search, `standings` by the
/// `win` search (without them it plays as `valuedraw`).
#[pyfunction]
#[pyo3(signature = (table, params, seed, history=None, standings=None))]
pub(crate) fn tt_expert_decide(
    py: Python<'_>,
    table: &ThreeThirteenTable,
    params: &ThreeThirteenExpertParams,
    seed: u64,
    history: Option<&ThreeThirteenHistory>,
    standings: Option<&ThreeThirteenStandings>,
) -> PyResult<ThreeThirteenDecision> {
    let p = params.params()?;
    let table = table.table()?;
    let history = history.map(ThreeThirteenHistory::history).transpose()?;
    let standings = standings.map(ThreeThirteenStandings::standings);
    py.detach(|| match (p.search, &history) {
        (Search::Infer, Some(h)) => infer::decide(&table, Some(h), &p, seed),
        (Search::Win, _) => win::decide(&table, standings.as_ref(), &p),
        _ => expert::decide(&table, &p, seed),
    })
    .map(ThreeThirteenDecision::from)
    .map_err(py_err)
}

/// The `win` search's chance that a seat wins the game (`three_thirteen_win::win_chance`):
/// `behind` its total minus each opponent's, this round's margin `mean` and the variances of
/// the shared part (`shared_var`) and of each opponent's own part (`own_var`).
#[pyfunction]
pub(crate) fn tt_win_chance(
    behind: Vec<f64>,
    mean: f64,
    shared_var: f64,
    own_var: f64,
) -> PyResult<f64> {
    let finite = behind
        .iter()
        .chain([&mean, &shared_var, &own_var])
        .all(|v| v.is_finite());
    if !finite || shared_var < 0.0 || own_var < 0.0 {
        return Err(option_error(format!(
            "tt_win_chance: finite values and variances >= 0, got {behind:?} {mean} {shared_var} {own_var}"
        )));
    }
    Ok(win::win_chance(&behind, mean, shared_var, own_var))
}

/// What the Rust agents read of an observation (any object with the attributes of
/// `cardcore.three_thirteen.Observation`, read here once; cards as faces through its
/// `face_of` table).
struct Seen {
    seat: usize,
    players: usize,
    /// The hand's physical ids (the moves name them).
    hand_ids: Vec<u8>,
    hand: Vec<u8>,
    pile: Vec<u8>,
    taken: Vec<Vec<u8>>,
    hand_sizes: Vec<usize>,
    stock_size: usize,
    num_decks: u8,
    jokers: u8,
    wild: u8,
    rules: MeldRules,
    discard_phase: bool,
    /// The hand index that may not be discarded (the card just taken from the pile).
    banned: Option<usize>,
    out_seat: Option<usize>,
    turn_in_round: u32,
    dealer: usize,
    own_turns: u32,
    min_own_turns: u32,
    forbid_return: bool,
}

impl Seen {
    fn read(obs: &Bound<'_, PyAny>) -> PyResult<Self> {
        let py = obs.py();
        let face_of: Vec<u8> = obs.getattr(pyo3::intern!(py, "face_of"))?.extract()?;
        let faces = |ids: &[u8]| -> PyResult<Vec<u8>> {
            ids.iter()
                .map(|&c| {
                    face_of
                        .get(usize::from(c))
                        .copied()
                        .ok_or_else(|| card_parse_error(format!("not a card id: {c}")))
                })
                .collect()
        };
        let hand_ids: Vec<u8> = obs.getattr(pyo3::intern!(py, "hand"))?.extract()?;
        let pile_ids: Vec<u8> = obs.getattr(pyo3::intern!(py, "discard_pile"))?.extract()?;
        let taken_ids: Vec<Vec<u8>> = obs.getattr(pyo3::intern!(py, "taken"))?.extract()?;
        let r = obs.getattr(pyo3::intern!(py, "rules"))?;
        let rules = rules(
            r.getattr(pyo3::intern!(py, "ace_code"))?.extract()?,
            r.getattr(pyo3::intern!(py, "wild_points"))?.extract()?,
            r.getattr(pyo3::intern!(py, "joker_points"))?.extract()?,
        )?;
        let phase: String = obs.getattr(pyo3::intern!(py, "phase"))?.extract()?;
        let discard_phase = phase != "draw";
        let forbid_return: bool = obs
            .getattr(pyo3::intern!(py, "forbid_return_of_discard_draw"))?
            .extract()?;
        let drawn: Option<u8> = obs.getattr(pyo3::intern!(py, "drawn"))?.extract()?;
        let from_pile: bool = obs
            .getattr(pyo3::intern!(py, "drawn_from_discard"))?
            .extract()?;
        let banned = drawn
            .filter(|_| discard_phase)
            .and_then(|d| banned_after_draw(forbid_return, from_pile, d))
            .and_then(|d| hand_ids.iter().position(|&c| c == d));
        Ok(Self {
            seat: obs.getattr(pyo3::intern!(py, "seat"))?.extract()?,
            players: obs.getattr(pyo3::intern!(py, "num_players"))?.extract()?,
            hand: faces(&hand_ids)?,
            pile: faces(&pile_ids)?,
            taken: taken_ids
                .iter()
                .map(|t| faces(t))
                .collect::<PyResult<_>>()?,
            hand_ids,
            hand_sizes: obs.getattr(pyo3::intern!(py, "hand_sizes"))?.extract()?,
            stock_size: obs.getattr(pyo3::intern!(py, "stock_size"))?.extract()?,
            num_decks: obs.getattr(pyo3::intern!(py, "num_decks"))?.extract()?,
            jokers: obs.getattr(pyo3::intern!(py, "jokers"))?.extract()?,
            wild: obs.getattr(pyo3::intern!(py, "wild_rank"))?.extract()?,
            rules,
            discard_phase,
            banned,
            out_seat: obs.getattr(pyo3::intern!(py, "out_seat"))?.extract()?,
            turn_in_round: obs.getattr(pyo3::intern!(py, "turn_in_round"))?.extract()?,
            dealer: obs.getattr(pyo3::intern!(py, "dealer"))?.extract()?,
            own_turns: obs.getattr(pyo3::intern!(py, "own_turns"))?.extract()?,
            min_own_turns: obs
                .getattr(pyo3::intern!(py, "min_own_turns_before_out"))?
                .extract()?,
            forbid_return,
        })
    }

    /// The pile and the others' pickups: what the seat has seen besides its hand.
    fn seen(&self) -> Vec<u8> {
        hard::seen_by(&self.pile, &self.taken, self.seat)
    }

    fn view<'a>(&'a self, seen: &'a [u8]) -> View<'a> {
        View {
            hand: &self.hand,
            seen,
            num_decks: self.num_decks,
            jokers: self.jokers,
            wild: self.wild,
            rules: self.rules,
            final_turn: self.out_seat.is_some(),
        }
    }

    /// The move's replay code: `-1` draw from the stock, `-2` take the pile top, else the id of
    /// the hand card at `index` (`None`: no choice).
    fn code(&self, index: Option<usize>) -> Option<i64> {
        index
            .and_then(|i| self.hand_ids.get(i))
            .map(|&c| i64::from(c))
    }
}

/// Three-Thirteen `hard` agent: its move at `observation` as a replay code (`-1` draw from
/// the stock, `-2` take the pile top, else the id of the card to discard; `None` when it has
/// no choice to make). Reads the observation itself: no view is built in Python.
#[pyfunction]
pub(crate) fn tt_hard_act(
    observation: &Bound<'_, PyAny>,
    params: &ThreeThirteenHardParams,
) -> PyResult<Option<i64>> {
    let o = Seen::read(observation)?;
    let seen = o.seen();
    let view = o.view(&seen);
    let params = HardParams::from(*params);
    if !o.discard_phase {
        let Some(&top) = o.pile.last() else {
            return Ok(None);
        };
        let take =
            hard::take_pile(&view, top, o.own_turns >= o.min_own_turns, &params).map_err(py_err)?;
        return Ok(Some(if take { -2 } else { -1 }));
    }
    let next = (o.seat + 1) % o.players.max(1);
    let feed = o.taken.get(next).map_or(&[][..], Vec::as_slice);
    let i = hard::discard(&view, o.banned, feed, &params).map_err(py_err)?;
    Ok(o.code(i))
}

/// Three-Thirteen `expert` agent: `(code, deals)`, its move at `observation` as a replay code
/// (as [`tt_hard_act`]) and the deals it searched. `max_turns`: the round's turn cap (not in
/// an observation). The search runs without the GIL.
#[pyfunction]
#[pyo3(signature = (observation, params, seed, max_turns, history=None, standings=None))]
pub(crate) fn tt_expert_act(
    py: Python<'_>,
    observation: &Bound<'_, PyAny>,
    params: &ThreeThirteenExpertParams,
    seed: u64,
    max_turns: u32,
    history: Option<&ThreeThirteenHistory>,
    standings: Option<&ThreeThirteenStandings>,
) -> PyResult<(Option<i64>, u32)> {
    let o = Seen::read(observation)?;
    let table = Table {
        seat: o.seat,
        hand: o.hand.clone(),
        pile: o.pile.clone(),
        taken: o.taken.clone(),
        hand_sizes: o.hand_sizes.clone(),
        stock_size: o.stock_size,
        num_decks: o.num_decks,
        jokers: o.jokers,
        wild: o.wild,
        rules: o.rules,
        discard_phase: o.discard_phase,
        banned: o.banned,
        out_seat: o.out_seat,
        turn_in_round: o.turn_in_round,
        first: (o.dealer + 1) % o.players.max(1),
        min_own_turns: o.min_own_turns,
        max_turns,
        forbid_return: o.forbid_return,
    };
    let p = params.params()?;
    let history = history.map(ThreeThirteenHistory::history).transpose()?;
    let standings = standings.map(ThreeThirteenStandings::standings);
    let d = py
        .detach(|| match (p.search, &history) {
            (Search::Infer, Some(h)) => infer::decide(&table, Some(h), &p, seed),
            (Search::Win, _) => win::decide(&table, standings.as_ref(), &p),
            _ => expert::decide(&table, &p, seed),
        })
        .map_err(py_err)?;
    let code = if o.discard_phase {
        o.code(Some(d.choice))
    } else {
        Some(if d.choice == 1 { -2 } else { -1 })
    };
    Ok((code, d.deals))
}
