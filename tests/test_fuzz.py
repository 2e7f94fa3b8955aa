"""Hostile input, generated (issue #12): API calls, replays and CLI arguments.

Every call either works or raises a typed :class:`~cardcore.errors.CardcoreError` that leaves
the state as it was; the CLI answers with exit 0, 1 or 2 and a message, never a traceback.
Example counts are small and fixed (``derandomize``) so CI pays a few seconds, not minutes;
``CARDCORE_FUZZ_SCALE=50 pytest tests/test_fuzz.py`` runs 50 times as many, freshly random.
"""

from __future__ import annotations

import contextlib
import copy
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import toy_game  # noqa: F401  (registers the toy game)
from cardcore.cli import cli
from cardcore.errors import CardcoreError, IllegalMoveError, OptionError
from cardcore.games.api import load_game
from cardcore.games.base import GameRequest, get_game
from cardcore.nerts import GreedyAgent, Options, Round
from cardcore.sim import simulate

SCALE = int(os.environ.get("CARDCORE_FUZZ_SCALE", "1"))


def fuzz(examples: int = 60) -> settings:
    return settings(
        max_examples=examples * SCALE,
        deadline=None,
        derandomize=SCALE == 1,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )


FUZZ = fuzz()

HOSTILE: st.SearchStrategy[Any] = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.sampled_from([-1, 0, 1, 2, 3, 4, 5, 2**63, 2**64]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=6),
    st.binary(max_size=3),
    st.lists(st.integers(-2, 3), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    st.builds(object),
)


def typed_or_ok(call: Callable[[], object], state: Any = None) -> None:
    """``call()`` works, or raises a CardcoreError and leaves ``state`` as it was."""
    before = state.to_json() if state is not None else None
    try:
        call()
    except CardcoreError:
        if state is not None:
            assert state.to_json() == before, "a failed call changed the state"


# -- API calls --------------------------------------------------------------------------------

TURN_BASED = ["three-thirteen", "spite-malice"]


@FUZZ
@given(game=st.sampled_from(TURN_BASED), method=st.integers(0, 6), x=HOSTILE, y=HOSTILE)
def test_turn_based_api_calls(game: str, method: int, x: Any, y: Any) -> None:
    g = load_game(game, players=2)
    s = g.new_state(7)
    calls: list[Callable[[], object]] = [
        lambda: s.observation(x),
        lambda: s.observation_json(x),
        lambda: s.resample_hidden(x, y),
        lambda: s.apply(x),
        lambda: g.new_state(x),
        lambda: (g.action_to_move(x), g.action_text(x)),
        lambda: (g.parse_move(x), g.move_from_json(x)),
    ]
    typed_or_ok(calls[method], s)


@FUZZ
@given(method=st.integers(0, 5), x=HOSTILE, y=HOSTILE, z=HOSTILE)
def test_nerts_api_calls(method: int, x: Any, y: Any, z: Any) -> None:
    g = load_game("nerts", players=2)
    s = g.new_state(7)
    calls: list[Callable[[], object]] = [
        lambda: s.observation(x),
        lambda: s.legal_actions(x),
        lambda: s.submit(x, y, z),
        lambda: s.submit(0, 0, x),
        lambda: s.advance_to(x),
        lambda: (g.new_state(x), g.parse_move(x), g.action_to_move(x)),
    ]
    typed_or_ok(calls[method], s)


@FUZZ
@given(method=st.integers(0, 4), x=HOSTILE, y=HOSTILE)
def test_nerts_round_calls(method: int, x: Any, y: Any) -> None:
    rnd = Round(Options(), 7, [None, GreedyAgent()])
    flip = rnd.legal(0)[0]
    calls: list[Callable[[], object]] = [
        lambda: rnd.observation(x),
        lambda: rnd.legal(x),
        lambda: rnd.submit(0, x, 10),
        lambda: rnd.submit(x, flip, y),
        lambda: Round(Options(), x, [None, y]),
    ]
    log, inputs = list(rnd.log), list(rnd.inputs)
    try:
        calls[method]()
    except CardcoreError:
        assert (rnd.log, rnd.inputs) == (log, inputs)


@FUZZ
@given(key=st.sampled_from(["players", "target_score", "jokers", "bogus", "speed"]), x=HOSTILE)
def test_load_game_options(key: str, x: Any) -> None:
    for game in ("three-thirteen", "spite-malice", "nerts"):
        typed_or_ok(lambda game=game: load_game(game, **{key: x}))  # type: ignore[misc]


@FUZZ
@given(
    key=st.sampled_from(["games", "seed", "jobs", "chunk_size", "players", "start", "agents"]),
    x=HOSTILE,
)
def test_simulate_arguments(key: str, x: Any) -> None:
    if key == "games" and isinstance(x, int) and not isinstance(x, bool) and x > 3:
        x = 3  # a valid count: keep the run short
    if key == "jobs" and x not in (0, 1):
        x = x if not isinstance(x, int) or isinstance(x, bool) or x < 0 else 1
    typed_or_ok(lambda: list(simulate("toy", **{"games": 2, "seed": 1, key: x})))


def test_the_defects_found_by_hand_raise_typed_errors() -> None:
    """Issue #12, defect 6: each of these returned or raised something untyped."""
    tt = load_game("three-thirteen").new_state(1)
    with pytest.raises(OptionError, match="no seat -1"):
        tt.observation(-1)  # returned seat 3's hand
    rnd = Round(Options(), 1, [None, GreedyAgent()])
    with pytest.raises(IllegalMoveError, match="not a Nerts action"):
        rnd.submit(0, None, 5)  # type: ignore[arg-type]  # a bare AssertionError later
    with pytest.raises(IllegalMoveError, match="t_ms must be an int"):
        rnd.submit(0, rnd.legal(0)[0], 5.5)  # type: ignore[arg-type]  # went into the log
    assert rnd.inputs == []
    with pytest.raises(OptionError, match="chunk_size"):
        list(simulate("toy", games=3, seed=1, chunk_size=-1))  # 0 records
    with pytest.raises(OptionError, match="jobs"):
        list(simulate("toy", games=3, seed=1, jobs=-4))  # every core


# -- replays ----------------------------------------------------------------------------------


def replay_of(game: str, agents: tuple[str, ...]) -> dict[str, Any]:
    spec = get_game(game)
    opts = spec.resolve_options({})
    rec = spec.play(
        GameRequest(index=0, seed=5, players=len(agents), agents=agents, options=opts, replay=True)
    )
    return json.loads(json.dumps(rec["replay"]))  # type: ignore[no-any-return]


REPLAYS = {
    "three-thirteen": replay_of("three-thirteen", ("greedy", "random")),
    "spite-malice": replay_of("spite-malice", ("greedy", "random")),
    "nerts": replay_of("nerts", ("greedy", "greedy")),
}


def paths(doc: Any, prefix: tuple[Any, ...] = (), depth: int = 0) -> list[tuple[Any, ...]]:
    """Paths to the values of a JSON document (lists: the first three items), 4 levels deep."""
    out = [prefix]
    if depth >= 4:
        return out
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += paths(v, (*prefix, k), depth + 1)
    elif isinstance(doc, list):
        for i, v in enumerate(doc[:3]):
            out += paths(v, (*prefix, i), depth + 1)
    return out


PATHS = {game: paths(rep)[1:] for game, rep in REPLAYS.items()}
JSON_VALUE: st.SearchStrategy[Any] = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.sampled_from([-1, 0, 1, 2, 3, 4, 5, 52, 999, 2**63, 2**64]),
    st.floats(allow_nan=False),
    st.text(max_size=6),
    st.lists(st.integers(-1, 60), max_size=4),
    st.just({}),
    st.just([]),
)


def mutate(doc: dict[str, Any], path: tuple[Any, ...], op: int, value: Any) -> dict[str, Any]:
    doc = copy.deepcopy(doc)
    *head, last = path
    parent: Any = doc
    for k in head:
        parent = parent[k]
    if op == 0 and isinstance(parent, dict):
        del parent[last]
    elif op == 1 and isinstance(parent, list):
        parent.append(value)
    else:
        parent[last] = value
    return doc


@fuzz(120)
@given(data=st.data(), op=st.integers(0, 2), value=JSON_VALUE)
def test_mutated_turn_based_replays(data: st.DataObject, op: int, value: Any) -> None:
    game = data.draw(st.sampled_from(TURN_BASED))
    path = data.draw(st.sampled_from(PATHS[game]))
    typed_or_ok(lambda: get_game(game).verify_replay(mutate(REPLAYS[game], path, op, value)))


@fuzz(60)
@given(data=st.data(), op=st.integers(0, 2), value=JSON_VALUE)
def test_mutated_nerts_replays(data: st.DataObject, op: int, value: Any) -> None:
    path = data.draw(st.sampled_from(PATHS["nerts"]))
    typed_or_ok(lambda: get_game("nerts").verify_replay(mutate(REPLAYS["nerts"], path, op, value)))


def no_traceback(result: Any) -> None:
    assert result.exit_code in (0, 1, 2), result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert "Traceback" not in result.output
    assert "--debug shows the traceback" not in result.output  # an unexpected error: a bug


@fuzz(60)
@given(
    lines=st.lists(
        st.one_of(
            st.binary(max_size=40),
            st.sampled_from([b"[]", b"42", b"null", b'"x"', b"{}", b"[" * 5000, b"\xff\xfe"]),
            st.builds(
                lambda game, path, value: json.dumps(
                    mutate(REPLAYS[game], path, 2, value)
                ).encode(),
                st.just("three-thirteen"),
                st.sampled_from(PATHS["three-thirteen"]),
                JSON_VALUE,
            ),
        ),
        min_size=1,
        max_size=4,
    )
)
def test_cardcore_replay_on_hostile_files(tmp_path: Path, lines: list[bytes]) -> None:
    f = tmp_path / "evil.jsonl"
    f.write_bytes(b"\n".join(lines))
    r = CliRunner().invoke(cli, ["replay", str(f)])
    no_traceback(r)


# -- CLI arguments ----------------------------------------------------------------------------

SIM_ARGS: dict[str, list[str]] = {
    "-n": ["0", "1", "2", "-1", "x", "", "1e3"],
    "--players": ["1", "2", "4", "9", "-2", "two", ""],
    "--seed": ["0", "7", "-1", "18446744073709551616", "x", ""],
    "-j": ["0", "1", "2", "-1", "64", "x"],
    "--agents": ["random", ":", "", ",", "nope", "random,random,random,random,random", "a:b:c"],
    "--option": ["cards=5", "cards=0", "cards=x", "bogus=1", "=", "cards", "cards=99999"],
    "--format": ["jsonl", "csv", "parquet", "xml"],
    "--chunk-size": ["1", "0", "-3", "x"],
    "--address": ["127.0.0.1:1", "x"],
    "--backend": ["local", "cloud"],
}
SIM_FLAGS = ["--match", "--resume", "--force", "--rotate-seats", "--paired"]
FILE_OPTS = ["-o", "--replays", "--summary-json"]
FILE_NAMES = ["out.jsonl", "out.csv", "sub/x.jsonl", "", ".", "-", "out.jsonl"]


@fuzz(120)
@given(
    options=st.lists(
        st.one_of(
            st.sampled_from(sorted(SIM_ARGS)).flatmap(
                lambda k: st.tuples(st.just(k), st.sampled_from(SIM_ARGS[k]))
            ),
            st.tuples(st.sampled_from(FILE_OPTS), st.sampled_from(FILE_NAMES)),
            st.tuples(st.sampled_from(SIM_FLAGS)),
        ),
        max_size=5,
    ),
    game=st.sampled_from(["toy", "nerts", "x", ""]),
)
def test_cardcore_sim_arguments(
    tmp_path_factory: pytest.TempPathFactory, options: list[tuple[str, ...]], game: str
) -> None:
    folder = tmp_path_factory.mktemp("sim")
    (folder / "out.jsonl").write_text("")
    args = ["sim", game, "-q", "-n", "2"]
    for opt in options:
        args += [opt[0], *(str(folder / v) if opt[0] in FILE_OPTS and v else v for v in opt[1:])]
    if game == "nerts":
        args += ["-n", "1"]  # one round (or match) is enough
    r = CliRunner().invoke(cli, args, env={"CARDCORE_GAME_MODULES": "toy_game"})
    no_traceback(r)


RECORD = next(iter(simulate("spite-malice", games=1, seed=5)))


@fuzz(60)
@given(
    data=st.data(),
    op=st.integers(0, 2),
    value=JSON_VALUE,
    raw=st.sampled_from([b"", b"[]", b"42", b"{}", b"\xff\xfe", b"[" * 5000]),
)
def test_cardcore_report_on_hostile_records(
    tmp_path_factory: pytest.TempPathFactory, data: st.DataObject, op: int, value: Any, raw: bytes
) -> None:
    path = data.draw(st.sampled_from(paths(RECORD)[1:]))
    f = tmp_path_factory.mktemp("report") / "r.jsonl"
    f.write_bytes(json.dumps(mutate(RECORD, path, op, value)).encode() + b"\n" + raw)
    no_traceback(CliRunner().invoke(cli, ["report", str(f)]))


@fuzz(80)
@given(
    hand=st.lists(
        st.sampled_from(["Ah", "7h", "7h", "Kd", "X1", "JK", "10c", "zz", "", "@", "7h@1", "♠"]),
        max_size=30,
    ).map(" ".join),
    wild=st.sampled_from(["3", "K", "x", "0", "14", "-1", ""]),
    extra=st.sampled_from([[], ["--discards"], ["--jokers", "2"], ["--decks", "9"]]),
)
def test_cardcore_melds_arguments(hand: str, wild: str, extra: list[str]) -> None:
    no_traceback(CliRunner().invoke(cli, ["melds", hand, "--wild", wild, *extra]))


# -- web requests -----------------------------------------------------------------------------

ROOM_REQUEST = {"game": "three-thirteen", "players": 2, "seats": ["ai"], "level": "hard"}


@fuzz(80)
@given(
    key=st.sampled_from(["game", "players", "seats", "level", "name", "seed", "daily", "options"]),
    value=JSON_VALUE,
    raw=st.sampled_from([None, b"[" * 5000, b"\xff", b"", b"null", b"{" * 3]),
)
def test_web_room_requests(key: str, value: Any, raw: bytes | None) -> None:
    """A ``POST /api/rooms`` body from anyone: a BadMessage or a CardcoreError, or a room."""
    pytest.importorskip("starlette")
    from cardcore.web.games import parse_room_request
    from cardcore.web.messages import BadMessage, parse_message

    body = raw if raw is not None else json.dumps({**ROOM_REQUEST, key: value})
    for parse in (parse_room_request, parse_message):
        with contextlib.suppress(BadMessage, CardcoreError):
            parse(body)


# -- RL environments --------------------------------------------------------------------------


@fuzz(60)
@given(key=st.sampled_from(["n", "seed", "threads", "engine"]), x=HOSTILE, acts=HOSTILE)
def test_vector_env_arguments(key: str, x: Any, acts: Any) -> None:
    """`VectorEnv(n=10**12)` aborted the process (the batch engine could not allocate)."""
    pytest.importorskip("gymnasium")
    from cardcore.rl.vector import VectorEnv

    if key == "threads" and isinstance(x, int) and x > 4:
        x = 4
    with contextlib.suppress(CardcoreError):
        VectorEnv("three-thirteen", **{"n": 2, "seed": 1, key: x}).reset()
    env, fresh = (VectorEnv("three-thirteen", n=2, seed=1) for _ in range(2))
    legal = env.reset().action_mask.argmax(axis=1)
    fresh.reset()
    with contextlib.suppress(CardcoreError):
        env.step(acts)
        return
    # a failed step changed nothing
    assert (env.step(legal).observation == fresh.step(legal).observation).all()


@fuzz(60)
@given(actions=HOSTILE, agent=st.sampled_from(["player_0", "player_1", "nobody", 0]), seed=HOSTILE)
def test_pettingzoo_tick_env_steps(actions: Any, agent: Any, seed: Any) -> None:
    pytest.importorskip("pettingzoo")
    from cardcore.rl.pettingzoo import env as make_env

    tick = make_env("nerts")
    typed_or_ok(lambda: tick.reset(seed=seed))
    tick.reset(seed=3)
    for step in (actions, {agent: actions}):
        typed_or_ok(lambda step=step: tick.step(step), tick.game_state)  # type: ignore[misc]


@pytest.mark.parametrize("bad", [None, float("nan"), float("inf")])
def test_cardcore_report_on_a_parquet_file_with_a_bad_score(tmp_path: Path, bad: Any) -> None:
    """A null or NaN score in a Parquet file made a report of NaNs (exit 0)."""
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    row = {"game": ["spite-malice"], "players": [2], "agents": [["a", "b"]], "winner": [0]}
    f = tmp_path / "r.parquet"
    pq.write_table(pa.table({**row, "scores": [[bad, 2.0]]}), f)
    r = CliRunner().invoke(cli, ["report", str(f)])
    no_traceback(r)
    assert r.exit_code == 1
    assert "scores must be finite numbers" in r.output
