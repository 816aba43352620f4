"""Presence and the autopilot: who has joined, who is here, and when a bot takes a
human seat's turns.

A human seat's player has *joined* once a WebSocket with the seat's token opened or
an action came with it (stored: ``seats.joined``).  A bot never plays for a seat that
has not joined: a game may wait for an invitee for days.  For a joined seat, a bot
(option ``autopilot_level``) takes over on its turn when (a) no WebSocket of the
player has been open for the game's ``takeover_grace_s`` (counted from when they left
or from when the turn began, whichever is later; ``None``: never), or (b) the
per-move clock (option ``clock_s``) ran out.  The player gets the seat back by
connecting, acting, undoing or sending ``resume``.  A takeover and a hand-back are log
rows of their own (kinds "takeover" / "handback"; see :mod:`erebus.server.table`).
One asyncio timer task per game (``_watch``), restarted by ``_rearm`` whenever the
turn, the presence or the autopilot changes.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from erebus.server.base import ServiceBase
from erebus.server.errors import ApiError
from erebus.server.table import LiveGame

log = logging.getLogger("erebus.server")


class Autopilot(ServiceBase):
    async def _present(self, live: LiveGame, seat: int) -> None:
        """The seat's player is here (a WebSocket opened, or an action came with the
        token): they have joined (stored once), and were seen now."""
        if seat not in live.joined and live.record.seats[seat].kind == "human":
            await self._write(self.storage.set_joined, live.id, seat)
            live.joined.add(seat)
            live.notify(live.presence())
            if self.cluster.shared:
                self._share_presence(live)
        live.last_seen[seat] = time.monotonic()

    async def _check_and_hand_back(self, live: LiveGame, seat: int, version: int) -> None:
        """Under the lock: the version the player saw must be current (else 409); the
        autopilot, if it holds the seat, hands it back either way (the player is
        here, and would otherwise race the bot)."""
        current = version == live.version
        await self._hand_back(live, seat)
        if not current:
            raise ApiError(409, f"stale version {version}; the game is at {live.version}")

    async def _log_autopilot(
        self, live: LiveGame, seat: int, kind: str, data: dict[str, Any]
    ) -> None:
        """Store a "takeover" / "handback" row, then publish it.  Caller holds the lock."""
        await self._append(live, seat, data, False, kind)
        live.publish_autopilot(seat, kind, data)
        live.notify(None)

    async def _hand_back(self, live: LiveGame, seat: int) -> None:
        """Under the lock: if the autopilot plays ``seat``, log the hand-back."""
        if seat in live.autopilot:
            await self._log_autopilot(live, seat, "handback", {})
            log.info("game %s: seat %d is back from the autopilot", live.id, seat)
        self._rearm(live)

    async def connected(self, live: LiveGame, seat: int | None) -> None:
        """A WebSocket with this seat's token opened: the player has joined and is
        back (the autopilot, if it holds the seat, hands it over)."""
        if seat is None:
            return
        live.conns[seat] = live.conns.get(seat, 0) + 1
        if self.cluster.shared:
            self._share_presence(live)
        if live.conns[seat] == 1 and seat in live.joined:
            live.notify(live.presence())  # (a first join tells them in _present)
        try:
            await self._present(live, seat)
            async with live.lock:
                await self._hand_back(live, seat)
        except Exception:  # the connection works on; the next action says what is wrong
            log.exception("game %s: seat %d connected, but its hand-back failed", live.id, seat)

    def disconnected(self, live: LiveGame, seat: int | None) -> None:
        if seat is None:
            return
        live.conns[seat] = max(0, live.conns.get(seat, 0) - 1)
        if self.cluster.shared:
            self._share_presence(live)
        if not live.conns[seat]:
            live.last_seen[seat] = time.monotonic()
            live.notify(live.presence())
            self._rearm(live)

    async def reclaim(self, live: LiveGame, seat: int) -> None:
        """The seat's player asks for the seat back (WebSocket ``resume``)."""
        await self._present(live, seat)
        async with live.lock:
            await self._hand_back(live, seat)

    def _deadline(self, live: LiveGame, seat: int) -> tuple[float, str] | None:
        """(when, reason "away" | "clock"): when the autopilot takes over ``seat``
        (whose turn it is), or None: never.  Never for a player who never joined."""
        if seat not in live.joined:
            return None
        out: list[tuple[float, str]] = []
        grace = live.takeover_grace_s
        if grace is not None and not live.conns.get(seat):
            left = max(live.last_seen.get(seat, live.move_started), live.move_started)
            out.append((left + grace, "away"))
        clock = live.record.options.get("clock_s")
        if clock:
            out.append((live.move_started + float(clock), "clock"))
        return min(out) if out else None

    def _rearm(self, live: LiveGame) -> None:
        """(Re)start the timer that hands the current human seat to the autopilot."""
        if live.watch_task is not None and live.watch_task is not asyncio.current_task():
            live.watch_task.cancel()
        live.watch_task = None
        cur = live.state.current_player
        if (
            self._closing
            or cur is None
            or live.state.is_over
            or live.record.seats[cur].kind != "human"
            or cur in live.autopilot
            or self._deadline(live, cur) is None
        ):
            return
        live.watch_task = asyncio.get_running_loop().create_task(self._watch(live, cur))

    def _due(self, live: LiveGame, seat: int) -> str | None:
        """The reason the autopilot should take ``seat`` over now, if it should."""
        if (
            self._closing
            or self._games.get(live.id) is not live
            or live.state.current_player != seat
            or live.state.is_over
            or seat in live.autopilot
        ):
            return None
        deadline = self._deadline(live, seat)
        if deadline is None or deadline[0] > time.monotonic():
            return None
        return deadline[1]

    async def _watch(self, live: LiveGame, seat: int) -> None:
        while True:
            deadline = self._deadline(live, seat)
            if deadline is None:
                return
            delay = deadline[0] - time.monotonic()
            if delay <= 0:
                break
            await asyncio.sleep(delay)  # the deadline may have moved meanwhile: look again
        if self._due(live, seat) is None:
            return
        async with live.lock:
            if live.watch_task is asyncio.current_task():
                live.watch_task = None  # done waiting: a rearm must not cancel the write
            reason = self._due(live, seat)  # the player may have come back meanwhile
            if reason is None:
                self._rearm(live)
                return
            level = str(live.record.options.get("autopilot_level", "medium"))
            try:
                await self._log_autopilot(
                    live, seat, "takeover", {"reason": reason, "level": level}
                )
            except ApiError:
                return
        log.info("game %s: the autopilot plays for seat %d (%s)", live.id, seat, reason)
        self._kick_bots(live)
