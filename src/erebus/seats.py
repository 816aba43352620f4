"""How seats look on screen, the same in every game: colours, default names,
places (1st, 2nd …) and the points each seat scored, by category.

The fourth seat is green, not the boxes' white: a white badge vanishes on ice
and snow, and every colour here must read on sea, land, ice and a dark terminal.
A default name is the seat's colour, so a name always tells which pieces are yours.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from rich.style import Style

PLAYER_COLOURS = ("#e0453a", "#4a86e8", "#e3a92b", "#3fb05a")
"""Seat colours: red, blue, ochre, green."""
PLAYER_COLOUR_NAMES = ("Red", "Blue", "Ochre", "Green")


def player_colour(seat: int) -> str:
    """The hex colour of ``seat`` (cycles if there were ever more than four seats)."""
    return PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]


def player_style(seat: int, bold: bool = True) -> Style:
    """Text style for a player's name: their colour on the terminal background."""
    return Style(color=player_colour(seat), bold=bold)


def default_names(players: int) -> list[str]:
    """The seats' colour names."""
    return [PLAYER_COLOUR_NAMES[s % len(PLAYER_COLOUR_NAMES)] for s in range(players)]


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, … 11th, 12th, 13th, 21st."""
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def points_by_category(
    events: Iterable[Any],
    players: int,
    category: Callable[[str], str],
    order: Sequence[str],
) -> dict[str, list[int]]:
    """Points per category and seat, summed from a game's ``ScoreChanged`` events
    (any event with ``seat``, ``delta`` and ``reason``), categories in ``order``
    (unknown ones last)."""
    out: dict[str, list[int]] = {}
    for ev in events:
        if type(ev).__name__ == "ScoreChanged":
            row = out.setdefault(category(ev.reason), [0] * players)
            row[ev.seat] += ev.delta
    rank = {c: i for i, c in enumerate(order)}
    return dict(sorted(out.items(), key=lambda kv: rank.get(kv[0], len(rank))))
