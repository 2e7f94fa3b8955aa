"""The built-in ``learned`` agent: its shipped weights, legal and reproducible play, and every
place an agent name is taken (``sim --agents``, ``play --ai``, the RL opponents)."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import cardcore
from cardcore.cli import cli
from cardcore.errors import OptionError
from cardcore.rng import Rng
from cardcore.three_thirteen.learned import NUM_WEIGHTS, LearnedAgent, shipped_weights
from cardcore.three_thirteen.rules import Options, State


def test_the_weights_ship_in_the_package_and_load() -> None:
    data = resources.files("cardcore.three_thirteen").joinpath("learned.json")
    assert len(data.read_bytes()) < 8_000  # small enough for the wheel
    doc = json.loads(data.read_text("utf-8"))
    assert len(shipped_weights()) == NUM_WEIGHTS
    assert LearnedAgent().w == tuple(doc["weights"]) == shipped_weights()
    assert shipped_weights() != (0.0,) * NUM_WEIGHTS  # trained, not greedy's zeros


@pytest.mark.parametrize("bad", [[1.0] * 5, [1.0] * 7, ["a"] * 6])
def test_bad_weights_are_an_option_error(bad: list[object]) -> None:
    with pytest.raises(OptionError, match="6 numbers"):
        LearnedAgent(bad)  # type: ignore[arg-type]


def test_it_plays_legal_moves_and_ignores_its_rng() -> None:
    options: list[dict[str, Any]] = [{}, {"forbid_return_of_discard_draw": True, "jokers": 2}]
    for seed, opts in enumerate(options):
        st = State(Options(num_players=2, max_turns_per_round=40, **opts), seed)
        agent = LearnedAgent()
        while not st.over:
            s = st.current
            obs, legal = st.observation(s), st.legal_moves()
            move = agent.act(obs, legal, Rng(seed))
            assert move in legal
            assert LearnedAgent().act(obs, legal, Rng(seed + 99)) == move
            st.apply(move)


def test_simulations_are_deterministic_by_seed() -> None:
    def run(seed: int) -> list[object]:
        records = cardcore.simulate(
            "three-thirteen", players=2, agents=["learned", "greedy"], games=4, seed=seed
        )
        return [(r["scores"], r["decisions"]) for r in records]

    assert run(5) == run(5)
    assert run(5) != run(6)


def test_sim_cli_takes_it_by_name(tmp_path: Path) -> None:
    out = tmp_path / "d.jsonl"
    args = ["sim", "three-thirteen", "--players", "2", "--agents", "learned,greedy", "-n", "2"]
    res = CliRunner().invoke(cli, [*args, "--paired", "--seed", "1", "-q", "-o", str(out)])
    assert res.exit_code == 0, res.output
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert {a for r in rows for a in r["agents"]} == {"learned", "greedy"}


def test_play_takes_it_as_ai() -> None:
    pytest.importorskip("textual")
    runner = CliRunner()
    res = runner.invoke(cli, ["play", "three-thirteen", "--ai", "learned"])
    assert res.exit_code == 2
    assert "needs an interactive terminal" in res.output  # accepted; CliRunner is no terminal
    res = runner.invoke(cli, ["play", "spite-malice", "--ai", "learned"])
    assert res.exit_code == 2
    assert "spite-malice agent" in res.output
    from cardcore.play.three_thirteen import ThreeThirteenSession

    assert ThreeThirteenSession(players=2, ai="learned", seed=1).agent_names[1] == "learned"


def test_rl_opponent() -> None:
    gymnasium = pytest.importorskip("gymnasium")
    import numpy as np

    import cardcore.rl.gymnasium  # noqa: F401  (registers the ids)

    env = gymnasium.make("cardcore/ThreeThirteen-v0", opponents="learned", players=2)
    obs, _ = env.reset(seed=3)
    rng = np.random.default_rng(0)
    done, steps = False, 0
    while not done:
        obs, _, done, trunc, _ = env.step(rng.choice(np.flatnonzero(obs["action_mask"])))
        done |= trunc
        steps += 1
    assert steps > 10
