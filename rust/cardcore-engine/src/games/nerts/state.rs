//! A Nerts round as a [`RealtimeState`]: the round, the built-in agents of the seats the clock
//! drives, the fixed action ids of the protocol (`cardcore.nerts.game`), the seat-relative
//! observation tensor and the re-deal of hidden cards.
//!
//! Action ids, with `W` work piles: `0` Nerts top to a foundation, `1` waste top, `2 + i` work
//! pile `i`'s top; then the Nerts top onto pile `j` (`W` ids), the waste top onto pile `j`
//! (`W`), the top `d` cards (1..13) of pile `i` onto pile `j != i` (`13 W (W - 1)`); then flip,
//! recycle, call Nerts, undo. Foundation plays name no foundation (the lowest that takes the
//! card).

use super::round::{Humans, Policy, Round};
use super::{
    CALL, K_FLIP, K_FOUNDATION, K_RECYCLE, K_WORK, NONE, Rules, SRC_NERTS, SRC_WASTE, UNDO, depth,
    dst, kind, pack, src,
};
use crate::card::natural_face;
use crate::games::{IllegalMove, RealtimeState};
use crate::nerts_round::{Agents, SeatAgent};
use crate::rng::CardRng;
use crate::shuffle::shuffle;

/// Deepest pile-to-pile move (K down to A).
const MAX_DEPTH: usize = 13;
/// Faces in a tensor block.
const FACES: usize = 52;

/// Size of the action space with `w` work piles.
#[must_use]
pub const fn num_actions(w: usize) -> usize {
    2 + w + 2 * w + MAX_DEPTH * w * (w.saturating_sub(1)) + 4
}

/// The move code of action id `id` with `w` work piles (`None` out of range).
#[must_use]
pub fn action_code(id: usize, w: usize) -> Option<u32> {
    let mut i = id;
    if i < 2 + w {
        let s = match i {
            0 => SRC_NERTS,
            1 => SRC_WASTE,
            p => (p - 2) as u8,
        };
        return Some(pack(K_FOUNDATION, s, 1, NONE));
    }
    i -= 2 + w;
    if i < 2 * w {
        let s = if i < w { SRC_NERTS } else { SRC_WASTE };
        return Some(pack(K_WORK, s, 1, (i % w) as u8));
    }
    i -= 2 * w;
    let per_src = MAX_DEPTH * (w - 1);
    if i < w * per_src {
        let from = i / per_src;
        let r = i % per_src;
        let jj = r / MAX_DEPTH;
        let to = if jj >= from { jj + 1 } else { jj };
        let d = r % MAX_DEPTH + 1;
        return Some(pack(K_WORK, from as u8, d as u8, to as u8));
    }
    i -= w * per_src;
    match i {
        0 => Some(pack(K_FLIP, 0, 0, 0)),
        1 => Some(pack(K_RECYCLE, 0, 0, 0)),
        2 => Some(CALL),
        3 => Some(UNDO),
        _ => None,
    }
}

/// The action id of move code `code` with `w` work piles (a foundation play with a named
/// target maps to its source's id; `None`: no action of this game).
#[must_use]
pub fn action_of_code(code: u32, w: usize) -> Option<usize> {
    let (s, d, j) = (
        usize::from(src(code)),
        usize::from(depth(code)),
        usize::from(dst(code)),
    );
    let src_slot = |s: usize| match s {
        6 => Some(0),
        5 => Some(1),
        p if p < w => Some(2 + p),
        _ => None,
    };
    let base_work = 2 + w;
    let base_pile = base_work + 2 * w;
    let base_end = base_pile + w * MAX_DEPTH * (w.saturating_sub(1));
    match kind(code) {
        K_FOUNDATION => src_slot(s),
        K_WORK if j < w => {
            if s == usize::from(SRC_NERTS) || s == usize::from(SRC_WASTE) {
                (d == 1).then(|| base_work + if s == usize::from(SRC_NERTS) { 0 } else { w } + j)
            } else if s < w && s != j && (1..=MAX_DEPTH).contains(&d) {
                let jj = if j > s { j - 1 } else { j };
                Some(base_pile + s * MAX_DEPTH * (w - 1) + jj * MAX_DEPTH + d - 1)
            } else {
                None
            }
        }
        K_FLIP if code == pack(K_FLIP, 0, 0, 0) => Some(base_end),
        K_RECYCLE if code == pack(K_RECYCLE, 0, 0, 0) => Some(base_end + 1),
        _ if code == CALL => Some(base_end + 2),
        _ if code == UNDO => Some(base_end + 3),
        _ => None,
    }
}

/// Length of the observation tensor for `p` seats and `w` work piles: per seat (the observer
/// first) one-hot Nerts top, waste top, work-pile tops and work-pile cards; the foundation
/// tops (counts per face); then the Nerts, waste and stock counts, the work-pile sizes, the
/// observer's recycles and stalemates, whether it has a move pending, and the clock in s.
#[must_use]
pub const fn observation_size(p: usize, w: usize) -> usize {
    p * FACES * 2 + 2 * p * w * FACES + FACES + 3 * p + p * w + 4
}

/// A Nerts round behind the [`RealtimeState`] trait: the round and its seats' agents.
#[derive(Clone, Debug)]
pub struct State {
    /// The round (table, clock, log).
    pub round: Round,
    /// The built-in agents of the seats the clock drives (`None`: driven by submissions or
    /// by an outside policy).
    pub agents: Agents,
    /// The seed the round's streams come from.
    pub seed: u64,
    /// Each seat's 52 cards in dealing order (from the seed, or arranged).
    pub dealt: Vec<Vec<u8>>,
}

/// The built-in agents and an outside policy (a caller's agents, e.g. Python objects)
/// together: a seat is the built-in agent's if it has one, else the outside policy's.
pub struct Mixed<'a, E> {
    /// The built-in agents.
    pub builtin: &'a mut Agents,
    /// The outside policy.
    pub outside: &'a mut E,
}

impl<E: Policy> Policy for Mixed<'_, E> {
    type Error = E::Error;

    fn plays(&self, seat: usize) -> bool {
        self.builtin.plays(seat) || self.outside.plays(seat)
    }

    fn act(
        &mut self,
        round: &Round,
        seat: usize,
        legal: &[u32],
        rng: &mut CardRng,
    ) -> Result<Option<u32>, E::Error> {
        if self.builtin.plays(seat) {
            Ok(self.builtin.act(round, seat, legal, rng)?)
        } else {
            self.outside.act(round, seat, legal, rng)
        }
    }
}

impl State {
    /// A round dealt from `seed`; `agents[s]` plays seat `s` (`None`: the seat acts through
    /// [`RealtimeState::submit`]). The agents take their first decisions at once.
    #[must_use]
    pub fn new(rules: Rules, seed: u64, agents: Vec<Option<SeatAgent>>) -> Self {
        match Self::new_with(rules, seed, agents, &mut Humans) {
            Ok(s) => s,
            // the built-in agents only choose legal moves: a failure here is a bug
            Err(e) => panic!("{e}"),
        }
    }

    /// As [`State::new`], the seats without a built-in agent played by `outside` where it
    /// plays them.
    ///
    /// # Errors
    /// An outside agent failed in its first decision.
    pub fn new_with<E: Policy>(
        rules: Rules,
        seed: u64,
        agents: Vec<Option<SeatAgent>>,
        outside: &mut E,
    ) -> Result<Self, E::Error> {
        let decks = (0..agents.len())
            .map(|s| super::deal_deck(seed, s))
            .collect();
        Self::dealt_with(
            rules,
            seed,
            decks,
            (super::MAX_ROUND_MS, super::MAX_EVENTS),
            agents,
            outside,
        )
    }

    /// As [`State::new_with`], seat `s` dealt `decks[s]` (its 52 cards in dealing order:
    /// the caller checks them) and the round capped at `caps = (max_ms, max_events)`.
    ///
    /// # Errors
    /// An outside agent failed in its first decision.
    pub fn dealt_with<E: Policy>(
        rules: Rules,
        seed: u64,
        decks: Vec<Vec<u8>>,
        caps: (i64, u64),
        agents: Vec<Option<SeatAgent>>,
        outside: &mut E,
    ) -> Result<Self, E::Error> {
        let mut round = Round::with_table(super::Table::deal(rules, &decks), seed);
        (round.max_ms, round.max_events) = caps;
        let mut st = Self {
            round,
            agents: Agents(agents),
            seed,
            dealt: decks,
        };
        st.round.start(&mut Mixed {
            builtin: &mut st.agents,
            outside,
        })?;
        Ok(st)
    }

    /// Each seat's 52 cards in dealing order (hidden information: for records and replays).
    #[must_use]
    pub fn decks(&self) -> Vec<Vec<u8>> {
        self.dealt.clone()
    }

    /// [`RealtimeState::step`] with `outside` playing the seats it plays.
    ///
    /// # Errors
    /// An outside agent failed.
    pub fn step_with<E: Policy>(&mut self, outside: &mut E) -> Result<bool, E::Error> {
        self.round.step(&mut Mixed {
            builtin: &mut self.agents,
            outside,
        })
    }

    /// [`RealtimeState::advance_to`] with `outside` playing the seats it plays.
    ///
    /// # Errors
    /// An outside agent failed.
    pub fn advance_to_with<E: Policy>(&mut self, t: i64, outside: &mut E) -> Result<(), E::Error> {
        self.round.advance_to(
            t,
            &mut Mixed {
                builtin: &mut self.agents,
                outside,
            },
        )
    }

    /// Plays until the round ends with `outside` playing the seats it plays.
    ///
    /// # Errors
    /// An outside agent failed.
    pub fn run_with<E: Policy>(&mut self, outside: &mut E) -> Result<(), E::Error> {
        self.round.run(&mut Mixed {
            builtin: &mut self.agents,
            outside,
        })
    }

    /// Work piles per seat.
    #[must_use]
    pub fn num_work(&self) -> usize {
        usize::from(self.round.rules().num_work)
    }

    /// Schedules move code `mv` of `seat` at `t` (see [`Round::submit`]).
    ///
    /// # Errors
    /// As [`Round::submit`].
    pub fn submit_code(&mut self, seat: usize, mv: u32, t: i64) -> Result<(), IllegalMove> {
        self.round.submit(seat, mv, t)
    }

    /// Plays until the round ends (seats without an agent never act).
    pub fn run(&mut self) {
        self.with_agents(|r, a| r.run(a));
    }

    fn with_agents<T>(
        &mut self,
        f: impl FnOnce(&mut Round, &mut Agents) -> Result<T, IllegalMove>,
    ) -> T {
        match f(&mut self.round, &mut self.agents) {
            Ok(v) => v,
            // the built-in agents only choose legal moves: a failure here is a bug
            Err(e) => panic!("{e}"),
        }
    }

    /// How many of seat `s`'s waste cards (from the bottom) `observer` cannot see: below the
    /// fan of its own waste, below the top of another's.
    fn hidden_waste(&self, s: usize, observer: usize) -> usize {
        let p = &self.round.table.seats[s];
        let shown = if s == observer {
            usize::from(p.flip_count).max(1)
        } else {
            1
        };
        p.cycle.waste_len().saturating_sub(shown)
    }

    /// The cards of seat `s` that `observer` cannot see: the Nerts pile below its top, the
    /// stock, the hidden part of the waste.
    fn hidden_cards(&self, s: usize, observer: usize) -> Vec<u8> {
        let p = &self.round.table.seats[s];
        let mut out: Vec<u8> = p.nerts[..p.nerts.len().saturating_sub(1)].to_vec();
        out.extend(p.cycle.stock().iter().rev());
        out.extend(&p.waste()[..self.hidden_waste(s, observer)]);
        out
    }
}

impl RealtimeState for State {
    fn num_players(&self) -> usize {
        self.round.table.num_players()
    }

    fn num_actions(&self) -> usize {
        num_actions(self.num_work())
    }

    fn now(&self) -> i64 {
        self.round.now
    }

    fn is_over(&self) -> bool {
        !self.round.running()
    }

    fn legal_actions(&self, seat: usize) -> Vec<usize> {
        let w = self.num_work();
        let mut out: Vec<usize> = self
            .round
            .legal_codes(seat)
            .into_iter()
            .filter_map(|c| action_of_code(c, w))
            .collect();
        out.sort_unstable();
        out
    }

    fn write_mask(&self, seat: usize, mask: &mut [u8]) {
        mask.fill(0);
        if !self.round.running() {
            return;
        }
        let w = self.num_work();
        let t = &self.round.table;
        let mut buf = super::moves::MoveBuf::default();
        super::moves::generate(&t.view(seat), &mut buf);
        for &c in buf.as_slice() {
            if let Some(a) = action_of_code(c, w) {
                mask[a] = 1;
            }
        }
        if t.undo_legal(seat)
            && let Some(a) = action_of_code(UNDO, w)
        {
            mask[a] = 1;
        }
    }

    fn is_pending(&self, seat: usize) -> bool {
        self.round.is_pending(seat)
    }

    fn submit(&mut self, seat: usize, action: i64, t_ms: i64) -> Result<(), IllegalMove> {
        let code = usize::try_from(action)
            .ok()
            .and_then(|a| action_code(a, self.num_work()))
            .ok_or_else(|| IllegalMove(format!("no action {action} in this nerts game")))?;
        self.round.submit(seat, code, t_ms)
    }

    fn step(&mut self) -> bool {
        self.with_agents(|r, a| r.step(a))
    }

    fn advance_to(&mut self, t_ms: i64) {
        self.with_agents(|r, a| r.advance_to(t_ms, a));
    }

    fn returns(&self) -> Vec<f64> {
        if self.round.running() {
            vec![0.0; self.num_players()]
        } else {
            self.round.scores().into_iter().map(f64::from).collect()
        }
    }

    fn observation_size(&self) -> usize {
        observation_size(self.num_players(), self.num_work())
    }

    fn write_observation(&self, seat: usize, out: &mut [f32]) {
        out.fill(0.0);
        let t = &self.round.table;
        let (p, w) = (self.num_players(), self.num_work());
        let nerts_top = 0;
        let waste_top = p * FACES;
        let work_top = 2 * p * FACES;
        let work_cards = work_top + p * w * FACES;
        let found = work_cards + p * w * FACES;
        let mut at = found + FACES;
        for r in 0..p {
            let pl = &t.seats[(seat + r) % p];
            let face = |c: u8| usize::from(natural_face(c));
            if let Some(&c) = pl.nerts.last() {
                out[nerts_top + r * FACES + face(c)] += 1.0;
            }
            if let Some(&c) = pl.waste().last() {
                out[waste_top + r * FACES + face(c)] += 1.0;
            }
            for (i, pile) in pl.work.iter().enumerate() {
                let block = (r * w + i) * FACES;
                if let Some(&c) = pile.last() {
                    out[work_top + block + face(c)] += 1.0;
                }
                for &c in pile {
                    out[work_cards + block + face(c)] += 1.0;
                }
            }
        }
        for &c in t.foundations.iter().filter_map(|f| f.last()) {
            out[found + usize::from(natural_face(c))] += 1.0;
        }
        let order = || (0..p).map(|r| &t.seats[(seat + r) % p]);
        for pl in order() {
            out[at] = pl.nerts.len() as f32;
            at += 1;
        }
        for pl in order() {
            out[at] = pl.cycle.waste_len() as f32;
            at += 1;
        }
        for pl in order() {
            out[at] = pl.cycle.stock_len() as f32;
            at += 1;
        }
        for pl in order() {
            for pile in &pl.work {
                out[at] = pile.len() as f32;
                at += 1;
            }
        }
        let me = &t.seats[seat];
        out[at] = me.recycles as f32;
        out[at + 1] = me.stalemates as f32;
        out[at + 2] = if self.round.is_pending(seat) {
            1.0
        } else {
            0.0
        };
        out[at + 3] = (self.round.now as f64 / 1000.0) as f32;
    }

    fn resample_hidden(&self, seat: usize, seed: u64) -> Self {
        let mut new = self.clone();
        for s in 0..self.num_players() {
            let mut cards = self.hidden_cards(s, seat);
            let mut rng = CardRng::for_stream(seed, s as u64, "resample");
            shuffle(&mut rng, &mut cards);
            let p = &mut new.round.table.seats[s];
            let mut it = cards.into_iter();
            let keep_nerts = p.nerts.len().saturating_sub(1);
            for c in &mut p.nerts[..keep_nerts] {
                *c = it.next().unwrap_or(*c);
            }
            for c in p.cycle.stock_mut().iter_mut().rev() {
                *c = it.next().unwrap_or(*c);
            }
            let hidden_waste = self.hidden_waste(s, seat);
            for c in &mut p.cycle.waste_mut()[..hidden_waste] {
                *c = it.next().unwrap_or(*c);
            }
            // a built-in agent's stock memory is of cards no longer where it saw them
            if s != seat
                && let Some(a) = new.agents.0.get_mut(s).and_then(Option::as_mut)
            {
                a.memory = None;
            }
        }
        new
    }
}
