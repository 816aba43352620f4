"""Final scoring of Expedition: Northwest Passage (rules §8.1).

Pure functions over a finished state's public tables; every result is a
``(seat, delta, reason)`` triple that the state turns into ``ScoreChanged``
events, so the log explains every point.
"""

from __future__ import annotations

from collections.abc import Sequence

from erebus.games.northwest.content_types import ALL_TOKEN_KINDS, RulesDef
from erebus.games.northwest.layout import (
    CREW_FIELDS,
    NORTHWEST,
    SHIP,
    SHIP_AV,
    SHIP_REST,
    SLED,
    SLED_AV,
    SLED_REST,
)


def majority_points(counts: Sequence[int], values: Sequence[int]) -> list[int]:
    """Points per player for one majority (§8.1.1).

    Players with none score nothing.  Tied players occupy as many places as
    they are and all take the lowest of them: two tied for first both score
    the second-place value and the next player scores the third.
    """
    out = []
    for c in counts:
        if c <= 0:
            out.append(0)
            continue
        better = sum(1 for o in counts if o > c)
        tied = sum(1 for o in counts if o == c)
        place = better + tied  # 1-based lowest place of the tie group
        out.append(values[place - 1] if place <= len(values) else 0)
    return out


def set_points(counts: Sequence[int], per_set: int) -> int:
    """One set is one token of each of the five kinds (§8.1.2)."""
    return min(counts) * per_set


def token_awards(ptok: Sequence[int], players: int, rules: RulesDef) -> list[tuple[int, int, str]]:
    """Majority and set points for the tokens held (§8.1.1–2), as (seat, delta, reason).

    ``ptok`` is the state's flat token table: ``len(ALL_TOKEN_KINDS)`` counts per seat.
    """
    kinds = len(ALL_TOKEN_KINDS)
    out: list[tuple[int, int, str]] = []
    for kind, values in rules.majorities.items():
        k = ALL_TOKEN_KINDS.index(kind)
        counts = [ptok[kinds * s + k] for s in range(players)]
        for seat, pts in enumerate(majority_points(counts, values)):
            if pts:
                out.append((seat, pts, f"{kind} majority"))
    for seat in range(players):
        held = ptok[kinds * seat : kinds * seat + kinds]
        pts = set_points(held, rules.set_points)
        if pts:
            out.append((seat, pts, f"{min(held)} sets"))
    return out


def final_scores(
    ptok: Sequence[int],
    crews: Sequence[int],
    loc: Sequence[int],
    players: int,
    rules: RulesDef,
) -> list[tuple[int, int, str]]:
    """The end-of-game deltas: majorities, sets, abandonment (§8.1).

    Takes the state's flat tables (tokens, crew blocks, vehicle locations; see
    :mod:`erebus.games.northwest.layout`) rather than the state itself, so that
    scoring stays below the state module that calls it.
    """
    out = token_awards(ptok, players, rules)
    for seat in range(players):
        b = CREW_FIELDS * seat
        ship = loc[2 * seat + SHIP]
        sled = loc[2 * seat + SLED]
        if ship >= 0 or ship == NORTHWEST:
            crew = crews[b + SHIP_AV] + crews[b + SHIP_REST]
            out.append(
                (
                    seat,
                    crew * rules.abandon_per_crewman + rules.abandon_ship,
                    f"ship abandoned with {crew} crew",
                )
            )
        if sled >= 0 or sled == NORTHWEST:
            crew = crews[b + SLED_AV] + crews[b + SLED_REST]
            if crew:
                out.append(
                    (seat, crew * rules.abandon_per_crewman, f"sled abandoned with {crew} crew")
                )
    return out
