"""``erebus bench --compare``, RL part: env steps/s of our PettingZoo environments next
to PettingZoo's own ``tictactoe_v3`` and ``chess_v6``, in one process.

Every environment runs the same loop, PettingZoo's own AEC example: ``reset(seed=s)``
(and each agent's action space seeded with ``s``), then for each agent of
``agent_iter()`` ``env.last()`` (so the observation and the mask are built every
step), ``env.action_space(agent).sample(obs["action_mask"])`` (a uniformly random
legal action) or ``None`` once terminated, and ``env.step(action)`` — whole games,
game after game, for the run's wall time.  A *step* is one ``env.step`` call.  Each
environment is made the way its documentation says (``game_env(...)`` for ours,
``tictactoe_v3.env()`` / ``chess_v6.env()`` for PettingZoo's, which wrap theirs in
their usual checking wrappers).

Two rates per environment: **steps/s** of the whole loop, and **env steps/s**, the
steps over the time spent inside ``env.last()`` and ``env.step()`` only (what the
environment costs, engine included, without the agent's choice: ``sample`` scans the
whole mask, 132 504 entries for Northwest Passage against 9 for tic-tac-toe).  Runs
are interleaved (every environment once, then again, …) and the table shows medians.

Needs the ``rl`` extra; PettingZoo's two classic games need ``chess`` and
``pygame-ce`` (the ``bench`` extra) and are left out, with a note, without them.
"""

from __future__ import annotations

import importlib
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rich.console import Console
from rich.table import Table

#: (key, label, factory) of every environment measured; ours first.
OURS: tuple[tuple[str, str, Callable[[], Any]], ...] = (
    ("northwest_2", "erebus northwest, 2 players", lambda: _ours("northwest", 2)),
    ("northwest_4", "erebus northwest, 4 players", lambda: _ours("northwest", 4)),
    ("iceandsnow_2", "erebus iceandsnow, 2 players", lambda: _ours("iceandsnow", 2)),
    ("iceandsnow_4", "erebus iceandsnow, 4 players", lambda: _ours("iceandsnow", 4)),
)
THEIRS: tuple[tuple[str, str, str], ...] = (
    ("tictactoe_v3", "PettingZoo tictactoe_v3", "pettingzoo.classic.tictactoe_v3"),
    ("chess_v6", "PettingZoo chess_v6", "pettingzoo.classic.chess_v6"),
)
REFERENCE = "tictactoe_v3"
INSTALL_HINT = "PettingZoo's classic games need chess and pygame-ce: pip install -e '.[bench]'"


@dataclass(frozen=True)
class EnvBudgets:
    """Wall time of one run per environment, and how many interleaved runs."""

    seconds: float = 1.0
    reps: int = 5


FULL = EnvBudgets()
QUICK = EnvBudgets(seconds=0.25, reps=3)


def _ours(game: str, players: int) -> Any:
    from erebus.rl import game_env

    return game_env(game, players)


def available() -> list[tuple[str, str, Callable[[], Any]]]:
    """The environments that can be made here: ours, then PettingZoo's when their
    dependencies are installed."""
    envs = list(OURS)
    for key, label, module in THEIRS:
        try:
            factory = importlib.import_module(module).env
        except ImportError:
            continue
        envs.append((key, label, factory))
    return envs


def steps_per_s(env: Any, seconds: float, seed: int = 0) -> tuple[float, float]:
    """(steps/s of the whole loop, steps/s of the time inside ``last``/``step``)."""
    clock = time.perf_counter
    steps = 0
    inside = 0.0
    start = clock()
    while True:
        env.reset(seed=seed)
        for agent in env.possible_agents:
            env.action_space(agent).seed(seed)
        seed += 1
        for agent in env.agent_iter():
            t0 = clock()
            obs, _reward, terminated, truncated, _info = env.last()
            t1 = clock()
            if terminated or truncated:
                action = None
            else:
                action = env.action_space(agent).sample(obs["action_mask"])
            t2 = clock()
            env.step(action)
            inside += (t1 - t0) + (clock() - t2)
            steps += 1
        elapsed = clock() - start
        if elapsed >= seconds:
            return steps / elapsed, steps / inside


def run(budgets: EnvBudgets = FULL) -> dict[str, float]:
    """Measure every available environment; medians and spreads by key."""
    envs = [(key, factory()) for key, _label, factory in available()]
    for _key, env in envs:  # warm up: imports, caches, first games
        steps_per_s(env, min(0.05, budgets.seconds))
    loops: dict[str, list[float]] = {key: [] for key, _env in envs}
    inside: dict[str, list[float]] = {key: [] for key, _env in envs}
    for rep in range(budgets.reps):
        for key, env in envs:
            total, env_only = steps_per_s(env, budgets.seconds, seed=1000 * rep)
            loops[key].append(total)
            inside[key].append(env_only)
    figures: dict[str, float] = {"env_reps": float(budgets.reps), "env_budget_s": budgets.seconds}
    for key, _env in envs:
        for name, samples in (("steps", loops[key]), ("env_steps", inside[key])):
            mid = statistics.median(samples)
            figures[f"{key}_{name}_per_s"] = mid
            figures[f"{key}_{name}_spread"] = (max(samples) - min(samples)) / 2 / mid
    if f"{REFERENCE}_steps_per_s" in figures:
        for key, _env in envs:
            for name in ("steps", "env_steps"):
                figures[f"{key}_{name}_ratio"] = (
                    figures[f"{key}_{name}_per_s"] / figures[f"{REFERENCE}_{name}_per_s"]
                )
    return figures


def table_of(figures: dict[str, float]) -> Table:
    """The table of :func:`run`'s figures (one row per environment measured)."""
    reps = int(figures["env_reps"])
    table = Table(
        title="erebus bench --compare — PettingZoo AEC env steps/s, this process",
        caption=(
            f"Medians of {reps} interleaved runs of {figures['env_budget_s']:g} s per "
            "environment, ± half the range.  The same loop for every env: whole games "
            "from reset(seed); env.last() every step, then action_space(agent)."
            "sample(mask) (seeded), then env.step().\nsteps/s: the whole loop; "
            "env steps/s: steps over the time inside last() and step() only (engine "
            "included, the agent's sample() left out).  × tictactoe_v3: ratio to "
            "PettingZoo's tic-tac-toe in the same run; target ≥ 1.0."
        ),
        caption_justify="left",
    )
    table.add_column("environment")
    table.add_column("steps/s", justify="right")
    table.add_column("× tictactoe_v3", justify="right")
    table.add_column("env steps/s", justify="right")
    table.add_column("× tictactoe_v3", justify="right")
    labels = {key: label for key, label, _f in OURS} | {key: label for key, label, _m in THEIRS}
    for key, label in labels.items():
        if f"{key}_steps_per_s" not in figures:
            continue
        cells = [label]
        for name in ("steps", "env_steps"):
            rate = figures[f"{key}_{name}_per_s"]
            spread = figures[f"{key}_{name}_spread"]
            cells.append(f"{rate:,.0f} ±{spread:.0%}")
            ratio = figures.get(f"{key}_{name}_ratio")
            if ratio is None:
                cells.append("—")
            else:
                colour = "green" if ratio >= 1.0 else "red"
                cells.append(f"[{colour}]{ratio:.2f}×[/{colour}]")
        table.add_row(*cells)
    return table


def main(
    quick: bool = False, console: Console | None = None, budgets: EnvBudgets | None = None
) -> dict[str, float]:
    """Print the env table and return its figures (``{}`` without the ``rl`` extra)."""
    console = console or Console()
    try:
        importlib.import_module("pettingzoo")
    except ImportError:
        console.print(
            "The RL environments need the rl extra: pip install -e '.[rl]'",
            markup=False,
            highlight=False,
        )
        return {}
    budgets = budgets or (QUICK if quick else FULL)
    with console.status("measuring PettingZoo env steps/s…"):
        figures = run(budgets)
    console.print(table_of(figures))
    if not all(f"{key}_steps_per_s" in figures for key, _l, _m in THEIRS):
        console.print(INSTALL_HINT, markup=False, highlight=False)
    return figures
