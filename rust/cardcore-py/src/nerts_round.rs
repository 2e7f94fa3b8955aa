//! Bindings of `cardcore_engine::nerts_round`: a whole Nerts round of built-in agents, handed
//! over by `cardcore.nerts.engine.Round.run` as dicts and handed back the same way.

use crate::boundary::same_fields;
use crate::errors::{option_error, py_err};
use crate::nerts::NertsRacing;
use cardcore_engine::games::nerts::{Round, Table};
use cardcore_engine::nerts_rollout::Racing;
use cardcore_engine::nerts_round::{
    Agent, Agents, Layout, LogRow, Pending, RoundOptions, RoundState, SeatAgent, StalemateRule,
    StockMemory, UndoRecord,
};
use cardcore_engine::rng::CardRng;
use pyo3::prelude::*;

/// One `_UndoRecord` as a dict (`nerts_round::UndoRecord`; `action` the action's code).
#[derive(FromPyObject, IntoPyObject)]
#[pyo3(from_item_all)]
struct UndoDict {
    action: u32,
    kind: u8,
    src: u8,
    dst: usize,
    depth: usize,
    card: i32,
}

same_fields!(
    UndoDict,
    UndoRecord {
        action,
        kind,
        src,
        dst,
        depth,
        card
    }
);

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

/// A seat's pending event as a dict (`nerts_round::Pending`; `action` a code or `None`).
#[derive(FromPyObject, IntoPyObject)]
#[pyo3(from_item_all)]
struct PendingDict {
    t: i64,
    tiebreak: u64,
    kind: u8,
    action: Option<u32>,
}

same_fields!(
    PendingDict,
    Pending {
        t,
        tiebreak,
        kind,
        action
    }
);

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

/// One seat's cards, taken as `LayoutDict<u8>` and handed back as `LayoutDict<u16>` (card
/// lists as `u16` come back as Python lists; a `Vec<u8>` would come back as `bytes`).
#[derive(FromPyObject, IntoPyObject)]
#[pyo3(from_item_all)]
struct LayoutDict<C> {
    nerts: Vec<C>,
    work: Vec<Vec<C>>,
    stock: Vec<C>,
    waste: Vec<C>,
    recycles: u32,
    flip_count: u8,
    stalemates: u32,
    undo: Vec<UndoDict>,
}

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

#[derive(IntoPyObject)]
struct AgentOut {
    memory: Option<MemoryDict>,
    last_ms: Option<i64>,
    searches: u64,
}

/// `RoundDict` (the state `Round.run` hands over) and `RoundOut` (the state handed back) from
/// one field list: the fields both carry, in `RoundOut`'s key order, each with its type in and,
/// after `=>`, its type out when that differs; then the fields only one of them has.
macro_rules! round_dicts {
    (
        both { $($f:ident: $in:ty $(=> $out:ty)?),* $(,)? }
        in_only { $($i:ident: $it:ty),* $(,)? }
        out_only { $($o:ident: $ot:ty),* $(,)? }
    ) => {
        #[derive(FromPyObject)]
        #[pyo3(from_item_all)]
        pub(crate) struct RoundDict {
            $($f: $in,)*
            $($i: $it,)*
        }

        #[derive(IntoPyObject)]
        pub(crate) struct RoundOut {
            $($f: round_dicts!(@out $in $(, $out)?),)*
            $($o: $ot,)*
        }
    };
    (@out $in:ty) => { $in };
    (@out $in:ty, $out:ty) => { $out };
}

round_dicts! {
    both {
        seats: Vec<LayoutDict<u8>> => Vec<LayoutDict<u16>>,
        foundations: Vec<Vec<u8>> => Vec<Vec<u16>>,
        table_running: bool,
        now: i64,
        executed: u64,
        stalemates: u32,
        recycles_since: Vec<u32>,
        pending: Vec<Option<PendingDict>>,
        sleeping: Vec<bool>,
        timing: Vec<[u64; 4]>,
        agent_rng: Vec<[u64; 4]>,
        tiebreak: [u64; 4],
        agents: Vec<AgentDict> => Vec<AgentOut>,
    }
    in_only {
        options: OptionsDict,
        max_ms: i64,
        max_events: u64,
    }
    out_only {
        end: Option<&'static str>,
        caller: Option<usize>,
        log: Vec<(i64, i32, String, &'static str)>,
    }
}

fn bad(why: &str) -> PyErr {
    option_error(why)
}

fn rng(state: [u64; 4]) -> PyResult<CardRng> {
    CardRng::from_state(state).ok_or_else(|| bad("the all-zero generator state is invalid"))
}

pub(crate) fn options(o: OptionsDict) -> PyResult<RoundOptions> {
    let stalemate_rule = match o.stalemate_rule.as_str() {
        "rotate_one" => StalemateRule::RotateOne,
        "flip_one" => StalemateRule::FlipOne,
        "end_round" => StalemateRule::EndRound,
        _ => return Err(bad("unknown stalemate rule")),
    };
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

fn layout(d: LayoutDict<u8>) -> Layout {
    Layout {
        nerts: d.nerts,
        work: d.work,
        stock: d.stock,
        waste: d.waste,
        recycles: d.recycles,
        flip_count: d.flip_count,
        stalemates: d.stalemates,
        undo: d.undo.into_iter().map(UndoRecord::from).collect(),
    }
}

fn wide(cards: Vec<u8>) -> Vec<u16> {
    cards.into_iter().map(u16::from).collect()
}

fn layout_out(l: Layout) -> LayoutDict<u16> {
    LayoutDict {
        nerts: wide(l.nerts),
        work: l.work.into_iter().map(wide).collect(),
        stock: wide(l.stock),
        waste: wide(l.waste),
        recycles: l.recycles,
        flip_count: l.flip_count,
        stalemates: l.stalemates,
        undo: l.undo.into_iter().map(UndoDict::from).collect(),
    }
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

fn state(d: RoundDict) -> PyResult<RoundState> {
    let n = d.seats.len();
    let lens = [
        d.recycles_since.len(),
        d.pending.len(),
        d.sleeping.len(),
        d.timing.len(),
        d.agent_rng.len(),
        d.agents.len(),
    ];
    if !(2..=4).contains(&n) || lens.iter().any(|&l| l != n) {
        return Err(bad("need 2..=4 seats and one entry per seat"));
    }
    let options = options(d.options)?;
    let seats: Vec<Layout> = d.seats.into_iter().map(layout).collect();
    if seats
        .iter()
        .any(|s| s.work.len() != usize::from(options.num_work))
    {
        return Err(bad("wrong number of work piles"));
    }
    let table = Table {
        rules: options,
        seats,
        foundations: d.foundations,
        running: d.table_running,
    };
    Ok(RoundState {
        round: Round {
            table,
            now: d.now,
            executed: d.executed,
            max_ms: d.max_ms,
            max_events: d.max_events,
            stalemates: d.stalemates,
            recycles_since: d.recycles_since,
            pending: d
                .pending
                .into_iter()
                .map(|p| p.map(Pending::from))
                .collect(),
            sleeping: d.sleeping,
            timing: d.timing.into_iter().map(rng).collect::<PyResult<_>>()?,
            agent_rng: d.agent_rng.into_iter().map(rng).collect::<PyResult<_>>()?,
            tiebreak: rng(d.tiebreak)?,
            end: None,
            caller: None,
            keep_log: true,
            log: Vec::new(),
            inputs: Vec::new(),
        },
        agents: Agents(
            d.agents
                .into_iter()
                .map(|a| agent(a).map(Some))
                .collect::<PyResult<_>>()?,
        ),
    })
}

fn out(s: RoundState) -> RoundOut {
    let RoundState { round: r, agents } = s;
    RoundOut {
        seats: r.table.seats.into_iter().map(layout_out).collect(),
        foundations: r.table.foundations.into_iter().map(wide).collect(),
        table_running: r.table.running,
        now: r.now,
        executed: r.executed,
        stalemates: r.stalemates,
        recycles_since: r.recycles_since,
        pending: r
            .pending
            .into_iter()
            .map(|p| p.map(PendingDict::from))
            .collect(),
        sleeping: r.sleeping,
        timing: r.timing.iter().map(CardRng::state).collect(),
        agent_rng: r.agent_rng.iter().map(CardRng::state).collect(),
        tiebreak: r.tiebreak.state(),
        agents: agents
            .0
            .into_iter()
            .flatten()
            .map(|a| AgentOut {
                memory: a.memory.map(MemoryDict::from),
                last_ms: a.last_ms,
                searches: a.searches,
            })
            .collect(),
        end: r.end,
        caller: r.caller,
        log: r
            .log
            .into_iter()
            .map(|LogRow { t, seat, text, ok }| (t, seat, text, if ok { "ok" } else { "fail" }))
            .collect(),
    }
}

/// Plays a Nerts round of built-in agents to its end (GIL released): the state `Round.run`
/// hands over (see `cardcore.nerts.engine`), returned as it stands at the end with the log
/// rows appended.
#[pyfunction]
pub(crate) fn nerts_run_round(py: Python<'_>, round: RoundDict) -> PyResult<RoundOut> {
    let mut s = state(round)?;
    py.detach(move || {
        s.run().map_err(py_err)?;
        Ok(out(s))
    })
}
