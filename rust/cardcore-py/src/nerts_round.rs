//! The Nerts options and built-in agents as `_core.nerts_new` takes them (dicts of plain values:
//! `cardcore.nerts.engine.native_options` and `cardcore.nerts.agents.native_agent_state`).

use crate::boundary::same_fields;
use crate::errors::{option_error, state_format_error};
use crate::nerts::NertsRacing;
use crate::random::Rng;
use cardcore_engine::nerts_rollout::{PublicSeat, Racing};
use cardcore_engine::nerts_round::{
    Agent, Obs, RoundOptions, SeatAgent, StalemateRule, StockMemory,
};
use pyo3::intern;
use pyo3::prelude::*;

/// A hard agent's `StockMemory` as a dict (`cycle` `None` until known).
#[derive(FromPyObject, IntoPyObject)]
#[pyo3(from_item_all)]
struct MemoryDict {
    cycle: Option<Vec<Option<u8>>>,
    waste: u32,
    stalemates: u32,
}

same_fields!(
    MemoryDict,
    StockMemory {
        cycle,
        waste,
        stalemates
    }
);

/// The options of a round (`native_options`).
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub(crate) struct OptionsDict {
    num_work: u8,
    flip_count: u8,
    stock_passes: Option<u32>,
    partial: bool,
    fill_any: bool,
    auto_call: bool,
    foundation_points: i32,
    nerts_penalty: i32,
    nerts_bonus: i32,
    stalemate_rule: String,
    max_stalemates: u32,
    undo_depth: usize,
    medians: [i64; 5],
    sigma: f64,
    miss: f64,
    min_ms: i64,
    max_ms: i64,
    retry_ms: i64,
}

/// A built-in agent's settings and memory (`native_agent_state`).
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub(crate) struct AgentDict {
    kind: u8,
    samples: u32,
    horizon_ms: u32,
    margin: f64,
    racing: NertsRacing,
    memory: Option<MemoryDict>,
    last_ms: Option<i64>,
}

fn bad(why: &str) -> PyErr {
    option_error(why)
}

fn stalemate_rule(name: &str) -> PyResult<StalemateRule> {
    match name {
        "rotate_one" => Ok(StalemateRule::RotateOne),
        "flip_one" => Ok(StalemateRule::FlipOne),
        "end_round" => Ok(StalemateRule::EndRound),
        _ => Err(bad("unknown stalemate rule")),
    }
}

pub(crate) fn options(o: OptionsDict) -> PyResult<RoundOptions> {
    let stalemate_rule = stalemate_rule(&o.stalemate_rule)?;
    Ok(RoundOptions {
        num_work: o.num_work,
        flip_count: o.flip_count,
        stock_passes: o.stock_passes,
        partial: o.partial,
        fill_any: o.fill_any,
        auto_call: o.auto_call,
        foundation_points: o.foundation_points,
        nerts_penalty: o.nerts_penalty,
        nerts_bonus: o.nerts_bonus,
        stalemate_rule,
        max_stalemates: o.max_stalemates,
        undo_depth: o.undo_depth,
        medians: o.medians,
        sigma: o.sigma,
        miss: o.miss,
        min_ms: o.min_ms,
        max_ms: o.max_ms,
        retry_ms: o.retry_ms,
        nerts_pile: 13,
    })
}

pub(crate) fn agent(d: AgentDict) -> PyResult<SeatAgent> {
    let agent = match d.kind {
        0 => Agent::Random,
        1 => Agent::Greedy,
        2 => Agent::RuleOfThumb,
        3 if d.samples >= 1 && d.horizon_ms >= 1 => Agent::Hard {
            samples: d.samples,
            horizon_ms: d.horizon_ms,
            margin: d.margin,
            racing: Racing::from(d.racing),
        },
        _ => return Err(bad("unknown agent kind or settings")),
    };
    Ok(SeatAgent {
        agent,
        memory: d.memory.map(StockMemory::from),
        last_ms: d.last_ms,
        searches: 0,
    })
}

/// A `NertsObservation` as the built-in agents read it.
fn observation(obs: &Bound<'_, PyAny>) -> PyResult<Obs> {
    let py = obs.py();
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
    let seat: usize = obs.getattr(intern!(py, "seat"))?.extract()?;
    if seat >= players.len() {
        return Err(bad("the observation's seat is not at its table"));
    }
    Ok(Obs {
        seat,
        now: obs.getattr(intern!(py, "now"))?.extract()?,
        players,
        foundations: obs.getattr(intern!(py, "foundation_piles"))?.extract()?,
        stalemates: obs.getattr(intern!(py, "stalemates"))?.extract()?,
        recycles: obs.getattr(intern!(py, "recycles"))?.extract()?,
    })
}

/// What one decision left of a built-in agent: `(searches run, cycle or None, waste,
/// stalemates, last_ms)` (the rows of `nerts_agents`).
pub(crate) type AgentRow = (u64, Option<Vec<Option<u16>>>, u32, u32, Option<i64>);

/// A built-in agent's row (see [`AgentRow`]).
pub(crate) fn agent_row(a: &SeatAgent) -> AgentRow {
    let m = a.memory.clone().unwrap_or_default();
    (
        a.searches,
        m.cycle
            .map(|c| c.into_iter().map(|x| x.map(u16::from)).collect()),
        m.waste,
        m.stalemates,
        a.last_ms,
    )
}

/// One decision of a built-in agent (`native_agent_state`'s dict) on a `NertsObservation` under
/// the table's options (`native_options`): the chosen code among `legal` (or None: wait) and
/// the agent's row afterwards; draws from `rng` (a look-ahead runs with the GIL released).
#[pyfunction]
pub(crate) fn nerts_agent_act(
    py: Python<'_>,
    options: OptionsDict,
    agent: AgentDict,
    obs: &Bound<'_, PyAny>,
    legal: Vec<u32>,
    rng: &Bound<'_, Rng>,
) -> PyResult<(Option<u32>, AgentRow)> {
    let o = self::options(options)?;
    let mut sa = self::agent(agent)?;
    let obs = observation(obs)?;
    let mut g = rng.get().take();
    let code = py.detach(|| sa.decide(&o, &obs, &legal, &mut g));
    rng.get().put(g);
    Ok((code, agent_row(&sa)))
}

/// A stock memory `(cycle or None, waste, stalemates)` after one more observation of its seat
/// at a table whose stalemate rule is `stalemate_rule` (`StockMemory.update` of the built-in
/// agents): the new cycle (`None` for a card not seen), waste and stalemates.
#[pyfunction]
pub(crate) fn nerts_memory_update(
    cycle: Option<Vec<Option<u8>>>,
    waste: u32,
    stalemates: u32,
    obs: &Bound<'_, PyAny>,
    stalemate_rule: &str,
) -> PyResult<(Vec<Option<u16>>, u32, u32)> {
    if let Some(c) = &cycle
        && waste as usize > c.len()
    {
        return Err(state_format_error(format!(
            "stock memory: a waste of {waste} cards past a cycle of {}",
            c.len()
        )));
    }
    let rule = self::stalemate_rule(stalemate_rule)?;
    let obs = observation(obs)?;
    let mut m = StockMemory {
        cycle,
        waste,
        stalemates,
    };
    let c = m.update(&obs, rule);
    Ok((
        c.into_iter().map(|x| x.map(u16::from)).collect(),
        m.waste,
        m.stalemates,
    ))
}
