"""The wire view's ``legends`` key (Legendary Expeditions, §9.3): who leads which
expedition, what each seat holds of the module, what the browser needs to say so.

Only public facts: the kept explorers (face up beside their boards), the kept
explorer events, event 51's set-aside sailor and the upgrade spaces George Back
chose.  The dealt pairs are in the ``explorer`` decision of their own seat only
(:mod:`.wire_decisions`); the box is never shown.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from erebus.games.iceandsnow import legends

if TYPE_CHECKING:
    from erebus.games.iceandsnow.state import State


def legends_fields(st: State) -> dict[str, Any]:
    """``{"legends": {...}}`` in a game with the module, else ``{}``."""
    if not st.module(legends.MODULE) or not st.explorer:
        return {}
    seats = []
    for s in range(st.n):
        k = st.explorer[s]
        seats.append(
            {
                "seat": s,
                "set": legends.summary(k) if k else None,
                "choosing": bool(st.ex_dealt[s]),
                "kept_events": [st.tables.powers[p][0] for p in st.ex_held[s]],
                "upgrade_spaces": legends.free_spaces(st, s) if legends.any_space(st, s) else None,
            }
        )
    return {"legends": {"seats": seats, "sailor_aside": st.ex_sailor}}
