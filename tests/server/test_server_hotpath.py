"""The server's hot path (2026-12-02): a fast bot's turn stored in one transaction,
the log rows several at a time, the garbage collector's policy of ``erebus serve``,
the WebSocket compression and the trace of ``bench server --trace-slow``."""

from __future__ import annotations

import asyncio
import gc
from pathlib import Path
from typing import Any

import orjson
import pytest
import server_helpers

from erebus.bench.server import GameResult, Phase, render_trace, slow_trace
from erebus.games import get_game
from erebus.server import deflate
from erebus.server.run import collect_rarely
from erebus.server.service import GameService
from erebus.server.storage import SeatInfo, StaleVersion, Storage

EASY_BOTS = [{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}]


def test_append_actions_is_one_transaction(db_url: str) -> None:
    st = Storage(db_url)
    try:
        st.create_game("g1", "northwest", 2, 5, {}, [SeatInfo(0, "human", None, "h" * 64)])
        rows = [(0, {"type": "draft", "index": i}, "bot", None) for i in range(3)]
        st.append_actions("g1", 0, rows, False)
        # a batch whose second row is taken stores none of its rows
        with pytest.raises(StaleVersion):
            st.append_actions("g1", 2, [(0, {"type": "pass"}, "bot", None)] * 2, False)
        st.append_actions("g1", 3, [(1, {"type": "pass"}, "bot", None)], True)
        rec = st.load_game("g1")
        assert rec is not None
        assert [e.index for e in rec.log] == [0, 1, 2, 3]
        assert rec.actions[:3] == [{"type": "draft", "index": i} for i in range(3)]
        assert rec.status == "over"
    finally:
        st.close()


def test_a_fast_bot_turn_is_one_commit_and_the_same_game(sqlite_url: str) -> None:
    """Easy bots' consecutive moves: stored together (fewer commits than moves),
    the same moves as one at a time (each chosen with the salt of its version), and
    the stored log replays to the game in memory."""

    async def main() -> tuple[int, int, Any, Any]:
        service = GameService(Storage(sqlite_url), server_helpers.settings())
        commits: list[int] = []
        real = service.storage.append_actions

        def counting(game_id: str, index: int, rows: Any, over: bool) -> None:
            commits.append(len(rows))
            real(game_id, index, rows, over)

        service.storage.append_actions = counting  # type: ignore[method-assign]
        g = await service.create({"players": 2, "seats": EASY_BOTS, "seed": 3})
        live = service._games[g["id"]]
        await service.wait_bots(live)
        version, state = live.version, live.state
        service._forget(g["id"])  # read back from the log
        again = await service.get(g["id"])
        await service.close()
        service.storage.close()
        return version, len(commits), state, again

    version, commits, state, again = asyncio.run(main())
    assert state.is_over and again.version == version
    assert commits < version  # several moves per transaction
    spec = get_game("northwest")
    assert orjson.dumps(spec.wire_view(again.state, None)) == orjson.dumps(
        spec.wire_view(state, None)
    )


def test_collect_rarely_freezes_and_collects_in_full() -> None:
    class Cycle:
        def __init__(self) -> None:
            self.me = self

    async def main() -> None:
        task = asyncio.get_running_loop().create_task(collect_rarely(0.01, 0.05))
        await asyncio.sleep(0.03)
        assert gc.get_freeze_count() > 0  # frozen meanwhile
        Cycle()  # garbage in a cycle: waits for the full collection
        await asyncio.sleep(0.15)
        task.cancel()

    freed: list[int] = []

    def seen(phase: str, info: dict[str, Any]) -> None:
        if phase == "stop" and info["generation"] == 2:
            freed.append(info["collected"])

    gc.callbacks.append(seen)
    try:
        asyncio.run(main())
    finally:
        gc.callbacks.remove(seen)
        gc.unfreeze()
    assert sum(freed) >= 1


def test_deflate_protocol_uses_the_wide_window() -> None:
    assert deflate.SERVER_WINDOW_BITS == 15
    assert deflate.COMPRESS_SETTINGS["level"] == 1
    import uvicorn

    from erebus.bench.server import echo_app

    config = uvicorn.Config(echo_app(), ws=deflate.DeflateWebSocketProtocol)
    config.load()
    loop = asyncio.new_event_loop()
    try:
        proto = deflate.DeflateWebSocketProtocol(config, _server_state(), {}, loop)
    finally:
        loop.close()
    (factory,) = proto.conn.available_extensions
    assert factory.server_max_window_bits == 15
    assert factory.client_max_window_bits == 12


def _server_state() -> Any:
    from uvicorn.server import ServerState

    return ServerState()


def test_slow_trace_tells_what_the_server_did(tmp_path: Path) -> None:
    res = GameResult("g")
    res.trips = [(4, 10.0, 10.050), (6, 20.0, 20.002)]
    phase = Phase([res], 1.0, 0.1, {"g": 8}, 0, 0, True, {"g": "northwest"})
    rows = [
        ["gc", 10.001, 10.040, 0.039, "", "gen0 collected 0"],
        ["msg", 10.041, 10.049, 0.008, "g", "action v4"],
        ["push", 10.045, 10.048, 0.003, "g", "v5 100 B"],
        ["msg", 20.0005, 20.0015, 0.001, "g", "action v6"],
    ]
    path = tmp_path / "trace.jsonl"
    path.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in rows))
    t = slow_trace(phase, path, share=0.5)
    assert t["trips"] == 1 and t["unmatched"] == 0 and t["with_gc"] == 1
    assert t["median_ms"]["before"] == pytest.approx(41.0)
    assert t["median_ms"]["handle"] == pytest.approx(7.0)  # up to the answer's send
    assert t["before_busy_share"]["gc"] > 0.9
    assert any("gc" in line for line in render_trace(t))


def test_slow_trace_reads_each_trip_in_its_process(tmp_path: Path) -> None:
    """``--processes N``: one trace per process; a trip is read where it was handled."""
    a, b = GameResult("a"), GameResult("b")
    a.trips = [(2, 10.0, 10.030)]
    b.trips = [(3, 10.0, 10.020), (5, 30.0, 30.001)]
    phase = Phase([a, b], 1.0, 0.1, {"a": 4, "b": 6}, 0, 0, True, {})
    zero = [  # process 0 handled game a, and was in a gc while a's message waited
        ["gc", 10.000, 10.025, 0.025, "", "gen2"],
        ["msg", 10.026, 10.029, 0.003, "a", "action v2"],
    ]
    one = [  # process 1 handled game b: a catch-up (another process's rows) first
        ["catchup", 10.001, 10.015, 0.0001, "b", "v3 +1"],
        ["msg", 10.016, 10.019, 0.003, "b", "action v3"],
        ["msg", 30.0001, 30.0005, 0.0003, "b", "action v5"],
    ]
    paths = [tmp_path / "trace-0.jsonl", tmp_path / "trace-1.jsonl"]
    for p, rows in zip(paths, (zero, one), strict=True):
        p.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in rows))
    t = slow_trace(phase, paths, share=0.6)
    assert t["trips"] == 2 and t["unmatched"] == 0
    assert t["with_gc"] == 1  # only a's trip: b's process had no gc
    assert t["before_busy_share"]["catchup"] > 0.2 and t["before_busy_share"]["gc"] > 0.4
    assert {s["process"] for s in t["samples"]} == {"process 0", "process 1"}
    assert t["spans"]["catchup"]["n"] == 1 and t["spans"]["msg"]["n"] == 3
    assert any("process 1" in line for line in render_trace(t))
