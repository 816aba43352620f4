"""``erebus review GAME.json``: a finished game rated move by move at the terminal.

The save file is the one ``erebus play --save`` writes and ``erebus replay`` reads.
Every move is rated against the hard bot's best choice in that position, from the
mover's view only (:mod:`erebus.bots.analysis`), with a Rich progress bar meanwhile;
then a table per seat (moves, expected result given up, mistakes), the biggest
mistakes, and each seat's estimated winning chance over the game: a plot in the
terminal, and a PNG with ``--plot`` (matplotlib, the ``erebus[plot]`` extra).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from erebus.bots import analysis
from erebus.terminal.app import SaveError, load_save, ui_for
from erebus.terminal.seats import player_colour

BARS = " ▁▂▃▄▅▆▇█"
PLOT_WIDTH = 60


def sparkline(values: Sequence[float], width: int = PLOT_WIDTH) -> str:
    """``values`` in [0, 1] as one line of block characters, ``width`` wide at most
    (each character the mean of its share of the values)."""
    if not values:
        return ""
    n = len(values)
    cols = min(width, n)
    out = []
    for i in range(cols):
        part = values[i * n // cols : max(i * n // cols + 1, (i + 1) * n // cols)]
        v = sum(part) / len(part)
        out.append(BARS[max(0, min(len(BARS) - 1, round(v * (len(BARS) - 1))))])
    return "".join(out)


def _title(game: str) -> str:
    from erebus.games import get_game

    try:
        return get_game(game).title
    except (KeyError, ValueError):
        return game


def chance_figure(review: dict[str, Any], names: Sequence[str]) -> Any:
    """The matplotlib figure of :func:`write_plot` (Agg; the caller closes it): each
    seat's line in its colour, the mistakes marked, x the move number, y the winning
    chance 0–100 %."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator, PercentFormatter

    chances = review["chances"]
    fig, ax = plt.subplots(figsize=(10, 4))
    for seat in range(review["players"]):
        ax.plot(
            range(len(chances)),
            [c[seat] for c in chances],
            label=names[seat],
            color=player_colour(seat),  # the seat's colour, as on the board
        )
    for m in review["moves"]:
        if m["mistake"]:
            ax.plot(
                m["step"] - 1,
                m["chances"][m["seat"]],
                marker="v" if m["blunder"] else "o",
                color=player_colour(m["seat"]),
                markeredgecolor="black",
                markersize=7 if m["blunder"] else 5,
            )
    ax.set_ylim(0, 1)
    ax.set_xlim(0, max(1, len(chances) - 1))
    ax.set_yticks([0, 0.25, 0.5, 0.75, 1])
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.grid(True, alpha=0.3)
    ax.set_xlabel("move number")
    ax.set_ylabel("estimated winning chance")
    ax.set_title(f"{_title(review['game'])}: winning chances (● mistake, ▼ big mistake)")
    ax.legend()
    fig.tight_layout()
    return fig


def write_plot(review: dict[str, Any], names: Sequence[str], path: str | Path) -> Path:
    """Each seat's estimated winning chance per move, as a PNG (matplotlib, Agg)."""
    import matplotlib.pyplot as plt

    fig = chance_figure(review, names)
    try:
        out = Path(path)
        fig.savefig(out, dpi=100)
    finally:
        plt.close(fig)
    return out


def run_review(
    path: str,
    iterations: int = analysis.REVIEW_ITERATIONS,
    plot: str | None = None,
    json_out: str | None = None,
    top: int = 10,
    console: Console | None = None,
) -> int:
    """Review the save file at ``path``; the exit code (2: a bad file)."""
    console = console or Console()
    try:
        saved = load_save(path)
    except SaveError as exc:
        console.print(f"[red]error:[/] {exc}")
        return 2
    ui = ui_for(saved.game)
    actions = [a.to_json() for a in saved.actions]
    state = ui.new_game(saved.players, saved.seed, saved.options)
    for a in saved.actions:
        state.apply(a)
    if not state.is_over:
        console.print("[yellow]note:[/] the game is not over; reviewing the moves made so far")
    # The search's seeds: from the game itself (its moves, public once it is over), not
    # from the file's name, so a copy of the save gets the same review.
    key = str(analysis.public_seed(saved.game, saved.players, json.dumps(actions, sort_keys=True)))
    moves: list[dict[str, Any]] = []
    with Progress(
        TextColumn("reviewing"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=False,
    ) as bar:
        task = bar.add_task("moves", total=len(actions))
        for k in range(len(actions)):
            moves += analysis.review_moves(
                saved.game,
                saved.players,
                saved.seed,
                actions,
                saved.options,
                key,
                iterations,
                k,
                k + 1,
            )
            bar.update(task, completed=k + 1)
    if state.is_over:
        review = analysis.assemble(
            saved.game, saved.players, saved.seed, actions, saved.options, moves, iterations
        )
    else:
        review = {
            "game": saved.game,
            "players": saved.players,
            "iterations": iterations,
            "moves": moves,
            "chances": [m["chances"] for m in moves]
            + [[round(c, 4) for c in analysis.win_chances(state, state.current_player)]],
            "seats": analysis.seat_summary(moves, saved.players),
            "scores": list(state.scores()),
        }
    names = saved.names
    review["names"] = list(names)
    _print(console, review, names, top)
    if json_out:
        Path(json_out).write_text(json.dumps(review, indent=1) + "\n", encoding="utf-8")
        console.print(f"review written to {json_out}")
    if plot:
        try:
            out = write_plot(review, names, plot)
        except ImportError:
            console.print("[red]error:[/] the plot needs matplotlib: pip install 'erebus[plot]'")
            return 1
        console.print(f"plot written to {out}")
    return 0


def _print(console: Console, review: dict[str, Any], names: Sequence[str], top: int) -> None:
    seats = Table(title="Moves rated against the hard bot's best choice")
    for col in ("seat", "score", "choices", "given up", "per move", "mistakes", "big"):
        seats.add_column(col, justify="left" if col == "seat" else "right")
    for s in review["seats"]:
        seats.add_row(
            names[s["seat"]],
            str(review["scores"][s["seat"]]),
            str(s["moves"]),
            f"{s['total_loss']:.2f}",
            f"{s['mean_loss']:.1%}",
            str(s["mistakes"]),
            str(s["blunders"]),
        )
    console.print(seats)
    worst = sorted((m for m in review["moves"] if m["mistake"]), key=lambda m: -m["loss"])[:top]
    if worst:
        table = Table(title=f"The biggest mistakes (at most {top})")
        for col in ("move", "seat", "played", "the bot's choice", "given up"):
            table.add_column(col, justify="right" if col in ("move", "given up") else "left")
        for m in worst:
            table.add_row(
                str(m["step"]),
                names[m["seat"]],
                ("✗✗ " if m["blunder"] else "✗ ") + m["text"],
                m["best_text"],
                f"{m['loss']:.0%}",
            )
        console.print(table)
    else:
        console.print("No mistakes found: every move was within reach of the bot's best.")
    console.print(Text("Estimated winning chances over the game (▁ 0% … █ 100%):", style="bold"))
    chances = review["chances"]
    for seat in range(review["players"]):
        line = Text(f"{names[seat]:>12} ")
        line.append(sparkline([c[seat] for c in chances]), style="cyan")
        line.append(f" {chances[-1][seat]:.0%}")
        console.print(line)
