"""The Spite & Malice :class:`~cardcore.games.base.GameSpec`: play a game, a match, verify a replay.

Records (JSON-ready dicts) of one game: ``game, index, seed, players, agents, scores`` (points
each seat earned), ``winner`` (seat or ``None`` for a tie), ``outcome`` (``"win"``/``"tie"``),
``turns``, ``end_reason``, ``first_player``, ``payoff_left`` and, when requested, ``replay``
(see ``docs/replays.md``). A match record has the totals as ``scores``, the match ``winner``
and a ``games`` list of game records (game ``g`` of a match seeded ``S`` is played with seed
``derive_seed(S, g, "match-game")``); with replays on, its ``replay`` (``"kind": "match"``)
holds every game's replay and the totals.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from cardcore import _core
from cardcore.errors import (
    IllegalMoveError,
    OptionError,
    ReplayMismatchError,
)
from cardcore.games.base import (
    Agent,
    GameRequest,
    GameSpec,
    NativeRl,
    OptionValue,
    register_game,
    resolve_agent,
    rules_only_note,
)
from cardcore.games.records import match_record as record_of_match
from cardcore.games.records import match_winner, replay_start
from cardcore.games.replay_format import (
    INT,
    SEED,
    STR,
    Const,
    Int,
    ListOf,
    Obj,
    Opt,
    Row,
    check,
    replay_head,
)
from cardcore.games.schema import HEAD, INT64, STRING, RecordSchema, list_of, optional, struct
from cardcore.rng import Rng, derive_seed
from cardcore.spite_malice.agents import (
    ExpertAgent,
    GreedyAgent,
    NormalAgent,
    PlannerAgent,
    RandomAgent,
)
from cardcore.spite_malice.game import SpiteMaliceGame, game_for, rl_rules
from cardcore.spite_malice.rules import (
    OPTION_SPECS,
    Options,
    State,
    move_text,
    parse_move,
)

__all__ = [
    "SPEC",
    "game_record",
    "match_over",
    "match_record",
    "play",
    "play_game",
    "play_match",
    "verify_replay",
]

GAME: Final = "spite-malice"
REPLAY_FORMAT: Final = 1
UNLIMITED_REPLAY_FORMAT: Final = 2
"""Replays of games with unlimited centre stacks (``num_center_stacks = 0``) are version 2:
since the embedding API a completed stack's slot goes away, which renumbers the later slots."""


def replay_version(options: Options) -> int:
    """The replay format version of games with ``options``."""
    return UNLIMITED_REPLAY_FORMAT if options.center_limit == 0 else REPLAY_FORMAT


MAX_MATCH_GAMES: Final = 10_000


def _replay_start(
    options: Options, seed: int, agents: Sequence[str], kind: str | None = None
) -> dict[str, Any]:
    return replay_start(
        GAME,
        seed,
        options.num_players,
        agents,
        options.as_dict(),
        version=replay_version(options),
        kind=kind,
    )


def _options(request_options: Mapping[str, OptionValue], players: int) -> Options:
    return Options.from_mapping(players, request_options)


def play_game(
    options: Options,
    seed: int,
    agents: Sequence[Agent],
    *,
    replay: bool = False,
    check_conservation: bool = False,
) -> tuple[State, list[list[Any]]]:
    """Plays one game to the end; returns the final state and the move log ``[[seat, text]]``.

    Agent ``s`` draws from ``Rng.for_stream(seed, s, "agent")``.
    """
    if len(agents) != options.num_players:
        raise OptionError(f"{len(agents)} agents for {options.num_players} players")
    st = game_for(options).new_state(seed)
    rngs = [Rng.for_stream(seed, s, "agent") for s in range(options.num_players)]
    log: list[list[Any]] = []
    decks = options.decks
    while not st.is_over:
        seat = st.current
        legal = st.legal_moves()
        move = agents[seat].act(st.observation(seat), legal, rngs[seat])
        st.apply(move)
        if replay:
            log.append([seat, move_text(move, decks)])
        if check_conservation:
            st.check_conservation()
    return st, log


def game_record(
    options: Options,
    seed: int,
    index: int,
    agents: Sequence[str],
    st: State,
    log: Sequence[Sequence[Any]] | None,
) -> dict[str, Any]:
    """The record of one finished game; with ``log`` (the moves as ``[seat, text]``) it
    carries the replay that :func:`verify_replay` checks."""
    head = GameRequest(index, seed, options.num_players, tuple(agents))
    rec: dict[str, Any] = {
        **head.record_head(GAME),
        "scores": list(st.scores),
        "winner": st.winner,
        "outcome": "tie" if st.winner is None else "win",
        "turns": st.turn,
        "end_reason": st.end_reason,
        "first_player": st.first_player,
        "payoff_left": [len(p) for p in st.payoffs],
    }
    if log is not None:
        rec["replay"] = {
            **_replay_start(options, seed, agents),
            "deck": list(st.deck_order),
            "first_player": st.first_player,
            "moves": [list(m) for m in log],
            "result": {
                "winner": st.winner,
                "scores": list(st.scores),
                "turns": st.turn,
                "reshuffles": st.reshuffles,
                "digest": st.layout_digest(),
            },
        }
    return rec


def match_over(totals: Sequence[int], target: int) -> bool:
    """The rules (`cardcore rules spite-malice`): the match ends with the game in which some total
    reaches ``target``."""
    return max(totals) >= target


def match_record(
    head: Mapping[str, Any], totals: Sequence[int], games: Sequence[Mapping[str, Any]], target: int
) -> dict[str, Any]:
    """A match's record after ``head`` (:meth:`GameRequest.record_head`): the totals, the
    winner (the single leader at or above ``target``) and the games' records (the runner,
    ``cardcore play`` and the web table build their match records with this)."""
    return record_of_match(
        head,
        totals,
        target=target,
        outcome=True,
        turns=sum(int(g["turns"]) for g in games),
        games=[dict(g) for g in games],
    )


def _agents(request: GameRequest) -> list[Agent]:
    if len(request.agents) != request.players:
        raise OptionError(f"{len(request.agents)} agents for {request.players} players")
    return [resolve_agent(SPEC, name)() for name in request.agents]


def play(request: GameRequest) -> dict[str, Any]:
    """One game: the runner's entry point."""
    options = _options(request.options, request.players)
    st, log = play_game(options, request.seed, _agents(request), replay=request.replay)
    moves = log if request.replay else None
    return game_record(options, request.seed, request.index, request.agents, st, moves)


def play_match(request: GameRequest) -> dict[str, Any]:
    """Games until a seat's total reaches ``target_score``; one record with the games inside."""
    options = _options(request.options, request.players)
    agents = _agents(request)
    totals = [0] * options.num_players
    games: list[dict[str, Any]] = []
    for g in range(MAX_MATCH_GAMES):
        seed = derive_seed(request.seed, g, "match-game")
        st, log = play_game(options, seed, agents, replay=request.replay)
        moves = log if request.replay else None
        games.append(game_record(options, seed, g, request.agents, st, moves))
        for s, pts in enumerate(st.scores):
            totals[s] += pts
        if match_over(totals, options.target_score):
            break
    replays = [g.pop("replay") for g in games] if request.replay else []
    rec = match_record(request.record_head(GAME), totals, games, options.target_score)
    winner = rec["winner"]
    if request.replay:
        rec["replay"] = {
            **_replay_start(options, request.seed, request.agents, kind="match"),
            "games": replays,
            "result": {"scores": totals, "winner": winner},
        }
    return rec


_SEAT = Int(0, 3)
_HEAD = {
    **replay_head(GAME, 2, 4),
    "version": Int(REPLAY_FORMAT, UNLIMITED_REPLAY_FORMAT),
    "cardcore_version": STR,
}
GAME_LAYOUT: Final = Obj(
    {
        **_HEAD,
        "deck": ListOf(Int(0, 10_000)),
        "first_player": _SEAT,
        "moves": ListOf(Row(_SEAT, STR)),
        "result": Obj(
            {
                "winner": Opt(_SEAT),
                "scores": ListOf(INT, 2, 4),
                "turns": INT,
                "reshuffles": INT,
                "digest": STR,
            }
        ),
    }
)
"""A game replay (``docs/replays.md``), checked before any re-run."""
MATCH_LAYOUT: Final = Obj(
    {
        **_HEAD,
        "kind": Const("match"),
        "games": ListOf(Obj({}), 1, MAX_MATCH_GAMES),
        "result": Obj({"scores": ListOf(INT, 2, 4), "winner": Opt(_SEAT)}),
    }
)
"""A match replay (``--match``); each of its games is a :data:`GAME_LAYOUT` replay."""
PLAYED_MATCH_LAYOUT: Final = Obj(
    {"games": ListOf(Obj({"replay": Obj({})}), 1, MAX_MATCH_GAMES)},
    {"seed": SEED, "agents": ListOf(STR), "scores": ListOf(INT), "winner": Opt(_SEAT)},
)
"""A match record of `cardcore play` whose games carry their own replays."""


def _replay_options(rep: Mapping[str, Any]) -> Options:
    """The options of a (layout-checked) replay; ``num_players`` must agree with ``players``."""
    opts = dict(rep["options"])
    players = opts.pop("num_players", rep["players"])
    if players != rep["players"]:
        raise _fail(f"options.num_players {players!r} but players {rep['players']}")
    try:
        return Options.from_mapping(players, opts)
    except (OptionError, TypeError) as e:
        raise _fail(f"cannot rebuild the game: {e}") from None


def _verify_match(rep: Mapping[str, Any], record: Mapping[str, Any]) -> str | None:
    games = rep["games"]
    seed = rep["seed"]
    options = _replay_options(rep)
    totals = [0] * options.num_players
    notes = []
    for g, game in enumerate(games):
        if match_over(totals, options.target_score):
            raise _fail(f"game {g} played after the match was over")
        if game.get("seed") != derive_seed(seed, g, "match-game"):
            raise _fail(f"game {g}: seed is not the match's game seed")
        if game.get("options") != options.as_dict():
            raise _fail(f"game {g}: options differ from the match's")
        if game.get("agents") != rep["agents"]:
            raise _fail(f"game {g}: agents {game.get('agents')} differ from the match's")
        notes.append(verify_replay(game))  # requires game["result"]["scores"] to equal the re-run's
        totals = [a + b for a, b in zip(totals, game["result"]["scores"], strict=True)]
    if not match_over(totals, options.target_score) and len(games) < MAX_MATCH_GAMES:
        raise _fail("the games end before a seat reaches the target score")
    winner = match_winner(totals, options.target_score)
    for where in (rep["result"], record if record is not rep else {}):
        if "scores" in where and where["scores"] != totals:
            raise _fail(f"match totals {where['scores']} != re-run {totals}")
        if "winner" in where and where["winner"] != winner:
            raise _fail(f"match winner {where['winner']} != re-run {winner}")
    return next((n for n in notes if n), None)


def _verify_game_list_match(record: Mapping[str, Any]) -> str | None:
    """A whole match saved as game records that carry their own replays (`cardcore play`):
    every game verifies, has the match's game seed and options, and the match stops at the
    first game where a total reaches ``target_score``; the totals and winner must agree."""
    games = record["games"]
    totals: list[int] = []
    first_options: Any = None
    target = 0
    notes = []
    for g, game in enumerate(games):
        rep = game["replay"]
        notes.append(verify_replay(game))
        if first_options is None:
            first_options = rep["options"]
            target = _replay_options(rep).target_score
        elif rep["options"] != first_options:
            raise _fail(f"game {g}: options differ from game 0's")
        if "agents" in record and rep["agents"] != record["agents"]:
            raise _fail(f"game {g}: agents {rep['agents']} differ from the match's")
        if totals and match_over(totals, target):
            raise _fail(f"game {g} played after the match was over")
        if "seed" in record and rep["seed"] != derive_seed(record["seed"], g, "match-game"):
            raise _fail(f"game {g}: seed is not the match's game seed")
        sc = list(rep["result"]["scores"])
        totals = [a + b for a, b in zip(totals, sc, strict=True)] if totals else sc
    if not match_over(totals, target) and len(games) < MAX_MATCH_GAMES:
        raise _fail("the games end before a seat reaches the target score")
    if record.get("scores", totals) != totals:
        raise _fail(f"match totals {record.get('scores')} != {totals}")
    winner = match_winner(totals, target)
    if "winner" in record and record["winner"] != winner:
        raise _fail(f"match winner {record['winner']} != re-run {winner}")
    return next((n for n in notes if n), None)


def _fail(msg: str) -> ReplayMismatchError:
    return ReplayMismatchError(f"spite-malice replay: {msg}")


def verify_replay(record: Mapping[str, Any]) -> str | None:
    """Re-runs a replay (a game record with ``replay``, a match record, or the replay dict) and
    raises :class:`~cardcore.errors.ReplayMismatchError` on any disagreement.

    The layout is checked first (:data:`GAME_LAYOUT`, :data:`MATCH_LAYOUT`). When the replay
    was written by this cardcore version and its agents are built-in or registered, they are
    re-run and must make the same moves; agents are never imported by a name in the file.
    Returns None, or a note when the agents were not re-run."""
    if not isinstance(record, Mapping):
        raise _fail("a replay must be a JSON object")
    rep = record.get("replay", record)
    if isinstance(rep, Mapping) and rep.get("kind") == "match":
        check(rep, MATCH_LAYOUT, GAME)
        return _verify_match(rep, record)
    if "replay" not in record and "format" not in record and "games" in record:
        check(record, PLAYED_MATCH_LAYOUT, GAME)
        return _verify_game_list_match(record)
    if not isinstance(rep, Mapping) or not ("format" in rep or "moves" in rep):
        raise _fail("record has no replay (run with replays on)")
    check(rep, GAME_LAYOUT, GAME)
    options = _replay_options(rep)
    if rep["version"] != replay_version(options):
        raise _fail(
            f"replay version {rep['version']} for these options: games with unlimited centre "
            f"stacks are version {UNLIMITED_REPLAY_FORMAT} (slots renumbered), others version "
            f"{REPLAY_FORMAT}"
        )
    if len(rep["agents"]) != options.num_players:
        raise _fail(f"{len(rep['agents'])} agents for {options.num_players} players")
    seed = rep["seed"]
    st = game_for(options).new_state(seed)
    if list(st.deck_order) != rep["deck"]:
        raise _fail("the deck order differs from the seed's deal")
    if st.first_player != rep["first_player"]:
        raise _fail(f"first player {st.first_player} != recorded {rep['first_player']}")
    for n, (seat, text) in enumerate(rep["moves"]):
        if st.over:
            raise _fail(f"move {n} ({text}) after the game ended")
        if seat != st.current:
            raise _fail(f"move {n}: seat {seat} moved but seat {st.current} was to move")
        try:
            st.apply(parse_move(text, options.decks))
        except IllegalMoveError as e:
            raise _fail(f"move {n} ({text}) is illegal: {e}") from None
    if not st.over:
        raise _fail("the moves end before the game does")
    result = rep["result"]
    got = {
        "winner": st.winner,
        "scores": list(st.scores),
        "turns": st.turn,
        "reshuffles": st.reshuffles,
        "digest": st.layout_digest(),
    }
    for key, value in got.items():
        if result[key] != value:
            raise _fail(f"{key}: recorded {result[key]!r}, re-run gives {value!r}")
    if rep is not record:
        for key in ("scores", "winner", "turns"):
            if key in record and record[key] != got[key]:
                raise _fail(f"record {key} {record[key]!r} != re-run {got[key]!r}")
        if "seed" in record and record["seed"] != seed:
            raise _fail(f"record seed {record['seed']} != replay seed {seed}")
    note = rules_only_note(SPEC, rep)
    if note is None:
        _check_agents(options, seed, rep["agents"], rep["moves"])
    return note


def _check_agents(options: Options, seed: int, names: list[str], moves: Sequence[Any]) -> None:
    """The agents (built-in or registered), re-run from their seeded streams, must make the
    same moves."""
    _, log = play_game(options, seed, [resolve_agent(SPEC, n)() for n in names], replay=True)
    if log != moves:
        n = next(
            (i for i, (a, b) in enumerate(zip(log, moves, strict=False)) if a != b),
            min(len(log), len(moves)),
        )
        raise _fail(f"the agents, re-run, play differently from move {n}")


_GAME_COLUMNS: Final = {
    **HEAD,
    "scores": list_of(INT64),
    "winner": optional(INT64),
    "outcome": STRING,
    "turns": INT64,
    "end_reason": STRING,
    "first_player": INT64,
    "payoff_left": list_of(INT64),
}
RECORD_SCHEMA: Final = RecordSchema(_GAME_COLUMNS, length="turns")
MATCH_SCHEMA: Final = RecordSchema(
    {
        **HEAD,
        "scores": list_of(INT64),
        "winner": optional(INT64),
        "outcome": STRING,
        "turns": INT64,
        "games": list_of(struct(**_GAME_COLUMNS)),
    },
    length="turns",
    rounds="games.scores",
    unit="match",
    round_unit="game",
)


def _game(players: int, options: dict[str, OptionValue]) -> SpiteMaliceGame:
    return game_for(Options.from_mapping(players, options))


SPEC: Final = register_game(
    GameSpec(
        name=GAME,
        title="Spite & Malice",
        min_players=2,
        max_players=4,
        default_players=2,
        options=OPTION_SPECS,
        agents={
            "random": RandomAgent,
            "greedy": GreedyAgent,
            "normal": NormalAgent,
            "planner": PlannerAgent,
            "expert": ExpertAgent,
        },
        default_agent="planner",
        play=play,
        play_match=play_match,
        verify_replay=verify_replay,
        description=(
            "Race to empty your pay-off pile onto shared A..Q centre stacks; kings are wild "
            "(G4A 1.9.1 rules for 2 players, `cardcore rules spite-malice`)."
        ),
        check_options=Options.from_mapping,
        record_schema=RECORD_SCHEMA,
        match_schema=MATCH_SCHEMA,
        game_factory=_game,
        play_app="cardcore.play.spite_malice:SpiteMaliceApp",
        web_table="cardcore.web.spite_malice:make_table",
        lobby_options=("target_score",),
        native_rl=NativeRl(rl_rules, batch=_core.SpiteMaliceBatch, episode=True),
    )
)
