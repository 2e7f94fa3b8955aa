"""The Nerts :class:`~cardcore.games.base.GameSpec`: one record per round, matches to 100,
replays and their verification."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from cardcore import __version__
from cardcore.cards import parse_card
from cardcore.errors import (
    CardcoreError,
    IllegalMoveError,
    OptionError,
    ReplayMismatchError,
    UnregisteredAgentError,
)
from cardcore.games.base import (
    HUMAN,
    GameRequest,
    GameSpec,
    OptionSpec,
    register_game,
    resolve_agent,
)
from cardcore.games.replay_format import (
    INT,
    SEED,
    STR,
    Const,
    Int,
    Layout,
    ListOf,
    Obj,
    Opt,
    Row,
    Str,
    agents_per_seat,
    check,
    replay_head,
)
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
from cardcore.nerts.engine import MAX_ROUND_MS, NertsAgent, Round
from cardcore.nerts.game import NertsGame, game_for
from cardcore.nerts.rules import OPTION_SPECS, Options, card_text, parse_action
from cardcore.rng import RNG_VERSION, derive_seed

__all__ = ["HUMAN", "SPEC", "play", "play_match", "play_round", "rerun_round", "verify_replay"]

GAME = "nerts"
_OPTIONS: tuple[OptionSpec, ...] = OPTION_SPECS


def _options(players: int, given: Mapping[str, Any]) -> Options:
    return Options.from_mapping(players, given)


def _agents(names: Sequence[str], players: int) -> list[NertsAgent]:
    if len(names) not in (1, players):
        raise ValueError(f"need 1 or {players} agent names, got {len(names)}")
    full = list(names) * players if len(names) == 1 else list(names)
    agents: list[NertsAgent] = [SPEC.make_agent(n) for n in full]
    return agents


def play_round(
    options: Options,
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


REPLAY_HEAD: Final[dict[str, Any]] = {
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
            **REPLAY_HEAD,
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
            **REPLAY_HEAD,
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


_SEAT = Int(0, 3)
_ROUND_DATA: dict[str, Layout] = {
    "seed": SEED,
    "rng": Const(RNG_VERSION),
    "decks": ListOf(STR, 2, 4),
    "events": ListOf(Row(Int(0, MAX_ROUND_MS), Int(-1, 3), STR, Str("ok", "fail")), 1),
    "inputs": ListOf(Row(Int(0, MAX_ROUND_MS), _SEAT, Int(0, MAX_ROUND_MS), STR)),
    "scores": ListOf(INT, 2, 4),
    "end": Opt(Str("nerts", "stalemate", "cap")),
    "caller": Opt(_SEAT),
    "duration_ms": Int(0, MAX_ROUND_MS),
}
_HEAD = {**replay_head(GAME, 2, 4), "cardcore_version": STR}
ROUND_LAYOUT: Final = Obj({**_HEAD, "kind": Const("round"), **_ROUND_DATA})
"""A round replay (``docs/replays.md``), checked before any re-run."""
MATCH_LAYOUT: Final = Obj(
    {
        **_HEAD,
        "kind": Const("match"),
        "rounds": ListOf(Obj(_ROUND_DATA), 1, MAX_MATCH_ROUNDS),
        "scores": ListOf(INT, 2, 4),
        "winner": Opt(_SEAT),
    }
)
"""A match replay (``--match``, ``cardcore play``): its rounds without the repeated head."""


def _replay_agents(names: Sequence[str], players: int) -> list[NertsAgent | None]:
    """Agents to re-run: built-in or registered ones only (never imported by a name in the
    file); ``human`` seats get ``None``. A Nerts replay cannot be checked without its agents
    (every event depends on their decisions), so an unknown agent rejects the replay."""
    agents: list[NertsAgent | None] = []
    for n in agents_per_seat(names, players, GAME):
        if n == HUMAN:
            agents.append(None)
            continue
        try:
            factory = resolve_agent(SPEC, n, registered_only=True)
        except UnregisteredAgentError as e:
            raise ReplayMismatchError(
                f"nerts replay: not verified: {e}; a Nerts replay is checked by re-running "
                "its agents"
            ) from None
        agents.append(factory())
    return agents


class _EventCheck:
    """Compares a re-run's log with the recorded events as it grows: the first difference
    stops the re-run (a replay cannot make the verifier play longer than it records)."""

    def __init__(self, rnd: Round, events: Sequence[Sequence[Any]]) -> None:
        self.rnd, self.events, self.done = rnd, events, 0

    def __call__(self) -> None:
        log = self.rnd.log
        while self.done < len(log):
            if self.done >= len(self.events):
                _compare("event count", f"more than {len(self.events)}", len(self.events))
            _compare(f"event {self.done}", log[self.done], self.events[self.done])
            self.done += 1


def rerun_round(
    options: Options,
    seed: int,
    agents: Sequence[NertsAgent | None],
    inputs: Sequence[Sequence[Any]] = (),
    duration_ms: int | None = None,
    events: Sequence[Sequence[Any]] | None = None,
) -> Round:
    """Re-plays one round: human seats (agent ``None``) get their recorded ``inputs``
    (``[now, seat, t_ms, action]`` rows of ``Round.inputs``) at the same clock readings; an
    input for an AI seat is a mismatch. A round with human seats is advanced to
    ``duration_ms``; an agents-only round runs to its end. With ``events`` (the recorded log)
    the re-run stops at the first event that differs.
    """
    rnd = Round(options, seed, agents)
    watch = _EventCheck(rnd, events) if events is not None else None
    for row in inputs:
        now, seat, t_ms, text = int(row[0]), int(row[1]), int(row[2]), str(row[3])
        if not 0 <= seat < len(agents) or agents[seat] is not None:
            raise ReplayMismatchError(
                f"nerts replay: input {list(row)} for a seat that is not human"
            )
        rnd.advance_to(now, watch)
        if not rnd.running:
            raise ReplayMismatchError(f"nerts replay: input {list(row)} after the round ended")
        try:
            rnd.submit(seat, parse_action(text), t_ms)
        except (ValueError, IllegalMoveError) as e:
            raise ReplayMismatchError(f"nerts replay: input {list(row)} rejected: {e}") from None
    if any(a is None for a in agents):
        if duration_ms is not None:
            rnd.advance_to(duration_ms, watch)
    else:
        rnd.run(watch)
    return rnd


def _deck_ids(text: str, players: int, seat: int) -> list[int]:
    try:
        return [c.id(players) for c in map(parse_card, text.split())]
    except (CardcoreError, ValueError) as e:
        raise ReplayMismatchError(f"nerts replay: deck of seat {seat}: {e}") from None


def _verify_round(
    replay: Mapping[str, Any], opts: Options, agents: Sequence[NertsAgent | None]
) -> None:
    n = opts.num_players
    if len(replay["decks"]) != n:
        raise ReplayMismatchError(f"nerts replay: {len(replay['decks'])} decks for {n} players")
    decks = [_deck_ids(text, n, s) for s, text in enumerate(replay["decks"])]
    events = replay["events"]
    rnd = rerun_round(opts, replay["seed"], agents, replay["inputs"], replay["duration_ms"], events)
    for s, ids in enumerate(decks):
        _compare(f"deck of seat {s}", rnd.decks[s], ids)
    _compare("event count", len(rnd.log), len(events))
    got_end = {
        "scores": rnd.scores(),
        "end": rnd.end,
        "caller": rnd.caller,
        "duration_ms": rnd.now,
    }
    for key, value in got_end.items():
        _compare(key, value, replay[key])


def verify_replay(record: Mapping[str, Any]) -> None:
    """Re-runs a record's replay (round or match); raises ``ReplayMismatchError`` on any
    difference in decks, events, scores or end.

    The layout (:data:`ROUND_LAYOUT`, :data:`MATCH_LAYOUT`), the options and the agents are
    checked before anything runs; agents must be built-in or registered (never imported by a
    name in the file)."""
    if not isinstance(record, Mapping):
        raise ReplayMismatchError("nerts replay: a replay must be a JSON object")
    replay = record.get("replay", record)
    match = isinstance(replay, Mapping) and replay.get("kind") == "match"
    check(replay, MATCH_LAYOUT if match else ROUND_LAYOUT, GAME)
    players = replay["players"]
    try:
        opts = _options(players, replay["options"])
    except OptionError as e:
        raise ReplayMismatchError(f"nerts replay: bad options: {e}") from None
    agents = _replay_agents(replay["agents"], players)
    if not match:
        _verify_round(replay, opts, agents)
        if record is not replay:
            for key in ("scores", "caller", "end"):
                if key in record:
                    _compare(f"record {key}", replay[key], record[key])
        return
    rounds = replay["rounds"]
    totals = [0] * players
    for r, rr in enumerate(rounds):
        if r > 0 and _match_over(totals, opts.target_score):
            raise ReplayMismatchError(f"nerts replay: round {r} played after the match ended")
        _compare(f"round {r} seed", rr["seed"], derive_seed(replay["seed"], r, "round"))
        _verify_round(rr, opts, agents)
        totals = [t + s for t, s in zip(totals, rr["scores"], strict=True)]
    if not _match_over(totals, opts.target_score) and len(rounds) < MAX_MATCH_ROUNDS:
        raise ReplayMismatchError("nerts replay: the rounds end before the match does")
    winner = totals.index(max(totals)) if totals.count(max(totals)) == 1 else None
    _compare("match totals", totals, replay["scores"])
    _compare("match winner", winner, replay["winner"])
    if record is not replay:
        for key, value in (("scores", totals), ("winner", winner)):
            if key in record:
                _compare(f"record {key}", value, record[key])


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


def _game(players: int, options: dict[str, Any]) -> NertsGame:
    return game_for(Options.from_mapping(players, options))


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
        check_options=Options.from_mapping,
        record_schema=RECORD_SCHEMA,
        match_schema=MATCH_SCHEMA,
        game_factory=_game,
    )
)
