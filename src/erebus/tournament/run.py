"""Running a tournament: the games in worker processes, the result, its files and
the ``erebus tournament`` command."""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from erebus.games import get_game
from erebus.tournament.balance import balance_summary, balance_tables
from erebus.tournament.games import GameRecord, GameTask, play_game
from erebus.tournament.ratings import ELO_METHOD, BotStats, bot_stats
from erebus.tournament.seating import base_lineup, game_seed, lineup


@dataclass
class TournamentResult:
    """Every game record, the per-bot statistics and how the tournament was run."""

    game: str
    players: int
    bots: list[str]
    games: int
    jobs: int
    seed: int
    time_s: float | None
    iterations: int | None
    records: list[GameRecord]
    stats: dict[str, BotStats]
    elapsed_s: float = 0.0
    balanced: bool = True
    notes: list[str] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)  # the game's options

    @property
    def names(self) -> list[str]:
        """The distinct bot names, in the order given."""
        return list(dict.fromkeys(self.bots))

    def to_json(self) -> dict[str, Any]:
        """The ``--out`` file: settings, summary (with the balance summary) and every game."""
        return {
            "tournament": {
                "game": self.game,
                "players": self.players,
                "bots": self.bots,
                "games": self.games,
                "jobs": self.jobs,
                "seed": self.seed,
                "time_s": self.time_s,
                "iterations": self.iterations,
                "options": self.options,
                "base_lineup": base_lineup(self.bots, self.players),
                "balanced": self.balanced,
                "elo_method": ELO_METHOD,
                "elapsed_s": round(self.elapsed_s, 3),
            },
            "summary": {
                "bots": {name: s.to_json() for name, s in self.stats.items()},
                "balance": balance_summary(self),
            },
            "games": [r.to_json() for r in self.records],
        }

    def table(self) -> Table:
        """The results table, one row per bot, strongest (Elo) first."""
        title = f"{self.game}: {self.games} games, {self.players} players, seed {self.seed}" + (
            "" if self.balanced else " (seats not fully rotated)"
        )
        caption = "Elo: Bradley–Terry fit, mean 1500"
        fair = {s.name: s.seats / (s.games * self.players) for s in self.stats.values() if s.games}
        if len(set(fair.values())) > 1:  # one challenger against the field: 50 % is not par
            caption += "; par win %: " + ", ".join(
                f"{name} {100 * share:.0f}" for name, share in fair.items()
            )
        table = Table(title=title, caption=caption)
        table.add_column("Bot", style="bold")
        for col in ("Games", "Wins", "Win %", "95 % CI", "Score", "± sd", "Length", "Elo"):
            table.add_column(col, justify="right", no_wrap=True)
        for s in sorted(self.stats.values(), key=lambda s: -s.elo):
            wins = f"{s.wins:g}" if s.wins == int(s.wins) else f"{s.wins:.1f}"
            table.add_row(
                s.name,
                str(s.games),
                wins,
                f"{100 * s.win_rate:.1f}",
                f"{100 * s.win_ci[0]:.1f}–{100 * s.win_ci[1]:.1f}",
                f"{s.score_mean:.1f}",
                f"{s.score_std:.1f}",
                f"{s.length_mean:.0f}",
                f"{s.elo:.0f}",
            )
        return table


def _check(
    game: str,
    players: int,
    bots: Sequence[str],
    games: int,
    jobs: int,
    time_s: float | None,
    iterations: int | None,
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Fail in the caller's process, with a plain message, before any worker starts;
    the game's complete options (``spec.parse_options``)."""
    from erebus.bots import make_bot

    spec = get_game(game)
    if players not in spec.players:
        allowed = ", ".join(map(str, spec.players))
        raise ValueError(f"{game} is for {allowed} players, not {players}")
    parsed = spec.parse_options(players, options)
    if games < 1:
        raise ValueError("play at least one game")
    if jobs < 1:
        raise ValueError("jobs must be at least 1")
    if time_s is not None and iterations is not None:
        raise ValueError("give a time or a number of iterations, not both")
    if time_s is not None and time_s <= 0:
        raise ValueError("time must be positive")
    if iterations is not None and iterations < 1:
        raise ValueError("iterations must be at least 1")
    for name in dict.fromkeys(bots):
        make_bot(name, seed=0)  # ValueError naming the choices if unknown
    return parsed


def run_tournament(
    game: str = "northwest",
    players: int = 2,
    bots: Sequence[str] = ("mcts", "greedy"),
    games: int = 200,
    jobs: int = 2,
    seed: int = 1,
    time_s: float | None = None,
    iterations: int | None = None,
    progress: bool = True,
    console: Console | None = None,
    options: dict[str, Any] | None = None,
) -> TournamentResult:
    """Play ``games`` games between ``bots`` with rotated seats; see the module docstring.

    ``options``: the game's options (checked by its ``parse_options``; every game
    of the tournament is played with them).

    ``jobs`` worker processes play games in parallel (``jobs=1``: in this
    process, easier to debug and profile).  Workers are *spawned*, not forked,
    because the progress bar's refresh thread is running when they start; so
    a script calling this with ``jobs > 1`` needs the usual
    ``if __name__ == "__main__":`` guard.
    Records come back in game order whatever order the games finished in.
    """
    bots = [b.strip() for b in bots if b.strip()]
    game_options = _check(game, players, bots, games, jobs, time_s, iterations, options)
    tasks = [
        GameTask(
            game=game,
            players=players,
            index=i,
            seed=game_seed(seed, i),
            seats=tuple(lineup(bots, players, i)),
            time_s=time_s,
            iterations=iterations,
            options=game_options or None,
        )
        for i in range(games)
    ]
    console = console or Console(stderr=True)
    records: list[GameRecord | None] = [None] * games
    start = time.perf_counter()
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=console,
        disable=not progress,
        transient=False,
    ) as bar:
        task_id = bar.add_task(f"{' vs '.join(dict.fromkeys(bots))}", total=games)
        if jobs == 1:
            for t in tasks:
                records[t.index] = play_game(t)
                bar.advance(task_id)
        else:
            ctx = multiprocessing.get_context("spawn")
            with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx) as pool:
                futures = [pool.submit(play_game, t) for t in tasks]
                try:
                    for fut in as_completed(futures):
                        rec = fut.result()
                        records[rec.index] = rec
                        bar.advance(task_id)
                except BaseException:
                    for f in futures:
                        f.cancel()
                    raise
    done = [r for r in records if r is not None]
    base = base_lineup(bots, players)
    balanced = games % len(base) == 0
    notes = []
    if not balanced:
        notes.append(
            f"{games} games is not a multiple of the lineup's {len(base)} rotations: "
            "some bots sat in some seats once more than in others"
        )
    if any(b in ("mcts", "hard") for b in bots) and iterations is None:
        notes.append("mcts on a time budget is not reproducible from the seed; use --iterations")
    return TournamentResult(
        game=game,
        players=players,
        bots=bots,
        games=games,
        jobs=jobs,
        seed=seed,
        time_s=time_s,
        iterations=iterations,
        records=done,
        stats=bot_stats(done, bots),
        elapsed_s=time.perf_counter() - start,
        balanced=balanced,
        notes=notes,
        options=game_options,
    )


# ------------------------------------------------------------------ output files


def write_json(result: TournamentResult, path: str | Path) -> Path:
    """Write :meth:`TournamentResult.to_json` to ``path``."""
    import json

    out = Path(path)
    out.write_text(json.dumps(result.to_json(), indent=1) + "\n", encoding="utf-8")
    return out


def write_plot(result: TournamentResult, path: str | Path) -> Path:
    """Score distribution per bot: box plots with every seat's score, and histograms.

    matplotlib is an optional extra (``erebus[plot]``) and is imported here
    only, with the Agg backend so it works without a display; ``ImportError``
    tells the caller it is missing.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = sorted(result.names, key=lambda n: -result.stats[n].elo)
    scores = {
        n: [r.scores[s] for r in result.records for s, b in enumerate(r.seats) if b == n]
        for n in names
    }
    fig, (box_ax, hist_ax) = plt.subplots(1, 2, figsize=(11, 4.5))
    try:
        box_ax.boxplot(
            [scores[n] for n in names], tick_labels=names, showmeans=True, showfliers=False
        )
        for i, n in enumerate(names, start=1):
            jitter = [i + 0.25 * (((k * 0.6180339887) % 1.0) - 0.5) for k in range(len(scores[n]))]
            box_ax.scatter(jitter, scores[n], s=6, alpha=0.35)
        box_ax.set_ylabel("final score")
        box_ax.set_title("Scores per bot")
        every = [v for vals in scores.values() for v in vals]
        lo, hi = (min(every), max(every)) if every else (0, 1)
        bins = max(1, min(30, hi - lo + 1))
        for n in names:
            hist_ax.hist(scores[n], bins=bins, histtype="step", linewidth=1.5, label=n)
        hist_ax.set_xlabel("final score")
        hist_ax.set_ylabel("seats")
        hist_ax.set_title("Score distribution")
        hist_ax.legend()
        fig.suptitle(
            f"{result.game}: {len(result.records)} games, {result.players} players, seed {result.seed}"
        )
        fig.tight_layout()
        out = Path(path)
        fig.savefig(out, dpi=110)
    finally:
        plt.close(fig)
    return out


# ------------------------------------------------------------------ command line


def main(
    game: str = "northwest",
    players: int = 2,
    bots: str = "mcts,greedy",
    games: int = 200,
    jobs: int = 2,
    seed: int = 1,
    time_s: float | None = None,
    iterations: int | None = None,
    out: str | None = None,
    plot: str | None = None,
    console: Console | None = None,
    progress: bool = True,
    options: str | None = None,
) -> int:
    """``erebus tournament``: run, print the tables, write the files; the exit code.

    ``options``: the game's options as a JSON object (``--options``).

    The plot goes next to ``out`` (same name, ``.png``) unless ``plot`` names
    a file; without either there is no plot.
    """
    console = console or Console()
    names = [b.strip() for b in bots.split(",") if b.strip()]
    try:
        game_options = _json_object(options)
        result = run_tournament(
            game=game,
            players=players,
            bots=names,
            games=games,
            jobs=jobs,
            seed=seed,
            time_s=time_s,
            iterations=iterations,
            progress=progress,
            console=console,
            options=game_options,
        )
    except ValueError as exc:
        console.print(f"[red]error:[/] {exc}")
        return 2
    console.print(result.table())
    for table in balance_tables(balance_summary(result)):
        console.print(table)
    for note in result.notes:
        console.print(f"[yellow]note:[/] {note}")
    console.print(f"{len(result.records)} games in {result.elapsed_s:.1f} s with {jobs} job(s)")
    if out:
        console.print(f"results written to {write_json(result, out)}")
    plot_path = plot or (str(Path(out).with_suffix(".png")) if out else None)
    if plot_path:
        try:
            console.print(f"score plot written to {write_plot(result, plot_path)}")
        except ImportError:
            console.print("[red]error:[/] the plot needs matplotlib: pip install 'erebus[plot]'")
            return 1
    return 0


def _json_object(text: str | None) -> dict[str, Any] | None:
    """``--options``: None, or a JSON object (``ValueError`` otherwise)."""
    if text is None:
        return None
    import json

    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"--options is not JSON: {exc}") from exc
    if not isinstance(value, dict):
        raise ValueError("--options must be a JSON object")
    return value
