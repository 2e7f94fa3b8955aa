"""The RL adapters (``cardcore.rl``): PettingZoo's and gymnasium's own checkers on every
environment and several option sets, seeding, rewards, hidden information, VectorEnv."""

from __future__ import annotations

import itertools
from typing import Any, Literal

import numpy as np
import pytest

import cardcore
from cardcore import IllegalMoveError, OptionError, Rng
from cardcore.rl import VectorEnv
from cardcore.rng import derive_seed

pettingzoo_test = pytest.importorskip("pettingzoo.test")
gymnasium = pytest.importorskip("gymnasium")
from gymnasium.utils.env_checker import check_env  # noqa: E402

from cardcore.rl import pettingzoo as pz  # noqa: E402
from cardcore.rl.gymnasium import ENV_IDS  # noqa: E402

AecCase = tuple[Literal["three-thirteen", "spite-malice"], dict[str, Any]]
TURN_BASED: list[AecCase] = [
    ("three-thirteen", {}),
    ("three-thirteen", {"players": 2, "jokers": 2, "forbid_return_of_discard_draw": True}),
    ("spite-malice", {}),
    ("spite-malice", {"players": 3, "num_center_stacks": 4, "wild_mode": "jokers"}),
]
NERTS = [({}, 100), ({"players": 3, "work_piles": 5}, 40)]


def _id(case: AecCase) -> str:
    name, options = case
    return name + "".join(f"-{k}={v}" for k, v in options.items())


def _random_masked(obs: dict[str, Any], rng: Rng) -> int:
    legal = np.flatnonzero(obs["action_mask"])
    return int(legal[rng.below(len(legal))])


# PettingZoo's api_test advises Box observations; a dict with an "action_mask" is the
# convention of its own card games, which it exempts by name.
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.parametrize("case", TURN_BASED, ids=_id)
def test_aec_api_and_seed(case: AecCase) -> None:
    name, options = case
    pettingzoo_test.api_test(pz.env(name, **options), num_cycles=150)
    pettingzoo_test.seed_test(lambda: pz.env(name, **options), num_cycles=150)


@pytest.mark.parametrize(("options", "tick_ms"), NERTS)
def test_parallel_api_and_seed(options: dict[str, Any], tick_ms: int) -> None:
    pettingzoo_test.parallel_api_test(pz.env("nerts", tick_ms=tick_ms, **options), num_cycles=150)
    pettingzoo_test.parallel_seed_test(
        lambda: pz.env("nerts", tick_ms=tick_ms, **options), num_cycles=150
    )


@pytest.mark.parametrize(
    ("env_id", "kwargs"),
    [
        ("cardcore/ThreeThirteen-v0", {}),
        ("cardcore/ThreeThirteen-v0", {"opponents": "greedy", "players": 3, "seat": 2}),
        ("cardcore/ThreeThirteen-v0", {"opponents": ["hard"], "players": 2, "jokers": 2}),
        ("cardcore/SpiteMalice-v0", {}),
        ("cardcore/SpiteMalice-v0", {"opponents": "planner", "num_center_stacks": 0}),
        ("cardcore/Nerts-v0", {}),
        ("cardcore/Nerts-v0", {"opponents": "greedy", "players": 3, "tick_ms": 250}),
    ],
)
def test_gymnasium_check_env(env_id: str, kwargs: dict[str, Any]) -> None:
    env = gymnasium.make(env_id, **kwargs)
    check_env(env.unwrapped)
    assert env.unwrapped.game.name == ENV_IDS[env_id]


def test_gymnasium_module_prefix_registers() -> None:
    env = gymnasium.make("cardcore.rl.gymnasium:cardcore/SpiteMalice-v0")
    obs, _ = env.reset(seed=3)
    assert obs["observation"].shape == env.unwrapped.game.observation_shape


@pytest.mark.parametrize("case", TURN_BASED[:3], ids=_id)
def test_aec_full_game_pays_returns_at_the_end(case: AecCase) -> None:
    name, options = case
    env = pz.env(name, **options)
    env.reset(seed=5)
    twin = cardcore.load_game(name, **options).new_state(5)
    rng = Rng(5)
    paid = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        paid[agent] += reward
        assert not trunc
        if term:
            env.step(None)
            continue
        seat = env.possible_agents.index(agent)
        assert seat == twin.current_player
        assert np.array_equal(obs["observation"], twin.observation_tensor(seat))
        assert np.array_equal(obs["action_mask"].astype(bool), twin.action_mask())
        action = _random_masked(obs, rng)
        twin.apply(action)
        env.step(action)
    assert twin.is_over
    assert list(paid.values()) == twin.returns()
    assert env.agents == []


def test_aec_illegal_action_raises_and_changes_nothing() -> None:
    env = pz.env("three-thirteen", players=2)
    env.reset(seed=1)
    before = env.game_state.to_json()
    with pytest.raises(IllegalMoveError):
        env.step(30)  # a discard while drawing
    with pytest.raises(IllegalMoveError):
        env.step(999)
    assert env.game_state.to_json() == before


def test_reset_without_seed_continues_the_seeded_stream() -> None:
    a, b = pz.env("spite-malice"), pz.env("spite-malice")
    a.reset(seed=9)
    b.reset(seed=9)
    a.reset()
    b.reset()
    assert a.game_state.to_json() == b.game_state.to_json()
    c = pz.env("spite-malice")
    c.reset(seed=9)
    assert c.game_state.to_json() != a.game_state.to_json()


def test_nerts_ticks_submit_at_the_tick_and_wait() -> None:
    env = pz.env("nerts", tick_ms=250)
    assert isinstance(env, pz.TickEnv)
    obs, _ = env.reset(seed=3)
    wait = env.wait
    assert all(o["action_mask"][wait] == 1 for o in obs.values())
    legal = np.flatnonzero(obs["player_0"]["action_mask"][:wait])
    env.step({"player_0": int(legal[0]), "player_1": wait})
    assert env.game_state.now == 250
    assert [(t, s) for t, s, _, _ in env.game_state.moves] == [(0, 0)]


def test_nerts_plays_to_the_end_with_points() -> None:
    env = pz.env("nerts", tick_ms=100)
    obs, _ = env.reset(seed=4)
    rng = Rng(4)
    total = dict.fromkeys(env.possible_agents, 0.0)
    while env.agents:
        actions = {a: _random_masked(obs[a], rng) for a in env.agents}
        obs, rewards, _, _, _ = env.step(actions)
        for a, r in rewards.items():
            total[a] += r
    assert env.game_state.is_over
    assert list(total.values()) == env.game_state.returns()


@pytest.mark.parametrize("case", TURN_BASED, ids=_id)
def test_observations_hide_what_the_seat_has_not_seen(case: AecCase) -> None:
    name, options = case
    env = pz.env(name, **options)
    env.reset(seed=2)
    rng = Rng(2)
    for step in range(120):
        agent = env.agent_selection
        if env.terminations[agent]:
            break
        obs = env.observe(agent)
        seat = env.possible_agents.index(agent)
        real = env.game_state
        for k in range(2):
            env.game_state = real.resample_hidden(seat, step * 2 + k)
            again = env.observe(agent)
            assert np.array_equal(again["observation"], obs["observation"])
            assert np.array_equal(again["action_mask"], obs["action_mask"])
        env.game_state = real
        env.step(_random_masked(obs, rng))


def test_nerts_observations_are_the_protocol_views() -> None:
    """Each seat sees ``observation_tensor(seat)`` (which hides what the seat cannot see, as
    the embedding tests check) and a mask of its own legal actions plus "wait"."""
    env = pz.env("nerts", players=3)
    obs, _ = env.reset(seed=6)
    rng = Rng(6)
    for _ in range(150):
        st = env.game_state
        for agent, o in obs.items():
            seat = env.possible_agents.index(agent)
            assert np.array_equal(o["observation"], st.observation_tensor(seat))
            legal = [] if st.pending(seat) else st.legal_actions(seat)
            assert np.flatnonzero(o["action_mask"]).tolist() == [*legal, env.wait]
        obs, *_ = env.step({a: _random_masked(obs[a], rng) for a in env.agents})
        if not env.agents:
            break


def test_render_ansi() -> None:
    env = pz.env("three-thirteen", players=2, render_mode="ansi")
    env.reset(seed=42)
    text = env.render()
    assert text is not None
    assert "legal: 0 draw-stock, 1 draw-discard" in text
    nerts = pz.env("nerts", render_mode="ansi")
    nerts.reset(seed=3)
    assert "player_1's view" in (nerts.render() or "")
    assert pz.env("nerts").render() is None


def test_bad_options_are_option_errors() -> None:
    with pytest.raises(OptionError):
        pz.env("three-thirteen", tick_ms=100)
    with pytest.raises(OptionError):
        pz.env("nerts", tick_ms=0)
    with pytest.raises(OptionError):
        pz.env("nerts", render_mode="rgb_array")
    with pytest.raises(OptionError):
        VectorEnv("nerts", 2, 0)
    with pytest.raises(OptionError):
        VectorEnv("three-thirteen", 0, 0)
    with pytest.raises(OptionError):
        gymnasium.make("cardcore/ThreeThirteen-v0", opponents="nobody")
    with pytest.raises(OptionError):
        gymnasium.make("cardcore/ThreeThirteen-v0", players=3, opponents=["random"])
    with pytest.raises(OptionError):
        gymnasium.make("cardcore/SpiteMalice-v0", seat=2)
    with pytest.raises(OptionError):
        gymnasium.make("cardcore/SpiteMalice-v0", illegal="ignore")


def test_gymnasium_illegal_action() -> None:
    env = gymnasium.make("cardcore/ThreeThirteen-v0", players=2)
    env.reset(seed=1)
    before = env.unwrapped.game_state.to_json()
    _, reward, terminated, _, info = env.step(40)
    assert (reward, terminated, info) == (-1.0, True, {"illegal": True})
    assert env.unwrapped.game_state.to_json() == before
    strict = gymnasium.make("cardcore/ThreeThirteen-v0", players=2, illegal="raise")
    strict.reset(seed=1)
    with pytest.raises(IllegalMoveError):
        strict.step(40)


def test_gymnasium_episode_against_greedy() -> None:
    env = gymnasium.make("cardcore/ThreeThirteen-v0", players=2, opponents="greedy")
    obs, _ = env.reset(seed=11)
    rng = Rng(11)
    terminated, reward = False, 0.0
    while not terminated:
        obs, reward, terminated, truncated, _ = env.step(_random_masked(obs, rng))
        assert not truncated
    assert reward == env.unwrapped.game_state.returns()[0]


# -- VectorEnv ---------------------------------------------------------------------------------


def _drive(venv: VectorEnv, steps: int) -> list[Any]:
    """Steps ``venv`` with a random legal action per game from a stream of that game's own
    (so game i gets the same actions for any batch size); returns every batch."""
    rngs = [Rng(derive_seed(77, i, "test")) for i in range(venv.num_envs)]
    out = [venv.reset()]
    for _ in range(steps):
        mask = out[-1].action_mask
        acts = []
        for i, rng in enumerate(rngs):
            legal = np.flatnonzero(mask[i])
            acts.append(int(legal[rng.below(len(legal))]))
        out.append(venv.step(np.array(acts)))
    return out


@pytest.mark.parametrize(
    ("name", "options"),
    [("three-thirteen", {"players": 2, "max_turns_per_round": 12}), ("spite-malice", {})],
)
def test_vector_env_is_the_same_for_any_batch_size(name: str, options: dict[str, Any]) -> None:
    small = _drive(VectorEnv(name, 2, 5, **options), 700)
    big = _drive(VectorEnv(name, 5, 5, **options), 700)
    assert any(b.done.any() for b in small)  # episodes ended and were re-dealt
    for s, b in zip(small, big, strict=True):
        for field in s._fields:
            assert np.array_equal(getattr(s, field), getattr(b, field)[:2]), field


def test_vector_env_rows_are_games_of_the_documented_seeds() -> None:
    venv = VectorEnv("spite-malice", 3, 8)
    batches = _drive(venv, 400)
    game = cardcore.load_game("spite-malice")
    for i in range(3):
        st = game.new_state(derive_seed(derive_seed(8, i, "rl-vector"), 0, "rl-episode"))
        for prev, batch in itertools.pairwise(batches):
            assert prev.player[i] == st.current_player
            assert np.array_equal(prev.observation[i], st.observation_tensor(st.current_player))
            assert np.array_equal(prev.action_mask[i], st.action_mask())
            # the action played is the one _drive chose: recover it from the twin's legal set
            if batch.done[i]:
                break
            st = _follow(st, prev, batch, i)


def _follow(st: Any, prev: Any, batch: Any, i: int) -> Any:
    """The twin state after the action that turned ``prev`` into ``batch`` in row ``i``."""
    for action in np.flatnonzero(prev.action_mask[i]):
        nxt = st.clone()
        nxt.apply(int(action))
        if nxt.current_player == batch.player[i] and np.array_equal(
            nxt.observation_tensor(nxt.current_player), batch.observation[i]
        ):
            return nxt
    raise AssertionError("no legal action leads to the next row")


def test_vector_env_rewards_are_returns() -> None:
    venv = VectorEnv("three-thirteen", 2, 1, players=2, max_turns_per_round=8)
    batches = _drive(venv, 600)
    ended = [b.reward[i] for b in batches for i in np.flatnonzero(b.done)]
    assert ended
    for r in ended:
        assert sorted(r.tolist()) in ([-1.0, 1.0], [0.0, 0.0])
    assert all(not b.reward[~b.done].any() for b in batches)
    for b in batches:  # the winner has the lowest penalty total
        for i in np.flatnonzero(b.done):
            if b.reward[i].any():
                assert b.points[i][b.reward[i] > 0].min() == b.points[i].min()


RUST_OPTIONS = [
    {"players": 2, "max_turns_per_round": 12},
    {
        "players": 4,
        "jokers": 2,
        "forbid_return_of_discard_draw": True,
        "max_turns_per_round": 9,
    },
    {
        "players": 3,
        "num_decks": 1,
        "ace_mode": "both",
        "tie_rule": "shared_win",
        "min_own_turns_before_out": 2,
        "first_dealer": 1,
        "wild_points": 7,
        "max_turns_per_round": 8,
    },
]
"""Three-Thirteen option sets on which the native engines are checked against the protocol."""


@pytest.mark.parametrize("options", RUST_OPTIONS)
def test_rust_engine_equals_the_protocol(options: dict[str, Any]) -> None:
    """The Rust batch engine gives the protocol path's arrays byte for byte (episode ends
    included), on any number of threads."""
    fast = _drive(VectorEnv("three-thirteen", 4, 3, engine="rust", threads=2, **options), 800)
    ref = _drive(VectorEnv("three-thirteen", 4, 3, engine="protocol", **options), 800)
    assert sum(int(b.done.sum()) for b in ref) >= 4
    for f, r in zip(fast, ref, strict=True):
        for field in r._fields:
            x, y = getattr(f, field), getattr(r, field)
            assert x.dtype == y.dtype, field
            assert np.array_equal(x, y), field
    one = _drive(VectorEnv("three-thirteen", 4, 3, engine="rust", threads=1, **options), 100)
    assert all(
        np.array_equal(a.observation, b.observation) for a, b in zip(one, fast[:101], strict=True)
    )


@pytest.mark.parametrize("engine", ["rust", "protocol"])
def test_vector_env_bad_actions_change_nothing(engine: str) -> None:
    venv = VectorEnv("three-thirteen", 2, 1, players=2, engine=engine)
    first = venv.reset()
    with pytest.raises(OptionError):
        venv.step([0])
    with pytest.raises(OptionError):
        venv.step(np.array([0.5, 1.0]))
    for bad in ([0, 40], [-1, 0], [0, 99]):
        with pytest.raises(IllegalMoveError, match="nothing was played"):
            venv.step(bad)
    after = venv.step([0, 0])
    again = VectorEnv("three-thirteen", 2, 1, players=2, engine=engine)
    again.reset()
    assert np.array_equal(after.observation, again.step([0, 0]).observation)
    assert first.points.tolist() == [[0.0, 0.0], [0.0, 0.0]]


def test_vector_env_engine_choice() -> None:
    assert VectorEnv("three-thirteen", 1, 0).engine == "rust"
    assert VectorEnv("spite-malice", 1, 0).engine == "protocol"
    with pytest.raises(OptionError):
        VectorEnv("spite-malice", 1, 0, engine="rust")
    with pytest.raises(OptionError):
        VectorEnv("three-thirteen", 1, 0, engine="fast")
    with pytest.raises(OptionError):
        VectorEnv("three-thirteen", 1, 0, threads=0)


SPITE_MALICE_RUST_OPTIONS: list[dict[str, Any]] = [
    {"payoff_size": 6},
    {
        "players": 3,
        "num_center_stacks": 0,
        "wild_mode": "jokers",
        "completed_stack": "set_aside",
        "stock_exhausted": "recycle_then_tie",
        "payoff_size": 8,
    },
    {
        "players": 4,
        "side_stack_rule": "same_or_one_lower",
        "must_play_aces": True,
        "payoff_size": 4,
        "king_can_start_stack": False,
        "refill_empty_hand": False,
    },
    {
        "num_decks": 1,
        "side_stack_rule": "no_aces",
        "stock_exhausted": "tie_immediately",
        "payoff_size": 10,
        "hand_size": 7,
        "num_side_stacks": 2,
        "first_player": 1,
        "max_turns": 60,
    },
    {"num_center_stacks": 0, "king_can_start_stack": False, "max_turns": 120},
]
"""Spite & Malice option sets on which the native AEC engine is checked (short pay-off piles
or turn caps, so that the games end: random play rarely empties a pile of 20)."""

AEC_RUST_CASES = [
    *[("three-thirteen", o) for o in [{}, *RUST_OPTIONS]],
    ("spite-malice", {}),
    *[("spite-malice", o) for o in SPITE_MALICE_RUST_OPTIONS],
]


@pytest.mark.parametrize("case", AEC_RUST_CASES, ids=_id)
def test_aec_rust_engine_equals_the_protocol(case: AecCase) -> None:
    """The native AEC engine gives the protocol engine's observation and mask at every step
    of whole seeded games (to every seat at every fifth step), the same rewards and seats, the
    same ``state`` when it is read, and refuses illegal actions without a change."""
    name, options = case
    fast = pz.env(name, engine="rust", **options)
    ref = pz.env(name, engine="protocol", **options)
    assert (fast.engine, ref.engine) == ("rust", "protocol")
    rng = Rng(len(options))
    steps = 0
    seed = 0
    while steps < 1500:
        seed += 1
        fast.reset(seed=seed)
        ref.reset(seed=seed)
        for agent in ref.agent_iter():
            assert fast.agent_selection == agent
            for a in ref.agents if steps % 5 == 0 else [agent]:
                x, y = fast.observe(a), ref.observe(a)
                assert x["observation"].dtype == y["observation"].dtype
                assert x["action_mask"].dtype == y["action_mask"].dtype
                assert np.array_equal(x["observation"], y["observation"])
                assert np.array_equal(x["action_mask"], y["action_mask"])
            assert fast.rewards == ref.rewards
            assert fast.terminations == ref.terminations
            assert fast._cumulative_rewards == ref._cumulative_rewards
            if ref.terminations[agent]:
                fast.step(None)
                ref.step(None)
                continue
            obs = ref.observe(agent)
            if steps % 97 == 0:
                wrong = np.flatnonzero(obs["action_mask"] == 0)
                with pytest.raises(IllegalMoveError):
                    fast.step(wrong[rng.below(len(wrong))])
                assert np.array_equal(fast.observe(agent)["observation"], obs["observation"])
            if steps % 500 == 0:
                assert fast.game_state.to_json() == ref.game_state.to_json()
            action = _random_masked(obs, rng)
            fast.step(np.int64(action))
            ref.step(action)
            steps += 1
        assert fast.game_state.to_json() == ref.game_state.to_json()
        assert fast.agents == ref.agents == []


def test_aec_state_assigned_plays_on_through_the_protocol() -> None:
    env = pz.env("spite-malice", players=2, payoff_size=5)
    env.reset(seed=9)
    rng = Rng(9)
    for _ in range(5):
        env.step(_random_masked(env.observe(env.agent_selection), rng))
    twin = env.game_state.clone()
    env.game_state = env.game_state.resample_hidden(0, 1)
    assert env._native is None
    action = _random_masked(env.observe(env.agent_selection), rng)
    env.step(action)
    twin.apply(action)
    assert env.game_state.current_player == twin.current_player
    env.reset(seed=9)
    assert env._native is not None
    tt = pz.env("three-thirteen", players=2)  # the protocol state is the rulebook: no copy
    tt.reset(seed=9)
    assert tt._native is None
    assert tt.engine == "rust"
    with pytest.raises(OptionError):
        pz.env("nerts", engine="protocol")
    with pytest.raises(OptionError):
        pz.env("three-thirteen", engine="fast")
    assert pz.env("spite-malice").engine == "rust"
    assert pz.env("spite-malice", engine="protocol").engine == "protocol"


def test_nerts_tick_in_one_call_is_the_protocol_calls() -> None:
    """A tick runs in one Rust call (``NertsState._tick``): the same table, log, failures and
    JSON as the protocol's submits and ``advance_to`` in the same order, and its JSON reads
    back."""
    env = pz.env("nerts", players=3, tick_ms=40)
    obs, _ = env.reset(seed=11)
    twin = env.game.new_state(env.game_state.seed)
    rng = Rng(11)
    for _ in range(400):
        actions = {a: _random_masked(obs[a], rng) for a in reversed(env.agents)}
        t = twin.now
        for agent, action in actions.items():
            seat = env.possible_agents.index(agent)
            if action != env.wait and not twin.pending(seat):
                twin.submit(seat, action, t)
        seen = len(twin.events)
        twin.advance_to(t + 40)
        failed = {s for _, s, _, status in twin.events[seen:] if s >= 0 and status != "ok"}
        obs, _, _, _, infos = env.step(actions)
        assert {env.possible_agents.index(a) for a, i in infos.items() if i["failed"]} == failed
        if not env.agents:
            break
    st = env.game_state
    assert st.to_json() == twin.to_json()
    assert st.events == twin.events
    again = env.game.state_from_json(st.to_json())
    assert again.to_json() == st.to_json()
