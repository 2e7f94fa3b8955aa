use super::*;
use crate::card::NATURALS;
use crate::meld::MeldRules;
use crate::three_thirteen_expert::{Ctx, view_of};

pub(super) const P: usize = 4;
pub(super) const DECKS: u8 = 2;

/// A `hard` self-play round with its public history and each seat's true slots.
pub(super) struct Game {
    pub(super) r: Round,
    pub(super) ctx: Ctx,
    pub(super) wild: u8,
    pub(super) first: usize,
    pub(super) history: History,
    pub(super) slots: Vec<Vec<u8>>,
    /// The stock was rebuilt: the history no longer reaches the deal.
    pub(super) rebuilt: bool,
}

impl Game {
    /// A fresh round (hands sorted by face, as the replay keeps them).
    pub(super) fn new(rnd: u8, first: usize, rng: &mut CardRng) -> Self {
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
    pub(super) fn begin(&mut self, rng: &mut CardRng) -> bool {
        if self.r.stock.is_empty() {
            self.rebuilt = true;
        }
        self.r.begin_turn(rng)
    }

    /// `hard`'s draw for the current seat (true: the pile top).
    pub(super) fn hard_draw(&self) -> bool {
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
    pub(super) fn draw(&mut self, take: bool) -> usize {
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
    pub(super) fn hard_discard(&self, banned: Option<usize>) -> usize {
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
    pub(super) fn discard(&mut self, i: usize) -> bool {
        let r = &mut self.r;
        let s = r.current;
        let mut rest = r.hands[s].clone();
        let d = rest.remove(i);
        let dw = fast::deadwood(&rest, self.wild, &self.ctx.rules);
        self.history.turns.last_mut().expect("the draw").discard = d;
        r.play_discard(&self.ctx, i, dw)
    }

    /// A whole `hard` turn; false: the round is over.
    pub(super) fn hard_turn(&mut self) -> bool {
        let take = self.hard_draw();
        let at = self.draw(take);
        let banned = banned_after_draw(self.ctx.forbid_return, take, at);
        let i = self.hard_discard(banned);
        self.discard(i)
    }

    pub(super) fn table(&self, discard_phase: bool) -> Table {
        table_of(&self.r, self.wild, self.first, discard_phase)
    }

    /// The history without the current seat's incomplete turn.
    pub(super) fn history_now(&self, discard_phase: bool) -> History {
        let mut h = self.history.clone();
        if discard_phase {
            h.turns.pop();
        }
        h
    }
}

/// Cards in a round.
fn count(r: &Round) -> usize {
    r.hands.iter().map(Vec::len).sum::<usize>() + r.stock.len() + r.pile.len()
}

/// Plays `hard` rounds and calls `at(game, discard_phase)` at each of seat 0's decisions
/// before the stock is rebuilt.
fn each_decision(rounds: u64, seed: u64, mut at: impl FnMut(&Game, bool)) {
    let mut rng = CardRng::new(seed);
    for g in 0..rounds {
        let rnd = u8::try_from(g % 11).unwrap() + 1;
        let first = usize::try_from(rng.below(4)).unwrap();
        let mut game = Game::new(rnd, first, &mut rng);
        let mut play = CardRng::new(seed ^ g);
        while game.begin(&mut play) && !game.rebuilt {
            if game.r.current == 0 {
                at(&game, false);
                let take = game.hard_draw();
                game.draw(take);
                at(&game, true);
                let i = game.hard_discard(None);
                if !game.discard(i) {
                    break;
                }
            } else if !game.hard_turn() {
                break;
            }
        }
    }
}

#[test]
fn the_truth_explains_the_history_exactly() {
    let mut checked = 0;
    each_decision(22, 5, |game, discard_phase| {
        let t = game.table(discard_phase);
        let h = game.history_now(discard_phase);
        let model = Model::new(&t, &h, HardParams::default(), 0.0).unwrap();
        let mut scratch = Vec::new();
        for o in &model.opponents {
            let m = model.misses(o, &game.slots[o.seat], &mut scratch);
            assert_eq!(m, 0, "seat {} at turn {}", o.seat, t.turn_in_round);
            let mut now = game.r.hands[o.seat].clone();
            now.sort_unstable();
            assert_eq!(scratch, now);
        }
        checked += 1;
    });
    assert!(checked > 100, "{checked}");
}

#[test]
fn exact_deals_reproduce_the_history_and_keep_every_card() {
    // Exact likelihood against `hard`: the deals whose every replayed choice is `hard`'s
    // (most of them after a long burn-in) reproduce the history; every deal keeps every card.
    let mut n = 0;
    let mut exact = 0;
    each_decision(5, 9, |game, discard_phase| {
        let t = game.table(discard_phase);
        let h = game.history_now(discard_phase);
        if t.turn_in_round < 6 || n >= 8 {
            return;
        }
        n += 1;
        let model = Model::new(&t, &h, HardParams::default(), 0.0).unwrap();
        let unseen = t.unseen().unwrap();
        let mut rng = CardRng::new(n);
        let mut chain = Chain::new(&model, &t, &unseen, &mut rng);
        chain.burn_in(32, &mut rng);
        for _ in 0..4 {
            chain.sweep(1, &mut rng);
            assert!(chain.possible());
            let r = chain.deal(&t, &mut rng);
            assert_eq!(count(&r), count(&game.r));
            assert_eq!(r.hands[0], t.hand);
            for s in 1..P {
                assert_eq!(r.hands[s].len(), t.hand_sizes[s]);
                assert!(contains_all(&r.hands[s], &t.taken[s]));
            }
            let mut all: Vec<u8> = r.hands.concat();
            all.extend_from_slice(&r.stock);
            all.extend_from_slice(&r.pile);
            all.sort_unstable();
            let mut truth: Vec<u8> = game.r.hands.concat();
            truth.extend_from_slice(&game.r.stock);
            truth.extend_from_slice(&game.r.pile);
            truth.sort_unstable();
            assert_eq!(all, truth);
            if chain.misses() == 0 {
                exact += 1;
                // An independent replay of each opponent's turns agrees.
                let mut scratch = Vec::new();
                for (j, o) in model.opponents.iter().enumerate() {
                    assert_eq!(model.misses(o, &chain.slots[j], &mut scratch), 0);
                    let mut now = r.hands[o.seat].clone();
                    now.sort_unstable();
                    assert_eq!(scratch, now);
                }
            }
        }
    });
    assert!(
        n >= 4 && 2 * exact >= 4 * n,
        "{n} positions, {exact} exact deals"
    );
}

#[test]
fn deals_are_deterministic_from_the_seed() {
    let mut n = 0;
    each_decision(6, 3, |game, discard_phase| {
        let t = game.table(discard_phase);
        let h = game.history_now(discard_phase);
        if t.turn_in_round < 4 || n > 5 {
            return;
        }
        n += 1;
        let p = InferParams {
            burn_in: 3,
            ..InferParams::default()
        };
        let a = deals(&t, &h, HardParams::default(), &p, 3, 17).unwrap();
        let b = deals(&t, &h, HardParams::default(), &p, 3, 17).unwrap();
        for (x, y) in a.iter().zip(&b) {
            assert_eq!(x.hands, y.hands);
            assert_eq!(x.stock, y.stock);
        }
    });
    assert!(n > 0);
}

#[test]
fn a_history_that_does_not_lead_to_the_table_is_an_error() {
    let mut n = 0;
    each_decision(3, 4, |game, discard_phase| {
        let t = game.table(discard_phase);
        let mut h = game.history_now(discard_phase);
        if h.turns.len() < 3 || n > 0 {
            return;
        }
        n += 1;
        let p = InferParams::default();
        let hp = HardParams::default();
        let mut short = h.clone();
        short.turns.pop();
        assert!(matches!(
            deals(&t, &short, hp, &p, 1, 1),
            Err(ExpertError::Table(_))
        ));
        let wrong = (h.turns[0].discard + 1) % 52;
        h.turns[1].draw = Draw::Pile(wrong);
        assert!(deals(&t, &h, hp, &p, 1, 1).is_err());
        let bad_eps = InferParams { epsilon: -1.0, ..p };
        let h = game.history_now(discard_phase);
        assert!(deals(&t, &h, hp, &bad_eps, 1, 1).is_err());
    });
    assert_eq!(n, 1);
}

/// The table of the current seat of a self-play round (4 players, 2 decks).
fn table_of(r: &Round, wild: u8, first: usize, discard_phase: bool) -> Table {
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
