"""Merge the JSON records of several ``erebus tournament --out`` runs (chunks of one
tournament with different ``--seed``) into one table: wins per bot with a 95 % Wilson
interval, games the whole table lost, rounds, and (solo) the rounds at which games end.

    python tools/merge_tournaments.py solo-lost-expedition-s*.json

Long tournaments on a shared machine run in chunks so that a chunk that finishes
counts even when a later one does not; every game stays reproducible from its seed.
"""

from __future__ import annotations

import argparse
import collections
import json
import math


def wilson(k: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    c = p + z * z / (2 * n)
    r = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (max(0.0, (c - r) / d), min(1.0, (c + r) / d))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("files", nargs="+")
    args = p.parse_args(argv)
    games = []
    for f in args.files:
        with open(f) as fh:
            games += json.load(fh)["games"]
    n = len(games)
    wins: collections.Counter = collections.Counter()
    seats: collections.Counter = collections.Counter()
    for g in games:
        for s, bot in enumerate(g["seats"]):
            seats[bot] += 1
            if s in g["winners"]:
                wins[bot] += 1 / len(g["winners"])
    lost = sum(bool(g.get("everyone_lost")) for g in games)
    rounds = [g["rounds"] for g in games if g.get("rounds") is not None]
    print(f"{n} games from {len(args.files)} file(s)")
    for bot in sorted(seats):
        # per game: a bot's win share counts each game once (two-seat tables: one each)
        k = wins[bot]
        per = seats[bot]
        lo, hi = wilson(k, per)
        print(
            f"  {bot}: {k:g} wins of {per} seats = {100 * k / per:.1f} % (CI {100 * lo:.1f}–{100 * hi:.1f})"
        )
    print(f"  whole table lost: {lost} ({100 * lost / max(1, n):.1f} %)")
    if rounds:
        hist = collections.Counter(rounds)
        print(
            f"  rounds: mean {sum(rounds) / len(rounds):.1f}, "
            + ", ".join(f"r{r}: {hist[r]}" for r in sorted(hist))
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
