//! Bindings of `cardcore_engine::nerts`: move generation for one state or a batch.

use cardcore_engine::nerts::{self, MoveBuf, NertsError, PlayerView, STATE_BYTES};
use cardcore_engine::nerts_rollout::{
    FullSeat, PublicSeat, Racing, Request, RolloutError, Rules, SeatKnowledge, Timing, TraceStep,
    choose, evaluate, greedy_move, knowledge as seat_knowledge, trace,
};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::errors::{option_error, py_err};

/// Every legal move of one 32-byte player state, as 4 bytes per move.
#[pyfunction]
fn nerts_moves<'py>(py: Python<'py>, state: &[u8]) -> PyResult<Bound<'py, PyBytes>> {
    let v = PlayerView::decode(state).map_err(py_err)?;
    let mut buf = MoveBuf::default();
    nerts::generate(&v, &mut buf);
    let mut out = [0u8; nerts::MAX_MOVES * nerts::MOVE_BYTES];
    for (chunk, m) in out.chunks_exact_mut(4).zip(buf.as_slice()) {
        chunk.copy_from_slice(&m.to_le_bytes());
    }
    Ok(PyBytes::new(py, &out[..buf.len() * nerts::MOVE_BYTES]))
}

/// Every legal move of one state as a list of packed `u32` codes (`kind | src<<8 | depth<<16 | dst<<24`).
#[pyfunction]
fn nerts_move_codes(state: &[u8]) -> PyResult<Vec<u32>> {
    let v = PlayerView::decode(state).map_err(py_err)?;
    let mut buf = MoveBuf::default();
    nerts::generate(&v, &mut buf);
    Ok(buf.as_slice().to_vec())
}

/// Moves of many concatenated states (GIL released): `(counts, moves)` where `counts` holds one
/// little-endian u16 per state and `moves` the 4-byte moves of all states in order.
#[pyfunction]
fn nerts_moves_batch<'py>(
    py: Python<'py>,
    states: &[u8],
) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
    let owned = states.to_vec();
    let (counts, moves) = py
        .detach(move || {
            let mut counts = Vec::new();
            let mut moves = Vec::new();
            nerts::generate_batch(&owned, &mut counts, &mut moves).map(|()| (counts, moves))
        })
        .map_err(py_err)?;
    Ok((PyBytes::new(py, &counts), PyBytes::new(py, &moves)))
}

/// Total number of legal moves over many concatenated states, repeated `repeat` times (GIL
/// released); the move-generation throughput kernel used by the benchmarks.
#[pyfunction]
#[pyo3(signature = (states, repeat = 1))]
fn nerts_count_batch(py: Python<'_>, states: &[u8], repeat: u32) -> PyResult<u64> {
    if states.len() % STATE_BYTES != 0 {
        return Err(option_error("states must be a multiple of 32 bytes"));
    }
    let owned = states.to_vec();
    py.detach(move || -> Result<u64, NertsError> {
        let mut total = 0u64;
        for _ in 0..repeat {
            total += nerts::count_batch(&owned)?;
        }
        Ok(total)
    })
    .map_err(py_err)
}

/// One seat's knowledge: `(nerts_count, nerts_top, work, cycle, waste, pool, recycles, found)`.
type SeatTuple = (u8, u8, Vec<Vec<u8>>, Vec<u8>, u8, Vec<u8>, u32, u8);
/// `(m_play, m_build, m_seq, m_flip, m_call, sigma, miss, min_ms, max_ms, retry_ms)`.
type TimingTuple = (f64, f64, f64, f64, f64, f64, f64, u32, u32, u32);
/// `(num_work, flip_count, partial, fill_any, max_recycles, foundation_points, nerts_penalty,
/// nerts_bonus)`.
type RulesTuple = (u8, u8, bool, bool, u32, i32, i32, i32);

fn knowledge(seats: Vec<SeatTuple>) -> Vec<SeatKnowledge> {
    seats
        .into_iter()
        .map(
            |(nerts_count, nerts_top, work, cycle, waste, pool, recycles, found)| SeatKnowledge {
                nerts_count,
                nerts_top,
                work,
                cycle,
                waste,
                pool,
                recycles,
                found,
            },
        )
        .collect()
}

fn timing_of(t: TimingTuple) -> Timing {
    let (m_play, m_build, m_seq, m_flip, m_call, sigma, miss, min_ms, max_ms, retry_ms) = t;
    Timing {
        m_play,
        m_build,
        m_seq,
        m_flip,
        m_call,
        sigma,
        miss,
        min_ms,
        max_ms,
        retry_ms,
    }
}

fn rules_of(r: RulesTuple) -> Rules {
    let (num_work, flip_count, partial, fill_any, max_recycles, fp, penalty, bonus) = r;
    Rules {
        num_work,
        flip_count,
        partial,
        fill_any,
        max_recycles,
        foundation_points: fp,
        nerts_penalty: penalty,
        nerts_bonus: bonus,
    }
}

/// The move code the rollouts' greedy policy plays for `seat` (`None` = it waits); the same
/// arguments as `nerts_rollouts`. For checking the simulator against `GreedyAgent`.
#[pyfunction]
fn nerts_greedy_move(
    seats: Vec<SeatTuple>,
    need: [[u8; 16]; 4],
    seat: usize,
    rules: RulesTuple,
) -> PyResult<Option<u32>> {
    greedy_move(&knowledge(seats), &need, seat, &rules_of(rules)).map_err(py_err)
}

/// Monte Carlo look-ahead (GIL released): for each of `samples` sampled deals and each candidate
/// move code of seat `root` (sample-major), `(seats - 1)` x the root's score minus the sum of
/// the other scores after `horizon_ms` of greedy real-time play (see
/// `cardcore_engine::nerts_rollout`).
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn nerts_rollouts(
    py: Python<'_>,
    seats: Vec<SeatTuple>,
    need: [[u8; 16]; 4],
    root: usize,
    horizon_ms: u32,
    samples: u32,
    seed: u64,
    timing: TimingTuple,
    rules: RulesTuple,
    candidates: Vec<u32>,
) -> PyResult<Vec<i32>> {
    let look = (horizon_ms, samples, seed);
    detached(
        py,
        knowledge(seats),
        need,
        root,
        look,
        timing,
        rules,
        |req| evaluate(req, &candidates),
    )
}

/// Runs `f` on a look-ahead request (`look = (horizon_ms, samples, seed)`) with the GIL
/// released; engine errors become `ValueError`.
#[allow(clippy::too_many_arguments)]
fn detached<T: Send>(
    py: Python<'_>,
    seats: Vec<SeatKnowledge>,
    need: [[u8; 16]; 4],
    root: usize,
    look: (u32, u32, u64),
    timing: TimingTuple,
    rules: RulesTuple,
    f: impl FnOnce(&Request<'_>) -> Result<T, RolloutError> + Send,
) -> PyResult<T> {
    let (horizon_ms, samples, seed) = look;
    let (timing, rules) = (timing_of(timing), rules_of(rules));
    py.detach(move || {
        f(&Request {
            seats: &seats,
            need,
            root,
            horizon_ms,
            samples,
            seed,
            timing,
            rules,
        })
    })
    .map_err(py_err)
}

/// Every seat as an observation's seat knows it, from the `NertsObservation` and that seat's
/// remembered stock cycle (see `cardcore_engine::nerts_rollout::knowledge`).
fn observed(
    obs: &Bound<'_, PyAny>,
    own_cycle: &[Option<u8>],
) -> PyResult<(Vec<SeatKnowledge>, [[u8; 16]; 4], usize)> {
    let py = obs.py();
    let me: usize = obs.getattr(intern!(py, "seat"))?.extract()?;
    let recycles: u32 = obs.getattr(intern!(py, "recycles"))?.extract()?;
    let piles: Vec<Vec<u8>> = obs.getattr(intern!(py, "foundation_piles"))?.extract()?;
    let mut players = Vec::new();
    for p in obs.getattr(intern!(py, "players"))?.try_iter()? {
        let p = p?;
        players.push(PublicSeat {
            nerts_count: p.getattr(intern!(py, "nerts_count"))?.extract()?,
            nerts_top: p.getattr(intern!(py, "nerts_top"))?.extract()?,
            work: p.getattr(intern!(py, "work"))?.extract()?,
            waste_count: p.getattr(intern!(py, "waste_count"))?.extract()?,
            stock_count: p.getattr(intern!(py, "stock_count"))?.extract()?,
            waste_top: p.getattr(intern!(py, "waste_top"))?.extract()?,
        });
    }
    let (seats, need) =
        seat_knowledge(&players, &piles, me, own_cycle, recycles).map_err(py_err)?;
    Ok((seats, need, me))
}

/// One seat's knowledge as Python lists (a `Vec<u8>` would convert to `bytes`).
type SeatLists = (u8, u8, Vec<Vec<u16>>, Vec<u16>, u8, Vec<u16>, u32, u8);

/// `(seats, need)` for `nerts_rollouts` from a `NertsObservation` and its seat's remembered
/// stock cycle (`None` for a card not seen).
#[pyfunction]
fn nerts_knowledge(
    obs: &Bound<'_, PyAny>,
    own_cycle: Vec<Option<u8>>,
) -> PyResult<(Vec<SeatLists>, Vec<Vec<u16>>)> {
    let (seats, need, _) = observed(obs, &own_cycle)?;
    let list = |v: Vec<u8>| v.into_iter().map(u16::from).collect::<Vec<u16>>();
    let need = need.into_iter().map(|row| list(row.to_vec())).collect();
    let tuples = seats
        .into_iter()
        .map(|k| {
            (
                k.nerts_count,
                k.nerts_top,
                k.work.into_iter().map(list).collect(),
                list(k.cycle),
                k.waste,
                list(k.pool),
                k.recycles,
                k.found,
            )
        })
        .collect();
    Ok((tuples, need))
}

/// The look-ahead's choice for the observation's seat (GIL released while it plays): the index
/// of the candidate with the best mean value plus its `bonus` (points), the candidates raced as
/// `racing = (first, step, z, max_loss)` says (see `cardcore_engine::nerts_rollout::choose`); `samples`
/// is the most deals a candidate gets.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn nerts_choose(
    py: Python<'_>,
    obs: &Bound<'_, PyAny>,
    own_cycle: Vec<Option<u8>>,
    horizon_ms: u32,
    samples: u32,
    seed: u64,
    timing: TimingTuple,
    rules: RulesTuple,
    candidates: Vec<u32>,
    bonus: Vec<f64>,
    racing: (u32, u32, f64, f64),
) -> PyResult<usize> {
    let (seats, need, root) = observed(obs, &own_cycle)?;
    let (first, step, z, max_loss) = racing;
    let look = (horizon_ms, samples, seed);
    detached(py, seats, need, root, look, timing, rules, |req| {
        choose(
            req,
            &candidates,
            &bonus,
            &Racing {
                first,
                step,
                z,
                max_loss,
            },
        )
    })
}

/// A seat laid out in full: a dict with the fields of `nerts_rollout::FullSeat` (card lists
/// come back as `bytes`).
#[derive(FromPyObject, IntoPyObject)]
#[pyo3(from_item_all)]
struct SeatDict {
    nerts: Vec<u8>,
    work: Vec<Vec<u8>>,
    cycle: Vec<u8>,
    waste: u8,
    recycles: u32,
    found: u8,
}

/// `From` both ways between two structs with the same named fields.
macro_rules! same_fields {
    ($a:ident, $b:ident { $($f:ident),* }) => {
        impl From<$a> for $b {
            fn from(x: $a) -> Self {
                Self { $($f: x.$f),* }
            }
        }
        impl From<$b> for $a {
            fn from(x: $b) -> Self {
                Self { $($f: x.$f),* }
            }
        }
    };
}

same_fields!(
    SeatDict,
    FullSeat {
        nerts,
        work,
        cycle,
        waste,
        recycles,
        found
    }
);

/// One step of `nerts_sim_trace` as a dict: `legal`, `seats`, `need` (4 x 16 bytes).
#[derive(IntoPyObject)]
struct StepDict {
    legal: bool,
    seats: Vec<SeatDict>,
    need: Vec<[u8; 16]>,
}

/// Test hook: the rollout simulator's own transitions from a table laid out in full (seat
/// dicts, foundation piles as card ids), trying each `(seat, move code)` in turn; one dict
/// per step (see `cardcore_engine::nerts_rollout::trace`).
#[pyfunction]
fn nerts_sim_trace(
    seats: Vec<SeatDict>,
    foundations: Vec<Vec<u8>>,
    rules: RulesTuple,
    moves: Vec<(usize, u32)>,
) -> PyResult<Vec<StepDict>> {
    let seats: Vec<FullSeat> = seats.into_iter().map(FullSeat::from).collect();
    let steps = trace(&seats, &foundations, &rules_of(rules), &moves).map_err(py_err)?;
    Ok(steps
        .into_iter()
        .map(|TraceStep { legal, seats, need }| StepDict {
            legal,
            seats: seats.into_iter().map(SeatDict::from).collect(),
            need: need.to_vec(),
        })
        .collect())
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(nerts_sim_trace, m)?)?;
    m.add_function(wrap_pyfunction!(nerts_rollouts, m)?)?;
    m.add_function(wrap_pyfunction!(nerts_choose, m)?)?;
    m.add_function(wrap_pyfunction!(nerts_knowledge, m)?)?;
    m.add_function(wrap_pyfunction!(nerts_greedy_move, m)?)?;
    m.add("NERTS_STATE_BYTES", STATE_BYTES)?;
    m.add_function(wrap_pyfunction!(nerts_moves, m)?)?;
    m.add_function(wrap_pyfunction!(nerts_move_codes, m)?)?;
    m.add_function(wrap_pyfunction!(nerts_moves_batch, m)?)?;
    m.add_function(wrap_pyfunction!(nerts_count_batch, m)?)?;
    Ok(())
}
