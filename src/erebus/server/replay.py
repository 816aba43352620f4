"""Replays of finished games: every step of a game's action log as a spectator saw it.

A step is one *effective* action of the stored log (undone moves, undo rows and the
autopilot's takeover/hand-back rows are left out); step 0 is the setup, before any
action.  The states are rebuilt from the log with the engine (``new_game`` then
``apply``, as the live game was built) and kept per game in a small LRU cache, so
stepping through a replay costs a view and an encoding, not a replay from the start.

Only finished games are replayed (409 while one is in progress): a replay of a live
game would show everybody every seat's past moves while they still matter.
"""

from __future__ import annotations

import asyncio
import re
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from erebus.core import events as common
from erebus.core.game import GameSpec
from erebus.games import get_game
from erebus.server.errors import ApiError
from erebus.server.service import GameService
from erebus.server.storage import GameRecord
from erebus.server.table import GAME_OPTIONS

#: Log row kinds that are moves of the game (others: "undo", "takeover", "handback").
MOVE_KINDS = frozenset({"action", "bot"})
CACHE_GAMES = 4  # finished games whose replayed states are kept in memory
_STEP_RE = re.compile(r"[0-9]{1,9}")
PLAYER_KEYS = ("seat", "name", "named", "kind", "level")


def moves(record: GameRecord) -> list[tuple[int | None, dict[str, Any]]]:
    """(seat, action JSON) of each effective move of ``record``, in order."""
    if not record.log:
        return [(None, dict(a)) for a in record.actions]
    undone = {e.undoes for e in record.log if e.kind == "undo"}
    return [
        (e.seat, dict(e.action))
        for e in record.log
        if e.kind in MOVE_KINDS and e.index not in undone
    ]


@dataclass(frozen=True)
class Replay:
    """A finished game rebuilt step by step: ``states[k]`` is the state after ``k``
    moves; ``events[k]`` the events of move ``k`` (as the live payload words them)."""

    id: str
    game: str
    players: list[dict[str, Any]]
    seeded: bool
    actions: list[dict[str, Any] | None]  # actions[k]: the move that led to step k
    seats: list[int | None]  # seats[k]: who made it
    states: list[Any]
    events: list[list[dict[str, Any]]]
    rounds: list[dict[str, int]]
    spec: GameSpec

    @property
    def steps(self) -> int:
        return len(self.states) - 1

    def index(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.game,
            "players": self.players,
            "seeded": self.seeded,
            "steps": self.steps,
            "rounds": self.rounds,
        }

    def step(self, k: int) -> dict[str, Any]:
        st = self.states[k]
        return {
            "id": self.id,
            "game": self.game,
            "step": k,
            "steps": self.steps,
            "seat": self.seats[k],
            "action": self.actions[k],
            "events": self.events[k],
            "view": self.spec.wire_view(st, None),
            "scores": st.scores(),
            "current_player": st.current_player,
            "is_over": st.is_over,
            "ranking": st.ranking() if st.is_over else None,
            "players": self.players,
            "seeded": self.seeded,
        }


def build(record: GameRecord, players: list[dict[str, Any]], seeded: bool) -> Replay:
    """Replay ``record``'s effective moves with its engine (CPU work: call it in a thread)."""
    names = [str(p.get("name", f"Player {i + 1}")) for i, p in enumerate(players)]
    spec = get_game(record.game)
    state = spec.new_game(record.players, record.seed, record.options.get(GAME_OPTIONS))
    states: list[Any] = [state.clone()]
    actions: list[dict[str, Any] | None] = [None]
    seats: list[int | None] = [None]
    events: list[list[dict[str, Any]]] = [[]]
    rounds = [{"round": spec.rounds(state) if spec.rounds else 0, "step": 0}]
    for k, (logged_seat, action) in enumerate(moves(record), start=1):
        seat = state.current_player if logged_seat is None else logged_seat
        evs = state.apply(action)
        states.append(state.clone())
        actions.append(action)
        seats.append(seat)
        events.append([{**e.to_json(), "version": k, "text": e.text(names)} for e in evs])
        for e in evs:
            if isinstance(e, common.RoundStarted) and e.round != rounds[-1]["round"]:
                rounds.append({"round": int(e.round), "step": k})
    return Replay(
        record.id, record.game, players, seeded, actions, seats, states, events, rounds, spec
    )


class ReplayCache:
    """The replays of the last few finished games asked for (LRU), built once each."""

    def __init__(self, service: GameService, size: int = CACHE_GAMES) -> None:
        self.service = service
        self.size = size
        self._replays: OrderedDict[str, Replay] = OrderedDict()
        self._lock = asyncio.Lock()

    async def get(self, game_id: str) -> Replay:
        replay = self._replays.get(game_id)
        if replay is not None:
            self._replays.move_to_end(game_id)
            return replay
        live = await self.service.get(game_id)  # 404 for an unknown game
        if not live.state.is_over:
            raise ApiError(409, "the game is still in progress; its replay opens when it is over")
        async with self._lock:  # one build at a time (and never the same game twice)
            replay = self._replays.get(game_id)
            if replay is None:
                payload = live.payload(None)
                players = [
                    {k: p.get(k, False if k == "named" else None) for k in PLAYER_KEYS}
                    for p in payload["players"]
                ]
                seeded = bool(payload.get("seeded", live.record.options.get("seeded", False)))
                storage = self.service.storage
                record = await asyncio.to_thread(storage.load_game, game_id)
                if record is None:
                    raise ApiError(404, "no such game")
                replay = await asyncio.to_thread(build, record, players, seeded)
                self._replays[game_id] = replay
                while len(self._replays) > self.size:
                    self._replays.popitem(last=False)
            return replay

    async def index(self, game_id: str) -> dict[str, Any]:
        return (await self.get(game_id)).index()

    async def step(self, game_id: str, step: str) -> dict[str, Any]:
        if not _STEP_RE.fullmatch(step):
            raise ApiError(400, "the step must be a whole number: 0 (the setup) up to the last")
        replay = await self.get(game_id)
        k = int(step)
        if k > replay.steps:
            raise ApiError(404, f"no step {k}: this game has steps 0..{replay.steps}")
        return replay.step(k)
