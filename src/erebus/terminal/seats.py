"""How seats look on screen, the same in every game: colours, default names,
places (1st, 2nd …), the points each seat scored by category and the score table.

The fourth seat is green, not the boxes' white: a white badge vanishes on ice
and snow, and every colour here must read on sea, land, ice and a dark terminal.
A default name is the seat's colour, so a name always tells which pieces are yours.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from rich.style import Style
from rich.table import Table
from rich.text import Text

from erebus.core import events as common

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
        if isinstance(ev, common.ScoreChanged):
            row = out.setdefault(category(ev.reason), [0] * players)
            row[ev.seat] += ev.delta
    rank = {c: i for i, c in enumerate(order)}
    return dict(sorted(out.items(), key=lambda kv: rank.get(kv[0], len(rank))))


TOTAL_STYLE = Style(bold=True, color="#ffd24a")
WARN_STYLE = Style(bold=True, color="#e06666")


def score_table(
    title: str,
    names: Sequence[str],
    scores: Sequence[int],
    ranking: Sequence[int],
    breakdown: dict[str, list[int]] | None,
) -> Table:
    """Points by category per seat (``breakdown``, e.g. :func:`points_by_category`;
    None: totals only), the totals and, with more than one seat, the places.  A
    breakdown that does not add up to ``scores`` gets a warning row: every engine
    promises that its scores are the sum of its score events."""
    n = len(scores)
    table = Table(title=title, title_style=Style(bold=True))
    table.add_column("", style="#cfcfcf", no_wrap=True)
    for s in range(n):
        table.add_column(Text(names[s], player_style(s)), justify="right")
    if breakdown is not None:
        for category, values in breakdown.items():
            table.add_row(category, *(Text(f"{x:+d}" if x else "·") for x in values))
        sums = [sum(x[s] for x in breakdown.values()) for s in range(n)]
        if sums != list(scores):
            table.add_row(
                Text("unexplained", WARN_STYLE),
                *(Text(f"{scores[s] - sums[s]:+d}", WARN_STYLE) for s in range(n)),
            )
        table.add_section()
    table.add_row(Text("Total", Style(bold=True)), *(Text(str(x), TOTAL_STYLE) for x in scores))
    if n > 1:
        place = {seat: i + 1 for i, seat in enumerate(ranking)}
        table.add_row(
            Text("Rank", Style(bold=True)),
            *(Text(ordinal(place[s]), Style(bold=place[s] == 1)) for s in range(n)),
        )
    return table
