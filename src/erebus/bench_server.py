"""``erebus bench server``: load on one real web server, next to a bare echo.

It starts ONE ``erebus serve`` process (uvicorn, SQLite in a temporary
directory, loopback only) and plays ``games`` live 2-seat games at once over
WebSocket: seat 0 is a scripted client that picks a random legal action from
each pushed ``legal_actions`` (rarely passing or ending its turn, so games are
not trivially short; at most ``actions`` actions per game), seat 1 an easy bot
(random: the load is the server, not the search).

Measured:

* action round trip — ``send {"type": "action", "version": v}`` → the pushed
  state whose version is ``> v`` — as p50/p99, and acknowledged actions/s;
* errors — error messages, refused or dropped connections, timeouts;
* lost actions — after the run each game is read back (``GET /api/games/{id}``
  and its stored action log): its version must equal the last version the
  client saw acknowledged, and its stored seat-0 actions the client's
  acknowledged count.

Then a bare WebSocket echo (Starlette under uvicorn, the same stack minus the
game) is driven with the same number of connections, the same number of
messages, the same pacing and the same request/reply sizes (each echo request
is padded to the size of a recorded action message and asks for a reply of
the recorded state size).  The figure of merit is ``p99 / p99_echo`` (target
≤ 3×).  The clients run in this process, on the same machine as both servers.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from rich.console import Console
from rich.table import Table
from websockets.asyncio.client import connect

HOST = "127.0.0.1"
TARGET_RATIO = 3.0
WS_RATE = 20  # the server's per-connection limit (erebus.server.app.WS_RATE)
MIN_INTERVAL_S = 1.2 / WS_RATE  # pacing per connection, safely under that limit
MESSAGE_TIMEOUT_S = 30.0
STARTUP_TIMEOUT_S = 30.0
MAX_MESSAGE = 4 * 1024 * 1024


# ------------------------------------------------------------------ helpers


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

    def __init__(self, args: list[str], port: int, log: Path) -> None:
        self.port = port
        self.log = log
        self._fh = log.open("wb")
        self.proc = subprocess.Popen(args, stdout=self._fh, stderr=subprocess.STDOUT)

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
    """A bare Starlette WebSocket echo: parse the JSON, reply with ``reply`` bytes of JSON."""
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import PlainTextResponse
    from starlette.routing import Route, WebSocketRoute
    from starlette.websockets import WebSocket, WebSocketDisconnect

    async def echo(ws: WebSocket) -> None:
        await ws.accept()
        try:
            while True:
                data = json.loads(await ws.receive_text())
                reply = {"type": "echo", "seq": data.get("seq"), "pad": ""}
                size = int(data.get("reply", 0))
                reply["pad"] = "x" * max(0, size - len(json.dumps(reply)))
                await ws.send_text(json.dumps(reply))
        except WebSocketDisconnect:
            return

    async def health(_request: Request) -> PlainTextResponse:
        return PlainTextResponse("ok")

    return Starlette(routes=[WebSocketRoute("/ws/echo", echo), Route("/health", health)])


def run_echo_server(port: int) -> None:
    import uvicorn

    uvicorn.run(echo_app(), host=HOST, port=port, ws_max_size=64 * 1024, log_level="warning")


# ------------------------------------------------------------------ clients


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


async def play_game(
    port: int,
    game_id: str,
    token: str,
    cap: int,
    rng: random.Random,
    deadline: float,
    min_interval: float,
) -> GameResult:
    res = GameResult(game_id)
    uri = f"ws://{HOST}:{port}/ws/games/{game_id}?token={token}"
    try:
        async with connect(
            uri, max_size=MAX_MESSAGE, open_timeout=MESSAGE_TIMEOUT_S, ping_interval=None
        ) as ws:
            pending: tuple[float, int, int] | None = None  # (sent at, version, bytes)
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
                    res.errors.append("timeout waiting for a state")
                    break
                received = time.perf_counter()
                msg = json.loads(raw)
                if msg.get("type") == "error":
                    res.errors.append(f"{msg.get('status')}: {msg.get('message')}")
                    break
                if msg.get("type") != "state":
                    continue
                version = int(msg["version"])
                res.observed = max(res.observed, version)
                if pending is not None and version > pending[1]:
                    res.latencies.append(received - pending[0])
                    res.sizes.append((pending[2], len(raw)))
                    res.acked += 1
                    pending = None
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
                wait = last_send + min_interval - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
                text = json.dumps(
                    {"type": "action", "version": version, "action": choose_action(rng, legal)}
                )
                last_send = time.monotonic()
                pending = (time.perf_counter(), version, len(text))
                last_sent_version = version
                await ws.send(text)
    except Exception as exc:  # a refused, dropped or malformed connection
        res.errors.append(f"{type(exc).__name__}: {exc}")
    return res


async def echo_client(
    port: int, sizes: list[tuple[int, int]], deadline: float, min_interval: float
) -> tuple[list[float], list[str]]:
    latencies: list[float] = []
    errors: list[str] = []
    try:
        async with connect(
            f"ws://{HOST}:{port}/ws/echo",
            max_size=MAX_MESSAGE,
            open_timeout=MESSAGE_TIMEOUT_S,
            ping_interval=None,
        ) as ws:
            last_send = 0.0
            for seq, (sent, reply) in enumerate(sizes):
                wait = last_send + min_interval - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    errors.append("time limit")
                    break
                msg: dict[str, Any] = {"type": "echo", "seq": seq, "reply": reply, "pad": ""}
                msg["pad"] = "x" * max(0, sent - len(json.dumps(msg)))
                text = json.dumps(msg)
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
                if json.loads(raw).get("seq") != seq:
                    errors.append("echo out of order")
                    break
    except Exception as exc:
        errors.append(f"{type(exc).__name__}: {exc}")
    return latencies, errors


# --------------------------------------------------------------------- run


async def _create_games(port: int, games: int, seed: int) -> list[dict[str, Any]]:
    sem = asyncio.Semaphore(16)
    body = {
        "game": "northwest",
        "players": 2,
        "seats": [{"kind": "human"}, {"kind": "bot", "level": "easy"}],
    }
    async with httpx.AsyncClient(base_url=f"http://{HOST}:{port}", timeout=30.0) as client:

        async def one(i: int) -> dict[str, Any]:
            async with sem:
                r = await client.post("/api/games", json={**body, "seed": seed + i})
                r.raise_for_status()
                out: dict[str, Any] = r.json()
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
    """Seat-0 actions per game in the SQLite log (``None``: not a SQLite file we know)."""
    if db_path is None or not db_path.exists():
        return None
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, timeout=30)
    try:
        rows = conn.execute(
            "SELECT game_id, COUNT(*) FROM actions WHERE seat = 0 GROUP BY game_id"
        ).fetchall()
    finally:
        conn.close()
    return {str(g): int(n) for g, n in rows}


async def _drive(
    server_pid: int,
    server_port: int,
    echo_port: int,
    games: int,
    actions: int,
    seed: int,
    time_limit: float,
    min_interval: float,
    db_path: Path | None,
) -> dict[str, Any]:
    created = await _create_games(server_port, games, seed)
    rng = random.Random(seed)
    cpu_before = cpu_seconds(server_pid)
    start = time.perf_counter()
    deadline = time.monotonic() + time_limit
    results = list(
        await asyncio.gather(
            *(
                play_game(
                    server_port,
                    g["id"],
                    g["seats"][0]["token"],
                    actions,
                    random.Random(rng.getrandbits(32)),
                    deadline,
                    min_interval,
                )
                for g in created
            )
        )
    )
    elapsed = time.perf_counter() - start
    cpu_after = cpu_seconds(server_pid)
    server_cpu = (
        (cpu_after - cpu_before) / elapsed
        if cpu_before is not None and cpu_after is not None and elapsed > 0
        else float("nan")
    )

    # Read back: a game that stopped on its own turn (or is over) is at rest.
    await asyncio.sleep(0.2)
    versions = await _read_back(server_port, [r.id for r in results])
    stored = _stored_human_actions(db_path)
    lost = extra = 0
    for r in results:
        lost += max(0, r.observed - versions[r.id])
        if r.clean:
            extra += max(0, versions[r.id] - r.observed)
        if stored is not None:
            lost += max(0, r.acked - stored.get(r.id, 0))

    latencies = [x for r in results for x in r.latencies]
    errors = [e for r in results for e in r.errors]
    acked = sum(r.acked for r in results)
    all_versions = sum(versions.values())

    # The echo: the same connections, messages per connection, pacing and sizes.
    echo_start = time.perf_counter()
    echo_deadline = time.monotonic() + time_limit
    echo_runs = await asyncio.gather(
        *(echo_client(echo_port, r.sizes, echo_deadline, min_interval) for r in results)
    )
    echo_elapsed = time.perf_counter() - echo_start
    echo_lat = [x for lat, _ in echo_runs for x in lat]
    echo_errors = [e for _, errs in echo_runs for e in errs]

    sent_sizes = [s for r in results for s, _ in r.sizes]
    recv_sizes = [s for r in results for _, s in r.sizes]
    p99 = percentile(latencies, 99) * 1e3
    echo_p99 = percentile(echo_lat, 99) * 1e3
    return {
        "games": games,
        "actions_cap": actions,
        "games_over": sum(r.over for r in results),
        "actions": acked,
        "all_actions": all_versions,
        "elapsed_s": elapsed,
        "p50_ms": percentile(latencies, 50) * 1e3,
        "p99_ms": p99,
        "actions_per_s": acked / elapsed if elapsed > 0 else 0.0,
        "all_actions_per_s": all_versions / elapsed if elapsed > 0 else 0.0,
        "errors": len(errors),
        "error_samples": sorted(set(errors))[:5],
        "lost_actions": lost,
        "unexpected_actions": extra,
        "log_checked": stored is not None,
        "echo_messages": len(echo_lat),
        "echo_p50_ms": percentile(echo_lat, 50) * 1e3,
        "echo_p99_ms": echo_p99,
        "echo_per_s": len(echo_lat) / echo_elapsed if echo_elapsed > 0 else 0.0,
        "echo_errors": len(echo_errors),
        "echo_error_samples": sorted(set(echo_errors))[:5],
        "ratio_p99": p99 / echo_p99 if echo_p99 > 0 else float("nan"),
        "target_ratio": TARGET_RATIO,
        "sent_bytes_median": percentile([float(s) for s in sent_sizes], 50),
        "state_bytes_median": percentile([float(s) for s in recv_sizes], 50),
        "min_interval_s": min_interval,
        "server_cpu": server_cpu,  # cores busy in the server's main process while playing
    }


def run(
    games: int = 200,
    actions: int = 40,
    port: int = 0,
    db: str | None = None,
    seed: int = 1,
    time_limit: float = 120.0,
    min_interval: float = MIN_INTERVAL_S,
) -> dict[str, Any]:
    """Start the server and the echo, drive them, stop them; return the figures.

    ``games`` concurrent games (and as many echo connections), at most
    ``actions`` scripted actions per game, each phase cut at ``time_limit`` s.
    ``port`` 0 picks a free one; ``db`` defaults to SQLite in a temporary dir.
    """
    if games < 1 or actions < 1:
        raise ValueError("games and actions must be at least 1")
    with tempfile.TemporaryDirectory(prefix="erebus-bench-") as tmp:
        tmpdir = Path(tmp)
        db_path: Path | None = None
        if db is None:
            db_path = tmpdir / "bench.db"
            db = f"sqlite:///{db_path}"
        elif db.startswith("sqlite:///"):
            db_path = Path(db.removeprefix("sqlite:///"))
        server_port = port or free_port()
        echo_port = free_port()
        while echo_port == server_port:
            echo_port = free_port()
        py = sys.executable
        procs: list[Process] = []
        try:
            server = Process(
                [
                    py,
                    "-m",
                    "erebus.cli",
                    "serve",
                    *("--host", HOST, "--port", str(server_port)),
                    *("--db", db),
                ],
                server_port,
                tmpdir / "server.log",
            )
            procs.append(server)
            echo = Process(
                [py, "-m", "erebus.bench_server", "echo", "--port", str(echo_port)],
                echo_port,
                tmpdir / "echo.log",
            )
            procs.append(echo)
            server.wait_ready("/api/games")
            echo.wait_ready("/health")
            out = asyncio.run(
                _drive(
                    server.proc.pid,
                    server_port,
                    echo_port,
                    games,
                    actions,
                    seed,
                    time_limit,
                    min_interval,
                    db_path,
                )
            )
        finally:
            for p in procs:
                p.stop()
    return out


def _ms(x: float) -> str:
    return f"{x:,.1f}"


def render(r: dict[str, Any]) -> Table:
    table = Table(
        title=f"erebus bench server — {r['games']} live 2-seat games (1 scripted WebSocket "
        f"client + 1 easy bot), ≤ {r['actions_cap']} client actions each, one server process",
    )
    table.add_column("measure")
    table.add_column("server", justify="right")
    table.add_column("echo", justify="right")
    table.add_row("connections", f"{r['games']}", f"{r['games']}")
    table.add_row("round trips", f"{r['actions']:,}", f"{r['echo_messages']:,}")
    table.add_row("p50 (ms)", _ms(r["p50_ms"]), _ms(r["echo_p50_ms"]))
    table.add_row("p99 (ms)", _ms(r["p99_ms"]), _ms(r["echo_p99_ms"]))
    table.add_row(
        "actions / s (client; all incl. bot)",
        f"{r['actions_per_s']:,.0f}; {r['all_actions_per_s']:,.0f}",
        f"{r['echo_per_s']:,.0f}",
    )
    table.add_row("errors", f"{r['errors']}", f"{r['echo_errors']}")
    table.add_row("lost actions", f"{r['lost_actions']}", "—")
    ok = r["ratio_p99"] <= r["target_ratio"]
    table.add_row(
        "p99 / p99_echo (target ≤ 3×)",
        f"[{'green' if ok else 'red'}]{r['ratio_p99']:.2f}×[/]",
        "1×",
    )
    table.caption = (
        f"{r['games_over']} games finished, {r['all_actions']:,} actions stored "
        f"in {r['elapsed_s']:.1f} s; messages ~{r['sent_bytes_median']:.0f} B out, "
        f"~{r['state_bytes_median']:.0f} B back; ≥ {r['min_interval_s'] * 1e3:.0f} ms "
        f"between sends per connection (server limit {WS_RATE}/s); server process "
        f"{r['server_cpu'] * 100:.0f}% of a core while playing"
    )
    return table


def main(
    games: int = 200,
    actions: int = 40,
    port: int = 0,
    db: str | None = None,
    console: Console | None = None,
) -> int:
    """Print the table; exit code 1 on errors or lost actions (the ratio is only shown)."""
    console = console or Console()
    console.print(f"starting the server and the echo; {games} games…")
    r = run(games=games, actions=actions, port=port, db=db)
    console.print(render(r))
    for label, samples in (("server", r["error_samples"]), ("echo", r["echo_error_samples"])):
        for s in samples:
            console.print(f"[red]{label} error:[/] {s}")
    if r["unexpected_actions"]:
        console.print(f"[yellow]{r['unexpected_actions']} stored actions never acknowledged[/]")
    return 1 if r["errors"] or r["echo_errors"] or r["lost_actions"] else 0


def _cli(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m erebus.bench_server")
    parser.add_argument("mode", choices=["echo", "bench"])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--actions", type=int, default=40)
    args = parser.parse_args(argv)
    if args.mode == "echo":
        run_echo_server(args.port or free_port())
        return 0
    return main(games=args.games, actions=args.actions, port=args.port)


if __name__ == "__main__":
    sys.exit(_cli())
