"""Hosting limits: new games per address, games in play, API requests per address,
the bots' think time and fair turns at the workers, abandoned games, and finished or
idle games leaving memory (and coming back the same)."""

from __future__ import annotations

import asyncio
import dataclasses
import math
import time
from collections.abc import Awaitable, Callable, Hashable
from typing import Any

import pytest
import server_helpers
from fastapi.testclient import TestClient
from server_helpers import wait_turn
from starlette.websockets import WebSocketDisconnect

from erebus.bots.pool import FairQueue
from erebus.server.app import create_app
from erebus.server.guard import TokenBuckets
from erebus.server.service import GameService, Settings
from erebus.server.storage import Storage

HUMANS = [{"kind": "human"}, {"kind": "human"}]
EASY_BOTS = [{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}]


def client(url: str, **limits: Any) -> TestClient:
    return TestClient(create_app(url, dataclasses.replace(server_helpers.settings(), **limits)))


def create(c: TestClient, seats: list[dict[str, Any]] = HUMANS, **extra: Any) -> Any:
    return c.post("/api/games", json={"players": len(seats), "seats": seats, "seed": 2, **extra})


# ------------------------------------------------------------ rate limits


def test_token_buckets() -> None:
    b = TokenBuckets(rate=0.5, burst=2)
    assert b.take("a", 0.0) == 0.0 and b.take("a", 0.0) == 0.0
    assert b.take("a", 0.0) == pytest.approx(2.0)  # one token every 2 s
    assert b.take("b", 0.0) == 0.0  # per key
    assert b.take("a", 1.0) == pytest.approx(1.0)
    assert b.take("a", 2.0) == 0.0
    assert TokenBuckets(rate=0, burst=1).take("a", 0.0) == 0.0  # off


def test_token_buckets_stay_bounded() -> None:
    b = TokenBuckets(rate=1.0, burst=1, max_keys=100)
    for i in range(1000):
        b.take(f"10.0.0.{i}", float(i) / 1000)
    assert len(b._buckets) <= 100
    b2 = TokenBuckets(rate=1.0, burst=5, max_keys=10)
    for i in range(50):
        b2.take(str(i), 1000.0 + i * 10)  # every old bucket is full again by now
    assert len(b2._buckets) <= 10


def test_games_per_address(sqlite_url: str) -> None:
    with client(sqlite_url, create_per_minute=3) as c:
        for _ in range(3):
            assert create(c).status_code == 201
        r = create(c)
        assert r.status_code == 429
        assert "3 a minute" in r.json()["detail"]
        assert int(r.headers["retry-after"]) >= 1
        assert c.get("/api/games").status_code == 200  # other requests go on


def test_server_full(sqlite_url: str) -> None:
    with client(sqlite_url, max_live_games=2) as c:
        assert create(c).status_code == 201
        assert create(c).status_code == 201
        r = create(c)
        assert r.status_code == 429
        assert "full" in r.json()["detail"]


def test_server_full_makes_room_from_idle_games(sqlite_url: str) -> None:
    """Before refusing, games nobody watches leave memory (and no longer count)."""
    with client(sqlite_url, max_live_games=2, max_idle_games=0) as c:
        a = create(c).json()
        with c.websocket_connect(f"/ws/games/{a['id']}"):
            assert create(c).status_code == 201
            assert create(c).status_code == 201  # the second left memory
            service = c.app.state.service  # type: ignore[attr-defined]
            assert a["id"] in service._games


def test_api_rate_per_address(sqlite_url: str) -> None:
    with client(sqlite_url, api_rate=0.001, api_burst=3) as c:
        for _ in range(3):
            assert c.get("/api/games").status_code == 200
        r = c.get("/api/games")
        assert r.status_code == 429
        assert int(r.headers["retry-after"]) >= 1
        assert r.headers["x-content-type-options"] == "nosniff"  # still a guarded answer
        assert c.get("/").status_code == 200  # pages and static files are not counted
        with pytest.raises(WebSocketDisconnect) as exc, c.websocket_connect("/ws/games/x"):
            pass
        assert exc.value.code == 4429


# ----------------------------------------------------------------- bots


def test_think_time_is_capped(sqlite_url: str) -> None:
    s = dataclasses.replace(server_helpers.settings(), hard_iterations=None, max_think_s=2.5)
    with TestClient(create_app(sqlite_url, s)) as c:
        seats = [{"kind": "human"}, {"kind": "bot", "level": "hard"}]
        g = create(c, seats, options={"time_s": 30}).json()
        live = c.app.state.service._games[g["id"]]  # type: ignore[attr-defined]
        spec = c.app.state.service._spec(live, 1)  # type: ignore[attr-defined]
        assert spec.name == "mcts" and spec.time_s == 2.5


def test_fair_queue_round_robin() -> None:
    """Game a asks for three choices at once, then game b for one: b goes second."""

    async def main() -> list[str]:
        q = FairQueue(slots=1)
        order: list[str] = []
        gates = {k: asyncio.Event() for k in ("a1", "a2", "a3", "b1")}

        def job(name: str) -> Callable[[], Awaitable[str]]:
            async def run() -> str:
                order.append(name)
                await gates[name].wait()
                return name

            return run

        tasks = [asyncio.create_task(q.run("a", job(n))) for n in ("a1", "a2", "a3")]
        await asyncio.sleep(0)
        tasks.append(asyncio.create_task(q.run("b", job("b1"))))
        for name in ("a1", "b1", "a2", "a3"):
            while name not in order:
                await asyncio.sleep(0)
            gates[name].set()
        assert await asyncio.gather(*tasks) == ["a1", "a2", "a3", "b1"]
        return order

    assert asyncio.run(main()) == ["a1", "b1", "a2", "a3"]


def test_fair_queue_one_per_key_and_cancel() -> None:
    async def main() -> tuple[int, int, list[str]]:
        q = FairQueue(slots=4)
        running: dict[Hashable, int] = {}
        most: dict[Hashable, int] = {}
        ran: list[str] = []

        def job(key: str, name: str) -> Callable[[], Awaitable[None]]:
            async def run() -> None:
                running[key] = running.get(key, 0) + 1
                most[key] = max(most.get(key, 0), running[key])
                ran.append(name)
                for _ in range(3):
                    await asyncio.sleep(0)
                running[key] -= 1

            return run

        tasks = [asyncio.create_task(q.run("a", job("a", f"a{i}"))) for i in range(5)]
        tasks += [asyncio.create_task(q.run(k, job(k, k))) for k in ("b", "c")]
        await asyncio.sleep(0)
        tasks[4].cancel()  # a4 waits behind a0..a3: it never runs
        results = await asyncio.gather(*tasks, return_exceptions=True)
        assert isinstance(results[4], asyncio.CancelledError)
        return most["a"], q.running, ran

    most_a, running, ran = asyncio.run(main())
    assert most_a == 1 and running == 0
    assert "a4" not in ran and {"a0", "a1", "a2", "a3", "b", "c"} == set(ran)
    assert ran.index("b") < ran.index("a1") and ran.index("c") < ran.index("a1")


def test_bots_queue_per_game(sqlite_url: str) -> None:
    """A medium bot's choice goes through the fair queue under its game's id."""
    with client(sqlite_url) as c:
        service = c.app.state.service  # type: ignore[attr-defined]
        keys: list[Hashable] = []
        real = service._fair.run

        async def run(key: Hashable, start: Callable[[], Awaitable[Any]]) -> Any:
            keys.append(key)
            return await real(key, start)

        service._fair.run = run
        g = create(c, [{"kind": "human"}, {"kind": "bot", "level": "medium"}]).json()
        token = g["seats"][0]["token"]
        state = wait_turn(c, g["id"], token)
        a = state["legal_actions"][0]
        r = c.post(f"/api/games/{g['id']}/actions?token={token}", json={"version": 0, "action": a})
        assert r.status_code == 200
        for _ in range(2000):  # until the bot has moved (it may take several actions)
            if keys:
                break
            time.sleep(0.005)
        assert keys and set(keys) == {g["id"]}


# ------------------------------------------------------ abandoned games


def _service(url: str, **kw: Any) -> GameService:
    return GameService(Storage(url), dataclasses.replace(server_helpers.settings(), **kw))


def test_abandoned_games_stop_their_bots(sqlite_url: str) -> None:
    """Nobody watching and no request for ``abandon_after_s``: the bots stop after
    the move they are making; a request for the game starts them again."""

    async def main() -> tuple[int, int, bool]:
        service = _service(sqlite_url, abandon_after_s=1000.0)
        real = service._choose
        calls: list[str] = []

        async def choose(spec: Any, state: Any, salt: int, key: str = "") -> Any:
            calls.append(key)
            if len(calls) == 1:  # the first move: the table is abandoned meanwhile
                service.residency.last_active[key] = -math.inf
            return await real(spec, state, salt, key)

        service._choose = choose  # type: ignore[method-assign]
        g = await service.create({"players": 2, "seats": EASY_BOTS, "seed": 2})
        live = service._games[g["id"]]
        await service.wait_bots(live)
        stopped_at = live.version
        assert service.residency.abandoned(live)
        service._kick_bots(live)  # nothing happens while abandoned
        assert live.bot_task is None or live.bot_task.done()
        again = await service.get(g["id"])  # someone asks: the bots resume
        await service.wait_bots(again)
        out = stopped_at, again.version, bool(again.state.is_over)
        await service.close()
        service.storage.close()
        return out

    stopped_at, version, over = asyncio.run(main())
    assert stopped_at == 1
    assert version > 1 and over


def test_a_watched_game_is_never_abandoned(sqlite_url: str) -> None:
    with client(sqlite_url, abandon_after_s=0.0) as c:
        g = create(c).json()
        service = c.app.state.service  # type: ignore[attr-defined]
        live = service._games[g["id"]]
        with c.websocket_connect(f"/ws/games/{g['id']}") as ws:
            ws.receive_json()
            assert not service.residency.abandoned(live)
        assert service.residency.abandoned(live)


# --------------------------------------------------------------- memory


def _wait_over(c: TestClient, gid: str) -> Any:
    for _ in range(4000):
        g = c.get(f"/api/games/{gid}").json()
        if g["is_over"]:
            return g
        time.sleep(0.005)
    raise AssertionError("the bots did not finish")


def test_finished_games_leave_memory_and_come_back(sqlite_url: str) -> None:
    with client(sqlite_url, evict_after_s=0.0) as c:
        service = c.app.state.service  # type: ignore[attr-defined]
        g = create(c, EASY_BOTS).json()
        gid = g["id"]
        _wait_over(c, gid)
        before = c.get(f"/api/games/{gid}")
        chat = c.get(f"/api/games/{gid}/chat").json()
        # The state says "over" as soon as the last move is applied; the bot task that
        # made it may still be storing and pushing it (the game is busy until then, and
        # a busy game is never evicted), so the sweep is retried for a moment.  The
        # background sweep (every 50 ms with evict_after_s=0) may be the one that drops it.
        for _ in range(400):
            c.portal.call(service.sweep, None, True)  # type: ignore[union-attr]
            if gid not in service._games:
                break
            time.sleep(0.005)
        else:
            raise AssertionError("a finished, idle game was never evicted")
        assert gid not in service._games
        after = c.get(f"/api/games/{gid}")
        assert after.status_code == 200 and after.text == before.text
        assert c.get(f"/api/games/{gid}/chat").json() == chat
        # (Whether it is still in memory now is the background sweep's business: with
        # evict_after_s=0 it may already have dropped it again.)


def test_finished_games_linger_while_recent(sqlite_url: str) -> None:
    with client(sqlite_url, evict_after_s=60.0) as c:
        service = c.app.state.service  # type: ignore[attr-defined]
        gid = create(c, EASY_BOTS).json()["id"]
        _wait_over(c, gid)
        now = time.monotonic()
        assert c.portal.call(service.sweep, now, True) == []  # type: ignore[union-attr]
        assert gid in c.portal.call(service.sweep, now + 61, True)  # type: ignore[union-attr]


def test_idle_games_are_capped_lru(sqlite_url: str) -> None:
    with client(sqlite_url, max_idle_games=1) as c:
        service = c.app.state.service  # type: ignore[attr-defined]
        ids = [create(c).json()["id"] for _ in range(4)]
        texts = {gid: c.get(f"/api/games/{gid}").text for gid in ids}
        with c.websocket_connect(f"/ws/games/{ids[0]}") as ws:
            ws.receive_json()
            c.get(f"/api/games/{ids[2]}")  # the most recent of the idle ones
            gone = c.portal.call(service.sweep, None, True)  # type: ignore[union-attr]
            assert set(gone) == {ids[1], ids[3]}  # not the watched one, not the newest
            assert set(service._games) == {ids[0], ids[2]}
        for gid in ids:
            assert c.get(f"/api/games/{gid}").text == texts[gid]


def test_residency_settings_have_defaults() -> None:
    s = Settings()
    assert (s.create_per_minute, s.api_rate, s.api_burst) == (20, 30.0, 60)
    assert (s.max_live_games, s.max_idle_games, s.max_think_s) == (2000, 500, 5.0)
    assert (s.abandon_after_s, s.evict_after_s, s.allowed_origins) == (3600.0, 60.0, ())


def test_finished_games_leave_memory_without_requests(sqlite_url: str) -> None:
    """A quiet server sweeps on a timer too (period: half of ``evict_after_s``)."""
    with client(sqlite_url, evict_after_s=0.1) as c:
        service = c.app.state.service  # type: ignore[attr-defined]
        gid = create(c, EASY_BOTS).json()["id"]
        _wait_over(c, gid)
        for _ in range(2000):  # no request meanwhile: only the timer can drop it
            if gid not in service._games:
                break
            time.sleep(0.005)
        assert gid not in service._games
        assert c.get(f"/api/games/{gid}").json()["is_over"]
