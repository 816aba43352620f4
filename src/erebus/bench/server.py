"""``erebus bench server``: load on one real web server, next to a bare echo.

It starts ONE ``erebus serve`` process (uvicorn, SQLite in a temporary
directory, loopback only) and plays ``games`` live 2-seat games at once over
WebSocket, a mix of both games (``ice_share``: the share of Through Ice and Snow,
half by default, spread evenly among the Northwest Passage games; p50/p99 are also
reported per game): seat 0 is a scripted client that picks a random legal action from
each pushed ``legal_actions`` (rarely passing or ending its turn, so games are
not trivially short; at most ``actions`` actions per game), seat 1 an easy bot
(random: the load is the server, not the search).

Pacing.  A person looks at the board before every action, so each scripted
client *thinks* before it acts: a delay drawn uniformly from 0.5×–1.5× of
``think_ms`` (default 1,000 ms, so 0.5–1.5 s), counted from the pushed state
that gave it the move, and never less than ``MIN_INTERVAL_S`` (60 ms) after its
previous send (the server allows 20 messages a second per connection).  200
games then offer about 200 client actions a second plus the bot's replies — more
than 200 real tables would (people take several seconds per action), and well
under what one server process can do.  ``think_ms=0`` is the old pacing (an
action every 60 ms per client: 200 clients offer ~3,300 actions/s, several
times the server's capacity, so the latencies are those of a saturated queue).

Phases:

1. *paced, server and echo in turns* — the games above, started together once
   every client has connected and got its first state (:class:`StartLine`), in
   ``BLOCKS`` blocks (more if the games need longer).  After each block the
   clients stop (:class:`Gate`; a client that was thinking thinks afresh when its
   game resumes), the bots finish their turns, and the same block is replayed
   against a bare WebSocket echo (Starlette under uvicorn, the same stack minus
   the game): one connection per game, the same think delays (the very delays
   drawn, replayed), requests of the recorded sizes, each answered with the very
   state message that acknowledged that action, followed by the states the game
   pushed after it before the client's next action (the bot's moves, each after the
   gap it came after; all handed to the echo before the block), so both servers
   compress, send and have parsed the same bytes and only the game's own work is
   missing — and both are measured under the same
   conditions of a shared machine, block by block.  Measured: action round trip
   (``send {"type": "action", "version": v}`` → the pushed state whose version
   is ``> v``; for the echo, request → reply) as p50/p99, acknowledged
   actions/s, errors (error messages, refused or dropped connections, timeouts)
   and lost actions (after the phase each game is read back, ``GET
   /api/games/{id}`` and its stored action log: its version must equal the last
   version the client saw acknowledged, and its stored seat-0 actions the
   client's acknowledged count).  The figure of merit is ``p99 / p99_echo``
   (target ≤ 3×).
2. *saturation* — ``games`` new games with no think time (only the 60 ms
   spacing), so the clients offer more than the server can do: the actions per
   second it sustains there is its throughput ceiling, reported next to the
   paced figures (its latencies are queueing time; errors and lost actions count
   as in phase 1).  ``saturation=False`` skips it.

The clients run in this process (on uvloop where installed, with orjson, their
garbage collector off while a block is timed: :func:`collector_between_blocks`), on
the same machine as both servers.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import math
import os
import random
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
from rich.console import Console
from rich.table import Table
from websockets.asyncio.client import connect

HOST = "127.0.0.1"
BLOCKS = 8  # phase 1 alternates between the server and the echo this many times
SETTLE_S = 0.3  # after a block of the games, before the echo's turn
TARGET_RATIO = 3.0
WS_RATE = 20  # the server's per-connection limit (erebus.server.app.WS_RATE)
MIN_INTERVAL_S = 1.2 / WS_RATE  # pacing per connection, safely under that limit
THINK_MS = 1000.0  # mean think time before each scripted action
THINK_SPREAD = 0.5  # think times are uniform in (1 ± THINK_SPREAD) × the mean
MESSAGE_TIMEOUT_S = 30.0
STARTUP_TIMEOUT_S = 90.0  # a ceiling only: on a loaded 2-core machine start-up once took > 30 s
MAX_MESSAGE = 4 * 1024 * 1024
ICE_SHARE = 0.5  # the share of Through Ice and Snow among the games
GAME_KINDS = ("northwest", "iceandsnow")
ENV_TRACE = "EREBUS_TRACE"  # erebus.server.trace.ENV: the server's trace file


def game_of(i: int, ice_share: float) -> str:
    """The game of the ``i``-th game of a run: Ice and Snow for a share ``ice_share`` of
    them, spread evenly (with one half, every second game)."""
    return "iceandsnow" if int((i + 1) * ice_share) > int(i * ice_share) else "northwest"


# ------------------------------------------------------------------ helpers


def _client_loop() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """The clients' event loop: uvloop where it is installed (as the servers under
    uvicorn use it), which halves the load generator's own cost per message."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def _dumps(obj: Any) -> str:
    """The clients' JSON: orjson, so that the load generator, which shares the
    machine with the servers, spends as little of it as it can (both phases alike)."""
    return orjson.dumps(obj).decode()


@contextlib.contextmanager
def collector_between_blocks() -> Iterator[None]:
    """The garbage collector of the clients' process stays off while it measures
    (phase 1) and collects only when told to (:func:`collect_between_blocks`, while
    neither server is being timed).

    Why: the clients parse every pushed state (thousands of dicts and lists a
    second) and keep each round trip's record for the echo's replay, so their
    collector ran every few milliseconds and its older passes walked the growing
    record: measured on a 200-game run (2026-12-02), 488 passes, 1.46 s in all, 68 of
    them over 5 ms, the longest 116 ms.  Each such pause held back the round trips of
    both servers that were in flight then, and showed in the p99 of the server (the
    bench's trace saw idle server loops for 30 ms while a client waited for an
    answer the server had sent).  Reference counting still frees what the clients
    drop at once; only cyclic garbage waits for the next block."""
    was_enabled = gc.isenabled()
    collect_between_blocks()
    gc.disable()
    try:
        yield
    finally:
        gc.unfreeze()
        if was_enabled:
            gc.enable()


def collect_between_blocks() -> None:
    """A full collection, then the survivors frozen (no later pass walks them): the
    clients' process between two timed blocks (:func:`collector_between_blocks`)."""
    gc.collect()
    gc.freeze()


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of a process so far (Linux ``/proc``; ``None`` elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (``q`` in 0..100); NaN for no values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, math.ceil(q / 100 * len(ordered)) - 1))
    return ordered[k]


def choose_action(rng: random.Random, legal: list[dict[str, Any]]) -> dict[str, Any]:
    """Uniform over the actions that neither pass nor end the turn; those one time in ten."""
    stop = [a for a in legal if a.get("type") in ("pass", "end_turn")]
    other = [a for a in legal if a.get("type") not in ("pass", "end_turn")]
    if other and (not stop or rng.random() >= 0.1):
        return rng.choice(other)
    return rng.choice(stop or legal)


class Process:
    """A child process on a loopback port, its output in a log file; stopped on exit."""

    def __init__(
        self, args: list[str], port: int, log: Path, env: dict[str, str] | None = None
    ) -> None:
        self.port = port
        self.log = log
        self._fh = log.open("wb")
        self.proc = subprocess.Popen(args, stdout=self._fh, stderr=subprocess.STDOUT, env=env)

    def wait_ready(self, path: str, timeout: float = STARTUP_TIMEOUT_S) -> None:
        deadline = time.monotonic() + timeout
        url = f"http://{HOST}:{self.port}{path}"
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.log.name} exited early:\n{self.tail()}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(url, timeout=1.0).status_code < 500:
                    return
            time.sleep(0.1)
        raise RuntimeError(f"{self.log.name} not ready after {timeout:.0f} s:\n{self.tail()}")

    def tail(self, n: int = 20) -> str:
        with contextlib.suppress(OSError):
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-n:])
        return ""

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=5)
        self._fh.close()


# ------------------------------------------------------------- echo server


def echo_app() -> Any:
    """A bare Starlette WebSocket echo: parse the JSON request and answer it with
    ``replies[request["reply"]]``, the states recorded in phase 1, which the bench
    hands over before each block (``POST /replies``, a JSON list; the answer gives
    the number of the first one)."""
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse, PlainTextResponse
    from starlette.routing import Route, WebSocketRoute
    from starlette.websockets import WebSocket, WebSocketDisconnect

    replies: list[str] = []

    async def echo(ws: WebSocket) -> None:
        await ws.accept()
        try:
            while True:
                data = json.loads(await ws.receive_text())
                first = int(data["reply"])
                await ws.send_text(replies[first])
                # The states the game pushed after that answer and before the client's
                # next action (the bot's moves), each after the gap it came after.
                for k, gap in enumerate(data.get("more") or ()):
                    await asyncio.sleep(float(gap))
                    await ws.send_text(replies[first + 1 + k])
        except WebSocketDisconnect:
            return

    async def add_replies(request: Request) -> JSONResponse:
        first = len(replies)
        replies.extend(str(r) for r in await request.json())
        return JSONResponse({"first": first})

    async def health(_request: Request) -> PlainTextResponse:
        return PlainTextResponse("ok")

    return Starlette(
        routes=[
            WebSocketRoute("/ws/echo", echo),
            Route("/replies", add_replies, methods=["POST"]),
            Route("/health", health),
        ]
    )


def run_echo_server(port: int) -> None:
    """The echo under uvicorn with the server's own WebSocket protocol and
    compression (:mod:`erebus.server.deflate`): the same transport work."""
    import uvicorn

    from erebus.server.deflate import DeflateWebSocketProtocol

    uvicorn.run(
        echo_app(),
        host=HOST,
        port=port,
        ws_max_size=64 * 1024,
        ws=DeflateWebSocketProtocol,
        log_level="warning",
    )


# ------------------------------------------------------------------ clients


@dataclass(frozen=True)
class Pacing:
    """When a scripted client acts: ``think_ms`` (mean; uniform in ± ``spread`` of
    it) after the state that gave it the move, and at least ``min_interval`` s
    after its previous send."""

    think_ms: float = THINK_MS
    spread: float = THINK_SPREAD
    min_interval: float = MIN_INTERVAL_S

    def think(self, rng: random.Random) -> float:
        """One think time, in seconds."""
        if self.think_ms <= 0:
            return 0.0
        return self.think_ms / 1e3 * rng.uniform(1 - self.spread, 1 + self.spread)

    def describe(self) -> str:
        gap = f"≥ {self.min_interval * 1e3:.0f} ms between sends"
        if self.think_ms <= 0:
            return f"no think time, {gap}"
        lo = self.think_ms * (1 - self.spread) / 1e3
        hi = self.think_ms * (1 + self.spread) / 1e3
        return f"think {lo:.2g}–{hi:.2g} s per action, {gap}"


async def _pause(since: float, think: float, last_send: float, pacing: Pacing) -> None:
    """Sleep until ``think`` s after ``since`` and ``min_interval`` after ``last_send``."""
    wait = max(since + think, last_send + pacing.min_interval) - time.monotonic()
    if wait > 0:
        await asyncio.sleep(wait)


@dataclass
class GameResult:
    id: str
    acked: int = 0  # our actions acknowledged by a pushed state
    observed: int = 0  # the highest version the client saw (ours and the bot's actions)
    over: bool = False
    clean: bool = False  # stopped on its own turn or at the game's end (nothing in flight)
    errors: list[str] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    sizes: list[tuple[int, int]] = field(default_factory=list)  # (sent, received) bytes
    replies: list[str] = field(default_factory=list)  # the state that acknowledged each
    # per round trip, the states pushed after its answer and before the next action
    # (the bot's moves): (seconds after the previous message, the message)
    followups: list[list[tuple[float, str]]] = field(default_factory=list)
    thinks: list[float] = field(default_factory=list)  # the think time before each
    blocks: list[int] = field(default_factory=list)  # phase 1's block of each round trip
    # (version acted on, sent, received; time.perf_counter, i.e. CLOCK_MONOTONIC on
    # Linux, the clock of the server's trace) of each round trip
    trips: list[tuple[int, float, float]] = field(default_factory=list)


class StartLine:
    """The clients of a phase start together: each connects (and gets its first
    state) and waits for the others, and only then does anyone start thinking.  The
    round trips measured are then those of games in play, not ones that queue behind
    ``games`` WebSocket handshakes arriving in the same second (a real server sees
    its players arrive spread out; the echo's handshakes are almost free)."""

    def __init__(self, clients: int) -> None:
        self.waiting = clients
        self.go = asyncio.Event()

    def arrive(self) -> None:
        """One client is ready (or gave up: it must not hold the others back)."""
        self.waiting -= 1
        if self.waiting <= 0:
            self.go.set()

    async def wait(self, timeout: float) -> float:
        """Arrive and wait for everyone; returns the start time (monotonic)."""
        self.arrive()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.go.wait(), timeout)
        return time.monotonic()


class Gate:
    """Turns between the server and the echo (phase 1).  The game clients act
    only while the gate is open; one that finished thinking while it was shut
    waits, then thinks afresh from the moment it opens (so a block does not start
    with every client sending at once).  ``in_flight`` counts the actions sent and
    not yet answered: a block ends when none is left."""

    def __init__(self) -> None:
        self.open = asyncio.Event()
        self.block = 0
        self.opened_at = 0.0
        self.in_flight = 0

    def start(self, block: int) -> None:
        self.block = block
        self.opened_at = time.monotonic()
        self.open.set()

    def stop(self) -> None:
        self.open.clear()


async def play_game(
    port: int,
    game_id: str,
    token: str,
    cap: int,
    rng: random.Random,
    deadline: float,
    pacing: Pacing,
    line: StartLine | None = None,
    gate: Gate | None = None,
    res: GameResult | None = None,
) -> GameResult:
    res = res or GameResult(game_id)
    uri = f"ws://{HOST}:{port}/ws/games/{game_id}?token={token}"
    waiting = line is not None
    # (sent at, version, bytes, block, think before it)
    pending: tuple[float, int, int, int, float] | None = None
    after_ack: float | None = None  # since the last answer, while the next send waits
    try:
        async with connect(
            uri, max_size=MAX_MESSAGE, open_timeout=MESSAGE_TIMEOUT_S, ping_interval=None
        ) as ws:
            last_sent_version = -1
            last_send = 0.0
            while True:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    res.errors.append("time limit")
                    break
                try:
                    raw = await asyncio.wait_for(
                        ws.recv(), timeout=min(remaining, MESSAGE_TIMEOUT_S)
                    )
                except TimeoutError:
                    what = f"the answer to v{pending[1]}" if pending else "the bot's move"
                    res.errors.append(
                        f"timeout waiting for a state (game {game_id}: {what}; "
                        f"last seen v{res.observed})"
                    )
                    break
                received = time.perf_counter()
                arrived = time.monotonic()
                msg = orjson.loads(raw)
                if msg.get("type") == "error":
                    res.errors.append(f"{msg.get('status')}: {msg.get('message')}")
                    break
                if msg.get("type") != "state":
                    continue
                if line is not None and waiting:
                    waiting = False
                    arrived = await line.wait(max(0.0, deadline - time.monotonic()))
                version = int(msg["version"])
                res.observed = max(res.observed, version)
                if pending is None and after_ack is not None:
                    res.followups[-1].append((received - after_ack, str(raw)))
                    after_ack = received
                if pending is not None and version > pending[1]:
                    res.latencies.append(received - pending[0])
                    res.sizes.append((pending[2], len(raw)))
                    res.replies.append(str(raw))
                    res.followups.append([])
                    after_ack = received
                    res.blocks.append(pending[3])
                    res.thinks.append(pending[4])
                    res.trips.append((pending[1], pending[0], received))
                    res.acked += 1
                    pending = None
                    if gate is not None:
                        gate.in_flight -= 1
                if pending is not None:
                    continue
                if msg.get("is_over"):
                    res.over = res.clean = True
                    break
                legal = msg.get("legal_actions") or []
                if not legal or version <= last_sent_version:
                    continue  # the bot's turn, or a repeat of a state already acted on
                if res.acked >= cap:
                    res.clean = True
                    break
                think = pacing.think(rng)
                await _pause(arrived, think, last_send, pacing)
                while gate is not None and not gate.open.is_set():
                    await gate.open.wait()
                    think = pacing.think(rng)
                    await _pause(gate.opened_at, think, last_send, pacing)
                text = _dumps(
                    {"type": "action", "version": version, "action": choose_action(rng, legal)}
                )
                last_send = time.monotonic()
                block = gate.block if gate else 0
                pending = (time.perf_counter(), version, len(text), block, think)
                if gate is not None:
                    gate.in_flight += 1
                last_sent_version = version
                after_ack = None
                await ws.send(text)
    except Exception as exc:  # a refused, dropped or malformed connection
        res.errors.append(f"{type(exc).__name__}: {exc}")
    finally:
        if line is not None and waiting:
            line.arrive()
        if gate is not None and pending is not None:
            gate.in_flight -= 1  # never answered (an error above says why)
    return res


async def echo_client(
    port: int,
    trips: list[tuple[int, float, str, list[tuple[float, str]]]],
    first: int,
    deadline: float,
    pacing: Pacing,
    line: StartLine | None = None,
) -> tuple[list[float], list[str]]:
    """Replay one game's round trips of a block against the echo: ``trips`` holds,
    per round trip, the action message's size, the think time before it (counted
    from the last message of the previous round trip, as from the pushed state that
    gave the move; the first from the start), the state that answered it and the
    states pushed after it (the bot's moves, with their gaps), which are numbers
    ``first``, ``first + 1``, … of the echo's replies; the client parses each as it
    parsed the states.  The latency is that of the answer, as for the server."""
    latencies: list[float] = []
    errors: list[str] = []
    waiting = line is not None
    try:
        async with connect(
            f"ws://{HOST}:{port}/ws/echo",
            max_size=MAX_MESSAGE,
            open_timeout=MESSAGE_TIMEOUT_S,
            ping_interval=None,
        ) as ws:
            last_send = 0.0
            since = time.monotonic()
            if line is not None:
                waiting = False
                since = await line.wait(max(0.0, deadline - time.monotonic()))
            index = first
            for seq, (sent, think, expected, more) in enumerate(trips):
                await _pause(since, think, last_send, pacing)
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    errors.append("time limit")
                    break
                msg: dict[str, Any] = {
                    "type": "echo",
                    "seq": seq,
                    "reply": index,
                    "more": [round(gap, 6) for gap, _ in more],
                    "pad": "",
                }
                index += 1 + len(more)
                msg["pad"] = "x" * max(0, sent - len(_dumps(msg)))
                text = _dumps(msg)
                last_send = time.monotonic()
                start = time.perf_counter()
                await ws.send(text)
                try:
                    raw = await asyncio.wait_for(
                        ws.recv(), timeout=min(remaining, MESSAGE_TIMEOUT_S)
                    )
                except TimeoutError:
                    errors.append("timeout waiting for the echo")
                    break
                latencies.append(time.perf_counter() - start)
                since = time.monotonic()
                orjson.loads(raw)
                if raw != expected:
                    errors.append("echo out of order")
                    break
                for _, pushed in more:
                    try:
                        raw = await asyncio.wait_for(ws.recv(), timeout=MESSAGE_TIMEOUT_S)
                    except TimeoutError:
                        errors.append("timeout waiting for the echo's push")
                        return latencies, errors
                    since = time.monotonic()
                    orjson.loads(raw)
                    if raw != pushed:
                        errors.append("echo out of order")
                        return latencies, errors
    except Exception as exc:
        errors.append(f"{type(exc).__name__}: {exc}")
    finally:
        if line is not None and waiting:
            line.arrive()
    return latencies, errors


# --------------------------------------------------------------------- run


async def _create_games(
    port: int, games: int, seed: int, ice_share: float = ICE_SHARE
) -> list[dict[str, Any]]:
    """The games of a phase (each answer of ``POST /api/games`` with its ``"game"``)."""
    sem = asyncio.Semaphore(16)
    body = {"players": 2, "seats": [{"kind": "human"}, {"kind": "bot", "level": "easy"}]}
    async with httpx.AsyncClient(base_url=f"http://{HOST}:{port}", timeout=30.0) as client:

        async def one(i: int) -> dict[str, Any]:
            async with sem:
                game = game_of(i, ice_share)
                r = await client.post("/api/games", json={**body, "game": game, "seed": seed + i})
                r.raise_for_status()
                out: dict[str, Any] = {**r.json(), "game": game}
                return out

        return list(await asyncio.gather(*(one(i) for i in range(games))))


async def _read_back(port: int, ids: list[str]) -> dict[str, int]:
    sem = asyncio.Semaphore(16)
    async with httpx.AsyncClient(base_url=f"http://{HOST}:{port}", timeout=30.0) as client:

        async def one(gid: str) -> tuple[str, int]:
            async with sem:
                r = await client.get(f"/api/games/{gid}")
                r.raise_for_status()
                return gid, int(r.json()["version"])

        return dict(await asyncio.gather(*(one(g) for g in ids)))


def _stored_human_actions(db_path: Path | None) -> dict[str, int] | None:
    """Seat-0 actions per game in the SQLite log (``None``: not a SQLite file we know).
    The autopilot's takeover and hand-back rows are no actions of the client's."""
    if db_path is None or not db_path.exists():
        return None
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, timeout=30)
    try:
        rows = conn.execute(
            "SELECT game_id, COUNT(*) FROM actions WHERE seat = 0 "
            "AND kind NOT IN ('takeover', 'handback') GROUP BY game_id"
        ).fetchall()
    finally:
        conn.close()
    return {str(g): int(n) for g, n in rows}


@dataclass
class Phase:
    """One batch of games played at one pacing, checked against the stored log."""

    results: list[GameResult]
    elapsed: float
    server_cpu: float  # cores busy in the server's main process while playing
    versions: dict[str, int]  # each game's version as read back
    lost: int
    extra: int  # stored actions the client never saw acknowledged (after a clean stop)
    log_checked: bool
    kinds: dict[str, str] = field(default_factory=dict)  # game id -> which game

    def latencies_of(self, game: str) -> list[float]:
        return [x for r in self.results if self.kinds.get(r.id) == game for x in r.latencies]

    @property
    def latencies(self) -> list[float]:
        return [x for r in self.results for x in r.latencies]

    @property
    def errors(self) -> list[str]:
        return [e for r in self.results for e in r.errors]

    @property
    def acked(self) -> int:
        return sum(r.acked for r in self.results)

    @property
    def all_actions(self) -> int:
        return sum(self.versions.values())


@dataclass
class EchoSide:
    """The echo's turns in phase 1: after each block of the games, the same
    clients' round trips of that block, replayed against the echo."""

    port: int
    pacing: Pacing
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    elapsed: float = 0.0
    blocks: int = 0
    pushes: int = 0  # the bot's states replayed after the answers

    async def replay(self, results: list[GameResult], block: int, deadline: float) -> None:
        trips = [
            [
                (sent, think, reply, more)
                for (sent, _), think, reply, more, b in zip(
                    r.sizes, r.thinks, r.replies, r.followups, r.blocks, strict=True
                )
                if b == block
            ]
            for r in results
        ]
        trips = [t for t in trips if t]
        if not trips:
            return
        self.blocks += 1
        self.pushes += sum(len(more) for t in trips for *_, more in t)
        async with httpx.AsyncClient() as client:
            answer = await client.post(
                f"http://{HOST}:{self.port}/replies",
                json=[
                    m
                    for t in trips
                    for _, _, reply, more in t
                    for m in (reply, *(x for _, x in more))
                ],
                timeout=MESSAGE_TIMEOUT_S,
            )
        first = int(answer.json()["first"])
        firsts = []
        for t in trips:
            firsts.append(first)
            first += sum(1 + len(more) for *_, more in t)
        line = StartLine(len(trips))
        runs = asyncio.gather(
            *(
                echo_client(self.port, t, f, deadline, self.pacing, line)
                for t, f in zip(trips, firsts, strict=True)
            )
        )
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(line.go.wait()), MESSAGE_TIMEOUT_S)
        start = time.perf_counter()
        for lat, errs in await runs:
            self.latencies += lat
            self.errors += errs
        self.elapsed += time.perf_counter() - start


async def _play_phase(
    server_pid: int,
    port: int,
    games: int,
    actions: int,
    seed: int,
    time_limit: float,
    pacing: Pacing,
    db_path: Path | None,
    echo: EchoSide | None = None,
    ice_share: float = ICE_SHARE,
    # --processes N (erebus.bench.cluster_setup): the servers' ports and pids, and
    # the stored log's seat-0 actions per game (PostgreSQL); None: one process.
    ports: list[int] | None = None,
    pids: list[int] | None = None,
    stored: Callable[[], dict[str, int] | None] | None = None,
    routing: str = "game",
) -> Phase:
    """Play ``games`` games at ``pacing``; with ``echo``, in blocks that alternate
    with the echo's replay of each block (``BLOCKS`` of them, more if the games take
    longer), so that both servers are measured under the same conditions of the
    machine, whatever else it does meanwhile."""
    # --- --processes N: clients spread over the processes (cluster_setup)
    if ports is not None:
        from erebus.bench.cluster_setup import cpu_total, create_spread, read_back_spread

        created = await create_spread(ports, games, seed, ice_share, routing)
    else:
        created = await _create_games(port, games, seed, ice_share)
    rng = random.Random(seed)
    cpu_before = cpu_seconds(server_pid) if pids is None else cpu_total(pids)
    # --- end --processes N
    start = time.perf_counter()
    deadline = time.monotonic() + time_limit
    line = StartLine(len(created))
    gate = Gate() if echo is not None else None
    results = [GameResult(g["id"]) for g in created]
    tasks = [
        asyncio.ensure_future(
            play_game(
                int(g.get("ws_port", port)),  # --processes N: the seat's process
                g["id"],
                g["seats"][0]["token"],
                actions,
                random.Random(rng.getrandbits(32)),
                deadline,
                pacing,
                line,
                gate,
                res,
            )
        )
        for g, res in zip(created, results, strict=True)
    ]
    busy = 0.0  # seconds the games were playing (the gate open)
    if echo is None or gate is None:
        await asyncio.gather(*tasks)
        busy = time.perf_counter() - start
    else:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(line.go.wait()), MESSAGE_TIMEOUT_S)
        block_s = max(1.0, actions * pacing.think_ms / 1e3 / BLOCKS)
        block = 0
        with collector_between_blocks():
            while True:
                gate.start(block)
                opened = time.perf_counter()
                _, running = await asyncio.wait(tasks, timeout=block_s)
                gate.stop()
                while gate.in_flight > 0 and time.monotonic() < deadline:
                    await asyncio.sleep(0.005)
                busy += time.perf_counter() - opened
                collect_between_blocks()
                await asyncio.sleep(SETTLE_S)  # the bots finish the turns they began
                await echo.replay(results, block, deadline)
                collect_between_blocks()
                if not running or time.monotonic() >= deadline:
                    break
                block += 1
        gate.start(block + 1)
        await asyncio.gather(*tasks)
    cpu_after = cpu_seconds(server_pid) if pids is None else cpu_total(pids)
    server_cpu = (
        (cpu_after - cpu_before) / busy
        if cpu_before is not None and cpu_after is not None and busy > 0
        else float("nan")
    )
    # Read back: a game that stopped on its own turn (or is over) is at rest.
    await asyncio.sleep(0.2)
    # --- --processes N: read back from each seat's process, the log from PostgreSQL
    if ports is not None:
        versions = await read_back_spread(created)
    else:
        versions = await _read_back(port, [r.id for r in results])
    stored_actions = _stored_human_actions(db_path) if stored is None else stored()
    # --- end --processes N
    lost = extra = 0
    for r in results:
        lost += max(0, r.observed - versions[r.id])
        if r.clean:
            extra += max(0, versions[r.id] - r.observed)
        if stored_actions is not None:
            lost += max(0, r.acked - stored_actions.get(r.id, 0))
    kinds = {g["id"]: g["game"] for g in created}
    checked = stored_actions is not None
    return Phase(results, busy, server_cpu, versions, lost, extra, checked, kinds)


def _rate(n: int, elapsed: float) -> float:
    return n / elapsed if elapsed > 0 else 0.0


async def _drive(
    server_pid: int,
    server_port: int,
    echo_port: int,
    games: int,
    actions: int,
    seed: int,
    time_limit: float,
    pacing: Pacing,
    db_path: Path | None,
    saturation: bool = True,
    ice_share: float = ICE_SHARE,
    phase_kw: dict[str, Any] | None = None,  # --processes N: _play_phase's cluster arguments
) -> tuple[dict[str, Any], Phase]:
    echo = EchoSide(echo_port, pacing)
    paced = await _play_phase(
        server_pid,
        server_port,
        games,
        actions,
        seed,
        time_limit,
        pacing,
        db_path,
        echo,
        ice_share,
        **(phase_kw or {}),
    )
    results = paced.results
    echo_lat, echo_errors, echo_elapsed = echo.latencies, echo.errors, echo.elapsed

    sat: Phase | None = None
    sat_pacing = Pacing(think_ms=0.0, min_interval=pacing.min_interval)
    if saturation:
        sat = await _play_phase(
            server_pid,
            server_port,
            games,
            actions,
            seed + games,
            time_limit,
            sat_pacing,
            db_path,
            ice_share=ice_share,
            **(phase_kw or {}),
        )

    latencies = paced.latencies
    errors = paced.errors + (sat.errors if sat else [])
    sent_sizes = [s for r in results for s, _ in r.sizes]
    recv_sizes = [s for r in results for _, s in r.sizes]
    thinks = [t for r in results for t in r.thinks]
    p99 = percentile(latencies, 99) * 1e3
    echo_p99 = percentile(echo_lat, 99) * 1e3
    nan = float("nan")
    by_game = {
        g: {
            "games": sum(1 for k in paced.kinds.values() if k == g),
            "actions": len(paced.latencies_of(g)),
            "p50_ms": percentile(paced.latencies_of(g), 50) * 1e3,
            "p99_ms": percentile(paced.latencies_of(g), 99) * 1e3,
        }
        for g in GAME_KINDS
    }
    out = {
        "games": games,
        "ice_share": ice_share,
        "by_game": by_game,
        "actions_cap": actions,
        "games_over": sum(r.over for r in results),
        "actions": paced.acked,
        "all_actions": paced.all_actions,
        "elapsed_s": paced.elapsed,
        "p50_ms": percentile(latencies, 50) * 1e3,
        "p99_ms": p99,
        "actions_per_s": _rate(paced.acked, paced.elapsed),
        "all_actions_per_s": _rate(paced.all_actions, paced.elapsed),
        "errors": len(errors),
        "error_samples": sorted(set(errors))[:5],
        "lost_actions": paced.lost + (sat.lost if sat else 0),
        "unexpected_actions": paced.extra + (sat.extra if sat else 0),
        "log_checked": paced.log_checked,
        "echo_messages": len(echo_lat),
        # states pushed after an answer (the bot's moves), received from the server
        # and replayed by the echo
        "pushes": sum(len(f) for r in results for f in r.followups),
        "echo_pushes": echo.pushes,
        "blocks": echo.blocks,
        "echo_p50_ms": percentile(echo_lat, 50) * 1e3,
        "echo_p99_ms": echo_p99,
        "echo_per_s": _rate(len(echo_lat), echo_elapsed),
        "echo_errors": len(echo_errors),
        "echo_error_samples": sorted(set(echo_errors))[:5],
        "ratio_p99": p99 / echo_p99 if echo_p99 > 0 else nan,
        "target_ratio": TARGET_RATIO,
        "sent_bytes_median": percentile([float(s) for s in sent_sizes], 50),
        "state_bytes_median": percentile([float(s) for s in recv_sizes], 50),
        "min_interval_s": pacing.min_interval,
        "think_ms": pacing.think_ms,
        "think_spread": pacing.spread,
        "think_mean_s": sum(thinks) / len(thinks) if thinks else 0.0,
        "pacing": pacing.describe(),
        "server_cpu": paced.server_cpu,
        "saturation": sat is not None,
        "saturation_pacing": sat_pacing.describe(),
        "saturation_actions": sat.acked if sat else 0,
        "saturation_all_actions": sat.all_actions if sat else 0,
        "saturation_actions_per_s": _rate(sat.acked, sat.elapsed) if sat else nan,
        "saturation_all_actions_per_s": _rate(sat.all_actions, sat.elapsed) if sat else nan,
        "saturation_p50_ms": percentile(sat.latencies, 50) * 1e3 if sat else nan,
        "saturation_p99_ms": percentile(sat.latencies, 99) * 1e3 if sat else nan,
        "saturation_errors": len(sat.errors) if sat else 0,
        "saturation_lost_actions": sat.lost if sat else 0,
        "saturation_server_cpu": sat.server_cpu if sat else nan,
    }
    return out, paced


#: Spans of the server's trace (erebus.server.trace) that are units of the event
#: loop's work in their own right; the others run inside one of them (a commit inside
#: a message or a bot move, the encoding inside a push) or on another thread (the WAL
#: checkpoint).
LOOP_KINDS = ("msg", "bot", "push", "sweep", "gc")
# Spans with waits inside (a thread's or PostgreSQL's): commit, catchup (a cluster's
# read of the rows other processes stored), checkpoint (SQLite's WAL).
TRACE_KINDS = (*LOOP_KINDS, "commit", "encode", "checkpoint", "catchup")


def _overlap(rows: list[list[Any]], lo: float, hi: float) -> float:
    """Seconds of the spans ``rows`` within [lo, hi]."""
    return float(sum(max(0.0, min(r[2], hi) - max(r[1], lo)) for r in rows))


def _union(rows: list[list[Any]], lo: float, hi: float) -> float:
    """Seconds of [lo, hi] covered by at least one of the spans ``rows``."""
    covered = 0.0
    edge = lo
    for r in sorted((r for r in rows if r[2] > lo and r[1] < hi), key=lambda r: r[1]):
        start, end = max(r[1], edge), min(r[2], hi)
        if end > start:
            covered += end - start
            edge = end
    return covered


@dataclass
class _Trace:
    """One server process's trace (``EREBUS_TRACE``), indexed for :func:`slow_trace`."""

    label: str
    rows: list[list[Any]]
    by_kind: dict[str, list[list[Any]]]
    msgs: dict[tuple[str, str], list[Any]]
    loop_rows: list[list[Any]]


def _read_trace(path: Path, label: str) -> _Trace:
    rows = [orjson.loads(line) for line in path.read_bytes().splitlines() if line.strip()]
    by_kind: dict[str, list[list[Any]]] = {k: [] for k in TRACE_KINDS}
    msgs: dict[tuple[str, str], list[Any]] = {}
    pushes: dict[tuple[str, str], list[Any]] = {}
    for r in rows:
        by_kind.setdefault(r[0], []).append(r)
        if r[0] == "msg":
            msgs[r[4], r[5]] = r
        elif r[0] == "push":
            pushes.setdefault((r[4], r[5].split(" ", 1)[0]), r)  # the first push of a version
    # A message's span, ended when its answer left (the push of the next version),
    # with the CPU time of the whole handling.
    for (gid, what), m in list(msgs.items()):
        v = what.partition(" v")[2]
        answer = pushes.get((gid, f"v{int(v) + 1}")) if v.isdigit() else None
        if answer is not None and m[1] <= answer[2] <= m[2]:
            msgs[gid, what] = [m[0], m[1], answer[2], m[3], gid, what]
    loop_rows = [r for k in LOOP_KINDS for r in by_kind.get(k, [])]
    return _Trace(label, rows, by_kind, msgs, loop_rows)


def slow_trace(phase: Phase, paths: Path | Sequence[Path], share: float = 0.01) -> dict[str, Any]:
    """What the server did during the slowest ``share`` of phase 1's round trips,
    from its trace (``EREBUS_TRACE``): per trip, the time from the client's send to
    the server starting on the message (*before*: in the socket, or waiting for the
    event loop), the handling (*handle*: checks, engine, commit, the answer's encoding
    and send) and from the answer's send to the client reading it (*after*); and, in
    the *before* windows, what occupied the loop (seconds per kind of span, summed).

    Several ``paths`` (``--processes N``, one trace per process; the clock is the
    machine's monotonic one, shared): each trip is read in the trace of the process
    that handled its message, and the span statistics cover all of them."""
    files = [paths] if isinstance(paths, Path) else list(paths)
    traces = [_read_trace(p, f"process {i}" if len(files) > 1 else "") for i, p in enumerate(files)]
    by_kind: dict[str, list[list[Any]]] = {k: [] for k in TRACE_KINDS}
    msgs: dict[tuple[str, str], list[Any]] = {}
    for each in traces:
        for k, v in each.by_kind.items():
            by_kind.setdefault(k, []).extend(v)
        msgs.update(each.msgs)

    def handled_by(key: tuple[str, str]) -> _Trace | None:
        return next((each for each in traces if key in each.msgs), None)

    trips = [
        (recv - sent, sent, recv, res.id, version)
        for res in phase.results
        for version, sent, recv in res.trips
    ]
    trips.sort(reverse=True)
    slow = trips[: max(1, math.ceil(len(trips) * share))] if trips else []
    parts: dict[str, list[float]] = {"before": [], "handle": [], "after": [], "cpu": []}
    busy = dict.fromkeys(TRACE_KINDS, 0.0)
    untraced = 0.0
    window = 0.0
    with_gc = with_checkpoint = unmatched = 0
    samples: list[dict[str, Any]] = []
    for lat, sent, recv, gid, version in slow:
        key = (gid, f"action v{version}")
        tr = handled_by(key)
        if tr is None:
            unmatched += 1
            continue
        m = tr.msgs[key]
        before, handle, after = m[1] - sent, m[2] - m[1], recv - m[2]
        parts["before"].append(before)
        parts["handle"].append(handle)
        parts["after"].append(after)
        parts["cpu"].append(m[3])
        lo, hi = sent, m[1]
        for k in TRACE_KINDS:
            busy[k] += _overlap(tr.by_kind.get(k, []), lo, hi)
        window += max(0.0, hi - lo)
        untraced += max(0.0, hi - lo) - _union(tr.loop_rows, lo, hi)
        if _overlap(tr.by_kind.get("gc", []), sent, recv) > 0:
            with_gc += 1
        if _overlap(tr.by_kind.get("checkpoint", []), sent, recv) > 0:
            with_checkpoint += 1
        if len(samples) < 5:
            inside = sorted(
                (r for r in tr.rows if r[0] in TRACE_KINDS and r[2] > sent and r[1] < recv),
                key=lambda r: r[1],
            )
            samples.append(
                {
                    "ms": lat * 1e3,
                    "game": gid,
                    "process": tr.label,
                    "before_ms": before * 1e3,
                    "handle_ms": handle * 1e3,
                    "handle_cpu_ms": m[3] * 1e3,
                    "after_ms": after * 1e3,
                    "spans": [
                        f"{r[0]} +{(r[1] - sent) * 1e3:.1f} {(r[2] - r[1]) * 1e3:.2f} ms"
                        f" (cpu {r[3] * 1e3:.2f}){' ' + r[5] if r[5] else ''}"
                        f"{' [this game]' if r[4] == gid else ''}"
                        for r in inside[:25]
                    ],
                }
            )
    n = len(parts["before"])
    return {
        "trips": len(slow),
        "unmatched": unmatched,
        "threshold_ms": slow[-1][0] * 1e3 if slow else float("nan"),
        "median_ms": {k: percentile(v, 50) * 1e3 for k, v in parts.items()},
        "mean_ms": {k: (sum(v) / n * 1e3 if n else float("nan")) for k, v in parts.items()},
        "before_busy_share": {k: (v / window if window else 0.0) for k, v in busy.items()},
        "before_untraced_share": untraced / window if window else 0.0,
        "with_gc": with_gc,
        "with_checkpoint": with_checkpoint,
        "samples": samples,
        "all_median_ms": _all_medians(trips, msgs),
        "gc": _gc_summary(by_kind.get("gc", [])),
        "spans": {
            k: {
                "n": len(v),
                "p50_ms": percentile([r[2] - r[1] for r in v], 50) * 1e3,
                "p99_ms": percentile([r[2] - r[1] for r in v], 99) * 1e3,
                "max_ms": max(r[2] - r[1] for r in v) * 1e3,
                "p99_waited_ms": percentile([r[2] - r[1] - r[3] for r in v], 99) * 1e3,
            }
            for k, v in by_kind.items()
            if v and k != "gc"
        },
    }


def _all_medians(
    trips: list[tuple[float, float, float, str, int]], msgs: dict[tuple[str, str], list[Any]]
) -> dict[str, float]:
    """The before / handle / after split of every round trip (medians, ms)."""
    parts: dict[str, list[float]] = {"before": [], "handle": [], "after": []}
    for _, sent, recv, gid, version in trips:
        m = msgs.get((gid, f"action v{version}"))
        if m is not None:
            parts["before"].append(m[1] - sent)
            parts["handle"].append(m[2] - m[1])
            parts["after"].append(recv - m[2])
    return {k: percentile(v, 50) * 1e3 for k, v in parts.items()}


def _gc_summary(rows: list[list[Any]]) -> dict[str, Any]:
    """The garbage collector's passes over the whole trace, per generation: how many,
    their longest pause (ms) and the objects they freed."""
    out: dict[str, Any] = {}
    for r in rows:
        gen, _, rest = r[5].partition(" collected ")
        g = out.setdefault(gen, {"passes": 0, "max_ms": 0.0, "total_ms": 0.0, "collected": 0})
        g["passes"] += 1
        g["max_ms"] = max(g["max_ms"], (r[2] - r[1]) * 1e3)
        g["total_ms"] += (r[2] - r[1]) * 1e3
        g["collected"] += int(rest) if rest.isdigit() else 0
    return out


def render_trace(t: dict[str, Any]) -> list[str]:
    """The trace's summary as lines of text."""

    def ms(d: dict[str, float]) -> str:
        return ", ".join(f"{k} {v:.2f}" for k, v in d.items())

    busy = ", ".join(f"{k} {v * 100:.0f}%" for k, v in t["before_busy_share"].items() if v >= 0.005)
    out = [
        f"trace of the slowest {t['trips']} round trips (≥ {t['threshold_ms']:.1f} ms; "
        f"{t['unmatched']} not found in the trace):",
        f"  median ms: {ms(t['median_ms'])}   (all round trips: {ms(t['all_median_ms'])})",
        f"  mean ms: {ms(t['mean_ms'])}",
        f"  while they waited (before): {busy}; untraced {t['before_untraced_share'] * 100:.0f}%",
        f"  with a gc collection: {t['with_gc']}; with a WAL checkpoint: {t['with_checkpoint']}",
        "  gc over the run: "
        + (
            "; ".join(
                f"{g} {v['passes']} passes, longest {v['max_ms']:.1f} ms, total "
                f"{v['total_ms']:.0f} ms, {v['collected']} objects freed"
                for g, v in sorted(t["gc"].items())
            )
            or "none"
        ),
    ]
    out.append(
        "  spans over the run (wall ms p50 / p99 / max; p99 of wall − CPU):  "
        + "; ".join(
            f"{k} {v['n']}× {v['p50_ms']:.2f} / {v['p99_ms']:.2f} / {v['max_ms']:.1f}; "
            f"{v['p99_waited_ms']:.2f}"
            for k, v in t["spans"].items()
        )
    )
    for s in t["samples"]:
        out.append(
            f"  {s['ms']:.1f} ms (game {s['game']}{', ' + s['process'] if s.get('process') else ''}): before {s['before_ms']:.1f}, handle "
            f"{s['handle_ms']:.1f} (cpu {s['handle_cpu_ms']:.1f}), after {s['after_ms']:.1f}"
        )
        out += [f"      {line}" for line in s["spans"]]
    return out


def default_time_limit(actions: int, think_ms: float) -> float:
    """Seconds allowed per phase: room for every think time three times over."""
    return 120.0 + 3.0 * actions * max(think_ms, 0.0) / 1e3


def run(
    games: int = 200,
    actions: int = 40,
    port: int = 0,
    db: str | None = None,
    seed: int = 1,
    time_limit: float | None = None,
    think_ms: float = THINK_MS,
    saturation: bool = True,
    ice_share: float = ICE_SHARE,
    trace_slow: bool = False,
) -> dict[str, Any]:
    """Start the server and the echo, drive them, stop them; return the figures.

    ``games`` concurrent games (and as many echo connections), at most
    ``actions`` scripted actions per game, each phase cut at ``time_limit`` s
    (default :func:`default_time_limit`).  ``think_ms``: the mean think time
    before each scripted action (0: none, only the 60 ms spacing).
    ``saturation``: also measure the throughput ceiling (phase 3).  ``ice_share``:
    the share of Through Ice and Snow games (0: Northwest only).  ``port`` 0
    picks a free one; ``db`` defaults to SQLite in a temporary dir.  ``trace_slow``:
    the server records a trace of its work (``EREBUS_TRACE``) and ``"slow_trace"``
    tells what it did during the slowest 1 % of round trips (:func:`slow_trace`).
    """
    if games < 1 or actions < 1:
        raise ValueError("games and actions must be at least 1")
    if think_ms < 0:
        raise ValueError("think_ms must be at least 0")
    if not 0 <= ice_share <= 1:
        raise ValueError("ice_share must be in [0, 1]")
    if time_limit is None:
        time_limit = default_time_limit(actions, think_ms)
    pacing = Pacing(think_ms=think_ms)
    with tempfile.TemporaryDirectory(prefix="erebus-bench-") as tmp:
        tmpdir = Path(tmp)
        db_path: Path | None = None
        if db is None:
            db_path = tmpdir / "bench.db"
            db = f"sqlite:///{db_path}"
        elif db.startswith("sqlite:///"):
            db_path = Path(db.removeprefix("sqlite:///"))
        server_port = port or free_port()
        py = sys.executable
        procs: list[Process] = []

        echo_port = free_port()
        while echo_port == server_port:
            echo_port = free_port()
        trace_path = tmpdir / "trace.jsonl"
        env = {**os.environ, ENV_TRACE: str(trace_path)} if trace_slow else None
        try:
            server = Process(
                [
                    py,
                    "-m",
                    "erebus.cli",
                    "serve",
                    *("--host", HOST, "--port", str(server_port)),
                    *("--db", db),
                    # The load comes from one address: limits well above it (the
                    # defaults would throttle it), none of them switched off.
                    *("--create-per-minute", str(max(1000, 10 * games))),
                    *("--api-rate", "1000", "--api-burst", str(max(1000, 10 * games))),
                    *("--max-live-games", str(max(2000, 4 * games))),
                ],
                server_port,
                tmpdir / "server.log",
                env,
            )
            procs.append(server)
            echo = Process(
                [py, "-m", "erebus.bench.server", "echo", "--port", str(echo_port)],
                echo_port,
                tmpdir / "echo.log",
            )
            procs.append(echo)
            server.wait_ready("/api/games")
            echo.wait_ready("/health")
            with asyncio.Runner(loop_factory=_client_loop()) as runner:
                out, paced = runner.run(
                    _drive(
                        server.proc.pid,
                        server_port,
                        echo_port,
                        games,
                        actions,
                        seed,
                        time_limit,
                        pacing,
                        db_path,
                        saturation,
                        ice_share,
                    )
                )
        finally:
            for p in procs:
                p.stop()
        # What the server logged as failing (a bot's turn that failed leaves its game
        # waiting for a move that never comes: the client times out).
        out["server_log_errors"] = [
            line
            for line in server.tail(100_000).splitlines()
            if "ERROR" in line or "bot failure" in line or "rejected" in line
        ][:5]
        if trace_slow:
            out["slow_trace"] = (
                slow_trace(paced, trace_path) if trace_path.exists() else {"missing": True}
            )
    return out


def _ms(x: float) -> str:
    return f"{x:,.1f}"


GAME_TITLES = {"northwest": "Northwest Passage", "iceandsnow": "Ice and Snow"}


def _mix(r: dict[str, Any]) -> str:
    """The games of the paced phase, e.g. 100 Northwest Passage + 100 Ice and Snow."""
    parts = [f"{b['games']} {GAME_TITLES.get(g, g)}" for g, b in r.get("by_game", {}).items()]
    return " + ".join(p for p in parts if not p.startswith("0 ")) or "no games"


def render(r: dict[str, Any]) -> Table:
    table = Table(
        title=f"erebus bench server — {r['games']} live 2-seat games "
        f"({_mix(r)}; 1 scripted WebSocket client + 1 easy bot), "
        f"≤ {r['actions_cap']} client actions each, one server process",
    )
    table.add_column("measure")
    table.add_column("server", justify="right")
    table.add_column("echo", justify="right")
    table.add_row("connections", f"{r['games']}", f"{r['games']}")
    table.add_row("round trips", f"{r['actions']:,}", f"{r['echo_messages']:,}")
    if "pushes" in r:
        table.add_row("bot pushes after an answer", f"{r['pushes']:,}", f"{r['echo_pushes']:,}")
    table.add_row("p50 (ms)", _ms(r["p50_ms"]), _ms(r["echo_p50_ms"]))
    table.add_row("p99 (ms)", _ms(r["p99_ms"]), _ms(r["echo_p99_ms"]))
    table.add_row(
        "actions / s (client; all incl. bot)",
        f"{r['actions_per_s']:,.0f}; {r['all_actions_per_s']:,.0f}",
        f"{r['echo_per_s']:,.0f}",
    )
    for g, b in r.get("by_game", {}).items():
        if b["games"]:
            table.add_row(
                f"  {GAME_TITLES.get(g, g)}: p50; p99 (ms)",
                f"{_ms(b['p50_ms'])}; {_ms(b['p99_ms'])}",
                "—",
            )
    table.add_row("errors", f"{r['errors']}", f"{r['echo_errors']}")
    table.add_row("lost actions", f"{r['lost_actions']}", "—")
    ok = r["ratio_p99"] <= r["target_ratio"]
    table.add_row(
        "p99 / p99_echo (target ≤ 3×)",
        f"[{'green' if ok else 'red'}]{r['ratio_p99']:.2f}×[/]",
        "1×",
    )
    if r["saturation"]:
        table.add_section()
        table.add_row(
            "saturation: actions / s (client; all)",
            f"{r['saturation_actions_per_s']:,.0f}; {r['saturation_all_actions_per_s']:,.0f}",
            "—",
        )
        table.add_row(
            "saturation: p50; p99 (ms, queueing)",
            f"{_ms(r['saturation_p50_ms'])}; {_ms(r['saturation_p99_ms'])}",
            "—",
        )
        table.add_row(
            "saturation: errors; lost",
            f"{r['saturation_errors']}; {r['saturation_lost_actions']}",
            "—",
        )
    sat = (
        f"; saturation: {r['saturation_pacing']}, server "
        f"{r['saturation_server_cpu'] * 100:.0f}% of a core"
        if r["saturation"]
        else ""
    )
    table.caption = (
        f"paced: {r['pacing']} (mean {r['think_mean_s']:.2f} s), in {r['blocks']} blocks, "
        "each followed by the echo's replay of it (the same think times, answers and "
        "the bot's pushes after them); "
        f"{r['games_over']} games finished, {r['all_actions']:,} actions "
        f"stored in {r['elapsed_s']:.1f} s; messages ~{r['sent_bytes_median']:.0f} B out, "
        f"~{r['state_bytes_median']:.0f} B back; server process "
        f"{r['server_cpu'] * 100:.0f}% of a core while playing{sat}"
    )
    return table


def main(
    games: int = 200,
    actions: int = 40,
    port: int = 0,
    db: str | None = None,
    think_ms: float = THINK_MS,
    saturation: bool = True,
    console: Console | None = None,
    ice_share: float = ICE_SHARE,
    trace_slow: bool = False,
    processes: int = 1,
    redis_url: str | None = None,
    routing: str = "game",
) -> int:
    """Print the table; exit code 1 on errors or lost actions (the ratio is only shown).
    ``processes`` > 1: :mod:`erebus.bench.cluster_setup` (PostgreSQL ``db``, Redis)."""
    console = console or Console()
    pacing = Pacing(think_ms=think_ms)
    # --- --processes N
    if processes > 1:
        from erebus.bench.cluster_setup import ClusterUnavailable, render_cluster, run_cluster

        console.print(
            f"starting {processes} server processes on PostgreSQL + Redis and the echo; "
            f"{games} games spread over them, {pacing.describe()}…"
        )
        try:
            r = run_cluster(
                processes,
                games=games,
                actions=actions,
                db=db,
                redis_url=redis_url,
                think_ms=think_ms,
                saturation=saturation,
                ice_share=ice_share,
                trace_slow=trace_slow,
                routing=routing,
            )
        except ClusterUnavailable as exc:
            console.print(f"[red]error:[/] {exc}")
            return 2
        console.print(render_cluster(r))
        _print_trace(console, r)
        for s in r["error_samples"] + r["echo_error_samples"]:
            console.print(f"[red]error:[/] {s}")
        return 1 if r["errors"] or r["echo_errors"] or r["lost_actions"] else 0
    # --- end --processes N
    console.print(
        f"starting the server and the echo (they take turns, block by block); {games} "
        f"games, {pacing.describe()}…"
    )
    r = run(
        games=games,
        actions=actions,
        port=port,
        db=db,
        think_ms=think_ms,
        saturation=saturation,
        ice_share=ice_share,
        trace_slow=trace_slow,
    )
    console.print(render(r))
    _print_trace(console, r)
    for label, samples in (("server", r["error_samples"]), ("echo", r["echo_error_samples"])):
        for s in samples:
            console.print(f"[red]{label} error:[/] {s}")
    for line in r.get("server_log_errors", []):
        console.print(f"server log: {line}", markup=False, highlight=False)
    if r["unexpected_actions"]:
        console.print(f"[yellow]{r['unexpected_actions']} stored actions never acknowledged[/]")
    return 1 if r["errors"] or r["echo_errors"] or r["lost_actions"] else 0


def _print_trace(console: Console, r: dict[str, Any]) -> None:
    """``--trace-slow``: what the server(s) did during the slowest round trips."""
    t = r.get("slow_trace")
    if t is None:
        return
    for line in ["the server's trace is missing"] if t.get("missing") else render_trace(t):
        console.print(line, markup=False, highlight=False)


def _cli(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m erebus.bench.server")
    parser.add_argument("mode", choices=["echo", "bench"])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--actions", type=int, default=40)
    parser.add_argument("--think-ms", type=float, default=THINK_MS)
    parser.add_argument("--no-saturation", action="store_true")
    parser.add_argument("--ice-share", type=float, default=ICE_SHARE)
    parser.add_argument("--trace-slow", action="store_true")
    parser.add_argument("--processes", type=int, default=1)  # --processes N
    parser.add_argument("--db", default=None)
    parser.add_argument("--redis-url", default=None)
    parser.add_argument("--routing", choices=["game", "cross"], default="game")
    args = parser.parse_args(argv)
    if args.mode == "echo":
        run_echo_server(args.port or free_port())
        return 0
    return main(
        games=args.games,
        actions=args.actions,
        port=args.port,
        think_ms=args.think_ms,
        saturation=not args.no_saturation,
        ice_share=args.ice_share,
        trace_slow=args.trace_slow,
        processes=args.processes,
        db=args.db,
        redis_url=args.redis_url,
        routing=args.routing,
    )


if __name__ == "__main__":
    sys.exit(_cli())
