"""How well MCTS keeps its time budget: wall time per move against ``time_s``.

    PYTHONPATH=src python bench/mcts_budget.py --time 1.0 --moves 40 [--load]
    PYTHONPATH=src python bench/mcts_budget.py --iterations 300 --moves 40

Plays a seeded game of one hard bot against medium ones and times every hard
move that had a choice (wall clock, ``time.perf_counter``): mean, median, 95th
percentile and maximum, and the ratio of the maximum to ``time_s``; and the CPU
time per move (what a move costs on one core, whatever else the machine runs).  ``--load``
keeps one busy process spinning on another core meanwhile (a loaded machine);
with ``--iterations`` it measures what that budget costs per move instead.
Printed, never asserted: the machines are shared.
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import time

from erebus.bots import make_bot
from erebus.games import get_game


def _spin(stop: float) -> None:
    x = 0
    while time.time() < stop:
        x += 1


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="northwest")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--time", type=float, default=None, help="time_s per move")
    ap.add_argument("--iterations", type=int, default=None)
    ap.add_argument("--moves", type=int, default=40, help="hard moves to time")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--load", action="store_true", help="keep another core busy")
    args = ap.parse_args()
    if args.time is None and args.iterations is None:
        args.time = 1.0
    spec = get_game(args.game)
    spinner = None
    if args.load:
        spinner = multiprocessing.Process(target=_spin, args=(time.time() + 3600,), daemon=True)
        spinner.start()
    times: list[float] = []
    cpu: list[float] = []
    iters: list[int] = []
    game = 0
    try:
        while len(times) < args.moves:
            state = spec.new_game(args.players, args.seed + game)
            bots = [
                make_bot("hard", seed=game, time_s=args.time, iterations=args.iterations)
                if s == 0
                else make_bot("medium", seed=game * 10 + s)
                for s in range(args.players)
            ]
            while not state.is_over and len(times) < args.moves:
                seat = state.current_player
                many = len(state.legal_actions()) > 1
                t0, c0 = time.perf_counter(), time.process_time()
                action = bots[seat].choose(state)
                dt, dc = time.perf_counter() - t0, time.process_time() - c0
                if seat == 0 and many:
                    times.append(dt)
                    cpu.append(dc)
                    iters.append(bots[0].last_iterations)
                state.apply(action)
            game += 1
    finally:
        if spinner is not None:
            spinner.terminate()
    times.sort()
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    budget = f"time_s {args.time}" if args.iterations is None else f"{args.iterations} iterations"
    print(f"{args.game}, {args.players} players, {budget}, load={'yes' if args.load else 'no'}")
    print(
        f"{len(times)} moves: mean {statistics.fmean(times):.3f} s, median "
        f"{statistics.median(times):.3f} s, p95 {p95:.3f} s, max {times[-1]:.3f} s; "
        f"iterations per move mean {statistics.fmean(iters):.0f}"
    )
    print(
        f"CPU time per move (this process, one core): mean {statistics.fmean(cpu):.3f} s, "
        f"max {max(cpu):.3f} s"
    )
    if args.iterations is None:
        print(f"max / time_s = {times[-1] / args.time:.3f}")


if __name__ == "__main__":
    main()
