"""Storage: migrations, the append-only log, and restarting on the same database
(SQLite, and PostgreSQL when EREBUS_TEST_POSTGRES_URL is set)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from server_helpers import HBB, make_client, new_game, play, undoable, wait_turn
from sqlalchemy import inspect, text

from erebus.games import northwest
from erebus.server.storage import SeatInfo, StaleVersion, Storage


def test_schema_and_log_are_append_only(db_url: str) -> None:
    Storage(db_url).close()
    st = Storage(db_url)  # a second start-up (one process at a time) finds the schema current
    try:
        names = set(inspect(st.engine).get_table_names())
        assert {"games", "seats", "actions", "alembic_version"} <= names
        st.create_game("g1", "northwest", 2, 5, {}, [SeatInfo(0, "human", None, "h" * 64)])
        st.append_action("g1", 0, 0, {"type": "draft", "index": 1}, False)
        with pytest.raises(StaleVersion):
            st.append_action("g1", 0, 0, {"type": "draft", "index": 2}, False)
        rec = st.load_game("g1")
        assert rec is not None and rec.actions == [{"type": "draft", "index": 1}]
        assert st.load_game("nope") is None
        if st.engine.dialect.name == "sqlite":
            with st.engine.connect() as conn:
                assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"
                assert conn.execute(text("PRAGMA busy_timeout")).scalar() == 5000
    finally:
        st.close()


def test_restart_continues_the_same_game(db_url: str) -> None:
    with make_client(db_url) as c:
        g = new_game(c, HBB, seed=11)
        gid, tok = g["id"], g["seats"][0]["token"]
        before = play(c, gid, tok, 5)
        # an action taken back is in the log (append-only) but not in the game
        assert not before["is_over"] and before["legal_actions"]
        v = before["version"]
        r = c.post(
            f"/api/games/{gid}/actions?token={tok}",
            json={"version": v, "action": undoable(before["legal_actions"])},
        )
        assert r.status_code == 200, r.text
        r = c.post(f"/api/games/{gid}/undo?token={tok}", json={"version": v + 1})
        assert r.status_code == 200, r.text
        before = r.json()
        assert before["version"] == v + 2 and before["events"][-1]["type"] == "Undone"
        spectator = c.get(f"/api/games/{gid}").json()
    assert not before["is_over"] and before["version"] >= 5
    with make_client(db_url) as c:  # a new app on the same database
        after = c.get(f"/api/games/{gid}?token={tok}").json()
        assert after == before
        assert c.get(f"/api/games/{gid}").json() == spectator
        final = play(c, gid, tok, 400)
        assert final["is_over"]
        rec = c.app.state.storage.load_game(gid)  # type: ignore[attr-defined]
        assert rec.status == "over"
        assert sum(e.kind == "undo" for e in rec.log) == 1
        assert len(rec.log) == final["version"] == len(rec.actions) + 2
        st = northwest.replay(3, 11, rec.actions)
        assert st.is_over and st.scores() == final["scores"]


def test_sqlite_file_is_created_in_a_new_directory(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/deep/var/erebus.db"
    with make_client(url) as c:
        new_game(c)
    assert (tmp_path / "deep/var/erebus.db").is_file()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_sigkill_and_restart(tmp_path: Path) -> None:
    """A real server process killed with SIGKILL mid-game loses nothing committed."""
    url = f"sqlite:///{tmp_path}/erebus.db"
    port = _free_port()
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    cmd = [sys.executable, "-m", "erebus.cli", "serve", "--port", str(port), "--db", url]
    base = f"http://127.0.0.1:{port}"

    def start() -> subprocess.Popen[bytes]:
        proc = subprocess.Popen(
            cmd, env=env, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
        )
        for _ in range(200):
            try:
                httpx.get(f"{base}/api/games", timeout=0.5)
                return proc
            except httpx.HTTPError:
                time.sleep(0.05)
        proc.kill()
        raise AssertionError("the server did not start")

    proc = start()
    try:
        seats = [{"kind": "human"}, {"kind": "human"}]
        g = httpx.post(f"{base}/api/games", json={"players": 2, "seats": seats, "seed": 2}).json()
        gid, toks = g["id"], [s["token"] for s in g["seats"]]
        state = httpx.get(f"{base}/api/games/{gid}").json()
        for _ in range(4):
            cur = state["current_player"]
            mine = httpx.get(f"{base}/api/games/{gid}?token={toks[cur]}").json()
            body = {"version": mine["version"], "action": mine["legal_actions"][0]}
            r = httpx.post(f"{base}/api/games/{gid}/actions?token={toks[cur]}", json=body)
            assert r.status_code == 200
            state = httpx.get(f"{base}/api/games/{gid}").json()
    finally:
        proc.send_signal(signal.SIGKILL)
        out = proc.communicate()[0].decode()
    assert "erebus is running at http://127.0.0.1:" in out
    for t in toks:
        assert t not in out  # tokens never reach the log
    proc = start()
    try:
        again = httpx.get(f"{base}/api/games/{gid}").json()
        assert again == state and again["version"] == 4
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.communicate()


def test_wait_turn_helper_times_out_cleanly(sqlite_url: str) -> None:
    with make_client(sqlite_url) as c:
        g = new_game(c, [{"kind": "human"}, {"kind": "human"}])
        with pytest.raises(AssertionError):
            wait_turn(c, g["id"], g["seats"][1]["token"], timeout=0.05)
