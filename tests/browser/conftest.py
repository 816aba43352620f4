"""Fixtures for the browser tests: the real ``erebus serve`` in a subprocess and
Playwright (sync API) driving Debian's Chromium at ``/usr/bin/chromium``.

Every pytest(-xdist) worker starts its own server on a free port with its own
SQLite file under its own ``tmp_path_factory`` directory, so ``pytest -n 2``
runs do not collide.  Screenshots go to ``tests/output/`` (git-ignored).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
OUTPUT = Path(__file__).resolve().parents[1] / "output"
REPO = Path(__file__).resolve().parents[2]

SKIP_REASON = f"browser tests need Chromium at {CHROMIUM} and the playwright package"


def browser_available() -> bool:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return False
    return CHROMIUM.exists()


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    base: str
    log: Path

    def api(self, method: str, path: str, body: Any = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(
            self.base + path,
            data=data,
            method=method,
            headers={"Content-Type": "application/json"} if data else {},
        )
        with urllib.request.urlopen(req, timeout=10) as r:
            return json.loads(r.read().decode())

    def game(self, game_id: str, token: str | None = None) -> Any:
        q = f"?token={token}" if token else ""
        return self.api("GET", f"/api/games/{game_id}{q}")

    def create(self, seats: list[dict[str, Any]], seed: int | None = None) -> Any:
        body: dict[str, Any] = {"game": "northwest", "players": len(seats), "seats": seats}
        if seed is not None:
            body["seed"] = seed
        return self.api("POST", "/api/games", body)


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``erebus serve`` on 127.0.0.1:<free port> with a fresh SQLite database."""
    tmp = tmp_path_factory.mktemp("erebus-server")
    log = tmp / "server.log"
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    env.pop("DATABASE_URL", None)
    src = str(REPO / "src")
    env["PYTHONPATH"] = src + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    proc: subprocess.Popen[bytes] | None = None
    base = ""
    for _attempt in range(3):  # a free port can be taken between probe and bind
        port = _free_port()
        base = f"http://127.0.0.1:{port}"
        cmd = [sys.executable, "-m", "erebus.cli", "serve", "--host", "127.0.0.1"]
        cmd += ["--port", str(port), "--db", f"sqlite:///{tmp}/e.db"]
        # The tests drive games over the API as fast as they can: no rate limits (the
        # headers, the CSP and the Origin rule stay on).
        cmd += ["--api-rate", "0", "--create-per-minute", "0"]
        with log.open("ab") as out:
            proc = subprocess.Popen(
                cmd, cwd=tmp, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                with urllib.request.urlopen(base + "/", timeout=1) as r:
                    if r.status == 200:
                        break
            except (urllib.error.URLError, OSError):
                time.sleep(0.1)
        if proc.poll() is None:
            break
    else:
        pytest.fail(f"erebus serve did not start:\n{log.read_text(errors='replace')[-3000:]}")
    assert proc is not None
    if proc.poll() is not None:
        pytest.fail(f"erebus serve exited:\n{log.read_text(errors='replace')[-3000:]}")
    try:
        yield Server(base, log)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)  # our own process group (bot workers too)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=5)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not browser_available():
        pytest.skip(SKIP_REASON)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        try:
            yield b
        finally:
            b.close()


class PageErrors:
    """JavaScript errors and error toasts seen on the pages of a test."""

    def __init__(self) -> None:
        self.errors: list[str] = []

    # The client asks for /api/content/northwest first and falls back to the bundled
    # northwest-tiles.json when the server has no such route (the 404 is expected).
    ALLOWED_HTTP_ERRORS = ("/api/content/northwest",)

    def watch(self, page: Any, label: str) -> Any:
        page.on("pageerror", lambda exc: self.errors.append(f"{label}: pageerror {exc}"))
        page.on("console", lambda msg: self._console(label, msg))
        page.on("response", lambda r: self._response(label, r))
        page.on("dialog", lambda d: d.accept())  # "Pass for the rest of this round?"
        page.set_default_timeout(15_000)
        return page

    def _console(self, label: str, msg: Any) -> None:
        # Failed requests are checked by URL in _response.
        if msg.type == "error" and not msg.text.startswith("Failed to load resource"):
            self.errors.append(f"{label}: console {msg.text}")

    def _response(self, label: str, response: Any) -> None:
        if response.status >= 400 and not response.url.split("?")[0].endswith(
            self.ALLOWED_HTTP_ERRORS
        ):
            self.errors.append(f"{label}: HTTP {response.status} {response.url.split('?')[0]}")


@pytest.fixture
def new_page(browser: Any) -> Iterator[Any]:
    """``new_page(label, lang="en")``: a page in its own browser context (own storage)."""
    contexts: list[Any] = []
    errors = PageErrors()

    def make(label: str, lang: str = "en") -> Any:
        ctx = browser.new_context(
            locale=lang, viewport={"width": 1400, "height": 1000}, device_scale_factor=1
        )
        contexts.append(ctx)
        return errors.watch(ctx.new_page(), label)

    make.errors = errors  # type: ignore[attr-defined]
    try:
        yield make
    finally:
        for ctx in contexts:
            with contextlib.suppress(Exception):
                ctx.close()


@pytest.fixture(scope="session")
def output_dir() -> Path:
    OUTPUT.mkdir(parents=True, exist_ok=True)
    return OUTPUT
