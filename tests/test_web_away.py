"""Away players (issue #29): a friend who leaves on their turn does not freeze the room.

The room's turn timer runs while it is an away person's turn and someone else is at the
table; then an AI plays that seat until its owner comes back. The host can hand a friend's
seat to an AI for good. Driven on a fake clock, the rooms' own event loop and the real
Three-Thirteen table.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Coroutine
from typing import Any

import pytest

pytest.importorskip("starlette")

from cardcore.web import games
from cardcore.web.patch import Mirror
from cardcore.web.rooms import Connection, Lobby, Room, RoomError
from test_web_games import play_out_on_a_fake_clock


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


class Page:
    """A connection and the state it was sent."""

    def __init__(self) -> None:
        self.conn = Connection()
        self.mirror = Mirror()
        self.errors: list[str] = []

    @property
    def state(self) -> dict[str, Any]:
        q = self.conn.outbox
        while not q.empty():
            text = q.get_nowait()
            if text is None:
                continue
            msg = json.loads(text)
            if msg["type"] == "error":
                self.errors.append(msg["message"])
            self.mirror.feed(msg)
        assert self.mirror.state is not None
        return self.mirror.state


async def until(check: Callable[[], bool], what: str) -> None:
    for _ in range(400):
        if check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"never: {what}")


def two_friends(turn_seconds: int = 30) -> tuple[Clock, Lobby, Room, Page, Page]:
    clock = Clock()
    lobby = Lobby(games.table_factory(ai_delay=0), clock=clock)
    body = {"game": "three-thirteen", "players": 2, "seats": ["friend"], "seed": 3}
    setup, host_name, names = games.parse_room_request(
        json.dumps({**body, "name": "Ann", "turn_seconds": turn_seconds}),
        seeded_friend_rooms=True,
    )
    room = lobby.create(setup, host_name, names)
    host, guest = Page(), Page()
    room.attach(room.host, host.conn)
    room.attach(room.join("Bob"), guest.conn)
    return clock, lobby, room, host, guest


def current(room: Room) -> int | None:
    assert room.table is not None
    return room.table.turn()


async def host_plays_until_bobs_turn(room: Room, host: Page) -> None:
    while room.table.match.current != 1:  # type: ignore[union-attr]
        room.move(room.host, host.state["table"]["legal"][-1]["id"])
    assert current(room) == 1


def run(scenario: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(scenario())


def test_an_ai_plays_for_a_friend_who_left_on_their_turn_until_they_return() -> None:
    async def scenario() -> None:
        clock, lobby, room, host, guest = two_friends(turn_seconds=30)
        await host_plays_until_bobs_turn(room, host)
        room.detach(guest.conn)  # Bob closes the tab on his turn
        assert host.state["timer"] == {"seat": 1, "seconds": 30}
        clock.t += 29
        room._wake.set()
        await asyncio.sleep(0.05)
        assert current(room) == 1  # still waiting for Bob
        clock.t += 2
        room._wake.set()
        await until(lambda: room.table.match.current == 0, "the AI played Bob's turn")  # type: ignore[union-attr]
        assert host.state["seats"][1] == {
            "name": "Bob",
            "kind": "human",
            "connected": False,
            "ai_plays": True,
        }
        assert "timer" not in host.state
        # Ann plays; the AI plays Bob's next turn at the AIs' pace, no timer this time
        room.move(room.host, host.state["table"]["legal"][-1]["id"])
        while room.table.match.current == 0:  # type: ignore[union-attr]
            room.move(room.host, host.state["table"]["legal"][-1]["id"])
        clock.t += 1
        room._wake.set()
        await until(lambda: room.table.match.current == 0, "the AI played again")  # type: ignore[union-attr]
        # Bob comes back: his seat is his again, and the timer waits for him on his turn
        back = Page()
        room.attach(room.seat_for(room.seats[1].token or ""), back.conn)
        assert "ai_plays" not in back.state["seats"][1]
        await host_plays_until_bobs_turn(room, host)
        clock.t += 3600
        room._wake.set()
        await asyncio.sleep(0.05)
        assert current(room) == 1  # he is here: nobody plays for him
        await lobby.close()

    run(scenario)


def test_no_timer_when_nobody_waits_or_when_it_is_off() -> None:
    async def scenario() -> None:
        clock, lobby, room, host, guest = two_friends(turn_seconds=30)
        await host_plays_until_bobs_turn(room, host)
        room.detach(guest.conn)
        room.detach(host.conn)  # nobody at the table: nothing to hurry
        assert room.away_due() is None
        await lobby.close()

        clock, lobby, room, host, guest = two_friends(turn_seconds=0)
        await host_plays_until_bobs_turn(room, host)
        room.detach(guest.conn)
        clock.t += 10**6
        room._wake.set()
        await asyncio.sleep(0.05)
        assert current(room) == 1
        assert "timer" not in host.state
        await lobby.close()

    run(scenario)


def test_the_host_hands_a_seat_to_an_ai_for_good() -> None:
    async def scenario() -> None:
        clock, lobby, room, host, guest = two_friends()
        await host_plays_until_bobs_turn(room, host)
        bob = room.seats[1]
        token = bob.token
        with pytest.raises(RoomError, match="only the host"):
            room.hand(bob, 0)
        with pytest.raises(RoomError, match="not a friend's"):
            room.hand(room.host, 0)
        room.hand(room.host, 1)  # Bob is still connected, but no longer plays
        assert guest.conn.closed
        assert guest.state["seat"] == 1
        assert guest.errors == ["the host handed your seat to an AI"]
        assert host.state["seats"][1]["kind"] == "ai"
        clock.t += 1
        room._wake.set()
        await until(lambda: room.table.match.current == 0, "the AI played Bob's turn")  # type: ignore[union-attr]
        with pytest.raises(RoomError, match="does not belong"):
            room.seat_for(token or "")
        await lobby.close()

    run(scenario)


def test_turn_seconds_are_checked() -> None:
    for bad in (5, 3601, -1, True, 30.5, "60"):
        body = {"game": "three-thirteen", "turn_seconds": bad}
        with pytest.raises(ValueError, match="turn_seconds"):
            games.parse_room_request(json.dumps(body))
    setup, _, _ = games.parse_room_request('{"game": "nerts"}')
    assert setup.turn_seconds == 60


def nerts_friends(turn_seconds: int = 30) -> tuple[Clock, Lobby, Room, Page, Page]:
    clock = Clock()
    lobby = Lobby(games.table_factory(ai_delay=0), clock=clock)
    body = {"game": "nerts", "players": 2, "seats": ["friend"], "seed": 5, "name": "Ann"}
    body |= {"turn_seconds": turn_seconds, "options": {"speed": "frantic"}}
    setup, host_name, names = games.parse_room_request(json.dumps(body), seeded_friend_rooms=True)
    room = lobby.create(setup, host_name, names)
    host, guest = Page(), Page()
    room.attach(room.host, host.conn)
    room.attach(room.join("Bob"), guest.conn)
    return clock, lobby, room, host, guest


def plays_of(room: Room, seat: int) -> int:
    """Moves of ``seat`` that went through in the Nerts round in play."""
    events = room.table.state.events  # type: ignore[union-attr]
    return sum(1 for _t, s, _a, status in events if s == seat and status == "ok")


async def run_clock(clock: Clock, room: Room, seconds: float, step: float = 0.5) -> None:
    """Moves the fake clock on in steps, letting the room's driver catch up after each."""
    for _ in range(int(seconds / step)):
        clock.t += step
        room._wake.set()
        await asyncio.sleep(0.005)


def test_nerts_an_ai_plays_for_a_friend_whose_page_is_gone_until_they_return() -> None:
    async def scenario() -> None:
        clock, lobby, room, host, guest = nerts_friends(turn_seconds=30)
        try:
            await run_clock(clock, room, 2)
            room.detach(guest.conn)  # Bob closes the tab in the middle of the round
            assert host.state["timer"] == {"seat": 1, "seconds": 30}
            await run_clock(clock, room, 29)
            assert plays_of(room, 1) == 0  # not yet: the timer runs
            assert "ai_plays" not in host.state["seats"][1]
            await run_clock(clock, room, 12)
            assert host.state["seats"][1]["ai_plays"] is True
            assert "timer" not in host.state
            played = plays_of(room, 1)
            assert played > 0, "the AI never played Bob's piles"
            # Bob comes back: his piles are his again, nobody plays them however long he waits
            back = Page()
            room.attach(room.seat_for(room.seats[1].token or ""), back.conn)
            assert "ai_plays" not in back.state["seats"][1]
            await run_clock(clock, room, 60)
            assert plays_of(room, 1) == played
            assert "timer" not in host.state  # he is here, idle or not
        finally:
            await lobby.close()

    run(scenario)


def test_nerts_no_ai_takes_over_when_the_timer_is_off() -> None:
    async def scenario() -> None:
        clock, lobby, room, host, guest = nerts_friends(turn_seconds=0)
        try:
            room.detach(guest.conn)
            await run_clock(clock, room, 120, step=2)
            assert plays_of(room, 1) == 0
            assert "timer" not in host.state
        finally:
            await lobby.close()

    run(scenario)


def test_nerts_the_host_hands_a_seat_to_an_ai_for_good() -> None:
    async def scenario() -> None:
        clock, lobby, room, host, guest = nerts_friends()
        try:
            await run_clock(clock, room, 1)
            room.hand(room.host, 1)
            assert guest.conn.closed
            assert guest.state["seat"] == 1  # (reads what the page was sent)
            assert guest.errors == ["the host handed your seat to an AI"]
            assert host.state["seats"][1]["kind"] == "ai"
            await run_clock(clock, room, 10)
            assert plays_of(room, 1) > 0
        finally:
            await lobby.close()

    run(scenario)


def test_nerts_stand_in_moves_are_in_the_verified_replay_and_survive_a_restart() -> None:
    from cardcore.games.base import get_game

    body = {"game": "nerts", "seats": ["friend"], "seed": 5}
    body["options"] = {"target_score": 5, "nerts_pile_size": 4, "speed": "frantic"}
    setup, _, _ = games.parse_room_request(json.dumps(body), seeded_friend_rooms=True)
    make = games.table_factory(ai_delay=0)
    table = make(setup, [None, None])
    assert table.stand_in(1, True)
    assert not table.stand_in(1, True)
    snapshot = table.snapshot()
    assert snapshot is not None
    assert snapshot["stand_ins"] == [1]
    again = make(setup, [None, None])
    again.restore(snapshot, 0.0)
    assert not again.stand_in(1, True)  # already played by an AI
    play_out_on_a_fake_clock(table)  # Ann never moves: the stand-in wins every round
    assert table.outcome is not None
    assert table.outcome.winner == 1
    record = table.outcome.record
    assert record["agents"] == ["human", "human"]  # the seat is a person's, played for them
    get_game("nerts").verify_replay(record)
