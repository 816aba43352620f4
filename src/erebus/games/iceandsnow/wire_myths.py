"""Inuit Myths in the wire view: the ``myths`` field (present only when the module is on).

Everything here is public on the table: where the creature token stands, the
creature cards face up (in play and in the box) with who took their action, the
size of the face-down creature deck (never its order), each seat's curse cylinder
and the Inuit held on a card, and which action-board spaces carry a creature's
extra requirement — for the viewing seat, since a Ritual Room spares its owner.
Whether the viewing seat may take a card's action now is read off the engine's
legal actions (so the board and the engine never disagree).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from erebus.games.iceandsnow.myths import CREATURE_SPACE, MODULE, curse_space, names_officer

if TYPE_CHECKING:
    from erebus.games.iceandsnow.actions import Action
    from erebus.games.iceandsnow.content import Content
    from erebus.games.iceandsnow.state import State


def myths_on(st: State) -> bool:
    """Is the Inuit Myths module in this game?"""
    return MODULE in st.options.get("modules", ())


def myths_fields(st: State, seat: int | None, legal: list[Action] | None) -> dict[str, Any]:
    """``{"myths": {...}}`` for the wire view, or nothing at all without the module
    (the base game's view keeps its exact fields)."""
    if not myths_on(st):
        return {}
    return {"myths": myths_view(st, seat, legal)}


def _warded(st: State, seat: int, num: int) -> bool:
    card = st.content.creatures[num]
    return any(u in st.upgrades[seat] for u in card.warded_by)


def myths_view(st: State, seat: int | None, legal: list[Action] | None) -> dict[str, Any]:
    """The module's public state as named fields (docs/iceandsnow-wire.md, ``myths``)."""
    cards = st.content.creatures
    takes = [a for a in legal or () if a.kind == "take" and a.space == CREATURE_SPACE]
    in_play = []
    for num in st.cr_active:
        card = cards[num]
        entry: dict[str, Any] = {
            "number": num,
            "name": card.name,
            "lasts": card.lasts,
            "takers": [s for n, s in st.cr_takers if n == num],
            "action": None,
            "extra": None,
        }
        if card.action is not None:
            entry["action"] = {
                "name": card.action.name,
                "crew": list(card.action.crew),
                "can_take": any(a.card == str(num) for a in takes) if legal is not None else None,
            }
        if card.extra is not None:
            x = card.extra
            spaces = (
                [sp.id for sp in st.content.spaces.values() if names_officer(st, sp, x.officer)]
                if x.officer is not None
                else None  # every action taken with at most crew_at_most crew
            )
            entry["extra"] = {
                "officer": x.officer,
                "crew_at_most": x.crew_at_most,
                "cost": x.cost,
                "params": dict(x.params),
                "spaces": spaces,
                "warded_seats": [s for s in range(st.n) if _warded(st, s, num)],
            }
        in_play.append(entry)
    return {
        "creature_at": st.creature_at,
        "in_play": in_play,
        "box": st.cr_box[:],
        "deck": len(st.cr_deck),
        "seats": [
            {
                "seat": s,
                "cursed": bool(st.curse[s]),
                "curse_space": curse_space(st, s),
                "held_inuit": st.held_inuit[s],
                "ritual_room": any(_warded(st, s, n) for n in cards if cards[n].warded_by),
            }
            for s in range(st.n)
        ],
        "extra_spaces": _extra_spaces(st, seat, in_play),
    }


def creature_on(st: State, seat: int, sid: str) -> bool:
    """Does a creature in play add a requirement to space ``sid`` for ``seat``
    (the reason a space whose own checks pass is refused)?"""
    if not st.cr_active:
        return False
    cards = st.content.creatures
    sp = st.content.spaces.get(sid)
    for num in st.cr_active:
        x = cards[num].extra
        if x is None or _warded(st, seat, num):
            continue
        if x.officer is None or (sp is not None and names_officer(st, sp, x.officer)):
            return True
    return False


def _extra_spaces(
    st: State, seat: int | None, in_play: list[dict[str, Any]]
) -> dict[str, list[int]]:
    """Space id → the creature cards whose extra requirement applies there, for
    ``seat`` (a spectator: for a seat without a Ritual Room); the ``crew_at_most``
    card (any space) is listed under ``"*"``."""
    out: dict[str, list[int]] = {}
    for e in in_play:
        x = e["extra"]
        if x is None or (seat is not None and seat in x["warded_seats"]):
            continue
        for sid in x["spaces"] if x["spaces"] is not None else ["*"]:
            out.setdefault(sid, []).append(e["number"])
    return out


#: What each creature card does, in a line (seed 001 l. 1160–1209), by card number.
CREATURE_TEXTS = {
    37: "every player's Inuit go on this card (and any Inuk received while it is in play): "
    "no actions, not fed",
    38: "every player takes a curse cylinder, one space right of health: it triggers Scurvy "
    "and Death",
    39: "actions that need 1 carpenter need 1 more crew (not counted for the effect)",
    40: "actions that need 1 captain: pay 1 extra dynamite, or own 5 rifles",
    41: "actions that need 1 captain: lower your food by 4",
    42: "actions that need 1 scientist: pay 1 extra resource of your choice",
    43: "actions that need 1 scientist: lower health by 1 (Death applies, Scurvy does not)",
    44: "actions taken with only 1 or 2 crew: lower morale by 1 (Death applies, Mutiny does not)",
}
#: The card's own action, in a line.
CREATURE_ACTION_TEXTS = {
    "release_inuit": "the crew used and every Inuk on the card go to their owners' infirmaries",
    "lift_curse": "your curse cylinder goes back to the box",
}


def myths_content(content: Content) -> dict[str, Any]:
    """The static part of the module for the content file: the creature cards."""
    out = []
    for num in sorted(content.creatures):
        c = content.creatures[num]
        out.append(
            {
                "number": num,
                "name": c.name,
                "lasts": c.lasts,
                "reveal": list(c.reveal),
                "action": None
                if c.action is None
                else {
                    "name": c.action.name,
                    "crew": list(c.action.crew),
                    "take": list(c.action.take),
                    "text": "; ".join(CREATURE_ACTION_TEXTS[op] for op in c.action.take),
                },
                "warded_by": list(c.warded_by),
                "text": CREATURE_TEXTS.get(num, ""),
            }
        )
    return {"creatures": out}
