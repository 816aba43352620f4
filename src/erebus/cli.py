"""The ``erebus`` command: play at the terminal, replay a save, run the benchmark.

A thin Typer layer: it parses options and hands over to :mod:`erebus.play`
(and :mod:`erebus.bench`), whose functions return the exit code, so everything
the command does is testable without a subprocess.
"""

from __future__ import annotations

from typing import Annotated

import typer

GAMES = ("northwest",)

app = typer.Typer(
    name="erebus",
    help="Arctic-exploration board games at the terminal: Expedition: Northwest Passage.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _check_game(game: str) -> None:
    if game not in GAMES:
        typer.echo(f"error: unknown game {game!r}; available: {', '.join(GAMES)}", err=True)
        raise typer.Exit(2)


@app.command()
def play(
    game: Annotated[str, typer.Option(help="Which game to play.")] = "northwest",
    players: Annotated[int, typer.Option(help="Number of players (2–4).")] = 3,
    humans: Annotated[
        int, typer.Option(help="How many seats are people; they take the first seats.")
    ] = 1,
    seed: Annotated[
        int | None, typer.Option(help="Seed of every random draw (default: a new one).")
    ] = None,
    save: Annotated[
        str | None, typer.Option(help="Write the action log to this JSON file after every action.")
    ] = None,
    names: Annotated[
        str | None, typer.Option(help="Comma-separated player names, e.g. Ann,Bob,Cy.")
    ] = None,
) -> None:
    """Play a game; seats not taken by people are played by a random bot."""
    from erebus.play import run_play

    _check_game(game)
    name_list = [n.strip() for n in names.split(",")] if names else None
    code = run_play(players, humans, seed, save, name_list)
    raise typer.Exit(code)


@app.command()
def replay(
    path: Annotated[str, typer.Argument(help="A save file written by erebus play --save.")],
    no_step: Annotated[
        bool, typer.Option("--no-step", help="Print the whole game at once instead of stepping.")
    ] = False,
) -> None:
    """Step through a saved game (Enter = next action, q = quit)."""
    from erebus.play import run_replay

    raise typer.Exit(run_replay(path, step=not no_step))


@app.command()
def bench(
    game: Annotated[str, typer.Option(help="Which game to measure.")] = "northwest",
    quick: Annotated[bool, typer.Option(help="Shorter runs, noisier figures.")] = False,
) -> None:
    """Measure the engine's speed (random playouts, legal-action generation)."""
    from erebus.bench import main as bench_main

    _check_game(game)
    bench_main(game=game, quick=quick)


def main() -> None:
    """Console-script entry point (``erebus``)."""
    app()


if __name__ == "__main__":
    main()
