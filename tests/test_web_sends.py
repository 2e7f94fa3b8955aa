"""A page's messages leave in order whether the server's send finishes at once (sent in the
caller's step, :class:`cardcore.web.app._Eager`) or has to wait (a full socket buffer: the rest
queue behind it in the outbox, which the writer task sends after it)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

pytest.importorskip("starlette")

from cardcore.web.app import _Eager, _write
from cardcore.web.rooms import Connection


class FakeSocket:
    """``send_text`` finishes at once unless its text has a closed gate (then it waits for
    it); two sends at the same time are noted (ASGI servers do not promise to allow them)."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.gates: dict[str, asyncio.Event] = {}
        self.active = 0
        self.overlapped = False
        self.closed: int | None = None

    def gate(self, text: str) -> asyncio.Event:
        self.gates[text] = asyncio.Event()
        return self.gates[text]

    async def send_text(self, text: str) -> None:
        self.active += 1
        self.overlapped |= self.active > 1
        try:
            if text in self.gates:
                await self.gates[text].wait()
            self.sent.append(text)
        finally:
            self.active -= 1

    async def close(self, code: int = 1000) -> None:
        self.closed = code


async def settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0)


def test_messages_leave_in_order_and_one_at_a_time_when_a_send_must_wait() -> None:
    async def scenario() -> None:
        ws, conn = FakeSocket(), Connection()
        eager = _Eager(ws)  # type: ignore[arg-type]
        conn.send_now = eager.send
        writer = asyncio.create_task(_write(ws, conn, eager))  # type: ignore[arg-type]
        await settle()
        conn.push_text("1")
        assert ws.sent == ["1"]  # in this step: no task switch
        assert conn.outbox.empty()
        two, three = ws.gate("2"), ws.gate("3")  # the socket's buffer is full
        conn.push_text("2")  # started, waits
        conn.push_text("3")  # queued behind it: the writer waits for "2" first
        await settle()
        two.set()
        await settle()
        assert ws.sent == ["1", "2"]  # the writer now sends "3", which waits
        conn.push_text("4")  # the writer is busy: queued
        await settle()
        three.set()
        await settle()
        assert ws.sent == ["1", "2", "3", "4"]
        assert not ws.overlapped
        conn.push_text("5")  # nothing waits: at once again
        assert ws.sent[-1] == "5"
        conn.close()
        await asyncio.wait_for(writer, 1)
        assert ws.closed == 1000

    asyncio.run(scenario())


def test_a_send_that_fails_at_once_leaves_the_message_to_the_writer() -> None:
    class Broken(FakeSocket):
        async def send_text(self, text: str) -> Any:
            raise RuntimeError("closed")

    async def scenario() -> None:
        ws, conn = Broken(), Connection()
        eager = _Eager(ws)  # type: ignore[arg-type]
        conn.send_now = eager.send
        conn.push_text("1")
        assert conn.outbox.qsize() == 1  # the writer meets the same error and stops

    asyncio.run(scenario())
