"""Where a seat's points come from, for tournament tables and docs/balance.md.

``score_source(reason)`` groups the reasons of ``ScoreChanged`` events (short
texts such as "cabin food", "first Narwhal", "death (health)") into the few
sources a balance question is asked about.
"""

from __future__ import annotations

SOURCES = (
    "cabins",
    "explore",
    "discoveries",
    "majorities",
    "species",
    "investors",
    "cartography",
    "final",
    "towing",
    "penalties",
    "other",
)
"""The sources in the order the tables show them."""

SOURCE_LABELS = {
    "cabins": "Cabins",
    "explore": "Explore",
    "discoveries": "Discov.",
    "majorities": "Major.",
    "species": "Species",
    "investors": "Invest.",
    "cartography": "Carto.",
    "final": "Final",
    "towing": "Towing",
    "penalties": "Penalt.",
    "other": "Other",
}

_PREFIX = (
    ("start", None),
    ("cabin majority", "majorities"),
    ("species majority", "majorities"),
    ("shelter majority", "majorities"),
    ("cabin", "cabins"),
    ("explore", "explore"),
    ("first ", "discoveries"),
    ("dual", "discoveries"),
    ("species cards", "species"),
    ("investor", "investors"),
    ("cartography", "cartography"),
    ("mapping", "cartography"),
    ("trace", "final"),
    ("document", "final"),
    ("laboratory", "final"),
    ("vow", "final"),
    ("final anchor", "final"),
    ("towed", "towing"),
    ("towing", "towing"),
    ("death", "penalties"),
    ("dog eaten", "penalties"),
    ("sailor lost", "penalties"),
    ("missing food", "penalties"),
    ("health", "penalties"),
    ("morale", "penalties"),
)


def score_source(reason: str) -> str | None:
    """The source of a ``ScoreChanged`` reason, or ``None`` for the starting 10 PP.
    Health and morale count as penalties (their end values are mostly negative)."""
    r = reason.strip().lower()
    for prefix, source in _PREFIX:
        if r.startswith(prefix):
            return source
    return "other"
