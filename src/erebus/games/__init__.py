"""The registry of games: a name → the package that exports its ``SPEC``.

Each game is one package exporting ``SPEC`` (an :class:`erebus.core.game.GameSpec`);
consumers ask :func:`get_game` for it and know nothing else of the game.  Adding a
game is one line here (or one :func:`register_game` call, as the tests' race game
does), and the package is imported only when first asked for.
"""

from __future__ import annotations

import importlib

from erebus.core.game import GameSpec

#: name → package path, in the order games are offered.  Iterating gives the names.
GAMES: dict[str, str] = {
    "northwest": "erebus.games.northwest",
    "iceandsnow": "erebus.games.iceandsnow",
}


def register_game(name: str, package: str) -> None:
    """Make the game of ``package`` (which exports ``SPEC``) known as ``name``."""
    GAMES[name] = package


def get_game(name: str) -> GameSpec:
    """The spec of the game called ``name`` (``ValueError`` if there is none)."""
    package = GAMES.get(name) if isinstance(name, str) else None
    if package is None:
        raise ValueError(f"unknown game {name!r}; choose one of {', '.join(GAMES)}")
    spec = importlib.import_module(package).SPEC
    if not isinstance(spec, GameSpec) or spec.name != name:
        raise ValueError(f"{package} does not export the SPEC of {name!r}")
    return spec


__all__ = ["GAMES", "get_game", "register_game"]
