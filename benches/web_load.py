"""Load on loopback: simulated browsers playing Three-Thirteen in rooms of four people.

    python benches/web_load.py                      # 200 clients, 50 rooms, 60 s
    python benches/web_load.py --clients 20 --rooms 5 --seconds 3
    python benches/web_load.py --json               # the figures as one JSON object
    python benches/web_load.py --server-path OTHER/python   # serve another checkout's code

The server runs in its own process (``cardcore.web`` under uvicorn on 127.0.0.1); each room
has four human seats (no AI), and each client plays a legal move as soon as it is its turn.
Prints the move round trip (send -> the state that acknowledges it) as median and p99, the
errors seen, the CPU time per move of the server (from when it accepts connections: its start
is not counted) and of the simulated clients (on a busy
machine the latencies mostly measure the other work; CPU per move much less), the bytes the
clients received per move, and the machine's load average before and after. Traffic stays on
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
fields = ServerConfig.__dataclass_fields__  # older checkouts (--server-path) lack some
extra = {"max_unjoined": 10_000} if "max_unjoined" in fields else {}
if "save_every" in fields:  # rooms saved to a data folder, as cardcore serve does
    import tempfile
    from pathlib import Path
    extra["data_dir"] = Path(tempfile.mkdtemp(prefix="cardcore-web-load-"))
app = create_app(ServerConfig(ai_delay=0, room_burst=10_000, room_rate=10_000,
                              max_rooms=10_000, message_rate=1_000, message_burst=2_000,
                              **extra))
options = uvicorn_options()
if len(sys.argv) > 2:
    options["loop"] = sys.argv[2]
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), **options)
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
    ws_url: str,
    hello: dict[str, Any],
    stop: float,
    rtts: list[float],
    errors: list[str],
    received: list[int],
) -> None:
    import websockets

    from cardcore.web.patch import Mirror

    mirror = Mirror()
    async with websockets.connect(ws_url, max_size=2**22) as ws:
        await ws.send(json.dumps(hello))
        seq, sent_at, pending = 0, 0.0, False
        sheet_sent = False
        while time.monotonic() < stop:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.01, stop - time.monotonic()))
            except TimeoutError:
                break
            received[0] += len(raw)
            msg = json.loads(raw)
            if msg["type"] == "error":
                errors.append(msg["message"])
                pending = False
                continue
            if not mirror.feed(msg):
                continue
            if pending and msg.get("ack") == seq:
                rtts.append(time.perf_counter() - sent_at)
                pending = False
            state = mirror.state
            assert state is not None
            if state["status"] != "playing":
                continue
            t = state["table"]
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
    received = [0]
    tasks = []
    stop = time.monotonic() + seconds
    for _ in range(rooms):
        room = create_room(base)
        hellos = [{"type": "resume", "room": room["room"], "token": room["token"]}]
        hellos += [
            {"type": "join", "room": room["room"], "name": f"P{i}"} for i in range(1, per_room)
        ]
        for hello in hellos:
            tasks.append(asyncio.create_task(client(ws_url, hello, stop, rtts, errors, received)))
            await asyncio.sleep(0)
    results = await asyncio.gather(*tasks, return_exceptions=True)
    errors += [repr(r) for r in results if isinstance(r, BaseException)]
    return {"rtts": rtts, "errors": errors, "received": received[0]}


def load(
    clients: int = 200,
    rooms: int = 50,
    seconds: float = 60.0,
    server_path: str | None = None,
    loop: str | None = None,
) -> dict[str, Any]:
    """Runs the load; returns moves, median/p99 round trip (ms) and errors. ``server_path``:
    a folder put first on the server's ``PYTHONPATH`` (another checkout's ``python/``);
    ``loop``: the server's event loop (uvicorn's ``asyncio`` or ``uvloop``; default: the
    server's own choice)."""
    port = free_port()
    env = dict(os.environ)
    if server_path:
        env["PYTHONPATH"] = os.pathsep.join(p for p in (server_path, env.get("PYTHONPATH")) if p)
    load_before = os.getloadavg()[0]
    args = [sys.executable, "-c", SERVER, str(port), *([loop] if loop else [])]
    server = subprocess.Popen(args, env=env)
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
        started = cpu_seconds(server.pid)  # starting up (imports) is not the moves' cost
        out = asyncio.run(run(clients, rooms, seconds, port))
        client_cpu = time.process_time() - client_cpu
        server_cpu = cpu_seconds(server.pid) - started
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
        "kb_per_move": out["received"] / 1000 / len(ms) if ms else None,
        "load_average": [load_before, os.getloadavg()[0]],
        "server_cpu_ms_per_move": 1000 * server_cpu / len(ms) if ms else None,
        "client_cpu_ms_per_move": 1000 * client_cpu / len(ms) if ms else None,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, default=200)
    ap.add_argument("--rooms", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--server-path", help="serve the code of another checkout's python/ folder")
    ap.add_argument("--loop", choices=("asyncio", "uvloop"), help="the server's event loop")
    a = ap.parse_args()
    r = load(a.clients, a.rooms, a.seconds, a.server_path, a.loop)
    if a.json:
        print(json.dumps(r))
        return
    print(
        "| clients | rooms | seconds | moves | moves/s | median ms | p99 ms | errors |"
        " server CPU ms/move | client CPU ms/move | KB/move | load average |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    print(
        f"| {r['clients']} | {r['rooms']} | {r['seconds']:.0f} | {r['moves']} |"
        f" {r['moves'] / r['seconds']:.0f} | {r['median_ms']:.1f} | {r['p99_ms']:.1f} |"
        f" {len(r['errors'])} | {r['server_cpu_ms_per_move']:.2f} |"
        f" {r['client_cpu_ms_per_move']:.2f} | {r['kb_per_move']:.2f} |"
        f" {r['load_average'][0]:.1f}–{r['load_average'][1]:.1f} |"
    )
    if r["errors"]:
        print("errors:", sorted(set(r["errors"]))[:5])


if __name__ == "__main__":
    main()
