//! Bindings of `cardcore_engine::games::nerts::moves`: move generation for one state or a batch.

use cardcore_engine::card::natural_face;
use cardcore_engine::games::nerts::MAX_SEATS;
use cardcore_engine::games::nerts::moves::{
    self as nerts, MoveBuf, NertsError, PlayerView, STATE_BYTES,
};
use cardcore_engine::nerts_rollout::{
    FullSeat, PublicSeat, Racing, Request, RolloutError, Rules, SeatKnowledge, Timing, TraceStep,
    choose, evaluate, greedy_move, knowledge as seat_knowledge, trace,
};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::boundary::{boundary_struct, keyword_class, same_fields};
use crate::errors::{int_arg, option_error, py_err, range_error};

/// A Nerts physical card id (`seat * 52 + face`, at most four seats).
fn card_id(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<u8> {
    int_arg(obj, name, 0, 52 * MAX_SEATS as i128 - 1)
}

/// The rulebook's work-pile rule for physical ids: whether `card` may go on a work pile whose
/// top is `top` (`cardcore.nerts.rules.fits_work`).
#[pyfunction]
pub(crate) fn nerts_builds_down(card: &Bound<'_, PyAny>, top: &Bound<'_, PyAny>) -> PyResult<bool> {
    let (card, top) = (card_id(card, "card")?, card_id(top, "top")?);
    Ok(nerts::builds_down(natural_face(card), natural_face(top)))
}

/// The rulebook's foundation rule for physical ids: whether `card` fits some foundation whose
/// top cards are `tops` now (`NertsObservation.fits_foundation`).
#[pyfunction]
pub(crate) fn nerts_fits_foundation(card: &Bound<'_, PyAny>, tops: Vec<i64>) -> PyResult<bool> {
    let card = card_id(card, "card")?;
    let ids = 0..52 * MAX_SEATS as i64;
    if let Some(t) = tops.iter().find(|t| !ids.contains(t)) {
        return Err(range_error(format!(
            "a foundation top must be a card id in 0..{}, got {t}",
            ids.end - 1
        )));
    }
    Ok(nerts::fits_tops(card, tops.into_iter().map(|t| t as u8)))
}

/// Every legal move of one 32-byte player state, as 4 bytes per move.
#[pyfunction]
pub(crate) fn nerts_moves<'py>(py: Python<'py>, state: &[u8]) -> PyResult<Bound<'py, PyBytes>> {
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
pub(crate) fn nerts_move_codes(state: &[u8]) -> PyResult<Vec<u32>> {
    let v = PlayerView::decode(state).map_err(py_err)?;
    let mut buf = MoveBuf::default();
    nerts::generate(&v, &mut buf);
    Ok(buf.as_slice().to_vec())
}

/// Moves of many concatenated states (GIL released): `(counts, moves)` where `counts` holds one
/// little-endian u16 per state and `moves` the 4-byte moves of all states in order.
#[pyfunction]
pub(crate) fn nerts_moves_batch<'py>(
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
pub(crate) fn nerts_count_batch(py: Python<'_>, states: &[u8], repeat: u32) -> PyResult<u64> {
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

boundary_struct!(
    /// The table speed of the look-ahead's simulated players (`nerts_rollout::Timing`; built
    /// by `cardcore.nerts.lookahead.table_timing`).
    NertsTiming => Timing {
        m_play: f64,
        m_build: f64,
        m_seq: f64,
        m_flip: f64,
        m_call: f64,
        sigma: f64,
        miss: f64,
        min_ms: u32,
        max_ms: u32,
        retry_ms: u32,
    }
);

boundary_struct!(
    /// The table options a rollout needs (`nerts_rollout::Rules`; built by
    /// `cardcore.nerts.lookahead.table_rules`).
    NertsRules => Rules {
        num_work: u8,
        flip_count: u8,
        partial: bool,
        fill_any: bool,
        max_recycles: u32,
        auto_call: bool,
        foundation_points: i32,
        nerts_penalty: i32,
        nerts_bonus: i32,
    }
);

boundary_struct!(
    /// How the look-ahead races its candidates (`nerts_rollout::Racing`; built by
    /// `cardcore.nerts.lookahead`'s `choose` and `native_agent_state` from an agent's
    /// `racing` tuple).
    NertsRacing => Racing {
        first: u32,
        step: u32,
        z: f64,
        max_loss: f64,
    }
);

/// What the deciding seat knows of one seat (`nerts_rollout::SeatKnowledge`; faces `0..52`,
/// `255` for a card not known; `flip_count` 0 for the table's), as `nerts_knowledge` returns
/// it.
#[pyclass(module = "cardcore._core", frozen, eq, from_py_object)]
#[derive(Clone, PartialEq, Eq)]
pub struct NertsSeat(SeatKnowledge);

/// Card lists as Python lists of ints (a `Vec<u8>` would convert to `bytes`).
fn ints(v: &[u8]) -> Vec<u16> {
    v.iter().copied().map(u16::from).collect()
}

#[pymethods]
impl NertsSeat {
    #[new]
    #[pyo3(signature = (
        *, nerts_count, nerts_top, work, cycle, waste, pool, recycles, found, flip_count = 0,
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        nerts_count: u8,
        nerts_top: u8,
        work: Vec<Vec<u8>>,
        cycle: Vec<u8>,
        waste: u8,
        pool: Vec<u8>,
        recycles: u32,
        found: u8,
        flip_count: u8,
    ) -> Self {
        Self(SeatKnowledge {
            nerts_count,
            nerts_top,
            work,
            cycle,
            waste,
            pool,
            recycles,
            found,
            flip_count,
        })
    }
    #[getter]
    fn nerts_count(&self) -> u8 {
        self.0.nerts_count
    }
    #[getter]
    fn nerts_top(&self) -> u8 {
        self.0.nerts_top
    }
    #[getter]
    fn work(&self) -> Vec<Vec<u16>> {
        self.0.work.iter().map(|p| ints(p)).collect()
    }
    #[getter]
    fn cycle(&self) -> Vec<u16> {
        ints(&self.0.cycle)
    }
    #[getter]
    fn waste(&self) -> u8 {
        self.0.waste
    }
    #[getter]
    fn pool(&self) -> Vec<u16> {
        ints(&self.0.pool)
    }
    #[getter]
    fn recycles(&self) -> u32 {
        self.0.recycles
    }
    #[getter]
    fn found(&self) -> u8 {
        self.0.found
    }
    #[getter]
    fn flip_count(&self) -> u8 {
        self.0.flip_count
    }
    fn __repr__(&self) -> String {
        let k = &self.0;
        format!(
            "NertsSeat(nerts_count={}, nerts_top={}, work={:?}, cycle={:?}, waste={}, pool={:?}, recycles={}, found={}, flip_count={})",
            k.nerts_count,
            k.nerts_top,
            k.work,
            k.cycle,
            k.waste,
            k.pool,
            k.recycles,
            k.found,
            k.flip_count
        )
    }
}

fn knowledge(seats: &[PyRef<'_, NertsSeat>]) -> Vec<SeatKnowledge> {
    seats.iter().map(|s| s.0.clone()).collect()
}

/// The move code the rollouts' greedy policy plays for `seat` (`None` = it waits); the same
/// arguments as `nerts_rollouts`. For checking the simulator against `GreedyAgent`.
#[pyfunction]
pub(crate) fn nerts_greedy_move(
    seats: Vec<PyRef<'_, NertsSeat>>,
    need: [[u8; 16]; 4],
    seat: usize,
    rules: &NertsRules,
) -> PyResult<Option<u32>> {
    greedy_move(&knowledge(&seats), &need, seat, &Rules::from(*rules)).map_err(py_err)
}

/// Monte Carlo look-ahead (GIL released): for each of `samples` sampled deals and each candidate
/// move code of seat `root` (sample-major), `(seats - 1)` x the root's score minus the sum of
/// the other scores after `horizon_ms` of greedy real-time play (see
/// `cardcore_engine::nerts_rollout`).
#[pyfunction]
#[allow(clippy::too_many_arguments)]
pub(crate) fn nerts_rollouts(
    py: Python<'_>,
    seats: Vec<PyRef<'_, NertsSeat>>,
    need: [[u8; 16]; 4],
    root: usize,
    horizon_ms: u32,
    samples: u32,
    seed: u64,
    timing: &NertsTiming,
    rules: &NertsRules,
    candidates: Vec<u32>,
) -> PyResult<Vec<i32>> {
    let look = (horizon_ms, samples, seed);
    detached(
        py,
        knowledge(&seats),
        need,
        root,
        look,
        timing,
        rules,
        |req| evaluate(req, &candidates),
    )
}

/// Runs `f` on a look-ahead request (`look = (horizon_ms, samples, seed)`) with the GIL
/// released; engine errors become `OptionError`.
#[allow(clippy::too_many_arguments)]
fn detached<T: Send>(
    py: Python<'_>,
    seats: Vec<SeatKnowledge>,
    need: [[u8; 16]; 4],
    root: usize,
    look: (u32, u32, u64),
    timing: &NertsTiming,
    rules: &NertsRules,
    f: impl FnOnce(&Request<'_>) -> Result<T, RolloutError> + Send,
) -> PyResult<T> {
    let (horizon_ms, samples, seed) = look;
    let (timing, rules) = (Timing::from(*timing), Rules::from(*rules));
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
            flip_count: p.getattr(intern!(py, "flip_count"))?.extract()?,
            recycles: p.getattr(intern!(py, "recycles"))?.extract()?,
        });
    }
    let (seats, need) =
        seat_knowledge(&players, &piles, me, own_cycle, recycles).map_err(py_err)?;
    Ok((seats, need, me))
}

keyword_class!(
    /// Every seat as the observing seat knows it, and per suit how many foundations take each
    /// rank next (`need`, 4 x 16): the `seats` and `need` arguments of `nerts_rollouts`.
    NertsKnowledge {
        seats: Vec<NertsSeat>,
        need: Vec<Vec<u16>>,
    }
);

/// What a `NertsObservation`'s seat knows of the table, from the observation and its
/// remembered stock cycle (`None` for a card not seen).
#[pyfunction]
pub(crate) fn nerts_knowledge(
    obs: &Bound<'_, PyAny>,
    own_cycle: Vec<Option<u8>>,
) -> PyResult<NertsKnowledge> {
    let (seats, need, _) = observed(obs, &own_cycle)?;
    Ok(NertsKnowledge {
        seats: seats.into_iter().map(NertsSeat).collect(),
        need: need.iter().map(|row| ints(row)).collect(),
    })
}

/// The look-ahead's choice for the observation's seat (GIL released while it plays): the index
/// of the candidate with the best mean value plus its `bonus` (points), the candidates raced as
/// `racing` says (see `cardcore_engine::nerts_rollout::choose`); `samples`
/// is the most deals a candidate gets.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
pub(crate) fn nerts_choose(
    py: Python<'_>,
    obs: &Bound<'_, PyAny>,
    own_cycle: Vec<Option<u8>>,
    horizon_ms: u32,
    samples: u32,
    seed: u64,
    timing: &NertsTiming,
    rules: &NertsRules,
    candidates: Vec<u32>,
    bonus: Vec<f64>,
    racing: &NertsRacing,
) -> PyResult<usize> {
    let (seats, need, root) = observed(obs, &own_cycle)?;
    let racing = Racing::from(*racing);
    let look = (horizon_ms, samples, seed);
    detached(py, seats, need, root, look, timing, rules, |req| {
        choose(req, &candidates, &bonus, &racing)
    })
}

/// A seat laid out in full: a dict with the fields of `nerts_rollout::FullSeat` (card lists
/// come back as `bytes`; `flip_count` 0 for the table's, given back as the count it flips).
#[derive(FromPyObject, IntoPyObject)]
#[pyo3(from_item_all)]
pub(crate) struct SeatDict {
    nerts: Vec<u8>,
    work: Vec<Vec<u8>>,
    cycle: Vec<u8>,
    waste: u8,
    recycles: u32,
    found: u8,
    flip_count: u8,
}

same_fields!(
    SeatDict,
    FullSeat {
        nerts,
        work,
        cycle,
        waste,
        recycles,
        found,
        flip_count
    }
);

/// One step of `nerts_sim_trace` as a dict: `legal`, `seats`, `need` (4 x 16 bytes).
#[derive(IntoPyObject)]
pub(crate) struct StepDict {
    legal: bool,
    seats: Vec<SeatDict>,
    need: Vec<[u8; 16]>,
}

/// Test hook: the rollout simulator's own transitions from a table laid out in full (seat
/// dicts, foundation piles as card ids), trying each `(seat, move code)` in turn; one dict
/// per step (see `cardcore_engine::nerts_rollout::trace`).
#[pyfunction]
pub(crate) fn nerts_sim_trace(
    seats: Vec<SeatDict>,
    foundations: Vec<Vec<u8>>,
    rules: &NertsRules,
    moves: Vec<(usize, u32)>,
) -> PyResult<Vec<StepDict>> {
    let seats: Vec<FullSeat> = seats.into_iter().map(FullSeat::from).collect();
    let steps = trace(&seats, &foundations, &Rules::from(*rules), &moves).map_err(py_err)?;
    Ok(steps
        .into_iter()
        .map(|TraceStep { legal, seats, need }| StepDict {
            legal,
            seats: seats.into_iter().map(SeatDict::from).collect(),
            need: need.to_vec(),
        })
        .collect())
}
