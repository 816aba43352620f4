"""Load-time checks of the Myths & Legends solo scenarios' data (``scenarios.json``:
``mysterious-epidemic`` §9.4, ``amundsens-voyage`` §9.5).

:func:`check` appends one clear message per problem (``validate.py`` calls it with
the other scenario checks), so that a hand-edited card fails at load, not in play.
"""

from __future__ import annotations

from typing import Any

from erebus.games.iceandsnow.model import Content

OFFICERS = ("captain", "carpenter", "scientist")
#: The requirement kinds of a treatment card (seed l. 1413–1419).
REQUIREMENTS = ("explore", "cabin_food", "species")


def check(c: Content, out: list[str]) -> None:
    """Every problem of the two scenarios' data, appended to ``out``."""
    ep = c.scenarios.get("mysterious-epidemic")
    if not isinstance(ep, dict):
        out.append("scenarios: scenario 'mysterious-epidemic' is missing")
    else:
        _epidemic(c, ep, out)
    am = c.scenarios.get("amundsens-voyage")
    if not isinstance(am, dict):
        out.append("scenarios: scenario 'amundsens-voyage' is missing")
    else:
        _amundsen(c, am, out)


def _epidemic(c: Content, ep: dict[str, Any], out: list[str]) -> None:
    where = "scenarios: mysterious-epidemic"
    _start(where, ep, out)
    for num in ep.get("free_upgrade", {}).get("recommended", []):
        if num not in c.upgrades:
            out.append(f"{where}: recommended free upgrade {num!r} is not an upgrade tile")
    for sid in ep.get("blocked_spaces", []):
        if sid not in c.spaces:
            out.append(f"{where} blocks unknown space {sid!r}")
    sections = {s.id: s for s in c.sections}
    shared: dict[str, int] = {}
    for s in c.sections:
        for side in s.sides.values():
            for a in side.anchors:
                shared[a.id] = shared.get(a.id, 0) + 1
    cards = ep.get("settlements", [])
    if len(cards) != 3 or len({k.get("id") for k in cards}) != 3:
        out.append(f"{where}: 3 settlement cards with distinct ids (seed l. 1355)")
    for card in cards:
        for sid, sides in card.get("anchors", {}).items():
            sec = sections.get(sid)
            if sec is None:
                out.append(f"{where}: settlement {card.get('id')} names unknown section {sid!r}")
                continue
            for side, anchors in sides.items():
                if side not in sec.sides:
                    out.append(f"{where}: settlement {card.get('id')}: {sid} has no side {side!r}")
                    continue
                here = {a.id: a for a in sec.sides[side].anchors}
                for a in anchors:
                    anc = here.get(a)
                    if anc is None:
                        out.append(f"{where}: settlement anchor {a!r} is not on {sid} side {side}")
                    elif anc.start or anc.final_pp is not None or shared.get(a, 0) > 1:
                        out.append(
                            f"{where}: settlement anchor {a!r} is a start, final or shared one"
                        )
    diseases = ep.get("diseases", [])
    if len(diseases) != 6 or len({d.get("id") for d in diseases}) != 6:
        out.append(f"{where}: 6 disease cards with distinct ids (seed l. 1355)")
    for d in diseases:
        if d.get("officer") not in OFFICERS:
            out.append(f"{where}: disease {d.get('id')} must name an officer, one of {OFFICERS}")
    treatments = ep.get("treatments", [])
    if len(treatments) != 6 or len({t.get("id") for t in treatments}) != 6:
        out.append(f"{where}: 6 treatment cards with distinct ids (seed l. 1355)")
    species = {s.species for s in c.species.values()}
    for t in treatments:
        for key in ("heal_1", "heal_2"):
            req = t.get(key)
            if not isinstance(req, dict) or len(req) != 1 or next(iter(req)) not in REQUIREMENTS:
                out.append(f"{where}: treatment {t.get('id')} {key} must be one of {REQUIREMENTS}")
                continue
            ((kind, v),) = req.items()
            if kind == "species":
                if not (isinstance(v, list) and 1 <= len(v) <= 2 and set(v) <= species):
                    out.append(f"{where}: treatment {t.get('id')} {key}: 1 or 2 known species")
            elif not (isinstance(v, int) and not isinstance(v, bool) and v > 0):
                out.append(f"{where}: treatment {t.get('id')} {key}: a positive threshold")


def _start(where: str, scen: dict[str, Any], out: list[str]) -> None:
    start = scen.get("start")
    if not (
        isinstance(start, dict)
        and set(start) == {"dynamite", "wood", "rifles"}
        and all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in start.values())
    ):
        out.append(f"{where}: start must give dynamite, wood and rifles as counts")


def _count(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def _amundsen(c: Content, am: dict[str, Any], out: list[str]) -> None:
    where = "scenarios: amundsens-voyage"
    _start(where, am, out)
    cyl = am.get("cylinders", {})
    if (
        set(cyl) != {"health", "morale"}
        or cyl.get("health") not in (0, 1)
        or cyl.get("morale") not in (0, 1, 2)
    ):
        out.append(f"{where}: black cylinders: health 0-1, morale 0-2")
    ex = am.get("explore_remove", {})
    if set(ex) != {"right", "left"} or not all(_count(v) for v in ex.values()):
        out.append(f"{where}: explore_remove gives the PP of the right and left cylinders")
    deck = am.get("coastal_deck", {})
    add = deck.get("add", [])
    if not _count(deck.get("remove_random")) or not (
        isinstance(add, list) and all(_count(x) for x in add)
    ):
        out.append(f"{where}: coastal_deck needs remove_random and the events it adds")
    card = am.get("haven_card", {})
    if (
        card.get("deck") != "coastal"
        or card.get("number") in c.events
        or card.get("number") not in add
    ):
        out.append(f"{where}: haven_card is a coastal event card of its own, in coastal_deck.add")
    if am.get("explorer") not in tuple("ABCDEFGHIJ"):
        out.append(f"{where}: explorer must be a Legendary Expeditions set letter")
