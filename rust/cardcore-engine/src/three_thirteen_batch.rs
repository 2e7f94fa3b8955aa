//! Many Three-Thirteen games stepped together, for `cardcore.rl.VectorEnv`, and one game
//! stepped on its own ([`Episode`], the fast path of the PettingZoo AEC environment).
//!
//! The rules, the deck stream and the observation tensor are those of the Python engine
//! (`cardcore.three_thirteen.rules.State` and `ThreeThirteenGame.observation_tensor`), which
//! stays the reference: the tests drive both with the same seeds and actions and compare every
//! tensor, mask, seat and reward. Game `i`'s `k`-th deal is seeded
//! `derive_seed(derive_seed(seed, i, "rl-vector"), k, "rl-episode")`, as in the Python
//! `VectorEnv`; a game that ends is dealt again at once.

use crate::card;
use crate::meld::{self, MeldRules};
use crate::rng::{CardRng, derive_seed};
use crate::shuffle::permutation;

/// The tensor and action face of every joker (jokers are interchangeable).
const JOKER_FACE: usize = card::JOKER0 as usize;
/// Faces in tensors and action ids: the 52 naturals and one for every joker.
pub const FACES: usize = JOKER_FACE + 1;
/// Rounds in a game.
const ROUNDS: u32 = 11;
/// Action ids: draw from the stock, draw the discard-pile top, then `2 + face` discards.
pub const DRAW_STOCK: usize = 0;
/// See [`DRAW_STOCK`].
pub const DRAW_DISCARD: usize = 1;
/// See [`DRAW_STOCK`].
pub const DISCARD: usize = 2;

/// The options of the games (validated by the Python `Options`).
#[derive(Clone, Debug)]
pub struct Rules {
    /// Seats at the table (2..=6).
    pub players: usize,
    /// Standard decks combined.
    pub decks: usize,
    /// Jokers added.
    pub jokers: usize,
    /// Ace mode and unmelded wild and joker points.
    pub meld: MeldRules,
    /// Seat of the first dealer; `None`: drawn from the deck stream.
    pub first_dealer: Option<usize>,
    /// A shared lowest total wins for every tied seat (`tie_rule="shared_win"`).
    pub shared_win: bool,
    /// A card taken from the discard pile may not be discarded in the same turn.
    pub forbid_return: bool,
    /// Own completed turns needed before going out counts.
    pub min_own_turns: u32,
    /// Turns in a round with nobody out before it is scored as it stands.
    pub max_turns: u32,
}

impl Rules {
    fn total_cards(&self) -> usize {
        card::natural_ids(self.decks) + self.jokers
    }

    /// Size of the action space.
    #[must_use]
    pub fn num_actions(&self) -> usize {
        DISCARD + JOKER_FACE + usize::from(self.jokers > 0)
    }

    /// Length of the observation tensor.
    #[must_use]
    pub fn observation_size(&self) -> usize {
        let p = self.players;
        4 * FACES + FACES * (2 * p - 1) + 13 + 2 + 5 * p + 5
    }

    /// The meld solver's face of a physical card (jokers keep their own codes).
    fn meld_face(&self, card: u8) -> u8 {
        card::face_of(usize::from(card), self.decks)
    }

    /// The tensor and action face of a physical card (every joker is [`JOKER_FACE`]).
    fn face(&self, card: u8) -> usize {
        usize::from(self.meld_face(card)).min(JOKER_FACE)
    }
}

/// Offsets of the tensor's segments (the Python `observation_layout`).
#[derive(Clone, Copy, Debug)]
struct Layout {
    hand: usize,
    drawn: usize,
    discard_top: usize,
    discard_pile: usize,
    taken: usize,
    discarded: usize,
    wild_rank: usize,
    phase: usize,
    to_move: usize,
    dealer: usize,
    went_out: usize,
    hand_sizes: usize,
    totals: usize,
    stock_size: usize,
}

impl Layout {
    fn new(p: usize) -> Self {
        let hand = 0;
        let drawn = hand + FACES;
        let discard_top = drawn + FACES;
        let discard_pile = discard_top + FACES;
        let taken = discard_pile + FACES;
        let discarded = taken + (p - 1) * FACES;
        let wild_rank = discarded + p * FACES;
        let phase = wild_rank + 13;
        let to_move = phase + 2;
        let dealer = to_move + p;
        let went_out = dealer + p;
        let hand_sizes = went_out + p;
        let totals = hand_sizes + p;
        let stock_size = totals + p;
        Self {
            hand,
            drawn,
            discard_top,
            discard_pile,
            taken,
            discarded,
            wild_rank,
            phase,
            to_move,
            dealer,
            went_out,
            hand_sizes,
            totals,
            stock_size,
        }
    }
}

/// One game in progress (the state of the Python engine that the rules and tensor read).
#[derive(Clone, Debug)]
pub struct Game {
    rng: CardRng,
    dealer: usize,
    round: u32,
    current: usize,
    discarding: bool,
    over: bool,
    drawn: Option<u8>,
    drawn_from_discard: bool,
    hands: Vec<Vec<u8>>,
    stock: Vec<u8>,
    pile: Vec<u8>,
    discards: Vec<(u8, u8)>,
    taken: Vec<Vec<u8>>,
    own_turns: Vec<u32>,
    turn_in_round: u32,
    out_seat: Option<usize>,
    final_left: usize,
    totals: Vec<u32>,
}

/// An action that is not legal in the game it was given to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IllegalAction {
    /// The game (row of the batch).
    pub game: usize,
    /// The action id.
    pub action: i64,
}

impl Game {
    /// A new game dealt from `seed` (`new_state(seed)` of the Python engine).
    #[must_use]
    pub fn new(rules: &Rules, seed: u64) -> Self {
        let p = rules.players;
        let mut rng = CardRng::for_stream(seed, 0, "deck");
        let dealer = match rules.first_dealer {
            Some(d) => d,
            None => rng.below(p as u64) as usize,
        };
        let mut g = Self {
            rng,
            dealer,
            round: 0,
            current: 0,
            discarding: false,
            over: false,
            drawn: None,
            drawn_from_discard: false,
            hands: vec![Vec::new(); p],
            stock: Vec::new(),
            pile: Vec::new(),
            discards: Vec::new(),
            taken: vec![Vec::new(); p],
            own_turns: vec![0; p],
            turn_in_round: 0,
            out_seat: None,
            final_left: 0,
            totals: vec![0; p],
        };
        g.deal(rules, 1);
        g
    }

    fn deal(&mut self, rules: &Rules, round: u32) {
        let p = rules.players;
        let n = round as usize + 2;
        let deck: Vec<u8> = permutation(&mut self.rng, rules.total_cards())
            .into_iter()
            .map(|c| c as u8)
            .collect();
        self.round = round;
        let first = (self.dealer + 1) % p;
        for h in &mut self.hands {
            h.clear();
        }
        for (k, &card) in deck[..p * n].iter().enumerate() {
            self.hands[(first + k) % p].push(card);
        }
        for h in &mut self.hands {
            h.sort_unstable();
        }
        self.pile.clear();
        self.pile.push(deck[p * n]);
        self.stock.clear();
        self.stock.extend(deck[p * n + 1..].iter().rev());
        self.discards.clear();
        for t in &mut self.taken {
            t.clear();
        }
        self.own_turns.fill(0);
        self.turn_in_round = 0;
        self.out_seat = None;
        self.final_left = 0;
        self.current = first;
        self.discarding = false;
        self.drawn = None;
        self.drawn_from_discard = false;
    }

    fn begin_turn(&mut self) {
        self.discarding = false;
        self.drawn = None;
        self.drawn_from_discard = false;
        if self.stock.is_empty() {
            let top = self.pile.pop().unwrap_or_default();
            let order = permutation(&mut self.rng, self.pile.len());
            let rest: Vec<u8> = order.iter().map(|&i| self.pile[usize::from(i)]).collect();
            self.stock.extend(rest.iter().rev());
            self.pile.clear();
            self.pile.push(top);
            self.discards.clear();
        }
    }

    /// The card that may not be discarded now, if any.
    fn banned(&self, rules: &Rules) -> Option<u8> {
        if rules.forbid_return && self.drawn_from_discard {
            self.drawn
        } else {
            None
        }
    }

    /// The hand index of the card that action `action` discards (the lowest copy of its face
    /// that may be discarded), if it is legal.
    fn discard_index(&self, rules: &Rules, action: usize) -> Option<usize> {
        let banned = self.banned(rules);
        self.hands[self.current]
            .iter()
            .position(|&c| DISCARD + rules.face(c) == action && Some(c) != banned)
    }

    /// Writes the legal actions as 0/1 bytes into `mask` (all 0 once over).
    fn write_mask(&self, rules: &Rules, mask: &mut [u8]) {
        mask.fill(0);
        if self.over {
            return;
        }
        if !self.discarding {
            mask[DRAW_STOCK] = 1;
            mask[DRAW_DISCARD] = 1;
            return;
        }
        let banned = self.banned(rules);
        for &c in &self.hands[self.current] {
            if Some(c) != banned {
                mask[DISCARD + rules.face(c)] = 1;
            }
        }
    }

    fn is_legal(&self, rules: &Rules, action: i64) -> bool {
        let Ok(a) = usize::try_from(action) else {
            return false;
        };
        if self.over {
            return false;
        }
        if !self.discarding {
            return a == DRAW_STOCK || a == DRAW_DISCARD;
        }
        a < rules.num_actions() && self.discard_index(rules, a).is_some()
    }

    /// Plays a legal `action` for the seat to play.
    fn apply(&mut self, rules: &Rules, action: usize) {
        let seat = self.current;
        if !self.discarding {
            let card = if action == DRAW_STOCK {
                self.drawn_from_discard = false;
                self.stock.pop()
            } else {
                self.drawn_from_discard = true;
                let c = self.pile.pop();
                if let Some(c) = c {
                    self.taken[seat].push(c);
                }
                c
            };
            let card = card.unwrap_or_default();
            let hand = &mut self.hands[seat];
            let at = hand.partition_point(|&x| x <= card);
            hand.insert(at, card);
            self.drawn = Some(card);
            self.discarding = true;
            return;
        }
        let Some(i) = self.discard_index(rules, action) else {
            return;
        };
        let card = self.hands[seat].remove(i);
        if let Some(t) = self.taken[seat].iter().position(|&x| x == card) {
            self.taken[seat].remove(t);
        }
        self.pile.push(card);
        self.discards.push((seat as u8, card));
        self.end_turn(rules, seat);
    }

    fn deadwood(&self, rules: &Rules, seat: usize) -> u32 {
        let faces: Vec<u8> = self.hands[seat]
            .iter()
            .map(|&c| rules.meld_face(c))
            .collect();
        // the hands are valid by construction; a solver error cannot happen
        meld::min_deadwood(&faces, self.round + 2, &rules.meld).unwrap_or(u32::MAX)
    }

    fn end_turn(&mut self, rules: &Rules, seat: usize) {
        self.own_turns[seat] += 1;
        self.turn_in_round += 1;
        if self.out_seat.is_none() {
            if self.own_turns[seat] > rules.min_own_turns && self.deadwood(rules, seat) == 0 {
                self.out_seat = Some(seat);
                self.final_left = rules.players - 1;
            } else if self.turn_in_round >= rules.max_turns {
                self.end_round(rules);
                return;
            }
        } else {
            self.final_left -= 1;
            if self.final_left == 0 {
                self.end_round(rules);
                return;
            }
        }
        self.current = (seat + 1) % rules.players;
        self.begin_turn();
    }

    fn end_round(&mut self, rules: &Rules) {
        for s in 0..rules.players {
            if Some(s) != self.out_seat {
                self.totals[s] += self.deadwood(rules, s);
            }
        }
        if self.round >= ROUNDS {
            self.over = true;
            self.discarding = false;
            return;
        }
        self.dealer = (self.dealer + 1) % rules.players;
        self.deal(rules, self.round + 1);
    }

    /// Whether the game has ended.
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// The seat to play.
    #[must_use]
    pub fn current(&self) -> usize {
        self.current
    }

    /// `returns()`: +1 for each winning seat, -1 for the others; all 0 before the end and when
    /// nobody wins.
    fn write_returns(&self, rules: &Rules, out: &mut [f32]) {
        out.fill(0.0);
        if !self.over {
            return;
        }
        let low = self.totals.iter().copied().min().unwrap_or(0);
        let best = self.totals.iter().filter(|&&t| t == low).count();
        if best > 1 && !rules.shared_win {
            return;
        }
        for (r, &t) in out.iter_mut().zip(&self.totals) {
            *r = if t == low { 1.0 } else { -1.0 };
        }
    }

    /// `points()`: the penalty totals so far.
    fn write_points(&self, out: &mut [f32]) {
        for (o, &t) in out.iter_mut().zip(&self.totals) {
            *o = t as f32;
        }
    }

    /// Writes `seat`'s tensor into `out` (`observation_size` floats): the drawn card and
    /// whether it came from the discard pile only for the seat to play.
    fn write_observation(&self, rules: &Rules, lay: &Layout, seat: usize, out: &mut [f32]) {
        out.fill(0.0);
        let p = rules.players;
        let mine = !self.over && seat == self.current;
        let face = |c: u8| rules.face(c);
        for &c in &self.hands[seat] {
            out[lay.hand + face(c)] += 1.0;
        }
        if let (true, Some(d)) = (mine && self.discarding, self.drawn) {
            out[lay.drawn + face(d)] += 1.0;
        }
        if let Some(&top) = self.pile.last() {
            out[lay.discard_top + face(top)] += 1.0;
            for &c in &self.pile {
                out[lay.discard_pile + face(c)] += 1.0;
            }
        }
        for r in 1..p {
            let base = lay.taken + (r - 1) * FACES;
            for &c in &self.taken[(seat + r) % p] {
                out[base + face(c)] += 1.0;
            }
        }
        for &(s, c) in &self.discards {
            let rel = (usize::from(s) + p - seat) % p;
            out[lay.discarded + rel * FACES + face(c)] += 1.0;
        }
        out[lay.wild_rank + self.round as usize + 1] += 1.0;
        if !self.over {
            out[lay.phase + usize::from(self.discarding)] += 1.0;
            out[lay.to_move + (self.current + p - seat) % p] += 1.0;
        }
        out[lay.dealer + (self.dealer + p - seat) % p] += 1.0;
        if let Some(o) = self.out_seat {
            out[lay.went_out + (o + p - seat) % p] += 1.0;
        }
        for r in 0..p {
            let k = (seat + r) % p;
            out[lay.hand_sizes + r] = self.hands[k].len() as f32;
            out[lay.totals + r] = self.totals[k] as f32;
        }
        {
            out[lay.stock_size] = self.stock.len() as f32;
            out[lay.stock_size + 1] = self.round as f32;
            out[lay.stock_size + 2] = self.own_turns[seat] as f32;
            out[lay.stock_size + 3] = self.turn_in_round as f32;
            out[lay.stock_size + 4] = if mine && self.drawn_from_discard {
                1.0
            } else {
                0.0
            };
        }
    }
}

/// One game on its own: a deal of `Game::new`, stepped one action at a time and observed
/// from any seat (`new_state(seed)` of the Python engine, as the PettingZoo AEC environment
/// plays it).
#[derive(Clone, Debug)]
pub struct Episode {
    rules: Rules,
    layout: Layout,
    game: Game,
}

impl Episode {
    /// The game dealt from `seed`.
    #[must_use]
    pub fn new(rules: Rules, seed: u64) -> Self {
        Self {
            layout: Layout::new(rules.players),
            game: Game::new(&rules, seed),
            rules,
        }
    }

    /// The rules of the game.
    #[must_use]
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The seat to play; `None` once the game is over.
    #[must_use]
    pub fn current(&self) -> Option<usize> {
        (!self.game.over).then_some(self.game.current)
    }

    /// Plays `action` for the seat to play.
    ///
    /// # Errors
    /// `action` is not legal now (nothing changes).
    pub fn apply(&mut self, action: i64) -> Result<(), IllegalAction> {
        if !self.game.is_legal(&self.rules, action) {
            return Err(IllegalAction { game: 0, action });
        }
        self.game.apply(&self.rules, action as usize);
        Ok(())
    }

    /// Writes `seat`'s tensor into `obs` (`observation_size` floats) and its legal actions
    /// into `mask` (`num_actions` bytes; all 0 unless `seat` is to play).
    pub fn observe(&self, seat: usize, obs: &mut [f32], mask: &mut [u8]) {
        self.game
            .write_observation(&self.rules, &self.layout, seat, obs);
        if self.current() == Some(seat) {
            self.game.write_mask(&self.rules, mask);
        } else {
            mask.fill(0);
        }
    }

    /// Writes `returns()` into `out` (`players` floats; all 0 before the end).
    pub fn write_returns(&self, out: &mut [f32]) {
        self.game.write_returns(&self.rules, out);
    }
}

/// The outputs of one call, row `i` for game `i` (flat, row-major).
#[derive(Clone, Debug, Default)]
pub struct Outputs {
    /// `n * observation_size` tensors of the seat to play.
    pub observation: Vec<f32>,
    /// `n * num_actions` legal-action bytes (0/1).
    pub mask: Vec<u8>,
    /// `n` seats to play.
    pub player: Vec<i64>,
    /// `n * players` returns of games that ended in this step (else 0).
    pub reward: Vec<f32>,
    /// `n` bytes: 1 where a game ended in this step (and was dealt again).
    pub done: Vec<u8>,
    /// `n * players` penalty totals (`points()`; of the game that ended, where one did).
    pub points: Vec<f32>,
}

/// `n` games stepped together.
#[derive(Clone, Debug)]
pub struct Batch {
    rules: Rules,
    layout: Layout,
    seeds: Vec<u64>,
    episodes: Vec<u64>,
    games: Vec<Game>,
}

impl Batch {
    /// `n` games; call [`Batch::reset`] before stepping.
    #[must_use]
    pub fn new(rules: Rules, seed: u64, n: usize) -> Self {
        let seeds: Vec<u64> = (0..n as u64)
            .map(|i| derive_seed(seed, i, "rl-vector"))
            .collect();
        let games = seeds.iter().map(|&s| Game::new(&rules, s)).collect();
        Self {
            layout: Layout::new(rules.players),
            rules,
            seeds,
            episodes: vec![1; n],
            games,
        }
    }

    /// The rules of the games.
    #[must_use]
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The games.
    #[must_use]
    pub fn games(&self) -> &[Game] {
        &self.games
    }

    fn episode_seed(&self, i: usize) -> u64 {
        derive_seed(self.seeds[i], self.episodes[i], "rl-episode")
    }

    /// Deals every game anew (episode counters restart) into `out`, using `threads` threads.
    pub fn reset(&mut self, out: &mut Outputs, threads: usize) {
        for i in 0..self.games.len() {
            self.episodes[i] = 0;
            self.games[i] = Game::new(&self.rules, self.episode_seed(i));
            self.episodes[i] = 1;
        }
        self.run(&[], out, threads);
    }

    /// Plays `actions[i]` in game `i`; with an illegal action nothing changes.
    ///
    /// # Errors
    /// The first illegal action.
    pub fn step(
        &mut self,
        actions: &[i64],
        out: &mut Outputs,
        threads: usize,
    ) -> Result<(), IllegalAction> {
        for (i, (g, &a)) in self.games.iter().zip(actions).enumerate() {
            if !g.is_legal(&self.rules, a) {
                return Err(IllegalAction { game: i, action: a });
            }
        }
        self.run(actions, out, threads);
        Ok(())
    }

    /// Applies `actions` (none: only observe) and writes the outputs, in `threads` chunks.
    fn run(&mut self, actions: &[i64], out: &mut Outputs, threads: usize) {
        let n = self.games.len();
        let (d, a, p) = (
            self.rules.observation_size(),
            self.rules.num_actions(),
            self.rules.players,
        );
        out.observation.resize(n * d, 0.0);
        out.mask.resize(n * a, 0);
        out.player.resize(n, 0);
        out.reward.resize(n * p, 0.0);
        out.done.resize(n, 0);
        out.points.resize(n * p, 0.0);
        let chunk = n.div_ceil(threads.max(1)).max(1);
        let rules = &self.rules;
        let layout = &self.layout;
        let jobs = self
            .games
            .chunks_mut(chunk)
            .zip(self.seeds.chunks(chunk))
            .zip(self.episodes.chunks_mut(chunk))
            .zip(out.observation.chunks_mut(chunk * d))
            .zip(out.mask.chunks_mut(chunk * a))
            .zip(out.player.chunks_mut(chunk))
            .zip(out.reward.chunks_mut(chunk * p))
            .zip(out.done.chunks_mut(chunk))
            .zip(out.points.chunks_mut(chunk * p))
            .enumerate()
            .map(
                |(
                    j,
                    ((((((((games, seeds), episodes), obs), mask), player), reward), done), points),
                )| {
                    let acts = if actions.is_empty() {
                        &[][..]
                    } else {
                        &actions[j * chunk..j * chunk + games.len()]
                    };
                    Chunk {
                        games,
                        seeds,
                        episodes,
                        obs,
                        mask,
                        player,
                        reward,
                        done,
                        points,
                        actions: acts,
                    }
                },
            );
        if threads <= 1 || n < 2 * threads {
            for job in jobs {
                job.run(rules, layout);
            }
        } else {
            std::thread::scope(|s| {
                for job in jobs {
                    s.spawn(move || job.run(rules, layout));
                }
            });
        }
    }
}

/// One thread's share of a batch call.
struct Chunk<'a> {
    games: &'a mut [Game],
    seeds: &'a [u64],
    episodes: &'a mut [u64],
    obs: &'a mut [f32],
    mask: &'a mut [u8],
    player: &'a mut [i64],
    reward: &'a mut [f32],
    done: &'a mut [u8],
    points: &'a mut [f32],
    actions: &'a [i64],
}

impl Chunk<'_> {
    fn run(self, rules: &Rules, layout: &Layout) {
        let (d, a, p) = (rules.observation_size(), rules.num_actions(), rules.players);
        for (i, game) in self.games.iter_mut().enumerate() {
            let reward = &mut self.reward[i * p..(i + 1) * p];
            reward.fill(0.0);
            self.done[i] = 0;
            if let Some(&action) = self.actions.get(i) {
                game.apply(rules, action as usize);
                if game.is_over() {
                    game.write_returns(rules, reward);
                    game.write_points(&mut self.points[i * p..(i + 1) * p]);
                    self.done[i] = 1;
                    let seed = derive_seed(self.seeds[i], self.episodes[i], "rl-episode");
                    self.episodes[i] += 1;
                    *game = Game::new(rules, seed);
                }
            }
            if self.done[i] == 0 {
                game.write_points(&mut self.points[i * p..(i + 1) * p]);
            }
            let obs = &mut self.obs[i * d..(i + 1) * d];
            game.write_observation(rules, layout, game.current(), obs);
            game.write_mask(rules, &mut self.mask[i * a..(i + 1) * a]);
            {
                self.player[i] = game.current() as i64;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(players: usize) -> Rules {
        Rules {
            players,
            decks: 2,
            jokers: 0,
            meld: MeldRules::default(),
            first_dealer: None,
            shared_win: false,
            forbid_return: false,
            min_own_turns: 0,
            max_turns: 20,
        }
    }

    fn drive(batch: &mut Batch, steps: usize, threads: usize) -> Vec<Outputs> {
        let mut rng = CardRng::new(5);
        let mut out = Outputs::default();
        batch.reset(&mut out, threads);
        let mut all = vec![out.clone()];
        let a = batch.rules().num_actions();
        for _ in 0..steps {
            let acts: Vec<i64> = out
                .mask
                .chunks(a)
                .map(|m| {
                    let legal: Vec<usize> = (0..a).filter(|&k| m[k] == 1).collect();
                    legal[rng.below(legal.len() as u64) as usize] as i64
                })
                .collect();
            batch.step(&acts, &mut out, threads).unwrap();
            all.push(out.clone());
        }
        all
    }

    #[test]
    fn threads_do_not_change_the_games() {
        let one = drive(&mut Batch::new(rules(2), 9, 7), 500, 1);
        let two = drive(&mut Batch::new(rules(2), 9, 7), 500, 3);
        assert!(one.iter().any(|o| o.done.contains(&1)));
        for (x, y) in one.iter().zip(&two) {
            assert_eq!(x.observation, y.observation);
            assert_eq!(x.mask, y.mask);
            assert_eq!(x.reward, y.reward);
        }
    }

    #[test]
    fn an_illegal_action_changes_nothing() {
        let mut batch = Batch::new(rules(2), 1, 2);
        let mut out = Outputs::default();
        batch.reset(&mut out, 1);
        let before = out.observation.clone();
        let err = batch.step(&[0, 40], &mut out, 1).unwrap_err();
        assert_eq!(
            err,
            IllegalAction {
                game: 1,
                action: 40
            }
        );
        batch.step(&[-1, 0], &mut out, 1).unwrap_err();
        batch.run(&[], &mut out, 1);
        assert_eq!(out.observation, before);
    }
}
