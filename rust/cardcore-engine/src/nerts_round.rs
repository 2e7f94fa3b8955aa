//! A whole Nerts round played in Rust by the built-in agents: the discrete-event engine of
//! `cardcore.nerts.engine.Round` (RULES §4.5), the table of `cardcore.nerts.table.NertsTable`
//! and the agents of `cardcore.nerts.agents` (`random`, `greedy`, the rule-of-thumb plan,
//! `hard` and `expert` with their stock memory and look-ahead), step for step the same: the
//! same random draws in the same order, the same choices and the same event log. `Round.run`
//! hands a round over to [`RoundState::run`] when every seat is played by one of these agents;
//! the Python classes stay the reference (tests play rounds both ways and compare the logs).
//!
//! Cards are physical ids (`seat * 52 + face`); moves are the packed codes of [`crate::nerts`]
//! plus [`K_UNDO`].

use crate::card::{ACE, KING, builds_down, natural_face, rank_of, suit_of};
use crate::nerts::{
    F_FILL_ANY, F_PARTIAL, F_RECYCLE, F_RUNNING, K_CALL, K_FLIP, K_FOUNDATION, K_RECYCLE, K_WORK,
    MAX_WORK, MoveBuf, NONE, PlayerView, SRC_NERTS, SRC_WASTE, generate,
};
use crate::nerts_rollout::{
    PublicSeat, Racing, Request, RolloutError, Rules, Timing, choose, depth, dst, kind, knowledge,
    src,
};
use crate::rng::CardRng;

/// Packed code of `Undo` (kind 5).
pub const K_UNDO: u8 = 5;
const UNDO: u32 = K_UNDO as u32;
const CALL: u32 = K_CALL as u32;
const ACT: u8 = 0;
const THINK: u8 = 1;
/// `RuleOfThumbAgent.CLEAR_RANKS`.
const CLEAR_RANKS: u8 = 3;

/// Whether physical card `card` may go on a work pile whose top is `top`.
#[inline]
fn fits_work(card: u8, top: u8) -> bool {
    builds_down(natural_face(card), natural_face(top))
}

/// `str(action)` of a move code.
#[must_use]
pub fn action_text(mv: u32) -> String {
    let src_text = |s: u8| match s {
        SRC_NERTS => "N".to_string(),
        SRC_WASTE => "W".to_string(),
        i => format!("P{i}"),
    };
    match kind(mv) {
        K_FOUNDATION => {
            let d = dst(mv);
            let target = if d == NONE {
                String::new()
            } else {
                d.to_string()
            };
            format!("{}>F{target}", src_text(src(mv)))
        }
        K_WORK => {
            let d = depth(mv);
            let dtext = if d == 1 {
                String::new()
            } else {
                format!(":{d}")
            };
            format!("{}{dtext}>P{}", src_text(src(mv)), dst(mv))
        }
        K_FLIP => "flip".into(),
        K_RECYCLE => "recycle".into(),
        K_CALL => "nerts".into(),
        _ => "undo".into(),
    }
}

/// What a global stalemate does (`stalemate_rule`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StalemateRule {
    /// Waste back to stock, the top stock card to the bottom.
    RotateOne,
    /// Waste back to stock, one card per flip from now on.
    FlipOne,
    /// The round ends.
    EndRound,
}

/// The round's options (`cardcore.nerts.options.Options` and its speed profile).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RoundOptions {
    /// Work piles per seat.
    pub num_work: u8,
    /// Cards per flip (`flip_count`; the look-ahead's, whatever a stalemate did to a seat).
    pub flip_count: u8,
    /// `stock_passes` (`None` = unlimited).
    pub stock_passes: Option<u32>,
    /// `allow_partial_pile_moves`.
    pub partial: bool,
    /// `empty_work_pile_fill == "any"`.
    pub fill_any: bool,
    /// `auto_call_nerts`.
    pub auto_call: bool,
    /// Points per own card on a foundation.
    pub foundation_points: i32,
    /// Points lost per card left in the Nerts pile.
    pub nerts_penalty: i32,
    /// Points for the caller.
    pub nerts_bonus: i32,
    /// `stalemate_rule`.
    pub stalemate_rule: StalemateRule,
    /// `max_consecutive_stalemates`.
    pub max_stalemates: u32,
    /// `undo_depth`.
    pub undo_depth: usize,
    /// Median delays per class: play, build, segment, flip/recycle, call (whole ms).
    pub medians: [i64; 5],
    /// Log-normal sigma.
    pub sigma: f64,
    /// Probability of overlooking a chosen foundation play.
    pub miss: f64,
    /// Smallest delay.
    pub min_ms: i64,
    /// Largest delay.
    pub max_ms: i64,
    /// Wait before re-planning (`m_play // 2`).
    pub retry_ms: i64,
}

impl RoundOptions {
    fn timing(&self) -> Timing {
        let [m_play, m_build, m_seq, m_flip, m_call] = self.medians.map(|m| m as f64);
        let ms = |v: i64| u32::try_from(v.max(0)).unwrap_or(u32::MAX);
        Timing {
            m_play,
            m_build,
            m_seq,
            m_flip,
            m_call,
            sigma: self.sigma,
            miss: self.miss,
            min_ms: ms(self.min_ms),
            max_ms: ms(self.max_ms),
            retry_ms: ms(self.retry_ms),
        }
    }

    fn rules(&self) -> Rules {
        Rules {
            num_work: self.num_work,
            flip_count: self.flip_count,
            partial: self.partial,
            fill_any: self.fill_any,
            max_recycles: self.stock_passes.map_or(u32::MAX, |p| p.saturating_sub(1)),
            foundation_points: self.foundation_points,
            nerts_penalty: self.nerts_penalty,
            nerts_bonus: self.nerts_bonus,
        }
    }
}

/// How to reverse one executed action (`_UndoRecord`; `action` is the move code).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UndoRecord {
    /// The move code.
    pub action: u32,
    /// Its kind.
    pub kind: u8,
    /// Source.
    pub src: u8,
    /// Foundation id or target pile.
    pub dst: usize,
    /// Cards moved (or the flip's packet size).
    pub depth: usize,
    /// The card put on a foundation (-1 otherwise).
    pub card: i32,
}

/// One player's cards (`PlayerLayout`): piles bottom to top, the stock's top last.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Nerts pile.
    pub nerts: Vec<u8>,
    /// Work piles.
    pub work: Vec<Vec<u8>>,
    /// Stock.
    pub stock: Vec<u8>,
    /// Waste.
    pub waste: Vec<u8>,
    /// Recycles this round.
    pub recycles: u32,
    /// Cards per flip.
    pub flip_count: u8,
    /// Stalemate remedies applied.
    pub stalemates: u32,
    /// The undo stack, oldest first.
    pub undo: Vec<UndoRecord>,
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

/// A pending event of one seat: `(t, tiebreak)` orders them; `kind` is act or think.
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

/// The whole state of a round (`Round` and its table) as it hands over.
#[derive(Clone, Debug)]
pub struct RoundState {
    /// Options.
    pub options: RoundOptions,
    /// Every seat's cards.
    pub seats: Vec<Layout>,
    /// Foundation piles.
    pub foundations: Vec<Vec<u8>>,
    /// `table.running`.
    pub table_running: bool,
    /// Clock.
    pub now: i64,
    /// Events executed.
    pub executed: u64,
    /// Caps.
    pub max_ms: i64,
    /// Caps.
    pub max_events: u64,
    /// Consecutive stalemate remedies.
    pub stalemates: u32,
    /// Recycles per seat since the last progress.
    pub recycles_since: Vec<u32>,
    /// Per seat, its pending event.
    pub pending: Vec<Option<Pending>>,
    /// Per seat, asleep until a foundation changes.
    pub sleeping: Vec<bool>,
    /// Per seat, its `timing` stream.
    pub timing: Vec<CardRng>,
    /// Per seat, its `agent` stream.
    pub agent_rng: Vec<CardRng>,
    /// The `tiebreak` stream.
    pub tiebreak: CardRng,
    /// Per seat, its agent.
    pub agents: Vec<SeatAgent>,
    /// End reason once over.
    pub end: Option<&'static str>,
    /// The caller.
    pub caller: Option<usize>,
    /// Rows appended to the log.
    pub log: Vec<LogRow>,
}

/// The observation a seat decides on (`NertsObservation`), kept as what the agents read.
struct Obs {
    seat: usize,
    now: i64,
    players: Vec<PublicSeat>,
    foundations: Vec<Vec<u8>>,
    stalemates: u32,
    recycles: u32,
}

impl Obs {
    fn me(&self) -> &PublicSeat {
        &self.players[self.seat]
    }

    fn fits_foundation(&self, card: u8) -> bool {
        let r = rank_of(card);
        if r == ACE {
            return true;
        }
        let s = suit_of(card);
        self.foundations.iter().any(|f| {
            f.last()
                .is_some_and(|&t| suit_of(t) == s && rank_of(t) == r - 1)
        })
    }

    fn foundation_gap(&self, card: u8) -> u8 {
        let (r, s) = (rank_of(card), suit_of(card));
        let mut gap = r - 1;
        for f in &self.foundations {
            if let Some(&top) = f.last()
                && suit_of(top) == s
                && rank_of(top) < r
            {
                gap = gap.min(r - 1 - rank_of(top));
            }
        }
        gap
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
    let below = (suit_of(nerts_top), rank_of(nerts_top) - 1);
    for &fa in found {
        let card = match src(fa) {
            SRC_WASTE => waste_top,
            s if s < 5 => work[usize::from(s)].last().copied(),
            _ => None,
        };
        if card.is_some_and(|c| (suit_of(c), rank_of(c)) == below) {
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
    /// `StockMemory.update`: the cycle after this observation.
    fn update(&mut self, obs: &Obs, rule: StalemateRule) -> Vec<Option<u8>> {
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

impl RoundState {
    fn n(&self) -> usize {
        self.seats.len()
    }

    fn running(&self) -> bool {
        self.end.is_none()
    }

    fn may_recycle(&self, seat: usize) -> bool {
        self.options
            .stock_passes
            .is_none_or(|p| i64::from(self.seats[seat].recycles) < i64::from(p) - 1)
    }

    fn need_masks(&self) -> [u16; 4] {
        let mut masks = [0u16; 4];
        for f in &self.foundations {
            if let Some(&top) = f.last() {
                let r = rank_of(top);
                if r < KING {
                    masks[usize::from(suit_of(top))] |= 1 << (r + 1);
                }
            }
        }
        masks
    }

    fn fits_foundation(&self, card: u8) -> bool {
        rank_of(card) == ACE
            || self.need_masks()[usize::from(suit_of(card))] >> rank_of(card) & 1 == 1
    }

    fn foundation_for(&self, card: u8) -> Option<usize> {
        let (r, s) = (rank_of(card), suit_of(card));
        self.foundations.iter().position(|f| {
            f.last()
                .is_some_and(|&t| rank_of(t) + 1 == r && suit_of(t) == s)
        })
    }

    fn source_top(&self, seat: usize, s: u8) -> Option<u8> {
        let p = &self.seats[seat];
        match s {
            SRC_NERTS => p.nerts.last().copied(),
            SRC_WASTE => p.waste.last().copied(),
            i => p.work.get(usize::from(i)).and_then(|w| w.last().copied()),
        }
    }

    fn undo_legal(&self, seat: usize) -> bool {
        let Some(rec) = self.seats[seat].undo.last() else {
            return false;
        };
        if !self.table_running {
            return false;
        }
        if rec.kind == K_FOUNDATION {
            let f = &self.foundations[rec.dst];
            if f.len() == 1 && rec.dst != self.foundations.len() - 1 {
                return false;
            }
            return f.last().map(|&c| i32::from(c)) == Some(rec.card);
        }
        true
    }

    /// `NertsTable.legal_actions`: the generator's codes, then `Undo` when legal.
    fn legal_actions(&self, seat: usize) -> Vec<u32> {
        let p = &self.seats[seat];
        let o = &self.options;
        let mut flags = 0;
        if o.partial {
            flags |= F_PARTIAL;
        }
        if o.fill_any {
            flags |= F_FILL_ANY;
        }
        if self.may_recycle(seat) {
            flags |= F_RECYCLE;
        }
        if self.table_running {
            flags |= F_RUNNING;
        }
        let face = |c: Option<&u8>| c.map_or(NONE, |&c| natural_face(c));
        let mut v = PlayerView {
            nerts_count: p.nerts.len() as u8,
            nerts_top: face(p.nerts.last()),
            stock: p.stock.len() as u8,
            waste: p.waste.len() as u8,
            waste_top: face(p.waste.last()),
            num_work: p.work.len() as u8,
            flags,
            work_len: [0; MAX_WORK],
            work_top: [NONE; MAX_WORK],
            need: self.need_masks(),
        };
        for (i, pile) in p.work.iter().enumerate().take(MAX_WORK) {
            if let Some(&top) = pile.last() {
                v.work_len[i] = pile.len() as u8;
                v.work_top[i] = natural_face(top);
            }
        }
        let mut buf = MoveBuf::default();
        generate(&v, &mut buf);
        let mut out = buf.as_slice().to_vec();
        if self.undo_legal(seat) {
            out.push(UNDO);
        }
        out
    }

    /// `NertsTable.is_legal` for the moves agents make (auto foundation targets).
    fn is_legal(&self, seat: usize, mv: u32) -> bool {
        if !self.table_running {
            return false;
        }
        let p = &self.seats[seat];
        match kind(mv) {
            K_FOUNDATION => {
                let Some(card) = self.source_top(seat, src(mv)) else {
                    return false;
                };
                if dst(mv) == NONE {
                    return self.fits_foundation(card);
                }
                let t = usize::from(dst(mv));
                if rank_of(card) == ACE || t >= self.foundations.len() {
                    return false;
                }
                let top = *self.foundations[t].last().unwrap_or(&0);
                suit_of(top) == suit_of(card) && rank_of(top) + 1 == rank_of(card)
            }
            K_WORK => {
                let (s, d, j) = (src(mv), usize::from(depth(mv)), usize::from(dst(mv)));
                let w = p.work.len();
                if j >= w || usize::from(s) == j {
                    return false;
                }
                let card = if s == SRC_NERTS || s == SRC_WASTE {
                    if d != 1 {
                        return false;
                    }
                    match self.source_top(seat, s) {
                        Some(c) => c,
                        None => return false,
                    }
                } else if usize::from(s) < w {
                    let pile = &p.work[usize::from(s)];
                    if !(1..=pile.len()).contains(&d) || (!self.options.partial && d != pile.len())
                    {
                        return false;
                    }
                    pile[pile.len() - d]
                } else {
                    return false;
                };
                match p.work[j].last() {
                    None => self.options.fill_any || s == SRC_NERTS,
                    Some(&top) => fits_work(card, top),
                }
            }
            K_FLIP => !p.stock.is_empty(),
            K_RECYCLE => p.stock.is_empty() && !p.waste.is_empty() && self.may_recycle(seat),
            K_CALL => p.nerts.is_empty(),
            K_UNDO => self.undo_legal(seat),
            _ => false,
        }
    }

    fn pop_source(&mut self, seat: usize, s: u8) -> u8 {
        let p = &mut self.seats[seat];
        let card = match s {
            SRC_NERTS => p.nerts.pop(),
            SRC_WASTE => p.waste.pop(),
            i => p.work[usize::from(i)].pop(),
        };
        card.unwrap_or(NONE)
    }

    /// `NertsTable.apply` for a legal move other than `Undo` (agents never undo).
    fn apply(&mut self, seat: usize, mv: u32) {
        let rec = match kind(mv) {
            K_FOUNDATION => {
                let card = self.pop_source(seat, src(mv));
                let fid = if rank_of(card) == ACE {
                    self.foundations.push(vec![card]);
                    self.foundations.len() - 1
                } else {
                    let fid = if dst(mv) == NONE {
                        self.foundation_for(card).unwrap_or(0)
                    } else {
                        usize::from(dst(mv))
                    };
                    self.foundations[fid].push(card);
                    fid
                };
                Some(UndoRecord {
                    action: mv,
                    kind: K_FOUNDATION,
                    src: src(mv),
                    dst: fid,
                    depth: 1,
                    card: i32::from(card),
                })
            }
            K_WORK => {
                let (s, d, j) = (src(mv), usize::from(depth(mv)), usize::from(dst(mv)));
                let moved = if s == SRC_NERTS || s == SRC_WASTE {
                    vec![self.pop_source(seat, s)]
                } else {
                    let pile = &mut self.seats[seat].work[usize::from(s)];
                    pile.split_off(pile.len() - d)
                };
                let n = moved.len();
                self.seats[seat].work[j].extend(moved);
                Some(UndoRecord {
                    action: mv,
                    kind: K_WORK,
                    src: s,
                    dst: j,
                    depth: n,
                    card: -1,
                })
            }
            K_FLIP => {
                let p = &mut self.seats[seat];
                let k = usize::from(p.flip_count).min(p.stock.len());
                let packet = p.stock.split_off(p.stock.len() - k);
                p.waste.extend(packet.iter().rev());
                Some(UndoRecord {
                    action: mv,
                    kind: K_FLIP,
                    src: 0,
                    dst: 0,
                    depth: k,
                    card: -1,
                })
            }
            K_RECYCLE => {
                let p = &mut self.seats[seat];
                p.stock = p.waste.iter().rev().copied().collect();
                p.waste.clear();
                p.recycles += 1;
                Some(UndoRecord {
                    action: mv,
                    kind: K_RECYCLE,
                    src: 0,
                    dst: 0,
                    depth: 0,
                    card: -1,
                })
            }
            K_CALL => {
                self.table_running = false;
                None
            }
            _ => None,
        };
        let depth_limit = self.options.undo_depth;
        let stack = &mut self.seats[seat].undo;
        if let Some(rec) = rec
            && depth_limit > 0
        {
            stack.push(rec);
            if stack.len() > depth_limit {
                stack.remove(0);
            }
        } else if kind(mv) == K_CALL {
            stack.clear();
        }
    }

    fn rotate_stalemate(&mut self, seat: usize) {
        let rule = self.options.stalemate_rule;
        let p = &mut self.seats[seat];
        p.stalemates += 1;
        let waste = std::mem::take(&mut p.waste);
        p.stock.extend(waste.iter().rev());
        if rule == StalemateRule::RotateOne && p.stock.len() > 1 {
            p.stock.rotate_right(1);
        } else if rule == StalemateRule::FlipOne {
            p.flip_count = 1;
        }
        p.undo.clear();
    }

    fn observation(&self, seat: usize) -> Obs {
        let players = self
            .seats
            .iter()
            .map(|p| PublicSeat {
                nerts_count: p.nerts.len() as u8,
                nerts_top: p.nerts.last().copied(),
                work: p.work.clone(),
                waste_count: p.waste.len() as u8,
                stock_count: p.stock.len() as u8,
                waste_top: p.waste.last().copied(),
            })
            .collect();
        Obs {
            seat,
            now: self.now,
            players,
            foundations: self.foundations.clone(),
            stalemates: self.seats[seat].stalemates,
            recycles: self.seats[seat].recycles,
        }
    }

    /// The seat's agent's choice among `legal` (`agent.act(obs, legal, rng)`).
    fn act(&mut self, seat: usize, obs: &Obs, legal: &[u32]) -> Option<u32> {
        match self.agents[seat].agent {
            Agent::Random => {
                let choices: Vec<u32> = legal.iter().copied().filter(|&a| a != UNDO).collect();
                if choices.is_empty() {
                    return None;
                }
                let i = self.agent_rng[seat].below(choices.len() as u64) as usize;
                Some(choices[i])
            }
            Agent::Greedy => greedy_act(obs, legal),
            Agent::RuleOfThumb => rule_of_thumb_act(obs, legal),
            Agent::Hard {
                samples,
                horizon_ms,
                margin,
                racing,
            } => self.hard_act(seat, obs, legal, samples, horizon_ms, margin, racing),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn hard_act(
        &mut self,
        seat: usize,
        obs: &Obs,
        legal: &[u32],
        samples: u32,
        horizon_ms: u32,
        margin: f64,
        racing: Racing,
    ) -> Option<u32> {
        let rule = self.options.stalemate_rule;
        let sa = &mut self.agents[seat];
        if obs.now == 0 || obs.now < sa.last_ms.unwrap_or(0) || sa.memory.is_none() {
            sa.memory = Some(StockMemory::default());
        }
        sa.last_ms = Some(obs.now);
        let cycle = sa
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
        let seed = self.agent_rng[seat].next_u64();
        let bonus: Vec<f64> = candidates
            .iter()
            .map(|&a| if Some(a) == prior { margin } else { 0.0 })
            .collect();
        self.agents[seat].searches += 1;
        match self.look_ahead(
            obs,
            &cycle,
            &candidates,
            &bonus,
            samples,
            horizon_ms,
            seed,
            racing,
        ) {
            Ok(best) => Some(candidates[best]),
            Err(_) => {
                self.agents[seat].memory = Some(StockMemory::default());
                Some(prior.unwrap_or(candidates[0]))
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn look_ahead(
        &self,
        obs: &Obs,
        cycle: &[Option<u8>],
        candidates: &[u32],
        bonus: &[f64],
        samples: u32,
        horizon_ms: u32,
        seed: u64,
        racing: Racing,
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
            horizon_ms,
            samples,
            seed,
            timing: self.options.timing(),
            rules: self.options.rules(),
        };
        choose(&req, candidates, bonus, &racing)
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
        let o = &self.options;
        let class = match kind(mv) {
            K_FOUNDATION => 0,
            K_WORK if depth(mv) > 1 => 2,
            K_WORK => 1,
            K_FLIP | K_RECYCLE => 3,
            K_CALL => 4,
            _ => 1,
        };
        let d = self.timing[seat].next_lognormal(o.medians[class] as f64, o.sigma);
        let r = d.round_ties_even() as i64;
        o.min_ms.max(o.max_ms.min(r))
    }

    fn decide(&mut self, seat: usize) {
        if !self.running() || self.pending[seat].is_some() {
            return;
        }
        let legal = self.legal_actions(seat);
        if legal.is_empty() || (legal.len() == 1 && legal[0] == UNDO) {
            self.sleeping[seat] = true;
            return;
        }
        let obs = self.observation(seat);
        let mut action = self.act(seat, &obs, &legal);
        let miss = self.timing[seat].next_f64() < self.options.miss;
        if miss && action.is_some_and(|a| kind(a) == K_FOUNDATION) {
            let rest: Vec<u32> = legal
                .iter()
                .copied()
                .filter(|&a| Some(a) != action)
                .collect();
            action = if rest.is_empty() {
                None
            } else {
                self.act(seat, &obs, &rest)
            };
            if action.is_none() {
                let t = self.now + self.options.retry_ms;
                self.schedule(seat, t, THINK, None);
                return;
            }
        }
        let Some(action) = action else {
            self.sleeping[seat] = true;
            return;
        };
        self.sleeping[seat] = false;
        let t = self.now + self.delay(seat, action);
        self.schedule(seat, t, ACT, Some(action));
    }

    fn wake_all(&mut self) {
        for s in 0..self.n() {
            if self.sleeping[s] && self.pending[s].is_none() {
                self.sleeping[s] = false;
                self.decide(s);
            }
        }
    }

    fn log(&mut self, seat: i32, text: String, ok: bool) {
        self.log.push(LogRow {
            t: self.now,
            seat,
            text,
            ok,
        });
    }

    fn execute(&mut self, seat: usize, mv: u32) {
        self.executed += 1;
        let who = seat as i32;
        if !self.is_legal(seat, mv) {
            self.log(who, action_text(mv), false);
            let t = self.now + self.options.retry_ms;
            self.schedule(seat, t, THINK, None);
            return;
        }
        self.apply(seat, mv);
        self.log(who, action_text(mv), true);
        if kind(mv) == K_CALL {
            self.finish(self.now, "nerts", Some(seat));
            return;
        }
        let progress = kind(mv) == K_FOUNDATION
            || (kind(mv) == K_WORK && matches!(src(mv), SRC_NERTS | SRC_WASTE));
        if progress {
            self.recycles_since.fill(0);
            self.stalemates = 0;
        } else if kind(mv) == K_RECYCLE {
            self.recycles_since[seat] += 1;
        }
        if self.options.auto_call && self.seats[seat].nerts.is_empty() {
            self.apply(seat, CALL);
            self.log(who, action_text(CALL), true);
            self.finish(self.now, "nerts", Some(seat));
            return;
        }
        if self.check_stalemate() {
            return;
        }
        self.decide(seat);
        if kind(mv) == K_FOUNDATION {
            self.wake_all();
        }
    }

    fn stalled(&self, seat: usize) -> bool {
        if self.recycles_since[seat] >= 2 {
            return true;
        }
        let p = &self.seats[seat];
        if !p.stock.is_empty() || (!p.waste.is_empty() && self.may_recycle(seat)) {
            return false;
        }
        !self.legal_actions(seat).iter().any(|&a| {
            kind(a) == K_FOUNDATION
                || (kind(a) == K_WORK && matches!(src(a), SRC_NERTS | SRC_WASTE))
        })
    }

    fn check_stalemate(&mut self) -> bool {
        let n = self.n();
        let mut resolved = false;
        while (0..n).all(|s| self.stalled(s)) {
            let rule = self.options.stalemate_rule;
            if rule == StalemateRule::EndRound || self.stalemates >= self.options.max_stalemates {
                self.finish(self.now, "stalemate", None);
                return true;
            }
            for s in 0..n {
                self.rotate_stalemate(s);
            }
            self.stalemates += 1;
            self.recycles_since.fill(0);
            let name = match rule {
                StalemateRule::RotateOne => "rotate_one",
                StalemateRule::FlipOne => "flip_one",
                StalemateRule::EndRound => "end_round",
            };
            self.log(-1, format!("stalemate:{name}"), true);
            resolved = true;
        }
        if resolved {
            self.wake_all();
        }
        false
    }

    fn finish(&mut self, t: i64, reason: &'static str, caller: Option<usize>) {
        self.now = t;
        self.end = Some(reason);
        self.caller = caller;
        self.table_running = false;
        self.pending.fill(None);
        self.log(-1, format!("end:{reason}"), true);
    }

    /// `Round.step`: the next event; false when the round is over or nothing is pending.
    fn step(&mut self) -> bool {
        if !self.running() {
            return false;
        }
        let next = (0..self.n())
            .filter_map(|s| self.pending[s].map(|p| (p.t, p.tiebreak, s)))
            .min();
        let Some((t, _, seat)) = next else {
            return false;
        };
        if t > self.max_ms || self.executed >= self.max_events {
            self.finish(t.min(self.max_ms), "cap", None);
            return false;
        }
        let ev = self.pending[seat].take();
        self.now = t;
        match ev {
            Some(Pending {
                kind: ACT,
                action: Some(mv),
                ..
            }) => self.execute(seat, mv),
            _ => self.decide(seat),
        }
        true
    }

    /// `Round.run` (no watch): plays until the round ends.
    pub fn run(&mut self) {
        while self.running() {
            if !self.step() && self.running() {
                self.finish(self.now, "cap", None);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::{deck_of, natural_id};
    use crate::nerts::{K_FLIP, K_RECYCLE, pack};
    use crate::nerts_rollout::{FullSeat, trace};
    use crate::shuffle::permutation;

    fn options(
        num_work: u8,
        flip_count: u8,
        stock_passes: Option<u32>,
        loose: bool,
    ) -> RoundOptions {
        RoundOptions {
            num_work,
            flip_count,
            stock_passes,
            partial: loose,
            fill_any: loose,
            auto_call: false,
            foundation_points: 1,
            nerts_penalty: 2,
            nerts_bonus: 0,
            stalemate_rule: StalemateRule::RotateOne,
            max_stalemates: 3,
            undo_depth: 2,
            medians: [1000; 5],
            sigma: 0.3,
            miss: 0.0,
            min_ms: 100,
            max_ms: 5000,
            retry_ms: 500,
        }
    }

    /// A shuffled deal: per seat a Nerts pile of `nerts` cards, one card per work pile, the
    /// rest in the stock.
    fn deal(o: &RoundOptions, players: usize, nerts: usize, rng: &mut CardRng) -> RoundState {
        let seats = (0..players)
            .map(|seat| {
                let seat_id = u8::try_from(seat).unwrap();
                let mut cards: Vec<u8> = permutation(rng, 52)
                    .into_iter()
                    .map(|f| natural_id(u8::try_from(f).unwrap(), seat_id))
                    .collect();
                let nerts_pile = cards.split_off(cards.len() - nerts);
                let work = (0..o.num_work)
                    .map(|_| vec![cards.pop().unwrap()])
                    .collect();
                Layout {
                    nerts: nerts_pile,
                    work,
                    stock: cards,
                    waste: Vec::new(),
                    recycles: 0,
                    flip_count: o.flip_count,
                    stalemates: 0,
                    undo: Vec::new(),
                }
            })
            .collect();
        RoundState {
            options: *o,
            seats,
            foundations: Vec::new(),
            table_running: true,
            now: 0,
            executed: 0,
            max_ms: 1_000_000,
            max_events: 1_000_000,
            stalemates: 0,
            recycles_since: vec![0; players],
            pending: vec![None; players],
            sleeping: vec![false; players],
            timing: vec![CardRng::new(1); players],
            agent_rng: vec![CardRng::new(2); players],
            tiebreak: CardRng::new(3),
            agents: Vec::new(),
            end: None,
            caller: None,
            log: Vec::new(),
        }
    }

    /// Every seat as the rollout simulator lays it out (faces; the cycle is the waste bottom
    /// to top, then the stock from its top).
    fn laid_out(st: &RoundState) -> Vec<FullSeat> {
        let faces = |cards: &[u8]| cards.iter().map(|&c| natural_face(c)).collect::<Vec<u8>>();
        st.seats
            .iter()
            .enumerate()
            .map(|(seat, p)| FullSeat {
                nerts: faces(&p.nerts),
                work: p.work.iter().map(|w| faces(w)).collect(),
                cycle: faces(
                    &p.waste
                        .iter()
                        .chain(p.stock.iter().rev())
                        .copied()
                        .collect::<Vec<_>>(),
                ),
                waste: u8::try_from(p.waste.len()).unwrap(),
                recycles: p.recycles,
                found: u8::try_from(
                    st.foundations
                        .iter()
                        .flatten()
                        .filter(|&&c| usize::from(deck_of(c)) == seat)
                        .count(),
                )
                .unwrap(),
            })
            .collect()
    }

    /// How many foundations take each (suit, rank) next.
    fn needs(foundations: &[Vec<u8>]) -> [[u8; 16]; 4] {
        let mut need = [[0u8; 16]; 4];
        for &top in foundations.iter().filter_map(|f| f.last()) {
            if rank_of(top) < KING {
                need[usize::from(suit_of(top))][usize::from(rank_of(top)) + 1] += 1;
            }
        }
        need
    }

    /// Every move code the simulator knows (foundation plays with the automatic target).
    fn candidates(num_work: u8) -> Vec<u32> {
        let mut out = vec![
            pack(K_FOUNDATION, SRC_NERTS, 1, NONE),
            pack(K_FOUNDATION, SRC_WASTE, 1, NONE),
        ];
        out.extend((0..num_work).map(|i| pack(K_FOUNDATION, i, 1, NONE)));
        for s in [SRC_NERTS, SRC_WASTE] {
            out.extend((0..num_work).map(|j| pack(K_WORK, s, 1, j)));
        }
        for i in 0..num_work {
            for j in 0..num_work {
                out.extend((1..=13).map(|k| pack(K_WORK, i, k, j)));
            }
        }
        out.extend([pack(K_FLIP, 0, 0, 0), pack(K_RECYCLE, 0, 0, 0), CALL]);
        out
    }

    /// The round's table (`RoundState::is_legal`, `apply`, `legal_actions`) and the rollout
    /// simulator's (`nerts_rollout::trace`) driven through the same random action sequences,
    /// legal and illegal, from random deals: after every step the same verdict, the same full
    /// table (every pile of every seat, stock and waste in cycle order, recycles, cards on
    /// foundations) and the same foundation needs; and the round's move generator lists
    /// exactly the moves its `is_legal` takes. With `tests/nerts/test_nerts_sim_parity.py`
    /// (the Python `NertsTable` against the simulator) this ties the three copies of the move
    /// rules together. Undo and stalemate rotation are the round's alone.
    #[test]
    fn round_and_rollout_tables_agree_step_by_step() {
        let sets = [
            options(4, 3, None, true),
            options(5, 1, None, true),
            options(4, 3, None, false),
            options(4, 3, Some(2), true),
            options(4, 1, Some(1), false),
        ];
        let mut kinds = [0usize; 6];
        for (which, o) in sets.iter().enumerate() {
            for players in 2..=4 {
                for seed in 0..4u64 {
                    let mut rng = CardRng::new(seed * 100 + which as u64 * 10 + players as u64);
                    let nerts = [13, 5, 3][(seed % 3) as usize];
                    let mut st = deal(o, players, nerts, &mut rng);
                    let start = laid_out(&st);
                    let every = candidates(o.num_work);
                    let mut moves = Vec::new();
                    let mut expected = Vec::new();
                    for _ in 0..400 {
                        let seat = rng.below(players as u64) as usize;
                        let legal: Vec<u32> = st
                            .legal_actions(seat)
                            .into_iter()
                            .filter(|&m| m != UNDO)
                            .collect();
                        let by_check: Vec<u32> = every
                            .iter()
                            .copied()
                            .filter(|&m| st.is_legal(seat, m))
                            .collect();
                        let mut sorted = legal.clone();
                        sorted.sort_unstable();
                        let mut by_check_sorted = by_check;
                        by_check_sorted.sort_unstable();
                        assert_eq!(sorted, by_check_sorted, "generator vs is_legal");
                        let mv = if !legal.is_empty() && rng.below(4) != 0 {
                            legal[rng.below(legal.len() as u64) as usize]
                        } else {
                            every[rng.below(every.len() as u64) as usize]
                        };
                        let ok = st.is_legal(seat, mv);
                        if ok && kind(mv) != K_CALL {
                            st.apply(seat, mv);
                            kinds[usize::from(kind(mv))] += 1;
                        }
                        moves.push((seat, mv));
                        expected.push((ok, laid_out(&st), needs(&st.foundations)));
                    }
                    let steps = trace(&start, &[], &o.rules(), &moves).unwrap();
                    assert_eq!(steps.len(), expected.len());
                    for (i, (step, (ok, seats, need))) in steps.iter().zip(&expected).enumerate() {
                        let at = (which, players, seed, i, moves[i]);
                        assert_eq!(step.legal, *ok, "{at:?}");
                        assert_eq!(&step.seats, seats, "{at:?}");
                        assert_eq!(&step.need, need, "{at:?}");
                    }
                }
            }
        }
        // rich sequences: every kind of table change, many times
        assert!(kinds[usize::from(K_FOUNDATION)] > 500, "{kinds:?}");
        assert!(kinds[usize::from(K_WORK)] > 500, "{kinds:?}");
        assert!(kinds[usize::from(K_FLIP)] > 500, "{kinds:?}");
        assert!(kinds[usize::from(K_RECYCLE)] > 20, "{kinds:?}");
    }
}
