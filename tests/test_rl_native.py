"""``cardcore.rl.native``: which native engine each RL environment steps is derived from the
games' specs (``GameSpec.native_rl``), never from a list kept by hand in the RL modules."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

import cardcore.rl as rl_package
from cardcore.errors import OptionError
from cardcore.games import base
from cardcore.games.base import get_game, registered_games
from cardcore.rl import VectorEnv
from cardcore.rl.gym_vector import CardGameVectorEnv
from cardcore.rl.native import KINDS, native_games
from cardcore.rl.pettingzoo import TurnBasedEnv

RL_DIR = Path(rl_package.__file__).parent


def _strings(path: Path) -> set[str]:
    """Every string constant of ``path`` but docstrings."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return {
        n.value
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs
    }


@pytest.mark.parametrize("module", ["native.py", "vector.py", "gym_vector.py"])
def test_the_engine_modules_name_no_game(module: str) -> None:
    """No game's name is written in the modules that pick the engines (a hand-kept list or a
    ``game.name == ...`` dispatch would name one)."""
    named = _strings(RL_DIR / module) & set(registered_games())
    assert not named, f"{module} names {sorted(named)}"


def test_native_games_are_the_specs_declarations() -> None:
    expected: dict[str, list[str]] = {k: [] for k in KINDS}
    for name in registered_games():
        rl = get_game(name).native_rl
        if rl is None:
            continue
        if rl.episode:
            expected["aec"].append(name)
        if rl.batch is not None:
            expected["batch"].append(name)
            if rl.points:
                expected["vector"].append(name)
    assert {k: list(native_games(k)) for k in KINDS} == expected
    assert native_games("aec") == ("spite-malice",)
    assert native_games("batch") == ("spite-malice", "three-thirteen")
    assert native_games("vector") == ("three-thirteen",)


@pytest.mark.parametrize("name", ["three-thirteen", "spite-malice"])
def test_each_environment_steps_the_engine_its_spec_declares(name: str) -> None:
    rl = get_game(name).native_rl
    assert rl is not None
    aec = TurnBasedEnv(name)
    assert aec.engine == "rust"
    assert (aec._rules is not None) == rl.episode
    vec = VectorEnv(name, 2, 0)
    assert vec.engine == ("rust" if rl.points else "protocol")
    gym: Any = CardGameVectorEnv(name, 2)
    assert gym.engine == "rust"
    gym.reset(seed=1)
    assert rl.batch is not None
    assert isinstance(gym._rows.batch, rl.batch)  # type: ignore[arg-type]


def test_a_game_whose_spec_declares_no_engine_plays_through_the_protocol(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Three-Thirteen registered without ``native_rl``: every environment steps its protocol
    states, and ``engine="rust"`` is refused (nothing else says it has a native engine)."""
    spec = get_game("three-thirteen")
    monkeypatch.setitem(base._REGISTRY, spec.name, dataclasses.replace(spec, native_rl=None))
    assert native_games("batch") == ("spite-malice",)
    assert TurnBasedEnv("three-thirteen").engine == "protocol"
    assert VectorEnv("three-thirteen", 2, 0).engine == "protocol"
    assert CardGameVectorEnv("three-thirteen", 2).engine == "protocol"
    for make in (
        lambda: TurnBasedEnv("three-thirteen", engine="rust"),
        lambda: VectorEnv("three-thirteen", 2, 0, engine="rust"),
        lambda: CardGameVectorEnv("three-thirteen", 2, engine="rust"),
    ):
        with pytest.raises(OptionError, match="no Rust engine"):
            make()
