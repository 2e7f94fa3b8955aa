"""One vocabulary of levels for every game and every front door."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

import cardcore
from cardcore.cli import cli
from cardcore.games import base
from cardcore.games.base import get_game, resolve_agent
from cardcore.games.levels import LEVELS, agent_for_level

GAMES = ("three-thirteen", "spite-malice", "nerts")


def test_the_resolver_knows_every_level() -> None:
    assert set(base._LEVEL_NAMES) == set(LEVELS)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("level", LEVELS)
def test_every_level_is_an_agent_name_of_every_game(game: str, level: str) -> None:
    spec = get_game(game)
    assert resolve_agent(spec, level) is spec.agents[agent_for_level(spec, level)]
    assert resolve_agent(spec, level, registered_only=True) is resolve_agent(spec, level)


def test_game_names_stay_aliases() -> None:
    spec = get_game("spite-malice")
    assert resolve_agent(spec, "planner") is resolve_agent(spec, "hard")


def test_sim_takes_levels_and_replays_verify(tmp_path: object) -> None:
    out = f"{tmp_path}/g.jsonl"
    replays = f"{tmp_path}/r.jsonl"
    args = ["sim", "spite-malice", "-n", "2", "--seed", "3", "--agents", "easy,hard"]
    result = CliRunner().invoke(cli, [*args, "-q", "-o", out, "--replays", replays])
    assert result.exit_code == 0, result.output
    same = CliRunner().invoke(cli, ["replay", replays])
    assert same.exit_code == 0, same.output
    # the level plays its agent: the same games as the agents' own names
    named = [
        r["scores"]
        for r in cardcore.simulate("spite-malice", games=2, seed=3, agents=["greedy", "planner"])
    ]
    leveled = [
        r["scores"]
        for r in cardcore.simulate("spite-malice", games=2, seed=3, agents=["easy", "hard"])
    ]
    assert named == leveled


def test_an_unknown_agent_lists_the_levels() -> None:
    result = CliRunner().invoke(cli, ["sim", "nerts", "-n", "1", "--agents", "wizard", "-q"])
    assert result.exit_code == 2
    assert "levels: easy, normal, hard, expert" in result.output


def test_games_lists_the_levels() -> None:
    result = CliRunner().invoke(cli, ["games", "spite-malice"])
    assert "levels (agent names too): easy=greedy, normal=normal, hard=planner, expert=expert" in (
        result.output
    )


def test_rl_opponents_take_levels() -> None:
    pytest.importorskip("gymnasium")
    from cardcore.rl.gymnasium import CardGameEnv

    env = CardGameEnv("spite-malice", opponents="hard")
    obs, _ = env.reset(seed=1)
    assert obs is not None
