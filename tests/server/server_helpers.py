"""Helpers for the web-server tests (plain functions; the fixtures are in
``conftest.py``).  A module of its own, so that test modules import it by a name no
other test directory uses (two ``conftest`` modules would shadow each other when
``tests/server`` and ``tests/browser`` are collected in one run)."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient

from erebus.server.app import create_app
from erebus.server.service import Settings

PG_ENV = "EREBUS_TEST_POSTGRES_URL"
PG_SKIP = (
    f"PostgreSQL tests are off: set {PG_ENV}, e.g. "
    f"{PG_ENV}=postgresql+psycopg://postgres@127.0.0.1:5432/test"
)


def settings() -> Settings:
    # No rate limits: the tests poll (tests/server/test_server_limits.py tests them).
    return Settings(bot_mode="inline", hard_iterations=10, api_rate=0, create_per_minute=0)


def make_client(db_url: str) -> TestClient:
    return TestClient(create_app(db_url, settings()))


HBB = [{"kind": "human"}, {"kind": "bot", "level": "medium"}, {"kind": "bot", "level": "easy"}]


def new_game(c: TestClient, seats: list[dict[str, Any]] | None = None, seed: int = 2) -> Any:
    """A game; with the default seed, seat 0 moves first (2 and 3 players)."""
    seats = seats or HBB
    r = c.post("/api/games", json={"players": len(seats), "seats": seats, "seed": seed})
    assert r.status_code == 201, r.text
    return r.json()


def wait_turn(c: TestClient, gid: str, token: str | None, timeout: float = 10.0) -> Any:
    """The game once the token's seat may act (or the game is over)."""
    q = f"?token={token}" if token else ""
    end = time.monotonic() + timeout
    while True:
        g = c.get(f"/api/games/{gid}{q}").json()
        if g["is_over"] or g["legal_actions"]:
            return g
        assert time.monotonic() < end, "the bots did not move"
        time.sleep(0.005)


def play(c: TestClient, gid: str, token: str, moves: int) -> Any:
    """Make ``moves`` of the human's moves (the first legal action each time)."""
    g = wait_turn(c, gid, token)
    for _ in range(moves):
        if g["is_over"]:
            break
        r = c.post(
            f"/api/games/{gid}/actions?token={token}",
            json={"version": g["version"], "action": g["legal_actions"][0]},
        )
        assert r.status_code == 200, r.text
        g = wait_turn(c, gid, token)
    return g


def undoable(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """A legal action that reveals nothing hidden (no draw from the display, no refresh)."""
    for a in legal:
        if a["type"] in ("transfer", "move", "place") or (
            a["type"] == "draw" and a.get("source") == "pile"
        ):
            return a
    raise AssertionError(f"no undoable action among {legal}")
