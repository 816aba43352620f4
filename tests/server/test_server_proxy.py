"""The README's reverse-proxy configurations (``deploy/nginx-erebus.conf`` and
``deploy/Caddyfile``), run for real in front of two ``erebus serve`` processes on one
PostgreSQL schema and a private Redis: every request about one game reaches one
process (both seats' sockets and their HTTP actions), the games spread over both,
and when that process is killed the game's sockets reconnect through the proxy to the
other process and play on.  Skipped with a message where ``nginx`` or ``caddy`` is not
installed (``make proxies`` installs both from Debian's packages)."""

from __future__ import annotations

import random
import re
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import httpx
import pytest
from cluster_helpers import PrivateRedis, Server, Watcher, free_port, need_cluster

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
GAMES = 12  # all on one process by chance: 2 ** -11
HUMANS = {"players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}


def _wait_port(port: int, proc: subprocess.Popen[bytes], log: Path) -> None:
    end = time.monotonic() + 20
    while time.monotonic() < end:
        if proc.poll() is not None:
            break
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise AssertionError(f"the proxy did not start:\n{log.read_text(errors='replace')}")


def nginx_config(tmp: Path, listen: int, backends: list[int]) -> Path:
    """The example, its three upstreams replaced by ``backends`` and its port by
    ``listen``, inside a minimal ``nginx.conf`` that keeps its files in ``tmp``."""
    site = (DEPLOY / "nginx-erebus.conf").read_text()
    lines = "".join(f"    server 127.0.0.1:{p} max_fails=1 fail_timeout=5s;\n" for p in backends)
    site, n = re.subn(r"(    server 127\.0\.0\.1:\d+ [^\n]*\n)+", lines, site)
    assert n == 1, "the example's upstream block changed"
    site, n = re.subn(r"listen 80;", f"listen 127.0.0.1:{listen};", site)
    assert n == 1
    (tmp / "erebus.conf").write_text(site)
    conf = tmp / "nginx.conf"
    temp = "".join(
        f"    {kind}_temp_path {tmp}/{kind};\n"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    conf.write_text(
        f"daemon off;\npid {tmp}/nginx.pid;\nerror_log {tmp}/nginx-error.log;\n"
        f"events {{}}\nhttp {{\n    access_log {tmp}/nginx-access.log;\n{temp}"
        f"    include {tmp}/erebus.conf;\n}}\n"
    )
    return conf


def caddy_config(tmp: Path, listen: int, backends: list[int]) -> Path:
    """The example with ``backends`` as its upstreams, served over plain HTTP on
    ``listen`` (no certificate, no admin endpoint)."""
    site = (DEPLOY / "Caddyfile").read_text()
    site, n = re.subn(
        r"reverse_proxy( 127\.0\.0\.1:\d+)+",
        "reverse_proxy " + " ".join(f"127.0.0.1:{p}" for p in backends),
        site,
    )
    assert n == 1, "the example's upstreams changed"
    site, n = re.subn(r"^games\.example\.org \{", f"http://127.0.0.1:{listen} {{", site, flags=re.M)
    assert n == 1
    conf = tmp / "Caddyfile"
    conf.write_text("{\n\tadmin off\n\tauto_https off\n}\n\n" + site)
    return conf


class Proxy(SimpleNamespace):
    base: str
    ws_base: str
    proc: subprocess.Popen[bytes]


@pytest.fixture(params=["nginx", "caddy"])
def cluster(
    request: pytest.FixtureRequest, tmp_path: Path, postgres_url: str
) -> Iterator[tuple[Proxy, list[Server]]]:
    need_cluster()
    kind = str(request.param)
    binary = shutil.which(kind) or (
        f"/usr/sbin/{kind}" if Path(f"/usr/sbin/{kind}").exists() else None
    )
    if binary is None:
        pytest.skip(f"{kind} is not installed (make proxies)")
    redis = PrivateRedis(tmp_path)
    redis.start()
    servers: list[Server] = []
    proc: subprocess.Popen[bytes] | None = None
    try:
        servers = [Server(tmp_path, postgres_url, redis.url).start() for _ in range(2)]
        listen = free_port()
        ports = [s.port for s in servers]
        log = tmp_path / f"{kind}.out"
        if kind == "nginx":
            cmd = [binary, "-p", str(tmp_path), "-c", str(nginx_config(tmp_path, listen, ports))]
            env = None
        else:
            conf = caddy_config(tmp_path, listen, ports)
            cmd = [binary, "run", "--config", str(conf), "--adapter", "caddyfile"]
            env = {"HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
        with log.open("wb") as out:
            proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env)
        _wait_port(listen, proc, log)
        base = f"http://127.0.0.1:{listen}"
        yield Proxy(base=base, ws_base=f"ws://127.0.0.1:{listen}", proc=proc), servers
    finally:
        if proc is not None and proc.poll() is None:
            proc.terminate()
            proc.wait(10)
        for s in servers:
            s.stop()
        redis.kill()


def _served_by(servers: list[Server], gid: str) -> list[int]:
    """Which servers' access logs show a request or WebSocket about game ``gid``."""
    pattern = re.compile(rf"/(?:api|ws)/games/{re.escape(gid)}(?![\w-])")
    return [i for i, s in enumerate(servers) if pattern.search(s.output())]


def _play_one(http: httpx.Client, gid: str, tok: dict[int, str], rng: random.Random) -> int:
    """The seat to move makes one legal move over HTTP (through the proxy); the new
    version."""
    for token in tok.values():
        g = http.get(f"/api/games/{gid}?token={token}").json()
        if g["legal_actions"]:
            body = {"version": g["version"], "action": rng.choice(g["legal_actions"])}
            r = http.post(f"/api/games/{gid}/actions?token={token}", json=body)
            assert r.status_code == 200, r.text
            return int(g["version"]) + 1
    raise AssertionError("no seat could move")


def test_a_game_stays_on_one_process_and_moves_when_it_dies(
    cluster: tuple[Proxy, list[Server]],
) -> None:
    proxy, servers = cluster
    rng = random.Random(5)
    with httpx.Client(base_url=proxy.base, timeout=20) as http:
        games = []
        for i in range(GAMES):
            r = http.post("/api/games", json={**HUMANS, "seed": 10 + i})
            assert r.status_code == 201, r.text
            g = r.json()
            games.append((g["id"], {s["seat"]: s["token"] for s in g["seats"]}))
        watchers: dict[str, list[Watcher]] = {}
        for gid, tok in games:
            watchers[gid] = [Watcher(proxy, gid, tok[seat]) for seat in sorted(tok)]
            for w in watchers[gid]:
                w.wait(lambda st: st["version"] == 0, what="the first state")
            version = _play_one(http, gid, tok, rng)
            for w in watchers[gid]:
                w.wait(lambda st, v=version: st["version"] >= v, what="the move's push")
        home: dict[str, int] = {}
        for gid, _ in games:
            found = _served_by(servers, gid)
            # Created on any process; every later request and both sockets on one.
            ws_on = [
                i
                for i, s in enumerate(servers)
                if re.search(rf"/ws/games/{re.escape(gid)}(?![\w-])", s.output())
            ]
            assert len(ws_on) == 1, f"game {gid}'s sockets reached processes {ws_on}"
            assert ws_on[0] in found
            home[gid] = ws_on[0]
            actions_on = [
                i
                for i, s in enumerate(servers)
                if re.search(rf"POST /api/games/{re.escape(gid)}/actions", s.output())
            ]
            assert actions_on == ws_on, f"game {gid}: actions on {actions_on}, sockets on {ws_on}"
        assert set(home.values()) == {0, 1}, "every game was routed to one process"

        # The process of the first game dies; its sockets reconnect through the proxy
        # to the other one, which loads the game from the database and plays on.
        gid, tok = games[0]
        dead = home[gid]
        servers[dead].kill()
        for w in watchers[gid]:
            w.close()
        again = [Watcher(proxy, gid, tok[seat]) for seat in sorted(tok)]
        for w in again:
            w.wait(lambda st: st["version"] == 1, what="the state after the move", timeout=30)
        version = _play_one(http, gid, tok, rng)
        for w in again:
            w.wait(lambda st, v=version: st["version"] >= v, what="a push from the survivor")
        assert re.search(rf"/ws/games/{re.escape(gid)}(?![\w-])", servers[1 - dead].output())
        others = [w for g, ws in watchers.items() if g != gid for w in ws]
        for w in [*again, *others]:
            w.close()
