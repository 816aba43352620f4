"""What one accepted action costs the server, without the network or the database.

``erebus bench server`` measures round trips on a shared machine, which is noisy;
this measures the server's own work per move, in one process, repeatably: games
of both games played as the bench plays them (2 seats, seat 0 a client choosing a
random legal action from its pushed ``legal_actions``, seat 1 an easy bot), and per
move the code path from "the action is accepted" to "the pushes are encoded":
``clone`` + ``apply`` (the engine), ``publish_action`` (events in words, score
log) and :meth:`LiveGame.encoded` for the seats that watch.  Two figures per game:

* ``bench``: what ``bench server`` makes the server do — seat 0's push only;
* ``all``: every seat and one spectator watching (three views for two seats).

Time is this thread's CPU time (other processes of a shared machine do not count),
and each game is played ``--repeat`` times with the same seed, keeping its fastest
run (noise only adds time).  Run it with ``PYTHONPATH`` set to
the source tree to measure, e.g. before and after a change::

    PYTHONPATH=src python bench/server_cost.py
    PYTHONPATH=/path/to/other/checkout/src python bench/server_cost.py
"""

from __future__ import annotations

import argparse
import gc
import random
import time
from collections import deque
from datetime import UTC, datetime
from typing import Any

from erebus.bots.base import BotSpec
from erebus.bots.pool import choose_now
from erebus.games import get_game
from erebus.server.storage import GameRecord, SeatInfo
from erebus.server.table import GAME_OPTIONS, RECENT_EVENTS, LiveGame, seat_names

GAMES = ("northwest", "iceandsnow")


def _choose(rng: random.Random, legal: list[dict[str, Any]]) -> dict[str, Any]:
    """The bench client's choice (``erebus.bench.server.choose_action``)."""
    stop = [a for a in legal if a.get("type") in ("pass", "end_turn")]
    other = [a for a in legal if a.get("type") not in ("pass", "end_turn")]
    if other and (not stop or rng.random() >= 0.1):
        return rng.choice(other)
    return rng.choice(stop or legal)


def _live(game: str, seed: int) -> LiveGame:
    spec = get_game(game)
    opts = spec.parse_options(2, None) if spec.parse_options else None
    seats = [SeatInfo(0, "human", None, "h0"), SeatInfo(1, "bot", "easy", None)]
    options: dict[str, Any] = {"seeded": True}
    if opts:
        options[GAME_OPTIONS] = opts
    record = GameRecord(
        f"g{seed}", game, 2, seed, options, datetime.now(UTC), "active", None, seats, []
    )
    state = spec.new_game(2, seed, opts)
    live = LiveGame(record, state, 0, deque(maxlen=RECENT_EVENTS), seat_names(seats), spec=spec)
    live.takeover_grace_s = 60.0
    live.conns = {0: 1}
    live.joined = {0}
    return live


def play(game: str, seed: int, actions: int, views: tuple[int | None, ...]) -> tuple[float, int]:
    """(seconds of server work, moves) for one game."""
    import orjson

    rng = random.Random(seed)
    live = _live(game, seed)
    spec = live.game
    bot = BotSpec("random", seed + 1)
    clock = time.thread_time  # CPU time: a shared machine's other processes do not count
    spent = 0.0
    moves = 0
    seen: dict[int | None, int | None] = dict.fromkeys(views)
    client_actions = 0
    while not live.state.is_over and client_actions < actions:
        seat = live.state.current_player
        if seat == 0:
            body = orjson.loads(live.encoded(0, seen.get(0))[1])
            action_json = _choose(rng, body["legal_actions"])
            client_actions += 1
        else:
            action_json = choose_now(bot, live.state, live.version).to_json()
        t0 = clock()
        action = spec.action_from_json(action_json)
        new = live.state.clone()
        events = new.apply(action)
        action.to_json()  # what the log row stores
        live.publish_action(seat, "action" if seat == 0 else "bot", new, events)
        for v in views:
            live.encoded(v, seen[v])
            seen[v] = live.version
        spent += clock() - t0
        moves += 1
    return spent, moves


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=12, help="games of each game")
    p.add_argument("--actions", type=int, default=40, help="client actions per game, at most")
    p.add_argument("--repeat", type=int, default=5)
    args = p.parse_args(argv)
    gc.collect()
    gc.freeze()
    print(f"{'game':<11} {'views':<6} {'moves':>6} {'µs/move':>9}")
    for game in GAMES:
        for label, views in (("bench", (0,)), ("all", (0, 1, None))):
            best = 0.0
            moves = 0
            for g in range(args.games):
                runs = [play(game, 1000 + g, args.actions, views) for _ in range(args.repeat)]
                best += min(s for s, _ in runs)
                moves += runs[0][1]
            print(f"{game:<11} {label:<6} {moves:>6} {1e6 * best / moves:>9.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
