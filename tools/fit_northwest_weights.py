#!/usr/bin/env python3
"""Fit the weights of Northwest Passage's search evaluator from self-play games.

The hard bot values positions by ``points now + weights · features``
(:mod:`erebus.games.northwest.evaluator`).  This command plays seeded games of
the hard bot against the medium one (2 and 4 players), records for sampled
positions every seat's features and the points it still scored after that
position (final score minus points now), and solves the least-squares problem
for the weights, pulled gently toward the hand-set weights (the file's ``prior``) (ridge, ``--ridge``)
so that a feature the games rarely exercise keeps a sensible value; three terms
(``HELD``: two shaping terms and the expected abandonment loss) keep their hand-set
weights.  By default only
the hard bot's own positions are fitted (``--rows hard``): the evaluator should say
what the hard bot will still score from a position::

    PYTHONPATH=src python tools/fit_northwest_weights.py                 # play, fit, write both files
    PYTHONPATH=src python tools/fit_northwest_weights.py --refit         # fit the stored data again
    PYTHONPATH=src python tools/fit_northwest_weights.py --games 40 --iterations 200

It writes ``src/erebus/games/northwest/data/bot/evaluator_data.json`` (the samples)
and ``data/bot/evaluator.json`` (the weights, with how they were fitted).  The
games use their own seeds (``derive_seed("fit", seed, i)``), not a tournament's,
so a tournament measures the bot on games it was not fitted on.  Run it under
``nice -n 19``: the default (48 games, 300 iterations) takes about 5 CPU minutes.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from erebus.bots import make_bot
from erebus.games.northwest import evaluator, new_game
from erebus.tournament.seating import derive_seed

DATA = Path(__file__).resolve().parent.parent / "src/erebus/games/northwest/data/bot"
SAMPLES = DATA / "evaluator_data.json"
WEIGHTS = DATA / "evaluator.json"
#: Weights held at their hand-set value, not fitted.  The search looks one turn ahead
#: and maximises the evaluator over its own actions, so the terms its actions move
#: step by step are *shaping* and *prices*, not predictions: the route's cost and the
#: way home (``nw_route``, ``homeward``) give it a gradient toward the passage and then
#: home, and ``token_near`` toward a token; the crew and the tiles in hand
#: (``crew_available``, ``reserve_*``) price what an action spends; ``nw_open`` must stay below the token it stands for, or reaching
#: the passage would look like a loss; ``home_risk`` is an expected rule penalty in
#: points (weight −1 by its meaning).  Fitted freely (``--free-all``), they come out
#: wrong for a search: near 0 for the route (the data's policy crosses anyway, so the
#: points still to come barely depend on where on the route a position is), positive
#: for the risk of not getting home (being far out goes with exploring, which pays), a
#: crewman dearer than a step of route, ``nw_open`` above 12 — and a 12-game check
#: with such weights won 67 % instead of 83 % and crossed half as often.  Fitted
#: with the free weights, ``token_near`` rose from 0.5 to 0.86 and the ship left its
#: route for tokens: 8 % of expeditions crossed instead of 33 % (same 12 games).
HELD = (
    "nw_open",
    "nw_route",
    "homeward",
    "home_risk",
    "crew_available",
    "reserve_spare",
    "reserve_used",
    "token_near",
)


def play(
    players: int, seed: int, iterations: int, hard_seat: int, every: int
) -> list[dict[str, Any]]:
    """One game, hard at ``hard_seat`` and medium elsewhere: the sampled rows."""
    state = new_game(players, seed=seed)
    bots = [
        make_bot(
            "hard" if s == hard_seat else "medium",
            seed=derive_seed("fitbot", seed, s),
            iterations=iterations,
        )
        for s in range(players)
    ]
    pending: list[tuple[int, list[float], float, str]] = []
    step = 0
    while not state.is_over:
        if state.round >= 1 and step % every == 0:
            for s in range(players):
                if not state.ret_order[s]:
                    role = "hard" if s == hard_seat else "medium"
                    pending.append(
                        (s, evaluator.features(state, s), evaluator.points_now(state, s), role)
                    )
        seat = state.current_player
        state.apply(bots[seat].choose(state))
        step += 1
    final = state.scores()
    return [
        {"f": [round(x, 4) for x in f], "y": round(final[s] - now, 4), "bot": role, "n": players}
        for s, f, now, role in pending
    ]


def collect(games: int, seed: int, iterations: int, every: int) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    t0 = time.perf_counter()
    for i in range(games):
        players = 2 if i % 2 == 0 else 4
        game_seed = derive_seed("fit", seed, i)
        rows += play(players, game_seed, iterations, hard_seat=i % players, every=every)
        print(
            f"game {i + 1}/{games} ({players}p): {len(rows)} samples, "
            f"{time.perf_counter() - t0:.0f} s",
            file=sys.stderr,
        )
    return rows


def fit(
    rows: list[dict[str, Any]],
    prior: list[float],
    ridge: float,
    held: Sequence[int] = (),
) -> tuple[list[float], float]:
    """Least squares ``X w ≈ y`` with ``ridge · n · |w - prior|²`` added; (w, R²).

    The features at the indices ``held`` keep their prior weight (their part of
    ``y`` is taken out first) and the others are fitted."""
    x = np.array([r["f"] for r in rows], dtype=float)
    y = np.array([r["y"] for r in rows], dtype=float)
    n, k = x.shape
    w0 = np.array(prior, dtype=float)
    free = [i for i in range(k) if i not in set(held)]
    fixed = [i for i in range(k) if i in set(held)]
    target = y - x[:, fixed] @ w0[fixed] if fixed else y
    xf = x[:, free]
    scale = np.sqrt((xf**2).mean(axis=0)) + 1e-9  # ridge in units of each feature's size
    lam = ridge * n * np.diag(scale**2)
    wf = np.linalg.solve(xf.T @ xf + lam, xf.T @ target + lam @ w0[free])
    w = w0.copy()
    w[free] = wf
    resid = y - x @ w
    r2 = 1.0 - float(resid @ resid) / float(((y - y.mean()) ** 2).sum() or 1.0)
    return [float(v) for v in w], r2


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=48)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--iterations", type=int, default=300)
    ap.add_argument("--every", type=int, default=6, help="sample every Nth decision")
    ap.add_argument("--ridge", type=float, default=0.02)
    ap.add_argument("--refit", action="store_true", help="fit the stored samples again")
    ap.add_argument("--free-all", action="store_true", help="fit every weight (see HELD)")
    ap.add_argument(
        "--rows",
        choices=("hard", "all"),
        default="hard",
        help="fit on the hard bot's own positions (its policy's values) or on every seat's",
    )
    args = ap.parse_args(argv)

    current = json.loads(WEIGHTS.read_text(encoding="utf-8"))
    # The ridge's centre: the hand-set weights kept in the file ("prior"), the same
    # for every refit (the first time, the weights in use).
    hand = current.get("prior") or current["weights"]
    prior = [float(hand[f]) for f in evaluator.FEATURES]
    if args.refit:
        stored = json.loads(SAMPLES.read_text(encoding="utf-8"))
        if stored["features"] != list(evaluator.FEATURES):
            raise SystemExit("stored samples have other features: play new games")
        rows = stored["rows"]
        made = stored["made"]
    else:
        rows = collect(args.games, args.seed, args.iterations, args.every)
        made = {
            "games": args.games,
            "seed": args.seed,
            "iterations": args.iterations,
            "every": args.every,
            "with_weights": dict(current["weights"]),
        }
        SAMPLES.write_text(
            json.dumps(
                {"format": 1, "features": list(evaluator.FEATURES), "made": made, "rows": rows},
                separators=(",", ":"),
            )
            + "\n",
            encoding="utf-8",
        )
    used = [r for r in rows if args.rows == "all" or r["bot"] == args.rows]
    held = [] if args.free_all else [evaluator.FEATURES.index(f) for f in HELD]
    w, r2 = fit(used, prior, args.ridge, held)
    out = {
        "format": 1,
        "about": (
            "Weights of the hard bot's evaluator (erebus.games.northwest.evaluator), fitted "
            "by tools/fit_northwest_weights.py on data/bot/evaluator_data.json."
        ),
        "prior": dict(zip(evaluator.FEATURES, prior, strict=True)),
        "fit": {
            "samples": len(rows),
            "rows": args.rows,
            "rows_used": len(used),
            "held": [] if args.free_all else list(HELD),
            "ridge": args.ridge,
            "r2": round(r2, 4),
            **made,
        },
        "weights": {f: round(v, 4) for f, v in zip(evaluator.FEATURES, w, strict=True)},
    }
    WEIGHTS.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
    for f, v0, v in zip(evaluator.FEATURES, prior, w, strict=True):
        print(f"{f:16s} {v0:8.3f} -> {v:8.3f}")
    print(f"{len(used)} of {len(rows)} samples, R² {r2:.3f}; written to {WEIGHTS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
