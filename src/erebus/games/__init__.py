"""Game modules.  Each exposes ``new_game``, ``replay``, ``State``, ``Action`` and ``Event``."""

from __future__ import annotations

import importlib
from types import ModuleType

GAMES = ("northwest", "iceandsnow")


def get_game(name: str) -> ModuleType:
    """The game module called ``name`` (``ValueError`` if there is none)."""
    if name not in GAMES:
        raise ValueError(f"unknown game {name!r}; choose one of {', '.join(GAMES)}")
    return importlib.import_module(f"erebus.games.{name}")
