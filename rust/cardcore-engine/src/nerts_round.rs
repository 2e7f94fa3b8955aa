//! The built-in Nerts agents in Rust (`random`, `greedy`, the rule-of-thumb plan, `hard` and
//! `expert` with their stock memory and look-ahead): a [`Policy`] of the rulebook's round
//! ([`crate::games::nerts::Round`]), step for step the agents of `cardcore.nerts.agents`: the
//! same random draws in the same order and the same choices.
//!
//! Cards are physical ids (`seat * 52 + face`); moves are the packed codes of
//! [`crate::games::nerts::moves`] plus [`K_UNDO`].

use crate::card::{natural_face, rank_of, suit_of};
use crate::games::IllegalMove;
use crate::games::nerts::moves::{
    K_CALL, K_FLIP, K_FOUNDATION, K_RECYCLE, K_WORK, SRC_NERTS, SRC_WASTE, foundation_gap,
};
pub use crate::games::nerts::{
    K_UNDO, Layout, LogRow, Pending, Round, Rules as RoundOptions, StalemateRule, UndoRecord,
    action_text,
};
use crate::games::nerts::{
    Policy, UNDO, builds_down, builds_on_foundation, depth, dst, fits_foundations, kind, src,
};
use crate::nerts_rollout::{
    PublicSeat, Racing, Request, RolloutError, Rules, Timing, choose, knowledge,
};
use crate::rng::CardRng;

/// `RuleOfThumbAgent.CLEAR_RANKS`.
const CLEAR_RANKS: u8 = 3;

/// Whether physical card `card` may go on a work pile whose top is `top`.
#[inline]
fn fits_work(card: u8, top: u8) -> bool {
    builds_down(natural_face(card), natural_face(top))
}

/// The look-ahead's speed profile of the round's options.
pub fn timing_of(o: &RoundOptions) -> Timing {
    let [m_play, m_build, m_seq, m_flip, m_call] = o.medians.map(|m| m as f64);
    let ms = |v: i64| u32::try_from(v.max(0)).unwrap_or(u32::MAX);
    Timing {
        m_play,
        m_build,
        m_seq,
        m_flip,
        m_call,
        sigma: o.sigma,
        miss: o.miss,
        min_ms: ms(o.min_ms),
        max_ms: ms(o.max_ms),
        retry_ms: ms(o.retry_ms),
    }
}

/// The look-ahead's rules of the round's options.
pub fn rules_of(o: &RoundOptions) -> Rules {
    Rules {
        num_work: o.num_work,
        flip_count: o.flip_count,
        partial: o.partial,
        fill_any: o.fill_any,
        max_recycles: o.stock_passes.map_or(u32::MAX, |p| p.saturating_sub(1)),
        auto_call: o.auto_call,
        foundation_points: o.foundation_points,
        nerts_penalty: o.nerts_penalty,
        nerts_bonus: o.nerts_bonus,
    }
}

/// A built-in agent (`cardcore.nerts.agents`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Agent {
    /// `RandomAgent`.
    Random,
    /// `GreedyAgent`.
    Greedy,
    /// `RuleOfThumbAgent`.
    RuleOfThumb,
    /// `HardAgent` / `ExpertAgent` with its settings (`racing` already in the full form
    /// `lookahead.choose` passes on).
    Hard {
        /// Most sampled deals per candidate.
        samples: u32,
        /// Look-ahead horizon.
        horizon_ms: u32,
        /// The plan's head start in points.
        margin: f64,
        /// `(first, step, z, max_loss)`.
        racing: Racing,
    },
}

/// `StockMemory`: one seat's stock and waste in cycle order as far as it has seen them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StockMemory {
    /// The cycle (`None` = not seen), or no memory yet.
    pub cycle: Option<Vec<Option<u8>>>,
    /// Waste count at the last update.
    pub waste: u32,
    /// Stalemate remedies at the last update.
    pub stalemates: u32,
}

/// A seat's agent and its state (`HardAgent._memory[seat]`, `_last_ms[seat]`, searches run).
#[derive(Clone, Debug, PartialEq)]
pub struct SeatAgent {
    /// The policy.
    pub agent: Agent,
    /// The stock memory (`None` = the seat has none yet).
    pub memory: Option<StockMemory>,
    /// The last decision's clock (`None` = none yet).
    pub last_ms: Option<i64>,
    /// Searches run here (added to `HardAgent.searches`).
    pub searches: u64,
}

/// The built-in agents of a table's seats (`None`: a seat driven from outside).
#[derive(Clone, Debug, Default)]
pub struct Agents(pub Vec<Option<SeatAgent>>);

impl Policy for Agents {
    type Error = IllegalMove;

    fn plays(&self, seat: usize) -> bool {
        self.0.get(seat).is_some_and(Option::is_some)
    }

    fn act(
        &mut self,
        round: &Round,
        seat: usize,
        legal: &[u32],
        rng: &mut CardRng,
    ) -> Result<Option<u32>, IllegalMove> {
        let Some(sa) = self.0.get_mut(seat).and_then(Option::as_mut) else {
            return Ok(None);
        };
        let obs = observation(round, seat);
        Ok(sa.act(round.rules(), &obs, legal, rng))
    }
}

/// The observation seat `seat` decides on (`NertsObservation`).
fn observation(round: &Round, seat: usize) -> Obs {
    let t = &round.table;
    let players = t.seats.iter().map(PublicSeat::of).collect();
    Obs {
        seat,
        now: round.now,
        players,
        foundations: t.foundations.clone(),
        stalemates: t.seats[seat].stalemates,
        recycles: t.seats[seat].recycles,
    }
}

/// The observation a seat decides on (`NertsObservation`), kept as what the agents read.
#[derive(Clone, Debug)]
pub struct Obs {
    /// The deciding seat.
    pub seat: usize,
    /// The clock (ms since the round started).
    pub now: i64,
    /// Every seat's public layout.
    pub players: Vec<PublicSeat>,
    /// The foundation piles (card ids, bottom to top).
    pub foundations: Vec<Vec<u8>>,
    /// Stalemate remedies so far this round.
    pub stalemates: u32,
    /// The deciding seat's recycles.
    pub recycles: u32,
}

impl Obs {
    fn me(&self) -> &PublicSeat {
        &self.players[self.seat]
    }

    fn fits_foundation(&self, card: u8) -> bool {
        fits_foundations(card, &self.foundations)
    }

    fn foundation_gap(&self, card: u8) -> u8 {
        foundation_gap(
            card,
            self.foundations.iter().filter_map(|f| f.last().copied()),
        )
    }

    fn source_card(&self, s: u8) -> Option<u8> {
        let me = self.me();
        match s {
            SRC_NERTS => me.nerts_top,
            SRC_WASTE => me.waste_top,
            i => me.work.get(usize::from(i)).and_then(|p| p.last().copied()),
        }
    }
}

/// Legal moves by kind (`_sort_moves`).
#[derive(Default)]
struct Sorted {
    urgent: Option<u32>,
    found: Vec<u32>,
    nerts_work: Vec<u32>,
    waste_work: Vec<u32>,
    work_work: Vec<u32>,
}

fn sort_moves(legal: &[u32]) -> Sorted {
    let mut m = Sorted::default();
    for &a in legal {
        let k = kind(a);
        if k == K_CALL || (k == K_FOUNDATION && src(a) == SRC_NERTS) {
            m.urgent = Some(a);
            return m;
        }
        if k == K_FOUNDATION {
            m.found.push(a);
        } else if k == K_WORK {
            match src(a) {
                SRC_NERTS => m.nerts_work.push(a),
                SRC_WASTE => m.waste_work.push(a),
                _ => m.work_work.push(a),
            }
        }
    }
    m
}

fn stock_action(legal: &[u32]) -> Option<u32> {
    legal
        .iter()
        .copied()
        .find(|&a| matches!(kind(a), K_FLIP | K_RECYCLE))
}

/// Real builds before empty piles (a stable sort on "the target pile is empty").
fn real_build_first(moves: &mut [u32], work: &[Vec<u8>]) {
    moves.sort_by_key(|&a| work[usize::from(dst(a))].is_empty());
}

/// The plans' last resort: a pile move onto a non-empty pile that empties its pile or exposes
/// a card that fits a foundation, else flip or recycle.
fn pile_move_or_stock(obs: &Obs, work_work: &[u32], legal: &[u32]) -> Option<u32> {
    let me = obs.me();
    for &a in work_work {
        let from = &me.work[usize::from(src(a))];
        if me.work[usize::from(dst(a))].is_empty() {
            continue;
        }
        let d = usize::from(depth(a));
        if d == from.len() || obs.fits_foundation(from[from.len() - d - 1]) {
            return Some(a);
        }
    }
    stock_action(legal)
}

fn greedy_act(obs: &Obs, legal: &[u32]) -> Option<u32> {
    let me = obs.me();
    let mut m = sort_moves(legal);
    if m.urgent.is_some() {
        return m.urgent;
    }
    if let Some(&a) = m.found.first() {
        return Some(a);
    }
    if !m.nerts_work.is_empty() {
        real_build_first(&mut m.nerts_work, &me.work);
        return Some(m.nerts_work[0]);
    }
    if !m.waste_work.is_empty() {
        real_build_first(&mut m.waste_work, &me.work);
        return Some(m.waste_work[0]);
    }
    pile_move_or_stock(obs, &m.work_work, legal)
}

/// `RuleOfThumbAgent.act`.
fn rule_of_thumb_act(obs: &Obs, legal: &[u32]) -> Option<u32> {
    let me = obs.me();
    let nerts_top = me.nerts_top;
    let mut m = sort_moves(legal);
    if m.urgent.is_some() {
        return m.urgent;
    }
    if !m.nerts_work.is_empty() {
        real_build_first(&mut m.nerts_work, &me.work);
        return Some(m.nerts_work[0]);
    }
    // both fill rules let an exposed empty pile take the Nerts card
    let nerts_fits_after_exposing = |pile: &[u8], d: usize| match nerts_top {
        None => false,
        Some(nt) => pile.len() == d || fits_work(nt, pile[pile.len() - d - 1]),
    };
    if let Some(nt) = nerts_top {
        if let Some(a) = waste_unlock(me.waste_top, nt, &m.found, &m.waste_work, &me.work) {
            return Some(a);
        }
        for &fa in &m.found {
            let s = src(fa);
            if s != SRC_NERTS
                && s != SRC_WASTE
                && nerts_fits_after_exposing(&me.work[usize::from(s)], 1)
            {
                return Some(fa);
            }
        }
        for &a in &m.work_work {
            if !me.work[usize::from(dst(a))].is_empty()
                && nerts_fits_after_exposing(&me.work[usize::from(src(a))], usize::from(depth(a)))
            {
                return Some(a);
            }
        }
    }
    if !m.found.is_empty() {
        // max() keeps the first of the best
        let mut best = m.found[0];
        let mut best_value = foundation_value(obs, best);
        for &fa in &m.found[1..] {
            let v = foundation_value(obs, fa);
            if v > best_value {
                (best, best_value) = (fa, v);
            }
        }
        return Some(best);
    }
    let mut best = None;
    for &a in &m.waste_work {
        let target = &me.work[usize::from(dst(a))];
        let Some(&top) = target.last() else {
            if nerts_top.is_some() {
                continue;
            }
            if best.is_none() {
                best = Some(a);
            }
            continue;
        };
        if let Some(nt) = nerts_top {
            if fits_work(nt, top) {
                continue;
            }
            if target
                .iter()
                .map(|&c| obs.foundation_gap(c))
                .max()
                .unwrap_or(0)
                <= CLEAR_RANKS
            {
                continue;
            }
        }
        best = Some(a);
        break;
    }
    if best.is_some() {
        return best;
    }
    pile_move_or_stock(obs, &m.work_work, legal)
}

fn waste_unlock(
    waste_top: Option<u8>,
    nerts_top: u8,
    found: &[u32],
    waste_work: &[u32],
    work: &[Vec<u8>],
) -> Option<u32> {
    for &fa in found {
        let card = match src(fa) {
            SRC_WASTE => waste_top,
            s if s < 5 => work[usize::from(s)].last().copied(),
            _ => None,
        };
        // a card whose foundation the Nerts top goes on next
        if card.is_some_and(|c| builds_on_foundation(nerts_top, c)) {
            return Some(fa);
        }
    }
    if let Some(wt) = waste_top
        && fits_work(nerts_top, wt)
    {
        for &a in waste_work {
            if !work[usize::from(dst(a))].is_empty() {
                return Some(a);
            }
        }
    }
    None
}

fn foundation_value(obs: &Obs, fa: u32) -> i32 {
    let Some(card) = obs.source_card(src(fa)) else {
        return -1;
    };
    let mut value = 0;
    let (r, s) = (rank_of(card), suit_of(card));
    for (seat, p) in obs.players.iter().enumerate() {
        if seat == obs.seat {
            continue;
        }
        let tops = [p.nerts_top, p.waste_top]
            .into_iter()
            .chain(p.work.iter().map(|w| w.last().copied()));
        if tops.flatten().any(|t| rank_of(t) == r && suit_of(t) == s) {
            value += 4;
            break;
        }
    }
    if src(fa) != SRC_NERTS && src(fa) != SRC_WASTE {
        value += 2;
    }
    value
}

/// `_distinct`: candidates less the moves that differ only by which empty pile they fill, and
/// less whole piles moved into an empty pile; `keep` stays.
fn distinct(candidates: &[u32], work: &[Vec<u8>], keep: Option<u32>) -> Vec<u32> {
    let mut out = Vec::with_capacity(candidates.len());
    let mut seen: Vec<(u8, u8)> = Vec::new();
    for &a in candidates {
        if kind(a) == K_WORK && work[usize::from(dst(a))].is_empty() && Some(a) != keep {
            let s = src(a);
            if usize::from(s) < work.len() && usize::from(depth(a)) == work[usize::from(s)].len() {
                continue;
            }
            if seen.contains(&(s, depth(a))) {
                continue;
            }
            seen.push((s, depth(a)));
        }
        out.push(a);
    }
    if out.is_empty() {
        out.extend(candidates.first());
    }
    out
}

impl StockMemory {
    /// The cycle after this observation (`cardcore.nerts.lookahead.StockMemory.update`, which
    /// calls this). A change it cannot explain (a stalemate remedy it missed, a replayed
    /// position) makes it forget what it knew rather than guess.
    ///
    /// # Panics
    /// A remembered `waste` beyond the remembered cycle (never the case after an update).
    pub fn update(&mut self, obs: &Obs, rule: StalemateRule) -> Vec<Option<u8>> {
        let me = obs.me();
        let w = usize::from(me.waste_count);
        let top = me.waste_top;
        let total = w + usize::from(me.stock_count);
        let mut cyc = self.cycle.take();
        if let Some(c) = cyc.as_mut()
            && obs.stalemates != self.stalemates
        {
            if rule == StalemateRule::RotateOne && c.len() > 1 {
                for _ in 0..obs.stalemates.saturating_sub(self.stalemates) {
                    c.rotate_left(1);
                }
            }
            self.waste = 0;
        }
        if let Some(c) = cyc.as_mut() {
            let (t0, w0) = (c.len(), self.waste as usize);
            if total + 1 == t0 && w + 1 == w0 {
                c.remove(w0 - 1);
            } else if total == t0 + 1 && w == w0 + 1 {
                c.insert(w0, top);
            } else if total != t0 {
                cyc = None;
            }
        }
        if let Some(c) = &cyc
            && w > 0
            && c[w - 1].is_some()
            && c[w - 1] != top
        {
            cyc = None;
        }
        if let Some(c) = &cyc {
            let visible = |x: u8| {
                me.work.iter().flatten().any(|&v| v == x)
                    || obs.foundations.iter().flatten().any(|&v| v == x)
                    || me.nerts_top == Some(x)
            };
            if c.iter().flatten().any(|&x| visible(x)) {
                cyc = None;
            }
        }
        let mut c = cyc.unwrap_or_else(|| vec![None; total]);
        if w > 0 {
            c[w - 1] = top;
        }
        self.cycle = Some(c.clone());
        {
            self.waste = w as u32;
        }
        self.stalemates = obs.stalemates;
        c
    }
}

impl SeatAgent {
    /// The agent's choice among `legal` codes on `obs` under the round's options `o` (one
    /// decision of `agent.act(observation, legal, rng)` outside a round: the Python handles of
    /// the built-in agents); updates the memory, the last decision's clock and `searches`.
    pub fn decide(
        &mut self,
        o: &RoundOptions,
        obs: &Obs,
        legal: &[u32],
        rng: &mut CardRng,
    ) -> Option<u32> {
        self.act(o, obs, legal, rng)
    }

    /// The agent's choice among `legal` (`agent.act(obs, legal, rng)`).
    fn act(
        &mut self,
        o: &RoundOptions,
        obs: &Obs,
        legal: &[u32],
        rng: &mut CardRng,
    ) -> Option<u32> {
        match self.agent {
            Agent::Random => {
                let choices: Vec<u32> = legal.iter().copied().filter(|&a| a != UNDO).collect();
                if choices.is_empty() {
                    return None;
                }
                let i = rng.below(choices.len() as u64) as usize;
                Some(choices[i])
            }
            Agent::Greedy => greedy_act(obs, legal),
            Agent::RuleOfThumb => rule_of_thumb_act(obs, legal),
            Agent::Hard {
                samples,
                horizon_ms,
                margin,
                racing,
            } => {
                let search = Search {
                    samples,
                    horizon_ms,
                    margin,
                    racing,
                };
                self.hard_act(o, obs, legal, rng, &search)
            }
        }
    }

    fn hard_act(
        &mut self,
        o: &RoundOptions,
        obs: &Obs,
        legal: &[u32],
        rng: &mut CardRng,
        search: &Search,
    ) -> Option<u32> {
        let rule = o.stalemate_rule;
        if obs.now == 0 || obs.now < self.last_ms.unwrap_or(0) || self.memory.is_none() {
            self.memory = Some(StockMemory::default());
        }
        self.last_ms = Some(obs.now);
        let cycle = self
            .memory
            .get_or_insert_with(StockMemory::default)
            .update(obs, rule);
        let mut candidates: Vec<u32> = legal.iter().copied().filter(|&a| a != UNDO).collect();
        for &a in &candidates {
            if kind(a) == K_CALL || (kind(a) == K_FOUNDATION && src(a) == SRC_NERTS) {
                return Some(a);
            }
        }
        if candidates.len() <= 1 {
            return candidates.first().copied();
        }
        let prior = rule_of_thumb_act(obs, legal);
        candidates = distinct(&candidates, &obs.me().work, prior);
        if candidates.len() == 1 {
            return Some(candidates[0]);
        }
        let seed = rng.next_u64();
        let bonus: Vec<f64> = candidates
            .iter()
            .map(|&a| if Some(a) == prior { search.margin } else { 0.0 })
            .collect();
        self.searches += 1;
        match look_ahead(o, obs, &cycle, &candidates, &bonus, seed, search) {
            Ok(best) => Some(candidates[best]),
            Err(_) => {
                self.memory = Some(StockMemory::default());
                Some(prior.unwrap_or(candidates[0]))
            }
        }
    }
}

/// A hard agent's search settings.
struct Search {
    samples: u32,
    horizon_ms: u32,
    margin: f64,
    racing: Racing,
}

fn look_ahead(
    o: &RoundOptions,
    obs: &Obs,
    cycle: &[Option<u8>],
    candidates: &[u32],
    bonus: &[f64],
    seed: u64,
    search: &Search,
) -> Result<usize, RolloutError> {
    let (seats, need) = knowledge(
        &obs.players,
        &obs.foundations,
        obs.seat,
        cycle,
        obs.recycles,
    )?;
    let req = Request {
        seats: &seats,
        need,
        root: obs.seat,
        horizon_ms: search.horizon_ms,
        samples: search.samples,
        seed,
        timing: timing_of(o),
        rules: rules_of(o),
    };
    choose(&req, candidates, bonus, &search.racing)
}
