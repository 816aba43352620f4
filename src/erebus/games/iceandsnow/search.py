"""What the hard bot (MCTS) values in Through Ice and Snow: ``GameSpec.search_heuristic``.
The medium (greedy) bot keeps :func:`.heuristics.heuristic`, so its play (and the
goldens) are unchanged.

Multiplayer: the heuristic itself.  A value relative to the best rival (own − w × rival, the shared risk counted
once, finished games on the same scale) was measured and rejected: against greedy it
won 28.5 of 40 games where the plain value won 34 (w = 0.6), 25 of 40 against 25
(w = 0.25) and 23 of 40 against 30 (w = 0.3, reward scale 15) — the rival's estimate
in a sampled world carries the rival's hidden cards, and denying points is worth less
here than taking them; the rival's majorities alone, counted against the seat at half
weight, lost too (63.0 % of 200 games against 68.8 %; docs/iceandsnow-balance.md,
2026-12-02 b; the term is in the history at commit 644653d).

Solo: the heuristic plus :func:`objective_plan`, the objectives as a search can see
them within a few actions.  Every objective is needed for the win, so each missing
one costs ``SOLO_OBJECTIVE + SEARCH_OBJECTIVE`` here (the one-ply bot prices it lower
and trades it for food); an objective that can no longer be met (Lost Expedition:
the survivors found before the cabin; Amundsen: Gjøa Haven's round passed) makes the
game unwinnable; in the Magnetic North Pole's pole round, the Explore and the cabin
it asks for are rewarded before the Boarding checks them.
"""

from __future__ import annotations

from erebus.games.iceandsnow import heuristics
from erebus.games.iceandsnow.state import State

SEARCH_OBJECTIVE = 20.0  # solo: per objective still missing, on top of the heuristic's
UNWINNABLE = 150.0  # solo: an objective can no longer be met (still above a lost game)
POLE_PART = 12.0  # Magnetic North Pole: the pole round's Explore, and its cabin


def value(state: State, seat: int) -> float:
    """The search's estimate of ``state`` for ``seat``."""
    own = heuristics.heuristic(state, seat)
    if state.is_over or state.scenario is None:
        return own
    return own + objective_plan(state, seat)


def objective_plan(state: State, seat: int) -> float:
    """Solo: the search's extra price of the scenario's objectives (see the module)."""
    value = -SEARCH_OBJECTIVE * len(state.objectives_missing())
    scen = state.scenario
    if scen == "lost-expedition":
        # The cabin counts only when built before the survivors are found (§7.1).
        if state.le_found and not state.le_cabin:
            value -= UNWINNABLE
    elif scen == "amundsens-voyage":
        haven = int(getattr(state, "am_haven", 0))
        if haven and haven < state.round and not getattr(state, "am_founded", False):
            value -= UNWINNABLE
    elif scen == "magnetic-north-pole" and not state.pole_found and state.pole_dir is not None:
        req = state.scen().get("requirements", {}).get(state.pole_dir, {})
        if state.mnp_explore >= int(req.get("explore", 0)):
            value += POLE_PART
        if state.mnp_cabin >= int(req.get("cabin_food", 0)):
            value += POLE_PART
    return value
