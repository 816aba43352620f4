"""Helpers for the cluster tests: a private Redis server (started, killed and started
again on its own port, never the machine's shared one) and ``erebus serve``
processes on one PostgreSQL schema, with WebSocket watchers that check what each
socket is pushed."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

import erebus

REDIS_SKIP = "cluster tests need redis-server on the PATH and the redis package"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def redis_available() -> bool:
    try:
        import redis  # noqa: F401
    except ImportError:
        return False
    return shutil.which("redis-server") is not None


class PrivateRedis:
    """``redis-server --port <free port> --save '' --appendonly no``: no disk, so a
    restart starts empty (as after a crash of a Redis without persistence)."""

    def __init__(self, tmp: Path) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.tmp = tmp
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        cmd = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1"]
        cmd += ["--save", "", "--appendonly", "no", "--dir", str(self.tmp)]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        end = time.monotonic() + 10
        while time.monotonic() < end:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                time.sleep(0.02)
        raise AssertionError("redis-server did not start")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)
        self.proc = None


class Server:
    """``erebus serve`` with ``REDIS_URL`` on a PostgreSQL URL, in a subprocess."""

    def __init__(self, tmp: Path, db_url: str, redis_url: str, *extra: str) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_base = f"ws://127.0.0.1:{self.port}"
        self.cmd = [sys.executable, "-m", "erebus.cli", "serve", "--port", str(self.port)]
        self.cmd += ["--db", db_url, "--api-rate", "0", "--create-per-minute", "0", *extra]
        self.redis_url = redis_url
        self.tmp = tmp
        self.proc: subprocess.Popen[bytes] | None = None
        self.http = httpx.Client(base_url=self.base, timeout=20)

    def start(self) -> Server:
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "REDIS_URL": self.redis_url}
        env.pop("DATABASE_URL", None)
        # The erebus under test (a relative PYTHONPATH would not reach it from ``tmp``).
        src = str(Path(erebus.__file__).resolve().parents[1])
        env["PYTHONPATH"] = os.pathsep.join([src, *filter(None, [env.get("PYTHONPATH")])])
        log = (self.tmp / f"server-{self.port}.log").open("wb")
        self.proc = subprocess.Popen(
            self.cmd, env=env, cwd=self.tmp, stdout=log, stderr=subprocess.STDOUT
        )
        for _ in range(600):
            try:
                self.http.get("/api/catalog", timeout=0.5)
                return self
            except httpx.HTTPError:
                if self.proc.poll() is not None:
                    break
                time.sleep(0.05)
        raise AssertionError(f"the server did not start:\n{self.output()}")

    def output(self) -> str:
        path = self.tmp / f"server-{self.port}.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.kill()
        self.http.close()

    def get(self, gid: str, token: str | None = None) -> Any:
        r = self.http.get(f"/api/games/{gid}" + (f"?token={token}" if token else ""))
        assert r.status_code == 200, r.text
        return r.json()

    def act(self, gid: str, token: str, version: int, action: Any) -> httpx.Response:
        body = {"version": version, "action": action}
        return self.http.post(f"/api/games/{gid}/actions?token={token}", json=body)


class Watcher:
    """A WebSocket on one server: a thread reads every message, and each ``state``
    is checked against the one before (versions rise, ``events_since`` is the
    previous state's version or null); ``events`` is the client's own event list,
    kept as the web client keeps it."""

    def __init__(self, srv: Server, gid: str, token: str | None = None) -> None:
        from websockets.sync.client import connect

        url = f"{srv.ws_base}/ws/games/{gid}" + (f"?token={token}" if token else "")
        self.ws = connect(url, open_timeout=20, max_size=None, legacy=True)
        self.messages: list[dict[str, Any]] = []
        self.states: list[dict[str, Any]] = []
        self.events: list[dict[str, Any]] = []
        self.chat: list[dict[str, Any]] = []
        self.problems: list[str] = []
        self.closed = False
        self._last_send = 0.0
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        try:
            for raw in self.ws:
                msg = json.loads(raw)
                with self._lock:
                    self.messages.append(msg)
                    if msg["type"] == "state":
                        self._state(msg)
                    elif msg["type"] == "chat":
                        self.chat.append(msg)
                    elif msg["type"] == "chat_history":
                        self.chat = list(msg["chat"])
        except Exception:
            pass
        self.closed = True

    def _state(self, msg: dict[str, Any]) -> None:
        if self.states:
            prev = self.states[-1]["version"]
            if msg["version"] < prev:
                self.problems.append(f"version {msg['version']} after {prev}")
            if msg["events_since"] is not None and msg["events_since"] != prev:
                self.problems.append(f"events since {msg['events_since']}, last sent {prev}")
        if msg["events_since"] is None:
            self.events = list(msg["events"])
        else:
            self.events += msg["events"]
        self.states.append(msg)

    def latest(self) -> dict[str, Any] | None:
        with self._lock:
            return self.states[-1] if self.states else None

    def wait(self, cond: Any, timeout: float = 20.0, what: str = "a state") -> dict[str, Any]:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            st = self.latest()
            if st is not None and cond(st):
                return st
            time.sleep(0.01)
        with self._lock:
            errors = [m for m in self.messages if m["type"] == "error"]
            last = self.states[-1]["version"] if self.states else None
        raise AssertionError(f"no {what} within {timeout}s; last version {last}, errors {errors}")

    def wait_chat(self, n: int, timeout: float = 20.0) -> list[dict[str, Any]]:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with self._lock:
                if len(self.chat) >= n:
                    return list(self.chat)
            time.sleep(0.01)
        raise AssertionError(f"{len(self.chat)} chat lines, not {n}")

    def send(self, msg: dict[str, Any]) -> None:
        # The server takes at most 20 messages a second per socket (then an error
        # message, and the action is not made): stay under it.
        pause = self._last_send + 0.06 - time.monotonic()
        if pause > 0:
            time.sleep(pause)
        self._last_send = time.monotonic()
        self.ws.send(json.dumps(msg))

    def close(self) -> None:
        self.ws.close()
        self._thread.join(5)


def need_cluster() -> None:
    if not redis_available():
        pytest.skip(REDIS_SKIP)
