"""OpenSpiel's ISMCTS against cardcore's ``hard`` and ``expert`` (``docs/rl.md``).

Two-player games through ``cardcore.openspiel``: seat A is OpenSpiel's ``ISMCTSBot``
(``open_spiel.python.algorithms.ismcts``: determinizations from ``resample_from_infostate``,
which is cardcore's ``resample_hidden``; tree nodes keyed by the information-state string),
seat B a cardcore agent as a ``CardcoreBot``. Games are played by OpenSpiel's
``evaluate_bots``, ISMCTS in seat 0 in even games and seat 1 in odd ones, each pair on the
same deal. The table gives ISMCTS's wins, draws and losses and its win rate with a Wilson 95%
interval.

ISMCTS's leaf evaluator is the one game-specific part. OpenSpiel's ``RandomRolloutEvaluator``
plays random moves to the end of the game, which is useless here (a random Three-Thirteen
game is thousands of moves and almost never goes out; random Spite & Malice ends in a tie
nearly every time), so :class:`GreedyRollouts` plays cardcore's ``greedy`` agent for both
seats on a copy of the protocol state (``state.cardcore_state.clone()``): Three-Thirteen to
the end of the current round, valued ``tanh((opponent's round penalty - own) / 25)`` (the
round's points only: the totals so far would saturate it); Spite & Malice to the end or
``--horizon`` moves, valued by the pay-off cards left, ``(opponent's - own) / payoff_size``.
A finished game is worth its returns.

    python examples/openspiel_ismcts.py                     # the documented run (slow)
    python examples/openspiel_ismcts.py --games 2 --sims 4  # smoke
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts

from cardcore import Rng
from cardcore.games import get_game
from cardcore.openspiel import CardcoreBot
from cardcore.report.stats import wilson

GAMES = {"three-thirteen": "cardcore_three_thirteen", "spite-malice": "cardcore_spite_malice"}


class GreedyRollouts(mcts.Evaluator):  # type: ignore[misc]
    """Leaf values from ``greedy`` self-play on the protocol state (see the module doc)."""

    def __init__(self, game: str, horizon: int, seed: int) -> None:
        self.game = game
        self.horizon = horizon
        self.greedy = get_game(game).agents["greedy"]()
        self.rng = Rng(seed)

    def evaluate(self, state: Any) -> np.ndarray:
        cc = state.cardcore_state.clone()
        if self.game == "three-thirteen":
            start = cc.points()
            while not cc.is_over and cc.points() == start:
                self._play(cc)
            if cc.is_over:
                return np.array(cc.returns(), dtype=float)
            a, b = (end - begin for end, begin in zip(cc.points(), start, strict=True))
            return np.tanh(np.array([b - a, a - b], dtype=float) / 25.0)
        for _ in range(self.horizon):
            if cc.is_over:
                return np.array(cc.returns(), dtype=float)
            self._play(cc)
        if cc.is_over:
            return np.array(cc.returns(), dtype=float)
        left = cc.observation_document(0)["observation"]["payoff_counts"]
        size = cc.game.options["payoff_size"]
        return np.array([left[1] - left[0], left[0] - left[1]], dtype=float) / size

    def _play(self, cc: Any) -> None:
        seat = cc.current_player
        cc.apply(self.greedy.act(cc.observation(seat), cc.legal_moves(), self.rng))

    def prior(self, state: Any) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


class Ismcts(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's ISMCTS bot with the ``restart_at`` that ``evaluate_bots`` calls."""

    def restart_at(self, state: Any) -> None:
        self.reset()


def play(
    game_name: str, opponent: str, games: int, sims: int, horizon: int, seed: int, uct_c: float
) -> tuple[int, int, int, float]:
    """ISMCTS's (wins, draws, losses) in ``games`` two-player games, and seconds taken."""
    game = pyspiel.load_game(GAMES[game_name], {"players": 2, "deal_seed": seed})
    rs = np.random.RandomState(seed)
    evaluator = GreedyRollouts(game_name, horizon, seed)
    search = Ismcts(game, evaluator, uct_c=uct_c, max_simulations=sims, random_state=rs)
    wins = draws = losses = 0
    t = time.perf_counter()
    for g in range(games):
        seat = g % 2
        other = CardcoreBot(game, 1 - seat, opponent, seed=seed + g)
        bots = [search, other] if seat == 0 else [other, search]
        state = game.new_initial_state()
        state.apply_action(g // 2)  # the deal: both seatings of a pair see the same one
        returns = evaluate_bots.evaluate_bots(state, bots, rs)
        wins += returns[seat] > 0
        draws += returns[seat] == 0
        losses += returns[seat] < 0
    return wins, draws, losses, time.perf_counter() - t


def main(argv: Sequence[str] | None = None) -> list[tuple[Any, ...]]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=10, help="games per pairing (even: pairs)")
    ap.add_argument("--sims", type=int, default=100, help="ISMCTS simulations per decision")
    ap.add_argument("--horizon", type=int, default=40, help="Spite & Malice rollout moves")
    ap.add_argument("--uct-c", type=float, default=1.5, help="ISMCTS exploration constant")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--game", choices=sorted(GAMES), action="append")
    ap.add_argument("--opponent", choices=["hard", "expert", "greedy", "random"], action="append")
    a = ap.parse_args(argv)
    rows = []
    print("| game | ISMCTS vs | games | W-D-L | ISMCTS win rate (95% CI) | s/game |")
    print("|---|---|---|---|---|---|")
    for name in a.game or sorted(GAMES):
        for opponent in a.opponent or ["hard", "expert"]:
            w, d, lost, secs = play(name, opponent, a.games, a.sims, a.horizon, a.seed, a.uct_c)
            lo, hi = wilson(w, a.games)
            rate = w / a.games if a.games else 0.0
            rows.append((name, opponent, a.games, w, d, lost, rate, lo, hi))
            print(
                f"| {name} | {opponent} | {a.games} | {w}-{d}-{lost} | "
                f"{100 * rate:.0f}% ({100 * lo:.0f}-{100 * hi:.0f}%) | "
                f"{secs / max(a.games, 1):.1f} |",
                flush=True,
            )
    return rows


if __name__ == "__main__":
    main()
