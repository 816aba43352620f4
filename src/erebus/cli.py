"""The ``erebus`` command: play at the terminal, replay a save, run the benchmark.

A thin Typer layer: it parses options and hands over to :mod:`erebus.terminal.app`
(and :mod:`erebus.bench`), whose functions return the exit code, so everything
the command does is testable without a subprocess.
"""

from __future__ import annotations

from typing import Annotated

import typer

from erebus.games import GAMES

app = typer.Typer(
    name="erebus",
    help="Arctic-exploration board games at the terminal: Expedition: Northwest Passage and Through Ice and Snow.",
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
    game: Annotated[
        str | None,
        typer.Option(help="Which game to play: northwest or iceandsnow (default northwest)."),
    ] = None,
    players: Annotated[
        int | None,
        typer.Option(help="Number of players (Northwest 2–4, Ice and Snow 1–4; default 3)."),
    ] = None,
    humans: Annotated[
        int | None,
        typer.Option(help="How many seats are people; they take the first seats (default 1)."),
    ] = None,
    seed: Annotated[
        int | None, typer.Option(help="Seed of every random draw (default: a new one).")
    ] = None,
    save: Annotated[
        str | None, typer.Option(help="Write the action log to this JSON file after every action.")
    ] = None,
    names: Annotated[
        str | None, typer.Option(help="Comma-separated player names, e.g. Ann,Bob,Cy.")
    ] = None,
    level: Annotated[
        str | None,
        typer.Option(
            help="Bot difficulty: easy (random), medium (greedy), hard (MCTS); default medium "
            "(with --load: the saved level)."
        ),
    ] = None,
    think: Annotated[float, typer.Option(help="Seconds a hard bot thinks per move.")] = 1.0,
    options: Annotated[
        str | None,
        typer.Option(
            help='Game options as a JSON object (iceandsnow), e.g. \'{"modes": ["survival"]}\'.'
        ),
    ] = None,
    scenario: Annotated[
        str | None,
        typer.Option(
            help="iceandsnow solo scenario: lost-expedition, magnetic-north-pole, "
            "mysterious-epidemic or amundsens-voyage (implies --players 1 --humans 1)."
        ),
    ] = None,
    load: Annotated[
        str | None,
        typer.Option(
            help="Resume a save file (game, players, seed, options, names and seats come "
            "from it); add --save to keep saving, e.g. to the same file."
        ),
    ] = None,
) -> None:
    """Play a game; seats not taken by people are played by bots of the chosen level."""
    from erebus.terminal.app import run_play

    name_list = [n.strip() for n in names.split(",")] if names else None
    code = run_play(
        players,
        humans,
        seed,
        save,
        name_list,
        level=level,
        think_s=think,
        game=game,
        options=options,
        scenario=scenario,
        load=load,
    )
    raise typer.Exit(code)


@app.command()
def replay(
    path: Annotated[str, typer.Argument(help="A save file written by erebus play --save.")],
    no_step: Annotated[
        bool, typer.Option("--no-step", help="Print the whole game at once instead of stepping.")
    ] = False,
) -> None:
    """Step through a saved game of any erebus game (Enter = next action, q = quit)."""
    from erebus.terminal.app import run_replay

    raise typer.Exit(run_replay(path, step=not no_step))


@app.command()
def review(
    path: Annotated[str, typer.Argument(help="A save file written by erebus play --save.")],
    iterations: Annotated[
        int, typer.Option(min=1, help="Hard-bot search iterations per move (more: slower, surer).")
    ] = 80,
    plot: Annotated[
        str | None,
        typer.Option(help="Also write the winning-chance plot as a PNG (needs erebus[plot])."),
    ] = None,
    json_out: Annotated[
        str | None, typer.Option("--json", help="Also write the whole review as JSON.")
    ] = None,
    top: Annotated[int, typer.Option(min=1, help="How many of the biggest mistakes to list.")] = 10,
) -> None:
    """Rate every move of a saved game against the hard bot's best choice (from the
    mover's view only): a table per seat, the biggest mistakes, winning chances."""
    from erebus.terminal.review import run_review

    raise typer.Exit(run_review(path, iterations, plot, json_out, top))


@app.command()
def bench(
    target: Annotated[
        str, typer.Argument(help="engine (default) or server: load on a live web server.")
    ] = "engine",
    game: Annotated[str, typer.Option(help="Which game to measure.")] = "northwest",
    quick: Annotated[bool, typer.Option(help="Shorter runs, noisier figures.")] = False,
    compare: Annotated[
        bool,
        typer.Option(
            "--compare",
            help="Compare with OpenSpiel (random moves/s, MCTS simulations/s) and "
            "PettingZoo (RL env steps/s next to tictactoe_v3 and chess_v6); "
            "needs the bench extra: pip install -e '.\\[bench]'.",
        ),
    ] = False,
    games: Annotated[int, typer.Option(help="server: live games at once.")] = 200,
    actions: Annotated[int, typer.Option(help="server: client actions per game, at most.")] = 40,
    port: Annotated[int, typer.Option(help="server: port (0: a free one).")] = 0,
    db: Annotated[
        str | None, typer.Option(help="server: database URL (default: SQLite in a temp dir).")
    ] = None,
    think_ms: Annotated[
        float,
        typer.Option(
            help="server: mean think time before each client action, ms (uniform in "
            "0.5–1.5× of it; 0: none, an action every 60 ms, which saturates the server)."
        ),
    ] = 1000.0,
    saturation: Annotated[
        bool, typer.Option(help="server: also measure the throughput ceiling (no think time).")
    ] = True,
    ice_share: Annotated[
        float,
        typer.Option(
            help="server: the share of Through Ice and Snow games (the rest: Northwest "
            "Passage; 0: Northwest only)."
        ),
    ] = 0.5,
    trace_slow: Annotated[
        bool,
        typer.Option(
            "--trace-slow",
            help="server: trace the server's work and tell what it did during the "
            "slowest 1% of round trips.",
        ),
    ] = False,
    processes: Annotated[
        int,
        typer.Option(
            help="server: erebus serve processes (>1: on PostgreSQL --db, default the "
            "test database in a fresh schema, and Redis; saturation measured with 1 and N)."
        ),
    ] = 1,
    redis_url: Annotated[
        str | None,
        typer.Option(help="server, --processes > 1: Redis (default: a private redis-server)."),
    ] = None,
    routing: Annotated[
        str,
        typer.Option(
            help="server, --processes > 1: game (each game's seat on the process its id "
            "picks, as the README's proxy configs route) or cross (always another "
            "process than the game's creator: every push crosses processes)."
        ),
    ] = "game",
    players: Annotated[int, typer.Option(help="engine: seats per game.")] = 4,
    options: Annotated[
        str | None,
        typer.Option(
            help="engine: the game's options as JSON, e.g. "
            '\'{"modules": ["inuit_myths", "legendary_expeditions"]}\'.'
        ),
    ] = None,
) -> None:
    """Measure the engine's speed (random playouts, legal-action generation);
    with --compare, next to OpenSpiel reference points; `bench server`: latency
    and throughput of a live web server next to a bare WebSocket echo."""
    if target == "server":
        from erebus.bench.server import main as server_main

        if routing not in ("game", "cross"):
            typer.echo(f"error: --routing must be game or cross, not {routing!r}", err=True)
            raise typer.Exit(2)
        raise typer.Exit(
            server_main(
                games=games,
                actions=actions,
                port=port,
                db=db,
                think_ms=think_ms,
                saturation=saturation,
                ice_share=ice_share,
                trace_slow=trace_slow,
                processes=processes,
                redis_url=redis_url,
                routing=routing,
            )
        )
    if target != "engine":
        typer.echo(f"error: unknown bench target {target!r}; use engine or server", err=True)
        raise typer.Exit(2)
    if compare:
        from erebus.bench.compare import main_all as compare_main

        compare_main(quick=quick)  # without OpenSpiel: prints how to install it
        raise typer.Exit(0)
    from erebus.bench.engine import main as bench_main

    _check_game(game)
    from erebus.tournament.run import _json_object

    try:
        bench_main(game=game, quick=quick, players=players, options=_json_object(options))
    except ValueError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc


@app.command()
def tournament(
    game: Annotated[str, typer.Option(help="Which game to play.")] = "northwest",
    players: Annotated[int, typer.Option(help="Seats per game.")] = 2,
    bots: Annotated[
        str,
        typer.Option(
            help="Comma-separated bots (random, greedy, mcts). Fewer than seats: "
            "the first takes one seat, the last the others."
        ),
    ] = "mcts,greedy",
    games: Annotated[int, typer.Option(help="Games to play; seats rotate every game.")] = 200,
    jobs: Annotated[int, typer.Option(help="Worker processes (1: in this process).")] = 2,
    seed: Annotated[
        int, typer.Option(help="Tournament seed; every game's seed derives from it.")
    ] = 1,
    time: Annotated[
        float | None, typer.Option("--time", help="mcts seconds per move (default 1.0).")
    ] = None,
    iterations: Annotated[
        int | None, typer.Option(help="mcts iterations per move (reproducible, unlike --time).")
    ] = None,
    out: Annotated[
        str | None, typer.Option(help="Write every game record and the summary to this JSON file.")
    ] = None,
    plot: Annotated[
        str | None, typer.Option(help="Score-distribution PNG (default: next to --out).")
    ] = None,
    options: Annotated[
        str | None,
        typer.Option(help='The game\'s options as JSON, e.g. \'{"modes": ["survival"]}\'.'),
    ] = None,
) -> None:
    """Bots against bots: win rates, Elo, and the game's balance figures."""
    from erebus.tournament import main as tournament_main

    _check_game(game)
    raise typer.Exit(
        tournament_main(
            game, players, bots, games, jobs, seed, time, iterations, out, plot, options=options
        )
    )


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    db: Annotated[
        str | None,
        typer.Option(help="Database URL (default: $DATABASE_URL, then sqlite:///var/erebus.db)."),
    ] = None,
    allow_origin: Annotated[
        list[str] | None,
        typer.Option(
            help="Also accept WebSockets from pages of this origin (e.g. https://example.org); "
            "repeatable; also $EREBUS_ALLOWED_ORIGINS (comma-separated)."
        ),
    ] = None,
    create_per_minute: Annotated[
        int | None, typer.Option(help="New games a minute per client address (0: no limit; 20).")
    ] = None,
    api_rate: Annotated[
        float | None,
        typer.Option(help="API requests a second per client address (0: no limit; 30)."),
    ] = None,
    api_burst: Annotated[
        int | None, typer.Option(help="Bursts of API requests allowed above the rate (60).")
    ] = None,
    max_live_games: Annotated[
        int | None, typer.Option(help="Games in progress at once (0: no limit; 2000).")
    ] = None,
    hint_iterations: Annotated[
        int | None, typer.Option(min=1, help="Hard-bot search iterations per hint (300).")
    ] = None,
    review_iterations: Annotated[
        int | None,
        typer.Option(min=1, help="Hard-bot search iterations per move of a review (80)."),
    ] = None,
    hints_per_minute: Annotated[
        int | None,
        typer.Option(help="Hints computed per seat of a game a minute (0: no limit; 20)."),
    ] = None,
    bot_delay: Annotated[
        float | None,
        typer.Option(help="Seconds a bot waits before each move, so people can follow (0)."),
    ] = None,
) -> None:
    """Run the web server: lobby, seats and play in the browser.  With $REDIS_URL
    (and a PostgreSQL database), one of several processes serving the same games."""
    from erebus.server.run import run_server, server_settings

    settings = server_settings(
        allow_origin,
        create_per_minute=create_per_minute,
        api_rate=api_rate,
        api_burst=api_burst,
        max_live_games=max_live_games,
        hint_iterations=hint_iterations,
        review_iterations=review_iterations,
        hints_per_minute=hints_per_minute,
        bot_delay_s=bot_delay,
    )
    raise typer.Exit(run_server(host, port, db, settings))


def main() -> None:
    """Console-script entry point (``erebus``)."""
    app()


if __name__ == "__main__":
    main()
