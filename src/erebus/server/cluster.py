"""What the server processes of one deployment share: change notices, the bots'
lease, presence and rate limits.

:class:`Cluster` is one process on its own (today's server, the default): it shares
nothing and every call is a no-op, so the single-process path costs nothing extra.
:class:`RedisCluster` (``REDIS_URL``) is several ``erebus serve`` processes on one
PostgreSQL database:

* **Change notices.**  After every commit (an action, an undo, a takeover, a
  hand-back, a chat line, a rematch) the process publishes ``{game, kind}`` on one
  Redis channel.  A notice carries no game data: a process holding the game reads the
  rows it lacks from the database, from its own version on
  (:mod:`erebus.server.replicas`), so pushes stay in order and come once per socket
  however many notices arrive, late or twice.  A process whose subscription broke
  (Redis restarted, the network) catches up on every game it holds once it is back.
* **The bots' lease.**  One process at a time thinks for a game's bot seats: it holds
  ``lease:<game>`` (``SET NX PX``).  It keeps the lease while its bots play there
  (the heartbeat renews every lease held in one round trip, every ``TICK_S``), so a
  bot's turn costs no Redis round trip, and gives it up once no bot turn has used it
  for ``LEASE_IDLE_S`` (or the game leaves its memory).  A process that dies (even
  ``kill -9``) stops renewing; the lease expires after ``LEASE_MS`` and another
  process holding the game picks the bots up (its tick looks every ``TICK_S``).  The
  database's unique ``(game, index)`` is the last word either way: two writers never
  both commit one version.
* **Presence.**  Each process keeps the number of open WebSockets per seat it serves
  in a hash ``conns:<game>`` (field ``<process>|<seat>``) and says so with a notice;
  the others add them to their own.  A process's entries count while its
  ``alive:<process>`` key (renewed every tick, ``ALIVE_MS``) exists.
* **Rate limits and creation throttles**: one token bucket per key in Redis
  (:meth:`RedisCluster.take`), the same arithmetic as
  :class:`erebus.server.guard.TokenBuckets`.

When Redis is away, every process keeps serving its own sockets from the database:
actions still commit (one writer per version), but other processes' sockets see
them only when Redis is back (then they catch up), bots whose lease cannot be taken
wait, and rate limits fall back to each process's own buckets.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import os
import secrets
import socket
import time
from collections.abc import Callable
from typing import Any

from erebus.server.guard import TokenBuckets

log = logging.getLogger("erebus.server")

PREFIX = "erebus"
LEASE_MS = 4000  # the bots' lease lives this long unless renewed
RENEW_S = 1.0  # the holder renews it this often (with the heartbeat)
# A lease counts as ours without asking Redis until this long before it would expire
# (a heartbeat that comes late, clocks that differ by a little).
LEASE_MARGIN_S = 1.5
LEASE_IDLE_S = 3.0  # a lease no bot turn used for this long is given up
ELSEWHERE_S = 3.0  # a lease another process holds is not asked for again before this
ALIVE_MS = 5000  # a process's presence entries count while its alive key lives
TICK_S = 1.0  # heartbeat, orphaned bot turns, dead processes' presence
CHECK_TICKS = 10  # every this many ticks, compare the games held with the database
RETRY_S = (0.05, 0.2, 0.5, 1.0)  # pauses between attempts to reach Redis again
# After a failed command, requests (rate limits) and bot turns (the lease) stop asking
# Redis until the heartbeat reaches it again, at most this long: no request waits on
# a Redis that is away.
DOWN_S = 5.0
REDIS_CONNECTIONS = 256  # commands in flight to Redis at once, at most (more wait)

#: (game id, kind, data) of a notice another process published.
Notice = Callable[[str, str, dict[str, Any]], None]

_RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2])
end
return 0
"""
# Every lease this process holds, in one round trip: KEYS the leases, ARGV[1] this
# process, ARGV[2] the time to live.  Ours (or gone: Redis restarted empty): kept for
# another ARGV[2] ms, 1; another process's now: 0.
_RENEW_ALL = """
local out = {}
for i, key in ipairs(KEYS) do
  local v = redis.call('get', key)
  if v == ARGV[1] then
    redis.call('pexpire', key, ARGV[2])
    out[i] = 1
  elseif not v then
    redis.call('set', key, ARGV[1], 'PX', ARGV[2])
    out[i] = 1
  else
    out[i] = 0
  end
end
return out
"""
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1])
end
return 0
"""
_RELEASE_ALL = """
for _, key in ipairs(KEYS) do
  if redis.call('get', key) == ARGV[1] then
    redis.call('del', key)
  end
end
return 0
"""
# A token bucket: KEYS[1] holds "tokens when"; ARGV: rate, burst, ttl (ms); the time is
# Redis's own (one clock for every process).  Returns 0 if a token was taken, else the
# milliseconds until there is one.
_TAKE = """
local rate, burst = tonumber(ARGV[1]), tonumber(ARGV[2])
local t = redis.call('time')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local tokens, when = burst, now
local v = redis.call('get', KEYS[1])
if v then
  local sp = string.find(v, ' ')
  tokens, when = tonumber(string.sub(v, 1, sp - 1)), tonumber(string.sub(v, sp + 1))
end
tokens = math.min(burst, tokens + math.max(0, now - when) * rate)
local wait = 0
if tokens < 1 then
  wait = math.ceil((1 - tokens) / rate * 1000)
else
  tokens = tokens - 1
end
redis.call('set', KEYS[1], string.format('%.6f %.6f', tokens, now), 'PX', ARGV[3])
return wait
"""


class ClusterUnsupported(RuntimeError):
    """A cluster needs a database every process can reach (PostgreSQL)."""


class Cluster:
    """One server process on its own: nothing is shared (every method a no-op)."""

    shared = False
    me = "local"

    async def start(self, on_notice: Notice, on_resync: Callable[[], None]) -> None:
        """Start listening (``on_resync``: after a gap, catch up on every game)."""

    async def close(self) -> None:
        pass

    def changed(self, game_id: str, kind: str = "log", data: dict[str, Any] | None = None) -> None:
        """A change of ``game_id`` is committed: tell the other processes."""

    async def acquire_lease(self, game_id: str) -> bool:
        return True

    async def renew_lease(self, game_id: str) -> bool:
        return True

    async def release_lease(self, game_id: str) -> None:
        pass

    def holds_lease(self, game_id: str) -> bool:
        """The lease of ``game_id`` is surely this process's now (no round trip)."""
        return False

    def lease_done(self, game_id: str) -> None:
        """A bot turn that used the lease of ``game_id`` is over (no await: it is
        called on the way out of a bot task, even a cancelled one)."""

    def drop_lease(self, game_id: str) -> None:
        """The game left this process's memory: give its lease up soon."""

    def share_presence(self, game_id: str, local: dict[int, int], joined: set[int]) -> None:
        """This process's open WebSockets per seat of ``game_id`` changed."""

    async def presence(self, game_id: str) -> dict[int, int] | None:
        """The other live processes' open WebSockets per seat (None: unknown now)."""
        return {}

    async def take(self, bucket: str, key: str, rate: float, burst: float) -> float | None:
        """A token of a shared bucket: 0.0, else the seconds to wait; None: no
        shared buckets (the caller uses its own)."""
        return None


class RedisCluster(Cluster):
    """Several processes over one Redis (see the module's doc)."""

    shared = True

    def __init__(self, url: str, prefix: str = PREFIX) -> None:
        try:
            from redis.asyncio import BlockingConnectionPool, Redis
            from redis.backoff import NoBackoff
            from redis.retry import Retry
        except ImportError as exc:
            raise ClusterUnsupported(
                "REDIS_URL is set, but the redis package is missing: "
                "pip install -e '.[cluster]' (or unset REDIS_URL for one process)"
            ) from exc

        self.url = url
        self.prefix = prefix
        self.me = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        self.channel = f"{prefix}:changes"
        # Commands retry once (a blip); the subscription does not, so that a broken
        # one shows (and this process catches up once it is back).
        # A blocking pool: a burst of commands (hundreds of games at once) waits a
        # moment for a connection instead of failing (redis-py's default pool
        # raises "Too many connections" past 100, which left Redis alone for DOWN_S).
        pool = BlockingConnectionPool.from_url(
            url,
            max_connections=REDIS_CONNECTIONS,
            timeout=2.0,
            socket_connect_timeout=1,
            socket_timeout=2,
            retry=Retry(NoBackoff(), 1),
        )
        self.redis = Redis.from_pool(pool)  # (closes the pool with the client)
        self._down_until = 0.0  # see DOWN_S
        self._sub_redis = Redis.from_url(
            url, socket_connect_timeout=2, retry=Retry(NoBackoff(), 0), health_check_interval=5
        )
        self._renew = self.redis.register_script(_RENEW)
        self._release = self.redis.register_script(_RELEASE)
        self._take = self.redis.register_script(_TAKE)
        self._renew_all = self.redis.register_script(_RENEW_ALL)
        self._release_all = self.redis.register_script(_RELEASE_ALL)
        # The leases held: game -> the monotonic time until which it is surely ours
        # (see LEASE_MARGIN_S); the bot turns using each now, and when each was last
        # used.  The heartbeat renews them (:meth:`_renew_leases`).
        self._leases: dict[str, float] = {}
        self._lease_users: dict[str, int] = {}
        self._lease_used: dict[str, float] = {}
        self._elsewhere: dict[str, float] = {}  # game -> until when not to ask (held elsewhere)
        self._outbox: dict[tuple[str, str], dict[str, Any]] = {}
        self._presence: dict[str, tuple[dict[int, int], set[int]]] = {}
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._closing = False
        self._on_notice: Notice = lambda _g, _k, _d: None
        self._on_resync: Callable[[], None] = lambda: None
        self.connected = False  # the subscription is up (tests wait for it)
        self.up = asyncio.Event()

    def _key(self, *parts: str) -> str:
        return ":".join((self.prefix, *parts))

    # ---------------------------------------------------------------- lifecycle

    async def start(self, on_notice: Notice, on_resync: Callable[[], None]) -> None:
        self._on_notice, self._on_resync = on_notice, on_resync
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._listen(), name="erebus-cluster-listen"),
            loop.create_task(self._publish(), name="erebus-cluster-publish"),
            loop.create_task(self._heartbeat(), name="erebus-cluster-heartbeat"),
        ]
        # Not a condition of serving (the database is), but a process normally starts
        # with Redis up: give the subscription a moment.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.up.wait(), 5.0)

    async def close(self) -> None:
        self._closing = True
        self._wake.set()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._flush(), 2.0)
        for t in self._tasks:
            t.cancel()
        # Bounded: a cancellation can be lost inside a Redis command (seen with
        # redis-py 8.1 on Python 3.11); the loops also end on ``_closing``.
        await wait_ended(self._tasks, 3.0)
        with contextlib.suppress(Exception):
            await self.redis.delete(self._key("alive", self.me))
        if self._leases:  # the others need not wait for them to expire
            with contextlib.suppress(Exception):
                keys = [self._key("lease", g) for g in self._leases]
                await self._release_all(keys=keys, args=[self.me])
            self._leases.clear()
        for r in (self.redis, self._sub_redis):
            with contextlib.suppress(Exception):
                await r.aclose()

    # ------------------------------------------------------------------ notices

    def changed(self, game_id: str, kind: str = "log", data: dict[str, Any] | None = None) -> None:
        self._outbox[game_id, kind] = data or {}
        self._wake.set()

    async def _flush(self) -> None:
        """Publish what is waiting, oldest first, in one round trip (a pipeline) for
        all of it; on an error, keep it for the next attempt."""
        while self._outbox:
            batch = list(self._outbox.items())
            for (gid, kind), _data in batch:
                if kind == "presence":
                    await self._write_presence(gid)
            pipe = self.redis.pipeline(transaction=False)
            for (gid, kind), data in batch:
                pipe.publish(
                    self.channel, json.dumps({"g": gid, "k": kind, "p": self.me, "d": data})
                )
            await pipe.execute()
            for key, data in batch:
                # Only now: a newer notice for the same key may have replaced it meanwhile.
                if self._outbox.get(key) is data:
                    del self._outbox[key]

    async def _publish(self) -> None:
        failures = 0
        while not self._closing:
            await self._wake.wait()
            self._wake.clear()
            try:
                await self._flush()
                failures = 0
            except Exception as exc:  # Redis away: keep the notices, try again
                failures += 1
                if failures == 1:
                    log.warning("cluster: publishing failed (%s); retrying", exc)
                await asyncio.sleep(RETRY_S[min(failures, len(RETRY_S)) - 1])
                self._wake.set()

    async def _listen(self) -> None:
        failures = 0
        while not self._closing:
            pubsub = self._sub_redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self.channel)
                self._down_until = 0.0
                if failures or self.connected is False:
                    # Subscribed (again): whatever was missed is in the database.
                    self._on_resync()
                self.connected = True
                self.up.set()
                if failures:
                    log.warning("cluster: Redis is back; caught up")
                failures = 0
                while not self._closing:
                    msg = await pubsub.get_message(timeout=1.0)
                    if msg is not None:
                        self._dispatch(msg.get("data"))
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self.connected = False
                self.up.clear()
                failures += 1
                if failures == 1:
                    log.warning("cluster: lost the Redis subscription (%s); retrying", exc)
                await asyncio.sleep(RETRY_S[min(failures, len(RETRY_S)) - 1])
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]

    def _dispatch(self, raw: Any) -> None:
        try:
            msg = json.loads(raw)
            if msg.get("p") == self.me:
                return
            self._on_notice(str(msg["g"]), str(msg["k"]), dict(msg.get("d") or {}))
        except Exception:  # a bad notice must not end the subscription
            log.exception("cluster: a notice could not be handled: %r", raw)

    def _down(self) -> bool:
        return time.monotonic() < self._down_until

    def _failed(self, what: str, exc: Exception) -> None:
        if not self._down():
            log.warning("cluster: %s failed (%s); Redis left alone for a while", what, exc)
        self._down_until = time.monotonic() + DOWN_S

    async def _heartbeat(self) -> None:
        key = self._key("alive", self.me)
        while not self._closing:
            try:
                await self.redis.set(key, "1", px=ALIVE_MS)
                self._down_until = 0.0
            except Exception as exc:
                self._failed("the heartbeat", exc)
            try:
                await self._renew_leases()
            except Exception as exc:
                self._failed("renewing the bots' leases", exc)
            await asyncio.sleep(RENEW_S)

    # -------------------------------------------------------------------- lease

    def _hold(self, game_id: str, asked_at: float) -> None:
        """Redis said at ``asked_at`` (monotonic, before asking) that the lease is ours."""
        self._leases[game_id] = asked_at + LEASE_MS / 1000 - LEASE_MARGIN_S

    async def acquire_lease(self, game_id: str) -> bool:
        """The lease of ``game_id`` for one bot turn (end it with :meth:`lease_done`).
        A lease this process holds already costs no round trip."""
        now = time.monotonic()
        if self._leases.get(game_id, -1.0) > now:
            self._use(game_id)
            return True
        self._leases.pop(game_id, None)
        if self._down() or self._elsewhere.get(game_id, -1.0) > now:
            return False
        key = self._key("lease", game_id)
        try:  # one round trip: taken, or ours already (Redis kept it longer than we counted)
            (got,) = await self._renew_all(keys=[key], args=[self.me, LEASE_MS])
        except Exception as exc:
            self._failed("taking a bots' lease", exc)
            return False
        if not got:
            # Another process plays these bots: ask again only after a while (its
            # notices bring the moves; the tick looks again for a holder that died).
            self._elsewhere[game_id] = now + ELSEWHERE_S
            return False
        self._elsewhere.pop(game_id, None)
        self._hold(game_id, now)
        self._use(game_id)
        return True

    def holds_lease(self, game_id: str) -> bool:
        return self._leases.get(game_id, -1.0) > time.monotonic()

    def _use(self, game_id: str) -> None:
        self._lease_users[game_id] = self._lease_users.get(game_id, 0) + 1
        self._lease_used[game_id] = time.monotonic()

    def lease_done(self, game_id: str) -> None:
        n = self._lease_users.get(game_id, 0) - 1
        if n > 0:
            self._lease_users[game_id] = n
        else:
            self._lease_users.pop(game_id, None)
        self._lease_used[game_id] = time.monotonic()

    def drop_lease(self, game_id: str) -> None:
        if game_id in self._leases:
            self._lease_used[game_id] = -math.inf  # the next heartbeat gives it up

    async def _renew_leases(self) -> None:
        """The heartbeat's part: keep every lease a bot turn used lately (one round
        trip for all of them), give up the others."""
        now = time.monotonic()
        for g in [g for g, t in self._elsewhere.items() if t <= now]:
            del self._elsewhere[g]
        if not self._leases:
            return
        keep = [
            g
            for g in self._leases
            if self._lease_users.get(g) or now - self._lease_used.get(g, -math.inf) < LEASE_IDLE_S
        ]
        idle = [g for g in self._leases if g not in set(keep)]
        for g in idle:
            self._leases.pop(g, None)
            self._lease_used.pop(g, None)
        if idle:
            await self._release_all(keys=[self._key("lease", g) for g in idle], args=[self.me])
        if keep:
            keys = [self._key("lease", g) for g in keep]
            got = await self._renew_all(keys=keys, args=[self.me, LEASE_MS])
            for g, ours in zip(keep, got, strict=True):
                if not ours:
                    if self._leases.pop(g, None) is not None:
                        log.warning("cluster: lost the bots' lease of game %s", g)
                elif g in self._leases:  # (not given up meanwhile)
                    self._hold(g, now)

    async def renew_lease(self, game_id: str) -> bool:
        """Keep the lease; take it again if it is gone (Redis restarted empty).
        False: another process holds it now."""
        if self._down():
            return True  # unknown: play on (the database still takes one row per version)
        key = self._key("lease", game_id)
        now = time.monotonic()
        try:
            ok = bool(await self._renew(keys=[key], args=[self.me, LEASE_MS]))
            if not ok:
                ok = bool(await self.redis.set(key, self.me, nx=True, px=LEASE_MS))
        except Exception as exc:
            self._failed("renewing a bots' lease", exc)
            return True
        if ok:
            self._hold(game_id, now)
        else:
            self._leases.pop(game_id, None)
        return ok

    async def release_lease(self, game_id: str) -> None:
        self._leases.pop(game_id, None)
        self._lease_users.pop(game_id, None)
        self._lease_used.pop(game_id, None)
        with contextlib.suppress(Exception):
            await self._release(keys=[self._key("lease", game_id)], args=[self.me])

    # ----------------------------------------------------------------- presence

    def share_presence(self, game_id: str, local: dict[int, int], joined: set[int]) -> None:
        self._presence[game_id] = (dict(local), set(joined))
        self.changed(game_id, "presence", {"joined": sorted(joined)})

    async def _write_presence(self, game_id: str) -> None:
        got = self._presence.pop(game_id, None)
        if got is None:
            return
        local, _joined = got
        key = self._key("conns", game_id)
        pipe = self.redis.pipeline(transaction=False)
        for seat, n in local.items():
            field = f"{self.me}|{seat}"
            if n > 0:
                pipe.hset(key, field, n)
            else:
                pipe.hdel(key, field)
        pipe.expire(key, 86400)
        try:
            await pipe.execute()
        except BaseException:
            self._presence.setdefault(game_id, got)  # again with the next attempt
            raise

    async def presence(self, game_id: str) -> dict[int, int] | None:
        if self._down():
            return None
        try:
            return await self._presence_of(game_id)
        except Exception as exc:  # Redis away: as it was, until it is back
            self._failed("reading presence", exc)
            return None

    async def _presence_of(self, game_id: str) -> dict[int, int]:
        raw = await self.redis.hgetall(self._key("conns", game_id))
        entries: list[tuple[str, int, int]] = []
        for field, count in raw.items():
            proc, _, where = _text(field).rpartition("|")
            if proc != self.me and where.isdigit():
                entries.append((proc, int(where), int(_text(count))))
        procs = sorted({p for p, _, _ in entries})
        if not procs:
            return {}
        alive = await self.redis.mget([self._key("alive", p) for p in procs])
        live_procs = {p for p, a in zip(procs, alive, strict=True) if a is not None}
        out: dict[int, int] = {}
        for proc, s, n in entries:
            if proc in live_procs and n > 0:
                out[s] = out.get(s, 0) + n
        return out

    # ------------------------------------------------------------- rate limits

    async def take(self, bucket: str, key: str, rate: float, burst: float) -> float | None:
        if self._down():
            return None
        ttl = int(max(1.0, burst / rate) * 1000) + 1000
        try:
            wait = await self._take(
                keys=[self._key("bucket", bucket, key)],
                args=[rate, max(1.0, burst), ttl],
            )
        except Exception as exc:  # Redis away: this process's own buckets meanwhile
            self._failed("a shared rate limit", exc)
            return None
        return float(wait) / 1000.0


class SharedBuckets(TokenBuckets):
    """Token buckets kept in the cluster's Redis (one budget per client address for
    every process), this process's own while Redis is away."""

    def __init__(self, cluster: Cluster, name: str, rate: float, burst: float) -> None:
        super().__init__(rate, burst)
        self.cluster = cluster
        self.name = name
        self.shared = cluster.shared

    async def take_async(self, key: str) -> float:
        """:meth:`TokenBuckets.take`, shared: 0.0 if there was a token, else the wait."""
        if self.rate <= 0:
            return 0.0
        wait = await self.cluster.take(self.name, key, self.rate, self.burst)
        return self.take(key) if wait is None else wait


async def wait_ended(tasks: list[asyncio.Task[None]], timeout: float) -> None:
    """Wait for cancelled ``tasks`` to end, at most ``timeout`` s (never forever)."""
    if tasks:
        await asyncio.wait(tasks, timeout=timeout)
    for t in tasks:
        if t.done() and not t.cancelled():
            t.exception()  # retrieved: no "never retrieved" warning


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def make_cluster(redis_url: str | None) -> Cluster:
    """The cluster of ``REDIS_URL`` (None: this process alone)."""
    return RedisCluster(redis_url) if redis_url else Cluster()
