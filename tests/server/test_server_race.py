"""The race game (tests/support/race, registered in tests/conftest.py) through the HTTP
API: the server plays any registered game, with its options, unchanged."""

from __future__ import annotations

from fastapi.testclient import TestClient
from server_helpers import wait_turn


def test_create_and_act_until_the_race_is_over(client: TestClient) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "level": "medium"}]
    body = {"game": "race", "players": 2, "seats": seats, "game_options": {"goal": 4}}
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    gid, token = r.json()["id"], r.json()["seats"][0]["token"]
    moves = 0
    while True:
        g = wait_turn(client, gid, token)
        assert g["game"] == "race" and g["web_board"] is None
        assert g["game_options"] == {"goal": 4} and g["view"]["goal"] == 4
        if g["is_over"]:
            break
        assert g["legal_costs"] == [None] * len(g["legal_actions"])
        step = {"version": g["version"], "action": g["legal_actions"][-1]}
        r = client.post(f"/api/games/{gid}/actions?token={token}", json=step)
        assert r.status_code == 200, r.text
        moves += 1
        assert moves < 20
    assert max(g["scores"]) == 4 and g["ranking"] is not None
    bad = client.post("/api/games", json={**body, "game_options": {"goal": 99}})
    assert bad.status_code == 400 and "goal" in bad.json()["detail"]
