"""Seats and bots: a seat whose player never joined is never played by a bot; a joined
player who left is taken over after the host's grace (or when the clock runs out) and
gets the seat back; takeovers and hand-backs are log rows and events; names, the
seeded flag and the options in the payload; chat lines carry version and time; a
rematch only after the end; a damaged record answers 409 for its game only; one
server process per database."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import threading
import time
import unicodedata
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st
from server_helpers import new_game, play, undoable
from test_server_ws import recv

from erebus.games import get_game, northwest
from erebus.server.app import create_app
from erebus.server.errors import ApiError
from erebus.server.lobby import NAME_MAX, _parse_name
from erebus.server.settings import Settings
from erebus.server.storage import DatabaseInUse, Storage

ANNA = [
    {"kind": "human", "name": "Anna"},
    {"kind": "bot", "level": "medium"},
    {"kind": "bot", "level": "easy"},
]
TWO = [{"kind": "human", "name": "Anna"}, {"kind": "human", "name": "Ben"}]


@contextmanager
def server(url: str, grace: float = 0.05, bot_delay: float = 0.0) -> Iterator[TestClient]:
    """An app whose games take over after ``grace`` seconds unless the host chose."""
    s = Settings(
        bot_mode="inline",
        hard_iterations=10,
        away_grace_s=grace,
        bot_delay_s=bot_delay,
        api_rate=0,  # these tests poll; tests/server/test_server_limits.py tests the limits
        create_per_minute=0,
    )
    with TestClient(create_app(url, s)) as c:
        yield c


def create(c: TestClient, seats: list[dict[str, Any]], **options: Any) -> Any:
    body = {"players": len(seats), "seats": seats, "seed": 2, "options": options}
    r = c.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def until(c: TestClient, gid: str, pred: Callable[[Any], bool], timeout: float = 10.0) -> Any:
    """Poll as a spectator (reading is not being present)."""
    end = time.monotonic() + timeout
    while True:
        g = c.get(f"/api/games/{gid}").json()
        if pred(g):
            return g
        assert time.monotonic() < end, "timed out"
        time.sleep(0.005)


def live(c: TestClient, gid: str) -> Any:
    return c.app.state.service._games[gid]  # type: ignore[attr-defined]


def stored(c: TestClient, gid: str) -> Any:
    return c.app.state.storage.load_game(gid)  # type: ignore[attr-defined]


def join_and_leave(c: TestClient, gid: str, tok: str) -> Any:
    with c.websocket_connect(f"/ws/games/{gid}?token={tok}") as ws:
        return recv(ws, "state")


def autopilot_events(g: Any) -> list[dict[str, Any]]:
    return [e for e in g["events"] if e["type"] in ("AutopilotOn", "AutopilotOff")]


# ------------------------------------------------------------ never joined


def test_a_seat_never_joined_is_never_played(db_url: str) -> None:
    """Invited, never came: no grace, no clock, no restart makes a bot play for them."""
    with server(db_url, grace=0.01) as c:
        g = create(c, ANNA, clock_s=0.01)
        gid, tok = g["id"], g["seats"][0]["token"]
        assert live(c, gid).watch_task is None  # no timer at all
        # reading with the token, or watching as a spectator, is not joining
        assert c.get(f"/api/games/{gid}?token={tok}").json()["legal_actions"]
        with c.websocket_connect(f"/ws/games/{gid}") as spec:
            recv(spec, "state")
        time.sleep(0.2)  # twenty graces and clocks
        s = c.get(f"/api/games/{gid}").json()
        assert s["version"] == 0 and s["current_player"] == 0
        assert s["players"][0] == {
            "seat": 0,
            "kind": "human",
            "level": None,
            "name": "Anna",
            "named": True,
            "autopilot": False,
            "connected": False,
            "joined": False,
        }
        assert live(c, gid).watch_task is None
    with server(db_url, grace=0.01) as c:  # after a restart, still waiting
        c.get(f"/api/games/{gid}")
        time.sleep(0.1)
        s = c.get(f"/api/games/{gid}").json()
        assert s["version"] == 0 and not s["players"][0]["joined"]
        assert live(c, gid).watch_task is None
        assert stored(c, gid).seats[0].joined is False


# ------------------------------------------------------- away and back


def test_joined_then_left_is_taken_over_and_handed_back(db_url: str) -> None:
    with server(db_url, grace=0.05) as c:
        g = create(c, ANNA)
        gid, tok = g["id"], g["seats"][0]["token"]
        first = join_and_leave(c, gid, tok)
        assert first["players"][0]["connected"] and first["players"][0]["joined"]
        on = until(c, gid, lambda x: x["players"][0]["autopilot"])
        assert not on["players"][0]["connected"] and on["players"][0]["joined"]
        event = autopilot_events(on)[0]
        assert event == {
            "type": "AutopilotOn",
            "seat": 0,
            "level": "medium",
            "reason": "away",
            "version": event["version"],
            "text": "A medium bot plays for Anna.",
        }
        until(c, gid, lambda x: x["version"] >= event["version"] + 2)  # the bot plays on
        with c.websocket_connect(f"/ws/games/{gid}?token={tok}") as ws:
            back = recv(ws, "state")
            assert not back["players"][0]["autopilot"] and back["players"][0]["connected"]
            off = autopilot_events(back)[-1]
            assert off == {
                "type": "AutopilotOff",
                "seat": 0,
                "version": off["version"],
                "text": "Anna is back and plays again.",
            }
            assert not back["can_undo"]  # a hand-back clears the undo stack
            while not back["legal_actions"]:  # the bots move on to the player's turn
                back = recv(ws, "state")
            final = c.get(f"/api/games/{gid}").json()
            rec = stored(c, gid)
            live(c, gid).takeover_grace_s = None  # (no second takeover once the test leaves)
        kinds = [e.kind for e in rec.log]
        assert kinds.count("takeover") == 1 and kinds.count("handback") == 1
        # each event's version is its own log row's (index + 1)
        assert rec.log[event["version"] - 1].kind == "takeover"
        assert rec.log[event["version"] - 1].action == {"reason": "away", "level": "medium"}
        assert rec.log[off["version"] - 1].kind == "handback"
        # the effective actions leave them out and replay to the same game
        assert len(rec.actions) == len(rec.log) - 2
        assert len(rec.log) == final["version"]
        st_ = northwest.replay(3, 2, rec.actions)
        assert get_game("northwest").wire_view(st_, None) == final["view"]
    with server(db_url, grace=60.0) as c:  # a restart keeps names, joined and the events
        again = c.get(f"/api/games/{gid}").json()
        # (the game has the server's default grace, and this server's is 60 s)
        assert again["options"]["takeover_grace_s"] == 60.0
        assert again == {**final, "players": again["players"], "options": again["options"]}
        assert again["players"][1:] == final["players"][1:]
        assert again["players"][0] == {**final["players"][0], "connected": False}
        assert again["players"][0]["joined"] and again["players"][0]["name"] == "Anna"
        assert autopilot_events(again) == [event, off]


def test_grace_off_never_takes_over(sqlite_url: str) -> None:
    with server(sqlite_url, grace=0.01) as c:
        g = create(c, ANNA, takeover_grace_s=None)
        gid, tok = g["id"], g["seats"][0]["token"]
        join_and_leave(c, gid, tok)
        time.sleep(0.2)
        s = c.get(f"/api/games/{gid}").json()
        assert s["options"] == {
            "takeover_grace_s": None,
            "clock_s": None,
            "autopilot_level": "medium",
            "hints": True,  # every other seat is a bot
        }
        assert s["version"] == 0 and not s["players"][0]["autopilot"] and s["players"][0]["joined"]
        assert live(c, gid).watch_task is None


def test_the_hosts_grace_is_kept_and_checked(sqlite_url: str) -> None:
    with server(sqlite_url, grace=300.0) as c:
        g = create(c, ANNA, takeover_grace_s=10)
        assert c.get(f"/api/games/{g['id']}").json()["options"]["takeover_grace_s"] == 10.0
        g = create(c, ANNA)  # the default
        assert c.get(f"/api/games/{g['id']}").json()["options"]["takeover_grace_s"] == 300.0
        for bad in (9.9, 604801, "60", True, [60]):
            body = {"players": 3, "seats": ANNA, "options": {"takeover_grace_s": bad}}
            r = c.post("/api/games", json=body)
            assert r.status_code == 400 and "takeover_grace_s" in r.json()["detail"]


def test_the_clock_takes_over_a_connected_player_not_a_missing_one(sqlite_url: str) -> None:
    with server(sqlite_url, grace=60.0) as c:
        g = create(c, TWO, clock_s=0.1, takeover_grace_s=None)
        gid, t0 = g["id"], g["seats"][0]["token"]
        time.sleep(0.3)  # never joined: the clock does not run for them
        assert c.get(f"/api/games/{gid}").json()["version"] == 0
        with c.websocket_connect(f"/ws/games/{gid}?token={t0}") as ws:
            s = recv(ws, "state")
            while not s["players"][0]["autopilot"]:  # connected, but dawdling
                s = recv(ws, "state")
            on = autopilot_events(s)[-1]
            assert on["reason"] == "clock" and on["text"] == "A medium bot plays for Anna."
            ws.send_json({"type": "resume"})
            while s["players"][0]["autopilot"]:
                s = recv(ws, "state")
            assert autopilot_events(s)[-1]["type"] == "AutopilotOff"


def test_acting_while_the_autopilot_plays_uses_the_version_seen(sqlite_url: str) -> None:
    # The bot waits 30 s before each move: the seat is the autopilot's but untouched.
    with server(sqlite_url, grace=0.05, bot_delay=30.0) as c:
        g = create(c, TWO)
        gid, toks = g["id"], [s["token"] for s in g["seats"]]
        # no takeover while the seats join and act (a loaded machine can take longer
        # than the grace between two requests)
        live(c, gid).takeover_grace_s = None
        for seat in (0, 1):  # the draft, over HTTP: acting with the token is joining
            cur = c.get(f"/api/games/{gid}?token={toks[seat]}").json()
            body = {"version": cur["version"], "action": cur["legal_actions"][0]}
            assert (
                c.post(f"/api/games/{gid}/actions?token={toks[seat]}", json=body).status_code == 200
            )
        mine = c.get(f"/api/games/{gid}?token={toks[1]}").json()
        assert mine["current_player"] == 1 and [p["joined"] for p in mine["players"]] == [
            True,
            True,
        ]
        body = {"version": 2, "action": undoable(mine["legal_actions"])}
        r = c.post(f"/api/games/{gid}/actions?token={toks[1]}", json=body)
        assert r.status_code == 200 and r.json()["can_undo"]
        # gone (no WebSocket) for the grace: the autopilot takes the seat, and the
        # undo stack with it
        live(c, gid).takeover_grace_s = 0.05
        join_and_leave(c, gid, toks[1])  # (leaving starts the timer)
        until(c, gid, lambda x: x["players"][1]["autopilot"])
        live(c, gid).takeover_grace_s = None  # (no second takeover while the test acts)
        seen = c.get(f"/api/games/{gid}?token={toks[1]}").json()
        assert seen["version"] == 4 and not seen["can_undo"] and seen["legal_actions"]
        # an undo with the version seen: the seat comes back (one row), nothing to undo
        r = c.post(f"/api/games/{gid}/undo?token={toks[1]}", json={"version": 4})
        assert r.status_code == 400 and "nothing can be undone" in r.json()["detail"]
        back = c.get(f"/api/games/{gid}?token={toks[1]}").json()
        assert back["version"] == 5 and not back["players"][1]["autopilot"]
        # taken over again, then an action with the version seen: hand-back, then the action
        live(c, gid).takeover_grace_s = 0.05
        join_and_leave(c, gid, toks[1])  # (leaving restarts the timer)
        until(c, gid, lambda x: x["players"][1]["autopilot"])
        live(c, gid).takeover_grace_s = None
        seen = c.get(f"/api/games/{gid}?token={toks[1]}").json()
        assert seen["version"] == 6
        body = {"version": 6, "action": seen["legal_actions"][0]}
        r = c.post(f"/api/games/{gid}/actions?token={toks[1]}", json=body)
        assert r.status_code == 200, r.text
        done = r.json()
        assert done["version"] == 8 and not done["players"][1]["autopilot"]
        kinds = [e.kind for e in stored(c, gid).log]
        assert kinds == ["action"] * 3 + ["takeover", "handback", "takeover", "handback", "action"]
        types = [e["type"] for e in autopilot_events(done)]
        assert types == ["AutopilotOn", "AutopilotOff", "AutopilotOn", "AutopilotOff"]


def test_a_restart_while_the_autopilot_plays(sqlite_url: str) -> None:
    """The takeover row is replayed: the bot plays on until the player connects."""
    with server(sqlite_url, grace=0.05, bot_delay=30.0) as c:
        g = create(c, ANNA)
        gid, tok = g["id"], g["seats"][0]["token"]
        join_and_leave(c, gid, tok)
        until(c, gid, lambda x: x["players"][0]["autopilot"])
    with server(sqlite_url, grace=60.0, bot_delay=30.0) as c:
        s = c.get(f"/api/games/{gid}").json()
        assert s["version"] == 1 and s["players"][0]["autopilot"]
        with c.websocket_connect(f"/ws/games/{gid}?token={tok}") as ws:
            back = recv(ws, "state")
            assert back["version"] == 2 and not back["players"][0]["autopilot"]
            assert back["legal_actions"]


def test_presence_messages(client: TestClient) -> None:
    g = new_game(client, [{"kind": "human"}, {"kind": "human"}])
    gid, t0, t1 = g["id"], g["seats"][0]["token"], g["seats"][1]["token"]
    with client.websocket_connect(f"/ws/games/{gid}?token={t0}") as w0:
        recv(w0, "state")
        with client.websocket_connect(f"/ws/games/{gid}?token={t1}") as w1:
            recv(w1, "state")
            msg = recv(w0, "presence")
            assert msg == {
                "type": "presence",
                "players": [
                    {"seat": 0, "connected": True, "joined": True},
                    {"seat": 1, "connected": True, "joined": True},
                ],
            }
        assert recv(w0, "presence")["players"][1] == {"seat": 1, "connected": False, "joined": True}
        s = client.get(f"/api/games/{gid}").json()
        assert [(p["connected"], p["joined"]) for p in s["players"]] == [
            (True, True),
            (False, True),
        ]


# --------------------------------------------------------- names, seeded


def test_names_seeded_and_options(sqlite_url: str) -> None:
    with server(sqlite_url, grace=300.0) as c:
        seats = [
            {"kind": "human", "name": "  Zoë 世界  "},
            {"kind": "human"},
            {"kind": "bot", "level": "easy", "name": "ignored"},
        ]
        r = c.post("/api/games", json={"players": 3, "seats": seats, "seed": 7})
        assert r.status_code == 201 and r.json()["seeded"] is True
        assert [s["name"] for s in r.json()["seats"]] == ["Zoë 世界", "Player 2", "Bot 3 (easy)"]
        gid, tok = r.json()["id"], r.json()["seats"][0]["token"]
        s = c.get(f"/api/games/{gid}").json()
        assert s["seeded"] is True
        assert [(p["name"], p["named"]) for p in s["players"]] == [
            ("Zoë 世界", True),
            ("Player 2", False),
            ("Bot 3 (easy)", False),
        ]
        assert s["options"] == {
            "takeover_grace_s": 300.0,
            "clock_s": None,
            "autopilot_level": "medium",
            "hints": False,  # two people at the table
        }
        assert c.get(f"/api/games?tokens={tok}").json()["games"][0]["seeded"] is True
        r = c.post("/api/games", json={"players": 2, "seats": seats[:2]})
        assert r.status_code == 201 and r.json()["seeded"] is False
        other = r.json()["id"]
        assert c.get(f"/api/games/{other}").json()["seeded"] is False
        # names in event texts and chat
        with c.websocket_connect(f"/ws/games/{gid}?token={tok}") as ws:
            s = recv(ws, "state")
            while not s["legal_actions"]:
                s = recv(ws, "state")
            v = s["version"]
            ws.send_json({"type": "action", "version": v, "action": s["legal_actions"][0]})
            while s["version"] == v:
                s = recv(ws, "state")
            assert any("Zoë 世界" in e["text"] for e in s["events"])
            ws.send_json({"type": "chat", "text": "hi"})
            assert recv(ws, "chat")["name"] == "Zoë 世界"
    with server(sqlite_url) as c:  # stored
        assert c.get(f"/api/games/{gid}").json()["players"][0]["name"] == "Zoë 世界"


@pytest.mark.parametrize(
    "name",
    ["", "   ", "x" * (NAME_MAX + 1), "a\nb", "tab\there", "nul\x00", "\ud800", "\u2028", 5, ["a"]],
)
def test_bad_names_are_refused(client: TestClient, name: Any) -> None:
    seats = [{"kind": "human", "name": name}, {"kind": "bot", "level": "easy"}]
    body = json.dumps({"players": 2, "seats": seats})  # ASCII: "\ud800" travels escaped
    r = client.post("/api/games", content=body, headers={"content-type": "application/json"})
    # Refused by the name check, or earlier by the reader of every body (NUL, lone
    # surrogates: erebus.server.inputs); either way a 400 that says what is wrong.
    detail = r.json()["detail"]
    assert r.status_code == 400
    assert "seat 0: name" in detail or "NUL" in detail or "surrogate" in detail


def test_names_at_the_limits(client: TestClient) -> None:
    for name in ("A", "x" * NAME_MAX, " " + "y" * NAME_MAX + " "):
        seats = [{"kind": "human", "name": name}, {"kind": "bot", "level": "easy"}]
        r = client.post("/api/games", json={"players": 2, "seats": seats})
        assert r.status_code == 201 and r.json()["seats"][0]["name"] == name.strip()


@given(st.text(max_size=40))
def test_a_name_is_stored_stripped_or_refused(text: str) -> None:
    try:
        name = _parse_name(0, text)
    except ApiError as exc:
        assert exc.status == 400
        return
    assert name == text.strip() and 1 <= len(name) <= NAME_MAX
    assert not any(unicodedata.category(ch) in ("Cc", "Cs", "Zl", "Zp") for ch in name)


# ------------------------------------------------------------------ chat


def test_chat_lines_carry_version_and_time(db_url: str) -> None:
    with server(db_url, grace=300.0) as c:
        g = create(c, TWO)
        gid, t0 = g["id"], g["seats"][0]["token"]
        before = datetime.now(UTC) - timedelta(seconds=1)
        with c.websocket_connect(f"/ws/games/{gid}?token={t0}") as ws:
            s = recv(ws, "state")
            ws.send_json({"type": "chat", "text": "first"})
            one = recv(ws, "chat")
            ws.send_json({"type": "action", "version": 0, "action": s["legal_actions"][0]})
            recv(ws, "state")
            ws.send_json({"type": "chat", "text": "second"})
            two = recv(ws, "chat")
        assert (one["version"], two["version"]) == (0, 1)
        for line in (one, two):
            assert line["time"].endswith("Z")
            at = datetime.fromisoformat(line["time"].replace("Z", "+00:00"))
            assert before <= at <= datetime.now(UTC) + timedelta(seconds=1)
        assert c.get(f"/api/games/{gid}/chat").json()["chat"] == [one, two]
        with c.websocket_connect(f"/ws/games/{gid}") as spec:
            assert recv(spec, "chat_history")["chat"] == [one, two]
    with server(db_url) as c:  # the same after a restart
        assert c.get(f"/api/games/{gid}/chat").json()["chat"] == [one, two]


# --------------------------------------------------------------- rematch


def test_rematch_only_after_the_end_keeps_names_and_options(sqlite_url: str) -> None:
    with server(sqlite_url, grace=300.0) as c:
        seats = [{"kind": "human", "name": "Anna"}, {"kind": "bot", "level": "easy"}]
        g = create(c, seats, clock_s=120, takeover_grace_s=600, autopilot_level="easy")
        gid, tok = g["id"], g["seats"][0]["token"]
        r = c.post(f"/api/games/{gid}/rematch?token={tok}")
        assert r.status_code == 409 and "once the game is over" in r.json()["detail"]
        assert c.get(f"/api/games/{gid}").json()["rematch"] is None
        assert play(c, gid, tok, 400)["is_over"]
        r = c.post(f"/api/games/{gid}/rematch?token={tok}")
        assert r.status_code == 200, r.text
        new = c.get(f"/api/games/{r.json()['id']}?token={tok}").json()
        assert new["players"][0]["name"] == "Anna" and new["players"][0]["named"]
        assert not new["players"][0]["joined"]  # a new game: not played for until they come
        assert new["options"] == {
            "takeover_grace_s": 600.0,
            "clock_s": 120.0,
            "autopilot_level": "easy",
            "hints": True,
        }
        assert new["seeded"] is False


# ------------------------------------------------------- damaged records


def test_a_damaged_record_answers_409_for_that_game_only(sqlite_url: str, tmp_path: Path) -> None:
    with server(sqlite_url, grace=300.0) as c:
        games = [create(c, TWO) for _ in range(4)]
        for g in games:
            tok = g["seats"][0]["token"]
            cur = c.get(f"/api/games/{g['id']}?token={tok}").json()
            body = {"version": 0, "action": cur["legal_actions"][0]}
            assert c.post(f"/api/games/{g['id']}/actions?token={tok}", json=body).status_code == 200
        fine = c.get(f"/api/games/{games[3]['id']}").json()
    db = sqlite3.connect(tmp_path / "erebus.db")
    for g, bad in zip(games, ['{"type": "fly"}', "{not json", "[1, 2]"], strict=False):
        db.execute("UPDATE actions SET action = ? WHERE game_id = ?", (bad, g["id"]))
    db.commit()
    db.close()
    with server(sqlite_url, grace=300.0) as c:
        storage = c.app.state.storage  # type: ignore[attr-defined]
        loads: list[str] = []
        real = storage.load_game
        storage.load_game = lambda gid: (loads.append(gid), real(gid))[1]
        reasons = {}
        for g in games[:3]:
            r = c.get(f"/api/games/{g['id']}")
            assert r.status_code == 409, r.text
            msg = r.json()["detail"]
            assert msg.startswith(f"game {g['id']} is damaged at action 0: ")
            assert msg.endswith("; it cannot be loaded")
            reasons[g["id"]] = msg
        assert "does not parse" in reasons[games[1]["id"]]
        assert "not an action object" in reasons[games[2]["id"]]
        n = len(loads)
        for g in games[:3]:  # remembered: not read nor replayed again
            assert c.get(f"/api/games/{g['id']}").json()["detail"] == reasons[g["id"]]
            r = c.post(f"/api/games/{g['id']}/actions?token={g['seats'][0]['token']}", json={})
            assert r.status_code == 409
            with c.websocket_connect(f"/ws/games/{g['id']}") as ws:
                err = ws.receive_json()
                assert err["type"] == "error" and err["status"] == 409
        assert len(loads) == n
        assert c.get(f"/api/games/{games[3]['id']}").json() == fine  # the others work on
        assert c.post("/api/games", json={"players": 2, "seats": TWO}).status_code == 201


# --------------------------------------------------- one process per db


def test_one_server_per_database(db_url: str) -> None:
    first = Storage(db_url)
    try:
        with pytest.raises(DatabaseInUse, match="in use by another erebus server"):
            Storage(db_url)
        with pytest.raises(DatabaseInUse, match="one server process per database"):
            create_app(db_url, Settings(bot_mode="inline"))
    finally:
        first.close()
    with server(db_url) as c:  # free again
        assert c.post("/api/games", json={"players": 2}).status_code == 201
        with pytest.raises(DatabaseInUse):
            create_app(db_url, Settings(bot_mode="inline"))
    Storage(db_url).close()


def test_a_server_that_just_died_does_not_keep_the_database(db_url: str) -> None:
    """A PostgreSQL lock whose holder goes away within a moment (a server killed just
    before the restart: PostgreSQL ends its session a little later) does not refuse the
    new server; SQLite's file lock goes with the process at once anyway."""
    first = Storage(db_url)
    timer = threading.Timer(0.5, first.close)
    timer.start()
    try:
        Storage(db_url).close()  # waits for the lock (PostgreSQL) or gets it at once
    except DatabaseInUse:
        assert db_url.startswith("sqlite"), "PostgreSQL: the lock freed 0.5 s later"
    finally:
        timer.join()
        first.close()


def test_erebus_serve_refuses_a_database_in_use(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/erebus.db"
    held = Storage(url)
    try:
        cmd = [sys.executable, "-m", "erebus.cli", "serve", "--port", "1", "--db", url]
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        out = subprocess.run(
            cmd, env=env, cwd=tmp_path, capture_output=True, text=True, timeout=120
        )
    finally:
        held.close()
    assert out.returncode == 1
    assert "in use by another erebus server" in out.stderr
    assert "Traceback" not in out.stderr + out.stdout
