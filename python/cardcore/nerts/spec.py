"""The Nerts :class:`~cardcore.games.base.GameSpec`: one record per round, matches to 100,
replays and their verification."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

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
from cardcore.games.records import match_record, match_winner, replay_start
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
from cardcore.nerts.agents import ExpertAgent, GreedyAgent, HardAgent, RandomAgent
from cardcore.nerts.engine import MAX_ROUND_MS
from cardcore.nerts.game import NertsGame, NertsState, game_for
from cardcore.nerts.rules import OPTION_SPECS, Options, card_text, parse_action
from cardcore.rng import RNG_VERSION, derive_seed

__all__ = [
    "HUMAN",
    "SPEC",
    "NertsMatch",
    "play",
    "play_match",
    "play_round",
    "rerun_round",
    "round_fields",
    "round_replay",
    "verify_replay",
]

GAME = "nerts"
_OPTIONS: tuple[OptionSpec, ...] = OPTION_SPECS


def _options(players: int, given: Mapping[str, Any]) -> Options:
    return Options.from_mapping(players, given)


def _agent_names(names: Sequence[str], players: int) -> list[str]:
    if len(names) not in (1, players):
        raise OptionError(f"need 1 or {players} agent names, got {len(names)}")
    return list(names) * players if len(names) == 1 else list(names)


# The heads of Nerts replays, in the order their first version wrote them (format version 1):
# the shared builder writes them in this order so that replays keep their bytes.
_ROUND_HEAD: Final = (
    "format",
    "version",
    "cardcore_version",
    "game",
    "kind",
    "players",
    "agents",
    "options",
    "seed",
    "rng",
)
_MATCH_HEAD: Final = (
    "format",
    "version",
    "cardcore_version",
    "game",
    "kind",
    "seed",
    "rng",
    "players",
    "agents",
    "human_seats",
    "options",
)


def round_fields(state: NertsState) -> dict[str, Any]:
    """The record fields of a finished round (one record per round, or a row of a match)."""
    return {
        "scores": state.points(),
        "winner": state.caller,
        "caller": state.caller,
        "end": state.end,
        "duration_ms": state.now,
        "events": len(state.events),
    }


def round_replay(state: NertsState) -> dict[str, Any]:
    """The replay data of a finished round (``docs/replays.md``): its deal, every event and
    every outside input; :func:`verify_replay` re-runs it."""
    return {
        "seed": state.seed,
        "rng": RNG_VERSION,
        "decks": [" ".join(card_text(c) for c in d) for d in state.decks],
        "events": [list(e) for e in state.events],
        "inputs": [list(i) for i in state.inputs],
        "scores": state.points(),
        "end": state.end,
        "caller": state.caller,
        "duration_ms": state.now,
    }


def play_round(
    options: Options,
    seed: int,
    agents: Sequence[str | None],
    *,
    replay: bool = False,
) -> tuple[NertsState, dict[str, Any]]:
    """Plays one round with agents only (``agents[s]``: an agent name); returns the finished
    state and its record fields (with ``"replay"`` when asked)."""
    st = game_for(options).new_state(seed, agents=agents)
    st.run()
    fields = round_fields(st)
    if replay:
        fields["replay"] = round_replay(st)
    return st, fields


def play(request: GameRequest) -> dict[str, Any]:
    """One round (the default record unit)."""
    opts = _options(request.players, request.options)
    agents = _agent_names(request.agents, request.players)
    _st, fields = play_round(opts, request.seed, agents, replay=request.replay)
    record: dict[str, Any] = {
        **request.record_head(GAME),
        **{k: v for k, v in fields.items() if k != "replay"},
    }
    if request.replay:
        head = replay_start(
            GAME,
            request.seed,
            request.players,
            request.agents,
            opts.as_dict(),
            kind="round",
            order=_ROUND_HEAD,
        )
        record["replay"] = {**head, **fields["replay"]}  # the round's own seed and rng
    return record


MAX_MATCH_ROUNDS = 1000
"""Safety net: a match stops after this many rounds even with no unique leader at the target."""


def _match_over(totals: Sequence[int], target: int) -> bool:
    """The rules (`cardcore rules nerts`): some total reached ``target`` and the highest total is
    unique."""
    return match_winner(totals, target) is not None


class NertsMatch:
    """A match as it is played, round by round: the totals, each round's record row and
    replay, and the match record. The runner (``--match``), ``cardcore play nerts`` and the
    web table all keep their matches in one of these.

    Round ``r`` of a match seeded ``seed`` is dealt from ``derive_seed(seed, r, "round")``.
    ``agents`` are the names the record shows (``"human"`` for people); ``human_seats``, when
    given, is written into the replay.
    """

    def __init__(
        self,
        seed: int,
        options: Options,
        agents: Sequence[str],
        *,
        replay: bool = True,
        human_seats: Sequence[int] | None = None,
    ) -> None:
        self.seed = seed
        self.options = options
        self.agents = list(agents)
        self.replay = replay
        self.human_seats = None if human_seats is None else sorted(human_seats)
        self.totals = [0] * options.num_players
        self.rounds: list[dict[str, Any]] = []
        self.replays: list[dict[str, Any]] = []

    def round_seed(self, r: int) -> int:
        return derive_seed(self.seed, r, "round")

    def add(self, state: NertsState) -> None:
        """Counts the finished round ``state`` (round number ``len(self.rounds)``)."""
        fields = round_fields(state)
        self.totals = [t + s for t, s in zip(self.totals, fields["scores"], strict=True)]
        self.rounds.append({"round": len(self.rounds), "seed": state.seed, **fields})
        if self.replay:
            self.replays.append(round_replay(state))

    @property
    def over(self) -> bool:
        """The rules (`cardcore rules nerts`): some total reached the target and the highest total
        is unique."""
        return _match_over(self.totals, self.options.target_score)

    def record(self, head: Mapping[str, Any]) -> dict[str, Any]:
        """The match record after ``head`` (:meth:`GameRequest.record_head`), with its replay
        when the match keeps them."""
        record = match_record(head, self.totals, rounds=[dict(r) for r in self.rounds])
        winner = record["winner"]
        if self.replay:
            record["replay"] = {
                **replay_start(
                    GAME,
                    self.seed,
                    self.options.num_players,
                    self.agents,
                    self.options.as_dict(),
                    kind="match",
                    human_seats=self.human_seats,
                    order=_MATCH_HEAD,
                ),
                "rounds": [dict(r) for r in self.replays],
                "scores": list(self.totals),
                "winner": winner,
            }
        return record


def play_match(request: GameRequest) -> dict[str, Any]:
    """Rounds until a total reaches ``target_score`` with a unique leader (`cardcore rules
    nerts`)."""
    opts = _options(request.players, request.options)
    agents = _agent_names(request.agents, request.players)
    match = NertsMatch(request.seed, opts, request.agents, replay=request.replay)
    while True:
        st, _fields = play_round(opts, match.round_seed(len(match.rounds)), agents)
        match.add(st)
        if match.over:
            break
        if len(match.rounds) >= MAX_MATCH_ROUNDS:  # safety net: flat scores without penalties
            break
    return match.record(request.record_head(GAME))


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


def _replay_agents(names: Sequence[str], players: int) -> list[str | None]:
    """Agents to re-run: built-in or registered ones only (never imported by a name in the
    file); ``human`` seats get ``None``. A Nerts replay cannot be checked without its agents
    (every event depends on their decisions), so an unknown agent rejects the replay."""
    agents: list[str | None] = []
    for n in agents_per_seat(names, players, GAME):
        if n == HUMAN:
            agents.append(None)
            continue
        try:
            resolve_agent(SPEC, n, registered_only=True)
        except UnregisteredAgentError as e:
            raise ReplayMismatchError(
                f"nerts replay: not verified: {e}; a Nerts replay is checked by re-running "
                "its agents"
            ) from None
        agents.append(n)
    return agents


class _EventCheck:
    """Compares a re-run's events with the recorded ones as they grow: the first difference
    stops the re-run (a replay cannot make the verifier play longer than it records)."""

    def __init__(self, state: NertsState, events: Sequence[Sequence[Any]]) -> None:
        self.state, self.events, self.done = state, events, 0

    def __call__(self) -> None:
        log = self.state.events
        while self.done < len(log):
            if self.done >= len(self.events):
                _compare("event count", f"more than {len(self.events)}", len(self.events))
            _compare(f"event {self.done}", log[self.done], self.events[self.done])
            self.done += 1


def rerun_round(
    options: Options,
    seed: int,
    agents: Sequence[str | None],
    inputs: Sequence[Sequence[Any]] = (),
    duration_ms: int | None = None,
    events: Sequence[Sequence[Any]] | None = None,
) -> NertsState:
    """Re-plays one round: human seats (agent ``None``) get their recorded ``inputs``
    (``[now, seat, t_ms, action]`` rows of :attr:`NertsState.inputs`) at the same clock
    readings; an input for an AI seat is a mismatch. A round with human seats is advanced to
    ``duration_ms``; an agents-only round runs to its end. With ``events`` (the recorded log)
    the re-run stops at the first event that differs.
    """
    st = game_for(options).new_state(seed, agents=agents)
    watch = _EventCheck(st, events) if events is not None else None
    for row in inputs:
        now, seat, t_ms, text = int(row[0]), int(row[1]), int(row[2]), str(row[3])
        if not 0 <= seat < len(agents) or agents[seat] is not None:
            raise ReplayMismatchError(
                f"nerts replay: input {list(row)} for a seat that is not human"
            )
        if now < st.now:
            raise ReplayMismatchError(
                f"nerts replay: input {list(row)} goes back in time (the clock is at {st.now})"
            )
        st.advance_to(now, watch=watch)
        if st.is_over:
            raise ReplayMismatchError(f"nerts replay: input {list(row)} after the round ended")
        try:
            st.submit(seat, parse_action(text), t_ms)
        except (ValueError, IllegalMoveError) as e:
            raise ReplayMismatchError(f"nerts replay: input {list(row)} rejected: {e}") from None
    if any(a is None for a in agents):
        if duration_ms is not None and duration_ms >= st.now:
            st.advance_to(duration_ms, watch=watch)
    else:
        st.run(watch=watch)
    return st


def _deck_ids(text: str, players: int, seat: int) -> list[int]:
    try:
        return [c.id(players) for c in map(parse_card, text.split())]
    except (CardcoreError, ValueError) as e:
        raise ReplayMismatchError(f"nerts replay: deck of seat {seat}: {e}") from None


def _verify_round(replay: Mapping[str, Any], opts: Options, agents: Sequence[str | None]) -> None:
    n = opts.num_players
    if len(replay["decks"]) != n:
        raise ReplayMismatchError(f"nerts replay: {len(replay['decks'])} decks for {n} players")
    decks = [_deck_ids(text, n, s) for s, text in enumerate(replay["decks"])]
    events = replay["events"]
    st = rerun_round(opts, replay["seed"], agents, replay["inputs"], replay["duration_ms"], events)
    for s, ids in enumerate(decks):
        _compare(f"deck of seat {s}", st.decks[s], ids)
    _compare("event count", len(st.events), len(events))
    got_end = {
        "scores": st.points(),
        "end": st.end,
        "caller": st.caller,
        "duration_ms": st.now,
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
    winner = match_winner(totals)
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
        agents={
            "random": RandomAgent,
            "greedy": GreedyAgent,
            "hard": HardAgent,
            "expert": ExpertAgent,
        },
        default_agent="hard",
        play=play,
        verify_replay=verify_replay,
        play_match=play_match,
        description="Everyone plays at once: race to empty your Nerts pile onto the foundations.",
        check_options=Options.from_mapping,
        record_schema=RECORD_SCHEMA,
        match_schema=MATCH_SCHEMA,
        game_factory=_game,
        play_app="cardcore.play.nerts:NertsApp",
        web_table="cardcore.web.nerts:make_table",
        lobby_options=("speed", "target_score"),
    )
)
