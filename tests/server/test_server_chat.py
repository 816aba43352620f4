"""Chat: stored (revision 0003), the recent lines sent to every (re)connecting client,
a length cap with a clear error, spectators read along but do not post, tokens never
reach the log."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
from fastapi.testclient import TestClient
from server_helpers import make_client, new_game
from sqlalchemy import inspect
from starlette.testclient import WebSocketTestSession
from test_server_ws import recv

from erebus.server.service import CHAT_HISTORY, CHAT_MAX
from erebus.server.storage import SeatInfo, Storage

TWO = [{"kind": "human"}, {"kind": "human"}]


def _line(seat: int, text: str) -> dict[str, Any]:
    return {"type": "chat", "seat": seat, "name": f"Player {seat + 1}", "text": text}


def _said(msg: dict[str, Any]) -> dict[str, Any]:
    """A chat message without its ``version`` and ``time`` (test_server_seats.py)."""
    return {k: v for k, v in msg.items() if k not in ("version", "time")}


def _history(ws: WebSocketTestSession) -> list[dict[str, Any]]:
    """The first message of a connection: the recent chat."""
    msg = ws.receive_json()
    assert msg["type"] == "chat_history", msg
    return list(msg["chat"])


def test_chat_is_stored_and_replayed_on_reconnect(db_url: str) -> None:
    with make_client(db_url) as c:
        g = new_game(c, TWO)
        gid, t0, t1 = g["id"], g["seats"][0]["token"], g["seats"][1]["token"]
        with c.websocket_connect(f"/ws/games/{gid}?token={t0}") as w0:
            assert _history(w0) == []
            recv(w0, "state")
            w0.send_json({"type": "chat", "text": "  good luck  "})
            first = recv(w0, "chat")
            assert _said(first) == _line(0, "good luck")
            w0.send_json({"type": "chat", "text": "héllo, 世界"})
            second = recv(w0, "chat")
            assert _said(second) == _line(0, "héllo, 世界")
        expected = [first, second]  # the same version and time wherever they are read
        # a reconnect (another seat's, too) starts with the history, before the state
        with c.websocket_connect(f"/ws/games/{gid}?token={t1}") as w1:
            assert _history(w1) == expected
            assert w1.receive_json()["type"] == "state"
        assert c.get(f"/api/games/{gid}/chat").json() == {"chat": expected}
    with make_client(db_url) as c:  # a new server on the same database
        assert c.get(f"/api/games/{gid}/chat").json() == {"chat": expected}
        with c.websocket_connect(f"/ws/games/{gid}") as spec:
            assert _history(spec) == expected
        stored = c.app.state.storage.recent_chat(gid, 10)  # type: ignore[attr-defined]
        assert [(e.seat, e.name, e.text) for e in stored] == [
            (0, "Player 1", "good luck"),
            (0, "Player 1", "héllo, 世界"),
        ]
        assert all(e.created is not None for e in stored)


def test_chat_history_keeps_the_newest_lines(db_url: str) -> None:
    st = Storage(db_url)
    try:
        st.create_game("g", "northwest", 2, 5, {}, [SeatInfo(0, "human", None, "a" * 64)])
        st.create_game("h", "northwest", 2, 5, {}, [SeatInfo(0, "human", None, "b" * 64)])
        for i in range(CHAT_HISTORY + 5):
            st.append_chat("g", i % 2, f"Player {i % 2 + 1}", f"line {i}")
        st.append_chat("h", 0, "Player 1", "elsewhere")
        lines = st.recent_chat("g", CHAT_HISTORY)
        assert [e.text for e in lines] == [f"line {i}" for i in range(5, CHAT_HISTORY + 5)]
        assert [e.text for e in st.recent_chat("h", CHAT_HISTORY)] == ["elsewhere"]
        assert "chat" in inspect(st.engine).get_table_names()
    finally:
        st.close()


def test_chat_length_cap_and_spectators(client: TestClient) -> None:
    g = new_game(client, TWO)
    gid, t0 = g["id"], g["seats"][0]["token"]
    with (
        client.websocket_connect(f"/ws/games/{gid}?token={t0}") as w0,
        client.websocket_connect(f"/ws/games/{gid}") as spec,
    ):
        recv(w0, "state")
        recv(spec, "state")
        w0.send_json({"type": "chat", "text": "y" * (CHAT_MAX + 1)})
        err = recv(w0, "error")
        assert err["status"] == 400
        assert f"limited to {CHAT_MAX} characters" in err["message"]
        assert f"this one has {CHAT_MAX + 1}" in err["message"]
        for bad in ("", "   ", 5, None, ["x"]):
            w0.send_json({"type": "chat", "text": bad})
            assert recv(w0, "error")["status"] == 400
        w0.send_json({"type": "chat", "text": "z" * CHAT_MAX})  # exactly the cap is fine
        assert recv(w0, "chat")["text"] == "z" * CHAT_MAX
        assert recv(spec, "chat")["text"] == "z" * CHAT_MAX  # spectators read along …
        spec.send_json({"type": "chat", "text": "boo"})  # … but do not post
        err = recv(spec, "error")
        assert err["status"] == 403 and "spectators" in err["message"]
    chat = client.get(f"/api/games/{gid}/chat").json()["chat"]
    assert [_said(m) for m in chat] == [_line(0, "z" * CHAT_MAX)]
    assert client.get("/api/games/nope/chat").status_code == 404


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_tokens_never_reach_the_server_log(tmp_path: Path) -> None:
    """A real server (uvicorn's access log on): HTTP calls, a WebSocket and chat with
    seat tokens in every URL, and not one token in its output."""
    from websockets.asyncio.client import connect

    url = f"sqlite:///{tmp_path}/erebus.db"
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    cmd = [sys.executable, "-m", "erebus.cli", "serve", "--port", str(port), "--db", url]
    proc = subprocess.Popen(
        cmd, env=env, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    try:
        for _ in range(200):
            try:
                httpx.get(f"{base}/api/games", timeout=0.5)
                break
            except httpx.HTTPError:
                time.sleep(0.05)
        g = httpx.post(f"{base}/api/games", json={"players": 2, "seats": TWO, "seed": 2}).json()
        gid, toks = g["id"], [s["token"] for s in g["seats"]]
        assert httpx.get(f"{base}/api/games/{gid}?token={toks[0]}").status_code == 200
        assert httpx.get(f"{base}/api/games?tokens={toks[0]},{toks[1]}").status_code == 200

        async def talk() -> list[str]:
            uri = f"ws://127.0.0.1:{port}/ws/games/{gid}?token={toks[1]}"
            async with connect(uri) as ws:
                got = [json.loads(await ws.recv())["type"] for _ in range(2)]
                await ws.send(json.dumps({"type": "chat", "text": "hi there"}))
                got.append(json.loads(await ws.recv())["type"])
                return got

        assert asyncio.run(talk()) == ["chat_history", "state", "chat"]
        assert httpx.get(f"{base}/api/games/{gid}/chat").json()["chat"][0]["text"] == "hi there"
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            out = proc.communicate(timeout=20)[0].decode()
        except subprocess.TimeoutExpired:
            proc.kill()
            out = proc.communicate()[0].decode()
    assert f"/ws/games/{gid}" in out  # the access log was on
    assert "token=[redacted]" in out
    for t in toks:
        assert t not in out
