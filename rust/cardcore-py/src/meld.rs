//! Bindings of `cardcore_engine::meld`: the Three-Thirteen meld solver.
//!
//! Hands cross the boundary as `bytes` of face codes; rules as `(ace_mode code, wild points,
//! joker points)`. Invalid input raises `OptionError` / `CardParseError`, never a panic.

use cardcore_engine::meld::{self, AceMode, MeldError, MeldKind, MeldRules};
use cardcore_engine::three_thirteen_hard::{self as hard, HardParams, View};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PySequence};

use crate::errors::{CardParseError, OptionError};

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
        out.extend(values.map_err(map_err)?);
        py.check_signals()?;
    }
    Ok(out)
}

fn map_err(e: MeldError) -> PyErr {
    match e {
        MeldError::BadFace(_) => CardParseError::new_err(e.to_string()),
        _ => OptionError::new_err(e.to_string()),
    }
}

fn rules(ace_mode: u8, wild_points: u32, joker_points: u32) -> PyResult<MeldRules> {
    let ace_mode = AceMode::from_code(ace_mode).ok_or_else(|| {
        OptionError::new_err(format!(
            "ace_mode code must be 0 (low), 1 (high) or 2 (both), got {ace_mode}"
        ))
    })?;
    let r = MeldRules {
        ace_mode,
        wild_points,
        joker_points,
    };
    meld::check_rules(3, &r).map_err(map_err)?;
    Ok(r)
}

/// Minimum deadwood of one hand.
#[pyfunction]
#[pyo3(signature = (faces, wild, ace_mode = 0, wild_points = 15, joker_points = 20))]
fn meld_deadwood(
    faces: &[u8],
    wild: u32,
    ace_mode: u8,
    wild_points: u32,
    joker_points: u32,
) -> PyResult<u32> {
    let r = rules(ace_mode, wild_points, joker_points)?;
    meld::min_deadwood(faces, wild, &r).map_err(map_err)
}

/// Deadwood left after discarding each card of the hand, index-aligned.
#[pyfunction]
#[pyo3(signature = (faces, wild, ace_mode = 0, wild_points = 15, joker_points = 20))]
fn meld_discards(
    faces: &[u8],
    wild: u32,
    ace_mode: u8,
    wild_points: u32,
    joker_points: u32,
) -> PyResult<Vec<u32>> {
    let r = rules(ace_mode, wild_points, joker_points)?;
    meld::discard_deadwoods(faces, wild, &r).map_err(map_err)
}

/// Minimum deadwood of each hand of a sequence of `bytes`; the GIL is released.
#[pyfunction]
#[pyo3(signature = (hands, wild, ace_mode = 0, wild_points = 15, joker_points = 20))]
fn meld_deadwood_batch(
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
    let mut start = 0;
    let mut views: Vec<&[u8]> = Vec::with_capacity(ends.len());
    for &e in &ends {
        views.push(&flat[start..e]);
        start = e;
    }
    solve_batch(py, &views, wild, &r)
}

/// Minimum deadwood of `len(buf) // hand_size` hands packed back to back in one `bytes`.
#[pyfunction]
#[pyo3(signature = (buf, hand_size, wild, ace_mode = 0, wild_points = 15, joker_points = 20))]
fn meld_deadwood_packed(
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
        return Err(OptionError::new_err(format!(
            "buffer of {} bytes is not a whole number of {hand_size}-card hands",
            buf.len()
        )));
    }
    let hands: Vec<&[u8]> = buf.chunks(hand_size).collect();
    solve_batch(py, &hands, wild, &r)
}

/// A meld as `(kind, [(hand index, face stood for or -1)])`; kind 0 = set, 1 = run.
type PyMeld = (u8, Vec<(usize, i16)>);

/// One optimal arrangement: `(melds, deadwood indices, points)`.
#[pyfunction]
#[pyo3(signature = (faces, wild, ace_mode = 0, wild_points = 15, joker_points = 20))]
fn meld_best(
    faces: &[u8],
    wild: u32,
    ace_mode: u8,
    wild_points: u32,
    joker_points: u32,
) -> PyResult<(Vec<PyMeld>, Vec<usize>, u32)> {
    let r = rules(ace_mode, wild_points, joker_points)?;
    let a = meld::best_arrangement(faces, wild, &r).map_err(map_err)?;
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
    Ok((melds, a.deadwood, a.points))
}

/// The hard agent's tuning: `(out_bonus, feed_penalty, now_weight, slack, max_candidates, gamma)`.
type PyHardParams = (f64, f64, f64, u32, usize, f64);

/// The hard agent's view: `(hand, seen, num_decks, jokers, wild, final_turn)` with the rules.
type PyView<'a> = (&'a [u8], &'a [u8], u8, u8, u8, bool);

fn hard_inputs<'a>(
    view: PyView<'a>,
    rules_: (u8, u32, u32),
    params: PyHardParams,
) -> PyResult<(View<'a>, HardParams)> {
    let (hand, seen, num_decks, jokers, wild, final_turn) = view;
    let rules = rules(rules_.0, rules_.1, rules_.2)?;
    let (out_bonus, feed_penalty, now_weight, slack, max_candidates, gamma) = params;
    Ok((
        View {
            hand,
            seen,
            num_decks,
            jokers,
            wild,
            rules,
            final_turn,
        },
        HardParams {
            out_bonus,
            feed_penalty,
            now_weight,
            slack,
            max_candidates,
            gamma,
        },
    ))
}

/// Three-Thirteen hard agent, draw phase: whether to take the discard-pile top `top`.
#[pyfunction]
fn tt_hard_take_pile(
    view: PyView<'_>,
    top: u8,
    can_go_out: bool,
    rules: (u8, u32, u32),
    params: PyHardParams,
) -> PyResult<bool> {
    let (v, p) = hard_inputs(view, rules, params)?;
    hard::take_pile(&v, top, can_go_out, &p).map_err(map_err)
}

/// Three-Thirteen hard agent, discard phase: the hand index to discard (never `banned`).
#[pyfunction]
fn tt_hard_discard(
    view: PyView<'_>,
    banned: Option<usize>,
    feed: &[u8],
    rules: (u8, u32, u32),
    params: PyHardParams,
) -> PyResult<Option<usize>> {
    let (v, p) = hard_inputs(view, rules, params)?;
    hard::discard(&v, banned, feed, &p).map_err(map_err)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(tt_hard_take_pile, m)?)?;
    m.add_function(wrap_pyfunction!(tt_hard_discard, m)?)?;
    m.add_function(wrap_pyfunction!(meld_deadwood, m)?)?;
    m.add_function(wrap_pyfunction!(meld_discards, m)?)?;
    m.add_function(wrap_pyfunction!(meld_deadwood_batch, m)?)?;
    m.add_function(wrap_pyfunction!(meld_deadwood_packed, m)?)?;
    m.add_function(wrap_pyfunction!(meld_best, m)?)?;
    Ok(())
}
