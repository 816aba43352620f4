"""Where a seat's points come from in Northwest Passage, for tournament tables and
docs/balance.md: ``score_source(reason)`` groups the reasons of ``ScoreChanged`` events
into the few sources a balance question is asked about."""

from __future__ import annotations

import re

SOURCES = (
    "tokens",
    "islands",
    "northwest",
    "greenland",
    "majorities",
    "sets",
    "abandonment",
    "other",
)
"""Where points come from, in the order the tables show them."""
SOURCE_LABELS = {
    "tokens": "Tokens",
    "islands": "Islands",
    "northwest": "NW",
    "greenland": "Greenl.",
    "majorities": "Major.",
    "sets": "Sets",
    "abandonment": "Aband.",
    "other": "Other",
}


def score_source(reason: str) -> str:
    """The source of a ``ScoreChanged`` reason (one of :data:`SOURCES`).

    Reasons are short human texts ("inuit ×2", "island of 3 tiles",
    "franklin majority", "2 sets", "ship abandoned with 3 crew"); balance
    questions are asked about sources, not about each zone or island size.
    """
    r = reason.strip().lower()
    if r.endswith("majority"):
        return "majorities"
    if re.match(r"(inuit|cairn|franklin|strait)\b", r):
        return "tokens"
    if r.startswith("island"):
        return "islands"
    if r.startswith("northwest"):
        return "northwest"
    if r.startswith("greenland"):
        return "greenland"
    if re.match(r"\d+ sets?$", r):
        return "sets"
    if "abandon" in r:
        return "abandonment"
    return "other"
