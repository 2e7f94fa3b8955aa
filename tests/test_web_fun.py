"""Issue #35 through the server: daily challenges, earned messages, settings and the
leaderboard over HTTP, rematch over the WebSocket, Three-Thirteen's round-end reveal and the
move lines that name only public cards."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2")

from starlette.testclient import TestClient

from cardcore.web import games
from cardcore.web.app import ServerConfig, create_app
from cardcore.web.feats import facts, objective_for
from cardcore.web.messages import parse_message
from cardcore.web.profile import Profile
from cardcore.web.rooms import RoomSetup
from cardcore.web.three_thirteen import ThreeThirteenMatch
from cardcore.web.turns import TurnTable
from test_web_games import play_out, states

LOCAL = "http://127.0.0.1:8000"
WS = "ws://127.0.0.1:8000/ws"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(
        ServerConfig(
            ai_delay=0,
            replay_dir=tmp_path / "replays",
            profile=tmp_path / "p.sqlite3",
            message_rate=100_000,
            message_burst=100_000,
        )
    )
    with TestClient(app, base_url=LOCAL) as c:
        yield c


def until(ws: Any, kind: str) -> dict[str, Any]:
    """The next message of type ``kind`` (others skipped)."""
    while True:
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] == kind:
            return msg
        assert msg["type"] != "error", msg


def play_room(client: TestClient, **body: Any) -> tuple[dict[str, Any], Any]:
    """Creates a room against AIs and plays seat 0 to the end; the open socket comes back."""
    r = client.post("/api/rooms", json={"name": "Ann", **body}).json()
    ws = client.websocket_connect(WS).__enter__()
    ws.send_json({"type": "resume", "room": r["room"], "token": r["token"]})
    st = play_out(ws)
    assert st["status"] == "over"
    return {**r, "state": st}, ws


def test_a_daily_game_is_checked_announced_and_listed(client: TestClient, tmp_path: Path) -> None:
    room, ws = play_room(client, game="three-thirteen", players=2, daily=True)
    try:
        earned = until(ws, "earned")["earned"]
    finally:
        ws.__exit__(None, None, None)
    kinds = {(e["kind"], e["id"]) for e in earned}
    assert ("achievement", "first_game") in kinds
    assert ("level", "2") in kinds or room["state"]["result"]["winner"] != 0
    (replay,) = (tmp_path / "replays").iterdir()
    record = json.loads(replay.read_text())
    st = room["state"]
    f = facts("three-thirteen", record, 0, st["result"]["scores"], st["result"]["winner"], True)
    daily = client.get("/api/daily", params={"name": "Ann"}).json()
    (tt,) = (c for c in daily["challenges"] if c["game"] == "three-thirteen")
    import datetime as _dt

    obj = objective_for("three-thirteen", _dt.date.fromisoformat(daily["date"]))
    assert obj is not None
    assert tt["objective"] == obj.public()
    assert tt["played"] is True
    assert tt["streak"] == 1
    assert tt["met"] is obj.check(f)
    assert (("challenge", f"three-thirteen:{daily['date']}") in kinds) is obj.check(f)
    others = [c for c in daily["challenges"] if c["game"] != "three-thirteen"]
    assert others
    assert not any(c["played"] or c["met"] for c in others)
    prof = client.get("/api/profile", params={"name": "Ann"}).json()
    assert prof["level"]["xp"] >= 120
    assert {"achievements", "quests", "settings", "collections"} <= set(prof)
    (kept,) = Profile(tmp_path / "p.sqlite3").rows("Ann")
    assert kept.facts == {**f, "ai_seats": 1, "score": f["score"]}
    # nothing about the seed in any of it
    assert str(record["seed"]) not in json.dumps([daily, prof, earned])


def test_settings_over_http(client: TestClient) -> None:
    def post(body: Any, **kw: Any) -> Any:
        return client.post("/api/settings", json=body, **kw)

    assert post({"name": "Ann", "avatar": "owl", "mute": True}).json()["settings"] == {
        "theme": "green",
        "card_back": "classic",
        "avatar": "owl",
        "large_print": False,
        "mute": True,
    }
    locked = post({"name": "Ann", "theme": "slate"})
    assert locked.status_code == 403
    assert "level 5" in locked.json()["error"]
    assert post({"name": "Ann", "theme": "tweed"}).status_code == 400
    assert post({"name": "Ann", "volume": 3}).status_code == 400
    assert post({"theme": "green"}).status_code == 400  # no name
    assert post(["theme"]).status_code == 400
    evil = {"origin": "http://evil.example"}
    assert post({"name": "Ann", "mute": False}, headers=evil).status_code == 403
    assert client.post("/api/settings", content=b"x" * 5000,
                       headers={"content-type": "application/json"}).status_code == 413  # fmt: skip
    prof = client.get("/api/profile", params={"name": "Ann"}).json()
    assert prof["settings"]["avatar"] == "owl"  # the refusals changed nothing
    assert prof["settings"]["mute"] is True
    assert prof["settings"]["theme"] == "green"


def test_leaderboard_over_http(client: TestClient) -> None:
    assert client.get("/api/leaderboard", params={"game": "chess"}).status_code == 400
    assert client.get("/api/leaderboard", params={"game": "nerts"}).json() == {
        "enabled": True,
        "game": "nerts",
        "ranking": [],
    }
    _room, ws = play_room(client, game="three-thirteen", players=2, level="easy")
    until(ws, "earned")  # the results are written
    ws.__exit__(None, None, None)
    board = client.get("/api/leaderboard", params={"game": "three-thirteen"}).json()
    assert {(e["name"], e["kind"]) for e in board["ranking"]} == {
        ("Ann", "person"),
        ("AI easy", "ai"),
    }


def test_rematch_same_table_new_deal(client: TestClient) -> None:
    body = {"game": "spite-malice", "players": 3, "level": "easy", "seed": "7"}
    body["options"] = {"target_score": 5}
    body["turn_seconds"] = 30
    room, ws = play_room(client, **body)
    try:
        ws.send_json({"type": "rematch"})
        msg = until(ws, "rematch")
        assert msg["seat"] == 0
        assert msg["room"] != room["room"]
        assert msg["token"] != room["token"]
        ws.send_json({"type": "rematch"})  # asked again: the same room
        assert until(ws, "rematch") == msg
    finally:
        ws.__exit__(None, None, None)
    with client.websocket_connect(WS) as ws2:
        ws2.send_json({"type": "resume", "room": msg["room"], "token": msg["token"]})
        assert until(ws2, "welcome")["seat"] == 0
        st = until(ws2, "state")
        old = room["state"]
        assert st["status"] == "playing"
        assert st["setup"] == old["setup"]  # game, players, level, options, turn timer
        assert [s["name"] for s in st["seats"]] == [s["name"] for s in old["seats"]]
        assert [s["kind"] for s in st["seats"]] == ["human", "ai", "ai"]
        first = st["table"]["observation"]
        # a new deal: the old seed's first hand is not dealt again
        assert first != old["table"]["observation"]
    with client.websocket_connect(WS) as ws3:  # the old room's token still leads there
        ws3.send_json({"type": "resume", "room": room["room"], "token": room["token"]})
        assert until(ws3, "rematch") == msg


def test_rematch_only_after_the_game(client: TestClient) -> None:
    r = client.post("/api/rooms", json={"game": "three-thirteen", "players": 2}).json()
    with client.websocket_connect(WS) as ws:
        ws.send_json({"type": "resume", "room": r["room"], "token": r["token"]})
        ws.send_json({"type": "rematch"})
        while (msg := ws.receive_json())["type"] != "error":
            pass
        assert "once the game is over" in msg["message"]
    assert parse_message('{"type": "rematch"}').type == "rematch"


def test_a_daily_rematch_is_not_daily(client: TestClient) -> None:
    room, ws = play_room(client, game="three-thirteen", players=2, daily=True)
    try:
        ws.send_json({"type": "rematch"})
        msg = until(ws, "rematch")
    finally:
        ws.__exit__(None, None, None)
    assert room["state"]["setup"]["daily"] is True
    server = client.app.state.server  # type: ignore[attr-defined]
    new = server.lobby.get(msg["room"])
    old = server.lobby.get(room["room"])
    assert new.setup.daily is False
    assert new.setup.seed != old.setup.seed


# -- Three-Thirteen: the round-end reveal, and move lines -----------------------------------------


def rounds_done(table: TurnTable) -> int:
    match = table.match
    assert isinstance(match, ThreeThirteenMatch)
    return match.rounds_done


def three_thirteen(players: int = 3, seed: int = 5) -> TurnTable:
    games._register_tables()
    setup = RoomSetup(
        game="three-thirteen",
        players=players,
        seats=("ai",) * (players - 1),
        agent="greedy",
        level="normal",
        options={},
        seed=seed,
    )
    table = games.TABLES["three-thirteen"](setup, ["greedy"] * players, 0.0)
    assert isinstance(table, TurnTable)
    return table


def own_hands(table: TurnTable) -> list[set[str]]:
    docs = table.views(list(range(table.players)))
    return [set(d["observation"]["observation"]["hand"]) for d in docs]


def test_every_hand_is_revealed_only_when_its_round_is_over() -> None:
    table = three_thirteen()
    seats = list(range(table.players))
    now, reveals = 0.0, 0
    hands = own_hands(table)
    seen: dict[str, Any] | None = None
    while table.outcome is None:
        mover = table.match.current
        before = rounds_done(table)
        table.tick(now)
        now += 1.0
        views = table.views(seats)
        if rounds_done(table) == before:
            # in play: no reveal newer than the last round's, and nothing the table adds to
            # the observation names a card of another hand that this seat cannot see
            now_hands = own_hands(table)
            for s, v in enumerate(views):
                assert v.get("reveal") is seen
                o = v["observation"]["observation"]
                public = set(o["discard_pile"]).union(*o["taken"]) | now_hands[s]
                text = json.dumps(
                    {k: x for k, x in v.items() if k not in ("reveal", "observation")}
                )
                for other in seats:
                    assert not any(f'"{c}"' in text for c in now_hands[other] - public)
            hands = now_hands
            continue
        reveals += 1
        reveal = views[0]["reveal"]
        assert all(v["reveal"] is reveal for v in views)  # one object, the same for all
        assert reveal["round"] == reveals
        assert reveal["wild_rank"] == reveals + 2  # round r: rank r + 2 is wild (3 .. K)
        assert reveal is not seen
        seen = reveal
        scores = table.match.state.round_scores[-1]
        for s, h in enumerate(reveal["hands"]):
            shown = [c for meld in h["melds"] for c, _stands in meld] + h["deadwood"]
            assert len(shown) == reveals + 2  # round r deals r + 2 cards
            if s == mover:  # its hand before the last discard, less the card discarded
                assert set(shown) < hands[s]
                assert len(hands[s]) == len(shown) + 1
            else:
                assert set(shown) == hands[s]
            assert h["points"] == h["score"] == scores[s]
        hands = own_hands(table)
    assert reveals == 11


def test_move_lines_name_only_public_cards() -> None:
    table = three_thirteen(players=2, seed=9)
    now = 0.0
    lines = 0
    while table.outcome is None and lines < 120:
        mover = table.match.current
        pile_before = table.views([0])[0]["observation"]["observation"]["discard_pile"]
        table.tick(now)
        now += 1.0
        if mover is None or table.last[mover] is None:
            continue
        view = table.views([1 - mover])[0]
        line = view["last"][mover]
        lines += 1
        pile = view["observation"]["observation"]["discard_pile"]
        if line["src"] == "stock":
            assert line["text"] == "drew from the stock"
            assert "card" not in line  # a card drawn from the stock stays hidden
        elif line["src"] == "discard":
            assert line["text"] == "took the discard"
            assert line["card"] == pile_before[-1]  # it was on top of the pile
        else:
            assert line["text"] == "discarded"
            assert line["card"] == pile[-1]  # now face up on the pile
        pile_before = pile
    assert lines >= 100


def test_spite_malice_move_lines_name_the_card_where_it_went() -> None:
    games._register_tables()
    setup = RoomSetup(
        game="spite-malice",
        players=2,
        seats=("ai",),
        agent="greedy",
        level="normal",
        options={"target_score": 5},
        seed=4,
    )
    table = games.TABLES["spite-malice"](setup, ["greedy", "greedy"], 0.0)
    assert isinstance(table, TurnTable)
    now, checked = 0.0, 0
    while table.outcome is None and checked < 150:
        mover = table.match.current
        table.tick(now)
        now += 1.0
        if mover is None or table.last[mover] is None:
            continue
        view = table.views([1 - mover])[0]  # as the other seat sees it
        line = view["last"][mover]
        o = view["observation"]["observation"]
        kind, _, index = line["dst"].partition(":")
        pile = (o["side_stacks"][mover] if kind == "side" else o["center"])[int(index)]
        # the card is face up where it went (a completed centre stack is cleared at once)
        assert pile[-1:] == [line["card"]] or (kind == "center" and not pile), line
        checked += 1
    assert checked >= 100


def test_nerts_move_lines_name_the_card_played() -> None:
    games._register_tables()
    setup = RoomSetup(
        game="nerts",
        players=3,
        seats=("ai", "ai"),
        agent="greedy",
        level="normal",
        options={"speed": "frantic"},
        seed=3,
    )
    table = games.TABLES["nerts"](setup, [None, "greedy", "greedy"], 0.0)
    seen: dict[int, int] = {}
    named = unnamed = 0
    now = 0.0
    while now < 90 and not table.outcome:
        now += 0.05
        table.tick(now)
        view = table.views([0])[0]  # the person's view of the AIs' moves
        o = view["observation"]["observation"]
        on_foundations = {c for f in o["foundations"] for c in f}
        for seat, line in enumerate(view["last"]):
            if line is None or seen.get(seat) == line["n"]:
                continue
            seen[seat] = line["n"]
            if "card" not in line:
                # flips, recycles, calls, undos name none; a card play rarely (a seat's
                # second play between two reads of the piles)
                unnamed += line["src"] not in ("stock", "call", "undo")
                continue
            named += 1
            mine = o["players"][seat]
            in_work = {c for pile in mine["work"] for c in pile}
            if line["dst"] == "foundations":
                assert line["card"] in on_foundations, line
            else:
                assert line["dst"].startswith("work:")
                assert line["card"] in in_work | on_foundations, line
    assert named >= 50
    assert unnamed <= named // 10


def test_a_daily_game_counts_for_the_day_it_was_dealt(client: TestClient) -> None:
    import datetime as _dt
    from dataclasses import replace

    server = client.app.state.server  # type: ignore[attr-defined]
    today = _dt.datetime.now(_dt.UTC).date()
    yesterday = today - _dt.timedelta(days=1)
    setup = RoomSetup(
        game="nerts",
        players=2,
        seats=("ai",),
        agent="greedy",
        level="normal",
        options={},
        seed=server.daily.seed(yesterday),
        daily=True,
    )
    assert server.daily_day(setup) == yesterday  # dealt before midnight, finished after
    assert server.daily_day(replace(setup, seed=server.daily.seed(today))) == today
    assert server.daily_day(replace(setup, daily=False)) is None


def test_the_reveal_reaches_the_pages_with_each_round_end(client: TestClient) -> None:
    r = client.post("/api/rooms", json={"game": "three-thirteen", "players": 2}).json()
    rounds_seen: list[int] = []
    with client.websocket_connect(WS) as ws:
        ws.send_json({"type": "resume", "room": r["room"], "token": r["token"]})
        seq, waiting = 0, False
        for st in states(ws):
            t = st["table"]
            ended = len(t["sheet"]["rows"])
            reveal = t.get("reveal")
            # a round's hands only once it is on the score sheet, and always the last one's
            assert (reveal is None) == (ended == 0)
            if reveal is not None:
                assert reveal["round"] == ended
                if not rounds_seen or rounds_seen[-1] != ended:
                    rounds_seen.append(ended)
            if st["status"] == "over":
                break
            if waiting and st.get("ack") != seq:
                continue
            waiting = False
            if t["legal"]:
                seq += 1
                ws.send_json({"type": "move", "move": t["legal"][-1]["id"], "seq": seq})
                waiting = True
    assert rounds_seen == list(range(1, 12))


def test_each_person_at_the_table_shows_their_avatar(client: TestClient) -> None:
    assert client.post("/api/settings", json={"name": "Bob", "avatar": "owl"}).status_code == 200
    r = client.post(
        "/api/rooms", json={"game": "three-thirteen", "players": 2, "seats": ["friend"]}
    ).json()
    with client.websocket_connect(WS) as host, client.websocket_connect(WS) as guest:
        host.send_json({"type": "resume", "room": r["room"], "token": r["token"]})
        guest.send_json({"type": "join", "room": r["room"], "name": "Bob"})
        for n, st in enumerate(states(host)):
            seats = st["seats"]
            if seats[1].get("avatar") == "owl" and seats[0].get("avatar") == "fox":
                break
            assert n < 50, seats
    # an AI seat has none (the page draws its own)
    solo = client.post("/api/rooms", json={"game": "three-thirteen", "players": 2}).json()
    with client.websocket_connect(WS) as ws:
        ws.send_json({"type": "resume", "room": solo["room"], "token": solo["token"]})
        for n, st in enumerate(states(ws)):
            if st["seats"][0].get("avatar") == "fox":
                assert "avatar" not in st["seats"][1]
                break
            assert n < 50
