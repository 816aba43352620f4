"""A position estimate for Through Ice and Snow bots, in points.

``heuristic(state, seat)`` = PP now + final scoring as if the game ended now
(majorities, species on board, health/morale, investor, cartography) − the
danger of running out of food, fuel, health or morale.  It reads only public
data plus the seat's own cards.  The weights are ours and deliberately simple.
"""

from __future__ import annotations

from erebus.games.iceandsnow import scoring
from erebus.games.iceandsnow.layout import FOOD, FUEL, HEALTH, MORALE, PP, F
from erebus.games.iceandsnow.state import State

FOOD_DANGER = 0.6  # points per food missing to feed the crew one more round
FUEL_DANGER = 1.5  # points per fuel below a coastal voyage's cost
HEALTH_DANGER = 2.0  # points per health level in or next to a penalty zone
MORALE_DANGER = 1.5
LOST_PENALTY = 50.0  # everyone lost: no points are worth much
SOLO_WIN = 100.0
SOLO_OBJECTIVE = 20.0


def heuristic(state: State, seat: int) -> float:
    if state.is_over:
        if state.scenario is not None:
            return SOLO_WIN if state.won else float(state.scores()[seat]) - LOST_PENALTY
        base = float(state.scores()[seat])
        return base - LOST_PENALTY if state.lost else base
    b = F * seat
    pv = state.pv
    value = float(pv[b + PP])
    if state.scenario is not None:
        value -= SOLO_OBJECTIVE * len(state.objectives_missing())
    else:
        for s, delta, _ in scoring.final_scores(state):
            if s == seat:
                value += delta
    need = state.fed_count(seat)
    value -= FOOD_DANGER * max(0, need - pv[b + FOOD])
    value -= FUEL_DANGER * max(0, 2 - pv[b + FUEL])
    hz = [k for k, e in state.content.health.effects.items() if e]
    mz = [k for k, e in state.content.morale.effects.items() if e]
    value -= HEALTH_DANGER * max(0, max(hz, default=0) + 2 - pv[b + HEALTH])
    value -= MORALE_DANGER * max(0, max(mz, default=0) + 2 - pv[b + MORALE])
    return value
