"""The one shape every game shares, so the runner, CLI and replays are game-neutral.

A game module builds a :class:`GameSpec` (options, agents, how to play one game or match, how to
verify a replay) and registers it under its CLI name. The runner only ever calls
``spec.play(request)`` / ``spec.play_match(request)`` and ``spec.verify_replay(record)``; both
return or take plain JSON-ready dicts, so work units cross process boundaries as data.
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
import os
import re
import sys
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from typing import Any, Final, Protocol, runtime_checkable

from cardcore import _core
from cardcore.errors import OptionError, UnregisteredAgentError
from cardcore.games.schema import RecordSchema

__all__ = [
    "ENTRY_POINT_GROUP",
    "HUMAN",
    "Agent",
    "AgentFactory",
    "GameRequest",
    "GameSpec",
    "NativeRl",
    "OptionSpec",
    "agent_label",
    "check_agent",
    "get_game",
    "register_agent",
    "register_game",
    "registered_games",
    "resolve_agent",
    "rules_only_note",
    "trust_agent",
]

OptionValue = int | float | bool | str | None

HUMAN: Final = "human"
"""Agent name recorded for a seat a person played. No built-in agent has this name, so replay
checks feed that seat its recorded inputs (Nerts) or check its moves by the rules only."""


@runtime_checkable
class Agent(Protocol):
    """A player policy: picks one of ``legal`` from what its seat may see.

    ``observation`` is the game's observation object (hidden cards removed); ``rng`` is a
    seeded :class:`cardcore.Rng` owned by this seat, the agent's only source of randomness.
    """

    def act(self, observation: Any, legal: Sequence[Any], rng: Any) -> Any: ...


AgentFactory = Callable[[], Agent]


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One game option (a rules variant): its type, default and allowed values."""

    name: str
    default: OptionValue
    help: str
    choices: tuple[OptionValue, ...] | None = None
    minimum: float | None = None
    maximum: float | None = None
    kind: type = int
    nullable: bool = False

    def parse(self, text: str) -> OptionValue:
        """Converts CLI text (``key=value``'s value) and validates it."""
        if self.nullable and text.lower() in ("none", "null", "auto", ""):
            return None
        value: OptionValue
        try:
            if self.kind is bool:
                low = text.lower()
                if low not in ("true", "false", "1", "0", "yes", "no", "on", "off"):
                    raise ValueError(text)
                value = low in ("true", "1", "yes", "on")
            elif self.kind is int:
                value = int(text)
            elif self.kind is float:
                value = float(text)
            else:
                value = text
        except ValueError:
            raise OptionError(
                f"option {self.name}: {text!r} is not a valid {self.kind.__name__}"
            ) from None
        return self.validate(value)

    def validate(self, value: OptionValue) -> OptionValue:
        """Checks a Python value; returns it (ints accepted for floats)."""
        if value is None:
            if self.nullable:
                return None
            raise OptionError(f"option {self.name} may not be None")
        ok_type = isinstance(value, self.kind) and not (
            self.kind is int and isinstance(value, bool)
        )
        if self.kind is float and isinstance(value, int) and not isinstance(value, bool):
            value, ok_type = float(value), True
        if not ok_type:
            raise OptionError(f"option {self.name}: expected {self.kind.__name__}, got {value!r}")
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            raise OptionError(f"option {self.name}: {value!r} not one of {allowed}")
        if isinstance(value, int | float) and not isinstance(value, bool):
            if self.minimum is not None and value < self.minimum:
                raise OptionError(f"option {self.name}: {value} < minimum {self.minimum}")
            if self.maximum is not None and value > self.maximum:
                raise OptionError(f"option {self.name}: {value} > maximum {self.maximum}")
        return value


@dataclass(frozen=True, slots=True)
class GameRequest:
    """One unit of work: game (or match) number ``index`` of a run.

    ``seed`` is the game's own seed, already derived from the run seed and ``index``.
    ``agents`` holds one agent name per seat: a built-in name or ``"package.module:callable"``.
    ``options`` are validated option values (defaults filled in). With ``replay`` the record
    carries a ``"replay"`` entry that :meth:`GameSpec.verify_replay` can re-run.
    """

    index: int
    seed: int
    players: int
    agents: tuple[str, ...]
    options: Mapping[str, OptionValue] = field(default_factory=dict)
    replay: bool = False

    def record_head(self, game: str) -> dict[str, Any]:
        """The keys every record starts with, in order: ``game``, ``index``, ``seed``,
        ``players``, ``agents``."""
        return {
            "game": game,
            "index": self.index,
            "seed": self.seed,
            "players": self.players,
            "agents": list(self.agents),
        }


@dataclass(frozen=True)
class NativeRl:
    """What the RL environments (:mod:`cardcore.rl`) need of a turn-based game whose protocol
    state is its Rust rulebook (``_core.State``, the state's ``_s``): they step that state
    directly, and these name the game's faster native engines beside it. Every list and
    dispatch of ``cardcore.rl.native`` is derived from the registered specs' fields."""

    rules: Callable[[Any], Any]
    """The ``_core`` rules object of one of the game's :class:`~cardcore.games.api.Game`
    objects (its options, as the batch and the episode take them)."""
    batch: Callable[..., Any] | None = None
    """The ``_core`` batch class of the rulebook (``cardcore_engine::batch``, called as
    ``batch(rules, n, seed, threads=t, hold=h)``): ``gymnasium.make_vec`` steps it."""
    points: bool = False
    """The batch writes every seat's ``points()`` (Three-Thirteen's penalty totals):
    :class:`~cardcore.rl.VectorEnv` steps it too, and a shaped reward reads them."""
    episode: bool = False
    """The AEC environment steps ``_core.Episode(rules, seed)`` (the rulebook with the legal
    mask kept between steps) instead of the protocol state's rulebook."""


@dataclass(frozen=True)
class GameSpec:
    """Everything the runner, CLI and replays need to know about one game.

    ``play`` returns one record: a JSON-ready dict with at least ``game``, ``index``, ``seed``,
    ``players``, ``agents``, ``scores`` (one number per seat) and ``winner`` (seat or None),
    plus ``replay`` when requested. ``play_match`` (games with matches) returns one record per
    match with the same keys and a ``games`` list. ``verify_replay`` re-runs a replay dict and
    raises :class:`~cardcore.errors.ReplayMismatchError` on any disagreement; it returns None,
    or a note saying what it did not check (``"rules only: ..."`` when the agents were not
    re-run). It never imports code a replay names (see :func:`resolve_agent`).
    ``record_schema`` / ``match_schema`` declare the column types of those records (for typed
    Parquet and reports); without them, columnar output infers types from the first records.
    """

    name: str
    title: str
    min_players: int
    max_players: int
    default_players: int
    options: tuple[OptionSpec, ...]
    agents: Mapping[str, AgentFactory]
    default_agent: str
    play: Callable[[GameRequest], dict[str, Any]]
    verify_replay: Callable[[Mapping[str, Any]], str | None]
    play_match: Callable[[GameRequest], dict[str, Any]] | None = None
    description: str = ""
    check_options: Callable[[int, Mapping[str, OptionValue]], object] | None = None
    """Checks a whole option set for a number of players (rules that tie options together);
    raises :class:`~cardcore.errors.OptionError`. Runs before any game is played."""
    record_schema: RecordSchema | None = None
    match_schema: RecordSchema | None = None
    game_factory: Callable[[int, dict[str, OptionValue]], Any] | None = None
    """Builds the game's :class:`cardcore.games.api.Game` from a player count and resolved
    options (``None``: the game does not implement the embedding protocol)."""
    play_app: str | None = None
    """``"module:Class"`` of the game's table for ``cardcore play`` (a Textual app built from a
    :class:`cardcore.play.common.PlayConfig`; imported only when the command runs). ``None``:
    the game has no table."""
    web_table: str | None = None
    """``"module:function"`` of the game's table for ``cardcore serve``: a function
    ``(setup, agents, ai_delay)`` returning a :class:`cardcore.web.tables.Table` (imported only
    when the server starts). ``None``: rooms cannot play the game."""
    lobby_options: tuple[str, ...] = ()
    """The rules options the web lobby offers when a room is made (any other option of the game
    is still accepted in a room request)."""
    native_rl: NativeRl | None = None
    """The game's native RL engines (:class:`NativeRl`); ``None``: the RL environments play it
    through the embedding protocol only."""

    def option(self, name: str) -> OptionSpec:
        for o in self.options:
            if o.name == name:
                return o
        known = ", ".join(o.name for o in self.options)
        raise OptionError(f"{self.name} has no option {name!r} (known: {known})")

    def resolve_options(
        self, given: Mapping[str, OptionValue], players: int | None = None
    ) -> dict[str, OptionValue]:
        """Validated options with defaults filled in, in declaration order; with ``players``
        also checked as a whole (:attr:`check_options`)."""
        for key in given:
            self.option(key)
        resolved = {
            o.name: o.validate(given[o.name]) if o.name in given else o.default
            for o in self.options
        }
        if players is not None and self.check_options is not None:
            self.check_options(players, resolved)
        return resolved

    def parse_options(self, pairs: Sequence[str]) -> dict[str, OptionValue]:
        """Parses ``key=value`` strings (CLI ``--option``) into validated values."""
        out: dict[str, OptionValue] = {}
        for pair in pairs:
            key, sep, text = pair.partition("=")
            if not sep:
                raise OptionError(f"option {pair!r} is not key=value")
            out[key.strip()] = self.option(key.strip()).parse(text.strip())
        return out

    def schema_for(self, match: bool) -> RecordSchema | None:
        """The declared schema of this game's match records (``match``) or game records."""
        return self.match_schema if match else self.record_schema

    def make_agent(self, name: str) -> Agent:
        """A fresh agent for one seat, by built-in name or ``"package.module:callable"``."""
        return resolve_agent(self, name)()


_REGISTERED_AGENTS: dict[str, AgentFactory] = {}
AGENT_ENTRY_POINTS: Final = "cardcore.agents"
"""Entry-point group of installed agents: name ``"<game>:<agent>"``, value the factory."""


def register_agent(name: str, factory: AgentFactory) -> str:
    """Makes ``factory`` the agent ``name`` in this process (for every game): runs may name it,
    and replay verification may re-run it. Returns ``name``."""
    if not callable(factory):
        raise OptionError(f"agent {name!r}: {factory!r} is not callable")
    _REGISTERED_AGENTS[name] = factory
    return name


def trust_agent(path: str) -> str:
    """Imports ``package.module:callable`` and registers it under that name, so replays that
    name it are re-run. Only for names a user chose (a CLI flag), never for names read from a
    file."""
    return register_agent(path, _import_agent(path))


def agent_label(agent: str | AgentFactory) -> str:
    """The name under which ``agent`` appears in records: itself for a string, else
    ``"module:qualname"`` of the factory (registered in-process so :func:`resolve_agent`
    finds it even when it cannot be imported by that name)."""
    if isinstance(agent, str):
        return agent
    label = f"{getattr(agent, '__module__', '?')}:{getattr(agent, '__qualname__', repr(agent))}"
    return register_agent(label, agent)


def _import_agent(name: str) -> AgentFactory:
    module_name, _, attr = name.partition(":")
    try:
        obj: Any = importlib.import_module(module_name)
        for part in attr.split("."):
            obj = getattr(obj, part)
    except (ImportError, AttributeError, ValueError) as e:
        raise OptionError(f"cannot import agent {name!r}: {e}") from None
    if not callable(obj):
        raise OptionError(f"agent {name!r} is not callable")
    factory: AgentFactory = obj
    return factory


def _entry_point_agent(game: str, name: str) -> AgentFactory | None:
    """The installed agent ``name`` of ``game`` (entry-point group ``cardcore.agents``)."""
    from importlib.metadata import entry_points

    for ep in entry_points(group=AGENT_ENTRY_POINTS, name=f"{game}:{name}"):
        try:
            factory: AgentFactory = ep.load()
        except Exception as e:  # an installed plugin that fails to load
            raise OptionError(f"agent {name!r} ({ep.value}) failed to load: {e}") from None
        return factory
    return None


def rules_only_note(spec: GameSpec, replay: Mapping[str, Any]) -> str | None:
    """Why a replay's agents cannot be re-run here, or None when they can: another cardcore
    version wrote it, or an agent is neither built-in nor registered."""
    from cardcore import __version__

    if replay.get("cardcore_version") != __version__:
        return f"rules only: written by cardcore {replay.get('cardcore_version')}"
    for name in replay.get("agents") or ():
        if name == HUMAN:
            return "rules only: a person played a seat (its moves are checked by the rules)"
        try:
            resolve_agent(spec, str(name), registered_only=True)
        except UnregisteredAgentError:
            if ":" in str(name):  # --trust-agent imports package.module:callable
                return f"rules only: agent {name!r} is not registered (--trust-agent {name})"
            return f"rules only: agent {name!r} is neither built-in nor registered"
    return None


_LEVEL_NAMES: Final = ("easy", "normal", "hard", "expert", "random")
"""The level names every game takes as agent names (:data:`cardcore.games.levels.LEVELS`)."""


def resolve_agent(spec: GameSpec, name: str, *, registered_only: bool = False) -> AgentFactory:
    """The factory of agent ``name``: built-in, registered (:func:`register_agent`), installed
    (entry point), a level (``easy``, ``normal``, ``hard``, ``expert``, ``random``: the game's
    agent at that level, :mod:`cardcore.games.levels`), else imported from
    ``"package.module:callable"``. With ``registered_only`` (replays: the name comes from a
    file) nothing is imported by name."""
    if name in spec.agents:
        return spec.agents[name]
    if name in _REGISTERED_AGENTS:
        return _REGISTERED_AGENTS[name]
    installed = _entry_point_agent(spec.name, name)
    if installed is not None:
        return installed
    if name in _LEVEL_NAMES:
        from cardcore.games.levels import agent_for_level  # levels imports this module

        return spec.agents[agent_for_level(spec, name)]
    if registered_only:
        how = f"; to re-run it: cardcore replay --trust-agent {name}" if ":" in name else ""
        raise UnregisteredAgentError(
            f"agent {name!r} is not a built-in or registered {spec.name} agent (replays never "
            f"import code they name{how})"
        )
    if ":" in name:
        return _import_agent(name)
    known = ", ".join(spec.agents)
    raise OptionError(
        f"{spec.name} has no agent {name!r} (levels: {', '.join(_LEVEL_NAMES)}; built-in: "
        f"{known}; or package.module:callable)"
    )


def check_agent(spec: GameSpec, name: str) -> None:
    """Resolves ``name`` and builds one agent: the factory must return an object with a
    callable ``act``. Raises :class:`OptionError` (also when the factory raises)."""
    factory = resolve_agent(spec, name)
    try:
        agent = factory()
    except Exception as e:
        raise OptionError(f"agent {name!r}: its factory raised {type(e).__name__}: {e}") from None
    if not callable(getattr(agent, "act", None)):
        raise OptionError(
            f"agent {name!r}: its factory returned {type(agent).__name__}, which has no "
            "act(observation, legal, rng) method"
        )


ENTRY_POINT_GROUP: Final = "cardcore.games"
"""The entry-point group third-party games register under (see ``docs/plugins.md``)."""

_REGISTRY: dict[str, GameSpec] = {}
_BUILTIN_MODULES: Final = {name: f"cardcore.{name.replace('-', '_')}.spec" for name in _core.GAMES}
"""Each built-in game's spec module: ``cardcore.<game>.spec`` for every game whose rulebook is
in the engine crate (``_core.GAMES``, the crate's ``games::GAMES``)."""
BUILTIN_GAMES: Final = tuple(_BUILTIN_MODULES)
"""The games that ship with cardcore (the one list, kept in Rust: the RL environments' ids and
the other per-game tables are derived from it and from each game's spec)."""


_REFERENCE = re.compile(r"[A-Za-z_][\w.]*:[A-Za-z_]\w*")


def register_game(spec: GameSpec) -> GameSpec:
    """Adds ``spec`` to the registry under ``spec.name`` (replacing any earlier one of a plugin).

    A built-in game's name belongs to the built-in game: a plugin registering it is warned
    about and ignored, whatever the import order. A ``play_app`` or ``web_table`` that is not
    ``"module:name"`` of a module that exists is dropped with a warning (the game still plays
    in ``sim``; one plugin's bad table does not stop ``cardcore serve``). Returns ``spec``."""
    caller = sys._getframe(1).f_globals.get("__name__", "")
    if spec.name in _BUILTIN_MODULES and caller != _BUILTIN_MODULES[spec.name]:
        _plugin_warning(
            f"{caller or 'a plugin'} registers a game named {spec.name!r}, a built-in game's "
            "name; ignored"
        )
        return spec
    for field_name in ("play_app", "web_table"):
        ref = getattr(spec, field_name)
        if ref is None or _reachable(ref):
            continue
        _plugin_warning(
            f"game {spec.name!r}: {field_name} {ref!r} is not module:name of a module that "
            "exists; the game is registered without it"
        )
        spec = (
            dataclasses.replace(spec, play_app=None)
            if field_name == "play_app"
            else dataclasses.replace(spec, web_table=None)
        )
    _REGISTRY[spec.name] = spec
    return spec


def _reachable(ref: object) -> bool:
    """Whether ``ref`` is ``"module:name"`` and the module can be found (not imported)."""
    if not isinstance(ref, str) or not _REFERENCE.fullmatch(ref):
        return False
    try:
        return importlib.util.find_spec(ref.partition(":")[0]) is not None
    except (ImportError, ValueError):
        return False


def _plugin_warning(message: str) -> None:
    warnings.warn(f"cardcore: {message}", RuntimeWarning, stacklevel=3)


def get_game(name: str) -> GameSpec:
    """The spec registered as ``name``; built-in games are imported on first use."""
    if name not in _REGISTRY and name in _BUILTIN_MODULES:
        importlib.import_module(_BUILTIN_MODULES[name])
    if name not in _REGISTRY:
        _load_plugins()
    try:
        return _REGISTRY[name]
    except KeyError:
        known = ", ".join(registered_games())
        raise OptionError(f"unknown game {name!r} (known: {known})") from None


_entry_points_loaded = False


def _load_plugins() -> None:
    """Registers third-party games: each entry point of the ``cardcore.games`` group (a module
    that registers its games when imported, or a :class:`GameSpec`), then the modules named in
    ``CARDCORE_GAME_MODULES`` (comma-separated; an override for development). A plugin that
    fails to load is reported as a warning and skipped."""
    global _entry_points_loaded
    if not _entry_points_loaded:
        _entry_points_loaded = True
        for ep in entry_points(group=ENTRY_POINT_GROUP):
            try:
                obj = ep.load()
            except (Exception, SystemExit) as e:  # a broken plugin must not break the others
                _plugin_warning(f"game plugin {ep.name!r} ({ep.value}) failed to load: {_why(e)}")
                continue
            if isinstance(obj, GameSpec):
                register_game(obj)
    for module in os.environ.get("CARDCORE_GAME_MODULES", "").split(","):
        if not module.strip() or module.strip() in sys.modules:
            continue
        try:
            importlib.import_module(module.strip())
        except (Exception, SystemExit) as e:
            _plugin_warning(f"game module {module.strip()!r} failed to load: {_why(e)}")


def _why(error: BaseException) -> str:
    if isinstance(error, SystemExit):
        return f"it called sys.exit({error.code!r})"
    return f"{type(error).__name__}: {error}"


def registered_games() -> list[str]:
    """Names of every game that can be loaded (built-in ones and plugins included)."""
    _load_plugins()
    names = set(_REGISTRY)
    for name, module in _BUILTIN_MODULES.items():
        try:
            importlib.import_module(module)
        except ImportError:
            continue
        names.add(name)
    return sorted(names)
