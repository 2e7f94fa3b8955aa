"""Spite & Malice records and replays: keys, JSON round trip, tamper detection, matches."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from cardcore.errors import ReplayMismatchError
from cardcore.games.base import get_game
from cardcore.spite_malice import Options, State, parse_move
from game_requests import played

GAME = "spite-malice"


def _record(players: int = 2, seed: int = 42, **options: Any) -> dict[str, Any]:
    agents = ("planner", "greedy", "random", "greedy")[:players]
    return played(GAME, seed=seed, players=players, agents=agents, index=5, replay=True,
                  options=options)  # fmt: skip


def _match(seed: int, agents: tuple[str, str], target: int) -> dict[str, Any]:
    """A 2-player match record with its replay."""
    return played(GAME, match=True, seed=seed, players=2, agents=agents, replay=True,
                  options={"target_score": target})  # fmt: skip


def test_record_keys() -> None:
    rec = _record()
    for key in (
        "game",
        "index",
        "seed",
        "players",
        "agents",
        "scores",
        "winner",
        "outcome",
        "turns",
        "replay",
    ):
        assert key in rec
    assert rec["game"] == "spite-malice"
    assert rec["index"] == 5
    assert rec["seed"] == 42
    assert rec["outcome"] in ("win", "tie")
    assert (rec["winner"] is None) == (rec["outcome"] == "tie")
    rep = rec["replay"]
    assert rep["format"] == "cardcore-replay"
    assert rep["rng"] == "cardcore-rng-v1"
    assert len(rep["deck"]) == 104
    assert sorted(rep["deck"]) == list(range(104))
    assert rep["options"]["num_center_stacks"] == 3


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (2, {}),
        (3, {}),
        (4, {}),
        (2, {"wild_mode": "jokers", "num_center_stacks": 0}),
        (2, {"completed_stack": "set_aside", "stock_exhausted": "recycle_then_tie"}),
    ],
)
def test_replay_round_trip(players: int, options: dict[str, Any]) -> None:
    for seed in (1, 2, 3):
        rec = _record(players, seed, **options)
        get_game(GAME).verify_replay(rec)
        get_game(GAME).verify_replay(rec["replay"])


def test_unlimited_centre_replays_are_version_2() -> None:
    """Completed stacks' slots go away with unlimited centre stacks (a fixed action space), so
    those replays are version 2 and a version-1 one (older numbering) is refused clearly."""
    rec = _record(2, 5, wild_mode="jokers", num_center_stacks=0)
    assert rec["replay"]["version"] == 2
    assert _record(2, 5)["replay"]["version"] == 1
    old = copy.deepcopy(rec)
    old["replay"]["version"] = 1
    with pytest.raises(ReplayMismatchError, match="version"):
        get_game(GAME).verify_replay(old)


def _mutations(rec: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    out: list[tuple[str, dict[str, Any]]] = []

    def mut(name: str, fn: Any) -> None:
        r = copy.deepcopy(rec)
        fn(r)
        out.append((name, r))

    rep = "replay"
    mut("seed", lambda r: r[rep].__setitem__("seed", r[rep]["seed"] + 1))
    mut("deck", lambda r: r[rep]["deck"].reverse())
    mut("drop last move", lambda r: r[rep]["moves"].pop())
    mut("drop first move", lambda r: r[rep]["moves"].pop(0))
    mut("extra move", lambda r: r[rep]["moves"].append(r[rep]["moves"][-1]))
    mut("wrong seat", lambda r: r[rep]["moves"][0].__setitem__(0, 1 - r[rep]["moves"][0][0]))
    mut("scores", lambda r: r[rep]["result"].__setitem__("scores", [99, 0]))
    mut("record winner", lambda r: r.__setitem__("winner", 1 if r["winner"] == 0 else 0))
    mut("rng", lambda r: r[rep].__setitem__("rng", "cardcore-rng-v0"))
    mut("option", lambda r: r[rep]["options"].__setitem__("hand_size", 6))
    mut("bad option", lambda r: r[rep]["options"].__setitem__("wild_mode", "queens"))
    mut("digest", lambda r: r[rep]["result"].__setitem__("digest", "0" * 64))
    mut("garbage move", lambda r: r[rep]["moves"].__setitem__(0, [0, "Z9>C1"]))
    mut("no replay", lambda r: r.pop(rep))
    mut("game", lambda r: r[rep].__setitem__("game", "nerts"))
    return out


def _swap_discard(rec: dict[str, Any]) -> dict[str, Any] | None:
    """A still-legal but different move: another side stack for the first discard."""
    r = copy.deepcopy(rec)
    moves = r["replay"]["moves"]
    for m in moves:
        if ">S" in m[1]:
            src, side = m[1].split(">S")
            m[1] = f"{src}>S{int(side) % 4 + 1}"
            return r
    return None


def test_tamper_detection() -> None:
    rec = _record()
    for name, bad in _mutations(rec):
        with pytest.raises(ReplayMismatchError):
            get_game(GAME).verify_replay(bad)
        assert name
    swapped = _swap_discard(rec)
    assert swapped is not None
    with pytest.raises(ReplayMismatchError):
        get_game(GAME).verify_replay(swapped)


def test_reshuffles_reproduce() -> None:
    """Every completed stack is reshuffled from the deck stream in event order."""
    rec = _record(seed=8)
    rep = rec["replay"]
    assert rep["result"]["reshuffles"] > 0
    o = Options.from_mapping(
        rep["players"], {k: v for k, v in rep["options"].items() if k != "num_players"}
    )
    st = State.new(o, rep["seed"])
    for _, text in rep["moves"]:
        st.apply(parse_move(text, o.decks))
        st.check_conservation()
    assert st.reshuffles == rep["result"]["reshuffles"]
    assert st.layout_digest() == rep["result"]["digest"]


def test_match_record_and_replay() -> None:
    spec = get_game(GAME)
    rec = _match(9, ("planner", "greedy"), 30)
    assert max(rec["scores"]) >= 30
    assert rec["winner"] == rec["scores"].index(max(rec["scores"]))
    assert [g["index"] for g in rec["games"]] == list(range(len(rec["games"])))
    assert rec["replay"]["kind"] == "match"
    assert all("replay" not in g for g in rec["games"])
    spec.verify_replay(rec)
    spec.verify_replay(rec["replay"])
    tampers: list[Callable[[dict[str, Any]], Any]] = [
        lambda r: r["scores"].__setitem__(0, r["scores"][0] + 1),
        lambda r: r["replay"]["games"][0]["moves"].pop(),
        lambda r: r["replay"]["games"].pop(),
        lambda r: r["replay"]["games"].append(r["replay"]["games"][-1]),
        lambda r: r["replay"]["result"].__setitem__("winner", 1 - r["winner"]),
        lambda r: r["replay"]["games"][0].__setitem__("seed", 5),
    ]
    for tamper in tampers:
        bad = copy.deepcopy(rec)
        tamper(bad)
        with pytest.raises(ReplayMismatchError):
            spec.verify_replay(bad)


def test_replay_without_its_result_is_rejected() -> None:
    """A replay must state its outcome: dropping `result` (or a key of it) is tampering, and a
    match replay's game without a result is a mismatch, not a KeyError."""
    spec = get_game(GAME)
    rec = _record()
    rep = rec["replay"]
    for key in ("winner", "scores", "turns", "reshuffles", "digest"):
        bad = copy.deepcopy(rep)
        del bad["result"][key]
        with pytest.raises(ReplayMismatchError):
            spec.verify_replay(bad)
    bad = copy.deepcopy(rep)
    del bad["result"]
    with pytest.raises(ReplayMismatchError):
        spec.verify_replay(bad)
    match = _match(9, ("greedy", "greedy"), 15)["replay"]
    spec.verify_replay(match)
    edits: list[Callable[[dict[str, Any]], Any]] = [
        lambda r: r.pop("result"),
        lambda r: r["result"].pop("winner"),
        lambda r: r["games"][0].pop("result"),
        lambda r: r["games"][0]["result"].pop("scores"),
    ]
    for edit in edits:
        bad = copy.deepcopy(match)
        edit(bad)
        with pytest.raises(ReplayMismatchError):
            spec.verify_replay(bad)


def _play_style_match(seed: int) -> dict[str, Any]:
    """A match record shaped as `cardcore play` saves it: each game carries its own replay."""
    rec = _match(seed, ("greedy", "greedy"), 15)
    for game, rep in zip(rec["games"], rec.pop("replay")["games"], strict=True):
        game["replay"] = rep
    return rec


def test_play_style_match_record_checks_seeds_and_the_end() -> None:
    spec = get_game(GAME)
    rec = _play_style_match(9)
    assert len(rec["games"]) >= 2
    spec.verify_replay(rec)
    other = _play_style_match(10)

    def drop_last(r: dict[str, Any]) -> None:
        last = r["games"].pop()
        r["scores"] = [a - b for a, b in zip(r["scores"], last["scores"], strict=True)]

    def foreign_first(r: dict[str, Any]) -> None:  # a valid game, but of another match
        old, new = r["games"][0], other["games"][0]
        r["games"][0] = new
        r["scores"] = [
            t - a + b for t, a, b in zip(r["scores"], old["scores"], new["scores"], strict=True)
        ]

    for edit in (drop_last, foreign_first, lambda r: r.__setitem__("winner", 1 - r["winner"])):
        bad = copy.deepcopy(rec)
        edit(bad)
        with pytest.raises(ReplayMismatchError):
            spec.verify_replay(bad)


def test_match_replay_games_must_use_the_match_agents() -> None:
    spec = get_game(GAME)
    match = _match(17, ("greedy", "greedy"), 15)["replay"]
    first = match["games"][0]
    # game 0's deal played by other agents, with the same scores: a valid game replay on its
    # own (totals, winner and match end unchanged), but not a game of this match
    other = played(GAME, seed=first["seed"], players=2, agents=("planner", "planner"),
                   replay=True, options={"target_score": 15})["replay"]  # fmt: skip
    assert other["result"]["scores"] == first["result"]["scores"]
    assert other["moves"] != first["moves"]
    spec.verify_replay(other)
    bad = copy.deepcopy(match)
    bad["games"][0] = other
    with pytest.raises(ReplayMismatchError, match="agents"):
        spec.verify_replay(bad)
