"""POST /api/games/{id}/check: the engine's verdict on an action without playing it —
the browser asks it to explain why a spot is not lit up."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from server_helpers import make_client, new_game

TWO = [{"kind": "human"}, {"kind": "human"}]


def _check(c: TestClient, gid: str, token: str | None, body: Any) -> Any:
    q = f"?token={token}" if token else ""
    return c.post(f"/api/games/{gid}/check{q}", json=body)


def test_check_answers_legal_or_the_rule_and_changes_nothing(client: TestClient) -> None:
    g = new_game(client, TWO)
    gid, t0 = g["id"], g["seats"][0]["token"]
    before = client.get(f"/api/games/{gid}?token={t0}").json()
    legal = before["legal_actions"][0]
    r = _check(client, gid, t0, {"action": legal})
    assert r.status_code == 200 and r.json() == {"legal": True}
    # In the draft only drafting is allowed: the engine's own sentence comes back.
    r = _check(client, gid, t0, {"action": {"type": "end_turn"}})
    assert r.status_code == 200
    assert r.json() == {
        "legal": False,
        "reason": "the game starts with the draft: choose a tile from the display (§5.6)",
    }
    after = client.get(f"/api/games/{gid}?token={t0}").json()
    assert after["version"] == before["version"]
    assert after["view"] == before["view"]


def test_check_explains_a_placement_that_does_not_fit(client: TestClient) -> None:
    g = new_game(client, [{"kind": "human"}, {"kind": "bot", "level": "easy"}])
    gid, t0 = g["id"], g["seats"][0]["token"]
    # through the draft to round 1 (the bot drafts on its own task: wait for it)
    for _ in range(400):
        st_ = client.get(f"/api/games/{gid}?token={t0}").json()
        if st_["current_player"] != 0:
            time.sleep(0.01)
            continue
        if st_["view"]["round"] >= 1:
            break
        act = st_["legal_actions"][0]
        r = client.post(
            f"/api/games/{gid}/actions?token={t0}", json={"version": st_["version"], "action": act}
        )
        assert r.status_code == 200, r.text
    assert st_["view"]["round"] >= 1 and st_["current_player"] == 0
    place = next(a for a in st_["legal_actions"] if a["type"] == "place")
    far = {**place, "x": 0, "y": 0}
    r = _check(client, gid, t0, {"action": far})
    assert r.status_code == 200
    body = r.json()
    assert body["legal"] is False and body["reason"]
    assert _check(client, gid, t0, {"action": place}).json() == {"legal": True}


def test_check_refuses_spectators_other_seats_and_malformed_bodies(client: TestClient) -> None:
    g = new_game(client, TWO)
    gid, t0, t1 = g["id"], g["seats"][0]["token"], g["seats"][1]["token"]
    act = {"type": "draft", "index": 0}
    assert _check(client, gid, None, {"action": act}).status_code == 403
    assert _check(client, gid, t1, {"action": act}).status_code == 403  # not seat 1's turn
    assert _check(client, gid, "nope", {"action": act}).status_code == 403
    for bad in ({}, {"action": 3}, [], {"action": {"type": "fly"}}, {"action": {"type": "move"}}):
        r = _check(client, gid, t0, bad)
        assert r.status_code == 400, (bad, r.text)
        assert r.json()["detail"]
    assert client.post(f"/api/games/nope/check?token={t0}", json={"action": act}).status_code == 404


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    action=st.dictionaries(
        st.sampled_from(["type", "vehicle", "tile", "x", "y", "to", "index", "source", "side"]),
        st.one_of(
            st.integers(-5, 20), st.text(max_size=6), st.none(), st.lists(st.integers(), max_size=3)
        ),
    )
)
def test_check_never_fails_on_any_action(client: TestClient, action: dict[str, Any]) -> None:
    g = new_game(client, TWO)
    gid, t0 = g["id"], g["seats"][0]["token"]
    before = client.get(f"/api/games/{gid}").json()
    r = _check(client, gid, t0, {"action": action})
    assert r.status_code in (200, 400), r.text
    assert client.get(f"/api/games/{gid}").json()["version"] == before["version"]


def test_check_with_a_fresh_server(sqlite_url: str) -> None:
    with make_client(sqlite_url) as c:
        g = new_game(c, TWO)
        r = _check(c, g["id"], g["seats"][0]["token"], {"action": {"type": "draft", "index": 9}})
        assert r.status_code == 200 and r.json()["legal"] is False
