"""Issue #35, the server: daily objectives checked on recorded games, achievements, quests,
levels, collections and settings, the leaderboard's ratings (no browser, no sockets)."""

from __future__ import annotations

import datetime as _dt
import json
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from cardcore.games.api import load_game
from cardcore.games.base import GameRequest, get_game
from cardcore.web import games
from cardcore.web.feats import OBJECTIVES, facts, objective_for
from cardcore.web.profile import Profile
from cardcore.web.progress import (
    ACHIEVEMENTS,
    COLLECTIONS,
    QUESTS,
    Row,
    SettingsError,
    level_of,
    progress,
    validate_settings,
)
from cardcore.web.rooms import RoomSetup
from cardcore.web.tables import Outcome

OPTIONS: dict[str, dict[str, Any]] = {
    "three-thirteen": {},
    "spite-malice": {},
    "nerts": {"speed": "classic", "target_score": 60},
}
SEEDS = range(1, 7)


@cache
def recorded(game: str, seed: int) -> Outcome:
    """A finished two-seat web table of ``game`` played by greedy AIs (its record is the one
    the server saves as the replay; Nerts: the same match record from the runner)."""
    if game == "nerts":  # the web table's match record, played by the runner (no clock)
        request = GameRequest(0, seed, 2, ("greedy", "greedy"), OPTIONS[game], replay=True)
        play_match = get_game(game).play_match
        assert play_match is not None
        rec = play_match(request)
        return Outcome([float(s) for s in rec["scores"]], rec["winner"], rec)
    games._register_tables()
    setup = RoomSetup(
        game=game,
        players=2,
        seats=("ai",),
        agent="greedy",
        level="normal",
        options=OPTIONS[game],
        seed=seed,
    )
    table = games.TABLES[game](setup, ["greedy", "greedy"], 0.0)
    now = 0.0
    while table.outcome is None:
        table.tick(now)
        now += 1.0
    outcome = table.outcome
    assert outcome is not None
    return outcome


def seat_facts(game: str, seed: int, seat: int) -> dict[str, Any]:
    o = recorded(game, seed)
    return facts(game, o.record, seat, o.scores, o.winner, o.lower_is_better)


def all_facts(game: str) -> list[dict[str, Any]]:
    return [seat_facts(game, seed, seat) for seed in SEEDS for seat in (0, 1)]


# -- the facts, checked against the game itself --------------------------------------------------


def test_three_thirteen_facts_follow_the_record() -> None:
    for seed in SEEDS:
        o = recorded("three-thirteen", seed)
        rounds = o.record["rounds"]
        assert len(rounds) == 11
        for seat in (0, 1):
            f = seat_facts("three-thirteen", seed, seat)
            assert f["won"] == (o.winner == seat)
            assert f["margin"] == o.scores[1 - seat] - o.scores[seat]  # lower is better
            assert f["clean_last"] == (rounds[10]["scores"][seat] == 0)
            assert f["went_out"] == sum(r["went_out"] == seat for r in rounds)


def side_stack_peak(game_record: dict[str, Any], seat: int) -> int:
    """The largest side stack of ``seat`` in one Spite & Malice game, by playing its moves
    again through the public protocol and reading the observations."""
    rep = game_record["replay"]
    game = load_game("spite-malice", players=2, **OPTIONS["spite-malice"])
    st = game.new_state(rep["seed"])
    peak = 0
    for _who, text in rep["moves"]:
        st.apply(game.parse_move(text))
        peak = max(peak, *(len(s) for s in st.observation(seat).side_stacks[seat]))
    return peak


def test_spite_malice_side_stacks_match_the_replayed_games() -> None:
    for seed in SEEDS[:3]:
        o = recorded("spite-malice", seed)
        for seat in (0, 1):
            peaks = [side_stack_peak(g, seat) for g in o.record["games"]]
            f = seat_facts("spite-malice", seed, seat)
            assert f["max_side"] == max(peaks)
            assert f["tidy_games"] == sum(p <= 4 for p in peaks)
            won = [g["winner"] == seat for g in o.record["games"]]
            assert f["tidy_wins"] == sum(p <= 4 and w for p, w in zip(peaks, won, strict=True))


def test_nerts_facts_follow_the_rounds() -> None:
    for seed in SEEDS:
        o = recorded("nerts", seed)
        for seat in (0, 1):
            f = seat_facts("nerts", seed, seat)
            calls = [r["duration_ms"] for r in o.record["rounds"] if r["caller"] == seat]
            assert f["calls"] == len(calls)
            assert f["fastest_call_ms"] == (min(calls) if calls else None)
            assert f["speed"] == "classic"


# -- every objective, met and missed on recorded games -------------------------------------------


@pytest.mark.parametrize(
    ("game", "objective"),
    [(g, o.id) for g, pool in OBJECTIVES.items() for o in pool],
)
def test_every_objective_is_met_by_some_recorded_game_and_missed_by_another(
    game: str, objective: str
) -> None:
    (obj,) = (o for o in OBJECTIVES[game] if o.id == objective)
    results = [obj.check(f) for f in all_facts(game)]
    assert True in results, results
    assert False in results, results


def test_objective_boundaries() -> None:
    tt = {o.id: o for o in OBJECTIVES["three-thirteen"]}
    assert tt["margin_20"].check({"won": True, "margin": 20})
    assert not tt["margin_20"].check({"won": True, "margin": 19})
    assert not tt["margin_20"].check({"won": False, "margin": 25})
    sm = {o.id: o for o in OBJECTIVES["spite-malice"]}
    assert sm["tidy_sides"].check({"tidy_games": 1})
    assert not sm["tidy_sides"].check({"tidy_games": 0, "max_side": 5})
    assert not sm["tidy_sides"].check({})  # a game without its facts meets nothing
    nt = {o.id: o for o in OBJECTIVES["nerts"]}
    fast = {"fastest_call_ms": 180_000, "speed": "classic"}
    assert nt["call_fast"].check(fast)
    assert not nt["call_fast"].check({**fast, "fastest_call_ms": 180_001})
    assert not nt["call_fast"].check({**fast, "speed": "frantic"})
    assert not nt["call_fast"].check({**fast, "fastest_call_ms": None})


def test_each_day_has_one_objective_per_game_and_they_take_turns() -> None:
    day = _dt.date(2026, 12, 4)
    for game, pool in OBJECTIVES.items():
        seen = {objective_for(game, day + _dt.timedelta(days=d)) for d in range(len(pool))}
        assert seen == set(pool)
    assert objective_for("no-such-game", day) is None


# -- achievements, quests, levels ----------------------------------------------------------------


def row(
    game: str = "three-thirteen",
    level: str = "normal",
    won: bool = False,
    daily: _dt.date | None = None,
    **f: Any,
) -> Row:
    return Row(game, level, won, daily, {"won": won, **f})


def by_id(items: Sequence[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {i["id"]: i for i in items}


def test_nothing_played_is_level_one_with_nothing_earned() -> None:
    p = progress([])
    assert p["level"] == {"level": 1, "xp": 0, "floor": 0, "next": 100}
    assert not any(a["done"] or a["progress"] for a in p["achievements"])
    assert not any(q["done"] for q in p["quests"])
    assert {(c, i) for c, i in p["unlocked"]} == {
        ("themes", "green"),
        ("card_backs", "classic"),
        ("avatars", "fox"),
        ("avatars", "owl"),
        ("avatars", "cat"),
    }


def test_progress_counts_each_goal() -> None:
    day = _dt.date(2026, 12, 1)
    rows = [
        row(level="hard", won=True),
        row(level="easy"),
        row("nerts", calls=2),
        row("nerts", calls=1, won=True),
        row("spite-malice", won=True, tidy_wins=1),
        *(row(daily=day + _dt.timedelta(days=d)) for d in range(3)),
    ]
    p = progress(rows)
    a, q = by_id(p["achievements"]), by_id(p["quests"])
    assert a["first_game"]["done"]
    assert a["win_hard"]["done"]
    assert not a["beat_expert"]["done"]
    assert a["nerts_pile_3"] == {**a["nerts_pile_3"], "progress": 3, "done": True}
    assert a["tidy_sides"]["done"]
    assert a["all_rounder"]["progress"] == 3
    assert a["streak_7"]["progress"] == 3
    assert not a["streak_7"]["done"]
    assert q["play_5_three-thirteen"]["progress"] == 5
    assert q["play_5_three-thirteen"]["done"]
    assert q["play_5_nerts"]["progress"] == 2
    assert q["hard_3"]["progress"] == 1
    assert q["daily_each"]["progress"] == 1
    assert q["win_10"]["progress"] == 3
    assert a["perfect_eleven"]["progress"] == 0


def test_xp_and_levels() -> None:
    assert level_of(99)["level"] == 1
    assert level_of(100) == {"level": 2, "xp": 100, "floor": 100, "next": 300}
    assert level_of(600)["level"] == 4
    # one lost game at normal: 20 XP and the first-game achievement (100)
    assert progress([row()])["level"]["xp"] == 120
    # a won game at expert: 20 + 20 + 20, achievements first_game, win_hard, beat_expert
    assert progress([row(level="expert", won=True)])["level"]["xp"] == 60 + 300


def test_locked_items_unlock_by_level_and_achievement() -> None:
    p = progress([row(level="hard", won=True)])  # 50 + 200 XP: level 2, win_hard
    assert p["level"]["level"] == 2
    assert ("themes", "blue") in p["unlocked"]
    assert ("themes", "wood") in p["unlocked"]
    assert ("themes", "burgundy") not in p["unlocked"]
    themes = by_id(p["collections"]["themes"])
    assert themes["burgundy"] == {
        "id": "burgundy",
        "name": "Burgundy felt",
        "unlocked": False,
        "how": "Reach level 3",
    }
    assert set(p["collections"]) == set(COLLECTIONS)


def test_settings_are_validated() -> None:
    unlocked = progress([])["unlocked"]
    base = validate_settings({}, {}, unlocked)
    assert base == {
        "theme": "green",
        "card_back": "classic",
        "avatar": "fox",
        "large_print": False,
        "mute": False,
    }
    assert validate_settings(base, {"avatar": "owl", "mute": True}, unlocked)["avatar"] == "owl"
    changes: list[tuple[dict[str, Any], int]] = [
        ({"theme": "blue"}, 403),
        ({"theme": "plaid"}, 400),
        ({"colour": "red"}, 400),
        ({"mute": "yes"}, 400),
        ({"large_print": 1}, 400),
        ({"card_back": ["classic"]}, 400),
    ]
    for change, status in changes:
        with pytest.raises(SettingsError) as e:
            validate_settings(base, change, unlocked)
        assert e.value.status == status, change


# -- the profile: facts kept, earned once, settings, daily, leaderboard ---------------------------


def test_profile_keeps_facts_and_announces_each_thing_once(tmp_path: Path) -> None:
    p = Profile(tmp_path / "p.sqlite3")
    p.record(
        "Ann", "nerts", "expert", won=True, score=30, lower_is_better=False, facts={"calls": 3}
    )
    first = p.award("Ann")
    kinds = {(e["kind"], e["id"]) for e in first}
    assert {("achievement", "first_game"), ("achievement", "beat_expert")} <= kinds
    assert ("achievement", "nerts_pile_3") in kinds
    assert ("level", "2") in kinds
    assert ("level", "3") in kinds
    assert ("unlock", "tartan") in kinds
    assert ("unlock", "otter") in kinds
    assert p.award("Ann") == []  # told once
    summary = p.summary("Ann", ["nerts"])
    a = by_id(summary["achievements"])
    assert a["beat_expert"]["earned_at"] is not None
    assert a["perfect_eleven"]["earned_at"] is None
    assert summary["level"]["level"] >= 3
    assert {q["id"] for q in summary["quests"]} == {q.id for q in QUESTS}
    assert {x["id"] for x in summary["achievements"]} == {x.id for x in ACHIEVEMENTS}
    assert p.award("Bob") == []


def test_settings_are_kept_per_person_and_refused_when_locked(tmp_path: Path) -> None:
    p = Profile(tmp_path / "p.sqlite3")
    with pytest.raises(SettingsError):
        p.set_settings("Ann", {"card_back": "lattice"})  # level 2
    assert p.settings("Ann")["card_back"] == "classic"
    for _ in range(3):
        p.record("Ann", "three-thirteen", "normal", won=True, score=10, lower_is_better=True)
    assert p.set_settings("Ann", {"card_back": "lattice", "large_print": True})["card_back"] == (
        "lattice"
    )
    again = Profile(tmp_path / "p.sqlite3")
    assert again.settings("Ann")["card_back"] == "lattice"
    assert again.settings("Ann")["large_print"] is True
    assert again.settings("Bob")["card_back"] == "classic"


def test_an_old_profile_gains_the_facts_column(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    db.executescript(
        "CREATE TABLE results (id INTEGER PRIMARY KEY, player TEXT NOT NULL, game TEXT NOT NULL,"
        " level TEXT NOT NULL, won INTEGER NOT NULL, score REAL NOT NULL,"
        " lower_is_better INTEGER NOT NULL, daily TEXT, finished TEXT NOT NULL, replay TEXT);"
        "INSERT INTO results VALUES (1, 'Ann', 'nerts', 'easy', 1, 5, 0, NULL, '2026-01-01', NULL);"
    )
    db.commit()
    db.close()
    p = Profile(path)
    assert [r.won for r in p.rows("Ann")] == [True]
    p.record("Ann", "nerts", "easy", won=False, score=1, lower_is_better=False, facts={"calls": 1})
    assert [r.facts.get("calls") for r in p.rows("Ann")] == [None, 1]


def test_daily_challenge_met_and_missed(tmp_path: Path) -> None:
    p = Profile(tmp_path / "p.sqlite3")
    day = _dt.date(2026, 12, 4)
    obj = objective_for("spite-malice", day)
    assert obj is not None
    met = next(f for f in all_facts("spite-malice") if obj.check(f))
    missed = next(f for f in all_facts("spite-malice") if not obj.check(f))
    yesterday = day - _dt.timedelta(days=1)
    for who, f in (("Ann", met), ("Bob", missed)):
        p.record(who, "spite-malice", "normal", won=f["won"], score=f["score"],
                 lower_is_better=False, daily=day, facts=f)  # fmt: skip
    y_obj = objective_for("spite-malice", yesterday)
    assert y_obj is not None
    y_met = next(f for f in all_facts("spite-malice") if y_obj.check(f))
    p.record("Ann", "spite-malice", "normal", won=y_met["won"], score=0, lower_is_better=False,
             daily=yesterday, facts=y_met)  # fmt: skip
    ann = {c["game"]: c for c in p.daily("Ann", ["spite-malice", "nerts"], day)["challenges"]}
    assert ann["spite-malice"] == {
        "game": "spite-malice",
        "title": "Spite & Malice",
        "objective": obj.public(),
        "played": True,
        "met": True,
        "streak": 2,
        "challenge_streak": 2,
    }
    assert ann["nerts"]["played"] is False
    assert ann["nerts"]["met"] is False
    bob = p.daily("Bob", ["spite-malice"], day)["challenges"][0]
    assert bob["played"] is True
    assert bob["met"] is False
    assert bob["challenge_streak"] == 0
    assert ("challenge", f"spite-malice:{day}") in {(e["kind"], e["id"]) for e in p.award("Ann")}
    assert all(e["kind"] != "challenge" for e in p.award("Bob"))


def test_leaderboard_ranks_people_and_ai_levels(tmp_path: Path) -> None:
    p = Profile(tmp_path / "p.sqlite3")
    for _ in range(6):
        p.record("Ann", "nerts", "hard", won=True, score=30, lower_is_better=False)
        p.record("Bob", "nerts", "easy", won=False, score=3, lower_is_better=False)
    p.record("Cid", "three-thirteen", "expert", won=True, score=3, lower_is_better=True)
    board = p.ratings("nerts")
    names = [e["name"] for e in board["ranking"]]
    assert names[0] == "Ann"
    assert names[-1] == "Bob"
    assert set(names[1:3]) == {"AI easy", "AI hard"}
    ann = board["ranking"][0]
    assert ann["kind"] == "person"
    assert ann["played"] == 6
    assert ann["won"] == 6
    assert ann["by_level"] == {"hard": {"played": 6, "won": 6}}
    assert ann["rating"] > 1000 > board["ranking"][-1]["rating"]
    (easy,) = (e for e in board["ranking"] if e["name"] == "AI easy")
    assert easy == {**easy, "kind": "ai", "level": "easy", "played": 6, "won": 6}
    assert easy["rating"] > 800  # it beat Bob six times
    assert json.loads(json.dumps(board)) == board
    tt = p.ratings("three-thirteen")["ranking"]
    assert [e["name"] for e in tt] == ["AI expert", "Cid"]  # one win: 1016 against 1384
    assert p.ratings("spite-malice")["ranking"] == []


def test_a_game_without_ais_counts_no_ai_level(tmp_path: Path) -> None:
    friends = row(level="expert", won=True, ai_seats=0)
    a = by_id(progress([friends])["achievements"])
    assert not a["win_hard"]["done"]
    assert not a["beat_expert"]["done"]
    assert by_id(progress([friends])["quests"])["hard_3"]["progress"] == 0
    assert progress([friends])["level"]["xp"] == 20 + 20 + 100  # first_game, no expert bonus
    assert by_id(progress([row(level="expert", won=True, ai_seats=2)])["achievements"])[
        "beat_expert"
    ]["done"]
    p = Profile(tmp_path / "p.sqlite3")
    p.record("Ann", "nerts", "expert", won=True, score=9, lower_is_better=False,
             facts={"ai_seats": 0})  # fmt: skip
    p.record("Ann", "nerts", "easy", won=True, score=9, lower_is_better=False,
             facts={"ai_seats": 1})  # fmt: skip
    ranking = p.ratings("nerts")["ranking"]
    assert {e["name"] for e in ranking} == {"Ann", "AI easy"}
    assert ranking[0]["played"] == 1
