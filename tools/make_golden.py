#!/usr/bin/env python3
"""Regenerate the golden playthroughs of Northwest Passage in ``tests/golden/``.

A golden file records one whole game played by a seeded policy: the actions
(wire JSON), the number of legal actions before each of them, the final scores
and ranking, and a fingerprint of the content data it was made with.
``tests/northwest/test_golden.py`` replays every file and checks all of it, so any change
to the rules engine or to the data files that changes play shows up as a diff.

Regenerate only when a change of rules or data is intended, then review the
diff of ``tests/golden/`` like code::

    .venv/bin/python tools/make_golden.py            # rewrite tests/golden/*.json
    .venv/bin/python tools/make_golden.py --check    # exit 1 if a file would change

The policy (:func:`choose`) is a pure function of ``random.Random(policy_seed)``,
the public state and the list of legal actions: mostly the best action by a
simple score (take tokens, head for the Northwest Passage, then home), sometimes
a random one; ``pass`` is rare, so games go on to the last round.  The seeds
were picked for games that place many tiles, fill holes, complete islands, lose
sleds and reach the Northwest Passage; after a data change they may be less
eventful: the summary printed for each file (and its ``event_counts``) shows it.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from golden_files import render_record, write_goldens  # tools/, next to this script

from erebus.core.fingerprint import data_fingerprint
from erebus.games import northwest as game
from erebus.games.northwest.actions import Action
from erebus.games.northwest.state import State

GOLDEN_DIR = Path(__file__).resolve().parent.parent / "tests" / "golden"

# name -> (players, game seed, policy seed, chance of ending a turn after an action,
#          chance of a random rather than a greedy action)
GAMES: dict[str, tuple[int, int, int, float, float]] = {
    "northwest-2p": (2, 1842, 2, 0.5, 0.3),
    "northwest-3p": (3, 1844, 4, 0.5, 0.3),
    "northwest-4p": (4, 1849, 9, 0.5, 0.3),
    "northwest-4p-long": (4, 1847, 7, 0.8, 0.2),
}

KIND_WEIGHT = {
    "draft": 1.0,
    "draw": 3.0,
    "refresh": 0.2,
    "place": 5.0,
    "move": 6.0,
    "transfer": 0.7,
    "explore": 10.0,
    "discover": 10.0,
}
PASS_CHANCE = 0.01
# Events worth seeing in the summary: the parts of the rules a game exercises.
NOTABLE = (
    "TilePlaced",
    "HoleFilled",
    "IslandCompleted",
    "TokenTaken",
    "SledLost",
    "ReachedNorthwest",
    "ReturnedToGreenland",
)


def _xy(where: Any) -> tuple[int, int]:
    """A location's square; the arrows lie just off the east and west edges."""
    if isinstance(where, tuple | list):
        return int(where[0]), int(where[1])
    return {"greenland": (14, 3), "northwest": (-1, 4)}.get(where, (7, 4))


def _score(state: State, seat: int, a: Action, home: bool) -> float:
    """How much the policy likes ``a``: tokens, arrows, then progress on the way."""
    if a.kind in ("explore", "discover"):
        return 100.0
    if a.kind == "move" and isinstance(a.to, str):
        return 200.0 if a.to == ("greenland" if home else "northwest") else 0.5
    if a.kind in ("move", "place"):
        hx, _ = _xy(state.position(seat, a.vehicle or "ship"))
        tx, ty = _xy(a.to if a.kind == "move" else (a.x, a.y))
        progress = (tx - hx) if home else (hx - tx)
        return (20.0 if a.kind == "move" else 25.0) + 8.0 * progress - 3.0 * abs(ty - 5)
    if a.kind in ("draw", "draft"):
        return {0: 60.0, 1: 10.0}.get(len(state.reserve(seat)), 1.0)
    if a.kind == "transfer":
        return 4.0
    return 1.0


def choose(
    rng: random.Random, state: State, legal: list[Action], end_bias: float, explore: float
) -> Action:
    """The policy: a function of ``rng``, the public state and ``legal`` only.

    Pass is rare and end_turn comes with chance ``end_bias`` after an action.
    Otherwise, with chance ``explore`` an action kind is picked by weight and
    then an action of it; else the action with the best :func:`_score` plus a
    little noise: take tokens, head for the Northwest Passage along the rarely
    frozen southern rows and, once there, for home."""
    acts = [a for a in legal if a.kind not in ("pass", "end_turn")]
    stops = [a for a in legal if a.kind in ("pass", "end_turn")]
    r = rng.random()
    if not acts or (stops and r < PASS_CHANCE):
        return rng.choice(stops)
    ends = [a for a in stops if a.kind == "end_turn"]
    if ends and r < PASS_CHANCE + end_bias:
        return ends[0]
    seat = state.current_player
    assert seat is not None
    if rng.random() < explore:
        kinds = sorted({a.kind for a in acts})
        kind = rng.choices(kinds, weights=[KIND_WEIGHT.get(k, 1.0) for k in kinds])[0]
        return rng.choice([a for a in acts if a.kind == kind])
    home = bool(state.nw_reached[seat])
    scored = [(_score(state, seat, a, home) + 6.0 * rng.random(), i) for i, a in enumerate(acts)]
    return acts[max(scored)[1]]


def play(
    players: int, seed: int, policy_seed: int, end_bias: float, explore: float
) -> dict[str, Any]:
    state = game.new_game(players, seed)
    rng = random.Random(policy_seed)
    actions: list[dict[str, Any]] = []
    legal_counts: list[int] = []
    events: Counter[str] = Counter()
    while not state.is_over:
        legal = state.legal_actions()
        a = choose(rng, state, legal, end_bias, explore)
        actions.append(a.to_json())
        legal_counts.append(len(legal))
        events.update(type(e).__name__ for e in state.apply(a))
    return {
        "game": "northwest",
        "players": players,
        "seed": seed,
        "policy_seed": policy_seed,
        "end_bias": end_bias,
        "explore": explore,
        "content_sha256": data_fingerprint("erebus.games.northwest"),
        "rounds": state.round,
        "returned": [state.returned(s) for s in range(players)],
        "scores": state.scores(),
        "ranking": state.ranking(),
        "event_counts": dict(sorted(events.items())),
        "legal_counts": legal_counts,
        "actions": actions,
    }


def main(argv: list[str] | None = None) -> int:
    def records() -> Iterator[tuple[str, str, str]]:
        for name, (players, seed, policy_seed, end_bias, explore) in GAMES.items():
            record = play(players, seed, policy_seed, end_bias, explore)
            ev = record["event_counts"]
            yield (
                name,
                render_record(record, per_line="actions"),
                f"{players} players, {len(record['actions'])} actions, "
                f"round {record['rounds']}, scores {record['scores']}; "
                + ", ".join(f"{k} {ev.get(k, 0)}" for k in NOTABLE),
            )

    return write_goldens(__doc__.splitlines()[0], GOLDEN_DIR, records, argv)


if __name__ == "__main__":
    sys.exit(main())
