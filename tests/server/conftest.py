"""Fixtures for the web-server tests: a fresh database per test (SQLite file,
and PostgreSQL when ``EREBUS_TEST_POSTGRES_URL`` is set), apps with in-process bots."""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from erebus.server.app import create_app
from erebus.server.service import Settings

PG_ENV = "EREBUS_TEST_POSTGRES_URL"
PG_SKIP = (
    f"PostgreSQL tests are off: set {PG_ENV}, e.g. "
    f"{PG_ENV}=postgresql+psycopg://postgres@127.0.0.1:5432/test"
)


def settings() -> Settings:
    return Settings(bot_mode="inline", hard_iterations=10)


def make_client(db_url: str) -> TestClient:
    return TestClient(create_app(db_url, settings()))


@pytest.fixture
def sqlite_url(tmp_path: Any) -> str:
    return f"sqlite:///{tmp_path}/erebus.db"


@pytest.fixture
def postgres_url() -> Iterator[str]:
    base = os.environ.get(PG_ENV)
    if not base:
        pytest.skip(PG_SKIP)
    schema = f"t_{uuid.uuid4().hex[:12]}"
    admin = create_engine(base)
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    sep = "&" if "?" in base else "?"
    try:
        yield f"{base}{sep}options=-csearch_path%3D{schema}"
    finally:
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request: pytest.FixtureRequest) -> str:
    name = "sqlite_url" if request.param == "sqlite" else "postgres_url"
    return str(request.getfixturevalue(name))


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with make_client(sqlite_url) as c:
        yield c


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
