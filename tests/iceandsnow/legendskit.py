"""Helpers for the Legendary Expeditions tests (reference §9.3), on top of the kit.

The module is in ``options.IMPLEMENTED_MODULES``; :func:`enabled` (and the
``legends_on`` fixture, imported into a test file) still make sure of it, so that
the tests also run on a branch where it is switched off.  Positions are set up with
:mod:`erebus.games.iceandsnow.kit`; the rules are then driven through the public
API (``legal_actions``, ``apply``, ``player``, events).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from erebus.games.iceandsnow import kit, options
from erebus.games.iceandsnow.state import State

MODULE = "legendary_expeditions"
LEGENDS: dict[str, Any] = {"modules": [MODULE]}


@contextmanager
def enabled() -> Iterator[None]:
    """Play the module even if ``IMPLEMENTED_MODULES`` does not list it."""
    saved = options.IMPLEMENTED_MODULES
    options.IMPLEMENTED_MODULES = saved | {MODULE}
    try:
        yield
    finally:
        options.IMPLEMENTED_MODULES = saved


@pytest.fixture(autouse=True, scope="module")
def legends_on() -> Iterator[None]:
    """Import into a test module (``from iceandsnow.legendskit import legends_on``):
    every test of that module plays with the module enabled."""
    with enabled():
        yield


def legends(players: int = 2, seed: int = 1, explorers: Any = "random", **opts: Any) -> State:
    """A game with the module (``explorers``: ``"random"`` or one letter per seat)."""
    modules = [MODULE, *opts.pop("modules", [])]
    return kit.game(players, seed, {**opts, "modules": modules, "explorers": explorers})
