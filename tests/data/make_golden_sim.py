"""Writes ``tests/data/golden-sim-0.4.0.json``, the golden hashes of ``tests/test_golden_sim.py``.

    PYTHONPATH=python python tests/data/make_golden_sim.py [--check] [--only NAME...]

Regenerating is a deliberate act: only when a change of the games' behaviour is intended (an
AI's simulator fixed to follow the rules, say), in a commit of its own that names the change
and why. ``--check`` compares instead of writing (what the test does, with timings printed);
``--only`` limits either to some runs. The table below is the one place a run is added: each
run's exact ``cardcore sim`` arguments are stored with its hashes, and the test re-runs what
is stored. ``slow`` runs are behind the ``slow`` marker.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import cardcore
from golden_sim import GOLDEN_FILE, GOLDEN_VERSION, protocol_hashes, sim_hashes

TT_AGENTS = ("random", "greedy", "normal", "hard", "expert")
SM_AGENTS = ("random", "greedy", "normal", "planner", "expert")
NERTS_AGENTS = ("random", "greedy", "hard", "expert")

# (name, `cardcore sim` arguments, slow)
RUNS: list[tuple[str, str, bool]] = []


def run(name: str, args: str, *, slow: bool = False) -> None:
    RUNS.append((name, args, slow))


# -- Three-Thirteen: a game is the 11-round match (`--match` is a usage error: "three-thirteen
# has no matches"), so every run below is a whole match.
for i, agent in enumerate(TT_AGENTS):
    for players in range(2, 7):
        n = 1 if agent in ("hard", "expert") else 2
        run(
            f"tt-{agent}-{players}p",
            f"three-thirteen -n {n} --players {players} "
            f"--seed {100 + 10 * i + players} --agents {agent}",
        )
for i, agent in enumerate(TT_AGENTS):
    run(
        f"tt-{agent}-3p-jokers2",
        f"three-thirteen -n 1 --players 3 --seed {200 + i} --agents {agent} --option jokers=2",
    )
    run(
        f"tt-{agent}-5p-jokers4-3decks",
        f"three-thirteen -n 1 --players 5 --seed {210 + i} "
        f"--agents {agent} --option jokers=4 --option num_decks=3",
    )
run(
    "tt-mixed-5p-rotate",
    "three-thirteen -n 2 --players 5 --seed 220 "
    "--agents random,greedy,normal,hard,expert --rotate-seats",
)
run(
    "tt-mixed-2p-paired", "three-thirteen -n 2 --players 2 --seed 221 --agents hard,expert --paired"
)
TT_OPTIONS = [
    ("1deck-acehigh", "--players 2 --option num_decks=1 --option ace_mode=high"),
    ("4decks-aceboth", "--players 6 --option num_decks=4 --option ace_mode=both"),
    ("points", "--players 3 --option jokers=2 --option wild_points=7 --option joker_points=50"),
    ("dealer-shared", "--players 4 --option first_dealer=3 --option tie_rule=shared_win"),
    (
        "forbid-minturns",
        "--players 4 --option forbid_return_of_discard_draw=true "
        "--option min_own_turns_before_out=2",
    ),
    ("turncap", "--players 3 --option max_turns_per_round=12"),
]
for j, (label, opts) in enumerate(TT_OPTIONS):
    for i, agent in enumerate(TT_AGENTS):
        run(
            f"tt-{agent}-{label}",
            f"three-thirteen -n 1 --seed {300 + 10 * j + i} --agents {agent} {opts}",
        )

# -- Spite & Malice
for i, agent in enumerate(SM_AGENTS):
    for players in range(2, 5):
        n = 1 if agent == "expert" else 3
        run(
            f"sm-{agent}-{players}p",
            f"spite-malice -n {n} --players {players} "
            f"--seed {400 + 10 * i + players} --agents {agent}",
        )
    # random alone ties nearly every game (no points), so its matches would last long
    duo = "random,greedy" if agent == "random" else agent
    trio = "random,greedy,random" if agent == "random" else agent
    run(
        f"sm-{agent}-match-2p",
        f"spite-malice -n 1 --players 2 --seed {450 + i} "
        f"--agents {duo} --match --option target_score=3",
    )
    run(
        f"sm-{agent}-match-3p",
        f"spite-malice -n 1 --players 3 --seed {460 + i} "
        f"--agents {trio} --match --option target_score=2 --option payoff_size=8",
    )
run(
    "sm-mixed-4p-rotate",
    "spite-malice -n 2 --players 4 --seed 470 --agents random,greedy,normal,planner --rotate-seats",
)
run(
    "sm-mixed-2p-paired",
    "spite-malice -n 2 --players 2 --seed 471 --agents planner,expert --paired",
)
run(
    "sm-planner-match-default",
    "spite-malice -n 1 --players 2 --seed 472 --agents planner --match",
    slow=True,
)
SM_OPTIONS = [
    ("jokers", "--players 2 --option wild_mode=jokers --option king_can_start_stack=false"),
    (
        "unlimited-setaside",
        "--players 3 --option num_center_stacks=0 --option completed_stack=set_aside",
    ),
    (
        "smallhand-norefill",
        "--players 2 --option hand_size=3 --option refill_empty_hand=false "
        "--option num_side_stacks=2 --option payoff_size=10",
    ),
    (
        "sidestack-aces",
        "--players 2 --option side_stack_rule=same_or_one_lower "
        "--option must_play_aces=true --option win_bonus=25",
    ),
    (
        "noaces-first",
        "--players 4 --option side_stack_rule=no_aces --option first_player=2 --option num_decks=4",
    ),
    ("stock-tie-now", "--players 2 --option num_decks=1 --option stock_exhausted=tie_immediately"),
    (
        "stock-recycle",
        "--players 2 --option num_decks=1 --option payoff_size=15 "
        "--option stock_exhausted=recycle_then_tie",
    ),
    ("turncap", "--players 3 --option max_turns=25"),
]
for j, (label, opts) in enumerate(SM_OPTIONS):
    for i, agent in enumerate(SM_AGENTS):
        n = 1 if agent == "expert" else 2
        run(
            f"sm-{agent}-{label}",
            f"spite-malice -n {n} --seed {500 + 10 * j + i} --agents {agent} {opts}",
        )

# -- Nerts: one record per round; --match plays rounds to the target score
for i, agent in enumerate(NERTS_AGENTS):
    for players in range(2, 5):
        n = 1 if agent in ("hard", "expert") else 2
        run(
            f"nerts-{agent}-{players}p",
            f"nerts -n {n} --players {players} --seed {600 + 10 * i + players} --agents {agent}",
        )
    run(
        f"nerts-{agent}-match-2p",
        f"nerts -n 1 --players 2 --seed {650 + i} --agents {agent} "
        "--match --option target_score=25",
    )
    run(
        f"nerts-{agent}-match-4p",
        f"nerts -n 1 --players 4 --seed {660 + i} --agents {agent} "
        "--match --option target_score=20",
    )
run(
    "nerts-mixed-4p-rotate",
    "nerts -n 2 --players 4 --seed 670 --agents random,greedy,hard,expert --rotate-seats",
)
run("nerts-mixed-2p-paired", "nerts -n 2 --players 2 --seed 671 --agents hard,expert --paired")
NERTS_OPTIONS = [
    ("5piles-flip1", "--players 2 --option work_piles=5 --option flip_count=1"),
    (
        "passes-nopartial",
        "--players 3 --option stock_passes=2 "
        "--option allow_partial_pile_moves=false --option empty_work_pile_fill=nerts_only",
    ),
    (
        "autocall-points",
        "--players 2 --option auto_call_nerts=true --option foundation_points=2 "
        "--option nerts_penalty=3 --option nerts_bonus=10 --option nerts_pile_size=8",
    ),
    (
        "flipone-chill",
        "--players 3 --option stalemate_rule=flip_one --option speed=chill --option undo_depth=0",
    ),
    (
        "endround-frantic",
        "--players 4 --option stalemate_rule=end_round "
        "--option max_consecutive_stalemates=0 --option speed=frantic --option undo_depth=4",
    ),
]
for j, (label, opts) in enumerate(NERTS_OPTIONS):
    for i, agent in enumerate(NERTS_AGENTS):
        run(
            f"nerts-{agent}-{label}",
            f"nerts -n 1 --seed {700 + 10 * j + i} --agents {agent} {opts}",
        )

# -- slow: more games of every agent at one table size, and default-target matches
for i, agent in enumerate(TT_AGENTS):
    run(
        f"tt-{agent}-4p-many",
        f"three-thirteen -n 40 --players 4 --seed {800 + i} --agents {agent}",
        slow=True,
    )
for i, agent in enumerate(SM_AGENTS):
    n = 8 if agent == "expert" else 40
    run(
        f"sm-{agent}-2p-many",
        f"spite-malice -n {n} --players 2 --seed {810 + i} --agents {agent}",
        slow=True,
    )
run(
    "sm-expert-match-default",
    "spite-malice -n 1 --players 2 --seed 473 --agents expert --match",
    slow=True,
)
for i, agent in enumerate(NERTS_AGENTS):
    run(
        f"nerts-{agent}-3p-many",
        f"nerts -n 40 --players 3 --seed {820 + i} --agents {agent}",
        slow=True,
    )
    run(
        f"nerts-{agent}-match-default",
        f"nerts -n 1 --players 2 --seed {830 + i} --agents {agent} --match",
        slow=True,
    )

# (name, game, options, seed, Nerts agents, slow): protocol playthroughs (golden_sim.py)
PLAYTHROUGHS: list[tuple[str, str, dict[str, Any], int, list[str | None] | None, bool]] = [
    ("tt-2p-default", "three-thirteen", {"players": 2}, 1, None, True),
    ("tt-2p-cap40", "three-thirteen", {"players": 2, "max_turns_per_round": 40}, 2, None, False),
    (
        "tt-4p-jokers-cap20",
        "three-thirteen",
        {"players": 4, "jokers": 2, "max_turns_per_round": 20},
        3,
        None,
        False,
    ),
    (
        "tt-3p-options-cap30",
        "three-thirteen",
        {
            "players": 3,
            "num_decks": 1,
            "ace_mode": "both",
            "first_dealer": 2,
            "forbid_return_of_discard_draw": True,
            "max_turns_per_round": 30,
        },
        4,
        None,
        False,
    ),
    ("tt-6p-cap12", "three-thirteen", {"players": 6, "max_turns_per_round": 12}, 5, None, False),
    ("sm-2p-a", "spite-malice", {"players": 2}, 1, None, False),
    (
        "sm-2p-b",
        "spite-malice",
        {"players": 2, "stock_exhausted": "recycle_then_tie"},
        2,
        None,
        False,
    ),
    (
        "sm-3p-unlimited",
        "spite-malice",
        {"players": 3, "num_center_stacks": 0, "completed_stack": "set_aside"},
        3,
        None,
        False,
    ),
    ("sm-4p-jokers", "spite-malice", {"players": 4, "wild_mode": "jokers"}, 4, None, False),
    (
        "sm-2p-rules",
        "spite-malice",
        {
            "players": 2,
            "side_stack_rule": "same_or_one_lower",
            "must_play_aces": True,
            "hand_size": 6,
            "payoff_size": 10,
        },
        5,
        None,
        False,
    ),
    (
        "sm-2p-payoff5-recycle",
        "spite-malice",
        {"players": 2, "payoff_size": 5, "stock_exhausted": "recycle_then_tie"},
        6,
        None,
        False,
    ),
    (
        "sm-3p-payoff6-recycle",
        "spite-malice",
        {
            "players": 3,
            "payoff_size": 6,
            "stock_exhausted": "recycle_then_tie",
            "side_stack_rule": "no_aces",
        },
        7,
        None,
        False,
    ),
    ("nerts-2p-outside", "nerts", {"players": 2}, 1, None, False),
    ("nerts-2p-greedy", "nerts", {"players": 2}, 2, [None, "greedy"], False),
    (
        "nerts-3p-hard",
        "nerts",
        {"players": 3, "work_piles": 5, "flip_count": 1},
        3,
        [None, "hard", "random"],
        False,
    ),
    (
        "nerts-4p-options",
        "nerts",
        {"players": 4, "stalemate_rule": "flip_one", "undo_depth": 3, "speed": "frantic"},
        4,
        [None, None, "greedy", "expert"],
        False,
    ),
]


def build(only: set[str] | None, verbose: bool) -> dict[str, Any]:
    runs, plays = [], []
    for name, args, slow in RUNS:
        if only and name not in only:
            continue
        t = time.perf_counter()
        with tempfile.TemporaryDirectory() as tmp:
            hashes = sim_hashes(args, Path(tmp))
        if verbose:
            print(f"{time.perf_counter() - t:7.2f} s  {name}", file=sys.stderr)
        runs.append({"name": name, "args": args, "slow": slow, **hashes})
    for name, game, options, seed, agents, slow in PLAYTHROUGHS:
        if only and name not in only:
            continue
        t = time.perf_counter()
        hashes = protocol_hashes(game, options, seed, agents)
        if verbose:
            print(f"{time.perf_counter() - t:7.2f} s  {name}", file=sys.stderr)
        plays.append(
            {
                "name": name,
                "game": game,
                "options": options,
                "seed": seed,
                "agents": agents,
                "slow": slow,
                **hashes,
            }
        )
    return {"cardcore_version": cardcore.__version__, "runs": runs, "playthroughs": plays}


def _dump(doc: dict[str, Any]) -> str:
    """The golden file's text: one line per run or playthrough (small diffs)."""
    lines = [f'{{"cardcore_version": {json.dumps(doc["cardcore_version"])},']
    for key in ("runs", "playthroughs"):
        entries = ",\n".join(f"  {json.dumps(e)}" for e in doc[key])
        lines.append(f' "{key}": [\n{entries}\n ]' + ("," if key == "runs" else "}"))
    return "\n".join(lines) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="compare with the file, write nothing")
    ap.add_argument("--only", nargs="*", help="names of runs or playthroughs")
    a = ap.parse_args()
    only = set(a.only) if a.only else None
    if not a.check and cardcore.__version__ != GOLDEN_VERSION:
        print(
            f"note: writing hashes of {cardcore.__version__} into the {GOLDEN_VERSION} file",
            file=sys.stderr,
        )
    new = build(only, verbose=True)
    if a.check:
        old = json.loads(GOLDEN_FILE.read_text())
        stored = {e["name"]: e for e in old["runs"] + old["playthroughs"]}
        bad = [e["name"] for e in new["runs"] + new["playthroughs"] if stored.get(e["name"]) != e]
        print(f"{len(bad)} differ: {', '.join(bad)}" if bad else "all equal", file=sys.stderr)
        return 1 if bad else 0
    if only:
        old = json.loads(GOLDEN_FILE.read_text())
        for key in ("runs", "playthroughs"):
            fresh = {e["name"]: e for e in new[key]}
            new[key] = [fresh.pop(e["name"], e) for e in old[key]] + list(fresh.values())
    GOLDEN_FILE.write_text(_dump(new))
    print(
        f"wrote {GOLDEN_FILE}: {len(new['runs'])} runs, {len(new['playthroughs'])} playthroughs",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
