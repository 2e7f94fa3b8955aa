"""Three-Thirteen GameSpec: records, determinism, replays and tamper detection."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from cardcore.errors import OptionError, ReplayMismatchError
from cardcore.games.base import GameRequest, get_game
from cardcore.rng import RNG_VERSION
from cardcore.three_thirteen.rules import NUM_ROUNDS, decide_winner
from game_requests import request as game_request

SPEC = get_game("three-thirteen")


def request(
    seed: int = 7,
    players: int = 4,
    agents: tuple[str, ...] | None = None,
    replay: bool = False,
    **options: Any,
) -> GameRequest:
    agents = agents or ("greedy",) * players
    return game_request("three-thirteen", seed, players, agents, index=3, replay=replay,
                        options=options)  # fmt: skip


def test_spec_registration() -> None:
    assert SPEC.name == "three-thirteen"
    assert (SPEC.min_players, SPEC.max_players, SPEC.default_players) == (2, 6, 4)
    assert set(SPEC.agents) == {"random", "greedy", "normal", "hard", "expert", "learned"}
    assert SPEC.default_agent == "hard"
    assert SPEC.play_match is None
    names = [o.name for o in SPEC.options]
    assert names == [
        "num_decks",
        "jokers",
        "ace_mode",
        "wild_points",
        "joker_points",
        "first_dealer",
        "tie_rule",
        "forbid_return_of_discard_draw",
        "min_own_turns_before_out",
        "max_turns_per_round",
    ]
    assert SPEC.parse_options(["jokers=2", "first_dealer=auto", "ace_mode=high"]) == {
        "jokers": 2,
        "first_dealer": None,
        "ace_mode": "high",
    }
    with pytest.raises(OptionError):
        SPEC.parse_options(["jokers=3"])
    with pytest.raises(OptionError):
        SPEC.parse_options(["nope=1"])


def test_record_shape_and_consistency() -> None:
    rec = SPEC.play(request())
    for key in ("game", "index", "seed", "players", "agents", "scores", "round_scores"):
        assert key in rec
    assert rec["game"] == "three-thirteen"
    assert rec["index"] == 3
    assert rec["seed"] == 7
    assert rec["players"] == 4
    assert rec["agents"] == ["greedy"] * 4
    assert len(rec["round_scores"]) == NUM_ROUNDS
    assert all(len(r) == 4 for r in rec["round_scores"])
    assert rec["scores"] == [sum(r[s] for r in rec["round_scores"]) for s in range(4)]
    winner, outcome, tied, winners = decide_winner(rec["scores"])
    assert (rec["winner"], rec["outcome"], rec["tied"], rec["winners"]) == (
        winner,
        outcome,
        tied,
        winners,
    )
    for r, out in enumerate(rec["went_out"]):
        if out is not None:
            assert rec["round_scores"][r][out] == 0
    assert rec["decisions"] > 0
    assert "replay" not in rec
    json.dumps(rec)


@pytest.mark.parametrize("players", [2, 3, 5, 6])
def test_every_player_count_with_mixed_agents(players: int) -> None:
    agents = tuple(("random", "greedy", "hard")[s % 3] for s in range(players))
    rec = SPEC.play(request(seed=players, players=players, agents=agents, max_turns_per_round=60))
    assert len(rec["scores"]) == players
    assert rec["agents"] == list(agents)


def test_determinism_same_seed_same_bytes() -> None:
    a = json.dumps(SPEC.play(request(seed=11, replay=True)), sort_keys=True)
    b = json.dumps(SPEC.play(request(seed=11, replay=True)), sort_keys=True)
    c = json.dumps(SPEC.play(request(seed=12, replay=True)), sort_keys=True)
    assert a == b
    assert a != c


def test_agent_count_must_match_players() -> None:
    with pytest.raises(OptionError):
        SPEC.play(GameRequest(index=0, seed=1, players=4, agents=("greedy",) * 3, options={}))


# --- replays -------------------------------------------------------------------------------


def _replay(**kw: Any) -> dict[str, Any]:
    rec = SPEC.play(request(replay=True, **kw))
    rep: dict[str, Any] = json.loads(json.dumps(rec["replay"]))
    return rep


def test_replay_shape_and_round_trip() -> None:
    rep = _replay(seed=21)
    assert rep["format"] == "cardcore-replay"
    assert rep["version"] == 1
    assert rep["game"] == "three-thirteen"
    assert rep["rng"] == RNG_VERSION
    assert rep["seed"] == 21
    assert rep["players"] == 4
    assert rep["agents"] == ["greedy"] * 4
    assert len(rep["rounds"]) == NUM_ROUNDS
    for r, rnd in enumerate(rep["rounds"]):
        assert rnd["round"] == r + 1
        assert rnd["wild_rank"] == r + 3
        assert sorted(rnd["deck"]) == list(range(104))
        assert all(len(m) == 2 for m in rnd["moves"])
    SPEC.verify_replay(rep)


@pytest.mark.parametrize(
    "options",
    [
        {"jokers": 4, "ace_mode": "both", "max_turns_per_round": 40},
        {"forbid_return_of_discard_draw": True, "first_dealer": 1, "tie_rule": "shared_win"},
        {"num_decks": 3, "wild_points": 9, "joker_points": 11, "jokers": 2},
        {"min_own_turns_before_out": 1, "ace_mode": "high"},
    ],
)
def test_replay_round_trip_with_options(options: dict[str, Any]) -> None:
    rep = _replay(seed=5, agents=("random", "greedy", "greedy", "random"), **options)
    SPEC.verify_replay(rep)


def test_replay_with_rebuilds_round_trips() -> None:
    rep = _replay(seed=2, players=6, agents=("random",) * 6)
    assert sum(len(r["rebuilds"]) for r in rep["rounds"]) > 0
    SPEC.verify_replay(rep)


def _first_discard(rep: dict[str, Any], r: int = 0) -> int:
    return next(k for k, (_, c) in enumerate(rep["rounds"][r]["moves"]) if c >= 0)


def _tamper_cases(rep: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    cases: list[tuple[str, dict[str, Any]]] = []

    def case(name: str) -> dict[str, Any]:
        t = copy.deepcopy(rep)
        cases.append((name, t))
        return t

    t = case("seed")
    t["seed"] += 1
    t = case("deck order")
    d = t["rounds"][2]["deck"]
    d[0], d[-1] = d[-1], d[0]
    t = case("draw source")
    m = t["rounds"][1]["moves"][0]
    m[1] = -2 if m[1] == -1 else -1
    t = case("discarded card")
    k = _first_discard(t, 4)
    seat, c = t["rounds"][4]["moves"][k]
    hand_other = next(x for x in range(104) if x != c)
    t["rounds"][4]["moves"][k] = [seat, hand_other]
    t = case("seat")
    t["rounds"][0]["moves"][0][0] = (t["rounds"][0]["moves"][0][0] + 1) % 4
    t = case("dropped move")
    t["rounds"][3]["moves"].pop()
    t = case("extra move")
    t["rounds"][3]["moves"].append([0, -1])
    t = case("round score")
    t["rounds"][6]["scores"][1] += 1
    t = case("went out")
    t["rounds"][5]["went_out"] = None if t["rounds"][5]["went_out"] is not None else 0
    t = case("result")
    t["result"]["scores"][0] -= 1
    t = case("winner")
    t["result"]["winner"] = 3 if t["result"]["winner"] != 3 else 2
    t = case("options")
    t["options"]["max_turns_per_round"] = 3
    t = case("players")
    t["players"] = 3
    t = case("rng")
    t["rng"] = "cardcore-rng-v0"
    t = case("format")
    t["format"] = "other"
    t = case("missing rounds")
    t["rounds"].pop()
    t = case("first dealer")
    t["first_dealer"] = (t["first_dealer"] + 1) % 4
    t = case("bad code")
    t["rounds"][0]["moves"][0][1] = "S"
    t = case("garbage")
    del t["rounds"][0]["deck"]
    return cases


def test_replay_tamper_detection() -> None:
    rep = _replay(seed=31)
    SPEC.verify_replay(rep)
    for name, bad in _tamper_cases(rep):
        with pytest.raises(ReplayMismatchError):
            SPEC.verify_replay(bad)
        assert name


def test_replay_agent_check_detects_moves_agents_would_not_make() -> None:
    """A legal but different game under the recorded agents is caught by the agent re-run."""
    rep = _replay(seed=41, agents=("greedy",) * 4)
    rep2 = _replay(seed=41, agents=("random",) * 4)
    rep2["agents"] = ["greedy"] * 4
    with pytest.raises(ReplayMismatchError):
        SPEC.verify_replay(rep2)
    rep2["cardcore_version"] = "0.0.0-other"  # rules-only check then: the game itself is legal
    SPEC.verify_replay(rep2)
    SPEC.verify_replay(rep)


def test_arrange_hand_keeps_each_physical_card() -> None:
    """Two copies of one face (a two-deck game) stay two cards in the shown arrangement."""
    from cardcore.three_thirteen.hand import arrange_hand
    from cardcore.three_thirteen.rules import Options

    opts = Options.from_mapping(4, {})
    assert opts.num_decks == 2
    hand = [6, 58, 19, 32, 51]  # 7c@0 7c@1 7d@0 7h@0 Ks@0
    view = arrange_hand(hand, 3, opts)
    assert sorted(view.order) == sorted(hand)
    assert len(view.melds) == 1
    assert view.deadwood == (51,)
    assert view.points == 10
