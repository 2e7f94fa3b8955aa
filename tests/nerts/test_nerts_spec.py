"""The Nerts GameSpec: records, matches, options, replays and tamper detection."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from cardcore.errors import ReplayMismatchError
from cardcore.games.base import GameRequest, get_game
from cardcore.nerts.rules import OPTION_SPECS
from game_requests import request

SPEC = get_game("nerts")


def req(
    seed: int = 3, players: int = 2, agents: tuple[str, ...] = ("hard", "greedy"), **kw: Any
) -> GameRequest:
    return request("nerts", seed, players, agents, **kw)


def test_round_record_shape() -> None:
    rec = SPEC.play(req(players=4, agents=("hard", "greedy", "random", "hard")))
    for key in ("game", "index", "seed", "players", "agents", "scores", "winner", "caller", "end"):
        assert key in rec
    assert rec["game"] == "nerts"
    assert len(rec["scores"]) == 4
    assert rec["end"] in ("nerts", "stalemate", "cap")
    assert rec["winner"] == rec["caller"]
    assert rec["duration_ms"] > 0
    assert rec["events"] > 10
    assert "replay" not in rec
    json.dumps(rec)


def test_replay_round_trip_and_tampering() -> None:
    rec = SPEC.play(req(seed=8, replay=True))
    rec = json.loads(json.dumps(rec))  # through JSON like a JSONL file
    SPEC.verify_replay(rec)
    rep = rec["replay"]
    assert rep["rng"]
    assert len(rep["decks"]) == 2
    assert rep["events"]
    assert rep["options"]["speed"] == "classic"

    def tampered(edit: Any) -> dict[str, Any]:
        bad: dict[str, Any] = copy.deepcopy(rec)
        edit(bad["replay"])
        return bad

    cases = [
        lambda r: r["events"][2].__setitem__(0, r["events"][2][0] + 1),
        lambda r: r["events"][5].__setitem__(3, "fail" if r["events"][5][3] == "ok" else "ok"),
        lambda r: r["events"].pop(),
        lambda r: r["scores"].__setitem__(0, r["scores"][0] + 1),
        lambda r: r.__setitem__("seed", r["seed"] + 1),
        lambda r: r.__setitem__("decks", [r["decks"][1].replace("@1", "@0"), r["decks"][0]]),
        lambda r: r["options"].__setitem__("speed", "frantic"),
        lambda r: r.__setitem__("rng", "cardcore-rng-v0"),
    ]
    for edit in cases:
        with pytest.raises(ReplayMismatchError):
            SPEC.verify_replay(tampered(edit))


def test_match_to_target_and_replay() -> None:
    assert SPEC.play_match is not None
    rec = SPEC.play_match(req(seed=4, options={"target_score": 40}, replay=True))
    totals = rec["scores"]
    assert max(totals) >= 40
    assert totals.count(max(totals)) == 1
    assert rec["winner"] == totals.index(max(totals))
    sums = [sum(r["scores"][s] for r in rec["rounds"]) for s in range(2)]
    assert sums == totals
    # every earlier round left the match undecided
    running = [0, 0]
    for r in rec["rounds"][:-1]:
        running = [a + b for a, b in zip(running, r["scores"], strict=True)]
        assert max(running) < 40 or running.count(max(running)) > 1
    SPEC.verify_replay(rec)
    bad = copy.deepcopy(rec)
    bad["replay"]["rounds"][0]["events"][1][2] = "flip"
    with pytest.raises(ReplayMismatchError):
        SPEC.verify_replay(bad)


def test_replay_heads_keep_their_version_1_key_order() -> None:
    """Nerts replays were first written with their own key order; the shared head builder
    (``replay_start``) writes them in it, so their bytes stay the same (format version 1)."""
    from cardcore.nerts import Options
    from cardcore.nerts.spec import NertsMatch, play_round

    rnd = SPEC.play(req(replay=True))["replay"]
    assert list(rnd) == [
        "format", "version", "cardcore_version", "game", "kind", "players", "agents",
        "options", "seed", "rng", "decks", "events", "inputs", "scores", "end", "caller",
        "duration_ms",
    ]  # fmt: skip
    opts = Options.from_mapping(2, {})
    match = NertsMatch(4, opts, ["human", "greedy"], human_seats=[0])
    state, _fields = play_round(opts, match.round_seed(0), ["greedy", "greedy"])
    match.add(state)
    rep = match.record({})["replay"]
    assert list(rep) == [
        "format", "version", "cardcore_version", "game", "kind", "seed", "rng", "players",
        "agents", "human_seats", "options", "rounds", "scores", "winner",
    ]  # fmt: skip
    assert rep["human_seats"] == [0]
    assert "human_seats" not in NertsMatch(4, opts, ["greedy"] * 2).record({})["replay"]


def test_replay_head_order_must_name_every_key() -> None:
    from cardcore.games.records import REPLAY_HEAD_ORDER, replay_start

    head = replay_start("nerts", 1, 2, ["greedy"], {}, kind="round")
    assert list(head) == list(REPLAY_HEAD_ORDER)
    with pytest.raises(ValueError, match="human_seats"):
        replay_start("nerts", 1, 2, ["greedy"], {}, human_seats=[0])


def test_match_replay_rejects_truncated_match_and_wrong_winner() -> None:
    assert SPEC.play_match is not None
    rec = SPEC.play_match(req(seed=4, options={"target_score": 40}, replay=True))
    SPEC.verify_replay(rec["replay"])

    def check(edit: Any) -> None:
        bad = copy.deepcopy(rec["replay"])
        edit(bad)
        with pytest.raises(ReplayMismatchError):
            SPEC.verify_replay(bad)

    def drop_last(r: dict[str, Any]) -> None:
        last = r["rounds"].pop()
        r["scores"] = [a - b for a, b in zip(r["scores"], last["scores"], strict=True)]

    check(drop_last)  # the match is not over after the remaining rounds
    check(lambda r: r.__setitem__("winner", 1 - rec["winner"]))
    check(lambda r: r.__setitem__("rounds", []))
    # the record's own totals must match the re-run too
    bad = copy.deepcopy(rec)
    bad["scores"] = [999, 0]
    with pytest.raises(ReplayMismatchError):
        SPEC.verify_replay(bad)


def _values(name: str) -> list[Any]:
    o = next(o for o in OPTION_SPECS if o.name == name)
    if o.choices is not None:
        return list(o.choices)
    extra: dict[str, list[Any]] = {
        "nerts_pile_size": [5, 20],
        "stock_passes": [1, 3],
        "foundation_points": [2],
        "nerts_penalty": [0, 3],
        "nerts_bonus": [10],
        "target_score": [150],
        "max_consecutive_stalemates": [0, 1],
        "undo_depth": [0, 2],
    }
    return [o.default, *extra.get(name, [])]


@pytest.mark.parametrize("name", [o.name for o in OPTION_SPECS])
def test_every_option_value_plays(name: str) -> None:
    for i, value in enumerate(_values(name)):
        rec = SPEC.play(
            req(seed=30 + i, players=3, agents=("hard",), options={name: value}, replay=True)
        )
        assert rec["end"] in ("nerts", "stalemate", "cap")
        assert rec["replay"]["options"][name] == value
        SPEC.verify_replay(rec)


def test_scoring_options_change_scores() -> None:
    # greedy ignores scores; hard's look-ahead weighs them, so its play may change
    base = SPEC.play(req(seed=12, agents=("greedy",)))
    doubled = SPEC.play(
        req(seed=12, agents=("greedy",), options={"foundation_points": 2, "nerts_penalty": 4})
    )
    assert doubled["scores"] == [2 * s for s in base["scores"]]
    bonus = SPEC.play(req(seed=12, agents=("greedy",), options={"nerts_bonus": 10}))
    if base["caller"] is not None:
        c = base["caller"]
        assert bonus["scores"][c] == base["scores"][c] + 10


def test_small_nerts_pile_rounds_are_shorter() -> None:
    short = sum(
        SPEC.play(req(seed=s, options={"nerts_pile_size": 3}))["duration_ms"] for s in range(5)
    )
    full = sum(SPEC.play(req(seed=s))["duration_ms"] for s in range(5))
    assert short < full


def test_records_are_deterministic_and_seeded() -> None:
    a = SPEC.play(req(seed=77, players=3, agents=("hard", "greedy", "random"), replay=True))
    b = SPEC.play(req(seed=77, players=3, agents=("hard", "greedy", "random"), replay=True))
    assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
    c = SPEC.play(req(seed=78, players=3, agents=("hard", "greedy", "random"), replay=True))
    assert a["replay"]["decks"] != c["replay"]["decks"]


def test_spec_metadata() -> None:
    assert SPEC.default_agent == "hard"
    assert set(SPEC.agents) == {"random", "greedy", "hard", "expert"}
    assert (SPEC.min_players, SPEC.max_players, SPEC.default_players) == (2, 4, 2)
    assert SPEC.play_match is not None
    assert SPEC.parse_options(["speed=frantic"]) == {"speed": "frantic"}


def test_replay_with_a_human_seat_feeds_recorded_inputs() -> None:
    from cardcore.games.records import replay_tag
    from cardcore.nerts import GreedyAgent, Options, Round, ToFoundation, Undo
    from cardcore.nerts.rules import card_text
    from cardcore.rng import RNG_VERSION

    opts = Options()
    rnd = Round(opts, 99, [None, GreedyAgent()])
    t = 0
    while rnd.running and t < 400_000:
        t += 900
        if not rnd.pending(0):
            legal = [a for a in rnd.legal(0) if not isinstance(a, Undo)]
            pick = next((a for a in legal if isinstance(a, ToFoundation)), legal[0])
            rnd.submit(0, pick, t + 250)
        rnd.advance_to(t)
    assert rnd.inputs
    replay: dict[str, Any] = {
        **replay_tag(),  # format, version, cardcore_version: required (issue #12)
        "game": "nerts",
        "kind": "round",
        "players": 2,
        "agents": ["human", "greedy"],
        "options": opts.as_dict(),
        "seed": 99,
        "rng": RNG_VERSION,
        "decks": [" ".join(card_text(c) for c in d) for d in rnd.decks],
        "events": [list(e) for e in rnd.log],
        "inputs": [list(i) for i in rnd.inputs],
        "scores": rnd.scores(),
        "end": rnd.end,
        "caller": rnd.caller,
        "duration_ms": rnd.now,
    }
    SPEC.verify_replay({"replay": replay})
    bad = copy.deepcopy(replay)
    bad["inputs"][3][2] += 1  # one human action 1 ms later
    with pytest.raises(ReplayMismatchError):
        SPEC.verify_replay({"replay": bad})


def test_cli_sim_and_replay(tmp_path: Any) -> None:
    from click.testing import CliRunner

    from cardcore.cli import cli

    out, reps = tmp_path / "o.jsonl", tmp_path / "r.jsonl"
    runner = CliRunner()
    args = ["sim", "nerts", "-n", "3", "--players", "4", "--option", "speed=frantic"]
    res = runner.invoke(cli, [*args, "--seed", "5", "-q", "-o", str(out), "--replays", str(reps)])
    assert res.exit_code == 0, res.output
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == 3
    assert all(len(r["scores"]) == 4 for r in rows)
    assert all(r["winner"] == r["caller"] for r in rows)
    res = runner.invoke(cli, ["replay", "-q", str(reps)])
    assert res.exit_code == 0, res.output
    res = runner.invoke(cli, ["sim", "nerts", "-n", "1", "--match", "--seed", "2", "-q", "-o", "-"])
    assert res.exit_code == 0, res.output
    match = json.loads(res.output.splitlines()[0])
    assert max(match["scores"]) >= 100
    assert len(match["rounds"]) >= 2


def test_replay_rejects_inputs_for_ai_seats() -> None:
    """Recorded inputs drive human seats only: an input injected for an AI seat (here an
    `undo` while that agent sleeps with nothing else to do) is tampering even when the
    re-run reproduces the edited events."""
    from cardcore.nerts.engine import Round
    from cardcore.nerts.rules import Options, parse_action

    opts = Options.from_mapping(2, {})
    agents = [SPEC.make_agent("random") for _ in range(2)]
    rnd = Round(opts, 22, agents)
    while rnd.running and rnd.step():
        if not rnd.pending(1):
            break
    assert rnd.running
    assert not rnd.pending(1)
    now = rnd.now
    rec = SPEC.play(req(seed=22, agents=("random", "random"), replay=True))
    SPEC.verify_replay(rec)
    inputs = [[now, 1, now + 500, "undo"]]
    forged = Round(opts, 22, [SPEC.make_agent("random") for _ in range(2)])
    forged.advance_to(now)
    forged.submit(1, parse_action("undo"), now + 500)
    forged.run()
    assert forged.inputs == inputs
    rep = copy.deepcopy(rec["replay"])
    rep.update(
        events=forged.log,
        inputs=inputs,
        scores=forged.scores(),
        end=forged.end,
        caller=forged.caller,
        duration_ms=forged.now,
    )
    assert rep["events"] != rec["replay"]["events"]
    with pytest.raises(ReplayMismatchError):
        SPEC.verify_replay(json.loads(json.dumps(rep)))
