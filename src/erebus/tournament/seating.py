"""Who sits where in each game of a tournament, and every game's and bot's seed
(see :mod:`erebus.tournament` for why: rotated seats, hashed seeds)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence


def base_lineup(bots: Sequence[str], players: int) -> list[str]:
    """The lineup that rotates around the table (see the module docstring)."""
    if not bots:
        raise ValueError("name at least one bot")
    if len(bots) >= players:
        return list(bots)
    return [bots[0]] + [bots[-1]] * (players - 1)


def lineup(bots: Sequence[str], players: int, index: int) -> list[str]:
    """Bot name per seat in game ``index``: the base lineup rotated by ``index``."""
    base = base_lineup(bots, players)
    return [base[(index + s) % len(base)] for s in range(players)]


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from a tuple of values, the same in every process and Python run.

    A hash rather than ``seed + index`` so that neighbouring tournaments
    (seed 1 and seed 2) do not share almost all of their games.
    """
    digest = hashlib.sha256(":".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` in a tournament with seed ``seed``."""
    return derive_seed("erebus-tournament", seed, index)


def bot_seed(seed_of_game: int, seat: int) -> int:
    """The seed of the bot at ``seat`` in the game with seed ``seed_of_game``."""
    return derive_seed("bot", seed_of_game, seat)
