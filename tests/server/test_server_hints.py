"""Hints and reviews (``GET /api/games/{id}/hint`` and ``/review``), for both games:
a hint is legal, comes from the seat's view only (the same hint after the hidden bag
or decks are drawn anew), is for the seat to move of a game that allows hints; a
review rates every move of a finished game, and only of a finished one."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import new_game, play, settings, wait_turn

from erebus.bots import analysis
from erebus.games import get_game
from erebus.server.advice import hint_from_view
from erebus.server.app import create_app

HUMAN = {"kind": "human"}
EASY = {"kind": "bot", "level": "easy"}
HB = [HUMAN, EASY, EASY]


def _client(url: str, **kw: Any) -> TestClient:
    st = settings()
    st.hint_iterations = 40
    st.review_iterations = 8
    st.hints_per_minute = 0
    for k, v in kw.items():
        setattr(st, k, v)
    return TestClient(create_app(url, st))


def _create(c: TestClient, game: str, seats: list[dict[str, Any]], **body: Any) -> Any:
    r = c.post("/api/games", json={"game": game, "players": len(seats), "seats": seats, **body})
    assert r.status_code == 201, r.text
    return r.json()


def _token(created: Any, seat: int = 0) -> str:
    tok = created["seats"][seat]["token"]
    assert tok
    return str(tok)


def _hidden_swapped(state: Any, seat: int, seed: int) -> Any:
    """A copy of ``state`` with its hidden information (bag order, decks) drawn anew:
    the same view for ``seat``, a different full state."""
    other = state.clone()
    if state.game == "iceandsnow":
        other.resample_hidden(seed, seat)
    else:
        other.resample_hidden(seed)
    assert other.view(seat) == state.view(seat)
    assert other.to_json() != state.to_json()
    return other


@pytest.mark.parametrize("game", ["northwest", "iceandsnow"])
def test_a_hint_is_legal_and_the_same_after_the_hidden_order_changes(
    sqlite_url: str, game: str
) -> None:
    with _client(sqlite_url) as c:
        created = _create(c, game, HB if game == "northwest" else [HUMAN, EASY], seed=3)
        gid, tok = created["id"], _token(created)
        g = wait_turn(c, gid, tok)
        assert g["options"]["hints"] is True  # every other seat is a bot
        rng = random.Random(1)
        service = c.app.state.service  # type: ignore[attr-defined]
        asked = 0
        for _ in range(12):
            if g["is_over"]:
                break
            r = c.get(f"/api/games/{gid}/hint?token={tok}")
            assert r.status_code == 200, r.text
            h = r.json()
            assert h["action"] in g["legal_actions"]
            assert h["reason"] and h["text"] and h["version"] == g["version"]
            # In the game's words (describe_action), not the engine's raw form.
            assert h["text"] != str(get_game(game).action_from_json(h["action"]))
            assert "=" not in h["text"] and h["text"] in h["reason"]
            assert c.get(f"/api/games/{gid}/hint?token={tok}").json() == h  # cached
            # From the view only: a world with the hidden order drawn anew, the same hint.
            live = service._games[gid]
            seed = analysis.public_seed(gid, live.version)
            swapped = _hidden_swapped(live.state, 0, 99 + asked)
            again = hint_from_view(game, swapped.view(0), seed, 40)
            assert again == {k: v for k, v in h.items() if k != "version"}
            asked += 1
            action = h["action"] if rng.random() < 0.5 else rng.choice(g["legal_actions"])
            r = c.post(
                f"/api/games/{gid}/actions?token={tok}",
                json={"version": g["version"], "action": action},
            )
            assert r.status_code == 200, r.text
            g = wait_turn(c, gid, tok)
        assert asked >= 5


@pytest.mark.parametrize("game", ["northwest", "iceandsnow"])
def test_the_analysis_hint_ignores_hidden_information(game: str) -> None:
    spec = get_game(game)
    players = 3 if game == "northwest" else 2
    for seed in (1, 2, 3):
        state = spec.new_game(players, seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(10, 40)):
            state.apply(rng.choice(state.legal_actions()))
        seat = state.current_player
        h = analysis.hint(state, 5, 30)
        assert spec.action_from_json(h["action"]) in state.legal_actions()
        assert analysis.hint(_hidden_swapped(state, seat, seed + 50), 5, 30) == h


def test_hint_refusals(sqlite_url: str) -> None:
    with _client(sqlite_url) as c:
        assert c.get("/api/games/nosuchgame/hint?token=x").status_code == 404
        created = new_game(c, [HUMAN, HUMAN])  # two people: hints off by default
        gid = created["id"]
        g = c.get(f"/api/games/{gid}").json()
        assert g["options"]["hints"] is False
        assert c.get(f"/api/games/{gid}/hint").status_code == 403  # no token
        assert c.get(f"/api/games/{gid}/hint?token=wrong").status_code == 403
        r = c.get(f"/api/games/{gid}/hint?token={_token(created)}")
        assert r.status_code == 403 and "off" in r.json()["detail"]
        # The host turns them on: only the seat to move gets one.
        on = _create(c, "northwest", [HUMAN, HUMAN], seed=2, options={"hints": True})
        gid = on["id"]
        assert c.get(f"/api/games/{gid}/hint?token={_token(on, 0)}").status_code == 200
        r = c.get(f"/api/games/{gid}/hint?token={_token(on, 1)}")
        assert r.status_code == 409 and "turn" in r.json()["detail"]
        off = _create(c, "northwest", HB, seed=2, options={"hints": False})
        assert c.get(f"/api/games/{off['id']}/hint?token={_token(off)}").status_code == 403
        bad = c.post("/api/games", json={"players": 3, "seats": HB, "options": {"hints": "yes"}})
        assert bad.status_code == 400


def test_hints_are_rate_limited_per_seat(sqlite_url: str) -> None:
    with _client(sqlite_url, hints_per_minute=1) as c:
        created = new_game(c, HB)
        gid, tok = created["id"], _token(created)
        assert c.get(f"/api/games/{gid}/hint?token={tok}").status_code == 200
        assert c.get(f"/api/games/{gid}/hint?token={tok}").status_code == 200  # cached
        play(c, gid, tok, 1)
        r = c.get(f"/api/games/{gid}/hint?token={tok}")
        assert r.status_code == 429, r.text


def _review(c: TestClient, gid: str) -> Any:
    end = time.monotonic() + 120
    while True:
        r = c.get(f"/api/games/{gid}/review")
        if r.status_code == 200:
            return r.json()
        assert r.status_code == 202, r.text
        body = r.json()
        assert body["status"] == "running" and 0 <= body["done"] <= body["total"]
        assert time.monotonic() < end, "the review did not finish"
        time.sleep(0.05)


@pytest.mark.parametrize("game", ["northwest", "iceandsnow"])
def test_a_finished_game_is_reviewed_move_by_move(sqlite_url: str, game: str) -> None:
    with _client(sqlite_url) as c:
        seats = [EASY] * (3 if game == "northwest" else 2)
        created = _create(c, game, seats, seed=4)
        gid = created["id"]
        g = wait_turn(c, gid, None, timeout=120)
        assert g["is_over"]
        steps = c.get(f"/api/games/{gid}/replay").json()["steps"]
        review = _review(c, gid)
        assert len(review["moves"]) == steps
        assert [m["step"] for m in review["moves"]] == list(range(1, steps + 1))
        assert len(review["chances"]) == steps + 1
        for m in review["moves"]:
            assert m["loss"] >= 0 and m["text"]
            played = get_game(game).action_from_json(m["action"])
            assert m["text"] != str(played) and "=" not in m["text"] + m["best_text"]
            assert m["mistake"] == (m["loss"] >= analysis.MISTAKE_LOSS)
            assert len(m["chances"]) == len(seats)
            assert all(0.0 <= p <= 1.0 for p in m["chances"])
        assert [s["seat"] for s in review["seats"]] == list(range(len(seats)))
        assert review["names"] and review["id"] == gid
        assert c.get(f"/api/games/{gid}/review").json() == review  # computed once


def test_no_review_while_the_game_goes_on(sqlite_url: str) -> None:
    with _client(sqlite_url) as c:
        assert c.get("/api/games/nosuchgame/review").status_code == 404
        gid = new_game(c, HB)["id"]
        r = c.get(f"/api/games/{gid}/review")
        assert r.status_code == 409 and "progress" in r.json()["detail"]
