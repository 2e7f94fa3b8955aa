"""Load on loopback: simulated browsers playing Three-Thirteen in rooms of four people.

    python benches/web_load.py                      # 200 clients, 50 rooms, 60 s
    python benches/web_load.py --clients 20 --rooms 5 --seconds 3
    python benches/web_load.py --json               # the figures as one JSON object
    python benches/web_load.py --server-path OTHER/python   # serve another checkout's code
    python benches/web_load.py --callgrind          # server instructions a move (valgrind)

The server runs in its own process (``cardcore.web`` under uvicorn on 127.0.0.1); each room
has four human seats (no AI), and each client plays a legal move as soon as it is its turn.
A client does what a page does with every frame: it receives it, parses its JSON and applies
it to its copy of the state (:class:`cardcore.web.patch.Mirror`); it reads its legal moves
from that copy. It is kept lean (one timeout for its whole run, no task a frame) because it
shares the machine's cores with the server: its own cost shows in the round trips.

Prints the move round trip (send -> the state that acknowledges it) as median (p50) and p99,
moves a second, the errors seen, the CPU time per move of the server (user and system, from
when it accepts connections: its start is not counted) and of the simulated clients (on a
busy machine the latencies mostly measure the other work; CPU per move much less), the bytes
the clients received per move, and the machine's load average before and after. Then the
server's pauses on its event loop that the tail can show: the rooms' saves (about once a
second; the clean stop's not counted) and its full garbage collections, how many and their
CPU milliseconds.

``--callgrind`` runs the server under valgrind's callgrind instead (by default 20 clients in
5 rooms): once ``--warm`` moves (200) were acknowledged its counters are zeroed, after
``--moves`` more (800) they are dumped, and the instructions are divided by the moves
acknowledged in between (start-up, imports and handshakes not counted). That server keeps no
data folder: under valgrind it plays about 50 times fewer moves a second, so the rooms' saving,
about once a second, would count 50 times what it costs a move at full speed. Instruction
counts hardly change with the machine's load, where CPU times do. Traffic stays on 127.0.0.1;
every loop is bounded in time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

SERVER = """
import sys, uvicorn
from cardcore.web.app import ServerConfig, create_app, uvicorn_options
flags = [a for a in sys.argv[2:] if a.startswith("--")]
loop = [a for a in sys.argv[2:] if not a.startswith("--")]
fields = ServerConfig.__dataclass_fields__  # older checkouts (--server-path) lack some
extra = {"max_unjoined": 10_000} if "max_unjoined" in fields else {}
if "save_every" in fields and "--no-store" not in flags:  # rooms saved, as serve does
    import tempfile
    from pathlib import Path
    extra["data_dir"] = Path(tempfile.mkdtemp(prefix="cardcore-web-load-"))
for flag in flags:
    if flag.startswith("--stalls="):
        import gc, time
        from cardcore.web.rooms import Lobby
        out = open(flag.split("=", 1)[1], "a", buffering=1)
        pending = Lobby.pending
        def timed(self, everything=False):
            start = time.thread_time()
            try:
                return pending(self, everything)
            finally:
                if not everything:  # the clean stop's whole save is not a tick's
                    out.write(f"save {time.monotonic()} {time.thread_time() - start:.6f}\\n")
        Lobby.pending = timed
        began = [0.0]
        def collected(phase, info):
            if info["generation"] < 2:
                return
            if phase == "start":
                began[0] = time.thread_time()
            else:
                out.write(f"gc {time.monotonic()} {time.thread_time() - began[0]:.6f}\\n")
        gc.callbacks.append(collected)
app = create_app(ServerConfig(ai_delay=0, room_burst=10_000, room_rate=10_000,
                              max_rooms=10_000, message_rate=1_000, message_burst=2_000,
                              **extra))
options = uvicorn_options()
if loop:
    options["loop"] = loop[0]
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), **options)
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def cpu_split(pid: int) -> tuple[float, float]:
    """User and system CPU seconds a process has used so far (Linux ``/proc``; zeros
    elsewhere). CPU per move is the figure that a busy machine does not change much;
    latencies it does."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0, 0.0
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


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
    acks: list[tuple[float, float]],
    errors: list[str],
    received: list[int],
) -> None:
    """One page: every frame received, parsed and applied; a move sent whenever the page's
    copy of the state offers one. ``acks`` gets ``(round trip, when acknowledged)`` per move
    (``time.perf_counter`` seconds)."""
    import websockets

    from cardcore.web.patch import Mirror

    mirror = Mirror()
    loads, clock = json.loads, time.perf_counter
    async with websockets.connect(ws_url, max_size=2**22) as ws:
        await ws.send(json.dumps(hello))
        seq, sent_at, pending = 0, 0.0, False
        sheet_sent = False
        try:
            async with asyncio.timeout(max(0.01, stop - time.monotonic())):
                async for raw in ws:
                    received[0] += len(raw)
                    msg = loads(raw)
                    if msg["type"] == "error":
                        errors.append(msg["message"])
                        pending = False
                        continue
                    if not mirror.feed(msg):
                        continue
                    if pending and msg.get("ack") == seq:
                        now = clock()
                        acks.append((now - sent_at, now))
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
                        pending, sent_at = True, clock()
                        move = t["legal"][-1]["id"]
                        await ws.send(f'{{"type":"move","move":{move},"seq":{seq}}}')
        except TimeoutError:
            pass


async def run(
    clients: int,
    rooms: int,
    seconds: float,
    port: int,
    window: tuple[int, int, Any, Any] | None = None,
) -> dict[str, Any]:
    """Plays for ``seconds``. ``window``: ``(warm-up moves, measured moves, start, end)``:
    ``start()`` runs (blocking, in a thread) once the warm-up moves were acknowledged,
    ``end()`` once the measured ones were too (or at the end); the moves acknowledged in
    between are counted."""
    base = f"http://127.0.0.1:{port}"
    ws_url = f"ws://127.0.0.1:{port}/ws"
    per_room = clients // rooms
    acks: list[tuple[float, float]] = []
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
            tasks.append(asyncio.create_task(client(ws_url, hello, stop, acks, errors, received)))
            await asyncio.sleep(0)
    measured = None
    if window is not None:
        warm, moves, start, end = window
        while len(acks) < warm and time.monotonic() < stop:
            await asyncio.sleep(0.1)
        await asyncio.to_thread(start)
        t0 = time.perf_counter()
        while len(acks) < warm + moves and time.monotonic() < stop - 1:
            await asyncio.sleep(0.1)
        t1 = time.perf_counter()
        await asyncio.to_thread(end)
        measured = sum(1 for _, at in acks if t0 <= at <= t1)
    results = await asyncio.gather(*tasks, return_exceptions=True)
    errors += [repr(r) for r in results if isinstance(r, BaseException)]
    return {"acks": acks, "errors": errors, "received": received[0], "measured": measured}


def _start_server(
    port: int,
    server_path: str | None,
    loop: str | None,
    prefix: list[str],
    wait: float,
    store: bool = True,
    stalls: Path | None = None,
) -> subprocess.Popen[bytes]:
    env = dict(os.environ)
    if server_path:
        env["PYTHONPATH"] = os.pathsep.join(p for p in (server_path, env.get("PYTHONPATH")) if p)
    args = [*prefix, sys.executable, "-c", SERVER, str(port), *([loop] if loop else [])]
    args += [] if store else ["--no-store"]
    args += [] if stalls is None else [f"--stalls={stalls}"]
    server = subprocess.Popen(args, env=env)
    deadline = time.monotonic() + wait
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return server
        except OSError:
            if time.monotonic() > deadline or server.poll() is not None:
                server.terminate()
                raise RuntimeError("the server did not start") from None
            time.sleep(0.05)


def load(
    clients: int = 200,
    rooms: int = 50,
    seconds: float = 60.0,
    server_path: str | None = None,
    loop: str | None = None,
) -> dict[str, Any]:
    """Runs the load; returns moves, moves a second, median/p99 round trip (ms), errors and
    CPU a move. ``server_path``: a folder put first on the server's ``PYTHONPATH`` (another
    checkout's ``python/``); ``loop``: the server's event loop (uvicorn's ``asyncio`` or
    ``uvloop``; default: the server's own choice)."""
    port = free_port()
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="cardcore-web-load-") as tmp:
        log = Path(tmp) / "stalls"
        server = _start_server(port, server_path, loop, [], 30, stalls=log)
        try:
            client_cpu, since = time.process_time(), time.monotonic()
            started = cpu_split(server.pid)  # starting up (imports) is not the moves' cost
            out = asyncio.run(run(clients, rooms, seconds, port))
            client_cpu = time.process_time() - client_cpu
            ended = cpu_split(server.pid)
        finally:
            server.terminate()
            server.wait(10)
        lines = [line.split() for line in log.read_text().splitlines()] if log.exists() else []
        # from when it accepts connections, as its CPU (a collection while importing: not)
        stalls = [(k, float(c)) for k, t, c in lines if float(t) >= since]
    user, system = ended[0] - started[0], ended[1] - started[1]
    ms = sorted(rtt * 1000 for rtt, _ in out["acks"])
    n = len(ms)
    return {
        "clients": clients,
        "rooms": rooms,
        "seconds": seconds,
        "moves": n,
        "moves_per_second": n / seconds,
        "median_ms": statistics.median(ms) if ms else None,
        "p99_ms": ms[min(n - 1, int(n * 0.99))] if ms else None,
        "errors": out["errors"],
        "kb_per_move": out["received"] / 1000 / n if n else None,
        "load_average": [load_before, os.getloadavg()[0]],
        "server_cpu_ms_per_move": 1000 * (user + system) / n if n else None,
        "server_user_ms_per_move": 1000 * user / n if n else None,
        "server_system_ms_per_move": 1000 * system / n if n else None,
        "client_cpu_ms_per_move": 1000 * client_cpu / n if n else None,
        "saves_cpu_ms": _spread(stalls, "save"),
        "full_collections_cpu_ms": _spread(stalls, "gc"),
    }


def _spread(log: list[tuple[str, float]], kind: str) -> dict[str, float | int | None]:
    """How many of the server's pauses in ``log`` are of ``kind`` (``save``: the rooms' saving
    on the event loop, ``gc``: a full garbage collection), and their CPU milliseconds: mean
    and most."""
    ms = [1000 * v for k, v in log if k == kind]
    return {
        "count": len(ms),
        "mean": statistics.fmean(ms) if ms else None,
        "max": max(ms) if ms else None,
    }


def callgrind(
    clients: int = 20,
    rooms: int = 5,
    moves: int = 800,
    warm: int = 200,
    server_path: str | None = None,
    seconds: float = 600.0,
) -> dict[str, Any]:
    """The server's instructions a move under callgrind (see the module's docstring), over
    ``moves`` moves after ``warm`` (a fixed count: a move's cost grows as a round goes on,
    so a faster server would otherwise be measured later in its games)."""
    valgrind, control = shutil.which("valgrind"), shutil.which("callgrind_control")
    if valgrind is None or control is None:
        raise RuntimeError("--callgrind needs valgrind and callgrind_control on the PATH")
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="cardcore-web-callgrind-") as tmp:
        out_file = Path(tmp) / "callgrind.out"
        prefix = [valgrind, "--tool=callgrind", f"--callgrind-out-file={out_file}", "-q"]
        server = _start_server(port, server_path, None, prefix, 600, store=False)
        pid = str(server.pid)

        def control_run(flag: str) -> None:
            subprocess.run([control, flag, pid], check=True, capture_output=True, timeout=120)

        try:
            out = asyncio.run(
                run(
                    clients,
                    rooms,
                    seconds,
                    port,
                    (warm, moves, lambda: control_run("-z"), lambda: control_run("-d")),
                )
            )
        finally:
            server.terminate()
            server.wait(120)
        dumps = sorted(Path(tmp).glob("callgrind.out.*"))
        if not dumps:
            raise RuntimeError("callgrind wrote no dump")
        totals = [line for line in dumps[0].read_text().splitlines() if line.startswith("totals:")]
        instructions = int(totals[0].split()[1])
    moves = out["measured"]
    return {
        "clients": clients,
        "rooms": rooms,
        "moves": moves,
        "instructions": instructions,
        "instructions_per_move": instructions / moves if moves else None,
        "errors": out["errors"],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, help="simulated pages (default 200; 20 --callgrind)")
    ap.add_argument("--rooms", type=int, help="rooms of four (default 50; 5 with --callgrind)")
    ap.add_argument(
        "--seconds", type=float, help="seconds played (default 60; at most 600 with --callgrind)"
    )
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--server-path", help="serve the code of another checkout's python/ folder")
    ap.add_argument("--loop", choices=("asyncio", "uvloop"), help="the server's event loop")
    ap.add_argument("--callgrind", action="store_true", help="count server instructions a move")
    ap.add_argument("--moves", type=int, default=800, help="--callgrind: moves measured")
    ap.add_argument("--warm", type=int, default=200, help="--callgrind: moves before")
    a = ap.parse_args()
    if a.callgrind:
        c = callgrind(
            a.clients or 20, a.rooms or 5, a.moves, a.warm, a.server_path, a.seconds or 600.0
        )
        if a.json:
            print(json.dumps(c))
            return
        print(
            f"server under callgrind, {c['clients']} clients in {c['rooms']} rooms:"
            f" {c['moves']} moves measured after {a.warm},"
            f" {c['instructions_per_move'] / 1e6:.3f} M instructions a move,"
            f" {len(c['errors'])} errors"
        )
        return
    r = load(a.clients or 200, a.rooms or 50, a.seconds or 60.0, a.server_path, a.loop)
    if a.json:
        print(json.dumps(r))
        return
    print(
        "| clients | rooms | seconds | moves | moves/s | p50 ms | p99 ms | errors |"
        " server CPU ms/move (user + system) | client CPU ms/move | KB/move | load average |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    print(
        f"| {r['clients']} | {r['rooms']} | {r['seconds']:.0f} | {r['moves']} |"
        f" {r['moves_per_second']:.0f} | {r['median_ms']:.1f} | {r['p99_ms']:.1f} |"
        f" {len(r['errors'])} | {r['server_cpu_ms_per_move']:.3f}"
        f" ({r['server_user_ms_per_move']:.3f} + {r['server_system_ms_per_move']:.3f}) |"
        f" {r['client_cpu_ms_per_move']:.3f} | {r['kb_per_move']:.2f} |"
        f" {r['load_average'][0]:.1f}–{r['load_average'][1]:.1f} |"
    )
    for name, key in (
        ("the rooms' saves (once a second)", "saves_cpu_ms"),
        ("full garbage collections", "full_collections_cpu_ms"),
    ):
        p = r[key]
        if p["count"]:
            print(
                f"server {name}: {p['count']}, CPU {p['mean']:.2f} ms mean, {p['max']:.2f} ms most"
            )
    if r["errors"]:
        print("errors:", sorted(set(r["errors"]))[:5])


if __name__ == "__main__":
    main()
