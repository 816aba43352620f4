"""Play a tournament in chunks of game indices, one JSON line per game, and print the
tables of ``erebus tournament`` for any set of chunk files.

    python tools/tournament_chunks.py play --players 2 --bots mcts,greedy --seed 1 \\
        --iterations 300 --first 0 --last 99 --out t2-a.jsonl
    python tools/tournament_chunks.py summary --players 2 --bots mcts,greedy --seed 1 \\
        --iterations 300 t2-a.jsonl t2-b.jsonl

Game ``i`` has the seed and the seats it has in ``erebus tournament --seed S`` (the
same ``GameTask``), so the records of indices 0–199 are exactly those of a 200-game
tournament.  Each game's line is written when the game ends: on a shared machine a
chunk that is stopped keeps the games it finished, and a chunk run again skips the
indices already in its file.  ``summary`` prints the results and balance tables of the
records found (seats rotate with the index, so a partial run is rotated to within a
game) and writes ``--out`` in the format of ``erebus tournament --out`` if asked.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from rich.console import Console

from erebus.tournament import GameTask, play_game
from erebus.tournament.balance import balance_summary, balance_tables
from erebus.tournament.games import GameRecord
from erebus.tournament.ratings import bot_stats
from erebus.tournament.run import TournamentResult, write_json
from erebus.tournament.seating import base_lineup, game_seed, lineup


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--game", default="northwest")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--bots", default="mcts,greedy")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--iterations", type=int, default=None)
    p.add_argument("--time", type=float, default=None, dest="time_s")


def play(args: argparse.Namespace) -> int:
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    out = Path(args.out)
    done: set[int] = set()
    if out.exists():
        for line in out.read_text(encoding="utf-8").splitlines():
            if line.strip():
                done.add(json.loads(line)["record"]["index"])
    with out.open("a", encoding="utf-8") as fh:
        for i in range(args.first, args.last + 1):
            if i in done:
                continue
            task = GameTask(
                game=args.game,
                players=args.players,
                index=i,
                seed=game_seed(args.seed, i),
                seats=tuple(lineup(bots, args.players, i)),
                time_s=args.time_s,
                iterations=args.iterations,
            )
            wall, cpu = time.perf_counter(), time.process_time()
            rec = play_game(task)
            line = {
                "record": rec.to_json(),
                "wall_s": round(time.perf_counter() - wall, 3),
                "cpu_s": round(time.process_time() - cpu, 3),
            }
            fh.write(json.dumps(line) + "\n")
            fh.flush()
    return 0


def summary(args: argparse.Namespace) -> int:
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    lines = []
    for f in args.files:
        for text in Path(f).read_text(encoding="utf-8").splitlines():
            if text.strip():
                lines.append(json.loads(text))
    by_index = {ln["record"]["index"]: ln for ln in lines}
    records = [GameRecord(**by_index[i]["record"]) for i in sorted(by_index)]
    wall = sum(ln["wall_s"] for ln in by_index.values())
    cpu = sum(ln["cpu_s"] for ln in by_index.values())
    result = TournamentResult(
        game=args.game,
        players=args.players,
        bots=bots,
        games=len(records),
        jobs=1,
        seed=args.seed,
        time_s=args.time_s,
        iterations=args.iterations,
        records=records,
        stats=bot_stats(records, bots),
        elapsed_s=wall,
        balanced=len(records) % len(base_lineup(bots, args.players)) == 0,
    )
    console = Console(width=120)
    console.print(result.table())
    for table in balance_tables(balance_summary(result)):
        console.print(table)
    indices = sorted(by_index)
    console.print(
        f"{len(records)} games (indices {indices[0]}–{indices[-1]}), "
        f"{wall:.0f} s wall, {cpu:.0f} s CPU in all ({cpu / max(1, len(records)):.1f} s CPU a game)"
        if records
        else "no games"
    )
    if args.out:
        console.print(f"results written to {write_json(result, args.out)}")
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    pp = sub.add_parser("play", help="play games --first..--last (inclusive) into --out")
    _common(pp)
    pp.add_argument("--first", type=int, required=True)
    pp.add_argument("--last", type=int, required=True)
    pp.add_argument("--out", required=True)
    ps = sub.add_parser("summary", help="the tables of the records in the files")
    _common(ps)
    ps.add_argument("files", nargs="+")
    ps.add_argument("--out", default=None)
    args = p.parse_args(argv)
    return play(args) if args.cmd == "play" else summary(args)


if __name__ == "__main__":
    raise SystemExit(main())
