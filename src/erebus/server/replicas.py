"""Keeping this process's games in step with the other processes of a cluster.

A process's :class:`~erebus.server.table.LiveGame` is a cache of the game's log; the
database is the source of truth.  With a shared :mod:`erebus.server.cluster`, every
commit elsewhere arrives as a notice, and the game, if this process holds it, reads
the rows after its own version and replays them through the same ``publish_*``
methods as a load does (:func:`replay_rows`), then pushes one state to its sockets.
A push therefore carries every event once and in order, whatever notices were lost,
late or doubled.  Chat lines are read back by row id the same way, presence is
summed over the processes, and the bots of a game run where its lease is
(:meth:`Replicas._leased_bots`), which goes to a process its players are connected
to.  A process that holds a game nobody watches there and whose bots play elsewhere
lets it go on the next notice instead of replaying the other process's moves.

Without a shared cluster (the default, one process) none of this runs: the hooks
the other parts call are guarded by ``self.cluster.shared``.
"""

from __future__ import annotations

import asyncio
import logging
import time
import zlib
from collections.abc import Iterable

from erebus.server import trace
from erebus.server.base import ServiceBase
from erebus.server.cluster import CHECK_TICKS, TICK_S, wait_ended
from erebus.server.settings import Settings
from erebus.server.storage import DamagedRecord, LogEntry, Storage
from erebus.server.table import AUTOPILOT_ROWS, LiveGame, chat_message

log = logging.getLogger("erebus.server")
# A game held without a socket here, whose bots play elsewhere, and that nobody asked
# this process for in this long, leaves memory on the next notice (see _notice).
UNUSED_HERE_S = 10.0
# A process asked for a game this recently plays its bots even if its players'
# sockets are on another process (see _players_elsewhere).
ASKED_HERE_S = 3.0


def _slot(game_id: str) -> int:
    """The tick (modulo ``CHECK_TICKS``) on which the game's presence is looked at."""
    return zlib.crc32(game_id.encode()) % CHECK_TICKS


def replay_rows(live: LiveGame, rows: Iterable[LogEntry]) -> None:
    """Apply stored log rows to ``live`` in order, exactly as when the game is loaded
    (:class:`DamagedRecord` for a row the game cannot take)."""
    record, names = live.record, live.names
    for e in rows:
        try:
            if e.kind == "undo":
                if e.undoes is None:
                    raise ValueError("an undo row names no action")
                live.publish_undo(e.seat, e.undoes)
            elif e.kind in AUTOPILOT_ROWS:
                if not (0 <= e.seat < len(names) and record.seats[e.seat].kind == "human"):
                    raise ValueError(f"seat {e.seat} is no human seat")
                live.publish_autopilot(e.seat, e.kind, e.action)
            else:
                new = live.state.clone()
                events = new.apply(e.action)
                live.publish_action(e.seat, e.kind, new, events)
        except Exception as exc:  # whatever the engine raises on a row it cannot take
            reason = str(exc) or type(exc).__name__
            raise DamagedRecord(live.id, e.index, reason) from exc


class Replicas(ServiceBase):
    def __init__(self, storage: Storage, settings: Settings | None = None) -> None:
        super().__init__(storage, settings)
        self._pending: dict[str, set[str]] = {}
        self._syncers: dict[str, asyncio.Task[None]] = {}
        self._ticker: asyncio.Task[None] | None = None

    async def start_cluster(self) -> None:
        """Join the cluster (the app's start-up); nothing for a process on its own."""
        if not self.cluster.shared:
            return
        await self.cluster.start(self._notice, self._resync)
        self._ticker = asyncio.get_running_loop().create_task(self._tick())

    async def stop_cluster(self) -> None:
        if not self.cluster.shared:
            return
        tasks = [t for t in (self._ticker, *self._syncers.values()) if t is not None]
        for t in tasks:
            t.cancel()
        await wait_ended(tasks, 3.0)
        await self.cluster.close()

    # ------------------------------------------------------------ notices in

    def _notice(self, game_id: str, kind: str, data: dict[str, object]) -> None:
        """Another process committed a change of ``game_id`` (kind "log", "chat" or
        "presence"): catch up if this process holds the game."""
        live = self._games.get(game_id)
        if live is None:
            return
        if kind == "log" and self._unused_here(live):
            # Nobody here watches it and its bots play elsewhere: catching up would
            # replay every move of another process's table for nothing.  It leaves
            # memory, and is loaded from the database if someone asks for it here.
            self._forget(game_id)
            self.residency.forget(game_id)
            return
        if kind == "presence":
            joined = data.get("joined")
            if isinstance(joined, list) and self._merge_joined(live, joined):
                self._rearm(live)
        self._schedule(game_id, kind)

    @staticmethod
    def _merge_joined(live: LiveGame, seats: Iterable[object]) -> bool:
        """Take the human seats another process saw join; True if any was new here
        (the players are told)."""
        humans = {s.seat for s in live.record.seats if s.kind == "human"}
        new = {s for s in seats if isinstance(s, int) and s in humans} - live.joined
        if new:
            live.joined |= new
            live.notify(live.presence())
        return bool(new)

    def _unused_here(self, live: LiveGame) -> bool:
        """No socket of this process watches ``live``, no bot of it plays here, and
        nobody asked this process for it for ``UNUSED_HERE_S``."""
        return (
            self.residency.idle(live)
            and not any(n > 0 for n in live.local_conns().values())
            and not self.cluster.holds_lease(live.id)
            and self.residency.quiet_for(live, time.monotonic()) >= UNUSED_HERE_S
        )

    def _players_elsewhere(self, live: LiveGame) -> bool:
        """Every socket of ``live`` is on another process (and there is one), and
        nobody asked this process for it for ``ASKED_HERE_S`` (a player who acts
        over HTTP here, whatever sockets another process says it has, is here)."""
        return (
            any(live.remote_conns.values())
            and not any(n > 0 for n in live.local_conns().values())
            and self.residency.quiet_for(live, time.monotonic()) >= ASKED_HERE_S
        )

    def _held(self, game_id: str) -> None:
        """The game was just loaded: catch up on what was committed meanwhile (a
        notice that came while it loaded was not for a game held), and learn who is
        connected to the other processes."""
        for kind in ("log", "chat", "presence"):
            self._schedule(game_id, kind)

    def _resync(self) -> None:
        """After a gap in the notices: catch up on every game held, and say again
        who is connected here (a Redis that restarted has forgotten)."""
        for gid, live in list(self._games.items()):
            self._held(gid)
            if any(live.conns.values()):
                self._share_presence(live)

    def _schedule(self, game_id: str, kind: str) -> None:
        self._pending.setdefault(game_id, set()).add(kind)
        task = self._syncers.get(game_id)
        if task is None or task.done():
            loop = asyncio.get_running_loop()
            self._syncers[game_id] = loop.create_task(self._sync(game_id))

    async def _sync(self, game_id: str) -> None:
        """Work off the game's pending catch-ups (one task per game at a time)."""
        try:
            while kinds := self._pending.pop(game_id, None):
                live = self._games.get(game_id)
                if live is None:
                    return
                if "log" in kinds:
                    async with live.lock:
                        await self._catch_up_locked(live)
                if "chat" in kinds:
                    await self._catch_up_chat(live)
                if "presence" in kinds:
                    await self._refresh_presence(live)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("cluster: catching up on game %s failed", game_id)
        finally:
            if self._syncers.get(game_id) is asyncio.current_task():
                del self._syncers[game_id]

    # -------------------------------------------------------------- catch-up

    async def _catch_up_locked(self, live: LiveGame) -> bool:
        """Under ``live.lock``: apply the rows stored after ``live.version`` (and a new
        rematch); push and re-arm if anything changed.  True if it did."""
        t = trace.now() if trace.TRACER else None
        since = await self._log_since(live.id, live.version)
        rows, rematch = since.rows, since.rematch
        if trace.TRACER and t:  # the read's wall time, its waits included
            trace.TRACER.add("catchup", *t, live.id, f"v{live.version} +{len(rows)}")
        # A join's notice may have come while the game was loading here, and be lost.
        changed = self._merge_joined(live, since.joined)
        if rows:
            try:
                if rows[0].index != live.version:
                    raise DamagedRecord(live.id, live.version, "the log has a gap")
                replay_rows(live, rows)
            except DamagedRecord as exc:
                log.error("cluster: %s; the game is dropped from memory", exc)
                self._forget(live.id)
                return False
            changed = True
        if rematch is not None and rematch != live.rematch_id:
            live.rematch_id = rematch
            changed = True
        if changed:
            live.notify(None)
            self._rearm(live)
            self._kick_bots(live)
        return changed

    async def _catch_up_chat(self, live: LiveGame) -> None:
        """Push the chat lines stored after the newest one this process has, by row
        id: every process shows them in the same order, each once."""
        entries = await asyncio.to_thread(self.storage.chat_since, live.id, live.chat_id)
        for e in entries:
            if e.id is None or e.id <= live.chat_id:
                continue  # another catch-up got it first
            live.chat_id = e.id
            msg = chat_message(e)
            live.chat.append(msg)
            live.notify(msg)

    # -------------------------------------------------------------- presence

    def _share_presence(self, live: LiveGame) -> None:
        """This process's sockets of ``live`` (or its joined seats) changed."""
        self.cluster.share_presence(live.id, live.local_conns(), live.joined)

    async def _refresh_presence(self, live: LiveGame) -> None:
        remote = await self.cluster.presence(live.id)
        old = live.remote_conns
        if remote is None or remote == old:
            return
        before = live.presence_key()
        now = time.monotonic()
        for seat in set(old) | set(remote):
            n = live.conns.get(seat, 0) - old.get(seat, 0) + remote.get(seat, 0)
            live.conns[seat] = max(0, n)
            if not live.conns[seat]:
                live.last_seen[seat] = now
        live.remote_conns = dict(remote)
        if live.presence_key() != before:
            live.notify(live.presence())
            self._rearm(live)

    # ------------------------------------------------------------------ bots

    async def _leased_bots(self, live: LiveGame) -> None:
        """The bots' turns, if this process can take the game's lease (else the
        holder plays them; this process's tick looks again).

        The lease stays with this process between turns (the heartbeat renews it,
        :class:`~erebus.server.cluster.RedisCluster`): nothing here waits on Redis
        once it is held, and nothing on the way out awaits at all, so a bot task
        always ends (a renewal task that a cancellation could not stop once kept the
        task, and with it every later bot turn of the game, waiting for good)."""
        if self._players_elsewhere(live):
            # The bots play where the players are: that process stores and pushes
            # their moves itself, instead of both processes replaying every move
            # (measured: 4.2 ms of CPU per action then, 2.35 alone).  Its tick takes
            # the lease once this process has given it up.
            self.cluster.drop_lease(live.id)
            return
        kept = self.cluster.holds_lease(live.id)
        if not await self.cluster.acquire_lease(live.id):
            return
        try:
            for attempt in range(5):  # a lost race (409) ends a run: catch up, go on
                # A lease just taken: the previous holder's last moves may not have
                # reached this process yet.  One held since before: only this
                # process plays the bots, and a row written elsewhere meanwhile
                # (a person's hand-back) loses the bots their race, caught up below.
                if attempt or not kept:
                    async with live.lock:
                        await self._catch_up_locked(live)
                await self._run_bots(live)
                if (
                    self._closing
                    or self._games.get(live.id) is not live
                    or not live.is_bot_turn()
                    or self.residency.abandoned(live)
                ):
                    break
        finally:
            self.cluster.lease_done(live.id)

    async def _tick(self) -> None:
        """Bot turns nobody plays (a holder died), dead processes' sockets, and now
        and then a check that no game held is behind the database."""
        ticks = 0
        while not self._closing:
            await asyncio.sleep(TICK_S)
            ticks += 1
            try:
                for live in list(self._games.values()):
                    if live.is_bot_turn() and (live.bot_task is None or live.bot_task.done()):
                        self._kick_bots(live)
                    # Other processes' sockets (a dead process's are dropped): each
                    # game every CHECK_TICKS ticks, a tenth of them per tick, not a
                    # burst of two Redis reads per game every tick (which exhausted
                    # the connections with a thousand games).
                    if any(live.remote_conns.values()) and _slot(live.id) == ticks % CHECK_TICKS:
                        self._schedule(live.id, "presence")
                if ticks % CHECK_TICKS == 0:
                    await self._check_versions()
            except Exception:
                log.exception("cluster: the tick failed")

    async def _check_versions(self) -> None:
        """Catch up on every game held that the database has moved past: a notice
        lost between two processes that both stayed connected to Redis costs at
        most this delay.  One query per 500 games."""
        ids = [gid for gid, g in self._games.items() if not g.state.is_over]
        for i in range(0, len(ids), 500):
            chunk = ids[i : i + 500]
            stored = await asyncio.to_thread(self.storage.versions, chunk)
            for gid in chunk:
                live = self._games.get(gid)
                if live is not None and stored.get(gid, 0) > live.version:
                    log.warning("cluster: game %s was behind the database; caught up", gid)
                    self._schedule(gid, "log")
