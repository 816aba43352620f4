"""Final scoring of Through Ice and Snow (§5.2, §6.2).

Pure functions over a finished state's data; every result is a ``(seat,
delta, reason)`` triple that the state turns into ``ScoreChanged`` events,
so the log explains every point.  They read only the position's fields
(:class:`~erebus.games.iceandsnow.position.Position`), so scoring depends on
the bottom layer of the state and the state's flow on scoring, not both ways.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from erebus.games.iceandsnow.layout import (
    BADZONE,
    CABINS,
    EXPLORES,
    HEALTH,
    INUIT,
    LEADS,
    MORALE,
    SHELTERS,
    F,
)

if TYPE_CHECKING:
    from erebus.games.iceandsnow.position import Position as State


def split_majority(counts: Sequence[int], values: Sequence[int]) -> list[int]:
    """Points per player for a majority with split-and-floor ties (§5.2 (1)).

    Players with none score nothing.  A group of k tied players filling ranks
    i … i+k−1 each gets ⌊(P[i] + … + P[i+k−1]) / k⌋ (ranks past the table are
    worth 0); the next group starts at rank i+k.
    """
    out = [0] * len(counts)
    levels = sorted({c for c in counts if c > 0}, reverse=True)
    rank = 0
    for level in levels:
        group = [s for s, c in enumerate(counts) if c == level]
        k = len(group)
        pts = sum(values[rank + j] for j in range(k) if rank + j < len(values)) // k
        for s in group:
            out[s] = pts
        rank += k
    return out


def shared_award(counts: Sequence[int], award: int) -> list[int]:
    """The player(s) with the most share ``award``, rounded down (shelters, §6.2).
    Our reading: at least one shelter is needed to score."""
    top = max(counts, default=0)
    if top <= 0:
        return [0] * len(counts)
    tied = [c == top for c in counts]
    each = award // sum(tied)
    return [each if t else 0 for t in tied]


def investor_met(state: State, seat: int) -> bool:
    """Whether the seat's investor objective is met (§8.2)."""
    inv_id = state.investor[seat]
    if inv_id is None:
        return False
    inv = state.content.investors[inv_id]
    n = state.n
    p = inv.params
    need = int(p.get("n", p.get(str(n), 0)))
    b = F * seat
    pv = state.pv
    obj = inv.objective
    if obj == "never_death_or_mutiny":
        return pv[b + BADZONE] == 0
    if obj == "times_leader":
        return pv[b + LEADS] >= need
    if obj == "explores":
        return pv[b + EXPLORES] >= need
    if obj == "most_different_species":
        mine = len({state.content.species[c].species for c in state.species[seat]})
        others = [
            len({state.content.species[c].species for c in state.species[s]})
            for s in range(n)
            if s != seat
        ]
        return mine > max(others, default=0)
    if obj == "most_cabins":
        return pv[b + CABINS] > max((pv[F * s + CABINS] for s in range(n) if s != seat), default=0)
    if obj == "min_rounds":
        return len(state.dyn_anchors) >= need
    if obj == "max_rounds":
        return len(state.dyn_anchors) <= need
    if obj == "inuit":
        return pv[b + INUIT] >= need
    if obj == "different_species":
        return len(state.gained[seat]) >= need
    if obj == "cabins":
        return pv[b + CABINS] >= need
    if obj == "mapped_regions":
        return len(state.mapped) >= need
    return False


def final_scores(state: State) -> list[tuple[int, int, str]]:
    """The end-of-game deltas in the order of §5.2."""
    c = state.content
    r = state.rules
    n = state.n
    pv = state.pv
    out: list[tuple[int, int, str]] = []
    counts = [len(state.species[s]) for s in range(n)]
    for s, pts in enumerate(split_majority(counts, r["species_majority"])):
        if pts:
            out.append((s, pts, "species majority"))
    for s in range(n):
        pts = sum(c.species[x].pp for x in state.species[s])
        if pts:
            out.append((s, pts, "species cards"))
    cabins = [pv[F * s + CABINS] for s in range(n)]
    for s, pts in enumerate(split_majority(cabins, r["cabins_majority"])):
        if pts:
            out.append((s, pts, "cabin majority"))
    for s in range(n):
        h = c.health.end_pp[pv[F * s + HEALTH]]
        m = c.morale.end_pp[pv[F * s + MORALE]]
        if h:
            out.append((s, h, "health"))
        if m:
            out.append((s, m, "morale"))
    for s in range(n):
        inv = state.investor[s]
        if inv is not None and investor_met(state, s):
            out.append((s, c.investors[inv].reward, f"investor {c.investors[inv].name}"))
    for s in range(n):
        cid = state.carto[s]
        if cid is None:
            continue
        k = sum(1 for reg in c.cartography[cid].regions if reg in state.mapped)
        if k:
            out.append((s, k * int(r["cartography_pp"]), "cartography"))
    if state.mode("shelters"):
        shelters = [pv[F * s + SHELTERS] for s in range(n)]
        for s, pts in enumerate(shared_award(shelters, int(r["shelter_majority"]))):
            if pts:
                out.append((s, pts, "shelter majority"))
    out += guilt_penalties(state)
    return out


def guilt_penalties(state: State) -> list[tuple[int, int, str]]:
    """Walking on Ice (§9.1): after abandoning the ships each player loses guilt ×
    the modifier on the final anchor where the sled token stands, after the rest
    of the final scoring."""
    if not state.abandoned:
        return []
    modifier = state.tables.anchors[state.fleet].guilt or 0
    out: list[tuple[int, int, str]] = []
    for s in range(state.n):
        if state.guilt[s] and modifier:
            out.append((s, -state.guilt[s] * modifier, f"guilt {state.guilt[s]} × {modifier}"))
    return out
