"""Engine benchmarks behind ``erebus bench``: numbers printed, never asserted.

What it measures, on one core, in this process:

* random moves/s — ``legal_actions()`` + a random choice + ``apply()`` along
  whole games (4 players unless told) played by a random policy that rarely passes;
* full random games/s with the same policy (with the game's options, if given);
* µs per ``legal_actions()`` and per ``clone()`` on a fixed mid-game state.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.table import Table

from erebus.games import get_game


def playout_policy(rng: random.Random, legal: list[Any]) -> Any:
    """Uniform over the non-passing actions; pass or end the turn one time in ten."""
    stop = [a for a in legal if a.kind in ("pass", "end_turn")]
    other = [a for a in legal if a.kind not in ("pass", "end_turn")]
    if other and (not stop or rng.random() >= 0.1):
        return rng.choice(other)
    return rng.choice(stop or legal)


def mid_game_state(
    game: str = "northwest",
    players: int = 4,
    seed: int = 7,
    rounds: int = 5,
    options: dict[str, Any] | None = None,
) -> Any:
    """A reproducible state in the middle of a game: the first turn of round ``rounds``.

    A random game that ends before that round (a solo scenario is often lost by
    round 4) is played again from the next seeds, then aiming at earlier rounds, so
    that the legal-action figures are measured on a position that has actions."""
    spec = get_game(game)
    state = None
    for target in range(rounds, 0, -1):
        for attempt in range(20):
            state = _played_to(spec, players, seed + attempt, target, options)
            if not state.is_over:
                return state
    return state


def _played_to(
    spec: Any, players: int, seed: int, rounds: int, options: dict[str, Any] | None
) -> Any:
    rng = random.Random(seed)
    state = spec.new_game(players, seed, options) if options else spec.new_game(players, seed)
    round_of = spec.rounds
    while not state.is_over and round_of is not None and round_of(state) < rounds:
        state.apply(playout_policy(rng, state.legal_actions()))
    # A game with decisions outside turns (Through Ice and Snow): go on to a player's turn.
    at_turn = spec.at_turn
    while not state.is_over and at_turn is not None and not at_turn(state):
        state.apply(playout_policy(rng, state.legal_actions()))
    return state


def _time_per_call(fn: Callable[[], object], min_seconds: float) -> float:
    """Seconds per call of ``fn``, repeated until ``min_seconds`` have passed."""
    n = 1
    while True:
        start = time.perf_counter()
        for _ in range(n):
            fn()
        elapsed = time.perf_counter() - start
        if elapsed >= min_seconds:
            return elapsed / n
        n *= 2


def run(
    game: str = "northwest",
    players: int = 4,
    seconds: float = 3.0,
    options: dict[str, Any] | None = None,
) -> dict[str, float]:
    """Run every benchmark for about ``seconds`` each and return the figures.

    ``options``: the game's options (e.g. Ice and Snow's modules), checked by the
    game's ``parse_options`` first, so that a bad set is refused before any timing."""
    spec = get_game(game)
    if options:
        options = spec.parse_options(players, options)

    def new(seed: int) -> Any:
        return spec.new_game(players, seed, options) if options else spec.new_game(players, seed)

    new(0)  # load and validate the game data before timing
    rng = random.Random(1)
    moves = games = 0
    start = time.perf_counter()
    seed = 0
    while time.perf_counter() - start < seconds:
        state = new(seed)
        seed += 1
        while not state.is_over:
            state.apply(playout_policy(rng, state.legal_actions()))
            moves += 1
        games += 1
    elapsed = time.perf_counter() - start
    mid = mid_game_state(game, players, options=options)
    clone = _time_per_call(mid.clone, seconds / 3)
    # Engines may cache a state's legal list, so time it on fresh clones, minus the clone.
    legal = _time_per_call(lambda: mid.clone().legal_actions(), seconds / 3) - clone
    return {
        "random_moves_per_s": moves / elapsed,
        "random_games_per_s": games / elapsed,
        "moves_per_game": moves / max(games, 1),
        "legal_actions_us": legal * 1e6,
        "legal_actions_count": float(len(mid.legal_actions())),
        "clone_us": clone * 1e6,
    }


def main(
    game: str = "northwest",
    quick: bool = False,
    console: Console | None = None,
    players: int = 4,
    options: dict[str, Any] | None = None,
) -> dict[str, float]:
    """Print the benchmark table (``quick``: shorter runs, noisier figures)."""
    console = console or Console()
    figures = run(game, players, seconds=0.5 if quick else 3.0, options=options)
    what = f"{game}, {players} player{'s' if players != 1 else ''}"
    if options:
        what += f", options {json.dumps(options, sort_keys=True)}"
    table = Table(title=f"erebus bench — {what}, one core")
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_row("random moves / s", f"{figures['random_moves_per_s']:,.0f}")
    table.add_row(f"random {players}-player games / s", f"{figures['random_games_per_s']:,.2f}")
    table.add_row("moves per random game", f"{figures['moves_per_game']:,.0f}")
    table.add_row(
        f"µs per legal_actions() (mid-game, {figures['legal_actions_count']:.0f} actions)",
        f"{figures['legal_actions_us']:,.1f}",
    )
    table.add_row("µs per clone() (mid-game)", f"{figures['clone_us']:,.2f}")
    console.print(table)
    return figures
