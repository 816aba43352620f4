"""Hosting hardening: security headers, the WebSocket Origin rule, rate limits and
seat tokens kept out of the logs.

Rate limits are token buckets kept here (some twenty lines) rather than a library
such as ``limits``: the server needs two in-memory buckets per client address, no
storage back end and no moving windows, and a dependency for that would add more
surface (and a version to keep) than it saves.  A bucket holds ``burst`` tokens and
gains ``rate`` a second; a request takes one or waits (429 with ``Retry-After``).

The client address is the ASGI scope's ``client``; behind a reverse proxy run uvicorn
with ``--forwarded-allow-ips`` so that it is the visitor's, not the proxy's.
"""

from __future__ import annotations

import json
import logging
import math
import re
import time
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any
from urllib.parse import unquote_plus, urlsplit

from fastapi import FastAPI

from erebus.server.errors import ApiError

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

# ------------------------------------------------------------------ headers

#: Sent with every HTTP response.  ``Referrer-Policy: no-referrer`` matters most: seat
#: tokens travel in page URLs, which a Referer header would hand to any linked site.
STATIC_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
)
_HOST_RE = re.compile(r"[A-Za-z0-9.\-]+(:[0-9]{1,5})?|\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?")


def content_security_policy(host: str | None) -> str:
    """The page's CSP: scripts, styles and data from this origin only (the web client
    and the offline /docs have no inline scripts), WebSockets to this host, no
    framing.  Inline *styles* are allowed: the client sets per-seat colours with
    ``style`` attributes, and styles cannot run code."""
    connect = "'self'"
    if host and _HOST_RE.fullmatch(host):  # a Host header is the client's to write
        connect += f" ws://{host} wss://{host}"
    return (
        "default-src 'self'; "
        "script-src 'self'; "
        "style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data:; "
        "font-src 'self'; "
        f"connect-src {connect}; "
        "worker-src 'self' blob:; "
        "object-src 'none'; "
        "base-uri 'none'; "
        "form-action 'self'; "
        "frame-ancestors 'none'"
    )


def _header(scope: Scope, name: bytes) -> str | None:
    for k, v in scope.get("headers", ()):
        if k == name:
            return bytes(v).decode("latin-1")
    return None


class SecurityHeaders:
    """ASGI middleware: the security headers on every HTTP response (pages, JSON,
    static files, errors).  It sits outside Starlette's error middleware (see
    :class:`GuardedFastAPI`), so even a 500 carries them."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        csp = content_security_policy(_header(scope, b"host")).encode()

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [
                    (k, v)
                    for k, v in message.get("headers", ())
                    if k.lower() not in _OURS  # ours win over anything set inside
                ]
                headers += [*STATIC_HEADERS, (b"content-security-policy", csp)]
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)


_OURS = frozenset({k for k, _ in STATIC_HEADERS} | {b"content-security-policy"})

# ------------------------------------------------------------- rate limits


class TokenBuckets:
    """One token bucket per key (a client address).  ``rate <= 0``: no limit.

    At most ``max_keys`` buckets are kept: past that, buckets that have filled up
    again (their client has been quiet) are dropped, and if that is not enough the
    oldest half, so a flood of addresses cannot grow the table without bound."""

    def __init__(self, rate: float, burst: float, max_keys: int = 20_000) -> None:
        self.rate = rate
        self.burst = max(1.0, burst)
        self.max_keys = max_keys
        self._buckets: dict[str, tuple[float, float]] = {}  # key -> (tokens, when)

    #: Kept elsewhere (a cluster's Redis): ask with :meth:`take_async`.
    shared = False

    async def take_async(self, key: str) -> float:
        """:meth:`take`, where the buckets may live in another process."""
        return self.take(key)

    def take(self, key: str, now: float | None = None) -> float:
        """Take a token: 0.0 if there was one, else the seconds until there is."""
        if self.rate <= 0:
            return 0.0
        now = time.monotonic() if now is None else now
        tokens, when = self._buckets.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - when) * self.rate)
        if tokens < 1.0:
            self._buckets[key] = (tokens, now)
            return (1.0 - tokens) / self.rate
        if key not in self._buckets and len(self._buckets) >= self.max_keys:
            self._prune(now)
        self._buckets[key] = (tokens - 1.0, now)
        return 0.0

    def _prune(self, now: float) -> None:
        full = self.burst / self.rate
        self._buckets = {k: v for k, v in self._buckets.items() if now - v[1] < full}
        if len(self._buckets) >= self.max_keys:
            keep = sorted(self._buckets.items(), key=lambda kv: kv[1][1])[len(self._buckets) // 2 :]
            self._buckets = dict(keep)


def client_address(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


def retry_after(wait: float) -> str:
    return str(max(1, math.ceil(wait)))


class RateLimited(ApiError):
    """A 429 with the seconds to wait (sent as ``Retry-After``)."""

    def __init__(self, wait: float, message: str) -> None:
        super().__init__(429, message)
        self.retry_after = retry_after(wait)


class RateLimit:
    """ASGI middleware: a token bucket per client address over the API
    (``/api/…``) and WebSocket handshakes (``/ws/…``).  An HTTP request past the
    limit gets 429 with ``Retry-After``; a handshake is refused (close 4429, which
    the server sends as HTTP 403)."""

    def __init__(
        self, app: ASGIApp, buckets: TokenBuckets, prefixes: tuple[str, ...] = ("/api/", "/ws/")
    ) -> None:
        self.app = app
        self.buckets = buckets
        self.prefixes = prefixes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket") or not str(scope.get("path", "")).startswith(
            self.prefixes
        ):
            await self.app(scope, receive, send)
            return
        if self.buckets.shared:  # a cluster's (erebus.server.cluster): in Redis
            wait = await self.buckets.take_async(client_address(scope))
        else:
            wait = self.buckets.take(client_address(scope))
        if not wait:
            await self.app(scope, receive, send)
            return
        if kind == "websocket":
            await receive()  # websocket.connect
            await send({"type": "websocket.close", "code": 4429, "reason": "too many requests"})
            return
        body = json.dumps(
            {"detail": f"too many requests from your address; try again in {retry_after(wait)} s"}
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 429,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"retry-after", retry_after(wait).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


class GuardedFastAPI(FastAPI):
    """FastAPI with the guard's middleware *outside* Starlette's own stack (whose
    outermost layer turns exceptions into 500s): headers on every response, the
    rate limit before any routing.  ``api_buckets`` is set by ``create_app``."""

    api_buckets: TokenBuckets | None = None

    def build_middleware_stack(self) -> ASGIApp:
        app: ASGIApp = super().build_middleware_stack()
        if self.api_buckets is not None:
            app = RateLimit(app, self.api_buckets)
        return SecurityHeaders(app)


# ------------------------------------------------------------------ origin

_DEFAULT_PORTS = {"http": 80, "ws": 80, "https": 443, "wss": 443}


def _host_port(netloc: str, defaults: tuple[int, ...]) -> tuple[str, int | None] | None:
    """(host, port), a port in ``defaults`` as None: behind a TLS proxy the Host
    header and the Origin differ in scheme, and both then leave the port out."""
    try:
        parts = urlsplit(f"//{netloc}")
        port = parts.port
    except ValueError:
        return None
    host = (parts.hostname or "").lower()
    if not host:
        return None
    return host, None if port in defaults else port


def normalize_origin(origin: str) -> str:
    """``scheme://host[:port]`` in lower case, without a default port or a slash."""
    o = origin.strip().rstrip("/").lower()
    try:
        parts = urlsplit(o)
        port = parts.port
    except ValueError:
        return o
    if parts.scheme in _DEFAULT_PORTS and port == _DEFAULT_PORTS[parts.scheme]:
        return f"{parts.scheme}://{parts.hostname}"
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme else o


def origin_allowed(origin: str | None, host: str | None, allowed: Iterable[str] = ()) -> bool:
    """The WebSocket Origin rule.  No Origin: allowed (not a browser; a browser
    always sends one, so no web page can ride a visitor's seat link this way).  An
    Origin whose host and port are the request's Host: allowed.  One listed in
    ``allowed`` (``Settings.allowed_origins``): allowed.  Anything else (another
    site, ``null``): refused."""
    if origin is None:
        return True
    if normalize_origin(origin) in {normalize_origin(a) for a in allowed}:
        return True
    try:
        parts = urlsplit(origin.strip())
    except ValueError:
        return False
    if parts.scheme not in _DEFAULT_PORTS or not host:
        return False
    mine = _host_port(parts.netloc, (_DEFAULT_PORTS[parts.scheme],))
    theirs = _host_port(host, (80, 443))
    return mine is not None and mine == theirs


def origins_from_env(value: str | None) -> tuple[str, ...]:
    """``EREBUS_ALLOWED_ORIGINS``: origins separated by commas or spaces."""
    return tuple(o for o in re.split(r"[,\s]+", value or "") if o)


# ------------------------------------------------------------ log redaction

SECRET_KEYS = frozenset({"token", "tokens"})
REDACTED = "[redacted]"
# A ``key=value`` pair of a query: after ``?``, ``&`` or ``;``, or at the start of a
# word (a query logged on its own).  The value runs to the next separator.
_PAIR_RE = re.compile(r"(?:(?<=[?&;])|(?<![^\s\"'(\[]))([^=&;?#\s\"']+)=([^&;#\s\"']*)")


def _decoded_key(key: str) -> str:
    """The key as the server reads it (percent-decoding, ``+`` as a space), decoded
    up to three times so that no spelling of ``token`` slips through."""
    for _ in range(3):
        new = unquote_plus(key)
        if new == key:
            break
        key = new
    return key.strip().lower()


def redact(text: str) -> str:
    """``text`` with the value of every query pair whose key reads ``token`` or
    ``tokens`` (any case, any percent-encoding) replaced by ``[redacted]``."""
    if "=" not in text:
        return text

    def sub(m: re.Match[str]) -> str:
        if _decoded_key(m.group(1)) in SECRET_KEYS:
            return f"{m.group(1)}={REDACTED}"
        return m.group(0)

    return _PAIR_RE.sub(sub, text)


def _redact_value(v: Any) -> Any:
    return redact(v) if isinstance(v, str) else v


class RedactTokens(logging.Filter):
    """Blank seat tokens out of log records: the message, its arguments (uvicorn's
    access log passes the path with its query as one) and a traceback's text."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_redact_value(a) for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: _redact_value(v) for k, v in record.args.items()}
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        return True


LOGGERS = ("uvicorn.access", "uvicorn.error", "uvicorn", "fastapi", "erebus", "erebus.server")


def install_log_filter() -> None:
    """Put :class:`RedactTokens` on the loggers that may name a request, and on every
    handler of the root logger (records propagated from other loggers pass those)."""
    targets: list[logging.Filterer] = [logging.getLogger(n) for n in LOGGERS]
    for name in LOGGERS:
        targets += logging.getLogger(name).handlers
    targets += logging.getLogger().handlers
    for t in targets:
        if not any(isinstance(f, RedactTokens) for f in t.filters):
            t.addFilter(RedactTokens())
