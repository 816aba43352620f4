"""``wire_view_shared`` (the spec's view with the parts the same for every seat built
once per state) writes exactly the bytes of ``wire_view`` for every seat and the
spectator, whichever asks first, with and without the game's modules."""

from __future__ import annotations

import itertools
import random
from typing import Any

import orjson
import pytest

from erebus.games import get_game

SETTINGS: list[tuple[str, int, dict[str, Any] | None]] = [
    ("northwest", 3, None),
    ("iceandsnow", 3, None),
    (
        "iceandsnow",
        3,
        {
            "modules": ["walking_on_ice", "inuit_myths", "legendary_expeditions"],
            "modes": ["survival", "shelters", "dual_species"],
        },
    ),
    ("iceandsnow", 1, {"scenario": "amundsens-voyage"}),
]


@pytest.mark.parametrize(("game", "players", "raw"), SETTINGS)
def test_shared_view_is_the_plain_view(game: str, players: int, raw: dict[str, Any] | None) -> None:
    spec = get_game(game)
    assert spec.wire_view_shared is not None
    opts = spec.parse_options(players, raw) if spec.parse_options else None
    state = spec.new_game(players, 5, opts)
    rng = random.Random(3)
    orders = list(itertools.permutations([*range(players), None]))
    for move in range(60):
        if state.is_over:
            break
        shared: dict[Any, Any] = {}
        for seat in orders[move % len(orders)]:
            got = orjson.dumps(spec.wire_view_shared(state, seat, shared))
            assert got == orjson.dumps(spec.wire_view(state, seat)), (move, seat)
        state = state.clone()
        state.apply(rng.choice(state.legal_actions()))
