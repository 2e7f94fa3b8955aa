//! The real-time round as a deterministic discrete-event simulation (`cardcore.nerts.engine.
//! Round`): an integer millisecond clock from the round's start; every move is an event
//! `(t, tiebreak, seat)`, run in that order, each seat with at most one pending event. A seat
//! played by an agent looks at the table when idle, picks a move and schedules it after a
//! delay drawn from its `"timing"` stream; a seat without one acts only through
//! [`Round::submit`]. Moves are checked when they execute: one no longer legal fails, nothing
//! moves, and the agent looks again `retry_ms` later. Agents with nothing to do sleep until a
//! foundation changes.
//!
//! The event log is a list of `[t_ms, seat, action, status]` rows; the system's rows use seat
//! `-1` (`stalemate:<rule>`, `end:<reason>`).

use super::table::{Table, deal_deck};
use super::{CALL, K_CALL, K_FOUNDATION, K_UNDO, Rules, UNDO, action_text, is_progress, kind};
use crate::games::IllegalMove;
use crate::rng::CardRng;

const ACT: u8 = 0;
const THINK: u8 = 1;

/// A pending event of one seat: `(t, tiebreak)` orders them; `kind` is act (0) or think (1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pending {
    /// Execution time.
    pub t: i64,
    /// Tie-break draw.
    pub tiebreak: u64,
    /// 0 = act, 1 = think.
    pub kind: u8,
    /// The move (acts only).
    pub action: Option<u32>,
}

/// One event log row `[t_ms, seat, action, status]` (`ok` true for `"ok"`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogRow {
    /// Clock.
    pub t: i64,
    /// Seat (-1 for the system).
    pub seat: i32,
    /// The action's text.
    pub text: String,
    /// `"ok"` or `"fail"`.
    pub ok: bool,
}

/// One submitted move `[now, seat, t_ms, action]`: when it was submitted, by whom, for when.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Input {
    /// The clock when it was submitted.
    pub now: i64,
    /// The seat.
    pub seat: usize,
    /// When it executes.
    pub t: i64,
    /// The move code.
    pub action: u32,
}

/// Who decides for the seats the clock drives: the built-in agents in Rust, or a caller's
/// (Python) agents. A seat it does not play acts only through [`Round::submit`].
pub trait Policy {
    /// An agent's failure (a Python exception); an illegal choice is one.
    type Error: From<IllegalMove>;
    /// Whether an agent plays `seat`.
    fn plays(&self, seat: usize) -> bool;
    /// The agent of `seat` picks one of `legal` (or `None`: sleep until a foundation changes),
    /// drawing from `rng`, the seat's `"agent"` stream.
    ///
    /// # Errors
    /// The agent failed.
    fn act(
        &mut self,
        round: &Round,
        seat: usize,
        legal: &[u32],
        rng: &mut CardRng,
    ) -> Result<Option<u32>, Self::Error>;
}

/// No agents: every seat is driven by submitted moves.
#[derive(Clone, Copy, Debug, Default)]
pub struct Humans;

impl Policy for Humans {
    type Error = IllegalMove;
    fn plays(&self, _seat: usize) -> bool {
        false
    }
    fn act(
        &mut self,
        _round: &Round,
        _seat: usize,
        _legal: &[u32],
        _rng: &mut CardRng,
    ) -> Result<Option<u32>, IllegalMove> {
        Ok(None)
    }
}

/// The clock, the table and every seat's pending event and random streams.
#[derive(Clone, Debug)]
pub struct Round {
    /// The table.
    pub table: Table,
    /// Clock (ms since the round started).
    pub now: i64,
    /// Events executed.
    pub executed: u64,
    /// The round ends with `"cap"` after this clock.
    pub max_ms: i64,
    /// The round ends with `"cap"` after this many events.
    pub max_events: u64,
    /// Consecutive stalemate remedies.
    pub stalemates: u32,
    /// Recycles per seat since the last progress.
    pub recycles_since: Vec<u32>,
    /// Per seat, its pending event.
    pub pending: Vec<Option<Pending>>,
    /// Per seat, asleep until a foundation changes.
    pub sleeping: Vec<bool>,
    /// Per seat, its `"timing"` stream.
    pub timing: Vec<CardRng>,
    /// Per seat, its `"agent"` stream.
    pub agent_rng: Vec<CardRng>,
    /// The `"tiebreak"` stream.
    pub tiebreak: CardRng,
    /// End reason once over (`"nerts"`, `"stalemate"`, `"cap"`).
    pub end: Option<&'static str>,
    /// The seat that called Nerts.
    pub caller: Option<usize>,
    /// Whether events are written to [`Round::log`] (off in the lean rounds of a search).
    pub keep_log: bool,
    /// The event log.
    pub log: Vec<LogRow>,
    /// Submitted moves, in order.
    pub inputs: Vec<Input>,
}

impl Round {
    /// A round of `players` seats dealt from `seed`, nothing scheduled yet: call
    /// [`Round::start`] with the policy before anything else.
    #[must_use]
    pub fn new(rules: Rules, seed: u64, players: usize) -> Self {
        let decks: Vec<Vec<u8>> = (0..players).map(|s| deal_deck(seed, s)).collect();
        Self::with_table(Table::deal(rules, &decks), seed)
    }

    /// A round on `table` (a dealt or arranged position) with the streams of `seed`.
    #[must_use]
    pub fn with_table(table: Table, seed: u64) -> Self {
        let n = table.num_players();
        let streams = |name: &str| -> Vec<CardRng> {
            (0..n)
                .map(|s| CardRng::for_stream(seed, s as u64, name))
                .collect()
        };
        Self {
            table,
            now: 0,
            executed: 0,
            max_ms: super::MAX_ROUND_MS,
            max_events: super::MAX_EVENTS,
            stalemates: 0,
            recycles_since: vec![0; n],
            pending: vec![None; n],
            sleeping: vec![false; n],
            timing: streams("timing"),
            agent_rng: streams("agent"),
            tiebreak: CardRng::for_stream(seed, 0, "tiebreak"),
            end: None,
            caller: None,
            keep_log: true,
            log: Vec::new(),
            inputs: Vec::new(),
        }
    }

    /// Every agent seat looks at the table (the round's first decisions, seat by seat).
    ///
    /// # Errors
    /// An agent failed.
    pub fn start<P: Policy>(&mut self, policy: &mut P) -> Result<(), P::Error> {
        for s in 0..self.n() {
            self.decide(s, policy)?;
        }
        Ok(())
    }

    /// The rules.
    #[must_use]
    pub fn rules(&self) -> &Rules {
        &self.table.rules
    }

    fn n(&self) -> usize {
        self.table.num_players()
    }

    /// Whether the round is still on.
    #[must_use]
    pub fn running(&self) -> bool {
        self.end.is_none()
    }

    /// `seat`'s legal moves now (none once over).
    #[must_use]
    pub fn legal_codes(&self, seat: usize) -> Vec<u32> {
        if self.running() {
            self.table.legal_codes(seat)
        } else {
            Vec::new()
        }
    }

    /// Whether `seat` has an event pending.
    #[must_use]
    pub fn is_pending(&self, seat: usize) -> bool {
        self.pending[seat].is_some()
    }

    /// The round's scores (see [`Table::scores`]).
    #[must_use]
    pub fn scores(&self) -> Vec<i32> {
        self.table.scores(self.caller)
    }

    /// Schedules move `mv` of `seat` at `t` (at or after now); it is checked when it
    /// executes.
    ///
    /// # Errors
    /// The round is over, `mv` is no Nerts move, `t` is before now or the seat already has a
    /// pending event (nothing changes).
    pub fn submit(&mut self, seat: usize, mv: u32, t: i64) -> Result<(), IllegalMove> {
        if !self.running() {
            return Err(IllegalMove("the round is over".into()));
        }
        if kind(mv) > K_UNDO {
            return Err(IllegalMove(format!("not a Nerts move code: {mv}")));
        }
        if t < self.now {
            return Err(IllegalMove(format!(
                "t_ms {t} is before now ({})",
                self.now
            )));
        }
        if self.pending[seat].is_some() {
            return Err(IllegalMove(format!(
                "seat {seat} already has a pending action"
            )));
        }
        self.sleeping[seat] = false;
        self.inputs.push(Input {
            now: self.now,
            seat,
            t,
            action: mv,
        });
        self.schedule(seat, t, ACT, Some(mv));
        Ok(())
    }

    fn schedule(&mut self, seat: usize, t: i64, kind: u8, action: Option<u32>) {
        let tiebreak = self.tiebreak.next_u64();
        self.pending[seat] = Some(Pending {
            t,
            tiebreak,
            kind,
            action,
        });
    }

    fn delay(&mut self, seat: usize, mv: u32) -> i64 {
        let o = &self.table.rules;
        let median = o.medians[Rules::delay_class(mv)] as f64;
        let d = self.timing[seat].next_lognormal(median, o.sigma);
        let r = d.round_ties_even() as i64;
        o.min_ms.max(o.max_ms.min(r))
    }

    fn ask<P: Policy>(
        &mut self,
        seat: usize,
        legal: &[u32],
        policy: &mut P,
    ) -> Result<Option<u32>, P::Error> {
        let mut rng = self.agent_rng[seat].clone();
        let choice = policy.act(self, seat, legal, &mut rng);
        self.agent_rng[seat] = rng;
        let choice = choice?;
        if let Some(a) = choice
            && !legal.contains(&a)
        {
            return Err(IllegalMove(format!(
                "the agent of seat {seat} chose {}, which is not one of its legal actions",
                action_text(a)
            ))
            .into());
        }
        Ok(choice)
    }

    /// The agent of `seat` (if any, idle, the round on) picks its next move and schedules it,
    /// or sleeps.
    ///
    /// # Errors
    /// The agent failed.
    pub fn decide<P: Policy>(&mut self, seat: usize, policy: &mut P) -> Result<(), P::Error> {
        if !policy.plays(seat) || !self.running() || self.pending[seat].is_some() {
            return Ok(());
        }
        let legal = self.table.legal_codes(seat);
        if legal.is_empty() || (legal.len() == 1 && legal[0] == UNDO) {
            self.sleeping[seat] = true;
            return Ok(());
        }
        let mut action = self.ask(seat, &legal, policy)?;
        let miss = self.timing[seat].next_f64() < self.table.rules.miss;
        if miss && action.is_some_and(|a| kind(a) == K_FOUNDATION) {
            // overlooked its chosen foundation play this time: decide without it
            let rest: Vec<u32> = legal
                .iter()
                .copied()
                .filter(|&a| Some(a) != action)
                .collect();
            action = if rest.is_empty() {
                None
            } else {
                self.ask(seat, &rest, policy)?
            };
            if action.is_none() {
                let t = self.now + self.table.rules.retry_ms;
                self.schedule(seat, t, THINK, None);
                return Ok(());
            }
        }
        let Some(action) = action else {
            self.sleeping[seat] = true;
            return Ok(());
        };
        self.sleeping[seat] = false;
        let t = self.now + self.delay(seat, action);
        self.schedule(seat, t, ACT, Some(action));
        Ok(())
    }

    fn wake_all<P: Policy>(&mut self, policy: &mut P) -> Result<(), P::Error> {
        for s in 0..self.n() {
            if self.sleeping[s] && self.pending[s].is_none() {
                self.sleeping[s] = false;
                self.decide(s, policy)?;
            }
        }
        Ok(())
    }

    fn log(&mut self, seat: i32, mv: u32, ok: bool) {
        if self.keep_log {
            let text = action_text(mv);
            self.log_text(seat, text, ok);
        }
    }

    fn log_text(&mut self, seat: i32, text: String, ok: bool) {
        if self.keep_log {
            self.log.push(LogRow {
                t: self.now,
                seat,
                text,
                ok,
            });
        }
    }

    fn execute<P: Policy>(&mut self, seat: usize, mv: u32, policy: &mut P) -> Result<(), P::Error> {
        self.executed += 1;
        let who = seat as i32;
        if !self.table.is_legal(seat, mv) {
            self.log(who, mv, false);
            if policy.plays(seat) {
                let t = self.now + self.table.rules.retry_ms;
                self.schedule(seat, t, THINK, None);
            }
            return Ok(());
        }
        let (nf, tops) = (self.table.foundations.len(), self.table.need_masks());
        self.table.apply(seat, mv);
        self.log(who, mv, true);
        if kind(mv) == K_CALL {
            self.finish(self.now, "nerts", Some(seat));
            return Ok(());
        }
        if is_progress(mv) {
            self.recycles_since.fill(0);
            self.stalemates = 0;
        } else if kind(mv) == super::K_RECYCLE {
            self.recycles_since[seat] += 1;
        }
        if self.table.auto_calls(seat) {
            self.table.apply(seat, CALL);
            self.log(who, CALL, true);
            self.finish(self.now, "nerts", Some(seat));
            return Ok(());
        }
        let foundations_changed = kind(mv) == K_FOUNDATION
            || (kind(mv) == K_UNDO
                && (self.table.foundations.len() != nf || self.table.need_masks() != tops));
        if self.check_stalemate(policy)? {
            return Ok(());
        }
        self.decide(seat, policy)?;
        if foundations_changed {
            self.wake_all(policy)?;
        }
        Ok(())
    }

    /// Two recycles since the last progress, or no stock move left (stock and waste empty,
    /// or no recycling allowed) and no progress move.
    fn stalled(&self, seat: usize) -> bool {
        if self.recycles_since[seat] >= 2 {
            return true;
        }
        let p = &self.table.seats[seat];
        if p.cycle.stock_len() > 0 || (p.cycle.waste_len() > 0 && self.table.may_recycle(seat)) {
            return false;
        }
        !self.table.legal_codes(seat).iter().any(|&a| is_progress(a))
    }

    /// Resolves global stalemates (again at once while they persist); true when the round
    /// ended.
    fn check_stalemate<P: Policy>(&mut self, policy: &mut P) -> Result<bool, P::Error> {
        let n = self.n();
        let mut resolved = false;
        while (0..n).all(|s| self.stalled(s)) {
            let rule = self.table.rules.stalemate_rule;
            if rule == super::StalemateRule::EndRound
                || self.stalemates >= self.table.rules.max_stalemates
            {
                self.finish(self.now, "stalemate", None);
                return Ok(true);
            }
            for s in 0..n {
                self.table.rotate_stalemate(s);
            }
            self.stalemates += 1;
            self.recycles_since.fill(0);
            self.log_text(-1, format!("stalemate:{}", rule.name()), true);
            resolved = true;
        }
        if resolved {
            self.wake_all(policy)?;
        }
        Ok(false)
    }

    /// Ends the round at `t`.
    pub fn finish(&mut self, t: i64, reason: &'static str, caller: Option<usize>) {
        self.now = t;
        self.end = Some(reason);
        self.caller = caller;
        self.table.running = false;
        self.pending.fill(None);
        self.log_text(-1, format!("end:{reason}"), true);
    }

    /// The next event's `(t, seat)`, if any.
    #[must_use]
    pub fn next_event(&self) -> Option<(i64, usize)> {
        (0..self.n())
            .filter_map(|s| self.pending[s].map(|p| (p.t, p.tiebreak, s)))
            .min()
            .map(|(t, _, s)| (t, s))
    }

    /// Executes the next event; false when the round is over or nothing is pending.
    ///
    /// # Errors
    /// An agent failed.
    pub fn step<P: Policy>(&mut self, policy: &mut P) -> Result<bool, P::Error> {
        if !self.running() {
            return Ok(false);
        }
        let Some((t, seat)) = self.next_event() else {
            return Ok(false);
        };
        if t > self.max_ms || self.executed >= self.max_events {
            self.finish(t.min(self.max_ms), "cap", None);
            return Ok(false);
        }
        let ev = self.pending[seat].take();
        self.now = t;
        match ev {
            Some(Pending {
                kind: ACT,
                action: Some(mv),
                ..
            }) => self.execute(seat, mv, policy)?,
            _ => self.decide(seat, policy)?,
        }
        Ok(true)
    }

    /// Executes every event due at or before `t` and moves the clock to `t` (the round ends
    /// with `"cap"` at `max_ms`).
    ///
    /// # Errors
    /// An agent failed.
    pub fn advance_to<P: Policy>(&mut self, t: i64, policy: &mut P) -> Result<(), P::Error> {
        while self.running() && self.next_event().is_some_and(|(te, _)| te <= t) {
            self.step(policy)?;
        }
        if self.running() {
            self.now = self.now.max(t.min(self.max_ms));
            if t >= self.max_ms {
                self.finish(self.max_ms, "cap", None);
            }
        }
        Ok(())
    }

    /// Plays until the round ends (a seat no agent plays never acts: with nothing pending,
    /// the round ends with `"cap"`).
    ///
    /// # Errors
    /// An agent failed.
    pub fn run<P: Policy>(&mut self, policy: &mut P) -> Result<(), P::Error> {
        while self.running() {
            if !self.step(policy)? && self.running() {
                self.finish(self.now, "cap", None);
            }
        }
        Ok(())
    }
}
