"""``resample_hidden``: nothing a seat can see changes, hidden cards do, the re-deal respects
what the seat knows, and it is uniform (chi-square tests on small decks)."""

from __future__ import annotations

import json
import math
from collections import Counter
from typing import Any

import numpy as np
import pytest

import cardcore
from cardcore.games.api import Game, State
from cardcore.rng import Rng
from cardcore.spite_malice.rules import State as SMState
from cardcore.three_thirteen.rules import State as TTState

CASES: list[tuple[str, dict[str, Any]]] = [
    ("spite-malice", {"players": 2}),
    (
        "spite-malice",
        {
            "players": 3,
            "wild_mode": "jokers",
            "num_center_stacks": 0,
            "stock_exhausted": "recycle_then_tie",
            "completed_stack": "set_aside",
        },
    ),
    ("three-thirteen", {"players": 2, "num_decks": 1, "max_turns_per_round": 200}),
    (
        "three-thirteen",
        {
            "players": 4,
            "jokers": 2,
            "forbid_return_of_discard_draw": True,
            "max_turns_per_round": 25,
        },
    ),
]


def chi2_limit(df: int, z: float = 3.29) -> float:
    """The chi-square value exceeded with probability ~0.0005 (Wilson-Hilferty)."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def chi2(observed: list[int], expected: list[float]) -> float:
    return sum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True))


def random_states(game: Game[Any], games: int, every: int, limit: int = 1000) -> list[State[Any]]:
    """States met in seeded random games, one every ``every`` steps (at most ``limit`` per
    game)."""
    out: list[State[Any]] = []
    for seed in range(games):
        st = game.new_state(seed)
        rng = Rng(seed + 1000)
        step = 0
        start = len(out)
        while not st.is_over and len(out) - start < limit:
            if step % every == every - 1:
                out.append(st.clone())
            legal = st.legal_actions()
            st.apply(legal[rng.below(len(legal))])
            step += 1
    return out


@pytest.mark.parametrize(("name", "options"), CASES)
def test_resample_keeps_what_the_seat_sees(name: str, options: dict[str, Any]) -> None:
    game = cardcore.load_game(name, **options)
    every = 37 if name == "three-thirteen" else 5  # random Spite & Malice games are short
    states = random_states(game, 3, every, limit=12)
    assert len(states) > 20
    changed = 0
    for i, st in enumerate(states):
        seat = i % game.num_players
        seen = st.observation_json(seat)
        tensor = st.observation_tensor(seat)
        for seed in range(3):
            r = st.resample_hidden(seat, seed)
            assert r.observation_json(seat) == seen
            assert np.array_equal(r.observation_tensor(seat), tensor)
            assert r.current_player == st.current_player
            if st.current_player == seat:
                assert r.legal_actions() == st.legal_actions()
            assert game.state_from_json(r.to_json()).to_json() == r.to_json()  # a valid state
            others = [json.loads(r.observation_json(s)) for s in range(game.num_players)]
            truth = [json.loads(st.observation_json(s)) for s in range(game.num_players)]
            changed += others != truth
        again = st.resample_hidden(seat, 0)
        assert again.to_json() == st.resample_hidden(seat, 0).to_json()  # seeded
    assert changed > len(states)  # other seats' hidden cards do change


@pytest.mark.parametrize(("name", "options"), CASES)
def test_resampled_states_play_to_the_end(name: str, options: dict[str, Any]) -> None:
    game = cardcore.load_game(name, **options)
    every = 101 if name == "three-thirteen" else 9
    for i, st in enumerate(random_states(game, 2, every, limit=6)):
        r = st.resample_hidden(i % game.num_players, i)
        rng = Rng(i)
        while not r.is_over:
            legal = r.legal_actions()
            r.apply(legal[rng.below(len(legal))])


def _tt_classes(st: Any) -> list[int]:
    """Class of every card in the current round: the latest stock rebuild that held it (0:
    none), from the public record of rebuilt piles."""
    cls = [0] * st.options.total_cards
    for j, order in enumerate(st.rebuilds[-1], start=1):
        for c in order:
            cls[c] = j
    return cls


def test_three_thirteen_resample_respects_knowledge() -> None:
    """Cards an opponent took from the pile stay with it; after a stock rebuild the stock
    holds only rebuilt cards; every opponent holds as many hidden cards of each class as in
    the real deal (those counts follow from the public moves)."""
    game = cardcore.load_game("three-thirteen", players=3, num_decks=1, max_turns_per_round=300)
    rebuilt = 0
    for i, s in enumerate(random_states(game, 4, 23)):
        assert isinstance(s, TTState)
        seat = i % 3
        cls = _tt_classes(s)
        if s.rebuilds[-1]:
            rebuilt += 1
        for seed in range(2):
            r = s.resample_hidden(seat, seed)
            if s.rebuilds[-1]:
                assert {cls[c] for c in r.stock} <= {len(s.rebuilds[-1])}
            for k in range(3):
                assert set(s.taken[k]) <= set(r.hands[k])
                if k == seat:
                    assert r.hands[k] == s.hands[k]
                    continue
                hidden = [c for c in s.hands[k] if c not in s.taken[k]]
                hidden_r = [c for c in r.hands[k] if c not in s.taken[k]]
                assert Counter(cls[c] for c in hidden) == Counter(cls[c] for c in hidden_r)
    assert rebuilt > 5


def test_three_thirteen_resample_is_uniform() -> None:
    """Fresh deal, 2 players, one deck: a given unseen card lands in the opponent's hand (3
    places) or at each of the 45 stock positions with chance proportional to the places; the
    card on top of the stock is any of the 48 unseen cards alike."""
    game = cardcore.load_game("three-thirteen", players=2, num_decks=1, first_dealer=1)
    st: Any = game.new_state(7)
    seen = set(st.hands[0]) | set(st.discard_pile)
    unseen = [c for c in range(52) if c not in seen]
    card = unseen[0]
    n = 4800
    where = [0] * 46
    top: Counter[int] = Counter()
    for seed in range(n):
        r: Any = st.resample_hidden(0, seed)
        where[0 if card in r.hands[1] else 1 + r.stock.index(card)] += 1
        top[r.stock[-1]] += 1
    assert chi2(where, [n * 3 / 48] + [n / 48] * 45) < chi2_limit(45)
    assert chi2([top[c] for c in unseen], [n / 48] * 48) < chi2_limit(47)


def test_three_thirteen_resample_after_a_rebuild_is_uniform() -> None:
    """After a stock rebuild the stock top is any unseen rebuilt card alike."""
    game = cardcore.load_game("three-thirteen", players=2, num_decks=1, max_turns_per_round=300)
    st: Any = None
    for s in random_states(game, 2, 5):
        assert isinstance(s, TTState)
        if len(s.rebuilds[-1]) == 1 and s.round == 1 and len(s.stock) > 15:
            st = s
            break
    assert st is not None
    cls = _tt_classes(st)
    seen = set(st.hands[0]) | set(st.discard_pile) | set(st.taken[1])
    pool = [c for c in range(52) if c not in seen and cls[c] == 1]
    n = 60 * len(pool)
    top = Counter(st.resample_hidden(0, seed).stock[-1] for seed in range(n))
    assert set(top) <= set(pool)
    assert chi2([top[c] for c in pool], [n / len(pool)] * len(pool)) < chi2_limit(len(pool) - 1)


def _greedy_states(game: Game[Any], seeds: range, every: int) -> list[SMState]:
    """Spite & Malice states of seeded games that play to the centre when they can (long
    games with many completed stacks), one every ``every`` moves."""
    out: list[SMState] = []
    for seed in seeds:
        st = game.new_state(seed)
        assert isinstance(st, SMState)
        rng = Rng(seed + 7)
        step = 0
        while not st.over:
            if step % every == every - 1:
                out.append(st.clone())
            legal = st.legal_actions()
            plays = [a for a in legal if a < game.discard_base]  # type: ignore[attr-defined]
            pick = plays if plays and rng.below(5) else legal
            st.apply(pick[rng.below(len(pick))])
            step += 1
    return out


@pytest.mark.parametrize("players", [2, 3])
def test_spite_malice_resample_respects_knowledge(players: int) -> None:
    """Pay-off tops seen before a first-player reshuffle stay in their piles; cards that went
    back into the stock are never below a pay-off top, and are in a hand only when that seat
    drew since, never more of them than it drew (less those it played)."""
    game = cardcore.load_game("spite-malice", players=players, payoff_size=12)
    # seeds 0-19 include first-player reshuffles (seen pay-off tops shuffled back)
    states = _greedy_states(game, range(20), 23)
    entered = sum(1 for s in states if s.entries)
    assert entered > 20
    pinned = 0
    for i, st in enumerate(states):
        seat = i % players
        for seed in range(3):
            r = st.resample_hidden(seat, seed)
            assert isinstance(r, SMState)
            assert (r.sides, r.center, r.used) == (st.sides, st.center, st.used)
            for k in range(players):
                below = r.payoffs[k][:-1]
                for c in st.pinned[k]:
                    if c in st.payoffs[k][:-1]:
                        assert c in below
                        pinned += 1
                assert all(c not in st.entry_of for c in below)
                if k == seat:
                    assert r.hands[k] == st.hands[k]
                    continue
                classes = [st.entry_of.get(c, 0) for c in r.hands[k]]
                for j, at_entry in enumerate(st.entry_draws, start=1):
                    drew = st.drawn[k] - at_entry[k]
                    held = sum(1 for e in classes if e >= j)
                    played = sum(1 for e in st.played[k] if e >= j)
                    assert held + played <= drew
    assert pinned > 0


def test_spite_malice_resample_is_uniform() -> None:
    """Fresh deal, one deck, 2 players: a given unseen card lands below either pay-off top
    (4 places each), in the opponent's hand (3) or at each of the 36 stock positions alike."""
    game = cardcore.load_game(
        "spite-malice", players=2, num_decks=1, payoff_size=5, hand_size=3, first_player=0
    )
    st: Any = game.new_state(3)
    seen = set(st.hands[0]) | {p[-1] for p in st.payoffs}
    card = min(c for c in range(52) if c not in seen)
    n = 4700
    where = [0] * 39
    for seed in range(n):
        r: Any = st.resample_hidden(0, seed)
        if card in r.payoffs[0]:
            where[0] += 1
        elif card in r.payoffs[1]:
            where[1] += 1
        elif card in r.hands[1]:
            where[2] += 1
        else:
            where[3 + r.stock.index(card)] += 1
    expected = [n * 4 / 47, n * 4 / 47, n * 3 / 47] + [n / 47] * 36
    assert chi2(where, expected) < chi2_limit(38)
