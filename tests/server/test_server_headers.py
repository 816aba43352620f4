"""Security headers on every response, the offline /docs, the WebSocket Origin rule
and seat tokens kept out of every log line."""

from __future__ import annotations

import contextlib
import logging
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from server_helpers import make_client, new_game
from starlette.websockets import WebSocketDisconnect
from uvicorn.logging import AccessFormatter, DefaultFormatter

from erebus.server.app import WEB_DIR, create_app
from erebus.server.guard import (
    RedactTokens,
    content_security_policy,
    origin_allowed,
    redact,
)
from erebus.server.run import ORIGINS_ENV, server_settings
from erebus.server.service import Settings

HEADERS = {
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
}
TWO = [{"kind": "human"}, {"kind": "human"}]


def assert_guarded(r: object) -> None:
    headers = r.headers  # type: ignore[attr-defined]
    for k, v in HEADERS.items():
        assert headers.get(k) == v, (r, k)
    csp = headers["content-security-policy"]
    assert "script-src 'self';" in csp
    assert "frame-ancestors 'none'" in csp
    assert "'unsafe-eval'" not in csp
    assert re.search(r"script-src [^;]*'unsafe-inline'", csp) is None


@pytest.fixture
def raw_client(sqlite_url: str) -> Iterator[TestClient]:
    """A client that sees 500s as responses (an app route that fails on purpose)."""
    app = create_app(sqlite_url, Settings(bot_mode="inline", api_rate=0, create_per_minute=0))

    @app.get("/api/boom")
    async def boom() -> None:
        raise RuntimeError("a bug")

    app.router.routes.insert(0, app.router.routes.pop())  # before the catch-all mount

    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


@pytest.mark.parametrize(
    "method,path,status",
    [
        ("GET", "/", 200),
        ("GET", "/game/abc", 200),
        ("GET", "/static/app.js", 200),
        ("GET", "/static/style.css", 200),
        ("GET", "/app.js", 200),
        ("GET", "/api/games", 200),
        ("GET", "/api/games/nope", 404),
        ("GET", "/api/games/%00", 404),
        ("GET", "/no/such/page", 404),
        ("GET", "/static/nothing.js", 404),
        ("POST", "/api/games?x=1", 400),
        ("DELETE", "/api/games", 405),
        ("GET", "/api/boom", 500),
        ("GET", "/openapi.json", 200),
        ("GET", "/docs", 200),
        ("GET", "/docs/init.js", 200),
        ("GET", "/docs/assets/swagger-ui-bundle.js", 200),
        ("GET", "/docs/assets/swagger-ui.css", 200),
        ("GET", "/redoc", 200),
    ],
)
def test_headers_everywhere(raw_client: TestClient, method: str, path: str, status: int) -> None:
    body = b"[" if method == "POST" else None
    r = raw_client.request(method, path, content=body)
    assert r.status_code == status, (path, r.text[:200])
    assert_guarded(r)


def test_csp_connects_to_this_host_only() -> None:
    csp = content_security_policy("play.example.org:8443")
    assert "connect-src 'self' ws://play.example.org:8443 wss://play.example.org:8443;" in csp
    for evil in ("a; script-src *", "x y", "", None, "a\r\nb"):
        assert "connect-src 'self';" in content_security_policy(evil)


def test_a_rate_limited_or_failed_answer_is_guarded(raw_client: TestClient) -> None:
    assert_guarded(raw_client.post("/api/games", content=b"[" * 20000))


def test_the_web_client_runs_under_the_csp() -> None:
    """No inline scripts or handlers, no eval: what the CSP would block."""
    html = (WEB_DIR / "index.html").read_text()
    for tag in re.findall(r"<script\b[^>]*>(.*?)</script>", html, flags=re.S):
        assert tag.strip() == "", "inline script in index.html"
    assert all('src="/' in t for t in re.findall(r"<script\b[^>]*>", html))
    assert re.search(r"\son[a-z]+\s*=", html) is None, "inline event handler"
    for js in WEB_DIR.rglob("*.js"):
        text = js.read_text()
        assert "eval(" not in text and "new Function" not in text, js


def _scripts_and_links(html: str) -> list[str]:
    return re.findall(r'<(?:script|link)\b[^>]*(?:src|href)="([^"]*)"', html)


@pytest.mark.parametrize("path", ["/docs", "/redoc"])
def test_docs_are_offline(raw_client: TestClient, path: str) -> None:
    html = raw_client.get(path).text
    refs = _scripts_and_links(html)
    assert refs and all(ref.startswith("/") and not ref.startswith("//") for ref in refs), refs
    assert "cdn" not in html.lower() and "http" not in html.lower()
    for body in re.findall(r"<script\b[^>]*>(.*?)</script>", html, flags=re.S):
        assert body.strip() == "", "inline script on the docs page"
    for ref in refs:
        r = raw_client.get(ref)
        assert r.status_code == 200, ref
    assert "SwaggerUIBundle" in raw_client.get("/docs/init.js").text


# ------------------------------------------------------------------ Origin


@pytest.mark.parametrize(
    "origin,host,allowed,ok",
    [
        (None, "example.org", (), True),
        ("http://example.org", "example.org", (), True),
        ("https://example.org", "example.org", (), True),  # TLS ends at a proxy
        ("https://EXAMPLE.org:443", "example.org", (), True),
        ("http://example.org:8000", "example.org:8000", (), True),
        ("http://example.org:8001", "example.org:8000", (), False),
        ("http://127.0.0.1:8000", "localhost:8000", (), False),
        ("http://evil.example", "example.org", (), False),
        ("http://example.org.evil.example", "example.org", (), False),
        ("null", "example.org", (), False),
        ("", "example.org", (), False),
        ("file://", "example.org", (), False),
        ("http://[::1]:8000", "[::1]:8000", (), True),
        ("http://example.org:99999", "example.org", (), False),
        ("https://friend.example", "example.org", ("https://friend.example/",), True),
        ("https://friend.example:443", "example.org", ("https://friend.example",), True),
        ("http://friend.example", "example.org", ("https://friend.example",), False),
        ("http://example.org", None, (), False),
    ],
)
def test_origin_rule(
    origin: str | None, host: str | None, allowed: tuple[str, ...], ok: bool
) -> None:
    assert origin_allowed(origin, host, allowed) is ok


def test_websocket_refuses_foreign_origins(client: TestClient) -> None:
    gid = new_game(client, TWO)["id"]
    with client.websocket_connect(f"/ws/games/{gid}") as ws:  # no Origin: a program
        assert ws.receive_json()["type"] == "chat_history"
    same = {"origin": "http://testserver"}
    with client.websocket_connect(f"/ws/games/{gid}", headers=same) as ws:
        assert ws.receive_json()["type"] == "chat_history"
    for origin in ("http://evil.example", "null", "http://testserver:8080"):
        with (
            pytest.raises(WebSocketDisconnect) as exc,
            client.websocket_connect(f"/ws/games/{gid}", headers={"origin": origin}),
        ):
            pass
        assert exc.value.code == 4403, origin


def test_allowed_origins_setting(sqlite_url: str) -> None:
    s = Settings(bot_mode="inline", allowed_origins=("https://friend.example",))
    with TestClient(create_app(sqlite_url, s)) as c:
        gid = new_game(c, TWO)["id"]
        ok = {"origin": "https://friend.example"}
        with c.websocket_connect(f"/ws/games/{gid}", headers=ok) as ws:
            assert ws.receive_json()["type"] == "chat_history"
        with (
            pytest.raises(WebSocketDisconnect),
            c.websocket_connect(f"/ws/games/{gid}", headers={"origin": "https://x.example"}),
        ):
            pass


def test_origins_from_flags_and_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ORIGINS_ENV, "https://a.example, https://b.example")
    s = server_settings(["https://c.example"], api_rate=5.0, max_live_games=None)
    assert s.allowed_origins == ("https://a.example", "https://b.example", "https://c.example")
    assert s.api_rate == 5.0 and s.max_live_games == Settings().max_live_games
    monkeypatch.delenv(ORIGINS_ENV)
    assert server_settings().allowed_origins == ()


# --------------------------------------------------------------- the logs

SECRET = "S3cr3tT0k3nValue_xyz"
SPELLINGS = [
    f"/game/abc?token={SECRET}",
    f"/api/games/abc?version=1&token={SECRET}",
    f"/api/games/abc?token={SECRET}&version=1",
    f"/ws/games/abc?TOKEN={SECRET}",
    f"/ws/games/abc?Token={SECRET}",
    f"/ws/games/abc?%74oken={SECRET}",
    f"/ws/games/abc?%54%4F%4B%45%4E={SECRET}",
    f"/ws/games/abc?to%6Ben={SECRET}",
    f"/ws/games/abc?%2574oken={SECRET}",
    f"/ws/games/abc?token+={SECRET}",
    f"/api/games?tokens={SECRET},{SECRET}",
    f"/api/games?x=1&TOKENS={SECRET}%2C{SECRET}",
    f"/api/games?a=1;token={SECRET}",
    f"/api/games?token={SECRET}&token={SECRET}",
    f"token={SECRET}",
]


@pytest.mark.parametrize("line", SPELLINGS)
def test_redact_every_spelling(line: str) -> None:
    out = redact(line)
    assert SECRET not in out and "[redacted]" in out, out


def test_redact_keeps_everything_else() -> None:
    line = "/api/games/abc?version=12&mytoken=keep&token_x=keep2&token=gone"
    assert redact(line) == "/api/games/abc?version=12&mytoken=keep&token_x=keep2&token=[redacted]"
    assert redact("no query at all") == "no query at all"


def _format(formatter: logging.Formatter, record: logging.LogRecord) -> str:
    assert RedactTokens().filter(record)
    return formatter.format(record)


@pytest.mark.parametrize("path", SPELLINGS[:-1])
def test_uvicorn_access_log(path: str) -> None:
    """A record as uvicorn's access logger makes it, through uvicorn's formatter."""
    record = logging.LogRecord(
        "uvicorn.access",
        logging.INFO,
        __file__,
        1,
        '%s - "%s %s HTTP/%s" %d',
        ("127.0.0.1:5000", "GET", path, "1.1", 200),
        None,
    )
    fmt = AccessFormatter('%(client_addr)s - "%(request_line)s" %(status_code)s', use_colors=False)
    out = _format(fmt, record)
    assert SECRET not in out and "GET /" in out and "200" in out, out


def test_error_log_and_traceback() -> None:
    try:
        raise ValueError(f"bad request /api/games/x?token={SECRET}")
    except ValueError:
        exc_info = sys.exc_info()
    record = logging.LogRecord(
        "uvicorn.error",
        logging.ERROR,
        __file__,
        1,
        '%s - "WebSocket %s" %d',
        ("127.0.0.1:5000", f"/ws/games/x?%74oken={SECRET}", 403),
        exc_info,
    )
    out = _format(DefaultFormatter("%(levelprefix)s %(message)s", use_colors=False), record)
    assert SECRET not in out and "ValueError" in out, out


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_real_server_log_has_no_tokens(tmp_path: Path) -> None:
    """``erebus serve`` in a subprocess: its whole output, requests with tokens in
    several spellings (HTTP and WebSocket), holds none of them."""
    import httpx
    from websockets.sync.client import connect

    port = _free_port()
    log = tmp_path / "server.log"
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    env.pop("DATABASE_URL", None)
    src = str(Path(__file__).resolve().parents[2] / "src")
    env["PYTHONPATH"] = src + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    cmd = [sys.executable, "-m", "erebus.cli", "serve", "--host", "127.0.0.1", "--port", str(port)]
    cmd += ["--db", f"sqlite:///{tmp_path}/e.db"]
    with log.open("wb") as out:
        proc = subprocess.Popen(
            cmd, cwd=tmp_path, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(base + "/api/games", timeout=1).status_code == 200:
                    break
            assert proc.poll() is None, log.read_text()
            time.sleep(0.1)
        g = httpx.post(base + "/api/games", json={"players": 2, "seats": TWO, "seed": 2}).json()
        gid, token = g["id"], g["seats"][0]["token"]
        for query in (
            f"token={token}",
            f"TOKEN={token}",
            f"%74oken={token}",
            f"v=1&Token={token}",
            f"tokens={token},{token}",
        ):
            httpx.get(f"{base}/api/games/{gid}?{query}")
            httpx.get(f"{base}/api/games?{query}")
            httpx.get(f"{base}/game/{gid}?{query}")
        with connect(f"ws://127.0.0.1:{port}/ws/games/{gid}?token={token}") as ws:
            ws.recv()
        with (
            contextlib.suppress(Exception),
            connect(
                f"ws://127.0.0.1:{port}/ws/games/{gid}?%74oken={token}",
                origin="http://evil.example",  # type: ignore[arg-type]
            ),
        ):
            pass
        with connect(f"ws://127.0.0.1:{port}/ws/games/{gid}?TOKEN={token}") as ws:
            ws.recv()
            ws.send("x" * (5 * 16 * 1024))  # beyond ws_max_size: closed, not a crash
            with contextlib.suppress(Exception):
                ws.recv()
        assert httpx.get(f"{base}/api/games/{gid}").status_code == 200  # still serving
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=20)
    text = log.read_text(errors="replace")
    assert f"/api/games/{gid}?" in text and "WebSocket" in text, text[-2000:]
    assert token not in text, [line for line in text.splitlines() if token in line]
    assert "Traceback" not in text, text[-3000:]


def test_log_filter_on_the_app_loggers(sqlite_url: str) -> None:
    make_client(sqlite_url)  # building the app installs the filter
    for name in ("uvicorn.access", "uvicorn.error"):
        assert any(isinstance(f, RedactTokens) for f in logging.getLogger(name).filters)
