"""Undo: only the seat to move, only this turn's actions, never across a draw from
the bag; the log stays append-only and replays to the same game."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from server_helpers import make_client, new_game, undoable
from sqlalchemy import create_engine, text
from test_server_ws import recv

from erebus.games import northwest
from erebus.games.northwest.wire import wire_view
from erebus.server.storage import Storage

TWO = [{"kind": "human"}, {"kind": "human"}]


def _act(c: TestClient, gid: str, tok: str, version: int, action: dict[str, Any]) -> Any:
    r = c.post(f"/api/games/{gid}/actions?token={tok}", json={"version": version, "action": action})
    assert r.status_code == 200, r.text
    return r.json()


def _undo(c: TestClient, gid: str, tok: str, version: int) -> Any:
    return c.post(f"/api/games/{gid}/undo?token={tok}", json={"version": version})


def _drafted(c: TestClient) -> tuple[str, list[str], Any]:
    """A two-player game after the draft: seat 1 starts round 1 at version 2."""
    g = new_game(c, TWO)
    gid, toks = g["id"], [s["token"] for s in g["seats"]]
    for seat in (0, 1):
        cur = c.get(f"/api/games/{gid}?token={toks[seat]}").json()
        _act(c, gid, toks[seat], cur["version"], cur["legal_actions"][0])
    cur = c.get(f"/api/games/{gid}?token={toks[1]}").json()
    assert cur["version"] == 2 and cur["current_player"] == 1 and cur["view"]["round"] == 1
    return gid, toks, cur


def test_undo_rules_and_versions(db_url: str) -> None:
    with make_client(db_url) as c:
        gid, toks, v2 = _drafted(c)
        # nothing of this turn yet; the draft drew from the bag anyway
        r = _undo(c, gid, toks[1], 2)
        assert r.status_code == 400 and "nothing can be undone" in r.json()["detail"]
        assert not v2["can_undo"]
        assert _undo(c, gid, toks[0], 2).status_code == 403  # not seat 0's turn
        assert _undo(c, gid, "", 2).status_code == 403
        assert c.post(f"/api/games/{gid}/undo", json={"version": 2}).status_code == 403
        assert _undo(c, gid, toks[1], 1).status_code == 409  # stale
        assert c.post(f"/api/games/{gid}/undo?token={toks[1]}", json={}).status_code == 400
        # two public actions, taken back one by one
        v3 = _act(c, gid, toks[1], 2, undoable(v2["legal_actions"]))
        assert v3["can_undo"] and v3["current_player"] == 1
        v4 = _act(c, gid, toks[1], 3, undoable(v3["legal_actions"]))
        assert v4["current_player"] == 1
        r = _undo(c, gid, toks[1], 4)
        assert r.status_code == 200, r.text
        v5 = r.json()
        assert v5["version"] == 5 and v5["view"] == v3["view"]
        assert v5["legal_actions"] == v3["legal_actions"] and v5["scores"] == v3["scores"]
        assert v5["events"][-1]["type"] == "Undone" and v5["events"][-1]["seat"] == 1
        assert _undo(c, gid, toks[1], 4).status_code == 409  # the version moved on
        v6 = _undo(c, gid, toks[1], 5).json()
        assert v6["version"] == 6 and v6["view"] == v2["view"] and not v6["can_undo"]
        assert _undo(c, gid, toks[1], 6).status_code == 400
        # a draw from the display refills it from the bag: a barrier
        display = next(
            a for a in v6["legal_actions"] if a["type"] == "draw" and a["source"] == "display"
        )
        v7 = _act(c, gid, toks[1], 6, display)
        assert v7["current_player"] == 1 and not v7["can_undo"]
        r = _undo(c, gid, toks[1], 7)
        assert r.status_code == 400, r.text
        v8 = _act(c, gid, toks[1], 7, undoable(v7["legal_actions"]))
        v9 = _undo(c, gid, toks[1], 8).json()
        assert v9["view"] == v7["view"] and _undo(c, gid, toks[1], 9).status_code == 400
        # the end of the turn is a barrier too, for both seats
        end = next(a for a in v9["legal_actions"] if a["type"] in ("end_turn", "pass"))
        v10 = _act(c, gid, toks[1], 9, end)
        assert v10["current_player"] == 0
        assert _undo(c, gid, toks[1], 10).status_code == 403
        assert _undo(c, gid, toks[0], 10).status_code == 400
        assert v8["version"] == 8
        spectator = c.get(f"/api/games/{gid}").json()
        mine = c.get(f"/api/games/{gid}?token={toks[0]}").json()
        rec = c.app.state.storage.load_game(gid)  # type: ignore[attr-defined]
    # the log: every row kept, undo rows name what they take back
    assert [e.index for e in rec.log] == list(range(10))
    assert [(e.index, e.undoes) for e in rec.log if e.kind == "undo"] == [(4, 3), (5, 2), (8, 7)]
    assert len(rec.actions) == 4  # two drafts, the display draw, the end of the turn
    st = northwest.replay(2, 2, rec.actions)
    assert wire_view(st, None) == spectator["view"]
    # a new server on the same database rebuilds the same game, undos included
    with make_client(db_url) as c:
        assert c.get(f"/api/games/{gid}").json() == spectator
        assert c.get(f"/api/games/{gid}?token={toks[0]}").json() == mine


def test_undo_survives_a_restart_mid_turn(db_url: str) -> None:
    with make_client(db_url) as c:
        gid, toks, v2 = _drafted(c)
        v3 = _act(c, gid, toks[1], 2, undoable(v2["legal_actions"]))
        _act(c, gid, toks[1], 3, undoable(v3["legal_actions"]))
        v5 = _undo(c, gid, toks[1], 4).json()
    with make_client(db_url) as c:
        again = c.get(f"/api/games/{gid}?token={toks[1]}").json()
        assert again == v5 and again["can_undo"]
        v6 = _undo(c, gid, toks[1], 5).json()  # the undo stack is rebuilt from the log
        assert v6["view"] == v2["view"]
        assert _undo(c, gid, toks[1], 6).status_code == 400


def test_undo_over_websocket(client: TestClient) -> None:
    gid, toks, v2 = _drafted(client)
    with client.websocket_connect(f"/ws/games/{gid}?token={toks[1]}") as ws:
        assert recv(ws, "state")["version"] == 2
        ws.send_json({"type": "undo", "version": 2})
        err = recv(ws, "error")
        assert err["status"] == 400 and "nothing can be undone" in err["message"]
        ws.send_json({"type": "action", "version": 2, "action": undoable(v2["legal_actions"])})
        assert recv(ws, "state")["version"] == 3
        ws.send_json({"type": "undo", "version": 1})
        assert recv(ws, "error")["status"] == 409
        ws.send_json({"type": "undo", "version": 3})
        s = recv(ws, "state")
        assert s["version"] == 4 and s["view"] == v2["view"]
    with client.websocket_connect(f"/ws/games/{gid}") as spec:
        recv(spec, "state")
        spec.send_json({"type": "undo", "version": 4})
        assert recv(spec, "error")["status"] == 403


def test_migration_0002_keeps_old_logs(sqlite_url: str) -> None:
    """A database at revision 0001 with a game in it is brought to the newest revision."""
    from alembic import command
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    from erebus.server.storage import MIGRATIONS_DIR, make_engine

    engine = make_engine(sqlite_url)
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0001")
    with engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO games (id, game, players, seed, options, created, status) "
                "VALUES ('old', 'northwest', 2, 2, '{}', '2026-01-01', 'active')"
            )
        )
        conn.execute(
            text(
                'INSERT INTO actions (game_id, "index", seat, action, created) '
                "VALUES ('old', 0, 0, '{\"type\": \"draft\", \"index\": 1}', '2026-01-01')"
            )
        )
    engine.dispose()
    st = Storage(sqlite_url)
    try:
        rec = st.load_game("old")
        assert rec is not None and rec.actions == [{"type": "draft", "index": 1}]
        assert [(e.kind, e.undoes) for e in rec.log] == [("action", None)]
        check = create_engine(sqlite_url)
        with check.connect() as conn:
            head = ScriptDirectory.from_config(cfg).get_current_head()
            assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == head
        check.dispose()
    finally:
        st.close()
