"""``gymnasium.make_vec("cardcore/<Game>-v0")``: a real ``gymnasium.vector.VectorEnv``, its
spaces and the autoreset contract of each ``AutoresetMode``, seeding, the engines against each
other and the rewards (``reward="game"``, ``"round"``, ``"payoff"``)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import cardcore
from cardcore import IllegalMoveError, OptionError, _core
from cardcore.rng import derive_seed

gymnasium = pytest.importorskip("gymnasium")
if not hasattr(_core.ThreeThirteenBatch, "redeal"):  # an extension built before it
    pytest.skip(
        "rebuild the extension (maturin develop): no ThreeThirteenBatch.redeal",
        allow_module_level=True,
    )
from gymnasium.vector import AutoresetMode, VectorEnv  # noqa: E402

import cardcore.rl.gymnasium  # noqa: E402  (registers the ids)
from cardcore.rl.gym_vector import CardGameVectorEnv  # noqa: E402

# short games: rounds capped at a few turns, Spite & Malice at a few dozen
TT: dict[str, Any] = {"players": 2, "max_turns_per_round": 6}
SM: dict[str, Any] = {"max_turns": 30}
CASES = [
    ("cardcore/ThreeThirteen-v0", "three-thirteen", TT),
    ("cardcore/ThreeThirteen-v0", "three-thirteen", {"players": 3, "max_turns_per_round": 4}),
    ("cardcore/SpiteMalice-v0", "spite-malice", SM),
    ("cardcore/SpiteMalice-v0", "spite-malice", {"players": 3, "max_turns": 20}),
]


def _ids(case: tuple[str, str, dict[str, Any]]) -> str:
    return case[1] + "".join(f"-{k}={v}" for k, v in case[2].items())


def _random(obs: dict[str, Any], rng: np.random.Generator) -> np.ndarray:
    scores = rng.random(obs["action_mask"].shape)
    scores[obs["action_mask"] == 0] = -1.0
    return np.asarray(scores.argmax(axis=1))


def _deal(name: str, options: dict[str, Any], seed: int, i: int, k: int) -> Any:
    """Game ``i``'s ``k``-th deal after ``reset(seed=seed)``."""
    game = cardcore.load_game(name, **options)
    return game.new_state(derive_seed(derive_seed(seed, i, "rl-vector"), k, "rl-episode"))


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_make_vec_is_a_gymnasium_vector_env(case: tuple[str, str, dict[str, Any]]) -> None:
    env_id, name, options = case
    env = gymnasium.make_vec(env_id, num_envs=3, **options)
    assert isinstance(env, VectorEnv)
    assert isinstance(env.unwrapped, CardGameVectorEnv)
    assert env.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    game = cardcore.load_game(name, **options)
    single = env.single_observation_space
    assert isinstance(single, gymnasium.spaces.Dict)
    assert isinstance(env.observation_space, gymnasium.spaces.Dict)
    assert single["observation"].shape == game.observation_shape
    assert single["action_mask"].shape == (game.num_actions,)
    assert env.single_action_space == gymnasium.spaces.Discrete(game.num_actions)
    assert env.observation_space["observation"].shape == (3, *game.observation_shape)
    assert env.action_space.shape == (3,)
    obs, info = env.reset(seed=1)
    assert obs in env.observation_space
    rng = np.random.default_rng(0)
    for _ in range(40):
        obs, rew, term, trunc, info = env.step(_random(obs, rng))
        assert obs in env.observation_space
        assert rew.shape == term.shape == trunc.shape == (3,)
        assert info["rewards"].shape == (3, game.num_players)
        assert not trunc.any()
    env.close()


def _run(env: CardGameVectorEnv, steps: int, seed: int = 4) -> list[tuple[Any, ...]]:
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    out: list[tuple[Any, ...]] = [(obs, None, None, info)]
    for _ in range(steps):
        obs, rew, term, _, info = env.step(_random(obs, rng))
        out.append((obs, rew, term, info))
    return out


@pytest.mark.parametrize("case", CASES[::2], ids=_ids)
def test_next_step_autoreset(case: tuple[str, str, dict[str, Any]]) -> None:
    """The step that ends a game returns its final view (mask all 0) and its rewards; the next
    step ignores that game's action (here an illegal one), pays 0 and shows its next deal."""
    env_id, name, options = case
    n = 4
    env = gymnasium.make_vec(env_id, num_envs=n, **options)
    obs, info = env.reset(seed=7)
    for i in range(n):
        st = _deal(name, options, 7, i, 0)
        assert np.array_equal(obs["observation"][i], st.observation_tensor(st.current_player))
    rng = np.random.default_rng(1)
    deals = [1] * n
    ended = 0
    done = np.zeros(n, np.bool_)
    for _ in range(400):
        acts = _random(obs, rng)
        acts[done] = 999  # ignored: these games ended in the last step
        obs, rew, term, _, info = env.step(acts)
        assert (rew[done] == 0).all()
        assert not term[done].any()
        assert (info["rewards"][done] == 0).all()
        for i in np.flatnonzero(done).tolist():
            st = _deal(name, options, 7, i, deals[i])
            deals[i] += 1
            assert info["player"][i] == st.current_player
            assert np.array_equal(obs["observation"][i], st.observation_tensor(st.current_player))
            assert np.array_equal(obs["action_mask"][i].astype(bool), st.action_mask())
        done = term
        ended += int(term.sum())
        assert (obs["action_mask"][done] == 0).all()
        assert set(np.unique(info["rewards"][done]).tolist()) <= {-1.0, 0.0, 1.0}
    assert ended > 0


@pytest.mark.parametrize("case", CASES[::2], ids=_ids)
def test_same_step_autoreset_gives_the_final_view_in_info(
    case: tuple[str, str, dict[str, Any]],
) -> None:
    """Game by game (one env: the next-step run takes one more step per game), the same
    rewards, ends and views; a game's final view is in ``info["final_obs"]``."""
    env_id, name, options = case
    nxt = gymnasium.make_vec(env_id, num_envs=1, **options)
    same = gymnasium.make_vec(env_id, num_envs=1, autoreset_mode="SameStep", **options)
    assert same.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    a, _ = nxt.reset(seed=2)
    b, _ = same.reset(seed=2)
    rng = np.random.default_rng(2)
    ended = 0
    while ended < 3:
        acts = _random(b, rng)
        a, ra, ta, _, ia = nxt.step(acts)
        b, rb, tb, _, ib = same.step(acts)
        assert np.array_equal(ra, rb)
        assert np.array_equal(ta, tb)
        assert np.array_equal(ia["rewards"], ib["rewards"])
        if ta[0]:
            ended += 1
            assert np.array_equal(ib["final_obs"][0]["observation"], a["observation"][0])
            assert ib["_final_obs"][0]
            assert ib["final_info"]["player"][0] == ia["player"][0]
            a, ra, ta, _, _ = nxt.step(acts)  # next-step: the reset step
            assert not ta[0]
            assert ra[0] == 0
        else:
            assert "final_obs" not in ib
        assert np.array_equal(a["observation"], b["observation"])
        assert np.array_equal(a["action_mask"], b["action_mask"])
    # several games: final views for exactly the games that ended, their next deal shown
    env = gymnasium.make_vec(env_id, num_envs=3, autoreset_mode="SameStep", **options)
    obs, _ = env.reset(seed=8)
    deals = [1] * 3
    for _ in range(200):
        obs, _, term, _, info = env.step(_random(obs, rng))
        if term.any():
            assert np.array_equal(info["_final_obs"], term)
            for i in np.flatnonzero(term).tolist():
                st = _deal(name, options, 8, i, deals[i])
                deals[i] += 1
                assert np.array_equal(
                    obs["observation"][i], st.observation_tensor(st.current_player)
                )


def test_disabled_autoreset_needs_a_reset_mask() -> None:
    env = gymnasium.make_vec(
        "cardcore/ThreeThirteen-v0", num_envs=2, autoreset_mode="Disabled", **TT
    )
    obs, _ = env.reset(seed=3)
    rng = np.random.default_rng(3)
    while True:
        obs, _, term, _, _ = env.step(_random(obs, rng))
        if term.any():
            break
    with pytest.raises(IllegalMoveError, match="reset_mask"):
        env.step(_random(obs, rng))
    ended = {k: v.copy() for k, v in obs.items()}
    new, _ = env.reset(options={"reset_mask": term})
    assert (new["action_mask"].sum(axis=1) > 0).all()
    for k, v in obs.items():  # the arrays given before are the caller's: left as they were
        assert np.array_equal(v, ended[k])
        assert np.array_equal(new[k][~term], v[~term])
    env.step(_random(new, rng))


def test_seeding_is_reproducible_and_independent_of_num_envs() -> None:
    a = _run(gymnasium.make_vec("cardcore/ThreeThirteen-v0", num_envs=5, **TT).unwrapped, 50)
    b = _run(gymnasium.make_vec("cardcore/ThreeThirteen-v0", num_envs=5, **TT).unwrapped, 50)
    for x, y in zip(a, b, strict=True):
        assert np.array_equal(x[0]["observation"], y[0]["observation"])
    two = gymnasium.make_vec("cardcore/ThreeThirteen-v0", num_envs=2, **TT)
    five = gymnasium.make_vec("cardcore/ThreeThirteen-v0", num_envs=5, **TT)
    o2, _ = two.reset(seed=11)
    o5, _ = five.reset(seed=11)
    assert np.array_equal(o2["observation"], o5["observation"][:2])
    # reset() without a seed continues the stream: a new deal, the same for the same history
    r2, _ = two.reset()
    r5, _ = five.reset()
    assert np.array_equal(r2["observation"], r5["observation"][:2])
    assert not np.array_equal(r2["observation"], o2["observation"])


@pytest.mark.parametrize("reward", ["game", "round"])
def test_rust_batch_and_python_loop_agree(reward: str) -> None:
    rust = CardGameVectorEnv("three-thirteen", 3, reward=reward, **TT)
    loop = CardGameVectorEnv("three-thirteen", 3, reward=reward, engine="protocol", **TT)
    assert (rust.engine, loop.engine) == ("rust", "protocol")
    for x, y in zip(_run(rust, 300), _run(loop, 300), strict=True):
        assert np.array_equal(x[0]["observation"], y[0]["observation"])
        assert np.array_equal(x[0]["action_mask"], y[0]["action_mask"])
        assert np.array_equal(x[3]["player"], y[3]["player"])
        assert np.array_equal(x[3]["rewards"], y[3]["rewards"])
        if x[1] is not None:
            assert np.array_equal(x[1], y[1])
            assert np.array_equal(x[2], y[2])


@pytest.mark.parametrize("players", [2, 3])
def test_spite_native_and_protocol_agree(players: int) -> None:
    """The Rust batch (``_core.SpiteMaliceBatch``) and the protocol states, step by step."""
    a = CardGameVectorEnv("spite-malice", 3, reward="payoff", players=players, **SM)
    b = CardGameVectorEnv(
        "spite-malice", 3, reward="payoff", engine="protocol", players=players, **SM
    )
    assert (a.engine, b.engine) == ("rust", "protocol")
    ended = 0
    for x, y in zip(_run(a, 300), _run(b, 300), strict=True):
        for k in ("observation", "action_mask"):
            assert np.array_equal(x[0][k], y[0][k])
        assert np.array_equal(x[3]["player"], y[3]["player"])
        assert np.array_equal(x[3]["rewards"], y[3]["rewards"])
        if x[1] is not None:
            assert np.array_equal(x[1], y[1])
            assert np.array_equal(x[2], y[2])
            ended += int(x[2].sum())
    assert ended > 0


@pytest.mark.parametrize("case", CASES[:3], ids=_ids)
@pytest.mark.parametrize("mode", ["NextStep", "SameStep"])
def test_threads_do_not_change_the_games(case: tuple[str, str, dict[str, Any]], mode: str) -> None:
    _, name, options = case
    one = CardGameVectorEnv(name, 5, threads=1, autoreset_mode=mode, **options)
    two = CardGameVectorEnv(name, 5, threads=2, autoreset_mode=mode, **options)
    for x, y in zip(_run(one, 150), _run(two, 150), strict=True):
        for k in ("observation", "action_mask"):
            assert np.array_equal(x[0][k], y[0][k])
        assert np.array_equal(x[3]["rewards"], y[3]["rewards"])
        if "final_obs" in x[3]:
            for i in np.flatnonzero(x[3]["_final_obs"]).tolist():
                fx, fy = x[3]["final_obs"][i], y[3]["final_obs"][i]
                assert np.array_equal(fx["observation"], fy["observation"])


def test_round_rewards_sum_to_each_seats_score_difference() -> None:
    """reward="round": zero-sum every step; over a game, the mean of the others' totals less
    one's own (the final penalty totals of the game)."""
    n, p = 2, 3
    env = CardGameVectorEnv("three-thirteen", n, reward="round", players=p, max_turns_per_round=4)
    obs, _ = env.reset(seed=5)
    rng = np.random.default_rng(5)
    paid = np.zeros((n, p))
    checked = 0
    for _ in range(600):
        obs, _rew, term, _, info = env.step(_random(obs, rng))
        assert np.allclose(info["rewards"].sum(axis=1), 0, atol=1e-4)
        paid += info["rewards"]
        for i in np.flatnonzero(term).tolist():
            assert env._last_counts is not None
            totals = env._last_counts[i]  # the final penalty totals of game i
            assert totals.any()
            want = (totals.sum() - totals) / (p - 1) - totals
            assert np.allclose(paid[i], want, atol=1e-3)
            paid[i] = 0
            checked += 1
        if checked >= 2:
            break
    assert checked >= 1


def test_payoff_shaping_gives_random_play_a_signal() -> None:
    env = CardGameVectorEnv("spite-malice", 8, reward="payoff")
    assert env.utility.zero_sum
    assert (env.utility.min, env.utility.max) == (-2.0, 2.0)
    obs, _ = env.reset(seed=1)
    rng = np.random.default_rng(1)
    signal = np.zeros(8, np.bool_)
    for _ in range(300):
        obs, _rew, _, _, info = env.step(_random(obs, rng))
        assert np.allclose(info["rewards"].sum(axis=1), 0, atol=1e-5)
        signal |= (info["rewards"] != 0).any(axis=1)
    assert signal.all()


def test_bad_arguments() -> None:
    with pytest.raises(OptionError, match="self-play"):
        gymnasium.make_vec("cardcore/ThreeThirteen-v0", num_envs=2, opponents="greedy")
    with pytest.raises(OptionError, match="reward"):
        CardGameVectorEnv("three-thirteen", 2, reward="payoff")
    with pytest.raises(OptionError, match="autoreset_mode"):
        CardGameVectorEnv("three-thirteen", 2, autoreset_mode="sometimes")
    with pytest.raises(OptionError):
        CardGameVectorEnv("three-thirteen", 0)
    env = CardGameVectorEnv("three-thirteen", 2, **TT)
    with pytest.raises(IllegalMoveError):
        env.step([0, 0])
    env.reset(seed=1)
    with pytest.raises(IllegalMoveError, match="game 0"):
        env.step([30, 0])  # a discard while drawing
    with pytest.raises(OptionError):
        env.step([0])


def test_nerts_make_vec_is_gymnasiums_sync_vector_env() -> None:
    env = gymnasium.make_vec("cardcore/Nerts-v0", num_envs=2)
    assert isinstance(env, gymnasium.vector.SyncVectorEnv)
    obs, _ = env.reset(seed=1)
    assert obs["observation"].shape[0] == 2
