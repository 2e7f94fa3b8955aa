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

NATURALS: int
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

@_final
class MeldArrangement:
    """One optimal arrangement: melds (kind 0 set / 1 run, [(hand index, face stood for or
    -1)]), the deadwood's hand indices and its points."""

    def __new__(
        cls,
        *,
        melds: _Sequence[tuple[int, _Sequence[tuple[int, int]]]],
        deadwood: _Sequence[int],
        points: int,
    ) -> MeldArrangement: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    __hash__: _ClassVar[None]  # type: ignore[assignment]
    @property
    def melds(self) -> list[tuple[int, list[tuple[int, int]]]]: ...
    @property
    def deadwood(self) -> list[int]: ...
    @property
    def points(self) -> int: ...

def meld_best(
    faces: bytes, wild: int, ace_mode: int = ..., wild_points: int = ..., joker_points: int = ...
) -> MeldArrangement: ...
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

@_final
class ThreeThirteenHardParams:
    """The hard agent's tuning."""

    def __new__(
        cls,
        *,
        out_bonus: float,
        feed_penalty: float,
        now_weight: float,
        slack: int,
        max_candidates: int,
        gamma: float,
    ) -> ThreeThirteenHardParams: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    __hash__: _ClassVar[None]  # type: ignore[assignment]
    @property
    def out_bonus(self) -> float: ...
    @property
    def feed_penalty(self) -> float: ...
    @property
    def now_weight(self) -> float: ...
    @property
    def slack(self) -> int: ...
    @property
    def max_candidates(self) -> int: ...
    @property
    def gamma(self) -> float: ...

@_final
class ThreeThirteenView:
    """What the hard agent sees at a decision (cards as faces)."""

    def __new__(
        cls,
        *,
        hand: bytes,
        seen: bytes,
        num_decks: int,
        jokers: int,
        wild: int,
        ace_mode: int,
        wild_points: int,
        joker_points: int,
        final_turn: bool,
    ) -> ThreeThirteenView: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    __hash__: _ClassVar[None]  # type: ignore[assignment]
    @property
    def hand(self) -> bytes: ...
    @property
    def seen(self) -> bytes: ...
    @property
    def num_decks(self) -> int: ...
    @property
    def jokers(self) -> int: ...
    @property
    def wild(self) -> int: ...
    @property
    def ace_mode(self) -> int: ...
    @property
    def wild_points(self) -> int: ...
    @property
    def joker_points(self) -> int: ...
    @property
    def final_turn(self) -> bool: ...

def tt_hard_take_pile(
    view: ThreeThirteenView, top: int, can_go_out: bool, params: ThreeThirteenHardParams
) -> bool: ...
def tt_hard_discard(
    view: ThreeThirteenView, banned: int | None, feed: bytes, params: ThreeThirteenHardParams
) -> int | None: ...

@_final
class ThreeThirteenTable:
    """What the expert's seat sees (cards as faces)."""

    def __new__(
        cls,
        *,
        seat: int,
        hand: bytes,
        pile: bytes,
        taken: _Sequence[bytes],
        hand_sizes: _Sequence[int],
        stock_size: int,
        num_decks: int,
        jokers: int,
        wild: int,
        ace_mode: int,
        wild_points: int,
        joker_points: int,
        discard_phase: bool,
        banned: int | None,
        out_seat: int | None,
        turn_in_round: int,
        first: int,
        min_own_turns: int,
        max_turns: int,
        forbid_return: bool,
    ) -> ThreeThirteenTable: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    __hash__: _ClassVar[None]  # type: ignore[assignment]
    @property
    def seat(self) -> int: ...
    @property
    def hand(self) -> bytes: ...
    @property
    def pile(self) -> bytes: ...
    @property
    def taken(self) -> list[bytes]: ...
    @property
    def hand_sizes(self) -> list[int]: ...
    @property
    def stock_size(self) -> int: ...
    @property
    def num_decks(self) -> int: ...
    @property
    def jokers(self) -> int: ...
    @property
    def wild(self) -> int: ...
    @property
    def ace_mode(self) -> int: ...
    @property
    def wild_points(self) -> int: ...
    @property
    def joker_points(self) -> int: ...
    @property
    def discard_phase(self) -> bool: ...
    @property
    def banned(self) -> int | None: ...
    @property
    def out_seat(self) -> int | None: ...
    @property
    def turn_in_round(self) -> int: ...
    @property
    def first(self) -> int: ...
    @property
    def min_own_turns(self) -> int: ...
    @property
    def max_turns(self) -> int: ...
    @property
    def forbid_return(self) -> bool: ...

THREE_THIRTEEN_SEARCHES: list[str]
THREE_THIRTEEN_FACES: int
THREE_THIRTEEN_DRAW_STOCK: int
THREE_THIRTEEN_DRAW_DISCARD: int
THREE_THIRTEEN_DISCARD: int

@_final
class ThreeThirteenExpertParams:
    """The expert's search (search: a name of THREE_THIRTEEN_SEARCHES)."""

    def __new__(
        cls,
        *,
        rollouts: int,
        time_ms: float | None,
        max_candidates: int,
        slack: int,
        margin: float,
        hard_rollouts: bool,
        infer_hands: bool,
        search: str,
        risk_weight: float,
        hard: ThreeThirteenHardParams,
        infer_epsilon: float,
    ) -> ThreeThirteenExpertParams: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    __hash__: _ClassVar[None]  # type: ignore[assignment]
    @property
    def rollouts(self) -> int: ...
    @property
    def time_ms(self) -> float | None: ...
    @property
    def max_candidates(self) -> int: ...
    @property
    def slack(self) -> int: ...
    @property
    def margin(self) -> float: ...
    @property
    def hard_rollouts(self) -> bool: ...
    @property
    def infer_hands(self) -> bool: ...
    @property
    def search(self) -> str: ...
    @property
    def risk_weight(self) -> float: ...
    @property
    def hard(self) -> ThreeThirteenHardParams: ...
    @property
    def infer_epsilon(self) -> float: ...

@_final
class ThreeThirteenDecision:
    """The expert's decision: 0 stock / 1 pile, or the hand index to discard."""

    def __new__(
        cls,
        *,
        choice: int,
        deals: int,
        candidates: int,
    ) -> ThreeThirteenDecision: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    __hash__: _ClassVar[None]  # type: ignore[assignment]
    @property
    def choice(self) -> int: ...
    @property
    def deals(self) -> int: ...
    @property
    def candidates(self) -> int: ...

@_final
class ThreeThirteenHistory:
    """The round's public history (draws: -1 stock, -2 pile card not seen, else its face)."""

    def __new__(
        cls, *, upcard: int | None, draws: _Sequence[int], discards: bytes
    ) -> ThreeThirteenHistory: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    __hash__: _ClassVar[None]  # type: ignore[assignment]
    @property
    def upcard(self) -> int | None: ...
    @property
    def draws(self) -> list[int]: ...
    @property
    def discards(self) -> bytes: ...

@_final
class ThreeThirteenStandings:
    """The match standings of the `win` search (totals before this round, rounds after it)."""

    def __new__(cls, *, totals: _Sequence[int], rounds_after: int) -> ThreeThirteenStandings: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    __hash__: _ClassVar[None]  # type: ignore[assignment]
    @property
    def totals(self) -> list[int]: ...
    @property
    def rounds_after(self) -> int: ...

def tt_expert_decide(
    table: ThreeThirteenTable,
    params: ThreeThirteenExpertParams,
    seed: int,
    history: ThreeThirteenHistory | None = None,
    standings: ThreeThirteenStandings | None = None,
) -> ThreeThirteenDecision: ...
def tt_win_chance(
    behind: _Sequence[float], mean: float, shared_var: float, own_var: float
) -> float: ...

# --- spite (spite & malice) ----------------------------------------------------------------
SPITE_FEATURES: list[str]
SPITE_NUM_FEATURES: int
SPITE_NO_CARD: int
SPITE_MAX_SIDE_DEPTH: int
SPITE_MAX_CENTER: int
SPITE_CENTER_ROWS: int

@_final
class SpitePlan:
    """The planner's answer: steps (kind, a, b), score, nodes expanded, whether it finished."""

    def __new__(
        cls,
        *,
        score: float,
        steps: _Sequence[tuple[int, int, int]],
        nodes: int,
        complete: bool,
    ) -> SpitePlan: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    __hash__: _ClassVar[None]  # type: ignore[assignment]
    @property
    def score(self) -> float: ...
    @property
    def steps(self) -> list[tuple[int, int, int]]: ...
    @property
    def nodes(self) -> int: ...
    @property
    def complete(self) -> bool: ...

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
) -> SpitePlan: ...
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

@_final
class SpiteTable:
    """What the expert's seat sees (cards as values) and the planner rules."""

    def __new__(
        cls,
        *,
        seat: int,
        hand: bytes,
        payoff_tops: bytes,
        payoff_counts: _Sequence[int],
        sides: _Sequence[_Sequence[bytes]],
        center: _Sequence[bytes],
        hand_sizes: _Sequence[int],
        stock_count: int,
        decks: int,
        hand_size: int,
        top: int,
        wild_start: bool,
        refill_empty_hand: bool,
        side_rule: int,
        must_play_aces: bool,
        turn: int,
        max_turns: int,
        turn_start_center: bytes | None,
    ) -> SpiteTable: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    __hash__: _ClassVar[None]  # type: ignore[assignment]
    @property
    def seat(self) -> int: ...
    @property
    def hand(self) -> bytes: ...
    @property
    def payoff_tops(self) -> bytes: ...
    @property
    def payoff_counts(self) -> list[int]: ...
    @property
    def sides(self) -> list[list[bytes]]: ...
    @property
    def center(self) -> list[bytes]: ...
    @property
    def hand_sizes(self) -> list[int]: ...
    @property
    def stock_count(self) -> int: ...
    @property
    def decks(self) -> int: ...
    @property
    def hand_size(self) -> int: ...
    @property
    def top(self) -> int: ...
    @property
    def wild_start(self) -> bool: ...
    @property
    def refill_empty_hand(self) -> bool: ...
    @property
    def side_rule(self) -> int: ...
    @property
    def must_play_aces(self) -> bool: ...
    @property
    def turn(self) -> int: ...
    @property
    def max_turns(self) -> int: ...
    @property
    def turn_start_center(self) -> bytes | None: ...

@_final
class SpiteExpertParams:
    """The expert's search and the planner's weights."""

    def __new__(
        cls,
        *,
        rollouts: int,
        time_ms: float | None,
        candidates: int,
        horizon: int,
        margin: float,
        win_value: float,
        node_limit: int,
        weights: _Sequence[float],
    ) -> SpiteExpertParams: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    __hash__: _ClassVar[None]  # type: ignore[assignment]
    @property
    def rollouts(self) -> int: ...
    @property
    def time_ms(self) -> float | None: ...
    @property
    def candidates(self) -> int: ...
    @property
    def horizon(self) -> int: ...
    @property
    def margin(self) -> float: ...
    @property
    def win_value(self) -> float: ...
    @property
    def node_limit(self) -> int: ...
    @property
    def weights(self) -> list[float]: ...

@_final
class SpiteDecision:
    """The expert's decision: the plan's steps (as spite_plan's), deals, plans compared."""

    def __new__(
        cls,
        *,
        steps: _Sequence[tuple[int, int, int]],
        deals: int,
        candidates: int,
    ) -> SpiteDecision: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    __hash__: _ClassVar[None]  # type: ignore[assignment]
    @property
    def steps(self) -> list[tuple[int, int, int]]: ...
    @property
    def deals(self) -> int: ...
    @property
    def candidates(self) -> int: ...

def spite_expert_decide(
    table: SpiteTable, params: SpiteExpertParams, seed: int
) -> SpiteDecision: ...

# --- nerts ---------------------------------------------------------------------------------
NERTS_STATE_BYTES: int
NERTS_MAX_WORK: int

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

@_final
class NertsKnowledge:
    """Every seat as the observing seat knows it, and the foundations' next ranks (4 x 16)."""

    def __new__(
        cls, *, seats: _Sequence[NertsSeat], need: _Sequence[_Sequence[int]]
    ) -> NertsKnowledge: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    __hash__: _ClassVar[None]  # type: ignore[assignment]
    @property
    def seats(self) -> list[NertsSeat]: ...
    @property
    def need(self) -> list[list[int]]: ...

def nerts_knowledge(obs: _Any, own_cycle: _Sequence[int | None]) -> NertsKnowledge: ...
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
@_final
class ThreeThirteenArrays:
    """A batch's arrays as native-endian bytes (cardcore.rl.vector.Batch)."""

    @property
    def observation(self) -> bytearray: ...
    @property
    def mask(self) -> bytearray: ...
    @property
    def player(self) -> bytearray: ...
    @property
    def reward(self) -> bytearray: ...
    @property
    def done(self) -> bytearray: ...
    @property
    def points(self) -> bytearray: ...

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
    def reset(self) -> ThreeThirteenArrays: ...
    def step(self, actions: bytes) -> ThreeThirteenArrays: ...

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
