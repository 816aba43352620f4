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
    if ep.get("start") != {"dynamite": 7, "wood": 4, "rifles": 2}:
        out.append(f"{where} starts with 7 dynamite, 4 wood, 2 rifles (seed l. 1361)")
    want = {
        "coastal": [13, 14, 15, 16, 18, 19, 21, 22, 23, 24],
        "open": [1, 2, 3, 4, 5, 6, 7, 8, 11, 12],
    }
    if ep.get("decks") != want:
        out.append(f"{where}: the event decks must be {want} (seed l. 1365-1369)")
    if ep.get("blocked_spaces") != ["hire_inuk"]:
        out.append(f"{where}: Hire an Inuk is blocked, nothing else (seed l. 1363)")
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


def _amundsen(c: Content, am: dict[str, Any], out: list[str]) -> None:
    where = "scenarios: amundsens-voyage"
    if am.get("start") != {"dynamite": 8, "wood": 5, "rifles": 3}:
        out.append(f"{where} starts with 8 dynamite, 5 wood, 3 rifles (seed l. 1451)")
    cyl = am.get("cylinders", {})
    if cyl != {"health": 1, "morale": 2}:
        out.append(f"{where}: 1 black cylinder on health, 2 on morale (seed l. 1452)")
    ex = am.get("explore_remove", {})
    if ex != {"right": 7, "left": 10}:
        out.append(
            f"{where}: Explore 7+ removes the right cylinder, 10+ the left (seed l. 1487-1488)"
        )
    deck = am.get("coastal_deck", {})
    if deck.get("remove_random") != 2 or sorted(deck.get("add", [])) != [53, 55]:
        out.append(
            f"{where}: coastal deck = coastal cards less 2 random + #53 and #55 (seed l. 1455)"
        )
    card = am.get("haven_card", {})
    if card.get("number") != 55 or card.get("deck") != "coastal" or card.get("number") in c.events:
        out.append(f"{where}: haven_card is event 55 (Gjøa Haven), a coastal card of its own")
    if am.get("explorer") != "J":
        out.append(f"{where}: the explorer is Amundsen, set J (seed l. 1453)")
