//! Research on cardcore's engines: offline experiments and measurements, not part of the
//! product (see `research/README.md`). The experiments are ignored tests under `tests/`; this
//! library holds what they share: self-play rounds of Three-Thirteen with their public
//! history, and a mean with its 95% interval. [`tt_value_data`] is the self-play the learned
//! Three-Thirteen values are fitted on.

pub mod tt_value_data;

use cardcore_engine::card::NATURALS;
use cardcore_engine::meld::{MeldRules, fast};
use cardcore_engine::rng::CardRng;
use cardcore_engine::shuffle::shuffle;
use cardcore_engine::three_thirteen_expert::{Ctx, Round, Table, view_of};
use cardcore_engine::three_thirteen_hard::{self as hard, HardParams};
use cardcore_engine::three_thirteen_infer::{Draw, History, Turn};

/// Players of the self-play rounds.
pub const P: usize = 4;
/// Decks of the self-play rounds.
pub const DECKS: u8 = 2;

/// The mean of a sample and the half-width of its normal 95% interval.
#[must_use]
pub fn mean_ci95(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    let m = xs.iter().sum::<f64>() / n;
    let var = xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1.0);
    (m, 1.96 * (var / n).sqrt())
}

/// Removes one card of face `f` from `v`; false if there was none.
pub fn remove_face(v: &mut Vec<u8>, f: u8) -> bool {
    match v.iter().position(|&c| c == f) {
        Some(i) => {
            v.remove(i);
            true
        }
        None => false,
    }
}

/// The table of the current seat of a self-play round (4 players, 2 decks).
pub fn table_of(r: &Round, wild: u8, first: usize, discard_phase: bool) -> Table {
    let s = r.current;
    Table {
        seat: s,
        hand: r.hands[s].clone(),
        pile: r.pile.clone(),
        taken: r.taken.clone(),
        hand_sizes: r.hands.iter().map(Vec::len).collect(),
        stock_size: r.stock.len(),
        num_decks: DECKS,
        jokers: 0,
        wild,
        rules: MeldRules::default(),
        discard_phase,
        banned: None,
        out_seat: r.out,
        turn_in_round: r.turns,
        first,
        min_own_turns: 0,
        max_turns: 400,
        forbid_return: false,
    }
}

/// A `hard` self-play round with its public history and each seat's true slots.
pub struct Game {
    pub r: Round,
    pub ctx: Ctx,
    pub wild: u8,
    pub first: usize,
    pub history: History,
    pub slots: Vec<Vec<u8>>,
    /// The stock was rebuilt: the history no longer reaches the deal.
    pub rebuilt: bool,
}

impl Game {
    /// A fresh round (hands sorted by face, as the replay keeps them).
    pub fn new(rnd: u8, first: usize, rng: &mut CardRng) -> Self {
        let mut deck: Vec<u8> = (0..NATURALS)
            .flat_map(|f| std::iter::repeat_n(f, usize::from(DECKS)))
            .collect();
        shuffle(rng, &mut deck);
        let n = usize::from(rnd) + 2;
        let hands: Vec<Vec<u8>> = (0..P)
            .map(|s| {
                let mut h = deck[s * n..(s + 1) * n].to_vec();
                h.sort_unstable();
                h
            })
            .collect();
        let up = deck[P * n];
        let wild = rnd + 2;
        let r = Round {
            hands: hands.clone(),
            stock: deck[P * n + 1..].to_vec(),
            pile: vec![up],
            current: first,
            out: None,
            final_left: 0,
            turns: 0,
            own_turns: vec![0; P],
            taken: vec![Vec::new(); P],
        };
        let t = table_of(&r, wild, first, false);
        let mut ctx = t.ctx(false, HardParams::default());
        ctx.all_hard = true;
        Self {
            r,
            ctx,
            wild,
            first,
            history: History {
                upcard: Some(up),
                turns: Vec::new(),
            },
            slots: hands,
            rebuilt: false,
        }
    }

    /// Starts the current seat's turn (a stock rebuild ends the history); false: the round
    /// cannot go on.
    pub fn begin(&mut self, rng: &mut CardRng) -> bool {
        if self.r.stock.is_empty() {
            self.rebuilt = true;
        }
        self.r.begin_turn(rng)
    }

    /// `hard`'s draw for the current seat (true: the pile top).
    pub fn hard_draw(&self) -> bool {
        let (r, ctx) = (&self.r, &self.ctx);
        let s = r.current;
        let seen = r.seen_by(s);
        let top = *r.pile.last().expect("a pile");
        let can = r.own_turns[s] >= ctx.min_own_turns;
        hard::take_pile(
            &view_of(ctx, &r.hands[s], &seen, r.out.is_some()),
            top,
            can,
            &ctx.hard,
        )
        .unwrap_or(false)
    }

    /// Draws for the current seat; returns the drawn card's index in the (sorted) hand.
    pub fn draw(&mut self, take: bool) -> usize {
        let r = &mut self.r;
        let s = r.current;
        let (card, at) = r.draw(take, true).expect("a card");
        if !take {
            self.slots[s].push(card);
        }
        self.history.turns.push(Turn {
            draw: if take { Draw::Pile(card) } else { Draw::Stock },
            discard: 0,
        });
        at
    }

    /// `hard`'s discard for the current seat after its draw (`banned`: the taken card).
    pub fn hard_discard(&self, banned: Option<usize>) -> usize {
        let (r, ctx) = (&self.r, &self.ctx);
        let s = r.current;
        let seen = r.seen_by(s);
        let feed = &r.taken[(s + 1) % P];
        hard::discard(
            &view_of(ctx, &r.hands[s], &seen, r.out.is_some()),
            banned,
            feed,
            &ctx.hard,
        )
        .ok()
        .flatten()
        .unwrap_or(0)
    }

    /// Discards card `i` of the current seat; false: the round is over.
    pub fn discard(&mut self, i: usize) -> bool {
        let r = &mut self.r;
        let s = r.current;
        let mut rest = r.hands[s].clone();
        let d = rest.remove(i);
        let dw = fast::deadwood(&rest, self.wild, &self.ctx.rules);
        self.history.turns.last_mut().expect("the draw").discard = d;
        r.play_discard(&self.ctx, i, dw)
    }

    /// A whole `hard` turn; false: the round is over.
    pub fn hard_turn(&mut self) -> bool {
        let take = self.hard_draw();
        let at = self.draw(take);
        let banned = (take && self.ctx.forbid_return).then_some(at);
        let i = self.hard_discard(banned);
        self.discard(i)
    }

    pub fn table(&self, discard_phase: bool) -> Table {
        table_of(&self.r, self.wild, self.first, discard_phase)
    }

    /// The history without the current seat's incomplete turn.
    pub fn history_now(&self, discard_phase: bool) -> History {
        let mut h = self.history.clone();
        if discard_phase {
            h.turns.pop();
        }
        h
    }
}
