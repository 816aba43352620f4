"""Reading what a client sends: JSON with limits, and values of the right type.

Everything here turns hostile input into an :class:`ApiError` (a 4xx with a clear
message) before it reaches the game service, whose code may then assume sane types:

* JSON is parsed by orjson, which refuses NaN/Infinity, invalid UTF-8 and lone
  surrogates (a lone surrogate in a chat line would later fail to encode and drop
  the socket) and never recurses past 1024 levels (the standard library's parser
  raises ``RecursionError``).  Then one iterative walk checks the nesting depth
  (``MAX_DEPTH``) and that no string holds a NUL (PostgreSQL refuses NUL in text).
* Sizes are counted in bytes of UTF-8, as they travel, not in characters.
* :func:`check_create` looks at the types of a create body (a list where a level
  name belongs is not hashable, ``3.0`` is not a number of players) and leaves the
  meaning (which levels, which ranges) to the service.
"""

from __future__ import annotations

from typing import Any

import orjson

from erebus.server.errors import ApiError

MAX_BODY = 16 * 1024  # bytes of a request body or a WebSocket message
MAX_DEPTH = 32  # nesting of arrays and objects in a JSON document
MAX_TOKENS = 50  # seat tokens a ``GET /api/games?tokens=…`` looks up
MAX_TOKEN_LEN = 128  # characters; a seat token has 32


def byte_size(raw: str | bytes) -> int:
    """The size of a message in bytes (UTF-8), cheaply for short ones."""
    if isinstance(raw, bytes):
        return len(raw)
    if len(raw) * 4 <= MAX_BODY:
        return len(raw)  # a lower bound that cannot matter: under the limit anyway
    return len(raw.encode("utf-8", "surrogatepass"))


def _check_tree(value: Any) -> None:
    """Depth and strings of a parsed document, without recursion."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        v, depth = stack.pop()
        if isinstance(v, str):
            if "\x00" in v:
                raise ApiError(400, "text must not contain NUL characters (U+0000)")
        elif isinstance(v, dict | list):
            if depth > MAX_DEPTH:
                raise ApiError(400, f"JSON is limited to {MAX_DEPTH} levels of nesting")
            if isinstance(v, dict):
                stack.extend((k, depth) for k in v)
                stack.extend((x, depth + 1) for x in v.values())
            else:
                stack.extend((x, depth + 1) for x in v)


def parse_json(raw: str | bytes) -> Any:
    """A JSON document from a client, checked; ApiError 400/413 otherwise."""
    if byte_size(raw) > MAX_BODY:
        raise ApiError(413, f"messages are limited to {MAX_BODY} bytes")
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise ApiError(400, f"malformed JSON: {exc}") from exc
    _check_tree(value)
    return value


def split_tokens(tokens: str) -> list[str]:
    """The ``tokens`` query of ``GET /api/games``: the first 50 comma-separated seat
    tokens, leaving out any too long to be one (never an error: a browser may keep
    more tokens than that, and the server's request-line limit bounds the query)."""
    return [t for t in tokens.split(",", MAX_TOKENS)[:MAX_TOKENS] if 0 < len(t) <= MAX_TOKEN_LEN]


def _is_name(v: Any) -> bool:
    return isinstance(v, str)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def check_create(body: Any) -> None:
    """The types in a ``POST /api/games`` body (the service checks the values)."""
    if not isinstance(body, dict):
        raise ApiError(400, "the request body must be a JSON object")
    if "game" in body and not _is_name(body["game"]):
        raise ApiError(400, "game must be a string")
    if "players" in body and not _is_int(body["players"]):
        raise ApiError(400, "players must be an integer")
    seats = body.get("seats")
    if isinstance(seats, list):
        for i, s in enumerate(seats):
            if not isinstance(s, dict):
                raise ApiError(400, f"seat {i} must be an object")
            for key in ("kind", "level"):
                if key in s and not _is_name(s[key]):
                    raise ApiError(400, f"seat {i}: {key} must be a string")
    options = body.get("options")
    if options is not None and not isinstance(options, dict):
        raise ApiError(400, "options must be an object")
    if (
        isinstance(options, dict)
        and "autopilot_level" in options
        and not _is_name(options["autopilot_level"])
    ):
        raise ApiError(400, "options.autopilot_level must be a string")
