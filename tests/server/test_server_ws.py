"""The WebSocket: state on connect, pushes after changes, actions, chat, errors."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import new_game
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

TWO = [{"kind": "human"}, {"kind": "human"}]


def recv(ws: WebSocketTestSession, kind: str) -> Any:
    """The next message of this type (state pushes may come in between)."""
    for _ in range(50):
        msg = ws.receive_json()
        if msg["type"] == kind:
            return msg
    raise AssertionError(f"no {kind} message")


def test_ws_connect_act_and_push(client: TestClient) -> None:
    g = new_game(client, TWO)
    gid, t0, t1 = g["id"], g["seats"][0]["token"], g["seats"][1]["token"]
    with (
        client.websocket_connect(f"/ws/games/{gid}?token={t0}") as w0,
        client.websocket_connect(f"/ws/games/{gid}?token={t1}") as w1,
        client.websocket_connect(f"/ws/games/{gid}") as spec,
    ):
        s0, s1, ss = recv(w0, "state"), recv(w1, "state"), recv(spec, "state")
        http = client.get(f"/api/games/{gid}?token={t0}").json()
        # (s0 went out before seat 1 connected: its "connected" and "joined" differ)
        assert {k: v for k, v in s0.items() if k not in ("type", "players")} == {
            k: v for k, v in http.items() if k != "players"
        }
        assert [p["connected"] for p in s0["players"]] == [True, False]
        assert [(p["connected"], p["joined"]) for p in http["players"]] == [(True, True)] * 2
        assert recv(w0, "presence")["players"][1] == {"seat": 1, "connected": True, "joined": True}
        assert s0["seat"] == 0 and s0["legal_actions"]
        assert s1["seat"] == 1 and s1["legal_actions"] == []
        assert ss["seat"] is None and ss["legal_actions"] == []
        w0.send_json({"type": "action", "version": 0, "action": s0["legal_actions"][0]})
        for ws in (w0, w1, spec):
            assert recv(ws, "state")["version"] == 1
        # seat 1 moves over HTTP; the sockets hear of it
        a = client.get(f"/api/games/{gid}?token={t1}").json()["legal_actions"][0]
        r = client.post(f"/api/games/{gid}/actions?token={t1}", json={"version": 1, "action": a})
        assert r.status_code == 200
        assert recv(w0, "state")["version"] == 2
        assert recv(spec, "state")["version"] == 2
        # chat reaches everybody; spectators may not chat or act
        w1.send_json({"type": "chat", "text": "  hello  "})
        for ws in (w0, w1, spec):
            line = recv(ws, "chat")
            assert {k: v for k, v in line.items() if k != "time"} == {
                "type": "chat",
                "seat": 1,
                "name": "Player 2",
                "text": "hello",
                "version": 2,
            }
        spec.send_json({"type": "chat", "text": "boo"})
        assert recv(spec, "error")["status"] == 403
        spec.send_json({"type": "action", "version": 2, "action": {"type": "pass"}})
        assert recv(spec, "error")["status"] == 403


def test_ws_errors_keep_the_connection(client: TestClient) -> None:
    g = new_game(client, TWO)
    gid, t0, t1 = g["id"], g["seats"][0]["token"], g["seats"][1]["token"]
    with client.websocket_connect(f"/ws/games/{gid}?token={t0}") as ws:
        first = recv(ws, "state")
        ws.send_text("{oops")
        assert "malformed" in recv(ws, "error")["message"]
        ws.send_text("[1]")
        assert recv(ws, "error")["status"] == 400
        ws.send_text(json.dumps({"type": "chat", "text": "x" * 17000}))
        assert recv(ws, "error")["status"] == 413
        ws.send_json({"type": "dance"})
        assert recv(ws, "error")["status"] == 400
        ws.send_json({"type": "action", "version": 0, "action": {"type": "draft", "index": 42}})
        assert recv(ws, "error")["status"] == 400
        ws.send_json({"type": "action", "version": 3, "action": first["legal_actions"][0]})
        assert recv(ws, "error")["status"] == 409
        # still open and working
        ws.send_json({"type": "action", "version": 0, "action": first["legal_actions"][0]})
        assert recv(ws, "state")["version"] == 1
    with client.websocket_connect(f"/ws/games/{gid}?token={t1}") as ws:
        recv(ws, "state")
        ws.send_json({"type": "action", "version": 0, "action": first["legal_actions"][0]})
        assert recv(ws, "error")["status"] == 409
        ws.send_json({"type": "action", "version": 1, "action": {"type": "pass"}})
        err = recv(ws, "error")
        assert err["status"] in (400, 403)
    assert client.get(f"/api/games/{gid}").json()["version"] == 1


def test_ws_rate_limit(client: TestClient) -> None:
    g = new_game(client, TWO)
    with client.websocket_connect(f"/ws/games/{g['id']}?token={g['seats'][0]['token']}") as ws:
        recv(ws, "state")
        for _ in range(30):
            ws.send_json({"type": "ping"})
        kinds = [ws.receive_json()["type"] for _ in range(30)]
        assert kinds.count("pong") <= 20 and "error" in kinds
        errors = [k for k in kinds if k == "error"]
        assert len(errors) == 30 - kinds.count("pong")


def test_ws_unknown_game_and_bad_token(client: TestClient) -> None:
    with client.websocket_connect("/ws/games/nope") as ws:
        assert ws.receive_json()["status"] == 404
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()
    g = new_game(client, TWO)
    with client.websocket_connect(f"/ws/games/{g['id']}?token=forged") as ws:
        assert ws.receive_json()["status"] == 403
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()


def _merge(events: list[Any], msg: Any) -> list[Any]:
    """What a client does with a state's events (see ``applyState`` in web/core/table.js)."""
    if msg["events_since"] is None:
        return list(msg["events"])
    return [e for e in events if e["version"] <= msg["events_since"]] + msg["events"]


def test_ws_pushes_only_the_new_events(client: TestClient) -> None:
    """After the first state of a connection, a push carries the events after the
    previous push (``events_since``); after an undo, the whole list again.  Merged,
    they are always the list an HTTP read gives."""
    from server_helpers import undoable

    g = new_game(client, TWO)
    gid, toks = g["id"], [s["token"] for s in g["seats"]]
    with (
        client.websocket_connect(f"/ws/games/{gid}?token={toks[0]}") as w0,
        client.websocket_connect(f"/ws/games/{gid}") as spec,
    ):
        first = recv(w0, "state")
        assert first["events_since"] is None
        assert recv(spec, "state")["events_since"] is None
        mine, theirs = first["events"], list(first["events"])
        version = 0
        for i in range(7):
            cur = client.get(f"/api/games/{gid}").json()["current_player"]
            s = client.get(f"/api/games/{gid}?token={toks[cur]}").json()
            # the last one can be taken back (the draft before it cannot)
            action = undoable(s["legal_actions"]) if i == 6 else s["legal_actions"][0]
            r = client.post(
                f"/api/games/{gid}/actions?token={toks[cur]}",
                json={"version": version, "action": action},
            )
            assert r.status_code == 200, r.text
            version += 1
            push, spush = recv(w0, "state"), recv(spec, "state")
            assert push["version"] == spush["version"] == version
            assert push["events_since"] == version - 1
            assert all(e["version"] == version for e in push["events"])
            mine, theirs = _merge(mine, push), _merge(theirs, spush)
            http = client.get(f"/api/games/{gid}").json()
            assert http["events_since"] is None
            assert mine == theirs == http["events"]
        # an undo rolls the list back: the whole list comes again
        cur = client.get(f"/api/games/{gid}").json()["current_player"]
        r = client.post(f"/api/games/{gid}/undo?token={toks[cur]}", json={"version": version})
        assert r.status_code == 200, r.text
        push = recv(w0, "state")
        assert push["events_since"] is None and push["events"][-1]["type"] == "Undone"
        assert _merge(mine, push) == client.get(f"/api/games/{gid}").json()["events"]


def test_ws_answers_each_action_with_exactly_one_state(client: TestClient) -> None:
    """The acting socket gets its new state straight from its own action (no task
    switch) and the sender, woken by the same change, sends nothing twice; a queued
    message (here an error) still comes before the state that follows it."""
    g = new_game(client, TWO)
    gid, toks = g["id"], [s["token"] for s in g["seats"]]
    with client.websocket_connect(f"/ws/games/{gid}?token={toks[0]}") as w0:
        assert recv(w0, "chat_history")["chat"] == []
        state = w0.receive_json()
        assert state["type"] == "state" and state["version"] == 0
        for version in range(3):
            if not state["legal_actions"]:
                break
            w0.send_json({"type": "undo", "version": 99})  # an error, queued first
            w0.send_json(
                {"type": "action", "version": version, "action": state["legal_actions"][0]}
            )
            w0.send_json({"type": "ping"})
            assert w0.receive_json()["type"] == "error"
            state = w0.receive_json()
            assert state["type"] == "state" and state["version"] == version + 1
            assert state["events_since"] == version
            assert w0.receive_json() == {"type": "pong"}  # not the same state again
