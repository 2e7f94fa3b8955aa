"""The games inside OpenSpiel (``pip install 'cardcore[openspiel]'``; ``docs/rl.md``).

Importing this module registers three OpenSpiel Python games, built only on the public
embedding protocol (:func:`cardcore.load_game`, ``docs/embedding.md``)::

    import pyspiel
    import cardcore.openspiel  # noqa: F401  (registers the games)

    game = pyspiel.load_game("cardcore_three_thirteen", {"players": 2, "jokers": 2})

- ``cardcore_three_thirteen`` and ``cardcore_spite_malice``: sequential, imperfect information.
- ``cardcore_nerts``: simultaneous moves at a fixed tick (``tick_ms``, 100 by default): at each
  tick every seat picks a legal action or *wait* (the last id); a seat whose move is still
  scheduled may only wait; then the table clock moves one tick (the discretisation of
  ``docs/embedding.md``). Moves of one tick execute at the same clock reading in the engine's
  seeded tie-break order, and one may fail when the table moved on.

Game parameters are the game's rules options (``cardcore games GAME``) plus ``players``; an
option whose default is "auto" (``None``) takes ``-1`` for auto. ``deals`` and ``deal_seed``
describe the one chance node: the deal, ``deals`` equally likely outcomes, outcome ``i`` being
``cardcore.load_game(...).new_state(deal_seed + i)``. Every later shuffle (later rounds, stock
rebuilds) follows from that deal's seeded stream inside the state, so OpenSpiel sees no other
chance node: algorithms that enumerate chance outcomes see a sample of ``deals`` deals.

Observation tensor: ``observation_tensor(seat)`` of the protocol. Information-state tensor: the
seat one-hot then that tensor (the protocol's tensor keeps the public history that matters,
each seat's discards and the pile cards it took, but it is not a perfect-recall encoding).
Information-state string: a running sha256 of the seat's observation tensors at every step
since the deal (perfect recall: the sequence of its views), then the current
``observation_json(seat)``; observation string: that JSON. Utility: +1/-1/0 from
``returns()`` (zero-sum for two players with one winner, general-sum otherwise), Nerts the
round's points. Serialization pickles the state as its ``to_json()`` document.
``resample_from_infostate`` is ``resample_hidden``. :class:`CardcoreBot`
plays a cardcore agent (``hard``, ``expert``, ...) as an OpenSpiel bot.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

import numpy as np

try:
    import pyspiel
except ImportError as e:  # pragma: no cover - depends on the environment
    raise ImportError(
        "cardcore.openspiel needs OpenSpiel: pip install 'cardcore[openspiel]'"
    ) from e

from cardcore.errors import OptionError
from cardcore.games import get_game, load_game
from cardcore.games.api import Game, RealtimeState, State
from cardcore.games.base import resolve_agent
from cardcore.rng import Rng, derive_seed

__all__ = [
    "GAMES",
    "MAX_DEALS",
    "ROUND_CAP_MS",
    "CardcoreBot",
    "CardcoreGame",
    "CardcoreState",
    "NertsGame",
    "SpiteMaliceGame",
    "ThreeThirteenGame",
]

GAMES: Final = {
    "three-thirteen": "cardcore_three_thirteen",
    "spite-malice": "cardcore_spite_malice",
    "nerts": "cardcore_nerts",
}
"""cardcore game name -> OpenSpiel short name."""

DEFAULT_DEALS: Final = 1 << 16
MAX_DEALS: Final = 1 << 20
"""OpenSpiel lists every chance outcome: the deal's list is kept at most this long."""
ROUND_CAP_MS: Final = 3_600_000
"""A Nerts round ends by the engine's cap after an hour of table time (``docs/embedding.md``)."""
_U64: Final = 1 << 64
_AUTO: Final = -1


def _parameters(name: str) -> dict[str, Any]:
    """The OpenSpiel parameter specification of cardcore game ``name`` (defaults)."""
    spec = get_game(name)
    params: dict[str, Any] = {"players": spec.default_players}
    for o in spec.options:
        params[o.name] = _AUTO if o.default is None else o.default
    params["deals"] = DEFAULT_DEALS
    params["deal_seed"] = 0
    if name == "nerts":
        params["tick_ms"] = 100
    return params


def _game_type(name: str, utility: pyspiel.GameType.Utility) -> pyspiel.GameType:
    spec = get_game(name)
    nerts = name == "nerts"
    return pyspiel.GameType(
        short_name=GAMES[name],
        long_name=f"cardcore {spec.name}",
        dynamics=pyspiel.GameType.Dynamics.SIMULTANEOUS
        if nerts
        else pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.max_players,
        min_num_players=spec.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(name),
    )


class CardcoreGame(pyspiel.Game):  # type: ignore[misc]
    """One cardcore game for fixed rules options, as an OpenSpiel game (one subclass per
    game, ``NAME`` its cardcore name). ``cardcore_game`` is the protocol
    :class:`cardcore.games.api.Game` it plays."""

    NAME: str

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        name = self.NAME
        spec = get_game(name)
        values = dict(_parameters(name))
        values.update(params or {})
        self.deals = int(values.pop("deals"))
        self.deal_seed = int(values.pop("deal_seed")) % _U64
        self.tick_ms = int(values.pop("tick_ms", 0))
        if not 1 <= self.deals <= MAX_DEALS:
            raise OptionError(f"deals must be in 1..{MAX_DEALS}, not {self.deals}")
        if name == "nerts" and self.tick_ms < 1:
            raise OptionError(f"tick_ms must be at least 1, not {self.tick_ms}")
        options = {
            k: (None if v == _AUTO and spec.option(k).nullable else v)
            for k, v in values.items()
            if k != "players"
        }
        self.cardcore_game: Game[Any] = load_game(name, players=int(values["players"]), **options)
        self.realtime = self.cardcore_game.realtime
        players = self.cardcore_game.num_players
        self.wait = self.cardcore_game.num_actions if self.realtime else -1
        """Nerts: the *wait* action id (one past the protocol's ids)."""
        low, high, zero_sum = self._utility()
        utility = (
            pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM
        )
        info = pyspiel.GameInfo(
            num_distinct_actions=self.cardcore_game.num_actions + (1 if self.realtime else 0),
            max_chance_outcomes=self.deals,
            num_players=players,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0 if zero_sum else None,
            max_game_length=self._max_length(),
        )
        full = {**values, "deals": self.deals, "deal_seed": self.deal_seed}
        if self.realtime:
            full["tick_ms"] = self.tick_ms
        super().__init__(_game_type(name, utility), info, full)
        self._outcomes = [(i, 1.0 / self.deals) for i in range(self.deals)]

    def _utility(self) -> tuple[float, float, bool]:
        """(min, max, zero-sum) of the returns."""
        o: dict[str, Any] = dict(self.cardcore_game.options)
        if self.realtime:
            low = -float(o["nerts_penalty"]) * float(o["nerts_pile_size"])
            high = 52.0 * float(o["foundation_points"]) + float(o["nerts_bonus"])
            return low, max(high, low + 1.0), False
        # +1 to each winner, -1 to the others, 0 to all when nobody wins: zero-sum only for
        # two players with a single winner (a shared win pays both)
        zero_sum = o["players"] == 2 and o.get("tie_rule", "all_tied") == "all_tied"
        return -1.0, 1.0, zero_sum

    def _max_length(self) -> int:
        """An upper bound on the decisions (ticks) of a game, chance excluded."""
        o: dict[str, Any] = dict(self.cardcore_game.options)
        players = int(o["players"])
        if self.cardcore_game.name == "three-thirteen":
            # 11 rounds; a turn is a draw and a discard; the round ends at the turn cap or
            # after one last turn of every other seat
            return 11 * 2 * (int(o["max_turns_per_round"]) + players + 1)
        if self.realtime:
            return ROUND_CAP_MS // self.tick_ms + 2
        # a turn is plays to the centre then one discard; a turn cannot play more cards
        # than the game holds (each play moves one card to the centre)
        cards = int(o["num_decks"]) * (54 if o["wild_mode"] == "jokers" else 52)
        return int(o["max_turns"]) * (cards + 1)

    def new_initial_state(self) -> CardcoreState:
        """The state before the deal (a chance node)."""
        return CardcoreState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> _Observer:
        """The observer OpenSpiel asks for (observation or information state)."""
        return _Observer(self, iig_obs_type, params)


class _Table:
    """The protocol state a :class:`CardcoreState` plays (``None`` before the deal). It copies
    with ``clone()`` and pickles as ``to_json()``: OpenSpiel clones a Python state by deep-
    copying its attributes and serializes it by pickling them."""

    __slots__ = ("game", "state")

    def __init__(self, game: Game[Any], state: Any) -> None:
        self.game = game
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Table:
        return _Table(self.game, None if self.state is None else self.state.clone())

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        text = None if self.state is None else self.state.to_json()
        return (_table_from_json, (self.game.name, dict(self.game.options), text))


def _table_from_json(name: str, options: dict[str, Any], text: str | None) -> _Table:
    game = load_game(name, **options)
    return _Table(game, None if text is None else game.state_from_json(text))


def _digest(previous: bytes, observation: bytes) -> bytes:
    return hashlib.sha256(previous + observation).digest()


class CardcoreState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state over a protocol state (:attr:`cardcore_state`)."""

    def __init__(self, game: CardcoreGame) -> None:
        super().__init__(game)
        self._table = _Table(game.cardcore_game, None)
        self._deal_seed = game.deal_seed
        self._tick_ms = game.tick_ms
        self._wait = game.wait
        self._chains: list[bytes] = [b""] * game.cardcore_game.num_players
        self._resamples = 0

    @property
    def cardcore_state(self) -> State[Any] | RealtimeState[Any]:
        """The protocol state (``docs/embedding.md``) this state plays; ``None`` before the
        deal. Read it, or play on a ``clone()`` of it: changing it bypasses OpenSpiel."""
        return self._table.state  # type: ignore[no-any-return]

    # -- OpenSpiel's State API -------------------------------------------------------------

    def current_player(self) -> int:
        cc = self._table.state
        if cc is None:
            return int(pyspiel.PlayerId.CHANCE)
        if cc.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        if self._wait >= 0:
            return int(pyspiel.PlayerId.SIMULTANEOUS)
        return int(cc.current_player)

    def _legal_actions(self, player: int) -> list[int]:
        cc = self._table.state
        if self._wait < 0:
            return list(cc.legal_actions())
        if cc.pending(player):
            return [self._wait]
        return [*cc.legal_actions(player), self._wait]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.get_game()._outcomes  # type: ignore[no-any-return]

    def _apply_action(self, action: int) -> None:
        table = self._table
        if table.state is None:
            table.state = table.game.new_state((self._deal_seed + action) % _U64)
            self._chains = [_digest(b"deal", obs) for obs in self._observations()]
            return
        table.state.apply(action)
        self._extend_chains()

    def _apply_actions(self, actions: Sequence[int]) -> None:
        cc = self._table.state
        now = cc.now
        for seat, action in enumerate(actions):
            if action != self._wait:
                cc.submit(seat, int(action), now)
        cc.advance_to(now + self._tick_ms)
        self._extend_chains()

    def _observations(self) -> list[bytes]:
        """Every seat's observation tensor, as bytes: what the histories fold in (a step's
        tensor shows what the seat learnt at it; the sequence is the seat's whole view)."""
        cc = self._table.state
        return [cc.observation_tensor(s).tobytes() for s in range(len(self._chains))]

    def _extend_chains(self) -> None:
        self._chains = [
            _digest(c, obs) for c, obs in zip(self._chains, self._observations(), strict=True)
        ]

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action} (seed {(self._deal_seed + action) % _U64})"
        if action == self._wait:
            return "wait"
        return self._table.game.action_text(action)

    def is_terminal(self) -> bool:
        cc = self._table.state
        return cc is not None and bool(cc.is_over)

    def returns(self) -> list[float]:
        cc = self._table.state
        if cc is None or not cc.is_over:
            return [0.0] * self._table.game.num_players
        return [float(r) for r in cc.returns()]

    def __str__(self) -> str:
        cc = self._table.state
        return "before the deal" if cc is None else str(cc.to_json())

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> Any:
        """A state ``player_id`` cannot tell from this one: ``resample_hidden`` of the protocol
        state, seeded from a counter in this state (so a search is reproducible; the sampler
        is not used). The other seats' information-state histories restart from the
        player's (their true past observations are what was re-dealt). A re-dealt Nerts
        state plays on and writes its JSON, but does not deserialize (the protocol refuses a
        Nerts table that does not follow from its seed)."""
        copy_ = self.clone()
        cc = self._table.state
        if cc is None:
            return copy_
        if not callable(getattr(cc, "resample_hidden", None)):
            raise pyspiel.SpielError(f"{self._table.game.name} states have no resample_hidden")
        self._resamples += 1
        seed = derive_seed(self._deal_seed, self._resamples, "openspiel-resample")
        copy_._table.state = cc.resample_hidden(player_id, seed)
        mine = self._chains[player_id]
        obs = copy_._observations()
        copy_._chains = [
            mine if s == player_id else _digest(b"resampled" + mine, o) for s, o in enumerate(obs)
        ]
        return copy_


class _Observer:
    """OpenSpiel's Python observer: the protocol's tensor (observation), or the seat one-hot
    and that tensor (information state); strings as in the module docstring."""

    def __init__(
        self, game: CardcoreGame, iig_obs_type: pyspiel.IIGObservationType | None, params: Any
    ) -> None:
        if params:
            raise OptionError(f"observation parameters are not supported: {params!r}")
        if iig_obs_type is not None and (
            iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
            or not iig_obs_type.public_info
        ):
            raise OptionError("cardcore games observe as one seat (own private and public info)")
        self.info_state = iig_obs_type is not None and iig_obs_type.perfect_recall
        players = game.cardcore_game.num_players
        size = game.cardcore_game.observation_shape[0]
        self.tensor = np.zeros(size + (players if self.info_state else 0), np.float32)
        self.dict: dict[str, Any] = {}
        if self.info_state:
            self.dict["seat"] = self.tensor[:players]
        self.dict["observation"] = self.tensor[-size:]

    def set_from(self, state: CardcoreState, player: int) -> None:
        self.tensor.fill(0)
        if self.info_state:
            self.dict["seat"][player] = 1
        cc = state._table.state
        if cc is not None:
            self.dict["observation"][:] = cc.observation_tensor(player)

    def string_from(self, state: CardcoreState, player: int) -> str:
        cc = state._table.state
        if cc is None:
            return "before the deal"
        text = str(cc.observation_json(player))
        if self.info_state:
            return f"{state._chains[player].hex()}\n{text}"
        return text


class CardcoreBot(pyspiel.Bot):  # type: ignore[misc]
    """A cardcore agent playing one seat of a turn-based cardcore game in OpenSpiel (for
    ``evaluate_bots``, or against OpenSpiel's bots). ``agent`` is an agent name as
    ``cardcore sim --agents`` takes it (built-in, a level such as ``"hard"`` or ``"expert"``,
    ``package.module:factory``) or an object with ``act(observation, legal, rng)``;
    its random stream is ``Rng.for_stream(seed, player_id, "agent")``, continued from game to
    game."""

    def __init__(
        self, game: CardcoreGame, player_id: int, agent: Any = "hard", seed: int = 0
    ) -> None:
        pyspiel.Bot.__init__(self)
        if game.realtime:
            raise OptionError("CardcoreBot plays turn-based games (Nerts agents run in the engine)")
        self._game = game.cardcore_game
        self._factory: Callable[[], Any] | None = None
        if isinstance(agent, str):
            self._factory = resolve_agent(get_game(self._game.name), agent)
            self._agent = self._factory()
        else:
            self._agent = agent
        self._player = player_id
        self._rng = Rng.for_stream(seed, player_id, "agent")

    def restart_at(self, state: Any) -> None:
        """A new game: a new agent from the factory (agents may remember a game)."""
        if self._factory is not None:
            self._agent = self._factory()

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        """Agents read the whole observation at every decision: nothing to do."""

    def step(self, state: Any) -> int:
        cc = state.cardcore_state
        move = self._agent.act(cc.observation(self._player), cc.legal_moves(), self._rng)
        return int(self._game.move_to_action(move))


class ThreeThirteenGame(CardcoreGame):
    """``cardcore_three_thirteen``."""

    NAME = "three-thirteen"


class SpiteMaliceGame(CardcoreGame):
    """``cardcore_spite_malice``."""

    NAME = "spite-malice"


class NertsGame(CardcoreGame):
    """``cardcore_nerts`` (simultaneous moves at a fixed tick)."""

    NAME = "nerts"


def _register() -> None:
    # classes, as OpenSpiel's own Python games register: a creator that only the registry
    # holds (a lambda) crashes the interpreter at exit when the registry lets it go
    known = {t.short_name for t in pyspiel.registered_games()}
    for cls in (ThreeThirteenGame, SpiteMaliceGame, NertsGame):
        if GAMES[cls.NAME] not in known:
            pyspiel.register_game(_game_type(cls.NAME, pyspiel.GameType.Utility.GENERAL_SUM), cls)


_register()
