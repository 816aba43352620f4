"""The HTTP API: lobby, seats, turns, errors, bots, spectators, rematch."""

from __future__ import annotations

import json
import logging
import sqlite3
from typing import Any

from fastapi.testclient import TestClient
from server_helpers import HBB, new_game, play, wait_turn

from erebus.core.jsonutil import js_safe
from erebus.games import get_game, northwest
from erebus.games.northwest.wire import action_cost
from erebus.server.app import RedactTokens


def _count_actions(client: TestClient) -> int:
    storage = client.app.state.storage  # type: ignore[attr-defined]
    path = storage.url.removeprefix("sqlite:///")
    with sqlite3.connect(path) as conn:
        return int(conn.execute("SELECT count(*) FROM actions").fetchone()[0])


def test_create_returns_seats_with_tokens_and_urls(client: TestClient) -> None:
    g = new_game(client, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "hard"}])
    gid = g["id"]
    assert g["spectator_url"] == f"/game/{gid}"
    t0, t1 = g["seats"][0]["token"], g["seats"][1]["token"]
    assert t0 and t1 and t0 != t1 and len(t0) >= 32  # 24 bytes = 192 bits
    assert g["seats"][0]["url"] == f"/game/{gid}?token={t0}"
    assert g["seats"][2]["token"] is None
    r = client.get(f"/api/games/{gid}?token={t1}").json()
    assert r["seat"] == 1 and r["version"] == 0 and r["legal_actions"] == []
    r = client.get(f"/api/games/{gid}?token={t0}").json()
    assert r["seat"] == 0 and r["legal_actions"] and not r["is_over"]
    assert r["scores"] == [0, 0, 0] and [p["kind"] for p in r["players"]] == [
        "human",
        "human",
        "bot",
    ]


def test_play_against_bots_to_the_end(client: TestClient) -> None:
    g = new_game(client, HBB, seed=3)
    tok = g["seats"][0]["token"]
    final = play(client, g["id"], tok, 400)
    assert final["is_over"] and final["legal_actions"] == []
    assert final["events"] and final["events"][-1]["type"] == "GameOver"
    # the stored log replays to the same state
    log = [a for a in _log(client, g["id"])]
    st = northwest.replay(3, 3, log)
    assert (
        get_game("northwest").wire_view(st, None)
        == client.get(f"/api/games/{g['id']}").json()["view"]
    )
    assert final["version"] == len(log) and final["scores"] == st.scores()


def _integers(x: Any) -> list[int]:
    if isinstance(x, dict):
        return [i for v in x.values() for i in _integers(v)]
    if isinstance(x, list):
        return [i for v in x for i in _integers(v)]
    return [x] if type(x) is int else []


def test_payloads_hold_no_integer_a_browser_would_round(client: TestClient) -> None:
    g = new_game(client, HBB, seed=3)
    tok = g["seats"][0]["token"]
    body = client.get(f"/api/games/{g['id']}?token={tok}").json()
    # the browser gets the wire view: the terrain named per vertex, no bitboards
    assert not {"land", "sea"} & set(body["view"]) and body["view"]["board"]["vertices"]
    assert all(-(2**53) < i < 2**53 for i in _integers(body))
    # an engine view (other games' payloads) has its bitboards as decimal strings,
    # which from_view reads back
    engine_view = js_safe(northwest.replay(3, 3, []).view(0))
    assert isinstance(engine_view["land"], str) and isinstance(engine_view["sea"], str)
    assert all(-(2**53) < i < 2**53 for i in _integers(engine_view))
    st = northwest.State.from_view(engine_view, seed=1)
    assert st.view(None) == northwest.replay(3, 3, []).view(None)
    # the standard library gets what orjson refuses (integers beyond 64 bits)
    from erebus.server.table import _dumps

    assert json.loads(_dumps({"big": 2**70, "s": "é"})) == {"big": 2**70, "s": "é"}
    assert _dumps({"a": [1, None, True]}) == '{"a":[1,null,true]}'


def _log(client: TestClient, gid: str) -> list[dict[str, Any]]:
    rec = client.app.state.storage.load_game(gid)  # type: ignore[attr-defined]
    return list(rec.actions)


def test_bot_that_starts_moves_at_creation(client: TestClient) -> None:
    seats = [{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "hard"}, {"kind": "human"}]
    g = new_game(client, seats)
    r = wait_turn(client, g["id"], g["seats"][2]["token"])
    assert r["version"] >= 1 and r["view"]["current"] == 2 and r["legal_actions"]


def test_errors_store_nothing(client: TestClient) -> None:
    g = new_game(client)
    gid, tok = g["id"], g["seats"][0]["token"]
    cur = wait_turn(client, gid, tok)
    v, good = cur["version"], cur["legal_actions"][0]
    url = f"/api/games/{gid}/actions?token={tok}"
    before = _count_actions(client)

    def post(body: Any, u: str = url) -> Any:
        return client.post(u, content=json.dumps(body))

    r = post({"version": v, "action": {"type": "draft", "index": 99}})
    assert r.status_code == 400 and r.json()["detail"]  # the rule's message
    assert post({"version": v, "action": {"type": "fly"}}).status_code == 400
    assert post({"version": v, "action": "draft"}).status_code == 400
    assert post({"version": v}).status_code == 400
    assert post({"version": "x", "action": good}).status_code == 400
    assert client.post(url, content=b"{not json").status_code == 400
    assert post({"version": v + 5, "action": good}).status_code == 409
    assert post({"version": v, "action": good}, f"/api/games/{gid}/actions").status_code == 403
    r = post({"version": v, "action": good}, f"/api/games/{gid}/actions?token=nope")
    assert r.status_code == 403
    assert (
        post({"version": v, "action": good}, f"/api/games/zzz/actions?token={tok}").status_code
        == 404
    )
    assert client.get("/api/games/zzz").status_code == 404
    assert client.get(f"/api/games/{gid}?token=wrong").status_code == 403
    big = {"version": v, "action": good, "pad": "x" * 17000}
    assert post(big).status_code == 413
    assert client.post("/api/games", content=json.dumps({"pad": "x" * 17000})).status_code == 413
    assert _count_actions(client) == before
    assert client.get(f"/api/games/{gid}?token={tok}").json()["version"] == v
    assert post({"version": v, "action": good}).status_code == 200


def test_not_your_turn_is_403(client: TestClient) -> None:
    g = new_game(client, [{"kind": "human"}, {"kind": "human"}])
    gid, t0, t1 = g["id"], g["seats"][0]["token"], g["seats"][1]["token"]
    act = client.get(f"/api/games/{gid}?token={t0}").json()["legal_actions"][0]
    r = client.post(f"/api/games/{gid}/actions?token={t1}", json={"version": 0, "action": act})
    assert r.status_code == 403 and "turn" in r.json()["detail"]
    r = client.post(f"/api/games/{gid}/actions?token={t0}", json={"version": 0, "action": act})
    assert r.status_code == 200 and r.json()["version"] == 1
    # the same move again, now stale
    r = client.post(f"/api/games/{gid}/actions?token={t0}", json={"version": 0, "action": act})
    assert r.status_code == 409


def test_bad_create_requests(client: TestClient) -> None:
    for body in (
        {"game": "chess"},
        {"players": 9},
        {"players": 2, "seats": [{"kind": "human"}]},
        {"players": 2, "seats": [{"kind": "human"}, {"kind": "bot", "level": "godlike"}]},
        {"players": 2, "seats": [{"kind": "human"}, {"kind": "alien"}]},
        {"players": 2, "seed": "abc"},
        [1, 2],
    ):
        assert client.post("/api/games", json=body).status_code == 400, body


def test_any_registered_game_is_served_and_says_whether_it_has_a_board(
    client: TestClient,
) -> None:
    """Through Ice and Snow is served like Northwest (its options through
    ``game_options``) and the payload's ``web_board`` names its board."""
    humans = [{"kind": "human"}, {"kind": "human"}]
    body = {
        "game": "iceandsnow",
        "players": 2,
        "seats": humans,
        "game_options": {"modes": ["survival"]},
    }
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    g = r.json()
    p = client.get(f"/api/games/{g['id']}").json()
    assert p["game"] == "iceandsnow" and p["web_board"] == "iceandsnow"
    spec = get_game("iceandsnow")
    assert p["game_options"] == spec.parse_options(2, {"modes": ["survival"]})
    tok = g["seats"][p["current_player"]]["token"]
    mine = client.get(f"/api/games/{g['id']}?token={tok}").json()
    assert mine["legal_actions"] and mine["legal_costs"] == [None] * len(mine["legal_actions"])
    nw = client.get(f"/api/games/{new_game(client)['id']}").json()
    assert nw["web_board"] == "northwest" and nw["game_options"] == {}


def test_game_options_are_checked_by_the_game(client: TestClient) -> None:
    r = client.post("/api/games", json={"players": 2, "game_options": {"variant": 1}})
    assert r.status_code == 400 and "no options" in r.json()["detail"]
    r = client.post(
        "/api/games", json={"game": "iceandsnow", "players": 2, "game_options": {"modes": 3}}
    )
    assert r.status_code == 400 and r.json()["detail"].startswith("game_options: ")


def test_spectators_read_only_and_views_hide_secrets(client: TestClient) -> None:
    seed = 987_654_321_987
    g = new_game(client, [{"kind": "human"}, {"kind": "human"}], seed=seed)
    gid = g["id"]
    assert str(seed) not in json.dumps(g)
    spec = client.get(f"/api/games/{gid}").json()
    tok = g["seats"][spec["current_player"]]["token"]
    assert spec["seat"] is None and spec["legal_actions"] == []
    for who in (spec, client.get(f"/api/games/{gid}?token={tok}").json()):
        text = json.dumps(who)
        assert str(seed) not in text
        assert tok not in text
        keys = set(who["view"])
        assert not keys & {"seed", "rng", "bag"}, keys
    act = client.get(f"/api/games/{gid}?token={tok}").json()["legal_actions"][0]
    r = client.post(f"/api/games/{gid}/actions", json={"version": 0, "action": act})
    assert r.status_code == 403


def test_tokens_are_stored_hashed(client: TestClient) -> None:
    g = new_game(client, [{"kind": "human"}, {"kind": "human"}])
    storage = client.app.state.storage  # type: ignore[attr-defined]
    path = storage.url.removeprefix("sqlite:///")
    with sqlite3.connect(path) as conn:
        rows = conn.execute("SELECT token_hash FROM seats").fetchall()
        dump = "\n".join(conn.iterdump())
    assert all(len(h) == 64 for (h,) in rows)
    for s in g["seats"]:
        assert s["token"] not in dump


def test_my_games_and_rematch(client: TestClient) -> None:
    g = new_game(client, [{"kind": "human"}, {"kind": "bot", "level": "easy"}])
    gid, tok = g["id"], g["seats"][0]["token"]
    mine = client.get(f"/api/games?tokens={tok},bogus").json()["games"]
    assert [(x["id"], x["seat"]) for x in mine] == [(gid, 0)]
    assert client.post(f"/api/games/{gid}/rematch").status_code == 403
    early = client.post(f"/api/games/{gid}/rematch?token={tok}")  # not before the end
    assert early.status_code == 409 and "once the game is over" in early.json()["detail"]
    assert play(client, gid, tok, 400)["is_over"]
    r = client.post(f"/api/games/{gid}/rematch?token={tok}")
    assert r.status_code == 200
    new_id = r.json()["id"]
    assert new_id != gid and r.json()["seats"][0]["url"] == f"/game/{new_id}?token={tok}"
    assert client.post(f"/api/games/{gid}/rematch?token={tok}").json()["id"] == new_id
    assert client.get(f"/api/games/{gid}").json()["rematch"] == new_id
    again = client.get(f"/api/games/{new_id}?token={tok}").json()
    assert again["seat"] == 0 and again["players"][1]["level"] == "easy"
    assert {x["id"] for x in client.get(f"/api/games?tokens={tok}").json()["games"]} == {
        gid,
        new_id,
    }


def test_pages(client: TestClient) -> None:
    for path in ("/", "/game/abc"):
        r = client.get(path)
        assert r.status_code == 200 and "<html" in r.text.lower()


def test_log_filter_redacts_tokens() -> None:
    rec = logging.LogRecord(
        "uvicorn.access",
        logging.INFO,
        __file__,
        1,
        '%s - "%s %s HTTP/%s" %d',
        ("1.2.3.4", "GET", "/api/games/x?token=SECRET&y=1", "1.1", 200),
        None,
    )
    RedactTokens().filter(rec)
    assert "SECRET" not in rec.getMessage() and "token=[redacted]&y=1" in rec.getMessage()


def test_bots_in_worker_processes(sqlite_url: str) -> None:
    """The production path: bots think in a BotPool, off the event loop."""
    from erebus.server.app import create_app
    from erebus.server.service import Settings

    app = create_app(
        sqlite_url, Settings(bot_mode="process", bot_workers=1, hard_iterations=5, api_rate=0)
    )
    with TestClient(app) as c:
        g = new_game(c, [{"kind": "human"}, {"kind": "bot", "level": "hard"}])
        final = play(c, g["id"], g["seats"][0]["token"], 3)
        assert final["version"] >= 5


def test_each_legal_action_comes_with_its_cost(client: TestClient) -> None:
    g = new_game(client, [{"kind": "human"}, {"kind": "human"}], seed=5)
    paid = set()
    for _ in range(16):  # the draft, then actions that cost 1, 2… crewmen
        spec = client.get(f"/api/games/{g['id']}").json()
        assert spec["legal_actions"] == [] and spec["legal_costs"] == []
        tok = g["seats"][spec["current_player"]]["token"]
        body = client.get(f"/api/games/{g['id']}?token={tok}").json()
        assert len(body["legal_costs"]) == len(body["legal_actions"]) > 0
        st = northwest.replay(2, 5, _log(client, g["id"]))
        assert body["legal_costs"] == [action_cost(st, a) for a in body["legal_actions"]]
        assert body["view"]["costs"]["draw"]["now"] == st.cost_of("draw")
        paid |= set(body["legal_costs"])
        acts = [a for a in body["legal_actions"] if a["type"] not in ("pass", "end_turn")]
        act = (acts or body["legal_actions"])[0]
        r = client.post(
            f"/api/games/{g['id']}/actions?token={tok}",
            json={"version": body["version"], "action": act},
        )
        assert r.status_code == 200, r.text
    assert {0, 1, 2} <= paid
