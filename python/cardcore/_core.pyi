# Stubs of the private Rust extension, checked by `python -m mypy.stubtest cardcore._core`.
# Each game owns one marked section; keep edits inside your section.

__version__: str
RNG_VERSION: str

# --- cards ---------------------------------------------------------------------------------
from collections.abc import Iterable as _Iterable  # noqa: E402
from typing import Any as _Any  # noqa: E402
from typing import final as _final  # noqa: E402

@_final
class Card:
    def __new__(cls, face: int, deck: int = ...) -> Card: ...
    @classmethod
    def of(cls, rank: int, suit: int, deck: int = ...) -> Card: ...
    @classmethod
    def joker(cls, k: int) -> Card: ...
    @classmethod
    def from_id(cls, card_id: int, num_decks: int) -> Card: ...
    @classmethod
    def parse(cls, text: str) -> Card: ...
    @property
    def face(self) -> int: ...
    @property
    def deck(self) -> int: ...
    @property
    def is_joker(self) -> bool: ...
    @property
    def rank(self) -> int: ...
    @property
    def suit(self) -> int: ...
    @property
    def is_red(self) -> bool: ...
    def id(self, num_decks: int) -> int: ...
    def full(self) -> str: ...
    def __hash__(self) -> int: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    def __lt__(self, other: Card, /) -> bool: ...
    def __le__(self, other: Card, /) -> bool: ...
    def __gt__(self, other: Card, /) -> bool: ...
    def __ge__(self, other: Card, /) -> bool: ...
    def __reduce__(self) -> tuple[type[Card], tuple[int, int]]: ...
    def __copy__(self) -> Card: ...
    def __deepcopy__(self, memo: _Any) -> Card: ...

def parse_cards(text: str | _Iterable[Card]) -> list[Card]: ...
def card_faces(hand: str | _Iterable[Card]) -> bytes: ...
def format_cards(cards: str | _Iterable[Card], *, full: bool = ..., sort: bool = ...) -> str: ...
def cards_from_ids(ids: bytes | _Iterable[int], num_decks: int) -> list[Card]: ...

JOKER0: int
MAX_JOKER: int

def format_face(face: int) -> str: ...

# --- random --------------------------------------------------------------------------------
from typing import Literal as _Literal  # noqa: E402
from typing import overload as _overload  # noqa: E402

@_final
class Rng:
    def __new__(cls, seed: int) -> Rng: ...
    @staticmethod
    def for_stream(master: int, index: int, stream: str) -> Rng: ...
    @staticmethod
    def from_state(state: tuple[int, int, int, int] | list[int]) -> Rng: ...
    @property
    def state(self) -> tuple[int, int, int, int]: ...
    def next_u64(self) -> int: ...
    def below(self, bound: int) -> int: ...
    def random(self) -> float: ...
    def normal(self) -> float: ...
    def lognormal(self, median: float, sigma: float) -> float: ...
    def permutation(self, n: int) -> list[int]: ...

def derive_seed(master: int, index: int, stream: str) -> int: ...
@_overload
def permutations(
    n: int,
    master: int,
    first_index: int,
    count: int,
    stream: str = ...,
    writable: _Literal[False] = ...,
) -> bytes: ...
@_overload
def permutations(
    n: int, master: int, first_index: int, count: int, stream: str, writable: _Literal[True]
) -> bytearray: ...

# --- meld (three-thirteen) -----------------------------------------------------------------
from collections.abc import Mapping as _Mapping  # noqa: E402
from collections.abc import Sequence as _Sequence  # noqa: E402

def meld_deadwood(
    faces: bytes, wild: int, ace_mode: int = ..., wild_points: int = ..., joker_points: int = ...
) -> int: ...
def meld_discards(
    faces: bytes, wild: int, ace_mode: int = ..., wild_points: int = ..., joker_points: int = ...
) -> list[int]: ...
def meld_deadwood_batch(
    hands: _Sequence[bytes],
    wild: int,
    ace_mode: int = ...,
    wild_points: int = ...,
    joker_points: int = ...,
) -> list[int]: ...
def meld_deadwood_packed(
    buf: bytes,
    hand_size: int,
    wild: int,
    ace_mode: int = ...,
    wild_points: int = ...,
    joker_points: int = ...,
) -> list[int]: ...
def meld_best(
    faces: bytes, wild: int, ace_mode: int = ..., wild_points: int = ..., joker_points: int = ...
) -> tuple[list[tuple[int, list[tuple[int, int]]]], list[int], int]: ...
def min_deadwood(
    hand: str | _Iterable[Card],
    wild: int | str,
    *,
    ace_mode: str = ...,
    wild_points: int = ...,
    joker_points: int = ...,
) -> int: ...
def min_deadwood_batch(
    hands: _Sequence[str | _Iterable[Card]] | _Any,
    wild: int | str,
    *,
    ace_mode: str = ...,
    wild_points: int = ...,
    joker_points: int = ...,
    decks: int = ...,
) -> list[int]: ...

_HardView = tuple[bytes, bytes, int, int, int, bool]
_HardParams = tuple[float, float, float, int, int, float]

def tt_hard_take_pile(
    view: _HardView,
    top: int,
    can_go_out: bool,
    rules: tuple[int, int, int],
    params: _HardParams,
) -> bool: ...
def tt_hard_discard(
    view: _HardView,
    banned: int | None,
    feed: bytes,
    rules: tuple[int, int, int],
    params: _HardParams,
) -> int | None: ...
def tt_expert_decide(
    cards: tuple[int, bytes, bytes, list[bytes], list[int], int],
    round: tuple[int, int, int, bool, int | None, int | None, int, int],
    options: tuple[int, int, bool],
    rules: tuple[int, int, int],
    params: tuple[int, float | None, int, int, float, bool, bool, int, float],
    hard_params: _HardParams,
    seed: int,
) -> tuple[int, int, int]: ...

# --- spite (spite & malice) ----------------------------------------------------------------
SPITE_FEATURES: list[str]
SPITE_NUM_FEATURES: int
SPITE_NO_CARD: int
SPITE_MAX_SIDE_DEPTH: int
SPITE_MAX_CENTER: int

def spite_plan(
    hand: bytes,
    sides: list[bytes],
    side_lens: list[int],
    payoff: int,
    payoff_left: int,
    center: bytes,
    opp_payoffs: bytes,
    next_side_tops: bytes,
    weights: list[float],
    *,
    top: int = 12,
    wild_start: bool = True,
    refill_empty_hand: bool = True,
    side_rule: int = 0,
    must_play_aces: bool = False,
    node_limit: int = ...,
) -> tuple[float, list[tuple[int, int, int]], int, bool]: ...
def spite_weights(name: str) -> list[float]: ...

@_final
class SpiteActions:
    def __new__(
        cls, slots: int, sides: int, face: list[int], face_rank: list[int], wild_start: bool
    ) -> SpiteActions: ...
    def legal(
        self,
        center: list[list[int]],
        payoff: list[int],
        sides: list[list[int]],
        hand: list[int],
        discards: bool,
    ) -> list[int]: ...

def spite_expert_decide(
    table: tuple[int, bytes, bytes, list[int], list[list[bytes]], list[bytes], list[int], int],
    game: tuple[int, int, int, int],
    rules: tuple[int, bool, bool, int, bool],
    params: tuple[int, float | None, int, int, float, float, int],
    weights: list[float],
    seed: int,
) -> tuple[list[tuple[int, int, int]], int, int]: ...

# --- nerts ---------------------------------------------------------------------------------
NERTS_STATE_BYTES: int

def nerts_moves(state: bytes) -> bytes: ...
def nerts_move_codes(state: bytes) -> list[int]: ...
def nerts_moves_batch(states: bytes) -> tuple[bytes, bytes]: ...
def nerts_count_batch(states: bytes, repeat: int = 1) -> int: ...

from typing import ClassVar as _ClassVar  # noqa: E402

NERTS_UNLIMITED_RECYCLES: int
NERTS_NONE: int
NERTS_SRC_WASTE: int
NERTS_SRC_NERTS: int
NERTS_K_FOUNDATION: int
NERTS_K_WORK: int
NERTS_K_FLIP: int
NERTS_K_RECYCLE: int
NERTS_K_CALL: int
NERTS_F_PARTIAL: int
NERTS_F_FILL_ANY: int
NERTS_F_RECYCLE: int
NERTS_F_RUNNING: int

@_final
class NertsTiming:
    """The table speed of the look-ahead's simulated players."""

    def __new__(
        cls,
        *,
        m_play: float,
        m_build: float,
        m_seq: float,
        m_flip: float,
        m_call: float,
        sigma: float,
        miss: float,
        min_ms: int,
        max_ms: int,
        retry_ms: int,
    ) -> NertsTiming: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    __hash__: _ClassVar[None]  # type: ignore[assignment]
    @property
    def m_play(self) -> float: ...
    @property
    def m_build(self) -> float: ...
    @property
    def m_seq(self) -> float: ...
    @property
    def m_flip(self) -> float: ...
    @property
    def m_call(self) -> float: ...
    @property
    def sigma(self) -> float: ...
    @property
    def miss(self) -> float: ...
    @property
    def min_ms(self) -> int: ...
    @property
    def max_ms(self) -> int: ...
    @property
    def retry_ms(self) -> int: ...

@_final
class NertsRacing:
    """How the look-ahead races its candidates."""

    def __new__(cls, *, first: int, step: int, z: float, max_loss: float) -> NertsRacing: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    __hash__: _ClassVar[None]  # type: ignore[assignment]
    @property
    def first(self) -> int: ...
    @property
    def step(self) -> int: ...
    @property
    def z(self) -> float: ...
    @property
    def max_loss(self) -> float: ...

@_final
class NertsRules:
    """The table options a look-ahead rollout needs."""

    def __new__(
        cls,
        *,
        num_work: int,
        flip_count: int,
        partial: bool,
        fill_any: bool,
        max_recycles: int,
        foundation_points: int,
        nerts_penalty: int,
        nerts_bonus: int,
    ) -> NertsRules: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    __hash__: _ClassVar[None]  # type: ignore[assignment]
    @property
    def num_work(self) -> int: ...
    @property
    def flip_count(self) -> int: ...
    @property
    def partial(self) -> bool: ...
    @property
    def fill_any(self) -> bool: ...
    @property
    def max_recycles(self) -> int: ...
    @property
    def foundation_points(self) -> int: ...
    @property
    def nerts_penalty(self) -> int: ...
    @property
    def nerts_bonus(self) -> int: ...

@_final
class NertsSeat:
    """What the deciding seat knows of one seat (faces 0..52, 255 = not known)."""

    def __new__(
        cls,
        *,
        nerts_count: int,
        nerts_top: int,
        work: _Sequence[_Sequence[int]],
        cycle: _Sequence[int],
        waste: int,
        pool: _Sequence[int],
        recycles: int,
        found: int,
    ) -> NertsSeat: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    __hash__: _ClassVar[None]  # type: ignore[assignment]
    @property
    def nerts_count(self) -> int: ...
    @property
    def nerts_top(self) -> int: ...
    @property
    def work(self) -> list[list[int]]: ...
    @property
    def cycle(self) -> list[int]: ...
    @property
    def waste(self) -> int: ...
    @property
    def pool(self) -> list[int]: ...
    @property
    def recycles(self) -> int: ...
    @property
    def found(self) -> int: ...

def nerts_rollouts(
    seats: _Sequence[NertsSeat],
    need: _Sequence[_Sequence[int]],
    root: int,
    horizon_ms: int,
    samples: int,
    seed: int,
    timing: NertsTiming,
    rules: NertsRules,
    candidates: _Sequence[int],
) -> list[int]: ...
def nerts_knowledge(
    obs: _Any, own_cycle: _Sequence[int | None]
) -> tuple[list[NertsSeat], list[list[int]]]: ...
def nerts_choose(
    obs: _Any,
    own_cycle: _Sequence[int | None],
    horizon_ms: int,
    samples: int,
    seed: int,
    timing: NertsTiming,
    rules: NertsRules,
    candidates: _Sequence[int],
    bonus: _Sequence[float],
    racing: NertsRacing,
) -> int: ...
def nerts_greedy_move(
    seats: _Sequence[NertsSeat], need: _Sequence[_Sequence[int]], seat: int, rules: NertsRules
) -> int | None: ...
def nerts_sim_trace(
    seats: _Sequence[_Mapping[str, _Any]],
    foundations: _Sequence[_Sequence[int]],
    rules: NertsRules,
    moves: _Sequence[tuple[int, int]],
) -> list[dict[str, _Any]]: ...
def nerts_run_round(round: _Mapping[str, _Any]) -> dict[str, _Any]: ...

# --- rl (cardcore.rl.vector, cardcore.rl.pettingzoo) ----------------------------------------
_Arrays = tuple[bytearray, bytearray, bytearray, bytearray, bytearray, bytearray]

@_final
class ThreeThirteenRules:
    def __new__(
        cls,
        *,
        players: int,
        decks: int,
        jokers: int,
        ace_mode: int,
        wild_points: int,
        joker_points: int,
        first_dealer: int | None,
        shared_win: bool,
        forbid_return: bool,
        min_own_turns: int,
        max_turns: int,
    ) -> ThreeThirteenRules: ...

@_final
class ThreeThirteenBatch:
    def __new__(
        cls, rules: ThreeThirteenRules, n: int, seed: int, *, threads: int
    ) -> ThreeThirteenBatch: ...
    def reset(self) -> _Arrays: ...
    def step(self, actions: bytes) -> _Arrays: ...

@_final
class SpiteMaliceRules:
    def __new__(
        cls,
        *,
        players: int,
        decks: int,
        jokers: bool,
        payoff_size: int,
        hand_size: int,
        side_stacks: int,
        center_stacks: int,
        king_can_start: bool,
        refill_empty_hand: bool,
        completed_to_stock: bool,
        stock_exhausted: str,
        side_stack_rule: str,
        must_play_aces: bool,
        first_player: int | None,
        max_turns: int,
    ) -> SpiteMaliceRules: ...

@_final
class Episode:
    def __new__(cls, rules: ThreeThirteenRules | SpiteMaliceRules, seed: int) -> Episode: ...
    @property
    def current_player(self) -> int | None: ...
    def apply(self, action: int) -> None: ...
    def observe(self, seat: int) -> tuple[bytearray, bytearray]: ...
    def returns(self) -> list[float]: ...
