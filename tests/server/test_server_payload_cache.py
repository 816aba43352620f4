"""The shared encoding of a table's payloads (``LiveGame.encoded``) never mixes seats.

``encoded`` builds each seat's payload once per change and shares the fields that
are the same for every seat, and writes legal actions from a memo; these tests
check that whatever order the seats and the spectator ask in, each gets exactly
the bytes of its own fresh payload (``payload``, built from scratch), so a seat's
hidden fields (Ice and Snow's investor and cartography offers, legal actions) never
reach another seat or the spectator.
"""

from __future__ import annotations

import itertools
import random
from collections import deque
from datetime import UTC, datetime
from typing import Any

import orjson
import pytest

from erebus.games import get_game
from erebus.server.storage import GameRecord, SeatInfo
from erebus.server.table import (
    GAME_OPTIONS,
    RECENT_EVENTS,
    LiveGame,
    _action_json,
    _dumps,
    seat_names,
)

VIEWERS: tuple[int | None, ...] = (0, 1, None)


def _live(game: str, seed: int) -> LiveGame:
    spec = get_game(game)
    opts = spec.parse_options(2, None) if spec.parse_options else None
    seats = [SeatInfo(0, "human", None, "h0"), SeatInfo(1, "human", None, "h1")]
    options: dict[str, Any] = {GAME_OPTIONS: opts} if opts else {}
    record = GameRecord(
        f"g{seed}", game, 2, seed, options, datetime.now(UTC), "active", None, seats, []
    )
    state = spec.new_game(2, seed, opts)
    return LiveGame(record, state, 0, deque(maxlen=RECENT_EVENTS), seat_names(seats), spec=spec)


def _step(live: LiveGame, rng: random.Random) -> None:
    seat = live.state.current_player
    new = live.state.clone()
    events = new.apply(rng.choice(live.state.legal_actions()))
    live.publish_action(seat, "action", new, events)


@pytest.mark.parametrize("game", ["northwest", "iceandsnow"])
def test_each_viewer_gets_its_own_payload_in_any_order(game: str) -> None:
    rng = random.Random(7)
    live = _live(game, 11)
    orders = list(itertools.permutations(VIEWERS))
    for move in range(40):
        if live.state.is_over:
            break
        since = live.version - 1 if live.version else None
        for seat in orders[move % len(orders)]:
            body, message = live.encoded(seat, since)
            assert body == _dumps(live.payload(seat, since))
            assert message == '{"type":"state",' + body[1:]
            parsed = orjson.loads(body)
            assert parsed["seat"] == seat
            mover = seat is not None and seat == live.state.current_player
            assert bool(parsed["legal_actions"]) == mover
        _step(live, rng)


def test_iceandsnow_setup_offers_stay_with_their_seat() -> None:
    """Each seat's investor offers (set-up, hidden) appear in its own view only,
    even after another seat's payload of the same version was built first."""
    live = _live("iceandsnow", 3)
    views = {}
    for seat in (None, 1, 0):  # the spectator first, the seat to move last
        views[seat] = orjson.loads(live.encoded(seat)[0])["view"]["seats"]
    offers = [s["investor_options"] for s in views[0]]
    assert offers[0] and not offers[1]  # seat 0 sees its offer, not seat 1's
    assert views[1][1]["investor_options"] and not views[1][0]["investor_options"]
    assert not any(s["investor_options"] for s in views[None])


def test_action_json_is_the_action_s_own_json() -> None:
    for game in ("northwest", "iceandsnow"):
        state = get_game(game).new_game(2, 5, None)
        for action in state.legal_actions():
            assert orjson.loads(orjson.dumps(_action_json(action))) == action.to_json()
