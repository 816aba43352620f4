"""``erebus bench --compare``: our engine next to OpenSpiel reference points.

Two pairs of figures, measured in this process, on one core:

* random moves/s — whole 4-player Northwest Passage games, ``legal_actions()``
  + a random choice + ``apply()`` (uniform over the legal actions, and again
  with our :func:`erebus.bench.engine.playout_policy`), against whole games of
  OpenSpiel's pure-Python tic-tac-toe (``python_tic_tac_toe``:
  ``legal_actions()`` + a random choice + ``apply_action()``);
* MCTS simulations/s — our ``mcts`` bot, time-budgeted, on mid-game 4-player
  Northwest Passage states (iterations / elapsed, over a few fixed positions:
  ``mid_game_state("northwest", 4)`` and its siblings with the next seeds),
  against OpenSpiel's pure-Python ``MCTSBot`` with a ``RandomRolloutEvaluator``
  on tic-tac-toe from the initial state (``max_simulations`` / time of ``step``).

Both sides get the same wall-time budget per run, runs are interleaved
(ours, theirs, ours, theirs, …) and the table shows medians of the repetitions,
so a slow patch of the machine hits both sides alike.  The games differ, so the
ratios are reference points, not a like-for-like contest: tic-tac-toe is a tiny
game implemented in Python on top of OpenSpiel's C++ ``State`` (every call
crosses pybind11), Northwest Passage is a large board game in pure Python.

OpenSpiel is optional (the ``bench`` extra); without it :func:`main` prints how
to install it and returns an empty dict.  ``erebus bench --compare`` (:func:`main_all`)
then prints, in the same process, the RL table of :mod:`erebus.bench.envs`: env
steps/s of our PettingZoo environments next to ``tictactoe_v3`` and ``chess_v6``.
"""

from __future__ import annotations

import importlib
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from rich.console import Console
from rich.table import Table

from erebus.bench.engine import mid_game_state, playout_policy
from erebus.bots import make_bot
from erebus.games import get_game

GAME = "northwest"
PLAYERS = 4
THEIR_GAME = "python_tic_tac_toe"
INSTALL_HINT = (
    "OpenSpiel is not installed, so there is nothing to compare against.\n"
    "Install the optional benchmark extra with:  pip install -e '.[bench]'"
)
UCT_C = 2.0  # OpenSpiel's mcts_example default; it does not change the cost of a simulation


@dataclass(frozen=True)
class Budgets:
    """Wall-time budgets of one run of each measure, and how many runs per side."""

    random_s: float = 1.0  # per run of a random-moves measure
    mcts_s: float = 2.0  # per run of an MCTS measure, split over ``mcts_moves`` searches
    mcts_moves: int = 4
    reps: int = 5

    @property
    def per_move_s(self) -> float:
        return self.mcts_s / self.mcts_moves


FULL = Budgets()
QUICK = Budgets(random_s=0.25, mcts_s=0.4, mcts_moves=2, reps=3)


def load_pyspiel() -> Any | None:
    """The ``pyspiel`` module, or ``None`` when OpenSpiel is not installed."""
    try:
        return importlib.import_module("pyspiel")
    except ImportError:
        return None


def load_their_game() -> Any:
    """OpenSpiel's pure-Python tic-tac-toe.

    Python games are registered with pyspiel when their module is imported;
    ``open_spiel.python.games`` imports every one of them (among them
    ``open_spiel.python.games.tic_tac_toe``, which registers ``python_tic_tac_toe``).
    """
    pyspiel = importlib.import_module("pyspiel")
    importlib.import_module("open_spiel.python.games")
    return pyspiel.load_game(THEIR_GAME)


# --- random moves -------------------------------------------------------------------


def our_random_moves(seconds: float, pick: Callable[[list[Any]], Any], seed: int = 0) -> float:
    """Random moves/s along whole 4-player Northwest Passage games chosen by ``pick``."""
    spec = get_game(GAME)
    moves = 0
    start = time.perf_counter()
    while True:
        state = spec.new_game(PLAYERS, seed)
        seed += 1
        while not state.is_over:
            state.apply(pick(state.legal_actions()))
            moves += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return moves / elapsed


def their_random_moves(game: Any, seconds: float, rng: random.Random) -> float:
    """Random moves/s along whole games of an OpenSpiel game (uniform over legal actions)."""
    choice = rng.choice
    moves = 0
    start = time.perf_counter()
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(choice(state.legal_actions()))
            moves += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return moves / elapsed


# --- MCTS ---------------------------------------------------------------------------


def our_mcts(per_move_s: float, moves: int, seed: int) -> float:
    """Iterations/s of our ``mcts`` bot, ``per_move_s`` of search on each of ``moves``
    fixed mid-game positions: ``mid_game_state("northwest", 4)`` (seed 7) and the
    same point of the games with seeds 8, 9, … (a position with a single legal
    action, which needs no search, is skipped)."""
    iterations = 0
    elapsed = 0.0
    searched = 0
    position_seed = 7
    while searched < moves:
        state = mid_game_state(GAME, PLAYERS, seed=position_seed)
        position_seed += 1
        if len(state.legal_actions()) < 2:
            continue
        bot = make_bot("mcts", seed=seed, time_s=per_move_s)
        start = time.perf_counter()
        bot.choose(state)
        elapsed += time.perf_counter() - start
        iterations += bot.last_iterations
        searched += 1
    return iterations / elapsed


class TheirMcts:
    """OpenSpiel's ``MCTSBot`` + ``RandomRolloutEvaluator`` on tic-tac-toe's initial state.

    ``MCTSBot`` is budgeted in simulations, not time, so the count per ``step``
    is re-calibrated after every run to fill the same per-move wall time as ours.
    ``solve=False`` keeps MCTS-Solver from ending a search early, so every step
    runs exactly ``max_simulations`` simulations.
    """

    def __init__(self, game: Any) -> None:
        self.game = game
        self.mcts = importlib.import_module("open_spiel.python.algorithms.mcts")
        self.np_random = importlib.import_module("numpy.random")
        self.simulations = 100

    def run(self, per_move_s: float, moves: int, seed: int) -> float:
        bot = self.mcts.MCTSBot(
            self.game,
            UCT_C,
            self.simulations,
            self.mcts.RandomRolloutEvaluator(
                n_rollouts=1, random_state=self.np_random.RandomState(seed)
            ),
            solve=False,
            random_state=self.np_random.RandomState(seed + 1),
        )
        state = self.game.new_initial_state()
        elapsed = 0.0
        for _ in range(moves):
            start = time.perf_counter()
            bot.step(state)
            elapsed += time.perf_counter() - start
        rate = self.simulations * moves / elapsed
        self.simulations = max(10, round(rate * per_move_s))
        return rate


# --- the comparison -----------------------------------------------------------------


def _spread(values: list[float]) -> float:
    """Half the range of ``values`` relative to their median (0.05 = ±5 %)."""
    mid = statistics.median(values)
    return (max(values) - min(values)) / 2 / mid if mid else 0.0


def run(budgets: Budgets = FULL) -> dict[str, float]:
    """Measure both sides (OpenSpiel must be installed) and return the medians and ratios."""
    game = load_their_game()
    theirs_mcts = TheirMcts(game)
    rng = random.Random(1)
    uniform = rng.choice
    policy = partial(playout_policy, rng)

    # Warm up every code path once; this also calibrates OpenSpiel's simulation count.
    warm = min(0.05, budgets.random_s)
    our_random_moves(warm, uniform)
    their_random_moves(game, warm, rng)
    our_mcts(min(0.05, budgets.per_move_s), 1, seed=0)
    theirs_mcts.run(min(0.05, budgets.per_move_s), 1, seed=0)

    samples: dict[str, list[float]] = {
        "ours_random_moves_per_s": [],
        "ours_policy_moves_per_s": [],
        "theirs_random_moves_per_s": [],
        "ours_mcts_sims_per_s": [],
        "theirs_mcts_sims_per_s": [],
    }
    for rep in range(budgets.reps):  # A B A' B …: ours and theirs alternate
        samples["ours_random_moves_per_s"].append(
            our_random_moves(budgets.random_s, uniform, seed=1000 * rep)
        )
        samples["theirs_random_moves_per_s"].append(their_random_moves(game, budgets.random_s, rng))
        samples["ours_policy_moves_per_s"].append(
            our_random_moves(budgets.random_s, policy, seed=1000 * rep)
        )
    for rep in range(budgets.reps):
        samples["ours_mcts_sims_per_s"].append(
            our_mcts(budgets.per_move_s, budgets.mcts_moves, rep)
        )
        samples["theirs_mcts_sims_per_s"].append(
            theirs_mcts.run(budgets.per_move_s, budgets.mcts_moves, rep)
        )

    figures: dict[str, float] = {}
    for key, values in samples.items():
        figures[key] = statistics.median(values)
        figures[key.replace("_per_s", "_spread")] = _spread(values)
    figures["random_moves_ratio"] = (
        figures["ours_random_moves_per_s"] / figures["theirs_random_moves_per_s"]
    )
    figures["policy_moves_ratio"] = (
        figures["ours_policy_moves_per_s"] / figures["theirs_random_moves_per_s"]
    )
    figures["mcts_sims_ratio"] = figures["ours_mcts_sims_per_s"] / figures["theirs_mcts_sims_per_s"]
    figures["reps"] = float(budgets.reps)
    figures["random_budget_s"] = budgets.random_s
    figures["mcts_budget_s"] = budgets.mcts_s
    figures["mcts_moves"] = float(budgets.mcts_moves)
    figures["theirs_mcts_simulations_per_step"] = float(theirs_mcts.simulations)
    return figures


def _rate(figures: dict[str, float], key: str) -> str:
    spread = figures[key.replace("_per_s", "_spread")]
    return f"{figures[key]:,.0f} ±{spread:.0%}"


def _ratio(value: float) -> str:
    colour = "green" if value >= 1.0 else "red"
    return f"[{colour}]{value:.2f}×[/{colour}]"


def table_of(figures: dict[str, float]) -> Table:
    """The side-by-side table of :func:`run`'s figures."""
    reps = int(figures["reps"])
    table = Table(
        title="erebus bench --compare — erebus vs OpenSpiel 2.0.2, one core, this process",
        caption=(
            f"Medians of {reps} interleaved runs (ours, theirs, ours, theirs, …), "
            f"± half the range. Equal wall time per run: {figures['random_budget_s']:g} s "
            f"per random-moves run; {figures['mcts_budget_s']:g} s per MCTS run, split over "
            f"{figures['mcts_moves']:.0f} searches.\n"
            "Ours: 4-player Northwest Passage (random moves: whole games from new_game; "
            f"MCTS: {figures['mcts_moves']:.0f} start-of-turn positions, "
            "mid_game_state('northwest', 4, seed=7, 8, …)). "
            "Theirs: python_tic_tac_toe (whole games; MCTS from the initial state).\n"
            "Our MCTS 'simulation' = one iteration of the mcts bot's ISMCTS (resample the "
            "hidden bag + clone, select, expand, evaluate with the heuristic, backpropagate), "
            "with whatever work its current settings put into an expansion; "
            "theirs = one MCTSBot simulation (select, expand, one random rollout to the end, "
            f"backpropagate; uct_c={UCT_C:g}, solve=False, "
            f"{figures['theirs_mcts_simulations_per_step']:,.0f} simulations per step).\n"
            "Different games: reference points, not a like-for-like race. "
            "Target: ours/theirs ≥ 1.0."
        ),
        caption_justify="left",
    )
    table.add_column("measure")
    table.add_column("erebus\nNorthwest, 4p", justify="right")
    table.add_column("OpenSpiel\npython_tic_tac_toe", justify="right")
    table.add_column("ours /\ntheirs", justify="right")
    table.add_row(
        "random moves/s, uniform",
        _rate(figures, "ours_random_moves_per_s"),
        _rate(figures, "theirs_random_moves_per_s"),
        _ratio(figures["random_moves_ratio"]),
    )
    table.add_row(
        "random moves/s, ours: playout_policy",
        _rate(figures, "ours_policy_moves_per_s"),
        _rate(figures, "theirs_random_moves_per_s"),
        _ratio(figures["policy_moves_ratio"]),
    )
    table.add_row(
        "MCTS simulations/s",
        _rate(figures, "ours_mcts_sims_per_s"),
        _rate(figures, "theirs_mcts_sims_per_s"),
        _ratio(figures["mcts_sims_ratio"]),
    )
    return table


def main(
    quick: bool = False, console: Console | None = None, budgets: Budgets | None = None
) -> dict[str, float]:
    """Print the comparison table and return its figures (``{}`` without OpenSpiel).

    ``quick``: shorter runs, noisier figures; ``budgets`` overrides both presets.
    """
    console = console or Console()
    if load_pyspiel() is None:
        console.print(INSTALL_HINT, markup=False, highlight=False)
        return {}
    budgets = budgets or (QUICK if quick else FULL)
    with console.status("comparing with OpenSpiel…"):
        figures = run(budgets)
    console.print(table_of(figures))
    return figures


def main_all(quick: bool = False, console: Console | None = None) -> dict[str, float]:
    """``erebus bench --compare``: the OpenSpiel table (:func:`main`), then, in the same
    process, the PettingZoo env steps/s (:mod:`erebus.bench.envs`); both tables'
    figures in one dict."""
    from erebus.bench import envs

    console = console or Console()
    figures = main(quick=quick, console=console)
    figures.update(envs.main(quick=quick, console=console))
    return figures
