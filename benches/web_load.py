"""Load on loopback: simulated browsers playing Three-Thirteen in rooms of four people.

    python benches/web_load.py                      # 200 clients, 50 rooms, 60 s
    python benches/web_load.py --clients 20 --rooms 5 --seconds 3
    python benches/web_load.py --json               # the figures as one JSON object

The server runs in its own process (``cardcore.web`` under uvicorn on 127.0.0.1); each room
has four human seats (no AI), and each client plays a legal move as soon as it is its turn.
Prints the move round trip (send -> the state that acknowledges it) as median and p99, the
errors seen, and the CPU time per move of the server and of the simulated clients (on a busy
machine the latencies mostly measure the other work; CPU per move much less). Traffic stays on
127.0.0.1; every loop is bounded in time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

SERVER = """
import sys, uvicorn
from cardcore.web.app import ServerConfig, create_app, uvicorn_options
app = create_app(ServerConfig(ai_delay=0, room_burst=10_000, room_rate=10_000,
                              max_rooms=10_000, message_rate=1_000, message_burst=2_000))
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), **uvicorn_options())
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) a process has used so far (Linux ``/proc``; 0 elsewhere). CPU
    per move is the figure that a busy machine does not change much; latencies it does."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def create_room(base: str) -> dict[str, Any]:
    body = json.dumps(
        {"game": "three-thirteen", "players": 4, "seats": ["friend"] * 3, "name": "Host"}
    ).encode()
    req = urllib.request.Request(
        base + "/api/rooms", data=body, headers={"content-type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=10) as r:
        out: dict[str, Any] = json.loads(r.read())
        return out


async def client(
    ws_url: str, hello: dict[str, Any], stop: float, rtts: list[float], errors: list[str]
) -> None:
    import websockets

    async with websockets.connect(ws_url, max_size=2**22) as ws:
        await ws.send(json.dumps(hello))
        seq, sent_at, pending = 0, 0.0, False
        sheet_sent = False
        while time.monotonic() < stop:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.01, stop - time.monotonic()))
            except TimeoutError:
                break
            msg = json.loads(raw)
            if msg["type"] == "error":
                errors.append(msg["message"])
                pending = False
                continue
            if msg["type"] != "state" or msg["status"] != "playing":
                continue
            if pending and msg.get("ack") == seq:
                rtts.append(time.perf_counter() - sent_at)
                pending = False
            t = msg["table"]
            if t["sheet_open"]:
                if not sheet_sent:
                    await ws.send('{"type":"next"}')
                    sheet_sent = True
                continue
            sheet_sent = False
            if t["legal"] and not pending:
                seq += 1
                pending, sent_at = True, time.perf_counter()
                move = t["legal"][-1]["id"]
                await ws.send(json.dumps({"type": "move", "move": move, "seq": seq}))


async def run(clients: int, rooms: int, seconds: float, port: int) -> dict[str, Any]:
    base = f"http://127.0.0.1:{port}"
    ws_url = f"ws://127.0.0.1:{port}/ws"
    per_room = clients // rooms
    rtts: list[float] = []
    errors: list[str] = []
    tasks = []
    stop = time.monotonic() + seconds
    for _ in range(rooms):
        room = create_room(base)
        hellos = [{"type": "resume", "room": room["room"], "token": room["token"]}]
        hellos += [
            {"type": "join", "room": room["room"], "name": f"P{i}"} for i in range(1, per_room)
        ]
        for hello in hellos:
            tasks.append(asyncio.create_task(client(ws_url, hello, stop, rtts, errors)))
            await asyncio.sleep(0)
    results = await asyncio.gather(*tasks, return_exceptions=True)
    errors += [repr(r) for r in results if isinstance(r, BaseException)]
    return {"rtts": rtts, "errors": errors}


def load(clients: int = 200, rooms: int = 50, seconds: float = 60.0) -> dict[str, Any]:
    """Runs the load; returns moves, median/p99 round trip (ms) and errors."""
    port = free_port()
    server = subprocess.Popen([sys.executable, "-c", SERVER, str(port)])
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise RuntimeError("the server did not start") from None
                time.sleep(0.05)
        client_cpu = time.process_time()
        out = asyncio.run(run(clients, rooms, seconds, port))
        client_cpu = time.process_time() - client_cpu
        server_cpu = cpu_seconds(server.pid)
    finally:
        server.terminate()
        server.wait(10)
    rtts = sorted(out["rtts"])
    ms = [r * 1000 for r in rtts]
    return {
        "clients": clients,
        "rooms": rooms,
        "seconds": seconds,
        "moves": len(ms),
        "median_ms": statistics.median(ms) if ms else None,
        "p99_ms": ms[min(len(ms) - 1, int(len(ms) * 0.99))] if ms else None,
        "errors": out["errors"],
        "server_cpu_ms_per_move": 1000 * server_cpu / len(ms) if ms else None,
        "client_cpu_ms_per_move": 1000 * client_cpu / len(ms) if ms else None,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, default=200)
    ap.add_argument("--rooms", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    a = ap.parse_args()
    r = load(a.clients, a.rooms, a.seconds)
    if a.json:
        print(json.dumps(r))
        return
    print(
        "| clients | rooms | seconds | moves | moves/s | median ms | p99 ms | errors |"
        " server CPU ms/move | client CPU ms/move |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    print(
        f"| {r['clients']} | {r['rooms']} | {r['seconds']:.0f} | {r['moves']} |"
        f" {r['moves'] / r['seconds']:.0f} | {r['median_ms']:.1f} | {r['p99_ms']:.1f} |"
        f" {len(r['errors'])} | {r['server_cpu_ms_per_move']:.2f} |"
        f" {r['client_cpu_ms_per_move']:.2f} |"
    )
    if r["errors"]:
        print("errors:", sorted(set(r["errors"]))[:5])


if __name__ == "__main__":
    main()
