"""PettingZoo's optional APIs (``render_mode="human"``, ``state()`` / ``state_space``, Nerts
failures in ``info``) under its own checkers, ``illegal="lose"``, and the rewards
(``reward="round"``, ``"payoff"``) and utilities of the PettingZoo and gymnasium environments."""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
import pytest

import cardcore
from cardcore import OptionError, Rng

pettingzoo = pytest.importorskip("pettingzoo")
gymnasium = pytest.importorskip("gymnasium")
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import render_test, state_test  # noqa: E402
from pettingzoo.utils.conversions import parallel_to_aec  # noqa: E402

import cardcore.rl.gymnasium  # noqa: E402  (registers the ids)
from cardcore.rl import pettingzoo as pz  # noqa: E402
from cardcore.rl.rewards import Utility, utility  # noqa: E402

AecCase = tuple[Literal["three-thirteen", "spite-malice"], dict[str, Any]]
TURN_BASED: list[AecCase] = [
    ("three-thirteen", {"players": 2}),
    ("three-thirteen", {"players": 4, "jokers": 2}),
    ("spite-malice", {}),
    ("spite-malice", {"players": 3}),
]


def _id(case: AecCase) -> str:
    return case[0] + "".join(f"-{k}={v}" for k, v in case[1].items())


def _random(obs: dict[str, Any], rng: Rng) -> int:
    legal = np.flatnonzero(obs["action_mask"])
    return int(legal[rng.below(len(legal))])


@pytest.mark.parametrize("case", TURN_BASED, ids=_id)
def test_render_test_passes(case: tuple[str, dict[str, Any]], capsys: Any) -> None:
    name, options = case
    render_test(lambda render_mode=None: pz.env(name, render_mode=render_mode, **options))
    assert "legal:" in capsys.readouterr().out  # "human" printed the view


def test_render_test_passes_for_nerts(capsys: Any) -> None:
    render_test(lambda render_mode=None: parallel_to_aec(pz.env("nerts", render_mode=render_mode)))
    assert "nerts" in capsys.readouterr().out


@pytest.mark.filterwarnings("ignore:State numpy array is all zeros")
@pytest.mark.parametrize("case", TURN_BASED, ids=_id)
def test_state_test_passes(case: AecCase) -> None:
    """PettingZoo's state_test samples actions without the mask: illegal="lose" ends the
    episode on the first illegal one, as its TerminateIllegalWrapper does."""
    name, options = case
    env = pz.env(name, illegal="lose", **options)
    nerts = pz.env("nerts", players=len(env.possible_agents))
    state_test(env, nerts, num_cycles=20)


@pytest.mark.parametrize("case", TURN_BASED[::2], ids=_id)
def test_state_is_every_seats_observation(case: AecCase) -> None:
    name, options = case
    for engine in ("auto", "protocol"):
        env = pz.env(name, engine=engine, **options)
        env.reset(seed=4)
        rng = Rng(4)
        for _ in range(30):
            st = env.game_state
            want = np.concatenate([st.observation_tensor(s) for s in range(st.game.num_players)])
            assert np.array_equal(env.state(), want)
            assert env.state() in env.state_space
            env.step(_random(env.observe(env.agent_selection), rng))


def test_illegal_lose_ends_the_episode_and_changes_nothing() -> None:
    env = pz.env("three-thirteen", players=3, illegal="lose")
    env.reset(seed=1)
    before = env.game_state.to_json()
    offender = env.agent_selection
    env.step(30)  # a discard while drawing
    assert env.game_state.to_json() == before
    assert all(env.terminations.values())
    assert env.infos[offender]["illegal"] is True
    _, reward, *_ = env.last()
    assert reward == -1.0
    paid = {a: env._cumulative_rewards[a] for a in env.agents}
    assert sorted(paid.values()) == [-1.0, 0.0, 0.0]
    with pytest.raises(OptionError):
        pz.env("three-thirteen", illegal="sometimes")


def test_nerts_reports_failed_submissions_in_info() -> None:
    """Both seats submit random legal moves every tick; a move the table no longer allows when
    it executes fails: info says so exactly in the steps where the event log does."""
    env = pz.env("nerts", tick_ms=200)
    obs, infos = env.reset(seed=2)
    rng = Rng(2)
    failures = 0
    while env.agents:
        acts = {a: _random(o, rng) for a, o in obs.items()}
        seen = len(env.game_state.events)
        obs, _, _, _, infos = env.step(acts)
        tick = env.game_state.events[seen:]
        for agent, info in infos.items():
            seat = int(agent.split("_")[1])
            failed = any(e[1] == seat and e[3] != "ok" for e in tick)
            assert info["failed"] is failed
            failures += failed
    assert failures > 0


def test_gymnasium_nerts_reports_failed_moves() -> None:
    env = gymnasium.make("cardcore/Nerts-v0", opponents="expert", tick_ms=500)
    obs, _ = env.reset(seed=5)
    rng = Rng(5)
    seen = set()
    for _ in range(400):
        obs, _, term, _, info = env.step(_random(obs, rng))
        seen.add(info["failed"])
        if term:
            break
    assert False in seen


@pytest.mark.parametrize("players", [2, 3])
def test_round_rewards_in_the_aec_env(players: int) -> None:
    """reward="round": zero-sum each step, paid only when a round ends, and over the game each
    seat gets the mean penalty total of the others less its own."""
    env = pz.env("three-thirteen", players=players, reward="round", max_turns_per_round=20)
    assert env.utility.zero_sum
    env.reset(seed=3)
    rng = Rng(3)
    paid = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, _, _ = env.last()
        paid[agent] += reward
        assert abs(sum(env.rewards.values())) < 1e-4
        env.step(None if term else _random(obs, rng))
    totals = np.asarray(env.game_state.points(), np.float64)
    want = (totals.sum() - totals) / (players - 1) - totals
    assert np.allclose(list(paid.values()), want, atol=1e-3)


def test_payoff_shaping_in_the_aec_env() -> None:
    """reward="payoff" gives random Spite & Malice play (where nearly every game ends in a
    tie) a signal: pay-off cards played, zero-sum."""
    env = pz.env("spite-malice", reward="payoff")
    signal = 0
    for seed in range(20):
        env.reset(seed=seed)
        rng = Rng(seed)
        paid = False
        for _ in env.agent_iter():
            obs, reward, term, _, _ = env.last()
            paid |= reward != 0
            assert abs(sum(env.rewards.values())) < 1e-5
            env.step(None if term else _random(obs, rng))
        signal += paid
    assert signal >= 5  # 98 of 200 random games measured; "game" pays 0 in nearly all


@pytest.mark.parametrize(
    ("env_id", "kwargs"),
    [
        ("cardcore/ThreeThirteen-v0", {"reward": "round", "players": 2}),
        ("cardcore/SpiteMalice-v0", {"reward": "payoff"}),
        ("cardcore/Nerts-v0", {"reward": "round"}),
    ],
)
def test_gymnasium_shaped_rewards_pass_check_env(env_id: str, kwargs: dict[str, Any]) -> None:
    env = gymnasium.make(env_id, **kwargs)
    check_env(env.unwrapped)
    assert env.unwrapped.utility == utility(env.unwrapped.game, kwargs["reward"])


def test_gymnasium_round_reward_sums_to_the_score_difference() -> None:
    env = gymnasium.make(
        "cardcore/ThreeThirteen-v0", opponents="greedy", reward="round", max_turns_per_round=30
    )
    obs, _ = env.reset(seed=9)
    rng = Rng(9)
    total = 0.0
    while True:
        obs, reward, term, _, _ = env.step(_random(obs, rng))
        total += reward
        if term:
            break
    points = env.unwrapped.game_state.points()  # four seats by default
    others = (sum(points) - points[0]) / (len(points) - 1)
    assert total == pytest.approx(others - points[0], abs=1e-3)


def test_utilities_declared() -> None:
    tt2 = cardcore.load_game("three-thirteen", players=2)
    assert utility(tt2) == Utility(True, -1.0, 1.0)
    assert not utility(cardcore.load_game("three-thirteen", players=4)).zero_sum
    shared = cardcore.load_game("three-thirteen", players=2, tie_rule="shared_win")
    assert not utility(shared).zero_sum
    assert utility(tt2, "round").zero_sum
    assert utility(cardcore.load_game("spite-malice"), "payoff") == Utility(True, -2.0, 2.0)
    nerts = utility(cardcore.load_game("nerts"))
    assert not nerts.zero_sum
    assert nerts.min < 0 < nerts.max
    assert utility(cardcore.load_game("nerts"), "round") == nerts
    with pytest.raises(OptionError, match="reward"):
        pz.env("spite-malice", reward="round")
    with pytest.raises(OptionError, match="reward"):
        gymnasium.make("cardcore/ThreeThirteen-v0", reward="payoff")


@pytest.mark.filterwarnings("ignore:Observation space for each agent probably")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.parametrize(
    ("name", "reward"), [("three-thirteen", "round"), ("spite-malice", "payoff")]
)
def test_shaped_aec_envs_pass_api_and_seed_tests(name: str, reward: str) -> None:
    from pettingzoo.test import api_test, seed_test

    api_test(pz.env(name, reward=reward, players=2), num_cycles=100)
    seed_test(lambda: pz.env(name, reward=reward, players=2), num_cycles=100)


def test_nerts_round_reward_passes_parallel_api_test() -> None:
    from pettingzoo.test import parallel_api_test

    parallel_api_test(pz.env("nerts", reward="round"), num_cycles=100)
