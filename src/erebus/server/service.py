"""The game service: the façade the app talks to, tying the table, the lobby, the
autopilot and the bot runner together.

An action is checked on a copy, committed to the database (one commit per action),
and only then made visible and broadcast.  ``act`` and ``undo`` share one preamble
(:meth:`GameService._my_turn`): a seated player, the version they saw (409 when
stale; the autopilot hands the seat back either way), the game not over, their turn.

The parts, each a module of its own: :mod:`erebus.server.table` (``LiveGame``: the
state, events, payload and its encoding, undo stack, score log; ``Subscriber``),
:mod:`erebus.server.lobby` (create, rematch, my games, and the checks of seats, names
and options), :mod:`erebus.server.autopilot` (presence, joining, takeover and
hand-back deadlines), :mod:`erebus.server.botrunner` (the bots' turns), over
:mod:`erebus.server.base` (storage writes, the games in memory, the commit path).
Here: loading a game from its log, acting, undoing, checking, chat, and which games
stay in memory (the policy is :mod:`erebus.server.residency`'s).

Chat: seated players post lines (at most ``CHAT_MAX`` characters); each is stored
(table ``chat``, revision 0003) before it is broadcast, and a (re)connecting
WebSocket first gets the newest ``CHAT_HISTORY`` lines.  Spectators read the chat
but do not post (their links are public, so posting would be anonymous).

A game whose stored log no longer replays is *damaged*: it answers 409 with the row
and the reason, remembered in memory so the log is not replayed on every request.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from collections import deque
from collections.abc import AsyncIterator
from typing import Any

from erebus.core import IllegalAction
from erebus.games import get_game
from erebus.server import trace
from erebus.server.advice import Advice
from erebus.server.autopilot import Autopilot
from erebus.server.botrunner import BotRunner
from erebus.server.errors import ApiError
from erebus.server.lobby import NAME_MAX, Lobby
from erebus.server.replicas import Replicas, replay_rows
from erebus.server.settings import Settings
from erebus.server.storage import DamagedRecord, Storage
from erebus.server.table import (
    CHAT_HISTORY,
    GAME_OPTIONS,
    RECENT_EVENTS,
    LiveGame,
    Subscriber,
    chat_message,
    seat_names,
)

GAME_ID_RE = re.compile(r"[A-Za-z0-9_-]{1,32}")  # secrets.token_urlsafe's alphabet
CHAT_MAX = 500  # characters per chat line

# What a seat is told when it may not ``act`` / ``undo`` now: (status, message) when
# the game is over, and when another seat is to move.
_OFF_TURN = {
    "act": ((403, "the game is over"), (403, "it is not your turn")),
    "undo": (
        (400, "nothing can be undone: the game is over"),
        (403, "you can only undo during your own turn"),
    ),
}

log = logging.getLogger("erebus.server")


class GameService(Lobby, Autopilot, BotRunner, Advice, Replicas):
    def __init__(self, storage: Storage, settings: Settings | None = None) -> None:
        super().__init__(storage, settings)
        self._load_lock = asyncio.Lock()
        self._sweeper: asyncio.Task[None] | None = None
        # Games whose stored log does not replay: id -> the error they answer (409).
        self._damaged: dict[str, str] = {}

    # ---------------------------------------------------------- lifecycle

    async def close(self) -> None:
        self._closing = True
        if self._sweeper is not None:
            self._sweeper.cancel()
        tasks = [g.bot_task for g in self._games.values() if g.bot_task]
        tasks += [g.watch_task for g in self._games.values() if g.watch_task]
        tasks += self._review_tasks()
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(BaseException):
                await t
        for g in self._games.values():
            g.notify({"type": "closing"})
        await self._close_pool()
        await self._close_writes()

    # -------------------------------------------------------------- games

    async def get(self, game_id: str) -> LiveGame:
        self._housekeeping()  # first: it may drop this very game, which then loads again
        live = self._games.get(game_id)
        if live is not None:
            self._touch(live)
            return live
        if game_id in self._damaged:
            raise ApiError(409, self._damaged[game_id])
        async with self._load_lock:
            live = self._games.get(game_id)
            if live is not None:
                return live
            if game_id in self._damaged:
                raise ApiError(409, self._damaged[game_id])
            try:
                live = await asyncio.to_thread(self._load, game_id)
            except DamagedRecord as exc:
                # Once: the same log would fail the same way on every request.
                message = f"{exc}; it cannot be loaded"
                self._damaged[game_id] = message
                log.error("%s", message)
                raise ApiError(409, message) from exc
            now = time.monotonic()
            live.move_started = now
            live.last_seen = {s.seat: now for s in live.record.seats if s.kind == "human"}
            self._games[game_id] = live
            self.residency.touch(game_id, now)
            self._rearm(live)
            if self.cluster.shared:
                self._held(game_id)
        self._kick_bots(live)  # e.g. the server stopped during a bot's turn
        return live

    def _load(self, game_id: str) -> LiveGame:
        if not GAME_ID_RE.fullmatch(game_id):
            raise ApiError(404, "no such game")
        record = self.storage.load_game(game_id)
        if record is None:
            raise ApiError(404, "no such game")
        spec = get_game(record.game)
        state = spec.new_game(record.players, record.seed, record.options.get(GAME_OPTIONS))
        names = seat_names(record.seats)
        live = LiveGame(record, state, 0, deque(maxlen=RECENT_EVENTS), names, spec=spec)
        live.joined = {s.seat for s in record.seats if s.kind == "human" and s.joined}
        opts = record.options
        grace = opts.get("takeover_grace_s", self.settings.away_grace_s)
        live.takeover_grace_s = None if grace is None else float(grace)
        if not record.log:  # a record without rows: the effective actions
            for a in record.actions:
                live.add_events(live.version + 1, state.apply(a))
                live.version += 1
        replay_rows(live, record.log)
        live.rematch_id = record.rematch_id
        chat = self.storage.recent_chat(game_id, CHAT_HISTORY)
        live.chat.extend(chat_message(c) for c in chat)
        live.chat_id = max((c.id or 0 for c in chat), default=0)
        return live

    # ------------------------------------------------------------ actions

    @staticmethod
    def _check_version(seat: int | None, version: Any, verb: str) -> int:
        """The seat of a player who may ``verb``, with a well-formed version."""
        if seat is None:
            raise ApiError(403, f"spectators cannot {verb}; use a seat's link")
        if isinstance(version, bool) or not isinstance(version, int):
            raise ApiError(400, "version must be an integer (the version you last saw)")
        return seat

    @staticmethod
    def _check_turn(live: LiveGame, seat: int, verb: str) -> None:
        """ApiError unless ``seat`` may ``verb`` now: the game goes on and it is to move."""
        over, other = _OFF_TURN[verb]
        if live.state.is_over:
            raise ApiError(*over)
        if live.state.current_player != seat:
            raise ApiError(*other)

    @contextlib.asynccontextmanager
    async def _my_turn(
        self, live: LiveGame, seat: int | None, version: Any, verb: str
    ) -> AsyncIterator[int]:
        """The preamble of ``act`` and ``undo``: yields the seat, under ``live.lock``,
        once the player is present, the version they saw is current (the autopilot,
        if it holds the seat, hands it back either way) and it is their turn.  After a
        body that did not raise, the bots are kicked (their turn may have come)."""
        seat = self._check_version(seat, version, verb)
        await self._present(live, seat)
        async with live.lock:
            if self.cluster.shared and version > live.version:
                await self._catch_up_locked(live)  # the player saw it on another process
            await self._check_and_hand_back(live, seat, version)
            self._check_turn(live, seat, verb)
            yield seat
        self._kick_bots(live)

    async def act(self, live: LiveGame, seat: int | None, version: Any, action: Any) -> None:
        """The seat's action, made with the version its player saw.  If the autopilot
        holds the seat, that version is checked first, then the hand-back is logged
        (one version more), then the action (the player gets the newest version)."""
        async with self._my_turn(live, seat, version, "act") as me:
            try:
                parsed = live.game.action_from_json(action)
            except ValueError as exc:
                raise ApiError(400, str(exc)) from exc
            await self._commit(live, me, parsed)

    def check(self, live: LiveGame, seat: int | None, action: Any) -> dict[str, Any]:
        """Would ``action`` be legal for ``seat`` now?  The engine's answer, on a copy:
        the browser explains a spot that is not lit up with the rule it breaks."""
        if seat is None:
            raise ApiError(403, "spectators cannot act; use a seat's link")
        self._check_turn(live, seat, "act")
        try:
            parsed = live.game.action_from_json(action)
        except (ValueError, TypeError, KeyError) as exc:
            raise ApiError(400, f"malformed action: {exc}") from exc
        try:
            live.state.clone().apply(parsed)
        except ValueError as exc:  # IllegalAction is a ValueError
            return {"legal": False, "reason": str(exc)}
        return {"legal": True}

    async def undo(self, live: LiveGame, seat: int | None, version: Any) -> None:
        """Take back the newest action of the current turn (one per call)."""
        async with self._my_turn(live, seat, version, "undo") as me:
            if not live.undo_stack:
                raise ApiError(
                    400,
                    "nothing can be undone: only your own actions of this turn can be "
                    "taken back, and none made before a tile came from the bag",
                )
            undoes = live.undo_stack[-1][0]
            await self._append(live, me, {}, False, "undo", undoes)
            live.publish_undo(me, undoes)
            live.notify(None)
            self._rearm(live)

    # -------------------------------------------------------- residency

    def _touch(self, live: LiveGame) -> None:
        """Someone asks for this game: it is active (its bots resume if it was
        abandoned)."""
        was_abandoned = self.residency.abandoned(live)
        self.residency.touch(live.id)
        if was_abandoned:
            self._kick_bots(live)

    def _housekeeping(self) -> None:
        """On a request: a sweep now and then, and the timer that sweeps when no
        request comes (a finished game must leave memory even on a quiet server)."""
        if self._sweeper is None and not self._closing:
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep_loop())
        self.sweep()

    async def _sweep_loop(self) -> None:
        period = max(0.05, min(30.0, self.settings.evict_after_s / 2))
        while not self._closing:
            await asyncio.sleep(period)
            try:
                self.sweep(force=True)
            except Exception:  # never let housekeeping die for good
                log.exception("sweeping the game cache failed")

    def watched(self, live: LiveGame) -> None:
        """A WebSocket to ``live`` opened or closed (the app calls this)."""
        self._touch(live)

    def sweep(self, now: float | None = None, force: bool = False) -> list[str]:
        """Drop finished and idle games from memory (:mod:`erebus.server.residency`);
        returns their ids.  Runs at most once a second unless ``force``."""
        now = time.monotonic() if now is None else now
        if not force and not self.residency.sweep_due(now):
            return []
        t = trace.now() if trace.TRACER else None
        gone = self.residency.evictable(self._games, now)
        for gid in gone:
            self._forget(gid)
            self.residency.forget(gid)
        if trace.TRACER and t:
            trace.TRACER.add("sweep", *t, detail=f"{len(gone)} of {len(self._games) + len(gone)}")
        return gone

    def live_games(self) -> int:
        """Games in progress held in memory."""
        return sum(1 for g in self._games.values() if not g.state.is_over)

    def check_room(self) -> None:
        """Before a new game: ApiError 429 if ``Settings.max_live_games`` are in play."""
        cap = self.settings.max_live_games
        if cap <= 0 or self.live_games() < cap:
            return
        self.sweep(force=True)
        if self.live_games() >= cap:
            raise ApiError(429, f"the server is full ({cap} games in play); try again later")

    # --------------------------------------------------------------- chat

    async def chat(self, live: LiveGame, seat: int | None, text: Any) -> None:
        """Store a chat line, then broadcast it.  Only seated players may chat;
        spectators read along (they get the history and every new line)."""
        if seat is None:
            raise ApiError(403, "spectators can read the chat but not write to it")
        if not isinstance(text, str) or not text.strip():
            raise ApiError(400, "chat text must be a non-empty string")
        text = text.strip()
        if len(text) > CHAT_MAX:
            raise ApiError(
                400, f"chat text is limited to {CHAT_MAX} characters (this one has {len(text)})"
            )
        entry = await self._write(
            self.storage.append_chat, live.id, seat, live.names[seat], text, live.version
        )
        if self.cluster.shared:  # in row order, as every other process shows it
            self.cluster.changed(live.id, "chat")
            await self._catch_up_chat(live)
            return
        msg = chat_message(entry)
        live.chat.append(msg)
        live.notify(msg)


__all__ = [
    "CHAT_HISTORY",
    "CHAT_MAX",
    "GAME_OPTIONS",
    "NAME_MAX",
    "ApiError",
    "GameService",
    "IllegalAction",
    "LiveGame",
    "Settings",
    "Subscriber",
]
