"""The PostgreSQL log writer on the event loop (erebus.server.pglog): what it stores
equals what the storage's own path stores, a taken index stores nothing, and the
server uses it in its own loop (falling back to threads elsewhere)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from server_helpers import make_client, new_game, play

from erebus.server.pglog import AsyncLog, Pending, insert_sql, libpq_conninfo
from erebus.server.storage import SeatInfo, Since, StaleVersion, Storage

pytest.importorskip("psycopg_pool")


def test_conninfo_keeps_host_credentials_and_options() -> None:
    url = "postgresql+psycopg://bob:s3cret@db.example:6543/erebus?options=-csearch_path%3Dt_1"
    info = libpq_conninfo(url)
    assert info.startswith("postgresql://bob:s3cret@db.example:6543/erebus?")
    assert "search_path" in info and "psycopg" not in info


def test_one_statement_and_the_end_only_with_the_rows() -> None:
    rows: list[Any] = [(0, {"type": "pass"}, "action", None), (1, {"type": "x"}, "bot", None)]
    sql, params = insert_sql([Pending("g1", 4, rows, False)])
    assert sql.count("INSERT") == 1 and "UPDATE" not in sql and len(params) == 14
    assert params[1] == 4 and params[8] == 5  # consecutive indices
    sql, params = insert_sql([Pending("g1", 4, rows, True)])
    assert sql.startswith("WITH ins AS (INSERT") and sql.count("UPDATE games") == 1
    assert params[-1] == ["g1"]
    # A group commit: several games' rows in one statement, the ended ones marked.
    batch = [Pending("g1", 4, rows, True), Pending("g2", 0, rows[:1], False)]
    sql, params = insert_sql([*batch, Pending("g3", 9, rows[1:], True)])
    assert sql.count("INSERT") == 1 and len(params) == 4 * 7 + 1
    assert params[-1] == ["g1", "g3"] and params[14] == "g2" and params[21:23] == ["g3", 9]


def _new_stored_game(storage: Storage, gid: str) -> None:
    storage.create_game(gid, "northwest", 2, 7, {}, [])


def test_rows_round_trip_and_a_taken_index_stores_nothing(postgres_url: str) -> None:
    storage = Storage(postgres_url)
    try:
        _new_stored_game(storage, "gw1")
        storage.append_action("gw1", 0, 0, {"type": "first"}, False)

        async def scenario() -> None:
            w = AsyncLog(postgres_url, size=2)
            assert not w.usable()
            await w.open()
            assert w.usable()
            try:
                await w.append("gw1", 1, [(1, {"type": "a", "n": [1, 2]}, "bot", None)], False)
                # Rows 2 and 3 in one statement: both stored, the game not over.
                await w.append(
                    "gw1", 2, [(0, {"type": "b"}, "action", None), (0, {}, "undo", 2)], False
                )
                with pytest.raises(StaleVersion):  # 3 is taken: 4 is not stored either
                    await w.append(
                        "gw1", 3, [(1, {"type": "c"}, "action", None), (1, {}, "bot", None)], True
                    )
                with pytest.raises(StaleVersion):  # no such game
                    await w.append("nope", 0, [(0, {}, "action", None)], False)
            finally:
                await w.close()

        asyncio.run(scenario())
        rec = storage.load_game("gw1")
        assert rec is not None and rec.status == "active"
        got = [(e.index, e.seat, e.kind, e.action, e.undoes) for e in rec.log]
        assert got == [
            (0, 0, "action", {"type": "first"}, None),
            (1, 1, "bot", {"type": "a", "n": [1, 2]}, None),
            (2, 0, "action", {"type": "b"}, None),
            (3, 0, "undo", {}, 2),
        ]

        async def finish() -> None:
            w = AsyncLog(postgres_url, size=1)
            await w.open()
            try:
                await w.append("gw1", 4, [(1, {"type": "end"}, "action", None)], True)
            finally:
                await w.close()

        asyncio.run(finish())
        rec = storage.load_game("gw1")
        assert rec is not None and rec.status == "over" and len(rec.log) == 5
    finally:
        storage.close()


def test_not_usable_in_another_loop(postgres_url: str) -> None:
    w = AsyncLog(postgres_url, size=1)

    async def open_it() -> None:
        await w.open()

    loop = asyncio.new_event_loop()
    try:
        loop.run_until_complete(open_it())

        async def other() -> bool:
            return w.usable()

        assert asyncio.run(other()) is False  # a second loop falls back to threads
    finally:
        loop.run_until_complete(w.close())
        loop.close()


def test_the_server_commits_through_it(postgres_url: str) -> None:
    with make_client(postgres_url) as c:
        writer = c.app.state.service._log_writer  # type: ignore[attr-defined]
        assert writer is not None
        g = new_game(c, [{"kind": "human"}, {"kind": "bot", "level": "easy"}])
        play(c, g["id"], g["seats"][0]["token"], 3)
        used = writer._pool.get_stats().get("requests_num", 0)
        assert used >= 4  # the human's moves and the bot's
        version = c.get(f"/api/games/{g['id']}").json()["version"]
    with make_client(postgres_url) as c:  # a restart reads back every committed row
        assert c.get(f"/api/games/{g['id']}").json()["version"] == version


def test_log_since_reads_what_the_storage_reads(postgres_url: str) -> None:
    storage = Storage(postgres_url)
    try:
        storage.create_game("gr1", "northwest", 2, 7, {}, [_seat(0), _seat(1)])
        for i in range(4):
            storage.append_action("gr1", i, i % 2, {"type": "t", "i": i}, False)
        storage.append_action("gr1", 4, 0, {}, False, kind="undo", undoes=3)

        async def reads() -> list[Any]:
            w = AsyncLog(postgres_url, size=1)
            await w.open()
            try:
                out = [await w.log_since("gr1", i) for i in (0, 3, 5, 9)]
                out.append([storage.log_since("gr1", i) for i in (0, 3, 5, 9)])
                assert storage.set_rematch("gr1", "next1")
                storage.set_joined("gr1", 1)
                out.append(await w.log_since("gr1", 5))
                out.append(await w.log_since("missing", 0))
                return out
            finally:
                await w.close()

        got = asyncio.run(reads())
        assert got[:4] == got[4] and len(got[0].rows) == 5
        assert got[2] == Since([], None, frozenset())
        assert got[5] == Since([], "next1", frozenset({1})) == storage.log_since("gr1", 5)
        assert got[6] == Since([], None, frozenset()) == storage.log_since("missing", 0)
    finally:
        storage.close()


def _seat(seat: int) -> SeatInfo:
    return SeatInfo(seat, "human", None, f"hash{seat}", None, False)


def test_group_commit_stores_all_and_only_the_loser_fails(postgres_url: str) -> None:
    storage = Storage(postgres_url)
    try:
        for g in range(30):
            _new_stored_game(storage, f"gg{g}")
        storage.append_action("gg7", 0, 0, {"type": "taken"}, False)  # gg7's 0 is taken

        async def storm() -> tuple[list[Any], int]:
            w = AsyncLog(postgres_url, size=2)
            await w.open()
            statements = 0
            execute = w._execute

            async def counted(batch: list[Pending]) -> None:
                nonlocal statements
                statements += 1
                await execute(batch)

            w._execute = counted  # type: ignore[method-assign]
            try:
                results = await asyncio.gather(
                    *(
                        w.append(
                            f"gg{g}", 0, [(0, {"type": "first", "g": g}, "action", None)], g == 3
                        )
                        for g in range(30)
                    ),
                    return_exceptions=True,
                )
                return list(results), statements
            finally:
                await w.close()

        results, statements = asyncio.run(storm())
        assert [i for i, r in enumerate(results) if r is not None] == [7]
        assert isinstance(results[7], StaleVersion)
        # Two went at once; the other 28 waited together (a batch, then its retry
        # one by one after gg7's conflict, and whatever came after).
        assert statements < 30 + 28
        for g in range(30):
            rec = storage.load_game(f"gg{g}")
            assert rec is not None and len(rec.log) == 1
            want = {"type": "taken"} if g == 7 else {"type": "first", "g": g}
            assert rec.log[0].action == want
            assert rec.status == ("over" if g == 3 else "active")
    finally:
        storage.close()


def test_group_commit_without_a_loser_is_one_statement(postgres_url: str) -> None:
    storage = Storage(postgres_url)
    try:
        for g in range(20):
            _new_stored_game(storage, f"gh{g}")

        async def storm() -> int:
            w = AsyncLog(postgres_url, size=1)
            await w.open()
            sizes: list[int] = []
            execute = w._execute

            async def counted(batch: list[Pending]) -> None:
                sizes.append(len(batch))
                await execute(batch)

            w._execute = counted  # type: ignore[method-assign]
            try:
                await asyncio.gather(
                    *(w.append(f"gh{g}", 0, [(1, {"g": g}, "bot", None)], False) for g in range(20))
                )
            finally:
                await w.close()
            assert sum(sizes) == 20
            return len(sizes)

        assert asyncio.run(storm()) == 2  # the first alone, then the 19 that waited
        assert all(len(storage.load_game(f"gh{g}").log) == 1 for g in range(20))  # type: ignore[union-attr]
    finally:
        storage.close()
