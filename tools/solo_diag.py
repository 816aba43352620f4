"""Why do bots lose Through Ice and Snow's solo scenarios?  Play some games and print,
per game, the loss reason and round, and per round the board at the start of each
Voyage phase (PP, food, health, morale, fuel, dynamite, wood, rifles, dogs, sled).

    PYTHONPATH=src python tools/solo_diag.py lost-expedition --bot greedy --games 5

A diagnostic for bot work (issue 14); it reads states through the engine's public
fields only and changes nothing.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
import time

from erebus.bots import make_bot
from erebus.games import get_game
from erebus.games.iceandsnow.layout import (
    DOGS,
    DYN,
    FOOD,
    FUEL,
    HEALTH,
    MORALE,
    PP,
    RIFLES,
    SLED,
    WOOD,
)

FIELDS = (
    ("pp", PP),
    ("food", FOOD),
    ("hp", HEALTH),
    ("mor", MORALE),
    ("fuel", FUEL),
    ("dyn", DYN),
    ("wood", WOOD),
    ("rif", RIFLES),
    ("dog", DOGS),
    ("sled", SLED),
)


def row(state: object) -> str:
    pv = state.pv  # type: ignore[attr-defined]
    return " ".join(f"{k}={pv[i]}" for k, i in FIELDS)


def play(scenario: str, bot: str, seed: int, iterations: int, verbose: bool) -> dict:
    spec = get_game("iceandsnow")
    state = spec.new_game(1, seed, {"scenario": scenario})
    b = make_bot(bot, seed=seed, iterations=iterations)
    last_round = -1
    log = []
    moves = 0
    cpu = 0.0
    cpu_max = 0.0
    decisions = 0
    losses: collections.Counter = collections.Counter()
    while not state.is_over:
        if state.round != last_round and state.phase == "voyage":
            last_round = state.round
            line = f"  r{state.round:2d} {state.fleet:>6} {row(state)} miss={state.objectives_missing()}"
            log.append(line)
        t = time.process_time()
        searched = len(state.legal_actions()) > 1
        a = b.choose(state)
        if searched:  # CPU of the bot's own decisions (a forced move costs nothing)
            took = time.process_time() - t
            cpu += took
            cpu_max = max(cpu_max, took)
            decisions += 1
        if verbose and state.phase == "action":
            log.append(f"      {a}")
        for e in state.apply(a):
            if type(e).__name__ == "ScoreChanged" and e.delta < 0:
                losses[(state.round, e.reason)] += -e.delta
                log.append(f"      ! r{state.round} {e.delta:+d} PP {e.reason}")
        moves += 1
    return {
        "seed": seed,
        "won": bool(state.won),
        "round": state.round,
        "reason": state.reason,
        "missing": state.objectives_missing(),
        "log": log,
        "end": row(state),
        "moves": moves,
        "cpu_s": round(cpu, 3),
        "cpu_max_s": round(cpu_max, 3),
        "decisions": decisions,
        "pp_lost": {f"r{r} {why}": n for (r, why), n in sorted(losses.items())},
    }


BUCKETS = ((0, 4), (5, 6), (7, 8), (9, 10), (11, 99))


def table(results: list[dict]) -> str:
    """A markdown table of the games' endings: reason (shortened) by round."""

    def short(r: dict) -> str:
        if r["won"]:
            return "won"
        why = r["reason"]
        if why.startswith("objectives not met"):
            return "passage done, objectives not met"
        return why

    counts: collections.Counter = collections.Counter()
    for r in results:
        b = next(i for i, (lo, hi) in enumerate(BUCKETS) if lo <= r["round"] <= hi)
        counts[(short(r), b)] += 1
    reasons = sorted({k for k, _ in counts}, key=lambda k: -sum(counts[(k, b)] for b in range(5)))
    head = ["ending"] + [f"r{lo}–{hi}" if hi < 99 else f"r≥{lo}" for lo, hi in BUCKETS]
    lines = ["| " + " | ".join([*head, "all"]) + " |", "|" + "---|" * (len(head) + 1)]
    for k in reasons:
        row = [str(counts[(k, b)] or "") for b in range(len(BUCKETS))]
        total = sum(counts[(k, b)] for b in range(len(BUCKETS)))
        lines.append("| " + " | ".join([k, *row, str(total)]) + " |")
    return "\n".join(lines)


def summary(results: list[dict]) -> str:
    """Wins, passages done, what was missing then, and the bot's CPU per decision."""
    n = len(results)
    wins = sum(r["won"] for r in results)
    done = [r for r in results if r["won"] or r["reason"].startswith("objectives")]
    missing: collections.Counter = collections.Counter()
    for r in done:
        for m in r["missing"]:
            missing[m] += 1
    rounds = [r["round"] for r in results]
    lines = [
        f"games {n}, won {wins}, passage done {len(done)}, "
        f"mean round {sum(rounds) / max(1, n):.1f} ({min(rounds, default=0)}–{max(rounds, default=0)})",
    ]
    lines += [
        f"  missing at the passage's end: {m} ({k} of {len(done)})"
        for m, k in missing.most_common()
    ]
    dec = sum(r.get("decisions", 0) for r in results)
    if dec:
        cpu = sum(r.get("cpu_s", 0.0) for r in results)
        top = max(r.get("cpu_max_s", 0.0) for r in results)
        lines.append(
            f"  CPU per decision: mean {cpu / dec:.3f} s, max {top:.3f} s ({dec} decisions)"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("scenario")
    p.add_argument("--bot", default="greedy")
    p.add_argument("--games", type=int, default=5)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--iterations", type=int, default=100)
    p.add_argument("--quiet", action="store_true", help="only the summary")
    p.add_argument("--verbose", action="store_true", help="also every action")
    p.add_argument("--json", help="write the results here")
    p.add_argument(
        "--table",
        nargs="+",
        help="only print the endings table of these results files (chunks are merged)",
    )
    args = p.parse_args(argv)
    if args.table:
        merged: list[dict] = []
        for path in args.table:
            with open(path) as fh:
                merged += json.load(fh)
        print(table(merged))
        print()
        print(summary(merged))
        return 0
    results = []
    for g in range(args.games):
        r = play(args.scenario, args.bot, args.seed + g, args.iterations, args.verbose)
        results.append(r)
        if not args.quiet:
            print(
                f"seed {r['seed']}: {'WON' if r['won'] else 'lost'} round {r['round']}: "
                f"{r['reason']} missing={r['missing']}"
            )
            print("\n".join(r["log"]))
            print(f"  end {r['end']}")
        sys.stdout.flush()
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(results, fh, indent=1)
    wins = sum(r["won"] for r in results)
    mean_round = sum(r["round"] for r in results) / max(1, len(results))
    passage = sum(r["reason"].startswith("objectives") or r["won"] for r in results)
    print(
        f"{args.scenario} {args.bot}: {wins}/{len(results)} won, mean round {mean_round:.1f}, "
        f"{passage} reached the end of the passage"
    )
    causes = collections.Counter((r["reason"], r["round"]) for r in results if not r["won"])
    for (reason, rnd), n in sorted(causes.items(), key=lambda kv: (-kv[1], kv[0][1])):
        print(f"  {n:3d} x round {rnd}: {reason}")
    why: collections.Counter = collections.Counter()
    for r in results:
        for key, n in r["pp_lost"].items():
            why[key.split(" ", 1)[1]] += n
    print("  PP lost by reason (all games):", dict(why.most_common()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
