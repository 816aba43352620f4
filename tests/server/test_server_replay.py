"""Replays of finished games (``GET /api/games/{id}/replay`` and ``…/replay/{k}``):
every step readable, the last one the live game's final table, undone moves and the
autopilot's takeover rows left out, 409/404/400 for what cannot be shown."""

from __future__ import annotations

import itertools
import json
import random
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as hst
from server_helpers import make_client, new_game, undoable, wait_turn

from erebus.games import get_game
from erebus.server.replay import ReplayCache, build, moves
from erebus.server.storage import GameRecord, LogEntry, SeatInfo

BOTS = [{"kind": "bot", "level": "easy"}] * 3
HUMAN_BOT = [{"kind": "human"}, {"kind": "bot", "level": "easy"}]


def _finish(c: TestClient, gid: str, token: str | None = None, undo: bool = False) -> Any:
    """Play the game to its end: the human (if any) makes random legal moves; with
    ``undo`` it first makes an undoable move and takes it back.  The final payload a
    spectator gets."""
    rng = random.Random(7)
    undone = not undo
    while True:
        g = wait_turn(c, gid, token, timeout=60)
        if g["is_over"]:
            return c.get(f"/api/games/{gid}").json()
        assert token is not None
        legal = g["legal_actions"]
        if not undone and g["view"]["round"] >= 1:
            try:
                action = undoable(legal)
            except AssertionError:
                action = None
            if action is not None:
                r = c.post(
                    f"/api/games/{gid}/actions?token={token}",
                    json={"version": g["version"], "action": action},
                )
                assert r.status_code == 200, r.text
                v = r.json()
                assert v["can_undo"], v
                r = c.post(f"/api/games/{gid}/undo?token={token}", json={"version": v["version"]})
                assert r.status_code == 200, r.text
                undone = True
                continue
        r = c.post(
            f"/api/games/{gid}/actions?token={token}",
            json={"version": g["version"], "action": rng.choice(legal)},
        )
        assert r.status_code == 200, r.text


def _replay(c: TestClient, gid: str) -> Any:
    r = c.get(f"/api/games/{gid}/replay")
    assert r.status_code == 200, r.text
    return r.json()


def _step(c: TestClient, gid: str, k: int | str) -> Any:
    r = c.get(f"/api/games/{gid}/replay/{k}")
    assert r.status_code == 200, r.text
    return r.json()


def test_a_bot_game_replays_step_by_step_to_the_live_final_table(sqlite_url: str) -> None:
    with make_client(sqlite_url) as c:
        gid = new_game(c, BOTS, seed=5)["id"]
        final = _finish(c, gid)
        index = _replay(c, gid)
        assert set(index) == {"id", "game", "players", "seeded", "steps", "rounds"}
        assert index["id"] == gid and index["game"] == "northwest"
        assert index["seeded"] in (True, False)
        live_players = final["players"]
        assert [p["name"] for p in index["players"]] == [p["name"] for p in live_players]
        for i, p in enumerate(index["players"]):
            assert set(p) == {"seat", "name", "named", "kind", "level"}
            assert p["seat"] == i and p["kind"] == "bot" and p["level"] == "easy"
        n = index["steps"]
        rows = c.app.state.storage.load_game(gid).log  # type: ignore[attr-defined]
        assert n == len(rows) > 0  # bots never undo
        # Rounds: the setup draft first, then each round once, in order, at its first step.
        rounds = index["rounds"]
        assert rounds[0] == {"round": 0, "step": 0}
        assert [r["round"] for r in rounds] == list(range(len(rounds)))
        assert rounds[-1]["round"] == final["view"]["round"]
        assert all(a["step"] < b["step"] for a, b in itertools.pairwise(rounds))

        steps = [_step(c, gid, k) for k in range(n + 1)]
        for k, st in enumerate(steps):
            assert st["step"] == k and st["steps"] == n
            assert all(e["version"] == k and e["text"] for e in st["events"])
            assert st["players"] == index["players"]
            if k:  # the seat that made move k was the one to move at step k - 1
                assert st["seat"] == steps[k - 1]["current_player"]
                assert st["action"]["type"] and st["events"]
        assert steps[0]["action"] is None and steps[0]["seat"] is None
        assert steps[0]["events"] == [] and steps[0]["view"]["round"] == 0
        for r in rounds[1:]:
            st = steps[r["step"]]
            assert st["view"]["round"] == r["round"]
            assert steps[r["step"] - 1]["view"]["round"] == r["round"] - 1
            assert any(
                e["type"] == "RoundStarted" and e["round"] == r["round"] for e in st["events"]
            )
        assert not any(st["is_over"] for st in steps[:-1])
        last = steps[-1]
        assert last["is_over"] and last["current_player"] is None
        assert last["view"] == final["view"]
        assert last["scores"] == final["scores"] and last["ranking"] == final["ranking"]
        # The words of the events are the live game's (its recent events end the same way).
        live_tail = [(e["type"], e["text"]) for e in final["events"]][-len(last["events"]) :]
        assert [(e["type"], e["text"]) for e in last["events"]] == live_tail
        # The wire view, as in the live payload: terrain by vertex, no bitboards.
        assert "land" not in last["view"] and last["view"]["board"]["vertices"]


def test_undone_moves_are_not_steps(sqlite_url: str) -> None:
    with make_client(sqlite_url) as c:
        g = new_game(c, HUMAN_BOT, seed=2)
        gid, tok = g["id"], g["seats"][0]["token"]
        final = _finish(c, gid, tok, undo=True)
        record = c.app.state.storage.load_game(gid)  # type: ignore[attr-defined]
        kinds = [e.kind for e in record.log]
        assert kinds.count("undo") == 1
        index = _replay(c, gid)
        assert index["steps"] == len(record.actions) == len(record.log) - 2
        last = _step(c, gid, index["steps"])
        assert last["view"] == final["view"] and last["scores"] == final["scores"]
        human = [p for p in index["players"] if p["kind"] == "human"]
        assert [p["seat"] for p in human] == [0]


def test_what_cannot_be_replayed(sqlite_url: str) -> None:
    with make_client(sqlite_url) as c:
        g = new_game(c, HUMAN_BOT, seed=2)
        gid, tok = g["id"], g["seats"][0]["token"]
        for path in (f"/api/games/{gid}/replay", f"/api/games/{gid}/replay/0"):
            r = c.get(path)
            assert r.status_code == 409 and "in progress" in r.json()["detail"], r.text
        assert c.get("/api/games/nope/replay").status_code == 404
        assert c.get("/api/games/nope/replay/0").status_code == 404
        assert c.get("/api/games/" + "x" * 40 + "/replay").status_code == 404
        _finish(c, gid, tok)
        n = _replay(c, gid)["steps"]
        for bad in ("abc", "-1", "1.5", "1e3", "%20", "0x1", "١"):
            r = c.get(f"/api/games/{gid}/replay/{bad}")
            assert r.status_code == 400, (bad, r.text)
            assert "whole number" in r.json()["detail"]
        for out in (n + 1, 10**8):
            r = c.get(f"/api/games/{gid}/replay/{out}")
            assert r.status_code == 404 and f"0..{n}" in r.json()["detail"], r.text
        assert _step(c, gid, n)["is_over"]
        assert _step(c, gid, "0")["step"] == 0
        # The page itself is the web client.
        page = c.get(f"/replay/{gid}?step=3")
        assert page.status_code == 200 and "text/html" in page.headers["content-type"]


def test_the_cache_keeps_the_last_games(sqlite_url: str) -> None:
    with make_client(sqlite_url) as c:
        ids = [new_game(c, BOTS, seed=s)["id"] for s in (1, 2, 3)]
        for gid in ids:
            _finish(c, gid)
        cache = ReplayCache(c.app.state.service, size=2)  # type: ignore[attr-defined]
        portal = c.portal  # type: ignore[attr-defined]
        first = portal.call(cache.get, ids[0])
        assert portal.call(cache.get, ids[0]) is first  # built once
        portal.call(cache.get, ids[1])
        portal.call(cache.get, ids[0])  # ids[0] is now the newest
        portal.call(cache.get, ids[2])  # evicts ids[1]
        assert list(cache._replays) == [ids[0], ids[2]]
        assert portal.call(cache.get, ids[1]) is not None
        assert list(cache._replays) == [ids[2], ids[1]]


def _record(log: list[LogEntry], seed: int) -> GameRecord:
    seats = [SeatInfo(0, "human", None, "h"), SeatInfo(1, "bot", "easy", None)]
    return GameRecord(
        "g", "northwest", 2, seed, {}, datetime.now(UTC), "over", None, seats, [], log
    )


@settings(max_examples=25, deadline=None)
@given(
    seed=hst.integers(0, 2**63 - 1),
    choices=hst.lists(hst.integers(0, 10**6), min_size=0, max_size=40),
    extras=hst.lists(hst.sampled_from(["takeover", "handback", "undo"]), max_size=40),
)
def test_replays_skip_what_is_not_a_move(seed: int, choices: list[int], extras: list[str]) -> None:
    """Whatever takeover / hand-back rows (the autopilot's log kinds) and undone moves lie
    between the moves, the replay has one step per move and ends where the engine does."""
    game = get_game("northwest")
    state = game.new_game(2, seed)
    log: list[LogEntry] = []
    played: list[dict[str, Any]] = []
    for i, pick in enumerate(choices):
        if state.is_over:
            break
        seat = state.current_player
        assert seat is not None
        extra = extras[i] if i < len(extras) else None
        if extra == "takeover":
            log.append(LogEntry(len(log), seat, "takeover", {"reason": "away", "level": "easy"}))
        elif extra == "handback":
            log.append(LogEntry(len(log), seat, "handback", {}))
        elif extra == "undo":  # a move made and taken back: not a step
            legal = state.legal_actions()
            log.append(LogEntry(len(log), seat, "action", legal[pick % len(legal)].to_json()))
            log.append(LogEntry(len(log), seat, "undo", {}, len(log) - 1))
        legal = state.legal_actions()
        action = legal[pick % len(legal)].to_json()
        log.append(LogEntry(len(log), seat, "bot" if pick % 2 else "action", action))
        state.apply(action)
        played.append(action)
    record = _record(log, seed)
    assert [a for _, a in moves(record)] == played
    players = [{"seat": i, "name": f"P{i}", "named": True} for i in range(2)]
    replay = build(record, players, seeded=True)
    assert replay.steps == len(played)
    last = replay.step(replay.steps)
    assert last["view"] == get_game("northwest").wire_view(state, None)
    assert last["scores"] == state.scores() and last["is_over"] == state.is_over
    assert replay.index()["seeded"] is True
    assert [r["step"] for r in replay.rounds] == sorted({r["step"] for r in replay.rounds})
    texts = [e["text"] for evs in replay.events for e in evs]
    assert not any("Player" in t for t in texts)  # the replay's own names, P0 and P1
    if played:
        assert any("P0" in t or "P1" in t for t in texts)


def test_every_key_the_replay_page_names_exists() -> None:
    """replay.js is a module of its own: its ``t("…")`` keys are in every language."""
    web = Path(__file__).resolve().parents[2] / "src" / "erebus" / "web"
    used = set(re.findall(r"\bt\(\s*\"([A-Za-z0-9_]+)\"", (web / "core" / "replay.js").read_text()))
    assert {"replay_first", "replay_step", "next_round", "replay_in_progress"} <= used
    for lang in ("en", "hu", "it", "fr", "uk", "ja"):
        strings = json.loads((web / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
        assert sorted(used - set(strings)) == [], lang
