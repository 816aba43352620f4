"""``erebus bench server --processes N``: the same load on N ``erebus serve`` processes.

With ``N > 1`` the processes share one PostgreSQL database (a fresh schema the bench
creates in ``--db``, default :data:`DEFAULT_PG`, and drops afterwards) and one Redis
(by default a private ``redis-server`` on a free port, without persistence; or
``--redis-url``), as a cluster does (README, "Several server processes").  The
games are created round-robin (game *i* on process ``i % N``) and each game's seat
connects where ``routing`` says (:func:`seat_process`): ``"game"`` (the default), the
process the game's id picks, as the README's proxy configurations route a game's
requests, so a game's socket and bots share a process whichever process created it;
``"cross"``, always another process than the creator, so every action's push to the
seat and every bot move crosses processes whenever the game's bot runs elsewhere
(the worst case, and the only routing before 2026-12-04).  The echo
baseline and the paced blocks are those of :mod:`erebus.bench.server`.

The saturated phase is measured twice in the same run, on the same PostgreSQL and
Redis: once with every client on process 0 alone (the others idle, still subscribed)
and once spread over all N, so only the process count differs; the ratio of their
actions/s is the scaling.  During both, the CPU seconds of the servers, PostgreSQL
(every ``postgres`` process of the machine), Redis and the load generator itself are
read from ``/proc``, so a ratio below N says where the cores went.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import uuid
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from erebus.bench import server as bench

DEFAULT_PG = os.environ.get(
    "EREBUS_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)
HOST = bench.HOST


class ClusterUnavailable(RuntimeError):
    """PostgreSQL or Redis (server or package) is missing: the reason, in one line."""


# ------------------------------------------------------------ infrastructure


def with_search_path(base: str, schema: str) -> str:
    """``base`` with ``-csearch_path=schema`` added to its libpq ``options`` (kept, e.g.
    ``?options=-csynchronous_commit%3Doff`` to measure without the WAL flush)."""
    from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

    parts = urlsplit(base)
    query = dict(parse_qsl(parts.query))
    query["options"] = " ".join(filter(None, [query.get("options"), f"-csearch_path={schema}"]))
    return urlunsplit(parts._replace(query=urlencode(query, quote_via=quote)))


@contextlib.contextmanager
def pg_schema(base: str) -> Iterator[str]:
    """A fresh schema in the database ``base`` (dropped at the end): the URL to it."""
    if not base.startswith("postgresql"):
        raise ClusterUnavailable(f"--processes > 1 needs a PostgreSQL --db, not {base!r}")
    from sqlalchemy import create_engine, text

    schema = f"bench_{uuid.uuid4().hex[:12]}"
    admin = create_engine(base)
    try:
        with admin.begin() as conn:
            conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    except Exception as exc:
        admin.dispose()
        raise ClusterUnavailable(f"PostgreSQL at {base}: {exc}") from exc
    try:
        yield with_search_path(base, schema)
    finally:
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


@contextlib.contextmanager
def private_redis(tmp: Path) -> Iterator[tuple[str, int]]:
    """``redis-server`` on a free loopback port, no disk: ``(url, pid)``."""
    try:
        import redis  # noqa: F401
    except ImportError as exc:
        raise ClusterUnavailable("--processes > 1 needs the redis package (.[cluster])") from exc
    if shutil.which("redis-server") is None:
        raise ClusterUnavailable("--processes > 1 needs redis-server on the PATH or --redis-url")
    port = bench.free_port()
    cmd = ["redis-server", "--port", str(port), "--bind", HOST, "--save", ""]
    cmd += ["--appendonly", "no", "--dir", str(tmp)]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        end = time.monotonic() + 10
        while True:
            try:
                with socket.create_connection((HOST, port), timeout=0.2) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        break
            except OSError:
                if time.monotonic() > end:
                    raise ClusterUnavailable("redis-server did not start") from None
                time.sleep(0.02)
        yield f"redis://{HOST}:{port}/0", proc.pid
    finally:
        proc.kill()
        proc.wait(10)


class ServerProcess(bench.Process):
    """One ``erebus serve`` of the cluster (``REDIS_URL`` in its environment)."""

    def __init__(self, args: list[str], port: int, log: Path, env: dict[str, str]) -> None:
        self.port = port
        self.log = log
        self._fh = log.open("wb")
        self.proc = subprocess.Popen(args, stdout=self._fh, stderr=subprocess.STDOUT, env=env)


def cpu_total(pids: list[int]) -> float | None:
    """CPU seconds of all ``pids`` so far (``None`` if one cannot be read)."""
    total = 0.0
    for pid in pids:
        got = bench.cpu_seconds(pid)
        if got is None:
            return None
        total += got
    return total


def postgres_cpu() -> float:
    """CPU seconds so far of PostgreSQL: every live ``postgres`` process of the machine
    plus the children its postmaster has reaped (backends of closed connections come
    and go); another user of the same PostgreSQL counts too."""
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError, ValueError, IndexError):
            if (entry / "comm").read_text().strip() not in ("postgres", "postmaster"):
                continue
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
            parent = Path(f"/proc/{fields[1]}/comm")
            if not parent.exists() or parent.read_text().strip() != "postgres":
                total += (int(fields[13]) + int(fields[14])) / tick  # reaped backends
    return total


@dataclass
class CpuMeter:
    """Cores used by each part of the setup between :meth:`start` and :meth:`stop`."""

    servers: list[int]
    redis_pid: int | None
    echo_pid: int

    def _read(self) -> dict[str, float]:
        return {
            "servers": cpu_total(self.servers) or 0.0,
            "postgres": postgres_cpu(),
            "redis": (bench.cpu_seconds(self.redis_pid) or 0.0) if self.redis_pid else 0.0,
            "clients": sum(os.times()[:2]),
            "echo": bench.cpu_seconds(self.echo_pid) or 0.0,
        }

    def start(self) -> None:
        self._t0 = time.perf_counter()
        self._c0 = self._read()

    def stop(self) -> dict[str, float]:
        wall = time.perf_counter() - self._t0
        c1 = self._read()
        return {k: (c1[k] - self._c0[k]) / wall for k in c1} if wall > 0 else {}


# ------------------------------------------------------------ spreading the clients


ROUTINGS = ("game", "cross")


def seat_process(game_id: str, created_on: int, n: int, routing: str) -> int:
    """The process (an index of ``n``) a game's seat connects to.

    ``"game"``: chosen by the game's id alone, as the README's proxy configurations
    route every ``/api/games/{id}/…`` request (nginx ``hash … consistent``, Caddy
    ``lb_policy header``), so a game's sockets and its bots share one process, whichever
    process created it.  ``"cross"``: always another process than the one that created
    the game, the worst case (every change crosses processes: a notice, a read of the
    rows, a replay)."""
    if routing == "cross":
        return (created_on + 1) % n
    if routing != "game":
        raise ValueError(f"routing must be one of {ROUTINGS}, not {routing!r}")
    return zlib.crc32(game_id.encode()) % n


async def create_spread(
    ports: list[int], games: int, seed: int, ice_share: float, routing: str = "game"
) -> list[dict[str, Any]]:
    """Game ``i`` created on ``ports[i % n]``, its seat to connect to the process
    :func:`seat_process` picks (``"ws_port"`` in each answer)."""
    sem = asyncio.Semaphore(16)
    body = {"players": 2, "seats": [{"kind": "human"}, {"kind": "bot", "level": "easy"}]}
    n = len(ports)
    async with contextlib.AsyncExitStack() as stack:
        clients = [
            await stack.enter_async_context(
                httpx.AsyncClient(base_url=f"http://{HOST}:{p}", timeout=30.0)
            )
            for p in ports
        ]

        async def one(i: int) -> dict[str, Any]:
            async with sem:
                game = bench.game_of(i, ice_share)
                r = await clients[i % n].post(
                    "/api/games", json={**body, "game": game, "seed": seed + i}
                )
                r.raise_for_status()
                made = r.json()
                seat = seat_process(made["id"], i % n, n, routing)
                return {**made, "game": game, "ws_port": ports[seat]}

        return list(await asyncio.gather(*(one(i) for i in range(games))))


async def read_back_spread(created: list[dict[str, Any]]) -> dict[str, int]:
    """Each game's version, read from the process its seat was connected to (which
    pushed the client every state it saw)."""
    by_port: dict[int, list[str]] = {}
    for g in created:
        by_port.setdefault(int(g["ws_port"]), []).append(g["id"])
    out: dict[str, int] = {}
    for port, ids in by_port.items():
        out.update(await bench._read_back(port, ids))
    return out


def stored_human_actions_pg(url: str) -> dict[str, int]:
    """Seat-0 actions per game in the PostgreSQL log (as ``_stored_human_actions``)."""
    from sqlalchemy import create_engine, text

    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(
                text(
                    "SELECT game_id, COUNT(*) FROM actions WHERE seat = 0 "
                    "AND kind NOT IN ('takeover', 'handback') GROUP BY game_id"
                )
            ).fetchall()
    finally:
        engine.dispose()
    return {str(g): int(n) for g, n in rows}


# --------------------------------------------------------------------- the run


async def _drive_cluster(
    servers: list[ServerProcess],
    meter: CpuMeter,
    echo_port: int,
    db_url: str,
    games: int,
    actions: int,
    seed: int,
    time_limit: float,
    pacing: bench.Pacing,
    saturation: bool,
    ice_share: float,
    routing: str = "game",
) -> tuple[dict[str, Any], bench.Phase]:
    """The paced phase on every process (and the saturated ones); the figures and
    the paced phase (its round trips, for ``--trace-slow``)."""
    ports = [s.port for s in servers]
    pids = [s.proc.pid for s in servers]

    def stored() -> dict[str, int] | None:
        return stored_human_actions_pg(db_url)

    spread: dict[str, Any] = {"ports": ports, "pids": pids, "stored": stored, "routing": routing}
    r, paced = await bench._drive(
        pids[0],
        ports[0],
        echo_port,
        games,
        actions,
        seed,
        time_limit,
        pacing,
        None,
        False,
        ice_share,
        phase_kw=spread,
    )
    nan = float("nan")
    r["processes"] = len(servers)
    r["routing"] = routing
    sat_pacing = bench.Pacing(think_ms=0.0, min_interval=pacing.min_interval)
    if not saturation:
        return r, paced
    phases: dict[int, tuple[bench.Phase, dict[str, float]]] = {}
    # One process first, then all of them: the same database, Redis and clients.
    for n, offset in ((1, 2 * games), (len(servers), games)):
        meter.servers = pids[:n]
        meter.start()
        phase = await bench._play_phase(
            pids[0],
            ports[0],
            games,
            actions,
            seed + offset,
            time_limit,
            sat_pacing,
            None,
            ice_share=ice_share,
            ports=ports[:n],
            pids=pids[:n],
            stored=stored,
            routing=routing,
        )
        phases[n] = (phase, meter.stop())
    sat, cpu = phases[len(servers)]
    one, cpu1 = phases[1]
    rate = bench._rate(sat.acked, sat.elapsed)
    rate1 = bench._rate(one.acked, one.elapsed)
    r.update(
        {
            "saturation": True,
            "saturation_pacing": sat_pacing.describe(),
            "saturation_actions": sat.acked,
            "saturation_all_actions": sat.all_actions,
            "saturation_actions_per_s": rate,
            "saturation_all_actions_per_s": bench._rate(sat.all_actions, sat.elapsed),
            "saturation_p50_ms": bench.percentile(sat.latencies, 50) * 1e3,
            "saturation_p99_ms": bench.percentile(sat.latencies, 99) * 1e3,
            "saturation_errors": len(sat.errors),
            "saturation_lost_actions": sat.lost,
            "saturation_server_cpu": sat.server_cpu,
            "saturation_cpu": cpu,
            "saturation_1_actions_per_s": rate1,
            "saturation_1_all_actions_per_s": bench._rate(one.all_actions, one.elapsed),
            "saturation_1_p50_ms": bench.percentile(one.latencies, 50) * 1e3,
            "saturation_1_p99_ms": bench.percentile(one.latencies, 99) * 1e3,
            "saturation_1_errors": len(one.errors),
            "saturation_1_lost_actions": one.lost,
            "saturation_1_cpu": cpu1,
            "scaling": rate / rate1 if rate1 > 0 else nan,
        }
    )
    r["errors"] += len(sat.errors) + len(one.errors)
    r["error_samples"] = sorted(set(r["error_samples"]) | set(sat.errors) | set(one.errors))[:5]
    r["lost_actions"] += sat.lost + one.lost
    r["unexpected_actions"] += sat.extra + one.extra
    return r, paced


def run_cluster(
    processes: int,
    games: int = 200,
    actions: int = 40,
    db: str | None = None,
    redis_url: str | None = None,
    seed: int = 1,
    time_limit: float | None = None,
    think_ms: float = bench.THINK_MS,
    saturation: bool = True,
    ice_share: float = bench.ICE_SHARE,
    trace_slow: bool = False,
    routing: str = "game",
) -> dict[str, Any]:
    """:func:`erebus.bench.server.run` on ``processes`` servers sharing PostgreSQL + Redis.
    ``routing``: which process each game's seat connects to (:func:`seat_process`).
    ``trace_slow``: each server records its trace (``EREBUS_TRACE``, one file per
    process) and ``"slow_trace"`` reads the slowest round trips in them
    (:func:`erebus.bench.server.slow_trace`)."""
    if processes < 2:
        raise ValueError("run_cluster needs at least 2 processes")
    if games < 1 or actions < 1:
        raise ValueError("games and actions must be at least 1")
    if routing not in ROUTINGS:
        raise ValueError(f"routing must be one of {ROUTINGS}, not {routing!r}")
    if time_limit is None:
        time_limit = bench.default_time_limit(actions, think_ms)
    pacing = bench.Pacing(think_ms=think_ms)
    with contextlib.ExitStack() as stack:
        tmpdir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="erebus-bench-")))
        db_url = stack.enter_context(pg_schema(db or DEFAULT_PG))
        redis_pid: int | None = None
        if redis_url is None:
            redis_url, redis_pid = stack.enter_context(private_redis(tmpdir))
        env = {**os.environ, "REDIS_URL": redis_url, "PYTHONUNBUFFERED": "1"}
        env.pop("DATABASE_URL", None)
        py = sys.executable
        procs: list[bench.Process] = []

        def stop_all() -> None:
            for p in procs:
                p.stop()

        stack.callback(stop_all)
        servers: list[ServerProcess] = []
        traces = [tmpdir / f"trace-{i}.jsonl" for i in range(processes)]
        for i in range(processes):
            port = bench.free_port()
            srv_env = {**env, bench.ENV_TRACE: str(traces[i])} if trace_slow else env
            srv = ServerProcess(
                [
                    py,
                    "-m",
                    "erebus.cli",
                    "serve",
                    *("--host", HOST, "--port", str(port)),
                    *("--db", db_url),
                    *("--create-per-minute", str(max(1000, 10 * games))),
                    *("--api-rate", "1000", "--api-burst", str(max(1000, 10 * games))),
                    *("--max-live-games", str(max(4000, 6 * games))),
                ],
                port,
                tmpdir / f"server-{i}.log",
                srv_env,
            )
            procs.append(srv)
            servers.append(srv)
            if i == 0:  # the first one migrates the schema; the others then start at once
                srv.wait_ready("/api/games")
        echo_port = bench.free_port()
        echo = bench.Process(
            [py, "-m", "erebus.bench.server", "echo", "--port", str(echo_port)],
            echo_port,
            tmpdir / "echo.log",
        )
        procs.append(echo)
        for srv in servers:
            srv.wait_ready("/api/games")
        echo.wait_ready("/health")
        meter = CpuMeter([], redis_pid, echo.proc.pid)
        with asyncio.Runner(loop_factory=bench._client_loop()) as runner:
            out, paced = runner.run(
                _drive_cluster(
                    servers,
                    meter,
                    echo_port,
                    db_url,
                    games,
                    actions,
                    seed,
                    time_limit,
                    pacing,
                    saturation,
                    ice_share,
                    routing,
                )
            )
        stop_all()  # the servers write their traces out as they stop
        if trace_slow:
            found = [p for p in traces if p.exists()]
            out["slow_trace"] = bench.slow_trace(paced, found) if found else {"missing": True}
    return out


def _shares(cpu: dict[str, float]) -> str:
    return ", ".join(f"{k} {v * 100:.0f}%" for k, v in cpu.items())


def render_cluster(r: dict[str, Any]) -> Any:
    """The single-process table with the cluster's lines: 1 vs N saturated, CPU shares."""
    table = bench.render(r)
    n = r["processes"]
    table.title = str(table.title).replace(
        "one server process",
        f"{n} server processes (PostgreSQL + Redis, clients spread, "
        + (
            "routed by game"
            if r.get("routing", "game") == "game"
            else "each seat on another process than its game's creator"
        )
        + ")",
    )
    if r["saturation"]:
        table.add_section()
        table.add_row(
            "saturation, 1 process: actions / s (client; all)",
            f"{r['saturation_1_actions_per_s']:,.0f}; {r['saturation_1_all_actions_per_s']:,.0f}",
            "—",
        )
        table.add_row(
            "saturation, 1 process: p50; p99 (ms)",
            f"{bench._ms(r['saturation_1_p50_ms'])}; {bench._ms(r['saturation_1_p99_ms'])}",
            "—",
        )
        table.add_row(
            "saturation, 1 process: errors; lost",
            f"{r['saturation_1_errors']}; {r['saturation_1_lost_actions']}",
            "—",
        )
        table.add_row(f"saturation: {n} / 1 processes (target ≥ 1.7×)", f"{r['scaling']:.2f}×", "")
        table.caption = (
            f"{table.caption}; cores used, saturated with {n}: {_shares(r['saturation_cpu'])}; "
            f"with 1: {_shares(r['saturation_1_cpu'])}"
        )
    return table
