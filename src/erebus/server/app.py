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
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
from collections import deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from erebus.server.service import ApiError, GameService, LiveGame, Settings, Subscriber
from erebus.server.storage import Storage

MAX_BODY = 16 * 1024
WS_RATE = 20  # messages per second
WEB_DIR = Path(__file__).resolve().parent.parent / "web"

PLACEHOLDER = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>erebus</title></head>
<body><h1>erebus</h1>
<p>The web client is not installed (no <code>src/erebus/web/</code>).
The API is at <code>/api/games</code>; see <a href="/docs">/docs</a>.</p>
</body></html>
"""

_TOKEN_RE = re.compile(r"(tokens?=)[^&\s\"']+")


class RedactTokens(logging.Filter):
    """Blank seat tokens out of log lines (uvicorn logs request paths with queries)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str) and "token" in record.msg:
            record.msg = _TOKEN_RE.sub(r"\1[redacted]", record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(
                _TOKEN_RE.sub(r"\1[redacted]", a) if isinstance(a, str) and "token" in a else a
                for a in record.args
            )
        return True


def install_log_filter() -> None:
    for name in ("uvicorn.access", "uvicorn.error", "uvicorn", "fastapi"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactTokens) for f in logger.filters):
            logger.addFilter(RedactTokens())


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
    try:
        return json.loads(body)
    except ValueError as exc:
        raise ApiError(400, f"malformed JSON: {exc}") from exc


def create_app(db_url: str | None = None, settings: Settings | None = None) -> FastAPI:
    install_log_filter()
    storage = Storage(db_url)
    service = GameService(storage, settings)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        try:
            yield
        finally:
            await service.close()
            storage.close()

    app = FastAPI(title="erebus", lifespan=lifespan)
    app.state.service = service
    app.state.storage = storage

    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, exc: ApiError) -> JSONResponse:
        return _error(exc.status, exc.message)

    # ------------------------------------------------------------- HTTP API

    @app.post("/api/games")
    async def create_game(request: Request) -> JSONResponse:
        body = await _read_json(request)
        return JSONResponse(await service.create(body), status_code=201)

    @app.get("/api/games")
    async def my_games(tokens: str = "") -> dict[str, Any]:
        return {"games": await service.my_games(tokens.split(",")[:50])}

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

    @app.post("/api/games/{game_id}/actions")
    async def post_action(request: Request, game_id: str, token: str | None = None) -> Any:
        live = await service.get(game_id)
        body = await _read_json(request)
        seat = live.seat_of(token)
        if seat is None:
            raise ApiError(403, "a seat token is needed to act")
        if not isinstance(body, dict) or "action" not in body or "version" not in body:
            raise ApiError(400, 'the body must be {"version": n, "action": {...}}')
        await service.act(live, seat, body["version"], body["action"])
        return _state(live, seat)

    @app.post("/api/games/{game_id}/undo")
    async def post_undo(request: Request, game_id: str, token: str | None = None) -> Any:
        live = await service.get(game_id)
        body = await _read_json(request)
        seat = live.seat_of(token)
        if seat is None:
            raise ApiError(403, "a seat token is needed to undo")
        if not isinstance(body, dict) or "version" not in body:
            raise ApiError(400, 'the body must be {"version": n}')
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

    # ------------------------------------------------------------ WebSocket

    @app.websocket("/ws/games/{game_id}")
    async def ws_game(ws: WebSocket, game_id: str, token: str | None = None) -> None:
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
    try:
        while sub.sent_key != (key := live.push_key()):
            version = live.version
            await ws.send_text(live.encoded(sub.seat, sub.sent_version)[1])
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
        if raw is None or len(raw) > MAX_BODY:
            await error(413, f"messages are limited to {MAX_BODY} bytes")
            continue
        try:
            data = json.loads(raw)
        except ValueError:
            await error(400, "malformed JSON")
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
