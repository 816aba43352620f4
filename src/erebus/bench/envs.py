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
whole mask, 17 048 entries for Northwest Passage against 9 for tic-tac-toe — our
environments' action spaces, :class:`erebus.rl.env.MaskedDiscrete`, do it in one pass
where gymnasium's ``Discrete`` makes six, with the same draws).  Runs
are interleaved (every environment once, then again, …) and the table shows medians.

A second table splits one step into its parts (:func:`step_parts`): µs per step in
``last()``, in the agent's ``sample()`` and in ``step()`` for every environment, and,
for ours, the time of each part inside: the engine's legal-move generation
(``legal_actions()``, or the methods the encoding calls instead: ``RlEncoding.legal_parts``)
and ``apply()``, the observation, the legal indices and mask, the index's action, and the
rest of the environment (PettingZoo's bookkeeping, the copies handed out) — each
part's own time, without the parts it calls.

Needs the ``rl`` extra; PettingZoo's two classic games need ``chess`` and
``pygame-ce`` (the ``bench`` extra) and are left out, with a note, without them.
"""

from __future__ import annotations

import importlib
import statistics
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
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


def _aec_loop(env: Any, seconds: float, seed: int, acc: dict[str, float]) -> tuple[int, float]:
    """PettingZoo's AEC example loop, whole games, for ``seconds``: (steps, elapsed);
    adds the seconds spent in ``last``, ``sample`` and ``step`` to ``acc``."""
    clock = time.perf_counter
    steps = 0
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
            t3 = clock()
            acc["last"] += t1 - t0
            acc["sample"] += t2 - t1
            acc["step"] += t3 - t2
            steps += 1
        elapsed = clock() - start
        if elapsed >= seconds:
            return steps, elapsed


def steps_per_s(env: Any, seconds: float, seed: int = 0) -> tuple[float, float]:
    """(steps/s of the whole loop, steps/s of the time inside ``last``/``step``)."""
    acc: dict[str, float] = defaultdict(float)
    steps, elapsed = _aec_loop(env, seconds, seed, acc)
    return steps / elapsed, steps / (acc["last"] + acc["step"])


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


#: The parts of one of our steps that :func:`step_parts` times (key, column label).
PARTS: tuple[tuple[str, str], ...] = (
    ("engine_legal", "engine legal_actions()"),
    ("engine_apply", "engine apply()"),
    ("observation", "observation"),
    ("indices", "legal indices + mask"),
    ("action", "index → action"),
    ("env_rest", "rest of env"),
)


@contextmanager
def _timed_parts(env: Any, acc: dict[str, float]) -> Iterator[None]:
    """Wrap the parts of one of our environments so that each adds its own time (its
    callees' time left out) to ``acc``; everything is put back on exit.  The engine's
    methods (the encoding's ``legal_parts``, ``apply``) are wrapped on the state's class, for
    the duration only."""
    clock = time.perf_counter
    stack: list[list[float]] = []  # per active part: [children's time]

    def timed(f: Callable[..., Any], key: str) -> Callable[..., Any]:
        def part(*args: Any, **kwargs: Any) -> Any:
            acc["calls"] += 1
            stack.append([0.0])
            t0 = clock()
            try:
                return f(*args, **kwargs)
            finally:
                elapsed = clock() - t0
                children = stack.pop()[0]
                acc[key] += elapsed - children
                if stack:
                    stack[-1][0] += elapsed

        return part

    adapter = env.adapter
    cls = type(env.state_)
    legal = adapter.legal_parts  # the engine's methods behind the legal indices
    saved = {name: cls.__dict__.get(name) for name in (*legal, "apply")}
    observer = adapter.observer
    adapter.legal_indices = timed(adapter.legal_indices, "indices")
    adapter.action = timed(adapter.action, "action")
    adapter.observer = lambda: timed(observer(), "observation")
    for name in legal:
        setattr(cls, name, timed(getattr(cls, name), "engine_legal"))
    cls.apply = timed(cls.apply, "engine_apply")
    try:
        yield
    finally:
        for name in ("legal_indices", "action", "observer"):
            del adapter.__dict__[name]
        for name, original in saved.items():
            if original is None:
                delattr(cls, name)
            else:
                setattr(cls, name, original)


def step_parts(env: Any, seconds: float, seed: int = 0) -> dict[str, float]:
    """µs per step of the loop's parts (:func:`steps_per_s`' loop): ``last``,
    ``sample``, ``step`` and ``total``; for one of our environments (one with an
    ``adapter``) also every key of :data:`PARTS`, which add up to ``last + step``."""
    acc: dict[str, float] = defaultdict(float)
    ours = hasattr(env, "adapter")
    if ours:
        env.reset(seed=seed)  # the state's class exists from the first reset
    with _timed_parts(env, acc) if ours else _nothing():
        steps, _elapsed = _aec_loop(env, seconds, seed, acc)
    calls = acc.pop("calls", 0.0)
    out = {key: 1e6 * value / steps for key, value in acc.items()}
    out["total"] = out["last"] + out["sample"] + out["step"]
    if ours:
        inside = sum(out.get(key, 0.0) for key, _label in PARTS[:-1])
        out["env_rest"] = out["last"] + out["step"] - inside
        for key, _label in PARTS:
            out.setdefault(key, 0.0)
        out["timing"] = _timing_cost() * calls / steps
    return out


def _timing_cost(n: int = 20_000) -> float:
    """µs that :func:`_timed_parts`' wrapper adds to one call (measured here, now)."""
    acc: dict[str, float] = defaultdict(float)

    def noop() -> None:
        return None

    clock = time.perf_counter
    t0 = clock()
    for _ in range(n):
        noop()
    plain = clock() - t0
    stack: list[list[float]] = []

    def part() -> None:  # the same work as _timed_parts' wrapper
        acc["calls"] += 1
        stack.append([0.0])
        t = clock()
        try:
            return noop()
        finally:
            elapsed = clock() - t
            children = stack.pop()[0]
            acc["x"] += elapsed - children
            if stack:
                stack[-1][0] += elapsed

    t0 = clock()
    for _ in range(n):
        part()
    return max(0.0, 1e6 * (clock() - t0 - plain) / n)


@contextmanager
def _nothing() -> Iterator[None]:
    yield


def run_parts(budgets: EnvBudgets = FULL) -> dict[str, float]:
    """:func:`step_parts` of every available environment, keyed
    ``{env}_part_{part}_us``: medians of the budget's interleaved runs."""
    envs = [(key, factory()) for key, _label, factory in available()]
    for _key, env in envs:  # warm up
        steps_per_s(env, min(0.05, budgets.seconds))
    samples: dict[str, list[float]] = defaultdict(list)
    for rep in range(budgets.reps):
        for key, env in envs:
            for part, value in step_parts(env, budgets.seconds, seed=1000 * rep).items():
                samples[f"{key}_part_{part}_us"].append(value)
    return {name: statistics.median(values) for name, values in samples.items()}


def parts_table(figures: dict[str, float]) -> Table:
    """The table of :func:`run_parts`' figures."""
    table = Table(
        title="erebus bench --compare — µs per step, by part",
        caption=(
            "Medians of interleaved runs, the same loop.  last / sample / step: the time "
            "in env.last(), the agent's action_space.sample(mask) and env.step().  For "
            "ours, the parts inside last() and step(), each without the parts it calls; "
            "timing them adds the µs of the last column to each step, most of it to "
            "'rest of env'."
        ),
        caption_justify="left",
    )
    table.add_column("environment")
    for label in ("whole step", "last()", "sample()", "step()"):
        table.add_column(label, justify="right")
    for _key, label in PARTS:
        table.add_column(label, justify="right")
    table.add_column("timing's own cost", justify="right")
    labels = {key: label for key, label, _f in OURS} | {key: label for key, label, _m in THEIRS}
    for key, label in labels.items():
        if f"{key}_part_total_us" not in figures:
            continue
        cells = [label]
        for part in ("total", "last", "sample", "step", *(k for k, _l in PARTS), "timing"):
            value = figures.get(f"{key}_part_{part}_us")
            cells.append("—" if value is None else f"{value:.1f}")
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
    with console.status("timing the parts of a step…"):
        parts = run_parts(budgets)
    console.print(parts_table(parts))
    figures.update(parts)
    if not all(f"{key}_steps_per_s" in figures for key, _l, _m in THEIRS):
        console.print(INSTALL_HINT, markup=False, highlight=False)
    return figures
