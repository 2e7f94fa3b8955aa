"""A tiny deterministic game for testing the game-neutral runner without the real engines.

It is also the worked example of CONTRIBUTING.md's "Adding a fourth game" checklist: options
(1), a deal from the ``"deck"`` stream and agents on their ``"agent"`` streams (2, 3), ``play``
with the record head and a replay (4), ``verify_replay`` (5), ``play_match`` (6) and
registration (7); ``tests/test_toy_checklist.py`` walks it through the CLI end to end and its other
tests are ``tests/test_sim*.py`` (8)."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Mapping, Sequence
from typing import Any

from cardcore.errors import ReplayMismatchError
from cardcore.games.base import GameRequest, GameSpec, OptionSpec, register_game
from cardcore.games.records import match_winner, replay_start
from cardcore.rng import Rng


class HighCard:
    """Bids the highest legal number."""

    def act(self, observation: Any, legal: Sequence[int], rng: Any) -> int:
        return max(legal)


class RandomBid:
    def act(self, observation: Any, legal: Sequence[int], rng: Rng) -> int:
        return legal[rng.below(len(legal))]


class _AfterCalls:
    """Does something drastic on its ``AFTER``-th move in this process (Ctrl-C and crash
    tests); until then it plays like :class:`HighCard`."""

    AFTER = 40
    calls = 0

    def act(self, observation: Any, legal: Sequence[int], rng: Any) -> int:
        type(self).calls += 1
        if type(self).calls >= self.AFTER:
            self.drastic()
        return max(legal)

    def drastic(self) -> None:
        raise NotImplementedError


class Stuck(_AfterCalls):
    """Never returns from its 40th move (a stuck agent)."""

    def drastic(self) -> None:
        time.sleep(3600)


class Dies(_AfterCalls):
    """Kills its own process on its 40th move (a worker killed by the OOM killer)."""

    def drastic(self) -> None:
        os.kill(os.getpid(), signal.SIGKILL)


def _play(req: GameRequest) -> tuple[list[int], list[list[int]]]:
    cards = req.options["cards"]
    assert isinstance(cards, int)  # the spec declares it an int option
    deck = Rng.for_stream(req.seed, 0, "deck").permutation(cards)
    hands = [deck[i :: req.players][:3] for i in range(req.players)]
    spec = get_spec()
    scores = []
    for seat in range(req.players):
        agent = spec.make_agent(req.agents[seat])
        rng = Rng.for_stream(req.seed, seat, "agent")
        scores.append(agent.act(None, hands[seat], rng))
    return scores, hands


def play(req: GameRequest) -> dict[str, Any]:
    scores, hands = _play(req)
    rec: dict[str, Any] = {
        **req.record_head("toy"),
        "scores": scores,
        "winner": match_winner(scores),
    }
    if req.replay:
        rec["replay"] = {
            **replay_start("toy", req.seed, req.players, req.agents, req.options),
            "hands": hands,
            "result": scores,
        }
    return rec


def play_match(req: GameRequest) -> dict[str, Any]:
    rec = play(req)
    rec["games"] = [dict(rec)]
    return rec


def verify_replay(replay: Mapping[str, Any]) -> None:
    req = GameRequest(
        index=0,
        seed=int(replay["seed"]),
        players=int(replay["players"]),
        agents=tuple(replay["agents"]),
        options=replay["options"],
    )
    scores, hands = _play(req)
    if hands != replay["hands"] or scores != replay["result"]:
        raise ReplayMismatchError("toy replay differs")


SPEC = register_game(
    GameSpec(
        name="toy",
        title="Toy",
        min_players=2,
        max_players=4,
        default_players=2,
        options=(OptionSpec("cards", 20, "deck size", minimum=12, maximum=52),),
        agents={"high": HighCard, "random": RandomBid},
        default_agent="high",
        play=play,
        play_match=play_match,
        verify_replay=verify_replay,
    )
)


def get_spec() -> GameSpec:
    return SPEC
