"""Golden outputs of cardcore 0.4.0: the same seeds must keep writing byte-identical records
and replays, and the embedding protocol must keep giving the same observations, legal actions,
tensors and state documents (issues #28, #32, #33: the rules move into Rust, the behaviour
stays).

``tests/data/golden-sim-0.4.0.json`` holds, per `cardcore sim` run, the exact arguments and
the sha256 of its records file and of its replays file (JSON Lines, ``cardcore_version``
normalised to 0.4.0, see ``tests/golden_sim.py``), and per protocol playthrough (a seeded
random game through ``load_game(name).new_state(seed)``) one sha256 per part: legal actions,
every seat's observation JSON, every seat's observation tensor, ``to_json()``, at every step.
The runs cover every agent of every game at every table size (Three-Thirteen 2-6, the others
2-4), jokers, rules options, Spite & Malice and Nerts matches (a Three-Thirteen game is its
11-round match: `sim --match` refuses it), mixed tables, ``--rotate-seats`` and ``--paired``.
Runs marked ``slow`` (more games per agent, default-target matches, a default-rules
Three-Thirteen playthrough) run with the others (CI runs them all, about a minute more);
``-m "not slow"`` leaves them out of a quick run, ``-m slow`` runs them alone.

Regenerate with ``PYTHONPATH=python python tests/data/make_golden_sim.py`` (the table of runs
is there; ``--check`` compares and prints timings, ``--only NAME...`` rewrites some). Do it
only for an intended change of behaviour, in a commit of its own that names the change.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import cardcore
from cardcore.cli import cli
from golden_sim import GOLDEN_FILE, protocol_hashes, sim_hashes

GOLDEN: dict[str, Any] = json.loads(GOLDEN_FILE.read_text())
REGENERATE = "tests/data/make_golden_sim.py"


def _params(key: str) -> list[Any]:
    return [
        pytest.param(e, id=e["name"], marks=[pytest.mark.slow] if e["slow"] else [])
        for e in GOLDEN[key]
    ]


def test_the_golden_file_covers_every_agent_and_table_size() -> None:
    seen = {
        (e["args"].split()[0], a, p)
        for e in GOLDEN["runs"]
        for a in e["args"].split("--agents ")[1].split()[0].split(",")
        for p in [int(e["args"].split("--players ")[1].split()[0])]
    }
    for game, agents, sizes in [
        ("three-thirteen", ("random", "greedy", "normal", "hard", "expert"), range(2, 7)),
        ("spite-malice", ("random", "greedy", "normal", "planner", "expert"), range(2, 5)),
        ("nerts", ("random", "greedy", "hard", "expert"), range(2, 5)),
    ]:
        missing = [(a, p) for a in agents for p in sizes if (game, a, p) not in seen]
        assert not missing, f"{game}: no golden run for {missing}"
    assert len({e["name"] for e in GOLDEN["runs"] + GOLDEN["playthroughs"]}) == len(
        GOLDEN["runs"]
    ) + len(GOLDEN["playthroughs"])


@pytest.mark.parametrize("run", _params("runs"))
def test_sim_writes_the_golden_bytes(run: dict[str, Any], tmp_path: Path) -> None:
    got = sim_hashes(run["args"], tmp_path)
    differ = [k for k in ("records_sha256", "replays_sha256") if got[k] != run[k]]
    assert not differ, (
        f"golden run {run['name']!r} (cardcore sim {run['args']}): the "
        f"{' and '.join(k.split('_')[0] for k in differ)} differ from "
        f"{GOLDEN['cardcore_version']}'s (this run's files: {tmp_path}); an intended change "
        f"regenerates with {REGENERATE} in a commit of its own"
    )
    # the file is now byte for byte the one 0.4.0 wrote (its version aside): it must verify
    replays = tmp_path / "replays.jsonl"
    r = CliRunner().invoke(cli, ["replay", str(replays)])
    assert r.exit_code == 0, f"golden run {run['name']!r}: its replays fail to verify:\n{r.output}"
    assert " 0 failed" in r.output, r.output


@pytest.mark.parametrize("play", _params("playthroughs"))
def test_protocol_playthrough_gives_the_golden_steps(play: dict[str, Any]) -> None:
    got = protocol_hashes(play["game"], play["options"], play["seed"], play["agents"])
    differ = [k for k in got if got[k] != play[k]]
    assert not differ, (
        f"golden playthrough {play['name']!r} (load_game({play['game']!r}, "
        f"**{play['options']}).new_state({play['seed']}), agents {play['agents']}, random "
        f"actions from Rng({play['seed']})): {', '.join(differ)} differ from "
        f"{GOLDEN['cardcore_version']}'s (steps: {got['steps']} now, {play['steps']} then); "
        f"an intended change regenerates with {REGENERATE} in a commit of its own"
    )


def test_a_new_version_number_alone_changes_no_hash(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    run = next(e for e in GOLDEN["runs"] if e["name"] == "nerts-greedy-match-2p")
    monkeypatch.setattr(cardcore, "__version__", "9.9.9")
    got = sim_hashes(run["args"], tmp_path)
    assert b'"cardcore_version":"9.9.9"' in (tmp_path / "replays.jsonl").read_bytes()
    assert got == {k: run[k] for k in got}
