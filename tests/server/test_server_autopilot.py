"""The autopilot: a bot plays a human seat whose player joined and left (no WebSocket
for the grace period) or whose per-move clock ran out, and hands the seat back on
return.  (Seats never joined, the log rows and names: test_server_seats.py.)"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import HBB, new_game
from test_server_ws import recv

from erebus.server.app import create_app
from erebus.server.service import Settings


def _client(url: str, grace: float = 60.0) -> TestClient:
    s = Settings(
        bot_mode="inline", hard_iterations=10, away_grace_s=grace, bot_delay_s=0.01, api_rate=0
    )  # api_rate=0: the tests poll
    return TestClient(create_app(url, s))


@pytest.fixture
def quick(sqlite_url: str) -> Iterator[TestClient]:
    with _client(sqlite_url, grace=0.05) as c:
        yield c


def _until(c: TestClient, gid: str, pred: Callable[[Any], bool], timeout: float = 10.0) -> Any:
    """Poll as a spectator (no token: polling is not being present)."""
    end = time.monotonic() + timeout
    while True:
        g = c.get(f"/api/games/{gid}").json()
        if pred(g):
            return g
        assert time.monotonic() < end, "timed out"
        time.sleep(0.005)


def _bot_moves_for(c: TestClient, gid: str, seat: int) -> int:
    rec = c.app.state.storage.load_game(gid)  # type: ignore[attr-defined]
    return sum(1 for e in rec.log if e.seat == seat and e.kind == "bot")


def test_a_bot_plays_for_a_player_who_left_and_hands_back(quick: TestClient) -> None:
    c = quick
    g = new_game(c, HBB)
    gid, tok = g["id"], g["seats"][0]["token"]
    with c.websocket_connect(f"/ws/games/{gid}?token={tok}") as ws:
        s = recv(ws, "state")
        assert [p["autopilot"] for p in s["players"]] == [False, False, False]
    # gone for longer than the grace period on its turn: the autopilot takes over
    on = _until(c, gid, lambda x: x["players"][0]["autopilot"])
    assert on["players"][1]["autopilot"] is False  # bot seats are bots anyway
    _until(c, gid, lambda x: _bot_moves_for(c, gid, 0) >= 2)
    # back: control returns at once, and the game waits for the player
    with c.websocket_connect(f"/ws/games/{gid}?token={tok}") as ws:
        s = recv(ws, "state")
        assert s["players"][0]["autopilot"] is False
        while not s["legal_actions"]:
            s = recv(ws, "state")
            assert s["players"][0]["autopilot"] is False
        # (a bot move already being stored when the player came back still lands)
        time.sleep(0.1)
        s = c.get(f"/api/games/{gid}?token={tok}").json()
        assert s["legal_actions"]
        n = _bot_moves_for(c, gid, 0)
        time.sleep(0.3)
        still = c.get(f"/api/games/{gid}").json()
        assert still["version"] == s["version"] and not still["players"][0]["autopilot"]
        assert _bot_moves_for(c, gid, 0) == n
        ws.send_json({"type": "action", "version": s["version"], "action": s["legal_actions"][0]})
        v = s["version"]
        while s["version"] <= v:  # pushes queued before the move may come first
            s = recv(ws, "state")
        assert s["version"] == v + 1


def test_an_action_by_the_token_takes_the_seat_back(sqlite_url: str) -> None:
    with _client(sqlite_url, grace=0.3) as c:
        _action_takes_back(c)


def _action_takes_back(c: TestClient) -> None:
    g = new_game(c, HBB)
    gid, tok = g["id"], g["seats"][0]["token"]
    with c.websocket_connect(f"/ws/games/{gid}?token={tok}") as ws:
        recv(ws, "state")  # joined, then gone
    _until(c, gid, lambda x: x["players"][0]["autopilot"])
    r = c.post(f"/api/games/{gid}/actions?token={tok}", json={"version": -1, "action": {}})
    assert r.status_code == 409  # a stale version, but the player is back all the same
    after = c.get(f"/api/games/{gid}").json()
    assert not after["players"][0]["autopilot"]
    # The two bot seats may go on moving after the hand-back (their turn may come
    # first), so the hand-back is the last AutopilotOff, not necessarily the last event.
    offs = [e for e in after["events"] if e["type"] == "AutopilotOff"]
    assert offs and offs[-1]["seat"] == 0
    assert after["events"][-1]["type"] != "AutopilotOn"


def test_two_humans_connected_are_never_replaced(quick: TestClient) -> None:
    g = new_game(quick, [{"kind": "human"}, {"kind": "human"}])
    gid, t0, t1 = g["id"], g["seats"][0]["token"], g["seats"][1]["token"]
    with (
        quick.websocket_connect(f"/ws/games/{gid}?token={t0}") as w0,
        quick.websocket_connect(f"/ws/games/{gid}?token={t1}") as w1,
    ):
        recv(w0, "state"), recv(w1, "state")
        time.sleep(0.3)
        g2 = quick.get(f"/api/games/{gid}").json()
        assert g2["version"] == 0 and not any(p["autopilot"] for p in g2["players"])


def test_per_move_clock(sqlite_url: str) -> None:
    with _client(sqlite_url) as c:  # the grace period is long: only the clock acts
        body = {"players": 3, "seats": HBB, "seed": 2, "options": {"clock_s": 0.2}}
        r = c.post("/api/games", json=body)
        assert r.status_code == 201, r.text
        gid, tok = r.json()["id"], r.json()["seats"][0]["token"]
        with c.websocket_connect(f"/ws/games/{gid}?token={tok}") as ws:
            s = recv(ws, "state")
            assert s["clock_s"] == 0.2 and s["legal_actions"]
            while not s["players"][0]["autopilot"]:  # the player dawdles
                s = recv(ws, "state")
            _until(c, gid, lambda x: _bot_moves_for(c, gid, 0) >= 1)
            ws.send_json({"type": "resume"})
            s = recv(ws, "state")
            while s["players"][0]["autopilot"]:
                s = recv(ws, "state")
        # options are checked
        for bad in ({"clock_s": 0}, {"clock_s": "5"}, {"autopilot_level": "godlike"}):
            body = {"players": 2, "seats": HBB[:2], "options": bad}
            assert c.post("/api/games", json=body).status_code == 400


def test_autopilot_level_and_restart(sqlite_url: str) -> None:
    with _client(sqlite_url, grace=0.05) as c:
        body = {"players": 3, "seats": HBB, "seed": 2, "options": {"autopilot_level": "easy"}}
        r = c.post("/api/games", json=body)
        gid, tok = r.json()["id"], r.json()["seats"][0]["token"]
        assert c.app.state.service._games[gid].record.options["autopilot_level"] == "easy"  # type: ignore[attr-defined]
        with c.websocket_connect(f"/ws/games/{gid}?token={tok}") as ws:
            recv(ws, "state")
        _until(c, gid, lambda x: _bot_moves_for(c, gid, 0) >= 1)
    # A new server replays the takeover row: the autopilot still plays for the absent
    # player (it was in the log, and nothing handed the seat back).
    with _client(sqlite_url, grace=60.0) as c:
        g = c.get(f"/api/games/{gid}").json()
        assert g["players"][0]["autopilot"]
        on = [e for e in g["events"] if e["type"] == "AutopilotOn"]
        assert (
            on and on[0]["level"] == "easy" and on[0]["text"] == "An easy bot plays for Player 1."
        )
