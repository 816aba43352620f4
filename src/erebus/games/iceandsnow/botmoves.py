"""The actions a searching bot considers in Through Ice and Snow.

A ``take`` comes in many crew compositions that do the same thing (Ice
Fishing with 2 sailors or with the scientist and a sailor; a Hunt with the
captain or the carpenter as the second pawn).  For search they are near
duplicates that multiply the branching factor by five to twenty, so
``bot_actions`` keeps, for every distinct effect and crew *size*, the
composition that spends the fewest officers (then the fewest Inuit): officers
are the scarce pawns that unlock other spaces.  Build a Cabin's odd food
amounts are dropped too (they give the same PP as one food less).  The
engine's ``legal_actions()`` is untouched: people and the random bot still
see every choice.
"""

from __future__ import annotations

from erebus.games.iceandsnow.actions import Action

#: Cost of placing one pawn of each kind (captain, carpenter, scientist, sailors, inuit).
PAWN_COST = (12, 10, 11, 1, 2)
SOLO_CABIN_FOOD = 8  # the highest food threshold of a solo objective or treatment


def _cost(crew: tuple[int, ...]) -> int:
    return sum(c * w for c, w in zip(crew, PAWN_COST, strict=True))


def bot_actions(state: object) -> list[Action]:
    """A subset of ``state.legal_actions()`` (same order) without dominated variants."""
    legal: list[Action] = state.legal_actions()  # type: ignore[attr-defined]
    best: dict[tuple[object, ...], tuple[int, int]] = {}  # key -> (cost, index)
    keep = [True] * len(legal)
    # Solo gains no PP (§7.0): food lowered for a cabin only counts towards an
    # objective's threshold (4, a treatment's 3–8, Gjøa Haven's crew count).
    solo = getattr(state, "scenario", None) is not None
    cabin_cap = max(SOLO_CABIN_FOOD, state.crew_count(0) + 1) if solo else 1 << 30  # type: ignore[attr-defined]
    for i, a in enumerate(legal):
        if a.kind != "take" or a.crew is None:
            continue
        if a.space == "build_cabin" and a.food is not None and (a.food % 2 or a.food > cabin_cap):
            keep[i] = False
            continue
        key = (a.space, a.card, a.tile, a.food, a.resource, a.take, a.deposit, sum(a.crew), a.slot)
        cost = _cost(a.crew)
        seen = best.get(key)
        if seen is None:
            best[key] = (cost, i)
        elif cost < seen[0]:
            keep[seen[1]] = False
            best[key] = (cost, i)
        else:
            keep[i] = False
    return [a for a, k in zip(legal, keep, strict=True) if k]
