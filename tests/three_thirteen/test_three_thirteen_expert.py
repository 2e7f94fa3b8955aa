"""The Three-Thirteen expert: legal moves in every variant, reproducible games, clear errors."""

from __future__ import annotations

import hashlib
from typing import Any, Literal

import pytest

import cardcore
from agent_play import play_out, same_at_any_jobs
from cardcore import _core
from cardcore.errors import OptionError
from cardcore.rng import Rng
from cardcore.three_thirteen.agents import DealSearchAgent, ExpertAgent, HardAgent
from cardcore.three_thirteen.rules import Options, State
from tt_tables import expert_params, table


@pytest.mark.parametrize(
    ("players", "opts", "search"),
    [
        (2, {"num_decks": 1, "max_turns_per_round": 40}, "lap"),
        (2, {"num_decks": 1, "max_turns_per_round": 40}, "round"),
        (3, {"forbid_return_of_discard_draw": True, "jokers": 2, "max_turns_per_round": 60}, "lap"),
        (3, {"forbid_return_of_discard_draw": True, "jokers": 2}, "round"),
        (4, {"ace_mode": "high", "jokers": 4, "min_own_turns_before_out": 1}, "lap"),
        (6, {"ace_mode": "both", "num_decks": 2}, "lap"),
        (2, {"num_decks": 1, "max_turns_per_round": 40}, "pimc"),
        (3, {"forbid_return_of_discard_draw": True, "jokers": 2}, "pimc"),
        (4, {"ace_mode": "high", "jokers": 4, "min_own_turns_before_out": 1}, "pimc"),
        (2, {"num_decks": 1, "max_turns_per_round": 40}, "laphard"),
        (3, {"forbid_return_of_discard_draw": True, "jokers": 2}, "laphard"),
    ],
)
def test_expert_plays_legal_moves(
    players: int, opts: dict[str, Any], search: Literal["lap", "round", "pimc", "laphard"]
) -> None:
    o = Options(num_players=players, **opts)
    expert = DealSearchAgent(rollouts=2, search=search)
    agents: list[Any] = [expert] + [HardAgent() for _ in range(players - 1)]
    play_out(State(o, 5), 5, agents)
    assert expert.decisions > 0
    assert expert.deals > 0


def test_the_default_is_the_valuedraw_search() -> None:
    assert ExpertAgent().search == "valuedraw"
    assert ExpertAgent("win").search == "win"


def test_the_expert_takes_only_the_users_searches() -> None:
    """Issue #30: the research searches are DealSearchAgent's, not the expert level's."""
    for search in ("lap", "round", "pimc", "laphard", "infer", "value"):
        with pytest.raises(OptionError, match="DealSearchAgent"):
            ExpertAgent(search)  # type: ignore[arg-type]
        assert DealSearchAgent(search=search).search == search
    with pytest.raises(TypeError):
        ExpertAgent(rollouts=8)  # type: ignore[call-arg]


def test_expert_games_repeat_byte_for_byte_at_any_jobs() -> None:
    one = same_at_any_jobs(
        "three-thirteen", games=4, seed=11, agents="expert,hard,hard,hard", rotate_seats=True
    )
    assert any(r["agents"][0] == "expert" for r in one)


def test_expert_replays_verify() -> None:
    from cardcore.games.base import get_game

    spec = get_game("three-thirteen")
    rec = next(
        iter(
            cardcore.simulate(
                "three-thirteen", games=1, seed=3, agents="expert,hard", players=2, replays=True
            )
        )
    )
    assert spec.verify_replay(rec["replay"]) is None


def test_time_budget_searches_at_least_once() -> None:
    expert = DealSearchAgent(time_ms=1.0, search="lap")
    play_out(State(Options(num_players=2, num_decks=1), 2), 2, [expert, HardAgent()])
    assert expert.deals >= 1


def test_bad_budget_and_tables_raise_typed_errors() -> None:
    with pytest.raises(ValueError, match="rollouts"):
        DealSearchAgent(rollouts=-1)
    with pytest.raises(ValueError, match="time_ms"):
        DealSearchAgent(time_ms=0)
    with pytest.raises(ValueError, match="search"):
        ExpertAgent(search="deep")  # type: ignore[arg-type]
    bad_table = table(stock_size=100)  # stock too big
    for search, time_ms, match in [
        ("round", None, "inconsistent"),
        ("nosuch", None, "search must be one of round, lap, pimc, laphard"),
        ("lap", -1.0, "time budget"),
    ]:
        params = expert_params(
            time_ms=time_ms, hard_rollouts=True, search=search, infer_epsilon=0.05
        )
        with pytest.raises(OptionError, match=match):
            _core.tt_expert_decide(bad_table, params, 1)


@pytest.mark.parametrize(
    ("players", "opts"),
    [
        (2, {"num_decks": 1, "max_turns_per_round": 40}),
        (3, {"forbid_return_of_discard_draw": True, "jokers": 2}),
        (4, {"ace_mode": "high", "jokers": 4, "min_own_turns_before_out": 1}),
        (4, {}),
    ],
)
def test_value_search_plays_hards_draws_and_legal_discards(
    players: int, opts: dict[str, Any]
) -> None:
    """search="value" deals nothing, draws as hard does and discards legally; same game twice."""
    draws_as_and_repeats("value", HardAgent(), Options(num_players=players, **opts), 7)


def draws_as_and_repeats(
    search: Literal["value", "win"], reference: Any, o: Options, seed: int
) -> None:
    """The game of ``seed`` played twice with ``ExpertAgent(search=search)`` at seat 0 and
    ``hard`` elsewhere: it deals nothing, every draw is ``reference``'s at the same observation,
    every move is legal (``play_out`` checks them) and both games end with the same scores."""

    class Watch(DealSearchAgent):
        __slots__ = ()

        def __init__(self) -> None:
            super().__init__(search=search)

        def act(self, observation: Any, legal: Any, rng: Any) -> Any:
            move = super().act(observation, legal, rng)
            if observation.phase == "draw":
                assert move == reference.act(observation, legal, rng)
            return move

    finals = []
    for _ in range(2):
        expert = Watch()
        agents: list[Any] = [expert] + [HardAgent() for _ in range(o.num_players - 1)]
        state = play_out(State(o, seed), seed, agents)
        assert expert.decisions > 0
        assert expert.deals == 0
        finals.append((list(state.totals), list(state.round_scores)))
    assert finals[0] == finals[1]


def test_valuedraw_search_deals_nothing_and_repeats() -> None:
    """search="valuedraw" (the default) deals nothing, plays legal moves (play_out checks them)
    and differs from "value" only in draws: the same game twice gives the same scores."""
    o = Options(num_players=4)
    finals = []
    for _ in range(2):
        expert = ExpertAgent()
        agents: list[Any] = [expert] + [HardAgent() for _ in range(3)]
        state = play_out(State(o, 9), 9, agents)
        assert expert.decisions > 0
        assert expert.deals == 0
        finals.append((list(state.totals), list(state.round_scores)))
    assert finals[0] == finals[1]


@pytest.mark.parametrize(
    ("players", "opts"),
    [
        (3, {"forbid_return_of_discard_draw": True, "jokers": 2}),
        (4, {}),
    ],
)
def test_win_search_draws_as_valuedraw_and_repeats(players: int, opts: dict[str, Any]) -> None:
    """search="win" deals nothing, plays legal discards, draws as "valuedraw" does (the same
    observation, the same draw) and repeats game for game."""
    draws_as_and_repeats("win", ExpertAgent(), Options(num_players=players, **opts), 13)


def test_win_chance_is_the_closed_form_and_rejects_bad_input() -> None:
    """One opponent: the normal distribution function of the lead; four equal seats: 1/4."""
    import math

    def phi(x: float) -> float:
        return 0.5 * math.erfc(-x / math.sqrt(2))

    for a, m, v, d in [(0.0, 0.0, 100.0, 100.0), (12.0, -3.0, 64.0, 400.0), (-30.0, 2.0, 1.0, 9.0)]:
        exact = phi(-(a + m) / math.sqrt(v + d))
        assert _core.tt_win_chance([a], m, v, d) == pytest.approx(exact, abs=1e-6)
    assert _core.tt_win_chance([0.0] * 3, 0.0, 50.0, 50.0) == pytest.approx(0.25, abs=1e-6)
    for args in [([0.0], 0.0, -1.0, 1.0), ([math.nan], 0.0, 1.0, 1.0)]:
        with pytest.raises(OptionError, match="tt_win_chance"):
            _core.tt_win_chance(*args)


def test_win_standings_are_checked() -> None:
    """Standings without one finite total per seat are a typed error; without standings the win
    search plays as valuedraw."""
    position = table(
        hand=bytes([0, 1, 2, 16]),
        pile=bytes([40]),
        hand_sizes=[4, 3],
        stock_size=52 - 7 - 1,
        wild_points=15,
        joker_points=20,
        discard_phase=True,
        turn_in_round=0,
        first=0,
    )

    def decide(search: str, standings: Any) -> int:
        params = expert_params(rollouts=0, search=search, infer_epsilon=0.05)
        return _core.tt_expert_decide(position, params, 1, None, standings).choice

    assert decide("win", None) == decide("valuedraw", None)
    for totals in ([0, 0], [30, 0], [0, 30]):
        standings = _core.ThreeThirteenStandings(totals=totals, rounds_after=8)
        assert decide("win", standings) in range(4)
    with pytest.raises(OptionError, match="standings"):
        decide("win", _core.ThreeThirteenStandings(totals=[0, 0, 0], rounds_after=8))


@pytest.mark.parametrize(
    ("players", "opts", "params", "digest"),
    [
        (2, {"num_decks": 1, "max_turns_per_round": 40}, {"search": "round"}, "69d1fbbdadd60d0d"),
        (
            3,
            {"forbid_return_of_discard_draw": True, "jokers": 2},
            {"search": "round", "hard_rollouts": True},
            "07a0288a68a74c12",
        ),
        (
            3,
            {"forbid_return_of_discard_draw": True, "jokers": 2, "max_turns_per_round": 60},
            {"search": "lap"},
            "157829d16619ccac",
        ),
        (
            3,
            {"forbid_return_of_discard_draw": True, "jokers": 2},
            {"search": "laphard"},
            "08c281d458d2c57f",
        ),
    ],
)
def test_deal_searches_play_their_pinned_games(
    players: int, opts: dict[str, Any], params: dict[str, Any], digest: str
) -> None:
    """Whole games of the searches that play rounds out (on the rulebook's ``Round``): seats 0
    and 1 search (8 deals, margin 0: any better mean wins), the others play ``hard``. The
    moves' digests were taken on the build before the rollouts moved onto the rulebook's
    round (the golden files pin only the default search, which deals nothing)."""
    st = State(Options(num_players=players, **opts), 0)
    agents: list[Any] = [HardAgent() for _ in range(players)]
    for s in (0, 1):
        agents[s] = DealSearchAgent(rollouts=8, margin=0.0, **params)
    rngs = [Rng.for_stream(0, s, "agent") for s in range(players)]
    h = hashlib.sha256()
    while not st.is_over:
        s = st.current
        move = agents[s].act(st.observation(s), st.legal_moves(), rngs[s])
        h.update(str(move).encode())
        st.apply(move)
    assert h.hexdigest()[:16] == digest


@pytest.mark.parametrize(
    ("players", "opts", "epsilon", "digest"),
    [
        (
            2,
            {"forbid_return_of_discard_draw": True, "jokers": 2, "max_turns_per_round": 30},
            0.01,
            "1f0f5aa81c9d76ba",
        ),
        (
            3,
            {"num_decks": 1, "min_own_turns_before_out": 2, "max_turns_per_round": 30},
            0.0,
            "fdda521b9ce5e445",
        ),
    ],
)
def test_the_infer_search_plays_its_pinned_games(
    players: int, opts: dict[str, Any], epsilon: float, digest: str
) -> None:
    """The first 5 rounds of games with seat 0 on ``search="infer"`` (1 deal a decision,
    margin 0; the others ``hard``): its hand inference replays the round's public history. The
    digests were taken on the build before that replay moved onto the rulebook's ``Round``."""
    st = State(Options(num_players=players, **opts), 1)
    agents: list[Any] = [HardAgent() for _ in range(players)]
    agents[0] = DealSearchAgent(rollouts=1, margin=0.0, search="infer", infer_epsilon=epsilon)
    rngs = [Rng.for_stream(1, s, "agent") for s in range(players)]
    h = hashlib.sha256()
    while not st.is_over and st.round <= 5:
        s = st.current
        move = agents[s].act(st.observation(s), st.legal_moves(), rngs[s])
        h.update(str(move).encode())
        st.apply(move)
    assert h.hexdigest()[:16] == digest
