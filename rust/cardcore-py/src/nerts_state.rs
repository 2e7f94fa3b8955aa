//! Nerts's extras on the generic `RealtimeState` (a new round with its agents, moves by code,
//! the observation, the table field by field, the event log, the inputs and the decks, for
//! `cardcore.nerts`); the rules are `cardcore_engine::games::nerts`.

use cardcore_engine::games::RealtimeState as _;
use cardcore_engine::games::nerts::{self, Round, State as Rulebook};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyDict, PyTuple};

use crate::errors::{option_error, py_err, state_format_error};
use crate::nerts_round::{AgentDict, AgentRow, OptionsDict, agent, agent_row, options};
use crate::realtime::{AnyRealtime, PyAgents, RealtimeState};

/// Card ids as Python ints (a `Vec<u8>` would become `bytes`).
fn ids(cards: &[u8]) -> Vec<u16> {
    cards.iter().map(|&c| u16::from(c)).collect()
}

/// Piles of card ids as lists of Python ints.
fn piles<P: std::ops::Deref<Target = [u8]>>(cards: &[P]) -> Vec<Vec<u16>> {
    cards.iter().map(|p| ids(p)).collect()
}

/// A pending event: `(t, tiebreak, kind, code)`.
type PendingRow = (i64, u64, u8, Option<u32>);

fn rulebook(state: &RealtimeState) -> &Rulebook {
    let AnyRealtime::Nerts(s) = &state.inner;
    s
}

fn rulebook_mut(state: &mut RealtimeState) -> &mut Rulebook {
    let AnyRealtime::Nerts(s) = &mut state.inner;
    s
}

fn check_seat(st: &Rulebook, seat: usize) -> PyResult<()> {
    let p = st.round.table.num_players();
    if seat < p {
        Ok(())
    } else {
        Err(option_error(format!(
            "no seat {seat} at a {p}-player table"
        )))
    }
}

/// What `seat` sees (`NertsObservation`'s fields): `(now, foundation piles, players, waste
/// fan, recycles, stalemates)`, each player `(nerts_count, nerts_top, stock_count,
/// waste_count, waste_top, work piles, flip_count, recycles)` (tops `None` when the pile is
/// empty).
pub(crate) fn observation_tuple<'py>(
    py: Python<'py>,
    round: &Round,
    seat: usize,
) -> PyResult<Bound<'py, PyTuple>> {
    let t = &round.table;
    type Player = (
        usize,
        Option<u16>,
        usize,
        usize,
        Option<u16>,
        Vec<Vec<u16>>,
        u8,
        u32,
    );
    let players: Vec<Player> = t
        .seats
        .iter()
        .map(|p| {
            (
                p.nerts.len(),
                p.nerts.last().map(|&c| u16::from(c)),
                p.cycle.stock_len(),
                p.cycle.waste_len(),
                p.waste().last().map(|&c| u16::from(c)),
                piles(&p.work),
                p.flip_count,
                p.recycles,
            )
        })
        .collect();
    let me = &t.seats[seat];
    (
        round.now,
        piles(&t.foundations),
        players,
        ids(me.waste_fan()),
        me.recycles,
        me.stalemates,
    )
        .into_pyobject(py)
}

/// A new round of `options` (the dict `Round.run` hands over, and the Nerts pile size) dealt
/// from `seed`. `agents[s]` is a built-in agent's settings (`native_agent_state`) or `None`;
/// seats with `python[s]` are played by `decide(seat, observation, legal codes, rng state) ->
/// (code or None, rng state)`. The agents take their first decisions at once.
///
/// `decks[s]` (default: dealt from `seed`) is seat `s`'s 52 cards (ids `52 s..52 s + 52`, each
/// once) in dealing order; the round ends with `"cap"` after `max_ms` on the clock or
/// `max_events` events.
#[pyfunction]
#[pyo3(signature = (
    options, nerts_pile, seed, agents, python, decide = None, *, decks = None,
    max_ms = nerts::MAX_ROUND_MS, max_events = nerts::MAX_EVENTS,
))]
#[allow(clippy::too_many_arguments)]
pub fn nerts_new(
    py: Python<'_>,
    options: OptionsDict,
    nerts_pile: u8,
    seed: u64,
    agents: Vec<Option<AgentDict>>,
    python: Vec<bool>,
    decide: Option<Py<PyAny>>,
    decks: Option<Vec<Vec<u16>>>,
    max_ms: i64,
    max_events: u64,
) -> PyResult<RealtimeState> {
    let mut rules = self::options(options)?;
    rules.nerts_pile = nerts_pile;
    let n = agents.len();
    if !(nerts::INFO.min_players..=nerts::INFO.max_players).contains(&n) || python.len() != n {
        return Err(option_error("need 2..=4 seats and one entry per seat"));
    }
    if !rules.check() {
        return Err(option_error("these Nerts options cannot be played"));
    }
    let agents = agents
        .into_iter()
        .map(|a| a.map(agent).transpose())
        .collect::<PyResult<Vec<_>>>()?;
    let mut outside = PyAgents {
        py,
        seats: &python,
        decide: decide.as_ref(),
    };
    let decks = match decks {
        None => (0..n).map(|s| nerts::deal_deck(seed, s)).collect(),
        Some(d) => checked_decks(&d, n)?,
    };
    let caps = (max_ms, max_events);
    let st =
        Rulebook::dealt_with(rules, seed, decks, caps, agents, &mut outside).map_err(|e| e.0)?;
    Ok(RealtimeState::new(AnyRealtime::Nerts(st), python, decide))
}

/// `decks` as card ids, checked: one per seat, seat `s`'s the 52 ids `52 s..52 s + 52` in
/// some order.
fn checked_decks(decks: &[Vec<u16>], n: usize) -> PyResult<Vec<Vec<u8>>> {
    if decks.len() != n {
        return Err(state_format_error(format!(
            "need one deck per player: {n} decks, got {}",
            decks.len()
        )));
    }
    decks
        .iter()
        .enumerate()
        .map(|(s, d)| {
            let base = u16::try_from(52 * s).unwrap_or(u16::MAX);
            let mut seen = [false; 52];
            for &c in d {
                let i = usize::from(c.wrapping_sub(base));
                if c < base || i >= 52 || std::mem::replace(&mut seen[i], true) {
                    return Err(state_format_error(format!(
                        "seat {s}'s deck must hold its 52 cards (ids {base}..{}) once each",
                        base + 52
                    )));
                }
            }
            if d.len() != 52 {
                return Err(state_format_error(format!(
                    "seat {s}'s deck has {} cards, not 52",
                    d.len()
                )));
            }
            Ok(d.iter()
                .map(|&c| u8::try_from(c).unwrap_or(u8::MAX))
                .collect())
        })
        .collect()
}

/// Replaces the callable that plays the Python seats (a copy's own agents).
#[pyfunction]
pub fn nerts_set_decide(mut state: PyRefMut<'_, RealtimeState>, decide: Option<Py<PyAny>>) {
    state.decide = decide;
}

/// `seat`'s legal moves as codes (the generator's order, `Undo` last); none once over.
#[pyfunction]
pub fn nerts_legal_codes(state: PyRef<'_, RealtimeState>, seat: usize) -> PyResult<Vec<u32>> {
    let st = rulebook(&state);
    check_seat(st, seat)?;
    Ok(st.round.legal_codes(seat))
}

/// Whether move code `code` would be legal for `seat` if it executed now.
#[pyfunction]
pub fn nerts_is_legal(state: PyRef<'_, RealtimeState>, seat: usize, code: u32) -> PyResult<bool> {
    let st = rulebook(&state);
    check_seat(st, seat)?;
    Ok(st.round.running() && st.round.table.is_legal(seat, code))
}

/// Schedules move code `code` of `seat` at `t_ms`; `IllegalMoveError` as `submit`.
#[pyfunction]
pub fn nerts_submit_code(
    mut state: PyRefMut<'_, RealtimeState>,
    seat: usize,
    code: u32,
    t_ms: i64,
) -> PyResult<()> {
    let st = rulebook_mut(&mut state);
    check_seat(st, seat)?;
    st.submit_code(seat, code, t_ms).map_err(py_err)
}

/// `seat`'s observation as one tuple (see the fields of `NertsObservation`).
#[pyfunction]
pub fn nerts_observation<'py>(
    py: Python<'py>,
    state: PyRef<'_, RealtimeState>,
    seat: usize,
) -> PyResult<Bound<'py, PyTuple>> {
    let st = rulebook(&state);
    check_seat(st, seat)?;
    observation_tuple(py, &st.round, seat)
}

/// The whole table and clock as a dict of plain ints and lists: `now`, `end`, `caller`,
/// `executed`, `running` (the table's), `stalemates`, `recycles_since`, `sleeping`,
/// `pending` (per seat `(t, tiebreak, kind, code)` or `None`), `foundations`, `scores` (if
/// it ended now), `seed` and `seats` (per seat its piles, `recycles`, `flip_count`,
/// `stalemates` and `undo`, the undo records as `(code, kind, src, dst, depth, card)`).
#[pyfunction]
pub fn nerts_parts<'py>(
    py: Python<'py>,
    state: PyRef<'_, RealtimeState>,
) -> PyResult<Bound<'py, PyDict>> {
    let st = rulebook(&state);
    let r = &st.round;
    let t = &r.table;
    let d = PyDict::new(py);
    d.set_item("seed", st.seed)?;
    d.set_item("now", r.now)?;
    d.set_item("end", r.end)?;
    d.set_item("caller", r.caller)?;
    d.set_item("executed", r.executed)?;
    d.set_item("running", t.running)?;
    d.set_item("stalemates", r.stalemates)?;
    d.set_item("recycles_since", r.recycles_since.clone())?;
    d.set_item("sleeping", r.sleeping.clone())?;
    let pending: Vec<Option<PendingRow>> = r
        .pending
        .iter()
        .map(|p| p.map(|p| (p.t, p.tiebreak, p.kind, p.action)))
        .collect();
    d.set_item("pending", pending)?;
    d.set_item("foundations", piles(&t.foundations))?;
    d.set_item("scores", r.scores())?;
    let seats = pyo3::types::PyList::empty(py);
    for (p, stack) in t.seats.iter().zip(&t.undo) {
        let s = PyDict::new(py);
        s.set_item("nerts", ids(&p.nerts))?;
        s.set_item("work", piles(&p.work))?;
        s.set_item("stock", ids(&p.stock()))?;
        s.set_item("waste", ids(p.waste()))?;
        s.set_item("recycles", p.recycles)?;
        s.set_item("flip_count", p.flip_count)?;
        s.set_item("stalemates", p.stalemates)?;
        let undo: Vec<(u32, u8, u8, usize, usize, i32)> = stack
            .iter()
            .map(|u| (u.action, u.kind, u.src, u.dst, u.depth, u.card))
            .collect();
        s.set_item("undo", undo)?;
        seats.append(s)?;
    }
    d.set_item("seats", seats)?;
    Ok(d)
}

/// The event log from row `start` on: `(t_ms, seat, action text, "ok" | "fail")` rows.
#[pyfunction]
#[pyo3(signature = (state, start = 0))]
pub fn nerts_log(
    state: PyRef<'_, RealtimeState>,
    start: usize,
) -> Vec<(i64, i32, String, &'static str)> {
    let st = rulebook(&state);
    st.round
        .log
        .iter()
        .skip(start)
        .map(|r| {
            (
                r.t,
                r.seat,
                r.text.clone(),
                if r.ok { "ok" } else { "fail" },
            )
        })
        .collect()
}

/// Rows in the event log.
#[pyfunction]
pub fn nerts_log_len(state: PyRef<'_, RealtimeState>) -> usize {
    rulebook(&state).round.log.len()
}

/// Every submitted move: `(now, seat, t_ms, code)` rows.
#[pyfunction]
pub fn nerts_inputs(state: PyRef<'_, RealtimeState>) -> Vec<(i64, usize, i64, u32)> {
    rulebook(&state)
        .round
        .inputs
        .iter()
        .map(|i| (i.now, i.seat, i.t, i.action))
        .collect()
}

/// Each seat's 52 cards in dealing order (hidden information: records and replays only).
#[pyfunction]
pub fn nerts_decks(state: PyRef<'_, RealtimeState>) -> Vec<Vec<u16>> {
    piles(&rulebook(&state).decks())
}

/// Per seat, the built-in agent's searches run and its stock memory (`None` for a seat
/// without one): `(searches, cycle or None, waste, stalemates, last_ms)`.
#[pyfunction]
pub fn nerts_agents(state: PyRef<'_, RealtimeState>) -> Vec<Option<AgentRow>> {
    rulebook(&state)
        .agents
        .0
        .iter()
        .map(|a| a.as_ref().map(agent_row))
        .collect()
}

/// The next event's clock reading, or `None` when nothing is scheduled (or it is over).
#[pyfunction]
pub fn nerts_next_event(state: PyRef<'_, RealtimeState>) -> Option<i64> {
    let r = &rulebook(&state).round;
    if r.running() {
        r.next_event().map(|(t, _)| t)
    } else {
        None
    }
}

/// `(end, caller, points)`: how the round ended (`None` while on), the caller, and the
/// round's points as they stand.
#[pyfunction]
pub fn nerts_result(
    state: PyRef<'_, RealtimeState>,
) -> (Option<&'static str>, Option<usize>, Vec<i32>) {
    let r = &rulebook(&state).round;
    (r.end, r.caller, r.scores())
}

/// Every seat's observation tensor (native-endian float32 bytes, `num_players` rows of
/// `observation_size`) and action mask (`num_players` rows of `num_actions + 1` 0/1 bytes,
/// the last column "wait", always 1; a seat with a move scheduled may only wait).
fn views<'py>(
    py: Python<'py>,
    st: &Rulebook,
) -> PyResult<(Bound<'py, PyByteArray>, Bound<'py, PyByteArray>)> {
    let (p, size, a) = (st.num_players(), st.observation_size(), st.num_actions());
    let mut out = vec![0.0f32; p * size];
    for (seat, row) in out.chunks_exact_mut(size).enumerate() {
        st.write_observation(seat, row);
    }
    let obs = crate::rl::bytes_of(py, &out, f32::to_ne_bytes)?;
    let masks = PyByteArray::new_with(py, p * (a + 1), |m| {
        for (seat, row) in m.chunks_exact_mut(a + 1).enumerate() {
            if st.is_pending(seat) {
                row.fill(0);
            } else {
                st.write_mask(seat, &mut row[..a]);
            }
            row[a] = 1;
        }
        Ok(())
    })?;
    Ok((obs, masks))
}

/// Every seat's observation tensor and action mask (see `nerts_tick`).
#[pyfunction]
pub fn nerts_views<'py>(
    py: Python<'py>,
    state: PyRef<'_, RealtimeState>,
) -> PyResult<(Bound<'py, PyByteArray>, Bound<'py, PyByteArray>)> {
    views(py, rulebook(&state))
}

/// A row of `nerts_tick`: the tensors, the masks, per move whether it was submitted, per
/// seat whether a move of its failed.
type Tick<'py> = (
    Bound<'py, PyByteArray>,
    Bound<'py, PyByteArray>,
    Vec<bool>,
    Vec<bool>,
);

/// One tick of the Parallel environment in one call: `moves` (`(seat, action id)` pairs,
/// checked by the caller) are submitted at now in that order (a seat with a move scheduled
/// is skipped), the clock runs to `t_ms`, and every seat's tensor and mask are written (see
/// `nerts_views`). Returns them, per move whether it was submitted, and per seat whether a
/// move of its failed during the tick.
#[pyfunction]
pub fn nerts_tick<'py>(
    py: Python<'py>,
    mut state: PyRefMut<'_, RealtimeState>,
    moves: Vec<(usize, i64)>,
    t_ms: i64,
) -> PyResult<Tick<'py>> {
    let st = rulebook(&state);
    for &(seat, _) in &moves {
        check_seat(st, seat)?;
    }
    let seen = st.round.log.len();
    let mut submitted = Vec::with_capacity(moves.len());
    {
        let st = rulebook_mut(&mut state);
        let now = st.now();
        for &(seat, action) in &moves {
            let ok = !st.is_pending(seat);
            if ok {
                st.submit(seat, action, now).map_err(py_err)?;
            }
            submitted.push(ok);
        }
    }
    state.drive(py, |s, a| s.advance_to_with(t_ms, a))?;
    let st = rulebook(&state);
    let mut failed = vec![false; st.num_players()];
    for row in &st.round.log[seen.min(st.round.log.len())..] {
        if !row.ok
            && let Ok(s) = usize::try_from(row.seat)
        {
            failed[s] = true;
        }
    }
    let (obs, masks) = views(py, st)?;
    Ok((obs, masks, submitted, failed))
}
