"""Hostile input: whatever a client sends, the server answers 4xx (never 5xx), changes
nothing, and a WebSocket answers with an error message and stays usable."""

from __future__ import annotations

import contextlib
import importlib
import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from server_helpers import make_client

from erebus.games import get_game
from erebus.server.inputs import MAX_BODY, MAX_DEPTH

TWO = [{"kind": "human"}, {"kind": "human"}]


def deep(n: int, inner: str = "1") -> str:
    return "[" * n + inner + "]" * n


def deep_obj(n: int) -> str:
    return '{"a":' * n + "1" + "}" * n


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, dict[str, Any]]]:
    """One client and one two-human game (seat 0 to move, version 0) for every case."""
    db = f"sqlite:///{tmp_path_factory.mktemp('hostile')}/erebus.db"
    with make_client(db) as c:
        r = c.post("/api/games", json={"players": 2, "seats": TWO, "seed": 2})
        assert r.status_code == 201
        yield c, r.json()


def _version(c: TestClient, gid: str) -> int:
    return int(c.get(f"/api/games/{gid}").json()["version"])


# ------------------------------------------------------------------ HTTP

GOOD_SEATS = '[{"kind":"human"},{"kind":"bot","level":"easy"}]'
CREATE_BODIES = [
    deep(5000),
    deep(MAX_DEPTH + 1),
    deep_obj(2000),
    '{"players": 2, "seats": ' + deep(40) + "}",
    "[" * 16000,
    "garbage",
    "",  # an empty body is {} (the defaults): 201, checked separately
    "null",
    "[]",
    '"a string"',
    "123",
    "NaN",
    '{"players": NaN}',
    '{"players": Infinity}',
    '{"players": 3.0}',
    '{"players": 2.0, "seats": ' + GOOD_SEATS + "}",
    '{"players": "3"}',
    '{"players": true}',
    '{"players": null}',
    '{"players": -1}',
    '{"players": 1e400}',
    '{"players": 100000000000000000000000000000000}',
    '{"players": [3]}',
    '{"players": {"n": 3}}',
    '{"game": []}',
    '{"game": {}}',
    '{"game": 7}',
    '{"game": "iceandsnow", "players": 2, "game_options": {"modes": "survival"}}',
    '{"game": "iceandsnow", "players": 1}',
    '{"game_options": {"variant": 1}}',
    '{"game_options": []}',
    '{"game": "north\\u0000west"}',
    '{"game": "\\ud800"}',
    '{"seats": "xyz"}',
    '{"players": 2, "seats": [1, 2]}',
    '{"players": 2, "seats": [[], {}]}',
    '{"players": 2, "seats": [{"kind": ["human"]}, {"kind": "human"}]}',
    '{"players": 2, "seats": [{"kind": "human"}, {"kind": "bot", "level": ["hard"]}]}',
    '{"players": 2, "seats": [{"kind": "human"}, {"kind": "bot", "level": {"a": 1}}]}',
    '{"players": 2, "seats": [{"kind": "human"}, {"kind": "bot", "level": 3}]}',
    '{"players": 2, "seats": [{"kind": "human"}, {"kind": "bot", "level": "godlike"}]}',
    '{"players": 2, "seats": [{"kind": "human", "name": "a\\u0000b"}, {"kind": "human"}]}',
    '{"options": []}',
    '{"options": "fast"}',
    '{"options": {"autopilot_level": []}}',
    '{"options": {"autopilot_level": {"x": 1}}}',
    '{"options": {"autopilot_level": "insane"}}',
    '{"options": {"time_s": "5"}}',
    '{"options": {"time_s": [5]}}',
    '{"options": {"time_s": 1e999}}',
    '{"options": {"time_s": -1}}',
    '{"options": {"clock_s": []}}',
    '{"options": {"clock_s": true}}',
    '{"seed": "1"}',
    '{"seed": -1}',
    '{"seed": 18446744073709551616}',
    '{"seed": 1.5}',
    '{"seed": true}',
    '{"seed": [1]}',
]


@pytest.mark.parametrize("body", [b for b in CREATE_BODIES if b], ids=range(len(CREATE_BODIES) - 1))
def test_create_hostile(table: tuple[TestClient, dict[str, Any]], body: str) -> None:
    c, _ = table
    r = c.post("/api/games", content=body.encode("utf-8", "surrogatepass"))
    assert 400 <= r.status_code < 500, (body[:80], r.status_code, r.text[:200])
    assert r.json()["detail"]


@pytest.mark.parametrize(
    "raw",
    [b"\xff\xfe\x00", b'{"a": "\xed\xa0\x80"}', b'{"players": 2, "game": "\xc3"}', b"\x00"],
)
def test_create_invalid_utf8(table: tuple[TestClient, dict[str, Any]], raw: bytes) -> None:
    c, _ = table
    r = c.post("/api/games", content=raw)
    assert r.status_code == 400, r.text


def test_create_oversized_body(table: tuple[TestClient, dict[str, Any]]) -> None:
    c, _ = table
    body = '{"x": "' + "é" * (MAX_BODY // 2 + 10) + '"}'  # fewer characters than bytes
    assert len(body) < 2 * MAX_BODY // 2 + 40 and len(body.encode()) > MAX_BODY
    assert c.post("/api/games", content=body.encode()).status_code == 413


ACTIONS = [
    deep(5000),
    deep_obj(MAX_DEPTH + 5),
    '{"version": 0, "action": ' + deep_obj(100) + "}",
    "garbage",
    "[]",
    "{}",
    "null",
    '{"version": 0}',
    '{"action": {"type": "pass"}}',
    '{"version": "0", "action": {"type": "pass"}}',
    '{"version": 0.0, "action": {"type": "pass"}}',
    '{"version": true, "action": {"type": "pass"}}',
    '{"version": 1e400, "action": {"type": "pass"}}',
    '{"version": 100000000000000000000000000000000000, "action": {"type": "pass"}}',
    '{"version": 9223372036854775807, "action": {"type": "pass"}}',
    '{"version": -1, "action": {"type": "pass"}}',
    '{"version": [], "action": {"type": "pass"}}',
    '{"version": 0, "action": []}',
    '{"version": 0, "action": "pass"}',
    '{"version": 0, "action": null}',
    '{"version": 0, "action": {}}',
    '{"version": 0, "action": {"type": []}}',
    '{"version": 0, "action": {"type": {}}}',
    '{"version": 0, "action": {"type": "nope"}}',
    '{"version": 0, "action": {"type": "pa\\u0000ss"}}',
    '{"version": 0, "action": {"type": "draw", "vehicle": [], "source": {}}}',
    '{"version": 0, "action": {"type": "draw", "vehicle": "ship", "source": "display", "index": "0"}}',
    '{"version": 0, "action": {"type": "draw", "vehicle": "ship", "source": "display", "index": 1e300}}',
    '{"version": 0, "action": {"type": "draw", "vehicle": "ship", "source": "pile", "pile": 99999999}}',
    '{"version": 0, "action": {"type": "place", "vehicle": "ship", "tile": [], "x": "1", "y": null, "rotation": 1.5}}',
    '{"version": 0, "action": {"type": "place", "vehicle": "ship", "tile": "t", "x": 1, "y": 1, "rotation": 99, "side": []}}',
    '{"version": 0, "action": {"type": "move", "vehicle": "ship", "to": [1]}}',
    '{"version": 0, "action": {"type": "move", "vehicle": "ship", "to": [true, false]}}',
    '{"version": 0, "action": {"type": "move", "vehicle": "ship", "to": {"x": 1}}}',
    '{"version": 0, "action": {"type": "move", "vehicle": "ship", "to": "\\ud83d"}}',
    '{"version": 0, "action": {"type": "transfer", "vehicle": "ship", "sled": []}}',
    '{"version": 0, "action": {"type": "transfer", "vehicle": "ship", "sled": {"a": [[[]]]}}}',
    '{"version": 0, "action": {"type": "refresh", "vehicle": 1}}',
    '{"version": 0, "action": {"type": "draft", "index": []}}',
]


@pytest.mark.parametrize("body", ACTIONS, ids=range(len(ACTIONS)))
def test_actions_hostile(table: tuple[TestClient, dict[str, Any]], body: str) -> None:
    c, g = table
    gid, t0 = g["id"], g["seats"][0]["token"]
    r = c.post(f"/api/games/{gid}/actions?token={t0}", content=body.encode())
    assert 400 <= r.status_code < 500, (body[:80], r.status_code, r.text[:200])
    assert _version(c, gid) == 0


UNDOS = [
    deep(3000),
    deep_obj(MAX_DEPTH + 1),
    "[]",
    "null",
    "{}",
    '{"version": []}',
    '{"version": {}}',
    '{"version": null}',
    '{"version": "0"}',
    '{"version": 0.0}',
    '{"version": 1e400}',
    '{"version": 0}',  # nothing to undo: 400
]


@pytest.mark.parametrize("body", UNDOS, ids=range(len(UNDOS)))
def test_undo_hostile(table: tuple[TestClient, dict[str, Any]], body: str) -> None:
    c, g = table
    gid, t0 = g["id"], g["seats"][0]["token"]
    r = c.post(f"/api/games/{gid}/undo?token={t0}", content=body.encode())
    assert 400 <= r.status_code < 500, (body[:80], r.status_code, r.text[:200])
    assert _version(c, gid) == 0


BAD_IDS = ["%00", "a" * 40, "..%2F..", "%F0%9F%98%80", "x%20y", "%ED%A0%80", "a%00b", "-" * 33]
BAD_TOKENS = ["%00", "x" * 5000, "%ED%A0%80", "%FF", "a,b", "%C3%A9"]


@pytest.mark.parametrize("gid", BAD_IDS)
@pytest.mark.parametrize(
    "method,suffix",
    [
        ("GET", ""),
        ("GET", "/chat"),
        ("POST", "/actions?token=x"),
        ("POST", "/undo?token=x"),
        ("POST", "/rematch?token=x"),
    ],
)
def test_bad_game_ids(
    table: tuple[TestClient, dict[str, Any]], gid: str, method: str, suffix: str
) -> None:
    c, _ = table
    r = c.request(method, f"/api/games/{gid}{suffix}", content=b'{"version": 0}')
    assert 400 <= r.status_code < 500, (gid, suffix, r.status_code, r.text[:200])


@pytest.mark.parametrize("token", BAD_TOKENS)
@pytest.mark.parametrize("suffix", ["", "/actions", "/undo", "/rematch"])
def test_bad_tokens(table: tuple[TestClient, dict[str, Any]], token: str, suffix: str) -> None:
    c, g = table
    gid = g["id"]
    method = "GET" if suffix == "" else "POST"
    body = b'{"version": 0, "action": {"type": "pass"}}'
    r = c.request(method, f"/api/games/{gid}{suffix}?token={token}", content=body)
    assert r.status_code == 403, (token[:20], suffix, r.status_code, r.text[:200])
    assert _version(c, gid) == 0


@pytest.mark.parametrize(
    "query",
    [
        "tokens=" + "x" * 60_000,
        "tokens=" + "," * 20_000,
        "tokens=%00",
        "tokens=%ED%A0%80",
        "tokens=a&tokens=b",
        "tokens=" + ",".join(["t" * 32] * 200),
    ],
)
def test_my_games_hostile(table: tuple[TestClient, dict[str, Any]], query: str) -> None:
    c, _ = table
    r = c.get(f"/api/games?{query}")
    assert r.status_code == 200, (query[:40], r.status_code, r.text[:200])
    assert r.json() == {"games": []}


def test_my_games_finds_a_token_among_junk(table: tuple[TestClient, dict[str, Any]]) -> None:
    c, g = table
    token = g["seats"][1]["token"]
    r = c.get(f"/api/games?tokens={'x' * 500},,{token},%00")
    assert [x["id"] for x in r.json()["games"]] == [g["id"]]


def test_rematch_hostile(table: tuple[TestClient, dict[str, Any]]) -> None:
    c, g = table
    gid = g["id"]
    assert c.post(f"/api/games/{gid}/rematch").status_code == 403  # a spectator
    assert c.post(f"/api/games/{gid}/rematch?token=nope").status_code == 403
    r = c.post(f"/api/games/{gid}/rematch?token={g['seats'][0]['token']}", content=deep(5000))
    assert r.status_code < 500


def test_empty_create_body_is_the_defaults(table: tuple[TestClient, dict[str, Any]]) -> None:
    c, _ = table
    assert c.post("/api/games", content=b"").status_code == 201


# ------------------------------------------------------------- WebSocket

WS_MESSAGES: list[str | bytes] = [
    deep(5000),
    deep(MAX_DEPTH + 1),
    deep_obj(1000),
    "[" * 10000,
    '{"type": "action", "version": 0, "action": ' + deep_obj(200) + "}",
    "garbage",
    "null",
    "[]",
    "1",
    '"text"',
    "NaN",
    '{"type": []}',
    '{"type": {}}',
    '{"type": null}',
    '{"type": "explode"}',
    '{"type": "action", "version": [], "action": {}}',
    '{"type": "action", "version": 1e400, "action": {"type": "pass"}}',
    '{"type": "action", "version": 10000000000000000000000000000000, "action": {"type": "pass"}}',
    '{"type": "action", "version": 0, "action": {"type": "move", "vehicle": "ship", "to": [[1], 2]}}',
    '{"type": "action", "version": 0, "action": "pass"}',
    '{"type": "action", "version": 0}',
    '{"type": "undo", "version": {}}',
    '{"type": "undo", "version": 0}',
    '{"type": "chat", "text": "a\\u0000b"}',
    '{"type": "chat", "text": "\\ud800"}',
    '{"type": "chat", "text": "\\udc00 lone low"}',
    '{"type": "chat", "text": []}',
    '{"type": "chat", "text": {"a": 1}}',
    '{"type": "chat", "text": 5}',
    '{"type": "chat", "text": "   "}',
    '{"type": "chat", "text": "' + "x" * 600 + '"}',
    '{"type": "chat", "text": "' + "€" * 6000 + '"}',  # 6000 characters, 18000 bytes
    '{"type": "chat", "text": "' + "x" * 20000 + '"}',
    "\ud800",  # a lone surrogate in the text itself
    '{"type": "chat", "text": "\udfff"}',
    b"\xff\xfe",
    b'{"type": "chat", "text": "\xed\xa0\x80"}',
    b"\x00" * 100,
    b"x" * (MAX_BODY + 1),
]


def _until(ws: Any, kind: str) -> dict[str, Any]:
    for _ in range(20):
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] == kind:
            return msg
    raise AssertionError(f"no {kind} message")


@pytest.mark.parametrize("message", WS_MESSAGES, ids=range(len(WS_MESSAGES)))
def test_ws_hostile(table: tuple[TestClient, dict[str, Any]], message: str | bytes) -> None:
    c, g = table
    gid, t0 = g["id"], g["seats"][0]["token"]
    with c.websocket_connect(f"/ws/games/{gid}?token={t0}") as ws:
        _until(ws, "state")
        if isinstance(message, bytes):
            ws.send_bytes(message)
        else:
            ws.send_text(message)
        err = _until(ws, "error")
        assert 400 <= err["status"] < 500, (str(message)[:80], err)
        assert err["message"]
        ws.send_text('{"type": "ping"}')
        assert _until(ws, "pong") == {"type": "pong"}
    assert _version(c, gid) == 0
    assert all("\x00" not in m["text"] for m in c.get(f"/api/games/{gid}/chat").json()["chat"])


def test_ws_chat_still_works_after_hostile(table: tuple[TestClient, dict[str, Any]]) -> None:
    c, g = table
    gid, t0 = g["id"], g["seats"][0]["token"]
    with c.websocket_connect(f"/ws/games/{gid}?token={t0}") as ws:
        _until(ws, "state")
        ws.send_text(json.dumps({"type": "chat", "text": deep(MAX_DEPTH - 2)[:100]}))
        assert _until(ws, "chat")["text"].startswith("[[")
        ws.send_text(json.dumps({"type": "chat", "text": "€" * 400}))
        assert _until(ws, "chat")["text"] == "€" * 400


# ------------------------------------------------------------ the engines

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=6),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
FIELDS = [
    "vehicle", "source", "index", "pile", "tile", "x", "y", "rotation", "side", "to", "sled",
    "crew", "take", "card", "space", "use", "resource", "deposit", "proxy", "voyage", "food",
]  # fmt: skip


@pytest.mark.parametrize("game", ["northwest", "iceandsnow"])
def test_action_from_json_raises_only_value_error(game: str) -> None:
    """Garbage makes ``Action.from_json`` raise ValueError (a 400), nothing else."""
    module = get_game(game)
    kinds = st.sampled_from(list(importlib.import_module(f"erebus.games.{game}.actions").KINDS))
    action = st.fixed_dictionaries({"type": kinds}, optional=dict.fromkeys(FIELDS, JSON))

    @settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.one_of(action, JSON))
    def check(data: Any) -> None:
        with contextlib.suppress(ValueError):
            module.action_from_json(data)

    check()


def test_limits_say_what_they_are(table: tuple[TestClient, dict[str, Any]]) -> None:
    """Nesting: 400 naming the limit; sizes: bytes of UTF-8, not characters (413)."""
    c, g = table
    gid, t0 = g["id"], g["seats"][0]["token"]
    r = c.post("/api/games", content=deep(MAX_DEPTH + 1).encode())
    assert r.status_code == 400 and f"{MAX_DEPTH} levels" in r.json()["detail"]
    assert c.post("/api/games", content=deep(MAX_DEPTH - 1).encode()).status_code == 400
    with c.websocket_connect(f"/ws/games/{gid}?token={t0}") as ws:
        _until(ws, "state")
        ws.send_text(deep(MAX_DEPTH + 1))
        err = _until(ws, "error")
        assert err["status"] == 400 and "nesting" in err["message"]
        text = "€" * 6000  # 6000 characters under the limit, 18000 bytes over it
        assert len(text) < MAX_BODY < len(text.encode())
        ws.send_text(json.dumps({"type": "chat", "text": text}, ensure_ascii=False))
        assert _until(ws, "error")["status"] == 413
        ws.send_text(json.dumps({"type": "chat", "text": "nul\x00"}))
        err = _until(ws, "error")
        assert err["status"] == 400 and "NUL" in err["message"]
