"""The embedding protocol: the one shape every game has (``docs/embedding.md``).

``cardcore.load_game(name, **options)`` returns a :class:`Game`: the rules for those options, a
fixed space of integer actions and the shape of the observation tensor. ``game.new_state(seed)``
deals a :class:`State` (turn-based games) or a :class:`RealtimeState` (Nerts).

A player sees a state only through ``observation(seat)``, ``observation_tensor(seat)`` and
``observation_json(seat)``; nothing hidden from that seat appears in them. Every other attribute
of a state is the engine's full (hidden) information: store it with ``to_json()``, never show it
to a player. ``resample_hidden(seat, seed)`` re-deals what a seat has not seen (search AIs).

Action ids name card faces, not physical copies: the two 7h of a two-deck game are one action.
JSON documents carry ``"format"`` (``cardcore-state``, ``cardcore-observation``,
``cardcore-move``), ``"version"`` and ``"game"``; readers reject other formats, other games and
newer versions with :class:`~cardcore.errors.StateFormatError` /
:class:`~cardcore.errors.UnsupportedVersionError`.
"""

from __future__ import annotations

import functools
import inspect
import json
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from functools import cached_property
from importlib import import_module
from threading import get_ident
from typing import TYPE_CHECKING, Any, ClassVar, Final, Generic, TypeVar

from cardcore.cards import as_int
from cardcore.errors import (
    ArgumentRangeError,
    ArgumentTypeError,
    ConcurrentUseError,
    IllegalMoveError,
    OptionError,
    StateFormatError,
    UnsupportedVersionError,
)
from cardcore.games.base import OptionValue, get_game
from cardcore.rng import Rng

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from cardcore.games.codec import CardCodec

__all__ = [
    "JSON_VERSION",
    "MOVE_FORMAT",
    "OBSERVATION_FORMAT",
    "STATE_FORMAT",
    "EngineState",
    "Game",
    "JsonInput",
    "RealtimeState",
    "State",
    "load_game",
    "state_from_json",
]

STATE_FORMAT: Final = "cardcore-state"
OBSERVATION_FORMAT: Final = "cardcore-observation"
MOVE_FORMAT: Final = "cardcore-move"
JSON_VERSION: Final = 1
"""The version of all three JSON formats this cardcore writes (and the newest it reads)."""

MoveT = TypeVar("MoveT")
GameT = TypeVar("GameT", bound="Game[Any]")
R = TypeVar("R")
JsonInput = str | bytes | bytearray | Mapping[str, Any]
"""What the JSON readers accept: the text, or the object already parsed."""


def load_game(name: str, **options: OptionValue) -> Game[Any]:
    """The game ``name`` with ``options`` validated and defaults filled in.

    ``players`` is an option like any other (default: the game's usual table). Unknown names and
    bad values raise :class:`~cardcore.errors.OptionError`.
    """
    spec = get_game(name)
    if spec.game_factory is None:
        raise OptionError(f"{spec.name} does not implement the embedding protocol")
    players = options.pop("players", spec.default_players)
    if isinstance(players, bool) or not isinstance(players, int):
        raise OptionError(f"option players: expected int, got {players!r}")
    if not spec.min_players <= players <= spec.max_players:
        raise OptionError(
            f"{spec.name} takes {spec.min_players}..{spec.max_players} players, not {players}"
        )
    game: Game[Any] = spec.game_factory(players, spec.resolve_options(options))
    return game


def state_from_json(data: JsonInput) -> State[Any] | RealtimeState[Any]:
    """A state from ``to_json()`` output of any game, with the game and options it names."""
    doc = _parse(data)
    with reading("state"):
        options = dict(doc["options"])
        game = load_game(str(doc["game"]), **options)
    state: State[Any] | RealtimeState[Any] = game.state_from_json(doc)
    return state


_COMPACT: Final = json.JSONEncoder(separators=(",", ":"))
"""``json.dumps(x, separators=(",", ":"))`` without building an encoder per call."""


def dump(doc: object) -> str:
    """Compact JSON text (no spaces), the form every ``*_json`` method returns."""
    return _COMPACT.encode(doc)


def rng_words(rng: Rng) -> list[str]:
    """A generator's state as four 16-digit hex words (JSON numbers above 2**53 are not safe
    in every reader)."""
    return [f"{w:016x}" for w in rng.state]


def rng_from_words(words: object) -> Rng:
    """The generator :func:`rng_words` describes."""
    if not isinstance(words, list) or len(words) != 4:
        raise StateFormatError(f"expected four hex words of random state, got {words!r}")
    hex16 = re.compile(r"[0-9a-f]{16}")
    state = [int(w, 16) for w in words if isinstance(w, str) and hex16.fullmatch(w)]
    if len(state) != 4:
        raise StateFormatError(f"expected four 16-digit hex words, got {words!r}")
    try:
        return Rng.from_state(state)
    except ValueError as e:
        raise StateFormatError(f"bad random state: {e}") from None


def _parse(data: JsonInput) -> Mapping[str, Any]:
    if isinstance(data, str | bytes | bytearray):
        try:
            obj = json.loads(data)
        except (ValueError, RecursionError) as e:
            raise StateFormatError(f"not valid JSON: {e}") from None
    else:
        obj = data
    if not isinstance(obj, Mapping):
        raise StateFormatError(f"expected a JSON object, got {type(obj).__name__}")
    return obj


def open_document(data: JsonInput, fmt: str, game: str) -> Mapping[str, Any]:
    """The parsed document after checking its ``format``, ``version`` and ``game``."""
    doc = _parse(data)
    if doc.get("format") != fmt:
        raise StateFormatError(f"expected format {fmt!r}, got {doc.get('format')!r}")
    version = doc.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise StateFormatError(f"bad {fmt} version {version!r}")
    if version > JSON_VERSION:
        raise UnsupportedVersionError(
            f"{fmt} version {version} was written by a newer cardcore "
            f"(this one reads up to version {JSON_VERSION})"
        )
    if doc.get("game") != game:
        raise StateFormatError(f"a {doc.get('game')!r} {fmt}, not {game!r}")
    return doc


@contextmanager
def reading(what: str) -> Iterator[None]:
    """Turns the errors of reading a malformed document into :class:`StateFormatError`."""
    try:
        yield
    except StateFormatError:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, OverflowError) as e:
        raise StateFormatError(f"malformed {what}: {type(e).__name__}: {e}") from None


def action_id(x: object) -> int | None:
    """``x`` as an action id when it is an integer (``int``, ``numpy.int64``, ...; a bool is
    not), else None. Lets RL code pass numpy integers where an id is expected (an array is not
    one, a 0-d integer array is)."""
    if isinstance(x, bool):
        return None
    index = getattr(type(x), "__index__", None)
    if index is None:
        return None
    try:
        return int(index(x))
    except (TypeError, ValueError):  # an array of several numbers, a numpy bool
        return None


def checked_action(game: Game[Any], action: object) -> int:
    """``action`` as an action id of ``game`` (an integer in ``0..num_actions - 1``), else
    :class:`~cardcore.errors.IllegalMoveError` (every game's ``action_to_move`` starts here)."""
    index = action_id(action)
    if index is None:
        raise IllegalMoveError(f"an action id is an int, not {action!r}")
    if not 0 <= index < game.num_actions:
        raise IllegalMoveError(f"no {game.name} action {index} (0..{game.num_actions - 1})")
    return index


def read_int(x: object, lo: int, hi: int) -> int:
    """``x`` if it is an int in ``lo..hi`` (a bool is not), else :class:`StateFormatError`."""
    if isinstance(x, bool) or not isinstance(x, int) or not lo <= x <= hi:
        raise StateFormatError(f"expected an int in {lo}..{hi}, got {x!r}")
    return x


def read_bool(x: object) -> bool:
    if not isinstance(x, bool):
        raise StateFormatError(f"expected true or false, got {x!r}")
    return x


def read_list(x: object, n: int) -> list[Any]:
    """``x`` if it is a list of ``n`` items, else :class:`StateFormatError`."""
    if not isinstance(x, list) or len(x) != n:
        raise StateFormatError(f"expected a list of {n}, got {x!r}")
    return x


def read_items(x: object) -> list[Any]:
    """``x`` if it is a list (of any length), else :class:`StateFormatError`."""
    if not isinstance(x, list):
        raise StateFormatError(f"expected a list, got {x!r}")
    return x


def read_choice(x: object, allowed: Sequence[str]) -> str:
    if not isinstance(x, str) or x not in allowed:
        raise StateFormatError(f"expected one of {', '.join(allowed)}, got {x!r}")
    return x


def read_seat(x: object, players: int, *, nullable: bool = False) -> int | None:
    """A seat (or None when ``nullable``) read from a document."""
    if x is None and nullable:
        return None
    if isinstance(x, bool) or not isinstance(x, int) or not 0 <= x < players:
        raise StateFormatError(f"no seat {x!r} at a {players}-player table")
    return x


def check_seat(seat: object, players: int) -> int:
    """``seat`` as an int (numpy integers too) if it is a seat of a ``players``-player table,
    else :class:`OptionError`."""
    n = as_int(seat)
    if n is None or not 0 <= n < players:
        raise OptionError(f"no seat {seat!r} at a {players}-player table")
    return n


def check_seed(seed: object, name: str = "seed") -> int:
    """``seed`` as an int if it is an integer in ``0..2**64-1`` (numpy integers too; a bool
    is not), else :class:`OptionError`."""
    n = as_int(seed)
    if n is None or not 0 <= n < 1 << 64:
        raise OptionError(f"{name} must be an int in 0..2**64-1, not {seed!r}")
    return n


class Game(ABC, Generic[MoveT]):
    """The rules of one game for fixed options: immutable, hashable, picklable.

    ``options`` is a plain dict (``players`` included, every default filled in);
    ``num_actions`` is the size of the fixed action space; ``observation_shape`` the shape of
    :meth:`State.observation_tensor`. Build one with :func:`load_game`.
    """

    name: ClassVar[str]
    realtime: ClassVar[bool] = False
    """True for games played in real time (:class:`RealtimeState`)."""

    options: dict[str, OptionValue]
    num_players: int
    num_actions: int
    observation_shape: tuple[int, ...]
    _codec: CardCodec

    @abstractmethod
    def new_state(self, seed: int) -> Any:
        """A new game dealt from ``seed``."""

    @abstractmethod
    def action_to_move(self, action: int) -> MoveT:
        """The move of action id ``action`` (a canonical copy of its card when it names one);
        :class:`~cardcore.errors.IllegalMoveError` when ``action`` is not an id of this game."""

    @abstractmethod
    def move_to_action(self, move: MoveT) -> int:
        """The action id of ``move``; :class:`~cardcore.errors.IllegalMoveError` for an object
        that is not a move of this game."""

    @abstractmethod
    def parse_move(self, text: str) -> MoveT:
        """The move written as by :meth:`move_text`."""

    @abstractmethod
    def move_text(self, move: MoveT) -> str:
        """Readable, parseable notation of ``move`` (cards by face and deck)."""

    @abstractmethod
    def observation_tensor_of(self, observation: Any) -> NDArray[np.float32]:
        """The tensor of an observation object an agent received in ``act``: the same array as
        ``state.observation_tensor(seat)`` at that decision (so a policy trained on tensors
        plays as an agent, e.g. in ``simulate``)."""

    @abstractmethod
    def _state_body(self, state: Any) -> dict[str, Any]: ...

    @abstractmethod
    def _state_from_body(self, body: Mapping[str, Any]) -> Any: ...

    @abstractmethod
    def _observation_body(self, state: Any, seat: int) -> dict[str, Any]: ...

    def _seat_fields(self, state: Any, seat: int) -> dict[str, Any] | None:
        """The members of ``_observation_body(state, seat)`` that differ between seats (the
        others are equal for every seat), or ``None`` when a game does not say."""
        return None

    @abstractmethod
    def _observation_tensor(self, state: Any, seat: int) -> NDArray[np.float32]: ...

    @abstractmethod
    def _observation_from_body(self, seat: int, body: Mapping[str, Any]) -> Any: ...

    # -- shared machinery ------------------------------------------------------------------

    def _lay_out(self, segments: Sequence[tuple[str, int]]) -> None:
        """Sets ``observation_layout`` / ``observation_shape`` from ``(name, size)`` segments
        laid end to end (and ``_at``: each segment's offset)."""
        self.observation_layout: dict[str, slice] = {}
        at = 0
        for name, size in segments:
            self.observation_layout[name] = slice(at, at + size)
            at += size
        self.observation_shape = (at,)
        self._at = {name: s.start for name, s in self.observation_layout.items()}

    def card_text(self, card: int) -> str:
        """Physical card ``card`` as JSON documents write it (``"7h@1"``: face and deck;
        ``"X1"``: a joker); :class:`~cardcore.errors.ArgumentTypeError` /
        :class:`~cardcore.errors.ArgumentRangeError` for anything that is not a card id of this
        game."""
        n = as_int(card)
        if n is None:
            raise ArgumentTypeError(f"a card id is an int, not {card!r}")
        if not 0 <= n < self._codec.size:
            raise ArgumentRangeError(f"no card id {n} in this game (0..{self._codec.size - 1})")
        return self._codec.text(n)

    def action_text(self, action: int) -> str:
        """Readable text of an action id (its canonical move)."""
        return self.move_text(self.action_to_move(action))

    def state_to_json(self, state: Any) -> str:
        """``state`` as a ``cardcore-state`` JSON document (what ``state.to_json()`` gives)."""
        return dump(
            {
                "format": STATE_FORMAT,
                "version": JSON_VERSION,
                "game": self.name,
                "options": self.options,
                "state": self._state_body(state),
            }
        )

    def state_from_json(self, data: JsonInput) -> Any:
        """The state a ``to_json()`` document describes; it plays on exactly as the original
        (same legal moves, same future deals). The document must be of this game with these
        options; anything else raises :class:`~cardcore.errors.StateFormatError`."""
        doc = open_document(data, STATE_FORMAT, self.name)
        if doc.get("options") != self.options:
            raise StateFormatError(
                f"the state was saved with options {doc.get('options')!r}, not {self.options!r}"
            )
        with reading(f"{self.name} state"):
            body = doc["state"]
            if not isinstance(body, Mapping):
                raise StateFormatError("the state is not a JSON object")
            return self._state_from_body(body)

    def observation_to_json(self, state: Any, seat: int) -> str:
        """What ``seat`` may see of ``state``, as a ``cardcore-observation`` document."""
        seat = check_seat(seat, self.num_players)
        # the same text as dump() of the whole document; its head is written once per game
        body = dump(self._observation_body(state, seat))
        return f'{self._observation_head},"seat":{seat},"observation":{body}}}'

    def observation_document(self, state: Any, seat: int) -> dict[str, Any]:
        """``json.loads(observation_to_json(state, seat))`` without the text: the document as
        new JSON-ready objects (nothing in it is shared with the state or a later call; a
        server that sends each seat only what changed compares these)."""
        seat = check_seat(seat, self.num_players)
        return {
            "format": OBSERVATION_FORMAT,
            "version": JSON_VERSION,
            "game": self.name,
            "options": dict(self.options),
            "seat": seat,
            "observation": self._observation_body(state, seat),
        }

    def observation_documents(self, state: Any, seats: Sequence[int]) -> list[dict[str, Any]]:
        """:meth:`observation_document` of each of ``seats``, built faster: what every seat
        sees alike (the public piles, the scores) is built once and shared between the
        documents of one call (read them; copy before changing one)."""
        seats = [check_seat(seat, self.num_players) for seat in seats]
        if not seats:
            return []
        first = self.observation_document(state, seats[0])
        body = first["observation"]
        out = [first]
        for seat in seats[1:]:
            own = self._seat_fields(state, seat)
            if own is None:  # the game does not say which fields are the seat's own
                out.append(self.observation_document(state, seat))
            else:
                out.append({**first, "seat": seat, "observation": {**body, **own}})
        return out

    def observations_to_json(self, state: Any, seats: Sequence[int]) -> list[str]:
        """``observation_to_json(state, s)`` for each of ``seats``, the same texts, written
        faster: a run of fields that every seat sees alike (the public piles, the scores) is
        encoded once for all of them (a server sending every seat its view)."""
        seats = [check_seat(seat, self.num_players) for seat in seats]
        bodies = [self._observation_body(state, seat) for seat in seats]
        if len(bodies) < 2:
            return [self.observation_to_json(state, seat) for seat in seats]
        first, rest = bodies[0], bodies[1:]
        runs: list[tuple[bool, list[str]]] = []  # (shared, keys), in document order
        for key, value in first.items():
            shared = all(b[key] == value for b in rest)
            if runs and runs[-1][0] == shared:
                runs[-1][1].append(key)
            else:
                runs.append((shared, [key]))
        parts: list[list[str]] = [[] for _ in seats]
        for shared, keys in runs:
            if shared:
                text = dump({k: first[k] for k in keys})[1:-1]
                for p in parts:
                    p.append(text)
            else:
                for p, b in zip(parts, bodies, strict=True):
                    p.append(dump({k: b[k] for k in keys})[1:-1])
        head = self._observation_head
        return [
            f'{head},"seat":{seat},"observation":{{{",".join(p)}}}}}'
            for seat, p in zip(seats, parts, strict=True)
        ]

    @cached_property
    def _observation_head(self) -> str:
        head = {
            "format": OBSERVATION_FORMAT,
            "version": JSON_VERSION,
            "game": self.name,
            "options": self.options,
        }
        return dump(head)[:-1]

    def observation_from_json(self, data: JsonInput) -> Any:
        """The observation object a ``cardcore-observation`` document of these options
        describes: what a remote agent passes to ``act``."""
        doc = open_document(data, OBSERVATION_FORMAT, self.name)
        if doc.get("options") != self.options:
            raise StateFormatError(f"an observation of other options: {doc.get('options')!r}")
        with reading(f"{self.name} observation"):
            seat = read_seat(doc["seat"], self.num_players)
            assert seat is not None
            body = doc["observation"]
            if not isinstance(body, Mapping):
                raise StateFormatError("the observation is not a JSON object")
            return self._observation_from_body(seat, body)

    def move_to_json(self, move: MoveT) -> str:
        """``move`` as a ``cardcore-move`` document (``"move"``: its text, ``"action"``: its
        id)."""
        return dump(
            {
                "format": MOVE_FORMAT,
                "version": JSON_VERSION,
                "game": self.name,
                "move": self.move_text(move),
                "action": self.move_to_action(move),
            }
        )

    def move_from_json(self, data: JsonInput) -> MoveT:
        """The move of a ``cardcore-move`` document (its ``"move"`` text; the ``"action"`` id
        when there is no text)."""
        doc = open_document(data, MOVE_FORMAT, self.name)
        text, action = doc.get("move"), doc.get("action")
        with reading(f"{self.name} move"):
            if isinstance(text, str):
                move = self.parse_move(text)
            elif isinstance(action, int) and not isinstance(action, bool):
                move = self.action_to_move(action)
            else:
                raise StateFormatError("a move document needs a 'move' text or an 'action' id")
        return move

    def mask_of(self, actions: list[int]) -> NDArray[np.bool_]:
        """A bool array of length ``num_actions``, True at ``actions``."""
        import numpy as np

        mask = np.zeros(self.num_actions, dtype=np.bool_)
        mask[actions] = True
        return mask

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self.name == other.name and self.options == other.options

    def __hash__(self) -> int:
        return hash((self.name, tuple(self.options.items())))

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"load_game({self.name!r}, {args})"

    def __reduce__(self) -> tuple[Any, tuple[str, dict[str, OptionValue]]]:
        return (_load, (self.name, dict(self.options)))


def _load(name: str, options: dict[str, OptionValue]) -> Game[Any]:
    return load_game(name, **options)


# -- one thread at a time ------------------------------------------------------------------

_BUSY: dict[int, int] = {}
"""``id(state) -> thread id`` while a guarded method of the state runs."""


def exclusive(method: Callable[..., R]) -> Callable[..., R]:
    """``method`` made to raise :class:`~cardcore.errors.ConcurrentUseError` (changing
    nothing) when another thread is inside a guarded method of the same object; calls from
    the thread already inside (one guarded method calling another) go through.

    One ``dict.setdefault`` claims the object (atomic under the GIL). ``get_ident()`` gives a
    new int object at each call, so ``owner is me`` tells a claim made now from one this
    thread made further up the stack (only that one releases it). Methods of one or two
    positional parameters get a wrapper without ``*args``: about 0.15 us a call."""
    if getattr(method, "__cardcore_exclusive__", False):
        return method
    claim, busy = _BUSY.setdefault, _BUSY

    def refuse(self: object) -> ConcurrentUseError:
        return ConcurrentUseError(
            f"{type(self).__name__}.{method.__name__}: the state is in use by another "
            "thread; states are not thread-safe (clone() one per thread, or lock)"
        )

    params = list(inspect.signature(method).parameters.values())
    plain = all(p.kind is p.POSITIONAL_OR_KEYWORD and p.default is p.empty for p in params)
    guarded: Callable[..., R]
    if plain and len(params) == 1:

        def guarded(self: object) -> R:
            me = get_ident()
            owner = claim(id(self), me)
            if owner is me:
                try:
                    return method(self)
                finally:
                    del busy[id(self)]
            if owner != me:
                raise refuse(self)
            return method(self)

    elif plain and len(params) == 2:

        def guarded(self: object, arg: Any) -> R:
            me = get_ident()
            owner = claim(id(self), me)
            if owner is me:
                try:
                    return method(self, arg)
                finally:
                    del busy[id(self)]
            if owner != me:
                raise refuse(self)
            return method(self, arg)

    else:

        def guarded(self: object, *args: Any, **kwargs: Any) -> R:
            me = get_ident()
            owner = claim(id(self), me)
            if owner is me:
                try:
                    return method(self, *args, **kwargs)
                finally:
                    del busy[id(self)]
            if owner != me:
                raise refuse(self)
            return method(self, *args, **kwargs)

    functools.update_wrapper(guarded, method)
    setattr(guarded, "__cardcore_exclusive__", True)  # noqa: B010 (a function attribute)
    return guarded


def _guard(cls: type, names: Sequence[str]) -> None:
    """Wraps the methods ``names`` that ``cls`` itself defines with :func:`exclusive`, but
    those it lists in ``_atomic`` (each one call into the engine that holds the GIL, so two
    threads cannot interleave inside it: the GIL is the lock)."""
    atomic = getattr(cls, "_atomic", ())
    for name in names:
        if name in atomic:
            continue
        method = cls.__dict__.get(name)
        if callable(method):
            setattr(cls, name, exclusive(method))


_TURN_GUARDED: Final = ("apply", "clone", "to_json")
_REALTIME_GUARDED: Final = ("submit", "advance_to", "step", "run", "clone", "to_json")


class State(ABC, Generic[MoveT]):
    """A turn-based game in progress: mutable, copied with :meth:`clone`.

    The seat to play is :attr:`current_player` (``None`` once the game is over). Play with
    :meth:`apply` (a move or an action id); an illegal one raises
    :class:`~cardcore.errors.IllegalMoveError` and changes nothing.

    Not thread-safe: :meth:`apply`, :meth:`clone` and :meth:`to_json` of one state from two
    threads at once raise :class:`~cardcore.errors.ConcurrentUseError` in one of them (every
    subclass's own methods of those names are guarded, unless it names them in ``_atomic``:
    each is one engine call holding the GIL); reads (``legal_actions``, ``observation``,
    ...) are not checked. Give each thread its own state.
    """

    __slots__ = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _guard(cls, _TURN_GUARDED)

    @property
    @abstractmethod
    def game(self) -> Game[MoveT]:
        """The :class:`Game` (rules and options) of this state."""

    @property
    @abstractmethod
    def current_player(self) -> int | None:
        """The seat to play, or ``None`` when the game is over."""

    @property
    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def legal_moves(self) -> list[MoveT]:
        """The legal moves of the seat to play, one per physical card (two copies of a face
        give two moves with the same action id)."""

    @abstractmethod
    def legal_actions(self) -> list[int]:
        """The legal action ids, sorted, each once (empty when the game is over)."""

    @abstractmethod
    def apply(self, move: MoveT | int) -> None:
        """Plays a move or an action id for :attr:`current_player`."""

    @abstractmethod
    def observation(self, seat: int) -> Any:
        """What ``seat`` may see (the object the built-in agents read)."""

    @abstractmethod
    def clone(self) -> State[MoveT]:
        """An independent copy (future deals included)."""

    @abstractmethod
    def returns(self) -> list[float]:
        """One utility per seat once the game is over (all zero before); higher is better."""

    @abstractmethod
    def points(self) -> list[int]:
        """The game's own score per seat so far (the direction depends on the game)."""

    @property
    @abstractmethod
    def moves(self) -> list[tuple[int, MoveT]]:
        """Every move played so far as ``(seat, move)``, in order."""

    @abstractmethod
    def resample_hidden(self, seat: int, seed: int) -> State[MoveT]:
        """A state ``seat`` cannot tell apart from this one: everything the seat has seen is
        kept, every card it has not seen is re-dealt uniformly at random (future deals too)."""

    def action_mask(self) -> NDArray[np.bool_]:
        """Bool array of length ``game.num_actions``: True exactly at :meth:`legal_actions`."""
        return self.game.mask_of(self.legal_actions())

    def observation_tensor(self, seat: int) -> NDArray[np.float32]:
        """``observation(seat)`` as a float32 array of ``game.observation_shape``."""
        game = self.game
        seat = check_seat(seat, game.num_players)
        return game._observation_tensor(self, seat)

    def observation_json(self, seat: int) -> str:
        """``observation(seat)`` as a ``cardcore-observation`` document (what a server may
        send to that seat)."""
        return self.game.observation_to_json(self, seat)

    def observation_document(self, seat: int) -> dict[str, Any]:
        """:meth:`observation_json` as new JSON-ready objects (the parsed document)."""
        return self.game.observation_document(self, seat)

    @exclusive
    def to_json(self) -> str:
        """The whole state (hidden cards and the random stream included) as a
        ``cardcore-state`` document; :meth:`Game.state_from_json` reads it back."""
        return self.game.state_to_json(self)


class EngineState(Generic[GameT]):
    """Mixin for a turn-based :class:`State` whose engine keeps ``options``, ``over`` (the game
    has ended) and ``current`` (the seat to move): it gives :attr:`current_player`,
    :attr:`is_over` and :attr:`game`, built on first use as ``game_for(options)`` of the module
    named by ``GAME_MODULE`` (imported only then: the game module imports the state's). List it
    before :class:`State` in the bases; the state keeps the game in a ``_game`` attribute
    (``None`` until built)."""

    __slots__ = ()
    GAME_MODULE: ClassVar[str]
    """The module whose ``game_for(options)`` returns the game of these options."""
    options: Any
    over: bool
    current: int
    _game: GameT | None

    @property
    def game(self) -> GameT:
        """The game (rules and options) of this state, built once from ``options``."""
        game = self._game
        if game is None:
            game = import_module(self.GAME_MODULE).game_for(self.options)
            self._game = game  # type: ignore[misc]  # a slot of the state class, not of the mixin
        return game

    @property
    def current_player(self) -> int | None:
        """The seat to play, or ``None`` when the game is over."""
        return None if self.over else self.current

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.over


class RealtimeState(ABC, Generic[MoveT]):
    """A real-time game in progress (Nerts): every seat may act at any moment.

    There is no seat "to play": seats act when they like. :meth:`submit` schedules one seat's
    move at a clock reading, :meth:`advance_to` / :meth:`step` run the clock; a move is
    validated when it executes (it fails, changing nothing, when the table moved on).

    Not thread-safe: :meth:`submit`, :meth:`advance_to`, :meth:`step`, ``run``, :meth:`clone`
    and :meth:`to_json` of one state from two threads at once raise
    :class:`~cardcore.errors.ConcurrentUseError` in one of them; reads are not checked.
    """

    __slots__ = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _guard(cls, _REALTIME_GUARDED)

    @property
    @abstractmethod
    def game(self) -> Game[MoveT]: ...

    @property
    @abstractmethod
    def now(self) -> int:
        """The table clock in ms since the round began."""

    @property
    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def legal_moves(self, seat: int) -> list[MoveT]: ...

    @abstractmethod
    def legal_actions(self, seat: int) -> list[int]: ...

    @abstractmethod
    def submit(self, seat: int, move: MoveT | int, t_ms: int) -> None:
        """Schedules ``move`` for ``seat`` at ``t_ms`` (>= :attr:`now`)."""

    @abstractmethod
    def advance_to(self, t_ms: int) -> None:
        """Runs every event due by ``t_ms`` and moves the clock there; a ``t_ms`` before
        :attr:`now` raises :class:`~cardcore.errors.OptionError`."""

    @abstractmethod
    def step(self) -> bool:
        """Runs the next event; False when nothing is pending or the round is over."""

    @abstractmethod
    def observation(self, seat: int) -> Any: ...

    @abstractmethod
    def clone(self) -> RealtimeState[MoveT]: ...

    @abstractmethod
    def returns(self) -> list[float]: ...

    @abstractmethod
    def points(self) -> list[int]: ...

    def action_mask(self, seat: int) -> NDArray[np.bool_]:
        return self.game.mask_of(self.legal_actions(seat))

    def observation_tensor(self, seat: int) -> NDArray[np.float32]:
        game = self.game
        seat = check_seat(seat, game.num_players)
        return game._observation_tensor(self, seat)

    def observation_json(self, seat: int) -> str:
        return self.game.observation_to_json(self, seat)

    def observation_document(self, seat: int) -> dict[str, Any]:
        return self.game.observation_document(self, seat)

    @exclusive
    def to_json(self) -> str:
        return self.game.state_to_json(self)
