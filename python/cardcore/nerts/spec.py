"""The Nerts :class:`~cardcore.games.base.GameSpec`: one record per round, matches to 100,
replays and their verification."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cardcore import __version__
from cardcore.cards import parse_card
from cardcore.errors import IllegalMoveError, ReplayMismatchError
from cardcore.games.base import HUMAN, GameRequest, GameSpec, OptionSpec, register_game
from cardcore.games.schema import (
    HEAD,
    INT64,
    STRING,
    UINT64,
    RecordSchema,
    list_of,
    optional,
    struct,
)
from cardcore.nerts.agents import GreedyAgent, HardAgent, RandomAgent
from cardcore.nerts.engine import NertsAgent, Round
from cardcore.nerts.rules import OPTION_SPECS, NertsOptions, card_text, parse_action
from cardcore.rng import RNG_VERSION, derive_seed

__all__ = ["HUMAN", "SPEC", "play", "play_match", "play_round", "rerun_round", "verify_replay"]

GAME = "nerts"
_OPTIONS: tuple[OptionSpec, ...] = OPTION_SPECS


def _options(players: int, given: Mapping[str, Any]) -> NertsOptions:
    return NertsOptions.from_mapping(players, given)


def _agents(names: Sequence[str], players: int) -> list[NertsAgent]:
    if len(names) not in (1, players):
        raise ValueError(f"need 1 or {players} agent names, got {len(names)}")
    full = list(names) * players if len(names) == 1 else list(names)
    agents: list[NertsAgent] = [SPEC.make_agent(n) for n in full]
    return agents


def play_round(
    options: NertsOptions,
    seed: int,
    agents: Sequence[NertsAgent | None],
    *,
    replay: bool = False,
) -> tuple[Round, dict[str, Any]]:
    """Plays one round with agents only; returns the finished round and its record fields."""
    rnd = Round(options, seed, agents)
    rnd.run()
    fields: dict[str, Any] = {
        "scores": rnd.scores(),
        "winner": rnd.caller,
        "caller": rnd.caller,
        "end": rnd.end,
        "duration_ms": rnd.now,
        "events": len(rnd.log),
    }
    if replay:
        fields["replay"] = {
            "seed": seed,
            "rng": RNG_VERSION,
            "decks": [" ".join(card_text(c) for c in d) for d in rnd.decks],
            "events": rnd.log,
            "inputs": rnd.inputs,
            "scores": fields["scores"],
            "end": rnd.end,
            "caller": rnd.caller,
            "duration_ms": rnd.now,
        }
    return rnd, fields


_REPLAY_HEAD: dict[str, Any] = {
    "format": "cardcore-replay",
    "version": 1,
    "cardcore_version": __version__,
}


def play(request: GameRequest) -> dict[str, Any]:
    """One round (the default record unit)."""
    opts = _options(request.players, request.options)
    agents = _agents(request.agents, request.players)
    _rnd, fields = play_round(opts, request.seed, agents, replay=request.replay)
    record: dict[str, Any] = {
        **request.record_head(GAME),
        **{k: v for k, v in fields.items() if k != "replay"},
    }
    if request.replay:
        record["replay"] = {
            **_REPLAY_HEAD,
            "game": GAME,
            "kind": "round",
            "players": request.players,
            "agents": list(request.agents),
            "options": opts.as_dict(),
            **fields["replay"],
        }
    return record


MAX_MATCH_ROUNDS = 1000
"""Safety net: a match stops after this many rounds even with no unique leader at the target."""


def _match_over(totals: Sequence[int], target: int) -> bool:
    """RULES §4.3: some total reached ``target`` and the highest total is unique."""
    top = max(totals)
    return top >= target and totals.count(top) == 1


def play_match(request: GameRequest) -> dict[str, Any]:
    """Rounds until a total reaches ``target_score`` with a unique leader (RULES §4.3)."""
    opts = _options(request.players, request.options)
    agents = _agents(request.agents, request.players)
    totals = [0] * request.players
    rounds: list[dict[str, Any]] = []
    replays: list[dict[str, Any]] = []
    r = 0
    while True:
        seed = derive_seed(request.seed, r, "round")
        _rnd, fields = play_round(opts, seed, agents, replay=request.replay)
        totals = [t + s for t, s in zip(totals, fields["scores"], strict=True)]
        if request.replay:
            replays.append(fields.pop("replay"))
        rounds.append({"round": r, "seed": seed, **fields})
        r += 1
        if _match_over(totals, opts.target_score):
            break
        if r >= MAX_MATCH_ROUNDS:  # safety net: scores can stay flat with penalty-free options
            break
    winner = totals.index(max(totals)) if totals.count(max(totals)) == 1 else None
    record: dict[str, Any] = {
        **request.record_head(GAME),
        "scores": totals,
        "winner": winner,
        "rounds": rounds,
    }
    if request.replay:
        record["replay"] = {
            **_REPLAY_HEAD,
            "game": GAME,
            "kind": "match",
            "seed": request.seed,
            "rng": RNG_VERSION,
            "players": request.players,
            "agents": list(request.agents),
            "options": opts.as_dict(),
            "rounds": replays,
            "scores": totals,
            "winner": winner,
        }
    return record


def _compare(what: str, got: Any, want: Any) -> None:
    if got != want:
        raise ReplayMismatchError(
            f"nerts replay: {what} differs: recorded {want!r}, re-run {got!r}"
        )


def _replay_agents(names: Sequence[str], players: int) -> list[NertsAgent | None]:
    full = list(names) * players if len(names) == 1 else list(names)
    if len(full) != players:
        raise ReplayMismatchError(f"nerts replay: {len(full)} agents for {players} players")
    return [None if n == HUMAN else SPEC.make_agent(n) for n in full]


def rerun_round(
    options: NertsOptions,
    seed: int,
    agents: Sequence[NertsAgent | None],
    inputs: Sequence[Sequence[Any]] = (),
    duration_ms: int | None = None,
) -> Round:
    """Re-plays one round: human seats (agent ``None``) get their recorded ``inputs``
    (``[now, seat, t_ms, action]`` rows of ``Round.inputs``) at the same clock readings; an
    input for an AI seat is a mismatch. A round with human seats is advanced to
    ``duration_ms``; an agents-only round runs to its end.
    """
    rnd = Round(options, seed, agents)
    for row in inputs:
        now, seat, t_ms, text = int(row[0]), int(row[1]), int(row[2]), str(row[3])
        if not 0 <= seat < len(agents) or agents[seat] is not None:
            raise ReplayMismatchError(
                f"nerts replay: input {list(row)} for a seat that is not human"
            )
        rnd.advance_to(now)
        if not rnd.running:
            raise ReplayMismatchError(f"nerts replay: input {list(row)} after the round ended")
        try:
            rnd.submit(seat, parse_action(text), t_ms)
        except (ValueError, IllegalMoveError) as e:
            raise ReplayMismatchError(f"nerts replay: input {list(row)} rejected: {e}") from None
    if any(a is None for a in agents):
        if duration_ms is not None:
            rnd.advance_to(duration_ms)
    else:
        rnd.run()
    return rnd


def _verify_round(
    replay: Mapping[str, Any], opts: NertsOptions, agent_names: Sequence[str]
) -> None:
    if replay.get("rng") != RNG_VERSION:
        raise ReplayMismatchError(f"replay uses RNG {replay.get('rng')!r}, this is {RNG_VERSION}")
    seed = int(replay["seed"])
    agents = _replay_agents(agent_names, opts.num_players)
    duration = replay.get("duration_ms")
    rnd = rerun_round(
        opts, seed, agents, replay.get("inputs", []), None if duration is None else int(duration)
    )
    decks = replay.get("decks")
    if decks is not None:
        for s, text in enumerate(decks):
            ids = [c.id(opts.num_players) for c in map(parse_card, text.split())]
            _compare(f"deck of seat {s}", rnd.decks[s], ids)
    events = [list(e) for e in replay.get("events", [])]
    for i, (got, want) in enumerate(zip(rnd.log, events, strict=False)):
        _compare(f"event {i}", got, want)
    _compare("event count", len(rnd.log), len(events))
    got_end = {
        "scores": rnd.scores(),
        "end": rnd.end,
        "caller": rnd.caller,
        "duration_ms": rnd.now,
    }
    for key, value in got_end.items():
        if key in replay or key in ("scores", "end"):
            _compare(key, value, replay.get(key))


def verify_replay(record: Mapping[str, Any]) -> None:
    """Re-runs a record's replay (round or match); raises ``ReplayMismatchError`` on any
    difference in decks, events, scores or end."""
    replay = record.get("replay", record)
    if replay.get("game", GAME) != GAME:
        raise ReplayMismatchError(f"not a nerts replay: {replay.get('game')!r}")
    players = int(replay["players"])
    opts = _options(players, replay.get("options", {}))
    names = list(replay["agents"])
    if replay.get("kind") == "match":
        rounds = replay["rounds"]
        if not rounds:
            raise ReplayMismatchError("nerts replay: a match without rounds")
        totals = [0] * players
        for r, rr in enumerate(rounds):
            if r > 0 and _match_over(totals, opts.target_score):
                raise ReplayMismatchError(f"nerts replay: round {r} played after the match ended")
            _compare(f"round {r} seed", rr["seed"], derive_seed(int(replay["seed"]), r, "round"))
            _verify_round(rr, opts, names)
            totals = [t + s for t, s in zip(totals, rr["scores"], strict=True)]
        if not _match_over(totals, opts.target_score) and len(rounds) < MAX_MATCH_ROUNDS:
            raise ReplayMismatchError("nerts replay: the rounds end before the match does")
        winner = totals.index(max(totals)) if totals.count(max(totals)) == 1 else None
        _compare("match totals", totals, list(replay["scores"]))
        _compare("match winner", winner, replay.get("winner"))
        if record is not replay:
            for key, value in (("scores", totals), ("winner", winner)):
                if key in record:
                    _compare(f"record {key}", value, record[key])
        return
    _verify_round(replay, opts, names)
    if record is not replay:
        for key in ("scores", "caller", "end"):
            if key in record:
                _compare(f"record {key}", replay.get(key), record[key])


_ROUND_COLUMNS = {
    "scores": list_of(INT64),
    "winner": optional(INT64),
    "caller": optional(INT64),
    "end": STRING,
    "duration_ms": INT64,
    "events": INT64,
}
RECORD_SCHEMA = RecordSchema({**HEAD, **_ROUND_COLUMNS}, length="events", unit="round")
MATCH_SCHEMA = RecordSchema(
    {
        **HEAD,
        "scores": list_of(INT64),
        "winner": optional(INT64),
        "rounds": list_of(struct(round=INT64, seed=UINT64, **_ROUND_COLUMNS)),
    },
    rounds="rounds.scores",
    unit="match",
)

SPEC = register_game(
    GameSpec(
        name=GAME,
        title="Nerts (Pounce, Racing Demon)",
        min_players=2,
        max_players=4,
        default_players=2,
        options=_OPTIONS,
        agents={"random": RandomAgent, "greedy": GreedyAgent, "hard": HardAgent},
        default_agent="hard",
        play=play,
        verify_replay=verify_replay,
        play_match=play_match,
        description="Real-time race (discrete-event engine, table speeds); one record per round.",
        check_options=NertsOptions.from_mapping,
        record_schema=RECORD_SCHEMA,
        match_schema=MATCH_SCHEMA,
    )
)
