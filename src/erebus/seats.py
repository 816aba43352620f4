"""How seats look on screen, the same in every game: colours and default names.

The fourth seat is green, not the boxes' white: a white badge vanishes on ice
and snow, and every colour here must read on sea, land, ice and a dark terminal.
A default name is the seat's colour, so a name always tells which pieces are yours.
"""

from __future__ import annotations

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
