"""The room store writes what changed: a room's logs (its moves) are appended in chunks, so a
save costs the same early and late in a match, and the store gives the whole room back."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Coroutine, Sequence
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from cardcore.errors import IllegalMoveError
from cardcore.web import games
from cardcore.web.rooms import Lobby, Room, RoomSetup, Writes
from cardcore.web.store import RoomStore
from cardcore.web.tables import Outcome, Table


def run(scenario: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(scenario())


def people(lobby: Lobby, players: int = 3, seed: int = 7) -> Room:
    """A Three-Thirteen room of people only (nobody's moves are timed)."""
    setup = RoomSetup(
        "three-thirteen", players, ("friend",) * (players - 1), "greedy", "normal", {}, seed
    )
    room = lobby.create(setup, "Ann")
    for i in range(1, players):
        room.join(f"P{i}")
    return room


def play(room: Room, moves: int) -> None:
    """Each seat to move plays its last legal move (closing its score sheet first)."""
    table = room.table
    assert table is not None
    for _ in range(moves):
        for seat in sorted(table.sheet_open):  # type: ignore[attr-defined]
            room.proceed(room.seats[seat])
        seat = table.turn()
        assert seat is not None
        assert room.outcome is None
        room.move(room.seats[seat], table.view(seat)["legal"][-1]["id"])


def whole(room: Room) -> dict[str, Any]:
    """The room's document as JSON gives it back."""
    doc = room.document()
    assert doc is not None
    out: dict[str, Any] = json.loads(json.dumps(doc))
    return out


def written(writes: Writes) -> int:
    """Characters a save writes: documents and log chunks."""
    return sum(len(t) for _, t in writes.save) + sum(len(c[3]) for c in writes.logs)


def test_a_room_saved_many_times_loads_whole_and_plays_on_the_same(tmp_path: Path) -> None:
    async def scenario() -> None:
        store = RoomStore(tmp_path / "rooms.sqlite3")
        lobby = Lobby(games.table_factory(ai_delay=0))
        room = people(lobby)
        try:
            for _ in range(40):
                play(room, 7)
                store.write(*lobby.pending())
            history = room.table.history  # type: ignore[union-attr]
            assert len(history) == 280
            ((room_id, doc),) = store.load()
            assert room_id == room.id
            assert doc == whole(room)
            again = Lobby(games.table_factory(ai_delay=0)).restore(room_id, doc)
            assert whole(again) == whole(room)
            # both play on alike: the restored game is the same game
            play(room, 30)
            play(again, 30)
            assert whole(again) == whole(room)
            assert again.table.view(0) == room.table.view(0)  # type: ignore[union-attr]
        finally:
            await lobby.close()

    run(scenario)


def test_the_characters_a_save_writes_do_not_grow_with_the_match(tmp_path: Path) -> None:
    async def scenario() -> None:
        store = RoomStore(tmp_path / "rooms.sqlite3")
        lobby = Lobby(games.table_factory(ai_delay=0))
        room = people(lobby, players=4)
        try:
            store.write(*lobby.pending())
            sizes = []
            for _ in range(100):
                play(room, 20)
                writes = lobby.pending()
                sizes.append(written(writes))
                store.write(*writes)
            assert len(room.table.history) == 2000  # type: ignore[union-attr]
            # the first save of the moves wrote them all; later ones only the 20 new moves:
            # the same size to within a few digits (seat and action ids), never the history's
            assert max(sizes) - min(sizes) < 100, sizes
            assert max(sizes) < 2000, sizes
            assert len(json.dumps(whole(room))) > 10 * max(sizes)
            assert store.load() == [(room.id, whole(room))]
            # on the way out (everything) the logs are written whole once more
            writes = lobby.pending(everything=True)
            assert [c[2] for c in writes.logs] == [0]
            store.write(*writes)
            assert store.load() == [(room.id, whole(room))]
        finally:
            await lobby.close()

    run(scenario)


def test_a_save_the_store_did_not_take_is_written_whole_next_time(tmp_path: Path) -> None:
    async def scenario() -> None:
        store = RoomStore(tmp_path / "rooms.sqlite3")
        lobby = Lobby(games.table_factory(ai_delay=0))
        room = people(lobby)
        try:
            play(room, 10)
            store.write(*lobby.pending())
            play(room, 10)
            lost = lobby.pending()  # the write fails: these moves never reach the file
            assert [c[2] for c in lost.logs] == [10]
            lobby.unsaved([r for r, _ in lost.save] + lost.delete)
            play(room, 5)
            writes = lobby.pending()
            assert [c[2] for c in writes.logs] == [0]
            store.write(*writes)
            assert store.load() == [(room.id, whole(room))]
        finally:
            await lobby.close()

    run(scenario)


class LogTable(Table):
    """Seat 0 appends to two logs; ``reset`` empties one (a log that shrinks: written whole)."""

    logs = ("moves", "marks")

    def __init__(self, setup: RoomSetup, agents: Sequence[str | None]) -> None:
        self.players = setup.players
        self.moves: list[list[int]] = []
        self.marks: list[str] = []
        self.note = 0

    def view(self, seat: int) -> dict[str, Any]:
        return {"moves": len(self.moves)}

    def act(self, seat: int, move: int | str, now: float) -> None:
        if move == "reset":
            self.moves = []
        elif isinstance(move, int):
            self.moves.append([seat, move])
            self.note = move
            if move % 3 == 0:
                self.marks.append(f"m{move}")
        else:
            raise IllegalMoveError(f"no move {move!r}")

    def due(self) -> float | None:
        return None

    def tick(self, now: float) -> bool:
        return False

    def snapshot(self) -> dict[str, Any]:
        return {"moves": self.moves, "marks": self.marks, "note": self.note}

    def restore(self, snapshot: Any, now: float) -> None:
        self.moves = [list(m) for m in snapshot["moves"]]
        self.marks = list(snapshot["marks"])
        self.note = snapshot["note"]

    @property
    def outcome(self) -> Outcome | None:
        return None


def test_every_log_of_a_table_is_kept_and_a_shrunk_one_written_whole(tmp_path: Path) -> None:
    async def scenario() -> None:
        store = RoomStore(tmp_path / "rooms.sqlite3")
        lobby = Lobby(LogTable)
        setup = RoomSetup("toy", 1, (), "greedy", "normal", {}, 1)
        room = lobby.create(setup, "Ann")
        try:
            first = lobby.pending()
            assert sorted((c[1], c[2], c[3]) for c in first.logs) == [
                ("marks", 0, "[]"),
                ("moves", 0, "[]"),
            ]
            store.write(*first)
            assert store.load() == [(room.id, whole(room))]
            for n in range(1, 8):
                room.move(room.seats[0], n)
                writes = lobby.pending()
                store.write(*writes)
                assert store.load() == [(room.id, whole(room))]
            assert [c[1:3] for c in writes.logs] == [("moves", 6)]  # no new mark: no chunk
            room.move(room.seats[0], "reset")
            room.move(room.seats[0], 9)
            writes = lobby.pending()
            assert sorted(c[1:3] for c in writes.logs) == [("marks", 2), ("moves", 0)]
            store.write(*writes)
            assert store.load() == [(room.id, whole(room))]
            assert whole(room)["table"]["moves"] == [[0, 9]]
            store.write(*lobby.pending())  # nothing changed: nothing written
            assert lobby.pending() == Writes([], [], [])
        finally:
            await lobby.close()

    run(scenario)


def test_the_store_reads_whole_documents_and_drops_logs_that_do_not_add_up(
    tmp_path: Path,
) -> None:
    store = RoomStore(tmp_path / "rooms.sqlite3")
    old = {"version": 1, "table": {"history": [[0, 1, 0], [1, 2, 0]]}}  # written whole
    split = {"version": 1, "table": {"sheet_open": []}, "logs": {"history": 3}}
    gap = {"version": 1, "table": {}, "logs": {"history": 3}}
    short = {"version": 1, "table": {}, "logs": {"history": 4}}
    stray = {"version": 1, "table": {}}  # chunks of a log its document does not name
    store.write(
        [(k, json.dumps(d)) for k, d in (("old", old), ("split", split), ("gap", gap))]
        + [("short", json.dumps(short)), ("stray", json.dumps(stray))],
        [],
        [
            ("split", "history", 0, "[[0,1,0],[1,2,0]]"),
            ("split", "history", 2, "[[2,3,1]]"),
            ("gap", "history", 0, "[[0,1,0]]"),
            ("gap", "history", 2, "[[2,3,1]]"),
            ("short", "history", 0, "[[0,1,0],[1,2,0],[2,3,1]]"),
            ("stray", "history", 0, "[]"),
            ("nobody", "history", 0, "[]"),
        ],
    )
    loaded = dict(store.load())
    assert loaded == {
        "old": old,
        "split": {
            "version": 1,
            "table": {"sheet_open": [], "history": [[0, 1, 0], [1, 2, 0], [2, 3, 1]]},
        },
    }
    assert dict(store.load()) == loaded  # the rest was deleted, logs and all
    import sqlite3

    db = sqlite3.connect(store.path)
    assert {r for (r,) in db.execute("SELECT DISTINCT room FROM logs")} == {"split"}
    # a chunk at 0 starts its log again; deleting a room deletes its logs
    store.write([], [], [("split", "history", 0, "[[5,5,5]]")])
    store.write([("split", json.dumps({**split, "logs": {"history": 1}}))], [])
    assert dict(store.load())["split"]["table"]["history"] == [[5, 5, 5]]
    store.write([], ["split"])
    assert db.execute("SELECT COUNT(*) FROM logs").fetchone() == (0,)
    assert store.load() == [("old", old)]


def test_a_long_matchs_moves_are_not_walked_by_the_garbage_collector() -> None:
    """A full collection walks every tracked object: the moves a match keeps must not be
    (tuples of ints are untracked once a collection has seen them; lists never are)."""
    import gc

    async def scenario() -> None:
        lobby = Lobby(games.table_factory(ai_delay=0))
        room = people(lobby)
        try:
            play(room, 50)
            gc.collect()
            history = room.table.history  # type: ignore[union-attr]
            assert len(history) == 50
            assert not any(gc.is_tracked(move) for move in history)
        finally:
            await lobby.close()

    run(scenario)


def test_the_server_writes_a_room_whole_after_a_save_that_failed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    import sqlite3

    from cardcore.web.app import ServerConfig, create_app

    async def scenario() -> None:
        app = create_app(ServerConfig(ai_delay=0, data_dir=tmp_path))
        server = app.state.server
        room = people(server.lobby)
        try:
            play(room, 10)
            await server.save_rooms()
            play(room, 10)
            with monkeypatch.context() as m:

                def locked(*args: Any) -> None:
                    raise sqlite3.OperationalError("database is locked")

                m.setattr(server.store, "write", locked)
                await server.save_rooms()  # these 10 moves never reach the file
            assert "could not be saved" in caplog.text
            play(room, 5)
            await server.save_rooms()
            assert server.store.load() == [(room.id, whole(room))]
        finally:
            await server.lobby.close()
            server.store_thread.shutdown(wait=True)

    run(scenario)
