"""The built-in games are listed once, in Rust (``cardcore_engine::games::GAMES``, exported as
``_core.GAMES``): the registry, the rules pages and the RL environments derive their lists from
it, and no shared module keeps a list of the games by hand beyond the per-game tables named
here (each optional for a new game)."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import cardcore
from cardcore import _core
from cardcore.games.base import BUILTIN_GAMES, get_game
from cardcore.rules import RULES_GAMES

PACKAGE = Path(cardcore.__file__).parent

PER_GAME_TABLES = {
    "openspiel.py": {"GAMES"},
    "rl/rewards.py": {"REWARDS", "TRACKED"},
    "web/feats.py": {"_BY_GAME", "OBJECTIVES"},
    "web/progress.py": {"GAME_TITLES"},
}
"""Tables keyed by game that a new game may join (OpenSpiel's registration; shaped rewards;
the web profile's feats, daily objectives and per-game progress): without an entry the game
has none of these, and nothing else breaks."""


def test_the_built_in_games_are_the_engine_crates() -> None:
    assert BUILTIN_GAMES == _core.GAMES == ("three-thirteen", "spite-malice", "nerts")
    for name in BUILTIN_GAMES:
        spec = get_game(name)
        assert spec.name == name
        module = importlib.import_module(f"cardcore.{name.replace('-', '_')}.spec")
        assert module.SPEC is spec


def test_every_built_in_game_has_a_rules_page() -> None:
    assert RULES_GAMES == BUILTIN_GAMES


def _game_tables(path: Path) -> set[str]:
    """Module-level names bound to a literal tuple, list, set or dict holding two or more of
    the built-in games' names (as elements or keys)."""
    names = set(BUILTIN_GAMES)
    found = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        else:
            continue
        if isinstance(value, ast.Dict):
            items = [k for k in value.keys if k is not None]
        elif isinstance(value, ast.Tuple | ast.List | ast.Set):
            items = value.elts
        else:
            continue
        keys = set()
        for k in items:
            first = k.elts[0] if isinstance(k, ast.Tuple) and k.elts else k  # (game, ...) keys
            if isinstance(first, ast.Constant):
                keys.add(first.value)
        if len(keys & names) >= 2:
            found |= {t.id for t in targets if isinstance(t, ast.Name)}
    return found


def test_no_shared_module_keeps_a_list_of_the_games() -> None:
    own = {name.replace("-", "_") for name in BUILTIN_GAMES}
    tables = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE)
        if rel.parts[0] in own:
            continue
        found = _game_tables(path)
        if found:
            tables[rel.as_posix()] = found
    assert tables == PER_GAME_TABLES
