"""Hashes behind the golden outputs of ``tests/test_golden_sim.py``: a `cardcore sim` run's
records and replays files, and seeded random playthroughs of the embedding protocol.

Shared by the test and by its generator ``tests/data/make_golden_sim.py`` (which also holds
the table of runs). ``cardcore_version`` is the one field allowed to differ from the version
that wrote the golden file: a run's output has the running version replaced by
:data:`GOLDEN_VERSION` before it is hashed, as ``tests/test_replay_golden.py`` does, so a
stored hash is the sha256 of the very files 0.4.0 wrote."""

from __future__ import annotations

import hashlib
import json
import shlex
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from click.testing import CliRunner

import cardcore
from cardcore import Rng, load_game
from cardcore.cli import cli

GOLDEN_FILE = Path(__file__).parent / "data" / "golden-sim-0.4.0.json"
GOLDEN_VERSION = "0.4.0"
"""The ``cardcore_version`` that wrote the golden hashes."""

TICK_MS = 100
"""Nerts playthroughs: the clock advances in ticks of this length (``docs/embedding.md``)."""


def normalised(data: bytes) -> bytes:
    """``data`` with the running ``cardcore_version`` written as :data:`GOLDEN_VERSION`."""
    running = f'"cardcore_version":"{cardcore.__version__}"'.encode()
    return data.replace(running, f'"cardcore_version":"{GOLDEN_VERSION}"'.encode())


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def sim_hashes(args: str, tmp: Path) -> dict[str, str]:
    """Runs ``cardcore sim ARGS -q -o RECORDS --replays REPLAYS`` in this process (files in
    ``tmp``) and returns the sha256 of both files, normalised. Raises ``AssertionError`` with
    the CLI's output when the command fails."""
    records, replays = tmp / "records.jsonl", tmp / "replays.jsonl"
    argv = ["sim", *shlex.split(args), "-q", "-o", str(records), "--replays", str(replays)]
    result = CliRunner().invoke(cli, argv)
    if result.exit_code != 0:
        raise AssertionError(
            f"cardcore {shlex.join(argv)} exited {result.exit_code}:\n{result.output}"
        )
    return {
        "records_sha256": sha256(normalised(records.read_bytes())),
        "replays_sha256": sha256(normalised(replays.read_bytes())),
    }


class _Digests:
    """One running sha256 per part of a playthrough, plus the step count."""

    PARTS = ("legal_actions", "observation_json", "observation_tensor", "state_json")

    def __init__(self) -> None:
        self.h = {part: hashlib.sha256() for part in self.PARTS}
        self.steps = 0

    def add(self, part: str, data: bytes) -> None:
        h = self.h[part]
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)

    def result(self) -> dict[str, Any]:
        return {"steps": self.steps, **{p: h.hexdigest() for p, h in self.h.items()}}


def _ints(xs: Sequence[int]) -> bytes:
    return json.dumps(list(xs), separators=(",", ":")).encode()


def protocol_hashes(
    game: str, options: dict[str, Any], seed: int, agents: Sequence[str | None] | None = None
) -> dict[str, Any]:
    """A seeded random playthrough of ``load_game(game, **options).new_state(seed)``: at every
    step (and once at the end) the legal actions, every seat's observation JSON and tensor,
    and ``to_json()`` go into one digest per part. Actions are drawn with ``Rng(seed)``: half
    the time the lowest legal id, else a uniform one.

    Nerts (real time, no seat to play) advances in ticks of :data:`TICK_MS`: at each tick
    every seat with nothing scheduled submits a random legal action or waits (one draw in
    ``legal + 1``), then the clock moves one tick; a step is a tick. ``agents`` (Nerts only)
    names an agent the clock drives per seat, ``None`` for a seat played at random here."""
    g = load_game(game, **options)
    state = g.new_state(seed, agents=agents) if agents is not None else g.new_state(seed)  # type: ignore[call-arg]
    rng = Rng(seed)
    d = _Digests()
    seats = range(g.num_players)
    realtime = g.realtime

    def snapshot() -> None:
        for seat in seats if realtime else [state.current_player]:
            if seat is not None:
                legal = state.legal_actions(seat) if realtime else state.legal_actions()
                d.add("legal_actions", _ints(legal))
        for seat in seats:
            d.add("observation_json", state.observation_json(seat).encode())
            d.add("observation_tensor", state.observation_tensor(seat).tobytes())
        d.add("state_json", state.to_json().encode())

    while not state.is_over:
        snapshot()
        if realtime:
            now = state.now
            for seat in seats:
                if (agents is not None and agents[seat] is not None) or state.pending(seat):
                    continue
                legal = state.legal_actions(seat)
                pick = rng.below(len(legal) + 1)
                if pick < len(legal):
                    state.submit(seat, legal[pick], now)
            state.advance_to(now + TICK_MS)
        else:
            legal = state.legal_actions()
            # half the time the lowest id (Spite & Malice: plays to the centre come first, so
            # games run longer than under uniform play, which mostly ties early)
            state.apply(legal[0] if rng.below(2) else legal[rng.below(len(legal))])
        d.steps += 1
    snapshot()
    d.add("state_json", json.dumps([state.returns(), state.points()]).encode())
    return d.result()
