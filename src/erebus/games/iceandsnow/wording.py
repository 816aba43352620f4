"""Names instead of ids, for the event texts of Through Ice and Snow.

An event carries ids (``north_water``, ``cartography_9``, ``hunt_musk_ox_1``) so that it
stays small and machine-readable; its ``text()`` is read by people (the terminal log,
the web log), so it names things as the data files do: anchors, regions and map
sections (``map.json``), investors, cards and upgrades (``cards.json``).  The names come
from the default content, which every game shares (options and scenarios change rules,
never names); an id the data does not know is shown with its underscores as spaces.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from erebus.games.iceandsnow.content import Content, default_content

#: Readable names of the action spaces (board.json ids, plus the two extra spaces).
SPACE_LABELS = {
    "lead": "Lead",
    "explore": "Explore",
    "visit_inuit": "Visit the Inuit",
    "hire_inuk": "Hire an Inuk",
    "build_cabin": "Build a cabin",
    "improve_sled": "Improve the sled",
    "upgrade_ship": "Upgrade the ship",
    "recycle_wood": "Recycle wood",
    "discover": "Discover",
    "magnetic_research": "Magnetic research",
    "hunt": "Hunt",
    "experiment": "Experiment",
    "exchange_captain": "Exchange",
    "exchange_carpenter": "Exchange",
    "exchange_scientist": "Exchange",
    "collect_captain": "Collect",
    "collect_carpenter": "Collect",
    "collect_scientist": "Collect",
    "ice_fishing": "Ice fishing",
    "trace_map": "Trace the map",
    "document_methods": "Document methods",
    "lab_research": "Lab research",
    "vow_captain": "Vow of silence",
    "vow_carpenter": "Vow of silence",
    "vow_scientist": "Vow of silence",
    "build_shelter": "Build a shelter",
    "event": "Event card",
}

CREW_WORDS = ("captain", "carpenter", "scientist", "sailor", "Inuk")
CREW_PLURAL = ("captains", "carpenters", "scientists", "sailors", "Inuit")
#: Tracks by the name a player reads on the personal board.
TRACK_NAMES = {"inuit": "Inuit track", "sled": "sled level"}
#: Compass cards of Magnetic North Pole (scenarios.json: N, S, W, E and the pole).
COMPASS_NAMES = {"N": "north", "S": "south", "W": "west", "E": "east", "pole": "the pole"}


def _content() -> Content:
    return default_content()


def plain(ident: str) -> str:
    """An id the data does not name, readable: ``musk_ox`` → ``musk ox``."""
    return ident.replace("_", " ")


def anchor(ident: str | None) -> str:
    if ident is None:
        return "—"
    for sec in _content().sections:
        for side in sec.sides.values():
            for a in side.anchors:
                if a.id == ident:
                    return a.name
    return plain(ident)


def region(ident: str) -> str:
    r = _content().regions.get(ident)
    return r.name if r else plain(ident)


def regions(idents: Iterable[str]) -> str:
    return ", ".join(region(r) for r in idents)


def section(ident: str) -> str:
    for sec in _content().sections:
        if sec.id == ident:
            return sec.name
    return plain(ident)


def investor(ident: str) -> str:
    inv = _content().investors.get(ident)
    return inv.name if inv else plain(ident)


def card(ident: str) -> str:
    """A species, hunting, whale or dual species card by its name."""
    c = _content()
    for deck in (c.species, c.hunting, c.whales, c.dual):
        found = deck.get(ident)
        if found is not None:
            return found.name
    return plain(ident)


def species(ident: str) -> str:
    """A species (not a card): ``musk_ox`` → ``Musk Ox``."""
    for s in _content().species.values():
        if s.species == ident:
            return s.name
    for d in _content().dual.values():
        if d.species == ident:
            return d.name
    return plain(ident)


def upgrade(number: int) -> str:
    u = _content().upgrades.get(number)
    return u.name if u else f"upgrade {number}"


def space(ident: str) -> str:
    label = SPACE_LABELS.get(ident, plain(ident).capitalize())
    for prefix in ("exchange_", "collect_", "vow_"):
        if ident.startswith(prefix):
            label += f" ({ident[len(prefix) :]})"
    return label


def crew(counts: Sequence[int]) -> str:
    """(1, 0, 0, 2, 1) → "captain + 2 sailors + Inuk"."""
    parts = []
    for i, k in enumerate(counts):
        if k == 1:
            parts.append(CREW_WORDS[i])
        elif k > 1:
            parts.append(f"{k} {CREW_PLURAL[i]}")
    return " + ".join(parts) or "nobody"


def track(ident: str) -> str:
    return TRACK_NAMES.get(ident, plain(ident))


def compass(ident: str) -> str:
    return COMPASS_NAMES.get(ident, plain(ident))


def article(word: str) -> str:
    """ "a" or "an" before ``word`` (by its first letter: "an open voyage")."""
    return "an" if word[:1].lower() in "aeiou" else "a"
