"""The Three-Thirteen :class:`~cardcore.games.base.GameSpec`: play one game, verify a replay.

A game is already 11 rounds, so there is no ``play_match``. Record keys: ``game``, ``index``,
``seed``, ``players``, ``agents``, ``options``, ``first_dealer``, ``scores`` (totals per seat),
``round_scores``, ``went_out`` (seat per round or None), ``winner`` (seat or None),
``winners``, ``outcome`` (``win`` / ``all_tied`` / ``shared_win``), ``tied``, ``decisions``
(agent calls) and ``replay`` when requested (format in ``docs/replays.md``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from cardcore import _core
from cardcore.errors import IllegalMoveError, OptionError, ReplayMismatchError
from cardcore.games.base import (
    GameRequest,
    GameSpec,
    NativeRl,
    OptionValue,
    get_game,
    register_game,
    rules_only_note,
)
from cardcore.games.records import replay_start, same_json
from cardcore.games.replay_format import (
    INT,
    STR,
    Int,
    ListOf,
    Obj,
    Opt,
    Row,
    check,
    replay_head,
)
from cardcore.games.schema import (
    HEAD,
    INT64,
    STRING,
    RecordSchema,
    list_of,
    optional,
    options_struct,
)
from cardcore.rng import Rng
from cardcore.three_thirteen.agents import AGENTS
from cardcore.three_thirteen.game import ThreeThirteenGame, game_for, rl_rules
from cardcore.three_thirteen.rules import (
    NUM_ROUNDS,
    OPTION_SPECS,
    Options,
    State,
    move_from_code,
)

__all__ = ["GAME", "SPEC", "build_replay", "play", "run_game", "verify_replay"]

GAME: Final = "three-thirteen"


def run_game(
    options: Options, seed: int, agent_names: tuple[str, ...] | list[str]
) -> tuple[State, int]:
    """Plays a whole game with the named agents; returns the final state and decision count."""
    spec = get_game(GAME)
    p = options.num_players
    if len(agent_names) != p:
        raise OptionError(f"{p} players need {p} agents, got {len(agent_names)}")
    agents = [spec.make_agent(n) for n in agent_names]
    rngs = [Rng.for_stream(seed, s, "agent") for s in range(p)]
    st = game_for(options).new_state(seed)
    decisions = 0
    observe = st.observation
    legal_moves = st.legal_moves
    apply = st.apply
    while not st.is_over:
        seat = st.current
        apply(agents[seat].act(observe(seat), legal_moves(), rngs[seat]))
        decisions += 1
    return st, decisions


def build_replay(st: State, seed: int, agent_names: list[str]) -> dict[str, Any]:
    """The replay dict of a finished game (see ``docs/replays.md``)."""
    p = st.num_players
    rounds = []
    dealer = st.first_dealer
    for r in range(len(st.round_scores)):
        rounds.append(
            {
                "round": r + 1,
                "dealer": dealer,
                "wild_rank": r + 3,
                "deck": st.deck_orders[r],
                "rebuilds": st.rebuilds[r],
                "moves": [[s, c] for s, c in st.move_log[r]],
                "scores": st.round_scores[r],
                "went_out": st.went_out[r],
            }
        )
        dealer = (dealer + 1) % p
    return {
        **replay_start(GAME, seed, p, agent_names, st.options.as_dict()),
        "first_dealer": st.first_dealer,
        "rounds": rounds,
        "result": st.result(),
    }


def play(request: GameRequest) -> dict[str, Any]:
    """Plays game ``request.index`` (11 rounds) and returns its JSON-ready record."""
    options = Options.from_mapping(request.players, dict(request.options))
    st, decisions = run_game(options, request.seed, request.agents)
    res = st.result()
    record: dict[str, Any] = {
        **request.record_head(GAME),
        "options": options.as_dict(),
        "first_dealer": st.first_dealer,
        "scores": res["scores"],
        "round_scores": res["round_scores"],
        "went_out": res["went_out"],
        "winner": res["winner"],
        "winners": res["winners"],
        "outcome": res["outcome"],
        "tied": res["tied"],
        "decisions": decisions,
    }
    if request.replay:
        record["replay"] = build_replay(st, request.seed, list(request.agents))
    return record


_CARD = Int(0, 52 * 8 + 3)
_SEAT = Int(0, 5)
REPLAY_LAYOUT: Final = Obj(
    {
        **replay_head(GAME, 2, 6),
        "cardcore_version": STR,
        "first_dealer": _SEAT,
        "rounds": ListOf(
            Obj(
                {
                    "round": Int(1, NUM_ROUNDS),
                    "dealer": _SEAT,
                    "wild_rank": Int(3, 13),
                    "deck": ListOf(_CARD),
                    "rebuilds": ListOf(ListOf(_CARD)),
                    "moves": ListOf(Row(_SEAT, Int(-2, 52 * 8 + 3))),
                    "scores": ListOf(INT, 2, 6),
                    "went_out": Opt(_SEAT),
                }
            ),
            NUM_ROUNDS,
            NUM_ROUNDS,
        ),
        "result": Obj({}),
    }
)
"""What :func:`verify_replay` accepts (``docs/replays.md``), checked before any re-run."""


def _fail(msg: str) -> ReplayMismatchError:
    return ReplayMismatchError(f"three-thirteen replay: {msg}")


def verify_replay(replay: Mapping[str, Any]) -> str | None:
    """Re-runs a replay; raises :class:`ReplayMismatchError` on any difference.

    The layout is checked first (:data:`REPLAY_LAYOUT`). The rules are checked by applying every
    recorded move to a fresh state built from the recorded options and seed (deck orders, stock
    rebuilds, seats, legality, round scores and the result must all agree). When the replay was
    written by this cardcore version and its agents are built-in or registered, the agents are
    re-run too and must choose the same moves; agents are never imported by a name in the file.
    Returns None, or a note when the agents were not re-run.
    """
    check(replay, REPLAY_LAYOUT, GAME)
    players = replay["players"]
    if len(replay["agents"]) != players:
        raise _fail(f"{len(replay['agents'])} agents for {players} players")
    try:
        options = Options.from_mapping(players, dict(replay["options"]))
    except (OptionError, TypeError) as e:
        raise _fail(f"bad options: {e}") from None
    seed = replay["seed"]
    st = game_for(options).new_state(seed)
    if st.first_dealer != replay["first_dealer"]:
        raise _fail(f"first dealer {st.first_dealer}, recorded {replay['first_dealer']}")
    for r, rec in enumerate(replay["rounds"]):
        _verify_round(st, r, rec)
    if not st.over:
        raise _fail("the game did not end after the recorded moves")
    if not same_json(st.result(), replay["result"]):
        raise _fail(f"result {st.result()} != recorded {replay['result']}")
    note = rules_only_note(get_game(GAME), replay)
    if note is None:
        _verify_agents(replay, options, seed)
    return note


def _verify_round(st: State, r: int, rec: Mapping[str, Any]) -> None:
    where = f"round {r + 1}"
    if st.over or st.round != r + 1:
        raise _fail(f"{where}: the engine is in round {st.round} (over={st.over})")
    if rec["round"] != r + 1 or rec["dealer"] != st.dealer or rec["wild_rank"] != st.wild_rank:
        raise _fail(f"{where}: round/dealer/wild rank differ")
    if rec["deck"] != st.deck_orders[r]:
        raise _fail(f"{where}: deck order differs")
    for k, (seat, code) in enumerate(rec["moves"]):
        if st.over or st.round != r + 1:
            raise _fail(f"{where}: round ended before move {k}")
        if seat != st.current:
            raise _fail(f"{where}, move {k}: seat {seat} recorded, seat {st.current} to play")
        try:
            st.apply(move_from_code(code))
        except IllegalMoveError as e:
            raise _fail(f"{where}, move {k}: illegal ({e})") from None
    if len(st.round_scores) != r + 1:
        raise _fail(f"{where}: the round did not end after its recorded moves")
    if st.rebuilds[r] != rec["rebuilds"]:
        raise _fail(f"{where}: stock rebuilds differ")
    if st.round_scores[r] != rec["scores"] or st.went_out[r] != rec["went_out"]:
        raise _fail(
            f"{where}: scores {st.round_scores[r]} (out {st.went_out[r]}) != recorded "
            f"{rec['scores']} (out {rec['went_out']})"
        )


def _verify_agents(replay: Mapping[str, Any], options: Options, seed: int) -> None:
    st, _ = run_game(options, seed, list(replay["agents"]))
    for r, rec in enumerate(replay["rounds"]):
        if [[s, c] for s, c in st.move_log[r]] != rec["moves"]:
            raise _fail(f"round {r + 1}: the agents now choose different moves")


RECORD_SCHEMA: Final = RecordSchema(
    {
        **HEAD,
        "options": options_struct(OPTION_SPECS),
        "first_dealer": INT64,
        "scores": list_of(INT64),
        "round_scores": list_of(list_of(INT64)),
        "went_out": list_of(optional(INT64)),
        "winner": optional(INT64),
        "winners": list_of(INT64),
        "outcome": STRING,
        "tied": list_of(INT64),
        "decisions": INT64,
    },
    length="decisions",
    rounds="round_scores",
)


def _game(players: int, options: dict[str, OptionValue]) -> ThreeThirteenGame:
    return game_for(Options.from_mapping(players, options))


SPEC: Final = register_game(
    GameSpec(
        name=GAME,
        title="Three-Thirteen Rummy",
        min_players=2,
        max_players=6,
        default_players=4,
        options=OPTION_SPECS,
        agents=AGENTS,
        default_agent="hard",
        play=play,
        verify_replay=verify_replay,
        description="11 rounds of 3..13 cards; the wild rank follows the round; lowest total wins.",
        check_options=lambda players, options: Options.from_mapping(players, dict(options)),
        record_schema=RECORD_SCHEMA,
        game_factory=_game,
        play_app="cardcore.play.three_thirteen:ThreeThirteenApp",
        web_table="cardcore.web.three_thirteen:make_table",
        lobby_options=("jokers",),
        native_rl=NativeRl(rl_rules, batch=_core.ThreeThirteenBatch, points=True),
    )
)
