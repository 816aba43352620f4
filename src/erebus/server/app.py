"""The FastAPI application: lobby, seats, play over HTTP and WebSocket, the web client.

``create_app(db_url=None)`` — ``db_url`` defaults to ``$DATABASE_URL``, then
``sqlite:///var/erebus.db``.  Seat tokens travel in the query string
(``?token=…``); they are never stored (only their SHA-256) nor logged.

WebSocket ``/ws/games/{id}``: the server sends ``{"type": "chat_history", "chat":
[…]}`` (the newest chat lines), then ``{"type": "state", …}`` (the shape of ``GET
/api/games/{id}``, every recent event, ``"events_since": null``) and a state after
every change, whose ``events`` are those after version ``events_since`` (the
previous state's; ``null``: the whole list, after an undo); also ``chat``,
``presence`` (a player connected, joined or left; no state is pushed for that),
``error`` and ``pong`` messages.  It accepts ``action``, ``undo``, ``resume``, ``chat`` and
``ping`` messages.

Hosting hardening (limits, headers, the Origin rule, log redaction) lives in
:mod:`erebus.server.guard` and :mod:`erebus.server.inputs`; this module calls them.
"""

from __future__ import annotations

import asyncio
import importlib.util
import logging
import time
from collections import deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy.engine import make_url

from erebus.server import inputs, trace
from erebus.server.cluster import ClusterUnsupported, SharedBuckets, make_cluster
from erebus.server.errors import ApiError
from erebus.server.guard import (
    GuardedFastAPI,
    RateLimited,
    RedactTokens,
    TokenBuckets,
    client_address,
    install_log_filter,
    origin_allowed,
)
from erebus.server.inputs import MAX_BODY
from erebus.server.lobby import catalog
from erebus.server.replay import ReplayCache
from erebus.server.service import GameService
from erebus.server.settings import Settings
from erebus.server.storage import Storage, resolve_db_url
from erebus.server.table import LiveGame, Subscriber

log = logging.getLogger("erebus.server")

__all__ = ["MAX_BODY", "RedactTokens", "create_app", "install_log_filter"]
WS_RATE = 20  # messages per second
WEB_DIR = Path(__file__).resolve().parent.parent / "web"

PLACEHOLDER = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>erebus</title></head>
<body><h1>erebus</h1>
<p>The web client is not installed (no <code>src/erebus/web/</code>).
The API is at <code>/api/games</code>; see <a href="/docs">/docs</a>.</p>
</body></html>
"""


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"detail": message}, status_code=status)


async def _read_json(request: Request) -> Any:
    length = request.headers.get("content-length")
    if length is not None and length.isdigit() and int(length) > MAX_BODY:
        raise ApiError(413, f"request bodies are limited to {MAX_BODY} bytes")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise ApiError(413, f"request bodies are limited to {MAX_BODY} bytes")
    if not body:
        return {}
    return inputs.parse_json(body)


DOCS_HTML = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>erebus API</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
<link rel="icon" href="/docs/assets/favicon.png"></head>
<body><div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body></html>
"""
# FastAPI's own page starts Swagger UI with an inline script, which the CSP forbids.
DOCS_INIT_JS = """window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  layout: "BaseLayout",
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset],
});
"""
REDOC_HTML = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>erebus API</title>
<link rel="icon" href="/docs/assets/favicon.png"></head>
<body><redoc spec-url="/openapi.json"></redoc>
<script src="/docs/assets/redoc.standalone.js"></script>
</body></html>
"""


def docs_assets() -> Path | None:
    """Swagger UI and ReDoc as files of the pinned ``fastapi-offline`` package, so
    that /docs loads no script from a CDN."""
    spec = importlib.util.find_spec("fastapi_offline")
    if spec is None or spec.origin is None:
        return None
    folder = Path(spec.origin).parent / "static"
    return folder if (folder / "swagger-ui-bundle.js").is_file() else None


def create_app(db_url: str | None = None, settings: Settings | None = None) -> FastAPI:
    install_log_filter()
    cluster = make_cluster((settings or Settings()).redis_url)
    if cluster.shared and make_url(resolve_db_url(db_url)).get_backend_name() != "postgresql":
        raise ClusterUnsupported(
            "REDIS_URL is set, but several server processes need a PostgreSQL database "
            "(DATABASE_URL=postgresql+psycopg://…); unset REDIS_URL for one process on SQLite"
        )
    # A cluster's processes share the database; alone, a process holds it.
    storage = Storage(db_url, exclusive=not cluster.shared)
    service = GameService(storage, settings)
    service.cluster = cluster
    st = service.settings
    creations = SharedBuckets(cluster, "create", st.create_per_minute / 60.0, st.create_per_minute)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await service.open_writes()
        await service.start_cluster()
        try:
            yield
        finally:
            await service.close()
            await service.stop_cluster()
            storage.close()
            if trace.TRACER is not None:
                trace.TRACER.dump()

    app = GuardedFastAPI(title="erebus", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.api_buckets = (
        SharedBuckets(cluster, "api", st.api_rate, st.api_burst)
        if cluster.shared
        else TokenBuckets(st.api_rate, st.api_burst)
    )
    app.state.service = service
    app.state.storage = storage

    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, exc: ApiError) -> JSONResponse:
        return _error(exc.status, exc.message)

    @app.exception_handler(RateLimited)
    async def _rate_limited(_request: Request, exc: RateLimited) -> JSONResponse:
        out = _error(exc.status, exc.message)
        out.headers["Retry-After"] = exc.retry_after
        return out

    # ------------------------------------------------------------- HTTP API

    @app.post("/api/games")
    async def create_game(request: Request) -> JSONResponse:
        body = await _read_json(request)
        inputs.check_create(body)
        wait = await creations.take_async(client_address(request.scope))
        if wait:
            raise RateLimited(
                wait,
                f"too many new games from your address (at most {st.create_per_minute} a minute)",
            )
        service.check_room()
        return JSONResponse(await service.create(body), status_code=201)

    @app.get("/api/catalog")
    async def get_catalog() -> dict[str, Any]:
        """The games the lobby offers, with each game's own options (kind, choices,
        default, the player counts they belong to)."""
        return {"games": catalog()}

    @app.get("/api/games")
    async def my_games(tokens: str = "") -> dict[str, Any]:
        return {"games": await service.my_games(inputs.split_tokens(tokens))}

    def _state(live: LiveGame, seat: int | None) -> Response:
        return Response(live.encoded(seat)[0], media_type="application/json")

    @app.get("/api/games/{game_id}")
    async def get_game(game_id: str, token: str | None = None) -> Response:
        live = await service.get(game_id)
        return _state(live, live.seat_of(token))

    @app.get("/api/games/{game_id}/chat")
    async def get_chat(game_id: str) -> dict[str, Any]:
        """The newest chat lines (anyone with the game's link may read them)."""
        live = await service.get(game_id)
        return {"chat": list(live.chat)}

    async def _seated(
        request: Request,
        game_id: str,
        token: str | None,
        verb: str,
        keys: tuple[str, ...],
        shape: str,
    ) -> tuple[LiveGame, int, dict[str, Any]]:
        """(game, seat, body) of a seated player's ``verb`` (the preamble of the action
        and undo routes); the body must hold ``keys`` (``shape``: as a 400 shows it)."""
        live = await service.get(game_id)
        body = await _read_json(request)
        seat = live.seat_of(token)
        if seat is None:
            raise ApiError(403, f"a seat token is needed to {verb}")
        if not isinstance(body, dict) or any(k not in body for k in keys):
            raise ApiError(400, f"the body must be {shape}")
        return live, seat, body

    @app.post("/api/games/{game_id}/actions")
    async def post_action(request: Request, game_id: str, token: str | None = None) -> Any:
        live, seat, body = await _seated(
            request, game_id, token, "act", ("action", "version"), '{"version": n, "action": {...}}'
        )
        await service.act(live, seat, body["version"], body["action"])
        return _state(live, seat)

    @app.post("/api/games/{game_id}/check")
    async def post_check(request: Request, game_id: str, token: str | None = None) -> Any:
        """Whether an action would be legal now, and if not the rule it breaks."""
        live = await service.get(game_id)
        body = await _read_json(request)
        if not isinstance(body, dict) or not isinstance(body.get("action"), dict):
            raise ApiError(400, 'the body must be {"action": {...}}')
        return service.check(live, live.seat_of(token), body["action"])

    @app.post("/api/games/{game_id}/undo")
    async def post_undo(request: Request, game_id: str, token: str | None = None) -> Any:
        live, seat, body = await _seated(
            request, game_id, token, "undo", ("version",), '{"version": n}'
        )
        await service.undo(live, seat, body["version"])
        return _state(live, seat)

    @app.post("/api/games/{game_id}/rematch")
    async def rematch(game_id: str, token: str | None = None) -> Any:
        live = await service.get(game_id)
        seat = live.seat_of(token)
        out = await service.rematch(live, seat)
        if token and seat is not None:
            out["seats"][seat]["url"] += f"?token={token}"
        return out

    replays = ReplayCache(service)  # finished games step by step (erebus.server.replay)

    @app.get("/api/games/{game_id}/replay")
    async def get_replay(game_id: str) -> JSONResponse:
        return JSONResponse(await replays.index(game_id))

    @app.get("/api/games/{game_id}/replay/{step}")
    async def get_replay_step(game_id: str, step: str) -> JSONResponse:
        return JSONResponse(await replays.step(game_id, step))

    @app.get("/api/games/{game_id}/hint")
    async def get_hint(game_id: str, token: str | None = None) -> dict[str, Any]:
        """The hard bot's suggestion for the seat to move (its token), when the game
        allows hints: a legal action, its words and a short reason."""
        live = await service.get(game_id)
        return await service.hint(live, live.seat_of(token))

    @app.get("/api/games/{game_id}/review")
    async def get_review(game_id: str) -> JSONResponse:
        """A finished game's review: every move rated against the hard bot's best
        choice; 202 with the progress while it is computed."""
        live = await service.get(game_id)
        status, body = await service.review(live)
        return JSONResponse(body, status_code=status)

    # ------------------------------------------------------------ WebSocket

    @app.websocket("/ws/games/{game_id}")
    async def ws_game(ws: WebSocket, game_id: str, token: str | None = None) -> None:
        if not origin_allowed(ws.headers.get("origin"), ws.headers.get("host"), st.allowed_origins):
            await ws.close(code=4403)  # before the handshake: the server answers 403
            return
        await ws.accept()
        try:
            live = await service.get(game_id)
            seat = live.seat_of(token)
        except ApiError as exc:
            await ws.send_json({"type": "error", "status": exc.status, "message": exc.message})
            await ws.close(code=4000 + exc.status)
            return
        # The player is here: joined, connected, and back from the autopilot (before
        # subscribing: the state this socket gets first already says so).
        await service.connected(live, seat)
        sub = Subscriber(seat)
        live.subscribers.add(sub)
        sender = asyncio.create_task(_sender(ws, live, sub))
        try:
            await _receiver(ws, service, live, sub)
        finally:
            live.subscribers.discard(sub)
            service.disconnected(live, seat)
            service.watched(live)  # the last one to leave starts the abandonment clock
            sender.cancel()

    # --------------------------------------------------------------- web page

    index = WEB_DIR / "index.html"

    def _index() -> Response:
        if index.is_file():
            return FileResponse(index, media_type="text/html")
        return HTMLResponse(PLACEHOLDER)

    @app.get("/", include_in_schema=False)
    async def home() -> Response:
        return _index()

    @app.get("/game/{game_id}", include_in_schema=False)
    async def game_page(game_id: str) -> Response:
        return _index()

    @app.get("/replay/{game_id}", include_in_schema=False)
    async def replay_page(game_id: str) -> Response:
        return _index()

    assets = docs_assets()
    if assets is not None:

        @app.get("/docs", include_in_schema=False)
        async def docs() -> Response:
            return HTMLResponse(DOCS_HTML)

        @app.get("/docs/init.js", include_in_schema=False)
        async def docs_init() -> Response:
            return Response(DOCS_INIT_JS, media_type="text/javascript")

        @app.get("/redoc", include_in_schema=False)
        async def redoc() -> Response:
            return HTMLResponse(REDOC_HTML)

        app.mount("/docs/assets", StaticFiles(directory=assets), name="docs-assets")

    if WEB_DIR.is_dir():
        app.mount("/static", StaticFiles(directory=WEB_DIR), name="static")
        app.mount("/", StaticFiles(directory=WEB_DIR), name="web")

    return app


async def _send_state(ws: WebSocket, live: LiveGame, sub: Subscriber) -> None:
    """Send the current state to ``sub`` unless it has it already.

    Two tasks call this: the subscriber's sender (on a state notice) and its
    receiver, straight after the subscriber's own action, so that the answer to an
    action leaves in the same pass of the event loop instead of queueing behind
    every other table's work.  Whoever sends keeps going until ``sub`` has the
    newest state (the game may move on while a send waits on a slow socket); the
    other one, finding ``sending`` set, leaves it to them."""
    if sub.sending:
        return
    sub.sending = True
    tracer = trace.TRACER
    try:
        while sub.sent_key != (key := live.push_key()):
            version = live.version
            t = trace.now() if tracer else None
            text = live.encoded(sub.seat, sub.sent_version)[1]
            if tracer and t:
                tracer.add("encode", *t, live.id, f"v{version}")
            await ws.send_text(text)
            if tracer and t:
                tracer.add("push", *t, live.id, f"v{version} {len(text)} B")
            sub.sent_version, sub.sent_key = version, key
    finally:
        sub.sending = False


async def _answer(ws: WebSocket, live: LiveGame, sub: Subscriber) -> bool:
    """After the subscriber's own action: its new state, at once, unless messages
    queued before it must go first (the sender then sends it in order).  False if
    the connection is gone."""
    if not sub.only_states_queued():
        return True
    try:
        await _send_state(ws, live, sub)
    except (WebSocketDisconnect, RuntimeError):
        return False
    return True


async def _sender(ws: WebSocket, live: LiveGame, sub: Subscriber) -> None:
    try:
        # The recent chat first (a reconnecting client replaces its own), then the state
        # with every recent event; later states carry only the events after the last one
        # sent (``events_since``), unless an undo rolled the list back.
        await ws.send_json({"type": "chat_history", "chat": list(live.chat)})
        await _send_state(ws, live, sub)
        while True:
            msg = await sub.queue.get()
            if msg is None:
                while not sub.queue.empty() and sub.queue._queue[0] is None:  # type: ignore[attr-defined]
                    sub.queue.get_nowait()  # coalesce state pushes
                await _send_state(ws, live, sub)
                continue
            if msg.get("type") == "closing":
                await ws.close(code=1012)
                return
            await ws.send_json(msg)
    except (WebSocketDisconnect, RuntimeError):
        return


async def _receiver(ws: WebSocket, service: GameService, live: LiveGame, sub: Subscriber) -> None:
    recent: deque[float] = deque()
    while True:
        try:
            msg = await ws.receive()
        except (WebSocketDisconnect, RuntimeError):
            return
        if msg["type"] == "websocket.disconnect":
            return
        t = trace.now() if trace.TRACER else None
        raw = msg.get("text")
        if raw is None and msg.get("bytes") is not None:
            raw = msg["bytes"]
        now = time.monotonic()
        recent.append(now)
        while recent and recent[0] < now - 1.0:
            recent.popleft()

        async def error(status: int, message: str) -> None:
            sub.queue.put_nowait({"type": "error", "status": status, "message": message})

        if len(recent) > WS_RATE:
            await error(429, f"too many messages (at most {WS_RATE} a second)")
            continue
        if raw is None:
            await error(400, "a message must be a JSON object")
            continue
        try:
            data = inputs.parse_json(raw)  # bytes of UTF-8 counted, depth and NUL checked
        except ApiError as exc:
            await error(exc.status, exc.message)
            continue
        if not isinstance(data, dict):
            await error(400, "a message must be a JSON object")
            continue
        try:
            kind = data.get("type")
            if kind == "action":
                await service.act(live, sub.seat, data.get("version"), data.get("action"))
                if not await _answer(ws, live, sub):
                    return
            elif kind == "undo":
                await service.undo(live, sub.seat, data.get("version"))
                if not await _answer(ws, live, sub):
                    return
            elif kind == "resume":
                if sub.seat is None:
                    raise ApiError(403, "spectators have no seat to take back")
                await service.reclaim(live, sub.seat)
            elif kind == "chat":
                await service.chat(live, sub.seat, data.get("text"))
            elif kind == "ping":
                sub.queue.put_nowait({"type": "pong"})
            else:
                await error(400, "unknown message type; use 'action', 'undo', 'resume' or 'chat'")
        except ApiError as exc:
            await error(exc.status, exc.message)
        except Exception:  # a bug, not the client's fault: keep the socket, say so
            log.exception("WebSocket message failed in game %s", live.id)
            await error(500, "the server failed on this message")
        if trace.TRACER and t:
            trace.TRACER.add("msg", *t, live.id, f"{data.get('type')} v{data.get('version')}")
