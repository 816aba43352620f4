"""The browser's decisions of the Mysterious Epidemic solo scenario (§9.4): the
set-up's free upgrade tile (``choose_upgrade``), the 2 crew who fall ill
(``fall_ill``) and the treatments — free actions of the Action phase (``treat``),
listed apart like Walking on Ice's (``decision.treat``) so that the board's count
of ``take`` actions and the pass button stay right.  See docs/iceandsnow-wire.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from erebus.games.iceandsnow.actions import Action

if TYPE_CHECKING:
    from erebus.games.iceandsnow.state import State

FREE_ACTIONS = ("treat",)


def _crew(c: tuple[int, ...] | None) -> dict[str, int]:
    kinds = ("captain", "carpenter", "scientist", "sailors", "inuit")
    return dict(zip(kinds, c or (0,) * 5, strict=True))


def choose_upgrade(st: State, out: dict[str, Any], legal: list[Action]) -> None:
    """Each tile in play, with its name and the seed's recommendation (1, 4, 5)."""
    rec = st.scen().get("free_upgrade", {}).get("recommended", [])
    out["options"] = [
        {
            "action": a.to_json(),
            "tile": a.tile,
            "name": st.content.upgrades[int(a.tile or 0)].name,
            "recommended": a.tile in rec,
        }
        for a in legal
    ]
    out["missing"] = []


def fall_ill(st: State, out: dict[str, Any], legal: list[Action]) -> None:
    """The disease card drawn and each choice of 2 crew (never an Inuk)."""
    card = str(st.decisions[0][2])
    disease = {d["id"]: d for d in st.scen()["diseases"]}[card]
    out["card"] = card
    out["officer"] = disease["officer"]
    out["options"] = [{"action": a.to_json(), "crew": _crew(a.crew)} for a in legal]
    out["missing"] = []


def free_actions(st: State, out: dict[str, Any], legal: list[Action]) -> list[Action]:
    """The Action phase: the treatments go to ``out["treat"]``; the rest is returned."""
    if st.scenario != "mysterious-epidemic":
        return legal
    cards = {t["id"]: t for t in st.scen()["treatments"]}
    treat = []
    rest = []
    for a in legal:
        if a.kind == "treat":
            req = cards[str(a.card)][f"heal_{a.tile}"]
            treat.append(
                {
                    "action": a.to_json(),
                    "card": a.card,
                    "name": cards[str(a.card)]["name"],
                    "heal": a.tile,
                    "requirement": req,
                    "crew": _crew(a.crew),
                }
            )
        else:
            rest.append(a)
    out["treat"] = treat
    return rest


DETAILS = {"choose_upgrade": choose_upgrade, "fall_ill": fall_ill}
